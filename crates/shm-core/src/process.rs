//! Who is running: process and thread identity that survives PID reuse, and liveness checks.
//!
//! A reservation, a reader slot or a staged store records its owner as (pid, tid, process start time).
//! The start time (field 22 of /proc/PID/stat, in clock ticks since boot) tells a dead owner from a new
//! process that got the same PID. Ids and start times mean something only in the namespaces they were
//! read in (a PID namespace numbers its own processes; a time namespace shifts the start times that
//! /proc shows its readers), so the start-time word also carries a tag of the owner's PID and time
//! namespaces ([`namespace_tag`]): an owner of other namespaces cannot be judged from here and is
//! taken as alive (never two owners; its lease, if any, still ends it). The identity of the current
//! process is re-read after fork.

use std::sync::atomic::{AtomicU64, Ordering};

/// A process (and one of its threads) as recorded in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner {
    pub pid: u32,
    pub tid: u32,
    pub start_time: u64,
}

static FORK_GENERATION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread's identity and the fork generation it was read in (a child re-reads it).
    static CURRENT: std::cell::Cell<Option<(u64, Owner)>> = const { std::cell::Cell::new(None) };
}

extern "C" fn after_fork_in_child() {
    FORK_GENERATION.fetch_add(1, Ordering::SeqCst);
}

/// Registers the fork handler once; every per-process cache in this crate keys itself on
/// [`fork_generation`], so a child never reuses its parent's reader slots or identity.
pub fn install_fork_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: the handler only touches an atomic, which is async-signal-safe and fork-safe.
        unsafe { libc::pthread_atfork(None, None, Some(after_fork_in_child)) };
    });
}

/// Bumped in every child right after fork.
pub fn fork_generation() -> u64 {
    FORK_GENERATION.load(Ordering::Relaxed)
}

/// The calling thread's identity (cached per thread; syscalls only on first use and after fork).
pub fn current() -> Owner {
    install_fork_handler();
    let gen = fork_generation();
    if let Some((g, owner)) = CURRENT.with(|c| c.get()) {
        if g == gen {
            return owner;
        }
    }
    // SAFETY: getpid and gettid have no preconditions.
    let (pid, tid) = unsafe { (libc::getpid() as u32, libc::gettid() as u32) };
    let start = start_time_of(pid).unwrap_or(0) & START_MASK;
    let owner = Owner { pid, tid, start_time: start | namespace_tag() << TAG_SHIFT };
    CURRENT.with(|c| c.set(Some((gen, owner))));
    owner
}

/// Bits of a recorded start time that hold the start time itself (clock ticks: centuries at 100 Hz);
/// the namespace tag sits above them.
const START_MASK: u64 = (1 << TAG_SHIFT) - 1;
const TAG_SHIFT: u32 = 40;
/// Bits of [`namespace_tag`].
pub(crate) const TAG_BITS: u32 = 24;

/// A tag of this process's PID and time namespaces (from the inodes of `/proc/self/ns/pid` and
/// `/proc/self/ns/time`), [`TAG_BITS`] wide, never 0 once read; 0 when `/proc` cannot tell (then owners
/// are judged as if in the same namespaces). Read once per process: a process never changes PID or time
/// namespace (its children may, and re-read it after fork).
pub(crate) fn namespace_tag() -> u64 {
    static TAG: AtomicU64 = AtomicU64::new(u64::MAX);
    static READ_IN: AtomicU64 = AtomicU64::new(u64::MAX);
    let generation = fork_generation();
    let tag = TAG.load(Ordering::Relaxed);
    if tag != u64::MAX && READ_IN.load(Ordering::Acquire) == generation {
        return tag;
    }
    use std::os::unix::fs::MetadataExt;
    let inode = |ns: &str| std::fs::metadata(format!("/proc/self/ns/{ns}")).map(|m| m.ino());
    let tag = match (inode("pid"), inode("time")) {
        (Ok(pid), time) => {
            let h = xxhash_rust::xxh3::xxh3_64(&[pid.to_le_bytes(), time.unwrap_or(0).to_le_bytes()].concat());
            (h & ((1 << TAG_BITS) - 1)).max(1)
        }
        (Err(_), _) => 0,
    };
    TAG.store(tag, Ordering::Relaxed);
    READ_IN.store(generation, Ordering::Release);
    tag
}

/// Whether `tag` ([`namespace_tag`] as an owner recorded it) names other PID or time namespaces than
/// this process's, both tags known: the owner's ids and start time cannot be checked from here.
pub(crate) fn of_other_namespaces(tag: u64) -> bool {
    let ours = namespace_tag();
    tag != 0 && ours != 0 && tag != ours
}

/// The fields of one reading of `/proc/PROCESS/stat` (proc(5)) after the command name. The name (field 2)
/// may hold spaces and parentheses, so the fields resume after its last `)`; this is the one parser of
/// that file in the project.
pub struct ProcStat {
    rest: String,
}

impl ProcStat {
    /// Reads `/proc/PROCESS/stat`; `process` is a pid or `self`.
    pub fn read(process: &str) -> Option<ProcStat> {
        // Read as bytes: the name may be any bytes, not UTF-8; the fields after it are ASCII.
        let stat = std::fs::read(format!("/proc/{process}/stat")).ok()?;
        let rest = &stat[stat.iter().rposition(|&b| b == b')')? + 1..];
        Some(ProcStat { rest: String::from_utf8_lossy(rest).into_owned() })
    }

    /// Field `n` as numbered in proc(5) (3 is the state); `None` for the pid and the name (1 and 2) and
    /// past the last field.
    pub fn field(&self, n: usize) -> Option<&str> {
        self.rest.split_whitespace().nth(n.checked_sub(3)?)
    }

    /// Field `n` as a number.
    pub fn number<T: std::str::FromStr>(&self, n: usize) -> Option<T> {
        self.field(n)?.parse().ok()
    }
}

/// What /proc/PID/stat says about a process's liveness.
struct Stat {
    /// Field 3: `R`, `S`, `D`, `Z` (zombie), `X` (dead), …
    state: u8,
    /// Field 20: threads still running in the process.
    threads: u64,
    /// Field 22: start time in clock ticks since boot.
    start_time: u64,
}

fn stat_of(pid: u32) -> Option<Stat> {
    let stat = ProcStat::read(&pid.to_string())?;
    Some(Stat { state: *stat.field(3)?.as_bytes().first()?, threads: stat.number(20)?, start_time: stat.number(22)? })
}

/// Start time of a process in clock ticks since boot, or `None` when it does not exist.
pub fn start_time_of(pid: u32) -> Option<u64> {
    stat_of(pid).map(|s| s.start_time)
}

impl Owner {
    /// True unless the owning process is provably gone: no such PID, a process that has exited but
    /// is not reaped yet (a zombie: its PID exists until its parent waits for it, which may be never),
    /// or another process that got the PID (another start time). An owner recorded without a start
    /// time is treated as alive while its PID exists.
    pub fn process_alive(&self) -> bool {
        if self.foreign() {
            return true;
        }
        // SAFETY: kill with signal 0 only checks for existence and permission.
        let rc = unsafe { libc::kill(self.pid as libc::pid_t, 0) };
        if rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH) {
            return false;
        }
        let start = self.start_time & START_MASK;
        match stat_of(self.pid) {
            // A zombie leader whose other threads still run is a live process.
            Some(s) if matches!(s.state, b'Z' | b'X' | b'x') && s.threads <= 1 => false,
            Some(s) => start == 0 || s.start_time & START_MASK == start,
            None => rc == 0,
        }
    }

    /// Recorded in other PID or time namespaces than this process's (both tags known): its ids and start
    /// time cannot be checked from here.
    fn foreign(&self) -> bool {
        of_other_namespaces(self.start_time >> TAG_SHIFT)
    }

    /// Process alive and, within it, the thread still exists (ZTS hosts run many threads per process).
    pub fn thread_alive(&self) -> bool {
        if self.foreign() {
            return true;
        }
        if !self.process_alive() {
            return false;
        }
        // SAFETY: tgkill with signal 0 only checks that the thread exists in that thread group.
        let rc = unsafe { libc::tgkill(self.pid as libc::pid_t, self.tid as libc::pid_t, 0) };
        !(rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH))
    }

    /// Packs pid and tid into one word for lock-free slot claiming.
    pub fn pid_tid(&self) -> u64 {
        ((self.pid as u64) << 32) | self.tid as u64
    }

    pub fn from_words(pid_tid: u64, start_time: u64) -> Owner {
        Owner { pid: (pid_tid >> 32) as u32, tid: pid_tid as u32, start_time }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn current_process_is_alive_and_has_a_start_time() {
        let me = current();
        assert!(me.start_time > 0);
        assert!(me.process_alive());
        assert!(me.thread_alive());
    }

    /// An owner recorded in other namespaces, with a pid that names nobody here: alive, since nothing
    /// here can tell; the same record made in this process's namespaces is dead.
    #[test]
    fn an_owner_of_other_namespaces_is_taken_as_alive() {
        let me = current();
        let tag = me.start_time >> TAG_SHIFT;
        assert_ne!(tag, 0, "this process's namespaces are known");
        let gone = {
            let mut child = std::process::Command::new("true").spawn().unwrap();
            let pid = child.id();
            child.wait().unwrap();
            pid
        };
        let other = tag % ((1 << TAG_BITS) - 1) + 1;
        let foreign = Owner { pid: gone, tid: gone, start_time: 1 | other << TAG_SHIFT };
        assert!(foreign.process_alive() && foreign.thread_alive());
        let here = Owner { start_time: 1 | tag << TAG_SHIFT, ..foreign };
        assert!(!here.process_alive() && !here.thread_alive());
    }

    #[test]
    fn a_reused_pid_with_another_start_time_is_dead() {
        let mut me = current();
        me.start_time += 1;
        assert!(!me.process_alive());
    }

    #[test]
    fn a_killed_child_that_is_never_reaped_is_dead() {
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let pid = child.id();
        let owner = Owner { pid, tid: pid, start_time: start_time_of(pid).unwrap() };
        assert!(owner.process_alive());
        child.kill().unwrap();
        // Not waited for: the child stays a zombie, its PID and start time still readable.
        let zombie = (0..1000).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(1));
            stat_of(pid).is_some_and(|s| s.state == b'Z')
        });
        assert!(zombie, "the killed child never became a zombie");
        assert!(!owner.process_alive());
        assert!(!owner.thread_alive());
        child.wait().unwrap();
    }

    #[test]
    fn stat_fields_are_numbered_as_in_proc_5() {
        let stat = ProcStat::read("self").unwrap();
        // SAFETY: getpid and getppid have no preconditions.
        let (pid, ppid) = unsafe { (libc::getpid(), libc::getppid()) };
        assert_eq!(stat.number::<i32>(4), Some(ppid));
        assert_eq!(stat.number::<u64>(22), start_time_of(pid as u32));
        assert!(matches!(stat.field(3), Some("R" | "S")));
        assert_eq!(stat.field(2), None);
        assert_eq!(stat.field(500), None);
    }

    #[test]
    fn a_reaped_child_is_dead() {
        let child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        let start = start_time_of(pid).unwrap_or(0);
        let mut child = child;
        child.wait().unwrap();
        assert!(!Owner { pid, tid: pid, start_time: start }.process_alive());
    }
}
