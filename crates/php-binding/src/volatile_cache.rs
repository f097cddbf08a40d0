//! `OPcache\VolatileCache`: final, static methods only, private constructor (§3). Each method
//! delegates to `cache_ops` with the volatile tier.

use std::ptr;

use crate::cache_ops::{self, cache_method, get_method};
use crate::runtime::Tier;
use crate::signatures::{self as sig, PUBLIC_STATIC};
use crate::zend::{self, method, Methods, StaticTable};

get_method!(get, Tier::Volatile);
cache_method!(get_multiple, cache_ops::get_multiple, Tier::Volatile);
cache_method!(set, cache_ops::set, Tier::Volatile);
cache_method!(set_multiple, cache_ops::set_multiple, Tier::Volatile);
cache_method!(has, cache_ops::has, Tier::Volatile);
cache_method!(delete, cache_ops::delete, Tier::Volatile);
cache_method!(delete_multiple, cache_ops::delete_multiple, Tier::Volatile);
cache_method!(clear, cache_ops::clear, Tier::Volatile);
cache_method!(lock, cache_ops::lock, Tier::Volatile);
cache_method!(unlock, cache_ops::unlock, Tier::Volatile);
cache_method!(get_cache_store_type, cache_ops::get_cache_store_type, Tier::Volatile);
cache_method!(info, cache_ops::info, Tier::Volatile);

static METHODS: Methods<14> = StaticTable([
    method(c"__construct", zend::private_constructor, &sig::PRIVATE_CONSTRUCT, zend::ZEND_ACC_PRIVATE),
    method(c"get", get, &sig::GET, PUBLIC_STATIC),
    method(c"getMultiple", get_multiple, &sig::GET_MULTIPLE, PUBLIC_STATIC),
    method(c"set", set, &sig::SET_WITH_TTL, PUBLIC_STATIC),
    method(c"setMultiple", set_multiple, &sig::SET_MULTIPLE_WITH_TTL, PUBLIC_STATIC),
    method(c"has", has, &sig::HAS, PUBLIC_STATIC),
    method(c"delete", delete, &sig::DELETE, PUBLIC_STATIC),
    method(c"deleteMultiple", delete_multiple, &sig::DELETE_MULTIPLE, PUBLIC_STATIC),
    method(c"clear", clear, &sig::CLEAR, PUBLIC_STATIC),
    method(c"lock", lock, &sig::LOCK, PUBLIC_STATIC),
    method(c"unlock", unlock, &sig::UNLOCK, PUBLIC_STATIC),
    method(c"getCacheStoreType", get_cache_store_type, &sig::GET_CACHE_STORE_TYPE, PUBLIC_STATIC),
    method(c"info", info, &sig::INFO, PUBLIC_STATIC),
    zend::end_of_methods(),
]);

/// # Safety
/// Must run during MINIT, after the enums and `StaticCacheInfo` are registered.
pub unsafe fn register() {
    // SAFETY: MINIT; the method table is a terminated static.
    unsafe {
        zend::register_class(c"OPcache\\VolatileCache", METHODS.as_ptr(), ptr::null_mut(), zend::ZEND_ACC_FINAL);
    }
}
