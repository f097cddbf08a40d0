//! Behaviour of one backend in one process (multi-process behaviour lives in the workspace `tests/`).

use crate::*;
use proptest::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

const MB: u64 = 1 << 20;

/// A fresh anonymous segment with one partition of these backend sizes (0 = absent).
pub(crate) fn partition(volatile: u64, pinned: u64) -> (Segment, Partition) {
    let seg = Segment::create_anonymous(&[PartitionSpec {
        name: "t".into(),
        volatile_bytes: volatile,
        pinned_bytes: pinned,
    }])
    .unwrap();
    let p = seg.partition("t").unwrap();
    (seg, p)
}

fn volatile(bytes: u64) -> Backend {
    partition(bytes, 0).1.volatile.unwrap()
}

fn pinned(bytes: u64) -> Backend {
    partition(0, bytes).1.pinned.unwrap()
}

fn value(b: &Backend, key: &str) -> Option<Vec<u8>> {
    b.peek(key.as_bytes()).map(|e| e.value().to_vec())
}

#[test]
fn a_stored_value_reads_back_with_its_tag() {
    let b = volatile(8 * MB);
    b.store(b"k", 7, b"hello", 0).unwrap();
    let e = b.get(b"k").unwrap();
    assert_eq!((e.tag(), e.value()), (7, &b"hello"[..]));
    drop(e);
    assert!(b.get(b"other").is_none());
    let s = b.stats();
    assert_eq!((s.hits, s.misses, s.entries, s.inserts), (1, 1, 1, 1));
    b.verify().unwrap();
}

#[test]
fn binary_keys_are_compared_by_length_and_bytes() {
    let b = volatile(8 * MB);
    b.store(b"a\0b", 1, b"1", 0).unwrap();
    b.store(b"a\0", 1, b"2", 0).unwrap();
    b.store(b"", 1, b"3", 0).unwrap();
    assert_eq!(b.peek(b"a\0b").unwrap().value(), b"1");
    assert_eq!(b.peek(b"a\0").unwrap().value(), b"2");
    assert_eq!(b.peek(b"").unwrap().value(), b"3");
}

#[test]
fn every_mutation_bumps_the_epoch_and_reads_do_not() {
    let b = volatile(8 * MB);
    assert_eq!(b.epoch(), 1);
    let mut last = b.epoch();
    let mut bumped = |b: &Backend| {
        let now = b.epoch();
        assert!(now > last);
        last = now;
    };
    b.store(b"k", 1, b"v", 0).unwrap();
    bumped(&b);
    let before_reads = b.epoch();
    b.get(b"k");
    b.peek(b"k");
    assert_eq!(b.epoch(), before_reads);
    b.increment(b"n", 1).unwrap();
    bumped(&b);
    b.delete(b"k");
    bumped(&b);
    b.clear();
    bumped(&b);
}

#[test]
fn a_value_held_by_a_reader_survives_overwrite_delete_and_clear() {
    let b = volatile(8 * MB);
    b.store(b"k", 1, &[1u8; 1000], 0).unwrap();
    let held = b.get(b"k").unwrap();
    b.store(b"k", 1, &[2u8; 1000], 0).unwrap();
    b.delete(b"k");
    for i in 0..100 {
        b.store(format!("fill{i}").as_bytes(), 1, &[3u8; 1000], 0).unwrap();
    }
    b.clear();
    assert!(held.value().iter().all(|&x| x == 1), "pinned bytes were reused");
    assert!(b.stats().retired_bytes > 0);
    drop(held);
    b.clear();
    assert_eq!(b.stats().retired_bytes, 0, "retired memory must come back at the first pass after the reader lets go");
    b.verify().unwrap();
}

#[test]
fn reclamation_frees_long_runs_around_a_held_entry_in_bounded_transactions() {
    // Blocks of 2 KiB go back to the bins and coalesce (the costliest free): 400 of them retired at once
    // need many transactions, and the held one in the middle splits the list into two runs.
    let b = volatile(8 * MB);
    for i in 0..400 {
        b.store(format!("k{i}").as_bytes(), 1, &[i as u8; 2000], 0).unwrap();
    }
    let held = b.get(b"k200").unwrap();
    b.clear();
    assert!(held.value().iter().all(|&x| x == 200), "held bytes were reused");
    let left = b.stats();
    assert!(left.retired_bytes >= 2000 && left.retired_bytes < 4000, "only the held entry stays retired: {left:?}");
    b.verify().unwrap();
    drop(held);
    b.clear();
    assert_eq!(b.stats().retired_bytes, 0);
    assert_eq!(b.stats().fragmentation(), 0.0, "every freed block coalesced back");
    b.verify().unwrap();
}

#[test]
fn ttl_entries_are_invisible_once_expired_and_reclaimed_lazily() {
    let clock = ManualClock::new(1000);
    let b = volatile(8 * MB).with_clock(clock.clone());
    b.store(b"short", 1, b"v", 1).unwrap();
    b.store(b"forever", 1, b"v", 0).unwrap();
    clock.advance_ms(999);
    assert!(b.peek(b"short").is_some(), "visible for at least ttl seconds");
    clock.advance_ms(1);
    assert!(b.get(b"short").is_none(), "invisible once ttl has fully passed");
    assert!(b.peek(b"forever").is_some());
    assert_eq!(b.stats().misses, 1);
    b.store(b"short", 1, b"again", 0).unwrap();
    assert_eq!(value(&b, "short").unwrap(), b"again");
}

#[test]
fn contains_answers_presence_without_counting_or_protecting_from_eviction() {
    let clock = ManualClock::new(1000);
    let b = volatile(MB).with_clock(clock.clone());
    let payload = vec![7u8; 10_000];
    b.store(b"short", 1, b"v", 1).unwrap();
    assert!(b.contains(b"short") && !b.contains(b"absent"));
    b.store(b"forever", 1, b"v", 0).unwrap();
    let expiry = b.peek(b"short").map(|e| e.expires_ms());
    assert!(expiry.is_some_and(|ms| ms > 1000));
    assert_eq!(b.contains_until(b"short"), expiry, "the live entry's expiry");
    assert_eq!((b.contains_until(b"forever"), b.contains_until(b"absent")), (Some(0), None));
    clock.advance_ms(1000);
    assert!(!b.contains(b"short"), "an expired entry is absent");
    assert_eq!(b.contains_until(b"short"), None);
    b.store(b"gone", 1, b"v", 0).unwrap();
    b.delete(b"gone");
    assert!(!b.contains(b"gone"));
    let s = b.stats();
    assert_eq!((s.hits, s.misses), (0, 0), "presence tests are not lookups");
    // Asked about before every store, "tested" is still evicted like the entries nobody reads, while
    // "read" (a real hit each time) survives.
    b.store(b"tested", 1, &payload, 0).unwrap();
    b.store(b"read", 1, &payload, 0).unwrap();
    let mut tested_survived = true;
    for i in 0..500 {
        tested_survived &= b.contains(b"tested");
        assert!(b.get(b"read").is_some(), "read entry evicted after {i} stores");
        b.store(format!("cold{i}").as_bytes(), 1, &payload, 0).unwrap();
    }
    assert!(!tested_survived && !b.contains(b"tested"));
    b.verify().unwrap();
}

#[test]
fn the_internal_stores_mark_is_set_once_noted_and_survives_clear_but_not_a_fresh_backend() {
    let b = volatile(8 * MB);
    assert!(!b.internal_stores_noted());
    b.store(b"k", 7, b"v", 0).unwrap();
    b.delete(b"k");
    assert!(!b.internal_stores_noted(), "ordinary stores and deletes leave it unset");
    b.note_internal_store();
    b.note_internal_store();
    assert!(b.internal_stores_noted());
    b.clear();
    assert!(b.internal_stores_noted(), "clear() keeps it");
    let (_seg, p) = partition(8 * MB, 8 * MB);
    p.volatile.as_ref().unwrap().note_internal_store();
    assert!(!p.pinned.unwrap().internal_stores_noted(), "each backend has its own");
}

#[test]
fn deleting_a_missing_key_moves_nothing_and_an_expired_entry_is_still_removed() {
    let clock = ManualClock::new(1000);
    let b = volatile(8 * MB).with_clock(clock.clone());
    let epoch = b.epoch();
    assert!(!b.delete(b"never"));
    assert_eq!(b.epoch(), epoch, "nothing changed");
    b.store(b"short", 1, b"v", 1).unwrap();
    clock.advance_ms(1000);
    assert!(b.delete(b"short"), "an expired entry is removed too");
    assert_eq!(b.stats().entries, 0);
    b.verify().unwrap();
}

#[test]
fn holds_sees_live_and_expired_entries_but_not_missing_ones() {
    let clock = ManualClock::new(1000);
    let b = volatile(8 * MB).with_clock(clock.clone());
    b.store(b"live", 1, b"v", 0).unwrap();
    b.store(b"short", 1, b"v", 1).unwrap();
    clock.advance_ms(1000);
    assert!(b.holds(b"live") && b.holds(b"short"), "an expired entry is still held until removed");
    assert!(!b.holds(b"never"));
    b.delete(b"short");
    assert!(!b.holds(b"short"));
}

#[test]
fn every_successful_store_and_removing_delete_moves_the_epoch() {
    // The binding counts on it: a write that moved the epoch exactly once was the only change.
    let b = volatile(8 * MB);
    let moved = |b: &Backend, write: &dyn Fn(&Backend) -> bool| {
        let before = b.epoch();
        assert!(write(b));
        assert!(b.epoch() > before);
    };
    let int = 7i64.to_le_bytes();
    moved(&b, &|b| b.store(b"i", TAG_INT, &int, 0).is_ok());
    moved(&b, &|b| b.store(b"i", TAG_INT, &int, 0).is_ok());
    moved(&b, &|b| b.store(b"s", 1, b"v", 0).is_ok());
    moved(&b, &|b| b.store(b"s", 1, b"w", 0).is_ok());
    moved(&b, &|b| b.store(b"big", 1, &vec![1u8; 200_000], 0).is_ok());
    moved(&b, &|b| b.delete(b"s"));
    moved(&b, &|b| b.delete(b"i"));
}

#[test]
fn delete_many_removes_what_exists_and_moves_the_epoch_once() {
    let b = volatile(8 * MB);
    for k in ["a", "b", "c"] {
        b.store(k.as_bytes(), 1, b"v", 0).unwrap();
    }
    let epoch = b.epoch();
    assert_eq!(b.delete_many([&b"a"[..], b"missing", b"c", b"a"]), 2);
    assert_eq!(b.epoch(), epoch + 1);
    assert!(!b.contains(b"a") && b.contains(b"b") && !b.contains(b"c"));
    assert_eq!(b.delete_many([&b"missing"[..]]), 0);
    assert_eq!(b.epoch(), epoch + 1, "nothing removed, nothing moved");
    assert_eq!(b.stats().entries, 1);
    b.verify().unwrap();
}

#[test]
fn version_of_matches_a_lookup_without_counting() {
    let clock = ManualClock::new(1000);
    let b = volatile(8 * MB).with_clock(clock.clone());
    b.store(b"v", 1, b"bytes", 1).unwrap();
    b.increment(b"n", 5).unwrap();
    assert_eq!(b.version_of(b"v"), Some(b.peek(b"v").unwrap().version()));
    let before = b.version_of(b"n");
    assert_eq!(before, Some(b.peek(b"n").unwrap().version()));
    b.increment(b"n", 1).unwrap();
    assert_ne!(b.version_of(b"n"), before, "an integer's version follows its value");
    assert_eq!(b.version_of(b"absent"), None);
    clock.advance_ms(1000);
    assert_eq!(b.version_of(b"v"), None, "expired");
    let s = b.stats();
    assert_eq!((s.hits, s.misses), (0, 0));
}

#[test]
fn an_overflowing_ttl_means_no_expiry() {
    let clock = ManualClock::new(1000);
    let b = volatile(8 * MB).with_clock(clock.clone());
    b.store(b"k", 1, b"v", u64::MAX).unwrap();
    clock.advance_ms(1 << 40);
    assert!(b.peek(b"k").is_some());
}

#[test]
fn pinned_backend_ignores_ttl() {
    let clock = ManualClock::new(1000);
    let b = pinned(8 * MB).with_clock(clock.clone());
    b.store(b"k", 1, b"v", 1).unwrap();
    clock.advance_ms(10_000);
    assert!(b.peek(b"k").is_some());
}

#[test]
fn a_value_larger_than_the_backend_fails_at_once_without_evicting() {
    let b = volatile(MB);
    b.store(b"keep", 1, b"v", 0).unwrap();
    assert_eq!(b.store(b"big", 1, &vec![0u8; 2 * MB as usize], 0), Err(StoreError::TooLarge));
    assert!(b.peek(b"keep").is_some());
    assert_eq!(b.stats().evictions, 0);
}

#[test]
fn full_volatile_backend_evicts_unread_entries_before_read_ones() {
    let b = volatile(MB);
    let payload = vec![7u8; 10_000];
    b.store(b"hot", 1, &payload, 0).unwrap();
    for i in 0..500 {
        assert!(b.get(b"hot").is_some(), "hot entry evicted after {i} stores");
        b.store(format!("cold{i}").as_bytes(), 1, &payload, 0).unwrap();
    }
    let s = b.stats();
    assert!(s.evictions > 0);
    assert!(s.entries > 10, "eviction must not wipe the backend");
    b.verify().unwrap();
}

#[test]
fn memory_pressure_purges_expired_entries_before_evicting_live_ones() {
    let clock = ManualClock::new(1000);
    let b = volatile(MB).with_clock(clock.clone());
    let payload = vec![1u8; 10_000];
    let mut i = 0;
    while b.stats().free_bytes > 200_000 {
        b.store(format!("exp{i}").as_bytes(), 1, &payload, 1).unwrap();
        i += 1;
    }
    b.store(b"live", 1, &payload, 0).unwrap();
    clock.advance_ms(2000);
    for j in 0..40 {
        b.store(format!("new{j}").as_bytes(), 1, &payload, 0).unwrap();
    }
    let s = b.stats();
    assert_eq!(s.evictions, 0);
    assert!(s.expirations > 0);
    assert!(b.peek(b"live").is_some());
}

#[test]
fn full_pinned_backend_refuses_and_keeps_everything() {
    let b = pinned(MB);
    let payload = vec![9u8; 10_000];
    let mut stored = 0;
    loop {
        match b.store(format!("k{stored}").as_bytes(), 1, &payload, 0) {
            Ok(()) => stored += 1,
            Err(e) => {
                assert_eq!(e, StoreError::OutOfMemory);
                break;
            }
        }
    }
    assert!(stored > 50);
    for i in 0..stored {
        assert_eq!(value(&b, &format!("k{i}")).unwrap(), payload);
    }
    assert_eq!(b.stats().evictions, 0);
    // Overwriting with the same size still fits: the old block comes back once retired.
    b.verify().unwrap();
}

#[test]
fn entry_table_exhaustion_fails_cleanly_on_pinned() {
    let b = pinned(MB);
    let max = b.stats().max_entries;
    for i in 0..max {
        b.store(format!("{i}").as_bytes(), 1, b"", 0).unwrap();
    }
    assert_eq!(b.store(b"one-more", 1, b"", 0), Err(StoreError::TableFull));
    b.store(b"0", 1, b"overwrite is fine", 0).unwrap();
    b.verify().unwrap();
}

#[test]
fn entry_table_exhaustion_evicts_on_volatile() {
    let b = volatile(MB);
    let max = b.stats().max_entries;
    for i in 0..max + 10 {
        b.store(format!("{i}").as_bytes(), 1, b"", 0).unwrap();
    }
    assert_eq!(b.stats().entries, max);
    assert_eq!(b.stats().evictions, 10);
}

#[test]
fn counters_create_add_wrap_and_refuse_non_integers() {
    let b = pinned(8 * MB);
    assert_eq!(b.increment(b"n", 5).unwrap(), CounterUpdate { value: 5, wrapped: false });
    assert_eq!(b.decrement(b"n", 7).unwrap(), CounterUpdate { value: -2, wrapped: false });
    assert_eq!(b.decrement(b"m", 3).unwrap().value, -3);
    b.store(b"max", TAG_INT, &i64::MAX.to_le_bytes(), 0).unwrap();
    assert_eq!(b.increment(b"max", 1).unwrap(), CounterUpdate { value: i64::MIN, wrapped: true });
    assert_eq!(b.peek(b"max").unwrap().as_int(), Some(i64::MIN));
    b.store(b"s", 2, b"12", 0).unwrap();
    assert_eq!(b.increment(b"s", 1), Err(CounterError::NotInteger));
    assert_eq!(value(&b, "s").unwrap(), b"12");
}

#[test]
fn counters_from_many_threads_sum_exactly() {
    let b = pinned(8 * MB);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..500 {
                    b.increment(b"c", 1).unwrap();
                }
            });
        }
    });
    assert_eq!(b.peek(b"c").unwrap().as_int(), Some(2000));
}

#[test]
fn reservations_are_per_request_reentrant_and_released() {
    let b = volatile(8 * MB);
    let (me, other) = (RequestId(1), RequestId(2));
    assert!(b.try_reserve(b"k", me, 0));
    assert!(b.try_reserve(b"k", me, 0), "re-entrant");
    assert!(!b.try_reserve(b"k", other, 0));
    assert!(b.reserved_by_other(b"k", other));
    assert!(!b.reserved_by_other(b"k", me));
    assert!(b.try_reserve(b"unrelated", other, 0), "different keys never contend");
    assert!(!b.release(b"k", other));
    assert!(b.release(b"k", me));
    assert!(!b.release(b"k", me), "one unlock releases");
    assert!(b.try_reserve(b"k", other, 0));
    b.release_all(other);
    assert_eq!(b.held_reservations(), 0);
}

#[test]
fn an_expired_lease_frees_the_reservation_and_the_old_holder_no_longer_holds_it() {
    let clock = ManualClock::new(1000);
    let b = volatile(8 * MB).with_clock(clock.clone());
    assert!(b.try_reserve(b"k", RequestId(1), 2));
    clock.advance_ms(1999);
    assert!(!b.try_reserve(b"k", RequestId(2), 0));
    clock.advance_ms(1);
    assert!(!b.reserved_by_other(b"k", RequestId(2)));
    assert!(!b.release(b"k", RequestId(1)));
    assert!(b.try_reserve(b"k", RequestId(2), 0));
}

#[test]
fn many_reservations_and_releases_never_fill_the_table() {
    let b = volatile(MB);
    for i in 0..20_000 {
        let k = format!("k{i}");
        assert!(b.try_reserve(k.as_bytes(), RequestId(1), 0));
        assert!(b.release(k.as_bytes(), RequestId(1)));
    }
}

#[test]
fn a_segment_with_two_partitions_keeps_them_apart() {
    let seg = Segment::create_anonymous(&[
        PartitionSpec { name: "a".into(), volatile_bytes: MB, pinned_bytes: MB },
        PartitionSpec { name: "b".into(), volatile_bytes: MB, pinned_bytes: 0 },
    ])
    .unwrap();
    assert_eq!(seg.partition_names(), ["a", "b"]);
    let a = seg.partition("a").unwrap();
    let b = seg.partition("b").unwrap();
    assert!(b.pinned.is_none());
    a.volatile.as_ref().unwrap().store(b"k", 1, b"a", 0).unwrap();
    assert!(b.volatile.as_ref().unwrap().peek(b"k").is_none());
    assert!(a.pinned.as_ref().unwrap().peek(b"k").is_none(), "volatile and pinned are separate namespaces");
    assert!(seg.partition("c").is_none());
}

#[test]
fn fragmentation_is_zero_when_free_space_is_one_block() {
    let b = volatile(MB);
    let s = b.stats();
    assert_eq!(s.fragmentation(), 0.0);
    assert!(s.free_bytes > 0 && s.free_bytes == s.largest_free);
}

#[derive(Debug, Clone)]
enum Op {
    Set(u8, usize),
    Delete(u8),
    Get(u8),
    Incr(u8),
    Clear,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (any::<u8>(), 0usize..3000).prop_map(|(k, n)| Op::Set(k % 64, n)),
        2 => any::<u8>().prop_map(|k| Op::Delete(k % 64)),
        3 => any::<u8>().prop_map(|k| Op::Get(k % 64)),
        1 => any::<u8>().prop_map(|k| Op::Incr(k % 64)),
        1 => Just(Op::Clear),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The pinned index against a HashMap model: every live entry readable, nothing else, verify() holds.
    #[test]
    fn random_operations_match_a_map_model(ops in prop::collection::vec(op(), 1..200)) {
        let b = pinned(2 * MB);
        let mut model: HashMap<u8, (u16, Vec<u8>)> = HashMap::new();
        for op in ops {
            match op {
                Op::Set(k, n) => {
                    let v: Vec<u8> = (0..n).map(|i| (i as u8).wrapping_mul(k)).collect();
                    b.store(&[k], 3, &v, 0).unwrap();
                    model.insert(k, (3, v));
                }
                Op::Delete(k) => {
                    prop_assert_eq!(b.delete(&[k]), model.remove(&k).is_some());
                }
                Op::Get(k) => {
                    let got = b.get(&[k]).map(|e| (e.tag(), e.value().to_vec()));
                    prop_assert_eq!(got, model.get(&k).cloned());
                }
                Op::Incr(k) => {
                    let r = b.increment(&[k], 2);
                    match model.get(&k) {
                        Some((t, v)) if *t != TAG_INT || v.len() != 8 => prop_assert_eq!(r, Err(CounterError::NotInteger)),
                        other => {
                            let old = other.map(|(_, v)| i64::from_le_bytes(v[..].try_into().unwrap())).unwrap_or(0);
                            prop_assert_eq!(r.unwrap().value, old + 2);
                            model.insert(k, (TAG_INT, (old + 2).to_le_bytes().to_vec()));
                        }
                    }
                }
                Op::Clear => {
                    b.clear();
                    model.clear();
                }
            }
            let report = b.verify().map_err(TestCaseError::fail)?;
            prop_assert_eq!(report.entries, model.len() as u64);
        }
        for (k, (t, v)) in &model {
            let e = b.peek(&[*k]).unwrap();
            prop_assert_eq!((e.tag(), e.value()), (*t, &v[..]));
        }
    }

    /// Random stores into a small volatile backend: every store either succeeds or is too large, and the
    /// structure stays sound while eviction runs.
    #[test]
    fn eviction_under_random_load_keeps_the_backend_consistent(sizes in prop::collection::vec(0usize..60_000, 1..200)) {
        let b = volatile(MB);
        for (i, n) in sizes.into_iter().enumerate() {
            b.store(format!("k{}", i % 97).as_bytes(), 1, &vec![1u8; n], 0).unwrap();
            let key = format!("k{}", i % 97);
            prop_assert!(b.peek(key.as_bytes()).is_some());
        }
        b.verify().map_err(TestCaseError::fail)?;
    }
}

#[test]
fn handles_share_one_backend_across_clones_and_threads() {
    let b = Arc::new(volatile(8 * MB));
    std::thread::scope(|s| {
        for t in 0..4u8 {
            let b = b.clone();
            s.spawn(move || {
                for i in 0..200u32 {
                    let key = [t, (i % 10) as u8];
                    b.store(&key, 1, &i.to_le_bytes(), 0).unwrap();
                    let got = b.get(&key).map(|e| e.value().to_vec()).unwrap();
                    assert_eq!(got.len(), 4);
                }
            });
        }
    });
    assert_eq!(b.stats().entries, 40);
    b.verify().unwrap();
}

#[test]
fn the_largest_value_that_fits_is_stored_and_one_byte_more_is_refused_without_evicting() {
    for bytes in [4 << 20, (4 << 20) + 8] {
        let v = volatile(bytes);
        for i in 0..100 {
            v.store(format!("k{i}").as_bytes(), 2, &[7; 100], 0).unwrap();
        }
        let max = v.max_value_len(3) as usize;
        assert_eq!(v.store(b"big", 2, &vec![1; max + 1], 0), Err(StoreError::TooLarge));
        assert_eq!(v.stats().entries, 100, "a refused value must not evict anything");
        v.store(b"big", 2, &vec![1; max], 0).unwrap();
        v.verify().unwrap();
    }
}

#[test]
fn scan_reports_every_live_entry_with_the_prefix_once_across_cursor_calls() {
    let b = volatile(8 * MB);
    for i in 0..500 {
        b.store(format!("app:{i}").as_bytes(), 7, &vec![b'x'; i % 40], 0).unwrap();
        b.store(format!("other:{i}").as_bytes(), 7, b"v", 0).unwrap();
    }
    b.store(b"app:short-lived", 7, b"v", 1).unwrap();
    let mut seen = HashMap::new();
    let (mut cursor, mut calls) = (Some(0), 0);
    while let Some(c) = cursor {
        let (batch, next) = b.scan(c, b"app:", 64);
        assert!(batch.len() <= 64 + 8, "a call returns about `limit` entries, got {}", batch.len());
        for e in batch {
            assert!(seen.insert(e.key.clone(), e).is_none(), "an entry is reported once");
        }
        cursor = next;
        calls += 1;
    }
    assert!(calls > 1, "the walk is split over several calls");
    assert_eq!(seen.len(), 501);
    let e = &seen[&b"app:39".to_vec()];
    assert_eq!((e.tag, e.value_len, e.ttl_left_ms), (7, 39, None));
    assert!(e.block_bytes >= 39 + 80);
    assert!(seen[&b"app:short-lived".to_vec()].ttl_left_ms.is_some_and(|ms| ms <= 1000));
}

#[test]
fn scan_counts_fetches_per_entry_but_not_peeks() {
    let b = volatile(8 * MB);
    b.store(b"k", 7, b"v", 0).unwrap();
    for _ in 0..3 {
        drop(b.get(b"k"));
    }
    drop(b.fetch(b"k"));
    drop(b.peek(b"k"));
    let (mut found, mut cursor) = (Vec::new(), Some(0));
    while let Some(c) = cursor {
        let (batch, next) = b.scan(c, b"", 10);
        found.extend(batch);
        cursor = next;
    }
    assert_eq!(found.iter().map(|e| (e.key.as_slice(), e.hits)).collect::<Vec<_>>(), vec![(&b"k"[..], 4)]);
}

/// After `clear()` with no reader left, the heap is one free block again: small blocks freed by the
/// clear are not kept apart on quick lists.
#[test]
fn a_cleared_backend_has_no_fragmentation() {
    for b in [volatile(8 * MB), pinned(8 * MB)] {
        let empty = b.stats();
        for i in 0..2000u64 {
            b.store(format!("k{i}").as_bytes(), 7, &vec![b'x'; (i % 60 * 16) as usize], 0).unwrap();
        }
        b.clear();
        let s = b.stats();
        assert_eq!((s.free_bytes, s.largest_free, s.fragmentation()), (empty.free_bytes, empty.free_bytes, 0.0));
    }
}

thread_local! {
    /// What [`mid_walk`] runs, once, in this thread (tests that stall a reader in the middle of a lookup).
    static MID_WALK: std::cell::RefCell<Option<Box<dyn FnOnce()>>> = const { std::cell::RefCell::new(None) };
}

/// Called by `Backend::lookup` (test builds only) between the walk that found an entry and the hold that
/// protects it: runs what a test set in `MID_WALK` for this thread.
pub(crate) fn mid_walk() {
    if let Some(f) = MID_WALK.with_borrow_mut(Option::take) {
        f()
    }
}

/// A lock-free integer update can move the epoch between a writer's retirement of the entry it replaces
/// (the entry tagged) and the publication of the unlink. A reader that pins the newer epoch while the entry
/// is still linked and walks into it must keep it allocated: a reclamation pass that runs while the reader
/// is still walking must not free it, and the reader must not hand out whatever reuses the block.
#[test]
fn an_entry_a_reader_walked_into_survives_a_pass_after_an_in_place_update_moved_the_epoch_before_its_unlink() {
    let b = pinned(8 * MB);
    b.store(b"a", 2, &[1u8; 64], 0).unwrap();
    b.increment(b"n", 1).unwrap();
    std::thread::scope(|s| {
        // The writer replaces "a": the old entry is retired and tagged, then the writer stalls before the
        // write that unlinks it.
        b.stall_next_write(500_000);
        let writer = s.spawn(|| b.store(b"a", 2, &[2u8; 64], 0).unwrap());
        while b.0.retired.retired_count() == 0 {
            std::thread::yield_now();
        }
        let tagged = b.epoch();
        b.increment(b"n", 1).unwrap();
        assert!(b.epoch() > tagged && !writer.is_finished(), "the increment moved the epoch during the stall");
        // The reader pins the epoch the increment made and finds the old entry, still linked; before it
        // holds it, the writer publishes, a reclamation pass runs, and another key's store takes a block.
        let pinned_epoch = b.epoch();
        let other = b.clone();
        MID_WALK.set(Some(Box::new(move || {
            while other.epoch() == pinned_epoch {
                std::thread::yield_now();
            }
            let g = other.lock().unwrap();
            other.reclaim();
            drop(g);
            other.store(b"z", 2, &[3u8; 64], 0).unwrap();
        })));
        let found = b.get(b"a").expect("a stored key").value().to_vec();
        assert!(found == [1u8; 64] || found == [2u8; 64], "the lookup handed out a freed entry: {found:?}");
        writer.join().unwrap();
    });
    assert_eq!(b.peek(b"a").unwrap().value(), [2u8; 64]);
    b.verify().unwrap();
}

/// A reader stalled in the middle of its walk (a stopped or killed thread) holds back what was retired
/// since its pin only until the reclamation epoch is [`crate::reclaim::STALE_PIN_EPOCHS`] past it: then a
/// pass revokes the pin and frees, and the reader, finding its pin revoked, walks again and reads the
/// current value. Lock-free in-place integer updates move only the mutation epoch, which revokes nothing
/// (review rv33: the revocation of stale pins after the split of the reclamation epoch, layout 6).
#[test]
fn a_stalled_readers_pin_is_revoked_after_enough_reclamation_epochs_and_not_by_in_place_updates() {
    use crate::reclaim::STALE_PIN_EPOCHS;
    let b = pinned(8 * MB);
    b.store(b"a", 2, &[1u8; 64], 0).unwrap();
    b.increment(b"n", 1).unwrap();
    let other = b.clone();
    MID_WALK.set(Some(Box::new(move || {
        std::thread::scope(|s| {
            s.spawn(|| {
                let pass = || {
                    let g = other.lock().unwrap();
                    other.reclaim();
                    drop(g);
                };
                for _ in 0..3 * STALE_PIN_EPOCHS {
                    other.increment(b"n", 1).unwrap();
                }
                other.store(b"a", 2, &[2u8; 64], 0).unwrap();
                pass();
                assert_eq!(other.0.retired.retired_count(), 1, "in-place updates revoked the stalled reader's pin");
                for i in 0..STALE_PIN_EPOCHS + 2 {
                    other.store(b"x", 2, &[i as u8; 64], 0).unwrap();
                }
                pass();
                assert_eq!(other.0.retired.retired_count(), 0, "a pin this far behind still holds entries back");
            })
            .join()
            .unwrap();
        });
    })));
    assert_eq!(b.get(b"a").expect("a stored key").value(), [2u8; 64], "the revoked reader walks again");
    b.verify().unwrap();
}

/// A reader stopped in the middle of its walk (SIGSTOP, a debugger) must not make stores fail when memory
/// runs short: the memory retired since its pin is all it holds back, and failed stores do not move the
/// reclamation epoch, so its pin would never grow old. An allocation that fails while retired memory would
/// cover it ages every pin and reclaims (PHPT P4's case, there only when a reader is stopped mid-walk).
#[test]
fn a_reader_stalled_mid_walk_does_not_make_stores_fail_when_memory_runs_short() {
    let b = pinned(8 * MB);
    b.store(b"a", 2, &[1u8; 64], 0).unwrap();
    let other = b.clone();
    MID_WALK.set(Some(Box::new(move || {
        std::thread::scope(|s| {
            s.spawn(|| {
                let big = vec![7u8; MB as usize];
                let failed = (0..40).filter(|i| other.store(format!("churn{}", i % 4).as_bytes(), 2, &big, 0).is_err());
                assert_eq!(failed.count(), 0, "stores failed while a stalled reader's pin held retired memory");
            })
            .join()
            .unwrap();
        });
    })));
    assert_eq!(b.get(b"a").expect("a stored key").value(), [1u8; 64], "the revoked reader walks again");
    b.verify().unwrap();
}
