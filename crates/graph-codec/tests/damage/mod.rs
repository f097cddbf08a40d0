//! Valid buffers damaged on purpose, for the tests that compare a one-pass check with the general one
//! (`p38_plain_tree.rs`, `o38_small_graph.rs`): a seeded generator for the values, and the damage
//! itself (bits flipped, words rewritten, slots pointed at another slot's target).

use graph_codec::GraphView;
use proptest::sample::Index;

/// A small deterministic generator (the tests' inputs come from proptest's seeds).
pub struct Seeded(pub u64);

impl Seeded {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Flips one bit per (byte, bit) pair.
pub fn flip_bits(bytes: &mut [u8], flips: &[(Index, u8)]) {
    for (at, bit) in flips {
        let at = at.index(bytes.len());
        bytes[at] ^= 1 << bit;
    }
}

/// Rewrites whole words: with another word's offset, a large or small number, or near `u64::MAX`.
pub fn rewrite_words(bytes: &mut [u8], rewrites: &[(Index, Index, u64)]) {
    let words = bytes.len() / 8;
    for (at, target, random) in rewrites {
        let at = at.index(words) * 8;
        let value = match random % 4 {
            0 => (target.index(words) * 8) as u64,
            1 => random >> 2,
            2 => u64::MAX - (random % 64),
            _ => random % 256,
        };
        bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
    }
}

/// The offsets of the records section's slots tagged `tag` (a tag byte, then seven zero bytes).
pub fn slots_with_tag(bytes: &[u8], tag: u8) -> Vec<usize> {
    let Ok(view) = GraphView::new(bytes) else { return vec![] };
    (view.header().records_offset as usize..bytes.len().saturating_sub(15))
        .step_by(8)
        .filter(|&at| bytes[at] == tag && bytes[at + 1..at + 8].iter().all(|&b| b == 0))
        .collect()
}

/// Gives a slot of tag `tag` another slot's target of the same tag, per (from, to, tag): sharing,
/// cycles, orphans, a key repeated.
pub fn point_slots_elsewhere(bytes: &mut [u8], moves: impl IntoIterator<Item = (Index, Index, u8)>) {
    for (from, to, tag) in moves {
        let slots = slots_with_tag(bytes, tag);
        if slots.is_empty() {
            continue;
        }
        let (from, to) = (slots[from.index(slots.len())], slots[to.index(slots.len())]);
        let target = bytes[to + 8..to + 16].to_vec();
        bytes[from + 8..from + 16].copy_from_slice(&target);
    }
}

/// Makes the header's flags and depth agree with the damaged graph where some pair of `flags` and
/// `depths` lets `accepted` accept it (else leaves the last pair tried).
pub fn settle(
    bytes: &mut [u8],
    flags: &[u32],
    depths: std::ops::RangeInclusive<u32>,
    accepted: impl Fn(&[u8]) -> bool,
) {
    for &flags in flags {
        for depth in depths.clone() {
            bytes[8..12].copy_from_slice(&flags.to_le_bytes());
            bytes[12..16].copy_from_slice(&depth.to_le_bytes());
            if accepted(bytes) {
                return;
            }
        }
    }
}
