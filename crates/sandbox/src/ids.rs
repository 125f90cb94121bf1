//! The user ids a root grader's runs use, checked against the machine's
//! accounts and groups.

use std::ffi::{CStr, c_char, c_int};
use std::sync::{Mutex, PoisonError};

use crate::{SandboxError, UidProblem};

/// The user id a root grader's runs start from (no system allocates ids
/// this high).
pub const DEFAULT_UID: u32 = 1_900_000_000;

/// Whether this process runs as root.
pub fn running_as_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// How many ids from the first on the runs may use: one per student
/// of a class with bubblewrap, one per run at once with the user backend.
pub const UID_RANGE: u32 = 100_000;

/// Refuses a first user id that is root, or whose range of
/// [`UID_RANGE`] ids holds an existing account or group, or passes the
/// largest id.
pub fn check_uid(uid: u32) -> Result<(), SandboxError> {
    let bad = |problem| Err(SandboxError::BadUid { uid, problem });
    if uid == 0 {
        return bad(UidProblem::Root);
    }
    let last = u32::MAX - UID_RANGE;
    if uid >= last {
        return bad(UidProblem::TooLarge { below: last });
    }
    for (what, db, name, id) in accounts() {
        if (uid..uid + UID_RANGE).contains(&id) {
            return bad(UidProblem::Taken {
                first: uid,
                what,
                db,
                name,
                id,
            });
        }
    }
    Ok(())
}

/// Every user and group the system's name service lists (`/etc/passwd`
/// and `/etc/group`, or LDAP, sssd, … as `nsswitch.conf` says): which kind,
/// its database's name, its name and its id. A database that cannot be
/// read lists nothing.
fn accounts() -> Vec<(&'static str, &'static str, String, u32)> {
    // libc keeps one enumeration cursor per process: one walk at a time.
    static WALK: Mutex<()> = Mutex::new(());
    let _walk = WALK.lock().unwrap_or_else(PoisonError::into_inner);
    let mut out = Vec::new();
    // SAFETY: the functions are glibc's, with the signatures declared;
    // the cursor they share is held by WALK.
    unsafe {
        walk(libc::setpwent, libc::getpwent_r, libc::endpwent, |p| {
            out.push(("user", "passwd", name(p.pw_name), p.pw_uid));
        });
        walk(libc::setgrent, libc::getgrent_r, libc::endgrent, |g| {
            out.push(("group", "group", name(g.gr_name), g.gr_gid));
        });
    }
    out
}

/// The `*ent_r` signature shared by `getpwent_r` and `getgrent_r`.
type NextEntry<T> = unsafe extern "C" fn(*mut T, *mut c_char, libc::size_t, *mut *mut T) -> c_int;

/// Calls `each` with every entry of one NSS database, from `set` to `end`.
///
/// # Safety
///
/// `set`, `next` and `end` must be one database's `set*ent`,
/// `get*ent_r` and `end*ent`, `T` its entry type (for which all zero
/// bytes are a valid value), and no other thread may walk it meanwhile.
unsafe fn walk<T>(
    set: unsafe extern "C" fn(),
    next: NextEntry<T>,
    end: unsafe extern "C" fn(),
    mut each: impl FnMut(&T),
) {
    /// The largest buffer tried for one entry (a group with many members
    /// needs more than the first).
    const MOST: usize = 1 << 22;
    let mut buf: Vec<c_char> = vec![0; 16 * 1024];
    // SAFETY: the caller's: `set` starts this database's walk.
    unsafe { set() };
    loop {
        // SAFETY: the caller's: all zero bytes are a valid `T`.
        let mut entry: T = unsafe { std::mem::zeroed() };
        let mut found: *mut T = std::ptr::null_mut();
        // SAFETY: `entry`, `buf` (of the length given) and `found` outlive
        // the call, which writes only into them.
        let r = unsafe { next(&mut entry, buf.as_mut_ptr(), buf.len(), &mut found) };
        if r == libc::ERANGE && buf.len() < MOST {
            // glibc gives the same entry again with a larger buffer.
            buf.resize(buf.len() * 2, 0);
            continue;
        }
        if r != 0 || found.is_null() {
            break;
        }
        each(&entry);
    }
    // SAFETY: the caller's: `end` closes the walk `set` started.
    unsafe { end() };
}

/// An entry's name.
///
/// # Safety
///
/// `p` is null or points to a NUL-terminated string (an entry's name,
/// in the buffer of the walk that passed the entry on).
unsafe fn name(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the caller's: `p` is a NUL-terminated string.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the name service reads the local files (as here), every
    /// line of `/etc/passwd` and `/etc/group` is among the accounts, read
    /// independently of it.
    #[test]
    fn the_name_service_lists_the_local_files() {
        let listed = accounts();
        for (file, what) in [("/etc/passwd", "user"), ("/etc/group", "group")] {
            let Ok(text) = std::fs::read_to_string(file) else {
                continue;
            };
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let fields: Vec<&str> = line.split(':').collect();
                let (Some(name), Some(id)) = (fields.first(), fields.get(2)) else {
                    continue;
                };
                let Ok(id) = id.parse::<u32>() else { continue };
                assert!(
                    listed
                        .iter()
                        .any(|(w, _, n, i)| *w == what && n == name && *i == id),
                    "{file}: {line}"
                );
            }
        }
        assert!(
            listed
                .iter()
                .any(|(w, _, n, i)| *w == "user" && n == "root" && *i == 0)
        );
    }

    /// An account inside the range, not only at its start, is refused.
    #[test]
    fn an_account_inside_the_range_is_refused() {
        let Some((_, _, name, id)) = accounts().into_iter().find(|a| a.3 > 1000 && a.3 < 1 << 30)
        else {
            return;
        };
        let Err(e @ SandboxError::BadUid { .. }) = check_uid(id - 10) else {
            panic!("{id} {name} not found in range");
        };
        let m = e.to_string();
        assert!(m.contains(&format!("and {id} belongs to the")), "{m}");
        assert!(m.contains(&format!("{name:?}")), "{m}");
    }
}
