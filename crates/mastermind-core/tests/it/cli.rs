//! End-to-end tests of the `mastermind` binary, with standard input piped.

use mastermind_core::{Code, Game, Score};
use test_support::Cli;

/// `mastermind`, standard input empty unless a test gives some.
fn mastermind() -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_mastermind"))
}

/// The menu of spec §5 with the title `Mastermind`, up to and including the prompt.
const MENU: &str = "\n\
/================================\\\n\
| Mastermind                     |\n\
|~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|\n\
| [H] Human player               |\n\
| [C] Computer player            |\n\
| [B] Both players are computers |\n\
| [Q] Quit                       |\n\
|~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|\n\
|> ";

const BOTTOM: &str = "\\================================/\n";

#[test]
fn both_plays_the_dbcb_example() {
    mastermind()
        .args(["both", "--secret", "dbcb"])
        .run()
        .stdout_is(
            "Computer turn 1: \"abcd\" => 21\n\
             Computer turn 2: \"aabd\" => 02\n\
             Computer turn 3: \"bbca\" => 21\n\
             Computer turn 4: \"dbcb\" => 40\n\
             I'm the best!\n",
        )
        .clean();
}

#[test]
fn menu_quit_draws_the_box() {
    // The original's `main` prints an empty line after its menu returns.
    let want = format!("{MENU}| ==> Quit                       |\n{BOTTOM}\n");
    mastermind().stdin("q\n").run().stdout_is(&want).clean();
}

#[test]
fn menu_repeats_the_prompt_and_runs_a_computer_game() {
    let want = format!(
        "{MENU}|> |> | ==> Computer player            |\n{BOTTOM}\n\
         Computer turn 1: \"abcd\" => Computer turn 2: \"aabd\" => \
         Computer turn 3: \"bbca\" => Computer turn 4: \"dbcb\" => I'm the best!\n\
         {MENU}| ==> Quit                       |\n{BOTTOM}\n\n"
    );
    mastermind()
        .stdin(" x \nquit\nC\n21\n02\n21\n40\nQ\n")
        .run()
        .stdout_is(&want)
        .code(0);
}

#[test]
fn end_of_input_at_the_menu_is_quiet() {
    mastermind().run().stdout_is(MENU).clean();
}

#[test]
fn computer_game_with_an_invalid_score() {
    // "5x", "41" (sum above 4) and "2" are rejected and the same turn is asked again.
    mastermind()
        .arg("computer")
        .stdin("21\n5x\n41\n2\n02\n 21 \n40\n")
        .run()
        .stdout_is(
            "Computer turn 1: \"abcd\" => Computer turn 2: \"aabd\" => \
             Computer turn 2: \"aabd\" => Computer turn 2: \"aabd\" => \
             Computer turn 2: \"aabd\" => Computer turn 3: \"bbca\" => \
             Computer turn 4: \"dbcb\" => I'm the best!\n",
        )
        .code(0);
}

#[test]
fn computer_game_catches_a_cheater() {
    // abcd 00 leaves the codes over {e, f}; eeee 00 leaves ffff; ffff 00 leaves nothing.
    mastermind()
        .arg("computer")
        .stdin("00\n00\n00\n")
        .run()
        .stdout_is(
            "Computer turn 1: \"abcd\" => Computer turn 2: \"eeee\" => \
             Computer turn 3: \"ffff\" => You, cheater! You've made a mistake, haven't you?\n",
        )
        .code(0);
}

#[test]
fn end_of_input_in_a_game_is_quiet() {
    mastermind()
        .arg("computer")
        .stdin("21\n")
        .run()
        .stdout_is("Computer turn 1: \"abcd\" => Computer turn 2: \"aabd\" => ")
        .clean();
}

#[test]
fn human_game_with_hint_and_refused_guesses() {
    let r = mastermind()
        .args(["human", "--secret", "dbcb"])
        .stdin("?\nabzd\nabc\naabb\n?\ndbcb\n")
        .run();
    // aabb against dbcb: the last b is right, the other b is wrong: 1-1. The codes left are
    // counted here by brute force with `calc_score`; abcd is the first of them in the original
    // order (against aabb: the a is right, the b is wrong).
    let g = Game::default();
    let aabb = g.parse_code("aabb").unwrap();
    let left = (0..g.num_codes())
        .filter(|&c| g.calc_score(Code(c), aabb) == Score::new(1, 1))
        .count();
    r.stdout_is(&format!(
        "Human turn 1: 1296 codes are still possible: try abcd\n\
         Human turn 1: invalid code 'abzd': letter 'z' at position 3 is not a colour, expected letters a-f\n\
         Human turn 1: Human turn 1: score: 1-1\n\
         Human turn 2: {left} codes are still possible: try abcd\n\
         Human turn 2: score: 4-0\n\
         Congratulation!\n"
    ))
    .code(0);
}

#[test]
fn codes_are_read_in_either_case() {
    // As the menu takes `h` or `H`: ABCD is the guess abcd (against dbcb: 21, spec §1), and
    // the hint shows codes in lower case, as the original does. After abcd 21, aabd is the
    // first consistent code left in the original order (spec §2's dbcb game).
    mastermind()
        .args(["human", "--secret", "DBCB"])
        .stdin("ABCD\n?\nDbCb\n")
        .run()
        .stdout_has("Human turn 1: score: 2-1\nHuman turn 2: ")
        .stdout_has("still possible: try aabd\n")
        .stdout_has("Human turn 2: score: 4-0\nCongratulation!\n")
        .code(0);
    mastermind()
        .args(["score", "DBCB", "abcd"])
        .run()
        .stdout_is("21\n")
        .clean();
    mastermind()
        .args(["both", "--secret", "DBCB"])
        .run()
        .stdout_has("Computer turn 4: \"dbcb\" => 40\n")
        .clean();
}

#[test]
fn menu_human_game_with_a_seed() {
    let r = mastermind().args(["--seed", "7"]).stdin("h\nq\n").run();
    assert!(
        r.stdout.starts_with(&format!(
            "{MENU}| ==> Human player               |\n{BOTTOM}\nHuman turn 1: "
        )),
        "{}",
        r.describe()
    );
    r.code(0);
}

#[test]
fn knuth_computer_player_in_the_menu() {
    let r = mastermind()
        .args(["--strategy", "knuth"])
        .stdin("c\n")
        .run();
    assert!(
        r.stdout.ends_with("\nComputer turn 1: \"aabb\" => "),
        "{}",
        r.stdout
    );
    r.code(0);
}

#[test]
fn other_sizes() {
    // 3 pegs, 2 colours: first guess aba; bbb gives 10; the first code in order with
    // score 10 against aba is bbb.
    mastermind()
        .args(["--pegs", "3", "--colors", "2", "both", "--secret", "bbb"])
        .run()
        .stdout_is(
            "Computer turn 1: \"aba\" => 10\nComputer turn 2: \"bbb\" => 30\nI'm the best!\n",
        );
    mastermind()
        .args(["--pegs", "2", "--colors", "3"])
        .stdin("q\n")
        .run()
        .stdout_has("| [Q] Quit                       |\n");
    mastermind()
        .args(["--pegs", "5", "--colors", "8", "score", "aabbc", "hhhha"])
        .run()
        .stdout_is("01\n");
}

#[test]
fn seeded_games_are_reproducible() {
    let a = mastermind()
        .args(["both", "--seed", "42", "--strategy", "knuth"])
        .run();
    let b = mastermind()
        .args(["both", "--seed", "42", "--strategy", "knuth"])
        .run();
    assert_eq!(a.stdout, b.stdout);
    assert!(a.stdout.ends_with("I'm the best!\n"), "{}", a.describe());
    assert!(
        a.stdout.lines().count() <= 6,
        "knuth needs at most 5 guesses"
    );
}

#[test]
fn score_prints_two_digits() {
    mastermind()
        .args(["score", "dbcb", "abcd"])
        .run()
        .stdout_is("21\n")
        .code(0);
    mastermind()
        .args(["score", "dbcb", "aabd"])
        .run()
        .stdout_is("02\n");
}

#[test]
fn stats_text_and_json() {
    let r = mastermind().args(["stats", "--strategy", "knuth"]).run();
    r.stdout_is(
        "strategy: knuth\npegs: 4\ncolors: 6\ncodes: 1296\ntotal: 5801\naverage: 4.4761\n\
         worst: 5\nhistogram: 1/6/62/533/694\n",
    );
    // `human`, the word of every binary (the old `text` still works).
    for format in ["human", "text"] {
        mastermind()
            .args(["stats", "--strategy", "knuth", "--format", format])
            .label(format!("--format {format}"))
            .run()
            .stdout_is(&r.stdout);
        let plain = mastermind()
            .args(["tree", "--pegs", "2", "--colors", "2"])
            .run();
        mastermind()
            .args(["tree", "--pegs", "2", "--colors", "2", "--format", format])
            .label(format!("tree --format {format}"))
            .run()
            .stdout_is(&plain.stdout);
    }
    mastermind()
        .args(["stats", "--help"])
        .run()
        .stdout_has("human")
        .stdout_lacks("text");
    let r = mastermind().args(["stats", "--format", "json"]).run();
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["strategy"], "first-consistent");
    assert_eq!(
        (v["pegs"].as_u64(), v["colors"].as_u64()),
        (Some(4), Some(6))
    );
    assert_eq!(
        (v["codes"].as_u64(), v["total"].as_u64()),
        (Some(1296), Some(6671))
    );
    assert!((v["average"].as_f64().unwrap() - 6671.0 / 1296.0).abs() < 1e-9);
    assert_eq!(v["worst"].as_u64(), Some(9));
    assert_eq!(
        v["histogram"],
        serde_json::json!([1, 13, 73, 256, 465, 360, 110, 16, 2])
    );
    assert_eq!(v.as_object().unwrap().len(), 8);
}

#[test]
fn stats_with_a_first_guess() {
    mastermind()
        .args(["stats", "--strategy", "knuth", "--first", "aabb"])
        .run()
        .stdout_has("total: 5801\n");
}

/// `mastermind ARGS` is refused as bad input: exit 2, nothing on standard
/// output, an `error: ` on standard error holding every one of `needles`.
#[track_caller]
fn bad(args: &[&str], needles: &[&str]) {
    let r = mastermind().args(args).label(format!("{args:?}")).run();
    r.code(2).stdout_is("").stderr_starts("error: ");
    for n in needles {
        r.stderr_has(n);
    }
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    bad(
        &["both", "--secret", "abc"],
        &["'abc'", "3 letters", "expected 4"],
    );
    bad(&["human", "--secret", "abcz"], &["'abcz'", "'z'", "a-f"]);
    bad(&["stats", "--first", "aabbx"], &["'aabbx'", "expected 4"]);
    bad(&["stats", "--first", "aabg"], &["'g'", "a-f"]);
    bad(&["--pegs", "0"], &["'0'", "1..=8"]);
    bad(&["--colors", "27", "computer"], &["'27'", "2..=26"]);
    bad(
        &["--strategy", "foo", "stats"],
        &["'foo'", "knuth", "most-parts", "entropy"],
    );
    bad(&["score", "dbcb", "abc"], &["'abc'"]);
    // The optimal search's own limit (4096 codes), not the heuristics' 2097152.
    bad(
        &[
            "--pegs",
            "8",
            "--colors",
            "8",
            "both",
            "--strategy",
            "optimal",
        ],
        &["'optimal'", "at most 4096 codes", "16777216"],
    );
    bad(&["both", "--secret", "abcd", "--seed", "1"], &["--seed"]);
    bad(&["--seed", "1", "both", "--secret", "abcd"], &["--seed"]);
}

#[test]
fn flags_apply_only_where_they_mean_something() {
    let r = mastermind().args(["score", "--help"]).run();
    r.code(0).stdout_has("--pegs").stdout_has("--colors");
    for flag in ["--strategy", "--max-guesses", "--seed", "--first"] {
        r.stdout_lacks(flag);
    }
    bad(
        &["--strategy", "knuth", "score", "dbcb", "abcd"],
        &["--strategy", "score"],
    );
    bad(
        &["score", "--strategy", "knuth", "dbcb", "abcd"],
        &["--strategy"],
    );
    bad(&["--seed", "1", "stats"], &["--seed", "stats"]);
    // Flags of the player and the seed may come before or after the subcommand.
    let r = mastermind()
        .args(["--strategy", "knuth", "both", "--secret", "dbcb"])
        .run();
    assert!(
        r.stdout.starts_with("Computer turn 1: \"aabb\""),
        "{}",
        r.stdout
    );
    let b = mastermind().args(["both", "--seed", "42"]).run();
    mastermind()
        .args(["--seed", "42", "both"])
        .run()
        .code(0)
        .stdout_is(&b.stdout);
}

#[test]
fn version_is_printed() {
    mastermind()
        .arg("--version")
        .run()
        .code(0)
        .stdout_is(&format!("mastermind {}\n", env!("CARGO_PKG_VERSION")));
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_exits_2() {
    // Standard output on /dev/full, where every write fails.
    mastermind()
        .args(["score", "dbcb", "abcd"])
        .stdout_to("/dev/full")
        .run()
        .code(2)
        .stderr_starts("error: ");
}

#[test]
fn a_closed_pipe_exits_quietly() {
    // The reader goes away before the tree (about 1400 lines) is written.
    let mut child = mastermind().args(["tree", "--strategy", "knuth"]).spawn();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
}

#[test]
fn the_biggest_game_is_played_without_listing_codes() {
    // 26^8 codes: first-consistent searches depth-first; the heuristics refuse clearly.
    let r = mastermind()
        .args([
            "--pegs", "8", "--colors", "26", "both", "--secret", "zyxwvuta",
        ])
        .run();
    r.code(0);
    assert!(
        r.stdout
            .starts_with("Computer turn 1: \"abcdefgh\" => 01\n"),
        "{}",
        r.describe()
    );
    assert!(
        r.stdout.ends_with("\"zyxwvuta\" => 80\nI'm the best!\n"),
        "{}",
        r.stdout
    );
    bad(
        &[
            "--pegs",
            "8",
            "--colors",
            "26",
            "--strategy",
            "knuth",
            "both",
        ],
        &["knuth", "2097152", "first-consistent"],
    );
}

/// The knuth 4×6 tree as `tree --format json` writes it.
fn knuth_tree() -> serde_json::Value {
    let r = mastermind()
        .args(["tree", "--strategy", "knuth", "--format", "json"])
        .run();
    r.code(0);
    serde_json::from_str(&r.stdout).unwrap()
}

/// `check-tree` reading `tree` from standard input.
fn check_tree(tree: &serde_json::Value) -> Cli {
    mastermind()
        .args(["check-tree", "-"])
        .stdin(tree.to_string())
}
#[test]
fn check_tree_accepts_a_written_tree() {
    check_tree(&knuth_tree())
        .run()
        .clean()
        // The figures of spec §7 for knuth, read back from the tree alone.
        .stdout_is(
            "pegs: 4\ncolors: 6\ncodes: 1296\ntotal: 5801\naverage: 4.4761\nworst: 5\n\
             histogram: 1/6/62/533/694\n",
        );
}

#[test]
fn a_key_not_on_the_menu_is_explained_on_a_terminal_only() {
    let keys = "type one letter, H, C, B or Q (either case)";
    let run = mastermind()
        .timeout(std::time::Duration::from_secs(60))
        .run_on_terminal("x\nhello\n\nQ\n");
    assert_eq!(run.code, Some(0), "{}", run.screen);
    for note in [
        format!("'x' is not on the menu: {keys}\r\n"),
        format!("'hello' is not on the menu: {keys}\r\n"),
        format!("no choice: {keys}\r\n"),
    ] {
        assert!(
            run.screen.contains(&note),
            "no {note:?} in:\n{}",
            run.screen
        );
    }
    // Piped, the transcript is the original's: the prompt again, no note.
    mastermind()
        .stdin("x\nhello\n\nQ\n")
        .run()
        .clean()
        .stdout_has("|> |> |> |> | ==> Quit");
}

#[test]
fn check_tree_skips_a_byte_order_mark() {
    // Windows Notepad saves UTF-8 with a byte-order mark in front.
    mastermind()
        .args(["check-tree", "-"])
        .stdin(format!("\u{feff}{}", knuth_tree()))
        .run()
        .clean()
        .stdout_has("total: 5801\n");
}

#[test]
fn check_tree_refuses_a_changed_score() {
    // At the first node (depth-first) where some score is given by no secret, move one
    // branch to that score.
    const SCORES: [&str; 13] = [
        "00", "01", "02", "03", "04", "10", "11", "12", "13", "20", "21", "22", "30",
    ];
    fn change(t: &mut serde_json::Value, path: &mut Vec<String>) -> Option<String> {
        path.push(t["guess"].as_str().unwrap().to_string());
        let next = t["next"].as_object_mut().unwrap();
        if let Some(free) = SCORES.into_iter().find(|k| !next.contains_key(*k))
            && let Some(moved) = next.keys().next().cloned()
        {
            let child = next.remove(&moved).unwrap();
            next.insert(free.to_string(), child);
            return Some(format!(
                "error: invalid tree at {}: branch {free} is unreachable",
                path.join(" ")
            ));
        }
        for (k, c) in next.iter_mut() {
            path.push(k.clone());
            if let Some(m) = change(c, path) {
                return Some(m);
            }
            path.pop();
        }
        path.pop();
        None
    }
    let mut t = knuth_tree();
    let want = change(&mut t, &mut Vec::new()).expect("a node without every score");
    check_tree(&t).run().code(1).stderr_starts(&want);
}

#[test]
fn check_tree_refuses_a_missing_secret() {
    // Remove the first leaf (a guess that only one secret reaches) found depth-first.
    fn cut(t: &mut serde_json::Value, path: &mut Vec<String>) -> Option<String> {
        let guess = t["guess"].as_str().unwrap().to_string();
        path.push(guess);
        let next = t["next"].as_object_mut().unwrap();
        let leaf = next
            .iter()
            .find(|(_, c)| c["candidates"] == 1)
            .map(|(k, c)| (k.clone(), c["guess"].as_str().unwrap().to_string()));
        if let Some((k, secret)) = leaf {
            next.remove(&k);
            return Some(format!(
                "error: invalid tree at {}: secret {secret} is never solved: it scores {k}",
                path.join(" ")
            ));
        }
        for (k, c) in next.iter_mut() {
            path.push(k.clone());
            if let Some(m) = cut(c, path) {
                return Some(m);
            }
            path.pop();
        }
        path.pop();
        None
    }
    let mut t = knuth_tree();
    let want = cut(&mut t, &mut Vec::new()).expect("a leaf");
    check_tree(&t).run().code(1).stderr_starts(&want);
}

#[test]
fn check_tree_refuses_an_unreachable_branch() {
    // aabb never scores 31 (three right and one wrong is impossible) ...
    let mut t = knuth_tree();
    let extra = serde_json::json!({"guess": "abcd"});
    t["next"]["31"] = extra.clone();
    check_tree(&t)
        .run()
        .code(1)
        .stderr_starts("error: invalid tree at aabb: branch 31 is unreachable");
    // ... and after aabb 40 the game is over.
    let mut t = knuth_tree();
    t["next"]["40"] = extra;
    check_tree(&t)
        .run()
        .code(1)
        .stderr_has("branch 40 follows the winning score");
}

#[test]
fn check_tree_unreadable_input_exits_2() {
    mastermind()
        .args(["check-tree", "-"])
        .stdin("{\"guess\": ")
        .run()
        .code(2)
        .stderr_starts("error: tree <stdin> is not JSON: ");
    mastermind()
        .args(["check-tree", "/no/such/tree.json"])
        .run()
        .code(2)
        .stderr_is("error: /no/such/tree.json: no such file or folder; give a tree in JSON (as mastermind tree --format json writes it), or - for standard input\n");
    // The right JSON for another game: the size is named.
    mastermind()
        .args(["check-tree", "--colors", "7", "-"])
        .stdin(knuth_tree().to_string())
        .run()
        .code(1)
        .stderr_has("give the tree's --pegs and --colors");
}

#[test]
fn tree_as_graphviz() {
    let r = mastermind()
        .args(["tree", "--strategy", "knuth", "--format", "dot"])
        .run();
    r.code(0);
    assert!(r.stdout.starts_with("digraph strategy {\n"));
    assert!(
        r.stdout
            .contains("  n0 [label=\"aabb\\n1296\", peripheries=2];\n"),
        "{}",
        &r.stdout[..200]
    );
    r.stdout_has("  n0 -> n1 [label=\"00\"];\n");
    mastermind()
        .args(["tree", "--colors", "7", "--format", "dot"])
        .run()
        .code(2)
        .stderr_has("too big to draw");
}
