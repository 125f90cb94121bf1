//! One run: its own host folder, what it sees (binds, input copies), where
//! it starts, and handing it to the backend.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{Backend, RunResult, Sandbox, TimeLimits, cgroup, give_to};

/// A read-only bind: a host file or folder shown at an absolute path inside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bind {
    /// The host path.
    pub host: PathBuf,
    /// Where the program sees it (absolute, as [`Run::path`] translates it).
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

/// Where the user backend's runs live: `/run/sandbox/N`, N the smallest
/// number free, holding the run's view (its binds at their inside paths,
/// e.g. `/run/sandbox/0/build`), its input (`/run/sandbox/0/input/NAME`)
/// and its scratch (`/run/sandbox/0/tmp`, also `HOME` and `TMPDIR`): the
/// words bubblewrap shows (`/build`, `/input/NAME`, `/tmp`) under one
/// short root that names nothing of the host.
pub const USER_ROOT: &str = "/run/sandbox";

/// A run's own host folder, removed with everything in it when dropped.
enum RunDir {
    /// Under the sandbox's own folder.
    Temp(tempfile::TempDir),
    /// A numbered folder under [`USER_ROOT`], and the lock (`run-N` in the
    /// lease folder) that says a live grader has it.
    Numbered {
        /// The folder.
        dir: PathBuf,
        /// Its lock, given back after the folder is removed.
        _lock: fs::File,
    },
}

/// The file in a numbered run folder that says it was made by a grader
/// holding its `run-N` lock: a folder with it whose lock is free was left
/// by a grader that was killed, and any grader may remove it.
const OWNED: &str = ".grader";

impl RunDir {
    /// The first free `root/N` (root made root's own, mode 0711), made
    /// root's own with mode 0700 (the backend lets the run's user in),
    /// holding its lock. A folder left by a killed grader is taken over.
    fn numbered(root: &Path) -> std::io::Result<RunDir> {
        use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _};
        match fs::DirBuilder::new().mode(0o711).create(root) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        let m = fs::symlink_metadata(root)?;
        if !m.is_dir() || m.uid() != 0 || m.mode() & 0o022 != 0 {
            return Err(std::io::Error::other(format!(
                "{} is not a folder only root may write in",
                root.display()
            )));
        }
        for n in 0..100_000u32 {
            let Some(lock) = crate::locks::lock(&format!("run-{n}"))? else {
                continue;
            };
            let dir = root.join(n.to_string());
            let mut made = fs::DirBuilder::new().mode(0o700).create(&dir);
            if made
                .as_ref()
                .is_err_and(|e| e.kind() == std::io::ErrorKind::AlreadyExists)
                && dir.join(OWNED).exists()
            {
                // Its grader was killed (we hold its lock): taken over.
                fs::remove_dir_all(&dir)?;
                made = fs::DirBuilder::new().mode(0o700).create(&dir);
            }
            match made {
                Ok(()) => {
                    fs::write(dir.join(OWNED), "")?;
                    return Ok(RunDir::Numbered { dir, _lock: lock });
                }
                // A folder of a grader that takes no lock: left alone.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        Err(std::io::Error::other(format!(
            "{} has no free run folder",
            root.display()
        )))
    }

    fn path(&self) -> &Path {
        match self {
            RunDir::Temp(t) => t.path(),
            RunDir::Numbered { dir, .. } => dir,
        }
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        // Removed before its lock is given back (the field drops after).
        if let RunDir::Numbered { dir, .. } = self {
            let _ = fs::remove_dir_all(&*dir);
        }
    }
}

/// Removes every numbered run folder under `root` that a killed grader
/// left: those holding [`OWNED`] whose `run-N` lock no live grader holds.
/// A live grader's, and any without [`OWNED`] (made by a grader that
/// takes no lock), are left alone.
pub(crate) fn remove_stale_runs(root: &Path) {
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        let Some(n) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        if !e.path().join(OWNED).exists() {
            continue;
        }
        if let Ok(Some(_lock)) = crate::locks::lock(&format!("run-{n}")) {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

/// Lets user `uid` (alone, the grader aside) enter the run folder `dir`:
/// group `uid` (the run's user has that group id and no other), mode 0710.
pub(crate) fn let_in(dir: &Path, uid: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    std::os::unix::fs::lchown(dir, None, Some(uid))?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o710))
}

/// One run being prepared: what it sees, where it starts; then
/// [`Run::execute`].
pub struct Run<'a> {
    sandbox: &'a Sandbox,
    /// The run's own host folder (root of the user backend's view, the
    /// input copy, the scratch where the tmpfs has no size).
    dir: RunDir,
    binds: Vec<Bind>,
    chdir: PathBuf,
}

/// Where a run's input copy lives, as the program sees it (bubblewrap).
pub const INPUT_DIR: &str = "/input";

/// The scratch folder as the program sees it (bubblewrap; also `HOME` and
/// `TMPDIR`). With the other backends `HOME` and `TMPDIR` name it.
pub const SCRATCH: &str = "/tmp";

impl Run<'_> {
    /// A run of `sandbox` with its own empty folder.
    pub(crate) fn new(sandbox: &Sandbox) -> std::io::Result<Run<'_>> {
        let dir = match (&sandbox.backend, sandbox.uid) {
            (Backend::User(_), Some(_)) => RunDir::numbered(Path::new(USER_ROOT))?,
            _ => RunDir::Temp(
                tempfile::Builder::new()
                    .prefix("run-")
                    .tempdir_in(sandbox.home.path())?,
            ),
        };
        {
            use std::os::unix::fs::PermissionsExt as _;
            // Only the grader (and, below, the run's user) may enter: the
            // user backend gives its leased user the folder's group when
            // it starts the run (see `user`).
            fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700))?;
            if let (Backend::Bubblewrap(_), Some(uid)) = (&sandbox.backend, sandbox.uid) {
                let_in(dir.path(), uid)?;
            }
        }
        Ok(Run {
            sandbox,
            dir,
            binds: Vec::new(),
            chdir: PathBuf::from("/"),
        })
    }

    /// Shows a host path read-only at `bind.inside`.
    pub fn bind(&mut self, bind: Bind) -> &mut Self {
        self.binds.push(bind);
        self
    }

    /// Starts the program in `dir` (a path as the program sees it).
    pub fn chdir(&mut self, dir: &Path) -> &mut Self {
        self.chdir = dir.to_owned();
        self
    }

    /// Where the program sees `inside` (a path given to [`Run::bind`]):
    /// the same path with bubblewrap, a path below the run's own folder
    /// with the other backends. Commands must name files this way.
    pub fn path(&self, inside: &Path) -> PathBuf {
        match self.sandbox.backend {
            Backend::Bubblewrap(_) => inside.to_owned(),
            _ => {
                let rel = inside.strip_prefix("/").unwrap_or(inside);
                self.dir.path().join(rel)
            }
        }
    }

    /// Copies `file` privately for this run (owned by its user); returns
    /// where the program sees it (see [`Run::path`]).
    pub fn input(&mut self, file: &Path) -> std::io::Result<PathBuf> {
        let host_dir = self.dir.path().join("input");
        {
            use std::os::unix::fs::DirBuilderExt as _;
            fs::DirBuilder::new().mode(0o700).create(&host_dir)?;
        }
        give_to(&host_dir, self.sandbox.uid)?;
        let name = file
            .file_name()
            .map_or_else(|| OsString::from("input"), ToOwned::to_owned);
        let copy = host_dir.join(&name);
        fs::copy(file, &copy)?;
        {
            use std::os::unix::fs::PermissionsExt as _;
            fs::set_permissions(&copy, fs::Permissions::from_mode(0o600))?;
        }
        give_to(&copy, self.sandbox.uid)?;
        let inside = Path::new(INPUT_DIR).join(&name);
        // The other backends' view is the run's folder: the copy is there.
        if let Backend::Bubblewrap(_) = self.sandbox.backend {
            self.binds.push(Bind::new(copy, inside.clone()));
        }
        Ok(self.path(&inside))
    }

    /// Runs `sh -c shell` with `limit` on both clocks
    /// ([`TimeLimits::same`]: a sleeping program ends at `limit` too),
    /// keeping at most `max_output` bytes of standard output.
    pub fn execute(self, shell: &str, limit: Duration, max_output: usize) -> RunResult {
        self.execute_within(shell, TimeLimits::same(limit), max_output)
    }

    /// Runs `sh -c shell` under the CPU and wall limits `time` (for a
    /// case: [`TimeLimits::cpu`]), keeping at most `max_output` bytes of
    /// standard output. The result's [`RunResult::usage`] says what it
    /// used; a [`crate::Outcome::TimeLimit`] says which clock ended it.
    pub fn execute_within(self, shell: &str, time: TimeLimits, max_output: usize) -> RunResult {
        let sandbox = self.sandbox;
        let cgroup = match &sandbox.cgroup {
            Some(parent) => match parent.child(sandbox.limits.memory) {
                Ok(c) => Some(c),
                Err(e) => {
                    return RunResult::could_not_start(format!(
                        "cannot make the run's memory cgroup: {e}"
                    ));
                }
            },
            None => None,
        };
        let spec = RunSpec {
            sandbox,
            binds: &self.binds,
            chdir: &self.chdir,
            dir: self.dir.path(),
            shell,
            time,
            max_output,
            cgroup: cgroup.as_ref(),
        };
        let result = match &sandbox.backend {
            Backend::Bubblewrap(b) => b.execute(&spec),
            Backend::User(u) | Backend::Landlock(u) => u.execute(&spec),
        };
        drop(cgroup);
        result
    }
}

/// One run as a backend gets it: what to run, its limits, and what it
/// shows; each backend's `execute` takes this one value.
pub(crate) struct RunSpec<'a> {
    /// The sandbox (its limits, uid, read-only folders, home).
    pub(crate) sandbox: &'a Sandbox,
    /// What the program sees, read-only, at their inside paths.
    pub(crate) binds: &'a [Bind],
    /// Where the program starts, as it sees it.
    pub(crate) chdir: &'a Path,
    /// The run's own host folder ([`Run`]'s).
    pub(crate) dir: &'a Path,
    /// What to run: `sh -c shell`.
    pub(crate) shell: &'a str,
    /// The run's CPU and wall limits.
    pub(crate) time: TimeLimits,
    /// The most bytes of standard output kept.
    pub(crate) max_output: usize,
    /// The run's memory cgroup, where one was made.
    pub(crate) cgroup: Option<&'a cgroup::Child>,
}

impl RunSpec<'_> {
    /// Where `inside` is under the run's own folder (the user backend's
    /// view; [`Run::path`] for it).
    pub(crate) fn in_dir(&self, inside: &Path) -> PathBuf {
        let rel = inside.strip_prefix("/").unwrap_or(inside);
        self.dir.join(rel)
    }
}
