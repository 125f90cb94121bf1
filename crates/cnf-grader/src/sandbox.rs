//! The grader's side of the sandbox: the `sandbox` crate runs every
//! program under test (see its crate docs for the backends, the threat
//! model and what each backend guarantees); this module only names what
//! the grader uses of it.
//!
//! What the grader decides, not the crate: which paths are protected (the
//! fixture folders with their `.solution` files, the class folder, the
//! cache and every output the run writes), what each run is shown (a
//! compilation its sources at `/build`; a part's run its executables at
//! `/build`; a `grade --exec` run the files its command names), and that
//! the student with index `i` of a class owns its build folder as user
//! `--sandbox-uid` + `i` when the grader is root.
//!
//! How a program under test is run: [`crate::grade::exec`] fills in the
//! command template and runs it through `ExecSandbox::run` (a [`Run`] with
//! a private copy of its one game file) or, with `--no-sandbox`, through
//! `run_command_in` (`sandbox::run_plain_within`, and every report says
//! the sandbox was off); GHC runs the same way ([`crate::submission`]).
//! Either way each run has its own process group (or session), a time
//! limit and an output cap; the whole group is killed when it must end,
//! and never more than the cap of its output is held in memory.

pub use sandbox::{
    BackendKind, Bind, Clock, Config, DEFAULT_UID, Limits, Outcome, PATH, Run, RunResult, SCRATCH,
    Sandbox, SandboxError, TimeLimits, Usage, check_uid, give_to, running_as_root,
};
