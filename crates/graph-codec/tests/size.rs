//! Size: a homogeneous list of objects costs no more than 1.2x the same data as a list of arrays, because
//! class and property names are stored once per shape and each object holds only its values.

use std::borrow::Cow;

use graph_codec::*;

const COUNT: usize = 10_000;
const FIELDS: [&str; 5] = ["id", "name", "email", "score", "active"];

fn row(i: usize) -> [Value<'static>; 5] {
    [
        Value::Int(i as i64),
        Value::String(Cow::Owned(format!("user-{i}").into_bytes())),
        Value::String(Cow::Owned(format!("user-{i}@example.com").into_bytes())),
        Value::Float(i as f64 / 7.0),
        Value::Bool(i.is_multiple_of(3)),
    ]
}

fn list_of_objects() -> Graph<'static> {
    let mut graph = Graph::new(Value::Null);
    let mut slots = Vec::with_capacity(COUNT);
    for i in 0..COUNT {
        let declared = FIELDS
            .iter()
            .zip(row(i))
            .map(|(name, value)| DeclaredProperty {
                mangled_name: Cow::Borrowed(name.as_bytes()),
                value: Some(value),
                readonly: false,
            })
            .collect();
        let object = graph.push_object(ObjectNode {
            class_name: Cow::Borrowed(b"App\\Model\\User"),
            state: ObjectState::Properties(Properties { declared, dynamic: vec![] }),
        });
        slots.push(Some(Value::Object(object)));
    }
    let list = graph.push_array(ArrayNode { elements: ArrayElements::Packed(slots), next_free_index: COUNT as i64 });
    graph.root = Value::Array(list);
    graph
}

fn list_of_arrays() -> Graph<'static> {
    let mut graph = Graph::new(Value::Null);
    let mut slots = Vec::with_capacity(COUNT);
    for i in 0..COUNT {
        let entries = FIELDS
            .iter()
            .zip(row(i))
            .map(|(name, value)| (ArrayKey::String(Cow::Borrowed(name.as_bytes())), value))
            .collect();
        let array = graph.push_array(ArrayNode { elements: ArrayElements::Hash(entries), next_free_index: i64::MIN });
        slots.push(Some(Value::Array(array)));
    }
    let list = graph.push_array(ArrayNode { elements: ArrayElements::Packed(slots), next_free_index: COUNT as i64 });
    graph.root = Value::Array(list);
    graph
}

#[test]
fn ten_thousand_homogeneous_objects_encode_within_1_2x_of_the_same_data_as_arrays() {
    let objects = encode(&list_of_objects(), StoreTier::SharedGraph).unwrap();
    let arrays = encode(&list_of_arrays(), StoreTier::SharedGraph).unwrap();
    let ratio = objects.len() as f64 / arrays.len() as f64;
    println!("{COUNT} objects: {} bytes; {COUNT} arrays: {} bytes; ratio {ratio:.3}", objects.len(), arrays.len());
    assert!(ratio <= 1.2, "ratio {ratio}");
    // The class name and each property name are stored once.
    let header = *GraphView::new(&objects).unwrap().header();
    assert_eq!(header.string_count as usize, 1 + FIELDS.len() + 2 * COUNT);
    assert_eq!(decode(&objects).unwrap().graph, list_of_objects());
}
