//! `OPcache\PinnedCache`: final, static methods only, private constructor (§3). Each method
//! delegates to `cache_ops` with the pinned tier, plus the atomic counters (§11).

use std::ptr;

use crate::cache_ops::{self, cache_method, get_method};
use crate::runtime::Tier;
use crate::signatures::{self as sig, PUBLIC_STATIC};
use crate::zend::{self, method, Methods, StaticTable};

cache_method!(set, cache_ops::set, Tier::Pinned);
cache_method!(increment, cache_ops::increment, Tier::Pinned);
cache_method!(decrement, cache_ops::decrement, Tier::Pinned);
get_method!(get, Tier::Pinned);
cache_method!(get_multiple, cache_ops::get_multiple, Tier::Pinned);
cache_method!(set_multiple, cache_ops::set_multiple, Tier::Pinned);
cache_method!(has, cache_ops::has, Tier::Pinned);
cache_method!(delete, cache_ops::delete, Tier::Pinned);
cache_method!(delete_multiple, cache_ops::delete_multiple, Tier::Pinned);
cache_method!(clear, cache_ops::clear, Tier::Pinned);
cache_method!(lock, cache_ops::lock, Tier::Pinned);
cache_method!(unlock, cache_ops::unlock, Tier::Pinned);
cache_method!(get_cache_store_type, cache_ops::get_cache_store_type, Tier::Pinned);
cache_method!(info, cache_ops::info, Tier::Pinned);

static METHODS: Methods<16> = StaticTable([
    method(c"__construct", zend::private_constructor, &sig::PRIVATE_CONSTRUCT, zend::ZEND_ACC_PRIVATE),
    method(c"get", get, &sig::GET, PUBLIC_STATIC),
    method(c"getMultiple", get_multiple, &sig::GET_MULTIPLE, PUBLIC_STATIC),
    method(c"set", set, &sig::SET, PUBLIC_STATIC),
    method(c"setMultiple", set_multiple, &sig::SET_MULTIPLE, PUBLIC_STATIC),
    method(c"has", has, &sig::HAS, PUBLIC_STATIC),
    method(c"delete", delete, &sig::DELETE, PUBLIC_STATIC),
    method(c"deleteMultiple", delete_multiple, &sig::DELETE_MULTIPLE, PUBLIC_STATIC),
    method(c"clear", clear, &sig::CLEAR, PUBLIC_STATIC),
    method(c"lock", lock, &sig::LOCK, PUBLIC_STATIC),
    method(c"unlock", unlock, &sig::UNLOCK, PUBLIC_STATIC),
    method(c"increment", increment, &sig::COUNTER, PUBLIC_STATIC),
    method(c"decrement", decrement, &sig::COUNTER, PUBLIC_STATIC),
    method(c"getCacheStoreType", get_cache_store_type, &sig::GET_CACHE_STORE_TYPE, PUBLIC_STATIC),
    method(c"info", info, &sig::INFO, PUBLIC_STATIC),
    zend::end_of_methods(),
]);

/// # Safety
/// Must run during MINIT, after the enums and `StaticCacheInfo` are registered.
pub unsafe fn register() {
    // SAFETY: MINIT; the method table is a terminated static.
    unsafe {
        zend::register_class(c"OPcache\\PinnedCache", METHODS.as_ptr(), ptr::null_mut(), zend::ZEND_ACC_FINAL);
    }
}
