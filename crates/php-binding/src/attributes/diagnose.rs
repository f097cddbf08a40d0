//! Why a value could not be published, in the words of §16.9. The encoder only says "unstorable";
//! this walk (no userland code) finds the resources, Closures, non-serializable objects or the depth
//! that made it so.

use std::collections::HashSet;

use ext_php_rs::ffi::{zend_object, zval, IS_ARRAY, IS_OBJECT, IS_RESOURCE};

use crate::class_info;
use crate::zend;
use crate::zvals;

/// Nesting depth beyond which the codec refuses a value.
const MAX_DEPTH: usize = graph_codec::MAX_DEPTH as usize;

/// The §16.9 message for a value the encoder refused.
///
/// # Safety
/// `z` must be a live zval, during a request.
pub unsafe fn unstorable(z: *mut zval) -> String {
    let (mut resources, mut closures) = (false, false);
    let mut refused_class: Option<String> = None;
    let mut too_deep = false;
    let mut seen: HashSet<*mut zend_object> = HashSet::new();
    let mut pending = vec![(z, 0usize)];
    while let Some((z, depth)) = pending.pop() {
        if depth > MAX_DEPTH {
            too_deep = true;
            continue;
        }
        // SAFETY: every zval pushed is reachable from the live root.
        unsafe {
            let z = zend::deref(z);
            match zend::type_of(z) {
                IS_RESOURCE => resources = true,
                IS_ARRAY => pending.extend(zvals::entries((*z).value.arr).map(|(_, v)| (v, depth + 1))),
                IS_OBJECT => {
                    let obj = (*z).value.obj;
                    if !seen.insert(obj) {
                        continue;
                    }
                    let ce = (*obj).ce;
                    if ce == zend::closure_class() {
                        closures = true;
                    } else if !class_info::serializable(ce) {
                        refused_class
                            .get_or_insert_with(|| String::from_utf8_lossy(zend::zstr_bytes((*ce).name)).into_owned());
                    } else {
                        for i in 0..zvals::slot_count(ce) {
                            pending.push((zvals::property_slot(obj, i), depth + 1));
                        }
                        if !(*obj).properties.is_null() {
                            pending.extend(zvals::entries((*obj).properties).map(|(_, v)| (v, depth + 1)));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    match (resources, closures) {
        (true, true) => "resources and Closure objects cannot be stored in the static cache".into(),
        (true, false) => "resources cannot be stored in the static cache".into(),
        (false, true) => "Closure objects cannot be stored in the static cache".into(),
        (false, false) => match refused_class {
            Some(class) => format!("objects of class {class} cannot be stored in the static cache"),
            None if too_deep => "value is nested too deeply to be stored in the static cache".into(),
            None => "value cannot be stored in the static cache".into(),
        },
    }
}
