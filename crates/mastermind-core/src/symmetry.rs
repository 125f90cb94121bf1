//! Symmetries of a game history: a guess that one of them maps onto a lower code splits the
//! candidates alike, so only the lowest code of each class is searched.
//!
//! A symmetry permutes the positions together with the colours so that every guess so far
//! is unchanged; colours not yet played may be permuted freely, and colours no candidate
//! uses are interchangeable (both are folded in by [`crate::codes::canonical_codes`]).

/// A symmetry of the game history: position `p` moves to `perm[p]`, played colour `c`
/// becomes `cmap[c]` (unplayed colours may be permuted freely).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sym {
    pub(crate) perm: [u8; 8],
    pub(crate) cmap: [u8; 26],
}

/// Every symmetry of an empty history: all permutations of the positions.
pub(crate) fn root_group(pegs: usize) -> Vec<Sym> {
    let mut out = Vec::new();
    let mut perm: Vec<u8> = (0..pegs as u8).collect();
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
pub(crate) fn identity_group(played: u32) -> Vec<Sym> {
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

/// The symmetries in `group` (for colours `played`) that also leave unchanged the guess
/// with digits `d` (one per peg).
#[inline]
pub(crate) fn stabilize(group: &[Sym], played: u32, d: &[u8]) -> Vec<Sym> {
    let mut out = Vec::with_capacity(group.len());
    'next: for s in group {
        let mut t = *s;
        let mut used = 0u32;
        for p in 0..d.len() {
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

/// Whether the guess with digits `gd` (one per peg; already reduced for unplayed and dead
/// colours, see [`crate::codes::canonical_codes`]) is the lowest code of its class under
/// `group`, in a game of `colors` colours.
#[inline]
pub(crate) fn is_canonical(gd: &[u8], colors: u8, group: &[Sym], played: u32, live: u32) -> bool {
    is_canonical_from(gd, colors, group, played, live, &mut 0)
}

/// [`is_canonical`], trying the symmetry `group[*first]` first and leaving in `first` the
/// one that showed a lower code, if any: over many guesses in a row the same few
/// symmetries do, so most guesses that are not the lowest are found out at once.
pub(crate) fn is_canonical_from(
    gd: &[u8],
    colors: u8,
    group: &[Sym],
    played: u32,
    live: u32,
    first: &mut usize,
) -> bool {
    if group.len() <= 1 {
        return true;
    }
    let start = if *first < group.len() { *first } else { 0 };
    let dead_low = (0..colors).find(|&c| live & (1 << c) == 0).unwrap_or(0);
    let mut free = [0u8; 26];
    let mut nfree = 0;
    for c in 0..colors {
        if played & (1 << c) == 0 && live & (1 << c) != 0 {
            free[nfree] = c;
            nfree += 1;
        }
    }
    // Codes of one length compare as the integers of their digits, first peg highest.
    let key = |d: &[u8]| d.iter().fold(0u64, |k, &c| (k << 8) | c as u64);
    let own = key(gd);
    for i in (start..group.len()).chain(0..start) {
        let s = &group[i];
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
        for x in h[..gd.len()].iter_mut() {
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
        if key(&h[..gd.len()]) < own {
            *first = i;
            return false;
        }
    }
    true
}

/// Calls `f` with every permutation of `v[k..]` (after `v[..k]`).
pub(crate) fn permutations(v: &mut Vec<u8>, k: usize, f: &mut impl FnMut(&[u8])) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::canonical_codes;
    use crate::{Code, Game};

    fn digits(game: Game, text: &str) -> Vec<u8> {
        game.digits(game.parse_code(text).unwrap())[..game.pegs()].to_vec()
    }

    /// `code` under `s` as a whole permutation of the game's colours: the colours `s` maps
    /// keep their image, the others take the colours left over in increasing order.
    fn apply(game: Game, s: &Sym, code: Code) -> Code {
        let colors = game.colors();
        let mut cmap = s.cmap;
        let taken: Vec<u8> = (0..colors)
            .filter_map(|c| (cmap[c] != u8::MAX).then_some(cmap[c]))
            .collect();
        let mut free = (0..colors as u8).filter(|c| !taken.contains(c));
        for m in cmap.iter_mut().take(colors) {
            if *m == u8::MAX {
                *m = free.next().expect("a colour left");
            }
        }
        let d = game.digits(code);
        let mut h = [0u8; 8];
        for p in 0..game.pegs() {
            h[s.perm[p] as usize] = cmap[d[p] as usize];
        }
        game.from_digits(&h)
    }

    #[test]
    fn the_root_has_every_permutation_of_the_positions() {
        assert_eq!(root_group(4).len(), 24);
        assert_eq!(root_group(3).len(), 6);
        assert_eq!(root_group(1).len(), 1);
    }

    #[test]
    fn stabilizers_of_first_guesses() {
        let g = Game::default();
        let root = root_group(4);
        let size = |code: &str| stabilize(&root, 0, &digits(g, code)).len();
        // aabb: swap within {1, 2} and within {3, 4}, and swap the blocks (with a and b):
        // 2·2·2. aabc: only the swaps within the blocks (b and c exchange). aaab: any
        // permutation of the a's, 3!. abcd and aaaa: every permutation.
        assert_eq!(size("aabb"), 8);
        assert_eq!(size("aabc"), 4);
        assert_eq!(size("aaab"), 6);
        assert_eq!(size("abcd"), 24);
        assert_eq!(size("aaaa"), 24);
        assert_eq!(identity_group(0b11).len(), 1);
    }

    #[test]
    fn five_first_guesses_for_four_pegs() {
        // One class per integer partition of 4: aaaa, aaab, aabb, aabc, abcd.
        let g = Game::default();
        let root = root_group(4);
        let kept: Vec<String> = canonical_codes(g, 0, 0b11_1111)
            .into_iter()
            .filter(|&c| {
                let d = &g.digits(Code(c as u64))[..4];
                is_canonical(d, 6, &root, 0, 0b11_1111)
            })
            .map(|c| g.format_code(Code(c as u64)))
            .collect();
        assert_eq!(kept, ["aaaa", "aaab", "aabb", "aabc", "abcd"]);
    }

    #[test]
    fn after_aabb_only_the_lowest_of_each_class_is_kept() {
        // The symmetries of aabb (see above) keep a and b apart only up to exchanging both
        // blocks and both colours: {aaab, aaba, babb, abbb} is one class, {abaa, baaa,
        // bbba, bbab} another.
        let g = Game::default();
        let group = stabilize(&root_group(4), 0, &digits(g, "aabb"));
        let canonical = |code: &str| is_canonical(&digits(g, code), 6, &group, 0b11, 0b11_1111);
        assert!(canonical("aaab") && canonical("abaa"));
        for other in ["aaba", "babb", "abbb", "baaa", "bbba", "bbab"] {
            assert!(!canonical(other), "{other}");
        }
    }

    #[test]
    fn a_stabilizer_maps_every_part_onto_itself() {
        // The invariant the search relies on: each symmetry kept after a guess fixes the
        // guess and keeps every code's score against it, checked with `calc_score`.
        let g = Game::new(4, 5).unwrap();
        let root = root_group(4);
        for first in ["aabb", "aabc", "abcd", "aaab"] {
            let guess = g.parse_code(first).unwrap();
            let group = stabilize(&root, 0, &digits(g, first));
            for s in &group {
                assert_eq!(apply(g, s, guess), guess, "{first} {s:?}");
                for c in (0..g.num_codes()).map(Code) {
                    let image = apply(g, s, c);
                    assert_eq!(g.calc_score(image, guess), g.calc_score(c, guess));
                }
            }
        }
    }
}
