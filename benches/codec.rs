//! Codec benches (graph-codec): filled in by the graph-codec work.
fn main() {}
