//! Model to bytes, in two passes: [`EncodePlan::new`] checks the graph, interns strings, shapes and enum
//! cases and assigns every record its offset (so the exact size is known before any byte is written);
//! [`EncodePlan::write_to`] then fills a destination of that size, which may be shared memory directly.
//! Both passes are linear in the size of the graph.

use foldhash::{HashMap, HashMapExt};

use crate::analysis::{analyze, Analysis};
use crate::error::{EncodeError, StructureError};
use crate::internal_state::InternalState;
use crate::layout::{self, header, object_state, tag, RecordKind, HEADER_LEN, RECORD_SHARED};
use crate::model::{ArrayElements, ArrayKey, Graph, ObjectState, Properties, Value};
use crate::php_hash::zend_string_hash;
use crate::tier::StoreTier;

/// Strings of one graph, each stored once, in first-seen order.
struct StringTable<'g> {
    offsets: HashMap<&'g [u8], u64>,
    ordered: Vec<&'g [u8]>,
    next_offset: u64,
}

impl<'g> StringTable<'g> {
    fn new() -> Self {
        StringTable { offsets: HashMap::new(), ordered: Vec::new(), next_offset: HEADER_LEN as u64 }
    }

    fn intern(&mut self, bytes: &'g [u8]) -> Result<u64, StructureError> {
        if let Some(&offset) = self.offsets.get(bytes) {
            return Ok(offset);
        }
        let offset = self.next_offset;
        let record_len = layout::string_record_len(bytes.len() as u64).ok_or(StructureError::TooLarge)?;
        self.next_offset = offset.checked_add(record_len).ok_or(StructureError::TooLarge)?;
        self.offsets.insert(bytes, offset);
        self.ordered.push(bytes);
        Ok(offset)
    }

    /// Offset of a string interned during planning.
    fn offset_of(&self, bytes: &[u8]) -> u64 {
        // Planning interned every string the writer asks for; 0 (never a string) would be caught by the
        // decoder's validation if that invariant were ever broken.
        self.offsets.get(bytes).copied().unwrap_or(0)
    }
}

/// A class name plus its declared property names and flags: stored once per distinct shape.
struct Shape {
    class_name: u64,
    /// (name offset, flags) per declared property.
    properties: Vec<(u64, u32)>,
}

/// Everything needed to write one graph, and its exact encoded size.
pub struct EncodePlan<'g, 'a> {
    graph: &'g Graph<'a>,
    tier: StoreTier,
    analysis: Analysis,
    strings: StringTable<'g>,
    shapes: Vec<Shape>,
    shape_offsets: Vec<u64>,
    object_shapes: Vec<u32>,
    enum_cases: Vec<(u64, u64)>,
    enum_case_offsets: HashMap<(u64, u64), u64>,
    array_offsets: Vec<u64>,
    object_offsets: Vec<u64>,
    reference_offsets: Vec<u64>,
    records_offset: u64,
    total_len: u64,
}

/// Encodes `graph` as `tier` into a new buffer.
pub fn encode(graph: &Graph<'_>, tier: StoreTier) -> Result<Vec<u8>, EncodeError> {
    let plan = EncodePlan::new(graph, tier)?;
    let mut buffer = vec![0u8; plan.encoded_len()];
    plan.write_to(&mut buffer)?;
    Ok(buffer)
}

impl<'g, 'a> EncodePlan<'g, 'a> {
    /// Checks `graph` against the rules of `tier` and lays it out. `PHPSerialized` values are not graphs:
    /// use [`encode_php_serialized`].
    pub fn new(graph: &'g Graph<'a>, tier: StoreTier) -> Result<Self, EncodeError> {
        let analysis = analyze(graph, tier)?;
        let mut strings = StringTable::new();

        let mut intern_value = |value: &'g Value<'a>, strings: &mut StringTable<'g>| -> Result<(), StructureError> {
            match value {
                Value::String(bytes) => {
                    strings.intern(bytes)?;
                }
                Value::EnumCase(case) => {
                    strings.intern(&case.class_name)?;
                    strings.intern(&case.case_name)?;
                }
                _ => {}
            }
            Ok(())
        };
        let intern_properties =
            |properties: &'g Properties<'a>,
             strings: &mut StringTable<'g>,
             intern_value: &mut dyn FnMut(&'g Value<'a>, &mut StringTable<'g>) -> Result<(), StructureError>|
             -> Result<(), StructureError> {
                for property in &properties.declared {
                    strings.intern(&property.mangled_name)?;
                    if let Some(value) = &property.value {
                        intern_value(value, strings)?;
                    }
                }
                for (name, value) in &properties.dynamic {
                    strings.intern(name)?;
                    intern_value(value, strings)?;
                }
                Ok(())
            };

        // Strings, in the order a reader meets them: root, arrays, objects, references.
        intern_value(&graph.root, &mut strings)?;
        for array in &graph.arrays {
            match &array.elements {
                ArrayElements::Packed(slots) => {
                    for value in slots.iter().flatten() {
                        intern_value(value, &mut strings)?;
                    }
                }
                ArrayElements::Hash(entries) => {
                    for (key, value) in entries {
                        if let ArrayKey::String(bytes) = key {
                            strings.intern(bytes)?;
                        }
                        intern_value(value, &mut strings)?;
                    }
                }
            }
        }
        for object in &graph.objects {
            strings.intern(&object.class_name)?;
            match &object.state {
                ObjectState::Properties(p) | ObjectState::PropertiesThenWakeup(p) => {
                    intern_properties(p, &mut strings, &mut intern_value)?
                }
                ObjectState::Unserialize(_) => {}
                ObjectState::Internal { state, properties } => {
                    intern_properties(properties, &mut strings, &mut intern_value)?;
                    if let Some(text) = state.string() {
                        strings.intern(text)?;
                    }
                    let mut first_error = Ok(());
                    state.for_each_value(|value| {
                        if first_error.is_ok() {
                            first_error = intern_value(value, &mut strings);
                        }
                    });
                    first_error?;
                }
            }
        }
        for reference in &graph.references {
            intern_value(&reference.value, &mut strings)?;
        }
        let records_offset = strings.next_offset;

        // Shapes (one per distinct class name + declared names + flags) and enum cases come first in the
        // record section, so every object and slot points backwards to them.
        let mut shapes = Vec::new();
        let mut shape_index: HashMap<Vec<u64>, u32> = HashMap::new();
        let mut object_shapes = Vec::with_capacity(graph.objects.len());
        let mut shape_key = Vec::new();
        for object in &graph.objects {
            let declared = match &object.state {
                ObjectState::Properties(p) | ObjectState::PropertiesThenWakeup(p) => &p.declared[..],
                ObjectState::Internal { properties, .. } => &properties.declared[..],
                ObjectState::Unserialize(_) => &[],
            };
            shape_key.clear();
            shape_key.push(strings.offset_of(&object.class_name));
            for property in declared {
                let flags = if property.readonly { layout::PROPERTY_READONLY } else { 0 };
                shape_key.push(strings.offset_of(&property.mangled_name) << 1 | u64::from(flags));
            }
            let index = match shape_index.get(&shape_key[..]) {
                Some(&index) => index,
                None => {
                    let index = u32::try_from(shapes.len()).map_err(|_| StructureError::TooLarge)?;
                    shapes.push(Shape {
                        class_name: shape_key[0],
                        properties: shape_key[1..].iter().map(|&k| (k >> 1, (k & 1) as u32)).collect(),
                    });
                    shape_index.insert(shape_key.clone(), index);
                    index
                }
            };
            object_shapes.push(index);
        }

        let mut enum_cases = Vec::new();
        let mut enum_case_set: HashMap<(u64, u64), ()> = HashMap::new();
        let mut note_enum = |value: &Value<'_>| {
            if let Value::EnumCase(case) = value {
                let key = (strings.offset_of(&case.class_name), strings.offset_of(&case.case_name));
                if enum_case_set.insert(key, ()).is_none() {
                    enum_cases.push(key);
                }
            }
        };
        note_enum(&graph.root);
        for node in all_nodes(graph) {
            crate::analysis::for_each_child_value(graph, node, &mut note_enum);
        }

        let mut cursor = records_offset;
        let mut place = |len: u64| -> Result<u64, StructureError> {
            let offset = cursor;
            cursor = cursor.checked_add(len).ok_or(StructureError::TooLarge)?;
            Ok(offset)
        };
        let size = |fixed: usize, per_item: usize, items: usize| -> Result<u64, StructureError> {
            (items as u64)
                .checked_mul(per_item as u64)
                .and_then(|n| n.checked_add(fixed as u64))
                .ok_or(StructureError::TooLarge)
        };
        let shape_offsets = shapes
            .iter()
            .map(|shape| place(size(layout::SHAPE_FIXED_LEN, layout::SHAPE_PROPERTY_LEN, shape.properties.len())?))
            .collect::<Result<Vec<u64>, _>>()?;
        let mut enum_case_offsets = HashMap::with_capacity(enum_cases.len());
        for &key in &enum_cases {
            enum_case_offsets.insert(key, place(layout::ENUM_CASE_LEN as u64)?);
        }
        let array_offsets = graph
            .arrays
            .iter()
            .map(|array| {
                place(match &array.elements {
                    ArrayElements::Packed(slots) => size(layout::ARRAY_FIXED_LEN, layout::SLOT_LEN, slots.len())?,
                    ArrayElements::Hash(entries) => {
                        size(layout::ARRAY_FIXED_LEN, layout::HASH_ENTRY_LEN, entries.len())?
                    }
                })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        let object_offsets = graph
            .objects
            .iter()
            .map(|object| {
                let (properties, tail) = match &object.state {
                    ObjectState::Properties(p) | ObjectState::PropertiesThenWakeup(p) => (Some(p), 0),
                    ObjectState::Unserialize(_) => (None, layout::SLOT_LEN as u64),
                    ObjectState::Internal { state, properties } => (Some(properties), internal_state_len(state)?),
                };
                let (declared, dynamic) = properties.map_or((0, 0), |p| (p.declared.len(), p.dynamic.len()));
                let len = size(layout::OBJECT_FIXED_LEN, layout::SLOT_LEN, declared)?
                    .checked_add(size(0, layout::DYNAMIC_ENTRY_LEN, dynamic)?)
                    .and_then(|n| n.checked_add(tail))
                    .ok_or(StructureError::TooLarge)?;
                place(len)
            })
            .collect::<Result<Vec<u64>, _>>()?;
        let reference_offsets =
            graph.references.iter().map(|_| place(layout::REFERENCE_LEN as u64)).collect::<Result<Vec<u64>, _>>()?;
        let total_len = cursor;
        if usize::try_from(total_len).is_err()
            || u32::try_from(strings.ordered.len()).is_err()
            || u32::try_from(
                shapes.len() + enum_cases.len() + graph.arrays.len() + graph.objects.len() + graph.references.len(),
            )
            .is_err()
        {
            return Err(StructureError::TooLarge.into());
        }

        Ok(EncodePlan {
            graph,
            tier,
            analysis,
            strings,
            shapes,
            shape_offsets,
            object_shapes,
            enum_cases,
            enum_case_offsets,
            array_offsets,
            object_offsets,
            reference_offsets,
            records_offset,
            total_len,
        })
    }

    /// Exact size of the encoding in bytes.
    pub fn encoded_len(&self) -> usize {
        self.total_len as usize
    }

    /// Header flags the encoding will carry (see [`crate::flags`]).
    pub fn flags(&self) -> u32 {
        self.analysis.flags
    }

    /// Nesting depth recorded in the header.
    pub fn depth(&self) -> u32 {
        self.analysis.depth
    }

    /// Writes the encoding into `destination`, which must be exactly [`Self::encoded_len`] bytes; every
    /// byte is written (padding included), so the destination need not be zeroed.
    pub fn write_to(&self, destination: &mut [u8]) -> Result<(), EncodeError> {
        if destination.len() != self.encoded_len() {
            return Err(EncodeError::DestinationSizeMismatch {
                expected: self.encoded_len(),
                actual: destination.len(),
            });
        }
        let mut out = Out::new(destination);
        let record_count = self.shapes.len()
            + self.enum_cases.len()
            + self.graph.arrays.len()
            + self.graph.objects.len()
            + self.graph.references.len();
        write_header(
            &mut out,
            HeaderFields {
                tier: self.tier,
                flags: self.analysis.flags,
                depth: self.analysis.depth,
                total_len: self.total_len,
                string_count: self.strings.ordered.len() as u32,
                record_count: record_count as u32,
                strings_len: self.records_offset - HEADER_LEN as u64,
                records_len: self.total_len - self.records_offset,
            },
        );
        self.slot(&mut out, Some(&self.graph.root));

        for bytes in &self.strings.ordered {
            write_string_record(&mut out, bytes);
        }
        for shape in &self.shapes {
            out.record_header(RecordKind::Shape, 0, 0, shape.properties.len() as u32);
            out.u64(shape.class_name);
            for &(name, flags) in &shape.properties {
                out.u64(name);
                out.u32(flags);
                out.u32(0);
            }
        }
        for &(class_name, case_name) in &self.enum_cases {
            out.record_header(RecordKind::EnumCase, 0, 0, 0);
            out.u64(class_name);
            out.u64(case_name);
        }
        for (index, array) in self.graph.arrays.iter().enumerate() {
            let shared = shared_flag(self.analysis.array_shared[index]);
            match &array.elements {
                ArrayElements::Packed(slots) => {
                    out.record_header(RecordKind::PackedArray, shared, 0, 0);
                    out.u64(slots.len() as u64);
                    out.u64(array.next_free_index as u64);
                    out.u64(slots.iter().flatten().count() as u64);
                    for slot in slots {
                        self.slot(&mut out, slot.as_ref());
                    }
                }
                ArrayElements::Hash(entries) => {
                    out.record_header(RecordKind::HashArray, shared, 0, 0);
                    out.u64(entries.len() as u64);
                    out.u64(array.next_free_index as u64);
                    out.u64(0);
                    for (key, value) in entries {
                        match key {
                            ArrayKey::Int(i) => out.slot_raw(tag::INT, *i as u64),
                            ArrayKey::String(bytes) => out.slot_raw(tag::STRING, self.strings.offset_of(bytes)),
                        }
                        self.slot(&mut out, Some(value));
                    }
                }
            }
        }
        for (index, object) in self.graph.objects.iter().enumerate() {
            let shared = shared_flag(self.analysis.object_shared[index]);
            let shape_offset = self.shape_offsets[self.object_shapes[index] as usize];
            let (state_byte, properties) = match &object.state {
                ObjectState::Properties(p) => (object_state::PROPERTIES, Some(p)),
                ObjectState::PropertiesThenWakeup(p) => (object_state::PROPERTIES_THEN_WAKEUP, Some(p)),
                ObjectState::Unserialize(_) => (object_state::UNSERIALIZE, None),
                ObjectState::Internal { properties, .. } => (object_state::INTERNAL, Some(properties)),
            };
            let (declared, dynamic) = properties.map_or((&[][..], &[][..]), |p| (&p.declared[..], &p.dynamic[..]));
            out.record_header(RecordKind::Object, shared, state_byte, declared.len() as u32);
            out.u64(shape_offset);
            out.u64(dynamic.len() as u64);
            for property in declared {
                self.slot(&mut out, property.value.as_ref());
            }
            for (name, value) in dynamic {
                out.slot_raw(tag::STRING, self.strings.offset_of(name));
                self.slot(&mut out, Some(value));
            }
            match &object.state {
                ObjectState::Unserialize(id) => self.slot(&mut out, Some(&Value::Array(*id))),
                ObjectState::Internal { state, .. } => self.internal_state(&mut out, state),
                _ => {}
            }
        }
        for (index, reference) in self.graph.references.iter().enumerate() {
            let shared = shared_flag(self.analysis.reference_shared[index]);
            out.record_header(RecordKind::Reference, shared, 0, 0);
            self.slot(&mut out, Some(&reference.value));
        }
        out.finish()
    }

    fn internal_state(&self, out: &mut Out<'_>, state: &InternalState<'a>) {
        let words = state.words(&mut |bytes| self.strings.offset_of(bytes));
        out.u8(state.family() as u8);
        out.u8(0);
        out.u16(0);
        out.u32(words.len() as u32);
        out.u64(state.value_count() as u64);
        for word in words {
            out.u64(word);
        }
        state.for_each_value(|value| self.slot(out, Some(value)));
    }

    /// Writes one value slot; `None` is the undefined slot (a hole or an uninitialized property).
    fn slot(&self, out: &mut Out<'_>, value: Option<&Value<'a>>) {
        let Some(value) = value else {
            out.slot_raw(tag::UNDEF, 0);
            return;
        };
        match value {
            Value::Null => out.slot_raw(tag::NULL, 0),
            Value::Bool(false) => out.slot_raw(tag::FALSE, 0),
            Value::Bool(true) => out.slot_raw(tag::TRUE, 0),
            Value::Int(i) => out.slot_raw(tag::INT, *i as u64),
            Value::Float(f) => out.slot_raw(tag::FLOAT, f.to_bits()),
            Value::String(bytes) => out.slot_raw(tag::STRING, self.strings.offset_of(bytes)),
            Value::Array(id) => out.slot_raw(tag::ARRAY, self.array_offsets[id.index()]),
            Value::Object(id) => out.slot_raw(tag::OBJECT, self.object_offsets[id.index()]),
            Value::Reference(id) => out.slot_raw(tag::REFERENCE, self.reference_offsets[id.index()]),
            Value::EnumCase(case) => {
                let key = (self.strings.offset_of(&case.class_name), self.strings.offset_of(&case.case_name));
                out.slot_raw(tag::ENUM_CASE, self.enum_case_offsets.get(&key).copied().unwrap_or(0))
            }
            // Rejected by the analysis before a plan exists.
            Value::Resource => out.slot_raw(tag::UNDEF, 0),
        }
    }
}

fn internal_state_len(state: &InternalState<'_>) -> Result<u64, StructureError> {
    let words = state.family().word_count() as u64 * 8;
    (state.value_count() as u64)
        .checked_mul(layout::SLOT_LEN as u64)
        .and_then(|n| n.checked_add(words + layout::INTERNAL_STATE_FIXED_LEN as u64))
        .ok_or(StructureError::TooLarge)
}

fn all_nodes(graph: &Graph<'_>) -> impl Iterator<Item = crate::analysis::NodeRef> {
    use crate::analysis::NodeRef;
    (0..graph.arrays.len() as u32)
        .map(NodeRef::Array)
        .chain((0..graph.objects.len() as u32).map(NodeRef::Object))
        .chain((0..graph.references.len() as u32).map(NodeRef::Reference))
}

fn shared_flag(shared: bool) -> u8 {
    if shared {
        RECORD_SHARED
    } else {
        0
    }
}

struct HeaderFields {
    tier: StoreTier,
    flags: u32,
    depth: u32,
    total_len: u64,
    string_count: u32,
    record_count: u32,
    strings_len: u64,
    records_len: u64,
}

fn write_header(out: &mut Out<'_>, fields: HeaderFields) {
    debug_assert_eq!(out.pos, header::MAGIC);
    out.bytes(&layout::MAGIC);
    out.u16(layout::LAYOUT_VERSION);
    out.u8(fields.tier as u8);
    out.u8(0);
    out.u32(fields.flags);
    out.u32(fields.depth);
    out.u64(fields.total_len);
    out.u32(fields.string_count);
    out.u32(fields.record_count);
    out.u64(HEADER_LEN as u64);
    out.u64(fields.strings_len);
    out.u64(HEADER_LEN as u64 + fields.strings_len);
    out.u64(fields.records_len);
    debug_assert_eq!(out.pos, header::ROOT_SLOT);
}

fn write_string_record(out: &mut Out<'_>, bytes: &[u8]) {
    out.u64(zend_string_hash(bytes));
    out.u64(bytes.len() as u64);
    out.bytes(bytes);
    let record_len = layout::string_record_len(bytes.len() as u64).unwrap_or(0) as usize;
    // NUL terminator plus zero padding up to the next 8-byte boundary.
    out.zeros(record_len - layout::STRING_FIXED_LEN - bytes.len());
}

/// Encodes the bytes of PHP's `serialize()` as a `PHPSerialized` container: the header and one string.
pub fn encode_php_serialized(serialized: &[u8]) -> Result<Vec<u8>, EncodeError> {
    let record_len = layout::string_record_len(serialized.len() as u64).ok_or(StructureError::TooLarge)?;
    let total_len = (HEADER_LEN as u64).checked_add(record_len).ok_or(StructureError::TooLarge)?;
    let mut buffer = vec![0u8; usize::try_from(total_len).map_err(|_| StructureError::TooLarge)?];
    let mut out = Out::new(&mut buffer);
    write_header(
        &mut out,
        HeaderFields {
            tier: StoreTier::PHPSerialized,
            flags: 0,
            depth: 0,
            total_len,
            string_count: 1,
            record_count: 0,
            strings_len: record_len,
            records_len: 0,
        },
    );
    out.slot_raw(tag::STRING, HEADER_LEN as u64);
    write_string_record(&mut out, serialized);
    out.finish()?;
    Ok(buffer)
}

/// A write cursor over the destination. The plan sized the destination exactly, so a write past its end
/// is a bug in this module; it is recorded and reported by `finish` rather than panicking.
struct Out<'b> {
    buf: &'b mut [u8],
    pos: usize,
    overflowed: bool,
}

impl<'b> Out<'b> {
    fn new(buf: &'b mut [u8]) -> Self {
        Out { buf, pos: 0, overflowed: false }
    }

    fn bytes(&mut self, bytes: &[u8]) {
        let end = self.pos.saturating_add(bytes.len());
        match self.buf.get_mut(self.pos..end) {
            Some(target) => target.copy_from_slice(bytes),
            None => self.overflowed = true,
        }
        self.pos = end;
    }

    fn zeros(&mut self, count: usize) {
        let end = self.pos.saturating_add(count);
        match self.buf.get_mut(self.pos..end) {
            Some(target) => target.fill(0),
            None => self.overflowed = true,
        }
        self.pos = end;
    }

    fn u8(&mut self, value: u8) {
        self.bytes(&[value]);
    }

    fn u16(&mut self, value: u16) {
        self.bytes(&value.to_le_bytes());
    }

    fn u32(&mut self, value: u32) {
        self.bytes(&value.to_le_bytes());
    }

    fn u64(&mut self, value: u64) {
        self.bytes(&value.to_le_bytes());
    }

    fn record_header(&mut self, kind: RecordKind, flags: u8, sub: u8, count: u32) {
        self.u8(kind as u8);
        self.u8(flags);
        self.u8(sub);
        self.u8(0);
        self.u32(count);
    }

    fn slot_raw(&mut self, tag: u8, payload: u64) {
        self.u8(tag);
        self.zeros(7);
        self.u64(payload);
    }

    fn finish(self) -> Result<(), EncodeError> {
        if self.overflowed || self.pos != self.buf.len() {
            return Err(EncodeError::DestinationSizeMismatch { expected: self.pos, actual: self.buf.len() });
        }
        Ok(())
    }
}
