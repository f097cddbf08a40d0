//! `OPcache\StaticCacheInfo` (§15): a final readonly class with a private constructor, and the
//! figures it reports, which phpinfo() shows too.

use std::ffi::CStr;
use std::ptr;

use ext_php_rs::ffi::{self, zval};
use ext_php_rs::types::ZendStr;

use crate::runtime::{BackendState, Runtime, Tier};
use crate::zend::{self, ClassRef, Methods, StaticTable};
use crate::{read_cache, request};

static CLASS: ClassRef = ClassRef::new();

static METHODS: Methods<2> = StaticTable([
    zend::method(
        c"__construct",
        zend::private_constructor,
        &crate::signatures::PRIVATE_CONSTRUCT,
        zend::ZEND_ACC_PRIVATE,
    ),
    zend::end_of_methods(),
]);

/// Declared properties, in slot order: the RFC's first, then ours.
const PROPERTIES: [(&CStr, u32); 17] = [
    (c"enabled", zend::MAY_BE_BOOL),
    (c"available", zend::MAY_BE_BOOL),
    (c"startup_failed", zend::MAY_BE_BOOL),
    (c"backend_initialized", zend::MAY_BE_BOOL),
    (c"configured_memory", zend::MAY_BE_LONG),
    (c"shared_memory", zend::MAY_BE_LONG),
    (c"entry_count", zend::MAY_BE_LONG),
    (c"segment_count", zend::MAY_BE_LONG),
    (c"shared_model", zend::MAY_BE_STRING),
    (c"failure_reason", zend::MAY_BE_STRING | zend::MAY_BE_NULL),
    (c"hits", zend::MAY_BE_LONG),
    (c"misses", zend::MAY_BE_LONG),
    (c"evictions", zend::MAY_BE_LONG),
    (c"free_memory", zend::MAY_BE_LONG),
    (c"fragmentation", zend::MAY_BE_DOUBLE),
    (c"partition", zend::MAY_BE_STRING),
    (c"attribute_mode", zend::MAY_BE_STRING),
];

/// # Safety
/// Must run during MINIT.
pub unsafe fn register() {
    // SAFETY: MINIT; a fresh internal class gets its properties before any object exists.
    unsafe {
        let flags = zend::ZEND_ACC_FINAL | zend::ZEND_ACC_READONLY_CLASS | zend::ZEND_ACC_NO_DYNAMIC_PROPERTIES;
        let ce = zend::register_class(c"OPcache\\StaticCacheInfo", METHODS.as_ptr(), ptr::null_mut(), flags);
        for (name, mask) in PROPERTIES {
            zend::declare_readonly_property(ce, name, zend::mask_type(mask));
        }
        CLASS.set(ce);
    }
}

/// What `info()` and phpinfo() report for one backend.
pub struct Figures {
    pub enabled: bool,
    pub available: bool,
    pub startup_failed: bool,
    pub backend_initialized: bool,
    pub configured_memory: u64,
    pub shared_memory: u64,
    pub entry_count: u64,
    pub segment_count: u64,
    pub shared_model: &'static str,
    pub failure_reason: Option<String>,
    pub hits: u64,
    pub misses: u64,
    pub evictions: u64,
    pub free_memory: u64,
    pub fragmentation: f64,
    pub partition: String,
    pub attribute_mode: &'static str,
}

impl Figures {
    /// The figures of `tier`'s backend as this request sees them: the lookups it counted locally are
    /// added to the backend's counters first, so `info()` and `phpinfo()` report the same.
    pub fn of(runtime: &Runtime, tier: Tier) -> Figures {
        let slot = runtime.slot(tier);
        if let Some(backend) = slot.backend() {
            read_cache::flush_counters(tier, backend);
        }
        let stats = slot.stats().unwrap_or_default();
        let (enabled, failure_reason, startup_failed, shared_model) = match &slot.state {
            BackendState::Disabled => (false, None, false, ""),
            BackendState::Unavailable { reason, startup_failed } => (true, Some(reason.clone()), *startup_failed, ""),
            BackendState::Ready { model, .. } => (true, None, false, *model),
        };
        let ready = slot.backend().is_some();
        let bookkeeping = slot.backend().map_or(0, |b| crate::attributes::bookkeeping_entries(tier, b));
        Figures {
            enabled,
            available: ready,
            startup_failed,
            backend_initialized: ready,
            configured_memory: slot.configured_bytes,
            shared_memory: if ready { stats.capacity_bytes.max(slot.configured_bytes) } else { 0 },
            entry_count: stats.entries.saturating_sub(bookkeeping),
            segment_count: u64::from(ready),
            shared_model,
            failure_reason,
            hits: stats.hits,
            misses: stats.misses,
            evictions: stats.evictions,
            free_memory: stats.free_bytes,
            fragmentation: stats.fragmentation(),
            partition: runtime.partition.clone(),
            attribute_mode: runtime.attribute_mode.as_str(),
        }
    }
}

/// Writes `tier`'s `StaticCacheInfo`, as the calling request sees it now, into `ret`: what `info()`
/// returns and `opcache_get_status()` carries. Leaves `ret` alone (and returns false) without a runtime.
pub fn write(tier: Tier, ret: &mut zval) -> bool {
    let Some(runtime) = request::runtime() else { return false };
    build(&Figures::of(&runtime, tier), ret);
    true
}

/// Writes a new `StaticCacheInfo` for `figures` into `ret`.
fn build(figures: &Figures, ret: &mut zval) {
    let long = |v: u64| {
        let mut z = zval::new();
        z.set_long(i64::try_from(v).unwrap_or(i64::MAX));
        z
    };
    let boolean = |v: bool| {
        let mut z = zval::new();
        z.set_bool(v);
        z
    };
    let string = |v: &str| {
        let mut z = zval::new();
        z.set_zend_string(ZendStr::new(v, false));
        z
    };
    let mut fragmentation = zval::new();
    fragmentation.set_double(figures.fragmentation);
    let values: [zval; 17] = [
        boolean(figures.enabled),
        boolean(figures.available),
        boolean(figures.startup_failed),
        boolean(figures.backend_initialized),
        long(figures.configured_memory),
        long(figures.shared_memory),
        long(figures.entry_count),
        long(figures.segment_count),
        string(figures.shared_model),
        figures.failure_reason.as_deref().map_or_else(zval::null, string),
        long(figures.hits),
        long(figures.misses),
        long(figures.evictions),
        long(figures.free_memory),
        fragmentation,
        string(&figures.partition),
        string(figures.attribute_mode),
    ];
    // SAFETY: the class was registered at MINIT; object_init_ex leaves every declared slot
    // undefined, and slot i has the type of PROPERTIES[i], which `values[i]` matches.
    unsafe {
        ffi::object_init_ex(ret, CLASS.get());
        let obj = ret.value.obj;
        for (i, value) in values.into_iter().enumerate() {
            let name = PROPERTIES[i].0.to_string_lossy();
            let _ = zend::init_property_slot(obj, i, value, &format!("OPcache\\StaticCacheInfo::${name}"));
        }
    }
}
