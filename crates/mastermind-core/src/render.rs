//! Decision trees written out for people (indented text) and for programs (JSON).

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::{DecisionTree, Game};

impl DecisionTree {
    /// The tree as indented text: the guess, then per score (two digits, right then wrong)
    /// the next guess, two spaces deeper per turn.
    ///
    /// A node that more than one secret reaches shows how many in parentheses, e.g.
    /// `aabb (1296)` then `  00: ccde (256)` for `knuth` in 4×6; a guess that is the only
    /// code left has no count.
    pub fn to_text(&self, game: Game) -> String {
        let mut out = String::new();
        text(self, game, 0, None, &mut out);
        out
    }

    /// The tree as JSON: `{"guess": "aabb", "candidates": 1296, "solves": false,
    /// "next": {"00": {…}, …}}`, with `next` keyed by the score typed as two digits.
    pub fn to_json(&self, game: Game) -> Value {
        let mut next = Map::new();
        for (score, child) in &self.children {
            next.insert(score.to_string(), child.to_json(game));
        }
        json!({
            "guess": game.format_code(self.guess),
            "candidates": self.candidates,
            "solves": self.solves,
            "next": next,
        })
    }
}

fn text(t: &DecisionTree, game: Game, depth: usize, score: Option<String>, out: &mut String) {
    let indent = "  ".repeat(depth);
    let _ = write!(out, "{indent}");
    if let Some(s) = score {
        let _ = write!(out, "{s}: ");
    }
    let _ = write!(out, "{}", game.format_code(t.guess));
    if t.candidates > 1 {
        let _ = write!(out, " ({})", t.candidates);
    }
    out.push('\n');
    for (s, c) in &t.children {
        text(c, game, depth + 1, Some(s.to_string()), out);
    }
}

#[cfg(test)]
mod tests {
    use crate::{DecisionTree, Game, Solver, Strategy};

    #[test]
    fn two_by_two_knuth_tree_by_hand() {
        // aa: 20 wins; 10 leaves {ab, ba} (ab, then ba after 02); 00 leaves {bb}.
        let g = Game::new(2, 2).unwrap();
        let s = Solver::new(g, Strategy::Knuth).unwrap();
        let t = DecisionTree::build(&s, None);
        assert_eq!(t.to_text(g), "aa (4)\n  00: bb\n  10: ab (2)\n    02: ba\n");
        let j = t.to_json(g);
        assert_eq!(j["guess"], "aa");
        assert_eq!(j["candidates"], 4);
        assert_eq!(j["solves"], true);
        assert_eq!(j["next"]["10"]["next"]["02"]["guess"], "ba");
        assert_eq!(j["next"]["00"]["next"], serde_json::json!({}));
    }
}
