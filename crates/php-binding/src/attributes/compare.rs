//! Has a static changed since it was restored? Comparisons that run no userland code:
//! * `Structural` (end-of-request dirty detection, §16.6): the live value against what was restored;
//!   objects are compared by class and property table, with identity kept consistent, and objects of
//!   internal classes by their encoded state. What was restored is either an independent copy, or the
//!   restored value itself as [`Recorded`] kept it: a shallow copy of each root plus, for every object
//!   it held, a copy of the object's property slots. Holding those copies makes the engine separate
//!   any array or property table the request writes (copy on write), so an untouched value is
//!   recognised by identity alone ([`identical`], [`Recorded::untouched`]): the check of a request that
//!   changed nothing costs one comparison per root and per object slot, nothing per array element or
//!   string byte, and copies nothing at restore. A value made from a blueprint whose cells tell what
//!   every slot holds is not copied at all: its objects are held and compared with the cells
//!   ([`Planned`]). An object with no dynamic property and either no declared slot (a
//!   `DateTimeImmutable`) or only initialized readonly slots of a final class is only marked: it can
//!   change only by gaining a dynamic property, or by `array_walk()`, which writes readonly slots too
//!   and leaves them references (what its slots hold is compared too).
//!   Objects of internal classes are recorded only when no method changes them (`DateTimeImmutable`,
//!   `DateTimeZone`); a value holding others is compared against an independent copy.
//! * `Identity` (exact mode's root-write detection): the live value against a copy taken at the last
//!   publication; arrays by content, objects by handle, so writes inside objects do not count.

use std::any::Any;
use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use foldhash::{HashMap, HashSet, HashSetExt};

use ext_php_rs::ffi::{
    self, zend_object, zval, HashTable, IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_INDIRECT, IS_LONG, IS_NULL, IS_OBJECT,
    IS_STRING, IS_TRUE, IS_UNDEF,
};

use super::engine::Bailout;
use crate::blueprint::{Blueprint, Cell, ObjectLink, PlainCells, Run, SlotImage, SlotMask};
use crate::class_info;
use crate::zend;
use crate::zval_in::{self, Bound};
use crate::zvals;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum How {
    Structural,
    Identity,
}

/// Whether `live` and `before` hold the same value under `how`.
///
/// # Safety
/// Both must be live zvals, during a request.
pub unsafe fn same(live: *mut zval, before: *mut zval, how: How) -> bool {
    // SAFETY: as above.
    unsafe { walk(&[(live, before)], how, None) }
}

/// Whether each live value of `pairs` holds the same value as the one it is paired with, under `how`,
/// compared together: an object one pair's value shares with another's (two statics of one unit) is
/// paired once for all of them.
///
/// # Safety
/// As [`same`], for every pair.
pub unsafe fn all_same(pairs: &[(*mut zval, *mut zval)], how: How) -> bool {
    // SAFETY: as above.
    unsafe { walk(pairs, how, None) }
}

/// As [`all_same`] (`Structural`), against the values as `recorded` recorded the objects they held; each
/// `before` is a root copy kept with the record.
///
/// # Safety
/// As [`same`], for every pair.
pub unsafe fn all_same_as_recorded(pairs: &[(*mut zval, *mut zval)], recorded: &Recorded) -> bool {
    // SAFETY: as above.
    unsafe {
        match &recorded.planned {
            // What the record would have copied, made from the cells for this comparison only.
            Some(planned) => {
                let copied = planned.as_copied();
                let same = walk(pairs, How::Structural, Some(&copied));
                copied.release_at_request_end();
                same
            }
            None => walk(pairs, How::Structural, Some(recorded)),
        }
    }
}

/// # Safety
/// As [`same`], for every pair.
unsafe fn walk(roots: &[(*mut zval, *mut zval)], how: How, recorded: Option<&Recorded>) -> bool {
    // The very same value (a root still holding what it was restored or published with) is the same
    // under `Identity`, whatever it holds: no walk.
    // SAFETY: caller guarantees live zvals.
    let unchanged = |&(live, before): &(*mut zval, *mut zval)| unsafe {
        how == How::Identity && identical(zend::deref(live), zend::deref(before))
    };
    let mut pending: Vec<(*mut zval, *mut zval)> = roots.iter().filter(|pair| !unchanged(pair)).copied().collect();
    let mut objects = Pairing::default();
    while let Some((a, b)) = pending.pop() {
        // SAFETY: every pair pushed comes from live values reachable from the roots, or from the
        // record, which holds what it refers to.
        if !unsafe { step(a, b, how, recorded, &mut pending, &mut objects) } {
            return false;
        }
    }
    true
}

/// Compares one pair, pushing the pairs of children still to compare.
///
/// # Safety
/// As [`same`].
unsafe fn step(
    a: *mut zval,
    b: *mut zval,
    how: How,
    recorded: Option<&Recorded>,
    pending: &mut Vec<(*mut zval, *mut zval)>,
    objects: &mut Pairing,
) -> bool {
    // SAFETY: caller guarantees live zvals; union members are read according to the type byte.
    unsafe {
        let (a, b) = (zend::deref(a), zend::deref(b));
        let t = zend::type_of(a);
        if t != zend::type_of(b) {
            return false;
        }
        match t {
            IS_UNDEF | IS_NULL | IS_FALSE | IS_TRUE => true,
            IS_LONG => (*a).value.lval == (*b).value.lval,
            IS_DOUBLE => (*a).value.dval.to_bits() == (*b).value.dval.to_bits(),
            IS_STRING => zend::str_bytes(a) == zend::str_bytes(b),
            IS_ARRAY => arrays((*a).value.arr, (*b).value.arr, recorded.is_some(), pending),
            IS_OBJECT => {
                let (oa, ob) = ((*a).value.obj, (*b).value.obj);
                if recorded.is_some_and(|r| r.leaf_changed(ob)) {
                    return false;
                }
                // A recorded object is shared with the live value: its state then is in the record.
                let then = recorded.and_then(|r| r.find(ob).map(|t| (t, r)));
                if oa == ob && then.is_none() {
                    // A leaf with slots (readonly, unchanged since recorded) may hold recorded objects:
                    // each is compared with itself, once. A leaf is paired too: met again against
                    // another object, or another object met against it, is a difference.
                    if recorded.is_some_and(|r| r.is_leaf(ob)) {
                        if let Some(same) = objects.pair(oa, ob) {
                            return same;
                        }
                        for i in 0..zvals::slot_count((*ob).ce) {
                            let slot = zvals::property_slot(ob, i);
                            pending.push((slot, slot));
                        }
                    }
                    return true;
                }
                if how == How::Identity || class_info::is_enum((*oa).ce) {
                    return oa == ob;
                }
                if let Some(same) = objects.pair(oa, ob) {
                    return same;
                }
                match then {
                    Some((then, recorded)) => recorded_equal(oa, then, recorded.slots_of(then), pending),
                    None => objects_equal(oa, ob, a, b, pending),
                }
            }
            // Resources, closures' internals and the like never come out of the cache.
            _ => false,
        }
    }
}

/// The objects a structural comparison has paired: each live object with the one it is compared
/// against, one to one both ways, so that an object two places share, split into two equal objects, or
/// two equal objects merged into one, is a difference (identity kept consistent, §16.6).
#[derive(Default)]
struct Pairing {
    of_live: HashMap<*mut zend_object, *mut zend_object>,
    taken: HashSet<*mut zend_object>,
}

impl Pairing {
    /// Pairs `live` with `then`: `None` when neither was paired yet (their contents are to be compared),
    /// else whether `live` was paired with `then` itself.
    fn pair(&mut self, live: *mut zend_object, then: *mut zend_object) -> Option<bool> {
        if let Some(&seen) = self.of_live.get(&live) {
            return Some(seen == then);
        }
        if !self.taken.insert(then) {
            return Some(false);
        }
        self.of_live.insert(live, then);
        None
    }
}

/// `shared_objects`: the objects the arrays hold are shared with the value compared against (a
/// record), so one array, unchanged itself, may hold objects changed since: its elements are compared
/// then too (each with itself, which looks only at objects).
///
/// # Safety
/// Both must be live arrays.
unsafe fn arrays(
    a: *mut HashTable,
    b: *mut HashTable,
    shared_objects: bool,
    pending: &mut Vec<(*mut zval, *mut zval)>,
) -> bool {
    // SAFETY: caller guarantees live arrays; they are not modified while walked.
    unsafe {
        if a == b {
            // Engine-immutable arrays hold no object.
            if shared_objects && !immutable_array(a) {
                pending.extend(zvals::entries(a).map(|(_, v)| (v, v)));
            }
            return true;
        }
        if zend::array_len(a) != zend::array_len(b) {
            return false;
        }
        let mut left = zvals::entries(a);
        let mut right = zvals::entries(b);
        loop {
            match (left.next(), right.next()) {
                (None, None) => return true,
                (Some((ka, va)), Some((kb, vb))) if ka == kb => pending.push((va, vb)),
                _ => return false,
            }
        }
    }
}

/// # Safety
/// Both must be live objects of any class; `za`/`zb` zvals holding them.
unsafe fn objects_equal(
    a: *mut zend_object,
    b: *mut zend_object,
    za: *mut zval,
    zb: *mut zval,
    pending: &mut Vec<(*mut zval, *mut zval)>,
) -> bool {
    // SAFETY: caller guarantees live objects; slots and property tables are read, never written.
    unsafe {
        let ce = (*a).ce;
        if ce != (*b).ce {
            return false;
        }
        if !plain(ce) {
            // Internal state is opaque here: compare what the encoder makes of it.
            return match (zval_in::encode(za, Bound::NONE), zval_in::encode(zb, Bound::NONE)) {
                (Ok(x), Ok(y)) => x.tag == y.tag && x.bytes == y.bytes,
                _ => {
                    zvals::clear_exception();
                    false
                }
            };
        }
        for i in 0..zvals::slot_count(ce) {
            pending.push((zvals::property_slot(a, i), zvals::property_slot(b, i)));
        }
        same_dynamic((*a).properties, (*b).properties, pending)
    }
}

/// Dynamic properties (the non-`IS_INDIRECT` entries of a property table, either possibly null). The
/// same table on both sides (one a record holds) is different when it was written in place.
///
/// # Safety
/// Both must be null or live property tables.
unsafe fn same_dynamic(a: *mut HashTable, b: *mut HashTable, pending: &mut Vec<(*mut zval, *mut zval)>) -> bool {
    // SAFETY: as above.
    unsafe {
        if a == b && written_in_place(a) {
            return false;
        }
        let (da, db) = (dynamic(a), dynamic(b));
        if da.len() != db.len() {
            return false;
        }
        for ((ka, va), (kb, vb)) in da.into_iter().zip(db) {
            if ka != kb {
                return false;
            }
            pending.push((va, vb));
        }
        true
    }
}

/// # Safety
/// `ht` must be null or a live property table.
unsafe fn dynamic<'a>(ht: *mut HashTable) -> Vec<(zvals::Key<'a>, *mut zval)> {
    // SAFETY: as above.
    unsafe { dynamic_values(ht).collect() }
}

/// The dynamic properties of a property table (null: none), without collecting them.
///
/// # Safety
/// `ht` must be null or a live property table, not modified while iterated.
unsafe fn dynamic_values<'a>(ht: *mut HashTable) -> impl Iterator<Item = (zvals::Key<'a>, *mut zval)> {
    // SAFETY: as above.
    let entries = (!ht.is_null()).then(|| unsafe { zvals::entries(ht) });
    // SAFETY: entries of a live table are live zvals.
    entries.into_iter().flatten().filter(|(_, v)| unsafe { zend::type_of(*v) } != IS_INDIRECT)
}

/// A private array of the dynamic properties of property table `table` (null: none, or none there), each
/// value holding a reference of its own, so that a write to one separates it from the copy.
///
/// # Safety
/// `table` must be null or a live property table, during a request.
unsafe fn dynamic_copy(table: *mut HashTable) -> *mut HashTable {
    // SAFETY: as above; the copy is a fresh array only this function writes.
    unsafe {
        let count = dynamic_values(table).count();
        if count == 0 {
            return std::ptr::null_mut();
        }
        let copy = std::mem::ManuallyDrop::new(zvals::new_array(count, false));
        let ht = copy.value.arr;
        for (key, value) in zvals::raw_entries(table).filter(|(_, v)| zend::type_of(*v) != IS_INDIRECT) {
            match key {
                zvals::RawKey::Str(name) => zvals::insert_zstr(ht, name, zvals::copy(value)),
                zvals::RawKey::Int(i) => zvals::insert_int(ht, i, zvals::copy(value)),
            }
        }
        ht
    }
}

/// Whether the dynamic properties of property table `live` (null: none) are, in order, those `copy`
/// ([`dynamic_copy`]) holds: the same names and the very same values ([`identical`]; the copy's own
/// references make the engine separate any array or string written since).
///
/// # Safety
/// `live` must be null or a live property table; `copy` a live array.
unsafe fn dynamic_as_copied(live: *mut HashTable, copy: *mut HashTable) -> bool {
    // SAFETY: as above.
    unsafe {
        let mut recorded = zvals::entries(copy);
        for (key, value) in dynamic_values(live) {
            match recorded.next() {
                Some((k, v)) if k == key && identical(value, v) => {}
                _ => return false,
            }
        }
        recorded.next().is_none()
    }
}

/// Whether a property table a record holds (null: none) was written in place since: it holds a PHP
/// reference among its dynamic properties. The engine separates a shared property table before it
/// writes a property, but `array_walk()` on an object walks the object's own table and turns each
/// element it passes to the callback into a reference where it is, so the table the record holds
/// changes with the live one; a recorded value held no reference (`Recorded::record`, `captured`).
///
/// # Safety
/// `ht` must be null or a live property table.
unsafe fn written_in_place(ht: *mut HashTable) -> bool {
    // SAFETY: as above.
    unsafe { dynamic_values(ht).any(|(_, v)| zend::type_of(v) == ffi::IS_REFERENCE) }
}

/// Whether a leaf ([`Recorded::leaves`]) still holds what it held when recorded: no dynamic property,
/// and no slot turned into a reference. Its slots, readonly ones of a final class, are rewritten only
/// by `array_walk()`, which first builds the object's property table and makes each slot a reference
/// where it is (readonly or not); without a table, nothing is read.
///
/// # Safety
/// `obj` must be a live object.
#[inline(always)]
unsafe fn leaf_unchanged(obj: *mut zend_object) -> bool {
    // SAFETY: as above; the object has its class's slot count of slots.
    unsafe {
        let table = (*obj).properties;
        table.is_null()
            || (no_dynamic(table)
                && (0..zvals::slot_count((*obj).ce))
                    .all(|i| zend::type_of(zvals::property_slot(obj, i)) != ffi::IS_REFERENCE))
    }
}

/// Whether a property table (null: none) holds no dynamic property; without a table, read nothing.
///
/// # Safety
/// `ht` must be null or a live property table.
#[inline(always)]
unsafe fn no_dynamic(ht: *mut HashTable) -> bool {
    // SAFETY: as above.
    ht.is_null() || unsafe { dynamic_values(ht).next().is_none() }
}

/// The live object `a` against an object's recorded state.
///
/// # Safety
/// `a` must be a live object.
unsafe fn recorded_equal(
    a: *mut zend_object,
    then: &RecordedObject,
    slots: &[zval],
    pending: &mut Vec<(*mut zval, *mut zval)>,
) -> bool {
    // SAFETY: as above; the record's copies are only read.
    unsafe {
        let same_object = std::ptr::eq(a, then.object);
        if (*a).ce != then.ce || !(plain((*a).ce) || (same_object && immutable_internal((*a).ce))) {
            return false;
        }
        for (i, slot) in slots.iter().enumerate() {
            pending.push((zvals::property_slot(a, i), (&raw const *slot).cast_mut()));
        }
        same_dynamic((*a).properties, then.dynamic, pending)
    }
}

/// Objects of internal classes whose internal state no method changes: `DateTimeImmutable` and
/// `DateTimeZone` (and their userland subclasses, whose own properties are in the property table).
/// Only calling `__construct()`, `__unserialize()` or `__wakeup()` again, by hand, on an existing object
/// would change one; that is not looked for.
///
/// # Safety
/// `ce` must be a live class.
unsafe fn immutable_internal(ce: *mut ffi::zend_class_entry) -> bool {
    // SAFETY: as above; parents of a linked class are live.
    unsafe {
        let mut base = ce;
        while !base.is_null() && (*base).type_ == zend::ZEND_USER_CLASS {
            base = (*base).__bindgen_anon_1.parent;
        }
        !base.is_null()
            && [&b"datetimeimmutable"[..], b"datetimezone"]
                .iter()
                .any(|name| zend::zstr_bytes((*base).name).eq_ignore_ascii_case(name))
    }
}

/// Objects whose whole state is their property table: `stdClass` and user classes without a native
/// object constructor.
///
/// # Safety
/// `ce` must be a live class.
unsafe fn plain(ce: *mut ffi::zend_class_entry) -> bool {
    // SAFETY: as above.
    unsafe {
        std::ptr::eq(ce, ffi::zend_standard_class_def)
            || ((*ce).type_ == zend::ZEND_USER_CLASS && (*ce).__bindgen_anon_2.create_object.is_none())
    }
}

/// Whether two zvals hold the very same value: same type and, for values with a pointer, the same
/// pointer (scalars by value).
///
/// # Safety
/// Both must be live zvals.
pub unsafe fn identical(a: *const zval, b: *const zval) -> bool {
    // SAFETY: as above; the value union is read as its raw 64 bits, which identify it for every type
    // that has a value.
    unsafe {
        let t = zend::type_of(a);
        t == zend::type_of(b) && (!zvals::has_value_bits(t) || (*a).value.lval == (*b).value.lval)
    }
}

/// One object of a restored value as it was restored: held, with copies of its slots (in
/// [`Recorded::slots`]) and its property table (held too). Plain pointers, each owning the reference
/// taken at record ([`Recorded::release_at_request_end`] gives them back).
struct RecordedObject {
    ce: *mut ffi::zend_class_entry,
    object: *mut zend_object,
    /// Where its slot copies start in [`Recorded::slots`]; they are `ce`'s slot count long.
    first_slot: usize,
    /// Its dynamic properties as recorded (null: none): the property table itself, held, for an
    /// object without declared slots; otherwise a private copy of them ([`dynamic_copy`]).
    dynamic: *mut HashTable,
}

/// The objects a restored value holds, as they were restored (module comment). Flat: recording and
/// the check of an untouched value hash nothing and allocate nothing per object; the vectors of the
/// last record released at request end are reused by the next.
#[derive(Default)]
pub struct Recorded {
    objects: Vec<RecordedObject>,
    /// The slot copies of every recorded object, one run per object.
    slots: Vec<zval>,
    /// The positions in `slots` of the copies that hold a reference (refcounted values): the only ones
    /// release gives something back for.
    held: Vec<u32>,
    /// Objects recorded without a copy of anything: no dynamic property and no declared slot
    /// (`DateTimeImmutable`, empty `stdClass`) or only initialized readonly ones of a final class
    /// ([`ObjectKind::Frozen`]), so that gaining a dynamic property, or `array_walk()` making a slot a
    /// reference, are the ways they change ([`leaf_unchanged`]). Not held: whatever holds them in the
    /// restored value is held by the record or by the roots' copies, so they live as long as the
    /// record.
    leaves: Vec<*mut zend_object>,
    /// Position + 1 in `objects` per object handle ([`LEAF`]: in `leaves`; 0: not recorded), built
    /// the first time a structural comparison asks (a request that changed nothing never does).
    /// Handles identify objects while the record lives.
    by_handle: OnceCell<Vec<u32>>,
    /// A value the read path made from a blueprint whose cells tell what each object holds: its objects
    /// are checked against the cells, and nothing above is filled.
    /// Boxed: a record moves several times between its arming and its release, and a smaller one moves
    /// without a call to `memcpy`.
    planned: Option<Box<Planned>>,
}

/// The objects the read path made for a restore from a blueprint with plain cells
/// ([`Blueprint::plain_cells`]), held, in the blueprint's order, each with its stored declared
/// properties in the slots of the same index: at request end each one's slots are compared with what
/// the cells wrote there (a ready value: the same type and value bits, so the same string or array
/// pointer; an object: the same object of the run). Restoring copies nothing then. The values compared
/// are engine-immutable or kept by the blueprint, and the objects are held, so no slot can hold another
/// value at the same address, nor a value changed in place.
struct Planned {
    /// Keeps the blueprint alive.
    _keeper: Rc<dyn Any>,
    blueprint: *const Blueprint,
    /// Per shape of the blueprint, its class this request.
    classes: Vec<*mut ffi::zend_class_entry>,
    /// One owning zval per object of the blueprint.
    made: Vec<zval>,
}

impl Planned {
    /// Whether every object still holds in each slot the value its cell wrote there, and no dynamic
    /// property (it had none).
    ///
    /// # Safety
    /// During the request that made the objects.
    unsafe fn untouched(&self) -> bool {
        // SAFETY: the keeper keeps the blueprint alive; the objects are held, hence live, and have one
        // slot per declared cell (`captured_planned`); a link's slot was found to hold an object.
        unsafe {
            let bp = &*self.blueprint;
            let Some(plain) = bp.plain_cells() else { return false };
            let made = &self.made[..];
            // `plain_cells` names objects of the blueprint only (runs, `bare`, `links`), with `len`
            // images and masks each (`PlainCells::runs`): with one made object per object of the
            // blueprint, every index below is in bounds, which is checked here once rather than per
            // object.
            if made.len() != bp.objects.len() {
                return false;
            }
            let obj = |i: u32| made.get_unchecked(i as usize).value.obj;
            // The differences of every object are gathered, and looked at once; so are their
            // property tables: usually no object has one at all, and only otherwise are the tables
            // looked into. The runs whose every object holds one object of the run in the same slot
            // (an entity's date, say) compare that link in the same pass ([`LinkPlan`]).
            let links_of = link_plan(&self._keeper, self.blueprint, plain, made.len());
            let (mut diff, mut tables) = ([0u64; 2], 0usize);
            let wide = wide_vectors();
            for (run, link) in plain.runs().zip(links_of.runs.iter()) {
                let (d, t) = match link {
                    Some(links) => {
                        let link = RunLink { slot: links.slot as usize, targets: links.targets.as_ptr() };
                        if wide {
                            run_differs_wide::<true>(made.as_ptr(), &run, link)
                        } else {
                            run_differs::<true>(made.as_ptr(), &run, link)
                        }
                    }
                    None if wide => run_differs_wide::<false>(made.as_ptr(), &run, RunLink::NONE),
                    None => run_differs::<false>(made.as_ptr(), &run, RunLink::NONE),
                };
                diff = [diff[0] | d[0], diff[1] | d[1]];
                tables |= t;
            }
            tables |= plain.bare.iter().fold(0usize, |any, &i| any | (*obj(i)).properties as usize);
            // The other links: each slot holds an object (its type is in the image), compared by
            // address; the target's property table is looked at here (`PlainCells::bare`).
            let (links, targets) = links_of.rest.iter().fold((0usize, 0usize), |(any, tables), link| {
                let live = (*zvals::property_slot(obj(link.object), link.slot as usize)).value.obj;
                let target = obj(link.target);
                (any | (live as usize ^ target as usize), tables | (*target).properties as usize)
            });
            tables |= targets;
            diff == [0, 0] && links == 0 && (tables == 0 || made.iter().all(|z| no_dynamic((*z.value.obj).properties)))
        }
    }

    /// The record [`Recorded::record_made`] would have made of these objects at restore, with the
    /// slot copies made from the cells: for a structural comparison, which needs each object's state
    /// then. The caller releases it.
    ///
    /// # Safety
    /// As [`Planned::untouched`].
    unsafe fn as_copied(&self) -> Recorded {
        let mut copied = Recorded::new();
        let mut image: Vec<zval> = Vec::new();
        // SAFETY: as above.
        unsafe {
            let bp = &*self.blueprint;
            for (z, plan) in self.made.iter().zip(&bp.objects) {
                let obj = z.value.obj;
                let (Some(&ce), Some(cells)) =
                    (self.classes.get(plan.shape as usize), bp.cells.get(plan.declared.range()))
                else {
                    continue;
                };
                if cells.is_empty() {
                    copied.leaves.push(obj);
                    continue;
                }
                image.clear();
                image.extend(cells.iter().map(|cell| {
                    let mut at = zval::new();
                    match cell {
                        Cell::Ready(ready) => ready.write(&raw mut at),
                        Cell::Object(j) => {
                            if let Some(o) = self.made.get(*j as usize) {
                                at.value.obj = o.value.obj;
                                at.u1.type_info = zvals::IS_OBJECT_EX;
                            }
                        }
                        _ => {}
                    }
                    at
                }));
                copied.hold_from(obj, ce, image.as_ptr(), image.len(), std::ptr::null_mut());
                // The copies own nothing: `hold_from` took the references the record's copies hold.
                image.iter_mut().for_each(|z| z.u1.type_info = IS_NULL);
            }
        }
        copied
    }

    /// Once [`Recorded::give_back_from`] has given back every reference to the objects: lets go of the
    /// rest (the blueprint), keeping the vector of objects and the box for the next planned record.
    fn released(mut planned: Box<Self>) {
        // SAFETY: every reference is given back: no zval may have its drop run.
        unsafe { planned.made.set_len(0) };
        keep_made(std::mem::take(&mut planned.made));
        keep_classes(std::mem::take(&mut planned.classes));
        let raw = Box::into_raw(planned);
        // SAFETY: `raw` owns a live `Planned`, dropped here once; its allocation then holds an
        // uninitialised one, as a box of `MaybeUninit<Planned>` owns it.
        let spare = unsafe {
            std::ptr::drop_in_place(raw);
            Box::from_raw(raw.cast::<std::mem::MaybeUninit<Planned>>())
        };
        SPARE_PLANNED.set(Some(spare));
    }

    /// `self` in a box, the one the last planned record released if there is one.
    fn boxed(self) -> Box<Self> {
        match SPARE_PLANNED.take() {
            Some(spare) => Box::write(spare, self),
            None => Box::new(self),
        }
    }

    /// After a request whose end never ran: the objects are gone with its heap, and are not touched.
    fn abandon(mut self) {
        // SAFETY: the zvals refer to the gone heap: none may have its drop run.
        unsafe { self.made.set_len(0) };
        keep_made(std::mem::take(&mut self.made));
        keep_classes(std::mem::take(&mut self.classes));
    }
}

/// How [`Planned::untouched`] compares the links of a blueprint's plain cells ([`PlainCells::links`]):
/// a run ([`PlainCells::runs`]) whose every object holds exactly one object of the blueprint, in the
/// same slot, has it compared in the run's own pass ([`RunLink`]); the other links one by one.
/// Made once per blueprint ([`link_plan`]).
struct LinkPlan {
    /// Per run, in order: its link, if it has one of that kind.
    runs: Box<[Option<RunLinks>]>,
    /// The links of the objects of the other runs.
    rest: Box<[ObjectLink]>,
}

/// The link every object of a run holds in the same slot.
struct RunLinks {
    slot: u32,
    /// Per object of the run, the index of the object it holds there.
    targets: Box<[u32]>,
}

impl LinkPlan {
    /// The plan of `plain`, cells of a blueprint of `objects` objects.
    fn new(plain: &PlainCells, objects: usize) -> LinkPlan {
        // Per object: how many links it has, and its last one.
        let mut count = vec![0u32; objects];
        let mut one = vec![(0u32, 0u32); objects];
        for link in plain.links.iter() {
            if let (Some(c), Some(o)) = (count.get_mut(link.object as usize), one.get_mut(link.object as usize)) {
                *c += 1;
                *o = (link.slot, link.target);
            }
        }
        let mut fused = vec![false; objects];
        let runs = plain
            .runs()
            .map(|run| {
                let &first = run.objects.first()?;
                let slot = one.get(first as usize)?.0;
                let fits = |i: u32| {
                    count.get(i as usize) == Some(&1)
                        && one.get(i as usize).is_some_and(|&(s, t)| s == slot && (t as usize) < objects)
                };
                if (slot as usize) >= run.len || !run.objects.iter().all(|&i| fits(i)) {
                    return None;
                }
                for &i in run.objects {
                    fused[i as usize] = true;
                }
                Some(RunLinks { slot, targets: run.objects.iter().map(|&i| one[i as usize].1).collect() })
            })
            .collect();
        let rest =
            plain.links.iter().filter(|l| !fused.get(l.object as usize).copied().unwrap_or(false)).copied().collect();
        LinkPlan { runs, rest }
    }
}

/// At most this many blueprints' [`LinkPlan`]s are kept.
const LINK_PLANS: usize = 32;

thread_local! {
    /// The [`LinkPlan`]s made, by blueprint and the keeper that keeps it alive. The keeper is held
    /// weakly: its allocation outlives it, so that no other keeper can come at the same address while
    /// the entry is there, and a live keeper found at that address is the very one the plan was made
    /// for.
    static LINK_PLANS_MADE: RefCell<Vec<MadePlan>> = const { RefCell::new(Vec::new()) };
}

/// One of [`LINK_PLANS_MADE`].
struct MadePlan {
    keeper: std::rc::Weak<dyn Any>,
    blueprint: *const Blueprint,
    plan: Rc<LinkPlan>,
}

/// The [`LinkPlan`] of `plain`, the plain cells of `blueprint` (`objects` objects), which `keeper` keeps
/// alive: made the first time it is asked for.
fn link_plan(keeper: &Rc<dyn Any>, blueprint: *const Blueprint, plain: &PlainCells, objects: usize) -> Rc<LinkPlan> {
    let same = |m: &&MadePlan| {
        std::ptr::addr_eq(m.keeper.as_ptr(), Rc::as_ptr(keeper)) && std::ptr::eq(m.blueprint, blueprint)
    };
    if let Some(plan) = LINK_PLANS_MADE.with_borrow(|made| made.iter().find(same).map(|m| m.plan.clone())) {
        return plan;
    }
    let plan = Rc::new(LinkPlan::new(plain, objects));
    LINK_PLANS_MADE.with_borrow_mut(|made| {
        made.retain(|m| m.keeper.strong_count() != 0);
        if made.len() >= LINK_PLANS {
            made.remove(0);
        }
        made.push(MadePlan { keeper: Rc::downgrade(keeper), blueprint, plan: plan.clone() });
    });
    plan
}

thread_local! {
    /// The emptied vector of a planned record's objects released last (capacity kept): the next planned
    /// record hands it to the read path in exchange for the one it takes ([`captured_planned`]), so that
    /// neither allocates a vector per restore.
    static SPARE_MADE: std::cell::Cell<Vec<zval>> = const { std::cell::Cell::new(Vec::new()) };
    /// The vector of classes of the planned record released last (emptied; see [`spare_classes`]).
    static SPARE_CLASSES: std::cell::Cell<Vec<*mut ffi::zend_class_entry>> = const { std::cell::Cell::new(Vec::new()) };
    /// The box of the planned record released last (see [`Planned::released`]).
    static SPARE_PLANNED: std::cell::Cell<Option<Box<std::mem::MaybeUninit<Planned>>>> =
        const { std::cell::Cell::new(None) };
}

/// Keeps `made` (empty) as [`SPARE_MADE`], unless that holds a larger one or it is beyond [`SPARE_LIMIT`].
fn keep_made(made: Vec<zval>) {
    debug_assert!(made.is_empty());
    if made.capacity() == 0 || made.capacity() > SPARE_LIMIT {
        return;
    }
    SPARE_MADE.with(|spare| {
        let kept = spare.take();
        spare.set(if kept.capacity() >= made.capacity() { kept } else { made });
    });
}

/// An empty vector for the classes of a planned record ([`captured_planned`]): the one the planned
/// record released last left, so that a restore per request allocates none. Give it back with
/// [`keep_classes`] when it is not used.
pub fn spare_classes() -> Vec<*mut ffi::zend_class_entry> {
    SPARE_CLASSES.take()
}

/// Keeps `classes` (emptied) as the next [`spare_classes`], unless it is beyond [`SPARE_LIMIT`].
pub fn keep_classes(mut classes: Vec<*mut ffi::zend_class_entry>) {
    classes.clear();
    if classes.capacity() != 0 && classes.capacity() <= SPARE_LIMIT {
        SPARE_CLASSES.set(classes);
    }
}

/// The bits in which the `image.len()` slots at `live` differ from what `image` and `masks` say (see
/// [`SlotImage`]; none: the same values): one pass with no branch per slot.
///
/// # Safety
/// `live` must point to `image.len()` readable zvals, and `masks` have as many masks as `image`.
#[inline(always)]
unsafe fn image_differs(live: *const zval, image: &[SlotImage], masks: &[SlotMask]) -> [u64; 2] {
    // SAFETY: as above. A zval is two 8-byte words; the masks leave out the bits of them that are not
    // part of the value (`u2`, and a null's or a boolean's value word, which the engine leaves as it
    // was), so what they hold does not matter.
    let live = unsafe { std::slice::from_raw_parts(live.cast::<[u64; 2]>(), image.len()) };
    live.iter().zip(image).zip(masks).fold([0, 0], |diff, ((&x, e), m)| {
        let d = e.differs(m, x);
        [diff[0] | d[0], diff[1] | d[1]]
    })
}

/// `$fixed::<N, $linked>($args)` for a run of N slots, 1 to 12 (the lengths compared in a loop of
/// fixed count), `$other` for a longer run.
macro_rules! by_run_length {
    ($fixed:ident, $linked:ident, $len:expr, ($($arg:expr),*), $other:expr) => {
        match $len {
            1 => $fixed::<1, $linked>($($arg),*),
            2 => $fixed::<2, $linked>($($arg),*),
            3 => $fixed::<3, $linked>($($arg),*),
            4 => $fixed::<4, $linked>($($arg),*),
            5 => $fixed::<5, $linked>($($arg),*),
            6 => $fixed::<6, $linked>($($arg),*),
            7 => $fixed::<7, $linked>($($arg),*),
            8 => $fixed::<8, $linked>($($arg),*),
            9 => $fixed::<9, $linked>($($arg),*),
            10 => $fixed::<10, $linked>($($arg),*),
            11 => $fixed::<11, $linked>($($arg),*),
            12 => $fixed::<12, $linked>($($arg),*),
            _ => $other,
        }
    };
}

/// The link every object of a run holds ([`LinkPlan`]): in slot `slot`, the object of the run at
/// `targets[k]` for the run's `k`-th object. Unused (`LINKED` false) for a run without one.
#[derive(Clone, Copy)]
struct RunLink {
    slot: usize,
    targets: *const u32,
}

impl RunLink {
    const NONE: RunLink = RunLink { slot: 0, targets: std::ptr::null() };

    /// For the `k`-th object of the run, whose slots start at `live`: the bits in which the object its
    /// link slot holds differs from the one it was made with, and that one's property table pointer.
    ///
    /// # Safety
    /// `made` and the run as for [`run_differs`]; `self` made by [`LinkPlan::new`] for that run.
    #[inline(always)]
    unsafe fn differs(self, made: *const zval, live: *const zval, k: usize) -> (usize, usize) {
        // SAFETY: as above: the slot is one of the object's declared slots, the target one of `made`.
        unsafe {
            let held = (*live.add(self.slot)).value.obj;
            let target = (*made.add(*self.targets.add(k) as usize)).value.obj;
            (held as usize ^ target as usize, (*target).properties as usize)
        }
    }
}

/// The bits in which the objects of `run` differ from their images ([`image_differs`]), and their
/// property table pointers or-ed together (0: none has one); `LINKED`: and the objects in the slot of
/// `link`, whose differences are or-ed into the first word, with their targets' property tables.
/// For the usual slot counts the objects are compared in a loop of that fixed count, fully unrolled:
/// the difference of each slot position is gathered over all the objects first and masked once at the
/// end (the masks are the same for every object of the run), so an object costs a load and an `xor`
/// per slot pair and an `or`, hardly anything more.
///
/// # Safety
/// `made` must hold a live object zval at each index `run` names, each object with `run.len` slots;
/// `run` must point to `run.len` masks and `run.len` images per object; `link` as [`RunLink::differs`]
/// when `LINKED`.
#[inline(always)]
unsafe fn run_differs<const LINKED: bool>(made: *const zval, run: &Run<'_>, link: RunLink) -> ([u64; 2], usize) {
    /// # Safety
    /// As [`run_differs`], with `run.len` = `N`.
    #[inline(always)]
    unsafe fn fixed<const N: usize, const LINKED: bool>(
        made: *const zval,
        run: &Run<'_>,
        link: RunLink,
    ) -> ([u64; 2], usize) {
        // SAFETY: as above; a zval, an image and a mask are two 8-byte words each (see
        // `image_differs`), the image's and the mask's those of their only field.
        unsafe {
            let masks = &*run.masks.cast::<[[u64; 2]; N]>();
            let images = run.images.cast::<[[u64; 2]; N]>();
            let mut gathered = [[0u64; 2]; N];
            let (mut links, mut tables) = (0usize, 0usize);
            for (k, &i) in run.objects.iter().enumerate() {
                let obj = (*made.add(i as usize)).value.obj;
                let slots = (*obj).properties_table.as_ptr();
                let live = &*slots.cast::<[[u64; 2]; N]>();
                let image = &*images.add(k);
                for j in 0..N {
                    gathered[j] =
                        [gathered[j][0] | (live[j][0] ^ image[j][0]), gathered[j][1] | (live[j][1] ^ image[j][1])];
                }
                tables |= (*obj).properties as usize;
                if LINKED {
                    let (d, t) = link.differs(made, slots, k);
                    links |= d;
                    tables |= t;
                }
            }
            let diff = gathered
                .iter()
                .zip(masks)
                .fold([links as u64, 0], |diff, (g, m)| [diff[0] | (g[0] & m[0]), diff[1] | (g[1] & m[1])]);
            (diff, tables)
        }
    }
    // SAFETY: as above, for each length.
    unsafe {
        by_run_length!(fixed, LINKED, run.len, (made, run, link), {
            let len = run.len;
            let masks = std::slice::from_raw_parts(run.masks, len);
            run.objects.iter().enumerate().fold(([0, 0], 0), |(diff, tables), (k, &i)| {
                let obj = (*made.add(i as usize)).value.obj;
                let slots = (*obj).properties_table.as_ptr();
                let d = image_differs(slots, std::slice::from_raw_parts(run.images.add(k * len), len), masks);
                let (l, t) = if LINKED { link.differs(made, slots, k) } else { (0, 0) };
                ([diff[0] | d[0] | l as u64, diff[1] | d[1]], tables | (*obj).properties as usize | t)
            })
        })
    }
}

/// [`run_differs`] with 256-bit vectors (AVX2): two neighbouring slots per vector instruction. Only
/// called where the CPU has them ([`wide_vectors`]).
///
/// # Safety
/// As [`run_differs`]; the CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_differs_wide<const LINKED: bool>(made: *const zval, run: &Run<'_>, link: RunLink) -> ([u64; 2], usize) {
    /// # Safety
    /// As [`run_differs_wide`], with `run.len` = `N`.
    #[inline(always)]
    unsafe fn fixed<const N: usize, const LINKED: bool>(
        made: *const zval,
        run: &Run<'_>,
        link: RunLink,
    ) -> ([u64; 2], usize) {
        use std::arch::x86_64::{
            __m128i, __m256i, _mm256_and_si256, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
            _mm256_or_si256, _mm256_setzero_si256, _mm256_xor_si256, _mm_and_si128, _mm_loadu_si128, _mm_or_si128,
            _mm_setzero_si128, _mm_storeu_si128, _mm_xor_si128,
        };
        // SAFETY: as above; a zval, an image and a mask are 16 bytes each (see `image_differs`),
        // read unaligned. At most 6 pairs (12 slots).
        unsafe {
            let masks = run.masks.cast::<__m128i>();
            let mut images = run.images.cast::<__m128i>();
            let mut pairs = [_mm256_setzero_si256(); 6];
            let (mut last, mut links, mut tables) = (_mm_setzero_si128(), 0usize, 0usize);
            for (k, &i) in run.objects.iter().enumerate() {
                let obj = (*made.add(i as usize)).value.obj;
                let slots = (*obj).properties_table.as_ptr();
                let live = slots.cast::<__m128i>();
                let mut j = 0;
                while j + 1 < N {
                    let x = _mm256_loadu_si256(live.add(j).cast());
                    let e = _mm256_loadu_si256(images.add(j).cast());
                    pairs[j / 2] = _mm256_or_si256(pairs[j / 2], _mm256_xor_si256(x, e));
                    j += 2;
                }
                if N % 2 == 1 {
                    let x = _mm_loadu_si128(live.add(N - 1));
                    let e = _mm_loadu_si128(images.add(N - 1));
                    last = _mm_or_si128(last, _mm_xor_si128(x, e));
                }
                tables |= (*obj).properties as usize;
                if LINKED {
                    let (d, t) = link.differs(made, slots, k);
                    links |= d;
                    tables |= t;
                }
                images = images.add(N);
            }
            // The masks, the same for every object, once per slot pair.
            let mut folded: __m256i = _mm256_setzero_si256();
            let mut j = 0;
            while j + 1 < N {
                folded =
                    _mm256_or_si256(folded, _mm256_and_si256(pairs[j / 2], _mm256_loadu_si256(masks.add(j).cast())));
                j += 2;
            }
            if N % 2 == 1 {
                last = _mm_and_si128(last, _mm_loadu_si128(masks.add(N - 1)));
            }
            let folded =
                _mm_or_si128(last, _mm_or_si128(_mm256_castsi256_si128(folded), _mm256_extracti128_si256::<1>(folded)));
            let mut diff = [0u64; 2];
            _mm_storeu_si128(diff.as_mut_ptr().cast(), folded);
            diff[0] |= links as u64;
            (diff, tables)
        }
    }
    // SAFETY: as above, for each length.
    unsafe { by_run_length!(fixed, LINKED, run.len, (made, run, link), run_differs::<LINKED>(made, run, link)) }
}

/// Elsewhere there is no wider pass ([`wide_vectors`] is false).
///
/// # Safety
/// As [`run_differs`].
#[cfg(not(target_arch = "x86_64"))]
unsafe fn run_differs_wide<const LINKED: bool>(made: *const zval, run: &Run<'_>, link: RunLink) -> ([u64; 2], usize) {
    // SAFETY: as above.
    unsafe { run_differs::<LINKED>(made, run, link) }
}

/// Whether [`run_differs_wide`] can run here (the standard library caches the CPU's answer).
#[inline(always)]
fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the objects of class `ce` are described by their declared slots (and dynamic properties)
/// alone, as a [`Planned`] record needs.
///
/// # Safety
/// `ce` must be a live class.
pub unsafe fn plannable_class(ce: *mut ffi::zend_class_entry) -> bool {
    // SAFETY: as above.
    matches!(unsafe { ObjectKind::of(ce) }, ObjectKind::Recordable | ObjectKind::Frozen)
}

/// `by_handle`'s mark of an object in `leaves`.
const LEAF: u32 = u32::MAX;

/// The largest vectors (in elements) a released record leaves for the next.
const SPARE_LIMIT: usize = 16 * 1024;

thread_local! {
    /// The emptied vectors of the largest record released at the last request end (capacity kept).
    static SPARE: RefCell<Option<Recorded>> = const { RefCell::new(None) };
}

/// Where the record of a value being fetched stands (see [`arm`]).
enum Capture {
    Off,
    /// Waiting for the run of the read path that materialises the fetched value, which starts an empty
    /// record (none is moved in and out of here until one holds something). `hold`: the record is
    /// only to take over the references of the run's objects ([`arm_to_hold`]).
    Armed {
        hold: bool,
    },
    /// Taken by that run: runs nested in it (a hook or autoloader fetching another value) find
    /// nothing armed. Left so when the run could not record the value. `hold`: as armed.
    Claimed {
        hold: bool,
    },
    /// The run recorded the objects it made.
    Done(Recorded),
}

thread_local! {
    static CAPTURE: RefCell<Capture> = const { RefCell::new(Capture::Off) };
}

/// Before fetching a value to restore: a record is to be filled by the run of the read path that
/// materialises it, from the objects it makes (no second walk of the value). [`disarm`] after the
/// fetch tells whether that happened.
pub fn arm() {
    arm_for(false);
}

/// [`arm`] or [`arm_to_hold`].
fn arm_for(hold: bool) {
    // A record left from an earlier fetch of this request (never the case: every arm is disarmed)
    // still holds its references.
    // Only a record moves out of the state (the states without one are written in place).
    let left = CAPTURE.with_borrow_mut(|c| match c {
        Capture::Done(_) => Some(std::mem::replace(c, Capture::Armed { hold })),
        _ => {
            *c = Capture::Armed { hold };
            None
        }
    });
    if let Some(left) = left {
        forget_capture_state(left, true);
    }
}

/// Before fetching a value to restore into a static that nothing compares structurally (exact mode,
/// publication at the write): the run of the read path that makes it from a blueprint with plain cells
/// hands its objects to a record, as for [`arm`], for [`Recorded::into_held`] to keep their references;
/// any other run gives them back as for `get()` (nothing is recorded or copied for such a value).
pub fn arm_to_hold() {
    arm_for(true);
}

/// After the fetch [`arm`] prepared: the record and whether the read path filled it with the objects of
/// the fetched value. `(None, false)`: the run took the record and could not describe the value.
/// `(Some, false)`: no run took it (the value was handed out without one); it is still empty.
/// Always inlined into the restore: returned from a call, the record would be copied with `memcpy`
/// (callgrind saw that once `disarm` had two callers).
#[inline(always)]
pub fn disarm() -> (Option<Recorded>, bool) {
    CAPTURE.with_borrow_mut(|c| {
        let armed = matches!(c, Capture::Armed { .. });
        match c {
            Capture::Done(_) => match std::mem::replace(c, Capture::Off) {
                Capture::Done(record) => (Some(record), true),
                _ => (None, false),
            },
            _ => {
                *c = Capture::Off;
                (armed.then(Recorded::new), false)
            }
        }
    })
}

/// After the fetch [`arm_to_hold`] prepared: the references [`Recorded::into_held`] keeps of the
/// objects the run handed over (none when it handed over none).
///
/// # Safety
/// Right after that fetch, during the request, with the fetched value alive.
pub unsafe fn disarm_held() -> Held {
    match disarm() {
        // SAFETY: as above.
        (Some(record), true) => unsafe { record.into_held() },
        _ => Vec::new(),
    }
}

/// RSHUTDOWN (`release`: the request's heap is still alive, references are given back) or the start
/// of a request after one whose end never ran (`release` false: what the record refers to is gone,
/// nothing is touched): a record a bailout left armed is let go.
pub fn forget_capture(release: bool) {
    forget_capture_state(CAPTURE.replace(Capture::Off), release);
}

fn forget_capture_state(state: Capture, release: bool) {
    if let Capture::Done(record) = state {
        if release {
            // SAFETY: during the request that recorded it (caller).
            unsafe { record.release_at_request_end() };
        } else {
            record.abandon();
        }
    }
}

/// A run of the read path starts materialising a value: it takes the record armed for it, if any
/// (a run nested in it then finds none).
pub fn claim() -> Option<Recorded> {
    CAPTURE.with_borrow_mut(|c| match c {
        &mut Capture::Armed { hold } => {
            *c = Capture::Claimed { hold };
            Some(Recorded::new())
        }
        _ => None,
    })
}

/// The run that claimed `record` has made `made` (each an owning object zval, in the order made) and
/// the value holding them; `describable`: the value holds no PHP reference, no object a userland hook
/// made, and every object made is in it (none dropped on the way). Records them, or leaves the claim
/// unfilled for [`Recorded::record`] to walk the value instead.
///
/// # Safety
/// `made` must be live object zvals, during a request.
pub unsafe fn captured(mut record: Recorded, made: &[zval], describable: bool) {
    if CAPTURE.with_borrow(|c| matches!(c, Capture::Claimed { hold: true })) {
        // Nothing to take over without a copy: the run gives its references back, and the claim is
        // left unfilled (the claimed record is empty).
        return;
    }
    // SAFETY: as above; a claimed record is empty.
    if describable && unsafe { record.record_made(made) } {
        CAPTURE.set(Capture::Done(record));
    } else {
        // SAFETY: during the request; a part recorded is given back at once.
        unsafe { record.release_at_request_end() };
    }
}

/// As [`captured`], for a value made from a blueprint with plain cells: the record takes the objects
/// of `made` (one owning zval per object of the blueprint, in its order), leaving it empty, and checks
/// against the blueprint's cells (see [`Planned`]); `keeper` keeps `blueprint` alive.
///
/// # Safety
/// `made` must be live object zvals, during a request; `blueprint` must live as long as `keeper` and
/// have plain cells; `classes` must be, per shape, the class its objects were made of, with one slot
/// per stored declared property, each written into the slot of its index.
pub unsafe fn captured_planned(
    mut record: Recorded,
    made: &mut Vec<zval>,
    blueprint: *const Blueprint,
    keeper: Rc<dyn Any>,
    classes: Vec<*mut ffi::zend_class_entry>,
) {
    // The run's vector goes to the record, and the run goes on with the spare one (empty).
    let made = std::mem::replace(made, SPARE_MADE.take());
    record.planned = Some(Planned { _keeper: keeper, blueprint, classes, made }.boxed());
    CAPTURE.set(Capture::Done(record));
}

/// What [`Recorded::into_held`] keeps: one owning zval per object of the restored value whose reference
/// the restore took over from the read path's run (null where given back), released by
/// [`release_held`] at request end or dropped as values when the static is written.
pub type Held = Vec<zval>;

impl Recorded {
    /// Exact mode ([`arm_to_hold`]): of the objects a planned record took from the run, keeps the
    /// references of those the value holds outside other objects' slots (its root, or elements of its
    /// arrays), instead of giving each back now as `get()` does. The copy of the root exact mode keeps
    /// for its identity check holds those objects as long as the held references do (writes to the
    /// static separate from it), so holding them keeps no object alive longer (`engine`'s
    /// `UnitRt::held`). Given back at once: the objects held in another object's slot (the
    /// blueprint's links), which a property write drops without touching the static. Nothing is kept
    /// when a class of the value has a destructor, so that letting the references go where the value
    /// is not assigned after all (it no longer fits the property's type, or names a missing class)
    /// runs no userland code. Every object of a planned record is in the restored value, so each
    /// give-back here is a plain decrement.
    ///
    /// # Safety
    /// During the request, right after the fetch that filled the record, with the value alive.
    pub unsafe fn into_held(mut self) -> Held {
        let Some(mut planned) = self.planned.take() else {
            self.keep_vectors();
            return Vec::new();
        };
        let mut made = std::mem::take(&mut planned.made);
        // SAFETY: the keeper keeps the blueprint alive (until `released` below); the classes are this
        // request's, and the objects are live, each held by the value as well (see above).
        unsafe {
            let links = (*planned.blueprint).plain_cells().map(|plain| &plain.links[..]);
            let keep = planned.classes.iter().all(|&ce| (*ce).destructor.is_null());
            match links {
                Some(links) if keep => {
                    for link in links {
                        if let Some(z) = made.get_mut(link.target as usize) {
                            if zend::type_of(z) == IS_OBJECT {
                                (*z.value.obj).gc.refcount -= 1;
                                z.u1.type_info = IS_NULL;
                            }
                        }
                    }
                }
                _ => {
                    for z in &made {
                        (*z.value.obj).gc.refcount -= 1;
                    }
                    made.set_len(0);
                }
            }
        }
        Planned::released(planned);
        if made.is_empty() {
            keep_made(made);
            return Vec::new();
        }
        made
    }
}

/// RSHUTDOWN: gives back the references [`Recorded::into_held`] kept: none at all under the engine's
/// fast shutdown ([`fast_shutdown`], as a record's), otherwise by plain decrements (an object no
/// value holds any more is released; none has a destructor). The vector serves the next record.
///
/// # Safety
/// At RSHUTDOWN of the request that made the objects.
pub unsafe fn release_held(mut held: Held) {
    if !fast_shutdown() {
        for z in &held {
            // SAFETY: each object zval owns one reference to a live object; none is dropped afterwards.
            unsafe {
                if zend::type_of(z) == IS_OBJECT {
                    let obj = z.value.obj;
                    if (*obj).gc.refcount > 1 {
                        (*obj).gc.refcount -= 1;
                    } else {
                        drop(std::ptr::read(z));
                    }
                }
            }
        }
    }
    // SAFETY: every reference is given back or no longer matters: no zval may have its drop run.
    unsafe { held.set_len(0) };
    keep_made(held);
}

/// A zval still to look into while recording, with the number of references to its value that
/// holders other than one place of the value account for: the record's own slot copy (1) or none
/// (0). A value whose refcount is at most this plus one has a single holder in the value, so it
/// cannot be met again and needs no "seen" set.
type Pending = (*mut zval, u32);

impl Recorded {
    /// An empty record. It allocates nothing until it records an object, and then first takes the
    /// vectors a previous request's record left (values without objects, such as arrays restored
    /// zero-copy, leave them to the units that need them).
    pub fn new() -> Self {
        Self::default()
    }

    /// Before the first object is recorded: the spare vectors, if any, replace this record's empty ones.
    fn reuse_spare(&mut self) {
        if self.objects.capacity() == 0
            && self.slots.capacity() == 0
            && self.leaves.capacity() == 0
            && self.held.capacity() == 0
        {
            if let Some(spare) = SPARE.with_borrow_mut(Option::take) {
                *self = spare;
            }
        }
    }

    /// Records the objects reachable from `value`. Returns false, recording nothing more, for a value
    /// this cannot describe: one holding PHP references (which writes go through without separation)
    /// or objects whose state is not (only) their property table, or any value once the record is one
    /// checked against a blueprint's cells.
    ///
    /// Objects and arrays held once (refcount 1, besides the record's own slot copy) are met once:
    /// only those held more than once go through a "seen" set. A record that already holds objects
    /// (worker mode records every member of a unit into one) puts every object it meets there.
    ///
    /// # Safety
    /// `value` must be a live zval, during a request.
    pub unsafe fn record(&mut self, value: *mut zval) -> bool {
        // A record checked against a blueprint's cells compares only the objects of its run.
        if self.planned.is_some() {
            return false;
        }
        // A value without objects, references or arrays of this request (an engine-immutable array
        // restored zero-copy, a scalar) has nothing to record: answered before the sets are made.
        // SAFETY: as above.
        if !unsafe { holds_anything_to_record(value) } {
            return true;
        }
        let mut pending: Vec<Pending> = Vec::new();
        // Arrays and objects held more than once, met so far.
        let mut shared_arrays: HashSet<*mut HashTable> = HashSet::new();
        let mut seen: HashSet<*mut zend_object> = HashSet::new();
        let mut classes: Vec<(*mut ffi::zend_class_entry, ObjectKind)> = Vec::new();
        let again = !self.objects.is_empty() || !self.leaves.is_empty();
        if again {
            seen.extend(self.objects.iter().map(|o| o.object).chain(self.leaves.iter().copied()));
            self.by_handle = OnceCell::new();
        }
        let mut next: Pending = (value, 0);
        loop {
            let (z, others) = next;
            // SAFETY: every zval pushed is reachable from the live root.
            unsafe {
                match zend::type_of(z) {
                    IS_ARRAY => {
                        let ht = (*z).value.arr;
                        if !immutable_array(ht) && ((*ht).gc.refcount <= others + 1 || shared_arrays.insert(ht)) {
                            // Objects are recorded as they are met, in the array's order (the order they
                            // were made in, for a fresh restore); the rest is queued.
                            for (_, v) in zvals::raw_entries(ht) {
                                if zend::type_of(v) == IS_OBJECT {
                                    if !self.meet(v, 0, again, &mut seen, &mut classes, &mut pending) {
                                        return false;
                                    }
                                } else if holds_anything_to_record(v) {
                                    pending.push((v, 0));
                                }
                            }
                        }
                    }
                    IS_OBJECT => {
                        let recorded = self.meet(z, others, again, &mut seen, &mut classes, &mut pending);
                        if !recorded {
                            return false;
                        }
                    }
                    ffi::IS_REFERENCE => return false,
                    _ => {}
                }
            }
            match pending.pop() {
                Some(p) => next = p,
                None => return true,
            }
        }
    }

    /// The object in `z` is met (`others`: as in [`Pending`]): recorded unless it was already. False
    /// for an object of a class this cannot describe.
    ///
    /// # Safety
    /// `z` must be a live object zval, during a request.
    unsafe fn meet(
        &mut self,
        z: *mut zval,
        others: u32,
        again: bool,
        seen: &mut HashSet<*mut zend_object>,
        classes: &mut Vec<(*mut ffi::zend_class_entry, ObjectKind)>,
        pending: &mut Vec<Pending>,
    ) -> bool {
        // SAFETY: as above.
        unsafe {
            let obj = (*z).value.obj;
            let single = !again && (*obj).gc.refcount <= others + 1;
            !(single || seen.insert(obj)) || self.record_object(obj, again, classes, pending)
        }
    }

    /// Records one object met for the first time, queueing what its slots and dynamic properties hold.
    /// False for an object of a class this cannot describe.
    ///
    /// # Safety
    /// `obj` must be a live object, during a request.
    unsafe fn record_object(
        &mut self,
        obj: *mut zend_object,
        again: bool,
        classes: &mut Vec<(*mut ffi::zend_class_entry, ObjectKind)>,
        pending: &mut Vec<Pending>,
    ) -> bool {
        // SAFETY: as above.
        unsafe {
            let ce = (*obj).ce;
            match kind_of(classes, ce) {
                ObjectKind::EnumCase => return true,
                ObjectKind::Unrecordable => return false,
                ObjectKind::Recordable | ObjectKind::Frozen => {}
            }
            self.reuse_spare();
            let count = zvals::slot_count(ce);
            let table = (*obj).properties;
            if count == 0 && dynamic_values(table).next().is_none() {
                self.leaves.push(obj);
                return true;
            }
            self.hold(obj, ce, count, table);
            let slots = (*obj).properties_table.as_mut_ptr();
            for i in 0..count {
                let slot = slots.add(i);
                if !zvals::is_refcounted(slot) {
                    continue;
                }
                if zend::type_of(slot) == IS_OBJECT {
                    // An object only this slot holds (and the copy just taken) that has nothing to copy
                    // (a `DateTimeImmutable`) is a leaf, recorded here rather than queued.
                    let o = (*slot).value.obj;
                    if !again
                        && (*o).gc.refcount <= 2
                        && matches!(kind_of(classes, (*o).ce), ObjectKind::Recordable)
                        && zvals::slot_count((*o).ce) == 0
                        && dynamic_values((*o).properties).next().is_none()
                    {
                        self.leaves.push(o);
                        continue;
                    }
                }
                if holds_anything_to_record(slot) {
                    // The copy just taken is the other reference.
                    pending.push((slot, 1));
                }
            }
            if !table.is_null() {
                pending.extend(
                    dynamic_values(table).map(|(_, v)| v).filter(|&v| holds_anything_to_record(v)).map(|v| (v, 0)),
                );
            }
        }
        true
    }

    /// Records `obj` (of class `ce`, with `count` declared slots and property table `table`): a
    /// bitwise copy of its slots, each refcounted one given the reference its copy holds, and the
    /// object and its property table held.
    ///
    /// # Safety
    /// `obj` must be a live object, during a request.
    #[inline(always)]
    unsafe fn hold(
        &mut self,
        obj: *mut zend_object,
        ce: *mut ffi::zend_class_entry,
        count: usize,
        table: *mut HashTable,
    ) {
        // SAFETY: as above.
        unsafe { self.hold_from(obj, ce, (*obj).properties_table.as_ptr(), count, table) }
    }

    /// As [`Recorded::hold`], the slot copies taken from `slots` (`count` live zvals: the object's
    /// own, or what they held at restore).
    ///
    /// # Safety
    /// As [`Recorded::hold`]; `slots` must point to `count` readable zvals.
    #[inline(always)]
    unsafe fn hold_from(
        &mut self,
        obj: *mut zend_object,
        ce: *mut ffi::zend_class_entry,
        slots: *const zval,
        count: usize,
        table: *mut HashTable,
    ) {
        // SAFETY: as above; the vector has room for `count` more slots once reserved.
        unsafe {
            let first_slot = self.slots.len();
            self.slots.reserve(count);
            // Copied slot by slot with the test of each (an object has few slots: cheaper than a
            // memcpy call and a second pass).
            let copies = self.slots.as_mut_ptr().add(first_slot);
            for i in 0..count {
                let slot = slots.add(i);
                copies.add(i).write(std::ptr::read(slot));
                if zvals::is_refcounted(slot) {
                    (*(*slot).value.counted).gc.refcount += 1;
                    self.held.push(u32::try_from(first_slot + i).unwrap_or(u32::MAX));
                }
            }
            self.slots.set_len(first_slot + count);
            // Held: the object, and a property table of dynamic properties only (per object, so never
            // immutable). A table that also links declared slots (`IS_INDIRECT`) is never shared: the
            // engine separates a shared property table with `zend_array_dup()`, which copies what the
            // slots hold and drops the links, so the object's slots and its table would part ways
            // (PHP itself never shares such a table). Its dynamic properties are copied instead.
            (*obj).gc.refcount += 1;
            let dynamic = if table.is_null() || count != 0 {
                dynamic_copy(table)
            } else {
                (*table).gc.refcount += 1;
                table
            };
            self.objects.push(RecordedObject { ce, object: obj, first_slot, dynamic });
        }
    }

    /// Records the objects the read path just made for a value, in the order it made them (see
    /// [`arm`]), instead of walking the value: every object the value holds is one of them, except
    /// enum cases (nothing to record). The caller guarantees the value holds no PHP reference and no
    /// object made by a userland hook, and that each of `made` is reachable from the value. Returns
    /// false, the record then holding a part of them, for an object of a class this cannot describe.
    ///
    /// # Safety
    /// `made` must be live object zvals (each holding a reference), during a request; the record must
    /// be empty.
    unsafe fn record_made(&mut self, made: &[zval]) -> bool {
        // Values hold many objects of few classes (a product and its date, in turn): the last classes
        // met are remembered, with what recording makes of them and their slot count.
        let mut classes = [(std::ptr::null_mut::<ffi::zend_class_entry>(), ObjectKind::Unrecordable, 0usize); 4];
        let mut next = 0;
        if !made.is_empty() {
            self.reuse_spare();
        }
        for z in made {
            // SAFETY: as above.
            unsafe {
                let obj = z.value.obj;
                let ce = (*obj).ce;
                let (kind, count) = match classes.iter().find(|(c, _, _)| *c == ce) {
                    Some(&(_, kind, count)) => (kind, count),
                    None => {
                        let found = (ce, ObjectKind::of(ce), zvals::slot_count(ce));
                        classes[next] = found;
                        next = (next + 1) % classes.len();
                        (found.1, found.2)
                    }
                };
                let table = (*obj).properties;
                if !matches!(kind, ObjectKind::Recordable) {
                    match kind {
                        ObjectKind::EnumCase => continue,
                        ObjectKind::Unrecordable => return false,
                        // Nothing rewrites an initialized readonly slot.
                        ObjectKind::Frozen if no_dynamic(table) && initialized(obj, count) => {
                            self.leaves.push(obj);
                            continue;
                        }
                        ObjectKind::Frozen | ObjectKind::Recordable => {}
                    }
                }
                if count == 0 && no_dynamic(table) {
                    // Held by what holds it in the value (a recorded slot copy, or a root copy).
                    self.leaves.push(obj);
                } else {
                    self.hold(obj, ce, count, table);
                }
            }
        }
        true
    }

    /// Position + 1 in `objects` per object handle, [`LEAF`] for leaves (built on first use).
    fn by_handle(&self) -> &[u32] {
        self.by_handle.get_or_init(|| {
            // SAFETY: recorded objects and leaves are live while the record lives.
            let handle = |o: *mut zend_object| unsafe { (*o).handle } as usize;
            let top = self.objects.iter().map(|o| handle(o.object)).chain(self.leaves.iter().map(|&o| handle(o))).max();
            let mut index = vec![0; top.map_or(0, |t| t + 1)];
            for (i, o) in self.objects.iter().enumerate() {
                index[handle(o.object)] = u32::try_from(i + 1).unwrap_or(0);
            }
            for &o in &self.leaves {
                index[handle(o)] = LEAF;
            }
            index
        })
    }

    /// The record of `obj`, if recorded.
    ///
    /// # Safety
    /// `obj` must be a live object.
    unsafe fn find(&self, obj: *mut zend_object) -> Option<&RecordedObject> {
        // SAFETY: as above.
        let handle = unsafe { (*obj).handle } as usize;
        let at = *self.by_handle().get(handle)?;
        if at == LEAF {
            return None;
        }
        let at = at as usize;
        // A handle freed and reused by another object is not the recorded one (which is held, so
        // this cannot happen while the record lives; checked anyway).
        self.objects.get(at.checked_sub(1)?).filter(|r| std::ptr::eq(r.object, obj))
    }

    /// Whether `obj` was recorded as a leaf.
    ///
    /// # Safety
    /// `obj` must be a live object.
    unsafe fn is_leaf(&self, obj: *mut zend_object) -> bool {
        // SAFETY: as above; a leaf lives as long as the record, so its handle is not reused meanwhile.
        self.by_handle().get(unsafe { (*obj).handle } as usize) == Some(&LEAF)
    }

    /// Whether `obj` was recorded as a leaf and has changed since ([`leaf_unchanged`]).
    ///
    /// # Safety
    /// `obj` must be a live object.
    unsafe fn leaf_changed(&self, obj: *mut zend_object) -> bool {
        // SAFETY: as above.
        unsafe {
            let handle = (*obj).handle as usize;
            // A leaf lives as long as the record, so its handle is not reused meanwhile.
            self.by_handle().get(handle) == Some(&LEAF) && !leaf_unchanged(obj)
        }
    }

    /// The slot copies of `then`.
    fn slots_of(&self, then: &RecordedObject) -> &[zval] {
        // SAFETY: a recorded object's class is held live by the object.
        let count = unsafe { zvals::slot_count(then.ce) };
        &self.slots[then.first_slot..then.first_slot + count]
    }

    /// Whether every recorded object still holds exactly what it held: the same value in each slot,
    /// the same property table (or, without one then, no dynamic property now).
    ///
    /// # Safety
    /// During the request that recorded them.
    pub unsafe fn untouched(&self) -> bool {
        // SAFETY: recorded objects are held, hence live; each one's slot copies are its class's slot
        // count long.
        unsafe {
            if self.planned.as_ref().is_some_and(|p| !p.untouched()) {
                return false;
            }
            for then in &self.objects {
                let obj = then.object;
                let live = (*obj).properties_table.as_ptr();
                let recorded = self.slots.as_ptr().add(then.first_slot);
                let count = zvals::slot_count(then.ce);
                // Usually nothing wrote a slot: the slots are then bit for bit their copies, which one
                // pass over the object's slots tells without a branch per slot. Otherwise each slot
                // is looked at as below.
                if !same_slot_bits(live, recorded, count) && !slots_unchanged(live, recorded, count) {
                    return false;
                }
                let same_table = if then.dynamic.is_null() {
                    no_dynamic((*obj).properties)
                } else if count == 0 {
                    (*obj).properties == then.dynamic && !written_in_place(then.dynamic)
                } else {
                    dynamic_as_copied((*obj).properties, then.dynamic)
                };
                if !same_table {
                    return false;
                }
            }
            self.leaves.iter().all(|&obj| leaf_unchanged(obj))
        }
    }

    /// The start of a request after one whose end never ran: what the record refers to is gone with that
    /// request's heap and is not touched; only what lives longer (a planned record's blueprint) is let
    /// go.
    fn abandon(mut self) {
        if let Some(planned) = self.planned.take() {
            Planned::abandon(*planned);
        }
        std::mem::forget(self);
    }

    /// Request end (RSHUTDOWN): lets go of the record. A reference the request's values still share
    /// is given back by a plain decrement, without offering the value to the cycle collector: the
    /// engine frees the request's values, cycles included, right after. No destructor runs (the engine
    /// called them all before RSHUTDOWN).
    ///
    /// # Safety
    /// At the end of the request that recorded the values.
    pub unsafe fn release_at_request_end(mut self) {
        // A planned record's objects, usually all the record holds, in a loop of their own: the order is
        // `give_back_from`'s, which goes on after them.
        let mut next = 0;
        if let Some(planned) = self.planned.as_mut() {
            for z in &planned.made {
                // SAFETY: each is an owning object zval (`captured_planned`) of a live object; the zvals are
                // not dropped afterwards (`Planned::released`), so each reference is given back once.
                unsafe {
                    let obj = z.value.obj;
                    if (*obj).gc.refcount > 1 {
                        (*obj).gc.refcount -= 1;
                    } else {
                        drop(std::ptr::read(z));
                    }
                }
            }
            next = planned.made.len();
        }
        // SAFETY: as above; each zval given is one of the record's own references, to a live value.
        unsafe { self.give_back_from(&mut next, &|z| release_shared(z)) };
        self.keep_vectors();
    }

    /// RSHUTDOWN: lets go of the record. When the engine ends the request with a fast shutdown
    /// ([`fast_shutdown`]) the references are not given back at all: what the request's values hold
    /// no longer matters then (destructors have run, and nothing is released one by one any more), so
    /// only the record's vectors are kept for the next one. Otherwise as
    /// [`Recorded::release_at_request_end`].
    ///
    /// # Safety
    /// At RSHUTDOWN of the request that recorded the values.
    pub unsafe fn end_of_request(self) {
        if self.holds_nothing() {
            // A record of a value without objects (an immutable array restored zero-copy): nothing to
            // give back, no vector to keep.
            return;
        }
        if fast_shutdown() {
            self.keep_vectors();
        } else {
            // SAFETY: as above.
            unsafe { self.release_at_request_end() };
        }
    }

    /// In the middle of a request (a worker script's record replaced at the end of an HTTP request):
    /// lets go of the record as the engine releases values, offering those still shared to the cycle
    /// collector, since the script runs on. Their destructors may run: a bailout out of one (a fatal
    /// error) is caught, the rest of the references are given back (a fatal error marks every object
    /// destructed: no userland code runs any more), the record's vectors are kept as usual, and the
    /// bailout is returned for the caller to hand on once its frame owns nothing (a longjmp out of here
    /// lost the vectors, for the life of the process).
    ///
    /// # Safety
    /// During the request that recorded the values.
    pub(super) unsafe fn release(mut self) -> Result<(), Bailout> {
        let mut next = 0;
        // Borrows the record and the position, owns nothing: a longjmp out of it skips no drop.
        let mut give_back_rest = || {
            // SAFETY: as above; each zval given owns its reference, released by the engine and left null.
            unsafe { self.give_back_from(&mut next, &|z| drop(std::mem::replace(z, zval::new()))) }
        };
        // Each catch ends at a bailout; the next goes on after the reference whose release bailed out.
        let mut outcome = Ok(());
        while let Err(bailout) = Bailout::catching(&mut give_back_rest) {
            outcome = Err(bailout);
        }
        self.keep_vectors();
        outcome
    }

    /// Gives back, through `give_back` (which must leave the zval it is given null), every reference the
    /// record holds from the `*next`-th on, in a fixed order: a planned record's objects, the slot copies
    /// that hold one, then each object and its property table. `*next` moves past each reference before
    /// it is given back, so that after a bailout out of `give_back` it tells where the rest starts.
    ///
    /// # Safety
    /// The values the record refers to are live.
    unsafe fn give_back_from(&mut self, next: &mut usize, give_back: &impl Fn(&mut zval)) {
        let made = self.planned.as_ref().map_or(0, |p| p.made.len());
        let held = made + self.held.len();
        let end = held + 2 * self.objects.len();
        while *next < end {
            let at = *next;
            *next += 1;
            if at < made {
                if let Some(z) = self.planned.as_mut().and_then(|p| p.made.get_mut(at)) {
                    give_back(z);
                }
            } else if at < held {
                let slot = self.held[at - made] as usize;
                if let Some(z) = self.slots.get_mut(slot) {
                    give_back(z);
                }
            } else {
                let o = &self.objects[(at - held) / 2];
                if (at - held).is_multiple_of(2) {
                    give_back(&mut held_zval(o.object.cast(), zvals::IS_OBJECT_EX));
                } else if !o.dynamic.is_null() {
                    give_back(&mut held_zval(o.dynamic.cast(), zvals::IS_ARRAY_EX));
                }
            }
        }
    }

    /// Whether the record holds nothing and has no memory of its own (it never recorded an object).
    fn holds_nothing(&self) -> bool {
        self.planned.is_none()
            && self.objects.capacity() == 0
            && self.slots.capacity() == 0
            && self.held.capacity() == 0
            && self.leaves.capacity() == 0
            && self.by_handle.get().is_none()
    }

    /// Once every reference is given back ([`Recorded::give_back_from`]): keeps the record's vectors for
    /// the next one.
    fn keep_vectors(mut self) {
        if let Some(planned) = self.planned.take() {
            Planned::released(planned);
        }
        // Every slot copy has given its reference back (or never held one): none may have its drop run.
        // SAFETY: the copies own nothing now.
        unsafe { self.slots.set_len(0) };
        self.held.clear();
        self.objects.clear();
        self.leaves.clear();
        self.by_handle = OnceCell::new();
        // A request of very many objects does not make every later one keep its memory; of several
        // records, the largest is kept.
        let size =
            self.slots.capacity().max(self.objects.capacity()).max(self.leaves.capacity()).max(self.held.capacity());
        if size > 0 && size <= SPARE_LIMIT {
            SPARE.with_borrow_mut(|spare| {
                if spare.as_ref().is_none_or(|s| s.slots.capacity() < self.slots.capacity()) {
                    *spare = Some(self);
                }
            });
        }
    }
}

unsafe extern "C" {
    /// `zend_alloc.h`: whether the request heap is the Zend memory manager (not the system allocator,
    /// as with `USE_ZEND_ALLOC=0`).
    fn is_zend_mm() -> bool;
}

/// Whether the engine ends the current request with its fast shutdown, as `shutdown_executor()`
/// decides it (a release build, the Zend memory manager, no full table cleanup): after RSHUTDOWN it
/// then releases no value one by one (globals, static properties and static variables are left as
/// they are), calls the free handler of each object still in the object store that has a handler of
/// its own (whatever its reference count), and frees the request's heap whole. A reference a record
/// still holds then changes nothing. (Datadog's extension skips its frees at RSHUTDOWN on the same
/// test.)
fn fast_shutdown() -> bool {
    // SAFETY: the executor globals are live during a request; `is_zend_mm` reads a startup setting.
    ffi::ZEND_DEBUG == 0 && unsafe { is_zend_mm() && !(*ffi::ext_php_rs_executor_globals()).full_tables_cleanup }
}

/// Whether the `count` zvals at `a` and at `b` hold the same type info and, for the types that have one
/// (from `IS_LONG` on), the same value bits: one pass with no branch per slot, which the compiler turns
/// into vector code. A null's or a boolean's value bits are masked out, not compared (they are not part
/// of the value, and the engine leaves them uninitialised), and so is the extra word.
///
/// # Safety
/// Both must point to `count` readable zvals.
#[inline(always)]
unsafe fn same_slot_bits(a: *const zval, b: *const zval, count: usize) -> bool {
    // SAFETY: as above.
    let (a, b) = unsafe { (std::slice::from_raw_parts(a, count), std::slice::from_raw_parts(b, count)) };
    a.iter().zip(b).fold(0u64, |diff, (x, y)| {
        // SAFETY: readable zvals; the value bits only count where the mask keeps them.
        let (tx, ty, vx, vy) = unsafe { (x.u1.type_info, y.u1.type_info, x.value.lval, y.value.lval) };
        let valued = 0u64.wrapping_sub(u64::from(zvals::has_value_bits(tx)));
        diff | u64::from(tx ^ ty) | ((vx ^ vy) as u64 & valued)
    }) == 0
}

/// Whether each of the `count` live slots at `live` still holds the value its copy at `recorded`
/// holds: the same type info and (for the types that have one) value bits, what a slot nothing wrote
/// holds, or else the same value as the type decides it.
///
/// # Safety
/// Both must point to `count` live zvals.
unsafe fn slots_unchanged(live: *const zval, recorded: *const zval, count: usize) -> bool {
    // SAFETY: as above.
    unsafe {
        (0..count).all(|i| {
            let (a, b) = (live.add(i), recorded.add(i));
            let same_bits = (*a).u1.type_info == (*b).u1.type_info
                && (!zvals::has_value_bits((*a).u1.type_info) || (*a).value.lval == (*b).value.lval);
            same_bits || identical(a, b)
        })
    }
}

/// Whether recording has to look into `z`: objects, PHP references, and arrays other than
/// engine-immutable ones (which hold neither; told by the zval's own type flags, without reading the
/// array).
///
/// # Safety
/// `z` must be a live zval.
unsafe fn holds_anything_to_record(z: *const zval) -> bool {
    // SAFETY: as above.
    unsafe {
        match zend::type_of(z) {
            IS_ARRAY => zvals::is_refcounted(z),
            IS_OBJECT | ffi::IS_REFERENCE => true,
            _ => false,
        }
    }
}

/// What recording makes of objects of class `ce`. Values hold many objects of few classes: each
/// class is judged once per record (`classes`).
///
/// # Safety
/// `ce` must be a live class.
unsafe fn kind_of(
    classes: &mut Vec<(*mut ffi::zend_class_entry, ObjectKind)>,
    ce: *mut ffi::zend_class_entry,
) -> ObjectKind {
    if let Some(&(_, kind)) = classes.iter().find(|(c, _)| *c == ce) {
        return kind;
    }
    // SAFETY: as above.
    let kind = unsafe { ObjectKind::of(ce) };
    classes.push((ce, kind));
    kind
}

/// What recording makes of an object of a class.
#[derive(Clone, Copy)]
enum ObjectKind {
    /// An engine singleton: nothing to record.
    EnumCase,
    /// Its whole state is its property table (module comment).
    Recordable,
    /// Recordable, of a final user class whose every declared slot is `readonly`: once each one is
    /// initialized, only `array_walk()` rewrites it (`unset()`, references and Reflection writes throw;
    /// PHP 8.4's `resetAsLazy*()` leaves the readonly properties of a final class alone), leaving it a
    /// reference, so such an object changes in place only that way or by gaining a dynamic property,
    /// and is recorded as a leaf ([`leaf_unchanged`]).
    Frozen,
    Unrecordable,
}

impl ObjectKind {
    /// # Safety
    /// `ce` must be a live class.
    unsafe fn of(ce: *mut ffi::zend_class_entry) -> Self {
        // SAFETY: as above.
        unsafe {
            if class_info::is_enum(ce) {
                Self::EnumCase
            } else if plain(ce) && frozen_class(ce) {
                Self::Frozen
            } else if plain(ce) || immutable_internal(ce) {
                Self::Recordable
            } else {
                Self::Unrecordable
            }
        }
    }
}

/// Whether `ce` is final and every declared slot of it (its parents' included) is `readonly`.
///
/// # Safety
/// `ce` must be a live, linked class.
unsafe fn frozen_class(ce: *mut ffi::zend_class_entry) -> bool {
    // SAFETY: as above; a linked class has one property info per slot.
    unsafe {
        (*ce).ce_flags & zend::ZEND_ACC_FINAL != 0
            && (0..zvals::slot_count(ce)).all(|i| {
                let info = zvals::slot_info(ce, i);
                !info.is_null() && (*info).flags & zend::ZEND_ACC_READONLY != 0
            })
    }
}

/// Whether every declared slot of `obj` (`count` of them) is initialized.
///
/// # Safety
/// `obj` must be a live object with `count` slots.
unsafe fn initialized(obj: *mut zend_object, count: usize) -> bool {
    // SAFETY: as above.
    unsafe { (0..count).all(|i| zend::type_of(zvals::property_slot(obj, i)) != IS_UNDEF) }
}

/// Drops `z`'s reference, by a plain decrement when it is not the last one; `z` is left null. Inlined:
/// request end calls it for every reference a record holds.
///
/// # Safety
/// `z` must be a live zval owning its reference.
#[inline(always)]
unsafe fn release_shared(z: &mut zval) {
    // SAFETY: as above; refcounted values start with a zend_refcounted header.
    unsafe {
        if !zvals::is_refcounted(z) {
            return;
        }
        if (*z.value.counted).gc.refcount > 1 {
            (*z.value.counted).gc.refcount -= 1;
        } else {
            drop(std::ptr::read(z));
        }
        z.u1.type_info = IS_NULL;
    }
}

/// A zval owning the reference the record took to `counted` (of type `type_info`), for a give-back
/// function (which leaves it owning nothing: its drop then does nothing).
#[inline(always)]
fn held_zval(counted: *mut ffi::zend_refcounted, type_info: u32) -> zval {
    let mut z = zval::new();
    z.value.counted = counted;
    z.u1.type_info = type_info;
    z
}

/// Whether `ht` is an engine-immutable array (object- and reference-free by construction).
///
/// # Safety
/// `ht` must be a live array.
pub unsafe fn immutable_array(ht: *const HashTable) -> bool {
    const GC_IMMUTABLE: u32 = 1 << 6;
    // SAFETY: as above; GC flags live in gc.u.type_info.
    unsafe { (*ht).gc.u.type_info & GC_IMMUTABLE != 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Type infos of the slots of a test object, in turn: values with value bits and values without.
    const TYPES: [u32; 4] = [IS_LONG, IS_NULL, zvals::IS_ARRAY_EX, IS_TRUE];

    /// `count` objects of `len` slots each (zend_object-shaped, no property table), slot `j` of type
    /// `TYPES[j % 4]` with value `j + 1`, with what the engine may leave in the bits that do not count
    /// (`u2`, and the value word of a null or a boolean); and the images and masks of those slots.
    fn objects(len: usize, count: usize) -> (Vec<Vec<u64>>, Vec<SlotImage>, Vec<SlotMask>) {
        let header = std::mem::offset_of!(zend_object, properties_table) / 8;
        let (mut images, mut masks) = (Vec::new(), Vec::new());
        let objects = (0..count)
            .map(|_| {
                let mut words = vec![0u64; header + 2 * len + 2];
                for j in 0..len {
                    let t = TYPES[j % 4];
                    let value = if zvals::has_value_bits(t) { j as u64 + 1 } else { 0xdead_0000 + j as u64 };
                    words[header + 2 * j] = value;
                    words[header + 2 * j + 1] = u64::from(t) | (0x5a5a_0000u64 + j as u64) << 32;
                }
                words
            })
            .collect();
        for _ in 0..count {
            for j in 0..len {
                let (image, mask) = SlotImage::new(TYPES[j % 4], j as u64 + 1);
                images.push(image);
                masks.push(mask);
            }
        }
        masks.truncate(len);
        (objects, images, masks)
    }

    /// Both passes over one run, which must agree: the bits found different.
    fn differs(objects: &mut [Vec<u64>], images: &[SlotImage], masks: &[SlotMask]) -> [u64; 2] {
        // Object zvals as their two words (a zval's drop would call into the engine, which a unit test
        // does not have): the value word points at the object.
        let made: Vec<[u64; 2]> = objects.iter_mut().map(|words| [words.as_mut_ptr() as u64, 0]).collect();
        let made = made.as_ptr().cast::<zval>();
        let ids: Vec<u32> = (0..objects.len() as u32).collect();
        let run = Run { len: masks.len(), objects: &ids, images: images.as_ptr(), masks: masks.as_ptr() };
        // SAFETY: each made zval points at an object-shaped buffer of `len` slots; the images are `len`
        // per object, the masks `len`.
        let (diff, tables) = unsafe { run_differs::<false>(made, &run, RunLink::NONE) };
        assert_eq!(tables, 0);
        if wide_vectors() {
            // SAFETY: as above; the CPU has AVX2.
            assert_eq!(unsafe { run_differs_wide::<false>(made, &run, RunLink::NONE) }, (diff, tables));
        }
        diff
    }

    /// A run whose objects each hold another object of the run in slot 1 (typed null in the images:
    /// only its type counts there, as for a link): both passes, with the link compared in them, agree
    /// with each other and find the objects as made, a link to another object, and a target's property
    /// table.
    #[test]
    fn a_run_with_one_link_per_object_finds_a_link_changed() {
        let header = std::mem::offset_of!(zend_object, properties_table) / 8;
        let table = std::mem::offset_of!(zend_object, properties) / 8;
        for len in 2..=14 {
            let (mut objects, images, masks) = objects(len, 3);
            let addresses: Vec<u64> = objects.iter_mut().map(|words| words.as_mut_ptr() as u64).collect();
            let targets: Vec<u32> = (0..3).map(|k| (k + 1) % 3).collect();
            for (k, words) in objects.iter_mut().enumerate() {
                words[header + 2] = addresses[targets[k] as usize];
            }
            let linked = |objects: &mut [Vec<u64>]| {
                let made: Vec<[u64; 2]> = objects.iter_mut().map(|words| [words.as_mut_ptr() as u64, 0]).collect();
                let made = made.as_ptr().cast::<zval>();
                let ids: Vec<u32> = (0..3).collect();
                let run = Run { len, objects: &ids, images: images.as_ptr(), masks: masks.as_ptr() };
                let link = RunLink { slot: 1, targets: targets.as_ptr() };
                // SAFETY: as in `differs`; each link slot's target is one of the made objects.
                let found = unsafe { run_differs::<true>(made, &run, link) };
                if wide_vectors() {
                    // SAFETY: as above; the CPU has AVX2.
                    assert_eq!(unsafe { run_differs_wide::<true>(made, &run, link) }, found);
                }
                found
            };
            assert_eq!(linked(&mut objects), ([0, 0], 0), "len {len}: the objects as made");
            objects[2][header + 2] = addresses[0] + 8;
            assert_ne!(linked(&mut objects).0, [0, 0], "len {len}: a link to another object");
            objects[2][header + 2] = addresses[0];
            objects[1][table] = 0x40;
            assert_ne!(linked(&mut objects).1, 0, "len {len}: a target's property table");
        }
    }

    #[test]
    fn a_run_differs_exactly_where_a_slot_that_counts_differs() {
        for len in 1..=14 {
            let (mut objects, images, masks) = objects(len, 3);
            let header = std::mem::offset_of!(zend_object, properties_table) / 8;
            assert_eq!(differs(&mut objects, &images, &masks), [0, 0], "len {len}: the objects as imaged");
            for k in 0..objects.len() {
                for j in 0..len {
                    let (value, type_word) = (header + 2 * j, header + 2 * j + 1);
                    let valued = zvals::has_value_bits(TYPES[j % 4]);
                    let saved = objects[k][value];
                    objects[k][value] ^= 1 << 40;
                    assert_eq!(differs(&mut objects, &images, &masks) != [0, 0], valued, "len {len}, value {k}/{j}");
                    objects[k][value] = saved;
                    objects[k][type_word] ^= 1 << 63;
                    assert_eq!(differs(&mut objects, &images, &masks), [0, 0], "len {len}, u2 {k}/{j}");
                    objects[k][type_word] ^= 1 << 63;
                    objects[k][type_word] ^= 1;
                    assert_ne!(differs(&mut objects, &images, &masks), [0, 0], "len {len}, type {k}/{j}");
                    objects[k][type_word] ^= 1;
                }
            }
        }
    }
}
