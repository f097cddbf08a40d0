//! The JIT-compatible engine hooks that feed the attribute engine in both modes (§16.5, A.9): the
//! class-linked observer (a class becomes usable in this request), the fcall observer, which only
//! observes methods with attributed static variables (their table is installed at the first call),
//! and the request-start scan for preloaded classes, which are never linked per request.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};

use ext_php_rs::ffi::{self, zend_class_entry, zend_execute_data, zend_string, zval};

use super::abi::{self, IS_CONST, ZEND_ACC_LINKED, ZEND_ACC_PRELOADED, ZEND_USER_CLASS, ZEND_USER_FUNCTION};
use super::declaration;
use super::engine;
use super::exact;
use super::plan;
use crate::zend;

/// Whether `opcache.preload` is configured (decided at MINIT).
static PRELOAD: AtomicBool = AtomicBool::new(false);

/// Registers the observers (MINIT, unless attributes are off for the whole process).
pub fn install() {
    PRELOAD.store(zend::raw_config("opcache.preload").is_some_and(|p| !p.trim().is_empty()), Ordering::Relaxed);
    // SAFETY: MINIT: both registrations are only allowed during startup.
    unsafe {
        abi::zend_observer_class_linked_register(class_linked);
        ffi::zend_observer_fcall_register(Some(observe));
    }
}

unsafe extern "C" fn class_linked(ce: *mut zend_class_entry, _name: *mut zend_string) {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the engine reports a class it has just linked into the class table.
        unsafe { engine::class_linked(ce, accessed_now(ce)) }.err().map(|e| declaration::leaked(&e))
    }));
    if let Ok(Some(message)) = outcome {
        // SAFETY: nothing with a destructor is live in this frame; the engine bails out.
        unsafe { declaration::compile_error(message) };
    }
}

/// Exact mode restores at first access. A class linked by the autoloader in the middle of a
/// static-property access (`Foo::$x` loading `Foo`) is being accessed now: some frame up the stack
/// is executing a static-property opline that names it.
///
/// # Safety
/// `ce` must be a live class, during a request.
unsafe fn accessed_now(ce: *mut zend_class_entry) -> bool {
    // SAFETY: frames on the executor stack are live; oplines are read as the engine wrote them.
    unsafe {
        let lcname = zend::zstr_bytes((*ce).name).to_ascii_lowercase();
        let mut frame = (*ffi::ext_php_rs_executor_globals()).current_execute_data;
        while !frame.is_null() {
            let func = (*frame).func;
            if !func.is_null() && (*func).type_ == ZEND_USER_FUNCTION && !(*frame).opline.is_null() {
                let opline = (*frame).opline;
                if exact::OPCODES.contains(&(*opline).opcode) && (*opline).op2_type == IS_CONST {
                    let name = abi::literal(opline, (*opline).op2.constant).add(1);
                    if zend::zstr_bytes((*name).value.str_) == lcname.as_slice() {
                        return true;
                    }
                }
            }
            frame = (*frame).prev_execute_data;
        }
        false
    }
}

/// RINIT: preloaded classes are linked at startup, not per request; register them now.
pub fn scan_preloaded() {
    if !PRELOAD.load(Ordering::Relaxed) {
        return;
    }
    // SAFETY: during RINIT the class table is stable; entries are class pointers (IS_PTR).
    let classes: Vec<*mut zend_class_entry> = unsafe {
        zend::array_elements((*ffi::ext_php_rs_executor_globals()).class_table)
            .map(|(_, z)| (*z).value.ce)
            .filter(|&ce| {
                (*ce).type_ == ZEND_USER_CLASS && (*ce).ce_flags & (ZEND_ACC_PRELOADED | ZEND_ACC_LINKED) == (ZEND_ACC_PRELOADED | ZEND_ACC_LINKED)
            })
            .collect()
    };
    for ce in classes {
        // Preloading compiled the class already, so its declaration errors were raised then.
        // SAFETY: a linked class from the class table.
        let _ = unsafe { engine::class_linked(ce, false) };
    }
}

/// The fcall observer's per-function decision, cached by the engine for the request.
unsafe extern "C" fn observe(ex: *mut zend_execute_data) -> ffi::zend_observer_fcall_handlers {
    let none = ffi::zend_observer_fcall_handlers { begin: None, end: None };
    let wanted = catch_unwind(|| {
        // SAFETY: the engine passes the frame of the function about to run.
        unsafe {
            let func = (*ex).func;
            if func.is_null() || (*func).type_ != ZEND_USER_FUNCTION {
                None
            } else if (*func).op_array.function_name.is_null() {
                Some(Observed::Script)
            } else {
                plan::observes(&raw const (*func).op_array).then_some(Observed::Method)
            }
        }
    });
    match wanted {
        Ok(Some(Observed::Method)) => ffi::zend_observer_fcall_handlers { begin: Some(begin), end: Some(end) },
        Ok(Some(Observed::Script)) => ffi::zend_observer_fcall_handlers { begin: Some(script_begin), end: None },
        _ => none,
    }
}

enum Observed {
    /// Top-level code of a file: classes its compilation linked are registered when it starts.
    Script,
    /// A method with attributed static variables.
    Method,
}

unsafe extern "C" fn script_begin(_ex: *mut zend_execute_data) {
    let outcome = catch_unwind(|| engine::script_begin().err().map(|e| declaration::leaked(&e)));
    if let Ok(Some(message)) = outcome {
        // SAFETY: nothing with a destructor is live in this frame; the engine bails out.
        unsafe { declaration::compile_error(message) };
    }
}

unsafe extern "C" fn begin(ex: *mut zend_execute_data) {
    let _ = catch_unwind(|| {
        // SAFETY: the frame of an observed user method at its start.
        unsafe { engine::method_begin(&raw mut (*(*ex).func).op_array) }
    });
}

unsafe extern "C" fn end(ex: *mut zend_execute_data, _retval: *mut zval) {
    let _ = catch_unwind(|| {
        // SAFETY: the frame of an observed user method at its end.
        engine::method_end(unsafe { &raw mut (*(*ex).func).op_array })
    });
}
