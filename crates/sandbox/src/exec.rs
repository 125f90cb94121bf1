//! The run loop every backend shares: spawn, read standard output (capped)
//! and standard error (kept in part) at once, enforce the CPU and wall
//! time limits, poll a watchdog, measure the run ([`crate::usage`]), and
//! kill the whole run when it must end.
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

use crate::usage::{self, ChildUsage, Meter, Scope};
use crate::{Clock, Outcome, TimeLimits, Usage};

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
    /// What the run used: CPU time, wall time, peak memory.
    pub usage: Usage,
}

impl RunResult {
    pub(crate) fn could_not_start(why: String) -> RunResult {
        RunResult {
            outcome: Outcome::CouldNotStart(why),
            stderr: String::new(),
            stderr_truncated: false,
            usage: Usage::default(),
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
    /// Which processes are the run's, for measuring it.
    fn scope(&self) -> Scope<'_> {
        Scope::Tree
    }
    /// The most memory the run's processes may have resident together,
    /// checked at each poll (where no cgroup caps it).
    fn resident_cap(&self) -> Option<u64> {
        None
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
/// standard input closed, under time limit `timeout` (both CPU and wall:
/// [`TimeLimits::same`]) and output cap `max_output`; the whole group is
/// killed when it must end.
pub fn run_plain(command: Command, timeout: Duration, max_output: usize) -> RunResult {
    run_plain_within(command, TimeLimits::same(timeout), max_output)
}

/// [`run_plain`] under the CPU and wall limits `limits`; the CPU time is
/// that of the child and its descendants, read from `/proc`. The child
/// inherits no descriptor above 2.
pub fn run_plain_within(mut command: Command, limits: TimeLimits, max_output: usize) -> RunResult {
    command.process_group(0);
    let fd_limit = crate::fds::fallback_limit();
    // SAFETY: system calls only, on a value read before fork.
    unsafe {
        command.pre_exec(move || crate::fds::cloexec_above_stderr(fd_limit));
    }
    run(command, limits, max_output, &Plain)
}

/// The loop. The command must start its own process group (or session).
pub(crate) fn run(
    mut command: Command,
    limits: TimeLimits,
    max_output: usize,
    guard: &dyn Guard,
) -> RunResult {
    let start = Instant::now();
    let deadline = start + limits.wall;
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
    let tick = usage::POLL;
    let pid = child.id();
    let mut meter = Meter::new(guard.scope(), pid);
    let mut child_usage: Option<ChildUsage> = None;
    let end = |child: &mut Child, used: &mut Option<ChildUsage>| {
        if let Some(u) = kill_group(child) {
            *used = Some(u);
        }
        guard.kill(Some(pid));
    };
    let mut next_sample = Instant::now();
    // The wall clock at every turn; the run's CPU time and (without a
    // cgroup) its summed resident memory every `tick`.
    let over_limit = |now: Instant, next_sample: &mut Instant, meter: &mut Meter| {
        if now >= deadline {
            return Some(Outcome::TimeLimit(Clock::Wall));
        }
        if now >= *next_sample {
            *next_sample = now + tick;
            if meter.sample() > limits.cpu {
                return Some(Outcome::TimeLimit(Clock::Cpu));
            }
            if guard
                .resident_cap()
                .is_some_and(|cap| meter.resident() > cap)
            {
                return Some(Outcome::MemoryLimit);
            }
        }
        None
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
                && let Ok(Some((status, used))) = try_reap(&mut child)
            {
                ended = Some(status);
                child_usage = used;
                guard.kill(Some(pid));
            }
            let now = Instant::now();
            if let Some(outcome) = over_limit(now, &mut next_sample, &mut meter) {
                end(&mut child, &mut child_usage);
                break 'run outcome;
            }
            if let Some(outcome) = guard.check() {
                end(&mut child, &mut child_usage);
                break 'run outcome;
            }
            match rx.recv_timeout((deadline - now).min(tick)) {
                Ok(Message::Stdout(bytes)) => stdout = Some(bytes),
                Ok(Message::Stderr(bytes, truncated)) => stderr = Some((bytes, truncated)),
                Ok(Message::OverCap) => {
                    end(&mut child, &mut child_usage);
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
            match try_reap(&mut child) {
                Ok(Some((status, used))) => {
                    child_usage = used;
                    guard.kill(Some(pid));
                    break 'run exited(status, stdout.take().unwrap_or_default());
                }
                Ok(None) => {}
                Err(e) => {
                    end(&mut child, &mut child_usage);
                    break 'run Outcome::CouldNotStart(format!("cannot wait for the program: {e}"));
                }
            }
            // A program that closed its output may still compute.
            let now = Instant::now();
            if let Some(outcome) = over_limit(now, &mut next_sample, &mut meter) {
                end(&mut child, &mut child_usage);
                break 'run outcome;
            }
            thread::sleep(poll.min(deadline - now));
            poll = (poll * 2).min(Duration::from_millis(1));
        }
    };
    let wall = start.elapsed();
    let (cpu, peak_memory) = meter.finish(child_usage);
    let usage = Usage {
        cpu,
        wall,
        peak_memory,
    };
    // A run ended by the kernel's per-process CPU limit (SIGXCPU, then
    // SIGKILL a second later), or killed once past its CPU limit, was
    // stopped by the CPU clock (a shell reports the signal as 128 + it).
    let signal = match outcome {
        Outcome::Signalled(s) => Some(s),
        Outcome::Exited { code, .. } if (129..=192).contains(&code) => Some(code - 128),
        _ => None,
    };
    let outcome = match signal {
        Some(libc::SIGXCPU) => Outcome::TimeLimit(Clock::Cpu),
        Some(libc::SIGKILL) if cpu >= limits.cpu => Outcome::TimeLimit(Clock::Cpu),
        _ => outcome,
    };
    // A run killed by the kernel for memory says so, whatever its status.
    let outcome = match outcome {
        Outcome::Signalled(_) | Outcome::Exited { .. } | Outcome::TimeLimit(_)
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
        usage,
    }
}

/// Reaps the child if it ended, with its `rusage` (read just before).
fn try_reap(child: &mut Child) -> io::Result<Option<(ExitStatus, Option<ChildUsage>)>> {
    match usage::peek_exit(child.id(), false) {
        Ok(None) => Ok(None),
        Ok(Some(used)) => Ok(child.try_wait()?.map(|status| (status, Some(used)))),
        // Already reaped (or not ours to peek at): std knows.
        Err(_) => Ok(child.try_wait()?.map(|status| (status, None))),
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

/// Kills the child's process group and reaps the child; returns its
/// `rusage` when it could be read.
fn kill_group(child: &mut Child) -> Option<ChildUsage> {
    let pid = rustix::process::Pid::from_child(child);
    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    let _ = child.kill();
    let used = match child.try_wait() {
        Ok(Some(_)) => None,
        _ => usage::peek_exit(child.id(), true).ok().flatten(),
    };
    let _ = child.wait();
    used
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
