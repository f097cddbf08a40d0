//! Getting a worker's attach failure into the FPM log (spec §14.3 item 8) whatever the pool's
//! `catch_workers_output`.
//!
//! php-fpm gives a worker no way to its master's log: without `catch_workers_output` the worker's stderr
//! is `/dev/null`, and FPM closes the log file's descriptor in every worker (the file may be reopened
//! under it). The master writes its log through its stderr, which it points at the log file once it has
//! read its configuration (`error_log`; when run in the foreground from a terminal, stderr stays the
//! terminal and is the log). Loaded with `extension=`, MINIT runs in the master, so it starts one thread
//! there that copies whole lines from a pipe to the master's stderr; every worker inherits the pipe's
//! write end. The thread does nothing but read and write (no lock a forked worker could inherit held,
//! no time formatting: the worker formats its line itself) and runs with every signal blocked, so FPM's
//! signal handling stays on its main thread.
//!
//! A worker with `catch_workers_output = yes` writes to its stderr as before (FPM logs it, also to
//! syslog). Without it, the relay is used where it can be there; it cannot, and the line is lost as any
//! stderr output of such a worker: loaded per pool (nothing of ours runs in the master), with
//! `daemonize = yes` (MINIT runs in a process that forks the master and exits; threads do not survive
//! the fork), after the master was killed, if the pipe is full, or with `error_log = syslog` (the master
//! points its stderr at `/dev/null` then).

use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::OnceLock;

/// The write end of the relay's pipe and the process whose thread reads it.
struct Relay {
    writer: OwnedFd,
    master: libc::pid_t,
}

static RELAY: OnceLock<Relay> = OnceLock::new();

/// In the master's MINIT: starts the relay thread. Failing to start it only loses the fallback-free path.
pub fn start() {
    if RELAY.get().is_some() {
        return;
    }
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: fds has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return;
    }
    // SAFETY: both descriptors were just returned by pipe2 and are owned by nobody else.
    let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // A full pipe must not stall a worker: its write fails and it falls back to its stderr.
    // SAFETY: fcntl on a descriptor we own.
    unsafe { libc::fcntl(writer.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
    // The reader stays open in every worker too (they inherit it and never close it): the pipe always has
    // a reader, so a worker's write never raises SIGPIPE, even once the master is gone.
    let reader_fd = reader.as_raw_fd();
    std::mem::forget(reader);
    // SAFETY: an all-zero sigset is a valid out-parameter; sigfillset/pthread_sigmask only write the sets.
    let ok = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        let spawned = std::thread::Builder::new().name("sc-log-relay".to_owned()).spawn(move || copy_lines(reader_fd));
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        spawned.is_ok()
    };
    if ok {
        // SAFETY: getpid has no preconditions.
        let _ = RELAY.set(Relay { writer, master: unsafe { libc::getpid() } });
    }
}

/// The relay thread: copies complete lines from the pipe to this process's stderr, for as long as the
/// process lives.
fn copy_lines(reader: libc::c_int) {
    let mut pending: Vec<u8> = Vec::with_capacity(2 * libc::PIPE_BUF);
    let mut buf = [0u8; libc::PIPE_BUF];
    loop {
        // SAFETY: buf is a writable buffer of buf.len() bytes; reader stays open for the process's life.
        let n = unsafe { libc::read(reader, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        if n <= 0 {
            return;
        }
        pending.extend_from_slice(&buf[..n as usize]);
        if let Some(end) = pending.iter().rposition(|&b| b == b'\n') {
            write_all(libc::STDERR_FILENO, &pending[..=end]);
            pending.drain(..=end);
        }
        if pending.len() > libc::PIPE_BUF {
            pending.clear(); // never a line of ours (each is one atomic write ending in a newline)
        }
    }
}

fn write_all(fd: libc::c_int, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: bytes is a readable buffer of bytes.len() bytes.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        if n <= 0 {
            return;
        }
        bytes = &bytes[n as usize..];
    }
}

/// In a worker: logs `message` to the FPM log. With `catch_workers_output = yes` (stderr is FPM's pipe)
/// to stderr, which FPM logs as `[pool NAME] child PID said into stderr: "static_cache: message"`; else
/// (stderr is `/dev/null`) through the relay, when the master that runs it is this worker's parent, as
/// `[date] WARNING: [pool NAME] child PID: static_cache: message` (FPM's own format for a child).
pub fn log(pool: Option<&str>, message: &str) {
    // SAFETY: getppid and getpid have no preconditions.
    let (parent, pid) = unsafe { (libc::getppid(), libc::getpid()) };
    if let Some(relay) = RELAY.get().filter(|r| r.master == parent && stderr_discarded()) {
        let pool = pool.map(|p| format!("[pool {p}] ")).unwrap_or_default();
        let mut line = format!("[{}] WARNING: {pool}child {pid}: static_cache: {message}", now());
        line.retain(|c| c != '\n');
        // One write of at most PIPE_BUF bytes is atomic: lines of several workers never mix.
        let mut end = line.len().min(libc::PIPE_BUF - 1);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        line.truncate(end);
        line.push('\n');
        // SAFETY: line is a readable buffer of line.len() bytes; the write end is open (never closed).
        let n = unsafe { libc::write(relay.writer.as_raw_fd(), line.as_ptr().cast(), line.len()) };
        if n == line.len() as isize {
            return;
        }
    }
    let _ = writeln!(std::io::stderr(), "static_cache: {message}");
}

/// Whether this process's stderr is `/dev/null` (FPM's worker without `catch_workers_output`).
fn stderr_discarded() -> bool {
    // SAFETY: all-zero stats are valid out-parameters; fstat and stat only write them.
    unsafe {
        let mut err: libc::stat = std::mem::zeroed();
        let mut null: libc::stat = std::mem::zeroed();
        libc::fstat(libc::STDERR_FILENO, &mut err) == 0
            && libc::stat(c"/dev/null".as_ptr(), &mut null) == 0
            && err.st_mode & libc::S_IFMT == libc::S_IFCHR
            && err.st_rdev == null.st_rdev
    }
}

/// The local time as FPM writes it in its log (`26-Nov-2026 14:10:00`).
fn now() -> String {
    // SAFETY: time(NULL) only returns the time; localtime_r writes only `tm`; strftime writes at most
    // buf.len() bytes and returns how many.
    unsafe {
        let t = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            return String::new();
        }
        let mut buf = [0u8; 64];
        let n = libc::strftime(buf.as_mut_ptr().cast(), buf.len(), c"%d-%b-%Y %H:%M:%S".as_ptr(), &tm);
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }
}
