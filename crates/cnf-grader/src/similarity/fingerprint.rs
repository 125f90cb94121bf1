//! Fingerprints of a definition: hashes of its k-grams (runs of `k`
//! normalised tokens), selected by winnowing (Schleimer, Wilkerson and
//! Aiken, "Winnowing: local algorithms for document fingerprinting",
//! SIGMOD 2003).
//!
//! Winnowing keeps, of every window of `w` consecutive k-gram hashes, the
//! smallest (the rightmost smallest on a tie), each selected k-gram once.
//! So any run of at least `w + k - 1` tokens that two definitions share
//! gives them at least one common fingerprint, whatever surrounds it, and
//! no run shorter than `k` tokens ever does. A definition shorter than `k`
//! tokens has no fingerprint; one shorter than `w + k - 1` has at least
//! one. K-grams never cross from one definition into another, so the
//! fingerprints of a file are those of its definitions whatever their
//! order.

/// A fingerprint: the hash of a k-gram and where that k-gram is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint {
    /// The k-gram's hash.
    pub hash: u64,
    /// The index of its first token in the definition.
    pub start: u32,
}

/// The hash of each k-gram of `codes` (none when there are fewer than `k`).
pub fn kgram_hashes(codes: &[u64], k: usize) -> Vec<u64> {
    if k == 0 || codes.len() < k {
        return Vec::new();
    }
    codes
        .windows(k)
        .map(|gram| {
            let h = gram.iter().fold(0x9e37_79b9_7f4a_7c15_u64, |h, &c| {
                (h.rotate_left(23) ^ c).wrapping_mul(0xff51_afd7_ed55_8ccd)
            });
            super::normalise::mix(h)
        })
        .collect()
}

/// The k-grams winnowing selects among `hashes`, with windows of `w`
/// hashes (a shorter list is one window), in order.
pub fn winnow(hashes: &[u64], w: usize) -> Vec<Fingerprint> {
    let w = w.max(1);
    let mut out: Vec<Fingerprint> = Vec::new();
    if hashes.is_empty() {
        return out;
    }
    let windows = hashes.len().saturating_sub(w) + 1;
    for start in 0..windows {
        let window = &hashes[start..(start + w).min(hashes.len())];
        // The rightmost smallest.
        let (offset, &hash) = window
            .iter()
            .enumerate()
            .rev()
            .min_by_key(|&(_, h)| *h)
            .unwrap_or((0, &hashes[start]));
        let at = (start + offset) as u32;
        if out.last().is_none_or(|f| f.start != at) {
            out.push(Fingerprint { hash, start: at });
        }
    }
    out
}

/// The fingerprints of a definition's normalised tokens.
pub fn fingerprints(codes: &[u64], k: usize, w: usize) -> Vec<Fingerprint> {
    winnow(&kgram_hashes(codes, k), w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winnowing_selects_window_minima_once() {
        // The paper's shape: every window holds a selected hash.
        let hashes = [
            77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98,
        ];
        let picked: Vec<(u64, u32)> = winnow(&hashes, 4)
            .iter()
            .map(|f| (f.hash, f.start))
            .collect();
        // Windows by hand: [77 74 42 17] → 17@3; … [17 98 50 17] → 17@6 (rightmost);
        // [98 50 17 98], [50 17 98 8] → 8@8 …; [39 77 74 42] → 39@11; [77 74 42 17] → 17@15.
        assert_eq!(picked, [(17, 3), (17, 6), (8, 8), (39, 11), (17, 15)]);
        for start in 0..=hashes.len() - 4 {
            let range = start as u32..start as u32 + 4;
            assert!(winnow(&hashes, 4).iter().any(|f| range.contains(&f.start)));
        }
    }

    #[test]
    fn short_inputs() {
        assert!(fingerprints(&[1, 2], 3, 4).is_empty());
        assert_eq!(fingerprints(&[1, 2, 3], 3, 4).len(), 1);
        assert_eq!(winnow(&[5, 3, 9], 8), [Fingerprint { hash: 3, start: 1 }]);
    }

    #[test]
    fn a_shared_run_long_enough_shares_a_fingerprint() {
        let (k, w) = (5, 4);
        let run: Vec<u64> = (100..100 + (k + w - 1) as u64).collect();
        let a: Vec<u64> = [1, 2, 3]
            .iter()
            .copied()
            .chain(run.clone())
            .chain([4])
            .collect();
        let b: Vec<u64> = [9].iter().copied().chain(run).chain([8, 7, 6]).collect();
        let fa: Vec<u64> = fingerprints(&a, k, w).iter().map(|f| f.hash).collect();
        let fb: Vec<u64> = fingerprints(&b, k, w).iter().map(|f| f.hash).collect();
        assert!(fa.iter().any(|h| fb.contains(h)));
    }
}
