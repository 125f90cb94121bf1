//! A class as data: each student's result and gradebook row, and a
//! gradebook read back.

use serde::{Deserialize, Serialize};

use crate::model::provenance::Provenance;
use crate::model::run::ShardInfo;
use crate::model::submission::SubmissionReport;

/// One student of the roster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// The student's name.
    pub name: String,
    /// The student's id in the LMS.
    pub id: String,
}

/// One student's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The student's folder name.
    pub student: String,
    /// The student's name, from the roster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The student's LMS id, from the roster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Points of parts 1 to 4.
    pub parts: [f64; 4],
    /// Their sum, out of 100.
    pub total: f64,
    /// Extra-credit points, apart from the total (out of 10).
    #[serde(default)]
    pub extra_credit: f64,
    /// Extra-credit cases graded (0: the fixtures have none).
    #[serde(default)]
    pub extra_cases: usize,
    /// Edge cases passed.
    #[serde(default)]
    pub edge_passed: usize,
    /// Edge cases graded.
    #[serde(default)]
    pub edge_cases: usize,
    /// Tests failed: compilations and cases (a part that did not build fails
    /// its compilation and all its cases).
    pub failed_cases: usize,
    /// Tests in the student's report: the four compilations and the cases.
    pub cases: usize,
    /// Remarks: missing parts, compile errors, timeouts, own Helpers.hs.
    pub notes: Vec<String>,
    /// Why the submission could not be graded, if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether the grader's own failure (a full disk, a sandbox that could
    /// not start, ...), not the student's, kept it from being graded: the
    /// reports show no points for it (`not graded: REASON`), nothing of it
    /// is saved, `--resume` grades it again, and the exit code is 3.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_graded: bool,
}

impl Row {
    /// The row with every text from outside the grader shown by
    /// [`crate::escape::line`].
    pub fn shown(&self) -> Row {
        let esc = |s: &str| crate::escape::line(s).into_owned();
        Row {
            student: esc(&self.student),
            name: self.name.as_deref().map(esc),
            id: self.id.as_deref().map(esc),
            notes: self.notes.iter().map(|n| esc(n)).collect(),
            error: self.error.as_deref().map(esc),
            ..self.clone()
        }
    }
}

/// The rows of these students.
pub fn rows(students: &[StudentResult]) -> Vec<Row> {
    students.iter().map(|s| s.row.clone()).collect()
}

/// What the reports say of a roster student with no folder in the class.
pub const ABSENT: &str = "the class has no folder of this name";

/// One student of a class, as the gradebook and the reports need it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudentResult {
    /// The sub-folder's name.
    pub name: String,
    /// The gradebook row.
    pub row: Row,
    /// The student's roster entry, when the roster names the folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<Member>,
    /// What became of the folder.
    pub outcome: Outcome,
}

/// What became of one student's folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It was graded.
    Graded(Box<SubmissionReport>),
    /// The class entry was not read (a link, a name that is not UTF-8): why.
    NotRead(String),
    /// It could not be graded, through the grader's own failure (a full
    /// disk, a sandbox that could not start) or a folder that cannot be
    /// read: why.
    NotGraded(String),
    /// The roster names the student, but the class has no folder of this name.
    Absent,
}

impl StudentResult {
    /// The result as the student sees it: the paths of its cases relative
    /// to the fixtures folders `roots` ([`SubmissionReport::relative_to`]).
    pub fn relative_to(&self, roots: &[std::path::PathBuf]) -> StudentResult {
        let mut student = self.clone();
        if let Outcome::Graded(report) = &mut student.outcome {
            **report = report.relative_to(roots);
        }
        student
    }

    /// Whether it was graded (false: it could not be, and `row.error` says why).
    pub fn graded(&self) -> bool {
        matches!(self.outcome, Outcome::Graded(_))
    }

    /// The title of the student's pages: the roster's name first, then the folder.
    pub fn title(&self) -> String {
        self.member.as_ref().map_or_else(
            || self.name.clone(),
            |m| format!("{} ({})", m.name, self.name),
        )
    }
}

/// A class's shard report read back (see `report::gradebook::shard_json`).
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
