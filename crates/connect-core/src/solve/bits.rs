//! The unsigned integers a bitboard is held in: `u64` for boards of at most
//! 56 bits (so a transposition-table slot packs key and value in one word),
//! `u128` for the rest.

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
    /// One transposition-table slot: a key and its stored byte.
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
    /// A slot holding `key` and the non-zero byte `value`.
    fn slot(key: Self, value: u8) -> Self::Slot;
    /// The byte stored with `key` in `slot`, or 0 when the slot holds another key.
    fn value(slot: Self::Slot, key: Self) -> u8;
}

const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

impl Bits for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    /// The key in the high 56 bits, the value in the low byte (keys of
    /// boards of at most 56 bits only).
    type Slot = u64;

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
        v as u64
    }
    #[inline(always)]
    fn hash(self) -> u64 {
        self.wrapping_mul(MIX)
    }
    #[inline(always)]
    fn slot(key: Self, value: u8) -> u64 {
        (key << 8) | u64::from(value)
    }
    #[inline(always)]
    fn value(slot: u64, key: Self) -> u8 {
        if slot >> 8 == key { slot as u8 } else { 0 }
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    type Slot = (u128, u8);

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
    fn slot(key: Self, value: u8) -> (u128, u8) {
        (key, value)
    }
    #[inline(always)]
    fn value(slot: (u128, u8), key: Self) -> u8 {
        if slot.0 == key { slot.1 } else { 0 }
    }
}
