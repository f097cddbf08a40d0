//! Memory soak: a long random workload against a volatile backend far smaller than its working set, then a
//! pinned backend filled until stores fail.
//!
//! Volatile part: `SC_SOAK_OPS` operations (default 200,000; the long run is 1,000,000) over 20,000 keys
//! with values of 16 B to 64 KiB (log-uniform, so every size class is exercised and each rewrite of a
//! key changes its size), skewed so 1,000 hot keys get 70 % of the operations, in a 4 MB backend that
//! holds a few hundred of them. Every store must succeed (eviction must always make room for a value
//! that fits), a get returns either nothing or exactly the last value stored under that key (never a
//! stale, resurrected or corrupt one), and memory use must not collapse: fragmentation may not force the
//! allocator into evicting most of the backend for each store (a "failure spiral"). `stats()` and
//! `verify()` are sampled along the way and printed as a table.
//!
//! Pinned part: random values until a store fails; from then on stores of that size or larger keep
//! failing with the same "full" error, smaller ones fill the gaps until even the smallest fails, and
//! after a long series of refused stores (new keys and replacements) every pinned entry is intact and
//! verify() passes; deleting some entries makes room again.
//!
//! Single process, but it runs under its own harness like the other shm-core process tests.
//! `SC_SOAK_SEED` replays a run (the seed is printed). Values are `checked_value`s (built and checked with
//! the block-copy variants of the helpers, so the default run stays quick in debug builds).

#[path = "support/mod.rs"]
mod support;

use shm_core::{Backend, BackendStats, PartitionSpec, Segment, StoreError};
use std::time::{Duration, Instant};
use support::{checked_value_fast, env_or, seed_of, value_is_intact_fast, Rng};

const MB: u64 = 1 << 20;
const VOLATILE_BYTES: u64 = 4 * MB;
const PINNED_BYTES: u64 = 4 * MB;
const KEYS: u64 = 20_000;
const HOT_KEYS: u64 = 1_000;
const HOT_PERCENT: u64 = 70;
const MIN_VALUE: u64 = 16;
const MAX_VALUE: u64 = 64 * 1024;
const COUNTER_KEYS: u64 = 50;
const SAMPLES: u64 = 20;
/// After warm-up, the share of the heap held by live entries, averaged over the stores of each sample
/// window (measured right after every store), may not fall below this.
///
/// Why 85 %: eviction empties a run of adjacent blocks just large enough for the value (address order,
/// see shm-core's `eviction`), so little memory is ever free in holes, and compaction fills what is.
/// Observed: window averages of ~98 % (the table's avg util% column). Before eviction by adjacency
/// (bucket order) the averages were ~75-85 % and single moments fell to ~45 %.
const MIN_UTILISATION: f64 = 0.85;
/// Floor right after any single store past the warm-up: one store evicts at most what it needs plus one
/// block, so it never empties much of the backend (observed: ~93 % at worst; a store that wipes the
/// backend takes it to ~0 %).
const MIN_UTILISATION_ANY_STORE: f64 = 0.80;

fn key(k: u64) -> String {
    format!("key-{k}")
}

/// A checked value of exactly `len` bytes (`len` >= 16; the last 16 hold seed and checksum).
fn value(seed: u64, len: u64) -> Vec<u8> {
    checked_value_fast(seed, (len - 16) as usize)
}

struct Sample {
    ops: u64,
    stats: BackendStats,
    window_hit_ratio: f64,
    window_evictions_per_store: f64,
    /// Mean utilisation right after the window's stores (None before the backend filled).
    window_utilisation: Option<f64>,
    verify: Duration,
}

/// Heap bytes of the block an entry of `len` value bytes under `key` takes (header, key, value, block
/// header, 16-byte rounding).
fn block_bytes(key: &str, len: u64) -> u64 {
    let value_start = (80 + key.len() as u64).next_multiple_of(8);
    (value_start + len + 8).next_multiple_of(16).max(32)
}

fn utilisation(s: &BackendStats) -> f64 {
    s.used_bytes as f64 / (s.used_bytes + s.free_bytes).max(1) as f64
}

fn print_table(samples: &[Sample]) {
    println!(
        "    {:>9} {:>7} {:>9} {:>9} {:>11} {:>6} {:>6} {:>13} {:>8} {:>10} {:>12} {:>9}",
        "ops",
        "entries",
        "used KiB",
        "free KiB",
        "largest KiB",
        "frag%",
        "util%",
        "avg util%",
        "hit%",
        "evictions",
        "evict/store",
        "verify ms"
    );
    for s in samples {
        println!(
            "    {:>9} {:>7} {:>9} {:>9} {:>11} {:>6.1} {:>6.1} {:>13} {:>8.1} {:>10} {:>12.2} {:>9.2}",
            s.ops,
            s.stats.entries,
            s.stats.used_bytes / 1024,
            s.stats.free_bytes / 1024,
            s.stats.largest_free / 1024,
            100.0 * s.stats.fragmentation(),
            100.0 * utilisation(&s.stats),
            s.window_utilisation.map_or("warm-up".to_string(), |u| format!("{:.1}", 100.0 * u)),
            100.0 * s.window_hit_ratio,
            s.stats.evictions,
            s.window_evictions_per_store,
            s.verify.as_secs_f64() * 1000.0
        );
    }
}

/// The volatile soak. Returns its summary.
fn volatile_soak(v: &Backend, ops: u64, rng: &mut Rng) -> Result<String, String> {
    let started = Instant::now();
    // The (seed, length) of the last value stored under each key; None = never stored or deleted.
    let mut expected: Vec<Option<(u64, u64)>> = vec![None; KEYS as usize];
    let (mut gets, mut hits, mut stores, mut deletes, mut counters) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut w_gets, mut w_hits, mut w_stores, mut w_evictions_at) = (0u64, 0u64, 0u64, 0u64);
    let (mut w_util_sum, mut w_util_n) = (0f64, 0u64);
    let mut max_evictions_one_store = 0u64;
    // Most bytes one store evicted beyond its own block (bound: one block).
    let mut worst_overshoot = 0u64;
    // Stores that evicted at least 10 / 50 / 100 entries.
    let mut big_evictions = [0u64; 3];
    let mut stored_bytes = 0u64;
    let mut samples = Vec::new();
    let every = (ops / SAMPLES).max(1);
    let mut worst_util = f64::MAX;
    let mut worst_largest = u64::MAX;
    // Lowest utilisation right after any store past the warm-up: (op, entries, evicted by it, its size).
    let mut worst_util_any = f64::MAX;
    let mut worst_util_any_at = (0u64, 0u64, 0u64, 0u64);
    for op in 1..=ops {
        let k = if rng.percent(HOT_PERCENT) { rng.below(HOT_KEYS) } else { rng.below(KEYS) };
        let name = key(k);
        match rng.below(100) {
            0..50 => {
                gets += 1;
                w_gets += 1;
                if let Some(e) = v.get(name.as_bytes()) {
                    hits += 1;
                    w_hits += 1;
                    let got = e.value();
                    match expected[k as usize] {
                        None => {
                            return Err(format!(
                                "op {op}: {name} was deleted or never stored, yet get() returned {} bytes",
                                got.len()
                            ))
                        }
                        Some((seed, len)) => {
                            if !value_is_intact_fast(got) {
                                return Err(format!("op {op}: {name} is corrupt ({} bytes)", got.len()));
                            }
                            if seed_of(got) != Some(seed) || got.len() as u64 != len {
                                return Err(format!(
                                    "op {op}: {name} returned a stale version (seed {:?}, {} bytes; expected {seed}, {len})",
                                    seed_of(got),
                                    got.len()
                                ));
                            }
                        }
                    }
                }
            }
            50..92 => {
                let len = rng.log_uniform(MIN_VALUE, MAX_VALUE);
                let seed = rng.next_u64();
                let before_stats = v.stats();
                let before = before_stats.evictions;
                match v.store(name.as_bytes(), 2, &value(seed, len), 0) {
                    Ok(()) => {}
                    Err(e) => {
                        return Err(format!(
                        "op {op}: storing {len} bytes under {name} failed with {e:?} (a value that fits must always be stored); stats {:?}",
                        v.stats()
                    ))
                    }
                }
                let after = v.stats();
                let evicted = after.evictions - before;
                // Proportional eviction: what one store evicts is at most its own block plus one more
                // (the last block of the run of neighbours it emptied).
                let evicted_bytes = after.evicted_bytes - before_stats.evicted_bytes;
                let block = block_bytes(&name, len);
                if evicted_bytes > block + block_bytes(&key(KEYS), MAX_VALUE) {
                    return Err(format!(
                        "op {op}: storing {len} bytes ({block}-byte block) evicted {evicted} entries of {evicted_bytes} bytes: more than it needs plus one block"
                    ));
                }
                worst_overshoot = worst_overshoot.max(evicted_bytes.saturating_sub(block));
                // Warm-up ends once the backend has filled and eviction started.
                if after.evictions > 0 {
                    let util = utilisation(&after);
                    w_util_sum += util;
                    w_util_n += 1;
                    if util < worst_util_any {
                        worst_util_any = util;
                        worst_util_any_at = (op, after.entries, evicted, len);
                    }
                    if util < MIN_UTILISATION_ANY_STORE {
                        return Err(format!(
                            "op {op}: after storing {len} bytes (which evicted {evicted} entries) live entries use only {:.1}% of the heap ({} entries left): eviction wiped the backend",
                            100.0 * util,
                            after.entries
                        ));
                    }
                }
                max_evictions_one_store = max_evictions_one_store.max(evicted);
                for (n, at_least) in big_evictions.iter_mut().zip([10, 50, 100]) {
                    *n += (evicted >= at_least) as u64;
                }
                expected[k as usize] = Some((seed, len));
                stores += 1;
                w_stores += 1;
                stored_bytes += len;
            }
            92..97 => {
                let removed = v.delete(name.as_bytes());
                if removed && expected[k as usize].is_none() {
                    return Err(format!("op {op}: delete({name}) removed an entry that should not exist"));
                }
                expected[k as usize] = None;
                deletes += 1;
            }
            _ => {
                let name = format!("ctr-{}", k % COUNTER_KEYS);
                let base = v
                    .peek(name.as_bytes())
                    .map(|e| e.as_int().ok_or(format!("{name} is not an integer")))
                    .transpose()?
                    .unwrap_or(0);
                let step = rng.range(1, 9) as i64;
                let r = v
                    .increment(name.as_bytes(), step)
                    .map_err(|e| format!("op {op}: increment({name}) failed: {e:?}"))?;
                if r.value != base + step {
                    return Err(format!("op {op}: increment({name}) from {base} by {step} gave {}", r.value));
                }
                counters += 1;
            }
        }
        if op % every == 0 || op == ops {
            let t = Instant::now();
            v.verify().map_err(|e| format!("verify at op {op}: {e}"))?;
            let verify = t.elapsed();
            let stats = v.stats();
            if stats.retired_bytes >= v.reclaim_batch_bytes() {
                return Err(format!(
                    "op {op}: {} bytes stay retired with no reader pinned (batch {})",
                    stats.retired_bytes,
                    v.reclaim_batch_bytes()
                ));
            }
            // Not before the backend has filled (warm-up).
            let window_utilisation = (w_util_n > 0).then(|| w_util_sum / w_util_n as f64);
            if let Some(util) = window_utilisation {
                worst_util = worst_util.min(util);
                worst_largest = worst_largest.min(stats.largest_free);
                if util < MIN_UTILISATION {
                    print_table(&samples);
                    return Err(format!(
                        "ops up to {op}: live entries used on average only {:.1}% of the heap: fragmentation spiral",
                        100.0 * util
                    ));
                }
            }
            samples.push(Sample {
                ops: op,
                stats,
                window_hit_ratio: w_hits as f64 / w_gets.max(1) as f64,
                window_evictions_per_store: (stats.evictions - w_evictions_at) as f64 / w_stores.max(1) as f64,
                window_utilisation,
                verify,
            });
            (w_gets, w_hits, w_stores, w_evictions_at) = (0, 0, 0, stats.evictions);
            (w_util_sum, w_util_n) = (0.0, 0);
        }
    }
    print_table(&samples);
    println!(
        "    lowest utilisation right after a store: {:.1}% (bound {:.0}%) at op {} ({} entries left; that store evicted {} entries for {} bytes)",
        100.0 * worst_util_any,
        100.0 * MIN_UTILISATION_ANY_STORE,         worst_util_any_at.0,
        worst_util_any_at.1,
        worst_util_any_at.2,
        worst_util_any_at.3
    );
    let s = v.stats();
    if s.entries == 0 {
        return Err("the volatile backend ended empty".into());
    }
    // Every key still present holds exactly its last value.
    let mut present = 0;
    for k in 0..KEYS {
        if let Some(e) = v.peek(key(k).as_bytes()) {
            present += 1;
            let ok = expected[k as usize].is_some_and(|(seed, len)| {
                value_is_intact_fast(e.value()) && seed_of(e.value()) == Some(seed) && e.value().len() as u64 == len
            });
            if !ok {
                return Err(format!("final scan: {} holds a wrong value", key(k)));
            }
        }
    }
    Ok(format!(
        "memory_soak volatile: {ops} ops in {:.1}s ({stores} stores of {:.0} MiB total, 0 failed; {gets} gets, hit ratio {:.1}%; {deletes} deletes; {counters} increments), \
         backend {} MiB / working set {} keys, evictions {} (max {max_evictions_one_store} for one store; stores evicting >= 10/50/100 entries: {}/{}/{}; \
         evicted beyond the store's own block at most {} KiB, bound one block, {} KiB), {present} keys present at the end, \
         lowest window-average utilisation {:.1}% (bound {:.0}%), lowest after one store {:.1}% (bound {:.0}%), smallest largest-free-block {} KiB, final fragmentation {:.1}%, verify ok at {} samples",
        started.elapsed().as_secs_f64(),
        stored_bytes as f64 / MB as f64,
        100.0 * hits as f64 / gets.max(1) as f64,
        VOLATILE_BYTES / MB,
        KEYS,
        s.evictions,
        big_evictions[0],
        big_evictions[1],
        big_evictions[2],
        worst_overshoot / 1024,
        block_bytes(&key(KEYS), MAX_VALUE) / 1024,
        100.0 * worst_util,
        100.0 * MIN_UTILISATION,
        100.0 * worst_util_any,
        100.0 * MIN_UTILISATION_ANY_STORE,
        if worst_largest == u64::MAX { 0 } else { worst_largest / 1024 },
        100.0 * s.fragmentation(),
        samples.len()
    ))
}

fn is_full(e: &StoreError) -> bool {
    matches!(e, StoreError::OutOfMemory | StoreError::TableFull)
}

/// Fills the pinned backend until stores fail; checks the refusals change nothing.
fn pinned_fill(p: &Backend, rng: &mut Rng) -> Result<String, String> {
    let mut stored: Vec<(String, u64, u64)> = Vec::new(); // key, seed, len
    let check_all = |stored: &[(String, u64, u64)]| -> Result<(), String> {
        for (k, seed, len) in stored {
            let e = p.peek(k.as_bytes()).ok_or(format!("pinned {k} is missing"))?;
            if e.value() != value(*seed, *len).as_slice() {
                return Err(format!("pinned {k} changed"));
            }
        }
        Ok(())
    };
    let mut n = 0u64;
    // 1. Random sizes until the first refusal.
    let (first_fail_len, first_error) = loop {
        let len = rng.log_uniform(MIN_VALUE, MAX_VALUE);
        let seed = rng.next_u64();
        let k = format!("pin-{n}");
        n += 1;
        match p.store(k.as_bytes(), 2, &value(seed, len), 0) {
            Ok(()) => stored.push((k, seed, len)),
            Err(e) if is_full(&e) => break (len, e),
            Err(e) => return Err(format!("pinned store of {len} bytes failed with {e:?} before the backend was full")),
        }
    };
    let at_first_fail = p.stats();
    // 2. Anything at least as large keeps failing with the same error and changes nothing.
    for _ in 0..200 {
        let len = rng.range(first_fail_len, MAX_VALUE.max(first_fail_len));
        let k = format!("pin-{n}");
        n += 1;
        match p.store(k.as_bytes(), 2, &value(rng.next_u64(), len), 0) {
            Err(e) if e == first_error => {}
            other => {
                return Err(format!(
                    "after {first_error:?} at {first_fail_len} bytes, a store of {len} bytes gave {other:?}"
                ))
            }
        }
    }
    let s = p.stats();
    if (s.entries, s.used_bytes, s.free_bytes)
        != (at_first_fail.entries, at_first_fail.used_bytes, at_first_fail.free_bytes)
    {
        return Err("refused stores changed the pinned backend".into());
    }
    // 3. Smaller values fill the gaps until even the smallest is refused 100 times in a row.
    let mut refused_in_a_row = 0;
    let mut last_error = first_error.clone();
    let mut smallest_refused = first_fail_len;
    while refused_in_a_row < 100 {
        let len = if refused_in_a_row > 0 { MIN_VALUE } else { rng.log_uniform(MIN_VALUE, smallest_refused) };
        let seed = rng.next_u64();
        let k = format!("pin-{n}");
        n += 1;
        match p.store(k.as_bytes(), 2, &value(seed, len), 0) {
            Ok(()) => {
                stored.push((k, seed, len));
                refused_in_a_row = 0;
            }
            Err(e) if is_full(&e) => {
                smallest_refused = smallest_refused.min(len);
                if len == MIN_VALUE {
                    refused_in_a_row += 1;
                }
                last_error = e;
            }
            Err(e) => return Err(format!("pinned store of {len} bytes failed with {e:?}")),
        }
    }
    let full = p.stats();
    // 4. Subsequent stores (new keys of every size, replacements with larger values) are all refused.
    let mut refused = 0;
    for i in 0..500 {
        let len = rng.log_uniform(MIN_VALUE, MAX_VALUE);
        let r = if i % 2 == 0 {
            let k = format!("pin-{n}");
            n += 1;
            p.store(k.as_bytes(), 2, &value(rng.next_u64(), len), 0)
        } else {
            // Replacing an existing entry needs a new block first: refused, the old value stays.
            let (k, _, old_len) = &stored[rng.below(stored.len() as u64) as usize];
            p.store(k.as_bytes(), 2, &value(rng.next_u64(), len.max(*old_len + 16)), 0)
        };
        match r {
            Err(e) if is_full(&e) => refused += 1,
            other => return Err(format!("a store into the full pinned backend gave {other:?}")),
        }
    }
    let s = p.stats();
    if (s.entries, s.used_bytes) != (full.entries, full.used_bytes) {
        return Err("refused stores changed the full pinned backend".into());
    }
    check_all(&stored)?;
    let t = Instant::now();
    let report = p.verify().map_err(|e| format!("pinned verify when full: {e}"))?;
    let verify_ms = t.elapsed().as_secs_f64() * 1000.0;
    if report.entries != stored.len() as u64 {
        return Err(format!("verify counts {} entries, {} were stored", report.entries, stored.len()));
    }
    // 5. Deleting makes room again: the freed blocks are reused. The largest deleted entry's block is free
    //    now (no reader pins it), so a value of that entry's size stored under a key of the same length
    //    fits in it.
    let mut largest: (String, u64) = (String::new(), 0);
    for _ in 0..10 {
        let (k, _, len) = stored.swap_remove(rng.below(stored.len() as u64) as usize);
        if !p.delete(k.as_bytes()) {
            return Err(format!("delete({k}) found nothing"));
        }
        if len > largest.1 {
            largest = (k, len);
        }
    }
    let (k, len) = largest;
    let again = format!("{}{}", "R".repeat(k.len() - 1), "!"); // same length, new key
    let seed = rng.next_u64();
    p.store(again.as_bytes(), 2, &value(seed, len), 0).map_err(|e| {
        format!("a store of {len} bytes after deleting 10 entries (largest {len} bytes) failed: {e:?}; {:?}", p.stats())
    })?;
    stored.push((again, seed, len));
    check_all(&stored)?;
    p.verify().map_err(|e| format!("pinned verify after deletes: {e}"))?;
    Ok(format!(
        "memory_soak pinned: filled {} MiB backend with {} entries ({} KiB used, {} KiB free, largest free {} KiB, {:.1}% of the heap in use); \
         first refusal {first_error:?} at {first_fail_len} bytes, completely full with {last_error:?}, {} further stores refused, 0 accepted, \
         every pinned entry intact, verify ok ({verify_ms:.2} ms), stores succeed again after deletes",
        PINNED_BYTES / MB,
        full.entries,
        full.used_bytes / 1024,
        full.free_bytes / 1024,
        full.largest_free / 1024,
        100.0 * utilisation(&full),
        refused + 200
    ))
}

fn memory_soak() -> Result<(), String> {
    let ops = env_or("SC_SOAK_OPS", 200_000u64);
    let seed = env_or("SC_SOAK_SEED", Rng::seed_from_os());
    println!("    memory soak: {ops} ops, seed {seed} (SC_SOAK_SEED)");
    let seg = Segment::create_anonymous(&[PartitionSpec {
        name: "soak".into(),
        volatile_bytes: VOLATILE_BYTES,
        pinned_bytes: PINNED_BYTES,
    }])
    .map_err(|e| e.to_string())?;
    let part = seg.partition("soak").ok_or("no partition")?;
    let (v, p) = (part.volatile.ok_or("no volatile backend")?, part.pinned.ok_or("no pinned backend")?);
    support::check_fast_value_helpers();
    let mut rng = Rng::new(seed);
    let volatile = volatile_soak(&v, ops, &mut rng)?;
    println!("    {volatile}");
    let pinned = pinned_fill(&p, &mut rng)?;
    println!("    {pinned}");
    Ok(())
}

/// Latencies of `n` stores of small values under fresh keys, in nanoseconds, sorted.
fn store_latencies(v: &Backend, prefix: &str, n: u64) -> Result<Vec<u64>, String> {
    let mut lat = Vec::with_capacity(n as usize);
    for i in 0..n {
        let k = format!("{prefix}{i}");
        let t = Instant::now();
        v.store(k.as_bytes(), 2, b"sixteen byte val", 0).map_err(|e| format!("store {k}: {e:?}"))?;
        lat.push(t.elapsed().as_nanos() as u64);
    }
    lat.sort_unstable();
    Ok(lat)
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    sorted[((sorted.len() - 1) as f64 * p) as usize]
}

/// Store latencies (sorted, ns) into an empty table and into a full one, for a volatile backend of
/// `mb` MiB; the full table has a third of its entries carrying a TTL (the expiry sweep runs too).
fn empty_and_full(mb: u64) -> Result<(Vec<u64>, Vec<u64>, u64), String> {
    const N: u64 = 30_000;
    let seg =
        Segment::create_anonymous(&[PartitionSpec { name: "lat".into(), volatile_bytes: mb * MB, pinned_bytes: 0 }])
            .map_err(|e| e.to_string())?;
    let v = seg.partition("lat").and_then(|p| p.volatile).ok_or("no volatile backend")?;
    let empty = store_latencies(&v, "empty-", N)?;
    v.clear();
    let max = v.stats().max_entries;
    for i in 0..max {
        v.store(format!("fill-{i}").as_bytes(), 2, b"x", if i % 3 == 0 { 3600 } else { 0 })
            .map_err(|e| format!("{e:?}"))?;
    }
    if v.stats().entries != max {
        return Err(format!("the table did not fill: {:?}", v.stats()));
    }
    let before = v.stats().evictions;
    let full = store_latencies(&v, "full-", N)?;
    let evicted = v.stats().evictions - before;
    if evicted < N {
        return Err(format!("only {evicted} evictions for {N} stores into a full table"));
    }
    v.verify()?;
    Ok((empty, full, evicted))
}

/// Issue 16: a store into a volatile backend whose entry table is full (each store evicts one entry)
/// does bounded work: no step scans the table or the heap. Stores of small values under fresh keys,
/// timed one by one, into an 8 MiB backend (32,768 entries) and a 64 MiB one (262,144 entries), empty
/// and full. With a full table the 99th percentile stays within twice the empty table's, and the
/// median far below what a scan of the table would cost (before: 1.1 ms per store at 8 MiB, 27 ms at 64
/// MiB). The maximum is printed, not checked: on a shared host it is a scheduler tick (4-8 ms) that
/// lands on either run. The median itself is higher with a full table (each store also evicts an entry, and at 64 MiB
/// the bucket and entry it touches are cache misses); it is printed. The bounds are checked in release
/// builds (`--release`, as the long run); a debug build only prints the figures.
fn full_table_store_latency() -> Result<(), String> {
    let row = |s: &[u64]| {
        format!(
            "median {} ns, p99 {} ns, p99.9 {} ns, max {} us",
            percentile(s, 0.5),
            percentile(s, 0.99),
            percentile(s, 0.999),
            s[s.len() - 1] / 1000
        )
    };
    for mb in [8, 64] {
        let (empty, full, evicted) = empty_and_full(mb)?;
        println!("    {mb} MiB, empty table: store latency {}", row(&empty));
        println!("    {mb} MiB, full table ({evicted} evictions): store latency {}", row(&full));
        if cfg!(debug_assertions) {
            // Unoptimised code magnifies every extra step; the bounds hold for the release build.
            continue;
        }
        let (e, f) = (percentile(&empty, 0.99), percentile(&full, 0.99));
        if f > 2 * e {
            return Err(format!("{mb} MiB: p99 {f} ns with a full table, {e} ns with an empty one"));
        }
        if percentile(&full, 0.5) > 20_000 {
            return Err(format!("{mb} MiB: median store into a full table {} ns", percentile(&full, 0.5)));
        }
    }
    Ok(())
}

fn main() {
    support::run_scenarios(&[("memory_soak", memory_soak), ("full_table_store_latency", full_table_store_latency)]);
}
