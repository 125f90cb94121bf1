//! The parts of a report page about its cases: the points table, the
//! compilation, the failures with their diffs, the table of every case, and
//! the notes.

use std::fmt::Write as _;

use super::escape;
use crate::format::units::show_duration;
use crate::model::case::{CaseReport, Group, Status};
use crate::model::diff::{Diff, LineKind, MAX_LINES};
use crate::model::points::Points;
use crate::report::ReportOptions;

pub(super) fn status_class(status: Status) -> &'static str {
    match status {
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::Error => "error",
        Status::Skipped => "skipped",
    }
}

pub(super) fn status_cell(status: Status) -> String {
    format!(
        "<span class=\"status {}\">{}</span>",
        status_class(status),
        status.label()
    )
}

pub(super) fn points_table(out: &mut String, points: &Points) {
    out.push_str("<h2 id=\"points\">Points</h2>\n<table class=\"points\">\n<thead><tr><th class=\"num\">part</th><th>function</th>\
                  <th class=\"num\">compilation</th><th class=\"num\">test cases</th><th class=\"num\">total</th></tr></thead>\n<tbody>\n");
    for p in &points.parts {
        let _ = writeln!(
            out,
            "<tr><td class=\"num\">{}</td><td><code>{}</code></td><td class=\"num\">{:.0}/{:.0}</td>\
             <td class=\"num\">({}/{}) {:.2}/{:.0}</td><td class=\"num\">{:.2}/{:.0}</td></tr>",
            p.part,
            p.function,
            p.compilation,
            p.compilation_max,
            p.passed,
            p.cases,
            p.test_cases,
            p.test_cases_max,
            p.total,
            p.total_max
        );
    }
    let _ = writeln!(
        out,
        "<tr class=\"total\"><td></td><td>total</td><td></td><td></td><td class=\"num\">{:.2}/{:.0}</td></tr>\n</tbody>\n</table>",
        points.total, points.total_max
    );
    // The extra credit and the edge cases, apart from the total.
    let x = &points.extra_credit;
    let e = &points.edge;
    let mut apart = String::new();
    if x.cases > 0 {
        let _ = writeln!(
            apart,
            "<tr class=\"extra-credit\"><td></td><td>extra credit</td><td></td><td class=\"num\">({}/{})</td>\
             <td class=\"num\">+{:.2}/{:.0}</td></tr>",
            x.passed, x.cases, x.points, x.points_max
        );
    }
    if e.cases > 0 {
        let _ = writeln!(
            apart,
            "<tr class=\"edge\"><td></td><td>edge cases</td><td></td><td class=\"num\">({}/{})</td><td>{}</td></tr>",
            e.passed,
            e.cases,
            if e.in_base {
                "counted in the parts above"
            } else {
                "not counted in the total"
            }
        );
    }
    if !apart.is_empty() {
        // Inserted before the table's end, after the total line.
        let end = "</tbody>\n</table>";
        if let Some(at) = out.rfind(end) {
            out.insert_str(at, &apart);
        }
    }
}

/// A case's points (earned, available) under `points`: an equal share of
/// its part's test-case points; a broken fixture is worth nothing.
pub(super) fn case_points(case: &CaseReport, points: &Points) -> Option<(f64, f64)> {
    let part = points.parts.iter().find(|p| Some(p.part) == case.part)?;
    let (cases, max) = match case.group {
        Group::ExtraCredit => (points.extra_credit.cases, points.extra_credit.points_max),
        Group::Edge if !points.edge.in_base => (0, 0.0),
        _ => (part.cases, part.test_cases_max),
    };
    if case.status == Status::Error || cases == 0 {
        return Some((0.0, 0.0));
    }
    let share = max / cases as f64;
    Some((
        if case.status == Status::Pass {
            share
        } else {
            0.0
        },
        share,
    ))
}

/// The diff as a `<pre>`: changed characters in `<del>` (expected side)
/// and `<ins>` (actual side).
pub(super) fn diff_html(diff: &Diff, expected: &str, actual: &str) -> String {
    let mut out = String::from("<pre class=\"diff\">");
    let _ = write!(
        out,
        "<span class=\"hdr\">--- {}</span>\n<span class=\"hdr\">+++ {}</span>\n",
        escape(expected),
        escape(actual)
    );
    for hunk in &diff.hunks {
        let _ = writeln!(out, "<span class=\"hunk\">{}</span>", escape(&hunk.header));
        for line in &hunk.lines {
            let (class, sign, mark) = match line.kind {
                LineKind::Same => ("same", ' ', ""),
                LineKind::Expected => ("exp", '-', "del"),
                LineKind::Actual => ("act", '+', "ins"),
            };
            let _ = write!(out, "<span class=\"{class}\">{sign}");
            for (changed, text) in &line.runs {
                if *changed && !mark.is_empty() {
                    let _ = write!(out, "<{mark}>{}</{mark}>", escape(text));
                } else {
                    out.push_str(&escape(text));
                }
            }
            // The line end inside the span, so a block span ends the line.
            out.push_str("\n</span>");
            if line.kind != LineKind::Same && line.runs.is_empty() {
                out.push_str("<span class=\"note\">\\ the line above is empty</span>\n");
            }
            if line.missing_newline {
                out.push_str("<span class=\"note\">\\ No newline at end of file</span>\n");
            }
        }
    }
    if diff.cut {
        let _ = writeln!(
            out,
            "<span class=\"note\">[... the diff is cut after {MAX_LINES} lines]</span>"
        );
    }
    out.push_str("</pre>\n");
    out
}

/// Whether the details of `case` are kept from this page's reader.
pub(super) fn withheld(case: &CaseReport, options: &ReportOptions<'_>) -> bool {
    case.hidden && options.student
}

pub(super) fn hidden_tag(case: &CaseReport) -> &'static str {
    if case.hidden {
        "<span class=\"tag\">hidden</span>"
    } else {
        ""
    }
}

/// The compilation entries (submissions): each part's source, whether it
/// built, and GHC's error.
pub(super) fn compilation(out: &mut String, builds: &[&CaseReport]) {
    if builds.is_empty() {
        return;
    }
    out.push_str("<h2 id=\"compilation\">Compilation</h2>\n<table class=\"compilation\">\n<thead><tr><th>status</th><th>source</th><th>result</th></tr></thead>\n<tbody>\n");
    for case in builds {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
            status_cell(case.status),
            escape(&case.fixture),
            escape(
                match crate::report::outcome::reason(case) {
                    r if r.is_empty() => "compiled".into(),
                    r => r,
                }
                .as_ref()
            )
        );
    }
    out.push_str("</tbody>\n</table>\n");
    for case in builds {
        if let Some(stderr) = &case.stderr {
            let _ = writeln!(
                out,
                "<h3>Compile errors: <code>{}</code></h3>\n<pre class=\"compile-errors\">{}</pre>",
                escape(&case.fixture),
                escape(stderr)
            );
        }
    }
}

pub(super) fn cases_table(out: &mut String, cases: &[&CaseReport], options: &ReportOptions<'_>) {
    let _ = writeln!(
        out,
        "<h2 id=\"cases\">Cases</h2>\n<table class=\"cases\">\n<thead><tr><th>status</th><th>fixture</th><th>function</th>{}{}</tr></thead>\n<tbody>",
        if options.points.is_some() {
            "<th class=\"num\">points</th>"
        } else {
            ""
        },
        if options.times {
            "<th class=\"num\">time</th>"
        } else {
            ""
        },
    );
    for (i, case) in cases.iter().enumerate() {
        let detailed = matches!(case.status, Status::Fail | Status::Error);
        let name = if detailed {
            format!(
                "<a href=\"#case-{i}\"><code>{}</code></a>",
                escape(&case.fixture)
            )
        } else {
            format!("<code>{}</code>", escape(&case.fixture))
        };
        let _ = write!(
            out,
            "<tr class=\"case-{}\"><td>{}</td><td>{name}{}</td><td><code>{}</code></td>",
            status_class(case.status),
            status_cell(case.status),
            hidden_tag(case),
            escape(&case.function)
        );
        if let Some(points) = options.points {
            let cell = case_points(case, points)
                .map_or(String::new(), |(got, max)| format!("{got:.2}/{max:.2}"));
            let _ = write!(out, "<td class=\"num\">{cell}</td>");
        }
        if options.times {
            let time = if case.status == Status::Skipped {
                String::new()
            } else {
                show_duration(case.duration)
            };
            let _ = write!(out, "<td class=\"num\">{}</td>", escape(&time));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
}

pub(super) fn details(out: &mut String, cases: &[&CaseReport], options: &ReportOptions<'_>) {
    let failing: Vec<(usize, &&CaseReport)> = cases
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.status, Status::Fail | Status::Error))
        .collect();
    if failing.is_empty() {
        return;
    }
    out.push_str("<h2 id=\"failures\">Failures</h2>\n");
    for (i, case) in failing {
        let _ = writeln!(
            out,
            "<section class=\"case\" id=\"case-{i}\">\n<h3>{} <code>{}</code> <code>{}</code>{}</h3>",
            status_cell(case.status),
            escape(&case.fixture),
            escape(&case.function),
            hidden_tag(case)
        );
        if withheld(case, options) {
            out.push_str("<p class=\"reason\">Hidden test: its input, expected output and diff are not shown.</p>\n</section>\n");
            continue;
        }
        let _ = writeln!(
            out,
            "<p class=\"reason\">{}</p>",
            escape(&crate::report::outcome::reason(case))
        );
        if let Some(diff) = &case.diff {
            out.push_str(&diff_html(
                diff,
                &format!("expected: {}", case.solution),
                &format!("actual: {} on {}", case.function, case.fixture),
            ));
        }
        if let Some(stderr) = &case.stderr {
            let _ = writeln!(
                out,
                "<p>Standard error:</p>\n<pre class=\"stderr\">{}</pre>",
                escape(stderr)
            );
        }
        out.push_str("</section>\n");
    }
}

pub(super) fn notes_list(out: &mut String, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    out.push_str("<h2 id=\"notes\">Notes</h2>\n<ul class=\"notes\">\n");
    for note in notes {
        let _ = writeln!(out, "<li>{}</li>", escape(note));
    }
    out.push_str("</ul>\n");
}

/// The notes on cases that pass only because of the comparison mode (not
/// on hidden ones in a student's view).
pub(super) fn relaxed_notes(cases: &[CaseReport], options: &ReportOptions<'_>) -> Vec<String> {
    cases
        .iter()
        .filter(|c| c.relaxed && !withheld(c, options))
        .map(|c| {
            format!(
                "{} {} passes only with --compare {}: its output differs byte for byte",
                c.fixture, c.function, options.compare
            )
        })
        .collect()
}
