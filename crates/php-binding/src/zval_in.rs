//! PHP value → stored bytes (§6). A top-level scalar keeps its own tag; anything else becomes a
//! graph-codec `Graph`, built by an explicit-stack walk (no C recursion at any depth), classified into
//! its §6.1 tier and encoded. The walk has two phases: first everything that needs no userland code
//! (strings borrowed from the zvals, nothing can change under the walk), then each deferred object's
//! serialization hook (`__serialize`, `__sleep`) runs once and its result is walked before the next
//! hook runs (strings copied, every visited object and reference pinned so that a hook cannot free
//! and recycle it). A value that needs `PHPSerialized` is detected before any hook runs and goes
//! through PHP's `serialize()` after the §6.6 pre-check. Runs before any shm-core call.

use std::borrow::Cow;
use std::collections::VecDeque;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use ext_php_rs::ffi::{
    zend_class_entry, zend_function, zend_object, zend_reference, zval, HashTable, IS_ARRAY, IS_DOUBLE, IS_FALSE,
    IS_INDIRECT, IS_LONG, IS_NULL, IS_OBJECT, IS_REFERENCE, IS_STRING, IS_TRUE, IS_UNDEF,
};
use ext_php_rs::zend::ce;
use graph_codec::{
    ArrayElements, ArrayId, ArrayKey, ArrayNode, Bytes, ClassInfo, ClassKind, DeclaredProperty, EnumCase, Graph,
    ObjectId, ObjectNode, ObjectState, Properties, ReferenceId, ReferenceNode, StateFamily, StoreTier, Value,
    MAX_DEPTH_PHP_SERIALIZED,
};

use crate::class_info::{self, ClassFacts};
use crate::encoding::{self, Encoded};
use crate::internal_state::{self, StateError};
use crate::zend;
use crate::zvals::{self, Key};

/// Names `DateInterval`'s `get_properties` handler writes into the property table; they mirror the
/// internal state and are not dynamic properties.
const INTERVAL_FIELDS: [&[u8]; 11] =
    [b"y", b"m", b"d", b"h", b"i", b"s", b"f", b"invert", b"days", b"from_string", b"date_string"];

pub enum EncodeError {
    /// A nested resource, Closure or non-serializable object, or nesting beyond the limit: the
    /// explicit API returns `false` and stores nothing.
    Unstorable,
    /// A userland hook threw; the exception propagates.
    Thrown,
}

/// Encodes `z` (already checked for a top-level resource or Closure where the API requires it).
pub fn encode(z: *mut zval) -> Result<Encoded, EncodeError> {
    // SAFETY: `z` is a live zval owned by the caller for the duration of the call.
    unsafe {
        let z = zend::deref(z);
        let scalar = |tag, bytes: &[u8]| Ok(Encoded { tag, bytes: bytes.to_vec() });
        match zend::type_of(z) {
            IS_NULL => scalar(encoding::TAG_NULL, &[]),
            IS_FALSE => scalar(encoding::TAG_FALSE, &[]),
            IS_TRUE => scalar(encoding::TAG_TRUE, &[]),
            IS_LONG => scalar(encoding::TAG_INT, &(*z).value.lval.to_le_bytes()),
            IS_DOUBLE => scalar(encoding::TAG_DOUBLE, &(*z).value.dval.to_bits().to_le_bytes()),
            IS_STRING => scalar(encoding::TAG_STRING, zend::str_bytes(z)),
            IS_ARRAY | IS_OBJECT => encode_graph(z),
            _ => Err(EncodeError::Unstorable),
        }
    }
}

/// Why the walk stopped early.
enum Stop {
    Unstorable,
    Thrown,
    /// Some object needs PHP's `serialize()`; found before any hook ran.
    NeedsPhpSerialize,
}

/// # Safety
/// `z` must be a live array or object zval.
unsafe fn encode_graph(z: *mut zval) -> Result<Encoded, EncodeError> {
    let mut walk = Walk::default();
    // SAFETY: caller guarantees a live value; the graph borrows strings from zvals that the walk keeps
    // alive (pins) until it is dropped, after the graph.
    let built = unsafe { walk.run(z) };
    let graph = match built {
        Ok(graph) => graph,
        Err(Stop::Unstorable) => return Err(EncodeError::Unstorable),
        Err(Stop::Thrown) => return Err(EncodeError::Thrown),
        // SAFETY: as above; no hook has run yet, so `z` is unchanged.
        Err(Stop::NeedsPhpSerialize) => return unsafe { php_serialized(z) },
    };
    let infos = &walk.infos;
    let classification = graph_codec::classify(&graph, |name| {
        infos.get(name).copied().unwrap_or(ClassInfo {
            kind: ClassKind::Userland,
            userland_hooks: Default::default(),
            serializable_without_serialize: false,
        })
    })
    .map_err(|_| EncodeError::Unstorable)?;
    let bytes = graph_codec::encode(&graph, classification.tier).map_err(|_| EncodeError::Unstorable)?;
    drop(graph);
    drop(walk);
    Ok(Encoded { tag: encoding::graph_tag(classification.tier), bytes })
}

/// One node whose contents are still to be read.
enum Task {
    Array(ArrayId, *mut HashTable),
    Object(ObjectId, *mut zend_object),
    Reference(ReferenceId, *mut zend_reference),
}

/// What `__sleep()` or nothing selects from an object's properties.
enum Selection {
    All,
    /// Everything but `DateInterval`'s mirrored fields.
    AllButIntervalFields,
    Named(Vec<Vec<u8>>),
}

/// One property of a live object, before its value is read.
struct PropertySlot<'a> {
    name: Cow<'a, [u8]>,
    slot: *mut zval,
    declared: bool,
    readonly: bool,
}

#[derive(Default)]
struct Walk<'a> {
    graph: Option<Graph<'a>>,
    tasks: Vec<Task>,
    /// Objects whose hooks run in the second phase, in discovery order.
    hooked: VecDeque<(ObjectId, *mut zend_object)>,
    objects: HashMap<*mut zend_object, ObjectId>,
    references: HashMap<*mut zend_reference, ReferenceId>,
    /// Arrays seen in the first phase (shared copy-on-write arrays are stored once).
    arrays: HashMap<*mut HashTable, ArrayId>,
    classes: HashMap<*mut zend_class_entry, ClassFacts>,
    /// Class facts by name, for `graph_codec::classify`.
    infos: HashMap<Vec<u8>, ClassInfo>,
    /// Set once the first hook is about to run.
    hooks_started: bool,
    /// Values kept alive until the graph is encoded: hook and `__serialize` results, and (second
    /// phase) every object and reference the identity maps name.
    pinned: Vec<zval>,
}

impl<'a> Walk<'a> {
    /// Builds the graph of `root`.
    ///
    /// # Safety
    /// `root` must be a live zval; the returned graph must be dropped before `self`.
    unsafe fn run(&mut self, root: *mut zval) -> Result<Graph<'a>, Stop> {
        self.graph = Some(Graph::new(Value::Null));
        // SAFETY: caller guarantees a live root; the first phase runs no userland code.
        unsafe {
            let value = self.value(root)?;
            self.graph_mut().root = value;
            self.drain()?;
            while let Some((id, obj)) = self.hooked.pop_front() {
                if !self.hooks_started {
                    self.start_hooks();
                }
                self.run_hook(id, obj)?;
                self.drain()?;
            }
        }
        Ok(self.graph.take().unwrap_or_else(|| Graph::new(Value::Null)))
    }

    fn graph_mut(&mut self) -> &mut Graph<'a> {
        self.graph.get_or_insert_with(|| Graph::new(Value::Null))
    }

    /// Entering the hook phase: detach borrowed strings, forget array identities (a hook may free an
    /// array and a later one reuse its address) and pin what the identity maps name.
    fn start_hooks(&mut self) {
        self.hooks_started = true;
        if let Some(graph) = self.graph.take() {
            self.graph = Some(graph.into_owned());
        }
        self.arrays.clear();
        // SAFETY: every key of the maps is a live object or reference: nothing has run since the walk
        // read them.
        unsafe {
            for &obj in self.objects.keys() {
                self.pinned.push(zvals::object_zval(obj));
            }
            for &r in self.references.keys() {
                (*r).gc.refcount += 1;
                let mut z = zval::new();
                z.value.ref_ = r;
                z.u1.type_info = IS_REFERENCE | (1 << 8);
                self.pinned.push(z);
            }
        }
    }

    /// A string for the graph: borrowed in the first phase, copied once hooks may run.
    fn bytes(&self, bytes: &'a [u8]) -> Bytes<'a> {
        if self.hooks_started {
            Cow::Owned(bytes.to_vec())
        } else {
            Cow::Borrowed(bytes)
        }
    }

    /// A property name for the graph, under the same borrowing rule as [`Self::bytes`].
    fn name(&self, name: &Cow<'a, [u8]>) -> Bytes<'a> {
        match name {
            Cow::Borrowed(b) => self.bytes(b),
            Cow::Owned(v) => Cow::Owned(v.clone()),
        }
    }

    /// # Safety
    /// `ce` must be a live class entry.
    unsafe fn facts(&mut self, ce: *mut zend_class_entry) -> ClassFacts {
        if let Some(facts) = self.classes.get(&ce) {
            return *facts;
        }
        // SAFETY: caller guarantees a live class.
        let facts = unsafe { class_info::facts(ce) };
        self.classes.insert(ce, facts);
        // SAFETY: as above; the name is copied.
        let name = unsafe { zend::zstr_bytes((*ce).name).to_vec() };
        self.infos.insert(name, facts.info);
        facts
    }

    /// The graph value of one slot; containers get an id now and their contents later.
    ///
    /// # Safety
    /// `z` must point to a live zval reachable from the root.
    unsafe fn value(&mut self, z: *mut zval) -> Result<Value<'a>, Stop> {
        // SAFETY: caller guarantees a live zval; every pointer followed is owned by it.
        unsafe {
            let mut z = z;
            if zend::type_of(z) == IS_INDIRECT {
                z = (*z).value.zv;
            }
            Ok(match zend::type_of(z) {
                IS_UNDEF | IS_NULL => Value::Null,
                IS_FALSE => Value::Bool(false),
                IS_TRUE => Value::Bool(true),
                IS_LONG => Value::Int((*z).value.lval),
                IS_DOUBLE => Value::Float((*z).value.dval),
                IS_STRING => Value::String(self.bytes(zend::str_bytes(z))),
                IS_ARRAY => {
                    let ht = zvals::table(z);
                    if let Some(&id) = self.arrays.get(&ht) {
                        return Ok(Value::Array(id));
                    }
                    let id = self
                        .graph_mut()
                        .push_array(ArrayNode { elements: ArrayElements::Packed(Vec::new()), next_free_index: 0 });
                    if !self.hooks_started {
                        self.arrays.insert(ht, id);
                    }
                    self.tasks.push(Task::Array(id, ht));
                    Value::Array(id)
                }
                IS_OBJECT => self.object((*z).value.obj)?,
                IS_REFERENCE => {
                    let r = (*z).value.ref_;
                    // A reference nobody else holds is a plain value, as serialize() treats it.
                    if (*r).gc.refcount == 1 {
                        let inner = &raw mut (*r).val;
                        return if zend::type_of(inner) == IS_REFERENCE {
                            Err(Stop::Unstorable)
                        } else {
                            self.value(inner)
                        };
                    }
                    if let Some(&id) = self.references.get(&r) {
                        return Ok(Value::Reference(id));
                    }
                    let id = self.graph_mut().push_reference(ReferenceNode { value: Value::Null });
                    self.references.insert(r, id);
                    if self.hooks_started {
                        self.pinned.push(zvals::copy(z));
                    }
                    self.tasks.push(Task::Reference(id, r));
                    Value::Reference(id)
                }
                _ => return Err(Stop::Unstorable),
            })
        }
    }

    /// # Safety
    /// `obj` must be a live object reachable from the root.
    unsafe fn object(&mut self, obj: *mut zend_object) -> Result<Value<'a>, Stop> {
        if let Some(&id) = self.objects.get(&obj) {
            return Ok(Value::Object(id));
        }
        // SAFETY: caller guarantees a live object; its class outlives it.
        unsafe {
            let ce = (*obj).ce;
            let facts = self.facts(ce);
            let class_name = self.bytes(zend::zstr_bytes((*ce).name));
            if facts.info.kind == ClassKind::Enum {
                // The case name is the enum object's first property slot.
                let name = zvals::property_slot(obj, 0);
                if zvals::slot_count(ce) == 0 || zend::type_of(name) != IS_STRING {
                    return Err(Stop::Unstorable);
                }
                let case_name = self.bytes(zend::str_bytes(name));
                return Ok(Value::EnumCase(Box::new(EnumCase { class_name, case_name })));
            }
            match facts.info.object_tier(false) {
                Err(_) => return Err(Stop::Unstorable),
                // Only reachable before any hook ran if the whole walk so far was hook-free; after
                // that, `serialize()` would run the hooks a second time, so this is refused instead.
                Ok(StoreTier::PHPSerialized) if !self.hooks_started => return Err(Stop::NeedsPhpSerialize),
                Ok(StoreTier::PHPSerialized) => return Err(Stop::Unstorable),
                Ok(_) => {}
            }
            let id = self
                .graph_mut()
                .push_object(ObjectNode { class_name, state: ObjectState::Properties(Properties::default()) });
            self.objects.insert(obj, id);
            if self.hooks_started {
                self.pinned.push(zvals::object_zval(obj));
            }
            self.tasks.push(Task::Object(id, obj));
            Ok(Value::Object(id))
        }
    }

    /// Reads the contents of every pending node.
    ///
    /// # Safety
    /// Every pending task must name a live node (true while no userland code runs).
    unsafe fn drain(&mut self) -> Result<(), Stop> {
        while let Some(task) = self.tasks.pop() {
            // SAFETY: caller guarantees the task's node is live.
            unsafe {
                match task {
                    Task::Array(id, ht) => {
                        let node = self.array(ht)?;
                        self.graph_mut().arrays[id.index()] = node;
                    }
                    Task::Reference(id, r) => {
                        let value = self.value(&raw mut (*r).val)?;
                        self.graph_mut().references[id.index()].value = value;
                    }
                    Task::Object(id, obj) => self.fill_object(id, obj)?,
                }
            }
        }
        Ok(())
    }

    /// # Safety
    /// `ht` must be a live array.
    unsafe fn array(&mut self, ht: *mut HashTable) -> Result<ArrayNode<'a>, Stop> {
        // SAFETY: caller guarantees a live array; it is not modified during the loop (no userland
        // code runs in `value`).
        unsafe {
            let next_free_index = (*ht).nNextFreeElement;
            let elements = if zvals::is_packed(ht) {
                let used = (*ht).nNumUsed as usize;
                let data = (*ht).__bindgen_anon_1.arPacked;
                let mut slots = Vec::with_capacity(used);
                for i in 0..used {
                    let z = data.add(i);
                    slots.push(if zvals::is_undef(z) { None } else { Some(self.value(z)?) });
                }
                ArrayElements::Packed(slots)
            } else {
                let mut entries = Vec::with_capacity(zend::array_len(ht));
                for (key, z) in zvals::entries(ht) {
                    if zend::type_of(z) == IS_INDIRECT && zvals::is_undef((*z).value.zv) {
                        continue;
                    }
                    let key = match key {
                        Key::Int(i) => ArrayKey::Int(i),
                        Key::Str(s) => ArrayKey::String(self.bytes(s)),
                    };
                    entries.push((key, self.value(z)?));
                }
                ArrayElements::Hash(entries)
            };
            Ok(ArrayNode { elements, next_free_index })
        }
    }

    /// Reads an object without hooks, or defers it to the hook phase.
    ///
    /// # Safety
    /// `obj` must be a live object.
    unsafe fn fill_object(&mut self, id: ObjectId, obj: *mut zend_object) -> Result<(), Stop> {
        // SAFETY: caller guarantees a live object; its facts were cached when it got its id.
        unsafe {
            let facts = self.facts((*obj).ce);
            if facts.info.userland_hooks.any() {
                self.hooked.push_back((id, obj));
                return Ok(());
            }
            let state = match facts.family() {
                Some(family) => {
                    let extracted = internal_state::extract(family, obj, facts.internal_base).map_err(|e| match e {
                        StateError::Thrown => Stop::Thrown,
                        StateError::Malformed => Stop::Unstorable,
                    })?;
                    let state = extracted.state.try_map_values(|z| self.value(z))?;
                    self.pinned.extend(extracted.keep);
                    let selection = if family == StateFamily::DateInterval {
                        Selection::AllButIntervalFields
                    } else {
                        Selection::All
                    };
                    ObjectState::Internal { state, properties: self.properties(obj, selection)? }
                }
                None => ObjectState::Properties(self.properties(obj, Selection::All)?),
            };
            self.graph_mut().objects[id.index()].state = state;
            Ok(())
        }
    }

    /// Runs the object's serialization hook and records what it returned (§6.4: once per store).
    ///
    /// # Safety
    /// `obj` must be a live (pinned) object.
    unsafe fn run_hook(&mut self, id: ObjectId, obj: *mut zend_object) -> Result<(), Stop> {
        // SAFETY: caller guarantees a live object; hooks run with no shm-core state held.
        unsafe {
            let ce = (*obj).ce;
            let state = if !(*ce).__serialize.is_null() {
                let data = zvals::call_method((*ce).__serialize, obj, &mut []).map_err(|()| Stop::Thrown)?;
                if zend::type_of(&raw const data) != IS_ARRAY {
                    let class = String::from_utf8_lossy(zend::zstr_bytes((*ce).name)).into_owned();
                    let _ = ext_php_rs::exception::throw(
                        ce::type_error(),
                        &format!("{class}::__serialize() must return an array"),
                    );
                    return Err(Stop::Thrown);
                }
                let mut data = data;
                let value = self.value(&raw mut data)?;
                self.pinned.push(data);
                let Value::Array(array) = value else { return Err(Stop::Unstorable) };
                ObjectState::Unserialize(array)
            } else {
                let sleep = class_info::method(ce, b"__sleep");
                let selection = if sleep.is_null() { Selection::All } else { self.sleep(obj, sleep)? };
                let properties = self.properties(obj, selection)?;
                if !(*ce).__unserialize.is_null() {
                    ObjectState::Unserialize(self.property_array(properties))
                } else if !class_info::method(ce, b"__wakeup").is_null() {
                    ObjectState::PropertiesThenWakeup(properties)
                } else {
                    ObjectState::Properties(properties)
                }
            };
            self.graph_mut().objects[id.index()].state = state;
            Ok(())
        }
    }

    /// Calls `__sleep()` and returns the names it selected (warnings as `serialize()` gives them).
    ///
    /// # Safety
    /// `obj` must be a live object and `sleep` its class's `__sleep`.
    unsafe fn sleep(&mut self, obj: *mut zend_object, sleep: *mut zend_function) -> Result<Selection, Stop> {
        // SAFETY: caller guarantees the method belongs to the object's class.
        unsafe {
            let class = String::from_utf8_lossy(zend::zstr_bytes((*(*obj).ce).name)).into_owned();
            let warn_shape = || {
                zend::warning_docref(
                    format!("{class}::__sleep() should return an array only containing the names of instance-variables to serialize")
                        .as_bytes(),
                )
            };
            let names = zvals::call_method(sleep, obj, &mut []).map_err(|()| Stop::Thrown)?;
            if zend::type_of(&raw const names) != IS_ARRAY {
                warn_shape();
                return Ok(Selection::Named(Vec::new()));
            }
            let mut selected = Vec::new();
            for (_, z) in zvals::entries(zvals::table(&raw const names)) {
                let z = zend::deref(if zend::type_of(z) == IS_INDIRECT { (*z).value.zv } else { z });
                match zend::type_of(z) {
                    IS_STRING => selected.push(zend::str_bytes(z).to_vec()),
                    IS_LONG => {
                        warn_shape();
                        selected.push((*z).value.lval.to_string().into_bytes());
                    }
                    _ => warn_shape(),
                }
            }
            Ok(Selection::Named(selected))
        }
    }

    /// The object's properties in `selection`.
    ///
    /// # Safety
    /// `obj` must be a live object.
    unsafe fn properties(&mut self, obj: *mut zend_object, selection: Selection) -> Result<Properties<'a>, Stop> {
        // SAFETY: caller guarantees a live object; slots are read before any userland code runs.
        unsafe {
            let slots = property_slots(obj)?;
            let mut properties = Properties::default();
            let add = |walk: &mut Self,
                       properties: &mut Properties<'a>,
                       slot: &PropertySlot<'a>,
                       name: Bytes<'a>|
             -> Result<(), Stop> {
                let value = if zvals::is_undef(slot.slot) { None } else { Some(walk.value(slot.slot)?) };
                if slot.declared {
                    properties.declared.push(DeclaredProperty { mangled_name: name, value, readonly: slot.readonly });
                } else if let Some(value) = value {
                    properties.dynamic.push((name, value));
                }
                Ok(())
            };
            match selection {
                Selection::All | Selection::AllButIntervalFields => {
                    let skip_interval = matches!(selection, Selection::AllButIntervalFields);
                    for slot in &slots {
                        if skip_interval && !slot.declared && INTERVAL_FIELDS.contains(&&*slot.name) {
                            continue;
                        }
                        let name = self.name(&slot.name);
                        add(self, &mut properties, slot, name)?;
                    }
                }
                Selection::Named(names) => {
                    let class = zend::zstr_bytes((*(*obj).ce).name);
                    let mut seen = HashSet::new();
                    for name in names {
                        let private = [&b"\0"[..], class, b"\0", &name].concat();
                        let protected = [&b"\0*\0"[..], &name].concat();
                        // A name matches a set property, or an uninitialized typed one (skipped).
                        let found = [&name, &private, &protected].into_iter().find_map(|candidate| {
                            slots
                                .iter()
                                .find(|s| *s.name == *candidate.as_slice() && (!zvals::is_undef(s.slot) || s.declared))
                        });
                        match found {
                            Some(slot) if zvals::is_undef(slot.slot) => {}
                            Some(slot) => {
                                if seen.insert(slot.name.clone()) {
                                    let name = self.name(&slot.name);
                                    add(self, &mut properties, slot, name)?;
                                }
                            }
                            None => {
                                zend::warning_docref(
                                    format!(
                                        "\"{}\" returned as member variable from __sleep() but does not exist",
                                        String::from_utf8_lossy(&name)
                                    )
                                    .as_bytes(),
                                );
                                properties.dynamic.push((Cow::Owned(name), Value::Null));
                            }
                        }
                    }
                }
            }
            Ok(properties)
        }
    }

    /// The properties as the array `__unserialize()` receives when the class has no `__serialize()`
    /// (mangled names as keys; uninitialized properties left out).
    fn property_array(&mut self, properties: Properties<'a>) -> ArrayId {
        let entries = properties
            .declared
            .into_iter()
            .filter_map(|p| Some((ArrayKey::String(p.mangled_name), p.value?)))
            .chain(properties.dynamic.into_iter().map(|(name, value)| (ArrayKey::String(name), value)))
            .collect();
        self.graph_mut().push_array(ArrayNode { elements: ArrayElements::Hash(entries), next_free_index: i64::MIN })
    }
}

/// Every property of `obj`: declared slots (set or not) by mangled name, then dynamic properties.
///
/// # Safety
/// `obj` must be a live object; the names borrow from its class and property table.
unsafe fn property_slots<'a>(obj: *mut zend_object) -> Result<Vec<PropertySlot<'a>>, Stop> {
    // SAFETY: caller guarantees a live object; slot infos come from its linked class.
    unsafe {
        let ce = (*obj).ce;
        let count = zvals::slot_count(ce);
        let mut slots = Vec::with_capacity(count);
        for index in 0..count {
            let info = zvals::slot_info(ce, index);
            if info.is_null() {
                return Err(Stop::Unstorable);
            }
            slots.push(PropertySlot {
                name: Cow::Borrowed(zend::zstr_bytes((*info).name)),
                slot: zvals::property_slot(obj, index),
                declared: true,
                readonly: (*info).flags & zend::ZEND_ACC_READONLY != 0,
            });
        }
        let table = (*obj).properties;
        if !table.is_null() {
            for (key, z) in zvals::entries(table) {
                // Declared slots appear here as INDIRECT entries; they were read above.
                if zend::type_of(z) == IS_INDIRECT {
                    continue;
                }
                let name = match key {
                    Key::Str(s) => Cow::Borrowed(s),
                    // Property tables may hold integer keys (old array casts); a property name is text.
                    Key::Int(i) => Cow::Owned(i.to_string().into_bytes()),
                };
                slots.push(PropertySlot { name, slot: z, declared: false, readonly: false });
            }
        }
        Ok(slots)
    }
}

impl Drop for Walk<'_> {
    fn drop(&mut self) {
        // The graph may borrow from pinned values: drop it first.
        self.graph = None;
        self.pinned.clear();
    }
}

/// The `PHPSerialized` path: refuse what `serialize()` would choke on or crash with, then run it.
///
/// # Safety
/// `z` must be a live array or object zval.
unsafe fn php_serialized(z: *mut zval) -> Result<Encoded, EncodeError> {
    // SAFETY: caller guarantees a live value; the pre-check runs no userland code.
    unsafe {
        precheck(z)?;
        let mut out = zval::new();
        zend::call_function(c"serialize", z, &mut out).map_err(|_| EncodeError::Thrown)?;
        if zend::type_of(&raw const out) != IS_STRING {
            return Err(EncodeError::Unstorable);
        }
        let bytes =
            graph_codec::encode_php_serialized(zend::str_bytes(&raw const out)).map_err(|_| EncodeError::Unstorable)?;
        Ok(Encoded { tag: encoding::TAG_PHP_SERIALIZED, bytes })
    }
}

/// §6.6 for `PHPSerialized`: no resource, Closure or non-serializable object anywhere, and at most
/// 1,000 levels. Walks with an explicit stack; each object and reference is entered once.
///
/// # Safety
/// `root` must be a live zval; no userland code runs during the walk.
unsafe fn precheck(root: *mut zval) -> Result<(), EncodeError> {
    let mut seen: HashSet<usize> = HashSet::new();
    let mut classes: HashMap<*mut zend_class_entry, ClassInfo> = HashMap::new();
    let mut stack: Vec<(*mut zval, u32)> = vec![(root, 0)];
    while let Some((z, depth)) = stack.pop() {
        // SAFETY: every pushed pointer is an element or property slot of a live container reachable
        // from `root`; nothing modifies them during the walk.
        unsafe {
            let mut z = z;
            if zend::type_of(z) == IS_INDIRECT {
                z = (*z).value.zv;
            }
            if zend::type_of(z) == IS_REFERENCE {
                if !seen.insert((*z).value.ref_ as usize) {
                    continue;
                }
                z = &raw mut (*(*z).value.ref_).val;
            }
            match zend::type_of(z) {
                IS_ARRAY | IS_OBJECT if depth >= MAX_DEPTH_PHP_SERIALIZED => return Err(EncodeError::Unstorable),
                IS_ARRAY => stack.extend(zvals::entries(zvals::table(z)).map(|(_, element)| (element, depth + 1))),
                IS_OBJECT => {
                    let obj = (*z).value.obj;
                    if !seen.insert(obj as usize) {
                        continue;
                    }
                    let ce = (*obj).ce;
                    let info = *classes.entry(ce).or_insert_with(|| class_info::facts(ce).info);
                    if info.object_tier(false).is_err() {
                        return Err(EncodeError::Unstorable);
                    }
                    for slot in property_slots(obj).unwrap_or_default() {
                        if !zvals::is_undef(slot.slot) {
                            stack.push((slot.slot, depth + 1));
                        }
                    }
                }
                ext_php_rs::ffi::IS_RESOURCE => return Err(EncodeError::Unstorable),
                _ => {}
            }
        }
    }
    Ok(())
}
