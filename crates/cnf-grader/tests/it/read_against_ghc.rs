//! The `.cnf` reader against GHC's `read` at type `([String], [Int])`, which
//! is how the course harness read a game: every character as white space
//! between two tokens, and texts with parentheses, signs, escapes and white
//! space in every place `read` allows them (and some where it does not).
//! Each must be accepted by both with the same value, or refused by both.

use cnf_grader::format::cnf::parse_cnf;
use test_support::{Tool, require};

/// Each input line read as a game: its `show`, or `-` if `read` fails. Then
/// every character c for which `(["-1"],` c `[1])` reads.
const PROGRAM: &str = "\
import Text.Read (readMaybe)
game :: String -> Maybe ([String], [Int])
game = readMaybe
main :: IO ()
main = do
  getContents >>= mapM_ (putStrLn . maybe \"-\" show . game) . lines
  mapM_ (\\c -> putStrLn (\"space \" ++ show (fromEnum c)))
    [c | c <- [minBound .. maxBound], game (\"([\\\"-1\\\"],\" ++ [c] ++ \"[1])\") /= Nothing]
";

/// Games whose rows are valid cells and whose moves are columns 1 or 2, so
/// that what `read` accepts our reader must accept too (it also validates).
fn texts() -> Vec<String> {
    let rows = [
        r#"["-1","2-"]"#,
        r#"[("-1"),(("2-"))]"#,
        r#"["\45\&1","\x32\&-"]"#,
        r#"["\X2d\&1","\o62\&-"]"#,
        r#"["-\   \1","2-"]"#,
        r#"["-1" , "2-" ]"#,
        r#"([ "-1","2-"])"#,
        r#"["-1","2-",]"#,
        r#"["-1" "2-"]"#,
        r#"["-1,"2-"]"#,
        r#"['-1',"2-"]"#,
    ];
    let moves = [
        "[1,2]",
        "[(1),((2))]",
        "[ 1 , 2 ]",
        "([1])",
        "[]",
        "[1,]",
        "[-(1)]",
        "[1 2]",
        "[01,2]",
        "[+1]",
        "[1.0]",
    ];
    let mut out = Vec::new();
    for (n, r) in rows.iter().enumerate() {
        for (m, mv) in moves.iter().enumerate() {
            let k = (n + m) % 3;
            let pad = ["", " ", "\t\r\x0b\x0c\u{a0}\u{3000}"][(n * 7 + m) % 3];
            out.push(format!(
                "{pad}{}{r}{pad},{pad}{mv}{}{pad}",
                "(".repeat(k + 1),
                ")".repeat(k + 1)
            ));
        }
    }
    out.extend(
        [
            r#"((["-1","2-"]),[1])"#,
            r#"((["-1","2-"],[1])"#,
            r#"(["-1","2-"],[1]))"#,
            r#"(["-1","2-"]),[1])"#,
            r#"["-1","2-"],[1]"#,
            r#"(["-1","2-"],[1],[2])"#,
            r#"(["-1","2-"],[1]) x"#,
            "(\u{2028}[\"-1\",\"2-\"],[1])",
            "([\"-1\",\"2-\"],[1]\u{85})",
        ]
        .map(String::from),
    );
    out
}

/// Our reading of `text`, shown as Haskell's `show` shows the value.
fn ours(text: &str) -> String {
    match parse_cnf(text) {
        Ok(game) => {
            let rows: Vec<String> = game
                .board
                .row_strings()
                .map(|r| format!("\"{r}\""))
                .collect();
            let moves: Vec<String> = game.moves.iter().map(i64::to_string).collect();
            format!("([{}],[{}])", rows.join(","), moves.join(","))
        }
        Err(_) => "-".to_owned(),
    }
}

#[test]
fn games_are_read_as_ghc_reads_them() {
    if !require("games_are_read_as_ghc_reads_them", &[Tool::Ghc]) {
        return;
    }
    let texts = texts();
    let ghc = test_support::runghc(
        "ReadGame",
        PROGRAM,
        &texts.iter().map(|t| format!("{t}\n")).collect::<String>(),
    );
    let lines: Vec<&str> = ghc.lines().collect();
    let (games, spaces) = lines.split_at(texts.len().min(lines.len()));

    let differ: Vec<String> = texts
        .iter()
        .zip(games)
        .filter(|&(t, g)| ours(t) != *g)
        .map(|(t, g)| format!("{t:?}: ours {}, GHC {g}", ours(t)))
        .collect();
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    let refused = games.iter().filter(|g| **g == "-").count();
    assert!(
        refused > 20 && games.len() - refused > 20,
        "{refused} of {} refused",
        games.len()
    );

    let our_spaces: Vec<String> = (0..=u32::from(char::MAX))
        .filter_map(char::from_u32)
        .filter(|c| parse_cnf(&format!("([\"-1\"],{c}[1])")).is_ok())
        .map(|c| format!("space {}", u32::from(c)))
        .collect();
    assert_eq!(our_spaces, spaces);
}
