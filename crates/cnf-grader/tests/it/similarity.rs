//! `cnf-grader similarity` on a class built here: six students who wrote
//! the assignment independently (`tests/similarity/*.hs` and the sample
//! class's `correct`), a copy of each obfuscated by hand-written rules
//! (every identifier renamed, definitions reordered, indentation doubled,
//! comments replaced, dead code added, one helper inlined), and two
//! students who handed in only the template.
//!
//! The renaming here knows nothing of the detector: the library names it
//! keeps are its own list of the names these files use.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use test_support::{Cli, Run};

#[path = "../similarity/shapes.rs"]
mod shapes;

/// `cnf-grader ARGS`.
fn grader(args: &[&str]) -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader")).args(args)
}

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn template_dir() -> PathBuf {
    manifest().join("haskell/template")
}

/// The functions of the four parts, and how the template's `main` calls them.
const PARTS: [(&str, &str); 4] = [
    ("onePlayerOneMove", "(head moves)"),
    ("onePlayerManyMoves", "moves"),
    ("manyPlayersOneMove", "moves"),
    ("manyPlayersManyMoves", "moves"),
];

fn part_name(n: usize) -> String {
    format!("csce322assignment03part{n:02}.hs")
}

/// A part file from the course's template with `body` (its own imports first).
fn part_file(n: usize, body: &str) -> String {
    let (imports, rest): (Vec<&str>, Vec<&str>) =
        body.lines().partition(|l| l.starts_with("import "));
    let (function, argument) = PARTS[n - 1];
    format!(
        "import Prelude\nimport System.Environment ( getArgs )\nimport Data.List\nimport Helpers\n{}\n\n{}\n\n\
         main = do\n     args <- getArgs\n     filename <- readFile (head args)\n     \
         (game,moves) <- readConnectFourFile filename\n     print \"Result\"\n     \
         let result = {function} game {argument}\n     printGame result\n",
        imports.join("\n"),
        rest.join("\n")
    )
}

/// The honest students: name and part files.
fn honest() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let sample = manifest().join("tests/submissions/class/correct");
    out.push((
        "sample".to_owned(),
        (1..=4)
            .map(|n| std::fs::read_to_string(sample.join(part_name(n))).unwrap())
            .collect(),
    ));
    for name in ["columns", "indices", "folds", "maybes", "cells"] {
        let body = std::fs::read_to_string(manifest().join(format!("tests/similarity/{name}.hs")))
            .unwrap();
        out.push((
            name.to_owned(),
            (1..=4).map(|n| part_file(n, &body)).collect(),
        ));
    }
    out
}

/// The names these files use that a student cannot rename: keywords,
/// library functions, types and constructors, module names, the parts'
/// functions and `main`.
const KEPT: &[&str] = &[
    "_",
    "case",
    "class",
    "data",
    "deriving",
    "do",
    "else",
    "if",
    "import",
    "in",
    "let",
    "of",
    "then",
    "type",
    "where",
    "main",
    "onePlayerOneMove",
    "onePlayerManyMoves",
    "manyPlayersOneMove",
    "manyPlayersManyMoves",
    "transpose",
    "span",
    "null",
    "init",
    "zip",
    "map",
    "concat",
    "group",
    "head",
    "length",
    "any",
    "all",
    "or",
    "and",
    "min",
    "max",
    "maximum",
    "reverse",
    "take",
    "drop",
    "takeWhile",
    "fromEnum",
    "toEnum",
    "cycle",
    "repeat",
    "splitAt",
    "fst",
    "snd",
    "foldl",
    "tails",
    "zipWith",
    "concatMap",
    "filter",
    "elem",
    "otherwise",
    "print",
    "getArgs",
    "readFile",
    "readConnectFourFile",
    "printGame",
    "isDigit",
    "digitToInt",
    "fromMaybe",
    "last",
    "break",
    "sum",
    "even",
    "show",
    "iterate",
    "words",
    "unwords",
    "lines",
    "product",
    "Just",
    "Nothing",
    "Maybe",
    "True",
    "False",
    "Int",
    "Char",
    "String",
    "Bool",
    "Eq",
    "Show",
    "Prelude",
    "Data",
    "List",
    "Helpers",
    "System",
    "Environment",
];

/// `text` with every identifier outside literals passed through `f`.
fn map_identifiers(text: &str, mut f: impl FnMut(&str) -> String) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            let end = (i + 1..chars.len())
                .find(|&j| chars[j] == '"')
                .unwrap_or(chars.len());
            out.extend(&chars[i..=end.min(chars.len() - 1)]);
            i = end + 1;
        } else if c == '\'' && i + 2 < chars.len() && chars[i + 2] == '\'' {
            out.extend(&chars[i..i + 3]);
            i += 3;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '\'')
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            out.push_str(&f(&word));
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Dead code a copier pads with: two unused definitions per copy, none
/// shared with another copy.
const DEAD: [&str; 12] = [
    "padA :: [Int] -> Int\npadA xs = sum [ x * x | x <- xs, even x ] + length xs",
    "padB :: String -> String\npadB s = reverse (filter (/= ' ') s) ++ show (length s)",
    "padC :: Int -> [Int]\npadC k = takeWhile (< k) (iterate (* 2) 1)",
    "padD :: [String] -> Int\npadD rs = length (filter (elem 'x') rs) * 3",
    "padE :: Int -> Int -> Bool\npadE a b = if a > b then even a else padE b (a + 1)",
    "padF :: [Int] -> [Int]\npadF ys = zipWith (+) ys (drop 1 ys) ++ [product ys]",
    "padG :: String -> Int\npadG w = case words w of\n  [] -> 0\n  (x : _) -> length x",
    "padH :: [[Int]] -> [Int]\npadH = map sum . filter (not . null)",
    "padI :: Char -> String\npadI ch = replicate 3 ch ++ [succ ch, pred ch]",
    "padJ :: Int -> String\npadJ n = unwords (map show [n, n * n, n * n * n])",
    "padK :: [Bool] -> Int\npadK bs = length [ () | True <- bs ] - 1",
    "padL :: (Int, Int) -> Int\npadL (p, q) = p * 10 + q `mod` 7",
];

/// An obfuscated copy of one file: comments dropped, `inline` applied (the
/// helper's definition removed and its calls replaced), the definitions in
/// reverse order, dead code added, every identifier the student chose
/// renamed (by `names`, shared by the copy's files), indentation doubled
/// and new comments written.
fn obfuscate(
    file: &str,
    inline: (&str, &[(&str, &str)]),
    dead: &[&str],
    names: &mut HashMap<String, String>,
) -> String {
    let without_comments: Vec<String> = file
        .lines()
        .map(|l| match l.find("--") {
            Some(i) => l[..i].trim_end().to_owned(),
            None => l.to_owned(),
        })
        .collect();
    let text = without_comments.join("\n");
    let mut imports = Vec::new();
    let mut chunks: Vec<String> = Vec::new();
    for chunk in text.split("\n\n") {
        let chunk = chunk.trim_matches('\n');
        if chunk.trim().is_empty() {
            continue;
        }
        let (import, rest): (Vec<&str>, Vec<&str>) =
            chunk.lines().partition(|l| l.starts_with("import "));
        imports.extend(import.into_iter().map(str::to_owned));
        if !rest.is_empty() {
            chunks.push(rest.join("\n"));
        }
    }
    let (helper, edits) = inline;
    chunks.retain(|c| {
        !(c.starts_with(&format!("{helper} ")) || c.starts_with(&format!("{helper}\n")))
    });
    let chunks: Vec<String> = chunks
        .into_iter()
        .rev()
        .map(|c| edits.iter().fold(c, |c, (from, to)| c.replace(from, to)))
        .chain(dead.iter().map(|d| (*d).to_owned()))
        .collect();
    let mut next = names.len();
    let mut rename = |word: &str| -> String {
        if KEPT.contains(&word) {
            return word.to_owned();
        }
        names
            .entry(word.to_owned())
            .or_insert_with(|| {
                next += 1;
                if word.starts_with(char::is_uppercase) {
                    format!("Zq{next}")
                } else {
                    format!("zq{next}v")
                }
            })
            .clone()
    };
    let mut out = imports.join("\n");
    out.push_str("\n\n");
    for (n, chunk) in chunks.iter().enumerate() {
        let renamed = map_identifiers(chunk, &mut rename);
        out.push_str(&format!("{{- section {n} -}}\n"));
        for line in renamed.lines() {
            let indent = line.len() - line.trim_start().len();
            out.push_str(&" ".repeat(indent * 2));
            out.push_str(line.trim_start());
            if n % 2 == 0 && !line.trim().is_empty() {
                out.push_str("  -- ok");
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// Each honest student's helper that its copy inlines, and the edits.
fn inlining(name: &str) -> (&'static str, &'static [(&'static str, &'static str)]) {
    match name {
        "sample" => (
            "players",
            &[("players board", "maximum (map playerNumber (concat board))")],
        ),
        "columns" => (
            "fourInLane",
            &[(
                "any fourInLane (lanes board)",
                "any (\\lane -> any (\\g -> head g /= '-' && length g >= 4) (group lane)) (lanes board)",
            )],
        ),
        "indices" => (
            "pieceFor",
            &[(
                "(pieceFor player)",
                "(if player < 10 then toEnum (player + 48) else toEnum (player + 87))",
            )],
        ),
        "folds" => (
            "fourSame",
            &[(
                "any fourSame (",
                "any (\\w -> case w of { (x : rest) -> x /= '-' && all (== x) rest; [] -> False }) (",
            )],
        ),
        "maybes" => (
            "dropOrStay",
            &[
                ("dropOrStay p rows c", "fromMaybe rows (tryDrop p c rows)"),
                (
                    "dropOrStay '1' rows m",
                    "fromMaybe rows (tryDrop '1' m rows)",
                ),
            ],
        ),
        "cells" => (
            "someoneWon",
            &[(
                "if someoneWon grid then",
                "if any (winnerAt grid) [ (r, c) | r <- [0 .. length grid - 1], c <- [0 .. length (head grid) - 1] ] then",
            )],
        ),
        other => panic!("no inlining for {other}"),
    }
}

fn write_student(root: &Path, name: &str, files: &[String]) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for (n, text) in files.iter().enumerate() {
        std::fs::write(dir.join(part_name(n + 1)), text).unwrap();
    }
}

/// The class: honest students, a copy of each, two template-only students.
fn build_class(root: &Path) {
    for (i, (name, files)) in honest().iter().enumerate() {
        write_student(root, name, files);
        let mut names = HashMap::new();
        let copies: Vec<String> = files
            .iter()
            .map(|f| obfuscate(f, inlining(name), &DEAD[2 * i..2 * i + 2], &mut names))
            .collect();
        write_student(root, &format!("copy-of-{name}"), &copies);
    }
    let template: Vec<String> = (1..=4)
        .map(|n| std::fs::read_to_string(template_dir().join(part_name(n))).unwrap())
        .collect();
    write_student(root, "template-only-1", &template);
    let mut reindented = template.clone();
    for t in &mut reindented {
        *t = t.replace("     ", "  ").replace("-- ", "-- (mine) ");
    }
    write_student(root, "template-only-2", &reindented);
}

/// `{(a, b): similarity}` from the JSON report on standard output.
fn scores(run: &Run) -> HashMap<(String, String), f64> {
    let value: serde_json::Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON: {e}\n{}", run.describe()));
    value["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                (
                    p["a"].as_str().unwrap().to_owned(),
                    p["b"].as_str().unwrap().to_owned(),
                ),
                p["similarity"].as_f64().unwrap(),
            )
        })
        .collect()
}

fn score(scores: &HashMap<(String, String), f64>, a: &str, b: &str) -> f64 {
    let key = |x: &str, y: &str| (x.to_owned(), y.to_owned());
    scores
        .get(&key(a, b))
        .or_else(|| scores.get(&key(b, a)))
        .copied()
        .unwrap_or(0.0)
}

#[test]
#[allow(clippy::print_stderr)] // reason: the table of scores is the evidence, shown with --nocapture
fn every_copy_scores_above_every_honest_pair_and_best_matches_its_source() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    build_class(&class);
    let base = template_dir();
    let run = grader(&[
        "similarity",
        class.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
        "--format",
        "json",
        "--no-times",
    ])
    .run();
    run.code(0);
    let found = scores(&run);
    let scores = found;
    let names: Vec<String> = honest().into_iter().map(|(n, _)| n).collect();
    let mut honest_max = (0.0, String::new());
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            let s = score(&scores, a, b);
            eprintln!("honest  {a:>8} / {b:<8} {s:.2}");
            if s > honest_max.0 {
                honest_max = (s, format!("{a} / {b}"));
            }
        }
    }
    let everyone: Vec<String> = std::fs::read_dir(&class)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for source in &names {
        let copy = format!("copy-of-{source}");
        let own = score(&scores, &copy, source);
        let runner_up = everyone
            .iter()
            .filter(|o| *o != source && **o != copy)
            .map(|o| (score(&scores, &copy, o), o))
            .max_by(|x, y| x.0.total_cmp(&y.0));
        eprintln!("copy    {copy:>17} / {source:<8} {own:.2}   next best {runner_up:?}");
        assert!(
            own > honest_max.0,
            "{copy} scores {own} with its source, not above the honest pair {} at {}",
            honest_max.1,
            honest_max.0
        );
        for other in everyone.iter().filter(|o| *o != source && **o != copy) {
            let s = score(&scores, &copy, other);
            assert!(s < own, "{copy}: {other} scores {s}, its source {own}");
        }
    }
    // Handing in the template is sharing nothing, with --base.
    assert_eq!(score(&scores, "template-only-1", "template-only-2"), 0.0);
    for student in &everyone {
        assert_eq!(score(&scores, "template-only-1", student), 0.0, "{student}");
    }
    // Without it (and with no limit on common code, which the template,
    // held by every student, is here), they look like copies.
    let run = grader(&[
        "similarity",
        class.to_str().unwrap(),
        "--format",
        "json",
        "--max-share",
        "100",
    ])
    .run();
    run.code(0);
    let without = self::scores(&run);
    assert_eq!(score(&without, "template-only-1", "template-only-2"), 1.0);
}

#[test]
fn the_json_report_has_the_documented_shape_sorted_highest_first() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    build_class(&class);
    let run = grader(&[
        "similarity",
        class.to_str().unwrap(),
        "--format",
        "json",
        "--no-times",
    ])
    .run();
    run.code(0);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut keys: Vec<&String> = value.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["cut", "pairs", "provenance", "sharing"]);
    let mut cut: Vec<&String> = value["cut"].as_object().unwrap().keys().collect();
    cut.sort();
    assert_eq!(
        cut,
        [
            "at",
            "flagged_from",
            "given",
            "mad",
            "median",
            "pairs_at_or_above",
            "pairs_flagged",
            "top_cluster"
        ]
    );
    let pairs = value["pairs"].as_array().unwrap();
    assert!(!pairs.is_empty());
    let sims: Vec<f64> = pairs
        .iter()
        .map(|p| p["similarity"].as_f64().unwrap())
        .collect();
    assert!(sims.windows(2).all(|w| w[0] >= w[1]), "{sims:?}");
    for p in pairs {
        let mut keys: Vec<&String> = p.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["a", "b", "matches", "similarity"]);
        for m in p["matches"].as_array().unwrap() {
            for side in ["a", "b"] {
                let file = m[side]["file"].as_str().unwrap();
                assert!(file.starts_with("csce322assignment03part"), "{file}");
                let lines = m[side]["lines"].as_array().unwrap();
                let (lo, hi) = (lines[0].as_u64().unwrap(), lines[1].as_u64().unwrap());
                assert!(1 <= lo && lo <= hi, "{lo}-{hi}");
                let matched: Vec<u64> = m[side]["matched"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_u64().unwrap())
                    .collect();
                assert_eq!(matched.first(), Some(&lo));
                assert_eq!(matched.last(), Some(&hi));
                assert!(matched.windows(2).all(|w| w[0] < w[1]), "{matched:?}");
            }
        }
    }
    assert!(value["provenance"]["grader"].is_string());
    assert!(value["provenance"].get("date").is_none());
    // Evidence is looked for in the highest --max-pages pairs only.
    let run = grader(&[
        "similarity",
        class.to_str().unwrap(),
        "--format",
        "json",
        "--max-pages",
        "2",
    ])
    .run();
    run.code(0);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let pairs = value["pairs"].as_array().unwrap();
    assert!(pairs.len() > 2);
    for (i, p) in pairs.iter().enumerate() {
        assert_eq!(p.get("matches").is_some(), i < 2, "{p}");
    }
}

#[test]
fn a_copy_matches_the_lines_it_copied() {
    // The copy of `indices` has its `landingRow` (a signature, then five
    // lines of code in the original part file) somewhere in its own part
    // file: the lines matched are within those five (signatures are not
    // compared) and include its first line (`landingRow g c = go 0`) and
    // the two guards of its local `go` (the fourth and fifth; `where` and
    // `go r` are not compared, the left-hand side of plain variables).
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    build_class(&class);
    let original = std::fs::read_to_string(class.join("indices").join(part_name(1))).unwrap();
    let at = original
        .lines()
        .position(|l| l.starts_with("landingRow ::"))
        .unwrap()
        + 1;
    let base = template_dir();
    let run = grader(&[
        "similarity",
        class.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
        "--format",
        "json",
    ])
    .run();
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let pair = value["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"] == "copy-of-indices" && p["b"] == "indices")
        .expect("the pair is listed");
    let at = at as u64;
    let found = pair["matches"].as_array().unwrap().iter().any(|m| {
        let matched: Vec<u64> = m["b"]["matched"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_u64().unwrap())
            .collect();
        m["b"]["file"] == part_name(1).as_str()
            && matched.iter().all(|l| (at + 1..=at + 5).contains(l))
            && matched.contains(&(at + 1))
            && matched.contains(&(at + 4))
            && matched.contains(&(at + 5))
    });
    assert!(
        found,
        "no match within lines {}-{}: {pair:#}",
        at + 1,
        at + 5
    );
}

#[test]
fn human_and_html_list_the_pairs_above_the_threshold_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    build_class(&class);
    // A folder name that would be markup, and a terminal escape.
    std::fs::rename(class.join("copy-of-cells"), class.join("<b>x\u{1b}[2J")).unwrap();
    let base = template_dir();
    let args = [
        "similarity",
        class.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
        "--no-times",
    ];
    let run = grader(&args).run();
    run.code(0)
        .stdout_has("copy-of-indices")
        .stdout_has("<b>x\\u{1b}[2J")
        .stdout_lacks("\u{1b}")
        .stdout_has("Ignored: the names a student chose")
        .stdout_has("Not seen: a rewrite with other logic")
        .stdout_has("A pair's similarity is the mean of shared/fewer and shared/more");
    let human = &run.stdout;
    // The six copies stand out; the rest of the ten highest are listed as
    // below the cut.
    let table: Vec<&str> = human
        .lines()
        .skip_while(|l| !l.starts_with("similarity"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(table.len(), 10, "{human}");
    let above: Vec<&&str> = table
        .iter()
        .filter(|l| !l.ends_with("(below the cut)"))
        .collect();
    assert_eq!(above.len(), 6, "{human}");
    assert!(
        above
            .iter()
            .all(|l| l.contains("copy-of-") || l.contains("<b>x"))
    );
    assert!(human.contains("code, 6 at or above the cut"), "{human}");
    assert!(human.contains("The cut is the class's own"), "{human}");
    // A threshold of 1 lists the highest all the same, below the cut.
    let run = grader(&args).args(["--threshold", "1"]).run();
    run.code(0)
        .stdout_has("0 at or above the cut 1.00; 10 listed.")
        .stdout_has("The cut is given by --threshold.");
    assert!(
        run.stdout
            .lines()
            .filter(|l| l.ends_with("(below the cut)"))
            .count()
            == 10
    );

    let pages = tmp.path().join("pages");
    grader(&args)
        .args(["--format", "html", "--output", pages.to_str().unwrap()])
        .run()
        .code(0);
    let index = std::fs::read_to_string(pages.join("index.html")).unwrap();
    assert!(index.contains("&lt;b&gt;x\\u{1b}[2J"));
    assert!(!index.contains("<b>x") && !index.contains("<script"));
    assert!(index.contains("Content-Security-Policy"));
    assert_eq!(
        index.matches("href=\"pair-").count(),
        20,
        "two links per pair"
    );
    for n in 1..=10 {
        let page = std::fs::read_to_string(pages.join(format!("pair-{n:04}.html"))).unwrap();
        assert!(!page.contains("<script"));
        assert!(page.contains("class=\"sides\""));
        assert!(
            page.contains("<span class=\"l m0\""),
            "page {n} colours its first match"
        );
    }
    assert!(!pages.join("pair-0011.html").exists());
    // Each student's helpers are in all four part files: the index names
    // each matched definition once, and a page gives it one colour.
    let row = index
        .lines()
        .find(|l| l.contains("<td>copy-of-indices</td>") && l.contains("<td>indices</td>"))
        .expect("the copy of indices is listed");
    let names: Vec<&str> = row
        .split("<code>")
        .skip(1)
        .map(|c| c.split("</code>").next().unwrap())
        .collect();
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert!(names.len() > 3, "{row}");
    assert_eq!(names.len(), unique.len(), "{row}");
    let rank: usize = row
        .split("href=\"pair-")
        .nth(1)
        .and_then(|r| r.get(..4))
        .and_then(|r| r.parse().ok())
        .unwrap();
    let page = std::fs::read_to_string(pages.join(format!("pair-{rank:04}.html"))).unwrap();
    let legend = page.matches("<tr><td class=\"num m").count();
    assert_eq!(legend, names.len(), "one legend row per definition");
    // The legend's columns are named after the two students, and a place
    // of one line is that line, not a range from it to itself.
    assert!(
        page.contains("<th>copy-of-indices</th>") && page.contains("<th>indices</th>"),
        "{page}"
    );
    let ranges = page.split('–').collect::<Vec<_>>();
    for w in ranges.windows(2) {
        let before: String = w[0]
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect();
        let after: String = w[1].chars().take_while(char::is_ascii_digit).collect();
        let before: String = before.chars().rev().collect();
        assert!(
            before.is_empty() || before != after,
            "a range {before}–{after} in the pair page"
        );
    }
    assert!(
        page.matches("landingRow</code>").count() >= 4,
        "in all four files"
    );

    // --max-pages bounds the index and the pages, and says what is left out.
    let few = tmp.path().join("few");
    grader(&args)
        .args([
            "--format",
            "html",
            "--max-pages",
            "3",
            "--output",
            few.to_str().unwrap(),
        ])
        .run()
        .code(0);
    let index = std::fs::read_to_string(few.join("index.html")).unwrap();
    assert_eq!(index.matches("href=\"pair-").count(), 6);
    assert!(
        index.contains("7 more listed pairs are left out"),
        "{index}"
    );
    assert!(few.join("pair-0003.html").exists() && !few.join("pair-0004.html").exists());
}

#[test]
fn bad_input_exits_2_saying_what_is_wrong() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nope");
    grader(&["similarity", missing.to_str().unwrap()])
        .run()
        .code(2)
        .stderr_is(&format!(
            "error: {}: no such file or folder; give the class folder (one sub-folder per student)\n",
            missing.display()
        ));
    // A relative path names the folder it is taken from, as every command does.
    grader(&["similarity", "no/such/class"])
        .current_dir(tmp.path())
        .run()
        .code(2)
        .stderr_is(&format!(
            "error: no/such/class: no such file or folder (relative to the current folder, {}); \
             give the class folder (one sub-folder per student)\n",
            tmp.path().display()
        ));
    let file = tmp.path().join("file");
    std::fs::write(&file, "").unwrap();
    grader(&["similarity", file.to_str().unwrap()])
        .run()
        .code(2)
        .stderr_has("not a folder");
    let class = tmp.path().join("class");
    std::fs::create_dir(&class).unwrap();
    grader(&["similarity", class.to_str().unwrap()])
        .run()
        .code(2)
        .stderr_has("no sub-folders");
    build_class(&class);
    for bad in ["1.5", "-0.1", "half", "NaN"] {
        let flag = format!("--threshold={bad}");
        grader(&["similarity", class.to_str().unwrap(), &flag])
            .run()
            .code(2)
            .stderr_has("not a similarity; expected a number from 0 to 1");
    }
    grader(&["similarity", class.to_str().unwrap(), "--format", "html"])
        .run()
        .code(2)
        .stderr_has("--output DIR");
    grader(&[
        "similarity",
        class.to_str().unwrap(),
        "--base",
        missing.to_str().unwrap(),
    ])
    .run()
    .code(2)
    .stderr_has("--base");
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    grader(&[
        "similarity",
        class.to_str().unwrap(),
        "--base",
        empty.to_str().unwrap(),
    ])
    .run()
    .code(2)
    .stderr_has("holds no .hs file");
    // An output inside the class would be read as a student next time.
    let inside = class.join("report.json");
    grader(&[
        "similarity",
        class.to_str().unwrap(),
        "--output",
        inside.to_str().unwrap(),
    ])
    .run()
    .code(2)
    .stderr_has("inside the class folder");
    // And finding copies is not a failure.
    grader(&["similarity", class.to_str().unwrap(), "--threshold", "0"])
        .run()
        .code(0);
}

#[test]
fn symlinked_files_and_folders_are_not_read() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    let (name, files) = honest().remove(2);
    write_student(&class, &name, &files);
    // A student whose part files are links to the honest student's, and a
    // student folder that is a link to it.
    let linker = class.join("linker");
    std::fs::create_dir_all(&linker).unwrap();
    for n in 1..=4 {
        std::os::unix::fs::symlink(
            class.join(&name).join(part_name(n)),
            linker.join(part_name(n)),
        )
        .unwrap();
    }
    std::os::unix::fs::symlink(class.join(&name), class.join("linked-folder")).unwrap();
    let run = grader(&["similarity", class.to_str().unwrap(), "--format", "json"]).run();
    run.code(0)
        .stderr_has(
            "warning: linker: csce322assignment03part01.hs is a symbolic link; links are not followed",
        )
        .stderr_has("linked-folder is a symbolic link");
    assert!(scores(&run).is_empty(), "{}", run.describe());
}

#[test]
fn part_selects_one_file() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    let students = honest();
    write_student(&class, "a", &students[1].1);
    // Student b copied a's part 3 only, and wrote the rest as `indices`.
    let mut mixed = students[2].1.clone();
    mixed[2] = students[1].1[2].clone();
    write_student(&class, "b", &mixed);
    let base = template_dir();
    let only = |part: &str| {
        let run = grader(&[
            "similarity",
            class.to_str().unwrap(),
            "--base",
            base.to_str().unwrap(),
            "--format",
            "json",
            "--part",
            part,
        ])
        .run();
        run.code(0);
        score(&scores(&run), "a", "b")
    };
    assert_eq!(only("3"), 1.0);
    assert!(only("manyPlayersManyMoves") < 0.5);
}

/// A class of 8 where 6 hand in one source with small edits (each renames
/// what it defines and pads one part with a dead definition of its own):
/// the copies are most of the pairs, so the class's own cut sits above
/// them. Every copy pair is still listed and flagged, none "below the
/// cut", and the report says the median pair is itself high.
#[test]
fn a_class_that_mostly_copied_is_listed_whole_and_said_so() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    let students = honest();
    let (_, sample) = &students[0];
    write_student(&class, "source", sample);
    for (k, dead) in DEAD.iter().enumerate().take(6).skip(1) {
        let mut names = HashMap::new();
        let mut next = 0;
        let copy: Vec<String> = sample
            .iter()
            .enumerate()
            .map(|(part, text)| {
                let mut text = map_identifiers(text, |w| {
                    if KEPT.contains(&w) {
                        return w.to_owned();
                    }
                    names
                        .entry(w.to_owned())
                        .or_insert_with(|| {
                            next += 1;
                            format!("c{k}n{next}")
                        })
                        .clone()
                });
                if part + 1 == k % 4 + 1 {
                    text.push_str(&format!("\n{dead}\n"));
                }
                text
            })
            .collect();
        write_student(&class, &format!("copy{k}"), &copy);
    }
    write_student(&class, "own-a", &students[1].1);
    write_student(&class, "own-b", &students[3].1);
    let base = template_dir();
    let args = [
        "similarity",
        class.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
        "--no-times",
    ];
    let json = grader(&args).args(["--format", "json"]).run();
    json.code(0);
    let scores = scores(&json);
    let mut copy_scores: Vec<f64> = scores
        .iter()
        .filter(|((a, b), _)| !a.starts_with("own-") && !b.starts_with("own-"))
        .map(|(_, &s)| s)
        .collect();
    copy_scores.sort_by(f64::total_cmp);
    assert_eq!(copy_scores.len(), 15);
    // The copies' edits spread them below the top (else this test shows nothing).
    assert!(copy_scores[0] < 0.99, "{copy_scores:?}");
    let run = grader(&args).run();
    run.code(0);
    let human = &run.stdout;
    let table: Vec<&str> = human
        .lines()
        .skip_while(|l| !l.starts_with("similarity"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    let copy_rows: Vec<&&str> = table.iter().filter(|l| !l.contains("own-")).collect();
    assert_eq!(
        copy_rows.len(),
        15,
        "every pair of the six is listed\n{human}"
    );
    assert!(
        copy_rows.iter().all(|l| !l.contains("(below the cut)")),
        "no copy pair is called below the cut\n{human}"
    );
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let median = value["cut"]["median"].as_f64().unwrap();
    assert!(median > 0.5, "{median}");
    assert!(
        human.contains(&format!(
            "The median pair is {median:.2}: most of the class shares this code"
        )),
        "{human}"
    );
}

/// A copy whose part files are named with capital letters (grading finds
/// them: "part 1 missing (found CSCE322Assignment03Part01.hs)") is compared
/// under those names, not skipped as having no part file.
#[test]
fn part_files_named_in_another_case_are_compared() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    let students = honest();
    let (_, files) = &students[1];
    write_student(&class, "source", files);
    let erin = class.join("erin");
    std::fs::create_dir_all(&erin).unwrap();
    for (n, text) in files.iter().enumerate() {
        let name = format!("CSCE322Assignment03Part{:02}.hs", n + 1);
        std::fs::write(erin.join(name), text).unwrap();
    }
    write_student(&class, "own", &students[3].1);
    let base = template_dir();
    let args = [
        "similarity",
        class.to_str().unwrap(),
        "--base",
        base.to_str().unwrap(),
        "--no-times",
    ];
    let run = grader(&args).args(["--format", "json"]).run();
    run.code(0)
        .stderr_lacks("no part file to compare")
        .stderr_has("warning: erin: part 1's file is named CSCE322Assignment03Part01.hs");
    assert_eq!(
        score(&scores(&run), "erin", "source"),
        1.0,
        "{}",
        run.describe()
    );
    // The human table names the files as they are.
    let run = grader(&args).run();
    run.code(0).stdout_has("Part01 ");
    // And --part compares that part's misnamed file alone.
    let run = grader(&args)
        .args(["--format", "json", "--part", "2"])
        .run();
    run.code(0);
    assert_eq!(
        score(&scores(&run), "erin", "source"),
        1.0,
        "{}",
        run.describe()
    );
}
