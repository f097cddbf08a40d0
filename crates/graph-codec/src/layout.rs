//! Constants of the encoded byte layout (see `LAYOUT.md`, which draws it byte by byte).
//!
//! Everything is little-endian and 8-byte aligned; every offset is a u64 counted from the first byte of
//! the buffer, so the buffer can be copied to any address and read in place.

/// First four bytes of every encoded graph.
pub const MAGIC: [u8; 4] = *b"SCGR";
/// Bumped whenever any byte of the layout changes meaning.
pub const LAYOUT_VERSION: u16 = 2;
/// Size of the fixed header; the string section starts right after it.
pub const HEADER_LEN: usize = 80;
/// Size of one value slot.
pub const SLOT_LEN: usize = 16;
/// Every record and string starts at a multiple of this.
pub const ALIGN: usize = 8;

/// Deepest array/object nesting the codec stores or accepts (spec §6.6).
pub const MAX_DEPTH: u32 = 10_000;
/// Deepest nesting for values that need PHP's own `serialize()` (spec §6.6).
pub const MAX_DEPTH_PHP_SERIALIZED: u32 = 1_000;

/// Byte offsets of the header fields.
pub(crate) mod header {
    pub const MAGIC: usize = 0;
    pub const VERSION: usize = 4;
    pub const TIER: usize = 6;
    pub const RESERVED: usize = 7;
    pub const FLAGS: usize = 8;
    pub const DEPTH: usize = 12;
    pub const TOTAL_LEN: usize = 16;
    pub const STRING_COUNT: usize = 24;
    pub const RECORD_COUNT: usize = 28;
    pub const STRINGS_OFFSET: usize = 32;
    pub const STRINGS_LEN: usize = 40;
    pub const RECORDS_OFFSET: usize = 48;
    pub const RECORDS_LEN: usize = 56;
    pub const ROOT_SLOT: usize = 64;
}

/// Header flags, computed at encode time so the reader never walks the graph to learn them.
pub mod flags {
    /// The graph holds at least one object or enum case.
    pub const CONTAINS_OBJECTS: u32 = 1 << 0;
    /// The graph holds at least one PHP reference.
    pub const CONTAINS_REFERENCES: u32 = 1 << 1;
    /// Only scalars, strings and arrays: the value can be handed to PHP as an immutable array.
    pub const IMMUTABLE_ELIGIBLE: u32 = 1 << 2;
    /// Some array, object or reference is reachable more than once (shared identity or a cycle); without
    /// this flag the reader needs no identity map.
    pub const CONTAINS_SHARED: u32 = 1 << 3;
    /// Some object restores through userland hooks (`__wakeup`, `__unserialize`).
    pub const CONTAINS_HOOKS: u32 = 1 << 4;
    /// Every flag this version defines.
    pub const ALL: u32 = CONTAINS_OBJECTS | CONTAINS_REFERENCES | IMMUTABLE_ELIGIBLE | CONTAINS_SHARED | CONTAINS_HOOKS;

    /// The flags of a graph with these facts.
    pub(crate) fn of(contains_objects: bool, contains_references: bool, any_shared: bool, contains_hooks: bool) -> u32 {
        let flag = |set: bool, bit: u32| if set { bit } else { 0 };
        flag(contains_objects, CONTAINS_OBJECTS)
            | flag(contains_references, CONTAINS_REFERENCES)
            | flag(!contains_objects && !contains_references, IMMUTABLE_ELIGIBLE)
            | flag(any_shared, CONTAINS_SHARED)
            | flag(contains_hooks, CONTAINS_HOOKS)
    }
}

/// Tag byte of a value slot.
pub(crate) mod tag {
    pub const UNDEF: u8 = 0;
    pub const NULL: u8 = 1;
    pub const FALSE: u8 = 2;
    pub const TRUE: u8 = 3;
    pub const INT: u8 = 4;
    pub const FLOAT: u8 = 5;
    pub const STRING: u8 = 6;
    pub const ARRAY: u8 = 7;
    pub const OBJECT: u8 = 8;
    pub const REFERENCE: u8 = 9;
    pub const ENUM_CASE: u8 = 10;
}

/// Kind byte of a record in the record section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum RecordKind {
    /// Class name plus declared property names and flags, shared by all objects of one shape.
    Shape = 1,
    EnumCase = 2,
    PackedArray = 3,
    HashArray = 4,
    Object = 5,
    Reference = 6,
}

impl RecordKind {
    pub(crate) fn from_byte(byte: u8) -> Option<Self> {
        Some(match byte {
            1 => RecordKind::Shape,
            2 => RecordKind::EnumCase,
            3 => RecordKind::PackedArray,
            4 => RecordKind::HashArray,
            5 => RecordKind::Object,
            6 => RecordKind::Reference,
            _ => return None,
        })
    }
}

/// Record flag: the node is reachable more than once (the root counts as one incoming edge).
pub(crate) const RECORD_SHARED: u8 = 1;
/// Declared-property flag in a shape.
pub(crate) const PROPERTY_READONLY: u32 = 1;

/// Fixed part of each record kind.
pub(crate) const SHAPE_FIXED_LEN: usize = 16;
pub(crate) const SHAPE_PROPERTY_LEN: usize = 16;
pub(crate) const ENUM_CASE_LEN: usize = 24;
pub(crate) const ARRAY_FIXED_LEN: usize = 32;
pub(crate) const HASH_ENTRY_LEN: usize = 2 * SLOT_LEN;
pub(crate) const OBJECT_FIXED_LEN: usize = 24;
pub(crate) const DYNAMIC_ENTRY_LEN: usize = 2 * SLOT_LEN;
pub(crate) const INTERNAL_STATE_FIXED_LEN: usize = 16;
pub(crate) const REFERENCE_LEN: usize = 8 + SLOT_LEN;
/// String record: hash, length, bytes, NUL, zero padding.
pub(crate) const STRING_FIXED_LEN: usize = 16;

/// `state` byte of an object record.
pub(crate) mod object_state {
    pub const PROPERTIES: u8 = 0;
    pub const PROPERTIES_THEN_WAKEUP: u8 = 1;
    pub const UNSERIALIZE: u8 = 2;
    pub const INTERNAL: u8 = 3;
}

/// Length of a string record holding `len` bytes (NUL terminator and padding included), or `None` if
/// it does not fit in a u64.
pub(crate) fn string_record_len(len: u64) -> Option<u64> {
    let with_nul = len.checked_add(1)?;
    let padded = with_nul.checked_add(ALIGN as u64 - 1)? & !(ALIGN as u64 - 1);
    padded.checked_add(STRING_FIXED_LEN as u64)
}
