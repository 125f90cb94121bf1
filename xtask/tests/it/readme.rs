//! The README cannot drift: every ```` ```console ```` block of `README.md` is
//! run, command by command, and what the command prints is compared with what
//! the block shows.
//!
//! The format is trycmd's, plus a shell and a tool requirement:
//!
//! - `$ COMMAND` starts a command. It runs through `sh -c` (so pipes and
//!   `< FILE` work) in the repository root, with standard input empty, and
//!   with the workspace's freshly built binaries (`cargo build --workspace
//!   --bins`, same profile as this test) first on `PATH`.
//! - `? N` right after the command line: the exit code must be N (default 0).
//! - Every other line is output: standard output and standard error
//!   together, as a terminal shows them, compared line by line and exactly.
//!   A line `...` matches any number of lines (none too); `[..]` within a
//!   line matches any text on that line.
//! - ```` ```console needs=ghc,bwrap ```` runs the block only where those
//!   tools work (`test_support::require`: a visible `skipped:` line, or a
//!   failure where `CNF_REQUIRE_TOOLS` is set).
//!
//! Any other code block that shows a `$ ` prompt is an error, so an example
//! cannot stay unchecked by mistake. A section's examples are checked by
//! writing them as `console` blocks: nothing here names a section.

use crate::support;

use std::path::Path;
use std::time::Duration;
use support::{build_binaries, root};

use test_support::{Cli, Tool};

/// How many `$` commands the README's `console` blocks held when this was
/// last raised: a guard against examples silently dropping out of the check
/// (a fence this reader no longer sees, say). Adding examples needs no
/// change here; removing one means lowering it.
const MIN_COMMANDS: usize = 9;

/// The longest any one example may run (a cold GHC build of the sample class
/// included) before it is killed and reported.
const TIMEOUT: Duration = Duration::from_secs(600);

/// How many printed lines a failure report shows.
const SHOWN: usize = 60;

/// One `$` command of a `console` block and what it must print.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Example {
    /// The README line of the `$`.
    line: usize,
    /// The `## ` heading it is under.
    section: String,
    /// The tools its block needs.
    needs: Vec<Tool>,
    /// The shell command after `$ `.
    command: String,
    /// The exit code it must end with.
    status: i32,
    /// The lines it must print (`...` and `[..]` included).
    expected: Vec<String>,
}

/// The tool named in a `needs=` list.
fn tool(name: &str) -> Option<Tool> {
    match name {
        "ghc" => Some(Tool::Ghc),
        "bwrap" => Some(Tool::Bwrap),
        _ => None,
    }
}

/// Every command of every `console` block of `text`, or the list of what is
/// wrong with the blocks (each as `README.md:LINE: …`).
fn examples(text: &str) -> Result<Vec<Example>, Vec<String>> {
    /// The code block being read.
    struct Block {
        /// The README line of its opening fence.
        line: usize,
        /// The fence's indentation (blocks in list items are indented).
        indent: usize,
        /// Whether it is a `console` block.
        console: bool,
        /// The tools of its `needs=`.
        needs: Vec<Tool>,
        /// The index in `out` of its first command.
        first: usize,
    }
    let mut out: Vec<Example> = Vec::new();
    let mut problems = Vec::new();
    let mut section = String::new();
    let mut block: Option<Block> = None;
    // Whether the line before was a `$` line (a `? N` may follow it).
    let mut after_command = false;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let body = raw.trim_start();
        let indent = raw.len() - body.len();
        let Some(open) = &block else {
            if let Some(heading) = body.strip_prefix("## ") {
                section = heading.trim().to_string();
            }
            if let Some(info) = body.strip_prefix("```") {
                let mut words = info.split_whitespace();
                let console = words.next() == Some("console");
                let mut needs = Vec::new();
                for word in words.filter(|_| console) {
                    let Some(list) = word.strip_prefix("needs=") else {
                        problems.push(format!(
                            "README.md:{number}: unknown attribute {word:?} of a console block; the only one is needs=TOOL,..."
                        ));
                        continue;
                    };
                    for name in list.split(',') {
                        match tool(name) {
                            Some(t) => needs.push(t),
                            None => problems.push(format!(
                                "README.md:{number}: unknown tool {name:?}; the tools are ghc and bwrap"
                            )),
                        }
                    }
                }
                block = Some(Block {
                    line: number,
                    indent,
                    console,
                    needs,
                    first: out.len(),
                });
                after_command = false;
            }
            continue;
        };
        if body == "```" {
            if open.console && out.len() == open.first {
                problems.push(format!(
                    "README.md:{}: a console block without a `$ COMMAND` line",
                    open.line
                ));
            }
            block = None;
            continue;
        }
        // As in CommonMark: up to the fence's indentation is removed.
        let spaces = raw.len() - raw.trim_start_matches(' ').len();
        let line = raw[spaces.min(open.indent)..].to_string();
        if !open.console {
            if line.starts_with("$ ") {
                problems.push(format!(
                    "README.md:{number}: a code block shows a `$ ` prompt but is not a console block, so nothing checks it; make it ```console"
                ));
            }
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            out.push(Example {
                line: number,
                section: section.clone(),
                needs: open.needs.clone(),
                command: command.to_string(),
                status: 0,
                expected: Vec::new(),
            });
            after_command = true;
            continue;
        }
        if out.len() == open.first {
            problems.push(format!(
                "README.md:{number}: output before the first `$ COMMAND` line of its console block"
            ));
            continue;
        }
        let example = out.last_mut().expect("a command of this block");
        match line.strip_prefix("? ").filter(|_| after_command) {
            Some(code) => match code.trim().parse() {
                Ok(code) => example.status = code,
                Err(_) => problems.push(format!(
                    "README.md:{number}: `? {code}` is not an exit code; write e.g. `? 2`"
                )),
            },
            None => example.expected.push(line),
        }
        after_command = false;
    }
    if let Some(open) = block {
        problems.push(format!(
            "README.md:{}: a code block that is never closed",
            open.line
        ));
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// Whether `actual` is `expected`, where an expected line `...` matches any
/// number of lines and `[..]` within a line any text on that line.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => (0..=actual.len()).any(|i| matches(rest, &actual[i..])),
        Some((e, rest)) => {
            actual.first().is_some_and(|a| line_matches(e, a)) && matches(rest, &actual[1..])
        }
    }
}

/// Whether the line `actual` is `expected`, where `[..]` matches any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let mut pieces = expected.split("[..]");
    let first = pieces.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else {
        return rest.is_empty();
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// `command` through `sh -c` as described at the top, standard error joined
/// to standard output (the one stream, as a terminal shows them). It runs
/// under `timeout`, the leader of its own process group: at [`TIMEOUT`] the
/// whole group is killed, so no grandchild outlives the example, and the run
/// ends by a signal, reported like any other failure.
fn shell(command: &str, path: &std::ffi::OsStr, cache: &Path) -> Cli {
    let limit = format!("{}s", TIMEOUT.as_secs());
    Cli::new("timeout")
        .args(["--signal=KILL", &limit, "sh", "-c"])
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(root())
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        // The grader's cache of compiled submissions stays out of the
        // user's own.
        .env("XDG_CACHE_HOME", cache)
        // `timeout` ends it first; this only guards against `timeout` itself.
        .timeout(TIMEOUT + Duration::from_secs(60))
}

#[test]
fn readme_examples_are_what_the_programs_print() {
    let text = std::fs::read_to_string(root().join("README.md")).expect("read README.md");
    let examples = examples(&text).unwrap_or_else(|p| panic!("{}", p.join("\n")));
    assert!(
        examples.len() >= MIN_COMMANDS,
        "README.md has {} console commands, this test expects at least {MIN_COMMANDS}: lower MIN_COMMANDS only when an example was removed on purpose",
        examples.len()
    );
    let mut path = std::env::join_paths(build_binaries()).expect("a PATH");
    if let Some(rest) = std::env::var_os("PATH") {
        let mut joined = path;
        joined.push(":");
        joined.push(rest);
        path = joined;
    }
    let cache = tempfile::tempdir().expect("a temporary cache folder");
    let mut failures = Vec::new();
    for example in &examples {
        let name = format!(
            "README.md:{} ({}: `{}`)",
            example.line, example.section, example.command
        );
        if !example.needs.is_empty() && !test_support::require(&name, &example.needs) {
            continue;
        }
        let run = shell(&example.command, &path, cache.path())
            .label(&name)
            .run();
        let status = run.code_or_signal();
        // Only `timeout` or `sh` failing to start writes here.
        let printed = format!("{}{}", run.stdout, run.stderr);
        let actual: Vec<&str> = printed.lines().collect();
        if status != Some(example.status) || !matches(&example.expected, &actual) {
            failures.push(format!(
                "{name}\n  the README shows exit code {} and:\n{}\n  the program ended with {} and printed:\n{}",
                example.status,
                indent(&example.expected),
                status.map_or("a signal or the time limit".to_string(), |c| format!("exit code {c}")),
                indent(&actual[..actual.len().min(SHOWN)]),
            ));
            if actual.len() > SHOWN {
                let more = actual.len() - SHOWN;
                failures
                    .last_mut()
                    .unwrap()
                    .push_str(&format!("\n    … and {more} more lines"));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// `lines`, each indented by four spaces.
fn indent<S: AsRef<str>>(lines: &[S]) -> String {
    lines
        .iter()
        .map(|l| format!("    {}", l.as_ref()))
        .collect::<Vec<_>>()
        .join("\n")
}

mod format {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn elision_matches_any_lines_and_nothing_else() {
        assert!(matches(&lines(&["a", "..."]), &["a", "b", "c"]));
        assert!(matches(&lines(&["a", "...", "c"]), &["a", "c"]));
        assert!(matches(&lines(&["..."]), &[]));
        assert!(!matches(&lines(&["a", "b"]), &["a", "b", "c"]));
        assert!(!matches(&lines(&["a", "...", "d"]), &["a", "b", "c"]));
        assert!(!matches(&lines(&["a "]), &["a"]), "trailing space counts");
    }

    #[test]
    fn a_wildcard_matches_text_within_one_line() {
        assert!(line_matches("GHC [..]", "GHC 9.0.2"));
        assert!(line_matches("GHC [..]", "GHC "));
        assert!(line_matches("a[..]b[..]c", "axxbyyc"));
        assert!(line_matches("[..]", ""));
        assert!(!line_matches("a[..]b", "ab c"));
        assert!(!line_matches("ab[..]ba", "aba"), "the ends may not overlap");
        assert!(!line_matches("GHC [..]", "ghc 9"));
        assert!(!matches(&lines(&["[..]"]), &["a", "b"]), "one line only");
    }

    #[test]
    fn blocks_commands_status_and_needs() {
        let text = "## One\n\n```console\n$ a x\n? 2\nout\n? 3\n$ b\n```\n\n## Two\n\n  ```console needs=ghc,bwrap\n  $ c\n    indented\n x\n\n  ```\n```sh\nnot run\n```\n";
        let found = examples(text).unwrap();
        assert_eq!(found.len(), 3);
        assert_eq!(
            found[0],
            Example {
                line: 4,
                section: "One".into(),
                needs: vec![],
                command: "a x".into(),
                status: 2,
                expected: lines(&["out", "? 3"]),
            }
        );
        assert_eq!((found[1].command.as_str(), found[1].status), ("b", 0));
        assert!(found[1].expected.is_empty());
        assert_eq!(found[2].section, "Two");
        assert_eq!(found[2].needs, vec![Tool::Ghc, Tool::Bwrap]);
        assert_eq!(found[2].expected, lines(&["  indented", "x", ""]));
    }

    #[test]
    fn unchecked_prompts_and_malformed_blocks_are_refused() {
        let problems = |text: &str| examples(text).unwrap_err().join("\n");
        assert!(
            problems("```sh\n$ part02 x\n```\n")
                .contains("README.md:2: a code block shows a `$ ` prompt")
        );
        assert!(problems("```console\nout\n$ a\n```\n").contains("README.md:2: output before"));
        assert!(problems("```console\n```\n").contains("without a `$ COMMAND`"));
        assert!(
            problems("```console needs=python\n$ a\n```\n").contains("unknown tool \"python\"")
        );
        assert!(problems("```console ignore\n$ a\n```\n").contains("unknown attribute"));
        assert!(problems("```console\n$ a\n? x\n```\n").contains("not an exit code"));
        assert!(problems("```console\n$ a\n").contains("never closed"));
    }
}
