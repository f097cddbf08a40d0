//! Allocator benches (shm-core).
fn main() {}
