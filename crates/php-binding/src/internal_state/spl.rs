//! `ArrayObject`/`ArrayIterator`/`RecursiveArrayIterator`, `SplFixedArray`, `SplDoublyLinkedList`
//! (`SplQueue`, `SplStack`) and `SplObjectStorage`, through the positional arrays their own
//! `__serialize`/`__unserialize` use in PHP 8.2. The members (properties) part is left empty: the
//! codec stores properties itself.

use std::borrow::Cow;

use ext_php_rs::ffi::{zval, HashTable, IS_ARRAY, IS_LONG, IS_NULL, IS_OBJECT, IS_STRING};
use graph_codec::{
    ArrayStorageState, DoublyLinkedListState, FixedArrayState, InternalState, ObjectStorageEntry, ObjectStorageState,
    StateFamily,
};

use super::{Arg, StateError};

/// `SPL_ARRAY_IS_SELF`: the object is its own storage.
const ARRAY_IS_SELF: u32 = 0x0100_0000;
use crate::zend;
use crate::zvals;

/// # Safety
/// `ht` must be the live `__serialize()` array of an object of `family`.
pub unsafe fn extract<'a>(family: StateFamily, ht: *mut HashTable) -> Result<InternalState<'a, *mut zval>, StateError> {
    // SAFETY: caller guarantees a live array; element pointers stay valid while it lives.
    unsafe {
        let at = |index: i64| zvals::find_int(ht, index).ok_or(StateError::Malformed);
        let flags = |index: i64| -> Result<u32, StateError> {
            let z = at(index)?;
            if zend::type_of(z) != IS_LONG {
                return Err(StateError::Malformed);
            }
            u32::try_from((*z).value.lval).map_err(|_| StateError::Malformed)
        };
        Ok(match family {
            StateFamily::ArrayStorage => {
                let storage = at(1)?;
                // A self-backed object (`$o->exchangeArray($o)`) exports no storage: its elements are
                // its own properties.
                let self_backed = flags(0)? & ARRAY_IS_SELF != 0 && zend::type_of(storage) == IS_NULL;
                if !self_backed && !matches!(zend::type_of(storage), IS_ARRAY | IS_OBJECT) {
                    return Err(StateError::Malformed);
                }
                let class = at(3)?;
                let iterator_class = match zend::type_of(class) {
                    IS_NULL => None,
                    IS_STRING => Some(Cow::Owned(zend::str_bytes(class).to_vec())),
                    _ => return Err(StateError::Malformed),
                };
                InternalState::ArrayStorage(ArrayStorageState { storage, flags: flags(0)?, iterator_class })
            }
            StateFamily::FixedArray => InternalState::FixedArray(FixedArrayState { elements: elements(ht) }),
            StateFamily::DoublyLinkedList => {
                let inner = at(1)?;
                if zend::type_of(inner) != IS_ARRAY {
                    return Err(StateError::Malformed);
                }
                InternalState::DoublyLinkedList(DoublyLinkedListState {
                    elements: elements(zvals::table(inner)),
                    iterator_mode: flags(0)?,
                })
            }
            StateFamily::ObjectStorage => {
                let inner = at(0)?;
                if zend::type_of(inner) != IS_ARRAY {
                    return Err(StateError::Malformed);
                }
                let flat = elements(zvals::table(inner));
                if !flat.len().is_multiple_of(2)
                    || flat.iter().step_by(2).any(|&o| zend::type_of(zend::deref(o)) != IS_OBJECT)
                {
                    return Err(StateError::Malformed);
                }
                let entries =
                    flat.chunks(2).map(|pair| ObjectStorageEntry { object: pair[0], data: pair[1] }).collect();
                InternalState::ObjectStorage(ObjectStorageState { entries })
            }
            _ => return Err(StateError::Malformed),
        })
    }
}

/// The values at integer keys 0, 1, 2, … up to the first missing one.
///
/// # Safety
/// `ht` must be a live array.
unsafe fn elements(ht: *mut HashTable) -> Vec<*mut zval> {
    // SAFETY: caller guarantees a live array.
    unsafe { (0..).map_while(|i| zvals::find_int(ht, i)).collect() }
}

/// The `__unserialize()` argument for `state`.
pub fn argument<V>(state: InternalState<'_, V>) -> Result<Arg<'_, V>, StateError> {
    let empty = || Arg::List(Vec::new());
    let values = |elements: Vec<V>| Arg::List(elements.into_iter().map(Arg::Value).collect());
    Ok(match state {
        InternalState::ArrayStorage(s) => {
            let class = match s.iterator_class {
                Some(name) => Arg::Bytes(name),
                None => Arg::Null,
            };
            Arg::List(vec![Arg::Long(i64::from(s.flags)), Arg::Value(s.storage), empty(), class])
        }
        InternalState::FixedArray(s) => values(s.elements),
        InternalState::DoublyLinkedList(s) => {
            Arg::List(vec![Arg::Long(i64::from(s.iterator_mode)), values(s.elements), empty()])
        }
        InternalState::ObjectStorage(s) => {
            let flat = s.entries.into_iter().flat_map(|e| [e.object, e.data]).collect();
            Arg::List(vec![values(flat), empty()])
        }
        _ => return Err(StateError::Malformed),
    })
}
