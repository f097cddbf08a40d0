//! Review rv38b of the one-pass check of small plain trees (`PlainTree::check`, the binding's first read
//! of a version): buffers written byte by byte here, not by the encoder (header counts against the
//! records, strings at the section's edges, slots naming the middle of records or records of the other
//! section, packed holes and counts, keys repeated by number or by bytes under two string records, next
//! free indexes at the extremes, depth and shared flags, arrays reached twice, cycles, empty strings,
//! stored hashes, and each of the check's limits and one past it). For every one, what the one pass
//! accepts the general check accepts and reads the same way (strings by number, bytes and hash; entries
//! with floats bit-exactly); what it refuses the general check either refuses too or accepts because it is
//! not a plain tree within the limits (it then reads it instead).

use graph_codec::*;

const UNDEF: u8 = 0;
const NULL: u8 = 1;
const INT: u8 = 4;
const FLOAT: u8 = 5;
const STRING: u8 = 6;
const ARRAY: u8 = 7;

/// A slot to write: a tag and a payload, or a reference to a string or array resolved to its offset.
#[derive(Clone, Copy, Debug)]
enum S {
    Raw(u8, u64),
    Str(usize),
    Arr(usize),
    /// The offset of string `id`'s record plus `delta`, tagged as `tag`.
    StrAt(usize, u64, u8),
    /// Array `id`'s offset plus `delta`, tagged as `tag`.
    ArrAt(usize, u64, u8),
}

fn int(i: i64) -> S {
    S::Raw(INT, i as u64)
}

struct Arr {
    packed: bool,
    shared: bool,
    next_free: i64,
    /// Packed: the stored element count (None: the slots that are not holes).
    count: Option<u64>,
    /// Packed: values (key ignored); hash: key and value.
    entries: Vec<(S, S)>,
}

fn packed(values: Vec<S>) -> Arr {
    let n = values.len() as i64;
    Arr {
        packed: true,
        shared: false,
        next_free: n,
        count: None,
        entries: values.into_iter().map(|v| (S::Raw(0, 0), v)).collect(),
    }
}

fn hash(entries: Vec<(S, S)>) -> Arr {
    Arr { packed: false, shared: false, next_free: i64::MIN, count: None, entries }
}

/// A buffer of `strings` (bytes, and the stored hash: `None` for the one PHP computes, `Some(h)` for `h`)
/// and `arrays` in storage order, its root array `root`, with the header's flags, depth and counts as
/// given (`None`: the right ones for a plain tree of height `depth`).
struct Buf {
    strings: Vec<(Vec<u8>, Option<u64>)>,
    arrays: Vec<Arr>,
    root: S,
    flags: u32,
    depth: u32,
    string_count: Option<u32>,
    record_count: Option<u32>,
}

impl Buf {
    fn new(strings: &[&[u8]], arrays: Vec<Arr>, depth: u32) -> Buf {
        Buf {
            strings: strings.iter().map(|s| (s.to_vec(), None)).collect(),
            arrays,
            root: S::Arr(0),
            flags: flags::IMMUTABLE_ELIGIBLE,
            depth,
            string_count: None,
            record_count: None,
        }
    }

    fn bytes(&self) -> Vec<u8> {
        let mut strings = vec![];
        let mut string_at = vec![];
        for (bytes, stored) in &self.strings {
            string_at.push(80 + strings.len() as u64);
            strings.extend_from_slice(&stored.unwrap_or_else(|| zend_string_hash(bytes)).to_le_bytes());
            strings.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            strings.extend_from_slice(bytes);
            strings.push(0);
            while !strings.len().is_multiple_of(8) {
                strings.push(0);
            }
        }
        let records_offset = 80 + strings.len() as u64;
        let mut array_at = vec![];
        let mut at = records_offset;
        for a in &self.arrays {
            array_at.push(at);
            at += 32 + a.entries.len() as u64 * if a.packed { 16 } else { 32 };
        }
        let slot = |s: S| -> [u8; 16] {
            let (tag, payload) = match s {
                S::Raw(tag, payload) => (tag, payload),
                S::Str(id) => (STRING, string_at[id]),
                S::Arr(id) => (ARRAY, array_at[id]),
                S::StrAt(id, delta, tag) => (tag, string_at[id] + delta),
                S::ArrAt(id, delta, tag) => (tag, array_at[id] + delta),
            };
            let mut out = [0u8; 16];
            out[0] = tag;
            out[8..].copy_from_slice(&payload.to_le_bytes());
            out
        };
        let mut records = vec![];
        for a in &self.arrays {
            records.push(if a.packed { 3 } else { 4 });
            records.push(u8::from(a.shared));
            records.extend_from_slice(&[0; 6]);
            records.extend_from_slice(&(a.entries.len() as u64).to_le_bytes());
            records.extend_from_slice(&a.next_free.to_le_bytes());
            let present = a.entries.iter().filter(|(_, v)| !matches!(v, S::Raw(UNDEF, 0))).count() as u64;
            records.extend_from_slice(&(if a.packed { a.count.unwrap_or(present) } else { 0 }).to_le_bytes());
            for &(k, v) in &a.entries {
                if !a.packed {
                    records.extend_from_slice(&slot(k));
                }
                records.extend_from_slice(&slot(v));
            }
        }
        let total = records_offset + records.len() as u64;
        let mut out = Vec::with_capacity(total as usize);
        out.extend_from_slice(b"SCGR");
        out.extend_from_slice(&LAYOUT_VERSION.to_le_bytes());
        out.push(2); // SharedGraph
        out.push(0);
        out.extend_from_slice(&self.flags.to_le_bytes());
        out.extend_from_slice(&self.depth.to_le_bytes());
        out.extend_from_slice(&total.to_le_bytes());
        out.extend_from_slice(&self.string_count.unwrap_or(self.strings.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.record_count.unwrap_or(self.arrays.len() as u32).to_le_bytes());
        out.extend_from_slice(&80u64.to_le_bytes());
        out.extend_from_slice(&(strings.len() as u64).to_le_bytes());
        out.extend_from_slice(&records_offset.to_le_bytes());
        out.extend_from_slice(&(records.len() as u64).to_le_bytes());
        out.extend_from_slice(&slot(self.root));
        out.extend_from_slice(&strings);
        out.extend_from_slice(&records);
        assert_eq!(out.len() as u64, total);
        out
    }
}

/// A plain slot of a checked one, floats as their bits.
fn plain_of(slot: CheckedSlot<'_>) -> String {
    match slot {
        CheckedSlot::Undef => "undef".into(),
        CheckedSlot::Null => "null".into(),
        CheckedSlot::Bool(b) => format!("bool {b}"),
        CheckedSlot::Int(i) => format!("int {i}"),
        CheckedSlot::Float(f) => format!("float {:x}", f.to_bits()),
        CheckedSlot::String(s) => format!("string {}", s.id.0),
        CheckedSlot::Array(a) => format!("array {}", a.0),
        other => format!("not plain {other:?}"),
    }
}

fn plain_slot(slot: PlainSlot) -> String {
    match slot {
        PlainSlot::Undef => "undef".into(),
        PlainSlot::Null => "null".into(),
        PlainSlot::Bool(b) => format!("bool {b}"),
        PlainSlot::Int(i) => format!("int {i}"),
        PlainSlot::Float(f) => format!("float {:x}", f.to_bits()),
        PlainSlot::String(s) => format!("string {s}"),
        PlainSlot::Array(a) => format!("array {a}"),
    }
}

/// What a reader sees of a buffer, as text: the root, then per array its kind, next index and entries,
/// then per string its bytes, hash and whether it is a value.
fn read_plain(bytes: &[u8]) -> Option<String> {
    PlainTree::check(bytes, |t| {
        let mut out = format!("root {}\n", t.root());
        for id in 0..t.array_count() as u32 {
            let a = t.array(id);
            out += &format!("array {id} packed {} next {}:", a.packed, a.next_free_index);
            for &(k, v) in t.entries(a) {
                let k = match k {
                    PlainKey::Int(i) => format!("int {i}"),
                    PlainKey::String(s) => format!("string {s}"),
                };
                out += &format!(" [{k} => {}]", plain_slot(v));
            }
            out += "\n";
        }
        for id in 0..t.string_count() as u32 {
            let (b, h) = t.string(id);
            out += &format!("string {id} {:?} {h:x} value {}\n", String::from_utf8_lossy(b), t.is_value_string(id));
        }
        out
    })
}

fn read_checked(bytes: &[u8]) -> Result<String, DecodeError> {
    let c = CheckedGraph::check(bytes)?;
    let CheckedSlot::Array(root) = c.root()? else { return Ok("root not an array".into()) };
    let mut out = format!("root {}\n", root.0);
    for id in 0..c.array_count() as u32 {
        let a = c.array(ArrayId(id))?;
        out += &format!("array {id} packed {} next {}:", a.is_packed(), a.next_free_index());
        for i in 0..a.len() {
            let (k, v) = a.entry(i)?;
            let k = match k {
                CheckedKey::Int(i) => format!("int {i}"),
                CheckedKey::String(s) => format!("string {}", s.id.0),
            };
            out += &format!(" [{k} => {}]", plain_of(v));
        }
        out += "\n";
    }
    for id in 0..c.string_count() as u32 {
        let s = c.string(StringId(id))?;
        out += &format!(
            "string {id} {:?} {:x} value {}\n",
            String::from_utf8_lossy(s.bytes),
            s.hash,
            c.value_strings()[id as usize]
        );
    }
    Ok(out)
}

/// What the one pass answers for `buf` (`Some`: accepted), checked against the general check: an
/// accepted buffer is accepted and read alike by it.
fn one_pass(buf: &Buf) -> Option<String> {
    let bytes = buf.bytes();
    let plain = read_plain(&bytes);
    if let Some(plain) = &plain {
        let checked = read_checked(&bytes).expect("a buffer the one pass accepts passes the general check");
        assert_eq!(plain, &checked, "read as the general check reads it");
    }
    plain
}

/// Asserts the one pass refuses `buf`; returns whether the general check accepts it.
fn refused(buf: &Buf) -> bool {
    assert_eq!(one_pass(buf), None, "the one pass accepts it");
    CheckedGraph::check(&buf.bytes()).is_ok()
}

/// A valid tree: ['k' => [1, hole, 'v'], 'e' => '', 2 => 1.5], strings "k", "v", "e", "".
fn tree() -> Buf {
    let mut inner = packed(vec![int(1), S::Raw(UNDEF, 0), S::Str(1)]);
    inner.next_free = 3;
    let root = hash(vec![(S::Str(0), S::Arr(1)), (S::Str(2), S::Str(3)), (int(2), S::Raw(FLOAT, 1.5f64.to_bits()))]);
    Buf::new(&[b"k", b"v", b"e", b""], vec![root, inner], 2)
}

#[test]
fn a_valid_tree_is_read_as_the_general_check_reads_it() {
    let read = one_pass(&tree()).expect("accepted");
    assert!(read.contains("string 1 \"v\"") && read.contains("[int 2 => float"), "{read}");
}

#[test]
fn header_counts_that_disagree_with_the_sections_are_refused() {
    for (strings, records) in [(Some(3), None), (Some(5), None), (None, Some(1)), (None, Some(3)), (Some(0), Some(0))] {
        let mut buf = tree();
        (buf.string_count, buf.record_count) = (strings, records);
        assert!(!refused(&buf), "{strings:?} {records:?}");
    }
}

#[test]
fn slots_naming_the_middle_of_a_record_or_a_record_of_the_other_section_are_refused() {
    let cases: Vec<(usize, usize, S)> = vec![
        (0, 1, S::StrAt(1, 8, STRING)),  // a value string's length word
        (0, 1, S::StrAt(1, 16, STRING)), // its bytes
        (0, 1, S::ArrAt(1, 0, STRING)),  // a string slot naming an array
        (0, 0, S::StrAt(0, 0, ARRAY)),   // an array slot naming a string
        (0, 0, S::ArrAt(1, 32, ARRAY)),  // an array's first slot
        (0, 0, S::ArrAt(1, 8, ARRAY)),   // an array's length word
        (0, 2, S::ArrAt(0, 0, ARRAY)),   // the root holding itself
        (1, 0, S::ArrAt(0, 0, ARRAY)),   // the child holding the root: a cycle
        (0, 2, S::Raw(STRING, 10_000)),  // past the end
    ];
    for (array, entry, slot) in cases {
        let mut buf = tree();
        buf.arrays[array].entries[entry].1 = slot;
        assert!(!refused(&buf), "{array} {entry} {slot:?}");
    }
}

#[test]
fn packed_holes_are_counted_exactly() {
    for count in [0, 1, 3, 4] {
        let mut buf = tree();
        buf.arrays[1].count = Some(count);
        let accepted = one_pass(&buf).is_some();
        assert_eq!(accepted, count == 2, "count {count}");
        assert_eq!(CheckedGraph::check(&buf.bytes()).is_ok(), count == 2, "count {count}");
    }
    // A hash array holding a hole.
    let mut buf = tree();
    buf.arrays[0].entries[1].1 = S::Raw(UNDEF, 0);
    assert!(!refused(&buf));
}

#[test]
fn keys_repeated_by_number_or_by_bytes_under_two_records_are_refused() {
    // Two string records of the same bytes, one key each.
    let buf = Buf::new(&[b"k", b"k"], vec![hash(vec![(S::Str(0), int(1)), (S::Str(1), int(2))])], 1);
    assert!(!refused(&buf));
    // The same record twice.
    let buf = Buf::new(&[b"k"], vec![hash(vec![(S::Str(0), int(1)), (S::Str(0), int(2))])], 1);
    assert!(!refused(&buf));
    // The same integer twice, among others.
    let buf = Buf::new(&[], vec![hash(vec![(int(-1), int(1)), (int(3), int(2)), (int(-1), int(3))])], 1);
    assert!(!refused(&buf));
    // Distinct keys whose hashes agree: 0 and the string whose PHP hash is 0 cannot be made, but an
    // integer equal to a string's hash is a distinct key.
    let h = zend_string_hash(b"k") as i64;
    let buf = Buf::new(&[b"k"], vec![hash(vec![(S::Str(0), int(1)), (int(h), int(2))])], 1);
    assert!(one_pass(&buf).is_some());
}

#[test]
fn a_numeric_string_key_is_read_as_its_integer() {
    // PHP stores the key "5" as the integer 5: a string key "5" is no PHP array's (review rv38b: both
    // checks handed it out as a string key, which `$a['5']` never finds). Both read it as the integer PHP
    // would have stored, and beside that integer it names one key twice: refused.
    for (key, int) in [(&b"5"[..], 5), (b"-12", -12), (b"0", 0), (b"-9223372036854775808", i64::MIN)] {
        let buf = Buf::new(&[key], vec![hash(vec![(S::Str(0), S::Raw(INT, 1))])], 1);
        let read = one_pass(&buf).expect("accepted");
        assert!(read.contains(&format!("[int {int} => int 1]")), "{read}");
    }
    let beside = Buf::new(&[b"5"], vec![hash(vec![(int(5), int(1)), (S::Str(0), int(2))])], 1);
    assert!(!refused(&beside), "the general check accepts the integer 5 twice");
    // Strings PHP keeps as strings are keys like any other.
    for key in [&b"05"[..], b"-0", b"5 ", b"9223372036854775808", b"1e3", b"+5"] {
        let buf = Buf::new(&[key], vec![hash(vec![(S::Str(0), int(1))])], 1);
        let read = one_pass(&buf).expect("accepted");
        assert!(read.contains("[string 0 => int 1]"), "{:?}: {read}", String::from_utf8_lossy(key));
    }
}

#[test]
fn next_free_indexes_at_the_extremes_and_negative_keys_are_read_as_stored() {
    for next in [i64::MIN, i64::MIN + 1, -1, 0, 7, i64::MAX] {
        let mut root = hash(vec![(int(i64::MIN), int(1)), (int(-5), int(2)), (int(i64::MAX), NULL_SLOT)]);
        root.next_free = next;
        let read = one_pass(&Buf::new(&[], vec![root], 1)).expect("accepted");
        assert!(read.contains(&format!("next {next}:")), "{read}");
        let mut list = packed(vec![int(1)]);
        list.next_free = next;
        assert!(one_pass(&Buf::new(&[], vec![list], 1)).is_some(), "packed, next {next}");
    }
}

const NULL_SLOT: S = S::Raw(NULL, 0);

#[test]
fn depth_and_flags_must_be_the_trees() {
    for depth in [0, 1, 3, 10_000] {
        let mut buf = tree();
        buf.depth = depth;
        assert!(!refused(&buf), "depth {depth}");
    }
    for flag in [0, flags::CONTAINS_SHARED | flags::IMMUTABLE_ELIGIBLE, flags::CONTAINS_OBJECTS, flags::ALL] {
        let mut buf = tree();
        buf.flags = flag;
        assert!(!refused(&buf), "flags {flag}");
    }
    // An array marked shared in a tree.
    let mut buf = tree();
    buf.arrays[1].shared = true;
    assert!(!refused(&buf));
    buf.flags |= flags::CONTAINS_SHARED;
    assert!(!refused(&buf));
}

#[test]
fn an_array_reached_twice_is_left_to_the_general_check() {
    let mut child = packed(vec![int(1)]);
    child.shared = true;
    let mut buf = Buf::new(&[], vec![packed(vec![S::Arr(1), S::Arr(1)]), child], 2);
    buf.flags |= flags::CONTAINS_SHARED;
    assert!(refused(&buf), "the general check reads a shared array");
    // An orphan array (reached from nowhere): valid, not a tree.
    let buf = Buf::new(&[], vec![packed(vec![int(1)]), packed(vec![int(2)])], 1);
    assert!(refused(&buf));
    // A root that is not an array.
    let mut buf = tree();
    buf.root = S::Str(1);
    buf.depth = 0;
    assert_eq!(one_pass(&buf), None);
}

#[test]
fn empty_strings_and_stored_hashes() {
    // The empty string as a key and a value; a key stored without its hash (0) is read with the one PHP
    // computes; a wrong stored hash is refused.
    let buf = Buf::new(&[b""], vec![hash(vec![(S::Str(0), S::Str(0))])], 1);
    assert!(one_pass(&buf).is_some());
    let mut buf = tree();
    buf.strings[0].1 = Some(0);
    let read = one_pass(&buf).expect("accepted");
    assert!(read.contains(&format!("string 0 \"k\" {:x}", zend_string_hash(b"k"))), "{read}");
    buf.strings[0].1 = Some(zend_string_hash(b"k") ^ 1);
    assert!(!refused(&buf));
    // A string's NUL or padding not zero: its length one byte short of its bytes.
    let mut bytes = tree().bytes();
    bytes[80 + 8] = 0; // "k" stored with length 0: its byte where the NUL must be
    assert_eq!(read_plain(&bytes), None);
    assert!(CheckedGraph::check(&bytes).is_err());
}

#[test]
fn a_string_record_across_the_end_of_its_section_is_refused() {
    // The last string's record made longer than what is left of the section.
    let buf = tree();
    let mut bytes = buf.bytes();
    // String 3 ("") is the last one: 80 + 24 * 3.
    bytes[80 + 72 + 8] = 9;
    assert_eq!(read_plain(&bytes), None);
    assert!(CheckedGraph::check(&bytes).is_err());
}

fn strings_tree(strings: usize) -> Buf {
    let names: Vec<Vec<u8>> = (0..strings).map(|i| format!("s{i}").into_bytes()).collect();
    let names: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let mut buf = Buf::new(&names, vec![packed((0..strings).map(S::Str).collect())], 1);
    buf.arrays[0].next_free = strings as i64;
    buf
}

fn arrays_tree(arrays: usize) -> Buf {
    // A chain: array i holds array i + 1.
    let list = (0..arrays).map(|i| packed(if i + 1 < arrays { vec![S::Arr(i + 1)] } else { vec![] })).collect();
    Buf::new(&[], list, arrays as u32)
}

fn entries_tree(entries: usize) -> Buf {
    // The root [child 1, child 2] and its two children: 2 + a + b entries.
    let a = (entries - 2) / 2;
    let ints = |n: usize| packed((0..n).map(|i| int(i as i64)).collect());
    Buf::new(&[], vec![packed(vec![S::Arr(1), S::Arr(2)]), ints(a), ints(entries - 2 - a)], 2)
}

#[test]
fn the_limits_and_one_past_them() {
    for (within, past) in [
        (strings_tree(plain_tree::MAX_STRINGS), strings_tree(plain_tree::MAX_STRINGS + 1)),
        (arrays_tree(plain_tree::MAX_ARRAYS), arrays_tree(plain_tree::MAX_ARRAYS + 1)),
        (entries_tree(plain_tree::MAX_ENTRIES), entries_tree(plain_tree::MAX_ENTRIES + 1)),
    ] {
        assert!(one_pass(&within).is_some());
        assert!(refused(&past), "the general check reads what is past the limits");
    }
}

// Stop 41 (ar41): the one pass reads a string's NUL and padding as one word, names strings by trying the
// one after the last named before its search, and compares a map's keys by their hash words first.

#[test]
fn every_byte_of_a_strings_nul_and_padding_is_checked() {
    for len in 0..=9usize {
        let text = vec![b'x'; len];
        let buf = Buf::new(&[&text], vec![packed(vec![S::Str(0)])], 1);
        assert!(one_pass(&buf).is_some(), "len {len}");
        let record_len = 16 + (len + 1).div_ceil(8) * 8;
        // The string's record starts at 80; its bytes end at 96 + len, its record at 80 + record_len.
        for at in 96 + len..80 + record_len {
            let mut bytes = buf.bytes();
            bytes[at] = 1;
            assert_eq!(read_plain(&bytes), None, "len {len}, byte {at}");
            assert!(CheckedGraph::check(&bytes).is_err(), "len {len}, byte {at}");
        }
    }
}

#[test]
fn keys_whose_hashes_collide_are_distinct_and_a_repeat_among_them_is_refused() {
    // "Ez" and "FY" have one DJBX33A hash (69 * 33 + 122 == 70 * 33 + 89).
    assert_eq!(zend_string_hash(b"Ez"), zend_string_hash(b"FY"));
    let buf = Buf::new(&[b"Ez", b"FY"], vec![hash(vec![(S::Str(0), int(1)), (S::Str(1), int(2))])], 1);
    assert!(one_pass(&buf).is_some());
    let buf = Buf::new(
        &[b"Ez", b"FY", b"Ez"],
        vec![hash(vec![(S::Str(0), int(1)), (S::Str(1), int(2)), (S::Str(2), int(3))])],
        1,
    );
    assert!(!refused(&buf));
    // An integer key equal to the colliding hash, beside both strings: three distinct keys.
    let h = zend_string_hash(b"Ez") as i64;
    let buf =
        Buf::new(&[b"Ez", b"FY"], vec![hash(vec![(S::Str(0), int(1)), (int(h), int(2)), (S::Str(1), int(3))])], 1);
    assert!(one_pass(&buf).is_some());
}

#[test]
fn a_key_repeated_far_apart_in_a_large_map_is_refused() {
    let names: Vec<Vec<u8>> = (0..30).map(|i| format!("key{i}").into_bytes()).collect();
    let names: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let entries = |last: S| {
        let mut e: Vec<(S, S)> = (0..30).map(|i| (S::Str(i), int(i as i64))).collect();
        e.push((last, int(-1)));
        hash(e)
    };
    // A 31st key, distinct: accepted; the first key again, under its own record or another of its
    // bytes: refused.
    assert!(one_pass(&Buf::new(&names, vec![entries(int(7))], 1)).is_some());
    assert!(!refused(&Buf::new(&names, vec![entries(S::Str(0))], 1)));
    let mut again = names.clone();
    again.push(b"key0");
    assert!(!refused(&Buf::new(&again, vec![entries(S::Str(30))], 1)));
    // Integer keys repeated far apart.
    let ints: Vec<(S, S)> = (0..40).map(|i| (int(if i == 39 { 3 } else { i }), int(i))).collect();
    assert!(!refused(&Buf::new(&[], vec![hash(ints)], 1)));
}

#[test]
fn strings_named_out_of_storage_order_are_read_by_their_records() {
    // Backwards, repeated, and each string's successor after it: every slot names its own record.
    let buf = Buf::new(
        &[b"a", b"bb", b"ccc"],
        vec![packed(vec![S::Str(2), S::Str(0), S::Str(0), S::Str(1), S::Str(2), S::Str(1), S::Str(0)])],
        1,
    );
    let read = one_pass(&buf).expect("accepted");
    assert!(read.contains("[int 0 => string 2] [int 1 => string 0] [int 2 => string 0] [int 3 => string 1]"), "{read}");
    // A slot naming the next string's record plus a word, or the end of the last record: refused.
    for slot in [S::StrAt(1, 8, STRING), S::StrAt(2, 24, STRING)] {
        let buf = Buf::new(&[b"a", b"bb", b"ccc"], vec![packed(vec![S::Str(0), slot])], 1);
        assert!(!refused(&buf), "{slot:?}");
    }
}

#[test]
fn every_prefix_and_every_byte_changed_is_refused_or_read_as_the_general_check_reads_it() {
    let bytes = tree().bytes();
    for len in 0..bytes.len() {
        assert_eq!(read_plain(&bytes[..len]), None, "prefix {len}");
    }
    for at in 0..bytes.len() {
        for value in [0u8, 1, 3, 4, 0x7f, 0x80, 0xff] {
            let mut changed = bytes.clone();
            changed[at] = value;
            if let Some(plain) = read_plain(&changed) {
                assert_eq!(Ok(plain), read_checked(&changed), "byte {at} = {value}");
            }
        }
    }
}
