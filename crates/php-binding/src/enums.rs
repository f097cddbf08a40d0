//! `OPcache\CacheStrategy` (int-backed) and `OPcache\CacheStoreType` (pure), registered by hand at
//! MINIT and made final like userland enums; the engine adds `cases()`, `from()` and `tryFrom()`.

use std::ffi::CStr;
use std::ptr;

use ext_php_rs::ffi::{self, zend_class_entry, zend_object, zval, IS_LONG, IS_UNDEF};

use crate::encoding::StoreType;
use crate::zend::{self, ClassRef};

static CACHE_STRATEGY: ClassRef = ClassRef::new();
static CACHE_STORE_TYPE: ClassRef = ClassRef::new();

const STORE_TYPE_CASES: [&CStr; 5] = [c"NotFound", c"Scalar", c"SharedGraph", c"OPcacheSerialized", c"PHPSerialized"];

/// # Safety
/// Must run during MINIT.
pub unsafe fn register() {
    // SAFETY: MINIT; the names are C literals, case values are copied by the engine.
    unsafe {
        let strategy = ffi::zend_register_internal_enum(c"OPcache\\CacheStrategy".as_ptr(), IS_LONG as u8, ptr::null());
        for (value, name) in [(0, c"Immediate"), (1, c"Tracking")] {
            let mut v = zval::new();
            v.set_long(value);
            ffi::zend_enum_add_case_cstr(strategy, name.as_ptr(), &raw mut v);
        }
        (*strategy).ce_flags |= zend::ZEND_ACC_FINAL;
        CACHE_STRATEGY.set(strategy);

        let store_type =
            ffi::zend_register_internal_enum(c"OPcache\\CacheStoreType".as_ptr(), IS_UNDEF as u8, ptr::null());
        for name in STORE_TYPE_CASES {
            ffi::zend_enum_add_case_cstr(store_type, name.as_ptr(), ptr::null_mut());
        }
        (*store_type).ce_flags |= zend::ZEND_ACC_FINAL;
        CACHE_STORE_TYPE.set(store_type);
    }
}

pub fn cache_strategy() -> *mut zend_class_entry {
    CACHE_STRATEGY.get()
}

fn case(ce: *mut zend_class_entry, name: &CStr) -> *mut zend_object {
    // SAFETY: called during a request on an enum registered at MINIT, with one of its case names.
    unsafe { ffi::zend_enum_get_case_cstr(ce, name.as_ptr()) }
}

pub fn immediate() -> *mut zend_object {
    case(CACHE_STRATEGY.get(), c"Immediate")
}

/// The `CacheStoreType` case for a tier; `None` is `NotFound`.
pub fn store_type(tier: Option<StoreType>) -> *mut zend_object {
    let name = match tier {
        None => STORE_TYPE_CASES[0],
        Some(StoreType::Scalar) => STORE_TYPE_CASES[1],
        Some(StoreType::SharedGraph) => STORE_TYPE_CASES[2],
        Some(StoreType::OpcacheSerialized) => STORE_TYPE_CASES[3],
        Some(StoreType::PhpSerialized) => STORE_TYPE_CASES[4],
    };
    case(CACHE_STORE_TYPE.get(), name)
}
