//! The one front-end convention of the workspace's binaries (`cnf-grader`,
//! `part01`…`part04`, `mastermind`, `peg`, `connect`), in one place.
//!
//! `main` calls `run() -> Result<ExitCode, Failure>` and hands the result
//! to [`finish`], the only place that turns an error into an exit code:
//! 0 success, 1 checked and found failures (returned as `Ok`), 2 bad input,
//! usage or I/O. Every message goes to standard error once, after the one
//! prefix [`PREFIX`] (the same as clap's own usage errors). A closed pipe
//! on standard output ends the program quietly with 0, as `head` expects.
//! Colour is chosen with `--color auto|always|never` ([`ColorWhen`]);
//! `auto` honours `NO_COLOR` and `CLICOLOR_FORCE` and colours terminals only.
//!
//! The same words everywhere: a message on standard error is `error: …`
//! ([`PREFIX`]), `warning: …` ([`WARNING`], [`warn`]) or `note: …`
//! ([`NOTE`], [`note`]: what the program is doing, e.g. waiting for
//! standard input on a terminal ([`waiting_for_stdin`]) or reusing saved
//! work), never after the program's name; standard input is named
//! [`STDIN`] in located messages (`<stdin>:1:8: …`); a report format meant
//! for people is called `human` in every binary.
#![deny(missing_docs)]

pub mod input;

use std::io::{self, Write};
use std::process::ExitCode;

/// What every error message starts with.
pub const PREFIX: &str = "error: ";

/// What every warning starts with.
pub const WARNING: &str = "warning: ";

/// What every note (what the program is doing) starts with.
pub const NOTE: &str = "note: ";

/// How standard input is named in messages that give a place
/// (`<stdin>:LINE:COLUMN`).
pub const STDIN: &str = "<stdin>";

/// `text` after `prefix`, once (a text that already starts with it keeps it).
fn prefixed(prefix: &str, text: &str) -> String {
    format!("{prefix}{}", text.strip_prefix(prefix).unwrap_or(text))
}

/// The warning line for `text`: [`WARNING`] and the text.
pub fn warning_line(text: &str) -> String {
    prefixed(WARNING, text)
}

/// Prints a warning on standard error: [`WARNING`] and the text.
pub fn warn(text: &str) {
    let _ = writeln!(io::stderr(), "{}", warning_line(text));
}

/// Prints a note on standard error: [`NOTE`] and the text.
pub fn note(text: &str) {
    let _ = writeln!(io::stderr(), "{}", prefixed(NOTE, text));
}

/// The note shown before a program reads `what` from standard input, when
/// standard input is a terminal (else nothing): how to end the input, and
/// the `otherwise` way of giving it.
pub fn waiting_note(what: &str, otherwise: &str) -> String {
    format!("{NOTE}reading {what} from standard input (end it with Ctrl-D); or {otherwise}")
}

/// Prints [`waiting_note`] on standard error when standard input is a
/// terminal, so a program waiting for input never looks hung.
pub fn waiting_for_stdin(what: &str, otherwise: &str) {
    use std::io::IsTerminal as _;
    if io::stdin().is_terminal() {
        let _ = writeln!(io::stderr(), "{}", waiting_note(what, otherwise));
    }
}

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
    finish_to(result, &mut io::stderr())
}

/// [`finish`], printing the error on `errors`.
fn finish_to(result: Result<ExitCode, Failure>, errors: &mut dyn Write) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(failure) => match message(&failure) {
            None => ExitCode::SUCCESS,
            Some(text) => {
                let _ = writeln!(errors, "{text}");
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
    fn one_prefix_per_kind_of_message() {
        assert_eq!(warning_line("--no-sandbox: x"), "warning: --no-sandbox: x");
        assert_eq!(
            warning_line("warning: --no-sandbox: x"),
            "warning: --no-sandbox: x"
        );
        assert_eq!(
            waiting_note("a game", "give a file"),
            "note: reading a game from standard input (end it with Ctrl-D); or give a file"
        );
    }

    #[test]
    fn exit_codes_and_what_is_printed() {
        // Printed into a buffer: the test run's standard error stays clean.
        let mut errors = Vec::new();
        assert_eq!(
            finish_to(Ok(ExitCode::from(1)), &mut errors),
            ExitCode::from(1)
        );
        assert_eq!(errors, b"");
        let usage = Failure::Usage("bad --pegs 9".into());
        assert_eq!(finish_to(Err(usage), &mut errors), ExitCode::from(2));
        assert_eq!(String::from_utf8_lossy(&errors), "error: bad --pegs 9\n");
        errors.clear();
        let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
        assert_eq!(
            finish_to(Err(Failure::Io(pipe)), &mut errors),
            ExitCode::SUCCESS
        );
        assert_eq!(errors, b"", "a closed pipe is quiet");
    }
}
