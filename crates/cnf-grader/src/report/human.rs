//! The three report formats: human text (plain or coloured), one JSON
//! document, and JUnit XML.
//!
//! Decisions: the human report lists one line per case, then the details of
//! each failure and error (reason, diff, standard error), then the score
//! table when asked, and always ends with the line `N passed, N failed`
//! (plus `, N errors` / `, N skipped` when not zero), never coloured, so
//! tools that read the last line see it as is. With `times: false`
//! durations are left out of every format (reproducible reports). Every
//! text from a case (fixture and file names, reasons, standard error, the
//! diff) passes through [`crate::escape`] in every format, so no control
//! character a program printed or a file name held reaches the report:
//! names with [`crate::escape::line`], and reasons and standard error,
//! which may span lines, with [`crate::escape::text`] (a name inside a
//! reason is escaped where the reason is written).

use std::fmt::Write as _;

use owo_colors::OwoColorize;

use crate::escape::{line as esc, text as esc_text};
use crate::format::units::show_duration;
use crate::model::case::{CaseReport, Status, Totals};
use crate::model::compare::Compare;
use crate::report::ReportOptions;
use crate::report::Style;
use crate::report::diff::unified;

pub(crate) fn actual_label(case: &CaseReport) -> String {
    format!("actual: {} on {}", case.function, case.fixture)
}

pub(crate) fn expected_label(case: &CaseReport) -> String {
    format!("expected: {}", case.solution)
}

fn paint_status(status: Status, style: Style, pad: bool) -> String {
    let label = if pad {
        format!("{:<5}", status.label())
    } else {
        status.label().to_owned()
    };
    match (style, status) {
        (Style::Plain, _) => label,
        (Style::Color, Status::Pass) => label.green().bold().to_string(),
        (Style::Color, Status::Fail) => label.red().bold().to_string(),
        (Style::Color, Status::Error) => label.magenta().bold().to_string(),
        (Style::Color, Status::Skipped) => label.dimmed().to_string(),
    }
}

/// The human report, ending with the totals line and a line end.
pub fn human(cases: &[CaseReport], options: ReportOptions<'_>, style: Style) -> String {
    let mut out = String::new();
    if let Some(p) = options.provenance {
        let _ = writeln!(out, "{}\n", p.line());
    }
    if let Some((info, _)) = options.shard {
        let _ = writeln!(
            out,
            "shard {}: {} of the run's {} entries (`merge` the shards' JSON reports for the whole run)\n",
            info.shard,
            cases.len(),
            info.entries
        );
    }
    if let Some(warning) = options.warning {
        let _ = writeln!(out, "{warning}\n");
    }
    if options.compare != Compare::Exact {
        let _ = writeln!(out, "comparison: {} (not byte for byte)\n", options.compare);
    }
    let fixture_width = cases
        .iter()
        .map(|c| esc(&c.fixture).chars().count())
        .max()
        .unwrap_or(0);
    let function_width = cases
        .iter()
        .map(|c| esc(&c.function).chars().count())
        .max()
        .unwrap_or(0);
    for case in cases {
        let _ = write!(
            out,
            "{}  {:<fw$}  {}",
            paint_status(case.status, style, true),
            esc(&case.fixture),
            esc(&case.function),
            fw = fixture_width
        );
        if options.times && case.status != Status::Skipped {
            let pad = function_width - esc(&case.function).chars().count();
            let _ = write!(out, "{:pad$}  {}", "", show_duration(case.duration));
            if let Some(usage) = case.usage {
                let _ = write!(out, " (CPU {})", show_duration(usage.cpu));
            }
        }
        out.push('\n');
    }
    for case in cases
        .iter()
        .filter(|c| matches!(c.status, Status::Fail | Status::Error))
    {
        out.push('\n');
        if case.hidden && options.student {
            let _ = writeln!(
                out,
                "{} {} {}: hidden test (its input, expected output and diff are not shown)",
                paint_status(case.status, style, false),
                esc(&case.fixture),
                esc(&case.function),
            );
            continue;
        }
        let _ = writeln!(
            out,
            "{} {} {}: {}",
            paint_status(case.status, style, false),
            esc(&case.fixture),
            esc(&case.function),
            esc_text(&crate::report::outcome::reason(case))
        );
        if let Some(diff) = &case.diff {
            out.push_str(&unified(
                diff,
                &expected_label(case),
                &actual_label(case),
                style,
            ));
        }
        if let Some(stderr) = &case.stderr {
            out.push_str("standard error:\n");
            for line in esc_text(stderr).lines() {
                let _ = writeln!(out, "  | {line}");
            }
        }
    }
    let relaxed: Vec<&CaseReport> = cases.iter().filter(|c| c.relaxed).collect();
    if !relaxed.is_empty() {
        out.push('\n');
        for case in relaxed {
            let _ = writeln!(
                out,
                "note: {} {} passes only with --compare {}: its output differs byte for byte",
                esc(&case.fixture),
                esc(&case.function),
                options.compare
            );
        }
    }
    if let Some(points) = options.points {
        out.push('\n');
        out.push_str(&points.table());
    }
    out.push('\n');
    out.push_str(&Totals::of(cases).summary());
    out.push('\n');
    out
}
