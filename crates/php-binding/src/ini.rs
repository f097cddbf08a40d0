//! The `static_cache.*` INI directives (§12). Values are parsed once, in each directive's on_modify
//! handler (startup, and FPM's per-pool `php_admin_value` at activation), and kept in [`Settings`];
//! nothing reads the INI table on a hot path. `ini_get()` still returns the configured string.
//! A bad value is replaced by the default with a warning naming it: at startup a startup warning; at
//! activation (an FPM worker applying its pool's values, where no warning can be shown) it is logged
//! at the worker's next request, through PHP's error log (`error_log`, or FPM's log and the FastCGI
//! error stream).

use std::ffi::{c_int, c_void};
use std::panic::catch_unwind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use ext_php_rs::ffi::{zend_ini_entry, zend_string};
use ext_php_rs::flags::IniEntryPermission;
use ext_php_rs::zend::{IniEntryDef, IniEntryDefs};

use crate::runtime::AttributeMode;
use crate::zend;

/// Smallest non-zero backend size, in MiB.
const MIN_SIZE_MB: u64 = 8;
const MIB: u64 = 1 << 20;
const SUCCESS: c_int = 0;
const FAILURE: c_int = -1;
/// `ZEND_INI_STAGE_STARTUP`: php.ini and `-d`, while the module starts.
const STAGE_STARTUP: c_int = 1;
/// syslog's `LOG_WARNING`, the severity of the deferred warnings.
const LOG_WARNING: c_int = 4;

unsafe extern "C" {
    /// `main/php.h` (`php_log_err` is a macro over it); exported by every PHP binary.
    fn php_log_err_with_severity(message: *const std::ffi::c_char, severity: c_int);
}

/// The parsed directives.
#[derive(Clone, Debug)]
pub struct Settings {
    pub volatile_size_mb: u64,
    pub pinned_size_mb: u64,
    /// Raw `static_cache.partition` (empty = derive it).
    pub partition: String,
    pub enable_cli: bool,
    pub opt_in_sapis: Vec<String>,
    /// `None` for `auto`: chosen from the JIT configuration (§16.5).
    pub attribute_mode: Option<AttributeMode>,
}

impl Settings {
    /// The volatile and pinned sizes in bytes (`0`: disabled), as `info()->configured_memory` and
    /// `opcache_get_configuration()` report them.
    pub fn configured_bytes(&self) -> [u64; 2] {
        [self.volatile_size_mb, self.pinned_size_mb].map(|mb| mb.saturating_mul(MIB))
    }

    const DEFAULT: Settings = Settings {
        volatile_size_mb: MIN_SIZE_MB,
        pinned_size_mb: MIN_SIZE_MB,
        partition: String::new(),
        enable_cli: true,
        opt_in_sapis: Vec::new(),
        attribute_mode: None,
    };
}

static SETTINGS: Mutex<Settings> = Mutex::new(Settings::DEFAULT);

/// Warnings about values applied after startup, waiting for a request to log them from.
static DEFERRED: Mutex<Vec<String>> = Mutex::new(Vec::new());
static DEFERRED_PENDING: AtomicBool = AtomicBool::new(false);

pub fn settings() -> Settings {
    SETTINGS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Which directive an on_modify call is for (passed through `mh_arg1`).
#[derive(Clone, Copy)]
enum Directive {
    VolatileSize = 1,
    PinnedSize,
    Partition,
    EnableCli,
    OptInSapis,
    AttributeMode,
}

impl Directive {
    fn from_arg(arg: *mut c_void) -> Option<Self> {
        [
            Directive::VolatileSize,
            Directive::PinnedSize,
            Directive::Partition,
            Directive::EnableCli,
            Directive::OptInSapis,
            Directive::AttributeMode,
        ]
        .into_iter()
        .find(|d| *d as usize == arg as usize)
    }
}

const fn entry(name: &'static std::ffi::CStr, default: &'static std::ffi::CStr, d: Directive) -> IniEntryDef {
    IniEntryDef {
        on_modify: Some(on_modify),
        mh_arg1: d as usize as *mut c_void,
        ..IniEntryDef::new(name, default, IniEntryPermission::System)
    }
}

static ENTRIES: IniEntryDefs<7> = IniEntryDefs::new([
    entry(c"static_cache.volatile_size_mb", c"8", Directive::VolatileSize),
    entry(c"static_cache.pinned_size_mb", c"8", Directive::PinnedSize),
    entry(c"static_cache.partition", c"", Directive::Partition),
    entry(c"static_cache.enable_cli", c"1", Directive::EnableCli),
    entry(c"static_cache.opt_in_sapis", c"", Directive::OptInSapis),
    entry(c"static_cache.attribute_mode", c"auto", Directive::AttributeMode),
    IniEntryDef::end(),
]);

/// Registers the directives (MINIT); their handlers run immediately with the configured values.
pub fn register(module_number: i32) {
    IniEntryDef::register(ENTRIES.as_slice(), module_number);
}

unsafe extern "C" fn on_modify(
    _entry: *mut zend_ini_entry,
    new_value: *mut zend_string,
    mh_arg1: *mut c_void,
    _mh_arg2: *mut c_void,
    _mh_arg3: *mut c_void,
    stage: c_int,
) -> c_int {
    let outcome = catch_unwind(|| {
        let Some(directive) = Directive::from_arg(mh_arg1) else {
            return FAILURE;
        };
        let raw = if new_value.is_null() {
            String::new()
        } else {
            // SAFETY: the engine passes a live zend_string for the duration of the call.
            String::from_utf8_lossy(unsafe { zend::zstr_bytes(new_value) }).into_owned()
        };
        let warn = |text: String| {
            if stage == STAGE_STARTUP {
                zend::warning_plain(&text);
            } else {
                DEFERRED.lock().unwrap_or_else(|e| e.into_inner()).push(text);
                DEFERRED_PENDING.store(true, Ordering::Release);
            }
        };
        apply(directive, &raw, warn);
        SUCCESS
    });
    outcome.unwrap_or(FAILURE)
}

fn apply(directive: Directive, raw: &str, warn: impl Fn(String)) {
    // Parse (and warn) before taking the lock: the warning may reach an error handler.
    let update: Box<dyn FnOnce(&mut Settings)> = match directive {
        Directive::VolatileSize => {
            let v = parse_size("static_cache.volatile_size_mb", raw, &warn);
            Box::new(move |s| s.volatile_size_mb = v)
        }
        Directive::PinnedSize => {
            let v = parse_size("static_cache.pinned_size_mb", raw, &warn);
            Box::new(move |s| s.pinned_size_mb = v)
        }
        Directive::Partition => {
            let v = raw.trim().to_owned();
            Box::new(move |s| s.partition = v)
        }
        Directive::EnableCli => {
            let v = parse_bool(raw);
            Box::new(move |s| s.enable_cli = v)
        }
        Directive::OptInSapis => {
            let v: Vec<String> = raw.split(',').map(str::trim).filter(|x| !x.is_empty()).map(str::to_owned).collect();
            Box::new(move |s| s.opt_in_sapis = v)
        }
        Directive::AttributeMode => {
            let v = match raw.trim() {
                "auto" => None,
                "exact" => Some(AttributeMode::Exact),
                "deferred" => Some(AttributeMode::Deferred),
                // PHP's INI parser turns an unquoted `off` into an empty string.
                "off" | "" => Some(AttributeMode::Off),
                other => {
                    warn(format!(
                        r#"static_cache.attribute_mode must be "auto", "exact", "deferred" or "off" ("{other}" given); using "auto""#
                    ));
                    None
                }
            };
            Box::new(move |s| s.attribute_mode = v)
        }
    };
    update(&mut SETTINGS.lock().unwrap_or_else(|e| e.into_inner()));
}

/// A size in MiB: `0` disables, 1–7 is raised to 8, anything that is not a size falls back to 8.
fn parse_size(name: &str, raw: &str, warn: &impl Fn(String)) -> u64 {
    let text = raw.trim();
    match size_in_mib(text) {
        Some(v) if v == 0 || v >= MIN_SIZE_MB => v,
        Some(_) => {
            warn(format!("{name}={text} is below the minimum of {MIN_SIZE_MB}; using {MIN_SIZE_MB}"));
            MIN_SIZE_MB
        }
        None => {
            warn(format!(
                "{name}={text} is not a size (a whole number of MiB, or a quantity such as 64M or 1G); using {MIN_SIZE_MB}"
            ));
            MIN_SIZE_MB
        }
    }
}

/// A number of MiB, or PHP's quantity syntax as APCu users write it (`64M`, `1G`, `8192K`, suffixes
/// in either case; kilobytes rounded up to whole MiB).
fn size_in_mib(text: &str) -> Option<u64> {
    let (digits, unit) = match text.as_bytes().last()? {
        b'k' | b'K' => (&text[..text.len() - 1], 'K'),
        b'm' | b'M' => (&text[..text.len() - 1], 'M'),
        b'g' | b'G' => (&text[..text.len() - 1], 'G'),
        _ => (text, 'M'),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    match unit {
        'K' => Some(n.div_ceil(1024)),
        'G' => n.checked_mul(1024),
        _ => Some(n),
    }
}

/// Logs the warnings about values applied after startup (an FPM pool's `php_admin_value`), from
/// within a request, where PHP's error log reaches the operator.
pub fn log_deferred_warnings() {
    if !DEFERRED_PENDING.swap(false, Ordering::AcqRel) {
        return;
    }
    let warnings = std::mem::take(&mut *DEFERRED.lock().unwrap_or_else(|e| e.into_inner()));
    for text in warnings {
        let message = zend::message(format!("PHP Warning:  {text}").as_bytes());
        // SAFETY: during a request; a NUL-terminated message the function only reads.
        unsafe { php_log_err_with_severity(message.as_ptr(), LOG_WARNING) };
    }
}

/// `zend_ini_parse_bool`: "true"/"yes"/"on" (any case), otherwise a non-zero leading integer.
pub fn parse_bool(raw: &str) -> bool {
    let t = raw.trim();
    if ["true", "yes", "on"].iter().any(|w| t.eq_ignore_ascii_case(w)) {
        return true;
    }
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
    digits.parse::<i64>().map(|v| v != 0).unwrap_or(false)
}
