//! Safe-direct internal-class state (spec §6.3) round-trips exactly and reads in place, for every family,
//! including userland subclasses with their own properties.

use std::borrow::Cow;

use graph_codec::*;

fn s(text: &str) -> Bytes<'static> {
    Cow::Owned(text.as_bytes().to_vec())
}

fn internal_object(class: &str, state: InternalState<'static>, properties: Properties<'static>) -> ObjectNode<'static> {
    ObjectNode { class_name: s(class), state: ObjectState::Internal { state, properties } }
}

fn no_properties() -> Properties<'static> {
    Properties::default()
}

fn round_trip(graph: &Graph<'static>) -> Vec<u8> {
    let bytes = encode(graph, StoreTier::SharedGraph).expect("safe-direct state is SharedGraph");
    assert_eq!(&decode(&bytes).expect("decodes").graph, graph);
    bytes
}

fn paris() -> TimeZoneState<'static> {
    TimeZoneState::Identifier { name: s("Europe/Paris") }
}

#[test]
fn date_times_and_all_three_zone_types_round_trip() {
    let mut graph = Graph::new(Value::Null);
    let date = |seconds: i64, zone: Option<TimeZoneState<'static>>| {
        InternalState::DateTime(DateTimeState {
            unix_seconds: seconds,
            microsecond: 789_000,
            civil: CivilDateTime { year: 2026, month: 6, day: 2, hour: 12, minute: 34, second: 56 },
            zone,
        })
    };
    let zones = [
        paris(),
        TimeZoneState::Offset { utc_offset_seconds: 7200 },
        TimeZoneState::Abbreviation { abbreviation: s("CEST"), utc_offset_seconds: 7200, dst: true },
    ];
    let mut slots = vec![
        Some(Value::Object(graph.push_object(internal_object(
            "DateTimeImmutable",
            date(1_780_396_496, Some(paris())),
            no_properties(),
        )))),
        Some(Value::Object(graph.push_object(internal_object(
            "DateTime",
            date(86_400, Some(TimeZoneState::Offset { utc_offset_seconds: 0 })),
            no_properties(),
        )))),
    ];
    for zone in zones {
        let object =
            graph.push_object(internal_object("DateTimeZone", InternalState::DateTimeZone(zone), no_properties()));
        slots.push(Some(Value::Object(object)));
    }
    // class MyDate extends DateTimeImmutable { public string $label = ''; }
    let labelled = graph.push_object(internal_object(
        "MyDate",
        date(1_582_934_400, Some(TimeZoneState::Identifier { name: s("UTC") })),
        Properties {
            declared: vec![DeclaredProperty {
                mangled_name: s("label"),
                value: Some(Value::String(s("leap"))),
                readonly: false,
            }],
            dynamic: vec![],
        },
    ));
    slots.push(Some(Value::Object(labelled)));
    let count = slots.len() as i64;
    let root = graph.push_array(ArrayNode { elements: ArrayElements::Packed(slots), next_free_index: count });
    graph.root = Value::Array(root);
    let bytes = round_trip(&graph);

    let view = GraphView::new(&bytes).unwrap();
    let SlotView::Array(list) = view.root().unwrap() else { panic!() };
    let SlotView::Object(first) = list.packed_slot(0).unwrap() else { panic!() };
    assert_eq!(first.class_name().unwrap().bytes, b"DateTimeImmutable");
    let InternalState::DateTime(state) = first.internal_state().unwrap() else { panic!() };
    assert_eq!(state.zone, Some(paris()));
    assert_eq!(state.microsecond, 789_000);
}

#[test]
fn date_intervals_round_trip_with_diff_days_and_from_string_text() {
    let interval = |total_days: Option<i64>, from_string: Option<Bytes<'static>>| {
        InternalState::DateInterval(DateIntervalState {
            years: 1,
            months: 2,
            days: 3,
            hours: 4,
            minutes: 5,
            seconds: 6,
            microseconds: 0,
            invert: false,
            total_days,
            weekday: 0,
            weekday_behavior: 0,
            first_last_day_of: 0,
            special_type: 0,
            special_amount: 0,
            have_weekday_relative: false,
            have_special_relative: false,
            civil_or_wall: 1,
            from_string,
        })
    };
    let mut graph = Graph::new(Value::Null);
    let made = graph.push_object(internal_object("DateInterval", interval(None, None), no_properties()));
    let diffed = graph.push_object(internal_object("DateInterval", interval(Some(428), None), no_properties()));
    let text = graph.push_object(internal_object(
        "DateInterval",
        interval(None, Some(s("last day of next month"))),
        no_properties(),
    ));
    let root = graph.push_array(ArrayNode {
        elements: ArrayElements::Packed(vec![
            Some(Value::Object(made)),
            Some(Value::Object(diffed)),
            Some(Value::Object(text)),
        ]),
        next_free_index: 3,
    });
    graph.root = Value::Array(root);
    round_trip(&graph);
}

#[test]
fn spl_containers_round_trip_with_flags_modes_and_stored_order() {
    let mut graph = Graph::new(Value::Null);
    let key = graph.push_object(ObjectNode { class_name: s("Box"), state: ObjectState::Properties(no_properties()) });
    let storage = graph.push_array(ArrayNode {
        elements: ArrayElements::Hash(vec![(ArrayKey::String(s("a")), Value::Int(1))]),
        next_free_index: i64::MIN,
    });
    // class MyAO extends ArrayObject { public $tag = 't'; }
    let array_object = graph.push_object(internal_object(
        "MyAO",
        InternalState::ArrayStorage(ArrayStorageState {
            storage: Value::Array(storage),
            flags: 2,
            iterator_class: Some(s("RecursiveArrayIterator")),
        }),
        Properties {
            declared: vec![DeclaredProperty {
                mangled_name: s("tag"),
                value: Some(Value::String(s("kept"))),
                readonly: false,
            }],
            dynamic: vec![],
        },
    ));
    let wraps_object = graph.push_object(internal_object(
        "ArrayIterator",
        InternalState::ArrayStorage(ArrayStorageState { storage: Value::Object(key), flags: 0, iterator_class: None }),
        no_properties(),
    ));
    let ints = |values: &[i64]| values.iter().map(|&v| Value::Int(v)).collect::<Vec<_>>();
    let fixed = graph.push_object(internal_object(
        "SplFixedArray",
        InternalState::FixedArray(FixedArrayState { elements: vec![Value::Int(1), Value::Null, Value::Int(3)] }),
        no_properties(),
    ));
    let stack = graph.push_object(internal_object(
        "SplStack",
        InternalState::DoublyLinkedList(DoublyLinkedListState {
            elements: vec![Value::String(s("x")), Value::String(s("y"))],
            iterator_mode: 2,
        }),
        no_properties(),
    ));
    let heap = graph.push_object(internal_object(
        "SplMinHeap",
        InternalState::Heap(HeapState { elements: ints(&[1, 5, 3]), heap_flags: 0 }),
        no_properties(),
    ));
    let queue = graph.push_object(internal_object(
        "SplPriorityQueue",
        InternalState::PriorityQueue(PriorityQueueState {
            entries: vec![
                PriorityQueueEntry { data: Value::String(s("hi")), priority: Value::Int(10) },
                PriorityQueueEntry { data: Value::String(s("lo")), priority: Value::Int(1) },
            ],
            extract_flags: 3,
            heap_flags: 0,
        }),
        no_properties(),
    ));
    let object_storage = graph.push_object(internal_object(
        "SplObjectStorage",
        InternalState::ObjectStorage(ObjectStorageState {
            entries: vec![ObjectStorageEntry { object: Value::Object(key), data: Value::String(s("data")) }],
        }),
        no_properties(),
    ));
    let objects = [array_object, wraps_object, fixed, stack, heap, queue, object_storage, key];
    let root = graph.push_array(ArrayNode {
        elements: ArrayElements::Packed(objects.iter().map(|&o| Some(Value::Object(o))).collect()),
        next_free_index: objects.len() as i64,
    });
    graph.root = Value::Array(root);
    let bytes = round_trip(&graph);

    // The storage key keeps its identity: it is shared between the storage, the iterator and the list.
    let decoded = decode(&bytes).unwrap();
    let ObjectState::Internal { state: InternalState::ObjectStorage(storage), .. } =
        &decoded.graph.objects[object_storage.index()].state
    else {
        panic!()
    };
    assert_eq!(storage.entries[0].object, Value::Object(key));
    assert!(decoded.header.contains_shared());
}

#[test]
fn a_subclass_with_its_own_serialize_hooks_is_stored_through_unserialize_as_opcache_serialized() {
    // Carbon extends DateTime and defines __serialize/__unserialize: the binding runs __serialize and
    // stores its array; classification reports OPcacheSerialized.
    let carbon = ClassInfo {
        kind: ClassKind::SafeDirect(StateFamily::DateTime),
        userland_hooks: UserlandHooks { serialize: true, unserialize: true, ..UserlandHooks::default() },
        serializable_without_serialize: false,
    };
    let mut graph = Graph::new(Value::Null);
    let data = graph.push_array(ArrayNode {
        elements: ArrayElements::Hash(vec![
            (ArrayKey::String(s("date")), Value::String(s("2020-02-29 00:00:00.000000"))),
            (ArrayKey::String(s("timezone_type")), Value::Int(3)),
            (ArrayKey::String(s("timezone")), Value::String(s("UTC"))),
        ]),
        next_free_index: i64::MIN,
    });
    let object =
        graph.push_object(ObjectNode { class_name: s("Carbon\\Carbon"), state: ObjectState::Unserialize(data) });
    graph.root = Value::Object(object);
    let tier = carbon.object_tier(false).unwrap();
    assert_eq!(tier, StoreTier::OPcacheSerialized);
    let bytes = encode(&graph, tier).unwrap();
    assert_eq!(decode(&bytes).unwrap().graph, graph);
}

#[test]
fn a_storage_key_that_is_not_an_object_is_refused() {
    let mut graph = Graph::new(Value::Null);
    let storage = graph.push_object(internal_object(
        "SplObjectStorage",
        InternalState::ObjectStorage(ObjectStorageState {
            entries: vec![ObjectStorageEntry { object: Value::Int(1), data: Value::Null }],
        }),
        no_properties(),
    ));
    graph.root = Value::Object(storage);
    assert_eq!(
        encode(&graph, StoreTier::SharedGraph),
        Err(EncodeError::Structure(StructureError::StorageKeyNotObject(storage)))
    );
}

#[test]
fn an_enum_case_is_a_storage_key() {
    // `$s[Suit::Hearts] = 'h'`: an enum case is an object, and SplObjectStorage takes it as a key.
    let hearts = Value::EnumCase(Box::new(EnumCase { class_name: s("Suit"), case_name: s("Hearts") }));
    let mut graph = Graph::new(Value::Null);
    let storage = graph.push_object(internal_object(
        "SplObjectStorage",
        InternalState::ObjectStorage(ObjectStorageState {
            entries: vec![ObjectStorageEntry { object: hearts.clone(), data: hearts }],
        }),
        no_properties(),
    ));
    graph.root = Value::Object(storage);
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    assert_eq!(decode(&bytes).unwrap().graph, graph);
}
