//! What one `#[OPcache\VolatileStatic]` / `#[OPcache\PinnedStatic]` declaration says, and the §16.1
//! declaration errors. The compile-time validator checks literal arguments and the combination of
//! both attributes; arguments that are constant expressions are resolved, and checked, when the class
//! is linked (`read`).

use std::ffi::c_char;

use ext_php_rs::ffi::{self, zend_class_entry, zval, HashTable, IS_CONSTANT_AST, IS_LONG, IS_OBJECT};

use super::abi::{self, Attribute};
use crate::enums;
use crate::runtime::Tier;
use crate::zend;
use crate::zvals;

const VOLATILE_NAME: &[u8; 22] = b"opcache\\volatilestatic";
const PINNED_NAME: &[u8; 20] = b"opcache\\pinnedstatic";
pub const VOLATILE_LCNAME: &[u8] = VOLATILE_NAME;
pub const PINNED_LCNAME: &[u8] = PINNED_NAME;
const COMBINED: &str = "OPcache\\PinnedStatic and OPcache\\VolatileStatic cannot be combined on the same target";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Strategy {
    Immediate,
    Tracking,
    Pinned,
}

/// The effect of one attribute: backend, TTL (volatile only) and publication strategy.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub tier: Tier,
    pub ttl: u64,
    pub strategy: Strategy,
}

/// The attribute of either kind in `attributes`, if any.
///
/// # Safety
/// `attributes` must be null or a live attribute table.
pub unsafe fn find(attributes: *mut HashTable) -> Option<(*mut Attribute, Tier)> {
    if attributes.is_null() {
        return None;
    }
    // One pass over the table, answering as `zend_get_attribute_str` asked for each name in turn
    // would: a target's own attributes (offset 0, not a parameter's), `VolatileStatic` first. It runs
    // for every attributed member of every class linked, so keys are not looked at and the table's
    // form is told once (the engine makes it packed, `zend_add_attribute`).
    let mut pinned = None;
    let mut meet = |z: &zval| {
        // SAFETY: caller guarantees a live table of `zend_attribute` pointers with live lower-case names.
        unsafe {
            let attr = z.value.ptr.cast::<Attribute>();
            if zvals::is_undef(z) || (*attr).offset != 0 {
                return None;
            }
            match tier_named(zend::zstr_bytes((*attr).lcname)) {
                Some(Tier::Volatile) => return Some((attr, Tier::Volatile)),
                Some(Tier::Pinned) if pinned.is_none() => pinned = Some((attr, Tier::Pinned)),
                _ => {}
            }
            None
        }
    };
    // SAFETY: as above.
    unsafe {
        if zvals::is_packed(attributes) {
            zvals::packed_storage(attributes).iter().find_map(&mut meet)
        } else {
            zvals::hash_storage(attributes).iter().find_map(|b| meet(&b.val))
        }
    }
    .or(pinned)
}

/// The kind of attribute whose lower-case name is `name`, if one of ours. The lengths differ, and a
/// name of one of them is compared as a constant-length array: a few loads, without a call.
fn tier_named(name: &[u8]) -> Option<Tier> {
    if let Ok(name) = <&[u8; VOLATILE_NAME.len()]>::try_from(name) {
        (name == VOLATILE_NAME).then_some(Tier::Volatile)
    } else if let Ok(name) = <&[u8; PINNED_NAME.len()]>::try_from(name) {
        (name == PINNED_NAME).then_some(Tier::Pinned)
    } else {
        None
    }
}

/// One argument of an attribute, as declared, when it is a literal scalar or string (not a constant
/// expression): [`read`] gives the same answer in every request for an attribute whose arguments are
/// all such, and a declaration is the same one again only if its arguments are too ([`same_args`]: an
/// OPcache restart can put a class whose `ttl:` changed at the old address, `plan::matches`).
#[derive(Debug, PartialEq)]
pub struct LiteralArg {
    /// The argument's name (named arguments), empty for a positional one.
    name: Box<[u8]>,
    type_: u32,
    /// An int's value or a float's bits (0 for null and booleans).
    bits: u64,
    /// A string's bytes.
    text: Box<[u8]>,
}

/// The arguments of `attr` when each is a literal scalar or string (`None`: one is a constant
/// expression, or a literal of another type, such as an array, which [`read`] refuses anyway).
///
/// # Safety
/// `attr` must be a live attribute.
pub unsafe fn literal_args(attr: *mut Attribute) -> Option<Box<[LiteralArg]>> {
    // SAFETY: as above; arguments are read within argc.
    unsafe {
        (0..(*attr).argc)
            .map(|i| {
                let arg = (*attr).arg(i);
                let (type_, bits, text) = literal_value(&raw const (*arg).value)?;
                let name = if (*arg).name.is_null() { &[][..] } else { zend::zstr_bytes((*arg).name) };
                Some(LiteralArg { name: name.into(), type_, bits, text: text.into() })
            })
            .collect()
    }
}

/// Whether the arguments of `attr` are exactly `args` (compared without allocating).
///
/// # Safety
/// `attr` must be a live attribute.
pub unsafe fn same_args(attr: *mut Attribute, args: &[LiteralArg]) -> bool {
    // SAFETY: as above.
    unsafe {
        (*attr).argc as usize == args.len()
            && args.iter().enumerate().all(|(i, kept)| {
                let arg = (*attr).arg(i as u32);
                let name = if (*arg).name.is_null() { &[][..] } else { zend::zstr_bytes((*arg).name) };
                name == &kept.name[..]
                    && literal_value(&raw const (*arg).value).is_some_and(|(type_, bits, text)| {
                        (type_, bits, text) == (kept.type_, kept.bits, &kept.text[..])
                    })
            })
    }
}

/// A literal argument's type, value bits and string bytes; `None` for any other argument.
///
/// # Safety
/// `value` must be a live zval of a live attribute.
unsafe fn literal_value<'a>(value: *const zval) -> Option<(u32, u64, &'a [u8])> {
    // SAFETY: caller guarantees a live zval; the union member read is the one its type names.
    unsafe {
        Some(match zend::type_of(value) {
            t @ (ffi::IS_NULL | ffi::IS_FALSE | ffi::IS_TRUE) => (t, 0, &[][..]),
            IS_LONG => (IS_LONG, (*value).value.lval as u64, &[][..]),
            ffi::IS_DOUBLE => (ffi::IS_DOUBLE, (*value).value.dval.to_bits(), &[][..]),
            ffi::IS_STRING => (ffi::IS_STRING, 0, zend::zstr_bytes((*value).value.str_)),
            _ => return None,
        })
    }
}

/// Resolves the declaration's arguments (constant expressions in the scope of `ce`).
///
/// # Safety
/// `attr` must be a live attribute of a member of the linked class `ce`, during a request.
pub unsafe fn read(attr: *mut Attribute, tier: Tier, ce: *mut zend_class_entry) -> Result<Spec, String> {
    if tier == Tier::Pinned {
        // SAFETY: caller guarantees a live attribute.
        return if unsafe { (*attr).argc } > 0 {
            Err("OPcache\\PinnedStatic expects no arguments".into())
        } else {
            Ok(Spec { tier, ttl: 0, strategy: Strategy::Pinned })
        };
    }
    // SAFETY: as above.
    let args = unsafe { volatile_args(attr, Some(ce))? };
    let ttl = match args.ttl {
        Some(Arg::Value(v)) => v.long().unwrap_or(0) as u64,
        _ => 0,
    };
    let strategy = match args.strategy {
        // SAFETY: checked to be a CacheStrategy case by volatile_args.
        Some(Arg::Value(v)) if unsafe { v.value.obj } != enums::immediate() => Strategy::Tracking,
        _ => Strategy::Immediate,
    };
    Ok(Spec { tier, ttl, strategy })
}

enum Arg {
    /// A constant expression left for link time.
    Unresolved,
    Value(zval),
}

#[derive(Default)]
struct VolatileArgs {
    ttl: Option<Arg>,
    strategy: Option<Arg>,
}

/// Parses and checks `VolatileStatic(int $ttl = 0, CacheStrategy $strategy = Immediate)`. Without a
/// scope (compile time), constant expressions stay unresolved.
///
/// # Safety
/// `attr` must be a live `VolatileStatic` attribute.
unsafe fn volatile_args(attr: *mut Attribute, scope: Option<*mut zend_class_entry>) -> Result<VolatileArgs, String> {
    const NAMES: [&str; 2] = ["ttl", "strategy"];
    // SAFETY: caller guarantees a live attribute; arguments are read within argc.
    unsafe {
        let argc = (*attr).argc;
        if argc > 2 {
            return Err("OPcache\\VolatileStatic expects at most 2 arguments".into());
        }
        let mut out = VolatileArgs::default();
        for i in 0..argc {
            let arg = (*attr).arg(i);
            let param = if (*arg).name.is_null() {
                i as usize
            } else {
                let name = String::from_utf8_lossy(zend::zstr_bytes((*arg).name)).into_owned();
                match NAMES.iter().position(|n| *n == name) {
                    Some(p) => p,
                    None => return Err(format!("Unknown named parameter ${name}")),
                }
            };
            let taken = if param == 0 { out.ttl.is_some() } else { out.strategy.is_some() };
            if taken {
                return Err(format!("Named parameter ${} overwrites previous argument", NAMES[param]));
            }
            let value = if zend::type_of(&raw const (*arg).value) == IS_CONSTANT_AST {
                match scope {
                    None => Arg::Unresolved,
                    Some(ce) => {
                        let mut v = zval::new();
                        // A temporary value, resolved right then for a class linked while an include
                        // compiles.
                        let failed =
                            zend::outside_compilation(|| abi::zend_get_attribute_value(&raw mut v, attr, i, ce) != 0);
                        if failed {
                            zvals::clear_exception();
                            return Err(format!("OPcache\\VolatileStatic {} must be resolvable", NAMES[param]));
                        }
                        Arg::Value(v)
                    }
                }
            } else {
                Arg::Value(zvals::copy(&raw const (*arg).value))
            };
            if let Arg::Value(v) = &value {
                check(param, v)?;
            }
            if param == 0 {
                out.ttl = Some(value);
            } else {
                out.strategy = Some(value);
            }
        }
        Ok(out)
    }
}

fn check(param: usize, v: &zval) -> Result<(), String> {
    let type_name = || {
        // SAFETY: zend_zval_type_name returns a static C string for any live zval.
        unsafe { std::ffi::CStr::from_ptr(ffi::zend_zval_type_name(v)).to_string_lossy().into_owned() }
    };
    let t = zvals::type_of(v);
    if param == 0 {
        if t != IS_LONG {
            return Err(format!("OPcache\\VolatileStatic ttl must be of type int, {} given", type_name()));
        }
        if v.long().unwrap_or(0) < 0 {
            return Err("OPcache\\VolatileStatic ttl must be greater than or equal to 0".into());
        }
    } else {
        // SAFETY: an object zval points to a live object.
        let is_strategy = t == IS_OBJECT && unsafe { (*v.value.obj).ce } == enums::cache_strategy();
        if !is_strategy {
            return Err(format!(
                "OPcache\\VolatileStatic strategy must be of type OPcache\\CacheStrategy, {} given",
                type_name()
            ));
        }
    }
    Ok(())
}

/// The compile-time validator of both attribute classes (`zend_internal_attribute.validator`).
/// Errors are compile errors raised after every Rust value of the check is gone (the engine
/// longjmps out of `zend_error`).
pub unsafe extern "C" fn validate(attr: *mut Attribute, _target: u32, scope: *mut zend_class_entry) {
    let outcome = std::panic::catch_unwind(|| {
        // SAFETY: the engine passes the attribute being compiled and the class being compiled.
        unsafe { compile_time_error(attr, scope) }
    });
    if let Ok(Some(message)) = outcome {
        // SAFETY: `message` is a leaked C string; the format takes exactly one string.
        unsafe { compile_error(message) }
    }
}

/// Raises a fatal compile error with `message` (a leaked C string: the engine does not return).
///
/// # Safety
/// No Rust value with a destructor may be live in the caller's frames up to the engine.
pub unsafe fn compile_error(message: *mut c_char) {
    // SAFETY: see above; E_COMPILE_ERROR bails out of compilation or linking.
    unsafe { ffi::zend_error(ffi::E_COMPILE_ERROR as i32, c"%s".as_ptr(), message) }
}

/// A leaked C string for [`compile_error`].
pub fn leaked(text: &str) -> *mut c_char {
    zend::message(text.as_bytes()).into_raw()
}

/// # Safety
/// `attr` is a live attribute being compiled; `scope` the class being compiled (or null).
unsafe fn compile_time_error(attr: *mut Attribute, scope: *mut zend_class_entry) -> Option<*mut c_char> {
    // SAFETY: as above.
    unsafe {
        let pinned = zend::zstr_bytes((*attr).lcname) == PINNED_LCNAME;
        if !scope.is_null() && sibling_table(scope, attr).is_some_and(|t| has_both(t)) {
            return Some(leaked(COMBINED));
        }
        let result = if pinned {
            if (*attr).argc > 0 {
                Err("OPcache\\PinnedStatic expects no arguments".to_owned())
            } else {
                Ok(())
            }
        } else {
            volatile_args(attr, None).map(|_| ())
        };
        result.err().map(|e| leaked(&e))
    }
}

/// Whether a table carries both attributes.
///
/// # Safety
/// `table` must be a live attribute table.
unsafe fn has_both(table: *mut HashTable) -> bool {
    // SAFETY: as above.
    unsafe {
        [VOLATILE_LCNAME, PINNED_LCNAME]
            .iter()
            .all(|n| !abi::zend_get_attribute_str(table, n.as_ptr().cast(), n.len()).is_null())
    }
}

/// The attribute table of `scope` (class, one of its properties, or one of its methods) that holds
/// `attr`: the validator is only given the attribute itself.
///
/// # Safety
/// `scope` must be a class being compiled and `attr` one of its attributes.
unsafe fn sibling_table(scope: *mut zend_class_entry, attr: *mut Attribute) -> Option<*mut HashTable> {
    // SAFETY: as above; every table walked belongs to the class being compiled.
    unsafe {
        let holds = |table: *mut HashTable| {
            !table.is_null() && zvals::entries(table).any(|(_, z)| (*z).value.ptr == attr.cast())
        };
        let mut tables = vec![(*scope).attributes];
        for (_, z) in zvals::entries(&raw mut (*scope).properties_info) {
            tables.push((*(*z).value.ptr.cast::<ffi::zend_property_info>()).attributes);
        }
        for (_, z) in zvals::entries(&raw mut (*scope).function_table) {
            let f = (*z).value.func;
            if (*f).type_ == zend::ZEND_USER_FUNCTION {
                tables.push((*f).op_array.attributes);
            }
        }
        tables.into_iter().find(|t| holds(*t))
    }
}
