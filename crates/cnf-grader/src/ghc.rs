//! Finding GHC and compiling one part of a submission with it.
//!
//! Decisions:
//! - GHC is run through `sh -c` by [`crate::exec::run_command_in`], so a
//!   compilation has the same time limit, output cap and process-group kill
//!   as a program under test; `ulimit -t` also caps its CPU time, so a
//!   compiler left behind by an interrupted grader stops by itself;
//! - each part is compiled in its own folder with `-O0` (grading needs
//!   correct output, not speed, and `-O0` compiles several times faster),
//!   `-i -i.` (modules only from that folder) and its own `-outputdir`, so
//!   parallel builds never share an object file; `TMPDIR` is that
//!   folder's `tmp/`, so what GHC and the C compiler leave behind when
//!   killed is removed with the build folder;
//! - the executable is linked with `-with-rtsopts=-M1g`: a student program
//!   whose heap passes 1 GiB stops ("heap exhausted", a non-zero exit)
//!   instead of filling the shared machine's memory within its time limit
//!   (`ulimit -v` cannot do this: GHC's runtime reserves a terabyte of
//!   address space at start);
//! - a compilation fails when GHC exits non-zero, runs past the limit, or
//!   exits 0 without writing the executable (a part file that is not a
//!   `Main` module); the report keeps the first [`ERROR_LINES`] lines of
//!   what GHC said.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::exec::{Outcome, run_command_in, shell_quote};

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
    /// Checks that `path` runs GHC and reads its version.
    pub fn find(path: &Path) -> Result<Ghc, GhcError> {
        let out = Command::new(path)
            .arg("--numeric-version")
            .output()
            .map_err(|e| GhcError::NotFound {
                path: path.to_owned(),
                reason: e.to_string(),
            })?;
        let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if !out.status.success() || version.is_empty() {
            return Err(GhcError::NotGhc {
                path: path.to_owned(),
                reason: format!("{}", out.status),
            });
        }
        Ok(Ghc {
            path: path.to_owned(),
            version,
        })
    }

    /// Compiles `dir/SOURCE` into `dir/EXE` under `timeout`.
    pub fn compile(&self, dir: &Path, source: &str, exe: &str, timeout: Duration) -> Compiled {
        let start = Instant::now();
        // A path (not a bare name looked up on PATH) is made absolute, so a
        // relative --ghc still works from `dir`.
        let ghc = if self.path.components().count() > 1 {
            std::path::absolute(&self.path).unwrap_or_else(|_| self.path.clone())
        } else {
            self.path.clone()
        };
        let command = format!(
            "ulimit -t {}; TMPDIR=\"$PWD/tmp\"; export TMPDIR; mkdir -p tmp && \
             exec {} -O0 -i -i. -outputdir obj -with-rtsopts=-M1g -o {} {}",
            timeout.as_secs() + 1,
            shell_quote(&ghc.to_string_lossy()),
            shell_quote(exe),
            shell_quote(source)
        );
        let result = run_command_in(&command, Some(dir), timeout, 1 << 20);
        let duration = start.elapsed();
        let said = |stdout: &[u8]| {
            let text = if result.stderr.trim().is_empty() {
                String::from_utf8_lossy(stdout).into_owned()
            } else {
                result.stderr.clone()
            };
            first_lines(&text, ERROR_LINES)
        };
        let error = match result.outcome {
            Outcome::Exited { code: 0, stdout } => {
                if dir.join(exe).is_file() {
                    return Compiled {
                        error: None,
                        duration,
                    };
                }
                CompileError {
                    reason: format!(
                        "GHC wrote no executable (is {source} a Main module with main?)"
                    ),
                    output: said(&stdout),
                }
            }
            Outcome::Exited { code, stdout } => CompileError {
                reason: format!("GHC failed (exit code {code})"),
                output: said(&stdout),
            },
            Outcome::Signaled(signal) => CompileError {
                reason: format!("GHC was killed by {}", crate::exec::signal_name(signal)),
                output: said(&[]),
            },
            Outcome::TimedOut => CompileError {
                reason: format!(
                    "GHC ran past the {} compile time limit and was killed",
                    crate::units::show_duration(timeout)
                ),
                output: said(&[]),
            },
            Outcome::OverCap => CompileError {
                reason: "GHC printed more than 1 MiB and was killed".to_owned(),
                output: said(&[]),
            },
            Outcome::SpawnFailed(message) => CompileError {
                reason: message,
                output: String::new(),
            },
        };
        Compiled {
            error: Some(error),
            duration,
        }
    }
}

/// Why a part did not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// One sentence.
    pub reason: String,
    /// The first lines of what GHC said.
    pub output: String,
}

/// The result of one compilation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// `None` when the executable was built.
    pub error: Option<CompileError>,
    /// Wall-clock time of the compilation.
    pub duration: Duration,
}

/// The first `n` lines of `text`, with a note when some were left out.
/// Leading blank lines (GHC starts its errors with one) are left out.
fn first_lines(text: &str, n: usize) -> String {
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
        assert_eq!(first_lines("a\nb\nc\n", 2), "a\nb\n[... 1 more lines]");
        assert_eq!(first_lines("\n \na\nb\n", 2), "a\nb");
    }

    #[test]
    fn a_missing_ghc_says_how_to_install_it() {
        let err = Ghc::find(Path::new("/no/such/ghc")).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("apt-get install ghc"), "{text}");
        assert!(text.starts_with("cannot run GHC `/no/such/ghc`"), "{text}");
    }
}
