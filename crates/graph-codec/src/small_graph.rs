//! A one-pass check of a small tree of plain objects and arrays, the common value a reader builds on its
//! first read of a version (spec §7.2): a DTO or entity (an object of a userland class with declared
//! properties, or a `stdClass` with dynamic ones), a list of them, an array of them. [`SmallGraph::check`]
//! reads every string, every record and every slot once, with the rules
//! [`CheckedGraph::check`](crate::CheckedGraph::check) applies to such a buffer, and keeps what a builder
//! needs (the strings, the shapes with their property names, each object's and array's slots, the arrays
//! children first) in fixed tables, with no allocation and none of the general check's per-record tables.
//!
//! It answers only for what it is made for: a `SharedGraph` or `OPcacheSerialized` buffer whose header
//! says it holds objects, no reference, nothing shared and no hook, within [`MAX_STRINGS`] strings,
//! [`MAX_SHAPES`] shapes of [`MAX_PROPERTIES`] declared properties in all, [`MAX_NODES`] arrays and
//! objects and [`MAX_SLOTS`] slots in all; every record a shape, an array or an object restored from its
//! properties alone, every array and object reached once from the root. For anything else, and for any
//! buffer the general check would reject, it answers `None`, and the caller runs the general check, which
//! decides (and names the error). So a buffer it accepts is one the general check accepts, read as that
//! check's model reads it.

use crate::layout::{flags, header, tag, RecordKind, ARRAY_FIXED_LEN, OBJECT_FIXED_LEN, PROPERTY_READONLY, SLOT_LEN};
use crate::php_key::integer_key;
use crate::plain_tree::{self, repeats_a_key, PlainKey, PlainSlot, StringTable};
use crate::tier::StoreTier;
use crate::view::{GraphView, ObjectStateKind, ObjectView};

/// Most strings a small graph may hold.
pub const MAX_STRINGS: usize = plain_tree::MAX_STRINGS;
/// Most shapes (classes) it may hold.
pub const MAX_SHAPES: usize = 4;
/// Most declared property names of all its shapes together.
pub const MAX_PROPERTIES: usize = 32;
/// Most arrays and objects together (so its depth is at most this).
pub const MAX_NODES: usize = 16;
/// Most slots of all its arrays (packed slots, holes included, and hash entries) and objects (declared
/// and dynamic properties) together.
pub const MAX_SLOTS: usize = 64;

/// A value slot of a small graph. Strings, arrays and objects are named by their position in storage
/// order (among the strings, the arrays, the objects).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SmallSlot {
    /// A hole of a packed array, or an uninitialized declared property (nowhere else).
    Undef,
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(u32),
    Array(u32),
    Object(u32),
}

impl From<PlainSlot> for SmallSlot {
    /// The slot of a plain tree, read as a small graph's (ids the same: a plain tree's strings and
    /// arrays are numbered in storage order too).
    #[inline(always)]
    fn from(slot: PlainSlot) -> SmallSlot {
        match slot {
            PlainSlot::Undef => SmallSlot::Undef,
            PlainSlot::Null => SmallSlot::Null,
            PlainSlot::Bool(b) => SmallSlot::Bool(b),
            PlainSlot::Int(i) => SmallSlot::Int(i),
            PlainSlot::Float(f) => SmallSlot::Float(f),
            PlainSlot::String(id) => SmallSlot::String(id),
            PlainSlot::Array(id) => SmallSlot::Array(id),
        }
    }
}

/// Whether `bytes` may be a small graph, from the tier, flags, counts and records' length its header
/// states, read as they are, without the header's other checks: a hint for a reader choosing how to
/// build a value (the first read of a version, `read_cache`), before [`SmallGraph::check`], which checks
/// the whole buffer and decides. A buffer this refuses, the check refuses too.
pub fn likely_small(bytes: &[u8]) -> bool {
    let word = |at: usize| plain_tree::header_u32(bytes, at);
    // Each record's fixed part (a shape's, an array's or an object's, all within `RECORD_FIXED_MOST`),
    // then its slots: a hash entry's or dynamic property's two at most, a declared property name's one.
    let most = ((MAX_SHAPES + MAX_NODES) * RECORD_FIXED_MOST + (2 * MAX_SLOTS + MAX_PROPERTIES) * SLOT_LEN) as u64;
    matches!(
        bytes.get(header::TIER).copied().and_then(StoreTier::from_byte),
        Some(StoreTier::SharedGraph | StoreTier::OPcacheSerialized)
    ) && word(header::FLAGS) == Some(u64::from(flags::of(true, false, false, false)))
        && word(header::STRING_COUNT).is_some_and(|n| n <= MAX_STRINGS as u64)
        && word(header::RECORD_COUNT).is_some_and(|n| n <= (MAX_SHAPES + MAX_NODES) as u64)
        && plain_tree::word_at(bytes, header::RECORDS_LEN).is_some_and(|len| len <= most)
}

/// More than the fixed part of any shape, array or object record (its bytes before its slots).
const RECORD_FIXED_MOST: usize = 64;
const _: () = assert!(ARRAY_FIXED_LEN <= RECORD_FIXED_MOST && OBJECT_FIXED_LEN <= RECORD_FIXED_MOST);

/// An array of a small graph.
#[derive(Clone, Copy, Debug, Default)]
pub struct SmallArray {
    pub packed: bool,
    /// The stored next free index (`nNextFreeElement`).
    pub next_free_index: i64,
    /// Holes excluded.
    pub element_count: u32,
    /// It holds no object, at any depth.
    pub plain: bool,
    start: u8,
    len: u8,
}

/// An object of a small graph (restored from its properties alone).
#[derive(Clone, Copy, Debug, Default)]
pub struct SmallObject {
    pub shape: u32,
    declared: u8,
    declared_len: u8,
    dynamic: u8,
    dynamic_len: u8,
}

/// A shape: its class name and declared property names (string ids).
#[derive(Clone, Copy, Debug, Default)]
pub struct SmallShape {
    pub class_name: u32,
    start: u8,
    len: u8,
}

/// A checked small graph (see the module documentation).
pub struct SmallGraph<'a> {
    tier: StoreTier,
    strings: StringTable<'a>,
    shape_count: usize,
    shape_offsets: [u64; MAX_SHAPES],
    shapes: [SmallShape; MAX_SHAPES],
    /// Per declared property of the shapes, shape after shape: its name.
    properties: [u32; MAX_PROPERTIES],
    property_count: usize,
    array_count: usize,
    array_offsets: [u64; MAX_NODES],
    arrays: [SmallArray; MAX_NODES],
    object_count: usize,
    object_offsets: [u64; MAX_NODES],
    /// Per object: its record as the scan read it (`object_at`: the record, its shape's record, the
    /// counts checked).
    object_views: [Option<ObjectView<'a>>; MAX_NODES],
    objects: [SmallObject; MAX_NODES],
    /// Array ids, each after every array it holds (directly, or through objects).
    order: [u8; MAX_NODES],
    ordered: usize,
    /// Array entries (key, value); declared properties (key `Int(0)`); dynamic ones (key its name).
    slots: [(PlainKey, SmallSlot); MAX_SLOTS],
    slot_count: usize,
    root: SmallSlot,
}

/// The slot table of a graph not read yet: a constant, which the compiler copies into place in one go
/// (an array repeat expression was written element by element into a temporary, then copied).
const NO_SLOTS: [(PlainKey, SmallSlot); MAX_SLOTS] = [(PlainKey::Int(0), SmallSlot::Undef); MAX_SLOTS];

/// Whether `offset` is one of `starts` (sorted), and where.
fn position(starts: &[u64], offset: u64) -> Option<u32> {
    starts.binary_search(&offset).ok().map(|at| at as u32)
}

impl<'a> SmallGraph<'a> {
    /// What `build` makes of `bytes` checked as a small graph, or `None` (not one, or not valid: see
    /// the module documentation). The graph lives in this call's frame: its tables are not moved.
    pub fn check<R>(bytes: &'a [u8], build: impl FnOnce(&SmallGraph<'a>) -> R) -> Option<R> {
        let view = GraphView::new(bytes).ok()?;
        let h = *view.header();
        if !matches!(h.tier, StoreTier::SharedGraph | StoreTier::OPcacheSerialized)
            || h.flags != flags::of(true, false, false, false)
            || h.string_count as usize > MAX_STRINGS
            || h.record_count as usize > MAX_SHAPES + MAX_NODES
        {
            return None;
        }
        let mut graph = SmallGraph {
            tier: h.tier,
            strings: StringTable::new(),
            shape_count: 0,
            shape_offsets: [0; MAX_SHAPES],
            shapes: [SmallShape::default(); MAX_SHAPES],
            properties: [0; MAX_PROPERTIES],
            property_count: 0,
            array_count: 0,
            array_offsets: [0; MAX_NODES],
            arrays: [SmallArray::default(); MAX_NODES],
            object_count: 0,
            object_offsets: [0; MAX_NODES],
            object_views: [None; MAX_NODES],
            objects: [SmallObject::default(); MAX_NODES],
            order: [0; MAX_NODES],
            ordered: 0,
            slots: NO_SLOTS,
            slot_count: 0,
            root: SmallSlot::Undef,
        };
        graph.read(view)?;
        Some(build(&graph))
    }

    /// Fills this empty graph from `view` (its header already checked against the limits): `None`
    /// where the buffer is not a valid small graph.
    fn read(&mut self, view: GraphView<'a>) -> Option<()> {
        let g = self;
        let h = *view.header();
        g.strings.read(&view)?;
        // Every record: a shape, an array or an object (any other kind: the general check decides).
        let records_end = h.records_offset.checked_add(h.records_len)?;
        let mut at = h.records_offset;
        let mut records = 0usize;
        while at < records_end {
            if records >= h.record_count as usize {
                return None;
            }
            // An object's record is read once, here (`record_len_at` reads it as `object_at` does).
            let (kind, len) = match view.u8_at(at).ok()? {
                object if object == RecordKind::Object as u8 => {
                    let record = view.object_at(at).ok()?;
                    *g.object_views.get_mut(g.object_count)? = Some(record);
                    (RecordKind::Object, record.record_len().ok()?)
                }
                _ => view.record_len_at(at).ok()?,
            };
            view.check_in_records(at, len).ok()?;
            let (count, offsets) = match kind {
                RecordKind::Shape => (&mut g.shape_count, &mut g.shape_offsets[..]),
                RecordKind::PackedArray | RecordKind::HashArray => (&mut g.array_count, &mut g.array_offsets[..]),
                RecordKind::Object => (&mut g.object_count, &mut g.object_offsets[..]),
                RecordKind::EnumCase | RecordKind::Reference => return None,
            };
            *offsets.get_mut(*count)? = at;
            *count += 1;
            records += 1;
            at += len;
        }
        if records != h.record_count as usize || g.array_count + g.object_count > MAX_NODES || g.object_count == 0 {
            return None;
        }
        // Every shape, as `CheckedGraph::shape` reads it and the general check checks it: names that are
        // strings, each once, flags within the readonly bit, reserved words zero.
        for id in 0..g.shape_count {
            let offset = *g.shape_offsets.get(id)?;
            let class_name = g.string_id(view.u64_at(offset + 8).ok()?)?;
            let count = view.u32_at(offset + 4).ok()? as usize;
            let start = g.property_count;
            if count > MAX_PROPERTIES - start {
                return None;
            }
            for i in 0..count as u64 {
                let property = offset + 16 + i * 16;
                let name = g.string_id(view.u64_at(property).ok()?)?;
                if view.u32_at(property + 8).ok()? & !PROPERTY_READONLY != 0 || view.u32_at(property + 12).ok()? != 0 {
                    return None;
                }
                // A name declared twice (a crafted shape; PHP declares each once) goes to the general
                // check, which refuses it.
                let named = |id: u32| g.strings.get(id);
                if g.properties.get(start..start + i as usize)?.iter().any(|&before| named(before) == named(name)) {
                    return None;
                }
                *g.properties.get_mut(start + i as usize)? = name;
            }
            g.property_count += count;
            *g.shapes.get_mut(id)? = SmallShape { class_name, start: start as u8, len: count as u8 };
        }
        let root = g.slot(&view, header::ROOT_SLOT as u64)?;
        if !matches!(root, SmallSlot::Array(_) | SmallSlot::Object(_)) {
            return None;
        }
        g.root = root;
        let mut visited = (0u32, 0u32);
        let (height, _) = g.visit_plain(&view, root, &mut visited)?;
        // Every array and object reached once from the root: each has one incoming edge, so none is
        // shared (each one's flag was checked clear), and none holds itself.
        (visited.0.count_ones() as usize == g.array_count
            && visited.1.count_ones() as usize == g.object_count
            && height == h.depth)
            .then_some(())
    }

    /// The id of the string whose record starts at `offset`.
    fn string_id(&self, offset: u64) -> Option<u32> {
        self.strings.id_at(offset)
    }

    /// The slot at `offset`, its target found among the strings, arrays or objects (`None`: not a slot
    /// of a small graph, or not valid).
    fn slot(&self, view: &GraphView<'a>, offset: u64) -> Option<SmallSlot> {
        let (slot_tag, payload) = view.slot_word(offset).ok()?;
        Some(match slot_tag {
            tag::UNDEF if payload == 0 => SmallSlot::Undef,
            tag::NULL if payload == 0 => SmallSlot::Null,
            tag::FALSE if payload == 0 => SmallSlot::Bool(false),
            tag::TRUE if payload == 0 => SmallSlot::Bool(true),
            tag::INT => SmallSlot::Int(payload as i64),
            tag::FLOAT => SmallSlot::Float(f64::from_bits(payload)),
            tag::STRING => SmallSlot::String(self.string_id(payload)?),
            tag::ARRAY => SmallSlot::Array(position(self.array_offsets.get(..self.array_count)?, payload)?),
            tag::OBJECT => SmallSlot::Object(position(self.object_offsets.get(..self.object_count)?, payload)?),
            _ => return None,
        })
    }

    /// Room for `len` more slots: where they start.
    fn take_slots(&mut self, len: u64) -> Option<usize> {
        let start = self.slot_count;
        if len > (MAX_SLOTS - start) as u64 {
            return None;
        }
        self.slot_count += len as usize;
        Some(start)
    }

    /// Checks the value `node` and what it holds, keeping their slots; `visited` bits mark the arrays
    /// and objects met. Returns its height (0 for a scalar or string, 1 for an array or object that holds
    /// no array or object) and whether it holds no object, at any depth. Recursion is bounded by
    /// [`MAX_NODES`] (each array and object is entered once).
    fn visit_plain(&mut self, view: &GraphView<'a>, node: SmallSlot, visited: &mut (u32, u32)) -> Option<(u32, bool)> {
        match node {
            SmallSlot::Array(id) => self.visit_array(view, id, visited),
            SmallSlot::Object(id) => Some((self.visit_object(view, id, visited)?, false)),
            _ => Some((0, true)),
        }
    }

    fn visit_array(&mut self, view: &GraphView<'a>, id: u32, visited: &mut (u32, u32)) -> Option<(u32, bool)> {
        let bit = 1u32 << id;
        if visited.0 & bit != 0 {
            return None;
        }
        visited.0 |= bit;
        let array = view.array_at(*self.array_offsets.get(id as usize)?).ok()?;
        if array.is_shared {
            return None;
        }
        let start = self.take_slots(array.len)?;
        let len = array.len as usize;
        let mut present = 0u64;
        let (mut below, mut plain) = (0u32, true);
        for i in 0..len {
            let (key, value) = if array.is_packed {
                (PlainKey::Int(i as i64), self.slot(view, array.packed_slot_offset(i as u64).ok()?)?)
            } else {
                let at = array.hash_entry_offset(i as u64).ok()?;
                let key = match self.slot(view, at)? {
                    SmallSlot::Int(k) => PlainKey::Int(k),
                    // A key PHP would store as an integer is read as one, as the general check reads it.
                    SmallSlot::String(s) => {
                        integer_key(self.strings.get(s)?.0).map_or(PlainKey::String(s), PlainKey::Int)
                    }
                    _ => return None,
                };
                match self.slot(view, at + SLOT_LEN as u64)? {
                    SmallSlot::Undef => return None,
                    value => (key, value),
                }
            };
            present += u64::from(value != SmallSlot::Undef);
            let (height, child_plain) = self.visit_plain(view, value, visited)?;
            below = below.max(height);
            plain &= child_plain;
            *self.slots.get_mut(start + i)? = (key, value);
        }
        let count = if array.is_packed { array.packed_element_count } else { array.len };
        if present != count {
            return None;
        }
        if !array.is_packed && repeats_a_key(self.slots.get(start..start + len)?, &self.strings)? {
            return None;
        }
        *self.arrays.get_mut(id as usize)? = SmallArray {
            packed: array.is_packed,
            next_free_index: array.next_free_index,
            element_count: u32::try_from(present).ok()?,
            plain,
            start: start as u8,
            len: len as u8,
        };
        *self.order.get_mut(self.ordered)? = id as u8;
        self.ordered += 1;
        Some((below + 1, plain))
    }

    fn visit_object(&mut self, view: &GraphView<'a>, id: u32, visited: &mut (u32, u32)) -> Option<u32> {
        let bit = 1u32 << id;
        if visited.1 & bit != 0 {
            return None;
        }
        visited.1 |= bit;
        // The record, its shape's record and that the shape's count is the object's were checked by
        // the scan.
        let object = (*self.object_views.get(id as usize)?)?;
        if object.is_shared || object.state != ObjectStateKind::Properties {
            return None;
        }
        // A `SharedGraph` holds no dynamic property (the general check's tier rule).
        if self.tier == StoreTier::SharedGraph && object.dynamic_len != 0 {
            return None;
        }
        let shape = position(self.shape_offsets.get(..self.shape_count)?, object.shape_offset())?;
        let declared = self.take_slots(u64::from(object.declared_len))?;
        let mut below = 0u32;
        for i in 0..object.declared_len {
            let value = self.slot(view, object.declared_offset(i).ok()?)?;
            below = below.max(self.visit_plain(view, value, visited)?.0);
            *self.slots.get_mut(declared + i as usize)? = (PlainKey::Int(0), value);
        }
        let dynamic = self.take_slots(object.dynamic_len)?;
        for i in 0..object.dynamic_len {
            let at = object.dynamic_offset(i).ok()?;
            let SmallSlot::String(name) = self.slot(view, at)? else { return None };
            let value = match self.slot(view, at + SLOT_LEN as u64)? {
                SmallSlot::Undef => return None,
                value => value,
            };
            below = below.max(self.visit_plain(view, value, visited)?.0);
            *self.slots.get_mut(dynamic + i as usize)? = (PlainKey::String(name), value);
        }
        *self.objects.get_mut(id as usize)? = SmallObject {
            shape,
            declared: declared as u8,
            declared_len: object.declared_len as u8,
            dynamic: dynamic as u8,
            dynamic_len: object.dynamic_len as u8,
        };
        Some(below + 1)
    }

    /// Number of strings.
    pub fn string_count(&self) -> usize {
        self.strings.count()
    }

    /// String `id`: its bytes and PHP hash.
    #[inline]
    pub fn string(&self, id: u32) -> (&'a [u8], u64) {
        self.strings.get(id).unwrap_or((&[], 0))
    }

    /// Number of shapes.
    pub fn shape_count(&self) -> usize {
        self.shape_count
    }

    /// Shape `id`.
    pub fn shape(&self, id: u32) -> SmallShape {
        self.shapes.get(id as usize).copied().unwrap_or_default()
    }

    /// The declared property names (string ids) of `shape`, in slot order.
    pub fn property_names(&self, shape: SmallShape) -> &[u32] {
        let start = usize::from(shape.start);
        self.properties.get(start..start + usize::from(shape.len)).unwrap_or(&[])
    }

    /// Number of arrays.
    pub fn array_count(&self) -> usize {
        self.array_count
    }

    /// Array `id`.
    pub fn array(&self, id: u32) -> SmallArray {
        self.arrays.get(id as usize).copied().unwrap_or_default()
    }

    /// The entries of `array` in stored order: packed, (index, slot) with holes as `Undef`; hash,
    /// (key, value).
    pub fn entries(&self, array: SmallArray) -> &[(PlainKey, SmallSlot)] {
        self.run(array.start, array.len)
    }

    /// Number of objects.
    pub fn object_count(&self) -> usize {
        self.object_count
    }

    /// Object `id`.
    pub fn object(&self, id: u32) -> SmallObject {
        self.objects.get(id as usize).copied().unwrap_or_default()
    }

    /// The declared property values of `object`, in slot order (`Undef`: uninitialized).
    pub fn declared(&self, object: SmallObject) -> impl ExactSizeIterator<Item = SmallSlot> + '_ {
        self.run(object.declared, object.declared_len).iter().map(|&(_, value)| value)
    }

    /// The dynamic properties of `object`: (name string id, value).
    pub fn dynamic(&self, object: SmallObject) -> impl ExactSizeIterator<Item = (u32, SmallSlot)> + '_ {
        self.run(object.dynamic, object.dynamic_len).iter().map(|&(name, value)| match name {
            PlainKey::String(name) => (name, value),
            PlainKey::Int(_) => (0, value),
        })
    }

    fn run(&self, start: u8, len: u8) -> &[(PlainKey, SmallSlot)] {
        let start = usize::from(start);
        self.slots.get(start..start + usize::from(len)).unwrap_or(&[])
    }

    /// Array ids, each after every array it holds (directly or through objects).
    pub fn arrays_children_first(&self) -> &[u8] {
        self.order.get(..self.ordered).unwrap_or(&[])
    }

    /// The root: an array or an object.
    pub fn root(&self) -> SmallSlot {
        self.root
    }

    /// The tier the header names.
    pub fn tier(&self) -> StoreTier {
        self.tier
    }
}

// Array and object ids are bits of a word (`visited`); slot positions and counts fit a byte.
const _: () = assert!(MAX_NODES <= u32::BITS as usize && MAX_SLOTS <= u8::MAX as usize);
const _: () = assert!(MAX_PROPERTIES <= u8::MAX as usize);
