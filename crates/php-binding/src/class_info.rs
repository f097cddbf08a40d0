//! Facts about a class entry that decide how its objects are stored (§6.1, §6.3): graph-codec's
//! `ClassInfo`, plus the internal base class whose own codec a safe-direct object goes through. Only
//! the class entry is read; no userland code runs.

use std::ffi::c_void;
use std::ptr;

use ext_php_rs::ffi::{self, zend_class_entry, zend_function, zend_property_info, HashTable};
use graph_codec::{ClassInfo, ClassKind, StateFamily, UserlandHooks};

use crate::zend;

const ZEND_ACC_ANON_CLASS: u32 = 1 << 2;
const ZEND_ACC_NOT_SERIALIZABLE: u32 = 1 << 29;
const ZEND_ACC_ALLOW_DYNAMIC_PROPERTIES: u32 = 1 << 15;

/// Safe-direct internal classes by lower-case name (§6.3).
const SAFE_DIRECT: [(&[u8], StateFamily); 16] = [
    (b"datetime", StateFamily::DateTime),
    (b"datetimeimmutable", StateFamily::DateTime),
    (b"datetimezone", StateFamily::DateTimeZone),
    (b"dateinterval", StateFamily::DateInterval),
    (b"arrayobject", StateFamily::ArrayStorage),
    (b"arrayiterator", StateFamily::ArrayStorage),
    (b"recursivearrayiterator", StateFamily::ArrayStorage),
    (b"splfixedarray", StateFamily::FixedArray),
    (b"spldoublylinkedlist", StateFamily::DoublyLinkedList),
    (b"splqueue", StateFamily::DoublyLinkedList),
    (b"splstack", StateFamily::DoublyLinkedList),
    // SplHeap is abstract: only user subclasses (with their own compare()) reach it.
    (b"splheap", StateFamily::Heap),
    (b"splminheap", StateFamily::Heap),
    (b"splmaxheap", StateFamily::Heap),
    (b"splpriorityqueue", StateFamily::PriorityQueue),
    (b"splobjectstorage", StateFamily::ObjectStorage),
];

/// What the codec needs to know about one class.
#[derive(Clone, Copy)]
pub struct ClassFacts {
    pub info: ClassInfo,
    /// The nearest internal class in the chain (the class itself if internal), or null for a pure
    /// userland class.
    pub internal_base: *mut zend_class_entry,
}

impl ClassFacts {
    /// The safe-direct family whose codec this class's objects use, if any.
    pub fn family(&self) -> Option<StateFamily> {
        match self.info.kind {
            ClassKind::SafeDirect(family) => Some(family),
            _ => None,
        }
    }
}

/// Reads the facts of `ce`.
///
/// # Safety
/// `ce` must be a live, linked class entry.
pub unsafe fn facts(ce: *mut zend_class_entry) -> ClassFacts {
    // SAFETY: caller guarantees a live class; parents and function tables live as long as it.
    unsafe {
        let flags = (*ce).ce_flags;
        let mut internal_base = ce;
        while !internal_base.is_null() && (*internal_base).type_ == zend::ZEND_USER_CLASS {
            internal_base = (*internal_base).__bindgen_anon_1.parent;
        }
        let kind = if ce == zend::closure_class() {
            ClassKind::Closure
        } else if flags & (ZEND_ACC_NOT_SERIALIZABLE | ZEND_ACC_ANON_CLASS) != 0 {
            ClassKind::NotSerializable
        } else if flags & zend::ZEND_ACC_ENUM != 0 {
            ClassKind::Enum
        } else if internal_base.is_null() {
            ClassKind::Userland
        } else {
            let base = zend::zstr_bytes((*internal_base).name);
            match SAFE_DIRECT.iter().find(|(name, _)| base.eq_ignore_ascii_case(name)) {
                Some(&(_, family)) => ClassKind::SafeDirect(family),
                // A userland subclass of stdClass carries no internal state: it is a plain class.
                None if base.eq_ignore_ascii_case(b"stdclass") && internal_base == ce => ClassKind::StdClass,
                None if base.eq_ignore_ascii_case(b"stdclass") => ClassKind::Userland,
                None => ClassKind::OtherInternal,
            }
        };
        let userland_hooks = UserlandHooks {
            serialize: user_method(ce, b"__serialize"),
            unserialize: user_method(ce, b"__unserialize"),
            sleep: user_method(ce, b"__sleep"),
            wakeup: user_method(ce, b"__wakeup"),
        };
        let info = ClassInfo {
            kind,
            userland_hooks,
            serializable_without_serialize: (*ce).serialize.is_some() && (*ce).__serialize.is_null(),
        };
        ClassFacts { info, internal_base: if internal_base.is_null() { ptr::null_mut() } else { internal_base } }
    }
}

/// The method `lcname` (lower-case) of `ce`, or null.
///
/// # Safety
/// `ce` must be a live class entry.
pub unsafe fn method(ce: *mut zend_class_entry, lcname: &[u8]) -> *mut zend_function {
    // SAFETY: the function table maps lower-case names to live zend_function pointers (IS_PTR).
    unsafe { pointer_named(&raw const (*ce).function_table, lcname).cast() }
}

/// The property info `ce` declares (or inherits) under the unmangled name `name`, or null.
///
/// # Safety
/// `ce` must be a live class entry.
pub unsafe fn property_named(ce: *mut zend_class_entry, name: &[u8]) -> *mut zend_property_info {
    // SAFETY: properties_info maps unmangled names to live zend_property_info pointers (IS_PTR).
    unsafe { pointer_named(&raw const (*ce).properties_info, name).cast() }
}

/// The pointer `table` (a hash of `IS_PTR` values: a class's methods or property infos) holds under
/// `name`, or null.
///
/// # Safety
/// `table` must be a live hash whose values are all `IS_PTR`.
unsafe fn pointer_named(table: *const HashTable, name: &[u8]) -> *mut c_void {
    // SAFETY: as the caller guarantees; a found value's pointer is its `IS_PTR` payload.
    unsafe {
        let found = ffi::zend_hash_str_find(table, name.as_ptr().cast(), name.len());
        if found.is_null() {
            ptr::null_mut()
        } else {
            (*found).value.ptr
        }
    }
}

/// Whether `ce` has a method `lcname` written in PHP (internal declarations do not count).
///
/// # Safety
/// `ce` must be a live class entry.
unsafe fn user_method(ce: *mut zend_class_entry, lcname: &[u8]) -> bool {
    // SAFETY: caller guarantees a live class; `method` returns null or a live function.
    unsafe {
        let func = method(ce, lcname);
        !func.is_null() && (*func).type_ == zend::ZEND_USER_FUNCTION
    }
}

/// Whether objects of `ce` accept properties it does not declare without a deprecation
/// (`stdClass`, `#[AllowDynamicProperties]`).
///
/// # Safety
/// `ce` must be a live class entry.
pub unsafe fn allows_dynamic_properties(ce: *mut zend_class_entry) -> bool {
    // SAFETY: caller guarantees a live class.
    unsafe { (*ce).ce_flags & ZEND_ACC_ALLOW_DYNAMIC_PROPERTIES != 0 }
}

/// Whether `ce` is an enum.
///
/// # Safety
/// `ce` must be a live class entry.
pub unsafe fn is_enum(ce: *mut zend_class_entry) -> bool {
    // SAFETY: caller guarantees a live class.
    unsafe { (*ce).ce_flags & zend::ZEND_ACC_ENUM != 0 }
}

/// Whether objects of `ce` can be stored at all (not a Closure, not marked not-serializable).
///
/// # Safety
/// `ce` must be a live, linked class entry.
pub unsafe fn serializable(ce: *mut zend_class_entry) -> bool {
    // SAFETY: caller guarantees a live class.
    !matches!(unsafe { facts(ce) }.info.kind, ClassKind::NotSerializable | ClassKind::Closure)
}
