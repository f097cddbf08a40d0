//! Has a static changed since it was restored? Two comparisons, neither of which runs userland code:
//! * `Structural` (end-of-request dirty detection, §16.6): the live value against an independent
//!   copy of what was restored; objects are compared by class and property table, with identity kept
//!   consistent, and objects of internal classes by their encoded state.
//! * `Identity` (exact mode's root-write detection): the live value against a copy taken at the last
//!   publication; arrays by content, objects by handle, so writes inside objects do not count.

use std::collections::HashMap;

use ext_php_rs::ffi::{
    self, zend_object, zval, HashTable, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_INDIRECT, IS_LONG, IS_NULL, IS_OBJECT,
    IS_STRING, IS_TRUE, IS_UNDEF,
};

use crate::class_info;
use crate::zend;
use crate::zval_in;
use crate::zvals;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum How {
    Structural,
    Identity,
}

/// Whether `live` and `before` hold the same value under `how`.
///
/// # Safety
/// Both must be live zvals, during a request.
pub unsafe fn same(live: *mut zval, before: *mut zval, how: How) -> bool {
    let mut pending = vec![(live, before)];
    let mut objects: HashMap<*mut zend_object, *mut zend_object> = HashMap::new();
    while let Some((a, b)) = pending.pop() {
        // SAFETY: every pair pushed comes from live values reachable from the two roots.
        if !unsafe { step(a, b, how, &mut pending, &mut objects) } {
            return false;
        }
    }
    true
}

/// Compares one pair, pushing the pairs of children still to compare.
///
/// # Safety
/// As [`same`].
unsafe fn step(
    a: *mut zval,
    b: *mut zval,
    how: How,
    pending: &mut Vec<(*mut zval, *mut zval)>,
    objects: &mut HashMap<*mut zend_object, *mut zend_object>,
) -> bool {
    // SAFETY: caller guarantees live zvals; union members are read according to the type byte.
    unsafe {
        let (a, b) = (zend::deref(a), zend::deref(b));
        let t = zend::type_of(a);
        if t != zend::type_of(b) {
            return false;
        }
        match t {
            IS_UNDEF | IS_NULL | IS_FALSE | IS_TRUE => true,
            IS_LONG => (*a).value.lval == (*b).value.lval,
            IS_DOUBLE => (*a).value.dval.to_bits() == (*b).value.dval.to_bits(),
            IS_STRING => zend::str_bytes(a) == zend::str_bytes(b),
            IS_ARRAY => arrays((*a).value.arr, (*b).value.arr, pending),
            IS_OBJECT => {
                let (oa, ob) = ((*a).value.obj, (*b).value.obj);
                if oa == ob {
                    return true;
                }
                if how == How::Identity || class_info::is_enum((*oa).ce) {
                    return false;
                }
                if let Some(&seen) = objects.get(&oa) {
                    return seen == ob;
                }
                objects.insert(oa, ob);
                objects_equal(oa, ob, a, b, pending)
            }
            // Resources, closures' internals and the like never come out of the cache.
            _ => false,
        }
    }
}

/// # Safety
/// Both must be live arrays.
unsafe fn arrays(a: *mut HashTable, b: *mut HashTable, pending: &mut Vec<(*mut zval, *mut zval)>) -> bool {
    if a == b {
        return true;
    }
    // SAFETY: caller guarantees live arrays; they are not modified while walked.
    unsafe {
        if zend::array_len(a) != zend::array_len(b) {
            return false;
        }
        let mut left = zvals::entries(a);
        let mut right = zvals::entries(b);
        loop {
            match (left.next(), right.next()) {
                (None, None) => return true,
                (Some((ka, va)), Some((kb, vb))) if ka == kb => pending.push((va, vb)),
                _ => return false,
            }
        }
    }
}

/// # Safety
/// Both must be live objects of any class; `za`/`zb` zvals holding them.
unsafe fn objects_equal(
    a: *mut zend_object,
    b: *mut zend_object,
    za: *mut zval,
    zb: *mut zval,
    pending: &mut Vec<(*mut zval, *mut zval)>,
) -> bool {
    // SAFETY: caller guarantees live objects; slots and property tables are read, never written.
    unsafe {
        let ce = (*a).ce;
        if ce != (*b).ce {
            return false;
        }
        let plain = std::ptr::eq(ce, ffi::zend_standard_class_def)
            || ((*ce).type_ == zend::ZEND_USER_CLASS && (*ce).__bindgen_anon_2.create_object.is_none());
        if !plain {
            // Internal state is opaque here: compare what the encoder makes of it.
            return match (zval_in::encode(za), zval_in::encode(zb)) {
                (Ok(x), Ok(y)) => x.tag == y.tag && x.bytes == y.bytes,
                _ => {
                    zvals::clear_exception();
                    false
                }
            };
        }
        for i in 0..zvals::slot_count(ce) {
            pending.push((zvals::property_slot(a, i), zvals::property_slot(b, i)));
        }
        let dynamic = |o: *mut zend_object| -> Vec<(zvals::Key<'_>, *mut zval)> {
            if (*o).properties.is_null() {
                return Vec::new();
            }
            zvals::entries((*o).properties).filter(|(_, v)| zend::type_of(*v) != IS_INDIRECT).collect()
        };
        let (da, db) = (dynamic(a), dynamic(b));
        if da.len() != db.len() {
            return false;
        }
        for ((ka, va), (kb, vb)) in da.into_iter().zip(db) {
            if ka != kb {
                return false;
            }
            pending.push((va, vb));
        }
        true
    }
}
