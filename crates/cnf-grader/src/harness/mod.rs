//! Grading fixture trees: finding fixtures, running every case in-process
//! or through `--exec`, comparing and diffing, the reports and the points,
//! and writing fixtures (`bless`, `gen`).

pub mod bless;
pub mod compare;
pub mod diff;
pub mod discover;
pub mod exec;
pub mod generator;
pub mod grade;
pub mod gradescope;
pub mod html;
pub mod merge;
pub mod output;
pub mod points;
pub mod provenance;
pub mod report;
pub mod shard;
pub mod units;
