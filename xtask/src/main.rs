//! Project tasks: `cargo xtask grade [ARGS...]` and `cargo xtask bless [ARGS...]`
//! run `cnf-grader grade`/`bless` (release build) on the workspace's own
//! implementation, with the same arguments and exit code;
//! `cargo xtask fuzz [TARGET] [--time 60s]` runs the cargo-fuzz targets of
//! `fuzz/` one after another.
#![allow(clippy::print_stderr)] // reason: a command-line front end

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The fuzz targets of `fuzz/fuzz_targets/`, in the order they are run.
const TARGETS: [&str; 6] = ["cnf", "solution", "peg", "mastermind", "diff", "units"];

const USAGE: &str = "usage: cargo xtask grade [PATH...] [OPTIONS]   grade fixtures (default fixtures/)\n       \
     cargo xtask bless [PATH...] [OPTIONS]   write .solution files\n       \
     cargo xtask fuzz [TARGET] [--time 60s]  fuzz one target (cnf, solution, peg, mastermind,\n       \
     \x20                                       diff, units) or all of them in turn, each for --time\n\
     Options are those of `cnf-grader grade --help` and `cnf-grader bless --help`.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    match args.first().map(String::as_str) {
        Some("grade" | "bless") => {
            let mut command = Command::new(cargo);
            command
                .args(["run", "--quiet", "--release", "--package", "cnf-grader"])
                .args(["--bin", "cnf-grader", "--"])
                .args(&args);
            run(command)
        }
        Some("fuzz") => match fuzz_plan(&args[1..]) {
            Ok((targets, seconds)) => fuzz(&cargo, &targets, seconds),
            Err(message) => {
                eprintln!("xtask fuzz: {message}\n{USAGE}");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Runs `command`, passing its exit code on.
fn run(mut command: Command) -> ExitCode {
    match command.status() {
        Ok(status) => ExitCode::from(status.code().map_or(2, |c| c.clamp(0, 255) as u8)),
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
