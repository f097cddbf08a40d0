//! Model to bytes: [`encode`] checks a [`Graph`] against the rules of its tier and writes it through the
//! [`GraphWriter`] in arena order, so that a decoder gives every node the id it had in the model. The PHP
//! binding has no model on the store path (it drives the writer from zvals); tests, fuzz seeds and tools
//! build models.

use crate::analysis::analyze;
use crate::error::EncodeError;
use crate::model::{ArrayElements, ArrayKey, Graph, ObjectState, Properties, Value};
use crate::php_hash::zend_string_hash;
use crate::tier::StoreTier;
use crate::writer::{GraphWriter, NodeId, NodeKind, ObjectRestore, Slot};

/// Encodes `graph` as `tier` into a new buffer. `PHPSerialized` values are not graphs: use
/// [`encode_php_serialized`].
pub fn encode(graph: &Graph<'_>, tier: StoreTier) -> Result<Vec<u8>, EncodeError> {
    analyze(graph, tier)?;
    let mut writer = GraphWriter::new();
    let ids = NodeIds {
        arrays: graph.arrays.iter().map(|_| writer.node(NodeKind::Array)).collect(),
        objects: graph.objects.iter().map(|_| writer.node(NodeKind::Object)).collect(),
        references: graph.references.iter().map(|_| writer.node(NodeKind::Reference)).collect(),
    };
    let root = ids.slot(&mut writer, &graph.root);
    writer.root(root)?;
    for (array, &id) in graph.arrays.iter().zip(&ids.arrays) {
        match &array.elements {
            ArrayElements::Packed(slots) => {
                writer.begin_packed_array(id, array.next_free_index, slots.len())?;
                for value in slots {
                    let slot = value.as_ref().map_or(Slot::Undef, |value| ids.slot(&mut writer, value));
                    writer.slot(slot);
                }
            }
            ArrayElements::Hash(entries) => {
                writer.begin_hash_array(id, array.next_free_index, entries.len())?;
                for (key, value) in entries {
                    let key = match key {
                        ArrayKey::Int(i) => Slot::Int(*i),
                        ArrayKey::String(bytes) => Slot::String(writer.string(bytes, zend_string_hash(bytes), 0)),
                    };
                    writer.slot(key);
                    let value = ids.slot(&mut writer, value);
                    writer.slot(value);
                }
            }
        }
        writer.end()?;
    }
    let no_properties = Properties::default();
    for (object, &id) in graph.objects.iter().zip(&ids.objects) {
        let (restore, properties) = match &object.state {
            ObjectState::Properties(p) => (ObjectRestore::Properties, p),
            ObjectState::PropertiesThenWakeup(p) => (ObjectRestore::PropertiesThenWakeup, p),
            ObjectState::Unserialize(_) => (ObjectRestore::Unserialize, &no_properties),
            ObjectState::Internal { properties, .. } => (ObjectRestore::Internal, properties),
        };
        let class_name = writer.string(&object.class_name, zend_string_hash(&object.class_name), 0);
        let declared = properties
            .declared
            .iter()
            .map(|p| (writer.string(&p.mangled_name, zend_string_hash(&p.mangled_name), 0), p.readonly))
            .collect::<Vec<_>>();
        let shape = writer.shape(class_name, &declared);
        writer.begin_object(id, shape, restore)?;
        for property in &properties.declared {
            let slot = property.value.as_ref().map_or(Slot::Undef, |value| ids.slot(&mut writer, value));
            writer.slot(slot);
        }
        for (name, value) in &properties.dynamic {
            let name = writer.string(name, zend_string_hash(name), 0);
            let value = ids.slot(&mut writer, value);
            writer.dynamic_property(name, value)?;
        }
        match &object.state {
            ObjectState::Unserialize(array) => writer.slot(Slot::Node(ids.arrays[array.index()])),
            ObjectState::Internal { state, .. } => {
                writer.internal_state(state)?;
                state.for_each_value(|value| {
                    let slot = ids.slot(&mut writer, value);
                    writer.slot(slot);
                });
            }
            _ => {}
        }
        writer.end()?;
    }
    for (reference, &id) in graph.references.iter().zip(&ids.references) {
        writer.begin_reference(id)?;
        let value = ids.slot(&mut writer, &reference.value);
        writer.slot(value);
        writer.end()?;
    }
    writer.finish(tier).map(<[u8]>::to_vec)
}

/// The writer's node for each arena entry.
struct NodeIds {
    arrays: Vec<NodeId>,
    objects: Vec<NodeId>,
    references: Vec<NodeId>,
}

impl NodeIds {
    /// The slot of a model value (`analyze` has checked every id).
    fn slot(&self, writer: &mut GraphWriter, value: &Value<'_>) -> Slot {
        match value {
            Value::Null | Value::Resource => Slot::Null,
            Value::Bool(b) => Slot::Bool(*b),
            Value::Int(i) => Slot::Int(*i),
            Value::Float(f) => Slot::Float(*f),
            Value::String(bytes) => Slot::String(writer.string(bytes, zend_string_hash(bytes), 0)),
            Value::Array(id) => Slot::Node(self.arrays[id.index()]),
            Value::Object(id) => Slot::Node(self.objects[id.index()]),
            Value::Reference(id) => Slot::Node(self.references[id.index()]),
            Value::EnumCase(case) => {
                let class_name = writer.string(&case.class_name, zend_string_hash(&case.class_name), 0);
                let case_name = writer.string(&case.case_name, zend_string_hash(&case.case_name), 0);
                Slot::EnumCase(writer.enum_case(class_name, case_name))
            }
        }
    }
}

/// Encodes the bytes of PHP's `serialize()` as a `PHPSerialized` container: the header and one string.
pub fn encode_php_serialized(serialized: &[u8]) -> Result<Vec<u8>, EncodeError> {
    GraphWriter::new().php_serialized(serialized, zend_string_hash(serialized)).map(<[u8]>::to_vec)
}
