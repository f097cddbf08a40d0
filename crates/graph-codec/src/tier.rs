//! Which storage tier a value needs (spec §6.1), from facts about its objects' classes that the binding
//! supplies: a value takes the highest tier any of its objects needs. The rules live here so the binding
//! and the tests read them in one place.

use crate::internal_state::StateFamily;
use crate::layout::{MAX_DEPTH, MAX_DEPTH_PHP_SERIALIZED};

/// The storage tier of a value, in the order tiers are tried; a graph takes the highest tier any part
/// of it needs. Maps one to one onto the PHP enum `CacheStoreType` (which adds `NotFound`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum StoreTier {
    /// A top-level null, bool, int, float or string.
    Scalar = 1,
    /// Arrays, references, enum cases, plain objects and safe-direct objects; restored without userland
    /// code.
    SharedGraph = 2,
    /// Our binary object encoding: adds dynamic properties and objects restored through `__wakeup` /
    /// `__unserialize`.
    OPcacheSerialized = 3,
    /// Opaque bytes of PHP's `serialize()`.
    PHPSerialized = 4,
}

impl StoreTier {
    pub(crate) fn from_byte(byte: u8) -> Option<Self> {
        Some(match byte {
            1 => StoreTier::Scalar,
            2 => StoreTier::SharedGraph,
            3 => StoreTier::OPcacheSerialized,
            4 => StoreTier::PHPSerialized,
            _ => return None,
        })
    }

    /// The deepest nesting this tier may store (spec §6.6).
    pub fn depth_limit(self) -> u32 {
        match self {
            StoreTier::PHPSerialized => MAX_DEPTH_PHP_SERIALIZED,
            _ => MAX_DEPTH,
        }
    }
}

/// What a class is, as far as storing its objects goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassKind {
    /// A userland class with no internal ancestor.
    Userland,
    /// `stdClass` itself.
    StdClass,
    /// A safe-direct internal class, or a userland subclass of one.
    SafeDirect(StateFamily),
    Enum,
    Closure,
    /// `ZEND_ACC_NOT_SERIALIZABLE` or an anonymous class.
    NotSerializable,
    /// An internal class other than `stdClass` without a safe-direct codec (for example `Exception`), or a
    /// userland subclass of one.
    OtherInternal,
}

/// Serialization methods declared by userland classes in a class's chain (internal declarations, such
/// as `DateTime::__serialize`, do not count: the safe-direct codec replaces them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UserlandHooks {
    pub serialize: bool,
    pub unserialize: bool,
    pub sleep: bool,
    pub wakeup: bool,
}

impl UserlandHooks {
    pub fn any(self) -> bool {
        self.serialize || self.unserialize || self.sleep || self.wakeup
    }
}

/// Per-class facts the binding reads from the class entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassInfo {
    pub kind: ClassKind,
    pub userland_hooks: UserlandHooks,
    /// Implements `Serializable` and no class in the chain has `__serialize` (which would win).
    pub serializable_without_serialize: bool,
}

/// Why a single object cannot be stored at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassRejection {
    Closure,
    NotSerializable,
}

impl ClassInfo {
    /// The tier one object of this class needs. `has_dynamic_properties` is whether this object carries
    /// properties beyond its declared ones. The binding can call this while walking zvals, before it runs
    /// any hook, to learn early that a value must go to `PHPSerialized` (so hooks run only once).
    pub fn object_tier(&self, has_dynamic_properties: bool) -> Result<StoreTier, ClassRejection> {
        Ok(match self.kind {
            ClassKind::Closure => return Err(ClassRejection::Closure),
            ClassKind::NotSerializable => return Err(ClassRejection::NotSerializable),
            ClassKind::Enum => StoreTier::SharedGraph,
            ClassKind::OtherInternal => StoreTier::PHPSerialized,
            _ if self.serializable_without_serialize => StoreTier::PHPSerialized,
            ClassKind::StdClass => StoreTier::OPcacheSerialized,
            _ if self.userland_hooks.any() || has_dynamic_properties => StoreTier::OPcacheSerialized,
            ClassKind::Userland | ClassKind::SafeDirect(_) => StoreTier::SharedGraph,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn userland() -> ClassInfo {
        ClassInfo {
            kind: ClassKind::Userland,
            userland_hooks: UserlandHooks::default(),
            serializable_without_serialize: false,
        }
    }

    #[test]
    fn a_plain_object_is_shared_graph_and_stdclass_is_opcache_serialized_even_when_empty() {
        assert_eq!(userland().object_tier(false), Ok(StoreTier::SharedGraph));
        let std = ClassInfo { kind: ClassKind::StdClass, ..userland() };
        assert_eq!(std.object_tier(false), Ok(StoreTier::OPcacheSerialized));
    }

    #[test]
    fn enum_cases_are_shared_graph() {
        assert_eq!(ClassInfo { kind: ClassKind::Enum, ..userland() }.object_tier(false), Ok(StoreTier::SharedGraph));
    }

    #[test]
    fn dynamic_properties_or_userland_hooks_need_opcache_serialized() {
        assert_eq!(userland().object_tier(true), Ok(StoreTier::OPcacheSerialized));
        let hooked = ClassInfo {
            userland_hooks: UserlandHooks { serialize: true, unserialize: true, ..UserlandHooks::default() },
            ..userland()
        };
        assert_eq!(hooked.object_tier(false), Ok(StoreTier::OPcacheSerialized));
    }

    #[test]
    fn safe_direct_classes_stay_shared_graph_unless_a_userland_subclass_adds_hooks() {
        let date = ClassInfo { kind: ClassKind::SafeDirect(StateFamily::DateTime), ..userland() };
        assert_eq!(date.object_tier(false), Ok(StoreTier::SharedGraph));
        let carbon = ClassInfo {
            userland_hooks: UserlandHooks { serialize: true, unserialize: true, ..UserlandHooks::default() },
            ..date
        };
        assert_eq!(carbon.object_tier(false), Ok(StoreTier::OPcacheSerialized));
    }

    #[test]
    fn legacy_serializable_and_other_internal_classes_need_php_serialized() {
        let legacy = ClassInfo { serializable_without_serialize: true, ..userland() };
        assert_eq!(legacy.object_tier(false), Ok(StoreTier::PHPSerialized));
        let exception = ClassInfo { kind: ClassKind::OtherInternal, ..userland() };
        assert_eq!(exception.object_tier(false), Ok(StoreTier::PHPSerialized));
    }

    #[test]
    fn closures_and_not_serializable_classes_are_rejected_with_their_reason() {
        let closure = ClassInfo { kind: ClassKind::Closure, ..userland() };
        assert_eq!(closure.object_tier(false), Err(ClassRejection::Closure));
        let generator = ClassInfo { kind: ClassKind::NotSerializable, ..userland() };
        assert_eq!(generator.object_tier(true), Err(ClassRejection::NotSerializable));
    }

    #[test]
    fn php_serialized_values_are_limited_to_one_thousand_levels_and_the_others_to_ten_thousand() {
        assert_eq!(StoreTier::PHPSerialized.depth_limit(), 1_000);
        assert_eq!(StoreTier::SharedGraph.depth_limit(), 10_000);
        assert_eq!(StoreTier::OPcacheSerialized.depth_limit(), 10_000);
    }
}
