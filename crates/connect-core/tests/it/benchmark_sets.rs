//! Pascal Pons's six benchmark sets (`tests/data/`, see its README): every
//! published score, checked against the solver.
//!
//! The default run checks a sample of each set (the first lines of the
//! quick sets, a few of the slow ones); `cargo test --release -p
//! connect-core -- --ignored` checks every line of the first five sets and
//! a sample of Begin-Hard. CI leaves out `begin_medium_all` (minutes of
//! CPU) and checks `begin_medium_sample`, every tenth line, instead.

use connect_core::solve::{Position, Size, Solver};

fn lines(name: &str) -> Vec<(String, i32)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| {
            let (moves, score) = l.split_once(' ').expect("MOVES SCORE");
            (moves.to_string(), score.parse().expect("a score"))
        })
        .collect()
}

#[track_caller]
fn check(name: &str, take: usize, step: usize) {
    check_with(name, take, step, Solver::new(Size::STANDARD));
}

#[track_caller]
fn check_with(name: &str, take: usize, step: usize, mut solver: Solver) {
    let size = Size::STANDARD;
    let all = lines(name);
    assert_eq!(all.len(), 1000, "{name} has 1000 lines");
    let mut checked = 0;
    for (i, (moves, expected)) in all.iter().enumerate().step_by(step).take(take) {
        let p = Position::from_moves(size, moves).unwrap();
        assert_eq!(
            solver.solve(&p),
            *expected,
            "{name} line {}: {moves}",
            i + 1
        );
        assert_eq!(
            solver.solve_weak(&p),
            expected.signum(),
            "{name} line {} weak",
            i + 1
        );
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn end_easy_sample() {
    check("Test_L3_R1", 100, 10);
}

#[test]
fn middle_easy_sample() {
    check("Test_L2_R1", 50, 20);
}

#[test]
fn middle_medium_sample() {
    check("Test_L2_R2", 5, 200);
}

#[test]
fn two_and_three_threads_sharing_a_small_table() {
    // Helper threads fill the table and are stopped mid-search: what they
    // leave must never change a score. A small table makes them collide.
    for threads in [2, 3] {
        let mut solver = Solver::with_table_mb(Size::STANDARD, 1);
        solver.set_threads(threads);
        check_with("Test_L2_R2", 5, 170, solver);
    }
}

#[test]
#[ignore = "release: Middle-Medium, every 5th line, with 2 threads"]
fn middle_medium_with_two_threads() {
    let mut solver = Solver::with_table_mb(Size::STANDARD, 16);
    solver.set_threads(2);
    check_with("Test_L2_R2", 200, 5, solver);
}

#[test]
fn begin_easy_sample() {
    check("Test_L1_R1", 10, 100);
}

#[test]
#[ignore = "release: every line of End-Easy"]
fn end_easy_all() {
    check("Test_L3_R1", 1000, 1);
}

#[test]
#[ignore = "release: every line of Middle-Easy"]
fn middle_easy_all() {
    check("Test_L2_R1", 1000, 1);
}

#[test]
#[ignore = "release: every line of Middle-Medium"]
fn middle_medium_all() {
    check("Test_L2_R2", 1000, 1);
}

#[test]
#[ignore = "release: every line of Begin-Easy"]
fn begin_easy_all() {
    check("Test_L1_R1", 1000, 1);
}

#[test]
#[ignore = "release: every line of Begin-Medium"]
fn begin_medium_all() {
    check("Test_L1_R2", 1000, 1);
}

#[test]
#[ignore = "release: a sample of Begin-Medium (every 10th line), what CI checks"]
fn begin_medium_sample() {
    check("Test_L1_R2", 100, 10);
}

#[test]
#[ignore = "release: a sample of Begin-Hard (every 200th line)"]
fn begin_hard_sample() {
    check("Test_L1_R3", 5, 200);
}
