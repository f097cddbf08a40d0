//! Integers updated in place: `increment`/`decrement` of an existing integer entry, and a store of an
//! integer over one (no TTL on either side), are one atomic read-modify-write of the entry's value word.
//! Crash-safe by construction: a process killed at any instant has either changed the word or not.
//!
//! The fast path takes no lock. It holds the entry through an *update hazard* (see `reclaim`), checks
//! the entry is not frozen, rewrites the word, and moves the mutation epoch on. An entry that heads its
//! bucket is held without a pin or a walk (hazard published, then the bucket link read again); any
//! other is found like a reader finds it, by a walk under a pin.
//! An integer entry's version (what process-local caches validate a copy against) is derived from its
//! stored version and its current value ([`int_version`]), so it changes exactly when the value does,
//! with no second word to keep in step: a reader can never pair a version with another value.
//!
//! The one thing that must not race with it is a copy of the entry: compaction moves an entry by
//! copying it, and an increment landing on the old copy afterwards would be lost. So compaction first
//! *freezes* the entry (a bit in its usage word), then waits — boundedly — until no update hazard names
//! it: an update that started before the freeze finishes first, and one that starts after sees the
//! freeze and takes the slow path under the write lock, where it finds the moved entry. A thread that
//! dies between rewriting the word and moving the epoch on is found by its update hazard, and the epoch
//! is moved on for it (`Backend::repair_dead_updates`).
//!
//! # The atomics of the fast path, and why each is needed
//! A store over an integer at the head of its bucket executes two locked instructions (`xchg`,
//! `lock xadd` on x86); an increment, three. Every other access below compiles to a plain load or
//! store on x86.
//! 1. **The update hazard, a SeqCst store** (`xchg`; [`crate::reclaim::ReaderSlots::hold_linked_for_update`],
//!    or `Walk::hold_for_update`). It must be visible before the loads that validate it: the second read
//!    of the bucket link (else a reclaimer could free the block, and the write would land in memory
//!    reused by another entry) and the usage word (else compaction could copy the entry between the
//!    frozen check and the write, losing the update). That is a store followed by loads of other
//!    words, the one ordering x86 does not give for free (store-buffering): the reclaimer's and the
//!    compactor's sides each end in a SeqCst fence or read-modify-write, and only a SeqCst store on
//!    this side closes the pattern. A Release store would let both sides miss each other.
//! 2. **The link reads and the frozen check, SeqCst loads** (plain loads on x86): their place in the
//!    single SeqCst order is what the argument in (1) rests on.
//! 3. **The value word**: a store is a Release store (plain; readers load the word atomically, so
//!    it is never torn); an increment is a `fetch_add` (`lock xadd`), because increments from any
//!    number of processes must sum exactly (§11) and a load-then-store would lose concurrent ones.
//! 4. **The epoch bump, a `fetch_add`** (`lock xadd`; spec §7.4: every counter or in-place update
//!    moves the epoch). It is a read-modify-write because other in-place updaters and the write-lock
//!    holder bump concurrently: a load-then-store could write back a value a reader already tagged its
//!    lookup cache with, and that reader would never see this update. It comes after the value write
//!    (its Release half orders the write before it): bumped first, a reader could see the new epoch,
//!    read the old value and keep it under the new tag. And it cannot double as the hazard's barrier
//!    in (1), which must come before the write: so two locked instructions is the floor for a
//!    lock-free in-place store. It moves the mutation epoch only, never the reclamation epoch that reader
//!    pins and retire tags use, which only the write lock holder moves (see `reclaim`: a lock-free bump
//!    between a writer's retire tag and its unlink would let a reader's pin pass the tag too early).
//! 5. **The hazard's release, a Release store** (plain; [`Hold`]'s drop): a compactor or reclaimer
//!    that sees the hazard gone sees the value word and the epoch written before it.
//!
//! The reader slot itself costs two Relaxed loads, the backend's instance id and the slot's owner
//! word (a thread-local cache, `ReaderSlots::my_slot`), and no fence is needed anywhere on this path.

use crate::backend::{Backend, CounterError, CounterUpdate};
use crate::entry::{self, EntryHeader};
use crate::reclaim::{Hold, NoHold};
use std::sync::atomic::Ordering;

/// A change to an integer.
#[derive(Clone, Copy)]
pub(crate) enum IntUpdate {
    /// Add, wrapping around in two's complement (decrement adds the negated step).
    Add(i64),
    Set(i64),
}

impl IntUpdate {
    /// The new value and whether the addition wrapped.
    pub(crate) fn apply(self, old: i64) -> (i64, bool) {
        match self {
            IntUpdate::Add(step) => old.overflowing_add(step),
            IntUpdate::Set(v) => (v, false),
        }
    }
}

/// How long compaction waits for in-flight updates of an entry it wants to move before leaving it. An
/// update takes nanoseconds; the wait only runs long when an updating thread was preempted between its
/// hazard and its write, and it yields so that such a thread can finish on a busy host.
const FREEZE_WAIT: std::time::Duration = std::time::Duration::from_millis(2);

/// The version an integer entry reports: its stored version (the epoch of the store that created it)
/// mixed with its current value, in the upper half of the version space (stored versions are epochs,
/// far below 2^63). A bijective mix of the value for a given entry: two values of one entry never share
/// a version; entries of one key differ in their stored version (a collision between them is a 2^-63
/// chance).
pub(crate) fn int_version(stored_version: u64, value: i64) -> u64 {
    fn mix(mut x: u64) -> u64 {
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }
    mix(to_word(value) ^ mix(stored_version)) | 1 << 63
}

fn to_word(v: i64) -> u64 {
    u64::from_ne_bytes(v.to_le_bytes())
}

fn from_word(w: u64) -> i64 {
    i64::from_le_bytes(w.to_ne_bytes())
}

impl Backend {
    /// The lock-free fast path. `None` when it does not apply (no reader slot, key missing or expired,
    /// entry frozen, walk disturbed): the caller takes the locked path.
    #[inline]
    pub(crate) fn update_int_lock_free(
        &self,
        key: &[u8],
        hash: u64,
        update: IntUpdate,
    ) -> Option<Result<CounterUpdate, CounterError>> {
        // An empty bucket (a key stored for the first time, or again after a delete) holds no entry to
        // update: one load, not the calls of either path.
        if self.word(self.0.index.bucket_link(hash)).load(Ordering::Relaxed) == 0 {
            return None;
        }
        self.update_int_in_bucket(key, hash, update)
    }

    /// [`Backend::update_int_lock_free`] once the bucket holds entries: out of line, so a store into an
    /// empty bucket does not set up the frame of both paths.
    #[inline(never)]
    fn update_int_in_bucket(
        &self,
        key: &[u8],
        hash: u64,
        update: IntUpdate,
    ) -> Option<Result<CounterUpdate, CounterError>> {
        self.update_int_at_bucket_head(key, hash, update).or_else(|| self.update_int_walking(key, hash, update))
    }

    /// The fast path for a key whose entry heads its bucket (the common case): the entry is held by a
    /// validated update hazard (`ReaderSlots::hold_linked_for_update`), with no pin and no walk. `None`
    /// when the head is another key's entry or anything else does not fit: the caller walks.
    fn update_int_at_bucket_head(
        &self,
        key: &[u8],
        hash: u64,
        update: IntUpdate,
    ) -> Option<Result<CounterUpdate, CounterError>> {
        let link = self.word(self.0.index.bucket_link(hash));
        let (off, hold) = self.0.readers.hold_linked_for_update(link)?;
        // No header checksum: the hazard was validated against the bucket link, so the entry is linked
        // (complete, its header never rewritten) and cannot be freed while held.
        let h = EntryHeader::read_linked(&self.0.region, off)
            .filter(|h| h.hash == hash && h.key_matches(&self.0.region, key) && self.live(h))?;
        self.update_held_int(&h, update, hold)
    }

    /// The fast path for any entry: a walk under a pin, then an update hazard on the entry found.
    fn update_int_walking(
        &self,
        key: &[u8],
        hash: u64,
        update: IntUpdate,
    ) -> Option<Result<CounterUpdate, CounterError>> {
        let walk = self.begin_walk()?;
        let Some((_, h)) = self.0.index.find(key, hash).filter(|(_, h)| self.live(h)) else {
            walk.end();
            return None;
        };
        let hold = match walk.hold_for_update(h.off) {
            Ok(hold) => hold,
            Err(NoHold::Full(walk)) => {
                walk.end();
                return None;
            }
            Err(NoHold::Revoked) => return None,
        };
        self.update_held_int(&h, update, hold)
    }

    /// Updates live entry `h` of the key, held through an update hazard, unless it is frozen (`None`:
    /// the caller takes the locked path). SeqCst load of the usage word: with the hazard store before it
    /// and the compactor's freeze and hazard scan (`freeze_int`), one side sees the other.
    #[inline]
    fn update_held_int(
        &self,
        h: &EntryHeader,
        update: IntUpdate,
        hold: Hold<'_>,
    ) -> Option<Result<CounterUpdate, CounterError>> {
        if !h.is_int() {
            return Some(Err(CounterError::NotInteger));
        }
        // A store replaces the TTL: in place only when there is none to replace.
        if matches!(update, IntUpdate::Set(_)) && h.expires_ms != 0 {
            return None;
        }
        if self.word(h.off + entry::USAGE).load(Ordering::SeqCst) & entry::FROZEN_BIT != 0 {
            return None;
        }
        let result = self.rewrite_int(h, update);
        drop(hold);
        Some(Ok(result))
    }

    /// Rewrites the value word of integer entry `h` (held, or write lock held: lock-free updates may run
    /// concurrently, so it is an atomic read-modify-write either way), then moves the epoch on. A writer
    /// that dies in between leaves the epoch to recovery (the write lock's, or `repair_dead_updates`).
    pub(crate) fn rewrite_int(&self, h: &EntryHeader, update: IntUpdate) -> CounterUpdate {
        let word = self.word(h.value_off());
        let (value, wrapped) = match update {
            IntUpdate::Add(step) => update.apply(from_word(word.fetch_add(to_word(step), Ordering::AcqRel))),
            IntUpdate::Set(v) => {
                word.store(to_word(v), Ordering::Release);
                (v, false)
            }
        };
        self.bump_mutation_epoch();
        CounterUpdate { value, wrapped }
    }

    /// Freezes integer entry `h` before compaction copies it (write lock held): no in-place update
    /// starts after this, and the ones in flight are waited for (at most `FREEZE_WAIT`). False (entry
    /// unfrozen again) when some update did not finish in time: the entry is not moved then.
    pub(crate) fn freeze_int(&self, h: &EntryHeader) -> bool {
        let usage = self.word(h.off + entry::USAGE);
        usage.fetch_or(entry::FROZEN_BIT, Ordering::SeqCst);
        let started = std::time::Instant::now();
        while self.0.readers.updating(h.off) {
            if started.elapsed() > FREEZE_WAIT {
                usage.fetch_and(!entry::FROZEN_BIT, Ordering::SeqCst);
                return false;
            }
            std::thread::yield_now();
        }
        true
    }

    /// Moves the epoch on for threads that died in the middle of an in-place update (their change may be
    /// unannounced), then frees their reader slots (write lock held).
    pub(crate) fn repair_dead_updates(&self) {
        for slot in self.0.readers.dead_updates() {
            self.bump_epoch();
            self.0.readers.clear_if_dead(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::*;
    use std::sync::atomic::Ordering;

    fn backends() -> (Segment, Backend, Backend) {
        let (seg, p) = crate::backend_tests::partition(8 << 20, 8 << 20);
        (seg, p.volatile.unwrap(), p.pinned.unwrap())
    }

    #[test]
    fn an_integer_is_updated_in_place_without_a_new_block() {
        let (_seg, v, p) = backends();
        for b in [&v, &p] {
            b.increment(b"n", 1).unwrap();
            b.store(b"i", TAG_INT, &5i64.to_le_bytes(), 0).unwrap();
            let before = b.stats();
            for _ in 0..1000 {
                b.increment(b"n", 2).unwrap();
                b.store(b"i", TAG_INT, &7i64.to_le_bytes(), 0).unwrap();
            }
            let after = b.stats();
            assert_eq!(
                (after.used_bytes, after.retired_bytes, after.inserts),
                (before.used_bytes, before.retired_bytes, before.inserts),
                "no block allocated, replaced or published"
            );
            assert_eq!(b.peek(b"n").unwrap().as_int(), Some(2001));
            assert_eq!(b.peek(b"i").unwrap().as_int(), Some(7));
            assert!(b.epoch() >= before_epoch(&before, b), "each update moved the epoch");
        }
    }

    fn before_epoch(_: &BackendStats, b: &Backend) -> u64 {
        b.epoch().saturating_sub(1)
    }

    #[test]
    fn integers_at_the_head_of_their_bucket_and_behind_another_key_are_both_updated_in_place() {
        let (_seg, _v, p) = backends();
        let mask = p.0.index.bucket_count - 1;
        let bucket = |k: &[u8]| entry::key_hash(k) & mask;
        let colliding: Vec<Vec<u8>> =
            (0..).map(|i| format!("k{i}").into_bytes()).filter(|k| bucket(k) == bucket(b"behind")).take(2).collect();
        let (text, head) = (&colliding[0], &colliding[1]);
        // A new entry is linked at the head of its bucket: "behind" ends up behind a string, which ends up
        // behind the integer `head`.
        p.increment(b"behind", 1).unwrap();
        p.store(text, 2, b"not a number", 0).unwrap();
        p.increment(head, 10).unwrap();
        let link = p.word(p.0.index.bucket_link(entry::key_hash(head)));
        let head_entry = p.find(head, entry::key_hash(head)).unwrap().1.off;
        assert_eq!(link.load(Ordering::Relaxed), head_entry, "the last key stored heads the bucket");
        let before = p.stats();
        for _ in 0..100 {
            p.increment(b"behind", 2).unwrap();
            p.decrement(head, 1).unwrap();
            p.store(b"behind", TAG_INT, &7i64.to_le_bytes(), 0).unwrap();
        }
        assert_eq!(p.increment(text, 1), Err(CounterError::NotInteger), "a string among them stays one");
        let after = p.stats();
        assert_eq!((after.used_bytes, after.inserts), (before.used_bytes, before.inserts), "all in place");
        assert_eq!(p.peek(b"behind").unwrap().as_int(), Some(7));
        assert_eq!(p.peek(head).unwrap().as_int(), Some(-90));
        p.verify().unwrap();
    }

    #[test]
    fn every_in_place_update_moves_the_epoch_and_the_version_follows_the_value() {
        let (_seg, _v, p) = backends();
        p.increment(b"n", 1).unwrap();
        let (e0, v0) = (p.epoch(), p.peek(b"n").unwrap().version());
        p.increment(b"n", 1).unwrap();
        let (e1, v1) = (p.epoch(), p.peek(b"n").unwrap().version());
        assert!(e1 > e0 && v1 != v0, "a new value has a new version and a new epoch");
        p.decrement(b"n", 1).unwrap();
        assert_eq!(p.peek(b"n").unwrap().version(), v0, "the same value of the same entry has the same version");
        p.store(b"n", TAG_INT, &1i64.to_le_bytes(), 0).unwrap();
        assert_eq!(p.peek(b"n").unwrap().version(), v0, "an integer stored over it in place, likewise");
        p.store(b"n", 2, b"text", 0).unwrap();
        p.store(b"n", TAG_INT, &1i64.to_le_bytes(), 0).unwrap();
        assert_ne!(p.peek(b"n").unwrap().version(), v0, "a new entry of the key has other versions");
    }

    #[test]
    fn a_volatile_integer_keeps_its_ttl_through_increments_and_a_store_replaces_it() {
        let clock = ManualClock::new(1000);
        let (_seg, v, _p) = backends();
        let v = v.with_clock(clock.clone());
        v.store(b"n", TAG_INT, &1i64.to_le_bytes(), 2).unwrap();
        v.increment(b"n", 1).unwrap();
        assert_ne!(v.peek(b"n").unwrap().expires_ms(), 0, "an increment keeps the TTL");
        v.store(b"n", TAG_INT, &5i64.to_le_bytes(), 0).unwrap();
        assert_eq!(v.peek(b"n").unwrap().expires_ms(), 0, "a store without TTL removes it");
        clock.advance_ms(5000);
        assert_eq!(v.peek(b"n").unwrap().as_int(), Some(5));
        v.store(b"t", TAG_INT, &1i64.to_le_bytes(), 1).unwrap();
        clock.advance_ms(1000);
        assert_eq!(v.increment(b"t", 3).unwrap().value, 3, "an expired integer counts as missing");
    }

    #[test]
    fn decrement_by_the_smallest_integer_wraps_like_subtraction() {
        let (_seg, _v, p) = backends();
        p.store(b"a", TAG_INT, &5i64.to_le_bytes(), 0).unwrap();
        assert_eq!(
            p.decrement(b"a", i64::MIN).unwrap(),
            CounterUpdate { value: 5i64.wrapping_sub(i64::MIN), wrapped: true }
        );
        p.store(b"b", TAG_INT, &(-5i64).to_le_bytes(), 0).unwrap();
        assert_eq!(p.decrement(b"b", i64::MIN).unwrap(), CounterUpdate { value: -5 - i64::MIN, wrapped: false });
        assert_eq!(p.increment(b"c", -5).unwrap().value, p.decrement(b"d", 5).unwrap().value);
    }

    #[test]
    fn increments_racing_with_compaction_that_moves_the_counter_all_count() {
        let (_seg, _v, p) = backends();
        // The counter alone in the middle of the heap: a store of most of the free memory must move it.
        for i in 0..6000 {
            p.store(format!("f{i}").as_bytes(), 2, &[1u8; 1000], 0).unwrap();
            if i == 3000 {
                p.increment(b"ctr", 1).unwrap();
            }
        }
        for i in 0..6000 {
            p.delete(format!("f{i}").as_bytes());
        }
        // Incrementers run until the compactor has moved the counter (or a generous deadline
        // passed), so the increments are still running when a move happens, however the threads are
        // scheduled.
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (moves, done) = std::thread::scope(|s| {
            let incrementers: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        let mut done = 0i64;
                        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                            p.increment(b"ctr", 1).unwrap();
                            done += 1;
                        }
                        done
                    })
                })
                .collect();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
            let mut moves = 0;
            while moves == 0 && std::time::Instant::now() < deadline {
                let before = p.stats().relocations;
                let most = (p.stats().free_bytes * 3 / 4) as usize;
                // A move counts even when the store then fails: a reader still pinned on the counter's old
                // block (an incrementer preempted mid-increment) keeps the hole from being reclaimed at once.
                let stored = p.store(b"big", 2, &vec![2u8; most], 0).is_ok();
                moves += p.stats().relocations - before;
                if stored {
                    p.delete(b"big");
                }
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            (moves, incrementers.into_iter().map(|t| t.join().unwrap()).sum::<i64>())
        });
        assert!(moves > 0, "no store compacted the heap within 30 s, so nothing raced");
        assert_eq!(p.peek(b"ctr").unwrap().as_int(), Some(1 + done));
        p.verify().unwrap();
    }
}
