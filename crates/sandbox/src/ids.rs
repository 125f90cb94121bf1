//! The user ids a root grader's runs use, checked against the machine's
//! accounts and groups.

use std::fs;

use crate::SandboxError;

/// The user id a root grader's runs start from (no system allocates ids
/// this high).
pub const DEFAULT_UID: u32 = 1_900_000_000;

/// Whether this process runs as root.
pub fn running_as_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// How many ids from `--sandbox-uid` on a grader may use: one per student
/// of a class with bubblewrap, one per run at once with the user backend.
pub const UID_RANGE: u32 = 100_000;

/// Refuses a first user id that is root, or whose range of
/// [`UID_RANGE`] ids holds an existing account or group, or passes the
/// largest id, with a message naming the flag.
pub fn check_uid(uid: u32, flag: &str) -> Result<(), SandboxError> {
    if uid == 0 {
        return Err(SandboxError::BadUid(format!(
            "{flag} 0: that is root; give an unprivileged id no account uses, e.g. {DEFAULT_UID}"
        )));
    }
    let last = u32::MAX - UID_RANGE;
    if uid >= last {
        return Err(SandboxError::BadUid(format!(
            "{flag} {uid}: too large: the grader uses the {UID_RANGE} ids from it on, and \
             4294967295 means \"no id\" to the kernel; give an id below {last}, e.g. {DEFAULT_UID}"
        )));
    }
    for (file, what) in [("/etc/passwd", "user"), ("/etc/group", "group")] {
        if let Ok(text) = fs::read_to_string(file) {
            for line in text.lines() {
                let mut fields = line.split(':');
                let name = fields.next().unwrap_or("");
                let Some(id) = fields.nth(1).and_then(|f| f.parse::<u32>().ok()) else {
                    continue;
                };
                if id == uid {
                    return Err(SandboxError::BadUid(format!(
                        "{flag} {uid}: that id belongs to the {what} {name:?} in {file}; give \
                         an id no account uses, e.g. {DEFAULT_UID}"
                    )));
                }
                if (uid..uid + UID_RANGE).contains(&id) {
                    return Err(SandboxError::BadUid(format!(
                        "{flag} {uid}: the grader uses the {UID_RANGE} ids from it on, and {id} \
                         belongs to the {what} {name:?} in {file}; give an id no account's is \
                         near, e.g. {DEFAULT_UID}"
                    )));
                }
            }
        }
    }
    Ok(())
}
