//! PHP value → stored bytes (§6). A top-level scalar keeps its own tag and its bytes go to the store as
//! they are; an array or object is written in one pass by the walk (`zval_walk`) into a buffer the
//! thread reuses from one store to the next; a value that needs `PHPSerialized` goes through PHP's
//! `serialize()` after the §6.6 pre-check. Runs before any shm-core call: the bytes are handed to the
//! caller's store function only once the encoding is complete and no PHP code can run any more.

use std::cell::Cell;
use std::ptr::NonNull;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use ext_php_rs::ffi::{
    zend_class_entry, zval, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_INDIRECT, IS_LONG, IS_NULL, IS_OBJECT, IS_REFERENCE,
    IS_STRING, IS_TRUE,
};
use graph_codec::{ClassInfo, MAX_DEPTH_PHP_SERIALIZED};

use crate::class_info;
use crate::encoding::{self, Encoded};
use crate::request;
use crate::zend;
use crate::zval_walk::{self, Stop, Walk};
use crate::zvals;
use shm_core::Backend;

/// The longest encoding a store can take: that of `Backend::max_value_len` for the key length, worked
/// out only for a value that needs the general walk (a small flat array never comes near it, and the
/// store refuses it itself if need be).
#[derive(Clone, Copy)]
pub struct Bound<'a>(Limit<'a>);

#[derive(Clone, Copy)]
enum Limit<'a> {
    None,
    Store(&'a Backend, usize),
    Bytes(u64),
}

impl<'a> Bound<'a> {
    /// No bound.
    pub const NONE: Bound<'static> = Bound(Limit::None);

    /// The largest value `backend` takes under a key of `key_len` bytes.
    pub fn of(backend: &'a Backend, key_len: usize) -> Self {
        Bound(Limit::Store(backend, key_len))
    }

    /// At most `bytes`: a store's bound worked out before the encoding, for a caller that must not hold
    /// the backend while hooks run.
    pub fn bytes_at_most(bytes: u64) -> Self {
        Bound(Limit::Bytes(bytes))
    }

    /// The bound in bytes.
    pub fn bytes(self) -> usize {
        let bytes = match self.0 {
            Limit::None => return usize::MAX,
            Limit::Store(backend, key_len) => backend.max_value_len(key_len),
            Limit::Bytes(bytes) => bytes,
        };
        usize::try_from(bytes).unwrap_or(usize::MAX)
    }
}

pub enum EncodeError {
    /// A nested resource, Closure or non-serializable object, or nesting beyond the limit: the
    /// explicit API returns `false` and stores nothing.
    Unstorable,
    /// The encoding would pass the bound it was given: the store could not take it (found as the
    /// output outgrew the bound, so it was not made in full).
    TooLarge,
    /// A userland hook threw; the exception propagates.
    Thrown,
}

thread_local! {
    /// The walk's buffers, reused by the next store on this thread.
    static IDLE_WALK: Cell<Option<Box<Walk>>> = const { Cell::new(None) };
    /// The walks lent to the encodings in progress, outermost first (a hook that calls `set()` nests a
    /// store), and the request that borrowed them. A fatal error in a hook longjmps past the encodings
    /// without returning their walks; the next request takes them back, or the thread's end
    /// ([`LentWalks`]). Taken out of the cell and put back at once, never borrowed while an encoding runs.
    static LENT_WALKS: Cell<(u64, LentWalks)> = const { Cell::new((0, LentWalks(Vec::new()))) };
}

/// The walks lent to encodings, leaked boxes. Dropped only with the thread's locals (`with_walk` puts
/// what it takes out of [`LENT_WALKS`] back): a walk still lent then was longjmped past in the thread's
/// last request, which no next request took back, and is freed here.
#[derive(Default)]
struct LentWalks(Vec<NonNull<Walk>>);

impl Drop for LentWalks {
    fn drop(&mut self) {
        for walk in self.0.drain(..) {
            // SAFETY: leaked by `with_walk` for an encoding that never returned it; the thread has ended,
            // so nothing uses it any more.
            let mut walk = unsafe { Box::from_raw(walk.as_ptr()) };
            walk.abandon();
        }
    }
}

/// Runs `encode` with a walk of this thread and the current request's id. A store that starts while
/// another one is encoding in the same request (a hook that calls `set()`) gets a walk of its own.
fn with_walk<R>(encode: impl FnOnce(&mut Walk, u64) -> R) -> R {
    let request = request::owner().0;
    let (borrower, mut lent) = LENT_WALKS.take();
    if borrower != request {
        // The outermost walk, kept last, is the one whose buffers have grown to this thread's stores.
        for walk in lent.0.drain(..).rev() {
            // SAFETY: the walk was lent to an earlier request whose encoding never returned it: PHP bailed
            // out of a hook (a longjmp past every frame of that request), so nothing uses it any more.
            let mut walk = unsafe { Box::from_raw(walk.as_ptr()) };
            walk.abandon();
            IDLE_WALK.set(Some(walk));
        }
    }
    let walk = if lent.0.is_empty() { IDLE_WALK.take() } else { None };
    let walk = NonNull::from(Box::leak(walk.unwrap_or_else(|| Box::new(Walk::new()))));
    lent.0.push(walk);
    LENT_WALKS.set((request, lent));
    // SAFETY: the walk is this call's alone until it is returned below (nested stores get their own).
    let result = encode(unsafe { &mut *walk.as_ptr() }, request);
    let (borrower, mut lent) = LENT_WALKS.take();
    let Some(position) = lent.0.iter().rposition(|&w| w == walk) else {
        // Taken back by a request that began inside `encode`: no longer this call's to keep.
        LENT_WALKS.set((borrower, lent));
        return result;
    };
    // Only this walk is returned, wherever it sits. The walks lent after it are not necessarily dead:
    // a hook that suspends a Fiber leaves its store's walk lent while other code (another Fiber, or the
    // main one) stores, so stores do not end in the order they began, and a walk above this one may
    // belong to a store that resumes later. One that is dead (a nested store whose encoding never
    // returned, its bailout caught inside `encode`) stays lent until the next request takes it back:
    // a caught bailout is raised again before the request goes on.
    lent.0.remove(position);
    LENT_WALKS.set((borrower, lent));
    // Kept for the next store (a nested store's walk, kept meanwhile, gives way to the outer one).
    // SAFETY: leaked above and no longer borrowed.
    IDLE_WALK.set(Some(unsafe { Box::from_raw(walk.as_ptr()) }));
    result
}

/// Encodes `z` (already checked for a top-level resource or Closure where the API requires it) and
/// passes its tag and bytes to `store`. An array or object whose encoding would pass `limit` is
/// `Unstorable`, found as its output outgrows the bound: a large string nested in it is neither hashed
/// nor copied (a scalar or top-level string goes to `store` as it is, which refuses it the same way at
/// once).
pub fn encode_with<R>(z: *mut zval, limit: Bound<'_>, store: impl FnOnce(u16, &[u8]) -> R) -> Result<R, EncodeError> {
    // SAFETY: `z` is a live zval owned by the caller for the duration of the call.
    unsafe {
        let z = zend::deref(z);
        Ok(match zend::type_of(z) {
            IS_NULL => store(encoding::TAG_NULL, &[]),
            IS_FALSE => store(encoding::TAG_FALSE, &[]),
            IS_TRUE => store(encoding::TAG_TRUE, &[]),
            IS_LONG => store(encoding::TAG_INT, &(*z).value.lval.to_le_bytes()),
            IS_DOUBLE => store(encoding::TAG_DOUBLE, &(*z).value.dval.to_bits().to_le_bytes()),
            IS_STRING => store(encoding::TAG_STRING, zend::str_bytes(z)),
            IS_ARRAY | IS_OBJECT => {
                with_walk(|walk, request| encode_graph(walk, z, request, limit).map(|tag| store(tag, walk.bytes())))?
            }
            _ => return Err(EncodeError::Unstorable),
        })
    }
}

/// [`encode_with`] into an owned copy.
pub fn encode(z: *mut zval, limit: Bound<'_>) -> Result<Encoded, EncodeError> {
    encode_with(z, limit, |tag, bytes| Encoded { tag, bytes: bytes.to_vec() })
}

/// # Safety
/// `z` must be a live array or object zval.
unsafe fn encode_graph(walk: &mut Walk, z: *mut zval, request: u64, limit: Bound<'_>) -> Result<u16, EncodeError> {
    // SAFETY: caller guarantees a live value.
    match unsafe { walk.encode(z, request, limit) } {
        Ok(tier) => Ok(encoding::graph_tag(tier)),
        // What the walk wrote so far is past the bound already (for `NeedsPhpSerialize` too: `serialize()`
        // writes each of those strings in full, so its result could not be stored either).
        Err(Stop::Unstorable | Stop::NeedsPhpSerialize) if walk.over_limit() => Err(EncodeError::TooLarge),
        Err(Stop::Unstorable) => Err(EncodeError::Unstorable),
        Err(Stop::Thrown) => Err(EncodeError::Thrown),
        // SAFETY: as above; no hook has run yet, so `z` is unchanged.
        Err(Stop::NeedsPhpSerialize) => unsafe { php_serialized(walk, z) },
    }
}

/// The `PHPSerialized` path: refuse what `serialize()` would choke on or crash with, then run it.
///
/// # Safety
/// `z` must be a live array or object zval.
unsafe fn php_serialized(walk: &mut Walk, z: *mut zval) -> Result<u16, EncodeError> {
    // SAFETY: caller guarantees a live value; the pre-check runs no userland code.
    unsafe {
        precheck(z)?;
        let mut out = zval::new();
        zend::call_function(c"serialize", z, &mut out).map_err(|_| EncodeError::Thrown)?;
        if zend::type_of(&raw const out) != IS_STRING {
            return Err(EncodeError::Unstorable);
        }
        // The bytes are copied into the walk's buffer, within the bound; `out` is released after.
        if walk.php_serialized(out.value.str_) {
            Ok(encoding::TAG_PHP_SERIALIZED)
        } else {
            Err(EncodeError::TooLarge)
        }
    }
}

/// §6.6 for `PHPSerialized`: no resource, Closure or non-serializable object anywhere, and at most
/// 1,000 levels. Walks with an explicit stack; each object and reference is entered once.
///
/// # Safety
/// `root` must be a live zval; no userland code runs during the walk.
unsafe fn precheck(root: *mut zval) -> Result<(), EncodeError> {
    let mut seen: HashSet<usize> = HashSet::new();
    let mut classes: HashMap<*mut zend_class_entry, ClassInfo> = HashMap::new();
    let mut stack: Vec<(*mut zval, u32)> = vec![(root, 0)];
    while let Some((z, depth)) = stack.pop() {
        // SAFETY: every pushed pointer is an element or property slot of a live container reachable
        // from `root`; nothing modifies them during the walk.
        unsafe {
            let mut z = z;
            if zend::type_of(z) == IS_INDIRECT {
                z = (*z).value.zv;
            }
            if zend::type_of(z) == IS_REFERENCE {
                if !seen.insert((*z).value.ref_ as usize) {
                    continue;
                }
                z = &raw mut (*(*z).value.ref_).val;
            }
            match zend::type_of(z) {
                IS_ARRAY | IS_OBJECT if depth >= MAX_DEPTH_PHP_SERIALIZED => return Err(EncodeError::Unstorable),
                IS_ARRAY => stack.extend(zvals::entries(zvals::table(z)).map(|(_, element)| (element, depth + 1))),
                IS_OBJECT => {
                    let obj = (*z).value.obj;
                    if !seen.insert(obj as usize) {
                        continue;
                    }
                    let ce = (*obj).ce;
                    let info = *classes.entry(ce).or_insert_with(|| class_info::facts(ce).info);
                    if info.object_tier(false).is_err() {
                        return Err(EncodeError::Unstorable);
                    }
                    for slot in zval_walk::property_slots(obj).unwrap_or_default() {
                        if !zvals::is_undef(slot.slot) {
                            stack.push((slot.slot, depth + 1));
                        }
                    }
                }
                ext_php_rs::ffi::IS_RESOURCE => return Err(EncodeError::Unstorable),
                _ => {}
            }
        }
    }
    Ok(())
}
