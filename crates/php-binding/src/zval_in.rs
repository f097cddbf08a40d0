//! PHP value → stored bytes. Walks the value graph first (no userland code runs during the walk) to
//! reject nested resources, Closures and non-serializable objects and to find the §6.1 tier, then
//! encodes. Runs before any shm-core call: userland `__serialize`/`__sleep` may run here.

use std::collections::{HashMap, HashSet};

use ext_php_rs::ffi::{
    self, zend_class_entry, zend_object, zval, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_INDIRECT, IS_LONG,
    IS_NULL, IS_OBJECT, IS_REFERENCE, IS_RESOURCE, IS_STRING, IS_TRUE, IS_UNDEF, ZEND_ACC_ANON_CLASS,
    ZEND_ACC_ENUM, ZEND_ACC_NOT_SERIALIZABLE,
};

use crate::encoding::{self, Encoded, StoreType};
use crate::zend;

/// Deepest array/object nesting the interim `serialize()` encoding accepts (PHP 8.2's serializer
/// recurses on the C stack without a guard; §6.6 sets 1,000 for that tier).
const MAX_DEPTH: usize = 1_000;

const ZEND_USER_CLASS: u8 = 2;

/// Internal classes whose state the graph codec stores directly (§6.3), lower-case.
const SAFE_DIRECT: [&[u8]; 15] = [
    b"datetime",
    b"datetimeimmutable",
    b"datetimezone",
    b"dateinterval",
    b"arrayobject",
    b"arrayiterator",
    b"recursivearrayiterator",
    b"splfixedarray",
    b"spldoublylinkedlist",
    b"splqueue",
    b"splstack",
    b"splminheap",
    b"splmaxheap",
    b"splpriorityqueue",
    b"splobjectstorage",
];

pub enum EncodeError {
    /// A nested resource, Closure or non-serializable object, or nesting beyond the limit: the
    /// explicit API returns `false` and stores nothing.
    Unstorable,
    /// A userland hook threw; the exception propagates.
    Thrown,
}

/// Encodes `z` (already checked for a top-level resource or Closure where the API requires it).
pub fn encode(z: *mut zval) -> Result<Encoded, EncodeError> {
    // SAFETY: `z` is a live zval owned by the caller for the duration of the call.
    unsafe {
        let z = zend::deref(z);
        let scalar = |tag, bytes: &[u8]| Ok(Encoded { tag, bytes: bytes.to_vec() });
        match zend::type_of(z) {
            IS_NULL => scalar(encoding::TAG_NULL, &[]),
            IS_FALSE => scalar(encoding::TAG_FALSE, &[]),
            IS_TRUE => scalar(encoding::TAG_TRUE, &[]),
            IS_LONG => scalar(encoding::TAG_INT, &(*z).value.lval.to_le_bytes()),
            IS_DOUBLE => scalar(encoding::TAG_DOUBLE, &(*z).value.dval.to_bits().to_le_bytes()),
            IS_STRING => scalar(encoding::TAG_STRING, zend::str_bytes(z)),
            IS_ARRAY | IS_OBJECT => {
                let tier = classify(z)?;
                let mut out = zval::new();
                zend::call_function(c"serialize", z, &mut out).map_err(|_| EncodeError::Thrown)?;
                if zend::type_of(&raw const out) != IS_STRING {
                    return Err(EncodeError::Unstorable);
                }
                Ok(Encoded { tag: encoding::serialized_tag(tier), bytes: zend::str_bytes(&raw const out).to_vec() })
            }
            _ => Err(EncodeError::Unstorable),
        }
    }
}

/// How objects of one class are stored.
#[derive(Clone, Copy)]
enum ClassKind {
    Unstorable,
    Enum,
    /// The tier of the class itself; `userland` classes also move to `OpcacheSerialized` when an
    /// object carries dynamic properties (internal classes expose their state as properties).
    Tier { tier: StoreType, userland: bool },
}

/// Finds the lowest tier that represents the whole graph of `root`, or rejects it.
///
/// # Safety
/// `root` must be a live array or object zval; no userland code runs during the walk, so the graph
/// does not change under it.
unsafe fn classify(root: *mut zval) -> Result<StoreType, EncodeError> {
    let mut tier = StoreType::SharedGraph;
    let mut classes: HashMap<*mut zend_class_entry, ClassKind> = HashMap::new();
    let mut seen: HashSet<usize> = HashSet::new();
    let mut stack: Vec<(*mut zval, usize)> = vec![(root, 0)];
    while let Some((z, depth)) = stack.pop() {
        // SAFETY: every pushed pointer is an element or property slot of a live container
        // reachable from `root`; containers are not modified during the walk.
        unsafe {
            let mut z = z;
            if zend::type_of(z) == IS_INDIRECT {
                z = (*z).value.zv;
            }
            if zend::type_of(z) == IS_REFERENCE {
                // A reference can close a cycle: walk each reference once.
                if !seen.insert((*z).value.ref_ as usize) {
                    continue;
                }
                z = &raw mut (*(*z).value.ref_).val;
            }
            match zend::type_of(z) {
                IS_RESOURCE => return Err(EncodeError::Unstorable),
                IS_ARRAY => {
                    if depth >= MAX_DEPTH {
                        return Err(EncodeError::Unstorable);
                    }
                    for (_, element) in zend::array_elements((*z).value.arr) {
                        stack.push((element, depth + 1));
                    }
                }
                IS_OBJECT => {
                    let obj = (*z).value.obj;
                    if !seen.insert(obj as usize) {
                        continue;
                    }
                    if depth >= MAX_DEPTH {
                        return Err(EncodeError::Unstorable);
                    }
                    let ce = (*obj).ce;
                    let kind = *classes.entry(ce).or_insert_with(|| class_kind(ce));
                    match kind {
                        ClassKind::Unstorable => return Err(EncodeError::Unstorable),
                        ClassKind::Enum => continue,
                        ClassKind::Tier { tier: t, userland } => {
                            tier = tier.max(t);
                            if userland && has_dynamic_properties(obj) {
                                tier = tier.max(StoreType::OpcacheSerialized);
                            }
                        }
                    }
                    let get_properties = (*(*obj).handlers).get_properties.expect("objects have get_properties");
                    let props = get_properties(obj);
                    if !props.is_null() {
                        for (_, prop) in zend::array_elements(props) {
                            if zend::type_of(prop) != IS_UNDEF {
                                stack.push((prop, depth + 1));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Ok(tier)
}

/// # Safety
/// `ce` must be a live class entry.
unsafe fn class_kind(ce: *mut zend_class_entry) -> ClassKind {
    // SAFETY: class entries and their parents and function tables live for the request.
    unsafe {
        let flags = (*ce).ce_flags;
        if flags & (ZEND_ACC_NOT_SERIALIZABLE | ZEND_ACC_ANON_CLASS) != 0 || ce == zend::closure_class() {
            return ClassKind::Unstorable;
        }
        if flags & ZEND_ACC_ENUM != 0 {
            return ClassKind::Enum;
        }
        // Serializable without __serialize: only PHP's serialize() can store it.
        if (*ce).serialize.is_some() && (*ce).__serialize.is_null() {
            return ClassKind::Tier { tier: StoreType::PhpSerialized, userland: false };
        }
        let user_hooks = [&b"__serialize"[..], b"__unserialize", b"__sleep", b"__wakeup"]
            .iter()
            .any(|m| user_method(ce, m));
        let mut internal = ce;
        while !internal.is_null() && (*internal).type_ as u8 == ZEND_USER_CLASS {
            internal = (*internal).__bindgen_anon_1.parent;
        }
        if internal.is_null() {
            let tier = if user_hooks { StoreType::OpcacheSerialized } else { StoreType::SharedGraph };
            return ClassKind::Tier { tier, userland: true };
        }
        let name = zend::zstr_bytes((*internal).name).to_ascii_lowercase();
        let tier = if name == b"stdclass" {
            StoreType::OpcacheSerialized
        } else if SAFE_DIRECT.contains(&name.as_slice()) {
            if user_hooks { StoreType::OpcacheSerialized } else { StoreType::SharedGraph }
        } else {
            StoreType::PhpSerialized
        };
        ClassKind::Tier { tier, userland: false }
    }
}

/// Whether `ce` has a method `name` (lower-case) declared by a userland class.
///
/// # Safety
/// `ce` must be a live class entry.
unsafe fn user_method(ce: *mut zend_class_entry, name: &[u8]) -> bool {
    // SAFETY: the function table maps lower-case names to live zend_function pointers (IS_PTR).
    unsafe {
        let f = ffi::zend_hash_str_find(&raw const (*ce).function_table, name.as_ptr().cast(), name.len());
        if f.is_null() {
            return false;
        }
        let func = (*f).value.func;
        let scope = (*func).common.scope;
        !scope.is_null() && (*scope).type_ as u8 == ZEND_USER_CLASS
    }
}

/// # Safety
/// `obj` must be a live object.
unsafe fn has_dynamic_properties(obj: *mut zend_object) -> bool {
    // SAFETY: `properties`, when built, holds the declared slots (as INDIRECT) plus dynamic ones.
    unsafe {
        let props = (*obj).properties;
        !props.is_null() && zend::array_len(props) > (*(*obj).ce).default_properties_count as usize
    }
}
