//! The cheapest write pair, `store()` then `delete()` of one key (the binding's `set()` then
//! `delete()`), SIGKILLed at random moments: each store takes the block the previous pairs' deletes
//! returned to a quick list (once reclaimed), each delete retires the entry the store just published,
//! and reclamation frees them in batches. After every kill the backend must verify (no block leaked or
//! dangling, counts right), the key must be absent or hold exactly the value the killed pair was writing
//! (or, when that pair's store was undone, what the key held before it: nothing lost but the in-flight
//! write), and an entry stored before must be untouched. Some rounds stall
//! the first store inside its transaction (`stall_next_write`), so that kills land there too.
//!
//! Runs single-threaded under its own harness (see Cargo.toml): fork() must not inherit a held lock.

#[path = "../../../tests/support/mod.rs"]
mod support;

use shm_core::{PartitionSpec, Segment, TAG_INT};
use std::time::Duration;
use support::{fork, Rng, SharedWords, Signal};

const ROUNDS: u64 = 120;

fn check(cond: bool, what: &str) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(what.to_string())
    }
}

/// The value of pair `i`: an integer on even pairs, a string whose length varies on odd ones (so that
/// blocks of several sizes are reused from the quick lists).
fn value_of(i: u64) -> (u16, Vec<u8>) {
    if i.is_multiple_of(2) {
        (TAG_INT, (i as i64).to_le_bytes().to_vec())
    } else {
        (2, format!("{i}:{}", "v".repeat((i % 40) as usize)).into_bytes())
    }
}

fn a_set_delete_loop_killed_at_random_loses_nothing_but_the_pair_in_flight() -> Result<(), String> {
    let seg = Segment::create_anonymous(&[PartitionSpec {
        name: "default".into(),
        volatile_bytes: 1 << 20,
        pinned_bytes: 1 << 20,
    }])
    .map_err(|e| format!("{e:?}"))?;
    let p = seg.partition("default").ok_or("no partition")?;
    let backends = [p.volatile.ok_or("no volatile backend")?, p.pinned.ok_or("no pinned backend")?];
    // Word 0: the pair the child is on (its value may be the one stored when it dies).
    let progress = SharedWords::new(1);
    let mut rng = Rng::new(Rng::seed_from_os());
    for b in &backends {
        b.store(b"kept", 2, b"stored before any kill", 0).map_err(|e| format!("{e:?}"))?;
        let recoveries_before = b.stats().recoveries;
        let mut next = 1u64;
        // What the key held when the round began.
        let mut left: Option<(u16, Vec<u8>)> = None;
        for round in 0..ROUNDS {
            let ready = Signal::new();
            let bc = b.clone();
            let words = &progress;
            let stalled = round % 4 == 0;
            let child = fork(move || {
                if stalled {
                    bc.stall_next_write(1_000_000);
                }
                ready.notify();
                let mut i = next;
                loop {
                    words.set(0, i);
                    let (tag, value) = value_of(i);
                    if bc.store(b"d", tag, &value, 0).is_err() {
                        return 1;
                    }
                    bc.delete(b"d");
                    i += 1;
                }
            });
            check(ready.wait(Duration::from_secs(5)), "the child did not start")?;
            std::thread::sleep(Duration::from_micros(200 + rng.below(3_000)));
            child.kill();
            let at = progress.get(0);
            b.verify().map_err(|e| format!("round {round}: {e}"))?;
            // The pair in flight stored its value, or its store was undone; a pair that never got its
            // store through (the round's first) leaves what the previous round left.
            let now = b.peek(b"d").map(|e| (e.tag(), e.value().to_vec()));
            check(
                now.is_none() || now == Some(value_of(at)) || (at == next && now == left),
                &format!("round {round}: the key holds {now:?}, pair {at} was in flight"),
            )?;
            left = now;
            let kept = b.peek(b"kept").ok_or("an entry stored before the kills was lost")?;
            check(kept.value() == b"stored before any kill", "an entry stored before the kills changed")?;
            next = at + 1;
        }
        check(
            b.stats().recoveries - recoveries_before >= ROUNDS / 4,
            "the stalled rounds must have been killed inside their transaction",
        )?;
        // Still writable, and what the pairs retired is all reclaimable: once the key is gone, no block
        // but the kept entry's is in use.
        b.delete(b"d");
        b.store(b"after", 2, b"still writable", 0).map_err(|e| format!("{e:?}"))?;
        b.delete(b"after");
        let report = b.verify()?;
        check(report.entries == 1, "only the kept entry should be left")?;
    }
    Ok(())
}

fn main() {
    let scenarios: &[support::Scenario] = &[(
        "a_set_delete_loop_killed_at_random_loses_nothing_but_the_pair_in_flight",
        a_set_delete_loop_killed_at_random_loses_nothing_but_the_pair_in_flight,
    )];
    support::run_scenarios(scenarios);
}
