//! The solver on a sample of each of Pascal Pons's six benchmark sets
//! (`tests/data/`): the time to solve the sample's positions one after the
//! other from an empty table (64 MiB, no book), the table kept between
//! positions as `connect solve` keeps it along a file; with one thread and
//! with two sharing the table.

use std::time::{Duration, Instant};

use connect_core::solve::{Position, Size, Solver};
use criterion::{Criterion, criterion_group, criterion_main};

/// Every `1000 / take`-th position of a set, `take` of them.
fn sample(name: &str, take: usize) -> Vec<Position> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let step = 1000 / take;
    text.lines()
        .step_by(step)
        .take(take)
        .map(|l| {
            let moves = l.split(' ').next().unwrap_or("");
            Position::from_moves(Size::STANDARD, moves).expect("a valid line")
        })
        .collect()
}

fn sets(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (name, label, take) in [
        ("Test_L3_R1", "end-easy", 100),
        ("Test_L2_R1", "middle-easy", 100),
        ("Test_L2_R2", "middle-medium", 20),
        ("Test_L1_R1", "begin-easy", 50),
        ("Test_L1_R2", "begin-medium", 5),
        ("Test_L1_R3", "begin-hard", 1),
    ] {
        let positions = sample(name, take);
        for threads in [1, 2] {
            let mut solver = Solver::with_table_mb(Size::STANDARD, Solver::DEFAULT_TABLE_MB);
            solver.set_threads(threads);
            let plural = if threads == 1 { "" } else { "s" };
            let id = format!("{label} x{take}, {threads} thread{plural}");
            group.bench_function(id, |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        // Each run starts cold, as a new `connect solve` does.
                        solver.clear();
                        let start = Instant::now();
                        for p in &positions {
                            std::hint::black_box(solver.solve(p));
                        }
                        total += start.elapsed();
                    }
                    total
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, sets);
criterion_main!(benches);
