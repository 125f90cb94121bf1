//! The grader's cache folder: compiled parts and saved class results, each
//! under the SHA-256 of everything it depends on, within a size budget.
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
//!   folder is made with mode 0700 and never shown inside the sandbox;
//! - the cache holds at most its budget ([`DEFAULT_BUDGET`], `--cache-size`)
//!   of entries: before an entry is written, the least recently used
//!   entries (by the time they were last written or used, kept as their
//!   modification time) are removed until it fits; an entry this grader
//!   wrote or used is never removed while it runs (its executables are
//!   still to run);
//! - one student may keep at most a share of the budget ([`SHARE`]: an
//!   eighth) per run, and an entry that does not fit (over the share, or
//!   nothing left to remove) is refused: the executable is then kept in the
//!   run's work folder instead, so the student is graded as usual, only
//!   not from the cache next time; a student whose executables are huge
//!   can neither push the class out of the cache nor fill the disk under
//!   it. Caching never changes a grade.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// The cache's size budget unless `--cache-size` says otherwise.
pub const DEFAULT_BUDGET: u64 = 2 << 30;

/// The most of the budget one student's entries may take in one run: one
/// part in this many.
pub const SHARE: u64 = 8;

/// The cache folder.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
    budget: u64,
    state: Arc<Mutex<State>>,
}

/// What a grader knows of its cache while it runs.
#[derive(Debug, Default)]
struct State {
    /// Entries written or used by this grader: never evicted while it runs.
    pinned: HashSet<PathBuf>,
    /// Bytes each student (its folder) kept in this run.
    kept: HashMap<PathBuf, u64>,
}

impl PartialEq for Cache {
    fn eq(&self, other: &Self) -> bool {
        self.dir == other.dir && self.budget == other.budget
    }
}

impl Eq for Cache {}

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

/// One entry of the cache: what is removed, its size, when last used.
struct Entry {
    path: PathBuf,
    size: u64,
    used: SystemTime,
}

/// Marks `path` used now (its modification time), for the eviction order.
fn touch(path: &Path) {
    if let Ok(file) = fs::File::open(path) {
        let _ = file.set_modified(SystemTime::now());
    }
}

/// The size and latest modification time of the files under `path`
/// (leftover temporary files included: they take room too).
fn measure(path: &Path) -> (u64, SystemTime) {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return (0, SystemTime::UNIX_EPOCH);
    };
    if !meta.is_dir() {
        return (
            meta.len(),
            meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        );
    }
    let mut size = 0;
    let mut used = SystemTime::UNIX_EPOCH;
    for entry in fs::read_dir(path).into_iter().flatten().flatten() {
        let (s, u) = measure(&entry.path());
        size += s;
        used = used.max(u);
    }
    (size, used)
}

impl Cache {
    /// Opens (making it if needed) the cache at `dir`, with the default
    /// budget ([`DEFAULT_BUDGET`]).
    pub fn open(dir: &Path) -> io::Result<Cache> {
        create_private_dir(dir)?;
        Ok(Cache {
            dir: dir.to_owned(),
            budget: DEFAULT_BUDGET,
            state: Arc::default(),
        })
    }

    /// The same cache with a budget of `bytes` (`--cache-size`).
    pub fn with_budget(self, bytes: u64) -> Cache {
        Cache {
            budget: bytes,
            ..self
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The size budget, in bytes.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Where the executable of this build key is kept.
    pub fn build_path(&self, key: &str, exe: &str) -> PathBuf {
        self.dir.join("builds").join(key).join(exe)
    }

    /// The kept executable of this key, if any, marked used (so it is not
    /// evicted while this grader runs).
    pub fn find_build(&self, key: &str, exe: &str) -> Option<PathBuf> {
        let path = self.build_path(key, exe);
        if !path.is_file() {
            return None;
        }
        touch(&path);
        if let Ok(mut state) = self.state.lock() {
            state.pinned.insert(self.dir.join("builds").join(key));
        }
        Some(path)
    }

    /// Stores an executable of `owner` (the student's folder) under its key
    /// and returns its path; `Ok(None)` when the budget refuses it (over
    /// the student's share, or no room can be made), so the caller keeps it
    /// elsewhere; `Err` when it cannot be written (a full disk).
    pub fn store_build(
        &self,
        key: &str,
        exe: &str,
        bytes: &[u8],
        owner: &Path,
    ) -> io::Result<Option<PathBuf>> {
        let path = self.build_path(key, exe);
        let entry = self.dir.join("builds").join(key);
        let size = bytes.len() as u64;
        let Ok(mut state) = self.state.lock() else {
            return Ok(None);
        };
        let kept = state.kept.get(owner).copied().unwrap_or(0);
        if kept + size > self.budget / SHARE || !self.make_room(size, &state.pinned) {
            return Ok(None);
        }
        create_private_dir(&entry)?;
        state.pinned.insert(entry);
        write_atomically_with_mode(&path, bytes, 0o755)?;
        *state.kept.entry(owner.to_owned()).or_default() += size;
        Ok(Some(path))
    }

    /// Removes the least recently used entries not pinned until `size` more
    /// bytes fit in the budget; false when they cannot.
    fn make_room(&self, size: u64, pinned: &HashSet<PathBuf>) -> bool {
        if size > self.budget {
            return false;
        }
        let mut entries = Vec::new();
        for folder in ["builds", "results"] {
            for found in fs::read_dir(self.dir.join(folder))
                .into_iter()
                .flatten()
                .flatten()
            {
                let path = found.path();
                let (size, used) = measure(&path);
                entries.push(Entry { path, size, used });
            }
        }
        let mut total: u64 = entries.iter().map(|e| e.size).sum();
        entries.retain(|e| !pinned.contains(&e.path));
        entries.sort_by_key(|e| e.used);
        let mut entries = entries.into_iter();
        while total + size > self.budget {
            let Some(oldest) = entries.next() else {
                return false;
            };
            let gone = if oldest.path.is_dir() {
                fs::remove_dir_all(&oldest.path)
            } else {
                fs::remove_file(&oldest.path)
            };
            if gone.is_ok() {
                total = total.saturating_sub(oldest.size);
            }
        }
        true
    }

    /// The saved result of this key, if any (marked used).
    pub fn load_result(&self, key: &str) -> Option<String> {
        let path = self.dir.join("results").join(format!("{key}.json"));
        let text = fs::read_to_string(&path).ok()?;
        touch(&path);
        Some(text)
    }

    /// Saves a result under its key (nothing when the budget has no room).
    pub fn store_result(&self, key: &str, text: &str) -> io::Result<()> {
        let dir = self.dir.join("results");
        let path = dir.join(format!("{key}.json"));
        let Ok(mut state) = self.state.lock() else {
            return Ok(());
        };
        if !self.make_room(text.len() as u64, &state.pinned) {
            return Ok(());
        }
        create_private_dir(&dir)?;
        state.pinned.insert(path.clone());
        write_atomically_with_mode(&path, text.as_bytes(), 0o600)
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
        let exe = cache
            .store_build("k1", "prog", b"\x7fELF", Path::new("s"))
            .unwrap()
            .unwrap();
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

    /// Sets `path`'s modification time `secs` seconds after the epoch.
    fn age(path: &Path, secs: u64) {
        let file = fs::File::open(path).unwrap();
        file.set_modified(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs))
            .unwrap();
    }

    #[test]
    fn the_least_recently_used_entries_make_room_and_this_runs_are_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("c");
        // An earlier run's entries: 400 and 300 bytes, the first used last.
        let earlier = Cache::open(&dir).unwrap().with_budget(8000);
        let store = |cache: &Cache, key: &str, size: usize, owner: &str| {
            cache
                .store_build(key, "exe", &vec![1; size], Path::new(owner))
                .unwrap()
        };
        let a = store(&earlier, "a", 400, "x").unwrap();
        let b = store(&earlier, "b", 300, "y").unwrap();
        age(&a, 2_000);
        age(&b, 1_000);
        // This run (1000 bytes, 125 a student): a is used again; 120 + 120
        // fit beside a and b (940), the next 120 evict the least recently
        // used (b), not a.
        let cache = Cache::open(&dir).unwrap().with_budget(1000);
        assert!(cache.find_build("a", "exe").is_some());
        store(&cache, "c", 120, "s1").unwrap();
        store(&cache, "d", 120, "s2").unwrap();
        assert!(b.exists());
        store(&cache, "e", 120, "s3").unwrap();
        assert!(!b.exists(), "the least recently used entry goes first");
        assert!(a.exists());
        // Only entries of this run are left (1000 bytes), never evicted:
        // what does not fit is refused, not written.
        store(&cache, "f", 120, "s4").unwrap();
        store(&cache, "g", 120, "s5").unwrap();
        assert_eq!(store(&cache, "h", 120, "s6"), None);
        assert!(!cache.build_path("h", "exe").exists());
        for key in ["a", "c", "d", "e", "f", "g"] {
            assert!(cache.build_path(key, "exe").exists(), "{key}");
        }
    }

    #[test]
    fn one_student_keeps_at_most_an_eighth_of_the_budget() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = Cache::open(tmp.path()).unwrap().with_budget(8000);
        let hoarder = Path::new("class/hoarder");
        // Over the share at once: refused.
        assert_eq!(
            cache.store_build("h0", "exe", &[0; 1001], hoarder).unwrap(),
            None
        );
        assert!(
            cache
                .store_build("h1", "exe", &[0; 600], hoarder)
                .unwrap()
                .is_some()
        );
        // 600 + 600 is over its 1000: refused, while another student is kept.
        assert_eq!(
            cache.store_build("h2", "exe", &[0; 600], hoarder).unwrap(),
            None
        );
        let other = cache.store_build("o1", "exe", &[0; 900], Path::new("class/other"));
        assert!(other.unwrap().is_some());
    }
}
