//! The similarity report's renderers: human text, JSON and HTML pages.
//! Each takes the typed [`Report`] and returns text; none computes.
//!
//! Decisions:
//! - `human` and `html` list the kept pairs flagged (at or above the cut,
//!   the class's own, [`crate::model::similarity::cut`], or `--threshold`;
//!   and with the class's own cut, those near the top pairs or in the top
//!   cluster, [`crate::model::similarity::Cut::flag_from`]) and always the
//!   highest few; a listed pair below the cut is called "near the top
//!   pairs" when flagged, "below the cut" when not; `json` lists every pair kept (each
//!   student's closest, ten by default), so a script sees every student's
//!   neighbours without a list that grows with the square of the class,
//!   with `matches` for the highest `--max-pages` (the pairs whose
//!   evidence was looked for) and none for the others;
//! - every list is bounded: at most `max_rows` rows and pages, and what
//!   is left out is counted where the list ends;
//! - every name and every line of a student's file is shown escaped
//!   ([`crate::escape`], then HTML's escapes in a page);
//! - similarities are shown and written to two decimals;
//! - an HTML pair page shows each matched definition side by side (the
//!   student a's definition, at its first place, next to the one it
//!   matches), then both students' whole
//!   files; only the lines holding a matching k-gram's tokens are
//!   coloured, one colour and one number per definition of student a (a
//!   helper pasted into four part files is one colour), numbered like its
//!   row in the legend so the page reads the same printed in black and
//!   white.

use std::fmt::Write as _;

use serde_json::json;

use crate::escape;
use crate::model::similarity::{
    BLIND_SPOTS, IGNORES, Match, Pair, Provenance, Region, Report, Student,
};
use crate::report::html::{escape as html_escape, href, page_head};

/// A similarity to two decimals.
fn two_decimals(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A part file's short name: `part01` for `csce322assignment03part01.hs`
/// (`Part01` for a misnamed `CSCE322Assignment03Part01.hs`).
fn short_file(name: &str) -> String {
    const PREFIX: &str = "csce322assignment03";
    let rest = name
        .get(..PREFIX.len())
        .filter(|p| p.eq_ignore_ascii_case(PREFIX))
        .map_or(name, |_| &name[PREFIX.len()..]);
    let short = rest.strip_suffix(".hs").unwrap_or(name);
    escape::line(short).into_owned()
}

/// The pairs listed: those flagged (at or above the cut, near the top
/// pairs or in the top cluster), and the highest few.
fn listed(report: &Report) -> impl Iterator<Item = &Pair> {
    let (from, top) = (report.cut.flag_from, report.options.top);
    report
        .pairs
        .iter()
        .enumerate()
        .filter(move |(i, p)| two_decimals(p.similarity) >= from - 1e-9 || *i < top)
        .map(|(_, p)| p)
}

/// What a listed pair's row says of where it stands: nothing at or above
/// the cut, "near the top pairs" when flagged below it, else "below the cut".
fn standing(report: &Report, p: &Pair) -> Option<&'static str> {
    let s = two_decimals(p.similarity);
    if s >= report.cut.at - 1e-9 {
        None
    } else if s >= report.cut.flag_from - 1e-9 {
        Some("(near the top pairs)")
    } else {
        Some("(below the cut)")
    }
}

/// `n` and the noun, singular or plural.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Three lines: how many pairs share anything, are at or above the cut
/// (and flagged below it) and are listed; where the cut is and why, what
/// else is flagged when anything is, and whether the median pair is
/// itself high; how a pair is scored.
fn summary(report: &Report, listed: usize, shown: usize) -> [String; 3] {
    let cut = &report.cut;
    let mut first = format!(
        "{} compared; {} code, {} at or above the cut {:.2}",
        count(report.students.len(), "student", "students"),
        count(report.sharing, "pair shares", "pairs share"),
        report.above_cut,
        cut.at,
    );
    let near = report.flagged.saturating_sub(report.above_cut);
    if near > 0 {
        first.push_str(&format!(
            " and {near} more near the top pairs (from {:.2})",
            cut.flag_from
        ));
    }
    first.push_str(&format!("; {listed} listed"));
    if shown < listed {
        first.push_str(&format!(", {shown} shown ({} left out)", listed - shown));
    }
    first.push('.');
    let why = if cut.fixed {
        "The cut is given by --threshold.".to_owned()
    } else {
        format!(
            "The cut is the class's own: the median of all pairs ({:.2}) plus {:.1} × 1.4826 × their median \
             absolute deviation ({:.2}, taken as at least {:.2}).",
            cut.median,
            crate::model::similarity::OUTLIER_Z,
            cut.mad,
            crate::model::similarity::MIN_MAD
        )
    };
    let mut second = why;
    if report.flagged > report.above_cut {
        second.push_str(&format!(
            " Flagged with the pairs at or above it, from {:.2} up: those within {:.2} of the \
             highest pair, and the top cluster, the pairs above the widest gap between two \
             pairs when it is wider than {:.2} ({}).",
            crate::model::similarity::LOWEST_CUT,
            crate::model::similarity::NEAR_TOP,
            crate::model::similarity::NEAR_TOP,
            cut.cluster.map_or("none here".to_owned(), |c| format!(
                "here {:.2} and up, the next pair {:.2}",
                c.from, c.next
            )),
        ));
    }
    second.push_str(&format!(
        " Each student's {} closest pairs are kept; the {} highest are always listed.",
        report.options.closest, report.options.top
    ));
    if cut.median >= crate::model::similarity::LOWEST_CUT - 1e-9 {
        second.push_str(&format!(
            " The median pair is {:.2}: most of the class shares this code (copied from one \
             another, or handed out and not given with --base).",
            cut.median
        ));
    }
    [first, second, SCORED.to_owned()]
}

/// How a pair's similarity is computed, as the summary says it
/// ([`crate::model::similarity::score`]).
const SCORED: &str = "A pair's similarity is the mean of shared/fewer and shared/more: the \
fingerprints the two share over those of the student with fewer, and over those of the one with \
more (the shared column is shared/fewer/more).";

/// A pair's matches, none when they were not looked for.
fn found(p: &Pair) -> &[Match] {
    p.matches.as_deref().unwrap_or(&[])
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

/// The human report: a summary, the pairs listed (at most `max_rows`) as
/// a table (similarity, shared fingerprints, students, matched lines),
/// notes, what is ignored and what is not seen, and the provenance.
pub fn human(report: &Report, provenance: &Provenance, max_rows: usize) -> String {
    let mut out = String::new();
    let all: Vec<&Pair> = listed(report).collect();
    let pairs: Vec<&Pair> = all.iter().copied().take(max_rows).collect();
    for line in summary(report, all.len(), pairs.len()) {
        let _ = writeln!(out, "{line}");
    }
    out.push('\n');
    if pairs.is_empty() {
        out.push_str("No two students share code.\n");
    } else {
        let name = |i: usize| escape::line(&report.students[i].name).into_owned();
        let shared = |p: &Pair| {
            let (x, y) = (
                report.students[p.a].fingerprints,
                report.students[p.b].fingerprints,
            );
            format!("{}/{}/{}", p.shared, x.min(y), x.max(y))
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
        for p in &pairs {
            let mut lines: Vec<String> = found(p)
                .iter()
                .take(SHOWN_MATCHES)
                .map(|m| match_words(report, p, m))
                .collect();
            if found(p).len() > SHOWN_MATCHES {
                lines.push(format!("+{} more", found(p).len() - SHOWN_MATCHES));
            }
            if let Some(standing) = standing(report, p) {
                lines.push(standing.to_owned());
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
        if all.len() > pairs.len() {
            let _ = writeln!(
                out,
                "… and {} more listed pairs, not shown (raise --max-pages, or see --format json)",
                all.len() - pairs.len()
            );
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

/// The JSON report: how many pairs share code, the cut and how many pairs
/// are at or above it, every pair kept (each student's closest, whatever
/// the cut), highest first, the highest [`Options::evidence`] of them
/// (`--max-pages`) with their matches and the others without, and the
/// provenance.
///
/// [`Options::evidence`]: crate::model::similarity::Options::evidence
pub fn json(report: &Report, provenance: &Provenance) -> String {
    let name = |i: usize| escape::line(&report.students[i].name).into_owned();
    let pairs: Vec<serde_json::Value> = report
        .pairs
        .iter()
        .map(|p| {
            let (a, b) = (&report.students[p.a], &report.students[p.b]);
            let matches: Option<Vec<serde_json::Value>> = p.matches.as_ref().map(|found| found
                .iter()
                .map(|m| {
                    json!({
                        "a": {"file": escape::line(&a.files[m.a.file].name), "lines": [m.a.lines.0, m.a.lines.1], "matched": m.a.matched},
                        "b": {"file": escape::line(&b.files[m.b.file].name), "lines": [m.b.lines.0, m.b.lines.1], "matched": m.b.matched},
                    })
                })
                .collect());
            let mut pair = json!({
                "a": name(p.a),
                "b": name(p.b),
                "similarity": two_decimals(p.similarity),
            });
            if let Some(matches) = matches {
                pair["matches"] = serde_json::Value::Array(matches);
            }
            pair
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&json!({
        "sharing": report.sharing,
        "cut": {
            "at": report.cut.at,
            "median": report.cut.median,
            "mad": report.cut.mad,
            "given": report.cut.fixed,
            "pairs_at_or_above": report.above_cut,
            "flagged_from": report.cut.flag_from,
            "pairs_flagged": report.flagged,
            "top_cluster": report.cut.cluster.map(|c| json!({"from": c.from, "next": c.next})),
        },
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

/// The HTML report: `index.html` (the pairs listed, at most `max_pages`,
/// each linking to its page, and what was left out) and one page per pair
/// in the index, as (file name, page).
pub fn html(
    report: &Report,
    provenance: &Provenance,
    title: &str,
    max_pages: usize,
) -> Vec<(String, String)> {
    let all: Vec<&Pair> = listed(report).collect();
    let pairs: Vec<&Pair> = all.iter().copied().take(max_pages).collect();
    let mut pages = Vec::with_capacity(pairs.len() + 1);
    let mut index = String::new();
    page_head(&mut index, title, STYLE);
    let _ = writeln!(
        index,
        "<h1>{}</h1>\n<p class=\"facts\">{}</p>",
        html_escape(title),
        html_escape(&summary(report, all.len(), pairs.len()).join(" "))
    );
    caveats(&mut index);
    if pairs.is_empty() {
        index.push_str("<p>No two students share code.</p>\n");
    } else {
        index.push_str(
            "<table>\n<thead><tr><th class=\"num\">#</th><th class=\"num\">similarity</th>\
             <th class=\"num\">shared</th><th>student a</th><th>student b</th><th>matched definitions</th></tr></thead>\n<tbody>\n",
        );
        for (n, p) in pairs.iter().enumerate() {
            let rank = n + 1;
            let (a, b) = (&report.students[p.a], &report.students[p.b]);
            let names: Vec<String> = definitions(a, p)
                .iter()
                .map(|name| html_escape(name))
                .collect();
            let below = standing(report, p).map_or(String::new(), |s| {
                format!(" <span class=\"notice\">{s}</span>")
            });
            let _ = writeln!(
                index,
                "<tr><td class=\"num\"><a href=\"{}\">{rank}</a></td><td class=\"num\"><a href=\"{}\">{:.2}</a>{below}</td>\
                 <td class=\"num\">{}/{}/{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
                href(&pair_page(rank)),
                href(&pair_page(rank)),
                p.similarity,
                p.shared,
                a.fingerprints.min(b.fingerprints),
                a.fingerprints.max(b.fingerprints),
                html_escape(&a.name),
                html_escape(&b.name),
                names.join("</code>, <code>")
            );
        }
        index.push_str("</tbody>\n</table>\n");
        if all.len() > pairs.len() {
            let _ = writeln!(
                index,
                "<p class=\"notice\">{} more listed pairs are left out of this index and have no page \
                 (at most {max_pages}: raise <code>--max-pages</code>, or see <code>--format json</code>).</p>",
                all.len() - pairs.len()
            );
        }
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

/// The names of student `a`'s matched definitions, each once, in the
/// order of the matches.
fn definitions<'r>(a: &'r Student, p: &Pair) -> Vec<&'r str> {
    let mut out: Vec<&str> = Vec::new();
    for m in found(p) {
        let name = a.definition(&m.a);
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The lines `from..=to` of `text`, numbered, those in `marked` coloured
/// `class` (and the first of them tagged and given the id `id`).
fn lines_html(out: &mut String, text: &str, from: u32, to: u32, marks: &[(&[u32], usize, String)]) {
    out.push_str("<pre class=\"src\">");
    let mut tagged: Vec<usize> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let number = n as u32 + 1;
        if number < from || number > to {
            continue;
        }
        let mark = marks
            .iter()
            .find(|(lines, _, _)| lines.binary_search(&number).is_ok());
        let (class, id, tag) = match mark {
            Some((_, colour, id)) => {
                let first = !tagged.contains(colour);
                if first {
                    tagged.push(*colour);
                }
                (
                    format!(" m{}", colour % COLOURS),
                    if first && !id.is_empty() {
                        format!(" id=\"{id}\"")
                    } else {
                        String::new()
                    },
                    if first {
                        format!("<span class=\"tagm\">[{}]</span>", colour + 1)
                    } else {
                        String::new()
                    },
                )
            }
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

/// One pair's page: the legend of matched definitions, each match side by
/// side, then both students' whole files, matched lines coloured.
fn pair(report: &Report, provenance: &Provenance, p: &Pair, rank: usize) -> String {
    let (a, b) = (&report.students[p.a], &report.students[p.b]);
    let title = format!("{:.2}: {} and {}", p.similarity, a.name, b.name);
    let mut out = String::new();
    page_head(&mut out, &title, STYLE);
    let _ = writeln!(
        out,
        "<p><a href=\"index.html\">All pairs</a> · pair {rank}</p>\n<h1>{}</h1>\n\
         <p class=\"facts\">Similarity <b>{:.2}</b>: the mean of {} shared fingerprints over the {} of the student with fewer \
         and over the {} of the one with more ({} has {}, {} has {}).</p>",
        html_escape(&title),
        p.similarity,
        p.shared,
        a.fingerprints.min(b.fingerprints),
        a.fingerprints.max(b.fingerprints),
        html_escape(&a.name),
        a.fingerprints,
        html_escape(&b.name),
        b.fingerprints
    );
    caveats(&mut out);
    // One colour per definition of a.
    let names = definitions(a, p);
    let colour = |m: &Match| {
        let name = a.definition(&m.a);
        names.iter().position(|n| *n == name).unwrap_or(0)
    };
    let _ = writeln!(
        out,
        "<h2>{} matching definitions, each in its colour on both sides</h2>",
        names.len()
    );
    let _ = writeln!(
        out,
        "<table>\n<thead><tr><th class=\"num\">match</th><th>{}</th><th>{}</th>\
         <th class=\"num\">shared</th></tr></thead>\n<tbody>",
        html_escape(&a.name),
        html_escape(&b.name)
    );
    for c in 0..names.len() {
        let of: Vec<&Match> = found(p).iter().filter(|m| colour(m) == c).collect();
        let places = |s: &Student, side: &dyn Fn(&Match) -> &Region| -> String {
            let mut seen: Vec<String> = Vec::new();
            for m in &of {
                let r = side(m);
                let text = format!(
                    "<code>{}</code> {} (<code>{}</code>)",
                    html_escape(&s.files[r.file].name),
                    line_range(r.lines),
                    html_escape(s.definition(r))
                );
                if !seen.contains(&text) {
                    seen.push(text);
                }
            }
            seen.join("<br>")
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"num m{}\"><a href=\"#m{c}\">{}</a></td><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
            c % COLOURS,
            c + 1,
            places(a, &|m| &m.a),
            places(b, &|m| &m.b),
            of.iter().map(|m| m.shared).sum::<usize>()
        );
    }
    out.push_str("</tbody>\n</table>\n<h2>Side by side</h2>\n");
    // Each matched definition once (its first place), a's lines next to b's.
    let mut anchored: Vec<usize> = Vec::new();
    for m in found(p) {
        let c = colour(m);
        if anchored.contains(&c) {
            continue;
        }
        anchored.push(c);
        let id = format!("m{c}");
        out.push_str("<div class=\"sides\">\n");
        for (student, r, id) in [(a, &m.a, id.as_str()), (b, &m.b, "")] {
            let file = &student.files[r.file];
            let _ = writeln!(
                out,
                "<div><p><b>{}</b> <code>{}</code> {} {}</p>",
                html_escape(&student.name),
                html_escape(&file.name),
                if r.lines.0 == r.lines.1 {
                    "line"
                } else {
                    "lines"
                },
                line_range(r.lines)
            );
            lines_html(
                &mut out,
                &file.text,
                r.lines.0,
                r.lines.1,
                &[(r.matched.as_slice(), c, id.to_owned())],
            );
            out.push_str("</div>\n");
        }
        out.push_str("</div>\n");
    }
    out.push_str("<details><summary>Whole files</summary>\n<div class=\"sides\">\n");
    for (student, which) in [(a, 'a'), (b, 'b')] {
        let _ = writeln!(out, "<div>\n<h2>{}</h2>", html_escape(&student.name));
        let mut unmatched = Vec::new();
        for (f, file) in student.files.iter().enumerate() {
            let marks: Vec<(&[u32], usize, String)> = found(p)
                .iter()
                .map(|m| (m, if which == 'a' { &m.a } else { &m.b }))
                .filter(|(_, r)| r.file == f)
                .map(|(m, r)| (r.matched.as_slice(), colour(m), String::new()))
                .collect();
            if marks.is_empty() {
                unmatched.push(html_escape(&file.name));
                continue;
            }
            let _ = writeln!(out, "<h3><code>{}</code></h3>", html_escape(&file.name));
            lines_html(&mut out, &file.text, 1, u32::MAX, &marks);
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
    out.push_str("</div>\n</details>\n");
    tail(&mut out, provenance);
    out
}

/// Lines `first` to `last` as a page shows them: `40` or `40–43`.
fn line_range((first, last): (u32, u32)) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}
