//! Per-move cost of `many_players_many_moves` on a small and a large board.
//!
//! Each game sweeps the board row by row with 9 players, so every move lands
//! and no four ever forms: the whole board fills (about 10^4 moves on
//! 100 × 100, about 10^6 on 1000 × 1000). Column 1 starts full with players
//! 1–9 cycling down it; the two moves per row into it pass the turn, which
//! shifts each row's players by 2 so no line of four can form.

use connect_core::{Board, Function};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn game(size: usize) -> (Board, Vec<i64>) {
    let rows: Vec<String> = (0..size)
        .map(|r| {
            let first = char::from(b'1' + (r % 9) as u8);
            std::iter::once(first)
                .chain(std::iter::repeat_n('-', size - 1))
                .collect()
        })
        .collect();
    let board = Board::from_rows(rows).expect("valid board");
    let mut moves = Vec::with_capacity(size * (size + 1));
    for _ in 0..size {
        moves.extend(2..=size as i64);
        moves.extend([1, 1]);
    }
    (board, moves)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("many_players_many_moves");
    group.sample_size(10);
    for size in [100, 1000] {
        let (board, moves) = game(size);
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
