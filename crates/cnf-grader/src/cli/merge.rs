//! `cnf-grader merge`: shard reports back into the whole run's report.

use crate::cli::Error;
use std::path::Path;
use std::process::ExitCode;

use crate::cli::args::*;
use crate::cli::grade::write_run;
use crate::cli::submission::{Class, check_class_outputs, write_class};
use cnf_grader::model::case::CaseReport;
use cnf_grader::model::merge::{
    MergeError, check_shard_numbers, edge_in_base, merge_books, merge_reports,
};
use cnf_grader::model::points::{Scoring, points_with};
use cnf_grader::model::provenance::Provenance;
use cnf_grader::output::check_output_file;
use cnf_grader::report::ReportOptions;
use cnf_grader::report::gradebook;
use cnf_grader::report::json::read_json;

/// What kind of run a shard report comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Grade,
    Class,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Grade => "a `grade` report",
            Kind::Class => "a `submissions` gradebook",
        }
    }
}

/// Reads one report: its name for messages, its kind and its text.
fn read(path: &Path) -> Result<(String, Kind, String), Error> {
    let frontend::input::Input { name, text } =
        frontend::input::read_text(&path.to_string_lossy(), "a shard's --format json report")
            .map_err(|e| e.to_string())?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{name}:{}:{}: not JSON: {e} (expected a shard's --format json report)",
            e.line(),
            e.column()
        )
    })?;
    let kind = if value.get("cases").is_some() {
        Kind::Grade
    } else if value.get("students").is_some() {
        Kind::Class
    } else {
        return Err(format!(
            "{name}: neither a `grade` report (no \"cases\") nor a `submissions` gradebook \
             (no \"students\")"
        )
        .into());
    };
    Ok((name, kind, text))
}

pub(crate) fn merge_command(args: MergeArgs) -> Result<ExitCode, Error> {
    if let Some(path) = &args.report.output {
        check_output_file("--output", path)?;
    }
    check_class_outputs(
        args.csv.as_deref(),
        args.reports_dir.as_deref(),
        args.html.as_deref(),
    )?;
    let files = args
        .reports
        .iter()
        .map(|p| read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let kind = files[0].1;
    if let Some((name, other, _)) = files.iter().find(|f| f.1 != kind) {
        return Err(format!(
            "{name} is {} but {} is {}: merge the shards of one run",
            other.name(),
            files[0].0,
            kind.name()
        )
        .into());
    }
    let undated = |p: Option<Provenance>| {
        p.map(|p| Provenance {
            date: if args.report.no_times { None } else { p.date },
            ..p
        })
    };
    match kind {
        Kind::Grade => {
            let reports = files
                .into_iter()
                .map(|(name, _, text)| {
                    let report = read_json(&text).map_err(|e| {
                        Error::Usage(format!(
                            "{name}: not a report of `grade --format json`: {e}"
                        ))
                    })?;
                    let doc: serde_json::Value = serde_json::from_str(&text)
                        .map_err(|e| Error::Usage(format!("{name}: {e}")))?;
                    let cases: Vec<CaseReport> =
                        report.cases.iter().map(|(_, c)| c.clone()).collect();
                    check_shard_numbers(&name, &doc, &cases).map_err(merge_error)?;
                    let counts = doc["points"]["edge"]["in_base"].as_bool() == Some(true);
                    Ok::<_, Error>((name, counts, report))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let edge_in_base = edge_in_base(
                reports
                    .iter()
                    .map(|(name, counts, _)| (name.as_str(), *counts)),
            )
            .map_err(merge_error)?;
            let reports: Vec<_> = reports
                .into_iter()
                .map(|(name, _, report)| (name, report))
                .collect();
            for flag in [&args.csv, &args.reports_dir, &args.html] {
                if flag.is_some() {
                    return Err(
                        "--csv, --reports and --html are for a class's gradebook; a merged \
                         `grade` run is written with --format and --output"
                            .to_owned()
                            .into(),
                    );
                }
            }
            let merged = merge_reports(reports).map_err(merge_error)?;
            let cases: Vec<CaseReport> = merged.cases.into_iter().map(|(_, c)| c).collect();
            let score = merged
                .points
                .then(|| points_with(&cases, Scoring { edge_in_base }));
            let provenance = undated(merged.provenance);
            let extra: Vec<(&str, serde_json::Value)> = merged
                .extra
                .iter()
                .map(|(k, v)| (k.as_str(), v.clone()))
                .collect();
            let options = ReportOptions {
                // Shards graded with --no-times have no durations to show.
                times: !args.report.no_times && merged.timed,
                points: score.as_ref(),
                warning: merged.warning.as_deref(),
                extra: &extra,
                compare: merged.compare,
                student: false,
                provenance: provenance.as_ref(),
                shard: None,
            };
            write_run(
                &cases,
                options,
                args.report.format,
                args.report.output.as_deref(),
                args.report.color,
            )
        }
        Kind::Class => {
            let format = match args.report.format {
                Format::Human => BookFormat::Human,
                Format::Json => BookFormat::Json,
                _ => {
                    return Err(
                        "a class's merged gradebook is written as --format human or json, \
                         and with --csv, --reports and --html"
                            .to_owned()
                            .into(),
                    );
                }
            };
            let books = files
                .into_iter()
                .map(|(name, _, text)| {
                    gradebook::read_json(&text)
                        .map(|b| (name.clone(), b))
                        .map_err(|e| {
                            format!("{name}: not a gradebook of `submissions --format json`: {e}")
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let merged = merge_books(books).map_err(merge_error)?;
            if args.csv.is_some()
                && matches!(args.csv_layout.csv_layout, CsvLayoutName::Canvas)
                && merged.students.iter().all(|s| s.row.id.is_none())
            {
                return Err(
                    "--csv-layout canvas needs the students' ids, and these shards were graded \
                     without --roster; grade them again with --roster FILE"
                        .to_owned()
                        .into(),
                );
            }
            let provenance = undated(merged.provenance).ok_or_else(|| {
                Error::Usage(
                    "the shard gradebooks record no provenance; grade them again".to_owned(),
                )
            })?;
            let root = merged.class.unwrap_or_default();
            write_class(
                &Class {
                    root: &root,
                    provenance: &provenance,
                    students: &merged.students,
                    shard: None,
                    fixtures: None,
                },
                format,
                args.csv.as_deref().map(|p| (p, args.csv_layout.layout())),
                args.reports_dir.as_deref(),
                args.html.as_deref(),
                args.report.output.as_deref(),
            )
        }
    }
}

/// Why shards cannot be merged, with the flags that make shards that can.
fn merge_error(e: MergeError) -> Error {
    Error::Usage(match e {
        MergeError::NotShard { .. } => {
            format!("{e}; write each shard with --shard K/N --format json")
        }
        MergeError::Selections { .. } => {
            format!("{e}; grade every shard with the same fixtures, --part and --filter")
        }
        MergeError::EdgeInBase { .. } => {
            format!("{e} (--edge-in-base on every shard or on none)")
        }
        other => other.to_string(),
    })
}
