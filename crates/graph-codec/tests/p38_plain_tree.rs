//! The one-pass check of small trees of object-free arrays (`PlainTree::check`), which the binding uses
//! on the first read of a version instead of `CheckedGraph::check`: every tree of arrays within its
//! limits is accepted and read as `decode` reads it; and a buffer it accepts, however damaged (bit flips,
//! rewritten words, array and string slots pointed elsewhere with the flags and depth made to agree), is
//! one `CheckedGraph::check` accepts, read exactly as `decode` reads it.

use std::borrow::Cow;

use graph_codec::*;
use proptest::prelude::*;

mod damage;
use damage::*;

const WORDS: [&str; 6] = ["id", "name", "a", "b", "item7", ""];

fn scalar(rng: &mut Seeded) -> Value<'static> {
    match rng.below(7) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 1),
        2 => Value::Int(rng.next() as i64 - (1 << 30)),
        3 => Value::Float(f64::from_bits(rng.next() << 20)),
        // Strings repeat across the tree, as keys and as values.
        _ => Value::String(Cow::Borrowed(WORDS[rng.below(WORDS.len() as u64) as usize].as_bytes())),
    }
}

/// Array `graph.arrays` gets a new tree of arrays at most `depth` deep, of about `budget` entries.
fn array(rng: &mut Seeded, graph: &mut Graph<'static>, depth: u32, budget: &mut u32) -> Value<'static> {
    let id = graph.arrays.len();
    graph.arrays.push(ArrayNode { elements: ArrayElements::Packed(vec![]), next_free_index: 0 });
    let len = rng.below(6).min(u64::from(*budget));
    *budget -= len as u32;
    let value = |rng: &mut Seeded, graph: &mut Graph<'static>, budget: &mut u32| {
        if depth > 1 && rng.below(4) == 0 {
            array(rng, graph, depth - 1, budget)
        } else {
            scalar(rng)
        }
    };
    let (elements, next_free_index) = if rng.below(2) == 0 {
        let slots: Vec<Option<Value<'static>>> =
            (0..len).map(|_| (rng.below(5) != 0).then(|| value(rng, graph, budget))).collect();
        (ArrayElements::Packed(slots), len as i64 + rng.below(3) as i64)
    } else {
        let mut entries = vec![];
        for i in 0..len {
            let key = match rng.below(3) {
                0 => ArrayKey::Int(i as i64 * 3 - 2),
                _ => ArrayKey::String(Cow::Owned(format!("{}{i}", WORDS[rng.below(5) as usize]).into_bytes())),
            };
            entries.push((key, value(rng, graph, budget)));
        }
        (ArrayElements::Hash(entries), [i64::MIN, 0, 40][rng.below(3) as usize])
    };
    graph.arrays[id] = ArrayNode { elements, next_free_index };
    Value::Array(ArrayId(id as u32))
}

fn plain_tree(seed: u64) -> Vec<u8> {
    let mut rng = Seeded(seed);
    let mut graph = Graph::new(Value::Null);
    let mut budget = 40;
    graph.root = array(&mut rng, &mut graph, 4, &mut budget);
    encode(&graph, StoreTier::SharedGraph).expect("a tree of arrays encodes")
}

/// The model of what `PlainTree::check` read (arrays by id, as `decode` numbers them).
fn model_of(tree: &PlainTree<'_>) -> Graph<'static> {
    let string = |id: u32| Cow::Owned(tree.string(id).0.to_vec());
    let value = |slot: PlainSlot| match slot {
        PlainSlot::Undef => None,
        PlainSlot::Null => Some(Value::Null),
        PlainSlot::Bool(b) => Some(Value::Bool(b)),
        PlainSlot::Int(i) => Some(Value::Int(i)),
        PlainSlot::Float(f) => Some(Value::Float(f)),
        PlainSlot::String(id) => Some(Value::String(string(id))),
        PlainSlot::Array(id) => Some(Value::Array(ArrayId(id))),
    };
    let mut graph = Graph::new(Value::Array(ArrayId(tree.root())));
    for id in 0..tree.array_count() as u32 {
        let array = tree.array(id);
        let entries = tree.entries(array);
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
    graph
}

/// Whatever `PlainTree::check` accepts, the general check accepts, and both read the same value; the
/// strings' hashes are the ones PHP computes; every array comes after the arrays it holds.
fn agrees(bytes: &[u8]) -> bool {
    let Some((model, hashes_right, children_first)) = PlainTree::check(bytes, |tree| {
        let hashes_right =
            (0..tree.string_count() as u32).all(|id| zend_string_hash(tree.string(id).0) == tree.string(id).1);
        let mut seen = vec![false; tree.array_count()];
        let children_first = tree.arrays_children_first().iter().all(|&id| {
            let array = tree.array(u32::from(id));
            let holds_unseen = tree
                .entries(array)
                .iter()
                .any(|(_, slot)| matches!(slot, PlainSlot::Array(child) if !seen[*child as usize]));
            seen[usize::from(id)] = true;
            !holds_unseen
        }) && seen.iter().all(|&s| s);
        (model_of(tree), hashes_right, children_first)
    }) else {
        return false;
    };
    let decoded = decode(bytes).expect("a buffer the plain check accepts passes the general check");
    assert_eq!(decoded.graph, model, "read as decode reads it");
    assert!(hashes_right && children_first);
    true
}

#[test]
fn the_first_read_value_is_a_plain_tree() {
    let mut graph = Graph::new(Value::Array(ArrayId(0)));
    let key = |k: &'static str| ArrayKey::String(Cow::Borrowed(k.as_bytes()));
    graph.arrays.push(ArrayNode {
        elements: ArrayElements::Hash(vec![
            (key("id"), Value::Int(7)),
            (key("name"), Value::String(Cow::Borrowed(b"item7"))),
            (key("round"), Value::Int(3)),
            (key("tags"), Value::Array(ArrayId(1))),
        ]),
        next_free_index: i64::MIN,
    });
    graph.arrays.push(ArrayNode {
        elements: ArrayElements::Packed(vec![
            Some(Value::String(Cow::Borrowed(b"a"))),
            Some(Value::String(Cow::Borrowed(b"b"))),
        ]),
        next_free_index: 2,
    });
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    assert!(agrees(&bytes));
    // The same array twice (shared) is not a tree: the general check reads it.
    graph.arrays[0].elements =
        ArrayElements::Packed(vec![Some(Value::Array(ArrayId(1))), Some(Value::Array(ArrayId(1)))]);
    let bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    assert!(CheckedGraph::check(&bytes).is_ok());
    assert!(PlainTree::check(&bytes, |_| ()).is_none());
}

#[test]
fn a_key_repeated_is_refused() {
    let mut graph = Graph::new(Value::Array(ArrayId(0)));
    graph.arrays.push(ArrayNode {
        elements: ArrayElements::Hash(vec![
            (ArrayKey::String(Cow::Borrowed(b"k")), Value::Int(1)),
            (ArrayKey::String(Cow::Borrowed(b"j")), Value::Int(2)),
        ]),
        next_free_index: i64::MIN,
    });
    let mut bytes = encode(&graph, StoreTier::SharedGraph).unwrap();
    assert!(agrees(&bytes));
    // Point the second key at the first key's string.
    let strings = slots_with_tag(&bytes, 6);
    let first = bytes[strings[0] + 8..strings[0] + 16].to_vec();
    let second = strings.iter().copied().find(|&at| bytes[at + 8..at + 16] != first[..]).unwrap();
    bytes[second + 8..second + 16].copy_from_slice(&first);
    assert!(CheckedGraph::check(&bytes).is_err());
    assert!(PlainTree::check(&bytes, |_| ()).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn trees_within_the_limits_are_accepted_and_read_as_decode_reads_them(seed in any::<u64>()) {
        let bytes = plain_tree(seed);
        let decoded = decode(&bytes).unwrap();
        let entries: usize = decoded.graph.arrays.iter().map(|a| a.elements.slot_count()).sum();
        let within = decoded.header.string_count <= 32 && decoded.graph.arrays.len() <= 8 && entries <= 48;
        prop_assert_eq!(agrees(&bytes), within);
    }

    #[test]
    fn damaged_trees_it_accepts_are_accepted_by_the_general_check(
        seed in any::<u64>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 0u8..8), 1..4),
    ) {
        let mut bytes = plain_tree(seed);
        flip_bits(&mut bytes, &flips);
        agrees(&bytes);
    }

    #[test]
    fn rewritten_words_it_accepts_are_accepted_by_the_general_check(
        seed in any::<u64>(),
        rewrites in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<u64>()), 1..3),
    ) {
        let mut bytes = plain_tree(seed);
        rewrite_words(&mut bytes, &rewrites);
        agrees(&bytes);
    }

    #[test]
    fn slots_pointed_elsewhere_it_accepts_are_accepted_by_the_general_check(
        seed in any::<u64>(),
        moves in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<bool>()), 1..3),
    ) {
        let mut bytes = plain_tree(seed);
        // An array slot (or a string slot) given another slot's target of the same kind; then the flags
        // and depth made to agree.
        point_slots_elsewhere(&mut bytes, moves.into_iter().map(|(from, to, arrays)| (from, to, if arrays { 7 } else { 6 })));
        settle(&mut bytes, &[4, 12, 0], 0..=8, |b| PlainTree::check(b, |_| ()).is_some());
        agrees(&bytes);
    }
}
