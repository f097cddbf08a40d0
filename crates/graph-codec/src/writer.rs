//! The one writer of the byte layout (`LAYOUT.md`), driven by a walk over whatever holds the value (the
//! binding's walk over zvals, or [`crate::encode`] over a model). It needs no picture of the whole graph and
//! no second pass: strings go straight into the output buffer, each distinct string once; every record is
//! appended to its section when the walk writes it, in whatever order the walk writes records; and every
//! pointer to a record is left as a node number that [`GraphWriter::finish`] resolves when it assembles
//! the output. It copies the header, strings, shapes and enum cases into room kept before the array
//! section and appends the object and reference sections after it, so that the array records (most of a
//! value) are never copied; or, when that room is too small or the strings outweigh the arrays of a value
//! with other records, appends the sections after the header and strings. `finish` also derives what the
//! header and the `shared` bits record (flags, depth) from what was written, so no encoder computes them.
//!
//! One writer serves any number of encodings in turn: its buffers keep their capacity and are not zeroed
//! (only the room before the array section, once, when it grows); every byte of an encoding is written,
//! padding included.

use foldhash::{HashMap, HashMapExt};

use crate::error::{EncodeError, StructureError};
use crate::internal_state::{InternalState, StateFamily};
use crate::layout::{self, flags, header, object_state, tag, RecordKind, HEADER_LEN, MAX_DEPTH, RECORD_SHARED};
use crate::php_hash::zend_string_hash;
use crate::tier::StoreTier;

/// The sections of the record area, in layout order; `HEAD` is the header, where the root slot lives.
const SHAPES: usize = 0;
const ENUM_CASES: usize = 1;
const ARRAYS: usize = 2;
const OBJECTS: usize = 3;
const REFERENCES: usize = 4;
const SECTIONS: usize = 5;
const HEAD: usize = SECTIONS;

/// `Node::pos` of a node whose record has not been written (yet).
const UNPLACED: u32 = u32::MAX;
/// Set in the placeholder of a slot that must keep its record; any other slot of a node that is never
/// written reads `null`.
const STRICT: u64 = 1 << 63;
/// Buffers larger than this are given back when the next encoding starts, so that one huge value does
/// not keep its memory for the life of the thread.
const KEEP_BYTES: usize = 4 << 20;
/// The room kept before the array section for the header, strings, shapes and enum cases; it grows, up
/// to `MAX_GAP`, after a value whose header, strings, shapes and enum cases did not fit.
const FIRST_GAP: usize = 4 << 10;
const MAX_GAP: usize = 1 << 20;

/// The offset of a string record in the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StringRef(u64);

/// An array, object or PHP reference of the value. Its record is written when the walk gets to it, or
/// never (an object whose `__sleep()` failed): then every slot naming it reads `null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(u32);

/// A shape record: a class name plus declared property names, stored once per distinct shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeRef {
    node: u32,
    declared: u32,
}

/// An enum-case record, stored once per distinct case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnumCaseRef(u32);

/// What a [`NodeId`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Array,
    Object,
    Reference,
}

/// One value slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Slot {
    /// A packed-array hole or an uninitialized typed property.
    Undef,
    Null,
    Bool(bool),
    Int(i64),
    /// Stored bit-exactly.
    Float(f64),
    String(StringRef),
    Node(NodeId),
    EnumCase(EnumCaseRef),
}

/// How an object is restored: the `state` byte of its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectRestore {
    Properties,
    PropertiesThenWakeup,
    Unserialize,
    Internal,
}

#[derive(Clone, Copy)]
struct Node {
    section: u8,
    in_degree: u8,
    /// Nesting level where the first slot named the node; exact when no node is shared.
    level: u32,
    pos: u32,
    /// The node's child nodes in slot order, a range of `GraphWriter::edges`.
    edges: (u32, u32),
}

/// The record being written.
#[derive(Clone, Copy)]
struct Open {
    node: u32,
    kind: RecordKind,
    section: usize,
    start: usize,
    level: u32,
    slots: u64,
    undefs: u64,
    /// Objects only: declared slot count, how the object is restored, dynamic properties written, and
    /// once the internal-state block is written, its family, value count and the slot count before it.
    declared: u32,
    restore: ObjectRestore,
    dynamic: u64,
    state: Option<(StateFamily, u64, u64)>,
}

/// Where a complete encoding is.
#[derive(Clone, Copy)]
enum Output {
    /// `out`: header, strings, then every section copied after them.
    Out,
    /// The array section from this index: the header, strings, shapes and enum cases copied into its
    /// gap, the array records in place after them, then the object and reference sections appended.
    Arrays(usize),
}

/// Encodes one value at a time; see the module documentation.
pub struct GraphWriter {
    /// Header, then the string records; `finish` appends the sections.
    out: Vec<u8>,
    string_count: u32,
    strings: StringIndex,
    sections: [Vec<u8>; SECTIONS],
    /// Per section, and for the header, the positions of record pointers still to resolve.
    fixups: [Vec<u32>; SECTIONS + 1],
    nodes: Vec<Node>,
    edges: Vec<u32>,
    /// Nodes named by a second slot: the candidates for the `shared` flag.
    named_twice: Vec<u32>,
    shapes: HashMap<Vec<u64>, ShapeRef>,
    shape_key: Vec<u64>,
    enum_cases: HashMap<(u64, u64), EnumCaseRef>,
    root: Option<u32>,
    root_written: bool,
    /// Where the last complete encoding is.
    complete: Option<Output>,
    /// Bytes at the start of the array section kept for the header, strings, shapes and enum cases: a
    /// value is finished around its array records there, without copying them.
    gap: usize,
    open: Option<Open>,
    /// The section records are written to, taken out of `sections` while an encoding is written: the
    /// array section between records and while an array is written (arrays, the common records, need
    /// no move), another record's section while that record is written.
    current: Vec<u8>,
    /// The array section while another record is written.
    parked: Vec<u8>,
    /// The array section is in `current` or `parked`, not in `sections`.
    arrays_out: bool,
    record_count: u32,
    deepest: u32,
    /// The deepest level at which a slot named a node that an earlier slot had named already.
    renamed_deepest: u32,
    /// Some record was written before any slot named it, so levels were not known at writing time.
    unnamed_first: bool,
    /// A slot was written with no record open.
    stray_slot: bool,
    hooks: bool,
    dynamic: bool,
    visited: Vec<bool>,
    stack: Vec<(u32, u32)>,
    /// The longest encoding the caller can store ([`Self::set_limit`]).
    limit: usize,
    /// The encoding in progress outgrew `limit`: strings past it were not copied, and it cannot finish.
    over_limit: bool,
}

impl Default for GraphWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl GraphWriter {
    pub fn new() -> Self {
        let mut writer = GraphWriter {
            out: Vec::new(),
            string_count: 0,
            strings: StringIndex::default(),
            sections: Default::default(),
            fixups: Default::default(),
            nodes: Vec::new(),
            edges: Vec::new(),
            named_twice: Vec::new(),
            shapes: HashMap::new(),
            shape_key: Vec::new(),
            enum_cases: HashMap::new(),
            root: None,
            root_written: false,
            complete: None,
            gap: FIRST_GAP,
            open: None,
            current: Vec::new(),
            parked: Vec::new(),
            arrays_out: false,
            record_count: 0,
            deepest: 0,
            renamed_deepest: 0,
            unnamed_first: false,
            stray_slot: false,
            hooks: false,
            dynamic: false,
            visited: Vec::new(),
            stack: Vec::new(),
            limit: usize::MAX,
            over_limit: false,
        };
        writer.reset();
        writer
    }

    /// Whether a buffer that [`Self::give_back`] trims grew past [`KEEP_BYTES`] (one test in the common
    /// case, so that `reset` stays short).
    fn grown(&self) -> bool {
        let fixups = self.fixups.iter().map(|f| f.capacity() * std::mem::size_of::<u32>());
        let sections = self.sections.iter().map(Vec::capacity);
        let largest = fixups.chain(sections).fold(self.out.capacity(), usize::max);
        largest.max(self.nodes.capacity() * std::mem::size_of::<Node>()).max(self.edges.capacity() * 4) > KEEP_BYTES
    }

    /// Gives back every buffer that grew past [`KEEP_BYTES`].
    #[cold]
    #[inline(never)]
    fn give_back(&mut self) {
        trim(&mut self.out);
        self.sections.iter_mut().for_each(trim);
        self.fixups.iter_mut().for_each(trim);
        trim(&mut self.nodes);
        trim(&mut self.edges);
    }

    /// Puts the array section (and the open record's, if another) back into `sections`.
    fn settle(&mut self) {
        if !std::mem::replace(&mut self.arrays_out, false) {
            return;
        }
        match self.open {
            Some(Open { section, .. }) if section != ARRAYS => {
                self.sections[section] = std::mem::take(&mut self.current);
                self.sections[ARRAYS] = std::mem::take(&mut self.parked);
            }
            _ => self.sections[ARRAYS] = std::mem::take(&mut self.current),
        }
    }

    /// Starts a new encoding; whatever was written before is forgotten.
    pub fn reset(&mut self) {
        self.settle();
        if self.grown() {
            self.give_back();
        }
        self.out.clear();
        // The header and the root slot, filled in by `root` and `finish`.
        self.out.extend_from_slice(&[0u8; HEADER_LEN]);
        self.string_count = 0;
        self.strings.reset();
        for (index, section) in self.sections.iter_mut().enumerate() {
            if index != ARRAYS {
                section.clear();
            } else if section.len() >= self.gap {
                section.truncate(self.gap);
            } else {
                // Zeroed once, when the room grows; later encodings write over it.
                section.resize(self.gap, 0);
            }
        }
        for fixups in &mut self.fixups {
            fixups.clear();
        }
        self.nodes.clear();
        self.edges.clear();
        self.named_twice.clear();
        if !self.shapes.is_empty() {
            self.shapes.clear();
        }
        if !self.enum_cases.is_empty() {
            self.enum_cases.clear();
        }
        self.root = None;
        self.root_written = false;
        self.complete = None;
        self.open = None;
        self.current = std::mem::take(&mut self.sections[ARRAYS]);
        self.arrays_out = true;
        self.record_count = 0;
        self.deepest = 0;
        self.renamed_deepest = 0;
        self.unnamed_first = false;
        self.stray_slot = false;
        self.hooks = false;
        self.dynamic = false;
        self.over_limit = false;
    }

    /// Bounds the length of the encodings started from now on (by [`Self::reset`] or
    /// [`Self::php_serialized`]) to `limit` bytes, the largest value the caller's store takes: an
    /// encoding that would pass it fails with [`StructureError::OverLimit`]. The output is measured only
    /// when one of its buffers has to grow, so that a long string or a large record is refused before
    /// it is copied, and a value within the bound costs no measuring. Unbounded until set. A flat array
    /// ([`Self::flat_array`]) is small by construction: its length is not checked against the limit,
    /// but one of its strings that a buffer's growth finds past it makes [`FlatArray::finish`] give up.
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    /// Whether the encoding in progress has outgrown the limit already (see [`Self::set_limit`]): the
    /// caller can stop early, before work whose result cannot be stored.
    pub fn over_limit(&self) -> bool {
        self.over_limit
    }

    /// Makes room in `out` for a long string's record of `record_len` bytes (and the zeros written past
    /// it), if the output stays within the limit; false, with the encoding marked as over it, if not.
    #[cold]
    #[inline(never)]
    fn grow_strings(&mut self, record_len: usize) -> bool {
        let fits = self.room_for(record_len);
        if fits {
            self.out.reserve(record_len + layout::ALIGN);
        }
        fits
    }

    /// Makes room in `current` for the `capacity` bytes of the record [`Self::begin`] opens in
    /// `section`, if the output stays within the limit; if not, puts the sections back as they were
    /// before `begin` and fails.
    #[cold]
    #[inline(never)]
    fn grow_record(&mut self, section: usize, capacity: usize) -> Result<(), EncodeError> {
        if !self.room_for(capacity) {
            if section != ARRAYS {
                self.sections[section] = std::mem::replace(&mut self.current, std::mem::take(&mut self.parked));
            }
            return Err(self.over_limit_error());
        }
        self.current.reserve(capacity);
        Ok(())
    }

    /// The error of an encoding past the limit.
    #[cold]
    #[inline(never)]
    fn over_limit_error(&self) -> EncodeError {
        StructureError::OverLimit { limit: self.limit }.into()
    }

    /// Whether `extra` more bytes keep the output within the limit; when not, the encoding is marked as
    /// over it. Called only when a buffer must grow.
    fn room_for(&mut self, extra: usize) -> bool {
        // The array section holds the room kept before its records: not output. A section taken out for
        // the record being written is in `current` (and the array section then in `parked`).
        let buffers =
            self.out.len() + self.sections.iter().map(Vec::len).sum::<usize>() + self.current.len() + self.parked.len();
        let written = buffers.saturating_sub(self.gap);
        self.over_limit |= written.saturating_add(extra) > self.limit;
        !self.over_limit
    }

    /// The string record of `bytes`, appended the first time these bytes are met. `hash` must be
    /// `zend_string_hash(bytes)` (PHP's cached `zend_string::h`). `identity` is 0 or a token of the
    /// caller's such that two calls with the same token pass the same bytes, until
    /// [`Self::forget_identities`]: a string met again by identity is found without comparing its bytes.
    #[inline]
    pub fn string(&mut self, bytes: &[u8], hash: u64, identity: usize) -> StringRef {
        self.string_as(bytes, hash, identity, false)
    }

    /// [`Self::string`], where `lasting` says whether the token names the same bytes for the whole
    /// encoding, across [`Self::forget_identities`] (a PHP interned string: it lives until the request
    /// ends). Such a string is found again by identity after the caller's userland code ran. One call
    /// for both kinds: the encoder's hot loop then holds one copy of the lookup.
    #[inline(always)]
    pub fn string_as(&mut self, bytes: &[u8], hash: u64, identity: usize, lasting: bool) -> StringRef {
        match self.strings.find(&self.out, bytes, hash, identity, lasting) {
            Ok(offset) => StringRef(offset),
            Err(vacant) => self.append_string(bytes, hash, identity, lasting, vacant),
        }
    }

    /// The string record of a value string whose PHP hash nobody has computed and that the caller meets
    /// only once (a fresh string with one holder, such as a serialization hook's result holds): written
    /// with hash 0 and left out of the index, so storing it hashes nothing. A string with the same bytes
    /// met elsewhere gets a record of its own. Never for an array key, a name or an internal-state text,
    /// whose readers need the hash (`LAYOUT.md`, string record).
    #[inline]
    pub fn unhashed_string(&mut self, bytes: &[u8]) -> StringRef {
        self.write_string(bytes, 0)
    }

    /// Appends the string record of `bytes` and files it in the index entry `vacant`. Inlined into the
    /// encoder's loop: most strings of a value are met once, and a call would cost a third of the work.
    #[inline(always)]
    fn append_string(&mut self, bytes: &[u8], hash: u64, identity: usize, lasting: bool, vacant: usize) -> StringRef {
        let string = self.write_string(bytes, hash);
        self.strings.insert(vacant, string.0, hash, identity, lasting);
        string
    }

    /// Appends the string record of `bytes` with `hash`. A short string's record (most keys and names)
    /// is written over a fixed number of zeros, its bytes copied without a call to `memcpy`, then cut
    /// to its length.
    #[inline(always)]
    fn write_string(&mut self, bytes: &[u8], hash: u64) -> StringRef {
        let offset = self.out.len();
        // The NUL terminator plus zero padding up to the next 8-byte boundary: 1 to 8 bytes.
        let record_len = layout::STRING_FIXED_LEN + (bytes.len() + layout::ALIGN) / layout::ALIGN * layout::ALIGN;
        if bytes.len() <= SHORT_STRING {
            // Zeros appended, then the record written over them: no buffer on the stack to copy from.
            self.out.extend_from_slice(&[0u8; SHORT_RECORD]);
            let record = &mut self.out[offset..offset + SHORT_RECORD];
            record[..8].copy_from_slice(&hash.to_le_bytes());
            record[8..16].copy_from_slice(&(bytes.len() as u64).to_le_bytes());
            copy_short(bytes, &mut record[layout::STRING_FIXED_LEN..]);
        } else {
            if self.out.capacity() - offset < record_len + layout::ALIGN && !self.grow_strings(record_len) {
                // Not copied: the encoding cannot finish. The index may file this placeholder; it is
                // never written out.
                return StringRef(0);
            }
            let mut head = [0u8; layout::STRING_FIXED_LEN];
            head[..8].copy_from_slice(&hash.to_le_bytes());
            head[8..].copy_from_slice(&(bytes.len() as u64).to_le_bytes());
            self.out.extend_from_slice(&head);
            self.out.extend_from_slice(bytes);
            // Eight zero bytes then back to the record's end: one fixed-size store instead of a sized fill.
            self.out.extend_from_slice(&[0u8; layout::ALIGN]);
        }
        self.out.truncate(offset + record_len);
        self.string_count = self.string_count.wrapping_add(1);
        StringRef(offset as u64)
    }

    /// From now on an identity token may name other bytes (the caller's strings may be freed and their
    /// memory reused).
    pub fn forget_identities(&mut self) {
        self.strings.forget_identities();
    }

    /// A new node; its record is written later with `begin_*`.
    #[inline]
    pub fn node(&mut self, kind: NodeKind) -> NodeId {
        let section = match kind {
            NodeKind::Array => ARRAYS,
            NodeKind::Object => OBJECTS,
            NodeKind::Reference => REFERENCES,
        };
        self.push_node(section, UNPLACED)
    }

    #[inline]
    fn push_node(&mut self, section: usize, pos: u32) -> NodeId {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node { section: section as u8, in_degree: 0, level: 0, pos, edges: (0, 0) });
        NodeId(id)
    }

    /// The shape of class `class_name` with these declared properties (mangled name, readonly).
    pub fn shape(&mut self, class_name: StringRef, properties: &[(StringRef, bool)]) -> ShapeRef {
        self.shape_key.clear();
        self.shape_key.push(class_name.0);
        self.shape_key.extend(properties.iter().map(|&(name, readonly)| name.0 << 1 | u64::from(readonly)));
        if let Some(&shape) = self.shapes.get(&self.shape_key[..]) {
            return shape;
        }
        let section = &mut self.sections[SHAPES];
        let pos = section.len();
        record_header(section, RecordKind::Shape, 0, 0, properties.len() as u32);
        section.extend_from_slice(&class_name.0.to_le_bytes());
        for &(name, readonly) in properties {
            section.extend_from_slice(&name.0.to_le_bytes());
            let flags = if readonly { layout::PROPERTY_READONLY } else { 0 };
            // The flags word, then 4 reserved bytes.
            section.extend_from_slice(&u64::from(flags).to_le_bytes());
        }
        let NodeId(node) = self.push_node(SHAPES, pos as u32);
        self.record_count = self.record_count.wrapping_add(1);
        let shape = ShapeRef { node, declared: properties.len() as u32 };
        self.shapes.insert(self.shape_key.clone(), shape);
        shape
    }

    /// The enum case `class_name::case_name`.
    pub fn enum_case(&mut self, class_name: StringRef, case_name: StringRef) -> EnumCaseRef {
        if let Some(&case) = self.enum_cases.get(&(class_name.0, case_name.0)) {
            return case;
        }
        let section = &mut self.sections[ENUM_CASES];
        let pos = section.len();
        record_header(section, RecordKind::EnumCase, 0, 0, 0);
        section.extend_from_slice(&class_name.0.to_le_bytes());
        section.extend_from_slice(&case_name.0.to_le_bytes());
        let NodeId(node) = self.push_node(ENUM_CASES, pos as u32);
        self.record_count = self.record_count.wrapping_add(1);
        let case = EnumCaseRef(node);
        self.enum_cases.insert((class_name.0, case_name.0), case);
        case
    }

    /// Writes the root slot: once, before any record.
    pub fn root(&mut self, slot: Slot) -> Result<(), EncodeError> {
        if self.root_written || self.open.is_some() || slot == Slot::Undef {
            return Err(EncodeError::Misuse("the root is one defined slot, written first"));
        }
        self.root_written = true;
        let (tag, payload) = match slot {
            Slot::Node(NodeId(id)) => {
                let node = &mut self.nodes[id as usize];
                node.in_degree = 1;
                node.level = level_step(node.section as usize);
                self.root = Some(id);
                self.fixups[HEAD].push(header::ROOT_SLOT as u32 + 8);
                (section_tag(node.section as usize), u64::from(id))
            }
            Slot::EnumCase(EnumCaseRef(id)) => {
                self.fixups[HEAD].push(header::ROOT_SLOT as u32 + 8);
                (tag::ENUM_CASE, u64::from(id))
            }
            scalar => scalar_slot(scalar),
        };
        self.out[header::ROOT_SLOT] = tag;
        self.out[header::ROOT_SLOT + 8..HEADER_LEN].copy_from_slice(&payload.to_le_bytes());
        Ok(())
    }

    /// Starts the record of packed array `node`; its slots follow, holes being [`Slot::Undef`].
    /// `capacity` is the expected slot count (a hint).
    #[inline(always)]
    pub fn begin_packed_array(
        &mut self,
        node: NodeId,
        next_free_index: i64,
        capacity: usize,
    ) -> Result<(), EncodeError> {
        // Slot count and element count are patched by `end`.
        self.begin_array(node, RecordKind::PackedArray, next_free_index, capacity * layout::SLOT_LEN)
    }

    /// Starts the record of hash array `node`; key and value slots follow in turn, keys being
    /// [`Slot::Int`] or [`Slot::String`]. `capacity` is the expected entry count (a hint).
    #[inline(always)]
    pub fn begin_hash_array(&mut self, node: NodeId, next_free_index: i64, capacity: usize) -> Result<(), EncodeError> {
        // Entry count (patched by `end`), next free index, reserved.
        self.begin_array(node, RecordKind::HashArray, next_free_index, capacity * layout::HASH_ENTRY_LEN)
    }

    #[inline(always)]
    fn begin_array(
        &mut self,
        node: NodeId,
        kind: RecordKind,
        next_free_index: i64,
        slots_len: usize,
    ) -> Result<(), EncodeError> {
        self.begin(node, kind, layout::ARRAY_FIXED_LEN + slots_len)?;
        self.current.extend_from_slice(&array_head(kind, next_free_index));
        Ok(())
    }

    /// Starts the record of object `node`. Its `shape`'s declared slots follow, then
    /// [`Self::dynamic_property`] entries, then the tail: for `Unserialize` the array slot
    /// `__unserialize()` receives (and no properties), for `Internal` [`Self::internal_state`] and the
    /// state's value slots.
    pub fn begin_object(&mut self, node: NodeId, shape: ShapeRef, restore: ObjectRestore) -> Result<(), EncodeError> {
        let state = match restore {
            ObjectRestore::Properties => object_state::PROPERTIES,
            ObjectRestore::PropertiesThenWakeup => object_state::PROPERTIES_THEN_WAKEUP,
            ObjectRestore::Unserialize => object_state::UNSERIALIZE,
            ObjectRestore::Internal => object_state::INTERNAL,
        };
        if restore == ObjectRestore::Unserialize && shape.declared != 0 {
            return Err(EncodeError::Misuse("an __unserialize object has no properties"));
        }
        let capacity = layout::OBJECT_FIXED_LEN + (shape.declared as usize + 1) * layout::SLOT_LEN;
        self.begin(node, RecordKind::Object, capacity)?;
        record_header(&mut self.current, RecordKind::Object, 0, state, shape.declared);
        self.hooks |= matches!(restore, ObjectRestore::PropertiesThenWakeup | ObjectRestore::Unserialize);
        // The shape pointer, then the dynamic property count (patched by `end`).
        self.fixups[OBJECTS].push(self.current.len() as u32);
        self.current.extend_from_slice(&u64::from(shape.node).to_le_bytes());
        self.current.extend_from_slice(&[0u8; 8]);
        if let Some(open) = &mut self.open {
            open.declared = shape.declared;
            open.restore = restore;
        }
        Ok(())
    }

    /// The most entries (key and value pairs) [`Self::unserialized_hash`] writes.
    pub const UNSERIALIZED_HASH_ENTRIES: usize = 8;

    /// Writes, with no record open, the record of object `node` restored by `__unserialize()` from a new
    /// hash array, and that array's record: `entries` holds its key and value slots in turn (at most
    /// [`Self::UNSERIALIZED_HASH_ENTRIES`] pairs), none of them a node, an enum case or undefined. The same bytes as [`Self::begin_object`] with
    /// [`ObjectRestore::Unserialize`], a new array node as its slot, [`Self::end`], then
    /// [`Self::begin_hash_array`], the slots and [`Self::end`]; in one short call, for the most common
    /// `__serialize()` result (a date's fields), which the encoder writes right after userland code
    /// evicted the writer's code from the caches.
    #[inline(never)]
    pub fn unserialized_hash(
        &mut self,
        node: NodeId,
        shape: ShapeRef,
        next_free_index: i64,
        entries: &[Slot],
    ) -> Result<(), EncodeError> {
        const MISUSE: EncodeError =
            EncodeError::Misuse("an __unserialize object of a small hash array of defined scalars");
        if !entries.len().is_multiple_of(2)
            || entries.len() > 2 * Self::UNSERIALIZED_HASH_ENTRIES
            || shape.declared != 0
        {
            return Err(MISUSE);
        }
        // The array record (header, entry count, next free index, reserved, slots), assembled here and
        // appended in one copy.
        let mut array = [0u8; layout::ARRAY_FIXED_LEN + 2 * Self::UNSERIALIZED_HASH_ENTRIES * layout::SLOT_LEN];
        array[0] = RecordKind::HashArray as u8;
        array[8..16].copy_from_slice(&(entries.len() as u64 / 2).to_le_bytes());
        array[16..24].copy_from_slice(&next_free_index.to_le_bytes());
        for (bytes, &slot) in array[layout::ARRAY_FIXED_LEN..].chunks_exact_mut(layout::SLOT_LEN).zip(entries) {
            if matches!(slot, Slot::Node(_) | Slot::EnumCase(_) | Slot::Undef) {
                return Err(MISUSE);
            }
            let (tag, payload) = scalar_slot(slot);
            bytes[0] = tag;
            bytes[8..].copy_from_slice(&payload.to_le_bytes());
        }
        let open = self.open.is_some();
        let Some(&object) = self.nodes.get(node.0 as usize) else {
            return Err(EncodeError::Misuse("unknown node"));
        };
        if open || object.pos != UNPLACED || object.section as usize != OBJECTS {
            return Err(EncodeError::Misuse("records are written one at a time, once, as their node's kind"));
        }
        let array_level = object.level.saturating_add(level_step(ARRAYS));
        let array_node = self.nodes.len() as u32;
        let array_pos = self.current.len();
        let edges = self.edges.len() as u32;
        self.edges.push(array_node);
        self.nodes.push(Node {
            section: ARRAYS as u8,
            in_degree: 1,
            level: array_level,
            pos: u32::try_from(array_pos).unwrap_or(UNPLACED - 1),
            edges: (edges + 1, edges + 1),
        });
        let objects = &mut self.sections[OBJECTS];
        let object_pos = objects.len();
        let object_node = &mut self.nodes[node.0 as usize];
        object_node.pos = u32::try_from(object_pos).unwrap_or(UNPLACED - 1);
        object_node.edges = (edges, edges + 1);
        self.deepest = self.deepest.max(array_level);
        self.unnamed_first |= object.in_degree == 0;
        self.record_count = self.record_count.wrapping_add(2);
        self.hooks = true;
        // The object: header, shape pointer, dynamic property count, the array slot.
        let mut record = [0u8; layout::OBJECT_FIXED_LEN + layout::SLOT_LEN];
        record[0] = RecordKind::Object as u8;
        record[2] = object_state::UNSERIALIZE;
        record[8..16].copy_from_slice(&u64::from(shape.node).to_le_bytes());
        record[layout::OBJECT_FIXED_LEN] = tag::ARRAY;
        record[layout::OBJECT_FIXED_LEN + 8..].copy_from_slice(&u64::from(array_node).to_le_bytes());
        objects.extend_from_slice(&record);
        let object_pos = object_pos as u32;
        self.fixups[OBJECTS].extend_from_slice(&[object_pos + 8, object_pos + layout::OBJECT_FIXED_LEN as u32 + 8]);
        self.current.extend_from_slice(&array[..layout::ARRAY_FIXED_LEN + entries.len() * layout::SLOT_LEN]);
        Ok(())
    }

    /// Starts the record of reference `node`; its one value slot follows.
    pub fn begin_reference(&mut self, node: NodeId) -> Result<(), EncodeError> {
        self.begin(node, RecordKind::Reference, layout::REFERENCE_LEN)?;
        record_header(&mut self.current, RecordKind::Reference, 0, 0, 0);
        Ok(())
    }

    /// Opens the record of `node` with room for `capacity` bytes; the caller writes its header.
    #[inline(always)]
    fn begin(&mut self, node: NodeId, kind: RecordKind, capacity: usize) -> Result<(), EncodeError> {
        let section = match kind {
            RecordKind::PackedArray | RecordKind::HashArray => ARRAYS,
            RecordKind::Object => OBJECTS,
            _ => REFERENCES,
        };
        let open = self.open.is_some();
        let Some(entry) = self.nodes.get_mut(node.0 as usize) else {
            return Err(EncodeError::Misuse("unknown node"));
        };
        if open || entry.pos != UNPLACED || entry.section as usize != section {
            return Err(EncodeError::Misuse("records are written one at a time, once, as their node's kind"));
        }
        if section != ARRAYS {
            self.parked = std::mem::replace(&mut self.current, std::mem::take(&mut self.sections[section]));
        }
        let start = self.current.len();
        entry.pos = u32::try_from(start).unwrap_or(UNPLACED - 1);
        let edges = self.edges.len() as u32;
        entry.edges = (edges, edges);
        let level = entry.level;
        self.deepest = self.deepest.max(level);
        self.unnamed_first |= entry.in_degree == 0;
        self.record_count = self.record_count.wrapping_add(1);
        if self.current.capacity() - start < capacity {
            self.grow_record(section, capacity)?;
        }
        self.open = Some(Open {
            node: node.0,
            kind,
            section,
            start,
            level,
            slots: 0,
            undefs: 0,
            declared: 0,
            restore: ObjectRestore::Properties,
            dynamic: 0,
            state: None,
        });
        Ok(())
    }

    /// Writes the next slot of the open record (with none open, nothing is written and `finish` fails).
    #[inline(always)]
    pub fn slot(&mut self, slot: Slot) {
        match slot {
            Slot::Node(node) => self.node_slot(node),
            Slot::EnumCase(EnumCaseRef(id)) => {
                if let Some(open) = &self.open {
                    self.fixups[open.section].push(self.current.len() as u32 + 8);
                }
                self.put(tag::ENUM_CASE, u64::from(id));
            }
            scalar => {
                let (tag, payload) = scalar_slot(scalar);
                self.put(tag, payload);
            }
        }
    }

    /// Writes a key slot then a value slot of the open record: what [`Self::slot`] twice writes, with one
    /// capacity check when neither names a record (a hash array's common entry).
    #[inline(always)]
    pub fn entry(&mut self, key: Slot, value: Slot) {
        if matches!(key, Slot::Node(_) | Slot::EnumCase(_)) || matches!(value, Slot::Node(_) | Slot::EnumCase(_)) {
            self.slot(key);
            self.slot(value);
            return;
        }
        let Some(open) = &mut self.open else {
            self.stray_slot = true;
            return;
        };
        let (key_tag, key) = scalar_slot(key);
        let (value_tag, value) = scalar_slot(value);
        open.slots += 2;
        open.undefs += u64::from(key_tag == tag::UNDEF) + u64::from(value_tag == tag::UNDEF);
        put_entry(&mut self.current, key_tag, key, value_tag, value);
    }

    #[inline(always)]
    fn put(&mut self, tag: u8, payload: u64) {
        let Some(open) = &mut self.open else {
            self.stray_slot = true;
            return;
        };
        open.slots += 1;
        open.undefs += u64::from(tag == tag::UNDEF);
        put_slot(&mut self.current, tag, payload);
    }

    #[inline(always)]
    fn node_slot(&mut self, NodeId(id): NodeId) {
        let Some(open) = &mut self.open else {
            self.stray_slot = true;
            return;
        };
        let strict = match open.state {
            // An `SplObjectStorage` key (every other value) and an `ArrayObject`'s storage must keep their
            // object or array.
            Some((StateFamily::ObjectStorage, _, before)) => (open.slots - before) % 2 == 0,
            Some((StateFamily::ArrayStorage, _, _)) => true,
            _ => false,
        };
        let node = &mut self.nodes[id as usize];
        let level = open.level.saturating_add(level_step(node.section as usize));
        match node.in_degree {
            0 => node.level = level,
            1 => {
                self.named_twice.push(id);
                self.renamed_deepest = self.renamed_deepest.max(level);
            }
            _ => self.renamed_deepest = self.renamed_deepest.max(level),
        }
        node.in_degree = node.in_degree.saturating_add(1);
        let tag = section_tag(node.section as usize);
        self.edges.push(id);
        self.fixups[open.section].push(self.current.len() as u32 + 8);
        open.slots += 1;
        put_slot(&mut self.current, tag, u64::from(id) | if strict { STRICT } else { 0 });
    }

    /// Writes a dynamic property of the open object, after its declared slots.
    pub fn dynamic_property(&mut self, name: StringRef, value: Slot) -> Result<(), EncodeError> {
        match self.open {
            Some(Open { kind: RecordKind::Object, slots, declared, state: None, restore, .. })
                if slots == u64::from(declared) && restore != ObjectRestore::Unserialize && value != Slot::Undef => {}
            _ => return Err(EncodeError::Misuse("dynamic properties are defined and follow the declared ones")),
        }
        put_slot(&mut self.current, tag::STRING, name.0);
        self.slot(value);
        if let Some(open) = &mut self.open {
            // The value slot is counted as a dynamic property, not a declared one.
            open.slots -= 1;
            open.dynamic += 1;
        }
        self.dynamic = true;
        Ok(())
    }

    /// Writes the internal-state block of the open `Internal` object, after its properties; the state's
    /// value slots follow, in `for_each_value` order.
    pub fn internal_state<V>(&mut self, state: &InternalState<'_, V>) -> Result<(), EncodeError> {
        let slots = match self.open {
            Some(Open {
                kind: RecordKind::Object,
                slots,
                declared,
                state: None,
                restore: ObjectRestore::Internal,
                ..
            }) if slots == u64::from(declared) => slots,
            _ => return Err(EncodeError::Misuse("an internal state follows an Internal object's properties")),
        };
        let words = state.words(&mut |bytes| self.string(bytes, zend_string_hash(bytes), 0).0);
        let values = state.value_count() as u64;
        let current = &mut self.current;
        current.push(state.family() as u8);
        current.extend_from_slice(&[0u8; 3]);
        current.extend_from_slice(&(words.len() as u32).to_le_bytes());
        current.extend_from_slice(&values.to_le_bytes());
        for word in words {
            current.extend_from_slice(&word.to_le_bytes());
        }
        if let Some(open) = &mut self.open {
            open.state = Some((state.family(), values, slots));
        }
        Ok(())
    }

    /// Ends the open record.
    #[inline(always)]
    pub fn end(&mut self) -> Result<(), EncodeError> {
        // Read in place, the fields each kind needs, not copied out whole.
        let Some(open) = &self.open else {
            return Err(EncodeError::Misuse("no record is open"));
        };
        let current = &mut self.current;
        let mut patch =
            |at: usize, value: u64| current[open.start + at..open.start + at + 8].copy_from_slice(&value.to_le_bytes());
        let well_formed = match open.kind {
            RecordKind::PackedArray => {
                patch(8, open.slots);
                patch(24, open.slots - open.undefs);
                true
            }
            RecordKind::HashArray => {
                patch(8, open.slots / 2);
                open.slots % 2 == 0 && open.undefs == 0
            }
            RecordKind::Object => {
                patch(16, open.dynamic);
                let declared = u64::from(open.declared);
                match (open.restore, open.state) {
                    (ObjectRestore::Unserialize, None) => open.slots == 1 && open.undefs == 0,
                    (ObjectRestore::Internal, Some((_, values, before))) => {
                        before == declared && open.slots - before == values
                    }
                    (ObjectRestore::Properties | ObjectRestore::PropertiesThenWakeup, None) => open.slots == declared,
                    _ => false,
                }
            }
            _ => open.slots == 1 && open.undefs == 0,
        };
        let (node, section) = (open.node, open.section);
        self.open = None;
        self.nodes[node as usize].edges.1 = self.edges.len() as u32;
        if section != ARRAYS {
            self.sections[section] = std::mem::replace(&mut self.current, std::mem::take(&mut self.parked));
        }
        if well_formed {
            Ok(())
        } else {
            Err(EncodeError::Misuse("a record's slots do not match its kind"))
        }
    }

    /// Completes the encoding as `tier` and returns it. Fails when the value does not fit the tier
    /// (`SharedGraph` with hooks or dynamic properties, `Scalar` with a record), is nested deeper than
    /// 10,000 levels, or an `SplObjectStorage` key or `ArrayObject` storage lost its record.
    pub fn finish(&mut self, tier: StoreTier) -> Result<&[u8], EncodeError> {
        if self.open.is_some() || !self.root_written || self.complete.is_some() || self.stray_slot {
            return Err(EncodeError::Misuse("finish once, with the root and every record complete"));
        }
        self.settle();
        let fits = match tier {
            StoreTier::Scalar => self.record_count == 0 && self.root.is_none(),
            StoreTier::SharedGraph => !self.hooks && !self.dynamic,
            StoreTier::OPcacheSerialized => true,
            StoreTier::PHPSerialized => false,
        };
        if !fits {
            return Err(StructureError::TierMismatch(tier).into());
        }
        let nodes = &self.nodes;
        let shared = self.named_twice.iter().any(|&id| nodes[id as usize].pos != UNPLACED);
        let depth = if self.unnamed_first || shared { self.walked_depth() } else { self.deepest };
        if depth > MAX_DEPTH {
            return Err(StructureError::TooDeep { depth, limit: MAX_DEPTH }.into());
        }
        let contains_objects = !self.sections[OBJECTS].is_empty() || !self.sections[ENUM_CASES].is_empty();
        let contains_references = !self.sections[REFERENCES].is_empty();
        let flag = |set: bool, flag: u32| if set { flag } else { 0 };
        let header_flags = flag(contains_objects, flags::CONTAINS_OBJECTS)
            | flag(contains_references, flags::CONTAINS_REFERENCES)
            | flag(!contains_objects && !contains_references, flags::IMMUTABLE_ELIGIBLE)
            | flag(shared, flags::CONTAINS_SHARED)
            | flag(self.hooks, flags::CONTAINS_HOOKS);

        for section in &self.sections {
            if u32::try_from(section.len()).is_err() {
                return Err(StructureError::TooLarge.into());
            }
        }
        // `origin[k]`: where index 0 of section `k`'s buffer lands in the output (the header's is 0).
        let head_len = self.out.len();
        let gap = self.gap;
        // What goes before the array section (header, strings, shapes, enum cases) and what after it.
        let before_arrays = head_len + self.sections[SHAPES].len() + self.sections[ENUM_CASES].len();
        let after_arrays = self.sections[OBJECTS].len() + self.sections[REFERENCES].len();
        let arrays_len = self.sections[ARRAYS].len() - gap;
        // In place, the header and strings are copied instead of the array records: worth it unless
        // records other than arrays follow and the strings outweigh the arrays.
        let in_place_pays = after_arrays == 0 || head_len <= arrays_len;
        let mut origin = [0isize; SECTIONS + 1];
        let output = if before_arrays == head_len && after_arrays == 0 && head_len <= gap {
            // Arrays only (the common case): the header and strings into the room, nothing appended.
            let start = gap - head_len;
            self.sections[ARRAYS][start..gap].copy_from_slice(&self.out);
            origin[ARRAYS] = -(start as isize);
            Output::Arrays(start)
        } else if in_place_pays && before_arrays <= gap {
            self.around_arrays(&mut origin)
        } else {
            self.append_sections(in_place_pays, &mut origin)
        };
        let out = match output {
            Output::Out => &mut self.out[..],
            Output::Arrays(start) => &mut self.sections[ARRAYS][start..],
        };
        // Within the room the buffers had, an encoding may outgrow the limit without any growth finding
        // it: measured once, here.
        if self.over_limit || out.len() > self.limit {
            return Err(self.over_limit_error());
        }
        let at = |section: usize, pos: u32| (pos as isize + origin[section]) as usize;
        for (index, fixups) in self.fixups.iter().enumerate() {
            for &pos in fixups {
                let slot = at(index, pos);
                let placeholder = u64::from_le_bytes(out[slot..slot + 8].try_into().unwrap_or_default());
                let node = self.nodes[(placeholder & !STRICT) as usize];
                if node.pos != UNPLACED {
                    let offset = at(node.section as usize, node.pos) as u64;
                    out[slot..slot + 8].copy_from_slice(&offset.to_le_bytes());
                } else {
                    unwritten_node(out, slot, placeholder)?;
                }
            }
        }
        for &id in &self.named_twice {
            let node = self.nodes[id as usize];
            if node.pos != UNPLACED {
                out[at(node.section as usize, node.pos) + 1] |= RECORD_SHARED;
            }
        }
        let fields = HeaderFields {
            tier,
            flags: header_flags,
            depth,
            total_len: out.len() as u64,
            string_count: self.string_count,
            record_count: self.record_count,
            records_offset: head_len as u64,
        };
        fields.write(out);
        self.complete = Some(output);
        Ok(self.encoded())
    }

    /// Starts an encoding whose whole value is one array of scalars and strings, with no record below
    /// it (the common small store): its slots are written through the returned [`FlatArray`], which
    /// [`FlatArray::finish`] completes as a [`StoreTier::SharedGraph`] value. The bytes are those of
    /// [`Self::reset`], [`Self::node`], [`Self::root`], [`Self::begin_packed_array`] (`packed`) or
    /// [`Self::begin_hash_array`], the same slots, [`Self::end`] and [`Self::finish`]; what those keep to
    /// resolve pointers and levels (nodes, edges, fixups) is not needed for one record the root names.
    pub fn flat_array(&mut self, packed: bool, next_free_index: i64, capacity: usize) -> FlatArray<'_> {
        self.reset();
        self.root_written = true;
        self.out[header::ROOT_SLOT] = tag::ARRAY;
        let (kind, slot_len) = if packed {
            (RecordKind::PackedArray, layout::SLOT_LEN)
        } else {
            (RecordKind::HashArray, layout::HASH_ENTRY_LEN)
        };
        // `reset` left the array section at the room kept for the header and strings: the record
        // starts there, as the root's record does in `begin_array`.
        let start = self.current.len();
        self.current.reserve(layout::ARRAY_FIXED_LEN + capacity * slot_len);
        self.current.extend_from_slice(&array_head(kind, next_free_index));
        self.record_count = 1;
        FlatArray { writer: self, packed, start, slots: 0, undefs: 0 }
    }

    /// The depth when some node is shared, or levels were not known while writing.
    #[inline(never)]
    fn walked_depth(&mut self) -> u32 {
        if self.unnamed_first {
            self.traversal_depth()
        } else {
            self.shared_subtrees_depth().unwrap_or_else(|| self.traversal_depth())
        }
    }

    /// Completes the output in the array section's buffer (`origin[k]`: where index 0 of section `k`'s
    /// buffer lands): the header, strings, shapes and enum cases copied into the room kept before the
    /// array records, which stay in place, and the object and reference sections appended after them.
    #[inline(never)]
    fn around_arrays(&mut self, origin: &mut [isize; SECTIONS + 1]) -> Output {
        let [shapes, enum_cases, arrays, objects, references] = &mut self.sections;
        let start = self.gap - (self.out.len() + shapes.len() + enum_cases.len());
        let mut at = start;
        for (index, part) in [(HEAD, &self.out), (SHAPES, &*shapes), (ENUM_CASES, &*enum_cases)] {
            arrays[at..at + part.len()].copy_from_slice(part);
            origin[index] = (at - start) as isize;
            at += part.len();
        }
        origin[ARRAYS] = -(start as isize);
        origin[OBJECTS] = (arrays.len() - start) as isize;
        arrays.extend_from_slice(objects);
        origin[REFERENCES] = (arrays.len() - start) as isize;
        arrays.extend_from_slice(references);
        Output::Arrays(start)
    }

    /// Appends the sections to `out` after the header and strings (`origin[k]`: where index 0 of
    /// section `k`'s buffer lands), skipping the room kept before the array section; that room grows
    /// for the next value when `grow` (what goes before the array records did not fit it).
    #[inline(never)]
    fn append_sections(&mut self, grow: bool, origin: &mut [isize; SECTIONS + 1]) -> Output {
        let head_len = self.out.len();
        let gap = self.gap;
        if grow {
            let before_arrays = head_len + self.sections[SHAPES].len() + self.sections[ENUM_CASES].len();
            self.gap = (before_arrays + before_arrays / 2).next_multiple_of(layout::ALIGN).min(MAX_GAP);
        }
        let mut at = head_len;
        for (index, section) in self.sections.iter().enumerate() {
            let skip = if index == ARRAYS { gap } else { 0 };
            origin[index] = at as isize - skip as isize;
            at += section.len() - skip;
        }
        self.out.reserve(at - head_len);
        for (index, section) in self.sections.iter().enumerate() {
            self.out.extend_from_slice(&section[if index == ARRAYS { gap } else { 0 }..]);
        }
        Output::Out
    }

    /// The encoding [`Self::finish`] or [`Self::php_serialized`] completed last (empty before).
    pub fn encoded(&self) -> &[u8] {
        match self.complete {
            Some(Output::Out) => &self.out,
            Some(Output::Arrays(start)) => &self.sections[ARRAYS][start..],
            None => &[],
        }
    }

    /// The layout's depth, without a walk of the whole graph, when no shared node (named by more than
    /// one slot) holds another one below it, and no shared node's subtree reaches deeper, from the
    /// deepest level any slot names a shared node at, than the deepest node outside those subtrees; `None`
    /// otherwise. Records were all named before they were written (the caller checks). A node outside the
    /// shared nodes' subtrees has one path from the root, so its level is the one the decoder's walk
    /// meets it at. A shared node is met first at the level of one of the slots naming it, and its
    /// subtree (one path from it to each node) keeps its shape below it, so none of them is met deeper
    /// than that deepest node, whose level is then the depth. The common case: PHP's one immutable empty
    /// array, held by every `[]`, a leaf; or an object held twice with its `__serialize()` array.
    fn shared_subtrees_depth(&mut self) -> Option<u32> {
        let mut deepest_shared = self.renamed_deepest;
        // Whether some shared node holds others: they are then marked in `visited`.
        let mut subtrees = false;
        for &id in &self.named_twice {
            let node = self.nodes[id as usize];
            if node.pos == UNPLACED {
                continue;
            }
            let mut below = node.level;
            if node.edges.0 != node.edges.1 {
                if !subtrees {
                    subtrees = true;
                    self.visited.clear();
                    self.visited.resize(self.nodes.len(), false);
                }
                self.stack.clear();
                self.stack.push((id, 0));
                while let Some((parent, _)) = self.stack.pop() {
                    let (start, end) = self.nodes[parent as usize].edges;
                    for &child in &self.edges[start as usize..end as usize] {
                        let held = self.nodes[child as usize];
                        if held.pos == UNPLACED {
                            continue;
                        }
                        if held.in_degree > 1 {
                            return None;
                        }
                        self.visited[child as usize] = true;
                        below = below.max(held.level);
                        self.stack.push((child, 0));
                    }
                }
            }
            deepest_shared = deepest_shared.max(node.level.max(self.renamed_deepest) + (below - node.level));
        }
        let outside = |n: &Node| n.pos != UNPLACED && n.in_degree <= 1;
        let deepest_outside = if subtrees {
            let visited = &self.visited;
            self.nodes.iter().zip(visited).filter(|&(n, &seen)| outside(n) && !seen).map(|(n, _)| n.level).max()
        } else {
            self.nodes.iter().filter(|n| outside(n)).map(|n| n.level).max()
        }
        .unwrap_or(0);
        (deepest_shared <= deepest_outside).then_some(deepest_outside)
    }

    /// The layout's depth when some node is shared (or levels were not known while writing): a depth-first
    /// walk in slot order that expands each node the first time it meets it, as the decoder's check walks.
    fn traversal_depth(&mut self) -> u32 {
        let Some(root) = self.root else { return 0 };
        self.visited.clear();
        self.visited.resize(self.nodes.len(), false);
        self.stack.clear();
        self.stack.push((root, level_step(self.nodes[root as usize].section as usize)));
        let mut deepest = 0;
        while let Some((id, level)) = self.stack.pop() {
            if std::mem::replace(&mut self.visited[id as usize], true) {
                continue;
            }
            deepest = deepest.max(level);
            let (start, end) = self.nodes[id as usize].edges;
            for &child in self.edges[start as usize..end as usize].iter().rev() {
                let node = self.nodes[child as usize];
                if node.pos != UNPLACED {
                    self.stack.push((child, level.saturating_add(level_step(node.section as usize))));
                }
            }
        }
        deepest
    }

    /// A `PHPSerialized` container around the bytes of PHP's `serialize()`, whose `zend_string_hash` is
    /// `hash`. Starts a new encoding. Fails only past the limit ([`Self::set_limit`]).
    pub fn php_serialized(&mut self, serialized: &[u8], hash: u64) -> Result<&[u8], EncodeError> {
        self.reset();
        let string = self.string(serialized, hash, 0);
        if self.over_limit || self.out.len() > self.limit {
            return Err(self.over_limit_error());
        }
        let fields = HeaderFields {
            tier: StoreTier::PHPSerialized,
            flags: 0,
            depth: 0,
            total_len: self.out.len() as u64,
            string_count: 1,
            record_count: 0,
            records_offset: self.out.len() as u64,
        };
        fields.write(&mut self.out);
        self.out[header::ROOT_SLOT] = tag::STRING;
        self.out[header::ROOT_SLOT + 8..HEADER_LEN].copy_from_slice(&string.0.to_le_bytes());
        self.complete = Some(Output::Out);
        Ok(&self.out)
    }
}

/// The slot at `slot - 8` of `out` names a node whose record was never written: an object whose
/// `__sleep()` failed reads `null`, as `serialize()` writes `N;` for it, but an `SplObjectStorage` key or
/// an `ArrayObject`'s storage (`STRICT` in the placeholder) must keep its record.
#[cold]
#[inline(never)]
fn unwritten_node(out: &mut [u8], slot: usize, placeholder: u64) -> Result<(), EncodeError> {
    if placeholder & STRICT != 0 {
        return Err(EncodeError::Misuse("an SplObjectStorage key or ArrayObject storage has no record"));
    }
    out[slot - 8] = tag::NULL;
    out[slot..slot + 8].copy_from_slice(&[0u8; 8]);
    Ok(())
}

/// The one array record of an encoding started by [`GraphWriter::flat_array`].
pub struct FlatArray<'w> {
    writer: &'w mut GraphWriter,
    packed: bool,
    start: usize,
    slots: u64,
    undefs: u64,
}

impl<'w> FlatArray<'w> {
    /// [`GraphWriter::string_as`], for a key or value of this array.
    #[inline(always)]
    pub fn string_as(&mut self, bytes: &[u8], hash: u64, identity: usize, lasting: bool) -> StringRef {
        self.writer.string_as(bytes, hash, identity, lasting)
    }

    /// Writes the next slot: for a packed array a value or a hole ([`Slot::Undef`]), for a hash array a
    /// key ([`Slot::Int`] or [`Slot::String`]) and its value in turn. A slot naming a record makes
    /// [`Self::finish`] fail.
    #[inline(always)]
    pub fn slot(&mut self, slot: Slot) {
        if matches!(slot, Slot::Node(_) | Slot::EnumCase(_)) {
            self.writer.stray_slot = true;
            return;
        }
        let (tag, payload) = scalar_slot(slot);
        self.slots += 1;
        self.undefs += u64::from(tag == tag::UNDEF);
        put_slot(&mut self.writer.current, tag, payload);
    }

    /// [`Self::slot`] for a hash array's key then its value, in one copy.
    #[inline(always)]
    pub fn entry(&mut self, key: Slot, value: Slot) {
        if matches!(key, Slot::Node(_) | Slot::EnumCase(_)) || matches!(value, Slot::Node(_) | Slot::EnumCase(_)) {
            self.writer.stray_slot = true;
            return;
        }
        let (key_tag, key) = scalar_slot(key);
        let (value_tag, value) = scalar_slot(value);
        self.slots += 2;
        self.undefs += u64::from(key_tag == tag::UNDEF) + u64::from(value_tag == tag::UNDEF);
        put_entry(&mut self.writer.current, key_tag, key, value_tag, value);
    }

    /// Completes the encoding (as [`GraphWriter::end`] then [`GraphWriter::finish`] would) and returns
    /// it. `None` when a slot named a record, a hash array's slots were not key and value pairs, or the
    /// header and strings outgrew the room before the array section: the caller then encodes the value
    /// the general way, which makes that room grow.
    pub fn finish(self) -> Option<&'w [u8]> {
        let FlatArray { writer: w, packed, start, slots, undefs } = self;
        let mut patch =
            |at: usize, value: u64| w.current[start + at..start + at + 8].copy_from_slice(&value.to_le_bytes());
        let well_formed = if packed {
            patch(8, slots);
            patch(24, slots - undefs);
            true
        } else {
            patch(8, slots / 2);
            slots % 2 == 0 && undefs == 0
        };
        let head_len = w.out.len();
        let gap = w.gap;
        // A string refused by the limit of an earlier encoding (`set_limit`) leaves it to the general way.
        if !well_formed || w.stray_slot || w.over_limit || head_len > gap || u32::try_from(w.current.len()).is_err() {
            return None;
        }
        w.settle();
        let records_offset = head_len as u64;
        w.out[header::ROOT_SLOT + 8..HEADER_LEN].copy_from_slice(&records_offset.to_le_bytes());
        let out_start = gap - head_len;
        let section = &mut w.sections[ARRAYS];
        section[out_start..gap].copy_from_slice(&w.out);
        let out = &mut section[out_start..];
        let fields = HeaderFields {
            tier: StoreTier::SharedGraph,
            flags: flags::IMMUTABLE_ELIGIBLE,
            depth: level_step(ARRAYS),
            total_len: out.len() as u64,
            string_count: w.string_count,
            record_count: 1,
            records_offset,
        };
        fields.write(out);
        w.complete = Some(Output::Arrays(out_start));
        Some(w.encoded())
    }
}

/// The header fields before the root slot.
struct HeaderFields {
    tier: StoreTier,
    flags: u32,
    depth: u32,
    total_len: u64,
    string_count: u32,
    record_count: u32,
    records_offset: u64,
}

impl HeaderFields {
    fn write(&self, out: &mut [u8]) {
        // Assembled in a fixed-size array (no bounds check per field), then copied once.
        let mut head = [0u8; header::ROOT_SLOT];
        self.fill(&mut head);
        out[..header::ROOT_SLOT].copy_from_slice(&head);
    }

    fn fill(&self, head: &mut [u8; header::ROOT_SLOT]) {
        let mut put = |at: usize, bytes: &[u8]| head[at..at + bytes.len()].copy_from_slice(bytes);
        put(header::MAGIC, &layout::MAGIC);
        put(header::VERSION, &layout::LAYOUT_VERSION.to_le_bytes());
        put(header::TIER, &[self.tier as u8, 0]);
        put(header::FLAGS, &self.flags.to_le_bytes());
        put(header::DEPTH, &self.depth.to_le_bytes());
        put(header::TOTAL_LEN, &self.total_len.to_le_bytes());
        put(header::STRING_COUNT, &self.string_count.to_le_bytes());
        put(header::RECORD_COUNT, &self.record_count.to_le_bytes());
        put(header::STRINGS_OFFSET, &(HEADER_LEN as u64).to_le_bytes());
        put(header::STRINGS_LEN, &(self.records_offset - HEADER_LEN as u64).to_le_bytes());
        put(header::RECORDS_OFFSET, &self.records_offset.to_le_bytes());
        put(header::RECORDS_LEN, &(self.total_len - self.records_offset).to_le_bytes());
    }
}

/// Slot tag of a pointer to a record of `section`.
#[inline(always)]
fn section_tag(section: usize) -> u8 {
    match section {
        ARRAYS => tag::ARRAY,
        OBJECTS => tag::OBJECT,
        _ => tag::REFERENCE,
    }
}

/// Levels a node of `section` adds: arrays and objects nest, references are transparent.
#[inline(always)]
fn level_step(section: usize) -> u32 {
    u32::from(section == ARRAYS || section == OBJECTS)
}

/// Tag and payload of a slot that points at no record.
#[inline(always)]
fn scalar_slot(slot: Slot) -> (u8, u64) {
    match slot {
        Slot::Undef => (tag::UNDEF, 0),
        Slot::Null => (tag::NULL, 0),
        Slot::Bool(false) => (tag::FALSE, 0),
        Slot::Bool(true) => (tag::TRUE, 0),
        Slot::Int(i) => (tag::INT, i as u64),
        Slot::Float(f) => (tag::FLOAT, f.to_bits()),
        Slot::String(StringRef(offset)) => (tag::STRING, offset),
        // Pointers are resolved by the callers; never reached.
        Slot::Node(_) | Slot::EnumCase(_) => (tag::NULL, 0),
    }
}

/// Appends a slot: its tag byte then 7 zero bytes (one 8-byte word), then its payload.
#[inline(always)]
fn put_slot(out: &mut Vec<u8>, tag: u8, payload: u64) {
    let mut slot = [0u8; layout::SLOT_LEN];
    slot[..8].copy_from_slice(&u64::from(tag).to_le_bytes());
    slot[8..].copy_from_slice(&payload.to_le_bytes());
    out.extend_from_slice(&slot);
}

/// Appends two slots in one copy.
#[inline(always)]
fn put_entry(out: &mut Vec<u8>, key_tag: u8, key: u64, value_tag: u8, value: u64) {
    let mut entry = [0u8; 2 * layout::SLOT_LEN];
    entry[..8].copy_from_slice(&u64::from(key_tag).to_le_bytes());
    entry[8..16].copy_from_slice(&key.to_le_bytes());
    entry[16..24].copy_from_slice(&u64::from(value_tag).to_le_bytes());
    entry[24..].copy_from_slice(&value.to_le_bytes());
    out.extend_from_slice(&entry);
}

/// An array record's header and fixed part, written in one copy: its kind and next free index, the
/// counts left zero for `end` (or `FlatArray::finish`) to patch.
#[inline(always)]
fn array_head(kind: RecordKind, next_free_index: i64) -> [u8; layout::ARRAY_FIXED_LEN] {
    let mut head = [0u8; layout::ARRAY_FIXED_LEN];
    head[0] = kind as u8;
    head[16..24].copy_from_slice(&next_free_index.to_le_bytes());
    head
}

#[inline(always)]
fn record_header(out: &mut Vec<u8>, kind: RecordKind, flags: u8, sub: u8, count: u32) {
    let mut header = [kind as u8, flags, sub, 0, 0, 0, 0, 0];
    header[4..].copy_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&header);
}

/// The longest string [`GraphWriter::write_string`] writes over a fixed number of appended zeros, and
/// that number: the record of such a string, padding included, fits it.
const SHORT_STRING: usize = 32;
const SHORT_RECORD: usize = layout::STRING_FIXED_LEN + SHORT_STRING + layout::ALIGN;

/// Copies `bytes`, at most [`SHORT_STRING`] long, to the start of `to`, with at most two overlapping
/// copies of one fixed width (the first and the last `width` bytes) instead of a sized copy.
#[inline(always)]
fn copy_short(bytes: &[u8], to: &mut [u8]) {
    let len = bytes.len();
    if len >= 16 {
        to[..16].copy_from_slice(&bytes[..16]);
        to[len - 16..len].copy_from_slice(&bytes[len - 16..]);
    } else if len >= 8 {
        to[..8].copy_from_slice(&bytes[..8]);
        to[len - 8..len].copy_from_slice(&bytes[len - 8..]);
    } else if len >= 4 {
        to[..4].copy_from_slice(&bytes[..4]);
        to[len - 4..len].copy_from_slice(&bytes[len - 4..]);
    } else if len > 0 {
        // 1 to 3 bytes: the first, the middle and the last cover them.
        to[0] = bytes[0];
        to[len / 2] = bytes[len / 2];
        to[len - 1] = bytes[len - 1];
    }
}

/// Gives back a buffer that grew past [`KEEP_BYTES`].
fn trim<T>(buffer: &mut Vec<T>) {
    if buffer.capacity() * std::mem::size_of::<T>() > KEEP_BYTES {
        *buffer = Vec::new();
    }
}

/// Where each distinct string of the current encoding was written: open addressing keyed by PHP's hash,
/// entries compared by identity token first and by bytes second. Entries of earlier encodings are told
/// apart by a generation number, so starting an encoding costs nothing.
#[derive(Default)]
struct StringIndex {
    entries: Vec<StringEntry>,
    len: usize,
    generation: u32,
    identity_epoch: u32,
}

#[derive(Clone, Copy, Default)]
struct StringEntry {
    hash: u64,
    identity: usize,
    offset: u64,
    generation: u32,
    /// The epoch `identity` was filed in, or [`LASTING`]: valid whatever the epoch.
    identity_epoch: u32,
}

/// The `identity_epoch` of an identity that [`StringIndex::forget_identities`] does not forget; the
/// epoch counter itself never takes this value.
const LASTING: u32 = u32::MAX;

impl StringIndex {
    const MIN_CAPACITY: usize = 64;

    fn reset(&mut self) {
        if self.entries.len() * std::mem::size_of::<StringEntry>() > KEEP_BYTES {
            self.entries = Vec::new();
        }
        if self.entries.is_empty() {
            self.entries.resize(Self::MIN_CAPACITY, StringEntry::default());
        }
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: entries of 2^32 encodings ago would look current.
            self.entries.fill(StringEntry::default());
            self.generation = 1;
        }
    }

    fn forget_identities(&mut self) {
        self.identity_epoch += 1;
        if self.identity_epoch == LASTING {
            // Wrapped: identities of 2^32 epochs ago would look current (lasting ones are forgotten too,
            // which only costs a byte comparison).
            self.entries.iter_mut().for_each(|e| e.identity = 0);
            self.identity_epoch = 0;
        }
    }

    #[inline(always)]
    fn home(&self, hash: u64) -> usize {
        // Fibonacci hashing spreads DJB hashes of similar strings; the table length is a power of two.
        let shift = 64 - self.entries.len().trailing_zeros();
        (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
    }

    /// The offset of `bytes` in `out` if they were written in this encoding, else the vacant entry where
    /// they belong. A match by bytes files `identity` (`lasting`: valid across epochs) in the entry,
    /// unless the entry holds a lasting identity already.
    #[inline(always)]
    fn find(&mut self, out: &[u8], bytes: &[u8], hash: u64, identity: usize, lasting: bool) -> Result<u64, usize> {
        let mask = self.entries.len() - 1;
        let mut index = self.home(hash);
        loop {
            let entry = &mut self.entries[index];
            if entry.generation != self.generation {
                return Err(index);
            }
            if entry.hash == hash {
                if identity != 0
                    && entry.identity == identity
                    && (entry.identity_epoch == self.identity_epoch || entry.identity_epoch == LASTING)
                {
                    return Ok(entry.offset);
                }
                let start = entry.offset as usize + layout::STRING_FIXED_LEN;
                if out.get(start - 8..start) == Some(&(bytes.len() as u64).to_le_bytes()[..])
                    && out.get(start..start + bytes.len()) == Some(bytes)
                {
                    if entry.identity_epoch != LASTING || entry.identity == 0 {
                        entry.identity = identity;
                        entry.identity_epoch = if lasting { LASTING } else { self.identity_epoch };
                    }
                    return Ok(entry.offset);
                }
            }
            index = (index + 1) & mask;
        }
    }

    /// Files a new string in `vacant`, the entry [`Self::find`] returned; keeps the table at most half full.
    #[inline(always)]
    fn insert(&mut self, vacant: usize, offset: u64, hash: u64, identity: usize, lasting: bool) {
        let identity_epoch = if lasting { LASTING } else { self.identity_epoch };
        self.entries[vacant] = StringEntry { hash, identity, offset, generation: self.generation, identity_epoch };
        self.len += 1;
        if self.len * 2 > self.entries.len() {
            self.grow();
        }
    }

    fn place(&mut self, entry: StringEntry) {
        let mask = self.entries.len() - 1;
        let mut index = self.home(entry.hash);
        while self.entries[index].generation == self.generation {
            index = (index + 1) & mask;
        }
        self.entries[index] = entry;
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let capacity = (self.entries.len() * 2).max(Self::MIN_CAPACITY);
        let old = std::mem::replace(&mut self.entries, vec![StringEntry::default(); capacity]);
        let generation = self.generation;
        for entry in old.into_iter().filter(|e| e.generation == generation) {
            self.place(entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use crate::model::{ArrayElements, Value};
    use proptest::prelude::*;

    fn text(writer: &mut GraphWriter, s: &str) -> StringRef {
        writer.string(s.as_bytes(), zend_string_hash(s.as_bytes()), 0)
    }

    /// `["k" => "v", "list" => [1, hole, 3]]`, the list written first.
    fn write_sample(writer: &mut GraphWriter) -> Vec<u8> {
        writer.reset();
        let root = writer.node(NodeKind::Array);
        writer.root(Slot::Node(root)).unwrap();
        let list = writer.node(NodeKind::Array);
        writer.begin_hash_array(root, i64::MIN, 2).unwrap();
        for (key, value) in [("k", Slot::String(text(writer, "v"))), ("list", Slot::Node(list))] {
            let key = text(writer, key);
            writer.slot(Slot::String(key));
            writer.slot(value);
        }
        writer.end().unwrap();
        writer.begin_packed_array(list, 3, 3).unwrap();
        for slot in [Slot::Int(1), Slot::Undef, Slot::Int(3)] {
            writer.slot(slot);
        }
        writer.end().unwrap();
        writer.finish(StoreTier::SharedGraph).unwrap().to_vec()
    }

    #[test]
    fn a_reused_writer_writes_exactly_what_a_fresh_one_writes() {
        let fresh = write_sample(&mut GraphWriter::new());
        let mut reused = GraphWriter::new();
        reused.php_serialized(&[0xAA; 300], zend_string_hash(&[0xAA; 300])).unwrap();
        write_sample(&mut reused);
        assert_eq!(write_sample(&mut reused), fresh);
        let decoded = decode(&fresh).unwrap();
        assert_eq!(decoded.header.string_count, 3);
        assert_eq!(decoded.graph.arrays.len(), 2);
    }

    /// `[$string]`: one packed array holding one string, through the general writer.
    fn write_wrapped(writer: &mut GraphWriter, string: &[u8]) -> Result<Vec<u8>, EncodeError> {
        writer.reset();
        let root = writer.node(NodeKind::Array);
        writer.root(Slot::Node(root))?;
        writer.begin_packed_array(root, 1, 1)?;
        let string = writer.string(string, zend_string_hash(string), 0);
        writer.slot(Slot::String(string));
        writer.end()?;
        writer.finish(StoreTier::SharedGraph).map(<[u8]>::to_vec)
    }

    fn over(limit: usize) -> EncodeError {
        StructureError::OverLimit { limit }.into()
    }

    #[test]
    fn the_limit_refuses_an_encoding_one_byte_too_long_and_no_shorter() {
        let string = vec![b'x'; 5000];
        let full = write_wrapped(&mut GraphWriter::new(), &string).unwrap();
        let mut writer = GraphWriter::new();
        writer.set_limit(full.len());
        assert_eq!(write_wrapped(&mut writer, &string).unwrap(), full);
        writer.set_limit(full.len() - 1);
        assert_eq!(write_wrapped(&mut writer, &string), Err(over(full.len() - 1)));
        // The refusal does not stay with the writer: the next encoding within the limit succeeds.
        assert_eq!(
            write_wrapped(&mut writer, &string[..100]).unwrap(),
            write_wrapped(&mut GraphWriter::new(), &string[..100]).unwrap()
        );
        assert_eq!(write_sample(&mut writer), write_sample(&mut GraphWriter::new()));
    }

    #[test]
    fn a_string_past_the_limit_is_not_copied() {
        let string = vec![b'x'; 64 << 20];
        let mut writer = GraphWriter::new();
        writer.set_limit(1 << 20);
        assert_eq!(write_wrapped(&mut writer, &string), Err(over(1 << 20)));
        assert!(writer.out.capacity() < 1 << 20, "the writer grew to {} bytes", writer.out.capacity());
        // Refused when met, before the rest of the value is written.
        writer.reset();
        let root = writer.node(NodeKind::Array);
        writer.root(Slot::Node(root)).unwrap();
        writer.string(&string, 1, 0);
        assert!(writer.over_limit());
    }

    #[test]
    fn a_record_past_the_limit_is_refused_when_it_begins() {
        let mut writer = GraphWriter::new();
        writer.set_limit(1 << 20);
        writer.reset();
        let root = writer.node(NodeKind::Array);
        writer.root(Slot::Node(root)).unwrap();
        assert_eq!(writer.begin_packed_array(root, 0, 1 << 20), Err(over(1 << 20)));
        assert!(writer.current.capacity() < 1 << 20);
        // An object record, written in its own section, is refused the same way and leaves the writer
        // usable.
        writer.reset();
        let root = writer.node(NodeKind::Array);
        let object = writer.node(NodeKind::Object);
        writer.root(Slot::Node(root)).unwrap();
        writer.begin_packed_array(root, 1, 1).unwrap();
        writer.slot(Slot::Node(object));
        writer.end().unwrap();
        let name = text(&mut writer, "C");
        let properties: Vec<_> = (0..70_000).map(|i| (text(&mut writer, &format!("p{i}")), false)).collect();
        let shape = writer.shape(name, &properties);
        assert_eq!(writer.begin_object(object, shape, ObjectRestore::Properties), Err(over(1 << 20)));
        assert_eq!(write_sample(&mut writer), write_sample(&mut GraphWriter::new()));
    }

    #[test]
    fn the_limit_bounds_php_serialized_containers_and_strings_of_flat_arrays() {
        let mut writer = GraphWriter::new();
        writer.set_limit(100);
        let long = vec![b's'; 500];
        let mut flat = writer.flat_array(true, 1, 1);
        let string = flat.string_as(&long, zend_string_hash(&long), 0, false);
        flat.slot(Slot::String(string));
        assert_eq!(flat.finish(), None);

        let serialized = vec![b'a'; 3000];
        let hash = zend_string_hash(&serialized);
        writer.set_limit(usize::MAX);
        let full = writer.php_serialized(&serialized, hash).unwrap().to_vec();
        writer.set_limit(full.len());
        assert_eq!(writer.php_serialized(&serialized, hash).unwrap(), &full[..]);
        writer.set_limit(full.len() - 1);
        assert_eq!(writer.php_serialized(&serialized, hash), Err(over(full.len() - 1)));
    }

    /// A key (hash arrays) and value of a flat array in the tests below; a value `None` is a packed hole.
    type FlatElement = (Result<i64, String>, Option<FlatValue>);

    #[derive(Clone, Debug)]
    enum FlatValue {
        Null,
        Bool(bool),
        Int(i64),
        Float(f64),
        Text(String),
    }

    fn flat_value(value: &Option<FlatValue>, mut string: impl FnMut(&str) -> StringRef) -> Slot {
        match value {
            None => Slot::Undef,
            Some(FlatValue::Null) => Slot::Null,
            Some(FlatValue::Bool(b)) => Slot::Bool(*b),
            Some(FlatValue::Int(i)) => Slot::Int(*i),
            Some(FlatValue::Float(f)) => Slot::Float(*f),
            Some(FlatValue::Text(t)) => Slot::String(string(t)),
        }
    }

    fn flat_key(key: &Result<i64, String>, string: impl FnOnce(&str) -> StringRef) -> Slot {
        match key {
            Ok(i) => Slot::Int(*i),
            Err(k) => Slot::String(string(k)),
        }
    }

    /// The array written the general way: node, root, record, end, finish.
    /// `entries`: a hash array's key and value are written with one [`GraphWriter::entry`] call.
    fn write_general(
        writer: &mut GraphWriter,
        packed: bool,
        next: i64,
        elements: &[FlatElement],
        entries: bool,
    ) -> Vec<u8> {
        writer.reset();
        let root = writer.node(NodeKind::Array);
        writer.root(Slot::Node(root)).unwrap();
        if packed {
            writer.begin_packed_array(root, next, elements.len()).unwrap();
        } else {
            writer.begin_hash_array(root, next, elements.len()).unwrap();
        }
        for (key, value) in elements {
            let key = (!packed).then(|| flat_key(key, |k| text(writer, k)));
            let value = flat_value(value, |t| text(writer, t));
            match key {
                Some(key) if entries => writer.entry(key, value),
                Some(key) => {
                    writer.slot(key);
                    writer.slot(value);
                }
                None => writer.slot(value),
            }
        }
        writer.end().unwrap();
        writer.finish(StoreTier::SharedGraph).unwrap().to_vec()
    }

    /// The same array through `flat_array`; `None` when it declined.
    fn write_flat(writer: &mut GraphWriter, packed: bool, next: i64, elements: &[FlatElement]) -> Option<Vec<u8>> {
        let mut flat = writer.flat_array(packed, next, elements.len());
        let string =
            |flat: &mut FlatArray<'_>, t: &str| flat.string_as(t.as_bytes(), zend_string_hash(t.as_bytes()), 0, false);
        for (key, value) in elements {
            let key = (!packed).then(|| match key {
                Ok(i) => Slot::Int(*i),
                Err(k) => Slot::String(string(&mut flat, k)),
            });
            let value = match value {
                Some(FlatValue::Text(t)) => Slot::String(string(&mut flat, t)),
                other => flat_value(other, |_| unreachable!()),
            };
            match key {
                Some(key) => flat.entry(key, value),
                None => flat.slot(value),
            }
        }
        flat.finish().map(<[u8]>::to_vec)
    }

    fn flat_value_strategy() -> impl Strategy<Value = Option<FlatValue>> {
        prop_oneof![
            Just(None),
            Just(Some(FlatValue::Null)),
            any::<bool>().prop_map(|b| Some(FlatValue::Bool(b))),
            any::<i64>().prop_map(|i| Some(FlatValue::Int(i))),
            any::<f64>().prop_map(|f| Some(FlatValue::Float(f))),
            "[a-c]{0,3}|x{0,40}".prop_map(|t| Some(FlatValue::Text(t))),
        ]
    }

    fn flat_elements(packed: bool) -> impl Strategy<Value = Vec<FlatElement>> {
        let key = prop_oneof![any::<i64>().prop_map(Ok), "[a-c]{0,3}".prop_map(Err)];
        let value = flat_value_strategy().prop_filter("holes only in packed arrays", move |v| packed || v.is_some());
        // A key once per array, as in every PHP array (the check refuses one named twice).
        prop::collection::vec((key, value), 0..10).prop_map(|mut elements| {
            let mut seen = std::collections::HashSet::new();
            elements.retain(|(key, _)| seen.insert(key.clone()));
            elements
        })
    }

    proptest! {
        #[test]
        fn a_flat_array_is_written_exactly_as_the_general_way_writes_it(
            (packed, elements) in any::<bool>().prop_flat_map(|packed| (Just(packed), flat_elements(packed))),
            next in any::<i64>(),
            before in any::<bool>(),
        ) {
            // `before`: the writer held another encoding first (reused buffers, grown room).
            let mut writer = GraphWriter::new();
            if before {
                write_list(&mut writer, 5000, true);
            }
            let general = write_general(&mut GraphWriter::new(), packed, next, &elements, false);
            let flat = write_flat(&mut writer, packed, next, &elements).unwrap();
            prop_assert_eq!(&flat, &general);
            prop_assert_eq!(write_general(&mut writer, packed, next, &elements, true), general);
            prop_assert!(decode(&flat).is_ok());
            // And the writer goes on to write general encodings as a fresh one does.
            prop_assert_eq!(write_sample(&mut writer), write_sample(&mut GraphWriter::new()));
        }
    }

    proptest! {
        #[test]
        fn every_string_record_holds_hash_length_bytes_and_zero_padding(
            strings in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..80), 1..12),
            before in any::<bool>(),
        ) {
            let mut writer = GraphWriter::new();
            if before {
                write_list(&mut writer, 5000, true);
            }
            writer.reset();
            let mut expected = writer.out.clone();
            for (n, bytes) in strings.iter().enumerate() {
                // A distinct hash for each: distinct records, whatever the bytes.
                let hash = n as u64 + 1;
                let StringRef(offset) = writer.string(bytes, hash, 0);
                prop_assert_eq!(offset as usize, expected.len());
                expected.extend_from_slice(&hash.to_le_bytes());
                expected.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
                expected.extend_from_slice(bytes);
                expected.push(0);
                expected.resize(expected.len().next_multiple_of(layout::ALIGN), 0);
            }
            prop_assert_eq!(&writer.out, &expected);
        }
    }

    #[test]
    fn a_flat_array_declines_a_record_slot_odd_hash_slots_and_strings_past_the_room() {
        let mut writer = GraphWriter::new();
        let mut flat = writer.flat_array(true, 0, 1);
        flat.slot(Slot::Node(NodeId(0)));
        assert!(flat.finish().is_none());
        let mut flat = writer.flat_array(false, 0, 1);
        flat.slot(Slot::Int(1));
        assert!(flat.finish().is_none());
        let long = vec![b'x'; FIRST_GAP];
        let mut flat = writer.flat_array(true, 1, 1);
        let s = flat.string_as(&long, zend_string_hash(&long), 0, false);
        flat.slot(Slot::String(s));
        assert!(flat.finish().is_none());
        // The general way still writes it, and makes room for next time.
        assert_eq!(write_sample(&mut writer), write_sample(&mut GraphWriter::new()));
    }

    /// A list of one long string, or of a `stdClass` object.
    fn write_list(writer: &mut GraphWriter, long_string: usize, with_object: bool) -> Vec<u8> {
        writer.reset();
        let list = writer.node(NodeKind::Array);
        let object = writer.node(NodeKind::Object);
        writer.root(Slot::Node(list)).unwrap();
        writer.begin_packed_array(list, 1, 1).unwrap();
        let text = "x".repeat(long_string);
        let value = if with_object { Slot::Node(object) } else { Slot::String(self::text(writer, &text)) };
        writer.slot(value);
        writer.end().unwrap();
        if with_object {
            let class = self::text(writer, "stdClass");
            let shape = writer.shape(class, &[]);
            writer.begin_object(object, shape, ObjectRestore::Properties).unwrap();
            writer.end().unwrap();
        }
        writer.finish(StoreTier::OPcacheSerialized).unwrap().to_vec()
    }

    #[test]
    fn values_finished_in_place_or_copied_are_the_same_bytes() {
        let mut writer = GraphWriter::new();
        // Strings larger than the room kept for them: copied, and the room grows for the next value.
        let copied = write_list(&mut writer, 3 * FIRST_GAP, false);
        assert!(matches!(writer.complete, Some(Output::Out)));
        let in_place = write_list(&mut writer, 3 * FIRST_GAP, false);
        assert!(matches!(writer.complete, Some(Output::Arrays(_))));
        assert_eq!(in_place, copied);
        assert_eq!(write_list(&mut GraphWriter::new(), 3 * FIRST_GAP, false), copied);
        // A record that is not an array: copied, skipping the room.
        let with_object = write_list(&mut writer, 0, true);
        assert!(matches!(writer.complete, Some(Output::Out)));
        assert_eq!(with_object, write_list(&mut GraphWriter::new(), 0, true));
        for bytes in [copied, with_object] {
            decode(&bytes).unwrap();
        }
    }

    /// `[object, &reference, &reference, Suit::Hearts, 0, 1, …, 19]`; `gap`: the room kept before the
    /// array section is set to this first.
    fn write_mixed(writer: &mut GraphWriter, gap: Option<usize>) -> Vec<u8> {
        if let Some(gap) = gap {
            writer.gap = gap;
        }
        writer.reset();
        let list = writer.node(NodeKind::Array);
        let object = writer.node(NodeKind::Object);
        let reference = writer.node(NodeKind::Reference);
        writer.root(Slot::Node(list)).unwrap();
        writer.begin_packed_array(list, 24, 24).unwrap();
        writer.slot(Slot::Node(object));
        writer.slot(Slot::Node(reference));
        writer.slot(Slot::Node(reference));
        let (class, case) = (text(writer, "Suit"), text(writer, "Hearts"));
        let case = writer.enum_case(class, case);
        writer.slot(Slot::EnumCase(case));
        for i in 0..20 {
            writer.slot(Slot::Int(i));
        }
        writer.end().unwrap();
        let class = text(writer, "stdClass");
        let shape = writer.shape(class, &[]);
        writer.begin_object(object, shape, ObjectRestore::Properties).unwrap();
        writer.end().unwrap();
        writer.begin_reference(reference).unwrap();
        writer.slot(Slot::Int(7));
        writer.end().unwrap();
        writer.finish(StoreTier::OPcacheSerialized).unwrap().to_vec()
    }

    #[test]
    fn a_value_with_other_records_finished_around_its_arrays_is_the_bytes_of_the_copied_one() {
        let mut writer = GraphWriter::new();
        let around = write_mixed(&mut writer, None);
        assert!(matches!(writer.complete, Some(Output::Arrays(_))));
        // No room before the array section: every section copied after the header and strings.
        let mut copying = GraphWriter::new();
        let copied = write_mixed(&mut copying, Some(layout::ALIGN));
        assert!(matches!(copying.complete, Some(Output::Out)));
        assert_eq!(around, copied);
        assert_eq!(write_mixed(&mut writer, None), copied);
        decode(&around).unwrap();
    }

    #[test]
    fn a_string_met_again_by_identity_or_by_content_is_stored_once_until_identities_are_forgotten() {
        let mut writer = GraphWriter::new();
        let hash = zend_string_hash(b"name");
        let first = writer.string(b"name", hash, 7);
        assert_eq!(writer.string(b"name", hash, 7), first);
        assert_eq!(writer.string(b"name", hash, 8), first);
        assert_eq!(writer.string(b"name", hash, 0), first);
        writer.forget_identities();
        // Token 7 now names other bytes: they must not be taken for "name".
        let other = writer.string(b"other", zend_string_hash(b"other"), 7);
        assert_ne!(other, first);
        assert_eq!(writer.string_count, 2);
    }

    #[test]
    fn a_lasting_identity_outlives_forgotten_identities_and_a_plain_one_does_not() {
        let mut writer = GraphWriter::new();
        // "FY" and "Ez" have the same PHP hash: only an identity or the bytes tell them apart.
        let hash = zend_string_hash(b"FY");
        assert_eq!(zend_string_hash(b"Ez"), hash);
        let plain = writer.string(b"FY", hash, 8);
        let lasting = writer.string_as(b"Ez", hash, 7, true);
        assert_ne!(plain, lasting);
        writer.forget_identities();
        assert_eq!(writer.string_as(b"Ez", hash, 7, true), lasting);
        // Token 8 now names other bytes: "Ez" under it must not be taken for "FY".
        assert_eq!(writer.string(b"Ez", hash, 8), lasting);
        // A match by bytes does not replace the lasting identity: token 7 is still "Ez" after another
        // forgetting, and token 8's new identity is forgotten again.
        writer.forget_identities();
        assert_eq!(writer.string_as(b"Ez", hash, 7, true), lasting);
        assert_eq!(writer.string(b"FY", hash, 8), plain);
        assert_eq!(writer.string_count, 2);
    }

    #[test]
    fn an_unhashed_string_is_stored_apart_with_hash_0_and_read_back_with_its_hash() {
        let mut writer = GraphWriter::new();
        let root = writer.node(NodeKind::Array);
        writer.root(Slot::Node(root)).unwrap();
        writer.begin_packed_array(root, 3, 3).unwrap();
        let hashed = text(&mut writer, "fresh");
        let first = writer.unhashed_string(b"fresh");
        let second = writer.unhashed_string(b"fresh");
        assert_ne!(first, hashed);
        assert_ne!(first, second);
        // The hashed record stays the one a lookup finds.
        assert_eq!(text(&mut writer, "fresh"), hashed);
        for string in [hashed, first, second] {
            writer.slot(Slot::String(string));
        }
        writer.end().unwrap();
        let bytes = writer.finish(StoreTier::SharedGraph).unwrap().to_vec();
        let stored_hash = |string: StringRef| u64::from_le_bytes(bytes[string.0 as usize..][..8].try_into().unwrap());
        assert_eq!(stored_hash(hashed), zend_string_hash(b"fresh"));
        assert_eq!((stored_hash(first), stored_hash(second)), (0, 0));
        let checked = crate::CheckedGraph::check(&bytes).unwrap();
        assert_eq!(checked.string_count(), 3);
        for id in 0..3 {
            let string = checked.string(crate::StringId(id)).unwrap();
            assert_eq!((string.bytes, string.hash), (&b"fresh"[..], zend_string_hash(b"fresh")));
        }
        let fresh = Some(Value::String(b"fresh".as_slice().into()));
        assert_eq!(decode(&bytes).unwrap().graph.arrays[0].elements, ArrayElements::Packed(vec![fresh; 3]));
    }

    /// A list of a date-like object, restored by `__unserialize()` from a hash array of scalars, named
    /// twice, then an empty list; the object's records written by `unserialized_hash` or record by record.
    fn write_unserialized(writer: &mut GraphWriter, in_one_call: bool) -> Result<Vec<u8>, EncodeError> {
        writer.reset();
        let [root, empty] = [(); 2].map(|_| writer.node(NodeKind::Array));
        let date = writer.node(NodeKind::Object);
        writer.root(Slot::Node(root))?;
        writer.begin_packed_array(root, 3, 3)?;
        for slot in [Slot::Node(date), Slot::Node(empty), Slot::Node(date)] {
            writer.slot(slot);
        }
        writer.end()?;
        let class = text(writer, "Date");
        let shape = writer.shape(class, &[]);
        let mut entries = vec![Slot::String(text(writer, "date")), Slot::String(writer.unhashed_string(b"2026-01-01"))];
        entries.extend([Slot::String(text(writer, "type")), Slot::Int(3), Slot::Int(7), Slot::Float(0.5)]);
        entries.extend([Slot::Int(8), Slot::Null, Slot::Int(9), Slot::Bool(true)]);
        if in_one_call {
            writer.unserialized_hash(date, shape, 10, &entries)?;
        } else {
            writer.begin_object(date, shape, ObjectRestore::Unserialize)?;
            let array = writer.node(NodeKind::Array);
            writer.slot(Slot::Node(array));
            writer.end()?;
            writer.begin_hash_array(array, 10, entries.len() / 2)?;
            entries.iter().for_each(|&slot| writer.slot(slot));
            writer.end()?;
        }
        writer.begin_packed_array(empty, 0, 0)?;
        writer.end()?;
        Ok(writer.finish(StoreTier::OPcacheSerialized)?.to_vec())
    }

    #[test]
    fn an_unserialized_hash_written_in_one_call_is_the_bytes_of_its_records_written_one_by_one() {
        let mut writer = GraphWriter::new();
        let one_by_one = write_unserialized(&mut writer, false).unwrap();
        let in_one_call = write_unserialized(&mut writer, true).unwrap();
        assert_eq!(in_one_call, one_by_one);
        let decoded = decode(&in_one_call).expect("the decoder agrees with the depth and shared flags");
        assert_eq!(decoded.graph.objects.len(), 1);
        assert_eq!(decoded.header.depth, 3);
        assert_ne!(decoded.header.flags & flags::CONTAINS_HOOKS, 0);
    }

    #[test]
    fn an_unserialized_hash_of_a_node_an_odd_slot_count_or_a_written_object_is_refused() {
        let mut writer = GraphWriter::new();
        let date = writer.node(NodeKind::Object);
        let list = writer.node(NodeKind::Array);
        writer.root(Slot::Node(date)).unwrap();
        let class = text(&mut writer, "Date");
        let shape = writer.shape(class, &[]);
        let key = Slot::String(text(&mut writer, "k"));
        for entries in [vec![key, Slot::Node(list)], vec![key, Slot::Undef], vec![key]] {
            assert!(writer.unserialized_hash(date, shape, 0, &entries).is_err());
        }
        assert!(writer.unserialized_hash(list, shape, 0, &[key, Slot::Int(1)]).is_err());
        writer.unserialized_hash(date, shape, 0, &[key, Slot::Int(1)]).unwrap();
        assert!(writer.unserialized_hash(date, shape, 0, &[key, Slot::Int(1)]).is_err());
        let bytes = writer.finish(StoreTier::OPcacheSerialized).unwrap().to_vec();
        decode(&bytes).unwrap();
    }

    #[test]
    fn an_object_whose_record_is_never_written_reads_null_in_every_slot() {
        let mut writer = GraphWriter::new();
        let root = writer.node(NodeKind::Array);
        let gone = writer.node(NodeKind::Object);
        let reference = writer.node(NodeKind::Reference);
        writer.root(Slot::Node(root)).unwrap();
        writer.begin_packed_array(root, 3, 3).unwrap();
        for slot in [Slot::Node(gone), Slot::Node(gone), Slot::Node(reference)] {
            writer.slot(slot);
        }
        writer.end().unwrap();
        writer.begin_reference(reference).unwrap();
        writer.slot(Slot::Node(gone));
        writer.end().unwrap();
        let bytes = writer.finish(StoreTier::OPcacheSerialized).unwrap().to_vec();
        let decoded = decode(&bytes).unwrap();
        assert_eq!(decoded.graph.objects.len(), 0);
        assert_eq!(decoded.graph.references[0].value, Value::Null);
        assert_eq!(decoded.header.flags & flags::CONTAINS_OBJECTS, 0);
    }

    #[test]
    fn an_object_storage_key_whose_record_is_never_written_is_refused() {
        let mut writer = GraphWriter::new();
        let storage = writer.node(NodeKind::Object);
        let key = writer.node(NodeKind::Object);
        writer.root(Slot::Node(storage)).unwrap();
        let class = text(&mut writer, "SplObjectStorage");
        let shape = writer.shape(class, &[]);
        writer.begin_object(storage, shape, ObjectRestore::Internal).unwrap();
        let state = InternalState::ObjectStorage(crate::ObjectStorageState {
            entries: vec![crate::ObjectStorageEntry { object: (), data: () }],
        });
        writer.internal_state(&state).unwrap();
        writer.slot(Slot::Node(key));
        writer.slot(Slot::Null);
        writer.end().unwrap();
        assert!(matches!(writer.finish(StoreTier::SharedGraph), Err(EncodeError::Misuse(_))));
    }

    #[test]
    fn depth_follows_the_decoders_walk_when_a_shared_node_is_written_early() {
        // root [A, X] with A = [[[X]]] and X = [[1]]; X is written before A's chain names it again, at a
        // shallower level than the slot-order walk meets it.
        let mut writer = GraphWriter::new();
        let [root, a, a1, a2, x, x1] = [(); 6].map(|_| writer.node(NodeKind::Array));
        writer.root(Slot::Node(root)).unwrap();
        let records = [(root, vec![a, x]), (x, vec![x1]), (a, vec![a1]), (a1, vec![a2]), (a2, vec![x])];
        for (node, children) in records {
            writer.begin_packed_array(node, children.len() as i64, children.len()).unwrap();
            children.into_iter().for_each(|child| writer.slot(Slot::Node(child)));
            writer.end().unwrap();
        }
        writer.begin_packed_array(x1, 1, 1).unwrap();
        writer.slot(Slot::Int(1));
        writer.end().unwrap();
        let bytes = writer.finish(StoreTier::SharedGraph).unwrap().to_vec();
        let decoded = decode(&bytes).expect("the decoder agrees with the depth and shared flags");
        assert_eq!(decoded.header.depth, 6);
        assert_ne!(decoded.header.flags & flags::CONTAINS_SHARED, 0);
    }

    #[test]
    fn depth_agrees_with_the_decoder_when_only_leaves_are_shared() {
        // root [E, [E, [[1]]], tail] with E one empty array named at levels 2 and 3; `tail` is empty, or
        // [[[E]]], naming E at level 5, below every unshared node (the walk then decides: the decoder
        // meets E first at level 2).
        for named_deepest in [false, true] {
            let mut writer = GraphWriter::new();
            let [root, empty, a, b, c, tail, t2, t3] = [(); 8].map(|_| writer.node(NodeKind::Array));
            writer.root(Slot::Node(root)).unwrap();
            let mut records = vec![(root, vec![empty, a, tail]), (a, vec![empty, b]), (b, vec![c])];
            if named_deepest {
                records.extend([(tail, vec![t2]), (t2, vec![t3]), (t3, vec![empty])]);
            } else {
                records.push((tail, vec![]));
            }
            for (node, children) in records {
                writer.begin_packed_array(node, children.len() as i64, children.len()).unwrap();
                children.into_iter().for_each(|child| writer.slot(Slot::Node(child)));
                writer.end().unwrap();
            }
            for (node, slots) in [(c, vec![Slot::Int(1)]), (empty, vec![])] {
                writer.begin_packed_array(node, slots.len() as i64, slots.len()).unwrap();
                slots.into_iter().for_each(|slot| writer.slot(slot));
                writer.end().unwrap();
            }
            assert_eq!(writer.shared_subtrees_depth(), (!named_deepest).then_some(4));
            let bytes = writer.finish(StoreTier::SharedGraph).unwrap().to_vec();
            let decoded = decode(&bytes).expect("the decoder agrees with the depth and shared flags");
            assert_eq!(decoded.header.depth, 4);
            assert_ne!(decoded.header.flags & flags::CONTAINS_SHARED, 0);
        }
    }

    #[test]
    fn depth_agrees_with_the_decoder_when_a_shared_node_holds_unshared_ones() {
        // root [B, T] with B = [[1]] named again by T = [B, C] one level deeper, and C = [[1]] when
        // `outside_deeper` (its inner list as deep as B's, met from T: the depth is read from the levels),
        // else C = [] (B's inner list is the deepest node, found by the walk).
        for outside_deeper in [false, true] {
            let mut writer = GraphWriter::new();
            let [root, b, b1, t, c, c1] = [(); 6].map(|_| writer.node(NodeKind::Array));
            writer.root(Slot::Node(root)).unwrap();
            let mut records = vec![(root, vec![b, t]), (t, vec![b, c]), (b, vec![b1])];
            records.push((c, if outside_deeper { vec![c1] } else { vec![] }));
            for (node, children) in records {
                writer.begin_packed_array(node, children.len() as i64, children.len()).unwrap();
                children.into_iter().for_each(|child| writer.slot(Slot::Node(child)));
                writer.end().unwrap();
            }
            let leaves = if outside_deeper { vec![b1, c1] } else { vec![b1] };
            for node in leaves {
                writer.begin_packed_array(node, 1, 1).unwrap();
                writer.slot(Slot::Int(1));
                writer.end().unwrap();
            }
            assert_eq!(writer.shared_subtrees_depth(), outside_deeper.then_some(4));
            let bytes = writer.finish(StoreTier::SharedGraph).unwrap().to_vec();
            let decoded = decode(&bytes).expect("the decoder agrees with the depth and shared flags");
            assert_eq!(decoded.header.depth, if outside_deeper { 4 } else { 3 });
        }
    }

    #[test]
    fn values_that_do_not_fit_their_tier_or_nest_too_deep_are_refused() {
        let mut writer = GraphWriter::new();
        let object = writer.node(NodeKind::Object);
        writer.root(Slot::Node(object)).unwrap();
        let class = text(&mut writer, "stdClass");
        let shape = writer.shape(class, &[]);
        writer.begin_object(object, shape, ObjectRestore::Properties).unwrap();
        let name = text(&mut writer, "dynamic");
        writer.dynamic_property(name, Slot::Int(1)).unwrap();
        writer.end().unwrap();
        assert_eq!(
            writer.finish(StoreTier::SharedGraph),
            Err(EncodeError::Structure(StructureError::TierMismatch(StoreTier::SharedGraph)))
        );
        assert!(writer.finish(StoreTier::OPcacheSerialized).is_ok());

        writer.reset();
        let nodes = (0..=MAX_DEPTH).map(|_| writer.node(NodeKind::Array)).collect::<Vec<_>>();
        writer.root(Slot::Node(nodes[0])).unwrap();
        for (level, &node) in nodes.iter().enumerate() {
            writer.begin_packed_array(node, 1, 1).unwrap();
            writer.slot(nodes.get(level + 1).map_or(Slot::Null, |&child| Slot::Node(child)));
            writer.end().unwrap();
        }
        assert_eq!(
            writer.finish(StoreTier::SharedGraph),
            Err(EncodeError::Structure(StructureError::TooDeep { depth: MAX_DEPTH + 1, limit: MAX_DEPTH }))
        );
    }

    #[test]
    fn records_out_of_order_or_incomplete_are_refused_as_misuse() {
        let mut writer = GraphWriter::new();
        let array = writer.node(NodeKind::Array);
        writer.root(Slot::Node(array)).unwrap();
        assert!(writer.begin_reference(array).is_err());
        writer.begin_hash_array(array, i64::MIN, 1).unwrap();
        writer.slot(Slot::Int(1));
        assert!(writer.finish(StoreTier::SharedGraph).is_err());
        assert!(writer.end().is_err());
        assert!(writer.begin_hash_array(array, i64::MIN, 1).is_err());

        writer.reset();
        writer.root(Slot::Int(1)).unwrap();
        writer.slot(Slot::Int(2));
        assert!(writer.finish(StoreTier::Scalar).is_err());
    }
}
