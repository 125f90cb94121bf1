//! End-to-end tests of the `connect` binary.
