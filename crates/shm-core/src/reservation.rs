//! The per-key reservation table behind `lock($key, $lease)`.
//!
//! One slot per reserved key, found by linear probing on a 128-bit key hash (two distinct keys colliding
//! is as likely as a random 128-bit collision, so different keys never contend in practice). Every change
//! is a single word store that makes it visible (`STATE`), so a holder killed half-way leaves either the
//! old or the new reservation, never a broken table. Released slots become tombstones; the table is swept
//! back to empty when tombstones pile up. An owner is a request of a thread of a process: a reservation
//! is free again when released, when its lease passes, or when its thread is gone (its process exited,
//! PID reuse included, or the thread ended: a ZTS thread leaving, or killed by an `exec` in another
//! thread of its process). The two counter words are separate from the slot states, so a holder of the
//! table's lock killed between a state store and a counter update leaves a counter off by one; the next
//! holder of the lock recounts both (see [`ReservationTable::lock`]).

use crate::lock::{MutexGuard, RobustMutex};
use crate::process::Owner;
use crate::region::Region;
use std::sync::atomic::Ordering;

pub const SLOT_BYTES: u64 = 64;
const KEY_LO: u64 = 0;
const KEY_HI: u64 = 8;
const STATE: u64 = 16;
const OWNER: u64 = 24;
const START: u64 = 32;
const REQUEST: u64 = 40;
const DEADLINE: u64 = 48;

const EMPTY: u64 = 0;
const TOMBSTONE: u64 = 1;
const HELD: u64 = 2;

/// Who asks: a request (the binding's per-request token) of the calling thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestId(pub u64);

#[derive(Clone, Copy)]
pub struct ReservationTable {
    pub(crate) region: Region,
    pub(crate) slots: u64,
    pub(crate) count: u64,
    /// Word: reservations possibly held (never below the true number; a fast "none held" check).
    pub(crate) active: u64,
    /// Word: tombstones in the table.
    pub(crate) tombstones: u64,
    pub(crate) lock: RobustMutex,
}

pub(crate) fn key_hash(key: &[u8]) -> (u64, u64) {
    let h = xxhash_rust::xxh3::xxh3_128(key);
    let (lo, hi) = (h as u64, (h >> 64) as u64);
    if (lo, hi) == (0, 0) {
        (1, 0)
    } else {
        (lo, hi)
    }
}

impl ReservationTable {
    fn w(&self, slot: u64, field: u64) -> &std::sync::atomic::AtomicU64 {
        self.region.word(self.slots + slot * SLOT_BYTES + field)
    }

    fn holder(&self, slot: u64) -> (Owner, RequestId, u64) {
        let owner =
            Owner::from_words(self.w(slot, OWNER).load(Ordering::Acquire), self.w(slot, START).load(Ordering::Acquire));
        (
            owner,
            RequestId(self.w(slot, REQUEST).load(Ordering::Acquire)),
            self.w(slot, DEADLINE).load(Ordering::Acquire),
        )
    }

    fn is_mine(&self, slot: u64, me: Owner, req: RequestId) -> bool {
        let (owner, r, _) = self.holder(slot);
        owner.pid_tid() == me.pid_tid() && owner.start_time == me.start_time && r == req
    }

    fn is_stale(&self, slot: u64, now_ms: u64) -> bool {
        self.is_stale_given(slot, now_ms, Owner::thread_alive)
    }

    /// [`Self::is_stale`] with the holder's liveness from `alive`, asked only when the lease runs.
    fn is_stale_given(&self, slot: u64, now_ms: u64, alive: impl FnOnce(&Owner) -> bool) -> bool {
        let (owner, _, deadline) = self.holder(slot);
        (deadline != 0 && now_ms >= deadline) || !alive(&owner)
    }

    /// Takes the table's lock. When its previous holder died holding it, the counters may be off by one:
    /// `active` above the true number (raised before a slot turns held, lowered after it turns tombstone)
    /// and `tombstones` below it (lowered before a tombstone is reused, raised after a slot turns one),
    /// possibly wrapped below zero; so they are recounted from the slot states, which are always whole.
    fn lock(&self) -> Option<MutexGuard<'_>> {
        let g = self.lock.lock().ok()?;
        if g.previous_owner_died() {
            self.recount();
        }
        Some(g)
    }

    /// Recomputes both counter words from the slot states (table lock held).
    #[cold]
    fn recount(&self) {
        let (mut held, mut tombstones) = (0, 0);
        for slot in 0..self.count {
            match self.w(slot, STATE).load(Ordering::Acquire) {
                HELD => held += 1,
                TOMBSTONE => tombstones += 1,
                _ => {}
            }
        }
        self.region.word(self.active).store(held, Ordering::Release);
        self.region.word(self.tombstones).store(tombstones, Ordering::Release);
    }

    /// The slot holding `key`, and the first reusable slot met on the way.
    fn probe(&self, key: (u64, u64)) -> (Option<u64>, Option<u64>) {
        let mut free = None;
        for i in 0..self.count {
            let slot = (key.0.wrapping_add(i)) % self.count;
            match self.w(slot, STATE).load(Ordering::Acquire) {
                EMPTY => return (None, free.or(Some(slot))),
                TOMBSTONE => {
                    free.get_or_insert(slot);
                }
                _ => {
                    if self.w(slot, KEY_LO).load(Ordering::Acquire) == key.0
                        && self.w(slot, KEY_HI).load(Ordering::Acquire) == key.1
                    {
                        return (Some(slot), free);
                    }
                }
            }
        }
        (None, free)
    }

    fn write_holder(&self, slot: u64, me: Owner, req: RequestId, deadline: u64) {
        self.w(slot, OWNER).store(me.pid_tid(), Ordering::Release);
        self.w(slot, START).store(me.start_time, Ordering::Release);
        self.w(slot, REQUEST).store(req.0, Ordering::Release);
        self.w(slot, DEADLINE).store(deadline, Ordering::Release);
    }

    /// Non-blocking try-lock. Re-entrant for the same request (the lease is replaced). Takes over a
    /// reservation whose lease passed or whose owner died. False when another live request holds it or
    /// every slot is held by a live request. A table whose slots are all taken first drops the stale
    /// ones (dead holders, passed leases): reservations of killed processes under keys nobody reserves
    /// again would otherwise fill it for good, and every `lock()` of a new key would fail.
    pub fn try_reserve(&self, key: &[u8], me: Owner, req: RequestId, deadline: u64, now_ms: u64) -> bool {
        let Some(_g) = self.lock() else { return false };
        let k = key_hash(key);
        let mut probed = self.probe(k);
        if probed == (None, None) && self.drop_stale(now_ms) {
            probed = self.probe(k);
        }
        match probed {
            (Some(slot), _) => {
                if self.is_mine(slot, me, req) || self.is_stale(slot, now_ms) {
                    self.write_holder(slot, me, req, deadline);
                    true
                } else {
                    false
                }
            }
            (None, Some(slot)) => {
                if self.w(slot, STATE).load(Ordering::Relaxed) == TOMBSTONE {
                    self.region.word(self.tombstones).fetch_sub(1, Ordering::AcqRel);
                }
                self.w(slot, KEY_LO).store(k.0, Ordering::Release);
                self.w(slot, KEY_HI).store(k.1, Ordering::Release);
                self.write_holder(slot, me, req, deadline);
                self.region.word(self.active).fetch_add(1, Ordering::AcqRel);
                self.w(slot, STATE).store(HELD, Ordering::Release);
                true
            }
            (None, None) => false,
        }
    }

    /// Drops every held slot whose lease passed or whose holder is gone (see `Backend::reserved_by_other`).
    pub fn sweep_stale(&self, now_ms: u64) {
        if let Some(_g) = self.lock() {
            self.drop_stale(now_ms);
        }
    }

    /// Drops every held slot whose lease passed or whose holder is gone (table lock held), one liveness
    /// check per holder whose lease runs, not per slot: a worker holding most of the table is read
    /// once, not once per key (a full table is checked so at each `lock()` of a further key, under the
    /// lock every writer of the backend takes). True when a slot was freed.
    #[cold]
    fn drop_stale(&self, now_ms: u64) -> bool {
        let mut alive: std::collections::HashMap<(u64, u64), bool> = std::collections::HashMap::new();
        let mut dropped = false;
        for slot in 0..self.count {
            let stale = self.w(slot, STATE).load(Ordering::Acquire) == HELD
                && self.is_stale_given(slot, now_ms, |owner| {
                    *alive.entry((owner.pid_tid(), owner.start_time)).or_insert_with(|| owner.thread_alive())
                });
            if stale {
                self.drop_slot(slot);
                dropped = true;
            }
        }
        dropped
    }

    fn drop_slot(&self, slot: u64) {
        self.w(slot, STATE).store(TOMBSTONE, Ordering::Release);
        let _ = self.region.word(self.active).fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| v.checked_sub(1));
        let tomb = self.region.word(self.tombstones).fetch_add(1, Ordering::AcqRel) + 1;
        if tomb > self.count / 4 {
            self.sweep();
        }
    }

    /// Turns tombstones back into empty slots when no live reservation is in the way: rebuilds probe
    /// chains by emptying every non-held slot only when nothing is held at all.
    fn sweep(&self) {
        let held = (0..self.count).any(|s| self.w(s, STATE).load(Ordering::Acquire) == HELD);
        if held {
            return;
        }
        for s in 0..self.count {
            self.w(s, STATE).store(EMPTY, Ordering::Release);
        }
        self.region.word(self.tombstones).store(0, Ordering::Release);
        self.region.word(self.active).store(0, Ordering::Release);
    }

    /// Releases `key` if this request holds it. A reservation whose lease has passed is no longer held:
    /// it is dropped and the answer is false.
    pub fn release(&self, key: &[u8], me: Owner, req: RequestId, now_ms: u64) -> bool {
        if self.region.word(self.active).load(Ordering::Acquire) == 0 {
            return false;
        }
        let Some(_g) = self.lock() else { return false };
        match self.probe(key_hash(key)) {
            (Some(slot), _) if self.is_mine(slot, me, req) => {
                let deadline = self.holder(slot).2;
                self.drop_slot(slot);
                deadline == 0 || now_ms < deadline
            }
            _ => false,
        }
    }

    /// Releases every reservation of this request (request end, `clear()`).
    pub fn release_all(&self, me: Owner, req: RequestId) {
        if self.region.word(self.active).load(Ordering::Acquire) == 0 {
            return;
        }
        let Some(_g) = self.lock() else { return };
        for slot in 0..self.count {
            if self.w(slot, STATE).load(Ordering::Acquire) == HELD && self.is_mine(slot, me, req) {
                self.drop_slot(slot);
            }
        }
    }

    /// True when another live request holds `key` with an unexpired lease. A stale reservation of `key`
    /// (its lease passed, or its holder is gone) is dropped on the way, so that it no longer counts as
    /// held: writers stop consulting the table once no live reservation is left.
    pub fn held_by_other(&self, key: &[u8], me: Owner, req: RequestId, now_ms: u64) -> bool {
        if self.region.word(self.active).load(Ordering::Acquire) == 0 {
            return false;
        }
        let Some(_g) = self.lock() else { return false };
        match self.probe(key_hash(key)) {
            (Some(slot), _) if self.is_mine(slot, me, req) => false,
            (Some(slot), _) if self.is_stale(slot, now_ms) => {
                self.drop_slot(slot);
                false
            }
            (Some(_), _) => true,
            _ => false,
        }
    }

    /// Reservations currently held (tests, statistics).
    pub fn held_count(&self) -> u64 {
        (0..self.count).filter(|&s| self.w(s, STATE).load(Ordering::Acquire) == HELD).count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process;

    /// The identity of a thread that has ended. `join()` returns once the thread cleared its id, which
    /// the kernel does before the thread leaves its thread group: until then it still answers
    /// `tgkill(…, 0)`, so this waits (a few milliseconds at most on a loaded machine) for that too.
    fn ended_thread() -> Owner {
        let gone = std::thread::spawn(process::current).join().unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while gone.thread_alive() {
            assert!(std::time::Instant::now() < deadline, "an ended thread still exists after 5 s");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        gone
    }

    fn table() -> (crate::Segment, ReservationTable) {
        let (seg, p) = crate::backend_tests::partition(8 << 20, 0);
        let table = p.volatile.unwrap().0.reservations;
        (seg, table)
    }

    /// A thread that took the table's lock and exited without releasing it; the counters as a holder
    /// killed half-way through a change could leave them (active too high, tombstones wrapped below 0).
    #[test]
    fn counters_left_off_by_a_dead_holder_of_the_table_lock_are_recounted_by_the_next() {
        let (_seg, t) = table();
        let me = process::current();
        assert!(t.try_reserve(b"held", me, RequestId(1), 0, 0));
        assert!(t.try_reserve(b"released", me, RequestId(1), 0, 0));
        assert!(t.release(b"released", me, RequestId(1), 0));
        std::thread::scope(|s| s.spawn(|| std::mem::forget(t.lock.lock().unwrap())).join().unwrap());
        t.region.word(t.active).store(5, Ordering::Relaxed);
        t.region.word(t.tombstones).store(u64::MAX, Ordering::Relaxed);
        assert!(!t.held_by_other(b"held", me, RequestId(1), 0));
        let counters =
            (t.region.word(t.active).load(Ordering::Relaxed), t.region.word(t.tombstones).load(Ordering::Relaxed));
        assert_eq!(counters, (1, 1), "(active, tombstones) after the dead holder");
    }

    /// A table filled by reservations of a thread that ended (a killed request, under keys nobody
    /// reserves again) still grants new keys, while a table full of live reservations does not.
    #[test]
    fn a_table_full_of_stale_reservations_still_grants_new_keys() {
        let (_seg, t) = table();
        let me = process::current();
        let gone = ended_thread();
        for i in 0..t.count {
            assert!(t.try_reserve(format!("job:{i}").as_bytes(), gone, RequestId(1), 0, 0));
        }
        assert!(t.try_reserve(b"fresh", me, RequestId(2), 0, 0), "stale slots fill the table for good");
        assert_eq!(t.held_count(), 1);
        for i in 0..t.count - 1 {
            assert!(t.try_reserve(format!("live:{i}").as_bytes(), me, RequestId(2), 0, 0));
        }
        assert!(!t.try_reserve(b"one more", me, RequestId(3), 0, 0), "a table of live reservations is full");
    }

    /// A writer drops the stale reservations of other requests, whatever their keys (at most once a
    /// second per process): none is left counted as held.
    #[test]
    fn a_writer_drops_stale_reservations_of_other_keys() {
        let (seg, p) = crate::backend_tests::partition(8 << 20, 0);
        let clock = crate::ManualClock::new(1000);
        let b = p.volatile.unwrap().with_clock(clock.clone());
        let t = b.0.reservations;
        let gone = ended_thread();
        assert!(t.try_reserve(b"left by a killed request", gone, RequestId(1), 0, 0));
        assert!(b.try_reserve(b"leased", RequestId(7), 1));
        assert!(b.try_reserve(b"mine", RequestId(2), 0));
        b.release_all(RequestId(2));
        clock.advance_ms(1000);
        assert!(!b.reserved_by_other(b"written", RequestId(3)));
        assert!(!b.any_reservation(), "{} reservations left", t.held_count());
        drop(seg);
    }

    /// A writer that finds the key's reservation stale drops it: nothing counts as held afterwards.
    #[test]
    fn a_stale_reservation_met_by_a_writer_is_dropped() {
        let (_seg, t) = table();
        let me = process::current();
        let gone = ended_thread();
        assert!(t.try_reserve(b"k", gone, RequestId(1), 0, 0));
        assert!(t.try_reserve(b"leased", me, RequestId(1), 5, 0));
        assert!(!t.held_by_other(b"k", me, RequestId(2), 10));
        assert!(!t.held_by_other(b"leased", me, RequestId(2), 10));
        assert_eq!(t.region.word(t.active).load(Ordering::Relaxed), 0, "stale reservations still counted");
        assert!(!t.release(b"leased", me, RequestId(1), 10));
    }

    /// The reservation of a request whose thread ended (its process lives on) is free for others.
    #[test]
    fn a_reservation_of_a_thread_that_ended_is_free_while_its_process_runs() {
        let (_seg, t) = table();
        let me = process::current();
        let gone = ended_thread();
        assert_eq!(gone.pid, me.pid);
        assert!(t.try_reserve(b"k", gone, RequestId(1), 0, 0));
        assert!(!t.held_by_other(b"k", me, RequestId(2), 0), "a reservation of an ended thread counts as held");
        assert!(t.try_reserve(b"k", me, RequestId(2), 0, 0));
    }
}
