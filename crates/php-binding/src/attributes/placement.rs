//! Where exact mode's opcode handler runs (§16.5): only on the oplines that may touch an attributed
//! static, chosen when code is compiled, so code that uses no attributed class runs on the engine's
//! own handlers, at full speed.
//!
//! The VM dispatches on `opline->handler`, which the engine derives from the opcode when an op_array
//! is compiled, and again when OPcache's optimizer rewrites it before persisting it in shared memory
//! (where it can no longer be written). A chosen opline gets a private opcode number that the compiler
//! never emits and whose user opcode handler is exact mode's; that handler runs the original opcode
//! afterwards (`ZEND_USER_OPCODE_DISPATCH_TO`). Private numbers keep the original's parity: the engine
//! tells `++` from `--` by it. Oplines are chosen
//! * after each compile (`zend_compile_file`, `zend_compile_string`), unless OPcache compiles the file
//!   for its cache;
//! * else in a pass registered with OPcache's optimizer, which runs after its last rewrite, so what
//!   OPcache persists, preloads or writes to its file cache carries the private opcodes already.
//!
//! Chosen are `static` statements and `return`s of methods that may own attributed static variables
//! (of an attributed class or method, or of a trait), and every static-property access that does not
//! provably address a static no attribute covers. Provably plain is an access by constant name to a
//! static the class itself declares without attribute, the class being the scope (`self::`,
//! `static::`, its own name) or a class bound while its file is compiled (it then exists before any
//! code of the file runs). `static::` can reach a subclass that redeclares the static: such a
//! redeclaration with an attribute is what [`reachable_unchecked`] reports, and the engine restores
//! and checks it without relying on this opline's handler.

use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

use ext_php_rs::ffi::{self, zend_class_entry, zend_op, zend_op_array, zend_string, HashTable, IS_STRING};
use ext_php_rs::zend::{bailout, try_catch};

use super::abi::{self, IS_CONST, IS_UNUSED, ZEND_ACC_TRAIT};
use super::declaration;
use super::exact::{self, STATIC_PROPERTY};
use crate::zend::{self, ZEND_USER_FUNCTION};
use crate::zvals;

const ZEND_USER_OPCODE: u8 = 150;
const ZEND_ACC_CLOSURE: u32 = 1 << 22;
const ZEND_FETCH_CLASS_SELF: u32 = 1;
const ZEND_FETCH_CLASS_STATIC: u32 = 3;
/// OPcache compiles for its cache (and its optimizer, hence our pass, runs afterwards).
const ZEND_COMPILE_IGNORE_OTHER_FILES: u32 = 1 << 13;

/// First private opcode: above the engine's last (202 in 8.2, 209 in 8.4), room for 2 × 18.
const PRIVATE_BASE: u8 = 220;

/// The private opcode standing for `opcode`, the `index`th of [`exact::hooked`].
pub const fn private(index: usize, opcode: u8) -> u8 {
    PRIVATE_BASE + 2 * index as u8 + (opcode & 1)
}

/// The engine's opcode behind `opcode`: itself, or the original of a private opcode. A table, as
/// every chosen opline asks it at least once per execution.
pub fn original(opcode: u8) -> u8 {
    ORIGINALS[usize::from(opcode)]
}

const ORIGINALS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut op = 0;
    while op < 256 {
        table[op] = op as u8;
        op += 1;
    }
    let mut index = 0;
    while index < exact::HOOKED.len() {
        let hooked = exact::HOOKED[index];
        table[private(index, hooked) as usize] = hooked;
        index += 1;
    }
    table
};

type CompileFile = unsafe extern "C" fn(*mut c_void, c_int) -> *mut zend_op_array;
type CompileString =
    unsafe extern "C" fn(*mut zend_string, *const c_char, ffi::zend_compile_position) -> *mut zend_op_array;

/// `zend_vm_set_opcode_handler`'s answer for `ZEND_USER_OPCODE`: the handler chosen oplines get.
static USER_OPCODE_HANDLER: AtomicUsize = AtomicUsize::new(0);
static PREVIOUS_COMPILE_FILE: AtomicUsize = AtomicUsize::new(0);
static PREVIOUS_COMPILE_STRING: AtomicUsize = AtomicUsize::new(0);
/// The optimizer pass's registration (0: none).
static PASS: AtomicI32 = AtomicI32::new(0);

/// Starts choosing oplines (MINIT, exact mode, after the private opcodes' handlers are installed).
/// Returns false when it cannot: OPcache is loaded and its optimizer takes no more passes (each
/// in-process restart registers one, and the engine keeps 32); every opline must then be hooked.
pub fn install() -> bool {
    if zend::opcache_loaded() {
        // SAFETY: MINIT, single-threaded; the pass is unregistered at MSHUTDOWN.
        let index = unsafe { abi::zend_optimizer_register_pass(Some(optimizer_pass)) };
        if index <= 0 {
            return false;
        }
        PASS.store(index, Ordering::Relaxed);
    }
    let mut user = ffi::zend_op { opcode: ZEND_USER_OPCODE, ..zeroed_op() };
    // SAFETY: MINIT; the VM's handler table exists since engine startup. ZEND_USER_OPCODE's handler
    // depends on no operand.
    unsafe {
        abi::zend_vm_set_opcode_handler(&raw mut user);
        USER_OPCODE_HANDLER.store(user.handler as usize, Ordering::Relaxed);
        let file = abi::zend_compile_file.map_or(0, |f| f as usize);
        if file != compile_file as *const () as usize {
            PREVIOUS_COMPILE_FILE.store(file, Ordering::Relaxed);
            abi::zend_compile_file = Some(compile_file);
        }
        let string = ffi::zend_compile_string.map_or(0, |f| f as usize);
        if string != compile_string as *const () as usize {
            PREVIOUS_COMPILE_STRING.store(string, Ordering::Relaxed);
            ffi::zend_compile_string = Some(compile_string);
        }
    }
    true
}

/// MSHUTDOWN: puts back the compile functions (unless replaced since) and drops the optimizer pass.
pub fn uninstall() {
    let pass = PASS.swap(0, Ordering::Relaxed);
    USER_OPCODE_HANDLER.store(0, Ordering::Relaxed);
    // SAFETY: MSHUTDOWN, no PHP code running; saved values are the compile functions found at MINIT.
    unsafe {
        if pass > 0 {
            abi::zend_optimizer_unregister_pass(pass);
        }
        let file = PREVIOUS_COMPILE_FILE.swap(0, Ordering::Relaxed);
        if abi::zend_compile_file.map(|f| f as usize) == Some(compile_file as *const () as usize) && file != 0 {
            abi::zend_compile_file = Some(std::mem::transmute::<usize, CompileFile>(file));
        }
        let string = PREVIOUS_COMPILE_STRING.swap(0, Ordering::Relaxed);
        if ffi::zend_compile_string.map(|f| f as usize) == Some(compile_string as *const () as usize) && string != 0 {
            ffi::zend_compile_string = Some(std::mem::transmute::<usize, CompileString>(string));
        }
    }
}

fn zeroed_op() -> zend_op {
    // SAFETY: zend_op is plain data (pointers and integers); all-zero is a valid value.
    unsafe { std::mem::zeroed() }
}

/// How many functions and classes the tables hold: a compile appends its own after them.
fn table_marks() -> (u32, u32) {
    // SAFETY: the compiler globals of this thread, during a request or startup.
    unsafe {
        let cg = ffi::ext_php_rs_compiler_globals();
        ((*(*cg).function_table).nNumOfElements, (*(*cg).class_table).nNumOfElements)
    }
}

/// After a compile outside OPcache's cache: chooses the oplines of what it produced.
///
/// # Safety
/// `op` is null or the main op_array just compiled; the marks were taken before the compile.
unsafe fn after_compile(op: *mut zend_op_array, (functions, classes): (u32, u32)) {
    // SAFETY: as above; the compiler globals of this thread.
    unsafe {
        let cg = ffi::ext_php_rs_compiler_globals();
        if op.is_null() || (*cg).compiler_options & ZEND_COMPILE_IGNORE_OTHER_FILES != 0 {
            return;
        }
        let _ =
            std::panic::catch_unwind(|| place_script(op, (*cg).function_table, functions, (*cg).class_table, classes));
    }
}

unsafe extern "C" fn compile_file(handle: *mut c_void, kind: c_int) -> *mut zend_op_array {
    let marks = table_marks();
    let previous = PREVIOUS_COMPILE_FILE.load(Ordering::Relaxed);
    // SAFETY: the saved value is the compile function found at MINIT (the engine's at least).
    let compiled = try_catch(|| unsafe { std::mem::transmute::<usize, CompileFile>(previous)(handle, kind) });
    match compiled {
        // SAFETY: the op_array the engine just compiled.
        Ok(op) => unsafe {
            after_compile(op, marks);
            op
        },
        // SAFETY: this frame owns nothing that needs dropping; the compile bailed out.
        Err(_) => unsafe { bailout() },
    }
}

unsafe extern "C" fn compile_string(
    source: *mut zend_string,
    filename: *const c_char,
    position: ffi::zend_compile_position,
) -> *mut zend_op_array {
    let marks = table_marks();
    let previous = PREVIOUS_COMPILE_STRING.load(Ordering::Relaxed);
    // SAFETY: as in compile_file.
    let compiled =
        try_catch(|| unsafe { std::mem::transmute::<usize, CompileString>(previous)(source, filename, position) });
    match compiled {
        // SAFETY: as in compile_file.
        Ok(op) => unsafe {
            after_compile(op, marks);
            op
        },
        // SAFETY: as in compile_file.
        Err(_) => unsafe { bailout() },
    }
}

/// OPcache's optimizer has finished with `script`: choose its oplines before it is persisted.
unsafe extern "C" fn optimizer_pass(script: *mut abi::Script, _context: *mut c_void) {
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: the optimizer hands over a complete script it owns, before persisting it.
        unsafe {
            place_script(
                &raw mut (*script).main_op_array,
                &raw mut (*script).function_table,
                0,
                &raw mut (*script).class_table,
                0,
            );
        }
    });
}

/// What one compile produced: its classes bound at compile time, by lower-case name.
struct Compiled {
    bound: Vec<(*mut zend_string, *mut zend_class_entry)>,
}

impl Compiled {
    /// The class bound by this compile under `lcname`.
    ///
    /// # Safety
    /// `lcname` must be a live string.
    unsafe fn bound(&self, lcname: *const zend_string) -> Option<*mut zend_class_entry> {
        // SAFETY: as above.
        let name = unsafe { zend::zstr_bytes(lcname) };
        // SAFETY: keys are live strings of the compile's class table.
        self.bound.iter().find(|(k, _)| unsafe { zend::zstr_bytes(*k) } == name).map(|&(_, ce)| ce)
    }
}

/// Chooses the oplines of a compiled script: its main op_array, the functions and classes the tables
/// hold beyond the given counts (the last ones), and every closure or nested declaration inside them.
///
/// # Safety
/// The op_arrays and tables must be the live result of one compile, not yet executed by any thread.
unsafe fn place_script(
    main: *mut zend_op_array,
    functions: *mut HashTable,
    functions_from: u32,
    classes: *mut HashTable,
    classes_from: u32,
) {
    // SAFETY: as above; table values are IS_PTR to functions and classes.
    unsafe {
        let mut compiled = Compiled { bound: Vec::new() };
        let mut class_list = Vec::new();
        for (key, z) in entries_from(classes, classes_from) {
            let ce = (*z).value.ce;
            class_list.push(ce);
            // Run-time declarations are keyed "\0name/file:line$n"; compile-time bindings by name.
            if !key.is_null() && zend::zstr_bytes(key).first().is_some_and(|&b| b != 0) {
                compiled.bound.push((key, ce));
            }
        }
        place_tree(main, &compiled);
        for (_, z) in entries_from(functions, functions_from) {
            let f = (*z).value.func;
            if (*f).type_ == ZEND_USER_FUNCTION {
                place_tree(&raw mut (*f).op_array, &compiled);
            }
        }
        for ce in class_list {
            if (*ce).type_ != zend::ZEND_USER_CLASS {
                continue;
            }
            for (_, z) in zvals::entries(&raw mut (*ce).function_table) {
                let f = (*z).value.func;
                if (*f).type_ == ZEND_USER_FUNCTION && (*f).op_array.scope == ce {
                    place_tree(&raw mut (*f).op_array, &compiled);
                }
            }
        }
    }
}

/// The entries of `ht` beyond its first `kept` (the ones appended since the table held `kept`), with
/// their string keys (null for integer keys). A table that grew meanwhile may have been compacted,
/// but keeps its order, so they are the last ones.
///
/// # Safety
/// `ht` must be a live, non-packed table that is not modified meanwhile.
unsafe fn entries_from(ht: *mut HashTable, kept: u32) -> Vec<(*mut zend_string, *mut ffi::zval)> {
    // SAFETY: as above; buckets below nNumUsed are initialised, IS_UNDEF ones are deleted.
    unsafe {
        let wanted = (*ht).nNumOfElements.saturating_sub(kept) as usize;
        let mut found: Vec<_> = (0..(*ht).nNumUsed)
            .rev()
            .map(|i| (*ht).__bindgen_anon_1.arData.add(i as usize))
            .filter(|&b| zend::type_of(&raw const (*b).val) != ffi::IS_UNDEF)
            .take(wanted)
            .map(|b| ((*b).key, &raw mut (*b).val))
            .collect();
        found.reverse();
        found
    }
}

/// [`place`] for `op` and the functions declared inside it (closures, conditional declarations).
///
/// # Safety
/// As [`place_script`].
unsafe fn place_tree(op: *mut zend_op_array, compiled: &Compiled) {
    // SAFETY: as above; dynamic_func_defs holds num_dynamic_func_defs op_array pointers.
    unsafe {
        place(op, compiled);
        for i in 0..(*op).num_dynamic_func_defs as usize {
            place_tree(*(*op).dynamic_func_defs.add(i), compiled);
        }
    }
}

/// Gives the chosen oplines of `op` their private opcode and the user-opcode handler.
///
/// # Safety
/// As [`place_script`].
unsafe fn place(op: *mut zend_op_array, compiled: &Compiled) {
    let handler = USER_OPCODE_HANDLER.load(Ordering::Relaxed) as *const c_void;
    // SAFETY: as above; `last` oplines follow `opcodes`.
    unsafe {
        let owns = may_own_attributed_statics(op);
        for i in 0..(*op).last as usize {
            let opline = (*op).opcodes.add(i);
            let opcode = (*opline).opcode;
            let Some(index) = exact::HOOKED.iter().position(|&h| h == opcode) else { continue };
            let chosen = if index < STATIC_PROPERTY.len() { !plain_access(op, opline, compiled) } else { owns };
            if chosen {
                (*opline).opcode = private(index, opcode);
                (*opline).handler = handler;
            }
        }
    }
}

/// Whether `op` is a method whose static variables an attribute may cover: of an attributed class
/// or method, or of a trait (a class importing it may carry a class-level attribute).
///
/// # Safety
/// `op` must be a live op_array.
unsafe fn may_own_attributed_statics(op: *mut zend_op_array) -> bool {
    // SAFETY: as above.
    unsafe {
        let scope = (*op).scope;
        if (*op).static_variables.is_null() || scope.is_null() || (*op).fn_flags & ZEND_ACC_CLOSURE != 0 {
            return false;
        }
        (*scope).ce_flags & ZEND_ACC_TRAIT != 0
            || declaration::find((*scope).attributes).is_some()
            || declaration::find((*op).attributes).is_some()
    }
}

/// Whether a static-property opline provably addresses a static that no attribute covers (see the
/// module comment).
///
/// # Safety
/// `opline` must be an opline of the live op_array `op`.
unsafe fn plain_access(op: *mut zend_op_array, opline: *const zend_op, compiled: &Compiled) -> bool {
    // SAFETY: as above; operands are read according to their types, literals by their offsets.
    unsafe {
        if (*opline).op1_type != IS_CONST {
            return false;
        }
        let name = abi::literal(opline, (*opline).op1.constant);
        if zend::type_of(name) != IS_STRING {
            return false;
        }
        let scope = (*op).scope;
        let scope_usable =
            !scope.is_null() && (*scope).ce_flags & ZEND_ACC_TRAIT == 0 && (*op).fn_flags & ZEND_ACC_CLOSURE == 0;
        let target = match (*opline).op2_type {
            IS_UNUSED if scope_usable => match (*opline).op2.num & 0x0f {
                ZEND_FETCH_CLASS_SELF | ZEND_FETCH_CLASS_STATIC => scope,
                _ => return false,
            },
            IS_CONST => {
                let lcname = (*abi::literal(opline, (*opline).op2.constant).add(1)).value.str_;
                let own = !scope.is_null()
                    && (*scope).ce_flags & ZEND_ACC_TRAIT == 0
                    && zend::zstr_bytes((*scope).name).eq_ignore_ascii_case(zend::zstr_bytes(lcname));
                match (own, compiled.bound(lcname)) {
                    (true, _) => scope,
                    (false, Some(ce)) => ce,
                    (false, None) => return false,
                }
            }
            _ => return false,
        };
        if (*target).ce_flags & ZEND_ACC_TRAIT != 0 {
            return false;
        }
        let info = abi::property_info(target, (*name).value.str_);
        !info.is_null()
            && (*info).ce == target
            && (*info).flags & zend::ZEND_ACC_STATIC != 0
            && declaration::find((*target).attributes).is_none()
            && declaration::find((*info).attributes).is_none()
    }
}

/// Whether attributed statics of `ce` (`props`, which it declares) may be reached by an opline that
/// was not chosen: `static::` in a parent's code, addressing a static the parent declares without
/// attribute and `ce` redeclares (module comment). Such a class is restored when it is registered,
/// and its roots are checked at every check point.
///
/// # Safety
/// `ce` must be a live, linked class and `props` static properties it declares.
pub unsafe fn reachable_unchecked(ce: *mut zend_class_entry, props: &[*mut ffi::zend_property_info]) -> bool {
    // SAFETY: as below; a class without a parent runs no parent's code.
    if !per_opline() || props.is_empty() || unsafe { (*ce).__bindgen_anon_1.parent.is_null() } {
        return false;
    }
    // SAFETY: as above; properties_info maps unmangled names to property infos; parents of a
    // linked class are live classes.
    unsafe {
        let names: Vec<&[u8]> = zvals::entries(&raw mut (*ce).properties_info)
            .filter(|(_, z)| props.contains(&(*(*z)).value.ptr.cast()))
            .filter_map(|(key, _)| match key {
                zvals::Key::Str(name) => Some(name),
                zvals::Key::Int(_) => None,
            })
            .collect();
        let mut parent = (*ce).__bindgen_anon_1.parent;
        while !parent.is_null() {
            if declaration::find((*parent).attributes).is_none() {
                for (key, z) in zvals::entries(&raw mut (*parent).properties_info) {
                    let info = (*z).value.ptr.cast::<ffi::zend_property_info>();
                    if matches!(key, zvals::Key::Str(name) if names.contains(&name))
                        && (*info).ce == parent
                        && (*info).flags & zend::ZEND_ACC_STATIC != 0
                        && declaration::find((*info).attributes).is_none()
                    {
                        return true;
                    }
                }
            }
            parent = (*parent).__bindgen_anon_1.parent;
        }
        false
    }
}

/// Whether oplines are chosen per opline (false: the handlers hook every opline of their opcodes).
pub fn per_opline() -> bool {
    USER_OPCODE_HANDLER.load(Ordering::Relaxed) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn original_of_each_private_opcode_is_its_hooked_opcode_and_every_other_opcode_is_itself() {
        let mut privates = std::collections::HashMap::new();
        for (index, op) in exact::HOOKED.into_iter().enumerate() {
            assert!(op < PRIVATE_BASE);
            assert_eq!(private(index, op) & 1, op & 1, "a private opcode keeps the parity of {op}");
            assert_eq!(privates.insert(private(index, op), op), None, "two hooked opcodes share a private one");
        }
        for opcode in 0..=u8::MAX {
            assert_eq!(original(opcode), privates.get(&opcode).copied().unwrap_or(opcode), "opcode {opcode}");
        }
    }
}
