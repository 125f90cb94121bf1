//! The grader's comparison of an expected `.solution` with a program's
//! output: arbitrary bytes on both sides. The UTF-8 check and the diff never
//! panic; equal texts give no diff; every hunk shows exactly the lines its
//! `@@ -a,b +c,d @@` header names; the rendering is bounded by the line cap.
#![no_main]

use cnf_grader::model::diff::{Diff, LineKind, MAX_LINES};
use cnf_grader::report::Style;
use cnf_grader::report::diff::unified;
use libfuzzer_sys::fuzz_target;

/// `(start, len)` of one side of a hunk header, 0-based.
fn side(spec: &str) -> (usize, usize) {
    let (start, len) = spec
        .split_once(',')
        .map_or((spec, 1), |(a, b)| (a, b.parse().expect("hunk length")));
    let start: usize = start.parse().expect("hunk start");
    (if len == 0 { start } else { start - 1 }, len)
}

/// Lines as the diff (`similar`) counts them: each ends after LF, CRLF or a
/// lone CR.
fn lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => i + 2,
            b'\r' | b'\n' => i + 1,
            _ => {
                i += 1;
                continue;
            }
        };
        out.push(&text[start..end]);
        start = end;
        i = end;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// What a diff line shows for a source line: control characters escaped.
fn shown(line: &str) -> String {
    let line = line.strip_suffix('\n').unwrap_or(line);
    let mut out = String::new();
    for ch in line.chars() {
        match ch {
            '\r' => out.push_str("\\r"),
            '\t' => out.push('\t'),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    // The first 0xFF byte separates expected from actual.
    let (expected, actual) = match data.iter().position(|&b| b == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &b""[..]),
    };
    // As the grader does: a non-UTF-8 output is named by its first bad byte.
    let (expected, actual) = match (
        std::str::from_utf8(expected),
        String::from_utf8(actual.to_vec()),
    ) {
        (Ok(e), Ok(a)) => (e, a),
        (_, Err(e)) => {
            let at = e.utf8_error().valid_up_to();
            let _ = format!("byte {at} (0x{:02x}) is invalid", e.as_bytes()[at]);
            return;
        }
        (Err(_), _) => return,
    };
    let Some(diff) = Diff::new(expected, &actual) else {
        assert_eq!(expected, actual, "no diff for different texts");
        return;
    };
    assert_ne!(expected, actual);
    assert!(
        !diff.hunks.is_empty(),
        "a diff of different texts without hunks"
    );
    let plain = unified(&diff, "expected", "actual", Style::Plain);
    let color = unified(&diff, "expected", "actual", Style::Color);
    assert!(plain.ends_with('\n') && color.ends_with('\n'));
    assert!(!plain.contains('\u{1b}'));
    let body: usize = diff.hunks.iter().map(|h| h.lines.len()).sum();
    assert!(body <= MAX_LINES);
    if diff.cut {
        return;
    }
    let (old, new) = (lines(expected), lines(&actual));
    for hunk in &diff.hunks {
        let inner = hunk
            .header
            .trim_start_matches("@@ -")
            .trim_end_matches(" @@");
        let (o, n) = inner.split_once(" +").expect("a hunk header");
        let (os, ol) = side(o);
        let (ns, nl) = side(n);
        let text = |l: &cnf_grader::model::diff::DiffLine| {
            l.runs.iter().map(|(_, t)| t.as_str()).collect::<String>()
        };
        let minus: Vec<String> = hunk
            .lines
            .iter()
            .filter(|l| l.kind != LineKind::Actual)
            .map(text)
            .collect();
        let plus: Vec<String> = hunk
            .lines
            .iter()
            .filter(|l| l.kind != LineKind::Expected)
            .map(text)
            .collect();
        let want_minus: Vec<String> = old[os..os + ol].iter().map(|l| shown(l)).collect();
        let want_plus: Vec<String> = new[ns..ns + nl].iter().map(|l| shown(l)).collect();
        assert_eq!(minus, want_minus, "{}", hunk.header);
        assert_eq!(plus, want_plus, "{}", hunk.header);
    }
});
