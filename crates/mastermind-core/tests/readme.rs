//! The README's Mastermind examples are what the program prints: every `console` block of
//! that section is run, command by command, and its output compared line by line (a line
//! `...` stands for any number of lines, as in trycmd).

use std::process::{Command, Stdio};

/// The README's Mastermind section.
fn section() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let text = std::fs::read_to_string(path).expect("read README.md");
    let start = text.find("## Mastermind").expect("a Mastermind section");
    let rest = &text[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_string()
}

/// Each `$ mastermind ARGS` of a `console` block with the lines that follow it.
fn examples(section: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    // The indentation of the open block's fence (blocks in list items are indented).
    let mut fence: Option<usize> = None;
    for line in section.lines() {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        match fence {
            None if body == "```console" => fence = Some(indent),
            None => {}
            Some(_) if body == "```" => fence = None,
            Some(n) => {
                let line = line.get(n..).unwrap_or("").trim_end();
                match line.strip_prefix("$ ") {
                    Some(command) => out.push((command.to_string(), Vec::new())),
                    None => out
                        .last_mut()
                        .expect("output after a command")
                        .1
                        .push(line.to_string()),
                }
            }
        }
    }
    out
}

/// Whether `actual` is `expected`, where a line `...` matches any number of lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => (0..=actual.len()).any(|i| matches(rest, &actual[i..])),
        Some((e, rest)) => {
            actual.first().is_some_and(|a| a.trim_end() == e) && matches(rest, &actual[1..])
        }
    }
}

#[test]
fn readme_examples_are_what_mastermind_prints() {
    let examples = examples(&section());
    assert_eq!(examples.len(), 4, "{examples:?}");
    for (command, expected) in examples {
        let mut words = command.split_whitespace();
        assert_eq!(words.next(), Some("mastermind"), "{command}");
        let out = Command::new(env!("CARGO_BIN_EXE_mastermind"))
            .args(words)
            .stdin(Stdio::null())
            .output()
            .expect("start mastermind");
        assert_eq!(out.status.code(), Some(0), "{command}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let actual: Vec<&str> = stdout.lines().collect();
        assert!(
            matches(&expected, &actual),
            "{command}: the README shows\n{}\nbut the program prints\n{}",
            expected.join("\n"),
            actual[..actual.len().min(20)].join("\n")
        );
    }
}

#[test]
fn elision_matches_any_lines_and_nothing_else() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(&e(&["a", "..."]), &["a", "b", "c"]));
    assert!(matches(&e(&["a", "...", "c"]), &["a", "c"]));
    assert!(!matches(&e(&["a", "b"]), &["a", "b", "c"]));
    assert!(!matches(&e(&["a", "...", "d"]), &["a", "b", "c"]));
}
