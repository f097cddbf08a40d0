//! The extension's life, in order, in one place: module startup and shutdown, request startup and end,
//! post-deactivate, and the end of each HTTP request in FrankenPHP worker mode (spec §14.4).
//!
//! Invariants: every step runs behind its own bailout and panic boundary, so a fatal error in one (a
//! serialization hook throwing at request end, `memory_limit`, `exit()`) cannot skip the steps after
//! it; nothing request-local (attribute state, prototypes, reservations) outlives its request; module
//! shutdown undoes every engine hook module startup installed, so an in-process restart (FrankenPHP
//! `caddy reload`) starts from a clean slate.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};

use ext_php_rs::zend::{bailout, try_catch, CatchError};

use crate::{
    admin, attributes, enums, exception, info, ini, opcache_functions, pinned_cache, read_cache, request, runtime,
    test_hooks, volatile_cache, worker_mode, zend,
};

const SUCCESS: i32 = 0;
const FAILURE: i32 = -1;
const COEXISTENCE_WARNING: &str =
    "static_cache: this PHP build already provides OPcache\\VolatileCache; static_cache is inactive";

static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Whether this process registered the API (false when the engine provides it).
pub fn active() -> bool {
    ACTIVE.load(Ordering::Acquire)
}

/// A sequence of steps, each run to its end or stopped by a bailout or panic of its own.
#[derive(Default)]
struct Steps {
    bailed_out: bool,
    panicked: bool,
}

impl Steps {
    fn run(&mut self, step: impl FnOnce()) {
        match try_catch(AssertUnwindSafe(step)) {
            Ok(()) => {}
            Err(CatchError::Bailout) => self.bailed_out = true,
            Err(_) => self.panicked = true,
        }
    }

    /// The hook's result; a bailout caught in a step is handed on to the engine's `zend_try` around
    /// this hook (the engine then goes on with the other extensions' hooks).
    fn finish_reraising(self) -> i32 {
        if self.bailed_out {
            // SAFETY: every step has run; this frame owns nothing that needs dropping.
            unsafe { bailout() }
        }
        if self.panicked {
            FAILURE
        } else {
            SUCCESS
        }
    }

    /// The hook's result, for hooks whose caller has no `zend_try` of its own for this extension.
    fn finish(self) -> i32 {
        if self.bailed_out || self.panicked {
            FAILURE
        } else {
            SUCCESS
        }
    }
}

/// MINIT: the INI directives, then, unless the engine already ships the API (§2.4), every class, enum
/// and attribute by hand, the test hooks if asked for, the runtime (availability + segment), the
/// attribute hooks of its mode, the worker-mode SAPI wrapper and (once OPcache has started too) the
/// `opcache_reset()`/`opcache_invalidate()` wrappers.
pub unsafe extern "C" fn module_startup(_type: i32, module_number: i32) -> i32 {
    let mut steps = Steps::default();
    steps.run(|| {
        ini::register(module_number);
        if zend::engine_provides_static_cache() {
            zend::warning_plain(COEXISTENCE_WARNING);
            return;
        }
        // SAFETY: this is MINIT; enums come before the classes whose signatures name them.
        unsafe {
            exception::register();
            enums::register();
            info::register();
            attributes::register();
            volatile_cache::register();
            pinned_cache::register();
            admin::register();
            test_hooks::register_if_enabled();
        }
        let runtime = runtime::Runtime::start(&ini::settings());
        attributes::install_hooks(runtime.hooks.mode);
        runtime::install(runtime);
        worker_mode::install(&zend::sapi_name());
        opcache_functions::install();
        ACTIVE.store(true, Ordering::Release);
    });
    steps.run(zend::remember_late_map_ptr_slots);
    steps.finish()
}

/// MSHUTDOWN: the reverse of startup. Each step runs even if an earlier one failed: the engine keeps
/// running (and may start this module again) after this returns.
pub unsafe extern "C" fn module_shutdown(_type: i32, _module_number: i32) -> i32 {
    let mut steps = Steps::default();
    steps.run(worker_mode::uninstall);
    steps.run(attributes::uninstall_hooks);
    steps.run(runtime::uninstall);
    steps.run(|| ACTIVE.store(false, Ordering::Release));
    steps.finish()
}

/// RINIT: the module's map_ptr slots when it was loaded after PHP's startup, INI warnings that could not
/// be shown when their values were applied, a fresh request identity and runtime snapshot, then the
/// attribute engine's request state.
pub unsafe extern "C" fn request_startup(_type: i32, _module_number: i32) -> i32 {
    zend::restore_late_map_ptr_slots();
    if !active() {
        return SUCCESS;
    }
    let mut steps = Steps::default();
    steps.run(ini::log_deferred_warnings);
    steps.run(request::begin);
    steps.run(attributes::begin_request);
    steps.finish_reraising()
}

/// RSHUTDOWN: publication of attributed statics (userland serialization hooks may run and fail
/// fatally), then everything that must not outlive the request, whatever publication did.
///
/// Userland code can still run after this: the RSHUTDOWN of extensions registered before this one
/// (session's write handler) and the resources the engine closes after every RSHUTDOWN (a user stream
/// wrapper's `stream_close()`). That code gets a request identity of its own, ended at post-deactivate:
/// without one, its fetches kept prototypes that the next request of the thread read after this
/// request's heap was gone (a crash), and its reservations had no owner to release them.
pub unsafe extern "C" fn request_shutdown(_type: i32, _module_number: i32) -> i32 {
    let mut steps = Steps::default();
    if active() {
        steps.run(attributes::publish_at_request_end);
        steps.run(attributes::forget_request);
        steps.run(read_cache::drop_prototypes);
    }
    steps.run(request::end);
    if active() {
        steps.run(request::begin);
    }
    steps.finish_reraising()
}

/// After the request's variables are gone (no PHP code runs any more): the late identity
/// [`request_shutdown`] began ends, its reservations released; what its fetches kept is forgotten,
/// not released (the objects are already freed); superseded immutable copies can no longer be reached.
/// The engine runs every extension's post-deactivate inside one `zend_try`, so a bailout here is not
/// handed on (it would skip the other extensions).
pub unsafe extern "C" fn post_deactivate() -> i32 {
    let mut steps = Steps::default();
    steps.run(read_cache::forget_prototypes);
    steps.run(request::end);
    steps.run(read_cache::free_superseded);
    steps.finish()
}

/// The end of one HTTP request inside a FrankenPHP worker script (called from the SAPI deactivate
/// wrapper): publication per HTTP request, the request-local state, reservations, then a new request
/// identity for the next HTTP request. Does nothing outside a request. Returns whether a step bailed
/// out: the caller finishes its own work, then calls [`reraise`].
pub fn http_request_end() -> bool {
    if !active() || !request::in_request() {
        return false;
    }
    let mut steps = Steps::default();
    steps.run(attributes::publish_at_http_request_end);
    steps.run(read_cache::drop_prototypes);
    steps.run(request::end);
    steps.run(request::begin);
    steps.bailed_out
}

/// Hands a bailout caught by [`http_request_end`] on to the engine.
///
/// # Safety
/// The caller's frame must own nothing that needs dropping.
pub unsafe fn reraise() -> ! {
    // SAFETY: as above.
    unsafe { bailout() }
}
