//! `cnf-grader grade`.

use crate::cli::Error;
use std::process::ExitCode;

use crate::cli::args::*;
use crate::cli::output::*;
use crate::cli::submission::*;
use cnf_grader::grade::discover::Fixture;
use cnf_grader::grade::exec::{ExecConfig, ExecSandbox, check_template, fill, named_files};
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
use connect_core::Function;

pub(crate) fn grade_command(args: GradeArgs) -> Result<ExitCode, Error> {
    if let Some(path) = &args.report.output {
        check_output_file("--output", path)?;
    }
    if args.shard.is_some() && args.fail_fast {
        return Err(
            "--fail-fast cannot be used with --shard: each shard would stop at its own first \
             failure, and the merged report would not be the whole run's"
                .to_owned()
                .into(),
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
                    // Each part's program sees the files its own command
                    // names once {part} and {function} are filled in, not
                    // the rest of the working folder.
                    let part_binds: Vec<Vec<Bind>> = Function::ALL
                        .iter()
                        .map(|&f| {
                            named_files(&fill(command, f), &here)
                                .into_iter()
                                .map(|p| Bind::new(p.clone(), p))
                                .collect()
                        })
                        .collect();
                    for binds in &part_binds {
                        for bind in binds {
                            sandbox.check_visible(&bind.host)?;
                        }
                        sandbox.check_binds(binds, &here).map_err(|e| {
                            format!(
                                "{}{}",
                                Error::from(e),
                                sandbox.uid.map_or(String::new(), |uid| format!(
                                    "\nas root, the programs run as user {uid}, which must be \
                                     able to read the files the command names in {} and pass \
                                     through every folder above them",
                                    here.display()
                                ))
                            )
                        })?;
                    }
                    Some(ExecSandbox {
                        sandbox: std::sync::Arc::new(sandbox),
                        binds: Vec::new(),
                        part_binds,
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
        part_timeouts: None,
        deadline: None,
    };
    let all = select(discover_fixtures(&args.paths)?, &options);
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
        ).into());
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
    let cases = match &options.runner {
        Runner::InProcess => grade(&fixtures, &options, &|_| bar.inc(1)),
        Runner::Exec(config) => {
            // The first case of each part runs first: a command that cannot
            // run at all is refused then, not after the whole tree.
            let (probes, rest) = split_first_of_each_part(&fixtures);
            let probed = grade(&probes, &options, &|_| bar.inc(1)).map_err(|e| e.to_string())?;
            if let Some(refusal) = cannot_run(&probed, config, &args) {
                bar.finish_and_clear();
                return Err(refusal.into());
            }
            grade(&rest, &options, &|_| bar.inc(1))
                .map(|others| in_run_order(&fixtures, probed, others))
        }
    }
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
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

/// The first case of each part, as fixtures of one case each, and the
/// fixtures of every other case (a fixture left with none is dropped).
fn split_first_of_each_part(fixtures: &[Fixture]) -> (Vec<Fixture>, Vec<Fixture>) {
    let mut seen = [false; 4];
    let mut probes = Vec::new();
    let mut rest = Vec::new();
    for fixture in fixtures {
        let mut others = Vec::new();
        for case in &fixture.cases {
            match &case.function {
                Ok(f) if !seen[usize::from(f.part() - 1)] => {
                    seen[usize::from(f.part() - 1)] = true;
                    probes.push(Fixture {
                        cases: vec![case.clone()],
                        ..fixture.clone()
                    });
                }
                _ => others.push(case.clone()),
            }
        }
        if fixture.cases.is_empty() || !others.is_empty() {
            rest.push(Fixture {
                cases: others,
                ..fixture.clone()
            });
        }
    }
    (probes, rest)
}

/// The reports of `probed` and `others` in the order of `fixtures`' cases.
fn in_run_order(
    fixtures: &[Fixture],
    probed: Vec<CaseReport>,
    others: Vec<CaseReport>,
) -> Vec<CaseReport> {
    let mut probed = probed.into_iter().peekable();
    let mut others = others.into_iter();
    let mut out = Vec::new();
    for fixture in fixtures {
        if fixture.cases.is_empty() {
            out.extend(others.next());
        }
        for case in &fixture.cases {
            let solution = case.solution.to_string_lossy();
            let from_probe = probed.peek().is_some_and(|p| {
                p.solution == solution && p.fixture == fixture.cnf.to_string_lossy()
            });
            out.extend(if from_probe {
                probed.next()
            } else {
                others.next()
            });
        }
    }
    out
}

/// The refusal when the first case of a part shows that its command cannot
/// run at all (the shell's exit code 127 or 126, or no start): what the
/// program was shown and what to add.
fn cannot_run(probed: &[CaseReport], config: &ExecConfig, args: &GradeArgs) -> Option<String> {
    let case = probed.iter().find(|c| {
        matches!(
            c.kind(),
            Some(FailureKind::CommandNotFound | FailureKind::SpawnFailed)
        )
    })?;
    let function = Function::from_name(&case.function)?;
    let command = fill(&config.command, function);
    let reason = cnf_grader::report::outcome::reason(case);
    let said = case
        .stderr
        .as_deref()
        .or(Some(reason.as_ref()).filter(|r| !r.is_empty()))
        .map_or(String::new(), |s| {
            format!(" (it said: {})", cnf_grader::escape::line(s.trim()))
        });
    let shown = match &config.sandbox {
        None => {
            return Some(format!(
                "--exec: part {}'s command {command:?} could not be run on {}{said}; check \
                 that the program exists and is executable",
                function.part(),
                case.fixture
            ));
        }
        Some(s) => {
            let files: Vec<String> = s
                .part_binds
                .get(usize::from(function.part() - 1))
                .into_iter()
                .flatten()
                .map(|b| b.host.display().to_string())
                .collect();
            let ro: Vec<String> = args
                .sandbox
                .sandbox_ro
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            let ro = if ro.is_empty() {
                String::new()
            } else {
                format!(" and --sandbox-ro {}", ro.join(", "))
            };
            if files.is_empty() {
                format!(
                    "inside the sandbox it saw only the system folders{ro}: the command names \
                     no file of the current folder that exists"
                )
            } else {
                format!(
                    "inside the sandbox it saw {}, the system folders{ro}",
                    files.join(", ")
                )
            }
        }
    };
    Some(format!(
        "--exec: part {}'s command {command:?} could not be run on {}{said}; {shown}; if it \
         needs another file or folder, add --sandbox-ro PATH (or check that the program \
         exists and is executable)",
        function.part(),
        case.fixture
    ))
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
) -> Result<ExitCode, Error> {
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
