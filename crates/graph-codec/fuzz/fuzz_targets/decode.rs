//! Fuzzes the decoder, the checked reader and the in-place reader with arbitrary bytes: none may panic,
//! read out of bounds, hang or allocate beyond the input; the checked reader accepts exactly what the
//! decoder accepts, reads every record by number as the binding's read path does, and whatever decodes
//! re-encodes to an equal graph with the same header facts. The one-pass check of small plain trees
//! (`PlainTree`, the binding's first read) accepts only what the checked reader accepts, reads every
//! string, array and entry as it does (floats bit-exactly, strings by number and hash), and accepts every
//! tree within its limits that the checked reader accepts.
#![no_main]

use std::collections::HashSet;

use graph_codec::{
    decode, encode, flags, plain_tree, validate, ArrayId, CheckedGraph, CheckedKey, CheckedSlot, GraphView, ObjectId,
    ObjectStateKind, PlainKey, PlainSlot, PlainTree, ReferenceId, ShapeId, SlotView, SmallGraph, StoreTier, StringId,
};
use libfuzzer_sys::fuzz_target;

/// Reads every reachable slot once through the in-place accessors, bounded by `budget` slots.
fn walk_view(bytes: &[u8], budget: usize) {
    let Ok(view) = GraphView::new(bytes) else { return };
    let Ok(root) = view.root() else { return };
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    let mut visited = 0;
    while let Some(slot) = stack.pop() {
        visited += 1;
        if visited > budget {
            return;
        }
        match slot {
            SlotView::Array(array) if seen.insert(array.offset) => {
                for i in 0..array.len.min(budget as u64) {
                    let slot = if array.is_packed { array.packed_slot(i) } else { array.hash_entry(i).map(|e| e.1) };
                    let Ok(slot) = slot else { return };
                    stack.push(slot);
                }
            }
            SlotView::Object(object) if seen.insert(object.offset) => {
                let _ = object.class_name();
                for i in 0..object.declared_len.min(budget as u32) {
                    let Ok(property) = object.declared(i) else { return };
                    stack.push(property.value);
                }
                for i in 0..object.dynamic_len.min(budget as u64) {
                    let Ok((_, value)) = object.dynamic(i) else { return };
                    stack.push(value);
                }
                match object.state {
                    ObjectStateKind::Unserialize => {
                        if let Ok(data) = object.unserialize_data() {
                            stack.push(SlotView::Array(data));
                        }
                    }
                    ObjectStateKind::Internal => {
                        if let Ok(state) = object.internal_state() {
                            state.for_each_value(|value| stack.push(*value));
                        }
                    }
                    _ => {}
                }
            }
            SlotView::Reference(reference) if seen.insert(reference.offset) => {
                if let Ok(value) = reference.value() {
                    stack.push(value);
                }
            }
            _ => {}
        }
    }
}

/// Reads a checked buffer the way the binding builds its blueprint: plain arrays, every shape, array,
/// reference and object by number, each record once. Every read must succeed.
fn read_checked(checked: &CheckedGraph<'_>) {
    let plain = checked.plain_arrays();
    assert_eq!(plain.len(), checked.array_count());
    for id in 0..checked.shape_count() {
        checked.shape(ShapeId(id as u32)).expect("a shape");
    }
    for id in 0..checked.array_count() {
        let array = checked.array(ArrayId(id as u32)).expect("an array");
        for i in 0..array.len() {
            let (_, value) = array.entry(i).expect("an entry");
            if let CheckedSlot::Array(child) = value {
                // A plain array holds only plain arrays.
                assert!(!plain[id] || plain[child.index()]);
            }
            assert!(!plain[id] || !matches!(value, CheckedSlot::Object(_) | CheckedSlot::Reference(_)));
        }
    }
    for id in 0..checked.reference_count() {
        checked.reference(ReferenceId(id as u32)).expect("a reference");
    }
    for id in 0..checked.object_count() {
        let object = checked.object(ObjectId(id as u32)).expect("an object");
        for i in 0..object.declared_len() {
            object.declared(i).expect("a declared property");
        }
        for i in 0..object.dynamic_len() {
            object.dynamic(i).expect("a dynamic property");
        }
        match object.state() {
            ObjectStateKind::Unserialize => {
                object.unserialize_data().expect("unserialize data");
            }
            ObjectStateKind::Internal => {
                object.internal_state().expect("an internal state");
            }
            _ => {}
        }
    }
}

/// A slot as `PlainTree` names it, of a checked slot (`None`: not one a plain tree holds).
fn plain_slot(slot: CheckedSlot<'_>) -> Option<PlainSlot> {
    Some(match slot {
        CheckedSlot::Undef => PlainSlot::Undef,
        CheckedSlot::Null => PlainSlot::Null,
        CheckedSlot::Bool(b) => PlainSlot::Bool(b),
        CheckedSlot::Int(i) => PlainSlot::Int(i),
        CheckedSlot::Float(f) => PlainSlot::Float(f),
        CheckedSlot::String(s) => PlainSlot::String(s.id.0),
        CheckedSlot::Array(a) => PlainSlot::Array(a.0),
        _ => return None,
    })
}

/// Bit-exact equality of two plain slots (`PlainSlot`'s `==` compares floats as numbers).
fn same_slot(a: PlainSlot, b: PlainSlot) -> bool {
    match (a, b) {
        (PlainSlot::Float(x), PlainSlot::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// What `PlainTree::check` read of `data` is what the checked reader reads of it: the same strings (bytes
/// and hash, and which are values), arrays (kind, next index, entries) and root, arrays children first.
fn plain_tree_agrees(tree: &PlainTree<'_>, checked: &CheckedGraph<'_>) {
    assert_eq!(tree.string_count(), checked.string_count());
    for id in 0..tree.string_count() as u32 {
        let string = checked.string(StringId(id)).expect("a string");
        assert_eq!(tree.string(id), (string.bytes, string.hash), "string {id}");
        assert_eq!(tree.is_value_string(id), checked.value_strings()[id as usize], "string {id} as a value");
    }
    assert_eq!(tree.array_count(), checked.array_count());
    assert!(checked.plain_arrays().iter().all(|&plain| plain));
    let root = checked.root().expect("a root");
    assert!(matches!(root, CheckedSlot::Array(a) if a.0 == tree.root()));
    for id in 0..tree.array_count() as u32 {
        let array = tree.array(id);
        let entries = tree.entries(array);
        let checked_array = checked.array(ArrayId(id)).expect("an array");
        assert_eq!(array.packed, checked_array.is_packed(), "array {id}");
        assert_eq!(array.next_free_index, checked_array.next_free_index(), "array {id}");
        assert_eq!(entries.len() as u64, checked_array.len(), "array {id}");
        for (i, &(key, value)) in entries.iter().enumerate() {
            let (checked_key, checked_value) = checked_array.entry(i as u64).expect("an entry");
            let checked_key = match checked_key {
                CheckedKey::Int(k) => PlainKey::Int(k),
                CheckedKey::String(s) => PlainKey::String(s.id.0),
            };
            assert_eq!(key, checked_key, "array {id} entry {i}");
            let checked_value = plain_slot(checked_value).expect("a plain slot");
            assert!(same_slot(value, checked_value), "array {id} entry {i}: {value:?} against {checked_value:?}");
        }
    }
    let mut made = vec![false; tree.array_count()];
    for &id in tree.arrays_children_first() {
        for &(_, value) in tree.entries(tree.array(u32::from(id))) {
            if let PlainSlot::Array(child) = value {
                assert!(made[child as usize], "array {id} before its child {child}");
            }
        }
        assert!(!made[usize::from(id)], "array {id} twice in the order");
        made[usize::from(id)] = true;
    }
    assert!(made.iter().all(|&m| m));
}

/// Whether a buffer the checked reader accepts is a tree `PlainTree` is made for: a shared graph of
/// arrays only, none shared, each reached from the root array, within the limits.
fn within_plain_limits(checked: &CheckedGraph<'_>) -> bool {
    let header = checked.header();
    let Ok(CheckedSlot::Array(root)) = checked.root() else { return false };
    if header.tier != StoreTier::SharedGraph
        || header.flags != flags::IMMUTABLE_ELIGIBLE
        || checked.string_count() > plain_tree::MAX_STRINGS
        || checked.array_count() > plain_tree::MAX_ARRAYS
        || checked.shape_count() + checked.enum_case_count() + checked.object_count() + checked.reference_count() > 0
        || checked.array_lens().iter().map(|&(_, len)| len).sum::<u64>() > plain_tree::MAX_ENTRIES as u64
    {
        return false;
    }
    let mut reached = vec![false; checked.array_count()];
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        reached[id.index()] = true;
        let Ok(array) = checked.array(id) else { return false };
        for i in 0..array.len() {
            if let Ok(CheckedSlot::Array(child)) = array.value(i) {
                stack.push(child);
            }
        }
    }
    reached.iter().all(|&r| r)
}

fuzz_target!(|data: &[u8]| {
    // Checked first: its thread's spare working vectors are then reused by the general check below.
    let plain = PlainTree::check(data, |tree| {
        let checked = CheckedGraph::check(data).expect("a buffer the plain check accepts passes the general check");
        plain_tree_agrees(tree, &checked);
    });
    // The small-graph check (the binding's first read of small object graphs) accepts only what the
    // general check accepts (and the header hint `likely_small` lets through), and finds the same arrays
    // plain (its reading is compared value by value in tests/o38_small_graph.rs).
    if let Some(plain_arrays) =
        SmallGraph::check(data, |g| (0..g.array_count() as u32).map(|id| g.array(id).plain).collect::<Vec<_>>())
    {
        let checked =
            CheckedGraph::check(data).expect("a buffer the small-graph check accepts passes the general check");
        assert_eq!(checked.plain_arrays(), &plain_arrays[..], "plain arrays as the general check finds them");
        // The header hint a reader asks first refuses none of them.
        let hinted = graph_codec::small_graph::likely_small(data);
        assert!(hinted, "a buffer the small-graph check accepts is likely small");
    }
    let _ = validate(data);
    walk_view(data, 100_000);
    let checked = CheckedGraph::check(data);
    let decoded = decode(data);
    assert_eq!(checked.is_ok(), decoded.is_ok(), "the check and the decoder disagree");
    if let Ok(checked) = &checked {
        assert_eq!(plain.is_some(), within_plain_limits(checked), "the plain check refused a plain tree");
    }
    if let Ok(checked) = &checked {
        if checked.header().tier != StoreTier::PHPSerialized {
            read_checked(checked);
        }
    }
    if let Ok(decoded) = decoded {
        if decoded.header.tier != StoreTier::PHPSerialized {
            let again = encode(&decoded.graph, decoded.header.tier).expect("a decoded graph re-encodes");
            let round = decode(&again).expect("a re-encoded graph decodes");
            assert_eq!(round.graph, decoded.graph);
            assert_eq!((round.header.flags, round.header.depth), (decoded.header.flags, decoded.header.depth));
        }
    }
});
