//! `cargo xtask`'s own command line: help is a success, a missing or unknown
//! task a usage error.

use test_support::Cli;

fn xtask() -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_xtask"))
}

#[test]
fn help_prints_the_usage_and_succeeds() {
    for flag in ["--help", "-h", "help"] {
        let out = xtask().arg(flag).label(flag).run();
        out.clean().stdout_has("cargo xtask fuzz");
        assert!(
            out.stdout.starts_with("usage: cargo xtask grade"),
            "{}",
            out.describe()
        );
    }
}

#[test]
fn no_task_or_an_unknown_one_is_a_usage_error() {
    xtask()
        .run()
        .code(2)
        .stdout_is("")
        .stderr_starts("usage: cargo xtask");
    xtask()
        .arg("grde")
        .run()
        .code(2)
        .stderr_starts("xtask: unknown task \"grde\"\nusage:");
}
