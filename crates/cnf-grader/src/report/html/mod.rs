//! HTML pages: one run's report (`grade`, `submission`), a class's
//! gradebook index (`submissions --html`) and one page per student.
//!
//! Decisions:
//! - a page is self-contained: its CSS is inline, it loads nothing, runs no
//!   script (its Content-Security-Policy forbids both) and reads the same
//!   printed, where the status words, the `-`/`+` signs and the underlined
//!   changed characters say what the colours say;
//! - every text from a program, a fixture or a file name goes through
//!   [`escape`]: first [`crate::escape::text`] (control characters other
//!   than tab and line feed, and the bidirectional overrides, shown as
//!   `\r`, `\u{1b}`, `\u{202e}`, as the diff shows them), then HTML's
//!   own escapes;
//! - a page is a student's view when `ReportOptions::student` is set: a
//!   hidden case shows only its name, status and points, never its input,
//!   expected output, reason or diff; the class index lists only the
//!   gradebook rows, so it shows everything they show;
//! - the `--no-sandbox` warning and the comparison mode are on every page.

use std::fmt::Write as _;

use crate::model::case::{CaseReport, Totals};
use crate::model::class::Row;
use crate::model::class::{Outcome, StudentResult};
use crate::model::compare::Compare;
use crate::model::provenance::Provenance;
use crate::model::submission::SubmissionReport;
use crate::report::ReportOptions;

mod cases;

use cases::{cases_table, compilation, details, notes_list, points_table, relaxed_notes};

/// The pages' style sheet, inline in each page.
const STYLE: &str = "\
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #1b1f24;
  margin: 0 auto; padding: 1.5rem 2rem 3rem; max-width: 72rem; }
h1 { font-size: 1.5rem; margin: 0 0 .3rem; }
h2 { font-size: 1.15rem; margin: 1.8rem 0 .6rem; border-bottom: 1px solid #d0d7de; padding-bottom: .2rem; }
h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
.facts { color: #57606a; margin: 0 0 1rem; }
.facts code { color: #1b1f24; }
.warning { border: 2px solid #cf222e; background: #ffebe9; padding: .6rem .9rem; border-radius: 6px;
  font-weight: 600; margin: 1rem 0; }
.mode { border-left: 4px solid #0969da; background: #f6f8fa; padding: .4rem .8rem; margin: 1rem 0; }
table { border-collapse: collapse; margin: .4rem 0 1rem; }
th, td { border: 1px solid #d0d7de; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.total td { font-weight: 700; background: #f6f8fa; }
code, pre { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; font-size: 13px; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: .6rem .8rem;
  white-space: pre-wrap; overflow-wrap: anywhere; margin: .4rem 0 1rem; }
.status { font-weight: 700; font-family: ui-monospace, Menlo, Consolas, monospace; }
.pass { color: #1a7f37; } .fail { color: #cf222e; } .error { color: #8250df; } .skipped { color: #6e7781; }
.tag { font-size: 12px; border: 1px solid #8c959f; border-radius: 10px; padding: 0 .45rem; color: #57606a;
  margin-left: .4rem; white-space: nowrap; }
.case { border: 1px solid #d0d7de; border-radius: 6px; padding: .2rem 1rem .4rem; margin: 1rem 0; }
.reason { margin: .4rem 0; }
.diff .hdr { color: #57606a; font-weight: 600; }
.diff .hunk { color: #0550ae; }
.diff .exp { background: #ffebe9; display: block; }
.diff .act { background: #dafbe1; display: block; }
.diff del { background: #ff8182; text-decoration: underline; font-weight: 700; }
.diff ins { background: #4ac26b; text-decoration: underline; font-weight: 700; }
.diff .note { color: #57606a; font-style: italic; }
ul.notes { margin: .2rem 0 1rem; padding-left: 1.4rem; }
footer { margin-top: 2rem; color: #57606a; font-weight: 600; }
footer.provenance { font-weight: normal; font-size: 0.85em; border-top: 1px solid #d0d7de; padding-top: 0.5rem; }
footer.provenance dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; margin: 0; }
footer.provenance dt { font-weight: 600; }
footer.provenance dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  a { color: inherit; text-decoration: none; }
  .case, tr, pre .exp, pre .act { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  td code { overflow-wrap: anywhere; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
";

/// `text` safe as HTML element text or a quoted attribute value: shown by
/// [`crate::escape::text`], then `&`, `<`, `>`, `\"` and `'` escaped.
pub fn escape(text: &str) -> String {
    let text = crate::escape::text(text);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The file name of a student's page in a class folder: `NAME.html`.
pub fn page_file(student: &str) -> String {
    format!("{student}.html")
}

/// A relative link to `file`: every byte but letters, digits and `-._~`
/// percent-encoded (so `#`, `?`, `%` and spaces in a folder name work).
pub(crate) fn href(file: &str) -> String {
    let mut out = String::new();
    for b in file.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

fn head(out: &mut String, title: &str) {
    page_head(out, title, "");
}

/// The start of a page titled `title`: the Content-Security-Policy that
/// forbids scripts and loads, and the inline style sheet, with `extra`
/// rules after the shared ones.
pub(crate) fn page_head(out: &mut String, title: &str, extra: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"cnf-grader {}\">\n\
         <title>{}</title>\n<style>\n{STYLE}{extra}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        escape(title)
    );
}

/// The provenance footer (when known), then the end of the page.
fn tail(out: &mut String, provenance: Option<&Provenance>) {
    if let Some(p) = provenance {
        out.push_str("<footer class=\"provenance\"><dl>");
        for (name, value) in p.fields() {
            let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(&value));
        }
        out.push_str("</dl></footer>\n");
    }
    out.push_str("</body>\n</html>\n");
}

/// The warning (if any) and the comparison mode, on every page.
fn banners(out: &mut String, warning: Option<&str>, compare: Compare) {
    if let Some(warning) = warning {
        let _ = writeln!(
            out,
            "<p class=\"warning\" role=\"alert\">{}</p>",
            escape(warning)
        );
    }
    let how = match compare {
        Compare::Exact => "byte for byte",
        Compare::TrailingWhitespace => {
            "line ends, trailing spaces and tabs and a final newline do not count"
        }
        Compare::Whitespace => "any run of white space equals any other",
    };
    let _ = writeln!(
        out,
        "<p class=\"mode\">Comparison: <code>{}</code> ({how}).</p>",
        compare.name()
    );
}

/// The body of a report page after its title and facts: the banners, the
/// points, the notes, the compilation, the failures, every case, the totals.
fn body(out: &mut String, cases: &[CaseReport], options: &ReportOptions<'_>, notes: &[String]) {
    banners(out, options.warning, options.compare);
    let builds: Vec<&CaseReport> = cases.iter().filter(|c| c.function == "compile").collect();
    let graded: Vec<&CaseReport> = cases.iter().filter(|c| c.function != "compile").collect();
    // What a reader needs first: the score and the remarks, then why
    // points were lost, then every case.
    if let Some(points) = options.points {
        points_table(out, points);
    }
    let mut all_notes = notes.to_vec();
    all_notes.extend(relaxed_notes(cases, options));
    notes_list(out, &all_notes);
    compilation(out, &builds);
    details(out, &graded, options);
    cases_table(out, &graded, options);
    // The same totals as every other report: compilations are tests too.
    let _ = writeln!(
        out,
        "<footer class=\"totals\">{}</footer>",
        Totals::of(cases).summary()
    );
}

/// The page of a grading run (`grade --format html`): `title`, then the
/// warning, the comparison mode, the points (when asked), the details of
/// each failure and every case.
pub fn report(cases: &[CaseReport], options: ReportOptions<'_>, title: &str) -> String {
    let mut out = String::new();
    head(&mut out, title);
    let _ = writeln!(out, "<h1>{}</h1>", escape(title));
    body(&mut out, cases, &options, &[]);
    tail(&mut out, options.provenance);
    out
}

/// A submission's page: its folder, helper and GHC, then the points, the
/// notes, the compilation of each part with GHC's errors, the failures and
/// every case; with `student`, hidden cases show no details.
pub fn submission(
    report: &SubmissionReport,
    name: &str,
    ghc_version: &str,
    times: bool,
    student: bool,
) -> String {
    let mut out = String::new();
    let title = format!(
        "{name}: {:.2}/{:.0} points",
        report.points.total, report.points.total_max
    );
    head(&mut out, &title);
    if report.assignment().is_default() {
        let _ = writeln!(
            out,
            "<h1>{}</h1>\n<p class=\"facts\">Submission <code>{}</code> · {} <code>Helpers.hs</code>{} · GHC <code>{}</code></p>",
            escape(&title),
            escape(&report.dir.display().to_string()),
            report.helpers_words(),
            escape(&report.helpers_changed()),
            escape(ghc_version)
        );
    } else {
        let _ = writeln!(
            out,
            "<h1>{}</h1>\n<p class=\"facts\">Submission <code>{}</code> · {} · GHC <code>{}</code></p>",
            escape(&title),
            escape(&report.dir.display().to_string()),
            escape(&report.compiled_words()),
            escape(ghc_version)
        );
    }
    let options = crate::report::submission::options(report, times, student);
    body(&mut out, &report.all_cases(), &options, &report.notes());
    tail(&mut out, Some(&report.provenance.for_students()));
    out
}

/// The page of a student whose folder could not be graded at all.
pub fn not_graded(
    name: &str,
    reason: &str,
    warning: Option<&str>,
    provenance: &Provenance,
) -> String {
    message(
        &format!("{name}: not graded"),
        &format!("The submission could not be graded: {reason}"),
        warning,
        provenance,
    )
}

fn message(title: &str, text: &str, warning: Option<&str>, provenance: &Provenance) -> String {
    let mut out = String::new();
    head(&mut out, title);
    let _ = writeln!(out, "<h1>{}</h1>", escape(title));
    banners(&mut out, warning, provenance.compare);
    let _ = writeln!(out, "<p class=\"reason\">{}</p>", escape(text));
    tail(&mut out, Some(&provenance.for_students()));
    out
}

/// A class's gradebook (`index.html`): one row per student, the name
/// linking to the student's page [`page_file`], the points of each part,
/// the total, the failed cases and the notes.
pub fn class_index(
    rows: &[Row],
    title: &str,
    warning: Option<&str>,
    provenance: &Provenance,
) -> String {
    let mut out = String::new();
    head(&mut out, title);
    // Not graded: a folder that could not be, or a roster student with no folder.
    let graded: Vec<&Row> = rows
        .iter()
        .filter(|r| r.error.is_none() && r.cases > 0)
        .collect();
    let mean = if graded.is_empty() {
        0.0
    } else {
        graded.iter().map(|r| r.total).sum::<f64>() / graded.len() as f64
    };
    let _ = writeln!(
        out,
        "<h1>{}</h1>\n<p class=\"facts\">{} students, {} graded; mean total {mean:.2}/100</p>",
        escape(title),
        rows.len(),
        graded.len()
    );
    banners(&mut out, warning, provenance.compare);
    let named = rows.iter().any(|r| r.name.is_some());
    out.push_str("<table class=\"gradebook\">\n<thead><tr><th>student</th>");
    if named {
        out.push_str("<th>name</th><th>id</th>");
    }
    // Connect Four's columns say `part 1`; another assignment's name the function.
    for part in 1..=4 {
        let label = provenance.assignment.part_label(part);
        let _ = write!(out, "<th class=\"num\">{}</th>", escape(&label));
    }
    out.push_str(
        "<th class=\"num\">total</th><th class=\"num\">extra credit</th><th class=\"num\">edge</th>\
                  <th class=\"num\">failed</th><th>notes</th></tr></thead>\n<tbody>\n",
    );
    for row in rows {
        let _ = write!(
            out,
            "<tr><td><a href=\"{}\">{}</a></td>",
            escape(&href(&page_file(&crate::escape::line(&row.student)))),
            escape(&row.student)
        );
        if named {
            let _ = write!(
                out,
                "<td>{}</td><td>{}</td>",
                escape(row.name.as_deref().unwrap_or("-")),
                escape(row.id.as_deref().unwrap_or("-"))
            );
        }
        // The grader's own failure: no points, not zeros.
        let points = |p: f64| {
            if row.not_graded {
                "-".to_owned()
            } else {
                format!("{p:.2}")
            }
        };
        for p in row.parts {
            let _ = write!(out, "<td class=\"num\">{}</td>", points(p));
        }
        let edge = if row.edge_cases == 0 {
            "-".to_owned()
        } else {
            format!("{}/{}", row.edge_passed, row.edge_cases)
        };
        let _ = writeln!(
            out,
            "<td class=\"num\"><strong>{}</strong></td><td class=\"num\">{}</td><td class=\"num\">{edge}</td>\
             <td class=\"num\">{}</td><td>{}</td></tr>",
            points(row.total),
            points(row.extra_credit),
            row.failed_cases,
            escape(&row.notes.join("; "))
        );
    }
    out.push_str("</tbody>\n</table>\n");
    tail(&mut out, Some(provenance));
    out
}

/// One student's page of a class: the graded submission's page, or a page
/// saying why it was not graded.
pub fn student(student: &StudentResult, warning: Option<&str>, provenance: &Provenance) -> String {
    let title = student.title();
    match &student.outcome {
        Outcome::Graded(report) => submission(
            report,
            &title,
            crate::report::submission::ghc_version(report),
            false,
            true,
        ),
        _ => not_graded(
            &title,
            student
                .row
                .error
                .as_deref()
                .unwrap_or(crate::model::class::ABSENT),
            warning,
            provenance,
        ),
    }
}

#[cfg(test)]
mod tests;
