//! The JUnit XML report.

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};

use crate::escape::{line as esc, text as esc_text};
use crate::model::case::{CaseReport, FailureKind, Status, Totals};
use crate::model::points::Points;
use crate::report::ReportOptions;
use crate::report::Style;
use crate::report::human::actual_label;
use crate::report::human::expected_label;

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
                        if let Some(points) = options.points {
                            properties.extend(points_properties(points));
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

/// The score table as properties (`--points`): each part's points, the
/// total, the extra credit and the edge cases, as `earned/available`.
fn points_properties(points: &Points) -> Vec<(&'static str, String)> {
    const PARTS: [&str; 4] = [
        "points.part1",
        "points.part2",
        "points.part3",
        "points.part4",
    ];
    let mut out: Vec<(&'static str, String)> = points
        .parts
        .iter()
        .zip(PARTS)
        .map(|(p, name)| (name, format!("{:.2}/{:.0}", p.total, p.total_max)))
        .collect();
    out.push((
        "points.total",
        format!("{:.2}/{:.0}", points.total, points.total_max),
    ));
    let x = &points.extra_credit;
    out.push((
        "points.extra_credit",
        format!("{:.2}/{:.0}", x.points, x.points_max),
    ));
    let e = &points.edge;
    out.push((
        "points.edge",
        format!(
            "{}/{} passed, {}",
            e.passed,
            e.cases,
            if e.in_base { "counted" } else { "not counted" }
        ),
    ));
    out
}

fn write_case(w: &mut Writer<Vec<u8>>, case: &CaseReport, times: bool) -> std::io::Result<()> {
    let time = seconds(case.duration, times);
    let element = w
        .create_element("testcase")
        .with_attribute(("name", esc(&case.function).as_ref()))
        .with_attribute(("classname", esc(&case.fixture).as_ref()))
        .with_attribute(("time", time.as_str()));
    let reason = esc_text(&crate::report::outcome::reason(case)).into_owned();
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
                    ("failure", kebab(case.kind()))
                } else {
                    ("error", "broken-fixture".to_owned())
                };
                let body = case
                    .diff
                    .as_ref()
                    .map(|d| {
                        crate::report::diff::unified(
                            d,
                            &expected_label(case),
                            &actual_label(case),
                            Style::Plain,
                        )
                    })
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
