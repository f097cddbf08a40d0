//! Eviction spares hot entries (read at least once per few mutations since their store), but a full
//! volatile backend in which *every* entry is hot must still take every store that fits (spec §9.2:
//! evict until the value fits, never wipe), with bounded work, and leave a consistent backend. Only
//! memory that readers still hold may make a store fail (§9.2 item 5), and then it succeeds once they
//! let go.

use shm_core::{Backend, PartitionSpec, Segment};

const MB: u64 = 1 << 20;
const KB: usize = 1024;

fn volatile(bytes: u64) -> (Segment, Backend) {
    let seg = Segment::create_anonymous(&[PartitionSpec { name: "t".into(), volatile_bytes: bytes, pinned_bytes: 0 }])
        .unwrap();
    let v = seg.partition("t").unwrap().volatile.unwrap();
    (seg, v)
}

/// Stores `len`-byte values under `{prefix}{i}` until the backend has evicted; the keys stored.
fn fill_until_eviction(v: &Backend, prefix: &str, len: usize) -> Vec<String> {
    let mut keys = Vec::new();
    while v.stats().evictions == 0 {
        let key = format!("{prefix}{}", keys.len());
        v.store(key.as_bytes(), 2, &vec![keys.len() as u8; len], 0).unwrap();
        keys.push(key);
    }
    keys
}

/// Reads every key still stored `rounds` times (hits mark them read and count towards hotness).
fn read_all(v: &Backend, keys: &[String], rounds: usize) {
    for _ in 0..rounds {
        for key in keys {
            drop(v.fetch(key.as_bytes()));
        }
    }
}

#[test]
fn stores_of_every_size_succeed_when_every_entry_is_hot() {
    let (_seg, v) = volatile(8 * MB);
    // About 240 entries, each read 100 times: far more often than once per four mutations since its store
    // (at most one per entry stored after it, and one per eviction).
    let keys = fill_until_eviction(&v, "e", 32 * KB);
    read_all(&v, &keys, 100);
    let sizes = [KB, 16 * KB, 100 * KB, 512 * KB, MB as usize, 2 * MB as usize];
    for round in 0..40 {
        for (i, len) in sizes.iter().enumerate() {
            let key = format!("large{round}-{i}");
            v.store(key.as_bytes(), 2, &vec![round as u8; *len], 0)
                .unwrap_or_else(|e| panic!("store of {len} bytes (round {round}) failed with every entry hot: {e:?}"));
            assert_eq!(v.fetch(key.as_bytes()).map(|e| e.value().len()), Some(*len));
            // Keep the survivors hot: two reads each per store (a store and its eviction move the epoch
            // by two or so).
            read_all(&v, &keys, 2);
        }
    }
    v.verify().unwrap();
}

#[test]
fn a_store_of_half_the_backend_succeeds_among_small_entries_all_read_between_every_two_stores() {
    // Every entry's second chance is set before every store, and the most recent ones are hot: a large
    // store's walk runs out of second chances, then of hot spares, and must then take what comes.
    let (_seg, v) = volatile(8 * MB);
    let keys = fill_until_eviction(&v, "k", 2 * KB);
    for step in 0..200 {
        read_all(&v, &keys, 1);
        let len = if step % 10 == 9 { 4 * MB as usize } else { 2 * KB };
        v.store(format!("n{step}").as_bytes(), 2, &vec![step as u8; len], 0)
            .unwrap_or_else(|e| panic!("store {step} of {len} bytes failed: {e:?} ({:?})", v.stats()));
    }
    assert!(v.stats().evictions > 0);
    v.verify().unwrap();
}

#[test]
fn held_entries_may_fail_a_store_but_never_forever_and_never_corrupt() {
    let (_seg, v) = volatile(8 * MB);
    // About 120 entries, each read 100 times (all hot).
    let keys = fill_until_eviction(&v, "h", 64 * KB);
    read_all(&v, &keys, 100);
    // A reader holds every eighth entry: runs of more than eight blocks cannot form around them.
    let held: Vec<_> = keys.iter().step_by(8).filter_map(|k| v.get(k.as_bytes())).collect();
    assert!(held.len() > 8);
    let attempt = v.store(b"big", 2, &vec![9u8; 3 * MB as usize], 0);
    v.verify().unwrap();
    if attempt.is_err() {
        assert!(v.fetch(b"big").is_none(), "a failed store leaves nothing");
    }
    for (i, e) in held.iter().enumerate() {
        assert!(e.value().iter().all(|&b| b == e.value()[0]), "held value {i} intact");
    }
    drop(held);
    v.store(b"big", 2, &vec![9u8; 3 * MB as usize], 0).expect("the store fits once the readers let go");
    assert!(v.fetch(b"big").is_some_and(|e| e.value().iter().all(|&b| b == 9)));
    v.verify().unwrap();
}

#[test]
fn a_new_key_finds_a_table_slot_when_every_entry_of_a_full_table_is_hot() {
    // 1 MiB: a table of a few thousand slots, filled with tiny values long before the heap is.
    let (_seg, v) = volatile(MB);
    let mut keys = Vec::new();
    while v.stats().evictions == 0 {
        let key = format!("t{}", keys.len());
        v.store(key.as_bytes(), 2, b"x", 0).unwrap();
        keys.push(key);
    }
    assert!(v.stats().free_bytes > MB / 4, "the table filled first: {:?}", v.stats());
    // Each entry read more than once per four mutations since its store (the i-th of n is ~n - i old).
    let n = keys.len();
    for (i, key) in keys.iter().enumerate() {
        for _ in 0..(n - i) / 4 + 8 {
            drop(v.fetch(key.as_bytes()));
        }
    }
    for step in 0..500 {
        v.store(format!("new{step}").as_bytes(), 2, b"y", 0)
            .unwrap_or_else(|e| panic!("store {step} into a full table of hot entries failed: {e:?}"));
    }
    v.verify().unwrap();
}
