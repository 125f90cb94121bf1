//! Criterion benchmarks placeholder (filled below).
fn main() {}
