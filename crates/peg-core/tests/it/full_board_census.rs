//! A second count of the winning games from every hole of the 33-hole board,
//! written separately from the library's counter: backward instead of
//! forward, all starts at once.
//!
//! f(S) = the number of ways to finish from the connected white set S =
//! the sum over the black neighbours v of S of f(S ∪ {v}), with f(board) = 1.
//! f does not depend on where the game started, so f is the same on every
//! image of S under the board's 8 symmetries, and a table of f over one set
//! per orbit of connected sets serves every start: the count from hole h is
//! f({h}). The sets are listed first (layer by layer, sorted), then f is
//! filled from the full board down, each value looked up by binary search.

use std::collections::HashSet;

use peg_core::{Position, Shape, all_positions, count_orderings, start_classes};
use rayon::prelude::*;

/// A rotation or reflection of the plane about the centre hole.
type PlaneMap = fn(i64, i64) -> (i64, i64);

/// The 33 holes with their neighbours and symmetries, as bit sets over the
/// canonical order of `all_positions`.
struct Census {
    near: Vec<u64>,
    /// For each of the 8 symmetries and each byte of a set, the images of the byte's values.
    images: Vec<Vec<[u64; 256]>>,
}

impl Census {
    fn new() -> Self {
        let holes = all_positions();
        let index = |p: Position| holes.iter().position(|&h| h == p).unwrap();
        let near = holes
            .iter()
            .map(|&h| {
                holes
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| h.is_neighbour(**g))
                    .fold(0u64, |m, (j, _)| m | (1 << j))
            })
            .collect();
        // Rotations by quarter turns, each with and without a mirror.
        let maps: [PlaneMap; 8] = [
            |x, y| (x, y),
            |x, y| (-y, x),
            |x, y| (-x, -y),
            |x, y| (y, -x),
            |x, y| (-x, y),
            |x, y| (y, x),
            |x, y| (x, -y),
            |x, y| (-y, -x),
        ];
        let images = maps
            .iter()
            .map(|f| {
                let to: Vec<usize> = holes
                    .iter()
                    .map(|h| {
                        let (x, y) = f(h.x, h.y);
                        index(Position::new(x, y))
                    })
                    .collect();
                (0..5)
                    .map(|byte| {
                        let mut t = [0u64; 256];
                        for (v, slot) in t.iter_mut().enumerate() {
                            for bit in 0..8 {
                                let i = byte * 8 + bit;
                                if i < 33 && v >> bit & 1 == 1 {
                                    *slot |= 1 << to[i];
                                }
                            }
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        Self { near, images }
    }

    fn canon(&self, set: u64) -> u64 {
        self.images
            .iter()
            .map(|t| (0..5).fold(0, |m, b| m | t[b][(set >> (8 * b) & 0xFF) as usize]))
            .min()
            .unwrap()
    }

    fn black_neighbours(&self, set: u64) -> u64 {
        let mut b = 0;
        for (i, &n) in self.near.iter().enumerate() {
            if set >> i & 1 == 1 {
                b |= n;
            }
        }
        b & !set
    }

    /// Sorted orbit representatives of the connected sets of each size, 1 to 33.
    fn layers(&self) -> Vec<Vec<u64>> {
        let mut first: Vec<u64> = (0..33).map(|i| self.canon(1 << i)).collect();
        first.sort_unstable();
        first.dedup();
        let mut layers = vec![first];
        for _ in 1..33 {
            let last = layers.last().unwrap();
            let next: HashSet<u64> = last
                .par_iter()
                .fold(HashSet::new, |mut acc, &s| {
                    let mut b = self.black_neighbours(s);
                    while b != 0 {
                        let v = b & b.wrapping_neg();
                        b ^= v;
                        acc.insert(self.canon(s | v));
                    }
                    acc
                })
                .reduce(HashSet::new, |mut a, b| {
                    a.extend(b);
                    a
                });
            let mut next: Vec<u64> = next.into_iter().collect();
            next.sort_unstable();
            layers.push(next);
        }
        layers
    }

    /// f over the first layer (single holes), in that layer's order.
    fn finishes_from_single_holes(&self, layers: &[Vec<u64>]) -> Vec<u128> {
        let mut above: Vec<u128> = vec![1];
        for k in (0..32).rev() {
            let upper = &layers[k + 1];
            above = layers[k]
                .par_iter()
                .map(|&s| {
                    let mut b = self.black_neighbours(s);
                    let mut total = 0u128;
                    while b != 0 {
                        let v = b & b.wrapping_neg();
                        b ^= v;
                        let i = upper
                            .binary_search(&self.canon(s | v))
                            .expect("a connected set one larger is listed");
                        total = total.checked_add(above[i]).expect("fits in 128 bits");
                    }
                    total
                })
                .collect();
        }
        above
    }
}

#[test]
#[ignore = "lists all 17.9 million orbits of connected sets: about a minute in release; CI runs it with --release --ignored"]
fn backward_census_agrees_with_the_counter_from_every_hole() {
    let census = Census::new();
    let layers = census.layers();
    // Known sizes: one orbit of the whole board, seven of single holes.
    assert_eq!(layers[0].len(), 7);
    assert_eq!(layers[32], [(1u64 << 33) - 1]);
    let total: usize = layers.iter().map(Vec::len).sum();
    assert_eq!(total, 17_927_562);
    let f = census.finishes_from_single_holes(&layers);
    let holes = all_positions();
    let from = |p: Position| {
        let i = holes.iter().position(|&h| h == p).unwrap();
        let c = census.canon(1 << i);
        f[layers[0].binary_search(&c).unwrap()]
    };
    // The README's published figures.
    assert_eq!(
        from(Position::new(0, 0)),
        25_589_827_238_367_749_588_818_329_600
    );
    assert_eq!(
        from(Position::new(-3, -1)),
        48_486_454_774_910_983_346_595_840
    );
    // Every class against the library's forward count from its representative.
    let shape = Shape::plus();
    for (rep, holes) in start_classes() {
        let forward = count_orderings(&shape, rep).unwrap().orderings;
        for h in holes {
            assert_eq!(from(h), forward, "from {h} (class of {rep})");
        }
    }
}
