//! Fast scoring of codes given by index: two ANDs and two popcounts per score.
//!
//! Each code gets two bit vectors of `pegs × colors` bits:
//! - *position* bits: bit `p·colors + c` is set when peg `p` has colour `c`;
//!   `right = popcount(posA & posB)`;
//! - *count* bits: colour `c` that occurs `k` times sets bits `c·pegs .. c·pegs+k`
//!   (unary), so `popcount(cntA & cntB) = Σ_c min(kA, kB)`, the pegs in common.
//!
//! The score index `right·(pegs+1) + wrong` then equals `right·pegs + common`.

use crate::{Code, Error, Game};

/// Most codes a game may have for an in-memory candidate list or statistics.
pub const MAX_LIST_CODES: u64 = 1 << 24;

/// Precomputed per-code bit vectors that make [`Scorer::index`] a handful of instructions.
#[derive(Clone, Debug)]
pub struct Scorer {
    game: Game,
    /// Narrow form (pegs·colors ≤ 64): `[pos, cnt]` per code.
    narrow: Vec<[u64; 2]>,
    /// Wide form (pegs·colors ≤ 256): `[pos0..pos3, cnt0..cnt3]` per code.
    wide: Vec<[u64; 8]>,
}

impl Scorer {
    /// Precomputes the bit vectors of every code of `game`.
    pub fn new(game: Game) -> Result<Scorer, Error> {
        let n = game.num_codes();
        if n > MAX_LIST_CODES {
            return Err(Error::TooManyCodes {
                codes: n,
                limit: MAX_LIST_CODES,
            });
        }
        let (pegs, colors) = (game.pegs(), game.colors());
        let narrow_ok = pegs * colors <= 64;
        let mut narrow = Vec::new();
        let mut wide = Vec::new();
        if narrow_ok {
            narrow.reserve(n as usize);
        } else {
            wide.reserve(n as usize);
        }
        for i in 0..n {
            let d = game.digits(Code(i));
            let mut pos = [0u64; 4];
            let mut cnt = [0u64; 4];
            let mut seen = [0usize; 26];
            for (p, &c) in d[..pegs].iter().enumerate() {
                let c = c as usize;
                let pb = p * colors + c;
                pos[pb / 64] |= 1 << (pb % 64);
                let cb = c * pegs + seen[c];
                seen[c] += 1;
                cnt[cb / 64] |= 1 << (cb % 64);
            }
            if narrow_ok {
                narrow.push([pos[0], cnt[0]]);
            } else {
                wide.push([
                    pos[0], pos[1], pos[2], pos[3], cnt[0], cnt[1], cnt[2], cnt[3],
                ]);
            }
        }
        Ok(Scorer { game, narrow, wide })
    }

    /// The game this scorer is for.
    pub fn game(&self) -> Game {
        self.game
    }

    /// Whether the narrow (single machine word) form is in use.
    pub fn is_narrow(&self) -> bool {
        !self.narrow.is_empty()
    }

    /// The score index (see [`Game::score_index`]) of codes `a` and `b` (symmetric).
    #[inline]
    pub fn index(&self, a: u32, b: u32) -> usize {
        if self.is_narrow() {
            narrow_index(&self.narrow, self.game.pegs(), a, b)
        } else {
            let x = &self.wide[a as usize];
            let y = &self.wide[b as usize];
            let right: u32 = (0..4).map(|k| (x[k] & y[k]).count_ones()).sum();
            let common: u32 = (4..8).map(|k| (x[k] & y[k]).count_ones()).sum();
            right as usize * self.game.pegs() + common as usize
        }
    }

    /// Counts, into `counts` (length ≥ [`Game::num_score_slots`]), how many of `set` give each score against `guess`.
    pub fn count_parts(&self, guess: u32, set: &[u32], counts: &mut [u32]) {
        let pegs = self.game.pegs();
        if self.is_narrow() {
            let g = self.narrow[guess as usize];
            for &s in set {
                let x = self.narrow[s as usize];
                let i = (g[0] & x[0]).count_ones() as usize * pegs
                    + (g[1] & x[1]).count_ones() as usize;
                counts[i] += 1;
            }
        } else {
            for &s in set {
                counts[self.index(guess, s)] += 1;
            }
        }
    }

    /// Narrow words of every code (empty when the wide form is in use).
    pub(crate) fn narrow(&self) -> &[[u64; 2]] {
        &self.narrow
    }
}

#[inline]
pub(crate) fn narrow_index(t: &[[u64; 2]], pegs: usize, a: u32, b: u32) -> usize {
    let x = t[a as usize];
    let y = t[b as usize];
    (x[0] & y[0]).count_ones() as usize * pegs + (x[1] & y[1]).count_ones() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(game: Game, step: u64) {
        let s = Scorer::new(game).unwrap();
        let n = game.num_codes();
        for a in (0..n).step_by(step as usize) {
            for b in (0..n).step_by((step * 3 + 1) as usize) {
                let want = game.score_index(game.calc_score(Code(a), Code(b)));
                assert_eq!(s.index(a as u32, b as u32), want, "{a} {b}");
            }
        }
    }

    #[test]
    fn agrees_with_calc_score() {
        check(Game::default(), 1);
        check(Game::new(5, 8).unwrap(), 97);
        check(Game::new(3, 26).unwrap(), 13);
        check(Game::new(8, 3).unwrap(), 11);
        check(Game::new(1, 2).unwrap(), 1);
    }
}
