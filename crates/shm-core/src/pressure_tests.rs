//! Behaviour under memory pressure (issue 16): proportional eviction, bounded work with a full table,
//! compaction, and readers that hold back only what they hold. One process; the multi-process side is
//! in the workspace `tests/`.

use crate::backend_tests::partition as backends;
use crate::*;
use std::time::{Duration, Instant};

const MB: u64 = 1 << 20;
const KB: usize = 1024;

/// Fills `b` with `n` values of `len` bytes under `key{i}`; returns how many were stored.
fn fill(b: &Backend, n: usize, len: usize) -> usize {
    (0..n).filter(|i| b.store(format!("key{i}").as_bytes(), 2, &vec![*i as u8; len], 0).is_ok()).count()
}

#[test]
fn one_large_store_into_a_full_volatile_backend_evicts_about_what_it_needs() {
    let (_seg, p) = backends(8 * MB, 0);
    let v = p.volatile.unwrap();
    fill(&v, 12_000, KB);
    let before = v.stats();
    assert!(before.evictions > 0, "the backend filled up");
    v.store(b"large", 2, &vec![7u8; 100 * KB], 0).unwrap();
    let after = v.stats();
    let evicted = after.evictions - before.evictions;
    let bytes = after.evicted_bytes - before.evicted_bytes;
    // Each 1 KiB value takes a 1,120-byte block: 100 KiB need about 92 of them.
    assert!(evicted <= 100, "one 100 KiB store evicted {evicted} entries");
    assert!(bytes < 100 * KB as u64 + 2 * 1120, "evicted {bytes} bytes for 100 KiB");
    assert!(after.entries > 7000, "the rest of the cache stays: {} entries", after.entries);
    v.verify().unwrap();
}

#[test]
fn entries_read_between_large_stores_survive_when_a_cold_run_lies_further_on() {
    let (_seg, p) = backends(4 * MB, 0);
    let v = p.volatile.unwrap();
    // From the start of the heap: 40 pairs of a small entry read between stores and a cold 32 KiB one
    // (no cold run of 64 KiB among them), then cold 32 KiB entries until the backend is nearly full.
    for i in 0..40 {
        v.store(format!("hot{i}").as_bytes(), 2, b"sentinel", 0).unwrap();
        v.store(format!("cold{i}").as_bytes(), 2, &vec![1u8; 32 * KB], 0).unwrap();
    }
    let mut tail = 0;
    while v.stats().free_bytes > 48 * KB as u64 {
        v.store(format!("tail{tail}").as_bytes(), 2, &vec![2u8; 32 * KB], 0).unwrap();
        tail += 1;
    }
    assert_eq!(v.stats().evictions, 0, "filled without evicting");
    for round in 0..5 {
        (0..40).for_each(|i| assert!(v.get(format!("hot{i}").as_bytes()).is_some(), "hot{i} gone by round {round}"));
        v.store(format!("large{round}").as_bytes(), 2, &vec![3u8; 64 * KB], 0).unwrap();
    }
    // The pairs span 1.3 MB, 20 times a 64 KiB request: a walk that gave up on second chances after a
    // multiple of the request's bytes evicted a read entry with the cold 32 KiB one next to it.
    (0..40).for_each(|i| assert!(v.peek(format!("hot{i}").as_bytes()).is_some(), "hot{i} was evicted"));
    v.verify().unwrap();
}

/// Stores the 8 sentinels of the workloads below (read before every store) and returns their keys.
fn store_sentinels(v: &Backend) -> Vec<String> {
    let sentinels: Vec<String> = (0..8).map(|i| format!("sentinel:{i}")).collect();
    for s in &sentinels {
        v.store(s.as_bytes(), 2, s.as_bytes(), 0).unwrap();
    }
    sentinels
}

/// Reads every sentinel (a hit each), failing with the backend's figures if one is gone at store `step`.
fn read_sentinels(v: &Backend, sentinels: &[String], step: usize) {
    for s in sentinels {
        let found = v.fetch(s.as_bytes()).map(|e| e.value() == s.as_bytes());
        assert_eq!(found, Some(true), "{s} lost at store {step} ({:?})", v.stats());
    }
}

/// A small deterministic generator for the workloads below (a 64-bit LCG's high bits).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

#[test]
fn entries_read_between_every_two_stores_survive_heavy_eviction_of_warm_entries() {
    // The FPM load test's volatile traffic (tests/reliability/fpm_load_app.php), in one process: 8 hot
    // sentinels read before every store, 4,096 keys of 0.1-8 KB (16 MB of demand on 8 MB) of which twelve
    // random ones are looked up per store, so that most entries are read between two passes of the clock
    // hand, and one store in twenty of a 16-128 KiB value, which needs a run of a dozen blocks or more.
    // Before the hot rule, a walk that ran out of second chances among the warm entries took whatever run
    // came next: a sentinel went within 8,000 stores.
    let (_seg, p) = backends(8 * MB, 0);
    let v = p.volatile.unwrap();
    let sentinels = store_sentinels(&v);
    let mut rng = Lcg(7);
    for step in 0..30_000 {
        read_sentinels(&v, &sentinels, step);
        for _ in 0..12 {
            v.fetch(format!("v:{}", rng.below(4096)).as_bytes());
        }
        let (key, len) = if rng.below(20) == 0 {
            (format!("vl:{}", rng.below(256)), 16 * KB as u64 + rng.below(112 * KB as u64))
        } else {
            (format!("v:{}", rng.below(4096)), 100 + rng.below(8092))
        };
        v.store(key.as_bytes(), 2, &vec![step as u8; len as usize], 0)
            .unwrap_or_else(|e| panic!("store {step} of {len} bytes failed: {e:?}"));
    }
    assert!(v.stats().evictions > 10_000, "the workload evicts all the time: {:?}", v.stats());
    v.verify().unwrap();
}

#[test]
fn entries_read_between_every_two_stores_survive_a_walk_that_comes_round_again() {
    // Large values only (the FPM load test's store loops: 256 keys of 16-128 KiB), so that the heap holds
    // a hundred blocks or so and a walk comes round to where it began well within its second chances;
    // 64 lookups per store among the 256 keys, so that nearly every entry is read between two passes of
    // the hand and the first pass often finds no run of unread ones. The second pass met the sentinels
    // with the bit the first one had just cleared, and evicted them (within 14,000 stores, 4 seeds).
    let (_seg, p) = backends(8 * MB, 0);
    let v = p.volatile.unwrap();
    let sentinels = store_sentinels(&v);
    let mut rng = Lcg(11);
    for step in 0..20_000 {
        read_sentinels(&v, &sentinels, step);
        for _ in 0..64 {
            v.fetch(format!("vl:{}", rng.below(256)).as_bytes());
        }
        let len = 16 * KB as u64 + rng.below(112 * KB as u64);
        v.store(format!("vl:{}", rng.below(256)).as_bytes(), 2, &vec![step as u8; len as usize], 0)
            .unwrap_or_else(|e| panic!("store {step} of {len} bytes failed: {e:?}"));
    }
    assert!(v.stats().evictions > 10_000, "the workload evicts all the time: {:?}", v.stats());
    v.verify().unwrap();
}

#[test]
fn a_store_that_fits_in_fragmented_free_memory_moves_entries_instead_of_evicting() {
    let (_seg, p) = backends(8 * MB, 0);
    let v = p.volatile.unwrap();
    let stored = fill(&v, 12_000, KB);
    let kept: Vec<usize> = (0..stored).filter(|i| v.peek(format!("key{i}").as_bytes()).is_some()).collect();
    for i in kept.iter().step_by(2) {
        v.delete(format!("key{i}").as_bytes());
    }
    let before = v.stats();
    assert!(before.largest_free < 2 * KB as u64 && before.free_bytes > MB, "fragmented: {before:?}");
    v.store(b"large", 2, &vec![7u8; MB as usize], 0).unwrap();
    let after = v.stats();
    assert_eq!(after.evictions, before.evictions, "nothing evicted while the free memory holds the value");
    assert!(after.relocations > before.relocations);
    for i in kept.iter().skip(1).step_by(2) {
        assert_eq!(v.peek(format!("key{i}").as_bytes()).unwrap().value(), &vec![*i as u8; KB][..]);
    }
    v.verify().unwrap();
}

#[test]
fn a_pinned_value_of_half_the_free_memory_fits_after_every_other_entry_is_deleted() {
    let (_seg, p) = backends(0, 8 * MB);
    let b = p.pinned.unwrap();
    let stored = fill(&b, 12_000, KB);
    assert!(stored > 7000 && b.stats().free_bytes < 2 * KB as u64, "the pinned backend filled up");
    for i in (0..stored).step_by(2) {
        assert!(b.delete(format!("key{i}").as_bytes()));
    }
    let s = b.stats();
    assert!(s.largest_free < 2 * KB as u64, "every free block is small: {s:?}");
    let half = (s.free_bytes / 2) as usize;
    b.store(b"half", 2, &vec![9u8; half], 0).expect("a value of half the free memory is stored");
    assert!(b.stats().relocations > 0);
    assert_eq!(b.stats().evictions, 0, "a pinned backend never evicts");
    for i in (1..stored).step_by(2) {
        assert_eq!(b.peek(format!("key{i}").as_bytes()).unwrap().value(), &vec![i as u8; KB][..], "key{i}");
    }
    assert_eq!(b.peek(b"half").unwrap().value().len(), half);
    b.verify().unwrap();
}

#[test]
fn a_value_larger_than_the_free_memory_is_refused_without_moving_anything() {
    let (_seg, p) = backends(0, 4 * MB);
    let b = p.pinned.unwrap();
    let stored = fill(&b, 6_000, KB);
    for i in (0..stored).step_by(2) {
        b.delete(format!("key{i}").as_bytes());
    }
    let before = b.stats();
    // Retired memory comes back at the next reclamation: it counts as free here.
    let too_big = (before.free_bytes + before.retired_bytes) as usize + KB;
    assert_eq!(b.store(b"big", 2, &vec![1u8; too_big], 0), Err(StoreError::OutOfMemory));
    let after = b.stats();
    assert_eq!((after.relocations, after.entries), (before.relocations, before.entries), "nothing moved");
    for i in (1..stored).step_by(2) {
        assert_eq!(b.peek(format!("key{i}").as_bytes()).unwrap().value(), &vec![i as u8; KB][..]);
    }
    b.verify().unwrap();
}

#[test]
fn a_large_value_left_between_small_ones_does_not_block_a_store_of_the_free_memory() {
    // Issue 16: one tiny entry left after deleting a third-of-capacity value, and a value of most of
    // the free memory refused for lack of one block that large.
    let (_seg, p) = backends(0, 8 * MB);
    let b = p.pinned.unwrap();
    b.store(b"third", 2, &vec![1u8; (8 * MB / 3) as usize], 0).unwrap();
    b.store(b"tiny", 2, b"t", 0).unwrap();
    b.delete(b"third");
    let free = b.stats().free_bytes;
    let len = (free - 64 * KB as u64) as usize;
    b.store(b"most", 2, &vec![2u8; len], 0).expect("a value of almost all the free memory is stored");
    assert_eq!(b.peek(b"tiny").unwrap().value(), b"t");
    b.verify().unwrap();
}

/// Mean time of a store in the fastest of `rounds` batches of `n` stores (robust against a busy host).
fn best_store_time(b: &Backend, rounds: usize, n: usize, mut key: impl FnMut(usize) -> String) -> Duration {
    let mut next = 0;
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                b.store(key(next).as_bytes(), 2, b"value of a store", 0).unwrap();
                next += 1;
            }
            t.elapsed() / n as u32
        })
        .min()
        .unwrap()
}

/// A volatile backend of `mb` MiB whose entry table is full (a third of the entries with a TTL).
fn full_table(mb: u64) -> (Segment, Backend) {
    let (seg, p) = backends(mb * MB, 0);
    let v = p.volatile.unwrap();
    let max = v.stats().max_entries as usize;
    for i in 0..max {
        v.store(format!("fill{i}").as_bytes(), 2, b"x", if i % 3 == 0 { 3600 } else { 0 }).unwrap();
    }
    assert_eq!(v.stats().entries, max as u64, "the table is full");
    (seg, v)
}

#[test]
fn a_store_into_a_full_entry_table_does_not_cost_more_in_a_larger_table() {
    // With a scan of the table per store (before: 1.1 ms at 8 MiB, hundreds of times a store's cost
    // now), eight times the table costs eight times as much. Batches alternate between the two
    // backends, so a busy host slows both alike; the bound is half that factor, as under a load average
    // of 6-9 the best of 7 batches once came out 2.4 times apart with no scan.
    let (_s1, small) = full_table(1);
    let (_s8, large) = full_table(8);
    let (mut best_small, mut best_large) = (Duration::MAX, Duration::MAX);
    for round in 0..11 {
        best_small = best_small.min(best_store_time(&small, 1, 1000, |i| format!("new{round}-{i}")));
        best_large = best_large.min(best_store_time(&large, 1, 1000, |i| format!("new{round}-{i}")));
    }
    for b in [&small, &large] {
        assert!(b.stats().evictions >= 11000, "every store into the full table evicted one entry");
        b.verify().unwrap();
    }
    assert!(
        best_large < 4 * best_small + Duration::from_micros(1),
        "a store into a full table: {best_large:?} at 8 MiB, {best_small:?} at 1 MiB"
    );
}

#[test]
fn a_held_entry_holds_back_only_itself_while_the_backend_churns() {
    let (_seg, p) = backends(0, 2 * MB);
    let b = p.pinned.unwrap();
    b.store(b"held", 2, &vec![1u8; 10 * KB], 0).unwrap();
    let held = b.get(b"held").unwrap();
    b.delete(b"held");
    // Forty times the backend's size of rewrites: each one retires the block it replaces.
    for i in 0..4000 {
        b.store(format!("churn{}", i % 50).as_bytes(), 2, &vec![i as u8; 20 * KB], 0)
            .unwrap_or_else(|e| panic!("store {i} failed with {e:?} while one entry was held"));
    }
    b.clear();
    assert!(b.stats().retired_bytes <= 11 * KB as u64, "only the held entry stays retired");
    assert!(held.value().iter().all(|&x| x == 1), "the held value is intact");
    drop(held);
    b.clear();
    assert_eq!(b.stats().retired_bytes, 0);
    b.verify().unwrap();
}

#[test]
fn more_reader_threads_than_slots_read_while_a_writer_holds_the_write_lock() {
    let (_seg, p) = backends(0, 4 * MB);
    let b = p.pinned.unwrap();
    for i in 0..64 {
        b.store(format!("k{i}").as_bytes(), 2, &[i as u8; 100], 0).unwrap();
    }
    let threads = 300; // more than the backend's 256 reader slots
    std::thread::scope(|s| {
        let writer = s.spawn(|| {
            b.stall_next_write(1_500_000);
            b.store(b"stalled", 2, b"v", 0).unwrap();
        });
        std::thread::sleep(Duration::from_millis(200));
        let started = Instant::now();
        let readers: Vec<_> = (0..threads)
            .map(|t| {
                let b = &b;
                s.spawn(move || {
                    for r in 0..20 {
                        let k = (t + r) % 64;
                        let e = b.get(format!("k{k}").as_bytes()).expect("a stored key");
                        assert_eq!(e.value(), &vec![k as u8; 100][..]);
                    }
                })
            })
            .collect();
        for r in readers {
            r.join().unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_millis(1000),
            "{threads} reader threads took {:?} while the write lock was held",
            started.elapsed()
        );
        writer.join().unwrap();
    });
    b.verify().unwrap();
}

/// A full volatile backend, every other entry of which has expired, takes in as many fresh entries as
/// expired without evicting a live one: expired entries go first (spec §8, §9.2), for lack of memory and
/// of table slots alike.
#[test]
fn expired_entries_make_room_before_any_live_entry_is_evicted() {
    for (len, n) in [(KB, 7_000), (8, 32_768)] {
        let clock = ManualClock::new(1000);
        let (_seg, p) = backends(8 * MB, 0);
        let v = p.volatile.unwrap().with_clock(clock.clone());
        let ttl = |i: usize| u64::from(i.is_multiple_of(2));
        let stored = (0..n).filter(|&i| v.store(format!("old{i}").as_bytes(), 2, &vec![1u8; len], ttl(i)).is_ok());
        assert_eq!(stored.count(), n);
        clock.advance_ms(1001);
        for i in 0..n / 2 {
            v.store(format!("new{i}").as_bytes(), 2, &vec![2u8; len], 0).unwrap();
        }
        let s = v.stats();
        assert_eq!(s.evictions, 0, "{len}-byte values: live entries evicted while expired ones remained");
        assert!((0..n / 2).all(|i| v.contains(format!("new{i}").as_bytes())));
        assert!((1..n).step_by(2).all(|i| v.contains(format!("old{i}").as_bytes())));
        v.verify().unwrap();
    }
}

#[test]
fn values_just_stored_outlive_entries_read_once_long_before() {
    // A full entry table of small values, each read once, then 200 new ones: recency is updated by
    // stores too (spec §9.2), so the new values stay. With second chances for reads alone, the hand
    // evicted a third of them within about 63 stores each (review rv41).
    let (_seg, p) = backends(8 * MB, 0);
    let v = p.volatile.unwrap();
    let mut n = 0;
    while v.stats().evictions < 50 {
        v.store(format!("old{n}").as_bytes(), 2, &[b'o'; 100], 0).unwrap();
        n += 1;
    }
    let old = (0..n).filter(|i| v.fetch(format!("old{i}").as_bytes()).is_some()).count();
    assert!(old > 30_000, "the table was full: {old} entries");
    for i in 0..200 {
        v.store(format!("new{i}").as_bytes(), 2, &[b'n'; 100], 0).unwrap();
    }
    let kept = (0..200).filter(|i| v.peek(format!("new{i}").as_bytes()).is_some()).count();
    assert!(kept >= 190, "only {kept} of the 200 values just stored are left ({:?})", v.stats());
    v.verify().unwrap();
}
