//! The seccomp filter and the Landlock ruleset, both made before `fork`.
//!
//! The seccomp filter is one program, the same on every backend (so also
//! through bubblewrap 0.6.1's single `--seccomp`). It refuses (EPERM):
//! - `socket` of every family: no network, and no named or abstract Unix
//!   socket, so two runs cannot meet through one (`socketpair`, which
//!   makes an unnamed connected pair inside one run, stays allowed);
//! - System V IPC and POSIX message queues (`shmget`, `semget`, `msgget`,
//!   `mq_open`): objects that any user may open by key or name, and that
//!   outlive the run; GHC's runtime uses none of them (no variant of
//!   GHC 9.0.2's `libHSrts*.a` refers to any of these calls or to
//!   `socket`);
//! - `ptrace`, `process_vm_readv`/`writev`, `io_uring_setup` (whose
//!   operations would pass the socket rule), `bpf`, `perf_event_open`,
//!   `userfaultfd`, `keyctl`/`add_key`/`request_key`, `unshare`, `setns`,
//!   `mount`, and `clone` with a new user namespace.
//!
//! `clone3` gets ENOSYS, so the C library falls back to `clone`, whose
//! flags the filter can see: a few instructions put before the compiled
//! rules (a seccomp program has one action per rule set in
//! `seccompiler`). Every other call is allowed.

use std::os::fd::OwnedFd;
use std::path::PathBuf;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The calls refused whatever their arguments.
pub const REFUSED_CALLS: [i64; 18] = [
    libc::SYS_socket,
    libc::SYS_shmget,
    libc::SYS_semget,
    libc::SYS_msgget,
    libc::SYS_mq_open,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_io_uring_setup,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
];

fn arch() -> Result<TargetArch, String> {
    match std::env::consts::ARCH {
        "x86_64" => Ok(TargetArch::x86_64),
        "aarch64" => Ok(TargetArch::aarch64),
        "riscv64" => Ok(TargetArch::riscv64),
        other => Err(format!("no seccomp filter for the {other} architecture")),
    }
}

/// The sandbox's seccomp program (see the module docs).
pub fn program() -> Result<BpfProgram, String> {
    let e = |e: seccompiler::BackendError| e.to_string();
    let newuser = SeccompRule::new(vec![
        SeccompCondition::new(
            0,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(libc::CLONE_NEWUSER as u64),
            libc::CLONE_NEWUSER as u64,
        )
        .map_err(e)?,
    ])
    .map_err(e)?;
    let mut rules: std::collections::BTreeMap<i64, Vec<SeccompRule>> = Default::default();
    rules.insert(libc::SYS_clone, vec![newuser]);
    for call in REFUSED_CALLS {
        rules.insert(call, Vec::new());
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch()?,
    )
    .map_err(e)?;
    let rules: BpfProgram = filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())?;
    // clone3 first: ENOSYS, then the rules (whose jumps are relative, so
    // they hold after the prefix). The number is checked before the
    // architecture, which is harmless: the answer is only a refusal.
    const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const RET_K: u16 = 0x06; // BPF_RET | BPF_K
    const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;
    let op = |code: u16, jt: u8, jf: u8, k: u32| seccompiler::sock_filter { code, jt, jf, k };
    let mut program = vec![
        // seccomp_data.nr is at offset 0.
        op(LD_W_ABS, 0, 0, 0),
        op(JEQ_K, 0, 1, libc::SYS_clone3 as u32),
        op(RET_K, 0, 0, SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
    ];
    program.extend(rules);
    Ok(program)
}

/// The filters to install, in order: only [`program`] (one program, so
/// that a bubblewrap with only `--seccomp` installs all of it).
pub fn programs() -> Result<Vec<BpfProgram>, String> {
    Ok(vec![program()?])
}

/// The raw bytes of a program, as bubblewrap's `--add-seccomp-fd` and
/// `--seccomp` read it.
pub fn program_bytes(program: &BpfProgram) -> Vec<u8> {
    let mut out = Vec::with_capacity(program.len() * 8);
    for f in program {
        out.extend_from_slice(&f.code.to_ne_bytes());
        out.push(f.jt);
        out.push(f.jf);
        out.extend_from_slice(&f.k.to_ne_bytes());
    }
    out
}

/// The Landlock ABI version this kernel has (0: none).
pub fn landlock_abi() -> u32 {
    // landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)
    // SAFETY: the call reads no memory with these arguments.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    u32::try_from(v).unwrap_or(0)
}

/// The paths of a Landlock ruleset.
#[derive(Debug, Clone, Default)]
pub struct Access {
    /// Read and execute, not write.
    pub read: Vec<PathBuf>,
    /// Everything.
    pub write: Vec<PathBuf>,
    /// Files (devices) that may be read and written, not made or removed.
    pub devices: Vec<PathBuf>,
}

/// Makes the Landlock ruleset for `access` (`Ok(None)` where the kernel has
/// no Landlock). Signals to processes outside the run and abstract Unix
/// sockets are scoped too, where the kernel can (ABI 6).
pub fn landlock_ruleset(access: &Access) -> Result<Option<OwnedFd>, String> {
    use landlock::{
        ABI, Access as _, AccessFs, Ruleset, RulesetAttr as _, RulesetCreatedAttr as _, Scope,
        path_beneath_rules,
    };
    if landlock_abi() == 0 {
        return Ok(None);
    }
    let abi = ABI::V6;
    let all = AccessFs::from_all(abi);
    let read = AccessFs::from_read(abi);
    let device = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev;
    let e = |e: landlock::RulesetError| e.to_string();
    let created = Ruleset::default()
        .handle_access(all)
        .map_err(e)?
        .scope(Scope::Signal | Scope::AbstractUnixSocket)
        .map_err(e)?
        .create()
        .map_err(e)?
        .add_rules(path_beneath_rules(&access.read, read))
        .map_err(e)?
        .add_rules(path_beneath_rules(&access.devices, device))
        .map_err(e)?
        .add_rules(path_beneath_rules(&access.write, all))
        .map_err(e)?;
    Ok(created.into())
}
