//! A class compared for copying, as data: the options, every student's
//! files and fingerprints, the pairs with their matching definitions, and
//! the report's provenance. `crate::similarity` computes it;
//! `crate::report::similarity` renders it.

use std::path::Path;

/// How students are compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Tokens in a k-gram: no shared run shorter than this counts.
    pub k: usize,
    /// Winnowing's window: every shared run of `k + window - 1` tokens or
    /// more is found.
    pub window: usize,
    /// A fingerprint held by more students than this is common code, not
    /// evidence, and is ignored (`None`: a tenth of the class, at least 10).
    pub max_share: Option<usize>,
    /// Each student's closest pairs kept, whatever their similarity.
    pub closest: usize,
    /// Every pair at or above this similarity is kept too.
    pub keep_above: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            k: 12,
            window: 8,
            max_share: None,
            closest: 10,
            keep_above: 0.5,
        }
    }
}

impl Options {
    /// The share limit for a class of `students`.
    pub fn share_limit(&self, students: usize) -> usize {
        self.max_share.unwrap_or((students / 10).max(10))
    }
}

/// One source file's text (lossily UTF-8: an invalid byte becomes U+FFFD).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceText {
    /// Its name in the student's folder.
    pub name: String,
    /// Its text.
    pub text: String,
}

/// One student as compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Student {
    /// The folder name.
    pub name: String,
    /// The files compared.
    pub files: Vec<SourceText>,
    /// Their fingerprints once base and common code are removed.
    pub fingerprints: usize,
    /// The names of each file's definitions, as written.
    pub definitions: Vec<Vec<String>>,
    /// Why some files were not read or compared.
    pub notes: Vec<String>,
}

/// Lines of one file of one student.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// The index of the file in [`Student::files`].
    pub file: usize,
    /// The index of the definition in that file's definitions.
    pub definition: usize,
    /// The first and last lines (from 1) of the matching k-grams.
    pub lines: (u32, u32),
}

/// A definition of one student matching a definition of the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// The first student's side.
    pub a: Region,
    /// The second student's side.
    pub b: Region,
    /// The fingerprints the two definitions share.
    pub shared: usize,
}

/// Two students who share fingerprints.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// One student (an index into [`Report::students`]; `a < b`).
    pub a: usize,
    /// The other.
    pub b: usize,
    /// The fingerprints they share.
    pub shared: usize,
    /// `shared` over the fingerprints of the one with fewer, 0 to 1.
    pub similarity: f64,
    /// The matching definitions, by `a`'s file and line.
    pub matches: Vec<Match>,
}

/// A class compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Every student, sorted by name.
    pub students: Vec<Student>,
    /// The pairs sharing a fingerprint that are kept (every pair at or
    /// above [`Options::keep_above`], and each student's
    /// [`Options::closest`] pairs), highest similarity first.
    pub pairs: Vec<Pair>,
    /// How many pairs share a fingerprint, kept or not.
    pub sharing: usize,
    /// The options used.
    pub options: Options,
    /// The share limit applied.
    pub share_limit: usize,
    /// Distinct fingerprints of the base code.
    pub base_fingerprints: usize,
    /// Distinct fingerprints ignored as held by too many students.
    pub common_fingerprints: usize,
}

/// What every report says it ignores.
pub const IGNORES: &str = "Ignored: the names a student chose (every name they define is a \
placeholder that keeps only how it is used), the order of definitions, comments, layout and \
white space, the values of literals, imports, the base code, and code that more than the share \
limit of students have.";

/// What every report says still hides a copy.
pub const BLIND_SPOTS: &str = "Not seen: a rewrite with other logic (another algorithm or \
another split into functions), shared runs shorter than k tokens, and files other than the part \
files and an own Helpers.hs. A score is evidence for a person to read, not a verdict.";

/// Where a similarity report came from, and with which settings.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Provenance {
    /// The grader's version.
    pub grader: String,
    /// How code is compared, in a few words.
    pub method: String,
    /// Tokens in a k-gram.
    pub k: usize,
    /// Winnowing's window.
    pub window: usize,
    /// Most students a fingerprint may be held by and still count.
    pub share_limit: usize,
    /// SHA-256 of the base files' names (without their folders) and texts.
    pub base: String,
    /// How many base files were given (the default `Helpers.hs` aside).
    pub base_files: usize,
    /// Distinct fingerprints of the base code, the default `Helpers.hs`'s included.
    pub base_fingerprints: usize,
    /// Distinct fingerprints ignored as common.
    pub common_fingerprints: usize,
    /// Students compared.
    pub students: usize,
    /// When (UTC, RFC 3339), unless left out for a reproducible report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

impl Provenance {
    /// The provenance of `report`, made from `base` on `date`.
    pub fn new(report: &Report, base: &[SourceText], date: Option<String>) -> Provenance {
        let names: Vec<String> = base
            .iter()
            .map(|f| {
                Path::new(&f.name)
                    .file_name()
                    .map_or_else(|| f.name.clone(), |n| n.to_string_lossy().into_owned())
            })
            .collect();
        let digest = crate::model::provenance::digest(
            names
                .iter()
                .zip(base)
                .flat_map(|(name, f)| [name.as_bytes(), f.text.as_bytes()]),
        );
        Provenance {
            grader: crate::model::provenance::GRADER_VERSION.to_owned(),
            method:
                "Haskell tokens, own names as placeholders, definitions as a set, winnowed k-grams"
                    .to_owned(),
            k: report.options.k,
            window: report.options.window,
            share_limit: report.share_limit,
            base: format!("sha256:{digest}"),
            base_files: base.len(),
            base_fingerprints: report.base_fingerprints,
            common_fingerprints: report.common_fingerprints,
            students: report.students.len(),
            date,
        }
    }

    /// One line for the human report.
    pub fn line(&self) -> String {
        let mut parts = vec![
            format!("compared by cnf-grader {}", self.grader),
            format!("k {} · window {}", self.k, self.window),
            format!("share limit {} students", self.share_limit),
            format!(
                "base {} file{} sha256:{}",
                self.base_files,
                if self.base_files == 1 { "" } else { "s" },
                self.base
                    .trim_start_matches("sha256:")
                    .get(..12)
                    .unwrap_or("")
            ),
        ];
        if let Some(date) = &self.date {
            parts.push(date.clone());
        }
        parts.join(" · ")
    }

    /// The fields as (name, value) pairs, for HTML.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![
            ("grader", format!("cnf-grader {}", self.grader)),
            ("method", self.method.clone()),
            ("k", self.k.to_string()),
            ("window", self.window.to_string()),
            ("share limit", format!("{} students", self.share_limit)),
            ("base", format!("{} ({} files)", self.base, self.base_files)),
            ("base fingerprints", self.base_fingerprints.to_string()),
            ("common fingerprints", self.common_fingerprints.to_string()),
            ("students", self.students.to_string()),
        ];
        if let Some(date) = &self.date {
            out.push(("date", date.clone()));
        }
        out
    }
}

impl Student {
    /// The name of the definition of `region`, as written.
    pub fn definition(&self, region: &Region) -> &str {
        self.definitions
            .get(region.file)
            .and_then(|d| d.get(region.definition))
            .map_or("", String::as_str)
    }
}
