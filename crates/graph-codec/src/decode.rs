//! Bytes to model, validating everything: a linear scan of both sections finds every string and record
//! start (so each offset can be checked to name the start of a record of the right kind), then each record
//! becomes a model node in scan order (so ids match the encoder's arenas), and finally the graph-level
//! facts are recomputed and compared with what the bytes claim.
//!
//! Every loop is bounded by the buffer length and every allocation by the counts the scan has checked
//! against the remaining bytes.

use std::borrow::Cow;

use crate::analysis::analyze;
use crate::error::DecodeError;
use crate::layout::{RecordKind, SLOT_LEN};
use crate::model::{
    ArrayElements, ArrayId, ArrayKey, ArrayNode, Bytes, DeclaredProperty, EnumCase, Graph, ObjectId, ObjectNode,
    ObjectState, Properties, ReferenceId, ReferenceNode, Value,
};
use crate::tier::StoreTier;
use crate::view::{GraphView, Header, KeyView, ObjectStateKind, SlotView};

/// A decoded graph and the header facts it was stored with.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded<'a> {
    pub header: Header,
    /// For `PHPSerialized` the root is the `serialize()` string and the arenas are empty.
    pub graph: Graph<'a>,
}

/// Validates `bytes` completely and rebuilds the model; strings borrow from `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Decoded<'_>, DecodeError> {
    let view = GraphView::new(bytes)?;
    let index = RecordIndex::scan(&view)?;
    let mut decoder = Decoder { view, index };
    let graph = decoder.build()?;
    Ok(Decoded { header: *view.header(), graph })
}

/// Checks everything [`decode`] checks, and returns the header.
pub fn validate(bytes: &[u8]) -> Result<Header, DecodeError> {
    decode(bytes).map(|decoded| decoded.header)
}

/// Start offsets of every string and record, per kind, in ascending order.
struct RecordIndex {
    strings: Vec<u64>,
    shapes: Vec<u64>,
    enum_cases: Vec<u64>,
    arrays: Vec<u64>,
    objects: Vec<u64>,
    references: Vec<u64>,
}

impl RecordIndex {
    fn scan(view: &GraphView<'_>) -> Result<Self, DecodeError> {
        let header = view.header();
        let mut strings = Vec::with_capacity(header.string_count as usize);
        let mut at = header.strings_offset;
        let strings_end = header.strings_offset + header.strings_len;
        while at < strings_end {
            if strings.len() >= header.string_count as usize {
                return Err(DecodeError::HeaderMismatch { field: "string count" });
            }
            strings.push(at);
            at += view.string_record_len_checked(at)?;
        }
        if strings.len() != header.string_count as usize {
            return Err(DecodeError::HeaderMismatch { field: "string count" });
        }

        let mut index = RecordIndex {
            strings,
            shapes: Vec::new(),
            enum_cases: Vec::new(),
            arrays: Vec::new(),
            objects: Vec::new(),
            references: Vec::new(),
        };
        let mut record_count = 0usize;
        let mut at = header.records_offset;
        let records_end = header.records_offset + header.records_len;
        while at < records_end {
            if record_count >= header.record_count as usize {
                return Err(DecodeError::HeaderMismatch { field: "record count" });
            }
            let (kind, len) = view.record_len_at(at)?;
            view.check_in_records(at, len).map_err(|_| DecodeError::CountTooLarge { offset: at })?;
            match kind {
                RecordKind::Shape => index.shapes.push(at),
                RecordKind::EnumCase => index.enum_cases.push(at),
                RecordKind::PackedArray | RecordKind::HashArray => index.arrays.push(at),
                RecordKind::Object => index.objects.push(at),
                RecordKind::Reference => index.references.push(at),
            }
            record_count += 1;
            at += len;
        }
        if record_count != header.record_count as usize {
            return Err(DecodeError::HeaderMismatch { field: "record count" });
        }
        Ok(index)
    }
}

/// Position of `offset` in `starts`, or `error`.
fn position(starts: &[u64], offset: u64, error: DecodeError) -> Result<u32, DecodeError> {
    starts.binary_search(&offset).map(|position| position as u32).map_err(|_| error)
}

struct Decoder<'a> {
    view: GraphView<'a>,
    index: RecordIndex,
}

impl<'a> Decoder<'a> {
    fn build(&mut self) -> Result<Graph<'a>, DecodeError> {
        let header = *self.view.header();
        let root_slot = self.view.root()?;
        if header.tier == StoreTier::PHPSerialized {
            let SlotView::String(serialized) = root_slot else {
                return Err(DecodeError::UnexpectedSlot { offset: 64 });
            };
            let root = Value::String(self.string(serialized.offset)?);
            return Ok(Graph::new(root));
        }
        let root = self.value(root_slot, 64)?;

        let mut graph = Graph::new(root);
        let mut array_shared = Vec::with_capacity(self.index.arrays.len());
        let mut object_shared = Vec::with_capacity(self.index.objects.len());
        let mut reference_shared = Vec::with_capacity(self.index.references.len());

        graph.arrays.reserve_exact(self.index.arrays.len());
        for position in 0..self.index.arrays.len() {
            let array = self.view.array_at(self.index.arrays[position])?;
            array_shared.push(array.is_shared);
            let elements = if array.is_packed {
                let mut slots = Vec::with_capacity(array.len as usize);
                let mut present = 0u64;
                for i in 0..array.len {
                    let slot = array.packed_slot(i)?;
                    let value = match slot {
                        SlotView::Undef => None,
                        slot => {
                            present += 1;
                            Some(self.value(slot, array.offset)?)
                        }
                    };
                    slots.push(value);
                }
                if present != array.packed_element_count {
                    return Err(DecodeError::HeaderMismatch { field: "packed element count" });
                }
                ArrayElements::Packed(slots)
            } else {
                let mut entries = Vec::with_capacity(array.len as usize);
                for i in 0..array.len {
                    let (key, slot) = array.hash_entry(i)?;
                    let key = match key {
                        KeyView::Int(i) => ArrayKey::Int(i),
                        KeyView::String(s) => ArrayKey::String(self.string(s.offset)?),
                    };
                    entries.push((key, self.value(slot, array.offset)?));
                }
                ArrayElements::Hash(entries)
            };
            graph.arrays.push(ArrayNode { elements, next_free_index: array.next_free_index });
        }

        graph.objects.reserve_exact(self.index.objects.len());
        for position in 0..self.index.objects.len() {
            let object = self.view.object_at(self.index.objects[position])?;
            object_shared.push(object.is_shared);
            position_of(&self.index.shapes, object.shape_offset())?;
            let class_name = self.string(object.class_name()?.offset)?;
            let mut properties = Properties {
                declared: Vec::with_capacity(object.declared_len as usize),
                dynamic: Vec::with_capacity(object.dynamic_len as usize),
            };
            for i in 0..object.declared_len {
                let property = object.declared(i)?;
                let value = match property.value {
                    SlotView::Undef => None,
                    slot => Some(self.value(slot, object.offset)?),
                };
                properties.declared.push(DeclaredProperty {
                    mangled_name: self.string(property.mangled_name.offset)?,
                    value,
                    readonly: property.readonly,
                });
            }
            for i in 0..object.dynamic_len {
                let (name, slot) = object.dynamic(i)?;
                properties.dynamic.push((self.string(name.offset)?, self.value(slot, object.offset)?));
            }
            let state = match object.state {
                ObjectStateKind::Properties => ObjectState::Properties(properties),
                ObjectStateKind::PropertiesThenWakeup => ObjectState::PropertiesThenWakeup(properties),
                ObjectStateKind::Unserialize => {
                    let data = object.unserialize_data()?;
                    ObjectState::Unserialize(ArrayId(position_of(&self.index.arrays, data.offset)?))
                }
                ObjectStateKind::Internal => {
                    let strings = &self.index.strings;
                    let view = self.view;
                    let state = object.internal_state_resolving(&mut |offset| {
                        position_of(strings, offset)?;
                        Ok(Cow::Borrowed(view.string_at(offset)?.bytes))
                    })?;
                    let state = state.try_map_values(|slot| self.value(slot, object.offset))?;
                    ObjectState::Internal { state, properties }
                }
            };
            graph.objects.push(ObjectNode { class_name, state });
        }

        graph.references.reserve_exact(self.index.references.len());
        for position in 0..self.index.references.len() {
            let reference = self.view.reference_at(self.index.references[position])?;
            reference_shared.push(reference.is_shared);
            let value = self.value(reference.value()?, reference.offset)?;
            graph.references.push(ReferenceNode { value });
        }

        for &shape in &self.index.shapes {
            // Shapes are read through objects; an unreferenced one must still name real strings.
            let class_name = self.view.u64_at(shape + 8)?;
            self.string(class_name)?;
        }

        let analysis = analyze(&graph, header.tier)?;
        if analysis.flags != header.flags {
            return Err(DecodeError::HeaderMismatch { field: "flags" });
        }
        if analysis.depth != header.depth {
            return Err(DecodeError::HeaderMismatch { field: "depth" });
        }
        let mismatch = |claimed: &[bool], actual: &[bool], offsets: &[u64]| {
            claimed
                .iter()
                .zip(actual)
                .position(|(a, b)| a != b)
                .map(|i| DecodeError::SharedFlagMismatch { offset: offsets[i] })
        };
        if let Some(error) = mismatch(&array_shared, &analysis.array_shared, &self.index.arrays)
            .or_else(|| mismatch(&object_shared, &analysis.object_shared, &self.index.objects))
            .or_else(|| mismatch(&reference_shared, &analysis.reference_shared, &self.index.references))
        {
            return Err(error);
        }
        Ok(graph)
    }

    /// A string at a validated string-record start, borrowed from the buffer.
    fn string(&self, offset: u64) -> Result<Bytes<'a>, DecodeError> {
        position_of_string(&self.index.strings, offset)?;
        Ok(Cow::Borrowed(self.view.string_at(offset)?.bytes))
    }

    /// Converts a non-`Undef` slot found in the record at `record` into a model value.
    fn value(&self, slot: SlotView<'a>, record: u64) -> Result<Value<'a>, DecodeError> {
        Ok(match slot {
            SlotView::Undef => return Err(DecodeError::UndefOutOfPlace { offset: record }),
            SlotView::Null => Value::Null,
            SlotView::Bool(b) => Value::Bool(b),
            SlotView::Int(i) => Value::Int(i),
            SlotView::Float(f) => Value::Float(f),
            SlotView::String(s) => Value::String(self.string(s.offset)?),
            SlotView::Array(a) => Value::Array(ArrayId(position_of(&self.index.arrays, a.offset)?)),
            SlotView::Object(o) => Value::Object(ObjectId(position_of(&self.index.objects, o.offset)?)),
            SlotView::Reference(r) => Value::Reference(ReferenceId(position_of(&self.index.references, r.offset)?)),
            SlotView::EnumCase(e) => {
                position_of(&self.index.enum_cases, e.offset)?;
                Value::EnumCase(Box::new(EnumCase {
                    class_name: self.string(e.class_name.offset)?,
                    case_name: self.string(e.case_name.offset)?,
                }))
            }
        })
    }
}

fn position_of(starts: &[u64], offset: u64) -> Result<u32, DecodeError> {
    position(starts, offset, DecodeError::NotARecordStart { offset })
}

fn position_of_string(starts: &[u64], offset: u64) -> Result<u32, DecodeError> {
    position(starts, offset, DecodeError::NotAStringStart { offset })
}

// The slot size is part of the index arithmetic above through the view; keep the two in step.
const _: () = assert!(SLOT_LEN == 16);
