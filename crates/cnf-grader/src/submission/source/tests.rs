//! Tests of the submission reader: links, odd files, limits, nesting.

use super::*;
use rustix::fs::Mode;
use std::fs::File;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::symlink;

fn read(dir: &Path) -> Submission {
    read_submission(dir, &ReadLimits::default()).unwrap()
}

fn names(s: &Submission) -> Vec<&str> {
    s.files.iter().map(|f| f.name.as_str()).collect()
}

fn refusals(s: &Submission) -> Vec<String> {
    s.refused.iter().map(ToString::to_string).collect()
}

#[test]
fn regular_sources_are_read_and_other_files_only_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.hs"), "b").unwrap();
    std::fs::write(dir.path().join("a.hs"), "a").unwrap();
    std::fs::write(dir.path().join("notes.txt"), "n").unwrap();
    std::fs::write(dir.path().join("csce322assignment03Part01.lhs"), "x").unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    let s = read(dir.path());
    assert_eq!(names(&s), ["a.hs", "b.hs"]);
    assert_eq!(s.files[0].bytes, b"a");
    assert_eq!(s.others, ["csce322assignment03Part01.lhs", "notes.txt"]);
    assert!(s.refused.is_empty());
    assert_eq!(s.nested, None);
}

#[test]
fn links_fifos_sockets_and_folders_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("real.hs"), "r").unwrap();
    symlink("real.hs", d.join("csce322assignment03part01.hs")).unwrap();
    symlink("/proc/self/environ", d.join("Env.hs")).unwrap();
    symlink("/no/such/file", d.join("dangling.txt")).unwrap();
    rustix::fs::mknodat(
        CWD,
        d.join("csce322assignment03part02.hs"),
        FileType::Fifo,
        Mode::RUSR | Mode::WUSR,
        0,
    )
    .unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(d.join("Sock.hs")).unwrap();
    std::fs::create_dir(d.join("csce322assignment03part03.hs")).unwrap();
    let s = read(d);
    assert_eq!(names(&s), ["real.hs"]);
    assert_eq!(
        refusals(&s),
        [
            "Env.hs is a symbolic link; links are not followed",
            "Sock.hs is a socket, not a file; it was not read",
            "csce322assignment03part01.hs is a symbolic link; links are not followed",
            "csce322assignment03part02.hs is a named pipe (FIFO), not a file; it was not read",
            "csce322assignment03part03.hs is a folder, not a file",
            "dangling.txt is a symbolic link; links are not followed",
        ]
    );
    assert_eq!(
        s.refusal("csce322assignment03part02.hs").map(|r| &r.why),
        Some(&Why::Fifo)
    );
}

#[test]
#[allow(clippy::print_stderr)] // reason: a test that cannot run here says it was skipped
fn a_device_is_refused_without_being_opened() {
    // Making a device node needs CAP_MKNOD (root, as a grader in Docker is).
    let dir = tempfile::tempdir().unwrap();
    let node = dir.path().join("csce322assignment03part04.hs");
    let made = rustix::fs::mknodat(
        CWD,
        &node,
        FileType::CharacterDevice,
        Mode::RUSR,
        rustix::fs::makedev(1, 3),
    );
    if made.is_err() {
        eprintln!(
            "skipped: a_device_is_refused_without_being_opened: cannot make a device node here"
        );
        return;
    }
    let s = read(dir.path());
    assert_eq!(
        refusals(&s),
        ["csce322assignment03part04.hs is a device, not a file; it was not read"]
    );
}

#[test]
fn a_file_over_the_cap_is_never_read_even_sparse_and_huge() {
    let dir = tempfile::tempdir().unwrap();
    let big = File::create(dir.path().join("Big.hs")).unwrap();
    big.set_len(3 << 30).unwrap();
    std::fs::write(dir.path().join("Edge.hs"), vec![b'x'; 100]).unwrap();
    std::fs::write(dir.path().join("Over.hs"), vec![b'x'; 101]).unwrap();
    let limits = ReadLimits {
        max_file: 100,
        ..ReadLimits::default()
    };
    let s = read_submission(dir.path(), &limits).unwrap();
    assert_eq!(names(&s), ["Edge.hs"]);
    assert_eq!(
        refusals(&s),
        [
            "Big.hs is 3 GiB, over the 100 bytes limit of a source file (--max-source); it was not read",
            "Over.hs is 101 bytes, over the 100 bytes limit of a source file (--max-source); it was not read",
        ]
    );
}

#[test]
fn file_count_and_total_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.hs", "b.hs", "c.hs"] {
        std::fs::write(dir.path().join(name), "12345").unwrap();
    }
    let limits = ReadLimits {
        max_files: 2,
        ..ReadLimits::default()
    };
    let s = read_submission(dir.path(), &limits).unwrap();
    assert_eq!(names(&s), ["a.hs", "b.hs"]);
    assert!(
        refusals(&s)[0]
            .starts_with("c.hs was not read: a submission's sources are read up to 2 files")
    );
    let limits = ReadLimits {
        max_total: 12,
        ..ReadLimits::default()
    };
    let s = read_submission(dir.path(), &limits).unwrap();
    assert_eq!(names(&s), ["a.hs", "b.hs"]);
    assert_eq!(s.refused.len(), 1);
}

#[test]
fn names_that_are_not_utf8_are_listed_escaped_and_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"R\xe9sum\xe9.hs");
    std::fs::write(dir.path().join(name), "x").unwrap();
    std::fs::write(dir.path().join("csce322assignment03part01.hs"), "main").unwrap();
    let s = read(dir.path());
    assert_eq!(names(&s), ["csce322assignment03part01.hs"]);
    assert_eq!(
        refusals(&s),
        ["R\\xe9sum\\xe9.hs: the name is not UTF-8; the file was ignored"]
    );
    // A name with escapes in it is shown escaped.
    std::fs::write(dir.path().join("T\u{1b}]0;x\u{7}.hs"), "t").unwrap();
    let s = read(dir.path());
    assert_eq!(s.files[0].name, "T\u{1b}]0;x\u{7}.hs");
}

#[test]
fn a_submission_one_folder_down_is_found_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("inner");
    std::fs::create_dir_all(&inner).unwrap();
    std::fs::create_dir_all(dir.path().join("__MACOSX/inner")).unwrap();
    std::fs::write(
        dir.path()
            .join("__MACOSX/inner/csce322assignment03part01.hs"),
        "junk",
    )
    .unwrap();
    std::fs::write(inner.join("csce322assignment03part01.hs"), "main").unwrap();
    let s = read(dir.path());
    assert_eq!(s.nested.as_deref(), Some(Path::new("inner")));
    assert_eq!(s.dir, inner);
    assert_eq!(names(&s), ["csce322assignment03part01.hs"]);
    // Two folders with part files: neither is chosen, both are named.
    let other = dir.path().join("deeper/other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("csce322assignment03part02.hs"), "main").unwrap();
    let s = read(dir.path());
    assert_eq!(s.nested, None);
    assert_eq!(
        s.scattered,
        [PathBuf::from("deeper/other"), PathBuf::from("inner")]
    );
    assert!(s.files.is_empty());
    // A link to a folder with part files is not followed.
    let dir = tempfile::tempdir().unwrap();
    symlink(&inner, dir.path().join("linked")).unwrap();
    let s = read(dir.path());
    assert_eq!(s.nested, None);
    assert_eq!(
        refusals(&s),
        ["linked is a symbolic link; links are not followed"]
    );
}

#[test]
fn the_search_for_a_nested_submission_is_bounded() {
    // 30 folders of 30 folders of 30 (27,000 folders), none with a part
    // file but the last; a budget of 100 entries stops the search early.
    let dir = tempfile::tempdir().unwrap();
    for a in 0..30 {
        for b in 0..30 {
            std::fs::create_dir_all(dir.path().join(format!("{a:02}/{b:02}"))).unwrap();
        }
    }
    std::fs::write(
        dir.path().join("29/29/csce322assignment03part01.hs"),
        "main",
    )
    .unwrap();
    let limits = ReadLimits {
        max_entries: 100,
        ..ReadLimits::default()
    };
    let s = read_submission(dir.path(), &limits).unwrap();
    assert_eq!(s.nested, None);
    // With room to look, it is found two levels down.
    let s = read(dir.path());
    assert_eq!(s.nested.as_deref(), Some(Path::new("29/29")));
}

#[test]
fn a_class_lists_folders_and_refuses_links_and_odd_names() {
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    std::fs::create_dir(r.join("ann")).unwrap();
    std::fs::create_dir(r.join(".git")).unwrap();
    std::fs::create_dir(r.join(std::ffi::OsStr::from_bytes(b"\xe9t\xe9"))).unwrap();
    std::fs::write(r.join("roster.csv"), "x").unwrap();
    symlink("ann", r.join("bo")).unwrap();
    symlink("roster.csv", r.join("file-link")).unwrap();
    symlink("/no/such", r.join("dangling")).unwrap();
    let listing = list_class(r).unwrap();
    assert_eq!(listing.folders, ["ann"]);
    let refused: Vec<String> = listing.refused.iter().map(ToString::to_string).collect();
    assert_eq!(
        refused,
        [
            "bo is a symbolic link; links are not followed",
            "dangling is a symbolic link; links are not followed",
            "\\xe9t\\xe9: the name is not UTF-8; the file was ignored",
        ]
    );
    // A member folder swapped for a link is refused when read.
    assert!(read_class_member(r, "bo", &ReadLimits::default()).is_err());
    assert!(read_class_member(r, "ann", &ReadLimits::default()).is_ok());
}

#[test]
fn a_roster_is_read_only_as_a_regular_file_within_its_cap() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.csv");
    std::fs::write(&file, "folder,name,id\n").unwrap();
    assert_eq!(read_file(&file, 100).unwrap(), b"folder,name,id\n");
    assert!(matches!(
        read_file(&file, 4).unwrap_err().why,
        Why::TooLarge { size: 15, cap: 4 }
    ));
    let link = dir.path().join("link.csv");
    symlink(&file, &link).unwrap();
    assert_eq!(read_file(&link, 100).unwrap_err().why, Why::Symlink);
    let fifo = dir.path().join("fifo.csv");
    rustix::fs::mknodat(CWD, &fifo, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
    assert_eq!(read_file(&fifo, 100).unwrap_err().why, Why::Fifo);
    assert_eq!(read_file(dir.path(), 100).unwrap_err().why, Why::Folder);
}

#[test]
fn a_fifo_swapped_in_after_the_lstat_does_not_block() {
    // What `read_checked` meets when a file is replaced between the
    // listing and the open: a FIFO opened without O_NONBLOCK would wait
    // for a writer for ever.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("swap.hs");
    std::fs::write(&path, "x").unwrap();
    let seen = statat(CWD, &path, AtFlags::SYMLINK_NOFOLLOW).unwrap();
    std::fs::remove_file(&path).unwrap();
    rustix::fs::mknodat(CWD, &path, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
    let dirfd = open_dir(CWD, &c_path(dir.path()).unwrap(), true).unwrap();
    assert_eq!(
        read_checked(&dirfd, b"swap.hs", Some(&seen), 100).unwrap_err(),
        Why::Fifo
    );
    // And a regular file replaced by another is noticed (the first is
    // kept under another name, so its inode is not reused).
    std::fs::remove_file(&path).unwrap();
    std::fs::write(dir.path().join("first.hs"), "x").unwrap();
    let seen = statat(CWD, dir.path().join("first.hs"), AtFlags::SYMLINK_NOFOLLOW).unwrap();
    std::fs::write(&path, "y").unwrap();
    assert!(matches!(
        read_checked(&dirfd, b"swap.hs", Some(&seen), 100),
        Err(Why::Unreadable(_))
    ));
}
