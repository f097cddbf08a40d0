//! Getting a worker's attach failure into the FPM log (spec §14.3 item 8) whatever the pool's
//! `catch_workers_output`.
//!
//! php-fpm gives a worker no way to its master's log: without `catch_workers_output` the worker's stderr
//! is `/dev/null`, and FPM closes the log file's descriptor in every worker (the file may be reopened
//! under it). The master writes its log through its stderr, which it points at the log file once it has
//! read its configuration (`error_log`; when run in the foreground from a terminal, stderr stays the
//! terminal and is the log). Loaded with `extension=`, MINIT runs in the master, so it starts one thread
//! there that receives messages on one end of a connectionless `AF_UNIX` socket pair and writes them to
//! the master's stderr; every worker inherits the other end.
//!
//! The workers run any pool's code, so nothing a worker sends is trusted for where it came from. A
//! message carries only a claimed pool name and the text; the relay thread writes the whole line itself,
//! `[date] WARNING: [pool NAME] child PID: static_cache: MESSAGE`, FPM's own format for a child:
//! * PID is the sender's pid as the kernel gives it (`SO_PASSCRED`: each datagram comes with the
//!   sender's `SCM_CREDENTIALS`, which only a process with `CAP_SYS_ADMIN` can set to another pid), and
//!   the message is dropped unless that process is a direct child of the master (`/proc/PID/stat`) and
//!   `/proc` is this PID namespace's (else the pid cannot be checked): a process the worker started, or
//!   one that got the descriptor some other way, cannot log.
//! * `[pool NAME] ` is there only when the claimed name is the one in the sender's process title
//!   (`php-fpm: pool NAME`, as FPM sets it, possibly truncated; the worker claims what its own title
//!   says): a worker cannot log in another pool's name.
//! * MESSAGE is one line of printable ASCII of at most [`MAX_MESSAGE`] bytes: a control character, a
//!   byte outside ASCII and `\` are written `\xHH`, so no message can end the line and start a forged one.
//! * The date is the master's clock in the master's time zone, formatted by the thread. `localtime_r`
//!   and `strftime` take libc's time zone lock, which a worker forked while the thread held it would
//!   inherit held (its next `localtime` would hang), and a worker-supplied date would be forgeable (its
//!   code can set `TZ`). So MINIT, before the thread exists, computes the zone's UTC offset now and its
//!   changes over the next [`ZONE_DAYS`] days (daylight saving time), and the thread adds the offset in
//!   force to `clock_gettime`. A change of the system's zone after start is not seen, as in FPM's own
//!   lines.
//!
//! Userland code cannot reach the socket: `php://fd/N` is for the CLI only and `open()` of
//! `/proc/self/fd/N` fails for a socket (with the pipe this replaces, it opened the pipe and any pool
//! could write lines of any origin into the log). Native code in a worker (FFI, an extension) can send
//! on it, with the limits above, and can disconnect the shared socket (the relay then stops for every
//! worker); a worker running as root can also send with any pid.
//!
//! The thread takes no lock a forked worker could inherit held: besides the system calls it only
//! allocates, and glibc's `fork` takes the allocator's locks around the fork; its one lock, held while it
//! reads a sender's `/proc` files, is taken by `fork` too (`pthread_atfork`), so no worker inherits one
//! of those descriptors. It runs with every signal blocked, so FPM's signal handling stays on its main
//! thread. Each child of the master closes its copy of the receiving end as it is forked
//! (`pthread_atfork`), so a worker cannot read other pools' messages. Workers send without blocking and
//! without `SIGPIPE` (`MSG_DONTWAIT | MSG_NOSIGNAL`): a full queue or a master that is gone fails the
//! send, and the worker writes to its stderr instead.
//!
//! A worker with `catch_workers_output = yes` writes to its stderr as before (FPM logs it, also to
//! syslog). Without it, the relay is used where it can be there; it cannot, and the line is lost as any
//! stderr output of such a worker: loaded per pool (nothing of ours runs in the master), with
//! `daemonize = yes` (MINIT runs in a process that forks the master and exits; threads do not survive
//! the fork), after the master was killed, if the queue is full, with `error_log = syslog` (the master
//! points its stderr at `/dev/null` then), or when the master sees another PID namespace's `/proc`.

use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

use shm_core::ProcStat;

/// The longest datagram the relay reads (pool name, NUL, message); a longer one is cut there.
const MAX_DATAGRAM: usize = 2048;
/// The longest message part of a logged line, after escaping.
const MAX_MESSAGE: usize = 1024;
/// How far ahead of MINIT the time zone's offset changes are known.
const ZONE_DAYS: i64 = 800;

/// The sending end and the process whose thread receives.
struct Relay {
    writer: OwnedFd,
    master: libc::pid_t,
}

static RELAY: OnceLock<Relay> = OnceLock::new();
/// The receiving end, closed in every child of the master (-1 until the thread runs).
static READER: AtomicI32 = AtomicI32::new(-1);

/// In the master's MINIT: starts the relay thread. Failing to start it only loses the fallback-free path.
pub fn start() {
    if RELAY.get().is_some() {
        return;
    }
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: fds has room for the two descriptors socketpair writes.
    if unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0, fds.as_mut_ptr()) } != 0 {
        return;
    }
    // SAFETY: both descriptors were just returned by socketpair and are owned by nobody else.
    let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let on: libc::c_int = 1;
    // SAFETY: setsockopt reads one c_int from `on`, whose size is passed.
    let passcred = unsafe {
        libc::setsockopt(
            reader.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PASSCRED,
            (&on as *const libc::c_int).cast(),
            size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if passcred != 0 {
        return;
    }
    let zone = Zone::local();
    // SAFETY: getpid has no preconditions.
    let master = unsafe { libc::getpid() };
    let reader_fd = reader.as_raw_fd();
    // SAFETY: an all-zero sigset is a valid out-parameter; sigfillset/pthread_sigmask only write the sets.
    let ok = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        let spawned = std::thread::Builder::new()
            .name("sc-log-relay".to_owned())
            .spawn(move || relay_messages(reader_fd, master, &zone));
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        spawned.is_ok()
    };
    if !ok {
        return;
    }
    // The thread owns the receiving end for the process's life; children close their copy as they are
    // forked (none is forked in between: MINIT runs on the master's main thread, which forks later).
    std::mem::forget(reader);
    READER.store(reader_fd, Ordering::Relaxed);
    static AT_FORK: std::sync::Once = std::sync::Once::new();
    // SAFETY: registers plain extern "C" handlers that only lock or unlock a mutex and call close.
    AT_FORK.call_once(|| unsafe {
        libc::pthread_atfork(Some(before_fork), Some(after_fork_in_parent), Some(after_fork_in_child));
    });
    let _ = RELAY.set(Relay { writer, master });
}

/// Held by the relay thread while it has a `/proc` file open, and by a forking thread from before the
/// fork until after it (in the parent and in the child): a child never inherits one of those
/// descriptors. glibc runs the fork handlers before it takes its allocator's locks, so the relay thread
/// can finish its reads (which allocate) while a fork waits for it.
struct ProcReads(std::cell::UnsafeCell<libc::pthread_mutex_t>);

// SAFETY: the mutex is only reached through the pthread calls, which synchronise the threads.
unsafe impl Sync for ProcReads {}

static PROC_READS: ProcReads = ProcReads(std::cell::UnsafeCell::new(libc::PTHREAD_MUTEX_INITIALIZER));

impl ProcReads {
    fn lock(&self) {
        // SAFETY: a statically initialised default mutex, never moved or destroyed.
        unsafe { libc::pthread_mutex_lock(self.0.get()) };
    }

    /// Only by the thread that locked it (after a fork: the child's one thread, which forked).
    fn unlock(&self) {
        // SAFETY: as in `lock`; the caller holds the mutex.
        unsafe { libc::pthread_mutex_unlock(self.0.get()) };
    }
}

extern "C" fn before_fork() {
    PROC_READS.lock();
}

extern "C" fn after_fork_in_parent() {
    PROC_READS.unlock();
}

extern "C" fn after_fork_in_child() {
    PROC_READS.unlock();
    let fd = READER.swap(-1, Ordering::Relaxed);
    if fd >= 0 {
        // SAFETY: fd is the receiving end this process inherited; nothing else in a child uses it.
        unsafe { libc::close(fd) };
    }
}

/// The relay thread: logs each message of a child of the master, for as long as the process lives.
fn relay_messages(reader: libc::c_int, master: libc::pid_t, zone: &Zone) {
    let mut buf = [0u8; MAX_DATAGRAM];
    // Room for the credentials only: descriptors a sender attaches (SCM_RIGHTS) do not fit, and the
    // kernel drops them rather than install them here.
    let mut control = [0u64; 8];
    loop {
        let mut iov = libc::iovec { iov_base: buf.as_mut_ptr().cast(), iov_len: buf.len() };
        // SAFETY: an all-zero msghdr is valid; its pointers are set to live buffers below.
        let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        // SAFETY: CMSG_SPACE only computes a size.
        msg.msg_controllen = unsafe { libc::CMSG_SPACE(size_of::<libc::ucred>() as u32) } as usize;
        // SAFETY: msg points at buf and control, both live and writable for the lengths given; reader
        // stays open for the process's life.
        let n = unsafe { libc::recvmsg(reader, &mut msg, libc::MSG_CMSG_CLOEXEC) };
        if n < 0 {
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return;
        }
        let Some(pid) = sender(&msg) else { continue };
        if let Some(line) = line_of(pid, master, &buf[..n as usize], zone) {
            write_all(libc::STDERR_FILENO, line.as_bytes());
        }
    }
}

/// The sender's pid from the message's credentials (closing any descriptor that came along).
fn sender(msg: &libc::msghdr) -> Option<libc::pid_t> {
    let mut pid = None;
    // SAFETY: msg was filled by recvmsg: CMSG_FIRSTHDR/CMSG_NXTHDR walk its control buffer within
    // msg_controllen, and each header's data is read only for the size its length covers.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(msg);
        while !cmsg.is_null() {
            let data = libc::CMSG_DATA(cmsg);
            let len = ((*cmsg).cmsg_len as usize).saturating_sub(data as usize - cmsg as usize);
            if (*cmsg).cmsg_level == libc::SOL_SOCKET {
                if (*cmsg).cmsg_type == libc::SCM_CREDENTIALS && len >= size_of::<libc::ucred>() {
                    let cred: libc::ucred = std::ptr::read_unaligned(data.cast());
                    pid = Some(cred.pid);
                } else if (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                    for i in 0..len / size_of::<libc::c_int>() {
                        libc::close(std::ptr::read_unaligned(data.cast::<libc::c_int>().add(i)));
                    }
                }
            }
            cmsg = libc::CMSG_NXTHDR(msg, cmsg);
        }
    }
    pid.filter(|&p| p > 0)
}

/// The log line for a message from `pid`, if `pid` is a child of `master`.
fn line_of(pid: libc::pid_t, master: libc::pid_t, datagram: &[u8], zone: &Zone) -> Option<String> {
    let (claim, message) = match datagram.iter().position(|&b| b == 0) {
        Some(nul) => (&datagram[..nul], &datagram[nul + 1..]),
        None => (&[][..], datagram),
    };
    let title_pool = {
        PROC_READS.lock();
        let process = pid.to_string();
        // /proc must be this PID namespace's for /proc/PID to be the sender; its title is read only once
        // it is known to be a child of `master`.
        let same_namespace = std::fs::read_link("/proc/self").is_ok_and(|p| p.to_str() == Some(&master.to_string()));
        let child = same_namespace && ProcStat::read(&process).and_then(|s| s.number::<libc::pid_t>(4)) == Some(master);
        let read = child.then(|| super::pool_name_of(&process));
        PROC_READS.unlock();
        read?
    };
    let pool = match title_pool {
        Some(name) if name.as_bytes() == claim => format!("[pool {}] ", escaped(name.as_bytes(), MAX_MESSAGE)),
        _ => String::new(),
    };
    Some(format!(
        "[{}] WARNING: {pool}child {pid}: static_cache: {}\n",
        zone.format_now(),
        escaped(message, MAX_MESSAGE)
    ))
}

/// `bytes` as printable ASCII on one line: control characters, non-ASCII bytes and `\` as `\xHH`; cut
/// (ending in `...`) to at most `max` bytes.
fn escaped(bytes: &[u8], max: usize) -> String {
    let mut out = String::with_capacity(bytes.len().min(max));
    for &b in bytes {
        let piece =
            if (0x20..0x7f).contains(&b) && b != b'\\' { (b as char).to_string() } else { format!("\\x{b:02x}") };
        if out.len() + piece.len() > max - 3 {
            out.push_str("...");
            break;
        }
        out.push_str(&piece);
    }
    out
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

/// The local time zone as MINIT saw it: its UTC offset before the first change, and the changes
/// (instant, offset from then on) over the next [`ZONE_DAYS`] days.
struct Zone {
    offset: i64,
    changes: Vec<(i64, i64)>,
}

impl Zone {
    /// Computed with `localtime_r` (in MINIT: before the relay thread exists).
    fn local() -> Zone {
        // SAFETY: time(NULL) has no preconditions.
        let now = unsafe { libc::time(std::ptr::null_mut()) };
        let offset = utc_offset(now);
        let mut zone = Zone { offset, changes: Vec::new() };
        let mut current = offset;
        for day in 1..=ZONE_DAYS {
            let t = now + day * 86_400;
            let o = utc_offset(t);
            if o != current {
                // the first second of the day before t that has the new offset
                let (mut before, mut after) = (t - 86_400, t);
                while after - before > 1 {
                    let mid = before + (after - before) / 2;
                    if utc_offset(mid) == o {
                        after = mid
                    } else {
                        before = mid
                    }
                }
                zone.changes.push((after, o));
                current = o;
            }
        }
        zone
    }

    fn offset_at(&self, t: i64) -> i64 {
        self.changes.iter().rev().find(|&&(at, _)| at <= t).map_or(self.offset, |&(_, o)| o)
    }

    /// Now, as FPM writes it in its log (`26-Nov-2026 14:10:00`), without libc's time functions.
    fn format_now(&self) -> String {
        // SAFETY: an all-zero timespec is a valid out-parameter; clock_gettime only writes it.
        let now = unsafe {
            let mut ts: libc::timespec = std::mem::zeroed();
            libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts);
            ts.tv_sec
        };
        format_local(now + self.offset_at(now))
    }
}

/// The UTC offset (seconds east) of the local zone at `t`.
fn utc_offset(t: libc::time_t) -> i64 {
    // SAFETY: an all-zero tm is a valid out-parameter; localtime_r only writes it.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            0
        } else {
            tm.tm_gmtoff
        }
    }
}

/// `local` (seconds since the epoch, shifted by the UTC offset) as `DD-Mon-YYYY HH:MM:SS`.
fn format_local(local: i64) -> String {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let (days, secs) = (local.div_euclid(86_400), local.rem_euclid(86_400));
    // civil_from_days (H. Hinnant): days since 1970-01-01 to the proleptic Gregorian date
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{day:02}-{}-{year} {:02}:{:02}:{:02}",
        MONTHS[(month - 1) as usize],
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// In a worker: logs `message` to the FPM log. With `catch_workers_output = yes` (stderr is FPM's pipe)
/// to stderr, which FPM logs as `[pool NAME] child PID said into stderr: "static_cache: message"`; else
/// (stderr is `/dev/null`) through the relay, when the master that runs it is this worker's parent: it
/// sends its pool name (from its title) and the message, and the relay writes
/// `[date] WARNING: [pool NAME] child PID: static_cache: message` (FPM's own format for a child).
pub fn log(pool: Option<&str>, message: &str) {
    // SAFETY: getppid has no preconditions.
    let parent = unsafe { libc::getppid() };
    if let Some(relay) = RELAY.get().filter(|r| r.master == parent && stderr_discarded()) {
        let mut datagram = Vec::with_capacity(MAX_DATAGRAM);
        datagram.extend_from_slice(pool.unwrap_or_default().as_bytes());
        datagram.push(0);
        datagram.extend_from_slice(message.as_bytes());
        datagram.truncate(MAX_DATAGRAM);
        // SAFETY: datagram is a readable buffer of datagram.len() bytes; the sending end is open (never
        // closed).
        let n = unsafe {
            libc::send(
                relay.writer.as_raw_fd(),
                datagram.as_ptr().cast(),
                datagram.len(),
                libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL,
            )
        };
        if n == datagram.len() as isize {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_formatted_as_fpm_does() {
        assert_eq!(format_local(0), "01-Jan-1970 00:00:00");
        assert_eq!(format_local(1_795_702_260), "26-Nov-2026 14:11:00");
        assert_eq!(format_local(951_782_400 + 86_399), "29-Feb-2000 23:59:59");
    }

    #[test]
    fn messages_become_one_printable_line() {
        assert_eq!(escaped(b"a \"b\"\n[x] NOTICE:\\\xc3\xa9", 100), "a \"b\"\\x0a[x] NOTICE:\\x5c\\xc3\\xa9");
        assert_eq!(escaped(&[b'x'; 50], 10), "xxxxxxx...");
    }

    #[test]
    fn the_zone_table_agrees_with_localtime() {
        let zone = Zone::local();
        // SAFETY: time(NULL) has no preconditions.
        let now = unsafe { libc::time(std::ptr::null_mut()) };
        for t in (now..now + (ZONE_DAYS - 1) * 86_400).step_by(86_400 * 3 + 3_607) {
            assert_eq!(zone.offset_at(t), utc_offset(t), "at {t}");
        }
    }

    #[test]
    fn zone_offsets_follow_their_changes() {
        let zone = Zone { offset: 3600, changes: vec![(100, 7200), (200, 3600)] };
        assert_eq!(
            [zone.offset_at(99), zone.offset_at(100), zone.offset_at(199), zone.offset_at(200)],
            [3600, 7200, 7200, 3600]
        );
    }
}
