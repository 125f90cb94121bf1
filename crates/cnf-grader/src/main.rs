//! `cnf-grader`: grade fixture trees, bless expected results, run, check and
//! generate games.
#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: a command-line front end

#[path = "bin/common/mod.rs"]
#[allow(dead_code)] // reason: part_main and its help text serve the part binaries only
mod common;

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use cnf_grader::format::cnf::parse_cnf;
use cnf_grader::format::play::play_source;
use cnf_grader::harness::bless::{Action, bless, write_atomically};
use cnf_grader::harness::diff::Style;
use cnf_grader::harness::discover::{Fixture, discover};
use cnf_grader::harness::exec::{ExecConfig, ExecSandbox, check_template};
use cnf_grader::harness::generator::{GenSpec, generate, write_generated};
use cnf_grader::harness::grade::{
    FailureKind, GradeOptions, Runner, Totals, case_count, grade, select,
};
use cnf_grader::harness::points::points;
use cnf_grader::harness::report::{ReportOptions, human, json, junit};
use cnf_grader::harness::units::{parse_duration, parse_size};
use cnf_grader::submission::cache::Cache;
use cnf_grader::submission::ghc::Ghc;
use cnf_grader::submission::gradebook;
use cnf_grader::submission::sandbox::{Bind, DEFAULT_UID, Limits, Sandbox};
use cnf_grader::submission::{
    ClassOptions, NO_SANDBOX_WARNING, SubmissionOptions, class_folders, grade_class,
    grade_submission,
};
use connect_core::{Function, Player};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tempfile::TempDir;

/// Grades Connect Four programs against fixtures of `.cnf` games and their
/// expected `.solution` results.
#[derive(Parser)]
#[command(name = "cnf-grader", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Grade every fixture under PATH (default fixtures/): run each function
    /// on each game and compare with its .solution file byte for byte.
    ///
    /// Exit code: 0 when every case passed, 1 when any failed or errored, 2
    /// for usage errors.
    Grade(GradeArgs),
    /// Write the .solution files of every .cnf under PATH from this
    /// implementation, atomically, listing created/changed/unchanged files.
    Bless(BlessArgs),
    /// Play one part on a .cnf file and print the result, like the part binaries.
    Run(RunArgs),
    /// Parse and validate .cnf files, reporting every problem (exit 1 if any).
    Check(CheckArgs),
    /// Write a new random but valid game NAME.cnf with its four .solution files.
    Gen(GenArgs),
    /// Grade one student's Haskell submission: compile the four part files
    /// of DIR with GHC (in a temporary folder), run each part on every
    /// fixture like `grade --exec`, and print the report and the points.
    ///
    /// Exit code: 0 when every part compiled and every case passed, 1
    /// otherwise, 2 for usage errors or when GHC cannot be run.
    Submission(SubmissionArgs),
    /// Grade a whole class: every sub-folder of ROOT is one student's
    /// submission; print a gradebook with one row per student.
    ///
    /// Exit code: 0 when every submission was graded (whatever its points),
    /// 1 when some folder could not be graded at all, 2 for usage errors or
    /// when GHC cannot be run.
    Submissions(SubmissionsArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// One line per case, diffs of failures, then the totals.
    Human,
    /// One JSON document.
    Json,
    /// JUnit XML, for CI systems.
    Junit,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorWhen {
    /// Colour on a terminal, unless NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[derive(Args)]
struct GradeArgs {
    /// Folders, .cnf files or .solution files to grade.
    #[arg(default_value = "fixtures/")]
    paths: Vec<PathBuf>,
    /// Only this part: 1-4, 01-04 or the function name (repeatable).
    #[arg(long, value_name = "PART")]
    part: Vec<Function>,
    /// Only fixtures whose .cnf path contains TEXT.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Stop at the first failure or error; the remaining cases are reported as skipped.
    #[arg(long)]
    fail_fast: bool,
    /// Report format.
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Write the report to FILE (atomically) instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Run at most N cases at once (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Grade another program: COMMAND is run with `sh -c` per case, with {part}
    /// replaced by 01..04, {function} by the function name and {input} by the
    /// (quoted) .cnf path, e.g. './csce322assignment03part{part} {input}'.
    #[arg(long, value_name = "COMMAND")]
    exec: Option<String>,
    /// Time limit of one --exec run, e.g. 10s, 2s, 500ms.
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = parse_duration)]
    timeout: Duration,
    /// Most output accepted from one --exec run, e.g. 1MiB, 64KiB, 4096.
    #[arg(long, value_name = "SIZE", default_value = "1MiB", value_parser = parse_size)]
    max_output: usize,
    /// Add the assignment's score table (out of 100).
    #[arg(long)]
    points: bool,
    /// When to colour the human report.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorWhen,
    /// Leave durations out of the report (for reproducible output).
    #[arg(long)]
    no_times: bool,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

/// The sandbox of the programs under test (`grade --exec`, `submission`,
/// `submissions`).
#[derive(Args)]
struct SandboxArgs {
    /// Run the programs under test outside the sandbox, with your own rights
    /// (every report then carries a warning).
    #[arg(long)]
    no_sandbox: bool,
    /// Also show PATH (a file or folder) read-only inside the sandbox; repeatable.
    #[arg(long = "sandbox-ro", value_name = "PATH")]
    sandbox_ro: Vec<PathBuf>,
    /// Address space of each sandboxed process, e.g. 2GiB, 512MiB.
    #[arg(long, value_name = "SIZE", default_value = "2GiB", value_parser = parse_size)]
    memory: usize,
    /// Processes (and threads) at once in one sandbox.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    processes: u32,
    /// Open files of each sandboxed process.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(8..))]
    open_files: u32,
    /// Largest file a sandboxed process may write, e.g. 64MiB.
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = parse_size)]
    file_size: usize,
    /// Total size of the sandbox's writable /tmp, e.g. 256MiB.
    #[arg(long, value_name = "SIZE", default_value = "256MiB", value_parser = parse_size)]
    scratch: usize,
    /// CPU time of each sandboxed process, e.g. 5s (default: the run's time limit plus 1s).
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    cpu_time: Option<Duration>,
    /// When the grader runs as root: the unprivileged user id programs run as
    /// (student i of a class runs as UID+i).
    #[arg(long, value_name = "UID", default_value_t = DEFAULT_UID)]
    sandbox_uid: u32,
}

impl SandboxArgs {
    /// The sandbox, or `None` with --no-sandbox (after a warning).
    fn sandbox(&self, protected: &[PathBuf]) -> Result<Option<Sandbox>, String> {
        if self.no_sandbox {
            return Ok(None);
        }
        let limits = Limits {
            cpu: self.cpu_time,
            memory: self.memory as u64,
            processes: self.processes,
            open_files: self.open_files,
            file_size: self.file_size as u64,
            scratch: self.scratch as u64,
        };
        Sandbox::new(limits, &self.sandbox_ro, protected, self.sandbox_uid)
            .map(Some)
            .map_err(|e| e.to_string())
    }
}

/// The folders that hold these fixture paths (a file's folder holds its
/// sibling `.solution` files).
fn fixture_roots(paths: &[PathBuf]) -> Vec<PathBuf> {
    paths
        .iter()
        .map(|p| {
            if p.is_dir() {
                p.clone()
            } else {
                p.parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .map_or_else(|| PathBuf::from("."), ToOwned::to_owned)
            }
        })
        .collect()
}

/// Checks before any grading that a report can be written at `path`.
fn check_output_file(flag: &str, path: &std::path::Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!(
            "{flag} {}: is a folder; give the path of a file to write",
            path.display()
        ));
    }
    let parent = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !parent.is_dir() {
        return Err(format!(
            "{flag} {}: the folder {} does not exist",
            path.display(),
            parent.display()
        ));
    }
    tempfile::Builder::new()
        .prefix(".cnf-grader-check-")
        .tempfile_in(parent)
        .map(drop)
        .map_err(|e| format!("{flag} {}: cannot write there: {e}", path.display()))
}

/// Checks before any grading that reports can be written into folder `dir`.
fn check_output_dir(flag: &str, dir: &std::path::Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "{flag} {}: is a file; give a folder (it is made if needed)",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{flag} {}: cannot make it: {e}", dir.display()))?;
    check_output_file(flag, &dir.join("check"))
}

/// Options shared by `submission` and `submissions`.
#[derive(Args)]
struct BuildArgs {
    /// The GHC to compile with.
    #[arg(long, value_name = "PATH", default_value = "ghc")]
    ghc: PathBuf,
    /// Time limit of one part's compilation, e.g. 120s, 2m.
    #[arg(long, value_name = "TIME", default_value = "120s", value_parser = parse_duration)]
    compile_timeout: Duration,
    /// Time limit of one run of a part on a game, e.g. 10s, 500ms.
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = parse_duration)]
    timeout: Duration,
    /// Most output accepted from one run, e.g. 1MiB, 64KiB, 4096.
    #[arg(long, value_name = "SIZE", default_value = "1MiB", value_parser = parse_size)]
    max_output: usize,
    /// Compile and run at most N at once (default: one per core; one
    /// submission's four parts always compile at once).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// The cache of compiled parts and saved results (default:
    /// $XDG_CACHE_HOME/cnf-grader or ~/.cache/cnf-grader).
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

#[derive(Args)]
struct SubmissionArgs {
    /// The folder with csce322assignment03part01.hs ... part04.hs (and maybe Helpers.hs).
    dir: PathBuf,
    /// Fixture folders or files to grade on.
    #[arg(default_value = "fixtures/")]
    fixtures: Vec<PathBuf>,
    #[command(flatten)]
    build: BuildArgs,
    /// Report format.
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Write the report to FILE (atomically) instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// When to colour the human report.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorWhen,
    /// Leave durations out of the report (for reproducible output).
    #[arg(long)]
    no_times: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum BookFormat {
    /// A table.
    #[value(alias = "table")]
    Human,
    /// One JSON document.
    Json,
}

#[derive(Args)]
struct SubmissionsArgs {
    /// The folder whose sub-folders are the students' submissions.
    root: PathBuf,
    /// Fixture folders or files to grade on.
    #[arg(default_value = "fixtures/")]
    fixtures: Vec<PathBuf>,
    #[command(flatten)]
    build: BuildArgs,
    /// Gradebook format on standard output.
    #[arg(long, value_enum, default_value = "human")]
    format: BookFormat,
    /// Also write the gradebook as CSV to FILE (atomically).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Also write each student's full report to DIR/STUDENT.txt.
    #[arg(long, value_name = "DIR")]
    reports: Option<PathBuf>,
    /// Reuse the saved results of students already graded with the same
    /// sources, fixtures and options (after Ctrl-C, kill or a crash).
    #[arg(long)]
    resume: bool,
}

#[derive(Args)]
struct BlessArgs {
    /// Folders or .cnf files whose .solution files to write.
    #[arg(default_value = "fixtures/")]
    paths: Vec<PathBuf>,
    /// Only this part: 1-4, 01-04 or the function name (repeatable).
    #[arg(long, value_name = "PART")]
    part: Vec<Function>,
    /// Write nothing; list what would change and exit 1 if anything would.
    #[arg(long)]
    check: bool,
}

#[derive(Args)]
struct RunArgs {
    /// The part: 1-4, 01-04 or the function name.
    part: Function,
    /// The .cnf game file, or - for standard input.
    file: String,
    /// Number of players for parts 3 and 4 (1-35); default: the highest player on the board.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=35))]
    players: Option<u8>,
}

#[derive(Args)]
struct CheckArgs {
    /// The .cnf files to check (- for standard input).
    #[arg(required = true)]
    files: Vec<String>,
}

#[derive(Args)]
struct GenArgs {
    /// Number of rows.
    #[arg(long, default_value_t = 6)]
    rows: usize,
    /// Number of columns.
    #[arg(long, default_value_t = 7)]
    cols: usize,
    /// Number of players (1-35): the highest player on the generated board.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// Number of moves.
    #[arg(long, default_value_t = 20)]
    moves: usize,
    /// Random seed (default: from the clock, and printed); a seed always gives the same game.
    #[arg(long)]
    seed: Option<u64>,
    /// Path of the game without .cnf, e.g. fixtures/new/game1 (default: game-SEED).
    #[arg(long)]
    name: Option<PathBuf>,
    /// Replace an existing NAME.cnf.
    #[arg(long)]
    force: bool,
}

/// Set by the Ctrl-C handler, which then ends the process itself.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = run(cli);
    // Interrupted: the handler is cleaning up and will exit with 130.
    while INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::park();
    }
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("cnf-grader: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Grade(args) => grade_command(args),
        Command::Bless(args) => bless_command(args),
        Command::Run(args) => Ok(run_command(args)),
        Command::Check(args) => Ok(check_command(args)),
        Command::Gen(args) => gen_command(args),
        Command::Submission(args) => submission_command(args),
        Command::Submissions(args) => submissions_command(args),
    }
}

/// Writes text to standard output; a closed pipe ends quietly.
fn print_out(text: &str, color: Option<ColorWhen>) -> Result<(), String> {
    let result = match color {
        None => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        }
        Some(when) => {
            let choice = match when {
                ColorWhen::Auto => anstream::ColorChoice::Auto,
                ColorWhen::Always => anstream::ColorChoice::Always,
                ColorWhen::Never => anstream::ColorChoice::Never,
            };
            let mut out = anstream::AutoStream::new(io::stdout().lock(), choice);
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        }
    };
    match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the report: {e}"))
        }
        _ => Ok(()),
    }
}

fn grade_command(args: GradeArgs) -> Result<ExitCode, String> {
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
    let report_options = ReportOptions {
        times: !args.no_times,
        points: score.as_ref(),
        warning: (args.exec.is_some() && !sandboxed).then_some(NO_SANDBOX_WARNING),
    };
    let to_terminal = args.output.is_none() && matches!(args.format, Format::Human);
    let style = match (to_terminal, args.color) {
        (true, ColorWhen::Auto | ColorWhen::Always) => Style::Color,
        _ => Style::Plain,
    };
    let text = match args.format {
        Format::Human => human(&cases, report_options, style),
        Format::Json => json(&cases, report_options),
        Format::Junit => junit(&cases, report_options),
    };
    match &args.output {
        Some(path) => write_atomically(path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print_out(&text, to_terminal.then_some(args.color))?,
    }
    Ok(if Totals::of(&cases).all_passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A progress bar on standard error for long runs on a terminal; hidden otherwise.
fn progress_bar(total: usize, exec: bool) -> ProgressBar {
    let long = total >= 2000 || (exec && total >= 20);
    let interactive = io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    if !(long && interactive) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} cases  {elapsed} (about {eta} left)")
    {
        bar.set_style(style);
    }
    bar
}

/// A progress bar of students graded on standard error, on a terminal only.
fn students_bar(total: usize) -> ProgressBar {
    let interactive = io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    if !interactive || total < 2 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "compiling, then grading: {bar:40} {pos}/{len} students  {elapsed}",
    ) {
        bar.set_style(style);
    }
    bar
}

fn bless_command(args: BlessArgs) -> Result<ExitCode, String> {
    let fixtures = discover(&args.paths).map_err(|e| e.to_string())?;
    if !fixtures.iter().any(|f| f.cnf_exists) {
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!("no .cnf files under {}", paths.join(" ")));
    }
    let functions = if args.part.is_empty() {
        Function::ALL.to_vec()
    } else {
        let mut f = args.part.clone();
        f.sort();
        f.dedup();
        f
    };
    let entries = bless(&fixtures, &functions, args.check);
    let mut text = String::new();
    let (mut created, mut changed, mut unchanged, mut not_written, mut failed) = (0, 0, 0, 0, 0);
    for entry in &entries {
        text.push_str(&entry.line(args.check));
        text.push('\n');
        match entry.action {
            Action::Created => created += 1,
            Action::Changed => changed += 1,
            Action::Unchanged => unchanged += 1,
            Action::NotWritten(_) => not_written += 1,
            Action::Failed(_) => failed += 1,
        }
    }
    let verb = if args.check { "would be " } else { "" };
    text.push_str(&format!(
        "{created} {verb}created, {changed} {verb}changed, {unchanged} unchanged"
    ));
    if not_written > 0 {
        text.push_str(&format!(", {not_written} not written"));
    }
    if failed > 0 {
        text.push_str(&format!(", {failed} errors"));
    }
    text.push('\n');
    print_out(&text, None)?;
    let bad = failed > 0 || (args.check && created + changed > 0);
    Ok(if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn run_command(args: RunArgs) -> ExitCode {
    let name = format!("part0{}", args.part.part());
    if args.players.is_some() && !args.part.uses_players() {
        eprintln!("{name}: --players applies only to parts 3 and 4");
        return ExitCode::from(2);
    }
    let (display, source) = match common::read_input(&args.file) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("{name}: {message}");
            return ExitCode::from(2);
        }
    };
    match play_source(args.part, &source, args.players.and_then(Player::new)) {
        Ok(text) => common::write_stdout(&text),
        Err(e) => {
            eprintln!("{}", e.render(&display, &source));
            ExitCode::from(2)
        }
    }
}

fn check_command(args: CheckArgs) -> ExitCode {
    let mut text = String::new();
    let mut invalid = 0;
    for file in &args.files {
        match common::read_input(file) {
            Err(message) => {
                invalid += 1;
                text.push_str(&message);
                text.push('\n');
            }
            Ok((display, source)) => match parse_cnf(&source) {
                Ok(game) => {
                    let players = game
                        .board
                        .highest_player()
                        .map_or("no pieces".to_owned(), |p| {
                            format!("players 1-{}", p.number())
                        });
                    text.push_str(&format!(
                        "{display}: ok ({} rows, {} columns, {} moves, {players})\n",
                        game.board.height(),
                        game.board.width(),
                        game.moves.len()
                    ));
                }
                Err(d) => {
                    invalid += 1;
                    text.push_str(&d.render(&display, &source).to_string());
                    text.push('\n');
                }
            },
        }
    }
    text.push_str(&format!(
        "{} valid, {invalid} invalid\n",
        args.files.len() - invalid
    ));
    if let Err(message) = print_out(&text, None) {
        eprintln!("cnf-grader: {message}");
        return ExitCode::from(2);
    }
    if invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn gen_command(args: GenArgs) -> Result<ExitCode, String> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let spec = GenSpec {
        rows: args.rows,
        cols: args.cols,
        players: args.players,
        moves: args.moves,
        seed,
    };
    let name = args
        .name
        .unwrap_or_else(|| PathBuf::from(format!("game-{seed}")));
    let mut cnf = name.as_os_str().to_owned();
    cnf.push(".cnf");
    if !args.force && PathBuf::from(&cnf).exists() {
        return Err(format!(
            "{} already exists; pick another --name or add --force",
            PathBuf::from(cnf).display()
        ));
    }
    let game = generate(&spec)?;
    let written = write_generated(&name, &game)
        .map_err(|e| format!("cannot write {}: {e}", name.display()))?;
    let mut text = format!(
        "seed {seed}: {}x{} board, {} players, {} moves\n",
        spec.rows, spec.cols, spec.players, spec.moves
    );
    for path in written {
        text.push_str(&format!("wrote {}\n", path.display()));
    }
    print_out(&text, None)?;
    Ok(ExitCode::SUCCESS)
}

/// The fixtures to grade submissions on, or why there are none.
fn submission_fixtures(paths: &[PathBuf]) -> Result<Vec<Fixture>, String> {
    let fixtures = select(
        discover(paths).map_err(|e| e.to_string())?,
        &GradeOptions::default(),
    );
    if case_count(&fixtures) == 0 {
        let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!(
            "no cases to grade under {} (a case is a NAME.FUNCTION.solution file next to NAME.cnf)",
            paths.join(" ")
        ));
    }
    Ok(fixtures)
}

/// The paths no program under test may see: the fixture folders and
/// these other paths (class folder, outputs, cache).
fn protected_paths(fixtures: &[PathBuf], others: &[Option<&std::path::Path>]) -> Vec<PathBuf> {
    let mut paths = fixture_roots(fixtures);
    paths.extend(others.iter().flatten().map(|p| p.to_path_buf()));
    paths
}

/// The default cache folder.
fn default_cache() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("cnf-grader")
}

/// Finds GHC, sets up the sandbox, opens the cache, makes the temporary
/// work folder (removed on Ctrl-C too) and the options; the folder lives
/// as long as the returned guard.
fn submission_setup(
    args: &BuildArgs,
    protected: Vec<PathBuf>,
) -> Result<(SubmissionOptions, TempDir), String> {
    let cache_dir = args.cache.clone().unwrap_or_else(default_cache);
    let cache = Cache::open(&cache_dir)
        .map_err(|e| format!("--cache {}: cannot make it: {e}", cache_dir.display()))?;
    let work = tempfile::Builder::new()
        .prefix("cnf-grader-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let mut protected = protected;
    protected.push(cache_dir);
    protected.push(work.path().to_owned());
    let root = work.path().to_owned();
    // Ctrl-C (or SIGTERM, SIGHUP): stop the compilers and student programs
    // working in the folder, remove it, and exit like a shell does for SIGINT.
    // Sandboxed programs die with the grader (--die-with-parent).
    let _ = ctrlc::set_handler(move || {
        // Hold both streams, so no report is printed meanwhile.
        let _out = io::stdout().lock();
        let _err = io::stderr().lock();
        INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
        for _ in 0..3 {
            if kill_processes_in(&root) == 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = std::fs::remove_dir_all(&root);
        eprintln!("cnf-grader: interrupted; temporary files removed");
        std::process::exit(130);
    });
    let sandbox = args.sandbox.sandbox(&protected)?;
    if sandbox.as_ref().is_some_and(|s| s.uid.is_some()) {
        // As root, each student's user must pass through the work folder
        // to its own (0700) build folder; no one can list it.
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(work.path(), std::fs::Permissions::from_mode(0o711))
            .map_err(|e| format!("cannot set up {}: {e}", work.path().display()))?;
    }
    let ghc = Ghc::find(&args.ghc, sandbox.as_ref()).map_err(|e| e.to_string())?;
    if sandbox.is_none() {
        eprintln!("cnf-grader: {NO_SANDBOX_WARNING}");
    }
    let options = SubmissionOptions {
        ghc,
        compile_timeout: args.compile_timeout,
        timeout: args.timeout,
        max_output: args.max_output,
        jobs: args.jobs.map(usize::from),
        work_dir: work.path().to_owned(),
        cache: Some(cache),
        sandbox,
    };
    Ok((options, work))
}

/// Kills (SIGKILL) every process whose working directory is inside `root`,
/// with its process group; returns how many were found. The grader starts
/// each compiler and student program in its own process group, so they do
/// not get the terminal's SIGINT themselves.
fn kill_processes_in(root: &std::path::Path) -> usize {
    use rustix::process::{Pid, Signal, kill_process, kill_process_group};
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut found = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
            .and_then(Pid::from_raw)
        else {
            continue;
        };
        if std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd.starts_with(root)) {
            found += 1;
            let _ = kill_process_group(pid, Signal::KILL);
            let _ = kill_process(pid, Signal::KILL);
        }
    }
    found
}

fn submission_command(args: SubmissionArgs) -> Result<ExitCode, String> {
    if let Some(path) = &args.output {
        check_output_file("--output", path)?;
    }
    if !args.dir.is_dir() {
        return Err(format!(
            "{}: not a folder (expected the folder with csce322assignment03part01.hs ... part04.hs)",
            args.dir.display()
        ));
    }
    let fixtures = submission_fixtures(&args.fixtures)?;
    let protected = protected_paths(&args.fixtures, &[args.output.as_deref()]);
    let (options, _work) = submission_setup(&args.build, protected)?;
    let report = grade_submission(&args.dir, &fixtures, &options).map_err(|e| e.to_string())?;
    let cases = report.all_cases();
    let report_options = ReportOptions {
        times: !args.no_times,
        points: Some(&report.points),
        warning: report.warning(),
    };
    let to_terminal = args.output.is_none() && matches!(args.format, Format::Human);
    let style = match (to_terminal, args.color) {
        (true, ColorWhen::Auto | ColorWhen::Always) => Style::Color,
        _ => Style::Plain,
    };
    let text = match args.format {
        Format::Human => report.human(&options.ghc, !args.no_times, style),
        Format::Json => {
            let mut doc: serde_json::Value = serde_json::from_str(&json(&cases, report_options))
                .map_err(|e| format!("cannot build the JSON report: {e}"))?;
            doc["submission"] = serde_json::json!({
                "dir": report.dir.display().to_string(),
                "helpers": if report.own_helpers { "own" } else { "default" },
                "ghc": options.ghc.version,
                "sandbox": report.sandboxed,
            });
            let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Junit => junit(&cases, report_options),
    };
    match &args.output {
        Some(path) => write_atomically(path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print_out(&text, to_terminal.then_some(args.color))?,
    }
    Ok(if report.all_passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn submissions_command(args: SubmissionsArgs) -> Result<ExitCode, String> {
    if !args.root.is_dir() {
        return Err(format!(
            "{}: not a folder (expected one sub-folder per student)",
            args.root.display()
        ));
    }
    // Every output is checked before an hour of grading, not after.
    if let Some(path) = &args.csv {
        check_output_file("--csv", path)?;
    }
    if let Some(dir) = &args.reports {
        check_output_dir("--reports", dir)?;
    }
    let fixtures = submission_fixtures(&args.fixtures)?;
    let count = class_folders(&args.root).map_err(|e| e.to_string())?.len();
    if count == 0 {
        return Err(format!(
            "{}: no sub-folders, so no submissions to grade",
            args.root.display()
        ));
    }
    let protected = protected_paths(
        &args.fixtures,
        &[
            Some(&args.root),
            args.csv.as_deref(),
            args.reports.as_deref(),
        ],
    );
    let (options, _work) = submission_setup(&args.build, protected)?;
    let bar = students_bar(count);
    let students = grade_class(
        &args.root,
        &fixtures,
        &options,
        ClassOptions {
            resume: args.resume,
        },
        &|| bar.inc(1),
    )
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    if let Some(dir) = &args.reports {
        for student in &students {
            let path = dir.join(format!("{}.txt", student.name));
            write_atomically(&path, student.report.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    let rows = gradebook::rows(&students);
    if let Some(path) = &args.csv {
        write_atomically(path, gradebook::csv(&rows).as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut text = match args.format {
        BookFormat::Human => gradebook::table(&rows),
        BookFormat::Json => gradebook::json(&rows),
    };
    if options.sandbox.is_none() && matches!(args.format, BookFormat::Human) {
        text.push_str(NO_SANDBOX_WARNING);
        text.push('\n');
    }
    print_out(&text, None)?;
    Ok(if rows.iter().any(|r| r.error.is_some()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
