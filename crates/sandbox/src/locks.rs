//! Lock files in a root-only folder ([`LOCKS`]), taken with `flock`: the
//! kernel gives a lock back when the last descriptor of its holder closes,
//! so a grader killed mid-run holds none, and the next grader can tell
//! what it left (uid leases, run folders) from what a live grader holds.

use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

/// Where the lock files live (uid leases, run folders, the list of
/// world-writable folders).
pub(crate) const LOCKS: &str = "/run/cnf-sandbox";

/// [`LOCKS`], made root's own (mode 0700) if missing; refused if anyone
/// else could write in it.
pub(crate) fn lock_dir() -> io::Result<&'static Path> {
    use std::os::unix::fs::DirBuilderExt as _;
    let dir = Path::new(LOCKS);
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let m = fs::symlink_metadata(dir)?;
    if !m.is_dir() || m.uid() != 0 || m.mode() & 0o022 != 0 {
        return Err(io::Error::other("the lock folder is not root's own"));
    }
    Ok(dir)
}

/// Takes the lock file `name` of [`LOCKS`] for this process: `Ok(None)`
/// when a live process holds it (the kernel drops a lock with the last
/// descriptor of its holder, so a killed grader holds none).
pub(crate) fn lock(name: &str) -> io::Result<Option<fs::File>> {
    lock_at(&lock_dir()?.join(name))
}

/// [`lock`] on the file at `path` (made, mode 0600, if missing).
pub(crate) fn lock_at(path: &Path) -> io::Result<Option<fs::File>> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let f = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    match rustix::fs::flock(&f, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(Some(f)),
        Err(rustix::io::Errno::WOULDBLOCK) => Ok(None),
        Err(e) => Err(e.into()),
    }
}
