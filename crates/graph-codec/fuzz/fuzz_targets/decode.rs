//! Fuzzes the decoder, the checked reader and the in-place reader with arbitrary bytes: none may panic,
//! read out of bounds, hang or allocate beyond the input; the checked reader accepts exactly what the
//! decoder accepts, reads every record by number as the binding's read path does, and whatever decodes
//! re-encodes to an equal graph with the same header facts.
#![no_main]

use std::collections::HashSet;

use graph_codec::{
    decode, encode, validate, ArrayId, CheckedGraph, CheckedSlot, GraphView, ObjectId, ObjectStateKind, ReferenceId,
    ShapeId, SlotView, StoreTier,
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

fuzz_target!(|data: &[u8]| {
    let _ = validate(data);
    walk_view(data, 100_000);
    let checked = CheckedGraph::check(data);
    let decoded = decode(data);
    assert_eq!(checked.is_ok(), decoded.is_ok(), "the check and the decoder disagree");
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
