//! Test helper: installs a seccomp filter like Docker's default profile
//! for a container without CAP_SYS_ADMIN (`unshare`, `setns`, `mount`,
//! `umount2` and `clone` with any namespace flag refused with EPERM,
//! `clone3` with ENOSYS), then runs the given command under it.
//!
//! `docker-like COMMAND [ARGS…]`

use std::os::unix::process::CommandExt as _;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

const NAMESPACE_FLAGS: u64 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWCGROUP) as u64;

fn filters() -> Result<Vec<BpfProgram>, seccompiler::BackendError> {
    let arch = match std::env::consts::ARCH {
        "aarch64" => TargetArch::aarch64,
        _ => TargetArch::x86_64,
    };
    // One rule per flag: clone is refused when any namespace flag is set.
    let mut clone_rules = Vec::new();
    for bit in 0..64 {
        let flag = 1u64 << bit;
        if NAMESPACE_FLAGS & flag != 0 {
            clone_rules.push(SeccompRule::new(vec![SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag),
                flag,
            )?])?);
        }
    }
    let mut rules: std::collections::BTreeMap<i64, Vec<SeccompRule>> = Default::default();
    rules.insert(libc::SYS_clone, clone_rules);
    for call in [
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
    ] {
        rules.insert(call, Vec::new());
    }
    let eperm = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )?;
    let enosys = SeccompFilter::new(
        [(libc::SYS_clone3, Vec::new())].into_iter().collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )?;
    Ok(vec![eperm.try_into()?, enosys.try_into()?])
}

fn main() -> std::process::ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let Some((program, rest)) = args.split_first() else {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"usage: docker-like COMMAND [ARGS...]\n",
        );
        return std::process::ExitCode::from(2);
    };
    let filters = match filters() {
        Ok(f) => f,
        Err(e) => {
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("docker-like: {e}\n").as_bytes(),
            );
            return std::process::ExitCode::from(2);
        }
    };
    for f in &filters {
        if let Err(e) = seccompiler::apply_filter_all_threads(f) {
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("docker-like: {e}\n").as_bytes(),
            );
            return std::process::ExitCode::from(2);
        }
    }
    let e = std::process::Command::new(program).args(rest).exec();
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!(
            "docker-like: cannot run {}: {e}\n",
            program.to_string_lossy()
        )
        .as_bytes(),
    );
    std::process::ExitCode::from(127)
}
