//! The stored form of a value: an shm-core entry tag plus bytes. Top-level scalars keep tags of their
//! own (counters work on `TAG_INT` in place); arrays, objects and enum cases are graph-codec buffers,
//! tagged with their §6.1 tier so `getCacheStoreType()` reads the tier from the entry alone. The tier
//! is also in the buffer's header; the decoder checks that both agree.

use graph_codec::StoreTier;

/// The `getCacheStoreType()` tier of a stored value (§6.1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum StoreType {
    Scalar,
    SharedGraph,
    OpcacheSerialized,
    PhpSerialized,
}

/// 8-byte little-endian i64; shared with shm-core's counters.
pub const TAG_INT: u16 = shm_core::TAG_INT;
pub const TAG_NULL: u16 = 2;
pub const TAG_FALSE: u16 = 3;
pub const TAG_TRUE: u16 = 4;
/// 8-byte little-endian IEEE-754 bits (bit-exact: -0.0, NAN payloads).
pub const TAG_DOUBLE: u16 = 5;
pub const TAG_STRING: u16 = 6;
/// A graph-codec buffer whose header names the same tier.
pub const TAG_SHARED_GRAPH: u16 = 16;
pub const TAG_OPCACHE_SERIALIZED: u16 = 17;
/// A graph-codec `PHPSerialized` container holding the bytes of PHP's `serialize()`.
pub const TAG_PHP_SERIALIZED: u16 = 18;

pub fn store_type(tag: u16) -> Option<StoreType> {
    match tag {
        TAG_INT | TAG_NULL | TAG_FALSE | TAG_TRUE | TAG_DOUBLE | TAG_STRING => Some(StoreType::Scalar),
        TAG_SHARED_GRAPH => Some(StoreType::SharedGraph),
        TAG_OPCACHE_SERIALIZED => Some(StoreType::OpcacheSerialized),
        TAG_PHP_SERIALIZED => Some(StoreType::PhpSerialized),
        _ => None,
    }
}

/// The tag of a graph-codec buffer encoded as `tier` (graphs are never `Scalar`: their root is an
/// array, an object or an enum case, which classify as `SharedGraph` at least).
pub fn graph_tag(tier: StoreTier) -> u16 {
    match tier {
        StoreTier::Scalar | StoreTier::SharedGraph => TAG_SHARED_GRAPH,
        StoreTier::OPcacheSerialized => TAG_OPCACHE_SERIALIZED,
        StoreTier::PHPSerialized => TAG_PHP_SERIALIZED,
    }
}

/// The tier a graph-codec buffer stored under `tag` must carry in its header.
pub fn graph_tier(tag: u16) -> Option<StoreTier> {
    match tag {
        TAG_SHARED_GRAPH => Some(StoreTier::SharedGraph),
        TAG_OPCACHE_SERIALIZED => Some(StoreTier::OPcacheSerialized),
        TAG_PHP_SERIALIZED => Some(StoreTier::PHPSerialized),
        _ => None,
    }
}

/// One encoded value, ready for `Backend::store`.
pub struct Encoded {
    pub tag: u16,
    pub bytes: Vec<u8>,
}
