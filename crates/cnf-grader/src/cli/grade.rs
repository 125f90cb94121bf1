//! `cnf-grader grade`.

use std::process::ExitCode;

use crate::cli::args::*;
use crate::cli::output::*;
use crate::cli::submission::*;
use cnf_grader::grade::discover::{Fixture, discover};
use cnf_grader::grade::exec::{ExecConfig, ExecSandbox, check_template, named_files};
use cnf_grader::grade::run::{GradeOptions, Runner, case_count, grade, select};
use cnf_grader::model::case::{CaseReport, FailureKind, Totals};
use cnf_grader::model::points::{Scoring, points_with};
use cnf_grader::model::provenance::Provenance;
use cnf_grader::model::run::ShardInfo;
use cnf_grader::model::shard::Shard;
use cnf_grader::model::submission::NO_SANDBOX_WARNING;
use cnf_grader::output::check_output_file;
use cnf_grader::report::ReportOptions;
use cnf_grader::sandbox::Bind;

pub(crate) fn grade_command(args: GradeArgs) -> Result<ExitCode, String> {
    if let Some(path) = &args.report.output {
        check_output_file("--output", path)?;
    }
    if args.shard.is_some() && args.fail_fast {
        return Err(
            "--fail-fast cannot be used with --shard: each shard would stop at its own first \
             failure, and the merged report would not be the whole run's"
                .to_owned(),
        );
    }
    let runner = match &args.exec {
        None => Runner::InProcess,
        Some(command) => {
            check_template(command).map_err(|e| format!("--exec: {e}"))?;
            let sandbox = match args.sandbox.sandbox(
                &protected_paths(&args.paths, &[args.report.output.as_deref()]),
                None,
            )? {
                None => None,
                Some(sandbox) => {
                    let here = std::env::current_dir()
                        .map_err(|e| format!("cannot read the current folder: {e}"))?;
                    // The program sees the files its command names, not
                    // the rest of the working folder.
                    let binds: Vec<Bind> = named_files(command, &here)
                        .into_iter()
                        .map(|p| Bind::new(p.clone(), p))
                        .collect();
                    for bind in &binds {
                        sandbox
                            .check_visible(&bind.host)
                            .map_err(|e| e.to_string())?;
                    }
                    sandbox.check_binds(&binds, &here).map_err(|e| {
                        format!(
                            "{e}{}",
                            sandbox.uid.map_or(String::new(), |uid| format!(
                                "\nas root, the programs run as user {uid}, which must be able \
                                 to read the files the command names in {} and pass through \
                                 every folder above them",
                                here.display()
                            ))
                        )
                    })?;
                    Some(ExecSandbox {
                        sandbox: std::sync::Arc::new(sandbox),
                        binds,
                        chdir: here,
                    })
                }
            };
            if sandbox.is_none() {
                frontend::warn(NO_SANDBOX_WARNING);
            }
            Runner::Exec(ExecConfig {
                command: command.clone(),
                timeout: args.timeout,
                max_output: args.max_output,
                working_dir: None,
                sandbox,
            })
        }
    };
    let options = GradeOptions {
        functions: args.part.clone(),
        filter: args.filter.clone(),
        fail_fast: args.fail_fast,
        jobs: args.jobs.map(usize::from),
        runner,
        compare: args.compare,
    };
    let all = select(discover(&args.paths).map_err(|e| e.to_string())?, &options);
    let entries = case_count(&all);
    if entries == 0 {
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!(
            "no cases to grade under {} (a case is a NAME.FUNCTION.solution file next to NAME.cnf{})",
            paths.join(" "),
            if args.part.is_empty() && args.filter.is_none() {
                ""
            } else {
                ", of the selected parts and matching --filter"
            }
        ));
    }
    // The provenance hashes the whole selection, so every shard records the same.
    let provenance = Provenance {
        sandbox: match &options.runner {
            Runner::InProcess => cnf_grader::model::provenance::IN_PROCESS.to_owned(),
            Runner::Exec(c) => c.sandbox.as_ref().map_or_else(
                || cnf_grader::model::provenance::OFF.to_owned(),
                |s| s.sandbox.description(),
            ),
        },
        date: report_date(args.report.no_times)?,
        ..Provenance::new(
            cnf_grader::grade::discover::fixtures_digest(&all),
            args.compare,
        )
    };
    let (fixtures, seqs) = match args.shard {
        None => (all, Vec::new()),
        Some(shard) => shard_of_run(all, shard),
    };
    let bar = progress_bar(case_count(&fixtures), args.exec.is_some());
    let cases = grade(&fixtures, &options, &|| bar.inc(1)).map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    if let Some(command) = &args.exec {
        let ran: Vec<_> = cases
            .iter()
            .filter(|c| c.failure.is_some() || c.status == cnf_grader::model::case::Status::Pass)
            .collect();
        if !ran.is_empty()
            && ran
                .iter()
                .all(|c| c.failure == Some(FailureKind::CommandNotFound))
        {
            let said = ran
                .iter()
                .find_map(|c| c.stderr.as_deref())
                .map_or(String::new(), |s| format!("; the shell said: {}", s.trim()));
            return Err(format!(
                "--exec {command:?}: the command could not be run on any case (exit code 127 or 126){said}{}",
                if args.sandbox.no_sandbox {
                    ""
                } else {
                    "; inside the sandbox only the current folder, the system and --sandbox-ro paths exist"
                }
            ));
        }
    }
    let scoring = Scoring {
        edge_in_base: args.edge_in_base,
    };
    // Gradescope's results always carry the points.
    let score = (args.points || args.report.format == Format::Gradescope)
        .then(|| points_with(&cases, scoring));
    let report_options = ReportOptions {
        times: !args.report.no_times,
        points: score.as_ref(),
        warning: (provenance.sandbox == cnf_grader::model::provenance::OFF)
            .then_some(NO_SANDBOX_WARNING),
        extra: &[],
        compare: args.compare,
        student: false,
        provenance: Some(&provenance),
        shard: args
            .shard
            .map(|shard| (ShardInfo { shard, entries }, seqs.as_slice())),
    };
    write_run(
        &cases,
        report_options,
        args.report.format,
        args.report.output.as_deref(),
        args.report.color,
    )
}

/// The fixtures of one shard of a run, and the place in the run of each
/// report entry they give.
fn shard_of_run(all: Vec<Fixture>, shard: Shard) -> (Vec<Fixture>, Vec<usize>) {
    let mut kept = Vec::new();
    let mut seqs = Vec::new();
    let mut at = 0;
    for fixture in all {
        let n = fixture.cases.len().max(1);
        if shard.contains(&fixture.name.to_string_lossy()) {
            seqs.extend(at..at + n);
            kept.push(fixture);
        }
        at += n;
    }
    (kept, seqs)
}

/// Renders a run's report in `format` and writes it; exit code 0 when every
/// case passed, 1 otherwise (`grade` and `merge`).
pub(crate) fn write_run(
    cases: &[CaseReport],
    options: ReportOptions<'_>,
    format: Format,
    output: Option<&std::path::Path>,
    color: ColorWhen,
) -> Result<ExitCode, String> {
    let to_terminal = output.is_none() && matches!(format, Format::Human);
    let style = report_style(to_terminal, color);
    let text = cnf_grader::report::run(format, cases, options, style);
    emit(&text, output, to_terminal.then_some(color))?;
    Ok(if Totals::of(cases).all_passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
