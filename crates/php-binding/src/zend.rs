//! Thin access to Zend engine structures that ext-php-rs does not wrap: call frames, zval type bytes,
//! the class table, hand-built method/argument tables and the symbols its bindings cannot reach.
//! Every raw pointer here comes from the engine and is only used while the engine keeps it alive
//! (a call frame for the duration of the call, persistent tables for the process).

use std::borrow::Cow;
use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr;

use ext_php_rs::types::ZendStr;

use ext_php_rs::ffi::{
    self, zend_class_entry, zend_execute_data, zend_function_entry, zend_internal_arg_info, zend_string, zend_type,
    zval, _ZEND_TYPE_NAME_BIT, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_LONG, IS_NULL, IS_OBJECT, IS_REFERENCE, IS_RESOURCE,
    IS_STRING, IS_TRUE,
};

unsafe extern "C" {
    /// The engine's own nameless internal function, which [`with_frame`]'s frame runs.
    static zend_pass_function: ffi::zend_internal_function;
    /// `zend_exceptions.h`: with no frame, reports the pending exception as uncaught (a fatal error).
    fn zend_throw_exception_internal(exception: *mut ffi::zend_object);
    /// `zend_exceptions.h`: whether `ex` is the exception `exit()` unwinds the stack with.
    fn zend_is_unwind_exit(ex: *const ffi::zend_object) -> bool;
    /// `zend_exceptions.h`: whether `ex` is the exception a destroyed Fiber is unwound with.
    fn zend_is_graceful_exit(ex: *const ffi::zend_object) -> bool;
    /// `zend_attributes.h` is not part of ext-php-rs's wrapper header; php8.2 exports it.
    fn zend_internal_attribute_register(ce: *mut zend_class_entry, flags: u32) -> *mut c_void;
    /// `zend_closures.h` is not part of ext-php-rs's wrapper header either.
    static zend_ce_closure: *mut zend_class_entry;
    /// `zend_fibers.h`: the `Fiber` class, which is also the `kind` of every `Fiber` object's context.
    static zend_ce_fiber: *mut zend_class_entry;
    /// `main/php_main.h`: whether PHP's module startup has finished.
    fn php_get_module_initialized() -> std::ffi::c_int;
    /// `zend.h`: makes the map_ptr table (per-request pointer slots) `last` slots long, the new ones null.
    fn zend_map_ptr_extend(last: usize);
    /// `zend_extensions.h`: gives every internal function whose run-time cache slot is null one in the
    /// request's arena, when extensions reserved room there (fcall observers); else does nothing.
    fn zend_init_internal_run_time_cache();
    /// What `zend_string_hash_val` calls when `h` is not cached yet: computes and caches it.
    fn zend_string_hash_func(s: *mut zend_string) -> u64;
    /// `zend_string.h`: the hash PHP gives `len` bytes at `str` (`zend_inline_hash_func`; never 0).
    fn zend_hash_func(str: *const c_char, len: usize) -> u64;
    /// `zend_objects_API.h`: gives a new object its handle in the request's object store
    /// (`ZEND_FASTCALL` is the C convention on 64-bit targets).
    pub fn zend_objects_store_put(object: *mut ext_php_rs::ffi::zend_object);
    /// `zend_API.h`: evaluates a class's constant expressions (default values, constants); `FAILURE`
    /// (non-zero) with an exception when one names what is not declared.
    pub fn zend_update_class_constants(class_type: *mut zend_class_entry) -> std::ffi::c_int;
}

pub const ZEND_ACC_PUBLIC: u32 = 1 << 0;
pub const ZEND_ACC_PRIVATE: u32 = 1 << 2;
pub const ZEND_ACC_STATIC: u32 = 1 << 4;
pub const ZEND_ACC_FINAL: u32 = 1 << 5;
pub const ZEND_ACC_READONLY: u32 = 1 << 7;
pub const ZEND_ACC_USE_GUARDS: u32 = 1 << 11;
pub const ZEND_ACC_CONSTANTS_UPDATED: u32 = 1 << 12;
pub const ZEND_ACC_NO_DYNAMIC_PROPERTIES: u32 = 1 << 13;
/// A class flag: some method the class declares, inherits or takes from a trait has static variables
/// (PHP relies on it to reset them at request end, so it is never missing).
pub const ZEND_HAS_STATIC_IN_METHODS: u32 = 1 << 14;
pub const ZEND_ACC_READONLY_CLASS: u32 = 1 << 16;
pub const ZEND_ACC_ENUM: u32 = 1 << 28;
/// `zend_class_entry.type` of a userland class.
pub const ZEND_USER_CLASS: std::ffi::c_char = 2;
/// `zend_function.type` of a userland function.
pub const ZEND_USER_FUNCTION: u8 = 2;
/// `MODULE_PERSISTENT` for `zend_register_functions`.
const MODULE_PERSISTENT: i32 = 1;

pub const MAY_BE_NULL: u32 = 1 << IS_NULL;
pub const MAY_BE_FALSE: u32 = 1 << IS_FALSE;
pub const MAY_BE_BOOL: u32 = (1 << IS_FALSE) | (1 << IS_TRUE);
pub const MAY_BE_LONG: u32 = 1 << IS_LONG;
pub const MAY_BE_DOUBLE: u32 = 1 << IS_DOUBLE;
pub const MAY_BE_STRING: u32 = 1 << IS_STRING;
pub const MAY_BE_ARRAY: u32 = 1 << IS_ARRAY;
pub const MAY_BE_OBJECT: u32 = 1 << IS_OBJECT;
/// `object|array|string|int|float|bool|null`: every storable top-level type.
pub const MAY_BE_VALUE: u32 =
    MAY_BE_OBJECT | MAY_BE_ARRAY | MAY_BE_STRING | MAY_BE_LONG | MAY_BE_DOUBLE | MAY_BE_BOOL | MAY_BE_NULL;

/// A `'static` table of raw engine records (method entries, argument infos). The engine only reads
/// them, and every pointer inside refers to `'static` data, so sharing between threads is sound.
#[repr(transparent)]
pub struct StaticTable<T, const N: usize>(pub [T; N]);

// SAFETY: the tables are immutable after construction and hold only pointers to 'static data
// (C string literals, other static tables); the engine never writes through them.
unsafe impl<T, const N: usize> Sync for StaticTable<T, N> {}

impl<T, const N: usize> StaticTable<T, N> {
    pub const fn as_ptr(&'static self) -> *const T {
        self.0.as_ptr()
    }
}

pub type ArgInfos<const N: usize> = StaticTable<zend_internal_arg_info, N>;

/// The type bit of a class name given as a C string in an internal arg-info table (`zend_register_functions`
/// turns it into a `zend_string`). PHP 8.3 gave such literal names their own bit; before, they shared
/// `_ZEND_TYPE_NAME_BIT` with `zend_string` names.
#[cfg(php83)]
const LITERAL_NAME_BIT: u32 = 1 << 23;
#[cfg(not(php83))]
const LITERAL_NAME_BIT: u32 = _ZEND_TYPE_NAME_BIT;
pub type Methods<const N: usize> = StaticTable<zend_function_entry, N>;

/// The first arg-info record: required argument count and return type mask.
pub const fn returns(required: usize, mask: u32) -> zend_internal_arg_info {
    zend_internal_arg_info {
        name: required as *const c_char,
        type_: zend_type { ptr: ptr::null_mut(), type_mask: mask },
        default_value: ptr::null(),
    }
}

/// The first arg-info record for a method returning an instance of `class`.
pub const fn returns_object(required: usize, class: &'static CStr) -> zend_internal_arg_info {
    zend_internal_arg_info {
        name: required as *const c_char,
        type_: zend_type { ptr: class.as_ptr() as *mut c_void, type_mask: LITERAL_NAME_BIT },
        default_value: ptr::null(),
    }
}

/// A by-value parameter typed with a type mask, with an optional default expression.
pub const fn param(name: &'static CStr, mask: u32, default: Option<&'static CStr>) -> zend_internal_arg_info {
    zend_internal_arg_info {
        name: name.as_ptr(),
        type_: zend_type { ptr: ptr::null_mut(), type_mask: mask },
        default_value: match default {
            Some(d) => d.as_ptr(),
            None => ptr::null(),
        },
    }
}

/// A by-value parameter typed with a class name.
pub const fn param_object(
    name: &'static CStr,
    class: &'static CStr,
    default: Option<&'static CStr>,
) -> zend_internal_arg_info {
    zend_internal_arg_info {
        name: name.as_ptr(),
        type_: zend_type { ptr: class.as_ptr() as *mut c_void, type_mask: LITERAL_NAME_BIT },
        default_value: match default {
            Some(d) => d.as_ptr(),
            None => ptr::null(),
        },
    }
}

pub type Handler = unsafe extern "C" fn(*mut zend_execute_data, *mut zval);

/// One method (or function) entry; `N` is the length of its arg-info table (return record included).
pub const fn method<const N: usize>(
    name: &'static CStr,
    handler: Handler,
    args: &'static ArgInfos<N>,
    flags: u32,
) -> zend_function_entry {
    zend_function_entry {
        fname: name.as_ptr(),
        handler: Some(handler),
        arg_info: args.0.as_ptr(),
        num_args: (N - 1) as u32,
        flags,
        // PHP 8.4: frameless internal calls and doc comments of internal functions (none here).
        #[cfg(php84)]
        frameless_function_infos: ptr::null(),
        #[cfg(php84)]
        doc_comment: ptr::null(),
    }
}

pub const fn end_of_methods() -> zend_function_entry {
    zend_function_entry {
        fname: ptr::null(),
        handler: None,
        arg_info: ptr::null(),
        num_args: 0,
        flags: 0,
        #[cfg(php84)]
        frameless_function_infos: ptr::null(),
        #[cfg(php84)]
        doc_comment: ptr::null(),
    }
}

/// A permanent interned string, as the engine wants for class and property names.
pub fn interned(s: &CStr) -> *mut zend_string {
    // SAFETY: zend_string_init_interned is set by the engine before any MINIT runs; the bytes are
    // copied into a permanent interned string.
    unsafe {
        let init = ffi::zend_string_init_interned.expect("engine provides zend_string_init_interned");
        init(s.as_ptr(), s.count_bytes(), true)
    }
}

/// Registers an internal class from MINIT and applies `flags` to it.
///
/// # Safety
/// Must run during module startup; `methods` must be terminated by [`end_of_methods`].
pub unsafe fn register_class(
    name: &CStr,
    methods: *const zend_function_entry,
    parent: *mut zend_class_entry,
    flags: u32,
) -> *mut zend_class_entry {
    // SAFETY: a zeroed zend_class_entry is what INIT_CLASS_ENTRY starts from; the engine copies it.
    unsafe {
        let mut ce: zend_class_entry = std::mem::zeroed();
        ce.name = interned(name);
        ce.info.internal.builtin_functions = methods;
        let registered = ffi::zend_register_internal_class_ex(&raw mut ce, parent);
        (*registered).ce_flags |= flags;
        registered
    }
}

/// Marks an internal class as an attribute class with the given target flags; returns its
/// `zend_internal_attribute` record.
///
/// # Safety
/// `ce` must be an internal class registered during this MINIT.
pub unsafe fn register_attribute(ce: *mut zend_class_entry, flags: u32) -> *mut c_void {
    // SAFETY: caller guarantees an internal class; the function stores it in a persistent table.
    unsafe { zend_internal_attribute_register(ce, flags) }
}

/// Registers global functions (the test hooks) from MINIT.
///
/// # Safety
/// Must run during module startup; `functions` must be terminated by [`end_of_methods`].
pub unsafe fn register_functions(functions: *const zend_function_entry) {
    // SAFETY: caller guarantees MINIT; a null table means the global function table.
    unsafe {
        ffi::zend_register_functions(ptr::null_mut(), functions, ptr::null_mut(), MODULE_PERSISTENT);
    }
}

pub fn closure_class() -> *mut zend_class_entry {
    // SAFETY: zend_ce_closure is set at engine startup, before any extension runs.
    unsafe { zend_ce_closure }
}

/// The type byte of a zval.
///
/// # Safety
/// `z` must point to a live zval.
pub unsafe fn type_of(z: *const zval) -> u32 {
    // SAFETY: caller guarantees a live zval; the low byte of type_info is its type.
    unsafe { (*z).u1.type_info & 0xff }
}

/// Follows one `IS_REFERENCE` indirection.
///
/// # Safety
/// `z` must point to a live zval.
pub unsafe fn deref(z: *mut zval) -> *mut zval {
    // SAFETY: a reference zval points to a live zend_reference whose `val` is a zval.
    unsafe {
        if type_of(z) == IS_REFERENCE {
            &raw mut (*(*z).value.ref_).val
        } else {
            z
        }
    }
}

/// Bytes of a string zval.
///
/// # Safety
/// `z` must be a live `IS_STRING` zval; the slice borrows its zend_string.
pub unsafe fn str_bytes<'a>(z: *const zval) -> &'a [u8] {
    // SAFETY: caller guarantees IS_STRING, so value.str_ is a live zend_string.
    unsafe { zstr_bytes((*z).value.str_) }
}

/// Bytes of a zend_string.
///
/// # Safety
/// `s` must be a live zend_string that outlives `'a`.
pub unsafe fn zstr_bytes<'a>(s: *const zend_string) -> &'a [u8] {
    // SAFETY: a zend_string stores `len` bytes inline starting at `val`.
    unsafe { std::slice::from_raw_parts((*s).val.as_ptr().cast::<u8>(), (*s).len) }
}

/// `zend_string_hash_val`: the string's hash as PHP computes it, cached in the string.
///
/// # Safety
/// `s` must be a live zend_string that is interned (its hash is always cached) or writable.
pub unsafe fn string_hash(s: *mut zend_string) -> u64 {
    // SAFETY: caller guarantees a live string; PHP's function writes `h` of a writable one.
    unsafe {
        match (*s).h {
            0 => zend_string_hash_func(s),
            h => h,
        }
    }
}

/// Number of live elements of an array.
///
/// # Safety
/// `ht` must be a live array.
pub unsafe fn array_len(ht: *const ffi::HashTable) -> usize {
    // SAFETY: caller guarantees a live array.
    unsafe { (*ht).nNumOfElements as usize }
}

/// [`loaded_class`] for a class name already lower-cased (no leading `\\`, no NUL: the class-selector
/// keys `delete()` meets): the class table is keyed by lower-case names, so the name is looked up as it
/// is, without the engine's lower-casing copy.
pub fn loaded_class_lc(lcclass: &[u8]) -> Option<*mut zend_class_entry> {
    let table = class_table();
    if table.is_null() {
        return None;
    }
    // SAFETY: the class table, when set, is live while PHP runs and only read here; its elements are
    // pointer zvals holding the class entries.
    unsafe {
        let found = ffi::zend_hash_str_find(table, lcclass.as_ptr().cast(), lcclass.len());
        (!found.is_null()).then(|| (*found).value.ptr.cast())
    }
}

/// Whether a class, interface, trait or enum of that name is in the class table, without autoloading.
/// One leading `\` is ignored; the lookup is case-insensitive, as PHP's is.
pub fn class_is_loaded(name: &[u8]) -> bool {
    loaded_class(name).is_some()
}

/// The compiler's class table (see [`loaded_class`]), for [`class_is_loaded_zstr`]; null when unset.
pub fn class_table() -> *mut ffi::HashTable {
    // SAFETY: this thread's compiler globals are live while PHP runs.
    unsafe { (*ffi::ext_php_rs_compiler_globals()).class_table }
}

/// [`class_is_loaded`] for a name PHP holds as a `zend_string` (`getMultiple()` keys), with `table`
/// from [`class_table`] read once for many names: a name already in lower case, without a leading `\\`
/// or NUL (most keys), is looked up as the string itself with the hash it caches, instead of through a
/// lower-cased copy whose hash is computed on every call.
///
/// # Safety
/// `name` must be a live zend_string that is interned (its hash is always cached) or writable; `table`
/// must be what [`class_table`] returns in the same request, with no class declared since.
pub unsafe fn class_is_loaded_zstr(table: *mut ffi::HashTable, name: *mut zend_string) -> bool {
    // SAFETY: caller guarantees a live string.
    let bytes = unsafe { zstr_bytes(name) };
    if !is_plain_class_name(bytes) {
        return class_is_loaded(bytes);
    }
    // SAFETY: as in `loaded_class`; the class table's keys are lower-case names, so a lower-case string
    // finds the same entry `zend_hash_str_find_ptr_lc` would. The lookup caches the string's hash, which
    // the caller allows.
    !table.is_null() && unsafe { !ffi::zend_hash_find(table, name).is_null() }
}

/// Whether `name` is looked up in the class table by its own bytes (no upper-case letter, no NUL, no
/// leading `\\`): then [`class_is_loaded_plain`] is its loaded-class test.
pub fn is_plain_class_name(name: &[u8]) -> bool {
    !needs_lowering(name) && name.first().is_some_and(|&b| b != b'\\')
}

/// [`class_is_loaded_zstr`] for a name [`is_plain_class_name`] accepted: one class-table lookup.
///
/// # Safety
/// `name` must be a live zend_string that is interned (its hash is always cached) or writable.
pub unsafe fn class_is_loaded_plain(name: *mut zend_string) -> bool {
    let table = class_table();
    // SAFETY: as in `class_is_loaded_zstr`.
    !table.is_null() && unsafe { !ffi::zend_hash_find(table, name).is_null() }
}

/// Longest name (after its leading `\\`) a [`LoweredName`] holds.
pub const LOWERED_NAME_MAX: usize = 48;

/// A key's loaded-class test worked out once for its bytes (§4.2, exactly as [`loaded_class`] makes it:
/// one leading `\\` ignored, case-insensitive, a name with a NUL never loaded): the name lower-cased,
/// laid out as a `zend_string` with its hash, so that each test is one class-table lookup with a known
/// hash, whatever the key's case (`read_cache`'s hot keys keep one).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct LoweredName {
    /// `zend_refcounted_h` (refcount, type info): never read by the lookup.
    gc: [u32; 2],
    /// 0: the key never names a class (empty after its `\\`, or holding a NUL).
    h: u64,
    len: usize,
    val: [u8; LOWERED_NAME_MAX + 1],
}

// The lookup reads `h`, `len` and `val` where a `zend_string` has them.
const _: () = {
    assert!(std::mem::offset_of!(LoweredName, h) == std::mem::offset_of!(zend_string, h));
    assert!(std::mem::offset_of!(LoweredName, len) == std::mem::offset_of!(zend_string, len));
    assert!(std::mem::offset_of!(LoweredName, val) == std::mem::offset_of!(zend_string, val));
};

impl LoweredName {
    /// The test of a key that never names a class.
    pub const NEVER: LoweredName = LoweredName { gc: [1, IS_STRING], h: 0, len: 0, val: [0; LOWERED_NAME_MAX + 1] };

    /// The test of the key `name`; `None` when it is longer than [`LOWERED_NAME_MAX`] (after its `\\`).
    pub fn of(name: &[u8]) -> Option<LoweredName> {
        let name = name.strip_prefix(b"\\").unwrap_or(name);
        if name.is_empty() || name.contains(&0) {
            return (name.len() <= LOWERED_NAME_MAX).then_some(Self::NEVER);
        }
        let mut lowered = Self::NEVER;
        // As `zend_str_tolower_copy` (ASCII only, whatever the locale).
        for (to, from) in lowered.val.get_mut(..name.len())?.iter_mut().zip(name) {
            *to = from.to_ascii_lowercase();
        }
        lowered.len = name.len();
        // SAFETY: `val` holds `len` initialised bytes; the function only reads them.
        lowered.h = unsafe { zend_hash_func(lowered.val.as_ptr().cast(), lowered.len) };
        Some(lowered)
    }

    /// Whether a class, interface, trait or enum of this name is in the class table (no autoloading):
    /// [`class_is_loaded`] of the key it was made of.
    pub fn is_loaded(&self) -> bool {
        if self.h == 0 {
            return false;
        }
        let table = class_table();
        // SAFETY: the class table, when set, is live while PHP runs and only read here. `self` is laid
        // out as a `zend_string` where the lookup reads it (`h`, `len`, `val`; asserted above), with the
        // hash PHP gives its bytes, and is only compared, never kept or freed; no PHP code runs.
        !table.is_null() && unsafe { !ffi::zend_hash_find_known_hash(table, ptr::from_ref(self).cast()).is_null() }
    }
}

/// Whether `bytes` holds an upper-case ASCII letter or a NUL, eight bytes at a time (`getMultiple()`
/// checks every key; a byte loop cost more than the class-table lookup). Exact, never a false negative.
fn needs_lowering(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const LOW7: u64 = u64::from_ne_bytes([0x7f; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // Per byte: bit 7 set where the byte is NUL ("haszero"), or in b'A'..=b'Z' ("hasbetween" 0x40, 0x5b,
    // which excludes bytes >= 0x80): no carry crosses bytes in either.
    let flagged = |w: u64| {
        let zero = w.wrapping_sub(ONES) & !w & HIGH;
        let low = w & LOW7;
        let upper = (ONES * (127 + 0x5b)).wrapping_sub(low) & !w & (low + ONES * (127 - 0x40)) & HIGH;
        zero | upper != 0
    };
    // Fixed-size slices: one bounds check and one load each (the fallbacks are never taken).
    let word = |at: usize| u64::from_ne_bytes(bytes[at..at + 8].try_into().unwrap_or([b'a'; 8]));
    let n = bytes.len();
    // Whole words, the last one overlapping the one before; shorter keys as two overlapping halves, or
    // (under four bytes) their first, middle and last bytes with the rest padded by a byte that is
    // neither. Every byte is seen at least once, without a copy loop.
    if n >= 8 {
        let mut found = flagged(word(n - 8));
        let mut at = 0;
        while at + 8 < n {
            found |= flagged(word(at));
            at += 8;
        }
        found
    } else if n >= 4 {
        let half = |at: usize| u64::from(u32::from_ne_bytes(bytes[at..at + 4].try_into().unwrap_or([b'a'; 4])));
        flagged(half(0) | half(n - 4) << 32)
    } else if n > 0 {
        flagged(u64::from_ne_bytes([bytes[0], bytes[n / 2], bytes[n - 1], b'a', b'a', b'a', b'a', b'a']))
    } else {
        false
    }
}

/// Runs `f` (an evaluation of constant expressions) as if no file were compiling. PHP refuses to make
/// enum case objects while it compiles, to keep them out of the op_arrays it builds; a class linked
/// while an include compiles is restored right then, and the values evaluated here (attribute
/// arguments, a class's default values) are not part of any op_array.
pub fn outside_compilation<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: this thread's compiler globals are live while PHP runs; the flag is put back after.
    unsafe {
        let cg = ffi::ext_php_rs_compiler_globals();
        let compiling = std::mem::replace(&mut (*cg).in_compilation, false);
        let result = f();
        (*cg).in_compilation = compiling;
        result
    }
}

/// The loaded class, interface, trait or enum `name` names (one leading `\\` ignored,
/// case-insensitive), without autoloading.
pub fn loaded_class(name: &[u8]) -> Option<*mut zend_class_entry> {
    let name = name.strip_prefix(b"\\").unwrap_or(name);
    // Class names never contain NUL; the class table also holds "\0..." runtime-definition keys.
    if name.is_empty() || name.contains(&0) {
        return None;
    }
    // The compiler's class table: during a request the executor's points to the same table, and at
    // module startup only the compiler's is valid (under ZTS the executor's is unset then, or left over
    // from before an in-process restart). It is only read; the engine lower-cases the name on its stack
    // (every get() checks its key here, so no allocation).
    // SAFETY: this thread's compiler globals are live while PHP runs; the table, when set, is live.
    unsafe {
        let table = (*ffi::ext_php_rs_compiler_globals()).class_table;
        if table.is_null() {
            return None;
        }
        let found = ffi::zend_hash_str_find_ptr_lc(table, name.as_ptr().cast(), name.len());
        (!found.is_null()).then(|| found.cast::<zend_class_entry>())
    }
}

/// Whether the request ran over `memory_limit` inside internal code: PHP 8.2.33+ records the error and
/// raises it at the VM's next check, and kills the process if allocation goes on to twice the limit.
/// Loops that allocate per element stop when this turns true.
#[cfg(php_delayed_oom)]
pub fn out_of_memory() -> bool {
    // SAFETY: reading this thread's executor globals during a request.
    unsafe { (*ffi::ext_php_rs_executor_globals()).delayed_oom.state != 0 }
}

/// Earlier releases raise the `memory_limit` fatal at once, from inside the allocation.
#[cfg(not(php_delayed_oom))]
pub fn out_of_memory() -> bool {
    false
}

#[cfg(php84)]
const IS_OBJ_LAZY_UNINITIALIZED: u32 = 1 << 31;
#[cfg(php84)]
const IS_OBJ_LAZY_PROXY: u32 = 1 << 30;

/// Whether `obj` is a PHP 8.4 lazy object (`zend_lazy_objects.h`): an uninitialised ghost or proxy, or
/// an initialised proxy whose state lives in its real instance. Reads flags only; runs no code. Before
/// 8.4 no object is lazy.
///
/// # Safety
/// `obj` must be a live object.
pub unsafe fn is_lazy(obj: *mut ffi::zend_object) -> bool {
    #[cfg(php84)]
    {
        // SAFETY: caller guarantees a live object; `extra_flags` holds its lazy bits (`OBJ_EXTRA_FLAGS`).
        unsafe { (*obj).extra_flags & (IS_OBJ_LAZY_UNINITIALIZED | IS_OBJ_LAZY_PROXY) != 0 }
    }
    #[cfg(not(php84))]
    {
        let _ = obj;
        false
    }
}

/// The object whose property slots hold `obj`'s state: `obj` itself, or for a lazy object what
/// `zend_lazy_object_init` gives (a ghost initialised in place, a proxy's real instance). That runs
/// userland code: an uninitialised object's initializer, and even for an initialised proxy the
/// initializer of a real instance that was made lazy again. `Err` when an initializer threw (the engine
/// leaves the object lazy and the exception pending).
///
/// # Safety
/// `obj` must be a live object; userland code may run (no shm-core state held, nothing unpinned that
/// the caller still reads).
pub unsafe fn lazy_state(obj: *mut ffi::zend_object) -> Result<*mut ffi::zend_object, ()> {
    // SAFETY: caller guarantees a live object.
    if !unsafe { is_lazy(obj) } {
        return Ok(obj);
    }
    #[cfg(php84)]
    {
        // SAFETY: caller guarantees a live lazy object and that userland code may run.
        let state = unsafe { ffi::zend_lazy_object_init(obj) };
        if state.is_null() {
            Err(())
        } else {
            Ok(state)
        }
    }
    #[cfg(not(php84))]
    Ok(obj)
}

pub fn exception_pending() -> bool {
    // SAFETY: executor globals are live during a request.
    unsafe { !(*ffi::ext_php_rs_executor_globals()).exception.is_null() }
}

/// Whether the pending exception unwinds without being catchable: `exit()` ending the request, or
/// the engine destroying a Fiber that was suspended ([`fiber_unwinding`]). Neither may be cleared:
/// userland code would go on where the engine stopped it.
pub fn exit_pending() -> bool {
    // SAFETY: executor globals are live during a request; a pending exception is a live object.
    unsafe {
        let ex = (*ffi::ext_php_rs_executor_globals()).exception;
        !ex.is_null() && (zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex))
    }
}

/// Whether the pending exception is the one the engine unwinds a destroyed Fiber with (the Fiber was
/// suspended, then released or destroyed at request end): the code it suspended in never finishes.
pub fn fiber_unwinding() -> bool {
    // SAFETY: as in `exit_pending`.
    unsafe {
        let ex = (*ffi::ext_php_rs_executor_globals()).exception;
        !ex.is_null() && zend_is_graceful_exit(ex)
    }
}

/// The pending exception as `Class: message` (`None`: none pending), for a report that replaces it.
pub fn pending_exception_text() -> Option<String> {
    // SAFETY: executor globals are live during a request; a pending exception is a live Throwable,
    // whose `message` property every Throwable class declares. Reading it silently runs no userland
    // code unless a subclass unset it and declares `__get` (whose result `rv` then owns and drops).
    unsafe {
        let ex = (*ffi::ext_php_rs_executor_globals()).exception;
        if ex.is_null() {
            return None;
        }
        let class = String::from_utf8_lossy(zstr_bytes((*(*ex).ce).name)).into_owned();
        let mut rv = zval::new();
        let message = ffi::zend_read_property((*ex).ce, ex, c"message".as_ptr(), 7, true, &raw mut rv);
        let text = if !message.is_null() && type_of(message) == IS_STRING {
            String::from_utf8_lossy(str_bytes(message)).into_owned()
        } else {
            String::new()
        };
        Some(if text.is_empty() { class } else { format!("{class}: {text}") })
    }
}

thread_local! {
    /// The frame [`with_frame`] makes current: zeroed (no caller, no call info, no `$this`) but for its
    /// function.
    static FRAME: std::cell::UnsafeCell<zend_execute_data> =
        // SAFETY: all-zero is a valid `zend_execute_data` (null pointers, zero counts).
        const { std::cell::UnsafeCell::new(unsafe { std::mem::zeroed() }) };
}

/// Takes the pending exception out of the engine, with its reference (`None`: none pending), so that more
/// userland code can run before it is reported ([`restore_exception`]).
pub fn take_exception() -> Option<ptr::NonNull<ffi::zend_object>> {
    // SAFETY: executor globals are live during a request. Only [`with_frame`]'s step calls this, whose
    // frame is an internal function's: no opline of a user frame was redirected to the exception.
    unsafe {
        let eg = ffi::ext_php_rs_executor_globals();
        ptr::NonNull::new(std::mem::replace(&mut (*eg).exception, ptr::null_mut()))
    }
}

/// Makes an exception [`take_exception`] took pending again, unless another one is (this one is then let go).
pub fn restore_exception(exception: ptr::NonNull<ffi::zend_object>) {
    // SAFETY: as in `take_exception`; the reference taken with it is handed back to the engine.
    unsafe {
        let eg = ffi::ext_php_rs_executor_globals();
        if (*eg).exception.is_null() {
            (*eg).exception = exception.as_ptr();
        } else {
            let mut held = zval::new();
            held.value.obj = exception.as_ptr();
            held.u1.type_info = crate::zvals::IS_OBJECT_EX;
            drop(held);
        }
    }
}

/// Whether the current frame is [`with_frame`]'s.
fn in_own_frame() -> bool {
    // SAFETY: executor globals are live during a request; only the address is compared.
    FRAME.with(|frame| unsafe { ptr::eq((*ffi::ext_php_rs_executor_globals()).current_execute_data, frame.get()) })
}

/// The Fiber context PHP code runs in now (`EG(current_fiber_context)`, the main context's outside any
/// Fiber), as an address that tells the contexts of this request apart.
pub fn current_fiber_context() -> usize {
    // SAFETY: executor globals are live during a request.
    unsafe { (*ffi::ext_php_rs_executor_globals()).current_fiber_context as usize }
}

/// Whether `context` (a [`current_fiber_context`] of this request) is below the running code: the
/// current context, or one that started or resumed it, directly or through other Fibers, up to the main
/// context. A context not below it is suspended (`Fiber::suspend()`). A context of another kind than a
/// `Fiber` object's (an extension's own) counts as below it, as does a chain longer than any real one.
pub fn fiber_context_is_running(context: usize) -> bool {
    // SAFETY: executor globals are live during a request; a context of kind `zend_ce_fiber` is the
    // `context` member of a live `zend_fiber` (the running one or one whose `caller` led here, which
    // stays alive while it waits for the Fiber it started or resumed), whose `caller` is the context
    // that started or last resumed it, or null once it suspended.
    unsafe {
        let eg = ffi::ext_php_rs_executor_globals();
        let main = (*eg).main_fiber_context;
        let mut at = (*eg).current_fiber_context;
        for _ in 0..4096 {
            if at as usize == context {
                return true;
            }
            if at.is_null() || at == main {
                return false;
            }
            if (*at).kind != zend_ce_fiber.cast() {
                return true;
            }
            let fiber = at.byte_sub(std::mem::offset_of!(ffi::_zend_fiber, context)).cast::<ffi::_zend_fiber>();
            at = (*fiber).caller;
        }
        true
    }
}

/// Runs `step`, which may call userland code, with a frame current where the engine has none (request
/// shutdown). Without one, `zend_call_function` turns an exception the called code throws into an
/// "Uncaught" fatal error at once, which would end the whole step there; with one, the exception stays
/// pending for `step` to handle. An exception `step` leaves pending is reported as uncaught once
/// `step` is done. The frame is an internal function's, so errors and backtraces name no file or function for
/// it, as they do without a frame. A bailout out of `step` takes the frame down before it is handed on.
pub fn with_frame(step: impl FnOnce()) {
    // SAFETY: executor globals are live during a request.
    let eg = unsafe { ffi::ext_php_rs_executor_globals() };
    // SAFETY: as above.
    if unsafe { !(*eg).current_execute_data.is_null() } {
        return step();
    }
    let outcome = FRAME.with(|frame| {
        let frame = frame.get();
        // SAFETY: the frame is this thread's and only the engine reads it, while it is current; the
        // function is the engine's static one.
        unsafe {
            (*frame).func = (&raw const zend_pass_function).cast_mut().cast();
            (*eg).current_execute_data = frame;
        }
        let outcome = ext_php_rs::zend::try_catch(std::panic::AssertUnwindSafe(step));
        // SAFETY: as above; there was no frame before.
        unsafe { (*eg).current_execute_data = ptr::null_mut() };
        outcome
    });
    match outcome {
        // SAFETY: no frame is current again: the engine reports the exception as uncaught and bails
        // out (this frame owns nothing).
        Ok(()) if exception_pending() => unsafe { zend_throw_exception_internal(ptr::null_mut()) },
        Ok(()) => {}
        // SAFETY: the frame is taken down and this frame owns nothing.
        Err(ext_php_rs::zend::CatchError::Bailout) => unsafe { ext_php_rs::zend::bailout() },
        Err(other) => panic!("{other}"),
    }
}

/// The SAPI name (`cli`, `fpm-fcgi`, ...).
pub fn sapi_name() -> String {
    // SAFETY: sapi_module is initialised by the SAPI before module startup; `name` is a C string.
    unsafe {
        let name = (*ffi::ext_php_rs_sapi_module()).name;
        if name.is_null() {
            String::new()
        } else {
            CStr::from_ptr(name).to_string_lossy().into_owned()
        }
    }
}

/// Whether PHP's startup had already finished when this is called: at MINIT, true only for an extension
/// loaded later, as php-fpm loads `php_admin_value[extension]` in each worker.
pub fn loaded_after_startup() -> bool {
    // SAFETY: reads a flag main.c sets once at the end of php_module_startup.
    unsafe { php_get_module_initialized() != 0 }
}

/// The map_ptr table's length at the end of this module's startup, when PHP's startup had finished
/// before it (php-fpm's `php_admin_value[extension]`); 0 otherwise.
static LATE_MAP_PTR_LAST: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// MINIT, last: remembers the per-request pointer slots (map_ptr) the module took, if loaded after PHP's
/// startup. Its functions' run-time caches and its enums' constant tables live in slots past the ones
/// PHP had at startup, and without OPcache PHP cuts the table back to those at the end of every request
/// that interned a string (`zend_deactivate`): the module's slots then keep the ended request's
/// pointers, and the next request's compiler hands the same slots out again.
pub fn remember_late_map_ptr_slots() {
    if loaded_after_startup() {
        // SAFETY: the compiler globals exist from startup on; reading one field.
        let last = unsafe { (*ffi::ext_php_rs_compiler_globals()).map_ptr_last };
        LATE_MAP_PTR_LAST.store(last, std::sync::atomic::Ordering::Relaxed);
    }
}

/// RINIT, first: gives the slots [`remember_late_map_ptr_slots`] recorded back to this module, emptied,
/// if the engine cut the table back (as OPcache does for the slots it hands out, at each request start).
/// The engine gave fcall observers' run-time caches out before this, skipping the module's functions
/// (their slots still held the ended request's pointers); now null, they get theirs.
pub fn restore_late_map_ptr_slots() {
    let last = LATE_MAP_PTR_LAST.load(std::sync::atomic::Ordering::Relaxed);
    // SAFETY: the compiler globals exist from startup on; reading one field.
    if last > unsafe { (*ffi::ext_php_rs_compiler_globals()).map_ptr_last } {
        // SAFETY: request startup, before any code of the request runs: the slots past the table's end
        // are this module's (and those of modules loaded with it), which nothing uses until this request
        // sets them; the run-time caches come from the request's arena, as zend_activate's do.
        unsafe {
            zend_map_ptr_extend(last);
            zend_init_internal_run_time_cache();
        }
    }
}

/// Whether PHP is starting a request (RINIT inside php_request_startup), as opposed to `dl()` calling RINIT
/// on its own outside any request.
pub fn request_starting() -> bool {
    // SAFETY: the core globals exist from SAPI startup on; the flag is set at request startup and cleared
    // when the script starts.
    unsafe { (*ffi::ext_php_rs_process_globals()).during_request_startup }
}

/// `SG(server_context)`: the SAPI's record of the current request (null outside one).
pub fn sapi_server_context() -> *mut std::ffi::c_void {
    // SAFETY: the SAPI globals exist from SAPI startup on; reading one pointer field.
    unsafe { (*ffi::ext_php_rs_sapi_globals()).server_context }
}

/// A C string for messages: interior NUL bytes (binary keys) are shown as `\0`.
pub fn message(text: &[u8]) -> CString {
    let mut out = Vec::with_capacity(text.len());
    for &b in text {
        if b == 0 {
            out.extend_from_slice(b"\\0");
        } else {
            out.push(b);
        }
    }
    CString::new(out).expect("NUL bytes were escaped")
}

/// `E_WARNING` through `php_error_docref`, so PHP prefixes `Class::method(): `. Under
/// [`with_frame`]'s frame, whose function has no name for the prefix, through `zend_error`.
pub fn warning_docref<'a>(text: impl Into<Cow<'a, [u8]>>) {
    docref(ffi::E_WARNING as i32, text);
}

/// A diagnostic of `level` (`E_NOTICE`, `E_WARNING`, …), as [`warning_docref`] gives a warning. The
/// text is consumed: it is copied into the request heap (NUL bytes shown as `\0`, as by [`message`])
/// and released before the engine is called, since an error handler may turn the diagnostic into a
/// fatal error, which longjmps past this frame and the caller's (a message built for it was lost at
/// each one). A caller that builds the text passes it owned, built in a statement of its own.
pub fn docref<'a>(level: i32, text: impl Into<Cow<'a, [u8]>>) {
    let text = text.into();
    let msg =
        if text.contains(&0) { ZendStr::new(message(&text).as_bytes(), false) } else { ZendStr::new(&*text, false) };
    drop(text);
    // A zend_string's bytes are followed by a NUL byte, and these hold none.
    let msg_ptr = msg.val.as_ptr();
    if in_own_frame() {
        // SAFETY: the format is a fixed "%s" with one C string argument.
        unsafe { ffi::zend_error(level, c"%s".as_ptr(), msg_ptr) };
        return;
    }
    // SAFETY: called during a method call; the format is a fixed "%s" with one C string argument.
    unsafe { ffi::php_error_docref(ptr::null(), level, c"%s".as_ptr(), msg_ptr) }
}

/// `E_WARNING` through `zend_error`, without prefix (startup warnings).
pub fn warning_plain(text: &str) {
    let msg = message(text.as_bytes());
    // SAFETY: the format is a fixed "%s" with one C string argument.
    unsafe { ffi::zend_error(ffi::E_WARNING as i32, c"%s".as_ptr(), msg.as_ptr()) }
}

/// Raw php.ini / `-d` configuration value, readable before other extensions register their INI.
pub fn raw_config(name: &str) -> Option<String> {
    // SAFETY: the configuration hash is built before module startup and only read here; the
    // returned zval, when present, is a string zval owned by that hash.
    unsafe {
        let z = ffi::cfg_get_entry(name.as_ptr().cast(), name.len());
        if z.is_null() || type_of(z) != IS_STRING {
            return None;
        }
        Some(String::from_utf8_lossy(str_bytes(z)).into_owned())
    }
}

/// Whether a zval is a resource (the only type outside `object|array|string|int|float|bool|null`).
///
/// # Safety
/// `z` must point to a live zval.
pub unsafe fn is_resource(z: *const zval) -> bool {
    // SAFETY: caller guarantees a live zval.
    unsafe { type_of(z) == IS_RESOURCE }
}

/// Calls a global PHP function with one argument. Userland code may run (serializer hooks), so the
/// caller must hold no shm-core entry, lock or request-state borrow.
pub fn call_function(name: &CStr, arg: *mut zval, ret: &mut zval) -> Result<(), crate::args::Thrown> {
    // SAFETY: called during a request; the function exists in every PHP build (ext/standard), the
    // engine copies `arg` into the callee frame and writes the result into `ret`.
    unsafe {
        let f = ffi::zend_fetch_function_str(name.as_ptr(), name.count_bytes());
        if f.is_null() {
            return Err(crate::args::Thrown);
        }
        ffi::zend_call_known_function(f, ptr::null_mut(), ptr::null_mut(), ret, 1, arg, ptr::null_mut());
    }
    if exception_pending() {
        return Err(crate::args::Thrown);
    }
    Ok(())
}

const OPCACHE: &CStr = c"Zend OPcache";

pub fn opcache_loaded() -> bool {
    // SAFETY: the zend_extensions list is built before module startup and only read here.
    unsafe { !ffi::zend_get_extension(OPCACHE.as_ptr()).is_null() }
}

/// §2.4: an engine that ships the RFC itself (OPcache exporting its opt-in entry point, or the class
/// already registered).
pub fn engine_provides_static_cache() -> bool {
    // SAFETY: the extension record and its dlopen handle live for the process; dlsym only reads.
    let exported = unsafe {
        let ext = ffi::zend_get_extension(OPCACHE.as_ptr());
        !ext.is_null()
            && !(*ext).handle.is_null()
            && !libc::dlsym((*ext).handle, c"zend_opcache_static_cache_opt_in".as_ptr()).is_null()
    };
    exported || class_is_loaded(b"OPcache\\VolatileCache")
}

/// A class entry registered at MINIT, readable from any thread afterwards.
pub struct ClassRef(std::sync::atomic::AtomicPtr<zend_class_entry>);

impl ClassRef {
    pub const fn new() -> Self {
        Self(std::sync::atomic::AtomicPtr::new(ptr::null_mut()))
    }

    pub fn set(&self, ce: *mut zend_class_entry) {
        self.0.store(ce, std::sync::atomic::Ordering::Release);
    }

    pub fn get(&self) -> *mut zend_class_entry {
        self.0.load(std::sync::atomic::Ordering::Acquire)
    }
}

/// Declares a public readonly typed property without default (internal classes).
///
/// # Safety
/// Must run during MINIT on a class registered in this MINIT.
pub unsafe fn declare_readonly_property(ce: *mut zend_class_entry, name: &CStr, type_: zend_type) {
    let mut undef = zval::new();
    undef.u1.type_info = ffi::IS_UNDEF;
    // SAFETY: caller guarantees MINIT and a fresh internal class; the name is a permanent interned
    // string and the engine copies the (undefined) default.
    unsafe {
        ffi::zend_declare_typed_property(
            ce,
            interned(name),
            &raw mut undef,
            (ZEND_ACC_PUBLIC | ZEND_ACC_READONLY) as i32,
            ptr::null_mut(),
            type_,
        );
    }
}

pub const fn mask_type(mask: u32) -> zend_type {
    zend_type { ptr: ptr::null_mut(), type_mask: mask }
}

/// A class-typed property type (the name must be a permanent interned string).
pub fn class_type(name: &CStr) -> zend_type {
    zend_type { ptr: interned(name).cast(), type_mask: _ZEND_TYPE_NAME_BIT }
}

/// Initialises the `index`-th declared property slot of `obj` with `value`, once: a second write
/// throws PHP's readonly error, as `$obj->__construct()` called twice would.
///
/// # Safety
/// `obj` must be a live object of a class whose `index`-th declared slot has the type of `value`.
pub unsafe fn init_property_slot(
    obj: *mut ffi::zend_object,
    index: usize,
    value: zval,
    display: &str,
) -> Result<(), crate::args::Thrown> {
    // SAFETY: declared property slots follow the object header; caller guarantees index and type.
    unsafe {
        let slot = (*obj).properties_table.as_mut_ptr().add(index);
        if type_of(slot) != ffi::IS_UNDEF {
            let msg = message(format!("Cannot modify readonly property {display}").as_bytes());
            ffi::zend_throw_error(ptr::null_mut(), c"%s".as_ptr(), msg.as_ptr());
            return Err(crate::args::Thrown);
        }
        ptr::write(slot, value);
        // Clear IS_PROP_UNINIT (u2.extra) now that the slot holds a value.
        (*slot).u2.extra = 0;
    }
    Ok(())
}

/// Body of the private constructors of the API classes: PHP refuses `new` before calling it.
pub unsafe extern "C" fn private_constructor(_ex: *mut zend_execute_data, _rv: *mut zval) {}

#[cfg(test)]
mod tests {
    use super::needs_lowering;

    fn naive(bytes: &[u8]) -> bool {
        bytes.iter().any(|&b| b.is_ascii_uppercase() || b == 0)
    }

    #[test]
    fn needs_lowering_flags_exactly_upper_case_letters_and_nul() {
        for b in 0..=255u8 {
            for len in 1..=17 {
                for at in 0..len {
                    let mut key = vec![b'k'; len];
                    key[at] = b;
                    assert_eq!(needs_lowering(&key), naive(&key), "byte {b:#x} at {at} of {len}");
                }
            }
        }
        assert!(!needs_lowering(b""));
        assert!(!needs_lowering("cfg:ünïcode_@[`{".as_bytes()));
        assert!(needs_lowering(b"App\\Model\\User"));
    }
}
