//! `part01`: the course's part 1 executable, run on a `.cnf` file.
#![allow(clippy::print_stdout, clippy::print_stderr)] // reason: a command-line front end

mod common;

fn main() -> std::process::ExitCode {
    common::part_main(connect_core::Function::OnePlayerOneMove)
}
