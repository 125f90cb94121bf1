//! The `Sandbox`: probing this machine for the best backend that works,
//! describing what it does not hold, and checking what a run may see.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::{
    BackendKind, Bind, Config, Limits, Outcome, Run, SYSTEM_DIRS, SandboxError, check_uid,
    running_as_root,
};
use crate::{bwrap, cgroup, user};

/// The backend chosen, with what it found when probing.
#[derive(Debug, Clone)]
pub(crate) enum Backend {
    Bubblewrap(bwrap::Bwrap),
    User(user::UserBackend),
    Landlock(user::UserBackend),
}

/// A sandbox configuration, checked to work on this machine.
#[derive(Debug, Clone)]
pub struct Sandbox {
    pub(crate) backend: Backend,
    /// The limits of each run.
    pub limits: Limits,
    /// Extra host paths shown read-only at the same path (canonical).
    pub(crate) read_only: Vec<PathBuf>,
    /// Paths never shown (canonical).
    pub(crate) protected: Vec<PathBuf>,
    /// See [`Config::protect_working_folder`].
    pub(crate) protect_working_folder: bool,
    /// The user id runs use (`None`: the grader's own user); the user
    /// backend leases one per run from `uid_base` on.
    pub uid: Option<u32>,
    pub(crate) uid_base: u32,
    pub(crate) cgroup: Option<Arc<cgroup::Parent>>,
    /// The user id leased for one party's runs ([`Sandbox::for_one_party`]),
    /// held until the last copy of this sandbox is dropped.
    party: Option<Arc<crate::lease::Lease>>,
    /// The sandbox's own folder: scratch folders, input copies, run roots.
    pub(crate) home: Arc<Home>,
}

/// The sandbox's own folder (`cnf-sandbox-XXXXXX`), holding the lock file
/// [`HOME_LOCK`] while this grader lives: removed when dropped, or by the
/// next grader to start in the same place if this one is killed.
#[derive(Debug)]
pub(crate) struct Home {
    /// Dropped first: the folder goes before its lock is given back.
    dir: tempfile::TempDir,
    _lock: fs::File,
}

impl Home {
    /// Its path.
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A new folder in `parent`, locked, after removing those there that
    /// killed graders left (their lock free).
    fn new(parent: &Path) -> std::io::Result<Home> {
        remove_stale_homes(parent);
        let dir = tempfile::Builder::new()
            .prefix(HOME_PREFIX)
            .tempdir_in(parent)?;
        {
            use std::os::unix::fs::PermissionsExt as _;
            // Other users (the sandbox's) pass through, and list nothing.
            fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711))?;
        }
        // Locked before it has its name, so no other grader ever sees it
        // unlocked.
        let new = dir.path().join(".grader-new");
        let lock = crate::locks::lock_at(&new)?
            .ok_or_else(|| std::io::Error::other("cannot lock the sandbox's new folder"))?;
        fs::rename(&new, dir.path().join(HOME_LOCK))?;
        Ok(Home { dir, _lock: lock })
    }
}

/// The start of the name of a sandbox's own folder.
const HOME_PREFIX: &str = "cnf-sandbox-";

/// The lock file in a sandbox's own folder.
const HOME_LOCK: &str = ".grader";

/// Removes the sandbox folders in `parent` that graders killed before
/// their end left: this user's, holding [`HOME_LOCK`] with no live holder.
/// A live grader's, and folders without the lock (a grader that takes
/// none), are left alone.
fn remove_stale_homes(parent: &Path) {
    use std::os::unix::fs::MetadataExt as _;
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    let me = rustix::process::geteuid().as_raw();
    for e in entries.flatten() {
        let path = e.path();
        if !e.file_name().to_string_lossy().starts_with(HOME_PREFIX)
            || !fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir() && m.uid() == me)
        {
            continue;
        }
        let lock = path.join(HOME_LOCK);
        if !fs::symlink_metadata(&lock).is_ok_and(|m| m.is_file()) {
            continue;
        }
        if let Ok(Some(_held)) = crate::locks::lock_at(&lock) {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

impl Sandbox {
    /// Probes the backends (best first, or only `config.backend`), checks
    /// that a run can be made, and keeps the limits and paths.
    pub fn new(config: Config) -> Result<Sandbox, SandboxError> {
        let root = running_as_root();
        if root {
            check_uid(config.uid)?;
        }
        let read_only = config
            .read_only
            .iter()
            .map(|p| {
                fs::canonicalize(p).map_err(|source| SandboxError::ReadOnlyPath {
                    path: p.clone(),
                    source,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let protected: Vec<PathBuf> = config
            .protected
            .iter()
            .filter_map(|p| fs::canonicalize(p).ok())
            .collect();
        let home_parent = config.home.clone().unwrap_or_else(std::env::temp_dir);
        let home = Home::new(&home_parent)?;
        let mut sandbox = Sandbox {
            backend: Backend::Landlock(user::UserBackend::default()),
            limits: config.limits.clone(),
            read_only,
            protected,
            uid: None,
            uid_base: config.uid,
            cgroup: cgroup::Parent::find().map(Arc::new),
            party: None,
            home: Arc::new(home),
            protect_working_folder: config.protect_working_folder,
        };
        for dir in sandbox.visible_roots() {
            sandbox.check_visible(&dir)?;
        }
        let kinds: Vec<BackendKind> = match config.backend {
            Some(kind) => vec![kind],
            None => BackendKind::ALL.to_vec(),
        };
        let mut tried = Vec::new();
        for kind in kinds {
            let probed = match kind {
                BackendKind::Bubblewrap => bwrap::Bwrap::probe().map(Backend::Bubblewrap),
                BackendKind::User if !root => {
                    Err("this process does not run as root, so it cannot switch users".to_owned())
                }
                BackendKind::User => {
                    user::UserBackend::probe(true, config.landlock).map(Backend::User)
                }
                BackendKind::Landlock => {
                    user::UserBackend::probe(false, config.landlock).map(Backend::Landlock)
                }
            };
            let backend = match probed {
                Ok(b) => b,
                Err(said) => {
                    tried.push(format!("  {}: {said}", kind.name()));
                    continue;
                }
            };
            sandbox.uid = match kind {
                BackendKind::Landlock => None,
                _ => root.then_some(config.uid),
            };
            sandbox.backend = backend;
            if let Some(uid) = sandbox.uid {
                check_reachable(&home_parent, uid)?;
                // What graders killed mid-run left: their run folders and
                // the processes of the ids they had leased.
                crate::run::remove_stale_runs(Path::new(crate::USER_ROOT));
                let shared = match &sandbox.backend {
                    Backend::User(u) => u.shared.clone(),
                    _ => user::SHARED_TMP
                        .iter()
                        .map(PathBuf::from)
                        .filter(|p| p.is_dir())
                        .collect(),
                };
                crate::lease::sweep(config.uid + 1, crate::UID_RANGE - 1, &shared);
            }
            match sandbox.try_run(&[], None) {
                Ok(()) => {
                    if kind != BackendKind::Bubblewrap {
                        // Only bubblewrap can cover a protected path inside
                        // a shown folder.
                        for shown in &sandbox.read_only {
                            if let Some(p) = sandbox.protected.iter().find(|p| p.starts_with(shown))
                            {
                                return Err(SandboxError::Exposes {
                                    visible: shown.clone(),
                                    protected: p.clone(),
                                });
                            }
                        }
                        sandbox.check_protected()?;
                    }
                    return Ok(sandbox);
                }
                Err(said) => tried.push(format!("  {}: a test run failed: {said}", kind.name())),
            }
        }
        match config.backend {
            Some(kind) => Err(SandboxError::Unavailable {
                backend: kind.name(),
                said: tried
                    .join("; ")
                    .trim_start()
                    .trim_start_matches(&format!("{}: ", kind.name()))
                    .to_owned(),
            }),
            None => Err(SandboxError::NoBackend {
                tried: tried.join("\n"),
            }),
        }
    }

    /// The backend in use.
    pub fn kind(&self) -> BackendKind {
        match self.backend {
            Backend::Bubblewrap(_) => BackendKind::Bubblewrap,
            Backend::User(_) => BackendKind::User,
            Backend::Landlock(_) => BackendKind::Landlock,
        }
    }

    /// What the backend lacks compared with a recent bubblewrap, one short
    /// phrase each (empty: nothing).
    pub fn weaker(&self) -> Vec<String> {
        let mut out = match &self.backend {
            Backend::Bubblewrap(b) => b.weaker(),
            Backend::User(u) | Backend::Landlock(u) => u.weaker(self.kind()),
        };
        if self.cgroup.is_none() {
            out.push(
                "memory and CPU of the run summed from /proc every 50 ms (no cgroup)".to_owned(),
            );
        }
        out
    }

    /// The backend and what is weaker, for provenance: e.g. `bubblewrap
    /// 0.8.0, memory cgroup` or `user (uid 1900000000), no Landlock: …`.
    pub fn description(&self) -> String {
        let mut head = match &self.backend {
            Backend::Bubblewrap(b) => format!("bubblewrap {}", b.version),
            Backend::User(_) => "user".to_owned(),
            Backend::Landlock(u) => format!("landlock ABI {}", u.landlock_abi),
        };
        if let Backend::User(u) = &self.backend
            && u.landlock_abi > 0
        {
            head.push_str(&format!(" + landlock ABI {}", u.landlock_abi));
        }
        if let Some(c) = &self.cgroup {
            head.push_str(&format!(", memory cgroup {}", c.version()));
        }
        let weaker = self.weaker();
        if weaker.is_empty() {
            head
        } else {
            format!("{head}; weaker: {}", weaker.join(", "))
        }
    }

    /// The same sandbox without a cgroup, as on a machine where none can
    /// be made (Gradescope's Docker): memory bounded per process, CPU time
    /// read from `/proc`. To check a setup for such a machine, and to test.
    pub fn without_cgroup(&self) -> Sandbox {
        let mut copy = self.clone();
        copy.cgroup = None;
        copy
    }

    /// The same sandbox for the runs of one party (one student, say),
    /// apart from every other party's. Where all runs would switch to one
    /// fixed user id (bubblewrap as root), the party gets a user id of its
    /// own, the first free and clean one (no process, no System V object,
    /// nothing in [`crate::user::SHARED_TMP`]; what a past run left is
    /// removed first) of the ids after the configured one, below
    /// [`crate::user::LEASE_OFFSET`] above it (the configured id itself is
    /// the one this sandbox's own runs use, unleased), leased through a
    /// lock file against every
    /// grader on this machine and held until the last copy of the
    /// returned sandbox is dropped: two parties never share an id, so
    /// neither per-user limits (`RLIMIT_NPROC`) nor files that user owns
    /// are shared between them, whichever process runs them. The user
    /// backend already leases an id per run, and a sandbox that does not
    /// switch users has none to give: both come back as they are.
    pub fn for_one_party(&self) -> Result<Sandbox, SandboxError> {
        if !matches!(self.backend, Backend::Bubblewrap(_)) || self.uid.is_none() {
            return Ok(self.clone());
        }
        let (first, count) = (self.uid_base + 1, crate::lease::LEASE_OFFSET - 1);
        let shared: Vec<PathBuf> = user::SHARED_TMP
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.is_dir())
            .collect();
        let lease = crate::lease::Lease::take_from(first, count, &shared)
            .ok_or(SandboxError::IdsInUse { first, count })?;
        let mut copy = self.clone();
        copy.uid = Some(lease.uid);
        copy.party = Some(Arc::new(lease));
        Ok(copy)
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

    /// With the user backend and no Landlock: refuses when the sandbox's
    /// user could read a protected path or, with
    /// [`Config::protect_working_folder`], the working folder (a grader's
    /// may hold an earlier gradebook), naming the `chmod` that fixes it.
    /// The working folder is left out when it is `/` or a world-writable
    /// folder such as `/tmp` (which nobody keeps a gradebook in by intent).
    pub fn check_protected(&self) -> Result<(), SandboxError> {
        match (&self.backend, self.uid) {
            (Backend::User(u), Some(uid)) if u.landlock_abi == 0 => {
                let mut paths = self.protected.clone();
                if self.protect_working_folder
                    && let Ok(cwd) = std::env::current_dir()
                {
                    use std::os::unix::fs::PermissionsExt as _;
                    let shared =
                        fs::metadata(&cwd).is_ok_and(|m| m.permissions().mode() & 0o002 != 0);
                    if cwd != Path::new("/") && !shared {
                        paths.push(cwd);
                    }
                }
                user::check_unreadable(&paths, uid, self.home.path())
            }
            _ => Ok(()),
        }
    }

    /// Whether two runs at once are kept apart from each other. Not with the
    /// user backend without Landlock: each run has its own uid, but both
    /// may write world-writable folders such as `/tmp` while they are
    /// alive, so a file one leaves there (mode 0666) can be read by the
    /// other before the cleanup after each run removes it. Callers that run
    /// different parties' programs (different students) must then run them
    /// one at a time.
    pub fn separates_concurrent_runs(&self) -> bool {
        !matches!(&self.backend, Backend::User(u) if u.landlock_abi == 0)
    }

    /// Whether the programs under test can read other processes' command
    /// lines (`/proc/PID/cmdline`): with the user backend and no Landlock.
    pub fn shows_command_lines(&self) -> bool {
        matches!(&self.backend, Backend::User(u) if u.landlock_abi == 0)
    }

    /// Where [`Sandbox::shows_command_lines`]: blanks this process's own
    /// arguments after the program name in its memory, which is what
    /// `/proc/PID/cmdline` shows other users, so no class or fixture path
    /// given to the grader can be read there. Call it once the arguments
    /// are parsed: `std::env::args` then gives empty strings.
    pub fn hide_command_line(&self) -> std::io::Result<()> {
        if !self.shows_command_lines() {
            return Ok(());
        }
        // Fields 48 and 49 of /proc/self/stat (Linux 3.5).
        let stat = fs::read_to_string("/proc/self/stat")?;
        let (_, rest) = stat
            .rsplit_once(") ")
            .ok_or_else(|| std::io::Error::other("/proc/self/stat unreadable"))?;
        let f: Vec<&str> = rest.split_ascii_whitespace().collect();
        let field = |n: usize| -> std::io::Result<usize> {
            f.get(n - 3)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| std::io::Error::other("/proc/self/stat has no argument area"))
        };
        let (start, end) = (field(48)?, field(49)?);
        if start == 0 || end <= start {
            return Ok(());
        }
        let len = end - start;
        // SAFETY: [start, end) is this process's own argument area, mapped
        // and writable for its whole life (the kernel put argv there);
        // nothing holds a Rust reference into it.
        unsafe {
            let area = std::slice::from_raw_parts_mut(start as *mut u8, len);
            let first = area.iter().position(|b| *b == 0).map_or(len, |i| i + 1);
            area[first..].fill(0);
        }
        Ok(())
    }

    /// Checks that a run with these binds can be made (a user-switching
    /// sandbox's user must reach every bound path).
    pub fn check_binds(&self, binds: &[Bind], chdir: &Path) -> Result<(), SandboxError> {
        self.try_run(binds, Some(chdir))
            .map_err(|said| SandboxError::Unavailable {
                backend: self.kind().name(),
                said,
            })
    }

    fn try_run(&self, binds: &[Bind], chdir: Option<&Path>) -> Result<(), String> {
        let mut run = self.run().map_err(|e| e.to_string())?;
        for b in binds {
            run.bind(b.clone());
        }
        if let Some(dir) = chdir {
            run.chdir(dir);
        }
        let cmd = match chdir {
            Some(_) => "cd . && exit 0",
            None => "exit 0",
        };
        let r = run.execute(cmd, Duration::from_secs(20), 4096);
        match r.outcome {
            Outcome::Exited { code: 0, .. } => Ok(()),
            Outcome::CouldNotStart(why) => Err(why),
            other => {
                let said = r.stderr.trim();
                Err(if said.is_empty() {
                    format!("{other:?}")
                } else {
                    said.to_owned()
                })
            }
        }
    }

    /// Starts describing one run: its binds, working folder and input.
    pub fn run(&self) -> std::io::Result<Run<'_>> {
        Run::new(self)
    }
}

/// Refuses when user `uid` (no groups) could not pass through every folder
/// from `/` to `folder`: bubblewrap could not bind a file from there
/// ("Can't find source path …: Permission denied" on every run), and the
/// user backend would give its runs files it made from a folder their
/// user cannot reach.
pub(crate) fn check_reachable(folder: &Path, uid: u32) -> Result<(), SandboxError> {
    use std::os::unix::fs::MetadataExt as _;
    let folder = fs::canonicalize(folder).unwrap_or_else(|_| folder.to_owned());
    for dir in folder.ancestors().collect::<Vec<_>>().into_iter().rev() {
        let Ok(m) = fs::metadata(dir) else { continue };
        let mode = m.mode() & 0o7777;
        let passes = if m.uid() == uid {
            mode & 0o100 != 0
        } else if m.gid() == uid {
            mode & 0o010 != 0
        } else {
            mode & 0o001 != 0
        };
        if !passes {
            return Err(SandboxError::Unreachable {
                uid,
                folder: folder.clone(),
                blocking: dir.to_owned(),
                mode,
            });
        }
    }
    Ok(())
}
