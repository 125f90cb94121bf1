//! `cnf-grader submission` and `submissions`: grading students' Haskell.

use crate::cli::Error;
use std::io::{self};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::INTERRUPTED;
use crate::cli::args::*;
use crate::cli::output::*;
use cnf_grader::assignment::{Assignment, parse_weights};
use cnf_grader::escape;
use cnf_grader::grade::discover::DiscoverError;
use cnf_grader::grade::discover::Fixture;
use cnf_grader::grade::peg::{Suite, discover_peg};
use cnf_grader::grade::run::{GradeOptions, case_count, select};
use cnf_grader::model::class::StudentResult;
use cnf_grader::model::points::Scoring;
use cnf_grader::model::points::Table;
use cnf_grader::model::provenance::Provenance;
use cnf_grader::model::run::ShardInfo;
use cnf_grader::model::submission::NO_SANDBOX_WARNING;
use cnf_grader::output::{
    check_output_dir, check_output_file, check_outside_graded, fixture_roots,
};
use cnf_grader::report::gradebook::CsvLayout;
use cnf_grader::report::html;
use cnf_grader::submission::cache::Cache;
use cnf_grader::submission::ghc::{Ghc, GhcError};
use cnf_grader::submission::roster::{Roster, RosterError};
use cnf_grader::submission::source::ReadLimits;
use cnf_grader::submission::{
    Checkpoint, ClassOptions, SubmissionOptions, WorkDir, class_members, grade_class,
    grade_submission,
};
use cnf_grader::write::bless::write_atomically;

/// The fixture folders given, or the assignment's default.
pub(crate) fn fixture_paths(paths: &[PathBuf], assignment: Assignment) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![PathBuf::from(assignment.default_fixtures())]
    } else {
        paths.to_vec()
    }
}

/// What to grade submissions of `assignment` on, or why there is nothing.
pub(crate) fn submission_suite(paths: &[PathBuf], assignment: Assignment) -> Result<Suite, Error> {
    match assignment {
        Assignment::ConnectFour => Ok(Suite::ConnectFour(submission_fixtures(paths)?)),
        Assignment::PegReversal => {
            let cases = discover_peg(paths).map_err(|e| match &e {
                DiscoverError::Path { path, source }
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    no_such_path(
                        path,
                        "the folder that holds the Peg Reversal cases (NAME.call with \
                         NAME.expected), e.g. the project's fixtures/peg-reversal/",
                    )
                }
                _ => e.to_string(),
            })?;
            if cases.is_empty() {
                let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                return Err(format!(
                    "no cases to grade under {} (a case is a NAME.call file with its \
                     NAME.expected; `peg case` writes them)",
                    paths.join(" ")
                )
                .into());
            }
            Ok(Suite::PegReversal(cases))
        }
    }
}

/// The weights of `--weights`, as the assignment's point table.
fn point_table(args: &BuildArgs) -> Result<Table, Error> {
    match &args.weights {
        None => Ok(Table::of(args.assignment)),
        Some(text) => parse_weights(args.assignment, text)
            .map(|w| Table::weighted(args.assignment, w))
            .map_err(|e| Error::Usage(format!("--weights {text:?}: {e}"))),
    }
}

/// The fixtures to grade submissions on, or why there are none.
pub(crate) fn submission_fixtures(paths: &[PathBuf]) -> Result<Vec<Fixture>, Error> {
    let fixtures = select(discover_fixtures(paths)?, &GradeOptions::default());
    if case_count(&fixtures) == 0 {
        let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!(
            "no cases to grade under {} (a case is a NAME.FUNCTION.solution file next to NAME.cnf)",
            paths.join(" ")
        )
        .into());
    }
    Ok(fixtures)
}

/// The paths no program under test may see: the fixture folders and
/// these other paths (class folder, outputs, cache).
pub(crate) fn protected_paths(
    fixtures: &[PathBuf],
    others: &[Option<&std::path::Path>],
) -> Vec<PathBuf> {
    let mut paths = fixture_roots(fixtures);
    paths.extend(others.iter().flatten().map(|p| p.to_path_buf()));
    paths
}

/// The default cache folder.
pub(crate) fn default_cache() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("cnf-grader")
}

/// `path` made absolute, its links resolved as far as it exists.
fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
            return absolute.clone();
        };
        rest.push(name.to_owned());
        existing = parent;
    }
    let mut out = std::fs::canonicalize(existing).unwrap_or_else(|_| existing.to_owned());
    out.extend(rest.iter().rev());
    out
}

/// The protected folder (one of `protected`, or the working folder) that
/// holds `dir`, if any; `/` and world-writable working folders such as
/// `/tmp` protect nothing (as the sandbox's own check has it).
fn protected_holder(dir: &Path, protected: &[PathBuf]) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = resolved(dir);
    let cwd = std::env::current_dir()
        .ok()
        .map(|c| resolved(&c))
        .filter(|c| {
            c != Path::new("/")
                && !std::fs::metadata(c).is_ok_and(|m| m.permissions().mode() & 0o002 != 0)
        });
    protected
        .iter()
        .map(|p| resolved(p))
        .chain(cwd)
        .find(|p| dir.starts_with(p))
}

/// Where the work folder goes: `TMPDIR`, unless a folder the programs under
/// test must not see holds it (the fixtures, the class, an output, the
/// cache or the working folder: the sandbox's user must pass through the
/// work folder's parents, so the holder could not be checked or kept
/// closed whole). Then the work folder goes in `/tmp` (or `/var/tmp`), and
/// a note says so; the holder is then checked like any protected folder.
fn work_parent(protected: &[PathBuf]) -> Result<PathBuf, Error> {
    let tmp = std::env::temp_dir();
    let Some(holder) = protected_holder(&tmp, protected) else {
        return Ok(tmp);
    };
    let elsewhere = ["/tmp", "/var/tmp"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_dir() && protected_holder(p, protected).is_none())
        .ok_or_else(|| {
            format!(
                "TMPDIR {} is inside {}, which the programs under test must not see, and \
                 neither /tmp nor /var/tmp can hold the work folder instead: set TMPDIR to a \
                 folder outside the fixtures, the class, the outputs, the cache and the working \
                 folder",
                escape::path(&tmp),
                escape::path(&holder)
            )
        })?;
    frontend::note(&format!(
        "TMPDIR {} is inside {}, which the programs under test must not see: the work folder \
         goes in {} instead",
        escape::path(&tmp),
        escape::path(&holder),
        elsewhere.display()
    ));
    Ok(elsewhere)
}

/// Finds GHC, sets up the sandbox, opens the cache, makes the temporary
/// work folder (removed on Ctrl-C too) and the options; the folder lives
/// as long as the returned guard.
pub(crate) fn submission_setup(
    args: &BuildArgs,
    protected: Vec<PathBuf>,
    no_times: bool,
) -> Result<(SubmissionOptions, WorkDir), Error> {
    let cache_dir = args.cache.clone().unwrap_or_else(default_cache);
    let cache = Cache::open(&cache_dir)
        .map_err(|e| format!("--cache {}: cannot make it: {e}", cache_dir.display()))?
        .with_budget(args.cache_size as u64);
    let parent = if args.sandbox.no_sandbox {
        std::env::temp_dir()
    } else {
        work_parent(&[protected.as_slice(), std::slice::from_ref(&cache_dir)].concat())?
    };
    let mut protected = protected;
    let work = WorkDir::new(&parent).map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    protected.push(cache_dir);
    protected.push(work.path().to_owned());
    // Ctrl-C (or SIGTERM, SIGHUP): stop the compilers and student programs
    // working in the folder, remove it, and exit like a shell does for SIGINT.
    // Sandboxed programs die with the grader (--die-with-parent).
    let clean = work.cleaner();
    let _ = ctrlc::set_handler(move || {
        // Hold both streams, so no report is printed meanwhile.
        let _out = io::stdout().lock();
        let _err = io::stderr().lock();
        INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
        clean();
        eprintln!("{}interrupted; temporary files removed", frontend::PREFIX);
        std::process::exit(130);
    });
    let sandbox = args.sandbox.sandbox(&protected, Some(work.path()))?;
    if sandbox.as_ref().is_some_and(|s| s.uid.is_some()) {
        // As root, each student's user must pass through the work folder
        // to its own (0700) build folder; no one can list it.
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(work.path(), std::fs::Permissions::from_mode(0o711))
            .map_err(|e| format!("cannot set up {}: {e}", work.path().display()))?;
    }
    let ghc = Ghc::find(&args.ghc, sandbox.as_ref()).map_err(|e| match e {
        GhcError::NotFound { .. } => format!("{e} with --ghc PATH"),
        GhcError::NotInSandbox { .. } => format!("{e} with --sandbox-ro DIR"),
        GhcError::NotGhc { .. } => e.to_string(),
    })?;
    if sandbox.is_none() {
        frontend::warn(NO_SANDBOX_WARNING);
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
        compare: args.compare,
        date: report_date(no_times)?,
        read_limits: ReadLimits {
            max_file: args.max_source as u64,
            ..ReadLimits::default()
        },
        scoring: Scoring {
            edge_in_base: args.edge_in_base,
        },
        part_timeouts: args.part_timeouts.map(usize::from),
        accept_name_case: args.accept_name_case,
        deadline: None,
        checkpoint: None,
        assignment: args.assignment,
        points: point_table(args)?,
    };
    Ok((options, work))
}

pub(crate) fn submission_command(args: SubmissionArgs) -> Result<ExitCode, Error> {
    let started = std::time::Instant::now();
    let graded = (args.dir.as_path(), "the submission");
    check_outputs_outside(&[("--output", args.report.output.as_deref())], graded)?;
    check_outputs_outside(&[("--cache", args.build.cache.as_deref())], graded)?;
    if let Some(path) = &args.report.output {
        check_output_file("--output", path)?;
    }
    let result = grade_one(&args, started);
    // Gradescope shows the student only results.json: one that says
    // nothing was graded beats a missing file. Why is the instructor's
    // business (the error on standard error), not the student's. But a
    // submission the grader's own failure kept from being graded gets no
    // results.json at all (what was saved as grading went is removed), so
    // Gradescope records no score, not a zero, and the kit says why.
    match (&result, args.report.format, &args.report.output) {
        (Err(Error::NotGraded(_)), Format::Gradescope, Some(path)) => {
            let _ = std::fs::remove_file(path);
        }
        (Err(_), Format::Gradescope, Some(path)) => {
            let _ = write_atomically(
                path,
                cnf_grader::report::gradescope::setup_failed(started.elapsed()).as_bytes(),
            );
        }
        _ => {}
    }
    result
}

/// Grades the submission and writes its report; `started` is when the
/// command began (Gradescope's `execution_time` is the whole run's).
fn grade_one(args: &SubmissionArgs, started: std::time::Instant) -> Result<ExitCode, Error> {
    let assignment = args.build.assignment;
    if !args.dir.exists() {
        return Err(no_such_path(&args.dir, assignment.submission_words()).into());
    }
    if !args.dir.is_dir() {
        return Err(format!(
            "{}: not a folder (expected {})",
            args.dir.display(),
            assignment.submission_words()
        )
        .into());
    }
    let fixture_paths = fixture_paths(&args.fixtures, assignment);
    let suite = submission_suite(&fixture_paths, assignment)?;
    suite
        .check_outside(&args.dir, "the submission")
        .map_err(|e| e.to_string())?;
    let protected = protected_paths(&fixture_paths, &[args.report.output.as_deref()]);
    let (mut options, _work) = submission_setup(&args.build, protected, args.report.no_times)?;
    options.deadline = args.budget.map(|budget| started + budget);
    if let (Format::Gradescope, Some(path)) = (args.report.format, &args.report.output) {
        // results.json is kept up to date as grading goes, so a run that is
        // stopped (Gradescope's own limit) keeps what was earned.
        let path = path.clone();
        let fixtures = fixture_paths.clone();
        options.checkpoint = Some(Checkpoint(std::sync::Arc::new(move |report| {
            let report = report.relative_to(&absolute(&fixtures));
            let text = cnf_grader::report::gradescope::submission(&report, started.elapsed());
            let _ = write_atomically(&path, text.as_bytes());
        })));
    }
    let report = grade_submission(&args.dir, &suite, &options).map_err(|e| {
        if e.is_grader_fault() {
            Error::NotGraded(format!(
                "not graded: {e} (the grader's own failure, not the submission's: fix it and \
                 grade again)"
            ))
        } else {
            Error::Usage(e.to_string())
        }
    })?;
    if matches!(args.report.format, Format::Gradescope) && args.report.output.is_some() {
        // The instructor's view (the kit's standard output): where and how
        // it was graded; the student's results.json leaves it out.
        eprintln!("{}", report.provenance.line());
    }
    let to_terminal = args.report.output.is_none() && matches!(args.report.format, Format::Human);
    let style = report_style(to_terminal, args.report.color);
    let name = args.dir.file_name().map_or_else(
        || args.dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let view = cnf_grader::report::SubmissionView {
        name: &name,
        ghc: &options.ghc.version,
        times: !args.report.no_times,
        elapsed: started.elapsed(),
        style,
    };
    // Gradescope's results and the HTML page are the student's: fixtures
    // relative to their folder.
    let report = if matches!(args.report.format, Format::Gradescope | Format::Html) {
        report.relative_to(&absolute(&fixture_paths))
    } else {
        report
    };
    let text = cnf_grader::report::submission(args.report.format, &report, &view);
    emit(
        &text,
        args.report.output.as_deref(),
        to_terminal.then_some(args.report.color),
    )?;
    Ok(if report.all_passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub(crate) fn submissions_command(args: SubmissionsArgs) -> Result<ExitCode, Error> {
    if !args.root.exists() {
        return Err(
            no_such_path(&args.root, "the class folder (one sub-folder per student)").into(),
        );
    }
    if !args.root.is_dir() {
        return Err(format!(
            "{}: not a folder (expected one sub-folder per student)",
            args.root.display()
        )
        .into());
    }
    let outputs = &args.outputs;
    // Every output is checked before an hour of grading, not after; first
    // that none is inside the class, before a folder is made there.
    check_outputs_outside(
        &[
            ("--csv", outputs.csv.as_deref()),
            ("--reports", outputs.reports.as_deref()),
            ("--html", outputs.html.as_deref()),
            ("--output", outputs.output.as_deref()),
            ("--cache", args.build.cache.as_deref()),
        ],
        (args.root.as_path(), "the class folder"),
    )?;
    if let Some(path) = &outputs.output {
        check_output_file("--output", path)?;
    }
    check_class_outputs(
        outputs.csv.as_deref(),
        outputs.reports.as_deref(),
        outputs.html.as_deref(),
    )?;
    let roster = args
        .roster
        .as_deref()
        .map(Roster::read)
        .transpose()
        .map_err(|e| match e {
            RosterError::NotRead(why) => format!("--roster {why}"),
            other => other.to_string(),
        })?;
    if matches!(outputs.csv_layout.csv_layout, CsvLayoutName::Canvas) && roster.is_none() {
        return Err(
            "--csv-layout canvas needs --roster FILE: Canvas matches students by the \
             roster's id (its SIS User ID)"
                .to_owned()
                .into(),
        );
    }
    let assignment = args.build.assignment;
    let fixture_paths = fixture_paths(&args.fixtures, assignment);
    let suite = submission_suite(&fixture_paths, assignment)?;
    suite
        .check_outside(&args.root, "the class folder")
        .map_err(|e| e.to_string())?;
    let all_names = class_members(&args.root, roster.as_ref()).map_err(|e| e.to_string())?;
    if let Some(dir) = &outputs.html
        && let Some(name) = all_names
            .iter()
            .find(|n| html::page_file(n) == "index.html")
    {
        return Err(format!(
            "--html {}: the student folder {:?} would have the page index.html, which is the \
             class's gradebook; rename that folder or leave out --html",
            dir.display(),
            args.root.join(name).display().to_string()
        )
        .into());
    }
    if all_names.is_empty() {
        return Err(format!(
            "{}: no sub-folders, so no submissions to grade",
            args.root.display()
        )
        .into());
    }
    let count = args.shard.map_or(all_names.len(), |shard| {
        all_names.iter().filter(|n| shard.contains(n)).count()
    });
    let protected = protected_paths(
        &fixture_paths,
        &[
            Some(&args.root),
            args.roster.as_deref(),
            outputs.csv.as_deref(),
            outputs.reports.as_deref(),
            outputs.html.as_deref(),
            outputs.output.as_deref(),
        ],
    );
    let (options, _work) = submission_setup(&args.build, protected, args.no_times)?;
    let provenance = options.provenance(&suite);
    let bar = ClassBar::new(count);
    let students = grade_class(
        &args.root,
        &suite,
        &options,
        ClassOptions {
            resume: args.resume,
            shard: args.shard,
            roster: roster.as_ref(),
        },
        &|event| bar.update(event),
    )
    .map_err(|e| e.to_string())?;
    bar.finish();
    if args.resume {
        for note in bar.resume_notes() {
            frontend::note(&note);
        }
    }
    let class = Class {
        root: &args.root.display().to_string(),
        provenance: &provenance,
        students: &students,
        shard: args.shard.map(|shard| ShardInfo {
            shard,
            entries: all_names.len(),
        }),
        fixtures: Some(&fixture_paths),
    };
    write_class(
        &class,
        outputs.format,
        outputs
            .csv
            .as_deref()
            .map(|p| (p, outputs.csv_layout.layout())),
        outputs.reports.as_deref(),
        outputs.html.as_deref(),
        outputs.output.as_deref(),
    )
}

/// Refuses outputs inside the folder being graded (and what it is).
fn check_outputs_outside(
    outputs: &[(&str, Option<&Path>)],
    (folder, what): (&Path, &str),
) -> Result<(), Error> {
    for (flag, path) in outputs {
        if let Some(path) = path {
            check_outside_graded(flag, path, folder, what)?;
        }
    }
    Ok(())
}

/// Checks a class's output paths before any work.
pub(crate) fn check_class_outputs(
    csv: Option<&Path>,
    reports: Option<&Path>,
    html: Option<&Path>,
) -> Result<(), Error> {
    if let Some(path) = csv {
        // As --reports and --html do, --csv makes its folder.
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty())
            && !folder.is_dir()
        {
            std::fs::create_dir_all(folder).map_err(|e| {
                format!(
                    "--csv {}: cannot make the folder {}: {e}",
                    path.display(),
                    folder.display()
                )
            })?;
        }
        check_output_file("--csv", path)?;
    }
    if let Some(dir) = reports {
        check_output_dir("--reports", dir)?;
    }
    if let Some(dir) = html {
        check_output_dir("--html", dir)?;
    }
    Ok(())
}

/// The absolute folders of `fixtures`: those whose path would show an
/// instructor's folder to a student (a relative one, as the Gradescope kit
/// gives `fixtures`, names its cases `fixtures/NAME.cnf` and is kept).
fn absolute(fixtures: &[PathBuf]) -> Vec<PathBuf> {
    fixtures
        .iter()
        .filter(|f| f.is_absolute())
        .cloned()
        .collect()
}

/// A graded class (or one shard of it), as its outputs need it.
pub(crate) struct Class<'a> {
    /// The class folder, as given.
    pub(crate) root: &'a str,
    pub(crate) provenance: &'a Provenance,
    pub(crate) students: &'a [StudentResult],
    pub(crate) shard: Option<ShardInfo>,
    /// The fixtures folder, as given: what the students see (their
    /// reports and pages) names fixtures relative to it (`None`: as found).
    pub(crate) fixtures: Option<&'a [PathBuf]>,
}

/// Writes a class's reports, pages and CSV, and prints its gradebook; exit
/// code 1 when some folder could not be graded at all.
pub(crate) fn write_class(
    class: &Class<'_>,
    format: BookFormat,
    csv: Option<(&Path, CsvLayout)>,
    reports: Option<&Path>,
    html_dir: Option<&Path>,
    output: Option<&Path>,
) -> Result<ExitCode, Error> {
    let students = class.students;
    let provenance = class.provenance;
    let write = |path: &Path, text: &str| {
        write_atomically(path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    // Files are named by the escaped folder name, so no name on disk holds
    // a control character either.
    let file_name = |student: &StudentResult| escape::line(&student.name).into_owned();
    // What a student sees names fixtures relative to the fixtures folder.
    let seen = |student: &StudentResult| -> StudentResult {
        match class.fixtures {
            Some(roots) => student.relative_to(&absolute(roots)),
            None => student.clone(),
        }
    };
    if let Some(dir) = reports {
        for student in students {
            let name = file_name(student);
            let student = &seen(student);
            write(
                &dir.join(format!("{name}.txt")),
                &cnf_grader::report::submission::student(student, provenance),
            )?;
            let results = dir.join(format!("{name}.results.json"));
            if student.row.not_graded {
                // No grade, not a zero: no Gradescope results (as the kit).
                let _ = std::fs::remove_file(&results);
            } else {
                write(&results, &cnf_grader::report::gradescope::student(student))?;
            }
        }
    }
    let rows = cnf_grader::model::class::rows(students);
    let warning =
        (provenance.sandbox == cnf_grader::model::provenance::OFF).then_some(NO_SANDBOX_WARNING);
    if let Some(dir) = html_dir {
        for student in students {
            write(
                &dir.join(html::page_file(&file_name(student))),
                &html::student(&seen(student), warning, provenance),
            )?;
        }
        let title = format!("Gradebook: {}", escape::line(class.root));
        write(
            &dir.join("index.html"),
            &html::class_index(&rows, &title, warning, provenance),
        )?;
    }
    if let Some((path, layout)) = csv {
        let (text, left_out) = layout.render_of(&rows, provenance.assignment);
        if !left_out.is_empty() {
            frontend::warn(&format!(
                "{}: left out of the Canvas CSV, as the roster does not name them: {}",
                escape::path(path),
                left_out.join(", ")
            ));
        }
        write(path, &text)?;
    }
    // A shard's results are what `merge` writes the students' reports and
    // pages from: as the students see them.
    let shard_results: Vec<StudentResult> = match class.shard {
        Some(_) => students.iter().map(seen).collect(),
        None => Vec::new(),
    };
    let text = cnf_grader::report::class(
        format,
        &rows,
        &cnf_grader::report::ClassView {
            root: class.root,
            provenance,
            shard: class.shard.map(|info| (info, shard_results.as_slice())),
            warning,
        },
    );
    emit(&text, output, None)?;
    // The grader's own failures: said on standard error, and exit code 3.
    let not_graded: Vec<&cnf_grader::model::class::Row> =
        rows.iter().filter(|r| r.not_graded).collect();
    for row in &not_graded {
        eprintln!(
            "{}{}: not graded: {}",
            frontend::PREFIX,
            escape::line(&row.student),
            escape::line(row.error.as_deref().unwrap_or_default())
        );
    }
    if !not_graded.is_empty() {
        frontend::note(&format!(
            "{} of the {} students were not graded because of the grader's own failure (exit \
             code {}); nothing of them was saved: fix it and run again with --resume, which \
             grades only them again",
            not_graded.len(),
            rows.len(),
            crate::cli::NOT_GRADED
        ));
    }
    Ok(if !not_graded.is_empty() {
        ExitCode::from(crate::cli::NOT_GRADED)
    } else if rows.iter().any(|r| r.error.is_some()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
