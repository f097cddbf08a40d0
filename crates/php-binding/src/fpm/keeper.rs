//! The keeper of a pool that loads the extension itself (`php_admin_value[extension]`).
//!
//! php-fpm then runs no code of ours in the master, and it stops workers with SIGTERM (after SIGQUIT, at
//! once unless `process_control_timeout` is set), which ends them without running any. So the pool's first
//! worker of a generation forks a small process that does the master's part: it holds the pool's presence
//! lock while the master runs (an idle pool keeps its data), and once the master has exited and the pool's
//! last worker is gone it removes the pool's objects. After a reload the pool's next generation removes
//! this one's objects and the keeper exits. It runs as the pool's user, keeps no descriptor of FPM's
//! (listening sockets, pipes), ignores the signals a service manager sends to a whole group (it leaves by
//! itself once the master is gone), and shows in `ps` as `php-fpm: static_cache keeper of pool NAME`.
//! It marks the pool's lock while it runs ([`named::hold_mark`]): a worker of the pool that finds no mark
//! (the keeper was killed) starts another.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::{Duration, Instant};

use shm_core::{named, presence, PresenceLock, ProcStat};

/// How often the keeper checks, while the master runs, whether a reload made it obsolete.
const CHECK_EVERY: Duration = Duration::from_secs(1);
/// How long it waits once the master is gone for the pool's last worker (orphans of a killed master go on
/// serving); after that a later start removes the objects.
const ORPHAN_WAIT: Duration = Duration::from_secs(600);
const ORPHAN_POLL: Duration = Duration::from_millis(50);
/// Signals a service manager or a terminal sends to every process of a group.
const IGNORED: [libc::c_int; 7] =
    [libc::SIGTERM, libc::SIGINT, libc::SIGQUIT, libc::SIGHUP, libc::SIGUSR1, libc::SIGUSR2, libc::SIGPIPE];

/// Starts the keeper of the pool whose lock is `lock_name` (held by the calling worker, which must have
/// just created it) and whose segment is `segment_name`.
pub fn spawn(lock_name: &str, segment_name: &str, label: &str) -> std::io::Result<()> {
    // SAFETY: getppid has no preconditions; a worker's parent is its master.
    let master_pid = unsafe { libc::getppid() };
    // SAFETY: pidfd_open takes a pid and flags; it returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, master_pid, 0) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fd was just returned by pidfd_open and belongs to nobody else.
    let master = unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) };
    // SAFETY: as above. Still the parent: the pidfd refers to the master, not to a process that reused its pid.
    if unsafe { libc::getppid() } != master_pid {
        return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
    }
    let title = format!("php-fpm: static_cache keeper of pool {label}");
    // SAFETY: an FPM worker is single-threaded; the child never returns into PHP (it forks the keeper
    // and leaves with _exit, as the keeper does).
    match unsafe { libc::fork() } {
        -1 => Err(std::io::Error::last_os_error()),
        0 => {
            // SAFETY: the intermediate child leaves the worker's session and exits at once, so the keeper
            // is no process's child in FPM (the init of the PID namespace adopts it).
            unsafe {
                libc::setsid();
                if libc::fork() == 0 {
                    keep(&master, lock_name, segment_name, &title);
                }
                libc::_exit(0)
            }
        }
        child => {
            let mut status = 0;
            // SAFETY: child is this worker's child; waiting for it reaps the intermediate process.
            while unsafe { libc::waitpid(child, &mut status, 0) } < 0
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
            {}
            Ok(())
        }
    }
}

/// Whether the pool whose lock is `lock_name` has its keeper. One killed (by the OOM killer, by hand)
/// is started again by the pool's next worker: without it the pool's objects would outlive the master.
pub fn running(lock_name: &str) -> bool {
    named::is_marked(lock_name)
}

fn keep(master: &OwnedFd, lock_name: &str, segment_name: &str, title: &str) -> ! {
    let _ = std::panic::catch_unwind(|| {
        detach(master.as_raw_fd());
        retitle(title);
        run(master, lock_name, segment_name);
    });
    // SAFETY: leaving without running the worker's exit handlers.
    unsafe { libc::_exit(0) }
}

/// Drops everything of the worker the keeper must not hold: every descriptor but `keep` (standard
/// descriptors go to /dev/null), and the worker's signal handlers.
fn detach(keep: libc::c_int) {
    let fds: Vec<libc::c_int> = std::fs::read_dir("/proc/self/fd")
        .map(|dir| dir.flatten().filter_map(|e| e.file_name().to_str()?.parse().ok()).collect())
        .unwrap_or_default();
    for fd in fds.into_iter().filter(|&fd| fd != keep) {
        // SAFETY: closing descriptors inherited from the worker; nothing in this process uses them any more.
        unsafe { libc::close(fd) };
    }
    // SAFETY: the path is a valid C string; the descriptors land on 0, 1 and 2, the lowest free ones.
    unsafe {
        for _ in 0..3 {
            libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        }
    }
    for sig in IGNORED {
        // SAFETY: installing SIG_IGN has no preconditions.
        unsafe { libc::signal(sig, libc::SIG_IGN) };
    }
    // SAFETY: the name is a valid C string of at most 16 bytes.
    unsafe { libc::prctl(libc::PR_SET_NAME, c"sc-keeper".as_ptr()) };
}

/// Writes `title` where FPM wrote the worker's title (the start of the argument area), into the space
/// FPM zeroed for titles, so that `ps` tells the keeper from the pool's workers.
fn retitle(title: &str) {
    // Field 48: the start of the argument area; field 51: the end of the environment area.
    let Some(stat) = ProcStat::read("self") else { return };
    let (Some(start), Some(end)) = (stat.number::<usize>(48), stat.number::<usize>(51)) else { return };
    if start == 0 || end <= start {
        return;
    }
    // SAFETY: [start, end) is the argument and environment block the kernel placed at the top of this
    // process's stack; it stays mapped for the process's life, and no Rust value refers to it (FPM moved
    // the environment to the heap before writing titles there).
    let area = unsafe { std::slice::from_raw_parts_mut(start as *mut u8, end - start) };
    let old = area.iter().position(|&b| b == 0).unwrap_or(area.len());
    // Room: the old title and the zeroes after it, less a final NUL.
    let room = old + area[old..].iter().take_while(|&&b| b == 0).count().saturating_sub(1);
    let n = title.len().min(room);
    area[..n].copy_from_slice(&title.as_bytes()[..n]);
    area[n..old.max(n)].fill(0);
}

fn run(master: &OwnedFd, lock_name: &str, segment_name: &str) {
    let Ok((lock, created)) = PresenceLock::join(lock_name) else { return };
    if created {
        // The pool's next generation removed this one before the keeper got going.
        if let Some(vacancy) = lock.leave() {
            vacancy.remove();
        }
        return;
    }
    // The pool's one keeper: workers that find no keeper's mark start another ([`running`]).
    let Some(_mark) = named::hold_mark(lock_name) else { return };
    let mut watch = libc::pollfd { fd: master.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    loop {
        // SAFETY: one valid pollfd; a pidfd polls readable once its process has exited.
        let ready = unsafe { libc::poll(&mut watch, 1, CHECK_EVERY.as_millis() as libc::c_int) };
        if ready > 0 {
            break;
        }
        if !lock.is_named() {
            return; // the pool's next generation took over (and removed this one's objects)
        }
    }
    let deadline = Instant::now() + ORPHAN_WAIT;
    let mut vacancy = lock.leave();
    while vacancy.is_none() && Instant::now() < deadline && named::exists(lock_name) {
        std::thread::sleep(ORPHAN_POLL);
        vacancy = presence::probe(lock_name);
    }
    if let Some(vacancy) = vacancy {
        let _ = named::unlink(segment_name);
        super::remove_claims_of(segment_name);
        vacancy.remove();
    }
}
