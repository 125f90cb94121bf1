//! Reading `/proc/PID/stat`, for measuring a run ([`crate::usage`]) and
//! telling a live grader from an ended one ([`crate::cgroup`]).

/// What `/proc/PID/stat` says of one process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stat {
    /// The parent's pid.
    pub(crate) ppid: i32,
    /// `utime + stime + cutime + cstime`, in clock ticks.
    pub(crate) ticks: u64,
    /// When it started, in clock ticks after boot (tells a reused pid).
    pub(crate) start: u64,
    /// Its resident set, in pages.
    pub(crate) rss: u64,
}

/// Reads the fields of a `/proc/PID/stat` line (the command name, in
/// parentheses, may hold spaces and parentheses itself).
pub(crate) fn parse_stat(line: &str) -> Option<Stat> {
    let (_, rest) = line.rsplit_once(") ")?;
    // rest[0] is field 3 (state).
    let f: Vec<&str> = rest.split_ascii_whitespace().collect();
    let n = |field: usize| -> Option<u64> { f.get(field - 3)?.parse().ok() };
    Some(Stat {
        ppid: f.get(1)?.parse().ok()?,
        ticks: n(14)? + n(15)? + n(16)? + n(17)?,
        start: n(22)?,
        rss: n(24)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_is_read_past_a_name_with_spaces_and_parentheses() {
        // Fields as proc(5) numbers them: 4 ppid, 14-17 times, 22 start, 24 rss.
        let line = "4242 (a) b (c)) R 17 4242 4242 0 -1 4194304 100 0 0 0 \
                    250 30 7 3 20 0 1 0 987654 10000000 321 18446744073709551615";
        assert_eq!(
            parse_stat(line),
            Some(Stat {
                ppid: 17,
                ticks: 250 + 30 + 7 + 3,
                start: 987_654,
                rss: 321,
            })
        );
        assert_eq!(parse_stat("12 (x"), None);
    }
}
