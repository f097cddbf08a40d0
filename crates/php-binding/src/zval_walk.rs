//! One pass from an array or object zval to its encoded bytes (§6): the walk drives graph-codec's
//! `GraphWriter` directly, one record per array, object and PHP reference, with no model in between.
//! Strings keep PHP's cached hash and are found again by zend_string identity before their bytes are
//! compared.
//!
//! The walk has two phases. First everything that needs no userland code is written; nothing can change
//! under the walk. Then each object with a serialization hook (`__serialize`, `__sleep`) has its hook run
//! once, and each uninitialised PHP 8.4 lazy object its initializer (then its hook, if it has one), in
//! the order the walk met the objects, and what they produced is written before the next one runs. From
//! the first hook on, every object and reference the walk has met is pinned so that its identity cannot
//! be recycled, and string and array identities are forgotten before each hook, but those of interned
//! strings (array keys, names, literals), which live until the request ends. A value that needs
//! `PHPSerialized` is detected before any hook runs. Runs before any shm-core call; its buffers are
//! reused from one store to the next.

use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::VecDeque;

use foldhash::HashMap;

use ext_php_rs::ffi::{
    self as ffi, zend_class_entry, zend_function, zend_object, zend_reference, zend_string, zval, Bucket, HashTable,
    IS_ARRAY, IS_DOUBLE, IS_FALSE, IS_INDIRECT, IS_LONG, IS_NULL, IS_OBJECT, IS_REFERENCE, IS_STRING, IS_TRUE,
    IS_UNDEF,
};
use ext_php_rs::zend::ce;
use graph_codec::{
    zend_string_hash, ClassKind, EncodeError, FlatArray, GraphWriter, NodeId, NodeKind, ObjectRestore, ShapeRef, Slot,
    StateFamily, StoreTier, StringRef,
};

use crate::class_info::{self, ClassFacts};
use crate::internal_state::{self, StateError};
use crate::zend;
use crate::zval_in::Bound;
use crate::zvals::{self, RawKey};

/// Names `DateInterval`'s `get_properties` handler writes into the property table; they mirror the
/// internal state and are not dynamic properties.
const INTERVAL_FIELDS: [&[u8]; 11] =
    [b"y", b"m", b"d", b"h", b"i", b"s", b"f", b"invert", b"days", b"from_string", b"date_string"];

/// Why the walk stopped early.
pub enum Stop {
    /// A nested resource, Closure or non-serializable object, or nesting beyond the limit.
    Unstorable,
    /// A userland hook threw; the exception propagates.
    Thrown,
    /// Some object needs PHP's `serialize()`; found before any hook ran.
    NeedsPhpSerialize,
}

impl From<EncodeError> for Stop {
    fn from(_: EncodeError) -> Self {
        Stop::Unstorable
    }
}

/// A node whose record is still to be written.
enum Task {
    Array(NodeId, *mut HashTable),
    /// An object, and the object whose slots hold its state (itself, or a lazy proxy's real instance).
    Object(NodeId, *mut zend_object, *mut zend_object),
    Reference(NodeId, *mut zend_reference),
}

/// What the walk knows about a class: its facts for the whole request (a class entry cannot change or
/// go away before the request ends), its name and full shape for the encoding numbered `encoding`.
struct Class {
    facts: ClassFacts,
    encoding: u64,
    name: Option<StringRef>,
    /// The shape with every declared property.
    shape: Option<ShapeRef>,
    /// The shape with no declared property (objects restored by `__unserialize()`).
    bare_shape: Option<ShapeRef>,
}

/// The name of a property as the object's tables hold it.
#[derive(Clone, Copy)]
pub enum PropertyName {
    Str(*mut zend_string),
    /// Property tables may hold integer keys (old array casts); a property name is text.
    Int(i64),
}

impl PropertyName {
    /// # Safety
    /// A string name must be live.
    unsafe fn bytes<'a>(self) -> Cow<'a, [u8]> {
        match self {
            // SAFETY: caller guarantees a live name.
            PropertyName::Str(s) => Cow::Borrowed(unsafe { zend::zstr_bytes(s) }),
            PropertyName::Int(i) => Cow::Owned(i.to_string().into_bytes()),
        }
    }
}

/// One property of a live object, before its value is read.
pub struct PropertySlot {
    pub name: PropertyName,
    pub slot: *mut zval,
    pub declared: bool,
    /// A declared property with a type (it may be uninitialized rather than unset).
    pub typed: bool,
    pub readonly: bool,
}

/// A property chosen for the record of a hooked object; `value` is `None` for an unset or
/// uninitialized declared property (only when no `__sleep()` selected the properties).
struct Selected {
    name: StringRef,
    value: Option<*mut zval>,
    declared: bool,
    readonly: bool,
}

/// A name `__sleep()` returned, as a string: its bytes in [`Walk::sleep_bytes`]; `warn` when it was a
/// scalar of another type, whose warning is given when the name is looked up, as `serialize()` gives it.
struct SleepName {
    bytes: std::ops::Range<usize>,
    warn: bool,
}

/// The walk's state, reused from one encoding to the next.
pub struct Walk {
    writer: GraphWriter,
    tasks: Vec<Task>,
    /// Objects whose hooks or lazy initializers run in the second phase, in discovery order, with
    /// whether the class has a userland hook (else the object is only lazy).
    hooked: VecDeque<(NodeId, *mut zend_object, bool)>,
    objects: HashMap<*mut zend_object, NodeId>,
    references: HashMap<*mut zend_reference, NodeId>,
    /// Arrays held more than once (copy-on-write sharing), stored once. An array with one holder can be
    /// met only once, so it is not looked up.
    arrays: HashMap<*mut HashTable, NodeId>,
    /// The shared array met last, looked up before `arrays`: most often PHP's one immutable empty array,
    /// held by every `[]` of the value.
    last_shared: Option<(*mut HashTable, NodeId)>,
    /// Indexes into `class_list`.
    classes: HashMap<*mut zend_class_entry, usize>,
    class_list: Vec<Class>,
    /// The class looked up last, found again without hashing (objects of one class come in runs).
    last_class: Option<(*mut zend_class_entry, usize)>,
    /// The request `classes` belongs to (0: outside a request, not kept from one encoding to the next).
    request: u64,
    /// Numbers the encodings, for `Class::encoding`.
    encoding: u64,
    /// Values kept alive until the walk ends: internal-state exports, and from the first hook on every
    /// object and reference the identity maps name (a `__serialize()` result is held only until it is
    /// written).
    pinned: Vec<zval>,
    /// `__serialize()` results of scalars and strings only, with their object and its shape, written in
    /// a batch by [`Self::write_pending`] (see there).
    pending: Vec<(NodeId, ShapeRef, zval)>,
    names: Vec<(StringRef, bool)>,
    /// What `__sleep()` returned and what the walk selected by it ([`Self::sleep`],
    /// [`Self::select_properties`]): userland code runs while they are filled (a name's
    /// `__toString()`, an error handler of their warnings), and a fatal error there longjmps past the
    /// walk's frames; kept here, they are taken back with the walk by the next request.
    sleep_bytes: Vec<u8>,
    sleep_names: Vec<SleepName>,
    slots: Vec<PropertySlot>,
    selected: Vec<Selected>,
    /// Per entry of `slots`: already selected.
    picked: Vec<bool>,
    tier: StoreTier,
    hooks_started: bool,
    /// The longest encoding the store takes (`GraphWriter::set_limit`).
    limit: usize,
}

/// The slot of a flat array's element `z` ([`Walk::encode_flat`]): `None` for anything but a scalar or a
/// string, and for a string [`flat_string`] leaves to the general walk.
///
/// # Safety
/// `z` must be a live zval.
#[inline(always)]
unsafe fn flat_value(flat: &mut FlatArray<'_>, z: *const zval, string_bytes: &mut usize) -> Option<Slot> {
    // SAFETY: caller guarantees a live zval; a string's is live with it.
    unsafe {
        Some(match zend::type_of(z) {
            IS_NULL => Slot::Null,
            IS_FALSE => Slot::Bool(false),
            IS_TRUE => Slot::Bool(true),
            IS_LONG => Slot::Int((*z).value.lval),
            IS_DOUBLE => Slot::Float((*z).value.dval),
            IS_STRING => Slot::String(flat_string(flat, (*z).value.str_, string_bytes)?),
            _ => return None,
        })
    }
}

/// The string record of `s` in a flat array, found and hashed as [`Walk::string`] does; its length is
/// added to `string_bytes`. `None`, before it is hashed or copied, for a string whose hash is not known
/// yet and that takes them past [`FLAT_STRING_BYTES`] (a string with a known hash costs no test here:
/// the caller checks the sum at the end).
///
/// # Safety
/// `s` must be a live zend_string.
#[inline(always)]
unsafe fn flat_string(flat: &mut FlatArray<'_>, s: *mut zend_string, string_bytes: &mut usize) -> Option<StringRef> {
    // SAFETY: caller guarantees a live string; its address identifies it while no userland code runs.
    unsafe {
        let bytes = zend::zstr_bytes(s);
        *string_bytes += bytes.len();
        let hash = match (*s).h {
            0 if *string_bytes > FLAT_STRING_BYTES => return None,
            0 => zend::string_hash(s),
            h => h,
        };
        let interned = (*s).gc.u.type_info & zvals::GC_IMMUTABLE != 0;
        Some(flat.string_as(bytes, hash, s as usize, interned))
    }
}

/// `serialize()`'s warning about what `__sleep()` of `class` returned: not an array, or a name that is
/// not a string.
fn warn_sleep_result(class: &[u8]) {
    // Built in a statement of its own, so that no temporary is alive while the warning is given.
    let text = format!(
        "{}::__sleep() should return an array only containing the names of instance-variables to serialize",
        String::from_utf8_lossy(class)
    );
    zend::warning_docref(text.into_bytes());
}

/// String bytes past which [`Walk::encode_flat`] leaves an array to the general walk: with at most
/// [`FLAT_ELEMENTS`], the header and strings of a flat array then always fit the writer's room for them.
const FLAT_STRING_BYTES: usize = 1024;
/// Elements (holes included) past which [`Walk::encode_flat`] leaves an array to the general walk.
const FLAT_ELEMENTS: u32 = 16;

/// PHP's hash of `s` (cached in it once computed), or 0 without computing it when it is not known yet
/// and `s` is longer than `limit`: such a string cannot be stored (it is not worth hashing it), and no
/// string's hash is 0.
///
/// # Safety
/// `s` must be a live zend_string.
#[inline(always)]
unsafe fn hash_within(s: *mut zend_string, limit: usize) -> u64 {
    // SAFETY: caller guarantees a live string.
    unsafe {
        match (*s).h {
            0 => unknown_hash_within(s, limit),
            h => h,
        }
    }
}

/// [`hash_within`] of a string whose hash is not known yet.
///
/// # Safety
/// `s` must be a live zend_string.
#[inline(never)]
unsafe fn unknown_hash_within(s: *mut zend_string, limit: usize) -> u64 {
    // SAFETY: caller guarantees a live string.
    unsafe {
        if (*s).len > limit {
            0
        } else {
            zend::string_hash(s)
        }
    }
}

impl Walk {
    pub fn new() -> Self {
        Walk {
            writer: GraphWriter::new(),
            tasks: Vec::new(),
            hooked: VecDeque::new(),
            objects: HashMap::default(),
            references: HashMap::default(),
            arrays: HashMap::default(),
            last_shared: None,
            classes: HashMap::default(),
            class_list: Vec::new(),
            last_class: None,
            request: 0,
            encoding: 0,
            pinned: Vec::new(),
            pending: Vec::new(),
            names: Vec::new(),
            sleep_bytes: Vec::new(),
            sleep_names: Vec::new(),
            slots: Vec::new(),
            selected: Vec::new(),
            picked: Vec::new(),
            tier: StoreTier::SharedGraph,
            hooks_started: false,
            limit: usize::MAX,
        }
    }

    fn reset(&mut self, request: u64) {
        self.writer.reset();
        self.tasks.clear();
        self.hooked.clear();
        clear(&mut self.objects);
        clear(&mut self.references);
        clear(&mut self.arrays);
        self.last_shared = None;
        if request != self.request || request == 0 {
            clear(&mut self.classes);
            self.class_list.clear();
            self.last_class = None;
            self.request = request;
        }
        self.encoding += 1;
        self.tier = StoreTier::SharedGraph;
        self.hooks_started = false;
    }

    /// Encodes the array or object `z` and returns its tier; [`Self::bytes`] holds the encoding.
    /// `request` identifies the current request (0 outside one). An encoding that would pass `limit`
    /// bytes is `Unstorable`, and stops once its output outgrows the bound: no hook runs after that
    /// (see [`Self::over_limit`] for `NeedsPhpSerialize`).
    ///
    /// # Safety
    /// `z` must be a live array or object zval.
    pub unsafe fn encode(&mut self, z: *const zval, request: u64, limit: Bound<'_>) -> Result<StoreTier, Stop> {
        // SAFETY: caller guarantees a live value; an array's table is live with it.
        if unsafe { zend::type_of(z) == IS_ARRAY && self.encode_flat((*z).value.arr) } {
            return Ok(StoreTier::SharedGraph);
        }
        self.limit = limit.bytes();
        self.writer.set_limit(self.limit);
        self.reset(request);
        // SAFETY: caller guarantees a live value.
        let walked = unsafe { self.walk(z) };
        // Releasing pinned values may run destructors: done before any shm-core call.
        self.pending.clear();
        self.pinned.clear();
        walked?;
        self.writer.finish(self.tier)?;
        Ok(self.tier)
    }

    /// Encodes the small array `ht` in one pass when its elements are all scalars and strings (the
    /// common small store: no record below the root, so none of the walk's bookkeeping of nodes and
    /// identities), with the bytes the general walk writes (`GraphWriter::flat_array`). False when `ht`
    /// is larger, holds anything else, or its strings outgrow the writer's room for them: then nothing
    /// is encoded and the general walk runs. Strings are looked up and hashed as [`Self::string`] does
    /// (no hook has run: none is stored unhashed).
    ///
    /// # Safety
    /// `ht` must be a live array, not modified while it is written (no userland code runs).
    unsafe fn encode_flat(&mut self, ht: *mut HashTable) -> bool {
        // SAFETY: caller guarantees a live, unchanging array; its elements, keys and strings are live.
        unsafe {
            let used = (*ht).nNumUsed;
            if used > FLAT_ELEMENTS {
                return false;
            }
            let packed = zvals::is_packed(ht);
            let mut flat = self.writer.flat_array(packed, (*ht).nNextFreeElement, used as usize);
            let mut string_bytes = 0;
            if packed {
                for z in zvals::packed_storage(ht) {
                    let slot = if zvals::is_undef(z) {
                        Some(Slot::Undef)
                    } else {
                        flat_value(&mut flat, z, &mut string_bytes)
                    };
                    let Some(slot) = slot else { return false };
                    flat.slot(slot);
                }
            } else {
                for bucket in zvals::hash_storage(ht) {
                    let z = &raw const bucket.val;
                    if zend::type_of(z) == IS_UNDEF {
                        continue;
                    }
                    let key = if bucket.key.is_null() {
                        Slot::Int(bucket.h as i64)
                    } else {
                        let Some(key) = flat_string(&mut flat, bucket.key, &mut string_bytes) else { return false };
                        Slot::String(key)
                    };
                    let Some(slot) = flat_value(&mut flat, z, &mut string_bytes) else { return false };
                    flat.entry(key, slot);
                }
            }
            string_bytes <= FLAT_STRING_BYTES && flat.finish().is_some()
        }
    }

    /// Encodes `serialized`, the result of PHP's `serialize()`, as a `PHPSerialized` container;
    /// [`Self::bytes`] holds it. False, with nothing encoded, when it would pass the limit of the
    /// last [`Self::encode`].
    ///
    /// # Safety
    /// `serialized` must be a live, writable (or interned) zend_string.
    pub unsafe fn php_serialized(&mut self, serialized: *mut zend_string) -> bool {
        // SAFETY: caller guarantees a live string.
        unsafe {
            match hash_within(serialized, self.limit) {
                0 => false,
                hash => self.writer.php_serialized(zend::zstr_bytes(serialized), hash).is_ok(),
            }
        }
    }

    /// Whether the encoding in progress has outgrown its limit already.
    pub fn over_limit(&self) -> bool {
        self.writer.over_limit()
    }

    /// Forgets the values an encoding that never returned had pinned: the request they belonged to has
    /// ended, and its memory with it.
    pub fn abandon(&mut self) {
        self.pinned.drain(..).for_each(std::mem::forget);
        self.pending.drain(..).for_each(std::mem::forget);
    }

    /// The last completed encoding.
    pub fn bytes(&self) -> &[u8] {
        self.writer.encoded()
    }

    /// # Safety
    /// `z` must be a live array or object zval.
    unsafe fn walk(&mut self, z: *const zval) -> Result<(), Stop> {
        // SAFETY: caller guarantees a live root; the first phase runs no userland code, and each hook's
        // result is held until it is written.
        unsafe {
            let root = self.slot(z)?;
            self.writer.root(root)?;
            self.drain()?;
            if !self.hooked.is_empty() {
                self.run_hooks()?;
            }
        }
        Ok(())
    }

    /// The second phase: runs each hook (or lazy initializer) in turn and writes what it produced before
    /// the next one runs, but results of scalars and strings only, written in batches
    /// ([`Self::write_pending`]). A short loop: it runs after each hook's userland code evicted the
    /// walk's code from the caches.
    ///
    /// # Safety
    /// Every hooked object must be live (pinned once hooks start).
    #[inline(never)]
    unsafe fn run_hooks(&mut self) -> Result<(), Stop> {
        // SAFETY: caller guarantees live objects; each hook's result is held until it is written.
        unsafe {
            while let Some((id, obj, hooks)) = self.hooked.pop_front() {
                // Nothing a hook returns makes the value storable again.
                if self.writer.over_limit() {
                    return Err(Stop::Unstorable);
                }
                self.before_hook();
                // Everything met so far is pinned: a lazy object's initializer may run now.
                let state = zend::lazy_state(obj).map_err(|()| Stop::Thrown)?;
                if hooks {
                    self.run_hook(id, obj)?;
                } else {
                    self.tasks.push(Task::Object(id, obj, state));
                    self.drain()?;
                }
            }
            if !self.pending.is_empty() {
                self.write_pending()?;
            }
        }
        Ok(())
    }

    /// Userland code is about to run: pin what the identity maps name (once), and forget identities
    /// that a hook could recycle.
    #[inline(always)]
    fn before_hook(&mut self) {
        if !self.hooks_started {
            self.start_hooks();
        }
        self.writer.forget_identities();
        clear(&mut self.arrays);
        self.last_shared = None;
    }

    /// The first hook is about to run: pins every object and reference the identity maps name.
    #[inline(never)]
    fn start_hooks(&mut self) {
        self.hooks_started = true;
        // SAFETY: every key of the maps is a live object or reference: nothing has run since the walk
        // read them.
        unsafe {
            for &obj in self.objects.keys() {
                self.pinned.push(zvals::object_zval(obj));
            }
            for &r in self.references.keys() {
                self.pinned.push(zvals::reference_zval(r));
            }
        }
    }

    /// The string record of `s`.
    ///
    /// # Safety
    /// `s` must be a live zend_string.
    #[inline(always)]
    unsafe fn string(&mut self, s: *mut zend_string) -> StringRef {
        // SAFETY: caller guarantees a live string; its address identifies it until userland code runs,
        // or until the request ends if it is interned (array keys, names, literals: never freed before).
        unsafe {
            // A string past the limit is filed under hash 0; the writer refuses it before copying it, or
            // `finish` does.
            let (bytes, hash) = (zend::zstr_bytes(s), hash_within(s, self.limit));
            let interned = (*s).gc.u.type_info & zvals::GC_IMMUTABLE != 0;
            self.writer.string_as(bytes, hash, s as usize, interned)
        }
    }

    /// The string record of a string value. Once hooks run, one that has no cached hash and one holder
    /// (fresh, met only here: a hook's formatted date) is stored unhashed: a hook makes new strings at
    /// every store, so their hashes would be computed again each time, only for a deduplication that
    /// rarely finds anything. The value's own strings keep the hash PHP caches in them after the first
    /// store, and their deduplication (a route table repeats many strings in distinct copies).
    ///
    /// # Safety
    /// `s` must be a live zend_string.
    #[inline(always)]
    unsafe fn value_string(&mut self, s: *mut zend_string) -> StringRef {
        // SAFETY: caller guarantees a live string; an interned one has its hash and no refcount to read.
        unsafe {
            if self.unhashed(s) {
                self.writer.unhashed_string(zend::zstr_bytes(s))
            } else {
                self.string(s)
            }
        }
    }

    /// Whether [`Self::value_string`] stores the value string `s` unhashed.
    ///
    /// # Safety
    /// `s` must be a live zend_string.
    #[inline(always)]
    unsafe fn unhashed(&self, s: *mut zend_string) -> bool {
        // SAFETY: caller guarantees a live string; an interned one has its hash and no refcount to read.
        unsafe {
            self.hooks_started && (*s).h == 0 && (*s).gc.u.type_info & zvals::GC_IMMUTABLE == 0 && (*s).gc.refcount == 1
        }
    }

    /// The string record of a property name.
    ///
    /// # Safety
    /// A string name must be live.
    unsafe fn property_name(&mut self, name: PropertyName) -> StringRef {
        match name {
            // SAFETY: caller guarantees a live name.
            PropertyName::Str(s) => unsafe { self.string(s) },
            PropertyName::Int(i) => {
                let text = i.to_string();
                self.writer.string(text.as_bytes(), zend_string_hash(text.as_bytes()), 0)
            }
        }
    }

    /// What the walk knows of `ce`; its facts are read once per request.
    ///
    /// # Safety
    /// `ce` must be a live class entry.
    #[inline(always)]
    unsafe fn class(&mut self, ce: *mut zend_class_entry) -> &mut Class {
        let index = match self.last_class {
            Some((last, index)) if last == ce && self.class_list[index].encoding == self.encoding => index,
            // SAFETY: caller guarantees a live class.
            _ => unsafe { self.class_slow(ce) },
        };
        &mut self.class_list[index]
    }

    /// [`Self::class`] for a class other than the last one, or met first in this encoding: its index in
    /// `class_list`, made the last class.
    ///
    /// # Safety
    /// `ce` must be a live class entry.
    #[inline(never)]
    unsafe fn class_slow(&mut self, ce: *mut zend_class_entry) -> usize {
        let encoding = self.encoding;
        let list = &mut self.class_list;
        let index = *self.classes.entry(ce).or_insert_with(|| {
            list.push(Class {
                // SAFETY: caller guarantees a live class.
                facts: unsafe { class_info::facts(ce) },
                encoding,
                name: None,
                shape: None,
                bare_shape: None,
            });
            list.len() - 1
        });
        self.last_class = Some((ce, index));
        let class = &mut self.class_list[index];
        if class.encoding != encoding {
            *class = Class { encoding, name: None, shape: None, bare_shape: None, ..*class };
        }
        index
    }

    /// The shape of `ce` with no declared property.
    ///
    /// # Safety
    /// `ce` must be a live class entry.
    unsafe fn bare_shape(&mut self, ce: *mut zend_class_entry) -> ShapeRef {
        // SAFETY: caller guarantees a live class.
        unsafe {
            if let Some(shape) = self.class(ce).bare_shape {
                return shape;
            }
            let class_name = self.class_name(ce);
            let shape = self.writer.shape(class_name, &[]);
            self.class(ce).bare_shape = Some(shape);
            shape
        }
    }

    /// # Safety
    /// `ce` must be a live class entry.
    unsafe fn class_name(&mut self, ce: *mut zend_class_entry) -> StringRef {
        // SAFETY: caller guarantees a live class; its name lives as long as it.
        unsafe {
            if let Some(name) = self.class(ce).name {
                return name;
            }
            let name = self.string((*ce).name);
            self.class(ce).name = Some(name);
            name
        }
    }

    /// The shape of `ce` with all its declared properties.
    ///
    /// # Safety
    /// `ce` must be a live, linked class entry.
    unsafe fn full_shape(&mut self, ce: *mut zend_class_entry) -> Result<ShapeRef, Stop> {
        // SAFETY: caller guarantees a live class; slot infos come from its linked tables.
        unsafe {
            if let Some(shape) = self.class(ce).shape {
                return Ok(shape);
            }
            let class_name = self.class_name(ce);
            let mut names = std::mem::take(&mut self.names);
            names.clear();
            for index in 0..zvals::slot_count(ce) {
                let info = zvals::slot_info(ce, index);
                if info.is_null() {
                    self.names = names;
                    return Err(Stop::Unstorable);
                }
                names.push((self.string((*info).name), (*info).flags & zend::ZEND_ACC_READONLY != 0));
            }
            let shape = self.writer.shape(class_name, &names);
            self.names = names;
            self.class(ce).shape = Some(shape);
            Ok(shape)
        }
    }

    /// The slot of one value; an array, object or reference is a node whose record is written later.
    ///
    /// # Safety
    /// `z` must point to a live zval reachable from the root.
    #[inline(always)]
    unsafe fn slot(&mut self, z: *const zval) -> Result<Slot, Stop> {
        // SAFETY: caller guarantees a live zval; every pointer followed is owned by it.
        unsafe {
            let mut z = z;
            if zend::type_of(z) == IS_INDIRECT {
                z = (*z).value.zv;
            }
            Ok(match zend::type_of(z) {
                IS_UNDEF | IS_NULL => Slot::Null,
                IS_FALSE => Slot::Bool(false),
                IS_TRUE => Slot::Bool(true),
                IS_LONG => Slot::Int((*z).value.lval),
                IS_DOUBLE => Slot::Float((*z).value.dval),
                IS_STRING => Slot::String(self.value_string((*z).value.str_)),
                IS_ARRAY => self.array_slot((*z).value.arr),
                IS_OBJECT => self.object_slot((*z).value.obj)?,
                IS_REFERENCE => self.reference_slot((*z).value.ref_)?,
                _ => return Err(Stop::Unstorable),
            })
        }
    }

    /// Inlined into the walk's loop but for a shared array met for the first time or after another one.
    ///
    /// # Safety
    /// `ht` must be a live array reachable from the root.
    #[inline(always)]
    unsafe fn array_slot(&mut self, ht: *mut HashTable) -> Slot {
        // SAFETY: caller guarantees a live array.
        if unsafe { (*ht).gc.refcount } > 1 {
            return match self.last_shared {
                Some((last, id)) if last == ht => Slot::Node(id),
                _ => self.shared_array_slot(ht),
            };
        }
        let id = self.writer.node(NodeKind::Array);
        self.tasks.push(Task::Array(id, ht));
        Slot::Node(id)
    }

    /// [`Self::array_slot`] of an array with more than one holder, other than the one met last.
    #[inline(never)]
    fn shared_array_slot(&mut self, ht: *mut HashTable) -> Slot {
        if let Some(&id) = self.arrays.get(&ht) {
            self.last_shared = Some((ht, id));
            return Slot::Node(id);
        }
        let id = self.writer.node(NodeKind::Array);
        self.arrays.insert(ht, id);
        self.last_shared = Some((ht, id));
        self.tasks.push(Task::Array(id, ht));
        Slot::Node(id)
    }

    /// # Safety
    /// `r` must be a live reference reachable from the root.
    unsafe fn reference_slot(&mut self, r: *mut zend_reference) -> Result<Slot, Stop> {
        // SAFETY: caller guarantees a live reference.
        unsafe {
            // A reference nobody else holds is a plain value, as serialize() treats it.
            if (*r).gc.refcount == 1 {
                let inner = &raw const (*r).val;
                return if zend::type_of(inner) == IS_REFERENCE { Err(Stop::Unstorable) } else { self.slot(inner) };
            }
            if let Some(&id) = self.references.get(&r) {
                return Ok(Slot::Node(id));
            }
            let id = self.writer.node(NodeKind::Reference);
            self.references.insert(r, id);
            if self.hooks_started {
                self.pinned.push(zvals::reference_zval(r));
            }
            self.tasks.push(Task::Reference(id, r));
            Ok(Slot::Node(id))
        }
    }

    /// # Safety
    /// `obj` must be a live object reachable from the root.
    unsafe fn object_slot(&mut self, obj: *mut zend_object) -> Result<Slot, Stop> {
        // SAFETY: caller guarantees a live object; its class outlives it.
        unsafe {
            let ce = (*obj).ce;
            let info = self.class(ce).facts.info;
            if info.kind == ClassKind::Enum {
                // The case name is the enum object's first property slot.
                let name = zvals::property_slot(obj, 0);
                if zvals::slot_count(ce) == 0 || zend::type_of(name) != IS_STRING {
                    return Err(Stop::Unstorable);
                }
                let class_name = self.class_name(ce);
                let case_name = self.string((*name).value.str_);
                return Ok(Slot::EnumCase(self.writer.enum_case(class_name, case_name)));
            }
            // An object met before has a class of the same tier, already counted.
            match info.object_tier(false) {
                Err(_) => return Err(Stop::Unstorable),
                // Only reachable before any hook ran if the whole walk so far was hook-free; after that,
                // `serialize()` would run the hooks a second time, so this is refused instead.
                Ok(StoreTier::PHPSerialized) if !self.hooks_started => return Err(Stop::NeedsPhpSerialize),
                Ok(StoreTier::PHPSerialized) => return Err(Stop::Unstorable),
                Ok(tier) => self.tier = self.tier.max(tier),
            }
            let id = match self.objects.entry(obj) {
                Entry::Occupied(known) => return Ok(Slot::Node(*known.get())),
                Entry::Vacant(vacant) => *vacant.insert(self.writer.node(NodeKind::Object)),
            };
            if self.hooks_started {
                self.pinned.push(zvals::object_zval(obj));
            }
            // A lazy object waits for the second phase even when initialised: reaching a proxy's real
            // instance can run an initializer (one made lazy again), which must not run while raw
            // pointers of this phase are pending.
            let hooks = info.userland_hooks.any();
            if hooks || zend::is_lazy(obj) {
                self.hooked.push_back((id, obj, hooks));
            } else {
                self.tasks.push(Task::Object(id, obj, obj));
            }
            Ok(Slot::Node(id))
        }
    }

    /// Writes the record of every pending node.
    ///
    /// # Safety
    /// Every pending task must name a live node (true while no userland code runs).
    unsafe fn drain(&mut self) -> Result<(), Stop> {
        while let Some(task) = self.tasks.pop() {
            // SAFETY: caller guarantees the task's node is live.
            unsafe {
                match task {
                    Task::Array(id, ht) => self.write_array(id, ht)?,
                    Task::Object(id, obj, state) => self.write_object(id, obj, state)?,
                    Task::Reference(id, r) => self.write_reference(id, r)?,
                }
            }
        }
        Ok(())
    }

    /// # Safety
    /// `r` must be a live reference (no userland code runs).
    #[inline(never)]
    unsafe fn write_reference(&mut self, id: NodeId, r: *mut zend_reference) -> Result<(), Stop> {
        self.writer.begin_reference(id)?;
        // SAFETY: caller guarantees a live reference.
        let slot = unsafe { self.slot(&raw const (*r).val)? };
        self.writer.slot(slot);
        self.writer.end()?;
        Ok(())
    }

    /// # Safety
    /// `ht` must be a live array, not modified while it is written (no userland code runs).
    #[inline(always)]
    unsafe fn write_array(&mut self, id: NodeId, ht: *mut HashTable) -> Result<(), Stop> {
        // SAFETY: caller guarantees a live, unchanging array.
        unsafe {
            let next_free_index = (*ht).nNextFreeElement;
            if zvals::is_packed(ht) {
                let slots = zvals::packed_storage(ht);
                self.writer.begin_packed_array(id, next_free_index, slots.len())?;
                for z in slots {
                    let slot = if zvals::is_undef(z) { Slot::Undef } else { self.slot(z)? };
                    self.writer.slot(slot);
                }
            } else {
                self.writer.begin_hash_array(id, next_free_index, zend::array_len(ht))?;
                for bucket in zvals::hash_storage(ht) {
                    let z = &raw const bucket.val;
                    match zend::type_of(z) {
                        IS_UNDEF => continue,
                        IS_INDIRECT if zvals::is_undef((*z).value.zv) => continue,
                        _ => {}
                    }
                    let key = self.key_slot(bucket);
                    let value = self.slot(z)?;
                    self.writer.entry(key, value);
                }
            }
            self.writer.end()?;
        }
        Ok(())
    }

    /// The key slot of a hash array's bucket: its integer key, or the string record of its key.
    ///
    /// # Safety
    /// `bucket` must be a live bucket of a live array.
    #[inline(always)]
    unsafe fn key_slot(&mut self, bucket: &Bucket) -> Slot {
        if bucket.key.is_null() {
            Slot::Int(bucket.h as i64)
        } else {
            // SAFETY: caller guarantees a live bucket, whose key is a live string.
            Slot::String(unsafe { self.string(bucket.key) })
        }
    }

    /// Writes an object whose class has no userland serialization hook, under its class, with the state
    /// `state` holds (`obj` itself, or the real instance of the lazy proxy `obj`).
    ///
    /// # Safety
    /// `obj` and `state` must be live objects.
    #[inline(never)]
    unsafe fn write_object(&mut self, id: NodeId, obj: *mut zend_object, state: *mut zend_object) -> Result<(), Stop> {
        // SAFETY: caller guarantees live objects; the facts of `obj`'s class were read when it got its id.
        unsafe {
            let ce = (*obj).ce;
            check_state_layout(ce, state)?;
            let facts = self.class(ce).facts;
            let shape = self.full_shape(ce)?;
            let dynamic = match facts.family() {
                Some(family) => {
                    let extracted =
                        internal_state::extract(family, state, facts.internal_base).map_err(|e| match e {
                            StateError::Thrown => Stop::Thrown,
                            StateError::Malformed => Stop::Unstorable,
                        })?;
                    // The class's internal code ran: any string it freed may have been reused.
                    self.writer.forget_identities();
                    self.writer.begin_object(id, shape, ObjectRestore::Internal)?;
                    self.declared_properties(state, ce)?;
                    let dynamic = self.dynamic_properties(state, family == StateFamily::DateInterval)?;
                    self.writer.internal_state(&extracted.state)?;
                    let mut walked = Ok(());
                    extracted.state.for_each_value(|&z| {
                        if walked.is_ok() {
                            match self.slot(z) {
                                Ok(slot) => self.writer.slot(slot),
                                Err(stop) => walked = Err(stop),
                            }
                        }
                    });
                    // The state's values point into the export; its arrays are written later.
                    self.pinned.extend(extracted.keep);
                    walked?;
                    dynamic
                }
                None => {
                    self.writer.begin_object(id, shape, ObjectRestore::Properties)?;
                    self.declared_properties(state, ce)?;
                    self.dynamic_properties(state, false)?
                }
            };
            self.writer.end()?;
            if dynamic {
                self.tier = self.tier.max(StoreTier::OPcacheSerialized);
            }
        }
        Ok(())
    }

    /// Writes every declared property slot of `obj` (uninitialized ones stay undefined).
    ///
    /// # Safety
    /// `obj` must be a live object of class `ce`.
    unsafe fn declared_properties(&mut self, obj: *mut zend_object, ce: *mut zend_class_entry) -> Result<(), Stop> {
        // SAFETY: caller guarantees a live object with `slot_count(ce)` declared slots.
        unsafe {
            for index in 0..zvals::slot_count(ce) {
                let z = zvals::property_slot(obj, index);
                let slot = if zvals::is_undef(z) { Slot::Undef } else { self.slot(z)? };
                self.writer.slot(slot);
            }
        }
        Ok(())
    }

    /// Writes the dynamic properties of `obj` and tells whether there were any.
    ///
    /// # Safety
    /// `obj` must be a live object.
    unsafe fn dynamic_properties(&mut self, obj: *mut zend_object, skip_interval_fields: bool) -> Result<bool, Stop> {
        // SAFETY: caller guarantees a live object; its property table is not modified during the loop.
        unsafe {
            let table = (*obj).properties;
            if table.is_null() {
                return Ok(false);
            }
            let mut any = false;
            for (key, z) in zvals::raw_entries(table) {
                // Declared slots appear here as INDIRECT entries; they were written already.
                if zend::type_of(z) == IS_INDIRECT {
                    continue;
                }
                let name = property_name(key);
                if skip_interval_fields && INTERVAL_FIELDS.contains(&&*name.bytes()) {
                    continue;
                }
                let name = self.property_name(name);
                let value = self.slot(z)?;
                self.writer.dynamic_property(name, value)?;
                any = true;
            }
            Ok(any)
        }
    }

    /// Runs the object's serialization hook (§6.4: once per store) and writes what it selected, every
    /// record it leads to included; a `__serialize()` result of scalars and strings only waits for
    /// [`Self::write_pending`].
    ///
    /// # Safety
    /// `obj` must be a live (pinned) object.
    unsafe fn run_hook(&mut self, id: NodeId, obj: *mut zend_object) -> Result<(), Stop> {
        // SAFETY: caller guarantees a live object; hooks run with no shm-core state held, and what they
        // return is held before the walk reads it.
        unsafe {
            let ce = (*obj).ce;
            if (*ce).__serialize.is_null() {
                self.run_sleep(id, obj, ce)?;
                return self.drain();
            }
            let data = zvals::call_method((*ce).__serialize, obj, &mut []).map_err(|()| Stop::Thrown)?;
            if zend::type_of(&raw const data) != IS_ARRAY {
                return Err(not_an_array(ce));
            }
            let shape = self.bare_shape(ce);
            let ht = data.value.arr;
            if (*ht).gc.refcount == 1 && flat(ht) {
                self.pending.push((id, shape, data));
                if self.pending.len() == PENDING_LIMIT {
                    self.write_pending()?;
                }
                return Ok(());
            }
            self.write_unserialized(id, shape, data)
        }
    }

    /// Writes object `id` of `shape`, restored by `__unserialize()` from `data`, the array its
    /// `__serialize()` returned, and every record the array leads to; then releases `data`.
    ///
    /// # Safety
    /// `data` must be a live array; no userland code may run before it is written.
    #[inline(never)]
    unsafe fn write_unserialized(&mut self, id: NodeId, shape: ShapeRef, data: zval) -> Result<(), Stop> {
        // SAFETY: caller guarantees a live array, held by `data` until it is written.
        unsafe {
            let ht = data.value.arr;
            self.writer.begin_object(id, shape, ObjectRestore::Unserialize)?;
            if (*ht).gc.refcount == 1 {
                // The usual fresh array: nothing else holds it, so it needs no identity lookup, and its
                // record is written right after the object's.
                let array = self.writer.node(NodeKind::Array);
                self.writer.slot(Slot::Node(array));
                self.writer.end()?;
                self.write_array(array, ht)?;
            } else {
                let slot = self.slot(&raw const data)?;
                self.writer.slot(slot);
                self.writer.end()?;
            }
            self.drain()?;
        }
        // Written: released now, as `serialize()` does, while it is still in the caches. Every object
        // and reference in it is pinned (hooks have started), so only its arrays and strings are freed;
        // their identities are forgotten before the next hook.
        drop(data);
        Ok(())
    }

    /// Writes the objects whose `__serialize()` results wait in `pending`, and releases the results.
    /// Such a result is a fresh array of scalars and strings only, which nothing else holds: nothing a
    /// later hook does can change what it holds, so writing it later stores the same value. Written in a
    /// batch, after several hooks ran, so that the writing code runs from the caches and is not evicted
    /// by each hook's userland code (a date's `__serialize()` runs far more code than its record takes).
    ///
    /// # Safety
    /// Every pending result must be the live array its object's hook returned.
    #[inline(never)]
    unsafe fn write_pending(&mut self) -> Result<(), Stop> {
        // Strings a hook freed may have been reused: identities met from here on are those of strings
        // the pending results hold, alive until they are released below.
        self.writer.forget_identities();
        let mut pending = std::mem::take(&mut self.pending);
        let mut written = Ok(());
        for (id, shape, data) in &pending {
            // SAFETY: caller guarantees live results; no userland code runs while they are written.
            written = unsafe { self.write_flat(*id, *shape, data.value.arr) };
            if written.is_err() {
                break;
            }
        }
        // Released as `serialize()` releases each result, only later; their strings are forgotten.
        pending.clear();
        self.pending = pending;
        self.writer.forget_identities();
        written
    }

    /// Writes object `id` of `shape`, restored by `__unserialize()` from `ht`, a hash array of at most
    /// [`GraphWriter::UNSERIALIZED_HASH_ENTRIES`] scalars and strings ([`flat`]): one writer call, and no
    /// slot or identity machinery.
    ///
    /// # Safety
    /// `ht` must be a live array, not modified while it is written (no userland code runs).
    #[inline(always)]
    unsafe fn write_flat(&mut self, id: NodeId, shape: ShapeRef, ht: *mut HashTable) -> Result<(), Stop> {
        // SAFETY: caller guarantees a live, unchanging array.
        unsafe {
            let mut entries = [Slot::Null; 2 * GraphWriter::UNSERIALIZED_HASH_ENTRIES];
            let mut count = 0;
            for bucket in zvals::hash_storage(ht) {
                let z = &raw const bucket.val;
                if zend::type_of(z) == IS_UNDEF {
                    continue;
                }
                entries[count] = self.key_slot(bucket);
                // A scalar or a string ([`flat`]): `slot`'s cases for them, inline here, where the
                // call to `slot` costs about 25 instructions a value (callgrind, Carbon stores).
                entries[count + 1] = match zend::type_of(z) {
                    IS_NULL => Slot::Null,
                    IS_FALSE => Slot::Bool(false),
                    IS_TRUE => Slot::Bool(true),
                    IS_LONG => Slot::Int((*z).value.lval),
                    IS_DOUBLE => Slot::Float((*z).value.dval),
                    _ => Slot::String(self.value_string((*z).value.str_)),
                };
                count += 2;
            }
            self.writer.unserialized_hash(id, shape, (*ht).nNextFreeElement, &entries[..count])?;
            Ok(())
        }
    }

    /// Runs `__sleep()` if the class has one, and writes the properties it selected (all of them
    /// without it). Kept out of [`Self::run_hook`], whose `__serialize()` path runs once per object of
    /// the most common hooked classes, right after userland code evicted the walk's code from the caches.
    ///
    /// # Safety
    /// `obj` must be a live (pinned) object of class `ce`.
    #[inline(never)]
    unsafe fn run_sleep(&mut self, id: NodeId, obj: *mut zend_object, ce: *mut zend_class_entry) -> Result<(), Stop> {
        // SAFETY: as for `run_hook`.
        unsafe {
            let sleep = class_info::method(ce, b"__sleep");
            // As `serialize()` writes `N;` when `__sleep()` returns no array: every slot naming the
            // object reads null.
            if !sleep.is_null() && !self.sleep(obj, sleep)? {
                return Ok(());
            }
            // The properties are those of a lazy proxy's real instance, looked up only now: `__sleep()` may
            // have reset the proxy and released the instance it had.
            let state = zend::lazy_state(obj).map_err(|()| Stop::Thrown)?;
            check_state_layout(ce, state)?;
            self.select_properties(state, !sleep.is_null())?;
            // No userland code runs from here on: the selection may leave the walk for the writing.
            let properties = std::mem::take(&mut self.selected);
            let class_name = self.class_name(ce);
            if !(*ce).__unserialize.is_null() {
                // `__unserialize()` receives the properties as an array keyed by mangled name.
                let shape = self.bare_shape(ce);
                self.writer.begin_object(id, shape, ObjectRestore::Unserialize)?;
                let array = self.writer.node(NodeKind::Array);
                self.writer.slot(Slot::Node(array));
                self.writer.end()?;
                self.writer.begin_hash_array(array, i64::MIN, properties.len())?;
                for property in &properties {
                    let Some(z) = property.value else { continue };
                    self.writer.slot(Slot::String(property.name));
                    let value = self.slot(z)?;
                    self.writer.slot(value);
                }
                self.writer.end()?;
                return Ok(());
            }
            let restore = if class_info::method(ce, b"__wakeup").is_null() {
                ObjectRestore::Properties
            } else {
                ObjectRestore::PropertiesThenWakeup
            };
            let declared = properties.iter().filter(|p| p.declared).map(|p| (p.name, p.readonly)).collect::<Vec<_>>();
            let shape = self.writer.shape(class_name, &declared);
            self.writer.begin_object(id, shape, restore)?;
            for property in properties.iter().filter(|p| p.declared) {
                let slot = match property.value {
                    Some(z) => self.slot(z)?,
                    None => Slot::Undef,
                };
                self.writer.slot(slot);
            }
            let mut dynamic = false;
            for property in properties.iter().filter(|p| !p.declared) {
                // Dynamic properties are live table entries: always set.
                let Some(z) = property.value else { continue };
                let value = self.slot(z)?;
                self.writer.dynamic_property(property.name, value)?;
                dynamic = true;
            }
            self.writer.end()?;
            if dynamic {
                self.tier = self.tier.max(StoreTier::OPcacheSerialized);
            }
            Ok(())
        }
    }

    /// Calls `__sleep()` and keeps the names it selected in [`Self::sleep_names`] (warnings as
    /// `serialize()` gives them); false when it returned something else than an array (the object is
    /// then stored as `null`).
    ///
    /// # Safety
    /// `obj` must be a live object and `sleep` its class's `__sleep`.
    unsafe fn sleep(&mut self, obj: *mut zend_object, sleep: *mut zend_function) -> Result<bool, Stop> {
        // SAFETY: caller guarantees the method belongs to the object's class.
        unsafe {
            let class = zend::zstr_bytes((*(*obj).ce).name);
            let warn_shape = || warn_sleep_result(class);
            let names = zvals::call_method(sleep, obj, &mut []).map_err(|()| Stop::Thrown)?;
            if zend::type_of(&raw const names) != IS_ARRAY {
                warn_shape();
                return Ok(false);
            }
            self.sleep_bytes.clear();
            self.sleep_names.clear();
            for (_, z) in zvals::entries(zvals::table(&raw const names)) {
                let z = zend::deref(if zend::type_of(z) == IS_INDIRECT { (*z).value.zv } else { z });
                let kind = zend::type_of(z);
                if kind == IS_STRING {
                    self.sleep_name(zend::str_bytes(z), false);
                    continue;
                }
                // As `serialize()`: a warning, then the name `(string)` gives (`null` is "", `true` "1").
                // An array ("Array", with its own warning) or an object (its `__toString()`, which may
                // throw) is converted, and so warned about, now, before the properties are looked at.
                let now = matches!(kind, IS_ARRAY | IS_OBJECT);
                if now {
                    warn_shape();
                }
                let name = zvals::try_string(z).map_err(|()| Stop::Thrown)?;
                self.sleep_name(zend::str_bytes(&raw const name), !now);
            }
            Ok(true)
        }
    }

    /// Appends a name `__sleep()` returned to [`Self::sleep_names`].
    fn sleep_name(&mut self, name: &[u8], warn: bool) {
        let start = self.sleep_bytes.len();
        self.sleep_bytes.extend_from_slice(name);
        self.sleep_names.push(SleepName { bytes: start..self.sleep_bytes.len(), warn });
    }

    /// Fills [`Self::selected`] with the properties of `obj` a hook selected: all of them, or (`sleep`)
    /// those `__sleep()` named ([`Self::sleep_names`]), as `serialize()` selects them: a name matches a
    /// set property (by its own name, then as a private property of the object's class, then as a
    /// protected one); an uninitialized typed property is skipped; a name that matches nothing (an unset
    /// untyped property included) warns and is left out; a property named twice warns and is written
    /// once. Nothing is owned outside the walk while a warning's error handler runs.
    ///
    /// # Safety
    /// `obj` must be a live object; no userland code may run before the selection is written.
    unsafe fn select_properties(&mut self, obj: *mut zend_object, sleep: bool) -> Result<(), Stop> {
        // SAFETY: caller guarantees a live object; slots are read before any userland code runs.
        unsafe {
            property_slots_into(obj, &mut self.slots)?;
            self.selected.clear();
            if !sleep {
                for index in 0..self.slots.len() {
                    let slot = &self.slots[index];
                    let (name, value, declared, readonly) =
                        (slot.name, (!zvals::is_undef(slot.slot)).then_some(slot.slot), slot.declared, slot.readonly);
                    let name = self.property_name(name);
                    self.selected.push(Selected { name, value, declared, readonly });
                }
                return Ok(());
            }
            let class = zend::zstr_bytes((*(*obj).ce).name);
            self.picked.clear();
            self.picked.resize(self.slots.len(), false);
            for n in 0..self.sleep_names.len() {
                let SleepName { bytes, warn } = &self.sleep_names[n];
                if *warn {
                    warn_sleep_result(class);
                }
                let name = &self.sleep_bytes[bytes.clone()];
                let matches = |s: &PropertySlot, candidate: fn(&[u8], &[u8], &[u8]) -> bool| {
                    candidate(&s.name.bytes(), class, name) && (!zvals::is_undef(s.slot) || s.typed)
                };
                let found = [own_name as fn(&[u8], &[u8], &[u8]) -> bool, private_name, protected_name]
                    .into_iter()
                    .find_map(|candidate| self.slots.iter().position(|s| matches(s, candidate)));
                match found {
                    Some(index) if zvals::is_undef(self.slots[index].slot) => {}
                    Some(index) if !self.picked[index] => {
                        self.picked[index] = true;
                        let slot = &self.slots[index];
                        let (name, value, declared, readonly) = (slot.name, slot.slot, slot.declared, slot.readonly);
                        let name = self.property_name(name);
                        self.selected.push(Selected { name, value: Some(value), declared, readonly });
                    }
                    Some(_) => {
                        // `serialize()` gives a notice in PHP 8.2, a warning in 8.4.
                        let level = if cfg!(php84) { ffi::E_WARNING } else { ffi::E_NOTICE };
                        // Built in a statement of its own (see `zend::docref`).
                        let text = format!("\"{}\" is returned from __sleep() multiple times", printed(name));
                        zend::docref(level as i32, text.into_bytes());
                    }
                    None => {
                        let text = format!(
                            "\"{}\" returned as member variable from __sleep() but does not exist",
                            printed(name)
                        );
                        zend::warning_docref(text.into_bytes());
                    }
                }
            }
            Ok(())
        }
    }
}

/// A name `__sleep()` returned as `serialize()`'s "%s" prints it: up to its first NUL byte.
fn printed(name: &[u8]) -> String {
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    String::from_utf8_lossy(&name[..end]).into_owned()
}

/// Whether the property named `property` is the one `__sleep()` of class `class` named `name`: by its
/// own name ([`own_name`]), as a private property of the class ([`private_name`], `"\0Class\0name"`) or
/// as a protected one ([`protected_name`], `"\0*\0name"`); compared in place.
fn own_name(property: &[u8], _class: &[u8], name: &[u8]) -> bool {
    property == name
}

/// See [`own_name`].
fn private_name(property: &[u8], class: &[u8], name: &[u8]) -> bool {
    property.len() == class.len() + name.len() + 2
        && property[0] == 0
        && property[1..=class.len()] == *class
        && property[class.len() + 1] == 0
        && property[class.len() + 2..] == *name
}

/// See [`own_name`].
fn protected_name(property: &[u8], _class: &[u8], name: &[u8]) -> bool {
    property.strip_prefix(b"\0*\0").is_some_and(|rest| rest == name)
}

/// The most `__serialize()` results [`Walk::write_pending`] holds before it writes them.
const PENDING_LIMIT: usize = 64;

/// Whether `ht` is a hash array of at most [`GraphWriter::UNSERIALIZED_HASH_ENTRIES`] entries, each a
/// scalar or a string: what [`Walk::write_flat`] writes.
///
/// # Safety
/// `ht` must be a live array.
unsafe fn flat(ht: *mut HashTable) -> bool {
    // SAFETY: caller guarantees a live array.
    unsafe {
        if zvals::is_packed(ht) {
            return false;
        }
        let buckets = zvals::hash_storage(ht);
        buckets.len() <= GraphWriter::UNSERIALIZED_HASH_ENTRIES
            && buckets.iter().all(|bucket| {
                matches!(
                    zend::type_of(&raw const bucket.val),
                    IS_UNDEF | IS_NULL | IS_FALSE | IS_TRUE | IS_LONG | IS_DOUBLE | IS_STRING
                )
            })
    }
}

/// Throws the `TypeError` of a `__serialize()` of class `ce` that returned something else than an array.
///
/// # Safety
/// `ce` must be a live class entry.
#[cold]
#[inline(never)]
unsafe fn not_an_array(ce: *mut zend_class_entry) -> Stop {
    // SAFETY: caller guarantees a live class.
    let class = String::from_utf8_lossy(unsafe { zend::zstr_bytes((*ce).name) }).into_owned();
    let _ = ext_php_rs::exception::throw(ce::type_error(), &format!("{class}::__serialize() must return an array"));
    Stop::Thrown
}

/// Empties an identity map; one that a huge value grew is given back.
fn clear<K, V>(map: &mut HashMap<K, V>) {
    if map.capacity() > 1 << 16 {
        *map = HashMap::default();
    } else if !map.is_empty() {
        map.clear();
    }
}

/// A lazy proxy's real instance may be of a parent class of the proxy's; the engine only allows one
/// without properties of its own, so the slots line up. Refused if they do not.
///
/// # Safety
/// `ce` and `state` must be live.
unsafe fn check_state_layout(ce: *mut zend_class_entry, state: *mut zend_object) -> Result<(), Stop> {
    // SAFETY: caller guarantees both are live.
    let same = unsafe { (*state).ce == ce || zvals::slot_count((*state).ce) == zvals::slot_count(ce) };
    if same {
        Ok(())
    } else {
        Err(Stop::Unstorable)
    }
}

fn property_name(key: RawKey) -> PropertyName {
    match key {
        RawKey::Str(s) => PropertyName::Str(s),
        RawKey::Int(i) => PropertyName::Int(i),
    }
}

/// Every property of `obj`: declared slots (set or not) by mangled name, then dynamic properties.
///
/// # Safety
/// `obj` must be a live object; the names borrow from its class and property table.
pub unsafe fn property_slots(obj: *mut zend_object) -> Result<Vec<PropertySlot>, Stop> {
    let mut slots = Vec::new();
    // SAFETY: as the caller guarantees.
    unsafe { property_slots_into(obj, &mut slots) }?;
    Ok(slots)
}

/// [`property_slots`] into `slots` (emptied first).
///
/// # Safety
/// As for [`property_slots`].
unsafe fn property_slots_into(obj: *mut zend_object, slots: &mut Vec<PropertySlot>) -> Result<(), Stop> {
    // SAFETY: caller guarantees a live object; slot infos come from its linked class.
    unsafe {
        let ce = (*obj).ce;
        let count = zvals::slot_count(ce);
        slots.clear();
        slots.reserve(count);
        for index in 0..count {
            let info = zvals::slot_info(ce, index);
            if info.is_null() {
                return Err(Stop::Unstorable);
            }
            slots.push(PropertySlot {
                name: PropertyName::Str((*info).name),
                slot: zvals::property_slot(obj, index),
                declared: true,
                typed: zvals::is_typed(info),
                readonly: (*info).flags & zend::ZEND_ACC_READONLY != 0,
            });
        }
        let table = (*obj).properties;
        if !table.is_null() {
            for (key, z) in zvals::raw_entries(table) {
                // Declared slots appear here as INDIRECT entries; they were read above.
                if zend::type_of(z) != IS_INDIRECT {
                    slots.push(PropertySlot {
                        name: property_name(key),
                        slot: z,
                        declared: false,
                        typed: false,
                        readonly: false,
                    });
                }
            }
        }
        Ok(())
    }
}
