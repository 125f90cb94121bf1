//! Peg Reversal: the Haskell course project's `+` board, its four functions
//! and text format, a terminal game, a solver and an exact counter of winning
//! games.
//!
//! The key design decision is that the Haskell text *is* the interface: every
//! value prints exactly as the derived Haskell `show` prints it (so output can
//! be diffed against a student's `print`), and the nom parser accepts what
//! the derived `read` accepts (any whitespace, redundant parentheses; see
//! [`parse`]). A [`Board`] is Haskell's `[Peg]` — any subset of the 33
//! positions in any order — but checked on construction: a peg off the `+` or
//! two pegs on one position is refused, naming the peg. Every function keeps
//! the order of the list it was given. The two errors of the assignment are
//! types whose text is exactly the required message.
//!
//! ```
//! use peg_core::{create_board, is_valid_move, parse_board, show_list, show_possible_next_states, Move, Position};
//!
//! let board = create_board(Position::new(0, 0)).unwrap();
//! assert!(board.to_string().starts_with("[Peg (-3,-1) B,Peg (-3,0) B,"));
//! assert!(is_valid_move(Move(Position::new(1, 0)), &board));
//!
//! let partial = parse_board("[Peg (0,0) W,\n Peg (1,0) B]").unwrap();
//! let next = show_possible_next_states(&partial).unwrap();
//! assert_eq!(show_list(&next), "[S (M (1,0)) [Peg (0,0) W,Peg (1,0) W]]");
//! ```
//!
//! # Peg Reversal from the shell: the `peg` binary
//!
//! ```text
//! peg create 1,1                      # print createBoard (1,1); also '(1,1)', -2,1
//! peg create 1,1 | peg valid 2,1      # isValidMove (M (2,1)) board  -> True
//! peg goal --board '[Peg (0,0) W]'    # isGoal                        -> True
//! peg create 0,0 | peg next           # showPossibleNextStates, one line
//! peg play [--start 0,0] [--seed 7]   # play: x,y | hint | undo | moves | count | quit
//! peg solve [--start -3,-1]           # one winning game, one `M (x,y)` per line (32 lines)
//! peg count [--start -3,-1]           # exact number of winning games from that start
//! peg count --all                     # the 7 classes of start holes: holes, count, time
//! peg create 1,1 | peg count          # ways to finish any board read (also --board TEXT)
//! peg case DIR NAME 'isGoal [Peg (0,0) W]'  # a grading case: DIR/NAME.call, DIR/NAME.expected
//! peg case DIR --check                # derive every DIR/*.expected again, list those that differ
//! ```
//!
//! `peg count` walks the sets of white pegs reachable from the start, one
//! per orbit under all 8 symmetries of the board (about 12 to 18 million
//! from a start hole), in about 1–2 s and 0.1 GB per start in a release
//! build on two cores (see [`count`]); `--verbose` reports the work and
//! `--method grouped|orbits|parts` picks the walk (the last two are the
//! earlier, slower counters, kept as second methods). A board may be partial
//! and its white pegs in separate groups; in `peg play`, `count` counts the
//! board on screen.
//!
//! `create` on a position off the board and `next` on a board without a black
//! peg print the assignment's exact message on standard error and exit 1;
//! input that does not read prints `line:column: ...` and exits 2.
//! `solve` starts from the centre `(0,0)` unless told otherwise; so does
//! `count` when it is given no board (none on `--board`, and standard input
//! a terminal or empty).
//!
//! # Modules
//!
//! - [`types`]: `Position`, `Color`, `Peg`, `Move`, `Board` (checked when
//!   built), `State`; each type's `Display` is Haskell's `show`.
//! - [`rules`]: the `+` board and its canonical order, `create_board`,
//!   `is_valid_move`, `is_goal`, `show_possible_next_states` and their two
//!   exact errors.
//! - [`parse`]: the nom parser for `read` syntax, on `haskell-text`'s
//!   lexical rules, with `ParseError` (offset, line and column).
//! - [`call`]: a grading case, one call of one of the four functions:
//!   `Call`, `Function`, `parse_call`, and what a correct program's driver
//!   reads and prints for it.
//! - [`game`]: the game engine (play, undo, hint); [`play`]: the
//!   interactive loop over any reader and writer.
//! - [`mod@solve`]: `Shape` (bit sets, 8 symmetries), `solve`, the counting
//!   types, the two earlier counting walks kept as second methods, and the
//!   brute-force enumeration used for cross-checks.
//! - [`count`] (above `solve.rs`, which imports nothing of it): the default
//!   counter, `count_finishes` from any set of white cells, `count_board`
//!   for any board, `start_classes` and `write_count_table` (`count --all`).
//! - `src/bin/peg/` (feature `cli`, on by default): `args.rs` the flags,
//!   `case.rs` writing and checking grading cases, `main.rs` parse, call, print.
//!
//! # Invariants
//!
//! - The library never prints or exits; a value's text comes only from its
//!   `Display` and is read only by [`parse`].
//! - A `Board` holds no peg off the `+` and no repeated position; every
//!   function returns boards in the order of its input.
//! - Counts are exact (checked `u128` sums; no count on the `+` can exceed
//!   32! < 2^128) and never come from enumerating games, except in the
//!   cross-checks (`count_orderings_by_enumeration` and the tests' brute
//!   force through `show_possible_next_states`). A counting layer of more
//!   than `MAX_LAYER_SETS` sets is an error, not an attempt to fill the
//!   memory.
//! - At most two layers live at once while counting; time and memory per
//!   start are measured by the `count` bench and `peg count --verbose`,
//!   never asserted in tests.
//! - The parser counts parentheses instead of recursing and refuses more
//!   than `MAX_NESTING` levels.

pub mod call;
pub mod count;
pub mod game;
pub mod parse;
pub mod play;
pub mod rules;
pub mod solve;
pub mod types;

pub use call::{Call, Function, parse_call};
pub use count::{
    MAX_LAYER_SETS, count_board, count_finishes, count_orderings, count_orderings_with,
    start_classes,
};
pub use game::{Game, list_positions, render_board, render_game};
pub use parse::{
    ParseError, parse_board, parse_color, parse_move, parse_peg, parse_position,
    parse_position_arg, parse_state, parse_states,
};
pub use rules::{
    BOARD_SIZE, InvalidPosition, MoveRefusal, NoPossibleStates, all_positions, check_move,
    create_board, is_goal, is_valid_move, neighbours, show_possible_next_states, valid_moves,
};
pub use solve::{
    CountError, CountMethod, CountReport, Shape, ShapeError, count_orderings_by_enumeration, solve,
};
pub use types::{Board, BoardError, Color, Move, Peg, Position, State, show_bool, show_list};
