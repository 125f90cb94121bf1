//! The grader's cache folder: compiled parts and saved class results, each
//! under the SHA-256 of everything it depends on.
//!
//! Decisions:
//! - a compiled part lives at `builds/KEY/EXE`, where KEY hashes the
//!   submission's sources (every file name and content), the `Helpers.hs`
//!   used, the GHC version and path, the compile flags and the part; a
//!   changed fixture, time limit or sandbox setting never recompiles;
//! - a student's finished result lives at `results/KEY.json`, where KEY
//!   hashes the sources, the fixture tree (every path and content), every
//!   grading option and the grader's version, so a saved result is reused
//!   (`submissions --resume`) only where grading again would give the same;
//! - everything is written to a temporary file in the same folder and
//!   renamed, so an interrupted run leaves an entry whole or absent; the
//!   folder is made with mode 0700 and never shown inside the sandbox.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

/// The cache folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
}

/// Makes `dir` (and its parents) with mode 0700 for the new folders.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

/// Writes `bytes` to `path` through a temporary file in the same folder.
pub fn write_atomically_with_mode(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let parent = path.parent().unwrap_or(Path::new("."));
    let mut file = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(parent)?;
    io::Write::write_all(&mut file, bytes)?;
    file.as_file()
        .set_permissions(fs::Permissions::from_mode(mode))?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

impl Cache {
    /// Opens (making it if needed) the cache at `dir`.
    pub fn open(dir: &Path) -> io::Result<Cache> {
        create_private_dir(dir)?;
        Ok(Cache {
            dir: dir.to_owned(),
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the executable of this build key is kept.
    pub fn build_path(&self, key: &str, exe: &str) -> PathBuf {
        self.dir.join("builds").join(key).join(exe)
    }

    /// Stores an executable under its key and returns its path.
    pub fn store_build(&self, key: &str, exe: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        let path = self.build_path(key, exe);
        if let Some(parent) = path.parent() {
            create_private_dir(parent)?;
        }
        write_atomically_with_mode(&path, bytes, 0o755)?;
        Ok(path)
    }

    /// The saved result of this key, if any.
    pub fn load_result(&self, key: &str) -> Option<String> {
        fs::read_to_string(self.dir.join("results").join(format!("{key}.json"))).ok()
    }

    /// Saves a result under its key.
    pub fn store_result(&self, key: &str, text: &str) -> io::Result<()> {
        let dir = self.dir.join("results");
        create_private_dir(&dir)?;
        write_atomically_with_mode(&dir.join(format!("{key}.json")), text.as_bytes(), 0o600)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::provenance::digest;

    #[test]
    fn digests_separate_pieces() {
        // Known value: SHA-256 of the 8-byte length 0, i.e. of eight zero bytes.
        assert_eq!(
            digest([&b""[..]]),
            "af5570f5a1810b7af78caf4bc70a660f0df51e42baf91d4de5b2328de0e83dfc"
        );
        assert_ne!(digest([&b"ab"[..], b"c"]), digest([&b"a"[..], b"bc"]));
    }

    #[test]
    fn entries_are_written_whole_and_private() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = Cache::open(&tmp.path().join("c")).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(cache.dir()), 0o700);
        let exe = cache.store_build("k1", "prog", b"\x7fELF").unwrap();
        assert_eq!(fs::read(&exe).unwrap(), b"\x7fELF");
        assert_eq!(mode(&exe), 0o755);
        assert_eq!(mode(exe.parent().unwrap()), 0o700);
        assert_eq!(cache.load_result("r"), None);
        cache.store_result("r", "{}").unwrap();
        assert_eq!(cache.load_result("r").as_deref(), Some("{}"));
        let leftovers = fs::read_dir(cache.dir().join("results"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(".tmp")
            })
            .count();
        assert_eq!(leftovers, 0);
    }
}
