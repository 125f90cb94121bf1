//! Where reports go: checking output paths before any grading starts, and
//! the folders that hold fixture paths (which the sandbox must hide).
//!
//! Decision: an output (`--csv`, `--reports`, `--html`, `--cache`, and
//! `submission`'s `--output`) inside the folder being graded (the class
//! folder, or the one submission) is refused before anything is written
//! there: a folder there would be graded as a student, and grading never
//! writes into what students handed in. Paths are compared after resolving
//! `.`, `..` and links of the part that exists, so no spelling gets around it.

use std::path::{Path, PathBuf};

/// The folders that hold these fixture paths (a file's folder holds its
/// sibling `.solution` files).
pub fn fixture_roots(paths: &[PathBuf]) -> Vec<PathBuf> {
    paths
        .iter()
        .map(|p| {
            if p.is_dir() {
                p.clone()
            } else {
                p.parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .map_or_else(|| PathBuf::from("."), ToOwned::to_owned)
            }
        })
        .collect()
}

/// `path` made absolute and resolved as far as it exists: its longest
/// existing prefix canonicalized (`..` and links resolved), then the rest,
/// which holds no link as it does not exist yet, applied as written.
fn resolved(path: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let parts: Vec<Component<'_>> = path.components().collect();
    (0..=parts.len()).rev().find_map(|n| {
        let prefix: PathBuf = parts[..n].iter().collect();
        let probe = if prefix.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            prefix
        };
        let mut real = std::fs::canonicalize(probe).ok()?;
        for part in &parts[n..] {
            match part {
                Component::Normal(name) => real.push(name),
                Component::ParentDir => {
                    real.pop();
                }
                _ => {}
            }
        }
        Some(real)
    })
}

/// Checks before any grading that the output `path` (given with `flag`)
/// is not inside `folder`, the folder being graded (`what`: e.g. `the class
/// folder`), nor is it.
pub fn check_outside_graded(
    flag: &str,
    path: &Path,
    folder: &Path,
    what: &str,
) -> Result<(), String> {
    let (Some(out), Some(graded)) = (resolved(path), resolved(folder)) else {
        return Ok(());
    };
    if out.starts_with(&graded) {
        return Err(format!(
            "{flag} {}: is inside {what} {}, which is being graded (a folder there would be \
             graded as a student, and grading never writes into students' files); give a path \
             outside it",
            path.display(),
            folder.display()
        ));
    }
    Ok(())
}

/// Checks before any grading that a report can be written at `path`.
pub fn check_output_file(flag: &str, path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!(
            "{flag} {}: is a folder; give the path of a file to write",
            path.display()
        ));
    }
    let parent = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(format!(
            "{flag} {}: the folder {} does not exist",
            path.display(),
            parent.display()
        ));
    }
    tempfile::Builder::new()
        .prefix(".cnf-grader-check-")
        .tempfile_in(parent)
        .map(drop)
        .map_err(|e| format!("{flag} {}: cannot write there: {e}", path.display()))
}

/// Checks before any grading that reports can be written into folder `dir`.
pub fn check_output_dir(flag: &str, dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "{flag} {}: is a file; give a folder (it is made if needed)",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{flag} {}: cannot make it: {e}", dir.display()))?;
    check_output_file(flag, &dir.join("check"))
}

/// The one message for a path that does not exist (`what`: what to give
/// instead, e.g. `the fixture folder`): the path, that a relative one is
/// taken from the current folder `here` (and that `fixtures/` is the
/// default, when it is), and the fix.
pub fn no_such_path(path: &Path, here: Option<&Path>, what: &str) -> String {
    let relative = if path.is_relative() {
        let here = here.map_or_else(|| "?".to_owned(), |d| d.display().to_string());
        let default = if path == Path::new("fixtures/") {
            "; fixtures/ is the default"
        } else {
            ""
        };
        format!(" (relative to the current folder, {here}{default})")
    } else {
        String::new()
    };
    format!(
        "{}: no such file or folder{relative}; give {what}",
        crate::escape::path(path)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_paths_are_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        assert_eq!(check_output_file("--csv", &d.join("book.csv")), Ok(()));
        assert!(
            !d.join("book.csv").exists(),
            "the check leaves nothing behind"
        );
        assert_eq!(
            check_output_file("--csv", d),
            Err(format!(
                "--csv {}: is a folder; give the path of a file to write",
                d.display()
            ))
        );
        let missing = d.join("no/book.csv");
        assert_eq!(
            check_output_file("--csv", &missing),
            Err(format!(
                "--csv {}: the folder {} does not exist",
                missing.display(),
                d.join("no").display()
            ))
        );
        assert_eq!(check_output_dir("--reports", &d.join("r")), Ok(()));
        assert!(d.join("r").is_dir());
        std::fs::write(d.join("f"), "").unwrap();
        assert!(
            check_output_dir("--reports", &d.join("f"))
                .unwrap_err()
                .contains("is a file")
        );
    }

    #[test]
    fn outputs_inside_the_graded_folder_are_refused_however_spelled() {
        let tmp = tempfile::tempdir().unwrap();
        let class = tmp.path().join("class");
        std::fs::create_dir_all(class.join("alice")).unwrap();
        std::os::unix::fs::symlink(&class, tmp.path().join("link")).unwrap();
        let check = |p: PathBuf| check_outside_graded("--reports", &p, &class, "the class folder");
        for inside in [
            class.join("reports"),
            class.join("alice/../new/deeper"),
            class.join("new/../other"),
            tmp.path().join("link/reports"),
            tmp.path().join("./class//reports"),
            class.clone(),
        ] {
            let e = check(inside.clone()).unwrap_err();
            assert!(e.contains("is inside the class folder"), "{inside:?}: {e}");
        }
        for outside in [
            tmp.path().join("reports"),
            tmp.path().join("class-reports"),
            tmp.path().join("class/../reports"),
            class.join("new/../../reports"),
        ] {
            assert_eq!(check(outside.clone()), Ok(()), "{outside:?}");
        }
    }

    #[test]
    fn a_file_argument_protects_its_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("g.cnf");
        std::fs::write(&f, "").unwrap();
        assert_eq!(
            fixture_roots(&[tmp.path().to_owned(), f, PathBuf::from("x.cnf")]),
            [
                tmp.path().to_owned(),
                tmp.path().to_owned(),
                PathBuf::from(".")
            ]
        );
    }
}
