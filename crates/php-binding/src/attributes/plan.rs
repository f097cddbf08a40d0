//! Which statics of a linked class the attributes cover, grouped into publication units (§16.2,
//! §16.3): one class blob for a class-level attribute, otherwise one unit per attributed static
//! property and one per static variable of an attributed method. Each unit knows its storage key.

use std::cell::RefCell;
use std::rc::Rc;

use foldhash::HashMap;

use ext_php_rs::ffi::{zend_class_entry, zend_op_array, zend_property_info, zend_string, zval, HashTable};

use super::abi::{Attribute, ZEND_ACC_IMMUTABLE, ZEND_ACC_INTERFACE, ZEND_ACC_TRAIT};
use super::declaration::{self, LiteralArg, Spec};
use crate::read_cache::{self, KeyHash};
use crate::runtime::Tier;
use crate::zend::{self, ZEND_USER_CLASS, ZEND_USER_FUNCTION};
use crate::zvals;

/// One static a unit publishes.
#[derive(Clone, Copy)]
pub enum Member {
    /// A static property declared by the unit's class.
    Prop(*mut zend_property_info),
    /// A static variable (by name) of a method declared by the unit's class.
    Var(*mut zend_op_array, *mut zend_string),
}

#[derive(Clone)]
pub struct Unit {
    pub spec: Spec,
    /// The key in the backend's internal key space, with its hash in the lookup cache, worked out once
    /// (restored in every request; shared: restores and publications pass it on without copying it).
    pub key: Rc<KeyHash>,
    /// The class that declares the unit's statics.
    pub ce: *mut zend_class_entry,
    /// Blob units publish an array of their members under these names.
    pub blob: bool,
    pub members: Rc<[(Vec<u8>, Member)]>,
}

impl Unit {
    /// `Foo`, `Foo::$bar` or `Foo::m()::$v`, for warnings (made only when one is raised).
    ///
    /// # Safety
    /// The unit's class must be live.
    pub unsafe fn target(&self) -> String {
        // SAFETY: as above; the names of a live class, its methods and static variables are live.
        unsafe {
            let class = String::from_utf8_lossy(zend::zstr_bytes((*self.ce).name));
            match self.members.first() {
                Some((name, Member::Prop(_))) if !self.blob => {
                    format!("{class}::{}", String::from_utf8_lossy(name))
                }
                Some((_, Member::Var(op, var))) if !self.blob => format!(
                    "{class}::{}()::${}",
                    String::from_utf8_lossy(zend::zstr_bytes((**op).function_name)),
                    String::from_utf8_lossy(zend::zstr_bytes(*var))
                ),
                _ => class.into_owned(),
            }
        }
    }
}

/// The prefix of the keys explicit keys can never use (§4.2): attribute entries live behind it.
pub fn reserved_prefix(tier: Tier) -> &'static [u8] {
    match tier {
        Tier::Volatile => b"volatile_static_class:",
        Tier::Pinned => b"pinned_static_class:",
    }
}

fn spec_prefix(tier: Tier) -> &'static [u8] {
    match tier {
        Tier::Volatile => b"volatile_static:",
        Tier::Pinned => b"pinned_static:",
    }
}

/// Internal key of the blob of class `lcclass`: exactly the spec's key, which explicit keys can't use.
pub fn blob_key(tier: Tier, lcclass: &[u8]) -> Vec<u8> {
    [reserved_prefix(tier), lcclass].concat()
}

/// Internal key of a member entry with spec key `<prefix><lcclass>::<member>`. The spec key itself
/// is an ordinary explicit key, so the entry is stored behind the reserved prefix and a NUL, which no
/// class name contains.
pub fn member_key(tier: Tier, lcclass: &[u8], member: &[u8]) -> Vec<u8> {
    let (reserved, spec) = (reserved_prefix(tier), spec_prefix(tier));
    let mut key = Vec::with_capacity(reserved.len() + 1 + spec.len() + lcclass.len() + 2 + member.len());
    for part in [reserved, b"\0", spec, lcclass, b"::", member] {
        key.extend_from_slice(part);
    }
    key
}

/// What every member entry key of class `lcclass` starts with (and no other class's: `::` ends the
/// class name), so the entries of a class that is not loaded can be found by a prefix scan.
pub fn members_prefix(tier: Tier, lcclass: &[u8]) -> Vec<u8> {
    [reserved_prefix(tier), b"\0", spec_prefix(tier), lcclass, b"::"].concat()
}

/// The class and member (`$prop`, `method()::$var`, names of class and method lower-cased) of the
/// RFC's key of a member unit in `tier`'s backend: `volatile_static:Foo::$bar`,
/// `pinned_static:Foo::m()::$v` (§16.3). `None` for any other key, which is then an ordinary key.
pub fn parse_member_key(tier: Tier, key: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let rest = key.strip_prefix(spec_prefix(tier))?;
    let rest = rest.strip_prefix(b"\\").unwrap_or(rest);
    let split = rest.windows(2).position(|w| w == b"::")?;
    let (class, member) = (&rest[..split], &rest[split + 2..]);
    if !is_class_name(class) {
        return None;
    }
    let member = match member.strip_prefix(b"$") {
        Some(prop) if !prop.is_empty() => member.to_vec(),
        Some(_) => return None,
        None => {
            let paren = member.windows(5).position(|w| w == b"()::$")?;
            let (method, var) = (&member[..paren], &member[paren + 5..]);
            if !is_identifier(method) || var.is_empty() {
                return None;
            }
            [&method.to_ascii_lowercase()[..], b"()::$", var].concat()
        }
    };
    Some((class.to_ascii_lowercase(), member))
}

/// A PHP identifier: `[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*`.
fn is_identifier(name: &[u8]) -> bool {
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b >= 0x80;
    name.first().is_some_and(|b| word(b) && !b.is_ascii_digit()) && name.iter().all(word)
}

/// A class name as PHP writes one (without a leading `\`): identifiers separated by `\`.
pub fn is_class_name(name: &[u8]) -> bool {
    name.split(|&b| b == b'\\').all(is_identifier)
}

/// One unit of a class as its declaration shapes it, before the attribute's arguments are read:
/// what [`plan`] keeps across requests for a class in OPcache's shared memory.
struct Shape {
    attr: *mut Attribute,
    /// The attribute's arguments when all are literals (`declaration::literal_args`): then the unit's
    /// spec is the same while they are.
    args: Option<Box<[LiteralArg]>>,
    tier: Tier,
    key: Rc<KeyHash>,
    blob: bool,
    members: Rc<[(Vec<u8>, Member)]>,
}

/// The shapes of one class, and its name as declared (its keys were made from it, lower-cased).
struct Memo {
    class: Vec<u8>,
    shapes: Vec<Shape>,
    /// The units themselves when every attribute argument is a literal: then nothing of them can
    /// differ from one request to the next while [`matches`] holds (it compares the arguments too).
    units: Option<Rc<[Unit]>>,
}

/// Classes remembered per thread before the memo starts over (an OPcache restart leaves the entries
/// of classes that are gone; they are never matched again, see [`matches`]).
const MEMO_LIMIT: usize = 4096;

thread_local! {
    /// The shapes of OPcache-immutable classes with attributed statics, by class entry.
    static MEMO: RefCell<HashMap<*mut zend_class_entry, Rc<Memo>>> = RefCell::default();
}

/// The units of `ce` (`None`: it has none), or an error text for a declaration that cannot be
/// resolved (§16.1).
///
/// Attribute arguments that are constant expressions are read again in every request (a constant
/// they name may differ); the units of a class without such arguments are kept whole. The rest (which statics are covered, their names and keys) is kept for classes OPcache keeps in
/// shared memory (immutable: the same class entry, member infos and op_arrays in every request) and
/// reused after a check, made without allocating, that the class still declares exactly that: an
/// OPcache restart can put another version of a class at the same address.
///
/// # Safety
/// `ce` must be a live, linked class, during a request.
pub unsafe fn plan(ce: *mut zend_class_entry) -> Result<Option<Rc<[Unit]>>, String> {
    // SAFETY: caller guarantees a linked class; its tables are walked read-only.
    unsafe {
        // Most linked classes carry no attribute of ours: nothing is collected or named for them (and
        // nothing remembered is looked up).
        if !may_have_units(ce) {
            return Ok(None);
        }
        let immutable = (*ce).ce_flags & ZEND_ACC_IMMUTABLE != 0;
        if immutable {
            if let Some(memo) = MEMO.with_borrow(|m| m.get(&ce).cloned()) {
                if matches(ce, &memo) {
                    return match &memo.units {
                        Some(units) => Ok(Some(units.clone())),
                        None => units_of(ce, &memo.shapes).map(Some),
                    };
                }
            }
        }
        let mut memo = shapes_of(ce);
        let units = units_of(ce, &memo.shapes);
        if immutable {
            if memo.shapes.iter().all(|s| s.args.is_some()) {
                memo.units = units.as_ref().ok().cloned();
            }
            let memo = Rc::new(memo);
            MEMO.with_borrow_mut(|m| {
                if m.len() >= MEMO_LIMIT {
                    m.clear();
                }
                m.insert(ce, memo);
            });
        }
        units.map(Some)
    }
}

/// What [`plan`] remembers of an immutable class whose units it keeps whole: handed to the engine,
/// which keeps the units between requests, so that a later request checks the class against it
/// directly ([`replan`]).
#[derive(Clone)]
pub struct Declaration(Rc<Memo>);

/// The remembered declaration of `ce` whose kept units are `units` (what [`plan`] just answered), if
/// [`plan`] keeps them whole.
pub fn declaration_of(ce: *mut zend_class_entry, units: &Rc<[Unit]>) -> Option<Declaration> {
    let kept = |memo: &&Rc<Memo>| memo.units.as_ref().is_some_and(|u| Rc::ptr_eq(u, units));
    MEMO.with_borrow(|m| m.get(&ce).filter(kept).cloned()).map(Declaration)
}

/// The units [`plan`] answers for `ce` when it still declares exactly what `declaration` remembers
/// (the same check as [`plan`]'s, without looking up the memo); `None` otherwise.
///
/// # Safety
/// As [`plan`].
pub unsafe fn replan(ce: *mut zend_class_entry, declaration: &Declaration) -> Option<Rc<[Unit]>> {
    // SAFETY: as above.
    unsafe {
        let kind_matches = (*ce).type_ == ZEND_USER_CLASS
            && (*ce).ce_flags & ZEND_ACC_IMMUTABLE != 0
            && (*ce).ce_flags & (ZEND_ACC_TRAIT | ZEND_ACC_INTERFACE) == 0;
        if !kind_matches || !matches(ce, &declaration.0) {
            return None;
        }
    }
    declaration.0.units.clone()
}

/// The units of `ce` from its shapes: each attribute's arguments resolved now.
///
/// # Safety
/// As [`plan`]; the shapes are `ce`'s.
unsafe fn units_of(ce: *mut zend_class_entry, shapes: &[Shape]) -> Result<Rc<[Unit]>, String> {
    shapes
        .iter()
        .map(|s| {
            // SAFETY: as above; the attribute belongs to `ce` or one of its members.
            let spec = unsafe { declaration::read(s.attr, s.tier, ce)? };
            Ok(Unit { spec, key: s.key.clone(), ce, blob: s.blob, members: s.members.clone() })
        })
        .collect()
}

/// What the declaration of `ce` shapes into units.
///
/// # Safety
/// As [`plan`].
unsafe fn shapes_of(ce: *mut zend_class_entry) -> Memo {
    // SAFETY: as above.
    unsafe {
        let class = zend::zstr_bytes((*ce).name);
        let lcclass = class.to_ascii_lowercase();
        let class = class.to_vec();

        if let Some((attr, tier)) = declaration::find((*ce).attributes) {
            let mut members: Vec<(Vec<u8>, Member)> =
                statics_of(ce).map(|p| ([b"$", declared_name(p)].concat(), Member::Prop(p))).collect();
            for op in methods_of(ce) {
                let method = zend::zstr_bytes((*op).function_name).to_ascii_lowercase();
                for var in static_vars(op) {
                    let name = [&method[..], b"()::$", zend::zstr_bytes(var)].concat();
                    members.push((name, Member::Var(op, var)));
                }
            }
            let key = Rc::new(read_cache::prepare_key(&blob_key(tier, &lcclass)));
            let args = declaration::literal_args(attr);
            let shapes = vec![Shape { attr, args, tier, key, blob: true, members: members.into() }];
            return Memo { shapes, class, units: None };
        }

        let mut shapes = Vec::new();
        for p in statics_of(ce) {
            let Some((attr, tier)) = declaration::find((*p).attributes) else { continue };
            let member = [b"$", declared_name(p)].concat();
            let key = Rc::new(read_cache::prepare_key(&member_key(tier, &lcclass, &member)));
            let args = declaration::literal_args(attr);
            shapes.push(Shape { attr, args, tier, key, blob: false, members: Rc::new([(member, Member::Prop(p))]) });
        }
        for op in methods_of(ce) {
            let Some((attr, tier)) = declaration::find((*op).attributes) else { continue };
            let method = zend::zstr_bytes((*op).function_name).to_ascii_lowercase();
            for var in static_vars(op) {
                let member = [&method[..], b"()::$", zend::zstr_bytes(var)].concat();
                let key = Rc::new(read_cache::prepare_key(&member_key(tier, &lcclass, &member)));
                let args = declaration::literal_args(attr);
                shapes.push(Shape {
                    attr,
                    args,
                    tier,
                    key,
                    blob: false,
                    members: Rc::new([(member, Member::Var(op, var))]),
                });
            }
        }
        Memo { class, shapes, units: None }
    }
}

/// Whether `shape` was made by the attribute `attr` of kind `tier` with the same literal arguments.
///
/// # Safety
/// `attr` must be a live attribute.
unsafe fn same_attribute(shape: &Shape, attr: *mut Attribute, tier: Tier) -> bool {
    // SAFETY: caller guarantees a live attribute.
    shape.attr == attr
        && shape.tier == tier
        && shape.args.as_deref().is_none_or(|args| unsafe { declaration::same_args(attr, args) })
}

/// Whether `ce` declares exactly what `memo` remembers: the same class name, attributes of the same
/// kinds with the same literal arguments on the same members, under the same names (compared byte by byte, nothing allocated).
///
/// # Safety
/// As [`plan`].
unsafe fn matches(ce: *mut zend_class_entry, memo: &Memo) -> bool {
    // SAFETY: as above; names are live strings of the class and its members.
    unsafe {
        if memo.class != zend::zstr_bytes((*ce).name) {
            return false;
        }
        let prop = |m: Option<&(Vec<u8>, Member)>, p: *mut zend_property_info| match m {
            Some((name, Member::Prop(q))) => *q == p && name.strip_prefix(b"$") == Some(declared_name(p)),
            _ => false,
        };
        let var = |m: Option<&(Vec<u8>, Member)>, op: *mut zend_op_array, v: *mut zend_string| match m {
            Some((name, Member::Var(o, w))) => *o == op && *w == v && var_named(name, op, v),
            _ => false,
        };
        let mut shapes = memo.shapes.iter();
        if let Some((attr, tier)) = declaration::find((*ce).attributes) {
            let Some(s) = shapes.next().filter(|s| s.blob && same_attribute(s, attr, tier)) else { return false };
            let mut members = s.members.iter();
            for p in statics_of(ce) {
                if !prop(members.next(), p) {
                    return false;
                }
            }
            for op in methods_of(ce) {
                for v in static_vars(op) {
                    if !var(members.next(), op, v) {
                        return false;
                    }
                }
            }
            return members.next().is_none() && shapes.next().is_none();
        }
        // The next shape, which must be a member unit made by the attribute `attr` of kind `tier`.
        let mut next = |attr: *mut Attribute, tier: Tier| {
            shapes.next().filter(|s| !s.blob && same_attribute(s, attr, tier) && s.members.len() == 1)
        };
        for p in statics_of(ce) {
            let Some((attr, tier)) = declaration::find((*p).attributes) else { continue };
            if !next(attr, tier).is_some_and(|s| prop(s.members.first(), p)) {
                return false;
            }
        }
        for op in methods_of(ce) {
            let Some((attr, tier)) = declaration::find((*op).attributes) else { continue };
            for v in static_vars(op) {
                if !next(attr, tier).is_some_and(|s| var(s.members.first(), op, v)) {
                    return false;
                }
            }
        }
        shapes.next().is_none()
    }
}

/// Whether `name` is the member name of static variable `v` of method `op`: `method()::$v`, the
/// method name lower-cased.
///
/// # Safety
/// `op` and `v` must be live.
unsafe fn var_named(name: &[u8], op: *mut zend_op_array, v: *mut zend_string) -> bool {
    // SAFETY: as above.
    let (method, var) = unsafe { (zend::zstr_bytes((*op).function_name), zend::zstr_bytes(v)) };
    name.len() == method.len() + 5 + var.len()
        && name[..method.len()].eq_ignore_ascii_case(method)
        && &name[method.len()..method.len() + 5] == b"()::$"
        && &name[method.len() + 5..] == var
}

/// The name of a property as declared: the engine keeps private and protected names mangled
/// (`"\0Class\0name"`, `"\0*\0name"`), keys and messages use the plain name.
///
/// # Safety
/// `p` must be a live property info.
unsafe fn declared_name<'a>(p: *mut zend_property_info) -> &'a [u8] {
    // SAFETY: a property info's name is a live zend_string.
    let name = unsafe { zend::zstr_bytes((*p).name) };
    match name {
        [0, rest @ ..] => rest.iter().position(|&b| b == 0).map_or(name, |i| &rest[i + 1..]),
        _ => name,
    }
}

/// Whether [`plan`] can find units in `ce`: a user class (not a trait or interface) whose declaration
/// or a static it declares carries an attribute of ours. Reads attribute names only (no argument is
/// evaluated, nothing is allocated), so it is safe while a script is being compiled.
///
/// # Safety
/// `ce` must be a live class.
pub unsafe fn may_have_units(ce: *mut zend_class_entry) -> bool {
    // SAFETY: as above; the class's attribute tables are live or null.
    unsafe {
        (*ce).type_ == ZEND_USER_CLASS
            && (*ce).ce_flags & (ZEND_ACC_TRAIT | ZEND_ACC_INTERFACE) == 0
            && (declaration::find((*ce).attributes).is_some() || members_attributed(ce))
    }
}

/// Whether a static property or a method with static variables that `ce` declares carries an
/// attribute of ours. Allocates nothing: it runs for every class linked in every request. A class
/// without static properties or without methods holding static variables (most classes: the class
/// entry says so) has its member tables left alone, whose walk touches every member's record, a
/// cache miss each in a request that links a framework's classes.
///
/// # Safety
/// `ce` must be a live class.
unsafe fn members_attributed(ce: *mut zend_class_entry) -> bool {
    // SAFETY: as above; the members' attribute tables are live or null.
    unsafe {
        ((*ce).default_static_members_count > 0 && statics_of(ce).any(|p| declaration::find((*p).attributes).is_some()))
            || ((*ce).ce_flags & zend::ZEND_HAS_STATIC_IN_METHODS != 0
                && methods_of(ce).any(|op| declaration::find((*op).attributes).is_some()))
    }
}

/// # Safety
/// `ce` must be a live class, not modified while iterated.
unsafe fn statics_of(ce: *mut zend_class_entry) -> impl Iterator<Item = *mut zend_property_info> {
    // SAFETY: properties_info is a hash (never packed) of zend_property_info pointers.
    unsafe {
        member_values(&raw const (*ce).properties_info)
            .map(|z| (*z).value.ptr.cast::<zend_property_info>())
            .filter(move |&p| (*p).flags & zend::ZEND_ACC_STATIC != 0 && (*p).ce == ce)
    }
}

/// # Safety
/// `ce` must be a live class, not modified while iterated.
unsafe fn methods_of(ce: *mut zend_class_entry) -> impl Iterator<Item = *mut zend_op_array> {
    // SAFETY: function_table is a hash (never packed) of zend_function pointers; most methods have no
    // static variables, so that is tested before the scope.
    unsafe {
        member_values(&raw const (*ce).function_table)
            .map(|z| (*z).value.func)
            .filter(move |&f| {
                (*f).type_ == ZEND_USER_FUNCTION
                    && !(*f).op_array.static_variables.is_null()
                    && (*f).op_array.scope == ce
            })
            .map(|f| &raw mut (*f).op_array)
    }
}

/// The live values of one of a class's member tables, keys not looked at: these walks run for every
/// class linked in every request ([`may_have_units`]), over every method a class has or inherits.
///
/// # Safety
/// `ht` must be a live hash-form table, not modified while iterated.
unsafe fn member_values(ht: *const HashTable) -> impl Iterator<Item = *mut zval> {
    // SAFETY: as above.
    unsafe { zvals::hash_storage(ht) }
        .iter()
        .map(|b| std::ptr::from_ref(&b.val).cast_mut())
        // SAFETY: an initialised bucket of the live table.
        .filter(|&z| !unsafe { zvals::is_undef(z) })
}

/// Names of the static variables of `op`, in declaration order.
///
/// # Safety
/// `op` must be a live user op_array with static variables, not modified while iterated.
unsafe fn static_vars(op: *mut zend_op_array) -> impl Iterator<Item = *mut zend_string> {
    // SAFETY: the template's keys are the variable names.
    unsafe {
        let ht = (*op).static_variables;
        let used = (*ht).nNumUsed as usize;
        (0..used)
            .map(move |i| (*ht).__bindgen_anon_1.arData.add(i))
            .filter(|&b| zend::type_of(&raw const (*b).val) != ext_php_rs::ffi::IS_UNDEF && !(*b).key.is_null())
            .map(|b| (*b).key)
    }
}
