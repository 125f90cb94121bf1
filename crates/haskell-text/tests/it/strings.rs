//! String literals against `show`: what `show_string` writes reads back, and
//! it is what GHC's own `show` writes.

use haskell_text::{show_string, string_literal};
use proptest::prelude::*;
use test_support::{Tool, require};

/// Strings where `show` needs every kind of escape: controls by name, `\SO`
/// before `H`, numeric escapes before digits, quotes, backslashes, DEL and
/// characters beyond ASCII up to the last one.
const SAMPLES: &[&str] = &[
    "",
    "--12",
    "a\"b\\c",
    "\n\t\r\x07\x08\x0c\x0b",
    "\x00\x01\x0e\x1f\x7f",
    "\x0eH\x0eh",
    "é1é\u{a0}x",
    "\u{2028}\u{3000}\u{10ffff}9",
    "'",
    "\x0e\x0f",
];

#[test]
fn show_string_agrees_with_ghc_show() {
    if !require("show_string_agrees_with_ghc_show", &[Tool::Ghc]) {
        return;
    }
    // Each sample goes to GHC as a list of code points, so no escaping of
    // ours is involved in what GHC is given.
    let lists: Vec<String> = SAMPLES
        .iter()
        .map(|s| {
            let points: Vec<String> = s.chars().map(|c| u32::from(c).to_string()).collect();
            format!("[{}]", points.join(","))
        })
        .collect();
    let ghc = test_support::runghc(
        "Show",
        &format!(
            "main :: IO ()\nmain = mapM_ (putStrLn . show . map (toEnum :: Int -> Char)) [{}]\n",
            lists.join(", ")
        ),
        "",
    );
    let ghc: Vec<&str> = ghc.lines().collect();
    let ours: Vec<String> = SAMPLES.iter().map(|s| show_string(s)).collect();
    assert_eq!(ours, ghc);
}

proptest! {
    #[test]
    fn shown_strings_read_back(s in any::<String>()) {
        let shown = show_string(&s);
        let (rest, (value, _)) = string_literal(&shown).unwrap();
        prop_assert_eq!(rest, "");
        prop_assert_eq!(value, s);
    }
}

/// The value of `text` read as a whole string literal, as code points.
fn read_whole(text: &str) -> Option<Vec<u32>> {
    match string_literal(text) {
        Ok(("", (value, _))) => Some(value.chars().map(u32::from).collect()),
        _ => None,
    }
}

#[test]
fn every_char_after_a_backslash_and_inside_a_string_reads_as_ghc_reads_it() {
    if !require(
        "every_char_after_a_backslash_and_inside_a_string_reads_as_ghc_reads_it",
        &[Tool::Ghc],
    ) {
        return;
    }
    // For every character c, two literals: `"\c\1"` (an escape, a gap when c
    // is white space, or an error), where GHC prints c and the value's code
    // points whenever `read` accepts it; and `"acb"`, where GHC prints c
    // whenever the value read is not the three characters a, c, b (for every
    // c of the Basic Multilingual Plane, every 251st above it, and the last).
    // Then every `"\NAME"` for NAME of one to three letters and digits that
    // starts with a letter, which covers the named controls (`\SOH`, `\DC1`,
    // `\SO` before `H`), with the value of each that `read` accepts.
    let program = "\
import Text.Read (readMaybe)
escape :: Char -> IO ()
escape c = case (readMaybe (\"\\\"\\\\\" ++ [c] ++ \"\\\\1\\\"\") :: Maybe String) of
  Just s -> putStrLn (unwords (\"escape\" : show (fromEnum c) : map (show . fromEnum) s))
  Nothing -> return ()
plain :: Char -> IO ()
plain c
  | (readMaybe (\"\\\"a\" ++ [c] ++ \"b\\\"\") :: Maybe String) == Just ['a', c, 'b'] = return ()
  | otherwise = putStrLn (\"plain \" ++ show (fromEnum c))
named :: String -> IO ()
named n = case (readMaybe (\"\\\"\\\\\" ++ n ++ \"\\\"\") :: Maybe String) of
  Just s -> putStrLn (unwords (\"named\" : n : map (show . fromEnum) s))
  Nothing -> return ()
names :: [String]
names = [[a] | a <- up] ++ [[a, b] | a <- up, b <- al] ++ [[a, b, c] | a <- up, b <- al, c <- al]
  where
    up = ['A' .. 'Z']
    al = up ++ ['0' .. '9']
main :: IO ()
main = mapM_ escape [minBound .. maxBound] >> mapM_ plain plains >> mapM_ named names
plains :: [Char]
plains = ['\\0' .. '\\xffff'] ++ ['\\x10000', '\\x100fb' .. maxBound] ++ [maxBound]
";
    let ghc = test_support::runghc("Escapes", program, "");

    let chars = || (0..=u32::from(char::MAX)).filter_map(char::from_u32);
    let mut ours = String::new();
    for c in chars() {
        if let Some(value) = read_whole(&format!("\"\\{c}\\1\"")) {
            let points: Vec<String> = value.iter().map(u32::to_string).collect();
            ours.push_str(&format!("escape {} {}\n", u32::from(c), points.join(" ")));
        }
    }
    let plains = chars()
        .filter(|&c| u32::from(c) <= 0xffff || (u32::from(c) - 0x10000).is_multiple_of(251))
        .chain([char::MAX]);
    for c in plains {
        if read_whole(&format!("\"a{c}b\"")) != Some(vec![97, u32::from(c), 98]) {
            ours.push_str(&format!("plain {}\n", u32::from(c)));
        }
    }
    let upper = || 'A'..='Z';
    let alnum = || ('A'..='Z').chain('0'..='9');
    let mut names: Vec<String> = upper().map(String::from).collect();
    names.extend(upper().flat_map(|a| alnum().map(move |b| format!("{a}{b}"))));
    names.extend(
        upper().flat_map(|a| alnum().flat_map(move |b| alnum().map(move |c| format!("{a}{b}{c}")))),
    );
    for name in &names {
        if let Some(value) = read_whole(&format!("\"\\{name}\"")) {
            let points: Vec<String> = value.iter().map(u32::to_string).collect();
            ours.push_str(&format!("named {name} {}\n", points.join(" ")));
        }
    }
    // GHC's Char also holds the surrogates, which a Rust char cannot.
    let ghc: Vec<&str> = ghc
        .lines()
        .filter(|l| {
            let field = l.split(' ').nth(1).unwrap();
            field
                .parse()
                .map_or(true, |c: u32| char::from_u32(c).is_some())
        })
        .collect();
    let ours: Vec<&str> = ours.lines().collect();
    let first_difference = ghc.iter().zip(&ours).position(|(g, o)| g != o);
    assert!(
        first_difference.is_none() && ghc.len() == ours.len(),
        "GHC {} lines, ours {}; first difference at {first_difference:?}: GHC {:?}, ours {:?}",
        ghc.len(),
        ours.len(),
        first_difference.map(|i| ghc[i]),
        first_difference.map(|i| ours[i]),
    );
    // Not vacuous: the simple escapes, `\^`, digits, `\&`, gaps and the 34
    // names (and the names followed by more letters, as in `\SOH`) appear.
    assert!(
        ours.iter().filter(|l| l.starts_with("named ")).count() > 34,
        "{ours:?}"
    );
    assert!(ours.len() > 80, "{ours:?}");
}
