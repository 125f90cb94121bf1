//! The Peg readers (board, state, list of states, position, move, peg,
//! colour, the loose position of the command line): never panic, and what
//! parses is shown (as Haskell's `show`) and reads back to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use peg_core::parse::{
    parse_board, parse_color, parse_move, parse_peg, parse_position, parse_position_arg,
    parse_state, parse_states,
};
use peg_core::types::show_list;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match which % 8 {
        0 => {
            if let Ok(board) = parse_board(text) {
                assert_eq!(parse_board(&board.to_string()), Ok(board));
            }
        }
        1 => {
            if let Ok(state) = parse_state(text) {
                assert_eq!(parse_state(&state.to_string()), Ok(state));
            }
        }
        2 => {
            if let Ok(states) = parse_states(text) {
                assert_eq!(parse_states(&show_list(&states)), Ok(states));
            }
        }
        3 => {
            if let Ok(pos) = parse_position(text) {
                assert_eq!(parse_position(&pos.to_string()), Ok(pos));
            }
        }
        4 => {
            if let Ok(mv) = parse_move(text) {
                assert_eq!(parse_move(&mv.to_string()), Ok(mv));
            }
        }
        5 => {
            if let Ok(peg) = parse_peg(text) {
                assert_eq!(parse_peg(&peg.to_string()), Ok(peg));
            }
        }
        6 => {
            if let Ok(color) = parse_color(text) {
                assert_eq!(parse_color(&color.to_string()), Ok(color));
            }
        }
        _ => {
            if let Ok(pos) = parse_position_arg(text) {
                assert_eq!(parse_position_arg(&pos.to_string()), Ok(pos));
                assert_eq!(parse_position(&pos.to_string()), Ok(pos));
            }
        }
    }
});
