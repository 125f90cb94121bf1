//! Decision trees written out for people (indented text) and for programs (JSON).

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::{DecisionTree, Error, Game};

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

/// Most codes a game may have for [`DecisionTree::to_dot`]: bigger trees are too big to draw.
pub const MAX_DOT_CODES: u64 = 1296;

impl DecisionTree {
    /// The tree as a Graphviz `digraph`: one box per guess (with the number of secrets that
    /// reach it; a double border when the guess can be the secret), one edge per score.
    /// Refused for games of more than [`MAX_DOT_CODES`] codes.
    pub fn to_dot(&self, game: Game) -> Result<String, Error> {
        if game.num_codes() > MAX_DOT_CODES {
            return Err(Error::TooBigToDraw {
                codes: game.num_codes(),
                limit: MAX_DOT_CODES,
            });
        }
        let mut out = String::from("digraph strategy {\n  node [shape=box, fontname=monospace];\n");
        let mut next = 0usize;
        dot(self, game, &mut next, &mut out);
        out.push_str("}\n");
        Ok(out)
    }
}

/// Writes node `t` as `n{id}` (its id is `*next`) and its subtrees after it.
fn dot(t: &DecisionTree, game: Game, next: &mut usize, out: &mut String) {
    let id = *next;
    *next += 1;
    let border = if t.solves { ", peripheries=2" } else { "" };
    let _ = writeln!(
        out,
        "  n{id} [label=\"{}\\n{}\"{border}];",
        game.format_code(t.guess),
        t.candidates
    );
    for (s, c) in &t.children {
        let child = *next;
        dot(c, game, next, out);
        let _ = writeln!(out, "  n{id} -> n{child} [label=\"{s}\"];");
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
        assert_eq!(
            t.to_dot(g).unwrap(),
            "digraph strategy {\n  node [shape=box, fontname=monospace];\n\
             \x20 n0 [label=\"aa\\n4\", peripheries=2];\n\
             \x20 n1 [label=\"bb\\n1\", peripheries=2];\n\
             \x20 n0 -> n1 [label=\"00\"];\n\
             \x20 n2 [label=\"ab\\n2\", peripheries=2];\n\
             \x20 n3 [label=\"ba\\n1\", peripheries=2];\n\
             \x20 n2 -> n3 [label=\"02\"];\n\
             \x20 n0 -> n2 [label=\"10\"];\n}\n"
        );
        let big = Game::new(4, 7).unwrap();
        assert!(matches!(
            t.to_dot(big),
            Err(crate::Error::TooBigToDraw { codes: 2401, .. })
        ));
    }
}
