//! Solving and counting winning games, generic over the board's shape.
//!
//! A game is a sequence of moves; the white pegs always form a connected set
//! that grows by one black neighbour per move. So the winning games from a
//! start are exactly the orders in which the whole shape can be added one
//! cell at a time, each new cell touching the cells already added.
//!
//! [`count_orderings`](crate::count_orderings) counts them without enumerating them: a dynamic
//! programme over the connected sets that contain the start, layer by layer
//! (layer `k` holds the sets of `k` cells), where `ways(S ∪ {v}) += ways(S)`
//! for every cell `v` bordering `S`. Three ways to walk them
//! ([`CountMethod`]). The default, grouped, lives in the `count` module: one
//! set per orbit under every symmetry of the shape, parts built in parallel
//! (12 to 18 million orbits from a start on the 33-hole board, against
//! about 10^25 orderings). The two earlier walks stay here as second
//! methods: orbits under the symmetries fixing the start in one hash map per
//! layer, and parts without symmetry in cache-sized maps. Sums are checked:
//! an overflow of `u128` is an error, never a wrong number.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rayon::prelude::*;
use thiserror::Error;

use crate::rules::all_positions;
use crate::types::{Move, Position};

/// Why a shape cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShapeError {
    /// The shape has no cells.
    #[error("a shape needs at least one cell")]
    Empty,
    /// More than 64 cells do not fit the bit sets used.
    #[error("a shape has at most 64 cells, this one has {0}")]
    TooLarge(usize),
    /// A position is listed twice.
    #[error("position {0} is listed twice")]
    Duplicate(Position),
    /// The cells do not form one connected region.
    #[error("the shape is not connected: {0} cannot be reached from {1}")]
    Disconnected(Position, Position),
}

/// A board shape: up to 64 cells with 4-neighbour adjacency, as bit sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    cells: Vec<Position>,
    adjacency: Vec<u64>,
}

impl Shape {
    /// The shape made of `cells` (in that order), neighbours being one step apart.
    pub fn new(cells: Vec<Position>) -> Result<Self, ShapeError> {
        let shape = Self::from_cells(cells)?;
        let reach = shape.closure(1);
        if reach != shape.full_mask() {
            let missing = (!reach & shape.full_mask()).trailing_zeros() as usize;
            return Err(ShapeError::Disconnected(
                shape.cells[missing],
                shape.cells[0],
            ));
        }
        Ok(shape)
    }

    /// Like [`Shape::new`], but the cells may form several separate regions
    /// (a partial board); only the counts from white sets use such shapes.
    pub fn from_cells(cells: Vec<Position>) -> Result<Self, ShapeError> {
        if cells.is_empty() {
            return Err(ShapeError::Empty);
        }
        if cells.len() > 64 {
            return Err(ShapeError::TooLarge(cells.len()));
        }
        for (i, c) in cells.iter().enumerate() {
            if cells[..i].contains(c) {
                return Err(ShapeError::Duplicate(*c));
            }
        }
        let adjacency: Vec<u64> = cells
            .iter()
            .map(|&c| {
                cells
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| c.is_neighbour(**d))
                    .fold(0u64, |m, (j, _)| m | (1 << j))
            })
            .collect();
        Ok(Self { cells, adjacency })
    }

    /// The 33-hole `+` board, cells in canonical order.
    pub fn plus() -> Self {
        Self::new(all_positions()).expect("the + board is a valid shape")
    }

    /// The cells in order.
    pub fn cells(&self) -> &[Position] {
        &self.cells
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the shape has no cells (never true for a built shape).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The index of `pos` among the cells, if it is one.
    pub fn index_of(&self, pos: Position) -> Option<usize> {
        self.cells.iter().position(|&c| c == pos)
    }

    /// The neighbours of cell `i`, as a bit set over cell indices.
    pub fn neighbours_mask(&self, i: usize) -> u64 {
        self.adjacency[i]
    }

    pub(crate) fn full_mask(&self) -> u64 {
        if self.cells.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells.len()) - 1
        }
    }

    /// The cells bordering the set `mask` (neighbours of a member, not members).
    fn border(&self, mask: u64) -> u64 {
        let mut b = 0;
        let mut rest = mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            b |= self.adjacency[i];
        }
        b & !mask
    }

    /// Every cell reachable from the set `mask`.
    pub(crate) fn closure(&self, mask: u64) -> u64 {
        let mut m = mask;
        loop {
            let next = m | self.border(m);
            if next == m {
                return m;
            }
            m = next;
        }
    }

    /// The permutations of the cell indices induced by the 8 rotations and
    /// reflections of the plane that map the shape onto itself.
    pub(crate) fn symmetries(&self) -> Vec<Vec<usize>> {
        let transforms: [fn(Position) -> Position; 8] = [
            |p| Position::new(p.x, p.y),
            |p| Position::new(-p.y, p.x),
            |p| Position::new(-p.x, -p.y),
            |p| Position::new(p.y, -p.x),
            |p| Position::new(-p.x, p.y),
            |p| Position::new(p.x, -p.y),
            |p| Position::new(p.y, p.x),
            |p| Position::new(-p.y, -p.x),
        ];
        let min_corner = |ps: &[Position]| {
            (
                ps.iter().map(|p| p.x).min().unwrap_or(0),
                ps.iter().map(|p| p.y).min().unwrap_or(0),
            )
        };
        let (ox, oy) = min_corner(&self.cells);
        let mut out = Vec::new();
        for t in transforms {
            let mapped: Vec<Position> = self.cells.iter().map(|&p| t(p)).collect();
            let (mx, my) = min_corner(&mapped);
            let perm: Option<Vec<usize>> = mapped
                .iter()
                .map(|p| self.index_of(Position::new(p.x - mx + ox, p.y - my + oy)))
                .collect();
            if let Some(perm) = perm
                && !out.contains(&perm)
            {
                out.push(perm);
            }
        }
        out
    }
}

/// One winning game from `start`: the moves, in order, that turn every other cell white.
///
/// Breadth-first from the start, neighbours in the shape's cell order, so
/// every move touches a cell that is already white. `None` if `start` is not
/// a cell or some cell cannot be reached from it.
pub fn solve(shape: &Shape, start: Position) -> Option<Vec<Move>> {
    let s = shape.index_of(start)?;
    let mut white = 1u64 << s;
    let mut queue = std::collections::VecDeque::from([s]);
    let mut moves = Vec::with_capacity(shape.len() - 1);
    while let Some(i) = queue.pop_front() {
        let mut fresh = shape.adjacency[i] & !white;
        while fresh != 0 {
            let j = fresh.trailing_zeros() as usize;
            fresh &= fresh - 1;
            white |= 1 << j;
            moves.push(Move(shape.cells[j]));
            queue.push_back(j);
        }
    }
    (white == shape.full_mask()).then_some(moves)
}

/// How [`count_orderings_with`](crate::count_orderings_with) walks the connected sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountMethod {
    /// [`CountMethod::Grouped`], the fastest on every shape measured.
    Auto,
    /// One set per orbit under every symmetry of the shape (whether or not
    /// it fixes the start), each layer split into parts by how many cells of
    /// each cell orbit a set holds, parts built in parallel in cache-sized
    /// tables (see the `count` module). The only method that also counts
    /// from a set of white cells ([`count_finishes`](crate::count_finishes)).
    Grouped,
    /// One hash map per layer holding one set per orbit under the symmetries
    /// that fix the start (8 times fewer sets from the centre of the `+`;
    /// with no such symmetry, simply every set). Kept as a second method.
    Orbits,
    /// Every set, each layer split into parts by which of a few chosen cells
    /// it holds; a part of the next layer is built from at most a few parts
    /// of this one, in a small cache-friendly map, and parts are built in
    /// parallel. Symmetries are not used. Kept as a second method.
    Parts,
}

/// What [`count_orderings`](crate::count_orderings) found and how much work it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountReport {
    /// The number of distinct winning move sequences (from a board: of ways to finish it).
    pub orderings: u128,
    /// Sets of white cells that were stored (one per symmetry orbit).
    pub states: u64,
    /// The most sets stored in one layer.
    pub largest_layer: usize,
    /// How many symmetries were used (1 = none): for [`CountMethod::Grouped`]
    /// all of the shape's, for [`CountMethod::Orbits`] those fixing the start.
    pub symmetries: usize,
    /// The method used (never [`CountMethod::Auto`]).
    pub method: CountMethod,
}

/// Why a count could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CountError {
    /// The start is not a cell of the shape.
    #[error("the start {0} is not a cell of the shape")]
    StartNotInShape(Position),
    /// The count does not fit in 128 bits (only possible on shapes of more than 34 cells).
    #[error("the number of winning games does not fit in 128 bits")]
    Overflow,
    /// A layer would hold more than this many sets (a shape far larger than the `+`).
    #[error("more than {0} sets of white cells in one layer: too large to count")]
    TooManyStates(usize),
}

/// A fast hasher for bit-set keys (a multiplicative mix; keys are not adversarial).
#[derive(Default)]
struct MaskHasher(u64);

impl Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ (x >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type MaskMap = HashMap<u64, u128, BuildHasherDefault<MaskHasher>>;

fn add_to(map: &mut MaskMap, key: u64, w: u128) -> Result<(), CountError> {
    let slot = map.entry(key).or_insert(0);
    *slot = slot.checked_add(w).ok_or(CountError::Overflow)?;
    Ok(())
}

/// Applies cell permutations to bit sets quickly, through per-byte tables.
struct Canon {
    /// For each symmetry (but the identity), 8 tables of 256 permuted masks.
    tables: Vec<Vec<[u64; 256]>>,
}

impl Canon {
    fn new(perms: &[Vec<usize>]) -> Self {
        let tables = perms
            .iter()
            .filter(|p| p.iter().enumerate().any(|(i, &j)| i != j))
            .map(|perm| {
                (0..8)
                    .map(|byte| {
                        let mut t = [0u64; 256];
                        for (v, slot) in t.iter_mut().enumerate() {
                            for bit in 0..8 {
                                let i = byte * 8 + bit;
                                if v & (1 << bit) != 0 && i < perm.len() {
                                    *slot |= 1 << perm[i];
                                }
                            }
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        Self { tables }
    }

    /// The smallest image of `mask` under the symmetries.
    fn canon(&self, mask: u64) -> u64 {
        let mut best = mask;
        for t in &self.tables {
            let mut img = 0;
            let mut m = mask;
            let mut byte = 0;
            while m != 0 {
                img |= t[byte][(m & 0xFF) as usize];
                m >>= 8;
                byte += 1;
            }
            best = best.min(img);
        }
        best
    }
}

pub(crate) fn count_by_orbits(
    shape: &Shape,
    s: usize,
    perms: &[Vec<usize>],
) -> Result<CountReport, CountError> {
    // Symmetries fixing the start preserve ways(S). Store, for one
    // representative per orbit, W(orbit) = sum of ways over the orbit. Then
    // W(orbit of T) = sum over representatives S and border cells v with
    // S ∪ {v} in that orbit of W(orbit of S): summing ways(T') over T' in
    // T's orbit counts every (P, v) with P ∪ {v} in the orbit once, and the
    // number of such v is the same for every P in one orbit. The orbit of
    // the whole shape is itself, so the last layer holds the answer.
    let canon = Canon::new(perms);
    let mut layer = MaskMap::default();
    layer.insert(1 << s, 1);
    let mut states = 1u64;
    let mut largest = 1usize;
    for _ in 1..shape.len() {
        let mut next = MaskMap::with_capacity_and_hasher(
            layer.len().saturating_mul(2),
            BuildHasherDefault::default(),
        );
        for (&mask, &w) in &layer {
            let mut border = shape.border(mask);
            while border != 0 {
                let v = border.trailing_zeros();
                border &= border - 1;
                add_to(&mut next, canon.canon(mask | (1 << v)), w)?;
            }
        }
        states += next.len() as u64;
        largest = largest.max(next.len());
        layer = next;
    }
    let orderings = layer.values().copied().sum();
    Ok(CountReport {
        orderings,
        states,
        largest_layer: largest,
        symmetries: perms.len().max(1),
        method: CountMethod::Orbits,
    })
}

/// A stored set: its cells, its border, and the number of ways to reach it.
type Entry = (u64, u64, u128);

pub(crate) fn count_by_parts(shape: &Shape, s: usize) -> Result<CountReport, CountError> {
    // Split each layer by which of the cells K a set holds (K excludes the
    // start). A set T in part p (T ∩ K = p) arises as S ∪ {v} either with
    // v not in K and S in part p, or with v in p and S in part p \ {v}. So
    // each part of the next layer is built from its own small map, reading
    // only those parts of this layer sequentially; parts are independent.
    let n = shape.len();
    let kbits = ((n - 1) / 3).min(12);
    let others: Vec<usize> = (0..n).filter(|&i| i != s).collect();
    let k: Vec<usize> = if kbits == 0 {
        Vec::new()
    } else {
        (0..kbits)
            .map(|i| others[i * others.len() / kbits + others.len() / (2 * kbits)])
            .collect()
    };
    let kmask = k.iter().fold(0u64, |m, &i| m | (1 << i));
    let parts = 1usize << kbits;
    let mut layer: Vec<Vec<Entry>> = vec![Vec::new(); parts];
    layer[0].push((1 << s, shape.border(1 << s), 1));
    let mut states = 1u64;
    let mut largest = 1usize;
    for _ in 1..n {
        let build = |p: usize| -> Result<Vec<Entry>, CountError> {
            let mut map = MaskMap::default();
            for &(m, b, w) in &layer[p] {
                let mut fresh = b & !kmask;
                while fresh != 0 {
                    let v = fresh.trailing_zeros();
                    fresh &= fresh - 1;
                    add_to(&mut map, m | (1 << v), w)?;
                }
            }
            let mut rest = p;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let u = 1u64 << k[j];
                for &(m, b, w) in &layer[p & !(1 << j)] {
                    if b & u != 0 {
                        add_to(&mut map, m | u, w)?;
                    }
                }
            }
            Ok(map
                .into_iter()
                .map(|(m, w)| (m, shape.border(m), w))
                .collect())
        };
        let next: Vec<Vec<Entry>> = (0..parts)
            .into_par_iter()
            .map(build)
            .collect::<Result<_, _>>()?;
        let size: usize = next.iter().map(Vec::len).sum();
        states += size as u64;
        largest = largest.max(size);
        layer = next;
    }
    let orderings = layer.iter().flatten().map(|e| e.2).sum();
    Ok(CountReport {
        orderings,
        states,
        largest_layer: largest,
        symmetries: 1,
        method: CountMethod::Parts,
    })
}

/// The same number as [`count_orderings`](crate::count_orderings), by enumerating every winning game
/// one by one (depth-first); only feasible on small shapes, for cross-checking.
pub fn count_orderings_by_enumeration(shape: &Shape, start: Position) -> Option<u128> {
    fn go(shape: &Shape, white: u64, full: u64) -> u128 {
        if white == full {
            return 1;
        }
        let mut total = 0;
        for (v, _) in shape.cells.iter().enumerate() {
            let bit = 1u64 << v;
            if white & bit == 0 && shape.adjacency[v] & white != 0 {
                total += go(shape, white | bit, full);
            }
        }
        total
    }
    let s = shape.index_of(start)?;
    Some(go(shape, 1 << s, shape.full_mask()))
}
