//! Checking an encoded buffer once, then reading it by record number.
//!
//! [`CheckedGraph::check`] validates everything: a linear scan of both sections finds every string and
//! record start (so each offset can be checked to name the start of a record of the right kind), every
//! record is read, and the graph-level facts are recomputed and compared with what the bytes claim. The
//! checked graph then names every string and record by its position in storage order (the encoder's
//! arena ids), so a reader can keep per-record tables in plain vectors and walk the graph with no
//! identity map. [`decode`] builds the owned model from it.
//!
//! Every loop is bounded by the buffer length and every allocation by the counts the scan has checked
//! against the remaining bytes.

use std::borrow::Cow;

use crate::analysis::{traversal_depth, tree_depth, NodeRef};
use crate::error::{DecodeError, StructureError};
use crate::internal_state::InternalState;
use crate::layout::{flags, header, tag, RecordKind, MAX_DEPTH, PROPERTY_READONLY, SLOT_LEN, STRING_FIXED_LEN};
use crate::model::{
    ArrayElements, ArrayId, ArrayKey, ArrayNode, DeclaredProperty, EnumCase, EnumCaseId, Graph, ObjectId, ObjectNode,
    ObjectState, Properties, ReferenceId, ReferenceNode, ShapeId, StringId, Value,
};
use crate::php_key::integer_key;
use crate::scratch::{self, Scratch, Spare};
use crate::tier::StoreTier;
use crate::view::{ArrayView, GraphView, Header, ObjectStateKind, ObjectView, SlotView};

/// A decoded graph and the header facts it was stored with.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded<'a> {
    pub header: Header,
    /// For `PHPSerialized` the root is the `serialize()` string and the arenas are empty.
    pub graph: Graph<'a>,
}

/// Validates `bytes` completely and rebuilds the model; strings borrow from `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Decoded<'_>, DecodeError> {
    let (checked, graph) = CheckedGraph::check_and_build(bytes)?;
    Ok(Decoded { header: *checked.header(), graph })
}

/// Checks everything [`decode`] checks, and returns the header.
pub fn validate(bytes: &[u8]) -> Result<Header, DecodeError> {
    CheckedGraph::check(bytes).map(|checked| *checked.header())
}

/// The stored hash of a string record, or the one PHP computes for `bytes` when the record has none (0:
/// a value string the encoder stored unhashed).
fn stored_or_computed_hash(stored: u64, bytes: &[u8]) -> u64 {
    if stored == 0 {
        crate::php_hash::zend_string_hash(bytes)
    } else {
        stored
    }
}

/// A stored string, named by its position among the buffer's strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckedString<'a> {
    pub id: StringId,
    /// `zend_string::h` as PHP computes it (checked against the bytes, or computed here for a value
    /// string stored without it).
    pub hash: u64,
    pub bytes: &'a [u8],
}

/// A value slot of a checked buffer, its target named by record number.
#[derive(Clone, Copy, Debug)]
pub enum CheckedSlot<'a> {
    /// A packed-array hole or an uninitialized property (nowhere else: the check rejects it).
    Undef,
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(CheckedString<'a>),
    Array(ArrayId),
    Object(ObjectId),
    Reference(ReferenceId),
    EnumCase(EnumCaseId),
}

/// An array key of a checked buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckedKey<'a> {
    Int(i64),
    String(CheckedString<'a>),
}

/// A buffer that passed every check, read by record number.
#[derive(Debug)]
pub struct CheckedGraph<'a> {
    view: GraphView<'a>,
    index: RecordIndex,
    /// The check's working vectors, given back to the thread's spare set when the graph is dropped.
    work: Option<Box<Work>>,
    /// Per array id: whether it is plain (see [`CheckedGraph::plain_arrays`]), worked out by the check.
    plain: Vec<bool>,
    /// Every array id once, each after the arrays it contains (see [`CheckedGraph::arrays_children_first`]).
    children_first: Vec<u32>,
    /// Per array id: whether it is packed, and its length (see [`CheckedGraph::array_lens`]).
    lens: Vec<(bool, u64)>,
    /// Per string id: whether a slot holds it as a value (see [`CheckedGraph::value_strings`]).
    value_strings: Vec<bool>,
    /// The entries (key, value) of the arrays as the check resolved them, array after array, while
    /// they number at most [`RESOLVED_MAX`] in all; per array id, where its entries start
    /// (`u32::MAX`: not kept; ids past the end: not checked yet).
    resolved: Vec<[Resolved; 2]>,
    resolved_starts: Vec<u32>,
}

/// An array key as the duplicate check compares it: its hash word (the integer itself, or the string's
/// `zend_string::h`) and the string's number ([`INT_KEY`] for an integer key).
type KeyWord = (u64, u32);
const INT_KEY: u32 = u32::MAX;
/// Arrays up to this many entries are searched for a repeated key pair by pair, without a table.
const KEYS_PAIRWISE_MAX: usize = 8;

/// Start offsets of every string and record, per kind, in ascending order (position = id).
/// Vectors a check fills, kept per thread from one check to the next (emptied), so that checking a
/// value allocates nothing once the thread has checked one as large: the record starts, the plain
/// flags and order of the arrays, and the check's working lists.
#[derive(Debug, Default)]
struct Work {
    starts: [Vec<u64>; 6],
    string_facts: Vec<[u64; 3]>,
    plain: Vec<bool>,
    children_first: Vec<u32>,
    lens: Vec<(bool, u64)>,
    value_strings: Vec<bool>,
    edges: Vec<NodeRef>,
    firsts: Vec<u32>,
    /// The `shared` flags each array, object and reference claims, and per array whether it holds an
    /// object, enum case or reference itself.
    flags: [Vec<bool>; 4],
    in_degree: [Vec<u8>; 3],
    root_edge: Vec<NodeRef>,
    state: Vec<u8>,
    stack: Vec<usize>,
    /// Per array: its height (a tree of arrays).
    heights: Vec<u32>,
    /// The stack of the depth walk of a tree that holds objects.
    walk: Vec<(NodeRef, u32)>,
    /// See [`CheckedGraph::resolved`].
    resolved: Vec<[Resolved; 2]>,
    resolved_starts: Vec<u32>,
    /// One hash array's keys ([`KeyWord`]) and the open-addressing table over them
    /// ([`CheckedGraph::repeats_a_key`]).
    keys: Vec<KeyWord>,
    key_table: Vec<u32>,
}

/// Most array entries a check keeps resolved for the reader ([`CheckedGraph::resolved`]): a small
/// value's are read back without parsing their slots again; a large one's arrays past this many
/// entries are parsed again instead of being kept (16 KiB).
const RESOLVED_MAX: usize = 512;

/// A slot as the check resolved it, its target named by number: [`CheckedSlot`] without the string's
/// bytes, which [`CheckedGraph::string`] finds again by number.
#[derive(Clone, Copy, Debug)]
enum Resolved {
    Undef,
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(StringId),
    Array(ArrayId),
    Object(ObjectId),
    Reference(ReferenceId),
    EnumCase(EnumCaseId),
}

impl Resolved {
    fn of(slot: CheckedSlot<'_>) -> Resolved {
        match slot {
            CheckedSlot::Undef => Resolved::Undef,
            CheckedSlot::Null => Resolved::Null,
            CheckedSlot::Bool(b) => Resolved::Bool(b),
            CheckedSlot::Int(i) => Resolved::Int(i),
            CheckedSlot::Float(f) => Resolved::Float(f),
            CheckedSlot::String(s) => Resolved::String(s.id),
            CheckedSlot::Array(id) => Resolved::Array(id),
            CheckedSlot::Object(id) => Resolved::Object(id),
            CheckedSlot::Reference(id) => Resolved::Reference(id),
            CheckedSlot::EnumCase(id) => Resolved::EnumCase(id),
        }
    }
}

/// Largest working set (bytes of capacity) a thread keeps for its next check.
const WORK_KEPT_BYTES: usize = 64 * 1024;

thread_local! {
    static SPARE_WORK: Spare<Work> = const { Spare::new(None) };
}

impl Scratch for Work {
    fn worth_keeping(&self) -> bool {
        let bytes = self.starts.iter().map(|v| v.capacity() * 8).sum::<usize>()
            + self.string_facts.capacity() * 24
            + self.plain.capacity()
            + self.children_first.capacity() * 4
            + self.lens.capacity() * size_of::<(bool, u64)>()
            + self.value_strings.capacity()
            + self.edges.capacity() * size_of::<NodeRef>()
            + self.firsts.capacity() * 4
            + self.flags.iter().map(Vec::capacity).sum::<usize>()
            + self.in_degree.iter().map(Vec::capacity).sum::<usize>()
            + self.root_edge.capacity() * size_of::<NodeRef>()
            + self.state.capacity()
            + self.stack.capacity() * 8
            + self.heights.capacity() * 4
            + self.walk.capacity() * size_of::<(NodeRef, u32)>()
            + self.resolved.capacity() * size_of::<[Resolved; 2]>()
            + self.resolved_starts.capacity() * 4
            + self.keys.capacity() * size_of::<KeyWord>()
            + self.key_table.capacity() * 4;
        bytes <= WORK_KEPT_BYTES
    }

    fn clear(&mut self) {
        self.starts.iter_mut().for_each(Vec::clear);
        self.string_facts.clear();
        self.plain.clear();
        self.children_first.clear();
        self.lens.clear();
        self.value_strings.clear();
        self.edges.clear();
        self.firsts.clear();
        self.flags.iter_mut().for_each(Vec::clear);
        self.in_degree.iter_mut().for_each(Vec::clear);
        self.root_edge.clear();
        self.state.clear();
        self.stack.clear();
        self.heights.clear();
        self.walk.clear();
        self.resolved.clear();
        self.resolved_starts.clear();
        self.keys.clear();
        self.key_table.clear();
    }
}

impl Drop for CheckedGraph<'_> {
    fn drop(&mut self) {
        let Some(mut work) = self.work.take() else { return };
        let index = std::mem::take(&mut self.index);
        work.starts = [index.strings, index.shapes, index.enum_cases, index.arrays, index.objects, index.references];
        work.string_facts = index.string_facts;
        work.plain = std::mem::take(&mut self.plain);
        work.children_first = std::mem::take(&mut self.children_first);
        work.lens = std::mem::take(&mut self.lens);
        work.value_strings = std::mem::take(&mut self.value_strings);
        work.resolved = std::mem::take(&mut self.resolved);
        work.resolved_starts = std::mem::take(&mut self.resolved_starts);
        scratch::give_back(&SPARE_WORK, work);
    }
}

#[derive(Debug, Default)]
struct RecordIndex {
    strings: Vec<u64>,
    /// Per string: its hash (stored, or computed for a value string stored without it), and where its
    /// bytes start in the buffer and how many, all checked by the scan.
    string_facts: Vec<[u64; 3]>,
    shapes: Vec<u64>,
    enum_cases: Vec<u64>,
    arrays: Vec<u64>,
    objects: Vec<u64>,
    references: Vec<u64>,
}

impl RecordIndex {
    /// Scans the sections, the starts written into the (empty) vectors of `work`.
    fn scan(view: &GraphView<'_>, work: &mut Work) -> Result<Self, DecodeError> {
        let header = view.header();
        let [strings, shapes, enum_cases, arrays, objects, references] = std::mem::take(&mut work.starts);
        let (mut strings, mut string_facts) = (strings, std::mem::take(&mut work.string_facts));
        strings.reserve(header.string_count as usize);
        string_facts.reserve(header.string_count as usize);
        let mut at = header.strings_offset;
        let strings_end = header.strings_offset + header.strings_len;
        while at < strings_end {
            if strings.len() >= header.string_count as usize {
                return Err(DecodeError::HeaderMismatch { field: "string count" });
            }
            strings.push(at);
            let (string, record_len) = view.string_record_checked(at)?;
            // The bytes start `STRING_FIXED_LEN` past the record, inside the buffer (just read).
            let start = at + STRING_FIXED_LEN as u64;
            string_facts.push([stored_or_computed_hash(string.hash, string.bytes), start, string.bytes.len() as u64]);
            at += record_len;
        }
        if strings.len() != header.string_count as usize {
            return Err(DecodeError::HeaderMismatch { field: "string count" });
        }

        let mut index = RecordIndex { strings, string_facts, shapes, enum_cases, arrays, objects, references };
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

/// Position of `offset` in `starts`, or `NotARecordStart`.
fn position_of(starts: &[u64], offset: u64) -> Result<u32, DecodeError> {
    starts.binary_search(&offset).map(|position| position as u32).map_err(|_| DecodeError::NotARecordStart { offset })
}

/// The offset of record `id` in `starts`, or `IndexOutOfRange`.
fn offset_of(starts: &[u64], id: u32) -> Result<u64, DecodeError> {
    starts.get(id as usize).copied().ok_or(DecodeError::IndexOutOfRange { index: u64::from(id) })
}

impl<'a> CheckedGraph<'a> {
    /// Validates `bytes` completely (see the module documentation), without building the model.
    pub fn check(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        let view = GraphView::new(bytes)?;
        let mut work = scratch::take(&SPARE_WORK);
        let index = RecordIndex::scan(&view, &mut work)?;
        let plain = std::mem::take(&mut work.plain);
        let children_first = std::mem::take(&mut work.children_first);
        let lens = std::mem::take(&mut work.lens);
        let value_strings = std::mem::take(&mut work.value_strings);
        let (resolved, resolved_starts) =
            (std::mem::take(&mut work.resolved), std::mem::take(&mut work.resolved_starts));
        let mut checked = CheckedGraph {
            view,
            index,
            work: Some(work),
            plain,
            children_first,
            lens,
            value_strings,
            resolved,
            resolved_starts,
        };
        if view.tier() == StoreTier::PHPSerialized {
            let CheckedSlot::String(_) = checked.root()? else {
                return Err(DecodeError::UnexpectedSlot { offset: header::ROOT_SLOT as u64 });
            };
        } else {
            checked.check_graph()?;
        }
        Ok(checked)
    }

    /// The checked graph and the model it describes.
    fn check_and_build(bytes: &'a [u8]) -> Result<(Self, Graph<'a>), DecodeError> {
        let checked = Self::check(bytes)?;
        let graph = checked.build()?;
        Ok((checked, graph))
    }

    pub fn header(&self) -> &Header {
        self.view.header()
    }

    /// The in-place view of the same buffer.
    pub fn view(&self) -> &GraphView<'a> {
        &self.view
    }

    pub fn string_count(&self) -> usize {
        self.index.strings.len()
    }
    pub fn shape_count(&self) -> usize {
        self.index.shapes.len()
    }
    pub fn enum_case_count(&self) -> usize {
        self.index.enum_cases.len()
    }
    pub fn array_count(&self) -> usize {
        self.index.arrays.len()
    }
    pub fn object_count(&self) -> usize {
        self.index.objects.len()
    }
    pub fn reference_count(&self) -> usize {
        self.index.references.len()
    }

    /// The root value.
    pub fn root(&self) -> Result<CheckedSlot<'a>, DecodeError> {
        self.slot(header::ROOT_SLOT as u64)
    }

    /// The bytes of PHP's `serialize()` held by a `PHPSerialized` container.
    pub fn php_serialized_bytes(&self) -> Result<&'a [u8], DecodeError> {
        self.view.php_serialized_bytes()
    }

    /// String `id`.
    pub fn string(&self, id: StringId) -> Result<CheckedString<'a>, DecodeError> {
        let &[hash, start, len] =
            self.index.string_facts.get(id.index()).ok_or(DecodeError::IndexOutOfRange { index: u64::from(id.0) })?;
        let bytes = usize::try_from(start)
            .ok()
            .zip(usize::try_from(len).ok())
            .and_then(|(start, len)| self.view.bytes().get(start..start.checked_add(len)?))
            .ok_or(DecodeError::OutOfBounds { offset: start })?;
        Ok(CheckedString { id, hash, bytes })
    }

    fn string_at(&self, offset: u64) -> Result<CheckedString<'a>, DecodeError> {
        let id = self.index.strings.binary_search(&offset).map_err(|_| DecodeError::NotAStringStart { offset })?;
        self.string(StringId(id as u32))
    }

    /// Names the target of an in-place slot by record number.
    pub fn resolve(&self, slot: SlotView<'a>) -> Result<CheckedSlot<'a>, DecodeError> {
        Ok(match slot {
            SlotView::Undef => CheckedSlot::Undef,
            SlotView::Null => CheckedSlot::Null,
            SlotView::Bool(b) => CheckedSlot::Bool(b),
            SlotView::Int(i) => CheckedSlot::Int(i),
            SlotView::Float(f) => CheckedSlot::Float(f),
            SlotView::String(s) => CheckedSlot::String(self.string_at(s.offset)?),
            SlotView::Array(a) => CheckedSlot::Array(ArrayId(position_of(&self.index.arrays, a.offset)?)),
            SlotView::Object(o) => CheckedSlot::Object(ObjectId(position_of(&self.index.objects, o.offset)?)),
            SlotView::Reference(r) => {
                CheckedSlot::Reference(ReferenceId(position_of(&self.index.references, r.offset)?))
            }
            SlotView::EnumCase(e) => CheckedSlot::EnumCase(EnumCaseId(position_of(&self.index.enum_cases, e.offset)?)),
        })
    }

    /// The value slot at `offset` (the root, or one in a record the check reads), its target named by
    /// record number: the target is found among the starts the scan recorded for its kind (so it is a
    /// record of that kind, which the check reads by number), without reading the target record again.
    fn slot(&self, offset: u64) -> Result<CheckedSlot<'a>, DecodeError> {
        let (slot_tag, payload) = self.view.slot_word(offset)?;
        Ok(match slot_tag {
            tag::UNDEF if payload == 0 => CheckedSlot::Undef,
            tag::NULL if payload == 0 => CheckedSlot::Null,
            tag::FALSE if payload == 0 => CheckedSlot::Bool(false),
            tag::TRUE if payload == 0 => CheckedSlot::Bool(true),
            tag::UNDEF | tag::NULL | tag::FALSE | tag::TRUE => {
                return Err(DecodeError::NonZeroReserved { offset: offset + 8 })
            }
            tag::INT => CheckedSlot::Int(payload as i64),
            tag::FLOAT => CheckedSlot::Float(f64::from_bits(payload)),
            tag::STRING => CheckedSlot::String(self.string_at(payload)?),
            tag::ARRAY => CheckedSlot::Array(ArrayId(position_of(&self.index.arrays, payload)?)),
            tag::OBJECT => CheckedSlot::Object(ObjectId(position_of(&self.index.objects, payload)?)),
            tag::REFERENCE => CheckedSlot::Reference(ReferenceId(position_of(&self.index.references, payload)?)),
            tag::ENUM_CASE => CheckedSlot::EnumCase(EnumCaseId(position_of(&self.index.enum_cases, payload)?)),
            other => return Err(DecodeError::UnknownSlotTag { offset, tag: other }),
        })
    }

    /// The slot the check resolved as `resolved`.
    fn slot_of(&self, resolved: Resolved) -> Result<CheckedSlot<'a>, DecodeError> {
        Ok(match resolved {
            Resolved::Undef => CheckedSlot::Undef,
            Resolved::Null => CheckedSlot::Null,
            Resolved::Bool(b) => CheckedSlot::Bool(b),
            Resolved::Int(i) => CheckedSlot::Int(i),
            Resolved::Float(f) => CheckedSlot::Float(f),
            Resolved::String(id) => CheckedSlot::String(self.string(id)?),
            Resolved::Array(id) => CheckedSlot::Array(id),
            Resolved::Object(id) => CheckedSlot::Object(id),
            Resolved::Reference(id) => CheckedSlot::Reference(id),
            Resolved::EnumCase(id) => CheckedSlot::EnumCase(id),
        })
    }

    /// A slot where `Undef` is not allowed (anywhere but holes and uninitialized properties).
    fn resolve_defined(&self, slot: SlotView<'a>, record: u64) -> Result<CheckedSlot<'a>, DecodeError> {
        match self.resolve(slot)? {
            CheckedSlot::Undef => Err(DecodeError::UndefOutOfPlace { offset: record }),
            slot => Ok(slot),
        }
    }

    /// Array `id`.
    pub fn array(&self, id: ArrayId) -> Result<CheckedArray<'_, 'a>, DecodeError> {
        Ok(CheckedArray { graph: self, id, view: self.view.array_at(offset_of(&self.index.arrays, id.0)?)? })
    }

    /// Object `id`.
    pub fn object(&self, id: ObjectId) -> Result<CheckedObject<'_, 'a>, DecodeError> {
        let view = self.view.object_at(offset_of(&self.index.objects, id.0)?)?;
        let shape = ShapeId(position_of(&self.index.shapes, view.shape_offset())?);
        Ok(CheckedObject { graph: self, view, shape })
    }

    /// The value of reference `id` (never itself a reference).
    pub fn reference(&self, id: ReferenceId) -> Result<CheckedSlot<'a>, DecodeError> {
        let reference = self.view.reference_at(offset_of(&self.index.references, id.0)?)?;
        self.resolve_defined(reference.value()?, reference.offset)
    }

    /// Enum case `id`: (enum class name, case name).
    pub fn enum_case(&self, id: EnumCaseId) -> Result<(CheckedString<'a>, CheckedString<'a>), DecodeError> {
        let case = self.view.enum_case_at(offset_of(&self.index.enum_cases, id.0)?)?;
        Ok((self.string_at(case.class_name.offset)?, self.string_at(case.case_name.offset)?))
    }

    /// Shape `id`: the class name and the declared property names (mangled) with their readonly flag.
    pub fn shape(&self, id: ShapeId) -> Result<CheckedShape<'a>, DecodeError> {
        let offset = offset_of(&self.index.shapes, id.0)?;
        let class_name = self.string_at(self.view.u64_at(offset + 8)?)?;
        let count = self.view.u32_at(offset + 4)?;
        let properties = (0..count)
            .map(|i| {
                let property = offset + 16 + u64::from(i) * 16;
                let name = self.string_at(self.view.u64_at(property)?)?;
                let flags = self.view.u32_at(property + 8)?;
                if flags & !PROPERTY_READONLY != 0 || self.view.u32_at(property + 12)? != 0 {
                    return Err(DecodeError::NonZeroReserved { offset: property + 8 });
                }
                Ok((name, flags & PROPERTY_READONLY != 0))
            })
            .collect::<Result<Vec<_>, DecodeError>>()?;
        Ok(CheckedShape { class_name, properties })
    }

    /// Which arrays hold nothing but scalars, strings and such arrays, at any depth: no object, enum
    /// case or reference. PHP can share those as engine-immutable arrays (spec §7.2). Worked out by the
    /// check, from the edges it collects (no second walk of the records).
    pub fn plain_arrays(&self) -> &[bool] {
        &self.plain
    }

    /// Per array id, whether it is packed and its length ([`CheckedArray::is_packed`],
    /// [`CheckedArray::len`]), as the check read them: empty before the check of a graph has run, and
    /// for a `PHPSerialized` container.
    pub fn array_lens(&self) -> &[(bool, u64)] {
        &self.lens
    }

    /// Per string id, whether a slot holds it as a value (the root, an array element, a property, a
    /// reference's value, a value of internal state) rather than only as an array key: empty before the
    /// check of a graph has run, and for a `PHPSerialized` container.
    pub fn value_strings(&self) -> &[bool] {
        &self.value_strings
    }

    /// The byte lengths of the strings, by id (as [`CheckedGraph::string`] gives their bytes).
    pub fn string_lens(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        self.index.string_facts.iter().map(|&[_, _, len]| len)
    }

    /// Every array id once, each after every array it contains (arrays nest acyclically: checked), so
    /// a reader resolving arrays in this order finds each child already resolved.
    pub fn arrays_children_first(&self) -> &[u32] {
        &self.children_first
    }

    /// The plain flags and the children-first order of the arrays, from each array's child arrays
    /// (`children`) and whether it holds an object, enum case or reference itself (`mixed`); an array
    /// that contains itself, directly or not, is an `ArrayCycle`.
    /// `state` and `stack` are empty working lists; the flags and order are written into the empty
    /// `plain` and `order`.
    fn settle_arrays<'e>(
        mixed: &[bool],
        children: impl Fn(NodeRef) -> &'e [NodeRef],
        (state, stack): (&mut Vec<u8>, &mut Vec<usize>),
        (plain, order): (&mut Vec<bool>, &mut Vec<u32>),
    ) -> Result<(), DecodeError> {
        let count = mixed.len();
        let arrays = |array: usize| {
            children(NodeRef::Array(array as u32)).iter().filter_map(|node| match *node {
                NodeRef::Array(child) => Some(child as usize),
                _ => None,
            })
        };
        const UNSEEN: u8 = 0;
        const OPEN: u8 = 1;
        const PLAIN: u8 = 2;
        const MIXED: u8 = 3;
        state.resize(count, UNSEEN);
        order.reserve(count);
        for start in 0..count {
            if state[start] != UNSEEN {
                continue;
            }
            stack.push(start);
            while let Some(&top) = stack.last() {
                if state[top] == UNSEEN {
                    state[top] = OPEN;
                    for child in arrays(top) {
                        match state.get(child) {
                            Some(&UNSEEN) => stack.push(child),
                            Some(&OPEN) => return Err(StructureError::ArrayCycle.into()),
                            Some(_) => {}
                            None => return Err(DecodeError::IndexOutOfRange { index: child as u64 }),
                        }
                    }
                    continue;
                }
                stack.pop();
                if state[top] != OPEN {
                    continue;
                }
                let plain = !mixed.get(top).copied().unwrap_or(true)
                    && arrays(top).all(|child| state.get(child) == Some(&PLAIN));
                state[top] = if plain { PLAIN } else { MIXED };
                order.push(top as u32);
            }
        }
        plain.extend(state.iter().map(|&s| s == PLAIN));
        Ok(())
    }

    /// Builds the model of a checked buffer.
    fn build(&self) -> Result<Graph<'a>, DecodeError> {
        let value = |slot: CheckedSlot<'a>| -> Result<Value<'a>, DecodeError> {
            Ok(match slot {
                CheckedSlot::Undef => return Err(DecodeError::UndefOutOfPlace { offset: header::ROOT_SLOT as u64 }),
                CheckedSlot::Null => Value::Null,
                CheckedSlot::Bool(b) => Value::Bool(b),
                CheckedSlot::Int(i) => Value::Int(i),
                CheckedSlot::Float(f) => Value::Float(f),
                CheckedSlot::String(s) => Value::String(Cow::Borrowed(s.bytes)),
                CheckedSlot::Array(id) => Value::Array(id),
                CheckedSlot::Object(id) => Value::Object(id),
                CheckedSlot::Reference(id) => Value::Reference(id),
                CheckedSlot::EnumCase(id) => {
                    let (class_name, case_name) = self.enum_case(id)?;
                    Value::EnumCase(Box::new(EnumCase {
                        class_name: Cow::Borrowed(class_name.bytes),
                        case_name: Cow::Borrowed(case_name.bytes),
                    }))
                }
            })
        };
        if self.view.tier() == StoreTier::PHPSerialized {
            let CheckedSlot::String(serialized) = self.root()? else {
                return Err(DecodeError::UnexpectedSlot { offset: header::ROOT_SLOT as u64 });
            };
            return Ok(Graph::new(Value::String(Cow::Borrowed(serialized.bytes))));
        }
        let mut graph = Graph::new(value(self.root()?)?);

        graph.arrays.reserve_exact(self.array_count());
        for id in 0..self.array_count() {
            let array = self.array(ArrayId(id as u32))?;
            let elements = if array.is_packed() {
                let mut slots = Vec::with_capacity(array.len() as usize);
                for i in 0..array.len() {
                    slots.push(match array.value(i)? {
                        CheckedSlot::Undef => None,
                        slot => Some(value(slot)?),
                    });
                }
                ArrayElements::Packed(slots)
            } else {
                let mut entries = Vec::with_capacity(array.len() as usize);
                for i in 0..array.len() {
                    let (key, slot) = array.entry(i)?;
                    let key = match key {
                        CheckedKey::Int(i) => ArrayKey::Int(i),
                        CheckedKey::String(s) => ArrayKey::String(Cow::Borrowed(s.bytes)),
                    };
                    entries.push((key, value(slot)?));
                }
                ArrayElements::Hash(entries)
            };
            graph.arrays.push(ArrayNode { elements, next_free_index: array.next_free_index() });
        }

        graph.objects.reserve_exact(self.object_count());
        for id in 0..self.object_count() {
            let object = self.object(ObjectId(id as u32))?;
            let shape = self.shape(object.shape())?;
            let mut properties = Properties {
                declared: Vec::with_capacity(shape.properties.len()),
                dynamic: Vec::with_capacity(object.dynamic_len() as usize),
            };
            for (i, (name, readonly)) in shape.properties.iter().enumerate() {
                let value = match object.declared(i as u32)? {
                    CheckedSlot::Undef => None,
                    slot => Some(value(slot)?),
                };
                properties.declared.push(DeclaredProperty {
                    mangled_name: Cow::Borrowed(name.bytes),
                    value,
                    readonly: *readonly,
                });
            }
            for i in 0..object.dynamic_len() {
                let (name, slot) = object.dynamic(i)?;
                properties.dynamic.push((Cow::Borrowed(name.bytes), value(slot)?));
            }
            let state = match object.state() {
                ObjectStateKind::Properties => ObjectState::Properties(properties),
                ObjectStateKind::PropertiesThenWakeup => ObjectState::PropertiesThenWakeup(properties),
                ObjectStateKind::Unserialize => ObjectState::Unserialize(object.unserialize_data()?),
                ObjectStateKind::Internal => {
                    ObjectState::Internal { state: object.internal_state()?.try_map_values(value)?, properties }
                }
            };
            graph.objects.push(ObjectNode { class_name: Cow::Borrowed(shape.class_name.bytes), state });
        }

        graph.references.reserve_exact(self.reference_count());
        for id in 0..self.reference_count() {
            graph.references.push(ReferenceNode { value: value(self.reference(ReferenceId(id as u32))?)? });
        }
        Ok(graph)
    }

    /// Reads every record once and checks the graph-level rules (as `analysis` states them for the
    /// model): every reference is to a record start of the right kind, `Undef` only in holes and
    /// uninitialized properties, no reference to a reference, no array-only cycle, object storage keyed
    /// by objects, the `shared` flags, the header flags and depth, and that the graph fits its tier.
    fn check_graph(&mut self) -> Result<(), DecodeError> {
        let header = *self.header();
        let counts = [self.array_count(), self.object_count(), self.reference_count()];
        // PHP declares each property once; a shape naming one twice would give a reader two values for
        // one slot, and which one wins would depend on the reader. Refused after every record reads.
        let mut repeated = None;
        for id in 0..self.shape_count() {
            let shape = self.shape(ShapeId(id as u32))?;
            let mut names: Vec<&[u8]> = shape.properties.iter().map(|(name, _)| name.bytes).collect();
            names.sort_unstable();
            if repeated.is_none() && names.windows(2).any(|pair| pair[0] == pair[1]) {
                repeated = Some(offset_of(&self.index.shapes, id as u32)?);
            }
        }
        for id in 0..self.enum_case_count() {
            self.enum_case(EnumCaseId(id as u32))?;
        }
        if let Some(offset) = repeated {
            return Err(DecodeError::RepeatedProperty { offset });
        }
        // The working lists come from `work` (empty) and go back to it at the end.
        let work = self.work.get_or_insert_with(Box::default);
        // Children of every node in encoded order (the order `analysis` walks), as one flat list.
        let mut edges = std::mem::take(&mut work.edges);
        // Where each node's children start (arrays, then objects, then references; one past the end).
        let mut firsts = std::mem::take(&mut work.firsts);
        firsts.reserve(counts.iter().sum::<usize>() + 1);
        let [mut claimed_arrays, mut claimed_objects, mut claimed_references, mut mixed] =
            std::mem::take(&mut work.flags);
        let mut in_degree = std::mem::take(&mut work.in_degree);
        let mut root_edge = std::mem::take(&mut work.root_edge);
        let (mut state, mut stack) = (std::mem::take(&mut work.state), std::mem::take(&mut work.stack));
        let (mut keys, mut key_table) = (std::mem::take(&mut work.keys), std::mem::take(&mut work.key_table));
        let mut contains_enum_case = false;
        let mut value_strings = std::mem::take(&mut self.value_strings);
        value_strings.resize(self.string_count(), false);
        let mut note = |slot: CheckedSlot<'a>, edges: &mut Vec<NodeRef>| match slot {
            CheckedSlot::String(s) => {
                if let Some(value) = value_strings.get_mut(s.id.index()) {
                    *value = true;
                }
            }
            CheckedSlot::Array(id) => edges.push(NodeRef::Array(id.0)),
            CheckedSlot::Object(id) => edges.push(NodeRef::Object(id.0)),
            CheckedSlot::Reference(id) => edges.push(NodeRef::Reference(id.0)),
            CheckedSlot::EnumCase(_) => contains_enum_case = true,
            _ => {}
        };
        let root = match self.root()? {
            CheckedSlot::Undef => return Err(DecodeError::UndefOutOfPlace { offset: header::ROOT_SLOT as u64 }),
            root => root,
        };
        // Per array: whether it holds an object, enum case or reference itself.
        mixed.reserve(counts[0]);
        // The entries are resolved here once; a small value's are kept for the reader.
        let (mut resolved, mut resolved_starts) =
            (std::mem::take(&mut self.resolved), std::mem::take(&mut self.resolved_starts));
        resolved_starts.reserve(counts[0]);
        let mut lens = std::mem::take(&mut self.lens);
        lens.reserve(counts[0]);
        for id in 0..counts[0] {
            firsts.push(edges.len() as u32);
            let array = self.array(ArrayId(id as u32))?;
            claimed_arrays.push(array.view.is_shared);
            lens.push((array.is_packed(), array.len()));
            let mut present = 0u64;
            let mut holds_mixed = false;
            let keep = usize::try_from(array.len()).is_ok_and(|len| resolved.len() + len <= RESOLVED_MAX);
            resolved_starts.push(if keep { resolved.len() as u32 } else { u32::MAX });
            keys.clear();
            for i in 0..array.len() {
                let (key, value) = array.parse_entry(i)?;
                if !array.is_packed() {
                    keys.push(match key {
                        CheckedKey::Int(i) => (i as u64, INT_KEY),
                        CheckedKey::String(s) => (s.hash, s.id.0),
                    });
                }
                present += u64::from(!matches!(value, CheckedSlot::Undef));
                holds_mixed |=
                    matches!(value, CheckedSlot::Object(_) | CheckedSlot::Reference(_) | CheckedSlot::EnumCase(_));
                if keep {
                    let key = match key {
                        CheckedKey::Int(i) => Resolved::Int(i),
                        CheckedKey::String(s) => Resolved::String(s.id),
                    };
                    resolved.push([key, Resolved::of(value)]);
                }
                note(value, &mut edges);
            }
            mixed.push(holds_mixed);
            if present != array.element_count() {
                return Err(DecodeError::HeaderMismatch { field: "packed element count" });
            }
            if self.repeats_a_key(&keys, &mut key_table)? {
                return Err(StructureError::DuplicateKey(ArrayId(id as u32)).into());
            }
        }
        let mut contains_hooks = false;
        let mut contains_dynamic = false;
        for id in 0..counts[1] {
            firsts.push(edges.len() as u32);
            let object = self.object(ObjectId(id as u32))?;
            claimed_objects.push(object.view.is_shared);
            for i in 0..object.declared_len() {
                note(object.declared(i)?, &mut edges);
            }
            for i in 0..object.dynamic_len() {
                note(object.dynamic(i)?.1, &mut edges);
            }
            match object.state() {
                ObjectStateKind::Properties => contains_dynamic |= object.dynamic_len() > 0,
                ObjectStateKind::PropertiesThenWakeup => contains_hooks = true,
                ObjectStateKind::Unserialize => {
                    contains_hooks = true;
                    note(CheckedSlot::Array(object.unserialize_data()?), &mut edges);
                }
                ObjectStateKind::Internal => {
                    contains_dynamic |= object.dynamic_len() > 0;
                    let state = object.internal_state()?;
                    if let InternalState::ObjectStorage(storage) = &state {
                        // A key is an object, an enum case among them (restored as the engine's singleton).
                        if storage
                            .entries
                            .iter()
                            .any(|e| !matches!(e.object, CheckedSlot::Object(_) | CheckedSlot::EnumCase(_)))
                        {
                            return Err(StructureError::StorageKeyNotObject(ObjectId(id as u32)).into());
                        }
                    }
                    state.for_each_value(|value| note(*value, &mut edges));
                }
            }
        }
        for id in 0..counts[2] {
            firsts.push(edges.len() as u32);
            let offset = offset_of(&self.index.references, id as u32)?;
            claimed_references.push(self.view.reference_at(offset)?.is_shared);
            let value = self.reference(ReferenceId(id as u32))?;
            if let CheckedSlot::Reference(_) = value {
                return Err(StructureError::NestedReference(ReferenceId(id as u32)).into());
            }
            note(value, &mut edges);
        }
        firsts.push(edges.len() as u32);
        let children = |node: NodeRef| -> &[NodeRef] {
            let at = match node {
                NodeRef::Array(i) => i as usize,
                NodeRef::Object(i) => counts[0] + i as usize,
                NodeRef::Reference(i) => counts[0] + counts[1] + i as usize,
            };
            match (firsts.get(at), firsts.get(at + 1)) {
                (Some(&start), Some(&end)) => &edges[start as usize..end as usize],
                _ => &[],
            }
        };

        // Shared: reachable more than once, the root counting as one incoming edge.
        for (degrees, &count) in in_degree.iter_mut().zip(&counts) {
            degrees.resize(count, 0);
        }
        note(root, &mut root_edge);
        for edge in root_edge.iter().chain(&edges) {
            let (kind, id) = match *edge {
                NodeRef::Array(i) => (0, i),
                NodeRef::Object(i) => (1, i),
                NodeRef::Reference(i) => (2, i),
            };
            let degree = &mut in_degree[kind][id as usize];
            *degree = degree.saturating_add(1);
        }
        let starts = [&self.index.arrays, &self.index.objects, &self.index.references];
        let shared_claims = [&claimed_arrays, &claimed_objects, &claimed_references];
        for kind in 0..3 {
            if let Some(i) = (0..counts[kind]).find(|&i| shared_claims[kind][i] != (in_degree[kind][i] >= 2)) {
                return Err(DecodeError::SharedFlagMismatch { offset: starts[kind][i] });
            }
        }
        let any_shared = in_degree.iter().flatten().any(|&d| d >= 2);

        // Rejects an array-only cycle.
        let (mut plain, mut children_first) =
            (std::mem::take(&mut self.plain), std::mem::take(&mut self.children_first));
        Self::settle_arrays(&mixed, children, (&mut state, &mut stack), (&mut plain, &mut children_first))?;
        let depth = if !any_shared && counts[1] == 0 && counts[2] == 0 {
            // A tree of arrays: the walk meets each array once, one level below its parent, so the depth
            // is the root's height, worked out children first.
            let mut heights = std::mem::take(&mut self.work.get_or_insert_with(Box::default).heights);
            heights.resize(counts[0], 0);
            for &array in &children_first {
                let below = children(NodeRef::Array(array))
                    .iter()
                    .filter_map(|child| match *child {
                        NodeRef::Array(child) => heights.get(child as usize).copied(),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(0);
                if let Some(height) = heights.get_mut(array as usize) {
                    *height = below.saturating_add(1);
                }
            }
            let depth = match root_edge.first() {
                Some(&NodeRef::Array(root)) => heights.get(root as usize).copied().unwrap_or(0),
                _ => 0,
            };
            self.work.get_or_insert_with(Box::default).heights = heights;
            depth
        } else {
            let full_walk = || {
                traversal_depth(root_edge.first().copied(), counts, MAX_DEPTH, |node, out| {
                    out.extend_from_slice(children(node))
                })
            };
            if any_shared {
                full_walk()
            } else {
                // A tree that holds objects or references: walked on the thread's kept stack.
                let work = self.work.get_or_insert_with(Box::default);
                let node_count = counts.iter().sum();
                tree_depth(root_edge.first().copied(), node_count, MAX_DEPTH, &mut work.walk, children)
                    .unwrap_or_else(full_walk)
            }
        };
        if depth > MAX_DEPTH {
            return Err(StructureError::TooDeep { depth, limit: MAX_DEPTH }.into());
        }
        if depth != header.depth {
            return Err(DecodeError::HeaderMismatch { field: "depth" });
        }

        let contains_objects = counts[1] > 0 || contains_enum_case;
        let contains_references = counts[2] > 0;
        let tier_fits = match header.tier {
            StoreTier::Scalar => {
                !matches!(root, CheckedSlot::Array(_) | CheckedSlot::Object(_) | CheckedSlot::Reference(_))
                    && counts == [0, 0, 0]
                    && !contains_enum_case
            }
            StoreTier::SharedGraph => !contains_hooks && !contains_dynamic,
            StoreTier::OPcacheSerialized => true,
            StoreTier::PHPSerialized => false,
        };
        if !tier_fits {
            return Err(StructureError::TierMismatch(header.tier).into());
        }
        let header_flags = flags::of(contains_objects, contains_references, any_shared, contains_hooks);
        if header_flags != header.flags {
            return Err(DecodeError::HeaderMismatch { field: "flags" });
        }
        self.plain = plain;
        self.children_first = children_first;
        self.lens = lens;
        self.value_strings = value_strings;
        (self.resolved, self.resolved_starts) = (resolved, resolved_starts);
        let work = self.work.get_or_insert_with(Box::default);
        (work.edges, work.firsts, work.root_edge, work.state, work.stack) = (edges, firsts, root_edge, state, stack);
        work.flags = [claimed_arrays, claimed_objects, claimed_references, mixed];
        work.in_degree = in_degree;
        (work.keys, work.key_table) = (keys, key_table);
        Ok(())
    }

    /// Whether the `keys` of one hash array name a key twice: no PHP array does, a corrupted buffer
    /// could (read as it is, the array would count both, list the key twice and find one by key). Small
    /// arrays are searched pair by pair; larger ones through `table`, open addressing over the hash words.
    fn repeats_a_key(&self, keys: &[KeyWord], table: &mut Vec<u32>) -> Result<bool, DecodeError> {
        let same = |a: KeyWord, b: KeyWord| -> Result<bool, DecodeError> {
            Ok(a.0 == b.0
                && match (a.1, b.1) {
                    (INT_KEY, INT_KEY) => true,
                    (INT_KEY, _) | (_, INT_KEY) => false,
                    (x, y) => x == y || self.string(StringId(x))?.bytes == self.string(StringId(y))?.bytes,
                })
        };
        if keys.len() <= KEYS_PAIRWISE_MAX {
            for (i, &a) in keys.iter().enumerate() {
                for &b in &keys[i + 1..] {
                    if same(a, b)? {
                        return Ok(true);
                    }
                }
            }
            return Ok(false);
        }
        let bits = (keys.len() * 2).next_power_of_two().trailing_zeros();
        table.clear();
        table.resize(1 << bits, 0);
        let mask = table.len() - 1;
        for (i, &key) in keys.iter().enumerate() {
            // Fibonacci hashing spreads integer keys (often consecutive) and string hashes alike.
            let mut at = (key.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
            loop {
                match table[at] {
                    0 => break,
                    held if same(keys[held as usize - 1], key)? => return Ok(true),
                    _ => at = (at + 1) & mask,
                }
            }
            table[at] = i as u32 + 1;
        }
        Ok(false)
    }
}

/// An array of a checked buffer.
#[derive(Clone, Copy, Debug)]
pub struct CheckedArray<'g, 'a> {
    graph: &'g CheckedGraph<'a>,
    id: ArrayId,
    view: ArrayView<'a>,
}

impl<'a> CheckedArray<'_, 'a> {
    pub fn is_packed(&self) -> bool {
        self.view.is_packed
    }

    /// Packed: slots including holes. Hash: entries.
    pub fn len(&self) -> u64 {
        self.view.len
    }

    pub fn is_empty(&self) -> bool {
        self.view.len == 0
    }

    /// Elements that are not holes.
    pub fn element_count(&self) -> u64 {
        if self.view.is_packed {
            self.view.packed_element_count
        } else {
            self.view.len
        }
    }

    /// `nNextFreeElement`.
    pub fn next_free_index(&self) -> i64 {
        self.view.next_free_index
    }

    /// Entry `index`: its key (`index` itself for a packed array) and value (`Undef` for a hole). As
    /// the check resolved it when it kept it ([`CheckedGraph::resolved`]), else parsed again.
    pub fn entry(&self, index: u64) -> Result<(CheckedKey<'a>, CheckedSlot<'a>), DecodeError> {
        let graph = self.graph;
        let kept = graph
            .resolved_starts
            .get(self.id.index())
            .filter(|&&start| start != u32::MAX && index < self.view.len)
            .and_then(|&start| graph.resolved.get(usize::try_from(index).ok()?.checked_add(start as usize)?));
        let Some(&[key, value]) = kept else {
            return self.parse_entry(index);
        };
        let key = match key {
            Resolved::Int(i) => CheckedKey::Int(i),
            Resolved::String(id) => CheckedKey::String(graph.string(id)?),
            _ => return Err(DecodeError::BadKey { offset: self.view.offset }),
        };
        Ok((key, graph.slot_of(value)?))
    }

    /// [`CheckedArray::entry`] parsed from the bytes.
    fn parse_entry(&self, index: u64) -> Result<(CheckedKey<'a>, CheckedSlot<'a>), DecodeError> {
        if self.view.is_packed {
            let slot = self.graph.slot(self.view.packed_slot_offset(index)?)?;
            let key = i64::try_from(index).map_err(|_| DecodeError::IndexOutOfRange { index })?;
            return Ok((CheckedKey::Int(key), slot));
        }
        let at = self.view.hash_entry_offset(index)?;
        let key = match self.graph.slot(at)? {
            CheckedSlot::Int(i) => CheckedKey::Int(i),
            // A key PHP would store as an integer is read as one (`php_key`).
            CheckedSlot::String(s) => integer_key(s.bytes).map_or(CheckedKey::String(s), CheckedKey::Int),
            _ => return Err(DecodeError::BadKey { offset: at }),
        };
        match self.graph.slot(at + SLOT_LEN as u64)? {
            CheckedSlot::Undef => Err(DecodeError::UndefOutOfPlace { offset: self.view.offset }),
            slot => Ok((key, slot)),
        }
    }

    /// The value of entry `index`.
    pub fn value(&self, index: u64) -> Result<CheckedSlot<'a>, DecodeError> {
        self.entry(index).map(|(_, value)| value)
    }
}

/// An object of a checked buffer.
#[derive(Clone, Copy, Debug)]
pub struct CheckedObject<'g, 'a> {
    graph: &'g CheckedGraph<'a>,
    view: ObjectView<'a>,
    shape: ShapeId,
}

/// A shape of a checked buffer.
#[derive(Clone, Debug)]
pub struct CheckedShape<'a> {
    pub class_name: CheckedString<'a>,
    /// Declared properties in slot order: mangled name and readonly flag.
    pub properties: Vec<(CheckedString<'a>, bool)>,
}

impl<'a> CheckedObject<'_, 'a> {
    /// The shape: class name and declared property names. Objects of one shape share it.
    pub fn shape(&self) -> ShapeId {
        self.shape
    }

    pub fn state(&self) -> ObjectStateKind {
        self.view.state
    }

    pub fn declared_len(&self) -> u32 {
        self.view.declared_len
    }

    /// Value of declared property `index` (`Undef`: an uninitialized typed property); its name and
    /// flags are the shape's, checked once per shape.
    pub fn declared(&self, index: u32) -> Result<CheckedSlot<'a>, DecodeError> {
        self.graph.slot(self.view.declared_offset(index)?)
    }

    pub fn dynamic_len(&self) -> u64 {
        self.view.dynamic_len
    }

    /// Dynamic property `index`: name and value.
    pub fn dynamic(&self, index: u64) -> Result<(CheckedString<'a>, CheckedSlot<'a>), DecodeError> {
        let at = self.view.dynamic_offset(index)?;
        let CheckedSlot::String(name) = self.graph.slot(at)? else {
            return Err(DecodeError::BadKey { offset: at });
        };
        match self.graph.slot(at + SLOT_LEN as u64)? {
            CheckedSlot::Undef => Err(DecodeError::UndefOutOfPlace { offset: self.view.offset }),
            value => Ok((name, value)),
        }
    }

    /// The array `__serialize()` returned, for `Unserialize` objects.
    pub fn unserialize_data(&self) -> Result<ArrayId, DecodeError> {
        let data = self.view.unserialize_data()?;
        Ok(ArrayId(position_of(&self.graph.index.arrays, data.offset)?))
    }

    /// The internal state of a safe-direct object.
    pub fn internal_state(&self) -> Result<InternalState<'a, CheckedSlot<'a>>, DecodeError> {
        let graph = self.graph;
        let state = self
            .view
            .internal_state_resolving(&mut |offset| graph.string_at(offset).map(|s| Cow::Borrowed(s.bytes)))?;
        state.try_map_values(|slot| graph.resolve_defined(slot, self.view.offset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ArrayElements, ArrayKey, ArrayNode};
    use crate::tier::StoreTier;

    /// Checks `graph` encoded and compares, for every entry of every array, what the check kept with
    /// what the bytes give parsed again; returns which arrays had their entries kept.
    fn kept_entries_agree_with_the_bytes(graph: &Graph<'_>) -> Vec<bool> {
        let bytes = crate::encode(graph, StoreTier::SharedGraph).unwrap();
        let checked = CheckedGraph::check(&bytes).unwrap();
        (0..checked.array_count())
            .map(|id| {
                let array = checked.array(ArrayId(id as u32)).unwrap();
                for i in 0..array.len() {
                    assert_eq!(format!("{:?}", array.entry(i)), format!("{:?}", array.parse_entry(i)), "array {id}");
                }
                assert!(array.entry(array.len()).is_err(), "past the end of array {id}");
                checked.resolved_starts[id] != u32::MAX
            })
            .collect()
    }

    #[test]
    fn entries_the_check_keeps_read_back_as_the_bytes_give_them_and_large_arrays_are_parsed_again() {
        let text = |t: &str| Value::String(Cow::Owned(t.as_bytes().to_vec()));
        let mut graph = Graph::new(Value::Null);
        let inner = graph.push_array(ArrayNode {
            elements: ArrayElements::Packed(vec![
                Some(text("a")),
                None,
                Some(Value::Float(1.5)),
                Some(Value::Bool(true)),
            ]),
            next_free_index: 4,
        });
        let hash = |from: i64, count: i64| {
            ArrayElements::Hash(
                (from..from + count)
                    .map(|i| match i % 3 {
                        0 => (ArrayKey::Int(i), Value::Int(-i)),
                        1 => (ArrayKey::String(Cow::Owned(format!("k{i}").into_bytes())), text(&format!("v{i}"))),
                        _ => (ArrayKey::String(Cow::Owned(format!("n{i}").into_bytes())), Value::Null),
                    })
                    .collect(),
            )
        };
        let small = graph.push_array(ArrayNode { elements: hash(0, 10), next_free_index: 10 });
        let large = graph.push_array(ArrayNode { elements: hash(100, RESOLVED_MAX as i64), next_free_index: 1000 });
        let last = graph.push_array(ArrayNode { elements: hash(5000, 3), next_free_index: 5003 });
        graph.root = Value::Array(graph.push_array(ArrayNode {
            elements: ArrayElements::Packed(
                [inner, small, large, last].into_iter().map(|a| Some(Value::Array(a))).collect(),
            ),
            next_free_index: 4,
        }));
        // Kept while the entries kept so far and the array's own fit the bound: the large array's do
        // not (it is parsed again), the small ones stored after it still do.
        assert_eq!(kept_entries_agree_with_the_bytes(&graph), [true, true, false, true, true]);
    }

    #[test]
    fn the_check_notes_each_arrays_kind_and_length_and_which_strings_are_values() {
        let text = |t: &str| Value::String(Cow::Owned(t.as_bytes().to_vec()));
        let key = |t: &str| ArrayKey::String(Cow::Owned(t.as_bytes().to_vec()));
        let mut graph = Graph::new(Value::Null);
        let tags = graph.push_array(ArrayNode {
            elements: ArrayElements::Packed(vec![Some(text("a")), None, Some(text("name"))]),
            next_free_index: 3,
        });
        let empty = graph.push_array(ArrayNode { elements: ArrayElements::Hash(vec![]), next_free_index: 0 });
        graph.root = Value::Array(graph.push_array(ArrayNode {
            elements: ArrayElements::Hash(vec![
                (key("id"), Value::Int(7)),
                (key("name"), text("item7")),
                (key("tags"), Value::Array(tags)),
                (ArrayKey::Int(9), Value::Array(empty)),
            ]),
            next_free_index: 10,
        }));
        let bytes = crate::encode(&graph, StoreTier::SharedGraph).unwrap();
        let checked = CheckedGraph::check(&bytes).unwrap();
        let lens: Vec<_> = (0..checked.array_count())
            .map(|id| {
                let array = checked.array(ArrayId(id as u32)).unwrap();
                (array.is_packed(), array.len())
            })
            .collect();
        assert_eq!(checked.array_lens(), lens);
        assert_eq!(lens.iter().filter(|(packed, _)| *packed).collect::<Vec<_>>(), [&(true, 3)]);
        let strings: Vec<(Vec<u8>, u64, bool)> = (0..checked.string_count())
            .zip(checked.string_lens())
            .map(|(id, len)| {
                let bytes = checked.string(StringId(id as u32)).unwrap().bytes.to_vec();
                (bytes, len, checked.value_strings()[id])
            })
            .collect();
        let mut strings: Vec<_> =
            strings.into_iter().map(|(b, len, value)| (String::from_utf8(b).unwrap(), len, value)).collect();
        strings.sort();
        // "name" is a key and a value (stored once): a value; "id" and "tags" are keys only.
        assert_eq!(
            strings,
            [
                ("a".into(), 1, true),
                ("id".into(), 2, false),
                ("item7".into(), 5, true),
                ("name".into(), 4, true),
                ("tags".into(), 4, false)
            ]
        );
    }
}
