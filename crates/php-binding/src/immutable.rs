//! Engine-immutable copies of strings and object-free, reference-free arrays (spec §7.2, Appendix A.6).
//!
//! A fetched value of that kind is materialised once per thread and entry version: the decoded zval
//! tree is copied into malloc'd memory marked the way OPcache marks its own literals (`GC_IMMUTABLE`,
//! refcount 2, interned strings with precomputed hashes, zval type flags 0). PHP then never touches the
//! refcounts and separates on write (copy-on-write), so every later fetch hands out the same pointer:
//! no element is copied. The copy is freed only by [`Drop`], which the read cache defers until no
//! request of this thread can still reach it (see `read_cache`).

use foldhash::{HashMap, HashMapExt};
use std::mem::ManuallyDrop;

use ext_php_rs::ffi::{self, zend_string, zval, Bucket, HashTable, IS_ARRAY, IS_STRING};

use crate::zvals::{GC_NOT_COLLECTABLE, HASH_FLAG_PACKED};

const GC_IMMUTABLE: u32 = 1 << 6;
const GC_PERSISTENT: u32 = 1 << 7;
const IS_STR_PERMANENT: u32 = 1 << 8;
/// `GC_STRING | (IS_STR_INTERNED | IS_STR_PERSISTENT | IS_STR_PERMANENT)`: what PHP checks before
/// refcounting or freeing a string, so it does neither.
const STRING_TYPE_INFO: u32 = IS_STRING | GC_NOT_COLLECTABLE | GC_IMMUTABLE | GC_PERSISTENT | IS_STR_PERMANENT;
/// `GC_ARRAY | IS_ARRAY_IMMUTABLE | GC_NOT_COLLECTABLE | GC_PERSISTENT`.
const ARRAY_TYPE_INFO: u32 = IS_ARRAY | GC_IMMUTABLE | GC_NOT_COLLECTABLE | GC_PERSISTENT;
const HASH_FLAG_UNINITIALIZED: u32 = 1 << 3;
const HASH_FLAG_STATIC_KEYS: u32 = 1 << 4;
/// Offset of `val` in `zend_string` (refcount, type info, hash, length).
const STRING_HEADER: usize = 24;

/// One materialised value and everything it owns.
/// Note: ext-php-rs gives `zval` a `Drop` that releases what it points to, so zvals that merely alias
/// memory (copies of request values, values inside our copies) are held in `ManuallyDrop` and moved
/// with `ptr::write`, never assigned.
pub struct Immutable {
    zv: ManuallyDrop<zval>,
    arrays: Vec<*mut HashTable>,
    strings: Vec<*mut zend_string>,
    bytes: usize,
}

impl Immutable {
    /// The value to hand to PHP: a bitwise copy is a complete, non-refcounted zval.
    pub fn zval(&self) -> zval {
        // SAFETY: the zval holds a scalar, an immutable string or an immutable array; copying it
        // bitwise is what ZVAL_COPY does for values without refcounting.
        unsafe { std::ptr::read(&*self.zv) }
    }

    /// Bytes allocated for the copy (budget of superseded copies, §7.5).
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        for &ht in &self.arrays {
            // SAFETY: `ht` and its data block were allocated by `persist_array` with malloc and are
            // owned by this value alone; nothing in PHP refcounts or frees them.
            unsafe {
                if (*ht).u.flags & HASH_FLAG_UNINITIALIZED == 0 {
                    libc::free(data_addr(ht).cast());
                }
                libc::free(ht.cast());
            }
        }
        for &s in &self.strings {
            // SAFETY: allocated by `persist_string` with malloc, owned by this value alone.
            unsafe { libc::free(s.cast()) };
        }
    }
}

fn hash_size(mask: u32) -> usize {
    (mask.wrapping_neg() as usize) * 4
}

/// # Safety
/// `ht` must be an initialised array.
unsafe fn data_addr(ht: *const HashTable) -> *mut u8 {
    // SAFETY: HT_GET_DATA_ADDR: the hash part precedes arData (caller guarantees a live array).
    unsafe { ((*ht).__bindgen_anon_1.arData as *mut u8).sub(hash_size((*ht).nTableMask)) }
}

fn zval_type(z: &zval) -> u32 {
    // SAFETY: reading the type info of an initialised zval.
    unsafe { z.u1.type_info & 0xff }
}

struct Builder {
    out: Immutable,
    strings: HashMap<*const zend_string, *mut zend_string>,
    arrays: HashMap<*const HashTable, *mut HashTable>,
    /// (source array, copy) pairs whose elements still point at request memory.
    pending: Vec<(*const HashTable, *mut HashTable)>,
}

/// Copies `src` into immutable memory, or `None` when it (or anything inside it) is an object, a
/// reference or another value that cannot be engine-immutable.
///
/// # Safety
/// `src` must be a live zval; the call must run on a PHP thread (it only reads `src`).
pub unsafe fn persist(src: &zval) -> Option<Immutable> {
    let mut b = Builder {
        out: Immutable { zv: ManuallyDrop::new(zval::new()), arrays: Vec::new(), strings: Vec::new(), bytes: 0 },
        strings: HashMap::new(),
        arrays: HashMap::new(),
        pending: Vec::new(),
    };
    // SAFETY: `src` is live (caller); persist_slot only reads it and writes the copy.
    let root = unsafe { b.persist_slot(src)? };
    b.out.zv = root;
    while let Some((from, to)) = b.pending.pop() {
        // SAFETY: `from` is a live request array, `to` its fresh copy made by persist_array.
        unsafe { b.fill_array(from, to)? };
    }
    Some(b.out)
}

impl Builder {
    /// The immutable counterpart of one slot value (arrays are queued for their elements).
    unsafe fn persist_slot(&mut self, z: &zval) -> Option<ManuallyDrop<zval>> {
        // Start from a bitwise copy: `u2` carries the bucket's collision chain and must survive.
        // SAFETY: `z` is a live zval; the copy is fixed up below before anyone sees it, and never
        // dropped (it aliases request memory until fixed).
        let mut copy = ManuallyDrop::new(unsafe { std::ptr::read(z) });
        match zval_type(z) {
            // UNDEF, NULL, FALSE, TRUE, LONG, DOUBLE: no pointer inside.
            0..=5 => {}
            IS_STRING => {
                // SAFETY: an IS_STRING zval holds a live zend_string.
                copy.value.str_ = unsafe { self.persist_string(z.value.str_) };
                copy.u1.type_info = IS_STRING;
            }
            IS_ARRAY => {
                // SAFETY: an IS_ARRAY zval holds a live array.
                copy.value.arr = unsafe { self.persist_array(z.value.arr)? };
                copy.u1.type_info = IS_ARRAY;
            }
            _ => return None,
        }
        Some(copy)
    }

    unsafe fn persist_string(&mut self, s: *mut zend_string) -> *mut zend_string {
        if let Some(&done) = self.strings.get(&(s as *const _)) {
            return done;
        }
        // SAFETY: `s` is a live zend_string; `val` holds `len` bytes.
        let bytes = unsafe { std::slice::from_raw_parts((*s).val.as_ptr().cast::<u8>(), (*s).len) };
        let size = STRING_HEADER + bytes.len() + 1;
        // SAFETY: malloc of a fresh block; checked for null below.
        let p = unsafe { libc::malloc(size) } as *mut zend_string;
        assert!(!p.is_null(), "out of memory materialising a cached string");
        // SAFETY: `p` points to `size` writable bytes, enough for the header, the bytes and a NUL.
        unsafe {
            (*p).gc.refcount = 1;
            (*p).gc.u.type_info = STRING_TYPE_INFO;
            // Precompute the hash: PHP would otherwise write it lazily into shared memory.
            (*p).h = graph_codec::zend_string_hash(bytes);
            (*p).len = bytes.len();
            let dst = (*p).val.as_mut_ptr().cast::<u8>();
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len());
            *dst.add(bytes.len()) = 0;
        }
        self.out.strings.push(p);
        self.out.bytes += size;
        self.strings.insert(s, p);
        p
    }

    unsafe fn persist_array(&mut self, src: *mut HashTable) -> Option<*mut HashTable> {
        let empty = &raw const ffi::zend_empty_array;
        if std::ptr::eq(src, empty) {
            return Some(src);
        }
        if let Some(&done) = self.arrays.get(&(src as *const _)) {
            return Some(done);
        }
        // SAFETY: fresh allocation for the header, checked below.
        let dst = unsafe { libc::malloc(std::mem::size_of::<HashTable>()) } as *mut HashTable;
        assert!(!dst.is_null(), "out of memory materialising a cached array");
        // SAFETY: `src` is a live array (caller); `dst` has room for its header.
        unsafe {
            std::ptr::copy_nonoverlapping(src, dst, 1);
            let flags = (*src).u.flags;
            if flags & HASH_FLAG_UNINITIALIZED == 0 {
                let elem = if flags & HASH_FLAG_PACKED != 0 { size_of::<zval>() } else { size_of::<Bucket>() };
                let used = hash_size((*src).nTableMask) + (*src).nNumUsed as usize * elem;
                let data = libc::malloc(used.max(1)) as *mut u8;
                assert!(!data.is_null(), "out of memory materialising a cached array");
                std::ptr::copy_nonoverlapping(data_addr(src), data, used);
                (*dst).__bindgen_anon_1.arData = data.add(hash_size((*src).nTableMask)).cast();
                self.out.bytes += used;
            }
            (*dst).gc.refcount = 2;
            (*dst).gc.u.type_info = ARRAY_TYPE_INFO;
            (*dst).u.flags = (flags | HASH_FLAG_STATIC_KEYS) & 0xff;
            (*dst).u.v.nIteratorsCount = 0;
        }
        self.out.arrays.push(dst);
        self.out.bytes += size_of::<HashTable>();
        self.arrays.insert(src, dst);
        self.pending.push((src, dst));
        Some(dst)
    }

    /// Replaces every element (and key) of the copy `to` by its immutable counterpart.
    unsafe fn fill_array(&mut self, from: *const HashTable, to: *mut HashTable) -> Option<()> {
        // SAFETY: both arrays are live; `to` was copied from `from` with nNumUsed elements.
        unsafe {
            if (*from).u.flags & HASH_FLAG_UNINITIALIZED != 0 {
                return Some(());
            }
            let n = (*from).nNumUsed as usize;
            if (*from).u.flags & HASH_FLAG_PACKED != 0 {
                let src = (*from).__bindgen_anon_1.arPacked;
                let dst = (*to).__bindgen_anon_1.arPacked;
                for i in 0..n {
                    std::ptr::write(dst.add(i), ManuallyDrop::into_inner(self.persist_slot(&*src.add(i))?));
                }
            } else {
                let src = (*from).__bindgen_anon_1.arData;
                let dst = (*to).__bindgen_anon_1.arData;
                for i in 0..n {
                    let s = &*src.add(i);
                    let d = &mut *dst.add(i);
                    std::ptr::write(&mut d.val, ManuallyDrop::into_inner(self.persist_slot(&s.val)?));
                    d.key = if zval_type(&s.val) == 0 || s.key.is_null() {
                        std::ptr::null_mut()
                    } else {
                        self.persist_string(s.key)
                    };
                }
            }
        }
        Some(())
    }
}
