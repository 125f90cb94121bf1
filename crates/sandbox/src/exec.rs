//! The run loop every backend shares: spawn, read standard output (capped)
//! and standard error (kept in part) at once, enforce the time limit, poll
//! a watchdog, and kill the whole run when it must end.
//!
//! Standard output and standard error are read by two threads, so a child
//! that fills one pipe cannot deadlock; a process that escapes and keeps a
//! pipe open cannot hold the run past its deadline (the reader threads are
//! then left behind).

use std::io::{self, Read};
use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::Outcome;

/// Bytes of standard error kept for the report.
pub const STDERR_KEPT: usize = 4096;

/// The result of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunResult {
    /// How the run ended.
    pub outcome: Outcome,
    /// The first [`STDERR_KEPT`] bytes of standard error, as text.
    pub stderr: String,
    /// Whether standard error was longer than what was kept.
    pub stderr_truncated: bool,
}

impl RunResult {
    pub(crate) fn could_not_start(why: String) -> RunResult {
        RunResult {
            outcome: Outcome::CouldNotStart(why),
            stderr: String::new(),
            stderr_truncated: false,
        }
    }
}

/// What a backend adds to the loop.
pub(crate) trait Guard {
    /// Kills everything the run started (the child's process group is
    /// killed and the child reaped by the loop itself).
    fn kill(&self, _pid: Option<u32>) {}
    /// Polled while the run goes: `Some` ends it with that outcome.
    fn check(&self) -> Option<Outcome> {
        None
    }
    /// Whether the watchdog needs polling (else the loop only waits).
    fn polls(&self) -> bool {
        false
    }
    /// Whether the run's memory limit was hit (read once the run ended).
    fn out_of_memory(&self) -> bool {
        false
    }
}

/// No guard: the process group is all there is.
pub(crate) struct Plain;
impl Guard for Plain {}

enum Message {
    Stdout(Vec<u8>),
    OverCap,
    Stderr(Vec<u8>, bool),
}

/// Runs a prepared command without a sandbox, in its own process group,
/// standard input closed, under time limit `timeout` and output cap
/// `max_output`; the whole group is killed when it must end.
pub fn run_plain(mut command: Command, timeout: Duration, max_output: usize) -> RunResult {
    command.process_group(0);
    run(command, timeout, max_output, &Plain)
}

/// The loop. The command must start its own process group (or session).
pub(crate) fn run(
    mut command: Command,
    timeout: Duration,
    max_output: usize,
    guard: &dyn Guard,
) -> RunResult {
    let start = Instant::now();
    let deadline = start + timeout;
    let spawned = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            guard.kill(None);
            return RunResult::could_not_start(format!(
                "cannot start {}: {e}",
                command.get_program().to_string_lossy()
            ));
        }
    };
    let (tx, rx) = mpsc::channel();
    if let Some(mut out) = child.stdout.take() {
        let tx = tx.clone();
        thread::spawn(move || {
            let message = match read_capped(&mut out, max_output) {
                Some(bytes) => Message::Stdout(bytes),
                None => Message::OverCap,
            };
            let _ = tx.send(message);
        });
    }
    if let Some(mut err) = child.stderr.take() {
        let tx = tx.clone();
        thread::spawn(move || {
            let (kept, truncated) = read_keeping(&mut err, STDERR_KEPT);
            let _ = tx.send(Message::Stderr(kept, truncated));
        });
    }
    drop(tx);
    let tick = if guard.polls() {
        Duration::from_millis(50)
    } else {
        Duration::from_secs(3600)
    };
    let pid = child.id();
    let end = |child: &mut Child| {
        kill_group(child);
        guard.kill(Some(pid));
    };

    let mut stdout: Option<Vec<u8>> = None;
    let mut stderr: Option<(Vec<u8>, bool)> = None;
    let mut ended: Option<ExitStatus> = None;
    let outcome = 'run: {
        // First the output: a message arrives as soon as a stream ends.
        while stdout.is_none() || stderr.is_none() {
            // When the first process ends, so does the run: what it left
            // behind (holding the pipes open) is killed, as a PID namespace
            // would.
            if ended.is_none()
                && guard.polls()
                && let Ok(Some(status)) = child.try_wait()
            {
                ended = Some(status);
                guard.kill(Some(pid));
            }
            let now = Instant::now();
            if now >= deadline {
                end(&mut child);
                break 'run Outcome::TimeLimit;
            }
            if let Some(outcome) = guard.check() {
                end(&mut child);
                break 'run outcome;
            }
            match rx.recv_timeout((deadline - now).min(tick)) {
                Ok(Message::Stdout(bytes)) => stdout = Some(bytes),
                Ok(Message::Stderr(bytes, truncated)) => stderr = Some((bytes, truncated)),
                Ok(Message::OverCap) => {
                    end(&mut child);
                    break 'run Outcome::OutputCap;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        // Then the exit status, which follows closely once the streams end.
        if let Some(status) = ended {
            break 'run exited(status, stdout.take().unwrap_or_default());
        }
        let mut poll = Duration::from_micros(10);
        loop {
            match child.try_wait() {
                Ok(Some(status)) => {
                    guard.kill(Some(pid));
                    break 'run exited(status, stdout.take().unwrap_or_default());
                }
                Ok(None) => {}
                Err(e) => {
                    end(&mut child);
                    break 'run Outcome::CouldNotStart(format!("cannot wait for the program: {e}"));
                }
            }
            let now = Instant::now();
            if now >= deadline {
                end(&mut child);
                break 'run Outcome::TimeLimit;
            }
            thread::sleep(poll.min(deadline - now));
            poll = (poll * 2).min(Duration::from_millis(1));
        }
    };
    // A run killed by the kernel for memory says so, whatever its status.
    let outcome = match outcome {
        Outcome::Signalled(_) | Outcome::Exited { .. } | Outcome::TimeLimit
            if guard.out_of_memory() =>
        {
            Outcome::MemoryLimit
        }
        other => other,
    };
    // After a kill, standard error ends with the group; wait a little for it
    // (not for ever: a process that left the group may still hold the pipe).
    let grace = Instant::now() + Duration::from_millis(100);
    while stderr.is_none() {
        let left = grace.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(Message::Stderr(bytes, truncated)) => stderr = Some((bytes, truncated)),
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let (bytes, stderr_truncated) = stderr.unwrap_or_default();
    RunResult {
        outcome,
        stderr: String::from_utf8_lossy(&bytes).into_owned(),
        stderr_truncated,
    }
}

fn exited(status: ExitStatus, stdout: Vec<u8>) -> Outcome {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Outcome::Exited { code, stdout },
        (None, Some(signal)) => Outcome::Signalled(signal),
        (None, None) => Outcome::Signalled(0),
    }
}

/// Kills the child's process group and reaps the child.
fn kill_group(child: &mut Child) {
    let pid = rustix::process::Pid::from_child(child);
    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    let _ = child.kill();
    let _ = child.wait();
}

/// Reads everything, or `None` as soon as more than `cap` bytes arrive.
fn read_capped(reader: &mut impl Read, cap: usize) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => return Some(buf),
            Ok(n) => {
                if buf.len() + n > cap {
                    return None;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Some(buf),
        }
    }
}

/// Reads everything, keeping the first `keep` bytes; says whether more came.
fn read_keeping(reader: &mut impl Read, keep: usize) -> (Vec<u8>, bool) {
    let mut buf = Vec::new();
    let mut more = false;
    let mut chunk = [0u8; 8192];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => return (buf, more),
            Ok(n) => {
                let room = keep - buf.len();
                buf.extend_from_slice(&chunk[..n.min(room)]);
                more |= n > room;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return (buf, more),
        }
    }
}
