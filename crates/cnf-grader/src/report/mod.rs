//! Every renderer: the model in, text out. Human text (plain or colour),
//! JSON, JUnit, Gradescope, HTML, the gradebook table, CSV and Canvas CSV.
//! A renderer never runs anything and never reads a student's files; every
//! byte a student controls goes through [`crate::escape`].

pub mod diff;
pub mod gradebook;
pub mod gradescope;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod similarity;
pub mod submission;

/// How text is styled for a person: plain, or with ANSI colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// No escape codes at all.
    Plain,
    /// ANSI colours and emphasis.
    Color,
}

use crate::model::compare::Compare;
use crate::model::points::Points;
use crate::model::provenance::Provenance;
use crate::model::run::ShardInfo;

/// What goes into a report besides the cases.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReportOptions<'a> {
    /// Show durations.
    pub times: bool,
    /// The score table, when asked for.
    pub points: Option<&'a Points>,
    /// A warning every format carries at its top (e.g. `--no-sandbox`).
    pub warning: Option<&'a str>,
    /// More top-level fields of the JSON report (name, value), e.g. the
    /// submission's folder and GHC.
    pub extra: &'a [(&'a str, serde_json::Value)],
    /// The comparison mode the cases were judged with.
    pub compare: Compare,
    /// A student's view: hidden cases show only their name, status and points.
    pub student: bool,
    /// Where the report came from (every format records it when given).
    pub provenance: Option<&'a Provenance>,
    /// For a shard's JSON report: which shard, and each case's place in the
    /// whole run (what `merge` needs to rebuild the run's report).
    pub shard: Option<(ShardInfo, &'a [usize])>,
}
