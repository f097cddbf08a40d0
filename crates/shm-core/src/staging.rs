//! Large values are copied outside the write lock: a store of `STAGE_BYTES` or more allocates its block
//! under the lock (marking it *staged* and recording it in a slot of the staging table, with its owner),
//! releases the lock, copies key and value into the block, then takes the lock again only to seal the
//! header and publish. Other writers wait for a short allocation and a short publish, never for a copy.
//!
//! A staged block is invisible to readers (not linked), and eviction and compaction leave it alone. A
//! process that dies while copying leaves a staged block owned by a dead process: the staging table
//! (a few slots in the backend header, each `block, owner pid<<32|tid, owner start time`) is how it is
//! found again and freed, when memory runs short or the table fills up.

use crate::backend::{Backend, StoreError, STAGING, STALL_COPY_US};
use crate::entry::{self, EntryHeader, NewEntry};
use crate::journal::Txn;
use crate::process::{self, Owner};
use std::sync::atomic::Ordering;

/// Stores whose entry takes at least this many bytes are copied outside the write lock.
pub(crate) const STAGE_BYTES: u64 = 16 << 10;
/// Stores that may be copying at once (a store finding every slot taken copies under the lock).
pub(crate) const STAGING_SLOTS: u64 = 32;
const SLOT: u64 = 24;
const BLOCK: u64 = 0;
const OWNER: u64 = 8;
const START: u64 = 16;
/// Bytes of the staging table in the backend header.
pub(crate) const STAGING_BYTES: u64 = STAGING_SLOTS * SLOT;

/// A block allocated to this store, being filled outside the lock.
pub(crate) struct Staged {
    pub(crate) block: u64,
    slot: u64,
}

impl Backend {
    fn staging_word(&self, slot: u64, field: u64) -> &std::sync::atomic::AtomicU64 {
        self.word(STAGING + slot * SLOT + field)
    }

    /// Records `block` (allocated by `t`) as staged by the calling thread, in the same transaction.
    /// `None` (nothing recorded) when every staging slot is taken by a live store.
    pub(crate) fn stage(&self, t: &mut Txn, block: u64) -> Option<Staged> {
        let free = |s: &u64| self.staging_word(*s, BLOCK).load(Ordering::Acquire) == 0;
        let slot = (0..STAGING_SLOTS).find(free).or_else(|| {
            self.release_dead_staged();
            (0..STAGING_SLOTS).find(free)
        })?;
        let me = process::current();
        t.set(STAGING + slot * SLOT + OWNER, me.pid_tid());
        t.set(STAGING + slot * SLOT + START, me.start_time);
        t.set(STAGING + slot * SLOT + BLOCK, block);
        self.0.alloc.set_staged(t, block, true);
        Some(Staged { block, slot })
    }

    /// Fills the staged block with the entry (no lock held; nobody else touches the block).
    pub(crate) fn fill(&self, staged: &Staged, e: &NewEntry) {
        // SAFETY: the block is allocated to this store and marked staged: it is linked nowhere, and
        // neither readers nor writers (eviction and compaction skip staged blocks) touch it.
        unsafe { entry::write(&self.0.region, staged.block, e) };
        if self.word(STALL_COPY_US).load(Ordering::Relaxed) != 0 {
            let stall = self.word(STALL_COPY_US).swap(0, Ordering::AcqRel);
            std::thread::sleep(std::time::Duration::from_micros(stall));
        }
    }

    /// Turns the staged block back into an ordinary allocated one and frees its staging slot, inside
    /// the publishing transaction `t` (write lock held). Then seals its header: the link to the rest of
    /// the chain, expiry and version (the header check covers the last two).
    pub(crate) fn unstage(&self, t: &mut Txn, staged: &Staged, next: u64, expires_ms: u64, version: u64) {
        self.0.alloc.set_staged(t, staged.block, false);
        t.set(STAGING + staged.slot * SLOT + BLOCK, 0);
        entry::seal(&self.0.region, staged.block, next, expires_ms, version);
    }

    /// Gives a staged block back (the store failed after all; write lock held).
    pub(crate) fn drop_staged(&self, staged: Staged) {
        self.free_staged(staged.slot, staged.block);
    }

    fn free_staged(&self, slot: u64, block: u64) {
        let mut t = self.0.journal.begin();
        self.0.alloc.set_staged(&mut t, block, false);
        t.set(STAGING + slot * SLOT + BLOCK, 0);
        self.0.alloc.free(&mut t, block);
        t.commit();
    }

    /// Frees the blocks of stores whose process or thread died while copying (write lock held).
    /// Returns how many. Costs a liveness check per occupied slot: only when memory or slots run short.
    pub(crate) fn release_dead_staged(&self) -> u64 {
        let mut released = 0;
        for slot in 0..STAGING_SLOTS {
            let block = self.staging_word(slot, BLOCK).load(Ordering::Acquire);
            if block == 0 {
                continue;
            }
            let owner = Owner::from_words(
                self.staging_word(slot, OWNER).load(Ordering::Acquire),
                self.staging_word(slot, START).load(Ordering::Acquire),
            );
            if !owner.thread_alive() {
                self.free_staged(slot, block);
                released += 1;
            }
        }
        released
    }

    /// The staged blocks (verify: they are owned, though no entry links them).
    pub(crate) fn staged_blocks(&self) -> Vec<u64> {
        (0..STAGING_SLOTS)
            .map(|slot| self.staging_word(slot, BLOCK).load(Ordering::Acquire))
            .filter(|&b| b != 0)
            .collect()
    }

    /// Stores a large entry: allocation under the lock, the copy outside it, then a short publish. Out of
    /// line: `store`'s usual small entry does not set up this path's frame.
    #[inline(never)]
    pub(crate) fn store_staged(&self, e: NewEntry, ttl: u64, need: u64) -> Result<(), StoreError> {
        let staged = {
            let _g = self.lock()?;
            let (mut t, block, _) = self.allocate(need)?;
            match self.stage(&mut t, block) {
                Some(staged) => {
                    t.commit();
                    staged
                }
                None => {
                    // Every slot busy: copy under the lock like a small store.
                    let found = self.find(e.key, e.hash);
                    return self.publish_new(t, block, e, ttl, found);
                }
            }
        };
        self.fill(&staged, &e);
        let _g = self.lock()?;
        self.publish_staged(staged, &e, ttl)
    }

    /// The second half of [`Backend::store_staged`] (write lock held).
    fn publish_staged(&self, staged: Staged, e: &NewEntry, ttl: u64) -> Result<(), StoreError> {
        let found = self.find(e.key, e.hash);
        if found.is_none() && !self.table_slot_for_new_key() {
            self.drop_staged(staged);
            return Err(StoreError::TableFull);
        }
        let mut t = self.0.journal.begin();
        let (link, next) = self.link_for(&found, e.hash);
        let (expires_ms, version) = self.stamp(ttl);
        self.unstage(&mut t, &staged, next, expires_ms, version);
        self.finish_publish(t, link, staged.block, found.map(|(_, old): (u64, EntryHeader)| old));
        Ok(())
    }
}
