//! Stored bytes → PHP value. Runs after the shm-core entry has been released: the bytes are a private
//! copy, and userland `__unserialize`/`__wakeup` and autoloaders may run here. Graph buffers are fully
//! validated by graph-codec first (bad bytes give an error, never a crash), then rebuilt without
//! recursion: every object is created first (no constructor), then references, then arrays children
//! first, then object contents; userland hooks run last, inner objects first, as `unserialize()`
//! runs its delayed calls.

use foldhash::{HashMap, HashMapExt};
use std::ptr;

use ext_php_rs::ffi::{self, zend_class_entry, zend_object, zval, IS_FALSE, IS_OBJECT, IS_REFERENCE};
use ext_php_rs::types::ZendStr;
use graph_codec::{ArrayElements, ArrayKey, Graph, ObjectState, Properties, StoreTier, Value};

use crate::class_info::{self, ClassFacts};
use crate::class_lookup;
use crate::encoding;
use crate::internal_state::{self, StateError};
use crate::zend;
use crate::zvals;

/// `_ZEND_TYPE_MASK`: a property type is declared when any of these bits is set.
const TYPE_MASK: u32 = (1 << 25) - 1;
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
    /// A userland hook or autoloader threw; the exception propagates.
    Thrown,
}

/// Writes the value stored as (`tag`, `bytes`) into `out` (a null zval).
pub fn decode(tag: u16, bytes: &[u8], out: &mut zval) -> Result<(), DecodeError> {
    let word = || -> Result<[u8; 8], DecodeError> { bytes.try_into().map_err(|_| DecodeError::Corrupted) };
    match tag {
        encoding::TAG_NULL | encoding::TAG_FALSE | encoding::TAG_TRUE if !bytes.is_empty() => {
            Err(DecodeError::Corrupted)
        }
        encoding::TAG_NULL => {
            out.set_null();
            Ok(())
        }
        encoding::TAG_FALSE => {
            out.set_bool(false);
            Ok(())
        }
        encoding::TAG_TRUE => {
            out.set_bool(true);
            Ok(())
        }
        encoding::TAG_INT => {
            out.set_long(i64::from_le_bytes(word()?));
            Ok(())
        }
        encoding::TAG_DOUBLE => {
            out.set_double(f64::from_bits(u64::from_le_bytes(word()?)));
            Ok(())
        }
        encoding::TAG_STRING => {
            out.set_zend_string(ZendStr::new(bytes, false));
            Ok(())
        }
        _ => match encoding::graph_tier(tag) {
            Some(tier) => decode_graph(tier, bytes, out),
            None => Err(DecodeError::UnknownType),
        },
    }
}

fn decode_graph(tier: StoreTier, bytes: &[u8], out: &mut zval) -> Result<(), DecodeError> {
    let decoded = graph_codec::decode(bytes).map_err(|_| DecodeError::Corrupted)?;
    if decoded.header.tier != tier {
        return Err(DecodeError::Corrupted);
    }
    if tier == StoreTier::PHPSerialized {
        let Value::String(serialized) = &decoded.graph.root else { return Err(DecodeError::Corrupted) };
        return php_unserialize(serialized, out);
    }
    let mut rebuild = Rebuild::new(&decoded.graph);
    match rebuild.run() {
        Ok(value) => {
            *out = value;
            Ok(())
        }
        Err(e) => {
            rebuild.abandon();
            Err(e)
        }
    }
}

fn php_unserialize(serialized: &[u8], out: &mut zval) -> Result<(), DecodeError> {
    let mut input = zvals::string(serialized);
    zend::call_function(c"unserialize", &raw mut input, out).map_err(|_| DecodeError::Thrown)?;
    // SAFETY: `out` was just written by the engine.
    if unsafe { zend::type_of(out) } == IS_FALSE && serialized != b"b:0;" {
        return Err(DecodeError::Undecodable);
    }
    Ok(())
}

/// How an arena object is restored.
enum Target {
    Class(*mut zend_class_entry, ClassFacts),
    /// The class could not be found: `__PHP_Incomplete_Class` with the stored properties.
    Incomplete,
}

/// A userland hook to run once every object is filled.
enum Deferred {
    Unserialize(usize, usize),
    Wakeup(usize),
}

/// A node of the graph, for the post-order walk.
#[derive(Clone, Copy)]
enum Node {
    Array(usize),
    Object(usize),
    Reference(usize),
}

struct Rebuild<'g, 'a> {
    graph: &'g Graph<'a>,
    /// One owning zval per arena node (null until created).
    objects: Vec<zval>,
    targets: Vec<Target>,
    references: Vec<zval>,
    arrays: Vec<zval>,
    deferred: Vec<Deferred>,
    /// Declared slots by mangled name, per class.
    slot_maps: HashMap<*mut zend_class_entry, HashMap<Vec<u8>, usize>>,
    enum_cases: HashMap<(Vec<u8>, Vec<u8>), *mut zend_object>,
}

impl<'g, 'a> Rebuild<'g, 'a> {
    fn new(graph: &'g Graph<'a>) -> Self {
        Rebuild {
            graph,
            objects: Vec::with_capacity(graph.objects.len()),
            targets: Vec::with_capacity(graph.objects.len()),
            references: Vec::with_capacity(graph.references.len()),
            arrays: Vec::with_capacity(graph.arrays.len()),
            deferred: Vec::new(),
            slot_maps: HashMap::new(),
            enum_cases: HashMap::new(),
        }
    }

    fn run(&mut self) -> Result<zval, DecodeError> {
        for index in 0..self.graph.objects.len() {
            self.create_object(index)?;
        }
        for _ in 0..self.graph.references.len() {
            self.references.push(zvals::new_reference(zval::new()));
        }
        self.build_arrays()?;
        for index in 0..self.graph.references.len() {
            let value = self.zval_of(&self.graph.references[index].value)?;
            if zvals::type_of(&value) == IS_REFERENCE {
                return Err(DecodeError::Corrupted);
            }
            // SAFETY: the reference was created above; its null value is replaced (nothing to free).
            unsafe { ptr::write(&raw mut (*self.references[index].value.ref_).val, value) };
        }
        for index in 0..self.graph.objects.len() {
            self.fill_object(index)?;
        }
        if !self.deferred.is_empty() {
            self.run_hooks()?;
        }
        self.zval_of(&self.graph.root)
    }

    /// On failure: objects whose restore did not complete must not run `__destruct`.
    fn abandon(&mut self) {
        for object in &self.objects {
            // SAFETY: every entry is an object zval created by `create_object`.
            unsafe { zvals::skip_destructor(object.value.obj) };
        }
    }

    fn object_ptr(&self, index: usize) -> *mut zend_object {
        // SAFETY: `objects[index]` is an object zval created by `create_object`.
        unsafe { self.objects[index].value.obj }
    }

    fn create_object(&mut self, index: usize) -> Result<(), DecodeError> {
        if zend::out_of_memory() {
            // The pending memory_limit fatal is raised by the VM as soon as control returns.
            return Err(DecodeError::Thrown);
        }
        let node = &self.graph.objects[index];
        let found = class_lookup::find(&node.class_name).map_err(|class_lookup::Thrown| DecodeError::Thrown)?;
        let (ce, target) = match found {
            Some(ce) => {
                // SAFETY: the engine returned a live, linked class.
                let facts = unsafe { class_info::facts(ce) };
                if facts.info.object_tier(false).is_err() || facts.info.kind == graph_codec::ClassKind::Enum {
                    return Err(DecodeError::Undecodable);
                }
                if let ObjectState::Internal { state, .. } = &node.state {
                    if facts.family() != Some(state.family()) {
                        return Err(DecodeError::Undecodable);
                    }
                }
                (ce, Target::Class(ce, facts))
            }
            None => (class_lookup::incomplete_class().ok_or(DecodeError::Undecodable)?, Target::Incomplete),
        };
        let mut object = zval::new();
        // SAFETY: `ce` is a live class; object_init_ex runs no userland code (no constructor) and
        // throws for classes that cannot be instantiated.
        unsafe { ffi::object_init_ex(&raw mut object, ce) };
        if zend::exception_pending() || zvals::type_of(&object) != IS_OBJECT {
            zvals::clear_exception();
            return Err(DecodeError::Undecodable);
        }
        self.objects.push(object);
        self.targets.push(target);
        if matches!(self.targets[index], Target::Incomplete) {
            self.add_dynamic(index, INCOMPLETE_CLASS_NAME, zvals::string(&node.class_name));
        }
        Ok(())
    }

    /// Builds every array, children before parents (arrays only contain each other acyclically; a
    /// cycle passes through a reference or an object, which already exist).
    fn build_arrays(&mut self) -> Result<(), DecodeError> {
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let count = self.graph.arrays.len();
        self.arrays = (0..count).map(|_| zval::new()).collect();
        let mut state = vec![NEW; count];
        let mut stack = Vec::new();
        for start in 0..count {
            if state[start] != NEW {
                continue;
            }
            stack.push(start);
            while let Some(&top) = stack.last() {
                match state[top] {
                    NEW => {
                        state[top] = OPEN;
                        let mut failed = false;
                        for_each_array_value(&self.graph.arrays[top].elements, |value| {
                            if let Value::Array(child) = value {
                                match state.get(child.index()) {
                                    Some(&NEW) => stack.push(child.index()),
                                    Some(&DONE) => {}
                                    _ => failed = true,
                                }
                            }
                        });
                        if failed {
                            return Err(DecodeError::Corrupted);
                        }
                    }
                    OPEN => {
                        stack.pop();
                        self.arrays[top] = self.build_array(top)?;
                        state[top] = DONE;
                    }
                    _ => {
                        stack.pop();
                    }
                }
            }
        }
        Ok(())
    }

    fn build_array(&mut self, index: usize) -> Result<zval, DecodeError> {
        if zend::out_of_memory() {
            return Err(DecodeError::Thrown);
        }
        let node = &self.graph.arrays[index];
        let array = match &node.elements {
            ArrayElements::Packed(slots) => {
                let array = zvals::new_array(slots.len(), true);
                // SAFETY: the array is new and owned here alone; indices stay below its table size, so
                // it stays packed (holes included).
                unsafe {
                    let ht = zvals::table(&raw const array);
                    for (i, slot) in slots.iter().enumerate() {
                        if let Some(value) = slot {
                            zvals::insert_int(ht, i as i64, self.zval_of(value)?);
                        }
                    }
                }
                array
            }
            ArrayElements::Hash(entries) => {
                let array = zvals::new_array(entries.len(), false);
                // SAFETY: the array is new and owned here alone.
                unsafe {
                    let ht = zvals::table(&raw const array);
                    for (key, value) in entries {
                        let value = self.zval_of(value)?;
                        match key {
                            ArrayKey::Int(i) => zvals::insert_int(ht, *i, value),
                            ArrayKey::String(s) => zvals::insert_str(ht, s, value),
                        }
                    }
                }
                array
            }
        };
        // SAFETY: the array is new; the stored next index is restored where it is above what the
        // elements imply (never below, so `$a[] = …` cannot hit an existing key).
        unsafe {
            let ht = zvals::table(&raw const array);
            (*ht).nNextFreeElement = (*ht).nNextFreeElement.max(node.next_free_index);
        }
        Ok(array)
    }

    /// A new owning zval for `value`; arrays, objects and references must already exist.
    fn zval_of(&mut self, value: &Value<'_>) -> Result<zval, DecodeError> {
        let mut z = zval::new();
        let existing = |slots: &[zval], index: usize| -> Result<zval, DecodeError> {
            match slots.get(index) {
                // SAFETY: the slot holds a live owning zval created by this rebuild.
                Some(slot) if zvals::type_of(slot) != ffi::IS_NULL => Ok(unsafe { zvals::copy(slot) }),
                _ => Err(DecodeError::Corrupted),
            }
        };
        match value {
            Value::Null => {}
            Value::Bool(b) => z.set_bool(*b),
            Value::Int(i) => z.set_long(*i),
            Value::Float(f) => z.set_double(*f),
            Value::String(s) => z = zvals::string(s),
            Value::Array(id) => z = existing(&self.arrays, id.index())?,
            Value::Object(id) => z = existing(&self.objects, id.index())?,
            Value::Reference(id) => z = existing(&self.references, id.index())?,
            Value::EnumCase(case) => {
                let obj = self.enum_case(&case.class_name, &case.case_name)?;
                // SAFETY: enum cases are live for the request (held by their class constant).
                z = unsafe { zvals::object_zval(obj) };
            }
            Value::Resource => return Err(DecodeError::Corrupted),
        }
        Ok(z)
    }

    /// The engine singleton of `class::case` (§6.5: a missing enum or case fails the fetch).
    fn enum_case(&mut self, class: &[u8], case: &[u8]) -> Result<*mut zend_object, DecodeError> {
        let key = (class.to_vec(), case.to_vec());
        if let Some(&obj) = self.enum_cases.get(&key) {
            return Ok(obj);
        }
        let ce = class_lookup::find(class)
            .map_err(|class_lookup::Thrown| DecodeError::Thrown)?
            .ok_or(DecodeError::Undecodable)?;
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
            let value = ffi::zend_get_class_constant_ex((*ce).name, &raw mut *name, ptr::null_mut(), FETCH_SILENT);
            if value.is_null() || zend::type_of(value) != IS_OBJECT || (*(*value).value.obj).ce != ce {
                zvals::clear_exception();
                return Err(DecodeError::Undecodable);
            }
            (*value).value.obj
        };
        self.enum_cases.insert(key, obj);
        Ok(obj)
    }

    fn fill_object(&mut self, index: usize) -> Result<(), DecodeError> {
        let graph = self.graph;
        match &graph.objects[index].state {
            ObjectState::Properties(p) => self.write_properties(index, p),
            ObjectState::PropertiesThenWakeup(p) => {
                self.write_properties(index, p)?;
                self.defer_wakeup(index);
                Ok(())
            }
            ObjectState::Unserialize(array) => {
                let unserialize = match self.targets[index] {
                    // SAFETY: a live class.
                    Target::Class(ce, _) => unsafe { !(*ce).__unserialize.is_null() },
                    Target::Incomplete => false,
                };
                if unserialize {
                    self.deferred.push(Deferred::Unserialize(index, array.index()));
                    return Ok(());
                }
                // Without __unserialize, the data are properties (then __wakeup), as unserialize() does.
                let node = graph.arrays.get(array.index()).ok_or(DecodeError::Corrupted)?;
                let mut properties = Properties::default();
                let mut push = |name: Vec<u8>, value: &Value<'a>| properties.dynamic.push((name.into(), value.clone()));
                match &node.elements {
                    ArrayElements::Packed(slots) => slots
                        .iter()
                        .enumerate()
                        .filter_map(|(i, v)| Some((i, v.as_ref()?)))
                        .for_each(|(i, v)| push(i.to_string().into_bytes(), v)),
                    ArrayElements::Hash(entries) => entries.iter().for_each(|(key, v)| match key {
                        ArrayKey::Int(i) => push(i.to_string().into_bytes(), v),
                        ArrayKey::String(s) => push(s.to_vec(), v),
                    }),
                }
                self.write_properties(index, &properties)?;
                self.defer_wakeup(index);
                Ok(())
            }
            ObjectState::Internal { state, properties } => {
                if let Target::Class(_, facts) = self.targets[index] {
                    let values = state.clone().try_map_values(|v| self.zval_of(&v))?;
                    // SAFETY: create_object checked that the class belongs to the state's family;
                    // the object is fresh.
                    let injected =
                        unsafe { internal_state::inject(values, self.object_ptr(index), facts.internal_base) };
                    if let Err(e) = injected {
                        if matches!(e, StateError::Thrown) {
                            zvals::clear_exception();
                        }
                        return Err(DecodeError::Undecodable);
                    }
                }
                self.write_properties(index, properties)
            }
        }
    }

    fn defer_wakeup(&mut self, index: usize) {
        if let Target::Class(ce, _) = self.targets[index] {
            // SAFETY: a live class.
            if !unsafe { class_info::method(ce, b"__wakeup") }.is_null() {
                self.deferred.push(Deferred::Wakeup(index));
            }
        }
    }

    /// Writes stored properties by (mangled) name, as `unserialize()` matches them (§6.5).
    fn write_properties(&mut self, index: usize, properties: &Properties<'_>) -> Result<(), DecodeError> {
        for declared in &properties.declared {
            let value = declared.value.as_ref().map(|v| self.zval_of(v)).transpose()?;
            self.write_property(index, &declared.mangled_name, value)?;
        }
        for (name, value) in &properties.dynamic {
            let value = self.zval_of(value)?;
            self.write_property(index, name, Some(value))?;
        }
        Ok(())
    }

    fn write_property(&mut self, index: usize, name: &[u8], value: Option<zval>) -> Result<(), DecodeError> {
        let Target::Class(ce, _) = self.targets[index] else {
            if let Some(value) = value {
                self.add_dynamic(index, name, value);
            }
            return Ok(());
        };
        let slot = self.slot_map(ce).get(name).copied();
        let obj = self.object_ptr(index);
        match (slot, value) {
            // SAFETY: `slot` indexes a declared slot of `ce`, the object's class.
            (Some(slot), value) => unsafe { write_slot(obj, ce, slot, value) },
            // SAFETY: a live class.
            (None, Some(value)) if unsafe { class_info::allows_dynamic_properties(ce) } => {
                self.add_dynamic(index, name, value);
                Ok(())
            }
            // A property the class no longer has, on a class without dynamic properties: dropped.
            _ => Ok(()),
        }
    }

    fn add_dynamic(&mut self, index: usize, name: &[u8], value: zval) {
        // SAFETY: the object is live and private to this rebuild; its property table is built on
        // demand by the engine and takes the value's ownership.
        unsafe {
            let table = ffi::zend_std_get_properties(self.object_ptr(index));
            zvals::insert_str(table, name, value);
        }
    }

    fn slot_map(&mut self, ce: *mut zend_class_entry) -> &HashMap<Vec<u8>, usize> {
        self.slot_maps.entry(ce).or_insert_with(|| {
            // SAFETY: `ce` is a live linked class; its slot infos name every declared slot.
            unsafe {
                (0..zvals::slot_count(ce))
                    .filter_map(|slot| {
                        let info = zvals::slot_info(ce, slot);
                        (!info.is_null()).then(|| (zend::zstr_bytes((*info).name).to_vec(), slot))
                    })
                    .collect()
            }
        })
    }

    /// Runs deferred `__unserialize`/`__wakeup` calls, inner objects first.
    fn run_hooks(&mut self) -> Result<(), DecodeError> {
        let order = self.object_post_order();
        let mut by_object: HashMap<usize, Vec<Deferred>> = HashMap::new();
        for call in std::mem::take(&mut self.deferred) {
            let object = match call {
                Deferred::Unserialize(object, _) | Deferred::Wakeup(object) => object,
            };
            by_object.entry(object).or_default().push(call);
        }
        for object in order {
            for call in by_object.remove(&object).unwrap_or_default() {
                let obj = self.object_ptr(object);
                let Target::Class(ce, _) = self.targets[object] else { continue };
                // SAFETY: the methods belong to the object's class; hooks run with nothing borrowed.
                let result = unsafe {
                    match call {
                        Deferred::Unserialize(_, array) => {
                            let mut args = [self.zval_of(&Value::Array(graph_codec::ArrayId(array as u32)))?];
                            zvals::call_method((*ce).__unserialize, obj, &mut args)
                        }
                        Deferred::Wakeup(_) => zvals::call_method(class_info::method(ce, b"__wakeup"), obj, &mut []),
                    }
                };
                result.map_err(|()| DecodeError::Thrown)?;
            }
        }
        Ok(())
    }

    /// Objects in depth-first post-order from the root (children before parents, siblings in order).
    fn object_post_order(&self) -> Vec<usize> {
        let graph = self.graph;
        let mut seen =
            [vec![false; graph.arrays.len()], vec![false; graph.objects.len()], vec![false; graph.references.len()]];
        let mut order = Vec::new();
        // (node, children already pushed)
        let mut stack: Vec<(Node, bool)> = Vec::new();
        let mut visit = |node: Node, stack: &mut Vec<(Node, bool)>| {
            let (kind, index) = match node {
                Node::Array(i) => (0, i),
                Node::Object(i) => (1, i),
                Node::Reference(i) => (2, i),
            };
            if let Some(flag @ false) = seen[kind].get_mut(index) {
                *flag = true;
                stack.push((node, false));
            }
        };
        if let Some(root) = node_of(&graph.root) {
            visit(root, &mut stack);
        }
        while let Some((node, expanded)) = stack.pop() {
            if expanded {
                if let Node::Object(index) = node {
                    order.push(index);
                }
                continue;
            }
            stack.push((node, true));
            let mut children = Vec::new();
            let mut add = |value: &Value<'_>| children.extend(node_of(value));
            match node {
                Node::Array(i) => for_each_array_value(&graph.arrays[i].elements, &mut add),
                Node::Reference(i) => add(&graph.references[i].value),
                Node::Object(i) => match &graph.objects[i].state {
                    ObjectState::Properties(p) | ObjectState::PropertiesThenWakeup(p) => {
                        for_each_property_value(p, &mut add)
                    }
                    ObjectState::Unserialize(id) => children.push(Node::Array(id.index())),
                    ObjectState::Internal { state, properties } => {
                        state.for_each_value(&mut add);
                        for_each_property_value(properties, &mut add);
                    }
                },
            }
            // Pushed in reverse so the first child is expanded (and finishes) first.
            for child in children.into_iter().rev() {
                visit(child, &mut stack);
            }
        }
        order
    }
}

fn node_of(value: &Value<'_>) -> Option<Node> {
    match value {
        Value::Array(id) => Some(Node::Array(id.index())),
        Value::Object(id) => Some(Node::Object(id.index())),
        Value::Reference(id) => Some(Node::Reference(id.index())),
        _ => None,
    }
}

fn for_each_array_value<'v, 'a>(elements: &'v ArrayElements<'a>, mut visit: impl FnMut(&'v Value<'a>)) {
    match elements {
        ArrayElements::Packed(slots) => slots.iter().flatten().for_each(visit),
        ArrayElements::Hash(entries) => entries.iter().for_each(|(_, v)| visit(v)),
    }
}

fn for_each_property_value<'v, 'a>(properties: &'v Properties<'a>, mut visit: impl FnMut(&'v Value<'a>)) {
    properties.declared.iter().filter_map(|p| p.value.as_ref()).for_each(&mut visit);
    properties.dynamic.iter().for_each(|(_, v)| visit(v));
}

/// Writes `value` into declared slot `slot` (`None` leaves it unset), checking the declared type as
/// `unserialize()` does and registering a reference with its typed property.
///
/// # Safety
/// `obj` must be a live object of `ce` and `slot < ce->default_properties_count`.
unsafe fn write_slot(
    obj: *mut zend_object,
    ce: *mut zend_class_entry,
    slot: usize,
    value: Option<zval>,
) -> Result<(), DecodeError> {
    // SAFETY: caller guarantees the slot exists; the old value is taken out (owned) before the new one
    // is moved in, and dropped after.
    unsafe {
        let info = zvals::slot_info(ce, slot);
        let target = zvals::property_slot(obj, slot);
        let typed = !info.is_null() && (*info).type_.type_mask & TYPE_MASK != 0;
        let old = ptr::read(target);
        match value {
            None => {
                (*target).u1.type_info = ffi::IS_UNDEF;
                (*target).u2.extra = 0;
            }
            Some(mut value) => {
                if typed {
                    let checked = zend::deref(&raw mut value);
                    if !ffi::zend_verify_property_type(info, checked, true) {
                        ptr::write(target, old);
                        zvals::clear_exception();
                        return Err(DecodeError::Undecodable);
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
