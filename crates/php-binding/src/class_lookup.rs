//! Finding a stored object's class at fetch time (§6.5): a loaded class is used as is; a missing one is
//! autoloaded at most once per class per request (the caller holds no lock or entry: it decodes a
//! private copy of the bytes); one that stays missing restores as `__PHP_Incomplete_Class`, as
//! `unserialize()` does.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::ptr;

use ext_php_rs::ffi::{self, zend_class_entry, zend_string};
use ext_php_rs::types::ZendStr;

use crate::request;
use crate::zend;

/// `ZEND_FETCH_CLASS_NO_AUTOLOAD`.
const NO_AUTOLOAD: u32 = 0x80;

thread_local! {
    /// Calls of [`incomplete_class`] on this thread.
    static INCOMPLETE_USES: Cell<u64> = const { Cell::new(0) };
    /// (request owner id, lower-case names already autoloaded in that request).
    static AUTOLOADED: RefCell<(u64, HashSet<Vec<u8>>)> = RefCell::default();
}

/// An exception is pending (thrown by an autoloader).
pub struct Thrown;

/// The class named `name`, autoloading it if this request has not tried yet; `None` if it stays
/// missing. `keyed`, when given, is (`name` as a string, its lower-case form) with hashes computed, so
/// a loaded class is found without allocating.
pub fn find(
    name: &[u8],
    keyed: Option<(*mut zend_string, *mut zend_string)>,
) -> Result<Option<*mut zend_class_entry>, Thrown> {
    let loaded = match keyed {
        // SAFETY: live strings; with a key given the engine only looks it up in the class table.
        Some((name, key)) => unsafe { ffi::zend_lookup_class_ex(name, key, NO_AUTOLOAD) },
        None => lookup(name, NO_AUTOLOAD),
    };
    if !loaded.is_null() {
        return Ok(Some(loaded));
    }
    let request = request::owner().0;
    let first_try = AUTOLOADED.with_borrow_mut(|(owner, tried)| {
        if *owner != request {
            *owner = request;
            tried.clear();
        }
        tried.insert(name.to_ascii_lowercase())
    });
    if !first_try {
        return Ok(None);
    }
    crate::attributes::before_userland();
    let autoloaded = lookup(name, 0);
    if zend::exception_pending() {
        return Err(Thrown);
    }
    Ok((!autoloaded.is_null()).then_some(autoloaded))
}

/// `__PHP_Incomplete_Class` (registered by ext/standard in every build). Every call counts in
/// [`incomplete_class_uses`]: the decoder asks for it once per object it makes of it.
pub fn incomplete_class() -> Option<*mut zend_class_entry> {
    INCOMPLETE_USES.set(INCOMPLETE_USES.get().wrapping_add(1));
    let ce = lookup(b"__PHP_Incomplete_Class", NO_AUTOLOAD);
    (!ce.is_null()).then_some(ce)
}

/// How many times this thread has asked for [`incomplete_class`]: a value decoded while the count
/// stood still holds no `__PHP_Incomplete_Class` object of its own making, so no walk has to look
/// for one (attributes' restores).
pub fn incomplete_class_uses() -> u64 {
    INCOMPLETE_USES.get()
}

fn lookup(name: &[u8], flags: u32) -> *mut zend_class_entry {
    let mut name = ZendStr::new(name, false);
    // SAFETY: called during a request; the name outlives the call and the engine only reads it (it
    // lower-cases a copy); with autoloading, userland code may run, and no Rust state is borrowed.
    unsafe { ffi::zend_lookup_class_ex(&raw mut *name, ptr::null_mut(), flags) }
}
