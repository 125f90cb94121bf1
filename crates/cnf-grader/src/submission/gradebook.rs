//! A class's gradebook: one row per student with the points of each part,
//! the total out of 100 and the number of failed cases, as a terminal
//! table, CSV or JSON.
//!
//! Decisions: students keep the order of [`crate::submission::grade_class`]
//! (sorted by folder name); a student whose folder could not be graded at
//! all gets a row with zero points and the reason in `notes` (and `error`
//! in JSON), so one broken submission never hides the others; points are
//! shown with two decimals (shares of 10 or 20 points among the cases);
//! CSV follows RFC 4180 (fields with `,`, `"` or a line end are quoted).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::harness::provenance::Provenance;
use crate::harness::report::ShardInfo;
use crate::submission::StudentResult;

/// One student's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The student's folder name.
    pub student: String,
    /// Points of parts 1 to 4.
    pub parts: [f64; 4],
    /// Their sum, out of 100.
    pub total: f64,
    /// Cases failed (a part that did not build fails all its cases).
    pub failed_cases: usize,
    /// Cases graded.
    pub cases: usize,
    /// Remarks: missing parts, compile errors, timeouts, own Helpers.hs.
    pub notes: Vec<String>,
    /// Why the submission could not be graded, if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The rows of these students.
pub fn rows(students: &[StudentResult]) -> Vec<Row> {
    students.iter().map(|s| s.row.clone()).collect()
}

/// The table for the terminal, after the provenance line (when given) and
/// with a header line.
pub fn table(rows: &[Row], provenance: Option<&Provenance>) -> String {
    let width = rows
        .iter()
        .map(|r| r.student.chars().count())
        .max()
        .unwrap_or(0)
        .max("student".len());
    let mut out = provenance.map_or(String::new(), |p| format!("{}\n\n", p.line()));
    let _ = writeln!(
        out,
        "{:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  notes",
        "student", "part1", "part2", "part3", "part4", "total", "failed"
    );
    for r in rows {
        let _ = write!(out, "{:<width$}", r.student);
        for p in r.parts {
            let _ = write!(out, "  {p:>6.2}");
        }
        let _ = write!(out, "  {:>6.2}  {:>6}", r.total, r.failed_cases);
        if !r.notes.is_empty() {
            let _ = write!(out, "  {}", r.notes.join("; "));
        }
        // No trailing spaces when there are no notes.
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The CSV file: a header line, then one line per student.
pub fn csv(rows: &[Row]) -> String {
    let mut out = "student,part1,part2,part3,part4,total,failed_cases,cases,notes\n".to_owned();
    for r in rows {
        let _ = write!(out, "{}", csv_field(&r.student));
        for p in r.parts {
            let _ = write!(out, ",{p:.2}");
        }
        let _ = writeln!(
            out,
            ",{:.2},{},{},{}",
            r.total,
            r.failed_cases,
            r.cases,
            csv_field(&r.notes.join("; "))
        );
    }
    out
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
    let mut text = serde_json::to_string_pretty(&Doc {
        class,
        provenance,
        shard: shard.map(|(info, _)| info),
        students: rows,
        results: shard.map(|(_, results)| results),
    })
    .unwrap_or_default();
    text.push('\n');
    text
}

/// A class's shard report read back (see [`shard_json`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadBook {
    /// The class folder, as given to `submissions`.
    pub class: Option<String>,
    /// Its provenance.
    pub provenance: Option<Provenance>,
    /// The shard (`None`: a whole class's gradebook, which cannot be merged).
    pub shard: Option<ShardInfo>,
    /// Every student's whole result (empty outside shard reports).
    pub results: Vec<StudentResult>,
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
            parts,
            total: parts.iter().sum(),
            failed_cases: failed,
            cases: 20,
            notes: notes.iter().map(|n| (*n).to_owned()).collect(),
            error: None,
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
            "student,part1,part2,part3,part4,total,failed_cases,cases,notes\n\
             ann,20.00,20.00,30.00,30.00,100.00,0,20,\n\
             \"bo, jr\",20.00,16.00,0.00,26.00,62.00,9,20,\"part 3 missing; x \"\"y\"\"\"\n"
        );
        let doc: serde_json::Value = serde_json::from_str(&json(&rows, None)).unwrap();
        assert_eq!(doc["students"][1]["parts"][1], 16.0);
        assert_eq!(doc["students"][1]["failed_cases"], 9);
    }
}
