//! Shared test support: a proptest strategy for arbitrary value graphs (references, shared identity,
//! cycles, holes, special floats, binary strings, hooked and internal-state objects) and a bounded walker
//! over in-place views.
#![allow(dead_code)]

use std::borrow::Cow;

use graph_codec::*;
use proptest::prelude::*;

/// A value whose ids are raw numbers, fixed up into valid ids once the arena sizes are known.
#[derive(Clone, Debug)]
pub enum Seed {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Vec<u8>),
    PooledStr(u8),
    Array(u32),
    Object(u32),
    Reference(u32),
    Enum(u8),
}

#[derive(Clone, Debug)]
pub enum KeySeed {
    Int(i64),
    Str(Vec<u8>),
    PooledStr(u8),
}

#[derive(Clone, Debug)]
pub struct ArraySeed {
    packed: bool,
    elements: Vec<(KeySeed, Option<Seed>)>,
    next_free_index: i64,
}

#[derive(Clone, Debug)]
pub enum InternalSeed {
    DateTime(i64, u32, u8, i64),
    Zone(u8, i64),
    Interval(Vec<i64>, Option<i64>, bool),
    ArrayStorage(Seed, u32, bool),
    FixedArray(Vec<Seed>),
    List(Vec<Seed>, u32),
    Heap(Vec<Seed>, u32),
    PriorityQueue(Vec<(Seed, Seed)>, u32),
    ObjectStorage(Vec<(u32, Seed)>),
}

#[derive(Clone, Debug)]
pub struct ObjectSeed {
    class: u8,
    state: u8,
    declared: Vec<(u8, Option<Seed>, bool)>,
    dynamic: Vec<(u8, Seed)>,
    unserialize_array: u32,
    internal: InternalSeed,
}

#[derive(Clone, Debug)]
pub struct GraphSeed {
    root: Seed,
    arrays: Vec<ArraySeed>,
    objects: Vec<ObjectSeed>,
    references: Vec<Seed>,
}

const POOL: [&[u8]; 6] = [b"", b"id", b"name", b"\0*\0prot", b"\0Base\0secret", b"caf\xc3\xa9\0bin"];
const CLASSES: [&[u8]; 3] = [b"Box", b"App\\Model\\User", b"stdClass"];

fn arb_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        Just(f64::NAN),
        Just(-f64::NAN),
        Just(f64::from_bits(0x7ff8_0000_0000_0001)),
        Just(-0.0),
        Just(0.0),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
    ]
}

fn arb_seed() -> impl Strategy<Value = Seed> {
    prop_oneof![
        Just(Seed::Null),
        any::<bool>().prop_map(Seed::Bool),
        prop_oneof![any::<i64>(), Just(i64::MIN), Just(i64::MAX), -3i64..3].prop_map(Seed::Int),
        arb_float().prop_map(Seed::Float),
        prop::collection::vec(any::<u8>(), 0..12).prop_map(Seed::Str),
        any::<u8>().prop_map(Seed::PooledStr),
        any::<u32>().prop_map(Seed::Array),
        any::<u32>().prop_map(Seed::Array),
        any::<u32>().prop_map(Seed::Object),
        any::<u32>().prop_map(Seed::Object),
        any::<u32>().prop_map(Seed::Reference),
        any::<u8>().prop_map(Seed::Enum),
    ]
}

fn arb_key() -> impl Strategy<Value = KeySeed> {
    prop_oneof![
        any::<i64>().prop_map(KeySeed::Int),
        prop::collection::vec(any::<u8>(), 0..8).prop_map(KeySeed::Str),
        any::<u8>().prop_map(KeySeed::PooledStr),
    ]
}

fn arb_array() -> impl Strategy<Value = ArraySeed> {
    (
        any::<bool>(),
        prop::collection::vec((arb_key(), prop::option::weighted(0.85, arb_seed())), 0..6),
        prop_oneof![Just(i64::MIN), 0i64..10, any::<i64>()],
    )
        .prop_map(|(packed, elements, next_free_index)| ArraySeed { packed, elements, next_free_index })
}

fn arb_internal() -> impl Strategy<Value = InternalSeed> {
    prop_oneof![
        (any::<i64>(), 0u32..1_000_000, 0u8..4, -50_400i64..50_400)
            .prop_map(|(s, us, zone, off)| InternalSeed::DateTime(s, us, zone, off)),
        (1u8..4, -50_400i64..50_400).prop_map(|(kind, off)| InternalSeed::Zone(kind, off)),
        (prop::collection::vec(any::<i64>(), 13), prop::option::of(any::<i64>()), any::<bool>())
            .prop_map(|(w, days, from)| InternalSeed::Interval(w, days, from)),
        (arb_seed(), 0u32..4, any::<bool>()).prop_map(|(s, f, c)| InternalSeed::ArrayStorage(s, f, c)),
        prop::collection::vec(arb_seed(), 0..4).prop_map(InternalSeed::FixedArray),
        (prop::collection::vec(arb_seed(), 0..4), 0u32..4).prop_map(|(v, m)| InternalSeed::List(v, m)),
        (prop::collection::vec(arb_seed(), 0..4), 0u32..2).prop_map(|(v, f)| InternalSeed::Heap(v, f)),
        (prop::collection::vec((arb_seed(), arb_seed()), 0..3), 1u32..4)
            .prop_map(|(v, f)| InternalSeed::PriorityQueue(v, f)),
        prop::collection::vec((any::<u32>(), arb_seed()), 0..3).prop_map(InternalSeed::ObjectStorage),
    ]
}

fn arb_object() -> impl Strategy<Value = ObjectSeed> {
    (
        any::<u8>(),
        0u8..4,
        prop::collection::vec((any::<u8>(), prop::option::weighted(0.8, arb_seed()), any::<bool>()), 0..4),
        prop::collection::vec((any::<u8>(), arb_seed()), 0..3),
        any::<u32>(),
        arb_internal(),
    )
        .prop_map(|(class, state, declared, dynamic, unserialize_array, internal)| ObjectSeed {
            class,
            state,
            declared,
            dynamic,
            unserialize_array,
            internal,
        })
}

fn arb_graph_seed() -> impl Strategy<Value = GraphSeed> {
    (
        arb_seed(),
        prop::collection::vec(arb_array(), 0..7),
        prop::collection::vec(arb_object(), 0..5),
        prop::collection::vec(arb_seed(), 0..4),
    )
        .prop_map(|(root, arrays, objects, references)| GraphSeed { root, arrays, objects, references })
}

/// Arbitrary well-formed graphs (the encoder accepts all of them).
pub fn arb_graph() -> impl Strategy<Value = Graph<'static>> {
    arb_graph_seed().prop_map(|seed| build(&seed))
}

/// Where a seed value is being placed, which limits what it may become.
#[derive(Clone, Copy)]
enum Place {
    Root,
    /// Inside array `n`: only arrays with larger ids, so arrays never contain themselves directly.
    InArray(u32),
    /// Inside a reference: never another reference.
    InReference,
    Elsewhere,
}

struct Sizes {
    arrays: u32,
    objects: u32,
    references: u32,
}

fn bytes(b: &[u8]) -> Bytes<'static> {
    Cow::Owned(b.to_vec())
}

fn value(seed: &Seed, place: Place, sizes: &Sizes) -> Value<'static> {
    match seed {
        Seed::Null => Value::Null,
        Seed::Bool(b) => Value::Bool(*b),
        Seed::Int(i) => Value::Int(*i),
        Seed::Float(f) => Value::Float(*f),
        Seed::Str(s) => Value::String(bytes(s)),
        Seed::PooledStr(i) => Value::String(bytes(POOL[*i as usize % POOL.len()])),
        Seed::Array(n) => {
            let (first, count) = match place {
                Place::InArray(me) => (me + 1, sizes.arrays.saturating_sub(me + 1)),
                _ => (0, sizes.arrays),
            };
            if count == 0 {
                Value::Null
            } else {
                Value::Array(ArrayId(first + n % count))
            }
        }
        Seed::Object(n) if sizes.objects > 0 => Value::Object(ObjectId(n % sizes.objects)),
        Seed::Reference(n) if sizes.references > 0 && !matches!(place, Place::InReference) => {
            Value::Reference(ReferenceId(n % sizes.references))
        }
        Seed::Object(_) | Seed::Reference(_) => Value::Int(7),
        Seed::Enum(i) => Value::EnumCase(Box::new(EnumCase {
            class_name: bytes(if i % 2 == 0 { b"Suit" } else { b"Pure" }),
            case_name: bytes(if i % 3 == 0 { b"Hearts" } else { b"A" }),
        })),
    }
}

fn internal(seed: &InternalSeed, sizes: &Sizes) -> InternalState<'static> {
    let v = |s: &Seed| value(s, Place::Elsewhere, sizes);
    let zone = |kind: u8, offset: i64| match kind % 3 {
        0 => TimeZoneState::Offset { utc_offset_seconds: offset },
        1 => TimeZoneState::Abbreviation {
            abbreviation: bytes(b"CEST"),
            utc_offset_seconds: offset,
            dst: offset % 2 == 0,
        },
        _ => TimeZoneState::Identifier { name: bytes(b"Europe/Paris") },
    };
    match seed {
        InternalSeed::DateTime(seconds, us, zone_kind, offset) => InternalState::DateTime(DateTimeState {
            unix_seconds: *seconds,
            microsecond: *us,
            civil: CivilDateTime {
                year: seconds / 31_556_952,
                month: 1 + (*us % 12) as u8,
                day: 1 + (*us % 28) as u8,
                hour: (*us % 24) as u8,
                minute: (*us % 60) as u8,
                second: (*us % 61) as u8,
            },
            zone: (*zone_kind != 3).then(|| zone(*zone_kind, *offset)),
        }),
        InternalSeed::Zone(kind, offset) => InternalState::DateTimeZone(zone(*kind, *offset)),
        InternalSeed::Interval(w, days, from) => InternalState::DateInterval(DateIntervalState {
            years: w[0],
            months: w[1],
            days: w[2],
            hours: w[3],
            minutes: w[4],
            seconds: w[5],
            microseconds: w[6],
            invert: w[7] % 2 == 0,
            total_days: *days,
            weekday: w[8],
            weekday_behavior: w[9],
            first_last_day_of: w[10],
            special_type: w[11],
            special_amount: w[12],
            have_weekday_relative: w[0] % 2 == 0,
            have_special_relative: w[1] % 2 == 0,
            civil_or_wall: w[2] % 2,
            from_string: from.then(|| bytes(b"last day of next month")),
        }),
        InternalSeed::ArrayStorage(storage, flags, custom) => InternalState::ArrayStorage(ArrayStorageState {
            storage: v(storage),
            flags: *flags,
            iterator_class: custom.then(|| bytes(b"MyIterator")),
        }),
        InternalSeed::FixedArray(elements) => {
            InternalState::FixedArray(FixedArrayState { elements: elements.iter().map(v).collect() })
        }
        InternalSeed::List(elements, mode) => InternalState::DoublyLinkedList(DoublyLinkedListState {
            elements: elements.iter().map(v).collect(),
            iterator_mode: *mode,
        }),
        InternalSeed::Heap(elements, flags) => {
            InternalState::Heap(HeapState { elements: elements.iter().map(v).collect(), heap_flags: *flags })
        }
        InternalSeed::PriorityQueue(entries, flags) => InternalState::PriorityQueue(PriorityQueueState {
            entries: entries.iter().map(|(d, p)| PriorityQueueEntry { data: v(d), priority: v(p) }).collect(),
            extract_flags: *flags,
            heap_flags: 0,
        }),
        InternalSeed::ObjectStorage(entries) => InternalState::ObjectStorage(ObjectStorageState {
            entries: entries
                .iter()
                .filter(|_| sizes.objects > 0)
                .map(|(o, d)| ObjectStorageEntry { object: Value::Object(ObjectId(o % sizes.objects)), data: v(d) })
                .collect(),
        }),
    }
}

/// Builds a well-formed graph from a seed.
pub fn build(seed: &GraphSeed) -> Graph<'static> {
    let sizes = Sizes {
        arrays: seed.arrays.len() as u32,
        objects: seed.objects.len() as u32,
        references: seed.references.len() as u32,
    };
    let mut graph = Graph::new(value(&seed.root, Place::Root, &sizes));
    for (index, array) in seed.arrays.iter().enumerate() {
        let place = Place::InArray(index as u32);
        let elements = if array.packed {
            ArrayElements::Packed(
                array.elements.iter().map(|(_, v)| v.as_ref().map(|v| value(v, place, &sizes))).collect(),
            )
        } else {
            ArrayElements::Hash(
                array
                    .elements
                    .iter()
                    .map(|(k, v)| {
                        let key = match k {
                            KeySeed::Int(i) => ArrayKey::Int(*i),
                            // A string PHP stores as an integer key is that key, as in PHP arrays.
                            KeySeed::Str(s) => {
                                graph_codec::integer_key(s).map_or(ArrayKey::String(bytes(s)), ArrayKey::Int)
                            }
                            KeySeed::PooledStr(i) => ArrayKey::String(bytes(POOL[*i as usize % POOL.len()])),
                        };
                        (key, v.as_ref().map_or(Value::Null, |v| value(v, place, &sizes)))
                    })
                    // A key once per array, as in every PHP array (the check refuses one named twice).
                    .fold(Vec::new(), |mut entries: Vec<(ArrayKey, Value)>, (key, v)| {
                        if !entries.iter().any(|(k, _)| *k == key) {
                            entries.push((key, v));
                        }
                        entries
                    }),
            )
        };
        graph.push_array(ArrayNode { elements, next_free_index: array.next_free_index });
    }
    for object in &seed.objects {
        let properties = Properties {
            // Each name once, as PHP declares it (the check refuses a shape naming one twice).
            declared: object
                .declared
                .iter()
                .enumerate()
                .filter(|&(i, (name, ..))| {
                    let pooled = |n: &u8| *n as usize % POOL.len();
                    !object.declared[..i].iter().any(|(before, ..)| pooled(before) == pooled(name))
                })
                .map(|(_, property)| property)
                .map(|(name, v, readonly)| DeclaredProperty {
                    mangled_name: bytes(POOL[*name as usize % POOL.len()]),
                    value: v.as_ref().map(|v| value(v, Place::Elsewhere, &sizes)),
                    readonly: *readonly,
                })
                .collect(),
            dynamic: object
                .dynamic
                .iter()
                .map(|(name, v)| (bytes(POOL[*name as usize % POOL.len()]), value(v, Place::Elsewhere, &sizes)))
                .collect(),
        };
        let state = match object.state {
            0 => ObjectState::Properties(properties),
            1 => ObjectState::PropertiesThenWakeup(properties),
            2 if sizes.arrays > 0 => ObjectState::Unserialize(ArrayId(object.unserialize_array % sizes.arrays)),
            2 => ObjectState::Properties(properties),
            _ => ObjectState::Internal { state: internal(&object.internal, &sizes), properties },
        };
        graph.push_object(ObjectNode { class_name: bytes(CLASSES[object.class as usize % CLASSES.len()]), state });
    }
    for reference in &seed.references {
        graph.push_reference(ReferenceNode { value: value(reference, Place::InReference, &sizes) });
    }
    graph
}

/// The lowest tier the encoder accepts for `graph`.
pub fn lowest_tier(graph: &Graph<'_>) -> StoreTier {
    for tier in [StoreTier::Scalar, StoreTier::SharedGraph] {
        if encode(graph, tier).is_ok() {
            return tier;
        }
    }
    StoreTier::OPcacheSerialized
}

/// Reads every reachable slot of a view (each record at most once, at most `budget` slots), returning the
/// first error. Exercises the in-place accessors on arbitrary bytes.
pub fn walk_view(bytes: &[u8], budget: usize) -> Result<usize, DecodeError> {
    let view = GraphView::new(bytes)?;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![view.root()?];
    let mut visited = 0;
    while let Some(slot) = stack.pop() {
        visited += 1;
        if visited > budget {
            break;
        }
        match slot {
            SlotView::Array(array) if seen.insert(array.offset) => {
                for i in 0..array.len.min(budget as u64) {
                    if array.is_packed {
                        stack.push(array.packed_slot(i)?);
                    } else {
                        stack.push(array.hash_entry(i)?.1);
                    }
                }
            }
            SlotView::Object(object) if seen.insert(object.offset) => {
                object.class_name()?;
                for i in 0..object.declared_len.min(budget as u32) {
                    stack.push(object.declared(i)?.value);
                }
                for i in 0..object.dynamic_len.min(budget as u64) {
                    stack.push(object.dynamic(i)?.1);
                }
                match object.state {
                    ObjectStateKind::Unserialize => stack.push(SlotView::Array(object.unserialize_data()?)),
                    ObjectStateKind::Internal => object.internal_state()?.for_each_value(|v| stack.push(*v)),
                    _ => {}
                }
            }
            SlotView::Reference(reference) if seen.insert(reference.offset) => stack.push(reference.value()?),
            _ => {}
        }
    }
    Ok(visited)
}
