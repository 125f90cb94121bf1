//! Finding fixtures: every `NAME.cnf` with its `NAME.FUNCTION.solution`
//! files, in folders and their sub-folders, in a stable order.
//!
//! Decisions: a fixture is hidden when its path passes through a folder
//! named `hidden` (e.g. `fixtures/hidden/g.cnf`), so an instructor hides
//! tests by moving them, with no marker file to forget; entries whose name starts with `.` are skipped (hidden files
//! and the temporary files of an interrupted `bless`); symbolic links to
//! files are followed, symbolic links to folders are not (no loops). Paths
//! are kept as they were reached from the given path, so the report shows
//! `fixtures/test03.cnf` for the argument `fixtures/`.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use connect_core::Function;

/// One expected result: a `.solution` file and the function it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The `NAME.FUNCTION.solution` file.
    pub solution: PathBuf,
    /// The function named in the file name, or the unknown name.
    pub function: Result<Function, String>,
}

/// A game file and the expected results found next to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixture {
    /// The `NAME.cnf` path (which may not exist when only solutions were found).
    pub cnf: PathBuf,
    /// Whether the `.cnf` file exists.
    pub cnf_exists: bool,
    /// The expected results, functions in part order, then unknown names.
    pub cases: Vec<Case>,
    /// Whether it is a hidden test (its path passes through a folder named
    /// `hidden`): students see only its name, status and points.
    pub hidden: bool,
}

/// Whether `path` lies in a folder named `hidden` (a hidden test).
pub fn is_hidden(path: &Path) -> bool {
    path.parent()
        .is_some_and(|p| p.components().any(|c| c.as_os_str() == "hidden"))
}

/// Why a tree could not be searched.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// A path given on the command line does not exist or cannot be read.
    #[error("{path}: {source}")]
    Path {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

/// What a file name says about its role in a fixture.
enum Role {
    Cnf { name: String },
    Solution { name: String, function: String },
}

fn role(path: &Path) -> Option<Role> {
    let file = path.file_name()?.to_str()?;
    if let Some(stem) = file.strip_suffix(".solution") {
        let (name, function) = stem.rsplit_once('.').unwrap_or((stem, ""));
        Some(Role::Solution {
            name: name.to_owned(),
            function: function.to_owned(),
        })
    } else {
        file.strip_suffix(".cnf").map(|name| Role::Cnf {
            name: name.to_owned(),
        })
    }
}

/// Finds every fixture under `paths` (folders, `.cnf` files or `.solution`
/// files), sorted by `.cnf` path. A `.cnf` file given or found is listed
/// even when it has no `.solution` file; a `.cnf` argument brings its
/// sibling solutions along.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Fixture>, DiscoverError> {
    let mut files = Vec::new();
    for path in paths {
        let meta = fs::metadata(path).map_err(|source| DiscoverError::Path {
            path: path.clone(),
            source,
        })?;
        if meta.is_dir() {
            walk(path, &mut files).map_err(|source| DiscoverError::Path {
                path: path.clone(),
                source,
            })?;
        } else {
            files.push(path.clone());
            if let Some(Role::Cnf { name }) = role(path) {
                let dir = path.parent().unwrap_or(Path::new(""));
                let prefix = format!("{name}.");
                let listing = fs::read_dir(if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                })
                .map_err(|source| DiscoverError::Path {
                    path: path.clone(),
                    source,
                })?;
                for entry in listing.flatten() {
                    let file = entry.file_name();
                    let Some(file) = file.to_str() else { continue };
                    if file.starts_with(&prefix) && file.ends_with(".solution") {
                        files.push(dir.join(file));
                    }
                }
            }
        }
    }
    Ok(group(files))
}

/// Groups files into fixtures keyed by their `.cnf` path.
fn group(files: Vec<PathBuf>) -> Vec<Fixture> {
    let mut fixtures: BTreeMap<PathBuf, Fixture> = BTreeMap::new();
    for path in files {
        let Some(r) = role(&path) else { continue };
        let dir = path.parent().unwrap_or(Path::new(""));
        let (name, case) = match r {
            Role::Cnf { name } => (name, None),
            Role::Solution { name, function } => {
                let function = Function::from_name(&function).ok_or(function);
                (
                    name,
                    Some(Case {
                        solution: path.clone(),
                        function,
                    }),
                )
            }
        };
        let cnf = dir.join(format!("{name}.cnf"));
        let fixture = fixtures.entry(cnf.clone()).or_insert_with(|| Fixture {
            hidden: is_hidden(&cnf),
            cnf_exists: cnf.is_file(),
            cnf,
            cases: Vec::new(),
        });
        if let Some(case) = case
            && !fixture.cases.iter().any(|c| c.solution == case.solution)
        {
            fixture.cases.push(case);
        }
    }
    let mut out: Vec<Fixture> = fixtures.into_values().collect();
    for fixture in &mut out {
        fixture.cases.sort_by(|a, b| case_key(a).cmp(&case_key(b)));
    }
    out
}

fn case_key(case: &Case) -> (u8, &str, &Path) {
    match &case.function {
        Ok(f) => (f.part(), "", &case.solution),
        Err(name) => (u8::MAX, name.as_str(), &case.solution),
    }
}

/// Collects the files under `dir`, skipping hidden entries and not following
/// links to folders.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = dir.join(&name);
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&path, files)?;
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            files.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(dir: &Path, name: &str) {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "").unwrap();
    }

    #[test]
    fn groups_sorts_and_flags_unknown_and_orphans() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        for f in [
            "b.cnf",
            "b.manyPlayersManyMoves.solution",
            "b.onePlayerOneMove.solution",
            "b.bogus.solution",
            "sub/a.cnf",
            "sub/a.onePlayerManyMoves.solution",
            "orphan.onePlayerOneMove.solution",
            "lonely.cnf",
            ".hidden.onePlayerOneMove.solution",
            "notes.txt",
        ] {
            touch(d, f);
        }
        let fixtures = discover(&[d.to_path_buf()]).unwrap();
        let names: Vec<_> = fixtures
            .iter()
            .map(|f| f.cnf.strip_prefix(d).unwrap().to_str().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["b.cnf", "lonely.cnf", "orphan.cnf", "sub/a.cnf"]);
        let b = &fixtures[0];
        assert!(b.cnf_exists);
        let functions: Vec<_> = b.cases.iter().map(|c| c.function.clone()).collect();
        assert_eq!(
            functions,
            [
                Ok(Function::OnePlayerOneMove),
                Ok(Function::ManyPlayersManyMoves),
                Err("bogus".to_owned())
            ]
        );
        assert!(fixtures[1].cases.is_empty());
        assert!(!fixtures[2].cnf_exists);
        assert_eq!(fixtures[2].cases.len(), 1);
    }

    #[test]
    fn a_cnf_argument_brings_its_solutions() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        for f in ["g.cnf", "g.onePlayerOneMove.solution", "h.cnf"] {
            touch(d, f);
        }
        let fixtures = discover(&[d.join("g.cnf"), d.join("g.cnf")]).unwrap();
        assert_eq!(fixtures.len(), 1);
        assert_eq!(fixtures[0].cases.len(), 1);
    }

    #[test]
    fn a_missing_path_is_an_error() {
        let err = discover(&[PathBuf::from("/no/such/dir")]).unwrap_err();
        assert!(err.to_string().starts_with("/no/such/dir: "));
    }
}
