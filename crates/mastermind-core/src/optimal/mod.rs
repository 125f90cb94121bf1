//! The exact optimal strategy (spec §7, Koyama–Lai 1993): the decision tree with the least
//! total number of guesses over every secret, found by branch and bound.
//!
//! The cost of a candidate set `S` (`n` codes) is the guesses its secrets still need,
//! summed. A guess `g` costs every secret one guess, and the parts `g` splits `S` into
//! (each score but the win) are solved independently, so
//! `cost(S) = n + min over g of Σ cost(part)`. The search
//! - bounds a part of `k` codes from below by the best conceivable tree: one secret solved
//!   by the next guess, at most `m` (the number of non-winning scores) by the one after,
//!   `m²` by the next and so on ([`bounds`]); a guess that is not a candidate solves
//!   nobody now, so its bound is that of `S` spread evenly over the `m` scores. A guess's
//!   bound is the sum over its parts, built code by code and abandoned as soon as it cannot
//!   beat the best found so far; the rest are tried in the order of their bound (candidates
//!   first on ties), and a guess's parts smallest first, each with what is left of the bound;
//! - keeps one guess per class of guesses that a symmetry of the game history maps onto
//!   each other: permutations of the positions together with permutations of the colours
//!   that leave every guess so far unchanged, any permutation of the colours not yet
//!   played, and any exchange of colours no candidate uses;
//! - remembers every candidate set solved (its exact cost and guess) and every lower bound
//!   proved for it, so that sets reached along different paths are solved once.
//!
//! A limit on the number of guesses (`--max-guesses`) is a limit on the depth of the tree.
//!
//! The whole game is searched on every core ([`parallel`]).
//!
//! Layout: [`bounds`] (lower bounds by set size and guesses left), [`crate::symmetry`]
//! (the history's symmetries and canonical guesses, shared with the heuristic
//! strategies), [`memo`] (the memory of solved sets),
//! [`search`] (the branch and bound of one search, and the tree it yields), [`parallel`]
//! (the root searched on every core), and [`Planner`] here, the face the solver sees.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use crate::tree::DecisionTree;
use crate::{Error, Game};

use search::Optimal;

mod bounds;
mod memo;
mod parallel;
mod search;

/// Most codes a game may have for the optimal strategy (4×8, about a minute on two cores; 4×7 takes about 10 s).
pub const MAX_OPTIMAL_CODES: u64 = 4096;

/// Most guesses `--max-guesses` may ask for (more is the same as no limit in practice).
pub const MAX_GUESS_LIMIT: u32 = 60;

/// Depth value meaning "no limit".
const UNLIMITED: u8 = u8::MAX;
/// A cost that cannot be reached (no tree within the depth limit).
const INF: u32 = u32::MAX / 2;

/// Counters of the work done, for progress reports and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Candidate sets expanded (their guesses scored), by the searches whose results were kept.
    pub nodes: u64,
    /// Candidate sets remembered.
    pub memo_entries: u64,
}

/// A callback told how far the search of the root has got.
pub(crate) type Progress = Arc<dyn Fn(&str) + Send + Sync>;

/// The optimal strategy's state shared by the games of one [`crate::Solver`].
pub(crate) struct Planner {
    search: Mutex<Optimal>,
}

impl fmt::Debug for Planner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Planner").finish_non_exhaustive()
    }
}

impl Planner {
    /// A planner for `game` with at most `max_guesses` guesses per secret.
    pub(crate) fn new(game: Game, max_guesses: Option<u32>) -> Result<Planner, Error> {
        Ok(Planner {
            search: Mutex::new(Optimal::new(game, max_guesses)?),
        })
    }

    /// Reports progress of the root search to `f`.
    pub(crate) fn set_progress(&mut self, f: Progress) {
        self.search.get_mut().expect("search lock").set_progress(f);
    }

    /// The limit on guesses.
    pub(crate) fn max_guesses(&self) -> Option<u32> {
        self.search.lock().expect("search lock").max_guesses
    }

    /// Work counters of the search.
    pub(crate) fn stats(&self) -> SearchStats {
        self.search.lock().expect("search lock").stats()
    }

    /// The optimal tree (first guess `first`), or an error when the guess limit cannot be kept.
    pub(crate) fn tree(&self, first: Option<u32>) -> Result<DecisionTree, Error> {
        let mut search = self.search.lock().expect("search lock");
        let limit = search.max_guesses;
        search.tree(first).ok_or(Error::GuessLimit {
            limit: limit.unwrap_or(0),
        })
    }

    /// The next guess for `set` (see [`crate::Solver::choose`]).
    pub(crate) fn choose(&self, set: &[u32], played: u32) -> u32 {
        let mut search = self.search.lock().expect("search lock");
        if search.plan.is_none() {
            search.plan = Some(HashMap::new());
            search.recording = true;
            let _ = search.tree(None);
            search.recording = false;
        }
        if let Some(&g) = search.plan.as_ref().and_then(|m| m.get(set)) {
            return g;
        }
        search.choose(set, played)
    }
}
