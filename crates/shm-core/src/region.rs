//! A bounds-checked view of one backend's bytes, addressed by offsets relative to the region start.
//!
//! Nothing inside shared memory is an absolute pointer: every structure names others by `u64` offsets from
//! the start of its region, so the same bytes work wherever each process maps them. Every offset read from
//! shared memory is validated here before it becomes a pointer.

use std::sync::atomic::AtomicU64;

/// A mapped byte range of a segment. Copyable; it does not own the mapping (the `Segment` does).
#[derive(Clone, Copy, Debug)]
pub struct Region {
    base: *mut u8,
    len: u64,
}

// SAFETY: a Region only hands out atomics (for shared words) and raw byte copies whose callers uphold the
// publication protocol of the index; the mapping is process-shared memory meant to be used from any thread.
unsafe impl Send for Region {}
// SAFETY: see above.
unsafe impl Sync for Region {}

impl Region {
    /// # Safety
    /// `base..base+len` must be a live mapping for as long as the Region (and copies of it) are used, and
    /// `base` must be 8-byte aligned.
    pub unsafe fn new(base: *mut u8, len: u64) -> Region {
        Region { base, len }
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn base_addr(&self) -> usize {
        self.base as usize
    }

    /// True when `[off, off+len)` lies inside the region.
    pub fn contains(&self, off: u64, len: u64) -> bool {
        off.checked_add(len).is_some_and(|end| end <= self.len)
    }

    /// The shared 64-bit word at `off`. Panics on a misaligned or out-of-range offset: callers pass
    /// offsets that are either constants of the layout or validated with [`Region::contains`] first.
    pub fn word(&self, off: u64) -> &AtomicU64 {
        assert!(off.is_multiple_of(8) && self.contains(off, 8), "word offset {off} outside region");
        // SAFETY: in range and 8-aligned (checked above, base is 8-aligned); AtomicU64 has the size and
        // alignment of u64, and every access to shared words goes through atomics.
        unsafe { &*(self.base.add(off as usize) as *const AtomicU64) }
    }

    /// The word at an offset read from shared memory: `None` instead of a panic when it is invalid.
    pub fn checked_word(&self, off: u64) -> Option<&AtomicU64> {
        (off.is_multiple_of(8) && self.contains(off, 8)).then(|| self.word(off))
    }

    /// A byte slice view. The caller must only read bytes that are immutable while the slice lives
    /// (published entries, protected by a read pin) or exclusively owned (a freshly allocated block).
    pub fn bytes(&self, off: u64, len: u64) -> Option<&[u8]> {
        if !self.contains(off, len) {
            return None;
        }
        // SAFETY: in range (checked); the publication protocol guarantees nobody writes these bytes
        // while a reader holds them (blocks are written before being published and freed only after
        // every reader that could see them has unpinned).
        Some(unsafe { std::slice::from_raw_parts(self.base.add(off as usize), len as usize) })
    }

    /// Copy `src` into the region at `off`. Only for blocks the caller owns exclusively (allocated, not
    /// yet published).
    pub fn write_bytes(&self, off: u64, src: &[u8]) {
        assert!(self.contains(off, src.len() as u64), "write outside region");
        // SAFETY: in range (checked); the destination block is allocated to this writer and unpublished,
        // so no reader can observe it, and it cannot overlap `src` (a process-local buffer).
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.base.add(off as usize), src.len()) }
    }

    /// A raw pointer for structures that need one (the process-shared mutex).
    pub fn ptr(&self, off: u64, len: u64) -> *mut u8 {
        assert!(self.contains(off, len));
        // SAFETY: in range (checked).
        unsafe { self.base.add(off as usize) }
    }

    /// A sub-region starting at `off`.
    pub fn sub(&self, off: u64, len: u64) -> Region {
        assert!(self.contains(off, len) && off.is_multiple_of(8));
        Region { base: self.ptr(off, len), len }
    }
}
