//! Property tests: games rendered as `.cnf` text, and boards rendered as
//! `.solution` text, read back to the same values.

use cnf_grader::format::cnf::{parse_cnf, render_cnf};
use cnf_grader::format::solution::{parse_solution, render_solution};
use connect_core::Board;
use proptest::prelude::*;

fn game() -> impl Strategy<Value = (Board, Vec<i64>)> {
    (1usize..=12, 1usize..=12).prop_flat_map(|(w, h)| {
        let cell = prop_oneof![
            4 => Just('-'),
            1 => proptest::char::range('1', '9'),
            1 => proptest::char::range('a', 'z'),
        ];
        let rows = proptest::collection::vec(proptest::collection::vec(cell, w), h);
        let moves = proptest::collection::vec(1..=w as i64, 0..30);
        (rows, moves).prop_map(|(rows, moves)| {
            let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
            (Board::from_rows(rows).unwrap(), moves)
        })
    })
}

/// Separators `read` skips: any mix of white space characters.
fn spacing() -> impl Strategy<Value = String> {
    let space = prop_oneof![Just(' '), Just('\t'), Just('\n'), Just('\r'), Just('\x0c')];
    proptest::collection::vec(space, 0..3).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #[test]
    fn cnf_text_reads_back((board, moves) in game()) {
        let text = render_cnf(&board, &moves);
        let parsed = parse_cnf(&text)
            .map_err(|d| TestCaseError::fail(d.render("g", &text).to_string()))?;
        prop_assert_eq!(parsed.board, board);
        prop_assert_eq!(parsed.moves, moves);
    }

    #[test]
    fn any_spacing_between_tokens_reads_the_same(
        (board, moves) in game(),
        gaps in proptest::collection::vec(spacing(), 64),
    ) {
        let text = render_cnf(&board, &moves);
        // Drop the layout's newlines and put random spacing after every
        // comma, bracket and parenthesis instead.
        let mut spaced = String::new();
        for (k, c) in text.chars().filter(|&c| c != '\n').enumerate() {
            spaced.push(c);
            if matches!(c, ',' | '[' | ']' | '(' | ')') {
                spaced.push_str(&gaps[k % gaps.len()]);
            }
        }
        let parsed = parse_cnf(&spaced)
            .map_err(|d| TestCaseError::fail(d.render("g", &spaced).to_string()))?;
        prop_assert_eq!(parsed.board, board);
        prop_assert_eq!(parsed.moves, moves);
    }

    #[test]
    fn solution_text_reads_back((board, _moves) in game()) {
        let rows = parse_solution(&render_solution(&board)).unwrap();
        prop_assert_eq!(rows, board.row_strings().collect::<Vec<_>>());
    }
}
