//! The exact search: negamax with alpha-beta over bitboards, a
//! transposition table, and the move ordering of the fast solvers.
//!
//! A win for the side to move, made with a stone placed when `e` cells
//! were empty, scores `(e + 1) / 2`, a loss the negative, a draw 0: the
//! public score of [`super`], Pascal Pons's convention.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

use super::bits::Bits;
use super::position::Size;

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

/// The board's constant masks, in the engine's integer type. `W` and `H`
/// fix the size at compile time (0: the size is in the fields), so the
/// standard board's shifts and masks become constants.
#[derive(Clone)]
pub(crate) struct Geometry<B, const W: u32, const H: u32> {
    width: u32,
    height: u32,
    bottom: B,
    board: B,
    /// The cells of the even rows (the 2nd, 4th, … from the bottom), on
    /// boards of even height; empty otherwise.
    evens: B,
    /// Columns from the centre out.
    order: Vec<u32>,
}

impl<B: Bits, const W: u32, const H: u32> Geometry<B, W, H> {
    pub(crate) fn new(size: Size) -> Geometry<B, W, H> {
        let width = size.width() as u32;
        assert!(W == 0 || (W == width && H == size.height() as u32));
        // 3, 2, 4, 1, 5, 0, 6 for 7 columns (0-based): the centre first, then
        // left before right at each distance.
        let mut order: Vec<u32> = (0..width).collect();
        let centre2 = width as i64 - 1; // twice the centre
        order.sort_by_key(|&c| ((2 * c as i64 - centre2).abs(), c));
        let height = size.height() as u32;
        let evens = if height.is_multiple_of(2) {
            (1..height)
                .step_by(2)
                .map(|r| size.bottom_mask() << r)
                .sum()
        } else {
            0
        };
        Geometry {
            width,
            height,
            bottom: B::from_u128(size.bottom_mask()),
            board: B::from_u128(size.board_mask()),
            evens: B::from_u128(evens),
            order,
        }
    }

    #[inline(always)]
    pub(crate) fn w(&self) -> u32 {
        if W > 0 { W } else { self.width }
    }

    #[inline(always)]
    fn h(&self) -> u32 {
        if W > 0 { H } else { self.height }
    }

    #[inline(always)]
    fn bottom(&self) -> B {
        if W > 0 {
            B::from_u128(const_bottom(W, H))
        } else {
            self.bottom
        }
    }

    #[inline(always)]
    fn board(&self) -> B {
        if W > 0 {
            B::from_u128(const_bottom(W, H) * ((1u128 << H) - 1))
        } else {
            self.board
        }
    }

    /// Every cell of 0-based column `c`.
    #[inline(always)]
    fn column(&self, c: u32) -> B {
        let h = self.h();
        (B::ONE.shl(h) - B::ONE).shl(c * (h + 1))
    }

    #[inline(always)]
    fn possible(&self, mask: B) -> B {
        (mask + self.bottom()) & self.board()
    }

    /// Free cells that complete a four of `stones`.
    #[inline(always)]
    fn winning(&self, stones: B, mask: B) -> B {
        winning_cells(stones, self.h()) & (self.board() ^ mask)
    }

    /// Claimeven (Allis): on a board of even height, with the first
    /// player to move (an even number of cells empty), the second can
    /// answer each move on top of it (or, after a move into a column of
    /// odd height, in another such column: there is always one). It then
    /// gets every empty even-row cell but those playable now (`possible`),
    /// and the side to move at most the rest. When that leaves the side to
    /// move no four, its score is at most the bound returned: 0, or, when
    /// those cells give the second a four, a loss. The second then wins by
    /// the time the four's last cell is filled: that cell is filled only
    /// after the one below it, with the cells above it still empty, so a
    /// four whose empty cells lie at most at row r (0-based) is complete
    /// with at least h - 1 - r cells left: a loss by (h + 1 - r) / 2 or
    /// more. `None` on boards of odd height, or when the side to move
    /// keeps a four.
    #[inline(always)]
    fn claimeven(&self, current: B, mask: B, possible: B) -> Option<i32> {
        if self.evens == B::ZERO {
            return None;
        }
        let free = self.board() ^ mask;
        let theirs = free & self.evens & !possible;
        if self.has_four(current | (free ^ theirs)) {
            return None;
        }
        let opponent = current ^ mask;
        if !self.has_four(opponent | theirs) {
            return Some(0);
        }
        let h = self.h() as i32;
        let mut r = 1;
        while r < h - 1 {
            let low = self.bottom().shl(r as u32 + 1) - self.bottom();
            if self.has_four(opponent | (theirs & low)) {
                return Some(-(h + 1 - r) / 2);
            }
            r += 2;
        }
        Some(-1)
    }

    /// Whether `stones` hold four in a row.
    #[inline(always)]
    fn has_four(&self, stones: B) -> bool {
        let h = self.h();
        let mut any = B::ZERO;
        for d in [1, h + 1, h, h + 2] {
            let m = stones & stones.shr(d);
            any |= m & m.shr(2 * d);
        }
        any != B::ZERO
    }

    /// The key of a position with the column order reversed.
    #[inline(always)]
    fn mirror(&self, key: B) -> B {
        let (w, h1) = (self.w(), self.h() + 1);
        let col = B::ONE.shl(h1) - B::ONE; // the h + 1 bits of column 0
        let mut m = B::ZERO;
        for c in 0..w {
            let bits = key.shr(c * h1) & col;
            m |= bits.shl((w - 1 - c) * h1);
        }
        m
    }
}

/// One bit at the bottom of each of `w` columns of height `h`.
const fn const_bottom(w: u32, h: u32) -> u128 {
    let mut m = 0u128;
    let mut c = 0;
    while c < w {
        m |= 1u128 << (c * (h + 1));
        c += 1;
    }
    m
}

/// The transposition table: places of one slot (the whole key) or two
/// (partial keys, the entry with less work behind it replaced first); threads
/// searching together share one (Lazy SMP).
pub(crate) struct Table<B: Bits> {
    slots: Vec<B::Slot>,
    log: u32,
    key_bits: u32,
}

impl<B: Bits> Table<B> {
    fn new(log_size: u32, key_bits: u32) -> Table<B> {
        let slots: Vec<B::Slot> = (0..1usize << log_size)
            .map(|_| B::Slot::default())
            .collect();
        huge_pages(&slots);
        Table {
            slots,
            log: log_size,
            key_bits,
        }
    }

    /// The slots of `key`'s place and its tag there.
    #[inline(always)]
    fn place(&self, key: B) -> (&[B::Slot], B) {
        let (i, tag) = B::locate(key, self.log, self.key_bits);
        (&self.slots[i..i + B::PLACE], tag)
    }

    /// Asks the processor to fetch `key`'s place into the cache, so that
    /// a later [`Table::get`] does not wait for memory.
    #[inline(always)]
    fn prefetch(&self, key: B) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let (slots, _) = self.place(key);
            // SAFETY: a prefetch is a hint that never faults and changes no
            // memory; SSE, which it needs, is part of every x86_64.
            #[allow(unsafe_code)]
            // reason: the prefetch intrinsic is an unsafe fn
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(slots.as_ptr().cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The byte and move (column + 1, 0 for none) stored for `key`.
    #[inline(always)]
    fn get(&self, key: B) -> (u8, u8) {
        let (slots, tag) = self.place(key);
        B::entry(slots, tag)
    }

    #[inline(always)]
    fn put(&self, key: B, value: u8, mv: u8, work: u8) {
        let (slots, tag) = self.place(key);
        B::store(slots, tag, value, mv, work);
    }

    fn clear(&self) {
        self.slots.iter().for_each(B::reset);
    }
}

/// Asks the kernel to back a large table with huge pages: every probe of
/// the search lands on a random slot, and with 4 KiB pages most of them
/// also miss the TLB. Advice only; where it is refused nothing changes.
fn huge_pages<T>(slots: &[T]) {
    const PAGE: usize = 2 << 20;
    let start = slots.as_ptr() as usize;
    let end = start + std::mem::size_of_val(slots);
    let first = start.div_ceil(PAGE) * PAGE;
    let last = end / PAGE * PAGE;
    if last > first {
        // SAFETY: MADV_HUGEPAGE changes only how the kernel backs these pages
        // (inside an allocation this table owns), never their contents.
        #[allow(unsafe_code)]
        // reason: madvise has no safe wrapper; this advice cannot change memory
        let _ = unsafe {
            rustix::mm::madvise(
                first as *mut _,
                last - first,
                rustix::mm::Advice::LinuxHugepage,
            )
        };
    }
}

/// Table bytes: `1 + 2·(score + 63) + lower`, so 0 means nothing stored.
#[inline(always)]
fn encode(score: i32, lower: bool) -> u8 {
    // A bound beyond ±63 (boards of more than 126 cells) is stored weaker, still true.
    let score = score.clamp(-63, 63);
    (1 + 2 * (score + 63) + i32::from(lower)) as u8
}

/// The work of a search of `nodes` nodes: their number's binary logarithm.
#[inline(always)]
fn work(nodes: u64) -> u8 {
    (63 - nodes.max(1).leading_zeros()) as u8
}

#[inline(always)]
fn decode(v: u8) -> (i32, bool) {
    let v = i32::from(v) - 1;
    (v / 2 - 63, v % 2 == 1)
}

/// Up to `N` moves, highest score first, ties in the order added.
struct Sorter<const N: usize> {
    /// `(score << 8) | column`, kept in ascending order.
    entries: [u16; N],
    len: usize,
}

impl<const N: usize> Sorter<N> {
    #[inline(always)]
    fn new() -> Sorter<N> {
        Sorter {
            entries: [0; N],
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

/// The search over one integer type, for boards of at most `N` columns
/// (`W`, `H`: a size fixed at compile time, or 0).
pub(crate) struct Engine<B: Bits, const W: u32, const H: u32, const N: usize> {
    pub(crate) geo: Geometry<B, W, H>,
    table: Arc<Table<B>>,
    symmetric: bool,
    pub(crate) nodes: u64,
    /// Threads searching each root together, this one included.
    threads: usize,
    /// Set when the search is to give up: a helper's when the main thread
    /// has the answer, the main one's by its caller ([`Engine::set_stop`]).
    stop: Option<Arc<AtomicBool>>,
    /// A helper's random state for jitter in its move order (0: none).
    jitter: u64,
    /// Empty cells at the root being searched.
    root_empty: i32,
}

/// Positions with more empty cells than this probe their children in the
/// table before searching them.
const ETC_EMPTY: i32 = 14;

/// Positions with more empty cells than this look for a child bounded by
/// claimeven before searching any.
const CHILD_CLAIMEVEN_EMPTY: i32 = 10;

/// How many plies below the root a helper thread's move order is jittered.
const JITTER_PLIES: i32 = 8;

impl<B: Bits, const W: u32, const H: u32, const N: usize> Engine<B, W, H, N> {
    pub(crate) fn new(size: Size, log_table: u32) -> Engine<B, W, H, N> {
        assert!(size.width() <= N);
        Engine {
            geo: Geometry::new(size),
            table: Arc::new(Table::new(log_table, size.bits() as u32)),
            symmetric: true,
            nodes: 0,
            threads: 1,
            stop: None,
            jitter: 0,
            root_empty: 0,
        }
    }

    /// Searches each root with `threads` threads sharing the table (boards
    /// whose table slots are written in one store; others keep one thread).
    pub(crate) fn set_threads(&mut self, threads: usize) {
        self.threads = if B::ATOMIC { threads.max(1) } else { 1 };
    }

    /// An engine of the same board and settings whose searches read and
    /// fill this one's table, where its slots are written in one store
    /// (the table Lazy SMP's threads share); elsewhere a table of its own
    /// of the same size.
    pub(crate) fn sharing(&self) -> Engine<B, W, H, N> {
        let table = if B::ATOMIC {
            Arc::clone(&self.table)
        } else {
            Arc::new(Table::new(self.table.log, self.table.key_bits))
        };
        Engine {
            geo: self.geo.clone(),
            table,
            symmetric: self.symmetric,
            nodes: 0,
            threads: self.threads,
            stop: None,
            jitter: 0,
            root_empty: 0,
        }
    }

    /// Gives up each search once `stop` is set (`None`: never).
    pub(crate) fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// A helper thread's engine: the same table, its own move-order jitter.
    fn helper(&self, id: u64, stop: &Arc<AtomicBool>) -> Engine<B, W, H, N> {
        Engine {
            geo: self.geo.clone(),
            table: Arc::clone(&self.table),
            symmetric: self.symmetric,
            nodes: 0,
            threads: 1,
            stop: Some(Arc::clone(stop)),
            jitter: id.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            root_empty: 0,
        }
    }

    #[inline(always)]
    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Relaxed))
    }

    /// A pseudo-random bit from the helper's state (xorshift).
    #[inline(always)]
    fn jitter_bit(&mut self) -> u32 {
        let mut x = self.jitter;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.jitter = x;
        (x >> 32) as u32 & 1
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
    /// A result at most `alpha` is an upper bound of the score, one at
    /// least `beta` a lower bound, either possibly beyond the window.
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
        possible &= !opponent_win.shr(1);
        if possible == B::ZERO {
            return -empty / 2;
        }
        if empty <= 2 {
            return 0;
        }
        // With two moves or more the table is read below: its place is
        // fetched while the bounds are worked out.
        let several = possible & (possible - B::ONE) != B::ZERO;
        let key = if several {
            let key = self.key(current, mask);
            self.table.prefetch(key);
            key
        } else {
            B::ZERO
        };
        // Far from the end, the children's places too, for the enhanced
        // transposition cutoff below.
        let mut child_keys = [B::ZERO; N];
        let mut children = 0;
        if several && empty > ETC_EMPTY {
            let mut m = possible;
            while m != B::ZERO {
                let mv = m & !(m - B::ONE); // the lowest cell: one child
                m = m ^ mv;
                child_keys[children] = self.key(current ^ mask, mask | mv);
                self.table.prefetch(child_keys[children]);
                children += 1;
            }
        }
        let min = -(empty - 2) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = (empty - 1) / 2;
        // No four left open to the side to move (its stones and the free
        // cells): it cannot win, at best it draws.
        if max > 0 && beta > 0 && !geo.has_four(current | (geo.board() ^ mask)) {
            max = 0;
        }
        // With the first player to move, the second's claimeven strategy
        // may bound the score (a draw at best, or a loss by so much).
        if max >= 0
            && beta > -(geo.h() as i32) / 2
            && empty % 2 == 0
            && let Some(bound) = geo.claimeven(current, mask, possible_all)
        {
            max = bound;
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        // A move that leaves the opponent no move keeping it from losing at
        // once (two of our winning cells playable, the one it must block
        // just below another, or every move just below one) wins with our
        // next stone but one, the best score left: found before any child
        // is searched or the table read. Without one, the best score is a
        // win with the stone after.
        let mut threats = [0u8; N];
        if self.wins_in_two(current, mask, possible, &mut threats) {
            return (empty - 1) / 2;
        }
        if beta > (empty - 3) / 2 {
            beta = (empty - 3) / 2;
            if alpha >= beta {
                return beta;
            }
        }
        // One move left (a forced block, or the only one that does not lose
        // at once): played without a table entry of its own.
        if !several {
            return -self.negamax(current ^ mask, mask | possible, empty - 1, -beta, -alpha);
        }
        let (v, stored_move) = self.table.get(key);
        let nodes_before = self.nodes;
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

        // A move after which the opponent, first to move, is bounded by our
        // claimeven strategy gives this position at least the bound's
        // negative: a cut without searching that child.
        if empty > CHILD_CLAIMEVEN_EMPTY && empty % 2 == 1 && beta <= self.geo.h() as i32 / 2 {
            let mut m = possible;
            while m != B::ZERO {
                let mv = m & !(m - B::ONE);
                m = m ^ mv;
                let child_mask = mask | mv;
                let child_possible = self.geo.possible(child_mask);
                if let Some(u) = self
                    .geo
                    .claimeven(current ^ mask, child_mask, child_possible)
                    && -u >= beta
                {
                    return -u;
                }
            }
        }

        // Enhanced transposition cutoff, far from the end where a cut saves
        // most: a child the table bounds from above (score <= u for the
        // opponent) gives this position at least -u.
        if empty > ETC_EMPTY {
            for &child in &child_keys[..children] {
                let (v, _) = self.table.get(child);
                if v != 0 {
                    let (score, lower) = decode(v);
                    if !lower && -score >= beta {
                        return -score;
                    }
                }
            }
        }
        let geo = &self.geo;
        // The move that last refuted this position first (kept for a mirror
        // image too, so it is mirrored back when the key was), then by the
        // winning cells a move makes, ties from the centre out.
        let mirrored = self.symmetric && key != current + mask;
        let first = match stored_move {
            0 => u32::MAX,
            m if mirrored => geo.w() - u32::from(m),
            m => u32::from(m) - 1,
        };
        let mut moves = Sorter::<N>::new();
        for i in (0..geo.w() as usize).rev() {
            let c = geo.order[i];
            let mv = possible & geo.column(c);
            if mv != B::ZERO {
                let score = if c == first {
                    255
                } else {
                    u32::from(threats[c as usize])
                };
                moves.add(c, score);
            }
        }
        if self.jitter != 0 && empty + JITTER_PLIES > self.root_empty {
            let mut jittered = Sorter::<N>::new();
            let mut all = [0u32; N];
            let mut n = 0;
            while let Some(c) = moves.next() {
                all[n] = c;
                n += 1;
            }
            for (rank, &c) in all[..n].iter().enumerate().rev() {
                // The first move stays first; a later one may pass the one before it.
                let score = if rank == 0 {
                    255
                } else {
                    2 * (n - rank) as u32 + 3 * self.jitter_bit()
                };
                jittered.add(c, score);
            }
            moves = jittered;
        }
        // The best score found: when no move reaches beta, the score is at
        // most this, which may be below alpha (a tighter bound to store
        // and return than alpha).
        let mut best = i32::MIN;
        while let Some(c) = moves.next() {
            let mv = possible & self.geo.column(c);
            let next_current = current ^ mask;
            let next_mask = mask | mv;
            let score = -self.negamax(next_current, next_mask, empty - 1, -beta, -alpha);
            if self.stopped() {
                return 0; // never stored: the caller gives up too
            }
            if score >= beta {
                let stored = if mirrored { self.geo.w() - c } else { c + 1 };
                let work = work(self.nodes - nodes_before);
                self.table.put(key, encode(score, true), stored as u8, work);
                return score;
            }
            alpha = alpha.max(score);
            best = best.max(score);
        }
        let work = work(self.nodes - nodes_before);
        self.table.put(key, encode(best, false), 0, work);
        best
    }

    /// Whether one of `possible` (moves that lose at none of the
    /// opponent's winning cells) leaves the opponent no move that keeps us
    /// from winning with our next stone; else, in `threats`, the number of
    /// winning cells each column's move gives us (the move order's key).
    #[inline(always)]
    fn wins_in_two(&self, current: B, mask: B, possible: B, threats: &mut [u8; N]) -> bool {
        let geo = &self.geo;
        for c in 0..geo.w() {
            let mv = possible & geo.column(c);
            if mv == B::ZERO {
                continue;
            }
            let child_mask = mask | mv;
            let ours = geo.winning(current | mv, child_mask);
            let playable = geo.possible(child_mask);
            let wins = ours & playable;
            let safe = playable & !ours.shr(1);
            if safe == B::ZERO
                || (wins != B::ZERO
                    && (wins & (wins - B::ONE) != B::ZERO || wins & safe == B::ZERO))
            {
                return true;
            }
            threats[c as usize] = ours.popcount() as u8;
        }
        false
    }

    fn can_win_next(&self, current: B, mask: B) -> bool {
        self.geo.winning(current, mask) & self.geo.possible(mask) != B::ZERO
    }

    /// The exact score (or, `weak`, only its sign) of a position with no
    /// four, searched by every thread: helpers search the same root with
    /// jittered move orders, filling the shared table, and stop when this
    /// thread has the answer.
    pub(crate) fn solve(&mut self, current: B, mask: B, empty: i32, weak: bool) -> i32 {
        if self.threads <= 1 || empty < 12 {
            return self.solve_one(current, mask, empty, weak);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let helpers: Vec<_> = (1..self.threads as u64)
            .map(|id| self.helper(id, &stop))
            .collect();
        std::thread::scope(|s| {
            let handles: Vec<_> = helpers
                .into_iter()
                .map(|mut h| {
                    s.spawn(move || {
                        h.solve_one(current, mask, empty, weak);
                        h.nodes
                    })
                })
                .collect();
            let score = self.solve_one(current, mask, empty, weak);
            stop.store(true, Relaxed);
            for h in handles {
                self.nodes += h.join().unwrap_or(0);
            }
            score
        })
    }

    fn solve_one(&mut self, current: B, mask: B, empty: i32, weak: bool) -> i32 {
        self.root_empty = empty;
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
            if self.stopped() {
                return 0;
            }
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
        let mv = self.geo.possible(mask) & self.geo.column(column);
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
        let mv = self.geo.possible(mask) & self.geo.column(column);
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
        self.geo.possible(mask) & self.geo.column(column) != B::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Position;

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
        let mut s = Sorter::<8>::new();
        s.add(0, 1);
        s.add(1, 3);
        s.add(2, 1);
        s.add(3, 3);
        let out: Vec<u32> = std::iter::from_fn(|| s.next()).collect();
        assert_eq!(out, [3, 1, 2, 0]);
    }

    #[test]
    fn centre_first_order() {
        let g: Geometry<u64, 0, 0> = Geometry::new(Size::new(7, 6).unwrap());
        assert_eq!(g.order, [3, 2, 4, 1, 5, 0, 6]);
        let g: Geometry<u64, 0, 0> = Geometry::new(Size::new(4, 4).unwrap());
        assert_eq!(g.order, [1, 2, 0, 3]);
    }

    #[test]
    fn mirror_reverses_columns() {
        let size = Size::new(7, 6).unwrap();
        let g: Geometry<u64, 0, 0> = Geometry::new(size);
        let fixed: Geometry<u64, 7, 6> = Geometry::new(size);
        assert_eq!((g.bottom(), g.board()), (fixed.bottom(), fixed.board()));
        // Columns of every height, a full one among them.
        for (left, right) in [("1123", "7765"), ("111111232344", "777777656544")] {
            let a = Position::from_moves(size, left).unwrap();
            let b = Position::from_moves(size, right).unwrap();
            let (ca, ma) = a.bits();
            let (cb, mb) = b.bits();
            assert_eq!(g.mirror((ca + ma) as u64), (cb + mb) as u64, "{left}");
            assert_eq!(g.mirror(g.mirror((ca + ma) as u64)), (ca + ma) as u64);
        }
    }
}
