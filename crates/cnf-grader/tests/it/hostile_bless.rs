//! No half-written files: `cnf-grader bless` is killed with SIGKILL at
//! random moments of its writing, until 30 kills have fallen mid-run, on a
//! tree of 100 generated games whose 400 `.solution` files are all out of
//! date. Every `.solution` is then its old or its new content, never
//! truncated or spliced, and nothing is left that `grade` would pick up
//! besides the fixtures.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::thread;
use std::time::{Duration, Instant};

use cnf_grader::grade::discover::discover;
use cnf_grader::write::generate::{GenSpec, generate, write_generated};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use test_support::Cli;

const GAMES: u64 = 100;
/// Kills that must fall in the middle of a run.
const KILLS: usize = 30;

/// Every `.solution` file's new (right) and old (out of date) content.
struct Tree {
    files: BTreeMap<PathBuf, (String, String)>,
}

fn make_tree(dir: &Path) -> Tree {
    let mut files = BTreeMap::new();
    for seed in 0..GAMES {
        let spec = GenSpec {
            rows: 6,
            cols: 7,
            players: 3,
            moves: 20,
            seed,
        };
        let game = generate(&spec).expect("a game");
        write_generated(&dir.join(format!("g{seed:03}")), &game).expect("written");
        for (function, text) in &game.solutions {
            let path = dir.join(format!("g{seed:03}.{}.solution", function.name()));
            // Out of date: the same shape with its first empty cell changed.
            let old = text.replacen('-', "9", 1);
            assert_ne!(&old, text);
            files.insert(path, (text.clone(), old));
        }
    }
    Tree { files }
}

impl Tree {
    fn make_old(&self) {
        for (path, (_, old)) in &self.files {
            fs::write(path, old).expect("reset");
        }
    }

    /// Counts (old, new) files; fails on any other content.
    fn check(&self, round: usize) -> (usize, usize) {
        let (mut old_n, mut new_n) = (0, 0);
        for (path, (new, old)) in &self.files {
            let text = fs::read_to_string(path).expect("every .solution still exists");
            if &text == new {
                new_n += 1;
            } else if &text == old {
                old_n += 1;
            } else {
                panic!(
                    "round {round}: {} is neither old nor new ({} bytes):\n{text}",
                    path.display(),
                    text.len()
                );
            }
        }
        (old_n, new_n)
    }
}

/// Waits until `dir` itself changes (a file is created or renamed in it),
/// and returns when; fails if `child` ends first.
fn wait_for_a_change(dir: &Path, child: &mut Child) -> Instant {
    let mtime = || fs::metadata(dir).and_then(|m| m.modified()).expect("mtime");
    let before = mtime();
    loop {
        if mtime() != before {
            return Instant::now();
        }
        if let Some(status) = child.try_wait().expect("try_wait") {
            panic!("bless ended ({status}) without writing");
        }
        thread::sleep(Duration::from_micros(200));
    }
}

fn bless(dir: &Path) -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .arg("bless")
        .arg(dir)
}

#[test]
fn bless_killed_at_random_moments_leaves_every_file_old_or_new() {
    let tmp = tempfile::tempdir().expect("temporary folder");
    let dir = tmp.path();
    let tree = make_tree(dir);
    tree.make_old();

    // How long the writing part of a whole run takes here: from the first
    // change to the folder (a temporary file appears) to the exit.
    let mut child = bless(dir).spawn_quiet();
    let first = wait_for_a_change(dir, &mut child);
    assert!(child.wait().expect("bless ends").success());
    let writing = first.elapsed();
    assert_eq!(tree.check(0), (0, tree.files.len()));

    // Kill at a random moment of the writing until 30 kills have fallen
    // mid-run (some files new, some old); a kill that found the run
    // finished shortens the window, as the machine's speed varies.
    let mut rng = StdRng::seed_from_u64(8);
    let mut window = writing;
    let (mut mixed, mut attempts) = (0, 0);
    while mixed < KILLS {
        attempts += 1;
        assert!(
            attempts <= 5 * KILLS,
            "only {mixed} of {attempts} kills fell mid-run (the writing took {writing:?})"
        );
        tree.make_old();
        let mut child = bless(dir).spawn_quiet();
        wait_for_a_change(dir, &mut child);
        thread::sleep(window.mul_f64(rng.random_range(0.0..1.0)));
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        match tree.check(attempts) {
            (0, _) => window = window.mul_f64(0.7),
            (_, 0) => {}
            _ => mixed += 1,
        }
    }

    // Left-over temporary files are hidden, so `grade` does not see them:
    // the fixtures found are exactly the games with their four results.
    let fixtures = discover(&[dir.to_path_buf()]).expect("discover");
    assert_eq!(fixtures.len() as u64, GAMES);
    assert!(fixtures.iter().all(|f| f.cnf_exists && f.cases.len() == 4));
    for entry in fs::read_dir(dir).expect("read_dir") {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            name.starts_with('.') || name.ends_with(".cnf") || name.ends_with(".solution"),
            "{name}"
        );
    }

    // A run to the end repairs everything.
    bless(dir).run().code(0);
    assert_eq!(tree.check(KILLS + 1), (0, tree.files.len()));
    bless(dir).arg("--check").run().code(0);
}
