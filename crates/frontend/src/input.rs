//! Reading a user's file (or `-`, standard input) and writing one (a
//! temporary file beside it, then a rename), with one error form for every
//! binary: `PATH: WHAT IS WRONG; give WHAT TO GIVE` (a text that is not
//! UTF-8: `PATH:LINE:COLUMN: ...` at its first bad byte).

use std::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// A file read whole as text: the name to show in messages and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The path as given, or [`crate::STDIN`] for standard input.
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// What is wrong with a file the user named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Nothing is there; the folder relative paths are taken from, if relative.
    Missing(Option<PathBuf>),
    /// It is a folder, not a file.
    Folder,
    /// This user may not read it.
    NotReadable,
    /// This user may not write it (or in its folder).
    NotWritable,
    /// The folder it would be written in does not exist.
    NoFolder,
    /// Not UTF-8 text: the line and column (from 1) of the first bad byte, and its offset.
    NotUtf8 {
        /// Line of the first bad byte, from 1.
        line: usize,
        /// Column (in characters) of the first bad byte, from 1.
        column: usize,
        /// Byte offset of the first bad byte, from 0.
        byte: usize,
    },
    /// Any other failure of the system, as it says it.
    Other(String),
}

/// A file that cannot be read or written, said in the one form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The path as shown (quoted if it has control characters or is empty).
    pub path: String,
    /// What is wrong.
    pub problem: Problem,
    /// What to give instead, e.g. `a .cnf game file, or - for standard input`.
    pub give: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = &self.path;
        match &self.problem {
            Problem::NotUtf8 { line, column, byte } => write!(
                f,
                "{path}:{line}:{column}: not UTF-8 text (byte {byte} is invalid)"
            )?,
            Problem::Missing(here) => {
                write!(f, "{path}: no such file or folder")?;
                if let Some(here) = here {
                    write!(f, " (relative to the current folder, {})", here.display())?;
                }
            }
            Problem::Folder => write!(f, "{path}: is a folder, not a file")?,
            Problem::NotReadable => write!(f, "{path}: not readable (permission denied)")?,
            Problem::NotWritable => {
                write!(f, "{path}: cannot be written (permission denied)")?;
            }
            Problem::NoFolder => write!(f, "{path}: its folder does not exist")?,
            Problem::Other(e) => write!(f, "{path}: {e}")?,
        }
        write!(f, "; give {}", self.give)
    }
}

impl std::error::Error for FileError {}

impl From<FileError> for crate::Failure {
    fn from(e: FileError) -> Self {
        crate::Failure::Usage(e.to_string())
    }
}

/// `path` as shown in messages: as is, or quoted when empty or holding
/// control characters.
pub fn shown(path: &Path) -> String {
    let s = path.to_string_lossy();
    if s.is_empty() || s.chars().any(char::is_control) {
        format!("{s:?}")
    } else {
        s.into_owned()
    }
}

/// What is wrong, from the system's error on `path` (read or write).
fn problem(path: &Path, e: &io::Error, writing: bool) -> Problem {
    if path.is_dir() {
        return Problem::Folder;
    }
    match e.kind() {
        io::ErrorKind::NotFound if writing => Problem::NoFolder,
        io::ErrorKind::NotFound => Problem::Missing(
            path.is_relative()
                .then(|| std::env::current_dir().ok())
                .flatten(),
        ),
        io::ErrorKind::IsADirectory => Problem::Folder,
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem if writing => {
            Problem::NotWritable
        }
        io::ErrorKind::PermissionDenied => Problem::NotReadable,
        _ => Problem::Other(e.to_string()),
    }
}

/// The error for `path` from the system's error `e` reading it.
pub fn read_error(path: &Path, e: &io::Error, give: &str) -> FileError {
    FileError {
        path: shown(path),
        problem: problem(path, e, false),
        give: give.to_owned(),
    }
}

/// The error for `path` from the system's error `e` writing it.
pub fn write_error(path: &Path, e: &io::Error, give: &str) -> FileError {
    FileError {
        path: shown(path),
        problem: problem(path, e, true),
        give: give.to_owned(),
    }
}

/// Reads the file `arg` (`-`: standard input) whole; `give` says what to
/// give instead when it cannot be read.
pub fn read_bytes(arg: &str, give: &str) -> Result<(String, Vec<u8>), FileError> {
    let mut bytes = Vec::new();
    if arg == "-" {
        io::stdin().read_to_end(&mut bytes).map_err(|e| FileError {
            path: crate::STDIN.to_owned(),
            problem: Problem::Other(e.to_string()),
            give: give.to_owned(),
        })?;
        return Ok((crate::STDIN.to_owned(), bytes));
    }
    let path = Path::new(arg);
    let read = if path.is_dir() {
        Err(io::Error::from(io::ErrorKind::IsADirectory))
    } else {
        std::fs::read(path)
    };
    let bytes = read.map_err(|e| read_error(path, &e, give))?;
    Ok((shown(path), bytes))
}

/// Reads the file `arg` (`-`: standard input) whole as UTF-8 text.
pub fn read_text(arg: &str, give: &str) -> Result<Input, FileError> {
    let (name, bytes) = read_bytes(arg, give)?;
    text(name, bytes, give)
}

/// `bytes` of the file `name` as text, or the error at its first bad byte.
pub fn text(name: String, bytes: Vec<u8>, give: &str) -> Result<Input, FileError> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Input { name, text }),
        Err(e) => {
            let byte = e.utf8_error().valid_up_to();
            let before = std::str::from_utf8(&e.as_bytes()[..byte]).unwrap_or_default();
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            Err(FileError {
                path: name,
                problem: Problem::NotUtf8 { line, column, byte },
                give: give.to_owned(),
            })
        }
    }
}

/// Writes `bytes` to `path` whole or not at all (a temporary file beside
/// it, then a rename); `give` says what to give instead when it cannot.
pub fn write_file(path: &Path, bytes: &[u8], give: &str) -> Result<(), FileError> {
    let fail = |e: io::Error| write_error(path, &e, give);
    let tmp = temporary(path).map_err(fail)?;
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(fail)
}

/// The temporary file `path` is first written as: beside it, hidden, named
/// after this process; an error when `path` is a folder or names none.
fn temporary(path: &Path) -> io::Result<PathBuf> {
    if path.is_dir() {
        return Err(io::ErrorKind::IsADirectory.into());
    }
    let Some(name) = path.file_name() else {
        return Err(io::ErrorKind::IsADirectory.into());
    };
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    Ok(path.with_file_name(tmp_name))
}

/// Whether [`write_file`] could write `path` now, found out by creating and
/// removing its temporary file: for a program that would otherwise learn it
/// only after a long computation. Nothing is left behind.
pub fn check_writable(path: &Path, give: &str) -> Result<(), FileError> {
    let fail = |e: io::Error| write_error(path, &e, give);
    let tmp = temporary(path).map_err(fail)?;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(fail)?;
    std::fs::remove_file(&tmp).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIVE: &str = "a .cnf game file, or - for standard input";

    #[test]
    fn a_missing_file_says_where_relative_paths_are_from() {
        let e = read_text("no-such-file.cnf", GIVE).unwrap_err();
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            e.to_string(),
            format!(
                "no-such-file.cnf: no such file or folder (relative to the current folder, {}); give a .cnf game file, or - for standard input",
                here.display()
            )
        );
        let e = read_text("/no/such.cnf", "a tree").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/no/such.cnf: no such file or folder; give a tree"
        );
    }

    #[test]
    fn a_folder_is_said_so_in_reading_and_writing() {
        let e = read_text("/tmp", "a file").unwrap_err();
        assert_eq!(e.to_string(), "/tmp: is a folder, not a file; give a file");
        let e = write_file(Path::new("/tmp"), b"x", "a file to write").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/tmp: is a folder, not a file; give a file to write"
        );
    }

    #[test]
    fn a_missing_folder_to_write_in_is_said() {
        let e = write_file(Path::new("/no/such/dir/f"), b"x", "a file").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/no/such/dir/f: its folder does not exist; give a file"
        );
    }

    #[test]
    fn a_file_that_could_not_be_written_is_said_before_and_nothing_is_left() {
        let e = check_writable(Path::new("/no/such/dir/f"), "a file").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/no/such/dir/f: its folder does not exist; give a file"
        );
        let e = check_writable(Path::new("/tmp"), "a file").unwrap_err();
        assert_eq!(e.to_string(), "/tmp: is a folder, not a file; give a file");
        let dir = tempfile::tempdir().unwrap();
        check_writable(&dir.path().join("book.txt"), "a file").unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn text_that_is_not_utf8_is_located_at_its_first_bad_byte() {
        let e = text("g.cnf".into(), b"ab\nc\xc3\xa9d\xffe".to_vec(), "text").unwrap_err();
        // Counted by hand: a b \n c \xc3 \xa9 d are bytes 0-6, so \xff is byte 7,
        // on line 2 after the three characters c é d: column 4.
        assert_eq!(
            e.to_string(),
            "g.cnf:2:4: not UTF-8 text (byte 7 is invalid); give text"
        );
    }

    #[test]
    fn a_file_is_written_whole_and_read_back() {
        let dir = std::env::temp_dir().join(format!("frontend-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("out.txt");
        write_file(&f, b"hello\n", "x").unwrap();
        let got = read_text(f.to_str().unwrap(), "x").unwrap();
        assert_eq!(got.text, "hello\n");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn empty_and_odd_names_are_quoted() {
        assert_eq!(shown(Path::new("")), "\"\"");
        assert_eq!(shown(Path::new("a\nb")), "\"a\\nb\"");
        assert_eq!(shown(Path::new("a b")), "a b");
    }
}
