//! The unprivileged-user backend (a root grader without namespaces) and
//! the Landlock backend (the grader's own user, without namespaces).
//!
//! Each run of the user backend leases a user id of its own from the range
//! that starts [`LEASE_OFFSET`] above the configured id ([`POOL`] ids; no
//! two runs at once share one, across graders too), so "kill every process of that uid" ends that run only. Its
//! view is a folder of its own: the files it is shown are hard links (for a
//! file any user may read and none may write) or copies owned by its user,
//! under `RUN/root`, at the path they have inside (see
//! [`crate::Run::path`]); its scratch `RUN/scratch` and its input copy are
//! its own (mode 0700), and `RUN` itself root's with the run's group (mode
//! 0710), so no other user reaches what is placed in it. Nothing but these and the system is meant for it:
//! with Landlock that is enforced; without, the Unix permissions decide,
//! and [`check_unreadable`] refuses protected paths that any user could
//! read.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd as _, OwnedFd};
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::exec::{self, Guard, RunResult};
use crate::filter::{self, Access};
use crate::lease::Lease;
use crate::run::RunSpec;
use crate::usage::Scope;
use crate::writable::disk_usage;
use crate::{BackendKind, Outcome, SYSTEM_DIRS, SYSTEM_LINKS, Sandbox, cgroup};

pub use crate::hygiene::{clean_shared, clean_shared_tmp, clean_up, kill_uid, left_by};
pub use crate::lease::{LEASE_OFFSET, POOL};
pub use crate::writable::{
    NOT_WALKED, SHARED_TMP, WORLD_WRITABLE_KEPT, world_writable, world_writable_cached,
};

/// What the probe found.
#[derive(Debug, Clone, Default)]
pub(crate) struct UserBackend {
    /// The kernel's Landlock ABI (0: none).
    pub(crate) landlock_abi: u32,
    /// Every folder the run's user could write in (world-writable).
    pub(crate) shared: Vec<PathBuf>,
}

impl UserBackend {
    /// `switch`: the user backend (root); else the Landlock one.
    pub(crate) fn probe(switch: bool, landlock: bool) -> Result<UserBackend, String> {
        filter::programs()?;
        let landlock_abi = if landlock { filter::landlock_abi() } else { 0 };
        if !switch && landlock_abi == 0 {
            return Err(
                "this kernel has no Landlock, so nothing would keep a program run as your own \
                 user from your files"
                    .to_owned(),
            );
        }
        let shared = if switch {
            world_writable_cached()
        } else {
            Vec::new()
        };
        Ok(UserBackend {
            landlock_abi,
            shared,
        })
    }

    pub(crate) fn weaker(&self, kind: BackendKind) -> Vec<String> {
        let mut out = Vec::new();
        if self.landlock_abi == 0 {
            // With Landlock /proc is not among what it may read.
            out.push("other processes visible in /proc".to_owned());
        }
        out.push("network namespace absent (sockets refused by seccomp)".to_owned());
        if self.landlock_abi == 0 {
            out.push(
                "no Landlock: every file other users may read is readable (protected paths \
                 checked unreadable)"
                    .to_owned(),
            );
        }
        if kind == BackendKind::Landlock {
            out.push(
                "runs as the user that started it (a process that leaves its session is not killed)"
                    .to_owned(),
            );
        }
        out.push("scratch on disk, its size checked by polling".to_owned());
        out
    }

    /// Runs `spec` as a leased user id (when the sandbox has one), then
    /// kills and cleans up whatever that id left.
    pub(crate) fn execute(&self, spec: &RunSpec<'_>) -> RunResult {
        let RunSpec {
            sandbox,
            time,
            max_output,
            cgroup,
            ..
        } = *spec;
        let lease = match sandbox.uid {
            Some(_) => match Lease::take(sandbox_base(sandbox), &self.shared) {
                Some(l) => Some(l),
                None => {
                    return RunResult::could_not_start(format!(
                        "all {POOL} user ids of the sandbox are in use or unclean"
                    ));
                }
            },
            None => None,
        };
        let uid = lease.as_ref().map(|l| l.uid);
        let prepared = match self.prepare(spec, uid) {
            Ok(p) => p,
            Err(e) => {
                return RunResult::could_not_start(format!("cannot prepare the sandbox: {e}"));
            }
        };
        let (command, scratch, _keep) = prepared;
        let guard = UserGuard {
            uid,
            cgroup,
            scratch,
            cap: sandbox.limits.scratch,
            shared: &self.shared,
            memory: sandbox.limits.memory,
        };
        let result = exec::run(command, time, max_output, &guard);
        if let Some(uid) = uid {
            kill_uid(uid);
            let left = clean_up(uid, &self.shared);
            if !left.is_empty() {
                // Not leased again by this grader while something of the
                // run may remain; the lock file stays held too.
                if let Some(lease) = lease {
                    std::mem::forget(lease);
                }
                return RunResult {
                    stderr: format!(
                        "{}\n[sandbox: uid {uid} retired, it left {}]",
                        result.stderr,
                        left.join(", ")
                    ),
                    ..result
                };
            }
        }
        drop(lease);
        result
    }

    fn prepare(
        &self,
        spec: &RunSpec<'_>,
        uid: Option<u32>,
    ) -> io::Result<(Command, PathBuf, Vec<OwnedFd>)> {
        let RunSpec {
            sandbox,
            binds,
            dir: run_dir,
            shell,
            time,
            cgroup,
            ..
        } = *spec;
        let chdir = spec.in_dir(spec.chdir);
        // Only this run's user (and the grader) may enter its folder, so
        // no other run reads the files placed in it (hard links 0644).
        if let Some(uid) = uid {
            crate::run::let_in(run_dir, uid)?;
        }
        // The run's folder is its view: binds at their inside paths, its
        // input in `input`, its scratch in `tmp` (see crate::USER_ROOT).
        let view = run_dir.to_owned();
        for bind in binds {
            let rel = bind.inside.strip_prefix("/").unwrap_or(&bind.inside);
            let target = view.join(rel);
            if let Some(parent) = target.parent() {
                make_dirs(&view, parent)?;
            }
            place(&bind.host, &target, uid)?;
        }
        let scratch = run_dir.join(crate::SCRATCH.trim_start_matches('/'));
        make_dir(&scratch, 0o700)?;
        crate::give_to(&scratch, uid)?;
        let input = run_dir.join("input");
        if input.exists() {
            crate::give_to(&input, uid)?;
            for e in fs::read_dir(&input)?.flatten() {
                crate::give_to(&e.path(), uid)?;
            }
        }
        let chdir = if chdir.exists() {
            chdir.to_owned()
        } else {
            view.clone()
        };
        let mut read: Vec<PathBuf> = SYSTEM_DIRS
            .iter()
            .chain(SYSTEM_LINKS.iter())
            .map(PathBuf::from)
            .filter(|p| p.exists())
            .collect();
        read.extend(sandbox.read_only.iter().cloned());
        read.push(view.clone());
        read.push(input);
        let access = Access {
            read,
            write: vec![scratch.clone()],
            devices: [
                "/dev/null",
                "/dev/zero",
                "/dev/full",
                "/dev/random",
                "/dev/urandom",
            ]
            .iter()
            .map(PathBuf::from)
            .collect(),
        };
        let landlock = if self.landlock_abi > 0 {
            filter::landlock_ruleset(&access).map_err(io::Error::other)?
        } else {
            None
        };
        let programs = filter::programs().map_err(io::Error::other)?;
        let mut command = crate::clean_shell(shell, &scratch);
        command.current_dir(&chdir);
        let limits = rlimits(sandbox, time.cpu);
        let procs = cgroup.map(cgroup::Child::procs_fds);
        let ruleset = landlock.as_ref().map(|f| f.as_raw_fd());
        let fd_limit = crate::fds::fallback_limit();
        // SAFETY: the closure makes system calls only (no allocation, no
        // lock), on values prepared before fork; seccompiler's
        // apply_filter is two system calls.
        unsafe {
            command.pre_exec(move || {
                // Nothing the grader inherited reaches the program (the
                // Landlock ruleset, used below, is close-on-exec too).
                crate::fds::cloexec_above_stderr(fd_limit)?;
                if let Some(fds) = procs {
                    crate::cgroup::join(fds)?;
                }
                rustix::process::setsid()?;
                rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
                for (resource, value) in &limits {
                    rustix::process::setrlimit(*resource, *value)?;
                }
                if let Some(uid) = uid {
                    become_user(uid)?;
                }
                rustix::thread::set_no_new_privs(true)?;
                if let Some(fd) = ruleset
                    && libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) != 0
                {
                    return Err(io::Error::last_os_error());
                }
                for p in &programs {
                    if seccompiler::apply_filter(p).is_err() {
                        return Err(io::Error::from_raw_os_error(libc::EPERM));
                    }
                }
                Ok(())
            });
        }
        Ok((command, scratch, landlock.into_iter().collect()))
    }
}

fn sandbox_base(sandbox: &Sandbox) -> u32 {
    sandbox.uid_base
}

fn rlimits(
    sandbox: &Sandbox,
    run_cpu: Duration,
) -> Vec<(rustix::process::Resource, rustix::process::Rlimit)> {
    sandbox
        .limits
        .rlimits(run_cpu)
        .iter()
        .map(|l| {
            let limit = rustix::process::Rlimit {
                current: Some(l.soft),
                maximum: Some(l.hard),
            };
            (l.resource, limit)
        })
        .collect()
}

/// Drops every group and becomes `uid`/`uid` (between fork and exec).
pub(crate) fn become_user(uid: u32) -> io::Result<()> {
    use rustix::process::{Gid, Uid};
    let (u, g) = (Uid::from_raw(uid), Gid::from_raw(uid));
    rustix::thread::set_thread_groups(&[])?;
    rustix::thread::set_thread_res_gid(g, g, g)?;
    rustix::thread::set_thread_res_uid(u, u, u)?;
    Ok(())
}

fn make_dir(path: &Path, mode: u32) -> io::Result<()> {
    match fs::create_dir(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

fn make_dirs(base: &Path, dir: &Path) -> io::Result<()> {
    let rel = dir.strip_prefix(base).unwrap_or(Path::new(""));
    let mut at = base.to_owned();
    for part in rel.components() {
        at.push(part);
        make_dir(&at, 0o755)?;
    }
    Ok(())
}

/// Shows `host` at `target` for user `uid`: a hard link for a file every
/// user may read and none may write, else a copy owned by `uid`; a folder
/// is made and filled the same way (links inside it are not followed).
fn place(host: &Path, target: &Path, uid: Option<u32>) -> io::Result<()> {
    let meta = fs::symlink_metadata(host)?;
    if meta.is_dir() {
        make_dir(target, 0o755)?;
        for entry in fs::read_dir(host)?.flatten() {
            let t = entry.file_type()?;
            if t.is_dir() || t.is_file() {
                place(&entry.path(), &target.join(entry.file_name()), uid)?;
            }
        }
        return Ok(());
    }
    let meta = fs::metadata(host)?;
    if !meta.is_file() {
        return Err(io::Error::other(format!(
            "{} is not a file",
            host.display()
        )));
    }
    let mode = meta.mode();
    let shared = mode & 0o004 != 0 && mode & 0o002 == 0 && mode & 0o6000 == 0;
    if shared && fs::hard_link(host, target).is_ok() {
        return Ok(());
    }
    fs::copy(host, target)?;
    fs::set_permissions(target, fs::Permissions::from_mode(mode & 0o555 | 0o400))?;
    crate::give_to(target, uid)
}

/// Refuses when user `uid` (with no groups) could read or enter one of
/// `paths`, naming the `chmod` that makes them private.
/// A protected folder that holds `passable` (the sandbox's own folder,
/// which its user must pass through: the grader's work folder, whose
/// entries are each private) is not checked.
pub fn check_unreadable(
    paths: &[PathBuf],
    uid: u32,
    passable: &Path,
) -> Result<(), crate::SandboxError> {
    let existing: Vec<&PathBuf> = paths
        .iter()
        .filter(|p| p.exists() && !passable.starts_with(p))
        .collect();
    if existing.is_empty() {
        return Ok(());
    }
    let mut command = Command::new("/bin/sh");
    command
        .env_clear()
        .arg("-c")
        .arg(
            "for p in \"$@\"; do if [ -d \"$p\" ]; then if [ -x \"$p\" ] || [ -r \"$p\" ]; then \
             printf '%s\\0' \"$p\"; fi; elif [ -r \"$p\" ]; then printf '%s\\0' \"$p\"; fi; done",
        )
        .arg("sh")
        .args(&existing)
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: system calls only.
    unsafe {
        command.pre_exec(move || become_user(uid));
    }
    let out = command.output().map_err(crate::SandboxError::Io)?;
    if !out.status.success() {
        return Err(crate::SandboxError::Io(io::Error::other(format!(
            "the check of what uid {uid} can read failed: {}",
            out.status
        ))));
    }
    let readable: Vec<String> = out
        .stdout
        .split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect();
    if readable.is_empty() {
        return Ok(());
    }
    let quote = |s: &str| {
        if s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./+,:@%=".contains(c))
        {
            s.to_owned()
        } else {
            format!("'{}'", s.replace('\'', r"'\''"))
        }
    };
    Err(crate::SandboxError::Readable {
        uid,
        paths: readable.join(", "),
        chmod: format!(
            "chmod o-rwx {}",
            readable
                .iter()
                .map(|p| quote(p))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    })
}

struct UserGuard<'a> {
    uid: Option<u32>,
    cgroup: Option<&'a cgroup::Child>,
    scratch: PathBuf,
    cap: u64,
    shared: &'a [PathBuf],
    memory: u64,
}

impl Guard for UserGuard<'_> {
    fn kill(&self, pid: Option<u32>) {
        if let Some(c) = self.cgroup {
            c.kill_all();
        }
        match (self.uid, pid) {
            (Some(uid), _) => {
                kill_uid(uid);
            }
            (None, Some(pid)) => kill_session(pid),
            (None, None) => {}
        }
    }
    fn polls(&self) -> bool {
        true
    }
    fn check(&self) -> Option<Outcome> {
        let mut used = disk_usage(&[self.scratch.as_path()], None);
        if let Some(uid) = self.uid {
            let shared: Vec<&Path> = self.shared.iter().map(PathBuf::as_path).collect();
            used = used.saturating_add(disk_usage(&shared, Some(uid)));
        }
        (used > self.cap).then_some(Outcome::MemoryLimit)
    }
    fn out_of_memory(&self) -> bool {
        self.cgroup.is_some_and(cgroup::Child::out_of_memory)
    }
    fn resident_cap(&self) -> Option<u64> {
        self.cgroup.is_none().then_some(self.memory)
    }
    fn scope(&self) -> Scope<'_> {
        match (self.cgroup, self.uid) {
            (Some(c), _) if c.counts_cpu() => Scope::Cgroup(c),
            (_, Some(uid)) => Scope::Uid(uid),
            _ => Scope::Tree,
        }
    }
}

/// Kills every process of session `sid`.
fn kill_session(sid: u32) {
    let Ok(entries) = fs::read_dir("/proc") else {
        return;
    };
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp session …
        let session = stat
            .rsplit_once(") ")
            .and_then(|(_, rest)| rest.split(' ').nth(3))
            .and_then(|s| s.parse::<u32>().ok());
        if session == Some(sid)
            && let Some(pid) = rustix::process::Pid::from_raw(pid)
        {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
    }
}
