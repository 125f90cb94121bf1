//! The unsigned integers a bitboard is held in: `u64` for boards of at most
//! 52 bits and 14 columns (so a transposition-table slot packs key, value
//! and best move in one word), `u128` for the rest.

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
    /// A well-mixed 64-bit hash, for a table index.
    fn hash(self) -> u64;
    /// A slot holding `key`, the non-zero byte `value` and `mv` (a column
    /// + 1, or 0 for none).
    fn store(slot: &Self::Slot, key: Self, value: u8, mv: u8);
    /// The byte and move stored with `key` in `slot`, or `(0, 0)` when the
    /// slot holds another key.
    fn entry(slot: &Self::Slot, key: Self) -> (u8, u8);
    /// Empties a slot.
    fn reset(slot: &Self::Slot);
}

/// Whether a board of `bits` bits, `w` columns and height `h` runs on `u64`.
pub(crate) fn fits_u64(bits: usize, w: usize, h: usize) -> bool {
    bits <= 52 && w <= 14 && 3 * (h + 2) < 64
}

const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// Used only for boards of at most 56 bits whose height `h` keeps every
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
    #[inline(always)]
    fn hash(self) -> u64 {
        self.wrapping_mul(MIX)
    }
    #[inline(always)]
    fn store(slot: &AtomicU64, key: Self, value: u8, mv: u8) {
        slot.store(
            (key << 12) | (u64::from(mv) << 8) | u64::from(value),
            Relaxed,
        );
    }
    #[inline(always)]
    fn entry(slot: &AtomicU64, key: Self) -> (u8, u8) {
        let slot = slot.load(Relaxed);
        if slot >> 12 == key {
            (slot as u8, (slot >> 8) as u8 & 0xf)
        } else {
            (0, 0)
        }
    }
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
    #[inline(always)]
    fn hash(self) -> u64 {
        ((self as u64) ^ ((self >> 64) as u64).wrapping_mul(MIX).rotate_left(29)).wrapping_mul(MIX)
    }
    #[inline(always)]
    fn store(slot: &[AtomicU64; 3], key: Self, value: u8, mv: u8) {
        slot[0].store(key as u64, Relaxed);
        slot[1].store((key >> 64) as u64, Relaxed);
        slot[2].store(u64::from(value) | u64::from(mv) << 8, Relaxed);
    }
    #[inline(always)]
    fn entry(slot: &[AtomicU64; 3], key: Self) -> (u8, u8) {
        let stored = u128::from(slot[0].load(Relaxed)) | u128::from(slot[1].load(Relaxed)) << 64;
        if stored == key {
            let v = slot[2].load(Relaxed);
            (v as u8, (v >> 8) as u8)
        } else {
            (0, 0)
        }
    }
}
