//! What a sandbox is built from: its configuration, the backends to choose
//! from, and why one cannot be used.

use std::path::PathBuf;

#[cfg(doc)]
use crate::Sandbox;
use crate::{DEFAULT_UID, Limits, UID_RANGE};

/// The backends, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// bubblewrap namespaces.
    Bubblewrap,
    /// A fresh unprivileged user id (root grader without namespaces).
    User,
    /// Landlock, seccomp and rlimits as the grader's own user.
    Landlock,
}

impl BackendKind {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Bubblewrap => "bubblewrap",
            BackendKind::User => "user",
            BackendKind::Landlock => "landlock",
        }
    }

    /// Every backend, best first.
    pub const ALL: [BackendKind; 3] = [
        BackendKind::Bubblewrap,
        BackendKind::User,
        BackendKind::Landlock,
    ];
}

impl std::str::FromStr for BackendKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        BackendKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown sandbox backend {s:?}; the backends are bubblewrap, user, landlock"
                )
            })
    }
}

/// Why the sandbox cannot be used. The messages speak of processes,
/// paths, user ids and limits only; a front end adds its own flag names.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// Occurs when no backend works here.
    #[error(
        "cannot set up the sandbox: no backend works on this machine:\n{tried}\n\
         bubblewrap needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, \
         or user.max_user_namespaces > 0; inside a container, a seccomp profile that allows \
         unshare) and `apt-get install bubblewrap`; the user backend needs this process to run \
         as root; the landlock backend needs a kernel with Landlock (5.13 or newer, enabled)"
    )]
    NoBackend {
        /// What each backend said, one line each.
        tried: String,
    },
    /// Occurs when the backend asked for does not work here.
    #[error("cannot set up the sandbox: the {backend} backend does not work here: {said}")]
    Unavailable {
        /// The backend.
        backend: &'static str,
        /// Why.
        said: String,
    },
    /// Occurs when a visible path would show a protected one.
    #[error(
        "{visible} would be visible to the sandboxed programs, but it is inside {protected}, \
         which is protected from them; move one of them"
    )]
    Exposes {
        /// The path that would be shown.
        visible: PathBuf,
        /// The protected path it holds or lies in.
        protected: PathBuf,
    },
    /// Occurs when the sandbox's user could read a protected path.
    #[error(
        "the sandbox's user (uid {uid}) could read {paths}, which the sandboxed programs must \
         not see (this kernel has no Landlock to hide them); make them unreadable to other users \
         with\n    {chmod}\nand try again"
    )]
    Readable {
        /// The user id.
        uid: u32,
        /// The paths, comma-separated.
        paths: String,
        /// The command that fixes it.
        chmod: String,
    },
    /// Occurs when a path to show read-only does not exist.
    #[error("read-only path {path}: {source}")]
    ReadOnlyPath {
        /// The path given.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Occurs when the first user id of the runs is not usable.
    #[error("user id {uid}: {problem}")]
    BadUid {
        /// The id given.
        uid: u32,
        /// What is wrong with it.
        problem: UidProblem,
    },
    /// Occurs when every user id a party's runs could use is held by
    /// another party, in this process or another on this machine, or still
    /// has what an earlier run left (a process that cannot be killed).
    #[error(
        "all {count} user ids from {first} on are in use by other runs on this machine or \
         still have what an earlier run left; wait for them to end or give another first id"
    )]
    IdsInUse {
        /// The first id of the range.
        first: u32,
        /// How many ids the range holds.
        count: u32,
    },
    /// Occurs when the user the runs switch to could not reach the
    /// sandbox's own folder (every file a run is shown comes from there):
    /// a folder on the way lets no other user pass.
    #[error(
        "the sandbox's user (uid {uid}) cannot reach {folder}, where the sandbox keeps its files: {blocking} \
         (mode {mode:04o}) lets no other user pass; set TMPDIR to a folder every user may pass \
         through (e.g. TMPDIR=/tmp), or let them pass with\n    chmod o+x {blocking}\nand try \
         again"
    )]
    Unreachable {
        /// The user id.
        uid: u32,
        /// Where the sandbox's own folder is made ([`Config::home`], or
        /// `TMPDIR`).
        folder: PathBuf,
        /// The first folder on the way the user cannot pass.
        blocking: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// Occurs when the sandbox's own folder cannot be made.
    #[error("cannot set up the sandbox's folder: {0}")]
    Io(#[from] std::io::Error),
}

/// Why a first user id of the runs is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UidProblem {
    /// Occurs when it is root's.
    #[error("that is root; give an unprivileged id no account uses, e.g. {DEFAULT_UID}")]
    Root,
    /// Occurs when its range reaches the largest id.
    #[error(
        "too large: the sandbox uses the {UID_RANGE} ids from it on, and 4294967295 means \
         \"no id\" to the kernel; give an id below {below}, e.g. {DEFAULT_UID}"
    )]
    TooLarge {
        /// The first id refused.
        below: u32,
    },
    /// Occurs when an account or group has an id in its range.
    #[error("{}", taken(*.id == *.first, .what, .db, .name, *.id))]
    Taken {
        /// The id given.
        first: u32,
        /// `user` or `group`.
        what: &'static str,
        /// The name service's database: `passwd` or `group`.
        db: &'static str,
        /// The account's name.
        name: String,
        /// The account's id.
        id: u32,
    },
}

fn taken(exact: bool, what: &str, db: &str, name: &str, id: u32) -> String {
    if exact {
        format!(
            "that id belongs to the {what} {name:?} (`getent {db}`); give an id no account \
             uses, e.g. {DEFAULT_UID}"
        )
    } else {
        format!(
            "the sandbox uses the {UID_RANGE} ids from it on, and {id} belongs to the {what} \
             {name:?} (`getent {db}`); give an id no account's is near, e.g. {DEFAULT_UID}"
        )
    }
}

/// What the sandbox is built from.
#[derive(Debug, Clone)]
pub struct Config {
    /// The limits of each run.
    pub limits: Limits,
    /// Extra host paths shown read-only at the same path.
    pub read_only: Vec<PathBuf>,
    /// Paths never shown.
    pub protected: Vec<PathBuf>,
    /// The first user id of a root grader's runs.
    pub uid: u32,
    /// The backend to use (`None`: the best that works).
    pub backend: Option<BackendKind>,
    /// Whether the user and Landlock backends use Landlock where the
    /// kernel has it (off: as on a kernel without it, e.g. to check a
    /// setup for one).
    pub landlock: bool,
    /// Where the sandbox's own folder goes (`None`: the system's temporary
    /// folder); a caller that removes a folder on Ctrl-C puts it there.
    pub home: Option<PathBuf>,
    /// Whether the user backend without Landlock also refuses a working
    /// folder its user could read (a grader's, which may hold an earlier
    /// gradebook); see [`Sandbox::check_protected`].
    pub protect_working_folder: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            limits: Limits::default(),
            read_only: Vec::new(),
            protected: Vec::new(),
            uid: DEFAULT_UID,
            backend: None,
            landlock: true,
            home: None,
            protect_working_folder: false,
        }
    }
}
