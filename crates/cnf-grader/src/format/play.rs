//! Playing one of the four functions on a `.cnf` source text (the binaries
//! read the file, or standard input, through `frontend::input`).

use std::fmt;

use connect_core::{Function, GameError, Player};

use crate::format::cnf::parse_cnf;
use crate::format::diagnostic::Diagnostics;
use crate::format::solution::render_solution;

/// Why a game file could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// The file is not a valid `.cnf` game.
    Invalid(Diagnostics),
    /// The game is valid but the function cannot be played on it.
    Game(GameError),
}

/// Parses `source`, plays `function` on it, and returns the `.solution` text.
pub fn play_source(
    function: Function,
    source: &str,
    players: Option<Player>,
) -> Result<String, PlayError> {
    let game = parse_cnf(source).map_err(PlayError::Invalid)?;
    let board = function
        .apply(&game.board, &game.moves, players)
        .map_err(PlayError::Game)?;
    Ok(render_solution(&board))
}

impl PlayError {
    /// The error for a person, naming the file.
    pub fn render<'a>(&'a self, file: &'a str, source: &'a str) -> impl fmt::Display + 'a {
        RenderedPlayError {
            error: self,
            file,
            source,
        }
    }
}

struct RenderedPlayError<'a> {
    error: &'a PlayError,
    file: &'a str,
    source: &'a str,
}

impl fmt::Display for RenderedPlayError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error {
            PlayError::Invalid(d) => write!(f, "{}", d.render(self.file, self.source)),
            PlayError::Game(e) => write!(f, "{}: {e}", self.file),
        }
    }
}

/// The `check` verdict on one game's text: `NAME: ok (R rows, C columns,
/// M moves, players 1-N)`, or every problem, located.
pub fn check_source(display: &str, source: &str) -> Result<String, String> {
    match crate::format::cnf::parse_cnf(source) {
        Ok(game) => {
            let players = game
                .board
                .highest_player()
                .map_or("no pieces".to_owned(), |p| {
                    format!("players 1-{}", p.number())
                });
            Ok(format!(
                "{display}: ok ({} rows, {} columns, {} moves, {players})",
                game.board.height(),
                game.board.width(),
                game.moves.len()
            ))
        }
        Err(d) => Err(d.render(display, source).to_string()),
    }
}

/// Why a game file cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayFileError {
    /// Occurs when a number of players is given to a part that takes none.
    #[error("a number of players applies only to parts 3 and 4, not part {part}")]
    PlayersUnused {
        /// The part.
        part: u8,
    },
    /// Occurs when the game cannot be played (the message is located in
    /// the file).
    #[error("{0}")]
    Game(String),
}

/// Plays part `function` on the game text `source` already read from the
/// file shown as `display`: the `.solution` text, or the located error.
pub fn play_text(
    function: Function,
    display: &str,
    source: &str,
    players: Option<u8>,
) -> Result<String, PlayFileError> {
    if players.is_some() && !function.uses_players() {
        return Err(PlayFileError::PlayersUnused {
            part: function.part(),
        });
    }
    play_source(function, source, players.and_then(Player::new))
        .map_err(|e| PlayFileError::Game(e.render(display, source).to_string()))
}
