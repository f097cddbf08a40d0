//! PHP-agnostic state of the safe-direct internal classes (spec §6.3).
//!
//! The binding extracts these fields from the engine's structs and injects them back; this crate only
//! stores them. Every state is generic over the value type `V` so the same structs serve the owned model
//! (`V = Value`) and the in-place reader (`V = SlotView`). On the wire a state is a family byte, a fixed
//! number of u64 words per family and a list of value slots (see `LAYOUT.md`).

use crate::error::DecodeError;
use crate::model::{bytes_into_owned, value_into_owned, Bytes, Value};

/// Which state layout an internal-state block uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum StateFamily {
    /// `DateTime`, `DateTimeImmutable`.
    DateTime = 1,
    DateTimeZone = 2,
    DateInterval = 3,
    /// `ArrayObject`, `ArrayIterator`, `RecursiveArrayIterator`.
    ArrayStorage = 4,
    FixedArray = 5,
    /// `SplDoublyLinkedList`, `SplQueue`, `SplStack`.
    DoublyLinkedList = 6,
    /// `SplMinHeap`, `SplMaxHeap` (the class name says which).
    Heap = 7,
    PriorityQueue = 8,
    ObjectStorage = 9,
}

impl StateFamily {
    pub(crate) fn from_byte(byte: u8) -> Option<Self> {
        Some(match byte {
            1 => StateFamily::DateTime,
            2 => StateFamily::DateTimeZone,
            3 => StateFamily::DateInterval,
            4 => StateFamily::ArrayStorage,
            5 => StateFamily::FixedArray,
            6 => StateFamily::DoublyLinkedList,
            7 => StateFamily::Heap,
            8 => StateFamily::PriorityQueue,
            9 => StateFamily::ObjectStorage,
            _ => return None,
        })
    }

    /// Number of u64 words this family stores before its value slots.
    pub(crate) fn word_count(self) -> usize {
        match self {
            StateFamily::DateTime => 12,
            StateFamily::DateTimeZone => 4,
            StateFamily::DateInterval => 19,
            StateFamily::ArrayStorage => 2,
            StateFamily::FixedArray => 0,
            StateFamily::DoublyLinkedList => 1,
            StateFamily::Heap => 1,
            StateFamily::PriorityQueue => 2,
            StateFamily::ObjectStorage => 0,
        }
    }
}

/// The internal state of one safe-direct object.
#[derive(Clone, Debug, PartialEq)]
pub enum InternalState<'a, V = Value<'a>> {
    DateTime(DateTimeState<'a>),
    DateTimeZone(TimeZoneState<'a>),
    DateInterval(DateIntervalState<'a>),
    ArrayStorage(ArrayStorageState<'a, V>),
    FixedArray(FixedArrayState<V>),
    DoublyLinkedList(DoublyLinkedListState<V>),
    Heap(HeapState<V>),
    PriorityQueue(PriorityQueueState<V>),
    ObjectStorage(ObjectStorageState<V>),
}

/// Wall-clock fields of a date-time in its own zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CivilDateTime {
    pub year: i64,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
}

/// `DateTime` / `DateTimeImmutable`: the instant, its wall-clock reading and its zone, so the binding can
/// restore `timelib_time` without recomputing either from the other.
#[derive(Clone, Debug, PartialEq)]
pub struct DateTimeState<'a> {
    pub unix_seconds: i64,
    pub microsecond: u32,
    pub civil: CivilDateTime,
    /// `None` for a date-time without a zone (not produced by PHP 8, accepted for completeness).
    pub zone: Option<TimeZoneState<'a>>,
}

/// The three zone types of PHP (`timezone_type` 1, 2, 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeZoneState<'a> {
    /// Type 1: a fixed UTC offset such as `+02:00`.
    Offset { utc_offset_seconds: i64 },
    /// Type 2: an abbreviation such as `CEST`, with its offset and DST flag.
    Abbreviation { abbreviation: Bytes<'a>, utc_offset_seconds: i64, dst: bool },
    /// Type 3: a tz database identifier such as `Europe/Paris`.
    Identifier { name: Bytes<'a> },
}

/// `DateInterval` (`timelib_rel_time` plus the PHP object's own fields). The default is the zero
/// interval, with every flag off.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DateIntervalState<'a> {
    pub years: i64,
    pub months: i64,
    pub days: i64,
    pub hours: i64,
    pub minutes: i64,
    pub seconds: i64,
    pub microseconds: i64,
    pub invert: bool,
    /// `$interval->days` for intervals made by `diff()`; `None` is PHP's `false`.
    pub total_days: Option<i64>,
    pub weekday: i64,
    pub weekday_behavior: i64,
    pub first_last_day_of: i64,
    pub special_type: i64,
    pub special_amount: i64,
    pub have_weekday_relative: bool,
    pub have_special_relative: bool,
    pub civil_or_wall: i64,
    /// The source text of `DateInterval::createFromDateString()`, if made that way.
    pub from_string: Option<Bytes<'a>>,
}

/// `ArrayObject`, `ArrayIterator`, `RecursiveArrayIterator`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayStorageState<'a, V> {
    /// The wrapped array, or the wrapped object.
    pub storage: V,
    /// `STD_PROP_LIST`, `ARRAY_AS_PROPS`.
    pub flags: u32,
    /// `ArrayObject::getIteratorClass()` when it is not the default.
    pub iterator_class: Option<Bytes<'a>>,
}

/// `SplFixedArray`: every element, `null` included; the size is the element count.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedArrayState<V> {
    pub elements: Vec<V>,
}

/// `SplDoublyLinkedList`, `SplQueue`, `SplStack`: elements head to tail.
#[derive(Clone, Debug, PartialEq)]
pub struct DoublyLinkedListState<V> {
    pub elements: Vec<V>,
    /// `IT_MODE_LIFO` / `IT_MODE_DELETE` bits.
    pub iterator_mode: u32,
}

/// `SplMinHeap`, `SplMaxHeap`: the heap array in stored order, restored without calling `compare()`.
#[derive(Clone, Debug, PartialEq)]
pub struct HeapState<V> {
    pub elements: Vec<V>,
    /// The engine's heap flags (for example "corrupted").
    pub heap_flags: u32,
}

/// One `SplPriorityQueue` element.
#[derive(Clone, Debug, PartialEq)]
pub struct PriorityQueueEntry<V> {
    pub data: V,
    pub priority: V,
}

/// `SplPriorityQueue`: entries in stored heap order.
#[derive(Clone, Debug, PartialEq)]
pub struct PriorityQueueState<V> {
    pub entries: Vec<PriorityQueueEntry<V>>,
    /// `EXTR_DATA`, `EXTR_PRIORITY`, `EXTR_BOTH`.
    pub extract_flags: u32,
    pub heap_flags: u32,
}

/// One `SplObjectStorage` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectStorageEntry<V> {
    /// Always an object; its identity is preserved like any other.
    pub object: V,
    pub data: V,
}

/// `SplObjectStorage`: entries in storage order.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectStorageState<V> {
    pub entries: Vec<ObjectStorageEntry<V>>,
}

impl<'a, V> InternalState<'a, V> {
    pub fn family(&self) -> StateFamily {
        match self {
            InternalState::DateTime(_) => StateFamily::DateTime,
            InternalState::DateTimeZone(_) => StateFamily::DateTimeZone,
            InternalState::DateInterval(_) => StateFamily::DateInterval,
            InternalState::ArrayStorage(_) => StateFamily::ArrayStorage,
            InternalState::FixedArray(_) => StateFamily::FixedArray,
            InternalState::DoublyLinkedList(_) => StateFamily::DoublyLinkedList,
            InternalState::Heap(_) => StateFamily::Heap,
            InternalState::PriorityQueue(_) => StateFamily::PriorityQueue,
            InternalState::ObjectStorage(_) => StateFamily::ObjectStorage,
        }
    }

    /// Number of value slots the state stores.
    pub fn value_count(&self) -> usize {
        match self {
            InternalState::DateTime(_) | InternalState::DateTimeZone(_) | InternalState::DateInterval(_) => 0,
            InternalState::ArrayStorage(_) => 1,
            InternalState::FixedArray(s) => s.elements.len(),
            InternalState::DoublyLinkedList(s) => s.elements.len(),
            InternalState::Heap(s) => s.elements.len(),
            InternalState::PriorityQueue(s) => s.entries.len() * 2,
            InternalState::ObjectStorage(s) => s.entries.len() * 2,
        }
    }

    /// Visits the value slots in stored order (pairs flattened: data then priority, object then data).
    pub fn for_each_value<'s>(&'s self, mut visit: impl FnMut(&'s V)) {
        match self {
            InternalState::DateTime(_) | InternalState::DateTimeZone(_) | InternalState::DateInterval(_) => {}
            InternalState::ArrayStorage(s) => visit(&s.storage),
            InternalState::FixedArray(s) => s.elements.iter().for_each(visit),
            InternalState::DoublyLinkedList(s) => s.elements.iter().for_each(visit),
            InternalState::Heap(s) => s.elements.iter().for_each(visit),
            InternalState::PriorityQueue(s) => s.entries.iter().for_each(|e| {
                visit(&e.data);
                visit(&e.priority);
            }),
            InternalState::ObjectStorage(s) => s.entries.iter().for_each(|e| {
                visit(&e.object);
                visit(&e.data);
            }),
        }
    }

    /// The family's words; `string_offset` gives the encoded offset of an interned string (never 0, so
    /// 0 can mean "absent").
    pub(crate) fn words(&self, string_offset: &mut dyn FnMut(&[u8]) -> u64) -> Vec<u64> {
        fn zone_words(zone: Option<&TimeZoneState<'_>>, string_offset: &mut dyn FnMut(&[u8]) -> u64) -> [u64; 4] {
            match zone {
                None => [0, 0, 0, 0],
                Some(TimeZoneState::Offset { utc_offset_seconds }) => [1, *utc_offset_seconds as u64, 0, 0],
                Some(TimeZoneState::Abbreviation { abbreviation, utc_offset_seconds, dst }) => {
                    [2, *utc_offset_seconds as u64, u64::from(*dst), string_offset(abbreviation)]
                }
                Some(TimeZoneState::Identifier { name }) => [3, 0, 0, string_offset(name)],
            }
        }
        let optional = |text: &Option<Bytes<'_>>, string_offset: &mut dyn FnMut(&[u8]) -> u64| {
            text.as_deref().map_or(0, string_offset)
        };
        match self {
            InternalState::DateTime(s) => {
                let mut words = vec![
                    s.unix_seconds as u64,
                    u64::from(s.microsecond),
                    s.civil.year as u64,
                    u64::from(s.civil.month),
                    u64::from(s.civil.day),
                    u64::from(s.civil.hour),
                    u64::from(s.civil.minute),
                    u64::from(s.civil.second),
                ];
                words.extend(zone_words(s.zone.as_ref(), string_offset));
                words
            }
            InternalState::DateTimeZone(zone) => zone_words(Some(zone), string_offset).to_vec(),
            InternalState::DateInterval(s) => vec![
                s.years as u64,
                s.months as u64,
                s.days as u64,
                s.hours as u64,
                s.minutes as u64,
                s.seconds as u64,
                s.microseconds as u64,
                u64::from(s.invert),
                u64::from(s.total_days.is_some()),
                s.total_days.unwrap_or(0) as u64,
                s.weekday as u64,
                s.weekday_behavior as u64,
                s.first_last_day_of as u64,
                s.special_type as u64,
                s.special_amount as u64,
                u64::from(s.have_weekday_relative),
                u64::from(s.have_special_relative),
                s.civil_or_wall as u64,
                optional(&s.from_string, string_offset),
            ],
            InternalState::ArrayStorage(s) => {
                vec![u64::from(s.flags), optional(&s.iterator_class, string_offset)]
            }
            InternalState::FixedArray(_) | InternalState::ObjectStorage(_) => Vec::new(),
            InternalState::DoublyLinkedList(s) => vec![u64::from(s.iterator_mode)],
            InternalState::Heap(s) => vec![u64::from(s.heap_flags)],
            InternalState::PriorityQueue(s) => {
                vec![u64::from(s.extract_flags), u64::from(s.heap_flags)]
            }
        }
    }

    /// Rebuilds a state from its family, words and value slots. `string_at` resolves a string offset;
    /// `at` is the block's offset for error reports.
    pub(crate) fn from_parts(
        family: StateFamily,
        words: &[u64],
        values: Vec<V>,
        string_at: &mut dyn FnMut(u64) -> Result<Bytes<'a>, DecodeError>,
        at: u64,
    ) -> Result<Self, DecodeError> {
        let invalid = |reason: &'static str| DecodeError::InvalidInternalState { offset: at, reason };
        if words.len() != family.word_count() {
            return Err(invalid("wrong word count"));
        }
        let flag = |word: u64| match word {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(invalid("boolean word is neither 0 nor 1")),
        };
        let small = |word: u64| u32::try_from(word).map_err(|_| invalid("flags word exceeds 32 bits"));
        let byte = |word: u64| u8::try_from(word).map_err(|_| invalid("calendar field exceeds 255"));
        let no_values = |values: &Vec<V>| {
            if values.is_empty() {
                Ok(())
            } else {
                Err(invalid("this state stores no values"))
            }
        };
        let zone_from = |w: &[u64], string_at: &mut dyn FnMut(u64) -> Result<Bytes<'a>, DecodeError>| {
            Ok::<_, DecodeError>(match w[0] {
                0 if w[1..] == [0, 0, 0] => None,
                1 if w[2..] == [0, 0] => Some(TimeZoneState::Offset { utc_offset_seconds: w[1] as i64 }),
                2 => Some(TimeZoneState::Abbreviation {
                    abbreviation: string_at(w[3])?,
                    utc_offset_seconds: w[1] as i64,
                    dst: flag(w[2])?,
                }),
                3 if w[1..3] == [0, 0] => Some(TimeZoneState::Identifier { name: string_at(w[3])? }),
                _ => return Err(invalid("unknown zone type")),
            })
        };
        let optional_string = |word: u64, string_at: &mut dyn FnMut(u64) -> Result<Bytes<'a>, DecodeError>| {
            if word == 0 {
                Ok(None)
            } else {
                string_at(word).map(Some)
            }
        };
        Ok(match family {
            StateFamily::DateTime => {
                no_values(&values)?;
                InternalState::DateTime(DateTimeState {
                    unix_seconds: words[0] as i64,
                    microsecond: small(words[1])?,
                    civil: CivilDateTime {
                        year: words[2] as i64,
                        month: byte(words[3])?,
                        day: byte(words[4])?,
                        hour: byte(words[5])?,
                        minute: byte(words[6])?,
                        second: byte(words[7])?,
                    },
                    zone: zone_from(&words[8..12], string_at)?,
                })
            }
            StateFamily::DateTimeZone => {
                no_values(&values)?;
                match zone_from(words, string_at)? {
                    Some(zone) => InternalState::DateTimeZone(zone),
                    None => return Err(invalid("DateTimeZone without a zone")),
                }
            }
            StateFamily::DateInterval => {
                no_values(&values)?;
                let has_total_days = flag(words[8])?;
                if !has_total_days && words[9] != 0 {
                    return Err(invalid("total days set but marked absent"));
                }
                InternalState::DateInterval(DateIntervalState {
                    years: words[0] as i64,
                    months: words[1] as i64,
                    days: words[2] as i64,
                    hours: words[3] as i64,
                    minutes: words[4] as i64,
                    seconds: words[5] as i64,
                    microseconds: words[6] as i64,
                    invert: flag(words[7])?,
                    total_days: has_total_days.then_some(words[9] as i64),
                    weekday: words[10] as i64,
                    weekday_behavior: words[11] as i64,
                    first_last_day_of: words[12] as i64,
                    special_type: words[13] as i64,
                    special_amount: words[14] as i64,
                    have_weekday_relative: flag(words[15])?,
                    have_special_relative: flag(words[16])?,
                    civil_or_wall: words[17] as i64,
                    from_string: optional_string(words[18], string_at)?,
                })
            }
            StateFamily::ArrayStorage => {
                let mut values = values.into_iter();
                let (Some(storage), None) = (values.next(), values.next()) else {
                    return Err(invalid("array storage holds exactly one value"));
                };
                InternalState::ArrayStorage(ArrayStorageState {
                    storage,
                    flags: small(words[0])?,
                    iterator_class: optional_string(words[1], string_at)?,
                })
            }
            StateFamily::FixedArray => InternalState::FixedArray(FixedArrayState { elements: values }),
            StateFamily::DoublyLinkedList => InternalState::DoublyLinkedList(DoublyLinkedListState {
                elements: values,
                iterator_mode: small(words[0])?,
            }),
            StateFamily::Heap => InternalState::Heap(HeapState { elements: values, heap_flags: small(words[0])? }),
            StateFamily::PriorityQueue => {
                let entries =
                    pairs(values, at)?.map(|(data, priority)| PriorityQueueEntry { data, priority }).collect();
                InternalState::PriorityQueue(PriorityQueueState {
                    entries,
                    extract_flags: small(words[0])?,
                    heap_flags: small(words[1])?,
                })
            }
            StateFamily::ObjectStorage => {
                let entries = pairs(values, at)?.map(|(object, data)| ObjectStorageEntry { object, data }).collect();
                InternalState::ObjectStorage(ObjectStorageState { entries })
            }
        })
    }

    /// Converts every value slot with `convert`, keeping everything else.
    pub fn try_map_values<W, E>(self, mut convert: impl FnMut(V) -> Result<W, E>) -> Result<InternalState<'a, W>, E> {
        fn all<V, W, E>(elements: Vec<V>, convert: &mut impl FnMut(V) -> Result<W, E>) -> Result<Vec<W>, E> {
            elements.into_iter().map(convert).collect()
        }
        Ok(match self {
            InternalState::DateTime(s) => InternalState::DateTime(s),
            InternalState::DateTimeZone(s) => InternalState::DateTimeZone(s),
            InternalState::DateInterval(s) => InternalState::DateInterval(s),
            InternalState::ArrayStorage(s) => InternalState::ArrayStorage(ArrayStorageState {
                storage: convert(s.storage)?,
                flags: s.flags,
                iterator_class: s.iterator_class,
            }),
            InternalState::FixedArray(s) => {
                InternalState::FixedArray(FixedArrayState { elements: all(s.elements, &mut convert)? })
            }
            InternalState::DoublyLinkedList(s) => InternalState::DoublyLinkedList(DoublyLinkedListState {
                elements: all(s.elements, &mut convert)?,
                iterator_mode: s.iterator_mode,
            }),
            InternalState::Heap(s) => {
                InternalState::Heap(HeapState { elements: all(s.elements, &mut convert)?, heap_flags: s.heap_flags })
            }
            InternalState::PriorityQueue(s) => InternalState::PriorityQueue(PriorityQueueState {
                entries: s
                    .entries
                    .into_iter()
                    .map(|e| Ok(PriorityQueueEntry { data: convert(e.data)?, priority: convert(e.priority)? }))
                    .collect::<Result<_, E>>()?,
                extract_flags: s.extract_flags,
                heap_flags: s.heap_flags,
            }),
            InternalState::ObjectStorage(s) => InternalState::ObjectStorage(ObjectStorageState {
                entries: s
                    .entries
                    .into_iter()
                    .map(|e| Ok(ObjectStorageEntry { object: convert(e.object)?, data: convert(e.data)? }))
                    .collect::<Result<_, E>>()?,
            }),
        })
    }
}

impl InternalState<'_, Value<'_>> {
    /// Detaches borrowed strings.
    pub fn into_owned(self) -> InternalState<'static, Value<'static>> {
        let zone_owned = |zone: TimeZoneState<'_>| match zone {
            TimeZoneState::Offset { utc_offset_seconds } => TimeZoneState::Offset { utc_offset_seconds },
            TimeZoneState::Abbreviation { abbreviation, utc_offset_seconds, dst } => {
                TimeZoneState::Abbreviation { abbreviation: bytes_into_owned(abbreviation), utc_offset_seconds, dst }
            }
            TimeZoneState::Identifier { name } => TimeZoneState::Identifier { name: bytes_into_owned(name) },
        };
        let owned_values = |v: Vec<Value<'_>>| v.into_iter().map(value_into_owned).collect::<Vec<_>>();
        match self {
            InternalState::DateTime(s) => InternalState::DateTime(DateTimeState {
                unix_seconds: s.unix_seconds,
                microsecond: s.microsecond,
                civil: s.civil,
                zone: s.zone.map(zone_owned),
            }),
            InternalState::DateTimeZone(zone) => InternalState::DateTimeZone(zone_owned(zone)),
            InternalState::DateInterval(s) => {
                InternalState::DateInterval(DateIntervalState { from_string: s.from_string.map(bytes_into_owned), ..s })
            }
            InternalState::ArrayStorage(s) => InternalState::ArrayStorage(ArrayStorageState {
                storage: value_into_owned(s.storage),
                flags: s.flags,
                iterator_class: s.iterator_class.map(bytes_into_owned),
            }),
            InternalState::FixedArray(s) => {
                InternalState::FixedArray(FixedArrayState { elements: owned_values(s.elements) })
            }
            InternalState::DoublyLinkedList(s) => InternalState::DoublyLinkedList(DoublyLinkedListState {
                elements: owned_values(s.elements),
                iterator_mode: s.iterator_mode,
            }),
            InternalState::Heap(s) => {
                InternalState::Heap(HeapState { elements: owned_values(s.elements), heap_flags: s.heap_flags })
            }
            InternalState::PriorityQueue(s) => InternalState::PriorityQueue(PriorityQueueState {
                entries: s
                    .entries
                    .into_iter()
                    .map(|e| PriorityQueueEntry {
                        data: value_into_owned(e.data),
                        priority: value_into_owned(e.priority),
                    })
                    .collect(),
                extract_flags: s.extract_flags,
                heap_flags: s.heap_flags,
            }),
            InternalState::ObjectStorage(s) => InternalState::ObjectStorage(ObjectStorageState {
                entries: s
                    .entries
                    .into_iter()
                    .map(|e| ObjectStorageEntry { object: value_into_owned(e.object), data: value_into_owned(e.data) })
                    .collect(),
            }),
        }
    }
}

/// Splits a flat value list into (first, second) pairs; an odd count is malformed.
fn pairs<V>(values: Vec<V>, at: u64) -> Result<impl Iterator<Item = (V, V)>, DecodeError> {
    if !values.len().is_multiple_of(2) {
        return Err(DecodeError::InvalidInternalState { offset: at, reason: "paired values have an odd count" });
    }
    let mut values = values.into_iter();
    Ok(std::iter::from_fn(move || Some((values.next()?, values.next()?))))
}
