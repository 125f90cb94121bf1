//! Playing one of the four functions on a `.cnf` source text.

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
