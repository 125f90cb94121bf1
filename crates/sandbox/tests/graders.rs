//! The sandbox as a grader process sees it: a miniature grader
//! (`sandbox-grader`, a helper binary of this crate) started with extra
//! descriptors open, and under each backend and way CI runs the hostile
//! class (bubblewrap 0.8, bubblewrap with 0.6.1's options, the user
//! backend with and without Landlock, the Docker-like filter).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const GRADER: &str = env!("CARGO_BIN_EXE_sandbox-grader");
const DOCKER_LIKE: &str = env!("CARGO_BIN_EXE_docker-like");

/// One way of running a grader: its name, the backend argument, whether
/// it runs under the Docker-like filter, and a folder to put first on
/// `PATH` (bubblewrap 0.6.1's options).
struct Way {
    name: &'static str,
    backend: &'static str,
    docker_like: bool,
    path_first: Option<PathBuf>,
}

fn ci_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci")
}

/// The ways that work here (bubblewrap where it runs, the user backend
/// where this is root), each named.
fn ways(test: &str) -> Vec<Way> {
    let mut out = Vec::new();
    if test_support::require(test, &[test_support::Tool::Bwrap]) {
        out.push(Way {
            name: "bubblewrap",
            backend: "bubblewrap",
            docker_like: false,
            path_first: None,
        });
        out.push(Way {
            name: "bubblewrap with 0.6.1's options",
            backend: "bubblewrap",
            docker_like: false,
            path_first: Some(ci_dir().join("bwrap-0.6.1")),
        });
    }
    if sandbox::running_as_root() {
        for (name, backend, docker_like) in [
            ("user + landlock", "user", false),
            ("user, no landlock", "user-no-landlock", false),
            ("docker-like, user, no landlock", "user-no-landlock", true),
            ("docker-like, user + landlock", "user", true),
        ] {
            out.push(Way {
                name,
                backend,
                docker_like,
                path_first: None,
            });
        }
    } else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: {test}: the user backend needs root"
        );
    }
    out
}

impl Way {
    /// A command that starts the grader this way with `args`, through
    /// `sh -c` so `redirections` (e.g. `7<DIR`) are descriptors the
    /// grader inherits, as from a CI runner or a harness.
    fn grader(&self, redirections: &str, args: &[&str]) -> Command {
        // $0 the wrapper or the grader, then the rest.
        let mut c = Command::new("/bin/sh");
        c.arg("-c")
            .arg(format!("exec \"$0\" \"$@\" {redirections}"));
        if self.docker_like {
            c.arg(DOCKER_LIKE);
        }
        c.arg(GRADER);
        c.arg(self.backend).args(args);
        if let Some(first) = &self.path_first {
            let path = std::env::var_os("PATH").unwrap_or_default();
            let mut dirs = vec![first.clone()];
            dirs.extend(std::env::split_paths(&path));
            c.env("PATH", std::env::join_paths(dirs).unwrap());
        }
        c.stdin(Stdio::null());
        c
    }
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A program that lists its descriptors where it can see `/proc`, tries
/// every descriptor from 3 to 20, lists the folder fd 7 was open on and
/// reads a `.solution` through it, and writes a line through fd 8.
const PROBE: &str = "ls /proc/self/fd 2>/dev/null | tr '\\n' ' '; echo '|'; \
    for fd in 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do \
      if (exec 2>/dev/null; : <&$fd) || (exec 2>/dev/null; : >&$fd); then echo \"open $fd\"; fi; \
    done; \
    ls /proc/self/fd/7/ 2>/dev/null; cat /proc/self/fd/7/answer.solution 2>/dev/null; \
    cat /dev/fd/3 2>/dev/null; \
    (echo INJECTED >&8) 2>/dev/null; (echo INJECTED >>/proc/self/fd/8) 2>/dev/null; \
    echo done";

#[test]
fn a_grader_s_inherited_descriptors_reach_no_program() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("terminal");
    std::fs::write(&file, "SECRET-OF-FD-3\n").unwrap();
    let fixtures = tmp.path().join("fixtures");
    std::fs::create_dir(&fixtures).unwrap();
    std::fs::write(fixtures.join("answer.solution"), "SECRET-SOLUTION\n").unwrap();
    let log = tmp.path().join("log");
    std::fs::write(&log, "").unwrap();
    let redirections = format!(
        "3<'{}' 7<'{}' 8>>'{}'",
        file.display(),
        fixtures.display(),
        log.display()
    );
    let ways = ways("a_grader_s_inherited_descriptors_reach_no_program");
    let mut failed = Vec::new();
    for way in &ways {
        let out = way.grader(&redirections, &[PROBE]).output().unwrap();
        let (stdout, stderr) = text(&out);
        let name = way.name;
        let Some(seen) = stdout.strip_prefix("outcome: exited 0\n") else {
            failed.push(format!("{name}: {stdout}{stderr}"));
            continue;
        };
        let (listed, rest) = seen.split_once('|').unwrap_or(("", seen));
        let listed: Vec<&str> = listed.split_whitespace().collect();
        let logged = std::fs::read_to_string(&log).unwrap();
        // `ls` itself holds 3 on the folder it lists.
        if !(listed.is_empty() || listed == ["0", "1", "2", "3"])
            || rest.trim() != "done"
            || logged.contains("INJECTED")
        {
            failed.push(format!(
                "{name}: held {listed:?}; saw {rest:?}; the log got {logged:?}"
            ));
        }
    }
    assert!(!ways.is_empty() || !sandbox::running_as_root());
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// A `TMPDIR` inside a folder only root may enter (`TMPDIR=$HOME/tmp`
/// with `HOME=/root`, mode 0700) is refused by `Sandbox::new` on every
/// way that switches users, naming the folder and the fix, before any run.
#[test]
fn a_tmpdir_the_sandbox_s_user_cannot_reach_is_refused_up_front() {
    if !sandbox::running_as_root() {
        return;
    }
    use std::os::unix::fs::PermissionsExt as _;
    let private = tempfile::tempdir().unwrap();
    std::fs::set_permissions(private.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let tmp = private.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut failed = Vec::new();
    for way in ways("a_tmpdir_the_sandbox_s_user_cannot_reach_is_refused_up_front") {
        let out = way
            .grader("", &["echo ran"])
            .env("TMPDIR", &tmp)
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        let fix = format!("chmod o+x {}", private.path().display());
        if out.status.code() != Some(3) || !stderr.contains(&fix) || stdout.contains("ran") {
            failed.push(format!("{}: {:?} {stdout}{stderr}", way.name, out.status));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The processes whose command line holds `marker` and that do not run
/// as root (the run's own, not the graders started with it as argument).
fn run_processes_with(marker: &str) -> Vec<i32> {
    use std::os::unix::fs::MetadataExt as _;
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(meta) = std::fs::metadata(e.path()) else {
            continue;
        };
        if let Ok(line) = std::fs::read(e.path().join("cmdline"))
            && meta.uid() != 0
            && String::from_utf8_lossy(&line).contains(marker)
        {
            out.push(pid);
        }
    }
    out
}

/// Waits (up to a minute, polling) until `done` holds.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Every file under `dir` whose contents hold `secret`.
fn files_holding(dir: &Path, secret: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => out.extend(files_holding(&p, secret)),
            Ok(m)
                if m.is_file()
                    && std::fs::read(&p)
                        .is_ok_and(|b| String::from_utf8_lossy(&b).contains(secret)) =>
            {
                out.push(p);
            }
            _ => {}
        }
    }
    out
}

/// A program that looks for other runs' files: the user backend's run
/// folders by the names a run can guess (`/run/sandbox/N/build/…`,
/// `input/…`), and the graders' temporary folder.
fn looking_for_other_runs(tmp: &Path) -> String {
    format!(
        "for n in $(seq 0 40); do for f in build/secret.txt input/case.txt; do \
           cat /run/sandbox/$n/$f 2>/dev/null; done; \
           ls /run/sandbox/$n /run/sandbox/$n/build /run/sandbox/$n/input 2>/dev/null; done; \
         ls -R {} 2>/dev/null | head -50; find {} -type f -exec cat {{}} + 2>/dev/null; echo looked",
        tmp.display(),
        tmp.display()
    )
}

/// A grader killed mid-run leaves run folders, a sandbox folder and (the
/// user backend) the run's processes; a second grader started meanwhile
/// cannot read the first one's files, and a third, started after the
/// kill, removes what it left before its own run, which finds none of it.
#[test]
fn a_killed_grader_s_runs_are_removed_by_the_next_and_no_grader_sees_another_s() {
    use std::os::unix::fs::PermissionsExt as _;
    let test = "a_killed_grader_s_runs_are_removed_by_the_next";
    let mut failed = Vec::new();
    for (i, way) in ways(test).iter().enumerate() {
        let name = way.name;
        // The graders' TMPDIR, every user may pass, none list.
        let tmp = tempfile::tempdir().unwrap();
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
        let files = tempfile::tempdir().unwrap();
        let secret = format!("SECRET-OF-RUN-{}-{i}", std::process::id());
        let source = files.path().join("secret.txt");
        std::fs::write(&source, format!("{secret}\n")).unwrap();
        std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o644)).unwrap();
        let case = files.path().join("case.txt");
        std::fs::write(&case, format!("{secret}\n")).unwrap();
        let marker = format!("cnf-killed-grader-{}-{i}", std::process::id());
        let bind = format!("{}=/build/secret.txt", source.display());
        let shell = format!("cat INPUT >/dev/null; sleep 300; echo {marker}");
        let mut first = way.grader(
            "",
            &[
                "--bind",
                &bind,
                "--input",
                case.to_str().unwrap(),
                "--chdir",
                "/build",
                &shell,
            ],
        );
        first
            .env("TMPDIR", tmp.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut first = first.spawn().unwrap();
        wait_for(&format!("{name}: the first grader's run"), || {
            !run_processes_with(&marker).is_empty()
        });
        // What the first grader's run has on the host, where the second
        // grader's programs might look.
        let left: Vec<PathBuf> = files_holding(Path::new("/run/sandbox"), &secret)
            .into_iter()
            .chain(files_holding(tmp.path(), &secret))
            .collect();
        assert!(!left.is_empty(), "{name}: the run's files were not found");
        let probe = looking_for_other_runs(tmp.path());
        // A second grader while the first runs.
        let out = way
            .grader("", &[&probe])
            .env("TMPDIR", tmp.path())
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        if stdout.contains(&secret) || !stdout.contains("looked") {
            failed.push(format!(
                "{name}: a live grader's run was read: {stdout}{stderr}"
            ));
        }
        // The first grader killed mid-run.
        first.kill().unwrap();
        first.wait().unwrap();
        let out = way
            .grader("", &[&probe])
            .env("TMPDIR", tmp.path())
            .output()
            .unwrap();
        let (stdout, stderr) = text(&out);
        if stdout.contains(&secret) || !stdout.contains("looked") {
            failed.push(format!(
                "{name}: a killed grader's run was read: {stdout}{stderr}"
            ));
        }
        let still: Vec<&PathBuf> = left.iter().filter(|p| p.exists()).collect();
        if !still.is_empty() {
            failed.push(format!("{name}: the killed grader left {still:?}"));
        }
        let homes: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        if !homes.is_empty() {
            failed.push(format!("{name}: left in TMPDIR: {homes:?}"));
        }
        let running = run_processes_with(&marker);
        if !running.is_empty() {
            failed.push(format!(
                "{name}: the killed grader's run still runs: {running:?}"
            ));
            for pid in running {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
