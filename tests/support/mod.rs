//! Helpers for the multi-process tests: fork a child running a closure, pipes to hand-shake, kills.
//! Included with `#[path]` by each test file (they are test targets of more than one package).
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// A forked child process.
pub struct Child {
    pub pid: i32,
}

/// Forks; the child runs `f` and exits with its return code (0 = success) without running the parent's
/// destructors or test harness. Call only from a single-threaded process.
pub fn fork(f: impl FnOnce() -> i32) -> Child {
    // SAFETY: the multi-process harness is single-threaded, so the child cannot inherit a lock held by
    // another thread.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(101);
        // SAFETY: leaves the child immediately, skipping atexit handlers and destructors of the parent.
        unsafe { libc::_exit(code) };
    }
    Child { pid }
}

impl Child {
    /// Waits for exit; returns the exit code, or 128 + signal.
    pub fn wait(&self) -> i32 {
        let mut status = 0;
        // SAFETY: waiting for our own child.
        unsafe { libc::waitpid(self.pid, &mut status, 0) };
        if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            128 + libc::WTERMSIG(status)
        }
    }

    pub fn kill(&self) {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(self.pid, libc::SIGKILL) };
        self.wait();
    }

    /// Non-blocking wait: `Some(exit code or 128 + signal)` once the child has exited (it is reaped),
    /// `None` while it runs.
    pub fn try_wait(&self) -> Option<i32> {
        let mut status = 0;
        // SAFETY: polling our own child.
        if unsafe { libc::waitpid(self.pid, &mut status, libc::WNOHANG) } != self.pid {
            return None;
        }
        Some(if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 + libc::WTERMSIG(status) })
    }

    /// SIGKILLs the child and waits until it is dead, but leaves it a zombie (not reaped): its pid
    /// still exists until [`Child::wait`] reaps it, as with a parent that never waits.
    pub fn kill_keep_zombie(&self) {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(self.pid, libc::SIGKILL) };
        self.wait_for_state(libc::WEXITED);
    }

    /// SIGSTOPs the child and waits until it is stopped (or has exited): it no longer runs, so its
    /// shared words are final, and shm-core's liveness checks still see it alive, so nobody takes over
    /// what it holds. Lets a test settle its own bookkeeping before [`Child::kill_stopped`].
    pub fn stop(&self) {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(self.pid, libc::SIGSTOP) };
        self.wait_for_state(libc::WSTOPPED | libc::WEXITED);
    }

    /// SIGKILLs a child stopped by [`Child::stop`] and reaps it: its exit code, or 128 + signal.
    pub fn kill_stopped(&self) -> i32 {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(self.pid, libc::SIGKILL) };
        self.wait()
    }

    fn wait_for_state(&self, states: i32) {
        // SAFETY: an all-zero siginfo_t is a valid out-parameter; WNOWAIT leaves the child waitable.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: waiting for our own child with a valid out-pointer.
            let rc = unsafe { libc::waitid(libc::P_PID, self.pid as libc::id_t, &mut info, states | libc::WNOWAIT) };
            if rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return;
            }
        }
    }
}

/// An array of atomic words in an anonymous `MAP_SHARED` mapping made before forking: the parent and
/// every child see the same words (flags, counters, high-water marks). Each process unmaps its own view
/// when it drops the handle (forked children leave with `_exit` and drop nothing).
pub struct SharedWords {
    base: *mut std::sync::atomic::AtomicU64,
    len: usize,
}

impl SharedWords {
    pub fn new(len: usize) -> SharedWords {
        // SAFETY: a fresh anonymous shared mapping (zero-filled), no address hint.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len * 8,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert!(base != libc::MAP_FAILED, "mmap of shared words failed");
        SharedWords { base: base.cast(), len }
    }

    pub fn word(&self, i: usize) -> &std::sync::atomic::AtomicU64 {
        assert!(i < self.len, "shared word {i} out of range");
        // SAFETY: in bounds of a live, page-aligned mapping; AtomicU64 has the layout of u64.
        unsafe { &*self.base.add(i) }
    }

    pub fn get(&self, i: usize) -> u64 {
        self.word(i).load(std::sync::atomic::Ordering::SeqCst)
    }

    pub fn set(&self, i: usize, v: u64) {
        self.word(i).store(v, std::sync::atomic::Ordering::SeqCst)
    }

    /// Adds `v`; returns the previous value.
    pub fn add(&self, i: usize, v: u64) -> u64 {
        self.word(i).fetch_add(v, std::sync::atomic::Ordering::SeqCst)
    }

    pub fn max(&self, i: usize, v: u64) {
        self.word(i).fetch_max(v, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Drop for SharedWords {
    fn drop(&mut self) {
        // SAFETY: base/len describe the mapping made in `new`, used by nobody after this handle.
        unsafe { libc::munmap(self.base.cast(), self.len * 8) };
    }
}

/// The number in environment variable `name` (underscores allowed as digit separators), or `default`
/// when it is unset or not a number: the knobs of the long runs.
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|s| s.replace('_', "").parse().ok()).unwrap_or(default)
}

/// The worker's side of the pause protocol of the multi-process tests. The parent writes
/// `seq << 8 | (exempt + 1)` into word `pause` (0: no pause); every worker but `exempt` acknowledges
/// `seq` in its own word `paused` at its next operation boundary and idles there until `pause`
/// changes or word `stop` is set.
pub fn honour_pause(sh: &SharedWords, pause: usize, stop: usize, paused: usize, worker: usize) {
    loop {
        let p = sh.get(pause);
        if p == 0 || (p & 0xff) as usize == worker + 1 {
            return;
        }
        sh.set(paused, p >> 8);
        while sh.get(pause) == p && sh.get(stop) == 0 {
            std::thread::sleep(Duration::from_micros(100));
        }
    }
}

/// A small deterministic PRNG (splitmix64): reproducible runs from a printed seed, no dependencies.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// Seeded from the OS (or the clock if that fails).
    pub fn seed_from_os() -> u64 {
        let mut v = 0u64;
        // SAFETY: getrandom writes at most 8 bytes into `v`.
        if unsafe { libc::getrandom((&mut v as *mut u64).cast(), 8, 0) } != 8 {
            v = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1);
        }
        v
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent` / 100.
    pub fn percent(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// Log-uniform in `lo..=hi` (as many values between 16 and 32 as between 32 K and 64 K).
    pub fn log_uniform(&mut self, lo: u64, hi: u64) -> u64 {
        let (a, b) = ((lo as f64).ln(), (hi as f64 + 1.0).ln());
        let x = a + (b - a) * (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        (x.exp() as u64).clamp(lo, hi)
    }
}

/// The splitmix64 finaliser: a well-mixed 64-bit function of `x`.
pub fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The seed [`checked_value`] recorded in `v` (`None` when too short): tells two versions apart.
pub fn seed_of(v: &[u8]) -> Option<u64> {
    (v.len() >= 16).then(|| u64::from_le_bytes(v[v.len() - 16..v.len() - 8].try_into().unwrap()))
}

/// A one-directional pipe used as a "ready" signal between processes (its descriptors live as long as
/// the test process).
#[derive(Clone, Copy)]
pub struct Signal {
    read: i32,
    write: i32,
}

impl Default for Signal {
    fn default() -> Self {
        Self::new()
    }
}

impl Signal {
    pub fn new() -> Signal {
        let mut fds = [0; 2];
        // SAFETY: fds is a valid out-array of two ints.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        Signal { read: fds[0], write: fds[1] }
    }

    pub fn notify(&self) {
        // SAFETY: writing one byte from a valid buffer to our pipe.
        unsafe { libc::write(self.write, b"x".as_ptr().cast(), 1) };
    }

    /// Waits for one notification, at most `timeout`.
    pub fn wait(&self, timeout: Duration) -> bool {
        let mut pfd = libc::pollfd { fd: self.read, events: libc::POLLIN, revents: 0 };
        // SAFETY: pfd is a valid pollfd.
        if unsafe { libc::poll(&mut pfd, 1, timeout.as_millis() as i32) } != 1 {
            return false;
        }
        let mut b = [0u8; 1];
        // SAFETY: reading one byte into a valid buffer.
        unsafe { libc::read(self.read, b.as_mut_ptr().cast(), 1) == 1 }
    }
}

/// A value whose last 8 bytes are a checksum of the rest: readers detect torn or mixed values.
pub fn checked_value(seed: u64, len: usize) -> Vec<u8> {
    let mut v: Vec<u8> = (0..len).map(|i| (seed.wrapping_mul(31).wrapping_add(i as u64) % 251) as u8).collect();
    let sum = v.iter().fold(seed, |a, &b| a.wrapping_mul(1_000_003).wrapping_add(b as u64));
    v.extend_from_slice(&seed.to_le_bytes());
    v.extend_from_slice(&sum.to_le_bytes());
    v
}

/// True when `v` was produced by [`checked_value`] (any seed, any length).
pub fn value_is_intact(v: &[u8]) -> bool {
    if v.len() < 16 {
        return false;
    }
    let (body, tail) = v.split_at(v.len() - 16);
    let seed = u64::from_le_bytes(tail[..8].try_into().unwrap());
    let sum = u64::from_le_bytes(tail[8..].try_into().unwrap());
    body.iter().enumerate().all(|(i, &b)| b == (seed.wrapping_mul(31).wrapping_add(i as u64) % 251) as u8)
        && body.iter().fold(seed, |a, &b| a.wrapping_mul(1_000_003).wrapping_add(b as u64)) == sum
}

/// Retries `f` until it is true or `timeout` passes.
pub fn eventually(timeout: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < timeout {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    f()
}

/// One named scenario: `Err` carries what went wrong.
pub type Scenario = (&'static str, fn() -> Result<(), String>);

/// A minimal single-threaded harness with cargo-test-shaped output: runs the scenarios whose name
/// contains the first non-flag argument (all without one) and exits non-zero if any fails.
/// The message of a caught panic.
pub fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
}

pub fn run_scenarios(scenarios: &[Scenario]) {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let selected: Vec<_> =
        scenarios.iter().filter(|(n, _)| filter.as_ref().is_none_or(|f| n.contains(f.as_str()))).collect();
    println!("\nrunning {} tests", selected.len());
    let (mut passed, mut failed) = (0, 0);
    for (name, f) in selected {
        let t = Instant::now();
        match f() {
            Ok(()) => {
                passed += 1;
                println!("test {name} ... ok ({:.2}s)", t.elapsed().as_secs_f64());
            }
            Err(e) => {
                failed += 1;
                println!("test {name} ... FAILED: {e}");
            }
        }
    }
    let verdict = if failed == 0 { "ok" } else { "FAILED" };
    println!("\ntest result: {verdict}. {passed} passed; {failed} failed; 0 ignored; 0 measured; 0 filtered out\n");
    std::process::exit(if failed == 0 { 0 } else { 1 });
}

/// `0, 1, .., 250` twice: the body of every [`checked_value`] is a run of this cycle.
const CYCLE: [u8; 502] = {
    let mut c = [0u8; 502];
    let mut i = 0;
    while i < 502 {
        c[i] = (i % 251) as u8;
        i += 1;
    }
    c
};
const SUM_FACTOR: u64 = 1_000_003;

fn fold(a: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(a, |a, &b| a.wrapping_mul(SUM_FACTOR).wrapping_add(b as u64))
}

/// `fold(a, body)` for a body of `len` bytes of the cycle starting at `phase`, in O(len / 251): every full
/// period after the first chunk starts at phase 0, and folding a block is linear
/// (`fold(a, B) = a * F^|B| + fold(0, B)`, wrapping).
fn periodic_fold(mut a: u64, phase: usize, len: usize) -> u64 {
    let first = (251 - phase).min(len);
    a = fold(a, &CYCLE[phase..phase + first]);
    let rest = len - first;
    if rest >= 251 {
        let f251 = (0..251).fold(1u64, |p, _| p.wrapping_mul(SUM_FACTOR));
        let h0 = fold(0, &CYCLE[..251]);
        for _ in 0..rest / 251 {
            a = a.wrapping_mul(f251).wrapping_add(h0);
        }
    }
    fold(a, &CYCLE[..rest % 251])
}

/// Exactly the bytes of [`checked_value`], built with block copies: fast in debug builds too (tests that
/// move gigabytes of values).
pub fn checked_value_fast(seed: u64, len: usize) -> Vec<u8> {
    let s = seed.wrapping_mul(31);
    if s.checked_add(len as u64).is_none() {
        return checked_value(seed, len); // (s + i) wraps around 2^64: not a plain cycle
    }
    let phase = (s % 251) as usize;
    let mut v = Vec::with_capacity(len + 16);
    let mut p = phase;
    while v.len() < len {
        let n = (251 - p).min(len - v.len());
        v.extend_from_slice(&CYCLE[p..p + n]);
        p = 0;
    }
    v.extend_from_slice(&seed.to_le_bytes());
    v.extend_from_slice(&periodic_fold(seed, phase, len).to_le_bytes());
    v
}

/// Same answer as [`value_is_intact`], with block compares (fast in debug builds).
pub fn value_is_intact_fast(v: &[u8]) -> bool {
    if v.len() < 16 {
        return false;
    }
    let (body, tail) = v.split_at(v.len() - 16);
    let seed = u64::from_le_bytes(tail[..8].try_into().unwrap());
    let sum = u64::from_le_bytes(tail[8..].try_into().unwrap());
    let s = seed.wrapping_mul(31);
    if s.checked_add(body.len() as u64).is_none() {
        return value_is_intact(v);
    }
    let phase = (s % 251) as usize;
    let mut p = phase;
    let mut rest = body;
    while !rest.is_empty() {
        let n = (251 - p).min(rest.len());
        if rest[..n] != CYCLE[p..p + n] {
            return false;
        }
        rest = &rest[n..];
        p = 0;
    }
    periodic_fold(seed, phase, body.len()) == sum
}

/// Checks that the fast value helpers agree with the reference ones (seeds near the wrap-around included).
pub fn check_fast_value_helpers() {
    let seeds = [0u64, 1, 7, 250, 251, 12_345_678_901, u64::MAX / 31, u64::MAX / 31 + 1, u64::MAX - 3, u64::MAX];
    let lens = (0..600).chain([1000, 4096, 65_519, 65_520, 70_000]);
    for len in lens {
        for &seed in &seeds {
            let fast = checked_value_fast(seed, len);
            assert!(fast == checked_value(seed, len), "checked_value_fast({seed}, {len}) differs");
            assert!(value_is_intact_fast(&fast), "value_is_intact_fast rejects an intact value ({seed}, {len})");
            if len > 0 {
                let mut torn = fast.clone();
                torn[len / 2] ^= 0x40;
                assert!(
                    !value_is_intact_fast(&torn) && !value_is_intact(&torn),
                    "a corrupted value passes ({seed}, {len})"
                );
                let mut mixed = fast;
                mixed[len - 1] = checked_value(seed ^ 1, len)[len - 1];
                assert_eq!(
                    value_is_intact_fast(&mixed),
                    value_is_intact(&mixed),
                    "helpers disagree on a mixed value ({seed}, {len})"
                );
            }
        }
    }
}
