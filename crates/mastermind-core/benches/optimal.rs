//! The exact optimal strategy (issue 7): the whole search and tree, from scratch each time.
//!
//! Anchors (spec §7): optimal 4×6 about 0.5 s and 4×7 about 150 s in tuned C. The machine is
//! shared and has 2 cores; the search uses both (rayon).

use criterion::{Criterion, criterion_group, criterion_main};
use mastermind_core::{DecisionTree, Game, Solver, Strategy};

fn optimal_total(game: Game, limit: Option<u32>) -> u64 {
    let mut solver = Solver::new(game, Strategy::Optimal).unwrap();
    if let Some(l) = limit {
        solver = solver.with_max_guesses(l).unwrap();
    }
    DecisionTree::try_build(&solver, None)
        .unwrap()
        .stats(game, Strategy::Optimal)
        .total
}

fn optimal_4x6(c: &mut Criterion) {
    let mut group = c.benchmark_group("optimal");
    group.sample_size(10);
    group.bench_function("4x6", |b| {
        b.iter(|| assert_eq!(optimal_total(Game::default(), None), 5625))
    });
    group.bench_function("4x6 max 5 guesses", |b| {
        b.iter(|| assert_eq!(optimal_total(Game::default(), Some(5)), 5626))
    });
    group.bench_function("4x5", |b| {
        b.iter(|| assert_eq!(optimal_total(Game::new(4, 5).unwrap(), None), 2463))
    });
    group.finish();
}

/// 4×7 takes about a minute per run: only with `MASTERMIND_BENCH_4X7=1`, 10 samples.
fn optimal_4x7(c: &mut Criterion) {
    if std::env::var_os("MASTERMIND_BENCH_4X7").is_none() {
        return;
    }
    let mut group = c.benchmark_group("optimal");
    group.sample_size(10);
    group.bench_function("4x7", |b| {
        b.iter(|| assert_eq!(optimal_total(Game::new(4, 7).unwrap(), None), 11228))
    });
    group.finish();
}

/// 4×8 takes about a minute per run: only with `MASTERMIND_BENCH_4X8=1`, 10 samples each
/// (half an hour or more; for a single figure, time `mastermind stats --strategy optimal
/// --pegs 4 --colors 8` instead). Published: 20471, and 20473 within 6 guesses.
fn optimal_4x8(c: &mut Criterion) {
    if std::env::var_os("MASTERMIND_BENCH_4X8").is_none() {
        return;
    }
    let game = Game::new(4, 8).unwrap();
    let mut group = c.benchmark_group("optimal");
    group.sample_size(10);
    group.bench_function("4x8", |b| {
        b.iter(|| assert_eq!(optimal_total(game, None), 20471))
    });
    group.bench_function("4x8 max 6 guesses", |b| {
        b.iter(|| assert_eq!(optimal_total(game, Some(6)), 20473))
    });
    group.finish();
}

criterion_group!(benches, optimal_4x6, optimal_4x7, optimal_4x8);
criterion_main!(benches);
