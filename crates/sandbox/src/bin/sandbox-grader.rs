//! Test helper: a grader in miniature, one process using the crate as a
//! grader does, for the tests that need a grader of its own (started with
//! extra descriptors open, killed halfway, two at once).
//!
//! `sandbox-grader BACKEND [--bind HOST=INSIDE]… [--input FILE] [--chdir DIR] SHELL`
//! runs `sh -c SHELL` in a sandbox of BACKEND (`bubblewrap`, `user`,
//! `user-no-landlock`; a root grader's bubblewrap runs use
//! `CNF_SANDBOX_UID` or the default id) and prints `outcome: OUTCOME`, a
//! line, then the program's standard output; standard error is the
//! program's. Exit 0 when a run was made, 2 on bad usage, 3 when the
//! sandbox could not be made (its error on standard error).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use sandbox::{BackendKind, Bind, Config, Outcome, Sandbox};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(backend) = args.next() else {
        return usage();
    };
    let (kind, landlock) = match backend.as_str() {
        "bubblewrap" => (BackendKind::Bubblewrap, true),
        "user" => (BackendKind::User, true),
        "user-no-landlock" => (BackendKind::User, false),
        _ => return usage(),
    };
    let mut binds = Vec::new();
    let mut input = None;
    let mut chdir = PathBuf::from("/");
    let mut shell = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bind" => {
                let Some((host, inside)) = args
                    .next()
                    .and_then(|b| b.split_once('=').map(|(h, i)| (h.to_owned(), i.to_owned())))
                else {
                    return usage();
                };
                binds.push(Bind::new(host, inside));
            }
            "--input" => input = args.next().map(PathBuf::from),
            "--chdir" => chdir = args.next().map_or(chdir, PathBuf::from),
            _ => shell = Some(a),
        }
    }
    let Some(shell) = shell else {
        return usage();
    };
    let uid = std::env::var("CNF_SANDBOX_UID")
        .ok()
        .and_then(|u| u.parse().ok())
        .unwrap_or(sandbox::DEFAULT_UID);
    let s = match Sandbox::new(Config {
        backend: Some(kind),
        landlock,
        uid,
        ..Config::default()
    }) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "sandbox-grader: {e}");
            return ExitCode::from(3);
        }
    };
    let mut run = match s.run() {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "sandbox-grader: cannot make a run: {e}");
            return ExitCode::from(3);
        }
    };
    for b in binds {
        run.bind(b);
    }
    run.chdir(&chdir);
    let shell = match &input {
        Some(file) => match run.input(file) {
            Ok(at) => shell.replace("INPUT", &at.to_string_lossy()),
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "sandbox-grader: input: {e}");
                return ExitCode::from(3);
            }
        },
        None => shell,
    };
    let r = run.execute(&shell, Duration::from_secs(60), 1 << 20);
    let mut out = std::io::stdout().lock();
    let (line, stdout): (String, &[u8]) = match &r.outcome {
        Outcome::Exited { code, stdout } => (format!("exited {code}"), stdout),
        Outcome::CouldNotStart(why) => (format!("could not start: {why}"), b""),
        other => (format!("{other:?}"), b""),
    };
    let _ = writeln!(out, "outcome: {line}");
    let _ = out.write_all(stdout);
    let _ = std::io::stderr().write_all(r.stderr.as_bytes());
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    let _ = writeln!(
        std::io::stderr(),
        "usage: sandbox-grader bubblewrap|user|user-no-landlock [--bind HOST=INSIDE]… \
         [--input FILE] [--chdir DIR] SHELL"
    );
    ExitCode::from(2)
}
