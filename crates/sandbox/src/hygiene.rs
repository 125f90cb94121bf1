//! Uid hygiene: killing every process of a run's user id, removing what
//! it left (entries in the world-writable folders, System V IPC objects),
//! and telling whether an id is clean ([`left_by`]), for the user backend
//! after each run and for every lease ([`crate::lease`]).

use std::fs;
use std::os::unix::fs::MetadataExt as _;
use std::path::PathBuf;
use std::time::Duration;

use crate::writable::SHARED_TMP;

/// A process of the id being killed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Process {
    pid: i32,
    /// Its parent's pid.
    parent: i32,
    /// Ended, with no thread left, waiting for its parent to reap it: no
    /// signal can do more to it.
    zombie: bool,
}

/// Every process whose real or effective user is `uid`.
fn processes_of(uid: u32) -> Vec<Process> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid: i32 = e.file_name().to_str()?.parse().ok()?;
            let status = fs::read_to_string(e.path().join("status")).ok()?;
            let field = |name: &str| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .map(str::trim)
            };
            let mut ids = field("Uid:")?.split_whitespace().take(2);
            let zombie = field("State:").is_some_and(|s| s.starts_with('Z'))
                && field("Threads:") == Some("1");
            let parent = field("PPid:")?.parse().ok()?;
            ids.any(|id| id.parse() == Ok(uid)).then_some(Process {
                pid,
                parent,
                zombie,
            })
        })
        .collect()
}

/// Kills every process of `uid`, again until none is left (for about ten
/// seconds at most); returns how many kills it sent.
pub fn kill_uid(uid: u32) -> usize {
    kill_uid_within(uid, 1000)
}

/// How many rounds in a row (about half a second) [`kill_uid_within`] sees
/// only zombies that no kill of this id can free before it stops.
///
/// A zombie goes when its parent reaps it. One whose parent is init, or a
/// process of this id (killed here, so that init inherits the zombie), is
/// waited for, as init may reap slowly. One whose parent is another
/// user's live process stays whatever is sent: waiting for it only
/// delays the verdict (the id is retired either way).
const ZOMBIE_ROUNDS: usize = 50;

/// [`kill_uid`], for at most `rounds` rounds (the first ten 1 ms apart,
/// the others 10 ms), stopping early once [`ZOMBIE_ROUNDS`] rounds in a row
/// found only zombies no kill of this id can free.
pub(crate) fn kill_uid_within(uid: u32, rounds: usize) -> usize {
    let mut sent = 0;
    let mut only_zombies = 0;
    for round in 0..rounds {
        let pids = processes_of(uid);
        if pids.is_empty() {
            break;
        }
        let stuck =
            |p: &Process| p.zombie && p.parent != 1 && !pids.iter().any(|q| q.pid == p.parent);
        if pids.iter().all(stuck) {
            only_zombies += 1;
            if only_zombies >= ZOMBIE_ROUNDS {
                break;
            }
        } else {
            only_zombies = 0;
        }
        for p in pids {
            if p.zombie {
                continue;
            }
            if let Some(pid) = rustix::process::Pid::from_raw(p.pid) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                sent += 1;
            }
        }
        std::thread::sleep(Duration::from_millis(if round < 10 { 1 } else { 10 }));
    }
    sent
}

/// After a run of `uid` (its processes killed): removes what it left in
/// the world-writable folders `shared` and every System V IPC object it
/// owns or made, then checks again; returns what is still there (empty:
/// clean).
pub fn clean_up(uid: u32, shared: &[PathBuf]) -> Vec<String> {
    clean_shared(uid, shared);
    remove_ipc(uid);
    left_by(uid, shared)
}

/// What `uid` has: its processes (zombies included), its entries in the
/// folders `shared` (the world-writable ones, `/dev/mqueue` among them
/// where it is mounted: POSIX message queues) and the System V IPC objects
/// it owns or made; one phrase each (empty: clean).
pub fn left_by(uid: u32, shared: &[PathBuf]) -> Vec<String> {
    let mut left = Vec::new();
    let procs = processes_of(uid).len();
    if procs > 0 {
        left.push(format!("{procs} processes"));
    }
    for dir in shared {
        for e in fs::read_dir(dir).into_iter().flatten().flatten() {
            if fs::symlink_metadata(e.path()).is_ok_and(|m| m.uid() == uid) {
                left.push(e.path().display().to_string());
            }
        }
    }
    let ipc = ipc_of(uid).len();
    if ipc > 0 {
        left.push(format!("{ipc} IPC objects"));
    }
    left
}

/// The System V IPC objects owned or made by `uid`: (kind, id).
fn ipc_of(uid: u32) -> Vec<(&'static str, i32)> {
    let mut out = Vec::new();
    // The columns of /proc/sysvipc/*: the id is the second; the owner and
    // creator uids sit at these places.
    for (kind, uid_at, cuid_at) in [("shm", 7, 9), ("sem", 4, 6), ("msg", 7, 9)] {
        let Ok(text) = fs::read_to_string(format!("/proc/sysvipc/{kind}")) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let of = |i: usize| f.get(i).and_then(|v| v.parse::<u32>().ok());
            if (of(uid_at) == Some(uid) || of(cuid_at) == Some(uid))
                && let Some(id) = f.get(1).and_then(|v| v.parse::<i32>().ok())
            {
                out.push((kind, id));
            }
        }
    }
    out
}

/// Removes the System V IPC objects of `uid` (the seccomp filter refuses
/// making them; this is the second line).
fn remove_ipc(uid: u32) {
    for (kind, id) in ipc_of(uid) {
        // SAFETY: plain system calls; IPC_RMID reads no buffer.
        unsafe {
            match kind {
                "shm" => libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut()),
                "sem" => libc::semctl(id, 0, libc::IPC_RMID),
                _ => libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut()),
            };
        }
    }
}

/// Removes what `uid` left in the shared temporary folders; returns how
/// many entries it removed.
pub fn clean_shared_tmp(uid: u32) -> usize {
    let dirs: Vec<PathBuf> = SHARED_TMP.iter().map(PathBuf::from).collect();
    clean_shared(uid, &dirs)
}

/// Removes what `uid` left in the folders `dirs`; returns how many entries
/// it removed.
pub fn clean_shared(uid: u32, dirs: &[PathBuf]) -> usize {
    let mut removed = 0;
    for dir in dirs {
        let Ok(entries) = fs::read_dir(dir) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(m) = fs::symlink_metadata(e.path()) else {
                continue;
            };
            if m.uid() != uid {
                continue;
            }
            let gone = if m.is_dir() {
                fs::remove_dir_all(e.path())
            } else {
                fs::remove_file(e.path())
            };
            removed += usize::from(gone.is_ok());
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zombie_is_told_from_a_running_process() {
        let uid = rustix::process::getuid().as_raw();
        let found = |pid: u32| {
            processes_of(uid)
                .into_iter()
                .find(|p| p.pid == pid as i32)
                .map(|p| {
                    assert_eq!(p.parent, std::process::id() as i32);
                    p.zombie
                })
        };
        let mut running = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        assert_eq!(found(running.id()), Some(false));
        running.kill().unwrap();
        // Killed and not yet waited for: a zombie, until waited for.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while found(running.id()) != Some(true) {
            assert!(std::time::Instant::now() < deadline, "never a zombie");
            std::thread::sleep(Duration::from_millis(5));
        }
        running.wait().unwrap();
        assert_eq!(found(running.id()), None);
    }
}
