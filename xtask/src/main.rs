//! Project tasks: `cargo xtask grade [ARGS...]` and `cargo xtask bless [ARGS...]`
//! run `cnf-grader grade`/`bless` (release build) on the workspace's own
//! implementation, with the same arguments and exit code.
#![allow(clippy::print_stderr)] // reason: a command-line front end

use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !matches!(args.first().map(String::as_str), Some("grade" | "bless")) {
        eprintln!(
            "usage: cargo xtask grade [PATH...] [OPTIONS]   grade fixtures (default fixtures/)\n       \
             cargo xtask bless [PATH...] [OPTIONS]   write .solution files\n\
             Options are those of `cnf-grader grade --help` and `cnf-grader bless --help`."
        );
        return ExitCode::from(2);
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["run", "--quiet", "--release", "--package", "cnf-grader"])
        .args(["--bin", "cnf-grader", "--"])
        .args(&args)
        .status();
    match status {
        Ok(status) => ExitCode::from(status.code().map_or(2, |c| c.clamp(0, 255) as u8)),
        Err(e) => {
            eprintln!("xtask: cannot run cargo: {e}");
            ExitCode::from(2)
        }
    }
}
