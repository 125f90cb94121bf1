//! `cnf-grader merge`: the shards of one run (`--shard K/N --format json`)
//! back into the report of the whole run.
//!
//! Decisions:
//! - every shard 1..N must be given exactly once, all of the same N; the
//!   shards must come from one run: the same provenance apart from the
//!   date (grader version, GHC, fixture hash, comparison mode, sandbox),
//!   the same warning and the same other top-level fields;
//! - cases go back to their places in the whole run (each shard report
//!   records them), and those places must be exactly 0..entries, each
//!   once; students are sorted by folder name, as a class run sorts them;
//! - the merged report is the one the unsharded run writes, apart from the
//!   durations and the date: the date is the earliest shard's (when the
//!   grading began), or none when a shard left it out;
//! - no shard is trusted: a student's name must be one plain folder name
//!   (not empty, not `.` or `..`, no `/`, no control character), since
//!   reports are written to files named after it; every number of a
//!   student (points, total, extra credit, counts) is computed again from
//!   the student's cases and builds, and a shard whose numbers disagree
//!   with its own cases is refused, naming the file, the student and the
//!   field. A `grade` shard's `totals` are checked against its cases too.

use std::collections::BTreeMap;

use crate::model::class::ReadBook;
use crate::model::class::StudentResult;
use crate::model::provenance::Provenance;
use crate::model::run::{ReadReport, ShardInfo};
use crate::model::shard::Shard;

/// Why shard reports cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No report was given.
    #[error("no shard reports to merge")]
    Nothing,
    /// A report is not a shard's.
    #[error("{file}: not a shard report (it has no \"shard\" field)")]
    NotShard {
        /// The report.
        file: String,
    },
    /// Two reports split the run differently.
    #[error(
        "{file} is shard {shard} but {first} is shard {first_shard}: merge the shards of one run"
    )]
    Counts {
        /// The report.
        file: String,
        /// Its shard.
        shard: Shard,
        /// The first report.
        first: String,
        /// The first report's shard.
        first_shard: Shard,
    },
    /// A shard is given twice.
    #[error("shard {shard} is given twice: {a} and {b}")]
    Twice {
        /// The shard.
        shard: Shard,
        /// One report.
        a: String,
        /// The other.
        b: String,
    },
    /// Shards are missing.
    #[error("{} missing: merge needs every shard of the run", missing.iter().map(|k| format!("shard {k}/{count}")).collect::<Vec<_>>().join(", "))]
    Missing {
        /// The missing shards' numbers.
        missing: Vec<u32>,
        /// How many shards the run has.
        count: u32,
    },
    /// Two reports come from different runs.
    #[error(
        "{a} and {b} come from different runs (their {what} differ); grade every shard \
         with the same grader, fixtures and options"
    )]
    Runs {
        /// One report.
        a: String,
        /// The other.
        b: String,
        /// What differs.
        what: &'static str,
    },
    /// Two reports score edge cases differently.
    #[error(
        "{a} and {b} come from different runs: one counts the edge cases in the base score and \
         the other does not ({a}: {a_counts}; {b}: {b_counts}); grade every shard with the same \
         options"
    )]
    EdgeInBase {
        /// One report.
        a: String,
        /// Whether it counts them.
        a_counts: bool,
        /// The other.
        b: String,
        /// Whether that one counts them.
        b_counts: bool,
    },
    /// Two reports record different provenances.
    #[error(
        "{a} and {b} come from different runs: their provenance's {field} differs \
         ({a}: {a_value}; {b}: {b_value}); grade every shard with the same grader, fixtures \
         and options"
    )]
    Provenance {
        /// One report.
        a: String,
        /// The other.
        b: String,
        /// The provenance field that differs (`grader`, `ghc`, `fixtures`, `compare`, `sandbox`).
        field: &'static str,
        /// Its value in `a`.
        a_value: String,
        /// Its value in `b`.
        b_value: String,
    },
    /// A report's shard is not a valid split.
    #[error("{file}: its \"shard\" is not a valid K/N (1 <= K <= N <= {max}); was it edited?", max = crate::model::shard::MAX_SHARDS)]
    BadShard {
        /// The report.
        file: String,
    },
    /// The shards' entries do not make up the whole run.
    #[error("the shards do not add up to one run: {0}")]
    Entries(String),
    /// Two shards come from different selections of fixtures.
    #[error(
        "{a} and {b} come from different runs: their selections of fixtures differ \
         ({a}: {a_entries} entries in the whole run; {b}: {b_entries})"
    )]
    Selections {
        /// One report.
        a: String,
        /// Its run's entries.
        a_entries: usize,
        /// The other.
        b: String,
        /// Its run's entries.
        b_entries: usize,
    },
    /// A student's name is not one plain folder name.
    #[error(
        "{file}: the student name {name} is not a plain folder name ({why}); was the shard \
         edited? grade the shard again"
    )]
    StudentName {
        /// The shard.
        file: String,
        /// The name, quoted and escaped.
        name: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A shard's number disagrees with its own cases.
    #[error(
        "{file}: {field} is {claimed}, but {whose} cases give {computed}; was the shard \
         edited? grade the shard again"
    )]
    Disagrees {
        /// The shard.
        file: String,
        /// Whose cases (`the shard's`, `student \"x\"'s`).
        whose: String,
        /// The field, as a JSON path.
        field: String,
        /// What the shard says.
        claimed: String,
        /// What its cases give.
        computed: String,
    },
}

/// Checks that a `grade` shard's own `totals` and `points` (its JSON
/// report, `doc`) are what its cases give.
pub fn check_shard_numbers(
    file: &str,
    doc: &serde_json::Value,
    cases: &[crate::model::case::CaseReport],
) -> Result<(), MergeError> {
    let disagrees = |field: &str, claimed: String, computed: String| MergeError::Disagrees {
        file: file.to_owned(),
        whose: "the shard's".to_owned(),
        field: field.to_owned(),
        claimed,
        computed,
    };
    let totals = crate::model::case::Totals::of(cases);
    let counts = [
        ("passed", totals.passed),
        ("failed", totals.failed),
        ("errors", totals.errors),
        ("skipped", totals.skipped),
    ];
    for (name, computed) in counts {
        let claimed = &doc["totals"][name];
        if claimed.as_u64() != Some(computed as u64) {
            return Err(disagrees(
                &format!("totals.{name}"),
                claimed.to_string(),
                computed.to_string(),
            ));
        }
    }
    if let Some(claimed) = doc.get("points").filter(|p| !p.is_null()) {
        let scoring = crate::model::points::Scoring {
            edge_in_base: claimed["edge"]["in_base"].as_bool().unwrap_or(false),
        };
        let points = crate::model::points::points_with(cases, scoring);
        let numbers = [
            ("points.total", &claimed["total"], points.total),
            (
                "points.extra_credit.points",
                &claimed["extra_credit"]["points"],
                points.extra_credit.points,
            ),
        ];
        for (field, claimed, computed) in numbers {
            if !claimed.as_f64().is_some_and(|c| same(c, computed)) {
                return Err(disagrees(field, claimed.to_string(), computed.to_string()));
            }
        }
    }
    Ok(())
}

/// Whether the shards' edge cases count in the base score, given per
/// report (file, its setting): the one setting they all share, or which two
/// differ. No report gives `false`, the default.
pub fn edge_in_base<'a>(
    settings: impl IntoIterator<Item = (&'a str, bool)>,
) -> Result<bool, MergeError> {
    let mut first: Option<(&str, bool)> = None;
    for (file, counts) in settings {
        match first {
            None => first = Some((file, counts)),
            Some((a, a_counts)) if a_counts != counts => {
                return Err(MergeError::EdgeInBase {
                    a: a.to_owned(),
                    a_counts,
                    b: file.to_owned(),
                    b_counts: counts,
                });
            }
            Some(_) => {}
        }
    }
    Ok(first.is_some_and(|(_, counts)| counts))
}

/// Checks that `name` is one plain folder name, as a class's student is.
pub fn check_student_name(file: &str, name: &str) -> Result<(), MergeError> {
    let why = if name.is_empty() {
        Some("it is empty")
    } else if name == "." || name == ".." {
        Some("it names a folder above or the same folder")
    } else if name.contains('/') || name.contains('\\') {
        Some("it holds a path separator")
    } else if name.chars().any(char::is_control) {
        Some("it holds a control character")
    } else {
        None
    };
    match why {
        Some(why) => Err(MergeError::StudentName {
            file: file.to_owned(),
            name: format!("{:?}", crate::escape::line(name)),
            why,
        }),
        None => Ok(()),
    }
}

/// A number as JSON writes it.
fn json_number(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| x.to_string())
}

/// Whether two computed numbers agree (JSON may lose the last bit).
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// A student's numbers computed again from their cases and builds: the
/// result with its points and row replaced by the computed ones, or the
/// first field that disagrees.
fn recompute(file: &str, mut student: StudentResult) -> Result<StudentResult, MergeError> {
    use crate::model::class::Outcome;
    check_student_name(file, &student.name)?;
    let whose = format!("student {:?}'s", crate::escape::line(&student.name));
    let disagrees = |field: String, claimed: String, computed: String| MergeError::Disagrees {
        file: file.to_owned(),
        whose: whose.clone(),
        field,
        claimed,
        computed,
    };
    let row = &student.row;
    let (parts, total, extra, edge, failed, cases) = match &mut student.outcome {
        Outcome::Graded(report) => {
            let compiled: [bool; 4] = std::array::from_fn(|i| {
                report
                    .builds
                    .get(i)
                    .is_some_and(crate::model::submission::PartBuild::compiled)
            });
            let scoring = crate::model::points::Scoring {
                edge_in_base: report.points.edge.in_base,
            };
            // Connect Four's table is fixed; another assignment's may be
            // weighted (`--weights`): its parts' maxima are the report's.
            let assignment = report.points.assignment();
            let table = if assignment.is_default() {
                crate::model::points::Table::default()
            } else {
                let mut allocation = assignment.allocation();
                for (slot, part) in allocation.iter_mut().zip(&report.points.parts) {
                    *slot = (part.compilation_max, part.test_cases_max);
                }
                crate::model::points::Table {
                    assignment,
                    allocation,
                }
            };
            let points = crate::model::points::points_by(&report.cases, compiled, scoring, &table);
            let claimed = &report.points;
            let checks = [
                ("points.total", claimed.total, points.total),
                ("points.total_max", claimed.total_max, points.total_max),
                (
                    "points.extra_credit.points",
                    claimed.extra_credit.points,
                    points.extra_credit.points,
                ),
            ];
            for (field, a, b) in checks {
                if !same(a, b) {
                    return Err(disagrees(
                        format!("results[{:?}].{field}", student.name),
                        json_number(a),
                        json_number(b),
                    ));
                }
            }
            for (i, (a, b)) in claimed.parts.iter().zip(&points.parts).enumerate() {
                if !same(a.total, b.total) || claimed.parts.len() != 4 {
                    return Err(disagrees(
                        format!("results[{:?}].points.parts[{i}].total", student.name),
                        json_number(a.total),
                        json_number(b.total),
                    ));
                }
            }
            report.points = points.clone();
            (
                std::array::from_fn(|i| points.parts[i].total),
                points.total,
                (points.extra_credit.points, points.extra_credit.cases),
                (points.edge.passed, points.edge.cases),
                report.failed_cases(),
                report.builds.len() + report.cases.len(),
            )
        }
        _ => ([0.0; 4], 0.0, (0.0, 0), (0, 0), 0, 0),
    };
    let field = |name: &str| format!("results[{:?}].row.{name}", student.name);
    for (i, (a, b)) in row.parts.iter().zip(parts).enumerate() {
        if !same(*a, b) {
            return Err(disagrees(
                field(&format!("parts[{i}]")),
                json_number(*a),
                json_number(b),
            ));
        }
    }
    let numbers = [
        ("total", row.total, total),
        ("extra_credit", row.extra_credit, extra.0),
    ];
    for (name, a, b) in numbers {
        if !same(a, b) {
            return Err(disagrees(field(name), json_number(a), json_number(b)));
        }
    }
    let counts = [
        ("extra_cases", row.extra_cases, extra.1),
        ("edge_passed", row.edge_passed, edge.0),
        ("edge_cases", row.edge_cases, edge.1),
        ("failed_cases", row.failed_cases, failed),
        ("cases", row.cases, cases),
    ];
    for (name, a, b) in counts {
        if a != b {
            return Err(disagrees(field(name), a.to_string(), b.to_string()));
        }
    }
    student.row.parts = parts;
    student.row.total = total;
    student.row.student = student.name.clone();
    Ok(student)
}

/// One shard's header, whatever it holds.
struct Header<'a> {
    file: &'a str,
    shard: Option<ShardInfo>,
    provenance: Option<&'a Provenance>,
}

/// Checks that `headers` are every shard of one split, once each.
fn check_split(headers: &[Header<'_>]) -> Result<ShardInfo, MergeError> {
    let first = headers.first().ok_or(MergeError::Nothing)?;
    let info = first.shard.ok_or_else(|| MergeError::NotShard {
        file: first.file.to_owned(),
    })?;
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    for h in headers {
        let shard = h.shard.ok_or_else(|| MergeError::NotShard {
            file: h.file.to_owned(),
        })?;
        let s = shard.shard;
        if s.count == 0
            || s.count > crate::model::shard::MAX_SHARDS
            || s.index == 0
            || s.index > s.count
        {
            return Err(MergeError::BadShard {
                file: h.file.to_owned(),
            });
        }
        if shard.entries != info.entries && shard.shard.count == info.shard.count {
            return Err(MergeError::Selections {
                a: first.file.to_owned(),
                a_entries: info.entries,
                b: h.file.to_owned(),
                b_entries: shard.entries,
            });
        }
        if shard.shard.count != info.shard.count {
            return Err(MergeError::Counts {
                file: h.file.to_owned(),
                shard: shard.shard,
                first: first.file.to_owned(),
                first_shard: info.shard,
            });
        }
        if let Some(a) = seen.insert(shard.shard.index, h.file) {
            return Err(MergeError::Twice {
                shard: shard.shard,
                a: a.to_owned(),
                b: h.file.to_owned(),
            });
        }
        let differs = match (first.provenance, h.provenance) {
            (Some(p), Some(q)) => p.difference(q),
            (None, None) => None,
            (p, q) => {
                let shown = |p: Option<&Provenance>| {
                    p.map_or("(none)".to_owned(), |p| format!("\"{}\"", p.line()))
                };
                Some(("record", shown(p), shown(q)))
            }
        };
        if let Some((field, a_value, b_value)) = differs {
            return Err(MergeError::Provenance {
                a: first.file.to_owned(),
                b: h.file.to_owned(),
                field,
                a_value,
                b_value,
            });
        }
    }
    let missing: Vec<u32> = (1..=info.shard.count)
        .filter(|k| !seen.contains_key(k))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing,
            count: info.shard.count,
        });
    }
    Ok(info)
}

/// The merged provenance: the first shard's, dated by the earliest shard.
fn merged_provenance<'a>(all: impl Iterator<Item = Option<&'a Provenance>>) -> Option<Provenance> {
    let all: Vec<Option<&Provenance>> = all.collect();
    let mut p = all.first().copied().flatten()?.clone();
    p.date = all
        .iter()
        .map(|q| q.and_then(|q| q.date.clone()))
        .collect::<Option<Vec<String>>>()
        .and_then(|dates| dates.into_iter().min());
    Some(p)
}

/// Merges the JSON reports of every shard of a `grade` run, given with
/// their file names, into the whole run's report.
pub fn merge_reports(reports: Vec<(String, ReadReport)>) -> Result<ReadReport, MergeError> {
    let headers: Vec<Header<'_>> = reports
        .iter()
        .map(|(file, r)| Header {
            file,
            shard: r.shard,
            provenance: r.provenance.as_ref(),
        })
        .collect();
    let info = check_split(&headers)?;
    let (first_file, first) = &reports[0];
    for (file, r) in &reports[1..] {
        let what = if r.warning != first.warning {
            Some("warnings")
        } else if r.compare != first.compare {
            Some("comparison modes")
        } else if r.extra != first.extra {
            Some("submission fields")
        } else if r.points != first.points {
            Some("score tables")
        } else {
            None
        };
        if let Some(what) = what {
            return Err(MergeError::Runs {
                a: first_file.clone(),
                b: file.clone(),
                what,
            });
        }
    }
    let provenance = merged_provenance(reports.iter().map(|(_, r)| r.provenance.as_ref()));
    let held: usize = reports.iter().map(|(_, r)| r.cases.len()).sum();
    if held != info.entries {
        return Err(MergeError::Entries(format!(
            "the shards hold {held} cases, but the run has {}",
            info.entries
        )));
    }
    let timed = reports.iter().all(|(_, r)| r.timed);
    let mut placed: Vec<Option<crate::model::case::CaseReport>> = vec![None; info.entries];
    for (file, r) in &reports {
        for (seq, case) in &r.cases {
            let seq = seq.ok_or_else(|| {
                MergeError::Entries(format!("{file}: a case has no place (\"seq\") in the run"))
            })?;
            let slot = placed.get_mut(seq).ok_or_else(|| {
                MergeError::Entries(format!(
                    "{file}: place {seq} is past the run's {} entries",
                    info.entries
                ))
            })?;
            if slot.replace(case.clone()).is_some() {
                return Err(MergeError::Entries(format!(
                    "place {seq} is taken by two cases"
                )));
            }
        }
    }
    let missing = placed.iter().filter(|c| c.is_none()).count();
    if missing > 0 {
        return Err(MergeError::Entries(format!(
            "{missing} of the run's {} entries are in no shard",
            info.entries
        )));
    }
    let (_, first) = reports.into_iter().next().ok_or(MergeError::Nothing)?;
    Ok(ReadReport {
        provenance,
        shard: None,
        timed,
        cases: placed.into_iter().flatten().map(|c| (None, c)).collect(),
        ..first
    })
}

/// A whole class merged from its shards.
#[derive(Debug, Clone, PartialEq)]
pub struct MergedClass {
    /// The class folder, as given to `submissions`.
    pub class: Option<String>,
    /// The run's provenance.
    pub provenance: Option<Provenance>,
    /// Every student, sorted by folder name.
    pub students: Vec<StudentResult>,
}

/// Merges the shard gradebooks of a `submissions` run, given with their file
/// names, into the whole class.
pub fn merge_books(books: Vec<(String, ReadBook)>) -> Result<MergedClass, MergeError> {
    let headers: Vec<Header<'_>> = books
        .iter()
        .map(|(file, b)| Header {
            file,
            shard: b.shard,
            provenance: b.provenance.as_ref(),
        })
        .collect();
    let info = check_split(&headers)?;
    let (first_file, first) = &books[0];
    if let Some((file, _)) = books.iter().find(|(_, b)| b.class != first.class) {
        return Err(MergeError::Runs {
            a: first_file.clone(),
            b: file.clone(),
            what: "class folders",
        });
    }
    let class = first.class.clone();
    let provenance = merged_provenance(books.iter().map(|(_, b)| b.provenance.as_ref()));
    let mut students: Vec<StudentResult> = Vec::new();
    let mut settings: Vec<(String, bool)> = Vec::new();
    for (file, book) in books {
        for student in book.results {
            if let crate::model::class::Outcome::Graded(report) = &student.outcome {
                settings.push((file.clone(), report.points.edge.in_base));
            }
            students.push(recompute(&file, student)?);
        }
    }
    edge_in_base(settings.iter().map(|(f, c)| (f.as_str(), *c)))?;
    students.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(w) = students.windows(2).find(|w| w[0].name == w[1].name) {
        return Err(MergeError::Entries(format!(
            "the student {:?} is in two shards",
            w[0].name
        )));
    }
    if students.len() != info.entries {
        return Err(MergeError::Entries(format!(
            "the shards hold {} students, but the class has {}",
            students.len(),
            info.entries
        )));
    }
    Ok(MergedClass {
        class,
        provenance,
        students,
    })
}
