//! A one-pass check of a small tree of object-free arrays, the common value a reader builds on its first
//! read of a version (spec §7.2): [`PlainTree::check`] reads every string, every record and every slot
//! once, with the rules [`CheckedGraph::check`](crate::CheckedGraph::check) applies to such a buffer, and
//! keeps what a builder needs (the strings, each array's entries, the arrays children first) in fixed
//! tables, with no allocation and none of the general check's per-record tables.
//!
//! It answers only for what it is made for: a `SharedGraph` buffer whose header says it holds nothing but
//! scalars, strings and arrays, none of them shared, within [`MAX_STRINGS`] strings, [`MAX_ARRAYS`] arrays
//! and [`MAX_ENTRIES`] entries in all, every record an array reachable from the root array. For anything
//! else, and for any buffer the general check would reject, it answers `None`, and the caller runs the
//! general check, which decides (and names the error). So a buffer it accepts is one the general check
//! accepts, read as that check's model reads it.

use crate::layout::{self, flags, header, tag, RecordKind, SLOT_LEN};
use crate::php_key::integer_key;
use crate::tier::StoreTier;
use crate::view::GraphView;

/// Most strings a plain tree may hold.
pub const MAX_STRINGS: usize = 32;
/// Most arrays a plain tree may hold (so its depth is at most this).
pub const MAX_ARRAYS: usize = 8;
/// Most entries (packed slots, holes included, and hash entries) of all its arrays together.
pub const MAX_ENTRIES: usize = 48;

/// An odd constant (2^64 / golden ratio) whose product with a key's word has its top bits well mixed.
const KEY_MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// A value slot of a plain tree. Strings and arrays are named by their position in storage order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlainSlot {
    /// A hole of a packed array (nowhere else).
    Undef,
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(u32),
    Array(u32),
}

/// A key of a hash array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlainKey {
    Int(i64),
    String(u32),
}

/// An array of a plain tree.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlainArray {
    pub packed: bool,
    /// The stored next free index (`nNextFreeElement`).
    pub next_free_index: i64,
    start: u8,
    len: u8,
}

/// A checked plain tree (see the module documentation).
pub struct PlainTree<'a> {
    strings: StringTable<'a>,
    /// Bit per string: a slot holds it as a value (not only as a key).
    value_strings: u32,
    /// The string after the last one a slot named (see [`PlainTree::slot`]).
    next_string: u32,
    array_count: usize,
    array_offsets: [u64; MAX_ARRAYS],
    arrays: [PlainArray; MAX_ARRAYS],
    /// Array ids, each after every array it holds.
    order: [u8; MAX_ARRAYS],
    entries: [(PlainKey, PlainSlot); MAX_ENTRIES],
    entry_count: usize,
    root: u32,
}

/// The little-endian word at `at` of `bytes` (`None` past the end).
#[inline(always)]
pub(crate) fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at.checked_add(8)?)?.try_into().ok()?))
}

/// The string record at `at` of `section` (the string section, from a record start): its length, its
/// hash (the stored one, which must be the one PHP computes, or computed for a string stored without) and
/// the record's length; `None` where the record breaks a rule of `GraphView::string_record_checked` (it
/// must fit the section, with its NUL terminator and zero padding).
#[inline(always)]
fn string_record(section: &[u8], at: usize) -> Option<(u32, u64, usize)> {
    let (stored, len) = (word_at(section, at)?, word_at(section, at.checked_add(8)?)?);
    let record_len = usize::try_from(layout::string_record_len(len)?).ok()?;
    let record = section.get(at..at.checked_add(record_len)?)?;
    let len = usize::try_from(len).ok()?;
    // The NUL and the padding, 1 to 8 zero bytes, are the top bytes of the record's last word, which
    // lies past the record's fixed part (a record holds at least one word after it): one test of that
    // word.
    let zeros = (record_len - layout::STRING_FIXED_LEN).checked_sub(len)?;
    let last = word_at(record, record_len.checked_sub(8)?)?;
    if !(1..=8).contains(&zeros) || last >> (64 - 8 * zeros) != 0 {
        return None;
    }
    let bytes = record.get(layout::STRING_FIXED_LEN..layout::STRING_FIXED_LEN + len)?;
    let hash = crate::php_hash::zend_string_hash(bytes);
    (stored == 0 || stored == hash).then_some((u32::try_from(len).ok()?, hash, record_len))
}

/// The strings of a small buffer, each record checked as the general check's scan reads it (terminator,
/// padding, stored hash), by position. Its tables hold offsets, lengths and hashes (all zero when empty),
/// so that an empty table costs one fill of zeros, not a loop writing slices.
pub(crate) struct StringTable<'a> {
    buf: &'a [u8],
    count: usize,
    offsets: [u64; MAX_STRINGS],
    lens: [u32; MAX_STRINGS],
    hashes: [u64; MAX_STRINGS],
}

impl<'a> StringTable<'a> {
    /// An empty table (written in place by the caller: a constant would be copied from static memory).
    #[inline(always)]
    pub(crate) fn new() -> Self {
        StringTable { buf: &[], count: 0, offsets: [0; MAX_STRINGS], lens: [0; MAX_STRINGS], hashes: [0; MAX_STRINGS] }
    }

    /// Reads every string record of `view`'s string section into this empty table: `None` where a record
    /// breaks a rule, there are more than the table holds, or their number is not the header's.
    pub(crate) fn read(&mut self, view: &GraphView<'a>) -> Option<()> {
        let h = view.header();
        let start = usize::try_from(h.strings_offset).ok()?;
        self.buf = view.bytes();
        let section = self.buf.get(start..start.checked_add(usize::try_from(h.strings_len).ok()?)?)?;
        let most = (h.string_count as usize).min(MAX_STRINGS);
        let (mut at, mut n) = (0usize, 0usize);
        while at < section.len() {
            if n >= most {
                return None;
            }
            let (len, hash, record_len) = string_record(section, at)?;
            *self.offsets.get_mut(n)? = (start + at) as u64;
            *self.lens.get_mut(n)? = len;
            *self.hashes.get_mut(n)? = hash;
            n += 1;
            at += record_len;
        }
        self.count = n;
        (n == h.string_count as usize).then_some(())
    }

    /// Number of strings.
    #[inline]
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// String `id`: its bytes and PHP hash (`None` past the strings).
    #[inline]
    pub(crate) fn get(&self, id: u32) -> Option<(&'a [u8], u64)> {
        let id = id as usize;
        if id >= self.count {
            return None;
        }
        let at = usize::try_from(*self.offsets.get(id)?).ok()? + layout::STRING_FIXED_LEN;
        let bytes = self.buf.get(at..at.checked_add(*self.lens.get(id)? as usize)?)?;
        Some((bytes, *self.hashes.get(id)?))
    }

    /// String `id`'s PHP hash (`None` past the strings).
    #[inline]
    pub(crate) fn hash(&self, id: u32) -> Option<u64> {
        self.hashes.get(..self.count)?.get(id as usize).copied()
    }

    /// The offset of string `id`'s record (`None` past the strings).
    #[inline]
    pub(crate) fn offset(&self, id: u32) -> Option<u64> {
        self.offsets.get(..self.count)?.get(id as usize).copied()
    }

    /// The id of the string whose record starts at `offset`.
    #[inline]
    pub(crate) fn id_at(&self, offset: u64) -> Option<u32> {
        self.offsets.get(..self.count)?.binary_search(&offset).ok().map(|at| at as u32)
    }
}

/// A key's word, equal for equal keys: an integer key's value, a string key's PHP hash (`None` where a
/// string id is out of range).
#[inline(always)]
fn key_word(key: PlainKey, strings: &StringTable<'_>) -> Option<u64> {
    match key {
        PlainKey::Int(i) => Some(i as u64),
        PlainKey::String(s) => strings.hash(s),
    }
}

/// Whether the keys of one hash array (`entries`, with `strings` the tree's strings) name a key
/// twice, as the general check refuses (`CheckedGraph::repeats_a_key`): pair by pair, a small tree's
/// arrays being small, each key reduced to a word (an integer key's value, a string key's PHP hash) and
/// keys compared only where their words agree. `None` where a string id is out of range.
pub(crate) fn repeats_a_key<V>(entries: &[(PlainKey, V)], strings: &StringTable<'_>) -> Option<bool> {
    let word = |key: PlainKey| key_word(key, strings);
    for (i, &(a, _)) in entries.iter().enumerate() {
        let a_word = word(a)?;
        for &(b, _) in entries.get(i + 1..)? {
            if word(b)? != a_word {
                continue;
            }
            // Equal words: one key, two strings of one hash, or an integer equal to a string's hash.
            let same = match (a, b) {
                (PlainKey::Int(_), PlainKey::Int(_)) => true,
                (PlainKey::String(x), PlainKey::String(y)) => x == y || strings.get(x)?.0 == strings.get(y)?.0,
                _ => false,
            };
            if same {
                return Some(true);
            }
        }
    }
    Some(false)
}

/// The little-endian 4-byte word at `at` of a header, read as it is (`None` past the end).
pub(crate) fn header_u32(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_le_bytes(bytes.get(at..at.checked_add(4)?)?.try_into().ok()?)))
}

/// Whether `bytes` may be a plain tree, from the tier, flags and counts its header states, read as they
/// are, without the header's other checks: a hint for a reader choosing how to build a value, before
/// [`PlainTree::check`], which checks the whole buffer and decides (a buffer this accepts may still be
/// refused there).
pub fn may_be_plain(bytes: &[u8]) -> bool {
    let word = |at: usize| header_u32(bytes, at);
    bytes.get(header::TIER).copied().and_then(StoreTier::from_byte) == Some(StoreTier::SharedGraph)
        && word(header::FLAGS) == Some(u64::from(flags::of(false, false, false, false)))
        && word(header::STRING_COUNT).is_some_and(|n| n <= MAX_STRINGS as u64)
        && word(header::RECORD_COUNT).is_some_and(|n| n <= MAX_ARRAYS as u64)
}

/// [`may_be_plain`], with records no longer than its arrays take holding [`MAX_ENTRIES`] packed slots in
/// all: a hint that errs towards `false` (a tree of hash arrays with more than half as many entries is
/// refused here, though the check would accept it), for a reader whose other way of building a value the
/// check refuses costs more than the way it takes for a value this refuses.
pub fn likely_plain(bytes: &[u8]) -> bool {
    let most = |arrays: u64| arrays * layout::ARRAY_FIXED_LEN as u64 + (MAX_ENTRIES * SLOT_LEN) as u64;
    may_be_plain(bytes)
        && header_u32(bytes, header::RECORD_COUNT)
            .zip(word_at(bytes, header::RECORDS_LEN))
            .is_some_and(|(arrays, len)| len <= most(arrays))
}

impl<'a> PlainTree<'a> {
    /// What `build` makes of `bytes` checked as a plain tree, or `None` (not one, or not valid: see the
    /// module documentation). The tree lives in this call's frame: its tables are not moved.
    pub fn check<R>(bytes: &'a [u8], build: impl FnOnce(&PlainTree<'a>) -> R) -> Option<R> {
        if !may_be_plain(bytes) {
            return None;
        }
        let view = GraphView::new(bytes).ok()?;
        let mut tree = PlainTree {
            strings: StringTable::new(),
            value_strings: 0,
            next_string: 0,
            array_count: 0,
            array_offsets: [0; MAX_ARRAYS],
            arrays: [PlainArray::default(); MAX_ARRAYS],
            order: [0; MAX_ARRAYS],
            entries: [(PlainKey::Int(0), PlainSlot::Undef); MAX_ENTRIES],
            entry_count: 0,
            root: 0,
        };
        tree.read(view)?;
        Some(build(&tree))
    }

    /// Fills this empty tree from `view` (its header already checked against the limits): `None` where
    /// the buffer is not a valid plain tree.
    fn read(&mut self, view: GraphView<'a>) -> Option<()> {
        let tree = self;
        let h = *view.header();
        tree.strings.read(&view)?;
        // Every record, each an array (any other kind: the general check decides).
        let mut at = h.records_offset;
        while at < h.records_offset + h.records_len {
            let n = tree.array_count;
            if n >= h.record_count as usize {
                return None;
            }
            let (kind, len) = view.record_len_at(at).ok()?;
            view.check_in_records(at, len).ok()?;
            if !matches!(kind, RecordKind::PackedArray | RecordKind::HashArray) {
                return None;
            }
            *tree.array_offsets.get_mut(n)? = at;
            tree.array_count += 1;
            at += len;
        }
        if tree.array_count != h.record_count as usize {
            return None;
        }
        let root_slot = view.bytes().get(header::ROOT_SLOT..header::ROOT_SLOT + SLOT_LEN)?;
        let PlainSlot::Array(root) = tree.slot(root_slot)? else {
            return None;
        };
        tree.root = root;
        let mut visited = 0usize;
        let mut ordered = 0usize;
        let height = tree.visit(&view, root, &mut visited, &mut ordered)?;
        // Every record reached once from the root: each has one incoming edge, so none is shared (each
        // array's flag was checked clear), and no array holds itself.
        (ordered == tree.array_count && height == h.depth).then_some(())
    }

    /// The slot of the 16 bytes `slot` (read where a caller checked they lie), its target found among
    /// the strings or arrays (`None`: not a plain slot, or not valid).
    #[inline(always)]
    fn slot(&mut self, slot: &[u8]) -> Option<PlainSlot> {
        let (head, payload) = (word_at(slot, 0)?, word_at(slot, 8)?);
        // The tag's byte, then reserved zero bytes (`GraphView::slot_word`).
        if head >> 8 != 0 {
            return None;
        }
        Some(match head as u8 {
            tag::UNDEF if payload == 0 => PlainSlot::Undef,
            tag::NULL if payload == 0 => PlainSlot::Null,
            tag::FALSE if payload == 0 => PlainSlot::Bool(false),
            tag::TRUE if payload == 0 => PlainSlot::Bool(true),
            tag::INT => PlainSlot::Int(payload as i64),
            tag::FLOAT => PlainSlot::Float(f64::from_bits(payload)),
            tag::STRING => {
                // Slots name strings mostly in storage order (the writer stores a string where its
                // walk first meets it, and the check walks as it does): the string after the last one
                // named is tried before the search.
                let id = match self.strings.offset(self.next_string) {
                    Some(next) if next == payload => self.next_string,
                    _ => self.strings.id_at(payload)?,
                };
                self.next_string = id + 1;
                PlainSlot::String(id)
            }
            tag::ARRAY => {
                let arrays = self.array_offsets.get(..self.array_count)?;
                PlainSlot::Array(arrays.binary_search(&payload).ok()? as u32)
            }
            _ => return None,
        })
    }

    /// Checks array `id` and the arrays it holds, keeping their entries; `visited` bits mark the arrays
    /// met, `ordered` counts those placed in [`PlainTree::order`]. Returns the array's height (1 for an
    /// array that holds no array). Recursion is bounded by [`MAX_ARRAYS`] (each array is entered once).
    fn visit(&mut self, view: &GraphView<'a>, id: u32, visited: &mut usize, ordered: &mut usize) -> Option<u32> {
        let bit = 1usize << id;
        if *visited & bit != 0 {
            return None;
        }
        *visited |= bit;
        let array = view.array_at(*self.array_offsets.get(id as usize)?).ok()?;
        if array.is_shared {
            return None;
        }
        let start = self.entry_count;
        let len = usize::try_from(array.len).ok()?;
        if len > MAX_ENTRIES - start {
            return None;
        }
        self.entry_count += len;
        // The array's slots or entries, which `array_at` found within the records: read in place.
        let item_len = if array.is_packed { SLOT_LEN } else { layout::HASH_ENTRY_LEN };
        let body_start = usize::try_from(array.offset).ok()?.checked_add(layout::ARRAY_FIXED_LEN)?;
        let body = view.bytes().get(body_start..body_start.checked_add(len.checked_mul(item_len)?)?)?;
        let mut present = 0u64;
        let mut below = 0u32;
        // Two bits per hash key's word ([`key_word`]), mixed: equal keys have equal words, so keys are
        // compared pair by pair (`repeats_a_key`) only when a key finds both its bits set already.
        let (mut key_bits, mut maybe_repeated) = (0u64, false);
        for (i, item) in body.chunks_exact(item_len).enumerate() {
            let (key, value) = if array.is_packed {
                (PlainKey::Int(i as i64), self.slot(item)?)
            } else {
                let (key_slot, value_slot) = item.split_at_checked(SLOT_LEN)?;
                let key = match self.slot(key_slot)? {
                    PlainSlot::Int(k) => PlainKey::Int(k),
                    // A key PHP would store as an integer is read as one, as the general check reads it.
                    PlainSlot::String(s) => {
                        integer_key(self.strings.get(s)?.0).map_or(PlainKey::String(s), PlainKey::Int)
                    }
                    _ => return None,
                };
                let mixed = key_word(key, &self.strings)?.wrapping_mul(KEY_MIX);
                let bits = 1u64 << (mixed >> 58) | 1u64 << (mixed >> 52 & 63);
                maybe_repeated |= key_bits & bits == bits;
                key_bits |= bits;
                match self.slot(value_slot)? {
                    PlainSlot::Undef => return None,
                    value => (key, value),
                }
            };
            match value {
                PlainSlot::Undef => {}
                PlainSlot::String(s) => {
                    self.value_strings |= 1u32.checked_shl(s)?;
                    present += 1;
                }
                PlainSlot::Array(child) => {
                    below = below.max(self.visit(view, child, visited, ordered)?);
                    present += 1;
                }
                _ => present += 1,
            }
            *self.entries.get_mut(start + i)? = (key, value);
        }
        let count = if array.is_packed { array.packed_element_count } else { array.len };
        if present != count {
            return None;
        }
        if maybe_repeated && repeats_a_key(self.entries.get(start..start + len)?, &self.strings)? {
            return None;
        }
        *self.arrays.get_mut(id as usize)? = PlainArray {
            packed: array.is_packed,
            next_free_index: array.next_free_index,
            start: start as u8,
            len: len as u8,
        };
        *self.order.get_mut(*ordered)? = id as u8;
        *ordered += 1;
        Some(below + 1)
    }

    /// Number of strings.
    pub fn string_count(&self) -> usize {
        self.strings.count()
    }

    /// String `id`: its bytes and PHP hash.
    #[inline]
    pub fn string(&self, id: u32) -> (&'a [u8], u64) {
        self.strings.get(id).unwrap_or((&[], 0))
    }

    /// Whether a slot holds string `id` as a value (not only as an array key).
    pub fn is_value_string(&self, id: u32) -> bool {
        self.value_strings.checked_shr(id).is_some_and(|bits| bits & 1 != 0)
    }

    /// Number of arrays.
    pub fn array_count(&self) -> usize {
        self.array_count
    }

    /// Array `id`.
    pub fn array(&self, id: u32) -> PlainArray {
        self.arrays.get(id as usize).copied().unwrap_or_default()
    }

    /// The entries of `array` in stored order: packed, (index, slot) with holes as `Undef`; hash,
    /// (key, value).
    pub fn entries(&self, array: PlainArray) -> &[(PlainKey, PlainSlot)] {
        let start = usize::from(array.start);
        self.entries.get(start..start + usize::from(array.len)).unwrap_or(&[])
    }

    /// Array ids, each after every array it holds (the root last).
    pub fn arrays_children_first(&self) -> &[u8] {
        self.order.get(..self.array_count).unwrap_or(&[])
    }

    /// The root array's id.
    pub fn root(&self) -> u32 {
        self.root
    }
}

// Array ids are bits of one word (`visited`), string ids bits of `value_strings`; entry positions and
// counts fit a byte.
const _: () =
    assert!(MAX_ARRAYS <= usize::BITS as usize && MAX_STRINGS <= u32::BITS as usize && MAX_ENTRIES <= u8::MAX as usize);
