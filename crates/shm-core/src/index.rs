//! The key index: a table of bucket heads, each the start of a chain of entries linked through their
//! `next` word, all offsets.
//!
//! Readers walk chains without locks: every link is published with a Release store after the entry it
//! names is complete, and every offset read from shared memory is validated before use, so a reader
//! sees either the chain before a change or after it. Chains are walked with a step bound (a corrupt
//! cycle cannot trap anyone). Writers change links only under the write lock, through the journal.

use crate::entry::{self, EntryHeader};
use crate::region::Region;
use std::sync::atomic::Ordering;

/// Where the index of one backend lives.
#[derive(Clone, Copy)]
pub(crate) struct Index {
    pub(crate) region: Region,
    /// Offset of the first bucket head.
    pub(crate) buckets: u64,
    /// A power of two.
    pub(crate) bucket_count: u64,
    /// Bound on a chain walk.
    pub(crate) max_entries: u64,
}

/// One entry as [`crate::Backend::scan`] reports it: metadata only, never the value bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryInfo {
    pub key: Vec<u8>,
    pub tag: u16,
    pub value_len: u64,
    /// Heap bytes the entry occupies (header, key and value, rounded to its block).
    pub block_bytes: u64,
    /// Time left before expiry; `None` when the entry never expires.
    pub ttl_left_ms: Option<u64>,
    pub version: u64,
    /// Fetches that reached the shared index ([`crate::Backend::get`], [`crate::Backend::fetch`]);
    /// repeated reads a request serves from its own lookup cache count once.
    pub hits: u64,
}

impl Index {
    /// The bucket head word for `hash`.
    pub(crate) fn bucket_link(&self, hash: u64) -> u64 {
        self.buckets + (hash & (self.bucket_count - 1)) * 8
    }

    /// The head word of bucket number `bucket`.
    pub(crate) fn head(&self, bucket: u64) -> u64 {
        self.buckets + bucket * 8
    }

    /// Finds the entry for `key`: the link word that points at it and its validated header. Links are
    /// read with SeqCst loads (plain loads on x86), which a reader's walk relies on (see `reclaim`).
    pub(crate) fn find(&self, key: &[u8], hash: u64) -> Option<(u64, EntryHeader)> {
        self.find_with(key, hash, EntryHeader::read)
    }

    /// [`Index::find`] for the write lock holder: headers read without their check (see
    /// [`EntryHeader::read_linked`]).
    #[inline(always)]
    pub(crate) fn find_locked(&self, key: &[u8], hash: u64) -> Option<(u64, EntryHeader)> {
        self.find_with(key, hash, EntryHeader::read_linked)
    }

    #[inline(always)]
    fn find_with(
        &self,
        key: &[u8],
        hash: u64,
        read: impl Fn(&Region, u64) -> Option<EntryHeader>,
    ) -> Option<(u64, EntryHeader)> {
        let region = &self.region;
        let mut link = self.bucket_link(hash);
        let mut cur = region.word(link).load(Ordering::SeqCst);
        let mut steps = 0;
        while cur != 0 && steps <= self.max_entries {
            let h = read(region, cur)?;
            if h.hash == hash && h.key_matches(region, key) {
                return Some((link, h));
            }
            link = cur + entry::NEXT;
            cur = region.checked_word(link)?.load(Ordering::SeqCst);
            steps += 1;
        }
        None
    }

    /// False when no entry of the chain of `hash` carries that hash (so none is the entry of a key with
    /// that hash): the chain's hash words only, no header check or key comparison. True when one does,
    /// or when the chain cannot be followed (an invalid link or a cycle): the caller then looks with
    /// [`Index::find`]. The caller keeps the walk protected, as for `find`.
    pub(crate) fn may_hold(&self, hash: u64) -> bool {
        let region = &self.region;
        let mut cur = region.word(self.bucket_link(hash)).load(Ordering::SeqCst);
        let mut steps = 0;
        while cur != 0 {
            if !cur.is_multiple_of(8) || !region.contains(cur, entry::HASH + 8) || steps > self.max_entries {
                return true;
            }
            // SAFETY: both words are 8-aligned and inside the region (checked above).
            let word = |field: u64| unsafe { region.word_unchecked(cur + field) }.load(Ordering::SeqCst);
            if word(entry::HASH) == hash {
                return true;
            }
            cur = word(entry::NEXT);
            steps += 1;
        }
        false
    }

    /// The link word that points at entry `off` (whose key hashes to `hash`), or `None` when the entry is
    /// not in the index (a retired or corrupt block). Write lock held.
    pub(crate) fn link_of(&self, off: u64, hash: u64) -> Option<u64> {
        let region = &self.region;
        let mut link = self.bucket_link(hash);
        let mut steps = 0;
        loop {
            let cur = region.checked_word(link)?.load(Ordering::Acquire);
            if cur == 0 || steps > self.max_entries {
                return None;
            }
            if cur == off {
                return Some(link);
            }
            link = cur + entry::NEXT;
            steps += 1;
        }
    }

    /// Calls `f` on every entry of `bucket` with the link word that points at it. Write lock held; `f`
    /// returns true when it unlinked the entry it was given (the walk then continues from the saved
    /// successor through the same link).
    pub(crate) fn for_each_in_bucket(&self, bucket: u64, mut f: impl FnMut(u64, &EntryHeader) -> bool) {
        let region = &self.region;
        let mut link = self.head(bucket);
        let mut cur = region.word(link).load(Ordering::Acquire);
        let mut steps = 0;
        while cur != 0 && steps <= self.max_entries {
            let Some(h) = EntryHeader::read(region, cur) else { return };
            let next = region.word(cur + entry::NEXT).load(Ordering::Acquire);
            if !f(link, &h) {
                link = cur + entry::NEXT;
            }
            cur = next;
            steps += 1;
        }
    }

    /// True when bucket number `bucket` has no entry (one load).
    pub(crate) fn bucket_is_empty(&self, bucket: u64) -> bool {
        self.region.word(self.head(bucket)).load(Ordering::Relaxed) == 0
    }

    /// Live entries whose key starts with `prefix`, from bucket `cursor` on: at most about `limit`
    /// entries (whole buckets) and at most `max_buckets` buckets. Returns them and the next cursor
    /// (`None` at the end). The caller keeps the walk protected (a reader pin); links are read with
    /// SeqCst loads, as in [`Index::find`].
    pub(crate) fn scan(
        &self,
        cursor: u64,
        prefix: &[u8],
        limit: usize,
        max_buckets: u64,
        now: u64,
        block_bytes: impl Fn(u64) -> u64,
    ) -> (Vec<EntryInfo>, Option<u64>) {
        let region = &self.region;
        let mut found = Vec::new();
        let end = self.bucket_count.min(cursor.saturating_add(max_buckets));
        let mut bucket = cursor;
        while bucket < end && found.len() < limit.max(1) {
            let mut cur = region.word(self.head(bucket)).load(Ordering::SeqCst);
            let mut steps = 0;
            while cur != 0 && steps <= self.max_entries {
                let Some(h) = EntryHeader::read(region, cur) else { break };
                let key = h.key_copy(region);
                if !h.expired(now) && key.starts_with(prefix) {
                    found.push(EntryInfo {
                        key,
                        tag: h.tag,
                        value_len: h.value_len,
                        block_bytes: block_bytes(cur),
                        ttl_left_ms: (h.expires_ms != 0).then(|| h.expires_ms.saturating_sub(now)),
                        version: if h.is_int() {
                            crate::integer::int_version(h.version, h.int_value(region))
                        } else {
                            h.version
                        },
                        hits: (region.word(cur + entry::USAGE).load(Ordering::Relaxed) & !entry::FROZEN_BIT)
                            / entry::HIT_UNIT,
                    });
                }
                cur = match region.checked_word(cur + entry::NEXT) {
                    Some(next) => next.load(Ordering::SeqCst),
                    None => break,
                };
                steps += 1;
            }
            bucket += 1;
        }
        (found, (bucket < self.bucket_count).then_some(bucket))
    }

    /// Checks every chain (write lock held): each entry readable, in the bucket its hash names, linked
    /// once. Returns the indexed entries.
    pub(crate) fn verify(&self) -> Result<Vec<u64>, String> {
        let region = &self.region;
        let mut seen = std::collections::HashSet::new();
        let mut entries = Vec::new();
        for bucket in 0..self.bucket_count {
            let mut cur = region.word(self.head(bucket)).load(Ordering::Acquire);
            while cur != 0 {
                let h = EntryHeader::read(region, cur).ok_or(format!("entry {cur} unreadable"))?;
                if h.hash & (self.bucket_count - 1) != bucket || entry::key_hash(&h.key_copy(region)) != h.hash {
                    return Err(format!("entry {cur} in the wrong bucket or with a wrong hash"));
                }
                if !seen.insert(cur) {
                    return Err(format!("entry {cur} linked twice (cycle)"));
                }
                entries.push(cur);
                cur = region.word(cur + entry::NEXT).load(Ordering::Acquire);
            }
        }
        Ok(entries)
    }
}
