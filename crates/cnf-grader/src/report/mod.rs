//! Every renderer: the model in, text out. Human text (plain or colour),
//! JSON, JUnit, Gradescope, HTML, the gradebook table, CSV and Canvas CSV.
//! A renderer never runs anything and never reads a student's files; every
//! byte a student controls goes through [`crate::escape`].

pub mod diff;
pub mod gradebook;
pub mod gradescope;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod outcome;
pub mod similarity;
pub mod submission;

/// How text is styled for a person: plain, or with ANSI colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// No escape codes at all.
    Plain,
    /// ANSI colours and emphasis.
    Color,
}

use std::time::Duration;

use crate::model::case::{CaseReport, Totals};
use crate::model::class::{Row, StudentResult};
use crate::model::compare::Compare;
use crate::model::points::{Points, points};
use crate::model::provenance::Provenance;
use crate::model::run::ShardInfo;
use crate::model::submission::SubmissionReport;

/// A report format of a run or a submission (`--format`). A new format is
/// a renderer file in this folder and an arm in [`run`] and [`submission()`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// One line per case, diffs of failures, then the totals.
    Human,
    /// One JSON document.
    Json,
    /// JUnit XML, for CI systems.
    Junit,
    /// Gradescope's autograder results.json (students' view: hidden tests show no details).
    Gradescope,
    /// One self-contained HTML page (students' view: hidden tests show no details).
    Html,
}

/// A run's report (`grade`, `merge`) in `format`; `style` is for `human`.
pub fn run(
    format: Format,
    cases: &[CaseReport],
    options: ReportOptions<'_>,
    style: Style,
) -> String {
    match format {
        Format::Human => human::human(cases, options, style),
        Format::Json => json::json(cases, options),
        Format::Junit => junit::junit(cases, options),
        Format::Gradescope => gradescope::gradescope(
            cases,
            options.points.unwrap_or(&points(cases)),
            options.warning,
            options.provenance,
            options.extra,
            None,
        ),
        Format::Html => html::report(
            cases,
            ReportOptions {
                student: true,
                ..options
            },
            &format!("cnf-grader: {}", Totals::of(cases).summary()),
        ),
    }
}

/// A class gradebook's format (`submissions`, `merge` of class shards).
/// A new format is a renderer in [`gradebook`] and an arm in [`class`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum BookFormat {
    /// A table.
    #[cfg_attr(feature = "cli", value(alias = "table"))]
    Human,
    /// One JSON document.
    Json,
}

/// What a class gradebook shows besides its rows.
#[derive(Debug, Clone, Copy)]
pub struct ClassView<'a> {
    /// The class's folder, as given.
    pub root: &'a str,
    /// Where the class came from and how it was graded.
    pub provenance: &'a Provenance,
    /// This gradebook is one shard of a class, with its students.
    pub shard: Option<(ShardInfo, &'a [StudentResult])>,
    /// A warning a human gradebook ends with (e.g. `--no-sandbox`).
    pub warning: Option<&'a str>,
}

/// A class's gradebook in `format`.
pub fn class(format: BookFormat, rows: &[Row], view: &ClassView<'_>) -> String {
    let mut text = match format {
        BookFormat::Human => match view.shard {
            None => gradebook::table(rows, Some(view.provenance)),
            Some((info, students)) => format!(
                "{}\n\nshard {}: {} of the class's {} students (`merge` the shards' \
                 --format json gradebooks for the whole class)\n\n{}",
                view.provenance.line(),
                info.shard,
                students.len(),
                info.entries,
                gradebook::table_of(rows, None, view.provenance.assignment)
            ),
        },
        BookFormat::Json => {
            gradebook::shard_json(Some(view.root), rows, Some(view.provenance), view.shard)
        }
    };
    if let (Some(warning), BookFormat::Human) = (view.warning, format) {
        text.push_str(warning);
        text.push('\n');
    }
    text
}

/// What a submission's report shows besides the graded submission.
#[derive(Debug, Clone, Copy)]
pub struct SubmissionView<'a> {
    /// The submission's name (its folder's).
    pub name: &'a str,
    /// The version of GHC that compiled it.
    pub ghc: &'a str,
    /// Show durations.
    pub times: bool,
    /// How long grading it took, from start to end (Gradescope's `execution_time`).
    pub elapsed: Duration,
    /// For `human`.
    pub style: Style,
}

/// A submission's report (`submission`) in `format`.
pub fn submission(format: Format, report: &SubmissionReport, view: &SubmissionView<'_>) -> String {
    let mut info = submission::info(report);
    info["ghc"] = view.ghc.into();
    let extra = [("submission", info)];
    let options = ReportOptions {
        extra: &extra,
        ..submission::options(report, view.times, false)
    };
    let cases = report.all_cases();
    match format {
        Format::Human => submission::human(report, view.ghc, view.times, view.style, false),
        Format::Json => json::json(&cases, options),
        Format::Junit => junit::junit(&cases, options),
        Format::Gradescope => gradescope::submission(report, view.elapsed),
        Format::Html => html::submission(report, view.name, view.ghc, view.times, true),
    }
}

/// What goes into a report besides the cases.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReportOptions<'a> {
    /// Show durations.
    pub times: bool,
    /// The score table, when asked for.
    pub points: Option<&'a Points>,
    /// A warning every format carries at its top (e.g. `--no-sandbox`).
    pub warning: Option<&'a str>,
    /// More top-level fields of the JSON report (name, value), e.g. the
    /// submission's folder and GHC.
    pub extra: &'a [(&'a str, serde_json::Value)],
    /// The comparison mode the cases were judged with.
    pub compare: Compare,
    /// A student's view: hidden cases show only their name, status and points.
    pub student: bool,
    /// Where the report came from (every format records it when given).
    pub provenance: Option<&'a Provenance>,
    /// For a shard's JSON report: which shard, and each case's place in the
    /// whole run (what `merge` needs to rebuild the run's report).
    pub shard: Option<(ShardInfo, &'a [usize])>,
}
