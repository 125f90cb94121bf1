//! The `.solution` parser: never panics, errors render with a place, rows
//! that parse are written back (as `show` writes them) and read back equal,
//! and a valid board's `render_solution` reads back as its rows.
#![no_main]

use cnf_grader::show_string;
use cnf_grader::format::solution::{parse_solution, render_solution};
use connect_core::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    match parse_solution(source) {
        Ok(rows) => {
            let mut text = String::from("\"Result\"\n");
            for row in &rows {
                text.push_str(&show_string(row));
                text.push('\n');
            }
            text.push_str("\"\"\n");
            let again = parse_solution(&text).unwrap_or_else(|d| {
                panic!(
                    "the rows written back do not parse:\n{}",
                    d.render("s", &text)
                )
            });
            assert_eq!(again, rows, "write then read changed the rows");
            if let Ok(board) = Board::from_rows(rows.iter().map(String::as_str)) {
                assert_eq!(render_solution(&board), text);
            }
        }
        Err(d) => {
            assert!(!d.0.is_empty(), "an error without a diagnostic");
            let shown = d.render("fuzz.solution", source).to_string();
            assert!(shown.starts_with("fuzz.solution:"), "{shown}");
        }
    }
});
