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
pub fn run_scenarios(scenarios: &[Scenario]) {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let selected: Vec<_> = scenarios.iter().filter(|(n, _)| filter.as_ref().is_none_or(|f| n.contains(f.as_str()))).collect();
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
