//! Per-request state (per thread under ZTS): the request's reservation owner token, its snapshot of
//! the runtime, and the keys it holds reservations for, released at request end (§10.4). Borrows of
//! this state are short and never span a call into PHP.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

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
}

/// RINIT (and each new HTTP request in worker mode): a fresh owner token and runtime snapshot. A
/// previous request whose end never ran (its RSHUTDOWN was skipped) has its reservations released first.
pub fn begin() {
    end();
    let id = NEXT_REQUEST.fetch_add(1, Ordering::Relaxed);
    let runtime = runtime::for_request();
    REQUEST.with_borrow_mut(|r| *r = RequestState { id, runtime, held: Default::default() });
}

/// Request end: releases every reservation this request still holds, flushes the locally counted
/// hits and misses, and drops the snapshot. Touches no request memory, so it is safe on state left by
/// a request whose heap is gone.
pub fn end() {
    let state = REQUEST.with_borrow_mut(std::mem::take);
    let Some(runtime) = state.runtime else { return };
    let owner = RequestId(state.id);
    for tier in [Tier::Volatile, Tier::Pinned] {
        if let Some(backend) = runtime.backend(tier) {
            read_cache::flush_counters(tier, backend);
            for key in &state.held[tier.index()] {
                backend.release(key, owner);
            }
        }
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
