//! `cargo xtask`'s own command line: help is a success, a missing or unknown
//! task a usage error.

use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("run xtask")
}

#[test]
fn help_prints_the_usage_and_succeeds() {
    for flag in ["--help", "-h", "help"] {
        let out = xtask(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            stdout.starts_with("usage: cargo xtask grade"),
            "{flag}: {stdout}"
        );
        assert!(stdout.contains("cargo xtask fuzz"), "{flag}: {stdout}");
        assert!(out.stderr.is_empty(), "{flag}");
    }
}

#[test]
fn no_task_or_an_unknown_one_is_a_usage_error() {
    let out = xtask(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("usage: cargo xtask"));

    let out = xtask(&["grde"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("xtask: unknown task \"grde\"\nusage:"),
        "{stderr}"
    );
}
