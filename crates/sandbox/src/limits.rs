//! What a run may use: the resource limits, their one list of rlimits, and
//! the time limits.

use std::time::Duration;

/// Resource limits of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// CPU seconds per process (`RLIMIT_CPU`); `None`: twice the run's
    /// CPU limit ([`TimeLimits::cpu`]) plus one second.
    ///
    /// It is only a backstop: the run's CPU limit is enforced on CPU time
    /// measured exactly (a cgroup's count, or `/proc`'s times), while the
    /// kernel checks `RLIMIT_CPU` against CPU time sampled at each clock
    /// tick, which on a busy machine charges a program that computes
    /// without pause for the ticks of processes that run between them
    /// (measured here: a 1 s rlimit ended a program after 0.68 s of CPU,
    /// two copies of the sandbox's tests running beside it). Twice the
    /// limit plus a second stays above the run's limit even at that
    /// overcharge, so the exact count decides.
    pub cpu: Option<Duration>,
    /// Address space per process, and the whole run's memory where a
    /// cgroup can be made, in bytes.
    pub memory: u64,
    /// Processes (and threads) at once.
    pub processes: u32,
    /// Open files per process.
    pub open_files: u32,
    /// Largest file a process may write, in bytes.
    pub file_size: u64,
    /// Total size of the writable scratch folder, in bytes.
    pub scratch: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            cpu: None,
            memory: 2 << 30,
            processes: 64,
            open_files: 256,
            file_size: 64 << 20,
            scratch: 256 << 20,
        }
    }
}

impl Limits {
    /// The per-process CPU rlimit of a run whose CPU limit is `run_cpu`,
    /// in whole seconds.
    pub fn cpu_secs(&self, run_cpu: Duration) -> u64 {
        self.cpu
            .unwrap_or(run_cpu * 2 + Duration::from_secs(1))
            .as_secs()
            .max(1)
    }

    /// Every resource limit set on each process of a run whose CPU limit
    /// is `run_cpu`: the one list both backends apply (bubblewrap's through
    /// `prlimit` flags, the user backend's through `setrlimit`), so a new
    /// limit is a field above and a line here.
    pub fn rlimits(&self, run_cpu: Duration) -> [Rlimit; 6] {
        use rustix::process::Resource;
        let cpu = self.cpu_secs(run_cpu);
        let both = |resource, prlimit, n: u64| Rlimit {
            resource,
            prlimit,
            soft: n,
            hard: n,
        };
        [
            // The soft limit sends SIGXCPU, the hard one a second later SIGKILL.
            Rlimit {
                resource: Resource::Cpu,
                prlimit: "--cpu",
                soft: cpu,
                hard: cpu + 1,
            },
            both(Resource::As, "--as", self.memory),
            both(Resource::Nproc, "--nproc", u64::from(self.processes)),
            both(Resource::Nofile, "--nofile", u64::from(self.open_files)),
            both(Resource::Fsize, "--fsize", self.file_size),
            both(Resource::Core, "--core", 0),
        ]
    }
}

/// One resource limit of a run: which, its `prlimit` flag, and its soft
/// and hard values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rlimit {
    /// The resource (`setrlimit`'s).
    pub resource: rustix::process::Resource,
    /// util-linux `prlimit`'s flag for it (`--as`).
    pub prlimit: &'static str,
    /// The soft limit.
    pub soft: u64,
    /// The hard limit.
    pub hard: u64,
}

/// The time limits of one run.
///
/// A grade should not change with the machine's load, so a case's limit is
/// its CPU time; the wall clock is only a backstop for a program that
/// sleeps or waits, by default [`TimeLimits::WALL_FACTOR`] times the CPU
/// limit and never less than [`TimeLimits::WALL_FLOOR`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeLimits {
    /// The most CPU time (user + system) the run's processes may use
    /// together.
    pub cpu: Duration,
    /// The most wall-clock time the run may take.
    pub wall: Duration,
}

impl TimeLimits {
    /// The wall backstop is this many times the CPU limit …
    pub const WALL_FACTOR: u32 = 3;
    /// … and never less than this.
    pub const WALL_FLOOR: Duration = Duration::from_secs(5);

    /// A CPU limit of `cpu`, with the default wall backstop
    /// (`max(WALL_FACTOR × cpu, WALL_FLOOR)`).
    pub fn cpu(cpu: Duration) -> TimeLimits {
        TimeLimits {
            cpu,
            wall: (cpu * Self::WALL_FACTOR).max(Self::WALL_FLOOR),
        }
    }

    /// `limit` on both clocks: the wall clock ends a run that sleeps at
    /// `limit`, as [`crate::Run::execute`] always did.
    pub fn same(limit: Duration) -> TimeLimits {
        TimeLimits {
            cpu: limit,
            wall: limit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wall_backstop_is_three_cpu_limits_and_at_least_five_seconds() {
        let s = Duration::from_secs;
        assert_eq!(TimeLimits::cpu(s(4)).wall, s(12));
        assert_eq!(TimeLimits::cpu(s(1)).wall, s(5));
        assert_eq!(TimeLimits::cpu(Duration::from_millis(200)).wall, s(5));
        assert_eq!(TimeLimits::cpu(s(4)).cpu, s(4));
        assert_eq!(
            TimeLimits::same(s(2)),
            TimeLimits {
                cpu: s(2),
                wall: s(2)
            }
        );
    }

    #[test]
    fn both_backends_get_the_same_rlimits_from_one_list() {
        let limits = Limits {
            cpu: None,
            memory: 1 << 30,
            processes: 7,
            open_files: 9,
            file_size: 1000,
            scratch: 1,
        };
        let shown: Vec<String> = limits
            .rlimits(Duration::from_secs(5))
            .iter()
            .map(|l| format!("{}={}:{}", l.prlimit, l.soft, l.hard))
            .collect();
        // CPU: twice the run's limit plus one second, the hard limit one
        // more.
        assert_eq!(
            shown,
            [
                "--cpu=11:12",
                "--as=1073741824:1073741824",
                "--nproc=7:7",
                "--nofile=9:9",
                "--fsize=1000:1000",
                "--core=0:0"
            ]
        );
        let given = Limits {
            cpu: Some(Duration::from_millis(2500)),
            ..limits
        };
        let cpu = given.rlimits(Duration::from_secs(60))[0];
        assert_eq!((cpu.soft, cpu.hard), (2, 3));
    }
}
