//! The search's memory: what is known about each candidate set, keyed by the set itself.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast non-cryptographic hasher for candidate sets (FxHash's multiply-rotate).
#[derive(Default, Clone, Copy)]
pub(super) struct FxHasher(u64);

const FX_K: u64 = 0x517c_c1b7_2722_0a95;

impl FxHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(FX_K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(super) type Memo = HashMap<Box<[u32]>, Entry, BuildHasherDefault<FxHasher>>;

/// What the search knows about one candidate set at one depth limit.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    /// The exact cost when `exact`, else a lower bound.
    pub(super) value: u32,
    pub(super) exact: bool,
    /// The best guess (when `exact`).
    pub(super) guess: u32,
}
