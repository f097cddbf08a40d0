//! The store-path encoder: graph-codec's `GraphWriter` driven by a one-pass walk shaped like the binding's
//! walk over zvals (a LIFO task stack, strings carrying their cached hash and found again by identity,
//! arrays looked up only when held twice, objects always, one shape per class), over values shaped like
//! the spec's store workloads: a 5-entry config array, the 41-entry `constant_array`, a list of 100 small
//! objects and the 1,000-row `large_array`. The walk over real zvals is measured by `benches/run` (CLI
//! store section, side by side with APCu); this bench isolates the writer and the walk pattern from PHP.
//!
//! Run: `cargo bench -p benches --bench encoder`.

use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use graph_codec::{
    zend_string_hash, GraphWriter, NodeId, NodeKind, ObjectRestore, ShapeRef, Slot, StoreTier, StringRef,
};

/// A PHP string: its bytes and its cached hash; its address is its identity (an interned key is shared).
struct PhpString {
    bytes: Vec<u8>,
    hash: u64,
}

fn php_string(text: &str) -> Rc<PhpString> {
    Rc::new(PhpString { bytes: text.as_bytes().to_vec(), hash: zend_string_hash(text.as_bytes()) })
}

enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(Rc<PhpString>),
    Array(Rc<Array>),
    Object(Rc<Object>),
}

enum Key {
    Int(i64),
    String(Rc<PhpString>),
}

struct Array {
    packed: bool,
    entries: Vec<(Key, Value)>,
    next_free_index: i64,
}

struct Class {
    name: Rc<PhpString>,
    properties: Vec<Rc<PhpString>>,
}

struct Object {
    class: Rc<Class>,
    values: Vec<Value>,
}

/// The walk, reused across encodings like the binding's.
struct Walk {
    writer: GraphWriter,
    tasks: Vec<(NodeId, Task)>,
    objects: std::collections::HashMap<*const Object, NodeId>,
    arrays: std::collections::HashMap<*const Array, NodeId>,
    shapes: std::collections::HashMap<*const Class, ShapeRef>,
}

enum Task {
    Array(Rc<Array>),
    Object(Rc<Object>),
}

impl Walk {
    fn new() -> Self {
        Walk {
            writer: GraphWriter::new(),
            tasks: Vec::new(),
            objects: Default::default(),
            arrays: Default::default(),
            shapes: Default::default(),
        }
    }

    fn string(&mut self, s: &Rc<PhpString>) -> StringRef {
        self.writer.string(&s.bytes, s.hash, Rc::as_ptr(s) as usize)
    }

    fn slot(&mut self, value: &Value) -> Slot {
        match value {
            Value::Null => Slot::Null,
            Value::Bool(b) => Slot::Bool(*b),
            Value::Int(i) => Slot::Int(*i),
            Value::Float(f) => Slot::Float(*f),
            Value::String(s) => Slot::String(self.string(s)),
            Value::Array(a) => {
                let shared = Rc::strong_count(a) > 1;
                if shared {
                    if let Some(&id) = self.arrays.get(&Rc::as_ptr(a)) {
                        return Slot::Node(id);
                    }
                }
                let id = self.writer.node(NodeKind::Array);
                if shared {
                    self.arrays.insert(Rc::as_ptr(a), id);
                }
                self.tasks.push((id, Task::Array(a.clone())));
                Slot::Node(id)
            }
            Value::Object(o) => {
                if let Some(&id) = self.objects.get(&Rc::as_ptr(o)) {
                    return Slot::Node(id);
                }
                let id = self.writer.node(NodeKind::Object);
                self.objects.insert(Rc::as_ptr(o), id);
                self.tasks.push((id, Task::Object(o.clone())));
                Slot::Node(id)
            }
        }
    }

    fn encode(&mut self, root: &Value) -> usize {
        self.writer.reset();
        self.objects.clear();
        self.arrays.clear();
        self.shapes.clear();
        let root = self.slot(root);
        self.writer.root(root).expect("root");
        while let Some((id, task)) = self.tasks.pop() {
            match task {
                Task::Array(array) => {
                    if array.packed {
                        self.writer.begin_packed_array(id, array.next_free_index, array.entries.len()).expect("array");
                    } else {
                        self.writer.begin_hash_array(id, array.next_free_index, array.entries.len()).expect("array");
                    }
                    for (key, value) in &array.entries {
                        if !array.packed {
                            let key = match key {
                                Key::Int(i) => Slot::Int(*i),
                                Key::String(s) => Slot::String(self.string(s)),
                            };
                            self.writer.slot(key);
                        }
                        let value = self.slot(value);
                        self.writer.slot(value);
                    }
                }
                Task::Object(object) => {
                    let class = Rc::as_ptr(&object.class);
                    let shape = match self.shapes.get(&class) {
                        Some(&shape) => shape,
                        None => {
                            let name = self.string(&object.class.name);
                            let names =
                                object.class.properties.iter().map(|p| (self.string(p), false)).collect::<Vec<_>>();
                            let shape = self.writer.shape(name, &names);
                            self.shapes.insert(class, shape);
                            shape
                        }
                    };
                    self.writer.begin_object(id, shape, ObjectRestore::Properties).expect("object");
                    for value in &object.values {
                        let value = self.slot(value);
                        self.writer.slot(value);
                    }
                }
            }
            self.writer.end().expect("record");
        }
        self.writer.finish(StoreTier::SharedGraph).expect("encodes").len()
    }
}

/// Interned keys, shared by every row as PHP's literal keys are.
fn keys(names: &[&str]) -> Vec<Rc<PhpString>> {
    names.iter().map(|name| php_string(name)).collect()
}

fn hash_array(entries: Vec<(Key, Value)>) -> Value {
    Value::Array(Rc::new(Array { packed: false, entries, next_free_index: i64::MIN }))
}

fn list(values: Vec<Value>) -> Value {
    let next_free_index = values.len() as i64;
    let entries = values.into_iter().enumerate().map(|(i, v)| (Key::Int(i as i64), v)).collect();
    Value::Array(Rc::new(Array { packed: true, entries, next_free_index }))
}

/// `['host' => 'localhost', 'port' => 3306, 'debug' => false, 'name' => 'app', 'timeout' => 2.5]`
fn config_5() -> Value {
    let k = keys(&["host", "port", "debug", "name", "timeout"]);
    hash_array(vec![
        (Key::String(k[0].clone()), Value::String(php_string("localhost"))),
        (Key::String(k[1].clone()), Value::Int(3306)),
        (Key::String(k[2].clone()), Value::Bool(false)),
        (Key::String(k[3].clone()), Value::String(php_string("app"))),
        (Key::String(k[4].clone()), Value::Float(2.5)),
    ])
}

/// The `constant_array` workload: 40 entries of ints, bools and short strings, plus an 8-element list.
fn config_41() -> Value {
    let mut entries = (0..40)
        .map(|i| {
            let value = match i % 3 {
                0 => Value::Int(i),
                1 => Value::Bool(i % 2 == 0),
                _ => Value::String(php_string(&format!("value-{i}"))),
            };
            (Key::String(php_string(&format!("key{i}"))), value)
        })
        .collect::<Vec<_>>();
    entries.push((Key::String(php_string("list")), list((1..=8).map(Value::Int).collect())));
    hash_array(entries)
}

/// A list of 100 objects of one class with four declared properties.
fn objects_100() -> Value {
    let class =
        Rc::new(Class { name: php_string("App\\Model\\User"), properties: keys(&["id", "name", "score", "active"]) });
    list(
        (0..100)
            .map(|i| {
                Value::Object(Rc::new(Object {
                    class: class.clone(),
                    values: vec![
                        Value::Int(i),
                        Value::String(php_string(&format!("user-{i}"))),
                        Value::Float(i as f64 / 7.0),
                        Value::Bool(i % 3 == 0),
                    ],
                }))
            })
            .collect(),
    )
}

/// The `large_array` workload: 1,000 rows of 10 scalar leaves, 3 levels deep.
fn rows_1000() -> Value {
    let k = keys(&["id", "name", "meta", "a", "b", "c", "deep", "f", "g", "h", "k", "z"]);
    let key = |i: usize| Key::String(k[i].clone());
    let end = php_string("end");
    list(
        (0..1000)
            .map(|i| {
                let c = hash_array(vec![
                    (key(6), Value::Int(i)),
                    (key(7), Value::Float(1.5)),
                    (key(8), Value::Bool(true)),
                    (key(9), Value::Null),
                ]);
                let meta = hash_array(vec![
                    (key(3), Value::Int(i * 2)),
                    (key(4), Value::String(php_string(&format!("x{i}")))),
                    (key(5), c),
                ]);
                hash_array(vec![
                    (key(0), Value::Int(i)),
                    (key(1), Value::String(php_string(&format!("row-{i}")))),
                    (key(2), meta),
                    (key(10), Value::Int(i % 7)),
                    (key(11), Value::String(end.clone())),
                ])
            })
            .collect(),
    )
}

/// A workload: its name, its builder and how many values it holds.
type Workload = (&'static str, fn() -> Value, u64);

fn encoder(c: &mut Criterion) {
    let inputs: [Workload; 4] = [
        ("config_5", config_5, 5),
        ("config_41", config_41, 49),
        ("objects_100", objects_100, 500),
        ("rows_1000", rows_1000, 15_000),
    ];
    let mut group = c.benchmark_group("encoder");
    group.sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    for (name, build, values) in inputs {
        let value = build();
        let mut walk = Walk::new();
        group.throughput(Throughput::Elements(values));
        group.bench_function(name, |b| b.iter(|| walk.encode(black_box(&value))));
    }
    group.finish();
}

criterion_group!(benches, encoder);
criterion_main!(benches);
