//! The grader's `--timeout` and `--max-output` values: never panic, only
//! usable limits are accepted, and a size or time read is written back and
//! read to the same value.
#![no_main]

use cnf_grader::format::units::{parse_duration, parse_size, show_duration, show_size};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(n) = parse_size(text) {
        assert!(n > 0);
        assert_eq!(parse_size(&n.to_string()), Ok(n));
        let shown = show_size(n);
        assert_eq!(
            parse_size(shown.trim_end_matches(" bytes")),
            Ok(n),
            "{shown}"
        );
    }
    if let Ok(d) = parse_duration(text) {
        let seconds = d.as_secs_f64();
        assert!(seconds > 0.0 && seconds <= 1e9, "{d:?}");
        let _ = show_duration(d);
        let again = parse_duration(&seconds.to_string()).expect("seconds read back");
        let drift = (again.as_secs_f64() - seconds).abs();
        assert!(drift <= 1e-6 + seconds * 1e-12, "{d:?} became {again:?}");
    }
});
