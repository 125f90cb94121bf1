//! Measuring a run while it goes: the CPU time (user + system) of its whole
//! process tree, its wall time and its peak memory.
//!
//! Where the run has a cgroup the kernel counts for it (`cpuacct.usage` in
//! cgroup v1, `cpu.stat`'s `usage_usec` in v2; `memory.max_usage_in_bytes`
//! or `memory.peak` for memory), that count is used. Elsewhere the run's
//! processes are read from `/proc` at every poll ([`POLL`]): their own and
//! their waited-for children's times (`utime`, `stime`, `cutime`,
//! `cstime` of `/proc/PID/stat`) and their resident sets. A process of the
//! run that ends is counted by its parent once waited for; one whose parent
//! is not in the run (an orphan re-parented outside it) is counted with
//! the times last read. The direct child's own `rusage`, read when it ends,
//! is a lower bound of the whole.
//!
//! Which processes are the run's: with a cgroup, its members; with the user
//! backend, every process of the run's leased uid (and the direct child);
//! otherwise the direct child and every descendant ever seen (a process
//! stays counted after its parent ends and it is re-parented).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::os::unix::fs::MetadataExt as _;
use std::time::Duration;

use crate::cgroup;
use crate::procfs::{Stat, parse_stat};

/// How often a run's processes are read from `/proc`.
pub const POLL: Duration = Duration::from_millis(50);

/// Which processes make up a run.
pub(crate) enum Scope<'a> {
    /// The direct child and its descendants.
    Tree,
    /// The direct child and every process of this user.
    Uid(u32),
    /// The members of this cgroup (which counts CPU time).
    Cgroup(&'a cgroup::Child),
}

/// One process as last read.
#[derive(Debug, Clone, Copy)]
struct Seen {
    ppid: i32,
    /// Clock ticks: own and waited-for children's, user and system.
    ticks: u64,
}

fn clock_ticks() -> u64 {
    // SAFETY: sysconf reads a constant.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(t).ok().filter(|t| *t > 0).unwrap_or(100)
}

fn page_size() -> u64 {
    // SAFETY: sysconf reads a constant.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(p).ok().filter(|p| *p > 0).unwrap_or(4096)
}

/// The running measure of one run.
pub(crate) struct Meter<'a> {
    scope: Scope<'a>,
    root: i32,
    tick: u64,
    page: u64,
    /// The run's processes at the last poll, by (pid, start).
    live: HashMap<(i32, u64), Seen>,
    /// Ticks of processes that ended with no parent in the run to count
    /// them (the direct child aside).
    gone: u64,
    /// The direct child's ticks, as last read.
    root_ticks: u64,
    /// The most CPU time seen so far.
    cpu: Duration,
    /// The largest total resident set seen, in bytes.
    peak: u64,
    /// The total resident set at the last poll, in bytes.
    resident: u64,
}

impl<'a> Meter<'a> {
    /// Starts measuring the run whose direct child is `root`.
    pub(crate) fn new(scope: Scope<'a>, root: u32) -> Meter<'a> {
        Meter {
            scope,
            root: i32::try_from(root).unwrap_or(i32::MAX),
            tick: clock_ticks(),
            page: page_size(),
            live: HashMap::new(),
            gone: 0,
            root_ticks: 0,
            cpu: Duration::ZERO,
            peak: 0,
            resident: 0,
        }
    }

    /// Reads the run's processes again; returns its CPU time so far.
    pub(crate) fn sample(&mut self) -> Duration {
        if let Scope::Cgroup(c) = self.scope {
            if let Some(t) = c.cpu_time() {
                self.cpu = self.cpu.max(t);
            }
            return self.cpu;
        }
        let now = self.read();
        let mut rss = 0u64;
        let mut ticks = self.gone;
        for (key, seen) in &self.live {
            if now.contains_key(key) {
                continue;
            }
            // Gone. A parent of the run's counts it once it waited for it
            // (the parent's own end is then counted by its parent, up to
            // the direct child, whose rusage covers them all); one whose
            // parent is not the run's (an orphan re-parented outside) is
            // counted here as last read.
            let is_run = |pid: i32| now.keys().chain(self.live.keys()).any(|(p, _)| *p == pid);
            if key.0 == self.root {
                self.root_ticks = seen.ticks;
            } else if !is_run(seen.ppid) {
                self.gone += seen.ticks;
                ticks += seen.ticks;
            }
        }
        for ((pid, _), (seen, pages)) in &now {
            ticks += seen.ticks;
            rss += pages;
            if *pid == self.root {
                self.root_ticks = seen.ticks;
            }
        }
        if !now.keys().any(|(pid, _)| *pid == self.root) {
            ticks += self.root_ticks;
        }
        self.live = now.into_iter().map(|(k, (s, _))| (k, s)).collect();
        self.resident = rss.saturating_mul(self.page);
        self.peak = self.peak.max(self.resident);
        self.cpu = self.cpu.max(self.duration(ticks));
        self.cpu
    }

    /// The run's processes' resident sets together at the last poll, in
    /// bytes (0 where a cgroup counts instead).
    pub(crate) fn resident(&self) -> u64 {
        self.resident
    }

    fn duration(&self, ticks: u64) -> Duration {
        Duration::from_nanos(ticks.saturating_mul(1_000_000_000 / self.tick))
    }

    /// The run's processes now, with their pages.
    fn read(&self) -> HashMap<(i32, u64), (Seen, u64)> {
        let mut all: Vec<(i32, Stat)> = Vec::new();
        let Ok(entries) = fs::read_dir("/proc") else {
            return HashMap::new();
        };
        for e in entries.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
                continue;
            };
            if let Scope::Uid(uid) = self.scope
                && pid != self.root
                && !e.metadata().is_ok_and(|m| m.uid() == uid)
            {
                continue;
            }
            let Some(stat) = fs::read_to_string(e.path().join("stat"))
                .ok()
                .as_deref()
                .and_then(parse_stat)
            else {
                continue;
            };
            all.push((pid, stat));
        }
        let mut members: HashSet<i32> = HashSet::new();
        match self.scope {
            Scope::Uid(_) => members.extend(all.iter().map(|(pid, _)| *pid)),
            _ => {
                members.insert(self.root);
                members.extend(
                    self.live
                        .keys()
                        .filter(|(pid, start)| {
                            all.iter().any(|(p, s)| p == pid && s.start == *start)
                        })
                        .map(|(pid, _)| *pid),
                );
                // Descendants, whatever order /proc lists them in.
                loop {
                    let before = members.len();
                    for (pid, stat) in &all {
                        if members.contains(&stat.ppid) {
                            members.insert(*pid);
                        }
                    }
                    if members.len() == before {
                        break;
                    }
                }
            }
        }
        all.into_iter()
            .filter(|(pid, _)| members.contains(pid))
            .map(|(pid, s)| {
                (
                    (pid, s.start),
                    (
                        Seen {
                            ppid: s.ppid,
                            ticks: s.ticks,
                        },
                        s.rss,
                    ),
                )
            })
            .collect()
    }

    /// The run's totals once it ended: the most of what was sampled, the
    /// cgroup's count and the direct child's `rusage`.
    pub(crate) fn finish(&mut self, child: Option<ChildUsage>) -> (Duration, u64) {
        let mut cpu = self.sample();
        let mut peak = self.peak;
        if let Scope::Cgroup(c) = self.scope
            && let Some(p) = c.peak_memory()
        {
            peak = peak.max(p);
        }
        if let Some(child) = child {
            if !matches!(self.scope, Scope::Cgroup(_)) {
                // The direct child's rusage covers it and every descendant
                // it waited for, which the polls may have counted already
                // while they ran (a descendant reaped by the child after
                // the last poll would be counted twice by a sum). So the
                // larger of the two, never their sum: at most one poll's
                // worth of the other processes' last CPU time is missed,
                // in the program's favour.
                cpu = cpu.max(child.cpu);
            }
            // Pages shared with other processes (the program's own file)
            // are a process's resident set but may be charged to another
            // cgroup: the largest process's peak is a lower bound too.
            peak = peak.max(child.max_rss);
        }
        (cpu, peak)
    }
}

/// What the kernel says of the direct child once it ended (its own and
/// its waited-for descendants').
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ChildUsage {
    pub(crate) cpu: Duration,
    /// The largest resident set of one of those processes, in bytes.
    pub(crate) max_rss: u64,
}

/// Whether child `pid` has ended, and its usage, without reaping it (so
/// `std::process::Child` still reaps it): `waitid(P_PID, pid, WEXITED |
/// WNOWAIT)`, whose fifth argument (Linux) is the `rusage`. `Ok(None)`: it
/// has not ended (with `block`, never).
pub(crate) fn peek_exit(pid: u32, block: bool) -> std::io::Result<Option<ChildUsage>> {
    let mut info: libc::siginfo_t = unsafe_zeroed_siginfo();
    // SAFETY: rusage is plain data; zeroes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut flags = libc::WEXITED | libc::WNOWAIT;
    if !block {
        flags |= libc::WNOHANG;
    }
    loop {
        // SAFETY: both pointers are to live, writable values of the right type.
        let r = unsafe {
            libc::syscall(
                libc::SYS_waitid,
                libc::P_PID,
                pid as libc::id_t,
                &mut info as *mut libc::siginfo_t,
                flags,
                &mut usage as *mut libc::rusage,
            )
        };
        if r == 0 {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    // SAFETY: si_pid is set by the kernel (0 when nothing has ended).
    if unsafe { info.si_pid() } == 0 {
        return Ok(None);
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    Ok(Some(ChildUsage {
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
        max_rss: (usage.ru_maxrss.max(0) as u64).saturating_mul(1024),
    }))
}

fn unsafe_zeroed_siginfo() -> libc::siginfo_t {
    // SAFETY: siginfo_t is plain data; zeroes are a valid value.
    unsafe { std::mem::zeroed() }
}
