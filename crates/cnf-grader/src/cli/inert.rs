//! Flags that would do nothing where they are given are refused (exit 2),
//! each saying what it needs, rather than accepted and ignored: the user
//! meant something by it, and a flag silently ignored is a wrong grade
//! found too late. One rule for every flag, so none is merely warned
//! about:
//!
//! - `grade` without `--exec` runs our implementation in-process, with no
//!   time limit, output cap or sandbox: `--timeout`, `--max-output` and
//!   every sandbox flag need `--exec`;
//! - `--canvas-assignment` needs `--csv-layout canvas`, and `--csv-layout`
//!   needs `--csv`;
//! - `--color always` colours only a human report on standard output, so
//!   it is refused with `--output` and with any other `--format`;
//! - `grade --edge-in-base` changes only the score table, so it needs
//!   `--points` (or `--format gradescope`, which always scores).
//!
//! Only flags typed on the command line count; defaults never do.

use crate::cli::Error;
use clap::ArgMatches;
use clap::ValueEnum as _;
use clap::parser::ValueSource;

use crate::cli::args::{
    ColorWhen, CsvLayoutArgs, CsvLayoutName, Format, GradeArgs, ReportArgs, SandboxArgs,
};
use clap::Args as _;

/// The flags the command line gave a subcommand.
#[derive(Clone, Copy)]
pub(crate) struct Given<'a>(Option<&'a ArgMatches>);

impl<'a> Given<'a> {
    /// The flags of the subcommand of `matches`.
    pub(crate) fn of(matches: &'a ArgMatches) -> Given<'a> {
        Given(matches.subcommand().map(|(_, m)| m))
    }

    /// Whether the flag with this argument id was typed.
    fn has(self, id: &str) -> bool {
        self.0.is_some_and(|m| {
            m.ids().any(|i| i.as_str() == id)
                && m.value_source(id) == Some(ValueSource::CommandLine)
        })
    }
}

/// `grade`'s own flags that only `--exec` uses, besides the sandbox's.
const EXEC_OWN: [&str; 2] = ["timeout", "max_output"];

/// `grade`'s flags that only `--exec` uses, as (argument id, `--flag`):
/// [`EXEC_OWN`] and every flag of [`SandboxArgs`], read from its clap
/// definition, so a new sandbox flag is covered without being listed.
fn exec_only() -> Vec<(String, String)> {
    let sandbox = SandboxArgs::augment_args(clap::Command::new("sandbox"));
    let grade = GradeArgs::augment_args(clap::Command::new("grade"));
    grade
        .get_arguments()
        .filter(|a| {
            let id = a.get_id();
            EXEC_OWN.contains(&id.as_str()) || sandbox.get_arguments().any(|s| s.get_id() == id)
        })
        .filter_map(|a| Some((a.get_id().to_string(), format!("--{}", a.get_long()?))))
        .collect()
}

/// `grade`: no flag of `--exec` without it, and `--color` where it colours.
pub(crate) fn check_grade(args: &GradeArgs, given: Given<'_>) -> Result<(), Error> {
    if args.exec.is_none()
        && let Some((_, flag)) = exec_only().into_iter().find(|(id, _)| given.has(id))
    {
        return Err(format!(
            "{flag} does nothing without --exec: grading this project's own implementation \
             runs in the grader's process, with no time limit, output cap or sandbox; add \
             --exec COMMAND to grade a program, or leave {flag} out"
        )
        .into());
    }
    if given.has("edge_in_base") && !args.points && args.report.format != Format::Gradescope {
        return Err(
            "--edge-in-base does nothing without --points: it changes the score table only; \
             add --points (or --format gradescope), or leave it out"
                .to_owned()
                .into(),
        );
    }
    check_color(&args.report)
}

/// `--color always` only where a report is coloured: human, on standard output.
pub(crate) fn check_color(report: &ReportArgs) -> Result<(), Error> {
    if report.color != ColorWhen::Always {
        return Ok(());
    }
    if let Some(path) = &report.output {
        return Err(format!(
            "--color always does nothing with --output {}: a report written to a file has no \
             colour; leave out --color, or write the report to standard output",
            path.display()
        )
        .into());
    }
    if !matches!(report.format, Format::Human) {
        let name = report
            .format
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_owned());
        return Err(format!(
            "--color always does nothing with --format {name}: only the human report has \
             colour; leave out --color or use --format human"
        )
        .into());
    }
    Ok(())
}

/// `--canvas-assignment` with `--csv-layout canvas` only, and `--csv-layout`
/// with `--csv` only.
pub(crate) fn check_csv_layout(
    csv: bool,
    layout: &CsvLayoutArgs,
    given: Given<'_>,
) -> Result<(), Error> {
    if given.has("canvas_assignment") && !matches!(layout.csv_layout, CsvLayoutName::Canvas) {
        return Err(
            "--canvas-assignment does nothing without --csv-layout canvas: it names the \
             assignment's column of Canvas's CSV; add --csv-layout canvas or leave it out"
                .to_owned()
                .into(),
        );
    }
    if given.has("csv_layout") && !csv {
        return Err(
            "--csv-layout does nothing without --csv FILE: it is the layout of that file; add \
             --csv FILE or leave it out"
                .to_owned()
                .into(),
        );
    }
    Ok(())
}
