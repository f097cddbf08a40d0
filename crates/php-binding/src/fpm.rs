//! php-fpm: one partition per pool (spec §14.3), in a named segment that only the pool's own workers of
//! the running master generation can find and use. The threat model is in the README's php-fpm section;
//! the names and their derivation are in docs/LAYOUT.md.
//!
//! * **Pool identity** comes from php-fpm itself: the pool's FastCGI listening socket (its kernel inode),
//!   which every worker of the pool holds and no other pool does, plus the worker's process title. The
//!   partition's name (`static_cache.partition`, else the pool name in the title) never picks a segment;
//!   it belongs to the first pool that attaches under it, and other pools resolving to it are refused
//!   (a claim: [`claim_partition`]).
//! * **Names** derive from a secret of the master generation: the 16 random bytes the kernel gave the
//!   php-fpm master at exec (`AT_RANDOM`). Every worker holds a copy, in both loading styles, as a fork
//!   of the master; a reload re-executes the master and so starts a new generation. Other users cannot
//!   know a name before its object exists, and a segment of this user made for another generation or
//!   pool fails the binding check. Objects are created and opened by `shm_core::named` (this user's
//!   0600 regular file or nothing).
//! * **Liveness** is a presence lock (`shm_core::presence`), never a process id. Loaded with
//!   `extension=`, MINIT runs in the master before it forks: the generation's lock descriptor is shared
//!   by the master and every worker, so it is held until the last of them exits, and the one that finds
//!   it vacant at exit (normally the master, which waits for its workers) removes the generation's
//!   objects. Loaded per pool (`php_admin_value[extension]`), MINIT runs in each worker and nothing of
//!   ours runs in the master: every worker holds its pool's lock, and the pool's [`keeper`] holds it for
//!   the master. Whatever a killed master leaves behind is removed by the next master or pool start
//!   that finds it vacant.

use std::collections::{BTreeMap, BTreeSet};
use std::os::fd::{AsRawFd, IntoRawFd};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

use sha2::{Digest, Sha256};
use shm_core::named;
use shm_core::{presence, PartitionSpec, PresenceLock, ProcStat, Segment, SegmentError, Vacancy};

use crate::zend;

mod keeper;
mod relay;

const PREFIX: &str = "static_cache.";
const LOCK_SUFFIX: &str = ".lock";
const CLAIM_SUFFIX: &str = ".claim";
const TITLE_PREFIX: &[u8] = b"php-fpm: pool ";
/// Hex digits of a generation id (64 bits).
const ID_HEX: usize = 16;
/// Hex digits of a pool's part of a name: its socket tag (32 bits, public) and its secret part (64 bits).
const SOCKET_HEX: usize = 8;
const POOL_HEX: usize = SOCKET_HEX + 16;

/// The master generation: its secret and its public id.
struct Generation {
    secret: [u8; 16],
    id: String,
}

impl Generation {
    /// The generation of the php-fpm master this process was forked from (or is).
    fn of_master() -> Result<Generation, String> {
        // SAFETY: getauxval has no preconditions.
        let at = unsafe { libc::getauxval(libc::AT_RANDOM) } as *const u8;
        if at.is_null() {
            return Err("the kernel gave this process no AT_RANDOM bytes".to_owned());
        }
        let mut secret = [0u8; 16];
        // SAFETY: AT_RANDOM points at 16 bytes on the initial stack of the program image (copied into
        // this process by fork), mapped for the whole life of the process and never written after exec.
        unsafe { std::ptr::copy_nonoverlapping(at, secret.as_mut_ptr(), 16) };
        Ok(Generation::from_secret(secret))
    }

    fn from_secret(secret: [u8; 16]) -> Generation {
        let id = hex(&sha256(&[b"generation\0", &secret])[..ID_HEX / 2]);
        Generation { secret, id }
    }

    fn lock_name(&self) -> String {
        format!("{PREFIX}{}{LOCK_SUFFIX}", self.id)
    }

    /// `static_cache.<generation>.<socket tag><pool>`: the socket tag lets the pool's next generation
    /// (after a reload, which keeps the listening sockets) find this one; the rest only this generation
    /// can compute.
    fn segment_name(&self, pool: &PoolIdentity) -> String {
        let secret = sha256(&[b"pool\0", &self.secret, &pool.socket.to_le_bytes(), &pool.title]);
        format!("{PREFIX}{}.{}{}", self.id, pool.socket_tag(), hex(&secret[..(POOL_HEX - SOCKET_HEX) / 2]))
    }

    /// `static_cache.<generation>.<partition hash>.claim`: who owns a partition name (spec §14.3 item 4).
    fn claim_name(&self, partition: &str) -> String {
        let d = sha256(&[b"partition\0", &self.secret, partition.as_bytes()]);
        format!("{PREFIX}{}.{}{CLAIM_SUFFIX}", self.id, hex(&d[..POOL_HEX / 2]))
    }

    fn pool_lock_name(&self, pool: &PoolIdentity) -> String {
        self.segment_name(pool) + LOCK_SUFFIX
    }

    /// The word a pool's segment carries: a segment of this user made for another generation or pool
    /// (at a name it could only have by accident or by design) is refused.
    fn binding(&self, pool: &PoolIdentity) -> u64 {
        let d = sha256(&[b"binding\0", &self.secret, &pool.socket.to_le_bytes(), &pool.title]);
        u64::from_le_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]])
    }
}

fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What tells one pool of a master from another.
#[derive(Clone)]
struct PoolIdentity {
    /// Inode of the pool's listening socket.
    socket: u64,
    /// The worker's process title, as FPM set it (possibly truncated).
    title: Vec<u8>,
}

impl PoolIdentity {
    /// During a request: the socket php-fpm accepts this worker's requests on.
    fn of_request() -> Result<PoolIdentity, String> {
        Ok(PoolIdentity { socket: request_socket()?, title: process_title("self").unwrap_or_default() })
    }

    /// While php-fpm sets a worker up (a per-pool `extension=` runs MINIT then): the pool's socket is the
    /// listening socket held through the most descriptors, the master's and the worker's own duplicate
    /// (FPM closes the master's descriptors of every pool's socket before the first request).
    fn of_worker_setup() -> Result<PoolIdentity, String> {
        let sockets = listening_sockets();
        let most = sockets.values().copied().max().unwrap_or(0);
        let top: Vec<u64> = sockets.iter().filter(|(_, &n)| n == most).map(|(&ino, _)| ino).collect();
        let socket = match top.as_slice() {
            [ino] => *ino,
            [] => return Err(format!("{UNKNOWN_POOL}: it holds no listening socket")),
            many => return Err(format!("{UNKNOWN_POOL}: it holds {} listening sockets alike", many.len())),
        };
        Ok(PoolIdentity { socket, title: process_title("self").unwrap_or_default() })
    }

    fn socket_tag(&self) -> String {
        hex(&sha256(&[b"socket\0", &self.socket.to_le_bytes()])[..SOCKET_HEX / 2])
    }
}

/// Listening sockets this process holds: inode → number of descriptors.
fn listening_sockets() -> BTreeMap<u64, usize> {
    let mut found = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir("/proc/self/fd") else { return found };
    for fd in dir.flatten().filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<i32>().ok())) {
        if let Some(ino) = listening_inode(fd) {
            *found.entry(ino).or_insert(0) += 1;
        }
    }
    found
}

/// The inode of `fd` if it is a listening socket.
fn listening_inode(fd: libc::c_int) -> Option<u64> {
    // SAFETY: an all-zero stat is a valid out-parameter.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: fstat only writes `st`; an invalid or closed descriptor just fails.
    if unsafe { libc::fstat(fd, &mut st) } != 0 || st.st_mode & libc::S_IFMT != libc::S_IFSOCK {
        return None;
    }
    let mut listening: libc::c_int = 0;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: fd is a socket; the option value is an int of `len` bytes.
    let ok =
        unsafe { libc::getsockopt(fd, libc::SOL_SOCKET, libc::SO_ACCEPTCONN, (&raw mut listening).cast(), &mut len) }
            == 0;
    (ok && listening != 0).then_some(st.st_ino)
}

const UNKNOWN_POOL: &str = "Unable to determine the FPM pool of this worker";

/// The inode of the listening socket php-fpm accepts the current request on. During a request
/// `SG(server_context)` is php-fpm's `fcgi_request`, whose first field is that descriptor (`main/fastcgi.c`,
/// unchanged since PHP 5.4).
fn request_socket() -> Result<u64, String> {
    let context = zend::sapi_server_context();
    if context.is_null() {
        return Err(format!("{UNKNOWN_POOL}: no FastCGI request"));
    }
    // SAFETY: under the fpm-fcgi SAPI a non-null server context during a request is php-fpm's
    // fcgi_request, which starts with the int descriptor of its listening socket.
    let fd = unsafe { *(context as *const libc::c_int) };
    listening_inode(fd).ok_or_else(|| format!("{UNKNOWN_POOL}: descriptor {fd} is not its FastCGI listening socket"))
}

/// The first string of `/proc/PROCESS/cmdline` (`PROCESS`: a pid, or `self`): FPM writes a worker's
/// title (`php-fpm: pool NAME`) there.
fn process_title(process: &str) -> Option<Vec<u8>> {
    let cmdline = std::fs::read(format!("/proc/{process}/cmdline")).ok()?;
    cmdline.split(|&b| b == 0).next().map(<[u8]>::to_vec)
}

/// The pool this worker serves, from its process title `php-fpm: pool NAME` (FPM truncates titles that
/// do not fit its command line and environment: the label, not the partition, is then cut short).
pub fn pool_name() -> Option<String> {
    pool_name_of("self")
}

/// [`pool_name`] of another process (`PROCESS` as in [`process_title`]): the relay checks a sender's
/// claim with the very reading the sender made of its own title.
fn pool_name_of(process: &str) -> Option<String> {
    let title = process_title(process)?;
    let name = title.strip_prefix(TITLE_PREFIX)?;
    let name = String::from_utf8_lossy(name).trim().to_owned();
    (!name.is_empty()).then_some(name)
}

/// This process's part in the liveness of its objects.
enum Membership {
    /// Loaded with `extension=`: one descriptor of the generation's lock, taken by the master before
    /// forking and shared with every worker.
    Generation(PresenceLock),
    /// Loaded per pool: this worker's own hold on its pool's lock (released when the worker exits).
    Pool { _lock: PresenceLock, identity: PoolIdentity },
}

struct Fpm {
    generation: Generation,
    /// Why the pools of this process cannot have a partition, if startup failed.
    membership: Result<Membership, String>,
}

static FPM: Mutex<Option<Fpm>> = Mutex::new(None);

/// MINIT under php-fpm: in the master (`extension=`) or in a worker (per-pool `php_admin_value`).
/// Failures are kept and become each pool's `failure_reason` at attach.
pub fn startup() {
    let fpm = match Generation::of_master() {
        Ok(generation) => {
            let membership =
                if zend::loaded_after_startup() { join_pool(&generation) } else { join_generation(&generation) };
            Fpm { generation, membership }
        }
        Err(e) => Fpm { generation: Generation::from_secret([0; 16]), membership: Err(e) },
    };
    let generation_wide = matches!(fpm.membership, Ok(Membership::Generation(_)));
    *FPM.lock().unwrap_or_else(|e| e.into_inner()) = Some(fpm);
    if generation_wide {
        relay::start();
        static AT_EXIT: std::sync::Once = std::sync::Once::new();
        // SAFETY: registering a plain extern "C" function (it runs at exit, or at dlclose of the module in
        // a worker).
        AT_EXIT.call_once(|| unsafe {
            libc::atexit(leave_generation);
        });
    }
}

fn join_generation(generation: &Generation) -> Result<Membership, String> {
    let name = generation.lock_name();
    let (lock, _) = PresenceLock::join(&name).map_err(|e| format!("{}/{name}: {e}", named::SHM_DIR))?;
    hold_for_the_master(&name);
    remove_vacant_scopes(&generation.id);
    Ok(Membership::Generation(lock))
}

/// The master's own hold on its generation's lock (a descriptor of its own, -1 when none), which no
/// worker has: every child closes it as it is forked. The lock every worker inherits is one open file
/// description shared with the master, and `flock(LOCK_UN)` on it (native code in any pool's worker: FFI,
/// an extension) drops it for all its holders; the generation would then look vacant to the next
/// php-fpm start (`php-fpm -t` included), which would remove every pool's objects under the workers
/// still using them. With this hold it stays in use while the master lives.
static MASTER_HOLD: AtomicI32 = AtomicI32::new(-1);

fn hold_for_the_master(lock_name: &str) {
    let Ok(fd) = named::open_private(lock_name) else { return };
    // SAFETY: fd is open; flock has no memory effects.
    if unsafe { libc::flock(fd.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) } != 0 {
        return;
    }
    MASTER_HOLD.store(fd.into_raw_fd(), Ordering::Relaxed);
    static AT_FORK: std::sync::Once = std::sync::Once::new();
    // SAFETY: registers a plain extern "C" handler that only swaps an atomic and calls close.
    AT_FORK.call_once(|| unsafe {
        libc::pthread_atfork(None, None, Some(release_master_hold));
    });
}

/// In every child of the master as it is forked (and in the master as it leaves): closes the master's
/// own hold.
extern "C" fn release_master_hold() {
    let fd = MASTER_HOLD.swap(-1, Ordering::Relaxed);
    if fd >= 0 {
        // SAFETY: fd is the master's hold, opened by hold_for_the_master and used by nothing else.
        unsafe { libc::close(fd) };
    }
}

/// A worker of a pool that loads the extension itself. The pool's first worker of this generation also
/// removes the pool's previous generation (a reload) and cleans up after masters that are gone; it, or a
/// later worker that finds the keeper gone, starts the pool's keeper.
fn join_pool(generation: &Generation) -> Result<Membership, String> {
    let identity = PoolIdentity::of_worker_setup()?;
    let lock_name = generation.pool_lock_name(&identity);
    let (lock, created) = PresenceLock::join(&lock_name).map_err(|e| format!("{}/{lock_name}: {e}", named::SHM_DIR))?;
    if created {
        let master = master_record();
        if let Some(record) = &master {
            let _ = named::write_record(&lock_name, record);
        }
        remove_previous_generations(&generation.id, &identity.socket_tag(), master.as_deref());
        remove_vacant_scopes(&generation.id);
    }
    if created || !keeper::running(&lock_name) {
        let label = pool_name().unwrap_or_default();
        // Said once, by the pool's first worker (later ones try again in silence).
        if let (Err(e), true) = (keeper::spawn(&lock_name, &generation.segment_name(&identity), &label), created) {
            eprintln!(
                "static_cache: cannot start the keeper of pool \"{label}\" ({e}): its shared memory stays in {} \
                 after the master exits, until a later start removes it",
                named::SHM_DIR
            );
        }
    }
    Ok(Membership::Pool { _lock: lock, identity })
}

/// Logs to the FPM log why this worker's pool has no partition (spec §14.3 item 8), or why a setting of
/// the pool cannot apply (see [`relay`]).
pub fn log_failure(reason: &str) {
    relay::log(pool_name().as_deref(), reason);
}

/// Opens this worker's partition segment, creating it if this is the pool's first worker to attach.
/// The error is the `failure_reason` of §13.2.
pub fn attach(partition: &str, volatile_bytes: u64, pinned_bytes: u64) -> Result<Segment, String> {
    let guard = FPM.lock().unwrap_or_else(|e| e.into_inner());
    let unable =
        |e: &dyn std::fmt::Display| format!(r#"Unable to attach the shared memory of partition "{partition}": {e}"#);
    let fpm = guard.as_ref().ok_or_else(|| unable(&"php-fpm startup did not run"))?;
    let identity = match &fpm.membership {
        Err(e) => return Err(unable(e)),
        Ok(Membership::Generation(_)) => PoolIdentity::of_request()?,
        Ok(Membership::Pool { identity, .. }) => {
            // The socket taken at setup must be the one requests come from.
            if PoolIdentity::of_request()?.socket != identity.socket {
                return Err(format!("{UNKNOWN_POOL}: its requests do not come from the socket it was set up with"));
            }
            identity.clone()
        }
    };
    let name = fpm.generation.segment_name(&identity);
    let binding = fpm.generation.binding(&identity);
    let spec = PartitionSpec { name: partition.to_owned(), volatile_bytes, pinned_bytes };
    let at = |e: SegmentError| unable(&format!("{}/{name}: {e}", named::SHM_DIR));
    // The segment exists before the claim that names its pool part (readable by every user) does, so
    // nobody can learn a segment's name in time to plant an object there.
    let mut attempts = 0;
    let (segment, created) = loop {
        attempts += 1;
        match Segment::create_named(&name, std::slice::from_ref(&spec), binding) {
            Ok(s) => break (s, true),
            Err(SegmentError::Os(_, e)) if e.raw_os_error() == Some(libc::EEXIST) => {
                match Segment::open_named_when_ready(&name, binding) {
                    Ok(s) => break (s, false),
                    // Gone between the two calls: the worker of this pool that created it lost the partition
                    // claim and removed it again (below), could not allocate it, or died before formatting it
                    // (removed by the opener that found it so). Start over as the first to attach, so this
                    // worker reports that reason too, not the vanished file.
                    Err(SegmentError::Os(_, e)) if e.raw_os_error() == Some(libc::ENOENT) && attempts < 4 => {}
                    Err(e) => return Err(at(e)),
                }
            }
            Err(e) => return Err(at(e)),
        }
    };
    if let Err(e) = claim_partition(&fpm.generation, partition, &name) {
        if created {
            let _ = named::unlink(&name);
        }
        return Err(match e {
            ClaimError::Taken(reason) => reason,
            ClaimError::Other(e) => unable(&e),
        });
    }
    Ok(segment)
}

enum ClaimError {
    /// The partition name belongs to another pool: the `failure_reason` itself.
    Taken(String),
    /// Something else is at the claim's name.
    Other(String),
}

/// One pool per partition name (spec §14.3 item 4): the first pool of the generation to attach under a
/// partition name records itself as its owner, in a claim every pool's user can read; a worker of any
/// other pool resolving to that name is refused. The owner is the pool's identity (its segment's name:
/// listening socket and title), never its name; the name in the claim is only for the message. The one
/// exception: pools whose partition name is their own name from a truncated title (they did not set
/// `static_cache.partition`; FPM cut their titles to the same text) keep separate partitions.
fn claim_partition(generation: &Generation, partition: &str, segment: &str) -> Result<(), ClaimError> {
    let owner = &segment[segment.len() - POOL_HEX..];
    let label = pool_name().unwrap_or_default();
    let from_title = if label == partition { CLAIM_TITLE } else { CLAIM_SET };
    let claim = generation.claim_name(partition);
    let found = named::claim(&claim, &format!("{owner}{from_title}{label}")).map_err(|e| {
        let e = match e {
            SegmentError::Foreign { .. } => {
                "the object is not a partition claim (a symbolic link); it is not used".to_owned()
            }
            e => e.to_string(),
        };
        ClaimError::Other(format!("{}/{claim}: {e}", named::SHM_DIR))
    })?;
    let Some(record) = found else { return Ok(()) };
    let (holder, holder_from_title, holder_label) = parse_claim(&record).ok_or_else(|| {
        ClaimError::Other(format!("{}/{claim}: not a partition claim of this extension", named::SHM_DIR))
    })?;
    if holder == owner || (holder_from_title && from_title == CLAIM_TITLE) {
        return Ok(());
    }
    Err(ClaimError::Taken(format!(r#"Partition "{partition}" belongs to FPM pool "{holder_label}""#)))
}

/// A claim's record: the owner's pool part of its segment name, how the owner came to the partition name,
/// the owner's pool name (`<pool part>:t:<name>` when taken from its title, `<pool part>:s:<name>` when set).
const CLAIM_TITLE: &str = ":t:";
const CLAIM_SET: &str = ":s:";

fn parse_claim(record: &str) -> Option<(&str, bool, &str)> {
    let pool = record.get(..POOL_HEX)?;
    let rest = record.get(POOL_HEX..)?;
    let from_title = rest.starts_with(CLAIM_TITLE);
    let label = rest.strip_prefix(CLAIM_TITLE).or_else(|| rest.strip_prefix(CLAIM_SET))?;
    pool.bytes().all(|b| b.is_ascii_hexdigit()).then_some((pool, from_title, label))
}

/// At exit (or at dlclose of the module in a worker) of a process of a generation loaded with
/// `extension=`: leave it, and remove its objects if this process was the last one (normally the master,
/// which exits after its workers).
extern "C" fn leave_generation() {
    let _ = std::panic::catch_unwind(|| {
        let Some(fpm) = FPM.lock().unwrap_or_else(|e| e.into_inner()).take() else { return };
        release_master_hold();
        if let Ok(Membership::Generation(lock)) = fpm.membership {
            if let Some(vacancy) = lock.leave() {
                remove_objects(&fpm.generation.id, &vacancy);
                vacancy.remove();
            }
        }
    });
}

/// Removes the objects of generation `id` that its vacant lock covers (all, if root's), but the lock.
fn remove_objects(id: &str, vacancy: &Vacancy) {
    let lock = format!("{PREFIX}{id}{LOCK_SUFFIX}");
    for name in named::list(&format!("{PREFIX}{id}.")) {
        if name != lock && named::owner(&name).is_some_and(|uid| vacancy.covers(uid)) {
            let _ = named::unlink(&name);
        }
    }
}

/// `static_cache.<generation>.lock`, `static_cache.<generation>.<pool>` or
/// `static_cache.<generation>.<pool>.lock`: (generation, pool). Anything else is not ours to touch.
fn parse(name: &str) -> Option<(&str, Option<&str>)> {
    let rest = name.strip_prefix(PREFIX)?;
    let rest = rest.strip_suffix(LOCK_SUFFIX).unwrap_or(rest);
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    match rest.split_once('.') {
        None if hex(rest, ID_HEX) && name.ends_with(LOCK_SUFFIX) => Some((rest, None)),
        Some((g, p)) if hex(g, ID_HEX) && hex(p, POOL_HEX) => Some((g, Some(p))),
        _ => None,
    }
}

/// `static_cache.<generation>.<partition hash>.claim`: the generation.
fn parse_claim_name(name: &str) -> Option<&str> {
    let rest = name.strip_prefix(PREFIX)?.strip_suffix(CLAIM_SUFFIX)?;
    let (g, c) = rest.split_once('.')?;
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    (hex(g, ID_HEX) && hex(c, POOL_HEX)).then_some(g)
}

/// Removes the claims of partition names that the pool of `segment` (a segment's name) owns: its scope
/// is over. Called before the pool's lock is removed (a claim whose owner has no lock is an orphan).
pub(crate) fn remove_claims_of(segment: &str) {
    let Some((g, Some(pool))) = parse(segment) else { return };
    for name in named::list(&format!("{PREFIX}{g}.")) {
        if parse_claim_name(&name).is_some()
            && named::claim_record(&name).is_some_and(|r| parse_claim(&r).is_some_and(|(owner, ..)| owner == pool))
        {
            let _ = named::unlink(&name);
        }
    }
}

/// This worker's master, as recorded in its pool's lock: `master <pid> <start time> <pid namespace>`. A
/// reload re-executes the same process, so every generation of one master records the same; no other
/// live process has the same pid, start time and namespace.
fn master_record() -> Option<String> {
    // SAFETY: getppid has no preconditions; while php-fpm sets a worker up, its parent is its master.
    let pid = unsafe { libc::getppid() };
    let start: u64 = ProcStat::read(&pid.to_string())?.number(22)?;
    let namespace = std::fs::read_link("/proc/self/ns/pid").ok()?;
    Some(format!("master {pid} {start} {}", namespace.to_string_lossy()))
}

/// After a reload (the master re-executes itself once its workers are gone, keeping the listening
/// sockets) the previous generation is over: removes this user's per-pool objects of the earlier
/// generations of this master. Their keepers see their locks' names gone and exit. An earlier generation's
/// lock records this master (pools the reload dropped or moved to another socket included: no later
/// worker of theirs would remove them); a lock that records nothing (made by an earlier release) is
/// matched by the pool's socket, as before; a lock recording another master is another master's, whatever
/// its socket (socket inode numbers are reused once the kernel's counter wraps).
fn remove_previous_generations(own: &str, socket_tag: &str, master: Option<&str>) {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for name in named::list(PREFIX) {
        let Some((g, Some(pool))) = parse(&name) else { continue };
        if g == own || !name.ends_with(LOCK_SUFFIX) || named::owner(&name) != Some(me) {
            continue;
        }
        let earlier = match named::read_record(&name) {
            Some(record) if !record.is_empty() => master == Some(record.as_str()),
            _ => pool.starts_with(socket_tag),
        };
        if !earlier {
            continue;
        }
        let segment = format!("{PREFIX}{g}.{pool}");
        if named::owner(&segment) == Some(me) {
            let _ = named::unlink(&segment);
        }
        remove_claims_of(&segment);
        let _ = named::unlink(&name);
    }
}

/// Removes what masters and pools that are gone left in /dev/shm (a killed master; a SIGTERM stop,
/// which ends workers without running any code): the objects of every other generation whose lock no
/// process holds. Objects this process cannot probe (another user's) are left to their owner or root.
fn remove_vacant_scopes(own: &str) {
    let mut generations: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for name in named::list(PREFIX) {
        if let Some((g, pool)) = parse(&name).filter(|(g, _)| *g != own) {
            generations.entry(g.to_owned()).or_default().extend(pool.map(str::to_owned));
        }
    }
    for (g, pools) in generations {
        let lock = format!("{PREFIX}{g}{LOCK_SUFFIX}");
        if let Some(vacancy) = presence::probe(&lock) {
            remove_objects(&g, &vacancy);
            vacancy.remove();
            continue;
        }
        if named::exists(&lock) {
            continue;
        }
        // Loaded per pool (or a generation whose lock is gone): each pool on its own.
        for p in pools {
            let segment = format!("{PREFIX}{g}.{p}");
            let pool_lock = format!("{segment}{LOCK_SUFFIX}");
            if let Some(vacancy) = presence::probe(&pool_lock) {
                if named::owner(&segment).is_some_and(|uid| vacancy.covers(uid)) {
                    let _ = named::unlink(&segment);
                }
                vacancy.remove();
            } else if !named::exists(&pool_lock) && !named::exists(&lock) {
                // A lock is made before its scope's objects and removed after them: a segment without
                // one is an orphan.
                let _ = named::unlink(&segment);
            }
        }
    }
    // Claims of partition names whose owner's scope is gone (its generation's lock and its pool's lock).
    for name in named::list(PREFIX) {
        let Some(g) = parse_claim_name(&name).filter(|g| *g != own) else { continue };
        let Some(record) = named::claim_record(&name) else { continue };
        let Some((owner, ..)) = parse_claim(&record) else { continue };
        if !named::exists(&format!("{PREFIX}{g}{LOCK_SUFFIX}"))
            && !named::exists(&format!("{PREFIX}{g}.{owner}{LOCK_SUFFIX}"))
        {
            let _ = named::unlink(&name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_of_this_scheme_are_recognised() {
        let g = "0123456789abcdef";
        let p = "01234567fedcba9876543210";
        assert_eq!(parse(&format!("static_cache.{g}.lock")), Some((g, None)));
        assert_eq!(parse(&format!("static_cache.{g}.{p}")), Some((g, Some(p))));
        assert_eq!(parse(&format!("static_cache.{g}.{p}.lock")), Some((g, Some(p))));
        for other in [
            format!("static_cache.{g}"),
            format!("static_cache.{g}.{p}.x"),
            format!("static_cache.{g}.{}", &p[8..]),
            "static_cache.1234.0123456789abcdef.alpha".to_owned(),
            "static_cache.test.12.3.twomaps".to_owned(),
            format!("static_cache.{}.lock", g.to_uppercase()),
            format!("other.{g}.lock"),
        ] {
            assert_eq!(parse(&other), None, "{other}");
        }
    }

    #[test]
    fn names_differ_per_pool_and_per_generation() {
        let a = Generation::from_secret([1; 16]);
        let b = Generation::from_secret([2; 16]);
        let pool = |socket: u64, title: &str| PoolIdentity { socket, title: title.as_bytes().to_vec() };
        let alpha = pool(10, "php-fpm: pool alpha");
        assert_ne!(a.id, b.id);
        assert_ne!(a.segment_name(&alpha), a.segment_name(&pool(11, "php-fpm: pool alpha")));
        assert_ne!(a.segment_name(&alpha), a.segment_name(&pool(10, "php-fpm: pool beta")));
        assert_ne!(a.segment_name(&alpha), b.segment_name(&alpha));
        assert_ne!(a.binding(&alpha), b.binding(&alpha));
        assert_ne!(a.binding(&alpha), a.binding(&pool(11, "php-fpm: pool alpha")));
        let segment = a.segment_name(&alpha);
        assert_eq!(parse(&segment).map(|(g, _)| g), Some(a.id.as_str()));
        assert_eq!(parse(&a.pool_lock_name(&alpha)), parse(&segment));
        assert_eq!(parse(&a.lock_name()), Some((a.id.as_str(), None)));
        let claim = a.claim_name("shared");
        assert_eq!(parse(&claim), None);
        assert_eq!(parse_claim_name(&claim), Some(a.id.as_str()));
        assert_ne!(claim, a.claim_name("other"));
        assert_ne!(claim, b.claim_name("shared"));
        assert_eq!(parse_claim_name(&segment), None);
    }

    #[test]
    fn claim_records_name_their_owner() {
        let owner = "01234567fedcba9876543210";
        assert_eq!(parse_claim(&format!("{owner}:s:alpha")), Some((owner, false, "alpha")));
        assert_eq!(parse_claim(&format!("{owner}:t:customer_shop_prod")), Some((owner, true, "customer_shop_prod")));
        assert_eq!(parse_claim(&format!("{owner}:s:")), Some((owner, false, "")));
        for bad in ["", "alpha", "01234567fedcba98765432zz:s:alpha", "01234567fedcba9876543210:x:alpha"] {
            assert_eq!(parse_claim(bad), None, "{bad}");
        }
    }
}
