//! `cnf-grader submissions CLASS --assignment peg-reversal` with a real GHC
//! in the sandbox, on the Peg Reversal sample class of
//! `tests/submissions/peg-class/` and the default cases of
//! `fixtures/peg-reversal/`: each student's points per function are those
//! its `EXPECTED.md` derives by hand (25 points a function, shared equally
//! among its 37, 14, 7 and 11 cases), in the JSON gradebook, the table and
//! the CSV; the notes name both files of `two-candidates` and say how
//! `winhugs-prefix`'s error messages differ.

use std::path::Path;

use test_support::{Cli, Tool};

const CLASS: &str = "tests/submissions/peg-class";

/// The default cases, from the crate's folder.
const CASES: &str = "../../fixtures/peg-reversal";

/// Cases of each function: createBoard, isValidMove, isGoal, showPossibleNextStates.
const CASE_COUNTS: [u32; 4] = [37, 14, 7, 11];

/// Each student's passed cases per function, as `EXPECTED.md` derives
/// them, and the notes its row carries.
const EXPECTED: [(&str, [u32; 4], &[&str]); 10] = [
    ("correct", [37, 14, 7, 11], &[]),
    (
        "diagonal",
        [37, 12, 7, 8],
        &[
            "isValidMove: 2 wrong outputs: a different line 1",
            "showPossibleNextStates: 3 wrong outputs: a different line 1",
        ],
    ),
    (
        "loops",
        [37, 14, 7, 10],
        &["showPossibleNextStates: 1 timed out"],
    ),
    (
        "missing-function",
        [37, 14, 0, 11],
        &["isGoal did not compile"],
    ),
    ("no-parse", [0, 0, 0, 0], &["the file did not compile"]),
    (
        "off-board",
        [37, 12, 7, 11],
        &["isValidMove: 2 wrong outputs: a different line 1"],
    ),
    ("other-type", [37, 14, 0, 11], &["isGoal did not compile"]),
    (
        "two-candidates",
        [0, 0, 0, 0],
        &[
            "no submission: 2 files define createBoard (peg final.hs and peg.hs); keep one and grade again (every function scores 0)",
        ],
    ),
    ("two-files", [37, 14, 7, 11], &[]),
    (
        "winhugs-prefix",
        [33, 14, 7, 9],
        &[
            "createBoard: error message \"Program error: The position is not valid.\" differs \
             from \"The position is not valid.\" by a \"Program error: \" prefix",
            "showPossibleNextStates: error message \"Program error: No Possible States Exist.\" \
             differs from \"No Possible States Exist.\" by a \"Program error: \" prefix",
        ],
    ),
];

/// A function's points for `passed` of its `cases` (spec §5).
fn share(passed: u32, cases: u32) -> f64 {
    25.0 * f64::from(passed) / f64::from(cases)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn the_peg_class_scores_what_expected_md_derives_in_every_gradebook() {
    if !test_support::require(
        "the_peg_class_scores_what_expected_md_derives_in_every_gradebook",
        &[Tool::Ghc, Tool::Bwrap],
    ) {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("book.csv");
    let reports = out.path().join("reports");
    let grade = |format: &str| {
        Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
            .args([
                "submissions",
                CLASS,
                CASES,
                "--assignment",
                "peg-reversal",
                "--timeout",
                "2s",
                "--no-times",
                "--format",
                format,
            ])
            .arg("--cache")
            .arg(test_support::grader_cache())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
    };
    let json = grade("json")
        .arg("--csv")
        .arg(&csv)
        .arg("--reports")
        .arg(&reports)
        .arg("--html")
        .arg(out.path().join("html"))
        .run();
    json.code(0);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON gradebook");
    assert_eq!(doc["provenance"]["assignment"], "peg-reversal");
    let students = doc["students"].as_array().expect("students");
    assert_eq!(students.len(), EXPECTED.len());
    let mut csv_lines = vec![
        "student,createBoard,isValidMove,isGoal,showPossibleNextStates,total,failed_cases,\
         cases,notes"
            .to_owned(),
    ];
    for (row, (name, passed, notes)) in students.iter().zip(EXPECTED) {
        assert_eq!(row["student"], name);
        let want: Vec<f64> = passed
            .iter()
            .zip(CASE_COUNTS)
            .map(|(&p, n)| share(p, n))
            .collect();
        let got: Vec<f64> = row["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_f64().unwrap())
            .collect();
        assert!(
            got.iter().zip(&want).all(|(g, w)| close(*g, *w)),
            "{name}: {got:?}, expected {want:?}"
        );
        let total: f64 = want.iter().sum();
        assert!(close(row["total"].as_f64().unwrap(), total), "{name}");
        // Every report counts the four builds as tests, then the 69 cases;
        // a function that did not build fails its build and its cases.
        let failed_cases: u32 = CASE_COUNTS.iter().sum::<u32>() - passed.iter().sum::<u32>();
        let failed_builds = match name {
            "no-parse" | "two-candidates" => 4,
            "missing-function" | "other-type" => 1,
            _ => 0,
        };
        assert_eq!(row["cases"].as_u64(), Some(4 + 69), "{name}");
        assert_eq!(
            row["failed_cases"].as_u64(),
            Some(u64::from(failed_cases + failed_builds)),
            "{name}"
        );
        assert_eq!(row["notes"], serde_json::json!(notes), "{name}");
        let cell = |s: String| {
            if s.contains([',', '"']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s
            }
        };
        csv_lines.push(format!(
            "{name},{},{total:.2},{},73,{}",
            want.iter()
                .map(|p| format!("{p:.2}"))
                .collect::<Vec<_>>()
                .join(","),
            failed_cases + failed_builds,
            cell(notes.join("; "))
        ));
    }
    // The CSV holds the same rows, its columns named by the functions.
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        csv_lines.join("\n") + "\n"
    );
    // The table names the functions too, and shows the same totals.
    let table = grade("human").run();
    table.code(0);
    let header = table
        .stdout
        .lines()
        .find(|l| l.starts_with("student"))
        .expect("a header line");
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        [
            "student",
            "createBoard",
            "isValidMove",
            "isGoal",
            "showPossibleNextStates",
            "total",
            "failed",
            "notes"
        ]
    );
    let winhugs = table
        .stdout
        .lines()
        .find(|l| l.starts_with("winhugs-prefix"))
        .expect("winhugs-prefix's row");
    assert!(winhugs.contains(" 92.75 "), "{winhugs}");
    assert!(
        winhugs.contains("by a \"Program error: \" prefix"),
        "{winhugs}"
    );
    // A student's own report names what was graded and how each function fared.
    let own = std::fs::read_to_string(reports.join("two-files.txt")).unwrap();
    assert!(own.contains("PegGame.hs as the module Student"), "{own}");
    let candidates = std::fs::read_to_string(reports.join("two-candidates.txt")).unwrap();
    assert!(
        candidates.contains("2 files define createBoard (peg final.hs, peg.hs)"),
        "{candidates}"
    );
    assert!(Path::new(&reports.join("correct.results.json")).is_file());
    // The HTML gradebook's columns are the functions too.
    let index = std::fs::read_to_string(out.path().join("html/index.html")).unwrap();
    assert!(
        index.contains(
            "<th class=\"num\">createBoard</th><th class=\"num\">isValidMove</th>\
             <th class=\"num\">isGoal</th><th class=\"num\">showPossibleNextStates</th>"
        ),
        "{index}"
    );
    // Each error case of the WinHugs student says what its message was.
    let winhugs = std::fs::read_to_string(reports.join("winhugs-prefix.txt")).unwrap();
    let said = winhugs
        .lines()
        .filter(|l| {
            l.ends_with(
                "createBoard: the error message \"Program error: The position is not valid.\" \
                 differs from the assignment's \"The position is not valid.\" by a \
                 \"Program error: \" prefix",
            )
        })
        .count();
    assert_eq!(said, 4, "{winhugs}");
    // No-parse's report shows GHC's first error.
    let no_parse = std::fs::read_to_string(reports.join("no-parse.txt")).unwrap();
    assert!(no_parse.contains("parse error"), "{no_parse}");
}

#[test]
fn weights_share_each_functions_points_among_its_cases() {
    if !test_support::require(
        "weights_share_each_functions_points_among_its_cases",
        &[Tool::Ghc, Tool::Bwrap],
    ) {
        return;
    }
    let grade = |weights: &str| {
        let run = Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
            .args([
                "submission",
                &format!("{CLASS}/winhugs-prefix"),
                CASES,
                "--assignment",
                "peg-reversal",
                "--weights",
                weights,
                "--format",
                "json",
                "--no-times",
            ])
            .arg("--cache")
            .arg(test_support::grader_cache())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .run();
        run.code(1);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON report");
        let parts = doc["points"]["parts"].as_array().unwrap().clone();
        let names: Vec<&str> = parts
            .iter()
            .map(|p| p["function"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "createBoard",
                "isValidMove",
                "isGoal",
                "showPossibleNextStates"
            ]
        );
        (
            parts
                .iter()
                .map(|p| p["total"].as_f64().unwrap())
                .collect::<Vec<_>>(),
            doc["points"]["total"].as_f64().unwrap(),
        )
    };
    // winhugs-prefix passes 33 of 37, 14 of 14, 7 of 7 and 9 of 11 cases.
    let want = [40.0 * 33.0 / 37.0, 20.0, 20.0, 20.0 * 9.0 / 11.0];
    for weights in [
        "40,20,20,20",
        "createBoard=40,isValidMove=20,isGoal=20,showPossibleNextStates=20",
    ] {
        let (parts, total) = grade(weights);
        assert!(
            parts.iter().zip(want).all(|(g, w)| close(*g, w)),
            "{weights}: {parts:?}"
        );
        assert!(close(total, want.iter().sum()), "{weights}");
    }
    // By name, the functions not named keep their 25.
    let (parts, _) = grade("isGoal=10");
    let want = [25.0 * 33.0 / 37.0, 25.0, 10.0, 25.0 * 9.0 / 11.0];
    assert!(
        parts.iter().zip(want).all(|(g, w)| close(*g, w)),
        "{parts:?}"
    );
}

#[test]
#[ignore = "slow: grades the Peg class three more times"]
fn the_peg_class_in_two_shards_merges_into_the_same_gradebook() {
    if !test_support::require(
        "the_peg_class_in_two_shards_merges_into_the_same_gradebook",
        &[Tool::Ghc, Tool::Bwrap],
    ) {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let grade = |extra: &[&str]| {
        Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
            .args([
                "submissions",
                CLASS,
                CASES,
                "--assignment",
                "peg-reversal",
                "--timeout",
                "2s",
                "--no-times",
            ])
            .args(extra)
            .arg("--cache")
            .arg(test_support::grader_cache())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .run()
    };
    let whole = grade(&[]);
    whole.code(0);
    let mut shards = Vec::new();
    for k in ["1/2", "2/2"] {
        let run = grade(&["--shard", k, "--format", "json"]);
        run.code(0);
        let path = out.path().join(format!("shard{}.json", &k[..1]));
        std::fs::write(&path, &run.stdout).unwrap();
        shards.push(path);
    }
    let merged = Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .arg("merge")
        .args(&shards)
        .arg("--no-times")
        .run();
    merged.code(0);
    assert_eq!(merged.stdout, whole.stdout);
}

#[test]
fn similarity_compares_each_peg_students_file_that_defines_create_board() {
    // Two students hand in the same file under other names and with other
    // variable names; a third writes its own; a fourth has two candidates.
    let class = tempfile::tempdir().unwrap();
    let reference = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peg/Reference.hs"),
    )
    .unwrap();
    let write = |student: &str, file: &str, text: &str| {
        let dir = class.path().join(student);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(file), text).unwrap();
    };
    write("ann", "Peg Reversal Game.hs", &reference);
    write("bob", "mine.hs", &reference.replace("board", "pegs"));
    write(
        "bob",
        "Notes.hs",
        "-- createBoard is mine\nmain = pure ()\n",
    );
    write(
        "cy",
        "cy.hs",
        "createBoard p = [p]\nisGoal b = all white b\nwhite _ = True\n",
    );
    write("dee", "a.hs", "createBoard = undefined\n");
    write("dee", "b.hs", "createBoard = undefined\n");
    let run = Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .arg("similarity")
        .arg(class.path())
        .args([
            "--assignment",
            "peg-reversal",
            "--format",
            "json",
            "--no-times",
        ])
        .run();
    run.code(0);
    assert!(
        run.stderr
            .contains("dee: 2 files define createBoard (a.hs, b.hs), so none is compared"),
        "{}",
        run.stderr
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let text = doc.to_string();
    // The copy, renamed and with another variable name, is the same code.
    let pairs = doc["pairs"].as_array().expect("pairs");
    let top = &pairs[0];
    let names = [top["a"].as_str(), top["b"].as_str()];
    assert_eq!(names, [Some("ann"), Some("bob")], "{text}");
    assert_eq!(top["similarity"].as_f64(), Some(1.0), "{text}");
    assert_eq!(top["matches"][0]["b"]["file"], "mine.hs", "{text}");
    // The description's types are base code, counted in the provenance.
    assert_eq!(doc["provenance"]["base_files"], 1, "{text}");
}

#[test]
fn a_module_of_the_students_own_is_compiled_beside_the_file_and_cannot_replace_the_graders() {
    if !test_support::require(
        "a_module_of_the_students_own_is_compiled_beside_the_file_and_cannot_replace_the_graders",
        &[Tool::Ghc, Tool::Bwrap],
    ) {
        return;
    }
    // The correct student's file, its isGoal written with a helper of a
    // module of its own; beside it a GraderInput.hs that does not compile,
    // which must not take the place of the grader's.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let correct = std::fs::read_to_string(root.join(CLASS).join("correct/Peg Reversal Game.hs"))
        .expect("the correct student's file");
    let own = "isGoal :: Board -> Bool\nisGoal [] = True\nisGoal (Peg _ B : _) = False\nisGoal (_ : rest) = isGoal rest\n";
    assert!(correct.contains(own), "the correct file's isGoal changed");
    let file = format!(
        "import PegHelpers (allTrue)\n{}",
        correct.replace(
            own,
            "isGoal :: Board -> Bool\nisGoal board = allTrue [c == W | Peg _ c <- board]\n"
        )
    );
    let dir = tempfile::tempdir().unwrap();
    let student = dir.path().join("helper-module");
    std::fs::create_dir(&student).unwrap();
    std::fs::write(student.join("Peg Game.hs"), file).unwrap();
    std::fs::write(
        student.join("PegHelpers.hs"),
        "module PegHelpers (allTrue) where\n\nallTrue :: [Bool] -> Bool\nallTrue = and\n",
    )
    .unwrap();
    std::fs::write(
        student.join("GraderInput.hs"),
        "module GraderInput where\nthis is not Haskell\n",
    )
    .unwrap();
    let run = Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .arg("submission")
        .arg(&student)
        .args([
            CASES,
            "--assignment",
            "peg-reversal",
            "--format",
            "json",
            "--no-times",
        ])
        .arg("--cache")
        .arg(test_support::grader_cache())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .run();
    run.code(0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON report");
    // Every case passes, as for the correct student: 25 points a function.
    assert!(
        close(doc["points"]["total"].as_f64().unwrap(), 100.0),
        "{}",
        run.stdout
    );
}
