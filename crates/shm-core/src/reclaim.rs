//! Epoch-based memory reclamation across processes and threads: reader pins and the retire list.
//!
//! Readers never lock. Before touching the index a reader *pins*: it copies the backend's mutation epoch
//! into its reader slot (one slot per thread per backend) and issues a SeqCst fence. A writer that unlinks
//! an entry tags it with the epoch current at unlink time and puts it on the retire list; the block is
//! freed only once every pinned slot shows a larger epoch, i.e. every reader that might have seen the
//! entry has unpinned. A slot whose owner thread or process has died is cleared by the reclaimer, so a
//! killed reader cannot pin memory forever (its pin is considered once it is older than
//! [`STALE_PIN_EPOCHS`] mutations, which keeps liveness syscalls off the common path).
//!
//! Retired entries form a FIFO list threaded through their own `retire_next` words, so their retire
//! epochs never decrease along it: [`RetireList::collect`] frees from the head while the head is older
//! than every pin. Every change to the list goes through the journal.

use crate::allocator::SizeClassAllocator;
use crate::entry::{self, EntryHeader};
use crate::journal::{Journal, Txn};
use crate::process::{self, Owner};
use crate::region::Region;
use std::cell::RefCell;
use std::sync::atomic::{fence, Ordering};

/// Bytes per reader slot: one cache line, so readers of different threads never share one.
pub const SLOT_BYTES: u64 = 64;
const OWNER: u64 = 0;
const START: u64 = 8;
const PIN: u64 = 16;
const DEPTH: u64 = 24;

/// A pin this many epochs old gets its owner's liveness checked when it blocks reclamation.
pub const STALE_PIN_EPOCHS: u64 = 64;

/// The reader-slot table of one backend.
#[derive(Clone, Copy)]
pub struct ReaderSlots {
    pub(crate) region: Region,
    pub(crate) slots: u64,
    pub(crate) count: u64,
    /// Word holding one past the highest slot ever claimed (bounds the reclaimer's scan).
    pub(crate) high_water: u64,
    /// Word holding the backend instance id (tells a remapped backend from the one a cache entry names).
    pub(crate) instance: u64,
}

thread_local! {
    /// (instance id, fork generation, slot index) of the slots this thread owns.
    static OWNED: RefCell<Vec<(u64, u64, u64)>> = const { RefCell::new(Vec::new()) };
}

/// A held pin of this thread; dropping it unpins. Neither `Copy` (it cannot be unpinned twice) nor
/// `Send` (the slot belongs to the thread that pinned).
pub(crate) struct Pin<'a> {
    slots: &'a ReaderSlots,
    slot: u64,
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Drop for Pin<'_> {
    fn drop(&mut self) {
        let depth = self.slots.word(self.slot, DEPTH);
        let d = depth.load(Ordering::Relaxed).saturating_sub(1);
        depth.store(d, Ordering::Relaxed);
        if d == 0 {
            self.slots.word(self.slot, PIN).store(0, Ordering::Release);
        }
    }
}

impl ReaderSlots {
    fn word(&self, slot: u64, field: u64) -> &std::sync::atomic::AtomicU64 {
        self.region.word(self.slots + slot * SLOT_BYTES + field)
    }

    fn instance_id(&self) -> u64 {
        self.region.word(self.instance).load(Ordering::Relaxed)
    }

    /// Finds or claims this thread's slot. `None` when every slot is owned by a live thread.
    fn my_slot(&self) -> Option<u64> {
        let me = process::current();
        let key = (self.instance_id(), process::fork_generation());
        let cached = OWNED.with(|o| o.borrow().iter().find(|e| (e.0, e.1) == key).map(|e| e.2));
        if let Some(slot) = cached {
            if self.word(slot, OWNER).load(Ordering::Relaxed) == me.pid_tid() {
                return Some(slot);
            }
        }
        let slot = self.claim(me)?;
        OWNED.with(|o| {
            let mut o = o.borrow_mut();
            o.retain(|e| (e.0, e.1) != key);
            o.push((key.0, key.1, slot));
        });
        Some(slot)
    }

    fn claim(&self, me: Owner) -> Option<u64> {
        for pass in 0..2 {
            for slot in 0..self.count {
                let owner = self.word(slot, OWNER);
                let cur = owner.load(Ordering::Acquire);
                if pass == 1 && cur != 0 {
                    let start = self.word(slot, START).load(Ordering::Acquire);
                    if !Owner::from_words(cur, start).thread_alive() {
                        let _ = owner.compare_exchange(cur, 0, Ordering::AcqRel, Ordering::Relaxed);
                    }
                }
                if owner.compare_exchange(0, me.pid_tid(), Ordering::AcqRel, Ordering::Relaxed).is_ok() {
                    self.word(slot, START).store(me.start_time, Ordering::Release);
                    self.word(slot, PIN).store(0, Ordering::Release);
                    self.word(slot, DEPTH).store(0, Ordering::Release);
                    self.region.word(self.high_water).fetch_max(slot + 1, Ordering::AcqRel);
                    return Some(slot);
                }
            }
        }
        None
    }

    /// Pins the current epoch for this thread (nestable). `None` when no slot is free: the caller must
    /// then read under the write lock instead.
    pub(crate) fn pin(&self, epoch: &std::sync::atomic::AtomicU64) -> Option<Pin<'_>> {
        let slot = self.my_slot()?;
        let depth = self.word(slot, DEPTH);
        let d = depth.load(Ordering::Relaxed);
        if d == 0 {
            self.word(slot, PIN).store(epoch.load(Ordering::SeqCst), Ordering::Relaxed);
            fence(Ordering::SeqCst);
        }
        depth.store(d + 1, Ordering::Relaxed);
        Some(Pin { slots: self, slot, _not_send: std::marker::PhantomData })
    }

    /// The smallest epoch any live reader has pinned (`u64::MAX` when none). Clears slots of dead
    /// owners whose pins are stale. Called by the reclaimer under the write lock.
    pub fn min_pinned(&self, current_epoch: u64) -> u64 {
        fence(Ordering::SeqCst);
        let hwm = self.region.word(self.high_water).load(Ordering::Acquire).min(self.count);
        let mut min = u64::MAX;
        for slot in 0..hwm {
            let pin = self.word(slot, PIN).load(Ordering::Acquire);
            if pin == 0 {
                continue;
            }
            if pin + STALE_PIN_EPOCHS < current_epoch {
                let owner = self.word(slot, OWNER).load(Ordering::Acquire);
                let start = self.word(slot, START).load(Ordering::Acquire);
                if owner != 0 && !Owner::from_words(owner, start).thread_alive() {
                    self.word(slot, PIN).store(0, Ordering::Release);
                    self.word(slot, DEPTH).store(0, Ordering::Release);
                    let _ = self.word(slot, OWNER).compare_exchange(owner, 0, Ordering::AcqRel, Ordering::Relaxed);
                    continue;
                }
            }
            min = min.min(pin);
        }
        min
    }

    /// Slots currently pinned (statistics and tests).
    pub fn pinned_count(&self) -> u64 {
        let hwm = self.region.word(self.high_water).load(Ordering::Acquire).min(self.count);
        (0..hwm).filter(|&s| self.word(s, PIN).load(Ordering::Acquire) != 0).count() as u64
    }
}

/// The retire list of one backend: where its head, tail and byte-count words are.
#[derive(Clone, Copy)]
pub(crate) struct RetireList {
    pub(crate) region: Region,
    pub(crate) head: u64,
    pub(crate) tail: u64,
    /// Word: heap bytes of the entries on the list.
    pub(crate) bytes: u64,
}

impl RetireList {
    fn get(&self, off: u64) -> u64 {
        self.region.word(off).load(Ordering::Acquire)
    }

    /// Bytes retired and not yet freed.
    pub(crate) fn retired_bytes(&self) -> u64 {
        self.get(self.bytes)
    }

    /// Appends entry `h` (unlinked, or unlinked by the same transaction), tagged with `epoch`.
    pub(crate) fn retire(&self, t: &mut Txn, alloc: &SizeClassAllocator, h: &EntryHeader, epoch: u64) {
        t.set(h.off + entry::RETIRE_NEXT, 0);
        t.set(h.off + entry::RETIRE_TAG, epoch);
        let tail = t.get(self.tail);
        if tail == 0 {
            t.set(self.head, h.off);
        } else {
            t.set(tail + entry::RETIRE_NEXT, h.off);
        }
        t.set(self.tail, h.off);
        t.set(self.bytes, t.get(self.bytes) + alloc.payload_capacity(h.off));
    }

    /// Frees retired entries no reader can still see (tagged before `min_pinned`), one transaction
    /// each. Write lock held.
    pub(crate) fn collect(&self, journal: &Journal, alloc: &SizeClassAllocator, min_pinned: impl FnOnce() -> u64) {
        if self.get(self.head) == 0 {
            return;
        }
        let min = min_pinned();
        loop {
            let head = self.get(self.head);
            if head == 0 || self.get(head + entry::RETIRE_TAG) >= min {
                return;
            }
            let mut t = journal.begin();
            let next = t.get(head + entry::RETIRE_NEXT);
            t.set(self.head, next);
            if next == 0 {
                t.set(self.tail, 0);
            }
            t.set(self.bytes, t.get(self.bytes).saturating_sub(alloc.payload_capacity(head)));
            alloc.free(&mut t, head);
            t.commit();
        }
    }

    /// Walks the list (write lock held): returns its entries, checking the tail and the byte count.
    pub(crate) fn verify(&self, alloc: &SizeClassAllocator) -> Result<Vec<u64>, String> {
        let mut entries = Vec::new();
        let mut bytes = 0u64;
        let mut cur = self.get(self.head);
        let mut last = 0;
        while cur != 0 {
            if entries.len() as u64 > self.region.len() / 32 {
                return Err("retire list longer than the heap (cycle?)".into());
            }
            entries.push(cur);
            bytes += alloc.payload_capacity(cur);
            last = cur;
            cur = self.region.word(cur + entry::RETIRE_NEXT).load(Ordering::Acquire);
        }
        if last != self.get(self.tail) || bytes != self.get(self.bytes) {
            return Err("retire list tail or byte count mismatch".into());
        }
        Ok(entries)
    }
}
