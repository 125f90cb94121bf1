//! Descriptors a run must not inherit.
//!
//! A grader may be started holding descriptors it never asked for (a CI
//! runner's pipe, a harness's `7<FIXTURES 8>>LOG`): every one of them would
//! reach each program it starts, inside any backend (bubblewrap passes on
//! what it inherits, and a descriptor needs no path, so neither a mount
//! namespace nor Landlock hides what it opens). Two guards:
//! - every sandboxed process (bwrap itself, or the user backend's shell)
//!   marks every descriptor above 2 close-on-exec between `fork` and
//!   `exec` ([`cloexec_above_stderr`]), before the backend clears that flag
//!   on the few it hands over on purpose (bwrap's `--args`, `--seccomp`
//!   and `--json-status-fd`), so a program starts with 0, 1 and 2 only;
//! - [`close_inherited_on_exec`], which a program calls at its start, does
//!   the same for the whole process, so no program it starts by other
//!   means (a plain tool, GHC outside the sandbox) inherits them either.

use std::io;

/// The highest descriptor number the fallback (a kernel without
/// `close_range`'s close-on-exec flag, before Linux 5.11) marks, read
/// before `fork`: the open-file limit, or 65536 where that is unlimited.
pub(crate) fn fallback_limit() -> i32 {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    // The hard limit: a soft limit lowered after a descriptor was opened
    // does not close it.
    let n = limit.maximum.or(limit.current).unwrap_or(65_536);
    i32::try_from(n.min(1 << 20)).unwrap_or(1 << 20)
}

/// Marks every descriptor above 2 close-on-exec: `close_range(3, ~0,
/// CLOSE_RANGE_CLOEXEC)`, or, where the kernel lacks it, `fcntl` on each
/// descriptor below `limit`. Only system calls: safe between `fork` and
/// `exec`.
pub(crate) fn cloexec_above_stderr(limit: i32) -> io::Result<()> {
    // SAFETY: a plain system call on no memory of ours.
    let r = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if r == 0 {
        return Ok(());
    }
    let e = io::Error::last_os_error();
    if !matches!(
        e.raw_os_error(),
        Some(libc::ENOSYS | libc::EINVAL | libc::EPERM)
    ) {
        return Err(e);
    }
    cloexec_each(limit);
    Ok(())
}

/// The fallback: `fcntl` on each descriptor from 3 below `limit`.
fn cloexec_each(limit: i32) {
    for fd in 3..limit {
        // SAFETY: plain system calls; a descriptor not open is EBADF.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags >= 0 && flags & libc::FD_CLOEXEC == 0 {
                libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
            }
        }
    }
}

/// Marks every descriptor above 2 that this process holds close-on-exec,
/// so no program it starts inherits one; a grader calls it first thing in
/// `main`. Its own later descriptors are unaffected (Rust's standard
/// library opens every file close-on-exec anyway).
pub fn close_inherited_on_exec() -> io::Result<()> {
    cloexec_above_stderr(fallback_limit())
}

/// Clears close-on-exec on `fds` (between `fork` and `exec`, after
/// [`cloexec_above_stderr`]): the descriptors a backend hands over.
pub(crate) fn hand_over(fds: &[i32]) -> io::Result<()> {
    for fd in fds {
        // SAFETY: a plain system call.
        if unsafe { libc::fcntl(*fd, libc::F_SETFD, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::os::fd::AsRawFd as _;

    /// Whether `fd` is close-on-exec.
    fn cloexec(fd: i32) -> bool {
        // SAFETY: a plain system call.
        unsafe { libc::fcntl(fd, libc::F_GETFD) & libc::FD_CLOEXEC != 0 }
    }

    /// A file open without close-on-exec, as a grader inherits one.
    fn inherited() -> std::fs::File {
        let f = tempfile::tempfile().unwrap();
        super::hand_over(&[f.as_raw_fd()]).unwrap();
        assert!(!cloexec(f.as_raw_fd()));
        f
    }

    #[test]
    fn the_fallback_marks_every_descriptor_below_its_limit() {
        let f = inherited();
        super::cloexec_each(f.as_raw_fd() + 1);
        assert!(cloexec(f.as_raw_fd()));
    }

    #[test]
    fn inherited_descriptors_are_marked_close_on_exec() {
        let f = inherited();
        super::close_inherited_on_exec().unwrap();
        assert!(cloexec(f.as_raw_fd()));
    }
}
