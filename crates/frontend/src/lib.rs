//! The one front-end convention of the workspace's binaries (`cnf-grader`,
//! `part01`…`part04`, `mastermind`, `peg`), in one place.
//!
//! `main` calls `run() -> Result<ExitCode, Failure>` and hands the result
//! to [`finish`], the only place that turns an error into an exit code:
//! 0 success, 1 checked and found failures (returned as `Ok`), 2 bad input,
//! usage or I/O. Every message goes to standard error once, after the one
//! prefix [`PREFIX`] (the same as clap's own usage errors). A closed pipe
//! on standard output ends the program quietly with 0, as `head` expects.
//! Colour is chosen with `--color auto|always|never` ([`ColorWhen`]);
//! `auto` honours `NO_COLOR` and `CLICOLOR_FORCE` and colours terminals only.
#![deny(missing_docs)]

use std::io::{self, Write};
use std::process::ExitCode;

/// What every error message starts with.
pub const PREFIX: &str = "error: ";

/// Why a command could not do its work.
#[derive(Debug)]
pub enum Failure {
    /// Bad input or usage: the message says what, where, and what is valid.
    Usage(String),
    /// Reading or writing failed.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Usage(message)
    }
}

/// The message of an error as printed: [`PREFIX`] and the text, one line
/// per line of the text; `None` for a closed pipe (nothing is printed).
pub fn message(failure: &Failure) -> Option<String> {
    match failure {
        Failure::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => None,
        Failure::Io(e) => Some(format!("{PREFIX}{e}")),
        Failure::Usage(text) => Some(format!("{PREFIX}{text}")),
    }
}

/// The exit code of a run, printing its error (if any) on standard error.
pub fn finish(result: Result<ExitCode, Failure>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(failure) => match message(&failure) {
            None => ExitCode::SUCCESS,
            Some(text) => {
                let _ = writeln!(io::stderr(), "{text}");
                ExitCode::from(2)
            }
        },
    }
}

/// When to colour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// The choice for a stream.
    pub fn choice(self) -> anstream::ColorChoice {
        match self {
            ColorWhen::Auto => anstream::ColorChoice::Auto,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        }
    }

    /// Whether text written to standard output is to be coloured.
    pub fn for_stdout(self) -> bool {
        !matches!(
            anstream::AutoStream::new(io::stdout(), self.choice()).current_choice(),
            anstream::ColorChoice::Never
        )
    }
}

/// Writes `text` to standard output, stripping colour codes unless `color`
/// allows them there.
pub fn write_stdout(text: &str, color: ColorWhen) -> Result<(), Failure> {
    let mut out = anstream::AutoStream::new(io::stdout().lock(), color.choice());
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_the_prefix_and_a_closed_pipe_is_quiet() {
        assert_eq!(
            message(&Failure::Usage("bad --pegs 9: expected 1-8".into())).as_deref(),
            Some("error: bad --pegs 9: expected 1-8")
        );
        let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
        assert_eq!(message(&Failure::Io(pipe)), None);
        let full = io::Error::other("No space left on device");
        assert_eq!(
            message(&Failure::Io(full)).as_deref(),
            Some("error: No space left on device")
        );
    }

    #[test]
    fn exit_codes() {
        assert_eq!(finish(Ok(ExitCode::from(1))), ExitCode::from(1));
        assert_eq!(finish(Err(Failure::Usage("x".into()))), ExitCode::from(2));
        let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
        assert_eq!(finish(Err(Failure::Io(pipe))), ExitCode::SUCCESS);
    }
}
