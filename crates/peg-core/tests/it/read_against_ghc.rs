//! The reader against GHC's derived `Read` itself: some 300 texts with
//! parentheses in every place `read` allows them (and some where it does
//! not), read by both; each must be accepted by both with the same value,
//! or refused by both.

use peg_core::{parse_board, parse_move, parse_peg, parse_position, parse_state};
use test_support::{Tool, require};

/// The course's types with derived `Read` and `Show`; each input line is
/// `KIND TEXT`, each output line the value's `show`, or `-` if `read` fails.
const PROGRAM: &str = "\
import Text.Read (readMaybe)
type Position = (Int, Int)
data Color = W | B deriving (Show, Read)
data Peg = Peg Position Color deriving (Show, Read)
data Move = M Position deriving (Show, Read)
data State = S Move [Peg] deriving (Show, Read)
out :: Show a => Maybe a -> IO ()
out = putStrLn . maybe \"-\" show
one :: String -> IO ()
one ('p' : ' ' : t) = out (readMaybe t :: Maybe Position)
one ('g' : ' ' : t) = out (readMaybe t :: Maybe Peg)
one ('m' : ' ' : t) = out (readMaybe t :: Maybe Move)
one ('b' : ' ' : t) = out (readMaybe t :: Maybe [Peg])
one ('s' : ' ' : t) = out (readMaybe t :: Maybe State)
one l = error l
main :: IO ()
main = getContents >>= mapM_ one . lines
";

/// `text` inside `k` pairs of parentheses, with the spacing chosen by `k`.
fn wrap(text: &str, k: usize) -> String {
    let pad = if k.is_multiple_of(2) { "" } else { " " };
    format!("{}{pad}{text}{pad}{}", "(".repeat(k), ")".repeat(k))
}

fn ints(v: i64) -> Vec<String> {
    let mut out = vec![
        v.to_string(),
        wrap(&v.to_string(), 1),
        wrap(&v.to_string(), 2),
    ];
    if v < 0 {
        out.push(format!("- {}", -v));
        out.push(format!("(- {})", -v));
        out.push(format!("-({})", -v));
    }
    out
}

fn positions() -> Vec<String> {
    let mut out = Vec::new();
    for x in ints(-1) {
        for y in ints(0) {
            for k in 0..3 {
                out.push(wrap(&format!("({x},{y})"), k));
            }
        }
    }
    out.extend(
        [
            "((1,2)",
            "(1,2))",
            "((1),2))",
            "((1)),2)",
            "(1)",
            "(1,2,3)",
            "((1,(2)))",
            "(((1)),((2)))",
            "((((1)),2))",
            "(1 2)",
            "((1 2))",
            "()",
            "((,))",
            "(1,)",
        ]
        .map(String::from),
    );
    out
}

fn colors() -> Vec<String> {
    ["W", "(B)", "((W))", "( B )", "X", "(W", "W)"]
        .map(String::from)
        .to_vec()
}

fn pegs() -> Vec<String> {
    let mut out = Vec::new();
    for (n, p) in positions().iter().enumerate() {
        for (m, c) in colors().iter().enumerate() {
            if (n + m).is_multiple_of(3) {
                out.push(wrap(&format!("Peg {p} {c}"), n % 3));
            }
        }
    }
    out.extend(
        [
            "Peg(0,0)W",
            "(Peg (0,0) W",
            "Peg (0,0) W)",
            "((Peg) (0,0) W)",
        ]
        .map(String::from),
    );
    out
}

fn moves() -> Vec<String> {
    let mut out: Vec<String> = positions()
        .iter()
        .enumerate()
        .map(|(n, p)| wrap(&format!("M {p}"), n % 3))
        .collect();
    out.extend(["M(1,0)", "(M) (1,0)", "((M (1,0))"].map(String::from));
    out
}

fn boards() -> Vec<String> {
    let elements = [
        "Peg (0,0) W",
        "(Peg (1,0) B)",
        "((Peg ((0,1)) (W)))",
        "Peg (-1,0) ((B))",
    ];
    let mut out = Vec::new();
    for k in 0..3 {
        for n in 0..=elements.len() {
            out.push(wrap(&format!("[{}]", elements[..n].join(",")), k));
        }
    }
    out.extend(
        [
            "([Peg (0,0) W)]",
            "[(Peg (0,0) W]",
            "[Peg (0,0) W,]",
            "(([]))",
            "([])]",
        ]
        .map(String::from),
    );
    out
}

fn states() -> Vec<String> {
    let mut out = Vec::new();
    for (n, m) in [
        "(M (1,0))",
        "((M ((1),0)))",
        "(M ((1,0)))",
        "M (1,0)",
        "(M (1,0)",
    ]
    .iter()
    .enumerate()
    {
        for b in ["[Peg (0,0) W]", "([Peg (0,0) W])", "[]"] {
            out.push(wrap(&format!("S {m} {b}"), n % 3));
        }
    }
    out
}

fn ours(kind: char, text: &str) -> String {
    let shown = match kind {
        'p' => parse_position(text).map(|v| v.to_string()),
        'g' => parse_peg(text).map(|v| v.to_string()),
        'm' => parse_move(text).map(|v| v.to_string()),
        'b' => parse_board(text).map(|v| v.to_string()),
        _ => parse_state(text).map(|v| v.to_string()),
    };
    shown.unwrap_or_else(|_| "-".to_owned())
}

#[test]
fn parentheses_are_read_as_ghc_reads_them() {
    if !require("parentheses_are_read_as_ghc_reads_them", &[Tool::Ghc]) {
        return;
    }
    let mut cases: Vec<(char, String)> = Vec::new();
    cases.extend(positions().into_iter().map(|t| ('p', t)));
    cases.extend(pegs().into_iter().map(|t| ('g', t)));
    cases.extend(moves().into_iter().map(|t| ('m', t)));
    cases.extend(boards().into_iter().map(|t| ('b', t)));
    cases.extend(states().into_iter().map(|t| ('s', t)));

    let ghc = test_support::runghc(
        "ReadPeg",
        PROGRAM,
        &cases
            .iter()
            .map(|(k, t)| format!("{k} {t}\n"))
            .collect::<String>(),
    );
    let ghc: Vec<&str> = ghc.lines().collect();
    assert_eq!(ghc.len(), cases.len());

    let differ: Vec<String> = cases
        .iter()
        .zip(&ghc)
        .filter(|((k, t), g)| ours(*k, t) != **g)
        .map(|((k, t), g)| format!("{k} {t}: ours {}, GHC {g}", ours(*k, t)))
        .collect();
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    // Both verdicts occur, so the comparison is not one-sided.
    let refused = ghc.iter().filter(|g| **g == "-").count();
    assert!(
        refused > 20 && ghc.len() - refused > 20,
        "{refused} of {} refused",
        ghc.len()
    );
}
