//! The page of `connect serve` in a real browser: runs `tests/web/browser.mjs`
//! (puppeteer-core driving the system's Chromium) with `node`, where node,
//! Chromium and the script's packages (`npm ci` in `tests/web/`) are
//! installed; elsewhere it says it was skipped (and fails where
//! `CNF_REQUIRE_TOOLS` is set, as CI sets it).

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use test_support::{Cli, REQUIRE_TOOLS};

/// What is missing to run the browser test, each with how to install it.
fn missing(web: &Path, chromium: &str) -> Vec<String> {
    let mut missing = Vec::new();
    let node = std::process::Command::new("node")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !node {
        missing.push("node (`apt-get install nodejs npm`)".to_string());
    }
    if !Path::new(chromium).exists() {
        missing.push(format!("{chromium} (`apt-get install chromium`)"));
    }
    if !web.join("node_modules/puppeteer-core").is_dir() {
        missing.push(format!("puppeteer-core (`npm ci` in {})", web.display()));
    }
    missing
}

#[test]
fn the_page_plays_and_analyses_in_a_real_browser() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_string());
    let missing = missing(&web, &chromium);
    if !missing.is_empty() {
        let line = format!(
            "skipped: web::the_page_plays_and_analyses_in_a_real_browser: needs {}",
            missing.join(" and ")
        );
        if std::env::var_os(REQUIRE_TOOLS).is_some_and(|v| !v.is_empty()) {
            panic!("{line}, and {REQUIRE_TOOLS} is set");
        }
        // Past the harness's capture, so the skip shows in a passing run.
        let _ = writeln!(std::io::stderr(), "{line}");
        return;
    }
    let run = Cli::new("node")
        .arg(web.join("browser.mjs"))
        .env("CONNECT_BIN", env!("CARGO_BIN_EXE_connect"))
        .env("CHROMIUM", &chromium)
        .timeout(Duration::from_secs(20 * 60))
        .run();
    run.code(0);
    assert!(
        run.stdout.lines().any(|l| l.ends_with(" passed, 0 failed")),
        "{}",
        run.describe()
    );
}
