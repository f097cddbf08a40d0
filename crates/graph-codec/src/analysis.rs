//! Whole-graph facts and rules, computed without recursion: id ranges, nested references, array cycles,
//! which nodes are shared, the header flags and the nesting depth.
//!
//! [`crate::encode`] runs this on a model to check its rules before writing it; the decoder runs it on the
//! model it rebuilt and compares the results with what the bytes claim. The store path's `GraphWriter`
//! derives the same facts from what it writes, and the decoder's check holds it to them.

use crate::error::StructureError;
use crate::internal_state::InternalState;
use crate::layout::{flags, MAX_DEPTH};
use crate::model::{ArrayElements, ArrayId, Graph, ObjectId, ObjectState, ReferenceId, Value};
use crate::tier::StoreTier;

/// A node of one of the three arenas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeRef {
    Array(u32),
    Object(u32),
    Reference(u32),
}

impl NodeRef {
    pub(crate) fn of(value: &Value<'_>) -> Option<NodeRef> {
        match value {
            Value::Array(id) => Some(NodeRef::Array(id.0)),
            Value::Object(id) => Some(NodeRef::Object(id.0)),
            Value::Reference(id) => Some(NodeRef::Reference(id.0)),
            _ => None,
        }
    }

    /// Arrays and objects are nesting levels; a reference is transparent.
    fn is_level(self) -> bool {
        !matches!(self, NodeRef::Reference(_))
    }
}

/// Visits the values a node holds, in the order they are encoded.
pub(crate) fn for_each_child_value<'g, 'a>(graph: &'g Graph<'a>, node: NodeRef, mut visit: impl FnMut(&Value<'a>)) {
    match node {
        NodeRef::Array(index) => match &graph.arrays[index as usize].elements {
            ArrayElements::Packed(slots) => slots.iter().flatten().for_each(visit),
            ArrayElements::Hash(entries) => entries.iter().for_each(|(_, value)| visit(value)),
        },
        NodeRef::Object(index) => {
            let visit_properties = |properties: &crate::model::Properties<'a>, visit: &mut dyn FnMut(&Value<'a>)| {
                properties.declared.iter().filter_map(|p| p.value.as_ref()).for_each(&mut *visit);
                properties.dynamic.iter().for_each(|(_, value)| visit(value));
            };
            match &graph.objects[index as usize].state {
                ObjectState::Properties(properties) | ObjectState::PropertiesThenWakeup(properties) => {
                    visit_properties(properties, &mut visit)
                }
                ObjectState::Unserialize(id) => visit(&Value::Array(*id)),
                ObjectState::Internal { state, properties } => {
                    visit_properties(properties, &mut visit);
                    state.for_each_value(&mut visit);
                }
            }
        }
        NodeRef::Reference(index) => visit(&graph.references[index as usize].value),
    }
}

/// Nesting depth of the graph under `root`: a depth-first walk in encoded order that expands each node on
/// its first visit only (as a reader with an identity map does). A container is one level deeper than the
/// container holding it; references add no level. Stops early once `stop_above` is exceeded.
pub(crate) fn traversal_depth(
    root: Option<NodeRef>,
    node_counts: [usize; 3],
    stop_above: u32,
    mut children: impl FnMut(NodeRef, &mut Vec<NodeRef>),
) -> u32 {
    let Some(root) = root else { return 0 };
    let mut visited = [vec![false; node_counts[0]], vec![false; node_counts[1]], vec![false; node_counts[2]]];
    let mut deepest = 0;
    let mut stack = vec![(root, u32::from(root.is_level()))];
    let mut scratch = Vec::new();
    while let Some((node, level)) = stack.pop() {
        let (arena, index) = match node {
            NodeRef::Array(i) => (0, i),
            NodeRef::Object(i) => (1, i),
            NodeRef::Reference(i) => (2, i),
        };
        let Some(seen) = visited[arena].get_mut(index as usize) else {
            continue;
        };
        if std::mem::replace(seen, true) {
            continue;
        }
        deepest = deepest.max(level);
        if deepest > stop_above {
            break;
        }
        scratch.clear();
        children(node, &mut scratch);
        stack.extend(scratch.iter().rev().map(|&child| (child, level.saturating_add(u32::from(child.is_level())))));
    }
    deepest
}

/// [`traversal_depth`] of a graph where no node is reached twice (none is shared, the root's edge
/// counting as one incoming edge, so none lies on a cycle reachable from the root): the walk needs no
/// visited set, and its stack is `stack` (emptied first, left for the caller to keep). `None` if the
/// walk meets more than `node_count` nodes (the graph was not such a graph).
pub(crate) fn tree_depth<'e>(
    root: Option<NodeRef>,
    node_count: usize,
    stop_above: u32,
    stack: &mut Vec<(NodeRef, u32)>,
    children: impl Fn(NodeRef) -> &'e [NodeRef],
) -> Option<u32> {
    let Some(root) = root else { return Some(0) };
    stack.clear();
    stack.push((root, u32::from(root.is_level())));
    let (mut deepest, mut met) = (0, 0usize);
    while let Some((node, level)) = stack.pop() {
        met += 1;
        if met > node_count {
            return None;
        }
        deepest = deepest.max(level);
        if deepest > stop_above {
            break;
        }
        stack.extend(
            children(node).iter().rev().map(|&child| (child, level.saturating_add(u32::from(child.is_level())))),
        );
    }
    Some(deepest)
}

/// What the encoder writes and the decoder checks.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Analysis {
    pub array_shared: Vec<bool>,
    pub object_shared: Vec<bool>,
    pub reference_shared: Vec<bool>,
    pub flags: u32,
    pub depth: u32,
}

/// Checks every graph-level rule for `tier` and computes the facts the layout records.
pub(crate) fn analyze(graph: &Graph<'_>, tier: StoreTier) -> Result<Analysis, StructureError> {
    let counts = [graph.arrays.len(), graph.objects.len(), graph.references.len()];
    if counts.iter().any(|&count| u32::try_from(count).is_err()) {
        return Err(StructureError::TooLarge);
    }
    let mut in_degree = [vec![0u8; counts[0]], vec![0u8; counts[1]], vec![0u8; counts[2]]];
    let mut contains_enum_case = false;
    let mut contains_resource = false;
    let mut count_edge = |value: &Value<'_>, in_degree: &mut [Vec<u8>; 3]| -> Result<(), StructureError> {
        let (arena, index, dangling) = match value {
            Value::Array(id) => (0, id.0, StructureError::DanglingArray(*id)),
            Value::Object(id) => (1, id.0, StructureError::DanglingObject(*id)),
            Value::Reference(id) => (2, id.0, StructureError::DanglingReference(*id)),
            Value::EnumCase(_) => {
                contains_enum_case = true;
                return Ok(());
            }
            Value::Resource => {
                contains_resource = true;
                return Ok(());
            }
            _ => return Ok(()),
        };
        let degree = in_degree[arena].get_mut(index as usize).ok_or(dangling)?;
        *degree = degree.saturating_add(1);
        Ok(())
    };

    count_edge(&graph.root, &mut in_degree)?;
    let mut first_error = Ok(());
    let all_nodes = (0..counts[0] as u32)
        .map(NodeRef::Array)
        .chain((0..counts[1] as u32).map(NodeRef::Object))
        .chain((0..counts[2] as u32).map(NodeRef::Reference));
    for node in all_nodes {
        for_each_child_value(graph, node, |value| {
            if first_error.is_ok() {
                first_error = count_edge(value, &mut in_degree);
            }
        });
        first_error.clone()?;
    }
    if contains_resource {
        return Err(StructureError::Resource);
    }

    for (index, reference) in graph.references.iter().enumerate() {
        if matches!(reference.value, Value::Reference(_)) {
            return Err(StructureError::NestedReference(ReferenceId(index as u32)));
        }
    }
    let mut contains_hooks = false;
    let mut contains_dynamic = false;
    for (index, object) in graph.objects.iter().enumerate() {
        match &object.state {
            ObjectState::Properties(p) => contains_dynamic |= !p.dynamic.is_empty(),
            ObjectState::PropertiesThenWakeup(_) | ObjectState::Unserialize(_) => contains_hooks = true,
            ObjectState::Internal { state, properties } => {
                contains_dynamic |= !properties.dynamic.is_empty();
                if let InternalState::ObjectStorage(storage) = state {
                    // A key is an object, an enum case among them.
                    if storage.entries.iter().any(|e| !matches!(e.object, Value::Object(_) | Value::EnumCase(_))) {
                        return Err(StructureError::StorageKeyNotObject(ObjectId(index as u32)));
                    }
                }
            }
        }
    }
    check_no_array_cycle(graph)?;

    let depth = traversal_depth(NodeRef::of(&graph.root), counts, MAX_DEPTH, |node, out| {
        for_each_child_value(graph, node, |value| out.extend(NodeRef::of(value)))
    });
    if depth > MAX_DEPTH {
        return Err(StructureError::TooDeep { depth, limit: MAX_DEPTH });
    }

    let contains_objects = !graph.objects.is_empty() || contains_enum_case;
    let contains_references = !graph.references.is_empty();
    let shared = |degrees: &Vec<u8>| degrees.iter().map(|&d| d >= 2).collect::<Vec<bool>>();
    let [array_degrees, object_degrees, reference_degrees] = &in_degree;
    let analysis = Analysis {
        array_shared: shared(array_degrees),
        object_shared: shared(object_degrees),
        reference_shared: shared(reference_degrees),
        flags: 0,
        depth,
    };
    let any_shared =
        analysis.array_shared.iter().chain(&analysis.object_shared).chain(&analysis.reference_shared).any(|&s| s);

    let tier_fits = match tier {
        StoreTier::Scalar => graph.root.is_scalar() && counts == [0, 0, 0] && !contains_enum_case,
        StoreTier::SharedGraph => !contains_hooks && !contains_dynamic,
        StoreTier::OPcacheSerialized => true,
        StoreTier::PHPSerialized => false,
    };
    if !tier_fits {
        return Err(StructureError::TierMismatch(tier));
    }

    let mut header_flags = 0;
    if contains_objects {
        header_flags |= flags::CONTAINS_OBJECTS;
    }
    if contains_references {
        header_flags |= flags::CONTAINS_REFERENCES;
    }
    if !contains_objects && !contains_references {
        header_flags |= flags::IMMUTABLE_ELIGIBLE;
    }
    if any_shared {
        header_flags |= flags::CONTAINS_SHARED;
    }
    if contains_hooks {
        header_flags |= flags::CONTAINS_HOOKS;
    }
    Ok(Analysis { flags: header_flags, ..analysis })
}

/// Kahn's algorithm over array-to-array edges: every array must be removable, or some arrays contain
/// each other with no reference or object in between.
fn check_no_array_cycle(graph: &Graph<'_>) -> Result<(), StructureError> {
    let child_arrays = |index: usize, out: &mut Vec<u32>| {
        for_each_child_value(graph, NodeRef::Array(index as u32), |value| {
            if let Value::Array(ArrayId(child)) = value {
                out.push(*child)
            }
        })
    };
    let mut incoming = vec![0usize; graph.arrays.len()];
    let mut scratch = Vec::new();
    for index in 0..graph.arrays.len() {
        scratch.clear();
        child_arrays(index, &mut scratch);
        for &child in &scratch {
            incoming[child as usize] += 1;
        }
    }
    let mut ready: Vec<u32> = (0..graph.arrays.len() as u32).filter(|&i| incoming[i as usize] == 0).collect();
    let mut removed = 0usize;
    while let Some(index) = ready.pop() {
        removed += 1;
        scratch.clear();
        child_arrays(index as usize, &mut scratch);
        for &child in &scratch {
            let degree = &mut incoming[child as usize];
            *degree -= 1;
            if *degree == 0 {
                ready.push(child);
            }
        }
    }
    if removed == graph.arrays.len() {
        Ok(())
    } else {
        Err(StructureError::ArrayCycle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Children lists of a few graphs by node: arrays 0.., then objects, then references.
    fn depths(counts: [usize; 3], edges: &[(NodeRef, Vec<NodeRef>)], root: NodeRef) -> (u32, Option<u32>) {
        let children = |node: NodeRef| -> &[NodeRef] {
            edges.iter().find(|(n, _)| *n == node).map_or(&[][..], |(_, c)| c.as_slice())
        };
        let full = traversal_depth(Some(root), counts, u32::MAX, |node, out| out.extend_from_slice(children(node)));
        let mut stack = vec![(NodeRef::Array(9), 9)];
        (full, tree_depth(Some(root), counts.iter().sum(), u32::MAX, &mut stack, children))
    }

    #[test]
    fn the_tree_walk_gives_the_full_walks_depth_and_gives_up_on_a_graph_that_is_no_tree() {
        use NodeRef::{Array as A, Object as O, Reference as R};
        // Root array 0 -> object 0 -> (array 1 -> reference 0 -> array 2), object 1.
        let tree = [(A(0), vec![O(0)]), (O(0), vec![A(1), O(1)]), (A(1), vec![R(0)]), (R(0), vec![A(2)])];
        assert_eq!(depths([3, 2, 1], &tree, A(0)), (4, Some(4)));
        assert_eq!(depths([3, 2, 1], &tree, R(0)), (1, Some(1)));
        // An object that holds the root again: the tree walk meets more nodes than there are.
        let cycle = [(A(0), vec![O(0)]), (O(0), vec![A(0)])];
        assert_eq!(depths([1, 1, 0], &cycle, A(0)), (2, None));
    }
}
