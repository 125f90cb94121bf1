//! Reading a multi-megabyte `.cnf` file, and `part04`'s whole job on it
//! (parse, play, render the `.solution` text), on the sweep game of
//! connect-core's benches.

#[path = "../../connect-core/benches/common/sweep.rs"]
mod sweep;

use cnf_grader::format::cnf::{parse_cnf, render_cnf};
use cnf_grader::format::play::play_source;
use connect_core::Function;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The 1000 × 1000 sweep game as `.cnf` text, about 5 MB.
fn big_cnf() -> String {
    let (board, moves) = sweep::sweep_game(1000);
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
