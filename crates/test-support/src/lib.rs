//! Helpers shared by the workspace's tests (never a dependency of a
//! library or binary).
//!
//! Tests that need a tool the project does not build (GHC, bubblewrap)
//! call [`require`]: where the tool is missing they print one visible line
//! saying what was skipped and why, and return `false`; where the variable
//! [`REQUIRE_TOOLS`] is set (CI sets it), a missing tool fails the test
//! instead, so CI never skips silently.
#![deny(missing_docs)]

use std::process::{Command, Stdio};

/// The environment variable that turns a missing tool into a failure.
pub const REQUIRE_TOOLS: &str = "CNF_REQUIRE_TOOLS";

/// A tool some tests need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// The Glasgow Haskell Compiler (`ghc`).
    Ghc,
    /// Bubblewrap (`bwrap`) with working user namespaces.
    Bwrap,
}

impl Tool {
    fn command(self) -> &'static str {
        match self {
            Tool::Ghc => "ghc",
            Tool::Bwrap => "bwrap",
        }
    }

    fn install(self) -> &'static str {
        match self {
            Tool::Ghc => "apt-get install ghc",
            Tool::Bwrap => "apt-get install bubblewrap",
        }
    }

    /// Whether the tool runs here.
    pub fn available(self) -> bool {
        let mut command = Command::new(self.command());
        match self {
            Tool::Ghc => command.arg("--numeric-version"),
            Tool::Bwrap => command.args(["--unshare-all", "--ro-bind", "/", "/", "true"]),
        };
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

/// Writes a line straight to standard error, past the test harness's
/// capture, so a skip shows in a passing run.
fn notice(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Whether every tool of `tools` is available; if one is not, prints
/// `skipped: TEST: needs …` (or panics where [`REQUIRE_TOOLS`] is set).
#[track_caller]
pub fn require(test: &str, tools: &[Tool]) -> bool {
    let missing: Vec<Tool> = tools.iter().copied().filter(|t| !t.available()).collect();
    if missing.is_empty() {
        return true;
    }
    let what: Vec<String> = missing
        .iter()
        .map(|t| format!("{} (`{}`)", t.command(), t.install()))
        .collect();
    let line = format!("skipped: {test}: needs {}", what.join(" and "));
    if std::env::var_os(REQUIRE_TOOLS).is_some_and(|v| !v.is_empty()) {
        panic!("{line}, and {REQUIRE_TOOLS} is set");
    }
    notice(&line);
    false
}

/// The arguments that put `cnf-grader`'s programs under test in the
/// sandbox where bubblewrap works, and outside it (`--no-sandbox`) where it
/// does not, saying so once per test binary.
pub fn sandbox_or_not(test: &str) -> Vec<String> {
    if Tool::Bwrap.available() {
        Vec::new()
    } else {
        if std::env::var_os(REQUIRE_TOOLS).is_some_and(|v| !v.is_empty()) {
            panic!("{test}: needs bwrap, and {REQUIRE_TOOLS} is set");
        }
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            notice(&format!(
                "note: {test} (and the others of this test binary): bwrap is missing, so the programs run with --no-sandbox"
            ));
        });
        vec!["--no-sandbox".to_owned()]
    }
}
