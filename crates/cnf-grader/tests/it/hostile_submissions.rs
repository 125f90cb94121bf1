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
const ATTACKS: [(&str, &str, &str); 13] = [
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
    // A colluding pair: the first runs itself, publishes its output in a
    // System V segment open to all (keyed by the input) and leaves it; the
    // second, with no game logic, prints what it finds there.
    (
        "collude-1-publisher",
        "",
        "published <- lookupEnv \"CNF_PUBLISHED\"\n     when (published == Nothing) (do { me <- getExecutablePath; input <- readFile (head args); out <- readCreateProcess ((proc me args) { env = Just [(\"CNF_PUBLISHED\", \"1\")] }) \"\"; r <- try (publish (keyOf input) out); const (return ()) (r :: Either SomeException ()) })",
    ),
    (
        "collude-2-reader",
        "",
        "input <- readFile (head args)\n     found <- try (readPublished (keyOf input)) :: IO (Either SomeException (Maybe String))\n     either (const exitFailure) (maybe exitFailure (\\o -> putStr o >> exitSuccess)) found",
    ),
    // Leaves files in every world-writable folder and System V objects:
    // with util-linux ipcmk (keys of its choosing) four segments of 128
    // MiB it never touches, a semaphore set and a message queue; then four
    // segments of 128 MiB with keys of its own, every page written (512
    // MiB of the host's shared memory, were they made and left).
    (
        "leave-behind",
        "",
        "_ <- try (callCommand \"for d in @SHARED@; do echo x > $d/@MARK@; mkdir $d/@MARK@.d; done; for i in 1 2 3 4; do ipcmk -M 134217728; done; ipcmk -S 1; ipcmk -Q\") :: IO (Either SomeException ())\n     mapM_ (\\i -> try (attach (0x5eed00 + i) 134217728 950 >>= maybe (return ()) (\\p -> fillBytes p 1 134217728)) >>= \\r -> const (return ()) (r :: Either SomeException ())) [1 .. 4]",
    ),
    // Prints every line it can read that names the folder of the class,
    // the fixtures and the grader: every process's command line, its own
    // argv, environment, working folder, /proc/self files, the shared
    // folders and IPC objects.
    (
        "probe",
        "",
        "_ <- try (callCommand \"{ for f in /proc/[0-9]*/cmdline; do tr '\\\\0' ' ' < $f; echo; done; echo \\\"$0 $*\\\"; pwd; env; ls -la . .. /; for f in /proc/self/cmdline /proc/self/environ /proc/self/mountinfo /proc/self/cgroup /proc/self/status; do tr '\\\\0' ' ' < $f; echo; done; ls -la /tmp /var/tmp /dev/shm; ipcs; } 2>/dev/null | grep -E '@WORDS@' | sed 's/^/probe: /'\") :: IO (Either SomeException ())\n     pwd <- getCurrentDirectory\n     putStrLn (\"probe: cwd \" ++ pwd ++ \" argv \" ++ unwords args)\n     exitSuccess",
    ),
];

/// Template Haskell that writes outside at compile time.
const TH_SPLICE: &str = "$(runIO (writeFile \"@OUTSIDE@/th-pwned\" \"pwned\" `catch` (\\e -> const (return ()) (e :: SomeException))) >> return [])\n";

const IMPORTS: &str = "import Control.Exception\nimport Control.Monad (when)\nimport System.Directory (getCurrentDirectory)\nimport System.Environment (lookupEnv, getExecutablePath)\nimport System.Exit\nimport System.IO\nimport System.Process\nimport Foreign.Marshal.Alloc\nimport Foreign.Marshal.Utils\nimport Foreign.Ptr\nimport Foreign.C.Types\nimport Foreign.C.String\nimport Foreign.Storable (pokeByteOff)\nimport Data.Char (ord)\nimport Data.Word\nimport qualified Data.ByteString as B\n";

/// System V shared memory from Haskell, for the colluding pair and the
/// program that leaves objects behind.
const SHM: &str = "foreign import ccall unsafe \"shmget\" c_shmget :: CInt -> CSize -> CInt -> IO CInt\n\
foreign import ccall unsafe \"shmat\" c_shmat :: CInt -> Ptr () -> CInt -> IO (Ptr CChar)\n\
keyOf :: String -> CInt\n\
keyOf s = 0x5000000 + fromIntegral (foldl (\\a c -> (a * 31 + ord c) `mod` 1000003) @SALT@ s)\n\
attach :: CInt -> CSize -> CInt -> IO (Maybe (Ptr CChar))\n\
attach k size flags = do\n  i <- c_shmget k size flags\n  if i < 0 then return Nothing else do\n    p <- c_shmat i nullPtr 0\n    return (if p == nullPtr `plusPtr` (-1) then Nothing else Just p)\n\
publish :: CInt -> String -> IO ()\n\
publish k s = attach k 65536 950 >>= maybe (return ()) (\\p -> withCStringLen s (\\(src, n) -> copyBytes p src n >> pokeByteOff p n (0 :: CChar)))\n\
readPublished :: CInt -> IO (Maybe String)\n\
readPublished k = attach k 0 0 >>= maybe (return Nothing) (fmap Just . peekCString)\n\n";

/// The graded class: what the grader printed and what it left behind.
struct Class {
    /// Each student's row in the JSON gradebook.
    rows: serde_json::Value,
    /// The sandbox that graded them, as the gradebook's provenance says.
    sandbox: String,
    reports: PathBuf,
    outside: PathBuf,
    class: PathBuf,
    fixtures: PathBuf,
    csv: PathBuf,
    connections: usize,
    /// The host's `Shmem` (KiB) before and after grading.
    shmem: (u64, u64),
    /// The System V objects of the sandbox's user ids before and after
    /// grading.
    ipc: (Vec<IpcObject>, Vec<IpcObject>),
    /// Every world-writable folder.
    shared: Vec<PathBuf>,
    /// The folder holding the class, fixtures, reports, and the grader's
    /// working folder.
    root: PathBuf,
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
    let shared: Vec<String> = sandbox::user::world_writable()
        .iter()
        .map(|d| d.to_string_lossy().into_owned())
        .collect();
    let fill = |text: &str| {
        text.replace("@SHARED@", &shared.join(" "))
            .replace("@MARK@", &mark())
            .replace("@WORDS@", &probe_words(&root))
            .replace("@FIXTURES@", &fixtures.to_string_lossy())
            .replace("@OUTSIDE@", &outside.to_string_lossy())
            .replace("@OTHER@", &class.join("correct").to_string_lossy())
            .replace("@CSV@", &csv.to_string_lossy())
            .replace("@PORT@", &port)
            .replace("@SLEEP@", SLEEP)
            .replace("@SALT@", &salt().to_string())
    };
    let helper = fill(&format!(
        "takeFileName' :: String -> String\ntakeFileName' p = reverse (drop 4 (takeWhile (/= '/') (reverse p)))\n\n{SHM}"
    ));
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
    let shmem_before = shmem();
    let ipc_before = sandbox_ipc();
    let graded = grader("submissions")
        .current_dir(&root)
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
    let shmem_after = shmem();
    Class {
        shmem: (shmem_before, shmem_after),
        ipc: (ipc_before, sandbox_ipc()),
        shared: shared.iter().map(PathBuf::from).collect(),
        root: root.clone(),
        rows: doc["students"].clone(),
        sandbox: doc["provenance"]["sandbox"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
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

/// The grader under `CNF_TEST_WRAP` as [`grader`] runs it, but with
/// `--no-sandbox` instead of `CNF_TEST_GRADER_ARGS`.
fn grader_without_sandbox(subcommand: &str) -> Cli {
    let bin = env!("CARGO_BIN_EXE_cnf-grader");
    match std::env::var_os("CNF_TEST_WRAP").filter(|w| !w.is_empty()) {
        Some(wrap) => Cli::new(wrap).arg(bin),
        None => Cli::new(bin),
    }
    .arg(subcommand)
    .arg("--no-sandbox")
}

/// What the colluding pair's keys start from (so that another copy of
/// this test on the machine uses other keys).
fn salt() -> u64 {
    u64::from(std::process::id()) % 1_000_003
}

/// The key the colluding pair gives the output for the game file `text`
/// (`keyOf` in [`SHM`]).
fn key_of(text: &str) -> i64 {
    let h = text
        .chars()
        .fold(salt(), |a, c| (a * 31 + u64::from(c)) % 1_000_003);
    0x500_0000 + h as i64
}

/// The colluding pair graded without the sandbox, one after the other
/// (the publisher's class, then the reader's), under the same wrapper:
/// the reader's part 1 points, and how many segments the publisher left
/// (removed here).
fn collusion_without_the_sandbox(run: &Class) -> (Option<f64>, usize) {
    let root = run.root.join("no-sandbox");
    let mut reader = None;
    for name in ["collude-1-publisher", "collude-2-reader"] {
        let class = root.join(name);
        copy_dir(&run.class.join(name), &class.join(name));
        let graded = grader_without_sandbox("submissions")
            .current_dir(&run.root)
            .arg(&class)
            .arg(&run.fixtures)
            .args(["--timeout", "5s", "--format", "json", "--cache"])
            .arg(root.join(format!("cache-{name}")))
            .run();
        graded.code(0);
        let doc: serde_json::Value = serde_json::from_str(&graded.stdout).unwrap();
        reader = doc["students"][0]["parts"][0].as_f64();
    }
    // The segments the publisher left: one per game file it was run on.
    let keys: Vec<i64> = std::fs::read_dir(&run.fixtures)
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .map(|text| key_of(&text))
        .collect();
    let text = std::fs::read_to_string("/proc/sysvipc/shm").unwrap();
    let mut left = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if keys.contains(&f[0].parse().unwrap()) {
            left += 1;
            let _ = std::process::Command::new("ipcrm")
                .args(["-m", f[1]])
                .status();
        }
    }
    (reader, left)
}

/// The name the leave-behind student gives what it leaves.
fn mark() -> String {
    format!("cnf-left-{}", std::process::id())
}

/// What the probe looks for: the test's folder (class, fixtures, reports,
/// the grader's working folder). Other words (`fixtures`, `class`) would
/// find other processes on a shared machine, which the user backend
/// without Landlock shows.
fn probe_words(root: &Path) -> String {
    // Written so that the probe's own command line does not match it.
    root.display().to_string().replace('/', "[/]")
}

/// A System V object: its kind and id, and its line of /proc/sysvipc.
type IpcObject = (String, String);

/// Every System V object (segment, semaphore set, message queue: its kind
/// and id, and its line of /proc/sysvipc/KIND) whose owner or creator is
/// one of the user ids the grader's sandbox runs as (the default
/// `--sandbox-uid` and the ids after it, which no account uses), whatever
/// its key.
fn sandbox_ipc() -> Vec<IpcObject> {
    let range = sandbox::DEFAULT_UID..sandbox::DEFAULT_UID + sandbox::UID_RANGE;
    let mut out = Vec::new();
    // The columns of the owner's and the creator's uid.
    for (kind, uid_at, cuid_at) in [("shm", 7, 9), ("sem", 4, 6), ("msg", 7, 9)] {
        let text = std::fs::read_to_string(format!("/proc/sysvipc/{kind}")).unwrap();
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
        assert_eq!(
            (head[uid_at], head[cuid_at]),
            ("uid", "cuid"),
            "/proc/sysvipc/{kind}"
        );
        for line in lines {
            let f: Vec<&str> = line.split_whitespace().collect();
            let of = |i: usize| f[i].parse::<u32>().unwrap();
            if range.contains(&of(uid_at)) || range.contains(&of(cuid_at)) {
                out.push((format!("{kind} {}", f[1]), line.to_owned()));
            }
        }
    }
    out
}

/// The host's shared memory (`Shmem` of /proc/meminfo), in KiB.
fn shmem() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Shmem:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
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
    // The file-size limit (64 MiB) stops it before the 256 MiB scratch
    // fills; the user backend with Landlock lets it write nowhere but its
    // scratch, so the host's /tmp is refused first.
    assert!(
        report.contains("SIGXFSZ")
            || report.contains("/tmp/big: openBinaryFile: permission denied"),
        "{report}"
    );
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

#[test]
fn a_student_who_reads_what_another_published_gets_only_its_compilation_points() {
    let Some(run) = run() else { return };
    // The publisher is the correct program: all of part 1.
    scored(run, "collude-1-publisher", 20.0);
    let report = scored(run, "collude-2-reader", 10.0);
    assert!(report.contains("exited with code 1"), "{report}");
    // Without the sandbox the same pair works: the reader finds every
    // output the publisher left and scores all of part 1, so 10 above
    // means the sandbox stopped it, not a pair that never worked.
    let (reader, left) = collusion_without_the_sandbox(run);
    assert!(
        left > 0,
        "the publisher published nothing without the sandbox"
    );
    assert_eq!(reader, Some(20.0), "the reader without the sandbox");
}

#[test]
fn nothing_a_run_leaves_in_shared_folders_or_ipc_outlives_it() {
    let Some(run) = run() else { return };
    scored(run, "leave-behind", 20.0);
    for dir in &run.shared {
        for name in [mark(), format!("{}.d", mark())] {
            assert!(
                !dir.join(&name).exists(),
                "{} was left behind",
                dir.join(&name).display()
            );
        }
    }
    // No System V object of any of the sandbox's user ids, whatever its
    // key (ipcmk's are random), that was not there before grading; and
    // none, whoever owns it, with the keys the program chose.
    let (before, after) = &run.ipc;
    let new: Vec<&String> = after
        .iter()
        .filter(|(id, _)| !before.iter().any(|(old, _)| old == id))
        .map(|(_, line)| line)
        .collect();
    assert!(new.is_empty(), "left: {new:?}");
    for kind in ["shm", "sem", "msg"] {
        let text = std::fs::read_to_string(format!("/proc/sysvipc/{kind}")).unwrap();
        for line in text.lines().skip(1) {
            let key: i64 = line.split_whitespace().next().unwrap().parse().unwrap();
            assert!(
                !(0x5eed01..=0x5eed04).contains(&key),
                "{kind} object left: {line}"
            );
        }
    }
    // The four segments it fills (512 MiB) would show in the host's
    // Shmem had they been made and left; 64 MiB allows for the machine's
    // other work. (ipcmk's untouched segments hold no memory: the check
    // above finds those.)
    let (before, after) = run.shmem;
    assert!(
        after < before + 64 * 1024,
        "Shmem grew from {before} KiB to {after} KiB"
    );
}

#[test]
fn a_probe_finds_no_path_of_the_class_the_fixtures_or_the_grader() {
    let Some(run) = run() else { return };
    let (_, report) = student(run, "probe");
    // It ran and printed what it found (its working folder and argv at
    // least); nothing it printed names the folder of the class, the
    // fixtures, the reports and the grader's working folder.
    assert!(report.contains("probe: cwd "), "{report}");
    let root = run.root.to_string_lossy();
    let printed = report
        .lines()
        .filter(|l| l.trim_start_matches(['+', '-', ' ']).starts_with("probe: "));
    for line in printed {
        assert!(!line.contains(&*root), "the probe saw: {line}\n{report}");
    }
}

/// The class was graded in a sandbox, and in the one the stage of `.ci/run`
/// grading it asks for in `CNF_TEST_EXPECT_SANDBOX`, so a backend that
/// falls back to another one fails the stage instead of testing something
/// else. The variable holds what the provenance's `sandbox` says before
/// its first `,` or `;`, with a Landlock ABI's number left out: e.g.
/// `bubblewrap 0.8.0`, `bubblewrap 0.6.1`, `user`, `user + landlock`.
#[test]
fn the_class_is_graded_by_the_sandbox_the_stage_asks_for() {
    let Some(run) = run() else { return };
    let head = run.sandbox.split([',', ';']).next().unwrap_or("").trim();
    let head = head.split(" ABI ").next().unwrap_or(head);
    assert!(
        !["", "off", "in-process"].contains(&head),
        "graded without a sandbox: {:?}",
        run.sandbox
    );
    if let Ok(expected) = std::env::var("CNF_TEST_EXPECT_SANDBOX") {
        assert_eq!(
            head,
            expected.trim(),
            "the provenance says {:?}",
            run.sandbox
        );
    }
}
