//! Students who try to cheat or to harm the grader, graded in one class
//! next to a correct student (who must still score 100).
//!
//! Each hostile student submits part 1 only: the sample's correct part 1
//! with an attack added to `main` (or, for Template Haskell, at compile
//! time). Part 1 is worth 20 points (spec §6): 10 for compiling, 10 shared
//! among its cases. An attack that fails quietly leaves the correct
//! program, so 20; an attack whose failure stops the program (reading a
//! file that is not there, a failed allocation) scores 10, compilation
//! only; a cheat that worked would score 20 where 10 is expected, or leave
//! traces the tests look for (files, processes, a connection, a secret).

use std::io::Read as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use test_support::{Cli, Tool};

const SAMPLE: &str = "tests/submissions/class/correct";
const FIXTURES: &str = "tests/submissions/fixtures";
const SECRET: &str = "token-3f9a1c77e2";
const SLEEP: &str = "987654";

/// The attacks: (student, extra imports, action at the start of `main`).
const ATTACKS: [(&str, &str, &str); 9] = [
    (
        "solution-sibling",
        "",
        "putStr =<< readFile (take (length (head args) - 4) (head args) ++ \".onePlayerOneMove.solution\")\n     exitSuccess",
    ),
    (
        "solution-absolute",
        "",
        "putStr =<< readFile (\"@FIXTURES@/\" ++ takeFileName' (head args) ++ \".onePlayerOneMove.solution\")\n     exitSuccess",
    ),
    (
        "write-outside",
        "",
        "mapM_ (\\p -> try (writeFile p \"pwned\") >>= \\r -> const (return ()) (r :: Either SomeException ())) [\"@OUTSIDE@/pwned\", \"@OTHER@/csce322assignment03part01.hs\", \"@FIXTURES@/test03.cnf\", \"@CSV@\"]",
    ),
    (
        "loopback",
        "",
        "_ <- try (readProcess \"bash\" [\"-c\", \"echo hello > /dev/tcp/127.0.0.1/@PORT@\"] \"\") :: IO (Either SomeException String)",
    ),
    (
        "leftover",
        "",
        "_ <- try (callCommand \"setsid sleep @SLEEP@ < /dev/null > /dev/null 2>&1 &\") :: IO (Either SomeException ())",
    ),
    (
        "environment",
        "",
        "lookupEnv \"CNF_TEST_SECRET\" >>= maybe (return ()) putStrLn",
    ),
    (
        "malloc-4g",
        "",
        "p <- mallocBytes (4 * 1024 * 1024 * 1024) :: IO (Ptr Word8)\n     fillBytes p 1 (4 * 1024 * 1024 * 1024)",
    ),
    (
        "file-2g",
        "",
        "withBinaryFile \"/tmp/big\" WriteMode (\\h -> mapM_ (const (B.hPut h (B.replicate (1024 * 1024) 65))) [1 .. 2048 :: Int])",
    ),
    (
        "processes-300",
        "",
        "mapM_ (const (spawnProcess \"sleep\" [\"29.631\"])) [1 .. 300 :: Int]",
    ),
];

/// Template Haskell that writes outside at compile time.
const TH_SPLICE: &str = "$(runIO (writeFile \"@OUTSIDE@/th-pwned\" \"pwned\" `catch` (\\e -> const (return ()) (e :: SomeException))) >> return [])\n";

const IMPORTS: &str = "import Control.Exception\nimport System.Environment (lookupEnv)\nimport System.Exit\nimport System.IO\nimport System.Process\nimport Foreign.Marshal.Alloc\nimport Foreign.Marshal.Utils\nimport Foreign.Ptr\nimport Data.Word\nimport qualified Data.ByteString as B\n";

/// The graded class: what the grader printed and what it left behind.
struct Class {
    /// Each student's row in the JSON gradebook.
    rows: serde_json::Value,
    reports: PathBuf,
    outside: PathBuf,
    class: PathBuf,
    fixtures: PathBuf,
    csv: PathBuf,
    connections: usize,
    graded: test_support::Run,
    _tmp: tempfile::TempDir,
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The class, graded once for every test of this file.
fn run() -> Option<&'static Class> {
    static RUN: OnceLock<Option<Class>> = OnceLock::new();
    RUN.get_or_init(|| {
        // Another backend asked for needs no bubblewrap.
        let other_backend =
            std::env::var("CNF_TEST_GRADER_ARGS").is_ok_and(|a| a.contains("--sandbox-backend"));
        let tools: &[Tool] = if other_backend {
            &[Tool::Ghc]
        } else {
            &[Tool::Ghc, Tool::Bwrap]
        };
        if !test_support::require("hostile_submissions", tools) {
            return None;
        }
        Some(grade_class())
    })
    .as_ref()
}

fn grade_class() -> Class {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    // As an instructor is told to (the user backend without Landlock
    // refuses otherwise, naming this chmod): nothing here is other users'.
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let class = root.join("class");
    let outside = root.join("outside");
    let fixtures = root.join("fixtures");
    std::fs::create_dir_all(&outside).unwrap();
    copy_dir(&manifest().join(FIXTURES), &fixtures);
    copy_dir(&manifest().join(SAMPLE), &class.join("correct"));
    let csv = root.join("book.csv");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let sample =
        std::fs::read_to_string(manifest().join(SAMPLE).join("csce322assignment03part01.hs"))
            .unwrap();
    let (head, main) = sample.split_at(sample.find("main = do").unwrap());
    let fill = |text: &str| {
        text.replace("@FIXTURES@", &fixtures.to_string_lossy())
            .replace("@OUTSIDE@", &outside.to_string_lossy())
            .replace("@OTHER@", &class.join("correct").to_string_lossy())
            .replace("@CSV@", &csv.to_string_lossy())
            .replace("@PORT@", &port)
            .replace("@SLEEP@", SLEEP)
    };
    let helper = "takeFileName' :: String -> String\ntakeFileName' p = reverse (drop 4 (takeWhile (/= '/') (reverse p)))\n\n";
    for (name, _, action) in ATTACKS {
        let main = main.replacen(
            "     args <- getArgs\n",
            &format!("     args <- getArgs\n     {}\n", fill(action)),
            1,
        );
        let source = format!(
            "{}{IMPORTS}{}{helper}{main}",
            &head[..head.find("import Helpers").unwrap()],
            &head[head.find("import Helpers").unwrap()..]
        );
        let dir = class.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("csce322assignment03part01.hs"), source).unwrap();
    }
    let th = format!(
        "{{-# LANGUAGE TemplateHaskell #-}}\n{}import Language.Haskell.TH\nimport Control.Exception\n{}\n{}{main}",
        &head[..head.find("import Helpers").unwrap()],
        &head[head.find("import Helpers").unwrap()..],
        fill(TH_SPLICE)
    );
    std::fs::create_dir_all(class.join("template-haskell")).unwrap();
    std::fs::write(
        class.join("template-haskell/csce322assignment03part01.hs"),
        th,
    )
    .unwrap();

    let reports = root.join("reports");
    let graded = grader("submissions")
        .arg(&class)
        .arg(&fixtures)
        .args(["--timeout", "5s", "--format", "json", "--csv"])
        .arg(&csv)
        .arg("--reports")
        .arg(&reports)
        .arg("--cache")
        .arg(root.join("cache"))
        .env("CNF_TEST_SECRET", SECRET)
        .run();
    graded.code(0);
    let mut connections = 0;
    while listener.accept().is_ok() {
        connections += 1;
    }
    let doc: serde_json::Value = serde_json::from_str(&graded.stdout).unwrap();
    Class {
        rows: doc["students"].clone(),
        reports,
        outside,
        class,
        fixtures,
        csv,
        connections,
        graded,
        _tmp: tmp,
    }
}

/// The grader, run the way `CNF_TEST_WRAP` (a program that runs its
/// arguments, e.g. the sandbox crate's `docker-like`) and
/// `CNF_TEST_GRADER_ARGS` (extra flags, split at spaces, e.g.
/// `--sandbox-backend user --no-landlock`) say: `.ci/run` grades the
/// hostile class with bubblewrap, under a Docker-like seccomp filter, and
/// with a bwrap that has only 0.6.1's options.
fn grader(subcommand: &str) -> Cli {
    let bin = env!("CARGO_BIN_EXE_cnf-grader");
    let c = match std::env::var_os("CNF_TEST_WRAP").filter(|w| !w.is_empty()) {
        Some(wrap) => Cli::new(wrap).arg(bin),
        None => Cli::new(bin),
    }
    .arg(subcommand);
    match std::env::var("CNF_TEST_GRADER_ARGS") {
        Ok(extra) => c.args(extra.split_whitespace()),
        Err(_) => c,
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// The row of `student`, and its report.
fn student(run: &Class, name: &str) -> (serde_json::Value, String) {
    let row = run
        .rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["student"] == name)
        .unwrap_or_else(|| panic!("no row for {name}: {}", run.graded.stdout))
        .clone();
    let mut report = String::new();
    std::fs::File::open(run.reports.join(format!("{name}.txt")))
        .unwrap()
        .read_to_string(&mut report)
        .unwrap();
    (row, report)
}

/// Checks the student's part 1 points and that every case was graded.
#[track_caller]
fn scored(run: &Class, name: &str, part1: f64) -> String {
    let (row, report) = student(run, name);
    assert_eq!(row["parts"][0].as_f64(), Some(part1), "{name}:\n{report}");
    // Four compilations and twenty cases.
    assert_eq!(row["cases"].as_u64(), Some(24), "{name}");
    assert!(
        report.contains("PASS   "),
        "{name}: part 1 compiled:\n{report}"
    );
    report
}

#[test]
fn the_correct_student_in_the_same_class_scores_100() {
    let Some(run) = run() else { return };
    let (row, report) = student(run, "correct");
    assert_eq!(row["total"].as_f64(), Some(100.0), "{report}");
}

#[test]
fn reading_the_solution_by_its_sibling_or_absolute_path_fails() {
    let Some(run) = run() else { return };
    for name in ["solution-sibling", "solution-absolute"] {
        let report = scored(run, name, 10.0);
        assert!(report.contains("exited with code 1"), "{name}:\n{report}");
        // Not there (bubblewrap), or there and unreadable (the user
        // backend without Landlock, after the chmod it asks for).
        assert!(
            report.contains("does not exist") || report.contains("permission denied"),
            "{name}:\n{report}"
        );
    }
}

#[test]
fn writing_outside_into_another_student_the_fixtures_or_the_gradebook_fails() {
    let Some(run) = run() else { return };
    scored(run, "write-outside", 20.0);
    assert!(!run.outside.join("pwned").exists());
    let other =
        std::fs::read_to_string(run.class.join("correct/csce322assignment03part01.hs")).unwrap();
    assert!(
        other.contains("onePlayerOneMove"),
        "the other student's file is intact"
    );
    let original = std::fs::read(manifest().join(FIXTURES).join("test03.cnf")).unwrap();
    assert_eq!(
        std::fs::read(run.fixtures.join("test03.cnf")).unwrap(),
        original
    );
    assert!(
        std::fs::read_to_string(&run.csv)
            .unwrap()
            .starts_with("student,")
    );
}

#[test]
fn template_haskell_cannot_write_outside_at_compile_time() {
    let Some(run) = run() else { return };
    scored(run, "template-haskell", 20.0);
    assert!(!run.outside.join("th-pwned").exists());
}

#[test]
fn no_connection_reaches_a_listener_on_the_loopback() {
    let Some(run) = run() else { return };
    scored(run, "loopback", 20.0);
    assert_eq!(run.connections, 0);
}

#[test]
fn no_process_outlives_its_case() {
    let Some(run) = run() else { return };
    scored(run, "leftover", 20.0);
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(&format!("sleep {SLEEP}")))
        .collect();
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn the_graders_environment_is_not_visible() {
    let Some(run) = run() else { return };
    let report = scored(run, "environment", 20.0);
    assert!(!report.contains(SECRET), "{report}");
    run.graded.stdout_lacks(SECRET);
}

#[test]
fn a_4_gib_allocation_fails_inside_the_address_space_limit() {
    let Some(run) = run() else { return };
    let report = scored(run, "malloc-4g", 10.0);
    assert!(report.contains("exited with code 1"), "{report}");
    assert!(report.contains("malloc"), "{report}");
}

#[test]
fn a_2_gib_file_cannot_be_written() {
    let Some(run) = run() else { return };
    let report = scored(run, "file-2g", 10.0);
    // The file-size limit (64 MiB) stops it before the 256 MiB scratch fills.
    assert!(report.contains("SIGXFSZ"), "{report}");
}

#[test]
fn three_hundred_processes_cannot_be_started() {
    let Some(run) = run() else { return };
    let report = scored(run, "processes-300", 10.0);
    assert!(report.contains("exited with code 1"), "{report}");
    assert!(
        report.contains("Resource temporarily unavailable"),
        "{report}"
    );
    std::thread::sleep(Duration::from_millis(100));
    let sleeping = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|c| c == b"sleep\x0029.631\x00")
        .count();
    assert_eq!(sleeping, 0, "the sleeps ended with the case");
}
