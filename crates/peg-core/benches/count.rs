//! Criterion benchmarks: counting winning games on sub-boards small enough to
//! time repeatedly, and the text round trip of the four functions.
//!
//! The full 33-hole board takes seconds per count; it is timed by running
//! `peg count --verbose` (see the crate's report), not here.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use peg_core::{
    CountMethod, Position, Shape, count_orderings, count_orderings_with, create_board, parse_board,
    show_list, show_possible_next_states,
};

/// The `+` of radius 2 (21 cells): the 3x3 centre with an arm of 3x1 on each side.
fn plus21() -> Shape {
    let mut cells = vec![];
    for x in -2..=2i64 {
        for y in -2..=2i64 {
            if x.abs() <= 1 || y.abs() <= 1 {
                cells.push(Position::new(x, y));
            }
        }
    }
    Shape::new(cells).expect("a valid shape")
}

/// A 5x5 square (25 cells).
fn square25() -> Shape {
    let cells = (0..5)
        .flat_map(|x| (0..5).map(move |y| Position::new(x, y)))
        .collect();
    Shape::new(cells).expect("a valid shape")
}

fn bench_count(c: &mut Criterion) {
    let mut g = c.benchmark_group("count");
    g.sample_size(10);
    let plus = plus21();
    g.bench_function("plus21 centre (8 symmetries)", |b| {
        b.iter(|| count_orderings(black_box(&plus), Position::new(0, 0)))
    });
    g.bench_function("plus21 centre, parts without symmetry", |b| {
        b.iter(|| count_orderings_with(black_box(&plus), Position::new(0, 0), CountMethod::Parts))
    });
    g.bench_function("plus21 corner, orbits (no symmetry: one hash map)", |b| {
        b.iter(|| {
            count_orderings_with(black_box(&plus), Position::new(-2, -1), CountMethod::Orbits)
        })
    });
    g.bench_function("plus21 corner, parts (auto)", |b| {
        b.iter(|| count_orderings(black_box(&plus), Position::new(-2, -1)))
    });
    let square = square25();
    g.bench_function("square25 corner (2 symmetries)", |b| {
        b.iter(|| count_orderings(black_box(&square), Position::new(0, 0)))
    });
    g.finish();
}

fn bench_text(c: &mut Criterion) {
    let board = create_board(Position::new(0, 0)).expect("on the board");
    let text = board.to_string();
    c.bench_function("parse_board 33 pegs", |b| {
        b.iter(|| parse_board(black_box(&text)))
    });
    c.bench_function("next states from the centre, shown", |b| {
        b.iter(|| show_list(&show_possible_next_states(black_box(&board)).expect("black pegs")))
    });
}

criterion_group!(benches, bench_count, bench_text);
criterion_main!(benches);
