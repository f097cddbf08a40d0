//! shm-core: the shared-memory arena behind static_cache, and nothing PHP-specific.
//!
//! A [`Segment`] (anonymous or named) holds partitions; a [`Partition`] is a volatile and a pinned
//! [`Backend`]; a backend is a key/value store with an offset-based allocator, a chained hash index with
//! lock-free readers, epoch-based reclamation, TTL, CLOCK eviction, a crash-safe write lock with an undo
//! journal, per-key reservations and atomic counters. Values are opaque bytes with a 16-bit tag chosen by
//! the caller ([`TAG_INT`] is the integer tag counters use). A named segment is this user's private
//! object or nothing ([`named`]); [`presence`] locks tell whether any process of a scope is still
//! alive. Not here: PHP values (graph-codec) and PHP glue (php-binding).
//!
//! The modules are private: everything that touches shared memory directly stays inside the crate,
//! behind the API re-exported here. `named` and `presence` stay public: the FPM glue manages object
//! names and presence locks through them, and neither touches a backend's memory.

mod allocator;
mod backend;
mod clock;
mod compaction;
mod entry;
mod eviction;
mod index;
mod integer;
mod journal;
mod lock;
pub mod named;
pub mod presence;
mod process;
mod reclaim;
mod region;
mod reservation;
mod segment;
mod staging;

pub use backend::{
    Backend, BackendKind, BackendStats, CounterError, CounterUpdate, EntryRef, StoreError, VerifyReport, TAG_INT,
};
pub use clock::{Clock, ManualClock, MonotonicClock};
pub use index::EntryInfo;
pub use presence::{PresenceLock, Vacancy};
pub use process::ProcStat;
pub use reservation::RequestId;
pub use segment::{Partition, PartitionSpec, Segment, SegmentError, SharedModel};
#[cfg(test)]
mod backend_tests;
#[cfg(test)]
mod pressure_tests;
