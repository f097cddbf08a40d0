//! The string hash PHP stores in `zend_string::h`, precomputed so the binding can hand strings to PHP as
//! interned/immutable without PHP writing the hash lazily into shared memory (spec A.6).

use std::ffi::c_char;

/// DJBX33A exactly as `zend_inline_hash_func` computes it on this target, high bit set as PHP does on
/// 64-bit builds so the hash is never zero.
///
/// PHP reads the bytes as C `char`, so on targets where `char` is signed (x86, x86-64) bytes of 0x80 and
/// above are added sign-extended; `c_char` carries the same signedness.
pub fn zend_string_hash(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 5381;
    for &byte in bytes {
        // Sign- or zero-extension to 64 bits, as C's integer promotion of `char` does.
        let addend = byte as c_char as i64 as u64;
        hash = hash.wrapping_mul(33).wrapping_add(addend);
    }
    hash | 0x8000_0000_0000_0000
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference values printed by a C program calling PHP 8.2's own `zend_inline_hash_func` from
    // `/usr/include/php/20220829/Zend/zend_string.h` on x86-64.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn hash_matches_php_8_2_zend_inline_hash_func_on_x86_64() {
        assert_eq!(zend_string_hash(b""), 0x8000000000001505);
        assert_eq!(zend_string_hash(b"a"), 0x800000000002b606);
        assert_eq!(zend_string_hash(b"hello"), 0x800000310f923099);
        assert_eq!(zend_string_hash(b"a\0b"), 0x800000000b884fe8);
        assert_eq!(zend_string_hash(b"\xff\x80\x7f\xe9t\xc3\xa9 caf\xc3\xa9 long string\0"), 0xfd0a43cbdb424f69);
        assert_eq!(zend_string_hash(b"0123456789abcdef!"), 0xb4a576c976085388);
    }

    #[test]
    fn hash_always_has_the_high_bit_set() {
        for sample in [&b""[..], b"x", b"\xff\xff\xff"] {
            assert_ne!(zend_string_hash(sample) & 0x8000_0000_0000_0000, 0);
        }
    }
}
