//! Reading a strategy tree written by another tool (or by hand) and checking that it plays
//! the game: every secret is solved, and every edge's score is one its guess gives.
//!
//! The tree is the JSON of [`DecisionTree::to_json`]: `{"guess": "aabb", "candidates": 1296,
//! "solves": false, "next": {"00": {…}, …}}`. Only `guess` is required; `candidates` and
//! `solves`, when present, must be right; `next` may be left out at a leaf. The check
//! follows every secret down the tree, so its first error names the path to the node.

use serde_json::{Map, Value};

use crate::codes::code;
use crate::{DecisionTree, Error, Game, Score, Scorer};

impl DecisionTree {
    /// Checks the JSON tree `value` against every secret of `game` and returns it as a
    /// [`DecisionTree`]; the first problem found is an [`Error::Tree`] with its path.
    pub fn from_json(game: Game, value: &Value) -> Result<DecisionTree, Error> {
        let scorer = Scorer::new(game)?;
        let all: Vec<u32> = (0..game.num_codes() as u32).collect();
        let mut path = Vec::new();
        node(&scorer, value, all, &mut path)
    }
}

/// The steps from the root: each guess, then the score followed.
type Path = Vec<String>;

fn fail(path: &Path, problem: String) -> Error {
    let path = if path.is_empty() {
        "the root".to_string()
    } else {
        path.join(" ")
    };
    Error::Tree { path, problem }
}

fn node(
    scorer: &Scorer,
    value: &Value,
    set: Vec<u32>,
    path: &mut Path,
) -> Result<DecisionTree, Error> {
    let game = scorer.game();
    let Some(obj) = value.as_object() else {
        return Err(fail(
            path,
            format!("expected an object {{\"guess\": …}}, found {}", kind(value)),
        ));
    };
    if let Some(k) = obj
        .keys()
        .find(|k| !matches!(k.as_str(), "guess" | "candidates" | "solves" | "next"))
    {
        return Err(fail(
            path,
            format!("unknown field '{k}': expected guess, candidates, solves and next"),
        ));
    }
    // At the root, a wrong size is most likely the wrong game.
    let size = if path.is_empty() {
        format!(
            " (the game has {} pegs and {} colours: give the tree's --pegs and --colors)",
            game.pegs(),
            game.colors()
        )
    } else {
        String::new()
    };
    let guess = match obj.get("guess") {
        Some(Value::String(s)) => game
            .parse_code(s)
            .map_err(|e| fail(path, format!("bad guess: {e}{size}")))?,
        Some(v) => {
            return Err(fail(
                path,
                format!("guess must be a string, found {}", kind(v)),
            ));
        }
        None => return Err(fail(path, "no guess".to_string())),
    };
    let text = game.format_code(guess);
    path.push(text.clone());
    let g = guess.0 as u32;
    let mut parts: Vec<Vec<u32>> = vec![Vec::new(); game.num_score_slots()];
    for &s in &set {
        parts[scorer.index(g, s)].push(s);
    }
    let win = game.score_index(game.win());
    let solves = !parts[win].is_empty();
    if let Some(c) = obj.get("candidates")
        && c.as_u64() != Some(set.len() as u64)
    {
        return Err(fail(
            path,
            format!(
                "candidates is {c}, but {} secrets reach this guess{size}",
                set.len()
            ),
        ));
    }
    match obj.get("solves") {
        None => {}
        Some(Value::Bool(b)) if *b == solves => {}
        Some(v) => {
            return Err(fail(
                path,
                format!(
                    "solves is {v}, but {text} {} one of the {} secrets that reach it",
                    if solves { "is" } else { "is not" },
                    set.len()
                ),
            ));
        }
    }
    let empty = Map::new();
    let next = match obj.get("next") {
        None => &empty,
        Some(Value::Object(m)) => m,
        Some(v) => {
            return Err(fail(
                path,
                format!("next must be an object keyed by score, found {}", kind(v)),
            ));
        }
    };
    // Each branch: a score its guess gives to some secret that reaches it, not the win.
    let mut branches: Vec<(usize, &Value)> = Vec::with_capacity(next.len());
    for (key, child) in next {
        let Some(score) = game.parse_score(key) else {
            return Err(fail(
                path,
                format!(
                    "branch '{key}' is not a score: expected two digits, right then wrong, summing to at most {}",
                    game.pegs()
                ),
            ));
        };
        let i = game.score_index(score);
        if i == win {
            return Err(fail(
                path,
                format!("branch {score} follows the winning score"),
            ));
        }
        if parts[i].is_empty() {
            return Err(fail(
                path,
                format!(
                    "branch {score} is unreachable: no secret that reaches {text} scores {score} against it"
                ),
            ));
        }
        branches.push((i, child));
    }
    // Every secret that is not solved here follows a branch.
    for (i, part) in parts.iter().enumerate() {
        if i != win && !part.is_empty() && !branches.iter().any(|&(j, _)| j == i) {
            let score = game.score_from_index(i);
            return Err(fail(
                path,
                format!(
                    "secret {} is never solved: it scores {score} against {text} and no branch {score} follows",
                    game.format_code(code(part[0]))
                ),
            ));
        }
    }
    branches.sort_by_key(|&(i, _)| i);
    let mut children: Vec<(Score, DecisionTree)> = Vec::with_capacity(branches.len());
    for (i, child) in branches {
        let score = game.score_from_index(i);
        path.push(score.to_string());
        let t = node(scorer, child, std::mem::take(&mut parts[i]), path)?;
        path.pop();
        children.push((score, t));
    }
    path.pop();
    Ok(DecisionTree {
        guess,
        candidates: set.len(),
        solves,
        children,
    })
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{Solver, Strategy};

    fn problem(game: Game, v: &Value) -> (String, String) {
        match DecisionTree::from_json(game, v) {
            Err(Error::Tree { path, problem }) => (path, problem),
            other => panic!("expected a tree error, got {other:?}"),
        }
    }

    #[test]
    fn reads_back_every_strategy_tree() {
        let g = Game::default();
        for s in Strategy::ALL {
            let t = DecisionTree::build(&Solver::new(g, s).unwrap(), None);
            assert_eq!(DecisionTree::from_json(g, &t.to_json(g)).unwrap(), t, "{s}");
        }
    }

    #[test]
    fn hand_written_2x2_tree() {
        // aa: 20 wins; 10 leaves {ab, ba}; 00 leaves {bb} (see render.rs).
        let g = Game::new(2, 2).unwrap();
        let ok = json!({"guess": "aa", "next": {"00": {"guess": "bb"},
            "10": {"guess": "ab", "next": {"02": {"guess": "ba"}}}}});
        let t = DecisionTree::from_json(g, &ok).unwrap();
        assert_eq!(t.stats(g, Strategy::Knuth).total, 8);

        // ba is missing: after ab, 02 has no branch.
        let missing =
            json!({"guess": "aa", "next": {"00": {"guess": "bb"}, "10": {"guess": "ab"}}});
        let (path, p) = problem(g, &missing);
        assert_eq!(path, "aa 10 ab");
        assert!(
            p.starts_with("secret ba is never solved: it scores 02 against ab"),
            "{p}"
        );

        // A score aa never gives to a code in {ab, ba, bb}... 01 is impossible for 2x2 aa.
        let unreachable = json!({"guess": "aa", "next": {"00": {"guess": "bb"},
            "01": {"guess": "bb"},
            "10": {"guess": "ab", "next": {"02": {"guess": "ba"}}}}});
        let (path, p) = problem(g, &unreachable);
        assert_eq!(
            (path.as_str(), p.starts_with("branch 01 is unreachable")),
            ("aa", true),
            "{p}"
        );

        // A wrong count, a wrong solves flag, a bad code, a bad key, an unknown field.
        let (path, p) = problem(g, &json!({"guess": "aa", "candidates": 3}));
        assert_eq!(
            (path.as_str(), p.as_str()),
            (
                "aa",
                "candidates is 3, but 4 secrets reach this guess (the game has 2 pegs and 2 \
                 colours: give the tree's --pegs and --colors)"
            )
        );
        let (_, p) = problem(g, &json!({"guess": "aa", "solves": false}));
        assert!(p.starts_with("solves is false, but aa is one of"), "{p}");
        let (path, p) = problem(g, &json!({"guess": "ac"}));
        assert_eq!(path, "the root");
        assert!(p.starts_with("bad guess: invalid code 'ac'"), "{p}");
        let (_, p) = problem(g, &json!({"guess": "aa", "next": {"1-0": {"guess": "ab"}}}));
        assert!(p.starts_with("branch '1-0' is not a score"), "{p}");
        let (_, p) = problem(g, &json!({"guess": "aa", "nxt": {}}));
        assert!(p.starts_with("unknown field 'nxt'"), "{p}");
        let (_, p) = problem(g, &json!({"guess": "aa", "next": {"20": {"guess": "aa"}}}));
        assert_eq!(p, "branch 20 follows the winning score");
    }
}
