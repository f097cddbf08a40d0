//! Request-local prototypes (spec §7.3): the first fetch of a value whose restore runs userland hooks
//! materialises it (running `__unserialize`/`__wakeup`); later fetches of the same entry version copy
//! a prototype kept from that restore instead, so the hooks run once per key, entry version and
//! request, and each fetch still returns its own objects (`get('o') !== get('o')`).
//!
//! The copy is done here, not by the engine's clone handlers, because cloning must never call
//! `__clone`. It covers graphs of scalars, strings, arrays (engine-immutable ones are shared), enum
//! cases, `stdClass`, objects of userland classes without an internal ancestor, the date classes and
//! their subclasses (Carbon: their state is copied field by field, as their clone handler copies it),
//! and the SPL classes `ArrayObject`, `ArrayIterator`, `RecursiveArrayIterator`, `SplFixedArray`, the
//! lists and the heaps, and their subclasses (those with their own hooks too) where no class of the
//! chain defines `__clone`: copied with their own storage, elements or list, as
//! `zval_out::clone_object` copies them, then every array and object they hold copied by this walk.
//! Anything else (PHP references, `SplObjectStorage`, other internal classes, an SPL object whose class
//! has `__clone` or whose iteration state a copy would not keep) keeps no prototype and is restored on
//! every fetch. An object without dynamic properties (and, of the date classes, a `DateTime`) is
//! copied as its allocation, byte for byte, then given its own header, references and date state:
//! the first fetch of a request pays for this copy, so it does not write the class defaults first.

use foldhash::{HashMap, HashMapExt};

use ext_php_rs::ffi::{
    self, zend_class_entry, zend_object, zval, HashTable, IS_ARRAY, IS_INDIRECT, IS_OBJECT, IS_REFERENCE, IS_UNDEF,
};

use graph_codec::StateFamily;

use crate::class_info;
use crate::internal_state;
use crate::zend;
use crate::zvals::{self, Key};

/// Nesting beyond which no prototype is kept (the copy recurses on the C stack).
const MAX_DEPTH: usize = 2_000;

/// Objects a reused copier's map keeps room for.
const MAX_KEPT_CAPACITY: usize = 4_096;

unsafe extern "C" {
    /// `zend_gc.h`: switches the cycle collector on or off (possible roots are recorded either way),
    /// returning whether it was on.
    fn gc_enable(enable: bool) -> bool;
}

/// The cycle collector switched off, until dropped (see [`copy`]).
struct CollectorOff {
    was_on: bool,
}

impl CollectorOff {
    fn new() -> Self {
        // SAFETY: this thread's collector, during a request.
        Self { was_on: unsafe { gc_enable(false) } }
    }
}

impl Drop for CollectorOff {
    fn drop(&mut self) {
        // SAFETY: as in `new`.
        unsafe { gc_enable(self.was_on) };
    }
}

thread_local! {
    /// The maps of the last copy. Reached through a pointer, never a borrow or a take: a `memory_limit`
    /// fatal inside a copy (raised inside the allocation by releases without `EG(delayed_oom)`) longjmps
    /// past it, and a copier taken out for the copy was lost with its maps (about 70 KB per fatal for a
    /// graph of 3,000 objects).
    static SCRATCH: std::cell::UnsafeCell<Option<Copier>> = const { std::cell::UnsafeCell::new(None) };
}

struct Copier {
    objects: HashMap<*mut zend_object, *mut zend_object>,
    /// Safe-direct family per class met in this copy.
    families: HashMap<*mut zend_class_entry, Option<StateFamily>>,
}

/// A copy of `src` that shares no object or array that PHP code could modify with it, or `None` when
/// the value holds something this module does not copy.
///
/// # Safety
/// `src` must be a live zval, during a request.
pub unsafe fn copy(src: &zval, for_prototype: bool) -> Option<zval> {
    // The maps of the previous copy are reused (cleared), so a copy of many objects does not grow them
    // again.
    let scratch = SCRATCH.with(std::cell::UnsafeCell::get);
    // SAFETY: `scratch` is this thread's, and only this function reaches it; no userland code runs
    // during a copy, so it never nests, and this is the only reference while it runs.
    let c =
        unsafe { &mut *scratch }.get_or_insert_with(|| Copier { objects: HashMap::new(), families: HashMap::new() });
    // A copy cut short by a fatal error left its maps filled.
    c.objects.clear();
    c.families.clear();
    // A release in the copy (`Copier::own` handing back the references a clone handler took, a
    // copy-on-write array shared) can fill the cycle collector's root buffer, and a collection then
    // would call the destructors of this request's garbage: userland code inside the copy, which may
    // fetch (and so copy) another value with these very maps, the copy's objects forgotten half-way.
    // The collector is off while the copy runs (roots are still recorded, for a later run), and back
    // as it was even when the copy bails out (`memory_limit`, caught to come back here) or panics: the
    // setting would outlive the request.
    let collector = CollectorOff::new();
    // SAFETY: caller guarantees a live zval during a request.
    let walked = crate::zval_out::catching_bailout(|| Ok(unsafe { c.value(src, 0) }));
    drop(collector);
    let Ok(copied) = walked else {
        // SAFETY: a bailout (the walk's only error); this frame owns nothing to drop (the copier is the
        // thread's, cleared by the next copy), and the callers catch it (`zval_out::allocating`).
        unsafe { crate::zval_out::reraise_bailout() }
    };
    if !for_prototype && copied.is_some() {
        // Copies handed to PHP code get their destructors back (see `object`).
        for &obj in c.objects.values() {
            // SAFETY: every mapped copy is alive: `copied` holds it.
            unsafe { zvals::restore_destructor(obj) };
        }
    }
    // Classes are request-scoped: nothing is kept but the maps' memory, and not past a large copy.
    c.objects.clear();
    c.families.clear();
    if c.objects.capacity() > MAX_KEPT_CAPACITY {
        *c = Copier { objects: HashMap::new(), families: HashMap::new() };
    }
    copied
}

fn type_of(z: &zval) -> u32 {
    zvals::type_of(z)
}

impl Copier {
    unsafe fn value(&mut self, z: &zval, depth: usize) -> Option<zval> {
        if depth > MAX_DEPTH || crate::zend::out_of_memory() {
            return None;
        }
        match type_of(z) {
            IS_ARRAY => {
                // SAFETY: an IS_ARRAY zval holds a live table.
                unsafe { self.array(z, depth) }
            }
            // SAFETY: an IS_OBJECT zval holds a live object.
            IS_OBJECT => unsafe { self.object(z.value.obj, depth) },
            // Scalars and strings: copy-on-write values, sharing them is safe.
            t if t <= ffi::IS_STRING => {
                // SAFETY: a live zval (caller).
                Some(unsafe { zvals::copy(z) })
            }
            _ => None,
        }
    }

    unsafe fn array(&mut self, z: &zval, depth: usize) -> Option<zval> {
        // SAFETY: the caller passes an IS_ARRAY zval.
        let ht: *mut HashTable = unsafe { z.value.arr };
        // SAFETY: live table (caller).
        if unsafe { zvals::is_immutable(ht) } {
            // Engine-immutable arrays hold no object and are never written: share it.
            // SAFETY: a live zval.
            return Some(unsafe { zvals::copy(z) });
        }
        // SAFETY: live table (caller).
        match unsafe { holds_objects(ht, depth) } {
            // A PHP reference would be shared by every copy of the array: no prototype.
            None => return None,
            Some(true) => {}
            Some(false) => {
                // No object anywhere inside: PHP's copy-on-write keeps the two independent.
                // SAFETY: a live zval.
                return Some(unsafe { zvals::copy(z) });
            }
        }
        // SAFETY: live table (caller).
        let (count, packed, next_free) =
            unsafe { ((*ht).nNumOfElements as usize, zvals::is_packed(ht), (*ht).nNextFreeElement) };
        let out = zvals::new_array(count, packed);
        // SAFETY: `out` holds a fresh table we own.
        let dst = unsafe { zvals::table(&out) };
        // SAFETY: live source table; every value is a live zval.
        unsafe {
            for (key, v) in zvals::entries(ht) {
                let copied = self.value(&*v, depth + 1)?;
                match key {
                    Key::Int(i) => zvals::insert_int(dst, i, copied),
                    Key::Str(s) => zvals::insert_str(dst, s, copied),
                }
            }
            (*dst).nNextFreeElement = next_free;
        }
        Some(out)
    }

    unsafe fn object(&mut self, obj: *mut zend_object, depth: usize) -> Option<zval> {
        if let Some(&done) = self.objects.get(&obj) {
            // SAFETY: `done` is a live copy made earlier in this walk.
            return Some(unsafe { zvals::object_zval(done) });
        }
        // SAFETY: live object (caller).
        let ce: *mut zend_class_entry = unsafe { (*obj).ce };
        // SAFETY: reading class flags of a live class.
        if unsafe { (*ce).ce_flags } & zend::ZEND_ACC_ENUM != 0 {
            // Enum cases are engine singletons.
            // SAFETY: live object.
            return Some(unsafe { zvals::object_zval(obj) });
        }
        // SAFETY: a live class.
        let state = unsafe { self.internal_state(ce) }?;
        if let Some(family) = state.filter(|&f| by_clone_handler(f)) {
            // SAFETY: a live object of `ce`, of `family`, whose class has no `__clone` (`internal_state`).
            return unsafe { self.cloned(obj, ce, family, depth) };
        }
        // SAFETY: a live object of `ce`, whose internal base (if any) is of the date `state` family.
        if let Some(copied) = unsafe { self.object_bytes(obj, ce, state, depth) } {
            return copied;
        }
        let mut out = zval::new();
        // SAFETY: `ce` is a linked, instantiable class (it has a live instance); no constructor runs.
        if unsafe { ffi::object_init_ex(&raw mut out, ce) } != 0 {
            return None;
        }
        // SAFETY: object_init_ex succeeded, so `out` holds a fresh object.
        let new = unsafe { out.value.obj };
        // A prototype released at request end, or a copy abandoned half-way, must not run __destruct;
        // `copy` gives finished copies for PHP code their destructor back.
        // SAFETY: live object.
        unsafe { zvals::skip_destructor(new) };
        self.objects.insert(obj, new);
        if let Some(family) = state {
            // SAFETY: both objects belong to `ce`, whose internal base is of the date `family`; `new` is
            // fresh. The class's clone handler is not used: it would call a userland __clone.
            if unsafe { internal_state::copy_state(family, obj, new) }.is_err() {
                return None;
            }
        }
        // SAFETY: both objects are of class `ce`, so they have the same declared slots.
        unsafe {
            for i in 0..zvals::slot_count(ce) {
                let src = &*zvals::property_slot(obj, i);
                let dst = zvals::property_slot(new, i);
                let copied = match type_of(src) {
                    IS_UNDEF => std::ptr::read(src),
                    // Scalars and strings: shared copy-on-write, no walk needed.
                    t if t <= ffi::IS_STRING => zvals::copy(src),
                    _ => self.value(src, depth + 1)?,
                };
                // Release the default the new object was given, then keep the slot's flags (u2: the
                // uninitialized/readonly guards) with the copied value.
                let default = std::ptr::replace(dst, copied);
                if zvals::is_refcounted(&default) {
                    drop(default);
                } else {
                    std::mem::forget(default);
                }
                (*dst).u2 = src.u2;
            }
            let props = (*obj).properties;
            if !props.is_null() {
                let table = ffi::zend_std_get_properties(new);
                for (key, v) in zvals::entries(props) {
                    if type_of(&*v) == IS_INDIRECT {
                        continue; // a declared slot, copied above
                    }
                    let copied = self.value(&*v, depth + 1)?;
                    match key {
                        Key::Int(i) => zvals::insert_int(table, i, copied),
                        Key::Str(s) => zvals::insert_str(table, s, copied),
                    }
                }
            }
        }
        Some(out)
    }

    /// The copy of an object without dynamic properties, made as the engine's clone handlers make one
    /// but without `__clone` and without first filling the copy with its class's defaults: its
    /// allocation is copied byte for byte, then given its own header (handle, one reference, no GC
    /// flags), a reference to each shared property value, copies of the arrays and objects it holds, and,
    /// for a `DateTime`, its own time. `None` where this does not apply (dynamic properties, other
    /// internal state): [`Copier::object`] then copies property by property; `Some(None)` for a lazy
    /// object, which neither copy keeps lazy.
    ///
    /// # Safety
    /// `obj` must be a live object of `ce`; `state` is what [`Copier::internal_state`] answered for `ce`.
    unsafe fn object_bytes(
        &mut self,
        obj: *mut zend_object,
        ce: *mut zend_class_entry,
        state: Option<StateFamily>,
        depth: usize,
    ) -> Option<Option<zval>> {
        // What precedes the standard object in the allocation: nothing for userland classes and
        // stdClass (`zend_objects_new`), the time pointer for `php_date_obj`.
        let offset = match state {
            None => 0,
            Some(StateFamily::DateTime) => internal_state::DATE_STD_OFFSET,
            Some(_) => return None,
        };
        // SAFETY: a live object and class (caller); the allocation holds `offset` bytes, the standard
        // object, then one zval per declared slot plus the guard slot of classes using guards
        // (`zend_object_alloc`), all copied; every field of the copy that names the original or its
        // ownership is rewritten before the copy is used, and every value it shares gets a reference.
        unsafe {
            // A lazy object (a restore hook can make one, `resetAsLazyGhost()`): no copy of it here or by
            // `object` would be lazy, so it keeps no prototype and is restored at every fetch.
            #[cfg(php84)]
            if (*obj).extra_flags != 0 {
                return Some(None);
            }
            if !(*obj).properties.is_null() {
                return None;
            }
            let count = zvals::slot_count(ce);
            let new = copy_allocation(obj, ce, offset);
            // A prototype released at request end, or a copy abandoned half-way, must not run
            // __destruct (see `object`).
            zvals::skip_destructor(new);
            if state.is_some() {
                internal_state::detach_time(new);
            }
            // Shared values get their reference now; arrays and objects are left unset until copied, so
            // the copy can be released consistently at any point.
            let mut deep = false;
            for i in 0..count {
                let dst = zvals::property_slot(new, i);
                if type_of(&*dst) <= ffi::IS_STRING {
                    zvals::add_ref(dst);
                } else {
                    (*dst).u1.type_info = IS_UNDEF;
                    deep = true;
                }
            }
            let out = zvals::object_zval(new);
            self.objects.insert(obj, new);
            if let Some(family) = state {
                if internal_state::copy_state(family, obj, new).is_err() {
                    return Some(None);
                }
            }
            if deep {
                for i in 0..count {
                    let src = &*zvals::property_slot(obj, i);
                    if type_of(src) <= ffi::IS_STRING {
                        continue;
                    }
                    let Some(copied) = self.value(src, depth + 1) else { return Some(None) };
                    // The slot keeps its flags (u2: the uninitialized/readonly guards).
                    let dst = zvals::property_slot(new, i);
                    (*dst).value = copied.value;
                    (*dst).u1 = copied.u1;
                    std::mem::forget(copied);
                }
            }
            Some(Some(out))
        }
    }

    /// Whether objects of `ce` can be copied here: `Some(None)` for `stdClass` and plain userland
    /// classes, `Some(Some(family))` for the date classes and their subclasses (their state is copied
    /// field by field), `None` for anything else.
    ///
    /// # Safety
    /// `ce` must be a live, linked class.
    unsafe fn internal_state(&mut self, ce: *mut zend_class_entry) -> Option<Option<StateFamily>> {
        // SAFETY: caller guarantees a live class.
        unsafe {
            if std::ptr::eq(ce, ffi::zend_standard_class_def)
                || ((*ce).type_ == zend::ZEND_USER_CLASS && (*ce).__bindgen_anon_2.create_object.is_none())
            {
                return Some(None);
            }
        }
        let family = *self.families.entry(ce).or_insert_with(|| {
            // SAFETY: caller guarantees a live, linked class.
            unsafe { class_info::facts(ce) }.family()
        });
        match family {
            Some(f @ (StateFamily::DateTime | StateFamily::DateTimeZone | StateFamily::DateInterval)) => Some(Some(f)),
            // The clone handler of a class with `__clone` (its own or an ancestor's) calls it.
            // SAFETY: caller guarantees a live class.
            Some(f) if by_clone_handler(f) && unsafe { (*ce).clone.is_null() } => Some(Some(f)),
            _ => None,
        }
    }

    /// The copy of `obj`, an object of one of the SPL families ([`by_clone_handler`]): made by
    /// `zval_out::clone_object` (its allocation or its class's clone handler, with storage, elements or
    /// a list of its own), which still shares the values it holds with `obj`; then each of those, in its
    /// state, declared properties and property table, is replaced by its copy from this walk, so inner
    /// objects are copied once each, as everywhere in the graph. `None` where the copy would not hold
    /// `obj`'s state (`internal_state::state_slots`).
    ///
    /// # Safety
    /// `obj` must be a live object of `ce`, of `family`, and `ce` must have no `__clone`.
    unsafe fn cloned(
        &mut self,
        obj: *mut zend_object,
        ce: *mut zend_class_entry,
        family: StateFamily,
        depth: usize,
    ) -> Option<zval> {
        // SAFETY: as the caller guarantees: no `__clone` runs, and `obj` is a live object that PHP code
        // does not see during the walk (no userland code runs); the copy is fresh, seen by nothing else,
        // and every value replaced in it is still held by `obj`, so releasing the copy's reference to it
        // frees nothing. A copy abandoned half-way is released without `__destruct`.
        unsafe {
            let out = crate::zval_out::clone_object(obj, Some(family))?;
            let new = out.value.obj;
            zvals::skip_destructor(new);
            let slots = internal_state::state_slots(family, obj, new)?;
            self.objects.insert(obj, new);
            for slot in slots {
                self.own(slot, depth)?;
            }
            for i in 0..zvals::slot_count(ce) {
                self.own(zvals::property_slot(new, i), depth)?;
            }
            let props = (*new).properties;
            if !props.is_null() {
                for (_, v) in zvals::entries(props) {
                    if type_of(&*v) != IS_INDIRECT {
                        self.own(v, depth)?;
                    }
                }
            }
            Some(out)
        }
    }

    /// Replaces the value at `slot`, which a copy shares with its original, by its copy from this walk,
    /// keeping the slot's `u2`. Values that copies share safely (scalars, strings, arrays without
    /// objects: copy-on-write) stay as they are.
    ///
    /// # Safety
    /// `slot` must be a live zval of a copy this walk made, whose value the original also holds.
    unsafe fn own(&mut self, slot: *mut zval, depth: usize) -> Option<()> {
        // SAFETY: as the caller guarantees.
        unsafe {
            if type_of(&*slot) <= ffi::IS_STRING {
                return Some(());
            }
            let copied = self.value(&*slot, depth + 1)?;
            if std::ptr::eq(copied.value.counted, (*slot).value.counted) {
                // Shared (copy-on-write): the slot keeps its own reference, this one goes.
                drop(copied);
                return Some(());
            }
            let shared = std::ptr::read(slot);
            (*slot).value = copied.value;
            (*slot).u1 = copied.u1;
            std::mem::forget(copied);
            drop(shared);
            Some(())
        }
    }
}

/// Whether objects of `family` are copied by [`Copier::cloned`]: the SPL families whose state a copy
/// can hold on its own (`SplObjectStorage` cannot: see `internal_state::state_slots`).
fn by_clone_handler(family: StateFamily) -> bool {
    matches!(
        family,
        StateFamily::ArrayStorage
            | StateFamily::FixedArray
            | StateFamily::DoublyLinkedList
            | StateFamily::Heap
            | StateFamily::PriorityQueue
    )
}

/// A copy of `obj`'s allocation, byte for byte (what precedes the engine object, `offset` bytes, the
/// engine object and its declared slots, as `zend_object_alloc` made them), with its own header (no
/// reference yet, no flag of the original: GC state, weak references, a destructor called) and handle,
/// and the guard slot as `zend_object_std_init` leaves it. Everything else still names what the
/// original's fields name, without a reference of its own: the caller references or rewrites each before
/// it allocates anything (an allocation can bail out, and the request's end then releases the copy).
///
/// # Safety
/// `obj` must be a live object of `ce` without a property table, `offset` bytes into its allocation;
/// the caller must give the copy a reference (it has none) and make every field its own.
pub unsafe fn copy_allocation(obj: *mut zend_object, ce: *mut zend_class_entry, offset: usize) -> *mut zend_object {
    // SAFETY: a live object and class (caller); the allocation holds `offset` bytes, the standard
    // object, then one zval per declared slot plus the guard slot of classes using guards
    // (`zend_object_alloc`), all copied.
    unsafe {
        let count = zvals::slot_count(ce);
        let guards = (*ce).ce_flags & zend::ZEND_ACC_USE_GUARDS != 0;
        // `zend_object_alloc`: the standard object ends with room for one slot, which objects without
        // slots (or a guard) do not use.
        let slots = count + usize::from(guards);
        let size = offset + size_of::<zend_object>() - size_of::<zval>() + size_of::<zval>() * slots;
        let base = ffi::_emalloc(size).cast::<u8>();
        std::ptr::copy_nonoverlapping(obj.cast::<u8>().sub(offset), base, size);
        let new = base.add(offset).cast::<zend_object>();
        (*new).gc.refcount = 0;
        (*new).gc.u.type_info = IS_OBJECT;
        if guards {
            // As `zend_object_std_init` leaves it: undefined, no guard or recursion bits (8.3+ keeps
            // var_dump/json_encode recursion bits in u2).
            let guard = zvals::property_slot(new, count);
            (*guard).u1.type_info = IS_UNDEF;
            (*guard).u2.extra = 0;
        }
        zend::zend_objects_store_put(new);
        new
    }
}

/// Whether an array holds an object at any depth (`None`: it holds a PHP reference, or nests too
/// deep to tell). Scanning is much cheaper than rebuilding, and object-free arrays can be shared.
///
/// # Safety
/// `ht` must be a live table that is not modified meanwhile.
unsafe fn holds_objects(ht: *mut HashTable, depth: usize) -> Option<bool> {
    if depth > MAX_DEPTH {
        return None;
    }
    // SAFETY: live table (caller).
    if unsafe { zvals::is_immutable(ht) } {
        return Some(false);
    }
    let mut found = false;
    // SAFETY: live table (caller); nested arrays are live tables of it.
    for (_, v) in unsafe { zvals::entries(ht) } {
        // SAFETY: `v` is a live element.
        match type_of(unsafe { &*v }) {
            IS_REFERENCE => return None,
            IS_OBJECT => found = true,
            // SAFETY: an IS_ARRAY element holds a live table.
            IS_ARRAY => found |= unsafe { holds_objects((*v).value.arr, depth + 1) }?,
            _ => {}
        }
    }
    Some(found)
}
