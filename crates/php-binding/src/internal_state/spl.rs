//! `ArrayObject`/`ArrayIterator`/`RecursiveArrayIterator`, `SplFixedArray`, `SplDoublyLinkedList`
//! (`SplQueue`, `SplStack`) and `SplObjectStorage`, through the positional arrays their own
//! `__serialize`/`__unserialize` use in PHP 8.2. The members (properties) part is left empty: the
//! codec stores properties itself. The storage of the `ArrayObject` family is also written in place, for
//! copies of a prototype and for restores in the usual shape (`separate_clone`, `share_stored_storage`,
//! `restore_usual`).

use std::borrow::Cow;

use ext_php_rs::ffi::{self, zend_object, zval, HashTable, IS_ARRAY, IS_LONG, IS_NULL, IS_OBJECT, IS_STRING};
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
        // The copy's reference to the original is released (the caller holds the original).
        drop(std::ptr::replace(other, duplicate((*storage).value.arr)));
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
pub unsafe fn restore_usual(obj: *mut zend_object, argument: *mut HashTable) -> bool {
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
