//! connect-core
