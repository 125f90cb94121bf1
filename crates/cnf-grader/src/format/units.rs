//! Durations (`2s`, `500ms`, `1.5s`, `1m`) and sizes (`1MiB`, `64KiB`,
//! `1000`) as written on the command line, and back for reports.

use std::time::Duration;

/// The longest time limit accepted, in seconds (about 31 years).
pub const MAX_SECONDS: f64 = 1e9;

/// Reads a duration: a number followed by `ms`, `s`, `m` or `h` (a bare
/// number is seconds); a number that reads but is zero, under a
/// nanosecond or over [`MAX_SECONDS`] is refused as too small or too large.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let bad = || format!("{text:?} is not a duration; expected e.g. 10s, 500ms, 1.5s, 2m or 1h");
    let value: f64 = number.parse().map_err(|_| bad())?;
    let scale = match unit.trim() {
        "ms" => 0.001,
        "" | "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(bad()),
    };
    let seconds = value * scale;
    if !seconds.is_finite() || seconds > MAX_SECONDS {
        return Err(format!(
            "{text:?} is too large for a time limit; the largest is {MAX_SECONDS:.0}s (about 31 years)"
        ));
    }
    let too_small = || format!("{text:?} is too small for a time limit; the smallest is 1ns");
    if seconds <= 0.0 {
        return Err(too_small());
    }
    // A positive value under a nanosecond would round to a zero limit.
    let d = Duration::from_secs_f64(seconds);
    if d.is_zero() {
        return Err(too_small());
    }
    Ok(d)
}

/// Reads a size in bytes: a whole number with an optional `K`/`KiB`, `M`/`MiB`
/// or `G`/`GiB` (powers of 1024) or `B`.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let bad = || format!("{text:?} is not a size; expected e.g. 1MiB, 64KiB or 4096");
    let value: usize = number.parse().map_err(|_| bad())?;
    let scale: usize = match unit.trim() {
        "" | "B" => 1,
        "K" | "KiB" | "k" => 1 << 10,
        "M" | "MiB" => 1 << 20,
        "G" | "GiB" => 1 << 30,
        _ => return Err(bad()),
    };
    value
        .checked_mul(scale)
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{text:?} is not a usable size; expected at least 1 byte"))
}

/// A duration for a report: `850µs`, `12.34ms`, `1.50s`.
pub fn show_duration(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.0}µs")
    } else if us < 1e6 {
        let ms = us / 1e3;
        if ms.fract() == 0.0 {
            format!("{ms:.0}ms")
        } else {
            format!("{ms:.2}ms")
        }
    } else {
        let s = us / 1e6;
        if s.fract() == 0.0 {
            format!("{s:.0}s")
        } else {
            format!("{s:.2}s")
        }
    }
}

/// A size for a report: `1 MiB`, `64 KiB`, `1000 bytes`.
pub fn show_size(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("fast").unwrap_err().contains("500ms"));
        assert_eq!(parse_duration("5h"), Ok(Duration::from_secs(5 * 3600)));
        assert!(parse_duration("5d").unwrap_err().contains("not a duration"));
        // A number too large is not "not a duration".
        assert_eq!(
            parse_duration("99999999999999h").unwrap_err(),
            "\"99999999999999h\" is too large for a time limit; the largest is 1000000000s (about 31 years)"
        );
        assert!(
            parse_duration("1000000001")
                .unwrap_err()
                .contains("too large")
        );
        assert_eq!(
            parse_duration("1000000000"),
            Ok(Duration::from_secs(1_000_000_000))
        );
        assert!(parse_duration("0s").unwrap_err().contains("too small"));
        // Found by fuzzing: under a nanosecond was a zero time limit.
        assert!(
            parse_duration("0.0000000001s")
                .unwrap_err()
                .contains("the smallest is 1ns")
        );
        assert_eq!(parse_duration("0.000000001"), Ok(Duration::from_nanos(1)));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1MiB"), Ok(1 << 20));
        assert_eq!(parse_size("64K"), Ok(65536));
        assert_eq!(parse_size("100"), Ok(100));
        assert!(parse_size("0").is_err());
        assert!(parse_size("1.5M").is_err());
    }

    #[test]
    fn shown() {
        assert_eq!(show_duration(Duration::from_secs(1)), "1s");
        assert_eq!(show_duration(Duration::from_millis(500)), "500ms");
        assert_eq!(show_duration(Duration::from_micros(12)), "12µs");
        assert_eq!(show_size(1 << 20), "1 MiB");
        assert_eq!(show_size(1000), "1000 bytes");
    }
}
