//! The HTML reports, parsed with a real HTML parser (`scraper`, on
//! html5ever): `grade --format html` of a program that prints markup,
//! `submissions --html DIR` of the sample class, and the checks made
//! before any grading.
//!
//! The hostile program prints `<script>alert(1)</script></pre>&amp;`: if a
//! single byte of it reached the page unescaped, the parser would find a
//! `script` element, close the diff's `<pre>` early (leaving the rest of
//! the page inside the wrong elements) or read `&amp;` as `&`.

use std::fs;
use std::path::Path;

use scraper::{ElementRef, Html, Selector};
use test_support::{Cli, Run, Tool};

const HOSTILE: &str = "<script>alert(1)</script></pre>&amp;";
const FIXTURES: &str = "tests/submissions/fixtures";
const CLASS: &str = "tests/submissions/class";

/// `cnf-grader`, with no arguments yet.
fn grader() -> Cli {
    Cli::new(env!("CARGO_BIN_EXE_cnf-grader"))
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap()
}

fn text(e: ElementRef<'_>) -> String {
    e.text().collect()
}

fn all(doc: &Html, css: &str) -> Vec<String> {
    doc.select(&sel(css)).map(text).collect()
}

/// A fixture tree: `test03` (its `onePlayerOneMove` case) visible and
/// `four-horizontal` (the same function) under `hidden/`.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("hidden")).unwrap();
    for (name, to) in [
        ("test03.cnf", "test03.cnf"),
        (
            "test03.onePlayerOneMove.solution",
            "test03.onePlayerOneMove.solution",
        ),
        ("four-horizontal.cnf", "hidden/four-horizontal.cnf"),
        (
            "four-horizontal.onePlayerOneMove.solution",
            "hidden/four-horizontal.onePlayerOneMove.solution",
        ),
    ] {
        fs::copy(manifest().join(FIXTURES).join(name), dir.path().join(to)).unwrap();
    }
    dir
}

/// `grade --exec` of the hostile program on `tree()`: the HTML page it
/// wrote, parsed and as text, and the run.
fn hostile_page(extra: &[&str]) -> (Html, String, Run) {
    let fixtures = tree();
    let work = tempfile::tempdir().unwrap();
    let page = work.path().join("out/report.html");
    fs::create_dir_all(page.parent().unwrap()).unwrap();
    let out = grader()
        .arg("grade")
        .arg(fixtures.path())
        .arg("--exec")
        .arg(format!("printf '{HOSTILE}\\n'"))
        .args(["--format", "html", "--points", "--output"])
        .arg(&page)
        .args(extra)
        .current_dir(work.path())
        .run();
    let html = fs::read_to_string(&page).unwrap_or_default();
    (Html::parse_document(&html), html, out)
}

/// Nothing the page could load or run: no script, no external resource, a
/// policy that forbids both, and links only within the page.
fn assert_self_contained(doc: &Html) {
    assert_eq!(doc.select(&sel("script")).count(), 0);
    for tag in ["link", "img", "iframe", "object", "embed", "base", "form"] {
        assert_eq!(doc.select(&sel(tag)).count(), 0, "<{tag}> in the page");
    }
    assert_eq!(doc.select(&sel("head > style")).count(), 1);
    let csp = doc
        .select(&sel("meta[http-equiv=Content-Security-Policy]"))
        .next()
        .expect("a Content-Security-Policy");
    assert_eq!(
        csp.value().attr("content"),
        Some("default-src 'none'; style-src 'unsafe-inline'")
    );
    for a in doc.select(&sel("a[href]")) {
        let href = a.value().attr("href").unwrap();
        assert!(!href.contains(':') && !href.starts_with("//"), "{href}");
    }
    for e in doc.select(&sel("*")) {
        for (name, _) in e.value().attrs() {
            assert!(!name.starts_with("on"), "event handler {name}");
        }
    }
}

#[test]
fn a_hostile_output_is_escaped_and_the_page_keeps_its_structure() {
    let args = test_support::sandbox_or_not("html hostile output");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (doc, html, out) = hostile_page(&args);
    // The page goes to --output only.
    out.code(1).stdout_is("");
    assert_self_contained(&doc);
    // The visible failure's diff shows exactly what the program printed.
    let actual = all(&doc, "pre.diff span.act");
    assert_eq!(actual, [format!("+{HOSTILE}\n")], "{html}");
    // Escaped in the source, not merely hidden by the parser's recovery.
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;/pre&gt;&amp;amp;"),
        "{html}"
    );
    // The page's structure is intact: one diff, closed where it should
    // be, and every part of the page after it still a child of body.
    assert_eq!(doc.select(&sel("pre")).count(), 1);
    for part in [
        "h1",
        "p.mode",
        "table.points",
        "table.cases",
        "footer.totals",
    ] {
        assert_eq!(
            doc.select(&sel(&format!("body > {part}"))).count(),
            1,
            "{part}"
        );
    }
    assert_eq!(
        all(&doc, "body > footer.totals"),
        ["0 passed, 2 failed"],
        "{html}"
    );
    // Both cases are listed with status and points: 0 of 10 each (part 1's
    // 10 test-case points shared by its two cases, 5 each).
    let rows: Vec<Vec<String>> = doc
        .select(&sel("table.cases tbody tr"))
        .map(|r| r.select(&sel("td")).map(text).collect())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][0], "FAIL");
    assert!(
        rows[0][1].ends_with("hidden/four-horizontal.cnfhidden"),
        "{rows:?}"
    );
    assert_eq!(rows[0][2], "onePlayerOneMove");
    assert_eq!(rows[0][3], "0.00/5.00");
    assert!(rows[1][1].ends_with("/test03.cnf"), "{rows:?}");
    assert_eq!(rows[1][3], "0.00/5.00");
}

#[test]
fn a_hidden_case_shows_only_its_name_status_and_points() {
    let (doc, html, _) = hostile_page(&["--no-sandbox"]);
    let sections: Vec<ElementRef<'_>> = doc.select(&sel("section.case")).collect();
    assert_eq!(sections.len(), 2);
    let hidden = sections
        .iter()
        .find(|s| text(**s).contains("hidden/four-horizontal.cnf"))
        .expect("the hidden case's section");
    assert_eq!(hidden.select(&sel("pre")).count(), 0, "{html}");
    assert_eq!(
        all(&doc, "section.case p.reason")
            .iter()
            .filter(|r| r.starts_with("Hidden test"))
            .count(),
        1
    );
    // Neither its expected output (row "22322", only in four-horizontal's
    // solution) nor its solution's path nor its reason is anywhere.
    assert!(!html.contains("22322"), "{html}");
    assert!(!html.contains("four-horizontal.onePlayerOneMove.solution"));
    assert_eq!(html.matches("the output differs").count(), 1);
}

#[test]
fn the_warning_and_the_comparison_mode_are_on_the_page() {
    let (doc, _, _) = hostile_page(&["--no-sandbox", "--compare", "whitespace"]);
    let warning = all(&doc, "body > p.warning");
    assert_eq!(warning.len(), 1);
    assert!(
        warning[0].starts_with("warning: --no-sandbox:"),
        "{warning:?}"
    );
    assert_eq!(
        all(&doc, "body > p.mode"),
        ["Comparison: whitespace (any run of white space equals any other)."]
    );
}

#[test]
fn html_outputs_are_checked_before_grading() {
    let tmp = tempfile::tempdir().unwrap();
    let class = tmp.path().join("class");
    fs::create_dir_all(class.join("index")).unwrap();
    fs::write(tmp.path().join("file"), "").unwrap();
    let run = |html: &Path| {
        grader()
            .arg("submissions")
            .arg(&class)
            .arg(manifest().join(FIXTURES))
            .arg("--html")
            .arg(html)
            .arg("--cache")
            .arg(tmp.path().join("cache"))
            .run()
    };
    run(&tmp.path().join("file"))
        .code(2)
        .stderr_has("--html")
        .stderr_has("is a file");
    // A student folder named `index` would overwrite the gradebook.
    run(&tmp.path().join("pages"))
        .code(2)
        .stderr_has("index.html");
    assert!(!tmp.path().join("cache").exists(), "nothing was graded");
}

fn read(path: &Path) -> (Html, String) {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (Html::parse_document(&text), text)
}

/// Points (see `submission_cli.rs` for how each was worked out by hand).
const TOTALS: [(&str, &str); 6] = [
    ("correct", "100.00"),
    ("loops", "96.00"),
    ("missing-part", "80.00"),
    ("no-compile", "70.00"),
    ("no-diagonal", "92.00"),
    ("own-helpers", "100.00"),
];

#[test]
fn a_class_gets_an_index_and_a_page_per_student() {
    if !test_support::require("html class pages", &[Tool::Ghc, Tool::Bwrap]) {
        return;
    }
    // The sample fixtures, with test03 hidden.
    let tmp = tempfile::tempdir().unwrap();
    let cache = test_support::grader_cache();
    let fixtures = tmp.path().join("fixtures");
    fs::create_dir_all(fixtures.join("hidden")).unwrap();
    for e in fs::read_dir(manifest().join(FIXTURES)).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let to = if name.starts_with("test03.") {
            fixtures.join("hidden").join(&name)
        } else {
            fixtures.join(&name)
        };
        fs::copy(e.path(), to).unwrap();
    }
    let grade = |pages: &Path, resume: bool| {
        let command = grader()
            .arg("submissions")
            .arg(manifest().join(CLASS))
            .arg(&fixtures)
            .args(["--timeout", "2s", "--no-times", "--html"])
            .arg(pages)
            .arg("--cache")
            .arg(&cache);
        let command = if resume {
            command.arg("--resume")
        } else {
            command
        };
        command.run().code(0);
    };
    let pages = tmp.path().join("pages");
    grade(&pages, false);

    let (index, _) = read(&pages.join("index.html"));
    assert_self_contained(&index);
    assert_eq!(
        all(&index, "body > p.mode"),
        ["Comparison: exact (byte for byte)."]
    );
    assert_eq!(index.select(&sel("p.warning")).count(), 0);
    let rows: Vec<ElementRef<'_>> = index.select(&sel("table.gradebook tbody tr")).collect();
    assert_eq!(rows.len(), TOTALS.len());
    for (row, (student, total)) in rows.iter().zip(TOTALS) {
        let link = row.select(&sel("td a")).next().unwrap();
        assert_eq!(text(link), student);
        let href = link.value().attr("href").unwrap();
        assert_eq!(href, format!("{student}.html"));
        assert!(pages.join(href).is_file());
        let cells: Vec<String> = row.select(&sel("td")).map(text).collect();
        assert_eq!(cells[5], total, "{student}");
    }
    let notes: Vec<String> = rows
        .iter()
        .map(|r| text(r.select(&sel("td")).last().unwrap()))
        .collect();
    assert_eq!(notes[2], "part 2 missing");

    // A failing student's page: points, compilation with GHC's errors,
    // every case, the failures, the notes.
    let (page, html) = read(&pages.join("no-compile.html"));
    assert_self_contained(&page);
    let total = page
        .select(&sel("table.points tr.total td"))
        .next_back()
        .unwrap();
    assert_eq!(text(total), "70.00/100");
    let compile: Vec<String> = all(&page, "table.compilation tbody tr td:first-child");
    assert_eq!(compile, ["PASS", "PASS", "FAIL", "PASS"]);
    let errors = all(&page, "pre.compile-errors");
    assert_eq!(errors.len(), 1);
    assert!(errors[0].contains("Couldn't match type"), "{html}");
    // Five games, four functions each.
    assert_eq!(page.select(&sel("table.cases tbody tr")).count(), 20);
    assert_eq!(all(&page, "ul.notes li"), ["part 3 did not compile"]);
    // Every test: the four compilations (one failed) and the twenty cases.
    assert_eq!(all(&page, "footer.totals"), ["18 passed, 6 failed"]);

    // Its diffs mark the changed characters; its hidden failure shows none.
    let (page, html) = read(&pages.join("no-diagonal.html"));
    let sections: Vec<ElementRef<'_>> = page.select(&sel("section.case")).collect();
    assert_eq!(sections.len(), 3);
    for section in &sections {
        let title = text(section.select(&sel("h3")).next().unwrap());
        if title.contains("hidden/test03.cnf") {
            assert_eq!(section.select(&sel("pre")).count(), 0, "{html}");
        } else {
            assert_eq!(section.select(&sel("pre.diff")).count(), 1, "{title}");
            assert!(section.select(&sel("pre.diff del")).count() > 0, "{title}");
            assert!(section.select(&sel("pre.diff ins")).count() > 0, "{title}");
        }
    }
    assert!(
        !html.contains("test03.onePlayerManyMoves.solution"),
        "{html}"
    );
    let hidden_rows = page
        .select(&sel("table.cases tbody tr"))
        .filter(|r| text(*r).contains("hidden/test03.cnf"))
        .count();
    assert_eq!(hidden_rows, 4, "hidden cases are still listed");

    // `submission --format html` gives the same page for one student.
    let single = tmp.path().join("single.html");
    grader()
        .arg("submission")
        .arg(manifest().join(CLASS).join("no-diagonal"))
        .arg(&fixtures)
        .args([
            "--timeout",
            "2s",
            "--no-times",
            "--format",
            "html",
            "--output",
        ])
        .arg(&single)
        .arg("--cache")
        .arg(test_support::grader_cache())
        .run()
        .code(1);
    assert_eq!(fs::read_to_string(&single).unwrap(), html);

    // A resumed run restores each page as it was.
    let again = tmp.path().join("again");
    grade(&again, true);
    for (student, _) in TOTALS {
        let file = format!("{student}.html");
        assert_eq!(
            fs::read_to_string(pages.join(&file)).unwrap(),
            fs::read_to_string(again.join(&file)).unwrap(),
            "{file}"
        );
    }
    assert_eq!(
        fs::read_to_string(pages.join("index.html")).unwrap(),
        fs::read_to_string(again.join("index.html")).unwrap()
    );
}
