//! The temporary folder of a grading run and the cleanup of what works in it.
//!
//! Everything a run builds lives in one [`WorkDir`] (or in the cache): it
//! is removed when the run ends, and on Ctrl-C, SIGTERM or SIGHUP the
//! binary's handler (crate `ctrlc`) kills the unsandboxed processes
//! working in it and removes it; sandboxed ones die with the grader.

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

impl WorkDir {
    /// Makes a new work folder inside `parent`.
    pub fn new(parent: &Path) -> io::Result<WorkDir> {
        let dir = tempfile::Builder::new()
            .prefix("cnf-grader-")
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
}
