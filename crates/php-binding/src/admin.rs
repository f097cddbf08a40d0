//! `StaticCache\Admin` (beyond the RFC, outside the `OPcache` namespace): operator access to one
//! backend of the calling partition — a cursor over its keys with per-entry metadata, deletion by key
//! prefix and a memory summary. Built on shm-core's lock-free `Backend::scan`: each call walks a
//! bounded number of index buckets under a reader pin, so readers and writers are never blocked and
//! the index is never copied whole. Attribute state (the internal key space of §16.3) is reported as
//! such and never deleted by a prefix.

use std::panic::AssertUnwindSafe;
use std::ptr;

use ext_php_rs::ffi::{zend_execute_data, zval};
use ext_php_rs::zend::run_handler;
use shm_core::{Backend, Clock, EntryInfo, MonotonicClock};

use crate::args::{self, Call, Parsed};
use crate::attributes;
use crate::cache_ops;
use crate::encoding;
use crate::enums;
use crate::read_cache;
use crate::request;
use crate::runtime::Tier;
use crate::signatures::PUBLIC_STATIC;
use crate::zend::{self, method, param, returns, ArgInfos, Methods, StaticTable, MAY_BE_ARRAY, MAY_BE_FALSE};
use crate::zend::{MAY_BE_LONG, MAY_BE_NULL, MAY_BE_STRING};
use crate::zval_out;
use crate::zvals;

/// Entries one `deletePrefix()` step asks `scan` for.
const DELETE_BATCH: usize = 512;
/// Largest `$limit` of `scan()`: one call's result stays a modest PHP array.
const MAX_SCAN_LIMIT: i64 = 10_000;

const BACKEND: ext_php_rs::ffi::zend_internal_arg_info = param(c"backend", MAY_BE_STRING, None);

static SCAN: ArgInfos<5> = StaticTable([
    returns(1, MAY_BE_ARRAY | MAY_BE_FALSE),
    BACKEND,
    param(c"prefix", MAY_BE_STRING, Some(c"''")),
    param(c"cursor", MAY_BE_LONG, Some(c"0")),
    param(c"limit", MAY_BE_LONG, Some(c"100")),
]);

static DELETE_PREFIX: ArgInfos<3> =
    StaticTable([returns(2, MAY_BE_LONG | MAY_BE_FALSE), BACKEND, param(c"prefix", MAY_BE_STRING, None)]);

static ENTRY: ArgInfos<3> =
    StaticTable([returns(2, MAY_BE_ARRAY | MAY_BE_NULL | MAY_BE_FALSE), BACKEND, param(c"key", MAY_BE_STRING, None)]);

static MEMORY: ArgInfos<2> = StaticTable([returns(1, MAY_BE_ARRAY | MAY_BE_FALSE), BACKEND]);

/// Defines the `extern "C"` handler of one method: `$op(call)` behind ext-php-rs's panic/bailout boundary.
macro_rules! admin_method {
    ($name:ident, $op:path) => {
        unsafe extern "C" fn $name(ex: *mut zend_execute_data, rv: *mut zval) {
            // SAFETY: the engine passes this call's live frame and return slot.
            let call = unsafe { Call::new(ex, rv) };
            run_handler(AssertUnwindSafe(|| {
                // Err means an exception is already pending.
                let _ = $op(&call);
            }));
        }
    };
}

admin_method!(scan_handler, scan);
admin_method!(entry_handler, entry);
admin_method!(delete_prefix_handler, delete_prefix);
admin_method!(memory_handler, memory);

static METHODS: Methods<6> = StaticTable([
    method(c"__construct", zend::private_constructor, &crate::signatures::PRIVATE_CONSTRUCT, zend::ZEND_ACC_PRIVATE),
    method(c"scan", scan_handler, &SCAN, PUBLIC_STATIC),
    method(c"entry", entry_handler, &ENTRY, PUBLIC_STATIC),
    method(c"deletePrefix", delete_prefix_handler, &DELETE_PREFIX, PUBLIC_STATIC),
    method(c"memory", memory_handler, &MEMORY, PUBLIC_STATIC),
    zend::end_of_methods(),
]);

/// # Safety
/// Must run during MINIT, after the enums are registered.
pub unsafe fn register() {
    // SAFETY: MINIT; the method table is a terminated static.
    unsafe {
        zend::register_class(c"StaticCache\\Admin", METHODS.as_ptr(), ptr::null_mut(), zend::ZEND_ACC_FINAL);
    }
}

/// The backend of `tier`, or `None` when it is unavailable (the method returns false, §5.1).
fn backend_of(tier: Tier) -> Option<Backend> {
    request::runtime().and_then(|rt| rt.backend(tier).cloned())
}

/// `scan(string $backend, string $prefix = '', int $cursor = 0, int $limit = 100): array|false`:
/// `['entries' => [...], 'cursor' => ?int]`, `cursor` null once the walk is complete.
fn scan(call: &Call) -> Parsed<()> {
    call.expect_args(1, 4)?;
    // Types left to right, then the values' rules, as PHP checks them (§4.1).
    let name = call.string(1)?;
    // Borrowed from the argument, not copied: converting a later argument may run userland code (an
    // error handler of a deprecation), whose fatal error longjmps past this frame.
    let prefix: &[u8] = if call.num_args() >= 2 { call.string(2)? } else { b"" };
    let cursor = if call.num_args() >= 3 { call.long(3)? } else { 0 };
    let limit = if call.num_args() >= 4 { call.long(4)? } else { 100 };
    let tier = args::backend_name(1, name)?;
    let cursor = args::non_negative(3, cursor)?;
    let limit = args::within(4, limit, 1, MAX_SCAN_LIMIT)?;
    let Some(Some((entries, next))) =
        backend_of(tier).map(|backend| scan_step(&backend, cursor, prefix, limit as usize))
    else {
        call.ret().set_bool(false);
        return Ok(());
    };
    // The result is built in the request heap while this frame holds the entries: a `memory_limit`
    // fatal raised inside an allocation (releases without delayed OOM) is caught, and handed on once
    // they are released (they were lost at each one).
    let built = zval_out::allocating(|| {
        let list = zvals::new_array(entries.len(), true);
        for (i, entry) in entries.iter().enumerate() {
            // SAFETY: `list` is a fresh array owned here.
            unsafe { zvals::insert_int(zvals::table(&list), i as i64, entry_array(entry)) };
        }
        let cursor_value = next.map_or_else(zval::null, long);
        assoc([(&b"entries"[..], list), (b"cursor", cursor_value)])
    });
    drop(entries);
    match built {
        Ok(result) => *call.ret() = result,
        // SAFETY: the entries are released; this frame and `admin_method!`'s own nothing else.
        Err(_) => unsafe { zval_out::reraise_bailout() },
    }
    Ok(())
}

/// One `Backend::scan` step. `None` when the backend could not protect the walk (every reader slot
/// taken and its write lock unusable): the step made no progress and the caller reports false.
fn scan_step(backend: &Backend, cursor: u64, prefix: &[u8], limit: usize) -> Option<(Vec<EntryInfo>, Option<u64>)> {
    let (mut entries, next) = backend.scan(cursor, prefix, limit);
    entries.retain(|e| !attributes::is_bookkeeping_key(&e.key));
    (next != Some(cursor)).then_some((entries, next))
}

/// An entry's public key and whether it is attribute state. Member entries are stored as
/// `<reserved prefix>\0<RFC identifier>` (what `delete()` accepts); class blobs under their reserved
/// key itself (`pinned_static_class:<class>`), which no NUL follows.
fn public_key(key: &[u8]) -> (&[u8], bool) {
    if !attributes::is_internal_key(key) {
        return (key, false);
    }
    match key.iter().position(|&b| b == 0) {
        Some(nul) => (&key[nul + 1..], true),
        None => (key, true),
    }
}

fn long(v: u64) -> zval {
    let mut z = zval::new();
    z.set_long(i64::try_from(v).unwrap_or(i64::MAX));
    z
}

/// An entry's version as a PHP int: the same 64 bits, so that every version stays distinct (an integer
/// entry's versions lie in the upper half of the range and show as negative numbers).
fn version_zval(version: u64) -> zval {
    let mut z = zval::new();
    z.set_long(i64::from_ne_bytes(version.to_ne_bytes()));
    z
}

/// A string-keyed PHP array of `fields`, in order.
fn assoc(fields: impl IntoIterator<Item = (&'static [u8], zval)>) -> zval {
    let array = zvals::new_array(8, false);
    for (name, value) in fields {
        // SAFETY: `array` is a fresh array owned here.
        unsafe { zvals::insert_str(zvals::table(&array), name, value) };
    }
    array
}

/// The metadata array of one entry; `walk` adds what only the index walk sees (block bytes, hits).
fn describe(key: &[u8], tag: u16, size: u64, ttl_left_ms: Option<u64>, version: u64, walk: Option<(u64, u64)>) -> zval {
    let (public, attribute) = public_key(key);
    let case = enums::store_type(encoding::store_type(tag));
    let mut fields: Vec<(&'static [u8], zval)> = vec![
        (b"key", zvals::string(public)),
        (b"kind", zvals::string(if attribute { b"attribute" } else { b"key" })),
        // SAFETY: enum cases are live objects for the request.
        (b"type", unsafe { zvals::object_zval(case) }),
        (b"size", long(size)),
        (b"ttl_left_ms", ttl_left_ms.map_or_else(zval::null, long)),
        (b"version", version_zval(version)),
    ];
    if let Some((memory, hits)) = walk {
        fields.extend([(&b"memory"[..], long(memory)), (&b"hits"[..], long(hits))]);
    }
    assoc(fields)
}

fn entry_array(e: &EntryInfo) -> zval {
    describe(&e.key, e.tag, e.value_len, e.ttl_left_ms, e.version, Some((e.block_bytes, e.hits)))
}

/// `entry(string $backend, string $key): ?array|false`: what `scan()` reports of one entry, found
/// through the index without decoding it or counting a lookup; null when absent or expired. Block
/// bytes and hits are figures of the walk only (the lookup reads the entry's header, not its block).
fn entry(call: &Call) -> Parsed<()> {
    call.expect_args(2, 2)?;
    let name = call.string(1)?;
    let key = call.string(2)?;
    let Some(backend) = backend_of(args::backend_name(1, name)?) else {
        call.ret().set_bool(false);
        return Ok(());
    };
    let found = backend.peek(key).map(|e| (e.tag(), e.value().len() as u64, e.expires_ms(), e.version()));
    *call.ret() = match found {
        // The backend's deadlines are on the machine's monotonic clock (shm-core's MonotonicClock).
        Some((tag, size, expires_ms, version)) => {
            let ttl_left = (expires_ms != 0).then(|| expires_ms.saturating_sub(MonotonicClock.now_ms()));
            describe(key, tag, size, ttl_left, version, None)
        }
        None => zval::null(),
    };
    Ok(())
}

/// `deletePrefix(string $backend, string $prefix): int|false`: deletes every explicit key starting
/// with `$prefix` (a non-empty string) and returns how many entries it removed. Attribute state is
/// never reached, whatever the prefix: `clear()` and `delete(ClassName)` are its ways out. Entries
/// stored while the walk runs may survive; entries present throughout are deleted.
fn delete_prefix(call: &Call) -> Parsed<()> {
    call.expect_args(2, 2)?;
    let name = call.string(1)?;
    let prefix = call.string(2)?;
    let tier = args::backend_name(1, name)?;
    args::non_empty(2, prefix)?;
    let Some(backend) = backend_of(tier) else {
        call.ret().set_bool(false);
        return Ok(());
    };
    let mut cursor = 0;
    let mut deleted = 0i64;
    loop {
        let Some((entries, next)) = scan_step(&backend, cursor, prefix, DELETE_BATCH) else {
            call.ret().set_bool(false);
            return Ok(());
        };
        for entry in entries.iter().filter(|e| !attributes::is_internal_key(&e.key)) {
            if backend.delete(&entry.key) {
                deleted += 1;
            }
            cache_ops::release_own(tier, &backend, &entry.key);
        }
        match next {
            Some(next) => cursor = next,
            None => break,
        }
    }
    call.ret().set_long(deleted);
    Ok(())
}

/// `memory(string $backend): array|false`: the backend's memory map in bytes (index and header
/// overhead, used, free, largest free block, retired blocks awaiting reclamation) and its counters.
fn memory(call: &Call) -> Parsed<()> {
    call.expect_args(1, 1)?;
    let tier = args::backend_name(1, call.string(1)?)?;
    let Some(backend) = backend_of(tier) else {
        call.ret().set_bool(false);
        return Ok(());
    };
    // This request's locally counted lookups first, as `info()` does, so both report the same.
    read_cache::flush_counters(tier, &backend);
    let s = backend.stats();
    let mut fragmentation = zval::new();
    fragmentation.set_double(s.fragmentation());
    let fields: [(&'static [u8], zval); 15] = [
        (b"capacity", long(s.capacity_bytes)),
        (b"overhead", long(s.capacity_bytes.saturating_sub(s.used_bytes + s.free_bytes))),
        (b"used", long(s.used_bytes)),
        (b"free", long(s.free_bytes)),
        (b"largest_free", long(s.largest_free)),
        (b"fragmentation", fragmentation),
        (b"retired", long(s.retired_bytes)),
        (b"entries", long(s.entries - attributes::bookkeeping_entries(tier, &backend))),
        (b"max_entries", long(s.max_entries)),
        (b"hits", long(s.hits)),
        (b"misses", long(s.misses)),
        (b"inserts", long(s.inserts)),
        (b"evictions", long(s.evictions)),
        (b"expirations", long(s.expirations)),
        (b"recoveries", long(s.recoveries)),
    ];
    *call.ret() = assoc(fields);
    Ok(())
}
