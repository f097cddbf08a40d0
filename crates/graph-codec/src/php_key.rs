//! PHP's rule for array keys that are integers: PHP stores a key such as `"5"` or `"-12"` as the integer
//! it spells (its symbol tables convert such strings on every insert and lookup), so no PHP array holds it
//! as a string key. A buffer that does (planted or corrupted bytes) is read as PHP would have stored it:
//! the key becomes that integer, and an array that then names a key twice is refused as any array that
//! does (`CheckedGraph::check`, `PlainTree::check`).

/// Most decimal digits of an `i64` key (`9223372036854775807`, and `-9223372036854775808` after its sign).
const MAX_DIGITS: usize = 19;

/// The integer PHP stores an array key of these bytes as, or `None` for a key it keeps as a string: an
/// optional `-`, then 1 to 19 decimal digits with no leading zero (but the key `"0"` itself; `"-0"` stays
/// a string), whose value fits an `i64`.
pub fn integer_key(bytes: &[u8]) -> Option<i64> {
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    let first = *digits.first()?;
    if !first.is_ascii_digit() || (first == b'0' && bytes.len() > 1) || digits.len() > MAX_DIGITS {
        return None;
    }
    let mut magnitude = 0u64;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        // 19 digits stay below 10^19 < 2^64: no overflow.
        magnitude = magnitude * 10 + u64::from(b - b'0');
    }
    if negative {
        // Down to i64::MIN, whose magnitude is 2^63.
        (magnitude <= 1u64 << 63).then(|| 0i64.wrapping_sub_unsigned(magnitude))
    } else {
        i64::try_from(magnitude).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::integer_key;

    #[test]
    fn keys_php_stores_as_integers() {
        for (key, int) in
            [("0", 0), ("5", 5), ("-12", -12), ("9223372036854775807", i64::MAX), ("-9223372036854775808", i64::MIN)]
        {
            assert_eq!(integer_key(key.as_bytes()), Some(int), "{key}");
        }
        for key in [
            "",
            "-",
            "-0",
            "00",
            "05",
            "-05",
            "+5",
            " 5",
            "5 ",
            "1e3",
            "0x1",
            "5.0",
            "9223372036854775808",
            "-9223372036854775809",
            "10000000000000000000",
            "a",
            "-a",
        ] {
            assert_eq!(integer_key(key.as_bytes()), None, "{key:?}");
        }
    }
}
