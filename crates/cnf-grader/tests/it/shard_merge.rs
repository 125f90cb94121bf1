//! `--shard K/N` and `merge`: the shards of a run are disjoint, together
//! they hold every case (or student), and merging their JSON reports gives
//! the unsharded run's report in every format, apart from times.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use test_support::{Cli, Tool, require};

/// The trees graded: the project's fixtures (all pass), a failure with a
/// diff and a missing game, and broken fixtures.
const TREES: [&str; 3] = ["../../fixtures", "tests/data/tree", "tests/data/errors"];

/// `cnf-grader ARGS` in the crate's folder, dated by the clock unless the
/// test sets `SOURCE_DATE_EPOCH`.
fn grader(args: &[&str]) -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .expect_text()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("SOURCE_DATE_EPOCH")
}

/// Grades shard K of N as JSON into `dir`; the file's path.
fn shard(dir: &Path, k: u32, n: u32, extra: &[&str], env: &[(&str, &str)]) -> PathBuf {
    let file = dir.join(format!("shard-{k}-of-{n}.json"));
    let shard = format!("{k}/{n}");
    let mut args = vec!["grade"];
    args.extend(TREES);
    args.extend(["--shard", &shard, "--format", "json", "--output"]);
    let path = file.to_str().unwrap().to_owned();
    args.push(&path);
    args.extend(extra);
    let out = env
        .iter()
        .fold(grader(&args), |cli, (k, v)| cli.env(k, v))
        .run();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        out.describe()
    );
    file
}

fn cases_of(file: &Path) -> Vec<(String, String)> {
    let doc: serde_json::Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["fixture"].as_str().unwrap().to_owned(),
                c["function"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn shards_are_disjoint_and_cover_every_case() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole.json");
    let mut args = vec!["grade"];
    args.extend(TREES);
    args.extend(["--format", "json", "--output", whole.to_str().unwrap()]);
    grader(&args).run();
    let all: Vec<(String, String)> = cases_of(&whole);
    assert!(all.len() > 100, "{}", all.len());
    for n in [1, 2, 3, 5] {
        let mut seen = BTreeSet::new();
        let mut count = 0;
        for k in 1..=n {
            let cases = cases_of(&shard(tmp.path(), k, n, &[], &[]));
            // A game's cases stay in one shard.
            for (fixture, _) in &cases {
                assert!(
                    cases.iter().filter(|c| &c.0 == fixture).count()
                        == all.iter().filter(|c| &c.0 == fixture).count(),
                    "{fixture} split"
                );
            }
            count += cases.len();
            seen.extend(cases);
        }
        assert_eq!(count, all.len(), "{n} shards: a case twice");
        // A shard's human report says which shard it is.
        let mut args = vec!["grade"];
        args.extend(TREES);
        let which = format!("1/{n}");
        args.extend(["--shard", &which]);
        grader(&args)
            .run()
            .stdout_has(&format!("\nshard 1/{n}: "))
            .stdout_has(&format!(" of the run's {} entries", all.len()));
        assert_eq!(seen, all.iter().cloned().collect(), "{n} shards");
    }
}

#[test]
fn merge_gives_the_unsharded_report_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    for n in [2, 3] {
        let files: Vec<PathBuf> = (1..=n)
            .map(|k| shard(tmp.path(), k, n, &["--points"], &[]))
            .collect();
        for format in ["human", "json", "junit", "gradescope", "html"] {
            let mut args = vec!["grade"];
            args.extend(TREES);
            args.extend(["--points", "--no-times", "--format", format]);
            let whole = grader(&args).run();
            let mut args = vec!["merge", "--no-times", "--format", format];
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            // Any order of the shard files.
            args.extend(names.iter().rev().map(String::as_str));
            let merged = grader(&args).label(format!("{n} shards, {format}")).run();
            // A case fails.
            merged.stdout_is(&whole.stdout).code(1);
            whole.code(1);
        }
    }
}

/// With times, only the durations and the date differ; the merged date is
/// the earliest shard's.
#[test]
fn with_times_only_durations_and_the_date_differ() {
    let tmp = tempfile::tempdir().unwrap();
    let files: Vec<String> = [("1", "1796000300"), ("2", "1796000000")]
        .iter()
        .map(|(k, epoch)| {
            shard(
                tmp.path(),
                k.parse().unwrap(),
                2,
                &[],
                &[("SOURCE_DATE_EPOCH", epoch)],
            )
            .display()
            .to_string()
        })
        .collect();
    let mut args = vec!["merge", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let mut merged: serde_json::Value =
        serde_json::from_slice(&grader(&args).run().stdout_bytes).unwrap();
    let mut args = vec!["grade"];
    args.extend(TREES);
    args.extend(["--format", "json"]);
    let mut whole: serde_json::Value = serde_json::from_slice(
        &grader(&args)
            .env("SOURCE_DATE_EPOCH", "1796000000")
            .run()
            .stdout_bytes,
    )
    .unwrap();
    assert_eq!(merged["provenance"]["date"], "2026-11-30T00:53:20Z");
    for doc in [&mut merged, &mut whole] {
        for case in doc["cases"].as_array_mut().unwrap() {
            assert!(case["duration_ms"].is_number(), "{case}");
            case.as_object_mut().unwrap().remove("duration_ms");
        }
    }
    assert_eq!(merged, whole);
}

#[test]
fn merge_refuses_what_is_not_one_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let s1 = shard(dir, 1, 3, &[], &[]).display().to_string();
    let s2 = shard(dir, 2, 3, &[], &[]).display().to_string();
    let s3 = shard(dir, 3, 3, &[], &[]).display().to_string();
    let other = dir.join("other");
    fs::create_dir(&other).unwrap();
    let exact3 = shard(&other, 3, 3, &["--compare", "whitespace"], &[])
        .display()
        .to_string();
    let of_two = shard(&other, 2, 2, &[], &[]).display().to_string();
    let whole = dir.join("whole.json");
    let mut args = vec!["grade"];
    args.extend(TREES);
    args.extend(["--format", "json", "--output", whole.to_str().unwrap()]);
    grader(&args).run();
    let broken = dir.join("broken.json");
    fs::write(&broken, "{\n  \"cases\": [\n    oops\n").unwrap();
    let broken = broken.display().to_string();
    let whole = whole.display().to_string();
    let refused = |args: &[&str], says: &str| {
        let mut all = vec!["merge"];
        all.extend(args);
        grader(&all)
            .run()
            .code(2)
            .stderr_starts("error: ")
            .stderr_has(says)
            .stdout_is("");
    };
    refused(&[&s1, &s2], "shard 3/3 missing");
    refused(&[&s1, &s2, &s3, &s1], "shard 1/3 is given twice");
    refused(
        &[&s1, &s2, &exact3],
        &format!(
            "come from different runs: their provenance's compare differs ({s1}: exact; \
             {exact3}: whitespace)"
        ),
    );
    refused(&[&s1, &s2, &of_two], "is shard 2/2 but");
    refused(
        &[&whole],
        "not a shard report (it has no \"shard\" field); write each shard with --shard K/N --format json",
    );
    refused(&[&s1, &broken], &format!("{broken}:3:5: not JSON"));
    refused(
        &[&s1, &s2, &s3, "--csv", "x.csv"],
        "are for a class's gradebook",
    );
    refused(
        &["/nonexistent/shard.json"],
        "/nonexistent/shard.json: no such file or folder; give a shard's --format json report",
    );
    // Edited shard reports: a split that is not K/N, a run of absurd size.
    let edit = |from: &str, to: &Path, what: &str, with: &str| {
        let text = fs::read_to_string(from).unwrap();
        assert!(text.contains(what), "{what}");
        fs::write(to, text.replace(what, with)).unwrap();
    };
    let zero = dir.join("zero.json");
    edit(&s1, &zero, "\"count\": 3", "\"count\": 0");
    refused(&[zero.to_str().unwrap()], "is not a valid K/N");
    let doc: serde_json::Value = serde_json::from_str(&fs::read_to_string(&s1).unwrap()).unwrap();
    let entries = doc["shard"]["entries"].as_u64().unwrap();
    let huge: Vec<String> = [&s1, &s2, &s3]
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let to = dir.join(format!("huge{i}.json"));
            edit(
                s,
                &to,
                &format!("\"entries\": {entries}"),
                "\"entries\": 1000000000000000",
            );
            to.display().to_string()
        })
        .collect();
    refused(&as_str(&huge), "but the run has 1000000000000000");
    // --fail-fast would make each shard stop on its own.
    let mut args = vec!["grade"];
    args.extend(TREES);
    args.extend(["--shard", "1/2", "--fail-fast"]);
    grader(&args)
        .run()
        .code(2)
        .stderr_has("--fail-fast cannot be used with --shard");
    // Shards graded with --no-times have no durations to invent.
    let quiet: Vec<String> = (1..=2)
        .map(|k| {
            shard(&other, k, 2, &["--no-times"], &[])
                .display()
                .to_string()
        })
        .collect();
    let mut args = vec!["merge"];
    args.extend(as_str(&quiet));
    grader(&args).run().stdout_lacks("µs").stdout_lacks(" 0ms");
}

fn as_str(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

const CLASS: &str = "tests/submissions/class";
const FIXTURES: &str = "tests/submissions/fixtures";

/// Every file of a folder, by name, with Gradescope's `execution_time` (the
/// only time in a student's files) left out.
fn files(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read_to_string(e.path())
                    .unwrap()
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("\"execution_time\": "))
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_class_in_three_shards_merges_to_the_unsharded_gradebook() {
    if !require(
        "a_class_in_three_shards_merges_to_the_unsharded_gradebook",
        &[Tool::Ghc, Tool::Bwrap],
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let cache = test_support::grader_cache();
    let cache = cache.to_str().unwrap();
    let outputs = |name: &str| {
        let dir = tmp.path().join(name);
        fs::create_dir_all(dir.join("html")).unwrap();
        fs::create_dir_all(dir.join("reports")).unwrap();
        dir
    };
    let class_args = |dir: &Path| -> Vec<String> {
        [
            "--csv",
            dir.join("grades.csv").to_str().unwrap(),
            "--html",
            dir.join("html").to_str().unwrap(),
            "--reports",
            dir.join("reports").to_str().unwrap(),
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let whole_dir = outputs("whole");
    let mut args: Vec<String> = [
        "submissions",
        CLASS,
        FIXTURES,
        "--timeout",
        "2s",
        "--no-times",
    ]
    .map(str::to_owned)
    .to_vec();
    args.extend(["--cache".to_owned(), cache.to_owned()]);
    args.extend(class_args(&whole_dir));
    let whole = grader(&as_str(&args)).run();
    whole.code(0);
    let mut shards = Vec::new();
    let mut students = 0;
    for k in 1..=3 {
        let file = tmp.path().join(format!("class-{k}.json"));
        let shard = format!("{k}/3");
        let out = grader(&[
            "submissions",
            CLASS,
            FIXTURES,
            "--timeout",
            "2s",
            "--no-times",
            "--cache",
            cache,
            "--shard",
            &shard,
            "--format",
            "json",
        ])
        .run();
        out.code(0);
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout_bytes).unwrap();
        students += doc["students"].as_array().unwrap().len();
        fs::write(&file, &out.stdout_bytes).unwrap();
        shards.push(file.display().to_string());
    }
    assert_eq!(students, 6, "every student in exactly one shard");
    let merged_dir = outputs("merged");
    let mut args: Vec<String> = vec!["merge".to_owned()];
    args.extend(shards.iter().cloned());
    args.extend(class_args(&merged_dir));
    grader(&as_str(&args))
        .run()
        .code(0)
        .stdout_is(&whole.stdout)
        .stdout_has("no-compile     20.00   20.00    0.00   30.00   70.00");
    // These shards were graded without a roster: no ids for Canvas.
    let mut args: Vec<String> = vec!["merge".to_owned()];
    args.extend(shards.iter().cloned());
    let canvas = tmp.path().join("canvas.csv").display().to_string();
    args.extend([
        "--csv".to_owned(),
        canvas.clone(),
        "--csv-layout".to_owned(),
        "canvas".to_owned(),
    ]);
    grader(&as_str(&args))
        .run()
        .code(2)
        .stderr_has("graded without --roster");
    assert!(!Path::new(&canvas).exists());
    assert_eq!(
        fs::read_to_string(merged_dir.join("grades.csv")).unwrap(),
        fs::read_to_string(whole_dir.join("grades.csv")).unwrap()
    );
    for folder in ["html", "reports"] {
        let (merged, whole) = (
            files(&merged_dir.join(folder)),
            files(&whole_dir.join(folder)),
        );
        assert_eq!(merged.len(), whole.len(), "{folder}");
        for ((name, a), (other, b)) in merged.iter().zip(&whole) {
            assert!(name == other && a == b, "{folder}/{name} differs");
        }
    }
    let mut args = vec!["merge", "--format", "json"];
    args.extend(shards.iter().map(String::as_str));
    let mut json = vec![
        "submissions",
        CLASS,
        FIXTURES,
        "--timeout",
        "2s",
        "--no-times",
    ];
    json.extend(["--cache", cache, "--format", "json"]);
    grader(&args).run().stdout_is(&grader(&json).run().stdout);
}

/// The example GitHub Actions workflow: its matrix is shards 1..SHARDS, and
/// its grading and merging commands, run here as its jobs would run them
/// (the artifacts copied by hand), give the unsharded run's gradebook.
#[test]
#[ignore = "slow: grades the sample class in the workflow's shards and again whole; CI's slow pass runs it"]
fn the_example_workflow_grades_the_sample_class() {
    if !require(
        "the_example_workflow_grades_the_sample_class",
        &[Tool::Ghc, Tool::Bwrap],
    ) {
        return;
    }
    let workflow = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/github-actions/grade-class.yml"),
    )
    .unwrap();
    let value = |key: &str| -> String {
        workflow
            .lines()
            .find_map(|l| l.trim().strip_prefix(key))
            .unwrap_or_else(|| panic!("no {key} in the workflow"))
            .trim()
            .to_owned()
    };
    let shards: u32 = value("SHARDS:").parse().unwrap();
    let matrix: Vec<u32> = value("shard: [")
        .trim_end_matches(']')
        .split(',')
        .map(|k| k.trim().parse().unwrap())
        .collect();
    assert_eq!(matrix, (1..=shards).collect::<Vec<_>>());
    // The shell lines that grade and merge.
    let commands = |what: &str| -> Vec<String> {
        workflow
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with(what) || (what.contains("merge") && l.starts_with("mkdir")))
            .map(str::to_owned)
            .collect()
    };
    let grade = commands("cnf-grader submissions");
    let merge = commands("cnf-grader merge");
    assert_eq!((grade.len(), merge.len()), (1, 2), "{grade:?} {merge:?}");
    let tmp = tempfile::tempdir().unwrap();
    // The grader's default cache under XDG_CACHE_HOME, its compiled parts
    // shared with the other tests.
    fs::create_dir(tmp.path().join("cache")).unwrap();
    std::os::unix::fs::symlink(
        test_support::grader_cache(),
        tmp.path().join("cache/cnf-grader"),
    )
    .unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = Path::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let sh = |script: &str, dir: &Path| {
        let out = Cli::new("sh")
            .args(["-ec", script])
            .current_dir(dir)
            .env("PATH", &path)
            .env("CLASS", manifest.join(CLASS))
            .env("FIXTURES", manifest.join(FIXTURES))
            .env("ROSTER", manifest.join("tests/submissions/roster.csv"))
            .env("SHARDS", shards.to_string())
            .env("XDG_CACHE_HOME", tmp.path().join("cache"))
            .env("SOURCE_DATE_EPOCH", "1796000000")
            .run();
        out.code(0);
        out
    };
    let merged = tmp.path().join("merge-job");
    fs::create_dir_all(merged.join("shards")).unwrap();
    for k in matrix {
        let job = tmp.path().join(format!("job-{k}"));
        fs::create_dir_all(&job).unwrap();
        sh(
            &grade[0].replace("${{ matrix.shard }}", &k.to_string()),
            &job,
        );
        let file = format!("shard-{k}.json");
        fs::copy(job.join(&file), merged.join("shards").join(&file)).unwrap();
    }
    sh(&merge.join("\n"), &merged);
    let whole = sh(
        "cnf-grader submissions \"$CLASS\" \"$FIXTURES\" --roster \"$ROSTER\" --timeout 10s",
        tmp.path(),
    );
    let book = fs::read_to_string(merged.join("gradebook/gradebook.txt")).unwrap();
    whole.stdout_is(&book);
    assert!(book.contains("no-compile    Curry, Haskell"), "{book}");
    let canvas = fs::read_to_string(merged.join("gradebook/canvas.csv")).unwrap();
    assert!(
        canvas.contains("\"Curry, Haskell\",,1004,,,70.00\n"),
        "{canvas}"
    );
    assert!(merged.join("gradebook/html/index.html").is_file());
    assert!(
        merged
            .join("gradebook/reports/no-compile.results.json")
            .is_file()
    );
}

/// Replaces `what` (which must be there) by `with` in `from`'s text, into `to`.
fn forge(from: &Path, to: &Path, what: &str, with: &str) -> String {
    let text = fs::read_to_string(from).unwrap();
    assert!(text.contains(what), "{what} not in {}", from.display());
    fs::write(to, text.replace(what, with)).unwrap();
    to.display().to_string()
}

#[test]
fn a_grade_shard_whose_totals_disagree_with_its_cases_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let s1 = shard(dir, 1, 2, &["--points"], &[]);
    let s2 = shard(dir, 2, 2, &["--points"], &[]).display().to_string();
    let doc: serde_json::Value = serde_json::from_str(&fs::read_to_string(&s1).unwrap()).unwrap();
    let passed = doc["totals"]["passed"].as_u64().unwrap();
    let total = doc["points"]["total"].as_f64().unwrap();
    let forged = forge(
        &s1,
        &dir.join("passed.json"),
        &format!("\"passed\": {passed},\n    \"failed\""),
        &format!("\"passed\": {},\n    \"failed\"", passed + 5),
    );
    grader(&["merge", &forged, &s2])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_has(&format!(
            "{forged}: totals.passed is {}, but the shard's cases give {passed}",
            passed + 5
        ));
    let text = fs::read_to_string(&s1).unwrap();
    let at = text.find("\"points\": {").unwrap();
    let total_text = format!("\"total\": {}", serde_json::to_string(&total).unwrap());
    let tail = text[at..].replacen(&total_text, "\"total\": 1e308", 1);
    assert_ne!(tail, text[at..], "{total_text}");
    let huge = dir.join("huge.json");
    fs::write(&huge, format!("{}{tail}", &text[..at])).unwrap();
    let huge = huge.display().to_string();
    grader(&["merge", &huge, &s2])
        .run()
        .code(2)
        .stderr_has(&format!(
            "{huge}: points.total is 1e+308, but the shard's cases give"
        ));
}

#[test]
fn differing_fixture_selections_give_both_values() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let s1 = shard(dir, 1, 2, &[], &[]).display().to_string();
    let other = dir.join("other");
    fs::create_dir(&other).unwrap();
    let s2 = shard(&other, 2, 2, &["--part", "1"], &[])
        .display()
        .to_string();
    let entries = |s: &str| {
        let doc: serde_json::Value = serde_json::from_str(&fs::read_to_string(s).unwrap()).unwrap();
        doc["shard"]["entries"].as_u64().unwrap()
    };
    grader(&["merge", &s1, &s2])
        .run()
        .code(2)
        .stderr_has(&format!(
            "their selections of fixtures differ ({s1}: {} entries in the whole run; {s2}: {})",
            entries(&s1),
            entries(&s2)
        ));
}

#[test]
fn a_forged_class_shard_is_refused_and_writes_nothing() {
    if !require(
        "a_forged_class_shard_is_refused_and_writes_nothing",
        &[Tool::Ghc, Tool::Bwrap],
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let class = dir.join("class");
    fs::create_dir_all(class.join("ann")).unwrap();
    let correct = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(CLASS)
        .join("correct");
    for entry in fs::read_dir(&correct).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), class.join("ann").join(entry.file_name())).unwrap();
    }
    let book = dir.join("book.json");
    let cache = test_support::grader_cache();
    grader(&[
        "submissions",
        class.to_str().unwrap(),
        FIXTURES,
        "--shard",
        "1/1",
        "--format",
        "json",
        "--no-times",
        "--timeout",
        "5s",
        "--cache",
        cache.to_str().unwrap(),
        "--output",
        book.to_str().unwrap(),
    ])
    .run()
    .code(0)
    .stdout_is("");
    let reports = dir.join("out/reports");
    let html = dir.join("out/html");
    fs::create_dir_all(&reports).unwrap();
    fs::create_dir_all(&html).unwrap();
    let merge = |file: &str| {
        grader(&[
            "merge",
            file,
            "--reports",
            reports.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ])
        .run()
    };
    merge(book.to_str().unwrap()).code(0);
    fs::remove_dir_all(dir.join("out")).unwrap();
    fs::create_dir_all(&reports).unwrap();
    fs::create_dir_all(&html).unwrap();
    // A name that climbs out of --reports and --html.
    let text = fs::read_to_string(&book).unwrap();
    let climbing = dir.join("climbing.json");
    fs::write(&climbing, text.replace("\"ann\"", "\"../../escaped\"")).unwrap();
    let climbing = climbing.display().to_string();
    merge(&climbing).code(2).stderr_has(&format!(
        "{climbing}: the student name \"../../escaped\" is not a plain folder name (it holds a path separator)"
    ));
    // A total no case gives.
    let huge = forge(
        &book,
        &dir.join("huge.json"),
        "\"total\": 100.0",
        "\"total\": 1e308",
    );
    merge(&huge).code(2).stderr_has(&format!(
        "{huge}: results[\"ann\"].points.total is 1e+308, but student \"ann\"'s cases give 100.0"
    ));
    // A total that disagrees with the cases, in the row only.
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let row_total = doc["results"][0]["row"]["total"].as_f64().unwrap();
    assert_eq!(row_total, 100.0);
    let text_rows = text.replacen(
        "\"parts\": [\n          20.0",
        "\"parts\": [\n          19.0",
        1,
    );
    assert_ne!(text_rows, text, "the row's parts are written as expected");
    let parts = dir.join("parts.json");
    fs::write(&parts, text_rows).unwrap();
    let parts = parts.display().to_string();
    merge(&parts).code(2).stderr_has(&format!(
        "{parts}: results[\"ann\"].row.parts[0] is 19.0, but student \"ann\"'s cases give 20.0"
    ));
    // Nothing was written anywhere, inside the folders or above them.
    for d in [&reports, &html] {
        assert_eq!(fs::read_dir(d).unwrap().count(), 0, "{}", d.display());
    }
    assert!(!dir.join("escaped.txt").exists() && !dir.join("escaped.html").exists());
}

/// The shards' `--edge-in-base` is kept by `merge` (the merged points are
/// the unsharded run's), and shards that differ in it are refused.
#[test]
fn merge_keeps_edge_in_base_and_refuses_shards_that_differ_in_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let points_of = |file: &Path| {
        let doc: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
        doc["points"].clone()
    };
    let whole = dir.join("whole.json");
    grader(&[
        "grade",
        "../../fixtures",
        "--points",
        "--edge-in-base",
        "--format",
        "json",
        "--output",
        whole.to_str().unwrap(),
    ])
    .run()
    .code(0);
    let fixtures_shard = |k: u32, edge: bool| {
        let file = dir.join(format!("s{k}-{edge}.json"));
        let shard = format!("{k}/2");
        let mut args = vec!["grade", "../../fixtures", "--points", "--shard", &shard];
        if edge {
            args.push("--edge-in-base");
        }
        args.extend(["--format", "json", "--output", file.to_str().unwrap()]);
        grader(&args).run().code(0);
        file.display().to_string()
    };
    let (a, b, b_apart) = (
        fixtures_shard(1, true),
        fixtures_shard(2, true),
        fixtures_shard(2, false),
    );
    let merged = dir.join("merged.json");
    grader(&[
        "merge",
        &a,
        &b,
        "--format",
        "json",
        "--output",
        merged.to_str().unwrap(),
    ])
    .run()
    .code(0);
    let (got, want) = (points_of(&merged), points_of(&whole));
    assert_eq!(got["edge"]["in_base"], true, "{got}");
    assert_eq!(got, want);
    grader(&["merge", &a, &b_apart])
        .run()
        .code(2)
        .stderr_has(&format!(
            "one counts the edge cases in the base score and the other does not ({a}: true; \
             {b_apart}: false)"
        ));
}
