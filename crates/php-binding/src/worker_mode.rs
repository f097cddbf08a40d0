//! FrankenPHP worker mode (spec §14.4, Appendix A.12): RINIT/RSHUTDOWN run once per worker script, and
//! each HTTP request only deactivates and reactivates the SAPI. ext-php-rs has no deactivate hook, so
//! the SAPI's `deactivate` callback is wrapped by hand (as ext-php-rs wraps `activate`) and runs the
//! end of an HTTP request (`lifecycle::http_request_end`) before the SAPI's own callback. Installed for
//! the `frankenphp` SAPI only; in classic mode the wrapper runs after RSHUTDOWN and finds no request.

use std::sync::Mutex;

use ext_php_rs::ffi;

type Deactivate = unsafe extern "C" fn() -> i32;

/// The SAPI's own callback, called after ours.
static ORIGINAL: Mutex<Option<Option<Deactivate>>> = Mutex::new(None);

unsafe extern "C" fn deactivate() -> i32 {
    let bailed_out = crate::lifecycle::http_request_end();
    let original = *ORIGINAL.lock().unwrap_or_else(|e| e.into_inner());
    let result = match original.flatten() {
        // SAFETY: the SAPI's own deactivate callback, called as the SAPI would.
        Some(f) => unsafe { f() },
        None => 0,
    };
    if bailed_out {
        // SAFETY: the SAPI's callback has run; nothing in this frame needs dropping.
        unsafe { crate::lifecycle::reraise() }
    }
    result
}

/// MINIT: wraps the SAPI's deactivate callback when running under FrankenPHP.
pub fn install(sapi: &str) {
    if sapi != "frankenphp" {
        return;
    }
    let mut original = ORIGINAL.lock().unwrap_or_else(|e| e.into_inner());
    if original.is_some() {
        return;
    }
    // SAFETY: MINIT runs before any request, single-threaded; sapi_module is initialised by the SAPI.
    unsafe {
        let module = ffi::ext_php_rs_sapi_module();
        *original = Some((*module).deactivate);
        (*module).deactivate = Some(deactivate);
    }
}

/// MSHUTDOWN: puts the SAPI's callback back (a module restart installs the wrapper again).
pub fn uninstall() {
    let mut original = ORIGINAL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(saved) = original.take() {
        // SAFETY: MSHUTDOWN, no request running; restoring the pointer saved at MINIT.
        unsafe { (*ffi::ext_php_rs_sapi_module()).deactivate = saved };
    }
}
