//! Which storage tier a value needs (spec §6.1), as a pure function over the model plus per-class facts
//! the binding supplies. The rules live here so the binding and the tests read them in one place.

use foldhash::{HashMap, HashMapExt};

use crate::analysis::{for_each_child_value, traversal_depth, NodeRef};
use crate::internal_state::StateFamily;
use crate::layout::{MAX_DEPTH, MAX_DEPTH_PHP_SERIALIZED};
use crate::model::{Graph, ObjectState, Value};

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

/// Why a value can never be stored (the explicit API returns `false`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unstorable {
    Resource,
    Closure,
    /// A class PHP marks as not serializable (`Generator`, `Fiber`, `WeakMap`, `PDO`, anonymous classes…).
    NotSerializable {
        class_name: Vec<u8>,
    },
    /// Nested deeper than the tier allows. The spec's message for this is
    /// `value is nested too deeply to be stored in the static cache`.
    TooDeep {
        depth: u32,
        limit: u32,
    },
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

/// The outcome of [`classify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classification {
    pub tier: StoreTier,
    /// Nesting depth as defined for the layout header (arrays and objects count, references do not).
    pub depth: u32,
}

/// The tier a whole graph needs, or why it cannot be stored. `class_info` is asked once per distinct class
/// name. Objects whose state already is a hook result (`Unserialize`, `PropertiesThenWakeup`) need at
/// least `OPcacheSerialized` whatever the class facts say.
pub fn classify(
    graph: &Graph<'_>,
    mut class_info: impl FnMut(&[u8]) -> ClassInfo,
) -> Result<Classification, Unstorable> {
    if matches!(graph.root, Value::Resource) {
        return Err(Unstorable::Resource);
    }
    if NodeRef::of(&graph.root).is_none() && !matches!(graph.root, Value::EnumCase(_)) {
        return Ok(Classification { tier: StoreTier::Scalar, depth: 0 });
    }

    let mut tier = StoreTier::SharedGraph;
    let mut facts: HashMap<&[u8], ClassInfo> = HashMap::new();
    for object in &graph.objects {
        let info = *facts.entry(&object.class_name[..]).or_insert_with(|| class_info(&object.class_name));
        let has_dynamic_properties = match &object.state {
            ObjectState::Properties(p) | ObjectState::PropertiesThenWakeup(p) => !p.dynamic.is_empty(),
            ObjectState::Internal { properties, .. } => !properties.dynamic.is_empty(),
            ObjectState::Unserialize(_) => false,
        };
        let object_tier = info.object_tier(has_dynamic_properties).map_err(|rejection| match rejection {
            ClassRejection::Closure => Unstorable::Closure,
            ClassRejection::NotSerializable => Unstorable::NotSerializable { class_name: object.class_name.to_vec() },
        })?;
        let state_tier = match object.state {
            ObjectState::PropertiesThenWakeup(_) | ObjectState::Unserialize(_) => StoreTier::OPcacheSerialized,
            _ => StoreTier::SharedGraph,
        };
        tier = tier.max(object_tier).max(state_tier);
    }
    let mut contains_resource = false;
    let counts = [graph.arrays.len(), graph.objects.len(), graph.references.len()];
    let depth = traversal_depth(NodeRef::of(&graph.root), counts, MAX_DEPTH, |node, out| {
        for_each_child_value(graph, node, |value| {
            contains_resource |= matches!(value, Value::Resource);
            out.extend(NodeRef::of(value))
        })
    });
    if contains_resource {
        return Err(Unstorable::Resource);
    }
    let limit = tier.depth_limit();
    if depth > limit {
        return Err(Unstorable::TooDeep { depth, limit });
    }
    Ok(Classification { tier, depth })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ArrayElements, ArrayNode, ObjectNode, Properties};

    fn userland() -> ClassInfo {
        ClassInfo {
            kind: ClassKind::Userland,
            userland_hooks: UserlandHooks::default(),
            serializable_without_serialize: false,
        }
    }

    fn graph_with_one_object(class: &'static str, dynamic: bool) -> Graph<'static> {
        let mut graph = Graph::new(Value::Null);
        let properties = Properties {
            declared: vec![],
            dynamic: if dynamic { vec![(b"a".to_vec().into(), Value::Int(1))] } else { vec![] },
        };
        let object = graph.push_object(ObjectNode {
            class_name: class.as_bytes().into(),
            state: ObjectState::Properties(properties),
        });
        graph.root = Value::Object(object);
        graph
    }

    fn nested_arrays(levels: usize) -> Graph<'static> {
        let mut graph = Graph::new(Value::Null);
        let mut inner = None;
        for _ in 0..levels {
            let elements = ArrayElements::Packed(inner.map(|id| vec![Some(Value::Array(id))]).unwrap_or_default());
            inner = Some(graph.push_array(ArrayNode { elements, next_free_index: 1 }));
        }
        graph.root = Value::Array(inner.expect("at least one level"));
        graph
    }

    #[test]
    fn top_level_scalars_are_scalar_tier() {
        for value in [Value::Null, Value::Int(123), Value::String(b"hello".to_vec().into())] {
            let tier = classify(&Graph::new(value), |_| userland()).map(|c| c.tier);
            assert_eq!(tier, Ok(StoreTier::Scalar));
        }
    }

    #[test]
    fn a_top_level_enum_case_is_shared_graph() {
        let case = crate::model::EnumCase { class_name: b"Suit".to_vec().into(), case_name: b"Hearts".to_vec().into() };
        let tier = classify(&Graph::new(Value::EnumCase(Box::new(case))), |_| userland()).map(|c| c.tier);
        assert_eq!(tier, Ok(StoreTier::SharedGraph));
    }

    #[test]
    fn a_plain_object_is_shared_graph_and_stdclass_is_opcache_serialized_even_when_empty() {
        let plain = classify(&graph_with_one_object("Plain", false), |_| userland()).map(|c| c.tier);
        assert_eq!(plain, Ok(StoreTier::SharedGraph));
        let std = classify(&graph_with_one_object("stdClass", false), |_| ClassInfo {
            kind: ClassKind::StdClass,
            ..userland()
        })
        .map(|c| c.tier);
        assert_eq!(std, Ok(StoreTier::OPcacheSerialized));
    }

    #[test]
    fn dynamic_properties_or_userland_hooks_need_opcache_serialized() {
        let dynamic = classify(&graph_with_one_object("Dyn", true), |_| userland()).map(|c| c.tier);
        assert_eq!(dynamic, Ok(StoreTier::OPcacheSerialized));
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
        let closure = classify(&graph_with_one_object("Closure", false), |_| ClassInfo {
            kind: ClassKind::Closure,
            ..userland()
        });
        assert_eq!(closure, Err(Unstorable::Closure));
        let generator = classify(&graph_with_one_object("Generator", false), |_| ClassInfo {
            kind: ClassKind::NotSerializable,
            ..userland()
        });
        assert_eq!(generator, Err(Unstorable::NotSerializable { class_name: b"Generator".to_vec() }));
    }

    #[test]
    fn resources_anywhere_are_rejected() {
        let mut graph = Graph::new(Value::Null);
        let array = graph
            .push_array(ArrayNode { elements: ArrayElements::Packed(vec![Some(Value::Resource)]), next_free_index: 1 });
        graph.root = Value::Array(array);
        assert_eq!(classify(&graph, |_| userland()), Err(Unstorable::Resource));
        assert_eq!(classify(&Graph::new(Value::Resource), |_| userland()), Err(Unstorable::Resource));
    }

    #[test]
    fn depth_is_limited_to_ten_thousand_levels_and_one_thousand_for_php_serialized() {
        assert_eq!(classify(&nested_arrays(10_000), |_| userland()).map(|c| c.depth), Ok(10_000));
        assert_eq!(
            classify(&nested_arrays(10_001), |_| userland()),
            Err(Unstorable::TooDeep { depth: 10_001, limit: 10_000 })
        );
        let mut deep_with_exception = nested_arrays(1_001);
        let exception = deep_with_exception.push_object(ObjectNode {
            class_name: b"Exception".to_vec().into(),
            state: ObjectState::Properties(Properties::default()),
        });
        deep_with_exception.arrays[0].elements = ArrayElements::Packed(vec![Some(Value::Object(exception))]);
        let result = classify(&deep_with_exception, |_| ClassInfo { kind: ClassKind::OtherInternal, ..userland() });
        assert_eq!(result, Err(Unstorable::TooDeep { depth: 1_002, limit: 1_000 }));
    }
}
