//! Reading a multi-megabyte `.cnf` file, and `part04`'s whole job on it
//! (parse, play, render the `.solution` text).

use cnf_grader::cnf::{parse_cnf, render_cnf};
use cnf_grader::play::play_source;
use connect_core::{Board, Function};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// A 1000 × 1000 board swept row by row by 9 players (no four forms; see
/// connect-core's `moves` bench), about 5 MB of text.
fn big_cnf() -> String {
    let size = 1000;
    let rows: Vec<String> = (0..size)
        .map(|r| {
            let first = char::from(b'1' + (r % 9) as u8);
            std::iter::once(first)
                .chain(std::iter::repeat_n('-', size - 1))
                .collect()
        })
        .collect();
    let board = Board::from_rows(rows).unwrap();
    let mut moves = Vec::new();
    for _ in 0..size {
        moves.extend(2..=size as i64);
        moves.extend([1, 1]);
    }
    render_cnf(&board, &moves)
}

fn bench(c: &mut Criterion) {
    let text = big_cnf();
    let mut group = c.benchmark_group("cnf_5mb");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("parse", |b| b.iter(|| parse_cnf(&text).unwrap()));
    group.bench_function("part04", |b| {
        b.iter(|| play_source(Function::ManyPlayersManyMoves, &text, None).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
