//! The solver on a sample of each of Pascal Pons's six benchmark sets
//! (`tests/data/`): the time to solve one position, table kept warm
//! between positions as `connect solve` keeps it.

use connect_core::solve::{Position, Size, Solver};
use criterion::{Criterion, criterion_group, criterion_main};

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
        let mut solver = Solver::new(Size::STANDARD);
        group.bench_function(format!("{label} ({take} positions)"), |b| {
            b.iter(|| {
                for p in &positions {
                    std::hint::black_box(solver.solve(p));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, sets);
criterion_main!(benches);
