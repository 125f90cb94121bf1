//! Counting the ways to finish from any set of white cells, with the whole
//! symmetry group of the shape: the method behind `peg count`.
//!
//! A finish from the white set `W0` adds the other cells one at a time, each
//! touching a cell already white. The dynamic programme walks the sets
//! reachable from `W0` layer by layer (each move adds one cell) and keeps,
//! for one representative per orbit under *every* symmetry of the shape,
//! `X(orbit) = sum over the sets T in the orbit of ways(W0 -> T)`. The push
//! rule `X(orbit of S ∪ {v}) += X(orbit of S)`, once per representative `S`
//! and border cell `v`, is exact for any `W0`: the number of border cells
//! leading into a given orbit is the same for every set of one orbit, so the
//! representative's pushes count every pair `(P, v)` with `P` in the orbit of
//! `S` once. Symmetries need not fix `W0`; the last layer is the whole shape,
//! alone in its orbit, so its `X` is the answer. From a corner of the `+` the
//! 66 million connected sets holding the start shrink to under 18 million
//! orbits.
//!
//! Each layer is split into parts by how many cells of each cell orbit a set
//! holds (a few orbits are chosen so the parts number some thousands). Those
//! counts are the same for every set of an orbit, so a part of the next layer
//! gets its sets only from the part with the same counts (the new cell in no
//! chosen orbit) or from one with one count lower (the new cell in that
//! orbit). Parts are built independently, in parallel, each in a small
//! open-addressing table that stays in cache; a layer is two flat vectors
//! (sets and sums) with the parts' offsets, and only two layers live at once.
//! The symmetric images of a set are computed once per set through per-byte
//! tables; the image of the set plus one cell is then one OR per symmetry.
//! Sums are checked: an overflow of `u128` is an error, never a wrong number
//! (on shapes of up to 34 cells no count can overflow, as 33! < 2^128).

use rayon::prelude::*;

use crate::solve::{CountError, CountMethod, CountReport, Shape};
use crate::types::{Board, Color, Position};

/// What [`count_from_mask`] found and how much work it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GroupedCount {
    pub(crate) ways: u128,
    pub(crate) states: u64,
    pub(crate) largest_layer: usize,
    pub(crate) symmetries: usize,
}

/// Per-byte tables mapping a bit set through a cell map: the image of a set
/// is the OR of the images of its bytes.
struct ByteMap {
    tables: Vec<[u64; 256]>,
}

impl ByteMap {
    /// The map sending cell `i` (of `n`) to the set `image(i)`.
    fn new(n: usize, image: impl Fn(usize) -> u64) -> Self {
        let tables = (0..n.div_ceil(8))
            .map(|byte| {
                let mut t = [0u64; 256];
                for (v, slot) in t.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let i = byte * 8 + bit;
                        if v & (1 << bit) != 0 && i < n {
                            *slot |= image(i);
                        }
                    }
                }
                t
            })
            .collect();
        Self { tables }
    }

    #[inline]
    fn apply(&self, mask: u64) -> u64 {
        let mut out = 0;
        for (byte, t) in self.tables.iter().enumerate() {
            out |= t[((mask >> (8 * byte)) & 0xFF) as usize];
        }
        out
    }
}

/// The chosen cell orbits a layer is split by, and how a part is numbered.
struct Parts {
    /// One mask per chosen orbit (each a union of whole cell orbits).
    masks: Vec<u64>,
    /// The mixed-radix weight of each chosen orbit's count in a part number.
    strides: Vec<usize>,
    /// Cells in no chosen orbit.
    unchosen: u64,
    /// The number of part numbers.
    count: usize,
}

/// Layers are split into at most this many parts: enough that a part's table
/// stays in cache on the 33-hole board, few enough that empty parts cost nothing.
const MAX_PARTS: usize = 1 << 15;

impl Parts {
    fn new(orbits: &[u64], fixed: u64) -> Self {
        // Orbits inside the white start are in every set: no use for splitting.
        let mut useful: Vec<u64> = orbits
            .iter()
            .copied()
            .filter(|&o| o & !fixed != 0)
            .collect();
        useful.sort_by_key(|o| std::cmp::Reverse(o.count_ones()));
        let mut masks = Vec::new();
        let mut strides = Vec::new();
        let mut count = 1usize;
        let mut unchosen = 0u64;
        for o in useful {
            let radix = o.count_ones() as usize + 1;
            if count * radix <= MAX_PARTS {
                masks.push(o);
                strides.push(count);
                count *= radix;
            } else {
                unchosen |= o;
            }
        }
        Self {
            masks,
            strides,
            unchosen,
            count,
        }
    }

    #[inline]
    fn part_of(&self, set: u64) -> usize {
        self.masks
            .iter()
            .zip(&self.strides)
            .map(|(&m, &s)| (set & m).count_ones() as usize * s)
            .sum()
    }

    /// The count of chosen orbit `i` in part number `p`.
    fn digit(&self, p: usize, i: usize) -> usize {
        (p / self.strides[i]) % (self.masks[i].count_ones() as usize + 1)
    }
}

/// One layer: sets (orbit representatives) and their sums, grouped by part.
struct Layer {
    sets: Vec<u64>,
    sums: Vec<u128>,
    /// Part `p` is `sets[offsets[p]..offsets[p + 1]]`.
    offsets: Vec<usize>,
}

impl Layer {
    fn part(&self, p: usize) -> (&[u64], &[u128]) {
        let r = self.offsets[p]..self.offsets[p + 1];
        (&self.sets[r.clone()], &self.sums[r])
    }

    fn len(&self) -> usize {
        self.sets.len()
    }
}

/// An open-addressing table from set to sum, reused from part to part.
struct Table {
    keys: Vec<u64>,
    sums: Vec<u128>,
    len: usize,
    shift: u32,
}

impl Table {
    fn new() -> Self {
        Self::with_bits(4)
    }

    fn with_bits(bits: u32) -> Self {
        Self {
            keys: vec![0; 1 << bits],
            sums: vec![0; 1 << bits],
            len: 0,
            shift: 64 - bits,
        }
    }

    /// Empties the table and makes room for about `expected` keys.
    fn reset(&mut self, expected: usize) {
        let bits = (expected.max(8) * 2).next_power_of_two().trailing_zeros();
        if bits > 64 - self.shift || self.keys.len() > 4 * (1 << bits) {
            *self = Self::with_bits(bits);
        } else {
            self.keys.fill(0);
            self.len = 0;
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Adds `w` to the sum of `key` (never 0: sets are not empty).
    #[inline]
    fn add(&mut self, key: u64, w: u128) -> Result<(), CountError> {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        loop {
            let k = self.keys[i];
            if k == key {
                self.sums[i] = self.sums[i].checked_add(w).ok_or(CountError::Overflow)?;
                return Ok(());
            }
            if k == 0 {
                self.keys[i] = key;
                self.sums[i] = w;
                self.len += 1;
                if self.len * 2 > self.keys.len() {
                    self.grow();
                }
                return Ok(());
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bits = 65 - self.shift;
        let old = std::mem::replace(self, Self::with_bits(bits));
        for (k, w) in old.keys.into_iter().zip(old.sums) {
            if k != 0 {
                let mut i = self.slot(k);
                while self.keys[i] != 0 {
                    i = (i + 1) & (self.keys.len() - 1);
                }
                self.keys[i] = k;
                self.sums[i] = w;
                self.len += 1;
            }
        }
    }

    fn drain_into(&self, sets: &mut Vec<u64>, sums: &mut Vec<u128>) {
        for (&k, &w) in self.keys.iter().zip(&self.sums) {
            if k != 0 {
                sets.push(k);
                sums.push(w);
            }
        }
    }
}

/// The counter for one shape: its symmetries, neighbour tables and parts.
struct Counter {
    full: u64,
    neighbours: ByteMap,
    /// Each symmetry but the identity, as byte tables and as per-cell images.
    symmetries: Vec<(ByteMap, Vec<u64>)>,
    parts: Parts,
}

impl Counter {
    fn new(shape: &Shape, fixed: u64) -> Self {
        let n = shape.len();
        let perms = shape.symmetries();
        let symmetries = perms
            .iter()
            .filter(|p| p.iter().enumerate().any(|(i, &j)| i != j))
            .map(|p| {
                let cells: Vec<u64> = p.iter().map(|&j| 1u64 << j).collect();
                (ByteMap::new(n, |i| cells[i]), cells)
            })
            .collect();
        let mut orbits: Vec<u64> = Vec::new();
        for i in 0..n {
            let orbit = perms.iter().fold(0u64, |m, p| m | (1 << p[i]));
            if !orbits.contains(&orbit) {
                orbits.push(orbit);
            }
        }
        Self {
            full: shape.full_mask(),
            neighbours: ByteMap::new(n, |i| shape.neighbours_mask(i)),
            symmetries,
            parts: Parts::new(&orbits, fixed),
        }
    }

    #[inline]
    fn border(&self, set: u64) -> u64 {
        self.neighbours.apply(set) & !set & self.full
    }

    /// The smallest image of `set` under the symmetries.
    fn canon(&self, set: u64) -> u64 {
        self.symmetries
            .iter()
            .fold(set, |best, (map, _)| best.min(map.apply(set)))
    }

    /// Pushes every set of `sets` plus each of its border cells in `allowed` into `table`.
    fn push_part(
        &self,
        sets: &[u64],
        sums: &[u128],
        allowed: u64,
        images: &mut Vec<u64>,
        table: &mut Table,
    ) -> Result<(), CountError> {
        for (&s, &w) in sets.iter().zip(sums) {
            let mut fresh = self.border(s) & allowed;
            if fresh == 0 {
                continue;
            }
            images.clear();
            images.extend(self.symmetries.iter().map(|(map, _)| map.apply(s)));
            while fresh != 0 {
                let v = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let mut best = s | (1 << v);
                for (img, (_, cells)) in images.iter().zip(&self.symmetries) {
                    best = best.min(img | cells[v]);
                }
                table.add(best, w)?;
            }
        }
        Ok(())
    }

    /// Part `p` of the layer after `layer`, as sets and sums.
    fn build_part(
        &self,
        layer: &Layer,
        p: usize,
        table: &mut Table,
        images: &mut Vec<u64>,
    ) -> Result<(Vec<u64>, Vec<u128>), CountError> {
        let parts = &self.parts;
        // The sources: this part with a new cell in no chosen orbit, and the
        // part one lower in chosen orbit i with a new cell in that orbit.
        let mut sources: Vec<(usize, u64)> = Vec::with_capacity(parts.masks.len() + 1);
        if parts.unchosen != 0 {
            sources.push((p, parts.unchosen));
        }
        for i in 0..parts.masks.len() {
            if parts.digit(p, i) > 0 {
                sources.push((p - parts.strides[i], parts.masks[i]));
            }
        }
        let edges: usize = sources
            .iter()
            .map(|&(q, allowed)| {
                let (sets, _) = layer.part(q);
                sets.iter()
                    .map(|&s| (self.border(s) & allowed).count_ones() as usize)
                    .sum::<usize>()
            })
            .sum();
        if edges == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        // Most sets are reached along several edges; the table grows if needed.
        table.reset(edges / 4);
        for &(q, allowed) in &sources {
            let (sets, sums) = layer.part(q);
            self.push_part(sets, sums, allowed, images, table)?;
        }
        let mut sets = Vec::with_capacity(table.len);
        let mut sums = Vec::with_capacity(table.len);
        table.drain_into(&mut sets, &mut sums);
        Ok((sets, sums))
    }

    fn step(&self, layer: &Layer) -> Result<Layer, CountError> {
        let built: Vec<(Vec<u64>, Vec<u128>)> = (0..self.parts.count)
            .into_par_iter()
            .map_init(
                || (Table::new(), Vec::new()),
                |(table, images), p| self.build_part(layer, p, table, images),
            )
            .collect::<Result<_, _>>()?;
        let total: usize = built.iter().map(|(s, _)| s.len()).sum();
        let mut next = Layer {
            sets: Vec::with_capacity(total),
            sums: Vec::with_capacity(total),
            offsets: Vec::with_capacity(self.parts.count + 1),
        };
        next.offsets.push(0);
        for (sets, sums) in built {
            next.sets.extend_from_slice(&sets);
            next.sums.extend_from_slice(&sums);
            next.offsets.push(next.sets.len());
        }
        Ok(next)
    }
}

/// The number of ways to turn every cell of `shape` white from the white set
/// `white` (a bit set over the shape's cells), each move turning white a cell
/// next to a white one. Zero when some cell can never be reached.
pub(crate) fn count_from_mask(shape: &Shape, white: u64) -> Result<GroupedCount, CountError> {
    let counter = Counter::new(shape, white);
    let start = counter.canon(white & counter.full);
    let mut offsets = vec![0; counter.parts.count + 1];
    let p = counter.parts.part_of(start);
    for o in &mut offsets[p + 1..] {
        *o = 1;
    }
    let mut layer = Layer {
        sets: vec![start],
        sums: vec![1],
        offsets,
    };
    let mut states = 1u64;
    let mut largest = 1usize;
    for _ in start.count_ones() as usize..shape.len() {
        layer = counter.step(&layer)?;
        if layer.len() == 0 {
            break;
        }
        states += layer.len() as u64;
        largest = largest.max(layer.len());
    }
    let ways = layer
        .sets
        .iter()
        .zip(&layer.sums)
        .filter(|&(&s, _)| s == counter.full)
        .map(|(_, &w)| w)
        .sum();
    Ok(GroupedCount {
        ways,
        states,
        largest_layer: largest,
        symmetries: counter.symmetries.len() + 1,
    })
}

/// The number of ways to turn every cell of `shape` white when the cells
/// `white` are white already (connected or not), each move turning white a
/// cell next to a white one; zero if some cell can never be reached. From a
/// single cell this is [`count_orderings`](crate::count_orderings).
pub fn count_finishes(shape: &Shape, white: &[Position]) -> Result<CountReport, CountError> {
    let mut mask = 0u64;
    for &p in white {
        let i = shape.index_of(p).ok_or(CountError::StartNotInShape(p))?;
        mask |= 1 << i;
    }
    let c = count_from_mask(shape, mask)?;
    Ok(CountReport {
        orderings: c.ways,
        states: c.states,
        largest_layer: c.largest_layer,
        symmetries: c.symmetries,
        method: CountMethod::Grouped,
    })
}

/// The number of ways to finish the game on `board`: the sequences of valid
/// moves (spec §3: a black peg with a white neighbour on the board turns
/// white) that end with every peg white. A board with no black peg has one
/// (the empty sequence); a board where some black peg can never get a white
/// neighbour has none. Partial boards and white pegs in separate groups are
/// counted as they stand.
pub fn count_board(board: &Board) -> Result<CountReport, CountError> {
    let cells: Vec<Position> = board.pegs().iter().map(|p| p.pos).collect();
    let white: Vec<Position> = board
        .pegs()
        .iter()
        .filter(|p| p.color == Color::W)
        .map(|p| p.pos)
        .collect();
    if white.len() == cells.len() {
        return Ok(CountReport {
            orderings: 1,
            states: 1,
            largest_layer: 1,
            symmetries: 1,
            method: CountMethod::Grouped,
        });
    }
    let shape = Shape::from_cells(cells).expect("a board's positions are distinct and at most 33");
    count_finishes(&shape, &white)
}

/// The holes of the `+` board grouped by its 8 symmetries (7 classes), each
/// with its representative `(x, y)`, `x >= y >= 0`: `(0,0), (1,0), (2,0),
/// (3,0), (1,1), (2,1), (3,1)` in that order; a class's holes are in
/// canonical order. Every hole of a class has the same count.
pub fn start_classes() -> Vec<(Position, Vec<Position>)> {
    let shape = Shape::plus();
    let perms = shape.symmetries();
    let mut classes: Vec<(Position, Vec<Position>)> = Vec::new();
    for (i, &p) in shape.cells().iter().enumerate() {
        if p.x >= p.y && p.y >= 0 {
            let mut idx: Vec<usize> = perms.iter().map(|perm| perm[i]).collect();
            idx.sort_unstable();
            idx.dedup();
            classes.push((p, idx.into_iter().map(|j| shape.cells()[j]).collect()));
        }
    }
    classes.sort_by_key(|(p, _)| (p.y, p.x));
    classes
}
