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

use std::cell::RefCell;
use std::collections::HashMap;

use shm_core::Backend;

use super::plan;
use crate::encoding::TAG_NULL;
use crate::runtime::Tier;

/// Remembered answers per thread before they are forgotten all at once.
const MAX_REMEMBERED: usize = 4096;

thread_local! {
    /// (backend instance, lower-case class) → stamp version at which the class had no member entry.
    static NONE_AT: RefCell<HashMap<(u64, Vec<u8>), u64>> = RefCell::default();
}

/// The creation stamp's key, in the internal key space (not a class blob: class names never start
/// with NUL; not a member entry: those continue with the RFC prefix).
pub fn stamp_key(tier: Tier) -> Vec<u8> {
    [plan::reserved_prefix(tier), b"\0members-created"].concat()
}

/// After the store of a member entry that did not exist before.
pub fn note_created(tier: Tier, backend: &Backend) {
    let key = stamp_key(tier);
    if backend.store(&key, TAG_NULL, &[], 0).is_err() {
        // A stamp that cannot move must not vouch for old answers.
        backend.delete(&key);
    }
}

/// Keys of the member entries stored for class `lcclass`.
pub fn member_keys(tier: Tier, backend: &Backend, lcclass: &[u8]) -> Vec<Vec<u8>> {
    let stamp = stamp_version(tier, backend);
    let id = (backend.instance_id(), lcclass.to_vec());
    if stamp.is_some() && NONE_AT.with_borrow(|m| m.get(&id).copied()) == stamp {
        return Vec::new();
    }
    let keys = stored_keys(backend, &plan::members_prefix(tier, lcclass));
    NONE_AT.with_borrow_mut(|m| match stamp {
        Some(version) if keys.is_empty() => {
            if m.len() >= MAX_REMEMBERED {
                m.clear();
            }
            m.insert(id, version);
        }
        _ => {
            m.remove(&id);
        }
    });
    keys
}

/// The stamp's current version, storing it first when missing; `None` when it cannot be stored.
fn stamp_version(tier: Tier, backend: &Backend) -> Option<u64> {
    let key = stamp_key(tier);
    if let Some(version) = backend.peek(&key).map(|e| e.version()) {
        return Some(version);
    }
    backend.store(&key, TAG_NULL, &[], 0).ok()?;
    backend.peek(&key).map(|e| e.version())
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
