//! Counters under random kills: 16 forked workers increment and decrement a few shared integer counters
//! (in a pinned and a volatile backend, between stores of other entries) while the parent SIGKILLs a
//! random worker at random moments. After every kill the parent parks the survivors at an operation
//! boundary and accounts for each counter exactly: its value must equal the sum of the steps the workers
//! acknowledged, plus — for the one update the killed worker had in flight — either nothing or exactly
//! that step. An update of an existing integer is one atomic read-modify-write and a missing key's first
//! update is one journaled store, so there is no third outcome. From time to time the parent deletes a
//! counter while the workers are parked, so that the next update takes the store path again and kills
//! land there too.
//!
//! Short by default so it fits `cargo test --workspace`; the long run is
//! `SC_COUNTER_SECONDS=300 cargo test -p shm-core --release --test counter_kill`.
//! Knobs: `SC_COUNTER_SECONDS` (default 5), `SC_COUNTER_WORKERS` (default 16, at most 32),
//! `SC_COUNTER_KILL_MS` (mean pause between kills, default 30), `SC_COUNTER_SEED` (default random; printed).
//! Runs single-threaded under its own harness (see Cargo.toml): fork() must not inherit a held lock.

#[path = "support/mod.rs"]
mod support;

use shm_core::{Backend, CounterError, PartitionSpec, Segment, StoreError};
use std::time::{Duration, Instant};
use support::{env_or, fork, Child, Rng, SharedWords};

const MB: u64 = 1 << 20;
/// Counters 0..3 live in the pinned backend, 3..6 in the volatile one.
const COUNTERS: usize = 6;
const PINNED_COUNTERS: usize = 3;
/// Other entries the workers store between updates: enough variety of sizes to fragment the pinned
/// backend (so compaction moves entries, counters included) and to put other entries in front of a
/// counter in its bucket (so updates take the walk as well as the bucket-head path). The volatile
/// fillers stay far below its size: an evicted counter would make exact accounting impossible.
const PINNED_FILLERS: u64 = 1024;
const VOLATILE_FILLERS: u64 = 256;
const FILLER_MAX: u64 = 4096;
const MAX_WORKERS: usize = 32;
/// Same reasoning as the kill torture's: bounded work under the lock, 16+ busy processes on 2 CPUs.
const LATENCY_BOUND: Duration = Duration::from_secs(2);
const PROTOCOL_TIMEOUT: Duration = Duration::from_secs(10);

// ----- the shared array --------------------------------------------------------------------------------

const STOP: usize = 0;
/// `seq << 8 | (dead + 1)` while the survivors of a kill park at their next operation boundary
/// (`support::honour_pause`), 0 otherwise.
const PAUSE: usize = 1;
const GLOBAL: usize = 2;
const STRIDE: usize = 16;
const WORDS: usize = GLOBAL + MAX_WORKERS * STRIDE;

// Per-worker words.
/// The pause sequence number this worker acknowledged (it is parked until PAUSE changes).
const PAUSED: usize = 0;
/// `(counter + 1) << 32 | step as u32` while an update is in flight, 0 otherwise.
const IN_FLIGHT: usize = 1;
const OPS: usize = 2;
const UPDATES: usize = 3;
/// Counter updates refused (out of memory): the counter must be unchanged.
const REFUSED: usize = 4;
const MAX_LAT_US: usize = 5;
const DETAIL: usize = 6;
/// `COUNTERS` words: the sum of this worker's acknowledged steps on each counter (i64 bits).
const ACKED: usize = 7;
const _: () = assert!(ACKED + COUNTERS <= STRIDE);

const EXIT_NOT_INTEGER: i32 = 10;
const EXIT_LOCK: i32 = 11;

fn wf(w: usize, field: usize) -> usize {
    GLOBAL + w * STRIDE + field
}

fn counter_key(c: usize) -> String {
    format!("ctr-{c}")
}

fn in_flight_word(c: usize, step: i64) -> u64 {
    ((c as u64 + 1) << 32) | (step as i32 as u32 as u64)
}

/// `(counter, step)` of an in-flight word.
fn decode_in_flight(word: u64) -> Option<(usize, i64)> {
    let c = (word >> 32) as usize;
    (c != 0).then(|| (c - 1, word as u32 as i32 as i64))
}

// ----- the worker ----------------------------------------------------------------------------------------

struct Worker<'a> {
    w: usize,
    vol: Backend,
    pin: Backend,
    sh: &'a SharedWords,
    rng: Rng,
}

impl Worker<'_> {
    fn backend(&self, c: usize) -> &Backend {
        if c < PINNED_COUNTERS {
            &self.pin
        } else {
            &self.vol
        }
    }

    fn run(mut self) -> i32 {
        loop {
            if self.sh.get(STOP) != 0 {
                return 0;
            }
            self.honour_pause();
            let t = Instant::now();
            if let Err(code) = self.random_op() {
                return code;
            }
            self.sh.max(wf(self.w, MAX_LAT_US), t.elapsed().as_micros() as u64);
            self.sh.add(wf(self.w, OPS), 1);
        }
    }

    fn honour_pause(&self) {
        support::honour_pause(self.sh, PAUSE, STOP, wf(self.w, PAUSED), self.w);
    }

    fn random_op(&mut self) -> Result<(), i32> {
        if self.rng.percent(8) {
            // A filler store: refusals (memory full) are allowed and ignored; only a lock failure is not.
            let pinned = self.rng.percent(70);
            let keys = if pinned { PINNED_FILLERS } else { VOLATILE_FILLERS };
            let key = format!("fill-{}", self.rng.below(keys));
            let len = self.rng.log_uniform(16, FILLER_MAX) as usize;
            let b = if pinned { &self.pin } else { &self.vol };
            return match b.store(key.as_bytes(), 1, &vec![0x5a; len], 0) {
                Err(StoreError::Lock) => Err(EXIT_LOCK),
                _ => Ok(()),
            };
        }
        let c = self.rng.below(COUNTERS as u64) as usize;
        let step = [-2, -1, 1, 1, 2, 3][self.rng.below(6) as usize];
        self.sh.set(wf(self.w, IN_FLIGHT), in_flight_word(c, step));
        let key = counter_key(c);
        let up = self.rng.percent(50);
        let b = self.backend(c);
        let r = if up { b.increment(key.as_bytes(), step) } else { b.decrement(key.as_bytes(), -step) };
        match r {
            Ok(_) => {
                self.sh.add(wf(self.w, ACKED + c), step as u64);
                self.sh.add(wf(self.w, UPDATES), 1);
            }
            Err(CounterError::Store(StoreError::Lock)) => return Err(EXIT_LOCK),
            Err(CounterError::Store(_)) => {
                self.sh.add(wf(self.w, REFUSED), 1);
            }
            Err(CounterError::NotInteger) => {
                self.sh.set(wf(self.w, DETAIL), c as u64);
                return Err(EXIT_NOT_INTEGER);
            }
        }
        self.sh.set(wf(self.w, IN_FLIGHT), 0);
        Ok(())
    }
}

// ----- the parent ----------------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    kills: u64,
    /// Kills of a worker with an update in flight, split by whether the update had landed.
    in_flight_landed: u64,
    in_flight_lost: u64,
    deletes: u64,
    checks: u64,
}

struct Run {
    vol: Backend,
    pin: Backend,
    sh: SharedWords,
    workers: usize,
    children: Vec<Child>,
    rng: Rng,
    /// Per counter: what its value must be beyond the workers' acknowledged steps (in-flight steps that
    /// landed, minus what a delete discarded).
    offset: [i64; COUNTERS],
    pause_seq: u64,
    tally: Tally,
}

impl Run {
    fn spawn(&mut self, w: usize) -> Child {
        for field in [PAUSED, IN_FLIGHT, DETAIL] {
            self.sh.set(wf(w, field), 0);
        }
        let (vol, pin) = (self.vol.clone(), self.pin.clone());
        let seed = self.rng.next_u64();
        let sh: *const SharedWords = &self.sh;
        fork(move || {
            // SAFETY: the child's copy of `self.sh` is valid for the child's whole life (it never returns
            // to the parent's code: `fork` leaves with `_exit`).
            let sh = unsafe { &*sh };
            Worker { w, vol, pin, sh, rng: Rng::new(seed) }.run()
        })
    }

    fn backend(&self, c: usize) -> &Backend {
        if c < PINNED_COUNTERS {
            &self.pin
        } else {
            &self.vol
        }
    }

    fn check_children_alive(&self, except: Option<usize>) -> Result<(), String> {
        for (w, c) in self.children.iter().enumerate().filter(|(w, _)| Some(*w) != except) {
            if let Some(code) = c.try_wait() {
                return Err(format!(
                    "worker {w} exited on its own with {code} (detail {})",
                    self.sh.get(wf(w, DETAIL))
                ));
            }
        }
        Ok(())
    }

    /// Parks every worker but `dead` at an operation boundary.
    fn pause(&mut self, dead: usize) -> Result<(), String> {
        self.pause_seq += 1;
        let seq = self.pause_seq;
        self.sh.set(PAUSE, seq << 8 | (dead as u64 + 1));
        let t = Instant::now();
        while (0..self.workers).any(|u| u != dead && self.sh.get(wf(u, PAUSED)) != seq) {
            if t.elapsed() > PROTOCOL_TIMEOUT {
                return Err(format!("workers did not park within {PROTOCOL_TIMEOUT:?}"));
            }
            self.check_children_alive(Some(dead))?;
            std::thread::sleep(Duration::from_micros(200));
        }
        Ok(())
    }

    fn value(&self, c: usize) -> Result<i64, String> {
        match self.backend(c).peek(counter_key(c).as_bytes()) {
            None => Ok(0),
            Some(e) => e.as_int().ok_or_else(|| format!("counter {c} is no longer an integer")),
        }
    }

    fn acked(&self, c: usize) -> i64 {
        (0..self.workers).map(|w| self.sh.get(wf(w, ACKED + c)) as i64).fold(0, i64::wrapping_add)
    }

    /// With every worker parked: each counter holds exactly what was acknowledged, the dead worker's
    /// in-flight step either landed whole or not at all.
    fn account(&mut self, in_flight: Option<(usize, i64)>) -> Result<(), String> {
        for c in 0..COUNTERS {
            let expected = self.acked(c).wrapping_add(self.offset[c]);
            let diff = self.value(c)?.wrapping_sub(expected);
            match in_flight {
                Some((f, step)) if f == c && diff == step => {
                    self.offset[c] = self.offset[c].wrapping_add(step);
                    self.tally.in_flight_landed += 1;
                }
                Some((f, _)) if f == c && diff == 0 => self.tally.in_flight_lost += 1,
                _ if diff == 0 => {}
                _ => {
                    return Err(format!(
                        "counter {c} is off by {diff} (expected {expected}; in flight: {in_flight:?}; kill {})",
                        self.tally.kills
                    ))
                }
            }
        }
        self.tally.checks += 1;
        Ok(())
    }

    fn kill_and_check(&mut self, w: usize) -> Result<(), String> {
        self.children[w].kill();
        self.tally.kills += 1;
        self.pause(w)?;
        let in_flight = decode_in_flight(self.sh.get(wf(w, IN_FLIGHT)));
        // verify() also repairs a write lock the dead worker held.
        self.vol.verify().map_err(|e| format!("volatile backend after kill {}: {e}", self.tally.kills))?;
        self.pin.verify().map_err(|e| format!("pinned backend after kill {}: {e}", self.tally.kills))?;
        self.account(in_flight)?;
        if self.rng.percent(10) {
            let c = self.rng.below(COUNTERS as u64) as usize;
            let now = self.value(c)?;
            self.backend(c).delete(counter_key(c).as_bytes());
            self.offset[c] = self.offset[c].wrapping_sub(now);
            self.tally.deletes += 1;
        }
        self.children[w] = self.spawn(w);
        self.sh.set(PAUSE, 0);
        Ok(())
    }
}

fn counter_kill() -> Result<(), String> {
    let seconds: f64 = env_or("SC_COUNTER_SECONDS", 5.0);
    let workers: usize = env_or("SC_COUNTER_WORKERS", 16usize).clamp(2, MAX_WORKERS);
    let kill_ms: u64 = env_or("SC_COUNTER_KILL_MS", 30u64).max(1);
    let seed: u64 = env_or("SC_COUNTER_SEED", Rng::seed_from_os());
    println!("    counter kill: {seconds} s, {workers} workers, seed {seed} (SC_COUNTER_SEED)");
    let seg = Segment::create_anonymous(&[PartitionSpec {
        name: "counters".into(),
        volatile_bytes: 8 * MB,
        pinned_bytes: MB,
    }])
    .map_err(|e| e.to_string())?;
    let part = seg.partition("counters").ok_or("no partition")?;
    let mut run = Run {
        vol: part.volatile.ok_or("no volatile backend")?,
        pin: part.pinned.ok_or("no pinned backend")?,
        sh: SharedWords::new(WORDS),
        workers,
        children: Vec::new(),
        rng: Rng::new(seed),
        offset: [0; COUNTERS],
        pause_seq: 0,
        tally: Tally::default(),
    };
    for w in 0..workers {
        let child = run.spawn(w);
        run.children.push(child);
    }
    let start = Instant::now();
    let duration = Duration::from_secs_f64(seconds);
    let mut outcome = Ok(());
    while start.elapsed() < duration && outcome.is_ok() {
        std::thread::sleep(Duration::from_micros(run.rng.log_uniform(200, 2 * kill_ms * 1000)));
        outcome = run.check_children_alive(None);
        if outcome.is_ok() {
            let w = run.rng.below(workers as u64) as usize;
            outcome = run.kill_and_check(w);
        }
    }
    run.sh.set(STOP, 1);
    run.sh.set(PAUSE, 0);
    let mut violations: Vec<String> = outcome.err().into_iter().collect();
    for (w, c) in run.children.iter().enumerate() {
        let code = c.wait();
        if code != 0 && violations.is_empty() {
            violations.push(format!("worker {w} ended with {code} (detail {})", run.sh.get(wf(w, DETAIL))));
        }
    }
    if violations.is_empty() {
        // Every worker stopped at an operation boundary: nothing is in flight any more.
        if let Err(e) = run.account(None) {
            violations.push(format!("at the end: {e}"));
        }
    }
    let sum = |field: usize| (0..workers).map(|w| run.sh.get(wf(w, field))).sum::<u64>();
    let max_lat = Duration::from_micros((0..workers).map(|w| run.sh.get(wf(w, MAX_LAT_US))).max().unwrap_or(0));
    if max_lat >= LATENCY_BOUND {
        violations.push(format!("an operation took {max_lat:?} (bound {LATENCY_BOUND:?})"));
    }
    let t = &run.tally;
    if t.kills >= 20 && t.in_flight_landed + t.in_flight_lost == 0 {
        violations.push("no kill landed while an update was in flight".into());
    }
    let (vs, ps) = (run.vol.stats(), run.pin.stats());
    if vs.evictions != 0 {
        violations.push(format!("the volatile backend evicted {} entries (counters may be among them)", vs.evictions));
    }
    println!(
        "    counter_kill: {:.1} s, workers {workers}, kills {} (update in flight: landed {}, not landed {}), \
         exact checks {}, counter deletes {}, operations {}, counter updates {}, refused {}, \
         max op latency {:.1} ms, pinned relocations {}, recoveries {} (pinned {}, volatile {}), violations {}",
        start.elapsed().as_secs_f64(),
        t.kills,
        t.in_flight_landed,
        t.in_flight_lost,
        t.checks,
        t.deletes,
        sum(OPS),
        sum(UPDATES),
        sum(REFUSED),
        max_lat.as_secs_f64() * 1000.0,
        ps.relocations,
        vs.recoveries + ps.recoveries,
        ps.recoveries,
        vs.recoveries,
        violations.len()
    );
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations.join("; "))
    }
}

fn main() {
    support::run_scenarios(&[("counter_kill", counter_kill)]);
}
