//! Decision trees (a strategy's whole play, built once) and the statistics read from them.
//!
//! A tree is plain data: the rule-based strategies' builder (`builder.rs`) and the optimal
//! strategy's planner (`optimal/`) each make one; [`crate::Solver`] picks which.

use serde::Serialize;

use crate::{Code, Game, Score, Strategy};

/// One node of a strategy's play: the guess made when `candidates` codes remain, and what follows each score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionTree {
    /// The guess played at this node.
    pub guess: Code,
    /// How many secrets reach this node.
    pub candidates: usize,
    /// Whether the guess is one of those secrets (then it is solved here).
    pub solves: bool,
    /// For each non-winning score some secret gives, the subtree that follows, by increasing score.
    pub children: Vec<(Score, DecisionTree)>,
}

impl DecisionTree {
    /// Number of nodes in the tree.
    pub fn nodes(&self) -> usize {
        1 + self.children.iter().map(|(_, t)| t.nodes()).sum::<usize>()
    }

    /// Total, worst case and histogram over every secret that reaches this node.
    pub fn stats(&self, game: Game, strategy: Strategy) -> Stats {
        let mut histogram = Vec::new();
        walk(self, 1, &mut histogram);
        let total = histogram
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u64 + 1) * c)
            .sum();
        Stats {
            strategy,
            pegs: game.pegs(),
            colors: game.colors(),
            codes: self.candidates as u64,
            total,
            average: 0.0,
            worst: histogram.len(),
            histogram,
        }
        .with_average()
    }
}

fn walk(t: &DecisionTree, depth: usize, hist: &mut Vec<u64>) {
    if t.solves {
        if hist.len() < depth {
            hist.resize(depth, 0);
        }
        hist[depth - 1] += 1;
    }
    for (_, c) in &t.children {
        walk(c, depth + 1, hist);
    }
}

/// How a strategy does over every secret of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// The strategy played.
    #[serde(serialize_with = "ser_strategy")]
    pub strategy: Strategy,
    /// Pegs per code.
    pub pegs: usize,
    /// Number of colours.
    pub colors: usize,
    /// Number of secrets played.
    pub codes: u64,
    /// Guesses needed, summed over every secret.
    pub total: u64,
    /// `total / codes`.
    pub average: f64,
    /// Most guesses any secret needs.
    pub worst: usize,
    /// Element `i` counts the secrets solved in `i + 1` guesses.
    pub histogram: Vec<u64>,
}

fn ser_strategy<S: serde::Serializer>(s: &Strategy, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(s.name())
}

impl Stats {
    fn with_average(mut self) -> Stats {
        self.average = if self.codes == 0 {
            0.0
        } else {
            self.total as f64 / self.codes as f64
        };
        self
    }

    /// The statistics as `name: value` lines, as `mastermind stats` prints them; `first` is
    /// the fixed first guess, if any.
    pub fn to_text(&self, first: Option<&str>) -> String {
        format!("strategy: {}\n{}", self.strategy, self.figures_text(first))
    }

    /// [`Stats::to_text`] without the strategy's line: the figures of any tree, as
    /// `mastermind check-tree` prints them.
    pub fn figures_text(&self, first: Option<&str>) -> String {
        let mut out = format!("pegs: {}\ncolors: {}\n", self.pegs, self.colors);
        if let Some(f) = first {
            out += &format!("first: {f}\n");
        }
        out += &format!(
            "codes: {}\ntotal: {}\naverage: {:.4}\nworst: {}\nhistogram: {}\n",
            self.codes,
            self.total,
            self.average,
            self.worst,
            self.histogram_text()
        );
        out
    }

    /// The histogram written as `1/6/62/533/694`.
    pub fn histogram_text(&self) -> String {
        self.histogram
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats;

    #[test]
    fn stats_as_text() {
        // 2x2 knuth (see render.rs): aa solves one secret, bb and ab one each in two
        // guesses, ba in three: total 1 + 2 + 2 + 3 = 8 over 4 codes.
        let g = Game::new(2, 2).unwrap();
        let s = stats(g, Strategy::Knuth, None).unwrap();
        assert_eq!(
            s.to_text(None),
            "strategy: knuth\npegs: 2\ncolors: 2\ncodes: 4\ntotal: 8\naverage: 2.0000\n\
             worst: 3\nhistogram: 1/2/1\n"
        );
        assert!(
            s.to_text(Some("ab"))
                .contains("colors: 2\nfirst: ab\ncodes: 4\n")
        );
    }
}
