//! Review rv37 of the first-read check's shortcuts (`CheckedGraph::check`): the plain flags and the
//! children-first order of the arrays worked out from the collected edges, the depth of a tree of arrays
//! as the root's height, slots resolved from the scan's record starts, string facts kept by the scan, and
//! the per-thread working sets reused between checks. Buffers whose array slots are pointed at other
//! arrays (sharing, cycles, orphans), with their shared flags, header flags and depth then made to agree
//! where they can, must either be refused or be read exactly as the full analysis (the encoder's) reads
//! their decoded model.

mod common;

use std::borrow::Cow;

use graph_codec::*;
use proptest::prelude::*;

const STRING_TAG: u8 = 6;
const ARRAY_TAG: u8 = 7;

/// Offsets of the 16-byte slots in the records section whose tag is `tag` (reserved bytes zero), and
/// their payloads.
fn slots_with_tag(bytes: &[u8], tag: u8) -> Vec<(usize, u64)> {
    let Ok(view) = GraphView::new(bytes) else { return vec![] };
    let start = view.header().records_offset as usize;
    let mut found = vec![];
    let mut at = start;
    while at + 16 <= bytes.len() {
        if bytes[at] == tag && bytes[at + 1..at + 8].iter().all(|&b| b == 0) {
            found.push((at, u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap())));
        }
        at += 8;
    }
    found
}

fn refusal(bytes: &[u8]) -> Option<DecodeError> {
    CheckedGraph::check(bytes).err()
}

/// Makes the shared flags, header flags and depth agree with what the check works out, where one
/// change at a time can: a buffer the check still refuses for anything else is returned as it is.
fn settle(bytes: &mut [u8]) {
    for _ in 0..64 {
        match refusal(bytes) {
            Some(DecodeError::SharedFlagMismatch { offset }) => bytes[offset as usize + 1] ^= 1,
            Some(DecodeError::HeaderMismatch { field: "flags" }) => {
                let fixed = (0u32..32).find(|f| {
                    bytes[8..12].copy_from_slice(&f.to_le_bytes());
                    !matches!(refusal(bytes), Some(DecodeError::HeaderMismatch { field: "flags" }))
                });
                if fixed.is_none() {
                    return;
                }
            }
            Some(DecodeError::HeaderMismatch { field: "depth" }) => {
                let fixed = (0u32..=64).find(|d| {
                    bytes[12..16].copy_from_slice(&d.to_le_bytes());
                    !matches!(refusal(bytes), Some(DecodeError::HeaderMismatch { field: "depth" }))
                });
                if fixed.is_none() {
                    return;
                }
            }
            _ => return,
        }
    }
}

fn child_arrays(node: &ArrayNode<'_>) -> Vec<usize> {
    let values: Vec<&Value<'_>> = match &node.elements {
        ArrayElements::Packed(slots) => slots.iter().flatten().collect(),
        ArrayElements::Hash(entries) => entries.iter().map(|(_, v)| v).collect(),
    };
    values
        .into_iter()
        .filter_map(|v| match v {
            Value::Array(id) => Some(id.0 as usize),
            _ => None,
        })
        .collect()
}

fn holds_mixed(node: &ArrayNode<'_>) -> bool {
    let mixed = |v: &Value<'_>| matches!(v, Value::Object(_) | Value::Reference(_) | Value::EnumCase(_));
    match &node.elements {
        ArrayElements::Packed(slots) => slots.iter().flatten().any(mixed),
        ArrayElements::Hash(entries) => entries.iter().any(|(_, v)| mixed(v)),
    }
}

/// Whatever the check accepts is what the full analysis says of its model.
fn check_agrees_with_the_model(bytes: &[u8]) {
    let Ok(checked) = CheckedGraph::check(bytes) else { return };
    let decoded = decode(bytes).expect("what the check accepts decodes");
    let graph = &decoded.graph;
    if checked.header().tier == StoreTier::PHPSerialized {
        return;
    }
    // Children first: every array once, each after the arrays it holds.
    let order = checked.arrays_children_first();
    assert_eq!(order.len(), graph.arrays.len(), "every array once");
    let mut position = vec![usize::MAX; graph.arrays.len()];
    for (at, &id) in order.iter().enumerate() {
        assert_eq!(position[id as usize], usize::MAX, "array {id} twice in the order");
        position[id as usize] = at;
    }
    for (id, node) in graph.arrays.iter().enumerate() {
        for child in child_arrays(node) {
            assert!(position[child] < position[id], "array {child} comes after array {id}, which holds it");
        }
    }
    // Plain: no object, enum case or reference at any depth.
    let mut plain = vec![false; graph.arrays.len()];
    for &id in order {
        let node = &graph.arrays[id as usize];
        plain[id as usize] = !holds_mixed(node) && child_arrays(node).into_iter().all(|c| plain[c]);
    }
    assert_eq!(checked.plain_arrays(), &plain[..], "plain arrays");
    // Depth and flags as the encoder's analysis works them out from the model.
    if let Ok(again) = encode(graph, decoded.header.tier) {
        let again = GraphView::new(&again).expect("re-encoded header").header().to_owned();
        assert_eq!(decoded.header.depth, again.depth, "depth");
        assert_eq!(decoded.header.flags, again.flags, "flags");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// Array slots pointed at other arrays (or their own), then the flags and depth settled.
    #[test]
    fn retargeted_array_slots_are_refused_or_read_as_the_model_says(
        graph in common::arb_graph(),
        moves in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..4),
    ) {
        let mut bytes = encode(&graph, common::lowest_tier(&graph)).unwrap();
        check_agrees_with_the_model(&bytes);
        for (from, to) in moves {
            let slots = slots_with_tag(&bytes, ARRAY_TAG);
            if slots.is_empty() {
                break;
            }
            let (at, _) = slots[from.index(slots.len())];
            let (_, target) = slots[to.index(slots.len())];
            bytes[at + 8..at + 16].copy_from_slice(&target.to_le_bytes());
        }
        settle(&mut bytes);
        check_agrees_with_the_model(&bytes);
    }

    /// The working sets a thread keeps from one check to the next carry nothing over: checking a buffer
    /// after any other gives what checking it first gives.
    #[test]
    fn a_check_after_another_reads_the_same(first in common::arb_graph(), second in common::arb_graph()) {
        let a = encode(&first, common::lowest_tier(&first)).unwrap();
        let b = encode(&second, common::lowest_tier(&second)).unwrap();
        let alone = std::thread::scope(|s| s.spawn(|| summary(&b)).join().unwrap());
        let _ = summary(&a);
        prop_assert_eq!(summary(&b), alone);
        // One check alive while another runs (as a nested fetch would do).
        let outer = CheckedGraph::check(&a).unwrap();
        prop_assert_eq!(summary(&b), summary(&b));
        drop(outer);
        prop_assert_eq!(summary(&b), summary(&b));
    }
}

/// What a check reads of a buffer: plain flags, children-first order, string hashes and bytes, arrays.
type Summary = (Vec<bool>, Vec<u32>, Vec<(u64, Vec<u8>)>, usize);

fn summary(bytes: &[u8]) -> Summary {
    let checked = CheckedGraph::check(bytes).unwrap();
    let strings = (0..checked.string_count())
        .map(|i| {
            let s = checked.string(StringId(i as u32)).unwrap();
            (s.hash, s.bytes.to_vec())
        })
        .collect();
    (checked.plain_arrays().to_vec(), checked.arrays_children_first().to_vec(), strings, checked.array_count())
}

/// Two entries of one hash array with the same key: no PHP array is like that (a key is in an array at
/// most once). Read as it is, the array would count two elements, list the key twice in a foreach and
/// find one of them by key: a wrong value from corrupted bytes, which must be refused as corrupt instead.
#[test]
fn a_hash_array_holding_a_string_key_twice_is_refused() {
    let s = |t: &str| -> Bytes<'static> { Cow::Owned(t.as_bytes().to_vec()) };
    let mut graph = Graph::new(Value::Null);
    let id = graph.push_array(ArrayNode {
        elements: ArrayElements::Hash(vec![
            (ArrayKey::String(s("a")), Value::Int(1)),
            (ArrayKey::String(s("b")), Value::Int(2)),
        ]),
        next_free_index: 0,
    });
    graph.root = Value::Array(id);
    let mut bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    assert!(validate(&bytes).is_ok());
    // The key slot of "b" made to name the string record of "a".
    let keys = slots_with_tag(&bytes, STRING_TAG);
    assert_eq!(keys.len(), 2, "two key slots");
    let (a, b) = (keys[0].1, keys[1].1);
    assert_ne!(a, b);
    let at = keys[1].0;
    bytes[at + 8..at + 16].copy_from_slice(&a.to_le_bytes());
    assert!(validate(&bytes).is_err(), "a key twice in one array is accepted: {:?}", decode(&bytes).map(|d| d.graph));
}

/// The same with an integer key.
#[test]
fn a_hash_array_holding_an_integer_key_twice_is_refused() {
    let mut graph = Graph::new(Value::Null);
    let id = graph.push_array(ArrayNode {
        elements: ArrayElements::Hash(vec![(ArrayKey::Int(5), Value::Int(1)), (ArrayKey::Int(5), Value::Int(2))]),
        next_free_index: 6,
    });
    graph.root = Value::Array(id);
    // The encoder takes the model as it is (the binding's writer never makes such an array): the bytes
    // are what a corrupted segment could hold.
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    assert!(validate(&bytes).is_err(), "an integer key twice in one array is accepted");
}
