//! `cnf-grader`: grade fixture trees, bless expected results, run, check and
//! generate games.
#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: a command-line front end

mod cli;

use crate::cli::args::*;
use crate::cli::fixtures::*;
use crate::cli::grade::*;
use crate::cli::inert::{Given, check_color, check_csv_layout, check_grade};
use crate::cli::merge::*;
use crate::cli::similarity::similarity_command;
use crate::cli::submission::*;

use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

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
    /// on each game and compare its output with the .solution file, by
    /// default with --compare exact (byte for byte: a trailing space or a
    /// CRLF is a difference); --compare trailing-whitespace or whitespace
    /// relax it.
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
    /// otherwise, 2 for usage errors or when GHC cannot be run, 3 when the
    /// grader's own failure (a full disk, a sandbox that could not start)
    /// kept it from grading: no grade (no Gradescope results.json).
    Submission(SubmissionArgs),
    /// Grade a whole class: every sub-folder of ROOT is one student's
    /// submission; print a gradebook with one row per student.
    ///
    /// Exit code: 0 when every submission was graded (whatever its points),
    /// 1 when some folder could not be graded at all, 2 for usage errors or
    /// when GHC cannot be run, 3 when some students could not be graded
    /// because of the grader's own failure (a full disk, a sandbox that
    /// could not start): they get no points, nothing of them is saved, and
    /// `--resume` grades them again.
    Submissions(SubmissionsArgs),
    /// Combine the JSON reports of every shard of one run (`grade --shard
    /// K/N --format json` or `submissions --shard K/N --format json`) into
    /// the whole run's report, in any format: the same report as one
    /// unsharded run, apart from durations and the date. A merged class's
    /// gradebook takes --format human or json, and --csv, --reports, --html.
    ///
    /// Exit code: as the unsharded run's (0, 1 for failures, 3 for students
    /// not graded because of the grader's own failure), 2 when the
    /// reports are unreadable, from different runs, or a shard is missing
    /// or given twice.
    Merge(MergeArgs),
    /// Look for copying across a class: every sub-folder of CLASS is one
    /// student; their part files (and own Helpers.hs) are compared as
    /// Haskell, whatever the names, order, comments and layout, with the
    /// --base code removed; print the pairs that share most code, with the
    /// matching lines.
    ///
    /// Exit code: 0 whatever is found (a report is evidence for a person,
    /// not a verdict), 2 for usage errors or an unreadable class or base.
    Similarity(SimilarityArgs),
}

/// Set by the Ctrl-C handler, which then ends the process itself.
pub(crate) static INTERRUPTED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Marks every descriptor above 2 this process inherited close-on-exec
/// (issue 41: a CI runner or a harness may start the grader holding a
/// pipe, a log, a folder of fixtures), so no program it starts, GHC and the
/// students' programs above all, inherits one; the grader itself may still
/// use them. Each sandboxed run does the same again before its exec.
// (The sandbox crate's `close_inherited_on_exec` does this too; this is
// the grader's own copy until both streams meet.)
fn close_inherited_on_exec() {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    let fds: Vec<i32> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .filter(|fd| *fd > 2)
        .collect();
    for fd in fds {
        // SAFETY: the descriptor is only borrowed for the one fcntl call
        // (the listing's own, already closed, gives EBADF, which is fine).
        #[allow(unsafe_code)] // reason: fcntl on a descriptor number from /proc/self/fd
        let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
        if let Ok(flags) = rustix::io::fcntl_getfd(fd) {
            let _ = rustix::io::fcntl_setfd(fd, flags | rustix::io::FdFlags::CLOEXEC);
        }
    }
}

fn main() -> ExitCode {
    close_inherited_on_exec();
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = run(cli, Given::of(&matches));
    // Interrupted: the handler is cleaning up and will exit with 130.
    while INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::park();
    }
    match result {
        Ok(code) => code,
        Err(error) => {
            // A message may quote a name or a line from outside (a folder,
            // a roster): shown escaped, like every report.
            eprintln!(
                "{}{}",
                frontend::PREFIX,
                cnf_grader::escape::text(&error.to_string())
            );
            error.code()
        }
    }
}

fn run(cli: Cli, given: Given<'_>) -> Result<ExitCode, cli::Error> {
    // A flag that would do nothing is refused before any work (cli::inert).
    match &cli.command {
        Command::Grade(args) => check_grade(args, given)?,
        Command::Submission(args) => check_color(&args.report)?,
        Command::Submissions(args) => {
            check_csv_layout(args.outputs.csv.is_some(), &args.outputs.csv_layout, given)?;
        }
        Command::Merge(args) => {
            check_color(&args.report)?;
            check_csv_layout(args.csv.is_some(), &args.csv_layout, given)?;
        }
        _ => {}
    }
    match cli.command {
        Command::Grade(args) => grade_command(args),
        Command::Bless(args) => bless_command(args),
        Command::Run(args) => run_command(args),
        Command::Check(args) => check_command(args),
        Command::Gen(args) => gen_command(args),
        Command::Submission(args) => submission_command(args),
        Command::Submissions(args) => submissions_command(args),
        Command::Merge(args) => merge_command(args),
        Command::Similarity(args) => similarity_command(args),
    }
}
