//! Shared by the games' hostile-input tests (included with `#[path]`): run a
//! binary on given standard input and fail if it does not exit in time.

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Generous: a debug build on a loaded machine answers a line in milliseconds.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(30);

/// How a run ended and what it printed.
pub(crate) struct Run {
    pub(crate) status: ExitStatus,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `command` with `input` on standard input, then end of input; fails
/// the test if it has not exited within [`TIMEOUT`] (a hang or a busy loop).
pub(crate) fn run_guarded(mut command: Command, input: &[u8]) -> Run {
    let name = format!("{command:?}");
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{name} does not start: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // The program may stop reading early (quit, a win): a broken pipe is fine.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out = thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err = thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name} still running after {TIMEOUT:?}: a hang or a busy loop");
        }
        thread::sleep(Duration::from_millis(5));
    };
    writer.join().expect("writer");
    Run {
        status,
        stdout: String::from_utf8_lossy(&out.join().expect("stdout")).into_owned(),
        stderr: String::from_utf8_lossy(&err.join().expect("stderr")).into_owned(),
    }
}

/// A clean exit: code 0, nothing on standard error (so no panic message).
pub(crate) fn assert_clean(run: &Run, what: &str) {
    assert_eq!(
        run.status.code(),
        Some(0),
        "{what}: {}\n{}",
        run.status,
        run.stderr
    );
    assert!(run.stderr.is_empty(), "{what}: stderr {}", run.stderr);
}
