//! graph-codec and shm-core together: encoded value graphs stored in a backend, read in place and
//! decoded by other processes while a writer keeps replacing them. Runs single-threaded (it forks).

#[path = "support/mod.rs"]
mod support;

use graph_codec::{
    decode, encode, ArrayElements, ArrayKey, ArrayNode, DeclaredProperty, Graph, GraphView, ObjectNode, ObjectState,
    Properties, ReferenceNode, StoreTier, Value,
};
use shm_core::{PartitionSpec, Segment};
use std::borrow::Cow;
use std::time::{Duration, Instant};
use support::fork;

/// A graph with a shared object, a PHP reference and `n` rows, distinct per `seed`.
fn sample_graph(seed: i64, n: usize) -> Graph<'static> {
    let mut g = Graph::new(Value::Null);
    let obj = g.push_object(ObjectNode {
        class_name: Cow::Borrowed(b"Box"),
        state: ObjectState::Properties(Properties {
            declared: vec![DeclaredProperty {
                mangled_name: Cow::Borrowed(b"seed"),
                value: Some(Value::Int(seed)),
                readonly: false,
            }],
            dynamic: vec![],
        }),
    });
    let r = g.push_reference(ReferenceNode { value: Value::String(Cow::Owned(format!("ref{seed}").into_bytes())) });
    let rows: Vec<Option<Value<'static>>> = (0..n).map(|i| Some(Value::Int(seed * 1000 + i as i64))).collect();
    let list = g.push_array(ArrayNode { elements: ArrayElements::Packed(rows), next_free_index: n as i64 });
    let root = g.push_array(ArrayNode {
        elements: ArrayElements::Hash(vec![
            (ArrayKey::String(Cow::Borrowed(b"a")), Value::Object(obj)),
            (ArrayKey::String(Cow::Borrowed(b"b")), Value::Object(obj)),
            (ArrayKey::String(Cow::Borrowed(b"alias1")), Value::Reference(r)),
            (ArrayKey::String(Cow::Borrowed(b"alias2")), Value::Reference(r)),
            (ArrayKey::Int(7), Value::Array(list)),
        ]),
        next_free_index: 8,
    });
    g.root = Value::Array(root);
    g
}

fn check(cond: bool, what: &str) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(what.into())
    }
}

fn a_graph_stored_by_one_process_decodes_identically_in_another() -> Result<(), String> {
    let seg =
        Segment::create_anonymous(&[PartitionSpec { name: "p".into(), volatile_bytes: 8 << 20, pinned_bytes: 0 }])
            .map_err(|e| e.to_string())?;
    let v = seg.partition("p").unwrap().volatile.unwrap();
    let graph = sample_graph(1, 500);
    let bytes = encode(&graph, StoreTier::SharedGraph).map_err(|e| format!("{e:?}"))?;
    v.store(b"g", 20, &bytes, 0).map_err(|e| format!("{e:?}"))?;
    let vc = v.clone();
    let child = fork(move || {
        let Some(e) = vc.get(b"g") else { return 2 };
        let Ok(view) = GraphView::new(e.value()) else { return 3 };
        if !view.header().contains_objects() || !view.header().contains_shared() {
            return 4;
        }
        match decode(e.value()) {
            Ok(d) if d.graph == sample_graph(1, 500) => 0,
            _ => 5,
        }
    });
    check(child.wait() == 0, "the child did not read back the same graph")
}

fn readers_decoding_in_place_never_see_a_torn_graph_while_a_writer_replaces_it() -> Result<(), String> {
    let seg =
        Segment::create_anonymous(&[PartitionSpec { name: "p".into(), volatile_bytes: 8 << 20, pinned_bytes: 0 }])
            .map_err(|e| e.to_string())?;
    let v = seg.partition("p").unwrap().volatile.unwrap();
    let first = encode(&sample_graph(0, 100), StoreTier::SharedGraph).map_err(|e| format!("{e:?}"))?;
    v.store(b"g", 20, &first, 0).map_err(|e| format!("{e:?}"))?;
    let deadline = Instant::now() + Duration::from_millis(1200);
    let vc = v.clone();
    let writer = fork(move || {
        let mut seed = 1;
        while Instant::now() < deadline {
            let g = sample_graph(seed, 50 + (seed as usize * 37) % 2000);
            let Ok(bytes) = encode(&g, StoreTier::SharedGraph) else { return 2 };
            if vc.store(b"g", 20, &bytes, 0).is_err() {
                return 3;
            }
            seed += 1;
        }
        0
    });
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let vc = v.clone();
            fork(move || {
                let mut reads = 0;
                while Instant::now() < deadline {
                    let Some(e) = vc.get(b"g") else { return 2 };
                    let Ok(d) = decode(e.value()) else { return 3 };
                    // Every decoded graph must be exactly one of the writer's graphs.
                    let Value::Array(root) = d.graph.root else { return 4 };
                    let ArrayElements::Hash(entries) = &d.graph.arrays[root.index()].elements else { return 5 };
                    let Value::Array(list) = entries[4].1 else { return 6 };
                    let ArrayElements::Packed(rows) = &d.graph.arrays[list.index()].elements else { return 7 };
                    let Some(Some(Value::Int(first))) = rows.first() else { return 8 };
                    let seed = first / 1000;
                    if d.graph != sample_graph(seed, rows.len()) {
                        return 9;
                    }
                    reads += 1;
                }
                if reads > 0 {
                    0
                } else {
                    10
                }
            })
        })
        .collect();
    check(writer.wait() == 0, "writer failed")?;
    for r in readers {
        let code = r.wait();
        check(code == 0, &format!("a reader saw a torn or foreign graph (code {code})"))?;
    }
    v.verify()?;
    Ok(())
}

fn main() {
    let scenarios: &[support::Scenario] = &[
        (
            "a_graph_stored_by_one_process_decodes_identically_in_another",
            a_graph_stored_by_one_process_decodes_identically_in_another,
        ),
        (
            "readers_decoding_in_place_never_see_a_torn_graph_while_a_writer_replaces_it",
            readers_decoding_in_place_never_see_a_torn_graph_while_a_writer_replaces_it,
        ),
    ];
    support::run_scenarios(scenarios);
}
