//! The Peg Reversal drivers and default cases against a reference written
//! in Haskell from the spec alone (`tests/peg/Reference.hs`): built as the
//! module `Student` with `GraderInput.hs` and each function's driver by GHC
//! (our own code, so outside the sandbox), every default case's driver
//! output must be its `.expected` byte for byte. This checks peg-core's
//! expected results by an independent method and proves the drivers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use peg_core::{Function, parse_call};
use test_support::{Cli, Tool, require};

/// The files of the driver, as the grader builds them.
const GRADER_INPUT: &str = include_str!("../../src/assignment/peg_reversal/haskell/GraderInput.hs");

/// Each function's driver.
fn driver(function: Function) -> &'static str {
    match function {
        Function::CreateBoard => {
            include_str!("../../src/assignment/peg_reversal/haskell/Driver_createBoard.hs")
        }
        Function::IsValidMove => {
            include_str!("../../src/assignment/peg_reversal/haskell/Driver_isValidMove.hs")
        }
        Function::IsGoal => {
            include_str!("../../src/assignment/peg_reversal/haskell/Driver_isGoal.hs")
        }
        Function::ShowPossibleNextStates => include_str!(
            "../../src/assignment/peg_reversal/haskell/Driver_showPossibleNextStates.hs"
        ),
    }
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The default cases: (name, call text, expected text), by name.
fn default_cases() -> Vec<(String, String, String)> {
    let dir = manifest().join("../../fixtures/peg-reversal");
    let mut calls: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "call"))
        .collect();
    calls.sort();
    calls
        .into_iter()
        .map(|call| {
            let name = call.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&call).unwrap();
            let expected = std::fs::read_to_string(call.with_extension("expected"))
                .unwrap_or_else(|e| panic!("{name}.expected: {e}"));
            (name, text, expected)
        })
        .collect()
}

/// Builds `student` (a WinHugs-style file: no header) as module `Student`
/// with each function's driver in `dir`; each function's program, or GHC's
/// error output when its driver does not compile.
fn build(dir: &Path, student: &str) -> BTreeMap<Function, Result<PathBuf, String>> {
    std::fs::write(
        dir.join("Student.hs"),
        format!("module Student where\n{student}"),
    )
    .unwrap();
    std::fs::write(dir.join("GraderInput.hs"), GRADER_INPUT).unwrap();
    Function::ALL
        .into_iter()
        .map(|f| {
            let source = format!("Driver_{}.hs", f.name());
            std::fs::write(dir.join(&source), driver(f)).unwrap();
            let program = dir.join(format!("run-{}", f.name()));
            // Every driver is module Main: each gets its own object folder.
            let run = Cli::new("ghc")
                .args(["-O0", "-v0", "-outputdir"])
                .arg(format!("obj-{}", f.name()))
                .arg("-o")
                .arg(&program)
                .arg(&source)
                .current_dir(dir)
                .run();
            let built = if run.status.success() {
                Ok(program)
            } else {
                Err(run.stderr.clone())
            };
            (f, built)
        })
        .collect()
}

/// What `program` prints for the case `call`, checking it exits 0.
fn run_case(program: &Path, name: &str, call: &str) -> String {
    let call = parse_call(call).unwrap_or_else(|e| panic!("{name}.call: {e}"));
    let run = Cli::new(program)
        .stdin(call.driver_input())
        .label(name)
        .run();
    run.code(0);
    run.stdout.clone()
}

#[test]
fn every_default_case_is_what_the_reference_prints() {
    if !require("peg_reference::every_default_case", &[Tool::Ghc]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let reference = std::fs::read_to_string(manifest().join("tests/peg/Reference.hs")).unwrap();
    let programs = build(dir.path(), &reference);
    let cases = default_cases();
    let mut per_function: BTreeMap<Function, usize> = BTreeMap::new();
    let mut differ = Vec::new();
    for (name, call, expected) in &cases {
        let function = parse_call(call).unwrap().function();
        *per_function.entry(function).or_default() += 1;
        let program = programs[&function]
            .as_ref()
            .unwrap_or_else(|e| panic!("the reference's {function} does not build:\n{e}"));
        let got = run_case(program, name, call);
        if &got != expected {
            differ.push(format!(
                "{name}:\n  expected {expected:?}\n  reference {got:?}"
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // Not vacuous: every function has its cases, the errors among them.
    assert_eq!(per_function.len(), 4, "{per_function:?}");
    assert_eq!(
        per_function[&Function::CreateBoard],
        37,
        "33 holes and 4 off the board"
    );
    assert!(cases.len() >= 65, "only {} cases", cases.len());
    let errors = cases
        .iter()
        .filter(|(_, _, e)| e.starts_with("error "))
        .count();
    assert_eq!(
        errors, 6,
        "4 createBoard and 2 showPossibleNextStates errors"
    );
}

/// A student who derives `Read`, defines `main` and names helpers as the
/// drivers do, raises errors lazily and other exceptions, and gives
/// `isGoal` another type.
const ODD_STUDENT: &str = r#"
import Data.List (sort)
type Position = (Int, Int)
data Color = W | B deriving (Eq, Show, Read)
data Peg = Peg Position Color deriving (Eq, Show, Read)
data Move = M Position deriving (Eq, Show, Read)
type Board = [Peg]
data State = S Move Board deriving (Eq, Show, Read)

peg = 1
move = 2
runCase = 3
main = print (sort [peg, move, runCase])

createBoard :: Position -> Board
createBoard (0, 0) = [Peg (0, 0) W, Peg (1, 0) (error "a lazy error")]
createBoard (1, 0) = [Peg (1, 1 `div` 0) W]
createBoard (2, 0) = error (error "an error in the message")
createBoard p = error ("Program error: " ++ show p)

isValidMove :: Move -> Board -> Bool
isValidMove (M p) b = Peg p B `elem` b

isGoal :: Board -> Int
isGoal = length

showPossibleNextStates :: Board -> [State]
showPossibleNextStates b = [S (M p) b | Peg p B <- b]
"#;

#[test]
fn the_drivers_report_errors_exceptions_and_clash_with_no_name() {
    if !require("peg_reference::the_drivers_report", &[Tool::Ghc]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let programs = build(dir.path(), ODD_STUDENT);
    let ok = |f: Function| {
        programs[&f]
            .as_ref()
            .unwrap_or_else(|e| panic!("{f} does not build:\n{e}"))
            .clone()
    };
    // Another type fails that function's driver only, and GHC names it.
    let goal = programs[&Function::IsGoal].as_ref().unwrap_err();
    assert!(goal.contains("isGoal") && goal.contains("Bool"), "{goal}");

    let create = ok(Function::CreateBoard);
    let cases = [
        ("createBoard (0,0)", "error \"a lazy error\"\n"),
        ("createBoard (1,0)", "exception \"divide by zero\"\n"),
        (
            "createBoard (2,0)",
            "exception \"an exception whose message raises an exception\"\n",
        ),
        ("createBoard (-2,2)", "error \"Program error: (-2,2)\"\n"),
    ];
    for (call, expected) in cases {
        assert_eq!(run_case(&create, call, call), expected, "{call}");
    }
    let valid = ok(Function::IsValidMove);
    assert_eq!(
        run_case(
            &valid,
            "v",
            "isValidMove (M (1,0)) [Peg (0,0) W,Peg (1,0) B]"
        ),
        "True\n"
    );
    let next = ok(Function::ShowPossibleNextStates);
    assert_eq!(
        run_case(
            &next,
            "n",
            "showPossibleNextStates [Peg (0,0) W,Peg (1,0) B]"
        ),
        "[S (M (1,0)) [Peg (0,0) W,Peg (1,0) B]]\n"
    );
    // Input that does not read is the grader's fault: exit 3, said on stderr.
    let run = Cli::new(&next).stdin("[Peg (0,0) X]\n").run();
    run.code(3)
        .stdout_is("")
        .stderr_has("grader input does not read");
}

/// A student's passes per function as `EXPECTED.md`'s table of points
/// gives them (`P/N` at the start of each cell), or `None` where the
/// student has no submission (several files define `createBoard`).
type Passes = Option<[(usize, usize); 4]>;

/// The table of points of `peg-class/EXPECTED.md`: each student and their passes.
fn expected_md() -> BTreeMap<String, Passes> {
    let text = std::fs::read_to_string(manifest().join("tests/submissions/peg-class/EXPECTED.md"))
        .unwrap();
    let table = text.split("## Points").nth(1).expect("a Points section");
    let mut out = BTreeMap::new();
    for line in table.lines().skip_while(|l| !l.starts_with("|---")).skip(1) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let student = cells[1].trim_matches('`').to_owned();
        let passes: Vec<Option<(usize, usize)>> = cells[2..6]
            .iter()
            .map(|cell| {
                let fraction = cell.split_whitespace().next()?;
                let (p, n) = fraction.split_once('/')?;
                Some((p.parse().ok()?, n.parse().ok()?))
            })
            .collect();
        let passes = if passes.iter().all(Option::is_none) {
            assert!(line.contains("no submission"), "{line}");
            None
        } else {
            let cells: Vec<(usize, usize)> = passes
                .into_iter()
                .map(|p| p.unwrap_or_else(|| panic!("a cell without P/N: {line}")))
                .collect();
            Some([cells[0], cells[1], cells[2], cells[3]])
        };
        out.insert(student, passes);
    }
    out
}

/// The `.hs` files of a student's folder that give `createBoard` its type
/// at the start of a line: every file of the class that defines it does,
/// and `two-files/PegTests.hs` names it at the start of a line in a
/// comment only (a plain rule for our own files, not the grader's finder).
fn candidates(folder: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hs"))
        .filter(|p| {
            std::fs::read_to_string(p).unwrap().lines().any(|l| {
                l.strip_prefix("createBoard")
                    .is_some_and(|rest| rest.trim_start().starts_with("::"))
            })
        })
        .collect();
    out.sort();
    out
}

#[test]
#[ignore = "slow: builds every student of the sample class with GHC, four drivers each"]
fn the_sample_class_passes_the_cases_expected_md_derives() {
    if !require("peg_reference::the_sample_class", &[Tool::Ghc]) {
        return;
    }
    let expected = expected_md();
    let class = manifest().join("tests/submissions/peg-class");
    let mut students: Vec<String> = std::fs::read_dir(&class)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    students.sort();
    assert_eq!(
        students,
        expected.keys().cloned().collect::<Vec<_>>(),
        "EXPECTED.md has a row for every student"
    );
    let cases = default_cases();
    let mut differ = Vec::new();
    for student in &students {
        let files = candidates(&class.join(student));
        let Some(passes) = expected[student] else {
            assert!(
                files.len() > 1,
                "{student}: no submission, so several candidates"
            );
            continue;
        };
        assert_eq!(files.len(), 1, "{student}: {files:?}");
        let source = std::fs::read_to_string(&files[0]).unwrap();
        // The header (if any) goes: the student is built as module Student.
        let source: String = source
            .lines()
            .map(|l| if l.starts_with("module ") { "" } else { l })
            .collect::<Vec<_>>()
            .join("\n");
        let dir = tempfile::tempdir().unwrap();
        let programs = build(dir.path(), &source);
        let mut got = [(0, 0); 4];
        for (name, call, want) in &cases {
            let function = parse_call(call).unwrap().function();
            let slot = &mut got[Function::ALL.iter().position(|f| *f == function).unwrap()];
            slot.1 += 1;
            let Ok(program) = &programs[&function] else {
                continue;
            };
            // A student's call may never end (the `loops` student): it
            // gets the grader's default time, and fails if it needs more.
            let input = parse_call(call).unwrap().driver_input();
            let run = Cli::new("timeout")
                .arg("10")
                .arg(program)
                .stdin(input)
                .label(format!("{student}: {name}"))
                .run();
            if run.status.success() && &run.stdout == want {
                slot.0 += 1;
            }
        }
        if got != passes {
            differ.push(format!("{student}: EXPECTED.md {passes:?}, built {got:?}"));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
