//! Provenance: what every report records so a grade can be checked months
//! later — the grader's version, the GHC version, a hash of the fixture
//! tree, the comparison mode, whether the sandbox was on, and the date.
//!
//! Decisions:
//! - the fixture hash is SHA-256 over every fixture file's name below the
//!   fixture base ([`crate::grade::discover::Fixture::name`]'s folder, then the file's name) and its
//!   contents, in discovery order (sorted by name), of the whole selection
//!   before `--shard` splits it: `fixtures`, `./fixtures`, `fixtures//`, an
//!   absolute path or a copy of the tree elsewhere give the same hash, every
//!   shard of one run records the same hash, and a changed, added, removed
//!   or renamed fixture changes it;
//! - the date is given by the binary (the library reads no clock), in UTC,
//!   RFC 3339 to the second; `--no-times` leaves it out with the durations,
//!   so a report can be reproduced byte for byte;
//! - `ghc` is absent when no GHC was involved (`grade`, `grade --exec`);
//! - `sandbox` is always there: `in-process` for grading this project's own
//!   implementation (nothing external runs), `off` for `--no-sandbox`, and
//!   otherwise the sandbox backend and what it lacks, as
//!   `sandbox::Sandbox::description` gives it (e.g. `bubblewrap 0.8.0,
//!   memory cgroup v1`, or `user; weaker: …`); reports written before it
//!   was a text say `true`/`false`, read as `on`/`off`.

use serde::{Deserialize, Serialize};

use crate::assignment::Assignment;
use crate::model::compare::Compare;
use sha2::{Digest as _, Sha256};

/// The grader's version, as every report records it.
pub const GRADER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The provenance's `sandbox` for in-process grading.
pub const IN_PROCESS: &str = "in-process";

/// The provenance's `sandbox` with `--no-sandbox`.
pub const OFF: &str = "off";

fn in_process() -> String {
    IN_PROCESS.to_owned()
}

/// Reads `sandbox` as a text, or as the boolean older reports wrote.
fn sandbox_field<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Field {
        Text(String),
        Flag(bool),
    }
    Ok(match Field::deserialize(d)? {
        Field::Text(t) => t,
        Field::Flag(true) => "on".to_owned(),
        Field::Flag(false) => OFF.to_owned(),
    })
}

/// Where a report came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The grader's version.
    pub grader: String,
    /// GHC's version, when submissions were compiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ghc: Option<String>,
    /// SHA-256 of the fixture tree (see the module docs).
    pub fixtures: String,
    /// The comparison mode.
    pub compare: Compare,
    /// The sandbox programs under test ran in: [`IN_PROCESS`], [`OFF`], or
    /// the backend's description (see the module docs).
    #[serde(default = "in_process", deserialize_with = "sandbox_field")]
    pub sandbox: String,
    /// When it was graded (UTC, RFC 3339), unless left out for reproducible reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The assignment graded (left out for Connect Four, the default).
    #[serde(default, skip_serializing_if = "Assignment::is_default")]
    pub assignment: Assignment,
}

impl Provenance {
    /// The provenance of grading, with this grader, the fixtures whose
    /// digest is `fixtures` ([`crate::grade::discover::fixtures_digest`]).
    pub fn new(fixtures: String, compare: Compare) -> Provenance {
        Provenance {
            grader: GRADER_VERSION.to_owned(),
            ghc: None,
            fixtures,
            compare,
            sandbox: in_process(),
            date: None,
            assignment: Assignment::default(),
        }
    }

    /// The same provenance, of grading `assignment`.
    pub fn with_assignment(self, assignment: Assignment) -> Provenance {
        Provenance { assignment, ..self }
    }

    /// The provenance as a student's page shows it: the sandbox's backend
    /// without the list of what it lacks (which would tell a student where
    /// to push); the instructor's reports keep the whole of it.
    pub fn for_students(&self) -> Provenance {
        let sandbox = match self.sandbox.split_once("; weaker: ") {
            Some((backend, _)) => backend.to_owned(),
            None => self.sandbox.clone(),
        };
        Provenance {
            sandbox,
            ..self.clone()
        }
    }

    /// The same provenance apart from the date (for comparing shards of one run).
    pub fn same_run(&self, other: &Provenance) -> bool {
        Provenance {
            date: None,
            ..self.clone()
        } == Provenance {
            date: None,
            ..other.clone()
        }
    }

    /// The first field (the date left out) whose value differs between two
    /// provenances, with this one's value and the other's (`(none)` for a
    /// field one of them lacks); `None` when they are the same run.
    pub fn difference(&self, other: &Provenance) -> Option<(&'static str, String, String)> {
        let (mine, theirs) = (self.fields(), other.fields());
        let value = |fields: &[(&'static str, String)], name: &str| {
            fields
                .iter()
                .find(|(n, _)| *n == name)
                .map_or_else(|| "(none)".to_owned(), |(_, v)| v.clone())
        };
        mine.iter()
            .chain(&theirs)
            .map(|(name, _)| *name)
            .filter(|name| *name != "date")
            .find_map(|name| {
                let (a, b) = (value(&mine, name), value(&theirs, name));
                (a != b).then_some((name, a, b))
            })
    }

    /// One line for human reports: `graded by cnf-grader 0.1.0 · GHC 9.0.2 ·
    /// fixtures sha256:0123456789ab · compare exact · sandbox bubblewrap 0.8.0 ·
    /// 2026-12-01T13:30:00Z`.
    pub fn line(&self) -> String {
        let mut parts = vec![format!("graded by cnf-grader {}", self.grader)];
        if !self.assignment.is_default() {
            parts.push(format!("assignment {}", self.assignment));
        }
        if let Some(ghc) = &self.ghc {
            parts.push(format!("GHC {ghc}"));
        }
        parts.push(format!("fixtures sha256:{}", self.short_hash()));
        parts.push(format!("compare {}", self.compare));
        match self.sandbox.as_str() {
            IN_PROCESS => parts.push(IN_PROCESS.to_owned()),
            OFF => parts.push("sandbox OFF".to_owned()),
            backend => parts.push(format!("sandbox {backend}")),
        }
        if let Some(date) = &self.date {
            parts.push(date.clone());
        }
        parts.join(" · ")
    }

    /// The first 12 hex digits of the fixture hash.
    pub fn short_hash(&self) -> &str {
        self.fixtures.get(..12).unwrap_or(&self.fixtures)
    }

    /// The fields as (name, value) pairs, for JUnit properties and HTML.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![("grader", format!("cnf-grader {}", self.grader))];
        if !self.assignment.is_default() {
            out.push(("assignment", self.assignment.name().to_owned()));
        }
        if let Some(ghc) = &self.ghc {
            out.push(("ghc", ghc.clone()));
        }
        out.push(("fixtures", format!("sha256:{}", self.fixtures)));
        out.push(("compare", self.compare.name().to_owned()));
        out.push(("sandbox", self.sandbox.clone()));
        if let Some(date) = &self.date {
            out.push(("date", date.clone()));
        }
        out
    }
}

/// A hex SHA-256 over these pieces, each length-prefixed (so no two lists
/// of pieces hash alike).
pub fn digest<'a>(pieces: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut hasher = Sha256::new();
    for piece in pieces {
        hasher.update((piece.len() as u64).to_le_bytes());
        hasher.update(piece);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_every_field() {
        let p = Provenance {
            grader: "1.2.3".to_owned(),
            ghc: Some("9.0.2".to_owned()),
            fixtures: "0123456789abcdef".to_owned(),
            compare: Compare::TrailingWhitespace,
            sandbox: "bubblewrap 0.8.0".to_owned(),
            date: Some("2026-12-01T13:30:00Z".to_owned()),
            assignment: Default::default(),
        };
        assert_eq!(
            p.line(),
            "graded by cnf-grader 1.2.3 · GHC 9.0.2 · fixtures sha256:0123456789ab · \
             compare trailing-whitespace · sandbox bubblewrap 0.8.0 · 2026-12-01T13:30:00Z"
        );
        let other = Provenance {
            date: Some("2027-01-01T00:00:00Z".to_owned()),
            ..p.clone()
        };
        assert!(p.same_run(&other));
        assert_eq!(p.difference(&other), None);
        let unsandboxed = Provenance {
            sandbox: OFF.to_owned(),
            ..other.clone()
        };
        assert!(!p.same_run(&unsandboxed));
        assert_eq!(
            p.difference(&unsandboxed),
            Some(("sandbox", "bubblewrap 0.8.0".to_owned(), "off".to_owned()))
        );
        let no_ghc = Provenance { ghc: None, ..other };
        assert_eq!(
            p.difference(&no_ghc),
            Some(("ghc", "9.0.2".to_owned(), "(none)".to_owned()))
        );
    }
}
