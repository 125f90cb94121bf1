//! The decision-tree builder of the rule-based strategies: plays a choice of guess against
//! every secret at once, deciding each candidate set once (in parallel with rayon).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::codes::code;
use crate::symmetry;
use crate::symmetry::Sym;
use crate::{DecisionTree, Score, Scorer};

/// Candidate sets at least this big build their subtrees in parallel.
const PARALLEL_MIN: usize = 48;

/// Candidate sets at least this big pass the symmetries of the history on to their
/// children; smaller ones pass none (finding them would cost more than they save).
const SYMMETRY_MIN: usize = 64;

/// The guess for a candidate set, given the colours played so far and symmetries of the
/// guesses so far (see [`crate::Solver::choose_in`]).
pub(crate) type Choose<'a> = dyn Fn(&[u32], u32, &[Sym]) -> u32 + Sync + 'a;

/// Where a report of the secrets placed so far goes.
pub(crate) type Report<'a> = dyn Fn(&str) + Sync + 'a;

/// Counts the secrets whose guesses are all decided and reports each further percent.
pub(crate) struct Progress<'a> {
    total: u64,
    done: AtomicU64,
    report: Option<&'a Report<'a>>,
}

impl<'a> Progress<'a> {
    /// Progress over `total` secrets, told to `report` (if any).
    pub(crate) fn new(total: u64, report: Option<&'a Report<'a>>) -> Progress<'a> {
        Progress {
            total,
            done: AtomicU64::new(0),
            report,
        }
    }

    fn add(&self, solved: u64) {
        let Some(report) = self.report else { return };
        let before = self.done.fetch_add(solved, Ordering::Relaxed);
        let after = before + solved;
        if after * 100 / self.total.max(1) != before * 100 / self.total.max(1) {
            report(&format!("{after} of {} secrets placed", self.total));
        }
    }
}

/// The tree of `choose` over the candidates `set` (in the strategy's order) when the
/// guesses so far used the colours `played`; `first` fixes the guess at the root.
#[cfg(test)]
pub(crate) fn build(
    scorer: &Scorer,
    choose: &Choose<'_>,
    set: Vec<u32>,
    played: u32,
    first: Option<u32>,
) -> DecisionTree {
    let progress = Progress::new(0, None);
    build_with(scorer, choose, set, played, &[], first, &progress)
}

/// [`build`], counting each secret solved in `progress`; `group` holds symmetries of the
/// guesses so far (see [`crate::symmetry`]; empty or only the identity when none is known),
/// and each child is given those that also fix this node's guess.
pub(crate) fn build_with(
    scorer: &Scorer,
    choose: &Choose<'_>,
    set: Vec<u32>,
    played: u32,
    group: &[Sym],
    first: Option<u32>,
    progress: &Progress<'_>,
) -> DecisionTree {
    let game = scorer.game();
    let g = first.unwrap_or_else(|| choose(&set, played, group));
    let win = game.score_index(game.win());
    let idx: Vec<u8> = set.iter().map(|&s| scorer.index(g, s) as u8).collect();
    let mut counts = vec![0usize; game.num_score_slots()];
    for &i in &idx {
        counts[i as usize] += 1;
    }
    let mut parts: Vec<Vec<u32>> = counts.iter().map(|&c| Vec::with_capacity(c)).collect();
    for (&s, &i) in set.iter().zip(&idx) {
        parts[i as usize].push(s);
    }
    let solves = counts[win] > 0;
    progress.add(counts[win] as u64);
    let group = if group.len() > 1 && set.len() >= SYMMETRY_MIN {
        symmetry::stabilize(group, played, &game.digits(code(g))[..game.pegs()])
    } else {
        Vec::new()
    };
    let played = played | game.colour_mask(code(g));
    let nonempty: Vec<(Score, Vec<u32>)> = parts
        .into_iter()
        .enumerate()
        .filter(|(i, p)| *i != win && !p.is_empty())
        .map(|(i, p)| (game.score_from_index(i), p))
        .collect();
    let child = |(sc, p): (Score, Vec<u32>)| {
        let t = build_with(scorer, choose, p, played, &group, None, progress);
        (sc, t)
    };
    let children = if set.len() >= PARALLEL_MIN {
        nonempty.into_par_iter().map(child).collect()
    } else {
        nonempty.into_iter().map(child).collect()
    };
    DecisionTree {
        guess: code(g),
        candidates: set.len(),
        solves,
        children,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    #[test]
    fn builds_the_tree_of_any_choice() {
        // 2x2, always the lowest candidate: aa splits {aa, ab, ba, bb} into 00 {bb},
        // 10 {ab, ba} and the win; then ab splits {ab, ba} into 02 {ba} and the win.
        let g = Game::new(2, 2).unwrap();
        let scorer = Scorer::new(g).unwrap();
        let lowest = |set: &[u32], _played: u32, _group: &[Sym]| set[0];
        let t = build(&scorer, &lowest, vec![0, 1, 2, 3], 0, None);
        let ab = g.parse_code("ab").unwrap();
        assert_eq!(
            (t.guess.0, t.candidates, t.solves, t.children.len()),
            (0, 4, true, 2)
        );
        assert_eq!(t.children[0].0, Score::new(0, 0));
        assert_eq!(t.children[1].0, Score::new(1, 0));
        assert_eq!((t.children[1].1.guess, t.children[1].1.candidates), (ab, 2));
        assert_eq!(t.nodes(), 4);
        // A fixed first guess that is no candidate does not solve anything at the root.
        let t = build(&scorer, &lowest, vec![1, 2], 0, Some(0));
        assert!(!t.solves && t.children.len() == 1 && t.children[0].1.candidates == 2);
    }
}
