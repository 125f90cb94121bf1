//! The sandbox every program under test runs in: bubblewrap (`bwrap`)
//! namespaces, resource limits set by util-linux `prlimit` inside them, and
//! an unprivileged user when the grader is root.
//!
//! What a sandboxed program gets:
//! - the system read-only (`/usr`, `/etc`, `/opt`, `/var/lib/ghc` and the
//!   `/bin`, `/lib…` links), the paths given with `--sandbox-ro`
//!   read-only, and the few files or folders its run binds (its build
//!   folder or executable, its private copy of one `.cnf`). Nothing else
//!   of the host exists for it: no home folder, no `/tmp`, no `/run`;
//! - a protected path (fixture folders, the class folder, the grader's
//!   cache and output files) that lies inside a visible folder is covered
//!   by an empty read-only folder; a visible folder that lies inside a
//!   protected one is refused when the sandbox is built
//!   ([`SandboxError::Exposes`]), so a `.solution` file is never visible;
//! - one writable folder, `/tmp` (also `HOME` and `TMPDIR`), a fresh tmpfs
//!   of at most [`Limits::scratch`] bytes, gone when the run ends;
//! - new user, mount, PID, network, IPC, UTS and cgroup namespaces: no
//!   network at all (its loopback is its own), no view of the grader's or
//!   anyone else's processes, and no further user namespaces;
//! - a clean environment: `PATH`, `HOME`, `TMPDIR` and `LANG` only;
//! - `--die-with-parent` and a PID namespace: when the run's first process
//!   ends, or the grader kills the run (time limit, output cap) or dies
//!   itself, every process the program started is killed with it, however
//!   it detached (`setsid`, double fork). A second clock inside the sandbox
//!   (coreutils `timeout`, the run's time limit plus 2 s) ends it even if
//!   the grader died in the few milliseconds bwrap takes to set up, before
//!   `--die-with-parent` holds;
//! - limits on CPU time, address space, processes, open files and file
//!   size. They are set by `prlimit` as the first program inside the new
//!   user namespace, so the process count covers the sandbox's own
//!   processes only (set outside, it would count every process of the
//!   user running the grader);
//! - when the grader runs as root, the sandbox runs as an unprivileged
//!   user id ([`Sandbox::uid`], default [`DEFAULT_UID`]): root is exempt
//!   from the process limit, and must not be the one reading `/etc`.
//!
//! What it does not cover: the kernel itself (a kernel exploit escapes any
//! namespace), CPU and memory bandwidth shared with other runs, and the
//! memory of the scratch tmpfs, which counts towards the machine's memory
//! rather than the address-space limit. There is no seccomp filter and no
//! Landlock layer.

use std::ffi::OsString;
use std::fs;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The user id sandboxed programs run as when the grader is root (no
/// system allocates ids this high).
pub const DEFAULT_UID: u32 = 1_900_000_000;

/// The system folders shown read-only.
const SYSTEM_DIRS: [&str; 4] = ["/usr", "/etc", "/opt", "/var/lib/ghc"];

/// Top-level names that are links into `/usr` on merged-`/usr` systems
/// (or folders of their own on older ones).
const SYSTEM_LINKS: [&str; 6] = ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];

/// `PATH` inside the sandbox.
pub const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The writable scratch folder inside the sandbox (also `HOME` and `TMPDIR`).
pub const SCRATCH: &str = "/tmp";

/// Resource limits of one sandboxed run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// CPU seconds per process; `None`: the run's time limit plus one second.
    pub cpu: Option<Duration>,
    /// Address space per process, in bytes.
    pub memory: u64,
    /// Processes (and threads) at once.
    pub processes: u32,
    /// Open files per process.
    pub open_files: u32,
    /// Largest file a process may write, in bytes.
    pub file_size: u64,
    /// Total size of the writable scratch folder, in bytes.
    pub scratch: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            cpu: None,
            memory: 2 << 30,
            processes: 64,
            open_files: 256,
            file_size: 64 << 20,
            scratch: 256 << 20,
        }
    }
}

/// A read-only bind: a host file or folder shown at a path inside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bind {
    /// The host path.
    pub host: PathBuf,
    /// Where the program sees it.
    pub inside: PathBuf,
}

impl Bind {
    /// Shows `host` at `inside`.
    pub fn new(host: impl Into<PathBuf>, inside: impl Into<PathBuf>) -> Bind {
        Bind {
            host: host.into(),
            inside: inside.into(),
        }
    }
}

/// Why the sandbox cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// Occurs when `bwrap` or `prlimit` cannot be found.
    #[error(
        "cannot set up the sandbox: {tool} was not found on PATH; install it with \
         `apt-get install {package}` (Debian, Ubuntu) or `dnf install {package}` (Fedora), \
         or run with --no-sandbox (student programs then run with your rights)"
    )]
    Missing {
        /// The command.
        tool: &'static str,
        /// The package that has it.
        package: &'static str,
    },
    /// Occurs when `bwrap` runs but cannot make a sandbox here.
    #[error(
        "cannot set up the sandbox: a test run of bwrap failed: {said}\n\
         bwrap needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, \
         or user.max_user_namespaces > 0; inside a container, a seccomp profile that allows \
         unshare); or run with --no-sandbox (student programs then run with your rights)"
    )]
    Broken {
        /// What bwrap said.
        said: String,
    },
    /// Occurs when a visible path would show a protected one.
    #[error(
        "{visible} would be visible to the programs under test, but it is inside {protected}, \
         which they must not see (fixtures with their .solution files, the class, or the \
         grader's own files); move one of them"
    )]
    Exposes {
        /// The path that would be shown.
        visible: PathBuf,
        /// The protected path it holds or lies in.
        protected: PathBuf,
    },
    /// Occurs when a `--sandbox-ro` path does not exist.
    #[error("--sandbox-ro {path}: {source}")]
    ReadOnlyPath {
        /// The path given.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// A sandbox configuration, checked to work on this machine.
#[derive(Debug, Clone)]
pub struct Sandbox {
    bwrap: PathBuf,
    prlimit: PathBuf,
    timeout: PathBuf,
    /// The limits of each run.
    pub limits: Limits,
    /// Extra host paths shown read-only at the same path (canonical).
    read_only: Vec<PathBuf>,
    /// Paths never shown (canonical).
    protected: Vec<PathBuf>,
    /// The user id runs use, when the grader is root (`None` otherwise).
    pub uid: Option<u32>,
}

/// Finds `name` in the folders of `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Whether this process runs as root.
pub fn running_as_root() -> bool {
    rustix::process::geteuid().is_root()
}

impl Sandbox {
    /// Finds `bwrap` and `prlimit`, checks that a sandbox can be made, and
    /// keeps the limits, the extra read-only paths and the protected paths.
    /// `uid` is used only when the grader runs as root.
    pub fn new(
        limits: Limits,
        read_only: &[PathBuf],
        protected: &[PathBuf],
        uid: u32,
    ) -> Result<Sandbox, SandboxError> {
        let bwrap = which("bwrap").ok_or(SandboxError::Missing {
            tool: "bwrap",
            package: "bubblewrap",
        })?;
        let prlimit = which("prlimit").ok_or(SandboxError::Missing {
            tool: "prlimit",
            package: "util-linux",
        })?;
        let timeout = which("timeout").ok_or(SandboxError::Missing {
            tool: "timeout",
            package: "coreutils",
        })?;
        let read_only = read_only
            .iter()
            .map(|p| {
                fs::canonicalize(p).map_err(|source| SandboxError::ReadOnlyPath {
                    path: p.clone(),
                    source,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let protected = protected
            .iter()
            .filter_map(|p| fs::canonicalize(p).ok())
            .collect();
        let sandbox = Sandbox {
            bwrap,
            prlimit,
            timeout,
            limits,
            read_only,
            protected,
            uid: running_as_root().then_some(uid),
        };
        for dir in sandbox.visible_roots() {
            sandbox.check_visible(&dir)?;
        }
        sandbox.probe()?;
        Ok(sandbox)
    }

    /// The same sandbox for runs as user `uid` (when the grader is root).
    pub fn with_uid(&self, uid: u32) -> Sandbox {
        let mut copy = self.clone();
        if copy.uid.is_some() {
            copy.uid = Some(uid);
        }
        copy
    }

    fn visible_roots(&self) -> Vec<PathBuf> {
        SYSTEM_DIRS
            .iter()
            .map(PathBuf::from)
            .chain(self.read_only.iter().cloned())
            .filter_map(|p| fs::canonicalize(p).ok())
            .collect()
    }

    /// Refuses a host path to be shown when a protected path holds it.
    pub fn check_visible(&self, host: &Path) -> Result<(), SandboxError> {
        let canonical = fs::canonicalize(host).unwrap_or_else(|_| host.to_owned());
        match self.protected.iter().find(|p| canonical.starts_with(p)) {
            Some(protected) => Err(SandboxError::Exposes {
                visible: host.to_owned(),
                protected: protected.clone(),
            }),
            None => Ok(()),
        }
    }

    fn probe(&self) -> Result<(), SandboxError> {
        self.try_binds(&[], Path::new("/"))
    }

    /// Checks that a sandbox with these binds can be made (as root, the
    /// sandbox's user must be able to reach every bound path).
    pub fn try_binds(&self, binds: &[Bind], chdir: &Path) -> Result<(), SandboxError> {
        let mut command = self.command(binds, chdir, "exit 0", Duration::from_secs(10));
        let out = command
            .stdin(Stdio::null())
            .output()
            .map_err(|e| SandboxError::Broken {
                said: e.to_string(),
            })?;
        if out.status.success() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(&out.stderr).trim().to_owned();
        Err(SandboxError::Broken {
            said: if said.is_empty() {
                format!("{}", out.status)
            } else {
                said
            },
        })
    }

    /// The command that runs `sh -c SHELL` in a fresh sandbox with these
    /// binds, in folder `chdir` (inside), under a time limit of `wall`
    /// (which sets the default CPU limit).
    pub fn command(&self, binds: &[Bind], chdir: &Path, shell: &str, wall: Duration) -> Command {
        let mut command = Command::new(&self.bwrap);
        if let Some(uid) = self.uid {
            command.uid(uid).gid(uid);
        }
        command.env_clear();
        let mut args: Vec<OsString> = Vec::new();
        let mut arg = |a: &dyn AsRef<std::ffi::OsStr>| args.push(a.as_ref().to_owned());
        for a in [
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
            "--hostname",
            "sandbox",
        ] {
            arg(&a);
        }
        for (name, value) in [
            ("PATH", PATH),
            ("HOME", SCRATCH),
            ("TMPDIR", SCRATCH),
            ("LANG", "C.UTF-8"),
        ] {
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
        // The scratch first: a path shown under /tmp (a --sandbox-ro folder,
        // a working folder) is mounted over it, not hidden by it.
        arg(&"--proc");
        arg(&"/proc");
        arg(&"--dev");
        arg(&"/dev");
        arg(&"--size");
        arg(&self.limits.scratch.to_string());
        arg(&"--tmpfs");
        arg(&SCRATCH);
        let mut shown: Vec<(PathBuf, PathBuf)> = Vec::new();
        for dir in SYSTEM_DIRS.iter().map(PathBuf::from) {
            if dir.exists() {
                arg(&"--ro-bind");
                arg(&dir);
                arg(&dir);
                shown.push((fs::canonicalize(&dir).unwrap_or(dir.clone()), dir));
            }
        }
        for dir in &self.read_only {
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
            for protected in &self.protected {
                if let Ok(rest) = protected.strip_prefix(host) {
                    let at = inside.join(rest);
                    arg(&"--tmpfs");
                    arg(&at);
                    arg(&"--remount-ro");
                    arg(&at);
                }
            }
        }
        arg(&"--chdir");
        arg(&chdir);
        arg(&"--");
        arg(&self.prlimit);
        let cpu = self
            .limits
            .cpu
            .unwrap_or(wall + Duration::from_secs(1))
            .as_secs()
            .max(1);
        for (flag, value) in [
            ("--cpu", format!("{cpu}:{}", cpu + 1)),
            ("--as", self.limits.memory.to_string()),
            ("--nproc", self.limits.processes.to_string()),
            ("--nofile", self.limits.open_files.to_string()),
            ("--fsize", self.limits.file_size.to_string()),
            ("--core", "0".to_owned()),
        ] {
            arg(&format!("{flag}={value}"));
        }
        // A second clock inside: if the grader dies in the instant bwrap
        // sets up (before --die-with-parent holds), the run still ends.
        arg(&"--");
        arg(&self.timeout);
        arg(&"-s");
        arg(&"KILL");
        arg(&format!("{}s", wall.as_secs() + 2));
        arg(&"sh");
        arg(&"-c");
        arg(&shell);
        command.args(args);
        command
    }
}

/// Gives `path` to user `uid` (when the grader is root), so the
/// sandbox's user reaches it while no other user does.
pub fn give_to(path: &Path, uid: Option<u32>) -> std::io::Result<()> {
    match uid {
        Some(uid) => std::os::unix::fs::chown(path, Some(uid), Some(uid)),
        None => Ok(()),
    }
}

/// The private copy of a game file for one run: written into a fresh
/// folder under `private`, shown inside as `/input/NAME.cnf`.
pub struct InputCopy {
    _dir: tempfile::TempDir,
    /// The bind of the copy.
    pub bind: Bind,
}

impl InputCopy {
    /// Copies `cnf` into a new folder under `private`, owned by `uid`
    /// when one is given.
    pub fn new(cnf: &Path, private: &Path, uid: Option<u32>) -> std::io::Result<InputCopy> {
        let dir = tempfile::Builder::new()
            .prefix("input-")
            .tempdir_in(private)?;
        give_to(dir.path(), uid)?;
        let name = cnf
            .file_name()
            .map_or_else(|| OsString::from("game.cnf"), ToOwned::to_owned);
        let copy = dir.path().join(&name);
        fs::copy(cnf, &copy)?;
        Ok(InputCopy {
            bind: Bind::new(copy, Path::new("/input").join(name)),
            _dir: dir,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake(protected: &[&str], read_only: &[&str]) -> Sandbox {
        Sandbox {
            bwrap: "bwrap".into(),
            prlimit: "prlimit".into(),
            timeout: "timeout".into(),
            limits: Limits::default(),
            read_only: read_only.iter().map(PathBuf::from).collect(),
            protected: protected.iter().map(PathBuf::from).collect(),
            uid: None,
        }
    }

    fn args(command: &Command) -> Vec<String> {
        command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_protected_folder_inside_a_shown_one_is_covered() {
        let shown = tempfile::tempdir().unwrap();
        let fixtures = shown.path().join("fixtures");
        fs::create_dir(&fixtures).unwrap();
        let s = fake(&[fixtures.to_str().unwrap()], &[]);
        let c = s.command(
            &[Bind::new(shown.path(), "/build")],
            Path::new("/build"),
            "true",
            Duration::from_secs(2),
        );
        let a = args(&c).join(" ");
        assert!(
            a.contains("--tmpfs /build/fixtures --remount-ro /build/fixtures"),
            "{a}"
        );
        assert!(a.contains("--ro-bind"), "{a}");
        assert!(a.ends_with("-- timeout -s KILL 4s sh -c true"), "{a}");
        // The CPU limit follows the time limit: 2 s + 1 s.
        assert!(a.contains("--cpu=3:4"), "{a}");
        assert!(a.contains(&format!("--as={}", 2u64 << 30)), "{a}");
        assert!(a.contains("--nproc=64"), "{a}");
    }

    #[test]
    fn a_shown_folder_inside_a_protected_one_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let inner = root.path().join("inner");
        fs::create_dir(&inner).unwrap();
        let s = fake(
            &[root.path().canonicalize().unwrap().to_str().unwrap()],
            &[],
        );
        assert!(matches!(
            s.check_visible(&inner),
            Err(SandboxError::Exposes { .. })
        ));
        assert!(s.check_visible(Path::new("/usr")).is_ok());
    }

    #[test]
    fn a_run_ends_by_its_own_clock_even_if_no_one_kills_it() {
        if !test_support::require("sandbox clock", &[test_support::Tool::Bwrap]) {
            return;
        }
        let sandbox = Sandbox::new(Limits::default(), &[], &[], DEFAULT_UID).unwrap();
        let start = std::time::Instant::now();
        let status = sandbox
            .command(&[], Path::new("/"), "sleep 1000", Duration::from_secs(1))
            .stdin(Stdio::null())
            .status()
            .unwrap();
        assert!(!status.success());
        let took = start.elapsed();
        assert!(took < Duration::from_secs(20), "{took:?}");
        assert!(
            took >= Duration::from_secs(3),
            "the clock is the limit + 2 s: {took:?}"
        );
    }

    #[test]
    fn the_environment_is_clean() {
        let s = fake(&[], &[]);
        let c = s.command(&[], Path::new("/"), "env", Duration::from_secs(1));
        let a = args(&c).join(" ");
        assert!(a.contains("--clearenv"), "{a}");
        assert!(a.contains(&format!("--setenv PATH {PATH}")), "{a}");
        assert!(a.contains("--setenv HOME /tmp --setenv TMPDIR /tmp"), "{a}");
        assert_eq!(c.get_envs().count(), 0, "only env_clear");
    }
}
