//! A memory cgroup per run, where the grader may make one: under the
//! grader's own cgroup, in cgroup v2 (`memory.max`) or in v1's memory
//! controller (`memory.limit_in_bytes`, and `memory.memsw.limit_in_bytes`
//! where swap is accounted). The child joins it between `fork` and `exec`
//! by writing `0` to its `cgroup.procs`, opened beforehand.

use std::fs;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The folder new run cgroups go in.
#[derive(Debug)]
pub(crate) struct Parent {
    dir: PathBuf,
    v2: bool,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// One run's cgroup, removed (its processes killed) when dropped.
#[derive(Debug)]
pub(crate) struct Child {
    dir: PathBuf,
    v2: bool,
    /// `cgroup.procs`, open for writing.
    pub(crate) procs: OwnedFd,
}

/// Where the hierarchy holding `controller` is mounted, with its root.
fn mount_of(v2: bool) -> Option<(PathBuf, String)> {
    let info = fs::read_to_string("/proc/self/mountinfo").ok()?;
    info.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let mut l = left.split(' ');
        let root = l.nth(3)?.to_owned();
        let point = l.next()?;
        let mut r = right.split(' ');
        let fstype = r.next()?;
        let options = r.nth(1).unwrap_or("");
        let wanted = if v2 {
            fstype == "cgroup2"
        } else {
            fstype == "cgroup" && options.split(',').any(|o| o == "memory")
        };
        wanted.then(|| (PathBuf::from(point), root))
    })
}

impl Parent {
    /// The grader's own memory cgroup, if a child can be made and joined
    /// there.
    pub(crate) fn find() -> Option<Parent> {
        let own = fs::read_to_string("/proc/self/cgroup").ok()?;
        for v2 in [false, true] {
            let path = own.lines().find_map(|line| {
                let mut f = line.splitn(3, ':');
                let (_, controllers, path) = (f.next()?, f.next()?, f.next()?);
                let hit = if v2 {
                    controllers.is_empty()
                } else {
                    controllers.split(',').any(|c| c == "memory")
                };
                hit.then(|| path.to_owned())
            });
            let (Some(path), Some((point, root))) = (path, mount_of(v2)) else {
                continue;
            };
            let rel = Path::new(&path)
                .strip_prefix(&root)
                .unwrap_or(Path::new(&path))
                .strip_prefix("/")
                .unwrap_or(Path::new(""))
                .to_owned();
            let parent = Parent {
                dir: point.join(rel),
                v2,
            };
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
        let dir = self
            .dir
            .join(format!("cnf-sandbox-{}-{n}", std::process::id()));
        fs::create_dir(&dir)?;
        let child = Child {
            procs: OwnedFd::from(
                fs::OpenOptions::new()
                    .write(true)
                    .open(dir.join("cgroup.procs"))?,
            ),
            dir,
            v2: self.v2,
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

impl Child {
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
        for _ in 0..50 {
            if fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
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
