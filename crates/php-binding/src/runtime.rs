//! The process-wide state built at module startup: the availability decision of §13 per backend, the
//! partition name, the attribute mode (§16.5) and the shared-memory segment. Requests take a snapshot
//! (`Arc`) at RINIT; MSHUTDOWN drops it, so a module restart builds a fresh one.

use std::sync::{Arc, RwLock};

use shm_core::{Backend, BackendStats, PartitionSpec, Segment};

use crate::fpm;
use crate::ini::{self, Settings};
use crate::zend;

const DEFAULT_SAPIS: [&str; 5] = ["fpm-fcgi", "cli", "cli-server", "phpdbg", "frankenphp"];
const CLI_SAPIS: [&str; 2] = ["cli", "phpdbg"];
const DEFAULT_PARTITION: &str = "default";
const FPM_SAPI: &str = "fpm-fcgi";
const FORCE_FAILURE_ENV: &str = "STATIC_CACHE_FORCE_STARTUP_FAILURE";
const STARTUP_FAILURE: &str = "Unable to initialize shared memory backend";

/// Which of the two stores a call addresses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tier {
    Volatile,
    Pinned,
}

impl Tier {
    pub fn index(self) -> usize {
        self as usize
    }

    /// The backend's name in warnings (`Stored volatile cache value ...`).
    pub fn label(self) -> &'static str {
        match self {
            Tier::Volatile => "volatile cache",
            Tier::Pinned => "pinned cache",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AttributeMode {
    Exact,
    Deferred,
    Off,
}

impl AttributeMode {
    pub fn as_str(self) -> &'static str {
        match self {
            AttributeMode::Exact => "exact",
            AttributeMode::Deferred => "deferred",
            AttributeMode::Off => "off",
        }
    }
}

/// §13.2 state of one backend.
pub enum BackendState {
    /// Size 0.
    Disabled,
    Unavailable {
        reason: String,
        startup_failed: bool,
    },
    Ready {
        backend: Backend,
        model: &'static str,
    },
}

pub struct BackendSlot {
    pub configured_bytes: u64,
    pub state: BackendState,
}

impl BackendSlot {
    pub fn backend(&self) -> Option<&Backend> {
        match &self.state {
            BackendState::Ready { backend, .. } => Some(backend),
            _ => None,
        }
    }

    pub fn stats(&self) -> Option<BackendStats> {
        self.backend().map(Backend::stats)
    }
}

pub struct Runtime {
    slots: [BackendSlot; 2],
    /// The partition this process serves; empty when the configured name is invalid.
    pub partition: String,
    pub attribute_mode: AttributeMode,
    /// The attribute hooks module startup installs: the attribute mode, except under php-fpm (see
    /// [`fpm_hooks`]).
    pub hooks: Hooks,
    /// FPM master: the pool's segment is attached by each worker at its first request.
    fpm_pending: bool,
    /// Keeps the mapping alive for the backends above.
    _segment: Option<Segment>,
}

impl Runtime {
    pub fn slot(&self, tier: Tier) -> &BackendSlot {
        &self.slots[tier.index()]
    }

    pub fn backend(&self, tier: Tier) -> Option<&Backend> {
        self.slot(tier).backend()
    }

    /// Decides availability and creates the segment (MINIT). Under FPM the pool's settings are not in
    /// effect yet: MINIT only joins the generation or pool (`fpm::startup`), and each worker attaches
    /// at its first request.
    pub fn start(settings: &Settings) -> Runtime {
        let sapi = zend::sapi_name();
        if sapi == FPM_SAPI {
            fpm::startup();
            let mut pending = Runtime::build(settings, &sapi, None);
            pending.fpm_pending = true;
            pending.hooks = fpm_hooks(settings, &sapi);
            return pending;
        }
        Runtime::build(settings, &sapi, None)
    }

    /// An FPM worker's runtime, built at its first request, when the pool's `php_admin_value`s are in
    /// effect: its partition, in the pool's own segment. Its attribute mode is the pool's, within the
    /// `hooks` module startup installed: exact without exact mode's handlers is deferred (logged when
    /// the pool asked for exact by name).
    fn start_fpm_worker(settings: &Settings, hooks: &Hooks) -> Runtime {
        let mut runtime = Runtime::build(settings, FPM_SAPI, Some(fpm::pool_name()));
        if runtime.attribute_mode == AttributeMode::Exact && hooks.mode != AttributeMode::Exact {
            runtime.attribute_mode = AttributeMode::Deferred;
            if let (Some(AttributeMode::Exact), Some(why)) = (settings.attribute_mode, &hooks.without_exact) {
                fpm::log_failure(&format!(
                    r#"static_cache.attribute_mode=exact cannot apply to this pool ({why}); using "deferred""#
                ));
            }
        }
        runtime.hooks = hooks.clone();
        runtime
    }

    /// `fpm_pool`: `None` outside FPM workers; `Some(pool name if known)` in a worker.
    fn build(settings: &Settings, sapi: &str, fpm_pool: Option<Option<String>>) -> Runtime {
        let configured = settings.configured_bytes();
        let name = match (&fpm_pool, settings.partition.is_empty()) {
            (_, false) => settings.partition.clone(),
            (Some(Some(pool)), true) => pool.clone(),
            (Some(None), true) => String::new(),
            (None, true) => DEFAULT_PARTITION.to_owned(),
        };
        let partition_valid = valid_partition(&name);
        let pool_unknown = matches!(fpm_pool, Some(None)) && settings.partition.is_empty();
        let reason = unavailable_reason(settings, sapi, (!pool_unknown).then_some(name.as_str()));
        let (states, segment): ([BackendState; 2], Option<Segment>) = match reason {
            Some((reason, startup_failed)) => {
                if startup_failed && fpm_pool.is_some() {
                    fpm::log_failure(&reason);
                }
                (unavailable(configured, &reason, startup_failed), None)
            }
            None if configured == [0, 0] => ([BackendState::Disabled, BackendState::Disabled], None),
            None if fpm_pool.is_none() => create_segment(&name, configured),
            None => match fpm::attach(&name, configured[0], configured[1]) {
                Ok(segment) => ready(&name, configured, segment),
                Err(reason) => {
                    fpm::log_failure(&reason);
                    (unavailable(configured, &reason, true), None)
                }
            },
        };
        let [volatile, pinned] = states;
        let slots = [
            BackendSlot { configured_bytes: configured[0], state: volatile },
            BackendSlot { configured_bytes: configured[1], state: pinned },
        ];
        let any_ready = slots.iter().any(|s| s.backend().is_some());
        let attribute_mode = match settings.attribute_mode {
            _ if !any_ready => AttributeMode::Off,
            Some(chosen) => chosen,
            None if jit_configured(sapi) => AttributeMode::Deferred,
            None => AttributeMode::Exact,
        };
        Runtime {
            slots,
            partition: if partition_valid { name } else { String::new() },
            attribute_mode,
            hooks: Hooks { mode: attribute_mode, without_exact: None },
            fpm_pending: false,
            _segment: segment,
        }
    }
}

/// The attribute hooks php-fpm's module startup installs, for every pool. A pool's sizes and mode are
/// its `php_admin_value`s, in effect only from each worker's first request on, so php.ini's sizes and
/// `off` do not keep the hooks away (a pool may enable a backend php.ini disables, or choose a mode):
/// the deferred mode's observer is always there. Exact mode's handlers are installed when php.ini's
/// mode is exact (`auto` without the JIT, or `exact`), since they decide at startup whether OPcache
/// keeps its JIT. Loaded per pool with OPcache, never: OPcache's compiled scripts, where exact mode
/// puts its private opcodes, are shared by every pool of the master, and a pool that does not load the
/// extension has no handler for them (a crash).
fn fpm_hooks(settings: &Settings, sapi: &str) -> Hooks {
    const WITHOUT: &str = "php-fpm started without exact mode's handlers";
    let deferred = |why: String| Hooks { mode: AttributeMode::Deferred, without_exact: Some(why) };
    if zend::loaded_after_startup() && opcache_enabled(sapi) {
        return deferred(
            "loaded per pool with OPcache, whose compiled scripts pools without the extension run too".to_owned(),
        );
    }
    match settings.attribute_mode {
        None if jit_configured(sapi) => deferred(format!("{WITHOUT}: the JIT is configured")),
        None | Some(AttributeMode::Exact) => Hooks { mode: AttributeMode::Exact, without_exact: None },
        Some(other) => deferred(format!("{WITHOUT}: php.ini sets static_cache.attribute_mode={}", other.as_str())),
    }
}

/// The attribute hooks installed at module startup (`attributes::install_hooks`), and why exact mode's
/// handlers are not among them when they are not.
#[derive(Clone)]
pub struct Hooks {
    pub mode: AttributeMode,
    without_exact: Option<String>,
}

const UNKNOWN_POOL: &str =
    "Unable to determine the FPM pool of this worker (set static_cache.partition with php_admin_value)";

fn unavailable(configured: [u64; 2], reason: &str, startup_failed: bool) -> [BackendState; 2] {
    configured.map(|bytes| {
        if bytes == 0 {
            BackendState::Disabled
        } else {
            BackendState::Unavailable { reason: reason.to_owned(), startup_failed }
        }
    })
}

/// First matching reason of §13.2's precedence (size 0 is handled per backend by the caller).
/// `partition`: `None` for an FPM worker whose pool could not be told and that sets no partition.
fn unavailable_reason(settings: &Settings, sapi: &str, partition: Option<&str>) -> Option<(String, bool)> {
    let allowed = DEFAULT_SAPIS.contains(&sapi) || settings.opt_in_sapis.iter().any(|s| s == sapi);
    if !allowed {
        return Some((
            format!(r#"static_cache is not enabled for the "{sapi}" SAPI (add it to static_cache.opt_in_sapis)"#),
            false,
        ));
    }
    if CLI_SAPIS.contains(&sapi) && !settings.enable_cli {
        return Some(("static_cache is disabled for the CLI (static_cache.enable_cli=0)".to_owned(), false));
    }
    match partition {
        None => return Some((UNKNOWN_POOL.to_owned(), true)),
        Some(partition) if !valid_partition(partition) => {
            return Some((format!(r#"Invalid static_cache.partition value "{partition}""#), true));
        }
        Some(_) => {}
    }
    if std::env::var(FORCE_FAILURE_ENV).is_ok_and(|v| v == "1") {
        return Some((STARTUP_FAILURE.to_owned(), true));
    }
    None
}

fn create_segment(name: &str, configured: [u64; 2]) -> ([BackendState; 2], Option<Segment>) {
    let spec = PartitionSpec { name: name.to_owned(), volatile_bytes: configured[0], pinned_bytes: configured[1] };
    match Segment::create_anonymous(std::slice::from_ref(&spec)) {
        Ok(segment) => ready(name, configured, segment),
        // The OS's reason tells the operator what to change (`mmap: Cannot allocate memory`).
        Err(e) => (unavailable(configured, &format!("{STARTUP_FAILURE}: {e}"), true), None),
    }
}

/// The backends of partition `name` in `segment`.
fn ready(name: &str, configured: [u64; 2], segment: Segment) -> ([BackendState; 2], Option<Segment>) {
    let Some(partition) = segment.partition(name) else {
        return (unavailable(configured, STARTUP_FAILURE, true), None);
    };
    let model = segment.model().as_str();
    let state = |backend: Option<Backend>| match backend {
        Some(backend) => BackendState::Ready { backend, model },
        None => BackendState::Disabled,
    };
    ([state(partition.volatile), state(partition.pinned)], Some(segment))
}

/// 1–64 characters from `[A-Za-z0-9_.-]`.
fn valid_partition(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
}

/// OPcache's defaults for `opcache.jit` and `opcache.jit_buffer_size` (in bytes), for a setting the raw
/// configuration does not hold. PHP 8.4 made the JIT opt-in by `opcache.jit` alone: `disable` and a 64M
/// buffer, where 8.2 and 8.3 have `tracing` and no buffer.
#[cfg(php84)]
const JIT_DEFAULTS: (&str, u64) = ("disable", 64 << 20);
#[cfg(not(php84))]
const JIT_DEFAULTS: (&str, u64) = ("tracing", 0);

/// Whether OPcache's JIT is configured for this process, from raw configuration (OPcache registers
/// its INI entries only after extension MINITs) and OPcache's defaults: loaded, enabled for the SAPI, a
/// JIT buffer, and `opcache.jit` not `disable`.
fn jit_configured(sapi: &str) -> bool {
    if !opcache_enabled(sapi) {
        return false;
    }
    let (default_jit, default_buffer) = JIT_DEFAULTS;
    let buffer = zend::raw_config("opcache.jit_buffer_size").map_or(default_buffer, |v| leading_number(&v));
    let jit = zend::raw_config("opcache.jit").unwrap_or_else(|| default_jit.to_owned());
    buffer > 0 && !jit.trim().eq_ignore_ascii_case("disable")
}

/// Whether OPcache is loaded and enabled for this SAPI, from raw configuration.
fn opcache_enabled(sapi: &str) -> bool {
    let flag = |name: &str, default: bool| zend::raw_config(name).map_or(default, |v| ini::parse_bool(&v));
    zend::opcache_loaded()
        && flag("opcache.enable", true)
        && (!CLI_SAPIS.contains(&sapi) || flag("opcache.enable_cli", false))
}

fn leading_number(v: &str) -> u64 {
    let digits: String = v.trim().chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(0)
}

static CURRENT: RwLock<Option<Arc<Runtime>>> = RwLock::new(None);

pub fn install(runtime: Runtime) {
    *CURRENT.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(runtime));
}

pub fn uninstall() {
    CURRENT.write().unwrap_or_else(|e| e.into_inner()).take();
}

pub fn current() -> Option<Arc<Runtime>> {
    CURRENT.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The runtime a starting request uses. In an FPM worker the first request attaches the pool's
/// partition (once per worker process). Loading the extension per pool, php-fpm also calls RINIT right
/// after MINIT, outside any request and before the pool's later `php_admin_value`s are applied: that
/// call attaches nothing.
pub fn for_request() -> Option<Arc<Runtime>> {
    let runtime = current()?;
    if !runtime.fpm_pending || !zend::request_starting() {
        return Some(runtime);
    }
    install(Runtime::start_fpm_worker(&ini::settings(), &runtime.hooks));
    current()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_fpm_worker_of_unknown_pool_is_told_so_not_that_its_partition_is_invalid() {
        let settings = Settings {
            volatile_size_mb: 1,
            pinned_size_mb: 1,
            partition: String::new(),
            enable_cli: true,
            opt_in_sapis: Vec::new(),
            attribute_mode: None,
        };
        let (reason, startup_failed) = unavailable_reason(&settings, FPM_SAPI, None).unwrap();
        assert_eq!(reason, UNKNOWN_POOL);
        assert!(startup_failed);
        let (reason, _) = unavailable_reason(&settings, FPM_SAPI, Some("")).unwrap();
        assert_eq!(reason, r#"Invalid static_cache.partition value """#);
        assert!(unavailable_reason(&settings, FPM_SAPI, Some("www")).is_none());
    }
}
