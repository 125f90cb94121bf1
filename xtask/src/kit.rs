//! `cargo xtask gradescope-kit`: the Gradescope autograder zip, made fresh.
//!
//! The zip holds exactly what `gradescope/setup.sh` and
//! `gradescope/run_autograder` need, at the paths they use:
//!
//! ```text
//! setup.sh
//! run_autograder
//! bin/cnf-grader
//! fixtures/**/NAME.cnf, fixtures/**/NAME.FUNCTION.solution
//! ```
//!
//! With `--assignment peg-reversal`, the fixtures shipped are the Peg
//! Reversal cases (`fixtures/**/NAME.call`, `fixtures/**/NAME.expected`)
//! and a file `assignment` holding the name, which `run_autograder` passes
//! to the grader.
//!
//! Decisions: the zip is written to a temporary file beside `--out` and
//! renamed over it, so a failed build leaves the old zip whole and no file
//! of an old zip (a fixture deleted since, say) can survive; only `.cnf`
//! and `.solution` files of the fixture folder are shipped (its tools,
//! notes and anything else are left out, and named); a symbolic link
//! among the fixtures is refused, as the grader refuses them; entries are
//! in name order with a fixed date, so the same inputs give the same
//! bytes. The grader is built in release for `x86_64-unknown-linux-musl`
//! (static, runs on Ubuntu 20.04 and 22.04 images alike) when that target
//! is installed, else for the host's glibc target, and the task says which
//! glibc the binary then needs.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use zip::write::SimpleFileOptions;

/// The static target the grader is built for when it is installed.
pub(crate) const MUSL: &str = "x86_64-unknown-linux-musl";

/// What `gradescope-kit` was asked for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct KitArgs {
    /// The fixture folder (default `fixtures`).
    pub(crate) fixtures: PathBuf,
    /// The zip to write (default `target/gradescope/autograder.zip`).
    pub(crate) out: PathBuf,
    /// A grader binary to ship instead of building one.
    pub(crate) grader: Option<PathBuf>,
    /// The assignment (`None`: Connect Four, the grader's default).
    pub(crate) assignment: Option<String>,
}

/// The assignments the grader knows, as `--assignment` names them.
const ASSIGNMENTS: [&str; 2] = ["connect-four", "peg-reversal"];

/// Parses `[--fixtures DIR] [--out FILE] [--grader FILE]` (`--opt=value`
/// too); relative paths are taken from `root`.
pub(crate) fn parse(args: &[String], root: &Path) -> Result<KitArgs, String> {
    let mut fixtures = None;
    let mut out = None;
    let mut grader = None;
    let mut assignment = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_owned())),
            _ => (arg.as_str(), None),
        };
        let slot = match name {
            "--fixtures" => &mut fixtures,
            "--out" => &mut out,
            "--grader" => &mut grader,
            "--assignment" => {
                let value = match inline {
                    Some(value) => value,
                    None => rest
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("{name} needs a value"))?,
                };
                if !ASSIGNMENTS.contains(&value.as_str()) {
                    return Err(format!(
                        "--assignment {value:?}: the assignments are {}",
                        ASSIGNMENTS.join(", ")
                    ));
                }
                if assignment.replace(value).is_some() {
                    return Err(format!("{name} is given twice"));
                }
                continue;
            }
            _ => {
                return Err(format!(
                    "unknown option {arg:?}; the options are --fixtures DIR, --out FILE, \
                     --grader FILE and --assignment NAME"
                ));
            }
        };
        let value = match inline {
            Some(value) => value,
            None => rest
                .next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))?,
        };
        if value.is_empty() {
            return Err(format!("{name} needs a value, not an empty one"));
        }
        if slot.replace(root.join(value)).is_some() {
            return Err(format!("{name} is given twice"));
        }
    }
    Ok(KitArgs {
        fixtures: fixtures.unwrap_or_else(|| root.join("fixtures")),
        out: out.unwrap_or_else(|| root.join("target/gradescope/autograder.zip")),
        grader,
        assignment,
    })
}

/// One file of the zip: its name there, where it comes from, its mode.
#[derive(Debug)]
struct Entry {
    name: String,
    from: PathBuf,
    mode: u32,
    /// Its bytes, when it is written by the task rather than copied.
    text: Option<String>,
}

/// Files by their name in the zip and where they are.
type Named = Vec<(String, PathBuf)>;

/// The shipped fixtures under `dir`, in name order, and the names of the
/// files left out.
fn fixture_files(dir: &Path, peg: bool) -> Result<(Named, Vec<String>), String> {
    let shipped: [&str; 2] = if peg {
        [".call", ".expected"]
    } else {
        [".cnf", ".solution"]
    };
    let mut kept = Vec::new();
    let mut left = Vec::new();
    let mut folders = vec![(dir.to_path_buf(), "fixtures".to_owned())];
    while let Some((folder, name)) = folders.pop() {
        let entries =
            fs::read_dir(&folder).map_err(|e| format!("--fixtures {}: {e}", folder.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("--fixtures {}: {e}", folder.display()))?;
            let path = entry.path();
            let Some(file) = entry.file_name().to_str().map(str::to_owned) else {
                return Err(format!(
                    "{}: the name is not UTF-8; rename it (zip names are UTF-8)",
                    path.display()
                ));
            };
            let inside = format!("{name}/{file}");
            let kind = fs::symlink_metadata(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .file_type();
            if kind.is_symlink() {
                return Err(format!(
                    "{}: a symbolic link; the kit ships regular files only (copy the file there)",
                    path.display()
                ));
            } else if kind.is_dir() {
                folders.push((path, inside));
            } else if kind.is_file() && shipped.iter().any(|e| file.ends_with(e)) {
                kept.push((inside, path));
            } else {
                left.push(inside);
            }
        }
    }
    kept.sort();
    left.sort();
    Ok((kept, left))
}

/// The zip's entries, in name order.
fn entries(root: &Path, fixtures: Named, grader: &Path, assignment: Option<&str>) -> Vec<Entry> {
    let kit = root.join("gradescope");
    let mut all = vec![
        Entry {
            name: "bin/cnf-grader".to_owned(),
            from: grader.to_path_buf(),
            mode: 0o755,
            text: None,
        },
        Entry {
            name: "run_autograder".to_owned(),
            from: kit.join("run_autograder"),
            mode: 0o755,
            text: None,
        },
        Entry {
            name: "setup.sh".to_owned(),
            from: kit.join("setup.sh"),
            mode: 0o755,
            text: None,
        },
    ];
    if let Some(assignment) = assignment {
        all.push(Entry {
            name: "assignment".to_owned(),
            from: PathBuf::from("assignment"),
            mode: 0o644,
            text: Some(format!("{assignment}\n")),
        });
    }
    all.extend(fixtures.into_iter().map(|(name, from)| Entry {
        name,
        from,
        mode: 0o644,
        text: None,
    }));
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all
}

/// Writes `entries` as a zip to a temporary file beside `out`, then
/// renames it to `out`.
fn write_zip(entries: &[Entry], out: &Path) -> Result<u64, String> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    fs::create_dir_all(parent).map_err(|e| format!("--out {}: {e}", out.display()))?;
    let temp = tempfile::Builder::new()
        .prefix(".autograder-")
        .suffix(".zip.tmp")
        .tempfile_in(parent)
        .map_err(|e| format!("--out {}: cannot make a temporary file: {e}", out.display()))?;
    let mut zip = zip::ZipWriter::new(temp);
    for entry in entries {
        let bytes = match &entry.text {
            Some(text) => text.clone().into_bytes(),
            None => fs::read(&entry.from).map_err(|e| format!("{}: {e}", entry.from.display()))?,
        };
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(entry.mode)
            .last_modified_time(zip::DateTime::default());
        zip.start_file(entry.name.as_str(), options)
            .and_then(|()| zip.write_all(&bytes).map_err(Into::into))
            .map_err(|e| format!("--out {}: {e}", out.display()))?;
    }
    let temp = zip
        .finish()
        .map_err(|e| format!("--out {}: {e}", out.display()))?;
    // A temporary file is the owner's alone (0600); a zip is any file's 0644.
    use std::os::unix::fs::PermissionsExt as _;
    temp.as_file()
        .set_permissions(fs::Permissions::from_mode(0o644))
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|e| format!("--out {}: {e}", out.display()))?;
    temp.persist(out)
        .map_err(|e| format!("--out {}: {}", out.display(), e.error))?;
    fs::metadata(out)
        .map(|m| m.len())
        .map_err(|e| format!("--out {}: {e}", out.display()))
}

/// Which C library `binary` needs: `None` for a static one, else the
/// newest `GLIBC_2.N` version it names (e.g. `(2, 34)`).
pub(crate) fn glibc_needed(binary: &[u8]) -> Option<(u32, u32)> {
    let tag = b"GLIBC_2.";
    let mut newest = None;
    let mut at = 0;
    while let Some(found) = binary[at..].windows(tag.len()).position(|w| w == tag) {
        let start = at + found + tag.len();
        let digits: Vec<u8> = binary[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .copied()
            .collect();
        if let Ok(minor) = String::from_utf8_lossy(&digits).parse::<u32>() {
            newest = newest.max(Some((2, minor)));
        }
        at = start;
    }
    newest
}

/// Whether the Rust standard library for `target` is installed.
fn target_installed(cargo: &std::ffi::OsStr, target: &str) -> bool {
    let rustc = Path::new(cargo).with_file_name("rustc");
    let rustc = if rustc.is_file() {
        rustc
    } else {
        PathBuf::from("rustc")
    };
    Command::new(rustc)
        .args(["--print", "target-libdir", "--target", target])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|dir| {
            fs::read_dir(dir).is_ok_and(|mut d| {
                d.any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("libstd-")))
            })
        })
}

/// Builds the grader in release, static (musl) when that target is
/// installed; returns the binary.
fn build_grader(cargo: &std::ffi::OsStr, root: &Path) -> Result<PathBuf, String> {
    let musl = target_installed(cargo, MUSL);
    let mut command = Command::new(cargo);
    command
        .current_dir(root)
        .args(["build", "--release", "--package", "cnf-grader", "--bin"])
        .arg("cnf-grader");
    if musl {
        command.args(["--target", MUSL]);
    } else {
        eprintln!(
            "xtask gradescope-kit: the {MUSL} target is not installed, so the grader is built \
             for this machine's glibc (install the target with `rustup target add {MUSL}` for a \
             static binary that runs on every Gradescope image)"
        );
    }
    let status = command
        .status()
        .map_err(|e| format!("cannot run {}: {e}", Path::new(cargo).display()))?;
    if !status.success() {
        return Err(format!("cargo build of the grader failed ({status})"));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map_or_else(|| root.join("target"), |t| root.join(t));
    Ok(if musl {
        target.join(MUSL).join("release/cnf-grader")
    } else {
        target.join("release/cnf-grader")
    })
}

/// Makes the kit: builds (or takes) the grader, then writes the zip.
pub(crate) fn gradescope_kit(
    cargo: &std::ffi::OsStr,
    root: &Path,
    args: &KitArgs,
) -> Result<(), String> {
    // Check the fixtures before a long build.
    let peg = args.assignment.as_deref() == Some("peg-reversal");
    let (fixtures, left) = fixture_files(&args.fixtures, peg)?;
    if peg && !fixtures.iter().any(|(name, _)| name.ends_with(".expected")) {
        return Err(format!(
            "--fixtures {}: no .expected file in it, so there is nothing to grade \
             (a Peg Reversal case is a NAME.call file with its NAME.expected)",
            args.fixtures.display()
        ));
    }
    if !peg && !fixtures.iter().any(|(name, _)| name.ends_with(".solution")) {
        return Err(format!(
            "--fixtures {}: no .solution file in it, so there is nothing to grade \
             (a case is a NAME.FUNCTION.solution file next to NAME.cnf)",
            args.fixtures.display()
        ));
    }
    let grader = match &args.grader {
        Some(grader) => grader.clone(),
        None => build_grader(cargo, root)?,
    };
    let binary = fs::read(&grader).map_err(|e| format!("{}: {e}", grader.display()))?;
    let libc = match glibc_needed(&binary) {
        None => "static: runs on Gradescope's Ubuntu 20.04 and 22.04 images".to_owned(),
        Some((major, minor)) => {
            let ubuntu = if minor <= 31 {
                "Ubuntu 20.04 or newer"
            } else if minor <= 35 {
                "Ubuntu 22.04 or newer, not the 20.04 image"
            } else {
                "newer than Ubuntu 22.04: build it with the musl target instead"
            };
            format!("needs glibc {major}.{minor} ({ubuntu})")
        }
    };
    let entries = entries(root, fixtures, &grader, args.assignment.as_deref());
    let size = write_zip(&entries, &args.out)?;
    let cases = entries
        .iter()
        .filter(|e| e.name.ends_with(if peg { ".call" } else { ".solution" }))
        .count();
    eprintln!(
        "xtask gradescope-kit: wrote {} ({} files, {size} bytes): setup.sh, run_autograder, \
         bin/cnf-grader ({libc}), {} fixture files with {cases} cases",
        args.out.display(),
        entries.len(),
        entries.len() - 3 - usize::from(args.assignment.is_some()),
    );
    if !left.is_empty() {
        eprintln!(
            "xtask gradescope-kit: left out of the zip (not a fixture file): {}",
            left.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let root = Path::new("/r");
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            parse(&args(&[]), root),
            Ok(KitArgs {
                fixtures: "/r/fixtures".into(),
                out: "/r/target/gradescope/autograder.zip".into(),
                grader: None,
                assignment: None,
            })
        );
        assert_eq!(
            parse(&args(&["--fixtures", "fx", "--out=/tmp/a.zip"]), root),
            Ok(KitArgs {
                fixtures: "/r/fx".into(),
                out: "/tmp/a.zip".into(),
                grader: None,
                assignment: None,
            })
        );
        assert_eq!(
            parse(&args(&["--assignment", "peg-reversal"]), root).map(|a| a.assignment),
            Ok(Some("peg-reversal".to_owned()))
        );
        assert!(
            parse(&args(&["--assignment=peg"]), root)
                .unwrap_err()
                .contains("connect-four, peg-reversal")
        );
        assert!(
            parse(&args(&["--out"]), root)
                .unwrap_err()
                .contains("needs a value")
        );
        assert!(parse(&args(&["--out", "a", "--out", "b"]), root).is_err());
        assert!(
            parse(&args(&["--fixture", "a"]), root)
                .unwrap_err()
                .contains("--fixtures DIR")
        );
        assert!(parse(&args(&["--out="]), root).is_err());
    }

    #[test]
    fn the_glibc_a_binary_needs_is_the_newest_it_names() {
        assert_eq!(glibc_needed(b"\x7fELF static, no version"), None);
        assert_eq!(
            glibc_needed(b"..GLIBC_2.2.5\0GLIBC_2.34\0GLIBC_2.17\0GLIBC_2.3.4\0"),
            Some((2, 34))
        );
        assert_eq!(glibc_needed(b"GLIBC_2."), None);
    }
}
