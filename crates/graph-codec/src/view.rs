//! Bounds-checked reading of an encoded graph in place (for example straight from shared memory).
//!
//! Every accessor checks that what it reads lies inside the buffer and inside the section it belongs to,
//! and that counts fit in the bytes that remain, so any buffer (corrupt ones included) yields values or
//! errors, never an out-of-bounds read or an allocation larger than the buffer. Opening a view checks the
//! header only; [`crate::validate`] checks everything else (record starts, hashes, shared flags, cycles).
//! A reader walking an unvalidated view must still bound its own walk (see `LAYOUT.md`, "Reading").

use std::borrow::Cow;

use crate::error::DecodeError;
use crate::internal_state::{InternalState, StateFamily};
use crate::layout::{
    self, flags, header, object_state, tag, RecordKind, ALIGN, HEADER_LEN, MAX_DEPTH, RECORD_SHARED, SLOT_LEN,
};
use crate::model::Bytes;
use crate::tier::StoreTier;

/// The decoded fixed header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub tier: StoreTier,
    /// Bits of [`crate::flags`].
    pub flags: u32,
    /// Nesting depth (arrays and objects; references add none).
    pub depth: u32,
    pub total_len: u64,
    pub string_count: u32,
    pub record_count: u32,
    pub strings_offset: u64,
    pub strings_len: u64,
    pub records_offset: u64,
    pub records_len: u64,
}

impl Header {
    pub fn contains_objects(&self) -> bool {
        self.flags & flags::CONTAINS_OBJECTS != 0
    }
    pub fn contains_references(&self) -> bool {
        self.flags & flags::CONTAINS_REFERENCES != 0
    }
    /// Only scalars, strings and arrays: eligible to become an immutable array.
    pub fn is_immutable_eligible(&self) -> bool {
        self.flags & flags::IMMUTABLE_ELIGIBLE != 0
    }
    /// Whether any node is reachable twice; if not, the reader needs no identity map.
    pub fn contains_shared(&self) -> bool {
        self.flags & flags::CONTAINS_SHARED != 0
    }
    /// Whether restoring runs userland hooks.
    pub fn contains_hooks(&self) -> bool {
        self.flags & flags::CONTAINS_HOOKS != 0
    }
}

/// An encoded graph, read in place.
#[derive(Clone, Copy, Debug)]
pub struct GraphView<'a> {
    buf: &'a [u8],
    header: Header,
}

/// A value slot, with its target record already located.
#[derive(Clone, Copy, Debug)]
pub enum SlotView<'a> {
    /// A packed-array hole or an uninitialized property; anywhere else it is malformed.
    Undef,
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(StringView<'a>),
    Array(ArrayView<'a>),
    Object(ObjectView<'a>),
    Reference(ReferenceView<'a>),
    EnumCase(EnumCaseView<'a>),
}

/// A stored string with its precomputed PHP hash, if it was stored with one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StringView<'a> {
    /// Offset of the string record; equal offsets are the same string.
    pub offset: u64,
    /// `zend_string::h` as PHP computes it (high bit set), or 0 for a value string stored without it.
    pub hash: u64,
    pub bytes: &'a [u8],
}

/// An array key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyView<'a> {
    Int(i64),
    String(StringView<'a>),
}

/// An array record.
#[derive(Clone, Copy, Debug)]
pub struct ArrayView<'a> {
    graph: GraphView<'a>,
    /// Offset of the record: the identity key for shared arrays.
    pub offset: u64,
    pub is_packed: bool,
    /// Reachable more than once: build it once and share it.
    pub is_shared: bool,
    /// Packed: slots including holes. Hash: entries.
    pub len: u64,
    pub next_free_index: i64,
    /// Packed only: slots that are not holes.
    pub packed_element_count: u64,
}

/// An object record.
#[derive(Clone, Copy, Debug)]
pub struct ObjectView<'a> {
    graph: GraphView<'a>,
    /// Offset of the record: the identity key for shared objects.
    pub offset: u64,
    /// Reachable more than once (or on a cycle through the root): register it before filling it.
    pub is_shared: bool,
    pub state: ObjectStateKind,
    pub declared_len: u32,
    pub dynamic_len: u64,
    shape_offset: u64,
}

/// How an object restores (see [`crate::ObjectState`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectStateKind {
    Properties,
    PropertiesThenWakeup,
    Unserialize,
    Internal,
}

/// One declared property of an object.
#[derive(Clone, Copy, Debug)]
pub struct DeclaredPropertyView<'a> {
    pub mangled_name: StringView<'a>,
    pub readonly: bool,
    /// `Undef` for an uninitialized typed property.
    pub value: SlotView<'a>,
}

/// A PHP reference record.
#[derive(Clone, Copy, Debug)]
pub struct ReferenceView<'a> {
    graph: GraphView<'a>,
    /// Identity key: every slot naming this offset is an alias of the same reference.
    pub offset: u64,
    pub is_shared: bool,
}

/// An enum case record.
#[derive(Clone, Copy, Debug)]
pub struct EnumCaseView<'a> {
    pub offset: u64,
    pub class_name: StringView<'a>,
    pub case_name: StringView<'a>,
}

fn checked_end(offset: u64, len: u64) -> Result<u64, DecodeError> {
    offset.checked_add(len).ok_or(DecodeError::OutOfBounds { offset })
}

/// `fixed + per_item * count` bytes, or an error naming `offset` if that overflows.
pub(crate) fn extent(offset: u64, fixed: usize, per_item: usize, count: u64) -> Result<u64, DecodeError> {
    count
        .checked_mul(per_item as u64)
        .and_then(|n| n.checked_add(fixed as u64))
        .ok_or(DecodeError::CountTooLarge { offset })
}

impl<'a> GraphView<'a> {
    /// Checks the header (magic, version, tier, flags, lengths, section tiling) and nothing else.
    pub fn new(buf: &'a [u8]) -> Result<Self, DecodeError> {
        if buf.len() < HEADER_LEN {
            return Err(DecodeError::ShorterThanHeader { len: buf.len() as u64 });
        }
        let u16_at = |at: usize| u16::from_le_bytes([buf[at], buf[at + 1]]);
        let u32_at = |at: usize| u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]);
        let u64_at = |at: usize| {
            let mut word = [0u8; 8];
            word.copy_from_slice(&buf[at..at + 8]);
            u64::from_le_bytes(word)
        };
        if buf[header::MAGIC..header::MAGIC + 4] != layout::MAGIC {
            return Err(DecodeError::BadMagic);
        }
        let version = u16_at(header::VERSION);
        if version != layout::LAYOUT_VERSION {
            return Err(DecodeError::UnsupportedVersion(version));
        }
        let tier = StoreTier::from_byte(buf[header::TIER]).ok_or(DecodeError::UnknownTier(buf[header::TIER]))?;
        if buf[header::RESERVED] != 0 {
            return Err(DecodeError::NonZeroReserved { offset: header::RESERVED as u64 });
        }
        let header_flags = u32_at(header::FLAGS);
        if header_flags & !flags::ALL != 0 {
            return Err(DecodeError::UnknownFlags(header_flags));
        }
        let header = Header {
            tier,
            flags: header_flags,
            depth: u32_at(header::DEPTH),
            total_len: u64_at(header::TOTAL_LEN),
            string_count: u32_at(header::STRING_COUNT),
            record_count: u32_at(header::RECORD_COUNT),
            strings_offset: u64_at(header::STRINGS_OFFSET),
            strings_len: u64_at(header::STRINGS_LEN),
            records_offset: u64_at(header::RECORDS_OFFSET),
            records_len: u64_at(header::RECORDS_LEN),
        };
        if header.total_len != buf.len() as u64 {
            return Err(DecodeError::LengthMismatch { declared: header.total_len, actual: buf.len() as u64 });
        }
        let tiles = header.strings_offset == HEADER_LEN as u64
            && header.strings_offset.checked_add(header.strings_len) == Some(header.records_offset)
            && header.records_offset.checked_add(header.records_len) == Some(header.total_len)
            && header.strings_len.is_multiple_of(ALIGN as u64)
            && header.records_len.is_multiple_of(ALIGN as u64);
        if !tiles {
            return Err(DecodeError::BadSections);
        }
        // Every string record is at least 24 bytes and every record at least 16, so counts beyond that
        // are corrupt; this also bounds what a reader preallocates from them.
        if u64::from(header.string_count) * 24 > header.strings_len
            || u64::from(header.record_count) * 16 > header.records_len
        {
            return Err(DecodeError::HeaderMismatch { field: "counts" });
        }
        if header.depth > MAX_DEPTH {
            return Err(DecodeError::HeaderMismatch { field: "depth" });
        }
        if tier == StoreTier::PHPSerialized
            && (header.flags != 0 || header.records_len != 0 || header.string_count != 1 || header.depth != 0)
        {
            return Err(DecodeError::HeaderMismatch { field: "PHPSerialized container" });
        }
        Ok(GraphView { buf, header })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn tier(&self) -> StoreTier {
        self.header.tier
    }

    /// The whole encoded buffer.
    pub fn bytes(&self) -> &'a [u8] {
        self.buf
    }

    /// The root value.
    pub fn root(&self) -> Result<SlotView<'a>, DecodeError> {
        self.slot_at(header::ROOT_SLOT as u64)
    }

    /// The bytes of PHP's `serialize()` held by a `PHPSerialized` container.
    pub fn php_serialized_bytes(&self) -> Result<&'a [u8], DecodeError> {
        if self.header.tier != StoreTier::PHPSerialized {
            return Err(DecodeError::WrongAccessor);
        }
        match self.root()? {
            SlotView::String(string) => Ok(string.bytes),
            _ => Err(DecodeError::UnexpectedSlot { offset: header::ROOT_SLOT as u64 }),
        }
    }

    fn bytes_at(&self, offset: u64, len: u64) -> Result<&'a [u8], DecodeError> {
        let end = checked_end(offset, len)?;
        let range = usize::try_from(offset).ok().zip(usize::try_from(end).ok());
        range.and_then(|(start, end)| self.buf.get(start..end)).ok_or(DecodeError::OutOfBounds { offset })
    }

    pub(crate) fn u8_at(&self, offset: u64) -> Result<u8, DecodeError> {
        Ok(self.bytes_at(offset, 1)?[0])
    }

    pub(crate) fn u32_at(&self, offset: u64) -> Result<u32, DecodeError> {
        let bytes = self.bytes_at(offset, 4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    pub(crate) fn u64_at(&self, offset: u64) -> Result<u64, DecodeError> {
        let mut word = [0u8; 8];
        word.copy_from_slice(self.bytes_at(offset, 8)?);
        Ok(u64::from_le_bytes(word))
    }

    fn zero_at(&self, offset: u64, len: u64) -> Result<(), DecodeError> {
        let bytes = self.bytes_at(offset, len)?;
        match bytes.iter().position(|&b| b != 0) {
            None => Ok(()),
            Some(position) => Err(DecodeError::NonZeroReserved { offset: offset + position as u64 }),
        }
    }

    /// Checks that `[offset, offset + len)` lies inside the record section and `offset` is aligned.
    pub(crate) fn check_in_records(&self, offset: u64, len: u64) -> Result<(), DecodeError> {
        let start = self.header.records_offset;
        let end = start + self.header.records_len;
        if !offset.is_multiple_of(ALIGN as u64) {
            return Err(DecodeError::Misaligned { offset });
        }
        if offset < start || checked_end(offset, len)? > end {
            return Err(DecodeError::OutOfBounds { offset });
        }
        Ok(())
    }

    /// Reads a record's 8-byte header, checking its kind and that `len` bytes fit from `offset`.
    /// Returns (flags, sub byte, count).
    fn record_header(&self, offset: u64, expected: RecordKind, min_len: u64) -> Result<(u8, u8, u32), DecodeError> {
        self.check_in_records(offset, min_len)?;
        let kind = self.u8_at(offset)?;
        if kind != expected as u8 {
            return Err(match RecordKind::from_byte(kind) {
                Some(_) => DecodeError::WrongRecordKind { offset, expected },
                None => DecodeError::UnknownRecordKind { offset, kind },
            });
        }
        let flags = self.u8_at(offset + 1)?;
        let allowed = match expected {
            RecordKind::PackedArray | RecordKind::HashArray | RecordKind::Object | RecordKind::Reference => {
                RECORD_SHARED
            }
            RecordKind::Shape | RecordKind::EnumCase => 0,
        };
        if flags & !allowed != 0 {
            return Err(DecodeError::NonZeroReserved { offset: offset + 1 });
        }
        self.zero_at(offset + 3, 1)?;
        Ok((flags, self.u8_at(offset + 2)?, self.u32_at(offset + 4)?))
    }

    /// The string record at `offset` (not checked against the stored hash; [`crate::validate`] does).
    pub fn string_at(&self, offset: u64) -> Result<StringView<'a>, DecodeError> {
        let start = self.header.strings_offset;
        let end = start + self.header.strings_len;
        if !offset.is_multiple_of(ALIGN as u64) {
            return Err(DecodeError::Misaligned { offset });
        }
        if offset < start || checked_end(offset, layout::STRING_FIXED_LEN as u64)? > end {
            return Err(DecodeError::OutOfBounds { offset });
        }
        let hash = self.u64_at(offset)?;
        let len = self.u64_at(offset + 8)?;
        let record_len = layout::string_record_len(len).ok_or(DecodeError::CountTooLarge { offset })?;
        if checked_end(offset, record_len)? > end {
            return Err(DecodeError::CountTooLarge { offset });
        }
        Ok(StringView { offset, hash, bytes: self.bytes_at(offset + layout::STRING_FIXED_LEN as u64, len)? })
    }

    /// The string record at `offset` and its length, with a check of its terminator, padding and
    /// stored hash.
    pub(crate) fn string_record_checked(&self, offset: u64) -> Result<(StringView<'a>, u64), DecodeError> {
        let string = self.string_at(offset)?;
        let record_len =
            layout::string_record_len(string.bytes.len() as u64).ok_or(DecodeError::CountTooLarge { offset })?;
        let tail = offset + layout::STRING_FIXED_LEN as u64 + string.bytes.len() as u64;
        if self.u8_at(tail)? != 0 {
            return Err(DecodeError::MissingNulTerminator { offset });
        }
        self.zero_at(tail, offset + record_len - tail)?;
        // 0: stored without its hash (a value string; readers compute it).
        if string.hash != 0 && crate::php_hash::zend_string_hash(string.bytes) != string.hash {
            return Err(DecodeError::StringHashMismatch { offset });
        }
        Ok((string, record_len))
    }

    /// The tag and payload of the value slot at `offset`, its reserved bytes checked; the target is
    /// not looked at.
    pub(crate) fn slot_word(&self, offset: u64) -> Result<(u8, u64), DecodeError> {
        let bytes = self.bytes_at(offset, SLOT_LEN as u64)?;
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[..8]);
        let head = u64::from_le_bytes(word);
        if head >> 8 != 0 {
            return Err(DecodeError::NonZeroReserved { offset: offset + 1 });
        }
        word.copy_from_slice(&bytes[8..16]);
        Ok((head as u8, u64::from_le_bytes(word)))
    }

    /// Reads the value slot at `offset` and locates its target.
    pub fn slot_at(&self, offset: u64) -> Result<SlotView<'a>, DecodeError> {
        let (tag, payload) = self.slot_word(offset)?;
        Ok(match tag {
            tag::UNDEF if payload == 0 => SlotView::Undef,
            tag::NULL if payload == 0 => SlotView::Null,
            tag::FALSE if payload == 0 => SlotView::Bool(false),
            tag::TRUE if payload == 0 => SlotView::Bool(true),
            tag::UNDEF | tag::NULL | tag::FALSE | tag::TRUE => {
                return Err(DecodeError::NonZeroReserved { offset: offset + 8 })
            }
            tag::INT => SlotView::Int(payload as i64),
            tag::FLOAT => SlotView::Float(f64::from_bits(payload)),
            tag::STRING => SlotView::String(self.string_at(payload)?),
            tag::ARRAY => SlotView::Array(self.array_at(payload)?),
            tag::OBJECT => SlotView::Object(self.object_at(payload)?),
            tag::REFERENCE => SlotView::Reference(self.reference_at(payload)?),
            tag::ENUM_CASE => SlotView::EnumCase(self.enum_case_at(payload)?),
            other => return Err(DecodeError::UnknownSlotTag { offset, tag: other }),
        })
    }

    /// The array record at `offset`. Its fixed part is read once, bounds-checked as a whole, and its
    /// fields are checked in the order [`GraphView::record_header`] checks a record's.
    pub fn array_at(&self, offset: u64) -> Result<ArrayView<'a>, DecodeError> {
        self.check_in_records(offset, layout::ARRAY_FIXED_LEN as u64)?;
        let head = self.bytes_at(offset, layout::ARRAY_FIXED_LEN as u64)?;
        let byte = |at: usize| head.get(at).copied().unwrap_or(0);
        let word =
            |at: usize| head.get(at..at + 8).and_then(|b| <[u8; 8]>::try_from(b).ok()).map_or(0, u64::from_le_bytes);
        let is_packed = match byte(0) {
            kind if kind == RecordKind::PackedArray as u8 => true,
            kind if kind == RecordKind::HashArray as u8 => false,
            kind => {
                return Err(match RecordKind::from_byte(kind) {
                    Some(_) => DecodeError::WrongRecordKind { offset, expected: RecordKind::PackedArray },
                    None => DecodeError::UnknownRecordKind { offset, kind },
                })
            }
        };
        let flags = byte(1);
        if flags & !RECORD_SHARED != 0 {
            return Err(DecodeError::NonZeroReserved { offset: offset + 1 });
        }
        if byte(3) != 0 {
            return Err(DecodeError::NonZeroReserved { offset: offset + 3 });
        }
        // The sub byte and the count word (bytes 2 and 4..8) are reserved in an array record.
        if byte(2) != 0 || word(0) >> 32 != 0 {
            return Err(DecodeError::NonZeroReserved { offset: offset + 2 });
        }
        let len = word(8);
        let per_item = if is_packed { SLOT_LEN } else { layout::HASH_ENTRY_LEN };
        self.check_in_records(offset, extent(offset, layout::ARRAY_FIXED_LEN, per_item, len)?)
            .map_err(|_| DecodeError::CountTooLarge { offset })?;
        let packed_element_count = word(24);
        if packed_element_count > len || (!is_packed && packed_element_count != 0) {
            return Err(DecodeError::CountTooLarge { offset: offset + 24 });
        }
        Ok(ArrayView {
            graph: *self,
            offset,
            is_packed,
            is_shared: flags & RECORD_SHARED != 0,
            len,
            next_free_index: word(16) as i64,
            packed_element_count,
        })
    }

    /// The object record at `offset`.
    pub fn object_at(&self, offset: u64) -> Result<ObjectView<'a>, DecodeError> {
        let (flags, state, declared_len) =
            self.record_header(offset, RecordKind::Object, layout::OBJECT_FIXED_LEN as u64)?;
        let state = match state {
            object_state::PROPERTIES => ObjectStateKind::Properties,
            object_state::PROPERTIES_THEN_WAKEUP => ObjectStateKind::PropertiesThenWakeup,
            object_state::UNSERIALIZE => ObjectStateKind::Unserialize,
            object_state::INTERNAL => ObjectStateKind::Internal,
            _ => return Err(DecodeError::NonZeroReserved { offset: offset + 2 }),
        };
        let shape_offset = self.u64_at(offset + 8)?;
        let dynamic_len = self.u64_at(offset + 16)?;
        let object = ObjectView {
            graph: *self,
            offset,
            is_shared: flags & RECORD_SHARED != 0,
            state,
            declared_len,
            dynamic_len,
            shape_offset,
        };
        let (_, shape_len) = self.shape_at(shape_offset)?;
        if shape_len != declared_len {
            return Err(DecodeError::HeaderMismatch { field: "object declared count differs from its shape" });
        }
        if (state == ObjectStateKind::Unserialize) && (declared_len != 0 || dynamic_len != 0) {
            return Err(DecodeError::CountTooLarge { offset });
        }
        self.check_in_records(offset, object.record_len()?).map_err(|_| DecodeError::CountTooLarge { offset })?;
        Ok(object)
    }

    /// A shape record: (class name offset, declared property count).
    fn shape_at(&self, offset: u64) -> Result<(u64, u32), DecodeError> {
        let (_, sub, count) = self.record_header(offset, RecordKind::Shape, layout::SHAPE_FIXED_LEN as u64)?;
        if sub != 0 {
            return Err(DecodeError::NonZeroReserved { offset: offset + 2 });
        }
        self.check_in_records(
            offset,
            extent(offset, layout::SHAPE_FIXED_LEN, layout::SHAPE_PROPERTY_LEN, u64::from(count))?,
        )
        .map_err(|_| DecodeError::CountTooLarge { offset })?;
        Ok((self.u64_at(offset + 8)?, count))
    }

    /// The reference record at `offset`.
    pub fn reference_at(&self, offset: u64) -> Result<ReferenceView<'a>, DecodeError> {
        let (flags, sub, count) = self.record_header(offset, RecordKind::Reference, layout::REFERENCE_LEN as u64)?;
        if sub != 0 || count != 0 {
            return Err(DecodeError::NonZeroReserved { offset: offset + 2 });
        }
        Ok(ReferenceView { graph: *self, offset, is_shared: flags & RECORD_SHARED != 0 })
    }

    /// The enum case record at `offset`.
    pub fn enum_case_at(&self, offset: u64) -> Result<EnumCaseView<'a>, DecodeError> {
        let (_, sub, count) = self.record_header(offset, RecordKind::EnumCase, layout::ENUM_CASE_LEN as u64)?;
        if sub != 0 || count != 0 {
            return Err(DecodeError::NonZeroReserved { offset: offset + 2 });
        }
        Ok(EnumCaseView {
            offset,
            class_name: self.string_at(self.u64_at(offset + 8)?)?,
            case_name: self.string_at(self.u64_at(offset + 16)?)?,
        })
    }

    /// Length of the record at `offset`, whatever its kind (used by the validating scan).
    pub(crate) fn record_len_at(&self, offset: u64) -> Result<(RecordKind, u64), DecodeError> {
        let kind_byte = self.u8_at(offset)?;
        let kind =
            RecordKind::from_byte(kind_byte).ok_or(DecodeError::UnknownRecordKind { offset, kind: kind_byte })?;
        let len = match kind {
            RecordKind::Shape => {
                let count = self.u32_at(offset + 4)?;
                extent(offset, layout::SHAPE_FIXED_LEN, layout::SHAPE_PROPERTY_LEN, u64::from(count))?
            }
            RecordKind::EnumCase => layout::ENUM_CASE_LEN as u64,
            RecordKind::PackedArray => extent(offset, layout::ARRAY_FIXED_LEN, SLOT_LEN, self.u64_at(offset + 8)?)?,
            RecordKind::HashArray => {
                extent(offset, layout::ARRAY_FIXED_LEN, layout::HASH_ENTRY_LEN, self.u64_at(offset + 8)?)?
            }
            RecordKind::Object => self.object_at(offset)?.record_len()?,
            RecordKind::Reference => layout::REFERENCE_LEN as u64,
        };
        Ok((kind, len))
    }
}

impl<'a> ArrayView<'a> {
    /// Offset of slot `index` of a packed array.
    pub(crate) fn packed_slot_offset(&self, index: u64) -> Result<u64, DecodeError> {
        if !self.is_packed {
            return Err(DecodeError::WrongAccessor);
        }
        if index >= self.len {
            return Err(DecodeError::IndexOutOfRange { index });
        }
        Ok(self.offset + layout::ARRAY_FIXED_LEN as u64 + index * SLOT_LEN as u64)
    }

    /// Offset of entry `index` of a hash array: its key slot, then its value slot.
    pub(crate) fn hash_entry_offset(&self, index: u64) -> Result<u64, DecodeError> {
        if self.is_packed {
            return Err(DecodeError::WrongAccessor);
        }
        if index >= self.len {
            return Err(DecodeError::IndexOutOfRange { index });
        }
        Ok(self.offset + layout::ARRAY_FIXED_LEN as u64 + index * layout::HASH_ENTRY_LEN as u64)
    }

    /// Slot `index` of a packed array (`Undef` is a hole).
    pub fn packed_slot(&self, index: u64) -> Result<SlotView<'a>, DecodeError> {
        self.graph.slot_at(self.packed_slot_offset(index)?)
    }

    /// Entry `index` of a hash array, in insertion order.
    pub fn hash_entry(&self, index: u64) -> Result<(KeyView<'a>, SlotView<'a>), DecodeError> {
        let at = self.hash_entry_offset(index)?;
        let key = match self.graph.slot_at(at)? {
            SlotView::Int(i) => KeyView::Int(i),
            SlotView::String(s) => KeyView::String(s),
            _ => return Err(DecodeError::BadKey { offset: at }),
        };
        Ok((key, self.graph.slot_at(at + SLOT_LEN as u64)?))
    }
}

impl<'a> ObjectView<'a> {
    pub fn class_name(&self) -> Result<StringView<'a>, DecodeError> {
        let (class_name, _) = self.graph.shape_at(self.shape_offset)?;
        self.graph.string_at(class_name)
    }

    /// Offset of the shape record: objects with equal shape offsets have the same class and declared
    /// property names, so a reader can resolve property slots once per shape.
    pub fn shape_offset(&self) -> u64 {
        self.shape_offset
    }

    /// Declared property `index`, in slot order.
    pub fn declared(&self, index: u32) -> Result<DeclaredPropertyView<'a>, DecodeError> {
        if index >= self.declared_len {
            return Err(DecodeError::IndexOutOfRange { index: u64::from(index) });
        }
        let property = self.shape_offset + layout::SHAPE_FIXED_LEN as u64 + u64::from(index) * 16;
        let property_flags = self.graph.u32_at(property + 8)?;
        if property_flags & !layout::PROPERTY_READONLY != 0 {
            return Err(DecodeError::NonZeroReserved { offset: property + 8 });
        }
        self.graph.zero_at(property + 12, 4)?;
        Ok(DeclaredPropertyView {
            mangled_name: self.graph.string_at(self.graph.u64_at(property)?)?,
            readonly: property_flags & layout::PROPERTY_READONLY != 0,
            value: self
                .graph
                .slot_at(self.offset + layout::OBJECT_FIXED_LEN as u64 + u64::from(index) * SLOT_LEN as u64)?,
        })
    }

    /// Offset of the value slot of declared property `index`.
    pub(crate) fn declared_offset(&self, index: u32) -> Result<u64, DecodeError> {
        if index >= self.declared_len {
            return Err(DecodeError::IndexOutOfRange { index: u64::from(index) });
        }
        Ok(self.offset + layout::OBJECT_FIXED_LEN as u64 + u64::from(index) * SLOT_LEN as u64)
    }

    /// The value of declared property `index` alone (its name and flags are in the shape).
    pub fn declared_value(&self, index: u32) -> Result<SlotView<'a>, DecodeError> {
        self.graph.slot_at(self.declared_offset(index)?)
    }

    fn dynamic_start(&self) -> u64 {
        self.offset + layout::OBJECT_FIXED_LEN as u64 + u64::from(self.declared_len) * SLOT_LEN as u64
    }

    fn tail_start(&self) -> u64 {
        self.dynamic_start() + self.dynamic_len * layout::DYNAMIC_ENTRY_LEN as u64
    }

    /// Offset of dynamic property `index`: its name slot, then its value slot.
    pub(crate) fn dynamic_offset(&self, index: u64) -> Result<u64, DecodeError> {
        if index >= self.dynamic_len {
            return Err(DecodeError::IndexOutOfRange { index });
        }
        Ok(self.dynamic_start() + index * layout::DYNAMIC_ENTRY_LEN as u64)
    }

    /// Dynamic property `index`, in insertion order.
    pub fn dynamic(&self, index: u64) -> Result<(StringView<'a>, SlotView<'a>), DecodeError> {
        let at = self.dynamic_offset(index)?;
        let SlotView::String(name) = self.graph.slot_at(at)? else {
            return Err(DecodeError::BadKey { offset: at });
        };
        Ok((name, self.graph.slot_at(at + SLOT_LEN as u64)?))
    }

    /// The array `__serialize()` returned, for `Unserialize` objects.
    pub fn unserialize_data(&self) -> Result<ArrayView<'a>, DecodeError> {
        if self.state != ObjectStateKind::Unserialize {
            return Err(DecodeError::WrongAccessor);
        }
        match self.graph.slot_at(self.tail_start())? {
            SlotView::Array(array) => Ok(array),
            _ => Err(DecodeError::UnexpectedSlot { offset: self.tail_start() }),
        }
    }

    /// The internal state of a safe-direct object, its values as slots.
    pub fn internal_state(&self) -> Result<InternalState<'a, SlotView<'a>>, DecodeError> {
        let graph = self.graph;
        self.internal_state_resolving(&mut |offset| graph.string_at(offset).map(|s| Cow::Borrowed(s.bytes)))
    }

    pub(crate) fn internal_state_resolving(
        &self,
        string_at: &mut dyn FnMut(u64) -> Result<Bytes<'a>, DecodeError>,
    ) -> Result<InternalState<'a, SlotView<'a>>, DecodeError> {
        if self.state != ObjectStateKind::Internal {
            return Err(DecodeError::WrongAccessor);
        }
        let at = self.tail_start();
        let (family, word_count, value_count) = self.internal_state_header(at)?;
        let words = (0..u64::from(word_count))
            .map(|i| self.graph.u64_at(at + layout::INTERNAL_STATE_FIXED_LEN as u64 + i * 8))
            .collect::<Result<Vec<u64>, _>>()?;
        let values_start = at + layout::INTERNAL_STATE_FIXED_LEN as u64 + u64::from(word_count) * 8;
        let values = (0..value_count)
            .map(|i| match self.graph.slot_at(values_start + i * SLOT_LEN as u64)? {
                SlotView::Undef => Err(DecodeError::UndefOutOfPlace { offset: values_start + i * SLOT_LEN as u64 }),
                slot => Ok(slot),
            })
            .collect::<Result<Vec<_>, _>>()?;
        InternalState::from_parts(family, &words, values, string_at, at)
    }

    /// (family, word count, value count) of the internal-state block at `at`, with the counts checked
    /// against the record section.
    fn internal_state_header(&self, at: u64) -> Result<(StateFamily, u32, u64), DecodeError> {
        let family_byte = self.graph.u8_at(at)?;
        let family = StateFamily::from_byte(family_byte)
            .ok_or(DecodeError::InvalidInternalState { offset: at, reason: "unknown state family" })?;
        self.graph.zero_at(at + 1, 3)?;
        let word_count = self.graph.u32_at(at + 4)?;
        if word_count as usize != family.word_count() {
            return Err(DecodeError::InvalidInternalState { offset: at, reason: "wrong word count" });
        }
        let value_count = self.graph.u64_at(at + 8)?;
        let len = extent(at, layout::INTERNAL_STATE_FIXED_LEN + word_count as usize * 8, SLOT_LEN, value_count)?;
        self.graph.check_in_records(at, len).map_err(|_| DecodeError::CountTooLarge { offset: at })?;
        Ok((family, word_count, value_count))
    }

    /// Length of the whole object record, tail included.
    pub(crate) fn record_len(&self) -> Result<u64, DecodeError> {
        let before_tail = extent(self.offset, layout::OBJECT_FIXED_LEN, SLOT_LEN, u64::from(self.declared_len))?
            .checked_add(extent(self.offset, 0, layout::DYNAMIC_ENTRY_LEN, self.dynamic_len)?)
            .ok_or(DecodeError::CountTooLarge { offset: self.offset })?;
        let tail = match self.state {
            ObjectStateKind::Properties | ObjectStateKind::PropertiesThenWakeup => 0,
            ObjectStateKind::Unserialize => SLOT_LEN as u64,
            ObjectStateKind::Internal => {
                let at = checked_end(self.offset, before_tail)?;
                self.graph
                    .check_in_records(at, layout::INTERNAL_STATE_FIXED_LEN as u64)
                    .map_err(|_| DecodeError::CountTooLarge { offset: self.offset })?;
                let (_, word_count, value_count) = self.internal_state_header(at)?;
                extent(at, layout::INTERNAL_STATE_FIXED_LEN + word_count as usize * 8, SLOT_LEN, value_count)?
            }
        };
        before_tail.checked_add(tail).ok_or(DecodeError::CountTooLarge { offset: self.offset })
    }
}

impl<'a> ReferenceView<'a> {
    /// The referenced value.
    pub fn value(&self) -> Result<SlotView<'a>, DecodeError> {
        self.graph.slot_at(self.offset + 8)
    }
}
