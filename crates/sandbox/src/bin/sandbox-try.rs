//! Test helper: tries one thing a hostile program would, and exits 0 when
//! it worked, 1 when it was refused (printing the error), 2 on bad usage.
//!
//! `sandbox-try socket inet|inet6|packet|netlink|unix`, `sandbox-try ptrace`,
//! `sandbox-try userns`.
//!
//! For the time and memory measures: `sandbox-try burn MS` computes until
//! its own CPU time (user + system, as `getrusage` gives it) reaches MS
//! milliseconds, then prints that time in milliseconds; `sandbox-try
//! touch MIB` writes to every page of MIB mebibytes, holds them half a
//! second, then prints its peak resident set in kibibytes.

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
        ["burn", ms] => {
            let Ok(ms) = ms.parse::<u128>() else {
                return std::process::ExitCode::from(2);
            };
            let mut x = 1u64;
            loop {
                for _ in 0..100_000 {
                    x = std::hint::black_box(
                        x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1),
                    );
                }
                let used = own_usage().0;
                if used >= ms {
                    let _ = std::io::Write::write_all(
                        &mut std::io::stdout(),
                        format!("{used}\n").as_bytes(),
                    );
                    break Ok(());
                }
            }
        }
        ["touch", mib] => {
            let Ok(mib) = mib.parse::<usize>() else {
                return std::process::ExitCode::from(2);
            };
            let mut block = vec![0u8; mib << 20];
            for i in (0..block.len()).step_by(4096) {
                block[i] = 1;
            }
            std::hint::black_box(&block);
            // Held for ten polls of a sampling sandbox.
            std::thread::sleep(std::time::Duration::from_millis(500));
            let _ = std::io::Write::write_all(
                &mut std::io::stdout(),
                format!("{}\n", own_usage().1).as_bytes(),
            );
            Ok(())
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

/// This process's CPU time in milliseconds and peak resident set in KiB.
fn own_usage() -> (u128, i64) {
    // SAFETY: rusage is plain data, written by the call.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a plain system call on a live value.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let ms = |t: libc::timeval| t.tv_sec as u128 * 1000 + t.tv_usec as u128 / 1000;
    (ms(u.ru_utime) + ms(u.ru_stime), u.ru_maxrss)
}
