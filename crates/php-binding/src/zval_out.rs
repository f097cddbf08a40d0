//! Stored bytes → PHP value. Runs after the shm-core entry has been released: the bytes are a
//! private copy, and userland `__unserialize`/`__wakeup` and autoloaders may run here.

use ext_php_rs::ffi::{zval, IS_FALSE};
use ext_php_rs::types::ZendStr;

use crate::encoding;
use crate::zend;

pub enum DecodeError {
    /// Wrong length for a fixed-size tag.
    Corrupted,
    /// The serializer refused the bytes.
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
        encoding::TAG_SERIALIZED_SHARED_GRAPH | encoding::TAG_SERIALIZED_OPCACHE | encoding::TAG_SERIALIZED_PHP => {
            let mut input = zval::new();
            input.set_zend_string(ZendStr::new(bytes, false));
            zend::call_function(c"unserialize", &raw mut input, out).map_err(|_| DecodeError::Thrown)?;
            // SAFETY: `out` was just written by the engine.
            let failed = unsafe { zend::type_of(out) } == IS_FALSE && bytes != b"b:0;";
            if failed {
                return Err(DecodeError::Undecodable);
            }
            Ok(())
        }
        _ => Err(DecodeError::UnknownType),
    }
}
