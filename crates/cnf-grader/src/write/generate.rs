//! Making new random but valid games, with their four `.solution` files.
//!
//! Decisions: the random numbers come from ChaCha8 seeded with the given
//! seed, so a seed gives the same game on every machine and version of this
//! crate. The board is pre-filled by dropping pieces (so nothing floats):
//! first one piece of each player 1..=n (so the highest player, the `n` of
//! parts 3–4, is the requested number), then up to 40 % of the cells (at
//! most 2,000 pieces more, fewer on huge boards) of random players, leaving out any drop that
//! would make four in a row, so every function has moves to play. The moves
//! are uniform random columns, at most [`MAX_MOVES`] of them (a game file of
//! a few megabytes), as the board has at most [`MAX_CELLS`] cells: a limit
//! is refused with a message before anything is allocated.

use std::path::{Path, PathBuf};

use connect_core::{Board, Drop, Function, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::format::cnf::render_cnf;
use crate::format::solution::render_solution;
use crate::write::bless::{solution_path, write_atomically};

/// Most cells a generated board may have.
pub const MAX_CELLS: usize = 100_000_000;

/// Most moves a generated game may have (each is a number in the `.cnf`).
pub const MAX_MOVES: usize = 1_000_000;

/// The shape of a game to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenSpec {
    /// Number of rows (at least 1).
    pub rows: usize,
    /// Number of columns (at least 1).
    pub cols: usize,
    /// Number of players, 1 to 35.
    pub players: u8,
    /// Number of moves (at least 1: part 1 needs one).
    pub moves: usize,
    /// The random seed.
    pub seed: u64,
}

/// A generated game as file contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The `.cnf` text.
    pub cnf: String,
    /// The `.solution` text of each function, in part order.
    pub solutions: Vec<(Function, String)>,
}

/// Why a game cannot be made for a [`GenSpec`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenError {
    /// Occurs when the number of players is not 1 to 35.
    #[error("{0} players is out of range; expected 1 to 35")]
    Players(u8),
    /// Occurs when the board has no rows or no columns.
    #[error("a {rows}x{cols} board has no cells; the rows and columns must be at least 1")]
    NoCells {
        /// Its rows.
        rows: usize,
        /// Its columns.
        cols: usize,
    },
    /// Occurs when the board has more than [`MAX_CELLS`] cells.
    #[error("the board is too large; at most 100,000,000 cells")]
    TooLarge,
    /// Occurs when the board has fewer cells than players.
    #[error("a {rows}x{cols} board cannot hold one piece of each of {players} players")]
    TooManyPlayers {
        /// Its rows.
        rows: usize,
        /// Its columns.
        cols: usize,
        /// The players.
        players: u8,
    },
    /// Occurs when no move is asked for.
    #[error("a game needs at least 1 move (onePlayerOneMove needs a move)")]
    NoMoves,
    /// Occurs when more than [`MAX_MOVES`] moves are asked for.
    #[error("{0} moves is too many; at most 1,000,000 (a game file of a few megabytes)")]
    TooManyMoves(usize),
    /// Occurs when the game made cannot be played (a fault of this module).
    #[error("{0}")]
    Unplayable(String),
}

/// Makes the game for `spec`, or says which setting is unusable.
pub fn generate(spec: &GenSpec) -> Result<Generated, GenError> {
    let players = Player::new(spec.players).ok_or(GenError::Players(spec.players))?;
    let (rows, cols) = (spec.rows, spec.cols);
    if rows == 0 || cols == 0 {
        return Err(GenError::NoCells { rows, cols });
    }
    let cells = rows
        .checked_mul(cols)
        .filter(|&c| c <= MAX_CELLS)
        .ok_or(GenError::TooLarge)?;
    if cells < usize::from(spec.players) {
        return Err(GenError::TooManyPlayers {
            rows,
            cols,
            players: spec.players,
        });
    }
    if spec.moves == 0 {
        return Err(GenError::NoMoves);
    }
    if spec.moves > MAX_MOVES {
        return Err(GenError::TooManyMoves(spec.moves));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut board =
        Board::empty(spec.cols, spec.rows).map_err(|e| GenError::Unplayable(e.to_string()))?;
    // One piece of each player; no player has two pieces, so no four.
    for number in 1..=players.number() {
        let player = Player::new(number).ok_or(GenError::Players(number))?;
        loop {
            let column = rng.random_range(0..spec.cols);
            if let Drop::Landed { .. } = board.drop_piece(column, player) {
                break;
            }
        }
    }
    // Each extra piece is tried on a copy of the board: keep the copying
    // under about 10^8 bytes whatever the board's size.
    let extra_max = (cells * 2 / 5)
        .saturating_sub(usize::from(spec.players))
        .min(2000)
        .min(100_000_000 / cells);
    let extra = rng.random_range(0..=extra_max);
    for _ in 0..extra {
        let number = rng.random_range(1..=players.number());
        let player = Player::new(number).ok_or(GenError::Players(number))?;
        let column = rng.random_range(0..spec.cols);
        let mut next = board.clone();
        if let Drop::Landed { row } = next.drop_piece(column, player)
            && !next.has_four_through(row, column)
        {
            board = next;
        }
    }
    let moves: Vec<i64> = (0..spec.moves)
        .map(|_| rng.random_range(1..=spec.cols as i64))
        .collect();
    let mut solutions = Vec::new();
    for function in Function::ALL {
        let result = function.apply(&board, &moves, None).map_err(|e| {
            GenError::Unplayable(format!(
                "{function} cannot be played on the generated game: {e}"
            ))
        })?;
        solutions.push((function, render_solution(&result)));
    }
    Ok(Generated {
        cnf: render_cnf(&board, &moves),
        solutions,
    })
}

/// Writes `NAME.cnf` and its four `NAME.FUNCTION.solution` files, each
/// atomically; returns the paths written.
pub fn write_generated(name: &Path, game: &Generated) -> std::io::Result<Vec<PathBuf>> {
    let mut cnf = name.as_os_str().to_owned();
    cnf.push(".cnf");
    let cnf = PathBuf::from(cnf);
    if let Some(dir) = cnf.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    write_atomically(&cnf, game.cnf.as_bytes())?;
    let mut written = vec![cnf.clone()];
    for (function, text) in &game.solutions {
        let path = solution_path(&cnf, *function);
        write_atomically(&path, text.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::cnf::parse_cnf;

    fn spec(seed: u64) -> GenSpec {
        GenSpec {
            rows: 6,
            cols: 7,
            players: 3,
            moves: 20,
            seed,
        }
    }

    #[test]
    fn same_seed_same_game_other_seed_other_game() {
        assert_eq!(generate(&spec(7)), generate(&spec(7)));
        assert_ne!(generate(&spec(7)), generate(&spec(8)));
    }

    #[test]
    fn generated_games_are_valid_and_have_n_players_and_no_four() {
        for seed in 0..50 {
            let game = generate(&spec(seed)).unwrap();
            let parsed = parse_cnf(&game.cnf).unwrap();
            assert_eq!(parsed.board.highest_player().map(Player::number), Some(3));
            assert!(!parsed.board.has_four());
            assert_eq!(parsed.moves.len(), 20);
            assert!(parsed.moves.iter().all(|&m| (1..=7).contains(&m)));
        }
    }

    #[test]
    fn unusable_settings_are_explained() {
        let mut s = spec(1);
        s.players = 36;
        assert_eq!(generate(&s), Err(GenError::Players(s.players)));
        // In this module's terms: the command line adds its flags.
        assert_eq!(
            GenError::Players(36).to_string(),
            "36 players is out of range; expected 1 to 35"
        );
        let mut s = spec(1);
        s.rows = 1;
        s.cols = 2;
        assert_eq!(
            generate(&s),
            Err(GenError::TooManyPlayers {
                rows: 1,
                cols: 2,
                players: s.players
            })
        );
        let mut s = spec(1);
        s.moves = 0;
        assert_eq!(generate(&s), Err(GenError::NoMoves));
        // Refused before the moves are drawn: no allocation of 8 bytes each.
        let mut s = spec(1);
        s.moves = 99_999_999_999;
        assert_eq!(generate(&s), Err(GenError::TooManyMoves(99_999_999_999)));
        s.moves = MAX_MOVES;
        assert_eq!(generate(&s).unwrap().solutions.len(), 4);
    }
}
