//! Line diffs of an expected and an actual output, with the changed
//! characters inside a line marked, ready to show plain or in colour.
//!
//! So that two lines never look alike when they differ, and so that a
//! program's output cannot drive the terminal, a carriage return and other
//! control characters (and the bidirectional overrides) are shown as
//! escapes (`\r`, `\u{1b}`) by [`crate::escape::text`], and the spaces and
//! tabs that end a line as `·` and `→`.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use owo_colors::OwoColorize;
use similar::udiff::UnifiedHunkHeader;
use similar::{ChangeTag, InlineChangeMode, InlineChangeOptions, TextDiff};

/// Lines of context shown around each change.
pub const CONTEXT: usize = 3;

/// Diff lines kept at most; a longer diff is cut (a runaway program's output
/// must not make a report of megabytes).
pub const MAX_LINES: usize = 200;

/// Time allowed for computing one diff, after which it is coarser.
const TIME_LIMIT: Duration = Duration::from_millis(500);

/// How text is styled for a person: plain, or with ANSI colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// No escape codes at all.
    Plain,
    /// ANSI colours and emphasis.
    Color,
}

/// A unified diff of two texts, as data.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Diff {
    /// The groups of changes with their context, in order.
    pub hunks: Vec<Hunk>,
    /// Whether lines were left out after [`MAX_LINES`].
    pub cut: bool,
}

/// One `@@ … @@` group of a unified diff.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Hunk {
    /// The `@@ -a,b +c,d @@` header.
    pub header: String,
    /// The lines of the group.
    pub lines: Vec<DiffLine>,
}

/// Whether a diff line is shared, only expected, or only actual.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    /// In both texts (context).
    Same,
    /// Only in the expected text (`-`).
    Expected,
    /// Only in the actual text (`+`).
    Actual,
}

/// One line of a diff, split into runs that changed or not.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DiffLine {
    /// Which side the line is on.
    pub kind: LineKind,
    /// The line's text without its line end, as `(changed, text)` runs.
    pub runs: Vec<(bool, String)>,
    /// Whether the line had no LF at its end (the last line of a text).
    pub missing_newline: bool,
}

impl Diff {
    /// The diff from `expected` to `actual`, or `None` when they are equal.
    pub fn new(expected: &str, actual: &str) -> Option<Diff> {
        if expected == actual {
            return None;
        }
        let deadline = Instant::now() + TIME_LIMIT;
        let diff = TextDiff::configure()
            .deadline(deadline)
            .diff_lines(expected, actual);
        let mut options = InlineChangeOptions::new();
        options.mode(InlineChangeMode::Chars);
        let mut hunks = Vec::new();
        let mut kept = 0;
        let mut cut = false;
        'groups: for group in diff.grouped_ops(CONTEXT) {
            if group.is_empty() {
                continue;
            }
            let header = UnifiedHunkHeader::new(&group).to_string();
            let mut lines = Vec::new();
            for op in &group {
                for change in
                    diff.iter_inline_changes_with_options_deadline(op, options, Some(deadline))
                {
                    if kept == MAX_LINES {
                        cut = true;
                        hunks.push(Hunk { header, lines });
                        break 'groups;
                    }
                    kept += 1;
                    let kind = match change.tag() {
                        ChangeTag::Equal => LineKind::Same,
                        ChangeTag::Delete => LineKind::Expected,
                        ChangeTag::Insert => LineKind::Actual,
                    };
                    let mut runs: Vec<(bool, String)> = Vec::new();
                    for (changed, text) in change.iter_strings_lossy() {
                        let text = text.strip_suffix('\n').unwrap_or(&text);
                        let text = crate::escape::text(text);
                        if text.is_empty() {
                            continue;
                        }
                        match runs.last_mut() {
                            Some((c, t)) if *c == changed => t.push_str(&text),
                            _ => runs.push((changed, text.into_owned())),
                        }
                    }
                    mark_trailing_white_space(&mut runs);
                    lines.push(DiffLine {
                        kind,
                        runs,
                        missing_newline: change.missing_newline(),
                    });
                }
            }
            hunks.push(Hunk { header, lines });
        }
        Some(Diff { hunks, cut })
    }

    /// The diff as unified-diff text under `--- expected` and `+++ actual`
    /// headers; every line ends with LF.
    pub fn render(&self, expected: &str, actual: &str, style: Style) -> String {
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
        for hunk in &self.hunks {
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
                if line.missing_newline {
                    out.push_str("\\ No newline at end of file\n");
                }
            }
        }
        if self.cut {
            let _ = writeln!(out, "[... the diff is cut after {MAX_LINES} lines]");
        }
        out
    }
}

/// Shows the spaces and tabs that end a line as `·` and `→`, so a line
/// that differs only in trailing white space does not look equal.
fn mark_trailing_white_space(runs: &mut [(bool, String)]) {
    for (_, text) in runs.iter_mut().rev() {
        let body = text.trim_end_matches([' ', '\t']);
        let marked: String = text[body.len()..]
            .chars()
            .map(|c| if c == ' ' { '·' } else { '→' })
            .collect();
        let whole = body.is_empty();
        text.truncate(body.len());
        text.push_str(&marked);
        if !whole {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let text = diff.render("e", "a", Style::Plain);
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
            diff.render("e", "a", Style::Plain),
            "--- e\n+++ a\n@@ -1 +1 @@\n-\"--\"\n+\"--\"·→\n"
        );
        // Inside a line, white space stays as it is.
        let diff = Diff::new("a b\n", "a  b\n").unwrap();
        assert!(diff.render("e", "a", Style::Plain).contains("+a  b\n"));
    }

    #[test]
    fn missing_final_newline_and_carriage_returns_are_visible() {
        let diff = Diff::new("a\nb\n", "a\r\nb").unwrap();
        let text = diff.render("e", "a", Style::Plain);
        assert_eq!(
            text,
            "--- e\n+++ a\n@@ -1,2 +1,2 @@\n-a\n-b\n+a\\r\n+b\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn escapes_in_an_output_are_shown_not_sent_to_the_terminal() {
        let actual = "\u{1b}]0;title\u{7}\u{1b}[2J\"\u{202e}x\"\n";
        let diff = Diff::new("\"x\"\n", actual).unwrap();
        let text = diff.render("e\u{1b}[2J", "a", Style::Plain);
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
        let text = diff.render("e", "a", Style::Plain);
        assert!(diff.cut);
        assert_eq!(text.lines().count(), 3 + MAX_LINES + 1);
        assert!(text.ends_with("[... the diff is cut after 200 lines]\n"));
        assert!(start.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn colour_only_when_asked() {
        let diff = Diff::new("a\n", "b\n").unwrap();
        assert!(!diff.render("e", "a", Style::Plain).contains('\u{1b}'));
        assert!(diff.render("e", "a", Style::Color).contains('\u{1b}'));
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
