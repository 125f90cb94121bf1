//! A game of 2 to 35 players on a connect-core [`Board`], and the
//! computer player of every level.
//!
//! The rules are the board's own ([`Board::drop_piece`], [`Board::has_four`],
//! [`Board::has_four_through`]): a piece lands in the lowest empty cell of
//! its column, and four in a row in any direction wins. A game from a
//! `.cnf` file replays its moves as `manyPlayersManyMoves` does, so a move
//! into a full column still passes the turn there; a move typed in a game
//! must go into a column with room.
//!
//! # The computer
//! `random` plays any column with room; `easy` wins at once when it can,
//! else blocks a cell where the next player would win at once, else plays at
//! random; `medium` looks [`MEDIUM_DEPTH`] moves ahead; `perfect` plays a
//! two-player game exactly with [`crate::solve`] when the position is one
//! the solver takes (two players' pieces, none floating) and at most
//! [`EXACT_EMPTY_CELLS`] cells are empty, and otherwise looks
//! [`PERFECT_DEPTH`] moves ahead. It plays a position its opening book
//! holds (a play book, [`crate::solve::Book`]; on 7 × 6 the built-in one)
//! at once, with the book's move.
//!
//! The look-ahead is a **paranoid** search: the computer assumes every
//! other player plays against it alone. We chose it over max-n because it
//! reduces any number of players to a two-sided game, so alpha-beta pruning
//! works in full (max-n allows only shallow pruning and so sees far less
//! deep in the same time), and because its pick is safe: it never walks into
//! a loss that some coalition of opponents could force within the horizon.
//! Its cost is pessimism: it may pass up a chance that only works if the
//! others do not gang up. Leaves are scored by the lines of four still open
//! to each player (weighted by the pieces already in them); ties go to the
//! column nearest the centre.
//!
//! # Time
//! [`Computer::choose_within`] and [`Computer::hint_within`] take a
//! deadline for the look-ahead: the search then deepens one move at a time
//! (iterative deepening) up to its level's depth, and the pick of the
//! deepest depth that *finished* before the deadline is played; a depth
//! given up part-way is not used. Depth 1 always finishes, so a legal move
//! comes even when the deadline has already passed. The exact solver of
//! two-player games is not limited by the deadline.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::board::{Board, Drop, Player};
use crate::solve::{Book, Position, PositionError, Size, Solver};

/// How far `medium` looks ahead, in moves.
pub const MEDIUM_DEPTH: u32 = 4;
/// How far `perfect` looks ahead when it cannot solve the game exactly.
pub const PERFECT_DEPTH: u32 = 7;
/// The most empty cells for which `perfect` solves a two-player game exactly.
pub const EXACT_EMPTY_CELLS: usize = 42;

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// Occurs when the column is not on the board.
    #[error("column {column} is not on the board; columns are 1 to {width}")]
    NoSuchColumn {
        /// The 1-based column asked for.
        column: usize,
        /// The board's width.
        width: usize,
    },
    /// Occurs when the column's top cell is taken.
    #[error("column {0} is full")]
    ColumnFull(usize),
    /// Occurs when the game is already over.
    #[error("the game is over")]
    Over,
}

/// A game as [`Game::saved`] writes it to a `.cnf` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedGame {
    /// The file's board.
    pub board: Board,
    /// The file's moves, 0-based columns, player 1's first.
    pub moves: Vec<usize>,
    /// Whether the board's highest token is the number of players.
    pub shows_players: bool,
}

/// A game in progress: the starting board, every move since, whose turn it is.
#[derive(Debug, Clone)]
pub struct Game {
    start: Board,
    /// 0-based columns, the `.cnf` file's first.
    moves: Vec<usize>,
    board: Board,
    players: u8,
    /// Index of the player to move, 0-based.
    turn: u8,
    winner: Option<Player>,
    /// How many of `moves` came from the file (undo stops there).
    fixed: usize,
    /// Whether the file's board already held a four (the game is over,
    /// nobody is credited with it).
    four_in_file: bool,
}

impl Game {
    /// A game of `players` (2–35) on `start` with the `.cnf` moves (0-based
    /// columns, already checked against the width) played as
    /// `manyPlayersManyMoves` plays them.
    ///
    /// # Panics
    /// When `players` is not 2–35 or a move is outside the board.
    pub fn new(start: Board, players: u8, moves: &[usize]) -> Game {
        assert!((2..=Player::MAX).contains(&players), "2 to 35 players");
        let mut game = Game {
            board: start.clone(),
            start,
            moves: Vec::new(),
            players,
            turn: 0,
            winner: None,
            fixed: 0,
            four_in_file: false,
        };
        game.four_in_file = game.board.has_four();
        for &c in moves {
            if game.winner.is_some() || game.four_in_file {
                break;
            }
            game.step(c);
        }
        game.fixed = game.moves.len();
        game
    }

    /// A game on an empty `width` × `height` board after `moves`, column
    /// digits 1–9, the players taking turns from player 1.
    pub fn from_moves(
        width: usize,
        height: usize,
        players: u8,
        moves: &str,
    ) -> Result<Game, PositionError> {
        let board =
            Board::empty(width, height).map_err(|_| PositionError::Empty { width, height })?;
        let mut game = Game::new(board, players, &[]);
        for (i, ch) in moves.chars().enumerate() {
            let index = i + 1;
            let column = ch
                .to_digit(10)
                .map(|d| d as usize)
                .filter(|&d| (1..=width.min(9)).contains(&d))
                .ok_or(PositionError::NotAColumn {
                    index,
                    found: ch,
                    width: width.min(9),
                })?;
            match game.play(column - 1) {
                Ok(()) => {}
                Err(PlayError::Over) => {
                    return Err(PositionError::AfterWin {
                        index,
                        won_at: game.moves.len(),
                    });
                }
                Err(_) => return Err(PositionError::ColumnFull { index, column }),
            }
        }
        game.fixed = 0;
        Ok(game)
    }

    fn step(&mut self, column: usize) {
        let player = self.to_move();
        self.moves.push(column);
        if let Drop::Landed { row } = self.board.drop_piece(column, player)
            && self.board.has_four_through(row, column)
        {
            self.winner = Some(player);
        }
        self.turn = (self.turn + 1) % self.players;
    }

    /// Plays 0-based `column` for the player to move.
    pub fn play(&mut self, column: usize) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::Over);
        }
        if column >= self.board.width() {
            return Err(PlayError::NoSuchColumn {
                column: column + 1,
                width: self.board.width(),
            });
        }
        if !self.has_room(column) {
            return Err(PlayError::ColumnFull(column + 1));
        }
        self.step(column);
        Ok(())
    }

    /// Takes back the last move typed or played in this game (not the
    /// file's); false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.len() <= self.fixed {
            return false;
        }
        let mut moves = std::mem::take(&mut self.moves);
        moves.pop();
        let fixed = self.fixed;
        let mut again = Game::new(self.start.clone(), self.players, &moves[..fixed]);
        for &c in &moves[fixed..] {
            again.step(c);
        }
        again.fixed = fixed;
        *self = again;
        true
    }

    /// Whether 0-based `column` has room.
    pub fn has_room(&self, column: usize) -> bool {
        column < self.board.width() && self.board.cell(0, column) == crate::Cell::Empty
    }

    /// The 0-based columns with room.
    pub fn playable(&self) -> Vec<usize> {
        (0..self.board.width())
            .filter(|&c| self.has_room(c))
            .collect()
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        Player::new(self.turn + 1).expect("turn below 35")
    }

    /// The number of players.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The board now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board the game started from (the `.cnf` file's rows).
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// Every move, 0-based columns, the file's first.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The player who made four in a row, if one did.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// Whether the game is over: won, or every column full.
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.four_in_file || self.playable().is_empty()
    }

    /// What a `.cnf` file of this game holds: a board and the moves played
    /// on it from player 1, and whether that board alone tells the number
    /// of players.
    ///
    /// `part04` and `connect play` take the number of players to be the
    /// highest token on the file's board, and play the file's moves from
    /// player 1. So the board is the one after the shortest run of whole
    /// rounds of moves (a multiple of [`Game::players`], none at best) on
    /// which the last player has a piece, and the moves are the rest: the
    /// file replays as this game, the same player to move. Before the last
    /// player has a piece (the first round of a game from an empty board),
    /// no board says it: the file is the starting board with every move,
    /// and [`SavedGame::shows_players`] is false (reload it with
    /// `--players`).
    pub fn saved(&self) -> SavedGame {
        let n = usize::from(self.players);
        let last = Player::new(self.players);
        let mut replay = Game::new(self.start.clone(), self.players, &[]);
        for (done, &c) in self.moves.iter().enumerate() {
            if done.is_multiple_of(n) && replay.board.highest_player() == last {
                break;
            }
            replay.step(c);
        }
        let shows_players = replay.board.highest_player() == last;
        let (board, moves) = if shows_players && replay.moves.len().is_multiple_of(n) {
            (replay.board, self.moves[replay.moves.len()..].to_vec())
        } else {
            (self.start.clone(), self.moves.clone())
        };
        let shows_players = board.highest_player() == last;
        SavedGame {
            board,
            moves,
            shows_players,
        }
    }

    /// The position for the exact solver: two players' pieces, none floating.
    pub fn position(&self) -> Option<Position> {
        if self.players != 2 || self.is_over() {
            return None;
        }
        Position::from_board(&self.board, self.to_move()).ok()
    }
}

/// How well the computer plays (with the `cli` feature, also the values
/// of `connect play --level`, each with its help line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Level {
    /// Any column with room, at random.
    #[cfg_attr(feature = "cli", value(help = "Any column with room, at random"))]
    Random,
    /// Wins at once, else blocks the next player's immediate win, else random.
    #[cfg_attr(
        feature = "cli",
        value(help = "Wins at once when it can, blocks a win at once, else random")
    )]
    Easy,
    /// A paranoid search [`MEDIUM_DEPTH`] moves deep.
    #[cfg_attr(feature = "cli", value(help = "A short look-ahead (4 moves)"))]
    Medium,
    /// Exact when the solver takes the game, else [`PERFECT_DEPTH`] deep.
    #[cfg_attr(
        feature = "cli",
        value(help = "Exact play in two-player games; a deep paranoid search otherwise")
    )]
    Perfect,
}

impl Level {
    /// The level's name, as `connect play --level` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Perfect => "perfect",
        }
    }
}

/// What a hint shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// Every column's exact score (`None`: full), in the solver's convention.
    Scores(Vec<Option<i32>>),
    /// The search's pick, 0-based.
    Pick(usize),
}

/// A computer player: its level, its random numbers and its solver (kept
/// between moves, so its table stays warm).
pub struct Computer {
    level: Level,
    rng: StdRng,
    solver: Option<Solver>,
    /// The perfect moves already found in positions of at most
    /// [`REMEMBERED_MOVES`] stones, by the position's rows: a computer that
    /// plays many games solves each opening once.
    known: std::collections::HashMap<Vec<String>, usize>,
    /// The play book it answers from; `None` until chosen or first needed.
    book: Option<Option<Book>>,
    /// Set when its solver's searches are to give up ([`Computer::set_stop`]).
    stop: Option<Arc<AtomicBool>>,
}

/// Positions of at most this many stones keep the perfect move found for
/// them for the life of the [`Computer`].
pub const REMEMBERED_MOVES: usize = 12;

impl Computer {
    /// A computer of this level whose random choices follow `seed`.
    pub fn new(level: Level, seed: u64) -> Computer {
        Computer {
            level,
            rng: StdRng::seed_from_u64(seed),
            solver: None,
            known: std::collections::HashMap::new(),
            book: None,
            stop: None,
        }
    }

    /// Gives up the solver's searches once `stop` is set (`None`: never):
    /// [`Computer::choose`] and [`Computer::hint`] then answer `None` within
    /// moments instead of what the search would have found, and remember
    /// nothing of it (answers from the book or from memory still come).
    /// The look-ahead of games the solver does not take is short and is
    /// not given up.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        if let Some(solver) = &mut self.solver {
            solver.set_stop(stop.clone());
        }
        self.stop = stop;
    }

    /// Whether the searches are to give up.
    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst))
    }

    /// Plays the positions `book` holds with its moves (a play book;
    /// another kind of book answers no move), or, `None`, searches every
    /// one. By default the built-in book on 7 × 6 ([`Book::standard`]).
    pub fn set_book(&mut self, book: Option<Book>) {
        self.book = Some(book);
    }

    /// The book's move in `p`, if it has one.
    fn book_move(&mut self, p: &Position) -> Option<usize> {
        let book = self
            .book
            .get_or_insert_with(|| (p.size() == Size::STANDARD).then(Book::standard));
        book.as_ref()?.best_move(p).map(|(c, _)| c)
    }

    /// Plays with `solver` (its book, its table) in the games of its size,
    /// instead of a [`Solver::new`] of its own.
    pub fn set_solver(&mut self, mut solver: Solver) {
        solver.set_stop(self.stop.clone());
        self.solver = Some(solver);
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.level
    }

    fn solver(&mut self, size: Size) -> &mut Solver {
        if self.solver.as_ref().is_none_or(|s| s.size() != size) {
            self.set_solver(Solver::new(size));
        }
        self.solver.as_mut().expect("just made")
    }

    /// The exact position, if `perfect` solves this game.
    fn exact(game: &Game) -> Option<Position> {
        game.position()
            .filter(|p| p.empty_cells() <= EXACT_EMPTY_CELLS)
    }

    /// The 0-based column the computer plays, `None` when the game is over
    /// or its search was given up ([`Computer::set_stop`]).
    pub fn choose(&mut self, game: &Game) -> Option<usize> {
        self.choose_within(game, None)
    }

    /// [`Computer::choose`], the look-ahead searching until `deadline`
    /// (`None`: to its full depth) and playing the deepest depth it
    /// finished (at least depth 1); the exact solver is not limited.
    pub fn choose_within(&mut self, game: &Game, deadline: Option<Instant>) -> Option<usize> {
        let playable = game.playable();
        if game.is_over() || playable.is_empty() {
            return None;
        }
        match self.level {
            Level::Random => Some(playable[self.rng.random_range(0..playable.len())]),
            Level::Easy => Some(
                immediate(game, game.to_move())
                    .or_else(|| immediate(game, next_player(game)))
                    .unwrap_or_else(|| playable[self.rng.random_range(0..playable.len())]),
            ),
            Level::Medium => Some(paranoid_within(game, MEDIUM_DEPTH, deadline)),
            Level::Perfect => match Computer::exact(game) {
                Some(p) => {
                    if let Some(c) = self.book_move(&p) {
                        return Some(c);
                    }
                    let rows = (p.moves() <= REMEMBERED_MOVES).then(|| p.rows());
                    if let Some(&c) = rows.as_ref().and_then(|r| self.known.get(r)) {
                        return Some(c);
                    }
                    let size = p.size();
                    let c = self.solver(size).best_move(&p).map(|(c, _)| c)?;
                    if self.stopped() {
                        return None;
                    }
                    if let Some(rows) = rows {
                        self.known.insert(rows, c);
                    }
                    Some(c)
                }
                None => Some(paranoid_within(game, PERFECT_DEPTH, deadline)),
            },
        }
    }

    /// A hint for the player to move: every column's exact score in a
    /// two-player game the solver takes, the perfect player's pick otherwise;
    /// `None` when the game is over or the search was given up.
    pub fn hint(&mut self, game: &Game) -> Option<Hint> {
        self.hint_within(game, None)
    }

    /// [`Computer::hint`], a look-ahead's pick searched until `deadline` as
    /// [`Computer::choose_within`] searches; the exact scores are not limited.
    pub fn hint_within(&mut self, game: &Game, deadline: Option<Instant>) -> Option<Hint> {
        if game.is_over() {
            return None;
        }
        if let Some(p) = Computer::exact(game) {
            let size = p.size();
            let scores = self.solver(size).analyze(&p, false);
            return (!self.stopped()).then_some(Hint::Scores(scores));
        }
        Some(Hint::Pick(paranoid_within(game, PERFECT_DEPTH, deadline)))
    }
}

fn next_player(game: &Game) -> Player {
    Player::new(game.to_move().number() % game.players() + 1).expect("1 to 35")
}

/// A column where `player` would make four at once, centre first.
fn immediate(game: &Game, player: Player) -> Option<usize> {
    centre_out(game.board().width())
        .into_iter()
        .filter(|&c| game.has_room(c))
        .find(|&c| {
            let mut b = game.board().clone();
            matches!(b.drop_piece(c, player), Drop::Landed { row } if b.has_four_through(row, c))
        })
}

/// Columns from the centre out, left first at each distance.
fn centre_out(width: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..width).collect();
    order.sort_by_key(|&c| ((2 * c as i64 - (width as i64 - 1)).abs(), c));
    order
}

const WIN: i64 = 1 << 40;

/// The paranoid search's pick for the player to move, `depth` moves deep.
fn paranoid(game: &Game, depth: u32) -> usize {
    paranoid_searched(game, depth, &mut || false).expect("a search never given up finishes")
}

/// The paranoid pick, deepening until `deadline` (`None`: `depth` at once).
fn paranoid_within(game: &Game, depth: u32, deadline: Option<Instant>) -> usize {
    match deadline {
        None => paranoid(game, depth),
        Some(deadline) => deepening(game, depth, &mut || Instant::now() >= deadline, &mut |_| {}),
    }
}

/// Iterative deepening: the pick of depth 1, 2, … up to `depth`, until
/// `give_up` says so; the deepest depth finished is the answer, and depth 1
/// is never given up. `finished` hears of each depth done.
fn deepening(
    game: &Game,
    depth: u32,
    give_up: &mut dyn FnMut() -> bool,
    finished: &mut dyn FnMut(u32),
) -> usize {
    let mut pick = paranoid(game, 1);
    finished(1);
    for d in 2..=depth {
        if give_up() {
            break;
        }
        match paranoid_searched(game, d, give_up) {
            Some(c) => pick = c,
            None => break,
        }
        finished(d);
    }
    pick
}

/// How many moves the search makes between two looks at its deadline.
const CHECK_EVERY: u64 = 16;

/// What a paranoid search carries down: the player it plays for, the
/// number of players, and whether (and when) to give up.
struct Search<'a> {
    me: Player,
    players: u8,
    give_up: &'a mut dyn FnMut() -> bool,
    nodes: u64,
    given_up: bool,
}

impl Search<'_> {
    /// Whether the search is to stop now (asked every [`CHECK_EVERY`] moves).
    fn stopping(&mut self) -> bool {
        if !self.given_up {
            self.nodes += 1;
            if self.nodes.is_multiple_of(CHECK_EVERY) && (self.give_up)() {
                self.given_up = true;
            }
        }
        self.given_up
    }
}

/// The paranoid pick `depth` moves deep; `None` when `give_up` stopped it.
fn paranoid_searched(game: &Game, depth: u32, give_up: &mut dyn FnMut() -> bool) -> Option<usize> {
    let me = game.to_move();
    let mut search = Search {
        me,
        players: game.players(),
        give_up,
        nodes: 0,
        given_up: false,
    };
    let order = centre_out(game.board().width());
    let mut best = (i64::MIN, order[0]);
    let mut alpha = i64::MIN + 1;
    for &c in &order {
        if !game.has_room(c) {
            continue;
        }
        let score = value_after(&mut search, game.board(), c, me, depth, alpha, i64::MAX);
        if search.given_up {
            return None;
        }
        if score > best.0 {
            best = (score, c);
        }
        alpha = alpha.max(score);
    }
    Some(best.1)
}

/// The value for `search.me` of `mover` playing `column` on `board`,
/// looking `depth` moves ahead in all (`depth` 1: this move only); any
/// value once the search is given up.
fn value_after(
    search: &mut Search<'_>,
    board: &Board,
    column: usize,
    mover: Player,
    depth: u32,
    mut alpha: i64,
    mut beta: i64,
) -> i64 {
    if search.stopping() {
        return 0;
    }
    let (me, players) = (search.me, search.players);
    let mut b = board.clone();
    let Drop::Landed { row } = b.drop_piece(column, mover) else {
        unreachable!("only columns with room are tried")
    };
    if b.has_four_through(row, column) {
        // Sooner is better for the winner.
        let v = WIN + i64::from(depth);
        return if mover == me { v } else { -v };
    }
    let next = Player::new(mover.number() % players + 1).expect("1 to 35");
    let columns: Vec<usize> = centre_out(b.width())
        .into_iter()
        .filter(|&c| b.cell(0, c) == crate::Cell::Empty)
        .collect();
    if columns.is_empty() {
        return 0;
    }
    if depth <= 1 {
        return evaluate(&b, me);
    }
    let maximise = next == me;
    let mut best = if maximise { i64::MIN + 1 } else { i64::MAX };
    for c in columns {
        let v = value_after(search, &b, c, next, depth - 1, alpha, beta);
        if maximise {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Lines of four still open to `me` against those open to any other
/// player, each weighted by the square of the pieces already in it.
fn evaluate(board: &Board, me: Player) -> i64 {
    let (w, h) = (board.width() as isize, board.height() as isize);
    let mut score = 0i64;
    for r in 0..h {
        for c in 0..w {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (er, ec) = (r + 3 * dr, c + 3 * dc);
                if er >= h || ec < 0 || ec >= w {
                    continue;
                }
                let mut owner = None;
                let mut count = 0i64;
                let mut open = true;
                for k in 0..4 {
                    match board.cell((r + k * dr) as usize, (c + k * dc) as usize) {
                        crate::Cell::Empty => {}
                        crate::Cell::Piece(p) => match owner {
                            None => {
                                owner = Some(p);
                                count = 1;
                            }
                            Some(o) if o == p => count += 1,
                            Some(_) => {
                                open = false;
                                break;
                            }
                        },
                    }
                }
                if let (true, Some(o)) = (open, owner) {
                    let v = count * count;
                    score += if o == me { v } else { -v };
                }
            }
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "cli")]
    #[test]
    fn the_command_line_names_each_level_as_name_does_and_the_medium_depth_as_it_is() {
        use clap::ValueEnum as _;
        for level in Level::value_variants() {
            let value = level.to_possible_value().unwrap();
            assert_eq!(value.get_name(), level.name());
        }
        let medium = Level::Medium.to_possible_value().unwrap();
        let help = medium.get_help().unwrap().to_string();
        assert!(help.contains(&format!("({MEDIUM_DEPTH} moves)")), "{help}");
    }

    #[test]
    fn easy_takes_a_win_and_blocks_one() {
        let g = Game::from_moves(7, 6, 2, "445566").unwrap();
        let mut c = Computer::new(Level::Easy, 1);
        // Player 1 holds columns 4-6 of the bottom row: 3 or 7 wins, 3 is nearer the centre.
        assert_eq!(c.choose(&g), Some(2));
        // Player 1 has three stacked in column 4: player 2 blocks it.
        let g = Game::from_moves(7, 6, 2, "41424").unwrap();
        assert_eq!(Computer::new(Level::Easy, 1).choose(&g), Some(3));
    }

    #[test]
    fn perfect_plays_a_play_books_move_without_searching() {
        // A book whose move on the empty 4x4 board is column 1, a draw like
        // every first move there but not the solver's pick (nearest the
        // centre, column 2): the computer repeats the book.
        let book = Book::from_text("# connect book 4x4 play depth 0\n 0 1\n").unwrap();
        let g = Game::from_moves(4, 4, 2, "").unwrap();
        let mut c = Computer::new(Level::Perfect, 0);
        c.set_book(Some(book));
        assert_eq!(c.choose(&g), Some(0));
        let mut plain = Computer::new(Level::Perfect, 0);
        plain.set_book(None);
        assert_eq!(plain.choose(&g), Some(1));
    }

    #[test]
    fn a_saved_game_replays_as_the_same_game() {
        // Columns chosen by hand: some repeat, so pieces stack.
        let columns = [3, 3, 4, 2, 3, 4, 5, 1, 1, 0, 6, 2, 2];
        for players in 2..=4u8 {
            for len in 0..=columns.len() {
                let empty = Board::empty(7, 6).unwrap();
                let game = Game::new(empty, players, &columns[..len]);
                let saved = game.saved();
                let again = Game::new(saved.board.clone(), players, &saved.moves);
                // A four ends the game early.
                let len = game.moves().len();
                let what = format!("{players} players, {len} moves");
                assert_eq!(again.board(), game.board(), "{what}");
                assert_eq!(again.to_move(), game.to_move(), "{what}");
                // The last player's first piece comes with move `players`.
                assert_eq!(saved.shows_players, len >= usize::from(players), "{what}");
                if saved.shows_players {
                    let highest = saved.board.highest_player().unwrap().number();
                    assert_eq!(highest, players, "{what}");
                    assert_eq!(saved.moves.len(), len - usize::from(players), "{what}");
                } else {
                    assert_eq!(saved.moves.len(), len, "{what}");
                }
            }
        }
    }

    #[test]
    fn undo_stops_at_the_file_moves() {
        let start = Board::empty(4, 4).unwrap();
        let mut g = Game::new(start, 3, &[0, 1]);
        assert_eq!(g.to_move().number(), 3);
        g.play(2).unwrap();
        assert_eq!(g.to_move().number(), 1);
        assert!(g.undo());
        assert_eq!(g.to_move().number(), 3);
        assert!(!g.undo());
        assert_eq!(g.moves(), [0, 1]);
    }

    /// A middle game on 20 x 30 (columns chosen by hand), `players` playing.
    fn big_game(players: u8) -> Game {
        let board = Board::empty(30, 20).unwrap();
        let game = Game::new(board, players, &[14, 15, 14, 16, 15, 13, 16, 14, 12, 17]);
        assert!(!game.is_over() && game.moves().len() == 10);
        game
    }

    /// A 9 x 7 game with few pieces, too many empty cells for the exact
    /// solver, where depth 1 picks column 4 and every depth from 2 to 7
    /// picks column 6 (`paranoid` at each depth, looked up once).
    fn small_game(players: u8) -> Game {
        let rows = [
            "---------",
            "---------",
            "---------",
            "---------",
            "----2----",
            "---112---",
            "--21212--",
        ];
        Game::new(Board::from_rows(rows).unwrap(), players, &[])
    }

    #[test]
    fn a_limit_already_past_still_gives_a_legal_move_from_depth_one() {
        for level in [Level::Medium, Level::Perfect] {
            for players in [2, 3] {
                let game = big_game(players);
                let mut c = Computer::new(level, 0);
                let past = Instant::now();
                let what = format!("{level:?}, {players} players, over {}", game.is_over());
                let pick = c.choose_within(&game, Some(past)).expect(&what);
                assert!(game.has_room(pick), "{pick}");
                // Depth 1 only: the column whose own move scores best,
                // computed here by the one-move search.
                assert_eq!(pick, paranoid(&game, 1), "{level:?}, {players} players");
                assert!(
                    matches!(c.hint_within(&game, Some(past)), Some(Hint::Pick(p)) if p == pick)
                );
                // Where depth 1's pick is not the deeper one: depth 1's is played.
                let small = small_game(players);
                assert_eq!(c.choose_within(&small, Some(past)), Some(3), "{level:?}");
            }
        }
    }

    #[test]
    fn with_time_enough_the_search_goes_the_levels_full_depth() {
        // The deepening with a deadline far off plays what the plain
        // full-depth search plays.
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        for players in [2, 3] {
            // `perfect` looks ahead in a two-player game too: too many empty cells.
            let game = small_game(players);
            let plain = paranoid(&game, PERFECT_DEPTH);
            assert_ne!(plain, paranoid(&game, 1), "depth 1 alone would not do");
            let mut c = Computer::new(Level::Perfect, 0);
            assert_eq!(c.choose_within(&game, Some(far)), Some(plain), "{players}");
            let mut depths = Vec::new();
            let pick = deepening(&game, PERFECT_DEPTH, &mut || false, &mut |d| depths.push(d));
            assert_eq!(pick, plain);
            assert_eq!(depths, (1..=PERFECT_DEPTH).collect::<Vec<_>>());
            let medium = paranoid(&game, MEDIUM_DEPTH);
            let mut c = Computer::new(Level::Medium, 0);
            assert_eq!(c.choose_within(&game, Some(far)), Some(medium), "{players}");
        }
    }

    #[test]
    fn a_depth_given_up_is_not_played() {
        // Stop raised as soon as depth k finishes: depth k + 1 is given up
        // at its first look at the stop, and depth k's pick is played.
        let game = small_game(2);
        let picks: Vec<usize> = (1..=4).map(|k| paranoid(&game, k)).collect();
        assert_ne!(picks[0], picks[1]);
        for k in 1..=4u32 {
            let stop = std::cell::Cell::new(false);
            let deepest = std::cell::Cell::new(0);
            let pick = deepening(&game, PERFECT_DEPTH, &mut || stop.get(), &mut |d| {
                deepest.set(d);
                if d == k {
                    stop.set(true);
                }
            });
            assert_eq!(deepest.get(), k);
            assert_eq!(pick, picks[k as usize - 1], "k = {k}");
        }
        // Given up inside depth 2, at its first look at the stop (after
        // CHECK_EVERY of its moves): depth 1's pick is played, not depth 2's.
        let done = std::cell::Cell::new(0u32);
        let mut looks_in_two = 0u32;
        let pick = deepening(
            &game,
            2,
            &mut || {
                if done.get() >= 1 {
                    looks_in_two += 1;
                }
                looks_in_two > 1
            },
            &mut |d| done.set(d),
        );
        assert_eq!(done.get(), 1, "depth 2 was not given up part-way");
        assert_eq!(pick, picks[0]);
    }

    #[test]
    fn paranoid_finds_the_win_for_three_players() {
        // player 1 has three in the bottom row; players 2 and 3 cannot stop both ends
        let start = Board::from_rows(["-----", "-----", "-111-"]).unwrap();
        let g = Game::new(start, 3, &[]);
        let pick = paranoid(&g, 3);
        assert!(pick == 0 || pick == 4, "{pick}");
    }
}
