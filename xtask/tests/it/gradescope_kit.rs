//! `cargo xtask gradescope-kit`: a fresh zip holding exactly the kit's
//! files, whatever an older zip at the same place held.

use std::fs;
use std::io::Read as _;
use std::path::Path;

use test_support::Cli;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// `cargo xtask gradescope-kit`.
fn kit() -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_xtask")).arg("gradescope-kit")
}

/// `--fixtures FX --out OUT --grader GRADER`.
fn make(fx: &Path, out: &Path, grader: &Path) -> Cli {
    kit()
        .arg("--fixtures")
        .arg(fx)
        .arg("--out")
        .arg(out)
        .arg("--grader")
        .arg(grader)
}

/// The zip's entries: (name, unix mode, contents), in the zip's order.
fn listing(zip: &Path) -> Vec<(String, u32, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(fs::File::open(zip).unwrap()).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut file = archive.by_index(i).unwrap();
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).unwrap();
            (
                file.name().unwrap().into_owned(),
                file.unix_mode().unwrap() & 0o777,
                bytes,
            )
        })
        .collect()
}

fn names(zip: &Path) -> Vec<String> {
    listing(zip).into_iter().map(|(n, _, _)| n).collect()
}

/// A fixture folder as an instructor keeps it: games, solutions, a hidden
/// folder, and tools and notes that are not the kit's.
fn fixtures(dir: &Path) {
    fs::create_dir_all(dir.join("hidden")).unwrap();
    fs::create_dir_all(dir.join("tools")).unwrap();
    for (name, text) in [
        ("a.cnf", "game a"),
        ("a.onePlayerOneMove.solution", "solution a"),
        ("b.cnf", "game b"),
        ("b.onePlayerOneMove.solution", "solution b"),
        ("hidden/h.cnf", "game h"),
        ("hidden/h.manyPlayersManyMoves.solution", "solution h"),
        ("tools/make_fixtures.py", "print('tool')"),
        ("tools/reference.py", "print('reference')"),
        ("NOTES.md", "notes"),
    ] {
        fs::write(dir.join(name), text).unwrap();
    }
}

#[test]
fn the_zip_holds_exactly_the_kit_and_a_deleted_fixture_does_not_survive() {
    let tmp = tempfile::tempdir().unwrap();
    let fx = tmp.path().join("fixtures");
    fixtures(&fx);
    let grader = tmp.path().join("fake-grader");
    fs::write(&grader, b"\x7fELF a stand-in grader").unwrap();
    let out = tmp.path().join("kit/autograder.zip");

    let run = make(&fx, &out, &grader).run();
    run.code(0);
    let entries = listing(&out);
    let expected: Vec<(&str, u32)> = vec![
        ("bin/cnf-grader", 0o755),
        ("fixtures/a.cnf", 0o644),
        ("fixtures/a.onePlayerOneMove.solution", 0o644),
        ("fixtures/b.cnf", 0o644),
        ("fixtures/b.onePlayerOneMove.solution", 0o644),
        ("fixtures/hidden/h.cnf", 0o644),
        ("fixtures/hidden/h.manyPlayersManyMoves.solution", 0o644),
        ("run_autograder", 0o755),
        ("setup.sh", 0o755),
    ];
    let got: Vec<(&str, u32)> = entries.iter().map(|(n, m, _)| (n.as_str(), *m)).collect();
    assert_eq!(got, expected);
    // Each entry is its source, byte for byte.
    let source = |name: &str| -> Vec<u8> {
        match name {
            "bin/cnf-grader" => fs::read(&grader).unwrap(),
            "run_autograder" | "setup.sh" => {
                fs::read(root().join("gradescope").join(name)).unwrap()
            }
            fixture => fs::read(fx.join(fixture.strip_prefix("fixtures/").unwrap())).unwrap(),
        }
    };
    for (name, _, bytes) in &entries {
        assert_eq!(*bytes, source(name), "{name}");
    }
    // It says what it wrote and what it left out.
    run.stderr_has("9 files").stderr_has(
        "fixtures/NOTES.md, fixtures/tools/make_fixtures.py, fixtures/tools/reference.py",
    );
    // Nothing but the zip beside it (no temporary file).
    let beside: Vec<_> = fs::read_dir(out.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(beside, ["autograder.zip"]);
    use std::os::unix::fs::PermissionsExt as _;
    assert_eq!(
        fs::metadata(&out).unwrap().permissions().mode() & 0o777,
        0o644
    );

    // The same inputs give the same bytes.
    let first = fs::read(&out).unwrap();
    make(&fx, &out, &grader).run().code(0);
    assert_eq!(fs::read(&out).unwrap(), first);

    // A fixture deleted since the last build is not in the new zip.
    fs::remove_file(fx.join("b.cnf")).unwrap();
    fs::remove_file(fx.join("b.onePlayerOneMove.solution")).unwrap();
    make(&fx, &out, &grader).run().code(0);
    let after = names(&out);
    assert!(
        !after.iter().any(|n| n.starts_with("fixtures/b.")),
        "{after:?}"
    );
    assert_eq!(after.len(), 7, "{after:?}");
}

#[test]
fn a_failed_build_leaves_the_old_zip_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let fx = tmp.path().join("fixtures");
    fixtures(&fx);
    let grader = tmp.path().join("fake-grader");
    fs::write(&grader, b"grader").unwrap();
    let out = tmp.path().join("autograder.zip");
    make(&fx, &out, &grader).run().code(0);
    let before = fs::read(&out).unwrap();

    // No such grader: exit 2, a message naming it, the old zip untouched.
    make(&fx, &out, &tmp.path().join("no-such-grader"))
        .run()
        .code(2)
        .stderr_has("no-such-grader");
    assert_eq!(fs::read(&out).unwrap(), before);

    // Fixtures with no case at all, or a link among them: refused too.
    let empty = tmp.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    fs::write(empty.join("a.cnf"), "game").unwrap();
    make(&empty, &out, &grader)
        .run()
        .code(2)
        .stderr_has("no .solution file");
    std::os::unix::fs::symlink("/etc/passwd", fx.join("c.cnf")).unwrap();
    make(&fx, &out, &grader)
        .run()
        .code(2)
        .stderr_has("c.cnf: a symbolic link");
    assert_eq!(fs::read(&out).unwrap(), before);
    let beside: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(beside.is_empty(), "{beside:?}");
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        &["--fixture", "x"][..],
        &["--out"],
        &["--out", "a", "--out", "b"],
    ] {
        kit()
            .args(args)
            .label(format!("{args:?}"))
            .run()
            .code(2)
            .stderr_starts("xtask gradescope-kit: ")
            .stderr_has("usage: cargo xtask");
    }
}
