//! The per-request life of attributed statics (§16.4–16.8), per thread under ZTS: classes are
//! registered as they are linked, their units restored (at link in deferred mode, at first access in
//! exact mode; method statics at the method's first call), and published (exact mode: at root writes;
//! otherwise at request end, when the value differs from what was restored).
//!
//! Borrows of the state are short and never span a call into PHP: decoding, encoding, destructors and
//! autoloading can all re-enter the engine (and this module) through userland code.

use foldhash::HashMap;
use std::cell::RefCell;
use std::ops::Range;
use std::os::unix::ffi::OsStrExt;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ext_php_rs::ffi::{
    self, zend_class_entry, zend_op_array, zend_property_info, zval, IS_ARRAY, IS_CONSTANT_AST, IS_OBJECT, IS_REFERENCE,
};

use super::abi;
use super::compare::{self, Held, How, Recorded};
use super::declaration::Strategy;
use super::diagnose;
use super::plan::{self, Member, Unit};
use crate::exception;
use crate::read_cache::{self, Fetched, KeyHash};
use crate::request;
use crate::runtime::{AttributeMode, Tier};
use crate::zend;
use crate::zval_in::{self, Bound, EncodeError};
use crate::zval_out::DecodeError;
use crate::zvals;

/// Run-time state of one member of a unit.
#[derive(Default)]
struct MemberRt {
    /// The live static exists and holds the restored value (or its default).
    live: bool,
    /// An independent copy of the value at restore (structural comparison).
    baseline: Option<zval>,
    /// A copy of the value at the last publication or restore (identity comparison, exact mode).
    published: Option<zval>,
}

struct UnitRt {
    unit: Unit,
    /// Stored value read at restore (member values of a blob are taken from it): kept while method
    /// statics of the unit still have to be installed, and while `recorded` describes it (see
    /// [`restore_unit`]).
    fetched: Option<zval>,
    /// A second, private copy of `fetched`: the baselines of method statics installed later (only
    /// for values [`Recorded`] cannot describe).
    fetched_baseline: Option<zval>,
    /// The restored value's objects as restored, when the members' baselines are shallow copies of
    /// the restored values (compare.rs); `None` when they are independent copies.
    recorded: Option<Recorded>,
    /// Exact mode, a unit published at the write: the objects of the restored value whose references
    /// the restore took over from the read path ([`Recorded::into_held`]). Each is held by the value the
    /// member's `published` copy holds, outside other objects, so they go with that copy: let go as
    /// values when it is replaced ([`remember_published`]), at request end given back as a record's
    /// references are ([`compare::release_held`]). They never keep an object alive longer than the
    /// copy does.
    held: Held,
    restored: bool,
    /// The restore in progress (its fetch may run a hook that suspends its Fiber): the Fiber context
    /// it runs in and its number among the unit's restores begun, which only the latest may complete
    /// ([`restore_unit`]).
    restoring: Option<(usize, u64)>,
    /// How many restores of the unit have begun in this request.
    attempts: u64,
    suppressed: bool,
    /// Publications of the unit begun so far (see [`publish`]): one whose hooks ran while a later one
    /// began stores nothing.
    publications: u64,
    /// The unit's class is registered in this request (a unit kept from an earlier request is not,
    /// until its class is linked again).
    active: bool,
    members: Vec<MemberRt>,
}

impl UnitRt {
    /// The unit as registered, before a restore: what a kept unit goes back to at request end.
    fn reset(&mut self) {
        self.fetched = None;
        self.fetched_baseline = None;
        self.recorded = None;
        self.restored = false;
        self.restoring = None;
        self.attempts = 0;
        self.suppressed = false;
        self.active = false;
        for m in &mut self.members {
            *m = MemberRt::default();
        }
    }

    /// When its record is replaced: the fetched value, if it was kept only for the record (every member
    /// is live: no method static waits for it), to be let go with the record.
    fn fetched_for_record(&mut self) -> Option<zval> {
        self.fetched.take_if(|_| self.members.iter().all(|m| m.live))
    }

    /// Publication at the write (exact mode), rather than at request end.
    fn at_write(&self, mode: AttributeMode) -> bool {
        mode == AttributeMode::Exact && self.unit.spec.strategy != Strategy::Tracking
    }
}

/// A class with attributed statics, registered in this request (`active`) or kept from an earlier one.
struct ClassRt {
    /// Its units (consecutive ids).
    ids: Range<usize>,
    /// Exact mode: the units still wait for the class's first access (counted in
    /// [`State::waiting`] while the class is registered).
    lazy: bool,
    active: bool,
    /// What `plan` answered: a class whose plan answers with the very same units again is the same
    /// declaration, and its units are reused.
    units: Rc<[Unit]>,
    /// The remembered declaration those units were made from, when `plan` keeps them whole: a later
    /// request checks the class against it directly.
    declaration: Option<plan::Declaration>,
}

/// The request's attribute state. Between requests it keeps, emptied of every value, the units of
/// OPcache's immutable classes (the same class entries in every request): a request that links them
/// again re-activates them instead of building them anew.
#[derive(Default)]
struct State {
    mode: Option<AttributeMode>,
    units: Vec<UnitRt>,
    classes: HashMap<*mut zend_class_entry, ClassRt>,
    /// How many of `classes` are registered in this request.
    active: usize,
    /// The [`class_bit`]s of the classes registered in this request: a class whose bit is not set is
    /// not one of them, found without a lookup (exact mode's handler asks for every class it meets).
    active_bits: u64,
    /// Exact mode: the registered classes whose units still wait for their first access, as
    /// [`class_bit`]s: an access to a class none of whose bits (its own, its parents') is set has no
    /// restore to run, found without a lookup.
    waiting: Waiting,
    /// The [`class_bit`]s of every class in `classes`: a class linked whose bit is set may be kept from
    /// an earlier request, and is checked against its declaration at once.
    kept_bits: u64,
    /// Some unit cannot be kept for the next request (its class is not immutable, or another class
    /// took over a class entry or member of a kept one): the request's end drops them all.
    discard: bool,
    /// The unit of an attributed static property, and the units of a method's static variables (of
    /// active or kept classes: lookups check that the unit is active).
    by_prop: HashMap<*mut zend_property_info, usize>,
    by_method: HashMap<*mut zend_op_array, Vec<usize>>,
    /// Exact mode: units written through a static-property fetch since the last check.
    watch: Vec<usize>,
    /// Exact mode: units that oplines without exact mode's handler may write
    /// (`placement::reachable_unchecked`): checked at every check point.
    unchecked: Vec<usize>,
    /// Classes linked while no userland code may run (compilation, an include in progress): they
    /// are registered at the start of the script that declares them.
    pending_links: Vec<*mut zend_class_entry>,
    /// Units whose stored value named classes that were not loaded yet: retried when classes link.
    retry: Vec<usize>,
    /// Units being restored at link that are not restored yet, the next one last ([`restore_in_order`]):
    /// restored before any userland code a restore runs ([`before_userland`]).
    due: Vec<usize>,
    /// `opcache_reset()` ran: nothing is published for the rest of the request (§14.6).
    publication_off: bool,
    /// [`publish_at_end`]'s list of the records that have served, empty between its uses (kept for its
    /// capacity).
    served: Vec<usize>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::default();
}

/// How many threads' requests have an attributed class registered: while none has, [`idle`] answers
/// without touching thread-local state (exact mode's handlers ask it on every opline they run on).
static BUSY_REQUESTS: AtomicUsize = AtomicUsize::new(0);

/// Ends the count of a request's state in [`BUSY_REQUESTS`].
fn release(state: &State) {
    if state.active != 0 {
        BUSY_REQUESTS.fetch_sub(1, Ordering::Relaxed);
    }
}

fn mode() -> Option<AttributeMode> {
    STATE.with_borrow(|s| s.mode).filter(|m| *m != AttributeMode::Off)
}

/// RINIT: the request's attribute mode (off when this request's partition has no backend).
pub fn begin_request() {
    let mode = request::runtime().map(|rt| rt.attribute_mode);
    compare::forget_capture(false);
    STATE.with_borrow_mut(|s| {
        // A mode left behind means the previous request's end never ran (its RSHUTDOWN was skipped):
        // its zvals lived in that request's heap, which is gone. Leak, never free (nothing is dropped
        // in this borrow but plain numbers and pointers).
        if s.mode.is_some() || !s.pending_links.is_empty() {
            release(s);
            for unit in s.units.drain(..) {
                std::mem::forget(unit);
            }
            s.clear();
        }
        s.mode = mode;
    });
}

impl State {
    /// Empties the state (values dropped) but keeps its containers' memory for the next request.
    fn clear(&mut self) {
        self.end_request();
        self.units.clear();
        self.classes.clear();
        self.kept_bits = 0;
        self.discard = false;
        self.by_prop.clear();
        self.by_method.clear();
    }

    /// Ends the request's part of the state; the units and their classes are kept (inactive).
    fn end_request(&mut self) {
        self.mode = None;
        for c in self.classes.values_mut() {
            c.active = false;
        }
        self.active = 0;
        self.active_bits = 0;
        self.waiting = Waiting::default();
        self.watch.clear();
        self.unchecked.clear();
        self.pending_links.clear();
        self.retry.clear();
        self.due.clear();
        self.publication_off = false;
    }

    /// The classes registered now, for exact mode's handlers.
    fn registered(&self) -> Registered {
        Registered { active: self.active_bits, waiting: self.waiting.bits }
    }

    /// Whether the units may be kept for the next request.
    fn keepable(&self) -> bool {
        !self.discard && self.classes.len() <= KEPT_CLASSES
    }

    /// The unit with attributed static property `info`, if its class is registered in this request
    /// (the units may be out of the state while request end empties them: none is active then).
    fn prop_unit(&self, info: *mut zend_property_info) -> Option<usize> {
        self.by_prop.get(&info).copied().filter(|&id| self.units.get(id).is_some_and(|u| u.active))
    }

    /// The units with static variables of method `op` whose class is registered in this request.
    fn method_units(&self, op: *mut zend_op_array) -> Vec<usize> {
        let ids = self.by_method.get(&op).map_or(&[][..], Vec::as_slice);
        ids.iter().copied().filter(|&id| self.units.get(id).is_some_and(|u| u.active)).collect()
    }
}

/// At most this many classes' units are kept between requests.
const KEPT_CLASSES: usize = 4096;

/// A restore's fetch caught a bailout ([`Unfetched::Bailout`]). Every function between the restore
/// and the public entry point returns it, so their frames drop what they own (a list of units to
/// restore, for one: a longjmp past it leaked it for the process's life); the entry point hands it
/// on ([`Bailout::reraise`]) once its own frame owns nothing. The same goes for a bailout out of a
/// serialization hook a publication runs, and out of a destructor that letting go of a value runs.
pub(super) struct Bailout;

impl Bailout {
    /// Runs `f`, a call into the engine that may run userland code (a constructor, an autoloader, a
    /// destructor), turning a bailout out of it into `Err(Bailout)`; a panic goes on unwinding, as it
    /// would without the catch. `f` must own nothing that needs dropping: a longjmp out of it skips its
    /// own drops.
    pub(super) fn catching<T>(f: impl FnOnce() -> T) -> Result<T, Bailout> {
        // A bailout is the only error `catching_bailout` makes of an `f` that returns no error.
        crate::zval_out::catching_bailout(|| Ok(f())).map_err(|_| Bailout)
    }

    /// Hands the bailout on to the engine.
    ///
    /// # Safety
    /// As [`crate::zval_out::reraise_bailout`].
    unsafe fn reraise(self) -> ! {
        // SAFETY: as above.
        unsafe { crate::zval_out::reraise_bailout() }
    }

    /// Hands on the bailout `outcome` holds, if any: for an entry point, once it has dropped what it
    /// owned.
    ///
    /// # Safety
    /// As [`Bailout::reraise`].
    unsafe fn hand_on(outcome: Result<(), Bailout>) {
        if let Err(bailout) = outcome {
            // SAFETY: as above.
            unsafe { bailout.reraise() }
        }
    }
}

/// Why registering classes stopped.
enum Failed {
    /// A declaration error, to raise as a fatal error.
    Declaration(String),
    Bailout,
}

impl From<String> for Failed {
    fn from(message: String) -> Self {
        Failed::Declaration(message)
    }
}

impl From<Bailout> for Failed {
    fn from(_: Bailout) -> Self {
        Failed::Bailout
    }
}

/// The outcome of an entry point that registers classes: a declaration error to raise, or a bailout
/// handed on here, after the frames that returned it have dropped what they owned.
fn handed_on(outcome: Result<(), Failed>) -> Result<(), String> {
    match outcome {
        Ok(()) => Ok(()),
        Err(Failed::Declaration(message)) => Err(message),
        // SAFETY: the registering frames have returned; this one holds only the moved-out outcome,
        // and the callers (observer and interrupt hooks) own nothing.
        Err(Failed::Bailout) => unsafe { Bailout.reraise() },
    }
}

/// A class was linked (or, preloaded, is present at request start): register its units and, in
/// deferred mode, restore them now. Returns a declaration error to raise as a fatal error.
///
/// # Safety
/// `ce` must be a live, linked class, during a request.
pub unsafe fn class_linked(ce: *mut zend_class_entry) -> Result<(), String> {
    let Some((mode, retries, maybe_kept)) = STATE.with_borrow(|s| {
        let mode = s.mode.filter(|m| *m != AttributeMode::Off)?;
        Some((mode, !s.retry.is_empty(), s.kept_bits != 0 && s.kept_bits & class_bit(ce) != 0))
    }) else {
        return Ok(());
    };
    // Most linked classes carry no attribute of ours: for them, with no restore to retry, this test is
    // the only work (it runs for every class linked in every request), and the rest is a call away. A
    // class whose units may be kept skips it: its registration checks it against its declaration,
    // which holds only for a class with units, and otherwise plans it as any other (a class without
    // units then registers nothing).
    // SAFETY: as above.
    let may_have_units = maybe_kept || unsafe { super::plan::may_have_units(ce) };
    if !may_have_units && !retries {
        return Ok(());
    }
    // SAFETY: as above.
    handed_on(unsafe { link(ce, mode, may_have_units) })
}

/// [`class_linked`] of a class that may have units, or while restores wait for a retry, in `mode`;
/// returns a caught bailout.
///
/// # Safety
/// As [`class_linked`].
#[inline(never)]
unsafe fn link(ce: *mut zend_class_entry, mode: AttributeMode, may_have_units: bool) -> Result<(), Failed> {
    if !userland_may_run() {
        // Only classes that can have units wait (no restore has run yet this request, so none needs
        // a retry): a process whose code declares no attributed static never raises the interrupt.
        if may_have_units {
            STATE.with_borrow_mut(|s| s.pending_links.push(ce));
            super::observers::request_interrupt();
        }
        return Ok(());
    }
    // With userland code possible: the restores to retry, and whether the class is registered already.
    // A class whose units are kept from an earlier request and that still declares exactly what they
    // were made from (the usual case for OPcache's classes) is re-activated in this same look at the
    // state: checking the declaration and finding whether the class is being accessed run no userland
    // code.
    let (found, retry) = STATE.with_borrow_mut(|s| {
        let retry = std::mem::take(&mut s.retry);
        let class = if may_have_units { s.classes.get_mut(&ce) } else { None };
        let found = match class {
            None => Found::New,
            Some(c) if c.active => Found::Registered,
            Some(_) if !retry.is_empty() => Found::New,
            Some(c) => {
                // SAFETY: as above.
                let same = c.declaration.as_ref().and_then(|d| unsafe { plan::replan(ce, d) });
                match same {
                    Some(units) if Rc::ptr_eq(&units, &c.units) => {
                        // SAFETY: as above.
                        let (unchecked, lazy) = unsafe { laziness(ce, mode, true, &units) };
                        c.active = true;
                        c.lazy = lazy;
                        Found::Kept(c.ids.clone(), unchecked, lazy)
                    }
                    // Another declaration (after an OPcache restart): planned anew.
                    _ => Found::New,
                }
            }
        };
        if let Found::Kept(ids, unchecked, lazy) = &found {
            activate(s, ce, ids.clone(), *unchecked, *lazy);
        }
        (found, retry)
    });
    if !retry.is_empty() {
        restore_again(retry)?;
        // The retries ran userland code: the state is looked at again.
        // SAFETY: as above.
        let ids = unsafe { register(ce, true)? };
        return Ok(restore_in_order(ids)?);
    }
    let ids = match found {
        Found::Registered => return Ok(()),
        Found::New if !may_have_units => return Ok(()),
        // SAFETY: as above.
        Found::New => unsafe { register_in(ce, true, mode)? },
        Found::Kept(ids, _, lazy) => {
            if lazy {
                return Ok(());
            }
            ids
        }
    };
    Ok(restore_in_order(ids)?)
}

/// What [`link`] found of a class in the state.
enum Found {
    /// Registered in this request already.
    Registered,
    /// Its kept units, re-activated (their ids, whether unchecked writes may reach them, whether
    /// their restore waits for the class's first access).
    Kept(Range<usize>, bool, bool),
    /// Not registered, nor kept with the declaration it has now.
    New,
}

/// Whether writes exact mode's handlers do not see may reach the statics of `units` of class `ce`
/// (`placement::reachable_unchecked`), and whether their restore waits for the class's first access
/// (exact mode), in `mode`; `linked_now`: as [`register`].
///
/// # Safety
/// As [`class_linked`]; `units` are `ce`'s.
unsafe fn laziness(ce: *mut zend_class_entry, mode: AttributeMode, linked_now: bool, units: &[Unit]) -> (bool, bool) {
    // SAFETY: as above (a class without a parent has no parent's code to reach its statics).
    let unchecked = mode == AttributeMode::Exact && unsafe { !(*ce).__bindgen_anon_1.parent.is_null() } && {
        let props: Vec<*mut zend_property_info> = units
            .iter()
            .flat_map(|u| u.members.iter())
            .filter_map(|(_, m)| match *m {
                Member::Prop(info) => Some(info),
                Member::Var(..) => None,
            })
            .collect();
        // SAFETY: as above; only classes with attributed statics get this far.
        unsafe { super::placement::reachable_unchecked(ce, &props) }
    };
    // SAFETY: as above.
    let lazy =
        mode == AttributeMode::Exact && !unchecked && !(linked_now && unsafe { super::observers::accessed_now(ce) });
    (unchecked, lazy)
}

/// Marks units `ids` of class `ce` registered in this request (`unchecked`, `lazy`: as [`laziness`]).
fn activate(s: &mut State, ce: *mut zend_class_entry, ids: Range<usize>, unchecked: bool, lazy: bool) {
    for id in ids.clone() {
        s.units[id].active = true;
    }
    if s.active == 0 {
        BUSY_REQUESTS.fetch_add(1, Ordering::Relaxed);
    }
    s.active += 1;
    s.active_bits |= class_bit(ce);
    if lazy {
        s.waiting.add(ce);
    }
    if unchecked {
        s.unchecked.extend(ids);
    }
}

/// Whether restoring (which decodes, autoloads and may run userland hooks) can happen now: only
/// with a frame executing. The main script is compiled (and OPcache copies its classes) before any
/// frame exists, and an exception thrown then is fatal; its classes wait for its first opline
/// (through a VM interrupt).
/// Classes linked while an include is compiled are restored at once: files that only declare
/// classes are never executed, so there is no later point to wait for.
fn userland_may_run() -> bool {
    // SAFETY: reading the executor globals of this thread during a request.
    unsafe { !(*ffi::ext_php_rs_executor_globals()).current_execute_data.is_null() }
}

/// The VM's first check after classes were linked without a frame (the main script's first
/// opline): register them. Returns a declaration error to raise as a fatal error.
pub fn register_pending() -> Result<(), String> {
    handed_on(register_pending_in())
}

/// [`register_pending`], returning a caught bailout.
fn register_pending_in() -> Result<(), Failed> {
    if mode().is_none() {
        return Ok(());
    }
    let pending = STATE.with_borrow_mut(|s| std::mem::take(&mut s.pending_links));
    // Earlier restores that missed classes first: those linked since may be what they need.
    retry_restores()?;
    // Every class is registered before any is restored, so that userland code a restore runs finds
    // the statics of all of them restored (`restore_in_order`).
    let mut ids = Vec::new();
    for ce in pending {
        // SAFETY: classes linked earlier in this request stay in the class table.
        ids.push(unsafe { register(ce, false)? });
    }
    Ok(restore_in_order(ids.into_iter().flatten())?)
}

/// Restores again the units whose stored value needed classes that were not loaded then.
fn retry_restores() -> Result<(), Bailout> {
    restore_again(STATE.with_borrow_mut(|s| std::mem::take(&mut s.retry)))
}

/// Restores units `ids` taken from the retry list (after a bailout the rest are dropped: the request
/// is ending).
fn restore_again(ids: Vec<usize>) -> Result<(), Bailout> {
    for id in ids {
        // SAFETY: registered units belong to live classes.
        unsafe { restore_unit(id, Occasion::Retry)? };
    }
    Ok(())
}

/// Registers the units of `ce`; returns those to restore now ([`restore_in_order`]): none when exact
/// mode waits for the first access. `linked_now`: the class is being linked right now, perhaps by the
/// autoloader in the middle of an access to it.
///
/// # Safety
/// As [`class_linked`].
unsafe fn register(ce: *mut zend_class_entry, linked_now: bool) -> Result<Range<usize>, Failed> {
    let mode = STATE.with_borrow(|s| {
        let registered = s.classes.get(&ce).is_some_and(|c| c.active);
        s.mode.filter(|m| *m != AttributeMode::Off && !registered)
    });
    let Some(mode) = mode else { return Ok(0..0) };
    // SAFETY: as above.
    unsafe { register_in(ce, linked_now, mode) }
}

/// [`register`] of a class not registered yet, in `mode` (a class whose kept units [`link`] did not
/// re-activate: one linked before a frame existed, or planned anew).
///
/// # Safety
/// As [`class_linked`].
unsafe fn register_in(
    ce: *mut zend_class_entry,
    linked_now: bool,
    mode: AttributeMode,
) -> Result<Range<usize>, Failed> {
    // SAFETY: caller guarantees a linked class.
    let Some(units) = (unsafe { plan::plan(ce)? }) else { return Ok(0..0) };
    // SAFETY: as above.
    let (unchecked, lazy) = unsafe { laziness(ce, mode, linked_now, &units) };
    // SAFETY: as above.
    let immutable = unsafe { (*ce).ce_flags } & abi::ZEND_ACC_IMMUTABLE != 0;
    let ids = STATE.with_borrow_mut(|s| {
        // The units kept from an earlier request, when the plan is the very one they were made from.
        let kept = match s.classes.get_mut(&ce) {
            Some(c) if Rc::ptr_eq(&c.units, &units) => {
                c.active = true;
                c.lazy = lazy;
                Some(c.ids.clone())
            }
            _ => None,
        };
        let ids = match kept {
            Some(ids) => ids,
            None => {
                if let Some(old) = s.classes.remove(&ce) {
                    // Another declaration at the entry of a kept class (after an OPcache restart):
                    // the old units are unreachable from now on.
                    s.by_prop.retain(|_, id| !old.ids.contains(id));
                    for list in s.by_method.values_mut() {
                        list.retain(|id| !old.ids.contains(id));
                    }
                    s.discard = true;
                }
                s.discard |= !immutable;
                let ids = add_units(s, &units);
                let declaration = plan::declaration_of(ce, &units);
                s.classes.insert(ce, ClassRt { ids: ids.clone(), lazy, active: true, units, declaration });
                s.kept_bits |= class_bit(ce);
                ids
            }
        };
        activate(s, ce, ids.clone(), unchecked, lazy);
        ids
    });
    Ok(if lazy { 0..0 } else { ids })
}

/// Restores units `ids` now (at link: deferred mode, or a class exact mode does not wait for), in
/// declaration order. Until restored they are due ([`State::due`]): a restore that is about to run
/// userland code (a hook, an autoloader, `unserialize()`) restores every due unit first
/// ([`before_userland`]), so that code finds them restored, as §16.4 asks of any first use. Restored in
/// turn, a hook that read or appended to a sibling found its default, and the sibling's restore then
/// dropped the stored value (PHPT r40, r40b).
fn restore_in_order<I>(ids: I) -> Result<(), Bailout>
where
    I: IntoIterator<Item = usize>,
    I::IntoIter: DoubleEndedIterator,
{
    // A stack: a class linked by a restore's autoloader pushes its units above the ones due already.
    let base = STATE.with_borrow_mut(|s| {
        let base = s.due.len();
        s.due.extend(ids.into_iter().rev());
        base
    });
    restore_due(base)
}

/// Restores the due units above `base` of [`State::due`], the next one first.
fn restore_due(base: usize) -> Result<(), Bailout> {
    while let Some(id) = STATE.with_borrow_mut(|s| if s.due.len() > base { s.due.pop() } else { None }) {
        // SAFETY: registered units belong to live (just linked) classes.
        unsafe { restore_unit(id, Occasion::AtLink)? };
    }
    Ok(())
}

/// Called by the read path right before a restore runs userland code: restores every unit due at
/// link first (a no-op outside such a restore). A bailout is handed on to the engine, as the userland
/// code about to run would have.
pub fn before_userland() {
    if STATE.with_borrow(|s| s.due.is_empty()) {
        return;
    }
    if let Err(bailout) = restore_due(0) {
        // SAFETY: the read path calls this where the userland code it is about to run may bail out
        // just the same: nothing of its frames needs dropping then.
        unsafe { bailout.reraise() }
    }
}

/// Appends the units of a class and indexes them by member; returns their ids.
fn add_units(s: &mut State, units: &[Unit]) -> Range<usize> {
    let first = s.units.len();
    for unit in units {
        let id = s.units.len();
        for (_, member) in unit.members.iter() {
            match *member {
                Member::Prop(info) => {
                    // A member of a kept unit taken over by another class: the kept one goes at the end.
                    s.discard |= s.by_prop.insert(info, id).is_some();
                }
                Member::Var(op, _) => {
                    let list = s.by_method.entry(op).or_default();
                    s.discard |= list.iter().any(|&other| other < first);
                    if !list.contains(&id) {
                        list.push(id);
                    }
                }
            }
        }
        let members = unit.members.iter().map(|_| MemberRt::default()).collect();
        s.units.push(UnitRt {
            unit: unit.clone(),
            fetched: None,
            fetched_baseline: None,
            recorded: None,
            held: Vec::new(),
            restored: false,
            restoring: None,
            attempts: 0,
            suppressed: false,
            publications: 0,
            active: false,
            members,
        });
    }
    first..s.units.len()
}

/// Restores the not yet restored units of `ce` and of its parents (exact mode: first access).
/// Returns whether any of them has attributed statics.
///
/// A class stays waiting until every one of its units is restored: a restore hook that reaches another
/// static of the class (whose unit comes later) finds it waiting and restores it first, through this
/// function again, so the hook sees the stored value; and after a fatal error or `exit()` in a hook, the
/// units not restored yet are restored at their next access (a shutdown function's).
///
/// # Safety
/// `ce` must be a live, linked class, during a request.
pub unsafe fn restore_class(ce: *mut zend_class_entry) -> bool {
    let mut class = ce;
    let mut registered = false;
    while !class.is_null() {
        let ids = STATE.with_borrow(|s| match s.classes.get(&class) {
            Some(c) if c.active => {
                registered = true;
                if c.lazy {
                    c.ids.clone()
                } else {
                    0..0
                }
            }
            _ => 0..0,
        });
        for id in ids.clone() {
            // SAFETY: registered units belong to live classes.
            if let Err(bailout) = unsafe { restore_unit(id, Occasion::FirstAccess) } {
                // SAFETY: this frame owns nothing but a range; the opcode handler that called it nothing.
                unsafe { bailout.reraise() }
            }
        }
        if !ids.is_empty() {
            STATE.with_borrow_mut(|s| {
                // A unit `restore_unit` left for later (`exit()` pending) keeps its class waiting.
                let done = s.units[ids.clone()].iter().all(|u| u.restored);
                if let Some(c) = s.classes.get_mut(&class) {
                    if done && std::mem::take(&mut c.lazy) {
                        s.waiting.remove(class);
                    }
                }
            });
        }
        // SAFETY: a linked class's parent pointer is a class entry (or null).
        class = unsafe { (*class).__bindgen_anon_1.parent };
    }
    registered
}

/// The index of one of 64 bits chosen by the address of class entry `ce` (see [`State::active_bits`]).
fn class_bit_index(ce: *mut zend_class_entry) -> u32 {
    // Fibonacci hashing of the address (class entries are at least 8-byte aligned): the top 6 bits.
    ((ce as usize as u64 >> 3).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as u32
}

/// The bit of [`class_bit_index`].
fn class_bit(ce: *mut zend_class_entry) -> u64 {
    1 << class_bit_index(ce)
}

/// A multiset of classes as [`class_bit`]s: the bit of a class stays set while another class with the
/// same bit is still in the set.
struct Waiting {
    bits: u64,
    counts: [u32; 64],
}

impl Default for Waiting {
    fn default() -> Self {
        Waiting { bits: 0, counts: [0; 64] }
    }
}

impl Waiting {
    fn add(&mut self, ce: *mut zend_class_entry) {
        let i = class_bit_index(ce);
        self.counts[i as usize] += 1;
        self.bits |= 1 << i;
    }

    fn remove(&mut self, ce: *mut zend_class_entry) {
        let i = class_bit_index(ce);
        let count = &mut self.counts[i as usize];
        *count = count.saturating_sub(1);
        if *count == 0 {
            self.bits &= !(1 << i);
        }
    }
}

/// The classes registered in this request, and those of them still waiting for their first access, as
/// [`busy_then_check_watched`] found them: enough to tell, without a lookup, that a class and its
/// parents are none of them.
#[derive(Clone, Copy)]
pub struct Registered {
    active: u64,
    waiting: u64,
}

impl Registered {
    /// Whether `ce` or one of its parents may be registered ([`restore_class`] tells); false: none is.
    ///
    /// # Safety
    /// `ce` must be a live, linked class.
    pub unsafe fn may_include(self, ce: *mut zend_class_entry) -> bool {
        // SAFETY: as above.
        unsafe { any_in_lineage(self.active, ce) }
    }

    /// Whether `ce` or one of its parents may still wait for its restore; false: [`restore_class`]
    /// would restore nothing.
    ///
    /// # Safety
    /// As [`Registered::may_include`].
    pub unsafe fn may_wait(self, ce: *mut zend_class_entry) -> bool {
        // SAFETY: as above.
        unsafe { any_in_lineage(self.waiting, ce) }
    }
}

/// Whether the [`class_bit`] of `ce` or of one of its parents is in `bits`.
///
/// # Safety
/// `ce` must be a live, linked class.
unsafe fn any_in_lineage(bits: u64, ce: *mut zend_class_entry) -> bool {
    let mut class = ce;
    while !class.is_null() {
        if bits & class_bit(class) != 0 {
            return true;
        }
        // SAFETY: a linked class's parent pointer is a class entry (or null).
        class = unsafe { (*class).__bindgen_anon_1.parent };
    }
    false
}

/// Whether the request has no attributed class registered (exact mode's handlers then do nothing).
pub fn idle() -> bool {
    BUSY_REQUESTS.load(Ordering::Relaxed) == 0 || STATE.with_borrow(|s| s.active == 0)
}

/// Why [`fetch`] gave no value, beyond an absent or unusable entry.
enum Unfetched {
    /// A stored value needs a class that is not declared yet (see [`DecodeError::ClassMissing`]).
    ClassMissing,
    /// The engine bailed out in a hook or an autoloader (see [`DecodeError::Bailout`]): the caller
    /// returns [`Bailout`].
    Bailout,
}

/// Reads the stored value of unit `id` (without counting a lookup); `Ok(None)` when absent or unusable
/// (an unusable entry is deleted), `Err` when it needs a class not declared yet (the entry is kept) or
/// the engine bailed out.
fn fetch(tier: Tier, key: &KeyHash) -> Result<Option<zval>, Unfetched> {
    // The runtime is borrowed, not cloned (see `request::with_runtime` for why it outlives the
    // decoding's userland hooks).
    request::with_runtime(|runtime| {
        let Some(backend) = runtime.and_then(|r| r.backend(tier)) else { return Ok(None) };
        let mut out = zval::new();
        match read_cache::fetch_prepared_uncounted(tier, backend, key, &mut out) {
            Ok(Fetched::Hit) => Ok(Some(out)),
            Ok(Fetched::Miss) => Ok(None),
            Err(DecodeError::Thrown) => {
                // A restore hook's exception is dropped (the defaults stand), but not `exit()`'s: the request
                // ends, as after `exit()` anywhere else (the VM unwinds once the restore returns).
                if !zend::exit_pending() {
                    zvals::clear_exception();
                }
                Ok(None)
            }
            Err(DecodeError::ClassMissing) => Err(Unfetched::ClassMissing),
            Err(DecodeError::Bailout) => Err(Unfetched::Bailout),
            Err(_) => {
                backend.delete(key);
                Ok(None)
            }
        }
    })
}

/// The part of a fetched unit value that belongs to member `name` (the whole value for non-blobs).
///
/// # Safety
/// `fetched` must be a live zval.
unsafe fn member_value(fetched: &zval, blob: bool, name: &[u8]) -> Option<*mut zval> {
    let z = (&raw const *fetched).cast_mut();
    if !blob {
        return Some(z);
    }
    // SAFETY: blobs are stored as arrays keyed by member name; anything else is ignored.
    unsafe {
        if zend::type_of(z) != IS_ARRAY {
            return None;
        }
        zvals::find_str((*z).value.arr, name)
    }
}

/// Why a unit is restored ([`restore_unit`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Occasion {
    /// Exact mode's first access to its class or method: nothing happens if it is restored already, and
    /// a static written before without an opcode (Reflection) keeps the request's value.
    FirstAccess,
    /// When its class links ([`restore_in_order`]): only the userland code of other restores (a hook, an
    /// autoloader) can have written its statics since, so the stored value is restored over such a
    /// write, which must not replace it for good.
    AtLink,
    /// Again, once the classes its value needed are linked: the request may have written its statics
    /// meanwhile.
    Retry,
}

/// Restores the properties of unit `id`, keeps what its method statics will need, and records the
/// baselines of §16.6, on `occasion`. A bailout in a hook is returned for the caller to pass on (the
/// armed record, if any, is let go at request end).
///
/// # Safety
/// During a request; the unit's class is live.
unsafe fn restore_unit(id: usize, occasion: Occasion) -> Result<(), Bailout> {
    // Not while an exception is pending (an earlier restore's hook called `exit()`): the read path would
    // take it for its own, discard it and delete the entry as undecodable. The unit is left unrestored
    // (a later access in exact mode restores it; nothing of it is published meanwhile).
    if zend::exception_pending() {
        return Ok(());
    }
    // The unit's description is shared (reference-counted), so the rest needs no borrow to read it.
    let first = STATE.with_borrow_mut(|s| {
        let mode = s.mode.filter(|m| *m != AttributeMode::Off)?;
        let u = &mut s.units[id];
        // A restore in progress is left to finish, unless it is suspended in a Fiber (a hook called
        // `Fiber::suspend()`): this access must not see the default meanwhile (§16.4), so it restores
        // the unit itself, and the suspended restore, if ever resumed, changes nothing
        // ([`superseded`]). One in the running code's own chain (a hook reaching a static of the unit it
        // restores) is left alone.
        let suspended = u.restoring.is_some_and(|(context, _)| !zend::fiber_context_is_running(context));
        if occasion == Occasion::FirstAccess && u.restored && !suspended {
            return None;
        }
        u.restored = true;
        u.attempts += 1;
        u.restoring = Some((zend::current_fiber_context(), u.attempts));
        let attempt = u.attempts;
        // A retry finds members live already. Only an earlier attempt makes a property member live
        // or keeps a record, never the userland code the fetches below may run.
        let retried = u.members.iter().any(|m| m.live);
        Some((mode, u.unit.clone(), !u.at_write(mode), retried, u.recorded.is_some(), attempt))
    });
    let Some((mode, unit, needs_baseline, retried, had_record, attempt)) = first else { return Ok(()) };
    let (tier, key, blob) = (unit.spec.tier, &unit.key, unit.blob);
    let has_vars = unit.members.iter().any(|(_, m)| matches!(m, Member::Var(..)));
    // A unit of one property published at the write keeps the references the read path's run took to
    // the objects it made, rather than giving them back one by one (see `Recorded::into_held`), when
    // every write to the static goes through exact mode's handler (not a unit `unchecked` writes
    // reach).
    let hold = !needs_baseline && !blob && !has_vars && !retried && !unchecked(id);
    let incomplete_before = crate::class_lookup::incomplete_class_uses();
    // The baselines of §16.6: shallow copies of what is restored, with its objects recorded, or, for a
    // value that cannot be recorded, an independent copy fetched a second time (below). The read path
    // records the objects as it makes them where it can; otherwise the value is walked.
    if needs_baseline {
        compare::arm();
    } else if hold {
        compare::arm_to_hold();
    }
    let (mut fetched, class_missing) = match fetch(tier, key) {
        Ok(fetched) => (fetched, false),
        Err(Unfetched::ClassMissing) => (None, true),
        Err(Unfetched::Bailout) => return Err(Bailout),
    };
    if superseded(id, attempt, occasion) {
        // The value fetched (if any) and the record armed for it are let go; nothing was assigned.
        compare::forget_capture(true);
        drop(fetched);
        return Ok(());
    }
    if hold {
        // SAFETY: right after the fetch; its value is `fetched`, alive.
        unsafe { take_held(id) };
    }
    let mut assigned = false;
    // Only the decoder makes `__PHP_Incomplete_Class` objects, asking for the class each time.
    let may_name_missing = crate::class_lookup::incomplete_class_uses() != incomplete_before;
    let (mut recorded, recordable) = if needs_baseline {
        let (captured, filled) = compare::disarm();
        // A value that is not refcounted (an engine-immutable array, an interned string, a scalar)
        // holds no object: a copy of it is its baseline, and there is nothing to record (nor a record
        // to check and give back at request end). A unit with method statics keeps its record: the
        // defaults of those that have no stored value are recorded in it when installed.
        // SAFETY: a live, freshly fetched value.
        if !filled && !has_vars && fetched.as_ref().is_some_and(|f| unsafe { !zvals::is_refcounted(f) }) {
            // An unfilled record is an empty one (`disarm`): it holds nothing to give back.
            drop(captured);
            (None, true)
        } else {
            let mut record = match (captured, fetched.is_some()) {
                (Some(record), true) => record,
                (Some(record), false) => {
                    // SAFETY: during the request; a record of a value not kept is given back.
                    unsafe { record.release_at_request_end() };
                    Recorded::new()
                }
                (None, _) => Recorded::new(),
            };
            let recordable = match &mut fetched {
                // SAFETY: a live, freshly fetched value.
                Some(f) if !filled => unsafe { record.record(f) },
                _ => true,
            };
            (Some(record), recordable)
        }
    } else {
        (None, false)
    };
    // A recorded value holds no object of an internal class, `__PHP_Incomplete_Class` included.
    let names_missing = !recordable
        && may_name_missing
        // SAFETY: as above.
        && fetched.as_ref().is_some_and(|f| unsafe { names_missing_class(f) });
    if class_missing || names_missing {
        // Restored later, once the classes are linked; meanwhile the defaults stand.
        STATE.with_borrow_mut(|s| s.retry.push(id));
        fetched = None;
    }
    let mut baseline_source = None;
    if needs_baseline && !recordable {
        recorded = None;
        if fetched.is_some() {
            baseline_source = match fetch(tier, key) {
                Ok(source) => source,
                Err(Unfetched::ClassMissing) => None,
                Err(Unfetched::Bailout) => return Err(Bailout),
            };
            // The second fetch runs the hooks again, which may suspend too.
            if superseded(id, attempt, occasion) {
                drop((fetched, baseline_source));
                return Ok(());
            }
        }
        if let Some(b) = &baseline_source {
            // SAFETY: a fresh, private copy: its objects must never run destructors.
            unsafe { mark_no_destructors(b) };
        }
    }
    let described = recorded.is_some();
    if had_record || described {
        let old = STATE.with_borrow_mut(|s| std::mem::replace(&mut s.units[id].recorded, recorded));
        drop(old);
    }
    // The part of a value fetched for the unit that belongs to member `i`.
    let part = |source: &zval, i: usize| {
        // SAFETY: a live fetched value; finding a member in it runs no userland code.
        unsafe { member_value(source, blob, &unit.members[i].0) }
    };
    for (i, &(_, member)) in unit.members.iter().enumerate() {
        let Member::Prop(info) = member else { continue };
        // SAFETY: the class of a registered property is live; values come from live zvals.
        unsafe {
            let slot = abi::static_slot(info);
            // A retry leaves a member alone that the request has changed since the first attempt.
            let untouched = !retried
                || STATE
                    .with_borrow(|s| s.units[id].members[i].published.as_ref().map(|p| (&raw const *p).cast_mut()))
                    .is_none_or(|p| compare::same(slot, p, How::Identity));
            if !untouched {
                continue;
            }
            // Exact mode restores at the first static-property opcode: a write without one before it
            // (`ReflectionProperty::setValue()`, an internal function) is the request's value, which the
            // stored one must not overwrite, and a change to publish at the next check point. At link,
            // only another restore's userland code can have written it (`Occasion::AtLink`).
            let default = (*(*info).ce).default_static_members_table.add((*info).offset as usize);
            let written_before = !retried && occasion != Occasion::AtLink && !holds_default(slot, default);
            let value = fetched.as_ref().and_then(|f| part(f, i));
            match value {
                Some(value) if !written_before => {
                    // The unit of one property takes the fetched value itself, which nothing needs
                    // afterwards (no method statics to install from it): no reference added here only
                    // to be given back when the fetched value is dropped.
                    let whole = !blob && !has_vars && zend::type_of(value) != IS_REFERENCE;
                    let v =
                        if whole { fetched.take().unwrap_or_else(zval::new) } else { zvals::copy(zend::deref(value)) };
                    match assign_checked(info, slot, v) {
                        Ok(()) => assigned = whole,
                        // The record describes the value: it is kept, not dropped (below).
                        Err(v) if whole => fetched = Some(v),
                        Err(_) => {}
                    }
                }
                _ => {}
            }
            // What the request's value is compared with: the restored one (or the default).
            let restored = if written_before { value.unwrap_or(default) } else { slot };
            let baseline = match &baseline_source {
                _ if !needs_baseline => None,
                Some(b) => part(b, i).map(|z| zvals::copy(zend::deref(z))),
                None => Some(zvals::copy(zend::deref(restored))),
            };
            let published = zvals::copy(zend::deref(if written_before { default } else { slot }));
            STATE.with_borrow_mut(|s| {
                let m = &mut s.units[id].members[i];
                m.live = true;
                m.baseline = baseline;
                m.published = Some(published);
            });
        }
    }
    if hold && !assigned {
        let_go_unassigned(id);
    }
    STATE.with_borrow_mut(|s| {
        let u = &mut s.units[id];
        if u.restoring.is_some_and(|(_, at)| at == attempt) {
            u.restoring = None;
        }
    });
    // A record keeps no reference to the objects it marks only (`Recorded::leaves`): the value it
    // describes must live as long as it does. What went into the statics lives on in them and in the
    // baselines; what did not (a value that no longer fits its property's type, a blob's part for a
    // member the request changed before a retry, or for no member) is kept with the fetched value.
    if has_vars || (described && fetched.is_some()) {
        let old = STATE.with_borrow_mut(|s| {
            let u = &mut s.units[id];
            (std::mem::replace(&mut u.fetched, fetched), std::mem::replace(&mut u.fetched_baseline, baseline_source))
        });
        drop(old);
        // Not while a hook's `exit()` or a destroyed Fiber unwinds: a default evaluated now would run
        // userland code (a constructor), and its failure clear that exception.
        let methods = if zend::exception_pending() { Vec::new() } else { unit_methods(id) };
        for op in methods {
            // Deferred mode has no hook at a method's first call: install its table now. A retry installs
            // the stored values also over the defaults an earlier attempt installed (in exact mode, in a
            // method that has its table already; the others wait for their first call).
            // SAFETY: the methods of a registered unit belong to its live class.
            if mode == AttributeMode::Deferred || (retried && unsafe { !abi::static_table(op).is_null() }) {
                // SAFETY: as above.
                unsafe { install_vars(id, op, mode, retried)? };
            }
        }
    }
    Ok(())
}

/// Whether restore `attempt` of unit `id`, back from a fetch whose hooks may have suspended its
/// Fiber, must change nothing. Either a later restore took over while it was suspended: that one's
/// values stand, with whatever the request wrote since. Or its Fiber is being destroyed
/// ([`zend::fiber_unwinding`]) during exact mode's first access: the restore never finished and the
/// request has not used the unit, so it waits again for a restore at its next access (§16.4: the stored
/// value, not the default), and nothing half-restored is published. A restore at link has no later
/// access to wait for: there the defaults stand, as after a hook that throws.
fn superseded(id: usize, attempt: u64, occasion: Occasion) -> bool {
    let unwinding = occasion == Occasion::FirstAccess && zend::fiber_unwinding();
    STATE.with_borrow_mut(|s| {
        let u = &mut s.units[id];
        if u.attempts != attempt {
            return true;
        }
        if unwinding {
            u.restored = false;
            u.restoring = None;
        }
        unwinding
    })
}

/// Whether writes without exact mode's handler may reach unit `id` (`State::unchecked`). Kept out of
/// [`restore_unit`], as the two below, so that deferred mode's restore does not grow with them.
#[inline(never)]
fn unchecked(id: usize) -> bool {
    STATE.with_borrow(|s| s.unchecked.contains(&id))
}

/// Unit `id` takes the references [`compare::disarm_held`] keeps ([`UnitRt::held`]).
///
/// # Safety
/// Right after the fetch [`compare::arm_to_hold`] prepared, with the fetched value alive.
#[inline(never)]
unsafe fn take_held(id: usize) {
    // SAFETY: as above.
    let held = unsafe { compare::disarm_held() };
    STATE.with_borrow_mut(|s| s.units[id].held = held);
}

/// The value whose objects unit `id` holds did not go into the static after all: the references are
/// let go (no destructor runs, see `Recorded::into_held`).
#[inline(never)]
fn let_go_unassigned(id: usize) {
    drop(STATE.with_borrow_mut(|s| std::mem::take(&mut s.units[id].held)));
}

/// The distinct methods whose static variables unit `id` covers.
fn unit_methods(id: usize) -> Vec<*mut zend_op_array> {
    STATE.with_borrow(|s| {
        let mut ops: Vec<*mut zend_op_array> = Vec::new();
        for (_, m) in s.units[id].unit.members.iter() {
            if let Member::Var(op, _) = *m {
                if !ops.contains(&op) {
                    ops.push(op);
                }
            }
        }
        ops
    })
}

/// Whether a decoded value holds objects of `__PHP_Incomplete_Class` (classes not loaded yet).
///
/// # Safety
/// `z` must be a live zval.
unsafe fn names_missing_class(z: &zval) -> bool {
    let Some(incomplete) = crate::class_lookup::incomplete_class() else { return false };
    let mut found = false;
    // SAFETY: as above.
    unsafe { walk_objects(z, |obj| found |= (*obj).ce == incomplete) };
    found
}

/// Whether static property `slot` still holds its declared `default` (the very value the class's
/// statics were initialised with). A default that is a constant expression counts as held: once
/// evaluated, the slot cannot be told from a written one.
///
/// # Safety
/// `slot` and `default` must be live zvals.
unsafe fn holds_default(slot: *mut zval, default: *mut zval) -> bool {
    // SAFETY: as above.
    unsafe { zend::type_of(default) == IS_CONSTANT_AST || compare::identical(zend::deref(slot), default) }
}

/// Writes a restored value into a static property slot, unless it no longer fits the declared type
/// (§16.4: the member then keeps its default, and the value is given back).
///
/// # Safety
/// `slot` is the live slot of `info`; `v` a value of the request (not a reference), owned.
unsafe fn assign_checked(info: *mut zend_property_info, slot: *mut zval, mut v: zval) -> Result<(), zval> {
    // SAFETY: as above; the type check may throw, and the exception is discarded.
    unsafe {
        // A value whose type the declared type names (an array for `array`) is taken as it is, as the
        // engine's own check would; anything else goes through that check.
        let type_mask = (*info).type_.type_mask;
        let named = type_mask & 1u32.checked_shl(zend::type_of(&raw const v)).unwrap_or(0) != 0;
        if zvals::is_typed(info) && !named && !ffi::zend_verify_property_type(info, &raw mut v, true) {
            zvals::clear_exception();
            return Err(v);
        }
        replace(slot, v);
        Ok(())
    }
}

/// Stores `v` in `slot` (through a reference if the slot is one) and releases the old value. Only the
/// value and its type are written, as the engine's `ZVAL_COPY_VALUE` does: the slot keeps its `u2`, which
/// in a static-variable table is the bucket's link to the next one of its hash chain (overwritten, a
/// lookup of another name could loop forever on the chain).
///
/// # Safety
/// `slot` must be a live, writable zval.
unsafe fn replace(slot: *mut zval, v: zval) {
    // SAFETY: as above; the old value is released after the slot holds the new one, whose ownership
    // moves into the slot.
    unsafe {
        let target = zend::deref(slot);
        let old = std::ptr::read(target);
        let v = std::mem::ManuallyDrop::new(v);
        (*target).value = v.value;
        (*target).u1 = v.u1;
        drop(old);
    }
}

/// The zval a restored method static variable is installed as. PHP 8.3's run-time initialisers
/// (`static $x = f();`) start with ZEND_BIND_INIT_STATIC_OR_JMP, which takes a slot that is not NULL for an
/// initialised one and binds it as the reference BIND_STATIC leaves there: a restored value goes in as that
/// reference, so the initialiser is skipped as it is for a value of this request.
///
/// # Safety
/// `slot` must be a live static-variable slot, during a request.
#[cfg(php83)]
unsafe fn restored_static_variable(slot: *mut zval, v: zval) -> zval {
    // SAFETY: caller guarantees a live slot.
    if unsafe { zend::type_of(slot) } == IS_REFERENCE {
        v
    } else {
        zvals::new_reference(v)
    }
}

/// Before PHP 8.3 BIND_STATIC makes the reference itself.
///
/// # Safety
/// None; `unsafe` for the same signature as the PHP 8.3 variant.
#[cfg(not(php83))]
unsafe fn restored_static_variable(_slot: *mut zval, v: zval) -> zval {
    v
}

/// Marks every object of a private copy as destructed, so dropping the copy runs no `__destruct`.
///
/// # Safety
/// `z` must be a live zval.
unsafe fn mark_no_destructors(z: &zval) {
    // SAFETY: as above; every object visited is live.
    unsafe { walk_objects(z, |obj| zvals::skip_destructor(obj)) };
}

/// Calls `f` once for every object reachable from `z` (arrays, references, property tables).
///
/// # Safety
/// `z` must be a live zval; `f` must not modify the graph.
unsafe fn walk_objects(z: &zval, mut f: impl FnMut(*mut ffi::zend_object)) {
    let mut pending = vec![(&raw const *z).cast_mut()];
    let mut seen = foldhash::HashSet::default();
    while let Some(z) = pending.pop() {
        // SAFETY: every zval pushed is reachable from the live root.
        unsafe {
            let z = zend::deref(z);
            match zend::type_of(z) {
                IS_ARRAY if !compare::immutable_array((*z).value.arr) && seen.insert((*z).value.arr as usize) => {
                    pending.extend(zvals::entries((*z).value.arr).map(|(_, v)| v));
                }
                IS_OBJECT => {
                    let obj = (*z).value.obj;
                    if seen.insert(obj as usize) {
                        f(obj);
                        for i in 0..zvals::slot_count((*obj).ce) {
                            pending.push(zvals::property_slot(obj, i));
                        }
                        if !(*obj).properties.is_null() {
                            pending.extend(zvals::entries((*obj).properties).map(|(_, v)| v));
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// Exact mode, a method's `static` statement is about to bind: install its static-variable table
/// with the restored values first (§16.4, A.8), after publishing root writes made since the last
/// check (e.g. through a reference the method returned earlier).
///
/// # Safety
/// `op` must be the live op_array being called, during a request.
pub unsafe fn method_begin(op: *mut zend_op_array) {
    // SAFETY: as above.
    if let Err(bailout) = unsafe { begin_method(op) } {
        // SAFETY: `begin_method` dropped its list of units; this frame and the opcode handler that
        // called it own nothing.
        unsafe { bailout.reraise() }
    }
}

/// [`method_begin`], returning a caught bailout.
///
/// # Safety
/// As [`method_begin`].
unsafe fn begin_method(op: *mut zend_op_array) -> Result<(), Bailout> {
    let Some(mode) = mode() else { return Ok(()) };
    // SAFETY: as above.
    let op = unsafe { method_of(op) };
    let ids = STATE.with_borrow(|s| s.method_units(op));
    if ids.is_empty() {
        return Ok(());
    }
    if mode == AttributeMode::Exact {
        check_written(&ids)?;
        check_watched()?;
    }
    for id in ids {
        // SAFETY: the unit's class is live (its method is being called).
        unsafe { restore_unit(id, Occasion::FirstAccess)? };
        if zend::exception_pending() {
            // The restore's hook called `exit()` or its Fiber is being destroyed: the frame unwinds
            // without binding the variables, which wait for the method's next call.
            return Ok(());
        }
        // SAFETY: as above.
        unsafe { install_vars(id, op, mode, false)? };
    }
    Ok(())
}

/// Exact mode, a method with static variables returns: publish its attributed roots if written.
///
/// # Safety
/// `op` must be the live op_array returning, during a request.
pub unsafe fn method_end(op: *mut zend_op_array) {
    // SAFETY: as above.
    let outcome = unsafe { end_method(op) };
    // SAFETY: `end_method` dropped its list of units; this frame and the opcode handler that called it
    // own nothing.
    unsafe { Bailout::hand_on(outcome) }
}

/// [`method_end`], returning a bailout in a publication.
///
/// # Safety
/// As [`method_end`].
unsafe fn end_method(op: *mut zend_op_array) -> Result<(), Bailout> {
    if mode() != Some(AttributeMode::Exact) {
        return Ok(());
    }
    // SAFETY: as above.
    let op = unsafe { method_of(op) };
    let ids = STATE.with_borrow(|s| s.method_units(op));
    check_written(&ids)?;
    check_watched()
}

/// The method whose static variables `op` runs with: `op` itself, or, for a closure made from a method
/// (`A::m(...)`, `Closure::fromCallable()`, `ReflectionMethod::getClosure()`), the method. Such a "fake"
/// closure runs a copy of the method's op_array (same opcodes) bound to the method's very static-variable
/// table, which the engine creates with the defaults if the method has none yet: keyed by the copy, the
/// method's units were never restored through it, and a later direct call restored over what the
/// closure's calls had written.
///
/// # Safety
/// `op` must be a live user op_array, during a request.
unsafe fn method_of(op: *mut zend_op_array) -> *mut zend_op_array {
    // SAFETY: as above; the scope of a closure made from a method is that method's live class, whose
    // function table holds `zend_function` pointers.
    unsafe {
        let scope = (*op).scope;
        if (*op).fn_flags & abi::ZEND_ACC_FAKE_CLOSURE == 0 || scope.is_null() {
            return op;
        }
        let name = zend::zstr_bytes((*op).function_name);
        let found: *mut ffi::zend_function =
            ffi::zend_hash_str_find_ptr_lc(&raw const (*scope).function_table, name.as_ptr().cast(), name.len()).cast();
        if found.is_null() || (*found).type_ != zend::ZEND_USER_FUNCTION || (*found).op_array.opcodes != (*op).opcodes {
            return op;
        }
        &raw mut (*found).op_array
    }
}

/// Installs the values of unit `id`'s static variables of method `op` that are not installed yet, and
/// for a `retried` restore (the first attempt installed the defaults, a class its value names being
/// missing then) also those the request has not changed since, as a retry does for properties. A
/// bailout while a default is evaluated (a constructor or an autoloader it runs) is returned, after
/// this frame has dropped its list of the variables to install.
///
/// # Safety
/// `op` must be a live user op_array with static variables, during a request.
unsafe fn install_vars(id: usize, op: *mut zend_op_array, mode: AttributeMode, retried: bool) -> Result<(), Bailout> {
    let todo: Vec<(usize, Vec<u8>, *mut ffi::zend_string)> = STATE.with_borrow(|s| {
        let u = &s.units[id];
        u.unit
            .members
            .iter()
            .enumerate()
            .filter(|(_, (_, m))| matches!(m, Member::Var(o, _) if *o == op))
            .filter(|(i, _)| {
                let m = &u.members[*i];
                // SAFETY: a live member's slot and the state's own copy of it are live; nothing here
                // runs userland code.
                !m.live
                    || retried
                        && unsafe { live_value_in(s, id, *i) }
                            .zip(m.published.as_ref())
                            .is_some_and(|(slot, p)| unsafe { compare::identical(zend::deref(slot), p) })
            })
            .map(|(i, (name, m))| match *m {
                Member::Var(_, var) => (i, name.clone(), var),
                Member::Prop(_) => unreachable!("filtered to variables"),
            })
            .collect()
    });
    if todo.is_empty() {
        return Ok(());
    }
    // SAFETY: caller guarantees a live op_array; the table is PHP's own duplicate of the template
    // (A.8: BIND_STATIC addresses slots by offset), values replaced in place.
    unsafe {
        let mut table = abi::static_table(op);
        if table.is_null() {
            table = ffi::zend_array_dup((*op).static_variables);
            abi::set_static_table(op, table);
        }
        let needs_baseline = STATE.with_borrow(|s| !s.units[id].at_write(mode));
        let blob = STATE.with_borrow(|s| s.units[id].unit.blob);
        for (i, name, var) in todo {
            let slot = ffi::zend_hash_find(table, var);
            if slot.is_null() {
                continue;
            }
            let value = STATE.with_borrow(|s| {
                s.units[id]
                    .fetched
                    .as_ref()
                    .and_then(|f| member_value(f, blob, &name))
                    .map(|z| zvals::copy(zend::deref(z)))
            });
            let installed = value.is_some();
            if let Some(v) = value {
                replace(slot, restored_static_variable(slot, v));
            } else if zend::type_of(slot) == IS_CONSTANT_AST {
                // The declared default is a constant expression: evaluate it as BIND_STATIC would
                // (`new Foo`, `Foo::C` can run a constructor or an autoloader).
                if Bailout::catching(|| abi::zval_update_constant_ex(slot, (*op).scope))? != 0 {
                    zvals::clear_exception();
                }
            }
            let current = zvals::copy(zend::deref(slot));
            let stored_baseline = STATE.with_borrow(|s| {
                s.units[id]
                    .fetched_baseline
                    .as_ref()
                    .and_then(|f| member_value(f, blob, &name))
                    .map(|z| zvals::copy(zend::deref(z)))
            });
            // A stored value's objects were recorded when it was restored; a default's are recorded now.
            let baseline = match stored_baseline {
                _ if !needs_baseline => None,
                Some(b) => Some(b),
                None if installed => Some(zvals::copy(zend::deref(slot))),
                None => Some(default_baseline(id, slot)),
            };
            STATE.with_borrow_mut(|s| {
                let m = &mut s.units[id].members[i];
                m.live = true;
                m.baseline = baseline;
                m.published = Some(current);
            });
        }
        let done = STATE.with_borrow(|s| s.units[id].members.iter().all(|m| m.live));
        if done {
            // The fetched value stays while the record describes it (see `restore_unit`).
            let fetched = STATE.with_borrow_mut(|s| {
                let u = &mut s.units[id];
                (u.fetched.take_if(|_| u.recorded.is_none()), u.fetched_baseline.take())
            });
            drop(fetched);
        }
    }
    Ok(())
}

/// The baseline of a method static variable that holds its declared default. Since PHP 8.1 a default
/// can make objects (`static $o = new Foo;`), which the request may change in place: a shallow copy
/// shares them, so those objects go into the unit's record, as a restored value's do. A default the
/// record cannot describe (PHP references, objects of internal classes), or one of a unit whose
/// baselines are independent copies of a stored value (no record, and no stored copy of this
/// variable), gets a baseline no static variable can hold (`IS_UNDEF`): the variable is published at
/// the end of the request.
///
/// # Safety
/// `slot` must be the variable's live slot, during a request.
unsafe fn default_baseline(id: usize, slot: *mut zval) -> zval {
    // SAFETY: as above; recording runs no userland code.
    unsafe {
        let value = zend::deref(slot);
        // Scalars, interned strings and engine-immutable arrays hold no object.
        if !zvals::is_refcounted(value) {
            return zvals::copy(value);
        }
        let recorded = STATE.with_borrow_mut(|s| s.units[id].recorded.as_mut().map(|r| r.record(value)));
        let described = match recorded {
            Some(described) => described,
            None => {
                let mut mutable = false;
                walk_objects(&*value, |obj| mutable |= !crate::class_info::is_enum((*obj).ce));
                !mutable
            }
        };
        if described {
            return zvals::copy(value);
        }
        let mut never = zval::new();
        never.u1.type_info = ffi::IS_UNDEF;
        never
    }
}

/// The live zval of member `i` of unit `id`, or `None` while it does not exist yet.
///
/// # Safety
/// During a request; the unit's class is live.
unsafe fn live_value(id: usize, i: usize) -> Option<*mut zval> {
    // SAFETY: as above.
    STATE.with_borrow(|s| unsafe { live_value_in(s, id, i) })
}

/// [`live_value`] with the state borrowed by the caller (finding the slot runs no userland code).
///
/// # Safety
/// As [`live_value`].
unsafe fn live_value_in(s: &State, id: usize, i: usize) -> Option<*mut zval> {
    let (member, live) = (s.units[id].unit.members[i].1, s.units[id].members[i].live);
    if !live {
        return None;
    }
    // SAFETY: live members have an initialised static slot or static-variable table.
    unsafe {
        match member {
            Member::Prop(info) => Some(abi::static_slot(info)),
            Member::Var(op, var) => {
                let table = abi::static_table(op);
                if table.is_null() {
                    return None;
                }
                let slot = ffi::zend_hash_find(table, var);
                (!slot.is_null()).then_some(slot)
            }
        }
    }
}

/// Builds the value a unit publishes: the member itself, or the blob array of all members (members
/// not live yet contribute what was restored for them, or nothing).
///
/// # Safety
/// During a request.
unsafe fn unit_value(id: usize) -> zval {
    let (blob, names) = STATE.with_borrow(|s| {
        let u = &s.units[id];
        (u.unit.blob, u.unit.members.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>())
    });
    // SAFETY: as above; values are copied (shared by refcount), never moved.
    unsafe {
        if !blob {
            return live_value(id, 0).map_or_else(zval::new, |z| zvals::copy(zend::deref(z)));
        }
        let out = zvals::new_array(names.len(), false);
        for (i, name) in names.iter().enumerate() {
            let value = match live_value(id, i) {
                Some(z) => Some(zvals::copy(zend::deref(z))),
                None => STATE.with_borrow(|s| {
                    s.units[id]
                        .fetched
                        .as_ref()
                        .and_then(|f| member_value(f, true, name))
                        .map(|z| zvals::copy(zend::deref(z)))
                }),
            };
            if let Some(v) = value {
                zvals::insert_str(zvals::table(&raw const out), name, v);
            }
        }
        out
    }
}

/// Why a publication failed (§16.9), or `Thrown` when a userland hook threw, or `Bailout` when the
/// engine bailed out of one (a fatal error).
enum PublishError {
    Message(String),
    Thrown,
    Bailout,
}

/// Encodes and stores unit `id` with its TTL. The backend may be gone (then nothing happens). While the
/// value is encoded, which runs its serialization hooks, this frame holds nothing outside the request's
/// heap (a clone of the runtime held here kept the runtime, and its shared memory mapped, for the life
/// of the process); a bailout out of a hook is caught and returned, for the callers to drop what they
/// hold before it is handed on.
fn publish(id: usize) -> Result<(), PublishError> {
    let (tier, ttl, off) = STATE.with_borrow(|s| {
        let u = &s.units[id].unit;
        (u.spec.tier, u.spec.ttl, s.publication_off)
    });
    if off {
        return Ok(());
    }
    let (key, blob) = STATE.with_borrow(|s| (s.units[id].unit.key.clone(), s.units[id].unit.blob));
    // The bound is worked out before the encoding: the backend is not held while its hooks run.
    let most =
        request::with_runtime(|runtime| runtime.and_then(|r| r.backend(tier)).map(|b| b.max_value_len(key.len())));
    let Some(most) = most else { return Ok(()) };
    // SAFETY: during a request.
    let mut value = unsafe { unit_value(id) };
    let this = STATE.with_borrow_mut(|s| {
        s.units[id].publications += 1;
        s.units[id].publications
    });
    // The encoding leaves nothing of its own behind when a hook bails out of it (zval_in's walk).
    let encoded = match Bailout::catching(|| zval_in::encode(&raw mut value, Bound::bytes_at_most(most))) {
        Ok(Ok(e)) => e,
        Ok(Err(EncodeError::Unstorable)) => {
            // SAFETY: `value` is live.
            return Err(PublishError::Message(unsafe { diagnose::unstorable(&raw mut value) }));
        }
        Ok(Err(EncodeError::TooLarge)) => return Err(capacity_error(shm_core::StoreError::TooLarge, tier)),
        Ok(Err(EncodeError::Thrown)) => return Err(PublishError::Thrown),
        Err(Bailout) => return Err(PublishError::Bailout),
    };
    // A publication of the unit that began while this one's hooks ran holds a later value: a hook wrote
    // the root again, or suspended its Fiber while other code wrote it (exact mode). Storing this older
    // value after it would leave the cache behind the static for the rest of the request and the next.
    if STATE.with_borrow(|s| s.units[id].publications != this) {
        return Ok(());
    }
    // The runtime is borrowed, not cloned (nothing below runs userland code).
    request::with_runtime(|runtime| {
        let Some(backend) = runtime.and_then(|r| r.backend(tier)) else { return Ok(()) };
        let created = !blob && backend.peek(&key).is_none();
        // Before the store: a delete() that finds no mark skips the search for attribute state.
        backend.note_internal_store();
        backend.store(&key, encoded.tag, &encoded.bytes, ttl).map_err(|e| capacity_error(e, tier))?;
        if created {
            super::member_search::note_created(tier, backend);
        }
        Ok(())
    })
}

/// §16.9's texts for a store that found no room, plus the backend and the directive that gives it more.
fn capacity_error(e: shm_core::StoreError, tier: Tier) -> PublishError {
    let problem = match e {
        shm_core::StoreError::TableFull => "cache hash table is full",
        _ => "not enough shared memory left",
    };
    let directive = match tier {
        Tier::Volatile => "static_cache.volatile_size_mb",
        Tier::Pinned => "static_cache.pinned_size_mb",
    };
    PublishError::Message(format!("{problem} in the {} (raise {directive})", tier.label()))
}

/// Publishes unit `id` now, from inside the request (exact mode): a `PinnedStatic` failure throws
/// `StaticCacheException`, a `VolatileStatic` failure is silent. A bailout out of a serialization hook,
/// or out of a destructor that letting go of the replaced copies runs, is returned, for the callers to
/// drop their lists of units before it is handed on (a longjmp past them leaked them).
fn publish_at_write(id: usize) -> Result<(), Bailout> {
    let pinned = STATE.with_borrow(|s| s.units[id].unit.spec.tier == Tier::Pinned);
    let outcome = publish(id);
    // Failed or not (a fatal error in a hook included), this write has had its publication: request end
    // does not retry it.
    let released = let_go(remember_published(id), None);
    match outcome {
        Err(PublishError::Bailout) => Err(Bailout),
        Err(PublishError::Message(m)) if pinned && released.is_ok() => {
            exception::throw(&m);
            Ok(())
        }
        _ => released,
    }
}

/// After a publication: the published copies become the reference for the next root-write check.
/// Returns the copies they replace, for the caller to let go (a destructor may run then), with the
/// references held since the restore ([`UnitRt::held`]), which go with them.
fn remember_published(id: usize) -> Vec<zval> {
    let n = STATE.with_borrow(|s| s.units[id].members.len());
    let mut replaced = Vec::new();
    for i in 0..n {
        // SAFETY: during a request.
        if let Some(z) = unsafe { live_value(id, i) } {
            // SAFETY: `z` is a live slot.
            let copy = unsafe { zvals::copy(zend::deref(z)) };
            replaced.extend(STATE.with_borrow_mut(|s| s.units[id].members[i].published.replace(copy)));
        }
    }
    replaced.extend(STATE.with_borrow_mut(|s| std::mem::take(&mut s.units[id].held)));
    replaced
}

/// Whether any live member of unit `id` differs from its reference copy under `how`.
fn changed(id: usize, how: How) -> bool {
    // A member still holding the very value of its reference copy is unchanged (the copy's reference
    // makes the engine separate any write to what it holds), unless it holds objects shared with a
    // record: those are unchanged when the record says so. This answers for a request that changed
    // nothing, without allocating.
    // SAFETY: during a request; a live member's slot, the state's own copies and the objects a record
    // holds are live; nothing here runs userland code.
    let untouched = STATE.with_borrow(|s| unsafe { untouched_in(s, id, how) });
    if untouched {
        return false;
    }
    let (n, recorded) = STATE.with_borrow(|s| {
        let u = &s.units[id];
        (u.members.len(), u.recorded.as_ref().filter(|_| how == How::Structural).map(|r| r as *const Recorded))
    });
    let pairs: Vec<(*mut zval, *mut zval)> = (0..n)
        .filter_map(|i| {
            // SAFETY: during a request.
            let live = unsafe { live_value(id, i) }?;
            let reference = STATE.with_borrow(|s| {
                let m = &s.units[id].members[i];
                let r = if how == How::Identity { &m.published } else { &m.baseline };
                r.as_ref().map(|z| (&raw const *z).cast_mut())
            })?;
            Some((live, reference))
        })
        .collect();
    // The pointers stay valid: nothing replaces the reference copies or the record during the
    // comparison, which runs no userland code when a record is used.
    // SAFETY: live slots and private copies of this state, during a request.
    unsafe {
        match recorded {
            Some(recorded) => {
                let untouched = pairs.iter().all(|&(live, reference)| compare::identical(zend::deref(live), reference))
                    && (*recorded).untouched();
                !untouched && !compare::all_same_as_recorded(&pairs, &*recorded)
            }
            None => !compare::all_same(&pairs, how),
        }
    }
}

/// The allocation-free answer of [`changed`]: every live member of unit `id` still holds the very
/// value of its reference copy under `how` (and the objects of its record are untouched).
///
/// # Safety
/// During a request; nothing here runs userland code.
unsafe fn untouched_in(s: &State, id: usize, how: How) -> bool {
    let u = &s.units[id];
    // SAFETY: as above; a live member's slot, the state's own copies and the objects a record holds
    // are live.
    unsafe {
        (0..u.members.len()).all(|i| {
            let m = &u.members[i];
            let reference = if how == How::Identity { &m.published } else { &m.baseline };
            live_value_in(s, id, i)
                .zip(reference.as_ref())
                .is_none_or(|(live, r)| compare::identical(zend::deref(live), r))
        }) && (how == How::Identity || u.recorded.as_ref().is_none_or(|r| r.untouched()))
    }
}

/// Exact mode: publishes those of `ids` (publication at the write) whose roots were written. A bailout
/// in a publication is returned (see [`publish_at_write`]).
fn check_written(ids: &[usize]) -> Result<(), Bailout> {
    for &id in ids {
        let eligible = STATE.with_borrow(|s| {
            let u = &s.units[id];
            u.restored && s.mode.is_some_and(|m| u.at_write(m))
        });
        if eligible && changed(id, How::Identity) {
            publish_at_write(id)?;
            if zend::exception_pending() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Exact mode: checks the units written through static-property fetches since the last check, and
/// those written where no check runs. A bailout in a publication is returned, after this frame has
/// dropped its list of units.
fn check_watched() -> Result<(), Bailout> {
    let ids = STATE.with_borrow_mut(take_watched);
    if ids.is_empty() {
        return Ok(());
    }
    check_written(&ids)
}

/// [`check_watched`] for an entry point whose frame owns nothing: a bailout is handed on.
fn check_watched_or_hand_on() {
    let outcome = check_watched();
    // SAFETY: `check_watched` dropped its list; this frame owns nothing, and its callers (the API
    // methods' attribute steps) own nothing of this module.
    unsafe { Bailout::hand_on(outcome) }
}

/// The units [`check_watched`] checks (nothing is allocated when there are none).
fn take_watched(s: &mut State) -> Vec<usize> {
    if s.watch.is_empty() && s.unchecked.is_empty() {
        // `watch` keeps its capacity.
        return Vec::new();
    }
    let mut ids = std::mem::take(&mut s.watch);
    if !s.unchecked.is_empty() {
        ids.extend(s.unchecked.iter().filter(|id| !ids.contains(id)).collect::<Vec<_>>());
    }
    ids
}

/// Exact mode's handlers at a static-property opline: `None` when the request has no attributed class
/// registered ([`idle`]); otherwise the pending root writes are checked first ([`check_watched`]), and
/// the classes registered then are returned. Usually no write waits for a check: that is answered in
/// the same look at the state as the classes, the lists untouched.
pub fn busy_then_check_watched() -> Option<Registered> {
    if BUSY_REQUESTS.load(Ordering::Relaxed) == 0 {
        return None;
    }
    let (registered, pending) = STATE
        .with_borrow(|s| (s.active != 0).then(|| (s.registered(), !(s.watch.is_empty() && s.unchecked.is_empty()))))?;
    Some(if pending { check_then_registered() } else { registered })
}

/// [`busy_then_check_watched`] with root writes waiting for their check (kept out of its path).
#[inline(never)]
fn check_then_registered() -> Registered {
    let ids = STATE.with_borrow_mut(take_watched);
    let outcome = check_written(&ids);
    drop(ids);
    // SAFETY: the list is dropped; this frame and exact mode's handler that called it own nothing.
    unsafe { Bailout::hand_on(outcome) };
    // A publication's hooks may have linked (and registered) classes.
    STATE.with_borrow(State::registered)
}

/// Exact mode: a static-property fetch for writing (`$a[] =`, `++`, `$x = &…`, by-reference
/// arguments) targets `info`; its unit is checked at the next check point.
pub fn watch(info: *mut zend_property_info) {
    STATE.with_borrow_mut(|s| {
        if let Some(id) = s.prop_unit(info) {
            if !s.watch.contains(&id) {
                s.watch.push(id);
            }
        }
    });
}

/// The unit of `info` if it publishes at the write (exact mode).
pub fn at_write_unit(info: *mut zend_property_info) -> Option<usize> {
    STATE.with_borrow(|s| {
        let id = s.prop_unit(info)?;
        let u = &s.units[id];
        (u.restored && s.mode.is_some_and(|m| u.at_write(m))).then_some(id)
    })
}

/// Publishes unit `id` after the extension itself performed a root assignment (exact mode).
pub fn published_assignment(id: usize) {
    let outcome = publish_at_write(id);
    // SAFETY: this frame and exact mode's assignment handler that called it own nothing.
    unsafe { Bailout::hand_on(outcome) }
}

/// The units [`publish_at_end`] still has to look at, from the first one found changed (or not known
/// untouched without a comparison), in `mode`.
pub struct Changed {
    mode: AttributeMode,
    first: usize,
    count: usize,
}

/// Request end (RSHUTDOWN, or the end of one HTTP request in worker mode, `worker`), its first part: one
/// pass with the state borrowed answers for the leading units that still hold what they were restored
/// or published with (a request that changed nothing allocates nothing, runs no userland code and
/// needs no frame); at RSHUTDOWN the records of those units are let go. `None`: nothing more to do;
/// otherwise [`publish_at_end`] goes on from the first other unit.
pub fn publish_untouched(worker: bool) -> Option<Changed> {
    // SAFETY: during a request; `untouched_in` runs no userland code.
    let scan = STATE.with_borrow_mut(|s| unsafe {
        let mode = s.mode.filter(|m| *m != AttributeMode::Off)?;
        let mut served = std::mem::take(&mut s.served);
        let s = &*s;
        for (id, u) in s.units.iter().enumerate() {
            if !u.restored || u.suppressed {
                continue;
            }
            let how = if u.at_write(mode) { How::Identity } else { How::Structural };
            if !untouched_in(s, id, how) {
                return Some((mode, id, s.units.len(), served));
            }
            // Worker mode keeps the records (nothing is allocated for them here).
            if (u.recorded.is_some() || !u.held.is_empty()) && !worker {
                served.push(id);
            }
        }
        Some((mode, s.units.len(), s.units.len(), served))
    });
    let (mode, first, count, mut served) = scan?;
    if !worker {
        // At RSHUTDOWN the record has served: it is let go while its objects, just compared, are
        // still in the cache, rather than in a second walk when the state is dropped.
        for &id in &served {
            release_record(id);
        }
    }
    served.clear();
    STATE.with_borrow_mut(|s| s.served = served);
    (first < count).then_some(Changed { mode, first, count })
}

/// Request end, its second part ([`publish_untouched`] found `rest` to look at): from the first unit not known
/// untouched on, units are compared and published one by one, outside the borrow, in order (a
/// serialization hook may change the units after it). In worker mode the statics live on, so each
/// published unit's reference copies are re-based on what is now stored, right after its publication.
/// A userland hook may bail out in here (at RSHUTDOWN a throw is fatal): the caller drops the state
/// separately ([`forget_request`]). A bailout in a serialization hook, or while a unit is re-based, is
/// handed on from here, once this frame owns nothing.
pub fn publish_at_end(rest: Changed, worker: bool) {
    let Changed { mode, first, count } = rest;
    let mut bailout = None;
    // The first exception a `VolatileStatic`'s hook threw at RSHUTDOWN, reported as uncaught once every
    // other unit is published (`zend::with_frame`); in worker mode, between HTTP requests, such
    // failures are silent like the unit's other publication failures.
    let mut unreported = None;
    for id in first..count {
        let (restored, suppressed, at_write) = STATE.with_borrow(|s| {
            let u = &s.units[id];
            (u.restored, u.suppressed, u.at_write(mode))
        });
        if !restored || suppressed {
            continue;
        }
        let how = if at_write { How::Identity } else { How::Structural };
        if !changed(id, how) {
            if !worker {
                release_record(id);
            }
            continue;
        }
        match publish(id) {
            // What was just published becomes the reference before any later unit's hook runs (one that
            // changes this unit is then seen at the next HTTP request's end).
            Ok(()) if worker => {
                if let Err(b) = rebase(id) {
                    bailout = Some(b);
                    break;
                }
            }
            Ok(()) => {}
            Err(e) => {
                let (pinned, target) = STATE.with_borrow(|s| {
                    let u = &s.units[id].unit;
                    // SAFETY: a registered unit's class is live for the request.
                    (u.spec.tier == Tier::Pinned, unsafe { u.target() })
                });
                let message = match e {
                    PublishError::Message(m) => m,
                    // exit() in a hook: its unwinding is pending, not an exception to report. It ends the
                    // request's userland code here, as it does in a shutdown function, and a fatal error
                    // ends publication: the units after this one are not published either.
                    PublishError::Thrown if zend::exit_pending() => {
                        zvals::clear_exception();
                        break;
                    }
                    PublishError::Thrown if !pinned && !worker && unreported.is_none() => {
                        unreported = zend::take_exception();
                        continue;
                    }
                    // A fatal error in a hook: the units after this one are not published.
                    PublishError::Bailout => {
                        bailout = Some(Bailout);
                        break;
                    }
                    PublishError::Thrown => {
                        let thrown = zend::pending_exception_text().unwrap_or_default();
                        zvals::clear_exception();
                        format!("a serialization hook threw {thrown}")
                    }
                };
                if pinned {
                    zend::warning_plain(&format!("OPcache\\PinnedStatic could not publish {target}: {message}"));
                }
            }
        }
    }
    if let Some(exception) = unreported {
        zend::restore_exception(exception);
    }
    if let Some(bailout) = bailout {
        // SAFETY: this frame owns nothing that needs dropping (in worker mode nothing was served and no
        // exception kept); its caller, the end of the HTTP request, owns nothing either.
        unsafe { bailout.reraise() }
    }
}

/// RSHUTDOWN: lets go of unit `id`'s record and of the references it holds ([`give_back`]).
fn release_record(id: usize) {
    let (recorded, held) = STATE.with_borrow_mut(|s| {
        let u = &mut s.units[id];
        (u.recorded.take(), std::mem::take(&mut u.held))
    });
    give_back(recorded, held);
}

/// RSHUTDOWN: gives back a unit's record (see [`compare::Recorded::end_of_request`]) and the references
/// it held ([`compare::release_held`]), taken out of the state.
fn give_back(recorded: Option<Recorded>, held: Held) {
    if let Some(recorded) = recorded {
        // SAFETY: RSHUTDOWN of the request that recorded it.
        unsafe { recorded.end_of_request() };
    }
    if !held.is_empty() {
        // SAFETY: as above.
        unsafe { compare::release_held(held) };
    }
}

/// RSHUTDOWN: drops the request's attribute state (its zvals live in the request heap, which is still
/// there; the next request must not see any of it).
pub fn forget_request() {
    // A record a bailout left armed during a restore's fetch.
    compare::forget_capture(true);
    // The state's request part is emptied in place (mode off: nothing registers while the values are
    // released); its units, which hold the request's values, are taken out first.
    let (mut units, keep) = STATE.with_borrow_mut(|s| {
        release(s);
        let keep = s.keepable();
        let units = std::mem::take(&mut s.units);
        if keep {
            s.end_request();
        } else {
            s.clear();
        }
        (units, keep)
    });
    if units.is_empty() {
        return;
    }
    for u in &mut units {
        give_back(u.recorded.take(), std::mem::take(&mut u.held));
    }
    // The request's values are released here, outside the borrow (destructors may run); the kept
    // units, or the emptied vector, serve the next request.
    if keep {
        units.iter_mut().for_each(UnitRt::reset);
    } else {
        units.clear();
    }
    STATE.with_borrow_mut(|s| {
        if s.units.is_empty() {
            s.units = units;
        } else if keep {
            // Never the case (nothing registers at RSHUTDOWN), but kept classes must not outlive
            // their units.
            s.clear();
        }
    });
}

/// Lets go, in the middle of a request (a worker script, or exact mode's write), of what a unit held as
/// its reference before it was re-based or published: copies of values, then the record, each release
/// behind a catch (their objects' destructors may run here). After a bailout in one the rest is let go
/// all the same, without running userland code (a fatal error marks every object destructed), and the
/// bailout is returned.
fn let_go(values: Vec<zval>, record: Option<Recorded>) -> Result<(), Bailout> {
    let mut outcome = Ok(());
    for value in values {
        if let Err(bailout) = Bailout::catching(|| drop(value)) {
            outcome = Err(bailout);
        }
    }
    if let Some(record) = record {
        // SAFETY: the record of this request, whose values are live. (A record has no drop that would
        // give its references back: dropped, its objects stayed alive for the rest of the script.)
        if let Err(bailout) = unsafe { record.release() } {
            outcome = Err(bailout);
        }
    }
    outcome
}

/// Worker mode: after publishing unit `id`, its reference copies become what is now stored: the
/// published copies and the baselines the live values, recorded again, or, when they cannot be recorded,
/// the baselines a fresh copy of the stored value. The unit is switched to its new reference before what
/// it held is let go ([`let_go`]), and keeps its old one when the stored value cannot be read (its
/// hooks run then): a bailout in either is returned with the unit's baselines and record still
/// describing one and the same state.
fn rebase(id: usize) -> Result<(), Bailout> {
    let replaced = remember_published(id);
    let (tier, key, blob, names, was_recorded) = STATE.with_borrow(|s| {
        let u = &s.units[id];
        let names = u.unit.members.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        (u.unit.spec.tier, u.unit.key.clone(), u.unit.blob, names, u.recorded.is_some())
    });
    if was_recorded {
        let mut objects = Recorded::new();
        let mut copies = Vec::new();
        let mut recordable = true;
        for i in 0..names.len() {
            // SAFETY: during a request; live slots.
            unsafe {
                let live = live_value(id, i).map(|z| zend::deref(z));
                recordable &= live.is_none_or(|z| objects.record(z));
                copies.push(live.map(|z| zvals::copy(z)));
            }
        }
        if recordable {
            let (old, fetched, record) = STATE.with_borrow_mut(|s| {
                let u = &mut s.units[id];
                let old: Vec<_> =
                    u.members.iter_mut().zip(copies).map(|(m, c)| std::mem::replace(&mut m.baseline, c)).collect();
                (old, u.fetched_for_record(), u.recorded.replace(objects))
            });
            return let_go(replaced.into_iter().chain(old.into_iter().flatten()).chain(fetched).collect(), record);
        }
        // What the record took before it gave up is held by the live values it was taken from as well:
        // giving it back destroys nothing.
        // SAFETY: the record of this request (the worker script), whose values are live.
        unsafe { objects.release() }?;
    }
    let stored = match fetch(tier, &key) {
        Ok(Some(stored)) => stored,
        // The unit keeps the reference it was compared against (the value is found changed again).
        Ok(None) | Err(Unfetched::ClassMissing) => return let_go(replaced, None),
        Err(Unfetched::Bailout) => return Err(Bailout),
    };
    // SAFETY: a fresh private copy.
    unsafe { mark_no_destructors(&stored) };
    let copies: Vec<Option<zval>> = names
        .iter()
        // SAFETY: `stored` is live.
        .map(|name| unsafe { member_value(&stored, blob, name).map(|z| zvals::copy(zend::deref(z))) })
        .collect();
    let (old, fetched, record) = STATE.with_borrow_mut(|s| {
        let u = &mut s.units[id];
        let old: Vec<_> =
            u.members.iter_mut().zip(copies).map(|(m, c)| std::mem::replace(&mut m.baseline, c)).collect();
        (old, u.fetched_for_record(), u.recorded.take())
    });
    let_go(replaced.into_iter().chain(old.into_iter().flatten()).chain(fetched).collect(), record)
}

/// Exact mode's check point of an API call that deletes attribute state (before `on_delete_unit`,
/// `on_delete_class`): pending root writes are published now, while the caller owns nothing (a bailout
/// out of a publication is handed on), and the copies it takes afterwards are safe.
pub fn check_point() {
    if mode().is_some() {
        check_watched_or_hand_on();
    }
}

/// `clear()` of `tier` (§16.8): attribute state of that backend the request has touched is not
/// republished at request end. Exact mode first publishes pending root writes.
pub fn on_clear(tier: Tier) {
    if mode().is_none() {
        return;
    }
    check_watched_or_hand_on();
    STATE.with_borrow_mut(|s| {
        for u in s.units.iter_mut().filter(|u| u.unit.spec.tier == tier && u.restored) {
            u.suppressed = true;
        }
    });
}

/// `delete()` of an RFC attribute key (§16.3): the unit stored under `key` in `tier`, if this request
/// has restored it, is not republished. The caller ran [`check_point`] first.
pub fn on_delete_unit(tier: Tier, key: &[u8]) {
    if mode().is_none() {
        return;
    }
    STATE.with_borrow_mut(|s| {
        for u in s.units.iter_mut().filter(|u| u.unit.spec.tier == tier && u.restored && **u.unit.key == *key) {
            u.suppressed = true;
        }
    });
}

/// `opcache_reset()` (§14.6): nothing is published for the rest of the request.
pub fn on_reset() {
    STATE.with_borrow_mut(|s| s.publication_off = true);
}

/// The classes with attributed statics registered in this request whose declaring file is `path`
/// (`opcache_invalidate($path, true)`, §14.6).
pub fn classes_declared_in(path: &std::path::Path) -> Vec<*mut zend_class_entry> {
    let classes: Vec<*mut zend_class_entry> =
        STATE.with_borrow(|s| s.classes.iter().filter(|(_, c)| c.active).map(|(&ce, _)| ce).collect());
    let wanted = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    classes
        .into_iter()
        .filter(|&ce| {
            // SAFETY: registered classes are live user classes; their file name is a live string.
            let file = unsafe { zend::zstr_bytes((*ce).info.user.filename) };
            let file = std::path::Path::new(std::ffi::OsStr::from_bytes(file));
            file == wanted || std::fs::canonicalize(file).is_ok_and(|f| f == wanted)
        })
        .collect()
}

/// `delete(Class)` (§5.7, §16.8): the keys of `ce`'s attribute state in `tier`, whose republication
/// this request then suppresses. The caller ran [`check_point`] first.
///
/// # Safety
/// `ce` must be a live class, during a request.
pub unsafe fn on_delete_class(tier: Tier, ce: *mut zend_class_entry) -> Vec<Vec<u8>> {
    let registered = STATE.with_borrow_mut(|s| {
        let ids = s.classes.get(&ce).filter(|c| c.active)?.ids.clone();
        let mut keys = Vec::new();
        for id in ids {
            let u = &mut s.units[id];
            if u.unit.spec.tier == tier {
                u.suppressed = true;
                keys.push(u.unit.key.to_vec());
            }
        }
        Some(keys)
    });
    // A class not registered in this request (no attribute engine, or linked earlier): plan it.
    // SAFETY: caller guarantees a live class.
    registered.unwrap_or_else(|| unsafe {
        if (*ce).ce_flags & abi::ZEND_ACC_LINKED == 0 {
            return Vec::new();
        }
        let units = plan::plan(ce).ok().flatten();
        units.iter().flat_map(|u| u.iter()).filter(|u| u.spec.tier == tier).map(|u| u.key.to_vec()).collect()
    })
}

/// Whether the value in a by-reference slot can be written in place by the extension.
///
/// # Safety
/// `slot` must be a live zval.
pub unsafe fn is_reference(slot: *const zval) -> bool {
    // SAFETY: as above.
    unsafe { zend::type_of(slot) == IS_REFERENCE }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two class addresses that share a [`class_bit`].
    fn colliding() -> (*mut zend_class_entry, *mut zend_class_entry) {
        let first = 0x1000 as *mut zend_class_entry;
        let second = (1..)
            .map(|i| (0x1000 + 8 * i) as *mut zend_class_entry)
            .find(|&ce| class_bit_index(ce) == class_bit_index(first))
            .unwrap();
        (first, second)
    }

    #[test]
    fn a_class_restored_leaves_the_bit_of_another_waiting_with_the_same_bit() {
        let (a, b) = colliding();
        let mut waiting = Waiting::default();
        waiting.add(a);
        waiting.add(b);
        waiting.remove(a);
        assert_ne!(waiting.bits & class_bit(b), 0, "b still waits for its restore");
        waiting.remove(b);
        assert_eq!(waiting.bits, 0);
    }

    #[test]
    fn a_class_whose_parent_waits_may_wait_and_one_whose_lineage_has_no_bit_does_not() {
        // SAFETY: class entries are plain data; zeroed, they have no parent.
        let mut parent: Box<zend_class_entry> = Box::new(unsafe { std::mem::zeroed() });
        // SAFETY: as above.
        let mut child: Box<zend_class_entry> = Box::new(unsafe { std::mem::zeroed() });
        let parent: *mut zend_class_entry = &raw mut *parent;
        child.__bindgen_anon_1.parent = parent;
        let child: *mut zend_class_entry = &raw mut *child;
        let registered = Registered { active: class_bit(parent), waiting: class_bit(parent) };
        // SAFETY: both classes are live, the child's parent pointer is the parent.
        unsafe {
            assert!(registered.may_wait(child));
            assert!(registered.may_include(child));
            let others = !(class_bit(parent) | class_bit(child));
            assert!(!Registered { active: others, waiting: others }.may_wait(child));
            assert!(!Registered { active: others, waiting: others }.may_include(child));
        }
    }
}
