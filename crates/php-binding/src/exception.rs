//! `OPcache\StaticCacheException extends \Exception` (code 0), registered by hand at MINIT.

use std::ptr;

use ext_php_rs::ffi;

use crate::zend;

/// # Safety
/// Must run during MINIT.
pub unsafe fn register() {
    // SAFETY: MINIT; zend_ce_exception is registered by the engine before extensions start.
    unsafe {
        zend::register_class(c"OPcache\\StaticCacheException", ptr::null(), ffi::zend_ce_exception, 0);
    }
}
