//! The assignment's four functions and the rules they share.

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Drop, Player};

/// Why a function cannot be played on a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// Occurs when `onePlayerOneMove` is given no move to play.
    #[error(
        "the move list is empty; onePlayerOneMove plays the first move, so it needs at least one"
    )]
    EmptyMoves,
    /// Occurs when parts 3–4 get a board without pieces and no player count.
    #[error(
        "the board holds no player pieces, so the number of players is unknown; give it explicitly (--players N)"
    )]
    NoPlayers,
    /// Occurs when a move is not a column of the board.
    #[error("move {position} is {value}, but the board has columns 1 to {width}")]
    MoveOutOfRange {
        /// 1-based position of the move in the list.
        position: usize,
        /// The move as given.
        value: i64,
        /// The board's width.
        width: usize,
    },
}

/// Checks that move number `position` (1-based) is a column of a board `width` wide,
/// and returns its 0-based column.
pub fn check_move(position: usize, value: i64, width: usize) -> Result<usize, GameError> {
    match usize::try_from(value) {
        Ok(v) if (1..=width).contains(&v) => Ok(v - 1),
        _ => Err(GameError::MoveOutOfRange {
            position,
            value,
            width,
        }),
    }
}

/// Checks every move of the list against the board's width (spec §1).
pub fn check_moves(board: &Board, moves: &[i64]) -> Result<(), GameError> {
    for (i, &m) in moves.iter().enumerate() {
        check_move(i + 1, m, board.width())?;
    }
    Ok(())
}

/// The number of players: `players` when given, otherwise the highest
/// player on the board (spec §4).
pub fn number_of_players(board: &Board, players: Option<Player>) -> Result<Player, GameError> {
    players
        .or_else(|| board.highest_player())
        .ok_or(GameError::NoPlayers)
}

/// 0-based columns of moves already checked by [`check_moves`].
fn columns(moves: &[i64]) -> impl Iterator<Item = usize> + '_ {
    moves.iter().map(|&m| (m - 1) as usize)
}

/// Plays `turns` in order, stopping before a move when the board has a four.
///
/// The board is scanned once; after that only the lines through each new
/// piece are looked at, so a move costs the same on any board size.
fn play_until_four(board: &Board, turns: impl Iterator<Item = (usize, Player)>) -> Board {
    let mut board = board.clone();
    if board.has_four() {
        return board;
    }
    for (column, player) in turns {
        if let Drop::Landed { row } = board.drop_piece(column, player)
            && board.has_four_through(row, column)
        {
            break;
        }
    }
    board
}

/// Player 1's turn sequence for a one-player function.
fn player_one() -> Player {
    Player::new(1).expect("1 is a player")
}

/// Part 1: player 1 drops a piece into the first move's column; no four check.
pub fn one_player_one_move(board: &Board, moves: &[i64]) -> Result<Board, GameError> {
    check_moves(board, moves)?;
    let first = columns(moves).next().ok_or(GameError::EmptyMoves)?;
    let mut board = board.clone();
    board.drop_piece(first, player_one());
    Ok(board)
}

/// Part 2: player 1 plays every move in order until the board has a four.
pub fn one_player_many_moves(board: &Board, moves: &[i64]) -> Result<Board, GameError> {
    check_moves(board, moves)?;
    let one = player_one();
    Ok(play_until_four(board, columns(moves).map(|c| (c, one))))
}

/// Part 3: players 1..=n each play one move, in list order, until a four.
pub fn many_players_one_move(
    board: &Board,
    moves: &[i64],
    players: Option<Player>,
) -> Result<Board, GameError> {
    let n = number_of_players(board, players)?;
    check_moves(board, moves)?;
    let turns = columns(moves).zip(all_players(n));
    Ok(play_until_four(board, turns))
}

/// Part 4: players take turns 1, 2, …, n, 1, 2, … over the whole list until a four.
pub fn many_players_many_moves(
    board: &Board,
    moves: &[i64],
    players: Option<Player>,
) -> Result<Board, GameError> {
    let n = number_of_players(board, players)?;
    check_moves(board, moves)?;
    let turns = columns(moves).zip(all_players(n).cycle());
    Ok(play_until_four(board, turns))
}

/// Players 1 to `n`, in order.
fn all_players(n: Player) -> impl Iterator<Item = Player> + Clone {
    (1..=n.number()).map(|k| Player::new(k).expect("1..=n are players"))
}

/// One of the assignment's four functions, which the course numbered as parts 1–4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Function {
    /// Part 1, `onePlayerOneMove`.
    OnePlayerOneMove,
    /// Part 2, `onePlayerManyMoves`.
    OnePlayerManyMoves,
    /// Part 3, `manyPlayersOneMove`.
    ManyPlayersOneMove,
    /// Part 4, `manyPlayersManyMoves`.
    ManyPlayersManyMoves,
}

impl Function {
    /// The four functions in part order.
    pub const ALL: [Function; 4] = [
        Function::OnePlayerOneMove,
        Function::OnePlayerManyMoves,
        Function::ManyPlayersOneMove,
        Function::ManyPlayersManyMoves,
    ];

    /// The Haskell name, as used in `.solution` file names.
    pub fn name(self) -> &'static str {
        match self {
            Function::OnePlayerOneMove => "onePlayerOneMove",
            Function::OnePlayerManyMoves => "onePlayerManyMoves",
            Function::ManyPlayersOneMove => "manyPlayersOneMove",
            Function::ManyPlayersManyMoves => "manyPlayersManyMoves",
        }
    }

    /// The part number, 1 to 4.
    pub fn part(self) -> u8 {
        self as u8 + 1
    }

    /// The function of part `part` (1 to 4).
    pub fn from_part(part: u8) -> Option<Function> {
        Function::ALL
            .get(usize::from(part).checked_sub(1)?)
            .copied()
    }

    /// The function with this Haskell name.
    pub fn from_name(name: &str) -> Option<Function> {
        Function::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the function uses the number of players (parts 3 and 4).
    pub fn uses_players(self) -> bool {
        matches!(
            self,
            Function::ManyPlayersOneMove | Function::ManyPlayersManyMoves
        )
    }

    /// A one-sentence description of what the function does.
    pub fn summary(self) -> &'static str {
        match self {
            Function::OnePlayerOneMove => {
                "player 1 drops one piece into the column given by the first move"
            }
            Function::OnePlayerManyMoves => {
                "player 1 plays every move in order, stopping once the board has four in a row"
            }
            Function::ManyPlayersOneMove => {
                "players 1, 2, ..., n each play one move, in list order, stopping once the board has four in a row"
            }
            Function::ManyPlayersManyMoves => {
                "players take turns 1, 2, ..., n, 1, 2, ... over the whole move list, stopping once the board has four in a row"
            }
        }
    }

    /// Plays the function on a board and its moves; `players` overrides the
    /// number of players for parts 3 and 4 and is ignored by parts 1 and 2.
    pub fn apply(
        self,
        board: &Board,
        moves: &[i64],
        players: Option<Player>,
    ) -> Result<Board, GameError> {
        match self {
            Function::OnePlayerOneMove => one_player_one_move(board, moves),
            Function::OnePlayerManyMoves => one_player_many_moves(board, moves),
            Function::ManyPlayersOneMove => many_players_one_move(board, moves, players),
            Function::ManyPlayersManyMoves => many_players_many_moves(board, moves, players),
        }
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a string that names no function.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a function; expected a part number 1-4, 01-04, or one of onePlayerOneMove, onePlayerManyMoves, manyPlayersOneMove, manyPlayersManyMoves"
)]
pub struct UnknownFunction(pub String);

impl FromStr for Function {
    type Err = UnknownFunction;

    /// Reads a part number (`3`, `03`) or a Haskell function name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        Function::from_name(t)
            .or_else(|| t.parse::<u8>().ok().and_then(Function::from_part))
            .ok_or_else(|| UnknownFunction(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    fn rows(b: &Board) -> Vec<String> {
        b.row_strings().collect()
    }

    fn p(n: u8) -> Option<Player> {
        Player::new(n)
    }

    #[test]
    fn names_parts_and_parsing() {
        for f in Function::ALL {
            assert_eq!(Function::from_name(f.name()), Some(f));
            assert_eq!(Function::from_part(f.part()), Some(f));
            assert_eq!(format!("0{}", f.part()).parse::<Function>(), Ok(f));
        }
        assert_eq!(Function::from_part(0), None);
        assert_eq!(Function::from_part(5), None);
        assert!("part5".parse::<Function>().is_err());
    }

    #[test]
    fn moves_are_checked_before_anything_is_played() {
        let b = board(&["---"]);
        assert_eq!(
            one_player_many_moves(&b, &[1, 2, 4]),
            Err(GameError::MoveOutOfRange {
                position: 3,
                value: 4,
                width: 3
            })
        );
        assert_eq!(
            one_player_one_move(&b, &[1, 0]),
            Err(GameError::MoveOutOfRange {
                position: 2,
                value: 0,
                width: 3
            })
        );
        assert!(matches!(
            one_player_one_move(&b, &[i64::MIN]),
            Err(GameError::MoveOutOfRange { position: 1, .. })
        ));
    }

    #[test]
    fn part1_needs_a_move_and_ignores_fours() {
        assert_eq!(
            one_player_one_move(&board(&["-"]), &[]),
            Err(GameError::EmptyMoves)
        );
        // The board already has a four, part 1 still plays.
        let b = board(&["-----", "2222-"]);
        assert_eq!(
            rows(&one_player_one_move(&b, &[5, 1]).unwrap()),
            ["-----", "22221"]
        );
    }

    #[test]
    fn part2_stops_once_four() {
        // Four 1s vertically after the fourth move; the fifth is not played.
        let b = board(&["--", "--", "--", "--", "--"]);
        let out = one_player_many_moves(&b, &[1, 1, 1, 1, 2]).unwrap();
        assert_eq!(rows(&out), ["--", "1-", "1-", "1-", "1-"]);
        // A board that starts with a four is returned unchanged.
        let b = board(&["----", "3333"]);
        assert_eq!(one_player_many_moves(&b, &[1, 2]).unwrap(), b);
        // An empty list returns the board unchanged.
        assert_eq!(one_player_many_moves(&b, &[]).unwrap(), b);
    }

    #[test]
    fn part3_one_move_each_and_short_lists() {
        let b = board(&["---", "--3"]);
        // Three players, but only two moves.
        assert_eq!(
            rows(&many_players_one_move(&b, &[1, 1], None).unwrap()),
            ["2--", "1-3"]
        );
        // More moves than players: only n are played.
        assert_eq!(
            rows(&many_players_one_move(&b, &[1, 2, 2, 3, 3], None).unwrap()),
            ["-3-", "123"]
        );
        assert_eq!(
            many_players_one_move(&board(&["--"]), &[1], None),
            Err(GameError::NoPlayers)
        );
        assert_eq!(
            rows(&many_players_one_move(&board(&["--"]), &[1, 2], p(2)).unwrap()),
            ["12"]
        );
    }

    #[test]
    fn part4_cycles_and_full_column_passes_the_turn() {
        let b = board(&["2-", "1-"]);
        // Column 1 is full: player 1's move is used up, so player 2 lands
        // on the bottom of column 2 and player 1 on top of it.
        assert_eq!(
            rows(&many_players_many_moves(&b, &[1, 2, 2], None).unwrap()),
            ["21", "12"]
        );
    }

    #[test]
    fn part4_stops_after_the_winning_move() {
        // Player 1 lands on (2,1) without a four; player 2 then fills the
        // bottom-left corner and completes the anti-diagonal of 2s; moves 3
        // and 4 are never played.
        let b = board(&["----", "---2", "--21", "-212", "-121"]);
        assert!(!b.has_four());
        let out = many_players_many_moves(&b, &[2, 1, 1, 3], None).unwrap();
        assert_eq!(rows(&out), ["----", "---2", "-121", "-212", "2121"]);
    }
}
