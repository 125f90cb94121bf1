//! `similarity::compare` on generated classes of 250, 500 and 1000
//! students (four part files each), on 1000 students in 22 clusters of
//! copies, and the class read from disk.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

use cnf_grader::model::similarity::Options;
use cnf_grader::similarity::{Selection, compare, read_class};
use cnf_grader::submission::source::ReadLimits;

#[path = "similarity/class.rs"]
mod class;

/// Writes `students` as a class folder under `root`.
fn write_class(root: &std::path::Path, students: &[cnf_grader::similarity::StudentSource]) {
    for student in students {
        let folder = root.join(&student.name);
        std::fs::create_dir_all(&folder).expect("a student folder");
        for file in &student.files {
            std::fs::write(folder.join(&file.name), &file.text).expect("a part file");
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("similarity");
    group.sample_size(10);
    for n in [250, 500, 1000] {
        let students = class::class(n, 7);
        group.bench_with_input(BenchmarkId::new("compare", n), &students, |b, s| {
            b.iter(|| compare(s, &[], &Options::default()));
        });
    }
    // A class in clusters: 1000 students from 22 sources, 22,000 similar
    // pairs (all of them above the cut). The command on it: write it with
    // `cargo run --release --example similarity_class -- DIR 1000 22`.
    let students = class::clustered(1000, 22, 7);
    group.bench_with_input(
        BenchmarkId::new("compare_clustered", 1000),
        &students,
        |b, s| {
            b.iter(|| compare(s, &[], &Options::default()));
        },
    );
    // Reading too, as the command does: 1000 folders of four files.
    let dir = tempfile::tempdir().expect("a temporary folder");
    write_class(dir.path(), &class::class(1000, 7));
    group.bench_function("read_and_compare/1000", |b| {
        b.iter(|| {
            let read = read_class(dir.path(), &Selection::default(), &ReadLimits::default())
                .expect("the class");
            compare(&read.students, &[], &Options::default())
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
