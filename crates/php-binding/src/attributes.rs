//! The attribute classes `OPcache\PinnedStatic` and `OPcache\VolatileStatic`: final internal
//! attributes with flags 13 (class | method | property). Only the classes live here; restoring and
//! publishing attributed statics is the attribute engine's job.

use std::panic::AssertUnwindSafe;
use std::ptr;

use ext_php_rs::ffi::{zend_execute_data, zval};
use ext_php_rs::zend::run_handler;

use crate::args::{self, Call, Parsed};
use crate::enums;
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
        zend::register_attribute(pinned, TARGETS);

        let volatile = zend::register_class(
            c"OPcache\\VolatileStatic",
            VOLATILE_STATIC_METHODS.as_ptr(),
            ptr::null_mut(),
            zend::ZEND_ACC_FINAL,
        );
        zend::declare_readonly_property(volatile, c"ttl", zend::mask_type(zend::MAY_BE_LONG));
        zend::declare_readonly_property(volatile, c"strategy", zend::class_type(c"OPcache\\CacheStrategy"));
        zend::register_attribute(volatile, TARGETS);
    }
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
