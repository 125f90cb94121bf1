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

use std::ffi::CStr;
use std::fs::File;
use std::io::{self, Read as _};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, CWD, Dir, FileType, Mode, OFlags, Stat, fstat, openat, statat};

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

/// Opens a folder for listing; `follow` says whether `path` itself may be a
/// link (a path the user typed) or not (an entry of a student's folder).
fn open_dir(at: impl AsFd, path: &CStr, follow: bool) -> rustix::io::Result<OwnedFd> {
    let mut flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK;
    if !follow {
        flags |= OFlags::NOFOLLOW;
    }
    openat(at, path, flags, Mode::empty())
}

fn c_path(path: &Path) -> io::Result<std::ffi::CString> {
    std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "the path holds a NUL byte"))
}

/// One entry of a folder, `lstat`ed.
struct Entry {
    name: Vec<u8>,
    stat: Stat,
}

impl Entry {
    fn kind(&self) -> FileType {
        FileType::from_raw_mode(self.stat.st_mode)
    }
}

/// The entries of the folder `fd` (`.` and `..` left out), sorted by name,
/// each `lstat`ed; and how many were left after `max`.
fn entries(fd: &OwnedFd, max: usize) -> rustix::io::Result<(Vec<Entry>, usize)> {
    let mut names = Vec::new();
    let mut left = 0;
    for entry in Dir::read_from(fd)? {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        if names.len() == max {
            left += 1;
            continue;
        }
        names.push(name.to_vec());
    }
    names.sort();
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        // An entry gone meanwhile is simply not there.
        if let Ok(stat) = statat(fd, name.as_slice(), AtFlags::SYMLINK_NOFOLLOW) {
            out.push(Entry { name, stat });
        }
    }
    Ok((out, left))
}

/// Why an entry of this type is never opened (`None`: a regular file or a folder).
fn refusal_of(kind: FileType) -> Option<Why> {
    match kind {
        FileType::RegularFile | FileType::Directory => None,
        FileType::Symlink => Some(Why::Symlink),
        FileType::Fifo => Some(Why::Fifo),
        FileType::Socket => Some(Why::Socket),
        FileType::CharacterDevice | FileType::BlockDevice => Some(Why::Device),
        _ => Some(Why::Unreadable("an unknown kind of file".to_owned())),
    }
}

/// Reads the regular file `name` of the folder `dir` through one checked
/// descriptor: opened without following a link and without blocking,
/// `fstat`ed (a regular file, the one `seen` was, at most `cap` bytes), and
/// read to at most `cap` bytes.
fn read_checked(
    dir: impl AsFd,
    name: &[u8],
    seen: Option<&Stat>,
    cap: u64,
) -> Result<Vec<u8>, Why> {
    let flags =
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    let fd = openat(dir, name, flags, Mode::empty()).map_err(|e| match e {
        rustix::io::Errno::LOOP => Why::Symlink,
        e => Why::Unreadable(io::Error::from(e).to_string()),
    })?;
    let stat = fstat(&fd).map_err(|e| Why::Unreadable(io::Error::from(e).to_string()))?;
    if let Some(why) = refusal_of(FileType::from_raw_mode(stat.st_mode)) {
        return Err(why);
    }
    if FileType::from_raw_mode(stat.st_mode) == FileType::Directory {
        return Err(Why::Folder);
    }
    if let Some(seen) = seen
        && (seen.st_dev, seen.st_ino) != (stat.st_dev, stat.st_ino)
    {
        return Err(Why::Unreadable(
            "it was replaced while it was being read".to_owned(),
        ));
    }
    let size = u64::try_from(stat.st_size).unwrap_or(0);
    if size > cap {
        return Err(Why::TooLarge { size, cap });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    File::from(fd)
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Why::Unreadable(e.to_string()))?;
    let read = bytes.len() as u64;
    if read > cap {
        return Err(Why::TooLarge { size: read, cap });
    }
    Ok(bytes)
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

fn cstring(bytes: &[u8]) -> std::ffi::CString {
    // Names from a directory listing hold no NUL byte.
    std::ffi::CString::new(bytes).unwrap_or_default()
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
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt as _;
    use std::os::unix::fs::symlink;

    fn read(dir: &Path) -> Submission {
        read_submission(dir, &ReadLimits::default()).unwrap()
    }

    fn names(s: &Submission) -> Vec<&str> {
        s.files.iter().map(|f| f.name.as_str()).collect()
    }

    fn refusals(s: &Submission) -> Vec<String> {
        s.refused.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn regular_sources_are_read_and_other_files_only_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.hs"), "b").unwrap();
        std::fs::write(dir.path().join("a.hs"), "a").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "n").unwrap();
        std::fs::write(dir.path().join("csce322assignment03Part01.lhs"), "x").unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let s = read(dir.path());
        assert_eq!(names(&s), ["a.hs", "b.hs"]);
        assert_eq!(s.files[0].bytes, b"a");
        assert_eq!(s.others, ["csce322assignment03Part01.lhs", "notes.txt"]);
        assert!(s.refused.is_empty());
        assert_eq!(s.nested, None);
    }

    #[test]
    fn links_fifos_sockets_and_folders_are_refused_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("real.hs"), "r").unwrap();
        symlink("real.hs", d.join("csce322assignment03part01.hs")).unwrap();
        symlink("/proc/self/environ", d.join("Env.hs")).unwrap();
        symlink("/no/such/file", d.join("dangling.txt")).unwrap();
        rustix::fs::mknodat(
            CWD,
            d.join("csce322assignment03part02.hs"),
            FileType::Fifo,
            Mode::RUSR | Mode::WUSR,
            0,
        )
        .unwrap();
        let _socket = std::os::unix::net::UnixListener::bind(d.join("Sock.hs")).unwrap();
        std::fs::create_dir(d.join("csce322assignment03part03.hs")).unwrap();
        let s = read(d);
        assert_eq!(names(&s), ["real.hs"]);
        assert_eq!(
            refusals(&s),
            [
                "Env.hs is a symbolic link; links are not followed",
                "Sock.hs is a socket, not a file; it was not read",
                "csce322assignment03part01.hs is a symbolic link; links are not followed",
                "csce322assignment03part02.hs is a named pipe (FIFO), not a file; it was not read",
                "csce322assignment03part03.hs is a folder, not a file",
                "dangling.txt is a symbolic link; links are not followed",
            ]
        );
        assert_eq!(
            s.refusal("csce322assignment03part02.hs").map(|r| &r.why),
            Some(&Why::Fifo)
        );
    }

    #[test]
    #[allow(clippy::print_stderr)] // reason: a test that cannot run here says it was skipped
    fn a_device_is_refused_without_being_opened() {
        // Making a device node needs CAP_MKNOD (root, as a grader in Docker is).
        let dir = tempfile::tempdir().unwrap();
        let node = dir.path().join("csce322assignment03part04.hs");
        let made = rustix::fs::mknodat(
            CWD,
            &node,
            FileType::CharacterDevice,
            Mode::RUSR,
            rustix::fs::makedev(1, 3),
        );
        if made.is_err() {
            eprintln!(
                "skipped: a_device_is_refused_without_being_opened: cannot make a device node here"
            );
            return;
        }
        let s = read(dir.path());
        assert_eq!(
            refusals(&s),
            ["csce322assignment03part04.hs is a device, not a file; it was not read"]
        );
    }

    #[test]
    fn a_file_over_the_cap_is_never_read_even_sparse_and_huge() {
        let dir = tempfile::tempdir().unwrap();
        let big = File::create(dir.path().join("Big.hs")).unwrap();
        big.set_len(3 << 30).unwrap();
        std::fs::write(dir.path().join("Edge.hs"), vec![b'x'; 100]).unwrap();
        std::fs::write(dir.path().join("Over.hs"), vec![b'x'; 101]).unwrap();
        let limits = ReadLimits {
            max_file: 100,
            ..ReadLimits::default()
        };
        let s = read_submission(dir.path(), &limits).unwrap();
        assert_eq!(names(&s), ["Edge.hs"]);
        assert_eq!(
            refusals(&s),
            [
                "Big.hs is 3 GiB, over the 100 bytes limit of a source file (--max-source); it was not read",
                "Over.hs is 101 bytes, over the 100 bytes limit of a source file (--max-source); it was not read",
            ]
        );
    }

    #[test]
    fn file_count_and_total_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.hs", "b.hs", "c.hs"] {
            std::fs::write(dir.path().join(name), "12345").unwrap();
        }
        let limits = ReadLimits {
            max_files: 2,
            ..ReadLimits::default()
        };
        let s = read_submission(dir.path(), &limits).unwrap();
        assert_eq!(names(&s), ["a.hs", "b.hs"]);
        assert!(
            refusals(&s)[0]
                .starts_with("c.hs was not read: a submission's sources are read up to 2 files")
        );
        let limits = ReadLimits {
            max_total: 12,
            ..ReadLimits::default()
        };
        let s = read_submission(dir.path(), &limits).unwrap();
        assert_eq!(names(&s), ["a.hs", "b.hs"]);
        assert_eq!(s.refused.len(), 1);
    }

    #[test]
    fn names_that_are_not_utf8_are_listed_escaped_and_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let name = std::ffi::OsStr::from_bytes(b"R\xe9sum\xe9.hs");
        std::fs::write(dir.path().join(name), "x").unwrap();
        std::fs::write(dir.path().join("csce322assignment03part01.hs"), "main").unwrap();
        let s = read(dir.path());
        assert_eq!(names(&s), ["csce322assignment03part01.hs"]);
        assert_eq!(
            refusals(&s),
            ["R\\xe9sum\\xe9.hs: the name is not UTF-8; the file was ignored"]
        );
        // A name with escapes in it is shown escaped.
        std::fs::write(dir.path().join("T\u{1b}]0;x\u{7}.hs"), "t").unwrap();
        let s = read(dir.path());
        assert_eq!(s.files[0].name, "T\u{1b}]0;x\u{7}.hs");
    }

    #[test]
    fn a_submission_one_folder_down_is_found_and_said_so() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("inner");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::create_dir_all(dir.path().join("__MACOSX/inner")).unwrap();
        std::fs::write(
            dir.path()
                .join("__MACOSX/inner/csce322assignment03part01.hs"),
            "junk",
        )
        .unwrap();
        std::fs::write(inner.join("csce322assignment03part01.hs"), "main").unwrap();
        let s = read(dir.path());
        assert_eq!(s.nested.as_deref(), Some(Path::new("inner")));
        assert_eq!(s.dir, inner);
        assert_eq!(names(&s), ["csce322assignment03part01.hs"]);
        // Two folders with part files: neither is chosen, both are named.
        let other = dir.path().join("deeper/other");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("csce322assignment03part02.hs"), "main").unwrap();
        let s = read(dir.path());
        assert_eq!(s.nested, None);
        assert_eq!(
            s.scattered,
            [PathBuf::from("deeper/other"), PathBuf::from("inner")]
        );
        assert!(s.files.is_empty());
        // A link to a folder with part files is not followed.
        let dir = tempfile::tempdir().unwrap();
        symlink(&inner, dir.path().join("linked")).unwrap();
        let s = read(dir.path());
        assert_eq!(s.nested, None);
        assert_eq!(
            refusals(&s),
            ["linked is a symbolic link; links are not followed"]
        );
    }

    #[test]
    fn the_search_for_a_nested_submission_is_bounded() {
        // 30 folders of 30 folders of 30 (27,000 folders), none with a part
        // file but the last; a budget of 100 entries stops the search early.
        let dir = tempfile::tempdir().unwrap();
        for a in 0..30 {
            for b in 0..30 {
                std::fs::create_dir_all(dir.path().join(format!("{a:02}/{b:02}"))).unwrap();
            }
        }
        std::fs::write(
            dir.path().join("29/29/csce322assignment03part01.hs"),
            "main",
        )
        .unwrap();
        let limits = ReadLimits {
            max_entries: 100,
            ..ReadLimits::default()
        };
        let s = read_submission(dir.path(), &limits).unwrap();
        assert_eq!(s.nested, None);
        // With room to look, it is found two levels down.
        let s = read(dir.path());
        assert_eq!(s.nested.as_deref(), Some(Path::new("29/29")));
    }

    #[test]
    fn a_class_lists_folders_and_refuses_links_and_odd_names() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        std::fs::create_dir(r.join("ann")).unwrap();
        std::fs::create_dir(r.join(".git")).unwrap();
        std::fs::create_dir(r.join(std::ffi::OsStr::from_bytes(b"\xe9t\xe9"))).unwrap();
        std::fs::write(r.join("roster.csv"), "x").unwrap();
        symlink("ann", r.join("bo")).unwrap();
        symlink("roster.csv", r.join("file-link")).unwrap();
        symlink("/no/such", r.join("dangling")).unwrap();
        let listing = list_class(r).unwrap();
        assert_eq!(listing.folders, ["ann"]);
        let refused: Vec<String> = listing.refused.iter().map(ToString::to_string).collect();
        assert_eq!(
            refused,
            [
                "bo is a symbolic link; links are not followed",
                "dangling is a symbolic link; links are not followed",
                "\\xe9t\\xe9: the name is not UTF-8; the file was ignored",
            ]
        );
        // A member folder swapped for a link is refused when read.
        assert!(read_class_member(r, "bo", &ReadLimits::default()).is_err());
        assert!(read_class_member(r, "ann", &ReadLimits::default()).is_ok());
    }

    #[test]
    fn a_roster_is_read_only_as_a_regular_file_within_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("r.csv");
        std::fs::write(&file, "folder,name,id\n").unwrap();
        assert_eq!(read_file(&file, 100).unwrap(), b"folder,name,id\n");
        assert!(matches!(
            read_file(&file, 4).unwrap_err().why,
            Why::TooLarge { size: 15, cap: 4 }
        ));
        let link = dir.path().join("link.csv");
        symlink(&file, &link).unwrap();
        assert_eq!(read_file(&link, 100).unwrap_err().why, Why::Symlink);
        let fifo = dir.path().join("fifo.csv");
        rustix::fs::mknodat(CWD, &fifo, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
        assert_eq!(read_file(&fifo, 100).unwrap_err().why, Why::Fifo);
        assert_eq!(read_file(dir.path(), 100).unwrap_err().why, Why::Folder);
    }

    #[test]
    fn a_fifo_swapped_in_after_the_lstat_does_not_block() {
        // What `read_checked` meets when a file is replaced between the
        // listing and the open: a FIFO opened without O_NONBLOCK would wait
        // for a writer for ever.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("swap.hs");
        std::fs::write(&path, "x").unwrap();
        let seen = statat(CWD, &path, AtFlags::SYMLINK_NOFOLLOW).unwrap();
        std::fs::remove_file(&path).unwrap();
        rustix::fs::mknodat(CWD, &path, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
        let dirfd = open_dir(CWD, &c_path(dir.path()).unwrap(), true).unwrap();
        assert_eq!(
            read_checked(&dirfd, b"swap.hs", Some(&seen), 100).unwrap_err(),
            Why::Fifo
        );
        // And a regular file replaced by another is noticed (the first is
        // kept under another name, so its inode is not reused).
        std::fs::remove_file(&path).unwrap();
        std::fs::write(dir.path().join("first.hs"), "x").unwrap();
        let seen = statat(CWD, dir.path().join("first.hs"), AtFlags::SYMLINK_NOFOLLOW).unwrap();
        std::fs::write(&path, "y").unwrap();
        assert!(matches!(
            read_checked(&dirfd, b"swap.hs", Some(&seen), 100),
            Err(Why::Unreadable(_))
        ));
    }
}
