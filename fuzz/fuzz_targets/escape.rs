//! The grader's escaping of text from outside (`cnf_grader::escape`): its
//! output never holds a control character or a bidirectional override,
//! printable text comes out unchanged, escaping twice is escaping once,
//! and a CSV cell never starts a formula.
#![no_main]

use cnf_grader::escape::{bytes, csv_cell, line, needs_escape, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let shown = bytes(data);
    assert!(!shown.chars().any(needs_escape), "{shown:?}");
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let one = line(s);
    assert_eq!(one, shown, "bytes and line agree on UTF-8");
    assert!(!one.chars().any(needs_escape), "{one:?}");
    assert_eq!(line(&one), one, "idempotent");
    let many = text(s);
    assert!(
        !many
            .chars()
            .any(|c| needs_escape(c) && c != '\n' && c != '\t'),
        "{many:?}"
    );
    assert_eq!(text(&many), many, "idempotent");
    let printable: String = s.chars().filter(|c| !needs_escape(*c)).collect();
    assert_eq!(line(&printable), printable, "printable text is unchanged");
    assert_eq!(text(&printable), printable, "printable text is unchanged");
    if !s.chars().any(needs_escape) {
        assert_eq!(one, s);
    }
    let cell = csv_cell(s);
    assert!(!cell.chars().any(needs_escape), "{cell:?}");
    assert!(
        !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
        "{cell:?}"
    );
    // The cell is the line, with a quote in front exactly when the line
    // would start a formula.
    if one.starts_with(['=', '+', '-', '@']) {
        assert_eq!(cell, format!("'{one}"));
    } else {
        assert_eq!(cell, one);
    }
});
