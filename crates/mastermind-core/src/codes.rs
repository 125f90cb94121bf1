//! Code lists shared by the strategies, the decision-tree builder, the optimal search and
//! the breaker: the original candidate order and one guess per colour-symmetry class.

use crate::{Code, Game};

/// Code indices in the original candidate order (see [`Game::original_order`]).
pub(crate) fn original_order_indices(game: Game) -> Vec<u32> {
    game.original_order().map(|c| c.0 as u32).collect()
}

/// Converts an index to a [`Code`].
pub(crate) fn code(i: u32) -> Code {
    Code(i as u64)
}

/// Whether [`canonical_codes`] for `played` and `live` lists the code with digits `d`
/// (one per peg) in a game of `colors` colours.
pub(crate) fn is_listed(d: &[u8], colors: usize, played: u32, live: u32) -> bool {
    let all = ((1u64 << colors) - 1) as u32;
    let dead = all & !live;
    let mut fresh = live & !played;
    for &c in d {
        let bit = 1u32 << c;
        if dead & bit != 0 {
            // Only the lowest dead colour.
            if bit != dead & dead.wrapping_neg() {
                return false;
            }
        } else if fresh & bit != 0 {
            // The first use of an unplayed colour must be the lowest one not used yet.
            if bit != fresh & fresh.wrapping_neg() {
                return false;
            }
            fresh &= !bit;
        }
    }
    true
}

/// The colour multiset of every code as a dense class number (classes numbered in order of
/// their lowest code), and the lowest code of each class.
///
/// Two codes of one class have the same number of pegs in common with any code.
pub(crate) fn multiset_classes(game: Game) -> (Vec<u32>, Vec<u32>) {
    let pegs = game.pegs();
    let mut class = Vec::with_capacity(game.num_codes() as usize);
    let mut lowest = Vec::new();
    for c in 0..game.num_codes() {
        let mut d = game.digits(Code(c));
        d[..pegs].sort_unstable();
        // The sorted digits are the lowest code of the class, never above `c`.
        let rep = game.from_digits(&d).0;
        if rep == c {
            class.push(lowest.len() as u32);
            lowest.push(c as u32);
        } else {
            class.push(class[rep as usize]);
        }
    }
    (class, lowest)
}

/// The codes [`crate::Solver::guesses`] keeps, sorted lexicographically.
pub(crate) fn canonical_codes(game: Game, played: u32, live: u32) -> Vec<u32> {
    let colors = game.colors() as u8;
    // Per colour: 0 = free choice, 1 = unplayed live (restricted growth), 2 = dead and lowest, 3 = skip.
    let dead_low = (0..colors).find(|&c| live & (1 << c) == 0);
    let kind: Vec<u8> = (0..colors)
        .map(|c| {
            let bit = 1u32 << c;
            if live & bit == 0 {
                if Some(c) == dead_low { 2 } else { 3 }
            } else if played & bit == 0 {
                1
            } else {
                0
            }
        })
        .collect();
    let free: Vec<u8> = (0..colors).filter(|&c| kind[c as usize] == 1).collect();
    let mut out = Vec::new();
    let mut stack = vec![(0usize, 0usize, 0u32)];
    // Depth-first, colours in decreasing order on the stack so codes come out increasing.
    while let Some((pos, introduced, code)) = stack.pop() {
        if pos == game.pegs() {
            out.push(code);
            continue;
        }
        for c in (0..colors).rev() {
            let next = match kind[c as usize] {
                0 | 2 => introduced,
                1 => match free.iter().position(|&f| f == c) {
                    Some(i) if i < introduced => introduced,
                    Some(i) if i == introduced => introduced + 1,
                    _ => continue,
                },
                _ => continue,
            };
            stack.push((pos + 1, next, code * colors as u32 + c as u32));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_root_is_restricted_growth() {
        let g = Game::default();
        let v: Vec<String> = canonical_codes(g, 0, 0b111111)
            .into_iter()
            .map(|c| g.format_code(code(c)))
            .collect();
        // Set partitions of 4 positions: Bell(4) = 15.
        assert_eq!(v.len(), 15);
        assert_eq!(v[0], "aaaa");
        assert!(v.contains(&"aabb".to_string()) && v.contains(&"abcd".to_string()));
        assert!(!v.contains(&"bbaa".to_string()));
    }

    #[test]
    fn is_listed_agrees_with_the_list() {
        for (pegs, colors) in [(4, 6), (3, 5), (5, 3)] {
            let g = Game::new(pegs, colors).unwrap();
            let all = (1u32 << colors) - 1;
            for (played, live) in [
                (0, all),
                (0b11, all),
                (0b101, 0b1110),
                (all, 0b10110),
                (0b1, 0b1),
            ] {
                let (played, live) = (played & all, live & all);
                let listed = canonical_codes(g, played, live);
                for c in 0..g.num_codes() {
                    let d = g.digits(Code(c));
                    let want = listed.binary_search(&(c as u32)).is_ok();
                    assert_eq!(
                        is_listed(&d[..pegs as usize], colors as usize, played, live),
                        want,
                        "{c} {played:b} {live:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn multiset_classes_of_3x3() {
        // Multisets of 3 pegs from 3 colours: C(5, 3) = 10.
        let g = Game::new(3, 3).unwrap();
        let (class, lowest) = multiset_classes(g);
        assert_eq!(lowest.len(), 10);
        let of = |t: &str| class[g.parse_code(t).unwrap().0 as usize];
        assert_eq!(of("abc"), of("cba"));
        assert_eq!(of("aab"), of("baa"));
        assert_ne!(of("aab"), of("abb"));
        let text: Vec<String> = lowest.iter().map(|&c| g.format_code(code(c))).collect();
        assert_eq!(text[..4], ["aaa", "aab", "aac", "abb"]);
        assert_eq!(g.format_code(code(lowest[of("cab") as usize])), "abc");
    }

    #[test]
    fn dead_colours_collapse_to_the_lowest() {
        let g = Game::default();
        // Everything played; candidates use only b, c and e: a stands for a, d and f.
        let v = canonical_codes(g, 0b111111, 0b010110);
        assert_eq!(v.len(), 4usize.pow(4));
        let text: Vec<String> = v.iter().map(|&c| g.format_code(code(c))).collect();
        assert_eq!(text[0], "aaaa");
        assert!(text.contains(&"bace".to_string()) && !text.contains(&"bdce".to_string()));
    }
}
