//! The read path's two caches (spec §7.2–7.3), per thread and per backend:
//!
//! * a lookup cache, key → outcome (hit or miss) tagged with the backend's mutation epoch: while the
//!   epoch is unchanged, a repeated read skips the shared index entirely; after any change anywhere the
//!   next read re-validates against the index (and, for a hit, against the entry version);
//! * the local copy of a hit: for strings and object-free, reference-free arrays an engine-immutable
//!   copy (`immutable`), handed out by pointer, so repeated fetches copy nothing; for other values the
//!   encoded bytes, decoded into the request heap on each fetch.
//!
//! Both live across requests of the thread (the epoch and version tags keep them exact); superseded
//! immutable copies may still be referenced by the current request, so they are only freed after it
//! (`free_superseded`, called at post-deactivate). Within one long request (a worker script) superseded
//! copies are capped at the backend's size; past the cap, changed values are fetched as ordinary
//! request-heap copies instead (§7.5). Hits and misses are counted locally and flushed to the backend
//! at request end and before `info()`.

use foldhash::HashMap;
use std::cell::RefCell;
use std::rc::Rc;

use ext_php_rs::ffi::zval;
use shm_core::{Backend, Clock, MonotonicClock};

use crate::immutable::{self, Immutable};
use crate::prototype;
use crate::runtime::Tier;
use crate::zval_out::{self, DecodeError};

/// Keys remembered per backend before the lookup cache starts over.
const MAX_KEYS: usize = 16_384;

enum LocalValue {
    Immutable(Immutable),
    Encoded { tag: u16, bytes: Vec<u8> },
}

/// The local copy of one stored version.
struct Local {
    version: u64,
    expires_ms: u64,
    value: LocalValue,
}

enum Outcome {
    Miss,
    Hit(Rc<Local>),
}

struct Slot {
    epoch: u64,
    outcome: Outcome,
}

#[derive(Default)]
struct BackendCache {
    /// Identifies the backend the slots belong to (a module restart maps a new one).
    backend_id: u64,
    slots: HashMap<Vec<u8>, Slot>,
    /// Bytes of the immutable copies the slots hold.
    live_bytes: usize,
    hits: u64,
    misses: u64,
}

#[derive(Default)]
struct ThreadCache {
    backends: [BackendCache; 2],
    /// This request's prototypes of object values, per backend: key → (entry version, decoded value).
    prototypes: [HashMap<Vec<u8>, (u64, zval)>; 2],
    /// Immutable copies replaced while a request might still hold them.
    superseded: Vec<Rc<Local>>,
    superseded_bytes: usize,
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

impl ThreadCache {
    fn backend(&mut self, tier: Tier, backend: &Backend) -> &mut BackendCache {
        let id = backend.instance_id();
        let cache = &mut self.backends[tier.index()];
        if cache.backend_id != id {
            let old = std::mem::take(&mut cache.slots);
            cache.backend_id = id;
            cache.live_bytes = 0;
            cache.hits = 0;
            cache.misses = 0;
            Self::retire_slots(&mut self.superseded, &mut self.superseded_bytes, old);
        }
        &mut self.backends[tier.index()]
    }

    fn retire_slots(superseded: &mut Vec<Rc<Local>>, bytes: &mut usize, slots: HashMap<Vec<u8>, Slot>) {
        for slot in slots.into_values() {
            if let Outcome::Hit(local) = slot.outcome {
                Self::retire(superseded, bytes, local);
            }
        }
    }

    fn retire(superseded: &mut Vec<Rc<Local>>, bytes: &mut usize, local: Rc<Local>) {
        if let LocalValue::Immutable(imm) = &local.value {
            *bytes += imm.bytes();
            superseded.push(local);
        }
    }

    fn live_bytes_of(outcome: &Outcome) -> usize {
        match outcome {
            Outcome::Hit(local) => match &local.value {
                LocalValue::Immutable(imm) => imm.bytes(),
                LocalValue::Encoded { .. } => 0,
            },
            Outcome::Miss => 0,
        }
    }
}

fn now_ms() -> u64 {
    MonotonicClock.now_ms()
}

fn expired(local: &Local) -> bool {
    local.expires_ms != 0 && now_ms() >= local.expires_ms
}

/// Writes the local copy's value into `out`: the immutable copy itself, or a copy of this request's
/// prototype, or a fresh decode (which becomes the prototype when it can be copied).
fn hand_out(tier: Tier, key: &[u8], local: &Local, out: &mut zval) -> Result<(), DecodeError> {
    let (tag, bytes) = match &local.value {
        LocalValue::Immutable(imm) => {
            *out = imm.zval();
            return Ok(());
        }
        LocalValue::Encoded { tag, bytes } => (*tag, bytes),
    };
    let from_prototype = CACHE.with_borrow(|c| match c.prototypes[tier.index()].get(key) {
        // SAFETY: the prototype is a live value of this request.
        Some((version, proto)) if *version == local.version => unsafe { prototype::copy(proto, false) },
        _ => None,
    });
    if let Some(copy) = from_prototype {
        *out = copy;
        return Ok(());
    }
    zval_out::decode(tag, bytes, out)?;
    keep_prototype(tier, key, local.version, out);
    Ok(())
}

/// Keeps a copy of `decoded` (this request's fresh decode of `version`) as the key's prototype, when
/// the value can be copied.
fn keep_prototype(tier: Tier, key: &[u8], version: u64, decoded: &zval) {
    // SAFETY: `decoded` is a live value of this request.
    if let Some(proto) = unsafe { prototype::copy(decoded, true) } {
        let old = CACHE.with_borrow_mut(|c| c.prototypes[tier.index()].insert(key.to_vec(), (version, proto)));
        drop(old);
    }
}

/// Releases this request's prototypes (request end; in worker mode, each HTTP request's end).
pub fn drop_prototypes() {
    let old = CACHE.with_borrow_mut(|c| std::mem::take(&mut c.prototypes));
    drop(old);
}

/// Fetches `key` into `out`, counting a hit or a miss. A decode failure is returned to the caller,
/// which reports and removes the broken entry.
pub fn fetch(tier: Tier, backend: &Backend, key: &[u8], out: &mut zval) -> Result<Fetched, DecodeError> {
    fetch_with(tier, backend, key, out, 1)
}

/// [`fetch`] without counting a hit or a miss: restores of attributed statics are not lookups by
/// `get()` (§15).
pub fn fetch_uncounted(tier: Tier, backend: &Backend, key: &[u8], out: &mut zval) -> Result<Fetched, DecodeError> {
    fetch_with(tier, backend, key, out, 0)
}

/// `count` is what one hit or miss adds to the counters (0 or 1).
fn fetch_with(tier: Tier, backend: &Backend, key: &[u8], out: &mut zval, count: u64) -> Result<Fetched, DecodeError> {
    let epoch = backend.epoch();
    // Fast path: this key was looked up since the last change to the backend.
    let cached = CACHE.with_borrow_mut(|c| {
        let cache = c.backend(tier, backend);
        let slot = cache.slots.get(key).filter(|s| s.epoch == epoch)?;
        match &slot.outcome {
            Outcome::Miss => {
                cache.misses += count;
                Some(Outcome::Miss)
            }
            Outcome::Hit(local) if !expired(local) => {
                cache.hits += count;
                Some(Outcome::Hit(local.clone()))
            }
            Outcome::Hit(_) => None,
        }
    });
    match cached {
        Some(Outcome::Miss) => return Ok(Fetched::Miss),
        Some(Outcome::Hit(local)) => return hand_out(tier, key, &local, out).map(|()| Fetched::Hit),
        None => {}
    }
    // Slow path: consult the shared index; the entry is released before any PHP code runs.
    let found = backend.fetch(key).map(|e| (e.version(), e.expires_ms(), e.tag(), e.value().to_vec()));
    let Some((version, expires_ms, tag, bytes)) = found else {
        remember(tier, backend, key, epoch, Outcome::Miss);
        CACHE.with_borrow_mut(|c| c.backend(tier, backend).misses += count);
        return Ok(Fetched::Miss);
    };
    let same_version = CACHE.with_borrow_mut(|c| match c.backend(tier, backend).slots.get(key) {
        Some(Slot { outcome: Outcome::Hit(local), .. }) if local.version == version => Some(local.clone()),
        _ => None,
    });
    let local = match same_version {
        Some(local) => local,
        None => {
            zval_out::decode(tag, &bytes, out)?;
            let within_budget = CACHE.with_borrow(|c| c.superseded_bytes as u64 <= backend.capacity_bytes());
            // SAFETY: `out` holds the freshly decoded value; persist only reads it.
            let persisted = if within_budget { unsafe { immutable::persist(out) } } else { None };
            let value = match persisted {
                Some(imm) => {
                    // Assigning releases the request-heap value just decoded.
                    *out = imm.zval();
                    LocalValue::Immutable(imm)
                }
                None => LocalValue::Encoded { tag, bytes },
            };
            if matches!(value, LocalValue::Encoded { .. }) {
                keep_prototype(tier, key, version, out);
            }
            let local = Rc::new(Local { version, expires_ms, value });
            remember(tier, backend, key, epoch, Outcome::Hit(local));
            CACHE.with_borrow_mut(|c| c.backend(tier, backend).hits += count);
            return Ok(Fetched::Hit);
        }
    };
    remember(tier, backend, key, epoch, Outcome::Hit(local.clone()));
    CACHE.with_borrow_mut(|c| c.backend(tier, backend).hits += count);
    hand_out(tier, key, &local, out).map(|()| Fetched::Hit)
}

/// Records the outcome for `key`, retiring the copy it replaces. The lookup cache starts over when it
/// holds too many keys, or immutable copies larger than the backend itself (stale keys are only
/// revalidated when read again, so the cap keeps memory bounded).
fn remember(tier: Tier, backend: &Backend, key: &[u8], epoch: u64, outcome: Outcome) {
    CACHE.with_borrow_mut(|c| {
        let ThreadCache { backends, superseded, superseded_bytes, .. } = c;
        let cache = &mut backends[tier.index()];
        debug_assert_eq!(cache.backend_id, backend.instance_id());
        let added = ThreadCache::live_bytes_of(&outcome);
        let full = cache.slots.len() >= MAX_KEYS || (cache.live_bytes + added) as u64 > backend.capacity_bytes();
        if full && !cache.slots.contains_key(key) {
            ThreadCache::retire_slots(superseded, superseded_bytes, std::mem::take(&mut cache.slots));
            cache.live_bytes = 0;
        }
        let keep = match &outcome {
            Outcome::Hit(new) => Some(Rc::as_ptr(new)),
            Outcome::Miss => None,
        };
        cache.live_bytes += added;
        if let Some(old) = cache.slots.insert(key.to_vec(), Slot { epoch, outcome }) {
            let removed = ThreadCache::live_bytes_of(&old.outcome);
            if let Outcome::Hit(old) = old.outcome {
                cache.live_bytes = cache.live_bytes.saturating_sub(removed);
                if keep != Some(Rc::as_ptr(&old)) {
                    ThreadCache::retire(superseded, superseded_bytes, old);
                }
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
        (std::mem::take(&mut cache.hits), std::mem::take(&mut cache.misses))
    });
    backend.record_lookups(hits, misses);
}

/// Frees superseded immutable copies. Call only when no request of this thread can reach them any
/// more: after a request's variables are destroyed (post-deactivate).
pub fn free_superseded() {
    let old = CACHE.with_borrow_mut(|c| {
        c.superseded_bytes = 0;
        std::mem::take(&mut c.superseded)
    });
    drop(old);
}
