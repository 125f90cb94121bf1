//! Showing text a student controls: program output, standard error, GHC's
//! messages, file and folder names, roster fields.
//!
//! Every renderer (the human report, JSON, JUnit, Gradescope, HTML, the
//! gradebook's table and CSV, messages on standard error) passes such text
//! through this module, so nothing a student wrote reaches a terminal, a
//! browser or a spreadsheet as anything but visible characters. The module
//! knows no renderer: each one adds its own syntax (HTML entities, XML,
//! CSV quoting) to what these functions return.
//!
//! What is escaped ([`needs_escape`]): the control characters (C0
//! U+0000–U+001F, DEL U+007F, C1 U+0080–U+009F, that is Unicode's category
//! Cc) and the bidirectional embeddings, overrides and isolates
//! (U+202A–U+202E, U+2066–U+2069), which can make a line display in another
//! order than it reads (the "Trojan Source" characters). Each is written as
//! Rust writes it: `\t`, `\n`, `\r`, else `\u{1b}`; a byte that is not
//! UTF-8 (in a file name) as `\xe9`. Everything else, backslashes included,
//! is kept as it is, so printable text comes out unchanged and escaping
//! twice gives what escaping once gave.
//!
//! [`text`] keeps line ends and tabs (for multi-line text such as standard
//! error), [`line()`] escapes them too (for one-line fields: names, notes,
//! reasons). [`csv_cell`] also neutralises spreadsheet formulas.
//!
//! ```
//! use cnf_grader::escape;
//! assert_eq!(escape::line("a\u{1b}]0;title\u{7}b"), "a\\u{1b}]0;title\\u{7}b");
//! assert_eq!(escape::text("one\ntwo\r\n"), "one\ntwo\\r\n");
//! assert_eq!(escape::bytes(b"R\xe9sum\xe9.hs"), "R\\xe9sum\\xe9.hs");
//! assert_eq!(escape::csv_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;

/// Whether `c` is shown as an escape: a control character (C0, DEL, C1) or
/// a bidirectional embedding, override or isolate.
pub fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Appends the escape of `c` to `out`.
fn push_escape(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

/// `input` with every character that `escape(c)` says escaped; borrowed
/// when nothing needs it.
fn escape_where(input: &str, escape: impl Fn(char) -> bool) -> Cow<'_, str> {
    let Some(first) = input.find(&escape) else {
        return Cow::Borrowed(input);
    };
    let mut out = String::with_capacity(input.len() + 16);
    out.push_str(&input[..first]);
    for c in input[first..].chars() {
        if escape(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One-line text (a name, a note, a reason): every character of
/// [`needs_escape`], line ends and tabs included, shown as an escape.
pub fn line(input: &str) -> Cow<'_, str> {
    escape_where(input, needs_escape)
}

/// Multi-line text (standard error, GHC's messages): as [`line()`], but line
/// feeds and tabs are kept (a carriage return is still shown, as `\r`).
pub fn text(input: &str) -> Cow<'_, str> {
    escape_where(input, |c| needs_escape(c) && !matches!(c, '\n' | '\t'))
}

/// Bytes that may not be UTF-8 (a file name) as one line: what is UTF-8
/// as [`line()`] shows it, every other byte as `\xNN`.
pub fn bytes(input: &[u8]) -> String {
    let mut out = String::with_capacity(input.len());
    for chunk in input.utf8_chunks() {
        out.push_str(&line(chunk.valid()));
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// A path as one line, its bytes shown by [`bytes`] (so a name that is not
/// UTF-8 is shown exactly, not with U+FFFD).
pub fn path(input: &Path) -> String {
    bytes(input.as_os_str().as_encoded_bytes())
}

/// The characters that make a spreadsheet read a cell as a formula when it
/// begins with one (OWASP's list for CSV injection).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A CSV cell of text a student or a roster controls: escaped as [`line()`],
/// then, when it begins with `=`, `+`, `-`, `@`, a tab or a carriage return,
/// prefixed with `'` so a spreadsheet shows it as text instead of running
/// it as a formula (OWASP's advice). Numbers the grader writes itself are
/// not cells of this kind and never pass through here.
pub fn csv_cell(input: &str) -> String {
    let shown = line(input);
    if shown.starts_with(FORMULA_STARTS) {
        format!("'{shown}")
    } else {
        shown.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_by_hand() {
        // OSC 52 (clipboard), a window title, clear screen, an OSC 8 link.
        assert_eq!(
            line("\u{1b}]52;c;aGk=\u{7}\u{1b}]0;t\u{7}\u{1b}[2J\u{1b}]8;;http://x/\u{7}y"),
            "\\u{1b}]52;c;aGk=\\u{7}\\u{1b}]0;t\\u{7}\\u{1b}[2J\\u{1b}]8;;http://x/\\u{7}y"
        );
        assert_eq!(line("a\tb\nc\r"), "a\\tb\\nc\\r");
        assert_eq!(text("a\tb\nc\r\n"), "a\tb\nc\\r\n");
        assert_eq!(line("\0\u{7f}\u{85}\u{9b}"), "\\u{0}\\u{7f}\\u{85}\\u{9b}");
        assert_eq!(
            line("abc\u{202e}fdp.exe\u{2066}\u{2069}\u{202a}"),
            "abc\\u{202e}fdp.exe\\u{2066}\\u{2069}\\u{202a}"
        );
        // Printable text, backslashes and other scripts included, is kept.
        for kept in ["", "plain", "ümlaut ·→ \\u{1b} 日本 \u{200f}", "=1+2"] {
            assert!(matches!(line(kept), Cow::Borrowed(_)), "{kept}");
            assert_eq!(line(kept), kept);
        }
    }

    #[test]
    fn bytes_show_what_is_not_utf8() {
        assert_eq!(bytes(b"R\xe9sum\xe9.hs"), "R\\xe9sum\\xe9.hs");
        assert_eq!(bytes(b"\xff\xfe\x1b[2J"), "\\xff\\xfe\\u{1b}[2J");
        assert_eq!(bytes("né".as_bytes()), "né");
        use std::os::unix::ffi::OsStrExt as _;
        assert_eq!(
            path(Path::new(std::ffi::OsStr::from_bytes(b"class/\xe9t\xe9"))),
            "class/\\xe9t\\xe9"
        );
    }

    #[test]
    fn csv_cells_that_start_a_formula_get_a_quote() {
        assert_eq!(
            csv_cell("=HYPERLINK(\"http://x\",\"y\")"),
            "'=HYPERLINK(\"http://x\",\"y\")"
        );
        assert_eq!(csv_cell("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0");
        assert_eq!(csv_cell("-2+3"), "'-2+3");
        assert_eq!(csv_cell("@SUM(1+1)"), "'@SUM(1+1)");
        // A tab or carriage return is escaped first; the cell then starts
        // with a backslash, which no spreadsheet reads as a formula.
        assert_eq!(csv_cell("\t=1"), "\\t=1");
        assert_eq!(csv_cell("\r=1"), "\\r=1");
        assert_eq!(csv_cell("ann"), "ann");
        assert_eq!(csv_cell("a=b"), "a=b");
        assert_eq!(csv_cell(""), "");
    }

    /// Strings with many of the characters that matter.
    fn tricky() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::string::string_regex(
            "([\\x00-\\x1f\\x7f\\u{80}-\\u{9f}\\u{202a}-\\u{202e}\\u{2066}-\\u{2069}=+@\\\\a-z -]|\\PC)*",
        )
        .expect("a valid pattern")
    }

    proptest::proptest! {
        #[test]
        fn output_holds_no_control_character(s in tricky()) {
            proptest::prop_assert!(!line(&s).chars().any(needs_escape));
            proptest::prop_assert!(!text(&s).chars().any(|c| needs_escape(c) && c != '\n' && c != '\t'));
            proptest::prop_assert!(!csv_cell(&s).chars().any(needs_escape));
            let csv = csv_cell(&s);
            proptest::prop_assert!(!csv.starts_with(FORMULA_STARTS));
        }

        #[test]
        fn printable_text_is_unchanged_and_escaping_twice_is_escaping_once(s in tricky()) {
            let once = line(&s).into_owned();
            proptest::prop_assert_eq!(line(&once), once.as_str());
            proptest::prop_assert_eq!(text(&once), once.as_str());
            let kept: String = s.chars().filter(|c| !needs_escape(*c)).collect();
            proptest::prop_assert_eq!(line(&kept), kept.as_str());
            proptest::prop_assert_eq!(text(&s).replace('\n', "\\n").replace('\t', "\\t"), once);
        }

        #[test]
        fn bytes_agree_with_line_on_utf8_and_never_hold_a_control(b in proptest::collection::vec(proptest::num::u8::ANY, 0..64)) {
            let shown = bytes(&b);
            proptest::prop_assert!(!shown.chars().any(needs_escape));
            if let Ok(s) = std::str::from_utf8(&b) {
                proptest::prop_assert_eq!(shown, line(s).into_owned());
            }
        }
    }
}
