//! decode(encode(graph)) == graph: spec §6.2 scenarios by example, then arbitrary graphs by proptest.

mod common;

use std::borrow::Cow;

use graph_codec::*;
use proptest::prelude::*;

fn s(text: &str) -> Bytes<'static> {
    Cow::Owned(text.as_bytes().to_vec())
}

fn round_trip(graph: &Graph<'_>, tier: StoreTier) -> Decoded<'static> {
    let bytes = encode(graph, tier).expect("encodes");
    let decoded = decode(&bytes).expect("decodes");
    assert_eq!(&decoded.graph, graph);
    assert_eq!(decoded.header.tier, tier);
    Decoded { header: decoded.header, graph: decoded.graph.into_owned() }
}

fn hash(entries: Vec<(ArrayKey<'static>, Value<'static>)>, next_free_index: i64) -> ArrayNode<'static> {
    ArrayNode { elements: ArrayElements::Hash(entries), next_free_index }
}

fn packed(slots: Vec<Option<Value<'static>>>, next_free_index: i64) -> ArrayNode<'static> {
    ArrayNode { elements: ArrayElements::Packed(slots), next_free_index }
}

fn plain_object(class: &str, declared: Vec<(&str, Option<Value<'static>>, bool)>) -> ObjectNode<'static> {
    ObjectNode {
        class_name: s(class),
        state: ObjectState::Properties(Properties {
            declared: declared
                .into_iter()
                .map(|(name, value, readonly)| DeclaredProperty { mangled_name: s(name), value, readonly })
                .collect(),
            dynamic: vec![],
        }),
    }
}

#[test]
fn scalars_round_trip_bit_exactly_including_negative_zero_nan_and_infinities() {
    let scalars = [
        Value::Null,
        Value::Bool(true),
        Value::Bool(false),
        Value::Int(0),
        Value::Int(-1),
        Value::Int(i64::MAX),
        Value::Int(i64::MIN),
        Value::Float(1.5),
        Value::Float(-0.0),
        Value::Float(f64::NAN),
        Value::Float(f64::from_bits(0xfff0_0000_dead_beef)),
        Value::Float(f64::INFINITY),
        Value::Float(f64::NEG_INFINITY),
        Value::String(s("")),
        Value::String(Cow::Owned(b"a\0b".to_vec())),
    ];
    for scalar in scalars {
        let decoded = round_trip(&Graph::new(scalar), StoreTier::Scalar);
        assert!(decoded.header.is_immutable_eligible());
    }
}

#[test]
fn a_one_megabyte_binary_string_round_trips_and_keeps_its_php_hash() {
    let big: Vec<u8> = (0..(1u32 << 20)).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    assert!(big.contains(&0));
    let graph = Graph::new(Value::String(Cow::Borrowed(&big)));
    let bytes = encode(&graph, StoreTier::Scalar).unwrap();
    let view = GraphView::new(&bytes).unwrap();
    let SlotView::String(string) = view.root().unwrap() else { panic!("root is a string") };
    assert_eq!(string.bytes, &big[..]);
    assert_eq!(string.hash, zend_string_hash(&big));
    assert_eq!(decode(&bytes).unwrap().graph, graph);
}

#[test]
fn arrays_keep_their_form_keys_order_holes_and_next_free_index() {
    // $gap = [0, 1, 2, 3, 'x']; unset($gap[4]);
    // $v = ['list' => [1, 2, 3], 'map' => ['a' => 1, 10 => 'ten', 'b' => [true, null]], 'empty' => [],
    //       'gap' => $gap, -5 => 'neg'];
    let mut graph = Graph::new(Value::Null);
    let list = graph.push_array(packed(vec![Some(Value::Int(1)), Some(Value::Int(2)), Some(Value::Int(3))], 3));
    let pair = graph.push_array(packed(vec![Some(Value::Bool(true)), Some(Value::Null)], 2));
    let map = graph.push_array(hash(
        vec![
            (ArrayKey::String(s("a")), Value::Int(1)),
            (ArrayKey::Int(10), Value::String(s("ten"))),
            (ArrayKey::String(s("b")), Value::Array(pair)),
        ],
        11,
    ));
    let empty = graph.push_array(packed(vec![], i64::MIN));
    let gap = graph.push_array(packed((0..4).map(|i| Some(Value::Int(i))).chain([None]).collect(), 5));
    let root = graph.push_array(hash(
        vec![
            (ArrayKey::String(s("list")), Value::Array(list)),
            (ArrayKey::String(s("map")), Value::Array(map)),
            (ArrayKey::String(s("empty")), Value::Array(empty)),
            (ArrayKey::String(s("gap")), Value::Array(gap)),
            (ArrayKey::Int(-5), Value::String(s("neg"))),
        ],
        -4,
    ));
    graph.root = Value::Array(root);
    let decoded = round_trip(&graph, StoreTier::SharedGraph);
    assert!(decoded.header.is_immutable_eligible());
    assert!(!decoded.header.contains_shared());
    assert_eq!(decoded.graph.arrays[gap.index()].next_free_index, 5);
}

#[test]
fn references_inside_arrays_stay_shared_slots() {
    // $r = ['value' => 1]; $r['alias'] = &$r['value'];
    let mut graph = Graph::new(Value::Null);
    let slot = graph.push_reference(ReferenceNode { value: Value::Int(1) });
    let root = graph.push_array(hash(
        vec![
            (ArrayKey::String(s("value")), Value::Reference(slot)),
            (ArrayKey::String(s("alias")), Value::Reference(slot)),
        ],
        i64::MIN,
    ));
    graph.root = Value::Array(root);
    let decoded = round_trip(&graph, StoreTier::SharedGraph);
    assert!(decoded.header.contains_references());
    assert!(!decoded.header.is_immutable_eligible());
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    let view = GraphView::new(&bytes).unwrap();
    let SlotView::Array(array) = view.root().unwrap() else { panic!() };
    let (_, SlotView::Reference(first)) = array.hash_entry(0).unwrap() else { panic!() };
    let (_, SlotView::Reference(second)) = array.hash_entry(1).unwrap() else { panic!() };
    assert_eq!(first.offset, second.offset);
    assert!(first.is_shared);
}

#[test]
fn an_array_cycle_through_a_reference_round_trips_and_marks_the_array_shared() {
    // $a = ['name' => 'root']; $a['self'] = &$a;
    let mut graph = Graph::new(Value::Null);
    let array = graph.push_array(hash(vec![], i64::MIN));
    let self_ref = graph.push_reference(ReferenceNode { value: Value::Array(array) });
    graph.arrays[array.index()] = hash(
        vec![
            (ArrayKey::String(s("name")), Value::String(s("root"))),
            (ArrayKey::String(s("self")), Value::Reference(self_ref)),
        ],
        i64::MIN,
    );
    graph.root = Value::Array(array);
    let decoded = round_trip(&graph, StoreTier::SharedGraph);
    assert!(decoded.header.contains_shared());
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    let SlotView::Array(root) = GraphView::new(&bytes).unwrap().root().unwrap() else { panic!() };
    assert!(root.is_shared);
}

#[test]
fn object_cycles_and_shared_identity_round_trip_as_one_object() {
    // $n = new Box; $n->child = $n;  and  [$o, $o, 'x' => ['o' => $o]]
    let mut graph = Graph::new(Value::Null);
    let node = graph.push_object(plain_object("Box", vec![("child", None, false)]));
    if let ObjectState::Properties(p) = &mut graph.objects[node.index()].state {
        p.declared[0].value = Some(Value::Object(node));
    }
    let other = graph.push_object(plain_object("Box", vec![("child", Some(Value::Null), false)]));
    let inner = graph.push_array(hash(vec![(ArrayKey::String(s("o")), Value::Object(other))], i64::MIN));
    let list = graph.push_array(hash(
        vec![
            (ArrayKey::Int(0), Value::Object(other)),
            (ArrayKey::Int(1), Value::Object(other)),
            (ArrayKey::String(s("x")), Value::Array(inner)),
            (ArrayKey::String(s("cycle")), Value::Object(node)),
        ],
        2,
    ));
    graph.root = Value::Array(list);
    let decoded = round_trip(&graph, StoreTier::SharedGraph);
    assert!(decoded.header.contains_objects() && decoded.header.contains_shared());
}

#[test]
fn enum_cases_round_trip_top_level_nested_and_in_properties() {
    let hearts = || Value::EnumCase(Box::new(EnumCase { class_name: s("Suit"), case_name: s("Hearts") }));
    round_trip(&Graph::new(hearts()), StoreTier::SharedGraph);
    let mut graph = Graph::new(Value::Null);
    let card = graph.push_object(plain_object("Card", vec![("suit", Some(hearts()), true)]));
    let root = graph.push_array(packed(vec![Some(hearts()), Some(Value::Object(card)), Some(hearts())], 3));
    graph.root = Value::Array(root);
    let decoded = round_trip(&graph, StoreTier::SharedGraph);
    assert!(decoded.header.contains_objects());
    assert!(!decoded.header.is_immutable_eligible());
}

#[test]
fn visibility_mangled_names_readonly_and_uninitialized_properties_round_trip() {
    let mut graph = Graph::new(Value::Null);
    let item = graph.push_object(plain_object(
        "Item",
        vec![
            ("pub", Some(Value::Int(10)), false),
            ("\0*\0prot", Some(Value::Int(2)), false),
            ("\0Item\0secret", Some(Value::String(s("item"))), false),
            ("\0Base\0secret", Some(Value::String(s("base"))), false),
            ("id", Some(Value::Int(7)), true),
            ("late", None, false),
        ],
    ));
    graph.root = Value::Object(item);
    let decoded = round_trip(&graph, StoreTier::SharedGraph);
    let ObjectState::Properties(properties) = &decoded.graph.objects[0].state else { panic!() };
    assert_eq!(properties.declared[5].value, None);
    assert!(properties.declared[4].readonly);
}

#[test]
fn dynamic_properties_and_hook_results_round_trip_as_opcache_serialized() {
    let mut graph = Graph::new(Value::Null);
    let data = graph.push_array(hash(vec![(ArrayKey::String(s("v")), Value::Int(1))], i64::MIN));
    let hooked = graph.push_object(ObjectNode { class_name: s("S"), state: ObjectState::Unserialize(data) });
    let sleeper = graph.push_object(ObjectNode {
        class_name: s("W"),
        state: ObjectState::PropertiesThenWakeup(Properties {
            declared: vec![DeclaredProperty { mangled_name: s("v"), value: Some(Value::Int(1)), readonly: false }],
            dynamic: vec![],
        }),
    });
    let std = graph.push_object(ObjectNode {
        class_name: s("stdClass"),
        state: ObjectState::Properties(Properties {
            declared: vec![],
            dynamic: vec![(s("a"), Value::Int(1)), (s("b"), Value::Object(hooked))],
        }),
    });
    let root = graph.push_array(packed(vec![Some(Value::Object(std)), Some(Value::Object(sleeper))], 2));
    graph.root = Value::Array(root);
    assert_eq!(
        encode(&graph, StoreTier::SharedGraph),
        Err(EncodeError::Structure(StructureError::TierMismatch(StoreTier::SharedGraph)))
    );
    let decoded = round_trip(&graph, StoreTier::OPcacheSerialized);
    assert!(decoded.header.contains_hooks());
}

#[test]
fn php_serialized_containers_hold_the_serialize_bytes_verbatim() {
    let serialized = b"O:9:\"Exception\":0:{}\0tail";
    let bytes = encode_php_serialized(serialized).unwrap();
    let view = GraphView::new(&bytes).unwrap();
    assert_eq!(view.tier(), StoreTier::PHPSerialized);
    assert_eq!(view.php_serialized_bytes().unwrap(), serialized);
    let decoded = decode(&bytes).unwrap();
    assert_eq!(decoded.graph.root, Value::String(Cow::Borrowed(serialized)));
}

#[test]
fn each_distinct_string_is_stored_once() {
    let repeated = "a fairly long string that would dominate the size if it were stored per use";
    let mut graph = Graph::new(Value::Null);
    let root = graph.push_array(packed((0..1000).map(|_| Some(Value::String(s(repeated)))).collect(), 1000));
    graph.root = Value::Array(root);
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    assert_eq!(GraphView::new(&bytes).unwrap().header().string_count, 1);
    assert!(bytes.len() < 1000 * 16 + 512);
}

#[test]
fn ten_thousand_levels_encode_and_decode_without_recursion_and_one_more_is_refused() {
    let nested = |levels: usize| {
        let mut graph = Graph::new(Value::Null);
        let mut inner: Option<ArrayId> = None;
        // Innermost first, so every array only contains arrays with smaller ids.
        for _ in 0..levels {
            let slots = inner.map(|id| vec![Some(Value::Array(id))]).unwrap_or_default();
            inner = Some(graph.push_array(packed(slots, 1)));
        }
        graph.root = Value::Array(inner.unwrap());
        graph
    };
    let deepest = nested(10_000);
    let decoded = round_trip(&deepest, StoreTier::SharedGraph);
    assert_eq!(decoded.header.depth, 10_000);
    assert_eq!(
        encode(&nested(10_001), StoreTier::SharedGraph),
        Err(EncodeError::Structure(StructureError::TooDeep { depth: 10_001, limit: 10_000 }))
    );
}

#[test]
fn malformed_models_are_refused_with_the_rule_they_break() {
    let mut dangling = Graph::new(Value::Array(ArrayId(3)));
    assert_eq!(
        encode(&dangling, StoreTier::SharedGraph),
        Err(EncodeError::Structure(StructureError::DanglingArray(ArrayId(3))))
    );
    dangling.root = Value::Resource;
    assert_eq!(encode(&dangling, StoreTier::OPcacheSerialized), Err(EncodeError::Structure(StructureError::Resource)));

    let mut nested_reference = Graph::new(Value::Null);
    let inner = nested_reference.push_reference(ReferenceNode { value: Value::Int(1) });
    let outer = nested_reference.push_reference(ReferenceNode { value: Value::Reference(inner) });
    nested_reference.root = Value::Reference(outer);
    assert_eq!(
        encode(&nested_reference, StoreTier::SharedGraph),
        Err(EncodeError::Structure(StructureError::NestedReference(outer)))
    );

    let mut array_cycle = Graph::new(Value::Null);
    let a = array_cycle.push_array(packed(vec![], 0));
    let b = array_cycle.push_array(packed(vec![Some(Value::Array(a))], 1));
    array_cycle.arrays[a.index()] = packed(vec![Some(Value::Array(b))], 1);
    array_cycle.root = Value::Array(a);
    assert_eq!(encode(&array_cycle, StoreTier::SharedGraph), Err(EncodeError::Structure(StructureError::ArrayCycle)));

    let mut not_scalar = Graph::new(Value::Null);
    let array = not_scalar.push_array(packed(vec![], 0));
    not_scalar.root = Value::Array(array);
    assert_eq!(
        encode(&not_scalar, StoreTier::Scalar),
        Err(EncodeError::Structure(StructureError::TierMismatch(StoreTier::Scalar)))
    );
    assert!(encode(&not_scalar, StoreTier::PHPSerialized).is_err());
}

#[test]
fn the_spec_example_list_is_shared_graph() {
    let mut list = Graph::new(Value::Null);
    let array = list.push_array(packed(vec![Some(Value::Int(1)), Some(Value::Int(2)), Some(Value::Int(3))], 3));
    list.root = Value::Array(array);
    assert_eq!(common::lowest_tier(&list), StoreTier::SharedGraph);
    round_trip(&list, StoreTier::SharedGraph);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_graphs_round_trip_exactly(graph in common::arb_graph()) {
        let tier = common::lowest_tier(&graph);
        let bytes = encode(&graph, tier).unwrap();
        let decoded = decode(&bytes).unwrap();
        prop_assert_eq!(&decoded.graph, &graph);
        prop_assert_eq!(decoded.header.tier, tier);
        prop_assert!(common::walk_view(&bytes, 100_000).is_ok());
    }

    #[test]
    fn encoding_is_deterministic(graph in common::arb_graph()) {
        let tier = common::lowest_tier(&graph);
        prop_assert_eq!(encode(&graph, tier).unwrap(), encode(&graph, tier).unwrap());
    }
}
