//! The state of the safe-direct internal classes (§6.3): extraction from a live object into
//! graph-codec's `InternalState`, and injection into a fresh object of the same family. Classes that
//! export their state go through their own internal `__serialize`/`__unserialize`, looked up on the
//! internal base class (a userland override would make the class not safe-direct, so none runs);
//! `DateTimeZone` and the heaps are read through mirrors of their engine structs.

mod date;
mod heap;
mod spl;

pub use date::{copy_state, detach_time, DateSnapshot, DATE_STD_OFFSET};
pub use heap::inject as restore_heap;
pub use spl::{
    copy_prototype, lend_elements, restore_usual, return_elements, separate_clone as separate_array_clone,
    share_stored_storage, state_slots,
};

use std::borrow::Cow;

use ext_php_rs::ffi::{zend_class_entry, zend_object, zval, HashTable, IS_ARRAY};
use graph_codec::{InternalState, StateFamily};

use crate::class_info;
use crate::zend;
use crate::zvals;

/// Why a state could not be read or written.
pub enum StateError {
    /// An exception is pending (extraction: it propagates; injection: the caller clears it).
    Thrown,
    /// The object or the data does not have the shape its family requires.
    Malformed,
}

/// A state whose values are zvals borrowed from the object or from `keep`.
pub struct Extracted<'a> {
    pub state: InternalState<'a, *mut zval>,
    /// The array the class's `__serialize` returned, which the state's values point into; the
    /// caller keeps it alive until it has read every value.
    pub keep: Option<zval>,
}

/// Reads the state of `obj`, an object of a class whose internal base `base` belongs to `family`.
///
/// # Safety
/// `obj` must be a live object whose class has `base` as its nearest internal ancestor, and `family`
/// must be `base`'s family.
pub unsafe fn extract<'a>(
    family: StateFamily,
    obj: *mut zend_object,
    base: *mut zend_class_entry,
) -> Result<Extracted<'a>, StateError> {
    // SAFETY: caller guarantees the object's layout matches `family`.
    unsafe {
        match family {
            StateFamily::DateTimeZone => Ok(Extracted { state: date::extract_zone(obj)?, keep: None }),
            // Date-times and intervals in their usual shape are read without their `__serialize()`.
            StateFamily::DateTime if let Some(state) = date::read_date_time(obj) => Ok(Extracted { state, keep: None }),
            StateFamily::DateInterval if let Some(state) = date::read_interval(obj) => {
                Ok(Extracted { state, keep: None })
            }
            StateFamily::Heap | StateFamily::PriorityQueue => {
                Ok(Extracted { state: heap::extract(family, obj)?, keep: None })
            }
            _ => {
                let exported = serialize(obj, base)?;
                let ht = zvals::table(&raw const exported);
                let state = match family {
                    StateFamily::DateTime => date::extract_date_time(obj, base, ht),
                    StateFamily::DateInterval => date::extract_interval(ht),
                    _ => spl::extract(family, ht),
                };
                match state {
                    Ok(state) => Ok(Extracted { state, keep: Some(exported) }),
                    Err(e) => {
                        drop(exported);
                        Err(e)
                    }
                }
            }
        }
    }
}

/// A value of the array an internal class's own `__unserialize()` takes, as the blueprint builds it:
/// constants made here, and stored values (`V`) of the graph.
pub enum Arg<'a, V> {
    Null,
    Bool(bool),
    Long(i64),
    Double(f64),
    Bytes(Cow<'a, [u8]>),
    Value(V),
    /// A packed list.
    List(Vec<Arg<'a, V>>),
    /// A hash with string keys, in order.
    Map(Vec<(&'static [u8], Arg<'a, V>)>),
}

/// How a safe-direct object's state is written into a fresh object of its class.
pub enum Restore<'a, V> {
    /// The internal base class's own `__unserialize($argument)`.
    Unserialize(Arg<'a, V>),
    /// Heap elements written in stored (heap) order, so `compare()` is never called; `extract_flags`
    /// is set for priority queues (whose elements are data, priority pairs).
    Heap { elements: Vec<V>, extract_flags: Option<u32>, heap_flags: u32 },
}

/// How to restore `state`: the engine's own `__unserialize` format for every family that has one.
pub fn restore<V>(state: InternalState<'_, V>) -> Result<Restore<'_, V>, StateError> {
    Ok(match state {
        InternalState::DateTime(s) => Restore::Unserialize(date::date_time_argument(&s)),
        InternalState::DateTimeZone(s) => Restore::Unserialize(date::zone_argument(&s)),
        InternalState::DateInterval(s) => Restore::Unserialize(date::interval_argument(&s)),
        InternalState::Heap(s) => Restore::Heap { elements: s.elements, extract_flags: None, heap_flags: s.heap_flags },
        InternalState::PriorityQueue(s) => Restore::Heap {
            elements: s.entries.into_iter().flat_map(|e| [e.data, e.priority]).collect(),
            extract_flags: Some(s.extract_flags),
            heap_flags: s.heap_flags,
        },
        other => Restore::Unserialize(spl::argument(other)?),
    })
}

/// `base::__serialize()` on `obj`; the result must be an array.
///
/// # Safety
/// `obj` must be a live object of `base` or a subclass.
unsafe fn serialize(obj: *mut zend_object, base: *mut zend_class_entry) -> Result<zval, StateError> {
    // SAFETY: caller guarantees the object belongs to `base`; the method is the internal one.
    unsafe {
        let func = class_info::method(base, b"__serialize");
        if func.is_null() {
            return Err(StateError::Malformed);
        }
        let ret = zvals::call_method(func, obj, &mut []).map_err(|()| StateError::Thrown)?;
        if zend::type_of(&raw const ret) != IS_ARRAY {
            drop(ret);
            return Err(StateError::Malformed);
        }
        Ok(ret)
    }
}

/// `base::__unserialize($data)` on `obj` (the internal base class's own method, so no userland override
/// runs); consumes `data`.
///
/// # Safety
/// `obj` must be a live object of `base` or a subclass.
pub unsafe fn unserialize(obj: *mut zend_object, base: *mut zend_class_entry, data: zval) -> Result<(), StateError> {
    // SAFETY: caller guarantees the object belongs to `base`; the method is the internal one, which the
    // engine keeps on the class entry (as it does for every class's magic methods), so no name lookup.
    unsafe {
        let func = (*base).__unserialize;
        if func.is_null() {
            drop(data);
            return Err(StateError::Malformed);
        }
        let mut args = [data];
        let result = zvals::call_method(func, obj, &mut args);
        let [data] = args;
        drop(data);
        drop(result.map_err(|()| StateError::Thrown)?);
        Ok(())
    }
}

/// The integer at `key`, or `Malformed`.
///
/// # Safety
/// `ht` must be a live array.
unsafe fn long_at(ht: *mut HashTable, key: &[u8]) -> Result<i64, StateError> {
    // SAFETY: caller guarantees a live array; the zval is read in place.
    unsafe {
        match zvals::find_str(ht, key) {
            Some(z) if zend::type_of(z) == ext_php_rs::ffi::IS_LONG => Ok((*z).value.lval),
            _ => Err(StateError::Malformed),
        }
    }
}

/// The string at `key` (copied), or `Malformed`.
///
/// # Safety
/// `ht` must be a live array.
unsafe fn string_at(ht: *mut HashTable, key: &[u8]) -> Result<Vec<u8>, StateError> {
    // SAFETY: caller guarantees a live array; the bytes are copied out.
    unsafe {
        match zvals::find_str(ht, key) {
            Some(z) if zend::type_of(z) == ext_php_rs::ffi::IS_STRING => Ok(zend::str_bytes(z).to_vec()),
            _ => Err(StateError::Malformed),
        }
    }
}
