//! `cnf-grader grade`.

use std::process::ExitCode;

use crate::cli::args::*;
use crate::cli::output::*;
use crate::cli::submission::*;
use cnf_grader::harness::discover::discover;
use cnf_grader::harness::exec::{ExecConfig, ExecSandbox, check_template};
use cnf_grader::harness::grade::{
    FailureKind, GradeOptions, Runner, Totals, case_count, grade, select,
};
use cnf_grader::harness::gradescope::gradescope;
use cnf_grader::harness::html;
use cnf_grader::harness::output::check_output_file;
use cnf_grader::harness::points::points;
use cnf_grader::harness::provenance::Provenance;
use cnf_grader::harness::report::{ReportOptions, human, json, junit};
use cnf_grader::submission::NO_SANDBOX_WARNING;
use cnf_grader::submission::sandbox::Bind;

pub(crate) fn grade_command(args: GradeArgs) -> Result<ExitCode, String> {
    if let Some(path) = &args.output {
        check_output_file("--output", path)?;
    }
    let mut _inputs = None;
    let runner = match &args.exec {
        None => Runner::InProcess,
        Some(command) => {
            check_template(command).map_err(|e| format!("--exec: {e}"))?;
            let sandbox = match args
                .sandbox
                .sandbox(&protected_paths(&args.paths, &[args.output.as_deref()]))?
            {
                None => None,
                Some(sandbox) => {
                    let here = std::env::current_dir()
                        .map_err(|e| format!("cannot read the current folder: {e}"))?;
                    sandbox.check_visible(&here).map_err(|e| e.to_string())?;
                    let inputs = tempfile::Builder::new()
                        .prefix("cnf-grader-")
                        .tempdir()
                        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
                    if sandbox.uid.is_some() {
                        use std::os::unix::fs::PermissionsExt as _;
                        std::fs::set_permissions(
                            inputs.path(),
                            std::fs::Permissions::from_mode(0o711),
                        )
                        .map_err(|e| format!("cannot set up {}: {e}", inputs.path().display()))?;
                    }
                    let binds = vec![Bind::new(here.clone(), here.clone())];
                    sandbox.try_binds(&binds, &here).map_err(|e| {
                        format!(
                            "{e}{}",
                            sandbox.uid.map_or(String::new(), |uid| format!(
                                "\nas root, the programs run as user {uid}, which must be able \
                                 to read the current folder {} and pass through every folder above it",
                                here.display()
                            ))
                        )
                    })?;
                    let exec = ExecSandbox {
                        sandbox: std::sync::Arc::new(sandbox),
                        binds,
                        chdir: here,
                        inputs: inputs.path().to_owned(),
                    };
                    _inputs = Some(inputs);
                    Some(exec)
                }
            };
            if sandbox.is_none() {
                eprintln!("cnf-grader: {NO_SANDBOX_WARNING}");
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
    let fixtures = select(discover(&args.paths).map_err(|e| e.to_string())?, &options);
    let total = case_count(&fixtures);
    if total == 0 {
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
    let bar = progress_bar(total, args.exec.is_some());
    let cases = grade(&fixtures, &options, &|| bar.inc(1)).map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    if let Some(command) = &args.exec {
        let ran: Vec<_> = cases
            .iter()
            .filter(|c| c.failure.is_some() || c.status == cnf_grader::harness::grade::Status::Pass)
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
    let score = args.points.then(|| points(&cases));
    let sandboxed = matches!(&options.runner, Runner::Exec(c) if c.sandbox.is_some());
    let provenance = Provenance {
        sandbox: args.exec.is_some().then_some(sandboxed),
        date: report_date(args.no_times),
        ..Provenance::new(&fixtures, args.compare)
    };
    let report_options = ReportOptions {
        times: !args.no_times,
        points: score.as_ref(),
        warning: (args.exec.is_some() && !sandboxed).then_some(NO_SANDBOX_WARNING),
        extra: &[],
        compare: args.compare,
        student: false,
        provenance: Some(&provenance),
    };
    let to_terminal = args.output.is_none() && matches!(args.format, Format::Human);
    let style = report_style(to_terminal, args.color);
    let text = match args.format {
        Format::Human => human(&cases, report_options, style),
        Format::Json => json(&cases, report_options),
        Format::Junit => junit(&cases, report_options),
        Format::Gradescope => gradescope(
            &cases,
            score.as_ref().unwrap_or(&points(&cases)),
            report_options.warning,
            Some(&provenance),
            &[],
        ),
        Format::Html => html::report(
            &cases,
            ReportOptions {
                student: true,
                ..report_options
            },
            &format!("cnf-grader: {}", Totals::of(&cases).summary()),
        ),
    };
    emit(
        &text,
        args.output.as_deref(),
        to_terminal.then_some(args.color),
    )?;
    Ok(if Totals::of(&cases).all_passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
