//! The process-wide state built at module startup: the availability decision of §13 per backend, the
//! partition name, the attribute mode (§16.5) and the shared-memory segment. Requests take a snapshot
//! (`Arc`) at RINIT; MSHUTDOWN drops it, so a module restart builds a fresh one.

use std::sync::{Arc, RwLock};

use shm_core::{Backend, BackendStats, PartitionSpec, Segment};

use crate::ini::{self, Settings};
use crate::zend;

const MIB: u64 = 1 << 20;
const DEFAULT_SAPIS: [&str; 5] = ["fpm-fcgi", "cli", "cli-server", "phpdbg", "frankenphp"];
const CLI_SAPIS: [&str; 2] = ["cli", "phpdbg"];
const DEFAULT_PARTITION: &str = "default";
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
    Unavailable { reason: String, startup_failed: bool },
    Ready { backend: Backend, model: &'static str },
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

    /// Decides availability and creates the segment (MINIT).
    pub fn start(settings: &Settings) -> Runtime {
        let configured = [settings.volatile_size_mb.saturating_mul(MIB), settings.pinned_size_mb.saturating_mul(MIB)];
        let name = if settings.partition.is_empty() { DEFAULT_PARTITION.to_owned() } else { settings.partition.clone() };
        let partition_valid = valid_partition(&name);
        let sapi = zend::sapi_name();

        let (states, segment): ([BackendState; 2], Option<Segment>) = match unavailable_reason(settings, &sapi, &name) {
            Some((reason, startup_failed)) => (
                configured.map(|bytes| {
                    if bytes == 0 {
                        BackendState::Disabled
                    } else {
                        BackendState::Unavailable { reason: reason.clone(), startup_failed }
                    }
                }),
                None,
            ),
            None if configured == [0, 0] => ([BackendState::Disabled, BackendState::Disabled], None),
            None => create_segment(&name, configured),
        };
        let [volatile, pinned] = states;
        let slots = [
            BackendSlot { configured_bytes: configured[0], state: volatile },
            BackendSlot { configured_bytes: configured[1], state: pinned },
        ];
        let any_ready = slots.iter().any(|s| s.backend().is_some());
        let attribute_mode = if !any_ready {
            AttributeMode::Off
        } else if settings.attribute_mode_deferred || jit_configured(&sapi) {
            AttributeMode::Deferred
        } else {
            AttributeMode::Exact
        };
        Runtime {
            slots,
            partition: if partition_valid { name } else { String::new() },
            attribute_mode,
            _segment: segment,
        }
    }
}

/// First matching reason of §13.2's precedence (size 0 is handled per backend by the caller).
fn unavailable_reason(settings: &Settings, sapi: &str, partition: &str) -> Option<(String, bool)> {
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
    if !valid_partition(partition) {
        return Some((format!(r#"Invalid static_cache.partition value "{partition}""#), true));
    }
    if std::env::var(FORCE_FAILURE_ENV).is_ok_and(|v| v == "1") {
        return Some((STARTUP_FAILURE.to_owned(), true));
    }
    None
}

fn create_segment(name: &str, configured: [u64; 2]) -> ([BackendState; 2], Option<Segment>) {
    let spec = PartitionSpec { name: name.to_owned(), volatile_bytes: configured[0], pinned_bytes: configured[1] };
    let created = Segment::create_anonymous(std::slice::from_ref(&spec))
        .ok()
        .and_then(|seg| seg.partition(name).map(|p| (p, seg)));
    let Some((partition, segment)) = created else {
        let failed = |bytes: u64| {
            if bytes == 0 {
                BackendState::Disabled
            } else {
                BackendState::Unavailable { reason: STARTUP_FAILURE.to_owned(), startup_failed: true }
            }
        };
        return ([failed(configured[0]), failed(configured[1])], None);
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

/// Whether OPcache's JIT is configured for this process, from raw configuration (OPcache registers
/// its INI entries only after extension MINITs): loaded, enabled for the SAPI, a JIT buffer, and
/// `opcache.jit` not `disable`.
fn jit_configured(sapi: &str) -> bool {
    if !zend::opcache_loaded() {
        return false;
    }
    let flag = |name: &str, default: bool| zend::raw_config(name).map_or(default, |v| ini::parse_bool(&v));
    let enabled = flag("opcache.enable", true) && (!CLI_SAPIS.contains(&sapi) || flag("opcache.enable_cli", false));
    let buffer = zend::raw_config("opcache.jit_buffer_size").map_or(0, |v| leading_number(&v));
    let jit = zend::raw_config("opcache.jit").unwrap_or_else(|| "tracing".to_owned());
    enabled && buffer > 0 && !jit.trim().eq_ignore_ascii_case("disable")
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
