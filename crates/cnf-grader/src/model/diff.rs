//! Line diffs of an expected and an actual output, with the changed
//! characters inside a line marked, ready to show plain or in colour.
//!
//! So that two lines never look alike when they differ, and so that a
//! program's output cannot drive the terminal, a carriage return and other
//! control characters (and the bidirectional overrides) are shown as
//! escapes (`\r`, `\u{1b}`) by [`crate::escape::text`], and the spaces and
//! tabs that end a line as `·` and `→`.

use std::time::{Duration, Instant};

use similar::udiff::UnifiedHunkHeader;
use similar::{ChangeTag, InlineChangeMode, InlineChangeOptions, TextDiff};

/// Lines of context shown around each change.
pub const CONTEXT: usize = 3;

/// Diff lines kept at most; a longer diff is cut (a runaway program's output
/// must not make a report of megabytes).
pub const MAX_LINES: usize = 200;

/// Time allowed for computing one diff, after which it is coarser.
const TIME_LIMIT: Duration = Duration::from_millis(500);

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
