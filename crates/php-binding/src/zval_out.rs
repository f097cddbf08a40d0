//! The materialise step of the read path: a blueprint (one stored version, `blueprint`) becomes a PHP
//! value in the request heap. Runs with no shared-memory entry held; userland `__unserialize`/`__wakeup`
//! and autoloaders may run here.
//!
//! Ready values (scalars, and the strings and object-free arrays the blueprint keeps engine-immutable)
//! are written by pointer; only objects, references and the arrays holding them are created, without
//! recursion: every object first (no constructor), then references, then arrays children first, then
//! object contents; userland hooks run last, inner objects first, as `unserialize()` runs its delayed
//! calls. Class entries, their property slots and enum cases are resolved once per request and
//! blueprint ([`RequestMemo`]), so a list of 10,000 objects of one class resolves its class once; a
//! safe-direct or plain userland object whose state is all ready values is copied with its class's own
//! clone handler from the second fetch of the request on (never where the class has a `__clone`); a
//! copy of the ArrayIterator family, whose clone handler shares the original's storage, is then given
//! its own, and the `ArrayObject` family, fixed arrays and lists are copied as their allocation
//! instead where they can be (`internal_state::copy_prototype`). A value whose objects all have such a
//! prototype is copied from them without a run ([`copy_prototypes`]).

use foldhash::HashMap;
use std::any::Any;
use std::ptr;
use std::rc::Rc;

use ext_php_rs::ffi::{
    self, zend_class_entry, zend_object, zend_property_info, zval, IS_FALSE, IS_OBJECT, IS_REFERENCE, IS_UNDEF,
};
use ext_php_rs::types::ZendStr;
use ext_php_rs::zend::CatchError;
use graph_codec::StateFamily;

use crate::attributes::compare;
use crate::blueprint::{ArrayPlan, Blueprint, Cell, Key, ObjectPlan, RestorePlan, StatePlan};
use crate::class_info::{self, ClassFacts};
use crate::class_lookup;
use crate::internal_state::{self, DateSnapshot, StateError};
use crate::zend;
use crate::zvals;

/// `HASH_FLAG_HAS_EMPTY_IND`: a property table's entry may point to an empty slot (counted again).
const HASH_FLAG_HAS_EMPTY_IND: u32 = 1 << 5;
/// `IS_PROP_UNINIT`: the slot flag of a typed property that was never initialized.
const PROP_UNINIT: u32 = 1;
/// `ZEND_CLASS_CONST_IS_CASE`.
const CONST_IS_CASE: u32 = 1 << 6;
/// `ZEND_FETCH_CLASS_SILENT`.
const FETCH_SILENT: u32 = 0x100;
const INCOMPLETE_CLASS_NAME: &[u8] = b"__PHP_Incomplete_Class_Name";

pub enum DecodeError {
    /// The bytes are not a valid encoding (or disagree with their tag).
    Corrupted,
    /// Valid bytes that cannot become a value here (an enum case or class that no longer fits, data
    /// an internal class refuses, PHP's `unserialize()` refusing its bytes).
    Undecodable,
    /// A tag this build does not know.
    UnknownType,
    /// A class the value needs is not declared (yet): the enum of one of its enum cases, one that the
    /// default values of an object's class name, or the class of an object that a typed property
    /// requires. An attribute restore at class link can meet one declared later (in the same file, or
    /// at run time), and tries again when classes link (the entry is kept).
    ClassMissing,
    /// A userland hook or autoloader threw; the exception propagates.
    Thrown,
    /// A hook run while restoring this key fetched the same key again (it would recurse forever).
    Reentered,
    /// The engine bailed out (a fatal error, `memory_limit` or `max_execution_time`) while userland code
    /// (a hook, an autoloader, `unserialize()`) ran. Caught where it happened, so that the read path's
    /// frames drop what they own on the way out (the local copy, the request memo, the run's vectors: a
    /// longjmp past them leaked them for the process's life); whoever receives it hands the bailout on
    /// to the engine ([`reraise_bailout`]) once its own frame owns nothing.
    Bailout,
}

/// Hands a bailout caught as [`DecodeError::Bailout`] on to the engine.
///
/// # Safety
/// The caller's frame, and every Rust frame up to the engine's `zend_try`, must own nothing that needs
/// dropping.
pub unsafe fn reraise_bailout() -> ! {
    // SAFETY: as above.
    unsafe { ext_php_rs::zend::bailout() }
}

/// Runs `f`, which may run userland code, turning a bailout into [`DecodeError::Bailout`]
/// (see there); a panic goes on unwinding, as it would without the catch.
pub fn catching_bailout<T>(f: impl FnOnce() -> Result<T, DecodeError>) -> Result<T, DecodeError> {
    match ext_php_rs::zend::try_catch(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(CatchError::Bailout) => Err(DecodeError::Bailout),
        Err(other) => std::panic::resume_unwind(Box::new(other.to_string())),
    }
}

/// Runs `f`, which allocates in the request heap but runs no userland code (a copy of a prototype, a
/// blueprint built in the request heap, `Admin::scan()`'s result), turning a bailout into
/// [`DecodeError::Bailout`] (see there): releases without `EG(delayed_oom)` raise the `memory_limit`
/// fatal inside the allocation, and a longjmp past the caller's frames would lose what they own (the
/// read path holds a reference to the local copy being handed out, which kept it and its blueprint for
/// the process's life). Where the fatal is delayed, `f` runs as it is.
pub fn allocating<T>(f: impl FnOnce() -> T) -> Result<T, DecodeError> {
    if cfg!(php_delayed_oom) {
        return Ok(f());
    }
    catching_bailout(|| Ok(f()))
}

/// What a request resolved for one blueprint: class entries and property slots per shape, enum cases,
/// and the prototypes of safe-direct objects copied with their clone handler. Valid for one request,
/// except the shapes of internal classes, which live as long as the module (and the blueprint, which
/// the read cache drops when the module's backends change).
pub struct RequestMemo {
    request: u64,
    shapes: Vec<Option<ShapeClass>>,
    enum_cases: Vec<*mut zend_object>,
    /// Per object (sized when a prototype is first kept; until then [`RequestMemo::seen`] tells which of
    /// the first 64 objects were restored once this request).
    prototypes: Vec<Prototype>,
    /// Bit `i`: object `i` was restored once this request, while `prototypes` is empty. A value read
    /// once per request, the most common, allocates no per-object list.
    seen: u64,
    /// Per object: the state of a date-family object as first restored in this thread (kept across
    /// requests, with the thread's copy of its zone), so later restores, in any request, copy it
    /// instead of parsing the date and loading the zone.
    dates: Vec<Option<DateSnapshot>>,
    /// A class resolved this request has gained `__unserialize()` or `__wakeup()` since objects of the
    /// blueprint that ran none were stored ([`ShapeClass::hook`]): restores run those hooks, as
    /// `unserialize()` would, and so only where the caller guards against a hook fetching the key again.
    gained: bool,
}

impl Drop for RequestMemo {
    /// A memo dropped without [`RequestMemo::end_request`] may outlive its request's heap (and, at
    /// process exit, the classes): its prototypes are forgotten, never released, and nothing it points
    /// at is read.
    fn drop(&mut self) {
        for prototype in std::mem::take(&mut self.prototypes) {
            if let Prototype::Kept(z) = prototype {
                std::mem::forget(z);
            }
        }
    }
}

/// Materialises `blueprint` with a memo used for this one call (a blueprint kept for one fetch).
pub fn materialise_once(blueprint: &Blueprint, request: u64, out: &mut zval, guarded: bool) -> Result<(), DecodeError> {
    let mut memo = RequestMemo::new(request, blueprint);
    let result = materialise(blueprint, &mut memo, out, None, guarded);
    memo.end_request(true);
    result
}

/// A safe-direct object's prototype for this request.
enum Prototype {
    Unseen,
    /// Restored once: the next restore keeps a copy.
    Seen,
    /// A copy (its destructor skipped) that later restores clone.
    Kept(zval),
}

/// How the objects of one shape are written into their class, this request.
struct ShapeClass {
    ce: *mut zend_class_entry,
    facts: ClassFacts,
    /// Per stored declared property.
    slots: Vec<SlotTarget>,
    /// Per stored declared property, the class of an object its slot took (a type check passed), so
    /// that objects of that class go in without the check again; null: none yet. Only filled for a user
    /// class, whose shape lives for one request, as the classes it names.
    accepted: Vec<*mut zend_class_entry>,
    /// Slots by mangled name, for dynamic properties that match a declared one (built on first use:
    /// stored properties usually sit in the slot of the same index).
    by_name: std::cell::OnceCell<HashMap<Box<[u8]>, usize>>,
    allows_dynamic: bool,
    /// The class declares no property slot (`stdClass`).
    no_declared_slots: bool,
    /// `ZEND_ACC_NO_DYNAMIC_PROPERTIES` (readonly classes).
    forbids_dynamic: bool,
    /// The class and its ancestors have no `__clone`.
    clonable: bool,
    /// Objects of the class are plain engine objects (`stdClass`, or a userland class without an
    /// internal ancestor that creates its objects): the standard clone handler copies their properties
    /// and nothing else.
    plain: bool,
    /// Restoring an object's state runs userland code: a `SplObjectStorage` subclass's own `getHash()`,
    /// which the class's `__unserialize` calls for each object it attaches (as `unserialize()` does).
    userland_state: bool,
    /// The userland restore hook of a userland class (`__unserialize()`, else `__wakeup()`).
    hook: Option<RestoreHook>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RestoreHook {
    Unserialize,
    Wakeup,
}

impl ShapeClass {
    /// An internal class, which lives as long as the module: its shape is kept from one request to the
    /// next. Told by the class facts' pointers, never by reading the class entry then: a user class's
    /// may be freed by then.
    fn internal(&self) -> bool {
        ptr::eq(self.facts.internal_base, self.ce)
    }
}

#[derive(Clone, Copy)]
enum SlotTarget {
    Declared { slot: usize, info: *mut zend_property_info },
    Dynamic,
    Dropped,
}

impl RequestMemo {
    pub fn new(request: u64, blueprint: &Blueprint) -> RequestMemo {
        RequestMemo {
            request,
            shapes: (0..blueprint.shapes.len()).map(|_| None).collect(),
            enum_cases: vec![ptr::null_mut(); blueprint.enum_cases.len()],
            prototypes: Vec::new(),
            seen: 0,
            // Sized on the first snapshot: most values hold no date.
            dates: Vec::new(),
            gained: false,
        }
    }

    pub fn request(&self) -> u64 {
        self.request
    }

    /// Whether a run runs no userland code but hooks: every class and enum case of the blueprint was
    /// resolved this request (no autoloader runs), and no class restores its objects' state through
    /// userland code ([`ShapeClass::userland_state`]).
    fn userland_free(&self) -> bool {
        !self.gained
            && self.shapes.iter().all(|class| class.as_ref().is_some_and(|c| !c.userland_state))
            && self.enum_cases.iter().all(|case| !case.is_null())
    }

    /// Ends the request: releases the prototypes (`release`, while the request heap is alive; else they
    /// are forgotten) and everything that names request-scoped entries; keeps internal classes.
    pub fn end_request(&mut self, release: bool) {
        for prototype in &mut self.prototypes {
            if let Prototype::Kept(z) = std::mem::replace(prototype, Prototype::Unseen) {
                if release {
                    drop(z);
                } else {
                    std::mem::forget(z);
                }
            }
        }
        for shape in &mut self.shapes {
            if shape.as_ref().is_some_and(|c| !c.internal()) {
                *shape = None;
            }
        }
        self.enum_cases.iter_mut().for_each(|case| *case = ptr::null_mut());
        self.seen = 0;
        // Only user classes have restore hooks ([`ShapeClass::hook`]), and their shapes are gone.
        self.gained = false;
        self.request = 0;
    }

    /// Adopts this memo for `request` (after [`RequestMemo::end_request`], or when a request ended
    /// without it: then nothing of that request's heap is touched).
    pub fn renew(&mut self, request: u64) {
        if self.request != request {
            if self.request != 0 {
                self.end_request(false);
            }
            self.request = request;
        }
    }
}

/// Writes the value of `blueprint` into `out` (a null zval). `keeper` gives what keeps `blueprint` alive,
/// for a record of the restore that checks against its cells (`None`: a blueprint for this call only).
/// `guarded`: the caller guards against a hook fetching the key again. Unguarded, a value whose restore
/// has come to run hooks its blueprint does not plan (a class gained `__unserialize()` or `__wakeup()`
/// since the value was stored, [`RequestMemo::gained`]) is not restored: `Err(DecodeError::Reentered)`,
/// which nothing else returns here, tells the caller to materialise it again, guarded.
pub fn materialise(
    blueprint: &Blueprint,
    memo: &mut RequestMemo,
    out: &mut zval,
    keeper: Option<&dyn Fn() -> Rc<dyn Any>>,
    guarded: bool,
) -> Result<(), DecodeError> {
    // The record of a value being restored into an attributed static (`compare::arm`) is taken before
    // any userland code can run here, so a fetch nested in a hook or autoloader never takes it. One
    // not filled below leaves the restore to walk the value.
    let capture = compare::claim();
    if let Some(serialized) = &blueprint.php_serialized {
        return catching_bailout(|| php_unserialize(serialized, out));
    }
    if let Cell::Ready(ready) = blueprint.root {
        *out = ready.to_zval();
        if let Some(record) = capture {
            // SAFETY: no object made.
            unsafe { compare::captured(record, &[], true) };
        }
        return Ok(());
    }
    // Userland code (a hook, an autoloader, a `getHash()`) can only run in a run that calls hooks, resolves
    // a class or an enum this request, or restores a state through userland code: only such a run pays for
    // the catch (about 120 instructions), as long as the allocator's `memory_limit` error is raised later,
    // by the VM (`zend::out_of_memory`).
    let may_bail_out = !cfg!(php_delayed_oom) || !blueprint.hook_order.is_empty() || !memo.userland_free();
    let scratch = SCRATCH.take().unwrap_or_default();
    let mut run = Run {
        bp: blueprint,
        memo,
        dropped: false,
        coerced: false,
        objects: scratch.objects,
        cloned: scratch.cloned,
        references: scratch.references,
        arrays: scratch.arrays,
        hooks: scratch.hooks,
        late_states: Vec::new(),
        guarded,
        needs_guard: false,
    };
    let objects = blueprint.objects.len();
    run.objects.reserve(objects);
    run.cloned.resize(objects, false);
    run.references.reserve(blueprint.references.len());
    run.arrays.reserve(blueprint.arrays.len());
    if !blueprint.hook_order.is_empty() {
        run.hooks.resize(objects, None);
    }
    let made = if may_bail_out { catching_bailout(|| run.all()) } else { run.all() };
    let result = match made {
        Ok(value) => {
            *out = value;
            if let Some(record) = capture {
                // Every object the value holds was made here (enum cases aside) when no hook (nor a
                // `getHash()`) ran, and each one made is in the value when no property was dropped.
                let describable = blueprint.references.is_empty()
                    && blueprint.hook_order.is_empty()
                    && !run.memo.gained
                    && run.late_states.is_empty()
                    && !run.dropped;
                // What each object holds can be told from the cells when no value was coerced to a
                // property's type on the way.
                let planned = keeper
                    .filter(|_| describable && !run.coerced && blueprint.plain_cells().is_some())
                    .and_then(|keeper| Some((keeper, run.planned_classes()?)));
                match planned {
                    // SAFETY: the run's objects, one per object of the blueprint in its order, each held
                    // by it, of the value just written to `out`; `keeper` keeps the blueprint alive.
                    Some((keeper, shapes)) => unsafe {
                        compare::captured_planned(record, &mut run.objects, blueprint, keeper(), shapes);
                    },
                    // SAFETY: as above.
                    None => unsafe { compare::captured(record, &run.objects, describable) },
                }
            }
            Ok(())
        }
        // A bailout too: its values are released as PHP's own request end would release them (the fatal
        // error marked every object destructed).
        Err(e) => {
            run.abandon();
            Err(if run.needs_guard { DecodeError::Reentered } else { e })
        }
    };
    // Every object and array the run made is in the value handed out when no property was dropped and
    // no hook (nor a `getHash()`) ran (one could unset a property or keep an object elsewhere).
    let held = result.is_ok()
        && !run.dropped
        && blueprint.hook_order.is_empty()
        && !run.memo.gained
        && run.late_states.is_empty();
    run.recycle(held);
    result
}

/// A value whose objects are all kept as this request's prototypes in `memo` (a repeated fetch of plain
/// or safe-direct objects, alone or in arrays): a copy of each prototype and the arrays around them, as
/// [`materialise`] would make them, without a run and without userland code. `None` where
/// [`materialise`] is needed: a PHP reference, an object without a kept prototype, an enum case not
/// resolved this request, a class that gained a restore hook, a copy refused by a clone handler.
pub fn copy_prototypes(blueprint: &Blueprint, memo: &RequestMemo) -> Option<zval> {
    if blueprint.objects.is_empty() || !blueprint.references.is_empty() || memo.gained {
        return None;
    }
    let kept = |index: usize, plan: &ObjectPlan| -> Option<(*mut zend_object, Option<StateFamily>)> {
        let Some(Prototype::Kept(prototype)) = memo.prototypes.get(index) else { return None };
        // A prototype is only kept for a class resolved in this request, without `__clone`.
        let class = memo.shapes[plan.shape as usize].as_ref().filter(|c| c.clonable && plan.self_contained)?;
        // SAFETY: a kept prototype is an object zval.
        Some((unsafe { prototype.value.obj }, class.facts.family()))
    };
    // Checked before any copy is made, so that a value that needs a run makes none.
    if !blueprint.objects.iter().enumerate().all(|(index, plan)| kept(index, plan).is_some()) {
        return None;
    }
    // The run's vectors are borrowed, so a repeated copy allocates none (see [`Scratch`]). Where a
    // `memory_limit` fatal is raised inside the allocation, it is caught here, so that the vectors go
    // back (they were lost with the frame) before it is handed on.
    let mut scratch = SCRATCH.take().unwrap_or_default();
    let (objects, arrays) = (&mut scratch.objects, &mut scratch.arrays);
    let copied = if cfg!(php_delayed_oom) {
        copy_kept(blueprint, memo, &kept, objects, arrays)
    } else {
        match catching_bailout(|| Ok(copy_kept(blueprint, memo, &kept, objects, arrays))) {
            Ok(copied) => copied,
            Err(_) => {
                release_unseen(&mut scratch.objects, &mut scratch.arrays);
                SCRATCH.set(Some(scratch));
                // SAFETY: this frame owns nothing now; the caller catches it (`allocating`).
                unsafe { reraise_bailout() }
            }
        }
    };
    if scratch.objects.capacity().max(scratch.arrays.capacity()) <= SCRATCH_MAX {
        SCRATCH.set(Some(scratch));
    }
    copied
}

/// [`copy_prototypes`] with the vectors it fills (empty; left empty).
fn copy_kept(
    blueprint: &Blueprint,
    memo: &RequestMemo,
    kept: &impl Fn(usize, &ObjectPlan) -> Option<(*mut zend_object, Option<StateFamily>)>,
    objects: &mut Vec<zval>,
    arrays: &mut Vec<zval>,
) -> Option<zval> {
    for (index, plan) in blueprint.objects.iter().enumerate() {
        // Over `memory_limit`, the run that follows stops at once (see `Run::create_object`).
        let copy = match kept(index, plan) {
            // SAFETY: a live object of this request; no `__clone` is defined (`clonable`), so no
            // userland code runs; the family is its class's.
            Some((prototype, family)) if !zend::out_of_memory() => unsafe { clone_object(prototype, family) },
            _ => None,
        };
        match copy {
            Some(copy) => objects.push(copy),
            None => {
                release_unseen(objects, arrays);
                return None;
            }
        }
    }
    for plan in &blueprint.arrays {
        // As for the objects: past `memory_limit` no further array is filled (the run stops at once).
        let filled = match zend::out_of_memory() {
            false => fill_array(blueprint, plan, |cell| copied_cell(cell, objects, arrays, memo)),
            true => Err(DecodeError::Thrown),
        };
        match filled {
            Ok(array) => arrays.push(array),
            Err(_) => {
                release_unseen(objects, arrays);
                return None;
            }
        }
    }
    let Ok(value) = copied_cell(blueprint.root, objects, arrays, memo) else {
        release_unseen(objects, arrays);
        return None;
    };
    // The value holds every object and array made (each object is self-contained, so it is held by an
    // array or is the root): their own references are given up without the engine's release (see
    // `Run::recycle`).
    for z in objects.drain(..).chain(arrays.drain(..)) {
        // SAFETY: owning zvals of live objects and arrays; a count above one is the value's.
        unsafe {
            if (*z.value.counted).gc.refcount > 1 {
                (*z.value.counted).gc.refcount -= 1;
                std::mem::forget(z);
            }
        }
    }
    Some(value)
}

/// An owning zval for `cell` of a value copied from prototypes ([`copy_prototypes`]).
#[inline(always)]
fn copied_cell(cell: Cell, objects: &[zval], arrays: &[zval], memo: &RequestMemo) -> Result<zval, DecodeError> {
    let existing = |slots: &[zval], index: u32| match slots.get(index as usize) {
        // SAFETY: the slot holds a live owning zval made by the copy.
        Some(slot) => Ok(unsafe { zvals::copy(slot) }),
        None => Err(DecodeError::Corrupted),
    };
    match cell {
        Cell::Ready(ready) => Ok(ready.to_zval()),
        Cell::Object(index) => existing(objects, index),
        Cell::Array(index) => existing(arrays, index),
        Cell::EnumCase(index) => match memo.enum_cases.get(index as usize) {
            // SAFETY: an enum case resolved this request, live for the request (held by its class
            // constant).
            Some(&case) if !case.is_null() => Ok(unsafe { zvals::object_zval(case) }),
            _ => Err(DecodeError::Undecodable),
        },
        Cell::Reference(_) => Err(DecodeError::Corrupted),
    }
}

/// Releases the objects and arrays of a copy that is not handed out (the vectors are left empty): no
/// PHP code saw them, so the objects run no `__destruct`.
fn release_unseen(objects: &mut Vec<zval>, arrays: &mut Vec<zval>) {
    arrays.clear();
    for object in objects.drain(..) {
        // SAFETY: an object zval made by a clone.
        unsafe { zvals::skip_destructor(object.value.obj) };
        drop(object);
    }
}

/// The array of `plan`, its cells' values made by `value` (the arrays they name made before it).
#[inline(always)]
fn fill_array(
    bp: &Blueprint,
    plan: &ArrayPlan,
    mut value: impl FnMut(Cell) -> Result<zval, DecodeError>,
) -> Result<zval, DecodeError> {
    let array = zvals::new_array(plan.span.len as usize, plan.packed);
    // SAFETY: the array is new and owned here alone; a packed one was sized for every slot, so its
    // slots are written in place, in order (holes as UNDEF), as the engine's packed fill does.
    unsafe {
        let ht = zvals::table(&raw const array);
        if plan.packed {
            for (i, cell) in bp.cells[plan.span.range()].iter().enumerate() {
                zvals::push_packed(ht, i as u32, value(*cell)?);
            }
        } else {
            for (key, cell) in &bp.entries[plan.span.range()] {
                let value = value(*cell)?;
                match *key {
                    Key::Int(i) => zvals::insert_int(ht, i, value),
                    Key::Str(name) => zvals::insert_zstr(ht, name.as_string(), value),
                }
            }
        }
        // The stored next index is restored where it is above what the elements imply (never below,
        // so `$a[] = …` cannot hit an existing key).
        (*ht).nNextFreeElement = (*ht).nNextFreeElement.max(plan.next_free);
    }
    Ok(array)
}

/// The vectors of a finished run, empty, kept for the next one: a repeated fetch allocates none. A run
/// inside a run (a hook fetching a value) finds none and allocates its own.
#[derive(Default)]
struct Scratch {
    objects: Vec<zval>,
    cloned: Vec<bool>,
    references: Vec<zval>,
    arrays: Vec<zval>,
    hooks: Vec<Option<Deferred>>,
}

/// Runs whose vectors are longer are not kept (they would hold that memory for the thread's life).
const SCRATCH_MAX: usize = 1024;

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

fn php_unserialize(serialized: &[u8], out: &mut zval) -> Result<(), DecodeError> {
    crate::attributes::before_userland();
    let mut input = zvals::string(serialized);
    zend::call_function(c"unserialize", &raw mut input, out).map_err(|_| DecodeError::Thrown)?;
    // SAFETY: `out` was just written by the engine.
    if unsafe { zend::type_of(out) } == IS_FALSE && serialized != b"b:0;" {
        return Err(DecodeError::Undecodable);
    }
    Ok(())
}

/// A userland hook to run once every object is filled.
#[derive(Clone, Copy)]
enum Deferred {
    /// `__unserialize()` with this array (one of the blueprint's, or one the run made for a class that
    /// gained the method, see [`Run::fill_gained`]).
    Unserialize(Cell),
    Wakeup,
}

/// One materialisation.
struct Run<'b, 'm> {
    bp: &'b Blueprint,
    memo: &'m mut RequestMemo,
    /// A stored value was dropped (a property the class no longer has): an object made may not be
    /// in the value.
    dropped: bool,
    /// A value was coerced to its property's declared type: a slot may hold other than its cell.
    coerced: bool,
    /// One owning zval per object.
    objects: Vec<zval>,
    /// Objects made by cloning a prototype (complete already).
    cloned: Vec<bool>,
    references: Vec<zval>,
    arrays: Vec<zval>,
    /// Per object, the userland hook to run once every object is filled (one at most: `__unserialize`,
    /// else `__wakeup`); empty where the blueprint runs none.
    hooks: Vec<Option<Deferred>>,
    /// Objects whose state is restored through userland code ([`ShapeClass::userland_state`]): once
    /// every object is filled, as `unserialize()` restores them (their `getHash()` reads the objects).
    late_states: Vec<usize>,
    /// The caller guards against a hook fetching the key again: hooks a class gained may run.
    guarded: bool,
    /// The run stopped because a class gained hooks and the caller does not guard (see [`materialise`]).
    needs_guard: bool,
}

impl Run<'_, '_> {
    fn all(&mut self) -> Result<zval, DecodeError> {
        if self.memo.gained {
            self.gained_hooks()?;
        }
        for index in 0..self.bp.objects.len() {
            self.create_object(index)?;
        }
        if self.memo.gained {
            // Found while the classes were resolved (the first restore in the request).
            self.gained_hooks()?;
        }
        for _ in 0..self.bp.references.len() {
            self.references.push(zvals::new_reference(zval::new()));
        }
        for index in 0..self.bp.arrays.len() {
            let array = self.build_array(index)?;
            self.arrays.push(array);
        }
        for index in 0..self.bp.references.len() {
            let value = self.cell(self.bp.references[index])?;
            if zvals::type_of(&value) == IS_REFERENCE {
                return Err(DecodeError::Corrupted);
            }
            // SAFETY: the reference was created above; its null value is replaced (nothing to free).
            unsafe { ptr::write(&raw mut (*self.references[index].value.ref_).val, value) };
        }
        for index in 0..self.bp.objects.len() {
            if !self.cloned[index] {
                self.fill_object(index)?;
            }
        }
        let bp = self.bp;
        for i in 0..self.late_states.len() {
            let index = self.late_states[i];
            if let RestorePlan::Internal(family, state) = &bp.objects[index].restore {
                self.restore_state(index, *family, state)?;
            }
        }
        if !self.hooks.is_empty() {
            self.run_hooks()?;
        }
        self.keep_prototypes();
        self.cell(self.bp.root)
    }

    /// A class of the value gained a restore hook ([`RequestMemo::gained`]): the run stops unless the
    /// caller guards against a hook fetching the key again (see [`materialise`]), else it gets a slot for
    /// every object's hook.
    #[cold]
    #[inline(never)]
    fn gained_hooks(&mut self) -> Result<(), DecodeError> {
        if !self.guarded {
            self.needs_guard = true;
            return Err(DecodeError::Undecodable);
        }
        self.hooks.resize(self.bp.objects.len(), None);
        Ok(())
    }

    /// Releases the run's values (as dropping it would) and keeps its vectors for the next run. `held`:
    /// the value handed out holds every object and array of the run, so the run's own reference to each
    /// is given up without the engine's release, which would buffer each one, plainly alive, as a
    /// possible garbage-cycle root (for the collector to drop again when it is freed).
    fn recycle(self, held: bool) {
        let Run { mut objects, mut cloned, mut references, mut arrays, mut hooks, .. } = self;
        if held {
            for z in objects.drain(..).chain(arrays.drain(..)) {
                // SAFETY: the run's owning zvals of live objects and arrays; a count above one is another
                // owner's (the value handed out), so this reference is not the last.
                unsafe {
                    if zvals::is_refcounted(&z) && (*z.value.counted).gc.refcount > 1 {
                        (*z.value.counted).gc.refcount -= 1;
                        std::mem::forget(z);
                    }
                }
            }
        }
        if [objects.capacity(), references.capacity(), arrays.capacity()].iter().any(|&c| c > SCRATCH_MAX) {
            return;
        }
        objects.clear();
        cloned.clear();
        references.clear();
        arrays.clear();
        hooks.clear();
        SCRATCH.set(Some(Scratch { objects, cloned, references, arrays, hooks }));
    }

    /// On failure: objects whose restore did not complete must not run `__destruct`.
    fn abandon(&mut self) {
        for object in &self.objects {
            // SAFETY: every entry is an object zval created by `create_object`.
            unsafe { zvals::skip_destructor(object.value.obj) };
        }
    }

    /// Per shape of the blueprint, its class this request, for a record checked against the cells;
    /// `None` unless every object was made of a class that [`compare::plannable_class`] accepts, with
    /// one slot per stored declared property, each written into the slot of its index.
    /// The vector is the spare one the last planned record left (`compare::spare_classes`).
    fn planned_classes(&self) -> Option<Vec<*mut zend_class_entry>> {
        let mut classes = compare::spare_classes();
        for (stored, class) in self.bp.shapes.iter().zip(&self.memo.shapes) {
            let planned = class.as_ref().filter(|class| {
                // SAFETY: a class resolved in this request.
                let (plannable, count) = unsafe { (compare::plannable_class(class.ce), zvals::slot_count(class.ce)) };
                let in_place = class
                    .slots
                    .iter()
                    .enumerate()
                    .all(|(k, target)| matches!(*target, SlotTarget::Declared { slot, .. } if slot == k));
                plannable && in_place && class.slots.len() == count && stored.properties.len() == count
            });
            match planned {
                Some(class) => classes.push(class.ce),
                None => {
                    compare::keep_classes(classes);
                    return None;
                }
            }
        }
        Some(classes)
    }

    fn object_ptr(&self, index: usize) -> *mut zend_object {
        // SAFETY: `objects[index]` is an object zval created by `create_object`.
        unsafe { self.objects[index].value.obj }
    }

    /// An owning zval for `cell`; planned nodes must already exist. Inlined: the callers use the zval
    /// at once, and reading it back from the stack after the call stalls.
    #[inline(always)]
    fn cell(&mut self, cell: Cell) -> Result<zval, DecodeError> {
        let existing = |slots: &[zval], index: u32| -> Result<zval, DecodeError> {
            match slots.get(index as usize) {
                // SAFETY: the slot holds a live owning zval created by this run.
                Some(slot) => Ok(unsafe { zvals::copy(slot) }),
                None => Err(DecodeError::Corrupted),
            }
        };
        match cell {
            Cell::Ready(ready) => Ok(ready.to_zval()),
            Cell::Array(index) => existing(&self.arrays, index),
            Cell::Object(index) => existing(&self.objects, index),
            Cell::Reference(index) => existing(&self.references, index),
            Cell::EnumCase(index) => {
                let case = self.enum_case(index as usize)?;
                // SAFETY: enum cases are live for the request (held by their class constant).
                Ok(unsafe { zvals::object_zval(case) })
            }
        }
    }

    /// The class of `shape` for this request (`None`: not found, restored as `__PHP_Incomplete_Class`).
    fn shape_class(&mut self, shape: usize) -> Result<Option<&ShapeClass>, DecodeError> {
        if self.memo.shapes[shape].is_none() {
            let stored = &self.bp.shapes[shape];
            // Autoloading may run userland code: nothing of the memo is borrowed across it.
            let keyed = stored.lookup.map(|(name, key)| (name.as_string(), key.as_string()));
            let found =
                class_lookup::find(stored.class_name(), keyed).map_err(|class_lookup::Thrown| DecodeError::Thrown)?;
            let Some(ce) = found else { return Ok(None) };
            // Default values that name a class or constant not declared yet (an enum declared further
            // down the file of a class bound at compile time) would make object creation fail: they
            // are resolved here, as object creation would, once per request, also while a file
            // compiles (where PHP would refuse to make their enum cases: see `zend::outside_compilation`).
            // SAFETY: the engine returned a live, linked class; resolving may autoload, and nothing of
            // the memo is borrowed across it.
            let unresolved = unsafe { (*ce).ce_flags & zend::ZEND_ACC_CONSTANTS_UPDATED == 0 };
            // SAFETY: as above.
            if unresolved && zend::outside_compilation(|| unsafe { zend::zend_update_class_constants(ce) } != 0) {
                zvals::clear_exception();
                return Err(DecodeError::ClassMissing);
            }
            // SAFETY: as above.
            let class = unsafe { resolve_shape(ce, stored, self.memo.request) }?;
            self.memo.gained |= match class.hook {
                Some(RestoreHook::Unserialize) => stored.restored_plain || stored.restored_with_wakeup,
                Some(RestoreHook::Wakeup) => stored.restored_plain,
                None => false,
            };
            self.memo.shapes[shape] = Some(class);
        }
        Ok(self.memo.shapes[shape].as_ref())
    }

    fn create_object(&mut self, index: usize) -> Result<(), DecodeError> {
        if zend::out_of_memory() {
            // The pending memory_limit fatal is raised by the VM as soon as control returns.
            return Err(DecodeError::Thrown);
        }
        let bp = self.bp;
        let plan = &bp.objects[index];
        let class = self.shape_class(plan.shape as usize)?.map(|c| (c.ce, c.facts, c.clonable));
        let ce = match class {
            Some((ce, facts, clonable)) => {
                if let RestorePlan::Internal(family, _) = plan.restore {
                    if facts.family() != Some(family) {
                        return Err(DecodeError::Undecodable);
                    }
                }
                if clonable && plan.self_contained {
                    if let Some(Prototype::Kept(prototype)) = self.memo.prototypes.get(index) {
                        // SAFETY: a live object of this request; no `__clone` is defined (`clonable`), so
                        // no userland code runs; the family is its class's.
                        let copy = unsafe { clone_object(prototype.value.obj, facts.family()) };
                        if let Some(copy) = copy {
                            self.objects.push(copy);
                            self.cloned[index] = true;
                            return Ok(());
                        }
                    }
                }
                ce
            }
            None => class_lookup::incomplete_class().ok_or(DecodeError::Undecodable)?,
        };
        // The engine writes the object straight into the next slot (no zval copied after it).
        self.objects.reserve(1);
        let slot = self.objects.spare_capacity_mut().first_mut().ok_or(DecodeError::Corrupted)?.as_mut_ptr();
        // SAFETY: `ce` is a live class; object_init_ex runs no userland code (no constructor), writes
        // the slot's value and type (an object, or null when it throws for a class that cannot be
        // instantiated); the slot joins the vector only once it holds an object.
        unsafe {
            ffi::object_init_ex(slot, ce);
            let made = zvals::type_of(&*slot) == IS_OBJECT;
            if zend::exception_pending() || !made {
                if made {
                    drop(ptr::read(slot));
                }
                zvals::clear_exception();
                return Err(DecodeError::Undecodable);
            }
            self.objects.set_len(self.objects.len() + 1);
        }
        if class.is_none() {
            let name = zvals::string(self.bp.shapes[plan.shape as usize].class_name());
            self.add_dynamic(index, INCOMPLETE_CLASS_NAME, name);
        }
        Ok(())
    }

    fn build_array(&mut self, index: usize) -> Result<zval, DecodeError> {
        if zend::out_of_memory() {
            return Err(DecodeError::Thrown);
        }
        let bp = self.bp;
        fill_array(bp, &bp.arrays[index], |cell| self.cell(cell))
    }

    /// The engine singleton of enum case `index` (§6.5: a missing enum or case fails the fetch).
    fn enum_case(&mut self, index: usize) -> Result<*mut zend_object, DecodeError> {
        let known = self.memo.enum_cases[index];
        if !known.is_null() {
            return Ok(known);
        }
        let bp = self.bp;
        let (class, case) = &bp.enum_cases[index];
        let ce = class_lookup::find(class, None)
            .map_err(|class_lookup::Thrown| DecodeError::Thrown)?
            .ok_or(DecodeError::ClassMissing)?;
        // SAFETY: `ce` is a live class; the constant table maps names to live zend_class_constant
        // pointers; zend_get_class_constant_ex evaluates a pending initialiser or fails cleanly.
        let obj = unsafe {
            if !class_info::is_enum(ce) {
                return Err(DecodeError::Undecodable);
            }
            let constant = zvals::find_str(&raw mut (*ce).constants_table, case).ok_or(DecodeError::Undecodable)?;
            let constant = (*constant).value.ptr.cast::<ffi::zend_class_constant>();
            if (*constant).value.u2.constant_flags & CONST_IS_CASE == 0 {
                return Err(DecodeError::Undecodable);
            }
            let mut name = ZendStr::new(case, false);
            // The case object is made on first use, which PHP refuses while a file compiles (a restore
            // at the link of a class an include declares): see `zend::outside_compilation`.
            let value = zend::outside_compilation(|| {
                ffi::zend_get_class_constant_ex((*ce).name, &raw mut *name, ptr::null_mut(), FETCH_SILENT)
            });
            if value.is_null() || zend::type_of(value) != IS_OBJECT || (*(*value).value.obj).ce != ce {
                zvals::clear_exception();
                return Err(DecodeError::Undecodable);
            }
            (*value).value.obj
        };
        self.memo.enum_cases[index] = obj;
        Ok(obj)
    }

    fn fill_object(&mut self, index: usize) -> Result<(), DecodeError> {
        let bp = self.bp;
        let plan = &bp.objects[index];
        match &plan.restore {
            RestorePlan::Properties | RestorePlan::PropertiesThenWakeup if self.memo.gained => {
                self.fill_gained(index, plan)
            }
            RestorePlan::Properties => self.write_properties(index, plan),
            RestorePlan::PropertiesThenWakeup => {
                self.write_properties(index, plan)?;
                self.defer_wakeup(index);
                Ok(())
            }
            RestorePlan::Unserialize(data) => {
                let ce = self.class_of(index);
                // SAFETY: a live class.
                if !ce.is_null() && unsafe { !(*ce).__unserialize.is_null() } {
                    self.defer(index, Deferred::Unserialize(*data));
                    return Ok(());
                }
                // Without __unserialize, the data are properties (then __wakeup), as unserialize() does.
                let data = self.cell(*data)?;
                if zvals::type_of(&data) != ffi::IS_ARRAY {
                    return Err(DecodeError::Corrupted);
                }
                // SAFETY: a live array owned by `data`, not modified while its entries are read.
                for (key, value) in unsafe { zvals::entries(zvals::table(&raw const data)) } {
                    let name = match key {
                        zvals::Key::Int(i) => i.to_string().into_bytes(),
                        zvals::Key::Str(s) => s.to_vec(),
                    };
                    // SAFETY: an element of the live array.
                    let value = unsafe { zvals::copy(value) };
                    self.write_named(index, &name, Some(value), false)?;
                }
                self.defer_wakeup(index);
                Ok(())
            }
            RestorePlan::Internal(_, _)
                if self.memo.shapes[plan.shape as usize].as_ref().is_some_and(|c| c.userland_state) =>
            {
                self.late_states.push(index);
                self.write_properties(index, plan)
            }
            RestorePlan::Internal(family, state) => {
                self.restore_state(index, *family, state)?;
                self.write_properties(index, plan)
            }
        }
    }

    /// Fills an object stored without `__unserialize()` (restored from its properties, then perhaps
    /// `__wakeup()`) whose class may have gained a restore hook since: `unserialize()` would pass the
    /// properties to a gained `__unserialize()`, or call a gained `__wakeup()` after writing them.
    #[inline(never)]
    fn fill_gained(&mut self, index: usize, plan: &ObjectPlan) -> Result<(), DecodeError> {
        let bp = self.bp;
        let hook = self.memo.shapes[plan.shape as usize].as_ref().and_then(|c| c.hook);
        if hook == Some(RestoreHook::Unserialize) {
            // The properties as `serialize()` wrote them: declared ones that are set, by mangled name,
            // then dynamic ones (a decimal name becomes an integer key, as `unserialize()` makes it).
            let shape = &bp.shapes[plan.shape as usize];
            let cells = &bp.cells[plan.declared.range()];
            let dynamic = &bp.entries[plan.dynamic.range()];
            let data = zvals::new_array(cells.len() + dynamic.len(), false);
            // SAFETY: `data` holds the array just made.
            let ht = unsafe { zvals::table(&raw const data) };
            for (k, cell) in cells.iter().enumerate() {
                if matches!(cell, Cell::Ready(r) if r.is_undef()) {
                    continue;
                }
                let name = shape.properties.get(k).ok_or(DecodeError::Corrupted)?.as_string();
                let value = self.cell(*cell)?;
                // SAFETY: `data` is new and private to this run; the name is a string the blueprint keeps.
                unsafe { zvals::insert_symtable(ht, name, value) };
            }
            for (key, cell) in dynamic {
                let Key::Str(name) = key else { return Err(DecodeError::Corrupted) };
                let value = self.cell(*cell)?;
                // SAFETY: as above.
                unsafe { zvals::insert_symtable(ht, name.as_string(), value) };
            }
            // Kept with the run's arrays, after the blueprint's: `Deferred::Unserialize` finds it there.
            let cell = Cell::Array(u32::try_from(self.arrays.len()).map_err(|_| DecodeError::Corrupted)?);
            self.arrays.push(data);
            self.defer(index, Deferred::Unserialize(cell));
            return Ok(());
        }
        self.write_properties(index, plan)?;
        if hook == Some(RestoreHook::Wakeup) || matches!(plan.restore, RestorePlan::PropertiesThenWakeup) {
            self.defer_wakeup(index);
        }
        Ok(())
    }

    // Inlined into both callers: most objects with a state are dates restored from a snapshot, where a
    // call costs as much as the rest.
    #[inline(always)]
    fn restore_state(&mut self, index: usize, family: StateFamily, state: &StatePlan) -> Result<(), DecodeError> {
        let shape = self.bp.objects[index].shape as usize;
        let Some((base, userland_state)) =
            self.memo.shapes[shape].as_ref().map(|c| (c.facts.internal_base, c.userland_state))
        else {
            return Ok(()); // an incomplete class has no internal state to restore
        };
        let obj = self.object_ptr(index);
        let bp = self.bp;
        let date = matches!(family, StateFamily::DateTime | StateFamily::DateTimeZone | StateFamily::DateInterval);
        if let Some(snapshot) = self.memo.dates.get(index).filter(|_| date).and_then(Option::as_ref) {
            // SAFETY: the object is fresh and of the snapshot's family (checked by create_object).
            return unsafe { snapshot.apply(obj) }.map_err(|_| DecodeError::Undecodable);
        }
        let restored = match state {
            StatePlan::Unserialize(Cell::Ready(argument))
                // SAFETY: create_object checked that the class belongs to `family` (`base` its internal
                // ancestor); the object is fresh; the blueprint keeps the ready argument alive.
                if unsafe { internal_state::restore_usual(family, obj, base, zvals::table(&argument.to_zval())) } =>
            {
                Ok(())
            }
            StatePlan::Unserialize(argument) => {
                let argument = self.cell(*argument)?;
                // SAFETY: create_object checked that the class belongs to `family`; the object is fresh.
                let restored = unsafe { internal_state::unserialize(obj, base, argument) };
                if restored.is_ok() && date {
                    // SAFETY: `obj` was just restored by its class's own __unserialize.
                    let snapshot = unsafe { DateSnapshot::capture(family, obj) }.ok();
                    if self.memo.dates.len() <= index {
                        self.memo.dates.resize_with(bp.objects.len().max(index + 1), || None);
                    }
                    self.memo.dates[index] = snapshot;
                }
                restored
            }
            StatePlan::Heap { elements, extract_flags, heap_flags } => {
                let values = bp.cells[elements.range()].iter().map(|c| self.cell(*c)).collect::<Result<_, _>>()?;
                // SAFETY: as above; the heap is empty.
                unsafe { internal_state::restore_heap(family, obj, values, *extract_flags, *heap_flags) }
            }
        };
        restored.map_err(|e| match e {
            // The user's own code threw (as it would in `unserialize()`): the exception propagates.
            StateError::Thrown if userland_state => DecodeError::Thrown,
            StateError::Thrown => {
                zvals::clear_exception();
                DecodeError::Undecodable
            }
            StateError::Malformed => DecodeError::Undecodable,
        })
    }

    /// The object's class this request, or null for an incomplete class.
    fn class_of(&self, index: usize) -> *mut zend_class_entry {
        self.memo.shapes[self.bp.objects[index].shape as usize].as_ref().map_or(ptr::null_mut(), |c| c.ce)
    }

    fn defer_wakeup(&mut self, index: usize) {
        let ce = self.class_of(index);
        // SAFETY: a live class.
        if !ce.is_null() && !unsafe { class_info::method(ce, b"__wakeup") }.is_null() {
            self.defer(index, Deferred::Wakeup);
        }
    }

    /// Records the hook of object `index`; [`Run::run_hooks`] runs those of the objects the blueprint
    /// orders hooks for (every object whose plan defers one).
    fn defer(&mut self, index: usize, call: Deferred) {
        if let Some(slot) = self.hooks.get_mut(index) {
            *slot = Some(call);
        }
    }

    /// Writes the stored declared and dynamic properties (§6.5: matched by name).
    fn write_properties(&mut self, index: usize, plan: &ObjectPlan) -> Result<(), DecodeError> {
        // Most objects with an internal state (SPL collections, dates) store no property.
        if plan.declared.len == 0 && plan.dynamic.len == 0 {
            return Ok(());
        }
        let bp = self.bp;
        let shape = plan.shape as usize;
        let cells = &bp.cells[plan.declared.range()];
        match self.write_cells_as_is(index, shape, cells) {
            Some(mut left) => {
                while left != 0 {
                    let k = left.trailing_zeros() as usize;
                    left &= left - 1;
                    self.write_cell(index, shape, k, cells[k])?;
                }
            }
            None => {
                for (k, cell) in cells.iter().enumerate() {
                    self.write_cell(index, shape, k, *cell)?;
                }
            }
        }
        // A class without declared slots that allows dynamic properties (`stdClass`): every name is a
        // dynamic property, which takes the blueprint's string as its key (no copy of the name).
        let bare = plan.dynamic.len > 0
            && self.memo.shapes[shape].as_ref().is_some_and(|c| c.allows_dynamic && c.no_declared_slots);
        for (key, cell) in &bp.entries[plan.dynamic.range()] {
            let Key::Str(name) = key else { return Err(DecodeError::Corrupted) };
            let value = self.cell(*cell)?;
            if bare {
                // SAFETY: the object is live and private to this run; its property table is built on
                // demand by the engine and takes the value's ownership, and a reference to the name (a
                // string the blueprint keeps: immutable, or counted, and then the table's own).
                unsafe {
                    zvals::insert_zstr(ffi::zend_std_get_properties(self.object_ptr(index)), name.as_string(), value)
                };
                continue;
            }
            // SAFETY: a string value the blueprint keeps.
            let name = unsafe { zend::zstr_bytes(name.as_string()) };
            self.write_named(index, name, Some(value), true)?;
        }
        Ok(())
    }

    /// Writes the ready values their declared properties take as they are (usually all of an object's
    /// values but its objects), in one tight pass, and tells which of the cells are left to
    /// [`Run::write_cell`] (bit `k`: cell `k`). `None`, with nothing written, where the class is not
    /// found or has more than 64 stored properties.
    fn write_cells_as_is(&self, index: usize, shape: usize, cells: &[Cell]) -> Option<u64> {
        let class = self.memo.shapes[shape].as_ref().filter(|c| c.slots.len() == cells.len() && cells.len() <= 64)?;
        let obj = self.object_ptr(index);
        let mut left = 0u64;
        for (k, ((cell, &target), &accepted)) in cells.iter().zip(&class.slots).zip(&class.accepted).enumerate() {
            // SAFETY: a declared target indexes a slot of the object's class, with its info; the object
            // was made by this run; the run's objects are live. The property takes the value as it is:
            // a ready value by `taken_as_is`, an object because one of its class passed this property's
            // type check in this request (`accepted`, never null for a match).
            unsafe {
                match (cell, target) {
                    (Cell::Object(j), SlotTarget::Declared { slot, .. }) => match self.objects.get(*j as usize) {
                        Some(o) if (*o.value.obj).ce == accepted => write_new_slot(obj, slot, zvals::copy(o)),
                        _ => left |= 1 << k,
                    },
                    _ => match taken_as_is(cell, target) {
                        Some((slot, ready)) => write_new_slot(obj, slot, ready.to_zval()),
                        None => left |= 1 << k,
                    },
                }
            }
        }
        Some(left)
    }

    /// Writes stored declared property `k` of object `index`, of shape `shape`: into its slot, as a
    /// dynamic property, or dropped (§6.5).
    fn write_cell(&mut self, index: usize, shape: usize, k: usize, cell: Cell) -> Result<(), DecodeError> {
        let value = match cell {
            Cell::Ready(r) if r.is_undef() => None,
            cell => Some(self.cell(cell)?),
        };
        let target = self.memo.shapes[shape].as_ref().map_or(SlotTarget::Dynamic, |c| c.slots[k]);
        // An object that goes into a declared slot passes the property's type check there: later objects
        // of its class then pass too.
        let taken = match (cell, target, &value) {
            // SAFETY: an object cell's value is a live object.
            (Cell::Object(_), SlotTarget::Declared { .. }, Some(o)) => Some(unsafe { (*o.value.obj).ce }),
            _ => None,
        };
        let bp = self.bp;
        self.write_to(index, target, bp.shapes[shape].property_name(k), value)?;
        if let (Some(ce), Some(class)) = (taken, self.memo.shapes[shape].as_mut()) {
            // SAFETY: a class resolved in this request.
            if unsafe { (*class.ce).type_ } == zend::ZEND_USER_CLASS {
                class.accepted[k] = ce;
            }
        }
        Ok(())
    }

    /// Writes the property `name` (mangled): its declared slot, else a dynamic property where the class
    /// allows them or where it was one when stored (as `unserialize()` restores it, without its
    /// deprecation; never on a class that forbids them); dropped otherwise (§6.5).
    fn write_named(
        &mut self,
        index: usize,
        name: &[u8],
        value: Option<zval>,
        stored_dynamic: bool,
    ) -> Result<(), DecodeError> {
        let shape = self.bp.objects[index].shape as usize;
        let target = match self.memo.shapes[shape].as_ref() {
            None => SlotTarget::Dynamic,
            Some(class) => match class.slot_named(name) {
                // SAFETY: `slot` is a declared slot of the class.
                Some(slot) => SlotTarget::Declared { slot, info: unsafe { zvals::slot_info(class.ce, slot) } },
                None if class.allows_dynamic || (stored_dynamic && !class.forbids_dynamic) => SlotTarget::Dynamic,
                None => SlotTarget::Dropped,
            },
        };
        self.write_to(index, target, name, value)
    }

    /// Writes `value` (`None`: unset) of the property `name` (mangled) of object `index` where `target`
    /// says: its declared slot, a dynamic property, or nowhere (dropped).
    fn write_to(
        &mut self,
        index: usize,
        target: SlotTarget,
        name: &[u8],
        value: Option<zval>,
    ) -> Result<(), DecodeError> {
        match (target, value) {
            // SAFETY: a declared target indexes a slot of the object's class, with its info.
            (SlotTarget::Declared { slot, info }, value) => unsafe {
                write_slot(self.object_ptr(index), slot, info, value, &mut self.coerced)
            },
            (SlotTarget::Dynamic, Some(value)) => {
                self.add_dynamic(index, name, value);
                Ok(())
            }
            (_, value) => {
                self.dropped |= value.is_some();
                Ok(())
            }
        }
    }

    fn add_dynamic(&mut self, index: usize, name: &[u8], value: zval) {
        // SAFETY: the object is live and private to this run; its property table is built on demand by
        // the engine and takes the value's ownership.
        unsafe {
            let table = ffi::zend_std_get_properties(self.object_ptr(index));
            zvals::insert_str(table, name, value);
        }
    }

    /// Runs deferred `__unserialize`/`__wakeup` calls, inner objects first.
    fn run_hooks(&mut self) -> Result<(), DecodeError> {
        // The hooks are read in place (a vector taken out of the run would be lost to a bailout in one).
        let bp = self.bp;
        // Objects whose class gained a hook are not in the blueprint's order: every object is visited
        // in the same order, those without a hook skipped.
        let everything;
        let order = if self.memo.gained {
            everything = bp.post_order(|_| true);
            &everything
        } else {
            &bp.hook_order
        };
        for &object in order {
            let Some(&Some(call)) = self.hooks.get(object as usize) else { continue };
            let obj = self.object_ptr(object as usize);
            let ce = self.class_of(object as usize);
            if ce.is_null() {
                continue;
            }
            crate::attributes::before_userland();
            // SAFETY: the methods belong to the object's class; hooks run with nothing borrowed.
            let result = unsafe {
                match call {
                    Deferred::Unserialize(data) => {
                        let mut args = [self.cell(data)?];
                        zvals::call_method((*ce).__unserialize, obj, &mut args)
                    }
                    Deferred::Wakeup => zvals::call_method(class_info::method(ce, b"__wakeup"), obj, &mut []),
                }
            };
            result.map_err(|()| DecodeError::Thrown)?;
        }
        Ok(())
    }

    /// After a successful restore: safe-direct objects and plain objects (see `ShapeClass::plain`) of a
    /// class without `__clone`, whose state is all ready values, keep a prototype from their second
    /// restore in the request on, which later restores clone.
    fn keep_prototypes(&mut self) {
        for index in 0..self.bp.objects.len() {
            let plan = &self.bp.objects[index];
            if self.cloned[index] || !plan.self_contained {
                continue;
            }
            let Some(class) = self.memo.shapes[plan.shape as usize].as_ref().filter(|c| c.clonable) else {
                continue;
            };
            let by_clone = match plan.restore {
                RestorePlan::Internal(..) => true,
                // Not an object whose class gained a restore hook: each restore runs it.
                RestorePlan::Properties => class.plain && class.hook.is_none(),
                _ => false,
            };
            if !by_clone {
                continue;
            }
            let family = class.facts.family();
            let memo = &mut *self.memo;
            if memo.prototypes.is_empty() {
                if index < 64 && memo.seen & (1 << index) == 0 {
                    memo.seen |= 1 << index;
                    continue;
                }
                let seen = memo.seen;
                memo.prototypes.extend((0..self.bp.objects.len()).map(|i| match i < 64 && seen & (1 << i) != 0 {
                    true => Prototype::Seen,
                    false => Prototype::Unseen,
                }));
            }
            let Some(prototype) = memo.prototypes.get_mut(index) else { continue };
            match prototype {
                Prototype::Unseen => *prototype = Prototype::Seen,
                Prototype::Seen => {
                    // SAFETY: a live, complete object of this run, not yet seen by userland code, of a
                    // class without `__clone`; `family` is its class's family.
                    if let Some(copy) = unsafe { clone_object(self.objects[index].value.obj, family) } {
                        // SAFETY: the copy is live; a prototype released at request end runs no __destruct.
                        unsafe { zvals::skip_destructor(copy.value.obj) };
                        if let (true, RestorePlan::Internal(_, StatePlan::Unserialize(Cell::Ready(argument)))) =
                            (family == Some(StateFamily::ArrayStorage), &plan.restore)
                        {
                            // SAFETY: the prototype is a complete copy of an object restored from this
                            // ready (engine-immutable) argument, which the blueprint keeps for longer than
                            // the memo's prototypes; no PHP code sees the prototype. Where the storage is
                            // not shared, the prototype keeps its own: copies are just as correct.
                            let _ = unsafe {
                                internal_state::share_stored_storage(copy.value.obj, zvals::table(&argument.to_zval()))
                            };
                        }
                        *prototype = Prototype::Kept(copy);
                    }
                }
                Prototype::Kept(_) => {}
            }
        }
    }
}

/// A copy of `obj` made by its class's clone handler, independent of `obj` (`family`: the class's
/// safe-direct family: the `ArrayStorage` family, fixed arrays and lists are copied as their allocation
/// where they can be; else a copy of the `ArrayStorage` family may first share `obj`'s storage, and a
/// fixed array's or a list's elements are lent around the handler and copied in one pass).
///
/// # Safety
/// `obj` must be a live object whose class has no `__clone` (the handler would call it), of `family`,
/// that PHP code never sees (a prototype), or that no PHP code uses while it is copied (an object just
/// restored, whose copy `crate::prototype` checks with `internal_state::state_slots`).
pub unsafe fn clone_object(obj: *mut zend_object, family: Option<StateFamily>) -> Option<zval> {
    // SAFETY: caller guarantees a live object of `family`, unseen by PHP code; the clone handler
    // returns a new object with refcount 1; lent elements go back to `obj` before anything can fail.
    unsafe {
        if let Some(copy) = family.and_then(|family| internal_state::copy_prototype(family, obj)) {
            return Some(copy);
        }
        let clone = (*(*obj).handlers).clone_obj?;
        let lent = family.and_then(|family| internal_state::lend_elements(family, obj));
        let copy = clone(obj);
        let failed = copy.is_null() || zend::exception_pending();
        let copied =
            lent.map(|lent| internal_state::return_elements(lent, if failed { ptr::null_mut() } else { copy }));
        if failed {
            zvals::clear_exception();
            return None;
        }
        let z = zvals::object_zval(copy);
        (*copy).gc.refcount -= 1;
        let separated =
            family != Some(StateFamily::ArrayStorage) || internal_state::separate_array_clone(obj, copy).is_ok();
        if !separated || copied.is_some_and(|c| c.is_err()) {
            // A copy that would share `obj`'s storage, or holds part of its list, is released unseen
            // (no `__destruct`).
            zvals::skip_destructor(copy);
            drop(z);
            return None;
        }
        Some(z)
    }
}

/// Resolves how objects of `stored` are written into `ce`.
///
/// # Safety
/// `ce` must be a live, linked class.
unsafe fn resolve_shape(
    ce: *mut zend_class_entry,
    stored: &crate::blueprint::Shape,
    request: u64,
) -> Result<ShapeClass, DecodeError> {
    // SAFETY: caller guarantees a live class; its slot infos name every declared slot.
    unsafe {
        let facts = request_facts(ce, request);
        // Objects of other internal classes (and their subclasses) are always stored PHP-serialized, so a
        // shape naming one was rewritten or its class changed since: restoring such an object from
        // properties alone, without its internal state, can leave it unusable (a `Random\Randomizer`
        // with no engine crashes at its first call), where `unserialize()` refuses it.
        let kind = facts.info.kind;
        if facts.info.object_tier(false).is_err()
            || matches!(kind, graph_codec::ClassKind::Enum | graph_codec::ClassKind::OtherInternal)
        {
            return Err(DecodeError::Undecodable);
        }
        let allows_dynamic = class_info::allows_dynamic_properties(ce);
        let clonable = (*ce).clone.is_null();
        let plain = ptr::eq(ce, ffi::zend_standard_class_def)
            || ((*ce).type_ == zend::ZEND_USER_CLASS && (*ce).__bindgen_anon_2.create_object.is_none());
        // ArrayIterator's clone handler (RecursiveArrayIterator's too) does not copy the storage: the copy
        // reads and writes the original's (SPL_ARRAY_USE_OTHER), so a prototype cloned that way would
        // change with every value handed out from it (§7.1); such copies get storage of their own.
        let family = facts.family();
        let userland_state = family == Some(StateFamily::ObjectStorage) && {
            let get_hash = class_info::method(ce, b"gethash");
            !get_hash.is_null() && (*get_hash).type_ == zend::ZEND_USER_FUNCTION
        };
        let forbids_dynamic = (*ce).ce_flags & zend::ZEND_ACC_NO_DYNAMIC_PROPERTIES != 0;
        let count = zvals::slot_count(ce);
        let hooks = facts.info.userland_hooks;
        let hook = match facts.info.kind {
            graph_codec::ClassKind::Userland if hooks.unserialize => Some(RestoreHook::Unserialize),
            graph_codec::ClassKind::Userland if hooks.wakeup => Some(RestoreHook::Wakeup),
            _ => None,
        };
        let mut class = ShapeClass {
            ce,
            facts,
            slots: Vec::with_capacity(stored.properties.len()),
            accepted: vec![ptr::null_mut(); stored.properties.len()],
            by_name: std::cell::OnceCell::new(),
            allows_dynamic,
            no_declared_slots: count == 0,
            forbids_dynamic,
            clonable,
            plain,
            userland_state,
            hook,
        };
        for k in 0..stored.properties.len() {
            let name = stored.property_name(k);
            // The class as stored: the property sits in the slot of the same index.
            let same = (k < count)
                .then(|| zvals::slot_info(ce, k))
                .filter(|info| !info.is_null() && zend::zstr_bytes((**info).name) == name);
            let target = match same.map(|_| k).or_else(|| class.slot_named(name)) {
                Some(slot) => SlotTarget::Declared { slot, info: zvals::slot_info(ce, slot) },
                None if allows_dynamic => SlotTarget::Dynamic,
                None => SlotTarget::Dropped,
            };
            class.slots.push(target);
        }
        Ok(class)
    }
}

/// Classes whose facts this thread read last ([`request_facts`]): (request, class, facts).
type FactsMemo = [Option<(u64, *mut zend_class_entry, ClassFacts)>; 4];

thread_local! {
    static FACTS: std::cell::Cell<FactsMemo> = const { std::cell::Cell::new([None; 4]) };
}

/// [`class_info::facts`] of `ce`, read once per request (`request`, not 0) for the last few classes:
/// the first read of each key's version resolves its classes again, and a class entry's facts do not
/// change while it lives, which is the request for a user class (a pointer of an earlier request may
/// name another class now, hence the request in the key).
///
/// # Safety
/// `ce` must be a live, linked class entry.
unsafe fn request_facts(ce: *mut zend_class_entry, request: u64) -> ClassFacts {
    let mut memo = FACTS.get();
    if let Some(&(_, _, facts)) =
        memo.iter().flatten().find(|(r, c, _)| request != 0 && *r == request && ptr::eq(*c, ce))
    {
        return facts;
    }
    // SAFETY: the caller's.
    let facts = unsafe { class_info::facts(ce) };
    if request != 0 {
        memo.rotate_right(1);
        memo[0] = Some((request, ce, facts));
        FACTS.set(memo);
    }
    facts
}

impl ShapeClass {
    /// The declared slot of the mangled property `name`: the slot of that name, else the slot of a
    /// property whose visibility changed since the value was stored (`unserialize()`'s rule, §6.5).
    fn slot_named(&self, name: &[u8]) -> Option<usize> {
        let by_name = self.by_name.get_or_init(|| {
            // SAFETY: a class resolved in this request; its slot infos name every declared slot.
            unsafe {
                (0..zvals::slot_count(self.ce))
                    .filter_map(|slot| {
                        let info = zvals::slot_info(self.ce, slot);
                        (!info.is_null()).then(|| (Box::from(zend::zstr_bytes((*info).name)), slot))
                    })
                    .collect()
            }
        });
        by_name.get(name).copied().or_else(|| {
            // SAFETY: a class resolved in this request; property infos live as long as it.
            let info = unsafe { self.redeclared(name) }?;
            // SAFETY: as above.
            by_name.get(unsafe { zend::zstr_bytes((*info).name) }).copied()
        })
    }

    /// The non-static property that a stored property `name` (mangled) of another visibility now is, as
    /// `unserialize()` finds it: a public name, or a protected one or a private one of this very class
    /// (the class name compared case-insensitively), looked up unmangled among the class's properties.
    /// A parent's private property stays the parent's.
    ///
    /// # Safety
    /// `self.ce` must be live.
    unsafe fn redeclared(&self, name: &[u8]) -> Option<*mut zend_property_info> {
        let unmangled = match name {
            [0, rest @ ..] => {
                let end = rest.iter().position(|&b| b == 0)?;
                let (class, property) = (&rest[..end], &rest[end + 1..]);
                // SAFETY: caller guarantees a live class.
                let own = unsafe { zend::zstr_bytes((*self.ce).name) };
                (class == b"*" || class.eq_ignore_ascii_case(own)).then_some(property)?
            }
            public => public,
        };
        // SAFETY: as above.
        let info = unsafe { class_info::property_named(self.ce, unmangled) };
        // SAFETY: a property info of a live class.
        (!info.is_null() && unsafe { (*info).flags } & zend::ZEND_ACC_STATIC == 0).then_some(info)
    }
}

/// The declared slot and the value of a ready cell its property takes as it is (untyped, or the value's
/// type in the declared mask): the usual case, which [`write_new_slot`] writes without the checks of
/// [`write_slot`]. `None` for the others (an uninitialized property, a value the engine would coerce or
/// check against a class, a slot that is not declared).
///
/// # Safety
/// A declared target's info must be live (or null).
#[inline(always)]
unsafe fn taken_as_is(cell: &Cell, target: SlotTarget) -> Option<(usize, zvals::Ready)> {
    let (Cell::Ready(ready), SlotTarget::Declared { slot, info }) = (cell, target) else { return None };
    let (type_info, _) = ready.bits();
    // SAFETY: as above.
    (type_info != IS_UNDEF && unsafe { takes_as_is(info, type_info & 0xff) }).then_some((slot, *ready))
}

/// Whether the property of `info` (null: none) takes a value of type `type_code` as it is: untyped, or
/// the type in its declared mask (the engine's own fast path; otherwise a class type to check, or a
/// scalar the engine may coerce).
///
/// # Safety
/// `info` must be live or null.
#[inline(always)]
unsafe fn takes_as_is(info: *mut zend_property_info, type_code: u32) -> bool {
    // SAFETY: as above.
    let mask = if info.is_null() { 0 } else { unsafe { (*info).type_.type_mask } };
    mask & zvals::TYPE_MASK == 0 || mask & (1 << type_code) != 0
}

/// Writes the owned `value` into declared slot `slot` of an object made by this run, releasing the
/// default the object was made with.
///
/// # Safety
/// `slot` must index a declared slot of `obj`'s class, and the property must take `value` as it is.
#[inline(always)]
unsafe fn write_new_slot(obj: *mut zend_object, slot: usize, value: zval) {
    // SAFETY: as above.
    unsafe {
        let target = zvals::property_slot(obj, slot);
        if zvals::is_refcounted(target) {
            ffi::zval_ptr_dtor(target);
        }
        ptr::write(target, value);
        (*target).u2.extra = 0;
    }
}

/// Writes `value` into declared slot `slot` (`None` leaves it unset), checking the declared type as
/// `unserialize()` does and registering a reference with its typed property.
///
/// # Safety
/// `obj` must be a live object whose class declares slot `slot`, described by `info` (or null).
unsafe fn write_slot(
    obj: *mut zend_object,
    slot: usize,
    info: *mut zend_property_info,
    value: Option<zval>,
    coerced: &mut bool,
) -> Result<(), DecodeError> {
    // SAFETY: caller guarantees the slot exists; the old value is taken out (owned) before the new one
    // is moved in, and dropped after; the object's property table, when built, is live and its own.
    unsafe {
        let target = zvals::property_slot(obj, slot);
        let typed = zvals::is_typed(info);
        let old = ptr::read(target);
        match value {
            None => {
                // A typed property stays uninitialized (read: an Error, as after `unserialize()`); an
                // untyped one is unset (read: `__get`).
                (*target).u1.type_info = IS_UNDEF;
                (*target).u2.extra = if typed { PROP_UNINIT } else { 0 };
                // A property table built already (a stored property turned dynamic) counts the slot
                // until told that one of its entries may be empty, as `unset()` tells it.
                let table = (*obj).properties;
                if !table.is_null() {
                    (*table).u.flags |= HASH_FLAG_HAS_EMPTY_IND;
                }
            }
            Some(mut value) => {
                if typed {
                    let checked = zend::deref(&raw mut value);
                    if !takes_as_is(info, zend::type_of(checked)) {
                        // A class type, or a scalar the engine may coerce (an int into a float).
                        let before = zvals::value_bits(checked);
                        if !ffi::zend_verify_property_type(info, checked, true) {
                            // An object of a class not declared yet (made `__PHP_Incomplete_Class`) fails
                            // the class type it will meet once that class is: the value needs a class,
                            // it is not broken.
                            let incomplete = zend::type_of(checked) == IS_OBJECT
                                && class_lookup::incomplete_class() == Some((*(*checked).value.obj).ce);
                            ptr::write(target, old);
                            zvals::clear_exception();
                            return Err(if incomplete { DecodeError::ClassMissing } else { DecodeError::Undecodable });
                        }
                        *coerced |= before != zvals::value_bits(checked);
                    }
                    if zvals::type_of(&value) == IS_REFERENCE {
                        ffi::zend_ref_add_type_source(&raw mut (*value.value.ref_).sources, info);
                    }
                }
                ptr::write(target, value);
                (*target).u2.extra = 0;
            }
        }
        drop(old);
        Ok(())
    }
}
