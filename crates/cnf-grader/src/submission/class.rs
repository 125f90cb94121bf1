//! A class: its student folders and roster, grading them with saved
//! results and resume, and the gradebook row of each.

use std::path::{Path, PathBuf};

use crate::grade::peg::Suite;
use crate::model::class::Member;
use crate::model::class::Outcome;
use crate::model::class::Row;
use crate::model::class::StudentResult;
use crate::model::provenance::digest;
use crate::model::submission::Refused;
use crate::model::submission::SubmissionReport;
use crate::submission::SubmissionError;
use crate::submission::SubmissionOptions;
use crate::submission::roster::Roster;
use crate::submission::run::grade_many_indexed;
use crate::submission::run::prepare_student;
use crate::submission::source;
use crate::submission::source::Submission;

/// What a class run reports as it goes, for a progress display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassProgress {
    /// With `resume`: the saved results of `reused` of the `of` students
    /// with a folder were reused (roster students with none are not
    /// counted: they have nothing to reuse).
    Restored {
        /// The students whose saved result was reused.
        reused: usize,
        /// The students with a folder.
        of: usize,
    },
    /// With `resume`: a student's saved result was not reused, and why
    /// (e.g. "--timeout was 2s, now 3s").
    NotReused {
        /// The student's folder.
        student: String,
        /// Why.
        why: String,
    },
    /// Compilation starts: this many parts to compile (or find in the cache).
    Compiling(usize),
    /// One part compiled (or was found in the cache, or failed).
    Compiled,
    /// One student is done: restored, graded, or absent from the class.
    Student,
}

/// What a class run needs besides the submissions.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClassOptions<'a> {
    /// Reuse saved results of students whose sources, fixtures and
    /// options are unchanged.
    pub resume: bool,
    /// Grade only the students of this shard (see [`crate::model::shard`]).
    pub shard: Option<crate::model::shard::Shard>,
    /// Who each folder belongs to (see [`crate::submission::roster`]).
    pub roster: Option<&'a Roster>,
}

/// A student folder still to grade.
pub(crate) struct Pending {
    name: String,
    dir: PathBuf,
    key: String,
    graded_with: GradedWith,
}

/// The saved-result key of one student's submission as read from `dir`:
/// only what changes a grade counts (the folder, named in the reports; the
/// fixtures; the grading options, [`SubmissionOptions::grade_settings`];
/// the sources). The roster does not: a reused result gets the roster's
/// names and notes of this run.
pub(crate) fn result_key(
    dir: &Path,
    read: &Result<Submission, source::ReadError>,
    fixtures: &str,
    options: &SubmissionOptions,
) -> String {
    let (settings, sources) = (options.fingerprint(), sources_digest(read));
    digest([
        dir.as_os_str().as_encoded_bytes(),
        fixtures.as_bytes(),
        settings.as_bytes(),
        sources.as_bytes(),
    ])
}

/// The hash of everything of a submission the grade can depend on: the
/// sources read (nothing else is compiled), the other names (misnamed
/// parts) and what was refused.
fn sources_digest(read: &Result<Submission, source::ReadError>) -> String {
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    match read {
        Err(e) => pieces.push(e.to_string().into_bytes()),
        Ok(s) => {
            pieces.push(format!("{:?} {:?}", s.nested, s.scattered).into_bytes());
            for file in &s.files {
                pieces.push(file.name.as_bytes().to_vec());
                pieces.push(file.bytes.clone());
            }
            pieces.push(s.others.join("/").into_bytes());
            for refused in &s.refused {
                pieces.push(refused.to_string().into_bytes());
            }
        }
    }
    digest(pieces.iter().map(Vec::as_slice))
}

/// What a student's saved result was graded with, kept in the cache under
/// the folder's own key, to say why a result is not reused.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct GradedWith {
    fixtures: String,
    sources: String,
    settings: Vec<(String, String)>,
}

impl GradedWith {
    fn now(
        read: &Result<Submission, source::ReadError>,
        fixtures: &str,
        options: &SubmissionOptions,
    ) -> GradedWith {
        GradedWith {
            fixtures: fixtures.to_owned(),
            sources: sources_digest(read),
            settings: options
                .grade_settings()
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value))
                .collect(),
        }
    }

    /// The cache key of a folder's last saved result's [`GradedWith`]
    /// (`with-` and a digest, so it is never taken for a student's result).
    fn key(dir: &Path) -> String {
        let d = digest([
            b"graded with".as_slice(),
            dir.as_os_str().as_encoded_bytes(),
        ]);
        format!("with-{d}")
    }

    /// Why a saved result graded `before` (if any is known) is not reused now.
    fn why_not_reused(before: Option<&GradedWith>, now: &GradedWith) -> String {
        let Some(before) = before else {
            return "no saved result (not graded before with this cache)".to_owned();
        };
        let mut why: Vec<String> = now
            .settings
            .iter()
            .filter_map(|(name, value)| {
                let old = before.settings.iter().find(|(n, _)| n == name);
                match old {
                    Some((_, old)) if old == value => None,
                    Some((_, old)) => Some(format!("{name} was {old}, now {value}")),
                    None => Some(format!("{name} is new ({value})")),
                }
            })
            .collect();
        if before.fixtures != now.fixtures {
            why.push("the fixtures changed".to_owned());
        }
        if before.sources != now.sources {
            why.push("the submission's files changed".to_owned());
        }
        if why.is_empty() {
            "its saved result is missing or unreadable".to_owned()
        } else {
            why.join(", ")
        }
    }
}

/// The student folders of a class: every sub-folder of `root` (hidden ones
/// left out), sorted by name; links and names that are not UTF-8 are left
/// out too (see [`source::list_class`]).
pub fn class_folders(root: &Path) -> Result<Vec<String>, SubmissionError> {
    Ok(list_class(root)?.folders)
}

pub(crate) fn list_class(root: &Path) -> Result<source::ClassListing, SubmissionError> {
    source::list_class(root).map_err(|e| SubmissionError::Folder {
        path: root.to_owned(),
        source: e.source,
    })
}

/// The students of a class: its folders (see [`class_folders`]), the
/// entries that would be students but are not read (a link, a name that is
/// not UTF-8, shown escaped), and the roster's, sorted by folder name.
pub fn class_members(root: &Path, roster: Option<&Roster>) -> Result<Vec<String>, SubmissionError> {
    let listing = list_class(root)?;
    let mut names = listing.folders;
    names.extend(listing.refused.into_iter().map(|r| r.name_escaped));
    if let Some(roster) = roster {
        names.extend(roster.folders().map(str::to_owned));
    }
    names.sort();
    names.dedup();
    Ok(names)
}

/// Grades every student of `root` (see [`class_members`]), saving
/// each result as soon as it is done; `progress` hears of each stage
/// ([`ClassProgress`]): once per student (restored, graded or absent), once
/// per part compiled.
pub fn grade_class(
    root: &Path,
    suite: &Suite,
    options: &SubmissionOptions,
    class: ClassOptions,
    progress: &(dyn Fn(ClassProgress) + Sync),
) -> Result<Vec<StudentResult>, SubmissionError> {
    let listing = list_class(root)?;
    let mut names = class_members(root, class.roster)?;
    if let Some(shard) = class.shard {
        names.retain(|name| shard.contains(name));
    }
    let member = |name: &str| class.roster.and_then(|r| r.get(name));
    let refusal = |name: &str| listing.refused.iter().find(|r| r.name_escaped == name);
    // Entries not read (a link, an odd name) and roster students with no
    // folder: a zero, never graded.
    let (names, absent): (Vec<String>, Vec<String>) = names
        .into_iter()
        .partition(|n| listing.folders.binary_search(n).is_ok());
    // One hash of the fixtures serves the result keys and every report.
    let provenance = options.provenance(suite);
    let tree = &provenance.fixtures;
    // Each folder is read once: its key, then (unless a saved result
    // matches) its build folder, from the same bytes.
    let mut pending = Vec::new();
    let mut prepared = Vec::new();
    let mut results: Vec<Option<StudentResult>> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let dir = root.join(name);
        let read = source::read_class_member(root, name, &options.read_limits);
        let key = result_key(&dir, &read, tree, options);
        let graded_with = GradedWith::now(&read, tree, options);
        // A saved result is the report graded with these settings; this
        // run's roster names it.
        let restored = class
            .resume
            .then(|| options.cache.as_ref()?.load_result(&key))
            .flatten()
            .and_then(|text: String| serde_json::from_str::<StudentResult>(&text).ok())
            .filter(|r| r.name == *name)
            .and_then(|r| match r.outcome {
                Outcome::Graded(report) => Some(student_result(name, Ok(*report), class.roster)),
                _ => None,
            });
        if restored.is_some() {
            progress(ClassProgress::Student);
        } else {
            if class.resume {
                let before = options
                    .cache
                    .as_ref()
                    .and_then(|c| c.load_result(&GradedWith::key(&dir)))
                    .and_then(|text| serde_json::from_str::<GradedWith>(&text).ok());
                progress(ClassProgress::NotReused {
                    student: name.clone(),
                    why: GradedWith::why_not_reused(before.as_ref(), &graded_with),
                });
            }
            prepared.push(prepare_student(&dir, read, options));
            pending.push((
                i,
                Pending {
                    name: name.clone(),
                    dir,
                    key,
                    graded_with,
                },
            ));
        }
        results.push(restored);
    }
    if class.resume {
        progress(ClassProgress::Restored {
            reused: names.len() - pending.len(),
            of: names.len(),
        });
    }
    let save = |at: usize, result: Result<SubmissionReport, SubmissionError>| -> StudentResult {
        let p = &pending[at].1;
        debug_assert!(result.as_ref().map_or(true, |r| r.dir == p.dir));
        let student = student_result(&p.name, result, class.roster);
        if let Some(cache) = &options.cache
            && student.graded()
            && let Ok(text) = serde_json::to_string(&student)
        {
            // A result that cannot be saved is only graded again next time.
            let _ = cache.store_result(&p.key, &text);
            if let Ok(with) = serde_json::to_string(&p.graded_with) {
                let _ = cache.store_result(&GradedWith::key(&p.dir), &with);
            }
        }
        progress(ClassProgress::Student);
        student
    };
    let graded = grade_many_indexed(
        prepared,
        suite,
        options,
        &provenance,
        options.jobs,
        &save,
        progress,
    )?;
    for (at, student) in graded.into_iter().enumerate() {
        results[pending[at].0] = Some(student);
    }
    let mut all: Vec<StudentResult> = results.into_iter().flatten().collect();
    for name in absent {
        progress(ClassProgress::Student);
        all.push(match refusal(&name) {
            Some(refused) => not_read(&name, refused, member(&name)),
            None => no_submission(&name, member(&name)),
        });
    }
    all.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(all)
}

/// The result of a class entry that is not read: a link, or a folder whose
/// name is not UTF-8.
pub(crate) fn not_read(name: &str, refused: &Refused, member: Option<&Member>) -> StudentResult {
    StudentResult {
        name: name.to_owned(),
        row: zero_row(
            name,
            member,
            vec![format!("not graded: {refused}")],
            Some(refused.to_string()),
        ),
        member: member.cloned(),
        outcome: Outcome::NotRead(refused.to_string()),
    }
}

/// The result of a roster student who has no folder in the class.
pub(crate) fn no_submission(name: &str, member: Option<&Member>) -> StudentResult {
    StudentResult {
        name: name.to_owned(),
        row: zero_row(name, member, vec!["no submission".to_owned()], None),
        member: member.cloned(),
        outcome: Outcome::Absent,
    }
}

/// The gradebook row of a student with no points: nothing was graded.
pub(crate) fn zero_row(
    folder: &str,
    member: Option<&Member>,
    notes: Vec<String>,
    error: Option<String>,
) -> Row {
    Row {
        student: folder.to_owned(),
        name: member.map(|m| m.name.clone()),
        id: member.map(|m| m.id.clone()),
        parts: [0.0; 4],
        total: 0.0,
        extra_credit: 0.0,
        extra_cases: 0,
        edge_passed: 0,
        edge_cases: 0,
        failed_cases: 0,
        cases: 0,
        notes,
        error,
        not_graded: false,
    }
    .shown()
}

/// The gradebook row and result of one graded (or ungradable) student.
pub fn student_result(
    name: &str,
    result: Result<SubmissionReport, SubmissionError>,
    roster: Option<&Roster>,
) -> StudentResult {
    let member = roster.and_then(|r| r.get(name));
    let mut notes = Vec::new();
    if roster.is_some() && member.is_none() {
        notes.push("not in the roster".to_owned());
    }
    match result {
        Ok(report) => StudentResult {
            name: name.to_owned(),
            row: Row {
                student: name.to_owned(),
                name: member.map(|m| m.name.clone()),
                id: member.map(|m| m.id.clone()),
                parts: std::array::from_fn(|i| report.points.parts[i].total),
                total: report.points.total,
                extra_credit: report.points.extra_credit.points,
                extra_cases: report.points.extra_credit.cases,
                edge_passed: report.points.edge.passed,
                edge_cases: report.points.edge.cases,
                failed_cases: report.failed_cases(),
                cases: report.builds.len() + report.cases.len(),
                notes: [notes, report.notes()].concat(),
                error: None,
                not_graded: false,
            }
            .shown(),
            member: member.cloned(),
            outcome: Outcome::Graded(Box::new(report)),
        },
        Err(e) => StudentResult {
            name: name.to_owned(),
            row: Row {
                not_graded: e.is_grader_fault(),
                ..zero_row(
                    name,
                    member,
                    [notes, vec![format!("not graded: {e}")]].concat(),
                    Some(e.to_string()),
                )
            },
            member: member.cloned(),
            outcome: Outcome::NotGraded(e.to_string()),
        },
    }
}
