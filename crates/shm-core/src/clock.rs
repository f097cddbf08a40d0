//! Time for TTLs and leases: a monotonic millisecond clock shared by every process of a machine
//! (CLOCK_MONOTONIC), injectable so tests can move time by hand.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Milliseconds on a clock that every process of the machine agrees on.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> u64;
}

/// CLOCK_MONOTONIC: system-wide on Linux, never jumps with wall-clock changes.
#[derive(Debug, Default)]
pub struct MonotonicClock;

impl Clock for MonotonicClock {
    fn now_ms(&self) -> u64 {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `ts` is a valid out-pointer; CLOCK_MONOTONIC always exists on Linux.
        unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
        // Offset by one so that 0 can keep meaning "no expiry" in stored deadlines.
        ts.tv_sec as u64 * 1000 + ts.tv_nsec as u64 / 1_000_000 + 1
    }
}

/// A clock that only moves when told to (tests).
#[derive(Debug)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    pub fn new(start_ms: u64) -> Arc<ManualClock> {
        Arc::new(ManualClock(AtomicU64::new(start_ms.max(1))))
    }

    pub fn advance_ms(&self, ms: u64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// The deadline `ttl_secs` after `now_ms`; 0 (no expiry) for a zero TTL or one that would overflow.
pub fn deadline(now_ms: u64, ttl_secs: u64) -> u64 {
    if ttl_secs == 0 {
        return 0;
    }
    ttl_secs.checked_mul(1000).and_then(|ms| now_ms.checked_add(ms)).unwrap_or(0)
}
