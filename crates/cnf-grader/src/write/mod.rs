//! Writing fixtures: `bless` writes the `.solution` files of existing games,
//! `gen` makes new games with theirs.

pub mod bless;
pub mod generate;
