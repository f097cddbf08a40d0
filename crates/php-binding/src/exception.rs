//! `OPcache\StaticCacheException extends \Exception` (code 0), registered by hand at MINIT.

use std::ptr;

use ext_php_rs::ffi::{self, zend_class_entry};

use crate::zend::{self, ClassRef};

static STATIC_CACHE_EXCEPTION: ClassRef = ClassRef::new();

/// # Safety
/// Must run during MINIT.
pub unsafe fn register() {
    // SAFETY: MINIT; zend_ce_exception is registered by the engine before extensions start.
    let ce = unsafe { zend::register_class(c"OPcache\\StaticCacheException", ptr::null(), ffi::zend_ce_exception, 0) };
    STATIC_CACHE_EXCEPTION.set(ce);
}

pub fn class_entry() -> *mut zend_class_entry {
    STATIC_CACHE_EXCEPTION.get()
}

/// Throws `StaticCacheException` with `message` in the running request.
pub fn throw(message: &str) {
    let text = zend::message(message.as_bytes());
    // SAFETY: called during a request; the engine copies the message.
    unsafe { ffi::zend_throw_exception(class_entry(), text.as_ptr(), 0) };
}
