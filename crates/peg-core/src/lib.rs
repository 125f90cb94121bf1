//! peg-core
