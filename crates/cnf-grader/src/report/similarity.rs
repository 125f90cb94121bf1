//! The similarity report's renderers: human text, JSON and HTML pages.
//! Each takes the typed [`Report`] and returns text; none computes.
//!
//! Decisions:
//! - `human` and `html` list the pairs at or above the threshold; `json`
//!   lists every pair kept: those at or above the threshold and each
//!   student's closest pairs below it (ten by default), so a script sees
//!   every student's neighbours without a list that grows with the square
//!   of the class;
//! - every name and every line of a student's file is shown escaped
//!   ([`crate::escape`], then HTML's escapes in a page);
//! - similarities are shown and written to two decimals;
//! - an HTML pair page shows the two students' files side by side, each
//!   matching definition in the same colour on both sides, numbered like
//!   its row in the legend (so the page reads the same printed in black
//!   and white), and links from the legend to both places.

use std::fmt::Write as _;

use serde_json::json;

use crate::escape;
use crate::model::similarity::{BLIND_SPOTS, IGNORES, Match, Pair, Provenance, Report, Student};
use crate::report::html::{escape as html_escape, href, page_head};

/// A similarity to two decimals.
fn two_decimals(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A part file's short name: `part01` for `csce322assignment03part01.hs`.
fn short_file(name: &str) -> String {
    let short = name
        .strip_prefix("csce322assignment03")
        .unwrap_or(name)
        .strip_suffix(".hs")
        .unwrap_or(name);
    escape::line(short).into_owned()
}

/// The pairs at or above `threshold`.
fn listed(report: &Report, threshold: f64) -> impl Iterator<Item = &Pair> {
    report
        .pairs
        .iter()
        .filter(move |p| two_decimals(p.similarity) >= threshold)
}

/// `part01 10-24 = part02 12-30`.
fn match_words(report: &Report, pair: &Pair, m: &Match) -> String {
    let (a, b) = (&report.students[pair.a], &report.students[pair.b]);
    format!(
        "{} {}-{} = {} {}-{}",
        short_file(&a.files[m.a.file].name),
        m.a.lines.0,
        m.a.lines.1,
        short_file(&b.files[m.b.file].name),
        m.b.lines.0,
        m.b.lines.1
    )
}

/// Notes on students whose files were not all read or compared.
fn notes(students: &[Student]) -> Vec<String> {
    students
        .iter()
        .flat_map(|s| {
            s.notes
                .iter()
                .map(move |n| format!("{}: {}", escape::line(&s.name), escape::line(n)))
        })
        .collect()
}

/// Most matches listed on one line of the human table.
const SHOWN_MATCHES: usize = 3;

/// The human report: a summary, the pairs at or above `threshold` as a
/// table (similarity, shared fingerprints, students, matched lines), notes,
/// what is ignored and what is not seen, and the provenance.
pub fn human(report: &Report, provenance: &Provenance, threshold: f64) -> String {
    let mut out = String::new();
    let pairs: Vec<&Pair> = listed(report, threshold).collect();
    let _ = writeln!(
        out,
        "{} students compared; {} pairs share code, {} at or above {threshold:.2}",
        report.students.len(),
        report.sharing,
        pairs.len()
    );
    out.push('\n');
    if pairs.is_empty() {
        match report.pairs.first() {
            Some(top) => {
                let _ = writeln!(
                    out,
                    "No pair at or above {threshold:.2}; the highest is {:.2} ({} and {}).",
                    top.similarity,
                    escape::line(&report.students[top.a].name),
                    escape::line(&report.students[top.b].name)
                );
            }
            None => out.push_str("No two students share code.\n"),
        }
    } else {
        let name = |i: usize| escape::line(&report.students[i].name).into_owned();
        let shared = |p: &Pair| {
            let smaller = report.students[p.a]
                .fingerprints
                .min(report.students[p.b].fingerprints);
            format!("{}/{}", p.shared, smaller)
        };
        let wa = pairs
            .iter()
            .map(|p| name(p.a).chars().count())
            .max()
            .unwrap_or(0)
            .max(9);
        let wb = pairs
            .iter()
            .map(|p| name(p.b).chars().count())
            .max()
            .unwrap_or(0)
            .max(9);
        let ws = pairs
            .iter()
            .map(|p| shared(p).len())
            .max()
            .unwrap_or(0)
            .max(6);
        let _ = writeln!(
            out,
            "similarity  {:>ws$}  {:<wa$}  {:<wb$}  matched lines",
            "shared", "student a", "student b"
        );
        for p in pairs {
            let mut lines: Vec<String> = p
                .matches
                .iter()
                .take(SHOWN_MATCHES)
                .map(|m| match_words(report, p, m))
                .collect();
            if p.matches.len() > SHOWN_MATCHES {
                lines.push(format!("+{} more", p.matches.len() - SHOWN_MATCHES));
            }
            let row = format!(
                "{:>10.2}  {:>ws$}  {:<wa$}  {:<wb$}  {}",
                p.similarity,
                shared(p),
                name(p.a),
                name(p.b),
                lines.join(", ")
            );
            out.push_str(row.trim_end());
            out.push('\n');
        }
    }
    let notes = notes(&report.students);
    if !notes.is_empty() {
        out.push_str("\nnotes:\n");
        for n in notes {
            let _ = writeln!(out, "  {n}");
        }
    }
    let _ = write!(out, "\n{IGNORES}\n{BLIND_SPOTS}\n\n{}\n", provenance.line());
    out
}

/// The JSON report: every pair kept (at or above the threshold, and each
/// student's closest), highest first, with its matches, and the provenance.
pub fn json(report: &Report, provenance: &Provenance) -> String {
    let name = |i: usize| escape::line(&report.students[i].name).into_owned();
    let pairs: Vec<serde_json::Value> = report
        .pairs
        .iter()
        .map(|p| {
            let (a, b) = (&report.students[p.a], &report.students[p.b]);
            let matches: Vec<serde_json::Value> = p
                .matches
                .iter()
                .map(|m| {
                    json!({
                        "a": {"file": escape::line(&a.files[m.a.file].name), "lines": [m.a.lines.0, m.a.lines.1]},
                        "b": {"file": escape::line(&b.files[m.b.file].name), "lines": [m.b.lines.0, m.b.lines.1]},
                    })
                })
                .collect();
            json!({
                "a": name(p.a),
                "b": name(p.b),
                "similarity": two_decimals(p.similarity),
                "matches": matches,
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&json!({
        "pairs": pairs,
        "provenance": provenance,
    }))
    .unwrap_or_default();
    text.push('\n');
    text
}

/// Extra style of the similarity pages.
const STYLE: &str = "\
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.sides > div { min-width: 0; }
pre.src { padding: .4rem 0; white-space: pre; overflow-x: auto; }
pre.src span.l { display: block; padding: 0 .6rem 0 0; }
pre.src span.n { display: inline-block; width: 3.2em; color: #6e7781; text-align: right; margin-right: .8em;
  user-select: none; }
.m0 { background: #ffd8b5; } .m1 { background: #c8e1ff; } .m2 { background: #d1f5c8; }
.m3 { background: #f5c8e8; } .m4 { background: #fff1a8; } .m5 { background: #c8f0f0; }
.m6 { background: #e0d4ff; } .m7 { background: #ffc8c8; }
span.tagm { font-weight: 700; font-size: 12px; margin-left: .3em; }
summary { cursor: pointer; margin: .6rem 0; font-weight: 600; }
@media print { details > table { display: table; } }
.notice { color: #57606a; }
";

/// How many colours matched regions cycle through.
const COLOURS: usize = 8;

/// The file name of the page of the pair listed `rank`-th (from 1).
pub fn pair_page(rank: usize) -> String {
    format!("pair-{rank:04}.html")
}

/// The provenance footer, then the end of a page.
fn tail(out: &mut String, provenance: &Provenance) {
    out.push_str("<footer class=\"provenance\"><dl>");
    for (name, value) in provenance.fields() {
        let _ = write!(
            out,
            "<dt>{}</dt><dd>{}</dd>",
            html_escape(name),
            html_escape(&value)
        );
    }
    out.push_str("</dl></footer>\n</body>\n</html>\n");
}

/// What every page says it ignores and cannot see.
fn caveats(out: &mut String) {
    let _ = writeln!(
        out,
        "<p class=\"mode\">{}</p>\n<p class=\"mode\">{}</p>",
        html_escape(IGNORES),
        html_escape(BLIND_SPOTS)
    );
}

/// The HTML report: `index.html` (every pair at or above `threshold`,
/// linking to its page) and one page per pair, as (file name, page).
pub fn html(
    report: &Report,
    provenance: &Provenance,
    threshold: f64,
    title: &str,
) -> Vec<(String, String)> {
    let pairs: Vec<&Pair> = listed(report, threshold).collect();
    let mut pages = Vec::with_capacity(pairs.len() + 1);
    let mut index = String::new();
    page_head(&mut index, title, STYLE);
    let _ = writeln!(
        index,
        "<h1>{}</h1>\n<p class=\"facts\">{} students compared · {} pairs share code · {} at or above {threshold:.2}</p>",
        html_escape(title),
        report.students.len(),
        report.sharing,
        pairs.len()
    );
    caveats(&mut index);
    if pairs.is_empty() {
        index.push_str("<p>No pair at or above the threshold.</p>\n");
    } else {
        index.push_str(
            "<table>\n<thead><tr><th class=\"num\">#</th><th class=\"num\">similarity</th>\
             <th class=\"num\">shared</th><th>student a</th><th>student b</th><th>matched definitions</th></tr></thead>\n<tbody>\n",
        );
        for (n, p) in pairs.iter().enumerate() {
            let rank = n + 1;
            let (a, b) = (&report.students[p.a], &report.students[p.b]);
            let names: Vec<String> = p
                .matches
                .iter()
                .map(|m| html_escape(a.definition(&m.a)))
                .collect();
            let _ = writeln!(
                index,
                "<tr><td class=\"num\"><a href=\"{}\">{rank}</a></td><td class=\"num\"><a href=\"{}\">{:.2}</a></td>\
                 <td class=\"num\">{}/{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
                href(&pair_page(rank)),
                href(&pair_page(rank)),
                p.similarity,
                p.shared,
                a.fingerprints.min(b.fingerprints),
                html_escape(&a.name),
                html_escape(&b.name),
                names.join("</code>, <code>")
            );
        }
        index.push_str("</tbody>\n</table>\n");
    }
    let notes = notes(&report.students);
    if !notes.is_empty() {
        index.push_str("<h2>Notes</h2>\n<ul class=\"notes\">\n");
        for n in notes {
            let _ = writeln!(index, "<li>{}</li>", html_escape(&n));
        }
        index.push_str("</ul>\n");
    }
    tail(&mut index, provenance);
    pages.push(("index.html".to_owned(), index));
    for (n, p) in pairs.iter().enumerate() {
        pages.push((pair_page(n + 1), pair(report, provenance, p, n + 1)));
    }
    pages
}

/// One pair's page: the legend of matches, then both students' files side
/// by side with each match in its colour.
fn pair(report: &Report, provenance: &Provenance, p: &Pair, rank: usize) -> String {
    let (a, b) = (&report.students[p.a], &report.students[p.b]);
    let title = format!("{:.2}: {} and {}", p.similarity, a.name, b.name);
    let mut out = String::new();
    page_head(&mut out, &title, STYLE);
    let _ = writeln!(
        out,
        "<p><a href=\"index.html\">All pairs</a> · pair {rank}</p>\n<h1>{}</h1>\n\
         <p class=\"facts\">Similarity <b>{:.2}</b>: {} fingerprints shared of the {} of the student with fewer \
         ({} has {}, {} has {}).</p>",
        html_escape(&title),
        p.similarity,
        p.shared,
        a.fingerprints.min(b.fingerprints),
        html_escape(&a.name),
        a.fingerprints,
        html_escape(&b.name),
        b.fingerprints
    );
    caveats(&mut out);
    let _ = writeln!(
        out,
        "<details><summary>{} matching definitions, each in its colour on both sides</summary>",
        p.matches.len()
    );
    out.push_str(
        "<table>\n<thead><tr><th class=\"num\">match</th><th>student a</th><th>student b</th>\
         <th class=\"num\">shared</th></tr></thead>\n<tbody>\n",
    );
    for (i, m) in p.matches.iter().enumerate() {
        let side = |s: &Student, r: &crate::model::similarity::Region, name: &str, which: &str| {
            format!(
                "<a href=\"#{which}{i}\"><code>{}</code></a> lines {}–{} (<code>{}</code>)",
                html_escape(&s.files[r.file].name),
                r.lines.0,
                r.lines.1,
                html_escape(name)
            )
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"num m{}\">{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
            i % COLOURS,
            i + 1,
            side(a, &m.a, a.definition(&m.a), "a"),
            side(b, &m.b, b.definition(&m.b), "b"),
            m.shared
        );
    }
    out.push_str("</tbody>\n</table>\n</details>\n<div class=\"sides\">\n");
    for (student, which) in [(a, 'a'), (b, 'b')] {
        let _ = writeln!(out, "<div>\n<h2>{}</h2>", html_escape(&student.name));
        let regions: Vec<(usize, &crate::model::similarity::Region)> = p
            .matches
            .iter()
            .enumerate()
            .map(|(i, m)| (i, if which == 'a' { &m.a } else { &m.b }))
            .collect();
        let mut unmatched = Vec::new();
        for (f, file) in student.files.iter().enumerate() {
            let here: Vec<&(usize, &crate::model::similarity::Region)> =
                regions.iter().filter(|(_, r)| r.file == f).collect();
            if here.is_empty() {
                unmatched.push(html_escape(&file.name));
                continue;
            }
            let _ = writeln!(
                out,
                "<h3><code>{}</code></h3>\n<pre class=\"src\">",
                html_escape(&file.name)
            );
            for (n, line) in file.text.lines().enumerate() {
                let number = n as u32 + 1;
                let region = here
                    .iter()
                    .find(|(_, r)| (r.lines.0..=r.lines.1).contains(&number));
                let (class, id, tag) = match region {
                    Some((i, r)) => (
                        format!(" m{}", i % COLOURS),
                        if r.lines.0 == number {
                            format!(" id=\"{which}{i}\"")
                        } else {
                            String::new()
                        },
                        if r.lines.0 == number {
                            format!("<span class=\"tagm\">[{}]</span>", i + 1)
                        } else {
                            String::new()
                        },
                    ),
                    None => (String::new(), String::new(), String::new()),
                };
                // Each line is a block of its own: no line feed between them.
                let _ = write!(
                    out,
                    "<span class=\"l{class}\"{id}><span class=\"n\">{number}</span>{}{tag}</span>",
                    html_escape(line)
                );
            }
            out.push_str("</pre>\n");
        }
        if !unmatched.is_empty() {
            let _ = writeln!(
                out,
                "<p class=\"notice\">No match in <code>{}</code>.</p>",
                unmatched.join("</code>, <code>")
            );
        }
        out.push_str("</div>\n");
    }
    out.push_str("</div>\n");
    tail(&mut out, provenance);
    out
}
