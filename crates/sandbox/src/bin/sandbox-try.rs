//! Test helper: tries one thing a hostile program would, and exits 0 when
//! it worked, 1 when it was refused (printing the error), 2 on bad usage.
//!
//! `sandbox-try socket inet|inet6|packet|netlink|unix`, `sandbox-try ptrace`,
//! `sandbox-try userns`.

#![allow(unsafe_code)]

fn main() -> std::process::ExitCode {
    let what: Vec<String> = std::env::args().skip(1).collect();
    let result: std::io::Result<()> = match what.iter().map(String::as_str).collect::<Vec<_>>()[..]
    {
        ["socket", family] => {
            let family = match family {
                "inet" => libc::AF_INET,
                "inet6" => libc::AF_INET6,
                "packet" => libc::AF_PACKET,
                "netlink" => libc::AF_NETLINK,
                "unix" => libc::AF_UNIX,
                _ => return std::process::ExitCode::from(2),
            };
            // SAFETY: a plain system call.
            let fd = unsafe { libc::socket(family, libc::SOCK_DGRAM, 0) };
            if fd < 0 {
                Err(std::io::Error::last_os_error())
            } else {
                Ok(())
            }
        }
        ["ptrace"] => {
            // SAFETY: a plain system call.
            let r = unsafe { libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) };
            if r < 0 {
                Err(std::io::Error::last_os_error())
            } else {
                Ok(())
            }
        }
        ["userns"] => {
            // SAFETY: a plain system call.
            let r = unsafe { libc::unshare(libc::CLONE_NEWUSER) };
            if r < 0 {
                Err(std::io::Error::last_os_error())
            } else {
                Ok(())
            }
        }
        _ => return std::process::ExitCode::from(2),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            let _ = std::io::Write::write_all(&mut std::io::stderr(), format!("{e}\n").as_bytes());
            std::process::ExitCode::from(1)
        }
    }
}
