//! The exact search: negamax with alpha-beta over bitboards, a
//! transposition table, and the move ordering of the fast solvers.
//!
//! Scores here are "internal": a win for the side to move, made with a
//! stone placed when `e` cells were empty, scores `(e + 1) / 2`, a loss the
//! negative, a draw 0. This is Pascal Pons's convention, and on boards of
//! an even number of cells it is the public one (see [`super`]).

use super::bits::Bits;
use super::position::{Position, Size};

/// Every cell that would complete a four of `stones` (whether free or not).
#[inline(always)]
fn winning_cells<B: Bits>(stones: B, h: u32) -> B {
    let h1 = h + 1;
    // vertical
    let mut r = stones.shl(1) & stones.shl(2) & stones.shl(3);
    for d in [h1, h, h + 2] {
        let p = stones.shl(d) & stones.shl(2 * d);
        r |= p & stones.shl(3 * d);
        r |= p & stones.shr(d);
        let p = stones.shr(d) & stones.shr(2 * d);
        r |= p & stones.shl(d);
        r |= p & stones.shr(3 * d);
    }
    r
}

/// Whether `stones` hold four in a row on a board of this size.
pub(crate) fn has_four_u128(size: Size, stones: u128) -> bool {
    let h1 = size.height() as u32 + 1;
    [1, h1, h1 - 1, h1 + 1].into_iter().any(|d| {
        let m = stones & stones.checked_shr(d).unwrap_or(0);
        m & m.checked_shr(2 * d).unwrap_or(0) != 0
    })
}

/// The board's constant masks, in the engine's integer type.
#[derive(Clone)]
pub(crate) struct Geometry<B> {
    pub(crate) width: u32,
    pub(crate) height: u32,
    bottom: B,
    board: B,
    columns: Vec<B>,
    /// Columns from the centre out.
    order: Vec<u32>,
}

impl<B: Bits> Geometry<B> {
    pub(crate) fn new(size: Size) -> Geometry<B> {
        let width = size.width() as u32;
        let columns = (0..width)
            .map(|c| B::from_u128(size.column_mask(c)))
            .collect();
        // 3, 2, 4, 1, 5, 0, 6 for 7 columns (0-based): the centre first, then
        // left before right at each distance.
        let mut order: Vec<u32> = (0..width).collect();
        let centre2 = width as i64 - 1; // twice the centre
        order.sort_by_key(|&c| ((2 * c as i64 - centre2).abs(), c));
        Geometry {
            width,
            height: size.height() as u32,
            bottom: B::from_u128(size.bottom_mask()),
            board: B::from_u128(size.board_mask()),
            columns,
            order,
        }
    }

    #[inline(always)]
    fn possible(&self, mask: B) -> B {
        (mask + self.bottom) & self.board
    }

    /// Free cells that complete a four of `stones`.
    #[inline(always)]
    fn winning(&self, stones: B, mask: B) -> B {
        winning_cells(stones, self.height) & (self.board ^ mask)
    }

    /// The key of a position with the column order reversed.
    #[inline(always)]
    fn mirror(&self, key: B) -> B {
        let h1 = self.height + 1;
        let col = self.columns[0].shl(1) | B::ONE; // the h + 1 bits of column 0
        let mut m = B::ZERO;
        for c in 0..self.width {
            let bits = key.shr(c * h1) & col;
            m |= bits.shl((self.width - 1 - c) * h1);
        }
        m
    }
}

/// A direct-mapped transposition table, always replacing, holding the full key.
struct Table<B: Bits> {
    slots: Vec<B::Slot>,
    shift: u32,
}

impl<B: Bits> Table<B> {
    fn new(log_size: u32) -> Table<B> {
        Table {
            slots: vec![B::Slot::default(); 1 << log_size],
            shift: 64 - log_size,
        }
    }

    #[inline(always)]
    fn index(&self, key: B) -> usize {
        (key.hash() >> self.shift) as usize
    }

    #[inline(always)]
    fn get(&self, key: B) -> u8 {
        B::value(self.slots[self.index(key)], key)
    }

    #[inline(always)]
    fn put(&mut self, key: B, value: u8) {
        let i = self.index(key);
        self.slots[i] = B::slot(key, value);
    }

    fn clear(&mut self) {
        self.slots.fill(B::Slot::default());
    }
}

/// Table bytes: `1 + 2·(score + 63) + lower`, so 0 means nothing stored.
#[inline(always)]
fn encode(score: i32, lower: bool) -> u8 {
    // A bound beyond ±63 (boards of more than 126 cells) is stored weaker, still true.
    let score = score.clamp(-63, 63);
    (1 + 2 * (score + 63) + i32::from(lower)) as u8
}

#[inline(always)]
fn decode(v: u8) -> (i32, bool) {
    let v = i32::from(v) - 1;
    (v / 2 - 63, v % 2 == 1)
}

/// Up to 64 moves, highest score first, ties in the order added.
struct Sorter {
    /// `(score << 8) | column`, kept in ascending order.
    entries: [u16; 64],
    len: usize,
}

impl Sorter {
    #[inline(always)]
    fn new() -> Sorter {
        Sorter {
            entries: [0; 64],
            len: 0,
        }
    }

    /// Adds a move; among equal scores the last one added comes out first.
    #[inline(always)]
    fn add(&mut self, column: u32, score: u32) {
        let e = ((score.min(255) as u16) << 8) | column as u16;
        let mut pos = self.len;
        while pos > 0 && self.entries[pos - 1] >> 8 > e >> 8 {
            self.entries[pos] = self.entries[pos - 1];
            pos -= 1;
        }
        self.entries[pos] = e;
        self.len += 1;
    }

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(u32::from(self.entries[self.len] & 0xff))
    }
}

/// The search over one integer type.
pub(crate) struct Engine<B: Bits> {
    pub(crate) geo: Geometry<B>,
    table: Table<B>,
    symmetric: bool,
    pub(crate) nodes: u64,
}

impl<B: Bits> Engine<B> {
    pub(crate) fn new(size: Size, log_table: u32) -> Engine<B> {
        Engine {
            geo: Geometry::new(size),
            table: Table::new(log_table),
            symmetric: true,
            nodes: 0,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.table.clear();
    }

    /// Whether keys of mirror images are shared.
    pub(crate) fn set_symmetric(&mut self, on: bool) {
        self.symmetric = on;
        self.table.clear();
    }

    #[inline(always)]
    fn key(&self, current: B, mask: B) -> B {
        let k = current + mask;
        if self.symmetric {
            k.min(self.geo.mirror(k))
        } else {
            k
        }
    }

    /// Negamax within `alpha < beta`; the position has no four and the
    /// side to move cannot win at once. `empty` is the number of empty cells.
    fn negamax(&mut self, current: B, mask: B, empty: i32, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        self.nodes += 1;
        let geo = &self.geo;
        let possible_all = geo.possible(mask);
        let opponent_win = geo.winning(current ^ mask, mask);
        let forced = possible_all & opponent_win;
        let mut possible = possible_all;
        if forced != B::ZERO {
            if forced & (forced - B::ONE) != B::ZERO {
                return -empty / 2; // two threats: the opponent wins next move
            }
            possible = forced;
        }
        // never play just below an opponent's winning cell
        possible = possible & !opponent_win.shr(1);
        if possible == B::ZERO {
            return -empty / 2;
        }
        if empty <= 2 {
            return 0;
        }
        let min = -(empty - 2) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = (empty - 1) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let key = self.key(current, mask);
        let v = self.table.get(key);
        if v != 0 {
            let (score, lower) = decode(v);
            if lower {
                if alpha < score {
                    alpha = score;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else if beta > score {
                beta = score;
                if alpha >= beta {
                    return beta;
                }
            }
        }

        let mut moves = Sorter::new();
        for &c in geo.order.iter().rev() {
            let mv = possible & geo.columns[c as usize];
            if mv != B::ZERO {
                moves.add(c, geo.winning(current | mv, mask).popcount());
            }
        }
        while let Some(c) = moves.next() {
            let mv = possible & self.geo.columns[c as usize];
            let next_current = current ^ mask;
            let next_mask = mask | mv;
            let score = -self.negamax(next_current, next_mask, empty - 1, -beta, -alpha);
            if score >= beta {
                self.table.put(key, encode(score, true));
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.table.put(key, encode(alpha, false));
        alpha
    }

    fn can_win_next(&self, current: B, mask: B) -> bool {
        self.geo.winning(current, mask) & self.geo.possible(mask) != B::ZERO
    }

    /// The exact internal score (or, `weak`, only its sign) of a position
    /// with no four.
    pub(crate) fn solve(&mut self, current: B, mask: B, empty: i32, weak: bool) -> i32 {
        if empty == 0 {
            return 0;
        }
        if self.can_win_next(current, mask) {
            return (empty + 1) / 2;
        }
        let (mut min, mut max) = (-empty / 2, (empty + 1) / 2);
        if weak {
            (min, max) = (-1, 1);
        }
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(current, mask, empty, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        min
    }

    /// The internal score of playing 0-based `column` (which has room).
    pub(crate) fn score_move(
        &mut self,
        current: B,
        mask: B,
        empty: i32,
        column: u32,
        weak: bool,
    ) -> i32 {
        let mv = self.geo.possible(mask) & self.geo.columns[column as usize];
        if self.geo.winning(current, mask) & mv != B::ZERO {
            let s = (empty + 1) / 2;
            return if weak { s.signum() } else { s };
        }
        -self.solve(current ^ mask, mask | mv, empty - 1, weak)
    }

    /// Whether playing `column` scores at least `target` for the side to move.
    pub(crate) fn move_reaches(
        &mut self,
        current: B,
        mask: B,
        empty: i32,
        column: u32,
        target: i32,
    ) -> bool {
        let mv = self.geo.possible(mask) & self.geo.columns[column as usize];
        if self.geo.winning(current, mask) & mv != B::ZERO {
            return (empty + 1) / 2 >= target;
        }
        let (c2, m2, e2) = (current ^ mask, mask | mv, empty - 1);
        if e2 == 0 {
            return 0 >= target;
        }
        // the child's score is at most -target
        let child_target = -target;
        if self.can_win_next(c2, m2) {
            return (e2 + 1) / 2 <= child_target;
        }
        self.negamax(c2, m2, e2, child_target, child_target + 1) <= child_target
    }

    /// Columns from the centre out.
    pub(crate) fn order(&self) -> &[u32] {
        &self.geo.order
    }

    pub(crate) fn can_play(&self, mask: B, column: u32) -> bool {
        self.geo.possible(mask) & self.geo.columns[column as usize] != B::ZERO
    }

    pub(crate) fn convert(p: &Position) -> (B, B, i32) {
        let (c, m) = p.bits();
        (B::from_u128(c), B::from_u128(m), p.empty_cells() as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_bytes_round_trip() {
        for s in -63..=63 {
            for lower in [false, true] {
                let v = encode(s, lower);
                assert_ne!(v, 0);
                assert_eq!(decode(v), (s, lower));
            }
        }
    }

    #[test]
    fn sorter_orders_by_score_then_last_added() {
        let mut s = Sorter::new();
        s.add(0, 1);
        s.add(1, 3);
        s.add(2, 1);
        s.add(3, 3);
        let out: Vec<u32> = std::iter::from_fn(|| s.next()).collect();
        assert_eq!(out, [3, 1, 2, 0]);
    }

    #[test]
    fn centre_first_order() {
        let g: Geometry<u64> = Geometry::new(Size::new(7, 6).unwrap());
        assert_eq!(g.order, [3, 2, 4, 1, 5, 0, 6]);
        let g: Geometry<u64> = Geometry::new(Size::new(4, 4).unwrap());
        assert_eq!(g.order, [1, 2, 0, 3]);
    }

    #[test]
    fn mirror_reverses_columns() {
        let size = Size::new(7, 6).unwrap();
        let g: Geometry<u64> = Geometry::new(size);
        // Columns of every height, a full one among them.
        for (left, right) in [("1123", "7765"), ("111111223344", "777777665544")] {
            let a = Position::from_moves(size, left).unwrap();
            let b = Position::from_moves(size, right).unwrap();
            let (ca, ma) = a.bits();
            let (cb, mb) = b.bits();
            assert_eq!(g.mirror((ca + ma) as u64), (cb + mb) as u64, "{left}");
            assert_eq!(g.mirror(g.mirror((ca + ma) as u64)), (ca + ma) as u64);
        }
    }
}
