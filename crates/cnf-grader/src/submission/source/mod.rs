//! Reading a submission: the one way the grader reads anything a student
//! left in a folder (their sources, their `Helpers.hs`, the class folder's
//! entries) and the roster.
//!
//! A submission is untrusted data, read by a grader that may be root, outside
//! any sandbox. So, as careful copiers do (rsync's `--safe-links`):
//! - a folder is opened once and its entries are looked at through that
//!   descriptor (`openat`), without following links: each entry is
//!   `lstat`ed (`statat` with `AT_SYMLINK_NOFOLLOW`) and only a regular
//!   file is opened, with `O_NOFOLLOW` and `O_NONBLOCK` (a FIFO or a device
//!   swapped in meanwhile can neither be followed nor block the read);
//! - the open descriptor is checked again (`fstat`: a regular file, the same
//!   file as the `lstat` saw, no larger than the cap) before one byte is
//!   read, and the file is read through that descriptor only, never by its
//!   path again; a file that grows past the cap while it is read is refused;
//! - a symbolic link, a FIFO, a socket, a device, or a folder where a file is
//!   expected (`NAME.hs`) is not submitted, and [`Refused`] says why in
//!   words ("csce322assignment03part01.hs is a symbolic link; links are not
//!   followed"); so is a source over [`ReadLimits::max_file`] (1 MiB unless
//!   `--max-source` says otherwise), which is never opened;
//! - a name that is not UTF-8 (a Windows zip's `R\xe9sum\xe9.hs`) is listed,
//!   escaped, and ignored: the student is graded on the rest;
//! - what the grader compiles is copied from the bytes read here, so what is
//!   compiled is exactly what was checked.
//!
//! Only `*.hs` files are read (they are all a part can import); the names of
//! the folder's other regular files are kept, unread, for spotting misnamed
//! part files. The similarity detector reads students' part files through
//! [`read_submission`] too, so both see the same bytes:
//!
//! ```
//! use cnf_grader::submission::source::{ReadLimits, read_submission};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("csce322assignment03part01.hs"), "main = pure ()\n")?;
//! std::os::unix::fs::symlink("/etc/passwd", dir.path().join("Helpers.hs"))?;
//! let submission = read_submission(dir.path(), &ReadLimits::default())?;
//! assert_eq!(submission.files[0].name, "csce322assignment03part01.hs");
//! assert_eq!(submission.files[0].bytes, b"main = pure ()\n");
//! assert_eq!(
//!     submission.refused[0].to_string(),
//!     "Helpers.hs is a symbolic link; links are not followed"
//! );
//! # Ok(())
//! # }
//! ```
//!
//! A submission uploaded as a folder arrives one level down (a zip of
//! `alice/` unpacked into `alice/`): when the folder holds none of the four
//! part files, the one sub-folder (up to [`NESTED_DEPTH`] levels down, links
//! not followed, hidden folders and `__MACOSX` left out) that holds part
//! files is read instead, as Gradescope's kit does, and
//! [`Submission::nested`] says which; when several do, none is chosen and
//! [`Submission::scattered`] names them, so the report can say where the
//! files were found.

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, CWD, FileType, statat};

mod fd;

use fd::{Entry, c_path, cstring, entries, open_dir, read_checked, refusal_of};

use crate::escape;
use crate::model::submission::Refused;
use crate::model::submission::Why;

/// How much of a submission is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReadLimits {
    /// The largest source file read, in bytes (`--max-source`, default 1 MiB).
    pub max_file: u64,
    /// Most source files read from one submission.
    pub max_files: usize,
    /// Most bytes of sources read from one submission, all files together.
    pub max_total: u64,
    /// Most entries looked at in one folder.
    pub max_entries: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_file: 1 << 20,
            max_files: 64,
            max_total: 16 << 20,
            max_entries: 4096,
        }
    }
}

/// How many folders down a submission's part files are looked for.
pub const NESTED_DEPTH: usize = 3;

/// One source file as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Its name in the submission's folder (UTF-8, no `/`).
    pub name: String,
    /// Its bytes, as read through the checked descriptor.
    pub bytes: Vec<u8>,
}

/// A submission as read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Submission {
    /// The folder read (the one given, or the sub-folder of [`Submission::nested`]).
    pub dir: PathBuf,
    /// The sub-folder (relative to the folder given) the part files were
    /// found in, when the folder given holds none.
    pub nested: Option<PathBuf>,
    /// When the folder holds no part file and several of its sub-folders
    /// do: those sub-folders (none was read).
    pub scattered: Vec<PathBuf>,
    /// The `*.hs` files read, sorted by name.
    pub files: Vec<SourceFile>,
    /// The names of the other regular files (not read), sorted.
    pub others: Vec<String>,
    /// What was not read, and why, sorted by name.
    pub refused: Vec<Refused>,
    /// Entries left unlooked-at after [`ReadLimits::max_entries`].
    pub entries_left: usize,
}

impl Submission {
    /// The source file named `name`, if it was read.
    pub fn file(&self, name: &str) -> Option<&SourceFile> {
        self.files.iter().find(|f| f.name == name)
    }

    /// Why the entry named `name` was not read, if it was refused.
    pub fn refusal(&self, name: &str) -> Option<&Refused> {
        self.refused.iter().find(|r| r.is(name))
    }
}

/// Why a folder cannot be read at all.
#[derive(Debug, thiserror::Error)]
#[error("{}: cannot read the folder: {source}", escape::path(.path))]
pub struct ReadError {
    /// The folder.
    pub path: PathBuf,
    /// What the system said.
    pub source: io::Error,
}

fn read_error(path: &Path) -> impl Fn(rustix::io::Errno) -> ReadError + '_ {
    move |e| ReadError {
        path: path.to_owned(),
        source: e.into(),
    }
}

/// Whether `name` is one of the four part files.
fn is_part_file(name: &[u8]) -> bool {
    (1..=4).any(|part| name == format!("csce322assignment03part{part:02}.hs").as_bytes())
}

/// Whether a sub-folder is looked into for part files.
fn searched(name: &[u8]) -> bool {
    !name.starts_with(b".") && name != b"__MACOSX"
}

/// The sub-folders (relative paths, from `at`) under the folder `fd`,
/// whose entries are `list`, that hold a part file, at most `depth` levels
/// down; links are not followed, and the search stops after two finds or
/// once `budget` entries have been looked at (a tree of thousands of
/// folders costs no more than one large folder).
fn part_folders(
    fd: &OwnedFd,
    list: &[Entry],
    at: &Path,
    depth: usize,
    budget: &mut usize,
    out: &mut Vec<PathBuf>,
) {
    let folders = list
        .iter()
        .filter(|e| e.kind() == FileType::Directory && searched(&e.name));
    for entry in folders {
        if out.len() > 1 || *budget == 0 {
            return;
        }
        let Ok(name) = std::str::from_utf8(&entry.name) else {
            continue;
        };
        let Ok(sub) = open_dir(fd, &cstring(&entry.name), false) else {
            continue;
        };
        let Ok((inner, _)) = entries(&sub, *budget) else {
            continue;
        };
        *budget = budget.saturating_sub(inner.len().max(1));
        let path = at.join(name);
        if inner.iter().any(|e| is_part_file(&e.name)) {
            out.push(path);
        } else if depth > 1 {
            part_folders(&sub, &inner, &path, depth - 1, budget, out);
        }
    }
}

/// Reads the submission in `dir` (which may itself be a link the caller
/// named; nothing inside it is followed). See the module's documentation.
pub fn read_submission(dir: &Path, limits: &ReadLimits) -> Result<Submission, ReadError> {
    let path = c_path(dir).map_err(|source| ReadError {
        path: dir.to_owned(),
        source,
    })?;
    let fd = open_dir(CWD, &path, true).map_err(read_error(dir))?;
    read_folder(fd, dir, limits)
}

/// Reads the student folder `name` of the class folder `root`, refusing it
/// when it is a link (as [`list_class`] does).
pub fn read_class_member(
    root: &Path,
    name: &str,
    limits: &ReadLimits,
) -> Result<Submission, ReadError> {
    let dir = root.join(name);
    let path = c_path(root).map_err(|source| ReadError {
        path: root.to_owned(),
        source,
    })?;
    let root_fd = open_dir(CWD, &path, true).map_err(read_error(root))?;
    let fd = open_dir(&root_fd, &cstring(name.as_bytes()), false).map_err(read_error(&dir))?;
    read_folder(fd, &dir, limits)
}

fn read_folder(fd: OwnedFd, dir: &Path, limits: &ReadLimits) -> Result<Submission, ReadError> {
    let (list, left) = entries(&fd, limits.max_entries).map_err(read_error(dir))?;
    if !list.iter().any(|e| is_part_file(&e.name)) {
        let mut found = Vec::new();
        let mut budget = limits.max_entries;
        part_folders(
            &fd,
            &list,
            Path::new(""),
            NESTED_DEPTH,
            &mut budget,
            &mut found,
        );
        match found.len() {
            0 => {}
            1 => {
                let nested = found.remove(0);
                let inner = open_dir(&fd, &c_path(&nested).unwrap_or_default(), false)
                    .map_err(read_error(&dir.join(&nested)))?;
                let mut submission = read_folder(inner, &dir.join(&nested), limits)?;
                submission.nested = Some(nested);
                return Ok(submission);
            }
            _ => {
                let mut submission = read_entries(&fd, dir, list, limits);
                submission.entries_left = left;
                submission.scattered = found;
                return Ok(submission);
            }
        }
    }
    let mut submission = read_entries(&fd, dir, list, limits);
    submission.entries_left = left;
    Ok(submission)
}

/// Reads the `*.hs` files among `list`, the entries of the folder `fd`.
fn read_entries(fd: &OwnedFd, dir: &Path, list: Vec<Entry>, limits: &ReadLimits) -> Submission {
    let mut submission = Submission {
        dir: dir.to_owned(),
        ..Submission::default()
    };
    let mut total = 0u64;
    for entry in list {
        let refuse = |why| Refused {
            name_escaped: escape::bytes(&entry.name),
            why,
        };
        let Ok(name) = std::str::from_utf8(&entry.name) else {
            submission.refused.push(refuse(Why::NameNotUtf8));
            continue;
        };
        let source = name.ends_with(".hs");
        let kind = entry.kind();
        if let Some(why) = refusal_of(kind) {
            submission.refused.push(refuse(why));
            continue;
        }
        match (kind, source) {
            (FileType::Directory, true) => submission.refused.push(refuse(Why::Folder)),
            (FileType::Directory, false) => {}
            (_, false) => submission.others.push(name.to_owned()),
            (_, true) => {
                let size = u64::try_from(entry.stat.st_size).unwrap_or(0);
                if size > limits.max_file {
                    submission.refused.push(refuse(Why::TooLarge {
                        size,
                        cap: limits.max_file,
                    }));
                    continue;
                }
                if submission.files.len() == limits.max_files
                    || total.saturating_add(size) > limits.max_total
                {
                    submission.refused.push(refuse(Why::TooMuch {
                        files: limits.max_files,
                        total: limits.max_total,
                    }));
                    continue;
                }
                let cap = limits.max_file.min(limits.max_total - total);
                match read_checked(fd, &entry.name, Some(&entry.stat), cap) {
                    Ok(bytes) => {
                        total += bytes.len() as u64;
                        submission.files.push(SourceFile {
                            name: name.to_owned(),
                            bytes,
                        });
                    }
                    Err(Why::TooLarge { size, .. }) => {
                        submission.refused.push(refuse(Why::TooLarge {
                            size,
                            cap: limits.max_file,
                        }));
                    }
                    Err(why) => submission.refused.push(refuse(why)),
                }
            }
        }
    }
    submission
}

/// The entries of a class folder: one sub-folder per student.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClassListing {
    /// The student folders, sorted by name.
    pub folders: Vec<String>,
    /// Entries that would be students but are not read: a link (to a
    /// folder, or dangling) or a folder whose name is not UTF-8.
    pub refused: Vec<Refused>,
}

/// Lists the class folder `root` (which may be a link the caller named):
/// its sub-folders whose names do not start with `.`; a link among them is
/// not followed and a name that is not UTF-8 is not graded, and both are
/// listed in [`ClassListing::refused`]; files are left out.
pub fn list_class(root: &Path) -> Result<ClassListing, ReadError> {
    let path = c_path(root).map_err(|source| ReadError {
        path: root.to_owned(),
        source,
    })?;
    let fd = open_dir(CWD, &path, true).map_err(read_error(root))?;
    let (list, _) = entries(&fd, usize::MAX).map_err(read_error(root))?;
    let mut listing = ClassListing::default();
    for entry in list {
        if entry.name.starts_with(b".") {
            continue;
        }
        let refuse = |why| Refused {
            name_escaped: escape::bytes(&entry.name),
            why,
        };
        match entry.kind() {
            FileType::Directory => match String::from_utf8(entry.name.clone()) {
                Ok(name) => listing.folders.push(name),
                Err(_) => listing.refused.push(refuse(Why::NameNotUtf8)),
            },
            FileType::Symlink => {
                // Only to tell a link to a folder (a would-be student) from a
                // link to a file; the link is never followed to read.
                let target = statat(&fd, entry.name.as_slice(), AtFlags::empty());
                let to_folder = target.as_ref().map_or(true, |s| {
                    FileType::from_raw_mode(s.st_mode) == FileType::Directory
                });
                if to_folder {
                    listing.refused.push(refuse(Why::Symlink));
                }
            }
            _ => {}
        }
    }
    Ok(listing)
}

/// Reads the file `path` (a roster) as a submission's files are read: not
/// through a link, never blocking, regular files only, at most `cap` bytes.
pub fn read_file(path: &Path, cap: u64) -> Result<Vec<u8>, Refused> {
    let refuse = |why| Refused {
        name_escaped: escape::path(path),
        why,
    };
    let c = c_path(path).map_err(|e| refuse(Why::Unreadable(e.to_string())))?;
    let seen = statat(CWD, &c, AtFlags::SYMLINK_NOFOLLOW)
        .map_err(|e| refuse(Why::Unreadable(io::Error::from(e).to_string())))?;
    let kind = FileType::from_raw_mode(seen.st_mode);
    if let Some(why) = refusal_of(kind) {
        return Err(refuse(why));
    }
    if kind == FileType::Directory {
        return Err(refuse(Why::Folder));
    }
    read_checked(CWD, c.as_bytes(), Some(&seen), cap).map_err(refuse)
}

#[cfg(test)]
mod tests;
