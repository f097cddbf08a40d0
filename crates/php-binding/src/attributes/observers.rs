//! The JIT-compatible engine hooks that feed the attribute engine in both modes (§16.5, A.9): the
//! class-linked observer (a class becomes usable in this request), the VM interrupt hook, through
//! which classes linked before the main script has a frame are registered at its first opline, and
//! the request-start scan for preloaded classes, which are never linked per request.
//!
//! No fcall observer: registering one makes PHP 8.2 run every call through its observer handlers,
//! about 10 % on call-heavy code even when it observes nothing (measured with `benches/overhead`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use ext_php_rs::ffi::{self, zend_class_entry, zend_execute_data, zend_string};

use super::abi::{self, IS_CONST, ZEND_ACC_LINKED, ZEND_ACC_PRELOADED};
use super::declaration;
use super::engine;
use super::exact;
use super::placement;
use crate::zend::{self, ZEND_USER_CLASS, ZEND_USER_FUNCTION};
use crate::zvals;

/// Whether `opcache.preload` is configured (decided at MINIT).
static PRELOAD: AtomicBool = AtomicBool::new(false);

/// The interrupt function installed before ours (pcntl's async signals, for one), chained to.
static PREVIOUS_INTERRUPT: AtomicUsize = AtomicUsize::new(0);

/// Whether our interrupt function is installed (set under [`INSTALL`]).
static INTERRUPT_INSTALLED: AtomicBool = AtomicBool::new(false);
/// Serialises the installation of the interrupt function between threads (ZTS).
static INSTALL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Registers the class-linked observer (MINIT, unless attributes are off for the whole process). The
/// interrupt function is installed later, by the first [`request_interrupt`]: its mere presence makes
/// the tracing JIT generate slower code for calls (about 7 % on a loop of static method calls), so a
/// process whose code declares no attributed static never installs it.
pub fn install() {
    PRELOAD.store(zend::raw_config("opcache.preload").is_some_and(|p| !p.trim().is_empty()), Ordering::Relaxed);
    // SAFETY: MINIT, single-threaded: the observer registration is only allowed during startup.
    unsafe { abi::zend_observer_class_linked_register(class_linked) };
}

/// Whether our interrupt function is installed in this process (the `interrupt_installed` test hook:
/// code that declares no attributed static must never cause it).
pub fn interrupt_installed() -> bool {
    INTERRUPT_INSTALLED.load(Ordering::Acquire)
}

/// Chains our interrupt function in front of the one installed before, once per module lifetime.
fn install_interrupt() {
    if INTERRUPT_INSTALLED.load(Ordering::Acquire) {
        return;
    }
    let _guard = INSTALL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if INTERRUPT_INSTALLED.load(Ordering::Relaxed) {
        return;
    }
    // SAFETY: the global is a function pointer of the engine's; other threads (ZTS) read it only when
    // their VM handles an interrupt, and an aligned pointer-sized store is seen whole, old or new.
    // The previous value is saved before ours is published, so a caller of ours always chains right.
    unsafe {
        let previous = ffi::zend_interrupt_function.map_or(0, |f| f as usize);
        let ours = previous == interrupted as *const () as usize;
        PREVIOUS_INTERRUPT.store(if ours { 0 } else { previous }, Ordering::Release);
        ffi::zend_interrupt_function = Some(interrupted);
    }
    INTERRUPT_INSTALLED.store(true, Ordering::Release);
}

/// Puts back the interrupt function that was installed before ours (MSHUTDOWN), unless another
/// extension has replaced ours since.
pub fn uninstall() {
    let _guard = INSTALL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !INTERRUPT_INSTALLED.swap(false, Ordering::AcqRel) {
        return;
    }
    let previous = PREVIOUS_INTERRUPT.swap(0, Ordering::Relaxed);
    // SAFETY: MSHUTDOWN, no PHP code running; a saved value is an interrupt function pointer.
    unsafe {
        if ffi::zend_interrupt_function.map(|f| f as usize) == Some(interrupted as *const () as usize) {
            ffi::zend_interrupt_function = (previous != 0)
                .then(|| std::mem::transmute::<usize, unsafe extern "C" fn(*mut zend_execute_data)>(previous));
        }
    }
}

/// Asks the VM to call [`interrupted`] at its next check: the start of the main script's execution
/// (`execute_ex` checks before its first opline, reading the engine's interrupt function then), or
/// the next call or loop iteration. Installs the interrupt function first if needed.
pub fn request_interrupt() {
    install_interrupt();
    // SAFETY: the flag is this thread's executor global; the VM reads it atomically.
    unsafe {
        let flag = &raw mut (*ffi::ext_php_rs_executor_globals()).vm_interrupt.value;
        (*flag.cast::<AtomicBool>()).store(true, Ordering::Release);
    }
}

unsafe extern "C" fn interrupted(ex: *mut zend_execute_data) {
    let outcome = catch_unwind(|| engine::register_pending().err().map(|e| declaration::leaked(&e)));
    if let Ok(Some(message)) = outcome {
        // SAFETY: nothing with a destructor is live in this frame; the engine bails out.
        unsafe { declaration::compile_error(message) };
        return;
    }
    let previous = PREVIOUS_INTERRUPT.load(Ordering::Relaxed);
    if previous != 0 {
        // SAFETY: the value is the interrupt function that was installed before ours.
        unsafe { std::mem::transmute::<usize, unsafe extern "C" fn(*mut zend_execute_data)>(previous)(ex) };
    }
}

unsafe extern "C" fn class_linked(ce: *mut zend_class_entry, _name: *mut zend_string) {
    // Preloading links its classes inside a request of its own, then replaces them with persisted copies
    // and frees them before that request ends: those are registered by each later request's scan.
    // SAFETY: the engine passes the class it has just linked.
    if unsafe { (*ce).ce_flags } & ZEND_ACC_PRELOADED != 0 {
        return;
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the engine reports a class it has just linked into the class table.
        unsafe { engine::class_linked(ce) }.err().map(|e| declaration::leaked(&e))
    }));
    if let Ok(Some(message)) = outcome {
        // SAFETY: nothing with a destructor is live in this frame; the engine bails out.
        unsafe { declaration::compile_error(message) };
    }
}

/// Exact mode restores at first access. A class linked by the autoloader in the middle of a
/// static-property access (`Foo::$x` loading `Foo`) is being accessed now: some frame up the stack
/// is executing a static-property opline that names it, or names a class not loaded (or linked) yet, whose
/// autoload links this one on the way (`Child::$x` loading `Child` and its parent, which declares
/// `$x`: the access may be to an inherited static). Restoring a class so reached before its own first
/// access is still a restore before first use.
///
/// # Safety
/// `ce` must be a live class, during a request.
pub(super) unsafe fn accessed_now(ce: *mut zend_class_entry) -> bool {
    // SAFETY: frames on the executor stack are live; oplines are read as the engine wrote them.
    unsafe {
        let name = zend::zstr_bytes((*ce).name);
        let mut frame = (*ffi::ext_php_rs_executor_globals()).current_execute_data;
        while !frame.is_null() {
            let func = (*frame).func;
            if !func.is_null() && (*func).type_ == ZEND_USER_FUNCTION && !(*frame).opline.is_null() {
                let opline = (*frame).opline;
                if exact::is_static_property(placement::original((*opline).opcode)) && (*opline).op2_type == IS_CONST {
                    // The literal after the class name is its lower-cased form.
                    let lcname = (*abi::literal(opline, (*opline).op2.constant).add(1)).value.str_;
                    if zend::zstr_bytes(lcname).eq_ignore_ascii_case(name) {
                        return true;
                    }
                    // A class being declared is in the class table before it is linked (its parent
                    // loaded on the way).
                    let named = abi::loaded_class(lcname);
                    if named.is_null() || (*named).ce_flags & ZEND_ACC_LINKED == 0 {
                        return true;
                    }
                }
            }
            frame = (*frame).prev_execute_data;
        }
        false
    }
}

/// RINIT: preloaded classes are linked at startup, not per request; register them now. No frame exists
/// at RINIT, so [`engine::class_linked`] only queues them for the main script's first opline (where a
/// bailout out of their restore is handed on as for any class linked before it): nothing here runs PHP
/// code.
pub fn scan_preloaded() {
    if !PRELOAD.load(Ordering::Relaxed) {
        return;
    }
    // SAFETY: during RINIT the class table is stable; entries are class pointers (IS_PTR).
    let classes: Vec<*mut zend_class_entry> = unsafe {
        zvals::entries((*ffi::ext_php_rs_executor_globals()).class_table)
            .map(|(_, z)| (*z).value.ce)
            .filter(|&ce| {
                (*ce).type_ == ZEND_USER_CLASS
                    && (*ce).ce_flags & (ZEND_ACC_PRELOADED | ZEND_ACC_LINKED) == (ZEND_ACC_PRELOADED | ZEND_ACC_LINKED)
            })
            .collect()
    };
    for ce in classes {
        // Preloading compiled the class already, so its declaration errors were raised then.
        // SAFETY: a linked class from the class table.
        let _ = unsafe { engine::class_linked(ce) };
    }
}
