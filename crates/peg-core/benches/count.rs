//! Criterion benchmarks: counting winning games on sub-boards small enough to
//! time repeatedly, and the text round trip of the four functions.
//!
//! The full 33-hole board takes 1-2 s per count; `PEG_BENCH_FULL=1` adds it
//! (the grouped count from each of the 7 classes of start holes). Wall time,
//! CPU time and peak memory of whole runs come from
//! `/usr/bin/time -v peg count --start X,Y` (see the README).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use peg_core::{
    Board, Color, CountMethod, Peg, Position, Shape, count_board, count_orderings,
    count_orderings_with, create_board, parse_board, show_list, show_possible_next_states,
    start_classes,
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
    g.bench_function("plus21 centre, grouped (auto)", |b| {
        b.iter(|| count_orderings(black_box(&plus), Position::new(0, 0)))
    });
    g.bench_function("plus21 corner, grouped (all 8 symmetries)", |b| {
        b.iter(|| {
            count_orderings_with(
                black_box(&plus),
                Position::new(-2, -1),
                CountMethod::Grouped,
            )
        })
    });
    g.bench_function("plus21 centre, orbits (one hash map per layer)", |b| {
        b.iter(|| count_orderings_with(black_box(&plus), Position::new(0, 0), CountMethod::Orbits))
    });
    g.bench_function("plus21 centre, parts without symmetry", |b| {
        b.iter(|| count_orderings_with(black_box(&plus), Position::new(0, 0), CountMethod::Parts))
    });
    g.bench_function("plus21 corner, orbits (no symmetry: one hash map)", |b| {
        b.iter(|| {
            count_orderings_with(black_box(&plus), Position::new(-2, -1), CountMethod::Orbits)
        })
    });
    g.bench_function("plus21 corner, parts", |b| {
        b.iter(|| count_orderings_with(black_box(&plus), Position::new(-2, -1), CountMethod::Parts))
    });
    // A board with white pegs at the four arm tips, apart.
    let tips = Board::new(
        plus.cells()
            .iter()
            .map(|&p| {
                let tip = p.x.abs() + p.y.abs() == 2 && (p.x == 0 || p.y == 0);
                Peg::new(p, if tip { Color::W } else { Color::B })
            })
            .collect(),
    )
    .expect("a valid board");
    g.bench_function("plus21 board, white at the 4 tips", |b| {
        b.iter(|| count_board(black_box(&tips)))
    });
    let square = square25();
    g.bench_function("square25 corner (2 symmetries)", |b| {
        b.iter(|| count_orderings(black_box(&square), Position::new(0, 0)))
    });
    g.finish();
    if std::env::var_os("PEG_BENCH_FULL").is_some_and(|v| !v.is_empty()) {
        let mut g = c.benchmark_group("count 33-hole board");
        g.sample_size(10);
        let full = Shape::plus();
        for (rep, _) in start_classes() {
            g.bench_function(format!("grouped from {rep}"), |b| {
                b.iter(|| count_orderings(black_box(&full), rep))
            });
        }
        g.finish();
    }
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
