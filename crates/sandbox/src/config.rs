//! What a sandbox is built from: its configuration, the backends to choose
//! from, and why one cannot be used.

use std::path::PathBuf;

#[cfg(doc)]
use crate::Sandbox;
use crate::{DEFAULT_UID, Limits};

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

/// Why the sandbox cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// Occurs when no backend works here.
    #[error(
        "cannot set up the sandbox: no backend works on this machine:\n{tried}\n\
         bubblewrap needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, \
         or user.max_user_namespaces > 0; inside a container, a seccomp profile that allows \
         unshare) and `apt-get install bubblewrap`; the user backend needs the grader to run as \
         root; the landlock backend needs a kernel with Landlock (5.13 or newer, enabled); or run \
         with --no-sandbox (student programs then run with your rights)"
    )]
    NoBackend {
        /// What each backend said, one line each.
        tried: String,
    },
    /// Occurs when the backend asked for does not work here.
    #[error(
        "cannot set up the sandbox: the {backend} backend does not work here: {said}; leave \
         --sandbox-backend out to take the best that works, or run with --no-sandbox (student \
         programs then run with your rights)"
    )]
    Unavailable {
        /// The backend.
        backend: &'static str,
        /// Why.
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
    /// Occurs when the sandbox's user could read a protected path.
    #[error(
        "the sandbox's user (uid {uid}) could read {paths}, which the programs under test must \
         not see (this kernel has no Landlock to hide them); make them unreadable to other users \
         with\n    {chmod}\nand grade again"
    )]
    Readable {
        /// The user id.
        uid: u32,
        /// The paths, comma-separated.
        paths: String,
        /// The command that fixes it.
        chmod: String,
    },
    /// Occurs when a `--sandbox-ro` path does not exist.
    #[error("--sandbox-ro {path}: {source}")]
    ReadOnlyPath {
        /// The path given.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Occurs when the requested user id belongs to an account or is not usable.
    #[error("{0}")]
    BadUid(String),
    /// Occurs when the sandbox's own folder cannot be made.
    #[error("cannot set up the sandbox's folder: {0}")]
    Io(#[from] std::io::Error),
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
