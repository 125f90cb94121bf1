//! Statistics over every secret: the decision-tree build is the whole cost.

use criterion::{Criterion, criterion_group, criterion_main};
use mastermind_core::{DecisionTree, Game, Solver, Strategy};

fn knuth_4x6(c: &mut Criterion) {
    let game = Game::default();
    c.bench_function("knuth 4x6 stats", |b| {
        b.iter(|| {
            let solver = Solver::new(game, Strategy::Knuth).unwrap();
            let s = DecisionTree::build(&solver, None).stats(game, Strategy::Knuth);
            assert_eq!(s.total, 5801);
        })
    });
}

fn big_5x8(c: &mut Criterion) {
    let game = Game::new(5, 8).unwrap();
    let first = game.parse_code("aabbc").unwrap();
    let mut group = c.benchmark_group("5x8 aabbc");
    group.sample_size(10);
    for (strategy, total) in [(Strategy::Knuth, 183_775), (Strategy::MostParts, 181_834)] {
        group.bench_function(strategy.name(), |b| {
            b.iter(|| {
                let solver = Solver::new(game, strategy).unwrap();
                let s = DecisionTree::build(&solver, Some(first)).stats(game, strategy);
                assert_eq!(s.total, total);
            })
        });
    }
    group.finish();
}

/// Knuth on 6×8 (262,144 codes, about 12 s per run on two cores) and 7×7 (823,543,
/// about 4 min): only with `MASTERMIND_BENCH_BIG=1`, 10 samples each.
fn knuth_big(c: &mut Criterion) {
    if std::env::var_os("MASTERMIND_BENCH_BIG").is_none() {
        return;
    }
    let mut group = c.benchmark_group("knuth big");
    group.sample_size(10);
    for (pegs, colors) in [(6, 8), (7, 7)] {
        let game = Game::new(pegs, colors).unwrap();
        group.bench_function(format!("{pegs}x{colors}"), |b| {
            b.iter(|| {
                let solver = Solver::new(game, Strategy::Knuth).unwrap();
                let s = DecisionTree::build(&solver, None).stats(game, Strategy::Knuth);
                assert_eq!(s.codes, game.num_codes());
            })
        });
    }
    group.finish();
}

criterion_group!(benches, knuth_4x6, big_5x8, knuth_big);
criterion_main!(benches);
