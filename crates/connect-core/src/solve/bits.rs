//! The unsigned integers a bitboard is held in: `u64` for boards of at most
//! 52 bits and 14 columns (so a transposition-table slot packs a partial
//! key, value, best move and work in one word), `u128` for the rest.

use std::fmt::Debug;
use std::ops::{Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// An unsigned integer used as a set of cells.
pub(crate) trait Bits:
    Copy
    + Send
    + Sync
    + 'static
    + Eq
    + Ord
    + Debug
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Not<Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// The set holding bit 0.
    const ONE: Self;
    /// One transposition-table slot (a key, its stored byte and a move),
    /// which threads searching together read and write without locks.
    type Slot: Default + Send + Sync;
    /// Whether a slot is written in one store, so that threads can share
    /// a table without ever reading half of one entry and half of another.
    const ATOMIC: bool;

    /// `self << n`, or empty when `n` is the width or more.
    fn shl(self, n: u32) -> Self;
    /// `self >> n`, or empty when `n` is the width or more.
    fn shr(self, n: u32) -> Self;
    /// The number of cells in the set.
    fn popcount(self) -> u32;
    /// The set from the low bits of a `u128`.
    fn from_u128(v: u128) -> Self;
    /// The first slot of `key`'s place in a table of 2^`log` slots, and
    /// the tag stored to recognise it, for keys of `key_bits` bits.
    fn locate(key: Self, log: u32, key_bits: u32) -> (usize, Self);
    /// Stores the non-zero byte `value`, `mv` (a column + 1, or 0 for
    /// none) and `work` (a small measure of the search behind it) for the
    /// key of `tag` at `slots` (its place).
    fn store(slots: &[Self::Slot], tag: Self, value: u8, mv: u8, work: u8);
    /// The byte and move stored for the key of `tag` at `slots`, or
    /// `(0, 0)` when none is.
    fn entry(slots: &[Self::Slot], tag: Self) -> (u8, u8);
    /// How many slots a place takes.
    const PLACE: usize;
    /// Empties a slot.
    fn reset(slot: &Self::Slot);
}

/// Whether a board of `bits` bits, `w` columns and height `h` runs on `u64`.
pub(crate) fn fits_u64(bits: usize, w: usize, h: usize) -> bool {
    bits <= 52 && w <= 14 && 3 * (h + 2) < 64
}

const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// Used only for boards of at most 52 bits whose height `h` keeps every
/// shift of the search, `3·(h + 2)` at most, below 64 (see
/// [`fits_u64`]): a shift is then one instruction.
impl Bits for u64 {
    #[inline(always)]
    fn reset(slot: &AtomicU64) {
        slot.store(0, Relaxed);
    }

    const ZERO: Self = 0;
    const ONE: Self = 1;
    /// The key in the high 52 bits, the move in the next 4, the value in the low byte.
    type Slot = AtomicU64;
    const ATOMIC: bool = true;

    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        debug_assert!(n < 64);
        self.wrapping_shl(n)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        debug_assert!(n < 64);
        self.wrapping_shr(n)
    }
    /// One step per cell: the sets counted (winning cells) hold few.
    #[inline(always)]
    fn popcount(self) -> u32 {
        let (mut m, mut c) = (self, 0);
        while m != 0 {
            m &= m - 1;
            c += 1;
        }
        c
    }
    fn from_u128(v: u128) -> Self {
        v as u64
    }
    /// A place is two neighbouring slots: a key is mixed by a bijection of
    /// its `key_bits` bits (a product by an odd number modulo
    /// 2^`key_bits`), whose high bits pick the place and whose low bits are
    /// the tag; the two determine the key, so the tag alone is kept.
    #[inline(always)]
    fn locate(key: Self, log: u32, key_bits: u32) -> (usize, Self) {
        let all = u64::MAX >> (64 - key_bits);
        let h = key.wrapping_mul(MIX) & all;
        let place_bits = (log - 1).min(key_bits);
        let tag_bits = key_bits - place_bits;
        let place = h.checked_shr(tag_bits).unwrap_or(0) as usize;
        (2 * place, h & low(tag_bits))
    }
    /// The tag in the high bits, then 5 bits of work, the move in 4 bits,
    /// the value in the low byte. A new entry replaces its own key's, or
    /// else the one of the two with less work behind it.
    #[inline(always)]
    fn store(slots: &[AtomicU64], tag: Self, value: u8, mv: u8, work: u8) {
        let word =
            (tag << 17) | (u64::from(work.min(31)) << 12) | (u64::from(mv) << 8) | u64::from(value);
        let (a, b) = (slots[0].load(Relaxed), slots[1].load(Relaxed));
        let second = if a >> 17 == tag && a as u8 != 0 {
            false
        } else {
            (b >> 17 == tag && b as u8 != 0) || (b >> 12) & 31 < (a >> 12) & 31
        };
        slots[usize::from(second)].store(word, Relaxed);
    }
    #[inline(always)]
    fn entry(slots: &[AtomicU64], tag: Self) -> (u8, u8) {
        for slot in &slots[..2] {
            let w = slot.load(Relaxed);
            if w >> 17 == tag && w as u8 != 0 {
                return (w as u8, (w >> 8) as u8 & 0xf);
            }
        }
        (0, 0)
    }
    const PLACE: usize = 2;
}

/// The low `n` bits set (`n` at most 64).
#[inline(always)]
fn low(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

impl Bits for u128 {
    #[inline(always)]
    fn reset(slot: &[AtomicU64; 3]) {
        for w in slot {
            w.store(0, Relaxed);
        }
    }

    const ZERO: Self = 0;
    const ONE: Self = 1;
    /// The key's halves and `value | mv << 8`.
    type Slot = [AtomicU64; 3];
    const ATOMIC: bool = false;

    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self.checked_shl(n).unwrap_or(0)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self.checked_shr(n).unwrap_or(0)
    }
    #[inline(always)]
    fn popcount(self) -> u32 {
        self.count_ones()
    }
    fn from_u128(v: u128) -> Self {
        v
    }
    /// A place is one slot holding the whole key.
    #[inline(always)]
    fn locate(key: Self, log: u32, _key_bits: u32) -> (usize, Self) {
        let h = ((key as u64) ^ ((key >> 64) as u64).wrapping_mul(MIX).rotate_left(29))
            .wrapping_mul(MIX);
        ((h >> (64 - log)) as usize, key)
    }
    #[inline(always)]
    fn store(slots: &[[AtomicU64; 3]], key: Self, value: u8, mv: u8, _work: u8) {
        let slot = &slots[0];
        slot[0].store(key as u64, Relaxed);
        slot[1].store((key >> 64) as u64, Relaxed);
        slot[2].store(u64::from(value) | u64::from(mv) << 8, Relaxed);
    }
    #[inline(always)]
    fn entry(slots: &[[AtomicU64; 3]], key: Self) -> (u8, u8) {
        let slot = &slots[0];
        let stored = u128::from(slot[0].load(Relaxed)) | u128::from(slot[1].load(Relaxed)) << 64;
        if stored == key {
            let v = slot[2].load(Relaxed);
            (v as u8, (v >> 8) as u8)
        } else {
            (0, 0)
        }
    }
    const PLACE: usize = 1;
}
