//! The view step of the read path: one stored version, checked once and turned into what every later
//! fetch needs, kept per thread and entry version (spec §7.2–7.3).
//!
//! Everything that holds no object and no reference is built here, once: strings, and arrays whose
//! whole content is scalars, strings and such arrays, become engine-immutable values (`immutable`), at
//! any depth of the graph (object properties, list elements, nested arrays), so a fetch hands them out
//! by pointer. What remains (objects, references, arrays that hold them, the arguments internal classes
//! restore from) becomes a plan of numbered nodes whose slots are those values, so a fetch
//! (`zval_out::materialise`) only creates the objects and the arrays around them. Class names are
//! resolved per request by the materialiser, not here: class entries belong to a request.
//!
//! In request-heap mode (past the memory bound of a long request, §7.5, and the first read of a small
//! graph of objects in a thread) nothing is made immutable: strings are request strings the blueprint
//! owns and every array is planned, and the blueprint lives for one fetch only. The first read of a
//! string, an object-free array or a small graph of `stdClass` objects needs no blueprint at all
//! ([`Blueprint::request_copy`]).

use foldhash::{HashMap, HashMapExt};
use std::ptr;

use ext_php_rs::ffi::{self, zend_object, zend_string, zval};
use graph_codec::scratch::{self, Scratch, Spare};
use graph_codec::{
    plain_tree, small_graph, ArrayId, CheckedGraph, CheckedKey, CheckedSlot, ObjectId, ObjectStateKind, PlainKey,
    PlainSlot, PlainTree, ReferenceId, ShapeId, SmallGraph, SmallSlot, StateFamily, StoreTier, StringId,
};

use crate::encoding;
use crate::immutable::{self, ImmutableArena, ImmutableKey};
use crate::internal_state::{self, Arg, Restore};
use crate::zend;
use crate::zval_out::DecodeError;
use crate::zvals::{self, Ready};

/// A slot of the plan: a ready value, or a node built per fetch.
#[derive(Clone, Copy)]
pub enum Cell {
    Ready(Ready),
    /// A planned array (index into [`Blueprint::arrays`]).
    Array(u32),
    Object(u32),
    Reference(u32),
    EnumCase(u32),
}

impl Cell {
    pub const UNDEF: Cell = Cell::Ready(Ready::UNDEF);

    fn is_ready(&self) -> bool {
        matches!(self, Cell::Ready(_))
    }
}

/// A contiguous run of [`Blueprint::cells`] or [`Blueprint::entries`].
#[derive(Clone, Copy, Default)]
pub struct Span {
    pub start: u32,
    pub len: u32,
}

impl Span {
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// A key of a planned hash array or a dynamic property name.
#[derive(Clone, Copy)]
pub enum Key {
    Int(i64),
    /// A string value (immutable, or owned by the blueprint).
    Str(Ready),
}

/// An array built per fetch, because it holds an object or a reference somewhere.
pub struct ArrayPlan {
    pub packed: bool,
    pub next_free: i64,
    /// Packed: one cell per slot (`Cell::UNDEF` is a hole). Hash: entries.
    pub span: Span,
}

/// How an object's state is written.
pub enum RestorePlan {
    Properties,
    /// Properties, then `__wakeup()`.
    PropertiesThenWakeup,
    /// `__unserialize()` with this array.
    Unserialize(Cell),
    /// A safe-direct internal class: its state, then its properties.
    Internal(StateFamily, StatePlan),
}

/// The internal state of a safe-direct object.
pub enum StatePlan {
    /// The internal base class's own `__unserialize()` with this array.
    Unserialize(Cell),
    /// Heap elements in stored order (cells).
    Heap { elements: Span, extract_flags: Option<u32>, heap_flags: u32 },
}

pub struct ObjectPlan {
    pub shape: u32,
    pub restore: RestorePlan,
    /// One cell per declared property of the shape (`Cell::UNDEF`: uninitialized).
    pub declared: Span,
    /// Dynamic properties: entries with string keys.
    pub dynamic: Span,
    /// Every property and state value is ready: a copy made by the class's clone handler is a complete,
    /// independent copy.
    pub self_contained: bool,
}

/// A class name and its declared property names (mangled), as stored.
pub struct Shape {
    /// The class name, a string the blueprint keeps ([`Shape::class_name`] gives its bytes).
    pub class_name_value: Ready,
    /// The name and its lower-case form as strings, for class-table lookups without allocation
    /// (`None` for a name no class can have).
    pub lookup: Option<(Ready, Ready)>,
    /// The names as strings the blueprint keeps ([`Shape::property_name`] gives their bytes).
    pub properties: Vec<Ready>,
    /// Some object of the shape is restored from its properties alone (no hook ran when it was stored),
    /// and some with `__wakeup()` after them: a class that has since gained `__unserialize()` or
    /// `__wakeup()` restores those through it, as `unserialize()` would (see `zval_out`).
    pub restored_plain: bool,
    pub restored_with_wakeup: bool,
}

impl Shape {
    /// The bytes of the class name.
    pub fn class_name(&self) -> &[u8] {
        // SAFETY: a string the blueprint keeps, which outlives the shape's borrow.
        unsafe { zend::zstr_bytes(self.class_name_value.as_string()) }
    }

    /// The bytes of declared property `k`'s name (mangled); empty past the last.
    pub fn property_name(&self, k: usize) -> &[u8] {
        match self.properties.get(k) {
            // SAFETY: as for the class name.
            Some(name) => unsafe { zend::zstr_bytes(name.as_string()) },
            None => &[],
        }
    }
}

/// An enum class name and a case name.
pub type EnumCaseName = (Box<[u8]>, Box<[u8]>);

/// What a materialisation writes into one declared slot, as the zval's two words: the value bits for
/// the types that have them (0 otherwise), and the type info; or `IS_OBJECT` with no value for an
/// object of the run (see [`PlainCells::links`]). Which of these bits count is the slot's
/// [`SlotMask`], kept apart: objects of one class hold values of the same types in the same slots,
/// so their masks are one run, shared, and the image read per slot is 16 bytes. Compared with a live
/// slot by [`SlotImage::differs`], a few vector instructions with no branch.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub struct SlotImage {
    bits: [u64; 2],
}

/// The bits of a [`SlotImage`] that count: the value word for the types that have value bits, and
/// the low half of the second word (`u1.type_info`; the high half is `u2`, not part of the value).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(16))]
pub struct SlotMask {
    mask: [u64; 2],
}

impl SlotMask {
    const VALUED: SlotMask = SlotMask { mask: [u64::MAX, u32::MAX as u64] };
    const TYPE_ONLY: SlotMask = SlotMask { mask: [0, u32::MAX as u64] };
}

impl SlotImage {
    pub(crate) fn new(type_info: u32, value: u64) -> (Self, SlotMask) {
        let mask = if zvals::has_value_bits(type_info) { SlotMask::VALUED } else { SlotMask::TYPE_ONLY };
        (SlotImage { bits: [value & mask.mask[0], u64::from(type_info)] }, mask)
    }

    /// An object of the run: its type only (the object is compared through [`PlainCells::links`]).
    fn object() -> (Self, SlotMask) {
        (SlotImage { bits: [0, u64::from(zvals::IS_OBJECT_EX)] }, SlotMask::TYPE_ONLY)
    }

    /// The bits in which the zval's words `live` differ from the image (0: the same value).
    #[inline(always)]
    pub fn differs(&self, mask: &SlotMask, live: [u64; 2]) -> [u64; 2] {
        [(live[0] ^ self.bits[0]) & mask.mask[0], (live[1] ^ self.bits[1]) & mask.mask[1]]
    }
}

/// A declared slot that holds an object of the run: object `object`'s slot `slot` holds object `target`.
#[derive(Clone, Copy)]
pub struct ObjectLink {
    pub object: u32,
    pub slot: u32,
    pub target: u32,
}

/// Objects whose declared slots have the same masks (usually: the objects of one class): `len` slots
/// each, masks the `len` at `masks` in [`PlainCells`], objects `members` there, and one run of `len`
/// images per object, in that order ([`PlainCells::runs`]).
#[derive(Clone, Copy)]
struct SlotRun {
    len: u32,
    masks: u32,
    members: Span,
}

/// One [`SlotRun`] as [`PlainCells::runs`] hands it out: the slot count, the objects (indexes into
/// the objects of the blueprint), where their images start (`len` per object, in the objects' order)
/// and where the `len` masks they share start.
pub struct Run<'a> {
    pub len: usize,
    pub objects: &'a [u32],
    pub images: *const SlotImage,
    pub masks: *const SlotMask,
}

/// See [`Blueprint::plain_cells`].
pub struct PlainCells {
    /// The images of the declared slots of the objects of each run, run after run, object after
    /// object, so that the objects of a run are compared in one loop of a fixed slot count
    /// ([`PlainCells::runs`]).
    image: Box<[SlotImage]>,
    /// The masks of the images: one per distinct sequence of them (usually one per class), which is
    /// what makes a run.
    masks: Box<[SlotMask]>,
    runs: Box<[SlotRun]>,
    /// The objects of the runs, run after run.
    members: Box<[u32]>,
    /// The objects without declared slots that no link targets: only their property table is looked
    /// at (that of a link's target is looked at with the link).
    pub bare: Box<[u32]>,
    /// The slots that hold objects of the run, in object order.
    pub links: Box<[ObjectLink]>,
}

impl PlainCells {
    /// Each run of objects with the same masks. Only [`Blueprint::plain_cells`] makes (and could
    /// change) the private images, masks, runs and members, so that the pointers handed out are
    /// readable for that many: `len` masks, and `len` images per object of the run.
    #[inline(always)]
    pub fn runs(&self) -> impl Iterator<Item = Run<'_>> + '_ {
        let mut images = self.image.as_ptr();
        self.runs.iter().map(move |run| {
            let objects = self.members.get(run.members.range()).unwrap_or_default();
            let at = images;
            images = images.wrapping_add(run.len as usize * objects.len());
            Run {
                len: run.len as usize,
                objects,
                images: at,
                masks: self.masks.as_ptr().wrapping_add(run.masks as usize),
            }
        })
    }
}

/// One stored version, ready to be materialised.
pub struct Blueprint {
    pub root: Cell,
    /// `PHPSerialized`: the bytes `unserialize()` takes.
    pub php_serialized: Option<Box<[u8]>>,
    pub objects: Vec<ObjectPlan>,
    /// Planned arrays, each after the arrays it contains.
    pub arrays: Vec<ArrayPlan>,
    pub references: Vec<Cell>,
    pub cells: Vec<Cell>,
    pub entries: Vec<(Key, Cell)>,
    pub shapes: Vec<Shape>,
    pub enum_cases: Vec<EnumCaseName>,
    /// Objects restored through `__wakeup()`/`__unserialize()`, inner objects first (the order
    /// `unserialize()` runs its delayed calls in).
    pub hook_order: Vec<u32>,
    arena: ImmutableArena,
    /// Request-heap mode: the strings the cells point at.
    owned: Vec<zval>,
    /// [`Blueprint::plain_cells`], made on first use.
    /// Boxed: most blueprints never make one, and a blueprint is moved as a whole.
    plain_cells: std::cell::OnceCell<Option<Box<PlainCells>>>,
}

/// Whether a blueprint may make values engine-immutable (kept across requests) or must build them in
/// the request heap (one fetch only).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Shared,
    RequestHeap,
}

impl Blueprint {
    /// The value of a stored null, bool, int or float (`None` for other tags), checked as
    /// [`Blueprint::build`] checks it: a scalar needs no blueprint.
    pub fn scalar(tag: u16, bytes: &[u8]) -> Result<Option<Ready>, DecodeError> {
        let word = || -> Result<[u8; 8], DecodeError> { bytes.try_into().map_err(|_| DecodeError::Corrupted) };
        Ok(Some(match tag {
            encoding::TAG_NULL | encoding::TAG_FALSE | encoding::TAG_TRUE if !bytes.is_empty() => {
                return Err(DecodeError::Corrupted)
            }
            encoding::TAG_NULL => Ready::NULL,
            encoding::TAG_FALSE => Ready::bool(false),
            encoding::TAG_TRUE => Ready::bool(true),
            encoding::TAG_INT => Ready::long(i64::from_le_bytes(word()?)),
            encoding::TAG_DOUBLE => Ready::double(f64::from_bits(u64::from_le_bytes(word()?))),
            _ => return Ok(None),
        }))
    }

    /// A stored string as one engine-immutable string and the memory it lives in, made without a
    /// blueprint, as [`Blueprint::build`] makes it in shared mode (`None` for other tags).
    pub fn immutable_string(tag: u16, bytes: &[u8]) -> Option<(Ready, ImmutableArena)> {
        (tag == encoding::TAG_STRING).then(|| {
            let mut arena = ImmutableArena::default();
            arena.expect(ImmutableArena::string_bytes(bytes.len()));
            let s = arena.string(bytes, graph_codec::zend_string_hash(bytes));
            (immutable::string_value(s), arena)
        })
    }

    /// A stored small tree of object-free arrays as one engine-immutable array and the memory it lives
    /// in, checked and made in one pass ([`PlainTree::check`]), as [`Blueprint::build`] makes it in shared
    /// mode. `None` for other tags and for every buffer that pass does not accept: the general check
    /// (`build`) reads those, and names the error of a broken one.
    pub fn immutable_tree(tag: u16, bytes: &[u8]) -> Option<(Ready, ImmutableArena)> {
        if tag != encoding::TAG_SHARED_GRAPH {
            return None;
        }
        PlainTree::check(bytes, immutable_tree)
    }

    /// A stored string, a small tree of object-free arrays or a small graph of `stdClass` objects and
    /// arrays, made straight into this request's heap (checked and made in one pass, [`PlainTree::check`]
    /// or [`SmallGraph::check`], then [`request_small`]): the value of a version read once, which needs no
    /// copy kept for the thread (`read_cache`). `None` for other tags and for every value those passes do
    /// not accept (the caller builds those from a blueprint, in request-heap mode). Allocates in the
    /// request heap (the caller catches a `memory_limit` fatal there: `zval_out::allocating`) and runs no
    /// userland code.
    pub fn request_copy(tag: u16, bytes: &[u8]) -> Option<zval> {
        match tag {
            encoding::TAG_STRING => Some(zvals::string(bytes)),
            encoding::TAG_SHARED_GRAPH | encoding::TAG_OPCACHE_SERIALIZED => {
                let tree = match tag {
                    encoding::TAG_SHARED_GRAPH => PlainTree::check(bytes, request_tree),
                    _ => None,
                };
                tree.or_else(|| {
                    let tier = encoding::graph_tier(tag)?;
                    let small = |graph: &SmallGraph<'_>| (graph.tier() == tier).then(|| request_small(graph)).flatten();
                    small_graph::likely_small(bytes).then(|| SmallGraph::check(bytes, small)).flatten().flatten()
                })
            }
            _ => None,
        }
    }

    /// Checks the stored (`tag`, `bytes`) and builds its blueprint.
    pub fn build(tag: u16, bytes: &[u8], mode: Mode) -> Result<Blueprint, DecodeError> {
        let mut blueprint = Blueprint::empty();
        blueprint.fill(tag, bytes, mode)?;
        Ok(blueprint)
    }

    /// [`Blueprint::build`] into this blueprint, which must be empty, in place: a blueprint is a few
    /// hundred bytes, copied whole by every move. After an error it holds part of the value: drop it.
    pub fn fill(&mut self, tag: u16, bytes: &[u8], mode: Mode) -> Result<(), DecodeError> {
        if let Some(ready) = Self::scalar(tag, bytes)? {
            self.root = Cell::Ready(ready);
            return Ok(());
        }
        let root = match tag {
            encoding::TAG_STRING => {
                self.arena.expect(ImmutableArena::string_bytes(bytes.len()));
                self.string(bytes, None, mode)
            }
            _ => {
                let tier = encoding::graph_tier(tag).ok_or(DecodeError::UnknownType)?;
                // A small tree of plain objects and arrays is checked and built in one pass; any other
                // value (and any buffer that pass refuses) goes through the general check.
                if SmallGraph::check(bytes, |graph| (graph.tier() == tier).then(|| self.fill_small(graph, mode)))
                    .flatten()
                    .is_some()
                {
                    return Ok(());
                }
                let checked = CheckedGraph::check(bytes).map_err(|_| DecodeError::Corrupted)?;
                if checked.header().tier != tier {
                    return Err(DecodeError::Corrupted);
                }
                if tier == StoreTier::PHPSerialized {
                    let serialized = checked.php_serialized_bytes().map_err(|_| DecodeError::Corrupted)?;
                    self.php_serialized = Some(serialized.into());
                    return Ok(());
                }
                if mode == Mode::Shared && checked.header().is_immutable_eligible() {
                    // The whole value becomes engine-immutable strings and arrays: one arena chunk of
                    // what they take, rather than a run of doubling ones or room left unused.
                    self.arena.expect(immutable_bytes(&checked));
                }
                return Builder::new(&checked, mode, self).run();
            }
        };
        self.root = Cell::Ready(root);
        Ok(())
    }

    /// [`Blueprint::fill`] from a checked small graph ([`SmallGraph::check`]): the plan [`Builder`] makes
    /// of it (shapes, object-free arrays made immutable in shared mode, the other arrays and the objects
    /// planned, in the same order and with the same ids), without the general check's tables.
    fn fill_small(&mut self, graph: &SmallGraph<'_>, mode: Mode) {
        let mut made = SmallMade {
            strings: [None; small_graph::MAX_STRINGS],
            arrays: [Cell::UNDEF; small_graph::MAX_NODES],
            mode,
        };
        // In request-heap mode every array is planned (nothing is immutable).
        let immutable = |array: &small_graph::SmallArray| array.plain && mode == Mode::Shared;
        // Sized once: what the plan keeps of each array and object.
        let (mut cells, mut entries, mut planned) = (0, 0, 0);
        for id in 0..graph.array_count() as u32 {
            let array = graph.array(id);
            if !immutable(&array) {
                planned += 1;
                let len = graph.entries(array).len();
                if array.packed {
                    cells += len
                } else {
                    entries += len
                }
            }
        }
        for id in 0..graph.object_count() as u32 {
            let object = graph.object(id);
            cells += graph.declared(object).len();
            entries += graph.dynamic(object).len();
        }
        self.cells.reserve_exact(cells);
        self.entries.reserve_exact(entries);
        self.arrays.reserve_exact(planned);
        self.objects.reserve_exact(graph.object_count());
        self.shapes.reserve_exact(graph.shape_count());
        // The arena's first chunk sized for the strings (each made at most once, a class name's
        // lower-case form beside it; counted as values, so an upper bound) and the object-free arrays:
        // one chunk rather than a run of doubling ones.
        if mode == Mode::Shared {
            let strings = (0..graph.string_count() as u32).map(|id| graph.string(id).0.len());
            let lowered = (0..graph.shape_count() as u32).map(|id| graph.string(graph.shape(id).class_name).0.len());
            let plain = (0..graph.array_count() as u32).map(|id| graph.array(id)).filter(|array| array.plain);
            self.arena.expect(arena_bytes(
                strings.chain(lowered).map(|len| (len, true)),
                plain.map(|array| (array.packed, graph.entries(array).len())),
                |_| false,
            ));
        }
        for id in 0..graph.shape_count() as u32 {
            let shape = graph.shape(id);
            let names = graph.property_names(shape);
            let mut properties = Vec::with_capacity(names.len());
            for &name in names {
                properties.push(self.small_string(&mut made, graph, name));
            }
            let (class_name, _) = graph.string(shape.class_name);
            let name_value = self.small_string(&mut made, graph, shape.class_name);
            let lookup =
                class_lookup_valid(class_name).then(|| (name_value, self.lower_name(class_name, name_value, mode)));
            self.shapes.push(Shape {
                class_name_value: name_value,
                lookup,
                properties,
                restored_plain: false,
                restored_with_wakeup: false,
            });
        }
        for &id in graph.arrays_children_first() {
            let array = graph.array(u32::from(id));
            let items = graph.entries(array);
            let cell = if immutable(&array) {
                // Holds only ready values (`plain`: no object at any depth).
                let ready = |cell: Cell| match cell {
                    Cell::Ready(ready) => ready,
                    _ => Ready::NULL,
                };
                // The entries of this array alone, on the stack (made only for such an array).
                Cell::Ready(if array.packed {
                    let mut slots = [Ready::UNDEF; small_graph::MAX_SLOTS];
                    for (out, &(_, slot)) in slots.iter_mut().zip(items) {
                        *out = ready(self.small_cell(&mut made, graph, slot));
                    }
                    packed_array(&mut self.arena, slots.get(..items.len()).unwrap_or(&[]), array.next_free_index)
                } else {
                    let mut pairs = [(ImmutableKey::Int(0), Ready::UNDEF); small_graph::MAX_SLOTS];
                    for (out, &(key, slot)) in pairs.iter_mut().zip(items) {
                        let key = match self.small_key(&mut made, graph, key) {
                            Key::Int(i) => ImmutableKey::Int(i),
                            Key::Str(s) => ImmutableKey::Str(s.as_string()),
                        };
                        *out = (key, ready(self.small_cell(&mut made, graph, slot)));
                    }
                    hash_array(&mut self.arena, pairs.get(..items.len()).unwrap_or(&[]), array.next_free_index)
                })
            } else {
                let span = if array.packed {
                    let start = self.cells.len() as u32;
                    for &(_, slot) in items {
                        let cell = self.small_cell(&mut made, graph, slot);
                        self.cells.push(cell);
                    }
                    Span { start, len: self.cells.len() as u32 - start }
                } else {
                    let start = self.entries.len() as u32;
                    for &(key, slot) in items {
                        let entry = (self.small_key(&mut made, graph, key), self.small_cell(&mut made, graph, slot));
                        self.entries.push(entry);
                    }
                    Span { start, len: self.entries.len() as u32 - start }
                };
                self.arrays.push(ArrayPlan { packed: array.packed, next_free: array.next_free_index, span });
                Cell::Array(self.arrays.len() as u32 - 1)
            };
            if let Some(resolved) = made.arrays.get_mut(usize::from(id)) {
                *resolved = cell;
            }
        }
        for id in 0..graph.object_count() as u32 {
            let object = graph.object(id);
            let start = self.cells.len() as u32;
            for slot in graph.declared(object) {
                let cell = self.small_cell(&mut made, graph, slot);
                self.cells.push(cell);
            }
            let declared = Span { start, len: self.cells.len() as u32 - start };
            let start = self.entries.len() as u32;
            for (name, slot) in graph.dynamic(object) {
                let entry =
                    (Key::Str(self.small_string(&mut made, graph, name)), self.small_cell(&mut made, graph, slot));
                self.entries.push(entry);
            }
            let dynamic = Span { start, len: self.entries.len() as u32 - start };
            let self_contained = self.cells[declared.range()].iter().all(Cell::is_ready)
                && self.entries[dynamic.range()].iter().all(|(_, cell)| cell.is_ready());
            if let Some(shape) = self.shapes.get_mut(object.shape as usize) {
                shape.restored_plain = true;
            }
            self.objects.push(ObjectPlan {
                shape: object.shape,
                restore: RestorePlan::Properties,
                declared,
                dynamic,
                self_contained,
            });
        }
        self.root = self.small_cell(&mut made, graph, graph.root());
    }

    /// String `id` of a small graph, made once (as `Builder::graph_string`).
    fn small_string(&mut self, made: &mut SmallMade, graph: &SmallGraph<'_>, id: u32) -> Ready {
        let (bytes, hash) = graph.string(id);
        match made.strings.get_mut(id as usize) {
            Some(Some(ready)) => *ready,
            Some(unmade) => *unmade.insert(self.string(bytes, Some(hash), made.mode)),
            None => self.string(bytes, Some(hash), made.mode),
        }
    }

    /// An array key of a small graph: the thread's shared string of it where there is one (as
    /// `Builder::key_string`), else [`Blueprint::small_string`].
    fn small_key(&mut self, made: &mut SmallMade, graph: &SmallGraph<'_>, key: PlainKey) -> Key {
        match key {
            PlainKey::Int(i) => Key::Int(i),
            PlainKey::String(id) => {
                let (bytes, hash) = graph.string(id);
                Key::Str(match immutable::shared_key(bytes, hash) {
                    Some(shared) => immutable::string_value(shared),
                    None => self.small_string(made, graph, id),
                })
            }
        }
    }

    /// The cell of a slot of a small graph (its arrays made before it, children first).
    fn small_cell(&mut self, made: &mut SmallMade, graph: &SmallGraph<'_>, slot: SmallSlot) -> Cell {
        match slot {
            SmallSlot::Undef => Cell::UNDEF,
            SmallSlot::Null => Cell::Ready(Ready::NULL),
            SmallSlot::Bool(b) => Cell::Ready(Ready::bool(b)),
            SmallSlot::Int(i) => Cell::Ready(Ready::long(i)),
            SmallSlot::Float(f) => Cell::Ready(Ready::double(f)),
            SmallSlot::String(id) => Cell::Ready(self.small_string(made, graph, id)),
            SmallSlot::Array(id) => made.arrays.get(id as usize).copied().unwrap_or(Cell::UNDEF),
            SmallSlot::Object(id) => Cell::Object(id),
        }
    }

    /// What a materialisation writes into the declared slots of every object, when the cells alone tell
    /// it: every object has one cell per stored declared property, each a ready value or an object of
    /// the run, no dynamic property, and no hook (its state, for a safe-direct internal class, is not
    /// looked at). The check of deferred publication then compares against this instead of a copy
    /// taken at restore (`attributes::compare`). `None` for other blueprints. Made on first use.
    pub fn plain_cells(&self) -> Option<&PlainCells> {
        self.plain_cells.get_or_init(|| self.make_plain_cells().map(Box::new)).as_deref()
    }

    /// See [`Blueprint::plain_cells`].
    fn make_plain_cells(&self) -> Option<PlainCells> {
        let mut links = Vec::new();
        let mut bare = Vec::new();
        // Per distinct sequence of masks, its run: the masks, and the objects with their images.
        let mut runs: Vec<(Vec<SlotMask>, Vec<u32>, Vec<SlotImage>)> = Vec::new();
        let mut run_of = HashMap::<Vec<SlotMask>, usize>::new();
        let (mut object_image, mut object_masks) = (Vec::new(), Vec::new());
        for (i, plan) in self.objects.iter().enumerate() {
            let declared = self.cells.get(plan.declared.range())?;
            let properties = self.shapes.get(plan.shape as usize)?.properties.len();
            if !matches!(plan.restore, RestorePlan::Properties | RestorePlan::Internal(..))
                || plan.dynamic.len != 0
                || declared.len() != properties
            {
                return None;
            }
            let object = u32::try_from(i).ok()?;
            if declared.is_empty() {
                bare.push(object);
                continue;
            }
            object_image.clear();
            object_masks.clear();
            for (k, cell) in declared.iter().enumerate() {
                let (slot, mask) = match *cell {
                    Cell::Ready(ready) => {
                        let (type_info, value) = ready.bits();
                        SlotImage::new(type_info, value)
                    }
                    Cell::Object(target) if (target as usize) < self.objects.len() => {
                        links.push(ObjectLink { object, slot: u32::try_from(k).ok()?, target });
                        // The object itself is compared through `links`.
                        SlotImage::object()
                    }
                    _ => return None,
                };
                object_image.push(slot);
                object_masks.push(mask);
            }
            let run = match run_of.get(&object_masks) {
                Some(&run) => run,
                None => {
                    run_of.insert(object_masks.clone(), runs.len());
                    runs.push((object_masks.clone(), Vec::new(), Vec::new()));
                    runs.len() - 1
                }
            };
            let (_, members, images) = &mut runs[run];
            members.push(object);
            images.extend_from_slice(&object_image);
        }
        let mut targeted = vec![false; self.objects.len()];
        for link in &links {
            if let Some(t) = targeted.get_mut(link.target as usize) {
                *t = true;
            }
        }
        bare.retain(|&object| targeted.get(object as usize) == Some(&false));
        let (mut image, mut masks, mut members, mut spans) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (run_masks, run_members, run_images) in runs {
            spans.push(SlotRun {
                len: u32::try_from(run_masks.len()).ok()?,
                masks: u32::try_from(masks.len()).ok()?,
                members: Span {
                    start: u32::try_from(members.len()).ok()?,
                    len: u32::try_from(run_members.len()).ok()?,
                },
            });
            masks.extend(run_masks);
            members.extend(run_members);
            image.extend(run_images);
        }
        Some(PlainCells {
            image: image.into(),
            masks: masks.into(),
            runs: spans.into(),
            members: members.into(),
            bare: bare.into(),
            links: links.into(),
        })
    }

    /// A blueprint of nothing, to [`Blueprint::fill`].
    pub fn empty() -> Blueprint {
        Blueprint {
            root: Cell::UNDEF,
            php_serialized: None,
            objects: Vec::new(),
            arrays: Vec::new(),
            references: Vec::new(),
            cells: Vec::new(),
            entries: Vec::new(),
            shapes: Vec::new(),
            enum_cases: Vec::new(),
            hook_order: Vec::new(),
            arena: ImmutableArena::default(),
            owned: Vec::new(),
            plain_cells: std::cell::OnceCell::new(),
        }
    }

    /// Bytes of memory this blueprint keeps as built (budget of superseded copies, §7.5; the request-end
    /// images [`Blueprint::plain_cells`] makes later, in deferred mode, are not counted).
    pub fn bytes(&self) -> usize {
        let shapes =
            self.shapes.iter().map(|shape| size_of::<Shape>() + shape.properties.capacity() * size_of::<Ready>());
        size_of::<Blueprint>()
            + self.arena.bytes()
            + self.php_serialized.as_ref().map_or(0, |bytes| bytes.len())
            + self.cells.capacity() * size_of::<Cell>()
            + self.entries.capacity() * size_of::<(Key, Cell)>()
            + self.objects.capacity() * size_of::<ObjectPlan>()
            + self.arrays.capacity() * size_of::<ArrayPlan>()
            + self.references.capacity() * size_of::<Cell>()
            + shapes.sum::<usize>()
            + self.enum_cases.capacity() * size_of::<EnumCaseName>()
            + self.hook_order.capacity() * size_of::<u32>()
            + self.owned.capacity() * size_of::<zval>()
    }

    /// The value itself when it needs no materialisation (a scalar, a string, an object-free array).
    pub fn ready_root(&self) -> Option<Ready> {
        match self.root {
            Cell::Ready(ready) if self.php_serialized.is_none() => Some(ready),
            _ => None,
        }
    }

    /// For a value that is one engine-immutable string or array as a whole (nothing else planned): that
    /// value, and the arena it lives in, taken out of the blueprint. `None` for any other.
    pub fn take_immutable(&mut self) -> Option<(Ready, ImmutableArena)> {
        let alone = self.php_serialized.is_none()
            && self.objects.is_empty()
            && self.arrays.is_empty()
            && self.references.is_empty()
            && self.shapes.is_empty()
            && self.enum_cases.is_empty()
            && self.owned.is_empty();
        match self.root {
            Cell::Ready(ready) if alone => Some((ready, std::mem::take(&mut self.arena))),
            _ => None,
        }
    }

    /// The objects `wanted` picks, in depth-first post-order from the root (children before parents,
    /// siblings in order), as `unserialize()` runs its delayed calls.
    pub fn post_order(&self, wanted: impl Fn(&ObjectPlan) -> bool) -> Vec<u32> {
        let bp = self;
        let mut seen_objects = vec![false; bp.objects.len()];
        let mut seen_arrays = vec![false; bp.arrays.len()];
        let mut seen_references = vec![false; bp.references.len()];
        let mut order = Vec::new();
        let mut stack: Vec<(Cell, bool)> = vec![(bp.root, false)];
        let mut children = Vec::new();
        while let Some((cell, expanded)) = stack.pop() {
            if expanded {
                if let Cell::Object(o) = cell {
                    if wanted(&bp.objects[o as usize]) {
                        order.push(o);
                    }
                }
                continue;
            }
            let first_visit = match cell {
                Cell::Array(a) => !std::mem::replace(&mut seen_arrays[a as usize], true),
                Cell::Object(o) => !std::mem::replace(&mut seen_objects[o as usize], true),
                Cell::Reference(r) => !std::mem::replace(&mut seen_references[r as usize], true),
                _ => false,
            };
            if !first_visit {
                continue;
            }
            stack.push((cell, true));
            children.clear();
            match cell {
                Cell::Array(a) => {
                    let plan = &bp.arrays[a as usize];
                    if plan.packed {
                        children.extend_from_slice(&bp.cells[plan.span.range()]);
                    } else {
                        children.extend(bp.entries[plan.span.range()].iter().map(|(_, c)| *c));
                    }
                }
                Cell::Reference(r) => children.push(bp.references[r as usize]),
                Cell::Object(o) => {
                    let plan = &bp.objects[o as usize];
                    match &plan.restore {
                        RestorePlan::Unserialize(data) => children.push(*data),
                        RestorePlan::Internal(_, StatePlan::Unserialize(argument)) => children.push(*argument),
                        RestorePlan::Internal(_, StatePlan::Heap { elements, .. }) => {
                            children.extend_from_slice(&bp.cells[elements.range()])
                        }
                        _ => {}
                    }
                    children.extend_from_slice(&bp.cells[plan.declared.range()]);
                    children.extend(bp.entries[plan.dynamic.range()].iter().map(|(_, c)| *c));
                }
                _ => {}
            }
            // Pushed in reverse so the first child is expanded (and finishes) first.
            stack.extend(children.iter().rev().map(|&c| (c, false)));
        }
        order
    }

    /// Whether fetching runs userland code (`__wakeup`, `__unserialize`, `unserialize()`), so a request
    /// keeps a prototype to run it once per key and version (§6.4).
    pub fn runs_hooks(&self) -> bool {
        self.php_serialized.is_some() || !self.hook_order.is_empty()
    }

    /// A string value of `bytes` (hash `hash` when the caller knows it).
    fn string(&mut self, bytes: &[u8], hash: Option<u64>, mode: Mode) -> Ready {
        match mode {
            Mode::Shared => {
                let hash = hash.unwrap_or_else(|| graph_codec::zend_string_hash(bytes));
                immutable::string_value(self.arena.string(bytes, hash))
            }
            Mode::RequestHeap => {
                self.owned.push(zvals::string(bytes));
                let z = self.owned.last().expect("just pushed");
                // SAFETY: the zval is owned by the blueprint, which outlives every use of the value.
                unsafe { Ready::borrowed(z) }
            }
        }
    }

    fn push_cells(&mut self, cells: impl IntoIterator<Item = Cell>) -> Span {
        let start = self.cells.len() as u32;
        self.cells.extend(cells);
        Span { start, len: self.cells.len() as u32 - start }
    }

    fn push_entries(&mut self, entries: impl IntoIterator<Item = (Key, Cell)>) -> Span {
        let start = self.entries.len() as u32;
        self.entries.extend(entries);
        Span { start, len: self.entries.len() as u32 - start }
    }

    /// The lower-case form of class name `name` (whose string is `name_value`) for class-table lookups:
    /// the name itself when it has no upper-case letter; else made here, a short name lowered on the
    /// stack (no copy on the heap, no map).
    fn lower_name(&mut self, name: &[u8], name_value: Ready, mode: Mode) -> Ready {
        if !name.iter().any(u8::is_ascii_uppercase) {
            return name_value;
        }
        let mut short = [0u8; 64];
        match short.get_mut(..name.len()) {
            Some(lower) => {
                lower.copy_from_slice(name);
                lower.make_ascii_lowercase();
                self.string(lower, None, mode)
            }
            None => self.string(&name.to_ascii_lowercase(), None, mode),
        }
    }
}

/// Whether `name` can name a class, so that its shape is looked up in the class table
/// ([`Shape::lookup`]).
fn class_lookup_valid(name: &[u8]) -> bool {
    !name.is_empty() && !name.contains(&0) && name[0] != b'\\'
}

/// What the engine-immutable strings and arrays of a checked value that is immutable-eligible (a tree
/// of object-free arrays) take in an arena's first chunk, as [`Builder`] makes them: each string once
/// (but keys the thread shares, `immutable::shared_key`), each array once (an empty one at most its
/// header).
fn immutable_bytes(checked: &CheckedGraph<'_>) -> usize {
    let values = checked.value_strings();
    let strings = checked
        .string_lens()
        .enumerate()
        .map(|(id, len)| (usize::try_from(len).unwrap_or(usize::MAX), values.get(id).copied().unwrap_or(true)));
    let arrays = checked.array_lens().iter().map(|&(packed, len)| (packed, usize::try_from(len).unwrap_or(usize::MAX)));
    let shared_already =
        |id: usize| checked.string(StringId(id as u32)).is_ok_and(|s| immutable::shares_key(s.bytes, s.hash));
    arena_bytes(strings, arrays, shared_already)
}

/// [`immutable_bytes`] of strings given as (length, whether a slot holds it as a value) and arrays as
/// (packed, length). A short key-only string takes no memory where the thread shares it: while the
/// thread has room for it among its shared keys, or if it shares that key already
/// (`shared_already(string id)`); a key refused there is made in the copy's arena, which must be sized
/// for it (else it overflows into a second chunk twice the first's size).
fn arena_bytes(
    strings: impl Iterator<Item = (usize, bool)>,
    arrays: impl Iterator<Item = (bool, usize)>,
    shared_already: impl Fn(usize) -> bool,
) -> usize {
    let mut bytes = 0usize;
    // Each short key counted as shared takes one unit of the room left for new shared keys, even one the
    // thread shares already (never too little memory, at worst a little too much once the table is
    // nearly full); past the room, a key is shared only if it is already.
    let mut room = immutable::shared_key_room();
    for (id, (len, value)) in strings.enumerate() {
        // The engine's own strings (empty, one byte) take nothing.
        let string = ImmutableArena::string_bytes(len);
        if string == 0 {
            continue;
        }
        let short_key = len <= immutable::SHARED_KEY_MAX && !value;
        let shared = short_key && (room.checked_sub(1).inspect(|left| room = *left).is_some() || shared_already(id));
        if !shared {
            bytes = bytes.saturating_add(ImmutableArena::chunk_bytes(string));
        }
    }
    for (packed, len) in arrays {
        bytes = bytes.saturating_add(ImmutableArena::array_bytes(packed, len));
    }
    bytes
}

/// The value [`PlainTree::check`] accepted (a small tree of object-free arrays) as one engine-immutable
/// array and its arena: the strings and arrays [`Builder`] makes of it in shared mode, in the same order,
/// without the general check's tables.
fn immutable_tree(tree: &PlainTree<'_>) -> (Ready, ImmutableArena) {
    let strings = (0..tree.string_count() as u32).map(|id| (tree.string(id).0.len(), tree.is_value_string(id)));
    let arrays = (0..tree.array_count() as u32).map(|id| {
        let array = tree.array(id);
        (array.packed, tree.entries(array).len())
    });
    let mut arena = ImmutableArena::default();
    let shared_already = |id: usize| {
        let (bytes, hash) = tree.string(id as u32);
        immutable::shares_key(bytes, hash)
    };
    arena.expect(arena_bytes(strings, arrays, shared_already));
    // Per string and per array, once made; the entries of one array at a time. A plain tree is small
    // (`graph_codec::plain_tree`'s limits), so these live on the stack.
    let mut strings: [Option<Ready>; plain_tree::MAX_STRINGS] = [None; _];
    let mut arrays = [Ready::NULL; plain_tree::MAX_ARRAYS];
    let mut slots = [Ready::UNDEF; plain_tree::MAX_ENTRIES];
    let mut pairs = [(ImmutableKey::Int(0), Ready::UNDEF); plain_tree::MAX_ENTRIES];
    // Each string is made once (as `Builder::graph_string`).
    let mut string = |arena: &mut ImmutableArena, id: u32| {
        let (bytes, hash) = tree.string(id);
        match strings.get_mut(id as usize) {
            Some(Some(made)) => *made,
            Some(unmade) => *unmade.insert(immutable::string_value(arena.string(bytes, hash))),
            None => immutable::string_value(arena.string(bytes, hash)),
        }
    };
    for &id in tree.arrays_children_first() {
        let array = tree.array(u32::from(id));
        let entries = tree.entries(array);
        let mut value = |arena: &mut ImmutableArena, slot: PlainSlot| match slot {
            PlainSlot::Undef => Ready::UNDEF,
            PlainSlot::Null => Ready::NULL,
            PlainSlot::Bool(b) => Ready::bool(b),
            PlainSlot::Int(i) => Ready::long(i),
            PlainSlot::Float(f) => Ready::double(f),
            PlainSlot::String(id) => string(arena, id),
            // Arrays held come first in the order, so they are made.
            PlainSlot::Array(child) => arrays.get(child as usize).copied().unwrap_or(Ready::NULL),
        };
        let made = if array.packed {
            for (out, &(_, slot)) in slots.iter_mut().zip(entries) {
                *out = value(&mut arena, slot);
            }
            packed_array(&mut arena, slots.get(..entries.len()).unwrap_or(&[]), array.next_free_index)
        } else {
            for (out, &(key, slot)) in pairs.iter_mut().zip(entries) {
                let key = match key {
                    PlainKey::Int(i) => ImmutableKey::Int(i),
                    // A key the thread shares is not made.
                    PlainKey::String(id) => {
                        let (bytes, hash) = tree.string(id);
                        ImmutableKey::Str(match immutable::shared_key(bytes, hash) {
                            Some(shared) => shared,
                            None => value(&mut arena, PlainSlot::String(id)).as_string(),
                        })
                    }
                };
                *out = (key, value(&mut arena, slot));
            }
            hash_array(&mut arena, pairs.get(..entries.len()).unwrap_or(&[]), array.next_free_index)
        };
        if let Some(resolved) = arrays.get_mut(usize::from(id)) {
            *resolved = made;
        }
    }
    let root = arrays.get(tree.root() as usize).copied().unwrap_or(Ready::NULL);
    (root, arena)
}

/// A checked graph [`Blueprint::request_copy`] makes in the request heap: a plain tree, or a small graph
/// ([`request_small`]); its strings and arrays numbered in storage order, its arrays listed children first.
trait RequestSource<'a> {
    type Slot: Copy + Into<SmallSlot>;
    fn string(&self, id: u32) -> (&'a [u8], u64);
    fn arrays_children_first(&self) -> &[u8];
    /// Array `id`: whether it is packed, its stored next free index and its entries.
    fn array(&self, id: u32) -> (bool, i64, &[(PlainKey, Self::Slot)]);
}

impl<'a> RequestSource<'a> for PlainTree<'a> {
    type Slot = PlainSlot;
    fn string(&self, id: u32) -> (&'a [u8], u64) {
        PlainTree::string(self, id)
    }
    fn arrays_children_first(&self) -> &[u8] {
        PlainTree::arrays_children_first(self)
    }
    #[inline(always)]
    fn array(&self, id: u32) -> (bool, i64, &[(PlainKey, PlainSlot)]) {
        let array = PlainTree::array(self, id);
        (array.packed, array.next_free_index, self.entries(array))
    }
}

impl<'a> RequestSource<'a> for SmallGraph<'a> {
    type Slot = SmallSlot;
    fn string(&self, id: u32) -> (&'a [u8], u64) {
        SmallGraph::string(self, id)
    }
    fn arrays_children_first(&self) -> &[u8] {
        SmallGraph::arrays_children_first(self)
    }
    #[inline(always)]
    fn array(&self, id: u32) -> (bool, i64, &[(PlainKey, SmallSlot)]) {
        let array = SmallGraph::array(self, id);
        (array.packed, array.next_free_index, self.entries(array))
    }
}

/// The values of one [`RequestSource`] made so far in the request heap: per string, once made, the
/// table's own reference (a string held twice is shared, as `unserialize()` does not, but as a
/// blueprint's materialisation does); per array and object, once made, its only reference until its
/// holder takes it (neither check accepts a graph that shares one). Unmade: `UNDEF`. On the stack, sized
/// for the check's limits (`S` strings, `A` arrays, `O` objects): both checks' graphs are small.
struct RequestMade<const S: usize, const A: usize, const O: usize> {
    strings: [Ready; S],
    arrays: [Ready; A],
    objects: [Ready; O],
}

impl<const S: usize, const A: usize, const O: usize> RequestMade<S, A, O> {
    /// Nothing made: a constant, which the compiler copies into place in one go (array repeat
    /// expressions were written element by element).
    const NONE: Self =
        RequestMade { strings: [Ready::UNDEF; S], arrays: [Ready::UNDEF; A], objects: [Ready::UNDEF; O] };

    #[inline(always)]
    fn new() -> Self {
        Self::NONE
    }

    /// String `id` (`bytes`, whose PHP hash is `hash`), made once: an owning zval.
    #[inline(always)]
    fn string(&mut self, id: u32, (bytes, hash): (&[u8], u64)) -> zval {
        if let Some(made) = self.strings.get(id as usize).filter(|made| !made.is_undef()) {
            return made.to_zval();
        }
        let z = zvals::string(bytes);
        // SAFETY: `z` holds the string just made; its hash, checked by the graph's check, is the one PHP
        // computes. The engine may hand out an interned string instead (one byte or empty), which has
        // its hash already and may sit in OPcache's shared memory, read-only under
        // `opcache.protect_memory` (PHP 8.4): it is not written.
        unsafe {
            let s = z.value.str_;
            if (*s).gc.u.type_info & zvals::GC_IMMUTABLE == 0 {
                (*s).h = hash;
            }
        }
        // The table keeps `z`'s reference (given up by `release_strings`), the caller's copy takes its own.
        match self.strings.get_mut(id as usize) {
            Some(held) => {
                *held = Ready::from_owned(z);
                held.to_zval()
            }
            None => z,
        }
    }

    /// The key string `id`: the thread's shared immutable string of it where there is one (never freed
    /// before the thread ends, so a request array may hold it), else a request string ([`Self::string`]),
    /// handed to `insert` and released after.
    #[inline(always)]
    fn with_key<'a>(&mut self, source: &impl RequestSource<'a>, id: u32, insert: impl FnOnce(*mut zend_string)) {
        let (bytes, hash) = source.string(id);
        match immutable::shared_key(bytes, hash) {
            Some(shared) => insert(shared),
            None => {
                // The table takes its own reference; this one is released.
                let key = self.string(id, (bytes, hash));
                // SAFETY: a string zval.
                insert(unsafe { key.value.str_ });
                drop(key);
            }
        }
    }

    /// The owning zval of `slot`: arrays and objects are made before any slot holds them, each held once,
    /// and the slot takes the table's reference.
    #[inline(always)]
    fn value<'a>(&mut self, source: &impl RequestSource<'a>, slot: SmallSlot) -> zval {
        let take = |table: &mut [Ready], id: u32| match table.get_mut(id as usize) {
            // SAFETY: the table's reference to a value made here, given up once (`UNDEF` left behind).
            Some(made) => unsafe { std::mem::replace(made, Ready::UNDEF).into_zval() },
            None => zval::new(),
        };
        match slot {
            SmallSlot::Undef => Ready::UNDEF.to_zval(),
            SmallSlot::Null => zval::new(),
            SmallSlot::Bool(b) => Ready::bool(b).to_zval(),
            SmallSlot::Int(n) => Ready::long(n).to_zval(),
            SmallSlot::Float(f) => Ready::double(f).to_zval(),
            SmallSlot::String(s) => self.string(s, source.string(s)),
            SmallSlot::Array(child) => take(&mut self.arrays, child),
            SmallSlot::Object(object) => take(&mut self.objects, object),
        }
    }

    /// Makes every array of `source`, children first (the objects they hold made already).
    #[inline(always)]
    fn arrays<'a>(&mut self, source: &impl RequestSource<'a>) {
        for &id in source.arrays_children_first() {
            let (packed, next_free_index, entries) = source.array(u32::from(id));
            let z = zvals::new_array(entries.len(), packed);
            // SAFETY: `z` holds the fresh array just made, of this request, initialised packed or as a
            // hash for `entries.len()` elements: each entry goes into a slot of its own, a packed one in
            // order; a hash's keys were checked distinct.
            unsafe {
                let ht = zvals::table(&z);
                for (i, &(key, slot)) in entries.iter().enumerate() {
                    let value = self.value(source, slot.into());
                    if packed {
                        zvals::push_packed(ht, i as u32, value);
                        continue;
                    }
                    match key {
                        PlainKey::Int(k) => zvals::insert_int(ht, k, value),
                        PlainKey::String(s) => self.with_key(source, s, |key| zvals::append_element(ht, key, value)),
                    }
                }
                // The stored next index, unless it is below the elements (as `packed_array` and
                // `hash_array`; an integer key moved it past that key).
                (*ht).nNextFreeElement = (*ht).nNextFreeElement.max(next_free_index);
            }
            // The table keeps the array's reference.
            match self.arrays.get_mut(usize::from(id)) {
                Some(made) => *made = Ready::from_owned(z),
                None => drop(z),
            }
        }
    }

    /// Gives up the strings' own references (each slot holding one has its own).
    fn release_strings(&mut self, count: usize) {
        for made in self.strings.iter().take(count).filter(|made| !made.is_undef()) {
            // SAFETY: the table's reference to a string made here, given back once.
            drop(unsafe { made.into_zval() });
        }
    }
}

/// [`Blueprint::request_copy`] of a checked plain tree: ordinary refcounted arrays and strings, the
/// arrays made children first as [`immutable_tree`] makes them.
fn request_tree(tree: &PlainTree<'_>) -> zval {
    let mut made = RequestMade::<{ plain_tree::MAX_STRINGS }, { plain_tree::MAX_ARRAYS }, 0>::new();
    made.arrays(tree);
    made.release_strings(tree.string_count());
    made.value(tree, SmallSlot::Array(tree.root()))
}

/// [`Blueprint::request_copy`] of a checked small graph whose objects are all `stdClass` with dynamic
/// properties only (`None`, with nothing made, for any other): the value `zval_out::materialise` makes of
/// its blueprint, made without one. `stdClass` is always declared, restores through no hook and takes
/// every property as a dynamic one, in stored order, under its stored name (as
/// `zval_out::Run::write_properties` writes a class without declared slots). Objects of other classes
/// need the class resolved (an autoloader may run), their properties matched to its slots and typed, and
/// hooks ordered: their first read builds a blueprint in request-heap mode ([`Blueprint::fill_small`]),
/// which `zval_out` materialises, so those rules live in one place.
fn request_small(graph: &SmallGraph<'_>) -> Option<zval> {
    let std_class = |id: u32| {
        let shape = graph.shape(id);
        graph.property_names(shape).is_empty() && graph.string(shape.class_name).0.eq_ignore_ascii_case(b"stdClass")
    };
    if !(0..graph.shape_count() as u32).all(std_class) {
        return None;
    }
    let mut made =
        RequestMade::<{ small_graph::MAX_STRINGS }, { small_graph::MAX_NODES }, { small_graph::MAX_NODES }>::new();
    // Every object first (arrays and objects hold them), remembered apart: each is filled after the
    // arrays are made, when its holder may have taken the table's reference.
    let mut made_objects = [ptr::null_mut::<zend_object>(); small_graph::MAX_NODES];
    for (id, (held, object)) in made.objects.iter_mut().zip(&mut made_objects).take(graph.object_count()).enumerate() {
        let mut z = zval::new();
        // SAFETY: `stdClass` is registered by the engine; object_init_ex runs no userland code (no
        // constructor) and writes a new object into `z` (it cannot fail for `stdClass`, which can
        // always be instantiated; checked all the same).
        if unsafe { ffi::object_init_ex(&raw mut z, ffi::zend_standard_class_def) } != 0
            || zvals::type_of(&z) != ffi::IS_OBJECT
        {
            for held in made.objects.iter().take(id) {
                // SAFETY: the table's reference to an object made here (no property yet).
                drop(unsafe { held.into_zval() });
            }
            return None;
        }
        // SAFETY: an object zval.
        *object = unsafe { z.value.obj };
        *held = Ready::from_owned(z);
    }
    made.arrays(graph);
    for (id, &obj) in made_objects.iter().take(graph.object_count()).enumerate() {
        let object = graph.object(id as u32);
        if graph.dynamic(object).len() == 0 {
            continue;
        }
        // SAFETY: a live object made above, private to this call; the engine builds its property table
        // on demand, and the table takes each value and a reference to each name (`insert_zstr`: a name
        // stored twice in a crafted buffer replaces the first, as `Run::write_properties` does).
        let table = unsafe { ffi::zend_std_get_properties(obj) };
        for (name, slot) in graph.dynamic(object) {
            let value = made.value(graph, slot);
            // SAFETY: as above.
            made.with_key(graph, name, |key| unsafe { zvals::insert_zstr(table, key, value) });
        }
    }
    made.release_strings(graph.string_count());
    Some(made.value(graph, graph.root()))
}

/// What [`Blueprint::fill_small`] made so far: per string id, and per array id its cell; and the mode.
struct SmallMade {
    strings: [Option<Ready>; small_graph::MAX_STRINGS],
    arrays: [Cell; small_graph::MAX_NODES],
    mode: Mode,
}

/// Builds a blueprint from a checked graph.
struct Builder<'c, 'a, 'b> {
    checked: &'c CheckedGraph<'a>,
    mode: Mode,
    bp: &'b mut Blueprint,
    /// Per string id (`work.strings`) and per array id (`work.arrays`), once made; lists for the
    /// entries of one array at a time.
    work: Box<BuildWork>,
    /// Strings the builder adds (keys and texts of internal-state arguments), by content.
    /// Made on first use: most values have none, and a new map draws a random seed.
    extra_strings: Option<HashMap<Vec<u8>, Ready>>,
    /// Per array id: plain (`CheckedGraph::plain_arrays`), in shared mode only.
    plain: &'c [bool],
}

/// Vectors a build uses, kept per thread from one build to the next (emptied), so that building a
/// small value allocates only what the blueprint keeps.
#[derive(Default)]
struct BuildWork {
    strings: Vec<Option<Ready>>,
    arrays: Vec<Option<Cell>>,
    entries: Vec<(Key, Cell)>,
    slots: Vec<Ready>,
    pairs: Vec<(ImmutableKey, Ready)>,
}

/// Largest number of elements a thread keeps in one of its spare build lists.
const BUILD_WORK_KEPT: usize = 4096;

thread_local! {
    static SPARE_BUILD_WORK: Spare<BuildWork> = const { Spare::new(None) };
}

impl BuildWork {
    /// The thread's spare lists (or new ones), `strings` and `arrays` sized for `strings` and `arrays`
    /// ids, all unset.
    fn take(strings: usize, arrays: usize) -> Box<BuildWork> {
        let mut work = scratch::take(&SPARE_BUILD_WORK);
        work.strings.resize(strings, None);
        work.arrays.resize(arrays, None);
        work
    }
}

impl Scratch for BuildWork {
    fn worth_keeping(&self) -> bool {
        [
            self.strings.capacity(),
            self.arrays.capacity(),
            self.entries.capacity(),
            self.slots.capacity(),
            self.pairs.capacity(),
        ]
        .iter()
        .all(|&capacity| capacity <= BUILD_WORK_KEPT)
    }

    fn clear(&mut self) {
        self.strings.clear();
        self.arrays.clear();
        self.entries.clear();
        self.slots.clear();
        self.pairs.clear();
    }
}

fn corrupt<T>(_: T) -> DecodeError {
    DecodeError::Corrupted
}

/// An immutable packed array of `slots` (holes `Ready::UNDEF`) in `arena`. Its next index is the stored
/// one where that is above what the elements imply, never below (as `zval_out` restores a planned
/// array), so `$a[] = …` cannot hit an existing key whatever the stored bytes say.
fn packed_array(arena: &mut ImmutableArena, slots: &[Ready], next_free: i64) -> Ready {
    let implied_next = slots.iter().rposition(|slot| !slot.is_undef()).map_or(i64::MIN, |last| last as i64 + 1);
    immutable::array_value(arena.packed(slots, next_free.max(implied_next)))
}

/// An immutable hash array of `pairs` in `arena`, its next index as for [`packed_array`]: an integer key
/// moves it past that key (the engine's rule, at most to the largest integer).
fn hash_array(arena: &mut ImmutableArena, pairs: &[(ImmutableKey, Ready)], next_free: i64) -> Ready {
    let implied_next = pairs
        .iter()
        .filter_map(|(key, _)| match *key {
            ImmutableKey::Int(i) => Some(i.saturating_add(1)),
            ImmutableKey::Str(_) => None,
        })
        .fold(i64::MIN, i64::max);
    immutable::array_value(arena.hash(pairs, next_free.max(implied_next)))
}

impl<'c, 'a, 'b> Builder<'c, 'a, 'b> {
    fn new(checked: &'c CheckedGraph<'a>, mode: Mode, bp: &'b mut Blueprint) -> Self {
        let plain = match mode {
            Mode::Shared => checked.plain_arrays(),
            Mode::RequestHeap => &[],
        };
        Builder {
            checked,
            mode,
            bp,
            work: BuildWork::take(checked.string_count(), checked.array_count()),
            extra_strings: None,
            plain,
        }
    }

    fn run(mut self) -> Result<(), DecodeError> {
        for id in 0..self.checked.shape_count() {
            let shape = self.checked.shape(ShapeId(id as u32)).map_err(corrupt)?;
            let properties =
                shape.properties.iter().map(|(name, _)| self.graph_string(name.id, name.bytes, name.hash)).collect();
            let name = shape.class_name;
            let name_value = self.graph_string(name.id, name.bytes, name.hash);
            let lookup = class_lookup_valid(name.bytes)
                .then(|| (name_value, self.bp.lower_name(name.bytes, name_value, self.mode)));
            self.bp.shapes.push(Shape {
                class_name_value: name_value,
                lookup,
                properties,
                restored_plain: false,
                restored_with_wakeup: false,
            });
        }
        for id in 0..self.checked.enum_case_count() {
            let (class, case) = self.checked.enum_case(graph_codec::EnumCaseId(id as u32)).map_err(corrupt)?;
            self.bp.enum_cases.push((class.bytes.into(), case.bytes.into()));
        }
        for &id in self.checked.arrays_children_first() {
            self.resolve_array(id as usize)?;
        }
        for id in 0..self.checked.reference_count() {
            let value = self.checked.reference(ReferenceId(id as u32)).map_err(corrupt)?;
            let cell = self.cell(value)?;
            self.bp.references.push(cell);
        }
        for id in 0..self.checked.object_count() {
            let plan = self.object(ObjectId(id as u32))?;
            self.bp.objects.push(plan);
        }
        let root = self.checked.root().map_err(corrupt)?;
        self.bp.root = self.cell(root)?;
        for object in &self.bp.objects {
            let Some(shape) = self.bp.shapes.get_mut(object.shape as usize) else { continue };
            match object.restore {
                RestorePlan::Properties => shape.restored_plain = true,
                RestorePlan::PropertiesThenWakeup => shape.restored_with_wakeup = true,
                _ => {}
            }
        }
        if self
            .bp
            .objects
            .iter()
            .any(|o| matches!(o.restore, RestorePlan::PropertiesThenWakeup | RestorePlan::Unserialize(_)))
        {
            self.bp.hook_order = self
                .bp
                .post_order(|o| matches!(o.restore, RestorePlan::PropertiesThenWakeup | RestorePlan::Unserialize(_)));
        }
        scratch::give_back(&SPARE_BUILD_WORK, self.work);
        Ok(())
    }

    fn graph_string(&mut self, id: StringId, bytes: &[u8], hash: u64) -> Ready {
        if let Some(ready) = self.work.strings[id.index()] {
            return ready;
        }
        let ready = self.bp.string(bytes, Some(hash), self.mode);
        self.work.strings[id.index()] = Some(ready);
        ready
    }

    /// An array key: in shared mode the thread's shared string of it (`immutable::shared_key`), which
    /// takes no memory in this copy, else (or past what the thread shares) [`Builder::graph_string`].
    fn key_string(&mut self, id: StringId, bytes: &[u8], hash: u64) -> Ready {
        if self.mode == Mode::Shared {
            if let Some(shared) = immutable::shared_key(bytes, hash) {
                return immutable::string_value(shared);
            }
        }
        self.graph_string(id, bytes, hash)
    }

    fn extra_string(&mut self, bytes: &[u8]) -> Ready {
        if let Some(&ready) = self.extra_strings.as_ref().and_then(|strings| strings.get(bytes)) {
            return ready;
        }
        let ready = self.bp.string(bytes, None, self.mode);
        self.extra_strings.get_or_insert_with(HashMap::new).insert(bytes.to_vec(), ready);
        ready
    }

    /// The cell of a slot; arrays must already be resolved.
    fn cell(&mut self, slot: CheckedSlot<'a>) -> Result<Cell, DecodeError> {
        Ok(match slot {
            CheckedSlot::Undef => Cell::UNDEF,
            CheckedSlot::Null => Cell::Ready(Ready::NULL),
            CheckedSlot::Bool(b) => Cell::Ready(Ready::bool(b)),
            CheckedSlot::Int(i) => Cell::Ready(Ready::long(i)),
            CheckedSlot::Float(f) => Cell::Ready(Ready::double(f)),
            CheckedSlot::String(s) => Cell::Ready(self.graph_string(s.id, s.bytes, s.hash)),
            CheckedSlot::Array(id) => {
                self.work.arrays.get(id.index()).copied().flatten().ok_or(DecodeError::Corrupted)?
            }
            CheckedSlot::Object(id) => Cell::Object(id.0),
            CheckedSlot::Reference(id) => Cell::Reference(id.0),
            CheckedSlot::EnumCase(id) => Cell::EnumCase(id.0),
        })
    }

    /// Resolves array `id`; the arrays it contains come before it in `arrays_children_first`, so
    /// they are resolved (a cell naming one that is not is corrupt).
    fn resolve_array(&mut self, id: usize) -> Result<(), DecodeError> {
        let array = self.checked.array(ArrayId(id as u32)).map_err(corrupt)?;
        let mut entries = std::mem::take(&mut self.work.entries);
        entries.clear();
        for i in 0..array.len() {
            let (key, value) = array.entry(i).map_err(corrupt)?;
            let key = match key {
                CheckedKey::Int(k) => Key::Int(k),
                CheckedKey::String(s) => Key::Str(self.key_string(s.id, s.bytes, s.hash)),
            };
            entries.push((key, self.cell(value)?));
        }
        let cell = if self.plain.get(id).copied().unwrap_or(false) {
            Cell::Ready(self.immutable_array(array.is_packed(), &entries, array.next_free_index()))
        } else {
            self.plan_array(array.is_packed(), &entries, array.next_free_index())
        };
        self.work.entries = entries;
        let resolved = self.work.arrays.get_mut(id).ok_or(DecodeError::Corrupted)?;
        *resolved = Some(cell);
        Ok(())
    }

    /// An immutable array of ready entries ([`packed_array`], [`hash_array`]).
    fn immutable_array(&mut self, packed: bool, entries: &[(Key, Cell)], next_free: i64) -> Ready {
        let ready = |cell: &Cell| match cell {
            Cell::Ready(r) => *r,
            // Plain arrays hold only ready values (checked by `plain_arrays`).
            _ => Ready::NULL,
        };
        if packed {
            let mut slots = std::mem::take(&mut self.work.slots);
            slots.clear();
            slots.extend(entries.iter().map(|(_, c)| ready(c)));
            let made = packed_array(&mut self.bp.arena, &slots, next_free);
            self.work.slots = slots;
            made
        } else {
            let mut pairs = std::mem::take(&mut self.work.pairs);
            pairs.clear();
            pairs.extend(entries.iter().map(|(k, c)| {
                let key = match *k {
                    Key::Int(i) => ImmutableKey::Int(i),
                    Key::Str(s) => ImmutableKey::Str(s.as_string()),
                };
                (key, ready(c))
            }));
            let made = hash_array(&mut self.bp.arena, &pairs, next_free);
            self.work.pairs = pairs;
            made
        }
    }

    fn plan_array(&mut self, packed: bool, entries: &[(Key, Cell)], next_free: i64) -> Cell {
        let span = if packed {
            self.bp.push_cells(entries.iter().map(|&(_, c)| c))
        } else {
            self.bp.push_entries(entries.iter().copied())
        };
        self.bp.arrays.push(ArrayPlan { packed, next_free, span });
        Cell::Array(self.bp.arrays.len() as u32 - 1)
    }

    fn object(&mut self, id: ObjectId) -> Result<ObjectPlan, DecodeError> {
        let object = self.checked.object(id).map_err(corrupt)?;
        let mut declared = Vec::with_capacity(object.declared_len() as usize);
        for i in 0..object.declared_len() {
            declared.push(self.cell(object.declared(i).map_err(corrupt)?)?);
        }
        let mut dynamic = Vec::with_capacity(object.dynamic_len() as usize);
        for i in 0..object.dynamic_len() {
            let (name, value) = object.dynamic(i).map_err(corrupt)?;
            let name = self.graph_string(name.id, name.bytes, name.hash);
            dynamic.push((Key::Str(name), self.cell(value)?));
        }
        let mut self_contained = declared.iter().chain(dynamic.iter().map(|(_, c)| c)).all(Cell::is_ready);
        let restore = match object.state() {
            ObjectStateKind::Properties => RestorePlan::Properties,
            ObjectStateKind::PropertiesThenWakeup => RestorePlan::PropertiesThenWakeup,
            ObjectStateKind::Unserialize => {
                let data = object.unserialize_data().map_err(corrupt)?;
                RestorePlan::Unserialize(self.cell(CheckedSlot::Array(data))?)
            }
            ObjectStateKind::Internal => {
                let state = object.internal_state().map_err(corrupt)?;
                let family = state.family();
                let state = state.try_map_values(|slot| self.cell(slot))?;
                let plan = match internal_state::restore(state).map_err(|_| DecodeError::Corrupted)? {
                    Restore::Unserialize(argument) => StatePlan::Unserialize(self.argument(argument)),
                    Restore::Heap { elements, extract_flags, heap_flags } => {
                        self_contained &= elements.iter().all(Cell::is_ready);
                        StatePlan::Heap { elements: self.bp.push_cells(elements), extract_flags, heap_flags }
                    }
                };
                if let StatePlan::Unserialize(argument) = &plan {
                    self_contained &= argument.is_ready();
                }
                RestorePlan::Internal(family, plan)
            }
        };
        Ok(ObjectPlan {
            shape: object.shape().0,
            restore,
            declared: self.bp.push_cells(declared),
            dynamic: self.bp.push_entries(dynamic),
            self_contained,
        })
    }

    /// The cell of an internal class's `__unserialize()` argument: immutable when it holds only ready
    /// values, else planned.
    fn argument(&mut self, argument: Arg<'_, Cell>) -> Cell {
        match argument {
            Arg::Null => Cell::Ready(Ready::NULL),
            Arg::Bool(b) => Cell::Ready(Ready::bool(b)),
            Arg::Long(i) => Cell::Ready(Ready::long(i)),
            Arg::Double(f) => Cell::Ready(Ready::double(f)),
            Arg::Bytes(bytes) => Cell::Ready(self.extra_string(&bytes)),
            Arg::Value(cell) => cell,
            Arg::List(items) => {
                let entries: Vec<(Key, Cell)> =
                    items.into_iter().enumerate().map(|(i, item)| (Key::Int(i as i64), self.argument(item))).collect();
                self.argument_array(true, entries)
            }
            Arg::Map(items) => {
                let entries: Vec<(Key, Cell)> = items
                    .into_iter()
                    .map(|(key, item)| (Key::Str(self.extra_string(key)), self.argument(item)))
                    .collect();
                self.argument_array(false, entries)
            }
        }
    }

    fn argument_array(&mut self, packed: bool, entries: Vec<(Key, Cell)>) -> Cell {
        let next_free = if packed { entries.len() as i64 } else { i64::MIN };
        if self.mode == Mode::Shared && entries.iter().all(|(_, c)| c.is_ready()) {
            return Cell::Ready(self.immutable_array(packed, &entries, next_free));
        }
        self.plan_array(packed, &entries, next_free)
    }
}
