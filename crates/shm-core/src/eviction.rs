//! Making room for a store that found no free block large enough: reclaiming, purging expired entries,
//! compacting (see `compaction`) and, in a volatile backend, evicting by adjacency. Write lock held
//! throughout; every removal is one journaled unlink, so a writer killed half-way leaves a consistent
//! backend with part of the work done.
//!
//! Eviction is a CLOCK over memory rather than over the index: a walk from the allocator's persistent
//! cursor, in address order, looks for a run of adjacent blocks that are free, expired, or hold entries
//! not read since the walk last passed them (an entry read meanwhile has its referenced bit cleared and
//! ends the run: its second chance). The entries of the first run that covers the request are evicted,
//! and only those: a store evicts at most what it needs plus one block, never more than one run, never
//! the whole cache. Entries a reader may still hold (retired) end a run too. Expired entries are purged
//! rather than evicted: every one a walk meets, plus a small sweep of the index per store under pressure.
//! Before a walk takes a cold entry, a short look past the cursor (`EXPIRED_LOOKAHEAD` blocks) takes a
//! run of expired entries and free space alone when there is one, so that expired entries go first.
//! No step scans the whole index or heap: each is bounded by a multiple of the request's size.
//!
//! Recency is updated by stores as well as by hits (spec §9.2): an entry stored within the last
//! `YOUNG_SHARE`-th of the backend's population of mutations is *young*, and a walk spares it as it
//! spares a read one, within the walk's two passes over the heap. Without it a store that filled the
//! table behind entries read once long ago saw its own values evicted first (the review rv41 case:
//! 63 of 200 new values gone within about 63 stores each). Young spares do not use up the hot budget:
//! young entries are a fixed share of the population, so runs of older ones lie between them.
//!
//! Second chances are limited (`SECOND_CHANCES` blocks, and a walk's first pass over the heap): when
//! most entries are read between two passes of the hand, a large store finds no run of unread ones.
//! Past that a walk still spares *hot* entries, those read on average at least once every
//! `HOT_MUTATIONS` changes of the backend since they were stored (their hit count against the mutation
//! epoch's advance since their version): an entry read between every two stores stays (spec §9.2) while
//! merely warm entries go. Only past a second budget (`HOT_SPARES` entries spared, or two passes over
//! the heap), with hot entries everywhere, does a walk take whatever run comes next, so that a store
//! always makes progress.

use crate::allocator::{self, Block, BlockKind, HeapWalk, Step};
use crate::backend::{Backend, BackendKind, ENTRY_COUNT, EVICTED_BYTES, EVICTIONS, EXPIRATIONS, EXPIRY_HAND};
use crate::entry::{self, EntryHeader};
use std::sync::atomic::Ordering;

/// Buckets a store sweeps for expired entries when memory is short.
const PRESSURE_SWEEP: u64 = 2;
/// Heap bytes a walk inspects beyond one revolution of the heap, as a multiple of the request (at least
/// `MIN_WALK`); compaction's search for a window walks that far too.
pub(crate) const WALK_FACTOR: u64 = 8;
pub(crate) const MIN_WALK: u64 = 64 << 10;
/// Blocks a walk inspects giving second chances; past that it spares only hot entries. Counted in
/// blocks, not bytes: a block costs the walk the same whatever its size, and a byte budget let a large
/// store evict entries read on every request (the FPM load test's sentinels) after a few large blocks.
const SECOND_CHANCES: u64 = 512;
/// Hot entries a walk spares (until the end of its second pass over the heap); past that it takes the
/// next run whatever was read. Hot entries are few in any cache that needs eviction, so a walk rarely
/// spares more than a handful; the budget bounds a store's work when nearly everything is hot (each
/// spare costs the walk one run at most).
const HOT_SPARES: u64 = 64;
/// An entry is hot when it was read at least once per this many mutations of its backend (on average,
/// since it was stored). A store is one mutation and the eviction that makes room for it another, so an
/// entry read between every two stores is well within it.
const HOT_MUTATIONS: u64 = 4;
/// Blocks past the walk cursor that a volatile store under pressure looks through for expired entries
/// (or free space) alone, before it evicts anything live: expired entries go first (spec §8, §9.2).
const EXPIRED_LOOKAHEAD: u64 = 32;
/// After a look ahead found nothing expired, this process's stores skip it for this long (clock ms):
/// a store under steady eviction with nothing expired then pays for one look in many.
const EXPIRED_LOOKAHEAD_PAUSE_MS: u64 = 20;
/// An entry is young (spared like a read one) when it was stored within the last `1/YOUNG_SHARE` of the
/// backend's entry count in mutations: a store under pressure is two mutations (the store and the
/// eviction that made room for it), so that is about the newest eighth of the entries.
const YOUNG_SHARE: u64 = 4;
/// Rounds of making room a store attempts before it gives up (each round does real work).
pub(crate) const MAX_ROUNDS: usize = 4;

/// What a walk may still spare: the mutation epoch and heap span when it started, the age (in
/// mutations) under which an entry is young, and how many hot entries it spared.
struct Chances {
    epoch: u64,
    heap: u64,
    young: u64,
    spared: u64,
}

/// What a walk makes of one block.
pub(crate) enum Walked {
    /// Free space, or (volatile) an expired entry to purge.
    Space(Option<EntryHeader>),
    /// A live entry: it can be evicted (volatile) or moved (compaction).
    Live(EntryHeader),
    /// Cannot be freed now: an entry retired but perhaps still read, a parked or unreadable block.
    Fixed,
}

impl Backend {
    /// Classifies block `b` for a walk at time `now`.
    pub(crate) fn walked(&self, b: &Block, now: u64) -> Walked {
        match b.kind {
            BlockKind::Free => Walked::Space(None),
            BlockKind::Quick | BlockKind::Staged => Walked::Fixed,
            BlockKind::InUse => match EntryHeader::read(&self.0.region, b.start + 8) {
                Some(h) if self.word(h.off + entry::RETIRE_TAG).load(Ordering::Acquire) == 0 => {
                    if self.0.kind == BackendKind::Volatile && h.expires_ms != 0 && h.expired(now) {
                        Walked::Space(Some(h))
                    } else {
                        Walked::Live(h)
                    }
                }
                _ => Walked::Fixed,
            },
        }
    }

    /// Unlinks the indexed entry `h` (found by a walk) and counts it as evicted or (when `expired`)
    /// purged; moves the walk cursor to `cursor` in the same transaction, if given. False when the
    /// entry is not in the index.
    pub(crate) fn remove_walked(&self, h: &EntryHeader, expired: bool, cursor: Option<u64>) -> bool {
        let Some(link) = self.0.index.link_of(h.off, h.hash) else { return false };
        let bytes = self.0.alloc.payload_capacity(h.off) + 8;
        self.unlink_with(link, h, |t| {
            if let Some(at) = cursor.filter(|&at| self.0.alloc.block_at(at).is_some()) {
                self.0.alloc.set_cursor(t, at);
            }
        });
        if expired {
            self.count(EXPIRATIONS, 1);
        } else {
            self.count(EVICTIONS, 1);
            self.count(EVICTED_BYTES, bytes);
        }
        true
    }

    /// Purges expired entries in the next `buckets` buckets of the index (a hand that moves on). Returns
    /// how many.
    fn sweep_expired(&self, now: u64, buckets: u64) -> u64 {
        let index = &self.0.index;
        let hand = self.word(EXPIRY_HAND);
        let start = hand.load(Ordering::Relaxed);
        let mut purged = 0;
        for step in 0..buckets.min(index.bucket_count) {
            let bucket = (start + step) & (index.bucket_count - 1);
            if index.bucket_is_empty(bucket) {
                continue;
            }
            index.for_each_in_bucket(bucket, |link, h| {
                if h.expires_ms != 0 && h.expired(now) {
                    self.unlink(link, h);
                    purged += 1;
                    true
                } else {
                    false
                }
            });
        }
        hand.store(start.wrapping_add(buckets), Ordering::Relaxed);
        if purged > 0 {
            self.count(EXPIRATIONS, purged);
            self.bump_epoch();
        }
        purged
    }

    /// Frees one entry-table slot of a full volatile backend: an expired entry just past the cursor
    /// (purged) if the look ahead finds one, else the first entry the walk meets that is expired
    /// (purged) or not read lately (evicted). False when nothing can go.
    #[cold]
    #[inline(never)]
    pub(crate) fn free_table_slot(&self, now: u64) -> bool {
        if self.looking_ahead(now) {
            let mut ahead = self.0.alloc.walk(u64::MAX);
            while let Some(step) = ahead.next().filter(|_| ahead.blocks <= EXPIRED_LOOKAHEAD) {
                if let Step::Block(b) = step {
                    if let Walked::Space(Some(h)) = self.walked(&b, now) {
                        if self.remove_walked(&h, true, Some(b.start + b.size)) {
                            self.bump_epoch();
                            return true;
                        }
                    }
                }
            }
            self.pause_lookahead(now);
        }
        let alloc = &self.0.alloc;
        let mut chances = self.chances();
        let mut walk = alloc.walk(2 * (alloc.top() - alloc.heap_start()) + MIN_WALK);
        while let Some(step) = walk.next() {
            let Step::Block(b) = step else { continue };
            let victim = match self.walked(&b, now) {
                Walked::Space(Some(h)) => Some((h, true)),
                Walked::Live(h) if self.evictable(&h, &walk, &mut chances) => Some((h, false)),
                _ => None,
            };
            if let Some((h, expired)) = victim {
                if self.remove_walked(&h, expired, Some(b.start + b.size)) {
                    self.bump_epoch();
                    return true;
                }
            }
        }
        false
    }

    /// A walk's budgets, taken when it starts.
    fn chances(&self) -> Chances {
        let heap = self.0.alloc.top() - self.0.alloc.heap_start();
        let young = self.word(ENTRY_COUNT).load(Ordering::Relaxed) / YOUNG_SHARE;
        Chances { epoch: self.epoch(), heap, young, spared: 0 }
    }

    /// Whether walk `walk` (which has just met `h`) may evict entry `h`: until the end of its second pass
    /// over the heap, never when `h` is young; on its first pass and within `SECOND_CHANCES` blocks,
    /// unless `h` was read since a walk last passed it (its second chance); then, for `HOT_SPARES`
    /// entries, unless `h` is hot; past that, always. A walk that comes round again met every entry
    /// once already and cleared the bits it found: it tells hot entries from the rest by their reads,
    /// not their bits.
    fn evictable(&self, h: &EntryHeader, walk: &HeapWalk, chances: &mut Chances) -> bool {
        let within_two_passes = walk.walked <= 2 * chances.heap;
        if within_two_passes && chances.epoch.saturating_sub(h.version) < chances.young {
            return false;
        }
        if walk.walked <= chances.heap && walk.blocks <= SECOND_CHANCES {
            return !self.second_chance(h);
        }
        let spare = within_two_passes && chances.spared < HOT_SPARES && self.hot(h, chances.epoch);
        chances.spared += u64::from(spare);
        !spare
    }

    /// True (and the bit cleared) when entry `h` was read since the walk last passed it.
    fn second_chance(&self, h: &EntryHeader) -> bool {
        let usage = self.word(h.off + entry::USAGE);
        if usage.load(Ordering::Relaxed) & entry::REFERENCED_BIT == 0 {
            return false;
        }
        usage.fetch_and(!entry::REFERENCED_BIT, Ordering::Relaxed);
        true
    }

    /// True when entry `h` was read at least once per `HOT_MUTATIONS` mutations since it was stored (its
    /// version is the epoch of its store; `epoch` is the current one).
    fn hot(&self, h: &EntryHeader, epoch: u64) -> bool {
        let usage = self.word(h.off + entry::USAGE).load(Ordering::Relaxed);
        let hits = (usage & !entry::FROZEN_BIT) / entry::HIT_UNIT;
        hits > 0 && hits.saturating_mul(HOT_MUTATIONS) >= epoch.saturating_sub(h.version)
    }

    /// Leaves the walk cursor at `at` (a block boundary, or the end of the used heap: then its start).
    pub(crate) fn move_cursor(&self, at: u64) {
        let alloc = &self.0.alloc;
        let at = if alloc.block_at(at).is_some() { at } else { alloc.heap_start() };
        let mut t = self.0.journal.begin();
        alloc.set_cursor(&mut t, at);
        t.commit();
    }

    /// One round of making room for `need` payload bytes after an allocation failed. True when it did
    /// something that may let the allocation succeed (the caller retries, a bounded number of times);
    /// false when nothing more can be done.
    pub(crate) fn make_room(&self, need: u64, now: u64) -> bool {
        let Some(size) = allocator::block_size_for(need) else { return false };
        let alloc = &self.0.alloc;
        self.release_dead_staged();
        self.reclaim_all();
        if alloc.fits(size) {
            return true;
        }
        let volatile = self.0.kind == BackendKind::Volatile;
        if volatile && self.sweep_expired(now, PRESSURE_SWEEP) > 0 {
            self.reclaim_all();
            if alloc.fits(size) {
                return true;
            }
        }
        // Memory retired but still held by readers comes back once they move on: when that alone would
        // cover the request, moving or evicting entries would not help now. Pins are aged first, so
        // that only what readers hold through hazards stays held (a stopped reader's pin would
        // otherwise never grow old: failed stores do not move the reclamation epoch).
        if self.0.retired.retired_bytes() >= size {
            self.age_pins();
            self.reclaim_all();
            return alloc.fits(size);
        }
        let done = (alloc.free_bytes() >= size && self.compact(size, now)) || (volatile && self.evict_run(size, now));
        if done {
            self.reclaim_all();
        }
        done
    }

    /// Frees what readers no longer hold and returns parked blocks to the bins, so that neighbours
    /// coalesce.
    fn reclaim_all(&self) {
        self.reclaim();
        self.0.alloc.drain_quick(&self.0.journal);
    }

    /// Whether a store should look ahead for expired entries now (see `EXPIRED_LOOKAHEAD_PAUSE_MS`).
    fn looking_ahead(&self, now: u64) -> bool {
        now >= self.0.no_expired_until.load(Ordering::Relaxed)
    }

    fn pause_lookahead(&self, now: u64) {
        self.0.no_expired_until.store(now + EXPIRED_LOOKAHEAD_PAUSE_MS, Ordering::Relaxed);
    }

    /// [`Backend::look_ahead`], unless this process's last look found nothing expired a moment ago (then
    /// false); a look that finds nothing pauses looking. True when a run was found and emptied.
    fn purge_run(&self, size: u64, now: u64) -> bool {
        if !self.looking_ahead(now) {
            return false;
        }
        let found = self.look_ahead(size, now);
        if !found {
            self.pause_lookahead(now);
        }
        found
    }

    /// Purges the first run of adjacent free or expired blocks within `EXPIRED_LOOKAHEAD` blocks of the
    /// cursor that covers `size` bytes, evicting nothing live. True when one was found and emptied.
    fn look_ahead(&self, size: u64, now: u64) -> bool {
        self.empty_first_run(size, now, u64::MAX, EXPIRED_LOOKAHEAD, |_, _| false)
    }

    /// Evicts the entries of the first run of adjacent free, expired or cold blocks (from the cursor) that
    /// covers `size` bytes, sparing read and hot entries within the walk's budgets (see `evictable`).
    /// A run of expired entries and free space alone just ahead of the cursor is taken first
    /// ([`Backend::purge_run`]). True when a run was found and emptied.
    fn evict_run(&self, size: u64, now: u64) -> bool {
        if self.purge_run(size, now) {
            return true;
        }
        let alloc = &self.0.alloc;
        let mut chances = self.chances();
        let limit = (WALK_FACTOR * size).max(MIN_WALK);
        let budget = limit + 2 * (alloc.top() - alloc.heap_start());
        self.empty_first_run(size, now, budget, u64::MAX, |h, walk| self.evictable(h, walk, &mut chances))
    }

    /// Empties the first run of adjacent blocks from the cursor that covers `size` bytes and holds only
    /// free space, expired entries and live entries `take` accepts, within a walk of `budget` bytes and
    /// `max_blocks` blocks. True when a run was found and emptied.
    fn empty_first_run(
        &self,
        size: u64,
        now: u64,
        budget: u64,
        max_blocks: u64,
        mut take: impl FnMut(&EntryHeader, &HeapWalk) -> bool,
    ) -> bool {
        let alloc = &self.0.alloc;
        let mut run_bytes = 0u64;
        let mut run: Vec<(EntryHeader, bool)> = Vec::new();
        let mut walk = alloc.walk(budget);
        while let Some(step) = walk.next().filter(|_| walk.blocks <= max_blocks) {
            let b = match step {
                Step::Block(b) => b,
                // Never-used space above the end of the used heap extends a run that reaches it.
                Step::End if run_bytes + alloc.untouched() >= size => return self.evict(&run, alloc.heap_start()),
                Step::End => {
                    run.clear();
                    run_bytes = 0;
                    continue;
                }
            };
            match self.walked(&b, now) {
                Walked::Space(expired) => run.extend(expired.map(|h| (h, true))),
                Walked::Live(h) if take(&h, &walk) => run.push((h, false)),
                Walked::Live(_) | Walked::Fixed => {
                    run.clear();
                    run_bytes = 0;
                    continue;
                }
            }
            run_bytes += b.size;
            if run_bytes >= size {
                return self.evict(&run, b.start + b.size);
            }
        }
        false
    }

    /// Removes the entries of a run and leaves the cursor at `next` (just past the run).
    fn evict(&self, run: &[(EntryHeader, bool)], next: u64) -> bool {
        for (h, expired) in run {
            self.remove_walked(h, *expired, None);
        }
        self.move_cursor(next);
        self.bump_epoch();
        true
    }
}
