//! Module and request lifecycle hooks. MINIT registers the INI directives, then, unless the engine
//! already ships the API (§2.4), every class, enum and attribute by hand (so that case registers
//! nothing), the test hooks if asked for, and builds the runtime (availability + segment).
//! Every hook catches panics itself: none may cross into the engine.

use std::panic::catch_unwind;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::{
    attributes, enums, exception, info, ini, pinned_cache, request, runtime, test_hooks, volatile_cache, worker_mode,
    zend,
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

pub unsafe extern "C" fn startup(_type: i32, module_number: i32) -> i32 {
    let outcome = catch_unwind(|| {
        ini::register(module_number);
        if zend::engine_provides_static_cache() {
            zend::warning_plain(COEXISTENCE_WARNING);
            ACTIVE.store(false, Ordering::Release);
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
            crate::admin::register();
            test_hooks::register_if_enabled();
        }
        let runtime = runtime::Runtime::start(&ini::settings());
        attributes::install_hooks(runtime.attribute_mode);
        runtime::install(runtime);
        worker_mode::install(&zend::sapi_name());
        ACTIVE.store(true, Ordering::Release);
    });
    if outcome.is_ok() {
        SUCCESS
    } else {
        FAILURE
    }
}

pub unsafe extern "C" fn shutdown(_type: i32, _module_number: i32) -> i32 {
    let outcome = catch_unwind(|| {
        worker_mode::uninstall();
        runtime::uninstall();
        ACTIVE.store(false, Ordering::Release);
    });
    if outcome.is_ok() {
        SUCCESS
    } else {
        FAILURE
    }
}

pub unsafe extern "C" fn request_startup(_type: i32, _module_number: i32) -> i32 {
    let outcome = catch_unwind(|| {
        if active() {
            request::begin();
            attributes::begin_request();
        }
    });
    if outcome.is_ok() {
        SUCCESS
    } else {
        FAILURE
    }
}

pub unsafe extern "C" fn request_shutdown(_type: i32, _module_number: i32) -> i32 {
    let outcome = catch_unwind(|| {
        if active() {
            attributes::end_request();
        }
        request::end();
    });
    if outcome.is_ok() {
        SUCCESS
    } else {
        FAILURE
    }
}

/// After the request's variables are gone: superseded immutable copies can no longer be reached.
pub unsafe extern "C" fn post_deactivate() -> i32 {
    let outcome = catch_unwind(crate::read_cache::free_superseded);
    if outcome.is_ok() {
        SUCCESS
    } else {
        FAILURE
    }
}
