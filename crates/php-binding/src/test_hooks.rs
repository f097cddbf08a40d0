//! §17.3 test hooks, registered only when `STATIC_CACHE_TEST_HOOKS=1` at module startup:
//! `static_cache_test_hook(string $hook, int|string $arg = 0): bool` and
//! `static_cache_test_thread_id(): int`. Not part of the product API.

use std::panic::AssertUnwindSafe;

use ext_php_rs::ffi::{zend_execute_data, zval};
use ext_php_rs::zend::run_handler;

use crate::args::{Call, Parsed};
use crate::encoding;
use crate::request;
use crate::runtime::Tier;
use crate::zend::{self, method, param, returns, ArgInfos, Methods, StaticTable};

const ENV: &str = "STATIC_CACHE_TEST_HOOKS";

static HOOK_ARGS: ArgInfos<3> = StaticTable([
    returns(1, zend::MAY_BE_BOOL),
    param(c"hook", zend::MAY_BE_STRING, None),
    param(c"arg", zend::MAY_BE_LONG | zend::MAY_BE_STRING, Some(c"0")),
]);

static THREAD_ID_ARGS: ArgInfos<1> = StaticTable([returns(0, zend::MAY_BE_LONG)]);

static FUNCTIONS: Methods<3> = StaticTable([
    method(c"static_cache_test_hook", test_hook, &HOOK_ARGS, 0),
    method(c"static_cache_test_thread_id", thread_id, &THREAD_ID_ARGS, 0),
    zend::end_of_methods(),
]);

/// # Safety
/// Must run during MINIT.
pub unsafe fn register_if_enabled() {
    if std::env::var(ENV).is_ok_and(|v| v == "1") {
        // SAFETY: MINIT; the table is a terminated static.
        unsafe { zend::register_functions(FUNCTIONS.as_ptr()) };
    }
}

unsafe extern "C" fn test_hook(ex: *mut zend_execute_data, rv: *mut zval) {
    // SAFETY: the engine passes this call's live frame and return slot.
    let call = unsafe { Call::new(ex, rv) };
    run_handler(AssertUnwindSafe(|| {
        let _ = run_hook(&call);
    }));
}

fn run_hook(call: &Call) -> Parsed<()> {
    call.expect_args(1, 2)?;
    let hook = call.string(1)?.to_vec();
    // `int|string $arg`: an int for the stall, a key for the corruption hooks.
    let arg = if call.num_args() >= 2 { call.value(2)? } else { std::ptr::null_mut() };
    // SAFETY: a non-null `arg` is the live argument slot.
    let micros =
        unsafe { (!arg.is_null() && zend::type_of(arg) == ext_php_rs::ffi::IS_LONG).then(|| (*arg).value.lval) };
    let done = match (hook.as_slice(), micros) {
        // The next write to the volatile backend sleeps while holding its write lock.
        (b"stall_in_write_lock", Some(micros)) => request::runtime()
            .and_then(|rt| rt.backend(Tier::Volatile).cloned())
            .map(|b| b.stall_next_write(u64::try_from(micros).unwrap_or(0)))
            .is_some(),
        (b"corrupt_volatile_entry", None) => corrupt_entry(Tier::Volatile, call.string(2)?),
        (b"corrupt_pinned_entry", None) => corrupt_entry(Tier::Pinned, call.string(2)?),
        // Whether the VM interrupt function of the attributes is installed in this process.
        (b"interrupt_installed", None) => crate::attributes::interrupt_installed(),
        _ => false,
    };
    call.ret().set_bool(done);
    Ok(())
}

/// Stores the entry again with its graph header damaged: a new version, so the mutation epoch moves and
/// no process-local copy of the old version is used; the next fetch reports "is corrupted" (§17.3).
/// Only encoded graphs have a header to damage: other entries give false.
fn corrupt_entry(tier: Tier, key: &[u8]) -> bool {
    let Some(backend) = request::runtime().and_then(|rt| rt.backend(tier).cloned()) else { return false };
    let Some((tag, mut bytes)) = backend.peek(key).map(|e| (e.tag(), e.value().to_vec())) else { return false };
    if encoding::graph_tier(tag).is_none() || bytes.is_empty() {
        return false;
    }
    bytes[0] ^= 0xff;
    backend.store(key, tag, &bytes, 0).is_ok()
}

unsafe extern "C" fn thread_id(ex: *mut zend_execute_data, rv: *mut zval) {
    // SAFETY: the engine passes this call's live frame and return slot.
    let call = unsafe { Call::new(ex, rv) };
    run_handler(AssertUnwindSafe(|| {
        if call.expect_args(0, 0).is_ok() {
            // SAFETY: gettid has no preconditions.
            call.ret().set_long(i64::from(unsafe { libc::gettid() }));
        }
    }));
}
