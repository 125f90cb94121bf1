//! Lower bounds on what a candidate set still costs (admissible: no tree does better).
//!
//! The best conceivable tree for `k` codes solves one secret with the next guess, at most
//! `m` (the number of non-winning scores) with the one after, `m²` with the next and so on;
//! within `d` guesses, a set bigger than `1 + m + … + m^(d-1)` cannot be solved at all.

use super::{INF, MAX_GUESS_LIMIT, UNLIMITED};

/// The lower bounds of one game, by part size and guesses left.
pub(super) struct Bounds {
    /// Non-winning scores: the most parts a guess can make.
    pub(super) m: usize,
    /// Lower bound by part size without a depth limit.
    lb_free: Vec<u32>,
    /// `lb_depth[d][k]`: lower bound for `k` codes within `d` guesses.
    lb_depth: Vec<Vec<u32>>,
    /// `lb(k + 1) - lb(k)` without a depth limit: what the `k+1`-th code of a part adds.
    delta_free: Vec<u32>,
    /// The same within `d` guesses (`INF` where the part no longer fits).
    delta_depth: Vec<Vec<u32>>,
}

/// The best conceivable cost of `k` codes within `depth` guesses, with at most `m` parts
/// per guess (`INF` when they cannot all be solved).
fn bound(k: usize, depth: u32, m: u64) -> u32 {
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
}

impl Bounds {
    /// The bounds for sets of up to `codes` codes of `pegs` pegs; with `max_guesses`, also
    /// for every number of guesses left up to it.
    pub(super) fn new(pegs: usize, codes: usize, max_guesses: Option<u32>) -> Bounds {
        // Non-winning scores: right + wrong <= pegs, not (pegs-1, 1), not (pegs, 0).
        let m = ((pegs + 1) * (pegs + 2) / 2 - 2).max(1) as u64;
        let lb_free: Vec<u32> = (0..=codes + 1).map(|k| bound(k, u32::MAX, m)).collect();
        let lb_depth: Vec<Vec<u32>> = match max_guesses {
            Some(max) => (0..=max.min(MAX_GUESS_LIMIT))
                .map(|d| (0..=codes + 1).map(|k| bound(k, d, m)).collect())
                .collect(),
            None => Vec::new(),
        };
        let delta = |lb: &Vec<u32>| -> Vec<u32> {
            lb.windows(2)
                .map(|w| if w[1] >= INF { INF } else { w[1] - w[0] })
                .collect()
        };
        Bounds {
            m: m as usize,
            delta_free: delta(&lb_free),
            delta_depth: lb_depth.iter().map(delta).collect(),
            lb_free,
            lb_depth,
        }
    }

    /// The lower bound on the cost of `k` codes with `d` guesses left.
    #[inline]
    pub(super) fn lb(&self, k: usize, d: u8) -> u32 {
        if d == UNLIMITED {
            self.lb_free[k]
        } else {
            self.lb_depth[d as usize][k]
        }
    }

    /// The least bound of a guess that is not among the `n` candidates, with `d` guesses
    /// left: it solves nobody now, so at best it spreads them evenly over the `m` scores.
    #[inline]
    pub(super) fn out_lb(&self, n: usize, d: u8) -> u32 {
        let dn = child_depth(d);
        let m = self.m;
        let (q, r) = (n / m, n % m);
        let a = (r as u32).saturating_mul(self.lb(q + 1, dn));
        let b = ((m - r) as u32).saturating_mul(self.lb(q, dn));
        (n as u32).saturating_add(a).saturating_add(b)
    }

    /// What each further code of a part adds to its lower bound, with `d` guesses left.
    #[inline]
    pub(super) fn delta(&self, d: u8) -> &[u32] {
        if d == UNLIMITED {
            &self.delta_free
        } else {
            &self.delta_depth[d as usize]
        }
    }
}

/// Guesses left after one more guess.
#[inline]
pub(super) fn child_depth(d: u8) -> u8 {
    if d == UNLIMITED {
        d
    } else {
        d.saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_pegs_have_thirteen_parts() {
        // 15 scores with right + wrong <= 4, less 3-1 (impossible) and the win.
        assert_eq!(Bounds::new(4, 1296, None).m, 13);
        // 2 pegs: 00 01 02 10 (11 is impossible, 20 wins); 1 peg: 0 only.
        assert_eq!(Bounds::new(2, 36, None).m, 4);
        assert_eq!(Bounds::new(1, 6, None).m, 1);
    }

    #[test]
    fn bounds_fill_each_level_of_the_best_conceivable_tree() {
        let b = Bounds::new(4, 1296, None);
        let lb = |k| b.lb(k, UNLIMITED);
        assert_eq!((lb(0), lb(1), lb(2)), (0, 1, 1 + 2));
        // One secret at depth 1 and 13 at depth 2, then depth 3.
        assert_eq!((lb(14), lb(15)), (1 + 13 * 2, 1 + 13 * 2 + 3));
        // 1 + 13 + 169 = 183 codes fill three levels.
        assert_eq!((lb(183), lb(184)), (1 + 26 + 169 * 3, 1 + 26 + 169 * 3 + 4));
        // 1296 = 183 + 1113 at depth 4: the 4×6 root can cost no less than 4986.
        assert_eq!(lb(1296), 534 + 1113 * 4);
        let delta = b.delta(UNLIMITED);
        assert_eq!((delta[0], delta[1], delta[13], delta[14]), (1, 2, 2, 3));
    }

    #[test]
    fn a_non_candidate_spreads_the_set_evenly() {
        let b = Bounds::new(4, 1296, None);
        // 26 codes over 13 parts of 2 (3 each): 26 + 13·3.
        assert_eq!(b.out_lb(26, UNLIMITED), 26 + 13 * 3);
        // 27: one part of 3 (1 + 2 + 2 = 5) and twelve of 2.
        assert_eq!(b.out_lb(27, UNLIMITED), 27 + 5 + 12 * 3);
    }

    #[test]
    fn depth_limits_cap_the_set_size() {
        // 2 pegs, 4 parts: three guesses tell at most 1 + 4 + 16 = 21 codes apart.
        let b = Bounds::new(2, 36, Some(3));
        assert_eq!(b.lb(21, 3), 1 + 4 * 2 + 16 * 3);
        assert_eq!(b.lb(22, 3), INF);
        assert_eq!((b.lb(1, 1), b.lb(2, 1)), (1, INF));
        assert_eq!((b.lb(0, 0), b.lb(1, 0)), (0, INF));
        assert_eq!(b.delta(1)[1], INF);
        // Unlimited is unaffected by the limit.
        assert_eq!(b.lb(22, UNLIMITED), 1 + 4 * 2 + 16 * 3 + 4);
        assert_eq!(
            (child_depth(3), child_depth(0), child_depth(UNLIMITED)),
            (2, 0, UNLIMITED)
        );
    }
}
