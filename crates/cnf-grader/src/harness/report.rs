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
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};
use std::borrow::Cow;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::escape::{line as esc, text as esc_text};
use crate::harness::compare::Compare;
use crate::harness::diff::{Diff, Style};
use crate::harness::grade::{CaseReport, FailureKind, Status, Totals};
use crate::harness::points::Points;
use crate::harness::provenance::Provenance;
use crate::harness::shard::Shard;
use crate::harness::units::show_duration;

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

/// A shard of a run, as its JSON report records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// Which shard of how many.
    #[serde(flatten)]
    pub shard: Shard,
    /// Report entries of the whole run (all shards together).
    pub entries: usize,
}

fn actual_label(case: &CaseReport) -> String {
    format!("actual: {} on {}", case.function, case.fixture)
}

fn expected_label(case: &CaseReport) -> String {
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
            esc_text(case.reason.as_deref().unwrap_or(""))
        );
        if let Some(diff) = &case.diff {
            out.push_str(&diff.render(&expected_label(case), &actual_label(case), style));
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

#[derive(Serialize, Deserialize)]
struct JsonCase<'a> {
    #[serde(borrow)]
    fixture: Cow<'a, str>,
    #[serde(borrow)]
    function: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    part: Option<u8>,
    #[serde(borrow)]
    solution: Cow<'a, str>,
    status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    duration_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    failure: Option<FailureKind>,
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    reason: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    stderr: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    hidden: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    relaxed: bool,
    /// Shard reports only: the place in the whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seq: Option<usize>,
    /// Shard reports only: the diff as data, so `merge` can render any format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    diff_data: Option<Diff>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    warning: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    provenance: Option<&'a Provenance>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<ShardInfo>,
    compare: Compare,
    cases: Vec<JsonCase<'a>>,
    totals: Totals,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<&'a Points>,
    #[serde(flatten)]
    extra: serde_json::Map<String, serde_json::Value>,
}

/// A JSON report read back: what `merge` needs of each shard.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadReport {
    /// The warning at its top.
    pub warning: Option<String>,
    /// Its provenance.
    pub provenance: Option<Provenance>,
    /// The shard it covers (`None`: not a shard report).
    pub shard: Option<ShardInfo>,
    /// The comparison mode.
    pub compare: Compare,
    /// The cases with their places in the whole run (`None` outside shard reports).
    pub cases: Vec<(Option<usize>, CaseReport)>,
    /// Whether it had a score table.
    pub points: bool,
    /// Whether its cases carry durations (not written with `--no-times`).
    pub timed: bool,
    /// Its other top-level fields (e.g. a submission's folder and GHC).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Reads a report written by [`json`]; durations left out read as zero.
pub fn read_json(text: &str) -> Result<ReadReport, serde_json::Error> {
    #[derive(Deserialize)]
    struct Doc<'a> {
        #[serde(default)]
        warning: Option<String>,
        #[serde(default)]
        provenance: Option<Provenance>,
        #[serde(default)]
        shard: Option<ShardInfo>,
        #[serde(default)]
        compare: Compare,
        #[serde(borrow)]
        cases: Vec<JsonCase<'a>>,
        #[serde(default)]
        points: Option<serde_json::Value>,
        #[serde(flatten)]
        extra: serde_json::Map<String, serde_json::Value>,
    }
    let mut doc: Doc<'_> = serde_json::from_str(text)?;
    doc.extra.remove("totals");
    let timed = doc.cases.iter().any(|c| c.duration_ms.is_some());
    Ok(ReadReport {
        timed,
        warning: doc.warning,
        provenance: doc.provenance,
        shard: doc.shard,
        compare: doc.compare,
        points: doc.points.is_some(),
        extra: doc.extra,
        cases: doc
            .cases
            .into_iter()
            .map(|c| {
                (
                    c.seq,
                    CaseReport {
                        fixture: c.fixture.into_owned(),
                        function: c.function.into_owned(),
                        part: c.part,
                        solution: c.solution.into_owned(),
                        status: c.status,
                        failure: c.failure,
                        reason: c.reason.map(Cow::into_owned),
                        diff: c.diff_data,
                        stderr: c.stderr.map(Cow::into_owned),
                        duration: Duration::from_secs_f64(
                            c.duration_ms.unwrap_or(0.0).max(0.0) / 1e3,
                        ),
                        hidden: c.hidden,
                        relaxed: c.relaxed,
                    },
                )
            })
            .collect(),
    })
}

/// The JSON report: `{"cases": [...], "totals": {...}, "points": {...}}`,
/// pretty-printed, ending with a line end.
pub fn json(cases: &[CaseReport], options: ReportOptions<'_>) -> String {
    let report = JsonReport {
        warning: options.warning,
        provenance: options.provenance,
        shard: options.shard.map(|(info, _)| info),
        compare: options.compare,
        cases: cases
            .iter()
            .enumerate()
            .map(|(i, c)| JsonCase {
                fixture: esc(&c.fixture),
                function: esc(&c.function),
                part: c.part,
                solution: esc(&c.solution),
                status: c.status,
                duration_ms: options
                    .times
                    .then(|| (c.duration.as_secs_f64() * 1e6).round() / 1e3),
                failure: c.failure,
                reason: c.reason.as_deref().map(esc_text),
                diff: c
                    .diff
                    .as_ref()
                    .map(|d| d.render(&expected_label(c), &actual_label(c), Style::Plain)),
                stderr: c.stderr.as_deref().map(esc_text),
                hidden: c.hidden,
                relaxed: c.relaxed,
                seq: options.shard.and_then(|(_, seqs)| seqs.get(i).copied()),
                diff_data: options.shard.and(c.diff.clone()),
            })
            .collect(),
        totals: Totals::of(cases),
        points: options.points,
        extra: options
            .extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
    text.push('\n');
    text
}

/// Text safe inside XML 1.0 and for whoever reads it: control characters
/// other than tab and LF shown as escapes ([`crate::escape::text`]).
fn xml_safe(text: &str) -> String {
    esc_text(text).into_owned()
}

/// Element text with only `<`, `>` and `&` escaped, so diffs stay readable.
fn text(body: &str) -> BytesText<'static> {
    BytesText::from_escaped(quick_xml::escape::partial_escape(xml_safe(body)).into_owned())
}

fn seconds(d: std::time::Duration, times: bool) -> String {
    if times {
        format!("{:.6}", d.as_secs_f64())
    } else {
        "0".to_owned()
    }
}

/// The JUnit XML report: one `<testsuite>` named `cnf-grader`, one
/// `<testcase>` per case (`classname` the fixture, `name` the function).
pub fn junit(cases: &[CaseReport], options: ReportOptions<'_>) -> String {
    let totals = Totals::of(cases);
    let total_time: std::time::Duration = cases.iter().map(|c| c.duration).sum();
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    let counts = [
        ("tests", cases.len().to_string()),
        ("failures", totals.failed.to_string()),
        ("errors", totals.errors.to_string()),
        ("skipped", totals.skipped.to_string()),
        ("time", seconds(total_time, options.times)),
    ];
    let attrs = |c: &[(&'static str, String)]| -> Vec<(&'static str, String)> { c.to_vec() };
    let result = (|| -> std::io::Result<()> {
        writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        writer
            .create_element("testsuites")
            .with_attribute(("name", "cnf-grader"))
            .with_attributes(attrs(&counts).iter().map(|(k, v)| (*k, v.as_str())))
            .write_inner_content(|w| {
                w.create_element("testsuite")
                    .with_attribute(("name", "cnf-grader"))
                    .with_attributes(attrs(&counts).iter().map(|(k, v)| (*k, v.as_str())))
                    .write_inner_content(|w| {
                        let mut properties: Vec<(&str, String)> = Vec::new();
                        if let Some(warning) = options.warning {
                            properties.push(("warning", warning.to_owned()));
                        }
                        if let Some(p) = options.provenance {
                            properties.extend(p.fields());
                        }
                        if let Some((info, _)) = options.shard {
                            properties.push(("shard", info.shard.to_string()));
                        }
                        if !properties.is_empty() {
                            w.create_element("properties").write_inner_content(|w| {
                                for (name, value) in &properties {
                                    w.create_element("property")
                                        .with_attribute(("name", *name))
                                        .with_attribute(("value", xml_safe(value).as_str()))
                                        .write_empty()?;
                                }
                                Ok(())
                            })?;
                        }
                        for case in cases {
                            write_case(w, case, options.times)?;
                        }
                        Ok(())
                    })?;
                Ok(())
            })?;
        Ok(())
    })();
    debug_assert!(result.is_ok(), "writing to a Vec cannot fail");
    let mut text = String::from_utf8(writer.into_inner()).unwrap_or_default();
    text.push('\n');
    text
}

fn write_case(w: &mut Writer<Vec<u8>>, case: &CaseReport, times: bool) -> std::io::Result<()> {
    let time = seconds(case.duration, times);
    let element = w
        .create_element("testcase")
        .with_attribute(("name", esc(&case.function).as_ref()))
        .with_attribute(("classname", esc(&case.fixture).as_ref()))
        .with_attribute(("time", time.as_str()));
    let reason = esc_text(case.reason.as_deref().unwrap_or("")).into_owned();
    match case.status {
        Status::Pass => {
            element.write_empty()?;
        }
        Status::Skipped => {
            element.write_inner_content(|w| {
                w.create_element("skipped")
                    .with_attribute(("message", "not run: an earlier case failed (--fail-fast)"))
                    .write_empty()?;
                Ok(())
            })?;
        }
        Status::Fail | Status::Error => {
            element.write_inner_content(|w| {
                let (tag, kind) = if case.status == Status::Fail {
                    ("failure", kebab(case.failure))
                } else {
                    ("error", "broken-fixture".to_owned())
                };
                let body = case
                    .diff
                    .as_ref()
                    .map(|d| d.render(&expected_label(case), &actual_label(case), Style::Plain))
                    .unwrap_or_else(|| reason.clone());
                w.create_element(tag)
                    .with_attribute(("message", reason.as_str()))
                    .with_attribute(("type", kind.as_str()))
                    .write_text_content(text(&body))?;
                if let Some(stderr) = &case.stderr {
                    w.create_element("system-err")
                        .write_text_content(text(stderr))?;
                }
                Ok(())
            })?;
        }
    }
    Ok(())
}

fn kebab(kind: Option<FailureKind>) -> String {
    kind.and_then(|k| serde_json::to_value(k).ok())
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "failure".to_owned())
}
