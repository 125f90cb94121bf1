//! The world-writable folders a run's user could leave files in (found by
//! walking the file system, kept for the next grader) and the disk a set
//! of folders uses.

use std::fs;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::locks::{LOCKS, lock_dir};

/// The world-writable folders a run's leftovers are always removed from
/// (with every other one [`world_writable`] finds).
pub const SHARED_TMP: [&str; 5] = ["/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue"];

/// Folders [`world_writable`] does not walk: the kernel's, and the system's
/// (shown read-only by every backend; a system with a world-writable folder
/// in `/usr` is broken beyond what a sandbox can mend).
pub const NOT_WALKED: [&str; 6] = ["/proc", "/sys", "/usr", "/etc", "/opt", "/var/lib/ghc"];

/// Every folder that any user may write in ("others" may write and
/// search it), found by walking the file system from `/` but for
/// [`NOT_WALKED`] and below folders that others cannot search (nothing
/// below one is reachable by the run's user); with [`SHARED_TMP`] always.
pub fn world_writable() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>, budget: &mut usize) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            let path = e.path();
            let Ok(m) = fs::symlink_metadata(&path) else {
                continue;
            };
            if !m.is_dir()
                || m.mode() & 0o001 == 0
                || NOT_WALKED.iter().any(|n| path == Path::new(n))
            {
                continue;
            }
            if m.mode() & 0o002 != 0 {
                out.push(path.clone());
            }
            walk(&path, out, budget);
        }
    }
    let mut out: Vec<PathBuf> = SHARED_TMP
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .collect();
    let mut budget = 2_000_000;
    walk(Path::new("/"), &mut out, &mut budget);
    out.sort();
    out.dedup();
    out
}

/// How long the list [`world_writable`] found is kept for the next grader.
pub const WORLD_WRITABLE_KEPT: Duration = Duration::from_secs(600);

/// [`world_writable`], kept in `/run/cnf-sandbox/world-writable` (root's
/// own) for [`WORLD_WRITABLE_KEPT`], since a walk of a large machine takes
/// seconds: a world-writable folder made by someone else within that time
/// is cleaned only from the next walk on.
pub fn world_writable_cached() -> Vec<PathBuf> {
    use std::os::unix::ffi::OsStrExt as _;
    let file = Path::new(LOCKS).join("world-writable");
    let fresh = fs::symlink_metadata(&file).is_ok_and(|m| {
        m.is_file()
            && m.uid() == 0
            && m.mode() & 0o022 == 0
            && m.modified()
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age < WORLD_WRITABLE_KEPT)
    });
    if fresh && let Ok(bytes) = fs::read(&file) {
        let dirs: Vec<PathBuf> = bytes
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| PathBuf::from(std::ffi::OsStr::from_bytes(p)))
            .collect();
        if !dirs.is_empty() {
            return dirs;
        }
    }
    let dirs = world_writable();
    if lock_dir().is_ok() {
        let mut bytes = Vec::new();
        for d in &dirs {
            bytes.extend_from_slice(d.as_os_str().as_bytes());
            bytes.push(0);
        }
        let tmp = file.with_extension(format!("{}", std::process::id()));
        if fs::write(&tmp, &bytes).is_ok() {
            let _ = fs::set_permissions(&tmp, fs::Permissions::from_mode(0o600));
            let _ = fs::rename(&tmp, &file);
        }
    }
    dirs
}

/// The bytes allocated to the files below `dirs` (links not followed);
/// with `owner`, only entries (and what they hold) owned by that user.
/// Past 200,000 entries the count stops at `u64::MAX`.
pub(crate) fn disk_usage(dirs: &[&Path], owner: Option<u32>) -> u64 {
    fn walk(dir: &Path, owner: Option<u32>, total: &mut u64, seen: &mut usize) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            *seen += 1;
            if *seen > 200_000 {
                *total = u64::MAX;
                return;
            }
            let Ok(m) = fs::symlink_metadata(e.path()) else {
                continue;
            };
            if owner.is_some_and(|o| m.uid() != o) {
                continue;
            }
            *total = total.saturating_add(m.blocks() * 512);
            if m.is_dir() {
                walk(&e.path(), None, total, seen);
            }
        }
    }
    let mut total = 0;
    let mut seen = 0;
    for d in dirs {
        walk(d, owner, &mut total, &mut seen);
    }
    total
}
