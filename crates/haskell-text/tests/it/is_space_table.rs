//! `is_space` over every `char`, against two sources that do not share its
//! code: the Unicode general categories of the `unicode-general-category`
//! crate, read through GHC's definition of `isSpace`, and GHC itself.

use haskell_text::is_space;
use test_support::{Tool, require};
use unicode_general_category::{GeneralCategory, get_general_category};

/// Every Unicode scalar value.
fn every_char() -> impl Iterator<Item = char> {
    (0..=u32::from(char::MAX)).filter_map(char::from_u32)
}

/// `isSpace` as GHC defines it: the characters of general category Zs
/// (space separator), plus the five controls tab, line feed, vertical tab,
/// form feed and carriage return.
fn ghc_documented(c: char) -> bool {
    get_general_category(c) == GeneralCategory::SpaceSeparator || ('\t'..='\r').contains(&c)
}

#[test]
fn is_space_is_category_zs_or_tab_to_carriage_return_for_every_char() {
    let wrong: Vec<String> = every_char()
        .filter(|&c| is_space(c) != ghc_documented(c))
        .map(|c| format!("U+{:04X} (is_space {})", u32::from(c), is_space(c)))
        .collect();
    assert!(
        wrong.is_empty(),
        "is_space differs from Zs/tab..CR at {wrong:?}"
    );
    // The table is not vacuous: 5 controls and 17 space separators.
    assert_eq!(every_char().filter(|&c| is_space(c)).count(), 22);
}

#[test]
fn rust_whitespace_that_haskell_does_not_skip() {
    let differ: Vec<u32> = every_char()
        .filter(|&c| c.is_whitespace() != is_space(c))
        .map(u32::from)
        .collect();
    // NEL, the line separator and the paragraph separator.
    assert_eq!(differ, [0x85, 0x2028, 0x2029]);
}

#[test]
fn is_space_agrees_with_ghc_data_char_for_every_char() {
    if !require(
        "is_space_agrees_with_ghc_data_char_for_every_char",
        &[Tool::Ghc],
    ) {
        return;
    }
    let out = test_support::runghc(
        "IsSpace",
        "import Data.Char (isSpace)\n\
         main :: IO ()\n\
         main = mapM_ (print . fromEnum) (filter isSpace [minBound .. maxBound])\n",
        "",
    );
    let ghc: Vec<u32> = out.lines().map(|l| l.parse().unwrap()).collect();
    // GHC's Char includes the surrogates, which are never space.
    let ours: Vec<u32> = every_char()
        .filter(|&c| is_space(c))
        .map(u32::from)
        .collect();
    assert_eq!(ours, ghc);
}
