//! The code-breaking strategies of spec §7 by name.

use std::fmt;
use std::str::FromStr;

use crate::Error;

/// How the computer picks its next guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Strategy {
    /// The original program: the first remaining candidate in the original order.
    #[default]
    FirstConsistent,
    /// Knuth 1976: smallest largest part.
    Knuth,
    /// Kooi 2005: most non-empty parts.
    MostParts,
    /// Irving 1979: smallest sum of squared part sizes.
    ExpectedSize,
    /// Neuwirth 1982: smallest sum of `n·ln n` over part sizes.
    Entropy,
    /// Koyama–Lai 1993: least total guesses over every secret, by exact search.
    Optimal,
}

impl Strategy {
    /// Every strategy that picks each guess by a rule, in the order of spec §7 (all but
    /// [`Strategy::Optimal`], which searches the whole game first).
    pub const ALL: [Strategy; 5] = [
        Strategy::FirstConsistent,
        Strategy::Knuth,
        Strategy::MostParts,
        Strategy::ExpectedSize,
        Strategy::Entropy,
    ];

    /// The strategy's command-line name, e.g. `most-parts`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::FirstConsistent => "first-consistent",
            Strategy::Knuth => "knuth",
            Strategy::MostParts => "most-parts",
            Strategy::ExpectedSize => "expected-size",
            Strategy::Entropy => "entropy",
            Strategy::Optimal => "optimal",
        }
    }

    /// Whether the strategy scores every code as a possible guess (all but `first-consistent`).
    pub fn is_heuristic(self) -> bool {
        self != Strategy::FirstConsistent
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Strategy::ALL
            .into_iter()
            .chain([Strategy::Optimal])
            .find(|st| st.name() == s)
            .ok_or_else(|| Error::UnknownStrategy(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in Strategy::ALL {
            assert_eq!(s.name().parse::<Strategy>().unwrap(), s);
        }
        assert_eq!("optimal".parse::<Strategy>().unwrap(), Strategy::Optimal);
        assert!("best".parse::<Strategy>().is_err());
    }
}
