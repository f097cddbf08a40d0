//! graph-codec encode/decode cost at 10k, 100k and 1M elements, reported per element (throughput), so
//! linear cost shows as a flat elements/second across sizes. `check` and `check_read` are the read
//! path's view step (checking a stored value once, then reading it by record number).
//!
//! Run: `cargo bench -p benches --bench codec`.

use std::borrow::Cow;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use graph_codec::{
    decode, encode, ArrayElements, ArrayId, ArrayKey, ArrayNode, CheckedGraph, CheckedSlot, DeclaredProperty, Graph,
    GraphView, ObjectId, ObjectNode, ObjectState, Properties, SlotView, StoreTier, Value,
};

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];
/// Builds an input graph of the given number of elements.
type InputBuilder = fn(usize) -> Graph<'static>;

const FIELDS: [&str; 5] = ["id", "name", "email", "score", "active"];

/// A packed list of `elements` scalars: ints, floats and strings (a tenth of them distinct).
fn scalar_list(elements: usize) -> Graph<'static> {
    let mut graph = Graph::new(Value::Null);
    let slots = (0..elements)
        .map(|i| {
            Some(match i % 3 {
                0 => Value::Int(i as i64),
                1 => Value::Float(i as f64 * 0.5),
                _ => Value::String(Cow::Owned(format!("item-{}", i / 10).into_bytes())),
            })
        })
        .collect();
    let list = graph.push_array(ArrayNode { elements: ArrayElements::Packed(slots), next_free_index: elements as i64 });
    graph.root = Value::Array(list);
    graph
}

/// `elements / 5` objects of one class with five properties each (so `elements` property values), or the
/// same data as hash arrays.
fn record_list(elements: usize, as_objects: bool) -> Graph<'static> {
    let mut graph = Graph::new(Value::Null);
    let rows = elements / FIELDS.len();
    let mut slots = Vec::with_capacity(rows);
    for i in 0..rows {
        let values = [
            Value::Int(i as i64),
            Value::String(Cow::Owned(format!("user-{i}").into_bytes())),
            Value::String(Cow::Owned(format!("user-{i}@example.com").into_bytes())),
            Value::Float(i as f64 / 7.0),
            Value::Bool(i % 3 == 0),
        ];
        if as_objects {
            let declared = FIELDS
                .iter()
                .zip(values)
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
        } else {
            let entries = FIELDS
                .iter()
                .zip(values)
                .map(|(name, value)| (ArrayKey::String(Cow::Borrowed(name.as_bytes())), value))
                .collect();
            let array =
                graph.push_array(ArrayNode { elements: ArrayElements::Hash(entries), next_free_index: i64::MIN });
            slots.push(Some(Value::Array(array)));
        }
    }
    let list = graph.push_array(ArrayNode { elements: ArrayElements::Packed(slots), next_free_index: rows as i64 });
    graph.root = Value::Array(list);
    graph
}

/// Sums every int reachable from the root through the in-place view only. Scalars are consumed where they
/// are read; only containers go on the stack, as a zval builder would recurse into them.
fn walk_ints(bytes: &[u8]) -> i64 {
    fn take<'a>(slot: SlotView<'a>, total: &mut i64, stack: &mut Vec<SlotView<'a>>) {
        match slot {
            SlotView::Int(i) => *total = total.wrapping_add(i),
            SlotView::Array(_) | SlotView::Object(_) => stack.push(slot),
            _ => {}
        }
    }
    let view = GraphView::new(bytes).expect("valid");
    let mut total = 0i64;
    let mut stack = Vec::new();
    take(view.root().expect("root"), &mut total, &mut stack);
    while let Some(slot) = stack.pop() {
        match slot {
            SlotView::Array(array) => {
                for i in 0..array.len {
                    let slot = if array.is_packed {
                        array.packed_slot(i).expect("slot")
                    } else {
                        array.hash_entry(i).expect("entry").1
                    };
                    take(slot, &mut total, &mut stack);
                }
            }
            SlotView::Object(object) => {
                for i in 0..object.declared_len {
                    take(object.declared(i).expect("property").value, &mut total, &mut stack);
                }
            }
            _ => {}
        }
    }
    total
}

/// Checks `bytes` and reads every record by number, as the binding builds its blueprint: plain
/// arrays first, then every array entry and object property; returns the sum of the ints read.
fn read_checked(bytes: &[u8]) -> i64 {
    let checked = CheckedGraph::check(bytes).expect("checks");
    let plain = checked.plain_arrays();
    let mut total = plain.iter().filter(|&&p| p).count() as i64;
    let mut take = |slot: CheckedSlot<'_>| {
        if let CheckedSlot::Int(i) = slot {
            total = total.wrapping_add(i);
        }
    };
    for id in 0..checked.array_count() {
        let array = checked.array(ArrayId(id as u32)).expect("array");
        for i in 0..array.len() {
            take(array.value(i).expect("value"));
        }
    }
    for id in 0..checked.object_count() {
        let object = checked.object(ObjectId(id as u32)).expect("object");
        for i in 0..object.declared_len() {
            take(object.declared(i).expect("property"));
        }
    }
    total
}

fn codec(c: &mut Criterion) {
    let inputs: [(&str, InputBuilder); 3] =
        [("scalars", scalar_list), ("objects", |n| record_list(n, true)), ("arrays", |n| record_list(n, false))];
    for (name, build) in inputs {
        let mut group = c.benchmark_group(format!("codec/{name}"));
        group.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
        for elements in SIZES {
            let graph = build(elements);
            let bytes = encode(&graph, StoreTier::SharedGraph).expect("encodes");
            group.throughput(Throughput::Elements(elements as u64));
            group.bench_with_input(BenchmarkId::new("encode", elements), &graph, |b, graph| {
                b.iter(|| encode(black_box(graph), StoreTier::SharedGraph).expect("encodes").len())
            });
            group.bench_with_input(BenchmarkId::new("decode", elements), &bytes, |b, bytes| {
                b.iter(|| decode(black_box(bytes)).expect("decodes").graph.arrays.len())
            });
            group.bench_with_input(BenchmarkId::new("view_walk", elements), &bytes, |b, bytes| {
                b.iter(|| walk_ints(black_box(bytes)))
            });
            // The read path's view step: check once, then read every record by number.
            group.bench_with_input(BenchmarkId::new("check", elements), &bytes, |b, bytes| {
                b.iter(|| CheckedGraph::check(black_box(bytes)).expect("checks").array_count())
            });
            group.bench_with_input(BenchmarkId::new("check_read", elements), &bytes, |b, bytes| {
                b.iter(|| read_checked(black_box(bytes)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, codec);
criterion_main!(benches);
