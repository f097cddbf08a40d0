//! Review rv39: a shape that names one declared property twice (PHP declares each once; planted bytes
//! could) is refused by both checks that read shapes, so no reader picks one of two values for a slot.

use std::borrow::Cow;

use graph_codec::*;

/// An object of class `Dto` with properties `a` and `b`, encoded, and the offset of its shape record
/// (the first record: shapes come first).
fn dto() -> (Vec<u8>, usize) {
    let mut graph = Graph::new(Value::Null);
    let declared = [("a", 1), ("b", 2)]
        .into_iter()
        .map(|(name, v)| DeclaredProperty {
            mangled_name: Cow::Borrowed(name.as_bytes()),
            value: Some(Value::Int(v)),
            readonly: false,
        })
        .collect();
    let object = graph.push_object(ObjectNode {
        class_name: Cow::Borrowed(b"Dto"),
        state: ObjectState::Properties(Properties { declared, dynamic: vec![] }),
    });
    graph.root = Value::Object(object);
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    let shape = GraphView::new(&bytes).unwrap().header().records_offset as usize;
    (bytes, shape)
}

#[test]
fn the_encoded_object_is_accepted_by_both_checks() {
    let (bytes, _) = dto();
    assert!(CheckedGraph::check(&bytes).is_ok());
    assert!(SmallGraph::check(&bytes, |_| ()).is_some());
}

#[test]
fn a_shape_naming_its_first_property_twice_is_refused_by_both_checks() {
    let (mut bytes, shape) = dto();
    // Property 1's name offset (at 16 + 16) made property 0's (at 16).
    let first: [u8; 8] = bytes[shape + 16..shape + 24].try_into().unwrap();
    bytes[shape + 32..shape + 40].copy_from_slice(&first);
    assert!(
        matches!(CheckedGraph::check(&bytes), Err(DecodeError::RepeatedProperty { offset }) if offset as usize == shape),
        "{:?}",
        CheckedGraph::check(&bytes).err()
    );
    assert!(decode(&bytes).is_err());
    assert!(SmallGraph::check(&bytes, |_| ()).is_none());
}
