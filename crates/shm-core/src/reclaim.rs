//! Epoch-based memory reclamation across processes and threads.
//!
//! Readers never lock. Before touching the index a reader *pins*: it copies the backend's mutation epoch
//! into its reader slot (one slot per thread per backend) and issues a SeqCst fence. A writer that unlinks
//! an entry tags it with the epoch current at unlink time and puts it on the retire list; the block is
//! freed only once every pinned slot shows a larger epoch, i.e. every reader that might have seen the
//! entry has unpinned. A slot whose owner thread or process has died is cleared by the reclaimer, so a
//! killed reader cannot pin memory forever (its pin is considered once it is older than
//! [`STALE_PIN_EPOCHS`] mutations, which keeps liveness syscalls off the common path).

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

/// Where a pin lives; unpin with [`ReaderSlots::unpin`].
#[derive(Clone, Copy, Debug)]
pub struct Pin {
    slot: u64,
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
    pub fn pin(&self, epoch: &std::sync::atomic::AtomicU64) -> Option<Pin> {
        let slot = self.my_slot()?;
        let depth = self.word(slot, DEPTH);
        let d = depth.load(Ordering::Relaxed);
        if d == 0 {
            self.word(slot, PIN).store(epoch.load(Ordering::SeqCst), Ordering::Relaxed);
            fence(Ordering::SeqCst);
        }
        depth.store(d + 1, Ordering::Relaxed);
        Some(Pin { slot })
    }

    pub fn unpin(&self, pin: Pin) {
        let depth = self.word(pin.slot, DEPTH);
        let d = depth.load(Ordering::Relaxed).saturating_sub(1);
        depth.store(d, Ordering::Relaxed);
        if d == 0 {
            self.word(pin.slot, PIN).store(0, Ordering::Release);
        }
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
