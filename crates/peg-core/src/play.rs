//! The terminal game: one line per turn (a position, or `hint`, `undo`,
//! `moves`, `count`, `help`, `quit`), the board drawn after each move.
//!
//! Generic over its input and output, so a whole game is a byte-exact
//! transcript in a test. A line is read as bytes and shown with invalid
//! UTF-8 replaced, so a stray byte is one unreadable move, not the end of
//! the game; end of input ends the game quietly on a fresh line.

use std::io::{self, BufRead, Write};

use crate::count::count_board;
use crate::game::{Game, list_positions, render_game};
use crate::parse::parse_position_arg;
use crate::rules::MoveRefusal;

/// The commands of the game, as the game explains them.
pub const HELP: &str = "Type a position to flip that black peg white (x,y such as 1,0 or (-2,1)),\n\
or a command: hint (suggest a move), undo (take back the last move),\n\
moves (list the valid moves), count (the number of ways to finish from here),\n\
quit (leave the game).";

fn show_turn(game: &Game, out: &mut impl Write, color: bool) -> io::Result<()> {
    write!(out, "\n{}", render_game(game, color))?;
    writeln!(out, "Valid moves: {}", list_positions(&game.valid_moves()))?;
    Ok(())
}

fn prompt(game: &Game, out: &mut impl Write) -> io::Result<()> {
    write!(out, "move {}> ", game.history().len() + 1)?;
    out.flush()
}

/// Plays `game`: reads one line per turn from `input`, writes to `out`,
/// drawing the board in colour when `color` is set.
pub fn play(game: Game, input: impl BufRead, out: &mut impl Write, color: bool) -> io::Result<()> {
    play_with_progress(game, input, out, color, &mut |_| {})
}

/// [`play`], telling `working` what takes a while (`Some` of what it is,
/// e.g. `count` on a full board takes seconds) and when it is done
/// (`None`), so a front end can show it on a terminal; the transcript on
/// `out` stays the same.
pub fn play_with_progress(
    mut game: Game,
    mut input: impl BufRead,
    out: &mut impl Write,
    color: bool,
    working: &mut dyn FnMut(Option<&str>),
) -> io::Result<()> {
    writeln!(
        out,
        "Peg Reversal: turn every peg white. W is a white peg, B a black one.\nYou start with the white peg at {}.\n{HELP}",
        game.start()
    )?;
    show_turn(&game, out, color)?;
    prompt(&game, out)?;
    let mut taken_back = 0usize;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buf);
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "q" | "exit" => {
                writeln!(out, "Bye.")?;
                return Ok(());
            }
            "help" | "?" => writeln!(out, "{HELP}")?,
            "moves" => writeln!(out, "Valid moves: {}", list_positions(&game.valid_moves()))?,
            "count" => {
                out.flush()?;
                working(Some("counting the ways to finish from here"));
                let counted = count_board(game.board());
                working(None);
                match counted {
                    Ok(r) => writeln!(out, "Ways to finish from here: {}.", r.orderings)?,
                    Err(e) => writeln!(out, "Cannot count: {e}.")?,
                }
            }
            "hint" => match game.hint() {
                Some(m) => writeln!(out, "Hint: try {}.", m.0)?,
                None => writeln!(out, "No move is left.")?,
            },
            "undo" => match game.undo() {
                Some(p) => {
                    taken_back += 1;
                    writeln!(out, "Took back {p}; it is black again.")?;
                    show_turn(&game, out, color)?;
                }
                None => writeln!(out, "Nothing to undo: no move has been made yet.")?,
            },
            _ => match parse_position_arg(word) {
                Err(e) => writeln!(
                    out,
                    "Cannot read `{word}` as a position or command: {}.\n{HELP}",
                    e.message
                )?,
                Ok(pos) => match game.play(pos) {
                    Err(reason) => {
                        let why = match reason {
                            MoveRefusal::NoWhiteNeighbour(_) => {
                                format!("{reason}: flip a black peg next to a white one")
                            }
                            _ => reason.to_string(),
                        };
                        writeln!(out, "Refused: {why}. Try again.")?;
                    }
                    Ok(()) => {
                        if game.is_won() {
                            write!(out, "\n{}", render_game(&game, color))?;
                            let undo_note = match taken_back {
                                0 => String::new(),
                                1 => " (1 move taken back on the way)".to_string(),
                                n => format!(" ({n} moves taken back on the way)"),
                            };
                            writeln!(
                                out,
                                "Congratulations! Every peg is white: you won in {} moves{undo_note}.",
                                game.history().len()
                            )?;
                            return Ok(());
                        }
                        show_turn(&game, out, color)?;
                    }
                },
            },
        }
        prompt(&game, out)?;
    }
    // End of input: quit quietly, leaving the terminal on a fresh line.
    writeln!(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Position;

    fn transcript(start: (i64, i64), input: &str) -> String {
        let mut out = Vec::new();
        let game = Game::new(Position::new(start.0, start.1)).unwrap();
        play(game, input.as_bytes(), &mut out, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_moves_next_to_the_start_are_offered_and_quit_says_bye() {
        let t = transcript((0, 0), "quit\n");
        assert!(t.starts_with(
            "Peg Reversal: turn every peg white. W is a white peg, B a black one.\n\
             You start with the white peg at (0,0).\n"
        ));
        // The centre's four neighbours, in the canonical order (spec: x, then y).
        assert!(
            t.contains("Valid moves: (-1,0) (0,-1) (0,1) (1,0)\n"),
            "{t}"
        );
        assert!(t.ends_with("move 1> Bye.\n"), "{t}");
    }

    #[test]
    fn a_refused_move_an_unreadable_line_and_end_of_input() {
        // (2,0) has no white neighbour; `zz` is no position; then end of input.
        let t = transcript((0, 0), "2,0\nzz\n");
        assert!(t.contains("move 1> Refused: "), "{t}");
        assert!(
            t.contains("flip a black peg next to a white one. Try again.\n"),
            "{t}"
        );
        assert!(
            t.contains("Cannot read `zz` as a position or command: "),
            "{t}"
        );
        // The prompt's line is ended.
        assert!(t.ends_with("move 1> \n"), "{t}");
    }

    #[test]
    fn a_move_then_undo() {
        let t = transcript((0, 0), "1,0\nundo\nundo\n");
        assert!(
            t.contains("move 2> Took back (1,0); it is black again.\n"),
            "{t}"
        );
        assert!(
            t.contains("Nothing to undo: no move has been made yet.\n"),
            "{t}"
        );
    }
}
