//! The `.solution` format: what the course's programs printed with `print`.
//!
//! ```text
//! "Result"
//! "------"      one line per row, top to bottom, as a Haskell string
//! ""
//! ```
//!
//! Every line ends with LF, including the last.

use connect_core::Board;

use crate::format::diagnostic::{Diagnostic, Diagnostics};
use crate::format::haskell::{describe_found, is_space, show_string, string_literal};

/// The header line's string.
const HEADER: &str = "Result";

/// The board in `.solution` format.
pub fn render_solution(board: &Board) -> String {
    let mut out = String::with_capacity((board.width() + 3) * (board.height() + 2) + 10);
    out.push_str(&show_string(HEADER));
    out.push('\n');
    for row in board.row_strings() {
        out.push_str(&show_string(&row));
        out.push('\n');
    }
    out.push_str("\"\"\n");
    out
}

/// Reads a `.solution` file back into its rows, top to bottom.
///
/// Lines may end with CRLF and carry spaces around the string; the rows are
/// not checked as board cells, so a wrong result can still be read and shown.
pub fn parse_solution(source: &str) -> Result<Vec<String>, Diagnostics> {
    let err =
        |offset: usize, message: String| Err(Diagnostics(vec![Diagnostic::new(offset, message)]));
    let mut strings = Vec::new();
    let mut offset = 0;
    let body = source.strip_suffix('\n').unwrap_or(source);
    if body.is_empty() {
        return err(
            0,
            "expected the line \"Result\", found an empty file".to_owned(),
        );
    }
    for line in body.split('\n') {
        let text = line.strip_suffix('\r').unwrap_or(line);
        let lead = text.len() - text.trim_start_matches(is_space).len();
        let at = &text[lead..];
        match string_literal(at) {
            Ok((rest, (value, _))) if rest.trim_matches(is_space).is_empty() => {
                strings.push((offset + lead, value));
            }
            Ok((rest, _)) => {
                let pos = offset + text.len() - rest.trim_start_matches(is_space).len();
                return err(
                    pos,
                    format!(
                        "expected end of line after the string, found {}",
                        describe_found(&source[pos..])
                    ),
                );
            }
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                let pos = offset + lead + (at.len() - e.at.len());
                let found = describe_found(&source[pos..]);
                let msg = match e.message {
                    None if e.at.len() == at.len() => {
                        format!("expected a row as a quoted string such as \"--1-\", found {found}")
                    }
                    None => format!("expected {}, found {found}", e.expected_text()),
                    Some(m) => m,
                };
                return err(pos, msg);
            }
            Err(nom::Err::Incomplete(_)) => return err(offset, "incomplete line".to_owned()),
        }
        offset += line.len() + 1;
    }
    let (first_at, first) = &strings[0];
    if first != HEADER {
        return err(
            *first_at,
            format!(
                "expected the line \"Result\" first, found {}",
                show_string(first)
            ),
        );
    }
    if strings.len() < 2 || !strings[strings.len() - 1].1.is_empty() {
        return err(
            source.len(),
            "expected the closing line \"\" after the rows, found end of input".to_owned(),
        );
    }
    let rows = strings.len() - 2;
    Ok(strings
        .into_iter()
        .skip(1)
        .take(rows)
        .map(|(_, s)| s)
        .collect())
}

/// Why an expected result is broken, if it is: not in the result format,
/// a board of another size than the game's (`height` rows of `width`
/// cells), or not byte for byte what `print` writes (a CRLF, a space), so
/// that no program could match it byte for byte (checked when `strict`).
/// `path` names the file in the message.
pub fn check_expected(
    path: &str,
    source: &str,
    height: usize,
    width: usize,
    strict: bool,
) -> Result<(), String> {
    let rows = parse_solution(source).map_err(|d| {
        format!(
            "{path} is not in the result format:\n{}",
            d.render(path, source)
        )
    })?;
    if rows.len() != height || rows.iter().any(|r| r.chars().count() != width) {
        let found = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        return Err(format!(
            "{path} holds a board of {} {} of up to {found} {}, but the game's board has {height} {} of {width}",
            rows.len(),
            plural(rows.len(), "row", "rows"),
            plural(found, "cell", "cells"),
            plural(height, "row", "rows"),
        ));
    }
    let mut canonical = show_string(HEADER);
    canonical.push('\n');
    for row in &rows {
        canonical.push_str(&show_string(row));
        canonical.push('\n');
    }
    canonical.push_str("\"\"\n");
    if strict && canonical != source {
        let line = canonical
            .split_inclusive('\n')
            .zip(source.split_inclusive('\n'))
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| canonical.lines().count().min(source.lines().count()))
            + 1;
        return Err(format!(
            "{path} is not exactly what print writes (line {line} differs: \
             each line must be a quoted string ending with LF alone, with no spaces around it)"
        ));
    }
    Ok(())
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's `test03.onePlayerOneMove.solution`, byte for byte.
    const SPEC: &str = "\"Result\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"------\"\n\"-----2\"\n\"-12--3\"\n\"1132-2\"\n\"\"\n";

    #[test]
    fn renders_the_spec_example() {
        let board = Board::from_rows(
            std::iter::repeat_n("------", 7).chain(["-----2", "-12--3", "1132-2"]),
        )
        .unwrap();
        assert_eq!(render_solution(&board), SPEC);
    }

    #[test]
    fn parses_rows_back() {
        let rows = parse_solution(SPEC).unwrap();
        assert_eq!(rows.len(), 10);
        assert_eq!(rows[9], "1132-2");
        let crlf = SPEC.replace('\n', "\r\n");
        assert_eq!(parse_solution(&crlf).unwrap(), rows);
        // A board of zero rows still reads (a wrong program might print one).
        assert_eq!(
            parse_solution("\"Result\"\n\"\"\n").unwrap(),
            Vec::<String>::new()
        );
    }

    #[test]
    fn broken_expected_results_are_named() {
        assert_eq!(check_expected("s", SPEC, 10, 6, true), Ok(()));
        let e = check_expected("s", "", 10, 6, true).unwrap_err();
        assert!(
            e.starts_with("s is not in the result format:\ns:1:1: expected the line \"Result\""),
            "{e}"
        );
        assert_eq!(
            check_expected("s", "\"Result\"\n\"--\"\n\"\"\n", 10, 6, true).unwrap_err(),
            "s holds a board of 1 row of up to 2 cells, but the game's board has 10 rows of 6"
        );
        let e = check_expected("s", &SPEC.replace('\n', "\r\n"), 10, 6, true).unwrap_err();
        assert!(
            e.starts_with("s is not exactly what print writes (line 1 differs"),
            "{e}"
        );
        let e = check_expected("s", &SPEC.replace("\"-12--3\"", "\"-12--3\" "), 10, 6, true)
            .unwrap_err();
        assert!(e.contains("(line 10 differs"), "{e}");
        let e = check_expected("s", SPEC.strip_suffix('\n').unwrap(), 10, 6, true).unwrap_err();
        assert!(e.contains("(line 12 differs"), "{e}");
    }

    fn err(src: &str) -> String {
        parse_solution(src)
            .unwrap_err()
            .render("s", src)
            .to_string()
    }

    #[test]
    fn errors_name_the_place() {
        assert!(err("").starts_with("s:1:1: expected the line \"Result\", found an empty file"));
        assert!(
            err("\"Resul\"\n\"-\"\n\"\"\n")
                .starts_with("s:1:1: expected the line \"Result\" first, found \"Resul\"")
        );
        assert!(
            err("\"Result\"\n--1\n\"\"\n").starts_with(
                "s:2:1: expected a row as a quoted string such as \"--1-\", found '-'"
            )
        );
        assert!(
            err("\"Result\"\n\"-1\" x\n")
                .starts_with("s:2:6: expected end of line after the string, found 'x'")
        );
        assert!(
            err("\"Result\"\n\"-1\"\n")
                .starts_with("s:3:1: expected the closing line \"\" after the rows")
        );
        assert!(
            err("\"Result\"\n\"-1\n\"\"\n")
                .starts_with("s:2:4: expected '\"' to close the string, found end of line")
        );
    }
}
