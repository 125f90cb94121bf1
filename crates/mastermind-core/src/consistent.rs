//! The codes that fit a game's scores, found depth-first without listing every code (for
//! games too big to list).

use crate::{Code, Game, Score};

/// The lowest code with index at least `from` that gives every score of `history`.
pub(crate) fn next_consistent(game: Game, history: &[(Code, Score)], from: u64) -> Option<Code> {
    let mut found = None;
    visit_consistent(game, history, from, &mut |c| {
        found = Some(c);
        false
    });
    found
}

/// Calls `visit` on each code with index at least `from` that gives every score of `history`,
/// in increasing order, while it returns true.
///
/// Depth-first over the pegs with pruning: after a prefix, the pegs right and in common
/// with each past guess can only grow, by at most one per peg still to place, and two past
/// guesses can both gain a right peg from one place only where they have the same colour.
/// Colours no past guess used and the prefix does not use yet are interchangeable, so when
/// one of them leads nowhere, the others are skipped.
pub(crate) fn visit_consistent(
    game: Game,
    history: &[(Code, Score)],
    from: u64,
    visit: &mut dyn FnMut(Code) -> bool,
) {
    if from >= game.num_codes() {
        return;
    }
    with_search(game, history, from, visit, |s| {
        s.go(0, true);
    });
}

/// Runs `f` on a fresh [`Search`] for `history`.
fn with_search(
    game: Game,
    history: &[(Code, Score)],
    from: u64,
    visit: &mut dyn FnMut(Code) -> bool,
    f: impl FnOnce(&mut Search<'_>),
) {
    let pegs = game.pegs();
    let past: Vec<Past> = history
        .iter()
        .map(|&(g, s)| {
            let digits = game.digits(g);
            let mut counts = [0u8; 26];
            for &d in &digits[..pegs] {
                counts[d as usize] += 1;
            }
            Past {
                digits,
                counts,
                right: s.right,
                common: s.right + s.wrong,
            }
        })
        .collect();
    // agree[(a * k + b) * 9 + pos]: places at or after `pos` where guesses a and b agree.
    let k = past.len();
    let mut agree = vec![0u8; k * k * 9];
    for a in 0..k {
        for b in 0..k {
            for pos in (0..pegs).rev() {
                agree[(a * k + b) * 9 + pos] = agree[(a * k + b) * 9 + pos + 1]
                    + (past[a].digits[pos] == past[b].digits[pos]) as u8;
            }
        }
    }
    let played = history
        .iter()
        .fold(0u32, |m, &(g, _)| m | game.colour_mask(g));
    let mut search = Search {
        game,
        past: &past,
        agree,
        played,
        leaves: 0,
        low: game.digits(Code(from)),
        digits: [0; 8],
        counts: [0; 26],
        right: vec![0; k],
        common: vec![0; k],
        visit,
    };
    f(&mut search);
}

/// A past guess as the search needs it.
struct Past {
    digits: [u8; 8],
    counts: [u8; 26],
    right: u8,
    common: u8,
}

/// State of [`visit_consistent`].
struct Search<'a> {
    game: Game,
    past: &'a [Past],
    agree: Vec<u8>,
    /// Colours used by some past guess.
    played: u32,
    /// Codes visited so far.
    leaves: u64,
    low: [u8; 8],
    digits: [u8; 8],
    counts: [u8; 26],
    right: Vec<u8>,
    common: Vec<u8>,
    visit: &'a mut dyn FnMut(Code) -> bool,
}

impl Search<'_> {
    /// Whether the prefix of length `pos` can still be completed.
    fn fits(&self, pos: usize) -> bool {
        let rest = (self.game.pegs() - pos) as u8;
        let ok = self.past.iter().enumerate().all(|(k, p)| {
            self.right[k] <= p.right
                && self.right[k] + rest >= p.right
                && self.common[k] <= p.common
                && self.common[k] + rest >= p.common
        });
        if !ok || rest == 0 {
            return ok;
        }
        let k = self.past.len();
        for a in 0..k {
            let need_a = self.past[a].right - self.right[a];
            if need_a == 0 {
                continue;
            }
            for b in a + 1..k {
                let need_b = self.past[b].right - self.right[b];
                if need_a + need_b > rest + self.agree[(a * k + b) * 9 + pos] {
                    return false;
                }
            }
        }
        true
    }

    /// Appends colour `c` at `pos` (`sign` 1) or takes it back (`sign` -1, after appending).
    fn place(&mut self, pos: usize, c: u8, add: bool) {
        if add {
            self.digits[pos] = c;
            self.counts[c as usize] += 1;
        }
        let n = self.counts[c as usize];
        for (k, p) in self.past.iter().enumerate() {
            let r = (p.digits[pos] == c) as u8;
            let m = (n <= p.counts[c as usize]) as u8;
            if add {
                self.right[k] += r;
                self.common[k] += m;
            } else {
                self.right[k] -= r;
                self.common[k] -= m;
            }
        }
        if !add {
            self.counts[c as usize] -= 1;
        }
    }

    /// Whether colour `c` is unplayed and not yet in the prefix.
    fn fresh(&self, c: u8) -> bool {
        self.played & (1 << c) == 0 && self.counts[c as usize] == 0
    }

    /// Extends the prefix of length `pos`; false once `visit` asked to stop.
    fn go(&mut self, pos: usize, tight: bool) -> bool {
        if pos == self.game.pegs() {
            self.leaves += 1;
            return (self.visit)(self.game.from_digits(&self.digits));
        }
        let start = if tight { self.low[pos] } else { 0 };
        let mut fresh_failed = false;
        for c in start..self.game.colors() as u8 {
            let tight_here = tight && c == start;
            let fresh = self.fresh(c);
            if fresh && fresh_failed {
                continue;
            }
            let before = self.leaves;
            self.place(pos, c, true);
            let go_on = !self.fits(pos + 1) || self.go(pos + 1, tight_here);
            self.place(pos, c, false);
            if !go_on {
                return false;
            }
            if fresh && !tight_here && self.leaves == before {
                fresh_failed = true;
            }
        }
        true
    }

    /// Number of completions of the prefix of length `pos`, or some number above `cap`.
    fn count(&mut self, pos: usize, cap: u64) -> u64 {
        if pos == self.game.pegs() {
            return 1;
        }
        let mut total = 0u64;
        let mut per_fresh = None;
        for c in 0..self.game.colors() as u8 {
            let fresh = self.fresh(c);
            let n = match per_fresh {
                // Fresh colours are interchangeable: same count as the first one.
                Some(n) if fresh => n,
                _ => {
                    self.place(pos, c, true);
                    let n = if self.fits(pos + 1) {
                        self.count(pos + 1, cap)
                    } else {
                        0
                    };
                    self.place(pos, c, false);
                    if fresh {
                        per_fresh = Some(n);
                    }
                    n
                }
            };
            total = total.saturating_add(n);
            if total > cap {
                break;
            }
        }
        total
    }
}

/// How many codes give every score of `history`, or some number above `cap`.
pub(crate) fn count_consistent(game: Game, history: &[(Code, Score)], cap: u64) -> u64 {
    let mut n = 0;
    let mut noop = |_| true;
    with_search(game, history, 0, &mut noop, |s| n = s.count(0, cap));
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_first_search_agrees_with_brute_force() {
        // Pseudo-random histories (few colours played, so the fresh-colour skip matters).
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for (p, c) in [(4, 8), (3, 10), (5, 5), (2, 12)] {
            let g = Game::new(p, c).unwrap();
            let n = g.num_codes();
            for _ in 0..25 {
                let secret = Code(next(n));
                let history: Vec<(Code, Score)> = (0..next(4))
                    .map(|_| {
                        let guess = Code(next(n));
                        (guess, g.calc_score(secret, guess))
                    })
                    .collect();
                let brute: Vec<Code> = (0..n)
                    .map(Code)
                    .filter(|&c| history.iter().all(|&(h, s)| g.calc_score(c, h) == s))
                    .collect();
                assert_eq!(count_consistent(g, &history, u64::MAX), brute.len() as u64);
                let cap = brute.len() as u64 / 2;
                assert!(count_consistent(g, &history, cap) > cap);
                let mut seen = Vec::new();
                visit_consistent(g, &history, 0, &mut |c| {
                    seen.push(c);
                    true
                });
                assert_eq!(seen, brute, "{p}x{c} {history:?}");
                let from = next(n);
                let want = brute.iter().copied().find(|c| c.0 >= from);
                assert_eq!(next_consistent(g, &history, from), want);
            }
        }
    }
}
