//! Writing `.solution` files from this crate's implementation ("blessing"),
//! always atomically: a temporary file in the same folder, renamed over the
//! old one, so a reader never sees half a file.
//!
//! Decisions: every existing `.cnf` found gets one file per selected
//! function; a function that reports an error for a game (e.g. parts 3–4
//! on a board without pieces) gets no file, listed as `not written` with the
//! reason; a `.cnf` that does not parse is listed as an error.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use connect_core::Function;

use crate::format::cnf::parse_cnf;
use crate::format::solution::render_solution;
use crate::grade::discover::{Fixture, read_fixture_file};

/// Writes `bytes` to `path` through a temporary file in the same folder
/// and a rename: readers and interrupted runs never see half a file. (No
/// `fsync`: blessing 40,000 files must stay fast; after a power loss a file
/// may be empty, and `bless --check` shows it.)
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // A new file gets the usual 0o666 less the umask (not the 0o600 of a
    // temporary file); a replaced file keeps its mode.
    let mut tmp = tempfile::Builder::new()
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    if let Ok(old) = fs::metadata(path) {
        fs::set_permissions(tmp.path(), old.permissions())?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// What bless did (or would do) with one `.solution` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// The file did not exist.
    Created,
    /// The file existed with other content.
    Changed,
    /// The file already held the right content.
    Unchanged,
    /// The function reports an error for this game, so there is no result.
    NotWritten(String),
    /// The game or the file could not be read or written.
    Failed(String),
}

/// One line of the bless listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The `.solution` file, or the `.cnf` file for a game that cannot be read.
    pub path: PathBuf,
    /// What happened.
    pub action: Action,
}

impl Entry {
    /// The listing line, e.g. `created fixtures/a.onePlayerOneMove.solution`.
    pub fn line(&self, check: bool) -> String {
        let path = self.path.display();
        match (&self.action, check) {
            (Action::Created, false) => format!("{:<12} {path}", "created"),
            (Action::Created, true) => format!("{:<12} {path}", "would create"),
            (Action::Changed, false) => format!("{:<12} {path}", "changed"),
            (Action::Changed, true) => format!("{:<12} {path}", "would change"),
            (Action::Unchanged, _) => format!("{:<12} {path}", "unchanged"),
            (Action::NotWritten(why), _) => format!("{:<12} {path}: {why}", "not written"),
            (Action::Failed(why), _) => format!("{:<12} {path}: {why}", "error"),
        }
    }
}

/// The listing of a bless run, one line per file created, changed or not
/// written (unchanged ones are counted only; errors too, as they are
/// reported apart, see [`errors`]), then the tally (e.g. `2 created, 0
/// changed, 102 unchanged`), and whether it found a problem (an error, or
/// with `check` anything that would change).
pub fn summary(entries: &[Entry], check: bool) -> (String, bool) {
    let mut text = String::new();
    let (mut created, mut changed, mut unchanged, mut not_written, mut failed) = (0, 0, 0, 0, 0);
    for entry in entries {
        // Unchanged files are only counted: a tree of a hundred would drown
        // the two that changed. Errors go to standard error ([`errors`]).
        if !matches!(entry.action, Action::Unchanged | Action::Failed(_)) {
            text.push_str(&entry.line(check));
            text.push('\n');
        }
        match entry.action {
            Action::Created => created += 1,
            Action::Changed => changed += 1,
            Action::Unchanged => unchanged += 1,
            Action::NotWritten(_) => not_written += 1,
            Action::Failed(_) => failed += 1,
        }
    }
    let verb = if check { "would be " } else { "" };
    text.push_str(&format!(
        "{created} {verb}created, {changed} {verb}changed, {unchanged} unchanged"
    ));
    if not_written > 0 {
        text.push_str(&format!(", {not_written} not written"));
    }
    if failed > 0 {
        text.push_str(&format!(
            ", {failed} {}",
            if failed == 1 { "error" } else { "errors" }
        ));
    }
    text.push('\n');
    (text, failed > 0 || (check && created + changed > 0))
}

/// The errors of a bless run, one message each (`PATH: what went wrong`),
/// for standard error, as `check` reports its problems.
pub fn errors(entries: &[Entry]) -> Vec<String> {
    entries
        .iter()
        .filter_map(|e| match &e.action {
            Action::Failed(why) => Some(format!("{}: {why}", e.path.display())),
            _ => None,
        })
        .collect()
}

/// Writes (or with `check`, only compares) the `.solution` files of
/// `functions` for every existing `.cnf` of `fixtures`.
pub fn bless(fixtures: &[Fixture], functions: &[Function], check: bool) -> Vec<Entry> {
    let mut entries = Vec::new();
    for fixture in fixtures.iter().filter(|f| f.cnf_exists) {
        let source = match read_fixture_file(&fixture.cnf).map(String::from_utf8) {
            Ok(Ok(text)) => text,
            Ok(Err(_)) => {
                entries.push(Entry {
                    path: fixture.cnf.clone(),
                    action: Action::Failed("the file is not UTF-8 text".to_owned()),
                });
                continue;
            }
            Err(e) => {
                entries.push(Entry {
                    path: fixture.cnf.clone(),
                    action: Action::Failed(format!("cannot read it: {e}")),
                });
                continue;
            }
        };
        let game = match parse_cnf(&source) {
            Ok(game) => game,
            Err(d) => {
                let name = fixture.cnf.display().to_string();
                entries.push(Entry {
                    path: fixture.cnf.clone(),
                    action: Action::Failed(format!(
                        "not a valid game:\n{}",
                        d.render(&name, &source)
                    )),
                });
                continue;
            }
        };
        for &function in functions {
            let path = solution_path(&fixture.cnf, function);
            let action = match function.apply(&game.board, &game.moves, None) {
                Err(e) => Action::NotWritten(format!("{function} reports an error: {e}")),
                Ok(board) => {
                    let text = render_solution(&board);
                    let action = match read_fixture_file(&path) {
                        Ok(old) if old == text.as_bytes() => Action::Unchanged,
                        Ok(_) => Action::Changed,
                        Err(e) if e.kind() == io::ErrorKind::NotFound => Action::Created,
                        Err(e) => Action::Failed(format!("cannot read it: {e}")),
                    };
                    if !check
                        && matches!(action, Action::Created | Action::Changed)
                        && let Err(e) = write_atomically(&path, text.as_bytes())
                    {
                        Action::Failed(format!("cannot write it: {e}"))
                    } else {
                        action
                    }
                }
            };
            entries.push(Entry { path, action });
        }
    }
    entries
}

/// `dir/NAME.FUNCTION.solution` for `dir/NAME.cnf`.
pub fn solution_path(cnf: &Path, function: Function) -> PathBuf {
    let stem = cnf
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = stem.strip_suffix(".cnf").unwrap_or(&stem);
    cnf.with_file_name(format!("{stem}.{}.solution", function.name()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::discover::discover;

    #[test]
    fn creates_then_leaves_unchanged_then_repairs() {
        let tmp = tempfile::tempdir().unwrap();
        let cnf = tmp.path().join("g.cnf");
        fs::write(&cnf, "([\"----\",\"-12-\"],[1,4,2])").unwrap();
        let fixtures = discover(&[tmp.path().to_path_buf()]).unwrap();
        let all = Function::ALL;
        let entries = bless(&fixtures, &all, true);
        assert!(entries.iter().all(|e| e.action == Action::Created));
        assert!(!solution_path(&cnf, Function::OnePlayerOneMove).exists());
        bless(&fixtures, &all, false);
        // Written by hand from the rules: player 1 drops into column 1.
        assert_eq!(
            fs::read_to_string(tmp.path().join("g.onePlayerOneMove.solution")).unwrap(),
            "\"Result\"\n\"----\"\n\"112-\"\n\"\"\n"
        );
        let again = bless(&fixtures, &all, false);
        assert!(again.iter().all(|e| e.action == Action::Unchanged));
        let part3 = solution_path(&cnf, Function::ManyPlayersOneMove);
        fs::write(&part3, "junk").unwrap();
        let fixed = bless(&fixtures, &[Function::ManyPlayersOneMove], false);
        assert_eq!(fixed[0].action, Action::Changed);
        assert_eq!(
            fs::read_to_string(&part3).unwrap(),
            "\"Result\"\n\"----\"\n\"1122\"\n\"\"\n"
        );
        // A new file gets the mode of any new file (0o666 less the umask).
        let probe = tmp.path().join("probe");
        fs::write(&probe, "").unwrap();
        let usual = fs::metadata(&probe).unwrap().permissions().mode();
        fs::remove_file(&probe).unwrap();
        let blessed = tmp.path().join("g.onePlayerManyMoves.solution");
        assert_eq!(fs::metadata(&blessed).unwrap().permissions().mode(), usual);
        // No temporary files left behind.
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 5);
    }
}
