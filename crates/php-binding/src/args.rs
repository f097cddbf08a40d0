//! Argument parsing with PHP's own rules for internal functions (coercive vs strict typing, the null
//! deprecation, the standard `TypeError` texts), then the spec's key/value/ttl/lease rules (§4) with
//! their exact messages. Every argument error text of the extension lives in this file.

use std::ffi::CStr;

use ext_php_rs::ffi::{
    self, _zend_expected_type_Z_EXPECTED_ARRAY, _zend_expected_type_Z_EXPECTED_LONG,
    _zend_expected_type_Z_EXPECTED_STRING, zend_execute_data, zend_long, zend_object, zend_string, zval, IS_ARRAY,
    IS_FALSE, IS_LONG, IS_NULL, IS_OBJECT, IS_STRING, IS_TRUE,
};

use crate::zend;
use crate::zvals::{self, RawKey};

/// A PHP exception is pending; the handler must return without touching the cache.
#[derive(Debug)]
pub struct Thrown;

pub type Parsed<T> = Result<T, Thrown>;

/// Attribute state uses these prefixes; explicit keys may not start with them (§4.2).
const RESERVED_PREFIXES: [&[u8]; 2] = [b"volatile_static_class:", b"pinned_static_class:"];

const MSG_NON_EMPTY: &CStr = c"must be a non-empty string";
const MSG_RESERVED: &CStr = c"must not start with a reserved static-cache class key prefix";
const MSG_LOADED_CLASS: &CStr = c"must not be a loaded class name";
const MSG_CLOSURE: &CStr = c"must not be a Closure object";
const MSG_NON_NEGATIVE: &CStr = c"must be greater than or equal to 0";
const MSG_BACKEND: &CStr = c"must be \"volatile\" or \"pinned\"";
const MSG_RESOURCE: &CStr = c"must be of type object|array|string|int|float|bool|null, resource given";
const MSG_VALUES_KEYS: &CStr =
    c"must be an array with non-empty string keys that are not reserved static-cache class keys or loaded class names";
const MSG_KEY_LIST: &CStr = c"must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names";

/// One internal-function call: its frame and return slot.
pub struct Call {
    ex: *mut zend_execute_data,
    ret: *mut zval,
}

impl Call {
    /// # Safety
    /// `ex` and `ret` must be the live frame and return slot the engine passed to the handler, and
    /// the `Call` must not outlive the handler invocation.
    pub unsafe fn new(ex: *mut zend_execute_data, ret: *mut zval) -> Self {
        Self { ex, ret }
    }

    pub fn num_args(&self) -> u32 {
        // SAFETY: the frame is live for the call (Call::new contract); This.u2 holds the count.
        unsafe { (*self.ex).This.u2.num_args }
    }

    /// The `n`-th argument slot (1-based), as `ZEND_CALL_ARG` computes it.
    fn slot(&self, n: u32) -> *mut zval {
        let frame_slot = std::mem::size_of::<zend_execute_data>().div_ceil(std::mem::size_of::<zval>());
        // SAFETY: arguments follow the frame header in the VM stack; n <= num_args is checked by
        // the callers through `expect_args`.
        unsafe { self.ex.cast::<zval>().add(frame_slot + n as usize - 1) }
    }

    /// The return slot. Callers use each returned reference as a temporary and never hold two.
    #[expect(clippy::mut_from_ref, reason = "the engine-owned return slot is not part of `Call`'s borrow")]
    pub fn ret(&self) -> &mut zval {
        // SAFETY: the return slot is live and exclusively ours for the call.
        unsafe { &mut *self.ret }
    }

    /// `RETURN_BOOL`: the engine hands a handler its return slot holding null, which owns nothing, so
    /// only the type word is written (ext-php-rs's `set_bool` first checks for a value to release).
    /// Only for a slot the handler has not set yet.
    pub fn return_bool(&self, b: bool) {
        // SAFETY: the return slot is live and exclusively ours for the call, and holds null (see above).
        unsafe { (*self.ret).u1.type_info = if b { IS_TRUE } else { IS_FALSE } }
    }

    /// `RETURN_LONG`, under [`Call::return_bool`]'s condition.
    pub fn return_long(&self, v: i64) {
        // SAFETY: as in `return_bool`.
        unsafe {
            (*self.ret).value.lval = v;
            (*self.ret).u1.type_info = IS_LONG;
        }
    }

    /// `$this` of a constructor call.
    pub fn this_object(&self) -> *mut zend_object {
        // SAFETY: the frame is live; for an instance method This holds the object.
        unsafe { (*self.ex).This.value.obj }
    }

    /// PHP's argument count check (`expects exactly/at least/at most N arguments, M given`).
    pub fn expect_args(&self, min: u32, max: u32) -> Parsed<()> {
        let n = self.num_args();
        if n >= min && n <= max {
            return Ok(());
        }
        // SAFETY: called from inside the handler, so EG(current_execute_data) is this frame.
        unsafe {
            if max == 0 {
                ffi::zend_wrong_parameters_none_error();
            } else {
                ffi::zend_wrong_parameters_count_error(min, max);
            }
        }
        Err(Thrown)
    }

    /// `Z_PARAM_STR`: a string, coerced from int/float/bool/Stringable in coercive mode, null with the
    /// 8.1 deprecation. The bytes borrow the argument slot.
    pub fn string(&self, n: u32) -> Parsed<&[u8]> {
        let z = self.slot(n);
        // SAFETY: the slot holds a live argument zval; on success the zend_string lives in the slot
        // (possibly converted in place) for the rest of the call.
        unsafe {
            if zend::type_of(z) == IS_STRING {
                return Ok(zend::str_bytes(z));
            }
            let mut s: *mut zend_string = std::ptr::null_mut();
            if ffi::zend_parse_arg_str_slow(z, &raw mut s, n) {
                return Ok(zend::zstr_bytes(s));
            }
            type_error_expected(n, _zend_expected_type_Z_EXPECTED_STRING, z)
        }
    }

    /// Argument `n` when it is a string (no conversion: `Call::string` does that), for the repeated-read
    /// path (`cache_ops::get_hot`).
    pub fn plain_string(&self, n: u32) -> Option<*mut zend_string> {
        let z = self.slot(n);
        // SAFETY: the slot holds a live argument zval.
        unsafe { (zend::type_of(z) == IS_STRING).then(|| (*z).value.str_) }
    }

    /// The single-key rules (§4.2) of every single-key method but `delete` for argument `n`, already
    /// parsed by [`Call::string`] as `key`: the loaded-class test looks the argument's string itself up
    /// with the hash it caches (as `getMultiple()` does for its keys) instead of a lower-cased copy
    /// hashed on every call.
    pub fn full_key(&self, n: u32, key: &[u8]) -> Parsed<()> {
        key_given(n, key, || self.names_loaded_class(n, key))
    }

    /// Whether `key`, argument `n` already parsed by [`Call::string`], names a loaded class (one
    /// leading `\\` ignored, case-insensitive, no autoloading), looked up by the argument's string
    /// itself with the hash it caches where it needs no lower-casing.
    pub fn names_loaded_class(&self, n: u32, key: &[u8]) -> bool {
        let z = self.slot(n);
        // SAFETY: `string` succeeded, so the slot holds a live string (converted in place if it was
        // not one): interned, with its hash cached, or a request string whose hash PHP may cache.
        unsafe {
            if zend::type_of(z) == IS_STRING && std::ptr::eq(zend::str_bytes(z).as_ptr(), key.as_ptr()) {
                zend::class_is_loaded_zstr(zend::class_table(), (*z).value.str_)
            } else {
                zend::class_is_loaded(key)
            }
        }
    }

    /// `Z_PARAM_STR_OR_NULL`.
    pub fn nullable_string(&self, n: u32) -> Parsed<Option<&[u8]>> {
        let z = self.slot(n);
        // SAFETY: as in `string`.
        unsafe {
            match zend::type_of(z) {
                IS_NULL => Ok(None),
                IS_STRING => Ok(Some(zend::str_bytes(z))),
                _ => {
                    let mut s: *mut zend_string = std::ptr::null_mut();
                    if ffi::zend_parse_arg_str_slow(z, &raw mut s, n) {
                        return Ok(Some(zend::zstr_bytes(s)));
                    }
                    type_error_expected(n, _zend_expected_type_Z_EXPECTED_STRING + 1, z)
                }
            }
        }
    }

    /// `Z_PARAM_LONG`.
    pub fn long(&self, n: u32) -> Parsed<i64> {
        let z = self.slot(n);
        // SAFETY: the slot holds a live argument zval.
        unsafe {
            if zend::type_of(z) == IS_LONG {
                return Ok((*z).value.lval);
            }
            let mut l: zend_long = 0;
            if ffi::zend_parse_arg_long_slow(z, &raw mut l, n) {
                return Ok(l);
            }
            type_error_expected(n, _zend_expected_type_Z_EXPECTED_LONG, z)
        }
    }

    /// `Z_PARAM_ARRAY_HT`.
    pub fn array(&self, n: u32) -> Parsed<*mut ffi::HashTable> {
        let z = self.slot(n);
        // SAFETY: the slot holds a live argument zval.
        unsafe {
            if zend::type_of(z) == IS_ARRAY {
                return Ok((*z).value.arr);
            }
            type_error_expected(n, _zend_expected_type_Z_EXPECTED_ARRAY, z)
        }
    }

    /// `Z_PARAM_ARRAY_HT_OR_NULL`.
    pub fn nullable_array(&self, n: u32) -> Parsed<Option<*mut ffi::HashTable>> {
        let z = self.slot(n);
        // SAFETY: the slot holds a live argument zval.
        unsafe {
            match zend::type_of(z) {
                IS_NULL => Ok(None),
                IS_ARRAY => Ok(Some((*z).value.arr)),
                _ => type_error_expected(n, _zend_expected_type_Z_EXPECTED_ARRAY + 1, z),
            }
        }
    }

    /// A `object|array|string|int|float|bool|null` parameter: everything but a resource.
    pub fn value(&self, n: u32) -> Parsed<*mut zval> {
        let z = self.slot(n);
        // SAFETY: the slot holds a live argument zval.
        if unsafe { zend::is_resource(zend::deref(z)) } {
            return type_error(n, MSG_RESOURCE);
        }
        Ok(z)
    }

    /// A parameter typed with a class: an instance of `ce`, or the standard TypeError.
    pub fn object_of(&self, n: u32, ce: *mut ffi::zend_class_entry) -> Parsed<*mut zend_object> {
        let z = self.slot(n);
        // SAFETY: the slot holds a live argument zval; `ce` is a registered class.
        unsafe {
            if zend::type_of(z) == IS_OBJECT && {
                let given = (*(*z).value.obj).ce;
                given == ce || ffi::instanceof_function_slow(given, ce)
            } {
                return Ok((*z).value.obj);
            }
            let class = CStr::from_ptr((*(*ce).name).val.as_ptr()).to_owned();
            let given = CStr::from_ptr(ffi::zend_zval_type_name(z)).to_owned();
            let mut msg = b"must be of type ".to_vec();
            msg.extend_from_slice(class.to_bytes());
            msg.extend_from_slice(b", ");
            msg.extend_from_slice(given.to_bytes());
            msg.extend_from_slice(b" given");
            type_error(n, &zend::message(&msg))
        }
    }
}

/// # Safety
/// Must be called inside the handler, with `z` the offending argument.
unsafe fn type_error_expected<T>(n: u32, expected: u32, z: *mut zval) -> Parsed<T> {
    // The slow parsers may already have thrown (deprecation promoted by an error handler, a
    // throwing __toString); PHP then keeps that exception.
    if !zend::exception_pending() {
        // SAFETY: caller guarantees we are inside the handler of the failing call.
        unsafe { ffi::zend_wrong_parameter_type_error(n, expected, z) };
    }
    Err(Thrown)
}

fn type_error<T>(n: u32, msg: &CStr) -> Parsed<T> {
    // SAFETY: fixed "%s" format with one C string; called inside a handler, so the engine names the
    // active function and parameter.
    unsafe { ffi::zend_argument_type_error(n, c"%s".as_ptr(), msg.as_ptr()) };
    Err(Thrown)
}

fn value_error<T>(n: u32, msg: &CStr) -> Parsed<T> {
    // SAFETY: as in `type_error`.
    unsafe { ffi::zend_argument_value_error(n, c"%s".as_ptr(), msg.as_ptr()) };
    Err(Thrown)
}

fn is_reserved(key: &[u8]) -> bool {
    RESERVED_PREFIXES.iter().any(|p| key.starts_with(p))
}

/// Whether a key is acceptable for a single-key method other than `delete` (no message).
fn key_is_valid(key: &[u8]) -> bool {
    key_is_valid_given(key, || zend::class_is_loaded(key))
}

/// [`key_is_valid`] with the loaded-class test supplied (`class_loaded` runs only for a non-empty,
/// unreserved key).
fn key_is_valid_given(key: &[u8], class_loaded: impl FnOnce() -> bool) -> bool {
    !key.is_empty() && !is_reserved(key) && !class_loaded()
}

/// Whether `key` passes the single-key rules (§4.2) but the loaded-class test: what a repeated read of
/// the same key does not check again (`read_cache::fetch_hot`), whatever its case (the loaded-class test
/// runs on every read).
pub fn key_passes_but_class(key: &[u8]) -> bool {
    key_is_valid_given(key, || false)
}

/// The single-key rules of `delete` (§4.2): a loaded class name is a class selector there, not an
/// error. The other single-key methods check their key with [`Call::full_key`].
pub fn delete_key(n: u32, key: &[u8]) -> Parsed<()> {
    key_given(n, key, || false)
}

/// The single-key rules with the loaded-class test supplied (it runs only for a non-empty, unreserved
/// key): [`Call::full_key`] and [`delete_key`].
fn key_given(n: u32, key: &[u8], class_loaded: impl FnOnce() -> bool) -> Parsed<()> {
    if key.is_empty() {
        return value_error(n, MSG_NON_EMPTY);
    }
    if is_reserved(key) {
        return value_error(n, MSG_RESERVED);
    }
    if class_loaded() {
        return value_error(n, MSG_LOADED_CLASS);
    }
    Ok(())
}

/// `getCacheStoreType` argument #1 and a non-null `$class_name`.
pub fn non_empty(n: u32, s: &[u8]) -> Parsed<()> {
    if s.is_empty() {
        return value_error(n, MSG_NON_EMPTY);
    }
    Ok(())
}

/// A top-level `Closure` is rejected with a TypeError (nested ones make the call return false).
pub fn not_closure(n: u32, z: *mut zval) -> Parsed<()> {
    // SAFETY: `z` is a live argument zval; objects carry a live class entry.
    let is_closure = unsafe {
        let z = zend::deref(z);
        zend::type_of(z) == IS_OBJECT && (*(*z).value.obj).ce == zend::closure_class()
    };
    if is_closure {
        return type_error(n, MSG_CLOSURE);
    }
    Ok(())
}

/// `$ttl` / `$lease`: seconds, at least 0.
pub fn non_negative(n: u32, v: i64) -> Parsed<u64> {
    u64::try_from(v).or_else(|_| value_error(n, MSG_NON_NEGATIVE))
}

/// An integer argument that must lie in `min..=max` (`StaticCache\Admin::scan()`'s `$limit`).
pub fn within(n: u32, v: i64, min: i64, max: i64) -> Parsed<i64> {
    if (min..=max).contains(&v) {
        return Ok(v);
    }
    let msg = zend::message(format!("must be between {min} and {max}").as_bytes());
    value_error(n, &msg)
}

/// The backend a `StaticCache\Admin` method addresses: `"volatile"` or `"pinned"`.
pub fn backend_name(n: u32, name: &[u8]) -> Parsed<crate::runtime::Tier> {
    match name {
        b"volatile" => Ok(crate::runtime::Tier::Volatile),
        b"pinned" => Ok(crate::runtime::Tier::Pinned),
        _ => value_error(n, MSG_BACKEND),
    }
}

/// `getMultiple` / `deleteMultiple` keys: non-empty strings or ints (as decimal strings), checked
/// all before any is used. Objects fail even if Stringable; nothing is converted through userland.
/// String keys borrow the argument array's strings, which live for the whole call. `each` gets every
/// key with its (dereferenced) element, in order, as soon as that key passed the checks. A later key
/// may still fail, so `each` must only do what the caller can undo (`getMultiple()` fills its result's
/// slots in the same pass).
pub fn each_key<'a>(
    n: u32,
    keys: *mut ffi::HashTable,
    mut each: impl FnMut(std::borrow::Cow<'a, [u8]>, *mut zval),
) -> Parsed<()> {
    // No class is declared during the loop (no userland runs).
    let classes = zend::class_table();
    // SAFETY: `keys` is the live argument array, not modified during the loop (no userland runs).
    for (_, z) in unsafe { zvals::entries(keys) } {
        // SAFETY: elements of a live array are live zvals.
        let z = unsafe { zend::deref(z) };
        // SAFETY: as above.
        let Some(key) = (unsafe { key_of(z) }) else {
            return value_error(n, MSG_KEY_LIST);
        };
        let valid = match &key {
            std::borrow::Cow::Borrowed(key) => key_is_valid_given(key, || {
                // SAFETY: a borrowed key is the live string `z` holds; `classes` is this request's class
                // table.
                unsafe { zend::class_is_loaded_zstr(classes, (*z).value.str_) }
            }),
            std::borrow::Cow::Owned(key) => key_is_valid(key),
        };
        if !valid {
            return value_error(n, MSG_KEY_LIST);
        }
        each(key, z);
    }
    Ok(())
}

/// The keys of an argument array that [`each_key`] accepted, converted as it converts them, in order,
/// without checking them again (userland code that ran since may have declared a class they name).
///
/// # Safety
/// `keys` must be the live argument array, not modified while the keys are used.
pub unsafe fn accepted_keys<'a>(keys: *mut ffi::HashTable) -> impl Iterator<Item = std::borrow::Cow<'a, [u8]>> {
    // SAFETY: as the caller guarantees.
    unsafe { zvals::entries(keys) }.filter_map(|(_, z)| {
        // SAFETY: elements of a live array are live zvals, their strings held by it.
        unsafe { key_of(zend::deref(z)) }
    })
}

/// The key a `getMultiple` / `deleteMultiple` element gives: a string's own bytes, an int's decimal
/// form; `None` for any other type.
///
/// # Safety
/// `z` must be a live, dereferenced zval, whose string outlives `'a`.
unsafe fn key_of<'a>(z: *mut zval) -> Option<std::borrow::Cow<'a, [u8]>> {
    // SAFETY: as the caller guarantees.
    unsafe {
        match zend::type_of(z) {
            IS_STRING => Some(std::borrow::Cow::Borrowed(zend::str_bytes(z))),
            IS_LONG => Some(std::borrow::Cow::Owned((*z).value.lval.to_string().into_bytes())),
            _ => None,
        }
    }
}

/// The keys of `setMultiple`'s argument: string keys only (PHP normalises `'123'` to an int key, which
/// fails), each checked before any value is stored; the loaded-class test uses the hash each caches.
/// Nothing is collected: the caller then goes through the pairs with [`value_pairs`], running userland
/// code (serialization hooks) between them, where a fatal error longjmps past its frame.
///
/// # Safety
/// `values` must be the live argument array.
pub unsafe fn check_value_keys(n: u32, values: *mut ffi::HashTable) -> Parsed<()> {
    let classes = zend::class_table();
    // SAFETY: as the caller guarantees; a string key is a live zend_string of the table, with its hash.
    for (k, _) in unsafe { zvals::raw_entries(values) } {
        let valid = match k {
            // SAFETY: as above; `classes` is this request's class table; no userland runs during the loop.
            RawKey::Str(s) => unsafe {
                key_is_valid_given(zend::zstr_bytes(s), || zend::class_is_loaded_zstr(classes, s))
            },
            RawKey::Int(_) => false,
        };
        if !valid {
            return value_error(n, MSG_VALUES_KEYS);
        }
    }
    Ok(())
}

/// The pairs of `setMultiple`'s argument, whose keys [`check_value_keys`] accepted: the keys are the
/// array's own strings.
///
/// # Safety
/// `values` must be the live argument array, not modified while its pairs are used (userland code
/// cannot reach the argument's own table: a write through the caller's variable separates it).
pub unsafe fn value_pairs<'a>(values: *mut ffi::HashTable) -> impl Iterator<Item = (&'a [u8], *mut zval)> {
    // SAFETY: as the caller guarantees; every key is a live string of the table (checked).
    unsafe { zvals::raw_entries(values) }.filter_map(|(k, z)| match k {
        // SAFETY: as above.
        RawKey::Str(s) => Some((unsafe { zend::zstr_bytes(s) }, z)),
        RawKey::Int(_) => None,
    })
}
