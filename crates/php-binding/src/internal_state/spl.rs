//! `ArrayObject`/`ArrayIterator`/`RecursiveArrayIterator`, `SplFixedArray`, `SplDoublyLinkedList`
//! (`SplQueue`, `SplStack`) and `SplObjectStorage`, through the positional arrays their own
//! `__serialize`/`__unserialize` use in PHP 8.2. The members (properties) part is left empty: the
//! codec stores properties itself. The storage of the `ArrayObject` family is also written in place, for
//! copies of a prototype and for restores in the usual shape (`separate_clone`, `share_stored_storage`,
//! `restore_usual`), and so are the elements of `SplFixedArray` and the lists (`lend_elements`,
//! `return_elements`, `restore_usual`), through mirrors of the start of their engine structs (PHP 8.2
//! and 8.4; 8.3's fixed array is left to its own handlers).

use std::borrow::Cow;
use std::ffi::c_int;
use std::ptr;

use ext_php_rs::ffi::{
    self, zend_class_entry, zend_object, zval, HashTable, IS_ARRAY, IS_LONG, IS_NULL, IS_OBJECT, IS_STRING,
};
use graph_codec::{
    ArrayStorageState, DoublyLinkedListState, FixedArrayState, InternalState, ObjectStorageEntry, ObjectStorageState,
    StateFamily,
};

use super::{Arg, StateError};
use crate::zend;
use crate::zvals;

/// `SPL_ARRAY_IS_SELF`: the object is its own storage.
const ARRAY_IS_SELF: u32 = 0x0100_0000;
/// `SPL_ARRAY_USE_OTHER`: the object reads and writes the storage of the object in its `array` zval.
const ARRAY_USE_OTHER: u32 = 0x0200_0000;

/// `IS_ARRAY_EX`: the type info of a refcounted (not immutable) array.
const IS_ARRAY_EX: u32 = IS_ARRAY | ((1 | 2) << 8);

/// A view of ext/spl's `spl_array_object`, which starts with the storage zval; the iterator slot and the
/// flags follow directly (PHP 8.2), or after one pointer (PHP 8.4). The engine object sits at the
/// handlers' `offset` from the start.
#[derive(Clone, Copy)]
struct ArrayObjectView {
    start: *mut u8,
    /// Offset of `ar_flags` (the iterator slot `ht_iter` is the `u32` before it).
    flags_at: usize,
}

/// Offsets of `ar_flags` in the layouts known: right after the storage zval and `ht_iter`, or after a
/// pointer more.
const FLAGS_AT: [usize; 2] = [20, 28];

/// Where the `spl_array_object` of `obj` starts, and the offset of the engine object in it (the
/// handlers' `offset`).
///
/// # Safety
/// `obj` must be a live object of the `ArrayStorage` family.
unsafe fn allocation_of(obj: *mut zend_object) -> Option<(*mut u8, usize)> {
    // SAFETY: a live object has live handlers; `offset` is where the engine object sits in the
    // allocation that `spl_array_object_new_ex` made, which starts with the storage zval.
    unsafe {
        let offset = usize::try_from((*(*obj).handlers).offset).ok()?;
        Some((obj.cast::<u8>().sub(offset), offset))
    }
}

/// Whether the layout with `ar_flags` at `flags_at` fits in front of the engine object (at `offset`)
/// of the `spl_array_object` at `start`, with, in the 8.4 layout, its pointer between the storage and
/// the iterator slot unset.
///
/// # Safety
/// `start` and `offset` must come from [`allocation_of`] for a live object.
unsafe fn fits(start: *mut u8, offset: usize, flags_at: usize) -> bool {
    // SAFETY: the pointer is read only once the layout is known to end before the engine object.
    flags_at + 4 <= offset && (flags_at == FLAGS_AT[0] || unsafe { start.add(16).cast::<u64>().read_unaligned() } == 0)
}

impl ArrayObjectView {
    /// The view of `obj`, an object fresh from `spl_array_object_new_ex` (object creation or a clone
    /// handler) that nothing has iterated: its layout is found from its iterator slot, which that
    /// function leaves at -1 (`None` when no known layout matches, or a pointer between the storage
    /// and the slot is set).
    ///
    /// # Safety
    /// `obj` must be such an object (`ArrayObject`, `ArrayIterator`, `RecursiveArrayIterator` or a
    /// subclass).
    unsafe fn of_fresh(obj: *mut zend_object) -> Option<ArrayObjectView> {
        // SAFETY: the caller's object; `fits` checks a layout before its iterator slot is read, and
        // only fields before the engine object are read.
        unsafe {
            let (start, offset) = allocation_of(obj)?;
            let flags_at = FLAGS_AT
                .into_iter()
                .find(|&at| fits(start, offset, at) && start.add(at - 4).cast::<u32>().read_unaligned() == u32::MAX)?;
            Some(ArrayObjectView { start, flags_at })
        }
    }

    /// The view of `obj`, an object of the same build's spl_array family as the one `self` views.
    ///
    /// # Safety
    /// `obj` must be a live `spl_array_object` (see [`ArrayObjectView::of_fresh`]).
    unsafe fn sibling(self, obj: *mut zend_object) -> Option<ArrayObjectView> {
        // SAFETY: as in `of_fresh`; the layout is the build's, found on a fresh object.
        unsafe {
            let (start, offset) = allocation_of(obj)?;
            fits(start, offset, self.flags_at).then_some(ArrayObjectView { start, ..self })
        }
    }

    fn storage(self) -> *mut zval {
        self.start.cast::<zval>()
    }

    /// # Safety
    /// The viewed object must be live.
    unsafe fn flags(self) -> u32 {
        // SAFETY: `flags_at` is the offset of `ar_flags` in the viewed, live object (constructors).
        unsafe { self.start.add(self.flags_at).cast::<u32>().read() }
    }

    /// Whether the viewed object is in a state its class's clone handler does not copy, which a copy
    /// made from it would keep: inside one of its sorts (`nApplyCount`, the byte after `ar_flags`; a
    /// copy would refuse every write, "Modification of ArrayObject during sorting is prohibited"), or a
    /// `RecursiveArrayIterator::getChildren()` child (`is_child`, the next byte; PHP 8.2 links it to
    /// its parent's element through `bucket`, and its `__construct()` writes there, so a copy would
    /// write into the parent of the object it was made from). Both bytes are zero in an object that is
    /// neither (object creation zeroes the struct, padding included).
    ///
    /// # Safety
    /// The viewed object must be live.
    unsafe fn sorting_or_child(self) -> bool {
        // SAFETY: `nApplyCount` and `is_child` follow `ar_flags` (at `flags_at`) in the viewed, live
        // object, before the function pointers that precede the engine object.
        unsafe { self.start.add(self.flags_at + 4).cast::<[u8; 2]>().read() != [0, 0] }
    }

    /// # Safety
    /// The viewed object must be live and writable by the caller.
    unsafe fn set_flags(self, flags: u32) {
        // SAFETY: as in `flags`.
        unsafe { self.start.add(self.flags_at).cast::<u32>().write(flags) }
    }
}

/// # Safety
/// `ht` must be the live `__serialize()` array of an object of `family`.
pub unsafe fn extract<'a>(family: StateFamily, ht: *mut HashTable) -> Result<InternalState<'a, *mut zval>, StateError> {
    // SAFETY: caller guarantees a live array; element pointers stay valid while it lives.
    unsafe {
        let at = |index: i64| zvals::find_int(ht, index).ok_or(StateError::Malformed);
        let flags = |index: i64| -> Result<u32, StateError> {
            let z = at(index)?;
            if zend::type_of(z) != IS_LONG {
                return Err(StateError::Malformed);
            }
            u32::try_from((*z).value.lval).map_err(|_| StateError::Malformed)
        };
        Ok(match family {
            StateFamily::ArrayStorage => {
                let storage = at(1)?;
                // A self-backed object (`$o->exchangeArray($o)`) exports no storage: its elements are
                // its own properties.
                let self_backed = flags(0)? & ARRAY_IS_SELF != 0 && zend::type_of(storage) == IS_NULL;
                if !self_backed && !matches!(zend::type_of(storage), IS_ARRAY | IS_OBJECT) {
                    return Err(StateError::Malformed);
                }
                let class = at(3)?;
                let iterator_class = match zend::type_of(class) {
                    IS_NULL => None,
                    IS_STRING => Some(Cow::Owned(zend::str_bytes(class).to_vec())),
                    _ => return Err(StateError::Malformed),
                };
                InternalState::ArrayStorage(ArrayStorageState { storage, flags: flags(0)?, iterator_class })
            }
            StateFamily::FixedArray => InternalState::FixedArray(FixedArrayState { elements: elements(ht) }),
            StateFamily::DoublyLinkedList => {
                let inner = at(1)?;
                if zend::type_of(inner) != IS_ARRAY {
                    return Err(StateError::Malformed);
                }
                InternalState::DoublyLinkedList(DoublyLinkedListState {
                    elements: elements(zvals::table(inner)),
                    iterator_mode: flags(0)?,
                })
            }
            StateFamily::ObjectStorage => {
                let inner = at(0)?;
                if zend::type_of(inner) != IS_ARRAY {
                    return Err(StateError::Malformed);
                }
                let flat = elements(zvals::table(inner));
                if !flat.len().is_multiple_of(2)
                    || flat.iter().step_by(2).any(|&o| zend::type_of(zend::deref(o)) != IS_OBJECT)
                {
                    return Err(StateError::Malformed);
                }
                let entries =
                    flat.chunks(2).map(|pair| ObjectStorageEntry { object: pair[0], data: pair[1] }).collect();
                InternalState::ObjectStorage(ObjectStorageState { entries })
            }
            _ => return Err(StateError::Malformed),
        })
    }
}

/// The values at integer keys 0, 1, 2, … up to the first missing one.
///
/// # Safety
/// `ht` must be a live array.
unsafe fn elements(ht: *mut HashTable) -> Vec<*mut zval> {
    // SAFETY: caller guarantees a live array.
    unsafe { (0..).map_while(|i| zvals::find_int(ht, i)).collect() }
}

/// The `__unserialize()` argument for `state`.
pub fn argument<V>(state: InternalState<'_, V>) -> Result<Arg<'_, V>, StateError> {
    let empty = || Arg::List(Vec::new());
    let values = |elements: Vec<V>| Arg::List(elements.into_iter().map(Arg::Value).collect());
    Ok(match state {
        InternalState::ArrayStorage(s) => {
            let class = match s.iterator_class {
                Some(name) => Arg::Bytes(name),
                None => Arg::Null,
            };
            Arg::List(vec![Arg::Long(i64::from(s.flags)), Arg::Value(s.storage), empty(), class])
        }
        InternalState::FixedArray(s) => values(s.elements),
        InternalState::DoublyLinkedList(s) => {
            Arg::List(vec![Arg::Long(i64::from(s.iterator_mode)), values(s.elements), empty()])
        }
        InternalState::ObjectStorage(s) => {
            let flat = s.entries.into_iter().flat_map(|e| [e.object, e.data]).collect();
            Arg::List(vec![values(flat), empty()])
        }
        _ => return Err(StateError::Malformed),
    })
}

/// Gives `copy`, just made from `original` by the class's clone handler, storage of its own: the
/// clone handler of `ArrayIterator` (and `RecursiveArrayIterator`) makes the copy read and write the
/// original's storage (`SPL_ARRAY_USE_OTHER`), so the copy gets a duplicate of the original's array
/// instead, as `ArrayObject`'s clone handler makes one. Flags other than `SPL_ARRAY_USE_OTHER` and the
/// iterator class stay as the clone handler set them (the original's); the copy's iterator position is
/// the start, as the clone handler leaves it. A copy that does not use the original's storage
/// (`ArrayObject`, a self-backed object) is left as it is. `Malformed` when the storage is not an array
/// the original owns (the copy is then not independent and must not be used).
///
/// # Safety
/// `original` and `copy` must be live objects of the `ArrayStorage` family, `copy` fresh from the clone
/// handler of `original` and not yet seen by PHP code.
pub unsafe fn separate_clone(original: *mut zend_object, copy: *mut zend_object) -> Result<(), StateError> {
    // SAFETY: both objects are live spl_array objects (caller), the copy fresh from the clone handler:
    // their views are readable and the copy's is ours to write; the original keeps its own storage.
    unsafe {
        let copy_view = ArrayObjectView::of_fresh(copy).ok_or(StateError::Malformed)?;
        let flags = copy_view.flags();
        if flags & ARRAY_USE_OTHER == 0 {
            return Ok(());
        }
        // The clone handler's doing, checked before anything is written: the copy uses the original.
        let other = copy_view.storage();
        if zend::type_of(other) != IS_OBJECT || !std::ptr::eq((*other).value.obj, original) {
            return Err(StateError::Malformed);
        }
        let original_view = copy_view.sibling(original).ok_or(StateError::Malformed)?;
        let storage = original_view.storage();
        if original_view.flags() & (ARRAY_USE_OTHER | ARRAY_IS_SELF) != 0 || zend::type_of(storage) != IS_ARRAY {
            return Err(StateError::Malformed);
        }
        // The copy's reference to the original is given up without a release: the caller holds the
        // original, so its count stays above zero, and the engine's release would only buffer it as a
        // possible garbage cycle root (for the collector to scan and drop again).
        std::mem::forget(std::ptr::replace(other, duplicate((*storage).value.arr)));
        (*original).gc.refcount -= 1;
        copy_view.set_flags(flags & !ARRAY_USE_OTHER);
        Ok(())
    }
}

/// Makes `prototype`'s storage the stored, engine-immutable array in `argument` (the `__unserialize()`
/// argument it was restored from): the prototype is never written (it is only cloned), and the engine
/// duplicates an immutable array with one copy of its memory where it copies a request array element by
/// element, so every copy made from the prototype gets its own storage faster. `Malformed` (nothing
/// changed) when the stored storage is not an immutable array or the prototype's is not its own array.
///
/// # Safety
/// `prototype` must be a live object of the `ArrayStorage` family, a complete copy (fresh from its
/// clone handler) of one restored from `argument`, that PHP code never sees; `argument` must be an immutable array that outlives
/// it, or at least every use of its storage (its release does not touch an immutable array).
pub unsafe fn share_stored_storage(prototype: *mut zend_object, argument: *mut HashTable) -> Result<(), StateError> {
    // SAFETY: a live spl_array object fresh from its clone handler (caller); the stored array is
    // immutable, so the zval that refers to it holds no reference to release, and nothing writes
    // through the prototype.
    unsafe {
        let view = ArrayObjectView::of_fresh(prototype).ok_or(StateError::Malformed)?;
        let stored = zvals::find_int(argument, 1).ok_or(StateError::Malformed)?;
        let own = view.storage();
        if zend::type_of(stored) != IS_ARRAY
            || !zvals::is_immutable((*stored).value.arr)
            || view.flags() & (ARRAY_USE_OTHER | ARRAY_IS_SELF) != 0
            || zend::type_of(own) != IS_ARRAY
        {
            return Err(StateError::Malformed);
        }
        drop(std::ptr::replace(own, zvals::copy(stored)));
        Ok(())
    }
}

/// `SPL_ARRAY_STD_PROP_LIST | SPL_ARRAY_ARRAY_AS_PROPS | SPL_ARRAY_CHILD_ARRAYS_ONLY`: the flags of the
/// class's public API.
const PUBLIC_FLAGS: u32 = 0x7;

/// Restores `obj`, fresh from object creation, from its `__unserialize()` argument without calling it,
/// when the argument has the usual shape: public flags only, the storage an engine-immutable array, no
/// members and the default iterator class. The object then holds what `__unserialize` would give it: a
/// duplicate of the storage (the engine writes the storage in place, so the stored array is never
/// given out) and the flags. `false` (nothing changed) for any other shape, which `__unserialize` restores.
///
/// # Safety
/// `obj` must be a live object of the `ArrayStorage` family fresh from `object_init_ex`, and `argument` a
/// live array.
unsafe fn restore_storage(obj: *mut zend_object, argument: *mut HashTable) -> bool {
    // SAFETY: a live, fresh spl_array object (caller): its view is readable and ours to write; the
    // argument's values are read in place.
    unsafe {
        let Some(view) = ArrayObjectView::of_fresh(obj) else { return false };
        let (Some(flags), Some(stored), Some(members), Some(iterator_class)) = (
            zvals::find_int(argument, 0),
            zvals::find_int(argument, 1),
            zvals::find_int(argument, 2),
            zvals::find_int(argument, 3),
        ) else {
            return false;
        };
        let own = view.storage();
        let usual = zend::array_len(argument) == 4
            && zend::type_of(flags) == IS_LONG
            && u32::try_from((*flags).value.lval).is_ok_and(|f| f & !PUBLIC_FLAGS == 0)
            && zend::type_of(stored) == IS_ARRAY
            && zvals::is_immutable((*stored).value.arr)
            && zend::type_of(members) == IS_ARRAY
            && zend::array_len((*members).value.arr) == 0
            && zend::type_of(iterator_class) == IS_NULL
            && view.flags() == 0
            && zend::type_of(own) == IS_ARRAY;
        if !usual {
            return false;
        }
        drop(std::ptr::replace(own, duplicate((*stored).value.arr)));
        view.set_flags((*flags).value.lval as u32);
        true
    }
}

/// A zval owning a duplicate of `ht` (refcount 1, writable in place as ext/spl writes its storage).
///
/// # Safety
/// `ht` must be a live array, during a request.
unsafe fn duplicate(ht: *mut HashTable) -> zval {
    let mut array = zval::new();
    // SAFETY: caller guarantees a live array; the engine returns a new array with refcount 1, which the
    // zval owns.
    array.value.arr = unsafe { ffi::zend_array_dup(ht) };
    array.u1.type_info = IS_ARRAY_EX;
    array
}

/// `spl_ptr_llist_element` (PHP 8.0 to 8.4): an element's own reference count is kept in its value's
/// `u2` (`SPL_LLIST_RC`).
#[repr(C)]
struct ListElement {
    prev: *mut ListElement,
    next: *mut ListElement,
    data: zval,
}

/// `spl_ptr_llist` (PHP 8.0 to 8.4).
#[repr(C)]
struct List {
    head: *mut ListElement,
    tail: *mut ListElement,
    count: c_int,
}

const _: () = assert!(size_of::<ListElement>() == 32);

unsafe extern "C" {
    /// `zend_alloc.h`: the allocator's 32-byte bin, the size of a list element (`emalloc(32)` without
    /// the size dispatch); php8.2 and php8.4 export it.
    fn _emalloc_32() -> *mut ListElement;
}

/// The elements of a prototype of the `FixedArray` or `DoublyLinkedList` family, taken out of it while
/// its class's clone handler copies everything else, then given back to it and copied into the clone
/// in one pass ([`lend_elements`], [`return_elements`]): the clone handler would copy them one call per
/// element (`spl_ptr_llist_push`, `ZVAL_COPY`).
pub struct LentElements {
    at: *mut u8,
    elements: Lent,
}

enum Lent {
    /// `spl_fixedarray`'s `size` and `elements` (the start of `spl_fixedarray_object`).
    Fixed { size: i64, elements: *mut zval },
    /// The `spl_ptr_llist` that `spl_dllist_object` starts with, and its elements.
    List { list: *mut List, head: *mut ListElement, tail: *mut ListElement, count: c_int },
}

/// Whether this build's `spl_fixedarray` is known here: PHP 8.2's and 8.4's start with `size` and
/// `elements`; PHP 8.3's is not checked.
const FIXED_KNOWN: bool = cfg!(any(not(php83), php84));

/// Where the fields of `spl_fixedarray_object` that vary between PHP releases start: after `size` and
/// `elements`, up to the engine object (the handlers' `offset`).
const FIXED_TAIL_AT: usize = 16;

/// The longest tail ([`FIXED_TAIL_AT`] to the engine object) learnt, and the most bytes a restore may
/// change in it.
const TAIL_MAX: usize = 96;
const TAIL_CHANGES_MAX: usize = 16;

/// A fixed array's tail as object creation left it, read before its `__unserialize` runs.
struct TailBytes {
    bytes: [u8; TAIL_MAX],
}

impl TailBytes {
    /// The `len` bytes at `tail`, or `None` when the tail is longer than is learnt.
    ///
    /// # Safety
    /// `tail` must be readable for `len` bytes.
    unsafe fn read(tail: *const u8, len: usize) -> Option<TailBytes> {
        if len > TAIL_MAX {
            return None;
        }
        let mut bytes = [0; TAIL_MAX];
        // SAFETY: `len` readable bytes (caller), at most `TAIL_MAX` of them.
        unsafe { ptr::copy_nonoverlapping(tail, bytes.as_mut_ptr(), len) };
        Some(TailBytes { bytes })
    }
}

/// What a fixed array's `__unserialize` (with one element) writes into its fresh object beyond `size`
/// and `elements`: the fields this module does not mirror (`cached_resize` came in a PHP 8.2 patch
/// release, `should_rebuild_properties` went in 8.4), learnt from this thread's first two restores and
/// written directly into later ones, which then call no `__unserialize` (a PHP call whose code, cold in a
/// php-fpm request's first fetch, cost more than the rest of the restore). Learnt only when both
/// restores wrote the same bytes at the same places in tails of the same length, so nothing that varies
/// per object (a pointer) is ever copied.
#[derive(Clone, Copy)]
enum FixedTail {
    Unknown,
    /// One restore seen: its tail length and changes.
    Seen(TailChanges),
    Learnt(TailChanges),
    /// Two restores disagreed, or a restore changed more than is kept: every restore calls it.
    Never,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct TailChanges {
    len: usize,
    count: usize,
    at: [u8; TAIL_CHANGES_MAX],
    value: [u8; TAIL_CHANGES_MAX],
}

impl FixedTail {
    /// Writes the learnt changes into the fresh tail at `tail` (`len` bytes): `false` (nothing written)
    /// when none are learnt for tails of this length.
    ///
    /// # Safety
    /// `tail` must be writable for `len` bytes.
    unsafe fn apply(self, tail: *mut u8, len: usize) -> bool {
        let FixedTail::Learnt(changes) = self else { return false };
        if changes.len != len {
            return false;
        }
        for i in 0..changes.count {
            // SAFETY: every change is inside a tail of `len` bytes (`learn`).
            unsafe { tail.add(usize::from(changes.at[i])).write(changes.value[i]) };
        }
        true
    }

    /// This state after a restore whose `__unserialize` left the tail at `tail` (`len` bytes) where
    /// `fresh` was.
    ///
    /// # Safety
    /// `tail` must be readable for `len` bytes, at most `TAIL_MAX`.
    unsafe fn learn(self, fresh: &TailBytes, tail: *const u8, len: usize) -> FixedTail {
        let mut changes = TailChanges { len, count: 0, at: [0; TAIL_CHANGES_MAX], value: [0; TAIL_CHANGES_MAX] };
        for i in 0..len {
            // SAFETY: `len` readable bytes (caller).
            let now = unsafe { tail.add(i).read() };
            if now != fresh.bytes[i] {
                if changes.count == TAIL_CHANGES_MAX {
                    return FixedTail::Never;
                }
                // `i < TAIL_MAX`, which fits in a byte.
                changes.at[changes.count] = i as u8;
                changes.value[changes.count] = now;
                changes.count += 1;
            }
        }
        match self {
            FixedTail::Unknown => FixedTail::Seen(changes),
            FixedTail::Seen(first) if first == changes => FixedTail::Learnt(changes),
            _ => FixedTail::Never,
        }
    }
}

thread_local! {
    /// This thread's [`FixedTail`] (the layout is the build's, the same for every class of the family).
    static FIXED_TAIL: std::cell::Cell<FixedTail> = const { std::cell::Cell::new(FixedTail::Unknown) };
}

/// `spl_fixedarray`'s `should_rebuild_properties` (PHP 8.2), which its constructors set for a filled
/// array (object creation leaves it zeroed); PHP 8.4 has none.
const FIXED_REBUILD_AT: Option<usize> = if cfg!(php83) { None } else { Some(16) };

/// The offset of a field in a struct this module mirrors for PHP 8.2 (`php82`) and 8.4 (`php84`);
/// `None` on PHP 8.3, whose structs are not mirrored (the engine's own paths are used there).
const fn mirrored(php82: usize, php84: usize) -> Option<usize> {
    if cfg!(php84) {
        Some(php84)
    } else if cfg!(php83) {
        None
    } else {
        Some(php82)
    }
}

/// Takes the elements out of `prototype` (its array or list is left empty), so that its clone handler
/// copies none of them; [`return_elements`] must follow the clone at once. `None` (nothing changed)
/// for other families, an empty prototype, and builds whose layout is not known here (PHP 8.3's
/// fixed array).
///
/// # Safety
/// `prototype` must be a live object of `family` that PHP code never sees, made by its class's clone
/// handler (or by this module), so that its iterator state is the one a clone has (or one just restored
/// by its userland hooks, whose copy [`state_slots`] refuses where that state differs).
pub unsafe fn lend_elements(family: StateFamily, prototype: *mut zend_object) -> Option<LentElements> {
    if family == StateFamily::FixedArray && !FIXED_KNOWN {
        return None;
    }
    // SAFETY: the caller's object is of `family`, whose allocation starts with the fields read here
    // (`spl_fixedarray_object`: size, elements; `spl_dllist_object`: the list pointer), before the
    // engine object at the handlers' offset; they are written back by `return_elements`.
    unsafe {
        let (at, offset) = allocation_of(prototype)?;
        match family {
            StateFamily::FixedArray if offset >= 24 => {
                let (size, elements) = fixed_fields(at);
                if size <= 0 || elements.is_null() {
                    return None;
                }
                clear_fixed(at);
                Some(LentElements { at, elements: Lent::Fixed { size, elements } })
            }
            StateFamily::DoublyLinkedList if offset >= 8 => {
                let list = at.cast::<*mut List>().read();
                if list.is_null() || (*list).head.is_null() {
                    return None;
                }
                let lent = Lent::List { list, head: (*list).head, tail: (*list).tail, count: (*list).count };
                list.write(List { head: ptr::null_mut(), tail: ptr::null_mut(), count: 0 });
                Some(LentElements { at, elements: lent })
            }
            _ => None,
        }
    }
}

/// Gives `lent` back to the prototype it was taken from, then gives `copy` (null: the clone failed),
/// made by the prototype's clone handler while they were lent, a copy of the elements: a fixed
/// array's in one block, a list's one element each, with its own reference to each value. The copy's
/// iterator state is the one its clone handler gave it (a list's traverse pointer unset, as
/// `__unserialize` leaves it). `Malformed` when the copy is not as its clone handler leaves it (it must
/// then not be used).
///
/// # Safety
/// `lent` must come from [`lend_elements`] on the prototype, and `copy` be null or fresh from that
/// prototype's clone handler since, not yet seen by PHP code.
pub unsafe fn return_elements(lent: LentElements, copy: *mut zend_object) -> Result<(), StateError> {
    // SAFETY: `lent.at` is the prototype's allocation (caller); the copy, of the same class, has the
    // same layout, with an empty array or list from its clone handler.
    unsafe {
        match lent.elements {
            Lent::Fixed { size, elements } => {
                set_fixed_fields(lent.at, size, elements);
                if copy.is_null() {
                    return Ok(());
                }
                let (at, _) = allocation_of(copy).ok_or(StateError::Malformed)?;
                write_fixed(at, std::slice::from_raw_parts(elements, size as usize));
                Ok(())
            }
            Lent::List { list, head, tail, count } => {
                list.write(List { head, tail, count });
                if copy.is_null() {
                    return Ok(());
                }
                let (at, _) = allocation_of(copy).ok_or(StateError::Malformed)?;
                let own = at.cast::<*mut List>().read();
                if own.is_null() || !(*own).head.is_null() {
                    return Err(StateError::Malformed);
                }
                append_copies(own, list_values(head));
                Ok(())
            }
        }
    }
}

/// Restores `obj`, fresh from object creation, from its `__unserialize()` argument without calling it,
/// where the argument has the usual shape: an `ArrayStorage` object's storage ([`restore_storage`]), a
/// fixed array's elements as one packed list, a list's flags, elements as one packed list and no
/// members. The object then holds what `__unserialize` would give it, its elements copied in one pass. A fixed array is first
/// restored by its class's own `__unserialize` (`base`'s) with one null element, which sets the fields
/// this module does not know (PHP 8.2 releases differ: `cached_resize` came in a patch release), then
/// given the copy in place of that element; once a thread has seen two such restores write the same
/// bytes there ([`FixedTail`]), later ones write those bytes and call nothing. `false` (nothing changed) for any other shape or family,
/// and on builds whose layout is not known here (PHP 8.3), which `__unserialize` restores.
///
/// # Safety
/// `obj` must be a live object of `family` fresh from `object_init_ex`, `base` its class's internal
/// ancestor of that family, and `argument` a live array.
pub unsafe fn restore_usual(
    family: StateFamily,
    obj: *mut zend_object,
    base: *mut zend_class_entry,
    argument: *mut HashTable,
) -> bool {
    // SAFETY: a live, fresh object of `family` (caller): its allocation starts with the fields written
    // here (see `lend_elements`), which object creation left zeroed (an empty array or list); the
    // argument's values are read in place and copied with a reference each.
    unsafe {
        if family == StateFamily::ArrayStorage {
            return restore_storage(obj, argument);
        }
        let Some((at, offset)) = allocation_of(obj) else { return false };
        match family {
            StateFamily::FixedArray if FIXED_KNOWN => {
                let Some(values) = plain_list(argument) else { return false };
                if offset < 24 || fixed_fields(at) != (0, ptr::null_mut()) {
                    return false;
                }
                // An empty argument leaves the array empty, as `__unserialize` does.
                if values.is_empty() {
                    return true;
                }
                let tail = at.add(FIXED_TAIL_AT);
                let tail_len = offset - FIXED_TAIL_AT;
                if FIXED_TAIL.with(|t| t.get().apply(tail, tail_len)) {
                    write_fixed(at, values);
                    return true;
                }
                let fresh = TailBytes::read(tail, tail_len);
                let mut one = zvals::new_array(1, true);
                zvals::insert_int(zvals::table(&raw mut one), 0, zval::new());
                let restored = super::unserialize(obj, base, one).is_ok();
                match fixed_fields(at) {
                    (1, block) if !block.is_null() => {
                        // The one element is a null: nothing to release in it.
                        ffi::_efree(block.cast());
                        if restored {
                            if let Some(fresh) = fresh {
                                FIXED_TAIL.with(|t| t.set(t.get().learn(&fresh, tail, tail_len)));
                            }
                            write_fixed(at, values);
                            return true;
                        }
                    }
                    _ if restored => return false,
                    _ => {}
                }
                // Back to the fresh object, which `__unserialize` then restores.
                zvals::clear_exception();
                clear_fixed(at);
                false
            }
            StateFamily::DoublyLinkedList => {
                let Some(flags_at) = LIST_FLAGS_AT.filter(|&f| f + 4 <= offset) else { return false };
                let (Some(flags), Some(stored), Some(members)) =
                    (zvals::find_int(argument, 0), zvals::find_int(argument, 1), zvals::find_int(argument, 2))
                else {
                    return false;
                };
                let list = at.cast::<*mut List>().read();
                let usual = zend::array_len(argument) == 3
                    && zend::type_of(flags) == IS_LONG
                    && zend::type_of(stored) == IS_ARRAY
                    && zend::type_of(members) == IS_ARRAY
                    && zend::array_len((*members).value.arr) == 0
                    && !list.is_null()
                    && (*list).head.is_null();
                let (true, Ok(flags), Some(values)) =
                    (usual, c_int::try_from((*flags).value.lval), plain_list((*stored).value.arr))
                else {
                    return false;
                };
                at.add(flags_at).cast::<c_int>().write(flags);
                append_copies(list, values.iter().map(std::ptr::from_ref));
                true
            }
            _ => false,
        }
    }
}

/// `spl_dllist_object`'s traverse pointer: after the list pointer and the traverse position (PHP 8.2),
/// or right after the list pointer (PHP 8.4).
const LIST_TRAVERSE_AT: Option<usize> = mirrored(16, 8);

/// `spl_dllist_object`'s traverse position (an `int`): after the list pointer (PHP 8.2), or after the
/// list pointer and the traverse pointer (PHP 8.4).
const LIST_POSITION_AT: Option<usize> = mirrored(8, 16);

/// `spl_dllist_object`'s `flags`: after the list pointer, the traverse position and the traverse pointer
/// (PHP 8.2), or the traverse pointer and the traverse position (PHP 8.4).
const LIST_FLAGS_AT: Option<usize> = mirrored(24, 20);

/// The values of a packed array without holes, in order (`None` for any other array).
///
/// # Safety
/// `ht` must be a live array that outlives the slice and is not modified while it is used.
unsafe fn plain_list<'a>(ht: *mut HashTable) -> Option<&'a [zval]> {
    // SAFETY: caller guarantees a live array.
    unsafe { (zvals::is_packed(ht) && (*ht).nNumUsed == (*ht).nNumOfElements).then(|| zvals::packed_storage(ht)) }
}

/// Gives the empty fixed array at `at` (an `spl_fixedarray` left empty by object creation or a clone
/// handler) a copy of `values` (at least one): see [`copy_elements`].
///
/// # Safety
/// `at` must start a live `spl_fixedarray_object` of this build whose array is empty; `values` must be
/// live zvals (no `IS_UNDEF`, no `IS_INDIRECT`).
unsafe fn write_fixed(at: *mut u8, values: &[zval]) {
    // SAFETY: as above.
    unsafe { set_fixed(at, copy_elements(values), values.len()) }
}

/// A copy of `values` (at least one) in one block, allocated as the engine allocates a fixed array's
/// elements (its free handler releases them), with a reference to each refcounted value.
///
/// # Safety
/// `values` must be live zvals (no `IS_UNDEF`, no `IS_INDIRECT`), during a request.
unsafe fn copy_elements(values: &[zval]) -> *mut zval {
    // SAFETY: as above.
    unsafe {
        let own = ffi::_emalloc(size_of_val(values)).cast::<zval>();
        ptr::copy_nonoverlapping(values.as_ptr(), own, values.len());
        if zvals::any_refcounted(values) {
            for i in 0..values.len() {
                zvals::add_ref(own.add(i));
            }
        }
        own
    }
}

/// Makes `elements` (`len` of them, owned) the array of the fixed array at `at`, as its constructors
/// leave a filled one.
///
/// # Safety
/// `at` must start a live `spl_fixedarray_object` of this build whose array holds nothing of its own.
unsafe fn set_fixed(at: *mut u8, elements: *mut zval, len: usize) {
    // SAFETY: as above.
    unsafe {
        set_fixed_fields(at, len as i64, elements);
        if let Some(rebuild) = FIXED_REBUILD_AT {
            at.add(rebuild).cast::<bool>().write(true);
        }
    }
}

/// Where `spl_fixedarray`'s `cached_resize` sits, by the handlers' `offset` (the struct's size): PHP
/// 8.4's struct is `size`, `elements`, `cached_resize`, then `fptr_count`; PHP 8.2 releases that have it
/// (40 bytes, as Debian's 8.2.36) keep it after `should_rebuild_properties`, and those without it (32
/// bytes) have no resize state. `None` for other layouts.
const fn fixed_resize_at(offset: usize) -> Option<Option<usize>> {
    match offset {
        32 if cfg!(php84) => Some(Some(16)),
        40 if !cfg!(php83) => Some(Some(24)),
        32 if !cfg!(php83) => Some(None),
        _ => None,
    }
}

/// Whether a resize of the fixed array at `at` (`offset` bytes before its engine object) is running
/// (its `cached_resize` is -1 when none runs; a resize nested in it, from a destructor of an element it
/// drops, only records the size asked for): a copy of it would keep that state, and every `setSize()`
/// on the copy would record a size and change nothing. On PHP 8.2 an array the resize emptied does not
/// keep it (a resize of an empty array starts afresh, and objects that no constructor initialised, as
/// restores of empty arrays are, hold 0 there); on PHP 8.4 it does (checked). `None` for layouts not
/// known here.
///
/// # Safety
/// `at` must start a live `spl_fixedarray_object` of this build, `offset` bytes before its engine object.
unsafe fn fixed_resizing(at: *mut u8, offset: usize) -> Option<bool> {
    // SAFETY: `cached_resize` is at the offset `fixed_resize_at` names for this build's struct of
    // `offset` bytes (caller).
    unsafe {
        Some(match fixed_resize_at(offset)? {
            Some(resize_at) => at.add(resize_at).cast::<i64>().read() >= 0 && (cfg!(php84) || fixed_fields(at).0 != 0),
            None => false,
        })
    }
}

/// The fixed array at `at`'s `size` and `elements`.
///
/// # Safety
/// `at` must start a live `spl_fixedarray_object` of this build.
unsafe fn fixed_fields(at: *mut u8) -> (i64, *mut zval) {
    // SAFETY: as above: the struct starts with `size`, then `elements`.
    unsafe { (at.cast::<i64>().read(), at.add(8).cast::<*mut zval>().read()) }
}

/// Writes the fixed array at `at`'s `size` and `elements`, releasing nothing it held (the caller keeps
/// or frees it).
///
/// # Safety
/// As for [`fixed_fields`].
unsafe fn set_fixed_fields(at: *mut u8, size: i64, elements: *mut zval) {
    // SAFETY: as above: the struct starts with `size`, then `elements`.
    unsafe {
        at.cast::<i64>().write(size);
        at.add(8).cast::<*mut zval>().write(elements);
    }
}

/// Leaves the fixed array at `at` empty, as object creation does (see [`set_fixed_fields`]).
///
/// # Safety
/// As for [`fixed_fields`].
unsafe fn clear_fixed(at: *mut u8) {
    // SAFETY: as above.
    unsafe { set_fixed_fields(at, 0, ptr::null_mut()) }
}

/// The values of the list starting at `head` (null: none), in order.
///
/// # Safety
/// `head` must be null or a live element of a list that is not modified while the values are read.
unsafe fn list_values(head: *mut ListElement) -> impl Iterator<Item = *const zval> {
    let first = Some(head).filter(|h| !h.is_null());
    std::iter::successors(first, |&node| {
        // SAFETY: as above, a live element, whose `next` is null or a live element.
        unsafe { Some((*node).next).filter(|n| !n.is_null()) }
    })
    // SAFETY: as above, a live element.
    .map(|node| unsafe { &raw const (*node).data })
}

/// Appends a copy of each of `values` to the empty list `list`, one element each (with its own
/// reference to the value), as `spl_ptr_llist_push` makes them.
///
/// # Safety
/// `list` must be the live, empty list of a list object of this build; `values` live zvals.
unsafe fn append_copies(list: *mut List, values: impl Iterator<Item = *const zval>) {
    // SAFETY: as above; elements are allocated as the engine allocates them (its free handler releases
    // them). The list is written once complete: a bailout out of the allocator leaves it empty (the
    // elements made are request memory, freed with the request that bailed out).
    unsafe {
        let (mut first, mut prev, mut made) = (ptr::null_mut(), ptr::null_mut::<ListElement>(), 0);
        for value in values {
            let element = _emalloc_32();
            let mut data = zvals::copy(value);
            data.u2.extra = 1;
            element.write(ListElement { prev, next: ptr::null_mut(), data });
            if prev.is_null() {
                first = element;
            } else {
                (*prev).next = element;
            }
            prev = element;
            made += 1;
        }
        list.write(List { head: first, tail: prev, count: made });
    }
}

/// What a byte copy of a prototype gets of its own in place of the prototype's.
enum Own {
    Storage(zval),
    Elements(*mut zval, usize),
    List(*mut List),
    Nothing,
}

/// A copy of `prototype`, an object of `family` that its class's clone handler (or this module) made
/// and that PHP code never saw (or one just restored by its userland hooks, whose iterator state is
/// checked here and by [`state_slots`]), made without the clone handler: its allocation copied byte for byte
/// (its flags, iterator class, cached method pointers, declared properties), then given its own
/// storage, elements or list, copied as the clone handler copies them. `None` (nothing made) for
/// other families, a prototype with a property table, a declared property holding a refcounted array
/// or object, an iterated `ArrayIterator`, a list whose traverse pointer is set, and builds whose
/// layout is not known here; the clone handler then copies it.
///
/// # Safety
/// `prototype` must be a live object of `family`, as described, during a request.
pub unsafe fn copy_prototype(family: StateFamily, prototype: *mut zend_object) -> Option<zval> {
    // SAFETY: a live object of `family` (caller), whose allocation starts with the fields read here;
    // everything the copy will own is made before the copy exists, so no allocation can leave a copy
    // that names the prototype's; the copy is complete before it is handed out.
    unsafe {
        let (at, offset) = allocation_of(prototype)?;
        let ce = (*prototype).ce;
        if !(*prototype).properties.is_null() {
            return None;
        }
        let count = zvals::slot_count(ce);
        if (0..count).any(|i| {
            let z = zvals::property_slot(prototype, i);
            zend::type_of(z) > IS_STRING && zvals::is_refcounted(z)
        }) {
            return None;
        }
        let own = match family {
            StateFamily::ArrayStorage => {
                let view = ArrayObjectView::of_fresh(prototype)?;
                let storage = view.storage();
                if view.flags() & (ARRAY_USE_OTHER | ARRAY_IS_SELF) != 0 || zend::type_of(storage) != IS_ARRAY {
                    return None;
                }
                Own::Storage(duplicate((*storage).value.arr))
            }
            StateFamily::FixedArray if FIXED_KNOWN && offset >= 24 => {
                let (size, elements) = fixed_fields(at);
                let size = usize::try_from(size).ok()?;
                match (size, elements.is_null()) {
                    (0, true) => Own::Nothing,
                    (1.., false) => Own::Elements(copy_elements(std::slice::from_raw_parts(elements, size)), size),
                    _ => return None,
                }
            }
            StateFamily::DoublyLinkedList => {
                let traverse_at = LIST_TRAVERSE_AT.filter(|&t| t + 8 <= offset)?;
                let list = at.cast::<*mut List>().read();
                if list.is_null() || !at.add(traverse_at).cast::<*mut ListElement>().read().is_null() {
                    return None;
                }
                // `spl_ptr_llist_init`'s allocation, which the free handler releases.
                let own = ffi::_emalloc(size_of::<List>()).cast::<List>();
                append_copies(own, list_values((*list).head));
                Own::List(own)
            }
            _ => return None,
        };
        let copy = crate::prototype::copy_allocation(prototype, ce, offset);
        for i in 0..count {
            zvals::add_ref(zvals::property_slot(copy, i));
        }
        let copy_at = copy.cast::<u8>().sub(offset);
        match own {
            Own::Storage(storage) => copy_at.cast::<zval>().write(storage),
            Own::Elements(elements, len) => set_fixed(copy_at, elements, len),
            Own::List(list) => copy_at.cast::<*mut List>().write(list),
            Own::Nothing => {}
        }
        Some(zvals::object_zval(copy))
    }
}

/// The zvals of `copy`'s internal state (an `ArrayStorage` object's storage, a fixed array's elements, a
/// list's values; a heap's elements, from `heap::slots`), which `copy`, made from `original` by
/// `zval_out::clone_object`, still shares with
/// `original` one level down: the caller gives each a copy of its own, in place (keeping a list
/// element's `u2`, its reference count). `None` where such a copy does not hold `original`'s state:
/// an `ArrayStorage` object that was iterated (a copy starts at the first element), is its own storage,
/// uses another object's, or wraps an object (its clone handler makes an array of that object's
/// properties), or is being sorted or is a child iterator ([`ArrayObjectView::sorting_or_child`]); a
/// fixed array being resized ([`fixed_resizing`]); a list that was traversed (a copy starts
/// untraversed); `SplObjectStorage`, whose clone handler shares the inner objects and keys them by their
/// identity (giving it copies would mean attaching them again, which calls a userland `getHash()`);
/// other families; and builds whose layout is not known here.
///
/// # Safety
/// `original` and `copy` must be live objects of `family`, `copy` made from `original` as above and not
/// yet seen by PHP code.
pub unsafe fn state_slots(
    family: StateFamily,
    original: *mut zend_object,
    copy: *mut zend_object,
) -> Option<Vec<*mut zval>> {
    // SAFETY: live objects of `family` (caller), whose allocations start with the fields read here; the
    // original's view is checked as `copy_prototype` checks a prototype's.
    unsafe {
        if matches!(family, StateFamily::Heap | StateFamily::PriorityQueue) {
            return super::heap::slots(family, original, copy);
        }
        let (at, offset) = allocation_of(copy)?;
        match family {
            StateFamily::ArrayStorage => {
                let view = ArrayObjectView::of_fresh(original)?;
                if view.flags() & (ARRAY_USE_OTHER | ARRAY_IS_SELF) != 0
                    || zend::type_of(view.storage()) != IS_ARRAY
                    || view.sorting_or_child()
                {
                    return None;
                }
                let storage = view.sibling(copy)?.storage();
                (zend::type_of(storage) == IS_ARRAY).then(|| vec![storage])
            }
            StateFamily::FixedArray if FIXED_KNOWN && offset >= 24 => {
                let (original_at, _) = allocation_of(original)?;
                if fixed_resizing(original_at, offset)? {
                    return None;
                }
                let (size, elements) = fixed_fields(at);
                let size = usize::try_from(size).ok()?;
                Some((0..size).map(|i| elements.add(i)).collect())
            }
            StateFamily::DoublyLinkedList => {
                let traverse_at = LIST_TRAVERSE_AT.filter(|&t| t + 8 <= offset)?;
                let position_at = LIST_POSITION_AT.filter(|&p| p + 4 <= offset)?;
                let (original_at, _) = allocation_of(original)?;
                let list = at.cast::<*mut List>().read();
                if list.is_null()
                    || !original_at.add(traverse_at).cast::<*mut ListElement>().read().is_null()
                    || original_at.add(position_at).cast::<c_int>().read() != 0
                {
                    return None;
                }
                Some(list_values((*list).head).map(<*const zval>::cast_mut).collect())
            }
            _ => None,
        }
    }
}
