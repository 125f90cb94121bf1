//! Problems found in a source text, located by byte offset and shown as
//! `FILE:LINE:COLUMN: message` with the source line and a caret; line and
//! column are worked out only when displaying.

use std::fmt;

/// One problem in a source text, located at a byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Byte offset of the offending character in the source.
    pub offset: usize,
    /// What is wrong, as a sentence fragment (`expected …, found …`).
    pub message: String,
}

impl Diagnostic {
    /// A problem at `offset` described by `message`.
    pub fn new(offset: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            offset,
            message: message.into(),
        }
    }

    /// The problem, rendered against its source for a person to read.
    pub fn render<'a>(&'a self, file: &'a str, source: &'a str) -> Rendered<'a> {
        Rendered {
            diagnostics: std::slice::from_ref(self),
            file,
            source,
        }
    }
}

/// Every problem found in one source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The problems, rendered against their source for a person to read.
    pub fn render<'a>(&'a self, file: &'a str, source: &'a str) -> Rendered<'a> {
        Rendered {
            diagnostics: &self.0,
            file,
            source,
        }
    }

    /// The first problem (there is always at least one).
    pub fn first(&self) -> &Diagnostic {
        &self.0[0]
    }
}

/// At most this many problems are shown; the rest are counted.
const SHOWN: usize = 20;
/// Lines longer than this are shown as a window around the column.
const WINDOW: usize = 100;

/// Problems with their file name and source, ready to display.
#[derive(Debug)]
pub struct Rendered<'a> {
    diagnostics: &'a [Diagnostic],
    file: &'a str,
    source: &'a str,
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let all = self.diagnostics;
        for (i, d) in all.iter().take(SHOWN).enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write_one(f, self.file, self.source, d)?;
        }
        if all.len() > SHOWN {
            write!(f, "\n... and {} more problems", all.len() - SHOWN)?;
        }
        Ok(())
    }
}

/// The text after a leading byte-order mark (U+FEFF, as Windows Notepad
/// saves UTF-8), or all of it. The mark is not part of the text: readers skip
/// it, and [`line_column`] and the rendered line do not count or show it.
pub fn skip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// 1-based line and column (in characters) of a byte offset; a leading
/// byte-order mark is not counted.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let bom = source.len() - skip_bom(source).len();
    let line_start = before.rfind('\n').map_or(bom.min(offset), |p| p + 1);
    let column = source[line_start..offset].chars().count() + 1;
    (line, column)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn write_one(f: &mut fmt::Formatter<'_>, file: &str, source: &str, d: &Diagnostic) -> fmt::Result {
    let (line, column) = line_column(source, d.offset);
    writeln!(f, "{file}:{line}:{column}: {}", d.message)?;
    let text = source.lines().nth(line - 1).unwrap_or("");
    let text = if line == 1 { skip_bom(text) } else { text };
    let text = text.strip_suffix('\r').unwrap_or(text);
    let chars: Vec<char> = text.chars().collect();
    // Show a window of the line when it is long, keeping the caret inside.
    let (start, end) = if chars.len() <= WINDOW {
        (0, chars.len())
    } else {
        let start = (column - 1).saturating_sub(WINDOW / 2);
        (start, (start + WINDOW).min(chars.len()))
    };
    let mut shown: String = chars[start..end]
        .iter()
        .map(|&c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut lead = String::new();
    if start > 0 {
        shown.insert_str(0, "...");
        lead.push_str("...");
    }
    if end < chars.len() {
        shown.push_str("...");
    }
    let gutter = line.to_string();
    let pad = " ".repeat(gutter.len());
    writeln!(f, "{gutter} | {shown}")?;
    let caret_at = lead.len() + (column - 1 - start);
    write!(f, "{pad} | {}^", " ".repeat(caret_at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based_and_count_characters() {
        let src = "ab\ncé\r\nxyz";
        assert_eq!(line_column(src, 0), (1, 1));
        assert_eq!(line_column(src, 3), (2, 1));
        // 'x' sits after "cé\r\n": é is two bytes.
        assert_eq!(line_column(src, src.find('x').unwrap()), (3, 1));
        assert_eq!(line_column(src, src.find('\r').unwrap()), (2, 3));
        assert_eq!(line_column(src, src.len()), (3, 4));
    }

    #[test]
    fn a_byte_order_mark_is_neither_counted_nor_shown() {
        let src = "\u{feff}(x";
        assert_eq!(line_column(src, src.find('x').unwrap()), (1, 2));
        assert_eq!(line_column(src, 0), (1, 1));
        let d = Diagnostic::new(src.find('x').unwrap(), "bad");
        assert_eq!(
            d.render("g.cnf", src).to_string(),
            "g.cnf:1:2: bad\n1 | (x\n  |  ^"
        );
        assert_eq!(skip_bom(src), "(x");
        assert_eq!(skip_bom("(x\u{feff}"), "(x\u{feff}");
    }

    #[test]
    fn renders_header_line_and_caret() {
        let src = "(\n[\"--\",\n\"-x\"]\n";
        let d = Diagnostics(vec![Diagnostic::new(src.find('x').unwrap(), "bad cell")]);
        assert_eq!(
            d.render("g.cnf", src).to_string(),
            "g.cnf:3:3: bad cell\n3 | \"-x\"]\n  |   ^"
        );
    }

    #[test]
    fn long_lines_are_windowed_around_the_caret() {
        let src = format!("{}x{}", "-".repeat(5000), "-".repeat(5000));
        let d = Diagnostics(vec![Diagnostic::new(5000, "here")]);
        let out = d.render("f", &src).to_string();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "f:1:5001: here");
        assert!(lines[1].len() < 120);
        let caret = lines[2].find('^').unwrap();
        assert_eq!(lines[1].as_bytes()[caret], b'x');
    }
}
