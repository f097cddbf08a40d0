//! The string hash PHP stores in `zend_string::h`, precomputed so the binding can hand strings to PHP as
//! interned/immutable without PHP writing the hash lazily into shared memory (spec A.6).

use std::ffi::c_char;

/// DJBX33A exactly as `zend_inline_hash_func` computes it on this target, high bit set as PHP does on
/// 64-bit builds so the hash is never zero.
///
/// PHP reads the bytes as C `char`, so on targets where `char` is signed (x86, x86-64) bytes of 0x80 and
/// above are added sign-extended; `c_char` carries the same signedness.
///
/// Eight bytes at a time, the steps `h = h * 33 + c` unrolled into `h * 33^8 + c0 * 33^7 + … + c7`
/// (wrapping, as every step wraps): eight products that do not wait for one another, where the plain
/// loop waits on each multiplication.
pub fn zend_string_hash(bytes: &[u8]) -> u64 {
    /// 33^7 down to 33^0.
    const POWERS: [u64; 8] = [33u64.pow(7), 33u64.pow(6), 33u64.pow(5), 33u64.pow(4), 33u64.pow(3), 33 * 33, 33, 1];
    const POWER_8: u64 = 33u64.pow(8);
    let mut hash: u64 = 5381;
    let mut blocks = bytes.chunks_exact(8);
    for block in &mut blocks {
        let mut next = hash.wrapping_mul(POWER_8);
        for (&byte, &power) in block.iter().zip(&POWERS) {
            next = next.wrapping_add(addend(byte).wrapping_mul(power));
        }
        hash = next;
    }
    for &byte in blocks.remainder() {
        hash = hash.wrapping_mul(33).wrapping_add(addend(byte));
    }
    hash | 0x8000_0000_0000_0000
}

/// A byte as PHP adds it: sign- or zero-extended to 64 bits, as C's integer promotion of `char` does.
#[inline(always)]
fn addend(byte: u8) -> u64 {
    byte as c_char as i64 as u64
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

    /// The byte-at-a-time definition, for comparison with the unrolled one.
    fn one_byte_at_a_time(bytes: &[u8]) -> u64 {
        bytes.iter().fold(5381u64, |hash, &byte| hash.wrapping_mul(33).wrapping_add(addend(byte)))
            | 0x8000_0000_0000_0000
    }

    #[test]
    fn eight_bytes_at_a_time_is_one_byte_at_a_time_for_every_length_and_byte() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let bytes: Vec<u8> = (0..300)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        for len in 0..bytes.len() {
            for start in [0, 1, 5] {
                let sample = &bytes[start.min(len)..len];
                assert_eq!(zend_string_hash(sample), one_byte_at_a_time(sample), "{} bytes", sample.len());
            }
        }
        let high = [0xffu8; 40];
        assert_eq!(zend_string_hash(&high), one_byte_at_a_time(&high));
    }

    #[test]
    fn hash_always_has_the_high_bit_set() {
        for sample in [&b""[..], b"x", b"\xff\xff\xff"] {
            assert_ne!(zend_string_hash(sample) & 0x8000_0000_0000_0000, 0);
        }
    }
}
