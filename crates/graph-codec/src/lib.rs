//! graph-codec: PHP values as position-independent byte graphs.
//!
//! **For:** turning a PHP value graph — scalars, binary strings, arrays of any shape, PHP references,
//! shared object identity, cycles, enum cases, objects with declared, dynamic, readonly and uninitialized
//! properties, objects restored through serialization hooks, and the internal state of the safe-direct
//! internal classes — into one self-contained byte buffer with relative offsets only, which can be copied
//! to any address and read in place; and back. It also decides which storage tier (spec §6.1) an object
//! needs, from facts about its class.
//!
//! **Not for:** touching PHP. The crate knows nothing of zvals, class entries or the engine: the binding
//! walks zvals and drives a [`GraphWriter`] (running userland hooks itself and handing over their
//! results), and builds zvals back from a [`GraphView`] or a decoded [`Graph`]. Nor does it manage memory:
//! where the bytes live (shared memory, a process-local copy) is the caller's business.
//!
//! The flow on store: one walk over the value calls [`GraphWriter`] (or [`encode`] writes a whole
//! [`Graph`] model), and [`GraphWriter::finish`] returns the bytes. On fetch: [`CheckedGraph::check`]
//! once, then read it by record number (what the binding does), or [`decode`] into the model;
//! [`GraphView`] reads unchecked bytes. Decoding
//! is total: any byte buffer yields a value or a [`DecodeError`], never a panic, an out-of-bounds read, an
//! endless loop or an allocation larger than a constant times the buffer. The layout is drawn byte by byte
//! in `LAYOUT.md`.

#![forbid(unsafe_code)]

mod analysis;
mod decode;
mod encode;
mod error;
mod internal_state;
mod layout;
mod model;
mod php_hash;
mod php_key;
pub mod plain_tree;
pub mod scratch;
pub mod small_graph;
mod tier;
mod view;
mod writer;

pub use decode::{
    decode, validate, CheckedArray, CheckedGraph, CheckedKey, CheckedObject, CheckedShape, CheckedSlot, CheckedString,
    Decoded,
};
pub use encode::{encode, encode_php_serialized};
pub use error::{DecodeError, EncodeError, StructureError};
pub use internal_state::{
    ArrayStorageState, CivilDateTime, DateIntervalState, DateTimeState, DoublyLinkedListState, FixedArrayState,
    HeapState, InternalState, ObjectStorageEntry, ObjectStorageState, PriorityQueueEntry, PriorityQueueState,
    StateFamily, TimeZoneState,
};
pub use layout::{flags, RecordKind, HEADER_LEN, LAYOUT_VERSION, MAGIC, MAX_DEPTH, MAX_DEPTH_PHP_SERIALIZED};
pub use model::{
    ArrayElements, ArrayId, ArrayKey, ArrayNode, Bytes, DeclaredProperty, EnumCase, EnumCaseId, Graph, ObjectId,
    ObjectNode, ObjectState, Properties, ReferenceId, ReferenceNode, ShapeId, StringId, Value,
};
pub use php_hash::zend_string_hash;
pub use php_key::integer_key;
pub use plain_tree::{PlainArray, PlainKey, PlainSlot, PlainTree};
pub use small_graph::{SmallArray, SmallGraph, SmallObject, SmallShape, SmallSlot};
pub use tier::{ClassInfo, ClassKind, ClassRejection, StoreTier, UserlandHooks};
pub use view::{
    ArrayView, DeclaredPropertyView, EnumCaseView, GraphView, Header, KeyView, ObjectStateKind, ObjectView,
    ReferenceView, SlotView, StringView,
};
pub use writer::{EnumCaseRef, FlatArray, GraphWriter, NodeId, NodeKind, ObjectRestore, ShapeRef, Slot, StringRef};
