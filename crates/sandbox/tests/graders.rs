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
