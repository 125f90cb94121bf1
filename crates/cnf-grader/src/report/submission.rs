//! The human report of one submission: its header (folder, helper, GHC,
//! how the folder was read), then its cases and points; and what JSON
//! reports record about it.

use crate::model::class::{Member, Outcome, StudentResult};
use crate::model::provenance::Provenance;
use crate::model::submission::{SubmissionReport, part_file};
use crate::report::{ReportOptions, Style};

/// The first lines of the human report: the folder, the helper and
/// GHC, then where the sources were found and what was not read.
pub fn header(report: &SubmissionReport, ghc_version: &str) -> String {
    let mut out = format!(
        "submission {}: {}, GHC {}\n",
        crate::escape::path(&report.dir),
        report.compiled_words(),
        crate::escape::line(ghc_version)
    );
    for line in reading_notes(report) {
        out.push_str(&crate::escape::line(&line));
        out.push('\n');
    }
    out
}

/// Sentences on how the folder was read: a sub-folder graded instead,
/// sub-folders with part files when none was taken, and every entry not
/// read (except part files, whose compilation entries say it).
pub fn reading_notes(report: &SubmissionReport) -> Vec<String> {
    let mut out: Vec<String> = report
        .renamed
        .iter()
        .map(|name| crate::model::submission::renamed_note(name))
        .collect();
    if let Some(nested) = &report.nested {
        out.push(format!(
            "the part files are in the sub-folder {}, which was graded (the folder itself holds none)",
            crate::escape::path(nested)
        ));
    }
    if !report.scattered.is_empty() {
        let folders: Vec<String> = report
            .scattered
            .iter()
            .map(|p| crate::escape::path(p))
            .collect();
        out.push(format!(
            "part files are in several sub-folders ({}), so none was graded: put the four part files at the top of the submission",
            folders.join(", ")
        ));
    }
    for file in &report.shadows {
        let module = file.strip_suffix(".hs").unwrap_or(file);
        out.push(format!(
            "its own {} replaced the standard module {} in everything it compiled with, the \
             Helpers.hs included",
            crate::escape::line(file),
            crate::escape::line(module)
        ));
    }
    for refused in &report.refused {
        if (1..=4).any(|part| refused.is(&part_file(part))) {
            continue;
        }
        let helper = if refused.is("Helpers.hs") {
            " (the default Helpers.hs was used)"
        } else {
            ""
        };
        out.push(format!("not read: {refused}{helper}"));
    }
    out
}

/// What JSON reports record about the submission: its folder, helper,
/// sandbox, comparison mode, and how it was read.
pub fn info(report: &SubmissionReport) -> serde_json::Value {
    let mut info = serde_json::json!({
        "dir": crate::escape::path(&report.dir),
        "helpers": if report.own_helpers { "own" } else { "default" },
        "sandbox": report.sandboxed,
        "compare": report.compare.name(),
    });
    if let Some(nested) = &report.nested {
        info["nested"] = crate::escape::path(nested).into();
    }
    if !report.scattered.is_empty() {
        info["scattered"] = report
            .scattered
            .iter()
            .map(|p| crate::escape::path(p))
            .collect();
    }
    if !report.renamed.is_empty() {
        info["renamed"] = report
            .renamed
            .iter()
            .map(|name| crate::model::submission::renamed_note(name))
            .collect();
    }
    if !report.shadows.is_empty() {
        // The student's files that replaced a standard module.
        info["shadows"] = report
            .shadows
            .iter()
            .map(|f| crate::escape::line(f).into_owned())
            .collect();
    }
    if !report.refused.is_empty() {
        info["not_read"] = report.refused.iter().map(ToString::to_string).collect();
    }
    info
}

/// The whole human report: the header, the cases and the points; in a
/// `student` view hidden cases show no details.
pub fn human(
    report: &SubmissionReport,
    ghc_version: &str,
    times: bool,
    style: Style,
    student: bool,
) -> String {
    format!(
        "{}\n{}",
        header(report, ghc_version),
        crate::report::human::human(&report.all_cases(), options(report, times, student), style,)
    )
}

/// The line that names the student atop a report, when the roster does.
fn who_line(folder: &str, member: Option<&Member>) -> String {
    let esc = crate::escape::line;
    member.map_or(String::new(), |m| {
        format!(
            "student: {} (id {}), folder {}\n",
            esc(&m.name),
            esc(&m.id),
            esc(folder)
        )
    })
}

/// The GHC version a graded submission was compiled with.
pub(crate) fn ghc_version(report: &SubmissionReport) -> &str {
    report.provenance.ghc.as_deref().unwrap_or_default()
}

/// One student's text report of a class (`--reports DIR/STUDENT.txt`): the
/// student's view, without times, under the roster's line; `class` is the
/// class's provenance, for a student who was not graded.
pub fn student(student: &StudentResult, class: &Provenance) -> String {
    let who = who_line(&student.name, student.member.as_ref());
    match &student.outcome {
        Outcome::Graded(report) => format!(
            "{who}{}",
            human(report, ghc_version(report), false, Style::Plain, true)
        ),
        Outcome::NotRead(refused) => {
            format!("{who}{}\n\nnot graded: {refused}\n", class.line())
        }
        Outcome::Absent => format!(
            "{who}{}\n\nno submission: {}\n",
            class.line(),
            crate::model::class::ABSENT
        ),
        Outcome::NotGraded(error) => {
            format!("{who}not graded: {}\n", crate::escape::line(error))
        }
    }
}

/// The report options of a submission's own report (its points, warning,
/// comparison mode and provenance), in every format that shows its cases.
pub fn options(report: &SubmissionReport, times: bool, student: bool) -> ReportOptions<'_> {
    ReportOptions {
        times,
        points: Some(&report.points),
        warning: report.warning(),
        extra: &[],
        compare: report.compare,
        student,
        provenance: Some(&report.provenance),
        shard: None,
    }
}
