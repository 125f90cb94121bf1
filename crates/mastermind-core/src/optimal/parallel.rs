//! The search of the whole game on every core (rayon): the parts of the first guess with
//! the most parts are solved side by side, each by its own search with its own memory
//! (parts are disjoint, so nothing is lost), then the other first guesses are tried side by
//! side against its total. The memories of the searches whose results are used are merged,
//! and the whole game's tree is read from them ([`Optimal::tree`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::INF;
use super::memo::{Entry, Memo};
use super::search::{Best, NodeScan, Optimal};
use crate::Code;
use crate::symmetry;
use crate::symmetry::Sym;
use crate::tree::DecisionTree;

impl Optimal {
    /// The optimal tree for every code (first guess `first` if given); `None` when no tree
    /// fits in the guess limit.
    pub(crate) fn tree(&mut self, first: Option<u32>) -> Option<DecisionTree> {
        let set: Vec<u32> = (0..self.t.codes as u32).collect();
        let group = symmetry::root_group(self.t.pegs);
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
        let live = set.iter().fold(0, |m, &c| m | self.t.masks[c as usize]);
        let list = self.guess_list(0, live);
        let mut scan = NodeScan::new(set, &self.t.words);
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
        let done = AtomicUsize::new(0);
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
                let k = done.fetch_add(1, Ordering::Relaxed) + 1;
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
}
