//! The state of the safe-direct internal classes (§6.3): extraction from a live object into
//! graph-codec's `InternalState`, and injection into a fresh object of the same family. Classes that
//! export their state go through their own internal `__serialize`/`__unserialize`, looked up on the
//! internal base class (a userland override would make the class not safe-direct, so none runs);
//! `DateTimeZone` and the heaps are read through mirrors of their engine structs.

mod date;
mod heap;
mod spl;

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

/// Writes `state` (values owned) into `obj`, a fresh object (no constructor run) of a class whose
/// internal base `base` belongs to the state's family.
///
/// # Safety
/// `obj` must be a live, freshly created object whose class has `base` as its nearest internal
/// ancestor, and `base`'s family must be `state.family()`.
pub unsafe fn inject(
    state: InternalState<'_, zval>,
    obj: *mut zend_object,
    base: *mut zend_class_entry,
) -> Result<(), StateError> {
    // SAFETY: caller guarantees the object's layout matches the state's family.
    unsafe {
        let exported = match state {
            InternalState::Heap(_) | InternalState::PriorityQueue(_) => return heap::inject(state, obj),
            InternalState::DateTime(s) => date::date_time_array(&s),
            InternalState::DateTimeZone(s) => date::zone_array(&s),
            InternalState::DateInterval(s) => date::interval_array(&s),
            other => spl::array(other)?,
        };
        unserialize(obj, base, exported)
    }
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

/// `base::__unserialize($data)` on `obj`; consumes `data`.
///
/// # Safety
/// `obj` must be a live object of `base` or a subclass.
unsafe fn unserialize(obj: *mut zend_object, base: *mut zend_class_entry, data: zval) -> Result<(), StateError> {
    // SAFETY: caller guarantees the object belongs to `base`; the method is the internal one.
    unsafe {
        let func = class_info::method(base, b"__unserialize");
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

/// A packed PHP array of `values` (moved).
fn list(values: Vec<zval>) -> zval {
    let array = zvals::new_array(values.len(), true);
    // SAFETY: the array was just created and is owned by this function alone.
    unsafe {
        let ht = zvals::table(&raw const array);
        for (index, value) in values.into_iter().enumerate() {
            zvals::insert_int(ht, index as i64, value);
        }
    }
    array
}

/// A hash PHP array of `entries` (moved).
fn map(entries: Vec<(&[u8], zval)>) -> zval {
    let array = zvals::new_array(entries.len(), false);
    // SAFETY: the array was just created and is owned by this function alone.
    unsafe {
        let ht = zvals::table(&raw const array);
        for (key, value) in entries {
            zvals::insert_str(ht, key, value);
        }
    }
    array
}

fn long(value: i64) -> zval {
    let mut z = zval::new();
    z.set_long(value);
    z
}
