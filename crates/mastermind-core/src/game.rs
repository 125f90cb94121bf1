//! Game sizes, codes, scores and the original program's pure functions.

use std::fmt;

use crate::Error;

/// Fewest pegs a game may have.
pub const MIN_PEGS: u32 = 1;
/// Most pegs a game may have.
pub const MAX_PEGS: u32 = 8;
/// Fewest colours a game may have.
pub const MIN_COLORS: u32 = 2;
/// Most colours a game may have (the letters `a`–`z`).
pub const MAX_COLORS: u32 = 26;

/// The size of a game: how many pegs a code has and how many colours each peg may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    pegs: u8,
    colors: u8,
}

/// A code (a secret or a guess): its index in lexicographic order (`aaaa` is 0).
///
/// The first peg is the most significant base-`colors` digit, so comparing
/// indices compares codes lexicographically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(pub u64);

/// The score of a guess against a secret: pegs right in place, and right colour in the wrong place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Score {
    /// Pegs of the right colour in the right position.
    pub right: u8,
    /// Further pegs of a right colour in a wrong position.
    pub wrong: u8,
}

impl Score {
    /// A score from its two numbers.
    pub fn new(right: u8, wrong: u8) -> Score {
        Score { right, wrong }
    }
}

impl fmt::Display for Score {
    /// Writes the score as the two digits a person types, e.g. `21`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.right, self.wrong)
    }
}

impl Default for Game {
    fn default() -> Self {
        Game { pegs: 4, colors: 6 }
    }
}

impl Game {
    /// A game with `pegs` pegs (1–8) and `colors` colours (2–26).
    pub fn new(pegs: u32, colors: u32) -> Result<Game, Error> {
        if !(MIN_PEGS..=MAX_PEGS).contains(&pegs) {
            return Err(Error::Pegs(pegs));
        }
        if !(MIN_COLORS..=MAX_COLORS).contains(&colors) {
            return Err(Error::Colors(colors));
        }
        Ok(Game {
            pegs: pegs as u8,
            colors: colors as u8,
        })
    }

    /// Number of pegs in a code.
    pub fn pegs(&self) -> usize {
        self.pegs as usize
    }

    /// Number of colours.
    pub fn colors(&self) -> usize {
        self.colors as usize
    }

    /// Number of distinct codes, `colors ^ pegs`.
    pub fn num_codes(&self) -> u64 {
        (self.colors as u64).pow(self.pegs as u32)
    }

    /// The letters allowed, e.g. `a-f`.
    pub fn letters(&self) -> String {
        format!("a-{}", (b'a' + self.colors - 1) as char)
    }

    /// The digits (colour numbers, `a` = 0) of a code, first peg first; unused slots are 0.
    pub fn digits(&self, code: Code) -> [u8; 8] {
        let mut out = [0u8; 8];
        let mut x = code.0;
        for i in (0..self.pegs()).rev() {
            out[i] = (x % self.colors as u64) as u8;
            x /= self.colors as u64;
        }
        out
    }

    /// The code with the given digits (colour numbers, first peg first).
    ///
    /// Digits must be below `colors`; only the first `pegs` are used.
    pub fn from_digits(&self, digits: &[u8]) -> Code {
        let mut x = 0u64;
        for &d in &digits[..self.pegs()] {
            debug_assert!(d < self.colors);
            x = x * self.colors as u64 + d as u64;
        }
        Code(x)
    }

    /// Reads a code written as letters in either case, e.g. `dbcb` or `DBCB`.
    ///
    /// The menu takes its keys in either case, so a code does too; codes are always
    /// shown in lower case, as the original shows them.
    pub fn parse_code(&self, text: &str) -> Result<Code, Error> {
        let len = text.chars().count();
        if len != self.pegs() {
            return Err(Error::CodeLength {
                code: text.to_string(),
                len,
                pegs: self.pegs(),
            });
        }
        let mut digits = [0u8; 8];
        for (i, typed) in text.chars().enumerate() {
            let ch = typed.to_ascii_lowercase();
            let ok = ch.is_ascii_lowercase() && (ch as u8 - b'a') < self.colors;
            if !ok {
                return Err(Error::CodeLetter {
                    code: text.to_string(),
                    letter: typed,
                    position: i + 1,
                    letters: self.letters(),
                });
            }
            digits[i] = ch as u8 - b'a';
        }
        Ok(self.from_digits(&digits))
    }

    /// Writes a code as letters, e.g. `dbcb`.
    pub fn format_code(&self, code: Code) -> String {
        self.digits(code)[..self.pegs()]
            .iter()
            .map(|&d| (b'a' + d) as char)
            .collect()
    }

    /// The original first guess: the first `pegs` colours in order, cycling (`abcd` for 4×6).
    pub fn initial_code(&self) -> Code {
        let digits: Vec<u8> = (0..self.pegs).map(|i| i % self.colors).collect();
        self.from_digits(&digits)
    }

    /// Every code in the original candidate order: the initial code, then all others lexicographically.
    pub fn original_order(&self) -> impl Iterator<Item = Code> + '_ {
        let init = self.initial_code();
        std::iter::once(init).chain((0..self.num_codes()).map(Code).filter(move |&c| c != init))
    }

    /// The score of `guess` against `secret` (the original `calcScore`).
    pub fn calc_score(&self, secret: Code, guess: Code) -> Score {
        let a = self.digits(secret);
        let b = self.digits(guess);
        let mut right = 0u8;
        let mut ca = [0u8; MAX_COLORS as usize];
        let mut cb = [0u8; MAX_COLORS as usize];
        for i in 0..self.pegs() {
            if a[i] == b[i] {
                right += 1;
            }
            ca[a[i] as usize] += 1;
            cb[b[i] as usize] += 1;
        }
        let common: u8 = ca.iter().zip(&cb).map(|(x, y)| *x.min(y)).sum();
        Score {
            right,
            wrong: common - right,
        }
    }

    /// Keeps the candidates that `guess` would have given `score` against (the original `makeGuess`), in order.
    pub fn make_guess(&self, guess: Code, score: Score, candidates: &[Code]) -> Vec<Code> {
        candidates
            .iter()
            .copied()
            .filter(|&c| self.calc_score(c, guess) == score)
            .collect()
    }

    /// Reads a score typed by a person (spec §3): two digits, right then wrong, each and their sum in `0..=pegs`.
    pub fn parse_score(&self, text: &str) -> Option<Score> {
        let bytes = text.trim().as_bytes();
        if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let right = bytes[0] - b'0';
        let wrong = bytes[1] - b'0';
        (right + wrong <= self.pegs).then_some(Score { right, wrong })
    }

    /// The winning score: every peg right.
    pub fn win(&self) -> Score {
        Score {
            right: self.pegs,
            wrong: 0,
        }
    }

    /// Number of score slots, `(pegs + 1)²`; see [`Game::score_index`].
    pub fn num_score_slots(&self) -> usize {
        (self.pegs() + 1) * (self.pegs() + 1)
    }

    /// A score as a small integer, `right * (pegs + 1) + wrong`.
    pub fn score_index(&self, score: Score) -> usize {
        score.right as usize * (self.pegs() + 1) + score.wrong as usize
    }

    /// The score with the given [`Game::score_index`].
    pub fn score_from_index(&self, index: usize) -> Score {
        Score {
            right: (index / (self.pegs() + 1)) as u8,
            wrong: (index % (self.pegs() + 1)) as u8,
        }
    }

    /// Bit mask of the colours a code uses (bit `c` for colour `c`).
    pub fn colour_mask(&self, code: Code) -> u32 {
        self.digits(code)[..self.pegs()]
            .iter()
            .fold(0, |m, &d| m | (1 << d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        let g = Game::default();
        let s = g.parse_code("dbcb").unwrap();
        let sc = |x: &str| g.calc_score(s, g.parse_code(x).unwrap());
        assert_eq!(sc("abcd"), Score::new(2, 1));
        assert_eq!(sc("aabd"), Score::new(0, 2));
        assert_eq!(sc("bbca"), Score::new(2, 1));
        assert_eq!(sc("dbcb"), Score::new(4, 0));
    }

    #[test]
    fn order_and_format() {
        let g = Game::default();
        let v: Vec<String> = g
            .original_order()
            .take(3)
            .map(|c| g.format_code(c))
            .collect();
        assert_eq!(v, ["abcd", "aaaa", "aaab"]);
        assert_eq!(g.original_order().count(), 1296);
        assert_eq!(g.format_code(g.initial_code()), "abcd");
        let g = Game::new(5, 3).unwrap();
        assert_eq!(g.format_code(g.initial_code()), "abcab");
    }

    #[test]
    fn parse_scores() {
        let g = Game::default();
        assert_eq!(g.parse_score(" 21 "), Some(Score::new(2, 1)));
        assert_eq!(g.parse_score("40"), Some(Score::new(4, 0)));
        assert_eq!(g.parse_score("41"), None);
        assert_eq!(g.parse_score("50"), None);
        assert_eq!(g.parse_score("2 1"), None);
        assert_eq!(g.parse_score("2"), None);
        assert_eq!(g.parse_score("x1"), None);
    }

    #[test]
    fn bad_codes() {
        let g = Game::default();
        assert!(matches!(g.parse_code("abc"), Err(Error::CodeLength { .. })));
        assert!(matches!(
            g.parse_code("abcg"),
            Err(Error::CodeLetter { position: 4, .. })
        ));
        assert!(matches!(
            g.parse_code("abcG"),
            Err(Error::CodeLetter {
                position: 4,
                letter: 'G',
                ..
            })
        ));
        assert_eq!(g.parse_code("AbCd").unwrap(), g.parse_code("abcd").unwrap());
        assert!(Game::new(0, 6).is_err());
        assert!(Game::new(4, 27).is_err());
    }
}
