//! The index step of the read path (spec §7.2–7.3), per thread and per backend, and the hand-out:
//!
//! * a lookup cache, key → outcome (hit or miss) tagged with the backend's mutation epoch: while the
//!   epoch is unchanged, a repeated read skips the shared index entirely; after any change anywhere the
//!   next read re-validates against the index (and, for a hit, against the entry version);
//! * the local copy of a hit: the stored bytes, copied out of shared memory once, checked and built
//!   into a [`Blueprint`] (engine-immutable strings and object-free arrays, plus a plan for the objects
//!   around them) once per thread and entry version; every fetch materialises it (`zval_out`). A small
//!   string, object-free array or graph of plain objects is built so on its second read only: its first
//!   read in the thread makes an ordinary request-heap value straight from the stored bytes
//!   ([`READ_ONCE_MAX`]; `Blueprint::request_copy`);
//! * this request's prototypes of values whose restore runs userland hooks (§6.4, §7.3): the first
//!   fetch in a request materialises (running the hooks), later ones copy the prototype (`prototype`).
//!
//! Both caches live across requests of the thread (the epoch and version tags keep them exact);
//! superseded blueprints may still be referenced by the current request (immutable values handed
//! out by pointer), so they are only freed after it (`free_superseded`, called at post-deactivate).
//! Within one long request (a worker script) superseded blueprints are capped at the backend's size;
//! past the cap, changed values are fetched as ordinary request-heap copies instead (§7.5). Hits and
//! misses are counted locally and added to the backend's figures at request end, before `info()`, and
//! every [`FLUSH_EVERY`] lookups (so a long request's lookups reach other processes' `info()`).

use foldhash::HashMap;
use hashbrown::hash_map::RawEntryMut;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::hash::BuildHasher;
use std::rc::Rc;
use std::sync::OnceLock;
use std::thread::LocalKey;

use ext_php_rs::ffi::{zend_string, zval, HashTable, IS_STRING};
use shm_core::{Backend, Clock, EntryRef, MonotonicClock};

use crate::blueprint::{Blueprint, Mode};
use crate::encoding;
use crate::immutable::ImmutableArena;
use crate::prototype;
use crate::request;
use crate::runtime::Tier;
use crate::zend;
use crate::zval_out::{self, DecodeError, RequestMemo};
use crate::zvals::{self, Ready};

/// Fewest keys remembered per backend (see [`key_cap`]).
const MAX_KEYS: usize = 16_384;
/// Bytes of backend per key remembered past [`MAX_KEYS`]: about what an entry of a small value (a short
/// key, a small array) takes there, so a thread may remember about as many keys as the backend holds
/// of such values; its slots and copies of scalars (a few hundred bytes per key) stay within about half
/// the backend's size.
const BACKEND_BYTES_PER_KEY: u64 = 512;
/// Most keys remembered per backend, however large.
const KEYS_CEILING: usize = 1 << 20;
/// A full lookup cache retires one slot in this many (in table order, so a spread of keys unrelated
/// to when they were read) and keeps the rest: a loop over more keys than the cap then still finds
/// most of them, where starting over rebuilt every one on every pass.
const RETIRE_SHARE: usize = 8;
/// Largest stored value whose blueprint is built from the stored bytes in place, with the entry held; a
/// larger one is copied out first, so the entry is not held for the length of a long build.
const BUILT_IN_PLACE_MAX: usize = 4096;
/// Largest stored string, object-free array or small graph of plain objects (`Blueprint::request_copy`)
/// whose first read in a thread is made in the request heap, the copy kept for the thread (immutable, or
/// a blueprint, handed out by pointer or materialised) being built on its second read only. A version
/// read once (a key changed between every read, the common case of a long CLI or worker script, or of
/// data read once per change) then costs about what the request-heap copy costs, in memory the request
/// heap reuses, where an immutable copy took fresh memory per version that could be freed only after the
/// request (a superseded copy may still be referenced). Larger values keep their immutable copy from the
/// first read: their copy per fetch would cost more than it saves, and a request reading a large value
/// once must not allocate a copy of it (§7.2).
const READ_ONCE_MAX: usize = BUILT_IN_PLACE_MAX;
/// Lookups a thread counts before it adds them to the backend's figures in the middle of a request: a
/// worker script or CLI worker that never ends its request shows in other processes' `info()` (the
/// dashboard, metrics) within this many lookups. One shared atomic add per this many lookups.
const FLUSH_EVERY: u64 = 4096;

enum LocalValue {
    /// A null, bool, int or float: the value itself (no blueprint).
    Scalar(Ready),
    /// An engine-immutable string or array, the whole value (`Local::ready`), and the memory it lives
    /// in: no blueprint is kept.
    Immutable(ImmutableArena),
    /// Built once for this thread and version.
    Built(Box<Blueprint>),
    /// Past the memory bound of a long request: the stored bytes, built in the request heap on each
    /// fetch. Also the one fetch of a version read once ([`READ_ONCE_MAX`]), never remembered.
    Encoded { tag: u16, bytes: Vec<u8> },
}

/// The local copy of one stored version.
pub struct Local {
    version: u64,
    expires_ms: u64,
    /// The value itself when it needs no materialisation (a scalar, or `Blueprint::ready_root`), kept
    /// beside the version so a repeated read touches this allocation only; `Ready::UNDEF` (never a
    /// value) when it needs one.
    ready: Ready,
    value: LocalValue,
    /// What requests resolved for the blueprint (classes, enum cases, prototypes; see `RequestMemo`).
    /// Boxed: most copies never have one (scalars, strings and object-free arrays), so it costs them a
    /// pointer, not the memo's size.
    memo: RefCell<Option<Box<RequestMemo>>>,
}

// A copy is made for every key a thread reads: with the `Rc`'s two counts it fits a 128-byte block of
// the allocator (glibc: 8 bytes of size word, rounded to 16), 32 bytes of fresh memory less per key
// than the next size up.
const _: () = assert!(size_of::<Local>() + 2 * size_of::<usize>() + 8 <= 128);

/// The outcome of a lookup.
#[derive(Clone)]
pub enum Lookup {
    Miss,
    Hit(Rc<Local>),
    /// Not known since the last change: ask the shared index.
    Unknown,
    /// A live entry `has()` found (`Backend::contains_until`), with its expiry (0: none): no local copy,
    /// so it answers presence tests only; a fetch asks the index.
    Present(u64),
    /// A small string, object-free array or graph of plain objects this thread has read once, as a
    /// request-heap copy ([`READ_ONCE_MAX`]): only its version and expiry (no allocation per key read
    /// once), so that its next read builds the copy kept. Answers presence tests only, as `Present`.
    Seen {
        version: u64,
        expires_ms: u64,
    },
}

/// The allocation of a long key's slot (0 for one kept inline), counted toward the bound on the
/// thread's copies (§7.5) with the copies.
fn key_bytes(key: &[u8]) -> usize {
    if key.len() > INLINE_KEY_MAX {
        key.len() + ALLOCATION_OVERHEAD
    } else {
        0
    }
}

/// The memory of a lookup-cache table with room for `capacity` slots (`HashMap::capacity`): an entry
/// and a control byte per bucket, a table of eight buckets or more being at most 7/8 full. Counted
/// toward the bound on the thread's copies (§7.5) whatever its slots remember, a miss as a hit: the
/// table holds what it grew to (it never shrinks while it has slots, and the deleted slots of a
/// retirement can make it grow again with no more keys).
fn table_bytes(capacity: usize) -> usize {
    let buckets = if capacity < 7 { capacity + 1 } else { capacity / 7 * 8 };
    buckets * (size_of::<(SlotKey, Slot)>() + 1)
}

/// Longest key the lookup cache keeps inline in its table (a longer one is on the heap).
const INLINE_KEY_MAX: usize = 22;

/// A key of the lookup cache. Keys of up to [`INLINE_KEY_MAX`] bytes (most keys) sit in the table
/// entry itself: remembering one allocates nothing, and comparing it reads no other memory.
enum SlotKey {
    Inline(u8, [u8; INLINE_KEY_MAX]),
    Heap(Box<[u8]>),
}

impl SlotKey {
    fn new(key: &[u8]) -> SlotKey {
        let mut inline = [0; INLINE_KEY_MAX];
        match (inline.get_mut(..key.len()), u8::try_from(key.len())) {
            (Some(to), Ok(len)) => {
                to.copy_from_slice(key);
                SlotKey::Inline(len, inline)
            }
            _ => SlotKey::Heap(key.into()),
        }
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            SlotKey::Inline(len, bytes) => bytes.get(..usize::from(*len)).unwrap_or_default(),
            SlotKey::Heap(bytes) => bytes,
        }
    }
}

// Hashed and compared as the bytes themselves, as `Borrow<[u8]>` requires (lookups are by `&[u8]`).
impl std::hash::Hash for SlotKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl PartialEq for SlotKey {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for SlotKey {}

impl std::borrow::Borrow<[u8]> for SlotKey {
    fn borrow(&self) -> &[u8] {
        self.as_bytes()
    }
}

/// The hasher of every lookup-cache table: foldhash, seeded at random once per process, so that the
/// hash of a key ([`KeyHash`]) is the same in every table of every thread.
#[derive(Clone)]
struct SlotHasher(foldhash::fast::RandomState);

impl Default for SlotHasher {
    fn default() -> Self {
        static SEEDED: OnceLock<foldhash::fast::RandomState> = OnceLock::new();
        SlotHasher(SEEDED.get_or_init(foldhash::fast::RandomState::default).clone())
    }
}

impl BuildHasher for SlotHasher {
    type Hasher = foldhash::fast::FoldHasher<'static>;

    fn build_hasher(&self) -> Self::Hasher {
        self.0.build_hasher()
    }
}

/// The slots of one backend's lookup cache, by key.
type Slots = hashbrown::HashMap<SlotKey, Slot, SlotHasher>;

/// A key prepared for fetches of the same key again and again (an attribute unit's key, restored in
/// every request): its bytes and their hash in the lookup cache, computed once by [`prepare_key`], so
/// that [`fetch_prepared_uncounted`] does not hash the key again.
pub struct KeyHash {
    hash: u64,
    key: Box<[u8]>,
}

/// The key itself.
impl std::ops::Deref for KeyHash {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.key
    }
}

/// `key` with its hash in the lookup cache, for [`fetch_prepared_uncounted`].
pub fn prepare_key(key: &[u8]) -> KeyHash {
    KeyHash { hash: SlotHasher::default().hash_one(key), key: key.into() }
}

struct Slot {
    epoch: u64,
    outcome: Lookup,
    /// Whether the key passes the argument checks of a key (§4.2) but the loaded-class test
    /// (`args::key_passes_but_class`): worked out once by [`fetch_many_hot`] or [`presence_known`]. The
    /// key's bytes never change, so it is kept when the slot is updated.
    plain: Option<bool>,
    /// The last [`fetch_many_hot`] pass that gave the key its place in a result (see
    /// `ThreadCache::passes`): a key met again in the same pass is a repeated key.
    pass: u64,
}

/// The loaded-class tests kept for hot keys that need lower-casing, per backend tier ([`HOT_CLASS`],
/// [`HOT_PRESENCE_CLASS`]).
type KeptClassTests = LocalKey<[Cell<zend::LoweredName>; 2]>;

/// Keeps the loaded-class test (§4.2, made on every read) of `key`, which becomes a hot key of `tier`,
/// for [`kept_class_loaded`]: false for a key the class table is asked about with the argument's own
/// string (`zend::is_plain_class_name`), true for one that needs lower-casing, whose lower-cased name and
/// hash `kept` keeps; `None` for a key too long for that.
fn keep_class_test(key: &[u8], kept: &'static KeptClassTests, tier: Tier) -> Option<bool> {
    if zend::is_plain_class_name(key) {
        return Some(false);
    }
    let lowered = zend::LoweredName::of(key)?;
    kept.with(|cell| cell[tier.index()].set(lowered));
    Some(true)
}

/// The loaded-class test of a hot key of `tier`: the one `kept` keeps for a key that needs lower-casing
/// (`lowered`, from [`keep_class_test`]), else `class_loaded`, asking with the argument's own string (the
/// thread-local is not touched then: this runs on every hot read).
fn kept_class_loaded(
    lowered: bool,
    kept: &'static KeptClassTests,
    tier: Tier,
    class_loaded: impl FnOnce() -> bool,
) -> bool {
    if lowered {
        kept.with(|cell| cell[tier.index()].get().is_loaded())
    } else {
        class_loaded()
    }
}

/// Longest key that can be hot (keys are compared byte for byte, from a copy kept inline; its
/// loaded-class test is kept lower-cased beside it).
const HOT_KEY_MAX: usize = zend::LOWERED_NAME_MAX;

/// The last key `get()` found, per backend (see [`fetch_hot`]): a copy of the key, the backend
/// instance and mutation epoch its lookup was valid at, the entry's expiry and its built local copy (or
/// the value itself, when that needs no work per fetch). A built copy is only freed by
/// [`free_superseded`] (a replaced or dropped one is retired, not freed); the hot keys are forgotten
/// there, at every request end, and when the lookup cache changes backend. Hits are counted here and
/// moved to the lookup cache's counters before they are read.
struct Hot {
    key: [u8; HOT_KEY_MAX],
    /// 0: no hot key (the empty key is never valid).
    key_len: usize,
    /// The bytes of the key's string when that was interned (never freed before the request ends, and
    /// never changed): the same string is the same key without comparing bytes. Null otherwise.
    interned: *const u8,
    /// Whether the key needs lower-casing for its loaded-class test (an upper-case letter, a NUL or a
    /// leading `\\`): the test is then [`HOT_CLASS`]'s, else the class table is asked with the key's
    /// own string.
    lowered: bool,
    backend_id: u64,
    epoch: u64,
    /// The entry version and expiry of the local copy.
    version: u64,
    expires_ms: u64,
    value: HotValue,
    hits: u64,
}

#[derive(Clone, Copy)]
enum HotValue {
    /// `Blueprint::ready_root` of the local copy.
    Ready(Ready),
    /// The local copy, to materialise (`Rc::as_ptr` of a `LocalValue::Built` copy).
    Local(*const Local),
}

impl Hot {
    const NONE: Hot = Hot {
        key: [0; HOT_KEY_MAX],
        key_len: 0,
        interned: std::ptr::null(),
        lowered: false,
        backend_id: 0,
        epoch: 0,
        version: 0,
        expires_ms: 0,
        value: HotValue::Ready(Ready::NULL),
        hits: 0,
    };
}

/// What [`fetch_hot`] did.
pub enum HotFetch {
    /// The value is in `out`.
    Written,
    /// A hit to hand out (`hand_out_hit`).
    Local(Rc<Local>),
    /// Not handled: the full path must run.
    Slow,
}

thread_local! {
    /// The copy of the thread's last first read once handed out ([`recycle_once`]): the next first read
    /// reuses its allocation and its bytes' ([`once_copy`]).
    static SPARE_ONCE: Cell<Option<Rc<Local>>> = const { Cell::new(None) };
    static HOT: [RefCell<Hot>; 2] = const { [RefCell::new(Hot::NONE), RefCell::new(Hot::NONE)] };
    /// The loaded-class test (§4.2) of each hot key that needs lower-casing (`Hot::lowered`), made on
    /// every fetch: set by [`fetch_hot`] whenever it makes such a key hot (kept apart from [`Hot`],
    /// which is moved whole).
    static HOT_CLASS: [Cell<zend::LoweredName>; 2] =
        const { [Cell::new(zend::LoweredName::NEVER), Cell::new(zend::LoweredName::NEVER)] };
}

#[derive(Default)]
struct BackendCache {
    /// Identifies the backend the slots belong to (a module restart maps a new one).
    backend_id: u64,
    slots: Slots,
    /// Bytes of the copies the slots hold and of their long keys ([`key_bytes`]); with the table's own
    /// ([`table_bytes`]), what the bound on the thread's copies (§7.5) counts.
    live_bytes: usize,
    hits: u64,
    misses: u64,
}

impl BackendCache {
    /// Adds the counted lookups to `backend`'s figures once there are [`FLUSH_EVERY`] of them.
    #[inline]
    fn flush_if_due(&mut self, backend: &Backend) {
        if self.hits + self.misses >= FLUSH_EVERY {
            backend.record_lookups(std::mem::take(&mut self.hits), std::mem::take(&mut self.misses));
        }
    }

    /// The outcome remembered for `key` while it is still valid (tagged with `epoch`; a hit not
    /// expired, `now` being the clock, read at most once per batch), counted: `count` is added to the
    /// hits or the misses. `None`: the shared index must be asked.
    ///
    /// With `revalidate`, a hit remembered before the last change (usually another key's) is checked
    /// against that backend's index: while the entry is still the same version with the same expiry,
    /// the copy is valid at `epoch` (read before this call) and the slot takes it. The index fetch marks
    /// the entry recently used, as every hit must between two stores (§9.2); `has()` passes `None`.
    fn known(
        &mut self,
        revalidate: Option<&Backend>,
        key: &[u8],
        epoch: u64,
        count: u64,
        now: &mut Option<u64>,
    ) -> Option<&Lookup> {
        let hash = self.slots.hasher().hash_one(key);
        self.known_hashed(revalidate, (key, hash), epoch, count, now)
    }

    /// [`BackendCache::known`] of `key` whose hash in the table is `hash`.
    fn known_hashed(
        &mut self,
        revalidate: Option<&Backend>,
        (key, hash): (&[u8], u64),
        epoch: u64,
        count: u64,
        now: &mut Option<u64>,
    ) -> Option<&Lookup> {
        let RawEntryMut::Occupied(slot) = self.slots.raw_entry_mut().from_key_hashed_nocheck(hash, key) else {
            return None;
        };
        let slot = slot.into_mut();
        let outcome = slot.known(revalidate, key, epoch, now)?;
        match outcome {
            Lookup::Hit(_) => self.hits += count,
            _ => self.misses += count,
        }
        Some(outcome)
    }
}

impl Slot {
    /// [`BackendCache::known`] of this slot (the one of `key`), counting nothing: a hit or a miss, or
    /// for a presence test (no `revalidate`) a present entry or a version read once, not expired.
    fn known(
        &mut self,
        revalidate: Option<&Backend>,
        key: &[u8],
        epoch: u64,
        now: &mut Option<u64>,
    ) -> Option<&Lookup> {
        if self.epoch != epoch {
            let (Some(backend), Lookup::Hit(local)) = (revalidate, &self.outcome) else {
                return None;
            };
            if !still_stored(backend, key, local.version, local.expires_ms) {
                return None;
            }
            self.epoch = epoch;
        }
        match &self.outcome {
            Lookup::Miss => {}
            Lookup::Hit(local) if !expired_at(local, now) => {}
            Lookup::Present(expires_ms) | Lookup::Seen { expires_ms, .. }
                if revalidate.is_none() && (*expires_ms == 0 || *now.get_or_insert_with(now_ms) < *expires_ms) => {}
            _ => return None,
        }
        Some(&self.outcome)
    }
}

/// Where a slot's replaced copies go: the thread's superseded copies and their bytes
/// ([`ThreadCache::retire`]).
type Retired<'a> = (&'a mut Vec<Rc<Local>>, &'a mut usize);

impl Slot {
    /// Records `outcome`, found at `epoch`, in this slot, which keeps its other facts (the key's bytes
    /// never change): the copy it replaces, unless it is the same, is retired, its bytes taken off
    /// `live_bytes` (the backend's) and the new copy's added.
    fn record(&mut self, outcome: Lookup, epoch: u64, live_bytes: &mut usize, (superseded, bytes): Retired<'_>) {
        self.epoch = epoch;
        if let (Lookup::Hit(old), Lookup::Hit(new)) = (&self.outcome, &outcome) {
            if Rc::ptr_eq(old, new) {
                return;
            }
        }
        *live_bytes += ThreadCache::live_bytes_of(&outcome);
        if let Lookup::Hit(old) = std::mem::replace(&mut self.outcome, outcome) {
            *live_bytes = live_bytes.saturating_sub(old.bytes());
            ThreadCache::retire(superseded, bytes, old);
        }
    }

    /// [`Slot::record`] of `new`, a copy built at `epoch`, returning it: a scalar's copy nothing else
    /// holds is overwritten in its own allocation (nothing points into it: a scalar is kept by value
    /// wherever it is handed out or made hot).
    fn replace_copy(&mut self, new: Local, epoch: u64, live_bytes: &mut usize, retired: Retired<'_>) -> Rc<Local> {
        if let Lookup::Hit(old) = &mut self.outcome {
            if let Some(reused) = Rc::get_mut(old).filter(|old| matches!(old.value, LocalValue::Scalar(_))) {
                self.epoch = epoch;
                *live_bytes = live_bytes.saturating_sub(reused.bytes()) + new.bytes();
                *reused = new;
                return old.clone();
            }
        }
        let new = Rc::new(new);
        self.record(Lookup::Hit(new.clone()), epoch, live_bytes, retired);
        new
    }
}

impl BackendCache {
    /// Records `outcome`, found at `epoch`, for `key` (its hash in the table `hash`), as [`Slot::record`]
    /// does, in a new slot for a key the cache does not know. A new key finding the lookup cache full
    /// ([`key_cap`] keys, or the table and its copies larger than the backend itself: stale keys are
    /// only revalidated when read again, so the cap keeps memory bounded) retires part of it first
    /// ([`RETIRE_SHARE`]); a table emptied so is freed.
    fn remember(
        &mut self,
        backend: &Backend,
        (key, hash): (&[u8], u64),
        epoch: u64,
        outcome: Lookup,
        retired: Retired<'_>,
    ) {
        debug_assert_eq!(self.backend_id, backend.instance_id());
        // A new key's slot counts too, and the table as it is once the key is in: a full one doubles.
        let added = key_bytes(key) + ThreadCache::live_bytes_of(&outcome);
        let full = |cache: &BackendCache| {
            let slots = &cache.slots;
            let room = if slots.len() < slots.capacity() { slots.capacity() } else { (2 * slots.capacity()).max(3) };
            slots.len() >= key_cap(backend)
                || (cache.live_bytes + added + table_bytes(room)) as u64 > backend.capacity_bytes()
        };
        let (superseded, superseded_bytes) = retired;
        if full(self) && self.slots.raw_entry().from_key_hashed_nocheck(hash, key).is_none() {
            while !self.slots.is_empty() && full(self) {
                ThreadCache::retire_part(superseded, superseded_bytes, self);
            }
            if self.slots.is_empty() {
                self.live_bytes = 0;
                self.slots = Slots::default();
            }
        }
        match self.slots.raw_entry_mut().from_key_hashed_nocheck(hash, key) {
            RawEntryMut::Occupied(slot) => {
                slot.into_mut().record(outcome, epoch, &mut self.live_bytes, (superseded, superseded_bytes));
            }
            RawEntryMut::Vacant(slot) => {
                self.live_bytes += added;
                slot.insert_hashed_nocheck(hash, SlotKey::new(key), Slot { epoch, outcome, plain: None, pass: 0 });
            }
        }
    }
}

#[derive(Default)]
struct ThreadCache {
    backends: [BackendCache; 2],
    /// This request's prototypes of values that run hooks, per backend: key → (entry version, value).
    prototypes: [HashMap<Vec<u8>, (u64, zval)>; 2],
    /// Locals whose request memo this request filled (cleared at request end).
    memos: Vec<Rc<Local>>,
    /// Keys whose hooked restore is running, with the Fiber context it runs in (a hook fetching its
    /// own key again is refused; see [`hand_out_hooked`]).
    restoring: Vec<(usize, usize, Vec<u8>)>,
    /// Blueprints replaced while a request might still hold their values.
    superseded: Vec<Rc<Local>>,
    superseded_bytes: usize,
    /// [`fetch_many_hot`] passes begun by this thread (each numbers its own).
    passes: u64,
}

thread_local! {
    static CACHE: RefCell<ThreadCache> = RefCell::default();
}

/// What a fetch found.
pub enum Fetched {
    /// `out` holds the value.
    Hit,
    Miss,
}

/// What the allocator takes beside each block it hands out (glibc: one size word, rounded to 16).
const ALLOCATION_OVERHEAD: usize = 16;

impl Local {
    /// Bytes this copy keeps, for the bounds on a thread's copies (§7.5): the copy itself in its `Rc`
    /// block, and what its value keeps. Every copy counts, an engine constant like `[]` or a scalar too,
    /// so that no number of them is free.
    fn bytes(&self) -> usize {
        let own = size_of::<Local>() + 2 * size_of::<usize>() + ALLOCATION_OVERHEAD;
        own + match &self.value {
            LocalValue::Scalar(_) => 0,
            LocalValue::Immutable(arena) => arena.bytes(),
            LocalValue::Built(blueprint) => blueprint.bytes() + ALLOCATION_OVERHEAD,
            LocalValue::Encoded { bytes, .. } => bytes.capacity() + ALLOCATION_OVERHEAD,
        }
    }

    /// The local copy of a scalar, a built value or stored bytes.
    fn new(version: u64, expires_ms: u64, value: LocalValue) -> Local {
        let ready = match &value {
            LocalValue::Scalar(ready) => Some(*ready),
            LocalValue::Built(blueprint) => blueprint.ready_root(),
            LocalValue::Immutable(_) | LocalValue::Encoded { .. } => None,
        }
        .unwrap_or(Ready::UNDEF);
        Local { version, expires_ms, ready, value, memo: RefCell::new(None) }
    }

    /// The local copy of the stored (`tag`, `bytes`), checked and built: a scalar keeps its value only,
    /// a string the string and its memory.
    fn from_stored(version: u64, expires_ms: u64, tag: u16, bytes: &[u8]) -> Result<Local, DecodeError> {
        if let Some(ready) = Blueprint::scalar(tag, bytes)? {
            return Ok(Local::new(version, expires_ms, LocalValue::Scalar(ready)));
        }
        if let Some((ready, arena)) = Blueprint::immutable_string(tag, bytes) {
            return Ok(Local::immutable(version, expires_ms, ready, arena));
        }
        if let Some((ready, arena)) = Blueprint::immutable_tree(tag, bytes) {
            return Ok(Local::immutable(version, expires_ms, ready, arena));
        }
        // Filled in place and, unless it is one immutable value, moved once, into its box.
        let mut blueprint = Blueprint::empty();
        blueprint.fill(tag, bytes, Mode::Shared)?;
        Ok(match blueprint.take_immutable() {
            Some((ready, arena)) => Local::immutable(version, expires_ms, ready, arena),
            None => Local::new(version, expires_ms, LocalValue::Built(Box::new(blueprint))),
        })
    }

    /// The local copy of a value that is one immutable string or array, `ready`, living in `arena`.
    fn immutable(version: u64, expires_ms: u64, ready: Ready, arena: ImmutableArena) -> Local {
        Local { version, expires_ms, ready, value: LocalValue::Immutable(arena), memo: RefCell::new(None) }
    }

    /// The value itself when it needs no materialisation (a scalar, or `Blueprint::ready_root`).
    fn ready_root(&self) -> Option<Ready> {
        (!self.ready.is_undef()).then_some(self.ready)
    }
}

impl ThreadCache {
    fn backend(&mut self, tier: Tier, backend: &Backend) -> &mut BackendCache {
        let id = backend.instance_id();
        let cache = &mut self.backends[tier.index()];
        if cache.backend_id != id {
            forget_counts_in_forked_children();
            let old = std::mem::take(&mut cache.slots);
            // `fetch_hot` holds the entry while it asks the lookup cache, and replaces it after.
            HOT.with(|hot| {
                if let Ok(mut hot) = hot[tier.index()].try_borrow_mut() {
                    *hot = Hot::NONE;
                }
            });
            cache.backend_id = id;
            cache.live_bytes = 0;
            cache.hits = 0;
            cache.misses = 0;
            Self::retire_slots(&mut self.superseded, &mut self.superseded_bytes, old);
        }
        &mut self.backends[tier.index()]
    }

    fn retire_slots(superseded: &mut Vec<Rc<Local>>, bytes: &mut usize, slots: Slots) {
        for slot in slots.into_values() {
            if let Lookup::Hit(local) = slot.outcome {
                Self::retire(superseded, bytes, local);
            }
        }
    }

    /// Retires one slot in [`RETIRE_SHARE`] (at least one) of `cache`, the first in table order.
    fn retire_part(superseded: &mut Vec<Rc<Local>>, bytes: &mut usize, cache: &mut BackendCache) {
        let mut left = (cache.slots.len() / RETIRE_SHARE).max(1);
        let mut freed = 0;
        cache.slots.retain(|key, slot| {
            if left == 0 {
                return true;
            }
            left -= 1;
            freed += key_bytes(key.as_bytes());
            if let Lookup::Hit(local) = std::mem::replace(&mut slot.outcome, Lookup::Miss) {
                freed += local.bytes();
                Self::retire(superseded, bytes, local);
            }
            false
        });
        cache.live_bytes = cache.live_bytes.saturating_sub(freed);
    }

    fn retire(superseded: &mut Vec<Rc<Local>>, bytes: &mut usize, local: Rc<Local>) {
        if let LocalValue::Built(_) | LocalValue::Immutable(_) = &local.value {
            *bytes += local.bytes();
            superseded.push(local);
        }
    }

    fn live_bytes_of(outcome: &Lookup) -> usize {
        match outcome {
            Lookup::Hit(local) => local.bytes(),
            _ => 0,
        }
    }
}

fn now_ms() -> u64 {
    MonotonicClock.now_ms()
}

/// Whether `local` has expired, the clock read at most once for a batch (`now` caches it).
fn expired_at(local: &Local, now: &mut Option<u64>) -> bool {
    local.expires_ms != 0 && *now.get_or_insert_with(now_ms) >= local.expires_ms
}

/// Whether the index still holds `key` as the entry version a local copy was made of, with the same
/// expiry: the copy is then valid after a change elsewhere. The fetch marks the entry recently used, as
/// every hit must between two stores (§9.2).
fn still_stored(backend: &Backend, key: &[u8], version: u64, expires_ms: u64) -> bool {
    backend.fetch(key).is_some_and(|e| e.version() == version && e.expires_ms() == expires_ms)
}

/// Materialises `blueprint` with `local`'s request memo (made, or renewed, for this request); `GUARDED`
/// as `guarded` for [`zval_out::materialise`] (a constant: the unguarded copy is the common one).
fn materialise<const GUARDED: bool>(
    local: &Rc<Local>,
    blueprint: &Blueprint,
    out: &mut zval,
) -> Result<(), DecodeError> {
    let request = request::owner().0;
    // A value copied from this request's prototypes runs no userland code: the memo is used in
    // place, through a pointer rather than a borrow. The copy allocates in the request heap, and a
    // `memory_limit` fatal there longjmps past this frame (releases without `EG(delayed_oom)` raise it
    // inside the allocation): a borrow held across it would never be given back, and every later fetch
    // of this copy on this thread, in any request, would find the memo borrowed. The fatal is caught
    // there (`zval_out::allocating`): this fetch's callers hold a reference to `local`.
    let unborrowed = local.memo.try_borrow().ok().map(|memo| std::ptr::from_ref(&*memo));
    if let Some(memo) = unborrowed {
        // SAFETY: `memo` points into `local`, which the caller keeps alive; nothing replaces it during the
        // copy, which runs no userland code (so no fetch of this key), and no borrow of it is held.
        let memo = unsafe { &*memo }.as_ref().filter(|m| m.request() == request);
        let copy = match memo {
            Some(memo) => zval_out::allocating(|| zval_out::copy_prototypes(blueprint, memo))?,
            None => None,
        };
        if let Some(copy) = copy {
            *out = copy;
            return Ok(());
        }
    }
    // The memo is taken out for the call (hooks may fetch this key again) and put back after.
    let taken = local.memo.borrow_mut().take();
    let mut memo = taken.unwrap_or_else(|| Box::new(RequestMemo::new(0, blueprint)));
    if memo.request() != request {
        memo.renew(request);
        CACHE.with_borrow_mut(|c| c.memos.push(local.clone()));
    }
    let keeper = || -> Rc<dyn Any> { local.clone() };
    let result = zval_out::materialise(blueprint, &mut memo, out, Some(&keeper), GUARDED);
    // A nested fetch of this key (from a hook) put its own memo back meanwhile: release it.
    if let Some(mut nested) = local.memo.borrow_mut().replace(memo) {
        nested.end_request(true);
    }
    result
}

/// Writes the local copy's value into `out`: a materialisation, or for values whose restore runs
/// hooks a copy of this request's prototype (kept from the first materialisation in the request).
fn hand_out(tier: Tier, key: &[u8], local: &Rc<Local>, out: &mut zval) -> Result<(), DecodeError> {
    if let Some(ready) = local.ready_root() {
        *out = ready.to_zval();
        return Ok(());
    }
    let built;
    let blueprint = match &local.value {
        // Their value is `ready` (handed out above).
        LocalValue::Scalar(_) | LocalValue::Immutable(_) => return Ok(()),
        LocalValue::Built(blueprint) => blueprint,
        LocalValue::Encoded { tag, bytes } => {
            // Made in the request heap (see `zval_out::allocating`): a string, an object-free array or a
            // small graph of `stdClass` objects straight from the bytes, another value through a blueprint
            // (one in request-heap mode, materialised once).
            if let Some(copy) = zval_out::allocating(|| Blueprint::request_copy(*tag, bytes))? {
                *out = copy;
                return Ok(());
            }
            built = zval_out::allocating(|| Blueprint::build(*tag, bytes, Mode::RequestHeap))??;
            &built
        }
    };
    if let Some(ready) = blueprint.ready_root() {
        *out = ready.to_zval();
        return Ok(());
    }
    if !blueprint.runs_hooks() {
        let result = restore::<false>(local, blueprint, out);
        // `Reentered` from an unguarded restore: a class of the value has gained `__unserialize()` or
        // `__wakeup()` since it was stored, so its restore runs hooks, which are guarded and kept as for
        // any value whose restore runs hooks.
        if !matches!(result, Err(DecodeError::Reentered)) {
            return result;
        }
    }
    hand_out_hooked(tier, key, local, blueprint, out)
}

/// Restores `local`'s value into `out`: with its request memo when its blueprint is kept for the thread,
/// else with a memo for this call. `GUARDED` as for [`materialise`].
fn restore<const GUARDED: bool>(local: &Rc<Local>, blueprint: &Blueprint, out: &mut zval) -> Result<(), DecodeError> {
    match &local.value {
        LocalValue::Built(_) => materialise::<GUARDED>(local, blueprint, out),
        LocalValue::Scalar(_) | LocalValue::Immutable(_) | LocalValue::Encoded { .. } => {
            zval_out::materialise_once(blueprint, request::owner().0, out, GUARDED)
        }
    }
}

/// [`hand_out`] for values whose restore runs hooks: a copy of this request's prototype, or a restore
/// guarded against a hook fetching the key again, kept as the prototype.
fn hand_out_hooked(
    tier: Tier,
    key: &[u8],
    local: &Rc<Local>,
    blueprint: &Blueprint,
    out: &mut zval,
) -> Result<(), DecodeError> {
    // The copy is made outside the borrow of the cache: it allocates in the request heap, and a
    // `memory_limit` fatal there longjmps past this frame (see `materialise`), which would leave the
    // cache borrowed for the rest of the thread's life (every later request failed, then crashed).
    let proto = CACHE.with_borrow(|c| match c.prototypes[tier.index()].get(key) {
        Some((version, proto)) if *version == local.version => Some(std::ptr::from_ref(proto)),
        _ => None,
    });
    // A `memory_limit` fatal inside the copy is caught (see `zval_out::allocating`): this fetch's callers
    // hold a reference to `local`.
    let from_prototype = match proto {
        Some(proto) => zval_out::allocating(|| {
            // SAFETY: the prototype is a live value of this request, in the cache's map, which nothing
            // changes during the copy: it runs no userland code.
            unsafe { prototype::copy(&*proto, false) }
        })?,
        None => None,
    };
    if let Some(copy) = from_prototype {
        *out = copy;
        return Ok(());
    }
    // The guard looks only at restores below this fetch: a hook that suspends its Fiber leaves its
    // restore running while other code fetches the key, which is no recursion (that fetch was refused,
    // with a warning, until the Fiber was resumed, or for good if it never was). A hook's fetch runs in
    // the hook's context, or in a Fiber the hook started or resumed, whose chain of callers leads to it.
    let restoring = (tier.index(), zend::current_fiber_context(), key.to_vec());
    let reentered = CACHE.with_borrow(|c| {
        c.restoring
            .iter()
            .any(|(t, context, k)| *t == restoring.0 && *k == restoring.2 && zend::fiber_context_is_running(*context))
    });
    if reentered {
        return Err(DecodeError::Reentered);
    }
    CACHE.with_borrow_mut(|c| c.restoring.push(restoring.clone()));
    let result = restore::<true>(local, blueprint, out);
    CACHE.with_borrow_mut(|c| {
        if let Some(at) = c.restoring.iter().position(|r| *r == restoring) {
            c.restoring.remove(at);
        }
    });
    result?;
    keep_prototype(tier, key, local.version, out)
}

/// Keeps a copy of `decoded` (this request's fresh restore of `version`) as the key's prototype, when
/// the value can be copied. A `memory_limit` fatal inside the copy is caught as in [`hand_out_hooked`].
fn keep_prototype(tier: Tier, key: &[u8], version: u64, decoded: &zval) -> Result<(), DecodeError> {
    let copied = zval_out::allocating(|| {
        // SAFETY: `decoded` is a live value of this request.
        unsafe { prototype::copy(decoded, true) }
    })?;
    if let Some(proto) = copied {
        let old = CACHE.with_borrow_mut(|c| c.prototypes[tier.index()].insert(key.to_vec(), (version, proto)));
        drop(old);
    }
    Ok(())
}

/// Releases this request's prototypes and request memos (request end; in worker mode, each HTTP
/// request's end).
pub fn drop_prototypes() {
    end_prototypes(true);
}

/// Forgets this request's prototypes and request memos without releasing them (post-deactivate: the
/// objects they hold were freed with the executor, and the heap goes with the request).
pub fn forget_prototypes() {
    end_prototypes(false);
}

/// Ends this request's prototypes and request memos: released, or (`release` false) forgotten.
fn end_prototypes(release: bool) {
    let (prototypes, mut memos) = CACHE.with_borrow_mut(|c| {
        c.restoring.clear();
        forget_hot(c);
        (std::mem::take(&mut c.prototypes), std::mem::take(&mut c.memos))
    });
    if release {
        drop(prototypes);
    } else {
        for (_, (_, proto)) in prototypes.into_iter().flat_map(HashMap::into_iter) {
            std::mem::forget(proto);
        }
    }
    for local in memos.drain(..) {
        // Taken out while it ends: a released prototype's destructor may fetch this key again.
        let memo = local.memo.borrow_mut().take();
        if let Some(mut memo) = memo {
            memo.end_request(release);
            let replaced = local.memo.borrow_mut().replace(memo);
            drop(replaced);
        }
    }
    // The emptied list goes back, so the next request's first fetch of a value with a memo does not
    // allocate it again (unless a destructor above fetched one meanwhile, or the list grew large).
    if memos.capacity() <= MEMOS_KEPT {
        CACHE.with_borrow_mut(|c| {
            if c.memos.is_empty() {
                c.memos = memos;
            }
        });
    }
}

/// The most request memos whose list's memory is kept from one request to the next.
const MEMOS_KEPT: usize = 256;

/// Fetches `key` into `out`, counting a hit or a miss. A decode failure is returned to the caller,
/// which reports and removes the broken entry.
pub fn fetch(tier: Tier, backend: &Backend, key: &[u8], out: &mut zval) -> Result<Fetched, DecodeError> {
    match local(tier, backend, key, None, 1)? {
        Some(local) => hand_out(tier, key, &local, out).map(|()| Fetched::Hit),
        None => Ok(Fetched::Miss),
    }
}

/// [`fetch`] of a key prepared by [`prepare_key`] (the lookup cache takes its hash as it is), without
/// counting a hit or a miss: restores of attributed statics are not lookups by `get()` (§15).
pub fn fetch_prepared_uncounted(
    tier: Tier,
    backend: &Backend,
    key: &KeyHash,
    out: &mut zval,
) -> Result<Fetched, DecodeError> {
    match local(tier, backend, &key.key, Some(key.hash), 0)? {
        Some(local) => hand_out(tier, &key.key, &local, out).map(|()| Fetched::Hit),
        None => Ok(Fetched::Miss),
    }
}

/// Forgets the hot keys, their hits moved to the lookup cache's counters.
fn forget_hot(c: &mut ThreadCache) {
    HOT.with(|hot| {
        for (tier, hot) in hot.iter().enumerate() {
            let old = hot.replace(Hot::NONE);
            let cache = &mut c.backends[tier];
            if old.backend_id == cache.backend_id {
                cache.hits += old.hits;
            }
        }
    });
}

/// The repeated `get()` of a key, counted as a hit: while `key` is the backend's hot key and the
/// backend's mutation epoch is unchanged (one load from shared memory, which any set, delete or clear
/// in any process moves), the key is neither hashed nor looked up in the lookup cache. Otherwise the
/// lookup cache is asked (and the index, where the cache has not seen the key since the last change),
/// and a hit becomes the hot key. A value that needs no work per fetch
/// (`Blueprint::ready_root`: a scalar, or a string or object-free array this thread keeps) is written
/// into `out`; another hit is returned, for [`hand_out_hit`]. The loaded-class test of the key (§4.2) is
/// made on every call: `class_loaded`, asking with the argument's own string, for a key that needs no
/// lower-casing (`zend::is_plain_class_name`; it runs for no other key), else from the lower-cased
/// name with its hash kept for the hot key (`zend::LoweredName`, made when it becomes hot); `plain` tells
/// whether the key passes the other key rules (`args::key_passes_but_class`), once, when it becomes
/// hot. `Slow`, with nothing written or counted, where the full path must run: an error to report, a
/// miss, an expired or unknown key.
///
/// # Safety
/// `out` must be a writable slot holding nothing to release.
pub unsafe fn fetch_hot(
    tier: Tier,
    backend: &Backend,
    key: &[u8],
    interned: bool,
    out: *mut zval,
    plain: impl FnOnce(&[u8]) -> bool,
    class_loaded: impl FnOnce() -> bool,
) -> HotFetch {
    let epoch = backend.epoch();
    let backend_id = backend.instance_id();
    HOT.with(|hot| {
        let Ok(mut current) = hot[tier.index()].try_borrow_mut() else {
            return HotFetch::Slow;
        };
        let same_key = (interned && std::ptr::eq(current.interned, key.as_ptr()))
            || (current.key_len == key.len() && current.key.get(..key.len()) == Some(key));
        let current_at_epoch = same_key
            && current.backend_id == backend_id
            && (current.epoch == epoch
                // The epoch moved, usually for another key: one index fetch tells whether the entry is
                // still this version, with the same expiry (and marks it recently used).
                || still_stored(backend, key, current.version, current.expires_ms));
        if current_at_epoch {
            current.epoch = epoch;
            if kept_class_loaded(current.lowered, &HOT_CLASS, tier, class_loaded) {
                return HotFetch::Slow;
            }
        } else {
            let old = (current.backend_id, std::mem::take(&mut current.hits));
            current.key_len = 0;
            current.interned = std::ptr::null();
            // The loaded-class test, first: a key that names a loaded class takes the full path, which
            // reports it, with nothing looked up or counted here. A key too long to be hot (a `LoweredName`
            // holds a hot key) takes it too.
            let lowered = keep_class_test(key, &HOT_CLASS, tier)
                .filter(|&lowered| !kept_class_loaded(lowered, &HOT_CLASS, tier, class_loaded));
            let Some(lowered) = lowered else {
                if old.0 == backend_id {
                    backend.record_lookups(old.1, 0);
                }
                return HotFetch::Slow;
            };
            // A key this thread has no current copy of: the index step builds one, as the full path would,
            // without its argument checks again. A miss or an error takes the full path.
            match hot_from_lookup_cache(tier, backend, (key, interned), epoch, plain, old) {
                HotLookup::Hot(found) => {
                    *current = found;
                    current.lowered = lowered;
                }
                // Handed out without becoming the hot key (it has no copy to hand out again).
                HotLookup::Once(local) => return HotFetch::Local(local),
                HotLookup::No => return HotFetch::Slow,
            }
        }
        if current.expires_ms != 0 && now_ms() >= current.expires_ms {
            return HotFetch::Slow;
        }
        current.hits += 1;
        if current.hits >= FLUSH_EVERY {
            backend.record_lookups(std::mem::take(&mut current.hits), 0);
        }
        match current.value {
            HotValue::Ready(ready) => {
                // SAFETY: the caller guarantees a writable slot with nothing to release; the value is kept
                // alive by its local copy (see `Hot`), and `to_zval` adds the reference a refcounted one
                // needs.
                unsafe { std::ptr::write(out, ready.to_zval()) };
                HotFetch::Written
            }
            // SAFETY: `local` is `Rc::as_ptr` of a local copy that is still alive (see `Hot`); the count
            // is raised for the `Rc` made from it.
            HotValue::Local(local) => HotFetch::Local(unsafe {
                Rc::increment_strong_count(local);
                Rc::from_raw(local)
            }),
        }
    })
}

/// Hands out a hit [`fetch_hot`] returned (see [`fetch`]).
pub fn hand_out_hit(tier: Tier, key: &[u8], local: &Rc<Local>, out: &mut zval) -> Result<Fetched, DecodeError> {
    hand_out(tier, key, local, out).map(|()| Fetched::Hit)
}

/// What the lookup cache says about a key that is to become hot.
enum HotLookup {
    /// A hit of a built copy valid at the epoch.
    Hot(Hot),
    /// The key cannot be hot: a miss, an error to report, a key the hot path does not check, a copy
    /// kept encoded.
    No,
    /// A copy of the stored bytes to hand out once (`LocalValue::Encoded`), counted as a hit: the first
    /// read of a version ([`READ_ONCE_MAX`]), or one past the bound on superseded copies.
    Once(Rc<Local>),
}

/// The hot key entry for `bytes` (`interned`: its string is interned), whose loaded-class test was
/// made, from the lookup cache: a hit of a built copy valid at `epoch`, or else what the index step
/// finds, in the same borrow of the cache and with the key hashed once. The previous hot key's hits
/// (`old`: its backend instance and hits) are moved to the counters.
fn hot_from_lookup_cache(
    tier: Tier,
    backend: &Backend,
    (bytes, interned): (&[u8], bool),
    epoch: u64,
    plain: impl FnOnce(&[u8]) -> bool,
    old: (u64, u64),
) -> HotLookup {
    CACHE.with(|c| {
        let Ok(mut c) = c.try_borrow_mut() else {
            return HotLookup::No;
        };
        let cache = c.backend(tier, backend);
        if old.0 == cache.backend_id {
            cache.hits += old.1;
        }
        if bytes.len() > HOT_KEY_MAX || !plain(bytes) {
            return HotLookup::No;
        }
        let hash = cache.slots.hasher().hash_one(bytes);
        // Known at this epoch: a hit becomes hot, a miss takes the full path. A copy remembered before
        // the last change is checked by the index step, with the one fetch that also builds the new
        // version when the entry changed.
        if let RawEntryMut::Occupied(slot) = cache.slots.raw_entry_mut().from_key_hashed_nocheck(hash, bytes) {
            let slot = slot.into_mut();
            if slot.epoch == epoch {
                match slot.known(None, bytes, epoch, &mut None) {
                    Some(Lookup::Hit(local)) => return hot_of(local, bytes, interned, backend.instance_id(), epoch),
                    Some(Lookup::Miss) => return HotLookup::No,
                    _ => {}
                }
            }
        }
        match index_step(&mut c, tier, backend, (bytes, hash), epoch, 0) {
            // A copy of the stored bytes, made once in the request heap (a version read once, or past the
            // bound on superseded copies), is handed out as it is.
            Ok(Some(local)) if matches!(local.value, LocalValue::Encoded { .. }) => {
                c.backends[tier.index()].hits += 1;
                HotLookup::Once(local)
            }
            Ok(Some(local)) => hot_of(&local, bytes, interned, backend.instance_id(), epoch),
            Ok(None) | Err(_) => HotLookup::No,
        }
    })
}

/// The hot key entry for `bytes` whose local copy, valid at `epoch`, is `local` (`No` for a key too
/// long to be hot or a copy kept encoded).
fn hot_of(local: &Rc<Local>, bytes: &[u8], interned: bool, backend_id: u64, epoch: u64) -> HotLookup {
    let mut key = [0; HOT_KEY_MAX];
    let Some(copy) = key.get_mut(..bytes.len()) else {
        return HotLookup::No;
    };
    copy.copy_from_slice(bytes);
    let value = match (&local.value, local.ready_root()) {
        (LocalValue::Encoded { .. }, _) => return HotLookup::No,
        (_, Some(ready)) => HotValue::Ready(ready),
        (_, None) => HotValue::Local(Rc::as_ptr(local)),
    };
    HotLookup::Hot(Hot {
        key,
        key_len: bytes.len(),
        interned: if interned { bytes.as_ptr() } else { std::ptr::null() },
        lowered: false,
        backend_id,
        epoch,
        version: local.version,
        expires_ms: local.expires_ms,
        value,
        hits: 0,
    })
}

/// The lookup-cache pass of `getMultiple()`: every key is looked up in one borrow of the cache (one
/// epoch read, the clock read at most once). A hit whose value needs no work per fetch (a scalar, or a
/// string or object-free array this thread keeps: `Blueprint::ready_root`) is written into its slot
/// there, without PHP allocation. Every other key is returned in order with its outcome, for
/// [`fetch_looked_up`]. Known hits and misses are counted here.
///
/// # Safety
/// Each slot must be a live, writable zval slot holding nothing to release (null).
pub unsafe fn fetch_ready_many<'k>(
    tier: Tier,
    backend: &Backend,
    slots: &'k [(std::borrow::Cow<'_, [u8]>, *mut zval)],
) -> Vec<(&'k [u8], *mut zval, Lookup)> {
    let epoch = backend.epoch();
    let mut now = None;
    let mut pending = Vec::new();
    CACHE.with_borrow_mut(|c| {
        let cache = c.backend(tier, backend);
        for (key, slot) in slots {
            let (key, slot) = (&key[..], *slot);
            let looked = match cache.known(Some(backend), key, epoch, 1, &mut now) {
                Some(Lookup::Hit(local)) => {
                    if let Some(ready) = local.ready_root() {
                        // SAFETY: the caller guarantees a writable slot with nothing to release.
                        unsafe { write_element(slot, ready.to_zval()) };
                        continue;
                    }
                    Lookup::Hit(local.clone())
                }
                known => known.cloned().unwrap_or(Lookup::Unknown),
            };
            pending.push((key, slot, looked));
        }
        cache.flush_if_due(backend);
    });
    pending
}

/// `ZVAL_COPY_VALUE` of `value` into `element`, an element of a hash table: its value and type are
/// written, its `u2` (`Z_NEXT`, the link of the bucket's hash collision chain) is kept. Writing a whole
/// zval there would cut the chain (or loop it back to the first bucket), and later lookups of the
/// table would miss keys or never end.
///
/// # Safety
/// `element` must be a live, writable element holding nothing to release.
pub unsafe fn write_element(element: *mut zval, value: zval) {
    let value = std::mem::ManuallyDrop::new(value);
    // SAFETY: as the caller guarantees; the element takes over the value's reference.
    unsafe {
        (*element).value = value.value;
        (*element).u1 = value.u1;
    }
}

/// The repeated `getMultiple()` of keys this thread knows, without defaults: one pass over the
/// argument `keys` that checks each key, gives it its place in `result` and writes its value there, in
/// one borrow of the lookup cache (one epoch read, the clock read at most once). Answers when every key
/// is a string that is no integer key, whose argument checks but the loaded-class test the lookup cache
/// has worked out (`plain`, once per key), that names no loaded class (`class_loaded`, the exact test,
/// run on every call), and that is a known miss (null) or a hit whose value needs no work per fetch
/// (`Blueprint::ready_root`). A repeated key keeps its first place. True: `result` is filled and the
/// hits and misses are counted. False, with nothing counted: the full path must run (it reports every
/// error), and `result`, partly filled, must be discarded.
///
/// # Safety
/// `keys` must be the live argument array, not modified during the call; `result` a writable array of
/// this request that was empty and is sized for every key (its slots do not move); `class_loaded`
/// must not run userland code.
pub unsafe fn fetch_many_hot(
    tier: Tier,
    backend: &Backend,
    keys: *mut HashTable,
    result: *mut HashTable,
    plain: impl Fn(&[u8]) -> bool,
    class_loaded: impl Fn(*mut zend_string) -> bool,
) -> bool {
    let epoch = backend.epoch();
    let mut now = None;
    let (mut hits, mut misses) = (0, 0);
    let answered = CACHE.with(|c| {
        let Ok(mut c) = c.try_borrow_mut() else {
            return false;
        };
        c.passes += 1;
        let pass = c.passes;
        let cache = c.backend(tier, backend);
        // SAFETY: as the caller guarantees; elements of a live array are live zvals.
        for (_, element) in unsafe { zvals::entries(keys) } {
            // SAFETY: `element` is a live zval; a string's bytes live as long as the argument.
            let (s, key) = unsafe {
                let z = zend::deref(element);
                if zend::type_of(z) != IS_STRING {
                    return false;
                }
                ((*z).value.str_, zend::str_bytes(z))
            };
            // An empty key (an error) or one PHP may read as an integer takes the full path.
            if key.first().is_none_or(|b| b.is_ascii_digit() || *b == b'-') {
                return false;
            }
            let Some(slot) = cache.slots.get_mut(key) else {
                return false;
            };
            if slot.pass == pass {
                // A repeated key (the same bytes have one slot): its first place has the value.
                continue;
            }
            if !*slot.plain.get_or_insert_with(|| plain(key)) || class_loaded(s) {
                return false;
            }
            let value = match slot.known(Some(backend), key, epoch, &mut now) {
                Some(Lookup::Miss) => {
                    misses += 1;
                    zval::new()
                }
                Some(Lookup::Hit(local)) => {
                    let Some(ready) = local.ready_root() else {
                        return false;
                    };
                    hits += 1;
                    ready.to_zval()
                }
                _ => return false,
            };
            slot.pass = pass;
            // SAFETY: `result` is an initialised, writable array sized for every key, which does not hold
            // this key yet (every key given a place in this pass marked its slot); `s` is a live string,
            // interned or writable.
            unsafe { zvals::append_element(result, s, value) };
        }
        cache.hits += hits;
        cache.misses += misses;
        cache.flush_if_due(backend);
        true
    });
    answered
}

/// The local copy of `key` for a fetch, `None` for a miss: the lookup cache answers while it knows
/// (counting `count` for a hit or a miss), else the index step runs ([`index_step`]), in the same borrow
/// of the cache. `hash` is the key's hash in the table when the caller has it ([`KeyHash`]), else it is
/// computed, once for both.
fn local(
    tier: Tier,
    backend: &Backend,
    key: &[u8],
    hash: Option<u64>,
    count: u64,
) -> Result<Option<Rc<Local>>, DecodeError> {
    let epoch = backend.epoch();
    CACHE.with_borrow_mut(|c| {
        let cache = c.backend(tier, backend);
        let hash = hash.unwrap_or_else(|| cache.slots.hasher().hash_one(key));
        match cache.known_hashed(Some(backend), (key, hash), epoch, count, &mut None) {
            Some(Lookup::Hit(local)) => {
                let local = local.clone();
                cache.flush_if_due(backend);
                Ok(Some(local))
            }
            Some(_) => {
                cache.flush_if_due(backend);
                Ok(None)
            }
            None => index_step(c, tier, backend, (key, hash), epoch, count),
        }
    })
}

/// `has()`: whether `key` has a live entry. The lookup cache answers while it knows (a hit or a present
/// entry not expired, or a miss, at the current epoch); otherwise a walk of the index does
/// (`Backend::contains_until`), and its answer is remembered at the epoch read before it: a miss, or a
/// present entry with its expiry (unless the key's slot holds a local copy, or marks a version read once,
/// which a later fetch can still revalidate). A presence test is not a use: it counts no hit or miss and marks nothing recently
/// used (`apcu_exists()` does neither).
pub fn presence(tier: Tier, backend: &Backend, key: &[u8]) -> bool {
    let epoch = backend.epoch();
    let (known, holds_copy, hash) = CACHE.with_borrow_mut(|c| {
        let cache = c.backend(tier, backend);
        let hash = cache.slots.hasher().hash_one(key);
        let known =
            cache.known_hashed(None, (key, hash), epoch, 0, &mut None).map(|outcome| !matches!(outcome, Lookup::Miss));
        let holds_copy = matches!(
            cache.slots.raw_entry().from_key_hashed_nocheck(hash, key),
            Some((_, Slot { outcome: Lookup::Hit(_) | Lookup::Seen { .. }, .. }))
        );
        (known, holds_copy, hash)
    });
    if let Some(present) = known {
        return present;
    }
    let remember = |outcome| {
        CACHE.with_borrow_mut(|c| {
            let ThreadCache { backends, superseded, superseded_bytes, .. } = c;
            backends[tier.index()].remember(backend, (key, hash), epoch, outcome, (superseded, superseded_bytes));
        });
    };
    match backend.contains_until(key) {
        None => {
            remember(Lookup::Miss);
            false
        }
        Some(expires_ms) => {
            if !holds_copy {
                remember(Lookup::Present(expires_ms));
            }
            true
        }
    }
}

/// The last key [`presence_known`] answered for, per backend: a copy of the key (which passed the key
/// checks but the loaded-class test) and that test, the backend instance and mutation epoch the answer
/// holds at, the entry's expiry (0: none, or a miss) and the answer. Valid only while the epoch is
/// unchanged, so it needs no forgetting at request end.
#[derive(Clone, Copy)]
struct HotPresence {
    key: [u8; HOT_KEY_MAX],
    /// 0: none (the empty key is never valid).
    key_len: usize,
    /// Whether the key needs lower-casing for its loaded-class test (§4.2, made on every answer): the
    /// test is then [`HOT_PRESENCE_CLASS`]'s, else the class table is asked with the argument's string.
    lowered: bool,
    backend_id: u64,
    epoch: u64,
    expires_ms: u64,
    present: bool,
}

thread_local! {
    static HOT_PRESENCE: [Cell<HotPresence>; 2] = const {
        let none = HotPresence {
            key: [0; HOT_KEY_MAX],
            key_len: 0,
            lowered: false,
            backend_id: 0,
            epoch: 0,
            expires_ms: 0,
            present: false,
        };
        [Cell::new(none), Cell::new(none)]
    };
    /// The loaded-class test of each [`HotPresence`] key that needs lower-casing.
    static HOT_PRESENCE_CLASS: [Cell<zend::LoweredName>; 2] =
        const { [Cell::new(zend::LoweredName::NEVER), Cell::new(zend::LoweredName::NEVER)] };
}

/// [`presence`] of a key the lookup cache answers for at the current epoch, for `has()`'s repeated
/// test (`cache_ops::has_hot`): no argument conversion, and no key checks but the loaded-class test
/// (`class_loaded`) once the lookup cache knows the key passes them (`plain`, as in
/// [`fetch_many_hot`]). The same key tested again while nothing changed is answered by [`HotPresence`],
/// without the lookup cache, its loaded-class test made with the argument's string or, for a key that
/// needs lower-casing, from the lower-cased name with its hash it keeps. `None`
/// where the full path must run: a key the cache does not know, or one that fails a check.
pub fn presence_known(
    tier: Tier,
    backend: &Backend,
    key: &[u8],
    plain: impl FnOnce(&[u8]) -> bool,
    class_loaded: impl FnOnce() -> bool,
) -> Option<bool> {
    let epoch = backend.epoch();
    let backend_id = backend.instance_id();
    let hot = HOT_PRESENCE.with(|hot| {
        let hot = hot[tier.index()].get();
        (hot.key_len == key.len()
            && hot.key.get(..key.len()) == Some(key)
            && hot.backend_id == backend_id
            && hot.epoch == epoch
            && (hot.expires_ms == 0 || now_ms() < hot.expires_ms))
            .then_some((hot.present, hot.lowered))
    });
    if let Some((present, lowered)) = hot {
        let loaded = kept_class_loaded(lowered, &HOT_PRESENCE_CLASS, tier, class_loaded);
        return (!loaded).then_some(present);
    }
    let answer = CACHE.with(|c| {
        let mut c = c.try_borrow_mut().ok()?;
        let slot = c.backend(tier, backend).slots.get_mut(key)?;
        if !*slot.plain.get_or_insert_with(|| plain(key)) || class_loaded() {
            return None;
        }
        match slot.known(None, key, epoch, &mut None)? {
            Lookup::Hit(local) => Some((true, local.expires_ms)),
            Lookup::Present(expires_ms) | Lookup::Seen { expires_ms, .. } => Some((true, *expires_ms)),
            Lookup::Miss | Lookup::Unknown => Some((false, 0)),
        }
    });
    let (present, expires_ms) = answer?;
    let mut copy = [0; HOT_KEY_MAX];
    if let Some(to) = copy.get_mut(..key.len()) {
        to.copy_from_slice(key);
        if let Some(lowered) = keep_class_test(key, &HOT_PRESENCE_CLASS, tier) {
            let hot = HotPresence { key: copy, key_len: key.len(), lowered, backend_id, epoch, expires_ms, present };
            HOT_PRESENCE.with(|cell| cell[tier.index()].set(hot));
        }
    }
    Some(present)
}

/// Finishes a fetch from its lookup outcome. `count` is what one hit or miss adds to the counters
/// (0 or 1).
pub fn fetch_looked_up(
    tier: Tier,
    backend: &Backend,
    key: &[u8],
    looked: Lookup,
    out: &mut zval,
    count: u64,
) -> Result<Fetched, DecodeError> {
    let local = match looked {
        Lookup::Miss => None,
        Lookup::Hit(local) => Some(local),
        Lookup::Unknown | Lookup::Present(_) | Lookup::Seen { .. } => {
            let epoch = backend.epoch();
            CACHE.with_borrow_mut(|c| {
                let hash = c.backend(tier, backend).slots.hasher().hash_one(key);
                index_step(c, tier, backend, (key, hash), epoch, count)
            })?
        }
    };
    match local {
        Some(local) => hand_out(tier, key, &local, out).map(|()| Fetched::Hit),
        None => Ok(Fetched::Miss),
    }
}

/// What the index holds for a key: the version this thread has a copy of, or a new one, built while
/// the entry was held or copied out.
enum Found {
    /// The copy the thread has: the entry still holds its version.
    Current(Rc<Local>),
    Built(Result<Local, DecodeError>),
    Copied {
        version: u64,
        expires_ms: u64,
        tag: u16,
        bytes: Vec<u8>,
    },
    /// The first read of a small string, object-free array or graph of plain objects
    /// ([`READ_ONCE_MAX`]): its bytes, copied out ([`once_copy`]), for one request-heap copy.
    Once(Rc<Local>),
}

/// The index step of a read (§7.2) of `key`, whose hash in the lookup cache is `hash`, where the lookup
/// cache does not answer at `epoch` (read before this call): the shared index is asked once, and what it
/// holds is recorded in the key's slot, found with that one hash: the thread's copy still current, a new
/// version built, or copied out for one request-heap copy when read once (the slot then marks the version
/// read once, [`Lookup::Seen`]), or a miss. `count` is added to the hits or the misses. The entry is
/// released before this returns; no PHP code runs.
fn index_step(
    c: &mut ThreadCache,
    tier: Tier,
    backend: &Backend,
    (key, hash): (&[u8], u64),
    epoch: u64,
    count: u64,
) -> Result<Option<Rc<Local>>, DecodeError> {
    let within_budget = c.superseded_bytes as u64 <= backend.capacity_bytes();
    let ThreadCache { backends, superseded, superseded_bytes, .. } = c;
    let cache = &mut backends[tier.index()];
    let local = if let RawEntryMut::Occupied(slot) = cache.slots.raw_entry_mut().from_key_hashed_nocheck(hash, key) {
        // The version this thread has a copy of, or has read once, is not copied out again while the entry
        // still holds it (another key's change moves the epoch, not this entry); a new version takes the
        // slot in place.
        let slot = slot.into_mut();
        let retired = (&mut *superseded, &mut *superseded_bytes);
        match fetch_found(backend, key, &slot.outcome, within_budget) {
            Some(Found::Built(new)) => Some(slot.replace_copy(new?, epoch, &mut cache.live_bytes, retired)),
            found => {
                let (outcome, local) = outcome_of(found, within_budget)?;
                slot.record(outcome, epoch, &mut cache.live_bytes, retired);
                local
            }
        }
    } else {
        let (outcome, local) = outcome_of(fetch_found(backend, key, &Lookup::Unknown, within_budget), within_budget)?;
        cache.remember(backend, (key, hash), epoch, outcome, (superseded, superseded_bytes));
        local
    };
    match local {
        Some(_) => cache.hits += count,
        None => cache.misses += count,
    }
    cache.flush_if_due(backend);
    Ok(local)
}

/// What the index holds for `key`, fetched once: the thread's copy (`known`, the key's outcome in the
/// lookup cache) while the entry is still its version with its expiry, else the new version: copied out
/// for one request-heap copy on the thread's first read of a small string, object-free array or graph of
/// plain objects, built while the entry is held when it is small and the thread is `within_budget` (the
/// superseded copies' bound), or copied out. `None`: no entry.
#[inline(always)]
fn fetch_found(backend: &Backend, key: &[u8], known: &Lookup, within_budget: bool) -> Option<Found> {
    backend.fetch(key).map(|e| {
        let current = |version, expires_ms| version == e.version() && expires_ms == e.expires_ms();
        match known {
            Lookup::Hit(local) if current(local.version, local.expires_ms) => Found::Current(local.clone()),
            // Its second read: the copy kept is built.
            Lookup::Seen { version, expires_ms } if current(*version, *expires_ms) => {
                found_in(&e, within_budget, false)
            }
            _ => found_in(&e, within_budget, true),
        }
    })
}

/// The version `entry` holds, as [`fetch_found`] gives a new one (the entry is held meanwhile); `first`:
/// this thread has not read this version yet.
fn found_in(entry: &EntryRef<'_>, within_budget: bool, first: bool) -> Found {
    let (version, expires_ms) = (entry.version(), entry.expires_ms());
    let stored = entry.value();
    if first
        && stored.len() <= READ_ONCE_MAX
        && match entry.tag() {
            encoding::TAG_STRING => true,
            encoding::TAG_SHARED_GRAPH => graph_codec::plain_tree::likely_plain(stored),
            // `stdClass` objects are stored in this tier (§6.1), and a small graph of them is made without
            // a blueprint (`Blueprint::request_copy`); objects of userland classes alone are not.
            encoding::TAG_OPCACHE_SERIALIZED => graph_codec::small_graph::likely_small(stored),
            _ => false,
        }
    {
        return Found::Once(once_copy(version, expires_ms, entry.tag(), stored));
    }
    // A small value is built straight from the stored bytes, without copying them out first: the build
    // allocates with the system allocator only (no emalloc, no PHP callback), checks the bytes as it
    // would a copy, and is short.
    if within_budget && entry.value().len() <= BUILT_IN_PLACE_MAX {
        return Found::Built(Local::from_stored(version, expires_ms, entry.tag(), entry.value()));
    }
    Found::Copied { version, expires_ms, tag: entry.tag(), bytes: entry.value().to_vec() }
}

/// The copy (`LocalValue::Encoded`) of a version read once: `stored` copied into the thread's spare one
/// where it has one ([`recycle_once`]), else into a new one. Allocates with the system allocator only and
/// runs no PHP code (the entry is held meanwhile).
fn once_copy(version: u64, expires_ms: u64, tag: u16, stored: &[u8]) -> Rc<Local> {
    if let Some(mut spare) = SPARE_ONCE.try_with(Cell::take).ok().flatten() {
        if let Some(Local { version: v, expires_ms: e, value: LocalValue::Encoded { tag: t, bytes }, .. }) =
            Rc::get_mut(&mut spare)
        {
            (*v, *e, *t) = (version, expires_ms, tag);
            bytes.clear();
            bytes.extend_from_slice(stored);
            return spare;
        }
    }
    Rc::new(Local::new(version, expires_ms, LocalValue::Encoded { tag, bytes: stored.to_vec() }))
}

/// Gives back a copy handed out, for the next [`once_copy`]: kept when it is a copy of stored bytes
/// within [`READ_ONCE_MAX`] that nothing else holds and no request memo was made for (dropping one runs
/// no PHP code); any other is dropped.
pub fn recycle_once(local: Rc<Local>) {
    let reusable = Rc::strong_count(&local) == 1
        && Rc::weak_count(&local) == 0
        && matches!(&local.value, LocalValue::Encoded { bytes, .. } if bytes.capacity() <= READ_ONCE_MAX)
        && local.memo.try_borrow().is_ok_and(|memo| memo.is_none());
    if reusable {
        let _ = SPARE_ONCE.try_with(|spare| spare.set(Some(local)));
    }
}

/// What a key's slot records of what [`fetch_found`] found, and the copy to hand out (`None`: a miss): a
/// copied value is built, or kept encoded past the bound on superseded copies (`within_budget` false); a
/// version read once is marked as such, its copy handed out but not kept.
fn outcome_of(found: Option<Found>, within_budget: bool) -> Result<(Lookup, Option<Rc<Local>>), DecodeError> {
    let local = match found {
        None => return Ok((Lookup::Miss, None)),
        Some(Found::Once(once)) => {
            return Ok((Lookup::Seen { version: once.version, expires_ms: once.expires_ms }, Some(once)));
        }
        Some(Found::Current(local)) => local,
        Some(Found::Built(local)) => Rc::new(local?),
        Some(Found::Copied { version, expires_ms, tag, bytes }) if within_budget => {
            Rc::new(Local::from_stored(version, expires_ms, tag, &bytes)?)
        }
        Some(Found::Copied { version, expires_ms, tag, bytes }) => {
            Rc::new(Local::new(version, expires_ms, LocalValue::Encoded { tag, bytes }))
        }
    };
    Ok((Lookup::Hit(local.clone()), Some(local)))
}

/// How many keys the lookup cache of `backend` remembers: [`MAX_KEYS`], or more for a large backend
/// (one per [`BACKEND_BYTES_PER_KEY`]), at most [`KEYS_CEILING`].
fn key_cap(backend: &Backend) -> usize {
    usize::try_from(backend.capacity_bytes() / BACKEND_BYTES_PER_KEY)
        .map_or(KEYS_CEILING, |keys| keys.clamp(MAX_KEYS, KEYS_CEILING))
}

thread_local! {
    /// Whether this thread's lookup cache exists (and may hold counts): a forked child's handler touches
    /// nothing else, so it never creates the cache, in a child of a thread that had none.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

/// Registers (once per process) [`forget_inherited_counts`] to run in every child forked from here, and
/// notes that this thread counts.
fn forget_counts_in_forked_children() {
    COUNTING.set(true);
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        // SAFETY: the handler is a plain function that lives as long as the process; it touches only the
        // forking thread's own thread-locals, and nothing else runs in the child while it does. Should
        // registration fail (out of memory), a forked child only counts its parent's pending figures again.
        unsafe { libc::pthread_atfork(None, None, Some(forget_inherited_counts)) };
    });
}

/// In a forked child (`pcntl_fork()`): the hits and misses counted locally but not yet flushed are the
/// parent's, which flushes them itself; the child starts from zero (else its request end adds them a
/// second time).
extern "C" fn forget_inherited_counts() {
    if !COUNTING.get() {
        return;
    }
    // `try_with`: no panic may leave this handler (a thread-local being destroyed answers an error).
    let _ = CACHE.try_with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            for cache in &mut c.backends {
                (cache.hits, cache.misses) = (0, 0);
            }
        }
    });
    let _ = HOT.try_with(|hot| {
        for current in hot {
            if let Ok(mut current) = current.try_borrow_mut() {
                current.hits = 0;
            }
        }
    });
}

/// Adds the locally counted hits and misses to the backend's figures.
pub fn flush_counters(tier: Tier, backend: &Backend) {
    let (hits, misses) = CACHE.with_borrow_mut(|c| {
        let cache = &mut c.backends[tier.index()];
        if cache.backend_id != backend.instance_id() {
            return (0, 0);
        }
        HOT.with(|hot| {
            if let Ok(mut current) = hot[tier.index()].try_borrow_mut() {
                if current.backend_id == cache.backend_id {
                    cache.hits += std::mem::take(&mut current.hits);
                }
            }
        });
        (std::mem::take(&mut cache.hits), std::mem::take(&mut cache.misses))
    });
    backend.record_lookups(hits, misses);
}

/// Frees superseded blueprints. Call only when no request of this thread can reach them any more:
/// after a request's variables are destroyed (post-deactivate).
pub fn free_superseded() {
    let old = CACHE.with_borrow_mut(|c| {
        forget_hot(c);
        c.superseded_bytes = 0;
        std::mem::take(&mut c.superseded)
    });
    drop(old);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prepared_key_finds_its_slot_in_every_table_of_every_thread() {
        // Attribute unit keys' length (hashed by foldhash's long-key path), differing in the last byte.
        let key: &[u8] = b"volatile_static_unit:App\\Http\\Controllers\\UserController::$routes";
        let other: &[u8] = b"volatile_static_unit:App\\Http\\Controllers\\UserController::$router";
        let prepared = prepare_key(key);
        assert_eq!(&prepared[..], key);
        // Prepared on another thread: the same hash, as every table of the process hashes alike.
        let from_thread = std::thread::spawn(move || prepare_key(key)).join().unwrap();
        assert_eq!(from_thread.hash, prepared.hash);
        assert_ne!(prepare_key(other).hash, prepared.hash);
        // A table made after the key was prepared (a new backend, or an emptied cache, makes one), with
        // the lookup cache's keys and hasher (its slots' drop needs PHP, so a number stands for a slot).
        let mut slots: hashbrown::HashMap<SlotKey, u32, SlotHasher> = hashbrown::HashMap::default();
        slots.insert(SlotKey::new(key), 1);
        slots.insert(SlotKey::new(other), 2);
        let found = |slots: &mut hashbrown::HashMap<SlotKey, u32, SlotHasher>, k: &KeyHash| match slots
            .raw_entry_mut()
            .from_key_hashed_nocheck(k.hash, &k[..])
        {
            RawEntryMut::Occupied(slot) => Some(*slot.into_mut()),
            RawEntryMut::Vacant(_) => None,
        };
        for _ in 0..2 {
            assert_eq!(found(&mut slots, &prepared), Some(1));
            assert_eq!(found(&mut slots, &from_thread), Some(1));
            assert_eq!(found(&mut slots, &prepare_key(other)), Some(2));
            assert_eq!(found(&mut slots, &prepare_key(b"absent")), None);
            // Found the same once the table grew (every slot moved).
            for i in 0..20_000 {
                slots.insert(SlotKey::new(format!("key{i}").as_bytes()), 3);
            }
        }
        assert_eq!(slots.len(), 20_002);
    }

    #[test]
    fn lookup_cache_keys_are_found_by_their_bytes_inline_or_not() {
        let mut slots: HashMap<SlotKey, u32> = HashMap::default();
        let keys: Vec<Vec<u8>> = (0..40).map(|len| (0..len).map(|i| b'a' + (i % 26) as u8).collect()).collect();
        for (i, key) in keys.iter().enumerate() {
            slots.insert(SlotKey::new(key), i as u32);
        }
        assert!(matches!(SlotKey::new(&keys[INLINE_KEY_MAX]), SlotKey::Inline(..)));
        assert!(matches!(SlotKey::new(&keys[INLINE_KEY_MAX + 1]), SlotKey::Heap(_)));
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(slots.get(key.as_slice()), Some(&(i as u32)), "key of {i} bytes");
        }
        // A key differing in its last byte, or a prefix padded with zeros, is another key.
        assert_eq!(slots.get(&b"abcdefghijklmnopqrstuw"[..]), None);
        assert_eq!(slots.get(&b"ab\0"[..]), None);
    }
}
