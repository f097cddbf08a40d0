//! php-fpm: one partition per pool (spec §14.3), in a named POSIX segment per pool.
//!
//! FPM runs MINIT before it reads the pool configuration, so segments are made in the workers: the
//! first worker of a pool creates `static_cache.<master pid>.<generation>.<partition>` after FPM has
//! switched it to the pool's user, with mode 0600, and labels it with its pool; the pool's other
//! workers open it; a worker of another user cannot. The segment is position-independent, so each
//! worker maps it wherever it likes. Workers never remove segments. The master removes its own at exit
//! (an exit handler registered at MINIT, which finds nothing to remove in any other process because
//! the names carry the master's pid), and each master start removes the segments of dead masters and
//! of its own previous generation (a reload re-executes the master with the same pid).

use std::sync::OnceLock;

use shm_core::{PartitionSpec, Segment, SegmentError};

const PREFIX: &str = "static_cache.";
const SHM_DIR: &str = "/dev/shm";
const TITLE_PREFIX: &[u8] = b"php-fpm: pool ";

/// Random token of this master start (inherited by its workers through fork).
static GENERATION: OnceLock<u64> = OnceLock::new();

fn generation() -> u64 {
    *GENERATION.get_or_init(|| {
        let mut v = 0u64;
        // SAFETY: getrandom writes at most 8 bytes into `v`.
        unsafe { libc::getrandom((&raw mut v).cast(), 8, 0) };
        v
    })
}

fn prefix_of(master: u32) -> String {
    format!("{PREFIX}{master}.{:016x}.", generation())
}

/// MINIT in the FPM master: clean up after dead masters and this pid's previous generation, and
/// arrange for this master's segments to be removed when it exits.
pub fn master_startup() {
    generation();
    remove_stale_segments();
    extern "C" fn remove_own_segments() {
        // SAFETY: getpid has no preconditions.
        let me = unsafe { libc::getpid() } as u32;
        remove_matching(|name| name.starts_with(&prefix_of(me)));
    }
    // SAFETY: registering a plain extern "C" function; when the module is unloaded in a worker, glibc
    // runs it at dlclose, where it finds no segment named after the worker's pid.
    unsafe { libc::atexit(remove_own_segments) };
}

fn remove_matching(pred: impl Fn(&str) -> bool) {
    let Ok(dir) = std::fs::read_dir(SHM_DIR) else { return };
    for entry in dir.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(PREFIX) && pred(&name) {
            let _ = Segment::unlink_named(&name);
        }
    }
}

/// Segments whose master is gone, or that belong to an earlier generation of this very pid.
fn remove_stale_segments() {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() } as u32;
    let current = prefix_of(me);
    remove_matching(|name| {
        let Some(pid) = name[PREFIX.len()..].split('.').next().and_then(|p| p.parse::<u32>().ok()) else {
            return false;
        };
        if pid == me {
            return !name.starts_with(&current);
        }
        // SAFETY: signal 0 only checks whether the process exists.
        let rc = unsafe { libc::kill(pid as libc::pid_t, 0) };
        rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
    });
}

/// The pool this worker serves, from its process title `php-fpm: pool NAME`.
pub fn pool_name() -> Option<String> {
    let cmdline = std::fs::read("/proc/self/cmdline").ok()?;
    let title = cmdline.split(|&b| b == 0).next()?;
    let name = title.strip_prefix(TITLE_PREFIX)?;
    let name = String::from_utf8_lossy(name).trim().to_owned();
    (!name.is_empty()).then_some(name)
}

/// Opens this worker's partition segment, creating it if this is the pool's first worker.
/// The error is the `failure_reason` of §13.2.
pub fn attach(partition: &str, pool: &str, volatile_bytes: u64, pinned_bytes: u64) -> Result<Segment, String> {
    // SAFETY: getppid has no preconditions; a worker's parent is its master.
    let master = unsafe { libc::getppid() } as u32;
    let name = format!("{}{partition}", prefix_of(master));
    let spec = PartitionSpec { name: partition.to_owned(), volatile_bytes, pinned_bytes };
    let os_error = |e: SegmentError| format!(r#"Unable to attach the shared memory of partition "{partition}": {e}"#);
    let segment = match Segment::create_named(&name, std::slice::from_ref(&spec), 0o600, pool) {
        Ok(s) => s,
        Err(SegmentError::Os(_, e)) if e.raw_os_error() == Some(libc::EEXIST) => {
            open_formatted(&name).map_err(os_error)?
        }
        Err(e) => return Err(os_error(e)),
    };
    let owner = segment.owner();
    if owner != pool {
        return Err(format!(r#"Partition "{partition}" belongs to FPM pool "{owner}""#));
    }
    Ok(segment)
}

/// Opens a segment another worker is creating right now: it is valid once its creator has written
/// the magic (well under a second).
fn open_formatted(name: &str) -> Result<Segment, SegmentError> {
    let mut last = None;
    for _ in 0..200 {
        match Segment::open_named(name) {
            Err(SegmentError::BadMagic) => last = Some(SegmentError::BadMagic),
            other => return other,
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    Err(last.unwrap_or(SegmentError::BadMagic))
}
