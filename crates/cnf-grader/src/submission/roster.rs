//! `--roster FILE`: who each student folder belongs to.
//!
//! The file is CSV (RFC 4180, UTF-8, a byte-order mark allowed) in one of
//! two forms, told apart by its first line (header names in any case,
//! spaces around them ignored):
//!
//! - the header `folder,name,id`, then one line per student: the folder's
//!   name inside the class, the student's name as reports show it, and the
//!   id the LMS knows (for Canvas, the SIS User ID). Every field must be
//!   filled in.
//! - a Canvas gradebook export as Canvas gives it: a header with the
//!   columns `Student` and `SIS Login ID` or `SIS User ID` (Canvas writes
//!   `Student, ID, SIS User ID, SIS Login ID, Section`, then one column per
//!   assignment; other columns are ignored, in any order). The folder is
//!   the student's `SIS Login ID` (their `SIS User ID` when the login is
//!   not there), the name is `Student`, the id is `SIS User ID` (or,
//!   without one, Canvas's `ID`). Rows that are not students are skipped:
//!   `Points Possible` (and any row whose `Student` is empty, such as
//!   newer exports' `Manual Posting` row), and a row with neither a login
//!   nor a SIS id (Canvas's `Test Student`), which no folder can match.
//!
//! A folder may appear once. A line that is wrong is an error naming the
//! file, line and column, and the headers accepted.
//!
//! The file is read as a submission is ([`crate::submission::source::read_file`]):
//! not through a symbolic link, never from a FIFO or a device, and only up
//! to [`MAX_ROSTER`] bytes; names and ids are shown escaped, like all
//! text from outside the grader.
//!
//! Decisions: a roster student with no folder in the class gets a row with
//! zero points and the note `no submission`, so the gradebook (and an LMS
//! import) has every student; a folder not in the roster is graded as
//! usual, with the note `not in the roster`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::model::class::Member;

/// The roster: members by folder name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roster {
    members: BTreeMap<String, Member>,
}

/// The largest roster read, in bytes (a class of thousands is a few hundred KiB).
pub const MAX_ROSTER: u64 = 16 << 20;

/// The headers a roster may have, for messages.
pub const ACCEPTED: &str = "a roster is CSV with the header folder,name,id, or a Canvas \
     gradebook export (Student, ID, SIS User ID, SIS Login ID, Section, ...)";

/// Why a roster cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RosterError {
    /// Occurs when the file is not read: a link, not a regular file, too
    /// large, or unreadable (the message names it and says which).
    #[error("{0}")]
    NotRead(String),
    /// A line is wrong.
    #[error("{path}:{line}:{column}: {what} ({ACCEPTED})")]
    Line {
        /// The file.
        path: String,
        /// The line, from 1.
        line: u64,
        /// The column (in characters, from 1) of the field that is wrong.
        column: usize,
        /// What is wrong.
        what: String,
    },
}

/// Where a roster's fields are.
enum Layout {
    /// `folder,name,id`.
    Plain,
    /// A Canvas gradebook export: the columns of these headers.
    Canvas {
        student: usize,
        canvas_id: Option<usize>,
        sis_user: Option<usize>,
        sis_login: Option<usize>,
    },
}

/// The column (in characters, from 1) where field `index` of the CSV
/// line starting at `start` in `bytes` begins.
fn column_of(bytes: &[u8], start: usize, index: usize) -> usize {
    let text = String::from_utf8_lossy(bytes.get(start..).unwrap_or_default());
    let (mut field, mut quoted) = (0, false);
    for (at, c) in text.chars().enumerate() {
        if field == index {
            return at + 1;
        }
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => field += 1,
            '\n' | '\r' if !quoted => return at + 1,
            _ => {}
        }
    }
    text.chars().count() + 1
}

impl Roster {
    /// Reads the roster file at `path`.
    pub fn read(path: &Path) -> Result<Roster, RosterError> {
        let bytes = crate::submission::source::read_file(path, MAX_ROSTER)
            .map_err(|refused| RosterError::NotRead(refused.to_string()))?;
        Roster::parse(&crate::escape::path(path), &bytes)
    }

    /// Reads a roster from its text; `path` names it in messages.
    pub fn parse(path: &str, bytes: &[u8]) -> Result<Roster, RosterError> {
        let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(bytes);
        let mut records = reader.byte_records();
        let at = |p: Option<&csv::Position>, field: usize| {
            p.map_or((1, 1), |p| {
                (p.line(), column_of(bytes, p.byte() as usize, field))
            })
        };
        let fail = |(line, column): (u64, usize), what: String| RosterError::Line {
            path: path.to_owned(),
            line,
            column,
            what,
        };
        let header = match records.next() {
            None => return Err(fail((1, 1), "the file is empty".to_owned())),
            Some(Err(e)) => return Err(fail(at(e.position(), 0), e.to_string())),
            Some(Ok(h)) => h,
        };
        let names: Vec<String> = header
            .iter()
            .map(|f| String::from_utf8_lossy(f).trim().to_ascii_lowercase())
            .collect();
        let find = |name: &str| names.iter().position(|n| n == name);
        let layout = if names == ["folder", "name", "id"] {
            Layout::Plain
        } else if let Some(student) = find("student")
            && (find("sis login id").is_some() || find("sis user id").is_some())
        {
            Layout::Canvas {
                student,
                canvas_id: find("id"),
                sis_user: find("sis user id"),
                sis_login: find("sis login id"),
            }
        } else {
            return Err(fail(
                at(header.position(), 0),
                format!(
                    "the header is {:?}, neither folder,name,id nor a Canvas export's (it needs \
                     the columns Student and SIS Login ID or SIS User ID)",
                    names.join(",")
                ),
            ));
        };
        let mut members: BTreeMap<String, Member> = BTreeMap::new();
        let mut lines: BTreeMap<String, u64> = BTreeMap::new();
        for record in records {
            let record = record.map_err(|e| fail(at(e.position(), 0), e.to_string()))?;
            let position = record.position().cloned();
            let place = |field: usize| at(position.as_ref(), field);
            let line = place(0).0;
            if record.iter().all(|f| f.iter().all(u8::is_ascii_whitespace)) {
                continue;
            }
            // A field's text, trimmed; `what` names it in messages.
            let field = |i: usize, what: &str| -> Result<String, RosterError> {
                match record.get(i) {
                    None => Err(fail(
                        place(record.len()),
                        format!(
                            "{} fields, expected {} or more (the {what} is missing)",
                            record.len(),
                            i + 1
                        ),
                    )),
                    Some(bytes) => std::str::from_utf8(bytes)
                        .map(|t| t.trim().to_owned())
                        .map_err(|_| fail(place(i), format!("the {what} is not UTF-8"))),
                }
            };
            let (folder, name, id, folder_at) = match layout {
                Layout::Plain => {
                    if record.len() != 3 {
                        return Err(fail(
                            place(record.len().min(3)),
                            format!("{} fields, expected 3 (folder,name,id)", record.len()),
                        ));
                    }
                    let mut fields = Vec::new();
                    for (i, what) in ["folder", "name", "id"].iter().enumerate() {
                        let text = field(i, what)?;
                        if text.is_empty() {
                            return Err(fail(place(i), format!("the {what} is empty")));
                        }
                        fields.push(text);
                    }
                    let [folder, name, id]: [String; 3] = fields.try_into().expect("three fields");
                    (folder, name, id, 0)
                }
                Layout::Canvas {
                    student,
                    canvas_id,
                    sis_user,
                    sis_login,
                } => {
                    let name = field(student, "Student")?;
                    if name.is_empty() || name.eq_ignore_ascii_case("points possible") {
                        continue;
                    }
                    let optional = |column: Option<usize>, what: &str| {
                        column.map_or(Ok(String::new()), |i| field(i, what))
                    };
                    let login = optional(sis_login, "SIS Login ID")?;
                    let sis = optional(sis_user, "SIS User ID")?;
                    let canvas = optional(canvas_id, "ID")?;
                    let (folder, folder_at) = match (login.is_empty(), sis_login, sis_user) {
                        (false, Some(i), _) => (login.clone(), i),
                        (_, _, Some(i)) if !sis.is_empty() => (sis.clone(), i),
                        // No login nor SIS id: not a student a folder can match.
                        _ => continue,
                    };
                    let id = [sis, canvas, login]
                        .into_iter()
                        .find(|t| !t.is_empty())
                        .unwrap_or_default();
                    (folder, name, id, folder_at)
                }
            };
            if folder.contains('/') || folder.starts_with('.') {
                return Err(fail(
                    place(folder_at),
                    format!("{folder:?} is not a folder name inside the class"),
                ));
            }
            if let Some(first) = lines.get(&folder) {
                return Err(fail(
                    place(folder_at),
                    format!("the folder {folder:?} is already on line {first}"),
                ));
            }
            lines.insert(folder.clone(), line);
            members.insert(folder, Member { name, id });
        }
        Ok(Roster { members })
    }

    /// The member whose folder this is.
    pub fn get(&self, folder: &str) -> Option<&Member> {
        self.members.get(folder)
    }

    /// Every folder the roster names, sorted.
    pub fn folders(&self) -> impl Iterator<Item = &str> {
        self.members.keys().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_quoted_fields_a_bom_and_blank_lines() {
        let text =
            "\u{feff}Folder, Name ,ID\nann,\"Lee, Ann\",1001\n\nbo,\"Bo \"\"B\"\" Ek\",1002\n";
        let r = Roster::parse("r.csv", text.as_bytes()).unwrap();
        assert_eq!(
            r.get("ann"),
            Some(&Member {
                name: "Lee, Ann".into(),
                id: "1001".into()
            })
        );
        assert_eq!(r.get("bo").unwrap().name, "Bo \"B\" Ek");
        assert_eq!(r.folders().collect::<Vec<_>>(), ["ann", "bo"]);
    }

    #[test]
    fn reads_a_canvas_gradebook_export_as_canvas_gives_it() {
        let text = "\u{feff}Student,ID,SIS User ID,SIS Login ID,Section,Assignment 3 (12345)\n\
             ,,,,,Manual Posting\n\
             \x20   Points Possible,,,,,100.00\n\
             \"Lovelace, Ada\",101,1001,alovelace,CSCE 322,\n\
             \"Turing, Alan\",102,1002,,CSCE 322,90\n\
             \"Student, Test\",999,,,CSCE 322,\n";
        let r = Roster::parse("export.csv", text.as_bytes()).unwrap();
        // The folder is the login, else the SIS User ID; the id Canvas
        // imports by is the SIS User ID.
        assert_eq!(
            r.get("alovelace"),
            Some(&Member {
                name: "Lovelace, Ada".into(),
                id: "1001".into()
            })
        );
        assert_eq!(r.get("1002").unwrap().name, "Turing, Alan");
        assert_eq!(r.folders().collect::<Vec<_>>(), ["1002", "alovelace"]);
        // Columns in another order, only a login.
        let r = Roster::parse("e.csv", b"Section,SIS Login ID,Student\nA,bo,\"Ek, Bo\"\n").unwrap();
        assert_eq!(r.get("bo").unwrap().name, "Ek, Bo");
        assert_eq!(r.get("bo").unwrap().id, "bo");
        // A bad login is located at its column.
        let err = Roster::parse(
            "e.csv",
            b"Student,ID,SIS User ID,SIS Login ID\n\"Ek, Bo\",1,2,../bo\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("e.csv:2:14: \"../bo\" is not a folder name inside the class"),
            "{err}"
        );
        assert!(
            err.contains("Student, ID, SIS User ID, SIS Login ID, Section"),
            "{err}"
        );
    }

    #[test]
    fn says_which_line_is_wrong() {
        let err = |text: &str| {
            Roster::parse("r.csv", text.as_bytes())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("student,name\n"),
            format!(
                "r.csv:1:1: the header is \"student,name\", neither folder,name,id nor a Canvas \
                 export's (it needs the columns Student and SIS Login ID or SIS User ID) ({ACCEPTED})"
            )
        );
        assert!(err("folder,name,id\nann,Ann\n").starts_with("r.csv:2:8: 2 fields, expected 3"));
        assert!(
            err("folder,name,id\nann,Ann,1\nbo,,2\n").starts_with("r.csv:3:4: the name is empty")
        );
        assert!(
            err("folder,name,id\nann,Ann,1\nbo,Bo,2\nann,Ann B,3\n")
                .starts_with("r.csv:4:1: the folder \"ann\" is already on line 2")
        );
        assert!(
            err("folder,name,id\n../x,X,1\n").starts_with("r.csv:2:1: \"../x\" is not a folder")
        );
        assert!(err("").starts_with("r.csv:1:1: the file is empty"));
    }

    #[test]
    fn a_roster_behind_a_link_or_in_a_fifo_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("r.csv");
        std::fs::write(&file, "folder,name,id\nann,Ann,1\n").unwrap();
        assert!(Roster::read(&file).unwrap().get("ann").is_some());
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(
            Roster::read(&link).unwrap_err().to_string(),
            format!(
                "{} is a symbolic link; links are not followed",
                link.display()
            )
        );
        let fifo = dir.path().join("fifo.csv");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
        assert!(
            Roster::read(&fifo)
                .unwrap_err()
                .to_string()
                .contains("named pipe")
        );
        assert!(
            Roster::read(&dir.path().join("none.csv"))
                .unwrap_err()
                .to_string()
                .contains("cannot be read: No such file")
        );
    }
}
