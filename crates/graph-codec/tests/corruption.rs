//! Decoding is total: truncated, bit-flipped and offset-rewritten encodings yield an error or a graph,
//! never a panic, an out-of-bounds read or a hang.

mod common;

use graph_codec::*;
use proptest::prelude::*;

fn check_total(bytes: &[u8]) {
    if let Ok(decoded) = decode(bytes) {
        // Whatever decodes must itself be a well-formed graph that encodes again.
        let again = encode(&decoded.graph, decoded.header.tier);
        if decoded.header.tier != StoreTier::PHPSerialized {
            assert!(again.is_ok(), "a decoded graph re-encodes: {again:?}");
        }
    }
    let _ = validate(bytes);
    let _ = common::walk_view(bytes, 10_000);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn truncated_encodings_never_panic(graph in common::arb_graph(), cut in any::<prop::sample::Index>()) {
        let bytes = encode(&graph, common::lowest_tier(&graph)).unwrap();
        let truncated = &bytes[..cut.index(bytes.len())];
        prop_assert!(decode(truncated).is_err());
        check_total(truncated);
    }

    #[test]
    fn bit_flipped_encodings_never_panic(
        graph in common::arb_graph(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 0u8..8), 1..6),
    ) {
        let mut bytes = encode(&graph, common::lowest_tier(&graph)).unwrap();
        for (at, bit) in flips {
            let at = at.index(bytes.len());
            bytes[at] ^= 1 << bit;
        }
        check_total(&bytes);
    }

    #[test]
    fn rewritten_offsets_and_counts_never_panic(
        graph in common::arb_graph(),
        rewrites in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0u8..5, any::<u64>()), 1..4),
    ) {
        let mut bytes = encode(&graph, common::lowest_tier(&graph)).unwrap();
        let words = bytes.len() / 8;
        for (at, target, how, random) in rewrites {
            let at = at.index(words) * 8;
            let value = match how {
                // Another position inside the buffer (possibly mid-record, possibly itself: a cycle).
                0 => (target.index(words) * 8) as u64,
                1 => at as u64,
                2 => random,
                3 => u64::MAX - (random % 64),
                _ => random % (1 << 20),
            };
            bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
        }
        check_total(&bytes);
    }

    #[test]
    fn arbitrary_bytes_behind_a_valid_header_never_panic(
        graph in common::arb_graph(),
        noise in prop::collection::vec(any::<u8>(), 0..256),
    ) {
        let mut bytes = encode(&graph, common::lowest_tier(&graph)).unwrap();
        let start = graph_codec::HEADER_LEN.min(bytes.len());
        for (slot, byte) in bytes[start..].iter_mut().zip(noise) {
            *slot = byte;
        }
        check_total(&bytes);
    }
}

#[test]
fn absurd_counts_are_rejected_before_anything_is_allocated() {
    let mut graph = Graph::new(Value::Null);
    let array =
        graph.push_array(ArrayNode { elements: ArrayElements::Packed(vec![Some(Value::Int(1))]), next_free_index: 1 });
    graph.root = Value::Array(array);
    let mut bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    let view = GraphView::new(&bytes).unwrap();
    let record = view.header().records_offset as usize;
    // The packed slot count sits 8 bytes into the array record.
    bytes[record + 8..record + 16].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    assert!(matches!(decode(&bytes), Err(DecodeError::CountTooLarge { .. })));
    assert!(GraphView::new(&bytes).unwrap().root().is_err());
}

#[test]
fn a_header_that_claims_another_length_is_rejected() {
    let bytes = encode(&Graph::new(Value::Int(1)), StoreTier::Scalar).unwrap();
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 8]);
    assert!(matches!(decode(&longer), Err(DecodeError::LengthMismatch { .. })));
    assert!(matches!(decode(&bytes[..10]), Err(DecodeError::ShorterThanHeader { .. })));
    let mut wrong_magic = bytes.clone();
    wrong_magic[0] = b'X';
    assert_eq!(decode(&wrong_magic), Err(DecodeError::BadMagic));
}

#[test]
fn a_wrong_string_hash_is_detected_by_validation() {
    let bytes = encode(&Graph::new(Value::String(b"hello".to_vec().into())), StoreTier::Scalar).unwrap();
    let mut corrupted = bytes.clone();
    corrupted[graph_codec::HEADER_LEN] ^= 1;
    assert!(matches!(decode(&corrupted), Err(DecodeError::StringHashMismatch { .. })));
}

#[test]
fn a_cleared_shared_flag_is_detected_by_validation() {
    let mut graph = Graph::new(Value::Null);
    let object = graph.push_object(ObjectNode {
        class_name: b"Box".to_vec().into(),
        state: ObjectState::Properties(Properties::default()),
    });
    let array = graph.push_array(ArrayNode {
        elements: ArrayElements::Packed(vec![Some(Value::Object(object)), Some(Value::Object(object))]),
        next_free_index: 2,
    });
    graph.root = Value::Array(array);
    let mut bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    let view = GraphView::new(&bytes).unwrap();
    let SlotView::Array(root) = view.root().unwrap() else { panic!() };
    let SlotView::Object(shared) = root.packed_slot(0).unwrap() else { panic!() };
    assert!(shared.is_shared);
    let flags_at = shared.offset as usize + 1;
    bytes[flags_at] = 0;
    assert!(matches!(decode(&bytes), Err(DecodeError::SharedFlagMismatch { .. })));
}
