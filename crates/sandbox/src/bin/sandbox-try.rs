//! Test helper: tries one thing a hostile program would, and exits 0 when
//! it worked, 1 when it was refused (printing the error), 2 on bad usage.
//!
//! `sandbox-try socket inet|inet6|packet|netlink|unix`, `sandbox-try ptrace`,
//! `sandbox-try userns`, `sandbox-try clone3`, `sandbox-try shm|sem|msg|mq`
//! (make a System V segment, semaphore set or message queue, or a POSIX
//! message queue, each open to every user).
//!
//! For the time and memory measures: `sandbox-try burn MS` computes until
//! its own CPU time (user + system, as `getrusage` gives it) reaches MS
//! milliseconds, then prints that time in milliseconds; `sandbox-try
//! touch MIB` writes to every page of MIB mebibytes, holds them half a
//! second, then prints its peak resident set in kibibytes.

#![expect(
    unsafe_code,
    reason = "each hostile call is made raw, as a student's program would"
)]
#![warn(clippy::undocumented_unsafe_blocks)]

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
        ["clone3"] => {
            // With no arguments the kernel answers EINVAL or EFAULT; a
            // filter that refuses it answers first.
            // SAFETY: a plain system call that reads nothing at NULL/0.
            let r = unsafe { libc::syscall(libc::SYS_clone3, std::ptr::null::<u8>(), 0usize) };
            let e = std::io::Error::last_os_error();
            if r < 0 && e.raw_os_error() == Some(libc::ENOSYS) {
                Err(e)
            } else {
                Ok(())
            }
        }
        ["shm" | "sem" | "msg" | "mq"] => {
            let key = 0x3c0f_fee0 + i32::from(what[0].len() as u8);
            // SAFETY: plain system calls; the name is a C string.
            let r = unsafe {
                match what[0].as_str() {
                    "shm" => libc::shmget(key, 4096, libc::IPC_CREAT | 0o666),
                    "sem" => libc::semget(key, 1, libc::IPC_CREAT | 0o666),
                    "msg" => libc::msgget(key, libc::IPC_CREAT | 0o666),
                    _ => libc::syscall(
                        libc::SYS_mq_open,
                        c"cnf-sandbox-try".as_ptr(),
                        libc::O_CREAT | libc::O_RDWR,
                        0o666,
                        std::ptr::null::<u8>(),
                    ) as i32,
                }
            };
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
        ["touch", mib] | ["touch", mib, _] => {
            let Ok(mib) = mib.parse::<usize>() else {
                return std::process::ExitCode::from(2);
            };
            // How long the memory is held, in ms (default: ten polls).
            let Ok(hold) = what.get(2).map_or(Ok(500), |ms| ms.parse::<u64>()) else {
                return std::process::ExitCode::from(2);
            };
            let mut block = vec![0u8; mib << 20];
            for i in (0..block.len()).step_by(4096) {
                block[i] = 1;
            }
            std::hint::black_box(&block);
            std::thread::sleep(std::time::Duration::from_millis(hold));
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
