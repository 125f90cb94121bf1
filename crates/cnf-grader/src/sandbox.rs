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

pub use sandbox::{
    BackendKind, Bind, Clock, Config, DEFAULT_UID, Limits, Outcome, PATH, Run, RunResult, SCRATCH,
    Sandbox, SandboxError, TimeLimits, Usage, check_uid, give_to, running_as_root,
};
