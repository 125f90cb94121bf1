//! Fast scoring of codes given by index: two ANDs and two popcounts per score.
//!
//! Each code gets two bit vectors of `pegs × colors` bits:
//! - *position* bits: bit `p·colors + c` is set when peg `p` has colour `c`;
//!   `right = popcount(posA & posB)`;
//! - *count* bits: colour `c` that occurs `k` times sets bits `c·pegs .. c·pegs+k`
//!   (unary), so `popcount(cntA & cntB) = Σ_c min(kA, kB)`, the pegs in common.
//!
//! The score index `right·(pegs+1) + wrong` then equals `right·pegs + common`.
//!
//! With at most 8 colours a cheaper *byte* form is used (no popcount, which the baseline
//! x86-64 target lacks): one word holds a code's colours, one byte per peg, another its
//! colour counts, one byte per colour. Equal pegs are the zero bytes of the XOR, the pegs
//! in common the byte-wise minimum of the counts, and one multiplication sums the bytes.

use crate::{Code, Error, Game};

/// Most codes a game may have for an in-memory candidate list or statistics.
pub const MAX_LIST_CODES: u64 = 1 << 21;

/// How a [`Scorer`] stores codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// At most 8 colours: `[peg bytes, count bytes]` per code.
    Bytes,
    /// pegs·colors ≤ 64: `[pos, cnt]` bit vectors per code.
    Bits,
    /// Anything else: four words each.
    Wide,
}

/// Precomputed per-code words that make [`Scorer::index`] a handful of instructions.
#[derive(Clone, Debug)]
pub struct Scorer {
    game: Game,
    form: Form,
    /// Byte or bit form: two words per code.
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
        let form = if colors <= 8 {
            Form::Bytes
        } else if pegs * colors <= 64 {
            Form::Bits
        } else {
            Form::Wide
        };
        let narrow_ok = form != Form::Wide;
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
            if form == Form::Bytes {
                let mut digits = 0u64;
                let mut counts = 0u64;
                for (p, &c) in d[..pegs].iter().enumerate() {
                    digits |= (c as u64) << (8 * p);
                    counts += 1 << (8 * c as u64);
                }
                narrow.push([digits, counts]);
            } else if narrow_ok {
                narrow.push([pos[0], cnt[0]]);
            } else {
                wide.push([
                    pos[0], pos[1], pos[2], pos[3], cnt[0], cnt[1], cnt[2], cnt[3],
                ]);
            }
        }
        Ok(Scorer {
            game,
            form,
            narrow,
            wide,
        })
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
        let pegs = self.game.pegs();
        match self.form {
            Form::Bytes => bytes_index(self.narrow[a as usize], self.narrow[b as usize], pegs),
            Form::Bits => bits_index(self.narrow[a as usize], self.narrow[b as usize], pegs),
            Form::Wide => {
                let x = &self.wide[a as usize];
                let y = &self.wide[b as usize];
                let right: u32 = (0..4).map(|k| (x[k] & y[k]).count_ones()).sum();
                let common: u32 = (4..8).map(|k| (x[k] & y[k]).count_ones()).sum();
                right as usize * pegs + common as usize
            }
        }
    }

    /// The number of pegs codes `a` and `b` have in common, counted as multisets (`right + wrong`).
    #[inline]
    pub(crate) fn common(&self, a: u32, b: u32) -> usize {
        match self.form {
            Form::Bytes => bytes_common(self.narrow[a as usize], self.narrow[b as usize]),
            Form::Bits => bits_common(self.narrow[a as usize], self.narrow[b as usize]),
            Form::Wide => {
                let x = &self.wide[a as usize];
                let y = &self.wide[b as usize];
                (4..8).map(|k| (x[k] & y[k]).count_ones() as usize).sum()
            }
        }
    }

    /// The storage form in use.
    pub(crate) fn form(&self) -> Form {
        self.form
    }

    /// Narrow words of every code (empty when the wide form is in use).
    pub(crate) fn narrow(&self) -> &[[u64; 2]] {
        &self.narrow
    }
}

/// Score index in the bit form.
#[inline(always)]
pub(crate) fn bits_index(x: [u64; 2], y: [u64; 2], pegs: usize) -> usize {
    (x[0] & y[0]).count_ones() as usize * pegs + (x[1] & y[1]).count_ones() as usize
}

/// Pegs in common in the bit form.
#[inline(always)]
pub(crate) fn bits_common(x: [u64; 2], y: [u64; 2]) -> usize {
    (x[1] & y[1]).count_ones() as usize
}

/// Pegs in common in the byte form: the byte-wise minimum of the colour counts, summed.
#[inline(always)]
pub(crate) fn bytes_common(x: [u64; 2], y: [u64; 2]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let (a, b) = (x[1], y[1]);
    let a_ge_b = (((a | HIGH) - b) & HIGH) >> 7;
    let min = a ^ ((a ^ b) & (a_ge_b * 0xff));
    (min.wrapping_mul(ONES) >> 56) as usize
}

/// Score index in the byte form.
#[inline(always)]
pub(crate) fn bytes_index(x: [u64; 2], y: [u64; 2], pegs: usize) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Peg lanes only: unused lanes are zero in both codes and must not count as equal.
    let lanes = if pegs == 8 {
        HIGH
    } else {
        HIGH & ((1u64 << (8 * pegs)) - 1)
    };
    let t = x[0] ^ y[0];
    let equal = !(((t & LOW) + LOW) | t) & lanes;
    let (a, b) = (x[1], y[1]);
    let a_ge_b = (((a | HIGH) - b) & HIGH) >> 7;
    let min = a ^ ((a ^ b) & (a_ge_b * 0xff));
    ((((equal >> 7) * pegs as u64 + min).wrapping_mul(ONES)) >> 56) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(game: Game, step: u64) {
        let s = Scorer::new(game).unwrap();
        let n = game.num_codes();
        let form = if game.colors() <= 8 {
            Form::Bytes
        } else if game.pegs() * game.colors() <= 64 {
            Form::Bits
        } else {
            Form::Wide
        };
        assert_eq!(s.form(), form);
        for a in (0..n).step_by(step as usize) {
            for b in (0..n).step_by((step * 3 + 1) as usize) {
                let score = game.calc_score(Code(a), Code(b));
                let want = game.score_index(score);
                assert_eq!(s.index(a as u32, b as u32), want, "{a} {b}");
                let common = (score.right + score.wrong) as usize;
                assert_eq!(s.common(a as u32, b as u32), common, "{a} {b}");
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
        check(Game::new(8, 5).unwrap(), 3001);
        check(Game::new(6, 8).unwrap(), 3001);
        check(Game::new(6, 10).unwrap(), 1009);
        check(Game::new(4, 26).unwrap(), 997);
    }
}
