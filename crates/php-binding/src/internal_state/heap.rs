//! `SplMinHeap`, `SplMaxHeap`, `SplPriorityQueue`. PHP 8.2 has no state export for heaps (their
//! `serialize()` drops the elements) and their structs are private to `ext/spl/spl_heap.c`, so this
//! module mirrors those structs as they are in PHP 8.2 (checked against php-8.2.32's spl_heap.c; each
//! new PHP minor must be checked again before it is claimed). Elements are copied in stored (heap)
//! order and written back the same way, so `compare()` is never called.

use std::ffi::{c_int, c_void};
use std::ptr;

use ext_php_rs::ffi::{self, zend_function, zend_object, zval};
use graph_codec::{HeapState, InternalState, PriorityQueueEntry, PriorityQueueState, StateFamily};

const _: () = assert!(std::mem::size_of::<PqueueElem>() == 2 * std::mem::size_of::<zval>());

use super::StateError;

/// `SPL_HEAP_CORRUPTED`: the only heap flag that outlives an operation.
const HEAP_CORRUPTED: c_int = 1;
/// `SPL_HEAP_WRITE_LOCKED`: set while an insert or extract runs (and so while its `compare()` runs).
const HEAP_WRITE_LOCKED: c_int = 2;
/// `SPL_PQUEUE_EXTR_BOTH`: the extract-flag bits.
const EXTRACT_BOTH: c_int = 3;

/// `spl_ptr_heap` (PHP 8.2).
#[repr(C)]
struct PtrHeap {
    elements: *mut c_void,
    ctor: *mut c_void,
    dtor: *mut c_void,
    cmp: *mut c_void,
    count: c_int,
    flags: c_int,
    max_size: usize,
    elem_size: usize,
}

/// `spl_heap_object` (PHP 8.2); `flags` holds the priority queue's extract flags.
#[repr(C)]
struct HeapObject {
    heap: *mut PtrHeap,
    flags: c_int,
    fptr_cmp: *mut zend_function,
    fptr_count: *mut zend_function,
    std: zend_object,
}

/// `spl_pqueue_elem` (PHP 8.2).
#[repr(C)]
struct PqueueElem {
    data: zval,
    priority: zval,
}

/// The heap of an object, checked against the element size its family uses.
///
/// # Safety
/// `obj` must be the `std` member of a live `spl_heap_object`.
unsafe fn heap_of(obj: *mut zend_object, family: StateFamily) -> Result<(*mut HeapObject, *mut PtrHeap), StateError> {
    // SAFETY: caller guarantees the container layout.
    unsafe {
        let intern = obj.cast::<u8>().sub(std::mem::offset_of!(HeapObject, std)).cast::<HeapObject>();
        let heap = (*intern).heap;
        let elem_size = match family {
            StateFamily::PriorityQueue => std::mem::size_of::<PqueueElem>(),
            _ => std::mem::size_of::<zval>(),
        };
        if heap.is_null() || (*heap).elem_size != elem_size || (*heap).count < 0 {
            return Err(StateError::Malformed);
        }
        Ok((intern, heap))
    }
}

/// # Safety
/// `obj` must be a live object of a heap (`family` `Heap`) or priority-queue class.
pub unsafe fn extract<'a>(
    family: StateFamily,
    obj: *mut zend_object,
) -> Result<InternalState<'a, *mut zval>, StateError> {
    // SAFETY: caller guarantees the layout; `count` elements of `elem_size` are initialised.
    unsafe {
        let (intern, heap) = heap_of(obj, family)?;
        let count = (*heap).count as usize;
        let heap_flags = ((*heap).flags & HEAP_CORRUPTED) as u32;
        Ok(match family {
            StateFamily::PriorityQueue => {
                let elements = (*heap).elements.cast::<PqueueElem>();
                let entries = (0..count)
                    .map(|i| {
                        let e = elements.add(i);
                        PriorityQueueEntry { data: &raw mut (*e).data, priority: &raw mut (*e).priority }
                    })
                    .collect();
                InternalState::PriorityQueue(PriorityQueueState {
                    entries,
                    extract_flags: ((*intern).flags & EXTRACT_BOTH) as u32,
                    heap_flags,
                })
            }
            _ => {
                let elements = (*heap).elements.cast::<zval>();
                InternalState::Heap(HeapState { elements: (0..count).map(|i| elements.add(i)).collect(), heap_flags })
            }
        })
    }
}

/// The zvals of `copy`'s elements (data and priority of each element, for a priority queue), in stored
/// order: see `spl::state_slots`, whose job this is for the heaps. `None` while `original` is being
/// modified (a restore hook put it into the graph from inside its own `compare()`, during an insert or
/// extract): its clone handler copies the write lock, which such a copy would keep for good, every
/// insert and extract on it failing.
///
/// # Safety
/// `original` and `copy` must be live objects of a heap (`family` `Heap`) or priority-queue class,
/// `copy` made from `original` by its clone handler.
pub unsafe fn slots(family: StateFamily, original: *mut zend_object, copy: *mut zend_object) -> Option<Vec<*mut zval>> {
    // SAFETY: as for `extract`, whose pointers into the elements these are; `heap_of` checks the
    // original's heap as `extract` checks the copy's.
    let (_, heap) = unsafe { heap_of(original, family) }.ok()?;
    // SAFETY: a live heap, just checked.
    if unsafe { (*heap).flags } & HEAP_WRITE_LOCKED != 0 {
        return None;
    }
    // SAFETY: as above.
    Some(match unsafe { extract(family, copy) }.ok()? {
        InternalState::Heap(s) => s.elements,
        InternalState::PriorityQueue(s) => s.entries.into_iter().flat_map(|e| [e.data, e.priority]).collect(),
        _ => return None,
    })
}

/// Writes heap elements (moved; data, priority pairs for a priority queue) into `obj` in stored (heap)
/// order, so `compare()` is never called.
///
/// # Safety
/// `obj` must be a freshly created (empty) object of a heap (`family` `Heap`) or priority-queue class.
pub unsafe fn inject(
    family: StateFamily,
    obj: *mut zend_object,
    elements: Vec<zval>,
    extract_flags: Option<u32>,
    heap_flags: u32,
) -> Result<(), StateError> {
    let pairs = family == StateFamily::PriorityQueue;
    if pairs != extract_flags.is_some() || (pairs && !elements.len().is_multiple_of(2)) {
        return Err(StateError::Malformed);
    }
    let count = if pairs { elements.len() / 2 } else { elements.len() };
    // SAFETY: caller guarantees the layout; the buffer is grown with the engine allocator exactly as
    // spl_ptr_heap_insert grows it, and every slot written is moved in (ownership transferred).
    unsafe {
        let (intern, heap) = match heap_of(obj, family) {
            Ok(found) if (*found.1).count == 0 => found,
            _ => return Err(StateError::Malformed),
        };
        if let Some(extract) = extract_flags {
            let extract = extract as c_int;
            if extract & EXTRACT_BOTH == 0 || extract & !EXTRACT_BOTH != 0 {
                return Err(StateError::Malformed);
            }
            (*intern).flags = extract;
        }
        let count_int = c_int::try_from(count).map_err(|_| StateError::Malformed)?;
        if count > (*heap).max_size {
            let mut max_size = (*heap).max_size.max(1);
            while max_size < count {
                max_size *= 2;
            }
            let elem_size = (*heap).elem_size;
            let old_bytes = (*heap).max_size * elem_size;
            let grown = ffi::_erealloc((*heap).elements, max_size * elem_size);
            ptr::write_bytes(grown.cast::<u8>().add(old_bytes), 0, max_size * elem_size - old_bytes);
            (*heap).elements = grown;
            (*heap).max_size = max_size;
        }
        // A priority queue element is two consecutive zvals (`spl_pqueue_elem`: data, priority).
        let slots = (*heap).elements.cast::<zval>();
        for (i, value) in elements.into_iter().enumerate() {
            ptr::write(slots.add(i), value);
        }
        (*heap).count = count_int;
        (*heap).flags = (heap_flags as c_int) & HEAP_CORRUPTED;
        Ok(())
    }
}
