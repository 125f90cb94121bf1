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
    let dir = std::env::temp_dir().join(format!("haskell-text-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("Show.hs");
    std::fs::write(
        &program,
        format!(
            "main :: IO ()\nmain = mapM_ (putStrLn . show . map (toEnum :: Int -> Char)) [{}]\n",
            lists.join(", ")
        ),
    )
    .unwrap();
    let out = std::process::Command::new("runghc")
        .arg(&program)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ghc = String::from_utf8(out.stdout).unwrap();
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
