//! Finding the member entries of a class that is not loaded (`delete(Class)` from a maintenance
//! script, §5.7): a class's member keys share a prefix (`plan::members_prefix`), so a walk of the
//! backend's index finds them. The walk visits every entry, so its "no member entries of this class"
//! answer is remembered per thread, tagged with the version of a creation stamp: an internal entry
//! stored again after every member entry that did not exist before. Writers store the member, then
//! the stamp; a search reads the stamp, then walks; so any member created after the walk began moves
//! the stamp and voids the remembered answer. A missing stamp (never stored, cleared, evicted) is
//! stored before the walk. (A member entry that vanishes between a publisher's existence check and
//! its store is re-created without a new stamp: a search completed inside those microseconds may
//! miss it until the next stamp.)

use foldhash::HashMap;
use std::cell::RefCell;
use std::sync::LazyLock;

use shm_core::Backend;

use super::plan;
use crate::encoding::TAG_NULL;
use crate::runtime::Tier;

/// Remembered answers per thread before they are forgotten all at once.
const MAX_REMEMBERED: usize = 4096;

/// A remembered "no member entry" answer for one class in one backend.
#[derive(Clone, Copy)]
struct NoMembers {
    instance: u64,
    /// The stamp version the answer was found at.
    stamp: u64,
    /// The last mutation epoch the answer was confirmed at: while the epoch has not moved, nothing was
    /// stored anywhere, so not even the stamp needs reading.
    epoch: u64,
}

thread_local! {
    /// Lower-case class → the remembered answer per tier.
    static NONE_AT: RefCell<HashMap<Vec<u8>, [Option<NoMembers>; 2]>> = RefCell::default();
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

/// Keys of the member entries stored for class `lcclass`.
pub fn member_keys(tier: Tier, backend: &Backend, lcclass: &[u8]) -> Vec<Vec<u8>> {
    // The epoch is read before the stamp: an answer confirmed after it holds while the epoch stays.
    let (instance, epoch) = (backend.instance_id(), backend.epoch());
    let remembered =
        NONE_AT.with_borrow(|m| m.get(lcclass).and_then(|r| r[tier.index()])).filter(|r| r.instance == instance);
    if remembered.is_some_and(|r| r.epoch == epoch) {
        return Vec::new();
    }
    let stamp = stamp_version(tier, backend);
    let keys = match stamp {
        Some(s) if remembered.is_some_and(|r| r.stamp == s) => Vec::new(),
        _ => stored_keys(backend, &plan::members_prefix(tier, lcclass)),
    };
    let answer = stamp.filter(|_| keys.is_empty()).map(|stamp| NoMembers { instance, stamp, epoch });
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
    keys
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
