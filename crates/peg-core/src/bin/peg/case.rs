//! `peg case`: writing a grading case (`NAME.call` and `NAME.expected`)
//! and checking a folder of them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use frontend::input::{read_text, shown, write_error, write_file};
use peg_core::{Call, parse_call};

/// What to give when a case cannot be written.
const WRITE_GIVE: &str = "a folder this user may write in";

/// What to give when a case cannot be read.
const READ_GIVE: &str = "a readable case file";

/// Why `name` cannot name a case, if it cannot: it becomes two file names in the folder.
fn bad_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("is empty");
    }
    if name.starts_with(['.', '-']) {
        return Some("starts with '.' or '-'");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Some("holds a character other than letters, digits, '-', '_' and '.'");
    }
    None
}

/// The case read from `text` (the command line's CALL), or the located error.
pub(crate) fn read_call(text: &str) -> Result<Call, String> {
    parse_call(text).map_err(|e| e.render("CALL", text).to_string())
}

/// Writes DIR/NAME.call and DIR/NAME.expected (each whole or not at all)
/// and returns the expected text.
pub(crate) fn write_case(dir: &Path, name: &str, call: &Call) -> Result<String, String> {
    if let Some(why) = bad_name(name) {
        return Err(format!(
            "the case name {name:?} {why}; give a name such as isValidMove-diagonal-only"
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| write_error(dir, &e, WRITE_GIVE).to_string())?;
    let expected = call.expected();
    let call_path = dir.join(format!("{name}.call"));
    let expected_path = dir.join(format!("{name}.expected"));
    frontend::input::check_writable(&expected_path, WRITE_GIVE).map_err(|e| e.to_string())?;
    write_file(&call_path, format!("{call}\n").as_bytes(), WRITE_GIVE)
        .map_err(|e| e.to_string())?;
    write_file(&expected_path, expected.as_bytes(), WRITE_GIVE).map_err(|e| e.to_string())?;
    Ok(expected)
}

/// The result of checking a folder of cases.
pub(crate) struct Checked {
    /// One line per case that is not as derived, and per `.call` that does not read.
    pub(crate) report: String,
    /// How many cases were checked.
    pub(crate) cases: usize,
    /// How many `.expected` differ from (or are missing beside) their `.call`.
    pub(crate) differ: usize,
    /// The located errors of `.call` files that do not read, one per file.
    pub(crate) unreadable: Vec<String>,
}

/// Where two texts first differ: `line L, column C` (from 1, in characters).
fn first_difference(a: &str, b: &str) -> String {
    let at = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let before = &a[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!("line {line}, column {column}")
}

/// The `.call` files of `dir`, by name, and the `.expected` files without one.
fn case_files(dir: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        frontend::input::read_error(dir, &e, "a folder of NAME.call and NAME.expected files")
            .to_string()
    })?;
    let mut calls = Vec::new();
    let mut orphans = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", shown(dir)))?.path();
        match path.extension().and_then(|e| e.to_str()) {
            Some("call") => calls.push(path),
            Some("expected") if !path.with_extension("call").exists() => orphans.push(path),
            _ => {}
        }
    }
    calls.sort();
    orphans.sort();
    Ok((calls, orphans))
}

/// Derives every DIR/NAME.expected again from DIR/NAME.call and lists those that differ.
pub(crate) fn check_dir(dir: &Path) -> Result<Checked, String> {
    let (calls, orphans) = case_files(dir)?;
    if calls.is_empty() {
        return Err(format!(
            "{}: no NAME.call file; give a folder of cases (written by peg case DIR NAME CALL)",
            shown(dir)
        ));
    }
    let mut checked = Checked {
        report: String::new(),
        cases: calls.len(),
        differ: 0,
        unreadable: Vec::new(),
    };
    for call_path in &calls {
        let input =
            read_text(&call_path.to_string_lossy(), READ_GIVE).map_err(|e| e.to_string())?;
        let call = match parse_call(&input.text) {
            Ok(call) => call,
            Err(e) => {
                checked
                    .unreadable
                    .push(e.render(&input.name, &input.text).to_string());
                continue;
            }
        };
        let derived = call.expected();
        let expected_path = call_path.with_extension("expected");
        let shown_path = shown(&expected_path);
        if !expected_path.exists() {
            checked.differ += 1;
            let _ = writeln!(checked.report, "{shown_path}: missing");
            continue;
        }
        let found =
            read_text(&expected_path.to_string_lossy(), READ_GIVE).map_err(|e| e.to_string())?;
        if found.text != derived {
            checked.differ += 1;
            let _ = writeln!(
                checked.report,
                "{shown_path}: differs from what {} gives, first at {}",
                call.function(),
                first_difference(&found.text, &derived)
            );
        }
    }
    for orphan in orphans {
        let _ = writeln!(
            checked.report,
            "{}: no .call file of that name beside it (not checked)",
            shown(&orphan)
        );
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_are_not_plain_file_names_are_refused() {
        assert_eq!(bad_name("createBoard-hole-m3-m1"), None);
        assert_eq!(bad_name("a.b_c"), None);
        assert!(bad_name("").is_some());
        assert!(bad_name(".hidden").is_some());
        assert!(bad_name("-x").is_some());
        assert!(bad_name("a/b").is_some());
        assert!(bad_name("a b").is_some());
    }

    #[test]
    fn the_first_difference_is_located() {
        assert_eq!(first_difference("True\n", "False\n"), "line 1, column 1");
        assert_eq!(first_difference("ab\ncd", "ab\ncx"), "line 2, column 2");
        assert_eq!(first_difference("ab", "abc"), "line 1, column 3");
    }
}
