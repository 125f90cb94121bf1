//! The unsigned integers a bitboard is held in: `u64` for boards of at most
//! 52 bits and 14 columns (so a transposition-table slot packs key, value
//! and best move in one word), `u128` for the rest.

use std::fmt::Debug;
use std::ops::{Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

/// An unsigned integer used as a set of cells.
pub(crate) trait Bits:
    Copy
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
    /// One transposition-table slot: a key, its stored byte and a move.
    type Slot: Copy + Default + Send;

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
    fn slot(key: Self, value: u8, mv: u8) -> Self::Slot;
    /// The byte and move stored with `key` in `slot`, or `(0, 0)` when the
    /// slot holds another key.
    fn entry(slot: Self::Slot, key: Self) -> (u8, u8);
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
    const ZERO: Self = 0;
    const ONE: Self = 1;
    /// The key in the high 52 bits, the move in the next 4, the value in the low byte.
    type Slot = u64;

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
    fn slot(key: Self, value: u8, mv: u8) -> u64 {
        (key << 12) | (u64::from(mv) << 8) | u64::from(value)
    }
    #[inline(always)]
    fn entry(slot: u64, key: Self) -> (u8, u8) {
        if slot >> 12 == key {
            (slot as u8, (slot >> 8) as u8 & 0xf)
        } else {
            (0, 0)
        }
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    type Slot = (u128, u8, u8);

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
    fn slot(key: Self, value: u8, mv: u8) -> (u128, u8, u8) {
        (key, value, mv)
    }
    #[inline(always)]
    fn entry(slot: (u128, u8, u8), key: Self) -> (u8, u8) {
        if slot.0 == key {
            (slot.1, slot.2)
        } else {
            (0, 0)
        }
    }
}
