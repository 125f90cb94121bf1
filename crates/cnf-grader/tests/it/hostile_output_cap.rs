//! The grader never holds more than the output cap of a program's output:
//! a program printing a gigabyte is stopped at the cap, and one flooding
//! standard error has all but its first bytes dropped as they arrive. The
//! process's peak memory (`VmHWM`) is the witness: the test binary is
//! started again to run only the floods, so no other test's memory mixes in.

use std::io::Write as _;
use std::time::Duration;

use cnf_grader::grade::exec::{Outcome, STDERR_KEPT, run_command};
use test_support::Cli;

/// Set in the process started by [`floods_are_cut_at_the_cap_and_never_held`]
/// to run [`floods_alone`] there.
const ALONE: &str = "CNF_TEST_FLOODS_ALONE";

/// The process's peak resident memory in KiB, from `/proc/self/status`.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmHWM line")
}

/// Starts this test binary again with only [`floods_alone`], whose peak
/// memory is then its own process's.
#[test]
fn floods_are_cut_at_the_cap_and_never_held() {
    let exe = std::env::current_exe().expect("the test binary's path");
    Cli::new(exe)
        .args([
            "hostile_output_cap::floods_alone",
            "--exact",
            "--include-ignored",
            "--test-threads",
            "1",
        ])
        .env(ALONE, "1")
        .label("the floods, alone in a process")
        .run()
        .code(0)
        .stdout_has("test result: ok. 1 passed");
}

/// The floods and the peak memory, in a process running nothing else.
#[test]
#[ignore = "run alone in a process of its own by floods_are_cut_at_the_cap_and_never_held"]
fn floods_alone() {
    if std::env::var_os(ALONE).is_none() {
        // Past the harness's capture, so it shows in a passing run.
        let _ = writeln!(
            std::io::stderr(),
            "note: floods_alone runs only alone in a process, as \
             floods_are_cut_at_the_cap_and_never_held starts it (other tests' memory \
             would mix into the peak)"
        );
        return;
    }
    let cap = 1 << 20;
    let limit = Duration::from_secs(120);
    let before = peak_rss_kib();

    // A gigabyte of output: killed at the cap.
    let r = run_command("head -c 1000000000 /dev/zero", limit, cap);
    assert_eq!(r.outcome, Outcome::OutputCap);

    // Exactly the cap is accepted whole; one byte more is not.
    let r = run_command(&format!("head -c {cap} /dev/zero"), limit, cap);
    match r.outcome {
        Outcome::Exited { code: 0, stdout } => assert_eq!(stdout.len(), cap),
        other => panic!("{other:?}"),
    }
    let r = run_command(&format!("head -c {} /dev/zero", cap + 1), limit, cap);
    assert_eq!(r.outcome, Outcome::OutputCap);

    // 200 MB on standard error: read to the end, the first bytes kept.
    let r = run_command("head -c 200000000 /dev/zero >&2; printf ok", limit, cap);
    assert_eq!(
        r.outcome,
        Outcome::Exited {
            code: 0,
            stdout: b"ok".to_vec()
        }
    );
    assert_eq!(r.stderr.len(), STDERR_KEPT);
    assert!(r.stderr_truncated);

    // Holding either flood would have raised the peak by hundreds of MB.
    let grown = peak_rss_kib().saturating_sub(before);
    assert!(grown < 64 * 1024, "peak memory grew by {grown} KiB");
}
