//! How a run ended and what it used.

use std::time::Duration;

#[cfg(doc)]
use crate::TimeLimits;

/// How one run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The program exited by itself (any exit code) within the limits.
    Exited {
        /// The exit code.
        code: i32,
        /// Everything it wrote on standard output.
        stdout: Vec<u8>,
    },
    /// The program was ended by a signal it did not get from the sandbox.
    Signalled(i32),
    /// A time limit passed (which one: [`Clock`]); the run was killed.
    TimeLimit(Clock),
    /// The run's memory (cgroup) or its scratch folder passed its limit.
    MemoryLimit,
    /// Standard output passed the cap; the run was killed.
    OutputCap,
    /// The sandbox's failure, never the program's: the run could not be
    /// prepared or started, or the sandbox itself failed while it ran
    /// (bubblewrap's set-up refused, bubblewrap killed, no cgroup or user
    /// id to be had, no space for the run's own folders), and why. A
    /// program cannot produce it: under bubblewrap it is decided by what
    /// bwrap reports on its `--json-status-fd` (an exit only once the
    /// program was executed), not by what the program prints. A caller
    /// must not count it against the program (a grader: "not graded").
    CouldNotStart(String),
}

/// Which time limit ended a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Clock {
    /// The CPU time (user + system) of the run's processes together
    /// passed [`TimeLimits::cpu`].
    Cpu,
    /// The wall-clock time passed [`TimeLimits::wall`] (a program that
    /// sleeps or blocks).
    Wall,
}

impl Clock {
    /// `CPU` or `wall`, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Clock::Cpu => "CPU",
            Clock::Wall => "wall",
        }
    }
}

/// What a run used, as isolate's meta file gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// CPU time (user + system) of the run's processes together (how each
    /// backend measures it: the crate docs, *Time and memory*).
    pub cpu: Duration,
    /// Wall-clock time from start to end (or kill).
    pub wall: Duration,
    /// Peak memory in bytes: of the run's processes together where a
    /// memory cgroup counts it, else the largest of the largest single
    /// process's peak resident set and the sum of resident sets sampled.
    pub peak_memory: u64,
}
