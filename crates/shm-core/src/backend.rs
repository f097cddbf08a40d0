//! One backend: a self-contained key/value store in one region of a segment (volatile or pinned).
//!
//! Region layout (all offsets relative to the region start; see docs/LAYOUT.md):
//! ```text
//! 0      header words (magic, layout version, kind, sizes, epoch, counters)   256 bytes
//! 256    write lock (owner word, `lock`; a dead owner is taken over)            64
//! 320    reservation lock                                                       64
//! 384    undo journal                                                           JOURNAL_BYTES
//! ..     allocator state                                                        STATE_BYTES
//! ..     staging table (large values being copied outside the lock)            STAGING_BYTES
//! 8192   reader slots        slot_count x 64
//! ..     reservation table   reservation_count x 64
//! ..     bucket heads        bucket_count x 8 (chained hash index)
//! ..     heap                entries, managed by the allocator
//! ```
//! Concurrency: writers serialise on the write lock and change structure only through journaled
//! transactions (counts are plain words, recounted after an undo); readers are lock-free (a revocable
//! pin for the walk, a hazard for the entry held, see `reclaim`). A reader follows bucket and `next`
//! links published with Release stores, and entries never change after publication (an integer's value
//! word excepted, rewritten by one atomic operation, see `integer`), so a reader sees either the old or
//! the new entry, never a mix. Making room (eviction, compaction) is in `eviction` and `compaction`;
//! large values are copied outside the lock (`staging`). A striped or reader-writer lock was not chosen because
//! glibc has no robust rwlock (a dead reader would wedge writers) and because lock-free readers keep the
//! hot read path at a handful of loads.

use crate::allocator::{self, SizeClassAllocator};
use crate::clock::{self, Clock, MonotonicClock};
use crate::entry::{self, EntryHeader, NewEntry};
use crate::eviction;
use crate::index::{EntryInfo, Index};
use crate::integer::{self, IntUpdate};
use crate::journal::{self, Journal, Recovery, Txn};
use crate::lock::{MutexGuard, RobustMutex, MUTEX_BYTES};
use crate::process;
use crate::reclaim::{self, Hold, NoHold, ReaderSlots, RetireList, Walk};
use crate::region::Region;
use crate::reservation::{self, RequestId, ReservationTable};
use crate::staging;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub const BACKEND_MAGIC: u64 = u64::from_le_bytes(*b"SCBACKND");
pub const LAYOUT_VERSION: u64 = 6;
pub use crate::entry::TAG_INT;

// Header words.
const MAGIC: u64 = 0;
const VERSION_KIND: u64 = 8;
const REGION_SIZE: u64 = 16;
const EPOCH: u64 = 24;
const INSTANCE: u64 = 32;
const SLOTS_HWM: u64 = 40;
const RES_ACTIVE: u64 = 48;
const RES_TOMBSTONES: u64 = 56;
pub(crate) const ENTRY_COUNT: u64 = 64;
const RETIRE_HEAD: u64 = 72;
const RETIRE_TAIL: u64 = 80;
const RETIRED_BYTES: u64 = 88;
/// The bucket where the next sweep for expired entries starts (a hint).
pub(crate) const EXPIRY_HAND: u64 = 96;
/// Least interval (clock ms) between two drops of stale reservations by one process's writers.
const STALE_SWEEP_MS: u64 = 1000;
const HITS: u64 = 104;
const MISSES: u64 = 112;
const INSERTS: u64 = 120;
pub(crate) const EVICTIONS: u64 = 128;
pub(crate) const EXPIRATIONS: u64 = 136;
const RECOVERIES: u64 = 144;
const STALL_US: u64 = 152;
/// Set by the journal when it undoes a change (see `Journal::take_undone`).
const UNDONE: u64 = 160;
const RETIRED_COUNT: u64 = 168;
/// Bytes of the blocks evicted entries occupied (with `EVICTIONS`: how much each eviction freed).
pub(crate) const EVICTED_BYTES: u64 = 176;
/// Entries moved by compaction.
pub(crate) const RELOCATIONS: u64 = 184;
/// Bumped before every batch of frees (see `reclaim`: readers without a slot check it).
const FREE_GENERATION: u64 = 192;
/// Test hook: microseconds the next store copying outside the lock stalls in the middle of its copy.
pub(crate) const STALL_COPY_US: u64 = 200;
/// Set (never cleared) once the binding announces a store in its internal key space (see
/// [`Backend::note_internal_store`]).
const INTERNAL_STORES: u64 = 208;
/// The reclamation epoch: what retired entries are tagged with and reader walks pin (see `reclaim`).
/// Only the write lock holder moves it, after the unlinks it published.
const RECLAIM_EPOCH: u64 = 216;
const WRITE_LOCK: u64 = 256;
const RES_LOCK: u64 = WRITE_LOCK + MUTEX_BYTES;
const JOURNAL: u64 = RES_LOCK + MUTEX_BYTES;
const ALLOC_STATE: u64 = JOURNAL + journal::JOURNAL_BYTES;
/// The staging table (see `staging`).
pub(crate) const STAGING: u64 = (ALLOC_STATE + allocator::STATE_BYTES).next_multiple_of(64);
const FIXED_BYTES: u64 = 8192;
const _: () = assert!(STAGING + staging::STAGING_BYTES <= FIXED_BYTES);

/// One entry-table slot per this many bytes of backend (spec: 32,768 entries at 8 MiB).
pub const BYTES_PER_ENTRY: u64 = 256;
const READER_SLOTS: u64 = 256;
/// Times a read starts again after being disturbed before it answers "not found" (see `lookup`).
const MAX_READ_ATTEMPTS: usize = 1000;
/// Walks that hold nothing try this many times without a pin first (see `read_unheld`).
const OPTIMISTIC_READS: usize = 4;
/// Retired entries that trigger a reclamation pass (see `Backend::reclaim_in_batches`).
const RECLAIM_BATCH: u64 = 64;
/// Smallest region a backend can be formatted in.
pub const MIN_REGION: u64 = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// Entries may expire or be evicted under memory pressure.
    Volatile,
    /// Entries are never evicted; a store that does not fit fails.
    Pinned,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// Key plus value are larger than the whole payload area.
    TooLarge,
    /// Not enough payload memory (pinned), or eviction could not make room (volatile).
    OutOfMemory,
    /// No entry-table slot left (pinned).
    TableFull,
    /// The write lock could not be taken (unrecoverable mutex).
    Lock,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CounterError {
    /// The existing entry is not an integer.
    NotInteger,
    Store(StoreError),
}

/// Result of `increment`/`decrement`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterUpdate {
    pub value: i64,
    /// The result wrapped around (two's complement); the wrapped value was stored.
    pub wrapped: bool,
}

/// Figures of one backend.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BackendStats {
    pub entries: u64,
    pub max_entries: u64,
    pub hits: u64,
    pub misses: u64,
    pub inserts: u64,
    pub evictions: u64,
    /// Heap bytes the evicted entries occupied.
    pub evicted_bytes: u64,
    /// Entries moved by compaction (to open a contiguous hole for a value that fits in the free memory).
    pub relocations: u64,
    pub expirations: u64,
    pub used_bytes: u64,
    pub free_bytes: u64,
    pub largest_free: u64,
    pub capacity_bytes: u64,
    pub retired_bytes: u64,
    pub recoveries: u64,
    /// Blocks allocated to stores still copying their value outside the write lock (or left by stores
    /// whose process died doing so, until memory runs short).
    pub staged_blocks: u64,
}

impl BackendStats {
    /// `1 - largest_free / free_bytes`, 0.0 when nothing is free.
    pub fn fragmentation(&self) -> f64 {
        if self.free_bytes == 0 {
            0.0
        } else {
            1.0 - self.largest_free as f64 / self.free_bytes as f64
        }
    }
}

/// The fixed geometry of a backend, derived from its region size.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    slots: u64,
    reservations: u64,
    reservation_count: u64,
    buckets: u64,
    bucket_count: u64,
    max_entries: u64,
    heap_start: u64,
    /// Retired bytes at which a store runs reclamation (see `Backend::reclaim_in_batches`).
    collect_bytes: u64,
}

impl Geometry {
    fn of(size: u64) -> Geometry {
        let max_entries = (size / BYTES_PER_ENTRY).max(64);
        let bucket_count = max_entries.next_power_of_two();
        let reservation_count = (max_entries / 32).clamp(256, 4096);
        let slots = FIXED_BYTES;
        let reservations = slots + READER_SLOTS * reclaim::SLOT_BYTES;
        let buckets = reservations + reservation_count * reservation::SLOT_BYTES;
        let heap_start = (buckets + bucket_count * 8 + 15) & !15;
        let collect_bytes = ((size - heap_start) / 256).max(16 << 10);
        Geometry {
            slots,
            reservations,
            reservation_count,
            buckets,
            bucket_count,
            max_entries,
            heap_start,
            collect_bytes,
        }
    }
}

pub(crate) struct Inner {
    pub(crate) region: Region,
    pub(crate) kind: BackendKind,
    geo: Geometry,
    pub(crate) index: Index,
    pub(crate) alloc: SizeClassAllocator,
    pub(crate) journal: Journal,
    write_lock: RobustMutex,
    pub(crate) readers: ReaderSlots,
    pub(crate) retired: RetireList,
    pub(crate) reservations: ReservationTable,
    pub(crate) clock: Arc<dyn Clock>,
    /// This process's hint (clock ms) that eviction need not look ahead for expired entries before
    /// then: the last look found none (see `eviction::EXPIRED_LOOKAHEAD`).
    pub(crate) no_expired_until: AtomicU64,
    /// This process's next time (clock ms) to drop stale reservations before a write (see
    /// [`Backend::reserved_by_other`]).
    stale_sweep_after: AtomicU64,
    /// Keeps the mapping alive while any handle exists.
    _mapping: Arc<dyn Send + Sync>,
}

/// A handle to one backend. Cheap to clone; usable from any thread.
#[derive(Clone)]
pub struct Backend(pub(crate) Arc<Inner>);

#[derive(Debug, PartialEq, Eq)]
pub enum OpenError {
    /// No backend magic at the region start.
    Magic,
    /// A backend of another layout version.
    Version(u64),
    /// The region is smaller than a backend or than its recorded size.
    Size,
}

fn random_u64() -> u64 {
    let mut v = 0u64;
    // SAFETY: getrandom writes at most 8 bytes into `v`.
    let n = unsafe { libc::getrandom((&mut v as *mut u64).cast(), 8, 0) };
    if n != 8 {
        v = clock::MonotonicClock.now_ms() ^ (process::current().pid as u64) << 40;
    }
    v | 1
}

impl Backend {
    /// Formats a new backend in `region` (zero-filled, fresh mapping, invisible to others yet). Only the
    /// header is written: untouched pages of the index and heap stay untouched.
    pub(crate) fn format(region: Region, kind: BackendKind) -> Result<(), OpenError> {
        if region.len() < MIN_REGION {
            return Err(OpenError::Size);
        }
        let geo = Geometry::of(region.len());
        let set = |off: u64, v: u64| region.word(off).store(v, Ordering::Relaxed);
        set(VERSION_KIND, LAYOUT_VERSION | (kind as u64) << 32);
        set(REGION_SIZE, region.len());
        set(EPOCH, 1);
        set(RECLAIM_EPOCH, 1);
        set(INSTANCE, random_u64());
        // SAFETY: the lock words are inside the fixed header of a region nobody else can see yet.
        unsafe {
            RobustMutex::init(region.ptr(WRITE_LOCK, MUTEX_BYTES));
            RobustMutex::init(region.ptr(RES_LOCK, MUTEX_BYTES));
        }
        SizeClassAllocator::new(region, ALLOC_STATE, geo.heap_start, region.len()).format();
        region.word(MAGIC).store(BACKEND_MAGIC, Ordering::Release);
        Ok(())
    }

    /// Attaches to a formatted backend. `mapping` is kept alive by the handle.
    pub(crate) fn attach(region: Region, mapping: Arc<dyn Send + Sync>) -> Result<Backend, OpenError> {
        if region.len() < MIN_REGION || region.word(MAGIC).load(Ordering::Acquire) != BACKEND_MAGIC {
            return Err(OpenError::Magic);
        }
        let vk = region.word(VERSION_KIND).load(Ordering::Acquire);
        if vk & 0xffff_ffff != LAYOUT_VERSION {
            return Err(OpenError::Version(vk & 0xffff_ffff));
        }
        if region.word(REGION_SIZE).load(Ordering::Acquire) != region.len() {
            return Err(OpenError::Size);
        }
        let kind = if vk >> 32 == BackendKind::Pinned as u64 { BackendKind::Pinned } else { BackendKind::Volatile };
        let geo = Geometry::of(region.len());
        // SAFETY: both mutexes were initialised by `format` inside this mapped region.
        let (write_lock, res_lock) = unsafe {
            (RobustMutex::at(region.ptr(WRITE_LOCK, MUTEX_BYTES)), RobustMutex::at(region.ptr(RES_LOCK, MUTEX_BYTES)))
        };
        process::install_fork_handler();
        Ok(Backend(Arc::new(Inner {
            region,
            kind,
            geo,
            index: Index { region, buckets: geo.buckets, bucket_count: geo.bucket_count, max_entries: geo.max_entries },
            alloc: SizeClassAllocator::new(region, ALLOC_STATE, geo.heap_start, region.len()),
            journal: Journal::new(region, JOURNAL, UNDONE),
            write_lock,
            readers: ReaderSlots {
                region,
                slots: geo.slots,
                count: READER_SLOTS,
                high_water: SLOTS_HWM,
                instance: INSTANCE,
                free_generation: FREE_GENERATION,
            },
            retired: RetireList {
                region,
                head: RETIRE_HEAD,
                tail: RETIRE_TAIL,
                bytes: RETIRED_BYTES,
                count: RETIRED_COUNT,
            },
            reservations: ReservationTable {
                region,
                slots: geo.reservations,
                count: geo.reservation_count,
                active: RES_ACTIVE,
                tombstones: RES_TOMBSTONES,
                lock: res_lock,
            },
            clock: Arc::new(MonotonicClock),
            no_expired_until: AtomicU64::new(0),
            stale_sweep_after: AtomicU64::new(0),
            _mapping: mapping,
        })))
    }

    /// A handle on the same backend that reads time from `clock` (tests).
    pub fn with_clock(&self, clock: Arc<dyn Clock>) -> Backend {
        let i = &self.0;
        Backend(Arc::new(Inner {
            region: i.region,
            kind: i.kind,
            geo: i.geo,
            index: i.index,
            alloc: i.alloc,
            journal: i.journal,
            write_lock: i.write_lock,
            readers: i.readers,
            retired: i.retired,
            reservations: i.reservations,
            clock,
            no_expired_until: AtomicU64::new(0),
            stale_sweep_after: AtomicU64::new(0),
            _mapping: i._mapping.clone(),
        }))
    }

    pub fn kind(&self) -> BackendKind {
        self.0.kind
    }

    /// Random id chosen when the backend was formatted: tells this backend from one mapped later at
    /// the same address (process-local caches key on it).
    #[inline]
    pub fn instance_id(&self) -> u64 {
        self.word(INSTANCE).load(Ordering::Relaxed)
    }

    /// Size of the backend's region in bytes.
    pub fn capacity_bytes(&self) -> u64 {
        self.0.region.len()
    }

    #[inline]
    pub(crate) fn word(&self, off: u64) -> &AtomicU64 {
        // The header words are constants below `MIN_REGION`, and every backend is at least that large
        // (`attach` checks): after inlining, their range check folds away.
        if off.is_multiple_of(8) && off < MIN_REGION {
            // SAFETY: 8-aligned and inside the region (`attach` refused regions under `MIN_REGION`).
            return unsafe { self.0.region.word_unchecked(off) };
        }
        self.0.region.word(off)
    }

    /// The mutation epoch: starts at 1, bumped by every change. One atomic load. A store that succeeds,
    /// and a delete that removes an entry, move it at least once (callers that count the moves made
    /// while they wrote rely on that: see the binding's `member_search`).
    #[inline]
    pub fn epoch(&self) -> u64 {
        self.word(EPOCH).load(Ordering::Acquire)
    }

    /// Moves the mutation epoch on, and the reclamation epoch with it (write lock held, every unlink of
    /// the holder published: no transaction open). See [`Backend::bump_mutation_epoch`] and `reclaim`.
    pub(crate) fn bump_epoch(&self) {
        self.bump_mutation_epoch();
        self.advance_reclaim_epoch(1);
    }

    /// Moves the reclamation epoch `by` on (write lock held, no transaction open). Only lock holders
    /// write it: a load and a Release store (no locked instruction). The Release orders the holder's
    /// unlinks before the new value, for a reader that pins it (see `reclaim`).
    #[inline(always)]
    fn advance_reclaim_epoch(&self, by: u64) {
        let reclaim = self.word(RECLAIM_EPOCH);
        reclaim.store(reclaim.load(Ordering::Relaxed) + by, Ordering::Release);
    }

    /// Moves the mutation epoch on, alone: what an in-place integer update does, with or without the
    /// write lock (it unlinks nothing). An atomic increment, as lock-free updates move it concurrently.
    /// Release orders every change made before it, which is what a reader that sees the new epoch relies
    /// on.
    pub(crate) fn bump_mutation_epoch(&self) {
        self.word(EPOCH).fetch_add(1, Ordering::AcqRel);
    }

    /// Moves the reclamation epoch past every pin taken so far, so that the next reclamation pass
    /// revokes them all (write lock held, no transaction open). For an allocation that failed while
    /// retired memory is held back by pins: the epoch moves only with the lock holders' changes, so a
    /// reader stopped in the middle of a walk (SIGSTOP, a debugger) would otherwise hold it back for as
    /// long as stores keep failing. A reader still walking finds its pin revoked and starts again;
    /// what readers hold through hazards stays held.
    pub(crate) fn age_pins(&self) {
        self.advance_reclaim_epoch(reclaim::STALE_PIN_EPOCHS + 1);
    }

    /// The reclamation epoch (write lock held: only the holder moves it).
    fn reclaim_epoch(&self) -> u64 {
        self.word(RECLAIM_EPOCH).load(Ordering::Relaxed)
    }

    /// Starts a walk of the index under this thread's pin of the reclamation epoch (see `reclaim`).
    #[inline]
    pub(crate) fn begin_walk(&self) -> Option<Walk<'_>> {
        self.0.readers.begin_walk(self.word(RECLAIM_EPOCH))
    }

    /// Records, before the caller stores it, that an entry other keys' deletes may have to find is about
    /// to exist in this backend (the binding's attribute state, which `delete(ClassName)` removes). The
    /// mark stays for the backend's life (`clear()` keeps it: a request may still act on such state it
    /// read before a clear). One load when already set.
    pub fn note_internal_store(&self) {
        let word = self.word(INTERNAL_STORES);
        if word.load(Ordering::Relaxed) == 0 {
            word.store(1, Ordering::SeqCst);
        }
    }

    /// False while no [`Backend::note_internal_store`] has happened in this backend: no such entry exists,
    /// nor has one existed, so a delete need not look for any.
    #[inline]
    pub fn internal_stores_noted(&self) -> bool {
        self.word(INTERNAL_STORES).load(Ordering::SeqCst) != 0
    }

    /// Retired bytes that may wait for the next reclamation pass although no reader holds them: stores
    /// reclaim in batches of this size (an allocation that fails reclaims at once).
    pub fn reclaim_batch_bytes(&self) -> u64 {
        self.0.geo.collect_bytes
    }

    /// Largest value a store of `key_len` bytes of key can ever fit.
    pub fn max_value_len(&self, key_len: usize) -> u64 {
        self.0.alloc.max_payload().saturating_sub(entry::value_start(key_len as u64))
    }

    // ----- reads -------------------------------------------------------------------------------------

    /// The entry of `key` and the link word that points at it. Write lock held (readers walk with
    /// `Index::find`, which checks every header).
    #[inline]
    pub(crate) fn find(&self, key: &[u8], hash: u64) -> Option<(u64, EntryHeader)> {
        self.0.index.find_locked(key, hash)
    }

    /// Finds `key` for a reader, without locks: a walk under this thread's pin, then a hold on the
    /// entry found (see `reclaim`). With every hazard word of the thread in use, or without a reader
    /// slot, the value is copied out instead. A read that keeps being disturbed (its pin revoked, or
    /// memory freed under a slot-less copy, `MAX_READ_ATTEMPTS` times in a row) answers "not found":
    /// readers never wait.
    fn lookup(&self, key: &[u8], count: Counting) -> Option<EntryRef<'_>> {
        let hash = entry::key_hash(key);
        for _ in 0..MAX_READ_ATTEMPTS {
            let Some(walk) = self.begin_walk() else {
                return self.lookup_without_slot(key, hash, count);
            };
            let Some((_, header)) = self.0.index.find(key, hash).filter(|(_, h)| self.live(h)) else {
                if walk.end() {
                    return self.counted(None, count);
                }
                continue;
            };
            #[cfg(test)]
            crate::backend_tests::mid_walk();
            match walk.hold(header.off) {
                Ok(hold) => {
                    let int = header.is_int().then(|| header.int_value(&self.0.region).to_le_bytes());
                    let found = EntryRef { backend: self, header, int, held: Held::Hazard(hold) };
                    return self.counted(Some(found), count);
                }
                Err(NoHold::Revoked) => {}
                Err(NoHold::Full(walk)) => {
                    let found = self.copied(header);
                    if walk.end() {
                        return self.counted(Some(found), count);
                    }
                }
            }
        }
        None
    }

    /// [`Backend::lookup`] for a thread without a reader slot: finds the entry and copies its value
    /// out, then checks that nothing was freed meanwhile (the free generation did not move).
    fn lookup_without_slot(&self, key: &[u8], hash: u64, count: Counting) -> Option<EntryRef<'_>> {
        for _ in 0..MAX_READ_ATTEMPTS {
            let generation = self.0.readers.free_generation();
            let found = self.0.index.find(key, hash).filter(|(_, h)| self.live(h)).map(|(_, h)| self.copied(h));
            std::sync::atomic::fence(Ordering::Acquire);
            if self.0.readers.free_generation() == generation {
                return self.counted(found, count);
            }
        }
        None
    }

    /// A copy of entry `h`'s value read through atomic loads (sound even if the entry is freed meanwhile;
    /// the caller then discards it).
    fn copied(&self, h: EntryHeader) -> EntryRef<'_> {
        let region = &self.0.region;
        let mut value = Vec::with_capacity(h.value_len.next_multiple_of(8) as usize);
        let start = h.value_off();
        for at in (0..h.value_len).step_by(8) {
            value.extend_from_slice(&region.word(start + at).load(Ordering::Relaxed).to_ne_bytes());
        }
        value.truncate(h.value_len as usize);
        let int = h.is_int().then(|| value[..8].try_into().expect("8 bytes"));
        EntryRef { backend: self, header: h, int, held: Held::Copy(value) }
    }

    /// Counts a lookup's outcome: a hit or miss in the backend's figures, and on a held entry its
    /// recency bit and hit count (a copied entry may be gone already, so its words are not touched).
    fn counted<'a>(&'a self, found: Option<EntryRef<'a>>, count: Counting) -> Option<EntryRef<'a>> {
        if count == Counting::StatsAndEntry {
            self.word(if found.is_some() { HITS } else { MISSES }).fetch_add(1, Ordering::Relaxed);
        }
        if let Some(EntryRef { header, held: Held::Hazard(_), .. }) = &found {
            let usage = self.word(header.off + entry::USAGE);
            if usage.load(Ordering::Relaxed) & entry::REFERENCED_BIT == 0 {
                usage.fetch_or(entry::REFERENCED_BIT, Ordering::Relaxed);
            }
            if count != Counting::Nothing {
                usage.fetch_add(entry::HIT_UNIT, Ordering::Relaxed);
            }
        }
        found
    }

    /// True unless `h` has expired (reads the clock only for entries with a TTL).
    pub(crate) fn live(&self, h: &EntryHeader) -> bool {
        h.expires_ms == 0 || !h.expired(self.0.clock.now_ms())
    }

    /// Looks `key` up, counting a hit or a miss in the backend's figures and a hit on the entry.
    /// Expired entries are misses.
    pub fn get(&self, key: &[u8]) -> Option<EntryRef<'_>> {
        self.lookup(key, Counting::StatsAndEntry)
    }

    /// A fetch whose hit or miss the caller counts itself (batched, see [`Backend::record_lookups`]):
    /// counts a hit on the entry only.
    pub fn fetch(&self, key: &[u8]) -> Option<EntryRef<'_>> {
        self.lookup(key, Counting::Entry)
    }

    /// Looks `key` up without counting (`getCacheStoreType()`, the admin API); still marks it recently used.
    pub fn peek(&self, key: &[u8]) -> Option<EntryRef<'_>> {
        self.lookup(key, Counting::Nothing)
    }

    /// Whether `key` has a live entry (`has()`): the walk alone, with nothing held, counted or marked
    /// recently used. A presence test does not use the value (`apcu_exists()` does not count it either).
    /// A walk disturbed `MAX_READ_ATTEMPTS` times in a row answers false, as a lookup does.
    pub fn contains(&self, key: &[u8]) -> bool {
        self.contains_until(key).is_some()
    }

    /// [`Backend::contains`] with the live entry's expiry (0: none), for a caller that remembers the
    /// answer until then; `None` for no live entry (or a walk disturbed too often).
    pub fn contains_until(&self, key: &[u8]) -> Option<u64> {
        self.read_unheld(key, entry::key_hash(key), |h| self.live(h).then_some(h.expires_ms)).flatten().flatten()
    }

    /// Whether the index may hold an entry for `key`, live or expired (what [`Backend::delete`] would
    /// remove): the walk alone, over the chain's hash words, nothing held or counted. Another key's entry
    /// with the same 64-bit hash, or a walk disturbed `MAX_READ_ATTEMPTS` times in a row, answers true
    /// (the caller then deletes, which looks again).
    pub fn holds(&self, key: &[u8]) -> bool {
        self.walk_unheld(|| self.0.index.may_hold(entry::key_hash(key))) != Some(false)
    }

    /// The version of `key`'s live entry (as [`EntryRef::version`]), from a walk alone, with nothing
    /// held, counted or marked recently used: for bookkeeping entries a lookup would only ask for their
    /// version. `None` for no live entry, or when walks kept being disturbed.
    pub fn version_of(&self, key: &[u8]) -> Option<u64> {
        let region = &self.0.region;
        let version = |h: &EntryHeader| {
            if h.is_int() {
                // Read during the walk: a garbage header (memory freed under it) is bounds-checked first.
                region.contains(h.value_off(), 8).then(|| integer::int_version(h.version, h.int_value(region)))
            } else {
                Some(h.version)
            }
        };
        self.read_unheld(key, entry::key_hash(key), |h| self.live(h).then(|| version(h)).flatten()).flatten().flatten()
    }

    /// What `read` makes of the index's entry for `key` (`Some(None)`: no entry), from a walk that holds
    /// nothing: `read` runs inside the walk, and its answer is kept only if nothing the walk read was
    /// freed meanwhile. `None` when walks kept being disturbed (`MAX_READ_ATTEMPTS` times in a row).
    ///
    /// The first `OPTIMISTIC_READS` attempts take no pin: they check the free generation, as a thread
    /// without a reader slot does, which costs two plain loads instead of two locked read-modify-writes
    /// and the slot lookup. Frees come in batches, so such a walk is rarely disturbed; one that keeps
    /// being disturbed (a reclaimer freeing all the time) goes on under a pin, which holds frees back.
    fn read_unheld<T>(&self, key: &[u8], hash: u64, read: impl Fn(&EntryHeader) -> T) -> Option<Option<T>> {
        self.walk_unheld(|| self.0.index.find(key, hash).map(|(_, h)| read(&h)))
    }

    /// The answer of `found`, a walk of the index that holds nothing, kept only if nothing it read was
    /// freed meanwhile (see [`Backend::read_unheld`]).
    fn walk_unheld<T>(&self, found: impl Fn() -> T) -> Option<T> {
        for attempt in 0..MAX_READ_ATTEMPTS {
            let walk = if attempt < OPTIMISTIC_READS { None } else { self.begin_walk() };
            match walk {
                Some(walk) => {
                    let answer = found();
                    if walk.end() {
                        return Some(answer);
                    }
                }
                // Without a pin: the free generation did not move, so nothing the walk read was freed
                // under it (see `lookup_without_slot`).
                None => {
                    let generation = self.0.readers.free_generation();
                    let answer = found();
                    std::sync::atomic::fence(Ordering::Acquire);
                    if self.0.readers.free_generation() == generation {
                        return Some(answer);
                    }
                }
            }
        }
        None
    }

    /// Adds hits and misses counted elsewhere (batched per process by the binding).
    pub fn record_lookups(&self, hits: u64, misses: u64) {
        if hits > 0 {
            self.word(HITS).fetch_add(hits, Ordering::Relaxed);
        }
        if misses > 0 {
            self.word(MISSES).fetch_add(misses, Ordering::Relaxed);
        }
    }

    // ----- writes ------------------------------------------------------------------------------------

    /// Takes the write lock, repairing what a dead previous holder left.
    #[inline(always)]
    pub(crate) fn lock(&self) -> Result<MutexGuard<'_>, StoreError> {
        let g = self.0.write_lock.lock().map_err(|_| StoreError::Lock)?;
        if g.previous_owner_died() {
            self.recover();
        }
        if self.0.journal.take_undone() {
            self.recount();
        }
        Ok(g)
    }

    /// Repairs what a writer that died holding the lock left (write lock held): the undo journal (the
    /// caller then recounts if it undid anything). Bumps the epoch so every cached lookup is revalidated
    /// (an integer rewritten in place may not have announced its change).
    #[cold]
    fn recover(&self) {
        if self.0.journal.recover() != Recovery::Clean {
            self.count(RECOVERIES, 1);
        }
        self.bump_epoch();
    }

    /// Recomputes the words writers keep without journaling them (entry count, retired bytes, the
    /// allocator's used and free bytes) from the structures themselves. Only after a change was undone
    /// (a writer died in the middle of a transaction): a walk of the index, the retire list and the heap.
    #[cold]
    fn recount(&self) {
        let mut entries = 0;
        for bucket in 0..self.0.index.bucket_count {
            if !self.0.index.bucket_is_empty(bucket) {
                self.0.index.for_each_in_bucket(bucket, |_, _| {
                    entries += 1;
                    false
                });
            }
        }
        self.word(ENTRY_COUNT).store(entries, Ordering::Release);
        self.0.retired.recount(&self.0.alloc);
        self.0.alloc.recount();
    }

    /// Test hook: the next store by any process sleeps `micros` while holding the write lock, in the middle
    /// of its transaction (block allocated and filled, the entry it replaces retired and tagged, not yet
    /// published).
    pub fn stall_next_write(&self, micros: u64) {
        self.word(STALL_US).store(micros, Ordering::Release);
    }

    /// Test hook: the next store of a large value (copied outside the write lock, see `staging`) by any
    /// process sleeps `micros` in the middle of its copy, its block allocated and staged.
    pub fn stall_next_copy(&self, micros: u64) {
        self.word(STALL_COPY_US).store(micros, Ordering::Release);
    }

    /// Unlinks entry `h` (whose predecessor link is `link`) and retires it, in one transaction.
    #[inline]
    pub(crate) fn unlink(&self, link: u64, h: &EntryHeader) {
        self.unlink_with(link, h, |_| {});
    }

    /// [`Backend::unlink`], with `also` adding writes of its own to the same transaction.
    #[inline(always)]
    pub(crate) fn unlink_with(&self, link: u64, h: &EntryHeader, also: impl FnOnce(&mut Txn)) {
        let mut t = self.0.journal.begin();
        let next = t.get(h.off + entry::NEXT);
        self.retire_entry(&mut t, h);
        also(&mut t);
        self.add_entries(-1);
        t.publish(link, next);
    }

    /// Adjusts the entry count (write lock held; not journaled, see [`Backend::recount`]).
    fn add_entries(&self, delta: i64) {
        let count = self.word(ENTRY_COUNT);
        count.store(count.load(Ordering::Relaxed).saturating_add_signed(delta), Ordering::Relaxed);
    }

    /// Adds one to a statistics word that only lock holders write (no atomic read-modify-write needed).
    pub(crate) fn count(&self, word: u64, n: u64) {
        let w = self.word(word);
        w.store(w.load(Ordering::Relaxed) + n, Ordering::Relaxed);
    }

    /// Puts entry `h` (unlinked by the same transaction) on the retire list, tagged with the reclamation
    /// epoch, which does not move before the unlink is published (see `reclaim`).
    #[inline(always)]
    pub(crate) fn retire_entry(&self, t: &mut Txn, h: &EntryHeader) {
        self.0.retired.retire(t, &self.0.alloc, h, self.reclaim_epoch());
    }

    /// Frees retired entries no reader can still see. Write lock held. Out of line: stores and deletes
    /// call it once per batch.
    #[inline(never)]
    pub(crate) fn reclaim(&self) {
        self.repair_dead_updates();
        self.0.retired.collect(&self.0.journal, &self.0.alloc, &self.0.readers, self.reclaim_epoch());
    }

    /// Reclaims once enough has been retired to be worth a pass over the reader slots: stores amortise
    /// the pass instead of paying for it each time (an allocation that fails reclaims at once). Small
    /// batches keep the freed blocks on the allocator's quick lists.
    #[inline]
    fn reclaim_in_batches(&self) {
        if self.0.retired.retired_count() >= RECLAIM_BATCH
            || self.0.retired.retired_bytes() >= self.reclaim_batch_bytes()
        {
            self.reclaim();
        }
    }

    /// Stores `value` under `key`, replacing any previous entry and its TTL. `ttl_secs` is ignored by a
    /// pinned backend. The value is copied under the write lock; readers are never blocked. An integer
    /// stored over an integer entry without a TTL is written in place (see [`Backend::increment`]).
    ///
    /// The steps of a store and of a delete under the lock (look-up, allocation from a quick list,
    /// entry write, retirement, the journal's logged writes) are `#[inline(always)]`, their rare paths
    /// out of line: each is one frame instead of a chain of calls that each saved and restored
    /// registers (a `set()` then `delete()` pair: 2391 -> 2167 instructions, callgrind, and about
    /// 155 -> 128 ns).
    pub fn store(&self, key: &[u8], tag: u16, value: &[u8], ttl_secs: u64) -> Result<(), StoreError> {
        let hash = entry::key_hash(key);
        let ttl = if self.0.kind == BackendKind::Pinned { 0 } else { ttl_secs };
        let int = (tag == TAG_INT && ttl == 0)
            .then(|| value.try_into().ok().map(i64::from_le_bytes).map(IntUpdate::Set))
            .flatten();
        // In place before the size checks: an integer entry of this key fits by definition.
        if let Some(Some(Ok(_))) = int.map(|update| self.update_int_lock_free(key, hash, update)) {
            return Ok(());
        }
        let need = entry::entry_bytes(key.len() as u64, value.len() as u64).ok_or(StoreError::TooLarge)?;
        if need > self.0.alloc.max_payload() || key.len() > u32::MAX as usize {
            return Err(StoreError::TooLarge);
        }
        let e = NewEntry { key, hash, tag, value, expires_ms: 0, version: 0, next: 0 };
        if need >= staging::STAGE_BYTES {
            return self.store_staged(e, ttl, need);
        }
        let _g = self.lock()?;
        let found = self.find(key, hash);
        if let (Some((_, old)), Some(update)) = (&found, int) {
            if old.is_int() && old.expires_ms == 0 {
                self.rewrite_int(old, update);
                return Ok(());
            }
        }
        self.store_locked(e, ttl, found)
    }

    /// Publishes a new entry for `e.key` (write lock held). `found` is the current entry of the key, if
    /// any (live or expired).
    #[inline(always)]
    fn store_locked(&self, e: NewEntry, ttl: u64, mut found: Option<(u64, EntryHeader)>) -> Result<(), StoreError> {
        let need = entry::entry_bytes(e.key.len() as u64, e.value.len() as u64).ok_or(StoreError::TooLarge)?;
        if found.is_none() && !self.table_slot_for_new_key() {
            return Err(StoreError::TableFull);
        }
        let (t, block, made_room) = self.allocate(need)?;
        if made_room {
            // Making room may have removed or moved the key's own entry (or its chain neighbours).
            found = self.find(e.key, e.hash);
        }
        self.publish_new(t, block, e, ttl, found)
    }

    /// True when a new key may take an entry-table slot: one is free, or (volatile) one was freed.
    #[inline]
    pub(crate) fn table_slot_for_new_key(&self) -> bool {
        if self.word(ENTRY_COUNT).load(Ordering::Relaxed) < self.0.geo.max_entries {
            return true;
        }
        // `found` stays `None`: the entry freed for the new key is not the key's own.
        self.0.kind == BackendKind::Volatile && self.free_table_slot(self.0.clock.now_ms())
    }

    /// Allocates `need` payload bytes in a transaction, making room (bounded rounds) when none is free.
    /// True in the answer when room had to be made (entries may have been removed or moved).
    #[inline(always)]
    pub(crate) fn allocate(&self, need: u64) -> Result<(Txn<'_>, u64, bool), StoreError> {
        let mut t = self.0.journal.begin();
        match self.0.alloc.alloc(&mut t, need) {
            Some(block) => Ok((t, block, false)),
            None => {
                drop(t);
                self.allocate_making_room(need)
            }
        }
    }

    /// [`Backend::allocate`] once the first attempt found no room: out of line, so the usual allocation
    /// does not set up the frame of eviction and compaction.
    #[cold]
    #[inline(never)]
    fn allocate_making_room(&self, need: u64) -> Result<(Txn<'_>, u64, bool), StoreError> {
        for _ in 0..eviction::MAX_ROUNDS {
            let now = if self.0.kind == BackendKind::Volatile { self.0.clock.now_ms() } else { 0 };
            if !self.make_room(need, now) {
                break;
            }
            let mut t = self.0.journal.begin();
            if let Some(block) = self.0.alloc.alloc(&mut t, need) {
                return Ok((t, block, true));
            }
        }
        Err(StoreError::OutOfMemory)
    }

    /// The link word a new entry for `hash` is published through (the old entry's, or the bucket
    /// head), and the `next` the new entry takes over.
    #[inline]
    pub(crate) fn link_for(&self, found: &Option<(u64, EntryHeader)>, hash: u64) -> (u64, u64) {
        match found {
            Some((link, old)) => (*link, self.word(old.off + entry::NEXT).load(Ordering::Acquire)),
            None => {
                let link = self.0.index.bucket_link(hash);
                (link, self.word(link).load(Ordering::Acquire))
            }
        }
    }

    /// Expiry deadline and version of an entry published now.
    pub(crate) fn stamp(&self, ttl: u64) -> (u64, u64) {
        let expires_ms = if ttl == 0 { 0 } else { clock::deadline(self.0.clock.now_ms(), ttl) };
        (expires_ms, self.epoch())
    }

    /// Writes the entry into `block` (allocated by `t`) and publishes it.
    #[inline(always)]
    pub(crate) fn publish_new(
        &self,
        t: Txn<'_>,
        block: u64,
        mut e: NewEntry,
        ttl: u64,
        found: Option<(u64, EntryHeader)>,
    ) -> Result<(), StoreError> {
        let (link, next) = self.link_for(&found, e.hash);
        (e.expires_ms, e.version) = self.stamp(ttl);
        e.next = next;
        // SAFETY: `block` was just allocated by this transaction and is not linked anywhere yet.
        unsafe { entry::write(&self.0.region, block, &e) };
        self.finish_publish(t, link, block, found.map(|(_, old)| old));
        Ok(())
    }

    /// The stall [`Backend::stall_next_write`] asked for, taken by the one store that swaps it out.
    #[cold]
    #[inline(never)]
    fn stall_write(&self) {
        let stall = self.word(STALL_US).swap(0, Ordering::AcqRel);
        std::thread::sleep(std::time::Duration::from_micros(stall));
    }

    /// Ends a store: retires the entry it replaces (or counts a new one) and publishes `block` through
    /// `link`, the write that makes it visible.
    #[inline(always)]
    pub(crate) fn finish_publish(&self, mut t: Txn<'_>, link: u64, block: u64, old: Option<EntryHeader>) {
        match &old {
            Some(old) => self.retire_entry(&mut t, old),
            None => self.add_entries(1),
        }
        if self.word(STALL_US).load(Ordering::Relaxed) != 0 {
            self.stall_write();
        }
        t.publish(link, block);
        self.count(INSERTS, 1);
        self.bump_epoch();
        self.reclaim_in_batches();
    }

    /// Removes `key`. True when an entry (live or expired) was removed. A key the index does not hold
    /// takes no lock (cache invalidation often deletes keys that were never stored): the delete then
    /// happened at that walk, before any store that follows it.
    pub fn delete(&self, key: &[u8]) -> bool {
        let hash = entry::key_hash(key);
        // No entry of the chain carries the key's hash, so none is the key's: the chain's hash words
        // alone answer (a hash shared by another key only sends the delete to the locked look-up).
        if self.walk_unheld(|| self.0.index.may_hold(hash)) == Some(false) {
            return false;
        }
        let Ok(_g) = self.lock() else { return false };
        match self.find(key, hash) {
            Some((link, h)) => {
                self.unlink(link, &h);
                self.bump_epoch();
                self.reclaim_in_batches();
                true
            }
            None => false,
        }
    }

    /// Removes every key of `keys` (`deleteMultiple()`) under one hold of the write lock, moving the
    /// epoch once; the number of entries (live or expired) removed.
    pub fn delete_many<'k>(&self, keys: impl IntoIterator<Item = &'k [u8]>) -> usize {
        let Ok(_g) = self.lock() else { return 0 };
        let mut removed = 0;
        for key in keys {
            if let Some((link, h)) = self.find(key, entry::key_hash(key)) {
                self.unlink(link, &h);
                removed += 1;
            }
        }
        if removed > 0 {
            self.bump_epoch();
            self.reclaim_in_batches();
        }
        removed
    }

    /// Removes every entry. Readers holding values keep them valid (reclamation waits for them). The
    /// freed blocks parked on quick lists are returned to the bins, so that an emptied heap coalesces
    /// into one free block (`info()->fragmentation` 0) instead of keeping the parked ones apart.
    pub fn clear(&self) {
        let Ok(_g) = self.lock() else { return };
        for bucket in 0..self.0.index.bucket_count {
            if self.0.index.bucket_is_empty(bucket) {
                continue;
            }
            self.0.index.for_each_in_bucket(bucket, |link, h| {
                self.unlink(link, h);
                true
            });
        }
        self.bump_epoch();
        self.reclaim();
        self.0.alloc.drain_quick(&self.0.journal);
    }

    /// Atomically adds `step` to an integer entry (creating it as `0 + step`). An existing integer is
    /// updated in place, without the write lock (one atomic add; its TTL is kept, see `integer`); only
    /// a missing or expired key takes the store path.
    pub fn increment(&self, key: &[u8], step: i64) -> Result<CounterUpdate, CounterError> {
        self.update_counter(key, step)
    }

    /// Atomically subtracts `step` from an integer entry (creating it as `0 - step`).
    pub fn decrement(&self, key: &[u8], step: i64) -> Result<CounterUpdate, CounterError> {
        match self.update_counter(key, step.wrapping_neg()) {
            // `v - i64::MIN` wraps exactly when `v + i64::MIN` does not.
            Ok(r) if step == i64::MIN => Ok(CounterUpdate { wrapped: !r.wrapped, ..r }),
            other => other,
        }
    }

    fn update_counter(&self, key: &[u8], step: i64) -> Result<CounterUpdate, CounterError> {
        let hash = entry::key_hash(key);
        let update = IntUpdate::Add(step);
        if let Some(done) = self.update_int_lock_free(key, hash, update) {
            return done;
        }
        let _g = self.lock().map_err(CounterError::Store)?;
        let found = self.find(key, hash);
        let live = match &found {
            Some((_, h)) if self.live(h) => Some(h),
            _ => None,
        };
        match live {
            Some(h) if !h.is_int() => Err(CounterError::NotInteger),
            Some(h) => Ok(self.rewrite_int(h, update)),
            None => {
                let (value, wrapped) = update.apply(0);
                let bytes = value.to_le_bytes();
                let e = NewEntry { key, hash, tag: TAG_INT, value: &bytes, expires_ms: 0, version: 0, next: 0 };
                self.store_locked(e, 0, found).map_err(CounterError::Store)?;
                Ok(CounterUpdate { value, wrapped })
            }
        }
    }

    // ----- reservations ------------------------------------------------------------------------------

    /// Non-blocking try-lock of `key` for request `req` of the calling thread (`lease_secs` 0 = none).
    pub fn try_reserve(&self, key: &[u8], req: RequestId, lease_secs: u64) -> bool {
        let now = self.0.clock.now_ms();
        self.0.reservations.try_reserve(key, process::current(), req, clock::deadline(now, lease_secs), now)
    }

    /// Releases the caller's reservation of `key`; false if it did not hold it (or its lease passed).
    pub fn release(&self, key: &[u8], req: RequestId) -> bool {
        self.0.reservations.release(key, process::current(), req, self.0.clock.now_ms())
    }

    /// Releases every reservation of the request (request end, `clear()`).
    pub fn release_all(&self, req: RequestId) {
        self.0.reservations.release_all(process::current(), req)
    }

    /// False when no request holds a reservation in this backend (one load): a caller can then skip
    /// everything that concerns reservations, its own included.
    #[inline]
    pub fn any_reservation(&self) -> bool {
        self.word(RES_ACTIVE).load(Ordering::Acquire) != 0
    }

    /// True when another live request holds `key` (unexpired lease). While reservations are held, this
    /// process also drops the stale ones (dead holders, passed leases) at most once per `STALE_SWEEP_MS`:
    /// a reservation a killed request left under a key nobody reserves or writes again would otherwise
    /// keep every writer consulting the table (see `any_reservation`) until the table filled up.
    pub fn reserved_by_other(&self, key: &[u8], req: RequestId) -> bool {
        // One load when nobody holds anything (the common case), before any clock or identity lookup.
        if !self.any_reservation() {
            return false;
        }
        let now = self.0.clock.now_ms();
        if now >= self.0.stale_sweep_after.load(Ordering::Relaxed) {
            self.0.stale_sweep_after.store(now + STALE_SWEEP_MS, Ordering::Relaxed);
            self.0.reservations.sweep_stale(now);
        }
        self.0.reservations.held_by_other(key, process::current(), req, now)
    }

    /// Waits while another live request holds `key`: until it unlocks, writes, ends, dies, or its
    /// lease passes (true), or for at most `limit` (false: still held).
    pub fn wait_reservation(&self, key: &[u8], req: RequestId, limit: std::time::Duration) -> bool {
        // The common case (nobody holds the key) is one load: the clock is read only once there is a wait.
        if !self.reserved_by_other(key, req) {
            return true;
        }
        let start = std::time::Instant::now();
        let mut pause = std::time::Duration::from_micros(50);
        while self.reserved_by_other(key, req) {
            let left = limit.saturating_sub(start.elapsed());
            if left.is_zero() {
                return false;
            }
            std::thread::sleep(pause.min(left));
            pause = (pause * 2).min(std::time::Duration::from_millis(5));
        }
        true
    }

    // ----- admin scan --------------------------------------------------------------------------------

    /// Live entries whose key starts with `prefix`, walking the index from bucket `cursor` (0 to start).
    /// Returns at most about `limit` entries (whole buckets, so an entry is never split across calls)
    /// and the cursor to continue from, `None` once every bucket has been visited. Lock-free: the walk
    /// runs under a reader pin, so writers and readers are never blocked, and each call visits a bounded
    /// number of buckets. Like any cursor over a changing table, an entry stored or deleted during the
    /// walk may or may not be reported; an entry present throughout is reported exactly once.
    pub fn scan(&self, cursor: u64, prefix: &[u8], limit: usize) -> (Vec<EntryInfo>, Option<u64>) {
        const MAX_BUCKETS_PER_CALL: u64 = 4096;
        let now = self.0.clock.now_ms();
        let index = &self.0.index;
        let walk =
            || index.scan(cursor, prefix, limit, MAX_BUCKETS_PER_CALL, now, |off| self.0.alloc.payload_capacity(off));
        for _ in 0..MAX_READ_ATTEMPTS {
            match self.begin_walk() {
                Some(pin) => {
                    let found = walk();
                    if pin.end() {
                        return found;
                    }
                }
                None => {
                    let generation = self.0.readers.free_generation();
                    let found = walk();
                    std::sync::atomic::fence(Ordering::Acquire);
                    if self.0.readers.free_generation() == generation {
                        return found;
                    }
                }
            }
        }
        (Vec::new(), Some(cursor))
    }

    // ----- figures and checks ------------------------------------------------------------------------

    pub fn stats(&self) -> BackendStats {
        let a = self.0.alloc.stats();
        let w = |off| self.word(off).load(Ordering::Relaxed);
        BackendStats {
            entries: w(ENTRY_COUNT),
            max_entries: self.0.geo.max_entries,
            hits: w(HITS),
            misses: w(MISSES),
            inserts: w(INSERTS),
            evictions: w(EVICTIONS),
            evicted_bytes: w(EVICTED_BYTES),
            relocations: w(RELOCATIONS),
            expirations: w(EXPIRATIONS),
            used_bytes: a.used_bytes,
            free_bytes: a.free_bytes,
            largest_free: a.largest_free,
            capacity_bytes: self.0.region.len(),
            retired_bytes: w(RETIRED_BYTES),
            recoveries: w(RECOVERIES),
            staged_blocks: self.staged_blocks().len() as u64,
        }
    }

    /// Reservations currently held (tests).
    pub fn held_reservations(&self) -> u64 {
        self.0.reservations.held_count()
    }

    /// Full consistency check under the write lock: allocator invariants, every indexed entry readable in
    /// the right bucket, entry count exact, retire list sound, and every block in use accounted for by
    /// exactly one indexed or retired entry (no leaks).
    pub fn verify(&self) -> Result<VerifyReport, String> {
        let _g = self.lock().map_err(|e| format!("{e:?}"))?;
        let in_use = self.0.alloc.verify()?;
        let indexed = self.0.index.verify()?;
        let entries = indexed.len() as u64;
        if entries != self.word(ENTRY_COUNT).load(Ordering::Acquire) {
            return Err(format!(
                "entry count {} but {entries} indexed",
                self.word(ENTRY_COUNT).load(Ordering::Acquire)
            ));
        }
        let listed = self.0.retired.verify(&self.0.alloc)?;
        let retired = self.0.retired.retired_bytes();
        let mut owned: std::collections::HashSet<u64> = indexed.into_iter().collect();
        for off in listed {
            if !owned.insert(off) {
                return Err(format!("retired entry {off} is also indexed or listed twice"));
            }
        }
        for block in self.staged_blocks() {
            if !owned.insert(block) {
                return Err(format!("staged block {block} is also an entry"));
            }
        }
        let in_use: std::collections::HashSet<u64> = in_use.into_iter().collect();
        if in_use != owned {
            return Err(format!(
                "{} blocks in use, {} owned by entries: leaked or dangling",
                in_use.len(),
                owned.len()
            ));
        }
        Ok(VerifyReport { entries, retired_bytes: retired })
    }
}

/// What a lookup counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Counting {
    Nothing,
    Entry,
    StatsAndEntry,
}

/// What `verify()` saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyReport {
    pub entries: u64,
    pub retired_bytes: u64,
}

/// What keeps an `EntryRef`'s bytes valid.
enum Held<'a> {
    /// A hazard of this thread: the entry stays allocated until it is dropped.
    Hazard(#[allow(dead_code)] Hold<'a>),
    /// A private copy of the value.
    Copy(Vec<u8>),
}

/// A found entry. Its bytes stay valid and unchanged until it is dropped (it holds the entry through a
/// hazard of this thread, or a copy of the value). Drop it quickly: a thread holds at most a few at
/// once before further ones are copied. Not `Send` (the hazard belongs to the thread).
pub struct EntryRef<'a> {
    backend: &'a Backend,
    header: EntryHeader,
    /// An integer entry's value, loaded once atomically: its word may be rewritten in place meanwhile.
    int: Option<[u8; 8]>,
    held: Held<'a>,
}

impl<'a> EntryRef<'a> {
    pub fn tag(&self) -> u16 {
        self.header.tag
    }

    pub fn value(&self) -> &[u8] {
        match (&self.int, &self.held) {
            (Some(int), _) => int,
            (None, Held::Copy(value)) => value,
            // SAFETY: the hazard keeps the entry allocated while `self` lives, and only integer entries
            // (answered above) change in place.
            (None, Held::Hazard(_)) => unsafe { self.header.value(&self.backend.0.region) },
        }
    }

    /// Unique per stored value of this key: the epoch at store time, or for an integer entry (whose value
    /// changes in place) that mixed with its current value (see `integer::int_version`).
    pub fn version(&self) -> u64 {
        match self.int {
            Some(int) => integer::int_version(self.header.version, i64::from_le_bytes(int)),
            None => self.header.version,
        }
    }

    /// Monotonic deadline in ms (0 = none).
    pub fn expires_ms(&self) -> u64 {
        self.header.expires_ms
    }

    /// The integer of a `TAG_INT` entry.
    pub fn as_int(&self) -> Option<i64> {
        self.int.map(i64::from_le_bytes)
    }
}
