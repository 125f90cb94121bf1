//! One fixture set, however its paths are typed, is one set of cases with
//! one digest and one split into shards: `fixtures`, `./fixtures`,
//! `fixtures//`, an absolute path, a path through a link, a copy of the
//! tree elsewhere, and the same files named again (a folder and one of its
//! `.cnf` files) all give the cases of the files themselves, once each.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use cnf_grader::grade::discover::fixtures_digest;
use cnf_grader::grade::discover::{Fixture, discover};
use cnf_grader::model::shard::Shard;
use proptest::prelude::*;
use test_support::Cli;

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A tree of fixtures with a sub-folder, a hidden test, a game with no
/// `.cnf` and an unknown function name, made once in `dir/fixtures`, with a
/// byte-identical copy in `dir/elsewhere/copy` and a link `dir/link` to it.
fn make_tree(dir: &Path) {
    let sample = manifest().join("tests/submissions/fixtures");
    let place = |root: &Path| {
        for (sub, prefix) in [("", ""), ("sub", "four-"), ("hidden", "test03")] {
            let to = root.join(sub);
            fs::create_dir_all(&to).unwrap();
            for e in fs::read_dir(&sample).unwrap().flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with(prefix) {
                    fs::copy(e.path(), to.join(&name)).unwrap();
                }
            }
        }
        fs::write(root.join("sub/orphan.onePlayerOneMove.solution"), "x").unwrap();
        fs::write(root.join("sub/test03.bogus.solution"), "y").unwrap();
    };
    place(&dir.join("fixtures"));
    place(&dir.join("elsewhere/copy"));
    std::os::unix::fs::symlink(dir.join("fixtures"), dir.join("link")).unwrap();
}

/// What must not depend on the spelling: each fixture's name and its
/// cases' functions (in order), whether it is hidden, the digest, and the
/// names in each shard of 2, 3 and 5.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    cases: Vec<(PathBuf, bool, Vec<String>)>,
    digest: String,
    shards: Vec<BTreeSet<PathBuf>>,
}

fn seen(fixtures: &[Fixture]) -> Seen {
    let mut shards = Vec::new();
    for count in [2, 3, 5] {
        for index in 1..=count {
            let shard = Shard { index, count };
            shards.push(
                fixtures
                    .iter()
                    .filter(|f| shard.contains(&f.name.to_string_lossy()))
                    .map(|f| f.name.clone())
                    .collect(),
            );
        }
    }
    Seen {
        cases: fixtures
            .iter()
            .map(|f| {
                let functions = f
                    .cases
                    .iter()
                    .map(|c| {
                        c.solution
                            .file_name()
                            .unwrap()
                            .to_string_lossy()
                            .into_owned()
                    })
                    .collect();
                (f.name.clone(), f.hidden, functions)
            })
            .collect(),
        digest: fixtures_digest(fixtures),
        shards,
    }
}

/// `to` as a path relative to the test's working folder (the crate's).
fn relative(to: &Path) -> PathBuf {
    let here = std::env::current_dir().unwrap();
    let ups = here.components().count() - 1;
    let mut path = PathBuf::new();
    for _ in 0..ups {
        path.push("..");
    }
    path.join(to.strip_prefix("/").unwrap())
}

/// The ways of typing the folder `root` (absolute), one per index.
fn spellings(root: &Path, link: &Path) -> Vec<String> {
    let abs = root.display().to_string();
    let rel = relative(root).display().to_string();
    vec![
        abs.clone(),
        format!("{abs}/"),
        format!("{abs}//"),
        format!("{abs}/."),
        abs.replace('/', "//"),
        format!("{abs}/../{}", root.file_name().unwrap().to_string_lossy()),
        rel.clone(),
        format!("./{rel}"),
        format!("{rel}//"),
        link.display().to_string(),
    ]
}

static TREE: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();

fn tree() -> &'static Path {
    TREE.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        make_tree(tmp.path());
        tmp
    })
    .path()
}

fn baseline() -> Seen {
    seen(&discover(&[tree().join("fixtures")]).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The folder typed any way, alone or with some of its own files named
    /// again (in any spelling and order), gives the same cases, digest and
    /// shards as the folder itself; so does the copy elsewhere.
    #[test]
    fn any_spelling_of_one_tree_is_the_same_fixture_set(
        spelling in 0usize..10,
        copy in any::<bool>(),
        again in proptest::collection::vec((0usize..10, 0usize..4), 0..4),
        first in any::<bool>(),
    ) {
        let d = tree();
        let root = if copy { d.join("elsewhere/copy") } else { d.join("fixtures") };
        let link = if copy { d.join("elsewhere/copy") } else { d.join("link") };
        let ways = spellings(&root, &link);
        let files = ["test03.cnf", "sub/four-horizontal.cnf", "hidden/test03.manyPlayersOneMove.solution", "sub/four-diagonal-up.cnf"];
        let mut args: Vec<PathBuf> = again
            .iter()
            .map(|&(way, file)| PathBuf::from(format!("{}/{}", ways[way], files[file])))
            .collect();
        let folder = PathBuf::from(&ways[spelling]);
        if first { args.insert(0, folder) } else { args.push(folder) }
        prop_assert_eq!(seen(&discover(&args).unwrap()), baseline());
    }

    /// One game given as files, however typed and in whatever order (its
    /// `.cnf`, or a `.solution`, or both), is that game's cases once.
    #[test]
    fn any_spelling_of_one_game_is_the_same_fixture_set(
        ways in proptest::collection::vec((0usize..10, any::<bool>()), 1..4),
    ) {
        let d = tree();
        let all = spellings(&d.join("fixtures/sub"), &d.join("link/sub"));
        let args: Vec<PathBuf> = ways
            .iter()
            .map(|&(way, cnf)| {
                let file = if cnf { "four-horizontal.cnf" } else { "four-horizontal.onePlayerOneMove.solution" };
                PathBuf::from(format!("{}/{file}", all[way]))
            })
            .collect();
        let got = seen(&discover(&args).unwrap());
        let cnf_given = ways.iter().any(|&(_, cnf)| cnf);
        let whole = [d.join("fixtures/sub/four-horizontal.cnf")];
        let one = [d.join("fixtures/sub/four-horizontal.onePlayerOneMove.solution")];
        let expected = seen(&discover(if cnf_given { &whole } else { &one }).unwrap());
        prop_assert_eq!(got.cases[0].0.clone(), PathBuf::from("four-horizontal.cnf"));
        prop_assert_eq!(got, expected);
    }
}

#[test]
fn names_are_below_the_fixture_base() {
    let d = tree();
    let names = |args: &[PathBuf]| -> Vec<String> {
        discover(args)
            .unwrap()
            .iter()
            .map(|f| f.name.display().to_string())
            .collect()
    };
    let fixtures = d.join("fixtures");
    let all = names(std::slice::from_ref(&fixtures));
    assert!(all.contains(&"test03.cnf".to_owned()), "{all:?}");
    assert!(all.contains(&"sub/four-horizontal.cnf".to_owned()));
    assert!(all.contains(&"hidden/test03.cnf".to_owned()));
    assert!(all.contains(&"sub/orphan.cnf".to_owned()));
    // Two folders: named below the one that holds both.
    assert_eq!(
        names(&[fixtures.join("sub"), fixtures.join("hidden")])[..2],
        ["hidden/test03.cnf", "sub/four-diagonal-up.cnf"]
    );
    // A file alone: its own name.
    assert_eq!(
        names(&[fixtures.join("sub/four-horizontal.cnf")]),
        ["four-horizontal.cnf"]
    );
}

/// The report shows the first spelling, with repeated `/` dropped.
#[test]
fn reports_show_the_first_spelling() {
    let d = tree();
    let abs = d.join("fixtures").display().to_string();
    let fixtures = discover(&[
        PathBuf::from(format!("{abs}//")),
        PathBuf::from(format!("{abs}/../fixtures/test03.cnf")),
    ])
    .unwrap();
    let test03 = fixtures
        .iter()
        .find(|f| f.name == Path::new("test03.cnf"))
        .unwrap();
    assert_eq!(test03.cnf, Path::new(&abs).join("test03.cnf"));
    assert_eq!(test03.cases.len(), 4);
    let first = discover(&[
        PathBuf::from(format!("{abs}/../fixtures/test03.cnf")),
        PathBuf::from(&abs),
    ])
    .unwrap();
    let test03 = first
        .iter()
        .find(|f| f.name == Path::new("test03.cnf"))
        .unwrap();
    assert_eq!(
        test03.cnf,
        PathBuf::from(format!("{abs}/../fixtures/test03.cnf"))
    );
}

/// `cnf-grader ARGS` run in `dir`.
fn grader(dir: &Path, args: &[&str]) -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .args(args)
        .current_dir(dir)
}

/// `grade` end to end: the five spellings the project's users type, and
/// the folder named with one of its files again, give one digest, one
/// number of cases, and the same shard 1 of 2.
#[test]
fn grade_gives_one_digest_and_one_shard_for_every_spelling() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    make_tree(d);
    let abs = d.join("fixtures").display().to_string();
    let copy = d.join("elsewhere/copy").display().to_string();
    let runs: [&[&str]; 7] = [
        &["fixtures"],
        &["./fixtures"],
        &[&abs],
        &["fixtures//"],
        &[&copy],
        &["fixtures", "./fixtures/sub/four-horizontal.cnf"],
        &["fixtures", "./fixtures"],
    ];
    let mut seen = Vec::new();
    for run in runs {
        let doc = |extra: &[&str]| -> serde_json::Value {
            let mut args = vec!["grade"];
            args.extend(run);
            args.extend(["--format", "json", "--no-times"]);
            args.extend(extra);
            let out = grader(d, &args).label(format!("{run:?}")).run();
            out.code(1);
            serde_json::from_slice(&out.stdout_bytes).unwrap()
        };
        let whole = doc(&[]);
        let shard = doc(&["--shard", "1/2"]);
        // The shard's games, named below the root as given.
        let root = run[0].trim_end_matches('/');
        let games: BTreeSet<String> = shard["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let fixture = c["fixture"].as_str().unwrap();
                fixture
                    .strip_prefix(root)
                    .unwrap_or(fixture)
                    .trim_start_matches('/')
                    .to_owned()
            })
            .collect();
        seen.push((
            whole["provenance"]["fixtures"].as_str().unwrap().to_owned(),
            whole["cases"].as_array().unwrap().len(),
            games,
        ));
    }
    assert!(!seen[0].2.is_empty());
    for (run, s) in runs.iter().zip(&seen) {
        assert_eq!(s, &seen[0], "{run:?}");
    }
}
