//! Allocator and index benches (shm-core): allocation churn with random sizes through whole stores, and
//! the lock-free read path. Run with `cargo bench -p benches --bench allocator`.

use benches::backend;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

/// A cheap deterministic size sequence (xorshift), skewed to small values like real caches.
fn sizes(n: usize) -> Vec<usize> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 10 {
                0..=5 => (x >> 8) as usize % 256,
                6..=8 => (x >> 8) as usize % 4096,
                _ => (x >> 8) as usize % 65536,
            }
        })
        .collect()
}

fn churn(c: &mut Criterion) {
    let mut g = c.benchmark_group("store_churn");
    let sizes = sizes(4096);
    let payload = vec![0xA5u8; 65536];
    for pinned in [false, true] {
        let (_seg, b) = backend(pinned);
        let keys: Vec<String> = (0..1024).map(|i| format!("key{i}")).collect();
        let mut i = 0usize;
        g.throughput(Throughput::Elements(1));
        g.bench_function(if pinned { "pinned_random_sizes" } else { "volatile_random_sizes" }, |bench| {
            bench.iter(|| {
                let n = sizes[i % sizes.len()];
                b.store(keys[i % keys.len()].as_bytes(), 2, &payload[..n], 0).unwrap();
                i += 1;
            })
        });
    }
    g.finish();
}

fn alloc_free(c: &mut Criterion) {
    let (_seg, b) = backend(true);
    let sizes = sizes(512);
    let payload = vec![0u8; 65536];
    c.bench_function("store_then_delete_512_random_sizes", |bench| {
        bench.iter_batched(
            || (),
            |()| {
                for (i, &n) in sizes.iter().enumerate() {
                    b.store(&(i as u32).to_le_bytes(), 2, &payload[..n], 0).unwrap();
                }
                for i in 0..sizes.len() {
                    b.delete(&(i as u32).to_le_bytes());
                }
            },
            BatchSize::SmallInput,
        )
    });
}

fn reads(c: &mut Criterion) {
    let (_seg, b) = backend(false);
    for i in 0..10_000u32 {
        b.store(format!("k{i}").as_bytes(), 2, &i.to_le_bytes(), 0).unwrap();
    }
    let keys: Vec<String> = (0..10_000).map(|i| format!("k{i}")).collect();
    let mut i = 0usize;
    c.bench_function("lock_free_get_hit", |bench| {
        bench.iter(|| {
            let e = b.get(keys[i % keys.len()].as_bytes()).unwrap();
            i += 7;
            e.value()[0]
        })
    });
}

criterion_group!(benches, churn, alloc_free, reads);
criterion_main!(benches);
