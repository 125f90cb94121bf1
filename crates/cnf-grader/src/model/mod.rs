//! The result model: typed data for a case, a submission and a class, with
//! their provenance. Grading produces it, [`crate::report`] renders it, and
//! JSON reports and `merge` read and write exactly it (serde). Nothing here
//! runs a program or formats a report.

pub mod case;
pub mod class;
pub mod compare;
pub mod diff;
pub mod merge;
pub mod points;
pub mod provenance;
pub mod run;
pub mod shard;
pub mod similarity;
pub mod submission;
