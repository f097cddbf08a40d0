//! The store path of shm-core (one `Backend::store` / counter call, lock to unlock): small, medium and
//! large values into existing and new keys, integer overwrites and counters. What a PHP `set()` costs
//! beyond encoding. Run with `cargo bench -p benches --bench store`.

use benches::backend;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shm_core::{Backend, TAG_INT};

const MB: u64 = 1 << 20;

/// Overwrites of one key with a value of each size (8 B, 1 KiB, 256 KiB); stores cycling over as many
/// keys as fill a quarter of the backend (each an overwrite once warm, with the key's old block
/// reclaimed); and, in the volatile backend, stores cycling over four times what fits (each one evicts).
fn stores(c: &mut Criterion) {
    let mut g = c.benchmark_group("store");
    for (label, len) in [("small_8B", 8usize), ("medium_1KiB", 1024), ("large_256KiB", 256 * 1024)] {
        let value = vec![0xA5u8; len];
        for pinned in [false, true] {
            let (_seg, b) = backend(pinned);
            let tier = if pinned { "pinned" } else { "volatile" };
            g.throughput(Throughput::Bytes(len as u64));
            g.bench_function(BenchmarkId::new(format!("{tier}_same_key"), label), |bench| {
                bench.iter(|| b.store(b"bench-key", 2, &value, 0).unwrap())
            });
            let fitting = (16 * MB as usize / len).min(4096);
            cycle(&mut g, &b, &format!("{tier}_cycling_keys"), label, fitting, &value);
            if !pinned {
                // Four times what fits (table slots for small values, bytes for the others).
                let evicting = (4 * 64 * MB as usize / len).min(4 * 64 * MB as usize / 256);
                cycle(&mut g, &b, "volatile_evicting", label, evicting, &value);
            }
        }
    }
    g.finish();
}

fn cycle(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    b: &Backend,
    name: &str,
    label: &str,
    keys: usize,
    value: &[u8],
) {
    let keys: Vec<String> = (0..keys).map(|i| format!("bench-key-{i}")).collect();
    let mut i = 0usize;
    g.bench_function(BenchmarkId::new(name, label), |bench| {
        bench.iter(|| {
            b.store(keys[i % keys.len()].as_bytes(), 2, value, 0).unwrap();
            i += 1;
        })
    });
}

/// `set('i', $int)` on an existing integer entry, and counters on an existing key.
fn integers(c: &mut Criterion) {
    let mut g = c.benchmark_group("integer");
    for pinned in [false, true] {
        let (_seg, b) = backend(pinned);
        let tier = if pinned { "pinned" } else { "volatile" };
        let mut n = 0i64;
        g.bench_function(format!("{tier}_store_int_over_int"), |bench| {
            bench.iter(|| {
                n += 1;
                b.store(b"i", TAG_INT, &n.to_le_bytes(), 0).unwrap()
            })
        });
        g.bench_function(format!("{tier}_increment"), |bench| bench.iter(|| b.increment(b"c", 1).unwrap()));
    }
    g.finish();
}

criterion_group!(benches, stores, integers);
criterion_main!(benches);
