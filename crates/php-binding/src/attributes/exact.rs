//! Exact mode's user opcode handlers (§16.5), installed only when the JIT is not configured.
//! * `BIND_STATIC` (a method's `static` statement): its attributed static variables are installed
//!   before the first bind; `RETURN`/`RETURN_BY_REF` of a function with static variables: its
//!   attributed roots are published if written. Functions without static variables pass straight on.
//! * The static-property opcodes. Each one
//! 1. publishes root writes made since the previous check (`engine::busy_then_check_watched`),
//! 2. restores the target class at its first access,
//! 3. for a plain assignment to a root that publishes at the write, performs the assignment itself
//!    and publishes the result at once (so a `PinnedStatic` failure throws after the assignment took
//!    effect, at the assigning statement); for an element write statement through such a root
//!    (`Foo::$a[] = …;`) runs the statement's oplines and then the check, so a failure throws at the
//!    write too; and for other writing fetches marks the root for the next check.
//!
//! The handlers serve the private opcodes of the oplines `placement` chose, and run the original
//! opcode afterwards. Where oplines cannot be chosen (`placement::install` refused), they hook the
//! engine's opcodes themselves, for all code, chaining to handlers installed before.

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

use ext_php_rs::ffi::{
    self, zend_class_entry, zend_execute_data, zend_op, zend_op_array, zend_property_info, zend_string, zval,
    IS_OBJECT, IS_STRING, IS_UNDEF,
};

use super::abi::{
    self, zend_get_user_opcode_handler, OpcodeHandler, BP_VAR_RW, BP_VAR_W, IS_CONST, IS_CV, IS_TMP_VAR, IS_UNUSED,
    IS_VAR,
};
use super::engine;
use super::placement;
use crate::zend;
use crate::zvals;

const ZEND_USER_OPCODE_CONTINUE: c_int = 0;
const ZEND_USER_OPCODE_DISPATCH: c_int = 2;
const ZEND_USER_OPCODE_DISPATCH_TO: c_int = 0x100;

const ASSIGN_STATIC_PROP: u8 = 25;
const ASSIGN_STATIC_PROP_OP: u8 = 29;
const ASSIGN_STATIC_PROP_REF: u8 = 33;
const PRE_INC_STATIC_PROP: u8 = 38;
const PRE_DEC_STATIC_PROP: u8 = 39;
const POST_INC_STATIC_PROP: u8 = 40;
const POST_DEC_STATIC_PROP: u8 = 41;
const FETCH_STATIC_PROP_R: u8 = 173;
const FETCH_STATIC_PROP_W: u8 = 174;
const FETCH_STATIC_PROP_RW: u8 = 175;
const FETCH_STATIC_PROP_IS: u8 = 176;
const FETCH_STATIC_PROP_FUNC_ARG: u8 = 177;
const FETCH_STATIC_PROP_UNSET: u8 = 178;
const ISSET_ISEMPTY_STATIC_PROP: u8 = 180;
const RETURN: u8 = 62;
const RETURN_BY_REF: u8 = 111;
const BIND_STATIC: u8 = 183;
const ASSIGN_DIM: u8 = 23;
const ASSIGN_DIM_OP: u8 = 27;
const PRE_INC: u8 = 34;
const POST_DEC: u8 = 37;
const FETCH_DIM_W: u8 = 84;
const FETCH_DIM_RW: u8 = 87;

/// PHP 8.3: first opline of `static $x = <run-time expression>;`, before the initialiser and BIND_STATIC.
#[cfg(php83)]
const BIND_INIT_STATIC_OR_JMP: u8 = 203;

/// Every static-property opcode: restore points and check points. The first ten may change the root
/// in place (the write itself happens in the opcodes that follow).
pub const STATIC_PROPERTY: [u8; 14] = [
    ASSIGN_STATIC_PROP_OP,
    ASSIGN_STATIC_PROP_REF,
    PRE_INC_STATIC_PROP,
    PRE_DEC_STATIC_PROP,
    POST_INC_STATIC_PROP,
    POST_DEC_STATIC_PROP,
    FETCH_STATIC_PROP_W,
    FETCH_STATIC_PROP_RW,
    FETCH_STATIC_PROP_FUNC_ARG,
    FETCH_STATIC_PROP_UNSET,
    ASSIGN_STATIC_PROP,
    FETCH_STATIC_PROP_R,
    FETCH_STATIC_PROP_IS,
    ISSET_ISEMPTY_STATIC_PROP,
];
const WRITES: &[u8] = STATIC_PROPERTY.split_at(10).0;

/// One bit per engine opcode: set for those of `opcodes` (a lookup that costs no search).
const fn opcode_set(opcodes: &[u8]) -> [u64; 4] {
    let mut set = [0u64; 4];
    let mut i = 0;
    while i < opcodes.len() {
        set[(opcodes[i] / 64) as usize] |= 1 << (opcodes[i] % 64);
        i += 1;
    }
    set
}

const STATIC_PROPERTY_SET: [u64; 4] = opcode_set(&STATIC_PROPERTY);
const WRITES_SET: [u64; 4] = opcode_set(WRITES);

fn in_set(set: &[u64; 4], opcode: u8) -> bool {
    set[usize::from(opcode / 64)] & (1 << (opcode % 64)) != 0
}

/// The function-level opcodes: method statics (restored at their first `static` statement).
#[cfg(not(php83))]
const FUNCTION_OPCODES: [u8; 3] = [BIND_STATIC, RETURN, RETURN_BY_REF];
#[cfg(php83)]
const FUNCTION_OPCODES: [u8; 4] = [BIND_STATIC, BIND_INIT_STATIC_OR_JMP, RETURN, RETURN_BY_REF];

/// Every opcode exact mode hooks, in a fixed order (the private opcodes of `placement` follow it):
/// the static-property opcodes, then the function-level ones.
pub const HOOKED: [u8; STATIC_PROPERTY.len() + FUNCTION_OPCODES.len()] = {
    let mut all = [0u8; STATIC_PROPERTY.len() + FUNCTION_OPCODES.len()];
    let mut i = 0;
    while i < all.len() {
        all[i] =
            if i < STATIC_PROPERTY.len() { STATIC_PROPERTY[i] } else { FUNCTION_OPCODES[i - STATIC_PROPERTY.len()] };
        i += 1;
    }
    all
};

/// Whether `opcode` (an engine opcode) addresses a static property.
pub fn is_static_property(opcode: u8) -> bool {
    in_set(&STATIC_PROPERTY_SET, opcode)
}

fn is_static_statement(opcode: u8) -> bool {
    #[cfg(php83)]
    if opcode == BIND_INIT_STATIC_OR_JMP {
        return true;
    }
    opcode == BIND_STATIC
}

/// Handlers that were installed before ours, per engine opcode (0 = none), when ours hook the engine's
/// opcodes.
static PREVIOUS: [AtomicUsize; 256] = [const { AtomicUsize::new(0) }; 256];

type BinaryOp = unsafe extern "C" fn(*mut zval, *mut zval, *mut zval) -> c_int;

unsafe extern "C" {
    fn get_binary_op(opcode: c_int) -> Option<BinaryOp>;
}

/// Our handler for the `index`th of [`hooked`].
fn handler(index: usize) -> OpcodeHandler {
    if index < STATIC_PROPERTY.len() {
        on_static_prop
    } else {
        on_function_opcode
    }
}

fn is_ours(f: OpcodeHandler) -> bool {
    f as usize == on_static_prop as *const () as usize || f as usize == on_function_opcode as *const () as usize
}

/// Installs the handlers (MINIT, exact mode only): on the private opcodes of chosen oplines, or, when
/// oplines cannot be chosen, on the engine's opcodes, remembering the handlers installed before ours.
/// One of our own is never remembered (a restart whose shutdown did not run would otherwise recurse
/// forever).
pub fn install() {
    if install_private() {
        if placement::install() {
            return;
        }
        uninstall_private();
    }
    for (index, op) in HOOKED.into_iter().enumerate() {
        // SAFETY: MINIT, before any request; the engine keeps one handler per opcode.
        unsafe {
            let previous = zend_get_user_opcode_handler(op).filter(|&f| !is_ours(f)).map_or(0, |f| f as usize);
            PREVIOUS[op as usize].store(previous, Ordering::Relaxed);
            abi::zend_set_user_opcode_handler(op, Some(handler(index)));
        }
    }
}

/// Takes the private opcodes, unless another extension uses one of them.
fn install_private() -> bool {
    for (index, op) in HOOKED.into_iter().enumerate() {
        let private = placement::private(index, op);
        // SAFETY: MINIT; private opcodes are never emitted by the compiler.
        unsafe {
            if zend_get_user_opcode_handler(private).is_some_and(|f| !is_ours(f)) {
                uninstall_private();
                return false;
            }
            abi::zend_set_user_opcode_handler(private, Some(handler(index)));
        }
    }
    true
}

/// Releases the private opcodes still served by our handlers.
fn uninstall_private() {
    for (index, op) in HOOKED.into_iter().enumerate() {
        let private = placement::private(index, op);
        // SAFETY: MINIT or MSHUTDOWN, no request running.
        unsafe {
            if zend_get_user_opcode_handler(private).is_some_and(is_ours) {
                abi::zend_set_user_opcode_handler(private, None);
            }
        }
    }
}

/// Puts back what [`install`] replaced (MSHUTDOWN): the compile hooks, the private opcodes, and the
/// engine opcodes' previous handlers. An opcode whose handler was replaced after ours is left to
/// whoever replaced it.
pub fn uninstall() {
    placement::uninstall();
    uninstall_private();
    for (index, op) in HOOKED.into_iter().enumerate() {
        let previous = PREVIOUS[op as usize].swap(0, Ordering::Relaxed);
        // SAFETY: MSHUTDOWN, no request running; a saved value is a handler function pointer.
        unsafe {
            if zend_get_user_opcode_handler(op).map(|f| f as usize) != Some(handler(index) as usize) {
                continue;
            }
            let restored = (previous != 0).then(|| std::mem::transmute::<usize, OpcodeHandler>(previous));
            abi::zend_set_user_opcode_handler(op, restored);
        }
    }
}

/// Continues with the opline's own opcode: for a private opcode, the original (through another
/// extension's handler for it, if one is installed); otherwise the handler installed before ours, or
/// the engine's own.
unsafe fn dispatch(ex: *mut zend_execute_data, opcode: u8) -> c_int {
    let original = placement::original(opcode);
    if original != opcode {
        let to_original = ZEND_USER_OPCODE_DISPATCH_TO | c_int::from(original);
        // SAFETY: reading the engine's handler table.
        return match unsafe { zend_get_user_opcode_handler(original) } {
            // SAFETY: a handler installed for the original opcode; it gets the frame it expects.
            Some(other) => match unsafe { other(ex) } {
                ZEND_USER_OPCODE_DISPATCH => to_original,
                outcome => outcome,
            },
            None => to_original,
        };
    }
    let previous = PREVIOUS[opcode as usize].load(Ordering::Relaxed);
    if previous == 0 {
        return ZEND_USER_OPCODE_DISPATCH;
    }
    // SAFETY: the stored value is a handler function pointer saved at MINIT.
    unsafe {
        let f: OpcodeHandler = std::mem::transmute::<usize, OpcodeHandler>(previous);
        f(ex)
    }
}

unsafe extern "C" fn on_function_opcode(ex: *mut zend_execute_data) -> c_int {
    // SAFETY: the engine passes the executing frame of a user function.
    let (opline, op) = unsafe { ((*ex).opline, &raw mut (*(*ex).func).op_array) };
    // SAFETY: as above.
    let opcode = unsafe { (*opline).opcode };
    let published = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as above.
        if unsafe { (*op).static_variables.is_null() } || engine::idle() {
            return false;
        }
        if is_static_statement(placement::original(opcode)) {
            // SAFETY: the frame's function is live and is executing its `static` statement.
            unsafe { engine::method_begin(op) };
            return true;
        }
        // SAFETY: `opline` is the frame's current opline, a `return` of `op`.
        if unsafe { returns_through_finally(op, opline) } {
            // Not a check point: the engine ran the `finally` block on the way to this `return`, and
            // an exception raised here would run it a second time. What the call wrote is found at
            // the next check point.
            return false;
        }
        // SAFETY: as above; the frame's function is returning.
        unsafe { engine::method_end(op) };
        true
    }));
    if matches!(published, Ok(true)) && zend::exception_pending() {
        // A PinnedStatic publication failed: the exception is raised here, the frame redirected. A
        // `return` consumes its operand, which the exception's unwinding therefore does not release
        // (a temporary is live only up to the opline that uses it): released here, as the engine's
        // handler would have, or it leaked for the request's life, its objects' destructors with it.
        if !is_static_statement(placement::original(opcode)) {
            // SAFETY: `opline` is the frame's `return` (the frame now points at the exception's), its
            // operand not yet consumed.
            unsafe { release_op1(ex, opline) };
        }
        return ZEND_USER_OPCODE_CONTINUE;
    }
    // SAFETY: as above.
    unsafe { dispatch(ex, opcode) }
}

/// Whether `opline`, a `return` of `op`, is in a `try` or `catch` block that has a `finally`: the
/// compiler puts the `finally` block's call (`FAST_CALL`) before such a `return`, and the engine runs the
/// block again for an exception raised at any opline of that range.
///
/// # Safety
/// `opline` must be an opline of the live op_array `op`.
unsafe fn returns_through_finally(op: *const zend_op_array, opline: *const zend_op) -> bool {
    // SAFETY: as above; the try/catch table has `last_try_catch` entries.
    unsafe {
        let at = opline.offset_from((*op).opcodes) as u32;
        (0..(*op).last_try_catch as usize).any(|i| {
            let t = &*(*op).try_catch_array.add(i);
            t.finally_op != 0 && t.try_op <= at && at < t.finally_op
        })
    }
}

unsafe extern "C" fn on_static_prop(ex: *mut zend_execute_data) -> c_int {
    // SAFETY: the engine passes the executing frame; its opline is the static-property opcode.
    let opline = unsafe { (*ex).opline };
    // SAFETY: as above.
    let opcode = unsafe { (*opline).opcode };
    let handled = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as above.
        unsafe { handle(ex) }
    }));
    match handled {
        Ok(true) => {
            // The opline was performed (or given up for an exception) here, not by the engine, whose
            // handler releases a property name computed at run time (`Foo::${'a' . $b}`, a temporary):
            // so must this one, or every such write leaked its name.
            // SAFETY: `opline` is the static-property opline just handled (the frame has moved on); its
            // op1 was read, never consumed.
            unsafe { release_op1(ex, opline) };
            ZEND_USER_OPCODE_CONTINUE
        }
        // SAFETY: as above.
        _ => unsafe {
            if placement::original(opcode) == ISSET_ISEMPTY_STATIC_PROP && opcode != ISSET_ISEMPTY_STATIC_PROP {
                // A smart branch that throws leaves its result unwritten, and the engine releases the
                // result of an opline it does not know as a smart branch, as it does not know ours
                // under its private number: the result must hold nothing.
                abandon(ex, (*ex).opline);
            }
            dispatch(ex, opcode)
        },
    }
}

/// Returns true when the opcode was fully handled here (the frame's opline is already advanced or
/// redirected to an exception).
unsafe fn handle(ex: *mut zend_execute_data) -> bool {
    // Read first: a failing publication below redirects the frame to the exception's opline.
    // SAFETY: the frame is live for the duration of the handler.
    let opline = unsafe { (*ex).opline };
    let Some(registered) = engine::busy_then_check_watched() else {
        // Also the case before any class is registered: an autoload triggered by this access
        // registers it.
        return false;
    };
    // SAFETY: the frame and opline are live for the duration of the handler.
    unsafe {
        if zend::exception_pending() {
            // A PinnedStatic publication failed: the exception is raised before this opcode runs, and
            // the engine's exception handling releases this opline's result, which must hold nothing.
            abandon(ex, opline);
            return true;
        }
        let opcode = placement::original((*opline).opcode);
        let Some(ce) = target_class(ex, opline, opcode) else { return false };
        let writes = opcode == ASSIGN_STATIC_PROP || in_set(&WRITES_SET, opcode);
        if registered.may_wait(ce) {
            let registered = engine::restore_class(ce);
            if zend::exception_pending() {
                // `exit()` in a restore hook (the restore drops any other exception): the frame was
                // redirected to the exception when the hook returned, so the opcode must not run.
                abandon(ex, opline);
                return true;
            }
            if !registered {
                return false;
            }
        } else if !writes || !registered.may_include(ce) {
            // A read of a class restored already (this request's usual access): nothing to do. Most
            // classes met here are not registered at all (a library's own statics).
            return false;
        }
        if !writes {
            // A read: restoring was all there was to do.
            return false;
        }
        let Some(name) = property_name(ex, opline) else { return false };
        let info = abi::property_info(ce, name);
        if info.is_null() || (*info).flags & zend::ZEND_ACC_STATIC == 0 {
            return false;
        }
        let unit = engine::at_write_unit(info);
        if let (ASSIGN_STATIC_PROP, Some(unit)) = (opcode, unit) {
            return assign(ex, opline, ce, name, unit);
        }
        if let (ASSIGN_STATIC_PROP_OP, Some(unit)) = (opcode, unit) {
            if assign_op(ex, opline, ce, name, unit) {
                return true;
            }
        }
        if let (PRE_INC_STATIC_PROP..=POST_DEC_STATIC_PROP, Some(unit)) = (opcode, unit) {
            if step_integer(ex, opline, ce, name, unit) {
                return true;
            }
        }
        if in_set(&WRITES_SET, opcode) {
            engine::watch(info);
            if let (FETCH_STATIC_PROP_W | FETCH_STATIC_PROP_RW, Some(_)) = (opcode, unit) {
                if let Some(last) = element_write(opline) {
                    return write_element(ex, opline, last, ce, name);
                }
            }
        }
        false
    }
}

/// The last opline of an element write statement that starts with the static-property fetch `opline`
/// (`Foo::$a[] = …;`, `Foo::$a['k']['j'] .= …;`, `Foo::$a[0]++;`): the element fetches that consume
/// it one after the other, then the write, whose result is unused. `None` for anything else.
///
/// # Safety
/// `opline` must be a static-property fetch of a live op_array.
unsafe fn element_write(opline: *const zend_op) -> Option<*const zend_op> {
    // SAFETY: as above; the chain ends at the latest at the op_array's final `return`, which matches
    // no arm below.
    unsafe {
        if (*opline).op1_type != IS_CONST || (*opline).result_type != IS_VAR {
            return None;
        }
        let mut var = (*opline).result.var;
        let mut next = opline.add(1);
        loop {
            if (*next).op1_type != IS_VAR || (*next).op1.var != var {
                return None;
            }
            match (*next).opcode {
                FETCH_DIM_W | FETCH_DIM_RW if (*next).result_type == IS_VAR => var = (*next).result.var,
                ASSIGN_DIM | ASSIGN_DIM_OP | PRE_INC..=POST_DEC if (*next).result_type == IS_UNUSED => {
                    return Some(next)
                }
                _ => return None,
            }
            next = next.add(1);
        }
    }
}

/// Runs the element write from `opline` (its static-property fetch, for `ce::$name`, a root that
/// publishes at the write) to `last` (see [`element_write`]), then the check point, with the frame at
/// `last`: a `PinnedStatic` failure throws at the write, before the next statement, inside the `try`
/// blocks around the write (PHPT A12). The fetch is done here (`ZEND_FETCH_STATIC_PROP_W`'s result for
/// a root holding no reference: the slot, indirectly), the element oplines by the engine's own
/// handlers, one by one; they run in this frame (an `ArrayAccess` method or an error handler they call
/// runs in a nested one). Returns false, before touching anything, for what the engine must fetch
/// itself: a reference, or a typed root holding no array (the engine's auto-vivification checks).
///
/// # Safety
/// `ex`/`opline` as in [`target_class`]; `last` from [`element_write`] for `opline`.
unsafe fn write_element(
    ex: *mut zend_execute_data,
    opline: *const zend_op,
    last: *const zend_op,
    ce: *mut zend_class_entry,
    name: *mut zend_string,
) -> bool {
    // SAFETY: as above; the result slot is the fetch's VAR, written as the engine's fetch writes it.
    unsafe {
        let Some((slot, info)) = static_slot(ex, opline, ce, name, BP_VAR_W) else { return true };
        if engine::is_reference(slot) || (zvals::is_typed(info) && zend::type_of(slot) != ffi::IS_ARRAY) {
            return false;
        }
        let result = abi::frame_var(ex, (*opline).result.var);
        (*result).value.zv = slot;
        (*result).u1.type_info = ffi::IS_INDIRECT;
        (*ex).opline = opline.add(1);
        // Each handler moves the frame's opline on (`ASSIGN_DIM` past its `OP_DATA`), or to the
        // exception's.
        loop {
            abi::zend_vm_call_opcode_handler(ex);
            if zend::exception_pending() {
                return true;
            }
            if (*ex).opline > last {
                break;
            }
        }
        let next = (*ex).opline;
        (*ex).opline = last;
        engine::busy_then_check_watched();
        if !zend::exception_pending() {
            (*ex).opline = next;
        }
        true
    }
}

/// Before an exception is raised at `opline` instead of running it: the engine's exception handling
/// releases the opline's result, so the slot must hold nothing (as the engine's interrupt helper does).
///
/// # Safety
/// `opline` must be the current opline of the live frame `ex`.
unsafe fn abandon(ex: *mut zend_execute_data, opline: *const zend_op) {
    // SAFETY: as above; the result slot is written, never read.
    unsafe {
        if (*opline).result_type & (IS_TMP_VAR | IS_VAR) != 0 {
            (*abi::frame_var(ex, (*opline).result.var)).u1.type_info = IS_UNDEF;
        }
    }
}

/// The class a static-property opline (whose engine opcode is `opcode`) addresses, without autoloading.
///
/// # Safety
/// `ex` and `opline` must be the live frame and its current static-property opline.
unsafe fn target_class(
    ex: *mut zend_execute_data,
    opline: *const zend_op,
    opcode: u8,
) -> Option<*mut zend_class_entry> {
    const ZEND_FETCH_CLASS_SELF: u32 = 1;
    const ZEND_FETCH_CLASS_PARENT: u32 = 2;
    const ZEND_FETCH_CLASS_STATIC: u32 = 3;
    // SAFETY: operands are read according to their type, as the engine's handlers do.
    unsafe {
        let ce = match (*opline).op2_type {
            IS_CONST => match cached_class(ex, opline, opcode) {
                Some(ce) => ce,
                None => {
                    // The literal after the class name holds its lower-case form.
                    let lc = abi::literal(opline, (*opline).op2.constant).add(1);
                    abi::loaded_class((*lc).value.str_)
                }
            },
            IS_UNUSED => {
                let scope = (*(*ex).func).op_array.scope;
                match (*opline).op2.num & 0x0f {
                    ZEND_FETCH_CLASS_SELF => scope,
                    ZEND_FETCH_CLASS_PARENT if !scope.is_null() => (*scope).__bindgen_anon_1.parent,
                    // The called scope, as `zend_get_called_scope()` finds it for a user frame: `$this`'s
                    // class, or in a static call the class `This` names by its value alone (its type
                    // bits hold the call's flags, never `IS_PTR`).
                    ZEND_FETCH_CLASS_STATIC if zend::type_of(&raw const (*ex).This) == IS_OBJECT => {
                        (*(*ex).This.value.obj).ce
                    }
                    ZEND_FETCH_CLASS_STATIC => (*ex).This.value.ce,
                    _ => std::ptr::null_mut(),
                }
            }
            // A variable class (`$cls::$x`, `$obj::$x`): the result of the `FETCH_CLASS` before, which
            // writes only the class pointer (`Z_CE_P`), never the type: the engine reads it the same way.
            IS_VAR | IS_TMP_VAR => (*abi::frame_var(ex, (*opline).op2.var)).value.ce,
            _ => std::ptr::null_mut(),
        };
        (!ce.is_null()).then_some(ce)
    }
}

/// The class the engine cached for a static-property opline whose class is named by a literal: the
/// first pointer of the opline's run-time cache slot (`CACHED_PTR(cache_slot)`), which the engine's
/// `zend_fetch_static_property_address` fills with the class it fetched, alone or followed by the
/// property's slot and info (8.2–8.4; slots of other oplines naming the same class, which compacted
/// literals may share, hold the same class first). The run-time cache is the request's: OPcache's
/// op_arrays find theirs through map pointers the engine zeroes at every request start
/// (`zend_activate`), and other op_arrays (freed at request end) get one allocated per request, so a
/// class found there was fetched in this request and is live. `None` before the engine's first
/// execution of the opline (or of one sharing its slot) in this request.
///
/// # Safety
/// As [`target_class`], with `opline`'s class operand a literal.
unsafe fn cached_class(
    ex: *mut zend_execute_data,
    opline: *const zend_op,
    opcode: u8,
) -> Option<*mut zend_class_entry> {
    // The flags the engine masks off the slot offset: ZEND_FETCH_OBJ_FLAGS (fetches), ZEND_ISEMPTY
    // (isset/empty), ZEND_RETURNS_FUNCTION (`=&`), all within the low two bits.
    const SLOT_FLAGS: u32 = 3;
    // SAFETY: as above; a user frame's run-time cache holds the opline's slots at these byte offsets.
    unsafe {
        let cache = (*ex).run_time_cache;
        if cache.is_null() {
            return None;
        }
        let slot = match opcode {
            // Its slot is in its OP_DATA's extended_value.
            ASSIGN_STATIC_PROP_OP => (*opline.add(1)).extended_value,
            _ => (*opline).extended_value & !SLOT_FLAGS,
        };
        let ce = *cache.cast::<u8>().add(slot as usize).cast::<*mut zend_class_entry>();
        (!ce.is_null()).then_some(ce)
    }
}

/// The property name operand (op1), when it is a string.
///
/// # Safety
/// As [`target_class`].
unsafe fn property_name(ex: *mut zend_execute_data, opline: *const zend_op) -> Option<*mut zend_string> {
    // SAFETY: as above.
    unsafe {
        let z = match (*opline).op1_type {
            IS_CONST => abi::literal(opline, (*opline).op1.constant),
            IS_TMP_VAR | IS_VAR | IS_CV => zend::deref(abi::frame_var(ex, (*opline).op1.var)),
            _ => return None,
        };
        (zend::type_of(z) == IS_STRING).then(|| (*z).value.str_)
    }
}

/// The operand zval of an `OP_DATA` opline, or `None` for an undefined CV (the engine warns).
///
/// # Safety
/// `data` must be the `OP_DATA` opline following the assignment in the live frame `ex`.
unsafe fn op_data(ex: *mut zend_execute_data, data: *const zend_op) -> Option<*mut zval> {
    // SAFETY: as above.
    unsafe {
        match (*data).op1_type {
            IS_CONST => Some(abi::literal(data, (*data).op1.constant)),
            IS_CV => {
                let z = abi::frame_var(ex, (*data).op1.var);
                (zend::type_of(z) != IS_UNDEF).then_some(z)
            }
            IS_TMP_VAR | IS_VAR => Some(abi::frame_var(ex, (*data).op1.var)),
            _ => None,
        }
    }
}

/// `ZEND_ASSIGN_STATIC_PROP` to a root that publishes at the write: assigns as the engine does
/// (visibility, type coercion, result, operand release), publishes, and moves past `OP_DATA`.
/// Returns false (let the engine do it) for the cases it does not reproduce: typed references and
/// undefined variables.
///
/// # Safety
/// `ex`/`opline` as in [`target_class`]; `info` the static property `name` of `ce`.
unsafe fn assign(
    ex: *mut zend_execute_data,
    opline: *const zend_op,
    ce: *mut zend_class_entry,
    name: *mut zend_string,
    unit: usize,
) -> bool {
    // SAFETY: as above; every path leaves the operands as the engine's handler would.
    unsafe {
        let data = opline.add(1);
        let (slot, info, source) = match target(ex, opline, ce, name, BP_VAR_W) {
            Ok(found) => found,
            Err(handled) => return handled,
        };
        let mut value = zvals::copy(zend::deref(source));
        let strict = (*(*ex).func).common.fn_flags & abi::ZEND_ACC_STRICT_TYPES != 0;
        if zvals::is_typed(info) && !ffi::zend_verify_property_type(info, &raw mut value, strict) {
            drop(value);
            release_op1(ex, data);
            abandon(ex, opline);
            return true;
        }
        drop(std::ptr::replace(slot, value));
        finish_assignment(ex, opline, slot, unit)
    }
}

/// `++`/`--` on a root that publishes at the write and holds an int (the counter case): performed
/// here, then published at once. Anything else (other types, overflow to float, references) is left
/// to the engine and checked at the next check point; returns false then, before touching anything.
///
/// # Safety
/// As [`assign`].
unsafe fn step_integer(
    ex: *mut zend_execute_data,
    opline: *const zend_op,
    ce: *mut zend_class_entry,
    name: *mut zend_string,
    unit: usize,
) -> bool {
    // SAFETY: as above; the slot is written only when it holds a plain int.
    unsafe {
        let Some((slot, _)) = static_slot(ex, opline, ce, name, BP_VAR_RW) else { return true };
        if zend::type_of(slot) != ffi::IS_LONG {
            return false;
        }
        let opcode = placement::original((*opline).opcode);
        let old = (*slot).value.lval;
        let new = match opcode {
            PRE_INC_STATIC_PROP | POST_INC_STATIC_PROP => old.checked_add(1),
            _ => old.checked_sub(1),
        };
        let Some(new) = new else { return false };
        (*slot).value.lval = new;
        if (*opline).result_type != IS_UNUSED {
            let shown = if matches!(opcode, PRE_INC_STATIC_PROP | PRE_DEC_STATIC_PROP) { new } else { old };
            let result = abi::frame_var(ex, (*opline).result.var);
            std::ptr::write(result, zval::new());
            (*result).set_long(shown);
        }
        engine::published_assignment(unit);
        if !zend::exception_pending() {
            (*ex).opline = opline.add(1);
        }
        true
    }
}

/// `ZEND_ASSIGN_STATIC_PROP_OP` (`+=`, `.=`, …) on a root that publishes at the write: performed as
/// the engine does (typed properties through a checked copy, `.=` on a string in place), then
/// published at once. References are left to the engine (returns false, before touching anything).
///
/// # Safety
/// As [`assign`].
unsafe fn assign_op(
    ex: *mut zend_execute_data,
    opline: *const zend_op,
    ce: *mut zend_class_entry,
    name: *mut zend_string,
    unit: usize,
) -> bool {
    const ZEND_CONCAT: u32 = 8;
    // SAFETY: as above; every path leaves the operands as the engine's handler would.
    unsafe {
        let Some(op) = get_binary_op((*opline).extended_value as c_int) else { return false };
        let (slot, info, source) = match target(ex, opline, ce, name, BP_VAR_RW) {
            Ok(found) => found,
            Err(handled) => return handled,
        };
        let value = zend::deref(source);
        let typed = zvals::is_typed(info);
        // Exactly the engine's steps, including after an exception from the operator (`%= 0` on an
        // int property leaves 0, as PHP does).
        if typed && !((*opline).extended_value == ZEND_CONCAT && zend::type_of(slot) == IS_STRING) {
            let mut result = zval::new();
            op(&raw mut result, slot, value);
            let strict = (*(*ex).func).common.fn_flags & abi::ZEND_ACC_STRICT_TYPES != 0;
            if ffi::zend_verify_property_type(info, &raw mut result, strict) {
                drop(std::ptr::replace(slot, result));
            }
        } else {
            op(slot, slot, value);
        }
        finish_assignment(ex, opline, slot, unit)
    }
}

/// The slot, property and `OP_DATA` operand of a two-opline assignment to `ce::$name`, fetched for
/// `fetch` (`BP_VAR_W`/`BP_VAR_RW`). `Err(false)`: the engine must do it (an undefined variable to
/// warn about, a reference slot, which is then checked later); `Err(true)`: a visibility or existence
/// error is pending and the operand released.
///
/// # Safety
/// As [`assign`].
unsafe fn target(
    ex: *mut zend_execute_data,
    opline: *const zend_op,
    ce: *mut zend_class_entry,
    name: *mut zend_string,
    fetch: c_int,
) -> Result<(*mut zval, *mut zend_property_info, *mut zval), bool> {
    // SAFETY: as above.
    unsafe {
        let data = opline.add(1);
        let source = op_data(ex, data).ok_or(false)?;
        let Some((slot, info)) = static_slot(ex, opline, ce, name, fetch) else {
            release_op1(ex, data);
            return Err(true);
        };
        if engine::is_reference(slot) {
            engine::watch(info);
            return Err(false);
        }
        Ok((slot, info, source))
    }
}

/// The slot and property of `ce::$name` fetched for `fetch` (`BP_VAR_W`/`BP_VAR_RW`), as the engine's
/// static-property fetch does; `None` when that raised a visibility or existence error, the frame then
/// redirected to it ([`abandon`]).
///
/// # Safety
/// As [`assign`].
unsafe fn static_slot(
    ex: *mut zend_execute_data,
    opline: *const zend_op,
    ce: *mut zend_class_entry,
    name: *mut zend_string,
    fetch: c_int,
) -> Option<(*mut zval, *mut zend_property_info)> {
    // SAFETY: as above.
    unsafe {
        let mut info: *mut zend_property_info = std::ptr::null_mut();
        let slot = abi::zend_std_get_static_property_with_info(ce, name, fetch, &raw mut info);
        if slot.is_null() {
            abandon(ex, opline);
            return None;
        }
        Some((slot, info))
    }
}

/// Releases the operand `opline` consumes in op1 (temporaries and vars), as the engine's `FREE_OP1` and
/// `FREE_OP_DATA` do: a `return`'s value, an assignment's `OP_DATA`.
///
/// # Safety
/// `opline` must be an opline of the live frame `ex` whose op1 is not yet released.
unsafe fn release_op1(ex: *mut zend_execute_data, opline: *const zend_op) {
    // SAFETY: as above.
    unsafe {
        if matches!((*opline).op1_type, IS_TMP_VAR | IS_VAR) {
            drop(std::ptr::replace(abi::frame_var(ex, (*opline).op1.var), zval::new()));
        }
    }
}

/// The end of a two-opline assignment the extension performed on `slot`: the result, the operand,
/// the publication (a PinnedStatic failure throws here, after the write), and the next opline.
///
/// # Safety
/// `opline` is the assignment in the live frame `ex`, `slot` the property it wrote.
unsafe fn finish_assignment(ex: *mut zend_execute_data, opline: *const zend_op, slot: *mut zval, unit: usize) -> bool {
    // SAFETY: as above.
    unsafe {
        let used = (*opline).result_type != IS_UNUSED;
        if used {
            std::ptr::write(abi::frame_var(ex, (*opline).result.var), zvals::copy(slot));
        }
        release_op1(ex, opline.add(1));
        if !zend::exception_pending() {
            engine::published_assignment(unit);
        }
        if zend::exception_pending() {
            if used {
                let result = abi::frame_var(ex, (*opline).result.var);
                drop(std::ptr::replace(result, zval::new()));
                (*result).u1.type_info = IS_UNDEF;
            }
            return true;
        }
        (*ex).opline = opline.add(2);
        true
    }
}
