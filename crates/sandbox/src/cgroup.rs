//! A memory cgroup per run, where the grader may make one: under the
//! grader's own cgroup, in cgroup v2 (`memory.max`) or in v1's memory
//! controller (`memory.limit_in_bytes`, and `memory.memsw.limit_in_bytes`
//! where swap is accounted). The child joins it between `fork` and `exec`
//! by writing `0` to its `cgroup.procs`, opened beforehand.
//!
//! The same cgroup counts the run's CPU time (v2's `cpu.stat`, there
//! whether or not the cpu controller is on) and its peak memory
//! (`memory.peak`, v1's `memory.max_usage_in_bytes`). In v1, where CPU
//! time is counted by the separate `cpuacct` controller, the run also gets
//! a cgroup of its own there when the grader may make one.
//!
//! A run's cgroup is named by the grader's process id and start time; a
//! grader killed mid-run leaves its cgroups, and the next one to start
//! removes those that are empty and whose grader has ended.

use std::fs;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The folder new run cgroups go in.
#[derive(Debug)]
pub(crate) struct Parent {
    dir: PathBuf,
    v2: bool,
    /// v1: the grader's own `cpuacct` cgroup, where a child can be made.
    cpuacct: Option<PathBuf>,
    /// The start of each run cgroup's name: [`PREFIX`], this grader's
    /// process id and start time.
    name: String,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// The prefix of every run cgroup's name: `cnf-sandbox-PID-START-N`, the
/// grader's process id, its start time (clock ticks after boot: a process
/// id is used again, the pair is not) and a count.
const PREFIX: &str = "cnf-sandbox-";

/// When process `pid` started, if it runs.
fn start_time(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    crate::procfs::parse_stat(&stat).map(|s| s.start)
}

/// Whether the grader that made the run cgroup `name` has ended: its
/// process is gone or its id now names another process. Names of the
/// form `cnf-sandbox-PID-N` (no start time) count as ended when no
/// process has that id.
fn owner_ended(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(PREFIX) else {
        return false;
    };
    let parts: Vec<u64> = rest.split('-').filter_map(|p| p.parse().ok()).collect();
    match parts[..] {
        [pid, start, _] => u32::try_from(pid).map_or(true, |pid| start_time(pid) != Some(start)),
        [pid, _] => u32::try_from(pid).map_or(true, |pid| start_time(pid).is_none()),
        _ => false,
    }
}

/// Removes the run cgroups in `dir` whose grader has ended without
/// removing them (killed mid-run): only empty ones go (a cgroup with a
/// process in it cannot be removed), and none of a grader still running.
fn remove_stale(dir: &Path) {
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_name().to_str().is_some_and(owner_ended) {
            let _ = fs::remove_dir(e.path());
        }
    }
}

/// One run's cgroup, removed (its processes killed) when dropped.
#[derive(Debug)]
pub(crate) struct Child {
    dir: PathBuf,
    v2: bool,
    /// `cgroup.procs`, open for writing.
    pub(crate) procs: OwnedFd,
    /// v1: the run's `cpuacct` cgroup and its `cgroup.procs`, open for
    /// writing.
    pub(crate) cpuacct: Option<(PathBuf, OwnedFd)>,
}

/// Where the v1 hierarchy holding `controller` (`None`: the v2 one) is
/// mounted, with its root.
fn mount_of_controller(controller: Option<&str>) -> Option<(PathBuf, String)> {
    let info = fs::read_to_string("/proc/self/mountinfo").ok()?;
    info.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let mut l = left.split(' ');
        let root = l.nth(3)?.to_owned();
        let point = l.next()?;
        let mut r = right.split(' ');
        let fstype = r.next()?;
        let options = r.nth(1).unwrap_or("");
        let wanted = match controller {
            None => fstype == "cgroup2",
            Some(c) => fstype == "cgroup" && options.split(',').any(|o| o == c),
        };
        wanted.then(|| (PathBuf::from(point), root))
    })
}

impl Parent {
    /// The grader's own memory cgroup, if a child can be made and joined
    /// there.
    pub(crate) fn find() -> Option<Parent> {
        let own = fs::read_to_string("/proc/self/cgroup").ok()?;
        let pid = std::process::id();
        let name = format!("{PREFIX}{pid}-{}-", start_time(pid).unwrap_or(0));
        for v2 in [false, true] {
            let Some(dir) = own_cgroup((!v2).then_some("memory"), &own) else {
                continue;
            };
            remove_stale(&dir);
            let parent = Parent {
                dir,
                v2,
                cpuacct: if v2 {
                    None
                } else {
                    own_cgroup(Some("cpuacct"), &own)
                },
                name: name.clone(),
            };
            if let Some(cpuacct) = &parent.cpuacct {
                remove_stale(cpuacct);
            }
            if parent.child(64 << 20).is_ok() {
                return Some(parent);
            }
        }
        None
    }

    /// `v1` or `v2`.
    pub(crate) fn version(&self) -> &'static str {
        if self.v2 { "v2" } else { "v1" }
    }

    /// A new cgroup capped at `memory` bytes.
    pub(crate) fn child(&self, memory: u64) -> std::io::Result<Child> {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = self.dir.join(format!("{}{n}", self.name));
        fs::create_dir(&dir)?;
        let procs = |dir: &Path| -> std::io::Result<OwnedFd> {
            Ok(OwnedFd::from(
                fs::OpenOptions::new()
                    .write(true)
                    .open(dir.join("cgroup.procs"))?,
            ))
        };
        let cpuacct = self.cpuacct.as_ref().and_then(|parent| {
            let dir = parent.join(dir.file_name()?);
            fs::create_dir(&dir).ok()?;
            match procs(&dir) {
                Ok(fd) => Some((dir, fd)),
                Err(_) => {
                    let _ = fs::remove_dir(&dir);
                    None
                }
            }
        });
        let child = Child {
            procs: procs(&dir)?,
            dir,
            v2: self.v2,
            cpuacct,
        };
        if self.v2 {
            fs::write(child.dir.join("memory.max"), memory.to_string())?;
            let _ = fs::write(child.dir.join("memory.swap.max"), "0");
        } else {
            fs::write(child.dir.join("memory.limit_in_bytes"), memory.to_string())?;
            let _ = fs::write(
                child.dir.join("memory.memsw.limit_in_bytes"),
                memory.to_string(),
            );
        }
        Ok(child)
    }
}

/// The grader's own cgroup (`own`: `/proc/self/cgroup`) in the v1
/// hierarchy of `controller` (`None`: the v2 one), as a folder.
fn own_cgroup(controller: Option<&str>, own: &str) -> Option<PathBuf> {
    let path = own.lines().find_map(|line| {
        let mut f = line.splitn(3, ':');
        let (_, controllers, path) = (f.next()?, f.next()?, f.next()?);
        let hit = match controller {
            None => controllers.is_empty(),
            Some(wanted) => controllers.split(',').any(|c| c == wanted),
        };
        hit.then(|| path.to_owned())
    })?;
    let (point, root) = mount_of_controller(controller)?;
    let rel = Path::new(&path)
        .strip_prefix(&root)
        .unwrap_or(Path::new(&path))
        .strip_prefix("/")
        .unwrap_or(Path::new(""))
        .to_owned();
    Some(point.join(rel))
}

impl Child {
    /// The CPU time (user + system) of every process that was in it, where
    /// it is counted.
    pub(crate) fn cpu_time(&self) -> Option<Duration> {
        if self.v2 {
            let text = fs::read_to_string(self.dir.join("cpu.stat")).ok()?;
            let usec = text
                .lines()
                .find_map(|l| l.strip_prefix("usage_usec "))?
                .trim()
                .parse()
                .ok()?;
            Some(Duration::from_micros(usec))
        } else {
            let (dir, _) = self.cpuacct.as_ref()?;
            let ns = fs::read_to_string(dir.join("cpuacct.usage"))
                .ok()?
                .trim()
                .parse()
                .ok()?;
            Some(Duration::from_nanos(ns))
        }
    }

    /// Whether its CPU time is counted ([`Child::cpu_time`]).
    pub(crate) fn counts_cpu(&self) -> bool {
        self.cpu_time().is_some()
    }

    /// The most memory its processes used together, in bytes.
    pub(crate) fn peak_memory(&self) -> Option<u64> {
        let file = if self.v2 {
            "memory.peak"
        } else {
            "memory.max_usage_in_bytes"
        };
        fs::read_to_string(self.dir.join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// Whether the kernel killed or refused for lack of memory in it.
    pub(crate) fn out_of_memory(&self) -> bool {
        if self.v2 {
            fs::read_to_string(self.dir.join("memory.events")).is_ok_and(|t| {
                t.lines()
                    .any(|l| l.strip_prefix("oom_kill ").is_some_and(|n| n.trim() != "0"))
            })
        } else {
            fs::read_to_string(self.dir.join("memory.oom_control")).is_ok_and(|t| {
                t.lines()
                    .any(|l| l.strip_prefix("oom_kill ").is_some_and(|n| n.trim() != "0"))
            })
        }
    }

    /// Kills every process in it, until none is left.
    pub(crate) fn kill_all(&self) {
        for _ in 0..100 {
            let Ok(text) = fs::read_to_string(self.dir.join("cgroup.procs")) else {
                return;
            };
            let pids: Vec<i32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill_all();
        let dirs =
            std::iter::once(self.dir.clone()).chain(self.cpuacct.iter().map(|(d, _)| d.clone()));
        for dir in dirs {
            for _ in 0..50 {
                if fs::remove_dir(&dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

/// Joins the run's cgroups (writes `0` to each `cgroup.procs`), between
/// fork and exec.
pub(crate) fn join(fds: (i32, Option<i32>)) -> std::io::Result<()> {
    write_zero(fds.0)?;
    if let Some(fd) = fds.1 {
        write_zero(fd)?;
    }
    Ok(())
}

impl Child {
    /// The file descriptors [`join`] writes to.
    pub(crate) fn procs_fds(&self) -> (i32, Option<i32>) {
        use std::os::fd::AsRawFd as _;
        (
            self.procs.as_raw_fd(),
            self.cpuacct.as_ref().map(|(_, fd)| fd.as_raw_fd()),
        )
    }
}

/// Writes `0` to a cgroup's `cgroup.procs` (joins it), between fork and exec.
pub(crate) fn write_zero(fd: i32) -> std::io::Result<()> {
    // SAFETY: writes one byte from a static buffer.
    let n = unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) };
    if n == 1 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cgroup_is_stale_only_when_its_grader_has_ended() {
        let me = std::process::id();
        let start = start_time(me).unwrap();
        assert!(!owner_ended(&format!("{PREFIX}{me}-{start}-0")));
        // The same id, another start: a process that had this id once.
        assert!(owner_ended(&format!("{PREFIX}{me}-{}-0", start + 1)));
        assert!(!owner_ended(&format!("{PREFIX}{me}-3")));
        // Above the largest process id Linux gives (2^22).
        assert!(owner_ended(&format!("{PREFIX}4194305-{start}-0")));
        assert!(owner_ended(&format!("{PREFIX}4194305-3")));
        assert!(!owner_ended("user.slice"));
        assert!(!owner_ended(&format!("{PREFIX}x-1")));
    }

    /// A grader killed mid-run leaves its run's cgroup; the next one to
    /// start removes it, and keeps every other.
    #[test]
    fn a_killed_graders_cgroups_are_removed_by_the_next() {
        let Some(parent) = Parent::find() else {
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "skipped: no memory cgroup can be made here"
            );
            return;
        };
        let stale = parent.dir.join(format!("{PREFIX}4194305-1-0"));
        let ours = parent.child(64 << 20).unwrap();
        fs::create_dir(&stale).unwrap();
        assert!(Parent::find().is_some());
        assert!(!stale.exists(), "{} was left", stale.display());
        assert!(ours.dir.exists());
    }
}
