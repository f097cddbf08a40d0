//! Fuzzes the decoder and the in-place reader with arbitrary bytes: neither may panic, read out of
//! bounds, hang or allocate beyond the input; whatever decodes must re-encode to an equal graph.
#![no_main]

use std::collections::HashSet;

use graph_codec::{decode, encode, validate, GraphView, ObjectStateKind, SlotView, StoreTier};
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

fuzz_target!(|data: &[u8]| {
    let _ = validate(data);
    walk_view(data, 100_000);
    if let Ok(decoded) = decode(data) {
        if decoded.header.tier != StoreTier::PHPSerialized {
            let again = encode(&decoded.graph, decoded.header.tier).expect("a decoded graph re-encodes");
            let round = decode(&again).expect("a re-encoded graph decodes");
            assert_eq!(round.graph, decoded.graph);
        }
    }
});
