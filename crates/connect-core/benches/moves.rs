//! Per-move cost of `many_players_many_moves` on a small and a large board.
//!
//! The game is `common/sweep.rs`: every move lands, no four forms, and the
//! board fills (about 10^4 moves on 100 × 100, 10^6 on 1000 × 1000).

#[path = "common/sweep.rs"]
mod sweep;

use connect_core::Function;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("many_players_many_moves");
    group.sample_size(10);
    for size in [100, 1000] {
        let (board, moves) = sweep::sweep_game(size);
        let after = Function::ManyPlayersManyMoves
            .apply(&board, &moves, None)
            .unwrap();
        assert!(!after.has_four(), "the sweep must not make a four");
        assert!(
            after.row_strings().all(|r| !r.contains('-')),
            "the sweep must fill the board"
        );
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("board", format!("{size}x{size}")),
            &(board, moves),
            |b, (board, moves)| {
                b.iter(|| {
                    Function::ManyPlayersManyMoves
                        .apply(board, moves, None)
                        .unwrap()
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
