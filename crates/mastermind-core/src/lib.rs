//! mastermind-core
