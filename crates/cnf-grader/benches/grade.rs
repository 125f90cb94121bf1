//! Benchmarks of the grader (filled in below).
fn main() {}
