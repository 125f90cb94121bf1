//! A class built to attack the grader's reading of submissions and its
//! showing of what students control, graded through the CLI next to a
//! `victim` whose files must stay unchanged and who must score 100.
//!
//! The attacks (each student is named after its attack):
//! - `th-fixtures`: every fixture file linked into the folder as
//!   `Fx_NAME.hs`, and four parts whose Template Haskell reads those links
//!   at compile time into a table of games and results: a full score
//!   without game logic, hidden tests included, if links are followed;
//! - `helpers-link`: `Helpers.hs` linked to a root-only file, whose first
//!   line GHC's parse error would quote;
//! - `proc-links`: `Environ.hs` → `/proc/self/environ` (the grader's
//!   environment), `Cmdline.hs` → `/proc/self/cmdline`, and part 2 linked
//!   to the victim's part 2 (another student's source);
//! - `kmsg`: `Log.hs` → `/proc/kmsg`, whose read blocks for ever;
//! - `sparse`: `Huge.hs` and `thesis.pdf`, sparse files of 3 GiB (nothing
//!   on disk), and part 4 over the 1 MiB `--max-source`;
//! - `fifo`: part 3 is a named pipe, and `Pipe.hs` too;
//! - `latin1`: a stray file named `Caf\xe9.hs` (not UTF-8), correct parts;
//! - `escapes`: part 1 writes a clipboard write (OSC 52), a window title,
//!   clear-screen and an OSC 8 link to standard error, and a title to
//!   standard output; part 2 holds those bytes raw in a string literal, so
//!   GHC's error quotes them; a file whose name holds a title escape and
//!   looks like a misnamed part 4;
//! - folders named with a title escape and a right-to-left override, and
//!   with spreadsheet formulas (`=HYPERLINK(…)`, `+cmd|…`, `@SUM(…)`,
//!   `-2+3…`), and a roster whose names and ids are formulas and escapes;
//! - `linked`: a student folder that is a link to the victim's;
//! - `nested`: a correct submission one folder down (`nested/inner/`).
//!
//! What must hold: the victim scores 100 and its files are unchanged; no
//! secret (the root-only file, the environment, the command line) appears
//! in any output; no raw control character or bidirectional override
//! reaches any output (the gradebook table, JSON, CSV, the `--reports`
//! files, the HTML pages, and each `submission` format); no CSV cell from
//! outside starts a formula; the class ends in bounded time; and the
//! grader's own peak memory (VmHWM) stays in megabytes.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use test_support::{Cli, Tool};

const SAMPLE: &str = "tests/submissions/class/correct";
const FIXTURES: &str = "tests/submissions/fixtures";
const ROOT_SECRET: &str = "rootonly_4d1f9a = \"the first line of a root-only file\"";
const ENV_SECRET: &str = "envtoken-a83c11f2";
const CMDLINE_TOKEN: &str = "cmdtoken-5e7b02";
/// Longest a run of the whole hostile class may take (it has no loop, so
/// it takes a minute or two; a blocked read would take for ever).
const CLASS_LIMIT: Duration = Duration::from_secs(20 * 60);
/// Most memory the grader itself may reach (it read 3 GiB before).
const RSS_LIMIT_KIB: u64 = 256 << 10;

const FUNCTIONS: [&str; 4] = [
    "onePlayerOneMove",
    "onePlayerManyMoves",
    "manyPlayersOneMove",
    "manyPlayersManyMoves",
];

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn part_file(part: usize) -> String {
    format!("csce322assignment03part{part:02}.hs")
}

/// The sample's correct sources, copied into `dir`.
fn correct(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for part in 1..=4 {
        std::fs::copy(
            manifest().join(SAMPLE).join(part_file(part)),
            dir.join(part_file(part)),
        )
        .unwrap();
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

/// Every file under `dir` (links not followed) with its bytes and its
/// modification time.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let meta = entry.path().symlink_metadata().unwrap();
        if meta.is_dir() {
            out.extend(snapshot(&entry.path()));
        } else {
            let bytes = std::fs::read(entry.path()).unwrap();
            out.insert(entry.path(), (bytes, meta.modified().unwrap()));
        }
    }
    out
}

/// Part `part` of a cheat that reads every `Fx_*` file of its folder at
/// compile time and prints the result stored for the game it is given.
fn template_haskell_cheat(function: &str) -> String {
    format!(
        r#"{{-# LANGUAGE TemplateHaskell #-}}
import Language.Haskell.TH.Syntax (lift, runIO)
import System.Directory (listDirectory)
import System.Environment (getArgs)
import Data.List (isPrefixOf, isSuffixOf, sort)

table :: [(String, String)]
table = $(runIO (do
    names <- listDirectory "."
    let mine = sort [n | n <- names, "Fx_" `isPrefixOf` n]
    texts <- mapM readFile mine
    return (zip mine texts)) >>= lift)

main :: IO ()
main = do
  args <- getArgs
  input <- readFile (head args)
  let games = [take (length n - 7) n | (n, t) <- table, t == input, ".cnf.hs" `isSuffixOf` n]
  case games of
    (g:_) -> maybe (return ()) putStr (lookup (g ++ ".{function}.solution.hs") table)
    [] -> return ()
"#
    )
}

/// Escapes meant for a terminal: a clipboard write, a title, clear
/// screen, a link, a right-to-left override (as Haskell string text).
const TERMINAL_ATTACK: &str = r#"\ESC]52;c;cHduZWQ=\a\ESC]0;pwned-title\a\ESC[2J\ESC[3J\ESC]8;;https://evil.example/\aclick\ESC]8;;\a\x202e"#;

struct Class {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    class: PathBuf,
    fixtures: PathBuf,
    roster: PathBuf,
    cache: PathBuf,
}

fn build_class() -> Class {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let class = root.join("class");
    let fixtures = root.join("fixtures");
    copy_tree(&manifest().join(FIXTURES), &fixtures);
    // A hidden game, which no student may pass by reading it.
    std::fs::create_dir_all(fixtures.join("hidden")).unwrap();
    for entry in std::fs::read_dir(&fixtures).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(rest) = name.strip_prefix("test03.") {
            std::fs::copy(
                entry.path(),
                fixtures.join("hidden").join(format!("late03.{rest}")),
            )
            .unwrap();
        }
    }
    let secret = root.join("root-only.txt");
    std::fs::write(&secret, format!("{ROOT_SECRET}\nsecond line\n")).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = |target: &Path, at: &Path| std::os::unix::fs::symlink(target, at).unwrap();

    let victim = class.join("victim");
    correct(&victim);

    let th = class.join("th-fixtures");
    std::fs::create_dir_all(&th).unwrap();
    fn fixture_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            if entry.path().is_dir() {
                fixture_files(&entry.path(), out);
            } else {
                out.push(entry.path());
            }
        }
    }
    let mut files = Vec::new();
    fixture_files(&fixtures, &mut files);
    for file in files {
        let rel = file
            .strip_prefix(&fixtures)
            .unwrap()
            .to_string_lossy()
            .replace('/', "_");
        link(&file, &th.join(format!("Fx_{rel}.hs")));
    }
    for (i, function) in FUNCTIONS.iter().enumerate() {
        std::fs::write(th.join(part_file(i + 1)), template_haskell_cheat(function)).unwrap();
    }

    let helpers = class.join("helpers-link");
    correct(&helpers);
    link(&secret, &helpers.join("Helpers.hs"));

    let proc_links = class.join("proc-links");
    correct(&proc_links);
    link(
        Path::new("/proc/self/environ"),
        &proc_links.join("Environ.hs"),
    );
    link(
        Path::new("/proc/self/cmdline"),
        &proc_links.join("Cmdline.hs"),
    );
    std::fs::remove_file(proc_links.join(part_file(2))).unwrap();
    link(&victim.join(part_file(2)), &proc_links.join(part_file(2)));

    let kmsg = class.join("kmsg");
    correct(&kmsg);
    link(Path::new("/proc/kmsg"), &kmsg.join("Log.hs"));

    let sparse = class.join("sparse");
    correct(&sparse);
    for name in ["Huge.hs", "thesis.pdf"] {
        std::fs::File::create(sparse.join(name))
            .unwrap()
            .set_len(3 << 30)
            .unwrap();
    }
    let mut part4 = std::fs::read(sparse.join(part_file(4))).unwrap();
    part4.extend(std::iter::repeat_n(b'\n', (1 << 20) + 1));
    std::fs::write(sparse.join(part_file(4)), part4).unwrap();

    let fifo = class.join("fifo");
    correct(&fifo);
    std::fs::remove_file(fifo.join(part_file(3))).unwrap();
    for name in [part_file(3), "Pipe.hs".to_owned()] {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            fifo.join(name),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
    }

    let latin1 = class.join("latin1");
    correct(&latin1);
    std::fs::write(
        latin1.join(std::ffi::OsStr::from_bytes(b"Caf\xe9.hs")),
        "-- notes\n",
    )
    .unwrap();

    let escapes = class.join("escapes");
    correct(&escapes);
    let part1 = std::fs::read_to_string(escapes.join(part_file(1)))
        .unwrap()
        .replacen("import Helpers\n", "import Helpers\nimport System.IO\n", 1)
        .replacen(
            "     print \"Result\"\n",
            &format!(
                "     hPutStr stderr \"{TERMINAL_ATTACK}\\n\"\n     putStr \"\\ESC]0;stdout-title\\a\"\n     print \"Result\"\n"
            ),
            1,
        );
    std::fs::write(escapes.join(part_file(1)), part1).unwrap();
    let mut part2 = std::fs::read(escapes.join(part_file(2))).unwrap();
    part2.extend_from_slice(b"\nbroken = \"\x1b]0;ghc-title\x07\x1b[2J\xe2\x80\xae\" + 1\n");
    std::fs::write(escapes.join(part_file(2)), part2).unwrap();
    std::fs::rename(
        escapes.join(part_file(4)),
        escapes.join("\u{1b}]0;name-title\u{7}csce322assignment03Part04.hs"),
    )
    .unwrap();

    for name in [
        "\u{1b}]0;folder-title\u{7}\u{1b}[2J\u{202e}gnp.exe",
        "=HYPERLINK(\"https:evil.example\",\"grades\")",
        "+cmd|' -C calc'!A0",
        "@SUM(1+1)*cmd|' -C calc'!A0",
        "-2+3+cmd|' -C calc'!A0",
    ] {
        correct(&class.join(name));
    }
    link(&victim, &class.join("linked"));
    correct(&class.join("nested/inner"));

    let roster = root.join("roster.csv");
    let mut r = std::fs::File::create(&roster).unwrap();
    writeln!(r, "folder,name,id").unwrap();
    writeln!(r, "victim,\"=HYPERLINK(\"\"https:x\"\",\"\"y\"\")\",@1").unwrap();
    writeln!(r, "escapes,\"Ann\u{1b}]0;roster-title\u{7}\u{202e}\",+42").unwrap();
    writeln!(r, "latin1,\"-1+cmd|' -C calc'!A0\",-7").unwrap();
    drop(r);
    Class {
        _tmp: tmp,
        // Its name puts a token on the grader's command line.
        cache: root.join(format!("cache-{CMDLINE_TOKEN}")),
        root,
        class,
        fixtures,
        roster,
    }
}

/// The grader with `args`, with the secrets in its environment and
/// command line; its run records the grader's own peak memory (VmHWM).
fn grader(class: &Class, args: &[&std::ffi::OsStr]) -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .args(args)
        .arg("--cache")
        .arg(&class.cache)
        .args(["--timeout", "5s"])
        .env("CNF_TEST_SECRET", ENV_SECRET)
        .env("NO_COLOR", "1")
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// Every output of the class: (what it is, its bytes).
struct Outputs {
    class: Class,
    all: Vec<(String, Vec<u8>)>,
    json: serde_json::Value,
    csv: String,
    canvas: String,
    reports: PathBuf,
    victim_before: BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)>,
    first: (u64, Duration),
}

fn outputs() -> Option<&'static Outputs> {
    static OUT: OnceLock<Option<Outputs>> = OnceLock::new();
    OUT.get_or_init(|| {
        if !test_support::require("hostile_data", &[Tool::Ghc, Tool::Bwrap]) {
            return None;
        }
        Some(grade())
    })
    .as_ref()
}

fn grade() -> Outputs {
    let class = build_class();
    let victim_before = snapshot(&class.class.join("victim"));
    let (reports, html, csv, canvas) = (
        class.root.join("reports"),
        class.root.join("html"),
        class.root.join("book.csv"),
        class.root.join("canvas.csv"),
    );
    let mut all = Vec::new();
    // The whole class, as JSON with every file output.
    let first = grader(
        &class,
        &[
            os("submissions"),
            class.class.as_os_str(),
            class.fixtures.as_os_str(),
            os("--format"),
            os("json"),
            os("--roster"),
            class.roster.as_os_str(),
            os("--csv"),
            csv.as_os_str(),
            os("--reports"),
            reports.as_os_str(),
            os("--html"),
            html.as_os_str(),
        ],
    )
    .timeout(CLASS_LIMIT)
    .run();
    // Exit 1: the linked folder could not be graded.
    first.code(1);
    let json: serde_json::Value = serde_json::from_slice(&first.stdout_bytes).unwrap();
    all.push(("class json".to_owned(), first.stdout_bytes.clone()));
    all.push(("class stderr".to_owned(), first.stderr_bytes.clone()));
    // Again, restored from the saved results: the table and Canvas's CSV.
    let table = grader(
        &class,
        &[
            os("submissions"),
            class.class.as_os_str(),
            class.fixtures.as_os_str(),
            os("--resume"),
            os("--roster"),
            class.roster.as_os_str(),
            os("--csv"),
            canvas.as_os_str(),
            os("--csv-layout"),
            os("canvas"),
        ],
    )
    .timeout(CLASS_LIMIT)
    .run();
    all.push(("class table".to_owned(), table.stdout_bytes));
    all.push(("canvas stderr".to_owned(), table.stderr_bytes));
    // One student in every format (compiled parts come from the cache),
    // the runs two at a time: each waits mostly on its sandboxes.
    let runs: Vec<(&str, &str)> = ["escapes", "th-fixtures", "proc-links", "helpers-link"]
        .into_iter()
        .flat_map(|student| {
            ["human", "json", "junit", "gradescope", "html"].map(|format| (student, format))
        })
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, test_support::Run)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        let Some(&(student, format)) = runs.get(i) else {
                            return mine;
                        };
                        let ran = grader(
                            &class,
                            &[
                                os("submission"),
                                class.class.join(student).as_os_str(),
                                class.fixtures.as_os_str(),
                                os("--format"),
                                os(format),
                                os("--no-times"),
                            ],
                        )
                        .timeout(CLASS_LIMIT)
                        .run();
                        mine.push((i, ran));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    for (i, ran) in done {
        let (student, format) = runs[i];
        all.push((format!("{student} {format}"), ran.stdout_bytes));
        all.push((format!("{student} {format} stderr"), ran.stderr_bytes));
    }
    for dir in [&reports, &html] {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            all.push((
                entry.path().display().to_string(),
                std::fs::read(entry.path()).unwrap(),
            ));
        }
    }
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    let canvas_text = std::fs::read_to_string(&canvas).unwrap();
    all.push(("csv".to_owned(), csv_text.clone().into_bytes()));
    all.push(("canvas csv".to_owned(), canvas_text.clone().into_bytes()));
    Outputs {
        class,
        all,
        json,
        csv: csv_text,
        canvas: canvas_text,
        reports,
        victim_before,
        first: (first.peak_kib, first.elapsed),
    }
}

fn row<'a>(out: &'a Outputs, student: &str) -> &'a serde_json::Value {
    out.json["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["student"] == student)
        .unwrap_or_else(|| panic!("no row for {student:?}: {}", out.json))
}

fn report(out: &Outputs, student: &str) -> String {
    std::fs::read_to_string(out.reports.join(format!("{student}.txt"))).unwrap()
}

#[track_caller]
fn parts(out: &Outputs, student: &str, expected: [f64; 4]) {
    let row = row(out, student);
    let got: Vec<f64> = (0..4).map(|i| row["parts"][i].as_f64().unwrap()).collect();
    assert_eq!(got, expected, "{student}: {row}\n{}", report(out, student));
}

#[test]
fn the_victim_scores_100_and_its_files_are_unchanged() {
    let Some(out) = outputs() else { return };
    parts(out, "victim", [20.0, 20.0, 30.0, 30.0]);
    assert_eq!(snapshot(&out.class.class.join("victim")), out.victim_before);
}

#[test]
fn links_to_the_fixtures_give_template_haskell_nothing() {
    let Some(out) = outputs() else { return };
    // Each part compiles (10 points) and fails every case, hidden ones too.
    parts(out, "th-fixtures", [10.0, 10.0, 10.0, 10.0]);
    let text = report(out, "th-fixtures");
    assert!(
        text.contains("not read: Fx_test03.onePlayerOneMove.solution.hs is a symbolic link; links are not followed"),
        "{text}"
    );
}

#[test]
fn a_linked_helpers_file_is_not_read_and_the_default_is_used() {
    let Some(out) = outputs() else { return };
    parts(out, "helpers-link", [20.0, 20.0, 30.0, 30.0]);
    let text = report(out, "helpers-link");
    assert!(text.contains("the default Helpers.hs"), "{text}");
    assert!(
        text.contains("not read: Helpers.hs is a symbolic link; links are not followed (the default Helpers.hs was used)"),
        "{text}"
    );
}

#[test]
fn links_to_proc_and_to_another_student_are_not_submitted() {
    let Some(out) = outputs() else { return };
    parts(out, "proc-links", [20.0, 0.0, 30.0, 30.0]);
    let text = report(out, "proc-links");
    assert!(
        text.contains("compile: not submitted: csce322assignment03part02.hs is a symbolic link; links are not followed (part 2 scores 0)"),
        "{text}"
    );
    assert!(!text.contains("has no"), "{text}");
    let notes = row(out, "proc-links")["notes"].to_string();
    assert!(
        notes.contains("part 2 not submitted (a symbolic link)"),
        "{notes}"
    );
    assert!(
        notes.contains("not read: Environ.hs (a symbolic link)"),
        "{notes}"
    );
}

#[test]
fn proc_kmsg_does_not_stop_the_class_and_the_class_ends_in_bounded_time() {
    let Some(out) = outputs() else { return };
    parts(out, "kmsg", [20.0, 20.0, 30.0, 30.0]);
    assert!(report(out, "kmsg").contains("not read: Log.hs is a symbolic link"));
    let (peak, took) = out.first;
    // Past the harness's capture, so the figures show in a passing run.
    let _ = writeln!(
        std::io::stderr(),
        "hostile_data: the class took {took:.1?}, the grader's peak memory (VmHWM) {} MiB",
        peak / 1024
    );
    assert!(took < CLASS_LIMIT);
}

#[test]
fn huge_sparse_files_are_never_read_and_the_grader_stays_small() {
    let Some(out) = outputs() else { return };
    // Part 4 is over --max-source: not compiled, 0 points.
    parts(out, "sparse", [20.0, 20.0, 30.0, 0.0]);
    let text = report(out, "sparse");
    assert!(
        text.contains("not read: Huge.hs is 3 GiB, over the 1 MiB limit of a source file (--max-source); it was not read"),
        "{text}"
    );
    assert!(
        text.contains(
            "not submitted: csce322assignment03part04.hs is 1.0 MiB, over the 1 MiB limit"
        ),
        "{text}"
    );
    let (peak, _) = out.first;
    assert!(peak > 0, "VmHWM was read");
    assert!(
        peak < RSS_LIMIT_KIB,
        "the grader reached {} MiB",
        peak / 1024
    );
}

#[test]
fn fifos_are_not_read_and_do_not_block() {
    let Some(out) = outputs() else { return };
    parts(out, "fifo", [20.0, 20.0, 0.0, 30.0]);
    let text = report(out, "fifo");
    assert!(
        text.contains("csce322assignment03part03.hs is a named pipe (FIFO), not a file"),
        "{text}"
    );
    assert!(text.contains("not read: Pipe.hs is a named pipe"), "{text}");
}

#[test]
fn a_name_that_is_not_utf8_is_listed_and_the_rest_is_graded() {
    let Some(out) = outputs() else { return };
    parts(out, "latin1", [20.0, 20.0, 30.0, 30.0]);
    let text = report(out, "latin1");
    assert!(
        text.contains("not read: Caf\\xe9.hs: the name is not UTF-8; the file was ignored"),
        "{text}"
    );
}

#[test]
fn a_linked_student_folder_is_not_followed() {
    let Some(out) = outputs() else { return };
    let row = row(out, "linked");
    assert_eq!(row["total"], 0.0);
    assert_eq!(
        row["error"],
        "linked is a symbolic link; links are not followed"
    );
}

#[test]
fn a_submission_one_folder_down_is_graded_from_there() {
    let Some(out) = outputs() else { return };
    parts(out, "nested", [20.0, 20.0, 30.0, 30.0]);
    assert!(
        row(out, "nested")["notes"]
            .to_string()
            .contains("graded from inner")
    );
    assert!(
        report(out, "nested")
            .contains("the part files are in the sub-folder inner, which was graded"),
    );
}

#[test]
fn escapes_are_shown_escaped_where_they_are_reported() {
    let Some(out) = outputs() else { return };
    let text = report(out, "escapes");
    // Standard error, GHC's quote of the source line, the misnamed file.
    assert!(
        text.contains("  | \\u{1b}]52;c;cHduZWQ=\\u{7}\\u{1b}]0;pwned-title\\u{7}\\u{1b}[2J"),
        "{text}"
    );
    assert!(
        text.contains("\\u{1b}]0;ghc-title\\u{7}\\u{1b}[2J\\u{202e}"),
        "{text}"
    );
    assert!(
        text.contains("it has \\u{1b}]0;name-title\\u{7}csce322assignment03Part04.hs, but the file must be named exactly"),
        "{text}"
    );
    // The folder named with escapes has a row, its name escaped.
    let name = "\\u{1b}]0;folder-title\\u{7}\\u{1b}[2J\\u{202e}gnp.exe";
    assert_eq!(row(out, name)["total"], 100.0);
    assert!(out.reports.join(format!("{name}.txt")).is_file());
}

#[test]
fn no_secret_reaches_any_output() {
    let Some(out) = outputs() else { return };
    for (what, bytes) in &out.all {
        let text = String::from_utf8_lossy(bytes);
        for secret in [ROOT_SECRET, "rootonly_4d1f9a", ENV_SECRET, CMDLINE_TOKEN] {
            assert!(!text.contains(secret), "{what} holds {secret:?}:\n{text}");
        }
    }
}

#[test]
fn no_raw_control_character_reaches_any_output() {
    let Some(out) = outputs() else { return };
    assert!(out.all.len() > 40, "every output was collected");
    for (what, bytes) in &out.all {
        let text =
            String::from_utf8(bytes.clone()).unwrap_or_else(|e| panic!("{what} is not UTF-8: {e}"));
        if let Some(c) = text
            .chars()
            .find(|&c| cnf_grader::escape::needs_escape(c) && c != '\n' && c != '\t')
        {
            panic!("{what} holds {c:?}:\n{text}");
        }
    }
}

#[test]
fn no_csv_cell_from_outside_starts_a_formula() {
    let Some(out) = outputs() else { return };
    for text in [&out.csv, &out.canvas] {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut cells = 0;
        for record in reader.records() {
            for cell in record.unwrap().iter() {
                cells += 1;
                // The grader's own numbers are never negative.
                let number = cell.parse::<f64>().is_ok_and(|n| n >= 0.0);
                assert!(
                    number || !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "{cell:?} in\n{text}"
                );
            }
        }
        assert!(cells > 20);
    }
    for neutralised in [
        "'=HYPERLINK(\"\"https:evil.example\"\",\"\"grades\"\")",
        "'+cmd|' -C calc'!A0",
        "'@SUM(1+1)*cmd|' -C calc'!A0",
        "'-2+3+cmd|' -C calc'!A0",
        "'=HYPERLINK(\"\"https:x\"\",\"\"y\"\")",
        "'@1",
    ] {
        assert!(
            out.csv.contains(neutralised),
            "{neutralised} in\n{}",
            out.csv
        );
    }
    assert!(
        out.canvas.contains("'-1+cmd|' -C calc'!A0,,'-7"),
        "{}",
        out.canvas
    );
}

/// A student whose four parts never finish compiling (Template Haskell
/// that sleeps) costs the class four compile time limits, and the report
/// says which parts hit it.
#[test]
fn four_parts_past_the_compile_limit_cost_four_limits_and_are_named() {
    if !test_support::require(
        "four_parts_past_the_compile_limit_cost_four_limits_and_are_named",
        &[Tool::Ghc, Tool::Bwrap],
    ) {
        return;
    }
    let class = build_class();
    let slow = class.root.join("slow");
    std::fs::create_dir_all(&slow).unwrap();
    for part in 1..=4 {
        std::fs::write(
            slow.join(part_file(part)),
            "{-# LANGUAGE TemplateHaskell #-}\nimport Control.Concurrent (threadDelay)\n\
             import Language.Haskell.TH.Syntax (runIO)\n\
             $(runIO (threadDelay 600000000) >> return [])\nmain :: IO ()\nmain = return ()\n",
        )
        .unwrap();
    }
    let limit: u32 = 3;
    let ran = grader(
        &class,
        &[
            os("submission"),
            slow.as_os_str(),
            class.fixtures.as_os_str(),
            os("--compile-timeout"),
            os(&format!("{limit}s")),
            os("--format"),
            os("json"),
        ],
    )
    .timeout(Duration::from_secs(600))
    .run();
    ran.code(1);
    let doc: serde_json::Value = serde_json::from_slice(&ran.stdout_bytes).unwrap();
    let compiles: Vec<&serde_json::Value> = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["function"] == "compile")
        .collect();
    assert_eq!(compiles.len(), 4);
    for (i, case) in compiles.iter().enumerate() {
        assert_eq!(
            case["reason"],
            format!(
                "did not compile: GHC ran past the {limit}s compile time limit and was killed (part {} scores 0)",
                i + 1
            )
        );
        // Killed at the limit (plus the time to stop the sandbox), never later.
        let ms = case["duration_ms"].as_f64().unwrap();
        assert!(ms < f64::from(limit) * 1000.0 + 5000.0, "{case}");
    }
    // In a class, the gradebook's notes name each part.
    let lone = class.root.join("lone");
    std::fs::create_dir_all(&lone).unwrap();
    std::fs::rename(&slow, lone.join("slow")).unwrap();
    let ran = grader(
        &class,
        &[
            os("submissions"),
            lone.as_os_str(),
            class.fixtures.as_os_str(),
            os("--compile-timeout"),
            os(&format!("{limit}s")),
            os("--jobs"),
            os("1"),
            os("--format"),
            os("json"),
        ],
    )
    .timeout(Duration::from_secs(600))
    .run();
    let doc: serde_json::Value = serde_json::from_slice(&ran.stdout_bytes).unwrap();
    let notes = doc["students"][0]["notes"].to_string();
    for part in 1..=4 {
        assert!(
            notes.contains(&format!("part {part} did not compile: compile timed out")),
            "{notes}"
        );
    }
    // One after the other (--jobs 1): four limits and the kills, no more.
    assert!(
        ran.elapsed < Duration::from_secs(u64::from(4 * (limit + 5) + 30)),
        "{:?}",
        ran.elapsed
    );
}

/// `--ghc` naming a program that is not GHC says what came back.
#[test]
fn a_ghc_that_prints_no_version_says_what_it_printed() {
    if !test_support::require(
        "a_ghc_that_prints_no_version_says_what_it_printed",
        &[Tool::Bwrap],
    ) {
        return;
    }
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
        .current_dir(manifest())
        .args(["submission", SAMPLE, FIXTURES, "--ghc", "/usr/bin/true"])
        .run()
        .code(2)
        .stderr_is(
            "error: `/usr/bin/true --numeric-version` exited 0 and printed nothing, where GHC prints \
             its version (such as 9.0.2); is it GHC?\n",
        );
}
