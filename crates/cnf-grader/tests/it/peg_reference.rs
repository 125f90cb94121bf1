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
