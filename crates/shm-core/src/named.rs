//! Named POSIX shared-memory objects (`/dev/shm/NAME`), made and opened so that no other local user can
//! get us to use an object of theirs.
//!
//! `/dev/shm` is world-writable (sticky), so any user can create any free name. Therefore: an object is
//! created with `O_EXCL` and mode 0600 (never adopting what is already there); opened with `O_NOFOLLOW`
//! (a planted symbolic link is refused) and `O_NONBLOCK` (a planted FIFO cannot stall the opener); and
//! used only when `fstat` on the open descriptor — not a check of the name, which another process could
//! swap in between — shows a regular file owned by this process's user with mode 0600. The sticky bit
//! keeps other users from renaming or removing an object once it is ours.

use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use crate::segment::SegmentError;

pub const SHM_DIR: &str = "/dev/shm";
/// The only mode an object of ours ever has.
pub const MODE: u32 = 0o600;
const OPEN_FLAGS: i32 = libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;

fn os(what: &'static str) -> SegmentError {
    SegmentError::Os(what, std::io::Error::last_os_error())
}

/// The path of object `name`: letters, digits, `.`, `_` and `-` only (no directory can be named).
fn path(name: &str) -> Result<CString, SegmentError> {
    let ok =
        !name.is_empty() && name.len() < 200 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if !ok || name.starts_with('.') {
        return Err(SegmentError::BadName);
    }
    CString::new(format!("{SHM_DIR}/{name}")).map_err(|_| SegmentError::BadName)
}

fn stat_fd(fd: &OwnedFd) -> Result<libc::stat, SegmentError> {
    // SAFETY: an all-zero stat is a valid out-parameter.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: fd is open; st is a valid out-pointer.
    if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } != 0 {
        return Err(os("fstat"));
    }
    Ok(st)
}

fn open(name: &str, flags: i32) -> Result<OwnedFd, SegmentError> {
    let p = path(name)?;
    // SAFETY: p is a valid C string; the mode argument is only read with O_CREAT.
    let fd = unsafe { libc::open(p.as_ptr(), flags | OPEN_FLAGS, MODE as libc::c_uint) };
    if fd < 0 {
        return Err(os("open"));
    }
    // SAFETY: fd was just returned by open and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Creates object `name`, which must not exist, with mode 0600 whatever the umask.
pub(crate) fn create_exclusive(name: &str) -> Result<OwnedFd, SegmentError> {
    let fd = open(name, libc::O_CREAT | libc::O_EXCL | libc::O_RDWR)?;
    // SAFETY: fd is the object just created.
    if unsafe { libc::fchmod(fd.as_raw_fd(), MODE as libc::mode_t) } != 0 {
        let e = os("fchmod");
        let _ = unlink(name);
        return Err(e);
    }
    Ok(fd)
}

/// Creates an object in `/dev/shm` that has no name yet (`O_TMPFILE`), mode 0600 whatever the umask: it
/// is made ready unseen, then given its name by [`link_new`].
pub(crate) fn create_unnamed() -> Result<OwnedFd, SegmentError> {
    let dir = CString::new(SHM_DIR).map_err(|_| SegmentError::BadName)?;
    // SAFETY: dir is a valid C string; the mode argument is read with O_TMPFILE.
    let fd =
        unsafe { libc::open(dir.as_ptr(), libc::O_TMPFILE | libc::O_RDWR | libc::O_CLOEXEC, MODE as libc::c_uint) };
    if fd < 0 {
        return Err(os("open"));
    }
    // SAFETY: fd was just returned by open and is owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    // SAFETY: fd is the object just created.
    if unsafe { libc::fchmod(fd.as_raw_fd(), MODE as libc::mode_t) } != 0 {
        return Err(os("fchmod"));
    }
    Ok(fd)
}

/// Gives the unnamed object `fd` (from [`create_unnamed`]) the name `name`, which must be free: an
/// existing object is never replaced (`EEXIST`), so whoever opens `name` finds the object whole.
pub(crate) fn link_new(fd: &OwnedFd, name: &str) -> Result<(), SegmentError> {
    let p = path(name)?;
    // linkat(fd, "", AT_EMPTY_PATH) needs CAP_DAC_READ_SEARCH; the descriptor's /proc link does not.
    let own = CString::new(format!("/proc/self/fd/{}", fd.as_raw_fd())).map_err(|_| SegmentError::BadName)?;
    // SAFETY: both are valid C strings; linkat only reads them.
    if unsafe { libc::linkat(libc::AT_FDCWD, own.as_ptr(), libc::AT_FDCWD, p.as_ptr(), libc::AT_SYMLINK_FOLLOW) } != 0 {
        return Err(os("link"));
    }
    Ok(())
}

/// Opens the existing object `name` for reading and writing, if it is this user's private object.
pub(crate) fn open_own(name: &str) -> Result<(OwnedFd, libc::stat), SegmentError> {
    let fd = open(name, libc::O_RDWR)?;
    let st = stat_fd(&fd)?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let regular = st.st_mode & libc::S_IFMT == libc::S_IFREG;
    if !regular || st.st_uid != me || st.st_mode & 0o7777 != MODE {
        return Err(SegmentError::Foreign { uid: st.st_uid, mode: st.st_mode & 0o7777, regular });
    }
    Ok((fd, st))
}

/// [`open_own`]'s descriptor alone.
pub fn open_private(name: &str) -> Result<OwnedFd, SegmentError> {
    open_own(name).map(|(fd, _)| fd)
}

/// Opens the existing regular object `name` read-only, whoever owns it (for locking it, never for
/// reading what it holds).
/// Returns the descriptor and the owner's uid.
pub(crate) fn open_for_lock(name: &str) -> Result<(OwnedFd, u32), SegmentError> {
    let fd = open(name, libc::O_RDONLY)?;
    let st = stat_fd(&fd)?;
    if st.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Err(SegmentError::Foreign { uid: st.st_uid, mode: st.st_mode & 0o7777, regular: false });
    }
    Ok((fd, st.st_uid))
}

/// Whether `name` still names the object open as `fd` (it may have been removed, or removed and made
/// again, since `fd` was opened).
pub(crate) fn names(name: &str, fd: &OwnedFd) -> bool {
    let (Some(st), Ok(held)) = (lstat(name), stat_fd(fd)) else { return false };
    st.st_dev == held.st_dev && st.st_ino == held.st_ino
}

/// Claims `name`: makes it a symbolic link whose text is `record` (created atomically with its text, and
/// readable by every user, which a 0600 file of another pool's user is not). Returns `None` if this call
/// made it, else the record of the link already there. A link is never followed: its text is data.
/// Anything else at `name` (a file or directory planted by someone else) is an error.
pub fn claim(name: &str, record: &str) -> Result<Option<String>, SegmentError> {
    let p = path(name)?;
    let text = CString::new(record).map_err(|_| SegmentError::BadName)?;
    // A claim removed between our `symlink` and `readlink` (its owner's pool ended) is claimed again; a
    // few rounds, as each needs the owner's whole lifetime to pass in between.
    for _ in 0..CLAIM_ROUNDS {
        // SAFETY: both are valid C strings.
        if unsafe { libc::symlink(text.as_ptr(), p.as_ptr()) } == 0 {
            return Ok(None);
        }
        let e = os("symlink");
        if !matches!(&e, SegmentError::Os(_, io) if io.raw_os_error() == Some(libc::EEXIST)) {
            return Err(e);
        }
        match std::fs::read_link(format!("{SHM_DIR}/{name}")) {
            Ok(text) => return Ok(Some(text.to_string_lossy().into_owned())),
            Err(_) => {
                if let Some(st) = lstat(name) {
                    return Err(SegmentError::Foreign {
                        uid: st.st_uid,
                        mode: st.st_mode & 0o7777,
                        regular: st.st_mode & libc::S_IFMT == libc::S_IFREG,
                    });
                }
            }
        }
    }
    Err(SegmentError::Os("readlink", std::io::Error::from_raw_os_error(libc::ENOENT)))
}

/// How many times [`claim`] tries again when the claim it found vanished before it could read it.
const CLAIM_ROUNDS: usize = 4;

/// The record of claim `name` (see [`claim`]), if it is a symbolic link.
pub fn claim_record(name: &str) -> Option<String> {
    path(name).ok()?;
    std::fs::read_link(format!("{SHM_DIR}/{name}")).ok().map(|t| t.to_string_lossy().into_owned())
}

/// Longest record [`read_record`] returns.
const RECORD_MAX: u64 = 256;

/// Writes `record` into this user's private object `name` (a lock's note of who made it).
pub fn write_record(name: &str, record: &str) -> Result<(), SegmentError> {
    use std::io::Write;
    let (fd, _) = open_own(name)?;
    std::fs::File::from(fd).write_all(record.as_bytes()).map_err(|e| SegmentError::Os("write", e))
}

/// The record [`write_record`] left in this user's private object `name` (empty if none yet).
pub fn read_record(name: &str) -> Option<String> {
    use std::io::Read;
    let (fd, _) = open_own(name).ok()?;
    let mut text = String::new();
    std::fs::File::from(fd).take(RECORD_MAX).read_to_string(&mut text).ok()?;
    Some(text)
}

/// The open-file-description lock on the first byte of an object: a lock of its own, independent of the
/// `flock` a presence lock takes on the same object.
fn first_byte(kind: libc::c_short) -> libc::flock {
    // SAFETY: an all-zero flock is a valid value; the fields that matter are set below.
    let mut lock: libc::flock = unsafe { std::mem::zeroed() };
    lock.l_type = kind;
    lock.l_whence = libc::SEEK_SET as libc::c_short;
    lock.l_len = 1;
    lock
}

/// Marks this user's private object `name` as having a holder (one at most): an exclusive lock on its
/// first byte, held until the returned descriptor is closed (or its process exits). `None` if another
/// process holds the mark, or the object is not this user's.
pub fn hold_mark(name: &str) -> Option<OwnedFd> {
    let (fd, _) = open_own(name).ok()?;
    mark(&fd).then_some(fd)
}

/// Takes the mark of the object open as `fd` (see [`hold_mark`]); false if someone else holds it. It is
/// released by [`unmark`] or when the open file description goes (a mapping of it keeps it).
pub(crate) fn mark(fd: &OwnedFd) -> bool {
    let lock = first_byte(libc::F_WRLCK as libc::c_short);
    // SAFETY: fd is open for writing; F_OFD_SETLK only reads `lock`.
    unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_OFD_SETLK, &lock) == 0 }
}

/// Releases the mark [`mark`] took through `fd`.
pub(crate) fn unmark(fd: &OwnedFd) {
    let lock = first_byte(libc::F_UNLCK as libc::c_short);
    // SAFETY: fd is open; F_OFD_SETLK only reads `lock`.
    unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_OFD_SETLK, &lock) };
}

/// Whether some process holds the mark ([`hold_mark`]) of this user's private object `name`.
pub fn is_marked(name: &str) -> bool {
    let Ok((fd, _)) = open_own(name) else { return false };
    let mut lock = first_byte(libc::F_WRLCK as libc::c_short);
    // SAFETY: fd is open; F_OFD_GETLK writes the conflicting lock, if any, into `lock`.
    unsafe {
        libc::fcntl(fd.as_raw_fd(), libc::F_OFD_GETLK, &mut lock) == 0 && lock.l_type != libc::F_UNLCK as libc::c_short
    }
}

/// Whether object `name` exists (of any kind, anyone's).
pub fn exists(name: &str) -> bool {
    lstat(name).is_some()
}

/// The owner's uid of object `name` (of any kind: a planted link is removed as readily as a file).
pub fn owner(name: &str) -> Option<u32> {
    lstat(name).map(|st| st.st_uid)
}

fn lstat(name: &str) -> Option<libc::stat> {
    let p = path(name).ok()?;
    // SAFETY: an all-zero stat is a valid out-parameter.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: p is a valid C string; st is a valid out-pointer; lstat does not follow a link.
    (unsafe { libc::lstat(p.as_ptr(), &mut st) } == 0).then_some(st)
}

/// Removes object `name` (processes that mapped it keep their mapping).
pub fn unlink(name: &str) -> Result<(), SegmentError> {
    let p = path(name)?;
    // SAFETY: p is a valid C string.
    if unsafe { libc::unlink(p.as_ptr()) } != 0 {
        return Err(os("unlink"));
    }
    Ok(())
}

/// Names of the objects in `/dev/shm` that start with `prefix`.
pub fn list(prefix: &str) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(SHM_DIR) else { return Vec::new() };
    dir.flatten().filter_map(|e| e.file_name().into_string().ok()).filter(|n| n.starts_with(prefix)).collect()
}

/// A name no other test (of this or another process) uses.
#[cfg(test)]
pub(crate) fn test_name(what: &str) -> String {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("static_cache-test-{what}-{}-{n}", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    use super::test_name as unique;

    fn shm_path(name: &str) -> String {
        format!("{SHM_DIR}/{name}")
    }

    #[test]
    fn a_claim_is_made_once_and_read_back_by_later_claimants() {
        let name = unique("claim");
        let first = claim(&name, "owner:alpha");
        let second = claim(&name, "other:beta");
        let read = claim_record(&name);
        let _ = unlink(&name);
        let planted = unique("claim-file");
        std::fs::write(shm_path(&planted), b"planted").unwrap();
        let on_file = claim(&planted, "owner:alpha");
        let _ = unlink(&planted);
        assert_eq!(first.ok(), Some(None));
        assert_eq!(second.ok(), Some(Some("owner:alpha".to_owned())));
        assert_eq!(read.as_deref(), Some("owner:alpha"));
        assert!(matches!(on_file, Err(SegmentError::Foreign { regular: true, .. })), "{:?}", on_file);
    }

    #[test]
    fn a_record_is_read_back_only_from_a_private_object_of_this_user() {
        let name = unique("record");
        let fd = create_exclusive(&name).unwrap();
        let empty = read_record(&name);
        let written = write_record(&name, "master 12 34 pid:[5]");
        let read = read_record(&name);
        std::fs::set_permissions(shm_path(&name), std::fs::Permissions::from_mode(0o644)).unwrap();
        let widened = read_record(&name);
        let _ = unlink(&name);
        drop(fd);
        assert_eq!(empty.as_deref(), Some(""));
        assert!(written.is_ok());
        assert_eq!(read.as_deref(), Some("master 12 34 pid:[5]"));
        assert_eq!(widened, None);
    }

    #[test]
    fn a_mark_has_one_holder_and_is_independent_of_flock() {
        let name = unique("mark");
        let fd = create_exclusive(&name).unwrap();
        // SAFETY: fd is open; an exclusive flock, the strongest a presence lock takes.
        assert_eq!(unsafe { libc::flock(fd.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) }, 0);
        let unmarked = is_marked(&name);
        let mark = hold_mark(&name);
        let marked = is_marked(&name);
        let second = hold_mark(&name);
        drop(mark);
        let released = is_marked(&name);
        let _ = unlink(&name);
        assert!(!unmarked);
        assert!(marked, "held beside an exclusive flock");
        assert!(second.is_none(), "one holder at most");
        assert!(!released);
    }

    #[test]
    fn created_objects_are_private_whatever_the_umask() {
        let name = unique("mode");
        // SAFETY: umask has no preconditions; a permissive umask must not widen the mode.
        let old = unsafe { libc::umask(0) };
        let fd = create_exclusive(&name);
        // SAFETY: restoring the previous umask.
        unsafe { libc::umask(old) };
        let mode = std::fs::metadata(shm_path(&name)).map(|m| m.permissions().mode() & 0o7777);
        let again = create_exclusive(&name);
        let reopened = open_own(&name).is_ok();
        let _ = unlink(&name);
        assert!(fd.is_ok());
        assert_eq!(mode.unwrap(), 0o600);
        assert!(matches!(again, Err(SegmentError::Os(_, e)) if e.raw_os_error() == Some(libc::EEXIST)));
        assert!(reopened);
    }

    #[test]
    fn an_object_with_a_wider_mode_is_refused() {
        let name = unique("wide");
        std::fs::write(shm_path(&name), b"planted").unwrap();
        std::fs::set_permissions(shm_path(&name), std::fs::Permissions::from_mode(0o666)).unwrap();
        let r = open_own(&name);
        let _ = unlink(&name);
        assert!(matches!(r, Err(SegmentError::Foreign { mode: 0o666, regular: true, .. })), "{:?}", r.err());
    }

    #[test]
    fn an_object_of_another_user_is_refused() {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("an_object_of_another_user_is_refused needs root (to give the object away)");
            return;
        }
        let name = unique("foreign");
        std::fs::write(shm_path(&name), b"planted").unwrap();
        std::fs::set_permissions(shm_path(&name), std::fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::chown(shm_path(&name), Some(65534), Some(65534)).unwrap();
        let r = open_own(&name);
        let _ = unlink(&name);
        assert!(matches!(r, Err(SegmentError::Foreign { uid: 65534, .. })), "{:?}", r.err());
    }

    #[test]
    fn a_symbolic_link_or_a_fifo_is_refused_without_waiting() {
        let link = unique("link");
        let target = unique("target");
        let target_fd = create_exclusive(&target).unwrap();
        std::os::unix::fs::symlink(shm_path(&target), shm_path(&link)).unwrap();
        let via_link = open_own(&link);
        let lock_via_link = open_for_lock(&link);
        let fifo = unique("fifo");
        let c = CString::new(shm_path(&fifo)).unwrap();
        // SAFETY: c is a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let started = std::time::Instant::now();
        let via_fifo = open_own(&fifo);
        let lock_via_fifo = open_for_lock(&fifo);
        for n in [&link, &target, &fifo] {
            let _ = unlink(n);
        }
        drop(target_fd);
        let eloop = |r: &Result<_, SegmentError>| matches!(r, Err(SegmentError::Os(_, e)) if e.raw_os_error() == Some(libc::ELOOP));
        assert!(eloop(&via_link.map(|_| ())));
        assert!(eloop(&lock_via_link.map(|_| ())));
        assert!(matches!(via_fifo, Err(SegmentError::Foreign { regular: false, .. })));
        assert!(matches!(lock_via_fifo, Err(SegmentError::Foreign { regular: false, .. })));
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }

    #[test]
    fn names_tells_a_removed_or_replaced_object_from_the_open_one() {
        let name = unique("names");
        let fd = create_exclusive(&name).unwrap();
        assert!(names(&name, &fd));
        unlink(&name).unwrap();
        assert!(!names(&name, &fd));
        let other = create_exclusive(&name).unwrap();
        assert!(!names(&name, &fd));
        assert!(names(&name, &other));
        let _ = unlink(&name);
    }

    #[test]
    fn names_that_could_leave_the_directory_are_rejected() {
        for bad in ["", "a/b", "..", ".hidden", "x\0y"] {
            assert!(matches!(create_exclusive(bad), Err(SegmentError::BadName)), "{bad:?}");
        }
    }
}
