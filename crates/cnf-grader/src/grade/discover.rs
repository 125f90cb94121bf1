//! Finding fixtures: every `NAME.cnf` with its `NAME.FUNCTION.solution`
//! files, in folders and their sub-folders, in a stable order.
//!
//! Decisions:
//! - a fixture is hidden when its path passes through a folder named
//!   `hidden` (e.g. `fixtures/hidden/g.cnf`), so an instructor hides tests
//!   by moving them, with no marker file to forget;
//! - a fixture's group comes from its folders the same way: under a folder
//!   named `extra-credit` its cases are the assignment's extra credit,
//!   under one named `edge` edge cases (graded and shown apart), anywhere
//!   else the base assignment ([`Group::of_path`]);
//! - entries whose name starts with `.` are skipped (hidden files and the
//!   temporary files of an interrupted `bless`);
//! - a file is one fixture file however it is spelled: files are
//!   identified by their folder's canonical path and their name, so
//!   `fixtures ./fixtures/g.cnf` gives `g.cnf`'s cases once. A report shows
//!   a fixture as the first argument that reached it spelled it (repeated
//!   `/` and inner `.` dropped), e.g. `fixtures/test03.cnf` for the
//!   argument `fixtures//`;
//! - each fixture also has a [`Fixture::name`] that no spelling changes:
//!   its path below the *fixture base*, the deepest folder that holds every
//!   root given (a folder argument is a root; a file argument's root is its
//!   folder), all canonical. One folder `fixtures` gives names like
//!   `test03.cnf` and `hidden/g.cnf`, as does a copy of it anywhere;
//!   `fixtures/a fixtures/b` gives `a/…` and `b/…`. Fixtures are sorted by
//!   that name, and the provenance's hash and `--shard` use it, so neither
//!   depends on how the paths were typed or in which order;
//! - symbolic links to files are followed (an instructor may link a
//!   fixture), symbolic links to folders are not (no loops); a file named
//!   like a fixture that is not a regular file (a FIFO, a socket, a device,
//!   a dangling link) is kept, and grading it is an `ERROR` that says what
//!   it is: [`read_fixture_file`] opens without blocking and reads regular
//!   files only, so such a file never hangs the grader;
//! - [`check_outside`] refuses fixtures that resolve into a folder a
//!   student controls (a link into the class being graded), before grading.
//!
//! Fixture files (a `.cnf`, a `.solution`) are read only through
//! [`read_fixture_file`], by grading and by `bless` alike.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::model::case::Group;
use crate::model::provenance::digest;
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
    /// The `NAME.cnf` path, as the user spelled it (which may not exist
    /// when only solutions were found).
    pub cnf: PathBuf,
    /// The `.cnf`'s path below the fixture base (see the module docs): the
    /// same for every spelling of the paths and for a copy of the tree.
    pub name: PathBuf,
    /// Whether the `.cnf` file exists.
    pub cnf_exists: bool,
    /// The expected results, functions in part order, then unknown names.
    pub cases: Vec<Case>,
    /// Whether it is a hidden test (its path passes through a folder named
    /// `hidden`): students see only its name, status and points.
    pub hidden: bool,
    /// Which score its cases count toward (its folder: `extra-credit`,
    /// `edge`, or the base assignment).
    pub group: Group,
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
    /// A fixture file resolves into a folder a student controls.
    #[error(
        "{fixture}: the fixture resolves to {target}, inside {folder} ({what}), so a student \
         could rewrite the test; keep fixtures outside it (copy the file, do not link it)"
    )]
    InsideSubmissions {
        /// The fixture file, as spelled.
        fixture: PathBuf,
        /// Where it resolves to.
        target: PathBuf,
        /// The students' folder.
        folder: PathBuf,
        /// What the folder is (`the class folder`, `the submission`).
        what: &'static str,
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

/// One fixture file reached from an argument.
struct Found {
    /// As spelled: the argument's spelling of its folder, then its name.
    shown: PathBuf,
    /// Its folder's canonical path, then its name.
    canonical: PathBuf,
}

/// `path` as spelled, without repeated `/` and inner `.` (which change nothing).
fn tidy(path: &Path) -> PathBuf {
    path.components().collect()
}

/// Finds every fixture under `paths` (folders, `.cnf` files or `.solution`
/// files), sorted by [`Fixture::name`]. A `.cnf` file given or found is
/// listed even when it has no `.solution` file; a `.cnf` argument brings its
/// sibling solutions along.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<Fixture>, DiscoverError> {
    let mut files = Vec::new();
    let mut roots = Vec::new();
    for path in paths {
        let failed = |source| DiscoverError::Path {
            path: path.clone(),
            source,
        };
        let meta = fs::metadata(path).map_err(failed)?;
        if meta.is_dir() {
            let canonical = fs::canonicalize(path).map_err(failed)?;
            let mut below = Vec::new();
            walk(path, Path::new(""), &mut below).map_err(failed)?;
            let shown = tidy(path);
            files.extend(below.into_iter().map(|rel| Found {
                shown: shown.join(&rel),
                canonical: canonical.join(&rel),
            }));
            roots.push(canonical);
        } else {
            let dir = path.parent().unwrap_or(Path::new(""));
            let listed = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            let canonical_dir = fs::canonicalize(listed).map_err(failed)?;
            let shown_dir = tidy(dir);
            let mut names = vec![path.file_name().unwrap_or_default().to_owned()];
            if let Some(Role::Cnf { name }) = role(path) {
                let prefix = format!("{name}.");
                for entry in fs::read_dir(listed).map_err(failed)?.flatten() {
                    let file = entry.file_name();
                    let Some(text) = file.to_str() else { continue };
                    if text.starts_with(&prefix) && text.ends_with(".solution") {
                        names.push(file);
                    }
                }
            }
            files.extend(names.into_iter().map(|n| Found {
                shown: shown_dir.join(&n),
                canonical: canonical_dir.join(&n),
            }));
            roots.push(canonical_dir);
        }
    }
    Ok(group(files, &base(&roots)))
}

/// The deepest folder that holds every one of `roots` (canonical paths).
fn base(roots: &[PathBuf]) -> PathBuf {
    let mut iter = roots.iter();
    let Some(first) = iter.next() else {
        return PathBuf::new();
    };
    let mut common: Vec<_> = first.components().collect();
    for root in iter {
        let same = common
            .iter()
            .zip(root.components())
            .take_while(|(a, b)| **a == *b)
            .count();
        common.truncate(same);
    }
    common.into_iter().collect()
}

/// Groups files into fixtures, one per canonical `.cnf` path, each shown as
/// first spelled, named below `base`, and sorted by that name.
fn group(files: Vec<Found>, base: &Path) -> Vec<Fixture> {
    let mut fixtures: BTreeMap<PathBuf, Fixture> = BTreeMap::new();
    for found in files {
        let Some(r) = role(&found.shown) else {
            continue;
        };
        let (name, file) = match r {
            Role::Cnf { name } => (name, None),
            Role::Solution { name, function } => (name, Some(function)),
        };
        let cnf_file = format!("{name}.cnf");
        let canonical = found.canonical.with_file_name(&cnf_file);
        let fixture = fixtures.entry(canonical.clone()).or_insert_with(|| {
            let cnf = found.shown.with_file_name(&cnf_file);
            Fixture {
                hidden: is_hidden(&cnf),
                group: Group::of_path(&cnf),
                // Any kind of file counts: one that is not a regular file is
                // reported when it is read.
                cnf_exists: fs::symlink_metadata(&cnf).is_ok(),
                name: canonical
                    .strip_prefix(base)
                    .map_or_else(|_| canonical.clone(), Path::to_path_buf),
                cnf,
                cases: Vec::new(),
            }
        });
        if let (Some(function), Some(file_name)) = (file, found.shown.file_name()) {
            // Shown in the fixture's own spelling of its folder.
            let solution = fixture.cnf.with_file_name(file_name);
            if !fixture.cases.iter().any(|c| c.solution == solution) {
                fixture.cases.push(Case {
                    solution,
                    function: Function::from_name(&function).ok_or(function),
                });
            }
        }
    }
    let mut out: Vec<Fixture> = fixtures.into_values().collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
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

/// Collects the paths (relative to the argument) of the fixture files under
/// `root.join(rel)`, skipping hidden entries and not following links to
/// folders. Entries named like fixture files are kept whatever they are
/// (reading one that is not a regular file is an error then).
fn walk(root: &Path, rel: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    walk_for(root, rel, &|path| role(path).is_some(), files)
}

/// Collects the paths (relative to `root`) under `root.join(rel)` that
/// `wanted` keeps, as [`walk`] does for Connect Four's fixture files:
/// hidden entries skipped, links to folders not followed.
pub(crate) fn walk_for(
    root: &Path,
    rel: &Path,
    wanted: &dyn Fn(&Path) -> bool,
    files: &mut Vec<PathBuf>,
) -> io::Result<()> {
    for entry in fs::read_dir(root.join(rel))? {
        let entry = entry?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = rel.join(&name);
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk_for(root, &path, wanted, files)?;
        } else if !(kind.is_symlink() && root.join(&path).is_dir()) && wanted(&path) {
            files.push(path);
        }
    }
    Ok(())
}

/// The kind of a file that is not a regular file, for messages.
fn kind_of(meta: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// Reads a fixture file (following a link an instructor made): only a
/// regular file is read, and it is opened without blocking, so a FIFO or a
/// device named like a fixture is an error, never a wait.
pub fn read_fixture_file(path: &Path) -> io::Result<Vec<u8>> {
    use rustix::fs::{Mode, OFlags};
    use std::io::Read as _;
    let not_regular = |meta: &fs::Metadata| {
        io::Error::other(format!(
            "it is {}; a fixture must be a regular file",
            kind_of(meta)
        ))
    };
    // A device is not even opened; the descriptor is checked again below.
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY,
        Mode::empty(),
    )?;
    let mut file = fs::File::from(fd);
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0).min(1 << 24));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Checks that no fixture file resolves (through links) into `folder`, a
/// folder students control (`what`: `the class folder`, `the submission`).
pub fn check_outside(
    fixtures: &[Fixture],
    folder: &Path,
    what: &'static str,
) -> Result<(), DiscoverError> {
    let Ok(inside) = fs::canonicalize(folder) else {
        return Ok(());
    };
    let files = fixtures
        .iter()
        .flat_map(|f| std::iter::once(&f.cnf).chain(f.cases.iter().map(|c| &c.solution)));
    check_files_outside(files, &inside, folder, what)
}

/// Checks that none of `files` resolves (through links) below `inside`,
/// the resolved path of `folder`, a folder students control.
pub(crate) fn check_files_outside<'a>(
    files: impl IntoIterator<Item = &'a PathBuf>,
    inside: &Path,
    folder: &Path,
    what: &'static str,
) -> Result<(), DiscoverError> {
    for file in files {
        if let Ok(target) = fs::canonicalize(file)
            && target.starts_with(inside)
        {
            return Err(DiscoverError::InsideSubmissions {
                fixture: file.clone(),
                target,
                folder: folder.to_owned(),
                what,
            });
        }
    }
    Ok(())
}

/// SHA-256 (hex) of the fixture files' names below the fixture base and
/// their contents, in discovery order; an unreadable file (or one that is
/// not a regular file) counts as empty. Files are read in parallel.
pub fn fixtures_digest(fixtures: &[Fixture]) -> String {
    use rayon::prelude::*;
    use std::path::{Path, PathBuf};
    let files: Vec<(PathBuf, &Path)> = fixtures
        .iter()
        .flat_map(|f| {
            let folder = f.name.parent().unwrap_or(Path::new(""));
            std::iter::once((f.name.clone(), f.cnf.as_path())).chain(f.cases.iter().map(move |c| {
                let file = c.solution.file_name().unwrap_or_default();
                (folder.join(file), c.solution.as_path())
            }))
        })
        .collect();
    let contents: Vec<Vec<u8>> = files
        .par_iter()
        .map(|(_, file)| read_fixture_file(file).unwrap_or_default())
        .collect();
    digest(
        files
            .iter()
            .zip(&contents)
            .flat_map(|((name, _), content)| {
                [name.as_os_str().as_encoded_bytes(), content.as_slice()]
            }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_hash_follows_contents_and_names() {
        use std::fs;
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::write(dir.join("a.cnf"), "x").unwrap();
        fs::write(dir.join("a.oneMove.solution"), "1").unwrap();
        let hash = || fixtures_digest(&discover(&[dir.to_owned()]).unwrap());
        let first = hash();
        assert_eq!(first.len(), 64);
        assert_eq!(first, hash());
        fs::write(dir.join("a.oneMove.solution"), "2").unwrap();
        let second = hash();
        assert_ne!(first, second);
        fs::rename(
            dir.join("a.oneMove.solution"),
            dir.join("a.oneMove2.solution"),
        )
        .unwrap();
        assert_ne!(second, hash());
    }

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
    fn a_fifo_named_like_a_fixture_is_kept_and_read_without_waiting() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        touch(d, "g.cnf");
        let fifo = d.join("g.onePlayerOneMove.solution");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        std::os::unix::fs::symlink(&fifo, d.join("l.cnf")).unwrap();
        let fixtures = discover(&[d.to_path_buf()]).unwrap();
        assert_eq!(fixtures.len(), 2, "{fixtures:?}");
        assert_eq!(fixtures[0].cases.len(), 1);
        assert!(
            fixtures[1].cnf_exists,
            "a link to a FIFO is a fixture file too"
        );
        // No writer ever opens the FIFO: a blocking read would wait for ever.
        for path in [&fifo, &d.join("l.cnf")] {
            let e = read_fixture_file(path).unwrap_err();
            assert_eq!(
                e.to_string(),
                "it is a FIFO (named pipe); a fixture must be a regular file"
            );
        }
        let e = read_fixture_file(Path::new("/dev/null")).unwrap_err();
        assert!(e.to_string().starts_with("it is a device"), "{e}");
        assert_eq!(read_fixture_file(&d.join("g.cnf")).unwrap(), b"");
    }

    #[test]
    fn fixtures_that_resolve_into_a_students_folder_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        touch(d, "class/alice/answer.solution");
        touch(d, "fixtures/g.cnf");
        touch(d, "fixtures/g.onePlayerOneMove.solution");
        touch(d, "fixtures/elsewhere.txt");
        std::os::unix::fs::symlink(
            d.join("fixtures/elsewhere.txt"),
            d.join("fixtures/h.onePlayerOneMove.solution"),
        )
        .unwrap();
        let class = d.join("class");
        let fine = discover(&[d.join("fixtures")]).unwrap();
        assert!(check_outside(&fine, &class, "the class folder").is_ok());
        std::os::unix::fs::symlink(
            d.join("class/alice/answer.solution"),
            d.join("fixtures/g.manyPlayersOneMove.solution"),
        )
        .unwrap();
        let linked = discover(&[d.join("fixtures")]).unwrap();
        let e = check_outside(&linked, &class, "the class folder")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "{}: the fixture resolves to {}, inside {} (the class folder)",
                d.join("fixtures/g.manyPlayersOneMove.solution").display(),
                fs::canonicalize(d.join("class/alice/answer.solution"))
                    .unwrap()
                    .display(),
                class.display()
            )),
            "{e}"
        );
        // A fixture tree inside the class is refused the same way.
        touch(d, "class/fixtures/k.cnf");
        let inside = discover(&[d.join("class/fixtures")]).unwrap();
        assert!(check_outside(&inside, &class, "the class folder").is_err());
    }

    #[test]
    fn a_missing_path_is_an_error() {
        let err = discover(&[PathBuf::from("/no/such/dir")]).unwrap_err();
        assert!(err.to_string().starts_with("/no/such/dir: "));
    }
}
