//! Memory reclamation across processes and threads: reader protection and the retire list.
//!
//! Readers never lock. A lookup has two phases, and each is protected differently:
//! * **The walk** (bucket chain, key comparison) runs under an epoch *pin*: the reader swaps the
//!   backend's *reclamation epoch* into its reader slot (one per thread per backend; a SeqCst
//!   read-modify-write, no separate fence) and reads the chain's links with SeqCst loads. A writer that
//!   unlinks an entry tags it with the reclamation epoch and puts it on the retire list; it is freed
//!   only once every pin is newer (above the tag). Every read of the walk is an atomic load, so a walk
//!   over memory freed under it reads garbage but never misbehaves — which is what lets the reclaimer
//!   *revoke* a pin that is [`STALE_PIN_EPOCHS`] old (a stalled or killed reader): the reader then finds
//!   its pin revoked when it ends the walk and starts again.
//! * **Holding** the entry found (an `EntryRef`, whose bytes the caller reads as a plain slice) is
//!   protected by a *hazard*: before ending the walk the reader publishes the entry's offset in one of
//!   its slot's hazard words; if the pin then turns out not revoked (one load), the entry could not
//!   have been freed and cannot be from now on. So a stalled reader holds back only the entries it holds
//!   (at most `HAZARDS` per thread and backend), never the memory retired after it.
//! * An in-place integer update of the entry that heads its bucket needs no walk: it publishes the
//!   hazard first, then checks the bucket still names the entry (hazard-pointer validation,
//!   [`ReaderSlots::hold_linked_for_update`]).
//!
//! A thread without a slot (more threads than slots) reads without one: it copies the value out and
//! checks the backend's free generation (bumped before every batch of frees) did not move meanwhile, a
//! sequence lock; it never takes the write lock. A walk that holds nothing once it ends (a presence test,
//! the probe before a delete) reads that way first even with a slot, sparing the pin's two locked
//! read-modify-writes; only after a few disturbed attempts does it walk under a pin. Hazards of a dead
//! thread are cleared once they hold an entry back for long (a liveness check only then).
//!
//! **The rule that makes a pin protect.** A pin above an entry's tag must mean the walk cannot reach
//! the entry, so every value of the reclamation epoch above a tag is written after that entry's unlink
//! is published: only the write lock holder moves the epoch (a load and a Release store,
//! `Backend::bump_epoch`), and only with no transaction open, after the unlinks it published; the tag
//! is read inside the unlinking transaction, under the same hold of the lock. A reader whose SeqCst
//! load of the epoch returns a value above the tag acquires the store that wrote it (or, through the
//! lock's hand-over, an earlier holder's), so the unlink happens before the walk's link loads, which see
//! it or a later value. A walk can still reach the entry from a predecessor unlinked before it (whose
//! `next` still names it), but only if the walk reached that predecessor, so (by the same rule) with a
//! pin at or below the predecessor's tag, which is at or below the entry's: tags never decrease, as the
//! epoch does not. A pin at or below the tag holds the entry back. The mutation epoch
//! (`Backend::epoch`, what process-local caches validate against) cannot serve: in-place integer
//! updates move it without the lock, so it can pass an entry's tag between the tag's read and the
//! unlink's publication, and a reader that pinned that value could walk into the still-linked entry,
//! have it freed under it by the next pass although its pin was never revoked, and hold whatever
//! reused the block.
//!
//! Retired entries form a FIFO list threaded through their own `retire_next` words, so their retire
//! epochs never decrease along it: [`RetireList::collect`] frees from the head while entries are older
//! than every pin, skipping those a hazard holds, a run of consecutive entries per transaction. Every
//! change to the list goes through the journal.

use crate::allocator::{RunFrees, SizeClassAllocator};
use crate::clock::{Clock, MonotonicClock};
use crate::entry::{self, EntryHeader};
use crate::journal::{Journal, Txn};
use crate::process::{self, Owner};
use crate::region::Region;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{fence, AtomicU64, Ordering};

/// Bytes per reader slot: one cache line, so readers of different threads never share one.
pub const SLOT_BYTES: u64 = 64;
const OWNER: u64 = 0;
const START: u64 = 8;
const PIN: u64 = 16;
const HAZARD: u64 = 24;
/// An owner word while the slot of a dead owner is being cleared (no process has pid `u32::MAX`).
const CLEARING: u64 = u64::MAX;
/// Hazard words per slot: entries one thread may hold at once in one backend (more are copied out).
const HAZARDS: u64 = (SLOT_BYTES - HAZARD) / 8;
/// A pin word's value once the reclaimer has revoked it.
const REVOKED: u64 = u64::MAX;
/// Set in a hazard word (entry offsets are multiples of 8) while its thread rewrites the entry's
/// integer in place rather than reading it (see `integer`).
const UPDATING: u64 = 1;

/// Journal words one free may write at most (coalescing with both neighbours), with room to spare; a
/// run of frees in one transaction also writes two list words and a quick-list head.
const FREE_JOURNAL_WORDS: u64 = 32;
/// A pin this many epochs old is revoked when it holds reclamation back.
pub const STALE_PIN_EPOCHS: u64 = 64;
/// How long a thread that found no free slot reads without one before it tries to claim one again.
const CLAIM_RETRY_MS: u64 = 1000;

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
    /// Word bumped before every batch of frees: the sequence a slot-less reader checks.
    pub(crate) free_generation: u64,
}

/// This thread's slot in one backend (or the lack of one).
struct OwnedSlot {
    instance: u64,
    fork_generation: u64,
    /// `None`: no slot was free; retry claiming after `retry_at_ms`.
    slot: Option<u64>,
    retry_at_ms: u64,
    /// The owner word the slot carries while it is this thread's.
    pid_tid: u64,
}

/// The slot this thread used last, the per-call fast path of [`ReaderSlots::my_slot`] (counters and
/// scalar stores call it once each, tens of nanoseconds in all): plain words, no borrow flag, no search.
#[derive(Clone, Copy)]
struct LastSlot {
    instance: u64,
    fork_generation: u64,
    slot: u64,
    pid_tid: u64,
}

/// Matches no backend: no process reaches fork generation `u64::MAX`.
const NO_LAST_SLOT: LastSlot = LastSlot { instance: 0, fork_generation: u64::MAX, slot: 0, pid_tid: 0 };

thread_local! {
    static LAST: Cell<LastSlot> = const { Cell::new(NO_LAST_SLOT) };
    static OWNED: RefCell<Vec<OwnedSlot>> = const { RefCell::new(Vec::new()) };
    /// `(instance, slot, entry)` of the update hazards the last `dead_updates` call of this thread saw.
    static UPDATES_SEEN: RefCell<Vec<(u64, u64, u64)>> = const { RefCell::new(Vec::new()) };
}

/// A walk of the index in progress under this thread's pin. End it with [`Walk::end`] or
/// [`Walk::hold`]; dropping it ends it. Neither `Copy` nor `Send`.
pub(crate) struct Walk<'a> {
    slots: &'a ReaderSlots,
    slot: u64,
    pin: u64,
    _not_send: std::marker::PhantomData<*const ()>,
}

/// An entry this thread holds through a hazard word; dropping it lets the entry go. Neither `Copy` (it
/// cannot be released twice) nor `Send` (the slot belongs to the thread).
pub(crate) struct Hold<'a> {
    slots: &'a ReaderSlots,
    slot: u64,
    index: u64,
    _not_send: std::marker::PhantomData<*const ()>,
}

/// Why [`Walk::hold`] did not give a hold.
pub(crate) enum NoHold<'a> {
    /// The pin was revoked during the walk: what it read may be garbage; start again.
    Revoked,
    /// Every hazard word of this thread is in use: the walk is still on; copy what is needed, then end it.
    Full(Walk<'a>),
}

impl<'a> Walk<'a> {
    /// Ends the walk. True when the pin held throughout: everything the walk read was valid.
    pub(crate) fn end(self) -> bool {
        let this = std::mem::ManuallyDrop::new(self);
        this.slots.word(this.slot, PIN).swap(0, Ordering::SeqCst) == this.pin
    }

    /// Ends the walk keeping the entry at `off` allocated for as long as the returned hold lives.
    pub(crate) fn hold(self, off: u64) -> Result<Hold<'a>, NoHold<'a>> {
        self.hold_as(off)
    }

    /// [`Walk::hold`] for a thread about to rewrite the entry's integer in place: the hazard says so,
    /// which is what [`ReaderSlots::updating`] looks for.
    pub(crate) fn hold_for_update(self, off: u64) -> Result<Hold<'a>, NoHold<'a>> {
        self.hold_as(off | UPDATING)
    }

    fn hold_as(self, hazard: u64) -> Result<Hold<'a>, NoHold<'a>> {
        let (slots, slot) = (self.slots, self.slot);
        // Only this thread writes its slot's hazard words: a zero one is free.
        let Some(index) = (0..HAZARDS).find(|&i| slots.word(slot, HAZARD + 8 * i).load(Ordering::Relaxed) == 0) else {
            return Err(NoHold::Full(self));
        };
        slots.word(slot, HAZARD + 8 * index).store(hazard, Ordering::SeqCst);
        let hold = Hold { slots, slot, index, _not_send: std::marker::PhantomData };
        // A load, not the swap of `end`: the hazard store and this load are SeqCst, and so are the
        // reclaimer's revoking CAS and its later load of the hazard words (`protection`). If this load
        // sees the pin unrevoked, it precedes any revoking CAS in the SeqCst order, so the hazard store
        // does too and the reclaimer sees the hazard; a reclaimer that reads the pin itself keeps
        // everything retired since it. Then dropping the walk clears the pin (a Release store: a
        // reclaimer that reads the cleared pin synchronizes with it and sees the hazard stored before).
        let pinned = slots.word(slot, PIN).load(Ordering::SeqCst) == self.pin;
        drop(self);
        if pinned {
            Ok(hold)
        } else {
            Err(NoHold::Revoked)
        }
    }
}

impl Drop for Walk<'_> {
    fn drop(&mut self) {
        self.slots.word(self.slot, PIN).store(0, Ordering::Release);
    }
}

impl Drop for Hold<'_> {
    fn drop(&mut self) {
        self.slots.word(self.slot, HAZARD + 8 * self.index).store(0, Ordering::Release);
    }
}

impl ReaderSlots {
    fn word(&self, slot: u64, field: u64) -> &AtomicU64 {
        self.region.word(self.slots + slot * SLOT_BYTES + field)
    }

    fn instance_id(&self) -> u64 {
        self.region.word(self.instance).load(Ordering::Relaxed)
    }

    /// Finds or claims this thread's slot. `None` when every slot is owned by a live thread (then the
    /// thread reads without a slot and retries claiming only after `CLAIM_RETRY_MS`).
    /// The owner word still naming this thread is what keeps a slot this thread's: a slot cleared as
    /// dead (`clear_if_dead`, a thread id reused) or claimed by another thread is claimed again.
    #[inline(always)]
    fn my_slot(&self) -> Option<u64> {
        let key = (self.instance_id(), process::fork_generation());
        let last = LAST.get();
        if (last.instance, last.fork_generation) == key
            && self.word(last.slot, OWNER).load(Ordering::Relaxed) == last.pid_tid
        {
            return Some(last.slot);
        }
        self.my_slot_slow(key)
    }

    /// [`ReaderSlots::my_slot`] when this backend is not the one the thread used last (a request that
    /// uses both backends comes here on each switch, at the cost `my_slot` had before the cache).
    #[cold]
    #[inline(never)]
    fn my_slot_slow(&self, key: (u64, u64)) -> Option<u64> {
        let cached = OWNED.with_borrow(|o| {
            o.iter().find(|e| (e.instance, e.fork_generation) == key).map(|e| (e.slot, e.retry_at_ms, e.pid_tid))
        });
        match cached {
            Some((Some(slot), _, pid_tid)) if self.word(slot, OWNER).load(Ordering::Relaxed) == pid_tid => {
                LAST.set(LastSlot { instance: key.0, fork_generation: key.1, slot, pid_tid });
                return Some(slot);
            }
            Some((None, retry_at, _)) if MonotonicClock.now_ms() < retry_at => return None,
            _ => {}
        }
        let me = process::current();
        let slot = self.claim(me);
        let retry_at_ms = MonotonicClock.now_ms() + CLAIM_RETRY_MS;
        OWNED.with_borrow_mut(|o| {
            o.retain(|e| (e.instance, e.fork_generation) != key);
            o.push(OwnedSlot { instance: key.0, fork_generation: key.1, slot, retry_at_ms, pid_tid: me.pid_tid() });
        });
        if let Some(slot) = slot {
            LAST.set(LastSlot { instance: key.0, fork_generation: key.1, slot, pid_tid: me.pid_tid() });
        }
        slot
    }

    fn claim(&self, me: Owner) -> Option<u64> {
        for pass in 0..2 {
            for slot in 0..self.count {
                let owner = self.word(slot, OWNER);
                if pass == 1 {
                    self.free_if_dead(slot, owner.load(Ordering::Acquire));
                }
                if owner.compare_exchange(0, me.pid_tid(), Ordering::AcqRel, Ordering::Relaxed).is_ok() {
                    self.word(slot, START).store(me.start_time, Ordering::Release);
                    for field in (PIN..SLOT_BYTES).step_by(8) {
                        self.word(slot, field).store(0, Ordering::Release);
                    }
                    self.region.word(self.high_water).fetch_max(slot + 1, Ordering::AcqRel);
                    return Some(slot);
                }
            }
        }
        None
    }

    /// Starts a walk: pins the current value of `reclaim_epoch`, the backend's reclamation epoch (never
    /// the mutation epoch: see the module doc), for this thread. `None` when the thread has no slot (it
    /// then reads with [`ReaderSlots::free_generation`] instead).
    pub(crate) fn begin_walk(&self, reclaim_epoch: &AtomicU64) -> Option<Walk<'_>> {
        let slot = self.my_slot()?;
        // Acquires the lock holder's Release store of this value, and with it every unlink published
        // before it: the walk cannot reach an entry tagged below the pin (see the module doc).
        let pin = reclaim_epoch.load(Ordering::SeqCst);
        // A SeqCst swap (one locked instruction on x86, where a store and a SeqCst fence cost two
        // barriers). The walk reads every link with a SeqCst load, after this swap in the SeqCst order;
        // a writer unlinks, then the reclaimer's SeqCst fence in `protection` precedes its SeqCst load of
        // the pin (store-buffering: one side sees the other). If the fence precedes a link load, that
        // load sees the unlink; otherwise the swap precedes the reclaimer's load of the pin, which then
        // sees this pin or a later value of the word. The swap also orders a hazard stored before it
        // (a thread holding an entry while it walks again) before the new pin, for a reclaimer that
        // reads the new pin. The word held 0 (walks end by clearing it).
        self.word(slot, PIN).swap(pin, Ordering::SeqCst);
        Some(Walk { slots: self, slot, pin, _not_send: std::marker::PhantomData })
    }

    /// Holds the entry that the index link word `link` points at, for a thread about to rewrite its
    /// integer in place, without a pin: classic hazard-pointer validation. The thread publishes an update
    /// hazard for the entry the link names, then reads the link again. If it still names the entry, the
    /// entry was in the index after the hazard was visible, so no reclaimer can free it until the hold
    /// ends. `None` when the thread has no slot or no free hazard word, the link is empty, or it moved
    /// on meanwhile (the caller then walks under a pin).
    ///
    /// Why the second read is enough: both reads and the hazard store are SeqCst, and a reclaimer frees
    /// an entry only after unlinking it (the unlink happens before its SeqCst fence in `protection`),
    /// then reads the hazard words with SeqCst loads. If the second read precedes that fence in the
    /// SeqCst order, the hazard store does too and the reclaimer sees it; if it follows the fence, it
    /// sees the unlink (or a later value) and so not this entry — unless the block was freed, reused and
    /// linked at the same place again, which makes it a live entry linked after the hazard, held the
    /// same way. The entry's bytes are read only after the second read, which acquires the link store
    /// that published them.
    #[inline]
    pub(crate) fn hold_linked_for_update(&self, link: &AtomicU64) -> Option<(u64, Hold<'_>)> {
        let off = link.load(Ordering::SeqCst);
        if off == 0 || !off.is_multiple_of(8) {
            return None;
        }
        let slot = self.my_slot()?;
        // Only this thread writes its slot's hazard words: a zero one is free.
        let index = (0..HAZARDS).find(|&i| self.word(slot, HAZARD + 8 * i).load(Ordering::Relaxed) == 0)?;
        self.word(slot, HAZARD + 8 * index).store(off | UPDATING, Ordering::SeqCst);
        let hold = Hold { slots: self, slot, index, _not_send: std::marker::PhantomData };
        (link.load(Ordering::SeqCst) == off).then_some((off, hold))
    }

    /// The free generation (a slot-less reader reads it before and after copying a value out: equal
    /// values mean nothing was freed in between).
    pub(crate) fn free_generation(&self) -> u64 {
        self.region.word(self.free_generation).load(Ordering::SeqCst)
    }

    /// Called by the reclaimer before it frees anything: moves the free generation on, ordered before
    /// every write to the freed memory.
    fn bump_free_generation(&self) {
        self.region.word(self.free_generation).fetch_add(1, Ordering::SeqCst);
        fence(Ordering::Release);
    }

    /// True when some thread is rewriting the integer of entry `off` in place (an update hazard). The
    /// caller has marked the entry frozen first, so no thread starts such an update after this answers
    /// false.
    pub(crate) fn updating(&self, off: u64) -> bool {
        fence(Ordering::SeqCst);
        let hwm = self.region.word(self.high_water).load(Ordering::Acquire).min(self.count);
        (0..hwm)
            .any(|slot| (0..HAZARDS).any(|i| self.word(slot, HAZARD + 8 * i).load(Ordering::SeqCst) == off | UPDATING))
    }

    /// Slots whose thread died holding an update hazard (it may have stopped between rewriting an integer
    /// and moving the epoch on). Liveness is checked only for an update hazard seen by the previous call
    /// of this thread too (they normally last nanoseconds). The caller repairs, then clears the slots
    /// with [`ReaderSlots::clear_if_dead`].
    pub(crate) fn dead_updates(&self) -> Vec<u64> {
        let hwm = self.region.word(self.high_water).load(Ordering::Acquire).min(self.count);
        let mut now = Vec::new();
        for slot in 0..hwm {
            for i in 0..HAZARDS {
                let held = self.word(slot, HAZARD + 8 * i).load(Ordering::Acquire);
                if held & UPDATING != 0 {
                    now.push((slot, held & !UPDATING));
                }
            }
        }
        let instance = self.instance_id();
        let seen_before = UPDATES_SEEN.with_borrow_mut(|seen| {
            let before: Vec<(u64, u64)> = seen.iter().filter(|e| e.0 == instance).map(|e| (e.1, e.2)).collect();
            seen.retain(|e| e.0 != instance);
            seen.extend(now.iter().map(|&(slot, off)| (instance, slot, off)));
            before
        });
        let mut dead: Vec<u64> =
            now.into_iter().filter(|u| seen_before.contains(u) && !self.owner_alive(u.0)).map(|u| u.0).collect();
        dead.dedup();
        dead
    }

    fn owner_alive(&self, slot: u64) -> bool {
        let owner = self.word(slot, OWNER).load(Ordering::Acquire);
        let start = self.word(slot, START).load(Ordering::Acquire);
        owner == 0 || owner == CLEARING || Owner::from_words(owner, start).thread_alive()
    }

    /// What holds reclamation back (write lock held): the oldest epoch any reader has pinned (`u64::MAX`
    /// when none), revoking pins [`STALE_PIN_EPOCHS`] old, and the entries held through hazards.
    fn protection(&self, current_epoch: u64) -> (u64, Vec<(u64, u64)>) {
        fence(Ordering::SeqCst);
        let hwm = self.region.word(self.high_water).load(Ordering::Acquire).min(self.count);
        let mut min = u64::MAX;
        let mut hazards = Vec::new();
        for slot in 0..hwm {
            let pin_word = self.word(slot, PIN);
            let pin = pin_word.load(Ordering::SeqCst);
            if pin != 0 && pin != REVOKED {
                // A stale pin is revoked; one that moved on meanwhile still counts (conservatively).
                let stale = pin.saturating_add(STALE_PIN_EPOCHS) < current_epoch;
                if !stale || pin_word.compare_exchange(pin, REVOKED, Ordering::SeqCst, Ordering::SeqCst).is_err() {
                    min = min.min(pin);
                }
            }
            for i in 0..HAZARDS {
                let held = self.word(slot, HAZARD + 8 * i).load(Ordering::SeqCst);
                if held != 0 {
                    hazards.push((held & !UPDATING, slot));
                }
            }
        }
        (min, hazards)
    }

    /// Clears the slot of a thread that died holding hazards (its entries can go). True when it did.
    pub(crate) fn clear_if_dead(&self, slot: u64) -> bool {
        self.free_if_dead(slot, self.word(slot, OWNER).load(Ordering::Acquire))
    }

    /// Frees `slot` if `owner` (its owner word, just read) names a dead thread. The slot is first taken
    /// from the dead owner ([`CLEARING`]), so nobody claims it while its words are cleared, and its start
    /// word is 0 before its owner word is: a thread that has just claimed the slot and not yet written
    /// its start time is then judged by its id alone, never by the start time of the slot's previous
    /// owner (which would make a live claimer look dead, and the slot shared by two threads).
    fn free_if_dead(&self, slot: u64, owner: u64) -> bool {
        if owner == 0 || owner == CLEARING {
            return false;
        }
        let start = self.word(slot, START).load(Ordering::Acquire);
        if Owner::from_words(owner, start).thread_alive() {
            return false;
        }
        if self.word(slot, OWNER).compare_exchange(owner, CLEARING, Ordering::AcqRel, Ordering::Relaxed).is_err() {
            return false;
        }
        for field in (START..SLOT_BYTES).step_by(8) {
            self.word(slot, field).store(0, Ordering::Release);
        }
        self.word(slot, OWNER).store(0, Ordering::Release);
        true
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
    /// Word: entries on the list.
    pub(crate) count: u64,
}

impl RetireList {
    fn get(&self, off: u64) -> u64 {
        self.region.word(off).load(Ordering::Acquire)
    }

    /// Bytes retired and not yet freed.
    pub(crate) fn retired_bytes(&self) -> u64 {
        self.get(self.bytes)
    }

    /// Entries retired and not yet freed.
    pub(crate) fn retired_count(&self) -> u64 {
        self.get(self.count)
    }

    /// Appends entry `h` (unlinked, or unlinked by the same transaction), tagged with `epoch`.
    #[inline(always)]
    pub(crate) fn retire(&self, t: &mut Txn, alloc: &SizeClassAllocator, h: &EntryHeader, epoch: u64) {
        // Only read once the entry is on the list, so an undo need not restore it (the tag must be: a
        // live entry has none).
        self.region.word(h.off + entry::RETIRE_NEXT).store(0, Ordering::Relaxed);
        t.set(h.off + entry::RETIRE_TAG, epoch);
        let tail = t.get(self.tail);
        if tail == 0 {
            t.set(self.head, h.off);
        } else {
            t.set(tail + entry::RETIRE_NEXT, h.off);
        }
        t.set(self.tail, h.off);
        self.add(alloc.payload_capacity(h.off) as i64, 1);
    }

    /// Adjusts the byte and entry counts (write lock held; not journaled, see [`RetireList::recount`]).
    fn add(&self, bytes: i64, entries: i64) {
        for (word, delta) in [(self.bytes, bytes), (self.count, entries)] {
            let w = self.region.word(word);
            w.store(w.load(Ordering::Relaxed).saturating_add_signed(delta), Ordering::Relaxed);
        }
    }

    /// Recomputes the counts from the list (after a writer died in the middle of a change).
    pub(crate) fn recount(&self, alloc: &SizeClassAllocator) {
        let mut bytes = 0;
        let mut cur = self.get(self.head);
        let mut steps = 0;
        while cur != 0 && steps < self.region.len() / 32 {
            bytes += alloc.payload_capacity(cur);
            cur = self.region.checked_word(cur + entry::RETIRE_NEXT).map_or(0, |w| w.load(Ordering::Acquire));
            steps += 1;
        }
        self.region.word(self.bytes).store(bytes, Ordering::Release);
        self.region.word(self.count).store(steps, Ordering::Release);
    }

    /// Frees the retired entries no reader can still see: tagged before every pin, and held by no
    /// hazard (a hazard of a thread that died is cleared once it has held its entry for
    /// [`STALE_PIN_EPOCHS`]). A run of consecutive entries is freed in one transaction (as many as the
    /// journal has room for), which unlinks the whole run from the list with one write. Write lock
    /// held; `epoch` is the current one.
    pub(crate) fn collect(&self, journal: &Journal, alloc: &SizeClassAllocator, readers: &ReaderSlots, epoch: u64) {
        if self.get(self.head) == 0 {
            return;
        }
        let (min, hazards) = readers.protection(epoch);
        let (mut prev, mut cur) = (0, self.get(self.head));
        let mut bumped = false;
        while cur != 0 {
            let tag = self.get(cur + entry::RETIRE_TAG);
            if tag >= min {
                break;
            }
            let held = hazards.iter().find(|(off, _)| *off == cur).is_some_and(|&(_, slot)| {
                tag.saturating_add(STALE_PIN_EPOCHS) >= epoch || !readers.clear_if_dead(slot)
            });
            if held {
                (prev, cur) = (cur, self.get(cur + entry::RETIRE_NEXT));
                continue;
            }
            if !bumped {
                readers.bump_free_generation();
                bumped = true;
            }
            // A run: the entries from `cur` on, in one transaction, until one is too new or named by a
            // hazard (the loop above decides whether that one is held), or the journal is nearly full.
            let mut t = journal.begin();
            let mut frees = RunFrees::default();
            let mut entries = 0;
            loop {
                let next = self.get(cur + entry::RETIRE_NEXT);
                alloc.free_in_run(&mut t, cur, &mut frees);
                entries += 1;
                cur = next;
                if cur == 0
                    || t.room() < FREE_JOURNAL_WORDS
                    || self.get(cur + entry::RETIRE_TAG) >= min
                    || hazards.iter().any(|&(off, _)| off == cur)
                {
                    break;
                }
            }
            self.end_run(alloc, t, frees, entries, prev, cur);
        }
    }

    /// Ends a run of `entries` freed entries: the list goes on from `prev` (0: the head) to `next`. The
    /// counts move after the run's logged writes and before its commit (see `SizeClassAllocator::free`).
    fn end_run(&self, alloc: &SizeClassAllocator, mut t: Txn, frees: RunFrees, entries: u64, prev: u64, next: u64) {
        let freed_bytes = frees.freed_bytes();
        alloc.end_run(&mut t, frees);
        t.set(if prev == 0 { self.head } else { prev + entry::RETIRE_NEXT }, next);
        if next == 0 {
            t.set(self.tail, prev);
        }
        // The list counts payload capacity: a block's size less its 8-byte header.
        self.add(-((freed_bytes - 8 * entries) as i64), -(entries as i64));
        t.commit();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A process that has exited and was reaped, as an owner (its pid is free until the pids wrap).
    fn dead_process() -> Owner {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        let start = process::start_time_of(pid).unwrap();
        child.wait().unwrap();
        Owner { pid, tid: pid, start_time: start }
    }

    /// A pass frees the retired entries around one a reader holds (runs end before it and start again
    /// after it), parks the small blocks on their quick lists, and keeps the list, the counts and the
    /// held value right; the held entry goes with the pass after its hold ends.
    #[test]
    fn a_pass_frees_every_entry_around_a_held_one_and_the_held_one_after_its_hold() {
        let (_seg, p) = crate::backend_tests::partition(8 << 20, 0);
        let b = p.volatile.unwrap();
        let keys: Vec<String> = (0..150).map(|i| format!("k{i}")).collect();
        for (i, k) in keys.iter().enumerate() {
            let value = if i % 3 == 0 { vec![i as u8; 100] } else { (i as i64).to_le_bytes().to_vec() };
            b.store(k.as_bytes(), if i % 3 == 0 { 2 } else { crate::TAG_INT }, &value, 0).unwrap();
        }
        let held = b.get(b"k60").unwrap();
        let held_off = b.find(b"k60", entry::key_hash(b"k60")).unwrap().1.off;
        for k in &keys {
            assert!(b.delete(k.as_bytes()));
        }
        b.reclaim();
        let retired = b.0.retired.verify(&b.0.alloc).unwrap();
        assert_eq!(retired, vec![held_off], "only the held entry stays retired");
        b.verify().unwrap();
        assert!(held.value() == [60u8; 100], "the held value is intact");
        drop(held);
        b.reclaim();
        assert_eq!(b.stats().retired_bytes, 0);
        assert_eq!(b.0.retired.retired_count(), 0);
        b.verify().unwrap();
        for (i, k) in keys.iter().enumerate() {
            b.store(k.as_bytes(), crate::TAG_INT, &(i as i64).to_le_bytes(), 0).unwrap();
        }
        b.verify().unwrap();
    }

    /// A thread that has just claimed a slot freed from a dead owner, and not yet written its start time,
    /// must not look dead to another claimer (who would take the slot: two threads pinning one slot).
    #[test]
    fn a_slot_just_claimed_from_a_dead_owner_is_not_taken_by_another_claimer() {
        let (_seg, p) = crate::backend_tests::partition(8 << 20, 0);
        let readers = &p.volatile.as_ref().unwrap().0.readers;
        let me = process::current();
        let dead = dead_process();
        for slot in 0..readers.count {
            readers.word(slot, OWNER).store(me.pid_tid(), Ordering::Relaxed);
            readers.word(slot, START).store(me.start_time, Ordering::Relaxed);
        }
        readers.word(0, OWNER).store(dead.pid_tid(), Ordering::Relaxed);
        readers.word(0, START).store(dead.start_time, Ordering::Relaxed);
        assert!(readers.clear_if_dead(0));
        // A live thread of this process claims slot 0: its owner word is written, its start word not yet.
        assert!(readers.word(0, OWNER).compare_exchange(0, me.pid_tid(), Ordering::AcqRel, Ordering::Relaxed).is_ok());
        let other = Owner { tid: me.tid + 1, ..me };
        assert_eq!(readers.claim(other), None, "a slot of a live claimer was taken");
        assert_eq!(readers.word(0, OWNER).load(Ordering::Relaxed), me.pid_tid());
    }
}
