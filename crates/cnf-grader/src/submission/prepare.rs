//! A submission as read, copied into its private build folder: which parts
//! are there, which are misnamed or refused, and how the folder was read.

use std::fs;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::assignment::Assignment;
pub use crate::grade::discover::fixtures_digest;
use crate::model::provenance::digest;
use crate::model::submission::PartBuild;
use crate::model::submission::Refused;
use crate::model::submission::part_file;
use crate::sandbox::{Sandbox, give_to};
use crate::submission::DEFAULT_HELPERS;
use crate::submission::SubmissionError;
use crate::submission::part_exe;
use crate::submission::source;
use crate::submission::source::Submission;

/// A submission copied into its private build folder.
pub(crate) struct Prepared {
    /// The folder given.
    pub(crate) dir: PathBuf,
    /// How it was read.
    pub(crate) read: Reading,
    pub(crate) build: TempDir,
    pub(crate) present: [bool; 4],
    /// Part files that are there but were not read.
    pub(crate) refused: [Option<Refused>; 4],
    pub(crate) misnamed: [Option<String>; 4],
    /// Part files graded under the right name (`--accept-name-case`): the
    /// names as submitted.
    pub(crate) renamed: Vec<String>,
    pub(crate) own_helpers: bool,
    /// Its files that replace a standard module (`Prelude.hs`, ...).
    pub(crate) shadows: Vec<String>,
    /// The hash of every source file and the helper used.
    pub(crate) sources: String,
    /// The sandbox of this student (its own user id when the grader is root).
    pub(crate) sandbox: Option<Sandbox>,
    /// The assignment it is graded on.
    pub(crate) assignment: Assignment,
    /// Peg Reversal: the student's file (the one that defines `createBoard`).
    pub(crate) student: Option<String>,
    /// Peg Reversal: the files that define `createBoard`, when not exactly one.
    pub(crate) candidates: Vec<String>,
}

impl Prepared {
    pub(crate) fn src(&self) -> PathBuf {
        self.build.path().join("src")
    }

    /// The file GHC compiles for part `part` (in [`Prepared::src`]).
    pub(crate) fn compile_file(&self, part: u8) -> String {
        match self.assignment {
            Assignment::ConnectFour => part_file(part),
            Assignment::PegReversal => crate::assignment::peg_reversal::driver_file(part),
        }
    }

    /// The name of part `part`'s executable.
    pub(crate) fn exe_name(&self, part: u8) -> String {
        match self.assignment {
            Assignment::ConnectFour => part_exe(part),
            Assignment::PegReversal => self.assignment.function(part).to_owned(),
        }
    }

    /// Puts the executables these builds compiled into the run folder
    /// `bin` of the build folder, each under [`Prepared::exe_name`] (a hard
    /// link, or a copy), with `bin` and its scratch `bin/tmp` given to the
    /// student's user (as root the folder is that user's, and the sandbox's
    /// user must reach them); returns `bin` and each part's program.
    pub(crate) fn place_programs(
        &self,
        builds: &[PartBuild],
    ) -> Result<(PathBuf, Vec<(u8, PathBuf)>), SubmissionError> {
        let bin = self.build.path().join("bin");
        let uid = self.sandbox.as_ref().and_then(|s| s.uid);
        let failed = |source| SubmissionError::Build {
            path: bin.clone(),
            source,
        };
        fs::create_dir_all(bin.join("tmp")).map_err(failed)?;
        give_to(&bin, uid).map_err(failed)?;
        give_to(&bin.join("tmp"), uid).map_err(failed)?;
        let mut programs = Vec::new();
        for build in builds {
            if let Some(exe) = &build.exe {
                let to = bin.join(self.exe_name(build.part));
                if fs::hard_link(exe, &to).is_err() {
                    fs::copy(exe, &to).map_err(failed)?;
                }
                programs.push((build.part, to));
            }
        }
        Ok((bin, programs))
    }

    /// Part `part`'s source in the submission's folder, as reports name it.
    pub(crate) fn source(&self, part: u8) -> PathBuf {
        match (self.assignment, &self.student) {
            (Assignment::ConnectFour, _) => self.read.dir.join(part_file(part)),
            (Assignment::PegReversal, Some(file)) => self.read.dir.join(file),
            (Assignment::PegReversal, None) => self.read.dir.clone(),
        }
    }
}

/// What a report says of how a submission was read (its bytes are gone
/// once copied into the build folder).
#[derive(Debug, Clone, Default)]
pub(crate) struct Reading {
    /// The folder the sources came from.
    pub(crate) dir: PathBuf,
    pub(crate) nested: Option<PathBuf>,
    pub(crate) scattered: Vec<PathBuf>,
    pub(crate) refused: Vec<Refused>,
}

/// `name` with letters lowered and every number written without leading
/// zeros, for spotting misnamed part files.
pub(crate) fn loose_name(name: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in name.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            let trimmed = digits.trim_start_matches('0');
            out.push_str(if trimmed.is_empty() { "0" } else { trimmed });
            digits.clear();
        }
        out.extend(c.to_lowercase());
    }
    out.pop();
    out
}

/// The file among `names` that looks meant to be part `part`'s source.
pub(crate) fn misnamed_part(names: &[String], part: u8) -> Option<String> {
    let wanted = loose_name(&part_exe(part));
    let tail = format!("part{part}");
    names
        .iter()
        .filter(|n| **n != part_file(part))
        .filter_map(|n| {
            let (stem, ext) = n.rsplit_once('.')?;
            matches!(ext.to_ascii_lowercase().as_str(), "hs" | "lhs").then(|| (n, loose_name(stem)))
        })
        .find(|(_, stem)| *stem == wanted)
        .or_else(|| {
            names
                .iter()
                .filter(|n| **n != part_file(part))
                .filter_map(|n| {
                    let (stem, ext) = n.rsplit_once('.')?;
                    matches!(ext.to_ascii_lowercase().as_str(), "hs" | "lhs")
                        .then(|| (n, loose_name(stem)))
                })
                .find(|(_, stem)| stem.ends_with(&tail))
        })
        .map(|(n, _)| n.clone())
}

/// Gives the build folder `build`, its sources folder `src` and every file
/// in it to the student's own user, when the sandbox runs the student as
/// one (the grader is root): that user reads its sources, and no other
/// student can.
pub(crate) fn give_build_to(
    sandbox: Option<&Sandbox>,
    build: &Path,
    src: &Path,
) -> Result<(), SubmissionError> {
    let Some(uid) = sandbox.and_then(|s| s.uid) else {
        return Ok(());
    };
    let own = |path: &Path| {
        std::os::unix::fs::chown(path, Some(uid), Some(uid)).map_err(|source| {
            SubmissionError::Build {
                path: path.to_owned(),
                source,
            }
        })
    };
    own(build)?;
    own(src)?;
    let entries = fs::read_dir(src).map_err(|source| SubmissionError::Build {
        path: src.to_owned(),
        source,
    })?;
    for entry in entries.flatten() {
        own(&entry.path())?;
    }
    Ok(())
}

/// A new private build folder (mode 0700) in `work`.
pub(crate) fn build_folder(work: &Path) -> Result<TempDir, SubmissionError> {
    tempfile::Builder::new()
        .prefix("student-")
        .tempdir_in(work)
        .and_then(|d| {
            use std::os::unix::fs::PermissionsExt as _;
            fs::set_permissions(d.path(), fs::Permissions::from_mode(0o700)).map(|()| d)
        })
        .map_err(|source| SubmissionError::Build {
            path: work.to_owned(),
            source,
        })
}

/// Copies a submission as read (`submission`, from the folder `dir`) into
/// a new private build folder in `work`; with `accept_name_case`, a part
/// file named in another case (`CSCE322Assignment03Part01.hs`) is copied
/// under the right name too, and graded.
pub(crate) fn prepare(
    dir: &Path,
    submission: Submission,
    work: &Path,
    sandbox: Option<Sandbox>,
    accept_name_case: bool,
) -> Result<Prepared, SubmissionError> {
    let mut names: Vec<String> = submission
        .files
        .iter()
        .map(|f| f.name.clone())
        .chain(submission.others.iter().cloned())
        .collect();
    names.sort();
    let mut present: [bool; 4] =
        std::array::from_fn(|i| submission.file(&part_file(i as u8 + 1)).is_some());
    let refused: [Option<Refused>; 4] =
        std::array::from_fn(|i| submission.refusal(&part_file(i as u8 + 1)).cloned());
    // (part, the file as named) of each part graded from another case.
    let mut renamed: Vec<(u8, &source::SourceFile)> = Vec::new();
    for part in 1..=4u8 {
        let at = usize::from(part - 1);
        if !accept_name_case || present[at] || refused[at].is_some() {
            continue;
        }
        let wanted = part_file(part);
        if let Some(file) = submission
            .files
            .iter()
            .find(|f| f.name.to_lowercase() == wanted)
        {
            present[at] = true;
            renamed.push((part, file));
        }
    }
    let misnamed: [Option<String>; 4] = std::array::from_fn(|i| {
        (!present[i] && refused[i].is_none())
            .then(|| misnamed_part(&names, i as u8 + 1))
            .flatten()
    });
    let own_helpers = submission.file("Helpers.hs").is_some();
    let shadows: Vec<String> = submission
        .files
        .iter()
        .filter(|f| {
            f.name
                .strip_suffix(".hs")
                .is_some_and(|m| crate::model::submission::STANDARD_MODULES.contains(&m))
        })
        .map(|f| f.name.clone())
        .collect();
    let build = build_folder(work)?;
    let failed = |path: &Path| {
        let path = path.to_owned();
        move |source| SubmissionError::Build { path, source }
    };
    let src = build.path().join("src");
    fs::create_dir(&src).map_err(failed(&src))?;
    // What compiles is what was read: the copies are made from those bytes.
    let write_new = |path: &Path, bytes: &[u8]| {
        use std::io::Write as _;
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
            .map_err(failed(path))
    };
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    for file in &submission.files {
        write_new(&src.join(&file.name), &file.bytes)?;
        pieces.push(file.name.as_bytes().to_vec());
        pieces.push(file.bytes.clone());
    }
    for (part, file) in &renamed {
        write_new(&src.join(part_file(*part)), &file.bytes)?;
        pieces.push(format!("{} graded as {}", file.name, part_file(*part)).into_bytes());
    }
    if !own_helpers {
        let helpers = src.join("Helpers.hs");
        write_new(&helpers, DEFAULT_HELPERS.as_bytes())?;
        pieces.push(b"Helpers.hs (default)".to_vec());
        pieces.push(DEFAULT_HELPERS.as_bytes().to_vec());
    }
    give_build_to(sandbox.as_ref(), build.path(), &src)?;
    Ok(Prepared {
        dir: dir.to_owned(),
        read: Reading {
            dir: submission.dir,
            nested: submission.nested,
            scattered: submission.scattered,
            refused: submission.refused,
        },
        build,
        present,
        refused,
        misnamed,
        renamed: renamed.iter().map(|(_, f)| f.name.clone()).collect(),
        own_helpers,
        shadows,
        sources: digest(pieces.iter().map(Vec::as_slice)),
        sandbox,
        assignment: Assignment::ConnectFour,
        student: None,
        candidates: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::fs;
    use std::path::Path;

    use crate::submission::source::ReadLimits;

    #[test]
    fn misnamed_part_files_are_spotted() {
        let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let found = |n: &[&str], part| misnamed_part(&names(n), part);
        assert_eq!(
            found(&["csce322assignment03Part01.hs"], 1).as_deref(),
            Some("csce322assignment03Part01.hs")
        );
        assert_eq!(
            found(&["csce322assignment3part01.hs"], 1).as_deref(),
            Some("csce322assignment3part01.hs")
        );
        assert_eq!(
            found(&["csce322assignment03part01.lhs"], 1).as_deref(),
            Some("csce322assignment03part01.lhs")
        );
        assert_eq!(
            found(&["part2.hs", "Helpers.hs"], 2).as_deref(),
            Some("part2.hs")
        );
        assert_eq!(
            found(&["csce322assignment03part01.hs", "notes.txt"], 1),
            None
        );
        assert_eq!(found(&["csce322assignment03part12.hs"], 1), None);
        assert_eq!(
            loose_name("csce322Assignment03Part001"),
            "csce322assignment3part1"
        );
    }

    fn prepare_dir(dir: &Path, work: &Path) -> Prepared {
        let read = source::read_submission(dir, &ReadLimits::default()).unwrap();
        prepare(dir, read, work, None, false).unwrap()
    }

    #[test]
    fn preparing_copies_sources_and_never_writes_into_the_submission() {
        use std::os::unix::fs::PermissionsExt as _;
        let sub = tempfile::tempdir().unwrap();
        let work = tempfile::tempdir().unwrap();
        fs::write(sub.path().join(part_file(1)), "main = pure ()").unwrap();
        fs::write(sub.path().join(part_file(3)), "main = pure ()").unwrap();
        fs::write(sub.path().join("Extra.hs"), "module Extra where").unwrap();
        fs::write(sub.path().join("notes.txt"), "hello").unwrap();
        let before: Vec<_> = fs::read_dir(sub.path()).unwrap().collect();
        let p = prepare_dir(sub.path(), work.path());
        assert_eq!(p.present, [true, false, true, false]);
        assert!(!p.own_helpers);
        let src = p.src();
        assert!(src.join("Extra.hs").is_file());
        assert!(!src.join("notes.txt").exists());
        assert_eq!(
            fs::read_to_string(src.join("Helpers.hs")).unwrap(),
            DEFAULT_HELPERS
        );
        let mode = fs::metadata(p.build.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700, "build folders are private");
        assert_eq!(fs::read_dir(sub.path()).unwrap().count(), before.len());
        // The same sources hash alike; another file changes the hash.
        let again = prepare_dir(sub.path(), work.path());
        assert_eq!(again.sources, p.sources);
        fs::write(sub.path().join("Extra.hs"), "module Extra where\n").unwrap();
        assert_ne!(prepare_dir(sub.path(), work.path()).sources, p.sources);
        let build = p.build.path().to_owned();
        drop(p);
        assert!(!build.exists(), "the build folder is removed");
    }
}
