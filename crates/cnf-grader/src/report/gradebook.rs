//! A class's gradebook: one row per student with the points of each part,
//! the total out of 100, the extra credit (out of 10, apart from the
//! total), the edge cases passed of graded, and the number of failed
//! tests, as a terminal table, CSV or JSON. The table shows the extra
//! credit and edge columns only when the fixtures have such cases; CSV
//! and JSON always have them, so a spreadsheet's columns never move.
//!
//! `failed` (`failed_cases` in CSV and JSON) and `cases` count tests as
//! every report of the student does: each part's compilation is one test
//! (failed when the part is missing or did not compile), then each case
//! (failed when its output is wrong, its program crashed or timed out, or
//! it was not run because its part did not build), so the gradebook, the
//! student's report, Gradescope's and the HTML page give the same numbers.
//!
//! Decisions: students keep the order of [`crate::submission::grade_class`]
//! (sorted by folder name); a student whose folder could not be graded at
//! all gets a row with zero points and the reason in `notes` (and `error`
//! in JSON), so one broken submission never hides the others, except that
//! a student the grader's own failure kept from being graded (`not_graded`
//! in JSON, `not graded: REASON` in the notes) gets no points at all:
//! `-` in the table, empty cells in CSV (Canvas imports no grade); points are
//! shown with two decimals (shares of 10 or 20 points among the cases);
//! CSV follows RFC 4180 (fields with `,`, `"` or a line end are quoted).
//!
//! Folder names, roster names and ids, notes and errors come from outside
//! the grader, so every format shows them through [`crate::escape`] (the
//! table, the CSV and the JSON alike); in CSV such a cell that would start
//! a spreadsheet formula (`=`, `+`, `-`, `@`, a tab or a carriage return)
//! gets a `'` in front ([`crate::escape::csv_cell`]), and so does the Canvas
//! assignment's header, which the user gives. The cells the grader writes
//! itself (points and counts, never negative) and its own headers are left
//! as they are: a number is not a formula, and neutralising one would turn
//! it into text.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::assignment::Assignment;
use crate::model::class::{ReadBook, Row, StudentResult};
use crate::model::provenance::Provenance;
use crate::model::run::ShardInfo;

/// The table for the terminal, after the provenance line (when given) and
/// with a header line; with a roster, each student's name and id follow the
/// folder.
pub fn table(rows: &[Row], provenance: Option<&Provenance>) -> String {
    table_of(
        rows,
        provenance,
        provenance.map(|p| p.assignment).unwrap_or_default(),
    )
}

/// The table of a class graded on `assignment` (its parts' columns:
/// `part1` … for Connect Four, the function names for Peg Reversal).
pub fn table_of(rows: &[Row], provenance: Option<&Provenance>, assignment: Assignment) -> String {
    let rows: Vec<Row> = rows.iter().map(Row::shown).collect();
    let rows = rows.as_slice();
    let width = |what: &str, of: &dyn Fn(&Row) -> usize| {
        rows.iter().map(of).max().unwrap_or(0).max(what.len())
    };
    let w = width("student", &|r| r.student.chars().count());
    let named = rows.iter().any(|r| r.name.is_some());
    let nw = width("name", &|r| {
        r.name.as_deref().map_or(0, |n| n.chars().count())
    });
    let iw = width("id", &|r| r.id.as_deref().map_or(0, |n| n.chars().count()));
    let mut out = provenance.map_or(String::new(), |p| format!("{}\n\n", p.line()));
    let _ = write!(out, "{:<w$}", "student");
    if named {
        let _ = write!(out, "  {:<nw$}  {:<iw$}", "name", "id");
    }
    // The extra-credit and edge columns only when the fixtures have such cases.
    let extra = rows.iter().any(|r| r.extra_cases > 0);
    let edges = rows.iter().any(|r| r.edge_cases > 0);
    let columns: Vec<String> = (1..=4).map(|p| assignment.part_column(p)).collect();
    let cw: Vec<usize> = columns.iter().map(|c| c.len().max(6)).collect();
    for (column, w) in columns.iter().zip(&cw) {
        let _ = write!(out, "  {column:>w$}");
    }
    let _ = write!(out, "  {:>6}", "total");
    if extra {
        let _ = write!(out, "  {:>6}", "extra");
    }
    if edges {
        let _ = write!(out, "  {:>6}", "edge");
    }
    let _ = writeln!(out, "  {:>6}  notes", "failed");
    for r in rows {
        let _ = write!(out, "{:<w$}", r.student);
        if named {
            let _ = write!(
                out,
                "  {:<nw$}  {:<iw$}",
                r.name.as_deref().unwrap_or("-"),
                r.id.as_deref().unwrap_or("-")
            );
        }
        if r.not_graded {
            // The grader's own failure: no points, not zeros.
            for w in cw.iter().chain(&[6]) {
                let _ = write!(out, "  {:>w$}", "-");
            }
        } else {
            for (p, w) in r.parts.iter().zip(&cw) {
                let _ = write!(out, "  {p:>w$.2}");
            }
            let _ = write!(out, "  {:>6.2}", r.total);
        }
        if extra {
            let _ = write!(out, "  {:>6.2}", r.extra_credit);
        }
        if edges {
            let edge = if r.edge_cases == 0 {
                "-".to_owned()
            } else {
                format!("{}/{}", r.edge_passed, r.edge_cases)
            };
            let _ = write!(out, "  {edge:>6}");
        }
        let _ = write!(out, "  {:>6}", r.failed_cases);
        if !r.notes.is_empty() {
            let _ = write!(out, "  {}", r.notes.join("; "));
        }
        // No trailing spaces when there are no notes.
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

/// Which CSV layout a gradebook is written in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum CsvLayout {
    /// Every column of the gradebook: `student[,name,id],part1,…,notes`.
    #[default]
    Full,
    /// Canvas's gradebook import: `Student,ID,SIS User ID,SIS Login ID,Section`
    /// then one column, named as the assignment, holding the total.
    Canvas {
        /// The assignment's column header, as Canvas names it (e.g. `Assignment 3 (12345)`).
        assignment: String,
    },
}

impl CsvLayout {
    /// The class's gradebook as CSV in this layout, with the students it
    /// leaves out (Canvas's layout keeps only those the roster names).
    pub fn render(&self, rows: &[Row]) -> (String, Vec<String>) {
        self.render_of(rows, Assignment::default())
    }

    /// The class's gradebook graded on `assignment` as CSV in this layout
    /// (see [`CsvLayout::render`]).
    pub fn render_of(&self, rows: &[Row], assignment: Assignment) -> (String, Vec<String>) {
        match self {
            CsvLayout::Full => (csv_of(rows, assignment), Vec::new()),
            CsvLayout::Canvas { assignment } => canvas_csv(rows, assignment),
        }
    }
}

/// Lines of CSV (RFC 4180, fields quoted only when needed, LF line ends).
fn csv_lines(records: &[Vec<String>]) -> String {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    for record in records {
        // Writing to a Vec cannot fail.
        let _ = writer.write_record(record);
    }
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// The CSV file: a header line, then one line per student.
pub fn csv(rows: &[Row]) -> String {
    csv_of(rows, Assignment::default())
}

/// The CSV file of a class graded on `assignment`: its parts' columns are
/// named as [`Assignment::part_column`] names them.
pub fn csv_of(rows: &[Row], assignment: Assignment) -> String {
    let named = rows.iter().any(|r| r.name.is_some());
    let mut records = Vec::new();
    let mut header: Vec<String> = vec!["student".into()];
    if named {
        header.extend(["name".into(), "id".into()]);
    }
    header.extend((1..=4).map(|p| assignment.part_column(p)));
    // Columns an assignment without extra credit and edge cases leaves out.
    let extra = assignment.has_extra_credit();
    let optional = ["extra_credit", "edge_passed", "edge_cases"];
    header.extend(
        [
            "total",
            "extra_credit",
            "edge_passed",
            "edge_cases",
            "failed_cases",
            "cases",
            "notes",
        ]
        .into_iter()
        .filter(|c| extra || !optional.contains(c))
        .map(String::from),
    );
    records.push(header);
    let cell = crate::escape::csv_cell;
    for r in rows {
        let mut record = vec![cell(&r.student)];
        if named {
            record.push(cell(r.name.as_deref().unwrap_or_default()));
            record.push(cell(r.id.as_deref().unwrap_or_default()));
        }
        // The grader's own failure: empty points, not zeros.
        let points = |p: f64| {
            if r.not_graded {
                String::new()
            } else {
                format!("{p:.2}")
            }
        };
        record.extend(r.parts.iter().map(|p| points(*p)));
        record.push(points(r.total));
        if extra {
            record.extend([
                points(r.extra_credit),
                r.edge_passed.to_string(),
                r.edge_cases.to_string(),
            ]);
        }
        record.extend([
            r.failed_cases.to_string(),
            r.cases.to_string(),
            cell(&r.notes.join("; ")),
        ]);
        records.push(record);
    }
    csv_lines(&records)
}

/// The CSV in Canvas's gradebook-import layout, and the folders left out
/// because the roster does not name them (Canvas could not match them).
///
/// The columns are the five Canvas exports before the assignments
/// (`Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`) and the
/// assignment's; the second line is Canvas's `Points Possible` row (100).
/// `Student` is the roster's name and `SIS User ID` its id, which Canvas
/// matches students by when `ID` (Canvas's own number) is empty.
///
/// When the fixtures have extra-credit cases, a last column
/// `ASSIGNMENT: extra credit` holds the extra credit with 0 points
/// possible: Canvas makes an unknown column a new assignment on import,
/// and an assignment worth 0 adds its points without raising what the
/// course's total is out of. The assignment's own column stays the base
/// score out of 100.
pub fn canvas_csv(rows: &[Row], assignment: &str) -> (String, Vec<String>) {
    let extra = rows.iter().any(|r| r.extra_cases > 0);
    let mut header: Vec<String> = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
        .map(String::from)
        .to_vec();
    header.push(crate::escape::csv_cell(assignment));
    let mut possible: Vec<String> = ["Points Possible", "", "", "", "", "100"]
        .map(String::from)
        .to_vec();
    if extra {
        header.push(crate::escape::csv_cell(&format!(
            "{assignment}: extra credit"
        )));
        possible.push("0".to_owned());
    }
    let mut records = vec![header, possible];
    let mut left_out = Vec::new();
    for r in rows {
        match (&r.name, &r.id) {
            (Some(name), Some(id)) => {
                let mut record = vec![
                    crate::escape::csv_cell(name),
                    String::new(),
                    crate::escape::csv_cell(id),
                    String::new(),
                    String::new(),
                    // Not graded (the grader's failure): an empty cell,
                    // which Canvas imports as no grade, not a zero.
                    if r.not_graded {
                        String::new()
                    } else {
                        format!("{:.2}", r.total)
                    },
                ];
                if extra {
                    record.push(if r.not_graded {
                        String::new()
                    } else {
                        format!("{:.2}", r.extra_credit)
                    });
                }
                records.push(record);
            }
            _ => left_out.push(crate::escape::line(&r.student).into_owned()),
        }
    }
    (csv_lines(&records), left_out)
}

/// The JSON document `{"provenance": {...}, "students": [...]}`,
/// pretty-printed, ending with a line end.
pub fn json(rows: &[Row], provenance: Option<&Provenance>) -> String {
    shard_json(None, rows, provenance, None)
}

/// [`json`], plus for a shard of a class (`submissions --shard`) the shard and
/// every student's whole result, so `merge` can write every output of the class.
pub fn shard_json(
    class: Option<&str>,
    rows: &[Row],
    provenance: Option<&Provenance>,
    shard: Option<(ShardInfo, &[StudentResult])>,
) -> String {
    #[derive(Serialize)]
    struct Doc<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        class: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        provenance: Option<&'a Provenance>,
        #[serde(skip_serializing_if = "Option::is_none")]
        shard: Option<ShardInfo>,
        students: &'a [Row],
        #[serde(skip_serializing_if = "Option::is_none")]
        results: Option<&'a [StudentResult]>,
    }
    let shown: Vec<Row> = rows.iter().map(Row::shown).collect();
    // A shard's results too: every text in them is shown escaped (their
    // reports and pages already are), so `merge` reads back escaped data.
    let results: Option<Vec<StudentResult>> = shard.map(|(_, results)| {
        results
            .iter()
            .map(|r| StudentResult {
                name: crate::escape::line(&r.name).into_owned(),
                row: r.row.shown(),
                ..r.clone()
            })
            .collect()
    });
    let class = class.map(crate::escape::line);
    let mut text = serde_json::to_string_pretty(&Doc {
        class: class.as_deref(),
        provenance,
        shard: shard.map(|(info, _)| info),
        students: &shown,
        results: results.as_deref(),
    })
    .unwrap_or_default();
    text.push('\n');
    text
}

/// Reads a gradebook written by [`shard_json`] or [`json`].
pub fn read_json(text: &str) -> Result<ReadBook, serde_json::Error> {
    #[derive(Deserialize)]
    struct Doc {
        #[serde(default)]
        class: Option<String>,
        #[serde(default)]
        provenance: Option<Provenance>,
        #[serde(default)]
        shard: Option<ShardInfo>,
        #[allow(dead_code)] // reason: required, so other JSON is refused
        students: Vec<Row>,
        #[serde(default)]
        results: Vec<StudentResult>,
    }
    let doc: Doc = serde_json::from_str(text)?;
    Ok(ReadBook {
        class: doc.class,
        provenance: doc.provenance,
        shard: doc.shard,
        results: doc.results,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(student: &str, parts: [f64; 4], failed: usize, notes: &[&str]) -> Row {
        Row {
            student: student.to_owned(),
            name: None,
            id: None,
            parts,
            total: parts.iter().sum(),
            extra_credit: 0.0,
            extra_cases: 0,
            edge_passed: 0,
            edge_cases: 0,
            failed_cases: failed,
            cases: 20,
            notes: notes.iter().map(|n| (*n).to_owned()).collect(),
            error: None,
            not_graded: false,
        }
    }

    #[test]
    fn table_and_csv_by_hand() {
        let rows = [
            row("ann", [20.0, 20.0, 30.0, 30.0], 0, &[]),
            row(
                "bo, jr",
                [20.0, 16.0, 0.0, 26.0],
                9,
                &["part 3 missing", "x \"y\""],
            ),
        ];
        assert_eq!(
            table(&rows, None),
            "student   part1   part2   part3   part4   total  failed  notes\n\
             ann       20.00   20.00   30.00   30.00  100.00       0\n\
             bo, jr    20.00   16.00    0.00   26.00   62.00       9  part 3 missing; x \"y\"\n"
        );
        assert_eq!(
            csv(&rows),
            "student,part1,part2,part3,part4,total,extra_credit,edge_passed,edge_cases,failed_cases,cases,notes\n\
             ann,20.00,20.00,30.00,30.00,100.00,0.00,0,0,0,20,\n\
             \"bo, jr\",20.00,16.00,0.00,26.00,62.00,0.00,0,0,9,20,\"part 3 missing; x \"\"y\"\"\"\n"
        );
        let doc: serde_json::Value = serde_json::from_str(&json(&rows, None)).unwrap();
        assert_eq!(doc["students"][1]["parts"][1], 16.0);
        assert_eq!(doc["students"][1]["failed_cases"], 9);
    }

    #[test]
    fn a_roster_adds_names_and_canvas_gets_its_layout() {
        let mut ann = row("ann", [20.0, 20.0, 30.0, 30.0], 0, &[]);
        ann.name = Some("Lee, Ann".into());
        ann.id = Some("1001".into());
        let stray = row("zed", [0.0, 0.0, 0.0, 0.0], 20, &["not in the roster"]);
        let rows = [ann, stray];
        assert_eq!(
            table(&rows, None),
            "student  name      id     part1   part2   part3   part4   total  failed  notes\n\
             ann      Lee, Ann  1001   20.00   20.00   30.00   30.00  100.00       0\n\
             zed      -         -       0.00    0.00    0.00    0.00    0.00      20  not in the roster\n"
        );
        assert_eq!(
            csv(&rows),
            "student,name,id,part1,part2,part3,part4,total,extra_credit,edge_passed,edge_cases,failed_cases,cases,notes\n\
             ann,\"Lee, Ann\",1001,20.00,20.00,30.00,30.00,100.00,0.00,0,0,0,20,\n\
             zed,,,0.00,0.00,0.00,0.00,0.00,0.00,0,0,20,20,not in the roster\n"
        );
        let (text, left_out) = canvas_csv(&rows, "Assignment 3 (12345)");
        assert_eq!(
            text,
            "Student,ID,SIS User ID,SIS Login ID,Section,Assignment 3 (12345)\n\
             Points Possible,,,,,100\n\
             \"Lee, Ann\",,1001,,,100.00\n"
        );
        assert_eq!(left_out, ["zed"]);
    }

    #[test]
    fn the_extra_credit_and_edge_cases_have_columns_of_their_own() {
        let mut ann = row("ann", [20.0, 20.0, 30.0, 30.0], 1, &[]);
        ann.name = Some("Ann".into());
        ann.id = Some("1001".into());
        (ann.extra_credit, ann.extra_cases) = (5.0, 6);
        (ann.edge_passed, ann.edge_cases) = (15, 16);
        let rows = [ann];
        assert_eq!(
            table(&rows, None),
            "student  name  id     part1   part2   part3   part4   total   extra    edge  failed  notes\n\
             ann      Ann   1001   20.00   20.00   30.00   30.00  100.00    5.00   15/16       1\n"
        );
        assert!(csv(&rows).ends_with(",100.00,5.00,15,16,1,20,\n"));
        let (text, _) = canvas_csv(&rows, "Assignment 3 (12345)");
        assert_eq!(
            text,
            "Student,ID,SIS User ID,SIS Login ID,Section,Assignment 3 (12345),Assignment 3 (12345): extra credit\n\
             Points Possible,,,,,100,0\n\
             Ann,,1001,,,100.00,5.00\n"
        );
    }
}
