//! The bubblewrap backend, for any bwrap from 0.4 on.
//!
//! The options the installed bwrap has are read from its `--help` once, at
//! start-up. What each missing one costs:
//! - `--size` (0.7): the scratch is a host folder (on disk, not in memory)
//!   whose size the grader checks every 50 ms, ending the run past
//!   [`crate::Limits::scratch`];
//! - `--add-seccomp-fd` (0.7): nothing, the filter is one program, which
//!   `--seccomp` takes (`clone3` is refused by it too);
//! - `--disable-userns` (0.8): the seccomp filter refuses `unshare` and
//!   `clone` with a new user namespace instead;
//! - `--clearenv` (0.5): bwrap itself starts with a clean environment;
//! - `--proc` refused (inside some containers): the sandbox has no `/proc`.
//!
//! The command line is passed through a file descriptor (`--args`), so the
//! sandbox's `/proc/1/cmdline` shows `bwrap --args N` and no host path. The
//! root (with a few device nodes bound on it) and every bind are read-only: the scratch is the only
//! writable place. Resource limits are set by util-linux `prlimit` as the
//! first program inside the new user namespace, so the process limit
//! counts the sandbox's own processes; coreutils `timeout` is a second
//! clock inside, in case the grader dies before `--die-with-parent` holds.

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::fd::{AsRawFd as _, OwnedFd};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::exec::{self, Guard, RunResult};
use crate::run::RunSpec;
use crate::usage::Scope;
use crate::{
    Bind, Outcome, SCRATCH, SYSTEM_DIRS, SYSTEM_LINKS, Sandbox, TimeLimits, cgroup, which,
};

/// What was found of the installed bwrap.
#[derive(Debug, Clone)]
pub struct Bwrap {
    path: PathBuf,
    prlimit: PathBuf,
    timeout: PathBuf,
    /// Its version, as `bwrap --version` says it (`unknown` if it does not).
    pub version: String,
    options: BTreeSet<String>,
    proc_ok: bool,
}

/// The options bwrap 0.6.1 lacks that this backend uses when present.
pub const NEWER_OPTIONS: [&str; 3] = ["--size", "--add-seccomp-fd", "--disable-userns"];

/// The options every supported bwrap (0.4 on) has.
pub const REQUIRED_OPTIONS: [&str; 13] = [
    "--args",
    "--json-status-fd",
    "--unshare-all",
    "--unshare-user",
    "--die-with-parent",
    "--new-session",
    "--ro-bind",
    "--tmpfs",
    "--remount-ro",
    "--dev-bind",
    "--chdir",
    "--seccomp",
    "--setenv",
];

/// The option names a bwrap's `--help` lists.
pub fn options_of(help: &str) -> BTreeSet<String> {
    help.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            l.starts_with("--")
                .then(|| l.split_whitespace().next().unwrap_or("").to_owned())
        })
        .collect()
}

impl Bwrap {
    /// Finds bwrap, `prlimit` and `timeout`, and reads bwrap's options.
    pub(crate) fn probe() -> Result<Bwrap, String> {
        let missing = |tool: &str, package: &str| {
            format!("{tool} was not found on PATH (`apt-get install {package}`)")
        };
        let path = which("bwrap").ok_or_else(|| missing("bwrap", "bubblewrap"))?;
        let prlimit = which("prlimit").ok_or_else(|| missing("prlimit", "util-linux"))?;
        let timeout = which("timeout").ok_or_else(|| missing("timeout", "coreutils"))?;
        let out = |arg: &str| {
            Command::new(&path)
                .arg(arg)
                .stdin(Stdio::null())
                .output()
                .map(|o| {
                    String::from_utf8_lossy(&o.stdout).into_owned()
                        + &String::from_utf8_lossy(&o.stderr)
                })
                .map_err(|e| format!("cannot run {}: {e}", path.display()))
        };
        let version = out("--version")?
            .split_whitespace()
            .nth(1)
            .unwrap_or("unknown")
            .to_owned();
        let options = options_of(&out("--help")?);
        let lacking: Vec<&str> = REQUIRED_OPTIONS
            .iter()
            .copied()
            .filter(|o| !options.contains(*o))
            .collect();
        if !lacking.is_empty() {
            return Err(format!(
                "bwrap {version} lacks {} (0.4 or newer is needed)",
                lacking.join(", ")
            ));
        }
        let mut b = Bwrap {
            path,
            prlimit,
            timeout,
            version,
            options,
            proc_ok: true,
        };
        // Inside some containers a new /proc cannot be mounted: go on
        // without one, and say so.
        let base = |with_proc: bool| {
            let mut c = Command::new(&b.path);
            c.args([
                "--unshare-all",
                "--unshare-user",
                "--ro-bind",
                "/usr",
                "/usr",
            ]);
            for link in SYSTEM_LINKS {
                if let Ok(target) = fs::read_link(link) {
                    c.arg("--symlink").arg(target).arg(link);
                }
            }
            if with_proc {
                c.args(["--proc", "/proc"]);
            }
            c.args(["--", "true"]);
            c.stdin(Stdio::null()).output()
        };
        match base(true) {
            Ok(o) if o.status.success() => {}
            Ok(o) => match base(false) {
                Ok(p) if p.status.success() => b.proc_ok = false,
                _ => {
                    let said = String::from_utf8_lossy(&o.stderr).trim().to_owned();
                    return Err(format!("a test run of bwrap {} failed: {said}", b.version));
                }
            },
            Err(e) => return Err(format!("cannot run bwrap: {e}")),
        }
        Ok(b)
    }

    /// Whether the installed bwrap has option `name`.
    pub fn has(&self, name: &str) -> bool {
        self.options.contains(name)
    }

    pub(crate) fn weaker(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.has("--size") {
            out.push("scratch on disk, its size checked by polling (no --size)".to_owned());
        }
        if !self.proc_ok {
            out.push("no /proc (--proc refused here)".to_owned());
        }
        out
    }

    /// The arguments (after `--args`) for one run.
    pub(crate) fn arguments(
        &self,
        sandbox: &Sandbox,
        binds: &[Bind],
        chdir: &Path,
        host_scratch: Option<&Path>,
        seccomp_fds: &[i32],
        status_fd: i32,
    ) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        let mut arg = |a: &dyn AsRef<OsStr>| args.push(a.as_ref().to_owned());
        for a in ["--unshare-all", "--unshare-user"] {
            arg(&a);
        }
        if self.has("--disable-userns") {
            arg(&"--disable-userns");
        }
        // Where bwrap says whether it started the program: the line
        // `{ "exit-code": N }` comes only when the set-up finished and the
        // program was executed, whatever the program prints.
        arg(&"--json-status-fd");
        arg(&status_fd.to_string());
        for a in [
            "--die-with-parent",
            "--new-session",
            "--hostname",
            "sandbox",
        ] {
            arg(&a);
        }
        if self.has("--clearenv") {
            arg(&"--clearenv");
        }
        for (name, value) in crate::environment(Path::new(SCRATCH)) {
            arg(&"--setenv");
            arg(&name);
            arg(&value);
        }
        for link in SYSTEM_LINKS {
            match fs::symlink_metadata(link) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    if let Ok(target) = fs::read_link(link) {
                        arg(&"--symlink");
                        arg(&target);
                        arg(&link);
                    }
                }
                Ok(meta) if meta.is_dir() => {
                    arg(&"--ro-bind");
                    arg(&link);
                    arg(&link);
                }
                _ => {}
            }
        }
        if self.proc_ok {
            arg(&"--proc");
            arg(&"/proc");
        }
        // The few devices a program needs, on the read-only root (bwrap's
        // own --dev would be a writable, uncapped tmpfs).
        for dev in [
            "/dev/null",
            "/dev/zero",
            "/dev/full",
            "/dev/random",
            "/dev/urandom",
        ] {
            arg(&"--dev-bind");
            arg(&dev);
            arg(&dev);
        }
        for (target, link) in [
            ("/proc/self/fd", "/dev/fd"),
            ("/proc/self/fd/0", "/dev/stdin"),
            ("/proc/self/fd/1", "/dev/stdout"),
            ("/proc/self/fd/2", "/dev/stderr"),
        ] {
            arg(&"--symlink");
            arg(&target);
            arg(&link);
        }
        // The scratch first: a path shown under /tmp (an extra read-only folder,
        // a working folder) is mounted over it, not hidden by it.
        match host_scratch {
            None => {
                arg(&"--size");
                arg(&sandbox.limits.scratch.to_string());
                arg(&"--tmpfs");
                arg(&SCRATCH);
            }
            Some(host) => {
                arg(&"--bind");
                arg(&host);
                arg(&SCRATCH);
            }
        }
        // A working folder that no bind provides is an empty folder of its
        // own, read-only once the binds inside it are made.
        let own_dir = chdir != Path::new("/")
            && chdir != Path::new(SCRATCH)
            && !binds.iter().any(|b| b.inside == chdir);
        if own_dir {
            arg(&"--tmpfs");
            arg(&chdir);
        }
        let mut shown: Vec<(PathBuf, PathBuf)> = Vec::new();
        for dir in SYSTEM_DIRS.iter().map(PathBuf::from) {
            if dir.exists() {
                arg(&"--ro-bind");
                arg(&dir);
                arg(&dir);
                shown.push((fs::canonicalize(&dir).unwrap_or(dir.clone()), dir));
            }
        }
        for dir in &sandbox.read_only {
            arg(&"--ro-bind");
            arg(dir);
            arg(dir);
            shown.push((dir.clone(), dir.clone()));
        }
        for bind in binds {
            arg(&"--ro-bind");
            arg(&bind.host);
            arg(&bind.inside);
            if bind.host.is_dir() {
                shown.push((
                    fs::canonicalize(&bind.host).unwrap_or(bind.host.clone()),
                    bind.inside.clone(),
                ));
            }
        }
        // Cover every protected path that a shown folder holds.
        for (host, inside) in &shown {
            for protected in &sandbox.protected {
                if let Ok(rest) = protected.strip_prefix(host) {
                    let at = inside.join(rest);
                    arg(&"--tmpfs");
                    arg(&at);
                    arg(&"--remount-ro");
                    arg(&at);
                }
            }
        }
        // Nothing but the scratch is writable: not the root (where bwrap
        // made the mount points), not /dev.
        if own_dir {
            arg(&"--remount-ro");
            arg(&chdir);
        }
        arg(&"--remount-ro");
        arg(&"/");
        arg(&"--chdir");
        arg(&chdir);
        match seccomp_fds {
            [main, rest @ ..] if self.has("--add-seccomp-fd") => {
                for fd in std::iter::once(main).chain(rest) {
                    arg(&"--add-seccomp-fd");
                    arg(&fd.to_string());
                }
            }
            [main, ..] => {
                arg(&"--seccomp");
                arg(&main.to_string());
            }
            [] => {}
        }
        args
    }

    /// The command bwrap runs (on its own command line: `--args` takes
    /// options only): `prlimit … -- timeout … sh -c SHELL`, no host path
    /// but the system's.
    pub(crate) fn inner_command(
        &self,
        sandbox: &Sandbox,
        shell: &str,
        time: TimeLimits,
    ) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        let mut arg = |a: &dyn AsRef<OsStr>| args.push(a.as_ref().to_owned());
        arg(&self.prlimit);
        for limit in sandbox.limits.rlimits(time.cpu) {
            arg(&format!("{}={}:{}", limit.prlimit, limit.soft, limit.hard));
        }
        arg(&"--");
        arg(&self.timeout);
        arg(&"-s");
        arg(&"KILL");
        arg(&format!("{}s", time.wall.as_secs() + 2));
        arg(&"sh");
        arg(&"-c");
        arg(&shell);
        args
    }

    /// Runs `spec` under bubblewrap. A run bwrap did not report as
    /// executed and ended (its set-up failed, or bwrap itself was killed)
    /// is [`Outcome::CouldNotStart`], with what bwrap said: the sandbox's
    /// failure, which a program cannot forge by printing `bwrap: …`.
    pub(crate) fn execute(&self, spec: &RunSpec<'_>) -> RunResult {
        match self.prepare(spec) {
            Ok((command, guard, status, _fds)) => {
                let mut r = exec::run(command, spec.time, spec.max_output, &guard);
                if matches!(r.outcome, Outcome::Exited { .. } | Outcome::Signalled(_)) {
                    let said = read_status(&status);
                    if exit_code(&said).is_none() {
                        let how = match r.outcome {
                            Outcome::Signalled(n) => format!("bwrap was killed by signal {n}"),
                            Outcome::Exited { code, .. } => format!("bwrap exited {code}"),
                            _ => String::new(),
                        };
                        let stderr = r.stderr.trim();
                        r.outcome = Outcome::CouldNotStart(if stderr.is_empty() {
                            format!("bubblewrap reported no end of the program ({how})")
                        } else {
                            format!("bubblewrap reported no end of the program ({how}): {stderr}")
                        });
                        r.stderr = String::new();
                        r.stderr_truncated = false;
                        return r;
                    }
                }
                // The clock inside (coreutils `timeout`) reports a signal
                // that ended the program as 128 + its number.
                if let Outcome::Exited { code, .. } = r.outcome
                    && (129..=128 + 64).contains(&code)
                {
                    r.outcome = Outcome::Signalled(code - 128);
                }
                r
            }
            Err(e) => RunResult::could_not_start(format!("cannot prepare the sandbox: {e}")),
        }
    }

    fn prepare<'a>(
        &self,
        spec: &RunSpec<'a>,
    ) -> std::io::Result<(Command, BwrapGuard<'a>, OwnedFd, Vec<OwnedFd>)> {
        let RunSpec {
            sandbox,
            binds,
            chdir,
            dir: run_dir,
            shell,
            time,
            cgroup,
            ..
        } = *spec;
        let host_scratch = if self.has("--size") {
            None
        } else {
            let dir = run_dir.join("scratch");
            fs::create_dir(&dir)?;
            crate::give_to(&dir, sandbox.uid)?;
            Some(dir)
        };
        let programs = crate::filter::programs().map_err(std::io::Error::other)?;
        let mut fds: Vec<OwnedFd> = Vec::new();
        for p in &programs {
            fds.push(memfd(&crate::filter::program_bytes(p))?);
        }
        let seccomp: Vec<i32> = fds.iter().map(|f| f.as_raw_fd()).collect();
        let status = memfd(b"")?;
        let args = self.arguments(
            sandbox,
            binds,
            chdir,
            host_scratch.as_deref(),
            &seccomp,
            status.as_raw_fd(),
        );
        let mut bytes = Vec::new();
        for a in &args {
            bytes.extend_from_slice(a.as_encoded_bytes());
            bytes.push(0);
        }
        let args_fd = memfd(&bytes)?;
        let mut command = Command::new(&self.path);
        command.env_clear();
        command.arg("--args").arg(args_fd.as_raw_fd().to_string());
        command
            .arg("--")
            .args(self.inner_command(sandbox, shell, time));
        let inherit: Vec<i32> = [args_fd.as_raw_fd(), status.as_raw_fd()]
            .into_iter()
            .chain(seccomp.iter().copied())
            .collect();
        fds.push(args_fd);
        let procs = cgroup.map(cgroup::Child::procs_fds);
        let uid = sandbox.uid;
        let fd_limit = crate::fds::fallback_limit();
        // SAFETY: the closure makes system calls only (no allocation, no
        // lock), on values prepared before fork.
        unsafe {
            command.pre_exec(move || {
                if let Some(fds) = procs {
                    crate::cgroup::join(fds)?;
                }
                // Nothing the grader inherited reaches bwrap or the
                // program: only bwrap's own descriptors are handed over.
                crate::fds::cloexec_above_stderr(fd_limit)?;
                crate::fds::hand_over(&inherit)?;
                libc::setpgid(0, 0);
                if let Some(uid) = uid {
                    crate::user::become_user(uid)?;
                }
                Ok(())
            });
        }
        Ok((
            command,
            BwrapGuard {
                cgroup,
                scratch: host_scratch.map(|d| (d, sandbox.limits.scratch)),
                memory: sandbox.limits.memory,
            },
            status,
            fds,
        ))
    }
}

/// What bwrap wrote to its `--json-status-fd` (a memory file), from the start.
fn read_status(fd: &OwnedFd) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 1024];
    let mut at = 0u64;
    while let Ok(n) = rustix::io::pread(fd, &mut buf, at) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
        at += n as u64;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The exit code bwrap reported for the program (`{ "exit-code": N }`,
/// written only once the program was executed and has ended).
pub fn exit_code(status: &str) -> Option<i32> {
    let rest = &status[status.find("\"exit-code\"")? + "\"exit-code\"".len()..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// A sealed-by-convention memory file holding `bytes`, read from the start.
pub(crate) fn memfd(bytes: &[u8]) -> std::io::Result<OwnedFd> {
    use rustix::fs::{MemfdFlags, SeekFrom, memfd_create, seek};
    let fd = memfd_create("cnf-sandbox", MemfdFlags::CLOEXEC)?;
    let mut at = 0;
    while at < bytes.len() {
        at += rustix::io::write(&fd, &bytes[at..])?;
    }
    seek(&fd, SeekFrom::Start(0))?;
    Ok(fd)
}

struct BwrapGuard<'a> {
    cgroup: Option<&'a cgroup::Child>,
    scratch: Option<(PathBuf, u64)>,
    memory: u64,
}

impl Guard for BwrapGuard<'_> {
    fn kill(&self, _pid: Option<u32>) {
        if let Some(c) = self.cgroup {
            c.kill_all();
        }
    }
    /// Always: bwrap killed during its set-up, before its child asked to
    /// die with it, leaves the sandbox running and holding the output
    /// pipes; the run ends when bwrap does (and its cgroup is killed),
    /// not at the wall-clock limit as the program's.
    fn polls(&self) -> bool {
        true
    }
    fn check(&self) -> Option<Outcome> {
        let (dir, cap) = self.scratch.as_ref()?;
        (crate::writable::disk_usage(&[dir.as_path()], None) > *cap).then_some(Outcome::MemoryLimit)
    }
    fn out_of_memory(&self) -> bool {
        self.cgroup.is_some_and(cgroup::Child::out_of_memory)
    }
    fn resident_cap(&self) -> Option<u64> {
        self.cgroup.is_none().then_some(self.memory)
    }
    fn scope(&self) -> Scope<'_> {
        match self.cgroup {
            Some(c) if c.counts_cpu() => Scope::Cgroup(c),
            _ => Scope::Tree,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_from_help() {
        let help = "usage: bwrap [OPTIONS...] [--] COMMAND [ARGS...]\n\n    --help    Print this help\n    --size BYTES    Set size\n    --args FD   Parse\n";
        let o = options_of(help);
        assert!(o.contains("--size") && o.contains("--args") && o.contains("--help"));
        assert!(!o.contains("--disable-userns"));
    }

    #[test]
    fn the_exit_code_is_read_from_bwraps_status() {
        let started =
            "{ \"child-pid\": 12, \"cgroup-namespace\": 4026531835 }\n{ \"exit-code\": 3 }\n";
        assert_eq!(exit_code(started), Some(3));
        assert_eq!(exit_code("{ \"child-pid\": 12 }\n"), None);
        assert_eq!(exit_code(""), None);
    }
}
