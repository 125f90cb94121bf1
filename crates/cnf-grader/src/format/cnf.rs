//! The `.cnf` game format, read and written by `connect_core::cnf` (the
//! `connect` game saves and loads the same files); re-exported here so the
//! grader's modules name it where they always did.

pub use connect_core::cnf::*;
