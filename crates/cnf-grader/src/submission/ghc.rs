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

use crate::grade::exec::{Outcome, shell_quote};
use crate::model::case::{CompileCause, CompileError};
use crate::sandbox::Sandbox;

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
         or from https://www.haskell.org/ghcup/, or give its path"
    )]
    NotFound {
        /// The command tried.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// Occurs when GHC does not run inside the sandbox.
    #[error(
        "GHC `{path}` does not run inside the sandbox: `--numeric-version` {said}, where GHC \
         prints its version (such as 9.0.2); the sandbox shows only /usr, /etc, /opt and \
         /var/lib/ghc of the system: show the sandbox the folder GHC is installed in"
    )]
    NotInSandbox {
        /// The GHC tried.
        path: PathBuf,
        /// What came back: its exit status and what it printed.
        said: String,
    },
    /// Occurs when the command runs but does not answer `--numeric-version`
    /// with a version number.
    #[error(
        "`{path} --numeric-version` {reason}, where GHC prints its version (such as 9.0.2); is it GHC?"
    )]
    NotGhc {
        /// The command tried.
        path: PathBuf,
        /// What came back: its exit status and what it printed.
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
            None => Command::new(&resolved)
                .arg("--numeric-version")
                .stdin(Stdio::null())
                .output(),
            Some(sandbox) => sandbox.run().map(|run| {
                let r = run.execute(
                    &format!(
                        "exec {} --numeric-version",
                        shell_quote(&resolved.to_string_lossy())
                    ),
                    Duration::from_secs(60),
                    4096,
                );
                use std::os::unix::process::ExitStatusExt as _;
                let (status, stdout) = match r.outcome {
                    crate::grade::exec::Outcome::Exited { code, stdout } => (
                        std::process::ExitStatus::from_raw((code & 0xff) << 8),
                        stdout,
                    ),
                    crate::grade::exec::Outcome::Signalled(n) => {
                        (std::process::ExitStatus::from_raw(n & 0x7f), Vec::new())
                    }
                    _ => (std::process::ExitStatus::from_raw(9), Vec::new()),
                };
                std::process::Output {
                    status,
                    stdout,
                    stderr: r.stderr.into_bytes(),
                }
            }),
        }
        .map_err(|e| GhcError::NotFound {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if !out.status.success() {
            let said = came_back(&out);
            return Err(match sandbox {
                Some(_) => GhcError::NotInSandbox {
                    path: resolved,
                    said,
                },
                None => GhcError::NotGhc {
                    path: path.to_owned(),
                    reason: said,
                },
            });
        }
        if !is_version(&version) {
            return Err(GhcError::NotGhc {
                path: resolved,
                reason: came_back(&out),
            });
        }
        Ok(Ghc {
            path: resolved,
            version,
        })
    }
}

/// Whether `text` is a version number: numbers joined by dots (`9.0.2`).
fn is_version(text: &str) -> bool {
    !text.is_empty()
        && text
            .split('.')
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// What a command's run came back with, in words: its exit status, its
/// first line of output and of standard error (escaped, cut at 100
/// characters).
fn came_back(out: &std::process::Output) -> String {
    let first = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        let line = text.trim().lines().next().unwrap_or("").to_owned();
        let mut shown: String = crate::escape::line(&line).chars().take(100).collect();
        if shown.len() < crate::escape::line(&line).len() {
            shown.push('…');
        }
        shown
    };
    let status = match out.status.code() {
        Some(0) => "exited 0".to_owned(),
        Some(code) => format!("exited with code {code}"),
        None => "was killed by a signal".to_owned(),
    };
    let (stdout, stderr) = (first(&out.stdout), first(&out.stderr));
    match (stdout.is_empty(), stderr.is_empty()) {
        (true, true) => format!("{status} and printed nothing"),
        (false, true) => format!("{status} and printed {stdout:?}"),
        (true, false) => format!("{status} and said {stderr:?}"),
        (false, false) => format!("{status}, printed {stdout:?} and said {stderr:?}"),
    }
}

/// The report of a compilation that did not end with an executable.
pub fn compile_error(outcome: Outcome, stderr: &str, timeout: Duration) -> CompileError {
    let cause = match outcome {
        Outcome::Exited { code, .. } => CompileCause::Exited { code },
        Outcome::Signalled(signal) => CompileCause::Signalled { signal },
        Outcome::TimeLimit(_) => CompileCause::TimeLimit { limit: timeout },
        Outcome::OutputCap => CompileCause::OutputCap,
        Outcome::MemoryLimit => CompileCause::MemoryLimit,
        Outcome::CouldNotStart(cause) => CompileCause::CouldNotStart { cause },
    };
    CompileError {
        cause,
        output: first_lines(stderr),
    }
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
    fn a_command_that_is_not_ghc_says_what_was_expected_and_what_came_back() {
        let err = Ghc::find(Path::new("/usr/bin/true"), None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`/usr/bin/true --numeric-version` exited 0 and printed nothing, where GHC prints \
             its version (such as 9.0.2); is it GHC?"
        );
        let err = Ghc::find(Path::new("/bin/echo"), None).unwrap_err();
        assert!(
            err.to_string()
                .contains("exited 0 and printed \"--numeric-version\", where GHC prints"),
            "{err}"
        );
        let err = Ghc::find(Path::new("/usr/bin/false"), None).unwrap_err();
        assert!(
            err.to_string()
                .contains("exited with code 1 and printed nothing"),
            "{err}"
        );
        assert!(is_version("9.0.2") && is_version("8.8.4") && is_version("10"));
        assert!(
            !is_version("") && !is_version("9..2") && !is_version("v9") && !is_version("9.0.2\n")
        );
    }

    #[test]
    fn a_missing_ghc_says_how_to_install_it() {
        let err = Ghc::find(Path::new("/no/such/ghc"), None).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("apt-get install ghc"), "{text}");
        assert!(text.starts_with("cannot run GHC `/no/such/ghc`"), "{text}");
    }
}
