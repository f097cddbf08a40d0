//! Per-request state (per thread under ZTS): the request's reservation owner token, its snapshot of
//! the runtime, and the keys it holds reservations for, released at request end (§10.4). Borrows of
//! this state are short and never span a call into PHP.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use ext_php_rs::ffi;
use ext_php_rs::zend::run_handler;
use shm_core::RequestId;

use crate::read_cache;
use crate::runtime::{self, Runtime, Tier};

static NEXT_REQUEST: AtomicU64 = AtomicU64::new(1);

#[derive(Default)]
struct RequestState {
    id: u64,
    runtime: Option<Arc<Runtime>>,
    /// Keys reserved by this request, per tier.
    held: [HashSet<Vec<u8>>; 2],
}

thread_local! {
    static REQUEST: RefCell<RequestState> = RefCell::default();
    /// The runtime `REQUEST` holds, as a plain pointer: the per-call path borrows it without the two
    /// atomic reference-count updates of an `Arc` clone (null outside a request).
    static REQUEST_RUNTIME: Cell<*const Runtime> = const { Cell::new(std::ptr::null()) };
}

/// RINIT (and each new HTTP request in worker mode): a fresh owner token and runtime snapshot. A
/// previous request whose end never ran (its RSHUTDOWN was skipped) has its reservations released first.
pub fn begin() {
    end();
    let id = NEXT_REQUEST.fetch_add(1, Ordering::Relaxed);
    let runtime = runtime::for_request();
    REQUEST_RUNTIME.set(runtime.as_ref().map_or(std::ptr::null(), Arc::as_ptr));
    REQUEST.with_borrow_mut(|r| *r = RequestState { id, runtime, held: Default::default() });
}

/// Request end: releases every reservation this request still holds, flushes the locally counted
/// hits and misses, and drops the snapshot. Touches no request memory, so it is safe on state left by
/// a request whose heap is gone.
pub fn end() {
    REQUEST_RUNTIME.set(std::ptr::null());
    let state = REQUEST.with_borrow_mut(std::mem::take);
    if let Some(runtime) = &state.runtime {
        let_go(runtime, RequestId(state.id), &state.held);
    }
}

/// Flushes the counted lookups and releases the reservations `held` names, for request end and exec.
fn let_go(runtime: &Runtime, owner: RequestId, held: &[HashSet<Vec<u8>>; 2]) {
    for tier in [Tier::Volatile, Tier::Pinned] {
        if let Some(backend) = runtime.backend(tier) {
            read_cache::flush_counters(tier, backend);
            for key in &held[tier.index()] {
                backend.release(key, owner);
            }
        }
    }
}

/// `pcntl_exec()`'s handler before this wrapper took its place (0 when pcntl has no such function).
pub static ORIGINAL_PCNTL_EXEC: AtomicUsize = AtomicUsize::new(0);

/// `pcntl_exec()`: the script ends there (§10.4), though no request end follows: the program that runs
/// on keeps this process's pid and start time, so reservations left held would look alive until it
/// exits. They are released (and the counted lookups flushed) just before the exec; an exec that fails
/// and returns leaves them released, as a lease that passed would.
pub unsafe extern "C" fn pcntl_exec(ex: *mut ffi::zend_execute_data, rv: *mut ffi::zval) {
    run_handler(AssertUnwindSafe(|| {
        let (id, held, runtime) = REQUEST.with_borrow_mut(|r| (r.id, std::mem::take(&mut r.held), r.runtime.clone()));
        if let Some(runtime) = runtime {
            let_go(&runtime, RequestId(id), &held);
        }
    }));
    let original = ORIGINAL_PCNTL_EXEC.load(Ordering::Relaxed);
    if original != 0 {
        // SAFETY: pcntl's own handler, saved by `opcache_functions::wrap`, called with the live frame and
        // return slot the engine passed for this call.
        unsafe { std::mem::transmute::<usize, crate::zend::Handler>(original)(ex, rv) };
    }
}

/// Whether a request is running on this thread (between [`begin`] and [`end`]).
pub fn in_request() -> bool {
    REQUEST.with_borrow(|r| r.runtime.is_some())
}

/// The runtime this request uses (the process runtime outside a request).
pub fn runtime() -> Option<Arc<Runtime>> {
    REQUEST.with_borrow(|r| r.runtime.clone()).or_else(runtime::current)
}

/// Runs `f` with the runtime this request uses (the process runtime outside a request), borrowed rather
/// than cloned: the store and counter paths pay no reference counting.
pub fn with_runtime<R>(f: impl FnOnce(Option<&Runtime>) -> R) -> R {
    let lent = REQUEST_RUNTIME.get();
    if lent.is_null() {
        return f(runtime::current().as_deref());
    }
    // SAFETY: `lent` comes from the `Arc` that `REQUEST` holds, and the process runtime (`runtime::current`)
    // holds the same one: it is freed only when both let go. `REQUEST` lets go in `end()`, at a request
    // boundary; userland code that `f` runs (a serialization hook) can reach one only through FrankenPHP's
    // worker mode (a new HTTP request inside the script). The process runtime is replaced only at module
    // start and shutdown and at an FPM worker's first request, none of which happen inside a PHP call, and
    // FPM has no worker mode. So the runtime outlives `f`.
    f(Some(unsafe { &*lent }))
}

pub fn owner() -> RequestId {
    RequestId(REQUEST.with_borrow(|r| r.id))
}

pub fn note_held(tier: Tier, key: &[u8]) {
    REQUEST.with_borrow_mut(|r| r.held[tier.index()].insert(key.to_vec()));
}

/// Forgets `key`; true if this request had reserved it.
pub fn note_released(tier: Tier, key: &[u8]) -> bool {
    REQUEST.with_borrow_mut(|r| {
        let held = &mut r.held[tier.index()];
        // No hashing on the common path of a request that holds nothing.
        !held.is_empty() && held.remove(key)
    })
}

pub fn forget_all(tier: Tier) {
    REQUEST.with_borrow_mut(|r| r.held[tier.index()].clear());
}
