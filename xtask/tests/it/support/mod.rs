//! What the workspace-level tests share: the repository root, and the
//! workspace's binaries built in the tests' own profile.

use std::path::{Path, PathBuf};
use std::time::Duration;

use test_support::Cli;

/// The repository root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is one folder below the root")
        .to_path_buf()
}

/// The profile this test was built with, to build the binaries alike: the
/// test runs from `target/PROFILE-FOLDER/deps/`.
pub(crate) fn profile() -> String {
    let exe = std::env::current_exe().expect("the test's own path");
    let folder = exe
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .unwrap_or("debug");
    match folder {
        "debug" => "dev".to_string(),
        other => other.to_string(),
    }
}

/// Builds every binary of the workspace and returns the folders that hold
/// them (the artifacts cargo reports, so a custom target folder works too).
pub(crate) fn build_binaries() -> Vec<PathBuf> {
    // A cold build on a busy machine, or one waiting for another build's
    // lock, takes minutes: more than a program under test may.
    let build = Cli::new(env!("CARGO"))
        .current_dir(root())
        .args(["build", "--workspace", "--bins", "--quiet"])
        .args(["--profile", &profile(), "--message-format", "json"])
        .timeout(Duration::from_secs(30 * 60))
        .label("cargo build --workspace --bins")
        .run();
    build.code(0);
    let mut folders: Vec<PathBuf> = Vec::new();
    for line in build.stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if let Some(exe) = message["executable"].as_str() {
            let folder = Path::new(exe).parent().expect("a folder").to_path_buf();
            if !folders.contains(&folder) {
                folders.push(folder);
            }
        }
    }
    assert!(!folders.is_empty(), "cargo build reported no executable");
    folders
}
