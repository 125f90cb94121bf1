//! Where reports go: checking output paths before any grading starts, and
//! the folders that hold fixture paths (which the sandbox must hide).

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
