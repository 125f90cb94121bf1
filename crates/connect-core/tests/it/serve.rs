//! `connect serve` as a process, over HTTP: its analyses equal `connect
//! solve --analyze` and Pons's published scores, bad requests get 400 and
//! what is valid, the parts print the fixtures' hand-made solutions, many
//! requests are answered side by side, a search given up says why, and
//! the page is served with its assets.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use serde_json::Value;
use test_support::Cli;

/// `connect` without colour.
fn connect() -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_connect")).env("NO_COLOR", "1")
}

/// A running `connect serve --port 0`, killed when dropped.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    address: String,
}

impl Server {
    /// Starts the server with `flags` and waits for the line with its address.
    fn start(flags: &[&str]) -> Server {
        Server::run(
            connect()
                .args(["serve", "--port", "0", "--table-mb", "16"])
                .args(flags),
        )
    }

    /// Runs `command`, a `connect serve --port 0`, and waits for its address.
    fn run(command: Cli) -> Server {
        let mut child = command.spawn();
        let stdout = child.stdout.take().expect("piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server's first line");
        let address = line
            .strip_prefix("serving on http://")
            .and_then(|rest| rest.strip_suffix("/\n"))
            .unwrap_or_else(|| panic!("not the address line: {line:?}"))
            .to_string();
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        Server { child, address }
    }

    /// The status, headers and body of a request of `method` on `path`.
    fn request(&self, method: &str, path: &str, host: &str, body: &[u8]) -> (u16, String, Vec<u8>) {
        let mut stream = TcpStream::connect(&self.address).expect("the server listens");
        // A safeguard against a hang, never a measure.
        stream
            .set_read_timeout(Some(Duration::from_secs(300)))
            .unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // The server may refuse a body before reading it all.
        let _ = stream.write_all(body);
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).expect("an answer");
        let split = answer
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a head and a body");
        let head = String::from_utf8(answer[..split].to_vec()).unwrap();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, head, answer[split + 4..].to_vec())
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (status, _, body) = self.request("GET", path, &self.address, b"");
        (status, serde_json::from_slice(&body).expect("a JSON body"))
    }

    fn post(&self, path: &str, body: &[u8]) -> (u16, Value) {
        let (status, _, body) = self.request("POST", path, &self.address, body);
        (status, serde_json::from_slice(&body).expect("a JSON body"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The first `n` lines of a benchmark set of `tests/data/`: `(moves, published score)`.
fn set(name: &str, n: usize) -> Vec<(String, i32)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .take(n)
        .map(|l| {
            let (m, s) = l.split_once(' ').unwrap();
            (m.to_string(), s.parse().unwrap())
        })
        .collect()
}

/// The scores of an analysis, `None` for a full column.
fn scores(analysis: &Value) -> Vec<Option<i64>> {
    analysis["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["score"].as_i64())
        .collect()
}

#[test]
fn an_analysis_equals_connect_solve_analyze_and_the_published_scores() {
    let server = Server::start(&[]);
    let mut positions: Vec<(String, Option<i32>)> = ["", "4453", "4444443"]
        .into_iter()
        .map(|p| (p.to_string(), None))
        .collect();
    positions.extend(set("Test_L3_R1", 4).into_iter().map(|(m, s)| (m, Some(s))));
    let input: String = positions.iter().map(|(m, _)| format!("{m}\n")).collect();
    let run = connect().args(["solve", "--analyze"]).stdin(&input).run();
    run.clean();
    let solved = run.stdout.clone();
    for ((moves, published), line) in positions.iter().zip(solved.lines()) {
        let (status, analysis) =
            server.get(&format!("/api/analyze?rows=6&cols=7&players=2&pos={moves}"));
        assert_eq!(status, 200, "{moves}: {analysis}");
        let got: Vec<String> = scores(&analysis)
            .iter()
            .map(|s| s.map_or("-".to_string(), |s| s.to_string()))
            .collect();
        let expected: Vec<&str> = line.split(' ').skip(1).collect();
        assert_eq!(
            got, expected,
            "{moves}: the page's scores and connect solve --analyze's"
        );
        assert_eq!(analysis["pos"], moves.as_str());
        assert_eq!(analysis["exact"], true);
        let best = scores(&analysis).into_iter().flatten().max().unwrap();
        if let Some(published) = published {
            assert_eq!(
                best,
                i64::from(*published),
                "{moves}: Pons's score is the best column's"
            );
        }
        let marked: Vec<i64> = analysis["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_i64().unwrap())
            .collect();
        let tops: Vec<i64> = scores(&analysis)
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == Some(best))
            .map(|(c, _)| c as i64 + 1)
            .collect();
        assert_eq!(marked, tops, "{moves}: the best columns marked");
    }
    // On 4x4 after 112233 the first player completes the bottom row with
    // its 4th stone in column 4: 8 + 1 - 4 = 5.
    let run = connect()
        .args(["solve", "--analyze", "--width", "4", "--height", "4"])
        .stdin("112233\n")
        .run();
    run.clean();
    let (_, analysis) = server.get("/api/analyze?rows=4&cols=4&pos=112233");
    let got: Vec<String> = scores(&analysis)
        .iter()
        .map(|s| s.map_or("-".to_string(), |s| s.to_string()))
        .collect();
    assert_eq!(format!("112233 {}\n", got.join(" ")), run.stdout);
    assert_eq!(analysis["columns"][3]["score"], 5);
    assert_eq!(analysis["columns"][3]["words"], "wins with its 4th stone");
    assert_eq!(analysis["best"], serde_json::json!([4]));
    // 4444443 leaves column 4 full.
    let (_, analysis) = server.get("/api/analyze?pos=4444443");
    assert_eq!(analysis["columns"][3]["playable"], false);
    assert_eq!(analysis["columns"][3]["score"], Value::Null);
    // The empty board: column 4 wins with the first player's last stone.
    let (_, analysis) = server.get("/api/analyze");
    assert_eq!(analysis["columns"][3]["words"], "wins with its 21st stone");
}

#[test]
fn more_players_and_big_boards_say_the_scores_are_not_exact() {
    let server = Server::start(&[]);
    let (status, analysis) = server.get("/api/analyze?rows=6&cols=7&players=3&pos=44");
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["exact"], false);
    assert!(
        analysis["note"]
            .as_str()
            .unwrap()
            .contains("exact only for two players")
    );
    assert_eq!(analysis["to_move"], 3);
    assert_eq!(analysis["best"].as_array().unwrap().len(), 1);
    // Columns past 9 are written with commas.
    let (status, analysis) = server.get("/api/analyze?rows=12&cols=12&players=2&pos=12,1,10");
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["exact"], false);
    assert_eq!(analysis["pos"], "12,1,10");
    assert_eq!(analysis["board"][11], "2--------1-1");
}

#[test]
fn the_computer_moves_at_each_level() {
    let server = Server::start(&[]);
    // 112233 on 4x4: every level but random takes the win in column 4
    // (easy wins at once; the look-ahead and the solver see it).
    for level in ["easy", "medium", "perfect"] {
        let (status, answer) =
            server.get(&format!("/api/move?rows=4&cols=4&pos=112233&level={level}"));
        assert_eq!(status, 200, "{level}: {answer}");
        assert_eq!(answer["col"], 4, "{level}");
        assert_eq!(answer["pos"], "1122334", "{level}");
    }
    let (status, answer) = server.get("/api/move?pos=4&level=random&seed=7&players=3");
    assert_eq!(status, 200, "{answer}");
    assert!((1..=7).contains(&answer["col"].as_i64().unwrap()));
    assert_eq!(answer["player"], 2);
    // The perfect player's answer to the empty board: the centre.
    let (_, answer) = server.get("/api/move");
    assert_eq!(answer["col"], 4);
}

#[test]
fn a_bad_request_gets_400_and_says_what_is_valid() {
    let server = Server::start(&[]);
    for (path, said) in [
        (
            "/api/analyze?pos=48",
            "move 2 is \"8\", not a column of the board (1 to 7)",
        ),
        ("/api/analyze?rows=0", "rows=\"0\": rows are 1 to 99"),
        ("/api/analyze?cols=100", "cols=\"100\": columns are 1 to 99"),
        (
            "/api/analyze?players=1",
            "players=\"1\": players are 2 to 35",
        ),
        ("/api/analyze?players=36", "players are 2 to 35"),
        (
            "/api/analyze?pos=1111111",
            "pos: move 7 (1): column 1 is full",
        ),
        (
            "/api/analyze?pos=12121213",
            "pos: move 8 (3): the game is over",
        ),
        (
            "/api/analyze?colour=red",
            "unknown parameter \"colour\"; this takes rows, cols, players, pos, tab",
        ),
        ("/api/analyze?pos=1&pos=2", "pos is given twice"),
        ("/api/analyze?pos=%ff", "not percent-encoded UTF-8"),
        (
            "/api/analyze?tab=a%20b",
            "a page's token is 1 to 64 letters, digits, - or _",
        ),
        (
            "/api/move?level=genius",
            "the levels are random, easy, medium and perfect",
        ),
        ("/api/move?seed=-1", "a seed is a whole number"),
        (
            "/api/move?pos=1212121",
            "the game is over (player 1 has won)",
        ),
    ] {
        let (status, answer) = server.get(path);
        assert_eq!(status, 400, "{path}: {answer}");
        let error = answer["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{path}: {answer}"));
        assert!(error.contains(said), "{path}: {error}");
    }
    // A game won is analysed as over.
    let (status, answer) = server.get("/api/analyze?pos=1212121");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["over"], true);
    assert_eq!(answer["winner"], "1");
    let (status, answer) = server.post("/api/parts?players=0", b"([\"-\"],[1])");
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("parts 3 and 4 take 1 to 35 players")
    );
    let (status, answer) = server.get("/nowhere");
    assert_eq!(status, 404);
    assert!(answer["error"].as_str().unwrap().contains("/api/analyze"));
    let (status, _) = server.post("/api/analyze", b"");
    assert_eq!(status, 405);
    let (status, answer) = server.get("/api/parts");
    assert_eq!(status, 405, "{answer}");
    let (status, answer) = server.post("/api/parts", &vec![b' '; (1 << 20) + 1]);
    assert_eq!(status, 413, "{answer}");
    // Another site's name for this machine is refused (DNS rebinding).
    let (status, _, _) = server.request("GET", "/api/analyze", "evil.example:80", b"");
    assert_eq!(status, 421);
    let (status, _, _) = server.request(
        "GET",
        "/",
        &server.address.replace("127.0.0.1", "localhost"),
        b"",
    );
    assert_eq!(status, 200);
}

#[test]
fn a_bad_game_file_gets_the_located_error_the_command_line_gives() {
    let server = Server::start(&[]);
    let dir = tempfile::tempdir().unwrap();
    for (text, said) in [
        (&b"([\"--\",\"-1\"],[1,3])"[..], "move 2 is 3"),
        (b"([,", "expected a row string"),
        (b"([\"-\xff\"],[1])", "not UTF-8 text"),
    ] {
        let path = dir.path().join("bad.cnf");
        std::fs::write(&path, text).unwrap();
        let run = connect()
            .arg("play")
            .arg("bad.cnf")
            .current_dir(dir.path())
            .run();
        run.code(2);
        let stderr = run.stderr.clone();
        let (status, answer) = server.post("/api/parts?name=bad.cnf", text);
        assert_eq!(status, 400, "{answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(said), "{error}");
        let printed = stderr.strip_prefix("error: ").unwrap().trim_end();
        // connect play names what to give for its own file argument.
        let printed = printed.split("; give").next().unwrap();
        let error = error.split("; give").next().unwrap();
        assert_eq!(error, printed, "the API's error and connect play's");
    }
}

#[test]
fn the_parts_print_the_fixtures_hand_made_solutions() {
    let server = Server::start(&[]);
    let fixtures = format!("{}/../../fixtures", env!("CARGO_MANIFEST_DIR"));
    for name in ["test03", "crlf", "diagonal-up-part3"] {
        let cnf = std::fs::read(format!("{fixtures}/{name}.cnf")).unwrap();
        let (status, answer) = server.post("/api/parts", &cnf);
        assert_eq!(status, 200, "{name}: {answer}");
        let parts = answer["parts"].as_array().unwrap();
        assert_eq!(parts.len(), 4);
        for part in parts {
            let function = part["function"].as_str().unwrap();
            let solution = format!("{fixtures}/{name}.{function}.solution");
            let Ok(expected) = std::fs::read_to_string(&solution) else {
                continue;
            };
            assert_eq!(part["text"], expected.as_str(), "{name} {function}");
            // The last step of a part is its result.
            let steps = part["steps"].as_array().unwrap();
            let rows = &steps.last().unwrap()["rows"];
            assert_eq!(rows, &part["rows"], "{name} {function}");
        }
    }
    // test03's moves one by one: part 4 gives a board after each.
    let cnf = std::fs::read(format!("{fixtures}/test03.cnf")).unwrap();
    let (_, answer) = server.post("/api/parts", &cnf);
    let moves = answer["moves"].as_array().unwrap().len();
    assert_eq!(answer["parts"][3]["steps"].as_array().unwrap().len(), moves);
    assert_eq!(answer["parts"][0]["steps"].as_array().unwrap().len(), 1);
    // Part 3: one move of each of its three players.
    assert_eq!(answer["parts"][2]["steps"].as_array().unwrap().len(), 3);
}

#[test]
fn many_requests_at_once_do_not_wait_and_a_replaced_search_gives_up() {
    // Without a book the empty board takes minutes even in a release
    // build: its analysis can end only by being given up.
    let server = Server::start(&["--no-book", "--think", "0"]);
    let (sent, long) = mpsc::channel();
    thread::scope(|s| {
        s.spawn(|| {
            let _ = sent.send(server.get("/api/analyze?tab=page1"));
        });
        // Meanwhile everything else is answered.
        for (moves, score) in set("Test_L3_R1", 3) {
            let (status, analysis) = server.get(&format!("/api/analyze?tab=page2&pos={moves}"));
            assert_eq!(status, 200, "{analysis}");
            assert_eq!(
                scores(&analysis).into_iter().flatten().max(),
                Some(i64::from(score))
            );
        }
        let (status, _, page) = server.request("GET", "/", &server.address, b"");
        assert_eq!(status, 200);
        assert!(!page.is_empty());
        assert!(
            long.try_recv().is_err(),
            "the empty board was solved without a book"
        );
        // A newer analysis from the same page replaces the long one (sent
        // until the long one is seen given up: the first may come before
        // the long one has started).
        let mut given_up = None;
        for _ in 0..500 {
            let (status, _) =
                server.get("/api/analyze?tab=page1&pos=2252576253462244111563365343671351441");
            assert_eq!(status, 200);
            if let Ok(answer) = long.recv_timeout(Duration::from_millis(100)) {
                given_up = Some(answer);
                break;
            }
        }
        let (status, answer) = given_up.expect("the replaced search went on");
        assert_eq!(status, 503, "{answer}");
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .contains("a newer request from the same page replaced this one"),
            "{answer}"
        );
    });
}

#[test]
fn a_search_past_the_limit_is_given_up_and_says_so() {
    let server = Server::start(&["--no-book", "--think", "1s"]);
    // An analysis past the limit gives a look-ahead's pick, and says so.
    let (status, answer) = server.get("/api/analyze");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["exact"], false);
    let note = answer["note"].as_str().unwrap();
    assert!(
        note.contains("longer than the server's limit of 1 s"),
        "{note}"
    );
    assert!(note.contains("a look-ahead's pick"), "{note}");
    assert_eq!(answer["best"].as_array().unwrap().len(), 1);
    // A move past it is given up: 503 and why.
    let (status, answer) = server.get("/api/move?level=perfect");
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("longer than the server's limit of 1 s"),
        "{answer}"
    );
    // The table kept only what was proved: a position then still gets its score.
    let (moves, score) = set("Test_L3_R1", 1).remove(0);
    let (status, analysis) = server.get(&format!("/api/analyze?pos={moves}"));
    assert_eq!(status, 200);
    assert_eq!(
        scores(&analysis).into_iter().flatten().max(),
        Some(i64::from(score))
    );
}

#[test]
fn clients_that_announce_a_body_and_never_send_it_hold_up_no_one() {
    let server = Server::start(&[]);
    // More than the server's 8 receiving threads, each answered and then
    // held: tiny_http reads a body over 1 KiB to its end before the
    // request is dropped, and these bodies never come. Each is answered
    // before the next connects.
    let held: Vec<TcpStream> = (0..12)
        .map(|i| {
            let mut stream = TcpStream::connect(&server.address).unwrap();
            let (method, path, status) = if i % 2 == 0 {
                ("POST", "/nowhere", b"HTTP/1.1 404")
            } else {
                ("GET", "/api/analyze?pos=4", b"HTTP/1.1 200")
            };
            let head = format!(
                "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: 100000\r\n\r\n",
                server.address
            );
            stream.write_all(head.as_bytes()).unwrap();
            let mut got = [0; 12];
            stream.read_exact(&mut got).unwrap();
            assert_eq!(&got, status, "{i}: {}", String::from_utf8_lossy(&got));
            stream
        })
        .collect();
    let (status, _, body) = server.request("GET", "/", &server.address, b"");
    assert_eq!(status, 200);
    assert!(String::from_utf8(body).unwrap().contains("/app.js"));
    let (status, answer) = server.get("/api/analyze?pos=44");
    assert_eq!(status, 200, "{answer}");
    drop(held);
}

/// A connection to `server` with `head` sent, and a safeguard against a hang.
fn sent(server: &Server, head: &str) -> TcpStream {
    let mut stream = TcpStream::connect(&server.address).expect("the server listens");
    stream
        .set_read_timeout(Some(Duration::from_secs(300)))
        .unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    stream
}

/// The first 12 bytes of the answer on `stream`: `HTTP/1.1 NNN`.
fn status_line(stream: &mut TcpStream) -> String {
    let mut got = [0; 12];
    stream.read_exact(&mut got).expect("an answer");
    String::from_utf8_lossy(&got).into_owned()
}

#[test]
fn a_request_announcing_an_enormous_body_does_not_end_the_server() {
    let server = Server::start(&[]);
    // Each round's answer comes before the server reads the rest of the
    // body, which never comes: the next round is the server going on.
    for round in 0..3 {
        let mut stream = sent(
            &server,
            &format!(
                "GET /api/analyze?pos=4 HTTP/1.1\r\nHost: {}\r\nContent-Length: 100000000000000\r\n\r\nxx",
                server.address
            ),
        );
        assert_eq!(status_line(&mut stream), "HTTP/1.1 200", "round {round}");
        drop(stream);
        let (status, answer) = server.get("/api/analyze?pos=44");
        assert_eq!(status, 200, "round {round}: {answer}");
    }
}

#[test]
fn connections_that_arrive_together_are_all_answered() {
    let server = Server::start(&[]);
    // Kept alive after their answer, as a browser keeps them: each holds
    // a thread of the server while it stays open. All connect first, so
    // the server takes them in one burst.
    let mut streams: Vec<TcpStream> = (0..16)
        .map(|_| TcpStream::connect(&server.address).expect("the server listens"))
        .collect();
    for stream in &mut streams {
        stream
            .set_read_timeout(Some(Duration::from_secs(300)))
            .unwrap();
        let head = format!(
            "GET /style.css HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.address
        );
        stream.write_all(head.as_bytes()).unwrap();
    }
    for (i, stream) in streams.iter_mut().enumerate() {
        assert_eq!(status_line(stream), "HTTP/1.1 200", "connection {i}");
    }
}

#[test]
fn a_server_out_of_file_descriptors_takes_connections_again_once_they_are_freed() {
    let prlimit = std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !prlimit {
        let line = "skipped: serve::a_server_out_of_file_descriptors_takes_connections_again_once_they_are_freed: \
                    needs prlimit (`apt-get install util-linux`)";
        let _ = writeln!(std::io::stderr(), "{line}");
        return;
    }
    // 48 descriptors: about 20 connections (each two), then accept fails.
    let server = Server::run(Cli::new("prlimit").env("NO_COLOR", "1").args([
        "--nofile=48:48",
        env!("CARGO_BIN_EXE_connect"),
        "serve",
        "--port",
        "0",
    ]));
    let mut held: Vec<TcpStream> = (0..40)
        .map(|_| {
            sent(
                &server,
                &format!(
                    "GET /style.css HTTP/1.1\r\nHost: {}\r\n\r\n",
                    server.address
                ),
            )
        })
        .collect();
    // The first 16 are surely taken; the server goes on to the rest and
    // runs out of descriptors.
    for (i, stream) in held.iter_mut().take(16).enumerate() {
        assert_eq!(status_line(stream), "HTTP/1.1 200", "connection {i}");
    }
    drop(held);
    let (status, _, body) = server.request("GET", "/", &server.address, b"");
    assert_eq!(status, 200);
    assert!(String::from_utf8(body).unwrap().contains("/app.js"));
}

#[test]
fn a_request_line_or_header_without_end_is_cut_off() {
    let server = Server::start(&[]);
    // Past 64 KiB the connection is closed unanswered, where the server
    // kept every byte of a line that never ended.
    let long = "1".repeat(70 * 1024);
    let mut stream = sent(
        &server,
        &format!(
            "GET /api/analyze?pos={long} HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.address
        ),
    );
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    assert!(answer.is_empty(), "{}", String::from_utf8_lossy(&answer));
    // A long position of a big board is still taken: 30 rows of 99
    // columns filled in turn by 13 players (no four in a row: 13 divides
    // none of 98, 99, 100), written with commas (about 8 KiB).
    let pos: Vec<String> = (0..99 * 30).map(|i| (i % 99 + 1).to_string()).collect();
    let (status, answer) = server.get(&format!(
        "/api/analyze?rows=99&cols=99&players=13&pos={}",
        pos.join(",")
    ));
    assert_eq!(status, 200, "{answer}");
}

#[test]
fn the_page_is_served_with_its_assets() {
    let server = Server::start(&[]);
    for (path, kind, has) in [
        ("/", "text/html", "<script src=\"/app.js\""),
        ("/", "text/html", "href=\"/style.css\""),
        ("/app.js", "text/javascript", "/api/analyze?"),
        ("/app.js", "text/javascript", "history.replaceState"),
        ("/style.css", "text/css", "prefers-color-scheme: dark"),
    ] {
        let (status, head, body) = server.request("GET", path, &server.address, b"");
        assert_eq!(status, 200, "{path}");
        let head = head.to_ascii_lowercase();
        assert!(
            head.contains(&format!("content-type: {kind}")),
            "{path}: {head}"
        );
        let body = String::from_utf8(body).unwrap();
        assert!(body.contains(has), "{path} lacks {has}");
        // No script but the page's own file, no other base, no other
        // site's frame, no sniffing another type, no referrer sent on.
        for header in [
            "content-security-policy: default-src 'self';",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "x-content-type-options: nosniff",
            "referrer-policy: no-referrer",
        ] {
            assert!(head.contains(header), "{path} lacks {header}: {head}");
        }
    }
    // The page has no inline script or style for the policy to refuse.
    let (_, _, page) = server.request("GET", "/", &server.address, b"");
    let page = String::from_utf8(page).unwrap();
    assert!(
        !page.contains("<script>") && !page.contains("style="),
        "{page}"
    );
}

#[test]
fn a_port_in_use_or_a_bad_address_is_said() {
    let server = Server::start(&[]);
    let port = server.address.rsplit(':').next().unwrap();
    connect()
        .args(["serve", "--port", port])
        .run()
        .code(2)
        .stderr_has(&format!(
            "--address 127.0.0.1 --port {port}: cannot listen there"
        ));
    connect()
        .args(["serve", "--address", "localhost"])
        .run()
        .code(2)
        .stderr_has("invalid IP address syntax");
}
