//! Hand-built arg-info tables of the cache classes (§3.1): union types need `type_mask`, which
//! ext-php-rs's `Arg` cannot express. Reflection reads these exactly.

use crate::zend::{self, param, returns, returns_object, ArgInfos, StaticTable};
use crate::zend::{MAY_BE_ARRAY, MAY_BE_BOOL, MAY_BE_FALSE, MAY_BE_LONG, MAY_BE_NULL, MAY_BE_STRING, MAY_BE_VALUE};

const KEY: ext_php_rs::ffi::zend_internal_arg_info = param(c"key", MAY_BE_STRING, None);

pub static PRIVATE_CONSTRUCT: ArgInfos<1> = StaticTable([returns(0, 0)]);

pub static GET: ArgInfos<3> =
    StaticTable([returns(1, MAY_BE_VALUE), KEY, param(c"default", MAY_BE_VALUE, Some(c"null"))]);

pub static GET_MULTIPLE: ArgInfos<3> = StaticTable([
    returns(1, MAY_BE_ARRAY | MAY_BE_FALSE),
    param(c"keys", MAY_BE_ARRAY, None),
    param(c"default", MAY_BE_ARRAY | MAY_BE_NULL, Some(c"null")),
]);

pub static SET_WITH_TTL: ArgInfos<4> = StaticTable([
    returns(2, MAY_BE_BOOL),
    KEY,
    param(c"value", MAY_BE_VALUE, None),
    param(c"ttl", MAY_BE_LONG, Some(c"0")),
]);

pub static SET: ArgInfos<3> = StaticTable([returns(2, MAY_BE_BOOL), KEY, param(c"value", MAY_BE_VALUE, None)]);

pub static SET_MULTIPLE_WITH_TTL: ArgInfos<3> = StaticTable([
    returns(1, MAY_BE_BOOL),
    param(c"values", MAY_BE_ARRAY, None),
    param(c"ttl", MAY_BE_LONG, Some(c"0")),
]);

pub static SET_MULTIPLE: ArgInfos<2> = StaticTable([returns(1, MAY_BE_BOOL), param(c"values", MAY_BE_ARRAY, None)]);

pub static HAS: ArgInfos<2> = StaticTable([returns(1, MAY_BE_BOOL), KEY]);

pub static DELETE: ArgInfos<2> = StaticTable([returns(1, MAY_BE_BOOL), param(c"key_or_class", MAY_BE_STRING, None)]);

pub static DELETE_MULTIPLE: ArgInfos<2> = StaticTable([returns(1, MAY_BE_BOOL), param(c"keys", MAY_BE_ARRAY, None)]);

pub static CLEAR: ArgInfos<1> = StaticTable([returns(0, MAY_BE_BOOL)]);

pub static LOCK: ArgInfos<3> = StaticTable([returns(1, MAY_BE_BOOL), KEY, param(c"lease", MAY_BE_LONG, Some(c"0"))]);

pub static UNLOCK: ArgInfos<2> = StaticTable([returns(1, MAY_BE_BOOL), KEY]);

pub static COUNTER: ArgInfos<3> =
    StaticTable([returns(1, MAY_BE_LONG | MAY_BE_FALSE), KEY, param(c"step", MAY_BE_LONG, Some(c"1"))]);

pub static GET_CACHE_STORE_TYPE: ArgInfos<3> = StaticTable([
    returns_object(1, c"OPcache\\CacheStoreType"),
    param(c"key_or_property", MAY_BE_STRING, None),
    param(c"class_name", MAY_BE_STRING | MAY_BE_NULL, Some(c"null")),
]);

pub static INFO: ArgInfos<1> = StaticTable([returns_object(0, c"OPcache\\StaticCacheInfo")]);

/// Flags of the API's methods.
pub const PUBLIC_STATIC: u32 = zend::ZEND_ACC_PUBLIC | zend::ZEND_ACC_STATIC;
