//! `#[OPcache\VolatileStatic]` and `#[OPcache\PinnedStatic]` (§16). This file registers the two
//! final internal attribute classes (flags 13: class | method | property) and installs the engine
//! hooks. The rest, one mechanism per module:
//! * `declaration`: what one attribute says, and the declaration errors of §16.1;
//! * `plan`: which statics of a class are covered, grouped into units with their keys;
//! * `engine`: per-request restore and publication;
//! * `compare`: has a static changed since it was restored or published;
//! * `member_search`: the member entries of a class that is not loaded;
//! * `diagnose`: why a value cannot be published;
//! * `observers`: class-linked and fcall observers (both modes);
//! * `exact`: the static-property opcode handlers of exact mode;
//! * `placement`: which oplines those handlers run on, chosen when code is compiled;
//! * `abi`: the engine structures and functions these need.

mod abi;
pub(crate) mod compare;
mod declaration;
mod diagnose;
mod engine;
mod exact;
mod member_search;
mod observers;
mod placement;
mod plan;

pub use engine::on_clear;
pub use member_search::{note_explicit_write, own_writes_wanted};
pub use observers::interrupt_installed;

use std::panic::AssertUnwindSafe;
use std::ptr;

use ext_php_rs::ffi::{zend_execute_data, zval};
use ext_php_rs::zend::run_handler;

use shm_core::Backend;

use crate::args::{self, Call, Parsed};
use crate::enums;
use crate::runtime::{AttributeMode, Tier};
use crate::zend::{self, ArgInfos, Methods, StaticTable};

/// `Attribute::TARGET_CLASS | TARGET_METHOD | TARGET_PROPERTY`.
const TARGETS: u32 = 1 | 4 | 8;

static CONSTRUCT_ARGS: ArgInfos<3> = StaticTable([
    zend::returns(0, 0),
    zend::param(c"ttl", zend::MAY_BE_LONG, Some(c"0")),
    zend::param_object(c"strategy", c"OPcache\\CacheStrategy", Some(c"\\OPcache\\CacheStrategy::Immediate")),
]);

static VOLATILE_STATIC_METHODS: Methods<2> = StaticTable([
    zend::method(c"__construct", construct, &CONSTRUCT_ARGS, zend::ZEND_ACC_PUBLIC),
    zend::end_of_methods(),
]);

/// # Safety
/// Must run during MINIT, after the enums are registered.
pub unsafe fn register() {
    // SAFETY: MINIT; both classes are fresh internal classes.
    unsafe {
        let pinned = zend::register_class(c"OPcache\\PinnedStatic", ptr::null(), ptr::null_mut(), zend::ZEND_ACC_FINAL);
        set_validator(zend::register_attribute(pinned, TARGETS));

        let volatile = zend::register_class(
            c"OPcache\\VolatileStatic",
            VOLATILE_STATIC_METHODS.as_ptr(),
            ptr::null_mut(),
            zend::ZEND_ACC_FINAL,
        );
        zend::declare_readonly_property(volatile, c"ttl", zend::mask_type(zend::MAY_BE_LONG));
        zend::declare_readonly_property(volatile, c"strategy", zend::class_type(c"OPcache\\CacheStrategy"));
        set_validator(zend::register_attribute(volatile, TARGETS));
    }
}

/// # Safety
/// `record` must be the `zend_internal_attribute` just registered (MINIT).
unsafe fn set_validator(record: *mut std::ffi::c_void) {
    // SAFETY: as above; the record is persistent and read by the compiler only.
    unsafe { (*record.cast::<abi::InternalAttribute>()).validator = Some(declaration::validate) };
}

/// Installs the engine hooks for the process's attribute mode (MINIT): none when attributes are off
/// for the whole process, the observers in deferred mode, and the observers plus the static-property
/// opcode handlers in exact mode (§16.5).
pub fn install_hooks(mode: AttributeMode) {
    if mode == AttributeMode::Off {
        return;
    }
    observers::install();
    if mode == AttributeMode::Exact {
        exact::install();
    }
}

/// MSHUTDOWN: puts back the handlers [`install_hooks`] replaced, so a module started again in this
/// process chains to the engine's, not to its own previous generation. (The engine drops observer
/// registrations itself at shutdown.)
pub fn uninstall_hooks() {
    exact::uninstall();
    observers::uninstall();
}

/// The read path is about to run userland code (a restore hook, an autoloader, `unserialize()`): the
/// attributed statics due to be restored at link are restored first (§16.4), so that code never finds
/// one of them at its default.
pub fn before_userland() {
    engine::before_userland();
}

/// RINIT.
pub fn begin_request() {
    engine::begin_request();
    observers::scan_preloaded();
}

/// RSHUTDOWN: end-of-request publication (§16.6). Serialization hooks run there with no frame of the
/// request left: an exception one throws is reported for its unit (as a `PinnedStatic` warning) and the
/// other units are still published, instead of ending the shutdown as an uncaught exception. A request
/// whose units are all untouched runs no hook: it needs no frame.
pub fn publish_at_request_end() {
    if let Some(changed) = engine::publish_untouched(false) {
        zend::with_frame(|| engine::publish_at_end(changed, false));
    }
}

/// RSHUTDOWN, after publication whatever its outcome: the request's attribute state is dropped.
pub fn forget_request() {
    engine::forget_request();
}

/// End of one HTTP request in FrankenPHP worker mode: publication per HTTP request; the statics and
/// what they were restored from live on in the worker.
pub fn publish_at_http_request_end() {
    if let Some(changed) = engine::publish_untouched(true) {
        engine::publish_at_end(changed, true);
    }
}

/// Whether this request has no attributed class registered: a loaded class then has no request-local
/// attribute state for a class selector (`delete()`) to reach, only what is stored in the backend.
pub fn request_idle() -> bool {
    engine::idle()
}

/// The attribute entry an RFC attribute key (`volatile_static:Foo::$bar`, `pinned_static:Foo::m()::$v`)
/// addresses in `tier`'s backend (§16.3); `None` for other keys.
pub fn addressed_unit(tier: Tier, key: &[u8]) -> Option<Vec<u8>> {
    plan::parse_member_key(tier, key).map(|(class, member)| plan::member_key(tier, &class, &member))
}

/// Deletes the attribute state `delete($key)` (`class_selector`) or `deleteMultiple()` reaches besides
/// the explicit entry `$key` (§5.7, §16.3), and suppresses its republication in this request (§16.8):
/// * an RFC attribute key: that unit's entry;
/// * with `class_selector`, a class name (one leading `\` ignored, no autoloading), loaded or not:
///   the class blob and every member entry stored for that class, found without the class
///   (`member_search`).
///
/// Returns whether the key also reaches this request's state: an RFC attribute key, or (with
/// `class_selector`) the name of a loaded class.
pub fn delete_addressed(tier: Tier, backend: &Backend, key: &[u8], class_selector: bool) -> bool {
    // The check point comes first, while this frame owns nothing: a fatal error in a publication's
    // hook longjmps past the copies made below (a lower-cased class name on the heap, a unit's key).
    engine::check_point();
    // A class name already in lower case (the ordinary keys a loop sets and deletes) is its own
    // lower-case form, and no RFC attribute key: those hold `:` and `$`, which no class name does.
    if class_selector && plan::is_class_name(key) && zend::is_plain_class_name(key) {
        return delete_class_state(tier, backend, key);
    }
    if let Some(unit) = addressed_unit(tier, key) {
        engine::on_delete_unit(tier, &unit);
        backend.delete(&unit);
        return true;
    }
    if !class_selector {
        return false;
    }
    let name = key.strip_prefix(b"\\").unwrap_or(key);
    if !plan::is_class_name(name) {
        return false;
    }
    // Lower-cased on the stack (no heap copy for any usual class name).
    let mut stack = [0u8; LOWER_ON_STACK];
    let heap;
    let lcclass: &[u8] = match stack.get_mut(..name.len()) {
        Some(buf) => {
            for (to, from) in buf.iter_mut().zip(name) {
                *to = from.to_ascii_lowercase();
            }
            buf
        }
        None => {
            heap = name.to_ascii_lowercase();
            &heap
        }
    };
    delete_class_state(tier, backend, lcclass)
}

/// The class-selector half of [`delete_addressed`] for class `lcclass` (lower case, no leading `\\`):
/// deletes the state of the class if loaded (and suppresses its republication), and the stored state
/// `member_search` finds; whether the class is loaded.
fn delete_class_state(tier: Tier, backend: &Backend, lcclass: &[u8]) -> bool {
    let loaded = zend::loaded_class_lc(lcclass);
    let registered = match loaded {
        // SAFETY: a class from the class table, during a request.
        Some(ce) => unsafe { engine::on_delete_class(tier, ce) },
        None => Vec::new(),
    };
    let stored = member_search::state_keys(tier, backend, lcclass);
    for k in registered.iter().chain(&stored) {
        backend.delete(k);
    }
    loaded.is_some()
}

/// Class names up to this long are lower-cased on the stack by [`delete_addressed`].
const LOWER_ON_STACK: usize = 64;

/// `opcache_reset()` (§14.6): the attribute state of this request is not published any more.
pub fn on_reset() {
    engine::on_reset();
}

/// `opcache_invalidate($file, true)` (§14.6): the attribute state of the classes declared in `file`
/// that this request has loaded is deleted from both backends of the partition, and not republished.
pub fn on_invalidate(file: &std::path::Path) {
    // Before the runtime and the list of classes are taken (see `delete_addressed`).
    engine::check_point();
    let Some(runtime) = crate::request::runtime() else { return };
    for ce in engine::classes_declared_in(file) {
        // SAFETY: a registered class is live for the request; its name is a live string.
        let name = unsafe { zend::zstr_bytes((*ce).name) }.to_vec();
        for tier in [Tier::Volatile, Tier::Pinned] {
            if let Some(backend) = runtime.backend(tier) {
                delete_addressed(tier, backend, &name, true);
            }
        }
    }
}

/// Storage key of the member entry of static property `prop` of class `class` (§5.12).
pub fn property_key(tier: Tier, class: &[u8], prop: &[u8]) -> Vec<u8> {
    let class = class.strip_prefix(b"\\").unwrap_or(class).to_ascii_lowercase();
    plan::member_key(tier, &class, &[b"$", prop].concat())
}

/// Entries of the internal key space that are bookkeeping, not attribute state (`info()` does not
/// count them).
pub fn bookkeeping_entries(tier: Tier, backend: &Backend) -> u64 {
    u64::from(backend.contains(member_search::stamp_key(tier)))
}

/// Whether `key` is a bookkeeping entry of the internal key space (hidden from operators too).
pub fn is_bookkeeping_key(key: &[u8]) -> bool {
    [Tier::Volatile, Tier::Pinned].iter().any(|&t| key == member_search::stamp_key(t))
}

/// Whether an explicit key is one of the reserved prefixes behind which attribute state lives.
pub fn is_internal_key(key: &[u8]) -> bool {
    [Tier::Volatile, Tier::Pinned].iter().any(|&t| key.starts_with(plan::reserved_prefix(t)))
}

unsafe extern "C" fn construct(ex: *mut zend_execute_data, rv: *mut zval) {
    // SAFETY: the engine passes this call's live frame and return slot.
    let call = unsafe { Call::new(ex, rv) };
    run_handler(AssertUnwindSafe(|| {
        let _ = construct_volatile_static(&call);
    }));
}

/// `VolatileStatic::__construct(int $ttl = 0, CacheStrategy $strategy = CacheStrategy::Immediate)`.
fn construct_volatile_static(call: &Call) -> Parsed<()> {
    call.expect_args(0, 2)?;
    let ttl = if call.num_args() >= 1 { call.long(1)? } else { 0 };
    let strategy = if call.num_args() >= 2 { call.object_of(2, enums::cache_strategy())? } else { enums::immediate() };
    args::non_negative(1, ttl)?;
    let this = call.this_object();
    let mut ttl_value = zval::new();
    ttl_value.set_long(ttl);
    let mut strategy_value = zval::new();
    // SAFETY: enum cases are live objects for the request; set_object adds the reference we store.
    unsafe { strategy_value.set_object(&mut *strategy) };
    // SAFETY: `this` is a VolatileStatic being constructed; slot 0 is `int $ttl`, slot 1 is
    // `CacheStrategy $strategy` (declaration order).
    unsafe {
        zend::init_property_slot(this, 0, ttl_value, "OPcache\\VolatileStatic::$ttl")?;
        zend::init_property_slot(this, 1, strategy_value, "OPcache\\VolatileStatic::$strategy")?;
    }
    Ok(())
}
