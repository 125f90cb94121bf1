//! The documentation cannot drift: every ```` ```console ```` block of
//! `README.md` and of the user guide's pages (`docs/*.md`) is run, command by
//! command, and what the command prints is compared with what the block
//! shows. The links between those pages must lead somewhere too, and every
//! picture under `docs/` must be shown by one of them.
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
//! writing them as `console` blocks: nothing here names a section, and a new
//! page under `docs/` is read as soon as it exists (its sub-folders are not).
//!
//! Why not trycmd itself: it runs no shell (the examples pipe and
//! redirect), knows only its own crate's binaries unless each is
//! registered by path, and cannot skip a block for a missing tool.
//! Commands get a private grader cache, and data only the examples use
//! lives in `tests/readme/`.

use crate::support;

use std::path::Path;
use std::time::Duration;
use support::{build_binaries, root};

use test_support::{Cli, Tool};

/// How many `$` commands the `console` blocks of the README and the guide
/// held, together, when this was last raised: a guard against examples silently dropping out of the check
/// (a fence this reader no longer sees, say). Adding examples needs no
/// change here; removing one means lowering it.
const MIN_COMMANDS: usize = 42;

/// The longest any one example may run (a cold GHC build of the sample class
/// included) before it is killed and reported.
const TIMEOUT: Duration = Duration::from_secs(600);

/// How many printed lines a failure report shows.
const SHOWN: usize = 60;

/// One `$` command of a `console` block and what it must print.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Example {
    /// The document it is in, relative to the repository root.
    file: String,
    /// The line of the `$` in that document.
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

/// The documents whose examples are run: `README.md`, then every `docs/*.md`
/// in name order, each relative to the repository root.
fn documents() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("read the folder docs/")
        .map(|entry| entry.expect("an entry of docs/").file_name())
        .filter_map(|name| name.into_string().ok())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    pages.insert(0, "README.md".to_string());
    pages
}

/// Every command of every `console` block of `text`, the document `file`,
/// or the list of what is wrong with the blocks (each as `FILE:LINE: …`).
fn examples(file: &str, text: &str) -> Result<Vec<Example>, Vec<String>> {
    /// The code block being read.
    struct Block {
        /// The line of its opening fence.
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
                            "{file}:{number}: unknown attribute {word:?} of a console block; the only one is needs=TOOL,..."
                        ));
                        continue;
                    };
                    for name in list.split(',') {
                        match tool(name) {
                            Some(t) => needs.push(t),
                            None => problems.push(format!(
                                "{file}:{number}: unknown tool {name:?}; the tools are ghc and bwrap"
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
                    "{file}:{}: a console block without a `$ COMMAND` line",
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
                    "{file}:{number}: a code block shows a `$ ` prompt but is not a console block, so nothing checks it; make it ```console"
                ));
            }
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            out.push(Example {
                file: file.to_string(),
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
                "{file}:{number}: output before the first `$ COMMAND` line of its console block"
            ));
            continue;
        }
        let example = out.last_mut().expect("a command of this block");
        match line.strip_prefix("? ").filter(|_| after_command) {
            Some(code) => match code.trim().parse() {
                Ok(code) => example.status = code,
                Err(_) => problems.push(format!(
                    "{file}:{number}: `? {code}` is not an exit code; write e.g. `? 2`"
                )),
            },
            None => example.expected.push(line),
        }
        after_command = false;
    }
    if let Some(open) = block {
        problems.push(format!(
            "{file}:{}: a code block that is never closed",
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

/// The text of `file`, a document relative to the repository root.
fn read(file: &str) -> String {
    std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("read {file}: {e}"))
}

#[test]
fn documentation_examples_are_what_the_programs_print() {
    let mut examples = Vec::new();
    let mut problems = Vec::new();
    for file in documents() {
        match self::examples(&file, &read(&file)) {
            Ok(found) => examples.extend(found),
            Err(found) => problems.extend(found),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        examples.len() >= MIN_COMMANDS,
        "README.md and docs/*.md have {} console commands, this test expects at least {MIN_COMMANDS}: lower MIN_COMMANDS only when an example was removed on purpose",
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
            "{}:{} ({}: `{}`)",
            example.file, example.line, example.section, example.command
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
                "{name}\n  the page shows exit code {} and:\n{}\n  the program ended with {} and printed:\n{}",
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

/// The anchor GitHub gives a heading: lower case, with every character but
/// letters, digits, `-`, `_` and spaces dropped, and each space a `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Each line of `text` outside code blocks, with its line number.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((index + 1, line));
        }
    }
    out
}

/// The anchors of `text`'s headings, a repeated one numbered as GitHub
/// numbers it (`name-1`, `name-2`, …).
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, line) in prose(text) {
        let level = line.len() - line.trim_start_matches('#').len();
        let Some(heading) = line[level..]
            .strip_prefix(' ')
            .filter(|_| (1..=6).contains(&level))
        else {
            continue;
        };
        let base = slug(heading);
        let mut anchor = base.clone();
        let mut n = 0;
        while out.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        out.push(anchor);
    }
    out
}

/// The targets of the links and pictures of `text` (`[…](TARGET)`) outside
/// code blocks and code spans, with their line numbers; links to other sites
/// are left out.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (number, line) in prose(text) {
        // Code spans out, so `[a](b)` written as code is not a link.
        let plain: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, piece)| piece)
            .collect::<Vec<_>>()
            .join("");
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = &rest[..end];
            if !target.contains("://") && !target.starts_with("mailto:") {
                out.push((number, target.to_string()));
            }
            rest = &rest[end..];
        }
    }
    out
}

/// What is wrong with the link `target` on line `number` of the document
/// `file`: a file that does not exist, or an anchor no heading has.
fn broken_link(file: &str, number: usize, target: &str) -> Option<String> {
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let folder = Path::new(file).parent().unwrap_or(Path::new(""));
    let linked = if path.is_empty() {
        Path::new(file).to_path_buf()
    } else {
        folder.join(path)
    };
    let full = root().join(&linked);
    if !full.exists() {
        return Some(format!(
            "{file}:{number}: the link {target:?} leads to {}, which does not exist",
            linked.display()
        ));
    }
    let anchor = anchor?;
    if full.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let text = std::fs::read_to_string(&full).expect("read a linked page");
    if anchors(&text).iter().any(|a| a == anchor) {
        return None;
    }
    Some(format!(
        "{file}:{number}: the link {target:?} leads to no heading of {}; its headings' anchors are {:?}",
        linked.display(),
        anchors(&text)
    ))
}

#[test]
fn links_between_the_pages_lead_somewhere() {
    let mut broken = Vec::new();
    for file in documents() {
        for (number, target) in links(&read(&file)) {
            broken.extend(broken_link(&file, number, &target));
        }
    }
    assert!(broken.is_empty(), "\n{}", broken.join("\n"));
}

#[test]
fn every_picture_under_docs_is_shown() {
    let mut shown = Vec::new();
    for file in documents() {
        let folder = Path::new(&file)
            .parent()
            .unwrap_or(Path::new(""))
            .to_path_buf();
        for (_, target) in links(&read(&file)) {
            shown.push(folder.join(target.split('#').next().unwrap_or("")));
        }
    }
    let mut pictures = Vec::new();
    for entry in std::fs::read_dir(root().join("docs")).expect("read docs/") {
        let name = entry.expect("an entry of docs/").file_name();
        let name = name.to_string_lossy();
        if [".png", ".svg", ".jpg", ".gif"]
            .iter()
            .any(|e| name.ends_with(e))
        {
            pictures.push(Path::new("docs").join(name.as_ref()));
        }
    }
    assert!(!pictures.is_empty(), "docs/ holds pictures to check");
    let unshown: Vec<_> = pictures.iter().filter(|p| !shown.contains(p)).collect();
    assert!(
        unshown.is_empty(),
        "no page shows {unshown:?}: show each picture in the page it belongs to, or delete it"
    );
}

/// The words that introduce the test suite's running time.
const SUITE_TIME: &str = "**How long the tests take:**";

#[test]
fn the_quick_start_says_how_long_the_tests_take_in_one_place() {
    let mut places = Vec::new();
    for file in documents() {
        let text = read(&file);
        let mut section = "";
        for (number, line) in prose(&text) {
            if let Some(heading) = line.strip_prefix("## ") {
                section = heading;
            }
            if line.contains(SUITE_TIME) {
                places.push(format!("{file}:{number} ({section})"));
            }
        }
    }
    assert!(
        places.len() == 1
            && places[0].starts_with("README.md:")
            && places[0].contains("(Quick start"),
        "the running time of the tests is written once, in the README's Quick start, after {SUITE_TIME:?}; found: {places:?}"
    );
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
        let found = examples("README.md", text).unwrap();
        assert_eq!(found.len(), 3);
        assert_eq!(
            found[0],
            Example {
                file: "README.md".into(),
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
    fn anchors_are_github_s_and_links_are_found_outside_code() {
        assert_eq!(
            slug("Grading any program (`--exec`)"),
            "grading-any-program---exec"
        );
        assert_eq!(slug("Gradescope's report"), "gradescopes-report");
        assert_eq!(
            anchors("# A\n## B c\n```\n# not a heading\n```\n## B c\n#no\n"),
            vec!["a", "b-c", "b-c-1"]
        );
        let text = "see [a](x.md#y) and ![p](p.png), [web](https://e.org)\n`[c](code)`\n```\n[d](block)\n```\n";
        assert_eq!(
            links(text),
            vec![(1, "x.md#y".to_string()), (1, "p.png".to_string())]
        );
    }

    #[test]
    fn problems_name_the_page_they_are_in() {
        let problems = examples("docs/peg.md", "```sh\n$ peg\n```\n").unwrap_err();
        assert!(problems[0].starts_with("docs/peg.md:2: "), "{problems:?}");
    }

    #[test]
    fn the_guide_s_pages_are_read_after_the_readme() {
        let documents = documents();
        assert_eq!(documents[0], "README.md");
        for page in ["docs/grading-fixtures.md", "docs/peg.md", "docs/sandbox.md"] {
            assert!(
                documents.iter().any(|d| d == page),
                "{page} in {documents:?}"
            );
        }
    }

    #[test]
    fn unchecked_prompts_and_malformed_blocks_are_refused() {
        let problems = |text: &str| examples("README.md", text).unwrap_err().join("\n");
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

/// The programs whose command lines `sh` sketches show.
const PROGRAMS: [&str; 8] = [
    "cnf-grader",
    "connect",
    "mastermind",
    "peg",
    "part01",
    "part02",
    "part03",
    "part04",
];

/// The command lines of the `sh` blocks of `text` (a `\` at a line's end
/// joins the next), each with its line number and without its `#` comment.
fn sketches(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut in_sh = false;
    let mut joining = false;
    for (index, raw) in text.lines().enumerate() {
        let body = raw.trim();
        if let Some(info) = body.strip_prefix("```") {
            in_sh = !in_sh && info.trim() == "sh";
            joining = false;
            continue;
        }
        if !in_sh {
            continue;
        }
        let code = match body.find(" #") {
            Some(at) => &body[..at],
            None => body,
        };
        let (code, more) = match code.trim_end().strip_suffix('\\') {
            Some(code) => (code, true),
            None => (code, false),
        };
        match out.last_mut() {
            Some((_, line)) if joining => {
                line.push(' ');
                line.push_str(code.trim());
            }
            _ => out.push((index + 1, code.trim().to_owned())),
        }
        joining = more;
    }
    out
}

/// Every `sh` sketch of the README and the guide that runs one of the
/// project's programs names a subcommand and flags that program has: the
/// sketches are not run (their paths are an instructor's own), so this is
/// what keeps them from going stale.
#[test]
fn sketches_name_only_subcommands_and_flags_that_exist() {
    let mut path = std::env::join_paths(build_binaries()).expect("a PATH");
    if let Some(rest) = std::env::var_os("PATH") {
        path.push(":");
        path.push(rest);
    }
    let mut helps: std::collections::HashMap<String, String> = Default::default();
    let mut checked = 0;
    let mut problems = Vec::new();
    for file in documents() {
        for (number, line) in sketches(&read(&file)) {
            let words: Vec<String> = line
                .split_whitespace()
                .map(|w| w.trim_matches(|c| c == '[' || c == ']').to_owned())
                .collect();
            // The program starts a command: the line's first word, or after
            // `do`, `|`, `&&` or a `;` (not an argument of cargo's).
            let Some(at) = (0..words.len()).find(|&i| {
                PROGRAMS.contains(&words[i].as_str())
                    && (i == 0
                        || ["do", "|", "&&"].contains(&words[i - 1].as_str())
                        || words[i - 1].ends_with(';'))
            }) else {
                continue;
            };
            let program = &words[at];
            let mut command = vec![program.clone()];
            if let Some(sub) = words.get(at + 1).filter(|w| {
                w.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && !w.contains(['/', '.'])
            }) {
                command.push(sub.clone());
            }
            let key = command.join(" ");
            let help = helps.entry(key.clone()).or_insert_with(|| {
                let run = Cli::new(program)
                    .args(&command[1..])
                    .arg("--help")
                    .env("PATH", &path)
                    .run();
                if run.status.success() {
                    run.stdout.clone()
                } else {
                    String::new()
                }
            });
            if help.is_empty() {
                problems.push(format!("{file}:{number}: `{key} --help` fails: `{line}`"));
                continue;
            }
            checked += 1;
            for flag in words.iter().filter(|w| w.starts_with("--")) {
                let flag = flag.split('=').next().unwrap_or(flag);
                let listed = help.match_indices(flag).any(|(i, _)| {
                    help[i + flag.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| !(c.is_alphanumeric() || c == '-'))
                });
                if !listed {
                    problems.push(format!("{file}:{number}: `{key}` has no {flag}: `{line}`"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // A guard like MIN_COMMANDS: lower it only when a sketch was removed on purpose.
    assert!(checked >= 18, "only {checked} sketch lines were checked");
}
