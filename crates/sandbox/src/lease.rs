//! Uid leases: each run of the user backend gets its own id from a pool
//! above the configured one, and each party of a root grader's bubblewrap
//! runs (a student) its own id below that pool; a lease is held in this
//! process and, through a lock file per id, against other graders on the
//! same machine.
//!
//! An id is leased only clean: no process, no System V IPC object, no
//! POSIX message queue (in `/dev/mqueue`, where mounted) and no entry in
//! the world-writable folders is that id's. The run before may have been
//! another grader's that was killed before its cleanup, or that found the
//! id unclean, kept it, and has exited since; so what is left is removed
//! first, and an id still unclean after that is skipped.
//!
//! A lock given back may stay held for a moment: a process another thread
//! of the grader has just forked holds a copy of every open file until it
//! starts its program. A lease then takes the next id, which costs nothing.

use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt as _;
use std::path::PathBuf;
use std::sync::Mutex;

/// How many user ids the user backend leases from.
pub const POOL: u32 = 4096;

/// Where the user backend's ids start, above the configured one: the ids
/// below are a root grader's bubblewrap runs (one leased per party, e.g. a
/// student of a class: [`crate::Sandbox::for_one_party`]), which a kill of
/// "every process of a leased uid" must never reach, even from another
/// grader on the same machine.
pub const LEASE_OFFSET: u32 = crate::UID_RANGE / 2;

/// The ids leased by this process.
static LEASED: Mutex<std::collections::BTreeSet<u32>> =
    Mutex::new(std::collections::BTreeSet::new());

/// Locks `uid` for this process: `Ok(None)` when another holds it, `Err`
/// when no lock can be taken here (the in-process lease still holds).
fn lock_file(uid: u32) -> io::Result<Option<fs::File>> {
    crate::locks::lock(&format!("uid-{uid}"))
}

/// Kills and cleans up after every id of the range from `first` on
/// (`count` ids) that has a process but no lease held by a live grader
/// (its lock is free): the processes a killed grader's user-backend runs
/// left, which the next grader removes before it runs anything. An id
/// whose lock is held, or one of this process's own leases, is left alone.
/// What an id left but processes is removed when it is next leased.
pub(crate) fn sweep(first: u32, count: u32, shared: &[PathBuf]) {
    let end = first.saturating_add(count);
    let mut uids = std::collections::BTreeSet::new();
    if let Ok(entries) = fs::read_dir("/proc") {
        for e in entries.flatten() {
            if e.file_name()
                .to_str()
                .is_some_and(|n| n.parse::<u32>().is_ok())
                && let Ok(m) = fs::metadata(e.path())
                && (first..end).contains(&m.uid())
            {
                uids.insert(m.uid());
            }
        }
    }
    for uid in uids {
        if LEASED.lock().is_ok_and(|l| l.contains(&uid)) {
            continue;
        }
        if let Ok(Some(_lock)) = lock_file(uid) {
            crate::hygiene::kill_uid_within(uid, KILL_ROUNDS);
            crate::hygiene::clean_up(uid, shared);
        }
    }
}

/// One leased id, given back when dropped (its lock file closed).
#[derive(Debug)]
pub(crate) struct Lease {
    /// The id.
    pub(crate) uid: u32,
    _lock: Option<fs::File>,
}

impl Lease {
    /// The first free and clean id of the pool above `base` (world-writable
    /// folders: `shared`), or `None` when none of the [`POOL`] is.
    pub(crate) fn take(base: u32, shared: &[PathBuf]) -> Option<Lease> {
        Lease::take_from(base.saturating_add(LEASE_OFFSET), POOL, shared)
    }

    /// The first free id of the `count` from `first` on that is clean, or
    /// made clean ([`crate::hygiene::left_by`], world-writable folders:
    /// `shared`); `None` when there is none.
    pub(crate) fn take_from(first: u32, count: u32, shared: &[PathBuf]) -> Option<Lease> {
        let mut l = LEASED.lock().ok()?;
        for uid in first..first.saturating_add(count) {
            if l.contains(&uid) {
                continue;
            }
            // Another grader on this machine may use the same range: a
            // lock file per id in a root-only folder keeps them apart.
            let lock = match lock_file(uid) {
                Ok(Some(f)) => Some(f),
                Ok(None) => continue,
                Err(_) => None,
            };
            if !crate::hygiene::left_by(uid, shared).is_empty() {
                // Holding its lock, no other grader runs this id, so what
                // it has is a past run's: removed, then checked again.
                // Without a lock (no lock folder here) another grader may
                // be running it now: skipped this time, untouched.
                let Some(lock) = lock else { continue };
                crate::hygiene::kill_uid_within(uid, KILL_ROUNDS);
                if !crate::hygiene::clean_up(uid, shared).is_empty() {
                    // Retired: never tried again by this process, and its
                    // lock stays held until this process ends.
                    l.insert(uid);
                    std::mem::forget(lock);
                    continue;
                }
                l.insert(uid);
                return Some(Lease {
                    uid,
                    _lock: Some(lock),
                });
            }
            l.insert(uid);
            return Some(Lease { uid, _lock: lock });
        }
        None
    }
}

/// How many times (about a second in all) leasing kills what an unclean
/// id still runs before it gives up on that id.
const KILL_ROUNDS: usize = 100;

impl Drop for Lease {
    fn drop(&mut self) {
        if let Ok(mut l) = LEASED.lock() {
            l.remove(&self.uid);
        }
    }
}
