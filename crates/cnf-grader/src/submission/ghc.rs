//! Finding GHC, and what a failed compilation reports.
//!
//! Decisions:
//! - `--ghc NAME` is looked up on `PATH` once, and the absolute path is
//!   what every compilation runs, so the sandbox (whose `PATH` is only the
//!   system's) runs the same GHC; with the sandbox on, the version check
//!   itself runs inside it, so a GHC the sandbox cannot see is refused
//!   before any student is graded;
//! - each part is compiled with `-O0` (grading needs correct output, not
//!   speed, and `-O0` compiles several times faster), `-i -i.` (modules
//!   only from the submission) and its own `-outputdir` in its scratch
//!   folder, so parallel builds never share an object file;
//! - the executable is linked with `-with-rtsopts=-M1g`: a student program
//!   whose heap passes 1 GiB stops ("heap exhausted", a non-zero exit)
//!   before the sandbox's address-space limit is reached;
//! - a compilation fails when GHC exits non-zero, runs past the limit, or
//!   exits 0 without writing the executable (a part file that is not a
//!   `Main` module); the report keeps the first [`ERROR_LINES`] lines of
//!   what GHC said.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::harness::exec::{Outcome, shell_quote};
use crate::submission::sandbox::Sandbox;

/// Lines of GHC's error kept for the report.
pub const ERROR_LINES: usize = 20;

/// A GHC found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ghc {
    /// The command that runs it (`ghc`, or the path given by `--ghc`).
    pub path: PathBuf,
    /// Its version, e.g. `9.0.2`.
    pub version: String,
}

/// Why GHC cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum GhcError {
    /// Occurs when the GHC command cannot be run at all.
    #[error(
        "cannot run GHC `{path}`: {reason}; install it with `apt-get install ghc` (Debian, Ubuntu) \
         or from https://www.haskell.org/ghcup/, or give its path with --ghc PATH"
    )]
    NotFound {
        /// The command tried.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// Occurs when GHC does not run inside the sandbox.
    #[error(
        "GHC `{path}` does not run inside the sandbox ({said}); the sandbox shows only /usr, \
         /etc, /opt and /var/lib/ghc of the system: add --sandbox-ro DIR for the folder GHC \
         is installed in"
    )]
    NotInSandbox {
        /// The GHC tried.
        path: PathBuf,
        /// What it said.
        said: String,
    },
    /// Occurs when the command runs but does not answer `--numeric-version`.
    #[error("`{path} --numeric-version` failed ({reason}); is it GHC?")]
    NotGhc {
        /// The command tried.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
}

impl Ghc {
    /// Checks that `path` runs GHC and reads its version; a bare name is
    /// looked up on `PATH`. With a sandbox, GHC is asked inside it.
    pub fn find(path: &Path, sandbox: Option<&Sandbox>) -> Result<Ghc, GhcError> {
        let resolved = if path.components().count() > 1 {
            let resolved = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
            if !resolved.is_file() {
                return Err(GhcError::NotFound {
                    path: path.to_owned(),
                    reason: "no such file".to_owned(),
                });
            }
            resolved
        } else {
            std::env::var_os("PATH")
                .and_then(|dirs| {
                    std::env::split_paths(&dirs)
                        .map(|d| d.join(path))
                        .find(|p| p.is_file())
                })
                .ok_or_else(|| GhcError::NotFound {
                    path: path.to_owned(),
                    reason: "not found on PATH".to_owned(),
                })?
        };
        let out = match sandbox {
            None => Command::new(&resolved).arg("--numeric-version").output(),
            Some(sandbox) => sandbox
                .command(
                    &[],
                    Path::new("/"),
                    &format!(
                        "exec {} --numeric-version",
                        shell_quote(&resolved.to_string_lossy())
                    ),
                    Duration::from_secs(60),
                )
                .stdin(Stdio::null())
                .output(),
        }
        .map_err(|e| GhcError::NotFound {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if !out.status.success() || version.is_empty() {
            let said = String::from_utf8_lossy(&out.stderr).trim().to_owned();
            return Err(match sandbox {
                Some(_) => GhcError::NotInSandbox {
                    path: resolved,
                    said,
                },
                None => GhcError::NotGhc {
                    path: path.to_owned(),
                    reason: format!("{}", out.status),
                },
            });
        }
        Ok(Ghc {
            path: resolved,
            version,
        })
    }
}

/// The report of a compilation that did not end with an executable.
pub fn compile_error(outcome: Outcome, stderr: &str, timeout: Duration) -> CompileError {
    let output = first_lines(stderr);
    let reason = match outcome {
        Outcome::Exited { code, .. } => format!("GHC failed (exit code {code})"),
        Outcome::Signaled(signal) => {
            format!(
                "GHC was killed by {}",
                crate::harness::exec::signal_name(signal)
            )
        }
        Outcome::TimedOut => format!(
            "GHC ran past the {} compile time limit and was killed",
            crate::harness::units::show_duration(timeout)
        ),
        Outcome::OverCap => "GHC printed more than the executable's size limit".to_owned(),
        Outcome::SpawnFailed(message) => message,
    };
    CompileError { reason, output }
}

/// Why a part did not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// One sentence.
    pub reason: String,
    /// The first lines of what GHC said.
    pub output: String,
}

/// The first [`ERROR_LINES`] lines of `text`, with a note when some were
/// left out. Leading blank lines (GHC starts its errors with one) are left out.
pub fn first_lines(text: &str) -> String {
    first_n_lines(text, ERROR_LINES)
}

fn first_n_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().skip_while(|l| l.trim().is_empty()).collect();
    let mut out = lines[..lines.len().min(n)].join("\n");
    if lines.len() > n {
        out.push_str(&format!("\n[... {} more lines]", lines.len() - n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_lines_keeps_n_and_says_how_many_more() {
        assert_eq!(first_n_lines("a\nb\nc\n", 2), "a\nb\n[... 1 more lines]");
        assert_eq!(first_n_lines("\n \na\nb\n", 2), "a\nb");
    }

    #[test]
    fn a_missing_ghc_says_how_to_install_it() {
        let err = Ghc::find(Path::new("/no/such/ghc"), None).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("apt-get install ghc"), "{text}");
        assert!(text.starts_with("cannot run GHC `/no/such/ghc`"), "{text}");
    }
}
