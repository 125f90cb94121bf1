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
//! open-addressing table that stays in cache; a layer is its parts' vectors
//! of sets and sums, and only two layers live at once. Each time a set is
//! read, its images under the symmetries and its neighbours come from one
//! cache line per byte of the set (per-byte tables, all symmetries side by
//! side); the image of the set plus one cell is then one OR per symmetry.
//! Sums are checked: an overflow of `u128` is an error, never a wrong number
//! (on shapes of up to 34 cells no count can overflow, as 33! < 2^128).

use rayon::prelude::*;

use crate::solve::{CountError, CountMethod, CountReport, Shape, count_by_orbits, count_by_parts};
use crate::types::{Board, Color, Position};

/// The exact number of winning games from `start` on `shape` (the orders in
/// which the whole shape can be turned white), by dynamic programming over
/// the connected sets that contain the start, with [`CountMethod::Auto`].
pub fn count_orderings(shape: &Shape, start: Position) -> Result<CountReport, CountError> {
    count_orderings_with(shape, start, CountMethod::Auto)
}

/// [`count_orderings`] with a chosen method; every method gives the same number.
pub fn count_orderings_with(
    shape: &Shape,
    start: Position,
    method: CountMethod,
) -> Result<CountReport, CountError> {
    let s = shape
        .index_of(start)
        .ok_or(CountError::StartNotInShape(start))?;
    let perms: Vec<Vec<usize>> = shape
        .symmetries()
        .into_iter()
        .filter(|p| p[s] == s)
        .collect();
    match method {
        CountMethod::Orbits => count_by_orbits(shape, s, &perms),
        CountMethod::Parts => count_by_parts(shape, s),
        CountMethod::Auto | CountMethod::Grouped => {
            let c = count_from_mask(shape, 1 << s)?;
            Ok(CountReport {
                orderings: c.ways,
                states: c.states,
                largest_layer: c.largest_layer,
                symmetries: c.symmetries,
                method: CountMethod::Grouped,
            })
        }
    }
}

/// What [`count_from_mask`] found and how much work it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GroupedCount {
    pub(crate) ways: u128,
    pub(crate) states: u64,
    pub(crate) largest_layer: usize,
    pub(crate) symmetries: usize,
}

/// The 7 symmetries other than the identity (padded with the identity when
/// a shape has fewer) and the neighbour map, side by side in one cache line.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Row([u64; 8]);

/// The column of [`Row`] holding the neighbours.
const NEAR: usize = 7;

/// Per-byte tables: the row of a set is the OR of the rows of its bytes' values.
struct ByteRows {
    tables: Vec<[Row; 256]>,
}

impl ByteRows {
    /// Tables where cell `i` (of `n`) maps to `image(i)`.
    fn new(n: usize, image: impl Fn(usize) -> Row) -> Self {
        let tables = (0..n.div_ceil(8))
            .map(|byte| {
                let mut t = [Row([0; 8]); 256];
                for (v, slot) in t.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let i = byte * 8 + bit;
                        if v & (1 << bit) != 0 && i < n {
                            let img = image(i);
                            for (a, b) in slot.0.iter_mut().zip(img.0) {
                                *a |= b;
                            }
                        }
                    }
                }
                t
            })
            .collect();
        Self { tables }
    }

    #[inline]
    fn apply(&self, set: u64) -> Row {
        let mut out = [0u64; 8];
        for (byte, t) in self.tables.iter().enumerate() {
            let row = &t[((set >> (8 * byte)) & 0xFF) as usize].0;
            for (a, b) in out.iter_mut().zip(row) {
                *a |= b;
            }
        }
        Row(out)
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

/// A layer of more sets than this is refused (about 1.2 GB for the layer
/// alone): the shape or the white set is beyond what this counter is for.
/// The largest layer from any start on the `+` holds 2.6 million sets; from
/// white pegs scattered over it, up to some 15 million.
pub const MAX_LAYER_SETS: usize = 50_000_000;

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

/// One layer: sets (orbit representatives) and their sums, part by part.
struct Layer {
    parts: Vec<(Vec<u64>, Vec<u128>)>,
}

impl Layer {
    fn part(&self, p: usize) -> (&[u64], &[u128]) {
        let (sets, sums) = &self.parts[p];
        (sets, sums)
    }

    fn len(&self) -> usize {
        self.parts.iter().map(|(s, _)| s.len()).sum()
    }

    fn iter(&self) -> impl Iterator<Item = (u64, u128)> + '_ {
        self.parts
            .iter()
            .flat_map(|(sets, sums)| sets.iter().copied().zip(sums.iter().copied()))
    }
}

/// A slot of [`Table`]: a set (0 when free) and its sum.
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    sum: u128,
}

const FREE: Slot = Slot { key: 0, sum: 0 };

/// An open-addressing table from set to sum, reused from part to part.
struct Table {
    slots: Vec<Slot>,
    len: usize,
    shift: u32,
}

impl Table {
    fn new() -> Self {
        Self::with_bits(4)
    }

    fn with_bits(bits: u32) -> Self {
        Self {
            slots: vec![FREE; 1 << bits],
            len: 0,
            shift: 64 - bits,
        }
    }

    /// Empties the table and makes room for about `expected` keys.
    fn reset(&mut self, expected: usize) {
        let bits = (expected.max(8) * 2).next_power_of_two().trailing_zeros();
        if bits > 64 - self.shift || self.slots.len() > 8 << bits {
            *self = Self::with_bits(bits);
        } else {
            self.slots.fill(FREE);
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
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let slot = &mut self.slots[i];
            if slot.key == key {
                slot.sum = slot.sum.checked_add(w).ok_or(CountError::Overflow)?;
                return Ok(());
            }
            if slot.key == 0 {
                *slot = Slot { key, sum: w };
                self.len += 1;
                if self.len * 2 > self.slots.len() {
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
        let mask = self.slots.len() - 1;
        for slot in old.slots {
            if slot.key != 0 {
                let mut i = self.slot(slot.key);
                while self.slots[i].key != 0 {
                    i = (i + 1) & mask;
                }
                self.slots[i] = slot;
                self.len += 1;
            }
        }
    }

    fn drain_into(&self, sets: &mut Vec<u64>, sums: &mut Vec<u128>) {
        for slot in &self.slots {
            if slot.key != 0 {
                sets.push(slot.key);
                sums.push(slot.sum);
            }
        }
    }
}

/// The counter for one shape: its symmetries, neighbour tables and parts.
struct Counter {
    full: u64,
    /// Per byte of a set: its images under the symmetries and its neighbours.
    rows: ByteRows,
    /// Per cell: its images under the symmetries (column [`NEAR`] unused).
    cells: Vec<Row>,
    /// The number of symmetries, the identity included.
    symmetries: usize,
    parts: Parts,
}

impl Counter {
    fn new(shape: &Shape, fixed: u64) -> Self {
        let n = shape.len();
        let perms = shape.symmetries();
        let others: Vec<&Vec<usize>> = perms
            .iter()
            .filter(|p| p.iter().enumerate().any(|(i, &j)| i != j))
            .collect();
        let cells: Vec<Row> = (0..n)
            .map(|i| {
                let mut row = [1u64 << i; 8];
                for (slot, p) in row.iter_mut().zip(&others) {
                    *slot = 1 << p[i];
                }
                row[NEAR] = 0;
                Row(row)
            })
            .collect();
        let rows = ByteRows::new(n, |i| {
            let mut row = cells[i];
            row.0[NEAR] = shape.neighbours_mask(i);
            row
        });
        let mut orbits: Vec<u64> = Vec::new();
        for i in 0..n {
            let orbit = perms.iter().fold(0u64, |m, p| m | (1 << p[i]));
            if !orbits.contains(&orbit) {
                orbits.push(orbit);
            }
        }
        Self {
            full: shape.full_mask(),
            rows,
            cells,
            symmetries: others.len() + 1,
            parts: Parts::new(&orbits, fixed),
        }
    }

    /// The smallest image of `set` under the symmetries.
    fn canon(&self, set: u64) -> u64 {
        let row = self.rows.apply(set);
        row.0[..NEAR].iter().fold(set, |best, &img| best.min(img))
    }

    /// Pushes every set of `sets` plus each of its border cells in `allowed` into `table`.
    fn push_part(
        &self,
        sets: &[u64],
        sums: &[u128],
        allowed: u64,
        table: &mut Table,
    ) -> Result<(), CountError> {
        for (&s, &w) in sets.iter().zip(sums) {
            let row = self.rows.apply(s);
            let mut fresh = row.0[NEAR] & !s & self.full & allowed;
            while fresh != 0 {
                let v = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let cell = &self.cells[v].0;
                let mut best = s | (1 << v);
                for (img, c) in row.0[..NEAR].iter().zip(&cell[..NEAR]) {
                    best = best.min(img | c);
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
        let reads: usize = sources.iter().map(|&(q, _)| layer.part(q).0.len()).sum();
        if reads == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        // A set read here has a new cell allowed about half the time, and
        // most sets of the next layer are reached along several edges; the
        // table grows when this guess is short.
        table.reset(reads / 4);
        for &(q, allowed) in &sources {
            let (sets, sums) = layer.part(q);
            self.push_part(sets, sums, allowed, table)?;
        }
        let mut sets = Vec::with_capacity(table.len);
        let mut sums = Vec::with_capacity(table.len);
        table.drain_into(&mut sets, &mut sums);
        Ok((sets, sums))
    }

    fn step(&self, layer: &Layer) -> Result<Layer, CountError> {
        let parts = (0..self.parts.count)
            .into_par_iter()
            .map_init(Table::new, |table, p| self.build_part(layer, p, table))
            .collect::<Result<_, _>>()?;
        Ok(Layer { parts })
    }
}

/// The number of ways to turn every cell of `shape` white from the white set
/// `white` (a bit set over the shape's cells), each move turning white a cell
/// next to a white one. Zero when some cell can never be reached.
pub(crate) fn count_from_mask(shape: &Shape, white: u64) -> Result<GroupedCount, CountError> {
    let counter = Counter::new(shape, white);
    if shape.closure(white) != shape.full_mask() {
        // Some black cell has no path of cells to a white one: no way to finish.
        return Ok(GroupedCount {
            ways: 0,
            states: 0,
            largest_layer: 0,
            symmetries: counter.symmetries,
        });
    }
    let start = counter.canon(white & counter.full);
    let mut parts = vec![(Vec::new(), Vec::new()); counter.parts.count];
    parts[counter.parts.part_of(start)] = (vec![start], vec![1]);
    let mut layer = Layer { parts };
    let mut states = 1u64;
    let mut largest = 1usize;
    for _ in start.count_ones() as usize..shape.len() {
        layer = counter.step(&layer)?;
        let len = layer.len();
        if len == 0 {
            break;
        }
        if len > MAX_LAYER_SETS {
            return Err(CountError::TooManyStates(MAX_LAYER_SETS));
        }
        states += len as u64;
        largest = largest.max(len);
    }
    let ways = layer
        .iter()
        .filter(|&(s, _)| s == counter.full)
        .map(|(_, w)| w)
        .sum();
    Ok(GroupedCount {
        ways,
        states,
        largest_layer: largest,
        symmetries: counter.symmetries,
    })
}

/// The number of ways to turn every cell of `shape` white when the cells
/// `white` are white already (connected or not), each move turning white a
/// cell next to a white one; zero if some cell can never be reached. From a
/// single cell this is [`count_orderings`].
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

/// The work a count did, for `peg count --verbose`.
pub fn describe_work(report: &CountReport, time: std::time::Duration) -> String {
    format!(
        "{} orbits stored ({:?} method, {} symmetries), largest layer {}, {:.2?}",
        report.states, report.method, report.symmetries, report.largest_layer, time
    )
}

/// Why `peg count --all` stopped.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// Occurs when one class cannot be counted.
    #[error(transparent)]
    Count(#[from] CountError),
    /// Occurs when the table cannot be written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// `peg count --all`: writes one row per class of start holes (its holes,
/// the count from each, the orbits stored, the time), each as soon as it is
/// counted, then the total time.
pub fn write_count_table(
    method: CountMethod,
    out: &mut impl std::io::Write,
) -> Result<(), TableError> {
    use std::time::Instant;
    let classes = start_classes();
    let holes: Vec<String> = classes
        .iter()
        .map(|(_, hs)| {
            hs.iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let width = holes.iter().map(String::len).max().unwrap_or(0);
    writeln!(
        out,
        "{:<width$}  {:>29}  {:>10}  {:>8}",
        "holes", "winning games from each hole", "orbits", "time"
    )?;
    out.flush()?;
    let total = Instant::now();
    for ((rep, _), holes) in classes.iter().zip(&holes) {
        let t = Instant::now();
        let report = count_orderings_with(&Shape::plus(), *rep, method)?;
        writeln!(
            out,
            "{holes:<width$}  {:>29}  {:>10}  {:>6.2} s",
            report.orderings,
            report.states,
            t.elapsed().as_secs_f64()
        )?;
        out.flush()?;
    }
    writeln!(
        out,
        "{} classes, 33 holes, {:.2} s in all",
        classes.len(),
        total.elapsed().as_secs_f64()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sums_grow_and_refuse_overflow() {
        let mut t = Table::new();
        t.reset(1);
        for key in 1..=1000u64 {
            t.add(key, u128::from(key)).unwrap();
            t.add(key, 1).unwrap();
        }
        let (mut sets, mut sums) = (Vec::new(), Vec::new());
        t.drain_into(&mut sets, &mut sums);
        assert_eq!(sets.len(), 1000);
        for (k, w) in sets.iter().zip(&sums) {
            assert_eq!(*w, u128::from(*k) + 1);
        }
        // Reused: emptied, and a sum past u128 is an error, not a wrap.
        t.reset(4);
        t.add(7, u128::MAX).unwrap();
        assert_eq!(t.add(7, 1), Err(CountError::Overflow));
    }

    #[test]
    fn parts_number_sets_by_their_orbit_counts() {
        // Orbits {0,1}, {2}, {3,4,5}; cell 2 is white from the start.
        let parts = Parts::new(&[0b11, 0b100, 0b111000], 0b100);
        assert_eq!(parts.masks, [0b111000, 0b11]);
        assert_eq!(parts.count, 4 * 3);
        let p = parts.part_of(0b101101);
        assert_eq!((parts.digit(p, 0), parts.digit(p, 1)), (2, 1));
        assert_eq!(parts.unchosen, 0);
    }

    #[test]
    fn canon_is_the_same_on_every_image_and_is_one_of_them() {
        let shape = Shape::plus();
        let perms = shape.symmetries();
        assert_eq!(perms.len(), 8);
        let counter = Counter::new(&shape, 0);
        let image = |p: &Vec<usize>, set: u64| {
            (0..33)
                .filter(|i| set >> i & 1 == 1)
                .fold(0u64, |m, i| m | (1 << p[i]))
        };
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = x & shape.full_mask();
            let c = counter.canon(set);
            assert!(perms.iter().any(|p| image(p, set) == c));
            for p in &perms {
                assert_eq!(counter.canon(image(p, set)), c);
            }
        }
        // The neighbour column: the centre's neighbours are the 4 holes next to it.
        let centre = shape.index_of(crate::Position::new(0, 0)).unwrap();
        let row = counter.rows.apply(1 << centre);
        assert_eq!(row.0[NEAR], shape.neighbours_mask(centre));
        assert_eq!(row.0[NEAR].count_ones(), 4);
    }
}
