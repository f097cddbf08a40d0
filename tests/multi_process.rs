//! Multi-process behaviour of shm-core: real forked processes over one segment, SIGKILLs at awkward
//! moments, and named segments mapped at different addresses. Runs single-threaded (see Cargo.toml).

#[path = "support/mod.rs"]
mod support;

use shm_core::{Backend, PartitionSpec, RequestId, Segment, SegmentError};
use std::time::{Duration, Instant};
use support::{checked_value, eventually, fork, value_is_intact, Rng, SharedWords, Signal};

const MB: u64 = 1 << 20;

fn check(cond: bool, what: &str) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(what.to_string())
    }
}

fn anon(volatile: u64, pinned: u64) -> (Segment, Backend, Backend) {
    let seg = Segment::create_anonymous(&[PartitionSpec {
        name: "default".into(),
        volatile_bytes: volatile,
        pinned_bytes: pinned,
    }])
    .expect("segment");
    let p = seg.partition("default").unwrap();
    (seg, p.volatile.unwrap(), p.pinned.unwrap())
}

fn unique_name(tag: &str) -> String {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("static_cache.test.{}.{n}.{tag}", std::process::id())
}

fn concurrent_writers_and_readers_never_see_a_torn_value() -> Result<(), String> {
    let (_seg, v, _) = anon(4 * MB, MB);
    let deadline = Instant::now() + Duration::from_millis(1500);
    let mut children = Vec::new();
    for w in 0..2u64 {
        let v = v.clone();
        children.push(fork(move || {
            let mut i = 0u64;
            while Instant::now() < deadline {
                let shared = format!("shared{}", i % 8);
                let own = format!("own{w}-{}", i % 50);
                let len = 16 + (i * 7919 % 20_000) as usize;
                if v.store(shared.as_bytes(), 2, &checked_value(i * 2 + w, len), 0).is_err()
                    || v.store(own.as_bytes(), 2, &checked_value(i, len / 2), 0).is_err()
                {
                    return 2;
                }
                i += 1;
            }
            0
        }));
    }
    for _ in 0..2 {
        let v = v.clone();
        children.push(fork(move || {
            let mut seen = 0;
            while Instant::now() < deadline {
                for k in 0..8 {
                    if let Some(e) = v.get(format!("shared{k}").as_bytes()) {
                        if !value_is_intact(e.value()) {
                            return 3;
                        }
                        seen += 1;
                    }
                }
            }
            if seen > 0 {
                0
            } else {
                4
            }
        }));
    }
    for c in children {
        let code = c.wait();
        check(code == 0, &format!("child {} exited with {code}", c.pid))?;
    }
    v.verify()?;
    Ok(())
}

fn counters_from_forked_processes_sum_exactly() -> Result<(), String> {
    let (_seg, _, p) = anon(MB, MB);
    let children: Vec<_> = (0..4)
        .map(|n| {
            let p = p.clone();
            fork(move || {
                for _ in 0..2000 {
                    let r = if n % 2 == 0 { p.increment(b"hits", 3) } else { p.decrement(b"hits", -3) };
                    if r.is_err() {
                        return 2;
                    }
                }
                0
            })
        })
        .collect();
    for c in children {
        check(c.wait() == 0, "counter child failed")?;
    }
    let total = p.peek(b"hits").and_then(|e| e.as_int());
    check(total == Some(4 * 2000 * 3), &format!("counter is {total:?}"))?;
    p.verify()?;
    Ok(())
}

/// Issue 12: sixteen processes increment one pinned counter in place (lock-free) while the parent
/// SIGKILLs them at random moments and starts new ones, and a seventeenth process keeps forcing
/// compaction that moves the counter. Every increment returns the counter's new value, and every
/// returned value is recorded: no value may come back twice (a lost update), and at most one value per
/// kill may never come back (a process killed between its increment and recording it).
fn counters_stay_exact_with_16_incrementing_processes_killed_at_random() -> Result<(), String> {
    const WORKERS: usize = 16;
    const STOP: usize = 0;
    const DUPLICATE: usize = 1;
    const FAILED: usize = 2;
    const SEEN: usize = 8; // bitmap of returned values from here on
    const CAPACITY: u64 = 1 << 28; // values the bitmap covers (16 processes reach 70 million in 3 s)
    let (_seg, _, p) = anon(MB, 8 * MB);
    let sh = SharedWords::new(SEEN + (CAPACITY / 64) as usize);
    let worker = |p: Backend, sh: &SharedWords| {
        let sh: &'static SharedWords = unsafe_static(sh);
        fork(move || {
            while sh.get(STOP) == 0 {
                match p.increment(b"counter", 1) {
                    Ok(r) if (r.value as u64) < CAPACITY => {
                        let bit = 1u64 << (r.value % 64);
                        if sh.word(SEEN + (r.value / 64) as usize).fetch_or(bit, std::sync::atomic::Ordering::SeqCst)
                            & bit
                            != 0
                        {
                            sh.set(DUPLICATE, r.value as u64);
                            return 3;
                        }
                    }
                    Ok(_) => {
                        sh.set(STOP, 1);
                        sh.set(FAILED, 1);
                        return 4;
                    }
                    Err(_) => {
                        sh.add(FAILED, 1);
                        return 2;
                    }
                }
            }
            0
        })
    };
    // Fragments the backend around the counter and stores large values, so compaction moves it.
    let churner = {
        let p = p.clone();
        let sh: &'static SharedWords = unsafe_static(&sh);
        fork(move || {
            for i in 0..4000 {
                let _ = p.store(format!("f{i}").as_bytes(), 2, &[1u8; 1000], 0);
            }
            let mut round = 0u64;
            while sh.get(STOP) == 0 {
                for i in (round % 2..4000).step_by(2) {
                    p.delete(format!("f{i}").as_bytes());
                }
                let big = (p.stats().free_bytes * 3 / 4) as usize;
                let _ = p.store(b"big", 2, &vec![2u8; big], 0);
                p.delete(b"big");
                for i in (round % 2..4000).step_by(2) {
                    let _ = p.store(format!("f{i}").as_bytes(), 2, &[1u8; 1000], 0);
                }
                round += 1;
            }
            0
        })
    };
    let mut children: Vec<_> = (0..WORKERS).map(|_| worker(p.clone(), &sh)).collect();
    let mut rng = Rng::new(Rng::seed_from_os());
    let mut kills = 0u64;
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline && sh.get(STOP) == 0 {
        std::thread::sleep(Duration::from_micros(rng.range(1_000, 20_000)));
        let w = rng.below(WORKERS as u64) as usize;
        children[w].kill();
        kills += 1;
        children[w] = worker(p.clone(), &sh);
    }
    sh.set(STOP, 1);
    for c in children {
        check(c.wait() == 0, "an incrementing process failed")?;
    }
    check(churner.wait() == 0, "the churning process failed")?;
    check(sh.get(DUPLICATE) == 0, &format!("increment returned {} twice: an update was lost", sh.get(DUPLICATE)))?;
    check(sh.get(FAILED) == 0, "an increment failed, or the counter outgrew the record of returned values")?;
    let last = p.peek(b"counter").and_then(|e| e.as_int()).ok_or("no counter")? as u64;
    let seen: u64 = (1..=last).filter(|v| sh.get(SEEN + (v / 64) as usize) & 1 << (v % 64) != 0).count() as u64;
    check(
        last - seen <= kills,
        &format!("counter at {last}, {seen} values returned, {kills} kills: increments were doubled"),
    )?;
    check(p.stats().relocations > 0, "compaction never moved anything")?;
    p.verify()?;
    println!(
        "    counters: {last} increments by 16 processes, {kills} kills, {} values never returned, relocations {}",
        last - seen,
        p.stats().relocations
    );
    Ok(())
}

/// The shared words outlive every forked child (the parent keeps them until the scenario returns).
fn unsafe_static(sh: &SharedWords) -> &'static SharedWords {
    // SAFETY: each scenario keeps its SharedWords alive until every child it forked has exited, and a
    // child only uses the mapping, which fork() copied into it.
    unsafe { &*(sh as *const SharedWords) }
}

/// A store of a large value is copied outside the write lock; the process is killed in the middle of
/// the copy. Nothing is visible, the backend verifies, and the staged block comes back once memory runs
/// short.
fn a_store_killed_while_copying_outside_the_lock_leaks_nothing() -> Result<(), String> {
    let (_seg, _, p) = anon(MB, 4 * MB);
    let free = p.stats().free_bytes;
    let staged = Signal::new();
    let pc = p.clone();
    let child = fork(move || {
        pc.stall_next_copy(30_000_000);
        staged.notify();
        let _ = pc.store(b"big", 2, &vec![3u8; 2 * MB as usize], 0);
        0
    });
    check(staged.wait(Duration::from_secs(5)), "child did not start")?;
    check(eventually(Duration::from_secs(5), || p.stats().free_bytes < free - MB), "the block was never staged")?;
    child.kill();
    p.stall_next_copy(0);
    check(p.peek(b"big").is_none(), "a half-copied value is visible")?;
    p.verify()?;
    // Most of the free memory again: only possible once the dead store's block is freed.
    let again = (free - 256 * 1024) as usize;
    p.store(b"again", 2, &vec![4u8; again], 0).map_err(|e| format!("the dead store's block was not freed: {e:?}"))?;
    p.verify()?;
    Ok(())
}

/// Issue 16: a reader stopped (SIGSTOP) while it holds an entry holds back that entry only: a pinned
/// backend churned through forty times its size meanwhile never refuses a store.
fn a_stopped_reader_holds_back_only_the_entry_it_holds() -> Result<(), String> {
    let (_seg, _, p) = anon(MB, 2 * MB);
    p.store(b"held", 2, &checked_value(7, 10_000), 0).map_err(|e| format!("{e:?}"))?;
    let holding = Signal::new();
    let pc = p.clone();
    let child = fork(move || {
        let e = pc.get(b"held");
        holding.notify();
        std::thread::sleep(Duration::from_secs(30));
        i32::from(e.is_none())
    });
    check(holding.wait(Duration::from_secs(5)), "reader did not start")?;
    child.stop();
    p.delete(b"held");
    for i in 0..4000u64 {
        p.store(format!("churn{}", i % 50).as_bytes(), 2, &checked_value(i, 20_000), 0)
            .map_err(|e| format!("store {i} refused with {e:?} while a stopped reader held one entry"))?;
    }
    p.clear();
    check(p.stats().retired_bytes <= 11_000, &format!("{} bytes held back", p.stats().retired_bytes))?;
    child.kill_stopped();
    p.verify()?;
    Ok(())
}

fn store_survivors(b: &Backend, n: usize) -> Result<(), String> {
    for i in 0..n {
        let e = b.peek(format!("survivor{i}").as_bytes()).ok_or(format!("survivor{i} lost"))?;
        check(e.value() == checked_value(i as u64, 100 + i).as_slice(), &format!("survivor{i} changed"))?;
    }
    Ok(())
}

/// Kills a churning writer at 40 random moments (inside stores, deletes, counter updates, evictions);
/// after every kill the backend verifies and `check_survivors` holds.
fn kill_a_churning_writer(
    b: &Backend,
    max_len: u64,
    check_survivors: impl Fn(&Backend) -> Result<(), String>,
) -> Result<(), String> {
    for round in 0..40u64 {
        let ready = Signal::new();
        let bc = b.clone();
        let child = fork(move || {
            // Every third round stalls inside the first store's transaction, so the kill lands there.
            if round % 3 == 0 {
                bc.stall_next_write(1_000_000);
            }
            ready.notify();
            let mut i = round;
            loop {
                let key = format!("churn{}", i % 30);
                let _ = bc.store(key.as_bytes(), 2, &checked_value(i, (i * 104_729 % max_len) as usize), 0);
                if i % 7 == 0 {
                    bc.delete(format!("churn{}", (i / 7) % 30).as_bytes());
                }
                if i % 13 == 0 {
                    let _ = bc.increment(b"ctr", 1);
                }
                i += 1;
            }
        });
        ready.wait(Duration::from_secs(5));
        std::thread::sleep(Duration::from_micros(500 + round * 997 % 20_000));
        child.kill();
        let started = Instant::now();
        b.verify().map_err(|e| format!("after kill {}: {e}", round + 1))?;
        check(started.elapsed() < Duration::from_secs(1), "recovery took over a second")?;
        check_survivors(b)?;
        for k in 0..30 {
            if let Some(e) = b.peek(format!("churn{k}").as_bytes()) {
                check(value_is_intact(e.value()), "a churn entry is half-written")?;
            }
        }
    }
    let repaired = b.stats().recoveries;
    println!("    40 kills; {repaired} landed inside a write transaction and were repaired");
    check(repaired >= 14, "the stalled rounds must have been killed inside their transaction")?;
    b.store(b"after", 2, b"still writable", 0).map_err(|e| format!("{e:?}"))
}

fn a_writer_killed_at_random_moments_leaves_every_pinned_entry_intact() -> Result<(), String> {
    let (_seg, _, p) = anon(MB, 8 * MB);
    for i in 0..50 {
        p.store(format!("survivor{i}").as_bytes(), 2, &checked_value(i as u64, 100 + i), 0)
            .map_err(|e| format!("{e:?}"))?;
    }
    kill_a_churning_writer(&p, 100_000, |b| store_survivors(b, 50))
}

fn a_writer_killed_while_evicting_never_wipes_or_corrupts_the_volatile_backend() -> Result<(), String> {
    let (_seg, v, _) = anon(2 * MB, MB);
    for i in 0..50 {
        v.store(format!("survivor{i}").as_bytes(), 2, &checked_value(i as u64, 100 + i), 0)
            .map_err(|e| format!("{e:?}"))?;
    }
    // Values up to 200 kB in a 2 MB backend: the writer evicts constantly.
    kill_a_churning_writer(&v, 200_000, |b| {
        for i in 0..50 {
            if let Some(e) = b.peek(format!("survivor{i}").as_bytes()) {
                check(e.value() == checked_value(i as u64, 100 + i).as_slice(), "an entry changed")?;
            }
        }
        check(b.stats().entries > 0, "the backend was wiped")
    })
}

fn a_process_killed_holding_the_write_lock_blocks_nobody() -> Result<(), String> {
    let (_seg, v, _) = anon(MB, MB);
    for i in 0..10 {
        v.store(format!("survivor{i}").as_bytes(), 2, &checked_value(i as u64, 100 + i), 0)
            .map_err(|e| format!("{e:?}"))?;
    }
    let holding = Signal::new();
    let vc = v.clone();
    let child = fork(move || {
        vc.stall_next_write(30_000_000);
        holding.notify();
        let _ = vc.store(b"never", 2, b"x", 0);
        0
    });
    holding.wait(Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(100));
    // Readers never wait for the stalled writer.
    let t = Instant::now();
    check(v.get(b"survivor1").is_some(), "read failed while a writer stalls")?;
    check(t.elapsed() < Duration::from_millis(50), "a read waited for the writer")?;
    child.kill();
    let t = Instant::now();
    v.store(b"after", 2, b"x", 0).map_err(|e| format!("{e:?}"))?;
    check(t.elapsed() < Duration::from_secs(1), "write after the holder's death took over a second")?;
    check(v.peek(b"never").is_none(), "the dead writer's store appeared")?;
    check(v.stats().recoveries == 1, "the interrupted transaction was not rolled back")?;
    store_survivors(&v, 10)?;
    v.verify()?;
    Ok(())
}

fn a_reservation_of_a_killed_process_is_free_again() -> Result<(), String> {
    let (_seg, v, _) = anon(MB, MB);
    let held = Signal::new();
    let vc = v.clone();
    let child = fork(move || {
        if !vc.try_reserve(b"job", RequestId(1), 0) {
            return 2;
        }
        held.notify();
        std::thread::sleep(Duration::from_secs(30));
        0
    });
    check(held.wait(Duration::from_secs(5)), "child did not reserve")?;
    check(!v.try_reserve(b"job", RequestId(1), 0), "a live holder's reservation was taken")?;
    check(v.reserved_by_other(b"job", RequestId(1)), "a writer would not wait")?;
    child.kill();
    check(v.try_reserve(b"job", RequestId(1), 0), "the dead holder's reservation is still held")?;
    Ok(())
}

fn a_reservation_of_a_killed_process_nobody_reaps_is_free_within_a_second() -> Result<(), String> {
    let (_seg, v, p) = anon(MB, MB);
    let held = Signal::new();
    let (vc, pc) = (v.clone(), p.clone());
    let child = fork(move || {
        if !vc.try_reserve(b"job", RequestId(1), 0) || !pc.try_reserve(b"n", RequestId(1), 0) {
            return 2;
        }
        held.notify();
        std::thread::sleep(Duration::from_secs(30));
        0
    });
    check(held.wait(Duration::from_secs(5)), "child did not reserve")?;
    check(v.reserved_by_other(b"job", RequestId(1)), "a writer would not wait")?;
    child.kill_keep_zombie();
    // A zombie: its pid and start time are still there until the parent reaps it, which it does not.
    let t = Instant::now();
    check(v.wait_reservation(b"job", RequestId(1), Duration::from_secs(5)), "the writer waited for a zombie")?;
    check(p.try_reserve(b"n", RequestId(1), 0), "the zombie's pinned reservation is still held")?;
    check(v.try_reserve(b"job", RequestId(1), 0), "the zombie's volatile reservation is still held")?;
    check(t.elapsed() < Duration::from_secs(1), "recovery took a second or more")?;
    child.wait();
    Ok(())
}

fn a_killed_reader_does_not_pin_memory_forever() -> Result<(), String> {
    let (_seg, v, _) = anon(MB, MB);
    v.store(b"k", 2, &vec![1u8; 50_000], 0).map_err(|e| format!("{e:?}"))?;
    let pinned = Signal::new();
    let vc = v.clone();
    let child = fork(move || {
        let e = vc.get(b"k");
        pinned.notify();
        std::thread::sleep(Duration::from_secs(30));
        drop(e);
        0
    });
    check(pinned.wait(Duration::from_secs(5)), "reader did not pin")?;
    v.store(b"k", 2, &vec![2u8; 50_000], 0).map_err(|e| format!("{e:?}"))?;
    check(v.stats().retired_bytes > 0, "memory read by a live reader was freed")?;
    child.kill();
    let freed = eventually(Duration::from_secs(2), || {
        let _ = v.store(b"tick", 2, b"x", 0);
        v.stats().retired_bytes == 0
    });
    check(freed, "a dead reader still pins retired memory")?;
    v.verify()?;
    Ok(())
}

fn a_named_segment_maps_at_two_addresses_and_reads_the_same_data() -> Result<(), String> {
    let name = unique_name("twomaps");
    let parts = [PartitionSpec { name: "pool".into(), volatile_bytes: MB, pinned_bytes: MB }];
    let a = Segment::create_named(&name, &parts, 0xB1).map_err(|e| e.to_string())?;
    let b = Segment::open_named(&name, 0xB1).map_err(|e| e.to_string())?;
    let result = (|| {
        check(a.base_addr() != b.base_addr(), "both mappings at one address")?;
        check(matches!(Segment::open_named(&name, 0xB2), Err(SegmentError::Binding)), "another binding accepted")?;
        let va = a.partition("pool").unwrap().volatile.unwrap();
        let vb = b.partition("pool").unwrap().volatile.unwrap();
        va.store(b"k", 2, b"written through mapping a", 0).map_err(|e| format!("{e:?}"))?;
        check(
            vb.peek(b"k").map(|e| e.value().to_vec()) == Some(b"written through mapping a".to_vec()),
            "b reads other bytes",
        )?;
        // An independent process (not sharing a's mapping) opens it by name.
        let child_name = name.clone();
        let child = fork(move || match Segment::open_named(&child_name, 0xB1) {
            Ok(s) => {
                let v = s.partition("pool").unwrap().volatile.unwrap();
                if v.peek(b"k").is_none() {
                    return 3;
                }
                v.store(b"from-child", 2, b"yes", 0).map(|_| 0).unwrap_or(4)
            }
            Err(_) => 2,
        });
        check(child.wait() == 0, "an independent process could not use the named segment")?;
        check(vb.peek(b"from-child").is_some(), "the child's write is not visible")?;
        Ok(())
    })();
    let _ = Segment::unlink_named(&name);
    result
}

fn opening_something_that_is_not_a_segment_is_a_clear_error() -> Result<(), String> {
    let name = unique_name("garbage");
    {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(format!("/dev/shm/{name}"))
            .map_err(|e| e.to_string())?;
        f.write_all(&[0xAB; 8192]).map_err(|e| e.to_string())?;
    }
    let r = Segment::open_named(&name, 0);
    let _ = Segment::unlink_named(&name);
    check(matches!(r, Err(SegmentError::BadMagic)), &format!("expected BadMagic, got {:?}", r.err()))?;
    check(
        matches!(Segment::open_named("static_cache.does-not-exist", 0), Err(SegmentError::Os(..))),
        "missing segment",
    )?;
    check(matches!(Segment::create_named("bad/name", &[], 0), Err(SegmentError::BadName)), "bad name accepted")?;
    Ok(())
}

fn a_named_segment_is_created_with_the_requested_mode() -> Result<(), String> {
    let name = unique_name("mode");
    let parts = [PartitionSpec { name: "p".into(), volatile_bytes: MB, pinned_bytes: 0 }];
    let _s = Segment::create_named(&name, &parts, 0).map_err(|e| e.to_string())?;
    let meta = std::fs::metadata(format!("/dev/shm/{name}")).map_err(|e| e.to_string());
    let again = Segment::create_named(&name, &parts, 0);
    let _ = Segment::unlink_named(&name);
    use std::os::unix::fs::PermissionsExt;
    check(meta?.permissions().mode() & 0o777 == 0o600, "mode is not 0600")?;
    check(again.is_err(), "creating an existing segment must fail (O_EXCL)")?;
    Ok(())
}

fn main() {
    let scenarios: &[support::Scenario] = &[
        (
            "concurrent_writers_and_readers_never_see_a_torn_value",
            concurrent_writers_and_readers_never_see_a_torn_value,
        ),
        ("counters_from_forked_processes_sum_exactly", counters_from_forked_processes_sum_exactly),
        (
            "counters_stay_exact_with_16_incrementing_processes_killed_at_random",
            counters_stay_exact_with_16_incrementing_processes_killed_at_random,
        ),
        (
            "a_store_killed_while_copying_outside_the_lock_leaks_nothing",
            a_store_killed_while_copying_outside_the_lock_leaks_nothing,
        ),
        ("a_stopped_reader_holds_back_only_the_entry_it_holds", a_stopped_reader_holds_back_only_the_entry_it_holds),
        (
            "a_writer_killed_at_random_moments_leaves_every_pinned_entry_intact",
            a_writer_killed_at_random_moments_leaves_every_pinned_entry_intact,
        ),
        (
            "a_writer_killed_while_evicting_never_wipes_or_corrupts_the_volatile_backend",
            a_writer_killed_while_evicting_never_wipes_or_corrupts_the_volatile_backend,
        ),
        (
            "a_process_killed_holding_the_write_lock_blocks_nobody",
            a_process_killed_holding_the_write_lock_blocks_nobody,
        ),
        ("a_reservation_of_a_killed_process_is_free_again", a_reservation_of_a_killed_process_is_free_again),
        (
            "a_reservation_of_a_killed_process_nobody_reaps_is_free_within_a_second",
            a_reservation_of_a_killed_process_nobody_reaps_is_free_within_a_second,
        ),
        ("a_killed_reader_does_not_pin_memory_forever", a_killed_reader_does_not_pin_memory_forever),
        (
            "a_named_segment_maps_at_two_addresses_and_reads_the_same_data",
            a_named_segment_maps_at_two_addresses_and_reads_the_same_data,
        ),
        (
            "opening_something_that_is_not_a_segment_is_a_clear_error",
            opening_something_that_is_not_a_segment_is_a_clear_error,
        ),
        ("a_named_segment_is_created_with_the_requested_mode", a_named_segment_is_created_with_the_requested_mode),
    ];
    support::run_scenarios(scenarios);
}
