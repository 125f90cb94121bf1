//! Runs one untrusted command with limits, in the best sandbox this machine
//! allows, and says how it ended.
//!
//! The crate knows nothing about what it runs: a caller gives a shell
//! command, the files it may read, a private input file, a time limit and
//! an output cap, and gets back a typed [`Outcome`]: the exit code, a
//! signal, the time limit, the memory limit, the output cap, or "could not
//! start". Libraries only: nothing is printed and the process is never
//! ended here.
//!
//! # Threat model
//!
//! The command is hostile: it wants to read what it must not (the answers
//! a grader compares against, other users' files, the grader's
//! environment), to write where it must not, to outlive its run, to reach
//! the network, to talk to another student's run (collusion), or to exhaust
//! the machine. The kernel is trusted: a kernel exploit escapes every
//! backend. CPU time, memory bandwidth and caches are shared with other
//! runs.
//!
//! No descriptor inherited: whatever the grader was started holding (a CI
//! runner's pipe, `7<FIXTURES 8>>LOG`), every backend marks each
//! descriptor above 2 close-on-exec in the child before `exec` and hands
//! over only its own (bwrap's `--args`, `--seccomp`, `--json-status-fd`),
//! so a program starts with 0, 1 and 2 alone ([`close_inherited_on_exec`]
//! does the same for a whole grader, at its start).
//!
//! No channel between runs: every backend refuses `socket` (so no named or
//! abstract Unix socket) and making System V IPC objects or POSIX message
//! queues through `mq_open` ([`filter`]); bubblewrap adds IPC, network and
//! mount namespaces. Nothing outlives a run: bubblewrap's PID namespace and
//! tmpfs end with it; the user backend kills every process of the run's
//! uid, removes what that uid left in every world-writable folder
//! ([`user::world_writable`]) and its System V objects ([`user::clean_up`]),
//! and keeps a uid it could not clean. A run's host folder is root's with
//! the run's group, mode 0710: only that run's user (and the grader) may
//! enter it, whatever the modes of what is placed in it. What a grader
//! killed mid-run left (run folders, its sandbox folder, processes of the
//! ids it leased, cgroups) is removed by the next grader before its first
//! run, through lock files (`flock`, given back by the kernel when their
//! holder dies), never what a live grader holds (`docs/sandbox.md`). A
//! uid is leased only clean
//! ([`user::left_by`]: no process, no System V object, no entry in a
//! world-writable folder, POSIX queues included where `/dev/mqueue` is
//! mounted), what a past run left (another grader's, killed before its
//! cleanup) being removed first; a uid still unclean is skipped. For the
//! user backend the folders are all the world-writable ones; for a party's
//! uid under bubblewrap, which can write in none of them, those of
//! [`user::SHARED_TMP`].
//!
//! ## What a program sees without Landlock (user backend, Gradescope)
//!
//! With neither namespaces nor Landlock, a program runs as a uid of its own
//! with no groups, so it sees what the kernel shows "other" users:
//! - files: every file any user may read, and the names in every folder
//!   any user may list (`/`, `/tmp`, …); a folder others may neither list
//!   nor enter hides everything below it. The class, the fixtures, the
//!   reports, the cache and the grader's working folder are refused up
//!   front if it could read them ([`Sandbox::check_protected`], naming the
//!   `chmod`);
//! - processes: every pid in `/proc`, and of every process the files the
//!   kernel shows every user: `stat`, `status`, `cmdline`, `mountinfo`,
//!   `mounts`, `limits` and `cgroup` (its name, state, owner, sizes,
//!   command line, mounts); not `environ`, `maps`, `io`, nor the links
//!   `cwd`, `fd`, `root` and `exe`, which the kernel refuses for another
//!   uid's process, and no signal reaches one. The grader blanks its own
//!   arguments once parsed ([`Sandbox::hide_command_line`]), so its line
//!   shows no path; the other runs' command lines show only
//!   `/run/sandbox/N/…` and `sh -c COMMAND`. The machine-wide files of
//!   `/proc` (`loadavg`, `meminfo`, …) are readable too;
//! - System V IPC: the list of every object on the machine in
//!   `/proc/sysvipc` (key, id, mode, owner, size). It can make none, so no
//!   run's object exists to be opened; one that another program on the
//!   machine made open to every user it could use by the id listed;
//! - POSIX message queues: `mq_open` is refused; where `/dev/mqueue` is
//!   mounted open to all (Docker mounts it), a queue is a file there, made
//!   and removed like a file in any world-writable folder;
//! - files other runs write in world-writable folders (`/tmp`) while both
//!   run would be a channel between two runs at once. It cannot outlive
//!   either run (cleanup), and [`Sandbox::separates_concurrent_runs`] is
//!   false here, so the grader runs one student's programs at a time (its
//!   cases and compilations may still run side by side: they are the same
//!   student's). On Gradescope each submission is graded alone in its own
//!   container anyway.
//!
//! With Landlock the same user backend reads only the system folders and
//! its own: not `/proc` (its own entries included), `/tmp` or `/`.
//! Bubblewrap shows no other process, only its own IPC namespace's (empty)
//! `/proc/sysvipc`, and its own `/tmp`.
//!
//! None of this carries an answer: solutions are never readable, and the
//! command lines and names that are visible hold no path of the class or
//! fixtures.
//!
//! # Backends
//!
//! [`Sandbox::new`] probes the machine once and takes the best backend that
//! works here ([`BackendKind`]); [`Sandbox::description`] names it and what
//! it lacks, for the provenance of every report.
//!
//! - **bubblewrap** ([`bwrap`]), any version from 0.4 on: new user, mount,
//!   PID, network, IPC, UTS and cgroup namespaces, so the program sees only
//!   the system folders read-only, its own files and its scratch, no other
//!   process and no network. The root of the sandbox (with only `/dev/null`,
//!   `zero`, `full`, `random` and `urandom` bound on it), the working folder
//!   and every bind are read-only; the scratch is a tmpfs capped by
//!   [`Limits::scratch`] where bwrap has `--size` (0.7), and otherwise a
//!   host folder whose size the grader watches. The bwrap command line is
//!   passed through a file descriptor (`--args`), so `/proc/1/cmdline`
//!   inside shows `bwrap --args N --` and the run's own command (with the
//!   system's `prlimit` and `timeout`), no host path. Options a bwrap lacks are replaced where
//!   possible (`--clearenv` by a clean environment, `--disable-userns` by
//!   the seccomp filter refusing new user namespaces); where `--proc` is
//!   refused (inside some containers) the sandbox has no `/proc`, and says
//!   so. The seccomp filter ([`filter`], one program, so bwrap 0.6.1's
//!   single `--seccomp` takes all of it, `clone3` included) refuses
//!   sockets, IPC, `ptrace` and namespace calls inside too.
//! - **unprivileged user** ([`user`]), for a root grader that cannot make
//!   namespaces (Gradescope's Docker): each run has a user and group id no
//!   account uses, no supplementary groups, `no_new_privs`, rlimits on CPU,
//!   address space, processes, open files and file size (core dumps off),
//!   its own session, a clean environment, a folder of its own under
//!   [`USER_ROOT`] (`/run/sandbox/N`: its files at `build`, its private
//!   input at `input/NAME`, its scratch, `HOME` and `TMPDIR` at `tmp`, the
//!   words bubblewrap shows at `/`), the seccomp filter, and Landlock where
//!   the kernel has it (the system and its own files read-only, writes
//!   only in its scratch). It cannot show bubblewrap's `/build` and
//!   `/input/NAME` themselves: without a mount namespace a path names the
//!   same file for every process on the machine, and runs at once (a
//!   student's cases, or with Landlock several students) each need files
//!   of their own, so each needs absolute paths of its own; the program's
//!   working folder, `argv`, input, `HOME` and `TMPDIR` are
//!   `/run/sandbox/N/build`, `/run/sandbox/N/input/NAME` and
//!   `/run/sandbox/N/tmp`, N the smallest number free, naming nothing of
//!   the host. After the run every process of that uid is
//!   killed (until none is left), what it left in any world-writable folder
//!   and its System V objects are removed, and a uid found unclean is not
//!   leased again (nor one found unclean when leasing: see the threat
//!   model). Without Landlock it sees every file the Unix
//!   permissions let any user read, so [`Sandbox::check_protected`] refuses
//!   protected paths and the grader's working folder when that uid could
//!   read them, naming the `chmod` that fixes it (see the threat model for
//!   what it still sees).
//! - **Landlock** (not root, no namespaces): the grader's own user, with
//!   Landlock, the seccomp filter and the rlimits; its files are in a
//!   temporary folder of the grader's, a host path (only root can make
//!   `/run/sandbox`). Without Landlock this
//!   backend is refused: nothing would keep the program from the grader's
//!   files.
//!
//! A root grader's bubblewrap runs use the configured uid, or for one
//! party's runs ([`Sandbox::for_one_party`]: a student's) a uid leased for
//! that party from the ids after the configured one, below the configured
//! one + [`user::LEASE_OFFSET`]; the user backend leases one uid per run from the configured one +
//! [`user::LEASE_OFFSET`] on ([`user::POOL`] ids, above any bubblewrap
//! run's). Every lease is guarded by a lock file per id in
//! `/run/cnf-sandbox`, so two graders on one machine never share one.
//!
//! Memory: every backend sets the address-space rlimit per process; where
//! the grader may make a memory cgroup (v2, or v1's memory controller) a
//! run's processes together are capped by [`Limits::memory`] too, and an
//! out-of-memory kill is reported as [`Outcome::MemoryLimit`]. Where no
//! cgroup can be made (Gradescope's Docker) the resident sets of the run's
//! processes (see *Time and memory*) are summed at every poll and the run
//! is ended as [`Outcome::MemoryLimit`] past [`Limits::memory`]: between
//! two polls (50 ms) it can grow only by what its processes touch in that
//! time, each under its address-space limit; so a case holds at most about
//! [`Limits::memory`], not [`Limits::processes`] times it. CPU time is
//! bounded the same way across processes (the CPU limit of the run, read
//! at each poll), with `RLIMIT_CPU` per process below it.
//!
//! # Time and memory
//!
//! A run has two time limits ([`TimeLimits`]): the CPU time (user +
//! system) of all its processes together, which does not change with the
//! machine's load, and a wall-clock backstop for a program that sleeps or
//! blocks ([`TimeLimits::cpu`]: three times the CPU limit, at least five
//! seconds). [`Outcome::TimeLimit`] says which [`Clock`] stopped it, and
//! every [`RunResult`] has its [`Usage`]: CPU time, wall time, peak
//! memory, as isolate's meta file gives them. [`Run::execute`] keeps the
//! older meaning, one limit on both clocks ([`TimeLimits::same`]).
//!
//! How each backend measures:
//!
//! | | CPU time | peak memory |
//! |---|---|---|
//! | any, with a cgroup | the cgroup's count (v1 `cpuacct.usage`, v2 `cpu.stat`) | the cgroup's peak, or the largest process's `ru_maxrss` if more |
//! | user, no cgroup | every process of the run's uid, from `/proc` every 50 ms ([`POLL`]); at the end the direct child's `rusage` (its waited-for descendants included) | the sampled sum of resident sets, or the largest process's `ru_maxrss` if more |
//! | landlock, no cgroup | the direct child and its descendants, from `/proc` every 50 ms, then the child's `rusage` | as above |
//! | bubblewrap, no cgroup | the same tree, sampled to the end (bwrap's outer process does not wait for the sandbox's, so no `rusage` sums them: the last 50 ms may be missed) | the sampled sum of resident sets |
//!
//! The CPU limit is checked at every poll, so a run may pass it by one
//! interval; a process that ends between two polls with no parent in the
//! run to wait for it is not counted. Below these, every process also has
//! `RLIMIT_CPU` (twice the run's CPU limit plus one second, or
//! [`Limits::cpu`]): the kernel ends a process that passes it by itself,
//! and that too is reported as the CPU limit. It is that high because the
//! kernel checks it against tick-sampled CPU time, which on a busy machine
//! overcharges a program that computes without pause. The wall backstop ends
//! whatever the sampling missed.
//!
//! # Launching
//!
//! Everything a child needs (the seccomp program, the Landlock ruleset,
//! the cgroup's file, the rlimits, C strings) is made before `fork`; the
//! code between `fork` and `exec` ([`std::os::unix::process::CommandExt::pre_exec`])
//! only makes system calls, which are async-signal-safe.
//!
//! # Modules
//!
//! | module | owns |
//! |---|---|
//! | `config` | [`Config`], [`BackendKind`], [`SandboxError`] |
//! | `limits` | [`Limits`] (the one list of rlimits both backends apply), [`TimeLimits`] |
//! | `outcome` | [`Outcome`], [`Clock`], [`Usage`] |
//! | `ids` | the runs' user ids ([`DEFAULT_UID`], [`UID_RANGE`], [`check_uid`] against the name service) |
//! | `sandbox` | [`Sandbox`]: probing for a backend, what it does not hold, what a run may see |
//! | `run` | [`Run`]: one run's folder, binds and input; the `RunSpec` each backend executes |
//! | [`bwrap`] | the bubblewrap backend |
//! | [`user`] | the user and Landlock backends (re-exporting `hygiene`'s and `writable`'s public items) |
//! | `hygiene` | a run's user id: killing its processes, removing what it left, whether it is clean |
//! | `writable` | the world-writable folders (walked, kept for the next grader) and disk usage |
//! | `lease` | uid leases (in this process and across graders), and sweeping what killed graders' ids left |
//! | `locks` | the `flock` lock files in `/run/cnf-sandbox` (uid leases, run folders) |
//! | [`filter`] | the seccomp programs and the Landlock ruleset |
//! | `cgroup` | the run's memory cgroup |
//! | `exec` | starting, polling, limiting and reaping one run: [`RunResult`] |
//! | `fds` | descriptors no run inherits ([`close_inherited_on_exec`]) |
//! | `usage` | measuring CPU time and memory of a process tree |
//! | `procfs` | reading `/proc/PID/stat` |
//!
//! A new limit is a field of [`Limits`] with its default and, for an
//! rlimit, one line in `Limits::rlimits`, the one list both kinds of
//! backend apply (bubblewrap as `prlimit` flags, the user and Landlock
//! backends through `setrlimit`); the grader adds its flag.
//!
//! Invariants: everything a child needs is made before `fork`, and the
//! code between `fork` and `exec` only makes system calls on values made
//! beforehand (no allocation, no lock); a run's processes are all dead
//! when [`Run::execute`] returns (the PID namespace, every process of the
//! run's uid, its cgroup, or, for the Landlock backend, its session, which
//! is weaker); and no two runs at once share a user id.

#![expect(
    unsafe_code,
    reason = "the sandbox is made of system calls std does not wrap: pre_exec, waitid, sysconf, getpwent_r"
)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod bwrap;
mod cgroup;
mod config;
mod exec;
mod fds;
pub mod filter;
mod hygiene;
mod ids;
mod lease;
mod limits;
mod locks;
mod outcome;
mod procfs;
mod run;
mod sandbox;
mod usage;
pub mod user;
mod writable;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use config::{BackendKind, Config, SandboxError, UidProblem};
pub use exec::{RunResult, STDERR_KEPT, run_plain, run_plain_within};
pub use fds::close_inherited_on_exec;
pub use ids::{DEFAULT_UID, UID_RANGE, check_uid, running_as_root};
pub use limits::{Limits, Rlimit, TimeLimits};
pub use outcome::{Clock, Outcome, Usage};
pub use run::{Bind, INPUT_DIR, Run, SCRATCH, USER_ROOT};
pub(crate) use sandbox::Backend;
pub use sandbox::Sandbox;
pub use usage::POLL;

/// The system folders shown read-only.
pub const SYSTEM_DIRS: [&str; 4] = ["/usr", "/etc", "/opt", "/var/lib/ghc"];

/// Top-level names that are links into `/usr` on merged-`/usr` systems
/// (or folders of their own on older ones).
pub const SYSTEM_LINKS: [&str; 6] = ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];

/// `PATH` inside the sandbox.
pub const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Gives `path` to user `uid` (when one is given), so the sandbox's user
/// reaches it while no other user does.
pub fn give_to(path: &Path, uid: Option<u32>) -> std::io::Result<()> {
    match uid {
        Some(uid) => std::os::unix::fs::lchown(path, Some(uid), Some(uid)),
        None => Ok(()),
    }
}

/// Finds `name` in the folders of `PATH`, as an absolute path that does
/// not lead through the caller's links: a tool such as bwrap is started
/// as the sandbox's user, who may not enter a folder of the caller's
/// `PATH` (tools linked from a 0700 temporary folder), and `prlimit` and
/// `timeout` are named inside the sandbox, where only the system's folders
/// are. A link named like its target (`/tmp/t/bwrap -> /usr/bin/bwrap`) is
/// followed; one to another name (a multi-call binary) is kept.
pub(crate) fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let found = std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())?;
    Some(through_same_named_links(
        std::path::absolute(&found).unwrap_or(found),
    ))
}

/// `path`, with every symbolic link on it whose target has the same file
/// name replaced by that target (at most 40, the kernel's own bound).
fn through_same_named_links(mut path: PathBuf) -> PathBuf {
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        if target.file_name() != path.file_name() {
            break;
        }
        let next = match path.parent() {
            Some(dir) if target.is_relative() => dir.join(&target),
            _ => target,
        };
        if !next.is_file() {
            break;
        }
        path = next;
    }
    path
}

/// The environment every run gets.
pub(crate) fn environment(scratch: &Path) -> [(&'static str, OsString); 4] {
    [
        ("PATH", PATH.into()),
        ("HOME", scratch.into()),
        ("TMPDIR", scratch.into()),
        ("LANG", "C.UTF-8".into()),
    ]
}

/// A `Command` for `sh -c shell` with nothing of the grader's environment.
pub(crate) fn clean_shell(shell: &str, scratch: &Path) -> Command {
    let mut c = Command::new("/bin/sh");
    c.env_clear();
    for (k, v) in environment(scratch) {
        c.env(k, v);
    }
    c.arg("-c").arg(shell);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_is_found_past_links_named_like_it_but_not_past_a_renaming_one() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::fs::write(real.join("bwrap"), "").unwrap();
        std::fs::write(real.join("busybox"), "").unwrap();
        let links = dir.path().join("links");
        std::fs::create_dir(&links).unwrap();
        // An absolute link, then a relative one to it.
        std::os::unix::fs::symlink(real.join("bwrap"), links.join("bwrap")).unwrap();
        std::os::unix::fs::symlink("links/bwrap", dir.path().join("bwrap")).unwrap();
        std::os::unix::fs::symlink(real.join("busybox"), links.join("timeout")).unwrap();
        assert_eq!(
            through_same_named_links(dir.path().join("bwrap")),
            real.join("bwrap")
        );
        assert_eq!(
            through_same_named_links(links.join("timeout")),
            links.join("timeout")
        );
    }
}
