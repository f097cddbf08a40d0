//! The value model: what a PHP value graph looks like, without PHP.
//!
//! Arrays, objects and PHP references live in per-kind arenas and are named by id, so a graph of any
//! depth is built, compared, encoded and dropped without recursion, and shared identity or cycles are
//! just two slots holding the same id. Scalars, strings and enum cases are held inline: they have no
//! identity to preserve.

use std::borrow::Cow;

use crate::internal_state::InternalState;

/// A binary-safe byte string, borrowed where possible (from zvals while encoding, from the encoded buffer
/// while decoding).
pub type Bytes<'a> = Cow<'a, [u8]>;

macro_rules! arena_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// Position of the node in its arena.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

arena_id!(
    /// An array in [`Graph::arrays`]. Two slots holding the same id hold the same (copy-on-write shared)
    /// array.
    ArrayId
);
arena_id!(
    /// An object in [`Graph::objects`]. Two slots holding the same id are the same object (`===`).
    ObjectId
);
arena_id!(
    /// A PHP reference slot in [`Graph::references`]. Every slot holding the same id is an alias of it.
    ReferenceId
);
arena_id!(
    /// A string record of an encoded buffer, numbered in storage order (see [`crate::CheckedGraph`]).
    StringId
);
arena_id!(
    /// A shape record (class name and declared property names) of an encoded buffer.
    ShapeId
);
arena_id!(
    /// An enum-case record of an encoded buffer.
    EnumCaseId
);

/// One PHP value as it appears in a slot (an array element, a property, a reference's target).
#[derive(Clone, Debug)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    Int(i64),
    /// Compared and stored bit-exactly: `-0.0` and every NaN payload survive.
    Float(f64),
    String(Bytes<'a>),
    Array(ArrayId),
    Object(ObjectId),
    Reference(ReferenceId),
    /// An enum case; restored as the engine singleton, so it needs no identity of its own.
    EnumCase(Box<EnumCase<'a>>),
    /// A resource. Never storable; present so that classification can name it as the reason.
    Resource,
}

impl PartialEq for Value<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) | (Value::Resource, Value::Resource) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            (Value::Reference(a), Value::Reference(b)) => a == b,
            (Value::EnumCase(a), Value::EnumCase(b)) => a == b,
            _ => false,
        }
    }
}

impl Value<'_> {
    /// True for values that are stored inline (no arena node): everything but arrays, objects and
    /// references.
    pub fn is_scalar(&self) -> bool {
        !matches!(self, Value::Array(_) | Value::Object(_) | Value::Reference(_))
    }
}

/// `Suit::Hearts` is `EnumCase { class_name: "Suit", case_name: "Hearts" }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumCase<'a> {
    pub class_name: Bytes<'a>,
    pub case_name: Bytes<'a>,
}

/// An array key as PHP stores it: integer or (binary-safe) string.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArrayKey<'a> {
    Int(i64),
    String(Bytes<'a>),
}

/// A PHP array: its elements in storage order and the index `$a[] = …` will use next
/// (`nNextFreeElement`, which may be `i64::MIN` for an array that never had an integer key).
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayNode<'a> {
    pub elements: ArrayElements<'a>,
    pub next_free_index: i64,
}

/// The two storage forms of a PHP array.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayElements<'a> {
    /// A packed array: slot `i` has key `i`; `None` is a hole left by `unset()`.
    Packed(Vec<Option<Value<'a>>>),
    /// A hash array: entries in insertion order.
    Hash(Vec<(ArrayKey<'a>, Value<'a>)>),
}

impl ArrayElements<'_> {
    /// Number of slots (packed, holes included) or entries (hash).
    pub fn slot_count(&self) -> usize {
        match self {
            ArrayElements::Packed(slots) => slots.len(),
            ArrayElements::Hash(entries) => entries.len(),
        }
    }
}

/// An object: its class name as PHP spells it, and how its state is restored.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectNode<'a> {
    pub class_name: Bytes<'a>,
    pub state: ObjectState<'a>,
}

/// How an object's state was captured, which decides how it is restored.
#[derive(Clone, Debug, PartialEq)]
pub enum ObjectState<'a> {
    /// Properties written straight into the new object; no userland code runs.
    Properties(Properties<'a>),
    /// Properties (those named by `__sleep()`, or all of them when the class only has `__wakeup()`);
    /// `__wakeup()` runs after they are restored, as `unserialize()` would run it.
    PropertiesThenWakeup(Properties<'a>),
    /// The array `__serialize()` returned; it is handed to `__unserialize()` on restore.
    Unserialize(ArrayId),
    /// A safe-direct internal class (or a userland subclass of one): the internal state plus the
    /// subclass's own properties.
    Internal { state: InternalState<'a>, properties: Properties<'a> },
}

/// An object's properties.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Properties<'a> {
    /// Declared property slots, in slot order.
    pub declared: Vec<DeclaredProperty<'a>>,
    /// Dynamic properties (`stdClass`, `#[AllowDynamicProperties]`), in insertion order.
    pub dynamic: Vec<(Bytes<'a>, Value<'a>)>,
}

/// One declared property slot.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclaredProperty<'a> {
    /// The visibility-mangled name PHP uses in property tables: `name` for public, `"\0*\0name"` for
    /// protected, `"\0Class\0name"` for private, so a parent's private property of the same name stays
    /// distinct.
    pub mangled_name: Bytes<'a>,
    /// `None` is an uninitialized typed property, which must stay uninitialized.
    pub value: Option<Value<'a>>,
    pub readonly: bool,
}

/// A PHP reference (`&$x`): a slot shared by every value that holds its id.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceNode<'a> {
    /// The referenced value; never itself a reference.
    pub value: Value<'a>,
}

/// A whole value graph: a root value plus the arenas its ids point into.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph<'a> {
    pub root: Value<'a>,
    pub arrays: Vec<ArrayNode<'a>>,
    pub objects: Vec<ObjectNode<'a>>,
    pub references: Vec<ReferenceNode<'a>>,
}

impl<'a> Graph<'a> {
    /// A graph whose root is `root` and whose arenas are empty; use it for scalars, or push nodes and
    /// then set [`Graph::root`].
    pub fn new(root: Value<'a>) -> Self {
        Graph { root, arrays: Vec::new(), objects: Vec::new(), references: Vec::new() }
    }

    /// Appends an array and returns its id. To build parents before children (pre-order, as an
    /// iterative zval walk does), push a placeholder and overwrite `arrays[id.index()]` later.
    pub fn push_array(&mut self, node: ArrayNode<'a>) -> ArrayId {
        self.arrays.push(node);
        ArrayId(arena_index(self.arrays.len() - 1))
    }

    /// Appends an object and returns its id.
    pub fn push_object(&mut self, node: ObjectNode<'a>) -> ObjectId {
        self.objects.push(node);
        ObjectId(arena_index(self.objects.len() - 1))
    }

    /// Appends a reference and returns its id.
    pub fn push_reference(&mut self, node: ReferenceNode<'a>) -> ReferenceId {
        self.references.push(node);
        ReferenceId(arena_index(self.references.len() - 1))
    }

    /// Detaches every borrowed string, so the graph outlives the buffer or zvals it was built from.
    pub fn into_owned(self) -> Graph<'static> {
        Graph {
            root: value_into_owned(self.root),
            arrays: self
                .arrays
                .into_iter()
                .map(|array| ArrayNode {
                    next_free_index: array.next_free_index,
                    elements: match array.elements {
                        ArrayElements::Packed(slots) => {
                            ArrayElements::Packed(slots.into_iter().map(|slot| slot.map(value_into_owned)).collect())
                        }
                        ArrayElements::Hash(entries) => ArrayElements::Hash(
                            entries
                                .into_iter()
                                .map(|(key, value)| (key_into_owned(key), value_into_owned(value)))
                                .collect(),
                        ),
                    },
                })
                .collect(),
            objects: self
                .objects
                .into_iter()
                .map(|object| ObjectNode {
                    class_name: bytes_into_owned(object.class_name),
                    state: match object.state {
                        ObjectState::Properties(p) => ObjectState::Properties(properties_into_owned(p)),
                        ObjectState::PropertiesThenWakeup(p) => {
                            ObjectState::PropertiesThenWakeup(properties_into_owned(p))
                        }
                        ObjectState::Unserialize(id) => ObjectState::Unserialize(id),
                        ObjectState::Internal { state, properties } => ObjectState::Internal {
                            state: state.into_owned(),
                            properties: properties_into_owned(properties),
                        },
                    },
                })
                .collect(),
            references: self
                .references
                .into_iter()
                .map(|reference| ReferenceNode { value: value_into_owned(reference.value) })
                .collect(),
        }
    }
}

/// Arena ids are u32 because the encoded format counts nodes in u32; a graph with more than 4 billion
/// nodes cannot be built in PHP memory in the first place.
fn arena_index(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

pub(crate) fn bytes_into_owned(bytes: Bytes<'_>) -> Bytes<'static> {
    Cow::Owned(bytes.into_owned())
}

pub(crate) fn value_into_owned(value: Value<'_>) -> Value<'static> {
    match value {
        Value::Null => Value::Null,
        Value::Bool(b) => Value::Bool(b),
        Value::Int(i) => Value::Int(i),
        Value::Float(f) => Value::Float(f),
        Value::String(s) => Value::String(bytes_into_owned(s)),
        Value::Array(id) => Value::Array(id),
        Value::Object(id) => Value::Object(id),
        Value::Reference(id) => Value::Reference(id),
        Value::EnumCase(case) => Value::EnumCase(Box::new(EnumCase {
            class_name: bytes_into_owned(case.class_name),
            case_name: bytes_into_owned(case.case_name),
        })),
        Value::Resource => Value::Resource,
    }
}

fn key_into_owned(key: ArrayKey<'_>) -> ArrayKey<'static> {
    match key {
        ArrayKey::Int(i) => ArrayKey::Int(i),
        ArrayKey::String(s) => ArrayKey::String(bytes_into_owned(s)),
    }
}

fn properties_into_owned(properties: Properties<'_>) -> Properties<'static> {
    Properties {
        declared: properties
            .declared
            .into_iter()
            .map(|slot| DeclaredProperty {
                mangled_name: bytes_into_owned(slot.mangled_name),
                value: slot.value.map(value_into_owned),
                readonly: slot.readonly,
            })
            .collect(),
        dynamic: properties
            .dynamic
            .into_iter()
            .map(|(name, value)| (bytes_into_owned(name), value_into_owned(value)))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_compare_by_bits_so_nan_equals_itself_and_negative_zero_differs_from_zero() {
        assert_eq!(Value::Float(f64::NAN), Value::Float(f64::NAN));
        assert_ne!(Value::Float(-0.0), Value::Float(0.0));
        assert_ne!(Value::Float(f64::NAN), Value::Float(f64::from_bits(0x7ff8_0000_0000_0001)));
    }

    #[test]
    fn pushed_nodes_are_named_by_their_arena_position() {
        let mut graph = Graph::new(Value::Null);
        let first = graph.push_array(ArrayNode { elements: ArrayElements::Packed(vec![]), next_free_index: 0 });
        let second = graph.push_array(ArrayNode { elements: ArrayElements::Hash(vec![]), next_free_index: i64::MIN });
        assert_eq!((first, second), (ArrayId(0), ArrayId(1)));
    }
}
