//! Compiling one part with GHC in the sandbox, through the compile cache.

use std::fs;
use std::path::Path;
use std::time::Duration;

pub use crate::grade::discover::fixtures_digest;
use crate::grade::exec::{Outcome, run_command_in, shell_quote};
use crate::model::case::{CompileCause, CompileError};
use crate::model::provenance::digest;
use crate::model::submission::BuildOutcome;
use crate::model::submission::PartBuild;
use crate::sandbox::Bind;
use crate::submission::SubmissionOptions;
use crate::submission::ghc::compile_error;
use crate::submission::prepare::Prepared;

/// The flags every part is compiled with (part of the cache key).
pub(crate) const GHC_FLAGS: &str = "-v0 -O0 -i -i. -with-rtsopts=-M1g";

/// The exit code of the compile script when GHC wrote no executable.
pub(crate) const NO_EXE: i32 = 99;

/// The exit code of the compile script when the executable is not a
/// regular file it can read without following a link.
pub(crate) const NOT_REGULAR: i32 = 98;

/// Most bytes of executable accepted back from a compilation: the largest
/// file a sandboxed process may write (`--file-size`), which is all GHC
/// could have written.
fn max_exe(options: &SubmissionOptions) -> usize {
    let size = options.sandbox.as_ref().map_or_else(
        || crate::sandbox::Limits::default().file_size,
        |s| s.limits.file_size,
    );
    usize::try_from(size).unwrap_or(usize::MAX)
}

/// Compiles one part (or finds it in the cache); `Err` is the grader's own
/// failure (the sandbox could not start GHC, the executable could not be
/// kept), never a grade.
pub(crate) fn compile_part(
    p: &Prepared,
    part: u8,
    options: &SubmissionOptions,
) -> Result<PartBuild, String> {
    let source = p.source(part);
    let built = |outcome, duration, exe| PartBuild {
        part,
        source: source.clone(),
        outcome,
        duration,
        exe,
    };
    let key = digest([
        p.sources.as_bytes(),
        options.ghc.version.as_bytes(),
        options.ghc.path.as_os_str().as_encoded_bytes(),
        GHC_FLAGS.as_bytes(),
        &[part],
    ]);
    let exe = p.exe_name(part);
    if let Some(path) = options
        .cache
        .as_ref()
        .and_then(|c| c.find_build(&key, &exe))
    {
        return Ok(built(BuildOutcome::Compiled, Duration::ZERO, Some(path)));
    }
    let start = std::time::Instant::now();
    // GHC's own output goes to standard error; standard output carries the
    // executable back, so the compilation needs no writable host folder.
    // The executable is taken only as a regular file, opened without
    // following a link (`dd iflag=nofollow`, `O_NOFOLLOW`; non-blocking, so
    // a FIFO put in its place cannot hang it) and read up to `--file-size`
    // (the run's output cap): a preprocessor or Template Haskell left
    // running cannot swap it for a link to a big system library.
    let script = |ghc: &str, scratch: &str| {
        format!(
            "mkdir -p {scratch}/obj || exit 1; {ghc} {GHC_FLAGS} -outputdir {scratch}/obj \
             -o {scratch}/{exe} {} 1>&2 || exit $?; [ -L {scratch}/{exe} ] && exit {NOT_REGULAR}; \
             [ -e {scratch}/{exe} ] || exit {NO_EXE}; [ -f {scratch}/{exe} ] || exit {NOT_REGULAR}; \
             dd if={scratch}/{exe} iflag=nofollow,nonblock bs=64K status=none || exit {NOT_REGULAR}",
            shell_quote(&p.compile_file(part)),
        )
    };
    let max_exe = max_exe(options);
    let ghc = shell_quote(&options.ghc.path.to_string_lossy());
    let result = match &p.sandbox {
        Some(sandbox) => match sandbox.run() {
            Ok(mut run) => {
                run.bind(Bind::new(p.src(), "/build"))
                    .chdir(Path::new("/build"));
                run.execute(
                    &script(&ghc, "\"$TMPDIR\""),
                    options.compile_timeout,
                    max_exe,
                )
            }
            Err(e) => crate::grade::exec::ExecResult {
                outcome: Outcome::CouldNotStart(format!("cannot prepare the sandbox: {e}")),
                stderr: String::new(),
                stderr_truncated: false,
                usage: Default::default(),
            },
        },
        None => {
            let scratch = p.build.path().join(format!("scratch{part:02}"));
            let scratch = shell_quote(&scratch.to_string_lossy());
            let command = format!(
                "ulimit -t {}; mkdir -p {scratch}/tmp && TMPDIR={scratch}/tmp && export TMPDIR && {}",
                options.compile_timeout.as_secs() + 1,
                script(&ghc, &scratch)
            );
            run_command_in(&command, Some(&p.src()), options.compile_timeout, max_exe)
        }
    };
    let duration = start.elapsed();
    let failed = |error| Ok(built(BuildOutcome::Failed(error), duration, None));
    let bytes = match result.outcome {
        Outcome::Exited { code: 0, stdout } => stdout,
        Outcome::Exited { code: NO_EXE, .. } => {
            return failed(CompileError {
                cause: CompileCause::NoExecutable,
                output: crate::submission::ghc::first_lines(&result.stderr),
            });
        }
        Outcome::Exited {
            code: NOT_REGULAR, ..
        } => {
            return failed(CompileError {
                cause: CompileCause::NotRegular,
                output: crate::submission::ghc::first_lines(&result.stderr),
            });
        }
        // The sandbox's own failure, not GHC's: the grader's, never a grade.
        Outcome::CouldNotStart(cause) => {
            return Err(format!(
                "part {part}: the sandbox could not start GHC: {cause}"
            ));
        }
        outcome => {
            return failed(compile_error(
                outcome,
                &result.stderr,
                options.compile_timeout,
            ));
        }
    };
    // In the cache, or where the cache refuses it (its budget), in the
    // student's build folder.
    let cached = match &options.cache {
        Some(cache) => cache.store_build(&key, &exe, &bytes, &p.dir),
        None => Ok(None),
    };
    let stored = match cached {
        Ok(Some(path)) => Ok(path),
        Ok(None) => {
            let path = p.build.path().join(format!("bin{part:02}")).join(&exe);
            fs::create_dir_all(path.parent().unwrap_or(p.build.path()))
                .and_then(|()| {
                    crate::submission::cache::write_atomically_with_mode(&path, &bytes, 0o755)
                })
                .map(|()| path)
        }
        Err(e) => Err(e),
    };
    match stored {
        Ok(path) => Ok(built(BuildOutcome::Compiled, duration, Some(path))),
        // A full disk (or a cache folder gone) is the grader's failure.
        Err(e) => Err(format!(
            "part {part}: the grader could not keep the executable GHC built: {e}"
        )),
    }
}

/// Removes from the cache the executables these builds compiled (not those
/// the cache already had): a student who is not graded leaves nothing in it.
pub(crate) fn forget_builds(builds: &[PartBuild], options: &SubmissionOptions) {
    let Some(cache) = &options.cache else { return };
    let kept = cache.dir().join("builds");
    for build in builds {
        if let Some(exe) = &build.exe
            && build.duration > Duration::ZERO
            && let Some(folder) = exe.parent()
            && folder.starts_with(&kept)
        {
            let _ = fs::remove_dir_all(folder);
        }
    }
}

/// A run the sandbox could not start is the grader's failure, not the
/// student's: the builds this grading compiled are forgotten and the
/// submission gets no grade.
pub(crate) fn fault_if_not_started(
    cases: &[crate::model::case::CaseReport],
    builds: &[PartBuild],
    options: &SubmissionOptions,
) -> Result<(), crate::submission::SubmissionError> {
    let not_started: Vec<&String> = cases
        .iter()
        .filter_map(|c| match &c.failure {
            Some(crate::model::case::Failure::CouldNotStart { cause }) => Some(cause),
            _ => None,
        })
        .collect();
    if let Some(cause) = not_started.first() {
        forget_builds(builds, options);
        return Err(crate::submission::SubmissionError::Fault(format!(
            "the sandbox could not start {} of the runs: {cause}",
            not_started.len()
        )));
    }
    Ok(())
}
