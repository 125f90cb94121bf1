//! The one way the workspace's tests run a program: a builder for the
//! command line, standard input, environment and working folder, a guard
//! against hangs, and assertions on the exit code, standard output and
//! standard error that print the whole run when they fail.
//!
//! ```no_run
//! use test_support::Cli;
//! Cli::new(env!("CARGO"))
//!     .args(["--version"])
//!     .run()
//!     .code(0)
//!     .stdout_has("cargo ")
//!     .stderr_is("");
//! ```

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long a run may take unless [`Cli::timeout`] says otherwise: long
/// enough for a debug build grading a class on a loaded machine, short
/// enough that a hang fails the test instead of stalling CI.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// A program to run, built up argument by argument.
#[derive(Debug)]
pub struct Cli {
    program: OsString,
    args: Vec<OsString>,
    env: Vec<(OsString, Option<OsString>)>,
    clear_env: bool,
    dir: Option<PathBuf>,
    stdin: Option<Vec<u8>>,
    timeout: Duration,
    label: Option<String>,
    text: bool,
    stdout_to: Option<PathBuf>,
}

impl Cli {
    /// A run of `program` (a path, or a name looked up on `PATH`) with no
    /// arguments, the test's environment and folder, and empty input.
    pub fn new(program: impl AsRef<OsStr>) -> Cli {
        Cli {
            program: program.as_ref().to_owned(),
            args: Vec::new(),
            env: Vec::new(),
            clear_env: false,
            dir: None,
            stdin: None,
            timeout: DEFAULT_TIMEOUT,
            label: None,
            text: false,
            stdout_to: None,
        }
    }

    /// Adds one argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Cli {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, args: I) -> Cli
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Cli {
        self.env
            .push((key.as_ref().to_owned(), Some(value.as_ref().to_owned())));
        self
    }

    /// Removes an environment variable.
    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Cli {
        self.env.push((key.as_ref().to_owned(), None));
        self
    }

    /// Starts from an empty environment (variables set after still apply).
    pub fn env_clear(mut self) -> Cli {
        self.clear_env = true;
        self.env.clear();
        self
    }

    /// Runs in `dir`.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Cli {
        self.dir = Some(dir.as_ref().to_owned());
        self
    }

    /// Gives `input` on standard input, then end of input (default: none,
    /// standard input is empty).
    pub fn stdin(mut self, input: impl AsRef<[u8]>) -> Cli {
        self.stdin = Some(input.as_ref().to_vec());
        self
    }

    /// Fails the test if the run has not ended after `limit` (default
    /// [`DEFAULT_TIMEOUT`]).
    pub fn timeout(mut self, limit: Duration) -> Cli {
        self.timeout = limit;
        self
    }

    /// Sends standard output to the file `path` (opened for writing, not
    /// truncated: `/dev/full` works) instead of capturing it.
    pub fn stdout_to(mut self, path: impl AsRef<Path>) -> Cli {
        self.stdout_to = Some(path.as_ref().to_owned());
        self
    }

    /// Fails the test when the run ends if its standard output or error is
    /// not valid UTF-8 (see [`Run::utf8`]).
    pub fn expect_text(mut self) -> Cli {
        self.text = true;
        self
    }

    /// Names the run in every failure message (a round, a case of a table).
    pub fn label(mut self, what: impl Into<String>) -> Cli {
        self.label = Some(what.into());
        self
    }

    /// The command line as a person would type it, for messages.
    pub fn shown(&self) -> String {
        let mut words = vec![self.program.to_string_lossy().into_owned()];
        words.extend(self.args.iter().map(|a| format!("{a:?}")));
        let mut line = words.join(" ");
        if let Some(dir) = &self.dir {
            line = format!("(in {}) {line}", dir.display());
        }
        if let Some(label) = &self.label {
            line = format!("{label}: {line}");
        }
        line
    }

    /// The [`Command`] this describes, standard streams not yet set: for
    /// the few tests that must hold the running process (to kill it at a
    /// chosen moment).
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(&self.args);
        if self.clear_env {
            command.env_clear();
        }
        for (key, value) in &self.env {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        command
    }

    /// Starts the program with standard input closed and its output
    /// dropped (nothing reads it, so it never fills a pipe) and returns it
    /// running; the caller waits for it or kills it.
    pub fn spawn_quiet(&self) -> Child {
        self.start(Stdio::null)
    }

    /// Starts the program with standard input closed and standard output
    /// and error piped, and returns it running; the caller reads, waits for
    /// it or kills it.
    pub fn spawn(&self) -> Child {
        self.start(Stdio::piped)
    }

    /// Starts the program, standard input closed, its output and error to
    /// what `output` makes.
    fn start(&self, output: fn() -> Stdio) -> Child {
        self.command()
            .stdin(Stdio::null())
            .stdout(output())
            .stderr(output())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", self.shown()))
    }

    /// Runs the program to its end and returns what happened; fails the
    /// test if it does not start or outlives its time limit.
    pub fn run(self) -> Run {
        let shown = self.shown();
        // Its own process group, so a hang is ended with everything it
        // started (a shell's children would hold the pipes open).
        let mut command = self.command();
        command
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(path) = &self.stdout_to {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .unwrap_or_else(|e| panic!("{shown}: cannot open {}: {e}", path.display()));
            command.stdout(file);
        }
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("{shown} does not start: {e}"));
        let mut stdin = child.stdin.take().expect("stdin");
        let input = self.stdin.unwrap_or_default();
        // The program may stop reading early (quit, a win): a broken pipe is fine.
        let writer = thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = match child.stdout.take() {
            Some(stdout) => drain(stdout),
            None => thread::spawn(Vec::new),
        };
        let err = drain(child.stderr.take().expect("stderr"));
        let status_file = format!("/proc/{}/status", child.id());
        let start = Instant::now();
        let mut peak_kib = 0;
        let status = loop {
            peak_kib = peak_kib.max(high_water_kib(&status_file).unwrap_or(0));
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if start.elapsed() > self.timeout {
                if let Some(group) = i32::try_from(child.id())
                    .ok()
                    .and_then(rustix::process::Pid::from_raw)
                {
                    let _ =
                        rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
                }
                let _ = child.kill();
                let _ = child.wait();
                let err = err.join().unwrap_or_default();
                panic!(
                    "{shown} still running after {:?}: a hang or a busy loop\nstderr:\n{}",
                    self.timeout,
                    String::from_utf8_lossy(&err)
                );
            }
            thread::sleep(Duration::from_millis(5));
        };
        let elapsed = start.elapsed();
        writer.join().expect("writer");
        let stdout_bytes = out.join().expect("stdout");
        let stderr_bytes = err.join().expect("stderr");
        let run = Run {
            shown,
            status,
            stdout: String::from_utf8_lossy(&stdout_bytes).into_owned(),
            stderr: String::from_utf8_lossy(&stderr_bytes).into_owned(),
            stdout_bytes,
            stderr_bytes,
            elapsed,
            peak_kib,
        };
        if self.text {
            run.utf8();
        }
        run
    }

    /// Runs the program with standard input, output and error on a new
    /// pseudo-terminal, types `input` on it, and returns what the terminal
    /// showed (see [`crate::on_terminal`]); it is killed after the time limit.
    pub fn run_on_terminal(self, input: impl AsRef<[u8]>) -> crate::TerminalRun {
        crate::on_terminal(self.command(), input.as_ref(), self.timeout)
    }

    /// [`Cli::run_on_terminal`], typing each piece of input after its
    /// pause (see [`crate::on_terminal_typed`]).
    pub fn run_on_terminal_typed(self, typing: &[(Duration, &[u8])]) -> crate::TerminalRun {
        crate::on_terminal_typed(self.command(), typing, self.timeout)
    }
}

/// Reads a stream to its end on its own thread.
fn drain(mut from: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut all = Vec::new();
        let _ = from.read_to_end(&mut all);
        all
    })
}

/// The process's peak resident memory (`VmHWM`) in KiB, while it runs.
fn high_water_kib(status_file: &str) -> Option<u64> {
    let text = std::fs::read_to_string(status_file).ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// How a run ended and what it printed.
#[derive(Debug, Clone)]
pub struct Run {
    shown: String,
    /// The exit status.
    pub status: ExitStatus,
    /// Standard output, invalid UTF-8 replaced.
    pub stdout: String,
    /// Standard error, invalid UTF-8 replaced.
    pub stderr: String,
    /// Standard output as written.
    pub stdout_bytes: Vec<u8>,
    /// Standard error as written.
    pub stderr_bytes: Vec<u8>,
    /// From start to exit.
    pub elapsed: Duration,
    /// The program's own peak resident memory in KiB (its children not
    /// counted), as last seen while it ran.
    pub peak_kib: u64,
}

/// At most this much of each stream goes into a failure message.
const SHOWN_BYTES: usize = 8000;

fn clip(text: &str) -> &str {
    if text.len() <= SHOWN_BYTES {
        return text;
    }
    let mut end = SHOWN_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

impl Run {
    /// The exit code (`None`: ended by a signal).
    pub fn code_or_signal(&self) -> Option<i32> {
        self.status.code()
    }

    /// The same run, named `what` in every failure message from here on.
    pub fn labelled(mut self, what: impl AsRef<str>) -> Run {
        self.shown = format!("{}: {}", what.as_ref(), self.shown);
        self
    }

    /// The whole run, for a failure message.
    pub fn describe(&self) -> String {
        format!(
            "{}\nended: {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.shown,
            self.status,
            clip(&self.stdout),
            clip(&self.stderr)
        )
    }

    /// Asserts the exit code.
    #[track_caller]
    pub fn code(&self, expected: i32) -> &Run {
        assert_eq!(
            self.status.code(),
            Some(expected),
            "expected exit code {expected}\n{}",
            self.describe()
        );
        self
    }

    /// Asserts exit code 0 and nothing on standard error (so no warning and
    /// no panic message).
    #[track_caller]
    pub fn clean(&self) -> &Run {
        self.code(0).stderr_is("")
    }

    /// Asserts standard output, exactly.
    #[track_caller]
    pub fn stdout_is(&self, expected: &str) -> &Run {
        assert_eq!(
            self.stdout,
            expected,
            "standard output differs\n{}",
            self.describe()
        );
        self
    }

    /// Asserts standard error, exactly.
    #[track_caller]
    pub fn stderr_is(&self, expected: &str) -> &Run {
        assert_eq!(
            self.stderr,
            expected,
            "standard error differs\n{}",
            self.describe()
        );
        self
    }

    /// Asserts that standard output contains `part`.
    #[track_caller]
    pub fn stdout_has(&self, part: &str) -> &Run {
        assert!(
            self.stdout.contains(part),
            "standard output lacks {part:?}\n{}",
            self.describe()
        );
        self
    }

    /// Asserts that standard error contains `part`.
    #[track_caller]
    pub fn stderr_has(&self, part: &str) -> &Run {
        assert!(
            self.stderr.contains(part),
            "standard error lacks {part:?}\n{}",
            self.describe()
        );
        self
    }

    /// Asserts that standard output does not contain `part`.
    #[track_caller]
    pub fn stdout_lacks(&self, part: &str) -> &Run {
        assert!(
            !self.stdout.contains(part),
            "standard output has {part:?}\n{}",
            self.describe()
        );
        self
    }

    /// Asserts that standard error does not contain `part`.
    #[track_caller]
    pub fn stderr_lacks(&self, part: &str) -> &Run {
        assert!(
            !self.stderr.contains(part),
            "standard error has {part:?}\n{}",
            self.describe()
        );
        self
    }

    /// Asserts that standard output and standard error are both valid
    /// UTF-8 (the text fields replace what is not, silently).
    #[track_caller]
    pub fn utf8(&self) -> &Run {
        for (name, bytes) in [
            ("output", &self.stdout_bytes),
            ("error", &self.stderr_bytes),
        ] {
            if let Err(e) = std::str::from_utf8(bytes) {
                panic!("standard {name} is not UTF-8: {e}\n{}", self.describe());
            }
        }
        self
    }

    /// Asserts that standard error starts with `prefix`.
    #[track_caller]
    pub fn stderr_starts(&self, prefix: &str) -> &Run {
        assert!(
            self.stderr.starts_with(prefix),
            "standard error does not start with {prefix:?}\n{}",
            self.describe()
        );
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Cli {
        Cli::new("sh").args(["-c", script])
    }

    #[test]
    fn arguments_input_environment_and_folder_reach_the_program() {
        let dir = std::env::temp_dir();
        let run = sh("printf '%s|%s|' \"$1\" \"$CLI_T\"; pwd; cat; echo oops >&2; exit 3")
            .args(["-", "a b"])
            .env("CLI_T", "v")
            .current_dir(&dir)
            .stdin("in\n")
            .run();
        let folder = std::fs::canonicalize(&dir).unwrap();
        run.code(3)
            .stdout_is(&format!("a b|v|{}\nin\n", folder.display()))
            .stderr_is("oops\n")
            .stdout_has("a b")
            .stderr_lacks("in");
    }

    #[test]
    fn a_cleared_environment_and_a_removed_variable_are_gone() {
        sh("echo \"${HOME-unset}\"")
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap())
            .run()
            .clean()
            .stdout_is("unset\n");
        sh("echo \"${CLI_GONE-unset}\"")
            .env("CLI_GONE", "x")
            .env_remove("CLI_GONE")
            .run()
            .stdout_is("unset\n");
    }

    #[test]
    fn raw_bytes_are_kept_and_a_signal_has_no_code() {
        let run = sh("printf '\\377'; kill -9 $$").run();
        assert_eq!(run.stdout_bytes, b"\xff");
        assert_eq!(run.stdout, "\u{fffd}");
        assert_eq!(run.code_or_signal(), None);
    }

    #[test]
    #[should_panic(expected = "expected exit code 0")]
    fn a_wrong_code_fails_and_shows_the_run() {
        sh("echo shown >&2; exit 1").run().code(0);
    }

    #[test]
    #[should_panic(expected = "standard output lacks \"absent\"")]
    fn a_missing_part_fails() {
        sh("echo present").run().stdout_has("absent");
    }

    #[test]
    #[should_panic(expected = "standard output is not UTF-8")]
    fn invalid_utf8_fails_when_asked() {
        sh("printf 'ok'").run().utf8();
        sh("printf 'a\\377b'").run().utf8();
    }

    #[test]
    #[should_panic(expected = "standard error is not UTF-8")]
    fn expect_text_checks_when_the_run_ends() {
        sh("printf 'x'; printf '\\377' >&2").expect_text().run();
    }

    #[test]
    fn output_sent_to_a_file_is_not_captured() {
        let dir = tempfile_dir();
        let file = dir.join("out");
        std::fs::write(&file, "").unwrap();
        sh("echo to-file")
            .stdout_to(&file)
            .run()
            .clean()
            .stdout_is("");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "to-file\n");
        let _ = std::fs::remove_dir_all(dir);
    }

    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("test-support-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    #[should_panic(expected = "still running after")]
    fn a_hang_fails_the_test() {
        sh("sleep 30").timeout(Duration::from_millis(200)).run();
    }

    #[test]
    fn a_program_that_stops_reading_early_is_fine() {
        let big = vec![b'x'; 1 << 20];
        sh("head -c 1 >/dev/null").stdin(big).run().clean();
    }
}
