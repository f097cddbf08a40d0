//! The one-pass check of small trees of plain objects and arrays (`SmallGraph::check`), which the binding
//! uses on the first read of a version instead of `CheckedGraph::check`: every such tree within its limits
//! is accepted and read as `decode` reads it; and a buffer it accepts, however damaged (bit flips,
//! rewritten words, object, array and string slots pointed elsewhere with the flags and depth made to
//! agree), is one `CheckedGraph::check` accepts, read exactly as `decode` reads it, and one the header hint
//! `small_graph::likely_small` lets through.

use std::borrow::Cow;

use graph_codec::*;
use proptest::prelude::*;

mod damage;
use damage::*;

const WORDS: [&str; 6] = ["id", "name", "a", "b", "item7", ""];
const CLASSES: [(&str, &[&str]); 3] =
    [("Dto", &["id", "name", "\0*\0round"]), ("stdClass", &[]), ("App\\User", &["id"])];

fn text(t: &'static str) -> Value<'static> {
    Value::String(Cow::Borrowed(t.as_bytes()))
}

fn scalar(rng: &mut Seeded) -> Value<'static> {
    match rng.below(7) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 1),
        2 => Value::Int(rng.next() as i64 - (1 << 30)),
        3 => Value::Float(f64::from_bits(rng.next() << 20)),
        _ => text(WORDS[rng.below(WORDS.len() as u64) as usize]),
    }
}

/// A value at most `depth` deep: a scalar, or (while `budget` lasts) an array or an object.
fn value(rng: &mut Seeded, graph: &mut Graph<'static>, depth: u32, budget: &mut u32, dynamic: bool) -> Value<'static> {
    if depth > 1 && *budget > 0 && rng.below(3) == 0 {
        return node(rng, graph, depth - 1, budget, dynamic);
    }
    scalar(rng)
}

/// A new array or object at most `depth` deep (objects with dynamic properties only where `dynamic`).
fn node(rng: &mut Seeded, graph: &mut Graph<'static>, depth: u32, budget: &mut u32, dynamic: bool) -> Value<'static> {
    *budget = budget.saturating_sub(1);
    if rng.below(3) == 0 {
        let id = graph.arrays.len();
        graph.arrays.push(ArrayNode { elements: ArrayElements::Packed(vec![]), next_free_index: 0 });
        let len = rng.below(5);
        let elements = if rng.below(2) == 0 {
            let slots = (0..len)
                .map(|_| (rng.below(5) != 0).then(|| value(rng, graph, depth, budget, dynamic)))
                .collect::<Vec<_>>();
            ArrayElements::Packed(slots)
        } else {
            let mut entries = vec![];
            for i in 0..len {
                let key = match rng.below(3) {
                    0 => ArrayKey::Int(i as i64 * 3 - 2),
                    _ => ArrayKey::String(Cow::Owned(format!("{}{i}", WORDS[rng.below(5) as usize]).into_bytes())),
                };
                entries.push((key, value(rng, graph, depth, budget, dynamic)));
            }
            ArrayElements::Hash(entries)
        };
        graph.arrays[id] = ArrayNode { elements, next_free_index: len as i64 };
        return Value::Array(ArrayId(id as u32));
    }
    let id = graph.objects.len();
    graph.objects.push(ObjectNode {
        class_name: Cow::Borrowed(b""),
        state: ObjectState::Properties(Properties { declared: vec![], dynamic: vec![] }),
    });
    let (class, names) = CLASSES[rng.below(3) as usize];
    let declared = names
        .iter()
        .map(|name| DeclaredProperty {
            mangled_name: Cow::Borrowed(name.as_bytes()),
            value: (rng.below(6) != 0).then(|| value(rng, graph, depth, budget, dynamic)),
            readonly: false,
        })
        .collect();
    let dynamic_properties = if dynamic {
        (0..rng.below(4))
            .map(|i| (Cow::Owned(format!("p{i}").into_bytes()), value(rng, graph, depth, budget, dynamic)))
            .collect()
    } else {
        vec![]
    };
    graph.objects[id] = ObjectNode {
        class_name: Cow::Borrowed(class.as_bytes()),
        state: ObjectState::Properties(Properties { declared, dynamic: dynamic_properties }),
    };
    Value::Object(ObjectId(id as u32))
}

/// A small tree with an object in it, in `SharedGraph` (declared properties only) or `OPcacheSerialized`.
fn small_graph(seed: u64) -> Vec<u8> {
    let mut rng = Seeded(seed);
    let dynamic = rng.below(2) == 0;
    loop {
        let mut graph = Graph::new(Value::Null);
        let mut budget = 10;
        graph.root = node(&mut rng, &mut graph, 4, &mut budget, dynamic);
        if !graph.objects.is_empty() {
            let tier = if dynamic { StoreTier::OPcacheSerialized } else { StoreTier::SharedGraph };
            return encode(&graph, tier).expect("a tree of plain objects encodes");
        }
    }
}

/// The model of what `SmallGraph::check` read (arrays and objects by id, as `decode` numbers them).
fn model_of(g: &SmallGraph<'_>) -> Graph<'static> {
    let string = |id: u32| Cow::Owned(g.string(id).0.to_vec());
    let value = |slot: SmallSlot| match slot {
        SmallSlot::Undef => None,
        SmallSlot::Null => Some(Value::Null),
        SmallSlot::Bool(b) => Some(Value::Bool(b)),
        SmallSlot::Int(i) => Some(Value::Int(i)),
        SmallSlot::Float(f) => Some(Value::Float(f)),
        SmallSlot::String(id) => Some(Value::String(string(id))),
        SmallSlot::Array(id) => Some(Value::Array(ArrayId(id))),
        SmallSlot::Object(id) => Some(Value::Object(ObjectId(id))),
    };
    let mut graph = Graph::new(value(g.root()).unwrap_or(Value::Null));
    for id in 0..g.array_count() as u32 {
        let array = g.array(id);
        let entries = g.entries(array);
        let elements = if array.packed {
            ArrayElements::Packed(entries.iter().map(|&(_, slot)| value(slot)).collect())
        } else {
            ArrayElements::Hash(
                entries
                    .iter()
                    .map(|&(key, slot)| {
                        let key = match key {
                            PlainKey::Int(i) => ArrayKey::Int(i),
                            PlainKey::String(id) => ArrayKey::String(string(id)),
                        };
                        (key, value(slot).unwrap_or(Value::Null))
                    })
                    .collect(),
            )
        };
        graph.arrays.push(ArrayNode { elements, next_free_index: array.next_free_index });
    }
    for id in 0..g.object_count() as u32 {
        let object = g.object(id);
        let shape = g.shape(object.shape);
        let names = g.property_names(shape);
        let declared = names
            .iter()
            .zip(g.declared(object))
            .map(|(&name, slot)| DeclaredProperty { mangled_name: string(name), value: value(slot), readonly: false })
            .collect();
        let dynamic =
            g.dynamic(object).map(|(name, slot)| (string(name), value(slot).unwrap_or(Value::Null))).collect();
        graph.objects.push(ObjectNode {
            class_name: string(shape.class_name),
            state: ObjectState::Properties(Properties { declared, dynamic }),
        });
    }
    graph
}

/// The readonly flags, which the check reads but the builder does not use, cleared.
fn without_readonly<'a>(mut graph: Graph<'a>) -> Graph<'a> {
    for object in &mut graph.objects {
        if let ObjectState::Properties(p) = &mut object.state {
            p.declared.iter_mut().for_each(|d| d.readonly = false);
        }
    }
    graph
}

/// Whatever `SmallGraph::check` accepts, the general check accepts, and both read the same value; the
/// strings' hashes are the ones PHP computes; every array comes after the arrays it holds; an array is
/// plain exactly when it holds no object at any depth.
fn agrees(bytes: &[u8]) -> bool {
    let Some((model, facts_right, tier)) = SmallGraph::check(bytes, |g| {
        let hashes = (0..g.string_count() as u32).all(|id| zend_string_hash(g.string(id).0) == g.string(id).1);
        let mut seen = vec![false; g.array_count()];
        let children_first = g.arrays_children_first().iter().all(|&id| {
            let array = g.array(u32::from(id));
            let holds_unseen = g
                .entries(array)
                .iter()
                .any(|(_, slot)| matches!(slot, SmallSlot::Array(child) if !seen[*child as usize]));
            seen[usize::from(id)] = true;
            !holds_unseen
        }) && seen.iter().all(|&s| s);
        (model_of(g), hashes && children_first, g.tier())
    }) else {
        return false;
    };
    // The header hint a reader asks first (`small_graph::likely_small`) refuses none of them.
    assert!(small_graph::likely_small(bytes), "a buffer the small-graph check accepts is likely small");
    let decoded = decode(bytes).expect("a buffer the small-graph check accepts passes the general check");
    assert_eq!(without_readonly(decoded.graph.clone()), model, "read as decode reads it");
    assert_eq!(decoded.header.tier, tier);
    assert!(facts_right);
    let checked = CheckedGraph::check(bytes).unwrap();
    let plain =
        SmallGraph::check(bytes, |g| (0..g.array_count() as u32).map(|id| g.array(id).plain).collect::<Vec<_>>());
    assert_eq!(Some(checked.plain_arrays().to_vec()), plain, "plain arrays as the general check finds them");
    true
}

fn dto(graph: &mut Graph<'static>, id: i64) -> Value<'static> {
    let property = |name: &'static str, value| DeclaredProperty {
        mangled_name: Cow::Borrowed(name.as_bytes()),
        value,
        readonly: false,
    };
    Value::Object(graph.push_object(ObjectNode {
        class_name: Cow::Borrowed(b"Dto"),
        state: ObjectState::Properties(Properties {
            declared: vec![
                property("id", Some(Value::Int(id))),
                property("name", Some(text("item7"))),
                property("score", None),
            ],
            dynamic: vec![],
        }),
    }))
}

#[test]
fn a_dto_a_std_class_and_a_list_of_dtos_are_small_graphs() {
    let mut graph = Graph::new(Value::Null);
    graph.root = dto(&mut graph, 7);
    assert!(agrees(&encode(&graph, StoreTier::SharedGraph).unwrap()));

    let mut graph = Graph::new(Value::Null);
    let object = graph.push_object(ObjectNode {
        class_name: Cow::Borrowed(b"stdClass"),
        state: ObjectState::Properties(Properties {
            declared: vec![],
            dynamic: vec![(Cow::Borrowed(b"id"), Value::Int(1)), (Cow::Borrowed(b"name"), text("item1"))],
        }),
    });
    graph.root = Value::Object(object);
    assert!(agrees(&encode(&graph, StoreTier::OPcacheSerialized).unwrap()));

    let mut graph = Graph::new(Value::Null);
    let items: Vec<_> = (0..3).map(|i| Some(dto(&mut graph, i))).collect();
    graph.root =
        Value::Array(graph.push_array(ArrayNode { elements: ArrayElements::Packed(items), next_free_index: 3 }));
    assert!(agrees(&encode(&graph, StoreTier::SharedGraph).unwrap()));
}

#[test]
fn shared_objects_hooks_and_arrays_alone_are_left_to_the_general_check() {
    // The same object twice.
    let mut graph = Graph::new(Value::Null);
    let object = dto(&mut graph, 1);
    graph.root = Value::Array(graph.push_array(ArrayNode {
        elements: ArrayElements::Packed(vec![Some(object.clone()), Some(object)]),
        next_free_index: 2,
    }));
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    assert!(CheckedGraph::check(&bytes).is_ok());
    assert!(SmallGraph::check(&bytes, |_| ()).is_none());
    // An object restored through `__wakeup()`.
    let mut graph = Graph::new(Value::Null);
    graph.root = dto(&mut graph, 1);
    if let ObjectState::Properties(p) = graph.objects[0].state.clone() {
        graph.objects[0].state = ObjectState::PropertiesThenWakeup(p);
    }
    let bytes = encode(&graph, StoreTier::OPcacheSerialized).unwrap();
    assert!(CheckedGraph::check(&bytes).is_ok());
    assert!(SmallGraph::check(&bytes, |_| ()).is_none());
    // No object: the plain-tree check's.
    let mut graph = Graph::new(Value::Null);
    graph.root =
        Value::Array(graph.push_array(ArrayNode { elements: ArrayElements::Packed(vec![]), next_free_index: 0 }));
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    assert!(SmallGraph::check(&bytes, |_| ()).is_none());
}

#[test]
fn a_dynamic_property_in_a_shared_graph_is_refused() {
    // A stdClass stored as `OPcacheSerialized`, its header's tier rewritten to `SharedGraph`: the general
    // check refuses it (no dynamic property in that tier), and so does this one.
    let mut graph = Graph::new(Value::Null);
    let object = graph.push_object(ObjectNode {
        class_name: Cow::Borrowed(b"stdClass"),
        state: ObjectState::Properties(Properties {
            declared: vec![],
            dynamic: vec![(Cow::Borrowed(b"id"), Value::Int(1))],
        }),
    });
    graph.root = Value::Object(object);
    let mut bytes = encode(&graph, StoreTier::OPcacheSerialized).unwrap();
    assert!(agrees(&bytes));
    let shared = encode(&Graph::new(Value::Null), StoreTier::SharedGraph).unwrap();
    bytes[6] = shared[6];
    assert!(CheckedGraph::check(&bytes).is_err());
    assert!(SmallGraph::check(&bytes, |_| ()).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn trees_within_the_limits_are_accepted_and_read_as_decode_reads_them(seed in any::<u64>()) {
        let bytes = small_graph(seed);
        let decoded = decode(&bytes).unwrap();
        let g = &decoded.graph;
        let slots: usize = g.arrays.iter().map(|a| a.elements.slot_count()).sum::<usize>()
            + g.objects.iter().map(|o| match &o.state {
                ObjectState::Properties(p) => p.declared.len() + p.dynamic.len(),
                _ => 0,
            }).sum::<usize>();
        let within = decoded.header.string_count <= 32 && g.arrays.len() + g.objects.len() <= 16 && slots <= 64;
        prop_assert_eq!(agrees(&bytes), within);
    }

    #[test]
    fn damaged_trees_it_accepts_are_accepted_by_the_general_check(
        seed in any::<u64>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 0u8..8), 1..4),
    ) {
        let mut bytes = small_graph(seed);
        flip_bits(&mut bytes, &flips);
        agrees(&bytes);
    }

    #[test]
    fn every_word_nudged_it_accepts_is_accepted_by_the_general_check(seed in any::<u64>()) {
        // Each word of the buffer in turn, one up, one down, its low bit and its top bit flipped: a count,
        // a length, an offset or a tag just off (no word goes unvisited, as random damage may leave one).
        let bytes = small_graph(seed);
        for at in (0..bytes.len() / 8).map(|w| w * 8) {
            let word = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
            for nudged in [word.wrapping_add(1), word.wrapping_sub(1), word ^ 1, word ^ (1 << 63)] {
                let mut damaged = bytes.clone();
                damaged[at..at + 8].copy_from_slice(&nudged.to_le_bytes());
                agrees(&damaged);
            }
        }
    }

    #[test]
    fn rewritten_words_it_accepts_are_accepted_by_the_general_check(
        seed in any::<u64>(),
        rewrites in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<u64>()), 1..3),
    ) {
        let mut bytes = small_graph(seed);
        rewrite_words(&mut bytes, &rewrites);
        agrees(&bytes);
    }

    #[test]
    fn slots_pointed_elsewhere_it_accepts_are_accepted_by_the_general_check(
        seed in any::<u64>(),
        moves in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0u8..3), 1..3),
    ) {
        let mut bytes = small_graph(seed);
        // An object, array or string slot given another slot's target of the same kind; then the flags
        // and depth made to agree.
        point_slots_elsewhere(&mut bytes, moves.into_iter().map(|(from, to, kind)| (from, to, [8, 7, 6][kind as usize])));
        settle(&mut bytes, &[1, 9, 17, 3, 0], 0..=12, |b| SmallGraph::check(b, |_| ()).is_some());
        agrees(&bytes);
    }
}
