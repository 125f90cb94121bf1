//! Each backend's own behaviour: typed outcomes, network sockets and
//! ptrace refused, every process of a run killed, shared temporary folders
//! cleaned, nothing of the host in `/proc/1/cmdline`, protected paths
//! checked, bad user ids refused.
//!
//! A backend that cannot run here (bubblewrap missing, the grader not
//! root) is skipped with a visible line; `CNF_REQUIRE_TOOLS` turns the
//! bubblewrap skip into a failure.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sandbox::{
    BackendKind, Bind, Clock, Config, Limits, Outcome, Sandbox, SandboxError, TimeLimits,
};

/// A root grader's bubblewrap runs use the configured id itself; the user
/// backend's tests, in parallel, kill every process of the ids they lease
/// (from `LEASE_OFFSET` above it), so the two never meet.
const BWRAP_UID: u32 = sandbox::DEFAULT_UID;

fn notice(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// A range of [`sandbox::UID_RANGE`] ids for one test alone, picked at
/// random from 1,000,000,000 to 1,800,000,000: the tests that check which
/// id a run gets must not meet another copy of this suite running on the
/// same machine at the same time (another checkout, a second CI job),
/// which would hold the lock of a fixed range's first id. Dropped, it
/// removes the lock files its ids left in the sandbox's lock folder.
struct OwnRange {
    base: u32,
}

impl OwnRange {
    fn new() -> OwnRange {
        use std::hash::{BuildHasher as _, RandomState};
        // The ranges this process's tests hold, never handed out twice.
        static TAKEN: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());
        let slots = 8_000;
        loop {
            let slot = RandomState::new().hash_one(std::process::id()) % slots;
            let base = 1_000_000_000 + slot as u32 * sandbox::UID_RANGE;
            let mut taken = TAKEN.lock().unwrap();
            if !taken.contains(&base) && sandbox::check_uid(base).is_ok() {
                taken.push(base);
                return OwnRange { base };
            }
        }
    }
}

impl Drop for OwnRange {
    fn drop(&mut self) {
        let Ok(entries) = std::fs::read_dir("/run/cnf-sandbox") else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let id = name
                .to_str()
                .and_then(|n| n.strip_prefix("uid-"))
                .and_then(|n| n.parse::<u32>().ok());
            if id.is_some_and(|id| (self.base..self.base + sandbox::UID_RANGE).contains(&id)) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// The backends that work here, each with and without Landlock where that
/// differs, named for messages.
fn backends(test: &str, limits: Limits) -> Vec<(String, Sandbox)> {
    let mut out = Vec::new();
    if test_support::require(test, &[test_support::Tool::Bwrap]) {
        let s = Sandbox::new(Config {
            limits: limits.clone(),
            backend: Some(BackendKind::Bubblewrap),
            uid: BWRAP_UID,
            ..Config::default()
        })
        .expect("bubblewrap works here");
        out.push(("bubblewrap".to_owned(), s));
    }
    if sandbox::running_as_root() {
        for landlock in [true, false] {
            let s = Sandbox::new(Config {
                limits: limits.clone(),
                backend: Some(BackendKind::User),
                landlock,
                ..Config::default()
            })
            .expect("the user backend works for root");
            out.push((format!("user (landlock {landlock})"), s));
        }
    } else {
        notice(&format!("skipped: {test}: the user backend needs root"));
    }
    if sandbox::filter::landlock_abi() > 0 && !sandbox::running_as_root() {
        let s = Sandbox::new(Config {
            limits: limits.clone(),
            backend: Some(BackendKind::Landlock),
            ..Config::default()
        })
        .expect("landlock works here");
        out.push(("landlock".to_owned(), s));
    }
    out
}

fn run(s: &Sandbox, shell: &str, wall: Duration) -> sandbox::RunResult {
    let mut r = s.run().unwrap();
    r.bind(Bind::new(env!("CARGO_BIN_EXE_sandbox-try"), "/build/try"));
    r.chdir(Path::new("/build"));
    r.execute(shell, wall, 1 << 16)
}

#[test]
fn outcomes_are_typed() {
    let limits = Limits {
        scratch: 8 << 20,
        ..Limits::default()
    };
    for (name, s) in backends("outcomes_are_typed", limits) {
        let t = Duration::from_secs(10);
        let r = run(&s, "echo hi; echo oops >&2; exit 3", t);
        assert_eq!(
            r.outcome,
            Outcome::Exited {
                code: 3,
                stdout: b"hi\n".to_vec()
            },
            "{name}: {r:?}"
        );
        assert_eq!(r.stderr, "oops\n", "{name}");
        assert_eq!(
            run(&s, "kill -SEGV $$", t).outcome,
            Outcome::Signalled(11),
            "{name}"
        );
        let start = Instant::now();
        assert_eq!(
            run(&s, "sleep 1000", Duration::from_millis(500)).outcome,
            Outcome::TimeLimit(sandbox::Clock::Wall),
            "{name}"
        );
        assert!(start.elapsed() < Duration::from_secs(8), "{name}");
        assert_eq!(run(&s, "yes", t).outcome, Outcome::OutputCap, "{name}");
        // A bind whose source is missing: the run never starts.
        let mut r = s.run().unwrap();
        r.bind(Bind::new("/nonexistent/cnf-sandbox-test", "/build/x"));
        let r = r.execute("exit 0", t, 1024);
        assert!(
            matches!(r.outcome, Outcome::CouldNotStart(_)),
            "{name}: {r:?}"
        );
        // More than the scratch allows: refused (tmpfs full) or ended.
        let r = run(
            &s,
            "head -c 30000000 /dev/zero > \"$TMPDIR/big\" && sleep 3 && echo wrote",
            t,
        );
        assert_ne!(
            r.outcome,
            Outcome::Exited {
                code: 0,
                stdout: b"wrote\n".to_vec()
            },
            "{name}: the scratch took 30 MB past its 8 MiB cap: {r:?}"
        );
    }
}

#[test]
fn a_run_of_many_processes_is_capped_as_a_whole_with_or_without_a_cgroup() {
    let limits = Limits {
        memory: 96 << 20,
        ..Limits::default()
    };
    for (name, s) in backends("memory_cgroup", limits) {
        let mut ways = vec![(format!("{name}, no cgroup"), s.without_cgroup())];
        if s.description().contains("memory cgroup") {
            ways.push((format!("{name}, cgroup"), s));
        } else {
            notice(&format!(
                "skipped: memory_cgroup ({name}): no memory cgroup can be made here ({})",
                s.description()
            ));
        }
        for (name, s) in ways {
            // Four processes holding 60 MiB each for 5 s (so that they
            // overlap on a busy machine too): each is under the 96 MiB
            // address-space limit, together they are over the run's memory.
            let r = run(
                &s,
                "for i in 1 2 3 4; do ./try touch 60 5000 & done; wait; echo done",
                Duration::from_secs(20),
            );
            assert_eq!(r.outcome, Outcome::MemoryLimit, "{name}: {r:?}");
        }
    }
}

#[test]
fn sockets_ipc_ptrace_and_clone3_are_refused() {
    for (name, s) in backends(
        "sockets_ipc_ptrace_and_clone3_are_refused",
        Limits::default(),
    ) {
        let t = Duration::from_secs(10);
        for what in [
            "socket inet",
            "socket inet6",
            "socket packet",
            "socket netlink",
            "socket unix",
            "ptrace",
            "userns",
            "shm",
            "sem",
            "msg",
            "mq",
        ] {
            let r = run(&s, &format!("./try {what}"), t);
            assert_eq!(
                r.outcome,
                Outcome::Exited {
                    code: 1,
                    stdout: Vec::new()
                },
                "{name}: {what} was not refused: {r:?}"
            );
            assert!(r.stderr.contains("not permitted"), "{name}: {what}: {r:?}");
        }
        // clone3 is refused as absent, so the C library uses clone.
        let r = run(&s, "./try clone3", t);
        assert!(
            matches!(r.outcome, Outcome::Exited { code: 1, .. })
                && r.stderr.contains("Function not implemented"),
            "{name}: clone3 was not refused: {r:?}"
        );
    }
}

/// Bubblewrap 0.6.1 has no `--add-seccomp-fd`: the whole filter goes
/// through its one `--seccomp`, and `clone3` must be refused there too.
/// The test runs itself again in a process whose `PATH` starts with the
/// bwrap CI uses for 0.6.1 (`.ci/bwrap-0.6.1/bwrap`: the installed one,
/// showing and taking only 0.6.1's options), since `PATH` is the whole
/// process's.
#[test]
fn under_bubblewrap_0_6_1_clone3_is_refused_too() {
    const INNER: &str = "CNF_TEST_INNER_BWRAP_0_6_1";
    let test = "under_bubblewrap_0_6_1_clone3_is_refused_too";
    if std::env::var_os(INNER).is_some() {
        let s = Sandbox::new(Config {
            backend: Some(BackendKind::Bubblewrap),
            uid: BWRAP_UID,
            ..Config::default()
        })
        .expect("bubblewrap 0.6.1 works here");
        let description = s.description();
        assert!(description.starts_with("bubblewrap 0.6.1"), "{description}");
        let t = Duration::from_secs(10);
        let r = run(&s, "./try clone3", t);
        assert!(
            matches!(r.outcome, Outcome::Exited { code: 1, .. })
                && r.stderr.contains("Function not implemented"),
            "clone3 was not refused: {r:?}"
        );
        for what in ["socket unix", "shm", "userns"] {
            let r = run(&s, &format!("./try {what}"), t);
            assert!(
                matches!(r.outcome, Outcome::Exited { code: 1, .. })
                    && r.stderr.contains("not permitted"),
                "{what} was not refused: {r:?}"
            );
        }
        return;
    }
    if !test_support::require(test, &[test_support::Tool::Bwrap]) {
        return;
    }
    let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/bwrap-0.6.1");
    assert!(shim.join("bwrap").is_file(), "{}", shim.display());
    let path = std::env::join_paths(std::iter::once(shim).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(INNER, "1")
        .env("PATH", path)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains("1 passed"), "{said}");
}

fn marked_processes(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(marker) && !c.contains("sh -c"))
        .collect()
}

#[test]
fn every_process_of_a_run_is_killed() {
    for (name, s) in backends("every_process_of_a_run_is_killed", Limits::default()) {
        // Detached twice over: its own session, and a double fork.
        let r = run(
            &s,
            "(setsid sleep 987.25 </dev/null >/dev/null 2>&1 &); (sleep 987.5 </dev/null >/dev/null 2>&1 &); exit 0",
            Duration::from_secs(10),
        );
        assert!(
            matches!(r.outcome, Outcome::Exited { code: 0, .. }),
            "{name}: {r:?}"
        );
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let left = marked_processes("sleep 987.");
            if left.is_empty() {
                break;
            }
            if name == "landlock" && left.iter().all(|c| c.contains("987.25")) {
                // Documented: the landlock backend cannot find a process
                // that left its session.
                break;
            }
            assert!(Instant::now() < deadline, "{name}: still running: {left:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn the_shared_temporary_folders_are_cleaned_after_a_run() {
    if !sandbox::running_as_root() {
        notice("skipped: the_shared_temporary_folders_are_cleaned_after_a_run: needs root");
        return;
    }
    let s = Sandbox::new(Config {
        backend: Some(BackendKind::User),
        landlock: false,
        ..Config::default()
    })
    .unwrap();
    let marker = format!("cnf-sandbox-left-{}", std::process::id());
    let r = run(
        &s,
        &format!(
            "echo x > /tmp/{marker}; mkdir /var/tmp/{marker}; echo y > /var/tmp/{marker}/f; echo z > /dev/shm/{marker}; echo ok"
        ),
        Duration::from_secs(10),
    );
    assert_eq!(
        r.outcome,
        Outcome::Exited {
            code: 0,
            stdout: b"ok\n".to_vec()
        },
        "{r:?}"
    );
    for dir in ["/tmp", "/var/tmp", "/dev/shm"] {
        assert!(
            !Path::new(dir).join(&marker).exists(),
            "{dir}/{marker} was left behind"
        );
    }
}

#[test]
fn with_landlock_the_user_backend_writes_only_in_its_scratch_and_reads_no_home() {
    if !sandbox::running_as_root() || sandbox::filter::landlock_abi() == 0 {
        notice("skipped: landlock user backend: needs root and a kernel with Landlock");
        return;
    }
    let s = Sandbox::new(Config {
        backend: Some(BackendKind::User),
        ..Config::default()
    })
    .unwrap();
    let secret = tempfile::tempdir().unwrap();
    std::fs::write(secret.path().join("answer"), "42").unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(secret.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(
        secret.path().join("answer"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let r = run(
        &s,
        &format!(
            "cat {}/answer; echo x > /tmp/cnf-landlock-$$ && echo wrote-tmp; echo y > \"$TMPDIR/f\" && echo wrote-scratch",
            secret.path().display()
        ),
        Duration::from_secs(10),
    );
    let Outcome::Exited { stdout, .. } = &r.outcome else {
        panic!("{r:?}");
    };
    let out = String::from_utf8_lossy(stdout);
    assert_eq!(out, "wrote-scratch\n", "{r:?}");
}

#[test]
fn bubblewrap_shows_no_host_command_line_and_only_the_scratch_is_writable() {
    if !test_support::require("bubblewrap /proc/1/cmdline", &[test_support::Tool::Bwrap]) {
        return;
    }
    let s = Sandbox::new(Config {
        backend: Some(BackendKind::Bubblewrap),
        uid: BWRAP_UID,
        ..Config::default()
    })
    .unwrap();
    let r = run(
        &s,
        "tr '\\0' ' ' </proc/1/cmdline; echo; for d in / /build /input /dev /dev/shm /usr; do touch $d/x 2>/dev/null && echo wrote $d; done; touch /tmp/x && echo scratch",
        Duration::from_secs(10),
    );
    let Outcome::Exited { stdout, .. } = &r.outcome else {
        panic!("{r:?}");
    };
    let out = String::from_utf8_lossy(stdout);
    let first = out.lines().next().unwrap_or("");
    // Options went through a file descriptor: what is left is the
    // system's tools and the run's own command.
    assert!(first.contains("bwrap --args "), "pid 1 shows {first:?}");
    for host in [
        "--ro-bind",
        "--bind",
        "cnf-sandbox-",
        "/build/try",
        "target",
    ] {
        assert!(!first.contains(host), "pid 1 shows {host}: {first:?}");
    }
    assert_eq!(
        out.lines().skip(1).collect::<Vec<_>>(),
        ["scratch"],
        "{out}"
    );
}

#[test]
fn the_user_backend_refuses_protected_paths_its_user_could_read() {
    if !sandbox::running_as_root() {
        notice("skipped: protected paths for the user backend: needs root");
        return;
    }
    use std::os::unix::fs::PermissionsExt as _;
    let root = tempfile::tempdir().unwrap();
    std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let fixtures: PathBuf = root.path().join("fixtures");
    std::fs::create_dir(&fixtures).unwrap();
    std::fs::set_permissions(&fixtures, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = Config {
        backend: Some(BackendKind::User),
        landlock: false,
        protected: vec![fixtures.clone()],
        ..Config::default()
    };
    match Sandbox::new(config.clone()) {
        Err(SandboxError::Readable { chmod, .. }) => {
            let canonical = fixtures.canonicalize().unwrap();
            assert_eq!(chmod, format!("chmod o-rwx {}", canonical.display()));
            let e = Sandbox::new(config.clone()).unwrap_err().to_string();
            assert!(e.contains(&chmod), "{e}");
        }
        other => panic!("not refused: {other:?}"),
    }
    std::fs::set_permissions(&fixtures, std::fs::Permissions::from_mode(0o750)).unwrap();
    Sandbox::new(config.clone()).expect("private now");
    // With Landlock the paths are hidden whatever their mode.
    if sandbox::filter::landlock_abi() > 0 {
        std::fs::set_permissions(&fixtures, std::fs::Permissions::from_mode(0o755)).unwrap();
        Sandbox::new(Config {
            landlock: true,
            ..config
        })
        .expect("Landlock covers it");
    }
}

#[test]
fn bad_user_ids_are_refused_up_front() {
    for (uid, says) in [
        (0, "that is root"),
        (4_294_967_295, "too large"),
        (4_294_900_000, "too large"),
        (65_534, "belongs to"),
    ] {
        match sandbox::check_uid(uid) {
            Err(e @ SandboxError::BadUid { .. }) => {
                let m = e.to_string();
                assert!(m.contains(says), "{uid}: {m}");
                assert!(m.starts_with(&format!("user id {uid}: ")), "{m}");
            }
            other
                if uid == 65_534
                    && !std::fs::read_to_string("/etc/passwd")
                        .unwrap_or_default()
                        .contains(":65534:") =>
            {
                let _ = other;
            }
            other => panic!("{uid}: {other:?}"),
        }
    }
    sandbox::check_uid(sandbox::DEFAULT_UID).unwrap();
}

fn run_within(s: &Sandbox, shell: &str, time: TimeLimits) -> sandbox::RunResult {
    let mut r = s.run().unwrap();
    r.bind(Bind::new(env!("CARGO_BIN_EXE_sandbox-try"), "/build/try"));
    r.chdir(Path::new("/build"));
    r.execute_within(shell, time, 1 << 16)
}

/// Each backend, with the cgroup it found (if any) and without one, so the
/// measures from `/proc` are tested on every machine.
fn measured(test: &str) -> Vec<(String, Sandbox)> {
    let mut out = Vec::new();
    for (name, s) in backends(test, Limits::default()) {
        if s.description().contains("cgroup") {
            out.push((format!("{name}, cgroup"), s.clone()));
        }
        out.push((format!("{name}, no cgroup"), s.without_cgroup()));
    }
    out
}

fn numbers(stdout: &[u8]) -> Vec<u64> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

#[test]
fn the_cpu_time_of_every_process_of_a_run_is_counted() {
    for (name, s) in measured("the_cpu_time_of_every_process_of_a_run_is_counted") {
        // Three processes, two at once; each prints its own CPU time.
        let r = run_within(
            &s,
            "./try burn 300 & ./try burn 300; wait; ./try burn 300",
            TimeLimits::cpu(Duration::from_secs(20)),
        );
        let Outcome::Exited { code: 0, stdout } = &r.outcome else {
            panic!("{name}: {r:?}");
        };
        let own: u64 = numbers(stdout).iter().sum();
        assert!(own >= 900, "{name}: {stdout:?}");
        let cpu = r.usage.cpu.as_millis() as u64;
        // The shell, bwrap and the clock's granularity add a little. Only
        // bubblewrap without a cgroup is sampled to the end (its outer
        // process does not wait for the sandbox's, so no rusage sums them):
        // the last poll may come up to one interval early.
        let early = if name == "bubblewrap, no cgroup" {
            2 * sandbox::POLL.as_millis() as u64
        } else {
            0
        };
        assert!(
            (own - early..own + 400).contains(&cpu),
            "{name}: the processes counted {own} ms, the sandbox {cpu} ms"
        );
        assert!(r.usage.wall >= Duration::from_millis(300), "{name}: {r:?}");
    }
}

#[test]
fn the_cpu_limit_holds_for_the_run_as_a_whole() {
    for (name, s) in measured("the_cpu_limit_holds_for_the_run_as_a_whole") {
        let time = TimeLimits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(30),
        };
        // One after the other: each is far under the per-process rlimit
        // (2 s), together they pass the run's 1 s.
        let start = Instant::now();
        let r = run_within(&s, "for i in 1 2 3 4 5 6; do ./try burn 400; done", time);
        assert_eq!(r.outcome, Outcome::TimeLimit(Clock::Cpu), "{name}: {r:?}");
        assert!(
            (1000..1600).contains(&r.usage.cpu.as_millis()),
            "{name}: stopped at {:?} of CPU",
            r.usage.cpu
        );
        assert!(start.elapsed() < Duration::from_secs(20), "{name}");
        // Two at once.
        let r = run_within(&s, "./try burn 5000 & ./try burn 5000; wait", time);
        assert_eq!(r.outcome, Outcome::TimeLimit(Clock::Cpu), "{name}: {r:?}");
        assert!(r.usage.cpu >= Duration::from_secs(1), "{name}: {r:?}");
    }
}

#[test]
fn a_program_that_sleeps_is_stopped_by_the_wall_clock() {
    for (name, s) in measured("a_program_that_sleeps_is_stopped_by_the_wall_clock") {
        let time = TimeLimits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_millis(1500),
        };
        let r = run_within(&s, "sleep 1000", time);
        assert_eq!(r.outcome, Outcome::TimeLimit(Clock::Wall), "{name}: {r:?}");
        assert!(r.usage.wall >= time.wall, "{name}: {r:?}");
        assert!(r.usage.wall < Duration::from_secs(5), "{name}: {r:?}");
        assert!(r.usage.cpu < Duration::from_millis(500), "{name}: {r:?}");
    }
}

#[test]
fn the_per_process_cpu_rlimit_is_reported_as_the_cpu_limit() {
    let limits = Limits {
        cpu: Some(Duration::from_secs(1)),
        ..Limits::default()
    };
    for (name, s) in backends("the_per_process_cpu_rlimit", limits) {
        let r = run_within(
            &s,
            "./try burn 10000",
            TimeLimits::cpu(Duration::from_secs(8)),
        );
        assert_eq!(r.outcome, Outcome::TimeLimit(Clock::Cpu), "{name}: {r:?}");
        // The rlimit's clock (sampled at each tick) overcharges a program
        // that computes without pause on a busy machine: 0.68 s of exact
        // CPU time was seen with two copies of these tests at once.
        assert!(r.usage.cpu >= Duration::from_millis(500), "{name}: {r:?}");
    }
}

#[test]
fn the_peak_memory_is_at_least_what_the_program_touched() {
    for (name, s) in measured("the_peak_memory_is_at_least_what_the_program_touched") {
        let r = run_within(
            &s,
            "./try touch 100",
            TimeLimits::cpu(Duration::from_secs(20)),
        );
        let Outcome::Exited { code: 0, stdout } = &r.outcome else {
            panic!("{name}: {r:?}");
        };
        // Its own peak resident set, as getrusage gives it (with the pages
        // of its file, which a cgroup may not be charged for).
        let own = numbers(stdout)[0] * 1024;
        assert!(own >= 100 << 20, "{name}: {own}");
        assert!(
            (100 << 20..own + (100 << 20)).contains(&r.usage.peak_memory),
            "{name}: the program's peak {own}, the sandbox's {}",
            r.usage.peak_memory
        );
    }
}

#[test]
fn what_a_run_leaves_anywhere_world_writable_and_its_ipc_objects_are_removed() {
    if !sandbox::running_as_root() {
        notice("skipped: what_a_run_leaves_anywhere_world_writable: needs root");
        return;
    }
    let shared = sandbox::user::world_writable();
    for dir in ["/tmp", "/var/tmp", "/dev/shm"] {
        assert!(shared.contains(&PathBuf::from(dir)), "{dir}: {shared:?}");
    }
    let s = Sandbox::new(Config {
        backend: Some(BackendKind::User),
        landlock: false,
        ..Config::default()
    })
    .unwrap();
    let marker = format!("cnf-sandbox-everywhere-{}", std::process::id());
    let script: String = shared
        .iter()
        .map(|d| format!("echo x > {}/{marker}; ", d.display()))
        .collect();
    let r = run(&s, &format!("{script}echo ok"), Duration::from_secs(10));
    assert!(
        matches!(r.outcome, Outcome::Exited { code: 0, .. }),
        "{r:?}"
    );
    for dir in &shared {
        assert!(
            !dir.join(&marker).exists(),
            "{}/{marker} was left behind",
            dir.display()
        );
    }
    // An object the seccomp filter would not have let the run make, made
    // by a user of a range of this test's own outside the sandbox
    // (util-linux setpriv and ipcmk).
    let range = OwnRange::new();
    let uid = range.base + 7;
    let made = test_support::Cli::new(system_tool("setpriv"))
        .args([
            format!("--reuid={uid}"),
            format!("--regid={uid}"),
            "--clear-groups".to_owned(),
            system_tool("ipcmk").display().to_string(),
            "-M".to_owned(),
            "4096".to_owned(),
        ])
        .run();
    made.code(0);
    // "Shared memory id: N"
    let id: i32 = made
        .stdout
        .trim()
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let listed = |id: i32| {
        std::fs::read_to_string("/proc/sysvipc/shm")
            .unwrap()
            .lines()
            .skip(1)
            .any(|l| l.split_whitespace().nth(1) == Some(&id.to_string()))
    };
    assert!(listed(id));
    assert_eq!(sandbox::user::clean_up(uid, &[]), Vec::<String>::new());
    assert!(!listed(id), "segment {id} of uid {uid} is still there");
}

#[test]
fn the_program_sees_short_paths_that_name_nothing_of_the_host() {
    let host = tempfile::tempdir().unwrap();
    let secret = host.path().join("class-of-2026");
    std::fs::create_dir(&secret).unwrap();
    let file = secret.join("game.cnf");
    std::fs::write(&file, "board\n").unwrap();
    for (name, s) in backends("the_program_sees_short_paths", Limits::default()) {
        let mut run = s.run().unwrap();
        run.bind(Bind::new(env!("CARGO_BIN_EXE_sandbox-try"), "/build/try"));
        run.chdir(Path::new("/build"));
        let inside = run.input(&file).unwrap();
        let r = run.execute(
            &format!(
                "pwd; echo \"$HOME $TMPDIR\"; echo {0}; cat {0}",
                inside.display()
            ),
            Duration::from_secs(10),
            4096,
        );
        let Outcome::Exited { code: 0, stdout } = &r.outcome else {
            panic!("{name}: {r:?}");
        };
        let text = String::from_utf8_lossy(stdout).into_owned();
        if name == "landlock" {
            // The grader's own user: its temporary folder, nothing more.
            assert!(!text.contains("class-of-2026/"), "{name}: {text}");
            continue;
        }
        // bubblewrap shows the words at the root; the user backend under
        // /run/sandbox/N.
        let neutral = match text.strip_prefix("/run/sandbox/") {
            Some(rest) => {
                let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
                text.replace(&format!("/run/sandbox/{n}"), "")
            }
            None => text.clone(),
        };
        assert_eq!(
            neutral, "/build\n/tmp /tmp\n/input/game.cnf\nboard\n",
            "{name}: {text}"
        );
        assert!(
            text.len() <= neutral.len() + 5 * "/run/sandbox/99".len(),
            "{name}: {text}"
        );
    }
}

#[test]
fn a_working_folder_other_users_can_read_is_refused_without_landlock() {
    use std::os::unix::fs::PermissionsExt as _;
    if !sandbox::running_as_root() {
        notice("skipped: a_working_folder_other_users_can_read: needs root");
        return;
    }
    let cwd = std::env::current_dir().unwrap();
    let open = cwd
        .ancestors()
        .all(|d| std::fs::metadata(d).is_ok_and(|m| m.permissions().mode() & 0o005 == 0o005));
    if !open {
        notice("skipped: a_working_folder_other_users_can_read: this one is private");
        return;
    }
    let config = Config {
        backend: Some(BackendKind::User),
        landlock: false,
        protect_working_folder: true,
        ..Config::default()
    };
    match Sandbox::new(config.clone()) {
        Err(SandboxError::Readable { paths, chmod, .. }) => {
            assert_eq!(paths, cwd.display().to_string());
            assert_eq!(chmod, format!("chmod o-rwx {}", cwd.display()));
        }
        other => panic!("{other:?}"),
    }
    // With Landlock the run's user cannot read it anyway.
    if sandbox::filter::landlock_abi() > 0 {
        Sandbox::new(Config {
            landlock: true,
            ..config
        })
        .unwrap();
    }
}

/// Two runs at the same time, the first leaving a file for anyone in `/tmp`
/// and the second looking for it: `separates_concurrent_runs` must say
/// whether the second can read it.
#[test]
fn whether_two_runs_at_once_can_meet_in_tmp_is_what_the_sandbox_says() {
    if !sandbox::running_as_root() {
        notice("skipped: whether_two_runs_at_once_can_meet_in_tmp: needs root");
        return;
    }
    let mut ways = vec![false];
    if sandbox::filter::landlock_abi() > 0 {
        ways.push(true);
    }
    for landlock in ways {
        let s = Sandbox::new(Config {
            backend: Some(BackendKind::User),
            landlock,
            ..Config::default()
        })
        .unwrap();
        let marker = format!("/tmp/cnf-meet-{}-{landlock}", std::process::id());
        let (_, second) = std::thread::scope(|scope| {
            let first = scope.spawn(|| {
                run(
                    &s,
                    &format!("(umask 0; echo secret > {marker}); sleep 3"),
                    Duration::from_secs(10),
                )
            });
            let second = scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(300));
                run(
                    &s,
                    &format!(
                        "for i in 1 2 3 4 5 6 7 8 9 10; do cat {marker} 2>/dev/null && exit 0; sleep 0.2; done; echo none"
                    ),
                    Duration::from_secs(10),
                )
            });
            (first.join().unwrap(), second.join().unwrap())
        });
        let met =
            matches!(&second.outcome, Outcome::Exited { stdout, .. } if stdout == b"secret\n");
        assert_eq!(
            met,
            !s.separates_concurrent_runs(),
            "landlock {landlock}: {second:?}"
        );
        assert!(!Path::new(&marker).exists(), "{marker} was left behind");
    }
}

/// Two graders on one machine, root under bubblewrap, each with a student
/// (a party) of its own: each party runs as a user id of its own, so one
/// that uses up its process limit costs the other nothing, and a party's
/// id is given back when its sandbox is dropped.
#[test]
fn each_party_has_a_user_id_of_its_own_and_its_process_limit_costs_no_other() {
    let test = "each_party_has_a_user_id_of_its_own";
    if !sandbox::running_as_root() {
        notice(&format!("skipped: {test}: needs root"));
        return;
    }
    if !test_support::require(test, &[test_support::Tool::Bwrap]) {
        return;
    }
    // A range of its own: the other tests' runs use BWRAP_UID unleased.
    let range = OwnRange::new();
    let base = range.base;
    let grader = || {
        Sandbox::new(Config {
            limits: Limits {
                processes: 12,
                ..Limits::default()
            },
            backend: Some(BackendKind::Bubblewrap),
            uid: base,
            ..Config::default()
        })
        .unwrap()
    };
    let (one, two) = (grader(), grader());
    let a = one.for_one_party().unwrap();
    let b = two.for_one_party().unwrap();
    let uid = |s: &Sandbox| -> u32 {
        match run(s, "id -u", Duration::from_secs(10)).outcome {
            Outcome::Exited { code: 0, stdout } => {
                String::from_utf8(stdout).unwrap().trim().parse().unwrap()
            }
            other => panic!("{other:?}"),
        }
    };
    let (ua, ub) = (uid(&a), uid(&b));
    assert_ne!(ua, ub, "two parties share a user id");
    for u in [ua, ub] {
        assert!(
            (base..base + sandbox::user::LEASE_OFFSET).contains(&u),
            "{u}"
        );
    }
    // a holds every process it may have for 3 s; b still starts three.
    let (_, second) = std::thread::scope(|scope| {
        let first = scope.spawn(|| {
            run(
                &a,
                "for i in $(seq 30); do sleep 3 & done 2>/dev/null; wait",
                Duration::from_secs(20),
            )
        });
        let second = scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(700));
            run(
                &b,
                "sleep 0.2 & sleep 0.2 & sleep 0.2 & wait; echo started",
                Duration::from_secs(20),
            )
        });
        (first.join().unwrap(), second.join().unwrap())
    });
    assert!(
        matches!(&second.outcome, Outcome::Exited { code: 0, stdout } if stdout == b"started\n"),
        "{second:?}"
    );
    // Dropped, a's id is free again: the next party gets it (once no
    // process forked meanwhile holds a copy of its lock file: see
    // `an_id_is_leased_again_only_clean`).
    drop(a);
    let deadline = Instant::now() + Duration::from_secs(30);
    while uid(&two.for_one_party().unwrap()) != ua {
        assert!(Instant::now() < deadline, "no party got {ua} again");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The system's `name`, by absolute path from the folders of the
/// sandbox's own `PATH`: a program started as another user must not be
/// looked up through this test's `PATH`, whose folders that user may not
/// be able to enter (tools linked from a 0700 temporary folder).
fn system_tool(name: &str) -> PathBuf {
    sandbox::PATH
        .split(':')
        .map(|dir| Path::new(dir).join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("no {name} in {} (util-linux)", sandbox::PATH))
}

/// Starts `args` as user `uid` with no groups (util-linux `setpriv`), as a
/// run of that id would be: `args[0]` by absolute path from the system's
/// folders, and the sandbox's `PATH` for what it starts in turn.
fn as_user(uid: u32, args: &[&str]) -> std::process::Child {
    let (program, rest) = args.split_first().expect("a program to run");
    std::process::Command::new(system_tool("setpriv"))
        .args([
            format!("--reuid={uid}"),
            format!("--regid={uid}"),
            "--clear-groups".to_owned(),
        ])
        .arg(system_tool(program))
        .args(rest)
        .env("PATH", sandbox::PATH)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// A process of `uid` that no kill ends: a child of this test that has
/// exited and is not waited for (a zombie), until the caller waits.
fn zombie(uid: u32) -> std::process::Child {
    let child = as_user(uid, &["true"]);
    let status = format!("/proc/{}/status", child.id());
    let deadline = Instant::now() + Duration::from_secs(10);
    while !std::fs::read_to_string(&status).is_ok_and(|s| s.contains("State:\tZ")) {
        assert!(Instant::now() < deadline, "no zombie of {uid}");
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

/// The user id a run of `s` has.
fn uid_of_run(s: &Sandbox) -> u32 {
    match run(s, "id -u", Duration::from_secs(10)).outcome {
        Outcome::Exited { code: 0, stdout } => {
            String::from_utf8(stdout).unwrap().trim().parse().unwrap()
        }
        other => panic!("{other:?}"),
    }
}

/// The user backend as root, without Landlock, leasing from `base` on (a
/// range no other test uses, [`OwnRange`], so which id a run gets is
/// known).
fn user_backend_from(base: u32) -> Sandbox {
    Sandbox::new(Config {
        backend: Some(BackendKind::User),
        landlock: false,
        uid: base,
        ..Config::default()
    })
    .unwrap()
}

/// Another grader on this machine may have run an id and left something
/// of it (killed before its cleanup, or one that found the id unclean,
/// kept it, and has exited): the id is leased only clean, or not at all.
#[test]
fn an_id_is_leased_again_only_clean() {
    let test = "an_id_is_leased_again_only_clean";
    if !sandbox::running_as_root() {
        notice(&format!("skipped: {test}: needs root"));
        return;
    }
    let range = OwnRange::new();
    let s = user_backend_from(range.base);
    // The pool's first id. A process another thread forks holds a copy of
    // every open file, lock files too, until it starts its program, so the
    // lock of the id the sandbox's trial run has just given back may still
    // be held for a moment (seen on a busy machine), and a run then gets
    // the next id: runs are tried until one gets the first.
    let first = range.base + sandbox::user::LEASE_OFFSET;
    let deadline = Instant::now() + Duration::from_secs(30);
    while uid_of_run(&s) != first {
        assert!(Instant::now() < deadline, "no run got {first}");
        std::thread::sleep(Duration::from_millis(100));
    }
    // What a run of `first` left, as that user outside any sandbox: a
    // file and a folder in /tmp, and a System V segment, semaphore set and
    // message queue with keys of util-linux ipcmk's choosing.
    let tmp = [PathBuf::from("/tmp")];
    let marker = format!("/tmp/cnf-lease-left-{}", std::process::id());
    let made = as_user(
        first,
        &[
            "sh",
            "-c",
            &format!(
                "echo x > {marker} && mkdir {marker}.d && ipcmk -M 4096 && ipcmk -S 1 && ipcmk -Q"
            ),
        ],
    )
    .wait()
    .unwrap();
    assert!(
        made.success(),
        "making files and IPC objects as user {first} failed ({made}; its stderr is above)"
    );
    let left = sandbox::user::left_by(first, &tmp);
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(left.contains(&"3 IPC objects".to_owned()), "{left:?}");
    // Cleaned, then leased.
    assert_eq!(uid_of_run(&s), first);
    assert_eq!(sandbox::user::left_by(first, &tmp), Vec::<String>::new());
    assert!(!Path::new(&marker).exists());
    // A process no kill ends: the id is skipped, and not tried again by
    // this process once that process is gone.
    let mut z = zombie(first);
    let next = uid_of_run(&s);
    assert!(next > first && next < first + sandbox::user::POOL, "{next}");
    z.wait().unwrap();
    assert_eq!(sandbox::user::left_by(first, &tmp), Vec::<String>::new());
    assert_ne!(uid_of_run(&s), first, "a retired id was leased again");
}

/// What the cleanup after a run cannot remove keeps that run's id from
/// being leased again by this process.
#[test]
fn an_id_a_run_left_unclean_is_retired() {
    let test = "an_id_a_run_left_unclean_is_retired";
    if !sandbox::running_as_root() {
        notice(&format!("skipped: {test}: needs root"));
        return;
    }
    let range = OwnRange::new();
    let s = user_backend_from(range.base);
    // While the run sleeps, the test finds its id and gives it a process
    // no kill ends, which the cleanup after the run then finds. Each kill
    // of every process of that id (when the run's first process ends, and
    // after the run) gives up about half a second after only the zombie is
    // left; the wall limit leaves room for far more on a busy machine.
    let sleep = format!("3.{}", std::process::id());
    let (r, mut z, uid) = std::thread::scope(|scope| {
        let running = scope.spawn(|| run(&s, &format!("sleep {sleep}"), Duration::from_secs(300)));
        let deadline = Instant::now() + Duration::from_secs(10);
        let cmdline = format!("sleep\0{sleep}\0");
        let uid = loop {
            let found = std::fs::read_dir("/proc").unwrap().flatten().find_map(|e| {
                (std::fs::read(e.path().join("cmdline")).ok()? == cmdline.as_bytes())
                    .then(|| std::fs::read_to_string(e.path().join("status")).ok())
                    .flatten()
            });
            if let Some(status) = found {
                let line = status.lines().find(|l| l.starts_with("Uid:")).unwrap();
                break line
                    .split_whitespace()
                    .nth(1)
                    .unwrap()
                    .parse::<u32>()
                    .unwrap();
            }
            assert!(Instant::now() < deadline, "the run's sleep never showed");
            std::thread::sleep(Duration::from_millis(20));
        };
        let z = zombie(uid);
        (running.join().unwrap(), z, uid)
    });
    assert!(
        matches!(r.outcome, Outcome::Exited { code: 0, .. }),
        "{r:?}"
    );
    assert!(
        r.stderr.contains(&format!(
            "[sandbox: uid {uid} retired, it left 1 processes]"
        )),
        "{r:?}"
    );
    z.wait().unwrap();
    assert_ne!(uid_of_run(&s), uid, "a retired id was leased again");
}

/// What a run sees of the rest of the machine, as the crate's threat model
/// lists it: bubblewrap shows no other process and System V objects of
/// its own IPC namespace only; with Landlock the user backend reads
/// nothing of `/proc` nor `/tmp`; without, it reads the files of another
/// user's process that the kernel shows every user, and no others, the
/// host's System V objects and `/tmp`'s names.
#[test]
fn what_a_run_sees_of_other_processes_ipc_and_tmp_is_what_the_threat_model_says() {
    let me = std::process::id();
    let script = format!(
        "for f in stat status cmdline mountinfo mounts limits cgroup environ maps io \
         cwd fd root exe; do if cat /proc/{me}/$f >/dev/null 2>&1 || ls /proc/{me}/$f/ \
         >/dev/null 2>&1; then printf '%s ' $f; fi; done; echo; \
         if cat /proc/sysvipc/shm >/dev/null 2>&1; then echo sysvipc $(wc -l </proc/sysvipc/shm); \
         fi; \
         ls /tmp >/dev/null 2>&1 && echo tmp; exit 0"
    );
    for (name, s) in backends("what_a_run_sees_of_other_processes", Limits::default()) {
        if name == "landlock" {
            // The grader's own user: its processes are the run's own.
            continue;
        }
        let r = run(&s, &script, Duration::from_secs(10));
        let Outcome::Exited { code: 0, stdout } = &r.outcome else {
            panic!("{name}: {r:?}");
        };
        let seen = String::from_utf8_lossy(stdout).into_owned();
        let lines: Vec<&str> = seen.lines().collect();
        // The host's count of System V segments ("*") may change while
        // the run reads it.
        let expected: &[&str] = match name.as_str() {
            // Its own PID and IPC namespaces (the header line only), its
            // own /tmp.
            "bubblewrap" => &["", "sysvipc 1", "tmp"],
            "user (landlock true)" => &[""],
            _ => &[
                "stat status cmdline mountinfo mounts limits cgroup ",
                "sysvipc *",
                "tmp",
            ],
        };
        let same = lines.len() == expected.len()
            && lines
                .iter()
                .zip(expected)
                .all(|(l, e)| match e.strip_suffix('*') {
                    Some(head) => l.starts_with(head),
                    None => l == e,
                });
        assert!(same, "{name}: {seen:?}, not {expected:?}");
    }
}

/// The sandbox's own failure is [`Outcome::CouldNotStart`], and a program
/// cannot pass for it: one that prints what bwrap prints when its set-up
/// fails and exits 1 exited 1.
#[test]
fn a_program_saying_bwrap_failed_has_still_exited_itself() {
    for (name, s) in backends("a_program_saying_bwrap_failed", Limits::default()) {
        let r = run(
            &s,
            "echo \"bwrap: Can't find source path /build: Permission denied\" >&2; exit 1",
            Duration::from_secs(20),
        );
        assert_eq!(
            r.outcome,
            Outcome::Exited {
                code: 1,
                stdout: Vec::new()
            },
            "{name}: {r:?}"
        );
        assert!(r.stderr.starts_with("bwrap: Can't find"), "{name}: {r:?}");
    }
}

/// The processes whose command line holds `marker`, with their command
/// lines (NUL-separated).
fn processes_with(marker: &str) -> Vec<(i32, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        if let Ok(line) = std::fs::read(e.path().join("cmdline")) {
            let line = String::from_utf8_lossy(&line).into_owned();
            if line.contains(marker) {
                out.push((pid, line));
            }
        }
    }
    out
}

/// bwrap killed while the program runs (a killed helper) is the
/// sandbox's failure, not the program's signal.
#[test]
fn bwrap_killed_mid_run_is_the_sandbox_s_failure() {
    if !test_support::require(
        "bwrap_killed_mid_run_is_the_sandbox_s_failure",
        &[test_support::Tool::Bwrap],
    ) {
        return;
    }
    let s = Sandbox::new(Config {
        backend: Some(BackendKind::Bubblewrap),
        uid: BWRAP_UID,
        ..Config::default()
    })
    .unwrap();
    let marker = format!("cnf-killed-helper-{}", std::process::id());
    let shell = format!("sleep 60; echo {marker}");
    let runner = std::thread::spawn({
        let s = s.clone();
        move || run(&s, &shell, Duration::from_secs(60))
    });
    // bwrap's own command line holds the program's (after `--`).
    let deadline = Instant::now() + Duration::from_secs(30);
    let bwrap = loop {
        let found = processes_with(&marker).into_iter().find(|(_, line)| {
            let program = line.split('\0').next().unwrap_or("");
            Path::new(program).file_name() == Some("bwrap".as_ref())
        });
        if let Some((pid, _)) = found {
            break pid;
        }
        assert!(Instant::now() < deadline, "bwrap never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(bwrap).unwrap(),
        rustix::process::Signal::KILL,
    )
    .unwrap();
    let r = runner.join().unwrap();
    match &r.outcome {
        Outcome::CouldNotStart(why) => assert!(why.contains("signal 9"), "{r:?}"),
        other => panic!("bwrap killed gave {other:?}"),
    }
}

/// A sandbox whose folder its user could not reach is refused by
/// `Sandbox::new`, naming the folder and the fix (bubblewrap would fail
/// every run with "Can't find source path …: Permission denied").
#[test]
fn a_folder_the_sandbox_s_user_cannot_reach_is_refused() {
    if !sandbox::running_as_root() {
        notice("skipped: a_folder_the_sandbox_s_user_cannot_reach_is_refused: needs root");
        return;
    }
    use std::os::unix::fs::PermissionsExt as _;
    let private = tempfile::tempdir().unwrap();
    std::fs::set_permissions(private.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let home = private.path().join("tmp");
    std::fs::create_dir(&home).unwrap();
    let mut kinds = vec![BackendKind::User];
    if test_support::require(
        "a_folder_the_sandbox_s_user_cannot_reach_is_refused",
        &[test_support::Tool::Bwrap],
    ) {
        kinds.push(BackendKind::Bubblewrap);
    }
    for kind in kinds {
        let made = Sandbox::new(Config {
            backend: Some(kind),
            uid: BWRAP_UID,
            home: Some(home.clone()),
            ..Config::default()
        });
        match made {
            Err(e @ SandboxError::Unreachable { .. }) => {
                let said = e.to_string();
                let blocking = private.path().display().to_string();
                assert!(said.contains(&format!("chmod o+x {blocking}")), "{said}");
                assert!(said.contains("TMPDIR"), "{said}");
            }
            other => panic!("{kind:?}: {other:?}"),
        }
    }
}

/// What a compilation writes (GHC's objects and executable in the
/// scratch, as the grader's build script puts them) is held to the file
/// size limit and the scratch's cap on every backend, as a program's
/// writes are: one file past `--file-size` is cut there (`SIGXFSZ`), and
/// files each under it that fill more than the scratch end the run.
#[test]
fn a_compilation_s_outputs_are_held_to_the_file_size_and_scratch_limits() {
    let limits = Limits {
        file_size: 1 << 20,
        scratch: 4 << 20,
        ..Limits::default()
    };
    let t = Duration::from_secs(20);
    for (name, s) in backends("a_compilation_s_outputs_are_held", limits) {
        let r = run(
            &s,
            "mkdir -p \"$TMPDIR/obj\" && head -c 2000000 /dev/zero > \"$TMPDIR/obj/Main.o\"; \
             echo \"rc=$?\"; wc -c < \"$TMPDIR/obj/Main.o\"",
            t,
        );
        let Outcome::Exited { code: 0, stdout } = &r.outcome else {
            panic!("{name}: {r:?}");
        };
        let out = String::from_utf8_lossy(stdout);
        // 128 + SIGXFSZ (25), and exactly the limit written.
        assert_eq!(out, format!("rc=153\n{}\n", 1 << 20), "{name}: {r:?}");
        let r = run(
            &s,
            "mkdir -p \"$TMPDIR/obj\" && for i in 1 2 3 4 5 6; do \
               head -c 900000 /dev/zero > \"$TMPDIR/obj/$i.o\" || exit 9; done; sleep 3; \
             echo linked",
            t,
        );
        assert!(
            matches!(
                r.outcome,
                Outcome::MemoryLimit | Outcome::Exited { code: 9, .. }
            ),
            "{name}: 5.4 MB of objects in a 4 MiB scratch gave {r:?}"
        );
    }
}
