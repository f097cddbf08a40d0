//! The methods of §5, shared by `VolatileCache` and `PinnedCache`: parse and validate (§4), then
//! check availability, then call shm-core. shm-core results are mapped to PHP results here, in one
//! place. No PHP code runs while an shm-core entry is held: values are copied out of the entry and
//! decoded after it is released, and encoded before any store.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ext_php_rs::exception::PhpException;
use ext_php_rs::ffi::{self, zval, HashTable};
use shm_core::{Backend, CounterError, CounterUpdate};

use crate::args::{self, Call, Parsed, Thrown};
use crate::attributes;
use crate::encoding;
use crate::enums;
use crate::info;
use crate::read_cache;
use crate::request;
use crate::runtime::{Runtime, Tier};
use crate::zend;
use crate::zval_in::{self, Bound, EncodeError};
use crate::zval_out::DecodeError;
use crate::zvals;

/// Defines an `extern "C"` method handler that runs `$op(tier, call)` under [`run_caught`].
macro_rules! cache_method {
    ($name:ident, $op:path, $tier:expr) => {
        unsafe extern "C" fn $name(ex: *mut ext_php_rs::ffi::zend_execute_data, rv: *mut ext_php_rs::ffi::zval) {
            // SAFETY: the engine passes this call's live frame and return slot.
            let call = unsafe { $crate::args::Call::new(ex, rv) };
            $crate::cache_ops::run_caught(|| {
                // Err means an exception is already pending, or a bailout caught on the way to hand on.
                if $op($tier, &call).is_err() {
                    $crate::cache_ops::reraise_caught_bailout();
                }
            });
        }
    };
}
pub(crate) use cache_method;

/// Runs a method under `catch_unwind` only: no panic crosses into PHP (it becomes an `Error`, as under
/// ext-php-rs's `run_handler`), and the `zend_try` frame that `run_handler` adds (a `sigsetjmp` and a
/// thread-local cleanup stack, about 5 ns a call) is left out. That frame only re-raises a bailout
/// after running ext-php-rs `BailoutGuard`s, which this extension does not use: a bailout inside the
/// method skips the same Rust frames either way (none of them holds shared-memory protection or a lock
/// across an engine call), then reaches the enclosing `zend_try`. ext-php-rs runs its object handlers
/// the same way.
pub fn run_caught(op: impl FnOnce()) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(op)) {
        let message = payload.downcast_ref::<&str>().copied().or(payload.downcast_ref::<String>().map(String::as_str));
        PhpException::new(format!("Rust panic: {}", message.unwrap_or("unknown")), 0, ext_php_rs::zend::ce::error())
            .throw();
    }
}

thread_local! {
    /// A fetch caught a bailout ([`DecodeError::Bailout`]) and reported it as a failed method, so that
    /// every frame between the fetch and the method handler drops what it owns on the way out.
    static CAUGHT_BAILOUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Called by a method handler whose method failed, its frame owning nothing: hands on a bailout a fetch
/// caught (a fatal error in a hook, for one), as if it had not been caught.
pub fn reraise_caught_bailout() {
    if CAUGHT_BAILOUT.replace(false) {
        // SAFETY: the method has returned; the handler's frame and `run_caught` own nothing.
        unsafe { crate::zval_out::reraise_bailout() }
    }
}

/// Defines the `get()` handler of a tier: the repeated read of a hot key ([`get_hot`]) first, else the
/// full method, both under [`run_caught`].
macro_rules! get_method {
    ($name:ident, $tier:expr) => {
        unsafe extern "C" fn $name(ex: *mut ext_php_rs::ffi::zend_execute_data, rv: *mut ext_php_rs::ffi::zval) {
            // SAFETY: the engine passes this call's live frame and return slot.
            let call = unsafe { $crate::args::Call::new(ex, rv) };
            $crate::cache_ops::run_caught(|| {
                if !$crate::cache_ops::get_hot($tier, &call) && $crate::cache_ops::get($tier, &call).is_err() {
                    // An exception is pending, or a bailout was caught on the way to hand on.
                    $crate::cache_ops::reraise_caught_bailout();
                }
            });
        }
    };
}
pub(crate) use get_method;

/// Runs `f` with the backend for `tier` borrowed from the request's runtime, not cloned: the hot
/// paths (`get`, `getMultiple`, `set`, counters) pay no reference counting (see
/// `request::with_runtime`). Without a backend the method returns false (§5.1).
fn with_backend(tier: Tier, call: &Call, f: impl FnOnce(&Backend) -> Parsed<()>) -> Parsed<()> {
    request::with_runtime(|runtime| match runtime.and_then(|rt| rt.backend(tier)) {
        Some(backend) => f(backend),
        None => {
            call.ret().set_bool(false);
            Ok(())
        }
    })
}

/// The backend for `tier`, or `None` when unavailable (§5.1: the method then returns false).
fn available(tier: Tier) -> Option<(std::sync::Arc<Runtime>, Backend)> {
    let runtime = request::runtime()?;
    let backend = runtime.backend(tier)?.clone();
    Some((runtime, backend))
}

fn peek_type(backend: &Backend, key: &[u8]) -> Option<u16> {
    backend.peek(key).map(|e| e.tag())
}

/// Fetches `key` into `out` through the read cache. `Ok(Some(true))` hit, `Ok(Some(false))` miss,
/// `Ok(None)` a broken entry, already reported (§5.1: warning, removal).
fn fetch_into(tier: Tier, backend: &Backend, key: &[u8], out: &mut zval) -> Parsed<Option<bool>> {
    report_fetch(tier, backend, key, read_cache::fetch(tier, backend, key, out), out)
}

/// Maps a fetch's result (see [`fetch_into`]); a broken entry is removed, a key fetched again by its
/// own restore hooks is refused and kept.
fn report_fetch(
    tier: Tier,
    backend: &Backend,
    key: &[u8],
    fetched: Result<read_cache::Fetched, DecodeError>,
    out: &mut zval,
) -> Parsed<Option<bool>> {
    match fetch_outcome(tier, backend, key, fetched, out)? {
        Ok(hit) => Ok(Some(hit)),
        Err(warning) => {
            zend::warning_docref(warning);
            Ok(None)
        }
    }
}

/// [`report_fetch`] but for its warning: `Ok(hit)`, or for a broken entry (removed, or kept when its
/// own restore hooks fetched it again; `out` null) the text of the warning to give. A caller that owns
/// memory gives it once that is released: an error handler may turn the warning into a fatal error,
/// which longjmps past its frame.
fn fetch_outcome(
    tier: Tier,
    backend: &Backend,
    key: &[u8],
    fetched: Result<read_cache::Fetched, DecodeError>,
    out: &mut zval,
) -> Parsed<Result<bool, Vec<u8>>> {
    let problem = match fetched {
        Ok(read_cache::Fetched::Hit) => return Ok(Ok(true)),
        Ok(read_cache::Fetched::Miss) => return Ok(Ok(false)),
        Err(DecodeError::Thrown) => return Err(Thrown),
        Err(DecodeError::Bailout) => {
            CAUGHT_BAILOUT.set(true);
            return Err(Thrown);
        }
        Err(DecodeError::Corrupted) => "is corrupted",
        Err(DecodeError::Undecodable | DecodeError::ClassMissing) => "could not be decoded",
        Err(DecodeError::UnknownType) => "has an unknown type",
        Err(DecodeError::Reentered) => "is being restored: a hook of that value fetched it again",
    };
    out.set_null();
    if !matches!(fetched, Err(DecodeError::Reentered)) {
        backend.delete(key);
    }
    let mut text = format!("Stored {} value for key \"", tier.label()).into_bytes();
    text.extend_from_slice(key);
    text.extend_from_slice(format!("\" {problem}").as_bytes());
    Ok(Err(text))
}

/// How long `set()`, `setMultiple()`, `increment()` and `decrement()` wait for another request's
/// reservation of the key before they give up and return false (§10.2): a holder's request end, death
/// or lease usually ends the wait much sooner; this bounds it when the holder hangs or holds a long
/// lease.
const RESERVATION_WAIT_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Encodes and stores one value with `set()`'s reservation rules (§5.4, §10.2). As in
/// `update_counter`, the request's own reservation state is consulted only when the backend has a
/// reservation at all (checked once the value is encoded: encoding may run userland code).
/// An integer (the scalar store a hot loop makes) is stored as its 8 bytes directly, without the
/// encoder's dispatch. An array or object is encoded within the largest value the backend takes for
/// the key: one too large is refused as a top-level string is, with `false` (§9.2 step 1, §6.6), as
/// soon as its encoding outgrows that, not after it is written in full.
#[inline(always)]
fn store_value(tier: Tier, backend: &Backend, key: &[u8], value: *mut zval, ttl: u64) -> Parsed<bool> {
    let mut reservations = false;
    // SAFETY: `value` is a live argument zval.
    let stored = match unsafe { long_of(value) } {
        Some(i) => Ok(put(tier, backend, key, encoding::TAG_INT, &i.to_le_bytes(), ttl, &mut reservations)),
        None => encode_with(value, backend, key.len(), |tag, bytes| {
            put(tier, backend, key, tag, bytes, ttl, &mut reservations)
        }),
    };
    let stored = match stored {
        Ok(stored) => stored,
        Err(EncodeError::Unstorable | EncodeError::TooLarge) => return Ok(false),
        Err(EncodeError::Thrown) => return Err(Thrown),
    };
    if stored && reservations && request::note_released(tier, key) {
        backend.release(key, request::owner());
    }
    Ok(stored)
}

/// The store of [`store_value`] once the value is encoded: waits for another request's reservation of
/// the key (noting in `reservations` whether the backend has any), then stores. A function rather than
/// a closure shared by the integer and encoder paths, so that the integer path inlines it.
#[inline(always)]
fn put(tier: Tier, backend: &Backend, key: &[u8], tag: u16, bytes: &[u8], ttl: u64, reservations: &mut bool) -> bool {
    *reservations = backend.any_reservation();
    if *reservations && !backend.wait_reservation(key, request::owner(), RESERVATION_WAIT_LIMIT) {
        return false;
    }
    // Only once some delete() remembered that a class has no attribute state (member_search).
    let before = attributes::own_writes_wanted().then(|| backend.epoch());
    let stored = backend.store(key, tag, bytes, ttl).is_ok();
    if let Some(before) = before.filter(|_| stored) {
        attributes::note_explicit_write(tier, backend, before, backend.epoch());
    }
    stored
}

/// `zval_in::encode_with` within what `backend` takes under a key of `key_len` bytes, out of line: the
/// integer path of [`store_value`] does not set up the encoder's frame.
#[inline(never)]
fn encode_with(
    value: *mut zval,
    backend: &Backend,
    key_len: usize,
    put: impl FnOnce(u16, &[u8]) -> bool,
) -> Result<bool, EncodeError> {
    zval_in::encode_with(value, Bound::of(backend, key_len), put)
}

/// The integer `z` holds (through one reference), if it holds one.
///
/// # Safety
/// `z` must point to a live zval.
unsafe fn long_of(z: *mut zval) -> Option<i64> {
    // SAFETY: caller guarantees a live zval; a long's value is `lval`.
    unsafe {
        let z = zend::deref(z);
        (zend::type_of(z) == ffi::IS_LONG).then(|| (*z).value.lval)
    }
}

/// Drops the caller's reservation of `key`, if any (delete, §10.2).
pub fn release_own(tier: Tier, backend: &Backend, key: &[u8]) {
    if request::note_released(tier, key) {
        backend.release(key, request::owner());
    }
}

/// Array keys as PHP's symbol tables normalise them: canonical decimal integers become int keys.
fn int_key(key: &[u8]) -> Option<i64> {
    let digits = key.strip_prefix(b"-").unwrap_or(key);
    let canonical = !digits.is_empty()
        && digits.iter().all(u8::is_ascii_digit)
        && (digits == b"0" || digits[0] != b'0')
        && key != b"-0";
    if !canonical {
        return None;
    }
    std::str::from_utf8(key).ok()?.parse().ok()
}

/// Whether `key` could be a canonical decimal integer (see [`int_key`]): a cheap first-byte test.
fn maybe_int_key(key: &[u8]) -> bool {
    key.first().is_some_and(|b| b.is_ascii_digit() || *b == b'-')
}

/// `zend_symtable_find`.
///
/// # Safety
/// `ht` must be a live array.
unsafe fn symtable_find(ht: *mut HashTable, key: &[u8]) -> *mut zval {
    // SAFETY: caller guarantees a live array; lookups do not modify it.
    unsafe {
        match int_key(key) {
            Some(i) => ffi::zend_hash_index_find(ht, i as u64),
            None => ffi::zend_hash_str_find(ht, key.as_ptr().cast(), key.len()),
        }
    }
}

/// `ZVAL_COPY_DEREF`.
///
/// # Safety
/// `src` must be a live zval.
unsafe fn copy_of(src: *mut zval) -> zval {
    // SAFETY: caller guarantees a live zval; shallow_clone adds the reference the copy owns.
    unsafe { (*zend::deref(src)).shallow_clone() }
}

/// `get($key)` of the key this thread last fetched, when nothing changed since in the backend
/// (`read_cache::fetch_hot`): no argument conversion, no key checks but the loaded-class test, no
/// lookup-cache hash. True when the call is answered (a value, or a broken entry reported as in
/// [`get`]); false where the full [`get`] must run, which reports every error.
pub fn get_hot(tier: Tier, call: &Call) -> bool {
    if call.num_args() != 1 {
        return false;
    }
    let Some(zkey) = call.plain_string(1) else {
        return false;
    };
    // SAFETY: the argument string lives for the call; its type info is in its header.
    let (key, interned) = unsafe { (zend::zstr_bytes(zkey), (*zkey).gc.u.type_info & zvals::GC_IMMUTABLE != 0) };
    request::with_runtime(|runtime| {
        let Some(backend) = runtime.and_then(|rt| rt.backend(tier)) else {
            return false;
        };
        // SAFETY: the class table is this request's; `zkey` is the live argument string, which `fetch_hot`
        // only looks up as it is when it needs no lower-casing; its hash is cached (interned) or may be.
        let class_loaded = || unsafe { zend::class_is_loaded_plain(zkey) };
        // SAFETY: the return slot holds null.
        let local = match unsafe {
            read_cache::fetch_hot(tier, backend, key, interned, call.ret(), args::key_passes_but_class, class_loaded)
        } {
            read_cache::HotFetch::Written => return true,
            read_cache::HotFetch::Slow => return false,
            read_cache::HotFetch::Local(local) => local,
        };
        let fetched = read_cache::hand_out_hit(tier, key, &local, call.ret());
        read_cache::recycle_once(local);
        if let Err(DecodeError::Bailout) = fetched {
            // SAFETY: the local copy is dropped; nothing else in this frame or above it needs dropping.
            unsafe { crate::zval_out::reraise_bailout() }
        }
        if let Ok(None) = report_fetch(tier, backend, key, fetched, call.ret()) {
            call.ret().set_bool(false);
        }
        true
    })
}

pub fn get(tier: Tier, call: &Call) -> Parsed<()> {
    call.expect_args(1, 2)?;
    let key = call.string(1)?;
    let default = if call.num_args() >= 2 { Some(call.value(2)?) } else { None };
    call.full_key(1, key)?;
    if let Some(d) = default {
        args::not_closure(2, d)?;
    }
    with_backend(tier, call, |backend| {
        match fetch_into(tier, backend, key, call.ret())? {
            Some(true) => {}
            None => call.ret().set_bool(false),
            Some(false) => {
                if let Some(d) = default {
                    // SAFETY: `d` is a live argument slot.
                    *call.ret() = unsafe { copy_of(d) };
                }
            }
        }
        Ok(())
    })
}

pub fn get_multiple(tier: Tier, call: &Call) -> Parsed<()> {
    call.expect_args(1, 2)?;
    let array = call.array(1)?;
    let defaults = if call.num_args() >= 2 { call.nullable_array(2)? } else { None };
    // SAFETY: `array` is the live argument array.
    let count = unsafe { (*array).nNumOfElements } as usize;
    if defaults.is_none() && get_multiple_hot(tier, call, array, count) {
        return Ok(());
    }
    let mut result = zvals::new_array(count, false);
    // SAFETY: `result` holds a fresh array owned by this function.
    let ht = unsafe { result.value.arr };
    // One pass over the argument: each key is checked (§4.2) and given its result slot, in order (a
    // repeated key keeps its first place); the argument's own strings become the keys. If a later key
    // fails, `result` is released by its drop. The array was sized for every key, so the slots do not
    // move while they are filled.
    let mut slots: Vec<(std::borrow::Cow<'_, [u8]>, *mut zval)> = Vec::with_capacity(count);
    // The slots' initial value: null, which owns nothing (no drop needed).
    let mut null = std::mem::ManuallyDrop::new(zval::new());
    args::each_key(1, array, |key, element| {
        // An int element, or a string PHP would read as one, takes an integer slot; any other string is
        // the slot's key itself (no string is an int key unless it starts like one).
        // SAFETY: `element` is a live string or int element of the argument array.
        let is_string = unsafe { zend::type_of(element) } == ffi::IS_STRING;
        let int = if is_string && !maybe_int_key(&key) { None } else { int_key(&key) };
        // SAFETY: `element` is a string where `int` is `None` (an int element always has one); `ht` is
        // writable.
        let slot = unsafe {
            match int {
                None => ffi::zend_hash_add(ht, (*element).value.str_, &raw mut *null),
                Some(i) if ffi::zend_hash_index_find(ht, i as u64).is_null() => {
                    ffi::zend_hash_index_update(ht, i as u64, &raw mut *null)
                }
                Some(_) => std::ptr::null_mut(),
            }
        };
        if !slot.is_null() {
            slots.push((key, slot));
        }
    })?;
    let mut warning = None;
    with_backend(tier, call, |backend| {
        match fill_multiple(tier, backend, &slots, defaults)? {
            None => *call.ret() = std::mem::replace(&mut result, zval::new()),
            // The whole result is discarded (§5.3).
            Some(text) => {
                call.ret().set_bool(false);
                warning = Some(text);
            }
        }
        Ok(())
    })?;
    // A broken entry's warning is given once the lists are released: an error handler may turn it into
    // a fatal error, which longjmps past this frame (the lists were lost at each one). `result` is
    // released after it, as before (destructors of the objects fetched so far run then).
    drop(slots);
    if let Some(text) = warning {
        zend::warning_docref(text);
    }
    drop(result);
    Ok(())
}

/// `getMultiple($keys)` of keys this thread knows, when nothing they depend on changed
/// (`read_cache::fetch_many_hot`): one pass over the argument, no key list, and no key checks but the
/// loaded-class test once the lookup cache knows a key passes them. False where the full
/// [`get_multiple`] must run (it reports every error); nothing is then returned or counted.
fn get_multiple_hot(tier: Tier, call: &Call, keys: *mut HashTable, count: usize) -> bool {
    request::with_runtime(|runtime| {
        let Some(backend) = runtime.and_then(|rt| rt.backend(tier)) else {
            return false;
        };
        let result = zvals::new_array(count, false);
        let table = zend::class_table();
        // SAFETY: `keys` is the live argument array, which nothing in the call modifies; `result` is a
        // fresh array sized for every key; the class-table lookup runs no userland code (so no class is
        // declared during the call), and its strings are the argument's own (interned, or request
        // strings whose hash PHP may cache).
        let answered = unsafe {
            read_cache::fetch_many_hot(tier, backend, keys, result.value.arr, args::key_passes_but_class, |s| {
                zend::class_is_loaded_zstr(table, s)
            })
        };
        if answered {
            *call.ret() = result;
        }
        answered
    })
}

/// The fetch half of `getMultiple()`: every checked key's slot in the result gets its value (or
/// default). `Some` when a stored value is broken (removed, or fetched again by its own restore hooks):
/// the text of the warning to give, which the caller gives once it released what it owns.
fn fill_multiple(
    tier: Tier,
    backend: &Backend,
    slots: &[(std::borrow::Cow<'_, [u8]>, *mut zval)],
    defaults: Option<*mut HashTable>,
) -> Parsed<Option<Vec<u8>>> {
    // One pass over the lookup cache for every key; values ready without work (scalars, strings and
    // object-free arrays this thread keeps) are written into their slots during it, the rest (index
    // lookups, objects, hooks) are finished one by one after it.
    // SAFETY: every slot is a distinct live slot of `result`, holding null.
    let pending = unsafe { read_cache::fetch_ready_many(tier, backend, slots) };
    for (key, slot, looked) in pending {
        let mut value = zval::new();
        let fetched = read_cache::fetch_looked_up(tier, backend, key, looked, &mut value, 1);
        match fetch_outcome(tier, backend, key, fetched, &mut value)? {
            Ok(true) => {}
            // The rest of `pending` (local copies it holds) is released on the way out.
            Err(warning) => return Ok(Some(warning)),
            Ok(false) => {
                if let Some(defaults) = defaults {
                    // SAFETY: `defaults` is the live argument array.
                    let found = unsafe { symtable_find(defaults, key) };
                    if !found.is_null() {
                        // SAFETY: a found element is a live zval of that array.
                        value = unsafe { copy_of(found) };
                    }
                }
            }
        }
        // SAFETY: `slot` is this key's live slot in the result (holding null, nothing to release).
        unsafe { read_cache::write_element(slot, value) };
    }
    Ok(None)
}

pub fn set(tier: Tier, call: &Call) -> Parsed<()> {
    let max = if tier == Tier::Volatile { 3 } else { 2 };
    call.expect_args(2, max)?;
    let key = call.string(1)?;
    let value = call.value(2)?;
    let ttl = if call.num_args() >= 3 { call.long(3)? } else { 0 };
    call.full_key(1, key)?;
    args::not_closure(2, value)?;
    let ttl = args::non_negative(3, ttl)?;
    with_backend(tier, call, |backend| {
        let stored = store_value(tier, backend, key, value, ttl)?;
        call.return_bool(stored);
        Ok(())
    })
}

pub fn set_multiple(tier: Tier, call: &Call) -> Parsed<()> {
    let max = if tier == Tier::Volatile { 2 } else { 1 };
    call.expect_args(1, max)?;
    let values = call.array(1)?;
    let ttl = if call.num_args() >= 2 { call.long(2)? } else { 0 };
    // SAFETY: `values` is the live argument array.
    unsafe { args::check_value_keys(1, values) }?;
    let ttl = args::non_negative(2, ttl)?;
    // Nothing here owns memory while the values are stored: a fatal error in a serialization hook
    // longjmps past this frame (a list of the pairs, or a clone of the runtime, was lost at each one).
    with_backend(tier, call, |backend| {
        // SAFETY: `values` is the live argument array; nothing this call runs can write to its table.
        for (key, value) in unsafe { args::value_pairs(values) } {
            if !store_value(tier, backend, key, value, ttl)? {
                call.ret().set_bool(false);
                return Ok(());
            }
        }
        call.ret().set_bool(true);
        Ok(())
    })
}

/// `has($key)` of a key the lookup cache answers for (`read_cache::presence_known`): a fetched key, a
/// remembered miss or present entry, while nothing changed in the backend. No argument conversion, no
/// key checks but the loaded-class test once the cache knows the key passes them. `None` where the full
/// [`has`] must run (it reports every error); an RFC attribute key (§16.3) always takes it.
fn has_hot(tier: Tier, call: &Call) -> Option<bool> {
    if call.num_args() != 1 {
        return None;
    }
    let zkey = call.plain_string(1)?;
    // SAFETY: the argument string lives for the call.
    let key = unsafe { zend::zstr_bytes(zkey) };
    // An RFC attribute key holds `::` (`addressed_unit` parses it only then).
    if key.contains(&b':') && attributes::addressed_unit(tier, key).is_some() {
        return None;
    }
    request::with_runtime(|runtime| {
        let backend = runtime.and_then(|rt| rt.backend(tier))?;
        // SAFETY: the class table is this request's, read in the call; `zkey` is the live argument string,
        // whose hash is cached (interned) or may be.
        let class_loaded = || unsafe { zend::class_is_loaded_zstr(zend::class_table(), zkey) };
        read_cache::presence_known(tier, backend, key, args::key_passes_but_class, class_loaded)
    })
}

pub fn has(tier: Tier, call: &Call) -> Parsed<()> {
    if let Some(present) = has_hot(tier, call) {
        call.return_bool(present);
        return Ok(());
    }
    call.expect_args(1, 1)?;
    let key = call.string(1)?;
    call.full_key(1, key)?;
    with_backend(tier, call, |backend| {
        // An RFC attribute key (§16.3) is present when the attribute state or an explicit entry is.
        // Neither is a use of the value: nothing is counted or marked recently used.
        let present = attributes::addressed_unit(tier, key).is_some_and(|unit| backend.contains(&unit))
            || read_cache::presence(tier, backend, key);
        call.ret().set_bool(present);
        Ok(())
    })
}

/// A `delete()` that found nothing to remove in one backend: neither the explicit entry nor attribute
/// state (the key was no RFC attribute key, and named no loaded class).
struct NothingDeleted {
    instance: u64,
    /// The mutation epoch read before that delete began, and unchanged when it ended.
    epoch: u64,
    key: Vec<u8>,
}

thread_local! {
    /// Per tier, the last `delete()` that found nothing: while nothing changed in the backend, the same
    /// delete again has nothing to remove (cache invalidation deletes the same absent keys again).
    static NOTHING_DELETED: std::cell::RefCell<[Option<NothingDeleted>; 2]> = const { std::cell::RefCell::new([None, None]) };
}

pub fn delete(tier: Tier, call: &Call) -> Parsed<()> {
    call.expect_args(1, 1)?;
    let key = call.string(1)?;
    args::delete_key(1, key)?;
    with_backend(tier, call, |backend| {
        let before = backend.epoch();
        let instance = backend.instance_id();
        let (repeated, remembered) = NOTHING_DELETED.with_borrow(|last| {
            let last = last[tier.index()].as_ref();
            (last.is_some_and(|n| n.epoch == before && n.instance == instance && n.key == key), last.is_some())
        });
        // A loaded class has request-local attribute state only once this request registered an
        // attributed class; without it, a class name selects only stored state, which the unchanged
        // epoch says is still absent.
        let local_state = || !attributes::request_idle() && call.names_loaded_class(1, key);
        // A class loaded since is a selector with request-local effects (§16.8): the full path.
        if !repeated || local_state() {
            // A class name or an RFC attribute key also selects attribute state; the explicit entry
            // stored under exactly that string goes either way. Until attribute state was first stored
            // in this backend, a key that names no attribute unit and no class with state in this
            // request selects nothing: no search.
            // (An RFC attribute key holds `::`: `addressed_unit` parses only such a key.)
            let search = backend.internal_stores_noted()
                || (key.contains(&b':') && attributes::addressed_unit(tier, key).is_some())
                || local_state();
            let selects_state = search && attributes::delete_addressed(tier, backend, key, true);
            let removed = backend.delete(key);
            let after = backend.epoch();
            // Only once some delete() remembered that a class has no attribute state (as in `store_value`).
            if removed && attributes::own_writes_wanted() {
                attributes::note_explicit_write(tier, backend, before, after);
            }
            let nothing = after == before && !selects_state;
            // (A memo that a re-entered delete() left meanwhile is true where it names: it may stay.)
            if nothing || remembered {
                NOTHING_DELETED.with_borrow_mut(|last| {
                    last[tier.index()] = nothing.then(|| NothingDeleted { instance, epoch: before, key: key.to_vec() });
                });
            }
        }
        // As in `store_value`: a request holds no reservation where the backend counts none.
        if backend.any_reservation() {
            release_own(tier, backend, key);
        }
        call.return_bool(true);
        Ok(())
    })
}

pub fn delete_multiple(tier: Tier, call: &Call) -> Parsed<()> {
    call.expect_args(1, 1)?;
    let array = call.array(1)?;
    args::each_key(1, array, |_, _| {})?;
    with_backend(tier, call, |backend| {
        // RFC attribute keys first (§16.3): exact mode publishes pending writes there, running
        // serialization hooks, whose fatal error longjmps past this frame: nothing here owns memory
        // until they are done (a list of the keys was lost at each one). An int key addresses no unit.
        // SAFETY: `array` is the live argument array; userland code cannot reach its table (a write
        // through the caller's variable separates it).
        for key in unsafe { args::accepted_keys(array) } {
            if let std::borrow::Cow::Borrowed(key) = key {
                attributes::delete_addressed(tier, backend, key, false);
            }
        }
        // SAFETY: as above.
        let keys: Vec<_> = unsafe { args::accepted_keys(array) }.collect();
        backend.delete_many(keys.iter().map(|key| &key[..]));
        for key in &keys {
            release_own(tier, backend, key);
        }
        call.return_bool(true);
        Ok(())
    })
}

pub fn clear(tier: Tier, call: &Call) -> Parsed<()> {
    call.expect_args(0, 0)?;
    // Borrowed, not cloned: exact mode publishes pending writes first, and a fatal error in a hook there
    // is handed on past this frame (a clone of the runtime and backend was never released).
    with_backend(tier, call, |backend| {
        clear_backend(tier, backend);
        call.ret().set_bool(true);
        Ok(())
    })
}

/// Empties one backend for the calling request (`clear()`, `opcache_reset()`): attribute state the
/// request touched is not republished, and the request's reservations there are released.
pub fn clear_backend(tier: Tier, backend: &Backend) {
    attributes::on_clear(tier);
    backend.clear();
    backend.release_all(request::owner());
    request::forget_all(tier);
}

pub fn lock(tier: Tier, call: &Call) -> Parsed<()> {
    call.expect_args(1, 2)?;
    let key = call.string(1)?;
    let lease = if call.num_args() >= 2 { call.long(2)? } else { 0 };
    call.full_key(1, key)?;
    let lease = args::non_negative(2, lease)?;
    with_backend(tier, call, |backend| {
        let reserved = backend.try_reserve(key, request::owner(), lease);
        if reserved {
            request::note_held(tier, key);
        }
        call.ret().set_bool(reserved);
        Ok(())
    })
}

pub fn unlock(tier: Tier, call: &Call) -> Parsed<()> {
    call.expect_args(1, 1)?;
    let key = call.string(1)?;
    call.full_key(1, key)?;
    with_backend(tier, call, |backend| {
        request::note_released(tier, key);
        let released = backend.release(key, request::owner());
        call.ret().set_bool(released);
        Ok(())
    })
}

/// Which way a counter moves.
#[derive(Clone, Copy)]
enum Direction {
    Up,
    Down,
}

fn counter(direction: Direction, call: &Call) -> Parsed<()> {
    call.expect_args(1, 2)?;
    let key = call.string(1)?;
    let step = if call.num_args() >= 2 { call.long(2)? } else { 1 };
    call.full_key(1, key)?;
    with_backend(Tier::Pinned, call, |backend| {
        update_counter(direction, backend, key, step, call);
        Ok(())
    })
}

/// `increment()`/`decrement()` once the backend is known: waits for another request's reservation of
/// the key, updates, and sets the result. With no reservation in the backend (the common case, one
/// load) the request's own state is not consulted: there is nothing to wait for or release (a key the
/// request still lists as held has lost its reservation already, and `unlock()` or the request's end
/// forgets it).
fn update_counter(direction: Direction, backend: &Backend, key: &[u8], step: i64, call: &Call) {
    let reservations = backend.any_reservation();
    if reservations && !backend.wait_reservation(key, request::owner(), RESERVATION_WAIT_LIMIT) {
        call.ret().set_bool(false);
        return;
    }
    let outcome = match direction {
        Direction::Up => backend.increment(key, step),
        Direction::Down => backend.decrement(key, step),
    };
    match outcome {
        Ok(CounterUpdate { value, wrapped }) => {
            if reservations && request::note_released(Tier::Pinned, key) {
                backend.release(key, request::owner());
            }
            call.return_long(value);
            if wrapped {
                zend::warning_docref(&b"Integer overflow occurred; result wrapped around"[..]);
            }
        }
        Err(CounterError::NotInteger | CounterError::Store(_)) => call.return_bool(false),
    }
}

pub fn increment(_tier: Tier, call: &Call) -> Parsed<()> {
    counter(Direction::Up, call)
}

pub fn decrement(_tier: Tier, call: &Call) -> Parsed<()> {
    counter(Direction::Down, call)
}

pub fn get_cache_store_type(tier: Tier, call: &Call) -> Parsed<()> {
    call.expect_args(1, 2)?;
    let key = call.string(1)?;
    let class_name = if call.num_args() >= 2 { call.nullable_string(2)? } else { None };
    args::non_empty(1, key)?;
    if let Some(class_name) = class_name {
        args::non_empty(2, class_name)?;
    }
    // With `$class_name`: the member entry of that static property, in the attribute key space.
    // Without: an RFC attribute key's state first (§16.3), else an explicit key; the internal key
    // space is never reached directly.
    let tag = available(tier).and_then(|(_rt, backend)| match class_name {
        Some(class) => peek_type(&backend, &attributes::property_key(tier, class, key)),
        None if attributes::is_internal_key(key) => None,
        None => attributes::addressed_unit(tier, key)
            .and_then(|unit| peek_type(&backend, &unit))
            .or_else(|| peek_type(&backend, key)),
    });
    let case = enums::store_type(tag.and_then(encoding::store_type));
    // SAFETY: enum cases are live objects for the request; set_object adds the returned reference.
    unsafe { call.ret().set_object(&mut *case) };
    Ok(())
}

pub fn info(tier: Tier, call: &Call) -> Parsed<()> {
    call.expect_args(0, 0)?;
    info::write(tier, call.ret());
    Ok(())
}
