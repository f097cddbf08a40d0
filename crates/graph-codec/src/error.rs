//! Typed errors of encoding and decoding.

use std::fmt;

use crate::layout::RecordKind;
use crate::model::{ArrayId, ObjectId, ReferenceId};
use crate::tier::StoreTier;

/// A graph-level rule is broken. Raised by the encoder for a model the binding built wrongly, and by the
/// decoder for bytes that are well-formed record by record but not as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StructureError {
    /// An id points past the end of its arena.
    DanglingArray(ArrayId),
    DanglingObject(ObjectId),
    DanglingReference(ReferenceId),
    /// A reference whose value is itself a reference; PHP never builds that.
    NestedReference(ReferenceId),
    /// An array contains itself with no reference or object in between; PHP never builds that, and a
    /// reader would loop on it.
    ArrayCycle,
    /// An `SplObjectStorage` entry whose key is not an object.
    StorageKeyNotObject(ObjectId),
    /// A hash array holding one key twice; no PHP array does.
    DuplicateKey(ArrayId),
    /// A resource cannot be stored.
    Resource,
    /// Nested deeper than the limit of the tier.
    TooDeep {
        depth: u32,
        limit: u32,
    },
    /// The graph does not fit the tier it is encoded as (for example a `__wakeup` object in a
    /// `SharedGraph`, or an array in a `Scalar`).
    TierMismatch(StoreTier),
    /// More than `u32::MAX` nodes or strings, or an encoded size that does not fit in a u64.
    TooLarge,
    /// The encoding would be longer than the bound the caller set (`GraphWriter::set_limit`): the
    /// largest value its store takes.
    OverLimit {
        limit: usize,
    },
}

impl fmt::Display for StructureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StructureError::DanglingArray(id) => write!(f, "array id {} is out of range", id.0),
            StructureError::DanglingObject(id) => write!(f, "object id {} is out of range", id.0),
            StructureError::DanglingReference(id) => {
                write!(f, "reference id {} is out of range", id.0)
            }
            StructureError::NestedReference(id) => {
                write!(f, "reference {} refers directly to another reference", id.0)
            }
            StructureError::ArrayCycle => f.write_str("an array contains itself without a reference"),
            StructureError::StorageKeyNotObject(id) => {
                write!(f, "SplObjectStorage object {} has a non-object key", id.0)
            }
            StructureError::DuplicateKey(id) => write!(f, "array {} holds a key twice", id.0),
            StructureError::Resource => f.write_str("resources cannot be stored"),
            StructureError::TooDeep { depth, limit } => {
                write!(f, "value is nested {depth} levels deep, the limit is {limit}")
            }
            StructureError::TierMismatch(tier) => {
                write!(f, "the graph cannot be stored as {tier:?}")
            }
            StructureError::TooLarge => f.write_str("the graph is too large to encode"),
            StructureError::OverLimit { limit } => write!(f, "the encoding would be longer than {limit} bytes"),
        }
    }
}

impl std::error::Error for StructureError {}

/// Why a model could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    Structure(StructureError),
    /// The encoder called [`crate::GraphWriter`] out of order (a bug in the encoder, never in the value).
    Misuse(&'static str),
}

impl From<StructureError> for EncodeError {
    fn from(error: StructureError) -> Self {
        EncodeError::Structure(error)
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Structure(error) => error.fmt(f),
            EncodeError::Misuse(what) => write!(f, "graph writer misused: {what}"),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Why a byte buffer is not a valid encoded graph. Offsets are byte positions in the buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The buffer is shorter than the fixed header.
    ShorterThanHeader {
        len: u64,
    },
    BadMagic,
    UnsupportedVersion(u16),
    UnknownTier(u8),
    UnknownFlags(u32),
    /// The header's total length is not the buffer's length.
    LengthMismatch {
        declared: u64,
        actual: u64,
    },
    /// Section offsets and lengths do not tile the buffer.
    BadSections,
    /// A read at `offset` would leave the buffer or the section it must lie in.
    OutOfBounds {
        offset: u64,
    },
    Misaligned {
        offset: u64,
    },
    /// A reserved byte or padding is not zero.
    NonZeroReserved {
        offset: u64,
    },
    UnknownSlotTag {
        offset: u64,
        tag: u8,
    },
    UnknownRecordKind {
        offset: u64,
        kind: u8,
    },
    WrongRecordKind {
        offset: u64,
        expected: RecordKind,
    },
    /// An offset that must name a record (string) does not point at the start of one.
    NotARecordStart {
        offset: u64,
    },
    NotAStringStart {
        offset: u64,
    },
    /// A stored string hash is not the PHP hash of its bytes.
    StringHashMismatch {
        offset: u64,
    },
    MissingNulTerminator {
        offset: u64,
    },
    /// An "undefined" slot where only holes and uninitialized properties may be.
    UndefOutOfPlace {
        offset: u64,
    },
    /// An array key slot that is neither an integer nor a string, or a property name that is not a
    /// string.
    BadKey {
        offset: u64,
    },
    /// A slot kind that is not allowed where it appears (for example a reference in a key).
    UnexpectedSlot {
        offset: u64,
    },
    /// A shape (record at `offset`) that declares one property name twice; PHP never does.
    RepeatedProperty {
        offset: u64,
    },
    /// A count or length that cannot fit in the remaining bytes.
    CountTooLarge {
        offset: u64,
    },
    InvalidInternalState {
        offset: u64,
        reason: &'static str,
    },
    /// A record's "shared" flag disagrees with how often it is reachable.
    SharedFlagMismatch {
        offset: u64,
    },
    /// A header field disagrees with the content.
    HeaderMismatch {
        field: &'static str,
    },
    /// This accessor does not apply to this record (for example a packed slot of a hash array).
    WrongAccessor,
    /// An index past the end of an array, property list or state.
    IndexOutOfRange {
        index: u64,
    },
    Structure(StructureError),
}

impl From<StructureError> for DecodeError {
    fn from(error: StructureError) -> Self {
        DecodeError::Structure(error)
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Structure(error) => write!(f, "invalid graph: {error}"),
            other => write!(f, "invalid encoded graph: {other:?}"),
        }
    }
}

impl std::error::Error for DecodeError {}
