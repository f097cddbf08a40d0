//! `DateTime`, `DateTimeImmutable`, `DateTimeZone`, `DateInterval`. Date-times and intervals go through
//! the classes' own `__serialize` arrays; zones are read from `php_timezone_obj`, which
//! `ext/date/php_date.h` publishes (its abbreviation offset and DST flag are not in `__serialize`).

use std::borrow::Cow;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

use ext_php_rs::ffi::{
    zend_class_entry, zend_object, zend_string, zval, HashTable, IS_DOUBLE, IS_FALSE, IS_LONG, IS_TRUE,
};
use graph_codec::{CivilDateTime, DateIntervalState, DateTimeState, InternalState, StateFamily, TimeZoneState};

/// `IS_STR_INTERNED` (`GC_IMMUTABLE`): a string without a refcount.
const IS_STR_INTERNED: u32 = 1 << 6;

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

/// Copies the internal state of `src` into `dst`, a fresh object of the same family, the way the
/// class's own clone handler does (`date_object_clone_date`, `_timezone`, `_interval`) but without
/// calling a userland `__clone` (Carbon defines one). Properties are the caller's business.
///
/// # Safety
/// `src` must be a live object and `dst` a freshly created one (no constructor run), both of classes
/// whose nearest internal ancestor belongs to `family`, a date family.
pub unsafe fn copy_state(family: StateFamily, src: *mut zend_object, dst: *mut zend_object) -> Result<(), StateError> {
    // SAFETY: caller guarantees both layouts; memory is allocated with the engine allocator, which
    // timelib uses in PHP (timelib_config.h), so the objects' own free handlers release it.
    unsafe {
        match family {
            StateFamily::DateTime => {
                let (from, to) = (
                    container::<DateObj>(src, std::mem::offset_of!(DateObj, std)),
                    container::<DateObj>(dst, std::mem::offset_of!(DateObj, std)),
                );
                if (*from).time.is_null() || !(*to).time.is_null() {
                    return Err(StateError::Malformed);
                }
                let time = ext_php_rs::ffi::_emalloc(size_of::<TimelibTime>()).cast::<TimelibTime>();
                time.write(*(*from).time);
                if !(*time).tz_abbr.is_null() {
                    (*time).tz_abbr = ext_php_rs::ffi::_estrdup((*time).tz_abbr);
                }
                (*to).time = time;
            }
            StateFamily::DateTimeZone => {
                let offset = std::mem::offset_of!(TimezoneObj, std);
                let (from, to) = (container::<TimezoneObj>(src, offset), container::<TimezoneObj>(dst, offset));
                if !(*from).initialized || (*to).initialized {
                    return Err(StateError::Malformed);
                }
                (*to).type_ = (*from).type_;
                (*to).tzi = match (*from).type_ {
                    ZONETYPE_ABBR => {
                        let mut z = (*from).tzi.z;
                        if !z.abbr.is_null() {
                            z.abbr = ext_php_rs::ffi::_estrdup(z.abbr);
                        }
                        ZoneInfo { z }
                    }
                    ZONETYPE_OFFSET => ZoneInfo { utc_offset: (*from).tzi.utc_offset },
                    _ => ZoneInfo { tz: (*from).tzi.tz },
                };
                (*to).initialized = true;
            }
            StateFamily::DateInterval => {
                let offset = std::mem::offset_of!(IntervalObj, std);
                let (from, to) = (container::<IntervalObj>(src, offset), container::<IntervalObj>(dst, offset));
                if (*from).diff.is_null() || !(*to).diff.is_null() {
                    return Err(StateError::Malformed);
                }
                let diff = ext_php_rs::ffi::_emalloc(size_of::<RelTime>()).cast::<RelTime>();
                diff.write(*(*from).diff);
                (*to).diff = diff;
                (*to).civil_or_wall = (*from).civil_or_wall;
                (*to).from_string = (*from).from_string;
                let text = (*from).date_string;
                if !text.is_null() && (*text).gc.u.type_info & IS_STR_INTERNED == 0 {
                    (*text).gc.refcount += 1; // zend_string_copy
                }
                (*to).date_string = text;
                (*to).initialized = (*from).initialized;
            }
            _ => return Err(StateError::Malformed),
        }
        Ok(())
    }
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
        let mut state = DateIntervalState {
            years: 0,
            months: 0,
            days: 0,
            hours: 0,
            minutes: 0,
            seconds: 0,
            microseconds: 0,
            invert: false,
            total_days: None,
            weekday: 0,
            weekday_behavior: 0,
            first_last_day_of: 0,
            special_type: 0,
            special_amount: 0,
            have_weekday_relative: false,
            have_special_relative: false,
            civil_or_wall: 0,
            from_string: None,
        };
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
    let c = state.civil;
    let sign = if c.year < 0 { "-" } else { "" };
    let date = format!(
        "{sign}{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}",
        c.year.unsigned_abs(),
        c.month,
        c.day,
        c.hour,
        c.minute,
        c.second,
        state.microsecond
    );
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

/// Parses `[-]Y-m-d H:i:s.u` (the year has at least four digits).
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
        assert_eq!(parse_civil(b"12345-01-02 03:04:05.000006").map(|(c, _)| c.year), Some(12345));
    }

    #[test]
    fn offsets_round_trip_through_their_text() {
        for seconds in [0, 7200, -9000, 45 * 60] {
            let (_, text) = zone_text(&TimeZoneState::Offset { utc_offset_seconds: seconds });
            assert_eq!(parse_offset(&text), Some(seconds));
        }
    }
}
