//! Writing reports: standard output (a closed pipe ends quietly), colour, progress bars.

use crate::cli::Error;
use std::io::{self, IsTerminal};

use crate::cli::args::*;
use cnf_grader::submission::ClassProgress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Writes text to standard output (colour codes stripped unless `color`
/// allows them there); a closed pipe ends quietly.
pub(crate) fn print_out(text: &str, color: Option<ColorWhen>) -> Result<(), Error> {
    match frontend::write_stdout(text, color.unwrap_or(ColorWhen::Never)) {
        Err(frontend::Failure::Io(e)) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the report: {e}").into())
        }
        _ => Ok(()),
    }
}

/// A progress bar on standard error for long runs on a terminal; hidden otherwise.
pub(crate) fn progress_bar(total: usize, exec: bool) -> ProgressBar {
    let long = total >= 2000 || (exec && total >= 20);
    let interactive = io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    if !(long && interactive) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} cases  {elapsed} (about {eta} left)")
    {
        bar.set_style(style);
    }
    bar
}

/// A class's progress on standard error, on a terminal only, from the
/// start: `preparing`, then `compiling` with the parts compiled, then
/// `grading` with the students done; the elapsed time ticks meanwhile.
pub(crate) struct ClassBar {
    bar: ProgressBar,
    students: u64,
    done: std::sync::atomic::AtomicU64,
    grading: std::sync::atomic::AtomicBool,
    /// Students whose saved results `--resume` reused, and of how many.
    pub(crate) reused: std::sync::Mutex<(usize, usize)>,
    /// Why `--resume` did not reuse a student's saved result.
    pub(crate) not_reused: std::sync::Mutex<Vec<(String, String)>>,
}

impl ClassBar {
    /// The display of a class of `students`, shown at once on a terminal.
    pub(crate) fn new(students: usize) -> ClassBar {
        let interactive = io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        let bar = if interactive {
            let bar =
                ProgressBar::with_draw_target(Some(students as u64), ProgressDrawTarget::stderr());
            if let Ok(style) =
                ProgressStyle::with_template("{prefix} {bar:40} {pos}/{len} {msg}  {elapsed}")
            {
                bar.set_style(style);
            }
            bar.set_prefix("preparing");
            bar.set_message("students");
            bar.enable_steady_tick(std::time::Duration::from_millis(250));
            bar
        } else {
            ProgressBar::hidden()
        };
        ClassBar {
            bar,
            students: students as u64,
            done: Default::default(),
            grading: Default::default(),
            reused: Default::default(),
            not_reused: Default::default(),
        }
    }

    /// Shows one stage of the run.
    pub(crate) fn update(&self, event: ClassProgress) {
        use std::sync::atomic::Ordering::SeqCst;
        match event {
            ClassProgress::Restored { reused, of } => {
                *self.reused.lock().unwrap_or_else(|e| e.into_inner()) = (reused, of);
            }
            ClassProgress::NotReused { student, why } => self
                .not_reused
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((student, why)),
            ClassProgress::Compiling(0) => {}
            ClassProgress::Compiling(parts) if !self.grading.load(SeqCst) => {
                self.bar.set_prefix("compiling");
                self.bar.set_message("parts");
                self.bar.set_length(parts as u64);
                self.bar.set_position(0);
            }
            ClassProgress::Compiling(_) => {}
            ClassProgress::Compiled if !self.grading.load(SeqCst) => self.bar.inc(1),
            ClassProgress::Compiled => {}
            ClassProgress::Student => {
                let done = self.done.fetch_add(1, SeqCst) + 1;
                if !self.grading.swap(true, SeqCst) {
                    self.bar.set_prefix("grading");
                    self.bar.set_message("students");
                    self.bar.set_length(self.students);
                }
                self.bar.set_position(done);
            }
        }
    }

    /// Removes the display.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// What `--resume` reused, and why the rest was not: one line for the
    /// count, then one per reason with the students it applies to.
    pub(crate) fn resume_notes(&self) -> Vec<String> {
        let (reused, of) = *self.reused.lock().unwrap_or_else(|e| e.into_inner());
        let mut notes = vec![format!(
            "--resume: reused the saved results of {reused} of the {of} students"
        )];
        let not_reused = self.not_reused.lock().unwrap_or_else(|e| e.into_inner());
        let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
        for (student, why) in not_reused.iter() {
            match reasons.iter_mut().find(|(w, _)| w == why) {
                Some((_, students)) => students.push(student),
                None => reasons.push((why, vec![student])),
            }
        }
        for (why, mut students) in reasons {
            students.sort_unstable();
            let shown = students.len().min(10);
            let mut list = students[..shown].join(", ");
            if students.len() > shown {
                list.push_str(&format!(" and {} more", students.len() - shown));
            }
            notes.push(format!("--resume: not reused: {why} ({list})"));
        }
        notes
    }
}

/// Writes a report to `--output FILE` (atomically) or to standard output,
/// coloured there when `color` says so.
pub(crate) fn emit(
    text: &str,
    output: Option<&std::path::Path>,
    color: Option<ColorWhen>,
) -> Result<(), Error> {
    match output {
        Some(path) => cnf_grader::write::bless::write_atomically(path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()).into()),
        None => print_out(text, color),
    }
}

/// The style of a human report: colour only on the terminal, when `--color`
/// allows it there (the stream strips it again where it must).
pub(crate) fn report_style(to_terminal: bool, color: ColorWhen) -> cnf_grader::report::Style {
    use cnf_grader::report::Style;
    match (to_terminal, color) {
        (true, ColorWhen::Auto | ColorWhen::Always) => Style::Color,
        _ => Style::Plain,
    }
}

/// Latest `SOURCE_DATE_EPOCH` accepted: 9999-12-31T23:59:59Z.
const MAX_EPOCH: u64 = 253_402_300_799;

/// The date reports record: now, or `SOURCE_DATE_EPOCH` (seconds) when set,
/// in UTC to the second; `None` with `--no-times` (reproducible reports).
pub(crate) fn report_date(no_times: bool) -> Result<Option<String>, Error> {
    if no_times {
        return Ok(None);
    }
    let now = match std::env::var_os("SOURCE_DATE_EPOCH") {
        None => std::time::SystemTime::now(),
        Some(value) => {
            let text = value.to_string_lossy();
            let secs = text
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&s| s <= MAX_EPOCH)
                .ok_or_else(|| {
                    format!(
                        "SOURCE_DATE_EPOCH={text:?}: not a date (expected whole seconds since \
                         1970-01-01 UTC, 0 to {MAX_EPOCH}), or unset it to date reports by the clock"
                    )
                })?;
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs)
        }
    };
    Ok(Some(humantime::format_rfc3339_seconds(now).to_string()))
}

/// The message for a path that does not exist ([`cnf_grader::output::no_such_path`],
/// relative to the current folder).
pub(crate) fn no_such_path(path: &std::path::Path, what: &str) -> String {
    cnf_grader::output::no_such_path(path, std::env::current_dir().ok().as_deref(), what)
}

/// Fixtures found under `paths`, or the message for the first path that
/// does not exist ([`no_such_path`]).
pub(crate) fn discover_fixtures(
    paths: &[std::path::PathBuf],
) -> Result<Vec<cnf_grader::grade::discover::Fixture>, Error> {
    use cnf_grader::grade::discover::{DiscoverError, discover};
    discover(paths).map_err(|e| {
        Error::Usage(match &e {
            DiscoverError::Path { path, source }
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                no_such_path(
                    path,
                    "the folder that holds the fixtures (NAME.cnf with NAME.FUNCTION.solution), \
                 e.g. the project's fixtures/",
                )
            }
            _ => e.to_string(),
        })
    })
}
