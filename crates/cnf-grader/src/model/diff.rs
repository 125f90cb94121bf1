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

use crate::model::compare::Compare;

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
    /// What kind of difference it is (`None` in a report saved before
    /// this was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difference: Option<Difference>,
    /// The least relaxed comparison that takes the two texts as equal,
    /// if any does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes_with: Option<Compare>,
}

/// What kind of difference an output has from its expected result, for a
/// note that says why a case failed; lines are counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Difference {
    /// There is no output at all.
    NoOutput,
    /// The last line has no line end where the expected one has one
    /// (`missing`), or the other way round.
    FinalLineEnd {
        /// Whether the output lacks it.
        missing: bool,
    },
    /// Lines end with CR LF where the expected ones end with LF.
    CarriageReturns,
    /// `count` empty lines the expected output has not, from `line` of
    /// the output (`at_end`: after its last expected line).
    ExtraEmptyLines {
        /// The first of them.
        line: usize,
        /// How many.
        count: usize,
        /// Whether they come after every expected line.
        at_end: bool,
    },
    /// `count` lines more than expected at the end, from `line`.
    ExtraLines {
        /// The first of them.
        line: usize,
        /// How many.
        count: usize,
    },
    /// The expected lines from `line` on (`count` of them) are missing.
    MissingLines {
        /// The first missing line.
        line: usize,
        /// How many.
        count: usize,
    },
    /// Spaces or tabs end some lines, the first `line`.
    TrailingSpaces {
        /// The first such line.
        line: usize,
    },
    /// White space at the ends of lines and of the output differs in
    /// several ways at once.
    TrailingWhiteSpace,
    /// White space differs inside a line, the first `line`.
    Spacing {
        /// The first such line.
        line: usize,
    },
    /// Line `line` is the first that differs; `row` is the board's row it
    /// shows (from 1, under the `"Result"` line), when it is one.
    DifferentLine {
        /// The line.
        line: usize,
        /// The board's row.
        row: Option<usize>,
    },
}

/// The lines of `text`, without the empty piece after a final LF.
fn lines_of(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') || text.is_empty() {
        lines.pop();
    }
    lines
}

impl Difference {
    /// How `actual` differs from `expected` (two texts that differ).
    pub fn of(expected: &str, actual: &str) -> Difference {
        if actual.is_empty() {
            return Difference::NoOutput;
        }
        let (e, a) = (lines_of(expected), lines_of(actual));
        let first = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
        let same_end = expected.ends_with('\n') == actual.ends_with('\n');
        if e == a {
            return Difference::FinalLineEnd {
                missing: expected.ends_with('\n'),
            };
        }
        if actual.replace("\r\n", "\n") == expected {
            return Difference::CarriageReturns;
        }
        if a.len() > e.len() && same_end {
            let count = a.len() - e.len();
            if a[first..first + count].iter().all(|l| l.is_empty())
                && a[first + count..] == e[first..]
            {
                return Difference::ExtraEmptyLines {
                    line: first + 1,
                    count,
                    at_end: first == e.len(),
                };
            }
            if first == e.len() {
                return Difference::ExtraLines {
                    line: first + 1,
                    count,
                };
            }
        }
        if a.len() < e.len() && first == a.len() {
            return Difference::MissingLines {
                line: first + 1,
                count: e.len() - a.len(),
            };
        }
        let trimmed = |l: &&str| l.trim_end_matches([' ', '\t']).to_owned();
        if e.len() == a.len() && same_end && e.iter().map(trimmed).eq(a.iter().map(trimmed)) {
            return Difference::TrailingSpaces { line: first + 1 };
        }
        if Compare::TrailingWhitespace.equal(expected, actual) {
            return Difference::TrailingWhiteSpace;
        }
        if e.len() == a.len() && Compare::Whitespace.equal(expected, actual) {
            return Difference::Spacing { line: first + 1 };
        }
        let row = (first >= 1
            && e.first() == Some(&"\"Result\"")
            && e.get(first)
                .is_some_and(|l| l.starts_with('"') && *l != "\"\""))
        .then_some(first);
        Difference::DifferentLine {
            line: first + 1,
            row,
        }
    }

    /// In words: "an extra empty line at the end", "a different row 3 of
    /// the board (line 4)".
    pub fn words(self) -> String {
        let many = |n: usize, one: &str, more: &str| {
            if n == 1 {
                one.to_owned()
            } else {
                format!("{n} {more}")
            }
        };
        match self {
            Difference::NoOutput => "no output".to_owned(),
            Difference::FinalLineEnd { missing: true } => {
                "no line end after the last line".to_owned()
            }
            Difference::FinalLineEnd { missing: false } => {
                "a line end after the last line, where none is expected".to_owned()
            }
            Difference::CarriageReturns => "lines end with CR LF (Windows line ends)".to_owned(),
            Difference::ExtraEmptyLines {
                count,
                at_end: true,
                ..
            } => format!(
                "{} at the end",
                many(count, "an extra empty line", "extra empty lines")
            ),
            Difference::ExtraEmptyLines { line, count, .. } => format!(
                "{} (line {line})",
                many(count, "an extra empty line", "extra empty lines")
            ),
            Difference::ExtraLines { line, count } => format!(
                "{} at the end (line {line})",
                many(count, "an extra line", "extra lines")
            ),
            Difference::MissingLines { line, count } => format!(
                "{} at the end (line {line})",
                many(count, "a missing line", "lines missing")
            ),
            Difference::TrailingSpaces { line } => {
                format!("trailing spaces or tabs (line {line})")
            }
            Difference::TrailingWhiteSpace => {
                "white space at the ends of lines or of the output".to_owned()
            }
            Difference::Spacing { line } => format!("other spacing inside a line (line {line})"),
            Difference::DifferentLine {
                line,
                row: Some(row),
            } => format!("a different row {row} of the board (line {line})"),
            Difference::DifferentLine { line, row: None } => format!("a different line {line}"),
        }
    }
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
    /// The two messages when both texts are a driver's error line,
    /// `error "MESSAGE"` (Peg Reversal's error cases): the expected one,
    /// then the actual one.
    pub fn error_messages(&self) -> Option<(String, String)> {
        use crate::assignment::peg_reversal::error_message;
        let (mut expected, mut actual) = (String::new(), String::new());
        for line in self.hunks.iter().flat_map(|h| &h.lines) {
            let text: String = line.runs.iter().map(|(_, t)| t.as_str()).collect();
            if line.kind != LineKind::Actual {
                expected.push_str(&text);
                expected.push('\n');
            }
            if line.kind != LineKind::Expected {
                actual.push_str(&text);
                actual.push('\n');
            }
        }
        Some((error_message(&expected)?, error_message(&actual)?))
    }

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
        Some(Diff {
            hunks,
            cut,
            difference: Some(Difference::of(expected, actual)),
            passes_with: Compare::ALL.into_iter().find(|c| c.equal(expected, actual)),
        })
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

    const BOARD: &str = "\"Result\"\n\"----\"\n\"-12-\"\n\"\"\n";

    fn of(actual: &str) -> (String, Option<Compare>) {
        let diff = Diff::new(BOARD, actual).unwrap();
        (diff.difference.unwrap().words(), diff.passes_with)
    }

    #[test]
    fn each_kind_of_difference_by_hand() {
        let tw = Some(Compare::TrailingWhitespace);
        for (actual, words, passes) in [
            (format!("{BOARD}\n"), "an extra empty line at the end", tw),
            (format!("{BOARD}\n\n"), "2 extra empty lines at the end", tw),
            (
                BOARD.replacen("\n", "\n\n", 1),
                "an extra empty line (line 2)",
                Some(Compare::Whitespace),
            ),
            (
                BOARD.trim_end().to_owned(),
                "no line end after the last line",
                tw,
            ),
            (
                BOARD.replace('\n', "\r\n"),
                "lines end with CR LF (Windows line ends)",
                tw,
            ),
            (
                BOARD.replace("\"\n", "\" \n"),
                "trailing spaces or tabs (line 1)",
                tw,
            ),
            (
                BOARD.replace("\"-12-\"\n", "\"-12-\"\t\n"),
                "trailing spaces or tabs (line 3)",
                tw,
            ),
            (
                format!("{BOARD}\"x\"\n"),
                "an extra line at the end (line 5)",
                None,
            ),
            (
                "\"Result\"\n\"----\"\n".to_owned(),
                "2 lines missing at the end (line 3)",
                None,
            ),
            (
                BOARD.replace("-12-", "-11-"),
                "a different row 2 of the board (line 3)",
                None,
            ),
            (
                BOARD.replace("Result", "result"),
                "a different line 1",
                None,
            ),
            (
                BOARD.replace("\"\"\n", "\"\" \n\n"),
                "white space at the ends of lines or of the output",
                tw,
            ),
            (
                BOARD.replace("\"Result\"", "\"Result\"  \"x\""),
                "a different line 1",
                None,
            ),
            (String::new(), "no output", None),
        ] {
            assert_eq!(of(&actual), (words.to_owned(), passes), "{actual:?}");
        }
        // White space inside a line only the loosest comparison forgives.
        let spaced = "a  b\n";
        let diff = Diff::new("a b\n", spaced).unwrap();
        assert_eq!(
            diff.difference.map(Difference::words).as_deref(),
            Some("other spacing inside a line (line 1)")
        );
        assert_eq!(diff.passes_with, Some(Compare::Whitespace));
    }
}
