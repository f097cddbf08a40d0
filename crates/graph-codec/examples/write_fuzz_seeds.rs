//! Writes encodings of random well-formed graphs into a directory, as a starting corpus for
//! `cargo +nightly fuzz run decode` (see the crate README section in LAYOUT.md).
//!
//! Usage: `cargo run -p graph-codec --example write_fuzz_seeds -- <dir> [count]`

#[path = "../tests/common/mod.rs"]
mod common;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "fuzz/corpus/decode".to_owned());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    std::fs::create_dir_all(&dir)?;
    let mut runner = TestRunner::deterministic();
    for index in 0..count {
        let graph = common::arb_graph().new_tree(&mut runner).expect("the strategy always produces a graph").current();
        let bytes = graph_codec::encode(&graph, common::lowest_tier(&graph)).expect("generated graphs encode");
        std::fs::write(format!("{dir}/seed-{index:04}"), bytes)?;
    }
    let serialized = graph_codec::encode_php_serialized(b"O:9:\"Exception\":0:{}").expect("small");
    std::fs::write(format!("{dir}/seed-php-serialized"), serialized)?;
    Ok(())
}
