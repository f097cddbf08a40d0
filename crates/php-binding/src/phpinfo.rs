//! The `static_cache` section of phpinfo() (§17.1): support, version, attribute mode, per-backend
//! figures and the INI table.

use std::ffi::CString;
use std::panic::catch_unwind;

use ext_php_rs::ffi;
use ext_php_rs::zend::ModuleEntry;

use crate::info::Figures;
use crate::lifecycle;
use crate::runtime::{self, Tier};

fn row(label: &str, value: &str) {
    let label = CString::new(label).unwrap_or_default();
    let value = CString::new(value.replace('\0', "")).unwrap_or_default();
    // SAFETY: phpinfo() is running; two C strings for a two-column row.
    unsafe { ffi::php_info_print_table_row(2, label.as_ptr(), value.as_ptr()) };
}

/// `enabled` when a backend is usable in this process, otherwise `inactive (why)` (§17.1).
fn support() -> String {
    if !lifecycle::active() {
        return "inactive (this PHP build already provides OPcache\\VolatileCache)".to_owned();
    }
    let Some(rt) = runtime::current() else { return "inactive".to_owned() };
    let figures = [Tier::Volatile, Tier::Pinned].map(|tier| Figures::of(&rt, tier));
    if figures.iter().any(|f| f.available) {
        return "enabled".to_owned();
    }
    match figures.iter().find_map(|f| f.failure_reason.as_deref()) {
        Some(reason) => format!("inactive ({reason})"),
        None => "inactive (static_cache.volatile_size_mb and static_cache.pinned_size_mb are 0)".to_owned(),
    }
}

pub unsafe extern "C" fn print(module: *mut ModuleEntry) {
    let _ = catch_unwind(|| {
        // SAFETY: phpinfo() is running.
        unsafe { ffi::php_info_print_table_start() };
        row("static_cache support", &support());
        row("Version", env!("CARGO_PKG_VERSION"));
        if let Some(rt) = runtime::current() {
            row("Attribute mode", rt.attribute_mode.as_str());
            for (tier, name) in [(Tier::Volatile, "Volatile"), (Tier::Pinned, "Pinned")] {
                let f = Figures::of(&rt, tier);
                row(&format!("{name} enabled"), if f.enabled { "yes" } else { "no" });
                row(&format!("{name} available"), if f.available { "yes" } else { "no" });
                row(&format!("{name} failure reason"), f.failure_reason.as_deref().unwrap_or(""));
                row(&format!("{name} configured size"), &f.configured_memory.to_string());
                row(&format!("{name} free memory"), &f.free_memory.to_string());
                row(&format!("{name} entries"), &f.entry_count.to_string());
                row(&format!("{name} hits"), &f.hits.to_string());
                row(&format!("{name} misses"), &f.misses.to_string());
                row(&format!("{name} evictions"), &f.evictions.to_string());
                row(&format!("{name} partition"), &f.partition);
            }
        }
        // SAFETY: phpinfo() is running; `module` is our module entry, which owns the INI entries.
        unsafe {
            ffi::php_info_print_table_end();
            ffi::display_ini_entries(module);
        }
    });
}
