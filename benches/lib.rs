//! Criterion benches live in the bench targets of this package; this library holds what they share.

use shm_core::{Backend, PartitionSpec, Segment};

/// A 64 MiB backend (pinned, or volatile) in its own anonymous segment.
pub fn backend(pinned: bool) -> (Segment, Backend) {
    const MB: u64 = 1 << 20;
    let spec = PartitionSpec {
        name: "bench".into(),
        volatile_bytes: if pinned { 0 } else { 64 * MB },
        pinned_bytes: if pinned { 64 * MB } else { 0 },
    };
    let seg = Segment::create_anonymous(&[spec]).unwrap();
    let p = seg.partition("bench").unwrap();
    let b = if pinned { p.pinned.unwrap() } else { p.volatile.unwrap() };
    (seg, b)
}
