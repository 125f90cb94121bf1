//! The class of `tests/similarity/shapes/`: five authors who wrote the
//! same two parts independently in really different styles (list
//! comprehensions, plain recursion, folds, `Data.Map`, point-free), copies
//! of the comprehensions author made by one rewrite each (aliases for
//! library calls; comprehensions to `map`/`filter`/`concatMap`; guards to
//! `if` and `case`; `where` to `let`; helper arguments swapped; `$`, `.`,
//! parentheses and eta-reduction) and by combinations of them, a copy of
//! the recursion author with `if` and `let`, a student who copied part two
//! only and wrote part one, and a tiny honest student. Every copy was
//! written by hand and type-checks with GHC; every copy renames what it
//! defines.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use cnf_grader::model::similarity::Options;
use cnf_grader::similarity::{Selection, compare, read_class};
use cnf_grader::submission::source::ReadLimits;

fn shapes() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/similarity/shapes")
}

const HONEST: [&str; 6] = [
    "comprehensions",
    "recursion",
    "folds",
    "maps",
    "pointfree",
    "tiny",
];

/// Each copy and its source.
const COPIES: [(&str, &str); 10] = [
    ("copy-aliases", "comprehensions"),
    ("copy-maps", "comprehensions"),
    ("copy-if-case", "comprehensions"),
    ("copy-let", "comprehensions"),
    ("copy-swapped", "comprehensions"),
    ("copy-dollar-eta", "comprehensions"),
    ("copy-combined", "comprehensions"),
    ("copy-everything", "comprehensions"),
    ("copy-one-part", "comprehensions"),
    ("copy-of-recursion", "recursion"),
];

/// The class laid out as the grader reads one: a folder per student, the
/// part files named as the course names them.
fn class(root: &Path) {
    for entry in std::fs::read_dir(shapes()).unwrap() {
        let entry = entry.unwrap();
        if !entry.file_type().unwrap().is_dir() {
            continue;
        }
        let student = root.join(entry.file_name());
        std::fs::create_dir_all(&student).unwrap();
        for file in std::fs::read_dir(entry.path()).unwrap() {
            let file = file.unwrap();
            let name = file.file_name().to_string_lossy().into_owned();
            std::fs::copy(
                file.path(),
                student.join(format!("csce322assignment03{name}")),
            )
            .unwrap();
        }
    }
}

/// Every pair's similarity, by names (both orders).
fn all_scores() -> HashMap<(String, String), f64> {
    let tmp = tempfile::tempdir().unwrap();
    class(tmp.path());
    let read = read_class(tmp.path(), &Selection::default(), &ReadLimits::default()).unwrap();
    let n = read.students.len();
    let options = Options {
        closest: n,
        ..Options::default()
    };
    let report = compare(&read.students, &[], &options);
    let mut out = HashMap::new();
    for p in &report.pairs {
        let (a, b) = (&report.students[p.a].name, &report.students[p.b].name);
        out.insert((a.clone(), b.clone()), p.similarity);
        out.insert((b.clone(), a.clone()), p.similarity);
    }
    out
}

fn get(scores: &HashMap<(String, String), f64>, a: &str, b: &str) -> f64 {
    scores
        .get(&(a.to_owned(), b.to_owned()))
        .copied()
        .unwrap_or(0.0)
}

/// How far every copy must be above every honest pair.
const MARGIN: f64 = 0.3;

#[test]
#[allow(clippy::print_stderr)] // reason: the table of scores is the evidence, shown with --nocapture
fn every_rewritten_copy_stands_far_above_every_honest_pair() {
    let scores = all_scores();
    let mut honest_max = (0.0, String::new());
    for (i, a) in HONEST.iter().enumerate() {
        for b in &HONEST[i + 1..] {
            let s = get(&scores, a, b);
            if s > honest_max.0 {
                honest_max = (s, format!("{a} / {b}"));
            }
        }
    }
    eprintln!("highest honest pair {:.2} ({})", honest_max.0, honest_max.1);
    let everyone: Vec<&str> = HONEST
        .iter()
        .copied()
        .chain(COPIES.iter().map(|c| c.0))
        .collect();
    let mut lowest_copy = 1.0_f64;
    for (copy, source) in COPIES {
        let own = get(&scores, copy, source);
        eprintln!("{copy:>18} / {source:<15} {own:.2}");
        lowest_copy = lowest_copy.min(own);
        assert!(
            own >= honest_max.0 + MARGIN,
            "{copy} scores {own:.2} with its source, not {MARGIN} above the honest pair {} at {:.2}",
            honest_max.1,
            honest_max.0
        );
        // Its best match is its source: nobody but another copy of the
        // same source (two copiers may rewrite alike) scores as high.
        for other in everyone.iter().filter(|o| **o != copy && **o != source) {
            let s = get(&scores, copy, other);
            if COPIES.iter().any(|(c, s)| c == other && *s == source) {
                continue;
            }
            assert!(
                s < own,
                "{copy}: {other} scores {s:.2}, its source {own:.2}"
            );
        }
    }
    // The tiny, honest student is below every copy with everyone.
    for other in &everyone {
        let s = get(&scores, "tiny", other);
        assert!(
            s < lowest_copy - MARGIN,
            "tiny / {other} scores {s:.2}, the lowest copy {lowest_copy:.2}"
        );
    }
}

#[test]
fn the_copy_of_one_part_matches_that_part_only() {
    let tmp = tempfile::tempdir().unwrap();
    class(tmp.path());
    let read = read_class(tmp.path(), &Selection::default(), &ReadLimits::default()).unwrap();
    let report = compare(&read.students, &[], &Options::default());
    let index = |name: &str| report.students.iter().position(|s| s.name == name).unwrap();
    let (copy, source) = (index("copy-one-part"), index("comprehensions"));
    let pair = report
        .pairs
        .iter()
        .find(|p| (p.a, p.b) == (copy.min(source), copy.max(source)))
        .expect("the pair is kept");
    let matches = pair.matches.as_ref().expect("its evidence");
    assert!(!matches.is_empty());
    for m in matches {
        let (mine, theirs) = if pair.a == copy {
            (&m.a, &m.b)
        } else {
            (&m.b, &m.a)
        };
        assert_eq!(
            report.students[copy].files[mine.file].name,
            "csce322assignment03part02.hs"
        );
        assert_eq!(
            report.students[source].files[theirs.file].name,
            "csce322assignment03part02.hs"
        );
    }
}

/// The command with no `--threshold`: every copy's pair with its source is
/// listed in the human table, at or above the class's own cut, so no copy
/// is hidden by a fixed threshold the class does not fit.
#[test]
fn every_copy_is_listed_above_the_class_s_own_cut() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("class");
    class(&root);
    let run = test_support::Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .args(["similarity", root.to_str().unwrap(), "--no-times"])
        .run();
    run.code(0).stdout_has("The cut is the class's own");
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("similarity"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    for (copy, source) in COPIES {
        let row = rows
            .iter()
            .find(|r| {
                let names: Vec<&str> = r.split_whitespace().skip(2).take(2).collect();
                names == [copy, source] || names == [source, copy]
            })
            .unwrap_or_else(|| panic!("{copy} / {source} is not listed\n{}", run.stdout));
        assert!(
            !row.ends_with("(below the cut)"),
            "{copy} / {source} is listed below the cut\n{}",
            run.stdout
        );
    }
}
