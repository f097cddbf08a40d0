//! The header hints a reader reads before the one-pass check of a plain tree (`plain_tree::may_be_plain`,
//! `plain_tree::likely_plain`): the first never refuses a buffer `PlainTree::check` accepts; the second
//! refuses a packed list past the check's entry limit, which the check would refuse after reading it.

use std::borrow::Cow;

use graph_codec::plain_tree::{likely_plain, may_be_plain, MAX_ENTRIES};
use graph_codec::*;

fn list(len: usize) -> Vec<u8> {
    let mut graph = Graph::new(Value::Array(ArrayId(0)));
    graph.arrays.push(ArrayNode {
        elements: ArrayElements::Packed((0..len as i64).map(|i| Some(Value::Int(i))).collect()),
        next_free_index: len as i64,
    });
    encode(&graph, StoreTier::SharedGraph).unwrap()
}

/// A hash array of `entries` integer keys (no strings: the tree's string limit is not what is tested).
fn row(entries: usize) -> Vec<u8> {
    let mut graph = Graph::new(Value::Array(ArrayId(0)));
    graph.arrays.push(ArrayNode {
        elements: ArrayElements::Hash((0..entries as i64).map(|i| (ArrayKey::Int(3 * i + 1), Value::Int(i))).collect()),
        next_free_index: 3 * entries as i64 + 1,
    });
    encode(&graph, StoreTier::SharedGraph).unwrap()
}

#[test]
fn the_hints_keep_every_tree_the_check_accepts_and_refuse_long_lists() {
    for bytes in [list(0), list(3), list(MAX_ENTRIES), row(4), row(MAX_ENTRIES / 2)] {
        assert!(PlainTree::check(&bytes, |_| ()).is_some());
        assert!(may_be_plain(&bytes) && likely_plain(&bytes));
    }
    // Hash arrays past half the limit: the check accepts them, the second hint errs towards refusing.
    let wide = row(MAX_ENTRIES);
    assert!(PlainTree::check(&wide, |_| ()).is_some() && may_be_plain(&wide) && !likely_plain(&wide));
    // Past the limit: the check refuses after reading the records, the second hint from the header.
    let long = list(MAX_ENTRIES + 12);
    assert!(PlainTree::check(&long, |_| ()).is_none() && may_be_plain(&long) && !likely_plain(&long));
    // An object graph, a truncated header, a scalar: refused by both.
    let mut graph = Graph::new(Value::Null);
    let properties = Properties { declared: vec![], dynamic: vec![(Cow::Borrowed(&b"p"[..]), Value::Int(1))] };
    let state = ObjectState::Properties(properties);
    let object = graph.push_object(ObjectNode { class_name: Cow::Borrowed(&b"stdClass"[..]), state });
    graph.root = Value::Object(object);
    let object = encode(&graph, StoreTier::OPcacheSerialized).unwrap();
    for bytes in [&object[..], &list(3)[..20], &encode(&Graph::new(Value::Int(1)), StoreTier::Scalar).unwrap()[..]] {
        assert!(!may_be_plain(bytes) && !likely_plain(bytes));
    }
}
