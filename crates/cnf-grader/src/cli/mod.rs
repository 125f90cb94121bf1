//! The `cnf-grader` binary's own modules: its flags, its subcommands, and
//! how it writes reports. Each subcommand parses, calls the library, prints.

pub(crate) mod args;
pub(crate) mod fixtures;
pub(crate) mod grade;
pub(crate) mod inert;
pub(crate) mod merge;
pub(crate) mod output;
pub(crate) mod similarity;
pub(crate) mod submission;

use std::process::ExitCode;

use cnf_grader::sandbox::SandboxError;

/// Why a command could not do its work: the one error of every
/// subcommand, printed once by `main` (escaped: a message may quote a
/// name from outside) with the exit code of [`Error::code`]. A command
/// that checked and found failures returns `Ok` with exit code 1.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// Bad input or usage: what is wrong, where, and what would be valid.
    #[error("{0}")]
    Usage(String),
    /// The sandbox cannot be used; the message adds the flags that change it.
    #[error("{}", sandbox_message(.0))]
    Sandbox(#[from] SandboxError),
    /// The grader's own failure kept the submission from being graded
    /// (`not graded: REASON`): no grade, exit code 3.
    #[error("{0}")]
    NotGraded(String),
}

/// The exit code of a run in which some student could not be graded
/// because of the grader's own failure (a full disk, a sandbox that could
/// not start): no grade was given them; fix it and grade again.
pub(crate) const NOT_GRADED: u8 = 3;

impl Error {
    /// The process's exit code for this error: 2 (bad input, usage, or a
    /// machine that cannot run the command as asked), 3 ([`NOT_GRADED`]).
    pub(crate) fn code(&self) -> ExitCode {
        match self {
            Error::Usage(_) | Error::Sandbox(_) => ExitCode::from(2),
            Error::NotGraded(_) => ExitCode::from(NOT_GRADED),
        }
    }
}

impl From<String> for Error {
    fn from(message: String) -> Self {
        Error::Usage(message)
    }
}

/// What to do instead when the sandbox cannot run the programs.
const NO_SANDBOX: &str = "or run with --no-sandbox (student programs then run with your rights)";

/// A sandbox error in the grader's terms: its flags, and what the
/// protected paths are.
fn sandbox_message(e: &SandboxError) -> String {
    match e {
        SandboxError::NoBackend { .. } => format!("{e}; {NO_SANDBOX}"),
        SandboxError::Unavailable { backend, said } => format!(
            "cannot set up the sandbox: the {backend} backend does not work here: {said}; leave \
             --sandbox-backend out to take the best that works, {NO_SANDBOX}"
        ),
        SandboxError::Exposes { visible, protected } => format!(
            "{} would be visible to the programs under test, but it is inside {}, which they \
             must not see (fixtures with their .solution files, the class, or the grader's own \
             files); move one of them",
            visible.display(),
            protected.display()
        ),
        SandboxError::ReadOnlyPath { path, source } => {
            format!("--sandbox-ro {}: {source}", path.display())
        }
        SandboxError::BadUid { uid, problem } => format!("--sandbox-uid {uid}: {problem}"),
        other => other.to_string(),
    }
}
