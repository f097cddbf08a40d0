//! The entry record: one stored key/value in one allocated block.
//!
//! ```text
//! +0  next        chain link (offset of the next entry in the bucket, 0 = end); the only mutable link
//! +8  hash        xxh3-64 of the key
//! +16 meta        key_len (u32) | tag (u16) << 32
//! +24 value_len
//! +32 expires_ms  monotonic deadline, 0 = never
//! +40 version     mutation epoch at store time (unique per stored version)
//! +48 usage       bit 0: CLOCK referenced bit (recency for eviction); bits 1..62: hits by shared
//!                 lookups; bit 63: frozen (an integer entry being moved; see `integer`)
//! +56 retire_next retire-list link (written only after unlinking)
//! +64 retire_tag  epoch at unlink time
//! +72 check       a mix of bytes 8..48 (detects a corrupted header)
//! +80 key bytes, then the value at the next multiple of 8
//! ```
//! Everything but `next`, `usage` and the retire fields is written before the entry is published and
//! never changes afterwards, so a pinned reader can read it without locks. The one exception is the value
//! word of an integer entry (`TAG_INT`, 8 value bytes), rewritten in place by one atomic operation
//! (readers load it atomically; see `integer`).

use crate::region::Region;
use std::sync::atomic::Ordering;

pub const NEXT: u64 = 0;
pub const HASH: u64 = 8;
pub const META: u64 = 16;
pub const VALUE_LEN: u64 = 24;
pub const EXPIRES: u64 = 32;
pub const VERSION: u64 = 40;
pub const USAGE: u64 = 48;
/// The CLOCK bit of the usage word; the hit count sits above it.
pub const REFERENCED_BIT: u64 = 1;
pub const HIT_UNIT: u64 = 2;
/// The top bit of the usage word: an integer entry about to be copied (no in-place update may start).
pub const FROZEN_BIT: u64 = 1 << 63;
pub const RETIRE_NEXT: u64 = 56;
pub const RETIRE_TAG: u64 = 64;
pub const CHECK: u64 = 72;
pub const KEY: u64 = 80;

/// Tag of an integer entry: 8 bytes of little-endian i64. Counters and in-place overwrites work on these
/// only.
pub const TAG_INT: u16 = 1;

pub fn value_start(key_len: u64) -> u64 {
    (KEY + key_len + 7) & !7
}

/// Payload bytes an entry for this key and value needs.
pub fn entry_bytes(key_len: u64, value_len: u64) -> Option<u64> {
    value_start(key_len).checked_add(value_len)
}

pub fn key_hash(key: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(key)
}

/// The header fields of a published entry, read and validated.
#[derive(Clone, Copy, Debug)]
pub struct EntryHeader {
    pub off: u64,
    pub hash: u64,
    pub key_len: u64,
    pub tag: u16,
    pub value_len: u64,
    pub expires_ms: u64,
    pub version: u64,
}

impl EntryHeader {
    /// Reads the header at `off`, checking that the offset, the lengths and the checksum make sense.
    pub fn read(region: &Region, off: u64) -> Option<EntryHeader> {
        Self::read_checked(region, off, true)
    }

    /// [`EntryHeader::read`] of an entry known to be linked, whose header check is skipped: reached by
    /// the write lock holder through the index (under the lock, with the journal recovered, every linked
    /// entry is one a writer completed before publishing it), or held by an update hazard validated
    /// against its link. Lock-free walks check because they may read freed memory. Offsets and lengths
    /// are still checked.
    pub fn read_linked(region: &Region, off: u64) -> Option<EntryHeader> {
        Self::read_checked(region, off, false)
    }

    #[inline]
    fn read_checked(region: &Region, off: u64, check: bool) -> Option<EntryHeader> {
        if !off.is_multiple_of(8) || !region.contains(off, KEY) {
            return None;
        }
        // SAFETY: `off` is 8-aligned and the whole fixed header lies inside the region (checked above).
        let w = |f: u64| unsafe { region.word_unchecked(off + f) }.load(Ordering::Acquire);
        let (hash, meta, value_len, expires_ms, version) = (w(HASH), w(META), w(VALUE_LEN), w(EXPIRES), w(VERSION));
        if check && checksum(hash, meta, value_len, expires_ms, version) != w(CHECK) {
            return None;
        }
        let key_len = meta & 0xffff_ffff;
        let total = entry_bytes(key_len, value_len)?;
        if !region.contains(off, total) {
            return None;
        }
        Some(EntryHeader { off, hash, key_len, tag: (meta >> 32) as u16, value_len, expires_ms, version })
    }

    /// True when the stored key equals `key`. Reads the key through atomic word loads, so it is sound on
    /// any entry, even one being freed and reused concurrently (the answer is then meaningless, which
    /// the caller's protection rules out or detects).
    pub fn key_matches(&self, region: &Region, key: &[u8]) -> bool {
        if self.key_len != key.len() as u64 {
            return false;
        }
        // `read` checked that the entry, key area padded to 8 bytes included, lies inside the region.
        // SAFETY: every word loaded below is 8-aligned and inside `[off + KEY, value_start)`.
        let word = |at: u64| unsafe { region.word_unchecked(self.off + KEY + at) }.load(Ordering::Relaxed);
        let mut words = key.chunks_exact(8);
        let mut at = 0;
        for chunk in &mut words {
            if word(at) != u64::from_ne_bytes(chunk.try_into().expect("8 bytes")) {
                return false;
            }
            at += 8;
        }
        let tail = words.remainder();
        if tail.is_empty() {
            return true;
        }
        // The last word of the key area ends at the value start (keys are padded to 8 bytes). The tail
        // is assembled in a register: copied into a stack word and loaded back whole, it stalled store
        // forwarding on every lookup of a short key.
        let want = tail.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b));
        let mask = u64::MAX >> (64 - 8 * tail.len() as u32);
        (u64::from_le(word(at)) & mask) == want
    }

    /// A copy of the key read through atomic word loads (sound on any entry, see
    /// [`EntryHeader::key_matches`]).
    pub fn key_copy(&self, region: &Region) -> Vec<u8> {
        let mut key = Vec::with_capacity(self.key_len.next_multiple_of(8) as usize);
        for at in (0..self.key_len).step_by(8) {
            key.extend_from_slice(&region.word(self.off + KEY + at).load(Ordering::Relaxed).to_ne_bytes());
        }
        key.truncate(self.key_len as usize);
        key
    }

    /// The value bytes.
    ///
    /// # Safety
    /// The entry must stay allocated while the slice lives: the caller holds a reader pin taken before
    /// it found the entry, or the write lock.
    pub unsafe fn value<'r>(&self, region: &'r Region) -> &'r [u8] {
        // SAFETY: values never change after publication and the block stays allocated (contract).
        unsafe { region.bytes(self.off + value_start(self.key_len), self.value_len) }.unwrap_or_default()
    }

    /// True for an integer entry (its value is one word, updated in place).
    pub fn is_int(&self) -> bool {
        self.tag == TAG_INT && self.value_len == 8
    }

    /// Offset of the value's first word.
    pub fn value_off(&self) -> u64 {
        self.off + value_start(self.key_len)
    }

    /// The integer of an integer entry, loaded atomically (sound while its block stays allocated, and
    /// never torn by an in-place update).
    pub fn int_value(&self, region: &Region) -> i64 {
        i64::from_le_bytes(region.word(self.value_off()).load(Ordering::Acquire).to_ne_bytes())
    }

    pub fn expired(&self, now_ms: u64) -> bool {
        self.expires_ms != 0 && now_ms >= self.expires_ms
    }
}

/// The header check: a multiply-xorshift mix of the immutable header words (cheap enough for every
/// chain step of a lookup; it catches stray writes and garbage offsets, not adversaries).
fn checksum(hash: u64, meta: u64, value_len: u64, expires: u64, version: u64) -> u64 {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for w in [hash, meta, value_len, expires, version] {
        x = (x ^ w).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^= x >> 31;
    }
    x
}

/// What a new entry holds.
pub struct NewEntry<'a> {
    pub key: &'a [u8],
    /// `key_hash(key)`, computed by the caller before taking the lock.
    pub hash: u64,
    pub tag: u16,
    pub value: &'a [u8],
    pub expires_ms: u64,
    pub version: u64,
    pub next: u64,
}

/// Fills a freshly allocated block.
///
/// # Safety
/// The block at `off` must be allocated to the caller and unpublished (no reader can see it), and large
/// enough for the entry.
#[inline(always)]
pub unsafe fn write(region: &Region, off: u64, e: &NewEntry) {
    let hash = e.hash;
    let meta = e.key.len() as u64 | (e.tag as u64) << 32;
    let value_len = e.value.len() as u64;
    // One range check for the whole fixed header instead of one per word.
    assert!(off.is_multiple_of(8) && region.contains(off, KEY), "entry header outside the region");
    // SAFETY: every field below is an 8-aligned word of the header, inside the region (checked above).
    let w = |f: u64, v: u64| unsafe { region.word_unchecked(off + f) }.store(v, Ordering::Relaxed);
    w(NEXT, e.next);
    w(HASH, hash);
    w(META, meta);
    w(VALUE_LEN, value_len);
    w(EXPIRES, e.expires_ms);
    w(VERSION, e.version);
    w(USAGE, 0);
    w(RETIRE_NEXT, 0);
    w(RETIRE_TAG, 0);
    w(CHECK, checksum(hash, meta, value_len, e.expires_ms, e.version));
    // SAFETY: the block is the caller's own and unpublished (contract).
    unsafe {
        write_padded(region, off + KEY, e.key);
        write_padded(region, off + value_start(e.key.len() as u64), e.value);
    }
}

/// Bytes up to which [`write_padded`] stores words itself rather than calling `memcpy`.
const SHORT_COPY: usize = 32;

/// Copies `bytes` to the 8-aligned offset `at`; a short slice goes word by word, its last word padded
/// with zeros (a call to `memcpy` costs more than the few stores of a short key or scalar value).
///
/// # Safety
/// As for [`write`]: `[at, at + len rounded up to 8)` lies in a block allocated to the caller and
/// unpublished. A block's payload is a multiple of 8 bytes, so the padded last word stays inside it.
#[inline]
unsafe fn write_padded(region: &Region, at: u64, bytes: &[u8]) {
    let padded = (bytes.len() as u64).next_multiple_of(8);
    if bytes.len() > SHORT_COPY || !at.is_multiple_of(8) || !region.contains(at, padded) {
        // SAFETY: the caller's own unpublished block (contract); `write_bytes` checks the range.
        return unsafe { region.write_bytes(at, bytes) };
    }
    // SAFETY: every word stored below is 8-aligned and inside `[at, at + padded)`, checked above.
    let word = |to: u64| unsafe { region.word_unchecked(to) };
    let mut words = bytes.chunks_exact(8);
    let mut to = at;
    for chunk in &mut words {
        word(to).store(u64::from_ne_bytes(chunk.try_into().expect("8 bytes")), Ordering::Relaxed);
        to += 8;
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        // The tail's first byte lands at the lowest address (as `key_matches` reads it back).
        let w = tail.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b));
        word(to).store(w.to_le(), Ordering::Relaxed);
    }
}

/// Completes the header of an entry filled by [`write`] without them (a staged block, published now):
/// its chain link, expiry, version and the header check.
pub fn seal(region: &Region, off: u64, next: u64, expires_ms: u64, version: u64) {
    let r = |f: u64| region.word(off + f).load(Ordering::Relaxed);
    let w = |f: u64, v: u64| region.word(off + f).store(v, Ordering::Relaxed);
    w(NEXT, next);
    w(EXPIRES, expires_ms);
    w(VERSION, version);
    w(CHECK, checksum(r(HASH), r(META), r(VALUE_LEN), expires_ms, version));
}
