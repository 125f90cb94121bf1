//! `peg case`: writing a grading case and checking a folder of them, end to end.

use std::path::Path;

use test_support::Cli;

fn peg() -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_peg")).env_remove("NO_COLOR")
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn a_case_is_written_as_its_call_and_what_a_correct_driver_prints() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cases");
    let d = dir.to_str().unwrap();
    peg()
        .args(["case", d, "isGoal-one-white", "isGoal\n  [ Peg (0,0) W ]"])
        .run()
        .clean()
        .stdout_is("True\n");
    peg()
        .args(["case", d, "createBoard-off-m2-2", "createBoard (-2, 2)"])
        .run()
        .clean()
        .stdout_is("error \"The position is not valid.\"\n");
    peg()
        .args([
            "case",
            d,
            "next-partial",
            "showPossibleNextStates [Peg (0,0) W,Peg (1,0) B]",
        ])
        .run()
        .clean()
        .stdout_is("[S (M (1,0)) [Peg (0,0) W,Peg (1,0) W]]\n");
    assert_eq!(
        listing(&dir),
        [
            "createBoard-off-m2-2.call",
            "createBoard-off-m2-2.expected",
            "isGoal-one-white.call",
            "isGoal-one-white.expected",
            "next-partial.call",
            "next-partial.expected",
        ],
        "the folder is made, and no temporary file is left"
    );
    assert_eq!(
        read(&dir, "isGoal-one-white.call"),
        "isGoal [Peg (0,0) W]\n"
    );
    assert_eq!(read(&dir, "isGoal-one-white.expected"), "True\n");
    assert_eq!(
        read(&dir, "createBoard-off-m2-2.call"),
        "createBoard (-2,2)\n"
    );
    assert_eq!(
        read(&dir, "createBoard-off-m2-2.expected"),
        "error \"The position is not valid.\"\n"
    );
    peg()
        .args(["case", d, "--check"])
        .run()
        .clean()
        .stdout_is("3 cases: 3 as derived, 0 differ, 0 do not read\n");
}

#[test]
fn a_call_that_does_not_read_is_refused_with_its_place_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().to_str().unwrap();
    peg()
        .args(["case", d, "bad", "isValidMove M (1,0) [Peg (0,0) W]"])
        .run()
        .code(2)
        .stdout_is("")
        .stderr_is(
            "error: CALL:1:13: cannot read a call (createBoard (x,y), isValidMove (M (x,y)) [...], isGoal [...] or showPossibleNextStates [...]): expected '(', found 'M'\n\
             1 | isValidMove M (1,0) [Peg (0,0) W]\n  |             ^\n",
        );
    peg()
        .args(["case", d, "bad", "isgoal []"])
        .run()
        .code(2)
        .stderr_has("`isgoal` is not one of the functions: give createBoard, isValidMove, isGoal or showPossibleNextStates");
    peg()
        .args(["case", d, "bad", "isGoal [Peg (0,0) W,Peg (2,2) B]"])
        .run()
        .code(2)
        .stderr_has(
            "CALL:1:21: not a board: peg `Peg (2,2) B` (number 2 in the list) is not on the board",
        );
    peg()
        .args(["case", d, "../escape", "isGoal []"])
        .run()
        .code(2)
        .stderr_has("the case name \"../escape\" starts with '.' or '-'");
    peg()
        .args(["case", d, "a b", "isGoal []"])
        .run()
        .code(2)
        .stderr_has("holds a character other than letters, digits");
    assert!(listing(tmp.path()).is_empty());
}

#[test]
fn check_lists_the_cases_that_differ_and_those_that_do_not_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let d = dir.to_str().unwrap();
    std::fs::write(dir.join("goal.call"), "isGoal [Peg (0,0) B]\n").unwrap();
    std::fs::write(dir.join("goal.expected"), "True\n").unwrap();
    std::fs::write(
        dir.join("valid.call"),
        "isValidMove (M (1,0)) [Peg (0,0) W,Peg (1,0) B]",
    )
    .unwrap();
    std::fs::write(dir.join("valid.expected"), "True\n").unwrap();
    std::fs::write(dir.join("lonely.call"), "isGoal []").unwrap();
    std::fs::write(dir.join("stray.expected"), "True\n").unwrap();
    let goal = dir.join("goal.expected");
    let lonely = dir.join("lonely.expected");
    let stray = dir.join("stray.expected");
    peg()
        .args(["case", d, "--check"])
        .run()
        .code(1)
        .stderr_is("")
        .stdout_is(&format!(
            "{}: differs from what isGoal gives, first at line 1, column 1\n\
             {}: missing\n\
             {}: no .call file of that name beside it (not checked)\n\
             3 cases: 1 as derived, 2 differ, 0 do not read\n",
            goal.display(),
            lonely.display(),
            stray.display()
        ));
    std::fs::write(
        dir.join("broken.call"),
        "isGoal [Peg (0,0) W,\n  Peg (0,0) B]",
    )
    .unwrap();
    let run = peg().args(["case", d, "--check"]).run();
    run.code(2)
        .stdout_has("4 cases: 1 as derived, 2 differ, 1 do not read\n")
        .stderr_has(&format!(
            "error: {}:2:3: not a board: peg `Peg (0,0) B` (number 2 in the list)",
            dir.join("broken.call").display()
        ))
        .stderr_has("is on the same position as peg `Peg (0,0) W`");
}

#[test]
fn check_of_a_folder_without_cases_is_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().to_str().unwrap();
    peg()
        .args(["case", d, "--check"])
        .run()
        .code(2)
        .stderr_has(": no NAME.call file; give a folder of cases");
    peg()
        .args(["case", &format!("{d}/none"), "--check"])
        .run()
        .code(2)
        .stderr_has("none: no such file or folder");
    peg()
        .args(["case", d])
        .run()
        .code(2)
        .stderr_has("the following required arguments were not provided");
}

#[test]
fn the_default_peg_reversal_cases_are_as_peg_core_derives_them() {
    // The drift guard: the cases' independent check is the Haskell
    // reference (cnf-grader's peg_reference test).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/peg-reversal");
    peg()
        .args(["case", dir.to_str().unwrap(), "--check"])
        .run()
        .clean()
        .stdout_has(" as derived, 0 differ, 0 do not read\n");
}
