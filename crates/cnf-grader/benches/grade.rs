//! Grading speed: 10,000 generated fixtures x 4 functions in-process (the
//! whole `grade` pipeline minus printing: discovery, reading, playing,
//! comparing, the human report), and a smaller tree graded with `--exec`
//! through our own `part0N` binaries, where process start-up dominates.
#![allow(missing_docs)] // reason: criterion's macros generate undocumented public functions
#![allow(clippy::print_stderr)] // reason: a benchmark says which groups it skipped

use std::fs;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use cnf_grader::grade::discover::discover;
use cnf_grader::grade::exec::{ExecConfig, ExecSandbox};
use cnf_grader::grade::run::{GradeOptions, Runner, case_count, grade, select};
use cnf_grader::model::case::Totals;
use cnf_grader::report::ReportOptions;
use cnf_grader::report::Style;
use cnf_grader::report::human::human;
use cnf_grader::sandbox::{Config, DEFAULT_UID, Limits, Sandbox};
use cnf_grader::write::bless::solution_path;
use cnf_grader::write::generate::{GenSpec, generate};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Writes `count` generated fixtures (boards 6x7 to 12x15, 2-5 players,
/// 10-60 moves) into `dir`, 100 per sub-folder.
fn make_tree(dir: &Path, count: u64) {
    for seed in 0..count {
        let spec = GenSpec {
            rows: 6 + (seed % 7) as usize,
            cols: 7 + (seed % 9) as usize,
            players: 2 + (seed % 4) as u8,
            moves: 10 + (seed % 51) as usize,
            seed,
        };
        let game = generate(&spec).expect("valid spec");
        let sub = dir.join(format!("d{:03}", seed / 100));
        fs::create_dir_all(&sub).unwrap();
        let cnf = sub.join(format!("g{seed:05}.cnf"));
        fs::write(&cnf, &game.cnf).unwrap();
        for (function, text) in &game.solutions {
            fs::write(solution_path(&cnf, *function), text).unwrap();
        }
    }
}

fn grade_tree(dir: &Path, options: &GradeOptions) -> usize {
    let fixtures = select(discover(&[dir.to_path_buf()]).unwrap(), options);
    let cases = grade(&fixtures, options, &|_| {}).unwrap();
    let text = human(
        &cases,
        ReportOptions {
            times: true,
            points: None,
            warning: None,
            extra: &[],
            ..Default::default()
        },
        Style::Plain,
    );
    assert!(Totals::of(&cases).all_passed(), "{text}");
    black_box(text.len());
    cases.len()
}

fn in_process(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    make_tree(tmp.path(), 10_000);
    let options = GradeOptions::default();
    let cases = case_count(&select(
        discover(&[tmp.path().to_path_buf()]).unwrap(),
        &options,
    ));
    assert_eq!(cases, 40_000);
    let mut group = c.benchmark_group("grade");
    group.sample_size(10);
    group.throughput(Throughput::Elements(cases as u64));
    group.bench_function("in_process_10000_fixtures_x4", |b| {
        b.iter(|| grade_tree(tmp.path(), &options));
    });
    group.finish();
}

fn exec(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    make_tree(tmp.path(), 250);
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_part01")).parent().unwrap();
    let config = ExecConfig {
        command: format!("{}/part{{part}} {{input}}", bin_dir.display()),
        timeout: Duration::from_secs(10),
        max_output: 1 << 20,
        working_dir: None,
        sandbox: None,
    };
    let options = GradeOptions {
        runner: Runner::Exec(config.clone()),
        ..GradeOptions::default()
    };
    let mut group = c.benchmark_group("grade");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1000));
    group.bench_function("exec_part_binaries_250_fixtures_x4", |b| {
        b.iter(|| grade_tree(tmp.path(), &options));
    });
    // The same in the sandbox (where bubblewrap works): what it costs per run.
    match Sandbox::new(Config {
        limits: Limits::default(),
        read_only: vec![bin_dir.to_owned()],
        protected: vec![tmp.path().to_owned()],
        uid: DEFAULT_UID,
        ..Config::default()
    }) {
        Ok(sandbox) => {
            let options = GradeOptions {
                runner: Runner::Exec(ExecConfig {
                    sandbox: Some(ExecSandbox {
                        sandbox: Arc::new(sandbox),
                        binds: Vec::new(),
                        part_binds: Vec::new(),
                        chdir: "/".into(),
                    }),
                    ..config
                }),
                ..GradeOptions::default()
            };
            group.bench_function("exec_sandboxed_250_fixtures_x4", |b| {
                b.iter(|| grade_tree(tmp.path(), &options));
            });
        }
        Err(e) => eprintln!("skipped exec_sandboxed: {e}"),
    }
    group.finish();
}

criterion_group!(benches, in_process, exec);
criterion_main!(benches);
