//! A case's outcome in words: the one place every format (human, JSON,
//! JUnit, Gradescope, HTML) takes its sentence from.

use std::borrow::Cow;

use crate::format::units::{show_duration, show_size};
use crate::model::case::CompileCause;
use crate::model::case::{CaseReport, Clock, Failure, NotRun};
use crate::model::submission::{part_file, size_words};

/// What went wrong with a case, in one sentence (empty for a pass): the
/// failure put into words, or the fixture's problem for an `ERROR`.
pub fn reason(case: &CaseReport) -> Cow<'_, str> {
    match (&case.failure, &case.reason) {
        (Some(Failure::WrongOutput), _) => Cow::Owned(wrong_output(case)),
        (Some(failure), _) => Cow::Owned(describe(failure, &case.function)),
        (None, Some(reason)) => Cow::Borrowed(reason),
        (None, None) => Cow::Borrowed(""),
    }
}

/// A wrong output in words, with the kind of difference and the
/// comparison that would take it as right, when the diff says them.
fn wrong_output(case: &CaseReport) -> String {
    let mut out = describe(&Failure::WrongOutput, &case.function);
    let Some(diff) = &case.diff else {
        return out;
    };
    // A Peg Reversal error case: what the message was and how it differs.
    if crate::assignment::Assignment::PegReversal
        .part_of(&case.function)
        .is_some()
        && !case.hidden
        && let Some((expected, actual)) = diff.error_messages()
    {
        let how = crate::assignment::peg_reversal::message_difference(&expected, &actual)
            .unwrap_or("other text");
        return format!(
            "the error message {} differs from the assignment's {} by {how}",
            crate::escape::line(&crate::show_string(&actual)),
            crate::show_string(&expected)
        );
    }
    if let Some(difference) = diff.difference {
        out.push_str(": ");
        out.push_str(&difference.words());
    }
    if let Some(mode) = diff.passes_with {
        out.push_str(&format!(" (--compare {mode} would pass it)"));
    }
    out
}

/// A failure in words; `function` is the case's function.
pub fn describe(failure: &Failure, function: &str) -> String {
    match failure {
        Failure::WrongOutput => "the output differs from the expected result".to_owned(),
        Failure::FunctionError { message } => format!("{function} reported an error: {message}"),
        Failure::Exited { code } => format!("exited with code {code}"),
        Failure::CommandNotFound { code } => format!(
            "exited with code {code}: the shell {} (see its standard error)",
            if *code == 127 {
                "found no such command"
            } else {
                "could not run the command"
            }
        ),
        Failure::Signalled {
            signal,
            via_shell: false,
        } => format!("crashed: killed by {}", signal_name(*signal)),
        Failure::Signalled {
            signal,
            via_shell: true,
        } => format!(
            "crashed: killed by {} (the shell's exit code {})",
            signal_name(*signal),
            128 + signal
        ),
        Failure::TimeLimit {
            clock: Clock::Cpu,
            limit,
            ..
        } => format!(
            "used more than {} of CPU time (--timeout) and was killed",
            show_duration(*limit)
        ),
        Failure::TimeLimit {
            clock: Clock::Wall,
            limit,
            again,
        } => format!(
            "still running after {} of wall-clock time (the backstop for a program that \
             sleeps or blocks) and was killed{}",
            show_duration(*limit),
            if *again { ", on two runs" } else { "" }
        ),
        Failure::MemoryLimit {
            memory,
            scratch,
            peak,
        } => format!(
            "out of memory: its processes together used more than the {} of memory \
             (--memory) or the {} of scratch space (--scratch) allowed, and the run was \
             killed{}",
            size_words(*memory),
            size_words(*scratch),
            if *peak > 0 {
                format!(" (peak memory seen: {})", size_words(*peak))
            } else {
                String::new()
            }
        ),
        Failure::NotUtf8 { offset, byte } => {
            format!("the output is not UTF-8 text: byte {offset} (0x{byte:02x}) is invalid")
        }
        Failure::OutputCap { cap } => {
            format!("printed more than {} and was killed", show_size(*cap))
        }
        Failure::CouldNotStart { cause } => cause.clone(),
        Failure::Missing { part, found } => format!(
            "missing: the submission has no {}{} (part {part} scores 0)",
            part_file(*part),
            found.as_ref().map_or(String::new(), |f| format!(
                "; it has {}, but the file must be named exactly {}",
                crate::escape::line(f),
                part_file(*part)
            )),
        ),
        Failure::NotSubmitted { part, refused } => {
            format!("not submitted: {refused} (part {part} scores 0)")
        }
        Failure::CompileFailed {
            part,
            cause,
            function: None,
        } => format!(
            "did not compile: {} (part {part} scores 0)",
            compile_cause(cause, *part)
        ),
        Failure::CompileFailed {
            part,
            cause,
            function: Some(function),
        } => format!(
            "did not compile: {} ({} scores 0)",
            compile_cause(cause, *part),
            crate::escape::line(function)
        ),
        Failure::NoSubmission { candidates } if candidates.is_empty() => {
            "no submission: no .hs file of the submission defines createBoard \
             (every function scores 0)"
                .to_owned()
        }
        Failure::NoSubmission { candidates } => format!(
            "no submission: {} files define createBoard ({}), so none is the \
             submission: keep one and grade again (every function scores 0)",
            candidates.len(),
            candidates.join(", ")
        ),
        Failure::NotRun { why } => match why {
            NotRun::Missing { file } => format!("not run: {file} is missing"),
            NotRun::NotSubmitted { file } => {
                format!("not run: {file} was not submitted (it was not read)")
            }
            NotRun::NotCompiled { file } => format!("not run: {file} did not compile"),
            NotRun::NoSubmission => {
                "not run: no single file of the submission defines createBoard".to_owned()
            }
            NotRun::PartTimedOut { in_a_row } => {
                format!("not run: the part timed out on {in_a_row} cases in a row")
            }
            NotRun::OverBudget => "not run: the submission's time budget was spent".to_owned(),
            NotRun::Stopped => "not run: grading stopped before this case".to_owned(),
        },
    }
}

/// How a compilation of part `part` ended, in words.
fn compile_cause(cause: &CompileCause, part: u8) -> String {
    match cause {
        CompileCause::Exited { code } => format!("GHC failed (exit code {code})"),
        CompileCause::NoExecutable => format!(
            "GHC wrote no executable (is {} a Main module with main?)",
            part_file(part)
        ),
        CompileCause::Signalled { signal } => format!("GHC was killed by {}", signal_name(*signal)),
        CompileCause::TimeLimit { limit } => format!(
            "GHC ran past the {} compile time limit and was killed",
            show_duration(*limit)
        ),
        CompileCause::OutputCap => {
            "the executable GHC built is larger than the largest file a sandboxed program may \
             write (--file-size)"
                .to_owned()
        }
        CompileCause::NotRegular => "the executable GHC built was replaced by a symbolic link or \
                                     another file that is not a regular file (by a preprocessor \
                                     or Template Haskell left running?); it was not read"
            .to_owned(),
        CompileCause::MemoryLimit => "GHC used more memory (--memory) or scratch space \
                                      (--scratch) than the sandbox allows and was killed"
            .to_owned(),
        CompileCause::CouldNotStart { cause } => cause.clone(),
        CompileCause::NotKept { cause } => {
            format!("the grader could not keep the executable: {cause}")
        }
    }
}

/// A signal's number with its name when common: `signal 11 (SIGSEGV)`.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        _ => return format!("signal {signal}"),
    };
    format!("signal {signal} ({name})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn signal_names() {
        assert_eq!(signal_name(11), "signal 11 (SIGSEGV)");
        assert_eq!(signal_name(64), "signal 64");
    }

    #[test]
    fn bytes_are_shown_in_the_largest_unit() {
        assert_eq!(size_words(512), "512 bytes");
        assert_eq!(size_words(2 << 30), "2 GiB");
        assert_eq!(size_words(3 << 19), "1.5 MiB");
    }

    #[test]
    fn out_of_memory_and_a_segfault_read_differently() {
        let oom = Failure::MemoryLimit {
            memory: 64 << 20,
            scratch: 256 << 20,
            peak: 65 << 20,
        };
        let segv = Failure::Signalled {
            signal: 11,
            via_shell: false,
        };
        assert_eq!(
            describe(&oom, "f"),
            "out of memory: its processes together used more than the 64 MiB of memory \
             (--memory) or the 256 MiB of scratch space (--scratch) allowed, and the run was \
             killed (peak memory seen: 65 MiB)"
        );
        assert_eq!(
            describe(&segv, "f"),
            "crashed: killed by signal 11 (SIGSEGV)"
        );
        let cpu = Failure::TimeLimit {
            clock: Clock::Cpu,
            limit: Duration::from_secs(2),
            again: false,
        };
        assert_eq!(
            describe(&cpu, "f"),
            "used more than 2s of CPU time (--timeout) and was killed"
        );
    }
}
