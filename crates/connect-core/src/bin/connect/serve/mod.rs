//! `connect serve`: the page to play and analyse Connect Four in a browser,
//! and the JSON API it calls, over `tiny_http` (no async runtime).
//!
//! The page is three files built into the binary (`page/index.html`,
//! `page/app.js`, `page/style.css`, through `include_str!`): nothing is
//! downloaded and nothing is built but the binary. The API is `api.rs`:
//! `GET /api/analyze`, `GET /api/move`, `POST /api/parts` (the guide,
//! docs/connect-four.md, describes each).
//!
//! # Threads and the solver
//! [`WORKERS`] threads take requests from the listener and answer each on
//! a thread of its own, so neither a long analysis nor a client that
//! announces a body and never sends it holds up the page or another
//! request; at most [`SEARCHES`] searches run at once (past that, 503). One solver per board size is kept for the life of
//! the server (at most [`SIZES_KEPT`] sizes at once), and each search runs
//! on a [`connect_core::solve::Solver::share`] of it: its own stop flag,
//! the one table of its size, so what one request proved the next one
//! finds, and searches side by side fill one table as a search's own
//! threads do.
//!
//! # Giving up
//! Every search has a stop flag, set when the search runs past `--think`
//! or when the same page (its `tab` token) asks for a newer analysis or
//! move: a position left behind is not searched on. A search given up
//! for a newer one answers 503 with the reason; an analysis past
//! `--think` answers a short look-ahead's pick instead, and says so; a
//! move past it answers 503. (`tiny_http` does not say when a client
//! goes away: the page's `tab` token is how a search is known to be stale.)
//!
//! # What is refused
//! A request of another `Host` than the server's own address (a page of
//! another site reaching a loopback server through a DNS name that points
//! at 127.0.0.1) is refused with 421 while the server listens on loopback;
//! bodies over [`api::MAX_BODY`] with 413; a bad parameter with 400 and
//! `{"error": "what was wrong; what is valid"}`.

mod api;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use connect_core::solve::{Book, Size, Solver};
use frontend::Failure;
use tiny_http::{Header, Method, Request, Response, Server};

use crate::args::ServeArgs;

/// Threads answering requests.
pub(crate) const WORKERS: usize = 8;

/// Searches (analyses and moves) run at once; one more is answered 503.
pub(crate) const SEARCHES: usize = 8;

/// Board sizes whose solver (and table) is kept at once; 7 × 6 is never dropped.
pub(crate) const SIZES_KEPT: usize = 4;

/// The page's three files.
const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// What every request shares: the solvers kept warm, the searches under
/// way by page, the limits.
pub(crate) struct State {
    /// The book of `--book FILE`, for its board size.
    book: Option<Book>,
    /// `--no-book`: search every position, even those of the built-in book.
    no_book: bool,
    table_mb: usize,
    threads: usize,
    /// One solver per board size; requests search on shares of it.
    solvers: Mutex<HashMap<(usize, usize), Solver>>,
    /// The stop flag of the search under way for each page's `tab` token.
    searching: Mutex<HashMap<String, Flags>>,
    /// The most a search may take (`--think`; zero: no limit).
    think: Duration,
    /// Searches under way, at most [`SEARCHES`].
    running: AtomicUsize,
}

/// A search's flags: the solver's stop, and why it was set.
#[derive(Clone)]
struct Flags {
    stop: Arc<AtomicBool>,
    /// Set when a newer request came from the search's page.
    superseded: Arc<AtomicBool>,
}

/// A search's stop flag, registered under its page's token until dropped.
pub(crate) struct Search<'a> {
    state: &'a State,
    tab: Option<String>,
    /// Set when the search is to give up (the solver's stop flag).
    pub(crate) stop: Arc<AtomicBool>,
    flags: Flags,
    /// Dropped when the search ends, which ends the timer thread.
    _done: Option<mpsc::Sender<()>>,
    timed_out: Arc<AtomicBool>,
}

impl Search<'_> {
    /// Whether it was given up because a newer request came from its page.
    pub(crate) fn superseded(&self) -> bool {
        self.flags.superseded.load(Ordering::SeqCst)
    }

    /// Why the search was given up, if it was.
    pub(crate) fn given_up(&self) -> Option<String> {
        if self.flags.superseded.load(Ordering::SeqCst) {
            Some("a newer request from the same page replaced this one".to_string())
        } else if self.timed_out.load(Ordering::SeqCst) {
            Some(format!(
                "the search took longer than the server's limit of {} (connect serve --think)",
                shown(self.state.think)
            ))
        } else {
            None
        }
    }
}

impl Drop for Search<'_> {
    fn drop(&mut self) {
        self.state.running.fetch_sub(1, Ordering::SeqCst);
        if let Some(tab) = &self.tab {
            let mut searching = self
                .state
                .searching
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if searching
                .get(tab)
                .is_some_and(|f| Arc::ptr_eq(&f.stop, &self.stop))
            {
                searching.remove(tab);
            }
        }
    }
}

/// `--think`'s limit as a person reads it.
fn shown(limit: Duration) -> String {
    let ms = limit.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

impl State {
    fn new(args: &ServeArgs) -> Result<State, Failure> {
        let book = match &args.book.book {
            None => None,
            Some(path) => {
                let text = frontend::input::read_text(
                    &path.to_string_lossy(),
                    "--book FILE, a book written by connect book, or --no-book",
                )?
                .text;
                Some(Book::from_text(&text).map_err(|e| {
                    Failure::Usage(format!(
                        "--book {}: {}",
                        path.display(),
                        crate::escaped(&e.to_string())
                    ))
                })?)
            }
        };
        let threads = args.book.search.threads.map_or_else(
            || thread::available_parallelism().map_or(1, usize::from),
            usize::from,
        );
        Ok(State {
            book,
            no_book: args.book.no_book,
            table_mb: usize::from(args.book.search.table_mb),
            threads,
            solvers: Mutex::new(HashMap::new()),
            searching: Mutex::new(HashMap::new()),
            think: args.think,
            running: AtomicUsize::new(0),
        })
    }

    /// The book the server answers positions of `size` from.
    pub(crate) fn book_for(&self, size: Size) -> Option<Book> {
        if self.no_book {
            return None;
        }
        match &self.book {
            Some(book) if book.size() == size => Some(book.clone()),
            _ => (size == Size::STANDARD).then(Book::standard),
        }
    }

    /// A solver for `size` sharing the table of the one kept for that size.
    pub(crate) fn solver(&self, size: Size) -> Solver {
        let key = (size.width(), size.height());
        let mut solvers = self.solvers.lock().unwrap_or_else(|e| e.into_inner());
        if !solvers.contains_key(&key) {
            if solvers.len() >= SIZES_KEPT {
                solvers.retain(|&(w, h), _| (w, h) == (7, 6));
            }
            let mut solver = if size.bits() >= 40 {
                Solver::with_table_mb(size, self.table_mb)
            } else {
                Solver::with_table_bits(size, 18)
            };
            solver.set_threads(self.threads);
            if let Some(book) = self.book_for(size) {
                solver
                    .set_book(book)
                    .expect("a book is only given to a solver of its size");
            }
            solvers.insert(key, solver);
        }
        solvers[&key].share()
    }

    /// A stop flag for a new search from the page `tab` (if given): the
    /// page's search before it is given up, and this one is given up once
    /// it runs past `--think`; a 503 when [`SEARCHES`] run already.
    pub(crate) fn search(&self, tab: Option<&str>) -> Result<Search<'_>, Answer> {
        let flags = Flags {
            stop: Arc::new(AtomicBool::new(false)),
            superseded: Arc::new(AtomicBool::new(false)),
        };
        // The page's search before this one is given up even when this one
        // is refused: the page has left its position.
        let mut searching = self.searching.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = tab.and_then(|tab| searching.remove(tab)) {
            old.superseded.store(true, Ordering::SeqCst);
            old.stop.store(true, Ordering::SeqCst);
        }
        let taken = self
            .running
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < SEARCHES).then_some(n + 1)
            });
        if taken.is_err() {
            return Err(Answer::error(
                503,
                &format!(
                    "the server is busy with {SEARCHES} searches at once; ask again when one ends"
                ),
            ));
        }
        if let Some(tab) = tab {
            searching.insert(tab.to_string(), flags.clone());
        }
        drop(searching);
        let timed_out = Arc::new(AtomicBool::new(false));
        let done = (!self.think.is_zero()).then(|| {
            let (done, ended) = mpsc::channel::<()>();
            let (stop, timed_out, limit) =
                (Arc::clone(&flags.stop), Arc::clone(&timed_out), self.think);
            thread::spawn(move || {
                // The sender is dropped when the search ends: Disconnected.
                if ended.recv_timeout(limit) == Err(RecvTimeoutError::Timeout) {
                    timed_out.store(true, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                }
            });
            done
        });
        Ok(Search {
            state: self,
            tab: tab.map(str::to_string),
            stop: Arc::clone(&flags.stop),
            flags,
            _done: done,
            timed_out,
        })
    }
}

/// Runs `connect serve`: listens, prints the address, answers until killed.
pub(crate) fn serve(args: ServeArgs) -> Result<ExitCode, Failure> {
    let state = State::new(&args)?;
    let wanted = SocketAddr::new(args.address, args.port);
    let server = Server::http(wanted).map_err(|e| {
        Failure::Usage(format!(
            "--address {} --port {}: cannot listen there ({e}); give a free port, or --port 0 for any",
            args.address, args.port
        ))
    })?;
    let address = server
        .server_addr()
        .to_ip()
        .expect("a TCP listener has an IP address");
    let mut out = std::io::stdout().lock();
    writeln!(out, "serving on http://{address}/")?;
    out.flush()?;
    drop(out);
    let hosts = allowed_hosts(address);
    let (state, hosts, server) = (&state, hosts.as_deref(), &server);
    thread::scope(|s| {
        for _ in 0..WORKERS {
            s.spawn(move || {
                while let Ok(request) = server.recv() {
                    // A thread per request: a client that holds its request
                    // open (a body announced, never sent, which tiny_http
                    // reads to its end before the request is dropped)
                    // holds this thread only.
                    s.spawn(move || answer(state, hosts, request));
                }
            });
        }
    });
    Ok(ExitCode::SUCCESS)
}

/// The `Host` values a loopback server answers (`None`: any, for a server
/// other machines reach by names it cannot know).
fn allowed_hosts(address: SocketAddr) -> Option<Vec<String>> {
    if !address.ip().is_loopback() {
        return None;
    }
    let port = address.port();
    let mut hosts = vec![format!("{address}"), format!("localhost:{port}")];
    for other in [format!("127.0.0.1:{port}"), format!("[::1]:{port}")] {
        if !hosts.contains(&other) {
            hosts.push(other);
        }
    }
    Some(hosts)
}

/// An answer: its status, content type and body.
pub(crate) struct Answer {
    status: u16,
    kind: &'static str,
    body: Vec<u8>,
}

impl Answer {
    /// A JSON answer.
    pub(crate) fn json(status: u16, value: &serde_json::Value) -> Answer {
        Answer {
            status,
            kind: "application/json; charset=utf-8",
            body: value.to_string().into_bytes(),
        }
    }

    /// `{"error": message}` with `status`.
    pub(crate) fn error(status: u16, message: &str) -> Answer {
        Answer::json(status, &serde_json::json!({ "error": message }))
    }

    fn text(kind: &'static str, text: &str) -> Answer {
        Answer {
            status: 200,
            kind,
            body: text.as_bytes().to_vec(),
        }
    }
}

fn answer(state: &State, hosts: Option<&[String]>, mut request: Request) {
    let answer = route(state, hosts, &mut request);
    let header = |name: &str, value: &str| {
        Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
    };
    let response = Response::from_data(answer.body)
        .with_status_code(answer.status)
        .with_header(header("Content-Type", answer.kind))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header(
            "Content-Security-Policy",
            // base-uri and form-action are not covered by default-src.
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        ))
        .with_header(header("Referrer-Policy", "no-referrer"));
    // A client gone before its answer is no failure of the server.
    let _ = request.respond(response);
}

fn route(state: &State, hosts: Option<&[String]>, request: &mut Request) -> Answer {
    if let Some(hosts) = hosts {
        let host = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .map(|h| h.value.as_str().to_ascii_lowercase());
        if !host
            .as_deref()
            .is_some_and(|h| hosts.iter().any(|a| a == h))
        {
            return Answer::error(
                421,
                &format!(
                    "this server answers requests addressed to {} only",
                    hosts.join(", ")
                ),
            );
        }
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().clone();
    match (path, &method) {
        ("/" | "/index.html", Method::Get | Method::Head) => {
            Answer::text("text/html; charset=utf-8", INDEX_HTML)
        }
        ("/app.js", Method::Get | Method::Head) => {
            Answer::text("text/javascript; charset=utf-8", APP_JS)
        }
        ("/style.css", Method::Get | Method::Head) => {
            Answer::text("text/css; charset=utf-8", STYLE_CSS)
        }
        ("/api/analyze", Method::Get) => api::analyze(state, query),
        ("/api/move", Method::Get) => api::computer_move(state, query),
        ("/api/parts", Method::Post) => {
            let body = match read_body(request) {
                Ok(body) => body,
                Err(answer) => return answer,
            };
            api::parts(query, &body)
        }
        ("/" | "/index.html" | "/app.js" | "/style.css" | "/api/analyze" | "/api/move", _) => {
            Answer::error(405, &format!("{path} answers GET only"))
        }
        ("/api/parts", _) => Answer::error(
            405,
            "/api/parts answers POST only, with the .cnf file's bytes as the body",
        ),
        _ => Answer::error(
            404,
            &format!(
                "no such page: {}; the server has /, /api/analyze, /api/move and /api/parts",
                api::shown_text(path)
            ),
        ),
    }
}

/// The request's body, at most [`api::MAX_BODY`] bytes.
fn read_body(request: &mut Request) -> Result<Vec<u8>, Answer> {
    let too_big = || {
        Answer::error(
            413,
            &format!(
                "the body is larger than the {} KiB a game file may have here",
                api::MAX_BODY / 1024
            ),
        )
    };
    if request.body_length().is_some_and(|n| n > api::MAX_BODY) {
        return Err(too_big());
    }
    let mut body = Vec::new();
    let read = request
        .as_reader()
        .take(api::MAX_BODY as u64 + 1)
        .read_to_end(&mut body);
    match read {
        Err(e) => Err(Answer::error(
            400,
            &format!("the body could not be read: {e}"),
        )),
        Ok(_) if body.len() > api::MAX_BODY => Err(too_big()),
        Ok(_) => Ok(body),
    }
}
