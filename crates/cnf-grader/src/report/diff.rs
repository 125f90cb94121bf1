//! Unified-diff text of a [`Diff`], plain or coloured.

use std::fmt::Write as _;

use owo_colors::OwoColorize;

use crate::model::diff::{Diff, LineKind, MAX_LINES};
use crate::report::Style;

/// The note under an empty line that only one side has.
pub(crate) const EMPTY_LINE_NOTE: &str = "\\ the line above is empty\n";

/// `diff` as unified-diff text under `--- expected` and `+++ actual`
/// headers; every line ends with LF.
pub fn unified(diff: &Diff, expected: &str, actual: &str, style: Style) -> String {
    let mut out = String::new();
    let paint = |out: &mut String, text: &str, f: fn(&str) -> String| {
        match style {
            Style::Plain => out.push_str(text),
            Style::Color => out.push_str(&f(text)),
        };
    };
    let (expected, actual) = (crate::escape::line(expected), crate::escape::line(actual));
    paint(&mut out, &format!("--- {expected}"), |t| {
        t.red().to_string()
    });
    out.push('\n');
    paint(&mut out, &format!("+++ {actual}"), |t| {
        t.green().to_string()
    });
    out.push('\n');
    for hunk in &diff.hunks {
        paint(&mut out, &hunk.header, |t| t.cyan().to_string());
        out.push('\n');
        for line in &hunk.lines {
            let sign = match line.kind {
                LineKind::Same => ' ',
                LineKind::Expected => '-',
                LineKind::Actual => '+',
            };
            match (style, line.kind) {
                (Style::Plain, _) | (Style::Color, LineKind::Same) => {
                    out.push(sign);
                    for (_, text) in &line.runs {
                        out.push_str(text);
                    }
                }
                (Style::Color, LineKind::Expected) => {
                    let _ = write!(out, "{}", sign.red());
                    for (changed, text) in &line.runs {
                        if *changed {
                            let _ = write!(out, "{}", text.red().bold().underline());
                        } else {
                            let _ = write!(out, "{}", text.red());
                        }
                    }
                }
                (Style::Color, LineKind::Actual) => {
                    let _ = write!(out, "{}", sign.green());
                    for (changed, text) in &line.runs {
                        if *changed {
                            let _ = write!(out, "{}", text.green().bold().underline());
                        } else {
                            let _ = write!(out, "{}", text.green());
                        }
                    }
                }
            }
            out.push('\n');
            if line.kind != LineKind::Same && line.runs.is_empty() {
                // A lone sign is easy to miss: say what the line is, as
                // diff says what the line end is.
                out.push_str(EMPTY_LINE_NOTE);
            }
            if line.missing_newline {
                out.push_str("\\ No newline at end of file\n");
            }
        }
    }
    if diff.cut {
        let _ = writeln!(out, "[... the diff is cut after {MAX_LINES} lines]");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::diff::DiffLine;
    use std::time::{Duration, Instant};

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(Diff::new("a\nb\n", "a\nb\n"), None);
    }

    #[test]
    fn one_changed_byte_is_a_hunk_with_context_and_the_byte_marked() {
        let expected = "\"Result\"\n\"----\"\n\"-12-\"\n\"\"\n";
        let actual = "\"Result\"\n\"----\"\n\"-11-\"\n\"\"\n";
        let diff = Diff::new(expected, actual).unwrap();
        // Written by hand: one hunk covering all four lines.
        let text = unified(&diff, "e", "a", Style::Plain);
        assert_eq!(
            text,
            "--- e\n+++ a\n@@ -1,4 +1,4 @@\n \"Result\"\n \"----\"\n-\"-12-\"\n+\"-11-\"\n \"\"\n"
        );
        let minus = &diff.hunks[0].lines[2];
        assert_eq!(minus.kind, LineKind::Expected);
        let changed: String = minus
            .runs
            .iter()
            .filter(|(c, _)| *c)
            .map(|(_, t)| t.as_str())
            .collect();
        assert_eq!(changed, "2");
    }

    #[test]
    fn context_is_three_lines() {
        let expected: String = (0..20).map(|i| format!("{i}\n")).collect();
        let actual = expected.replace("10\n", "x\n");
        let diff = Diff::new(&expected, &actual).unwrap();
        assert_eq!(diff.hunks.len(), 1);
        assert_eq!(diff.hunks[0].header, "@@ -8,7 +8,7 @@");
        assert_eq!(diff.hunks[0].lines.len(), 8);
    }

    #[test]
    fn trailing_white_space_is_visible() {
        let diff = Diff::new("\"--\"\n", "\"--\" \t\n").unwrap();
        assert_eq!(
            unified(&diff, "e", "a", Style::Plain),
            "--- e\n+++ a\n@@ -1 +1 @@\n-\"--\"\n+\"--\"·→\n"
        );
        // Inside a line, white space stays as it is.
        let diff = Diff::new("a b\n", "a  b\n").unwrap();
        assert!(unified(&diff, "e", "a", Style::Plain).contains("+a  b\n"));
    }

    #[test]
    fn a_lone_extra_empty_line_is_said_to_be_one() {
        let expected = "\"Result\"\n\"--\"\n\"\"\n";
        let diff = Diff::new(expected, &format!("{expected}\n")).unwrap();
        assert_eq!(
            unified(&diff, "e", "a", Style::Plain),
            "--- e\n+++ a\n@@ -1,3 +1,4 @@\n \"Result\"\n \"--\"\n \"\"\n+\n\\ the line above is empty\n"
        );
    }

    #[test]
    fn missing_final_newline_and_carriage_returns_are_visible() {
        let diff = Diff::new("a\nb\n", "a\r\nb").unwrap();
        let text = unified(&diff, "e", "a", Style::Plain);
        assert_eq!(
            text,
            "--- e\n+++ a\n@@ -1,2 +1,2 @@\n-a\n-b\n+a\\r\n+b\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn escapes_in_an_output_are_shown_not_sent_to_the_terminal() {
        let actual = "\u{1b}]0;title\u{7}\u{1b}[2J\"\u{202e}x\"\n";
        let diff = Diff::new("\"x\"\n", actual).unwrap();
        let text = unified(&diff, "e\u{1b}[2J", "a", Style::Plain);
        assert_eq!(
            text,
            "--- e\\u{1b}[2J\n+++ a\n@@ -1 +1 @@\n-\"x\"\n+\\u{1b}]0;title\\u{7}\\u{1b}[2J\"\\u{202e}x\"\n"
        );
    }

    #[test]
    fn a_huge_output_gives_a_cut_diff_quickly() {
        let expected = "\"Result\"\n\"----\"\n\"\"\n";
        let actual = "y\n".repeat(500_000) + &"x".repeat(100_000);
        let start = Instant::now();
        let diff = Diff::new(expected, &actual).unwrap();
        let text = unified(&diff, "e", "a", Style::Plain);
        assert!(diff.cut);
        assert_eq!(text.lines().count(), 3 + MAX_LINES + 1);
        assert!(text.ends_with("[... the diff is cut after 200 lines]\n"));
        assert!(start.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn colour_only_when_asked() {
        let diff = Diff::new("a\n", "b\n").unwrap();
        assert!(!unified(&diff, "e", "a", Style::Plain).contains('\u{1b}'));
        assert!(unified(&diff, "e", "a", Style::Color).contains('\u{1b}'));
    }

    /// `(start, len)` of one side of a `@@ -a,b +c,d @@` header, 0-based.
    fn side(spec: &str) -> (usize, usize) {
        let (start, len) = spec
            .split_once(',')
            .map_or((spec, 1), |(a, b)| (a, b.parse().unwrap()));
        let start: usize = start.parse().unwrap();
        (if len == 0 { start } else { start - 1 }, len)
    }

    proptest::proptest! {
        /// Every hunk shows, on its `-` and context lines, exactly the
        /// expected lines its header names, and on its `+` and context lines
        /// the actual ones; equal texts give no diff.
        #[test]
        fn hunks_are_the_texts_they_claim(
            expected in proptest::collection::vec("[-12ab\"]{0,4}", 0..30),
            actual in proptest::collection::vec("[-12ab\"]{0,4}", 0..30),
        ) {
            let e = expected.iter().map(|l| format!("{l}\n")).collect::<String>();
            let a = actual.iter().map(|l| format!("{l}\n")).collect::<String>();
            let Some(diff) = Diff::new(&e, &a) else {
                proptest::prop_assert_eq!(e, a);
                return Ok(());
            };
            proptest::prop_assert!(!diff.hunks.is_empty());
            for hunk in &diff.hunks {
                let inner = hunk.header.trim_start_matches("@@ -").trim_end_matches(" @@");
                let (old, new) = inner.split_once(" +").unwrap();
                let (old_start, old_len) = side(old);
                let (new_start, new_len) = side(new);
                let text = |l: &DiffLine| l.runs.iter().map(|(_, t)| t.as_str()).collect::<String>();
                let old_lines: Vec<String> = hunk.lines.iter()
                    .filter(|l| l.kind != LineKind::Actual).map(text).collect();
                let new_lines: Vec<String> = hunk.lines.iter()
                    .filter(|l| l.kind != LineKind::Expected).map(text).collect();
                proptest::prop_assert_eq!(&old_lines[..], &expected[old_start..old_start + old_len]);
                proptest::prop_assert_eq!(&new_lines[..], &actual[new_start..new_start + new_len]);
            }
        }
    }
}
