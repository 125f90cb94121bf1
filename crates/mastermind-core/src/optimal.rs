//! The exact optimal strategy (spec §7, Koyama–Lai 1993): the decision tree with the least
//! total number of guesses over every secret, found by branch and bound.
//!
//! The cost of a candidate set `S` (`n` codes) is the guesses its secrets still need,
//! summed. A guess `g` costs every secret one guess, and the parts `g` splits `S` into
//! (each score but the win) are solved independently, so
//! `cost(S) = n + min over g of Σ cost(part)`. The search
//! - bounds a part of `k` codes from below by the best conceivable tree: one secret solved
//!   by the next guess, at most `m` (the number of non-winning scores) by the one after,
//!   `m²` by the next and so on ([`Optimal::lb`]); a guess that is not a candidate solves
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
//! The whole game is searched on every core (rayon): the parts of the first guess with the
//! most parts are solved side by side, each by its own search with its own memory (parts are
//! disjoint, so nothing is lost), then the other first guesses are tried side by side against
//! its total. The memories of the searches whose results are used are merged for the tree.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::codes::canonical_codes;
use crate::scorer::{Form, bits_index, bytes_index};
use crate::tree::DecisionTree;
use crate::{Code, Error, Game, Scorer};

/// Most codes a game may have for the optimal strategy (4×8; 4×7 already takes about 10 s).
pub const MAX_OPTIMAL_CODES: u64 = 4096;

/// Most guesses `--max-guesses` may ask for (more is the same as no limit in practice).
pub const MAX_GUESS_LIMIT: u32 = 60;

/// Depth value meaning "no limit".
const UNLIMITED: u8 = u8::MAX;
/// A cost that cannot be reached (no tree within the depth limit).
const INF: u32 = u32::MAX / 2;

/// A fast non-cryptographic hasher for candidate sets (FxHash's multiply-rotate).
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

const FX_K: u64 = 0x517c_c1b7_2722_0a95;

impl FxHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(FX_K);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Memo = HashMap<Box<[u32]>, Entry, BuildHasherDefault<FxHasher>>;

/// What the search knows about one candidate set at one depth limit.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The exact cost when `exact`, else a lower bound.
    value: u32,
    exact: bool,
    /// The best guess (when `exact`).
    guess: u32,
}

/// A symmetry of the game history: position `p` moves to `perm[p]`, played colour `c`
/// becomes `cmap[c]` (unplayed colours may be permuted freely).
#[derive(Clone, Copy, Debug)]
struct Sym {
    perm: [u8; 8],
    cmap: [u8; 26],
}

/// Counters of the work done, for progress reports and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Candidate sets expanded (their guesses scored), by the searches whose results were kept.
    pub nodes: u64,
    /// Candidate sets remembered.
    pub memo_entries: u64,
}

/// The search's fixed tables, shared by the threads of a parallel search.
struct Tables {
    game: Game,
    codes: usize,
    pegs: usize,
    slots: usize,
    win: usize,
    digits: Vec<[u8; 8]>,
    /// The fast scorer's words of every code (byte or bit form).
    words: Vec<[u64; 2]>,
    form: Form,
    masks: Vec<u32>,
    /// Lower bound by part size without a depth limit.
    lb_free: Vec<u32>,
    /// `lb_depth[d][k]`: lower bound for `k` codes within `d` guesses.
    lb_depth: Vec<Vec<u32>>,
    /// `lb(k + 1) - lb(k)` without a depth limit: what the `k+1`-th code of a part adds.
    delta_free: Vec<u32>,
    /// The same within `d` guesses (`INF` where the part no longer fits).
    delta_depth: Vec<Vec<u32>>,
    /// Non-winning scores: the most parts a guess can make.
    m: usize,
}

/// The exact search with its tables and memory; one per game and depth limit.
pub(crate) struct Optimal {
    t: Arc<Tables>,
    max_guesses: Option<u32>,
    /// One memory per depth limit (index 0: no limit).
    memo: Vec<Memo>,
    guess_lists: HashMap<(u32, u32), std::sync::Arc<Vec<u32>>>,
    nodes: u64,
    progress: Option<Progress>,
    /// Guess by candidate set along the optimal tree of the whole game, once built.
    plan: Option<HashMap<Box<[u32]>, u32>>,
    /// Whether [`Optimal::subtree`] records its guesses in `plan`.
    recording: bool,
}

/// A callback told how far the search of the root has got.
pub(crate) type Progress = std::sync::Arc<dyn Fn(&str) + Send + Sync>;

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
        // Non-winning scores: right + wrong <= pegs, not (pegs-1, 1), not (pegs, 0).
        let m = ((pegs + 1) * (pegs + 2) / 2 - 2).max(1) as u64;
        let m_parts = m as usize;
        let bound = |k: usize, depth: u32| -> u32 {
            let (mut left, mut level, mut cap, mut total) = (k as u64, 1u64, 1u64, 0u64);
            while left > 0 {
                if level > depth as u64 {
                    return INF;
                }
                let take = cap.min(left);
                total += take * level;
                left -= take;
                cap = cap.saturating_mul(m);
                level += 1;
            }
            total.min(INF as u64) as u32
        };
        let lb_free = (0..=codes + 1).map(|k| bound(k, u32::MAX)).collect();
        let lb_depth = match max_guesses {
            Some(max) => (0..=max.min(MAX_GUESS_LIMIT))
                .map(|d| (0..=codes + 1).map(|k| bound(k, d)).collect())
                .collect(),
            None => Vec::new(),
        };
        let delta = |lb: &Vec<u32>| -> Vec<u32> {
            lb.windows(2)
                .map(|w| if w[1] >= INF { INF } else { w[1] - w[0] })
                .collect()
        };
        let delta_free = delta(&lb_free);
        let delta_depth = lb_depth.iter().map(delta).collect();
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
            lb_free,
            lb_depth,
            m: m_parts,
            delta_free,
            delta_depth,
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
    fn root_depth(&self) -> u8 {
        self.max_guesses.map_or(UNLIMITED, |m| m as u8)
    }

    /// The lower bound on the cost of `k` codes with `d` guesses left.
    #[inline]
    fn lb(&self, k: usize, d: u8) -> u32 {
        if d == UNLIMITED {
            self.t.lb_free[k]
        } else {
            self.t.lb_depth[d as usize][k]
        }
    }

    /// The least bound of a guess that is not among the `n` candidates, with `d` guesses left.
    #[inline]
    fn out_lb(&self, n: usize, d: u8) -> u32 {
        let dn = Self::child_depth(d);
        let m = self.t.m;
        let (q, r) = (n / m, n % m);
        let a = (r as u32).saturating_mul(self.lb(q + 1, dn));
        let b = ((m - r) as u32).saturating_mul(self.lb(q, dn));
        (n as u32).saturating_add(a).saturating_add(b)
    }

    /// What each further code of a part adds to its lower bound, with `d` guesses left.
    #[inline]
    fn delta(&self, d: u8) -> &[u32] {
        if d == UNLIMITED {
            &self.t.delta_free
        } else {
            &self.t.delta_depth[d as usize]
        }
    }

    #[inline]
    fn memo_index(d: u8) -> usize {
        if d == UNLIMITED { 0 } else { d as usize }
    }

    #[inline]
    fn child_depth(d: u8) -> u8 {
        if d == UNLIMITED {
            d
        } else {
            d.saturating_sub(1)
        }
    }

    /// Every symmetry of an empty history: all permutations of the positions.
    fn root_group(&self) -> Vec<Sym> {
        let mut out = Vec::new();
        let mut perm: Vec<u8> = (0..self.t.pegs as u8).collect();
        permutations(&mut perm, 0, &mut |p| {
            let mut s = Sym {
                perm: [0; 8],
                cmap: [u8::MAX; 26],
            };
            s.perm[..p.len()].copy_from_slice(p);
            out.push(s);
        });
        out
    }

    /// Only the identity (for a history that is not known).
    fn identity_group(&self, played: u32) -> Vec<Sym> {
        let mut s = Sym {
            perm: [0; 8],
            cmap: [u8::MAX; 26],
        };
        for p in 0..8 {
            s.perm[p] = p as u8;
        }
        for c in 0..26 {
            if played & (1 << c) != 0 {
                s.cmap[c] = c as u8;
            }
        }
        vec![s]
    }

    /// The symmetries in `group` (for colours `played`) that also leave guess `g` unchanged.
    fn stabilize(&self, group: &[Sym], played: u32, g: u32) -> Vec<Sym> {
        let d = &self.t.digits[g as usize];
        let mut out = Vec::with_capacity(group.len());
        'next: for s in group {
            let mut t = *s;
            let mut used = 0u32;
            for p in 0..self.t.pegs {
                let c = d[p] as usize;
                let target = d[s.perm[p] as usize];
                if played & (1 << c) != 0 {
                    if s.cmap[c] != target {
                        continue 'next;
                    }
                } else if t.cmap[c] == u8::MAX {
                    let tb = 1u32 << target;
                    if played & tb != 0 || used & tb != 0 {
                        continue 'next;
                    }
                    used |= tb;
                    t.cmap[c] = target;
                } else if t.cmap[c] != target {
                    continue 'next;
                }
            }
            out.push(t);
        }
        out
    }

    /// Whether `g` (already reduced for unplayed and dead colours) is the lowest code of its
    /// class under `group`.
    fn is_canonical(&self, g: u32, group: &[Sym], played: u32, live: u32) -> bool {
        if group.len() <= 1 {
            return true;
        }
        let gd = &self.t.digits[g as usize][..self.t.pegs];
        let colors = self.t.game.colors() as u8;
        let dead_low = (0..colors).find(|&c| live & (1 << c) == 0).unwrap_or(0);
        let mut free = [0u8; 26];
        let mut nfree = 0;
        for c in 0..colors {
            if played & (1 << c) == 0 && live & (1 << c) != 0 {
                free[nfree] = c;
                nfree += 1;
            }
        }
        for s in group {
            let mut h = [0u8; 8];
            for (p, &c) in gd.iter().enumerate() {
                let mc = if played & (1 << c) != 0 {
                    s.cmap[c as usize]
                } else {
                    c
                };
                h[s.perm[p] as usize] = mc;
            }
            let mut relabel = [u8::MAX; 26];
            let mut next = 0;
            for x in h[..self.t.pegs].iter_mut() {
                let c = *x;
                *x = if live & (1 << c) == 0 {
                    dead_low
                } else if played & (1 << c) == 0 {
                    if relabel[c as usize] == u8::MAX {
                        relabel[c as usize] = free[next];
                        next += 1;
                    }
                    relabel[c as usize]
                } else {
                    c
                };
            }
            if h[..self.t.pegs] < *gd {
                return false;
            }
        }
        true
    }

    /// The guesses worth trying for colours `played` and `live` (see [`canonical_codes`]).
    fn guess_list(&mut self, played: u32, live: u32) -> std::sync::Arc<Vec<u32>> {
        let game = self.t.game;
        std::sync::Arc::clone(
            self.guess_lists
                .entry((played, live))
                .or_insert_with(|| std::sync::Arc::new(canonical_codes(game, played, live))),
        )
    }

    /// The least cost of `set` within `d` guesses if it is below `beta`; otherwise a lower
    /// bound that is at least `beta`.
    fn solve(&mut self, set: &[u32], d: u8, beta: u32, played: u32, group: &[Sym]) -> u32 {
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
        let mut scan = NodeScan {
            counts: [0; 256],
            seen: vec![0; n],
            local: set.iter().map(|&c| self.t.words[c as usize]).collect(),
            skipped: INF,
            least: INF,
            cands: Vec::new(),
        };
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
    fn scan(
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
    fn eval(
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
    fn split(&self, set: &[u32], g: u32) -> (Vec<u32>, Vec<(usize, usize, usize)>) {
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

    /// The optimal tree for every code (first guess `first` if given); `None` when no tree
    /// fits in the guess limit.
    pub(crate) fn tree(&mut self, first: Option<u32>) -> Option<DecisionTree> {
        let set: Vec<u32> = (0..self.t.codes as u32).collect();
        let group = self.root_group();
        let d = self.root_depth();
        let solved = match self.memo[Self::memo_index(d)].get(&set[..]) {
            Some(e) => e.exact,
            None => false,
        };
        if !solved || first.is_some() {
            self.solve_root(&set, d, &group, first);
        }
        self.subtree(&set, d, 0, &group, first)
    }

    /// A search of the same game sharing the tables, with an empty memory (for another thread).
    fn fork(&self) -> Optimal {
        Optimal {
            t: Arc::clone(&self.t),
            max_guesses: self.max_guesses,
            memo: (0..self.memo.len()).map(|_| Memo::default()).collect(),
            guess_lists: self.guess_lists.clone(),
            nodes: 0,
            progress: None,
            plan: None,
            recording: false,
        }
    }

    /// Takes over what a forked search learnt.
    fn absorb(&mut self, other: Optimal) {
        self.nodes += other.nodes;
        for (mine, theirs) in self.memo.iter_mut().zip(other.memo) {
            if mine.is_empty() {
                *mine = theirs;
                continue;
            }
            for (k, v) in theirs {
                match mine.get_mut(&k) {
                    Some(e) if e.exact => {}
                    Some(e) if !v.exact => e.value = e.value.max(v.value),
                    Some(e) => *e = v,
                    None => {
                        mine.insert(k, v);
                    }
                }
            }
        }
    }

    /// Solves the whole game `set` (with first guess `first` if given) on every core: the
    /// parts of the first guess tried are solved side by side, then the other first guesses
    /// are tried side by side against its total. Records the result in the memory.
    fn solve_root(&mut self, set: &[u32], d: u8, group: &[Sym], first: Option<u32>) {
        let cands: Vec<u32> = match first {
            Some(f) => vec![f],
            None => self.root_candidates(set, d, group),
        };
        let Some(&g0) = cands.first() else {
            return;
        };
        let (cost0, workers) = self.eval_parallel(set, g0, d, group, INF);
        for w in workers {
            self.absorb(w);
        }
        self.report(g0, cost0, true);
        let mut best = (cost0, g0);
        if first.is_none() && cands.len() > 1 {
            let this = &*self;
            let tried: Vec<(u32, u32, Vec<Optimal>)> = cands[1..]
                .par_iter()
                .with_max_len(1)
                .map(|&g| {
                    let mut w = this.fork();
                    let (cost, _) = w.eval(set, g, d, cost0, 0, group);
                    let ws = vec![w];
                    this.report(g, cost, cost < cost0);
                    (g, cost, ws)
                })
                .collect();
            for (g, cost, ws) in tried {
                if cost < best.0 {
                    best = (cost, g);
                    for w in ws {
                        self.absorb(w);
                    }
                }
            }
        }
        if first.is_none() && best.0 < INF {
            self.memo[Self::memo_index(d)].insert(
                set.into(),
                Entry {
                    value: best.0,
                    exact: true,
                    guess: best.1,
                },
            );
        }
    }

    /// Tells the progress callback what a first guess costs.
    fn report(&self, g: u32, cost: u32, exact: bool) {
        if let Some(p) = &self.progress {
            let cost = if cost >= INF {
                "too many guesses".to_string()
            } else if exact {
                format!("total {cost}")
            } else {
                format!("total >= {cost}")
            };
            p(&format!(
                "first guess {}: {cost}",
                self.t.game.format_code(Code(g as u64))
            ));
        }
    }

    /// The first guesses worth trying (one per symmetry class), best bound first.
    fn root_candidates(&mut self, set: &[u32], d: u8, group: &[Sym]) -> Vec<u32> {
        let n = set.len();
        let live = set.iter().fold(0, |m, &c| m | self.t.masks[c as usize]);
        let list = self.guess_list(0, live);
        let mut scan = NodeScan {
            counts: [0; 256],
            seen: vec![0; n],
            local: set.iter().map(|&c| self.t.words[c as usize]).collect(),
            skipped: INF,
            least: INF,
            cands: Vec::new(),
        };
        let mut best = Best {
            cost: INF,
            guess: None,
            proven: INF,
            lb: 0,
        };
        self.scan(
            &mut scan,
            list.iter().copied(),
            0,
            d,
            INF,
            0,
            group,
            0,
            live,
            &mut best,
        );
        scan.cands.sort_unstable();
        let mut cands: Vec<u32> = scan.cands.iter().map(|&k| k as u32).collect();
        // Solved exactly first (the others only need to be shown no better): the guess
        // with the most parts, then the lowest (as `most-parts` picks), which tends to be the
        // best (4×6 and 4×7: aabc).
        if let Some(i) = (0..cands.len()).max_by_key(|&i| {
            let parts = self.split(set, cands[i]).1.len();
            (parts, std::cmp::Reverse(cands[i]))
        }) {
            let g = cands.remove(i);
            cands.insert(0, g);
        }
        cands
    }

    /// The cost of playing `g` on the whole game `set` if below `bound` (`INF` or more when it
    /// cannot keep the guess limit), else a lower bound of at least `bound`, with the searches
    /// that solved its big parts side by side. Each part gets the bound that leaves every
    /// other part its lower bound.
    fn eval_parallel(
        &self,
        set: &[u32],
        g: u32,
        d: u8,
        group: &[Sym],
        bound: u32,
    ) -> (u32, Vec<Optimal>) {
        let dn = Self::child_depth(d);
        let (buf, parts) = self.split(set, g);
        let mut sum = set.len() as u32;
        let mut big = Vec::new();
        for &(_, a, b) in &parts {
            sum = sum.saturating_add(self.lb(b - a, dn));
            if b - a > 2 {
                big.push(&buf[a..b]);
            }
        }
        if sum >= bound {
            return (sum, Vec::new());
        }
        big.sort_by_key(|p| std::cmp::Reverse(p.len()));
        let played2 = self.t.masks[g as usize];
        let group2 = self.stabilize(group, 0, g);
        let base = sum;
        let done = std::sync::atomic::AtomicUsize::new(0);
        let solved: Vec<(u32, u32, Optimal)> = big
            .par_iter()
            .with_max_len(1)
            .map(|part| {
                let mut w = self.fork();
                let l = self.lb(part.len(), dn);
                let beta = if bound >= INF {
                    INF
                } else {
                    bound - (base - l)
                };
                let v = w.solve(part, dn, beta, played2, &group2);
                let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if let Some(p) = &self.progress {
                    p(&format!(
                        "first guess {}: {k} of {} parts searched",
                        self.t.game.format_code(Code(g as u64)),
                        big.len()
                    ));
                }
                (v, l, w)
            })
            .collect();
        let mut workers = Vec::with_capacity(solved.len());
        for (v, l, w) in solved {
            sum = sum.saturating_add(v) - l;
            workers.push(w);
        }
        (sum, workers)
    }

    /// The optimal tree for `set` with `d` guesses left.
    fn subtree(
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
        let group = self.identity_group(played);
        let d = self.root_depth();
        self.best_guess(set, d, played, &group)
            .or_else(|| self.best_guess(set, UNLIMITED, played, &group))
            .expect("a tree without a depth limit always exists")
    }
}

/// The search of one node: the best guess so far and what is proved about the others.
struct Best {
    /// The cost of `guess`, or the bound to beat while there is none.
    cost: u32,
    guess: Option<u32>,
    /// The least lower bound proved for a guess that does not beat `cost`.
    proven: u32,
    /// A lower bound on every guess.
    lb: u32,
}

/// Scratch space and results of scoring guesses against one node's candidates.
struct NodeScan {
    counts: [u32; 256],
    seen: Vec<u8>,
    /// The candidates' scorer words.
    local: Vec<[u64; 2]>,
    /// The least bound of the guesses left out for being no better than the bound to beat.
    skipped: u32,
    /// The least bound of every guess scored.
    least: u32,
    /// Guesses to search: (bound, not a candidate, code) packed for sorting.
    cands: Vec<u64>,
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

/// Calls `f` with every permutation of `v[k..]` (after `v[..k]`).
fn permutations(v: &mut Vec<u8>, k: usize, f: &mut impl FnMut(&[u8])) {
    if k == v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permutations(v, k + 1, f);
        v.swap(k, i);
    }
}

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
