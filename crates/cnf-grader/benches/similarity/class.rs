//! Generated classes for the similarity benchmark: students who write
//! random (but Haskell-shaped) definitions, and a few who copy another
//! student with every name changed and the definitions reordered; or a
//! class in clusters, every student a renamed, reordered copy of one of a
//! few sources with a few definitions of their own.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use cnf_grader::model::similarity::SourceText;
use cnf_grader::similarity::StudentSource;

const FUNCTIONS: [&str; 16] = [
    "map",
    "filter",
    "length",
    "take",
    "drop",
    "reverse",
    "concat",
    "zip",
    "sum",
    "maximum",
    "head",
    "tail",
    "replicate",
    "takeWhile",
    "transpose",
    "elem",
];
const OPERATORS: [&str; 8] = ["+", "-", "*", "++", "==", "/=", "&&", "<="];

/// A random expression over the variables `vars`, at most `depth` deep.
fn expr(rng: &mut ChaCha8Rng, vars: &[String], depth: u32) -> String {
    let pick = |rng: &mut ChaCha8Rng, xs: &[&str]| xs[rng.random_range(0..xs.len())].to_owned();
    if depth == 0 || rng.random_ratio(1, 4) {
        return match rng.random_range(0..4) {
            0 => rng.random_range(0..100).to_string(),
            1 => "'-'".to_owned(),
            _ => vars[rng.random_range(0..vars.len())].clone(),
        };
    }
    match rng.random_range(0..6) {
        0 | 1 => format!("{} ({})", pick(rng, &FUNCTIONS), expr(rng, vars, depth - 1)),
        2 => format!(
            "({} {} {})",
            expr(rng, vars, depth - 1),
            pick(rng, &OPERATORS),
            expr(rng, vars, depth - 1)
        ),
        3 => format!(
            "[ {} | {} <- {} ]",
            expr(rng, vars, depth - 1),
            vars[0],
            expr(rng, vars, depth - 1)
        ),
        4 => format!(
            "if {} then {} else {}",
            expr(rng, vars, depth - 1),
            expr(rng, vars, depth - 1),
            expr(rng, vars, depth - 1)
        ),
        _ => format!(
            "{} {} {}",
            pick(rng, &FUNCTIONS),
            expr(rng, vars, depth - 1),
            expr(rng, vars, depth - 1)
        ),
    }
}

/// One student's helpers: `defs` definitions with names from `tag`.
fn body(rng: &mut ChaCha8Rng, tag: &str, defs: usize) -> Vec<String> {
    (0..defs)
        .map(|d| {
            let vars: Vec<String> = (0..3).map(|v| format!("{tag}v{d}x{v}")).collect();
            let mut text = format!(
                "{tag}f{d} :: [String] -> Int -> [String]\n{tag}f{d} {} =\n  {}",
                vars.join(" "),
                expr(rng, &vars, 4)
            );
            if rng.random_ratio(1, 2) {
                text.push_str(&format!(
                    "\n  where\n    {tag}w{d} = {}",
                    expr(rng, &vars, 3)
                ));
            }
            text
        })
        .collect()
}

/// The part files of one student from their definitions.
fn files(defs: &[String]) -> Vec<SourceText> {
    (1..=4)
        .map(|part| SourceText {
            name: format!("csce322assignment03part{part:02}.hs"),
            text: format!(
                "import Prelude\nimport Data.List\nimport Helpers\n\n{}\n\nmain = do\n  print \"Result\"\n",
                defs.join("\n\n")
            ),
        })
        .collect()
}

/// A class of `n` students; one in twenty copies the student before.
pub(crate) fn class(n: usize, seed: u64) -> Vec<StudentSource> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out: Vec<StudentSource> = Vec::with_capacity(n);
    let mut last: Vec<String> = Vec::new();
    for i in 0..n {
        let tag = format!("s{i}");
        let defs = if i % 20 == 19 && !last.is_empty() {
            let previous = format!("s{}", i - 1);
            let mut copy: Vec<String> = last.iter().map(|d| d.replace(&previous, &tag)).collect();
            copy.reverse();
            copy
        } else {
            body(&mut rng, &tag, 12)
        };
        out.push(StudentSource {
            name: format!("student{i:04}"),
            files: files(&defs),
            notes: Vec::new(),
        });
        last = defs;
    }
    out
}

/// A class of `n` students drawn from `sources` sources: each copies one
/// (every name changed, definitions reordered) and adds two definitions
/// of their own.
pub(crate) fn clustered(n: usize, sources: usize, seed: u64) -> Vec<StudentSource> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let originals: Vec<Vec<String>> = (0..sources)
        .map(|s| body(&mut rng, &format!("src{s}"), 12))
        .collect();
    (0..n)
        .map(|i| {
            let s = i % sources;
            let tag = format!("s{i}");
            let mut defs: Vec<String> = originals[s]
                .iter()
                .map(|d| d.replace(&format!("src{s}"), &tag))
                .collect();
            defs.extend(body(&mut rng, &format!("own{i}"), 2));
            let turn = rng.random_range(0..defs.len());
            defs.rotate_left(turn);
            StudentSource {
                name: format!("student{i:04}"),
                files: files(&defs),
                notes: Vec::new(),
            }
        })
        .collect()
}
