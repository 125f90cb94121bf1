//! Tests of the HTML pages.

use super::cases::diff_html;
use super::*;
use crate::model::case::Status;
use crate::model::diff::Diff;

#[test]
fn escape_by_hand() {
    assert_eq!(
        escape("<script>x</script></pre>&amp;\"'"),
        "&lt;script&gt;x&lt;/script&gt;&lt;/pre&gt;&amp;amp;&quot;&#39;"
    );
    assert_eq!(
        escape("a\tb\nc\u{1b}[31m\0\r\u{202e}"),
        "a\tb\nc\\u{1b}[31m\\u{0}\\r\\u{202e}"
    );
    assert_eq!(escape("ümlaut ·→"), "ümlaut ·→");
}

#[test]
fn links_are_percent_encoded() {
    assert_eq!(href("ann lee#1?.html"), "ann%20lee%231%3F.html");
    assert_eq!(href("b%ø.html"), "b%25%C3%B8.html");
}

#[test]
fn changed_characters_are_marked_on_each_side() {
    let diff = Diff::new("\"-12-\"\n", "\"-1<-\"\n").unwrap();
    let html = diff_html(&diff, "e", "a");
    assert!(
        html.contains("<span class=\"exp\">-&quot;-1<del>2</del>-&quot;\n</span>"),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"act\">+&quot;-1<ins>&lt;</ins>-&quot;\n</span>"),
        "{html}"
    );
}

fn hostile_case(hidden: bool) -> CaseReport {
    CaseReport {
        fixture: "g<i>.cnf".into(),
        function: "onePlayerOneMove".into(),
        part: Some(1),
        solution: "g.onePlayerOneMove.solution".into(),
        status: Status::Fail,
        failure: Some(crate::model::case::Failure::WrongOutput),
        reason: None,
        diff: Diff::new("\"-1-\"\n", "</pre><script>x</script>&amp;\n"),
        stderr: Some("</pre>oops".into()),
        duration: std::time::Duration::ZERO,
        hidden,
        relaxed: false,
        group: Default::default(),
        usage: None,
    }
}

fn provenance(compare: Compare) -> Provenance {
    Provenance {
        grader: "9.9.9".into(),
        ghc: Some("9.0.2 <x>".into()),
        fixtures: "ab".repeat(32),
        compare,
        sandbox: "bubblewrap 0.8.0".into(),
        date: Some("2026-12-01T00:00:00Z".into()),
        assignment: Default::default(),
    }
}

#[test]
fn every_page_ends_with_its_provenance() {
    let page = parse(&not_graded("ann", "why", None, &provenance(Compare::Exact)));
    assert_eq!(
        texts(&page, "footer.provenance dt"),
        ["grader", "ghc", "fixtures", "compare", "sandbox", "date"]
    );
    assert_eq!(
        texts(&page, "footer.provenance dd"),
        [
            "cnf-grader 9.9.9",
            "9.0.2 <x>",
            &format!("sha256:{}", "ab".repeat(32)),
            "exact",
            "bubblewrap 0.8.0",
            "2026-12-01T00:00:00Z"
        ]
    );
}

fn parse(html: &str) -> scraper::Html {
    scraper::Html::parse_document(html)
}

fn texts(doc: &scraper::Html, css: &str) -> Vec<String> {
    let sel = scraper::Selector::parse(css).unwrap();
    doc.select(&sel).map(|e| e.text().collect()).collect()
}

#[test]
fn hidden_details_go_only_to_the_instructor() {
    let options = |student| ReportOptions {
        student,
        ..ReportOptions::default()
    };
    let cases = [hostile_case(true)];
    let instructor = parse(&report(&cases, options(false), "t"));
    assert_eq!(
        texts(&instructor, "pre.diff span.act"),
        ["+</pre><script>x</script>&amp;\n"]
    );
    assert_eq!(texts(&instructor, "pre.stderr"), ["</pre>oops"]);
    assert!(texts(&instructor, "script").is_empty());
    let student = report(&cases, options(true), "t");
    let doc = parse(&student);
    assert!(texts(&doc, "pre").is_empty(), "{student}");
    assert!(!student.contains("differs") && !student.contains("oops"));
    assert_eq!(texts(&doc, "table.cases td span.status"), ["FAIL"]);
    assert_eq!(texts(&doc, "table.cases td code")[0], "g<i>.cnf");
}

#[test]
fn the_index_escapes_names_and_notes_and_links_each_page() {
    let row = Row {
        student: "a<b> & \"c#1".into(),
        name: None,
        id: None,
        parts: [20.0, 0.0, 30.0, 30.0],
        total: 80.0,
        extra_credit: 0.0,
        extra_cases: 0,
        edge_passed: 0,
        edge_cases: 0,
        failed_cases: 5,
        cases: 20,
        notes: vec!["<script>x</script>".into()],
        error: None,
        not_graded: false,
    };
    let html = class_index(
        &[row],
        "class <x>",
        Some("warn & <b>"),
        &provenance(Compare::Exact),
    );
    let doc = parse(&html);
    assert!(texts(&doc, "script").is_empty());
    assert_eq!(texts(&doc, "h1"), ["class <x>"]);
    assert_eq!(texts(&doc, "p.warning"), ["warn & <b>"]);
    assert_eq!(texts(&doc, "td a"), ["a<b> & \"c#1"]);
    let sel = scraper::Selector::parse("td a").unwrap();
    let a = doc.select(&sel).next().unwrap();
    assert_eq!(
        a.value().attr("href"),
        Some("a%3Cb%3E%20%26%20%22c%231.html")
    );
    let cells = texts(&doc, "tbody td");
    assert_eq!(
        cells[1..],
        [
            "20.00",
            "0.00",
            "30.00",
            "30.00",
            "80.00",
            "0.00",
            "-",
            "5",
            "<script>x</script>"
        ]
    );
    let page = parse(&not_graded(
        "a<b>",
        "cannot read </p>",
        None,
        &provenance(Compare::Whitespace),
    ));
    assert_eq!(
        texts(&page, "p.reason"),
        ["The submission could not be graded: cannot read </p>"]
    );
    assert_eq!(
        texts(&page, "p.mode"),
        ["Comparison: whitespace (any run of white space equals any other)."]
    );
}

/// A student's page names the sandbox but not what it lacks; the
/// instructor's gradebook keeps the whole provenance.
#[test]
fn a_students_page_does_not_list_the_sandboxs_weaknesses() {
    let mut p = provenance(Compare::Exact);
    p.sandbox = "user; weaker: no Landlock, clone3 not filtered".into();
    let page = parse(&not_graded("a", "absent", None, &p));
    let footer = texts(&page, "footer.provenance dd").join(" ");
    assert!(footer.contains("user"), "{footer}");
    assert!(
        !footer.contains("weaker") && !footer.contains("Landlock"),
        "{footer}"
    );
    let index = parse(&class_index(&[], "class", None, &p));
    let footer = texts(&index, "footer.provenance dd").join(" ");
    assert!(footer.contains("weaker: no Landlock"), "{footer}");
}
