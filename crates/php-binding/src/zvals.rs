//! Raw zval primitives shared by the encoder (`zval_in`) and the decoder (`zval_out`): refcounts,
//! arrays built in a chosen storage form, references, object property slots and internal method calls.
//! Zend's macros (`Z_ADDREF`, `ZVAL_NEW_REF`, `OBJ_PROP_NUM`, …) re-implemented as field accesses.

use std::ptr;

use ext_php_rs::boxed::ZBox;
use ext_php_rs::ffi::{
    self, zend_class_entry, zend_function, zend_object, zend_property_info, zend_reference, zend_string, zval, Bucket,
    HashTable, IS_ARRAY, IS_OBJECT, IS_REFERENCE, IS_UNDEF,
};
use ext_php_rs::types::ZendStr;

use crate::zend;

unsafe extern "C" {
    /// `zend_operators.h` (`zval_try_get_string`): the string `(string)$z` gives, or null with an
    /// exception pending (an object without `__toString()`, or one that threw).
    fn zval_try_get_string_func(op: *mut zval) -> *mut zend_string;
    /// `zend_hash.h` (`ZEND_HANDLE_NUMERIC_STR`): whether `key` is a canonical decimal integer, written
    /// to `idx`.
    fn _zend_handle_numeric_str_ex(key: *const std::ffi::c_char, length: usize, idx: *mut u64) -> bool;
}

const Z_TYPE_FLAGS_SHIFT: u32 = 8;
const IS_TYPE_REFCOUNTED: u32 = 1;
const IS_TYPE_COLLECTABLE: u32 = 2;
pub const GC_NOT_COLLECTABLE: u32 = 1 << 4;
pub const GC_IMMUTABLE: u32 = 1 << 6;
const IS_OBJ_DESTRUCTOR_CALLED: u32 = 1 << 8;
pub const HASH_FLAG_PACKED: u32 = 1 << 2;

/// Whether the zval's value carries a refcount.
///
/// # Safety
/// `z` must point to a live zval.
pub unsafe fn is_refcounted(z: *const zval) -> bool {
    // SAFETY: caller guarantees a live zval; the type flags byte follows the type byte.
    unsafe { ((*z).u1.type_info >> Z_TYPE_FLAGS_SHIFT) & IS_TYPE_REFCOUNTED != 0 }
}

/// Whether any of `values` carries a refcount: one branch-free pass (the type flags of every value
/// or-ed together), so that a copy of a block of scalars and interned strings, the usual case, skips
/// the pass that adds references one value at a time.
pub fn any_refcounted(values: &[zval]) -> bool {
    // SAFETY: reading the type info of a zval is always valid (the union's fields are plain integers).
    let flags = values.iter().fold(0, |flags, z| flags | unsafe { z.u1.type_info });
    (flags >> Z_TYPE_FLAGS_SHIFT) & IS_TYPE_REFCOUNTED != 0
}

/// `Z_TRY_ADDREF_P`: one more reference to the value of `z` if it is refcounted (a copy of its bits
/// became a second owner).
///
/// # Safety
/// `z` must point to a live zval.
#[inline(always)]
pub unsafe fn add_ref(z: *const zval) {
    // SAFETY: caller guarantees a live zval; refcounted values start with a zend_refcounted header.
    unsafe {
        if is_refcounted(z) {
            (*(*z).value.counted).gc.refcount += 1;
        }
    }
}

/// `ZVAL_COPY`: a second owner of the same value (ext-php-rs's `Drop` for `zval` releases it).
///
/// # Safety
/// `z` must point to a live zval.
pub unsafe fn copy(z: *const zval) -> zval {
    // SAFETY: caller guarantees a live zval.
    unsafe {
        add_ref(z);
        ptr::read(z)
    }
}

/// A zval holding a new copy of `bytes`.
pub fn string(bytes: &[u8]) -> zval {
    let mut z = zval::new();
    z.set_zend_string(ZendStr::new(bytes, false));
    z
}

/// `_zend_hash_append`: adds `value` under the string key `key` as the next element of `ht`, without
/// looking for the key first.
///
/// # Safety
/// `ht` must be a writable array of this request, initialised as a hash (not packed), with room for one
/// more element and not holding `key`; `key` a live string that is interned or writable (its hash is
/// computed if not cached yet, and a request string gains the reference the table holds).
pub unsafe fn append_element(ht: *mut HashTable, key: *mut zend_string, value: zval) {
    /// `HASH_FLAG_STATIC_KEYS`: every key is an integer or interned string (cleared by a request one).
    const STATIC_KEYS: u32 = 1 << 4;
    let value = std::mem::ManuallyDrop::new(value);
    // SAFETY: as the caller guarantees: the element at `nNumUsed` is within the allocation and unused,
    // and the hash slots sit in the `u32`s before `arData`, indexed by the negative `h | nTableMask`.
    // The element takes over the value's reference.
    unsafe {
        if (*key).gc.u.type_info & GC_IMMUTABLE == 0 {
            (*ht).u.flags &= !STATIC_KEYS;
            (*key).gc.refcount += 1;
        }
        let h = zend::string_hash(key);
        let idx = (*ht).nNumUsed;
        (*ht).nNumUsed += 1;
        let data = (*ht).__bindgen_anon_1.arData;
        let p = data.add(idx as usize);
        (*p).key = key;
        (*p).h = h;
        (*p).val.value = value.value;
        (*p).val.u1 = value.u1;
        let bucket_of = data.cast::<u32>().offset((h as u32 | (*ht).nTableMask) as i32 as isize);
        (*p).val.u2.next = *bucket_of;
        *bucket_of = idx;
        (*ht).nNumOfElements += 1;
    }
}

/// A zval owning a new empty array sized for `capacity` elements, initialised in packed or hash form.
pub fn new_array(capacity: usize, packed: bool) -> zval {
    // SAFETY: called during a request; the engine allocates and initialises the table.
    unsafe {
        let ht = ffi::_zend_new_array(u32::try_from(capacity).unwrap_or(u32::MAX));
        if packed {
            ffi::zend_hash_real_init_packed(ht);
        } else {
            ffi::zend_hash_real_init_mixed(ht);
        }
        let mut z = zval::new();
        z.value.arr = ht;
        z.u1.type_info = IS_ARRAY | ((IS_TYPE_REFCOUNTED | IS_TYPE_COLLECTABLE) << Z_TYPE_FLAGS_SHIFT);
        z
    }
}

/// `ZEND_HASH_FILL_ADD` of one element: writes `value` as element `index` of the packed array `ht`
/// filled in index order (a hole as `UNDEF`), counting it, and moves the next free index past it unless it
/// is a hole, as the engine's packed fill does.
///
/// # Safety
/// `ht` must be a writable packed array of this request, allocated for more than `index` slots, its slots
/// below `index` filled by this function and none from `index` on.
#[inline(always)]
pub unsafe fn push_packed(ht: *mut HashTable, index: u32, value: zval) {
    let hole = type_of(&value) == IS_UNDEF;
    // SAFETY: as the caller guarantees, slot `index` is within the allocation and unused; it takes over
    // the value's reference.
    unsafe {
        ptr::write((*ht).__bindgen_anon_1.arPacked.add(index as usize), value);
        (*ht).nNumUsed = index + 1;
        if !hole {
            (*ht).nNumOfElements += 1;
            (*ht).nNextFreeElement = i64::from(index) + 1;
        }
    }
}

/// The table of an array zval.
///
/// # Safety
/// `z` must be a live `IS_ARRAY` zval.
pub unsafe fn table(z: *const zval) -> *mut HashTable {
    // SAFETY: caller guarantees IS_ARRAY.
    unsafe { (*z).value.arr }
}

/// Whether the table is in packed form.
///
/// # Safety
/// `ht` must be a live array.
pub unsafe fn is_packed(ht: *const HashTable) -> bool {
    // SAFETY: caller guarantees a live array.
    unsafe { (*ht).u.flags & HASH_FLAG_PACKED != 0 }
}

/// Whether the table is engine-immutable (`GC_IMMUTABLE`: an OPcache literal or one of our shared
/// arrays), which never holds an object and is never written.
///
/// # Safety
/// `ht` must be a live array.
pub unsafe fn is_immutable(ht: *const HashTable) -> bool {
    // SAFETY: caller guarantees a live array; GC flags live in gc.u.type_info.
    unsafe { (*ht).gc.u.type_info & GC_IMMUTABLE != 0 }
}

/// Inserts (moves) `value` under the integer key `key`, as `$a[$key] = $value`.
///
/// # Safety
/// `ht` must be a live array owned by the caller alone (refcount 1).
pub unsafe fn insert_int(ht: *mut HashTable, key: i64, value: zval) {
    let mut value = std::mem::ManuallyDrop::new(value);
    // SAFETY: caller guarantees a private writable table; the table takes the value's ownership.
    unsafe {
        ffi::zend_hash_index_update(ht, key as u64, &raw mut *value);
    }
}

/// Inserts (moves) `value` under the string key `key`, exactly (no numeric-string conversion).
///
/// # Safety
/// `ht` must be a live array owned by the caller alone (refcount 1).
pub unsafe fn insert_str(ht: *mut HashTable, key: &[u8], value: zval) {
    let mut value = std::mem::ManuallyDrop::new(value);
    // SAFETY: caller guarantees a private writable table; the key bytes are copied by the engine.
    unsafe {
        ffi::zend_hash_str_update(ht, key.as_ptr().cast(), key.len(), &raw mut *value);
    }
}

/// Inserts (moves) `value` under the string key `key` (exactly; an interned key is stored without a
/// reference, any other gains one).
///
/// # Safety
/// `ht` must be a live array owned by the caller alone (refcount 1); `key` a live string.
pub unsafe fn insert_zstr(ht: *mut HashTable, key: *mut ffi::zend_string, value: zval) {
    let mut value = std::mem::ManuallyDrop::new(value);
    // SAFETY: caller guarantees a private writable table and a live key; the table takes the value.
    unsafe {
        ffi::zend_hash_update(ht, key, &raw mut *value);
    }
}

/// Inserts (moves) `value` under `key` as `$a[$key] = $value` does: a canonical decimal integer string
/// becomes an integer key.
///
/// # Safety
/// `ht` must be a live array owned by the caller alone (refcount 1); `key` a live string.
pub unsafe fn insert_symtable(ht: *mut HashTable, key: *mut ffi::zend_string, value: zval) {
    // SAFETY: caller guarantees a private writable table and a live key.
    unsafe {
        let bytes = zend::zstr_bytes(key);
        let mut index = 0u64;
        // The macro's own first test: a digit, or a minus and a digit.
        let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
        if digits.first().is_some_and(u8::is_ascii_digit)
            && _zend_handle_numeric_str_ex(bytes.as_ptr().cast(), bytes.len(), &raw mut index)
        {
            insert_int(ht, index as i64, value);
        } else {
            insert_zstr(ht, key, value);
        }
    }
}

/// Looks up a string key.
///
/// # Safety
/// `ht` must be a live array; the result borrows from it.
pub unsafe fn find_str(ht: *mut HashTable, key: &[u8]) -> Option<*mut zval> {
    // SAFETY: caller guarantees a live array; lookups do not modify it.
    unsafe {
        let z = ffi::zend_hash_str_find(ht, key.as_ptr().cast(), key.len());
        (!z.is_null()).then_some(z)
    }
}

/// Looks up an integer key.
///
/// # Safety
/// `ht` must be a live array; the result borrows from it.
pub unsafe fn find_int(ht: *mut HashTable, key: i64) -> Option<*mut zval> {
    // SAFETY: caller guarantees a live array; lookups do not modify it.
    unsafe {
        let z = ffi::zend_hash_index_find(ht, key as u64);
        (!z.is_null()).then_some(z)
    }
}

/// `ZVAL_NEW_REF`: a zval owning a new reference (refcount 1) to `value` (moved).
pub fn new_reference(value: zval) -> zval {
    // SAFETY: called during a request; the block is sized for a zend_reference and every field is
    // written before the reference is used.
    unsafe {
        let r = ffi::_emalloc(std::mem::size_of::<zend_reference>()).cast::<zend_reference>();
        (*r).gc.refcount = 1;
        (*r).gc.u.type_info = IS_REFERENCE | GC_NOT_COLLECTABLE;
        ptr::write(&raw mut (*r).val, value);
        (*r).sources.ptr = ptr::null_mut();
        let mut z = zval::new();
        z.value.ref_ = r;
        z.u1.type_info = IS_REFERENCE | (IS_TYPE_REFCOUNTED << Z_TYPE_FLAGS_SHIFT);
        z
    }
}

/// A zval owning one more reference to `obj`.
///
/// # Safety
/// `obj` must be a live object.
pub unsafe fn object_zval(obj: *mut zend_object) -> zval {
    // SAFETY: caller guarantees a live object; the new zval takes one reference.
    unsafe {
        (*obj).gc.refcount += 1;
        let mut z = zval::new();
        z.value.obj = obj;
        z.u1.type_info = IS_OBJECT | ((IS_TYPE_REFCOUNTED | IS_TYPE_COLLECTABLE) << Z_TYPE_FLAGS_SHIFT);
        z
    }
}

/// A zval owning one more reference to the PHP reference `r`.
///
/// # Safety
/// `r` must be a live reference.
pub unsafe fn reference_zval(r: *mut zend_reference) -> zval {
    // SAFETY: caller guarantees a live reference; the new zval takes one reference to it.
    unsafe {
        (*r).gc.refcount += 1;
        let mut z = zval::new();
        z.value.ref_ = r;
        z.u1.type_info = IS_REFERENCE | (IS_TYPE_REFCOUNTED << Z_TYPE_FLAGS_SHIFT);
        z
    }
}

/// Marks an object whose restore did not complete so that releasing it does not run `__destruct`,
/// as `unserialize()` does on failure.
///
/// # Safety
/// `obj` must be a live object.
pub unsafe fn skip_destructor(obj: *mut zend_object) {
    // SAFETY: caller guarantees a live object; GC flags live in gc.u.type_info.
    unsafe { (*obj).gc.u.type_info |= IS_OBJ_DESTRUCTOR_CALLED }
}

/// Undoes [`skip_destructor`]: the object's `__destruct` runs again when it is released.
///
/// # Safety
/// `obj` must be a live object.
pub unsafe fn restore_destructor(obj: *mut zend_object) {
    // SAFETY: caller guarantees a live object; GC flags live in gc.u.type_info.
    unsafe { (*obj).gc.u.type_info &= !IS_OBJ_DESTRUCTOR_CALLED }
}

/// Declared property slot `index` of `obj`.
///
/// # Safety
/// `obj` must be a live object and `index < ce->default_properties_count`.
pub unsafe fn property_slot(obj: *mut zend_object, index: usize) -> *mut zval {
    // SAFETY: declared property slots follow the object header, one per declared property.
    unsafe { (*obj).properties_table.as_mut_ptr().add(index) }
}

/// The property info of declared slot `index` of `ce` (parents' private slots included), or null.
///
/// # Safety
/// `ce` must be a live linked class and `index < ce->default_properties_count`.
pub unsafe fn slot_info(ce: *mut zend_class_entry, index: usize) -> *mut zend_property_info {
    // SAFETY: the engine builds properties_info_table with one entry per slot when linking.
    unsafe {
        let table = (*ce).properties_info_table;
        if table.is_null() {
            ptr::null_mut()
        } else {
            *table.add(index)
        }
    }
}

/// `_ZEND_TYPE_MASK`: a property type is declared when any of these bits is set.
pub const TYPE_MASK: u32 = (1 << 25) - 1;

/// Whether the property `info` describes (null: none) declares a type.
///
/// # Safety
/// `info` must be null or a live property info.
#[inline(always)]
pub unsafe fn is_typed(info: *const zend_property_info) -> bool {
    // SAFETY: caller guarantees null or a live property info.
    unsafe { !info.is_null() && (*info).type_.type_mask & TYPE_MASK != 0 }
}

/// `(string)$z` as a zval owning the string (conversion notices and warnings as PHP gives them; may run
/// `__toString()`); `Err` with the exception pending when the conversion threw.
///
/// # Safety
/// `z` must point to a live zval; called during a request, where userland code may run.
pub unsafe fn try_string(z: *mut zval) -> Result<zval, ()> {
    // SAFETY: caller guarantees a live zval; the engine returns a string we own (or null on exception),
    // which the new zval takes over (ext-php-rs's `Drop` releases it).
    unsafe {
        let s = zval_try_get_string_func(z);
        if s.is_null() {
            return Err(());
        }
        let mut out = zval::new();
        out.set_zend_string(ZBox::from_raw(s));
        Ok(out)
    }
}

/// Number of declared property slots of `ce`.
///
/// # Safety
/// `ce` must be a live class.
pub unsafe fn slot_count(ce: *mut zend_class_entry) -> usize {
    // SAFETY: caller guarantees a live class.
    unsafe { usize::try_from((*ce).default_properties_count).unwrap_or(0) }
}

/// Calls the method `func` on `obj` with `args` (borrowed: the engine copies them) and returns its
/// result; `Err` when an exception is pending afterwards (the result is dropped).
///
/// # Safety
/// `func` must be a method of `obj`'s class (or an ancestor) and `obj` a live object.
pub unsafe fn call_method(func: *mut zend_function, obj: *mut zend_object, args: &mut [zval]) -> Result<zval, ()> {
    let mut ret = zval::new();
    // SAFETY: caller guarantees a matching method and object; the engine copies the arguments into the
    // callee frame and writes the result into `ret`.
    unsafe {
        ffi::zend_call_known_function(
            func,
            obj,
            (*obj).ce,
            &raw mut ret,
            u32::try_from(args.len()).unwrap_or(0),
            args.as_mut_ptr(),
            ptr::null_mut(),
        );
    }
    if zend::exception_pending() {
        drop(ret);
        return Err(());
    }
    Ok(ret)
}

/// Discards the pending exception (one our own restore provoked with data it then reports as
/// undecodable).
pub fn clear_exception() {
    // SAFETY: called during a request.
    unsafe { ffi::zend_clear_exception() }
}

/// The type byte of an owned zval.
pub fn type_of(z: &zval) -> u32 {
    // SAFETY: a `zval` value is always initialised; the low byte of type_info is its type.
    unsafe { z.u1.type_info & 0xff }
}

/// Whether the slot is `IS_UNDEF` (a hole, an unset or uninitialized property).
///
/// # Safety
/// `z` must point to a live zval.
pub unsafe fn is_undef(z: *const zval) -> bool {
    // SAFETY: caller guarantees a live zval.
    unsafe { zend::type_of(z) == IS_UNDEF }
}

/// An array key as stored.
#[derive(PartialEq, Eq)]
pub enum Key<'a> {
    Int(i64),
    Str(&'a [u8]),
}

/// The used storage of a packed table, one zval per index (holes are `IS_UNDEF`).
///
/// # Safety
/// `ht` must be a live packed array that outlives the slice and is not modified while it is used.
pub unsafe fn packed_storage<'a>(ht: *const HashTable) -> &'a [zval] {
    // SAFETY: caller guarantees a live packed table; its first nNumUsed slots are initialised. An
    // empty table may point at a shared placeholder that is not aligned for a zval: not read.
    unsafe {
        match (*ht).nNumUsed as usize {
            0 => &[],
            used => std::slice::from_raw_parts((*ht).__bindgen_anon_1.arPacked, used),
        }
    }
}

/// The used buckets of a hash table in insertion order (deleted ones are `IS_UNDEF`).
///
/// # Safety
/// `ht` must be a live hash-form array that outlives the slice and is not modified while it is used.
pub unsafe fn hash_storage<'a>(ht: *const HashTable) -> &'a [Bucket] {
    // SAFETY: caller guarantees a live hash table; its first nNumUsed buckets are initialised. An
    // uninitialised table points at a shared placeholder that is not aligned for a bucket: not read.
    unsafe {
        match (*ht).nNumUsed as usize {
            0 => &[],
            used => std::slice::from_raw_parts((*ht).__bindgen_anon_1.arData, used),
        }
    }
}

/// An array key as the table holds it: an integer, or the key's zend_string (whose cached hash the
/// encoder reuses).
#[derive(Clone, Copy)]
pub enum RawKey {
    Int(i64),
    Str(*mut zend_string),
}

/// The live elements of a table in storage order (packed or hash form), without calling into the
/// engine. Values may be `IS_INDIRECT` (symbol and property tables); the caller follows them.
///
/// # Safety
/// `ht` must be a live array that is not modified while the iterator is used.
pub unsafe fn raw_entries<'a>(ht: *const HashTable) -> impl Iterator<Item = (RawKey, *mut zval)> + 'a {
    // SAFETY: caller guarantees a live, unmodified table.
    let (packed, buckets): (&[zval], &[Bucket]) = unsafe {
        if is_packed(ht) {
            (packed_storage(ht), &[])
        } else {
            (&[], hash_storage(ht))
        }
    };
    let packed = packed.iter().enumerate().map(|(i, z)| (RawKey::Int(i as i64), z));
    let hashed =
        buckets.iter().map(|b| (if b.key.is_null() { RawKey::Int(b.h as i64) } else { RawKey::Str(b.key) }, &b.val));
    packed.chain(hashed).filter_map(|(key, z)| {
        // SAFETY: `z` is an initialised slot of the live table.
        (!unsafe { is_undef(z) }).then_some((key, std::ptr::from_ref(z).cast_mut()))
    })
}

/// [`raw_entries`] with string keys as bytes.
///
/// # Safety
/// `ht` must be a live array that is not modified while the iterator is used; keys borrow from it.
pub unsafe fn entries<'a>(ht: *mut HashTable) -> impl Iterator<Item = (Key<'a>, *mut zval)> {
    // SAFETY: caller guarantees a live, unmodified table; a string key is a live zend_string it owns.
    unsafe { raw_entries(ht) }.map(|(key, z)| match key {
        RawKey::Int(i) => (Key::Int(i), z),
        // SAFETY: as above.
        RawKey::Str(s) => (Key::Str(unsafe { zend::zstr_bytes(s) }), z),
    })
}

/// Type infos of an object zval and of a (mutable) array zval.
pub const IS_OBJECT_EX: u32 =
    IS_OBJECT | ((ffi::IS_TYPE_REFCOUNTED | ffi::IS_TYPE_COLLECTABLE) << ffi::Z_TYPE_FLAGS_SHIFT);
pub const IS_ARRAY_EX: u32 =
    IS_ARRAY | ((ffi::IS_TYPE_REFCOUNTED | ffi::IS_TYPE_COLLECTABLE) << ffi::Z_TYPE_FLAGS_SHIFT);

/// Whether a zval of type info `type_info` has value bits (from `IS_LONG` on): a null's, an undefined
/// slot's or a boolean's are not part of the value, and the engine leaves them uninitialised.
#[inline(always)]
pub fn has_value_bits(type_info: u32) -> bool {
    type_info & 0xff >= ffi::IS_LONG
}

/// `z`'s type info and, where it has them ([`has_value_bits`]), its value bits (0 otherwise): equal for
/// the very same value.
///
/// # Safety
/// `z` must be a readable zval.
#[inline(always)]
pub unsafe fn value_bits(z: *const zval) -> (u32, i64) {
    // SAFETY: as above; the value bits are only read for types that have them.
    unsafe {
        let t = (*z).u1.type_info;
        (t, if has_value_bits(t) { (*z).value.lval } else { 0 })
    }
}

/// A complete value that needs no work per fetch: a scalar, or a string or array this thread keeps
/// (engine-immutable, or in request-heap mode a refcounted value its blueprint owns). Writing it is a
/// bitwise copy, plus one reference when it is refcounted.
#[derive(Clone, Copy)]
pub struct Ready {
    value: u64,
    type_info: u32,
}

impl Ready {
    /// A hole or an uninitialized property.
    pub const UNDEF: Ready = Ready { value: 0, type_info: IS_UNDEF };
    pub const NULL: Ready = Ready { value: 0, type_info: ffi::IS_NULL };

    pub fn bool(b: bool) -> Ready {
        Ready { value: 0, type_info: if b { ffi::IS_TRUE } else { ffi::IS_FALSE } }
    }

    pub fn long(i: i64) -> Ready {
        Ready { value: i as u64, type_info: ffi::IS_LONG }
    }

    pub fn double(f: f64) -> Ready {
        Ready { value: f.to_bits(), type_info: ffi::IS_DOUBLE }
    }

    /// A string or array pointer with the zval type info it is handed out with.
    pub fn pointer(p: *mut std::ffi::c_void, type_info: u32) -> Ready {
        Ready { value: p as u64, type_info }
    }

    /// The type info of an owned request value (`type_of` plus flags), kept as is.
    ///
    /// # Safety
    /// `z` must stay alive (owned by the blueprint) as long as the `Ready` is used.
    pub unsafe fn borrowed(z: &zval) -> Ready {
        // SAFETY: reading the value bits and type info of a live zval.
        unsafe { Ready { value: z.value.lval as u64, type_info: z.u1.type_info } }
    }

    pub fn is_undef(&self) -> bool {
        self.type_info == IS_UNDEF
    }

    /// The string a string value points at.
    pub fn as_string(&self) -> *mut ffi::zend_string {
        self.value as *mut ffi::zend_string
    }

    /// Writes the value into `dst` (uninitialised memory or a zval the caller has released), without
    /// taking a reference; `u2` is left as it is.
    ///
    /// # Safety
    /// `dst` must be writable; a refcounted value must be given a reference by the caller if `dst`
    /// owns one.
    pub unsafe fn write(self, dst: *mut zval) {
        // SAFETY: caller guarantees a writable zval; value and type are written as one pair.
        unsafe {
            (*dst).value.lval = self.value as i64;
            (*dst).u1.type_info = self.type_info;
        }
    }

    /// The type info and value bits [`Ready::write`] writes.
    #[inline(always)]
    pub fn bits(self) -> (u32, u64) {
        (self.type_info, self.value)
    }

    /// The value of `z`, taking over its reference (the inverse of [`Ready::into_zval`]): whoever holds
    /// the `Ready` gives the reference back, once, through `into_zval`.
    #[inline]
    pub fn from_owned(z: zval) -> Ready {
        let z = std::mem::ManuallyDrop::new(z);
        // SAFETY: reading the value bits and type info of a live zval, whose reference is kept.
        unsafe { Ready::borrowed(&z) }
    }

    /// An owning zval of the value that takes over a reference the caller owns (an `UNDEF` gives an
    /// undefined zval).
    ///
    /// # Safety
    /// A refcounted value's reference passes to the zval: the caller gives up one it holds.
    #[inline]
    pub unsafe fn into_zval(self) -> zval {
        let mut z = zval::new();
        // SAFETY: `z` is a fresh zval; the caller hands over the reference it takes.
        unsafe { self.write(&raw mut z) };
        z
    }

    /// An owning zval of the value (adds the reference a refcounted value needs).
    #[inline]
    pub fn to_zval(self) -> zval {
        let mut z = zval::new();
        // SAFETY: `z` is a fresh zval; a refcounted value is kept alive by its owner, and the copy takes
        // its own reference.
        unsafe {
            self.write(&raw mut z);
            add_ref(&raw const z);
        }
        z
    }
}
