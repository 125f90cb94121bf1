//! `--roster FILE`: who each student folder belongs to.
//!
//! The file is CSV (RFC 4180, UTF-8, a byte-order mark allowed) whose first
//! line is the header `folder,name,id` (any case, spaces around names
//! ignored), then one line per student: the folder's name inside the
//! class, the student's name as reports show it, and the id the LMS knows
//! (for Canvas, the SIS User ID). Every field must be filled in, and a
//! folder may appear once.
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

/// Why a roster cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RosterError {
    /// Occurs when the file is not read: a link, not a regular file, too
    /// large, or unreadable (the message names it and says which).
    #[error("{0}")]
    NotRead(String),
    /// A line is wrong.
    #[error("{path}:{line}: {what} (a roster is CSV with the header folder,name,id)")]
    Line {
        /// The file.
        path: String,
        /// The line, from 1.
        line: u64,
        /// What is wrong.
        what: String,
    },
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
        let fail = |line: u64, what: String| RosterError::Line {
            path: path.to_owned(),
            line,
            what,
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(bytes);
        let mut records = reader.byte_records();
        let line_of = |r: &csv::ByteRecord| r.position().map_or(0, |p| p.line());
        let header = match records.next() {
            None => return Err(fail(1, "the file is empty".to_owned())),
            Some(Err(e)) => return Err(fail(e.position().map_or(1, |p| p.line()), e.to_string())),
            Some(Ok(h)) => h,
        };
        let names: Vec<String> = header
            .iter()
            .map(|f| String::from_utf8_lossy(f).trim().to_ascii_lowercase())
            .collect();
        if names != ["folder", "name", "id"] {
            return Err(fail(
                line_of(&header),
                format!("the header is {:?}, not folder,name,id", names.join(",")),
            ));
        }
        let mut members: BTreeMap<String, Member> = BTreeMap::new();
        let mut lines: BTreeMap<String, u64> = BTreeMap::new();
        for record in records {
            let record =
                record.map_err(|e| fail(e.position().map_or(0, |p| p.line()), e.to_string()))?;
            let line = line_of(&record);
            if record.iter().all(|f| f.iter().all(u8::is_ascii_whitespace)) {
                continue;
            }
            if record.len() != 3 {
                return Err(fail(
                    line,
                    format!("{} fields, expected 3 (folder,name,id)", record.len()),
                ));
            }
            let mut fields = Vec::new();
            for (i, what) in ["folder", "name", "id"].iter().enumerate() {
                let text = std::str::from_utf8(&record[i])
                    .map_err(|_| fail(line, format!("the {what} is not UTF-8")))?
                    .trim()
                    .to_owned();
                if text.is_empty() {
                    return Err(fail(line, format!("the {what} is empty")));
                }
                fields.push(text);
            }
            let [folder, name, id]: [String; 3] = fields.try_into().expect("three fields");
            if folder.contains('/') || folder.starts_with('.') {
                return Err(fail(
                    line,
                    format!("{folder:?} is not a folder name inside the class"),
                ));
            }
            if let Some(first) = lines.get(&folder) {
                return Err(fail(
                    line,
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
    fn says_which_line_is_wrong() {
        let err = |text: &str| {
            Roster::parse("r.csv", text.as_bytes())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("student,name\n"),
            "r.csv:1: the header is \"student,name\", not folder,name,id (a roster is CSV with the header folder,name,id)"
        );
        assert!(err("folder,name,id\nann,Ann\n").starts_with("r.csv:2: 2 fields, expected 3"));
        assert!(
            err("folder,name,id\nann,Ann,1\nbo,,2\n").starts_with("r.csv:3: the name is empty")
        );
        assert!(
            err("folder,name,id\nann,Ann,1\nbo,Bo,2\nann,Ann B,3\n")
                .starts_with("r.csv:4: the folder \"ann\" is already on line 2")
        );
        assert!(err("folder,name,id\n../x,X,1\n").starts_with("r.csv:2: \"../x\" is not a folder"));
        assert!(err("").starts_with("r.csv:1: the file is empty"));
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
