//! Engine-immutable strings and arrays (spec §7.2, Appendix A.6), written straight from stored bytes
//! into memory this thread owns.
//!
//! They are marked the way OPcache marks its own literals: strings interned-style (`GC_IMMUTABLE`,
//! persistent and permanent, hash precomputed), arrays `GC_IMMUTABLE` with refcount 2, zval type flags
//! 0, all keys interned. PHP then never touches their refcounts and separates an array on its first
//! write (copy-on-write), so a value built once per thread and entry version is handed to every later
//! fetch by pointer. The memory is a bump arena freed only by [`Drop`], which the read cache defers
//! until no request of this thread can still reach it (see `read_cache`).

use std::mem::MaybeUninit;
use std::ptr;

use ext_php_rs::ffi::{self, zend_string, zval, Bucket, HashTable, IS_ARRAY, IS_STRING};

use crate::zvals::{Ready, GC_IMMUTABLE, GC_NOT_COLLECTABLE, HASH_FLAG_PACKED};

const GC_PERSISTENT: u32 = 1 << 7;
const IS_STR_PERMANENT: u32 = 1 << 8;
/// `GC_STRING | (IS_STR_INTERNED | IS_STR_PERSISTENT | IS_STR_PERMANENT)`: what PHP checks before
/// refcounting or freeing a string, so it does neither.
const STRING_TYPE_INFO: u32 = IS_STRING | GC_NOT_COLLECTABLE | GC_IMMUTABLE | GC_PERSISTENT | IS_STR_PERMANENT;
/// `GC_ARRAY | IS_ARRAY_IMMUTABLE | GC_NOT_COLLECTABLE | GC_PERSISTENT`.
const ARRAY_TYPE_INFO: u32 = IS_ARRAY | GC_IMMUTABLE | GC_NOT_COLLECTABLE | GC_PERSISTENT;
const HASH_FLAG_UNINITIALIZED: u32 = 1 << 3;
const HASH_FLAG_STATIC_KEYS: u32 = 1 << 4;
/// `HT_MIN_SIZE`, and `HT_MIN_MASK` (the hash part of packed and uninitialized arrays: two slots).
const HT_MIN_SIZE: u32 = 8;
const HT_MIN_MASK: u32 = -2i32 as u32;
/// Offset of `val` in `zend_string` (refcount, type info, hash, length).
const STRING_HEADER: usize = 24;
/// Size of an arena's first chunk: each later chunk doubles the one before, up to [`CHUNK_WORDS`], so a
/// small value takes little more memory than it needs. A fixed 64 KiB first chunk made every cached
/// value of a few hundred bytes cost 64 KiB of the thread's copy budget (the backend's size), so a
/// request reading more than about 130 such keys emptied the read cache and rebuilt them all, at 12
/// times APCu's time per fetch.
const FIRST_CHUNK_WORDS: usize = 32;
/// Largest arena chunk size; larger items get a chunk of their own.
const CHUNK_WORDS: usize = 8 * 1024;

/// An array key of an immutable array.
#[derive(Clone, Copy)]
pub enum ImmutableKey {
    Int(i64),
    /// An immutable string made by the same arena.
    Str(*mut zend_string),
}

/// Strings and arrays of one entry version, and the memory they live in.
#[derive(Default)]
pub struct ImmutableArena {
    /// The chunk being filled (empty before the first). Not zeroed: each maker here sets every byte it
    /// hands out that the engine reads (a zeroed chunk costs a `calloc`, which bypasses glibc's thread
    /// cache: about 230 instructions a chunk).
    current: Box<[MaybeUninit<u64>]>,
    /// Words used in `current` (at most [`CHUNK_WORDS`]).
    used: u32,
    /// Words of the first chunk when its size is expected ([`ImmutableArena::expect`]; 0: [`FIRST_CHUNK_WORDS`]).
    first_words: u32,
    /// Chunks filled before `current`, and items too large to share a chunk: kept until the arena is
    /// dropped (a value in one chunk, most values, allocates no list of them).
    kept: Vec<Box<[MaybeUninit<u64>]>>,
    bytes: usize,
}

impl ImmutableArena {
    /// Bytes allocated (budget of superseded copies, §7.5): the chunks, and the list of those kept.
    pub fn bytes(&self) -> usize {
        self.bytes + self.kept.capacity() * size_of::<Box<[MaybeUninit<u64>]>>()
    }

    /// Sizes the first chunk for about `bytes` of strings and arrays (at most a chunk's largest size), so
    /// that a value whose size is known takes one chunk of about its size rather than a run of doubling
    /// ones.
    pub fn expect(&mut self, bytes: usize) {
        self.first_words = bytes.div_ceil(8).clamp(1, CHUNK_WORDS) as u32;
    }

    /// Bytes [`ImmutableArena::string`] takes for a string of `len` bytes (none for the strings the
    /// engine keeps, [`engine_string`]).
    pub fn string_bytes(len: usize) -> usize {
        match len {
            0 | 1 => 0,
            len => len.saturating_add(STRING_HEADER + 1 + 7) & !7,
        }
    }

    /// What an item of `len` bytes takes of the chunk it is made in: its words, or nothing for an item
    /// too large to share a chunk (it gets one of its own; see [`ImmutableArena::alloc`]).
    pub fn chunk_bytes(len: usize) -> usize {
        match len {
            0 => 8,
            len if len <= CHUNK_WORDS / 4 * 8 => (len + 7) & !7,
            _ => 0,
        }
    }

    /// What [`ImmutableArena::packed`] or [`ImmutableArena::hash`] takes of a chunk for an array of `len`
    /// slots or entries (an empty one at most its header).
    pub fn array_bytes(packed: bool, len: usize) -> usize {
        const HEADER: usize = size_of::<HashTable>().next_multiple_of(8);
        // Larger arrays' slots take a chunk of their own.
        const MOST: usize = CHUNK_WORDS / 4 * 8 / size_of::<zval>();
        let data = match (len, packed) {
            (0, _) => return HEADER,
            (MOST.., _) => 0,
            (_, true) => 2 * size_of::<u32>() + len * size_of::<zval>(),
            (_, false) => 2 * table_size(len) as usize * size_of::<u32>() + len * size_of::<Bucket>(),
        };
        HEADER + Self::chunk_bytes(data)
    }

    /// `len` bytes (rounded up to words) of uninitialised, 8-aligned memory that lives as long as the
    /// arena.
    fn alloc(&mut self, len: usize) -> *mut u8 {
        let words = len.div_ceil(8).max(1);
        if words > CHUNK_WORDS / 4 {
            self.kept.push(Box::new_uninit_slice(words));
            self.bytes += words * 8;
            return self.kept.last_mut().map_or(ptr::null_mut(), |chunk| chunk.as_mut_ptr().cast());
        }
        let room = self.current.len();
        let mut used = self.used as usize;
        if used + words > room {
            let least = match self.first_words as usize {
                expected if room == 0 && expected > 0 => expected,
                _ => FIRST_CHUNK_WORDS,
            };
            let size = (2 * room).clamp(least, CHUNK_WORDS).max(words);
            // Moving a chunk into `kept` leaves its memory (and the values in it) where it is.
            let filled = std::mem::replace(&mut self.current, Box::new_uninit_slice(size));
            if !filled.is_empty() {
                self.kept.push(filled);
            }
            used = 0;
            self.bytes += size * 8;
        }
        // SAFETY: `used + words` is at most the current chunk's length (checked, or a new chunk of at
        // least `words`); chunks are never resized, so the pointer stays valid while the arena lives.
        let p = unsafe { self.current.as_mut_ptr().add(used) };
        // At most `CHUNK_WORDS` (a chunk's largest size; larger items are kept apart).
        self.used = (used + words) as u32;
        p.cast()
    }

    /// An immutable copy of `bytes` whose PHP hash is `hash` (the caller checked it against the bytes),
    /// or the engine's own interned string of them (see [`engine_string`]), which takes no memory here.
    pub fn string(&mut self, bytes: &[u8], hash: u64) -> *mut zend_string {
        if let Some(engine) = engine_string(bytes) {
            return engine;
        }
        let size = STRING_HEADER + bytes.len() + 1;
        let p = self.alloc(size).cast::<zend_string>();
        // SAFETY: `p` points to 8-aligned memory of `size` bytes rounded up to words: room for the
        // header, the bytes and the NUL. Its last word is zeroed first, so the NUL and the padding after
        // it are set (the engine compares strings a word at a time, masking the bytes past the length).
        unsafe {
            p.cast::<u64>().add(size.div_ceil(8) - 1).write(0);
            (*p).gc.refcount = 1;
            (*p).gc.u.type_info = STRING_TYPE_INFO;
            // Precomputed, so PHP never writes it lazily into memory other threads may read.
            (*p).h = hash;
            (*p).len = bytes.len();
            ptr::copy_nonoverlapping(bytes.as_ptr(), (*p).val.as_mut_ptr().cast::<u8>(), bytes.len());
        }
        p
    }

    /// A fresh array header with the fields every immutable array shares.
    fn header(&mut self, flags: u32, next_free: i64) -> *mut HashTable {
        let ht = self.alloc(size_of::<HashTable>()).cast::<HashTable>();
        // SAFETY: `ht` is 8-aligned memory sized for a header, zeroed here (as the engine's
        // initialisation leaves the fields the caller does not set); the rest is set here or by the
        // caller. `zend_empty_array` is the engine's own constant.
        unsafe {
            ptr::write_bytes(ht, 0, 1);
            (*ht).gc.refcount = 2;
            (*ht).gc.u.type_info = ARRAY_TYPE_INFO;
            (*ht).u.flags = flags;
            (*ht).nNextFreeElement = next_free;
            (*ht).pDestructor = ffi::zend_empty_array.pDestructor;
        }
        ht
    }

    /// An immutable packed array of `slots` (`Ready::UNDEF` is a hole).
    pub fn packed(&mut self, slots: &[Ready], next_free: i64) -> *mut HashTable {
        if slots.is_empty() {
            return self.empty(next_free);
        }
        let ht = self.header(HASH_FLAG_PACKED | HASH_FLAG_STATIC_KEYS, next_free);
        let hash_bytes = 2 * size_of::<u32>();
        let data = self.alloc(hash_bytes + slots.len() * size_of::<zval>());
        // SAFETY: `data` holds the two hash slots of HT_MIN_MASK followed by one zval per slot.
        unsafe {
            ptr::write_bytes(data, 0xff, hash_bytes); // HT_INVALID_IDX
            let packed = data.add(hash_bytes).cast::<zval>();
            for (i, slot) in slots.iter().enumerate() {
                slot.write(packed.add(i));
                // Unused in a packed slot, but set: a copy of the array copies whole zvals.
                (*packed.add(i)).u2.next = 0;
            }
            (*ht).nTableMask = HT_MIN_MASK;
            (*ht).__bindgen_anon_1.arPacked = packed;
            (*ht).nNumUsed = slots.len() as u32;
            (*ht).nNumOfElements = slots.iter().filter(|s| !s.is_undef()).count() as u32;
            (*ht).nTableSize = table_size(slots.len());
        }
        ht
    }

    /// An immutable hash array of `entries`, in insertion order.
    pub fn hash(&mut self, entries: &[(ImmutableKey, Ready)], next_free: i64) -> *mut HashTable {
        if entries.is_empty() {
            return self.empty(next_free);
        }
        let ht = self.header(HASH_FLAG_STATIC_KEYS, next_free);
        let size = table_size(entries.len());
        let hash_slots = 2 * size as usize;
        let data = self.alloc(hash_slots * size_of::<u32>() + entries.len() * size_of::<Bucket>());
        // SAFETY: `data` holds `hash_slots` u32 hash slots followed by one bucket per entry; the mask
        // `-(2 * size)` makes `h | mask` index one of those slots (negative offsets from arData), as
        // `HT_HASH_EX` does.
        unsafe {
            ptr::write_bytes(data, 0xff, hash_slots * size_of::<u32>());
            let buckets = data.add(hash_slots * size_of::<u32>()).cast::<Bucket>();
            let mask = (-(2 * size as i64)) as u32;
            for (i, (key, value)) in entries.iter().enumerate() {
                let b = buckets.add(i);
                let (h, key) = match *key {
                    ImmutableKey::Int(k) => (k as u64, ptr::null_mut()),
                    ImmutableKey::Str(s) => ((*s).h, s),
                };
                value.write(&raw mut (*b).val);
                (*b).h = h;
                (*b).key = key;
                let slot = buckets.cast::<u32>().offset((h as u32 | mask) as i32 as isize);
                (*b).val.u2.next = *slot;
                *slot = i as u32;
            }
            (*ht).nTableMask = mask;
            (*ht).__bindgen_anon_1.arData = buckets;
            (*ht).nNumUsed = entries.len() as u32;
            (*ht).nNumOfElements = entries.len() as u32;
            (*ht).nTableSize = size;
        }
        ht
    }

    /// An empty array: the engine's own constant when it carries no next index, else an uninitialized
    /// array as `zend_array_dup` makes one.
    fn empty(&mut self, next_free: i64) -> *mut HashTable {
        let shared = &raw const ffi::zend_empty_array;
        // SAFETY: reading a field of the engine's constant empty array.
        if next_free == unsafe { (*shared).nNextFreeElement } {
            return shared.cast_mut();
        }
        let ht = self.header(HASH_FLAG_UNINITIALIZED, next_free);
        // SAFETY: an uninitialized array points at the engine's shared empty hash, as the constant does.
        unsafe {
            (*ht).nTableMask = HT_MIN_MASK;
            (*ht).__bindgen_anon_1.arData = (*shared).__bindgen_anon_1.arData;
            (*ht).nTableSize = HT_MIN_SIZE;
        }
        ht
    }
}

unsafe extern "C" {
    /// `ZSTR_EMPTY_ALLOC()`: the engine's interned empty string.
    static zend_empty_string: *mut zend_string;
    /// `ZSTR_CHAR(c)`: the engine's interned one-byte strings.
    static zend_one_char_string: [*mut zend_string; 256];
}

/// The engine's own interned string of `bytes`, for the empty string and every one-byte string: made
/// at startup (hash computed, `ZSTR_IS_INTERNED`), read-only and never freed while the engine runs, in
/// every thread. `None` for other bytes (or should the engine not have made it).
fn engine_string(bytes: &[u8]) -> Option<*mut zend_string> {
    // SAFETY: reading pointers the engine set at startup and never changes while requests run.
    let s = unsafe {
        match bytes {
            [] => zend_empty_string,
            [b] => zend_one_char_string[usize::from(*b)],
            _ => return None,
        }
    };
    (!s.is_null()).then_some(s)
}

/// Longest array key the thread shares between its copies ([`shared_key`]).
pub const SHARED_KEY_MAX: usize = 32;
/// Most array keys the thread shares: at most this many strings of at most [`SHARED_KEY_MAX`] bytes
/// (about 128 KiB with the table over them), kept until the thread ends.
const SHARED_KEYS_MAX: usize = 2048;

/// The array keys of this thread's immutable arrays, each made once and shared by every copy that
/// holds it: most values of a cache hold the same few keys, which every copy would otherwise make
/// again. Never freed before the thread ends (a copy holding a key may live until then); the table is
/// open addressing over the keys' hashes, made on first use and never resized.
#[derive(Default)]
struct SharedKeys {
    slots: Vec<*mut zend_string>,
    count: usize,
    arena: ImmutableArena,
}

thread_local! {
    static SHARED_KEYS: std::cell::RefCell<SharedKeys> = std::cell::RefCell::default();
}

/// The thread's shared immutable string of an array key's `bytes` (PHP hash `hash`, checked by the
/// caller): the one made before, or a new one while the thread shares fewer than its most keys (the
/// engine's own for the empty and one-byte strings, [`engine_string`]). `None` for a key longer than
/// [`SHARED_KEY_MAX`], past the most keys, or while the thread's locals are destroyed: the caller makes
/// it in its own arena. The strings live until the thread ends.
pub fn shared_key(bytes: &[u8], hash: u64) -> Option<*mut zend_string> {
    if let Some(engine) = engine_string(bytes) {
        return Some(engine);
    }
    if bytes.len() > SHARED_KEY_MAX {
        return None;
    }
    SHARED_KEYS.try_with(|keys| keys.try_borrow_mut().ok()?.get(bytes, hash)).ok().flatten()
}

/// How many new shared strings [`shared_key`] still makes for keys of at most [`SHARED_KEY_MAX`] bytes
/// (the thread shares at most [`SHARED_KEYS_MAX`]). Past that, only the keys it shares already are
/// shared ([`shares_key`]); a new one is made in the copy's arena, which must be sized for it.
pub fn shared_key_room() -> usize {
    SHARED_KEYS
        .try_with(|keys| keys.try_borrow().map_or(0, |keys| SHARED_KEYS_MAX.saturating_sub(keys.count)))
        .unwrap_or(0)
}

/// Whether the thread shares a string of the array key `bytes` (PHP hash `hash`) already (the engine's
/// own for the empty and one-byte strings).
pub fn shares_key(bytes: &[u8], hash: u64) -> bool {
    engine_string(bytes).is_some()
        || SHARED_KEYS
            .try_with(|keys| keys.try_borrow().is_ok_and(|keys| matches!(keys.find(bytes, hash), Some(Ok(_)))))
            .unwrap_or(false)
}

impl SharedKeys {
    /// The shared string of `bytes`, or `Err` with the free slot where it would go (`None`: no table yet).
    fn find(&self, bytes: &[u8], hash: u64) -> Option<Result<*mut zend_string, usize>> {
        let mask = self.slots.len().checked_sub(1)?;
        // Fibonacci hashing spreads the keys' hashes over the table.
        let mut at = (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        loop {
            let held = *self.slots.get(at)?;
            if held.is_null() {
                return Some(Err(at));
            }
            // SAFETY: every string in the table is a live immutable string of the table's arena.
            let same = unsafe {
                (*held).h == hash
                    && (*held).len == bytes.len()
                    && std::slice::from_raw_parts((*held).val.as_ptr().cast::<u8>(), bytes.len()) == bytes
            };
            if same {
                return Some(Ok(held));
            }
            at = (at + 1) & mask;
        }
    }

    fn get(&mut self, bytes: &[u8], hash: u64) -> Option<*mut zend_string> {
        if self.slots.is_empty() {
            self.slots = vec![ptr::null_mut(); 2 * SHARED_KEYS_MAX];
        }
        let at = match self.find(bytes, hash)? {
            Ok(held) => return Some(held),
            Err(at) => at,
        };
        if self.count >= SHARED_KEYS_MAX {
            return None;
        }
        let made = self.arena.string(bytes, hash);
        *self.slots.get_mut(at)? = made;
        self.count += 1;
        Some(made)
    }
}

/// `zend_hash_check_size`: the power of two the engine would size a table of `count` elements to.
fn table_size(count: usize) -> u32 {
    (count.max(HT_MIN_SIZE as usize) as u32).next_power_of_two()
}

/// The immutable array as a value.
pub fn array_value(ht: *mut HashTable) -> Ready {
    Ready::pointer(ht.cast(), IS_ARRAY)
}

/// The immutable string as a value.
pub fn string_value(s: *mut zend_string) -> Ready {
    Ready::pointer(s.cast(), IS_STRING)
}

// Raw pointers into the arena are only handed to PHP on the owning thread.
const _: () = assert!(STRING_HEADER == std::mem::offset_of!(zend_string, val));
