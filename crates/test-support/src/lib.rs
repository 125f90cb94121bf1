//! Helpers shared by the workspace's tests (never a dependency of a
//! library or binary).
//!
//! Tests that need a tool the project does not build (GHC, bubblewrap)
//! call [`require`]: where the tool is missing they print one visible line
//! saying what was skipped and why, and return `false`; where the variable
//! [`REQUIRE_TOOLS`] is set (CI sets it), a missing tool fails the test
//! instead, so CI never skips silently. [`Cli`] is the one way a test runs
//! a program: arguments, input, environment and folder in, exit code and
//! output asserted, a hang a failure.
//!
//! # How the workspace tests
//!
//! - Unit tests sit beside the code. Each crate's integration tests are one
//!   binary, `tests/it/main.rs`, with a module per subject (`cargo test -p
//!   CRATE --test it MODULE::`): a new test file goes there, not directly
//!   in `tests/`, where it would be a binary of its own, linked apart.
//! - Every test that runs a program, the table of bad input
//!   (`xtask/tests/it/bad_input.rs`) and the checker of the README's and
//!   the guide's examples (`xtask/tests/it/readme.rs`) go through [`Cli`];
//!   no test calls `std::process::Command` itself.
//! - Property tests (proptest) check round trips, and fast paths against
//!   plain reference implementations.
//! - Expected outputs come from the spec pages, hand derivation, an
//!   independent method or GHC, never from the code under test alone.
//! - Tests too slow for a debug build are `#[ignore = "release: …"]`, and
//!   CI's release pass (`.ci/run`) runs them. The grader's tests that
//!   grade a whole class again and again, in a debug build, are
//!   `#[ignore = "slow: …"]`, and CI's slow pass runs them (`cargo test
//!   --workspace --test it -- --ignored --exact NAME…`, the names found by
//!   `.ci/run`). Speed is measured by the
//!   criterion benches under each crate's `benches/`, never asserted in a
//!   test.
#![deny(missing_docs)]

mod cli;

pub use cli::{Cli, DEFAULT_TIMEOUT, Run};

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The environment variable that turns a missing tool into a failure.
pub const REQUIRE_TOOLS: &str = "CNF_REQUIRE_TOOLS";

/// A tool some tests need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// The Glasgow Haskell Compiler (`ghc`).
    Ghc,
    /// Bubblewrap (`bwrap`) with working user namespaces.
    Bwrap,
}

impl Tool {
    fn command(self) -> &'static str {
        match self {
            Tool::Ghc => "ghc",
            Tool::Bwrap => "bwrap",
        }
    }

    fn install(self) -> &'static str {
        match self {
            Tool::Ghc => "apt-get install ghc",
            Tool::Bwrap => "apt-get install bubblewrap",
        }
    }

    /// Whether the tool runs here.
    pub fn available(self) -> bool {
        let mut command = Command::new(self.command());
        match self {
            Tool::Ghc => command.arg("--numeric-version"),
            Tool::Bwrap => command.args(["--unshare-all", "--ro-bind", "/", "/", "true"]),
        };
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

/// Writes a line straight to standard error, past the test harness's
/// capture, so a skip shows in a passing run.
fn notice(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Whether every tool of `tools` is available; if one is not, prints
/// `skipped: TEST: needs …` (or panics where [`REQUIRE_TOOLS`] is set).
#[track_caller]
pub fn require(test: &str, tools: &[Tool]) -> bool {
    let missing: Vec<Tool> = tools.iter().copied().filter(|t| !t.available()).collect();
    if missing.is_empty() {
        return true;
    }
    let what: Vec<String> = missing
        .iter()
        .map(|t| format!("{} (`{}`)", t.command(), t.install()))
        .collect();
    let line = format!("skipped: {test}: needs {}", what.join(" and "));
    if std::env::var_os(REQUIRE_TOOLS).is_some_and(|v| !v.is_empty()) {
        panic!("{line}, and {REQUIRE_TOOLS} is set");
    }
    notice(&line);
    false
}

/// The arguments that put `cnf-grader`'s programs under test in the
/// sandbox where bubblewrap works, and outside it (`--no-sandbox`) where it
/// does not, saying so once per test binary.
pub fn sandbox_or_not(test: &str) -> Vec<String> {
    if Tool::Bwrap.available() {
        Vec::new()
    } else {
        if std::env::var_os(REQUIRE_TOOLS).is_some_and(|v| !v.is_empty()) {
            panic!("{test}: needs bwrap, and {REQUIRE_TOOLS} is set");
        }
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            notice(&format!(
                "note: {test} (and the others of this test binary): bwrap is missing, so the programs run with --no-sandbox"
            ));
        });
        vec!["--no-sandbox".to_owned()]
    }
}

/// Generous: a debug build on a loaded machine answers a line in
/// milliseconds, so a game that has not ended after this hangs.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// Runs the Haskell program `source` with `runghc` (GHC must be there: see
/// [`require`]), `stdin` on its standard input, and returns its standard
/// output; fails the test if it does not succeed.
pub fn runghc(name: &str, source: &str, stdin: &str) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "test-support-runghc-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let program = dir.join(format!("{name}.hs"));
    std::fs::write(&program, source).expect("write the program");
    let run = Cli::new("runghc").arg(&program).stdin(stdin).run();
    let _ = std::fs::remove_dir_all(&dir);
    run.code(0);
    String::from_utf8(run.stdout_bytes).expect("UTF-8 output")
}

/// `text` without the first provenance line of a human report (`graded by
/// cnf-grader …`) and the blank line after it; the line must be there and
/// name the fixture hash and the comparison mode.
pub fn without_provenance(text: &str) -> String {
    let Some(start) = text
        .find("graded by cnf-grader ")
        .filter(|&i| i == 0 || text[..i].ends_with('\n'))
    else {
        panic!("no provenance line in\n{text}");
    };
    let end = text[start..]
        .find("\n\n")
        .map_or(text.len(), |e| start + e + 2);
    let line = &text[start..end];
    assert!(
        line.contains(" · fixtures sha256:") && line.contains(" · compare "),
        "not a provenance line: {line:?}"
    );
    format!("{}{}", &text[..start], &text[end..])
}

/// How a run on a terminal ended and what the terminal showed.
#[derive(Debug)]
pub struct TerminalRun {
    /// The exit code (`None`: killed, e.g. after the time limit).
    pub code: Option<i32>,
    /// Everything written to the terminal (standard output and error
    /// together, and the echo of the input), invalid UTF-8 replaced.
    pub screen: String,
}

/// Runs `command` with standard input, output and error on a new
/// pseudo-terminal of 24 rows and 80 columns, as a person's shell would,
/// types `input` on it, and returns what the terminal showed once the
/// program exits; it is killed after `limit`. `CI` is removed from its
/// environment, as programs show no progress there.
pub fn on_terminal(command: Command, input: &[u8], limit: Duration) -> TerminalRun {
    on_terminal_typed(command, &[(Duration::ZERO, input)], limit)
}

/// [`on_terminal`], typing each piece of input after its pause (counted
/// from the piece before), as a person who stops to think would.
pub fn on_terminal_typed(
    mut command: Command,
    typing: &[(Duration, &[u8])],
    limit: Duration,
) -> TerminalRun {
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    let name = format!("{command:?}");
    let fail = |what: &str, e: std::io::Error| -> ! { panic!("{name}: {what}: {e}") };
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)
        .unwrap_or_else(|e| fail("openpt", e.into()));
    grantpt(&master).unwrap_or_else(|e| fail("grantpt", e.into()));
    unlockpt(&master).unwrap_or_else(|e| fail("unlockpt", e.into()));
    let size = rustix::termios::Winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    rustix::termios::tcsetwinsize(&master, size).unwrap_or_else(|e| fail("winsize", e.into()));
    let path = ptsname(&master, Vec::new()).unwrap_or_else(|e| fail("ptsname", e.into()));
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(path.as_bytes()))
        .unwrap_or_else(|e| fail("open the terminal", e));
    let io = |f: &std::fs::File| f.try_clone().unwrap_or_else(|e| fail("dup", e));
    command
        .env_remove("CI")
        .stdin(io(&terminal))
        .stdout(io(&terminal))
        .stderr(terminal);
    let mut child = command.spawn().unwrap_or_else(|e| fail("spawn", e));
    // The command holds the terminal's other end until it is dropped: the
    // reader below ends when the program's last copy closes.
    drop(command);
    let mut master = std::fs::File::from(master);
    let mut reader = master.try_clone().unwrap_or_else(|e| fail("dup", e));
    let screen = thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        // Linux answers EIO once no one holds the terminal's other end.
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        all
    });
    let typing: Vec<(Duration, Vec<u8>)> = typing.iter().map(|(p, t)| (*p, t.to_vec())).collect();
    thread::spawn(move || {
        for (pause, text) in typing {
            thread::sleep(pause);
            if master.write_all(&text).is_err() {
                break;
            }
        }
    });
    let started = Instant::now();
    let code = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.code(),
            Ok(None) if started.elapsed() < limit => thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let screen = screen.join().unwrap_or_default();
    TerminalRun {
        code,
        screen: String::from_utf8_lossy(&screen).into_owned(),
    }
}

/// A grader cache folder (`--cache DIR`) for one test: its saved results
/// are its own, but its compiled parts (`builds/`, a link) are shared by
/// every test of this process.
///
/// A compiled part is stored under the hash of everything its compilation
/// depends on (sources, GHC, flags, part) and written by rename, so sharing
/// one is sharing what the test would have compiled itself: the sample
/// class is compiled once per test binary instead of once per test. Tests
/// that watch the compilation itself (progress, timeouts, what Template
/// Haskell sees) keep a cache of their own.
///
/// The folders live in `cnf-grader-tests-PID` under the temporary folder;
/// the first call of a process removes those of processes that have ended.
pub fn grader_cache() -> std::path::PathBuf {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static PROCESS: OnceLock<std::path::PathBuf> = OnceLock::new();
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let process = PROCESS.get_or_init(|| {
        let tmp = std::env::temp_dir();
        let prefix = "cnf-grader-tests-";
        for entry in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let ended = name
                .to_str()
                .and_then(|n| n.strip_prefix(prefix))
                .and_then(|pid| pid.parse::<u32>().ok())
                .is_some_and(|pid| !std::path::Path::new(&format!("/proc/{pid}")).exists());
            if ended {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        let dir = tmp.join(format!("{prefix}{}", std::process::id()));
        private_dir(&dir.join("builds"));
        dir
    });
    let cache = process.join(format!("cache-{}", NEXT.fetch_add(1, Ordering::SeqCst)));
    private_dir(&cache);
    std::os::unix::fs::symlink(process.join("builds"), cache.join("builds"))
        .unwrap_or_else(|e| panic!("link {}/builds: {e}", cache.display()));
    cache
}

/// Makes `dir` and its missing parents with mode 0700, as the grader makes
/// its cache.
fn private_dir(dir: &std::path::Path) {
    use std::os::unix::fs::DirBuilderExt as _;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .unwrap_or_else(|e| panic!("make {}: {e}", dir.display()));
}
