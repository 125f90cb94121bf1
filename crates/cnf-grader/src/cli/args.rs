//! The command line of `cnf-grader`: every subcommand's flags, declared once.

use crate::cli::Error;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use cnf_grader::format::units::{parse_duration, parse_size, show_duration};
use cnf_grader::grade::exec::{DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT};
use cnf_grader::model::compare::Compare;
use cnf_grader::model::shard::Shard;
pub(crate) use cnf_grader::report::BookFormat;
use cnf_grader::report::gradebook::CsvLayout;
use cnf_grader::sandbox::{BackendKind, Config, DEFAULT_UID, Limits, Sandbox};
use connect_core::Function;

pub(crate) use cnf_grader::report::Format;

pub(crate) use frontend::ColorWhen;

/// A size as a default is shown and typed (`2GiB`, `64MiB`, `4096`),
/// so each default is written once, where it is defined.
fn size(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n.is_multiple_of(1 << 30) => format!("{}GiB", n >> 30),
        n if n >= 1 << 20 && n.is_multiple_of(1 << 20) => format!("{}MiB", n >> 20),
        n if n >= 1 << 10 && n.is_multiple_of(1 << 10) => format!("{}KiB", n >> 10),
        n => n.to_string(),
    }
}

#[derive(Args)]
pub(crate) struct GradeArgs {
    /// Folders, .cnf files or .solution files to grade.
    #[arg(default_value = "fixtures/")]
    pub(crate) paths: Vec<PathBuf>,
    /// Only this part: 1-4, 01-04 or the function name (repeatable).
    #[arg(long, value_name = "PART")]
    pub(crate) part: Vec<Function>,
    /// Only fixtures whose .cnf path contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub(crate) filter: Option<String>,
    /// Stop at the first failure or error; the remaining cases are reported as skipped.
    #[arg(long)]
    pub(crate) fail_fast: bool,
    /// Run at most N cases at once (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) jobs: Option<u16>,
    /// Grade another program: COMMAND is run with `sh -c` per case, with {part}
    /// replaced by 01..04, {function} by the function name and {input} by the
    /// (quoted) .cnf path, e.g. './csce322assignment03part{part} {input}'.
    #[arg(long, value_name = "COMMAND")]
    pub(crate) exec: Option<String>,
    /// CPU-time limit of one --exec run (user + system of all its
    /// processes), e.g. 10s, 2s, 500ms; the wall clock stops a run that
    /// sleeps or blocks at 3 times it (at least 5 s).
    #[arg(long, value_name = "TIME", default_value = show_duration(DEFAULT_TIMEOUT), value_parser = parse_duration)]
    pub(crate) timeout: Duration,
    /// Most output accepted from one --exec run, e.g. 1MiB, 64KiB, 4096.
    #[arg(long, value_name = "SIZE", default_value = size(DEFAULT_MAX_OUTPUT as u64), value_parser = parse_size)]
    pub(crate) max_output: usize,
    /// Add the assignment's score table: the base out of 100, then the
    /// extra credit (out of 10) and the edge cases apart.
    #[arg(long)]
    pub(crate) points: bool,
    /// Count the edge cases (fixtures under a folder named `edge`) in their
    /// parts' points, as base cases.
    #[arg(long)]
    pub(crate) edge_in_base: bool,
    #[command(flatten)]
    pub(crate) report: ReportArgs,
    /// How outputs are compared: exact (byte for byte), trailing-whitespace
    /// (line ends, trailing spaces and a final newline do not count) or
    /// whitespace (any run of white space equals any other).
    #[arg(long, value_name = "MODE", default_value = "exact", value_parser = |s: &str| s.parse::<Compare>())]
    pub(crate) compare: Compare,
    /// Grade only shard K of N (e.g. 2/3): the fixtures whose path hashes
    /// to K; `merge` combines the N JSON reports into the whole run's.
    #[arg(long, value_name = "K/N", value_parser = |s: &str| s.parse::<Shard>())]
    pub(crate) shard: Option<Shard>,
    #[command(flatten)]
    pub(crate) sandbox: SandboxArgs,
}

/// The sandbox of the programs under test (`grade --exec`, `submission`,
/// `submissions`).
#[derive(Args)]
pub(crate) struct SandboxArgs {
    /// Run the programs under test outside the sandbox, with your own rights
    /// (every report then carries a warning).
    #[arg(long)]
    pub(crate) no_sandbox: bool,
    /// Also show PATH (a file or folder) read-only inside the sandbox; repeatable.
    #[arg(long = "sandbox-ro", value_name = "PATH")]
    pub(crate) sandbox_ro: Vec<PathBuf>,
    /// Address space of each sandboxed process, e.g. 2GiB, 512MiB.
    #[arg(long, value_name = "SIZE", default_value = size(Limits::default().memory), value_parser = parse_size)]
    pub(crate) memory: usize,
    /// Processes (and threads) at once in one sandbox.
    #[arg(long, value_name = "N", default_value_t = Limits::default().processes, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) processes: u32,
    /// Open files of each sandboxed process.
    #[arg(long, value_name = "N", default_value_t = Limits::default().open_files, value_parser = clap::value_parser!(u32).range(8..))]
    pub(crate) open_files: u32,
    /// Largest file a sandboxed process may write, e.g. 64MiB.
    #[arg(long, value_name = "SIZE", default_value = size(Limits::default().file_size), value_parser = parse_size)]
    pub(crate) file_size: usize,
    /// Total size of the sandbox's writable /tmp, e.g. 256MiB.
    #[arg(long, value_name = "SIZE", default_value = size(Limits::default().scratch), value_parser = parse_size)]
    pub(crate) scratch: usize,
    /// CPU time of each sandboxed process, e.g. 5s (default: twice the run's time limit plus 1s).
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub(crate) cpu_time: Option<Duration>,
    /// When the grader runs as root: the unprivileged user id programs run as
    /// (student i of a class runs as UID+i).
    #[arg(long, value_name = "UID", default_value_t = DEFAULT_UID)]
    pub(crate) sandbox_uid: u32,
    /// The sandbox backend: bubblewrap, user (a root grader without
    /// namespaces) or landlock (default: the best that works here).
    #[arg(long, value_name = "BACKEND", value_parser = |s: &str| s.parse::<BackendKind>())]
    pub(crate) sandbox_backend: Option<BackendKind>,
    /// Do not use Landlock in the user and landlock backends (to check a
    /// setup as on a kernel without it, such as Gradescope's).
    #[arg(long)]
    pub(crate) no_landlock: bool,
}

impl SandboxArgs {
    /// The sandbox, or `None` with --no-sandbox (after a warning).
    pub(crate) fn sandbox(
        &self,
        protected: &[PathBuf],
        home: Option<&std::path::Path>,
    ) -> Result<Option<Sandbox>, Error> {
        if self.no_sandbox {
            return Ok(None);
        }
        // Refused up front, root or not: a run as root, or as a real
        // account, would be no sandbox at all.
        cnf_grader::sandbox::check_uid(self.sandbox_uid)?;
        let limits = Limits {
            cpu: self.cpu_time,
            memory: self.memory as u64,
            processes: self.processes,
            open_files: self.open_files,
            file_size: self.file_size as u64,
            scratch: self.scratch as u64,
        };
        let sandbox = Sandbox::new(Config {
            limits,
            read_only: self.sandbox_ro.clone(),
            protected: protected.to_vec(),
            uid: self.sandbox_uid,
            backend: self.sandbox_backend,
            landlock: !self.no_landlock,
            home: home.map(ToOwned::to_owned),
            protect_working_folder: true,
        })?;
        // Without Landlock the programs could read the grader's arguments
        // (class and fixture paths) in /proc; they are parsed by now.
        sandbox
            .hide_command_line()
            .map_err(|e| format!("cannot hide the grader's arguments from the sandbox: {e}"))?;
        Ok(Some(sandbox))
    }
}

/// Options shared by `submission` and `submissions`.
#[derive(Args)]
pub(crate) struct BuildArgs {
    /// The GHC to compile with.
    #[arg(long, value_name = "PATH", default_value = "ghc")]
    pub(crate) ghc: PathBuf,
    /// Time limit of one part's compilation, e.g. 30s, 2m (a real part
    /// compiles in under 6 s, Template Haskell included).
    #[arg(long, value_name = "TIME", default_value = "30s", value_parser = parse_duration)]
    pub(crate) compile_timeout: Duration,
    /// CPU-time limit of one run of a part on a game (user + system of all
    /// its processes), e.g. 10s, 500ms; the wall clock stops a run that
    /// sleeps or blocks at 3 times it (at least 5 s).
    #[arg(long, value_name = "TIME", default_value = show_duration(DEFAULT_TIMEOUT), value_parser = parse_duration)]
    pub(crate) timeout: Duration,
    /// Most output accepted from one run, e.g. 1MiB, 64KiB, 4096.
    #[arg(long, value_name = "SIZE", default_value = size(DEFAULT_MAX_OUTPUT as u64), value_parser = parse_size)]
    pub(crate) max_output: usize,
    /// Largest source file read from a submission, e.g. 1MiB, 256KiB; a
    /// larger one is not read, copied or compiled, and the report says so.
    #[arg(long, value_name = "SIZE", default_value = "1MiB", value_parser = parse_size)]
    pub(crate) max_source: usize,
    /// Compile and run at most N at once (default: one per core; one
    /// submission's four parts always compile at once).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) jobs: Option<u16>,
    /// The cache of compiled parts and saved results (default:
    /// $XDG_CACHE_HOME/cnf-grader or ~/.cache/cnf-grader).
    #[arg(long, value_name = "DIR")]
    pub(crate) cache: Option<PathBuf>,
    /// Most the cache may hold, e.g. 2GiB, 500MiB: the least recently used
    /// entries are removed to make room, and one student keeps at most an
    /// eighth of it (the rest of its executables is not cached; its grade
    /// is the same).
    #[arg(long, value_name = "SIZE", default_value = size(cnf_grader::submission::cache::DEFAULT_BUDGET), value_parser = parse_size)]
    pub(crate) cache_size: usize,
    /// How outputs are compared: exact (byte for byte), trailing-whitespace
    /// (line ends, trailing spaces and a final newline do not count) or
    /// whitespace (any run of white space equals any other).
    #[arg(long, value_name = "MODE", default_value = "exact", value_parser = |s: &str| s.parse::<Compare>())]
    pub(crate) compare: Compare,
    /// Count the edge cases (fixtures under a folder named `edge`) in their
    /// parts' points, as base cases.
    #[arg(long)]
    pub(crate) edge_in_base: bool,
    /// Stop running a part once N of its cases in a row timed out, counted
    /// in fixture order (so the grade is the same for any --jobs); its
    /// later cases fail as not run (default: run every case).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) part_timeouts: Option<u16>,
    /// Grade a part file named in another case (e.g.
    /// CSCE322Assignment03Part01.hs) as the part, with a note in every
    /// report (default: such a part is missing, and scores 0).
    #[arg(long)]
    pub(crate) accept_name_case: bool,
    /// The assignment: connect-four (the four part files) or peg-reversal
    /// (the student's one .hs file that defines createBoard).
    #[arg(long, value_name = "NAME", default_value = "connect-four", value_parser = |s: &str| s.parse::<cnf_grader::assignment::Assignment>())]
    pub(crate) assignment: cnf_grader::assignment::Assignment,
    /// Points of each part in all: four numbers (e.g. 25,25,25,25) or some
    /// parts by function name (e.g. createBoard=40,isGoal=10); default:
    /// the assignment's table (Peg Reversal: 25 each).
    #[arg(long, value_name = "LIST")]
    pub(crate) weights: Option<String>,

    #[command(flatten)]
    pub(crate) sandbox: SandboxArgs,
}

#[derive(Args)]
pub(crate) struct SubmissionArgs {
    /// The folder with csce322assignment03part01.hs ... part04.hs (and maybe
    /// Helpers.hs), or with the student's .hs file (--assignment peg-reversal).
    pub(crate) dir: PathBuf,
    /// Fixture folders or files to grade on (default: fixtures/, or
    /// fixtures/peg-reversal/ with --assignment peg-reversal).
    pub(crate) fixtures: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) build: BuildArgs,
    /// Start no case after TIME from the start (e.g. 8m): the cases left
    /// fail as not run, and what was graded is kept.
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub(crate) budget: Option<Duration>,
    #[command(flatten)]
    pub(crate) report: ReportArgs,
}

/// How one run's report is written (`grade`, `submission`, `merge`).
#[derive(Args)]
pub(crate) struct ReportArgs {
    /// Report format.
    #[arg(long, value_enum, default_value = "human")]
    pub(crate) format: Format,
    /// Write the report to FILE (atomically) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// When to colour the human report.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub(crate) color: ColorWhen,
    /// Leave durations and the date out of the report (for reproducible output).
    #[arg(long)]
    pub(crate) no_times: bool,
}

#[derive(Args)]
pub(crate) struct SubmissionsArgs {
    /// The folder whose sub-folders are the students' submissions.
    pub(crate) root: PathBuf,
    /// Fixture folders or files to grade on (default: fixtures/, or
    /// fixtures/peg-reversal/ with --assignment peg-reversal).
    pub(crate) fixtures: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) build: BuildArgs,
    #[command(flatten)]
    pub(crate) outputs: ClassOutputArgs,
    /// Name the students in every report: a CSV file with the header
    /// folder,name,id (id: the LMS's, e.g. Canvas's SIS User ID), or a
    /// Canvas gradebook export as it comes (Student, ID, SIS User ID, SIS
    /// Login ID, Section, ...; the folder is the SIS Login ID).
    #[arg(long, value_name = "FILE")]
    pub(crate) roster: Option<PathBuf>,
    /// Grade only shard K of N (e.g. 2/3): the students whose folder name
    /// hashes to K; `merge` combines the N JSON gradebooks into the class's.
    #[arg(long, value_name = "K/N", value_parser = |s: &str| s.parse::<Shard>())]
    pub(crate) shard: Option<Shard>,
    /// Reuse the saved results of students already graded with the same
    /// sources, fixtures and grading options (after Ctrl-C, kill or a
    /// crash); --roster, --jobs, output and report options do not count.
    /// Says why a saved result was not reused.
    #[arg(long)]
    pub(crate) resume: bool,
    /// Leave the date out of every report (reproducible output; students'
    /// reports never show durations).
    #[arg(long)]
    pub(crate) no_times: bool,
}

/// Where a class's gradebook goes (`submissions` and `merge`).
#[derive(Args)]
pub(crate) struct ClassOutputArgs {
    /// Gradebook format on standard output.
    #[arg(long, value_enum, default_value = "human")]
    pub(crate) format: BookFormat,
    /// Write the gradebook (in --format) to FILE (atomically) instead of
    /// standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Also write the gradebook as CSV to FILE (atomically; its folder is
    /// made if needed).
    #[arg(long, value_name = "FILE")]
    pub(crate) csv: Option<PathBuf>,
    /// Also write each student's full report to DIR/STUDENT.txt and their
    /// Gradescope results to DIR/STUDENT.results.json.
    #[arg(long, value_name = "DIR")]
    pub(crate) reports: Option<PathBuf>,
    /// Also write an HTML gradebook to DIR/index.html, linking to each
    /// student's page DIR/STUDENT.html.
    #[arg(long, value_name = "DIR")]
    pub(crate) html: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) csv_layout: CsvLayoutArgs,
}

/// A text that is not empty or only white space.
fn non_empty(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err(
            "it is empty (give the assignment's column header, e.g. \"Assignment 3 (12345)\")"
                .to_owned(),
        )
    } else {
        Ok(text.to_owned())
    }
}

/// The layout of `--csv`.
#[derive(Args)]
pub(crate) struct CsvLayoutArgs {
    /// The layout of --csv: full (every column) or canvas (Canvas's
    /// gradebook import: Student, ID, SIS User ID, SIS Login ID, Section
    /// and the total; needs --roster).
    #[arg(long, value_enum, default_value = "full", value_name = "LAYOUT")]
    pub(crate) csv_layout: CsvLayoutName,
    /// With --csv-layout canvas: the assignment's column, named as in a
    /// Canvas export, e.g. "Assignment 3 (12345)".
    #[arg(long, value_name = "NAME", default_value = "Assignment 3", value_parser = non_empty)]
    pub(crate) canvas_assignment: String,
}

impl CsvLayoutArgs {
    /// The layout.
    pub(crate) fn layout(&self) -> CsvLayout {
        match self.csv_layout {
            CsvLayoutName::Full => CsvLayout::Full,
            CsvLayoutName::Canvas => CsvLayout::Canvas {
                assignment: self.canvas_assignment.clone(),
            },
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum CsvLayoutName {
    /// Every column of the gradebook.
    Full,
    /// Canvas's gradebook import.
    Canvas,
}

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// The JSON reports of every shard of one run (`grade --shard K/N
    /// --format json`, or `submissions --shard K/N --format json`).
    #[arg(required = true, value_name = "REPORT.json")]
    pub(crate) reports: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) report: ReportArgs,
    /// A merged class: also write the gradebook as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    pub(crate) csv: Option<PathBuf>,
    /// A merged class: also write each student's report to DIR.
    #[arg(long = "reports", value_name = "DIR")]
    pub(crate) reports_dir: Option<PathBuf>,
    /// A merged class: also write the HTML gradebook and pages to DIR.
    #[arg(long, value_name = "DIR")]
    pub(crate) html: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) csv_layout: CsvLayoutArgs,
}

#[derive(Args)]
pub(crate) struct BlessArgs {
    /// Folders or .cnf files whose .solution files to write.
    #[arg(default_value = "fixtures/")]
    pub(crate) paths: Vec<PathBuf>,
    /// Only this part: 1-4, 01-04 or the function name (repeatable).
    #[arg(long, value_name = "PART")]
    pub(crate) part: Vec<Function>,
    /// Write nothing; list what would change and exit 1 if anything would.
    #[arg(long)]
    pub(crate) check: bool,
}

#[derive(Args)]
pub(crate) struct RunArgs {
    /// The part: 1-4, 01-04 or the function name.
    pub(crate) part: Function,
    /// The .cnf game file, or - for standard input.
    pub(crate) file: String,
    /// Number of players for parts 3 and 4 (1-35); default: the highest player on the board.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=35))]
    pub(crate) players: Option<u8>,
}

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// The .cnf files to check (- for standard input).
    #[arg(required = true)]
    pub(crate) files: Vec<String>,
}

#[derive(Args)]
pub(crate) struct GenArgs {
    /// Number of rows.
    #[arg(long, default_value_t = 6)]
    pub(crate) rows: usize,
    /// Number of columns.
    #[arg(long, default_value_t = 7)]
    pub(crate) cols: usize,
    /// Number of players (1-35): the highest player on the generated board.
    #[arg(long, default_value_t = 2)]
    pub(crate) players: u8,
    /// Number of moves.
    #[arg(long, default_value_t = 20)]
    pub(crate) moves: usize,
    /// Random seed (default: from the clock, and printed); a seed always gives the same game.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Path of the game without .cnf, e.g. fixtures/new/game1 (default: game-SEED).
    #[arg(long)]
    pub(crate) name: Option<PathBuf>,
    /// Replace an existing NAME.cnf.
    #[arg(long)]
    pub(crate) force: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SimilarityFormat {
    /// A table of the pairs listed: at or above the cut (the class's own, or
    /// --threshold) and the ten highest, at most --max-pages.
    Human,
    /// One JSON document: the counts, the cut and each student's ten closest
    /// pairs whatever the cut, the highest --max-pages with their matches.
    Json,
    /// A folder of pages (needs --output DIR): index.html and one page per
    /// pair listed as in human, at most --max-pages.
    Html,
}

/// A similarity threshold: a number from 0 to 1.
fn parse_threshold(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| (0.0..=1.0).contains(x))
        .ok_or_else(|| {
            format!("{text:?} is not a similarity; expected a number from 0 to 1, e.g. 0.5")
        })
}

#[derive(Args)]
pub(crate) struct SimilarityArgs {
    /// The class folder: one sub-folder per student, as `submissions` reads it.
    pub(crate) class: PathBuf,
    /// Code handed out (the course's template, anything given to every
    /// student): a folder of .hs files, or one file, whose fingerprints are
    /// removed from every student; repeatable. The default Helpers.hs is
    /// always base code.
    #[arg(long, value_name = "DIR")]
    pub(crate) base: Vec<PathBuf>,
    /// The assignment: connect-four (the part files and Helpers.hs are
    /// compared) or peg-reversal (each student's file that defines
    /// createBoard; the description's types are base code).
    #[arg(long, value_name = "NAME", default_value = "connect-four", value_parser = |s: &str| s.parse::<cnf_grader::assignment::Assignment>())]
    pub(crate) assignment: cnf_grader::assignment::Assignment,
    /// Report format.
    #[arg(long, value_enum, default_value = "human")]
    pub(crate) format: SimilarityFormat,
    /// Write the report to FILE (atomically) instead of standard output;
    /// with --format html, the folder to write index.html and the pair pages into.
    #[arg(long, value_name = "PATH")]
    pub(crate) output: Option<PathBuf>,
    /// List (in human and html) the pairs whose similarity is at least X,
    /// from 0 to 1, and the ten highest (default: the pairs that stand out
    /// from the class's own distribution, and the ten highest).
    #[arg(long, value_name = "X", value_parser = parse_threshold)]
    pub(crate) threshold: Option<f64>,
    /// Most pairs listed in the human table and the HTML index, each with
    /// its page; the report counts those left out. Matches are looked for
    /// in the N highest pairs only: --format json gives the others without.
    #[arg(long, value_name = "N", default_value = "300")]
    pub(crate) max_pages: usize,
    /// Compare only this part's file: 1-4, 01-04 or the function name
    /// (repeatable); Helpers.hs is then left out.
    #[arg(long, value_name = "PART")]
    pub(crate) part: Vec<Function>,
    /// Ignore, as common code, a fingerprint more than N students hold
    /// (default: a tenth of the class, at least 10).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..))]
    pub(crate) max_share: Option<u32>,
    /// Largest source file read from a submission, e.g. 1MiB, 256KiB; a
    /// larger one is not read, and the report says so.
    #[arg(long, value_name = "SIZE", default_value = "1MiB", value_parser = parse_size)]
    pub(crate) max_source: usize,
    /// Leave the date out of the report (for reproducible output).
    #[arg(long)]
    pub(crate) no_times: bool,
}
