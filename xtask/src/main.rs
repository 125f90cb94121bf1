//! Project tasks: `cargo xtask grade [ARGS...]` and `cargo xtask bless [ARGS...]`
//! run `cnf-grader grade`/`bless` (a dev build: see [`GRADER_BUILD`]) on the workspace's own
//! implementation, with the same arguments and exit code, in the workspace
//! root; `cargo xtask fuzz [TARGET] [--time 60s]` runs the cargo-fuzz targets
//! of `fuzz/` one after another; `cargo xtask gradescope-kit` makes the
//! Gradescope autograder zip (see [`kit`]).
#![allow(clippy::print_stderr)] // reason: a command-line front end

mod kit;

use std::io::{BufRead, IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

/// The fuzz targets of `fuzz/fuzz_targets/`, in the order they are run.
const TARGETS: [&str; 7] = [
    "cnf",
    "solution",
    "peg",
    "mastermind",
    "diff",
    "units",
    "escape",
];

const USAGE: &str = "usage: cargo xtask grade [PATH...] [OPTIONS]   grade fixtures (default fixtures/)\n       \
     cargo xtask bless [PATH...] [OPTIONS]   write .solution files\n       \
     cargo xtask fuzz [TARGET] [--time 60s]  fuzz one target (cnf, solution, peg, mastermind,\n       \
     \x20                                       diff, units, escape) or all of them in turn, each for\n       \
     \x20                                       --time\n       \
     cargo xtask gradescope-kit [--fixtures DIR] [--out FILE] [--grader FILE] [--assignment NAME]\n       \
     \x20                                       write a fresh Gradescope autograder zip (default\n       \
     \x20                                       fixtures/ into target/gradescope/autograder.zip),\n       \
     \x20                                       with a release grader (static where the musl target\n       \
     \x20                                       is installed) or the --grader binary given\n       \
     cargo xtask --help                      this text\n\
     Options are those of `cnf-grader grade --help` and `cnf-grader bless --help`.\n\
     grade, bless and gradescope-kit run in the workspace root, from whichever folder they\n\
     are called: relative paths (PATH, --output FILE, --out FILE, ...) are taken from the root.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    match args.first().map(String::as_str) {
        Some("grade" | "bless") => {
            let root = workspace_root();
            let build = build_grader(&cargo, &root);
            if build != ExitCode::SUCCESS {
                return build;
            }
            run(grader_command(&cargo, &root, &args))
        }
        Some("fuzz") => match fuzz_plan(&args[1..]) {
            Ok((targets, seconds)) => fuzz(&cargo, &targets, seconds),
            Err(message) => {
                eprintln!("xtask fuzz: {message}\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("gradescope-kit") => {
            let root = workspace_root();
            match kit::parse(&args[1..], &root)
                .map_err(|e| (e, true))
                .and_then(|a| kit::gradescope_kit(&cargo, &root, &a).map_err(|e| (e, false)))
            {
                Ok(()) => ExitCode::SUCCESS,
                Err((message, usage)) => {
                    let usage = if usage {
                        format!("\n{USAGE}")
                    } else {
                        String::new()
                    };
                    eprintln!("xtask gradescope-kit: {message}{usage}");
                    ExitCode::from(2)
                }
            }
        }
        Some("-h" | "--help" | "help") => {
            // A closed pipe (`cargo xtask --help | head -1`) is not an error.
            let _ = writeln!(std::io::stdout(), "{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("xtask: unknown task {other:?}\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// How the grader is built for `grade` and `bless`: the `cnf-grader`
/// binary alone, in the dev profile. Grading the project's fixtures
/// in-process takes a fraction of a second even unoptimised, while an
/// optimised build costs about 2.5 times the processor time (measured:
/// 328 s against 132 s from a clean target folder, 76 crates each), and
/// the dev build's dependencies are the ones `cargo test` builds too.
const GRADER_BUILD: [&str; 4] = ["--package", "cnf-grader", "--bin", "cnf-grader"];

/// Builds `cnf-grader` ([`GRADER_BUILD`]), showing cargo's progress (each
/// crate it compiles) but not the lone `Finished` line of a build with
/// nothing to do.
fn build_grader(cargo: &std::ffi::OsStr, root: &Path) -> ExitCode {
    let mut command = Command::new(cargo);
    command
        .current_dir(root)
        .arg("build")
        .args(GRADER_BUILD)
        .stderr(Stdio::piped());
    // Piped, cargo's messages would lose their colour on a terminal.
    if std::io::stderr().is_terminal() && std::env::var_os("CARGO_TERM_COLOR").is_none() {
        command.args(["--color", "always"]);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            eprintln!("xtask: cannot run {:?}: {e}", command.get_program());
            return ExitCode::from(2);
        }
    };
    let messages = child.stderr.take().expect("a piped standard error");
    let _ = forward_progress(std::io::BufReader::new(messages), std::io::stderr().lock());
    match child.wait() {
        Ok(status) => exit_code(status),
        Err(e) => {
            eprintln!("xtask: cannot wait for cargo build: {e}");
            ExitCode::from(2)
        }
    }
}

/// Copies cargo's messages from `messages` to `out` line by line, except a
/// `Finished` line that comes first: a build with nothing to do stays silent.
fn forward_progress(mut messages: impl BufRead, mut out: impl Write) -> std::io::Result<()> {
    let mut first = true;
    let mut line = Vec::new();
    while messages.read_until(b'\n', &mut line)? > 0 {
        let quiet = first && visible(&line).trim_start().starts_with("Finished ");
        if !quiet {
            out.write_all(&line)?;
            out.flush()?;
        }
        first = false;
        line.clear();
    }
    Ok(())
}

/// The text of `line` without its terminal colour sequences (`ESC [ … letter`).
fn visible(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `cnf-grader ARGS` through a quiet `cargo run` (the build is done), in
/// `root`, so that relative paths mean the same from any folder.
fn grader_command(cargo: &std::ffi::OsStr, root: &Path, args: &[String]) -> Command {
    let mut command = Command::new(cargo);
    command
        .current_dir(root)
        .args(["run", "--quiet"])
        .args(GRADER_BUILD)
        .arg("--")
        .args(args);
    command
}

/// The exit code of `status`, passed on (2 for a program killed by a signal).
fn exit_code(status: std::process::ExitStatus) -> ExitCode {
    ExitCode::from(status.code().map_or(2, |c| c.clamp(0, 255) as u8))
}

/// Runs `command`, passing its exit code on.
fn run(mut command: Command) -> ExitCode {
    match command.status() {
        Ok(status) => exit_code(status),
        Err(e) => {
            eprintln!("xtask: cannot run {:?}: {e}", command.get_program());
            ExitCode::from(2)
        }
    }
}

/// The targets and seconds per target asked for by `[TARGET] [--time T]`.
fn fuzz_plan(args: &[String]) -> Result<(Vec<&'static str>, u64), String> {
    let mut targets = TARGETS.to_vec();
    let mut seconds = 60;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if let Some(value) = arg.strip_prefix("--time=") {
            seconds = parse_time(value)?;
        } else if arg == "--time" {
            let value = rest
                .next()
                .ok_or("--time needs a value such as 60s or 10m")?;
            seconds = parse_time(value)?;
        } else if let Some(&t) = TARGETS.iter().find(|t| **t == arg) {
            targets = vec![t];
        } else {
            return Err(format!(
                "unknown target or option {arg:?}; the targets are {}",
                TARGETS.join(", ")
            ));
        }
    }
    Ok((targets, seconds))
}

/// Seconds in `90`, `90s`, `10m` or `1h`.
fn parse_time(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, "s"),
    };
    let scale = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        _ => 0,
    };
    match digits.parse::<u64>() {
        Ok(n) if n > 0 && scale > 0 => Ok(n * scale),
        _ => Err(format!(
            "--time {text:?} is not a duration; write e.g. 60s, 10m or 1h"
        )),
    }
}

/// Runs each target for `seconds` with `cargo fuzz run`; stops at the first
/// target that finds a crash (exit 1).
fn fuzz(cargo: &std::ffi::OsStr, targets: &[&str], seconds: u64) -> ExitCode {
    let root = workspace_root();
    let installed = Command::new(cargo)
        .args(["fuzz", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!(
            "xtask fuzz: cargo-fuzz is not installed; install it with `cargo install cargo-fuzz` \
             (it builds in a few minutes; a C++ compiler is needed for libFuzzer)"
        );
        return ExitCode::from(2);
    }
    for target in targets {
        let corpus = root.join("fuzz/corpus").join(target);
        if let Err(e) = std::fs::create_dir_all(&corpus) {
            eprintln!("xtask fuzz: cannot create {}: {e}", corpus.display());
            return ExitCode::from(2);
        }
        eprintln!("xtask fuzz: {target} for {seconds} s");
        let mut command = Command::new(cargo);
        // cargo-fuzz passes nightly-only flags (-Zsanitizer); this lets the
        // stable toolchain accept them.
        command.env("RUSTC_BOOTSTRAP", "1").current_dir(&root);
        command.args(["fuzz", "run", target]).arg(&corpus);
        command.arg(root.join("fuzz/seeds").join(target));
        if matches!(*target, "cnf" | "solution") {
            command.arg(root.join("fixtures"));
        }
        command.args([
            "--",
            &format!("-max_total_time={seconds}"),
            "-rss_limit_mb=2048",
            "-timeout=10",
            "-print_final_stats=1",
        ]);
        let code = run(command);
        if code != ExitCode::SUCCESS {
            eprintln!(
                "xtask fuzz: {target} found a problem; the input is under fuzz/artifacts/{target}/"
            );
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

/// The workspace root: the parent of this crate's folder.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_with_nothing_to_do_is_silent() {
        let forwarded = |input: &str| {
            let mut out = Vec::new();
            forward_progress(input.as_bytes(), &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let warm = "    Finished `release` profile [optimized] target(s) in 0.08s\n";
        assert_eq!(forwarded(warm), "");
        let coloured = "\u{1b}[1m\u{1b}[92m    Finished\u{1b}[0m `release` profile in 0.1s\n";
        assert_eq!(forwarded(coloured), "");
        let cold = "   Compiling nom v8.0.0\n   Compiling cnf-grader v0.1.0\n    Finished `release` profile in 80s\n";
        assert_eq!(forwarded(cold), cold);
        let warning = "warning: unused import\n    Finished `release` profile in 1s\n";
        assert_eq!(forwarded(warning), warning);
    }

    #[test]
    fn grade_and_bless_run_in_the_workspace_root() {
        let root = workspace_root();
        let args = vec!["grade".to_string(), "fixtures/".to_string()];
        let command = grader_command("cargo".as_ref(), &root, &args);
        assert_eq!(command.get_current_dir(), Some(root.as_path()));
        assert!(root.join("fixtures").is_dir());
        let given: Vec<_> = command.get_args().collect();
        assert_eq!(given[given.len() - 3..], ["--", "grade", "fixtures/"]);
        // The same build as build_grader: only the grader binary, no other
        // package's, and no second (release) build of it.
        assert_eq!(given[2..6], GRADER_BUILD);
        assert!(!given.contains(&std::ffi::OsStr::new("--release")));
    }

    #[test]
    fn durations() {
        assert_eq!(parse_time("60s"), Ok(60));
        assert_eq!(parse_time("90"), Ok(90));
        assert_eq!(parse_time("10m"), Ok(600));
        assert_eq!(parse_time("1h"), Ok(3600));
        for bad in ["", "0", "s", "1d", "-1s", "1.5m"] {
            assert!(parse_time(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn plans() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(fuzz_plan(&args(&[])), Ok((TARGETS.to_vec(), 60)));
        assert_eq!(
            fuzz_plan(&args(&["peg", "--time", "2m"])),
            Ok((vec!["peg"], 120))
        );
        assert_eq!(
            fuzz_plan(&args(&["--time=5s", "diff"])),
            Ok((vec!["diff"], 5))
        );
        assert!(fuzz_plan(&args(&["nope"])).unwrap_err().contains("cnf"));
        assert!(fuzz_plan(&args(&["--time"])).is_err());
    }
}
