//! The branch and bound of one search: the cost of a candidate set is `n + Σ cost(part)`
//! over the parts of its best guess, searched with lower bounds ([`super::bounds`]), one
//! guess per symmetry class ([`crate::symmetry`]) and a memory of solved sets; the tree of
//! any set it has solved; the guess for a set reached by an unknown history.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use super::bounds::{Bounds, child_depth};
use super::memo::{Entry, Memo};
use super::{INF, MAX_GUESS_LIMIT, MAX_OPTIMAL_CODES, Progress, SearchStats, UNLIMITED};
use crate::codes::canonical_codes;
use crate::scorer::{Form, bits_index, bytes_index};
use crate::symmetry;
use crate::symmetry::Sym;
use crate::tree::DecisionTree;
use crate::{Code, Error, Game, Scorer};

/// The search's fixed tables, shared by the threads of a parallel search.
pub(super) struct Tables {
    pub(super) game: Game,
    pub(super) codes: usize,
    pub(super) pegs: usize,
    pub(super) slots: usize,
    pub(super) win: usize,
    pub(super) digits: Vec<[u8; 8]>,
    /// The fast scorer's words of every code (byte or bit form).
    pub(super) words: Vec<[u64; 2]>,
    pub(super) form: Form,
    pub(super) masks: Vec<u32>,
    pub(super) bounds: Bounds,
}

/// The exact search with its tables and memory; one per game and depth limit.
pub(crate) struct Optimal {
    pub(super) t: Arc<Tables>,
    pub(super) max_guesses: Option<u32>,
    /// One memory per depth limit (index 0: no limit).
    pub(super) memo: Vec<Memo>,
    pub(super) guess_lists: HashMap<(u32, u32), Arc<Vec<u32>>>,
    pub(super) nodes: u64,
    pub(super) progress: Option<Progress>,
    /// Guess by candidate set along the optimal tree of the whole game, once built.
    pub(super) plan: Option<HashMap<Box<[u32]>, u32>>,
    /// Whether [`Optimal::subtree`] records its guesses in `plan`.
    pub(super) recording: bool,
}

impl fmt::Debug for Optimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Optimal")
            .field("game", &self.t.game)
            .field("max_guesses", &self.max_guesses)
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl Optimal {
    /// Tables for `game`; `max_guesses` limits the depth of the tree.
    pub(crate) fn new(game: Game, max_guesses: Option<u32>) -> Result<Optimal, Error> {
        let codes = game.num_codes();
        if codes > MAX_OPTIMAL_CODES {
            return Err(Error::TooManyForStrategy {
                strategy: "optimal",
                codes,
                limit: MAX_OPTIMAL_CODES,
            });
        }
        let codes = codes as usize;
        let pegs = game.pegs();
        let digits: Vec<[u8; 8]> = (0..codes as u64).map(|c| game.digits(Code(c))).collect();
        let masks = (0..codes as u64)
            .map(|c| game.colour_mask(Code(c)))
            .collect();
        let depths = max_guesses.map_or(1, |m| m.min(MAX_GUESS_LIMIT) as usize + 1);
        let scorer = Scorer::new(game)?;
        assert!(
            scorer.is_narrow(),
            "games of at most 4096 codes fit one word"
        );
        let t = Tables {
            words: scorer.narrow().to_vec(),
            form: scorer.form(),
            game,
            codes,
            pegs,
            slots: game.num_score_slots(),
            win: game.score_index(game.win()),
            digits,
            masks,
            bounds: Bounds::new(pegs, codes, max_guesses),
        };
        Ok(Optimal {
            t: Arc::new(t),
            max_guesses: max_guesses.map(|m| m.min(MAX_GUESS_LIMIT)),
            memo: (0..depths).map(|_| Memo::default()).collect(),
            guess_lists: HashMap::new(),
            nodes: 0,
            progress: None,
            plan: None,
            recording: false,
        })
    }

    /// Reports progress of the root search to `f`.
    pub(crate) fn set_progress(&mut self, f: Progress) {
        self.progress = Some(f);
    }

    /// Work counters so far.
    pub(crate) fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes,
            memo_entries: self.memo.iter().map(|m| m.len() as u64).sum(),
        }
    }

    /// The depth value for the whole game.
    pub(super) fn root_depth(&self) -> u8 {
        self.max_guesses.map_or(UNLIMITED, |m| m as u8)
    }

    /// The lower bound on the cost of `k` codes with `d` guesses left.
    #[inline]
    pub(super) fn lb(&self, k: usize, d: u8) -> u32 {
        self.t.bounds.lb(k, d)
    }

    /// The least bound of a guess that is not among the `n` candidates, with `d` guesses left.
    #[inline]
    fn out_lb(&self, n: usize, d: u8) -> u32 {
        self.t.bounds.out_lb(n, d)
    }

    /// What each further code of a part adds to its lower bound, with `d` guesses left.
    #[inline]
    fn delta(&self, d: u8) -> &[u32] {
        self.t.bounds.delta(d)
    }

    /// Which memory holds sets with `d` guesses left.
    #[inline]
    pub(super) fn memo_index(d: u8) -> usize {
        if d == UNLIMITED { 0 } else { d as usize }
    }

    /// Guesses left after one more guess.
    #[inline]
    pub(super) fn child_depth(d: u8) -> u8 {
        child_depth(d)
    }

    /// The digits of code `g`, one per peg.
    #[inline]
    fn digits(&self, g: u32) -> &[u8] {
        &self.t.digits[g as usize][..self.t.pegs]
    }

    /// The symmetries in `group` (for colours `played`) that also leave guess `g` unchanged.
    pub(super) fn stabilize(&self, group: &[Sym], played: u32, g: u32) -> Vec<Sym> {
        symmetry::stabilize(group, played, self.digits(g))
    }

    /// Whether `g` is the lowest code of its class under `group` (see [`symmetry::is_canonical`]).
    fn is_canonical(&self, g: u32, group: &[Sym], played: u32, live: u32) -> bool {
        let colors = self.t.game.colors() as u8;
        symmetry::is_canonical(self.digits(g), colors, group, played, live)
    }

    /// The guesses worth trying for colours `played` and `live` (see [`canonical_codes`]).
    pub(super) fn guess_list(&mut self, played: u32, live: u32) -> Arc<Vec<u32>> {
        let game = self.t.game;
        Arc::clone(
            self.guess_lists
                .entry((played, live))
                .or_insert_with(|| Arc::new(canonical_codes(game, played, live))),
        )
    }

    /// The least cost of `set` within `d` guesses if it is below `beta`; otherwise a lower
    /// bound that is at least `beta`.
    pub(super) fn solve(
        &mut self,
        set: &[u32],
        d: u8,
        beta: u32,
        played: u32,
        group: &[Sym],
    ) -> u32 {
        let n = set.len();
        let mut lb = self.lb(n, d);
        // One code: guess it; two: guess one, then the other. The bound is exact there.
        if n <= 2 || lb >= beta {
            return lb;
        }
        let mi = Self::memo_index(d);
        if let Some(e) = self.memo[mi].get(set) {
            if e.exact {
                return e.value;
            }
            lb = lb.max(e.value);
            if lb >= beta {
                return lb;
            }
        }
        self.nodes += 1;
        let live = set.iter().fold(0, |m, &c| m | self.t.masks[c as usize]);
        let list = self.guess_list(played, live);
        let in_set: Vec<u32> = set
            .iter()
            .copied()
            .filter(|g| list.binary_search(g).is_ok())
            .collect();
        let others = {
            let mut k = 0;
            list.iter().copied().filter(move |&g| {
                while k < n && set[k] < g {
                    k += 1;
                }
                !(k < n && set[k] == g)
            })
        };
        let mut scan = NodeScan::new(set, &self.t.words);
        let mut best = Best {
            cost: beta,
            guess: None,
            proven: INF,
            lb,
        };
        // A guess that is not a candidate solves no secret now: its bound is at least that
        // of the `n` codes spread evenly over every non-winning score.
        let out_min = self.out_lb(n, d);
        // Candidates first: a perfect split by one of them ends the search at once, and
        // those whose bound is below `out_min` come before every other guess anyway.
        let mut done = self.scan(
            &mut scan, in_set, 0, d, beta, lb, group, played, live, &mut best,
        );
        let min_in = scan.least;
        let mut cands = std::mem::take(&mut scan.cands);
        cands.sort_unstable();
        let mut next = 0;
        while !done && next < cands.len() && (cands[next] >> 33) as u32 <= out_min {
            done = self.step(cands[next], set, d, played, group, &mut best);
            next += 1;
        }
        if !done {
            // No guess does better than the best candidate or the best non-candidate.
            best.lb = best.lb.max(min_in.min(out_min));
            done = best.guess.is_some() && best.cost <= best.lb;
        }
        if !done {
            let mut rest = cands.split_off(next);
            if out_min < best.cost {
                scan.cands = rest;
                let bound = best.cost;
                let (lb2, cost) = (best.lb, bound);
                done = self.scan(
                    &mut scan, others, 1, d, cost, lb2, group, played, live, &mut best,
                );
                rest = std::mem::take(&mut scan.cands);
                rest.sort_unstable();
            } else {
                best.proven = best.proven.min(out_min);
            }
            for &key in &rest {
                if done {
                    break;
                }
                done = self.step(key, set, d, played, group, &mut best);
            }
        }
        best.proven = best.proven.min(scan.skipped);
        let entry = match best.guess {
            Some(g) => Entry {
                value: best.cost,
                exact: true,
                guess: g,
            },
            None => Entry {
                value: best.lb.max(best.proven),
                exact: false,
                guess: 0,
            },
        };
        self.memo[mi].insert(set.into(), entry);
        entry.value
    }

    /// Scores each of `guesses` against the candidates of `scan`: those whose bound is below
    /// `beta` go to `scan.cands` (packed with `phase`, 1 for non-candidates). Returns true
    /// when a guess is known optimal without search (recorded in `best`).
    #[allow(clippy::too_many_arguments)] // reason: the node's whole state, in a hot loop
    pub(super) fn scan(
        &self,
        scan: &mut NodeScan,
        guesses: impl IntoIterator<Item = u32>,
        phase: u64,
        d: u8,
        beta: u32,
        lb: u32,
        group: &[Sym],
        played: u32,
        live: u32,
        best: &mut Best,
    ) -> bool {
        let n = scan.local.len();
        let win = self.t.win;
        let pegs = self.t.pegs;
        let delta = self.delta(Self::child_depth(d));
        // The bound's `extra` (see [`tally`]) at which a guess cannot beat `beta`.
        let limit = if beta >= INF {
            u32::MAX
        } else {
            (beta + 1).saturating_sub(2 * n as u32)
        };
        for g in guesses {
            if !self.is_canonical(g, group, played, live) {
                continue;
            }
            let x = self.t.words[g as usize];
            let NodeScan {
                counts,
                seen,
                local,
                ..
            } = scan;
            let tally = match self.t.form {
                Form::Bytes => tally(counts, seen, delta, limit, local, |y| {
                    bytes_index(x, y, pegs)
                }),
                _ => tally(counts, seen, delta, limit, local, |y| {
                    bits_index(x, y, pegs)
                }),
            };
            let Some((sum, big)) = tally else {
                scan.skipped = scan.skipped.min(beta);
                scan.least = scan.least.min(beta);
                continue;
            };
            let first = scan.counts[scan.seen[0] as usize];
            let hit = scan.counts[win];
            for &i in &scan.seen[..n] {
                scan.counts[i as usize] = 0;
            }
            // The winning part (the guess itself) costs nothing more: take back its 1.
            let lbg = (n as u32).saturating_add(sum) - hit;
            let useless = first as usize == n && hit == 0;
            if useless || lbg >= INF {
                continue;
            }
            scan.least = scan.least.min(lbg);
            if !big && lbg <= lb {
                // Parts of at most two codes cost exactly their bound, and nothing beats it.
                if lbg < best.cost {
                    best.cost = lbg;
                    best.guess = Some(g);
                } else {
                    best.proven = best.proven.min(lbg);
                }
                return true;
            }
            if lbg >= beta {
                scan.skipped = scan.skipped.min(lbg);
                continue;
            }
            scan.cands
                .push(((lbg as u64) << 33) | (phase << 32) | g as u64);
        }
        false
    }

    /// Evaluates the packed guess `key` against the best so far; true when no other guess
    /// can do better.
    fn step(
        &mut self,
        key: u64,
        set: &[u32],
        d: u8,
        played: u32,
        group: &[Sym],
        best: &mut Best,
    ) -> bool {
        let (lbg, g) = ((key >> 33) as u32, key as u32);
        if lbg >= best.cost {
            // Sorted by bound: no later guess can do better either.
            best.proven = best.proven.min(lbg);
            return true;
        }
        let (cost, ok) = self.eval(set, g, d, best.cost, played, group);
        if ok {
            best.cost = cost;
            best.guess = Some(g);
        } else {
            best.proven = best.proven.min(cost);
        }
        best.guess.is_some() && best.cost <= best.lb
    }

    /// The cost of playing `g` on `set` (with `d` guesses left) if below `bound`, with
    /// `true`; otherwise a lower bound of at least `bound`, with `false`.
    pub(super) fn eval(
        &mut self,
        set: &[u32],
        g: u32,
        d: u8,
        bound: u32,
        played: u32,
        group: &[Sym],
    ) -> (u32, bool) {
        let n = set.len();
        let dn = Self::child_depth(d);
        let (buf, parts) = self.split(set, g);
        let mut sum = n as u32;
        // Big parts with their bound: by size, or what an earlier search proved.
        let mut big: Vec<(usize, usize, u32)> = Vec::new();
        let mi = Self::memo_index(dn);
        for &(_, a, b) in &parts {
            let mut l = self.lb(b - a, dn);
            if b - a > 2 {
                if let Some(e) = self.memo[mi].get(&buf[a..b]) {
                    l = l.max(e.value);
                }
                big.push((a, b, l));
            }
            sum = sum.saturating_add(l);
        }
        if sum >= bound {
            return (sum, false);
        }
        // Smallest parts first: they are solved cheaply, and what they cost beyond their
        // bound tightens the bound of the big ones (measured: 5× fewer nodes for 4×6 than
        // biggest first).
        big.sort_by_key(|&(a, b, _)| b - a);
        let played2 = played | self.t.masks[g as usize];
        let group2 = if big.is_empty() {
            Vec::new()
        } else {
            self.stabilize(group, played, g)
        };
        for (a, b, l) in big {
            sum -= l;
            let v = self.solve(&buf[a..b], dn, bound - sum, played2, &group2);
            sum = sum.saturating_add(v);
            if sum >= bound {
                return (sum, false);
            }
        }
        (sum, true)
    }

    /// `set` grouped by the score against `g`: the codes, and (score index, start, end) of
    /// each non-winning part, by increasing score.
    pub(super) fn split(&self, set: &[u32], g: u32) -> (Vec<u32>, Vec<(usize, usize, usize)>) {
        let x = self.t.words[g as usize];
        let pegs = self.t.pegs;
        let idx: Vec<u8> = set
            .iter()
            .map(|&s| {
                let y = self.t.words[s as usize];
                (match self.t.form {
                    Form::Bytes => bytes_index(x, y, pegs),
                    _ => bits_index(x, y, pegs),
                }) as u8
            })
            .collect();
        let mut counts = [0usize; 81];
        for &i in &idx {
            counts[i as usize] += 1;
        }
        let mut start = [0usize; 81];
        let mut at = 0;
        for i in 0..self.t.slots {
            start[i] = at;
            at += counts[i];
        }
        let mut buf = vec![0u32; set.len()];
        let mut fill = start;
        for (&s, &i) in set.iter().zip(&idx) {
            let i = i as usize;
            buf[fill[i]] = s;
            fill[i] += 1;
        }
        let parts = (0..self.t.slots)
            .filter(|&i| i != self.t.win && counts[i] > 0)
            .map(|i| (i, start[i], start[i] + counts[i]))
            .collect();
        (buf, parts)
    }

    /// The best guess for `set` with `d` guesses left (solving it if needed), or `None`
    /// when no tree fits in `d` guesses.
    fn best_guess(&mut self, set: &[u32], d: u8, played: u32, group: &[Sym]) -> Option<u32> {
        let n = set.len();
        if self.lb(n, d) >= INF {
            return None;
        }
        if n <= 2 {
            return Some(set[0]);
        }
        let mi = Self::memo_index(d);
        match self.memo[mi].get(set) {
            Some(e) if e.exact => return Some(e.guess),
            _ => {}
        }
        if self.solve(set, d, INF, played, group) >= INF {
            return None;
        }
        let e = self.memo[mi].get(set).expect("a solved set is remembered");
        debug_assert!(e.exact);
        Some(e.guess)
    }

    /// The optimal tree for `set` with `d` guesses left.
    pub(super) fn subtree(
        &mut self,
        set: &[u32],
        d: u8,
        played: u32,
        group: &[Sym],
        first: Option<u32>,
    ) -> Option<DecisionTree> {
        let g = match first {
            Some(f) if d >= 1 => f,
            Some(_) => return None,
            None => self.best_guess(set, d, played, group)?,
        };
        if self.recording
            && let Some(plan) = &mut self.plan
        {
            plan.entry(set.into()).or_insert(g);
        }
        let (buf, parts) = self.split(set, g);
        let played2 = played | self.t.masks[g as usize];
        let group2 = self.stabilize(group, played, g);
        let dn = Self::child_depth(d);
        let mut children = Vec::with_capacity(parts.len());
        for (i, a, b) in parts {
            let t = self.subtree(&buf[a..b], dn, played2, &group2, None)?;
            children.push((self.t.game.score_from_index(i), t));
        }
        let solves = set.binary_search(&g).is_ok();
        Some(DecisionTree {
            guess: Code(g as u64),
            candidates: set.len(),
            solves,
            children,
        })
    }

    /// The guess for a candidate set reached by an unknown history with colours `played`:
    /// optimal for the rest of the game within the guess limit (or without it, when the
    /// limit cannot be kept any more).
    pub(crate) fn choose(&mut self, set: &[u32], played: u32) -> u32 {
        let group = symmetry::identity_group(played);
        let d = self.root_depth();
        self.best_guess(set, d, played, &group)
            .or_else(|| self.best_guess(set, UNLIMITED, played, &group))
            .expect("a tree without a depth limit always exists")
    }
}

/// The search of one node: the best guess so far and what is proved about the others.
pub(super) struct Best {
    /// The cost of `guess`, or the bound to beat while there is none.
    pub(super) cost: u32,
    pub(super) guess: Option<u32>,
    /// The least lower bound proved for a guess that does not beat `cost`.
    pub(super) proven: u32,
    /// A lower bound on every guess.
    pub(super) lb: u32,
}

/// Scratch space and results of scoring guesses against one node's candidates.
pub(super) struct NodeScan {
    pub(super) counts: [u32; 256],
    pub(super) seen: Vec<u8>,
    /// The candidates' scorer words.
    pub(super) local: Vec<[u64; 2]>,
    /// The least bound of the guesses left out for being no better than the bound to beat.
    pub(super) skipped: u32,
    /// The least bound of every guess scored.
    pub(super) least: u32,
    /// Guesses to search: (bound, not a candidate, code) packed for sorting.
    pub(super) cands: Vec<u64>,
}

impl NodeScan {
    /// A fresh scan of the candidate set `set`, whose scorer words are `words[c]`.
    pub(super) fn new(set: &[u32], words: &[[u64; 2]]) -> NodeScan {
        NodeScan {
            counts: [0; 256],
            seen: vec![0; set.len()],
            local: set.iter().map(|&c| words[c as usize]).collect(),
            skipped: INF,
            least: INF,
            cands: Vec::new(),
        }
    }
}

/// Counts the score indices `idx(y)` of the set's words `local` into `counts` (remembering
/// each in `seen`), summing `delta` of each part's size before the code is added; `None`
/// (counts left dirty for `seen`) as soon as the sum's excess over one per code reaches `limit`.
#[inline(always)]
fn tally(
    counts: &mut [u32; 256],
    seen: &mut [u8],
    delta: &[u32],
    limit: u32,
    local: &[[u64; 2]],
    idx: impl Fn([u64; 2]) -> usize,
) -> Option<(u32, bool)> {
    let mut sum = 0u32;
    let mut extra = 0u32;
    let mut big = false;
    for (j, &y) in local.iter().enumerate() {
        let i = idx(y) & 255;
        seen[j] = i as u8;
        let c = counts[i];
        let add = delta[c as usize];
        sum = sum.saturating_add(add);
        extra = extra.saturating_add(add - 1);
        big |= c >= 2;
        counts[i] = c + 1;
        if extra >= limit {
            for &k in &seen[..=j] {
                counts[k as usize] = 0;
            }
            return None;
        }
    }
    Some((sum, big))
}
