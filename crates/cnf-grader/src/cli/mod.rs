//! The `cnf-grader` binary's own modules: its flags, its subcommands, and
//! how it writes reports. Each subcommand parses, calls the library, prints.

pub(crate) mod args;
pub(crate) mod fixtures;
pub(crate) mod grade;
pub(crate) mod inert;
pub(crate) mod merge;
pub(crate) mod output;
pub(crate) mod similarity;
pub(crate) mod submission;
