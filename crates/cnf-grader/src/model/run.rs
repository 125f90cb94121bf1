//! A run's report as data: the shard it covers, and a JSON report read back.

use serde::{Deserialize, Serialize};

use crate::model::case::CaseReport;
use crate::model::compare::Compare;
use crate::model::provenance::Provenance;
use crate::model::shard::Shard;

/// A shard of a run, as its JSON report records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// Which shard of how many.
    #[serde(flatten)]
    pub shard: Shard,
    /// Report entries of the whole run (all shards together).
    pub entries: usize,
}

/// A JSON report read back: what `merge` needs of each shard.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadReport {
    /// The warning at its top.
    pub warning: Option<String>,
    /// Its provenance.
    pub provenance: Option<Provenance>,
    /// The shard it covers (`None`: not a shard report).
    pub shard: Option<ShardInfo>,
    /// The comparison mode.
    pub compare: Compare,
    /// The cases with their places in the whole run (`None` outside shard reports).
    pub cases: Vec<(Option<usize>, CaseReport)>,
    /// Whether it had a score table.
    pub points: bool,
    /// Whether its cases carry durations (not written with `--no-times`).
    pub timed: bool,
    /// Its other top-level fields (e.g. a submission's folder and GHC).
    pub extra: serde_json::Map<String, serde_json::Value>,
}
