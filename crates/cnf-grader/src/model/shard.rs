//! `--shard K/N`: one of N deterministic parts of a run, for CI matrices.
//!
//! Decisions: a fixture (for `grade`) or a student folder (for
//! `submissions`) belongs to shard `1 + h mod N`, where `h` is the first
//! eight bytes of the SHA-256 of its name (the `.cnf`'s path below the
//! fixture base, `Fixture::name`, e.g. `test03.cnf` for `fixtures/test03.cnf`
//! whichever way `fixtures` is typed; or the student's folder name), read
//! big-endian. The split depends
//! only on that text, not on the machine, the order of discovery or the
//! other fixtures, so adding a fixture moves no other one; a fixture's cases
//! stay together (its game is read once). Shards are numbered from 1, like
//! nextest's `--partition hash:K/N`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Most shards a run may be split into.
pub const MAX_SHARDS: u32 = 1024;

/// Shard `index` of `count` (1 ≤ index ≤ count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which one, from 1.
    pub index: u32,
    /// How many.
    pub count: u32,
}

/// Why a `K/N` text is not a shard.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a shard: {why} (expected K/N with 1 <= K <= N <= {MAX_SHARDS}, e.g. 1/3)")]
pub struct ShardError {
    text: String,
    why: &'static str,
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let fail = |why| ShardError {
            text: text.to_owned(),
            why,
        };
        let (k, n) = text.split_once('/').ok_or_else(|| fail("no '/'"))?;
        let number = |s: &str, what| {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                Err(fail(what))
            } else {
                s.parse::<u32>().map_err(|_| fail("a number is too big"))
            }
        };
        let index = number(k, "K is not a whole number")?;
        let count = number(n, "N is not a whole number")?;
        if count == 0 || count > MAX_SHARDS {
            return Err(fail("N is out of range"));
        }
        if index == 0 || index > count {
            return Err(fail("K is out of range"));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The shard (1 to `count`) that the item named `key` belongs to.
pub fn shard_of(key: &str, count: u32) -> u32 {
    let hash = Sha256::digest(key.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash[..8]);
    (u64::from_be_bytes(first) % u64::from(count.max(1))) as u32 + 1
}

impl Shard {
    /// Whether the item named `key` is in this shard.
    pub fn contains(&self, key: &str) -> bool {
        shard_of(key, self.count) == self.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!("1/1".parse::<Shard>().unwrap().to_string(), "1/1");
        for bad in [
            "", "3", "0/3", "4/3", "1/0", "a/3", "1/b", "+1/3", "1/3/4", "1/2000",
        ] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains("expected K/N"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_split_is_the_published_hash() {
        // SHA-256("abc") = ba7816bf8f01cfea... (FIPS 180-2's example). As 16 = 1 mod 3 and
        // mod 5, that word is its hex digit sum, 144, mod 3 and mod 5: 0 and 4, so shards 1
        // and 5; it is even, so shard 1 of 2.
        assert_eq!(shard_of("abc", 3), 1);
        assert_eq!(shard_of("abc", 5), 5);
        assert_eq!(shard_of("abc", 2), 1);
        assert_eq!(shard_of("abc", 1), 1);
    }

    #[test]
    fn shards_are_disjoint_and_cover() {
        let keys: Vec<String> = (0..500).map(|i| format!("fixtures/g{i}.cnf")).collect();
        for count in [1, 2, 3, 7] {
            let mut seen = vec![0; keys.len()];
            for index in 1..=count {
                let shard = Shard { index, count };
                for (i, k) in keys.iter().enumerate() {
                    if shard.contains(k) {
                        seen[i] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s == 1), "count {count}");
        }
        // Roughly even: each of 3 shards gets between 100 and 240 of 500.
        for index in 1..=3 {
            let n = keys
                .iter()
                .filter(|k| Shard { index, count: 3 }.contains(k))
                .count();
            assert!((100..=240).contains(&n), "shard {index}: {n}");
        }
    }
}
