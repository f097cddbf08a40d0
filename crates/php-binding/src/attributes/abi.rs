//! Engine structures the attribute engine reads and writes that ext-php-rs does not wrap: declared
//! attributes and their arguments, static-member tables, method static-variable tables (through PHP's
//! map pointers), oplines and their operands, and the handful of Zend functions its bindings lack.

use std::ffi::{c_char, c_int, c_void};
use std::ptr;

use ext_php_rs::ffi::{
    self, zend_class_entry, zend_execute_data, zend_op, zend_op_array, zend_property_info, zend_string, zval,
    HashTable, IS_INDIRECT,
};

use crate::zend;

/// `zend_attribute_arg`.
#[repr(C)]
pub struct AttributeArg {
    pub name: *mut zend_string,
    pub value: zval,
}

/// `zend_attribute` (PHP 8.2 layout): the arguments follow the header inline.
#[repr(C)]
pub struct Attribute {
    pub name: *mut zend_string,
    pub lcname: *mut zend_string,
    pub flags: u32,
    pub lineno: u32,
    pub offset: u32,
    pub argc: u32,
    args: [AttributeArg; 1],
}

impl Attribute {
    /// # Safety
    /// `self` must be a live attribute and `i < argc`.
    pub unsafe fn arg(&self, i: u32) -> *const AttributeArg {
        // SAFETY: the engine allocates `argc` arguments inline after the header.
        unsafe { self.args.as_ptr().add(i as usize) }
    }
}

/// `zend_internal_attribute`.
#[repr(C)]
pub struct InternalAttribute {
    pub ce: *mut zend_class_entry,
    pub flags: u32,
    pub validator: Option<unsafe extern "C" fn(*mut Attribute, u32, *mut zend_class_entry)>,
}

pub type OpcodeHandler = unsafe extern "C" fn(*mut zend_execute_data) -> c_int;

/// `zend_script` (OPcache's optimizer works on one per compiled file).
#[repr(C)]
pub struct Script {
    pub filename: *mut zend_string,
    pub main_op_array: zend_op_array,
    pub function_table: HashTable,
    pub class_table: HashTable,
}

pub type OptimizerPass = unsafe extern "C" fn(*mut Script, *mut c_void);

unsafe extern "C" {
    pub fn zend_get_attribute_str(attributes: *mut HashTable, name: *const c_char, len: usize) -> *mut Attribute;
    pub fn zend_get_attribute_value(
        ret: *mut zval,
        attr: *mut Attribute,
        i: u32,
        scope: *mut zend_class_entry,
    ) -> c_int;
    pub fn zend_observer_class_linked_register(cb: unsafe extern "C" fn(*mut zend_class_entry, *mut zend_string));
    pub fn zend_class_init_statics(ce: *mut zend_class_entry);
    pub fn zend_set_user_opcode_handler(opcode: u8, handler: Option<OpcodeHandler>) -> c_int;
    pub fn zend_std_get_static_property_with_info(
        ce: *mut zend_class_entry,
        name: *mut zend_string,
        type_: c_int,
        info: *mut *mut zend_property_info,
    ) -> *mut zval;
    pub fn zval_update_constant_ex(pp: *mut zval, scope: *mut zend_class_entry) -> c_int;
    pub fn zend_get_user_opcode_handler(opcode: u8) -> Option<OpcodeHandler>;
    pub fn zend_vm_set_opcode_handler(op: *mut zend_op);
    /// Runs the handler of `ex`'s current opline and moves the frame on (0: the frame did not change).
    pub fn zend_vm_call_opcode_handler(ex: *mut zend_execute_data) -> c_int;
    pub fn zend_optimizer_register_pass(pass: Option<OptimizerPass>) -> c_int;
    pub fn zend_optimizer_unregister_pass(index: c_int);
    pub static mut zend_compile_file: Option<unsafe extern "C" fn(*mut c_void, c_int) -> *mut zend_op_array>;
}

pub const ZEND_ACC_INTERFACE: u32 = 1 << 0;
pub const ZEND_ACC_TRAIT: u32 = 1 << 1;
pub const ZEND_ACC_LINKED: u32 = 1 << 3;
/// A class OPcache keeps in shared memory, the same in every request.
pub const ZEND_ACC_IMMUTABLE: u32 = 1 << 7;
pub const ZEND_ACC_PRELOADED: u32 = 1 << 10;
/// A closure made from a function or method (`f(...)`, `Closure::fromCallable()`): it shares the
/// function's static variables.
pub const ZEND_ACC_FAKE_CLOSURE: u32 = 1 << 23;
pub const ZEND_ACC_STRICT_TYPES: u32 = 1 << 31;
pub const IS_CONST: u8 = 1;
pub const IS_TMP_VAR: u8 = 2;
pub const IS_VAR: u8 = 4;
pub const IS_CV: u8 = 8;
pub const IS_UNUSED: u8 = 0;
pub const BP_VAR_W: c_int = 1;
pub const BP_VAR_RW: c_int = 2;

/// `ZEND_MAP_PTR_GET` for pointer-or-offset map pointers. The offset is signed: PHP 8.4 places its
/// static map pointers below `CG(map_ptr_base)`.
///
/// # Safety
/// `slot` must be the map-pointer field of a live engine structure, read during a request.
unsafe fn map_ptr_location(slot: *mut *mut std::ffi::c_void) -> *mut *mut std::ffi::c_void {
    // SAFETY: an odd value is an offset into CG(map_ptr_base), which the engine keeps allocated for
    // the request; an even value is the pointer itself, stored in the field.
    unsafe {
        let raw = *slot as isize;
        if raw & 1 != 0 {
            let base = (*ffi::ext_php_rs_compiler_globals()).map_ptr_base.cast::<u8>();
            base.offset(raw).cast()
        } else {
            slot
        }
    }
}

/// `CE_STATIC_MEMBERS(ce)` after `zend_class_init_statics(ce)`: the request's static-member table.
///
/// # Safety
/// `ce` must be a live, linked user class, during a request.
pub unsafe fn static_members(ce: *mut zend_class_entry) -> *mut zval {
    // SAFETY: caller guarantees a linked class; init_statics creates the table if missing (and does
    // nothing else once it exists, which is what is tested first here).
    unsafe {
        let table = *map_ptr_location((&raw mut (*ce).static_members_table__ptr).cast());
        if !table.is_null() {
            return table.cast();
        }
        zend_class_init_statics(ce);
        (*map_ptr_location((&raw mut (*ce).static_members_table__ptr).cast())).cast()
    }
}

/// The slot of a static property declared by `info.ce` (`IS_INDIRECT` links resolved).
///
/// # Safety
/// `info` must be a static property of a live, linked class, during a request.
pub unsafe fn static_slot(info: *mut zend_property_info) -> *mut zval {
    // SAFETY: static property offsets index the declaring class's static-member table.
    unsafe {
        let mut slot = static_members((*info).ce).add((*info).offset as usize);
        while zend::type_of(slot) == IS_INDIRECT {
            slot = (*slot).value.zv;
        }
        slot
    }
}

/// The request's static-variable table of a method, or null before its first use.
///
/// # Safety
/// `op` must be a live user op_array, during a request.
pub unsafe fn static_table(op: *mut zend_op_array) -> *mut HashTable {
    // SAFETY: see map_ptr_location; the field is a map pointer to the table.
    unsafe { (*map_ptr_location((&raw mut (*op).static_variables_ptr__ptr).cast())).cast() }
}

/// Installs `ht` as the request's static-variable table of `op` (`ZEND_MAP_PTR_SET`).
///
/// # Safety
/// As [`static_table`]; the slot must be empty and `ht` a duplicate of the op_array's template.
pub unsafe fn set_static_table(op: *mut zend_op_array, ht: *mut HashTable) {
    // SAFETY: see map_ptr_location.
    unsafe { *map_ptr_location((&raw mut (*op).static_variables_ptr__ptr).cast()) = ht.cast() }
}

/// `RT_CONSTANT(opline, node)` for 64-bit builds (relative literal offsets).
///
/// # Safety
/// `opline` must be a live opline whose operand `constant` is a literal offset.
pub unsafe fn literal(opline: *const zend_op, constant: u32) -> *mut zval {
    // SAFETY: literals sit at a signed byte offset from the opline in the same op_array allocation.
    unsafe { opline.cast::<u8>().offset(constant as i32 as isize).cast_mut().cast() }
}

/// `EX_VAR(var)`.
///
/// # Safety
/// `ex` must be a live frame and `var` a slot offset of its function.
pub unsafe fn frame_var(ex: *mut zend_execute_data, var: u32) -> *mut zval {
    // SAFETY: temporaries and CVs are stored at byte offsets from the frame start.
    unsafe { ex.cast::<u8>().add(var as usize).cast() }
}

/// `EG(class_table)` lookup by lower-case name, without autoloading.
///
/// # Safety
/// `lcname` must be a live string, during a request.
pub unsafe fn loaded_class(lcname: *mut zend_string) -> *mut zend_class_entry {
    // SAFETY: the class table maps lower-case names to class entries (IS_PTR).
    unsafe {
        let found = ffi::zend_hash_find((*ffi::ext_php_rs_executor_globals()).class_table, lcname);
        if found.is_null() {
            ptr::null_mut()
        } else {
            (*found).value.ce
        }
    }
}

/// The `properties_info` entry named `name` in `ce`, if any.
///
/// # Safety
/// `ce` must be a live class.
pub unsafe fn property_info(ce: *mut zend_class_entry, name: *mut zend_string) -> *mut zend_property_info {
    // SAFETY: properties_info maps names to zend_property_info pointers (IS_PTR).
    unsafe {
        let found = ffi::zend_hash_find(&raw const (*ce).properties_info, name);
        if found.is_null() {
            ptr::null_mut()
        } else {
            (*found).value.ptr.cast()
        }
    }
}
