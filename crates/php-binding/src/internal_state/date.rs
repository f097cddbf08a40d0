//! `DateTime`, `DateTimeImmutable`, `DateTimeZone`, `DateInterval`. A date-time is read from its
//! `timelib_time` when it is in the usual shape (initialised, with a zone and an up-to-date timestamp),
//! an interval from its `php_interval_obj` when initialised, else either goes through the class's own
//! `__serialize` array (which the direct reads mirror field by field); zones are read from
//! `php_timezone_obj`, which `ext/date/php_date.h` publishes (its abbreviation offset and DST flag are
//! not in `__serialize`).

use std::borrow::Cow;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};

use ext_php_rs::ffi::{
    zend_class_entry, zend_object, zend_string, zval, HashTable, IS_DOUBLE, IS_FALSE, IS_LONG, IS_TRUE,
};
use ext_php_rs::types::ZendStr;
use graph_codec::{CivilDateTime, DateIntervalState, DateTimeState, InternalState, StateFamily, TimeZoneState};

use super::{long_at, string_at, Arg, StateError};
use crate::class_info;
use crate::zend;
use crate::zvals;

const ZONETYPE_OFFSET: c_int = 1;
const ZONETYPE_ABBR: c_int = 2;
const ZONETYPE_ID: c_int = 3;

/// `timelib_abbr_info` (timelib.h).
#[repr(C)]
#[derive(Clone, Copy)]
struct AbbrInfo {
    utc_offset: i64,
    abbr: *mut c_char,
    dst: c_int,
}

/// The union `tzi` of `php_timezone_obj`; `tz` points to a `timelib_tzinfo`, whose first field is its
/// identifier (`char *name`).
#[repr(C)]
union ZoneInfo {
    tz: *mut *mut c_char,
    utc_offset: i64,
    z: AbbrInfo,
}

/// `php_timezone_obj` (ext/date/php_date.h, PHP 8.2).
#[repr(C)]
struct TimezoneObj {
    initialized: bool,
    type_: c_int,
    tzi: ZoneInfo,
    std: zend_object,
}

/// `timelib_rel_time` (timelib.h, PHP 8.2).
#[repr(C)]
#[derive(Clone, Copy)]
struct RelTime {
    ymdhis_us: [i64; 7],
    weekday: c_int,
    weekday_behavior: c_int,
    first_last_day_of: c_int,
    invert: c_int,
    days: i64,
    special_type: c_uint,
    special_amount: i64,
    have_weekday_relative: c_uint,
    have_special_relative: c_uint,
}

/// `timelib_time` (timelib.h, PHP 8.2): copied whole, as `date_object_clone_date` does.
#[repr(C)]
#[derive(Clone, Copy)]
struct TimelibTime {
    ymdhis_us: [i64; 7],
    z: c_int,
    tz_abbr: *mut c_char,
    tz_info: *mut c_void,
    dst: c_int,
    relative: RelTime,
    sse: i64,
    flags: [c_uint; 9],
}

/// Index of `zone_type` in [`TimelibTime::flags`] (have_time, have_date, have_zone, have_relative,
/// have_weeknr_day, sse_uptodate, tim_uptodate, is_localtime, zone_type).
const ZONE_TYPE_FLAG: usize = 8;

/// `php_date_obj` (ext/date/php_date.h).
#[repr(C)]
struct DateObj {
    time: *mut TimelibTime,
    std: zend_object,
}

/// `php_interval_obj` (ext/date/php_date.h, PHP 8.2).
#[repr(C)]
struct IntervalObj {
    diff: *mut RelTime,
    civil_or_wall: c_int,
    from_string: bool,
    date_string: *mut zend_string,
    initialized: bool,
    std: zend_object,
}

// Checked against PHP 8.2's headers (sizeof/offsetof compiled from php_date.h).
const _: () = assert!(size_of::<TimelibTime>() == 240 && size_of::<RelTime>() == 104);
const _: () = assert!(std::mem::offset_of!(DateObj, std) == 8 && std::mem::offset_of!(IntervalObj, std) == 32);
const _: () = assert!(std::mem::offset_of!(TimezoneObj, std) == 32 && std::mem::offset_of!(TimelibTime, tz_abbr) == 64);

/// The container of `std`.
///
/// # Safety
/// `obj` must be the `std` member of a live `T` at offset `offset`.
unsafe fn container<T>(obj: *mut zend_object, offset: usize) -> *mut T {
    // SAFETY: caller guarantees the layout.
    unsafe { obj.cast::<u8>().sub(offset).cast::<T>() }
}

/// `timelib_posix_trans_info` (timelib.h).
#[repr(C)]
#[derive(Clone, Copy)]
struct PosixTransInfo {
    type_: c_int,
    /// `days`, or `mwd` (month, week, day of week).
    rule: [c_int; 3],
    hour: c_int,
}

/// `timelib_posix_str` (timelib.h).
#[repr(C)]
struct PosixStr {
    std: *mut c_char,
    std_offset: i64,
    dst: *mut c_char,
    dst_offset: i64,
    dst_begin: *mut PosixTransInfo,
    dst_end: *mut PosixTransInfo,
    type_index_std_type: c_int,
    type_index_dst_type: c_int,
}

/// `tlocinfo` (timelib.h).
#[repr(C)]
struct LocInfo {
    country_code: [c_char; 3],
    latitude: f64,
    longitude: f64,
    comments: *mut c_char,
}

/// `timelib_tzinfo` (timelib.h, the same in PHP 8.2 and 8.4). The counts that size its arrays are the
/// 64-bit ones: ttisgmtcnt, ttisstdcnt, leapcnt, timecnt, typecnt, charcnt.
#[repr(C)]
struct TzInfo {
    name: *mut c_char,
    bit32: [u32; 6],
    bit64: [u64; 6],
    trans: *mut i64,
    trans_idx: *mut u8,
    /// `ttinfo[typecnt]`, 20 bytes each (timelib_private.h).
    type_: *mut u8,
    timezone_abbr: *mut c_char,
    /// `tlinfo[leapcnt]`, 16 bytes each (timelib_private.h).
    leap_times: *mut u8,
    bc: u8,
    location: LocInfo,
    posix_string: *mut c_char,
    posix_info: *mut PosixStr,
}

const TTINFO_SIZE: usize = 20;
const TLINFO_SIZE: usize = 16;
const LEAPCNT: usize = 2;
const TIMECNT: usize = 3;
const TYPECNT: usize = 4;
const CHARCNT: usize = 5;

// Checked against PHP 8.2's and 8.4's timelib.h (sizeof/offsetof compiled from the headers).
const _: () = assert!(size_of::<TzInfo>() == 176 && std::mem::offset_of!(TzInfo, location) == 128);
const _: () = assert!(size_of::<PosixStr>() == 56 && size_of::<PosixTransInfo>() == 20);

/// A deep copy of a request's `timelib_tzinfo` in memory this thread owns, so restores in later
/// requests point their objects at it instead of loading the zone again. Objects only read a tzinfo
/// (the date extension never frees one through an object: its own are owned by its per-request
/// cache), so the copy stays valid for any object that points at it while the thread lives.
struct KeptZone {
    info: Box<TzInfo>,
    posix: Option<Box<PosixStr>>,
    /// The strings and arrays the pointers above point into.
    strings: Vec<CString>,
    words: Vec<Box<[i64]>>,
    bytes: Vec<Box<[u8]>>,
    /// The POSIX rule's DST start and end.
    rules: [Option<Box<PosixTransInfo>>; 2],
}

thread_local! {
    /// Zones kept by this thread, by identifier; never freed before the thread ends (at most one per
    /// zone of the tz database).
    static KEPT_ZONES: std::cell::RefCell<std::collections::HashMap<Box<[u8]>, KeptZone>> = Default::default();
}

impl KeptZone {
    /// Copies `tz`.
    ///
    /// # Safety
    /// `tz` must be a live, complete `timelib_tzinfo` (one the date extension loaded).
    unsafe fn copy(tz: *const TzInfo) -> Option<KeptZone> {
        // SAFETY: caller guarantees a live tzinfo whose arrays hold as many items as its 64-bit counts
        // say and whose strings are NUL-terminated.
        unsafe {
            let src = &*tz;
            // A tzinfo copied by timelib (`timelib_tzinfo_clone`) has its POSIX string without the parsed
            // rule: not kept, so a zone's copy always carries the rule its loaded form has.
            if !src.posix_string.is_null() && src.posix_info.is_null() {
                return None;
            }
            let count = |i: usize| usize::try_from(src.bit64[i]).ok();
            let (leaps, transitions, types, chars) =
                (count(LEAPCNT)?, count(TIMECNT)?, count(TYPECNT)?, count(CHARCNT)?);
            let mut kept = KeptZone {
                info: Box::new(TzInfo {
                    name: std::ptr::null_mut(),
                    bit32: src.bit32,
                    bit64: src.bit64,
                    trans: std::ptr::null_mut(),
                    trans_idx: std::ptr::null_mut(),
                    type_: std::ptr::null_mut(),
                    timezone_abbr: std::ptr::null_mut(),
                    leap_times: std::ptr::null_mut(),
                    bc: src.bc,
                    location: LocInfo {
                        country_code: src.location.country_code,
                        latitude: src.location.latitude,
                        longitude: src.location.longitude,
                        comments: std::ptr::null_mut(),
                    },
                    posix_string: std::ptr::null_mut(),
                    posix_info: std::ptr::null_mut(),
                }),
                posix: None,
                strings: Vec::new(),
                words: Vec::new(),
                bytes: Vec::new(),
                rules: [None, None],
            };
            kept.info.name = kept.string(src.name)?;
            kept.info.location.comments = kept.string(src.location.comments).unwrap_or(std::ptr::null_mut());
            kept.info.posix_string = kept.string(src.posix_string).unwrap_or(std::ptr::null_mut());
            if transitions > 0 && !src.trans.is_null() && !src.trans_idx.is_null() {
                let mut words: Box<[i64]> = std::slice::from_raw_parts(src.trans, transitions).into();
                kept.info.trans = words.as_mut_ptr();
                kept.words.push(words);
                kept.info.trans_idx = kept.array(src.trans_idx, transitions);
            }
            kept.info.type_ = kept.array(src.type_, types * TTINFO_SIZE);
            kept.info.timezone_abbr = kept.array(src.timezone_abbr.cast(), chars).cast();
            kept.info.leap_times = kept.array(src.leap_times, leaps * TLINFO_SIZE);
            if !src.posix_info.is_null() {
                let p = &*src.posix_info;
                let mut posix = Box::new(PosixStr {
                    std: kept.string(p.std).unwrap_or(std::ptr::null_mut()),
                    std_offset: p.std_offset,
                    dst: kept.string(p.dst).unwrap_or(std::ptr::null_mut()),
                    dst_offset: p.dst_offset,
                    dst_begin: kept.rule(0, p.dst_begin),
                    dst_end: kept.rule(1, p.dst_end),
                    type_index_std_type: p.type_index_std_type,
                    type_index_dst_type: p.type_index_dst_type,
                });
                kept.info.posix_info = &raw mut *posix;
                kept.posix = Some(posix);
            }
            Some(kept)
        }
    }

    /// A kept copy of the C string `p` (`None` for null).
    ///
    /// # Safety
    /// `p` must be null or a live NUL-terminated string.
    unsafe fn string(&mut self, p: *const c_char) -> Option<*mut c_char> {
        // SAFETY: caller guarantees a live C string; the CString's buffer does not move when the vector
        // grows.
        let copy = unsafe { owned(p) }?;
        let kept = copy.as_ptr().cast_mut();
        self.strings.push(copy);
        Some(kept)
    }

    /// A kept copy of `len` bytes at `p` (null for none).
    ///
    /// # Safety
    /// `p` must be null or point at `len` readable bytes.
    unsafe fn array(&mut self, p: *const u8, len: usize) -> *mut u8 {
        if p.is_null() || len == 0 {
            return std::ptr::null_mut();
        }
        // SAFETY: caller guarantees `len` readable bytes; the boxed slice does not move.
        let mut copy: Box<[u8]> = unsafe { std::slice::from_raw_parts(p, len) }.into();
        let kept = copy.as_mut_ptr();
        self.bytes.push(copy);
        kept
    }

    /// A kept copy of a transition rule (null for none).
    ///
    /// # Safety
    /// `p` must be null or a live `timelib_posix_trans_info`.
    unsafe fn rule(&mut self, slot: usize, p: *const PosixTransInfo) -> *mut PosixTransInfo {
        if p.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: caller guarantees a live rule; the box does not move.
        let mut copy = Box::new(unsafe { *p });
        let kept = &raw mut *copy;
        self.rules[slot] = Some(copy);
        kept
    }
}

/// This thread's kept copy of the zone `tz` (a tzinfo of the current request), made on first use.
///
/// # Safety
/// `tz` must be a live, complete `timelib_tzinfo`.
unsafe fn kept_zone(tz: *mut c_void) -> Option<*mut c_void> {
    // SAFETY: caller guarantees a live tzinfo, whose first field is its name.
    let name = unsafe { zone_name(tz) }?;
    KEPT_ZONES.with_borrow_mut(|zones| {
        if let Some(kept) = zones.get_mut(&name) {
            return Some((&raw mut *kept.info).cast());
        }
        // SAFETY: as above.
        let mut kept = unsafe { KeptZone::copy(tz.cast()) }?;
        let p = (&raw mut *kept.info).cast();
        zones.insert(name, kept);
        Some(p)
    })
}

/// The internal state of a date-family object detached from its request: strings copied out, and the
/// zone's `timelib_tzinfo` replaced by this thread's kept copy of it. Applying it to a fresh object
/// does what the class's clone handler does (`date_object_clone_*`), without a userland `__clone`,
/// without parsing anything and without loading the zone.
pub struct DateSnapshot {
    state: Snapshot,
    /// This thread's kept copy of the zone the state needs (null for none).
    tz: *mut c_void,
}

enum Snapshot {
    DateTime {
        time: TimelibTime,
        abbr: Option<CString>,
    },
    Zone {
        type_: c_int,
        utc_offset: i64,
        abbr: Option<CString>,
        dst: c_int,
    },
    Interval {
        diff: RelTime,
        civil_or_wall: c_int,
        from_string: bool,
        date_string: Option<Box<[u8]>>,
        initialized: bool,
    },
}

/// A C string owned by timelib, copied out.
///
/// # Safety
/// `p` must be null or a live NUL-terminated string.
unsafe fn owned(p: *const c_char) -> Option<CString> {
    // SAFETY: caller guarantees a live C string.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_owned())
}

/// The identifier of a `timelib_tzinfo` (its first field).
///
/// # Safety
/// `tz` must be null or a live `timelib_tzinfo`.
unsafe fn zone_name(tz: *mut c_void) -> Option<Box<[u8]>> {
    // SAFETY: caller guarantees a live tzinfo, whose first field is its NUL-terminated name.
    unsafe { (!tz.is_null()).then(|| owned(*tz.cast::<*const c_char>())).flatten().map(|n| n.as_bytes().into()) }
}

/// The engine's copy of `s`, for a field the object's free handler releases with `efree`.
fn estrdup(s: &Option<CString>) -> *mut c_char {
    // SAFETY: a NUL-terminated string; the engine allocates the copy.
    s.as_ref().map_or(std::ptr::null_mut(), |s| unsafe { ext_php_rs::ffi::_estrdup(s.as_ptr()) })
}

/// The state of `obj` and the tzinfo it points at (null for none).
///
/// # Safety
/// `obj` must be a live, initialised object whose nearest internal ancestor belongs to `family`, a
/// date family.
unsafe fn snapshot(family: StateFamily, obj: *mut zend_object) -> Result<(Snapshot, *mut c_void), StateError> {
    // SAFETY: caller guarantees the layout; strings are copied out of the live object.
    unsafe {
        match family {
            StateFamily::DateTime => {
                let from = container::<DateObj>(obj, std::mem::offset_of!(DateObj, std));
                if (*from).time.is_null() {
                    return Err(StateError::Malformed);
                }
                let mut time = *(*from).time;
                let (abbr, tz) = (owned(time.tz_abbr), time.tz_info);
                time.tz_abbr = std::ptr::null_mut();
                time.tz_info = std::ptr::null_mut();
                Ok((Snapshot::DateTime { time, abbr }, tz))
            }
            StateFamily::DateTimeZone => {
                let from = container::<TimezoneObj>(obj, std::mem::offset_of!(TimezoneObj, std));
                if !(*from).initialized {
                    return Err(StateError::Malformed);
                }
                let type_ = (*from).type_;
                let (state, tz) = match type_ {
                    ZONETYPE_ABBR => {
                        let z = (*from).tzi.z;
                        (Snapshot::Zone { type_, utc_offset: z.utc_offset, abbr: owned(z.abbr), dst: z.dst }, None)
                    }
                    ZONETYPE_OFFSET => {
                        (Snapshot::Zone { type_, utc_offset: (*from).tzi.utc_offset, abbr: None, dst: 0 }, None)
                    }
                    ZONETYPE_ID => (Snapshot::Zone { type_, utc_offset: 0, abbr: None, dst: 0 }, Some((*from).tzi.tz)),
                    _ => return Err(StateError::Malformed),
                };
                let tz = tz.map_or(std::ptr::null_mut(), |tz| tz.cast::<c_void>());
                if type_ == ZONETYPE_ID && tz.is_null() {
                    return Err(StateError::Malformed);
                }
                Ok((state, tz))
            }
            StateFamily::DateInterval => {
                let from = container::<IntervalObj>(obj, std::mem::offset_of!(IntervalObj, std));
                if (*from).diff.is_null() {
                    return Err(StateError::Malformed);
                }
                let text = (*from).date_string;
                let state = Snapshot::Interval {
                    diff: *(*from).diff,
                    civil_or_wall: (*from).civil_or_wall,
                    from_string: (*from).from_string,
                    date_string: (!text.is_null()).then(|| zend::zstr_bytes(text).into()),
                    initialized: (*from).initialized,
                };
                Ok((state, std::ptr::null_mut()))
            }
            _ => Err(StateError::Malformed),
        }
    }
}

/// Writes `state` into `obj`, a fresh object (no constructor run) of the state's family, pointing it at
/// the tzinfo `tz` (null where the state names none).
///
/// # Safety
/// `obj` must be a live, fresh object whose nearest internal ancestor belongs to the state's family;
/// `tz` a tzinfo that outlives the object wherever the state needs one.
unsafe fn write(state: &Snapshot, obj: *mut zend_object, tz: *mut c_void) -> Result<(), StateError> {
    // SAFETY: caller guarantees the layout; memory is allocated with the engine allocator, which
    // timelib uses in PHP (timelib_config.h), so the object's own free handler releases it.
    unsafe {
        match state {
            Snapshot::DateTime { time, abbr } => {
                let to = container::<DateObj>(obj, std::mem::offset_of!(DateObj, std));
                if !(*to).time.is_null() || (time.flags[ZONE_TYPE_FLAG] == ZONETYPE_ID as c_uint && tz.is_null()) {
                    return Err(StateError::Malformed);
                }
                let copy = ext_php_rs::ffi::_emalloc(size_of::<TimelibTime>()).cast::<TimelibTime>();
                copy.write(TimelibTime { tz_abbr: estrdup(abbr), tz_info: tz, ..*time });
                (*to).time = copy;
            }
            Snapshot::Zone { type_, utc_offset, abbr, dst } => {
                let to = container::<TimezoneObj>(obj, std::mem::offset_of!(TimezoneObj, std));
                if (*to).initialized || (*type_ == ZONETYPE_ID && tz.is_null()) {
                    return Err(StateError::Malformed);
                }
                (*to).tzi = match *type_ {
                    ZONETYPE_ABBR => {
                        ZoneInfo { z: AbbrInfo { utc_offset: *utc_offset, abbr: estrdup(abbr), dst: *dst } }
                    }
                    ZONETYPE_OFFSET => ZoneInfo { utc_offset: *utc_offset },
                    _ => ZoneInfo { tz: tz.cast() },
                };
                (*to).type_ = *type_;
                (*to).initialized = true;
            }
            Snapshot::Interval { diff, civil_or_wall, from_string, date_string, initialized } => {
                let to = container::<IntervalObj>(obj, std::mem::offset_of!(IntervalObj, std));
                if !(*to).diff.is_null() {
                    return Err(StateError::Malformed);
                }
                let copy = ext_php_rs::ffi::_emalloc(size_of::<RelTime>()).cast::<RelTime>();
                copy.write(*diff);
                (*to).diff = copy;
                (*to).civil_or_wall = *civil_or_wall;
                (*to).from_string = *from_string;
                (*to).date_string =
                    date_string.as_ref().map_or(std::ptr::null_mut(), |text| ZendStr::new(text, false).into_raw());
                (*to).initialized = *initialized;
            }
        }
    }
    Ok(())
}

impl DateSnapshot {
    /// The state of `obj`, with its zone kept by this thread.
    ///
    /// # Safety
    /// `obj` must be a live, initialised object whose nearest internal ancestor belongs to `family`,
    /// a date family.
    pub unsafe fn capture(family: StateFamily, obj: *mut zend_object) -> Result<DateSnapshot, StateError> {
        // SAFETY: forwarded from the caller; a tzinfo an object points at is live and complete.
        unsafe {
            let (state, tz) = snapshot(family, obj)?;
            let tz = if tz.is_null() { tz } else { kept_zone(tz).ok_or(StateError::Malformed)? };
            Ok(DateSnapshot { state, tz })
        }
    }

    /// Writes the state into `obj`, a fresh object (no constructor run) of the snapshot's family.
    ///
    /// # Safety
    /// `obj` must be a live, fresh object whose nearest internal ancestor belongs to the snapshot's
    /// family.
    pub unsafe fn apply(&self, obj: *mut zend_object) -> Result<(), StateError> {
        // SAFETY: forwarded from the caller; the kept zone lives as long as the thread.
        unsafe { write(&self.state, obj, self.tz) }
    }
}

/// Copies the internal state of `src` into `dst`, a fresh object of the same family (request
/// prototypes of date objects: the class's clone handler would call a userland `__clone`). A date-time
/// is copied as `date_object_clone_date` copies it: its `timelib_time` whole, its abbreviation
/// duplicated, its tzinfo shared.
///
/// # Safety
/// `src` must be a live object and `dst` a freshly created one (no constructor run), both of classes
/// whose nearest internal ancestor belongs to `family`, a date family.
pub unsafe fn copy_state(family: StateFamily, src: *mut zend_object, dst: *mut zend_object) -> Result<(), StateError> {
    // SAFETY: forwarded from the caller; the tzinfo of `src` is live as long as it (this request, or
    // the thread for a kept zone).
    unsafe {
        if family == StateFamily::DateTime {
            let from = container::<DateObj>(src, std::mem::offset_of!(DateObj, std));
            let to = container::<DateObj>(dst, std::mem::offset_of!(DateObj, std));
            let time = (*from).time;
            if time.is_null() || !(*to).time.is_null() {
                return Err(StateError::Malformed);
            }
            let abbr = (*time).tz_abbr;
            let abbr = if abbr.is_null() { abbr } else { ext_php_rs::ffi::_estrdup(abbr) };
            let copy = ext_php_rs::ffi::_emalloc(size_of::<TimelibTime>()).cast::<TimelibTime>();
            copy.write(TimelibTime { tz_abbr: abbr, ..*time });
            (*to).time = copy;
            return Ok(());
        }
        let (state, tz) = snapshot(family, src)?;
        write(&state, dst, tz)
    }
}

/// Where the standard object sits in the allocation of a `DateTime`-family object (`php_date_obj`): the
/// bytes before it belong to the date state.
pub const DATE_STD_OFFSET: usize = std::mem::offset_of!(DateObj, std);

/// Forgets the time of a `DateTime`-family object whose allocation was copied byte for byte from another
/// one (the time pointer is the original's), so that [`copy_state`] can give it its own.
///
/// # Safety
/// `obj` must be the `std` member of a `php_date_obj` whose time pointer it does not own.
pub unsafe fn detach_time(obj: *mut zend_object) {
    // SAFETY: caller guarantees the container layout.
    unsafe { (*container::<DateObj>(obj, DATE_STD_OFFSET)).time = std::ptr::null_mut() }
}

/// # Safety
/// `obj` must be the `std` member of a live `php_timezone_obj`.
pub unsafe fn extract_zone<'a>(obj: *mut zend_object) -> Result<InternalState<'a, *mut zval>, StateError> {
    // SAFETY: caller guarantees the container layout; the union member read is the one `type_` names,
    // and C strings owned by timelib live as long as the object.
    unsafe {
        let tz = obj.cast::<u8>().sub(std::mem::offset_of!(TimezoneObj, std)).cast::<TimezoneObj>();
        if !(*tz).initialized {
            return Err(StateError::Malformed);
        }
        let text = |p: *const c_char| -> Result<Cow<'a, [u8]>, StateError> {
            if p.is_null() {
                Err(StateError::Malformed)
            } else {
                Ok(Cow::Owned(CStr::from_ptr(p).to_bytes().to_vec()))
            }
        };
        let zone = match (*tz).type_ {
            ZONETYPE_OFFSET => TimeZoneState::Offset { utc_offset_seconds: (*tz).tzi.utc_offset },
            ZONETYPE_ABBR => {
                let z = (*tz).tzi.z;
                TimeZoneState::Abbreviation {
                    abbreviation: text(z.abbr)?,
                    utc_offset_seconds: z.utc_offset,
                    dst: z.dst != 0,
                }
            }
            ZONETYPE_ID => {
                let info = (*tz).tzi.tz;
                if info.is_null() {
                    return Err(StateError::Malformed);
                }
                TimeZoneState::Identifier { name: text(*info)? }
            }
            _ => return Err(StateError::Malformed),
        };
        Ok(InternalState::DateTimeZone(zone))
    }
}

/// # Safety
/// `obj` must be a live date-time object of `base`'s family; `ht` its `__serialize()` array.
pub unsafe fn extract_date_time<'a>(
    obj: *mut zend_object,
    base: *mut zend_class_entry,
    ht: *mut HashTable,
) -> Result<InternalState<'a, *mut zval>, StateError> {
    // SAFETY: caller guarantees a live date-time and its export; the called methods are internal.
    unsafe {
        let (civil, microsecond) = parse_civil(&string_at(ht, b"date")?).ok_or(StateError::Malformed)?;
        let zone_name = string_at(ht, b"timezone")?;
        let zone = match long_at(ht, b"timezone_type")? {
            1 => TimeZoneState::Offset { utc_offset_seconds: parse_offset(&zone_name).ok_or(StateError::Malformed)? },
            2 => {
                let dst = call_long(obj, base, b"format", Some(b"I"))? == 1;
                let offset = call_long(obj, base, b"getoffset", None)?;
                TimeZoneState::Abbreviation {
                    abbreviation: Cow::Owned(zone_name),
                    utc_offset_seconds: offset - 3600 * i64::from(dst),
                    dst,
                }
            }
            3 => TimeZoneState::Identifier { name: Cow::Owned(zone_name) },
            _ => return Err(StateError::Malformed),
        };
        let unix_seconds = call_long(obj, base, b"gettimestamp", None)?;
        Ok(InternalState::DateTime(DateTimeState { unix_seconds, microsecond, civil, zone: Some(zone) }))
    }
}

/// The state of a date-time read straight from its `timelib_time`, as `__serialize()` and
/// `getTimestamp()` would report it, without calling either (no array, no text to format and parse).
/// `None` when the object is not in the plain shape that allows it (not initialised, no zone, a
/// timestamp not up to date, a field out of range): [`extract_date_time`] then asks the class.
///
/// # Safety
/// `obj` must be the `std` member of a live `php_date_obj` (a date-time of the `DateTime` family).
pub unsafe fn read_date_time<'a>(obj: *mut zend_object) -> Option<InternalState<'a, *mut zval>> {
    // SAFETY: caller guarantees the container layout; `time`, when set, is the object's own
    // `timelib_time`, and the zone strings it points to live as long as it.
    unsafe {
        let time = (*container::<DateObj>(obj, std::mem::offset_of!(DateObj, std))).time;
        if time.is_null() {
            return None;
        }
        let t = &*time;
        // `flags`: have_time, have_date, have_zone, have_relative, have_weeknr_day, sse_uptodate,
        // tim_uptodate, is_localtime, zone_type.
        let [.., sse_uptodate, _, is_localtime, zone_type] = t.flags;
        if sse_uptodate == 0 || is_localtime == 0 {
            return None;
        }
        let [year, month, day, hour, minute, second, us] = t.ymdhis_us;
        let civil = CivilDateTime {
            year,
            month: u8::try_from(month).ok()?,
            day: u8::try_from(day).ok()?,
            hour: u8::try_from(hour).ok()?,
            minute: u8::try_from(minute).ok()?,
            second: u8::try_from(second).ok()?,
        };
        let z = i64::from(t.z);
        let zone = match zone_type as c_int {
            // `__serialize()` writes the offset as `+HH:MM`: seconds are dropped, as there.
            ZONETYPE_OFFSET => {
                let minutes = (z / 3600).abs() * 60 + ((z % 3600) / 60).abs();
                TimeZoneState::Offset { utc_offset_seconds: if z < 0 { -minutes * 60 } else { minutes * 60 } }
            }
            // What `format('I')` and `getOffset()` report: the DST flag, and `z + 3600 * dst` less an hour
            // when that flag is set.
            ZONETYPE_ABBR if !t.tz_abbr.is_null() => {
                let dst = t.dst == 1;
                TimeZoneState::Abbreviation {
                    abbreviation: Cow::Owned(CStr::from_ptr(t.tz_abbr).to_bytes().to_vec()),
                    utc_offset_seconds: z + 3600 * i64::from(t.dst) - 3600 * i64::from(dst),
                    dst,
                }
            }
            ZONETYPE_ID => TimeZoneState::Identifier { name: Cow::Owned(zone_name(t.tz_info)?.into_vec()) },
            _ => return None,
        };
        Some(InternalState::DateTime(DateTimeState {
            unix_seconds: t.sse,
            microsecond: u32::try_from(us).ok()?,
            civil,
            zone: Some(zone),
        }))
    }
}

/// Calls an internal date method that returns an int (or a numeric string, for `format`).
///
/// # Safety
/// `obj` must be a live object of `base` or a subclass.
unsafe fn call_long(
    obj: *mut zend_object,
    base: *mut zend_class_entry,
    lcname: &[u8],
    arg: Option<&[u8]>,
) -> Result<i64, StateError> {
    // SAFETY: caller guarantees the object belongs to `base`; the method is looked up on the internal
    // base, so no userland override runs.
    unsafe {
        let func = class_info::method(base, lcname);
        if func.is_null() {
            return Err(StateError::Malformed);
        }
        let mut args: Vec<zval> = arg.map(zvals::string).into_iter().collect();
        let result = zvals::call_method(func, obj, &mut args);
        drop(args);
        let ret = result.map_err(|()| StateError::Thrown)?;
        let value = match zend::type_of(&raw const ret) {
            IS_LONG => Some(ret.value.lval),
            ext_php_rs::ffi::IS_STRING => {
                std::str::from_utf8(zend::str_bytes(&raw const ret)).ok().and_then(|s| s.parse().ok())
            }
            _ => None,
        };
        drop(ret);
        value.ok_or(StateError::Malformed)
    }
}

/// `TIMELIB_UNSET` (timelib.h): `days` of an interval not made by `diff()`.
const TIMELIB_UNSET: i64 = -9_999_999;

/// The state of an interval read straight from its `php_interval_obj`, as its `__serialize()` array
/// reports it (see [`extract_interval`]), without building that array. `None` for an interval that is not
/// initialised, or made from a date string that is missing: [`extract_interval`] then asks the class.
///
/// # Safety
/// `obj` must be the `std` member of a live `php_interval_obj`.
pub unsafe fn read_interval<'a>(obj: *mut zend_object) -> Option<InternalState<'a, *mut zval>> {
    // SAFETY: caller guarantees the container layout; `diff` and `date_string`, when set, are the
    // object's own.
    unsafe {
        let io = &*container::<IntervalObj>(obj, std::mem::offset_of!(IntervalObj, std));
        if !io.initialized || io.diff.is_null() {
            return None;
        }
        if io.from_string {
            if io.date_string.is_null() {
                return None;
            }
            let from_string = Some(Cow::Owned(zend::zstr_bytes(io.date_string).to_vec()));
            return Some(InternalState::DateInterval(DateIntervalState { from_string, ..Default::default() }));
        }
        let d = &*io.diff;
        let [years, months, days, hours, minutes, seconds, us] = d.ymdhis_us;
        Some(InternalState::DateInterval(DateIntervalState {
            years,
            months,
            days,
            hours,
            minutes,
            seconds,
            // `__serialize()` exports `f` as seconds in a double.
            microseconds: ((us as f64 / 1_000_000.0) * 1_000_000.0).round() as i64,
            invert: d.invert != 0,
            total_days: (d.days != TIMELIB_UNSET).then_some(d.days),
            ..Default::default()
        }))
    }
}

/// # Safety
/// `ht` must be the live `__serialize()` array of a `DateInterval`.
pub unsafe fn extract_interval<'a>(ht: *mut HashTable) -> Result<InternalState<'a, *mut zval>, StateError> {
    // SAFETY: caller guarantees a live array; values are read in place and copied.
    unsafe {
        let flag = |key: &[u8]| -> Result<bool, StateError> {
            match zvals::find_str(ht, key).map(|z| zend::type_of(z)) {
                Some(IS_TRUE) => Ok(true),
                Some(IS_FALSE) | None => Ok(false),
                Some(IS_LONG) => Ok(long_at(ht, key)? != 0),
                _ => Err(StateError::Malformed),
            }
        };
        let mut state = DateIntervalState::default();
        if flag(b"from_string")? {
            state.from_string = Some(Cow::Owned(string_at(ht, b"date_string")?));
            return Ok(InternalState::DateInterval(state));
        }
        state.years = long_at(ht, b"y")?;
        state.months = long_at(ht, b"m")?;
        state.days = long_at(ht, b"d")?;
        state.hours = long_at(ht, b"h")?;
        state.minutes = long_at(ht, b"i")?;
        state.seconds = long_at(ht, b"s")?;
        state.microseconds = match zvals::find_str(ht, b"f") {
            Some(z) if zend::type_of(z) == IS_DOUBLE => ((*z).value.dval * 1_000_000.0).round() as i64,
            _ => return Err(StateError::Malformed),
        };
        state.invert = flag(b"invert")?;
        state.total_days = match zvals::find_str(ht, b"days") {
            Some(z) if zend::type_of(z) == IS_LONG => Some((*z).value.lval),
            _ => None,
        };
        Ok(InternalState::DateInterval(state))
    }
}

/// The `__unserialize()` argument of a date-time.
pub fn date_time_argument<'a, V>(state: &DateTimeState<'_>) -> Arg<'a, V> {
    let date = civil_text(&state.civil, state.microsecond);
    let mut entries = vec![(&b"date"[..], Arg::Bytes(Cow::Owned(date.into_bytes())))];
    if let Some(zone) = &state.zone {
        let (kind, name) = zone_text(zone);
        entries.push((b"timezone_type", Arg::Long(kind)));
        entries.push((b"timezone", Arg::Bytes(Cow::Owned(name))));
    }
    Arg::Map(entries)
}

/// The `__unserialize()` argument of a zone.
pub fn zone_argument<'a, V>(zone: &TimeZoneState<'_>) -> Arg<'a, V> {
    let (kind, name) = zone_text(zone);
    Arg::Map(vec![(b"timezone_type", Arg::Long(kind)), (b"timezone", Arg::Bytes(Cow::Owned(name)))])
}

/// The `__unserialize()` argument of an interval.
pub fn interval_argument<'a, V>(s: &DateIntervalState<'_>) -> Arg<'a, V> {
    if let Some(text) = &s.from_string {
        return Arg::Map(vec![
            (b"from_string", Arg::Bool(true)),
            (b"date_string", Arg::Bytes(Cow::Owned(text.to_vec()))),
        ]);
    }
    Arg::Map(vec![
        (b"y", Arg::Long(s.years)),
        (b"m", Arg::Long(s.months)),
        (b"d", Arg::Long(s.days)),
        (b"h", Arg::Long(s.hours)),
        (b"i", Arg::Long(s.minutes)),
        (b"s", Arg::Long(s.seconds)),
        (b"f", Arg::Double(s.microseconds as f64 / 1_000_000.0)),
        (b"invert", Arg::Long(i64::from(s.invert))),
        (b"days", s.total_days.map_or(Arg::Bool(false), Arg::Long)),
        (b"from_string", Arg::Bool(false)),
    ])
}

/// (`timezone_type`, `timezone`) as the date classes export them.
fn zone_text(zone: &TimeZoneState<'_>) -> (i64, Vec<u8>) {
    match zone {
        TimeZoneState::Offset { utc_offset_seconds } => {
            let o = *utc_offset_seconds;
            let sign = if o < 0 { '-' } else { '+' };
            (1, format!("{sign}{:02}:{:02}", (o / 3600).abs(), ((o % 3600) / 60).abs()).into_bytes())
        }
        TimeZoneState::Abbreviation { abbreviation, .. } => (2, abbreviation.to_vec()),
        TimeZoneState::Identifier { name } => (3, name.to_vec()),
    }
}

/// The date text `__serialize()` gives (PHP's `X-m-d H:i:s.u`): years beyond 9999 carry a `+`, which
/// `__unserialize()` requires (without it, `12345-01-01` does not parse as a year).
fn civil_text(c: &CivilDateTime, microsecond: u32) -> String {
    let sign = if c.year < 0 {
        "-"
    } else if c.year > 9999 {
        "+"
    } else {
        ""
    };
    format!(
        "{sign}{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}",
        c.year.unsigned_abs(),
        c.month,
        c.day,
        c.hour,
        c.minute,
        c.second,
        microsecond
    )
}

/// Parses `[-|+]Y-m-d H:i:s.u` (the year has at least four digits).
fn parse_civil(text: &[u8]) -> Option<(CivilDateTime, u32)> {
    let text = std::str::from_utf8(text).ok()?;
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (year, rest) = rest.split_once('-')?;
    let (date, time) = rest.split_once(' ')?;
    let (month, day) = date.split_once('-')?;
    let (hms, micro) = time.split_once('.')?;
    let mut hms = hms.split(':');
    let (hour, minute, second) = (hms.next()?, hms.next()?, hms.next()?);
    let year: i64 = year.parse().ok()?;
    let civil = CivilDateTime {
        year: if negative { -year } else { year },
        month: month.parse().ok()?,
        day: day.parse().ok()?,
        hour: hour.parse().ok()?,
        minute: minute.parse().ok()?,
        second: second.parse().ok()?,
    };
    Some((civil, micro.parse().ok()?))
}

/// Parses `+HH:MM` / `-HH:MM` into seconds.
fn parse_offset(text: &[u8]) -> Option<i64> {
    let text = std::str::from_utf8(text).ok()?;
    let (sign, rest) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    let (hours, minutes) = rest.split_once(':')?;
    let hours: i64 = hours.parse().ok()?;
    let minutes: i64 = minutes.parse().ok()?;
    Some(sign * (hours * 3600 + minutes * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_text_with_negative_and_long_years_parses() {
        let (c, us) = parse_civil(b"-0044-03-15 12:00:01.000250").expect("parses");
        assert_eq!((c.year, c.month, c.day, c.hour, c.minute, c.second, us), (-44, 3, 15, 12, 0, 1, 250));
        assert_eq!(parse_civil(b"+12345-01-02 03:04:05.000006").map(|(c, _)| c.year), Some(12345));
    }

    #[test]
    fn civil_text_is_what_serialize_gives_for_every_year_width() {
        for (year, text) in [
            (-44, "-0044-03-15 12:00:01.000250"),
            (2024, "2024-03-15 12:00:01.000250"),
            (9999, "9999-03-15 12:00:01.000250"),
            (12345, "+12345-03-15 12:00:01.000250"),
        ] {
            let civil = CivilDateTime { year, month: 3, day: 15, hour: 12, minute: 0, second: 1 };
            assert_eq!(civil_text(&civil, 250), text);
            assert_eq!(parse_civil(text.as_bytes()).map(|(c, us)| (c.year, us)), Some((year, 250)));
        }
    }

    #[test]
    fn offsets_round_trip_through_their_text() {
        for seconds in [0, 7200, -9000, 45 * 60] {
            let (_, text) = zone_text(&TimeZoneState::Offset { utc_offset_seconds: seconds });
            assert_eq!(parse_offset(&text), Some(seconds));
        }
    }
}
