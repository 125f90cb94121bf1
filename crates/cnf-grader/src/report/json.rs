//! The JSON report, and reading it back (what `merge` reads).

use std::borrow::Cow;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::escape::{line as esc, text as esc_text};
use crate::model::case::{
    CaseReport, Clock, Failure, FailureKind, Group, RunUsage, Status, Totals,
};
use crate::model::compare::Compare;
use crate::model::diff::Diff;
use crate::model::points::Points;
use crate::model::provenance::Provenance;
use crate::model::run::{ReadReport, ShardInfo};
use crate::report::ReportOptions;
use crate::report::Style;
use crate::report::diff::unified;
use crate::report::human::{actual_label, expected_label};
use crate::report::outcome::reason;

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
    #[serde(default, skip_serializing_if = "Group::is_base")]
    group: Group,
    /// CPU time of the program's run (with times).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cpu_ms: Option<f64>,
    /// Wall-clock time of the program's run alone (with times).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wall_ms: Option<f64>,
    /// Peak memory of the program's run, in bytes (with times).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    peak_memory: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stopped_by: Option<Clock>,
    /// What happened, as data (failures only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    outcome: Option<Failure>,
    /// Shard reports only: the place in the whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seq: Option<usize>,
    /// Shard reports only: the diff as data, so `merge` can render any format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    diff_data: Option<Diff>,
}

/// The version of the JSON report's layout: raised when a field changes
/// meaning or is taken away (docs/grading-a-class.md, *The JSON report*).
/// Schema 1 had no number and no `outcome`.
pub const SCHEMA: u32 = 2;

#[derive(Serialize)]
struct JsonReport<'a> {
    schema: u32,
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

/// Reads a report written by [`json`]; durations left out read as zero.
pub fn read_json(text: &str) -> Result<ReadReport, serde_json::Error> {
    #[derive(Deserialize)]
    struct Doc<'a> {
        #[serde(default)]
        schema: Option<u32>,
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
    if doc.schema != Some(SCHEMA) {
        return Err(serde::de::Error::custom(format!(
            "the report is of schema {}, and this cnf-grader reads schema {SCHEMA}; \
             grade again with this version",
            doc.schema.unwrap_or(1)
        )));
    }
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
                        reason: c
                            .reason
                            .filter(|_| c.outcome.is_none())
                            .map(Cow::into_owned),
                        failure: c.outcome,
                        diff: c.diff_data,
                        stderr: c.stderr.map(Cow::into_owned),
                        duration: Duration::from_secs_f64(
                            c.duration_ms.unwrap_or(0.0).max(0.0) / 1e3,
                        ),
                        hidden: c.hidden,
                        relaxed: c.relaxed,
                        group: c.group,
                        usage: c.cpu_ms.map(|cpu| RunUsage {
                            cpu: Duration::from_secs_f64(cpu.max(0.0) / 1e3),
                            wall: Duration::from_secs_f64(c.wall_ms.unwrap_or(0.0).max(0.0) / 1e3),
                            peak_memory: c.peak_memory.unwrap_or(0),
                        }),
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
        schema: SCHEMA,
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
                failure: c.kind(),
                reason: Some(Cow::<str>::Owned(esc_text(&reason(c)).into_owned()))
                    .filter(|r| !r.is_empty()),
                diff: c
                    .diff
                    .as_ref()
                    .map(|d| unified(d, &expected_label(c), &actual_label(c), Style::Plain)),
                stderr: c.stderr.as_deref().map(esc_text),
                hidden: c.hidden,
                relaxed: c.relaxed,
                group: c.group,
                cpu_ms: c
                    .usage
                    .filter(|_| options.times)
                    .map(|u| (u.cpu.as_secs_f64() * 1e6).round() / 1e3),
                wall_ms: c
                    .usage
                    .filter(|_| options.times)
                    .map(|u| (u.wall.as_secs_f64() * 1e6).round() / 1e3),
                peak_memory: c
                    .usage
                    .filter(|u| options.times && u.peak_memory > 0)
                    .map(|u| u.peak_memory),
                stopped_by: c.stopped_by(),
                outcome: c.failure.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::case::{Failure, NotRun};

    fn failed(failure: Failure) -> CaseReport {
        CaseReport {
            fixture: "g.cnf".into(),
            function: "onePlayerOneMove".into(),
            part: Some(1),
            solution: "g.onePlayerOneMove.solution".into(),
            status: Status::Fail,
            failure: Some(failure),
            reason: None,
            diff: None,
            stderr: None,
            duration: Duration::ZERO,
            hidden: false,
            relaxed: false,
            group: Group::Base,
            usage: None,
        }
    }

    #[test]
    fn a_shard_report_gives_back_each_failure_as_data() {
        let cases = vec![
            failed(Failure::MemoryLimit {
                memory: 64 << 20,
                scratch: 1 << 20,
                peak: 70 << 20,
            }),
            failed(Failure::Signalled {
                signal: 11,
                via_shell: true,
            }),
            failed(Failure::TimeLimit {
                clock: Clock::Wall,
                limit: Duration::from_secs(6),
                again: true,
            }),
            failed(Failure::NotRun {
                why: NotRun::PartTimedOut { in_a_row: 3 },
            }),
        ];
        let info = ShardInfo {
            shard: "1/1".parse().unwrap(),
            entries: 4,
        };
        let text = json(
            &cases,
            ReportOptions {
                times: false,
                points: None,
                warning: None,
                extra: &[],
                compare: Compare::Exact,
                student: false,
                provenance: None,
                shard: Some((info, &[0, 1, 2, 3])),
            },
        );
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["schema"], SCHEMA);
        // The class, the data and the words, written by hand.
        assert_eq!(doc["cases"][0]["failure"], "memory-limit");
        assert_eq!(
            doc["cases"][0]["outcome"],
            serde_json::json!({"kind": "memory-limit", "memory": 67108864, "scratch": 1048576, "peak": 73400320})
        );
        assert_eq!(doc["cases"][1]["failure"], "crash");
        assert_eq!(
            doc["cases"][1]["reason"],
            "crashed: killed by signal 11 (SIGSEGV) (the shell's exit code 139)"
        );
        assert_eq!(doc["cases"][2]["stopped_by"], "wall");
        assert_eq!(doc["cases"][2]["outcome"]["limit"], 6000);
        assert_eq!(doc["cases"][2]["outcome"]["again"], true);
        assert!(
            doc["cases"][2]["reason"]
                .as_str()
                .unwrap()
                .ends_with("and was killed, on two runs"),
            "{}",
            doc["cases"][2]
        );
        assert_eq!(
            doc["cases"][3]["outcome"],
            serde_json::json!({"kind": "not-run", "why": {"because": "part-timed-out", "in_a_row": 3}})
        );
        let back = read_json(&text).unwrap();
        let back: Vec<CaseReport> = back.cases.into_iter().map(|(_, c)| c).collect();
        assert_eq!(back, cases);
        // A report of another schema is refused, saying which.
        let old = text.replacen("\"schema\": 2", "\"schema\": 1", 1);
        let e = read_json(&old).unwrap_err().to_string();
        assert!(
            e.contains("schema 1") && e.contains("reads schema 2"),
            "{e}"
        );
    }
}
