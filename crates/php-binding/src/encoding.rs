//! The stored form of a value: an shm-core entry tag plus bytes. This is the interim encoding used
//! until graph-codec lands (scalars as their own tags, arrays and objects through `serialize()`,
//! tagged with the §6.1 tier the value qualifies for); graph-codec replaces this module together
//! with `zval_in` and `zval_out`.

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
/// `serialize()` output of a value whose graph qualifies for the named tier.
pub const TAG_SERIALIZED_SHARED_GRAPH: u16 = 16;
pub const TAG_SERIALIZED_OPCACHE: u16 = 17;
pub const TAG_SERIALIZED_PHP: u16 = 18;

pub fn store_type(tag: u16) -> Option<StoreType> {
    match tag {
        TAG_INT | TAG_NULL | TAG_FALSE | TAG_TRUE | TAG_DOUBLE | TAG_STRING => Some(StoreType::Scalar),
        TAG_SERIALIZED_SHARED_GRAPH => Some(StoreType::SharedGraph),
        TAG_SERIALIZED_OPCACHE => Some(StoreType::OpcacheSerialized),
        TAG_SERIALIZED_PHP => Some(StoreType::PhpSerialized),
        _ => None,
    }
}

pub fn serialized_tag(tier: StoreType) -> u16 {
    match tier {
        StoreType::Scalar | StoreType::SharedGraph => TAG_SERIALIZED_SHARED_GRAPH,
        StoreType::OpcacheSerialized => TAG_SERIALIZED_OPCACHE,
        StoreType::PhpSerialized => TAG_SERIALIZED_PHP,
    }
}

/// One encoded value, ready for `Backend::store`.
pub struct Encoded {
    pub tag: u16,
    pub bytes: Vec<u8>,
}
