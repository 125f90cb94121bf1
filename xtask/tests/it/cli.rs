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

/// The `xtask` alias of `.cargo/config.toml`, as its words (`run`, `--package`, ...).
fn xtask_alias() -> Vec<String> {
    let path = super::support::root().join(".cargo/config.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut in_alias = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_alias = line == "[alias]";
            continue;
        }
        if in_alias && let Some(value) = line.strip_prefix("xtask") {
            let value = value
                .trim_start()
                .strip_prefix('=')
                .expect("xtask = \"...\"");
            let value = value.trim().trim_matches('"');
            return value.split_whitespace().map(str::to_owned).collect();
        }
    }
    panic!("no xtask alias under [alias] in {}", path.display())
}

#[test]
fn the_alias_shows_cargos_progress() {
    let alias = xtask_alias();
    assert_eq!(alias.first().map(String::as_str), Some("run"), "{alias:?}");
    assert!(
        alias.windows(2).any(|w| w == ["--package", "xtask"]),
        "{alias:?}"
    );
    for quiet in ["--quiet", "-q"] {
        assert!(
            !alias.iter().any(|w| w == quiet),
            "the alias passes {quiet}, hiding what the first run compiles: {alias:?}"
        );
    }
}
