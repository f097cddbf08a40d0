//! Making room in a volatile backend: purging expired entries and evicting live ones in approximate
//! LRU order (CLOCK: an entry read since the hand last passed it gets a second chance). Write lock held
//! throughout; every removal is one journaled unlink.

use crate::backend::{Backend, CLOCK_HAND, EVICTIONS, EXPIRATIONS};
use crate::entry;
use std::sync::atomic::Ordering;

impl Backend {
    /// Unlinks every expired entry. Returns how many.
    pub(crate) fn purge_expired(&self, now: u64) -> u64 {
        let index = &self.0.index;
        let mut purged = 0;
        for bucket in 0..index.bucket_count {
            if index.bucket_is_empty(bucket) {
                continue;
            }
            index.for_each_in_bucket(bucket, |link, h| {
                if h.expired(now) {
                    self.unlink(link, h);
                    purged += 1;
                    true
                } else {
                    false
                }
            });
        }
        if purged > 0 {
            self.word(EXPIRATIONS).fetch_add(purged, Ordering::Relaxed);
            self.bump_epoch();
            self.reclaim();
        }
        purged
    }

    /// Evicts one entry. Returns false when the backend is empty.
    pub(crate) fn evict_one(&self) -> bool {
        let index = &self.0.index;
        let count = index.bucket_count;
        let start = self.word(CLOCK_HAND).load(Ordering::Relaxed) % count;
        // Two sweeps: the first may only clear reference bits.
        for step in 0..2 * count {
            let bucket = (start + step) % count;
            let mut evicted = false;
            index.for_each_in_bucket(bucket, |link, h| {
                if evicted {
                    return false;
                }
                let usage = self.word(h.off + entry::USAGE);
                if usage.load(Ordering::Relaxed) & entry::REFERENCED_BIT != 0 {
                    usage.fetch_and(!entry::REFERENCED_BIT, Ordering::Relaxed);
                    return false;
                }
                self.unlink(link, h);
                evicted = true;
                true
            });
            if evicted {
                self.word(CLOCK_HAND).store(bucket, Ordering::Relaxed);
                self.word(EVICTIONS).fetch_add(1, Ordering::Relaxed);
                self.bump_epoch();
                self.reclaim();
                return true;
            }
        }
        false
    }
}
