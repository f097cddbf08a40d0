//! A bounds-checked view of one backend's bytes, addressed by offsets relative to the region start.
//!
//! Nothing inside shared memory is an absolute pointer: every structure names others by `u64` offsets from
//! the start of its region, so the same bytes work wherever each process maps them. Every offset read from
//! shared memory is validated here before it becomes a pointer.
//!
//! Words are handed out as atomics, which is sound whatever other processes do. Byte ranges are not: a
//! slice of shared memory is only valid while nobody writes it, which the publication protocol (not the
//! type system) guarantees, so [`Region::bytes`] and [`Region::write_bytes`] are `unsafe fn`s. Small
//! fields that need no protocol go through the atomic byte copies [`Region::load_bytes`] and
//! [`Region::store_bytes`].

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// A mapped byte range of a segment. Copyable; it does not own the mapping (the `Segment` does).
#[derive(Clone, Copy, Debug)]
pub struct Region {
    base: *mut u8,
    len: u64,
    /// `len >> 3`, kept for [`Region::word`]'s check (a shift less on every word handed out).
    words: u64,
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
        Region { base, len, words: len >> 3 }
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when `[off, off+len)` lies inside the region.
    #[inline]
    pub fn contains(&self, off: u64, len: u64) -> bool {
        off.checked_add(len).is_some_and(|end| end <= self.len)
    }

    /// The shared 64-bit word at `off`. Panics on a misaligned or out-of-range offset: callers pass
    /// offsets that are either constants of the layout or validated with [`Region::contains`] first.
    #[inline(always)]
    pub fn word(&self, off: u64) -> &AtomicU64 {
        // One compare for both conditions (every journaled write and allocator step comes through
        // here): rotated right by 3, a misaligned offset has a low bit in its top three, so it exceeds
        // any `words`; an aligned one is its word index, below `words` exactly when the word ends
        // inside the region. The panic is out of line, so the check inlines as a compare and a branch.
        if off.rotate_right(3) >= self.words {
            outside(off);
        }
        // SAFETY: in range and 8-aligned (checked above, base is 8-aligned); AtomicU64 has the size and
        // alignment of u64, and every access to shared words goes through atomics.
        unsafe { &*(self.base.add(off as usize) as *const AtomicU64) }
    }

    /// The shared word at `off`, without the range check (hot loops over offsets checked once).
    ///
    /// # Safety
    /// `off` must be a multiple of 8 and `off + 8` at most the region's length.
    pub unsafe fn word_unchecked(&self, off: u64) -> &AtomicU64 {
        debug_assert!(off.is_multiple_of(8) && self.contains(off, 8));
        // SAFETY: in range and aligned (contract); see `word`.
        unsafe { &*(self.base.add(off as usize) as *const AtomicU64) }
    }

    /// The word at an offset read from shared memory: `None` instead of a panic when it is invalid.
    pub fn checked_word(&self, off: u64) -> Option<&AtomicU64> {
        (off.is_multiple_of(8) && self.contains(off, 8)).then(|| self.word(off))
    }

    /// A byte slice view of `[off, off+len)`; `None` when out of range.
    ///
    /// # Safety
    /// Nobody (in any process) may write these bytes while the slice lives: they belong to a published
    /// entry that the caller keeps from being freed (a reader pin, or the write lock), or to a block the
    /// caller owns exclusively.
    pub unsafe fn bytes(&self, off: u64, len: u64) -> Option<&[u8]> {
        if !self.contains(off, len) {
            return None;
        }
        // SAFETY: in range (checked); nobody writes the bytes while the slice lives (contract).
        Some(unsafe { std::slice::from_raw_parts(self.base.add(off as usize), len as usize) })
    }

    /// Copies `src` into the region at `off`. Panics when out of range.
    ///
    /// # Safety
    /// The destination must be owned exclusively by the caller: a block allocated to it and not yet
    /// published, so that no reader can observe the bytes while they are written.
    pub unsafe fn write_bytes(&self, off: u64, src: &[u8]) {
        assert!(self.contains(off, src.len() as u64), "write outside region");
        // SAFETY: in range (checked); nobody else reads or writes the destination (contract), and it
        // cannot overlap `src`, a process-local buffer.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.base.add(off as usize), src.len()) }
    }

    /// Copies `len` bytes from `src` to `dst` inside the region (moving an entry). Panics when out of range.
    ///
    /// # Safety
    /// Nobody may write the source while it is copied (a published entry, write lock held), and the
    /// destination must be owned exclusively by the caller (a block allocated to it and not yet
    /// published). The two ranges must not overlap.
    pub unsafe fn copy_within(&self, src: u64, dst: u64, len: u64) {
        assert!(self.contains(src, len) && self.contains(dst, len), "copy outside region");
        // SAFETY: both ranges in range (checked), disjoint and protected as the contract says.
        unsafe { std::ptr::copy_nonoverlapping(self.base.add(src as usize), self.base.add(dst as usize), len as usize) }
    }

    fn byte(&self, off: u64) -> &AtomicU8 {
        assert!(self.contains(off, 1), "byte offset {off} outside region");
        // SAFETY: in range (checked); AtomicU8 has the layout of u8 and any alignment is fine.
        unsafe { &*(self.base.add(off as usize) as *const AtomicU8) }
    }

    /// A copy of `[off, off+len)` read byte by byte through atomics (small header fields); `None` when
    /// out of range.
    pub fn load_bytes(&self, off: u64, len: u64) -> Option<Vec<u8>> {
        self.contains(off, len).then(|| (off..off + len).map(|o| self.byte(o).load(Ordering::Acquire)).collect())
    }

    /// Writes `src` at `off` byte by byte through atomics (small header fields). Panics when out of range.
    pub fn store_bytes(&self, off: u64, src: &[u8]) {
        assert!(self.contains(off, src.len() as u64), "write outside region");
        for (i, b) in src.iter().enumerate() {
            self.byte(off + i as u64).store(*b, Ordering::Release);
        }
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
        Region { base: self.ptr(off, len), len, words: len >> 3 }
    }
}

/// [`Region::word`]'s panic on an offset outside the region or misaligned.
#[cold]
#[inline(never)]
#[track_caller]
fn outside(off: u64) -> ! {
    panic!("word offset {off} outside region")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_handed_out_only_when_aligned_and_wholly_inside() {
        let mut buf = vec![0u64; 4];
        // SAFETY: a private 8-aligned buffer that outlives the region; 30 bytes, the last word partial.
        let r = unsafe { Region::new(buf.as_mut_ptr().cast(), 30) };
        r.word(0).store(1, Ordering::Relaxed);
        r.word(16).store(3, Ordering::Relaxed);
        assert_eq!(buf[..3], [1, 0, 3]);
        for off in [1, 7, 9, 24, 32, u64::MAX - 7, u64::MAX] {
            assert!(std::panic::catch_unwind(|| r.word(off).load(Ordering::Relaxed)).is_err(), "offset {off}");
        }
    }
}
