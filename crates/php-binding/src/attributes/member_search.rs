//! Finding the stored attribute state of a class that is not loaded (`delete(Class)` from a
//! maintenance script, §5.7): its blob, by its key, and its member entries, which share a prefix
//! (`plan::members_prefix`), by a walk of the backend's index. The walk visits every entry, so its
//! "no member entries of this class" answer is remembered per thread, tagged with the version of a
//! creation stamp: an internal entry stored again after every member entry that did not exist before.
//! Writers store the member, then the stamp; a search reads the stamp, then walks; so any member
//! created after the walk began moves the stamp and voids the remembered answer. A missing stamp
//! (never stored, cleared, evicted) is stored before the walk. (A member entry that vanishes between a
//! publisher's existence check and its store is re-created without a new stamp: a search completed
//! inside those microseconds may miss it until the next stamp.)
//!
//! "Neither blob nor member entries" is also remembered with the mutation epoch it was found at: it
//! holds while the epoch stays, and across epoch moves that were this thread's own writes of explicit
//! keys ([`note_explicit_write`]), which never create attribute state: a loop that sets and deletes an
//! ordinary key (every ordinary key that is a valid class name is a class selector for `delete`)
//! neither walks nor reads the stamp.

use foldhash::HashMap;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::LazyLock;

use shm_core::Backend;

use super::plan;
use crate::encoding::TAG_NULL;
use crate::runtime::Tier;

/// Remembered answers per thread before they are forgotten all at once.
const MAX_REMEMBERED: usize = 4096;

/// A remembered answer for one class in one backend.
#[derive(Clone, Copy)]
struct NoMembers {
    instance: u64,
    /// The stamp version at which no member entry was found.
    stamp: u64,
    /// The mutation epoch (read before the search) at which neither a member entry nor the blob was
    /// found, if the blob was not there either.
    empty_at: Option<u64>,
}

/// Epochs `from..=to` of backend `instance` were reached only by this thread's own writes of explicit
/// keys: attribute state absent at any of them is absent at `to`. Instance 0 (no backend has it): none.
#[derive(Clone, Copy)]
struct OwnMoves {
    instance: u64,
    from: u64,
    to: u64,
}

/// The last class of one tier found with neither blob nor member entries, its name inline: the answer
/// [`state_keys`] gives a loop deleting one class-like key, without hashing the name. A copy of that
/// class's `NONE_AT` answer (`empty_at` set), replaced whenever `state_keys` answers for that tier.
#[derive(Clone, Copy)]
struct LastEmpty {
    /// 0: none (no backend has instance 0).
    instance: u64,
    empty_at: u64,
    len: usize,
    name: [u8; LAST_EMPTY_NAME],
}

/// Longest class name [`LastEmpty`] holds.
const LAST_EMPTY_NAME: usize = 32;

/// What `state_keys` reads first, one thread-local access: the tier's own moves and last empty class.
#[derive(Clone, Copy)]
struct Fast {
    own: OwnMoves,
    last: LastEmpty,
}

thread_local! {
    /// Lower-case class → the remembered answer per tier.
    static NONE_AT: RefCell<HashMap<Vec<u8>, [Option<NoMembers>; 2]>> = RefCell::default();
    /// Per tier, the latest run of epochs moved only by this thread's explicit writes, and the last class
    /// found empty.
    static FAST: [Cell<Fast>; 2] = const {
        [const {
            Cell::new(Fast {
                own: OwnMoves { instance: 0, from: 0, to: 0 },
                last: LastEmpty { instance: 0, empty_at: 0, len: 0, name: [0; LAST_EMPTY_NAME] },
            })
        }; 2]
    };
}

/// The creation stamp's key, in the internal key space (not a class blob: class names never start
/// with NUL; not a member entry: those continue with the RFC prefix).
pub fn stamp_key(tier: Tier) -> &'static [u8] {
    // Built once (a delete of a class-like key asks for it on every call).
    static KEYS: LazyLock<[Vec<u8>; 2]> = LazyLock::new(|| {
        [Tier::Volatile, Tier::Pinned].map(|t| [plan::reserved_prefix(t), b"\0members-created"].concat())
    });
    &KEYS[tier.index()]
}

/// After the store of a member entry that did not exist before.
pub fn note_created(tier: Tier, backend: &Backend) {
    let key = stamp_key(tier);
    if backend.store(key, TAG_NULL, &[], 0).is_err() {
        // A stamp that cannot move must not vouch for old answers.
        backend.delete(key);
    }
}

/// Whether some thread of the process remembered a "neither blob nor member entries" answer: until
/// then no write needs noting (a write not noted ends a run of own moves, which is always safe), so a
/// store loop pays one load for this.
static OWN_WRITES_WANTED: AtomicBool = AtomicBool::new(false);

/// Whether writes of explicit keys should be reported to [`note_explicit_write`].
#[inline]
pub fn own_writes_wanted() -> bool {
    OWN_WRITES_WANTED.load(Ordering::Relaxed)
}

/// After a write of an explicit key (a store, or a delete) that moved the epoch at least once
/// (shm-core: a successful store, or a delete that removed an entry): `before` was read before the
/// write began, `after` once it ended. When the epoch moved exactly once, that move was this write's,
/// and it created no attribute state (explicit keys are never internal keys).
pub fn note_explicit_write(tier: Tier, backend: &Backend, before: u64, after: u64) {
    if after != before.wrapping_add(1) {
        return;
    }
    let instance = backend.instance_id();
    FAST.with(|fast| {
        let cell = &fast[tier.index()];
        let mut f = cell.get();
        f.own = if f.own.instance == instance && f.own.to == before {
            OwnMoves { to: after, ..f.own }
        } else {
            OwnMoves { instance, from: before, to: after }
        };
        cell.set(f);
    });
}

/// Whether state found absent at epoch `then` is still absent at epoch `now` of backend `instance`,
/// given the tier's run of own moves `own`.
fn still_absent(own: OwnMoves, instance: u64, then: u64, now: u64) -> bool {
    then == now || (own.instance == instance && own.to == now && (own.from..=own.to).contains(&then))
}

/// Keys of the stored attribute state of class `lcclass`: its blob (when the index holds it) and its
/// member entries.
pub fn state_keys(tier: Tier, backend: &Backend, lcclass: &[u8]) -> Vec<Vec<u8>> {
    // The epoch is read before the blob, the stamp and the walk: an answer found after it holds while
    // the epoch stays.
    let (instance, epoch) = (backend.instance_id(), backend.epoch());
    let fast = FAST.with(|fast| fast[tier.index()].get());
    let last = fast.last;
    if last.instance == instance
        && last.name.get(..last.len) == Some(lcclass)
        && still_absent(fast.own, instance, last.empty_at, epoch)
    {
        return Vec::new();
    }
    let remembered =
        NONE_AT.with_borrow(|m| m.get(lcclass).and_then(|r| r[tier.index()])).filter(|r| r.instance == instance);
    if let Some(then) =
        remembered.and_then(|r| r.empty_at).filter(|&then| still_absent(fast.own, instance, then, epoch))
    {
        remember_last(tier, instance, lcclass, Some(then));
        return Vec::new();
    }
    let blob = plan::blob_key(tier, lcclass);
    let blob_held = backend.holds(&blob);
    let stamp = stamp_version(tier, backend);
    let mut keys = match stamp {
        Some(s) if remembered.is_some_and(|r| r.stamp == s) => Vec::new(),
        _ => stored_keys(backend, &plan::members_prefix(tier, lcclass)),
    };
    let empty_at = (keys.is_empty() && !blob_held).then_some(epoch);
    if empty_at.is_some() && !own_writes_wanted() {
        OWN_WRITES_WANTED.store(true, Ordering::Relaxed);
    }
    let answer = stamp.filter(|_| keys.is_empty()).map(|stamp| NoMembers { instance, stamp, empty_at });
    remember_last(tier, instance, lcclass, answer.and_then(|a| a.empty_at));
    NONE_AT.with_borrow_mut(|m| match m.get_mut(lcclass) {
        Some(r) => r[tier.index()] = answer,
        None if answer.is_some() => {
            if m.len() >= MAX_REMEMBERED {
                m.clear();
            }
            let mut r = [None; 2];
            r[tier.index()] = answer;
            m.insert(lcclass.to_vec(), r);
        }
        None => {}
    });
    if blob_held {
        keys.push(blob);
    }
    keys
}

/// Records `state_keys`' latest answer for `lcclass` in the tier's [`LastEmpty`]: that class, found empty
/// at `empty_at`, or (`None`) no class.
fn remember_last(tier: Tier, instance: u64, lcclass: &[u8], empty_at: Option<u64>) {
    FAST.with(|fast| {
        let cell = &fast[tier.index()];
        let mut f = cell.get();
        f.last.instance = 0;
        if let (Some(empty_at), Some(name)) = (empty_at, f.last.name.get_mut(..lcclass.len())) {
            name.copy_from_slice(lcclass);
            f.last = LastEmpty { instance, empty_at, len: lcclass.len(), ..f.last };
        }
        cell.set(f);
    });
}

/// The stamp's current version, storing it first when missing; `None` when it cannot be stored.
fn stamp_version(tier: Tier, backend: &Backend) -> Option<u64> {
    let key = stamp_key(tier);
    if let Some(version) = backend.version_of(key) {
        return Some(version);
    }
    backend.store(key, TAG_NULL, &[], 0).ok()?;
    backend.version_of(key)
}

/// Keys of the live entries starting with `prefix`. A walk that cannot proceed (the backend's lock
/// is unusable) stops where it is.
fn stored_keys(backend: &Backend, prefix: &[u8]) -> Vec<Vec<u8>> {
    let mut keys = Vec::new();
    let mut cursor = 0;
    loop {
        let (found, next) = backend.scan(cursor, prefix, 1024);
        let stuck = found.is_empty() && next == Some(cursor);
        keys.extend(found.into_iter().map(|e| e.key));
        match next {
            Some(c) if !stuck => cursor = c,
            _ => return keys,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamp_keys_are_per_tier_and_no_member_key_can_have_them() {
        assert_ne!(stamp_key(Tier::Volatile), stamp_key(Tier::Pinned));
        for tier in [Tier::Volatile, Tier::Pinned] {
            assert!(!stamp_key(tier).starts_with(&plan::members_prefix(tier, b"")));
        }
    }
}
