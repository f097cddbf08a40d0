//! Segments: the shared mappings that hold partitions.
//!
//! A segment is either an anonymous shared mapping (created before fork, inherited by every child: CLI,
//! `php -S` workers) or a named POSIX shared-memory object (`/dev/shm/NAME`) that unrelated processes open
//! by name (php-fpm pools). Page 0 is the segment header; the partition directory follows it; each backend
//! is a page-aligned region after that. The magic word is written last, so an opener never sees a
//! half-formatted segment as valid; a named segment's memory is allocated before it is formatted. A
//! named segment is made and opened through [`crate::named`] (this
//! user's private object or nothing) and carries a binding word its creator chose (php-fpm: derived from
//! the master generation's secret and the pool), checked on every open. Dropping a handle unmaps; it never
//! unlinks (the `shared_memory` crate's owner-unlinks-on-drop would let the first FPM worker to exit
//! destroy its pool's segment, and it cannot make MAP_SHARED anonymous mappings, so this module uses libc
//! directly).

use crate::backend::{self, Backend, BackendKind, OpenError};
use crate::named;
use crate::region::Region;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::Ordering;
use std::sync::Arc;

pub const SEGMENT_MAGIC: u64 = u64::from_le_bytes(*b"SCSEGMNT");
pub const SEGMENT_LAYOUT_VERSION: u64 = 2;
const PAGE: u64 = 4096;
const HEADER_BYTES: u64 = PAGE;
const MAGIC: u64 = 0;
const VERSION: u64 = 8;
const TOTAL: u64 = 16;
const PARTITIONS: u64 = 24;
const BINDING: u64 = 32; // chosen by the creator of a named segment, checked by every opener (0: anonymous)
const DIRECTORY: u64 = 128;
const DIR_ENTRY: u64 = 128; // name_len, name[64], volatile off/size, pinned off/size
pub const MAX_PARTITIONS: usize = ((HEADER_BYTES - DIRECTORY) / DIR_ENTRY) as usize;
pub const MAX_NAME: usize = 64;
/// How long [`Segment::open_named_when_ready`] waits for a creator at work (allocating a large segment
/// takes about a quarter of a second per GiB).
pub const READY_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// One partition to create: a volatile and a pinned backend (0 bytes = that backend is absent).
#[derive(Clone, Debug)]
pub struct PartitionSpec {
    pub name: String,
    pub volatile_bytes: u64,
    pub pinned_bytes: u64,
}

/// The volatile and pinned backends serving one trust domain.
#[derive(Clone)]
pub struct Partition {
    pub volatile: Option<Backend>,
    pub pinned: Option<Backend>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedModel {
    /// Anonymous MAP_SHARED mapping.
    Mmap,
    /// Named POSIX shared-memory object.
    Posix,
}

impl SharedModel {
    pub fn as_str(self) -> &'static str {
        match self {
            SharedModel::Mmap => "mmap",
            SharedModel::Posix => "posix",
        }
    }
}

#[derive(Debug)]
pub enum SegmentError {
    /// An OS call failed (text from the OS).
    Os(&'static str, std::io::Error),
    /// Bytes at the start of the object are not a static_cache segment.
    BadMagic,
    /// A segment of another layout version (another release of the extension).
    BadVersion(u64),
    BadSize,
    BadName,
    TooManyPartitions,
    /// A named object that is not this user's private regular file (planted by someone else).
    Foreign {
        uid: u32,
        mode: u32,
        regular: bool,
    },
    /// A segment of this user whose binding word is not the one expected (made for another php-fpm
    /// master generation or pool).
    Binding,
}

impl std::fmt::Display for SegmentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SegmentError::Os(what, e) => write!(f, "{what}: {e}"),
            SegmentError::BadMagic => f.write_str("not a static_cache segment (bad magic)"),
            SegmentError::BadVersion(v) => write!(f, "segment layout version {v} is not supported"),
            SegmentError::BadSize => f.write_str("segment size does not match its header"),
            SegmentError::BadName => f.write_str("invalid segment or partition name"),
            SegmentError::TooManyPartitions => f.write_str("too many partitions for one segment"),
            SegmentError::Foreign { uid, mode, regular } => write!(
                f,
                "the object is {} owned by uid {uid} with mode {mode:04o}, not a private object of this user \
                 (mode 0600); it was planted by someone else and is not used",
                if *regular { "a file" } else { "not a regular file," }
            ),
            SegmentError::Binding => {
                f.write_str("the segment was not created for this php-fpm master generation and pool; it is not used")
            }
        }
    }
}

impl std::error::Error for SegmentError {}

impl From<OpenError> for SegmentError {
    fn from(e: OpenError) -> SegmentError {
        match e {
            OpenError::Magic => SegmentError::BadMagic,
            OpenError::Version(v) => SegmentError::BadVersion(v),
            OpenError::Size => SegmentError::BadSize,
        }
    }
}

/// An mmap'ed range, unmapped on drop (never unlinked).
struct Mapping {
    base: *mut u8,
    len: usize,
}

// SAFETY: the mapping is shared memory accessed only through atomics and the publication protocol.
unsafe impl Send for Mapping {}
// SAFETY: see above.
unsafe impl Sync for Mapping {}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: base/len describe a mapping this value created and nobody uses after the last handle.
        unsafe { libc::munmap(self.base.cast(), self.len) };
    }
}

/// A handle on a mapped segment. Backends obtained from it keep the mapping alive on their own.
pub struct Segment {
    mapping: Arc<Mapping>,
    model: SharedModel,
}

fn os(what: &'static str) -> SegmentError {
    SegmentError::Os(what, std::io::Error::last_os_error())
}

fn round_page(n: u64) -> u64 {
    n.div_ceil(PAGE) * PAGE
}

/// Lays out the partitions: (spec, volatile offset, pinned offset) and the total size.
fn plan(parts: &[PartitionSpec]) -> Result<(Vec<(u64, u64)>, u64), SegmentError> {
    if parts.len() > MAX_PARTITIONS {
        return Err(SegmentError::TooManyPartitions);
    }
    let mut at = HEADER_BYTES;
    let mut offsets = Vec::new();
    for p in parts {
        if p.name.is_empty() || p.name.len() > MAX_NAME {
            return Err(SegmentError::BadName);
        }
        let mut place = |bytes: u64| -> Result<u64, SegmentError> {
            if bytes == 0 {
                return Ok(0);
            }
            if bytes < backend::MIN_REGION {
                return Err(SegmentError::BadSize);
            }
            let off = at;
            // A size no address space holds (a configured size of about 2^44 MiB or more) fails as the
            // mapping of any size too large would, not by wrapping round to a small one.
            let too_large = || SegmentError::Os("mmap", std::io::Error::from_raw_os_error(libc::ENOMEM));
            at = bytes.checked_next_multiple_of(PAGE).and_then(|b| at.checked_add(b)).ok_or_else(too_large)?;
            Ok(off)
        };
        let v = place(p.volatile_bytes)?;
        let pi = place(p.pinned_bytes)?;
        offsets.push((v, pi));
    }
    Ok((offsets, at))
}

impl Segment {
    /// An anonymous shared mapping holding `parts`; children forked afterwards share it.
    pub fn create_anonymous(parts: &[PartitionSpec]) -> Result<Segment, SegmentError> {
        let (offsets, total) = plan(parts)?;
        // SAFETY: a fresh anonymous mapping; no address hint, so it cannot clobber existing memory.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(os("mmap"));
        }
        let seg =
            Segment { mapping: Arc::new(Mapping { base: base.cast(), len: total as usize }), model: SharedModel::Mmap };
        seg.format(parts, &offsets, total)?;
        Ok(seg)
    }

    /// Creates the named object `/dev/shm/NAME` (it must not exist) as this user's private object,
    /// formats it, and records `binding` for [`Segment::open_named`] to check.
    ///
    /// The object is made without a name and marked ([`named::mark`]) before it is linked to `NAME`, and
    /// its memory is allocated (`fallocate`) before it is formatted: a tmpfs allocates pages when they are
    /// first written, so memory left sparse would be taken by whoever fills `/dev/shm` (any local user
    /// can) and the pool's workers would die of SIGBUS at their next store. A concurrent creator loses at
    /// the link (`EEXIST`), before allocating anything; openers wait while the mark is held
    /// ([`Segment::open_named_when_ready`]), and remove an unformatted object whose creator died.
    pub fn create_named(name: &str, parts: &[PartitionSpec], binding: u64) -> Result<Segment, SegmentError> {
        let (offsets, total) = plan(parts)?;
        let fd = named::create_unnamed()?;
        // SAFETY: fd is the object just created; ftruncate sets its size.
        if unsafe { libc::ftruncate(fd.as_raw_fd(), total as libc::off_t) } != 0 {
            return Err(os("ftruncate"));
        }
        if !named::mark(&fd) {
            return Err(os("fcntl"));
        }
        named::link_new(&fd, name)?;
        let made = (|| {
            // SAFETY: fd is the object; fallocate allocates its pages (ENOSPC when /dev/shm has no room).
            // Nothing is written before: a write to a page the tmpfs cannot give is a SIGBUS.
            if unsafe { libc::fallocate(fd.as_raw_fd(), 0, 0, total as libc::off_t) } != 0 {
                return Err(os("fallocate"));
            }
            let seg = Segment { mapping: Arc::new(map_fd(&fd, total)?), model: SharedModel::Posix };
            seg.header().word(BINDING).store(binding, Ordering::Relaxed);
            seg.format(parts, &offsets, total)?;
            Ok(seg)
        })();
        if made.is_err() {
            // Still unformatted and marked: nobody uses it.
            let _ = named::unlink(name);
        } else {
            named::unmark(&fd);
        }
        made
    }

    /// Opens and maps an existing named segment: this user's private object (see [`crate::named`]),
    /// with valid magic, version and size, made with `binding`.
    pub fn open_named(name: &str, binding: u64) -> Result<Segment, SegmentError> {
        let (fd, st) = named::open_own(name)?;
        let size = st.st_size as u64;
        // The header is read, not mapped, until it is valid: a segment still being made has pages its
        // creator has not allocated yet, and reading such a page through a mapping is a SIGBUS when
        // /dev/shm is full (a read of the file just gives zeroes). Its creator writes the magic once every
        // page is allocated.
        let mut header = [0u8; BINDING as usize + 8];
        // SAFETY: header is a writable buffer of the length passed.
        let read = unsafe { libc::pread(fd.as_raw_fd(), header.as_mut_ptr().cast(), header.len(), 0) };
        if size < HEADER_BYTES || read != header.len() as isize {
            return Err(SegmentError::BadMagic);
        }
        let word = |off: u64| u64::from_ne_bytes(header[off as usize..off as usize + 8].try_into().unwrap_or_default());
        if word(MAGIC) != SEGMENT_MAGIC {
            return Err(SegmentError::BadMagic);
        }
        let v = word(VERSION);
        if v != SEGMENT_LAYOUT_VERSION {
            return Err(SegmentError::BadVersion(v));
        }
        if word(TOTAL) != size {
            return Err(SegmentError::BadSize);
        }
        if word(BINDING) != binding {
            return Err(SegmentError::Binding);
        }
        Ok(Segment { mapping: Arc::new(map_fd(&fd, size)?), model: SharedModel::Posix })
    }

    /// [`Segment::open_named`], waiting (up to [`READY_WAIT`]) while the segment's creator is still making
    /// it. An unformatted segment whose creator died is removed, and `ENOENT` returned: make it again.
    pub fn open_named_when_ready(name: &str, binding: u64) -> Result<Segment, SegmentError> {
        let started = std::time::Instant::now();
        loop {
            match Segment::open_named(name, binding) {
                Err(SegmentError::BadMagic) => {}
                other => return other,
            }
            // Holding the mark ourselves: no creator is at work, and no other opener is removing it.
            if let Some(fd) = named::hold_mark(name) {
                match Segment::open_named(name, binding) {
                    Err(SegmentError::BadMagic) if named::names(name, &fd) => {
                        let _ = named::unlink(name);
                        return Err(SegmentError::Os("open", std::io::Error::from_raw_os_error(libc::ENOENT)));
                    }
                    Err(SegmentError::BadMagic) => {}
                    other => return other,
                }
            }
            if started.elapsed() > READY_WAIT {
                return Err(SegmentError::BadMagic);
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Removes a named segment (processes that mapped it keep their mapping).
    pub fn unlink_named(name: &str) -> Result<(), SegmentError> {
        named::unlink(name)
    }

    fn region(&self) -> Region {
        // SAFETY: the mapping is live while `self` holds its Arc; mmap returns page-aligned memory.
        unsafe { Region::new(self.mapping.base, self.mapping.len as u64) }
    }

    fn header(&self) -> Region {
        self.region().sub(0, HEADER_BYTES)
    }

    fn format(&self, parts: &[PartitionSpec], offsets: &[(u64, u64)], total: u64) -> Result<(), SegmentError> {
        let region = self.region();
        let h = self.header();
        for (i, (p, &(v, pi))) in parts.iter().zip(offsets).enumerate() {
            let e = DIRECTORY + i as u64 * DIR_ENTRY;
            h.word(e).store(p.name.len() as u64, Ordering::Relaxed);
            h.store_bytes(e + 8, p.name.as_bytes());
            for (k, (off, bytes, kind)) in
                [(v, p.volatile_bytes, BackendKind::Volatile), (pi, p.pinned_bytes, BackendKind::Pinned)]
                    .into_iter()
                    .enumerate()
            {
                let size = if off == 0 { 0 } else { round_page(bytes) };
                h.word(e + 72 + 16 * k as u64).store(off, Ordering::Relaxed);
                h.word(e + 80 + 16 * k as u64).store(size, Ordering::Relaxed);
                if off != 0 {
                    Backend::format(region.sub(off, size), kind)?;
                }
            }
        }
        h.word(VERSION).store(SEGMENT_LAYOUT_VERSION, Ordering::Relaxed);
        h.word(TOTAL).store(total, Ordering::Relaxed);
        h.word(PARTITIONS).store(parts.len() as u64, Ordering::Relaxed);
        h.word(MAGIC).store(SEGMENT_MAGIC, Ordering::Release);
        Ok(())
    }

    /// Names of the partitions in this segment.
    pub fn partition_names(&self) -> Vec<String> {
        let h = self.header();
        let n = h.word(PARTITIONS).load(Ordering::Acquire).min(MAX_PARTITIONS as u64);
        (0..n)
            .map(|i| {
                let e = DIRECTORY + i * DIR_ENTRY;
                let len = h.word(e).load(Ordering::Acquire).min(MAX_NAME as u64);
                String::from_utf8_lossy(&h.load_bytes(e + 8, len).unwrap_or_default()).into_owned()
            })
            .collect()
    }

    /// Opens the backends of partition `name`. `None` when the segment has no such partition or one of
    /// its backends fails validation.
    pub fn partition(&self, name: &str) -> Option<Partition> {
        let i = self.partition_names().iter().position(|n| n == name)? as u64;
        let h = self.header();
        let e = DIRECTORY + i * DIR_ENTRY;
        let region = self.region();
        let mapping: Arc<dyn Send + Sync> = self.mapping.clone();
        let open = |k: u64| -> Option<Option<Backend>> {
            let off = h.word(e + 72 + 16 * k).load(Ordering::Acquire);
            let size = h.word(e + 80 + 16 * k).load(Ordering::Acquire);
            if off == 0 {
                return Some(None);
            }
            if !off.is_multiple_of(PAGE) || !region.contains(off, size) {
                return None;
            }
            Backend::attach(region.sub(off, size), mapping.clone()).ok().map(Some)
        };
        Some(Partition { volatile: open(0)?, pinned: open(1)? })
    }

    pub fn model(&self) -> SharedModel {
        self.model
    }

    /// Mapped size in bytes.
    pub fn size(&self) -> usize {
        self.mapping.len
    }

    /// Start address of this process's mapping (tests of position independence).
    pub fn base_addr(&self) -> usize {
        self.mapping.base as usize
    }
}

fn map_fd(fd: &OwnedFd, size: u64) -> Result<Mapping, SegmentError> {
    // SAFETY: fd refers to a shared-memory object of at least `size` bytes; no address hint. The mapping
    // stays valid after the descriptor is closed.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size as usize,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd.as_raw_fd(),
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return Err(os("mmap"));
    }
    Ok(Mapping { base: base.cast(), len: size as usize })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named::test_name as unique;

    fn spec(bytes: u64) -> PartitionSpec {
        PartitionSpec { name: "p".to_owned(), volatile_bytes: bytes, pinned_bytes: bytes }
    }

    /// A size whose page rounding does not fit 64 bits is refused as too large for a mapping.
    #[test]
    fn a_size_beyond_the_address_space_is_refused_as_out_of_memory() {
        for bytes in [u64::MAX, u64::MAX - PAGE, 1 << 63] {
            let err = Segment::create_anonymous(&[spec(bytes)]).err().map(|e| e.to_string());
            assert_eq!(err.as_deref(), Some("mmap: Cannot allocate memory (os error 12)"), "{bytes} bytes");
        }
    }

    #[test]
    fn a_named_segment_has_its_memory_reserved_before_anyone_can_open_it() {
        let name = unique("reserved");
        let seg = Segment::create_named(&name, &[spec(4 << 20)], 7).unwrap();
        let allocated = std::fs::metadata(format!("{}/{name}", named::SHM_DIR)).map_or(0, |m| {
            use std::os::unix::fs::MetadataExt;
            m.blocks() * 512
        });
        let reopened = Segment::open_named(&name, 7).map(|s| s.partition_names());
        let again = Segment::create_named(&name, &[spec(4 << 20)], 7);
        let still = Segment::open_named(&name, 7).is_ok();
        let _ = named::unlink(&name);
        // Every page is allocated: nobody filling /dev/shm can take them any more (no SIGBUS on a store).
        assert!(allocated >= seg.size() as u64, "{allocated} of {} bytes allocated", seg.size());
        assert_eq!(reopened.unwrap(), ["p"]);
        assert!(matches!(again, Err(SegmentError::Os(_, e)) if e.raw_os_error() == Some(libc::EEXIST)));
        assert!(still, "a failed create leaves the existing segment alone");
    }

    /// An unformatted object at `name`, as a creator leaves it before formatting.
    fn unformatted(name: &str) -> std::os::fd::OwnedFd {
        let fd = named::create_exclusive(name).unwrap();
        // SAFETY: fd is the object just created.
        assert_eq!(unsafe { libc::ftruncate(fd.as_raw_fd(), 2 * HEADER_BYTES as libc::off_t) }, 0);
        fd
    }

    #[test]
    fn an_opener_waits_for_a_creator_at_work_and_removes_what_a_dead_one_left() {
        let enoent = |r: &Result<Segment, SegmentError>| matches!(r, Err(SegmentError::Os(_, e)) if e.raw_os_error() == Some(libc::ENOENT));
        // A creator at work (it holds the mark) is waited for, here until it gives up and removes it.
        let name = unique("at-work");
        let fd = unformatted(&name);
        assert!(named::mark(&fd));
        let opener = std::thread::spawn({
            let name = name.clone();
            move || {
                let started = std::time::Instant::now();
                (Segment::open_named_when_ready(&name, 7), started.elapsed())
            }
        });
        std::thread::sleep(std::time::Duration::from_millis(100));
        named::unlink(&name).unwrap();
        drop(fd);
        let (waited, took) = opener.join().unwrap();
        assert!(enoent(&waited) && took >= std::time::Duration::from_millis(50), "{:?} after {took:?}", waited.err());
        // A dead creator's object (unformatted, unmarked) is removed: the opener makes the segment again.
        let name = unique("dead");
        drop(unformatted(&name));
        let found = Segment::open_named_when_ready(&name, 7);
        let left = named::exists(&name);
        let _ = named::unlink(&name);
        assert!(enoent(&found), "{:?}", found.err());
        assert!(!left);
    }
}
