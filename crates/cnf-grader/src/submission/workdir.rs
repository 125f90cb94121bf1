//! The temporary folder of a grading run and the cleanup of what works in it.
//!
//! Everything a run builds lives in one [`WorkDir`] (or in the cache): it
//! is removed when the run ends, and on Ctrl-C, SIGTERM or SIGHUP the
//! binary's handler (crate `ctrlc`) kills the unsandboxed processes
//! working in it and removes it; sandboxed ones die with the grader.
//!
//! A grader killed with SIGKILL (or a machine that lost power) cannot
//! remove its folder, which holds every student's sources and
//! executables. So a work folder is named `cnf-grader-PID-START-XXXXXX`,
//! after the grader's process id and its start time (clock ticks after
//! boot: a process id is used again, the pair is not, as the sandbox's run
//! cgroups are named), and each new grader first removes the folders of
//! that form in the same parent whose grader has ended (no process has
//! that id, or it started at another time), killing what still works in
//! them; a live grader's folder is never touched, nor a folder of another
//! name.

use std::fs;
use std::io;
use std::path::Path;
use std::time::Duration;

use tempfile::TempDir;

pub use crate::grade::discover::fixtures_digest;

/// The temporary folder of a grading run, which holds every private build
/// folder. Dropping it, or calling its [`WorkDir::cleaner`] (from a signal
/// handler), kills the unsandboxed compilers and programs still working in
/// it and removes it; sandboxed ones die with the grader by themselves.
#[derive(Debug)]
pub struct WorkDir {
    dir: Option<TempDir>,
}

/// The start of every work folder's name.
const PREFIX: &str = "cnf-grader-";

/// When process `pid` started (field 22 of `/proc/PID/stat`, clock ticks
/// after boot), if it runs.
fn start_time(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces and parentheses.
    let (_, rest) = stat.rsplit_once(") ")?;
    rest.split_ascii_whitespace().nth(22 - 3)?.parse().ok()
}

/// Whether the grader that made the work folder `name`
/// (`cnf-grader-PID-START-XXXXXX`) has ended; false for any other name.
fn owner_ended(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(PREFIX) else {
        return false;
    };
    let mut parts = rest.splitn(3, '-');
    let (Some(pid), Some(start), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    match (pid.parse::<u32>(), start.parse::<u64>()) {
        (Ok(pid), Ok(start)) => start_time(pid) != Some(start),
        _ => false,
    }
}

/// Removes the work folders in `parent` whose grader has ended (see the
/// module docs), killing what still works in them; returns them.
pub fn remove_stale(parent: &Path) -> Vec<std::path::PathBuf> {
    let mut removed = Vec::new();
    for entry in fs::read_dir(parent).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && owner_ended(name) {
            let path = entry.path();
            clean_up(&path);
            if !path.exists() {
                removed.push(path);
            }
        }
    }
    removed
}

impl WorkDir {
    /// Makes a new work folder inside `parent`, named after this grader
    /// (process id and start time), after removing those of graders that
    /// have ended ([`remove_stale`]).
    pub fn new(parent: &Path) -> io::Result<WorkDir> {
        remove_stale(parent);
        let me = std::process::id();
        let prefix = format!("{PREFIX}{me}-{}-", start_time(me).unwrap_or(0));
        let dir = tempfile::Builder::new()
            .prefix(&prefix)
            .tempdir_in(parent)?;
        Ok(WorkDir { dir: Some(dir) })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new(""), TempDir::path)
    }

    /// A clean-up that can run from a signal handler thread: kill what
    /// works in the folder, then remove it.
    pub fn cleaner(&self) -> impl Fn() + Send + 'static {
        let root = self.path().to_owned();
        move || clean_up(&root)
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            clean_up(dir.path());
        }
    }
}

/// Kills what works in `root` (a few rounds, for processes started
/// meanwhile), then removes it.
pub(crate) fn clean_up(root: &Path) {
    for _ in 0..3 {
        if kill_processes_in(root) == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = fs::remove_dir_all(root);
}

/// Kills (SIGKILL) every process whose working folder is inside `root`,
/// with its process group; returns how many were found. Each unsandboxed
/// compiler and student program runs in its own process group there.
pub fn kill_processes_in(root: &Path) -> usize {
    use rustix::process::{Pid, Signal, kill_process, kill_process_group};
    let Ok(entries) = fs::read_dir("/proc") else {
        return 0;
    };
    let mut found = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
            .and_then(Pid::from_raw)
        else {
            continue;
        };
        if fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd.starts_with(root)) {
            found += 1;
            let _ = kill_process_group(pid, Signal::KILL);
            let _ = kill_process(pid, Signal::KILL);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_work_folder_kills_what_works_in_it_and_goes() {
        let parent = tempfile::tempdir().unwrap();
        let work = WorkDir::new(parent.path()).unwrap();
        let root = work.path().to_owned();
        let mut child = std::process::Command::new("sleep")
            .arg("1000")
            .current_dir(&root)
            .spawn()
            .unwrap();
        drop(work);
        assert!(!root.exists());
        // Killed, not left to sleep: wait returns at once with a signal.
        use std::os::unix::process::ExitStatusExt as _;
        assert_eq!(child.wait().unwrap().signal(), Some(9));
    }

    #[test]
    fn only_the_folders_of_graders_that_ended_are_removed() {
        let parent = tempfile::tempdir().unwrap();
        let me = std::process::id();
        let start = start_time(me).unwrap();
        let live = parent.path().join(format!("{PREFIX}{me}-{start}-abc"));
        // The same process id with another start time: a grader that ended
        // and whose id was used again.
        let reused = parent
            .path()
            .join(format!("{PREFIX}{me}-{}-abc", start + 1));
        // No process has this id (above the kernel's largest pid_max).
        let gone = parent.path().join(format!("{PREFIX}4194305-1-abc"));
        let other = parent.path().join(format!("{PREFIX}abc123"));
        for dir in [&live, &reused, &gone, &other] {
            fs::create_dir_all(dir.join("student/src")).unwrap();
            fs::write(dir.join("student/src/a.hs"), "main = pure ()").unwrap();
        }
        let mut removed = remove_stale(parent.path());
        removed.sort();
        let mut expected = vec![reused.clone(), gone.clone()];
        expected.sort();
        assert_eq!(removed, expected);
        assert!(live.exists() && other.exists());
        assert!(!reused.exists() && !gone.exists());
        // A new work folder is named after its grader, and is live.
        let work = WorkDir::new(parent.path()).unwrap();
        let name = work
            .path()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            name.starts_with(&format!("{PREFIX}{me}-{start}-")),
            "{name}"
        );
        assert!(!owner_ended(&name));
    }
}
