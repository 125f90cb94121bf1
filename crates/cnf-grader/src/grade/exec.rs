//! Running any program under test: one `sh -c COMMAND` per case, with a
//! CPU-time limit (the user + system time of the run's whole process tree,
//! so a grade does not depend on how busy the machine is), a wall-clock
//! backstop for a program that sleeps or blocks (3 times the CPU limit, at
//! least 5 s: [`TimeLimits::cpu`]), an output cap, and its standard error
//! kept for the report. Each case records the CPU and wall time its run
//! used and which limit, if any, stopped it. The
//! run loop itself (and the sandbox) is the `sandbox` crate's; this module
//! fills in the command and runs it there, or plainly with `--no-sandbox`.
//!
//! Decisions:
//! - the command is run through `sh -c` in its own process group, in the
//!   grader's working directory and environment, standard input closed; on a timeout or when the output passes the cap, the whole
//!   group is killed (`SIGKILL`), so a shell script's children die too;
//! - standard output and standard error are read at the same time by two
//!   threads, so a child that fills one pipe cannot deadlock; standard
//!   output is never held beyond the cap, standard error only up to
//!   [`STDERR_KEPT`] bytes (the rest is read and dropped);
//! - if a process escapes the group and keeps a pipe open, the run still
//!   ends at the deadline: the reader threads are then left behind;
//! - a case the wall-clock backstop stopped is run once more
//!   ([`with_second_chance`]) and the second run's result stands: a program
//!   that sleeps or blocks is stopped twice, while one that was only
//!   starved of the CPU by a busy machine (or stalled by its disk) for a
//!   moment gets the grade its code earns. The CPU limit needs no second
//!   run: CPU time does not grow with the machine's load.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use connect_core::Function;

use crate::sandbox::{Bind, Sandbox, TimeLimits};

pub use sandbox::{Outcome, RunResult as ExecResult, STDERR_KEPT};

/// The CPU-time limit of one run unless told otherwise (`--timeout`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The most bytes of standard output accepted from one run unless told
/// otherwise (`--max-output`).
pub const DEFAULT_MAX_OUTPUT: usize = 1 << 20;

/// How to run the program under test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecConfig {
    /// The command template, with `{part}`, `{function}` and `{input}`.
    pub command: String,
    /// The CPU-time limit of one run (user + system of its whole process
    /// tree); the wall clock stops it at [`TimeLimits::cpu`]'s backstop.
    pub timeout: Duration,
    /// The most bytes of standard output accepted.
    pub max_output: usize,
    /// The program's working directory (`None`: the grader's); when set,
    /// `{input}` becomes an absolute path so the program still finds it.
    pub working_dir: Option<PathBuf>,
    /// The sandbox each run goes in (`None`: runs with the grader's rights).
    pub sandbox: Option<ExecSandbox>,
}

/// How `--exec` runs are sandboxed.
#[derive(Debug, Clone)]
pub struct ExecSandbox {
    /// The sandbox.
    pub sandbox: std::sync::Arc<Sandbox>,
    /// What each run sees besides its game file.
    pub binds: Vec<Bind>,
    /// What the runs of each part (1 to 4) see besides `binds`: the files
    /// its own command names once `{part}` and `{function}` are filled in.
    /// (Index 0 is part 1; a missing entry adds nothing.)
    pub part_binds: Vec<Vec<Bind>>,
    /// The working folder inside.
    pub chdir: PathBuf,
}

impl PartialEq for ExecSandbox {
    fn eq(&self, other: &Self) -> bool {
        self.binds == other.binds
            && self.part_binds == other.part_binds
            && self.chdir == other.chdir
    }
}

impl Eq for ExecSandbox {}

impl ExecSandbox {
    /// Runs `template` on `input` (privately copied) in the sandbox.
    pub fn run(
        &self,
        template: &str,
        function: Function,
        input: &Path,
        timeout: Duration,
        max_output: usize,
    ) -> std::io::Result<ExecResult> {
        let mut run = self.sandbox.run()?;
        let part = usize::from(function.part() - 1);
        let own = self.part_binds.get(part).map_or(&[][..], Vec::as_slice);
        for bind in self.binds.iter().chain(own) {
            run.bind(bind.clone());
        }
        run.chdir(&self.chdir);
        let inside = run.input(input)?;
        let command = substitute(template, function, &inside);
        Ok(run.execute_within(&command, TimeLimits::cpu(timeout), max_output))
    }
}

/// Runs a case with `run`, and once more when the wall-clock backstop
/// stopped it ([`Outcome::TimeLimit`] of [`sandbox::Clock::Wall`]); the
/// second run's result stands. Returns the result and whether it is a
/// second run's.
pub fn with_second_chance<E>(
    mut run: impl FnMut() -> Result<ExecResult, E>,
) -> Result<(ExecResult, bool), E> {
    let first = run()?;
    if matches!(first.outcome, Outcome::TimeLimit(sandbox::Clock::Wall)) {
        return Ok((run()?, true));
    }
    Ok((first, false))
}

/// The command for one case: `{part}` becomes `01`..`04`, `{function}` the
/// function's name and `{input}` the shell-quoted game file path.
pub fn substitute(template: &str, function: Function, input: &Path) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(r) = tail.strip_prefix("{part}") {
            out.push_str(&format!("{:02}", function.part()));
            rest = r;
        } else if let Some(r) = tail.strip_prefix("{function}") {
            out.push_str(function.name());
            rest = r;
        } else if let Some(r) = tail.strip_prefix("{input}") {
            out.push_str(&shell_quote(&input.to_string_lossy()));
            rest = r;
        } else {
            out.push('{');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The command of one part with `{part}` and `{function}` filled in and
/// `{input}` left as it is: what decides which files the part's program
/// may see.
pub fn fill(template: &str, function: Function) -> String {
    template
        .replace("{part}", &format!("{:02}", function.part()))
        .replace("{function}", function.name())
}

/// The placeholders a command template may hold.
pub const PLACEHOLDERS: [&str; 3] = ["{part}", "{function}", "{input}"];

/// Checks a command template: not empty, and every `{name}` (outside the
/// shell's own `${name}`) one of [`PLACEHOLDERS`].
pub fn check_template(template: &str) -> Result<(), String> {
    if template.trim().is_empty() {
        return Err(
            "the command is empty; give the program to run, e.g. './csce322assignment03part{part} {input}'"
                .to_owned(),
        );
    }
    let bytes = template.as_bytes();
    for (at, _) in template.match_indices('{') {
        if at > 0 && bytes[at - 1] == b'$' {
            continue;
        }
        let rest = &template[at + 1..];
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if name_len > 0 && rest[name_len..].starts_with('}') {
            let placeholder = &template[at..at + name_len + 2];
            if !PLACEHOLDERS.contains(&placeholder) {
                return Err(format!(
                    "unknown placeholder {placeholder} in {template:?}; the placeholders are {}",
                    PLACEHOLDERS.join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// The files and folders a command template names: each word (split at
/// white space and the shell's `;|&()<>`, quotes removed, placeholders and
/// `$` words left out) that is an existing file, relative to `dir` or
/// absolute, or an existing folder inside `dir`, outside the system folders the sandbox shows anyway (and
/// `/dev`, `/proc`, `/sys`); in the
/// order named, each once, absolute.
pub fn named_files(template: &str, dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for word in template.split(|c: char| c.is_whitespace() || ";|&()<>".contains(c)) {
        let word = word.trim_matches(|c| c == '\'' || c == '"');
        if word.is_empty() || word.contains('{') || word.contains('$') || word.starts_with('-') {
            continue;
        }
        let path = dir.join(word);
        let Ok(path) = std::path::absolute(&path) else {
            continue;
        };
        let path: PathBuf = path.components().collect();
        // A file anywhere, a folder only inside the working folder (a word
        // such as `/` in `sed 's/a/ /'` must not show the whole machine).
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_file() => {}
            Ok(m) if m.is_dir() && path.starts_with(dir) => {}
            _ => continue,
        }
        let system = sandbox::SYSTEM_DIRS
            .iter()
            .chain(sandbox::SYSTEM_LINKS.iter())
            .chain(["/dev", "/proc", "/sys"].iter())
            .any(|d| path.starts_with(d));
        if !system && path != dir && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// `s` as one word for `sh`, in single quotes unless it needs none.
pub fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./+,:@%=".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        return s.to_owned();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Runs `command` with `sh -c` under these limits, in the grader's working directory.
pub fn run_command(command: &str, timeout: Duration, max_output: usize) -> ExecResult {
    run_command_in(command, None, timeout, max_output)
}

/// Runs `command` with `sh -c` under these limits (`timeout` of CPU time,
/// the wall-clock backstop of [`TimeLimits::cpu`]), in `dir` when given,
/// with the grader's rights (`--no-sandbox`).
pub fn run_command_in(
    command: &str,
    dir: Option<&Path>,
    timeout: Duration,
    max_output: usize,
) -> ExecResult {
    let mut sh = Command::new("sh");
    if let Some(dir) = dir {
        sh.current_dir(dir);
    }
    sh.arg("-c").arg(command);
    sandbox::run_plain_within(sh, TimeLimits::cpu(timeout), max_output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;
    use std::time::Instant;

    fn ended(outcome: Outcome) -> ExecResult {
        ExecResult {
            outcome,
            stderr: String::new(),
            stderr_truncated: false,
            usage: sandbox::Usage::default(),
        }
    }

    #[test]
    fn only_a_stop_by_the_wall_clock_is_run_again_and_the_second_run_stands() {
        use sandbox::Clock;
        let passed = || Outcome::Exited {
            code: 0,
            stdout: b"ok".to_vec(),
        };
        // Stopped by the wall clock, then ends normally: the second stands.
        let mut outcomes = vec![passed(), Outcome::TimeLimit(Clock::Wall)];
        let mut calls = 0;
        let (r, again) = with_second_chance::<()>(|| {
            calls += 1;
            Ok(ended(outcomes.pop().unwrap()))
        })
        .unwrap();
        assert_eq!((r.outcome, again, calls), (passed(), true, 2));
        // Stopped by the wall clock twice: stopped.
        let mut calls = 0;
        let (r, again) = with_second_chance::<()>(|| {
            calls += 1;
            Ok(ended(Outcome::TimeLimit(Clock::Wall)))
        })
        .unwrap();
        assert_eq!(
            (r.outcome, again, calls),
            (Outcome::TimeLimit(Clock::Wall), true, 2)
        );
        // Every other end is final at once, the CPU limit's too.
        for outcome in [
            passed(),
            Outcome::TimeLimit(Clock::Cpu),
            Outcome::Signalled(11),
            Outcome::MemoryLimit,
            Outcome::OutputCap,
        ] {
            let mut calls = 0;
            let (r, again) = with_second_chance::<()>(|| {
                calls += 1;
                Ok(ended(outcome.clone()))
            })
            .unwrap();
            assert_eq!((r.outcome, again, calls), (outcome, false, 1));
        }
        // An error to set the run up is returned as it is.
        assert_eq!(with_second_chance(|| Err::<ExecResult, _>("no")), Err("no"));
    }

    #[test]
    fn placeholders_are_replaced_once_and_paths_quoted() {
        let cmd = substitute(
            "./p{part} {input} --f={function} {x} {",
            Function::ManyPlayersOneMove,
            Path::new("a b/it's.cnf"),
        );
        assert_eq!(cmd, r"./p03 'a b/it'\''s.cnf' --f=manyPlayersOneMove {x} {");
        assert_eq!(
            substitute("{input}", Function::OnePlayerOneMove, Path::new("f/t.cnf")),
            "f/t.cnf"
        );
    }

    #[test]
    fn a_part_names_its_own_program_once_filled_in() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().canonicalize().unwrap();
        std::fs::write(d.join("csce322assignment03part01"), "").unwrap();
        std::fs::write(d.join("csce322assignment03part03"), "").unwrap();
        let template = "./csce322assignment03part{part} {input}";
        let one = fill(template, Function::OnePlayerOneMove);
        assert_eq!(one, "./csce322assignment03part01 {input}");
        assert_eq!(
            named_files(&one, &d),
            vec![d.join("csce322assignment03part01")]
        );
        let three = fill(template, Function::ManyPlayersOneMove);
        assert_eq!(
            named_files(&three, &d),
            vec![d.join("csce322assignment03part03")]
        );
        // The template itself names nothing: `{` words are left out.
        assert!(named_files(template, &d).is_empty());
        assert_eq!(
            fill("run {function} {input}", Function::ManyPlayersManyMoves),
            "run manyPlayersManyMoves {input}"
        );
    }

    #[test]
    fn templates_are_checked() {
        assert_eq!(check_template("./p{part} {input} --f={function}"), Ok(()));
        assert_eq!(check_template("echo ${HOME} {input} { x }"), Ok(()));
        assert!(
            check_template("")
                .unwrap_err()
                .starts_with("the command is empty")
        );
        assert!(check_template("  ").is_err());
        assert_eq!(
            check_template("./p{part} {file}").unwrap_err(),
            "unknown placeholder {file} in \"./p{part} {file}\"; the placeholders are {part}, {function}, {input}"
        );
    }

    #[test]
    fn quoting_round_trips_through_sh() {
        let tricky = "a b'c\"d$e`f\\g";
        let r = run_command(
            &format!("printf %s {}", shell_quote(tricky)),
            Duration::from_secs(5),
            1024,
        );
        assert_eq!(
            r.outcome,
            Outcome::Exited {
                code: 0,
                stdout: tricky.as_bytes().to_vec()
            }
        );
    }

    #[test]
    fn exit_codes_signals_timeouts_and_caps() {
        let t = Duration::from_secs(5);
        let r = run_command("echo hi; echo oops >&2; exit 3", t, 1024);
        assert_eq!(
            r.outcome,
            Outcome::Exited {
                code: 3,
                stdout: b"hi\n".to_vec()
            }
        );
        assert_eq!(r.stderr, "oops\n");
        assert_eq!(
            run_command("kill -SEGV $$", t, 1024).outcome,
            Outcome::Signalled(11)
        );
        // A loop is stopped by its CPU time, a sleeper by the wall clock's
        // backstop (5 s at least).
        let r = run_command("while :; do :; done", Duration::from_millis(200), 1024);
        assert_eq!(r.outcome, Outcome::TimeLimit(sandbox::Clock::Cpu));
        assert!(r.usage.cpu >= Duration::from_millis(200), "{:?}", r.usage);
        let start = Instant::now();
        let r = run_command("sleep 1000", Duration::from_millis(200), 1024);
        assert_eq!(r.outcome, Outcome::TimeLimit(sandbox::Clock::Wall));
        assert!(start.elapsed() >= sandbox::TimeLimits::WALL_FLOOR);
        assert!(r.usage.cpu < Duration::from_millis(200), "{:?}", r.usage);
        assert_eq!(run_command("yes", t, 1 << 16).outcome, Outcome::OutputCap);
        // What a killed program said on standard error is kept.
        let r = run_command(
            "echo waiting >&2; while :; do :; done",
            Duration::from_millis(300),
            1024,
        );
        assert_eq!(
            (r.outcome, r.stderr.as_str()),
            (Outcome::TimeLimit(sandbox::Clock::Cpu), "waiting\n")
        );
        let r = run_command("echo flooding >&2; yes", t, 1 << 16);
        assert_eq!(
            (r.outcome, r.stderr.as_str()),
            (Outcome::OutputCap, "flooding\n")
        );
    }

    #[test]
    fn stderr_is_read_alongside_and_truncated() {
        // 1 MB on stderr would block a child whose stderr is not drained.
        let r = run_command(
            "head -c 1000000 /dev/zero >&2; echo done",
            Duration::from_secs(10),
            1024,
        );
        assert_eq!(
            r.outcome,
            Outcome::Exited {
                code: 0,
                stdout: b"done\n".to_vec()
            }
        );
        assert_eq!(r.stderr.len(), STDERR_KEPT);
        assert!(r.stderr_truncated);
    }

    #[test]
    fn a_timeout_kills_the_whole_process_group() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let command = format!(
            "(while :; do :; done) & echo $! > {}; wait",
            shell_quote(&pid_file.to_string_lossy())
        );
        let r = run_command(&command, Duration::from_millis(300), 1024);
        assert_eq!(r.outcome, Outcome::TimeLimit(sandbox::Clock::Cpu));
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let stat = Path::new("/proc").join(pid.trim()).join("stat");
        // The grandchild is gone (or a zombie about to be reaped by init).
        let start = Instant::now();
        while let Ok(text) = std::fs::read_to_string(&stat) {
            let state = text.rsplit(") ").next().unwrap_or("").chars().next();
            if state == Some('Z') || start.elapsed() > Duration::from_secs(5) {
                assert_eq!(state, Some('Z'), "sleep still runs: {text}");
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn a_command_names_its_own_files_and_no_folder_outside() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().canonicalize().unwrap();
        std::fs::write(d.join("prog"), "").unwrap();
        std::fs::create_dir(d.join("lib")).unwrap();
        std::fs::write(d.join("grades.csv"), "").unwrap();
        let named = named_files(
            "./prog {input} --x lib; sed 's/a/ /' \"$HOME/y\" /etc/passwd /tmp nothing",
            &d,
        );
        assert_eq!(named, vec![d.join("prog"), d.join("lib")]);
    }
}
