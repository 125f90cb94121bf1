//! The JSON API of `connect serve`: every column's score, the computer's
//! move, and the four parts on a `.cnf` game (docs/connect-four.md, "In
//! the browser", describes each field).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use connect_core::cnf::{parse_cnf, render_result};
use connect_core::computer::{Computer, Game, Hint, Level, MEDIUM_DEPTH, PERFECT_DEPTH};
use connect_core::solve::{Position, Size, score_words};
use connect_core::{Board, Function, Player, number_of_players};
use serde_json::{Value, json};

use super::{Answer, State};
use crate::play::MAX_SIDE;

/// The largest request body taken (a `.cnf` game), in bytes.
pub(crate) const MAX_BODY: usize = 1 << 20;

/// The most moves whose results are given one by one (`steps`).
const MAX_STEPS: usize = 1000;

/// How long the look-ahead of games the exact solver does not take
/// searches, at most (its deepest finished depth is played).
const LOOK_AHEAD: Duration = Duration::from_secs(2);

/// Outside text as a message shows it: control characters escaped, at
/// most 60 characters.
pub(crate) fn shown_text(text: &str) -> String {
    let mut shown: String = text.chars().take(60).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    format!("\"{}\"", crate::escaped(&shown))
}

/// A 400 answer.
fn bad(message: impl Into<String>) -> Answer {
    Answer::error(400, &message.into())
}

/// `%XX` and `+` decoded; `None` when the bytes are not UTF-8 or an escape is bad.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = text.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The query's parameters, each once and each one of `known`.
fn params(query: &str, known: &[&str]) -> Result<HashMap<String, String>, Answer> {
    let mut found = HashMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (Some(key), Some(value)) = (decode(key), decode(value)) else {
            return Err(bad(format!(
                "the query {} is not percent-encoded UTF-8",
                shown_text(pair)
            )));
        };
        if !known.contains(&key.as_str()) {
            return Err(bad(format!(
                "unknown parameter {}; this takes {}",
                shown_text(&key),
                known.join(", ")
            )));
        }
        if found.insert(key.clone(), value).is_some() {
            return Err(bad(format!("{key} is given twice; give it once")));
        }
    }
    Ok(found)
}

/// The parameter `name` as a number in `range`, or `default` when absent.
fn number(
    params: &HashMap<String, String>,
    name: &str,
    default: usize,
    range: std::ops::RangeInclusive<usize>,
    what: &str,
) -> Result<usize, Answer> {
    let Some(text) = params.get(name) else {
        return Ok(default);
    };
    match text.parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(bad(format!(
            "{name}={}: {what} are {} to {}",
            shown_text(text),
            range.start(),
            range.end()
        ))),
    }
}

/// The page's token `tab`, if given: 1 to 64 letters, digits, `-` or `_`.
fn tab(params: &HashMap<String, String>) -> Result<Option<&str>, Answer> {
    match params.get("tab") {
        None => Ok(None),
        Some(t)
            if (1..=64).contains(&t.len())
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
        {
            Ok(Some(t))
        }
        Some(t) => Err(bad(format!(
            "tab={}: a page's token is 1 to 64 letters, digits, - or _",
            shown_text(t)
        ))),
    }
}

/// A game's setting: the board, the players and the moves played.
struct Setting {
    rows: usize,
    cols: usize,
    players: u8,
    game: Game,
}

/// The position's moves as the page writes them: a digit per move when
/// the board has at most 9 columns, else the columns joined by commas.
fn written(cols: usize, moves: &[usize]) -> String {
    let columns = moves.iter().map(|c| (c + 1).to_string());
    if cols <= 9 {
        columns.collect()
    } else {
        columns.collect::<Vec<_>>().join(",")
    }
}

/// `rows`, `cols`, `players` and `pos` read, the moves played.
fn setting(params: &HashMap<String, String>) -> Result<Setting, Answer> {
    let rows = number(params, "rows", 6, 1..=MAX_SIDE, "rows")?;
    let cols = number(params, "cols", 7, 1..=MAX_SIDE, "columns")?;
    let players = number(
        params,
        "players",
        2,
        2..=usize::from(Player::MAX),
        "players",
    )?;
    let players = u8::try_from(players).expect("at most 35");
    let board = Board::empty(cols, rows).expect("1 to 99 rows and columns");
    let mut game = Game::new(board, players, &[]);
    let pos = params.get("pos").map_or("", String::as_str);
    let moves: Vec<&str> = if pos.is_empty() {
        Vec::new()
    } else if pos.contains(',') || cols > 9 {
        pos.split(',').collect()
    } else {
        pos.split("").filter(|s| !s.is_empty()).collect()
    };
    let form = if cols > 9 {
        "the columns played, from 1, joined by commas (e.g. 10,4,12)"
    } else {
        "the columns played, a digit each from 1 (e.g. 4453), or joined by commas"
    };
    for (i, text) in moves.iter().enumerate() {
        let column = text
            .parse::<usize>()
            .ok()
            .filter(|c| (1..=cols).contains(c));
        let Some(column) = column else {
            return Err(bad(format!(
                "pos: move {} is {}, not a column of the board (1 to {cols}); pos is {form}",
                i + 1,
                shown_text(text)
            )));
        };
        if let Err(e) = game.play(column - 1) {
            return Err(bad(format!("pos: move {} ({column}): {e}", i + 1)));
        }
    }
    Ok(Setting {
        rows,
        cols,
        players,
        game,
    })
}

/// The fields every answer about a position has.
fn described(s: &Setting) -> serde_json::Map<String, Value> {
    let game = &s.game;
    let mut out = serde_json::Map::new();
    out.insert("rows".into(), json!(s.rows));
    out.insert("cols".into(), json!(s.cols));
    out.insert("players".into(), json!(s.players));
    out.insert("pos".into(), json!(written(s.cols, game.moves())));
    let to_move = game.to_move();
    out.insert("to_move".into(), json!(to_move.number()));
    out.insert("token".into(), json!(to_move.token().to_string()));
    out.insert("over".into(), json!(game.is_over()));
    out.insert(
        "winner".into(),
        json!(game.winner().map(|p| p.token().to_string())),
    );
    out.insert(
        "board".into(),
        json!(game.board().row_strings().collect::<Vec<_>>()),
    );
    out
}

/// `GET /api/analyze`: every column's score for the side to move.
pub(crate) fn analyze(state: &State, query: &str) -> Answer {
    let result = (|| {
        let p = params(query, &["rows", "cols", "players", "pos", "tab"])?;
        let s = setting(&p)?;
        let mut out = described(&s);
        let game = &s.game;
        let cols = s.cols;
        let playable: Vec<bool> = (0..cols)
            .map(|c| !game.is_over() && game.has_room(c))
            .collect();
        let exact = (s.players == 2 && !game.is_over())
            .then(|| Position::from_board(game.board(), game.to_move()).ok())
            .flatten();
        let scores: Vec<Option<i32>>;
        let mut words: Vec<Option<String>> = vec![None; cols];
        let best: Vec<usize>;
        let note: Option<String>;
        if game.is_over() {
            scores = vec![None; cols];
            best = Vec::new();
            note = Some("the game is over: no column can be played".into());
        } else if let Some(position) = exact {
            let search = state.search(tab(&p)?)?;
            let mut solver = state.solver(position.size());
            solver.set_stop(Some(search.stop.clone()));
            let found = solver.analyze(&position, false);
            match search.given_up() {
                Some(why) if search.superseded() => {
                    return Err(Answer::error(
                        503,
                        &format!("the analysis was given up: {why}"),
                    ));
                }
                Some(why) => {
                    // Past --think: a short look-ahead's pick instead.
                    scores = vec![None; cols];
                    let mut computer = Computer::new(Level::Medium, 0);
                    let pick = computer.choose_within(game, Some(Instant::now() + LOOK_AHEAD));
                    best = pick.map(|c| vec![c + 1]).unwrap_or_default();
                    note = Some(format!(
                        "no exact scores: {why}; here a look-ahead's pick ({MEDIUM_DEPTH} moves)"
                    ));
                }
                None => {
                    scores = found;
                    for (c, s) in scores.iter().enumerate() {
                        words[c] =
                            s.map(|s| score_words(position.size(), position.first_to_move(), s));
                    }
                    let top = scores.iter().flatten().max();
                    best = (0..cols)
                        .filter(|&c| top.is_some() && scores[c].as_ref() == top)
                        .map(|c| c + 1)
                        .collect();
                    note = None;
                }
            }
        } else {
            scores = vec![None; cols];
            let mut computer = Computer::new(Level::Perfect, 0);
            let search = state.search(tab(&p)?)?;
            computer.set_stop(Some(search.stop.clone()));
            let hint = computer.hint_within(game, Some(Instant::now() + LOOK_AHEAD));
            best = match hint {
                Some(Hint::Pick(c)) => vec![c + 1],
                _ => Vec::new(),
            };
            note = Some(if s.players == 2 {
                format!(
                    "exact scores need a board of at most 128 cells counting a spare row (width × (height + 1)); \
                     here the perfect computer's pick, a look-ahead of up to {PERFECT_DEPTH} moves"
                )
            } else {
                format!(
                    "scores are exact only for two players; with {} players this is the perfect computer's pick, \
                     a paranoid look-ahead of up to {PERFECT_DEPTH} moves",
                    s.players
                )
            });
        }
        let columns: Vec<Value> = (0..cols)
            .map(|c| {
                json!({
                    "col": c + 1,
                    "playable": playable[c],
                    "score": scores[c],
                    "words": words[c],
                    "best": best.contains(&(c + 1)),
                })
            })
            .collect();
        out.insert("exact".into(), json!(scores.iter().any(Option::is_some)));
        out.insert("note".into(), json!(note));
        out.insert("best".into(), json!(best));
        out.insert("columns".into(), Value::Array(columns));
        Ok(Value::Object(out))
    })();
    match result {
        Ok(value) => Answer::json(200, &value),
        Err(answer) => answer,
    }
}

/// The level named `text`, as `connect play --level` takes it.
fn level(text: &str) -> Option<Level> {
    [Level::Random, Level::Easy, Level::Medium, Level::Perfect]
        .into_iter()
        .find(|l| l.name() == text)
}

/// `GET /api/move`: the column the computer plays at a level.
pub(crate) fn computer_move(state: &State, query: &str) -> Answer {
    let result = (|| {
        let p = params(
            query,
            &["rows", "cols", "players", "pos", "level", "seed", "tab"],
        )?;
        let s = setting(&p)?;
        let level_name = p.get("level").map_or("perfect", String::as_str);
        let Some(level) = level(level_name) else {
            return Err(bad(format!(
                "level={}: the levels are random, easy, medium and perfect",
                shown_text(level_name)
            )));
        };
        let seed = match p.get("seed") {
            None => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            Some(text) => text.parse::<u64>().map_err(|_| {
                bad(format!(
                    "seed={}: a seed is a whole number from 0 to {}",
                    shown_text(text),
                    u64::MAX
                ))
            })?,
        };
        let game = &s.game;
        if game.is_over() {
            let why = match game.winner() {
                Some(w) => format!("player {} has won", w.token()),
                None if game.playable().is_empty() => "the board is full".to_string(),
                None => "it is over".to_string(),
            };
            return Err(bad(format!(
                "pos: the game is over ({why}); there is no move to make"
            )));
        }
        let search = state.search(tab(&p)?)?;
        let mut computer = Computer::new(level, seed);
        computer.set_stop(Some(search.stop.clone()));
        if let Ok(size) = Size::new(s.cols, s.rows)
            && s.players == 2
            && level == Level::Perfect
        {
            computer.set_book(state.book_for(size));
            computer.set_solver(state.solver(size));
        }
        let deadline = (s.rows * s.cols > 100).then(|| Instant::now() + LOOK_AHEAD);
        let chosen = computer.choose_within(game, deadline);
        if let Some(why) = search.given_up() {
            return Err(Answer::error(503, &format!("the move was given up: {why}")));
        }
        let col = chosen.expect("a game not over has a move, and the search was not given up");
        let mut after: Vec<usize> = game.moves().to_vec();
        after.push(col);
        Ok(json!({
            "col": col + 1,
            "level": level.name(),
            "player": game.to_move().number(),
            "pos": written(s.cols, &after),
        }))
    })();
    match result {
        Ok(value) => Answer::json(200, &value),
        Err(answer) => answer,
    }
}

/// `POST /api/parts`: the four parts played on the `.cnf` game of the body.
pub(crate) fn parts(query: &str, body: &[u8]) -> Answer {
    let result = (|| {
        let p = params(query, &["players", "name"])?;
        let name = p.get("name").map_or("game.cnf", String::as_str);
        if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
            return Err(bad(
                "name: the file's name as messages show it, 1 to 200 characters, none a control character",
            ));
        }
        let players =
            match p.get("players") {
                None => None,
                Some(text) => Some(text.parse::<u8>().ok().and_then(Player::new).ok_or_else(
                    || {
                        bad(format!(
                            "players={}: parts 3 and 4 take 1 to 35 players",
                            shown_text(text)
                        ))
                    },
                )?),
            };
        let input = frontend::input::text(name.to_string(), body.to_vec(), "a .cnf game file")
            .map_err(|e| bad(e.to_string()))?;
        let text = &input.text;
        let game = parse_cnf(text).map_err(|d| bad(d.render(name, text).to_string()))?;
        let moves = &game.moves;
        let results: Vec<Value> = Function::ALL
            .into_iter()
            .map(|function| {
                let mut part = serde_json::Map::new();
                part.insert("part".into(), json!(function.part()));
                part.insert("function".into(), json!(function.name()));
                match function.apply(&game.board, moves, players) {
                    Ok(board) => {
                        part.insert("text".into(), json!(render_result(&board)));
                        part.insert(
                            "rows".into(),
                            json!(board.row_strings().collect::<Vec<_>>()),
                        );
                        part.insert("steps".into(), steps(function, &game.board, moves, players));
                    }
                    Err(e) => {
                        part.insert("error".into(), json!(format!("{name}: {e}")));
                    }
                }
                Value::Object(part)
            })
            .collect();
        Ok(json!({
            "name": name,
            "start": game.board.row_strings().collect::<Vec<_>>(),
            "moves": moves,
            "parts": results,
        }))
    })();
    match result {
        Ok(value) => Answer::json(200, &value),
        Err(answer) => answer,
    }
}

/// The board after each move a part plays (the first move for part 1, one
/// move of each player for part 3), or `null` past [`MAX_STEPS`] moves.
fn steps(function: Function, board: &Board, moves: &[i64], players: Option<Player>) -> Value {
    let plays = match function {
        Function::OnePlayerOneMove => 1,
        Function::ManyPlayersOneMove => {
            number_of_players(board, players).map_or(0, |n| usize::from(n.number()))
        }
        Function::OnePlayerManyMoves | Function::ManyPlayersManyMoves => moves.len(),
    };
    let count = moves.len().min(plays);
    if count > MAX_STEPS {
        return Value::Null;
    }
    let steps: Vec<Value> = (1..=count)
        .filter_map(|k| {
            let after = function.apply(board, &moves[..k], players).ok()?;
            Some(json!({
                "move": moves[k - 1],
                "rows": after.row_strings().collect::<Vec<_>>(),
            }))
        })
        .collect();
    Value::Array(steps)
}

#[cfg(test)]
mod tests {
    use super::{decode, params, shown_text, written};

    #[test]
    fn a_query_is_percent_decoded_and_plus_is_a_space() {
        assert_eq!(decode("4453").as_deref(), Some("4453"));
        assert_eq!(decode("12%2C1%2c10").as_deref(), Some("12,1,10"));
        assert_eq!(decode("a+b%20c").as_deref(), Some("a b c"));
        assert_eq!(decode("%C3%A9").as_deref(), Some("é"));
        for bad in ["%", "%4", "%zz", "%ff", "%C3"] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn parameters_are_known_and_given_once() {
        let p = params("rows=6&&pos=&cols=7", &["rows", "cols", "pos"])
            .ok()
            .unwrap();
        assert_eq!(p["rows"], "6");
        assert_eq!(p["pos"], "");
        assert_eq!(p["cols"], "7");
        assert!(params("rows=6&rows=7", &["rows"]).is_err());
        assert!(params("row=6", &["rows"]).is_err());
        assert!(params("", &["rows"]).ok().unwrap().is_empty());
    }

    #[test]
    fn positions_are_digits_up_to_9_columns_and_commas_past() {
        assert_eq!(written(7, &[3, 3, 4, 2]), "4453");
        assert_eq!(written(9, &[8]), "9");
        assert_eq!(written(12, &[11, 0, 9]), "12,1,10");
        assert_eq!(written(12, &[]), "");
    }

    #[test]
    fn outside_text_is_quoted_escaped_and_cut() {
        assert_eq!(shown_text("x"), "\"x\"");
        assert_eq!(shown_text("a\u{1b}[31m"), "\"a\\u{1b}[31m\"");
        let long = "y".repeat(100);
        assert_eq!(shown_text(&long), format!("\"{}…\"", "y".repeat(60)));
    }
}
