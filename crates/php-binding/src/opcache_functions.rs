//! `opcache_reset()` and `opcache_invalidate()` as the RFC has them (§14.6), and the static cache entries the
//! RFC adds to `opcache_get_status()` and `opcache_get_configuration()`, when OPcache is loaded.
//!
//! OPcache registers its functions after every extension's MINIT, so the wrappers are installed from
//! the engine's post-startup callback (which OPcache chains to), before any request or thread exists;
//! loaded after startup (per FPM pool, with `php_admin_value[extension]`), from MINIT itself.
//! Each wrapper runs OPcache's own function first and keeps its result; then `opcache_reset()` empties
//! both backends of the calling partition (releasing the caller's reservations, no publication of
//! attribute state for the rest of the request), and `opcache_invalidate($file, true)` deletes the
//! attribute state of the classes of `$file` the request has loaded. When OPcache's own
//! `opcache_get_status()` returned an array (it returns `false` with OPcache disabled for the SAPI), it
//! gains `volatile_cache` and `pinned_cache`, the objects `info()` returns at that moment, as with the
//! RFC's engine; `opcache_get_configuration()`'s `directives` gain the RFC's two size directives under
//! our names (`static_cache.volatile_size_mb`, `…pinned_size_mb`), in bytes as OPcache reports its own
//! sizes; our other directives have no RFC counterpart. Without OPcache nothing is added.
//! `pcntl_exec()`, when pcntl is there, is wrapped at the same point (see `request::pcntl_exec`).

use std::ffi::{c_char, CStr};
use std::os::unix::ffi::OsStrExt;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};

use ext_php_rs::ffi::{self, zend_execute_data, zval, HashTable, IS_ARRAY, IS_DOUBLE, IS_LONG, IS_STRING, IS_TRUE};
use ext_php_rs::zend::run_handler;

use crate::args::Call;
use crate::runtime::Tier;
use crate::zend::{self, Handler};
use crate::{attributes, cache_ops, info, ini, request, zvals};

type PostStartup = unsafe extern "C" fn() -> i32;

unsafe extern "C" {
    static mut zend_post_startup_cb: Option<PostStartup>;
}

/// The post-startup callback that was set before ours, called first.
static PREVIOUS_POST_STARTUP: AtomicUsize = AtomicUsize::new(0);
/// OPcache's own handlers of the wrapped functions.
static ORIGINAL_RESET: AtomicUsize = AtomicUsize::new(0);
static ORIGINAL_INVALIDATE: AtomicUsize = AtomicUsize::new(0);
static ORIGINAL_GET_STATUS: AtomicUsize = AtomicUsize::new(0);
static ORIGINAL_GET_CONFIGURATION: AtomicUsize = AtomicUsize::new(0);

/// MINIT: asks the engine to call [`post_startup`] once every extension, OPcache included, has
/// started.
pub fn install() {
    if zend::loaded_after_startup() {
        // Loaded once PHP has started (per pool, with php_admin_value[extension], in an FPM worker being
        // set up): the post-startup callbacks ran long ago, and OPcache's functions are in the table now.
        wrap_functions();
        return;
    }
    // SAFETY: MINIT, single-threaded; the engine reads the callback after all startups.
    unsafe {
        let previous = zend_post_startup_cb.map_or(0, |f| f as usize);
        PREVIOUS_POST_STARTUP.store(previous, Ordering::Relaxed);
        zend_post_startup_cb = Some(post_startup);
    }
}

unsafe extern "C" fn post_startup() -> i32 {
    let previous = PREVIOUS_POST_STARTUP.swap(0, Ordering::Relaxed);
    if previous != 0 {
        // SAFETY: the callback that was set before ours, called once as the engine would have.
        let result = unsafe { std::mem::transmute::<usize, PostStartup>(previous)() };
        if result != 0 {
            return result;
        }
    }
    wrap_functions();
    0
}

fn wrap_functions() {
    let _ = std::panic::catch_unwind(|| {
        wrap(c"opcache_reset", &ORIGINAL_RESET, reset);
        wrap(c"opcache_invalidate", &ORIGINAL_INVALIDATE, invalidate);
        wrap(c"opcache_get_status", &ORIGINAL_GET_STATUS, get_status);
        wrap(c"opcache_get_configuration", &ORIGINAL_GET_CONFIGURATION, get_configuration);
        // Not OPcache's, but wrapped at the same point, when every extension's functions are in the table.
        wrap(c"pcntl_exec", &request::ORIGINAL_PCNTL_EXEC, request::pcntl_exec);
    });
}

/// Replaces the handler of internal function `name`, keeping the original in `original`.
fn wrap(name: &CStr, original: &AtomicUsize, handler: Handler) {
    // SAFETY: startup (or, loaded after it, a process that runs no request yet), single-threaded: the
    // compiler's function table is complete (it becomes the process's, and every thread's copy, right
    // after this); entries are internal functions.
    unsafe {
        let table = (*ffi::ext_php_rs_compiler_globals()).function_table;
        if table.is_null() {
            return;
        }
        let found = ffi::zend_hash_str_find(table, name.as_ptr().cast::<c_char>(), name.count_bytes());
        if found.is_null() {
            return;
        }
        let func = (*found).value.func;
        if (*func).type_ != ZEND_INTERNAL_FUNCTION {
            return;
        }
        let Some(own) = (*func).internal_function.handler else { return };
        if own as usize == handler as usize {
            return;
        }
        original.store(own as usize, Ordering::Relaxed);
        (*func).internal_function.handler = Some(handler);
    }
}

const ZEND_INTERNAL_FUNCTION: u8 = 1;

/// Runs OPcache's handler saved in `original`.
///
/// # Safety
/// `ex`/`rv` must be the live frame and return slot of the wrapped call.
unsafe fn call_original(original: &AtomicUsize, ex: *mut zend_execute_data, rv: *mut zval) {
    let f = original.load(Ordering::Relaxed);
    if f != 0 {
        // SAFETY: a handler saved by `wrap`, called with the frame it was meant for.
        unsafe { std::mem::transmute::<usize, Handler>(f)(ex, rv) };
    }
}

unsafe extern "C" fn reset(ex: *mut zend_execute_data, rv: *mut zval) {
    // SAFETY: the engine passes this call's live frame and return slot.
    unsafe { call_original(&ORIGINAL_RESET, ex, rv) };
    if zend::exception_pending() {
        return;
    }
    run_handler(AssertUnwindSafe(|| {
        let Some(runtime) = request::runtime() else { return };
        attributes::on_reset();
        for tier in [Tier::Volatile, Tier::Pinned] {
            if let Some(backend) = runtime.backend(tier) {
                cache_ops::clear_backend(tier, backend);
            }
        }
    }));
}

unsafe extern "C" fn invalidate(ex: *mut zend_execute_data, rv: *mut zval) {
    // SAFETY: the engine passes this call's live frame and return slot.
    unsafe { call_original(&ORIGINAL_INVALIDATE, ex, rv) };
    if zend::exception_pending() {
        return;
    }
    // SAFETY: as above; OPcache has parsed the arguments (string $filename, bool $force = false).
    let call = unsafe { Call::new(ex, rv) };
    run_handler(AssertUnwindSafe(|| {
        let (Ok(file), true) = (call.value(1), call.num_args() >= 2 && call.value(2).is_ok_and(truthy)) else {
            return;
        };
        // SAFETY: a live argument slot.
        if unsafe { zend::type_of(file) } != IS_STRING {
            return;
        }
        // SAFETY: an IS_STRING argument.
        let path = unsafe { zend::str_bytes(file) };
        attributes::on_invalidate(std::path::Path::new(std::ffi::OsStr::from_bytes(path)));
    }));
}

unsafe extern "C" fn get_status(ex: *mut zend_execute_data, rv: *mut zval) {
    // SAFETY: the engine passes this call's live frame and return slot.
    unsafe { call_original(&ORIGINAL_GET_STATUS, ex, rv) };
    if zend::exception_pending() {
        return;
    }
    run_handler(AssertUnwindSafe(|| {
        // SAFETY: the return slot OPcache's handler filled.
        let Some(status) = (unsafe { writable_array(rv) }) else { return };
        for (tier, key) in [(Tier::Volatile, "volatile_cache"), (Tier::Pinned, "pinned_cache")] {
            let mut object = zval::new();
            if info::write(tier, &mut object) {
                // SAFETY: OPcache's fresh result array, which only the return slot holds.
                unsafe { zvals::insert_str(status, key.as_bytes(), object) };
            }
        }
    }));
}

unsafe extern "C" fn get_configuration(ex: *mut zend_execute_data, rv: *mut zval) {
    // SAFETY: the engine passes this call's live frame and return slot.
    unsafe { call_original(&ORIGINAL_GET_CONFIGURATION, ex, rv) };
    if zend::exception_pending() {
        return;
    }
    run_handler(AssertUnwindSafe(|| {
        // SAFETY: the return slot OPcache's handler filled; `directives` is a slot of that array.
        let Some(directives) = (unsafe {
            writable_array(rv)
                .and_then(|configuration| zvals::find_str(configuration, b"directives"))
                .and_then(|slot| writable_array(slot))
        }) else {
            return;
        };
        let [volatile, pinned] = ini::settings().configured_bytes();
        for (name, bytes) in [("static_cache.volatile_size_mb", volatile), ("static_cache.pinned_size_mb", pinned)] {
            let mut value = zval::new();
            value.set_long(i64::try_from(bytes).unwrap_or(i64::MAX));
            // SAFETY: OPcache's fresh `directives` array, which only the result array holds.
            unsafe { zvals::insert_str(directives, name.as_bytes(), value) };
        }
    }));
}

/// The array `z` holds when only `z` holds it (as OPcache's fresh results are), so it can be written
/// in place; `None` for anything else (`false`, a shared or immutable array).
///
/// # Safety
/// `z` must be a live zval.
unsafe fn writable_array(z: *mut zval) -> Option<*mut HashTable> {
    // SAFETY: caller guarantees a live zval; an IS_ARRAY zval holds a live table.
    unsafe {
        if zend::type_of(z) != IS_ARRAY {
            return None;
        }
        let ht = (*z).value.arr;
        (!zvals::is_immutable(ht) && (*ht).gc.refcount == 1).then_some(ht)
    }
}

/// PHP's truthiness of a scalar argument (`$force`).
fn truthy(z: *mut zval) -> bool {
    // SAFETY: a live argument slot; each union member is read for its own type.
    unsafe {
        let z = zend::deref(z);
        match zend::type_of(z) {
            IS_TRUE => true,
            IS_LONG => (*z).value.lval != 0,
            IS_DOUBLE => (*z).value.dval != 0.0,
            IS_STRING => !matches!(zend::str_bytes(z), b"" | b"0"),
            _ => false,
        }
    }
}
