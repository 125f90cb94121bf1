//! How an output is compared with its expected result.
//!
//! Decisions: `exact` (the default) compares byte for byte, as the course's
//! harness did; `trailing-whitespace` ignores what a line ends with (spaces,
//! tabs, a CR) and a missing or extra final line end; `whitespace` treats
//! any run of white space as one space and ignores white space at the
//! start and end of lines and of the output. A case that passes only
//! because of a relaxed mode is marked (`CaseReport::relaxed`) and the
//! instructor's reports say so.

use std::fmt;
use std::str::FromStr;

/// The comparison of an output with its expected result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compare {
    /// Byte for byte.
    #[default]
    Exact,
    /// Line ends (CRLF or LF), trailing spaces and tabs, and a missing or
    /// extra final newline do not count.
    TrailingWhitespace,
    /// Any run of white space equals any other.
    Whitespace,
}

impl Compare {
    /// Every mode, in the order of `--help`.
    pub const ALL: [Compare; 3] = [
        Compare::Exact,
        Compare::TrailingWhitespace,
        Compare::Whitespace,
    ];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Compare::Exact => "exact",
            Compare::TrailingWhitespace => "trailing-whitespace",
            Compare::Whitespace => "whitespace",
        }
    }

    /// Whether `actual` is taken as equal to `expected` in this mode.
    pub fn equal(self, expected: &str, actual: &str) -> bool {
        match self {
            Compare::Exact => expected == actual,
            Compare::TrailingWhitespace => trimmed_lines(expected).eq(trimmed_lines(actual)),
            Compare::Whitespace => expected.split_whitespace().eq(actual.split_whitespace()),
        }
    }
}

/// The lines without what they end with, and without trailing empty lines.
fn trimmed_lines(text: &str) -> impl Iterator<Item = &str> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.trim_end_matches([' ', '\t', '\r']))
        .collect();
    let keep = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |i| i + 1);
    lines.into_iter().take(keep)
}

impl fmt::Display for Compare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Compare {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Compare::ALL
            .into_iter()
            .find(|c| c.name() == text)
            .ok_or_else(|| {
                format!("{text:?} is not a comparison; expected exact, trailing-whitespace or whitespace")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = "\"Result\"\n\"--\"\n\"\"\n";

    #[test]
    fn each_mode_by_hand() {
        let crlf = SPEC.replace('\n', "\r\n");
        let trailing = "\"Result\"  \n\"--\"\t\n\"\"";
        let spaced = " \"Result\"   \"--\"\n\n\"\" ";
        for (actual, exact, trailing_ok, ws_ok) in [
            (SPEC, true, true, true),
            (crlf.as_str(), false, true, true),
            (trailing, false, true, true),
            (&format!("{SPEC}\n\n"), false, true, true),
            (spaced, false, false, true),
            ("\"Result\"\n\"-\"\n\"\"\n", false, false, false),
            ("\"Result\"\n\" --\"\n\"\"\n", false, false, false),
        ] {
            assert_eq!(Compare::Exact.equal(SPEC, actual), exact, "{actual:?}");
            assert_eq!(
                Compare::TrailingWhitespace.equal(SPEC, actual),
                trailing_ok,
                "{actual:?}"
            );
            assert_eq!(Compare::Whitespace.equal(SPEC, actual), ws_ok, "{actual:?}");
        }
    }

    #[test]
    fn names_read_back() {
        for c in Compare::ALL {
            assert_eq!(c.name().parse::<Compare>(), Ok(c));
        }
        assert!(
            "fuzzy"
                .parse::<Compare>()
                .unwrap_err()
                .contains("expected exact")
        );
    }
}
