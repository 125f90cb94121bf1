//! The descriptor-level reading under [`super`]: open a folder without
//! following a link, list it with each entry `lstat`ed, and read one
//! regular file through one checked descriptor. Nothing here takes a path
//! of a student's folder twice.

use std::ffi::CStr;
use std::fs::File;
use std::io::{self, Read as _};
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags, Stat, fstat, openat, statat};

use crate::model::submission::Why;

/// Opens a folder for listing; `follow` says whether `path` itself may be a
/// link (a path the user typed) or not (an entry of a student's folder).
pub(super) fn open_dir(at: impl AsFd, path: &CStr, follow: bool) -> rustix::io::Result<OwnedFd> {
    let mut flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK;
    if !follow {
        flags |= OFlags::NOFOLLOW;
    }
    openat(at, path, flags, Mode::empty())
}

pub(super) fn c_path(path: &Path) -> io::Result<std::ffi::CString> {
    std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "the path holds a NUL byte"))
}

/// One entry of a folder, `lstat`ed.
pub(super) struct Entry {
    pub(super) name: Vec<u8>,
    pub(super) stat: Stat,
}

impl Entry {
    pub(super) fn kind(&self) -> FileType {
        FileType::from_raw_mode(self.stat.st_mode)
    }
}

/// The entries of the folder `fd` (`.` and `..` left out), sorted by name,
/// each `lstat`ed; and how many were left after `max`.
pub(super) fn entries(fd: &OwnedFd, max: usize) -> rustix::io::Result<(Vec<Entry>, usize)> {
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
pub(super) fn refusal_of(kind: FileType) -> Option<Why> {
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
pub(super) fn read_checked(
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

pub(super) fn cstring(bytes: &[u8]) -> std::ffi::CString {
    // Names from a directory listing hold no NUL byte.
    std::ffi::CString::new(bytes).unwrap_or_default()
}
