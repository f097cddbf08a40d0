//! The cross-process write lock: one word in shared memory naming the thread that holds it.
//!
//! The owner word holds the owner's thread id (low 32 bits) and, in the high half, what a waiter needs to
//! judge whether that owner is still alive (see [`ROBUST`]); 0 when the lock is free. Taking a free lock
//! is one compare-and-swap, releasing it one store. A waiter that finds the owner dead takes the lock
//! over, learning that the previous owner died so it can repair what that owner left half-done (see
//! `journal`). The rule throughout: never two owners; when the owner's fate cannot be known, wait.
//!
//! The kernel tells of most deaths: while a thread holds the lock, the lock is that thread's robust-futex
//! "pending operation" (the `list_op_pending` slot of the robust list the C library registered for the
//! thread, see [`ThisThread`]; one store after the compare-and-swap, one before the release). When the
//! thread dies — killed, exiting, or killed by an `exec` in another thread of its process — the kernel
//! replaces the owner word's thread id by [`OWNER_DIED`], and the next waiter takes the lock over at once.
//! That covers what no check from outside can see: after another thread of the process `exec`s, that
//! thread carries on under the process's id *and start time*, so a lock held by the main thread would
//! look held by a live owner forever; and an owner in another PID namespace, whose id means nothing
//! here (the kernel marks the word with the id the owner itself recorded). Waiters also check, after each
//! sleep slice, whether the owner's thread still exists (`owner_alive`), for a death the kernel did not
//! mark (between the compare-and-swap and the registration).
//!
//! Without a robust list (another C library, a seccomp filter refusing `get_robust_list`) the word
//! records the low 31 bits of the owner thread's start time (field 22 of /proc/TID/stat) instead, and
//! the waiter compares it, which tells a dead owner from a thread that got its id since. When that start
//! time cannot be read (no `/proc`, `hidepid`, a seccomp filter, no free descriptor), 0 is recorded, and
//! such an owner — or one whose `/proc` entry the waiter cannot read — counts as alive as long as `kill`
//! finds a thread with its id that is not a zombie: a live owner is never taken over, a dead one once its
//! id is free; only a dead owner whose id another live thread took makes waiters wait, for as long as
//! that thread lives.
//!
//! Why not the robust pthread mutex this replaced: each lock and unlock ran about 100 instructions of
//! robust-list bookkeeping and a second locked instruction (a `set()` then `delete()` pair took it twice,
//! about 13 ns of 145), and its waiters could lose a wake-up when one of them was killed
//! (docs/RELIABILITY.md). Here no waiter depends on a wake-up: waiters sleep in slices of [`RECHECK`] on
//! the word's owner half (a futex shared between processes), and an unlock that sees the sleepers flag
//! wakes them all. Why not parking_lot or std: their waiters park on process-private futexes, so a
//! waiter in one process is never woken by an unlock in another.

use crate::process::{self, ProcStat};
use std::marker::PhantomData;
use std::sync::atomic::{fence, AtomicU64, Ordering};
use std::time::Duration;

/// Bytes reserved for a lock in the layout: the owner word, the sleepers flag, and room to spare.
pub const MUTEX_BYTES: u64 = 64;
/// Word (index) set to 1 by a waiter about to sleep; the unlock that sees it clears it and wakes every
/// sleeper. A waiter killed after setting it costs one needless wake.
const SLEEPERS: usize = 1;
/// Set by the kernel in the owner word's low half (the futex), in place of the thread id, when the owner
/// died with the lock registered as its robust-list pending operation (`FUTEX_OWNER_DIED`, futex(2)).
/// Thread ids stay below it (`FUTEX_TID_MASK`), so no live owner's word has it.
const OWNER_DIED: u32 = 0x4000_0000;
/// High bit of the owner word: the owner registered the lock with the kernel (see [`ThisThread`]), so
/// its death marks the word; the bits below it are then the tag of its PID and time namespaces
/// ([`process::namespace_tag`]). Without it they are the low 31 bits of the owner thread's start time
/// (0: unreadable).
const ROBUST: u64 = 1 << 63;
const TAG_MASK: u64 = 0x7fff_ffff;

/// Rounds a waiter spins, then yields, before it sleeps.
const SPINS: u32 = 16;
const YIELDS: u32 = 8;
/// How long one sleep of a waiter lasts at most. It bounds the wait when a wake-up is missed (a waiter
/// that raises the sleepers flag just as the owner unlocks) and how soon a dead owner is noticed.
const RECHECK: Duration = Duration::from_millis(2);

/// A handle to a lock stored in shared memory.
#[derive(Clone, Copy)]
pub struct RobustMutex {
    /// Never null (a guard's `Result` uses that niche).
    words: std::ptr::NonNull<AtomicU64>,
}

// SAFETY: the lock lives in shared memory and is designed for use by any thread of any process.
unsafe impl Send for RobustMutex {}
// SAFETY: see above.
unsafe impl Sync for RobustMutex {}

#[derive(Debug, PartialEq, Eq)]
pub enum LockError {
    /// The calling thread already holds the lock (`EDEADLK`).
    Os(i32),
}

/// Held lock; unlocks on drop. [`MutexGuard::previous_owner_died`] is true exactly once after an owner's
/// death.
/// `!Send`: the owner word names the thread that locked it (the raw-pointer marker keeps the guard on its
/// thread).
pub struct MutexGuard<'a> {
    mutex: RobustMutex,
    /// The holder's robust-list pending slot (see [`ThisThread`]; 0 when it has none), an 8-aligned
    /// address, with [`DIED`] set when the previous owner died. One word, so that a `Result` of the guard
    /// still comes back in two registers.
    state: usize,
    _not_send: PhantomData<(&'a (), *const ())>,
}

impl RobustMutex {
    /// # Safety
    /// `ptr` must point to `MUTEX_BYTES` bytes of shared memory, 8-aligned, that stay mapped while the
    /// handle is used, and that were initialised with [`RobustMutex::init`] by someone.
    pub unsafe fn at(ptr: *mut u8) -> RobustMutex {
        // SAFETY: the contract makes `ptr` point to mapped memory, so it is not null.
        RobustMutex { words: unsafe { std::ptr::NonNull::new_unchecked(ptr.cast()) } }
    }

    /// Initialises a fresh lock in place, free (segment creation only; nobody else can see it yet).
    ///
    /// # Safety
    /// As for [`RobustMutex::at`], and no other process or thread may use the memory concurrently.
    pub unsafe fn init(ptr: *mut u8) -> RobustMutex {
        // SAFETY: contract of `at`, which `init`'s caller meets.
        let m = unsafe { RobustMutex::at(ptr) };
        m.owner().store(0, Ordering::Relaxed);
        m.sleepers().store(0, Ordering::Relaxed);
        m
    }

    fn owner(&self) -> &AtomicU64 {
        // SAFETY: `words` points to the lock's first 8-aligned word, mapped while the handle is used.
        unsafe { self.words.as_ref() }
    }

    fn sleepers(&self) -> &AtomicU64 {
        // SAFETY: as in `owner`; word `SLEEPERS` lies inside the lock's `MUTEX_BYTES`.
        unsafe { &*self.words.as_ptr().add(SLEEPERS) }
    }

    /// The owner word's low half (the thread id), the futex waiters sleep on.
    fn futex(&self) -> *const u32 {
        let low_half = if cfg!(target_endian = "little") { 0 } else { 1 };
        // SAFETY: both halves of the owner word lie inside the lock.
        unsafe { self.words.as_ptr().cast::<u32>().add(low_half).cast_const() }
    }

    /// Blocks until the lock is held. When the previous owner died holding it, the guard says so: the
    /// caller must repair the protected state before releasing the guard. Fails only when the calling
    /// thread holds the lock already.
    #[inline]
    pub fn lock(&self) -> Result<MutexGuard<'_>, LockError> {
        let me = this_thread();
        if self.owner().compare_exchange(0, me.word, Ordering::Acquire, Ordering::Relaxed).is_ok() {
            return Ok(self.guard(me, false));
        }
        self.lock_contended(me)
    }

    /// [`RobustMutex::lock`] once the lock was found held: spins, then yields, then sleeps in slices,
    /// checking after each slice the owner is alive. Out of line so the uncontended path (every store and
    /// delete) keeps a small frame.
    #[cold]
    #[inline(never)]
    fn lock_contended(&self, me: ThisThread) -> Result<MutexGuard<'_>, LockError> {
        let mut round = 0u32;
        loop {
            let held = self.owner().load(Ordering::Relaxed);
            if held == 0 {
                if self.owner().compare_exchange(0, me.word, Ordering::Acquire, Ordering::Relaxed).is_ok() {
                    return Ok(self.guard(me, false));
                }
                continue;
            }
            if held == me.word {
                return Err(LockError::Os(libc::EDEADLK));
            }
            if held as u32 & OWNER_DIED != 0 {
                // The kernel marked the owner dead: no liveness check, no wait.
                if self.owner().compare_exchange(held, me.word, Ordering::Acquire, Ordering::Relaxed).is_ok() {
                    fence(Ordering::SeqCst);
                    return Ok(self.guard(me, true));
                }
                continue;
            }
            round = round.saturating_add(1);
            if round <= SPINS {
                std::hint::spin_loop();
                continue;
            }
            if round <= SPINS + YIELDS {
                std::thread::yield_now();
                continue;
            }
            self.sleepers().store(1, Ordering::SeqCst);
            futex_wait(self.futex(), held as u32, RECHECK);
            if self.owner().load(Ordering::Relaxed) == held
                && !owner_alive(held)
                && self.owner().compare_exchange(held, me.word, Ordering::Acquire, Ordering::Relaxed).is_ok()
            {
                // The dead owner never released: order everything it wrote before what we read next.
                fence(Ordering::SeqCst);
                return Ok(self.guard(me, true));
            }
        }
    }

    /// Non-blocking attempt; `Ok(None)` when someone else holds it (a dead owner is not taken over).
    #[cfg(test)]
    pub fn try_lock(&self) -> Result<Option<MutexGuard<'_>>, LockError> {
        let me = this_thread();
        let taken = self.owner().compare_exchange(0, me.word, Ordering::Acquire, Ordering::Relaxed);
        Ok(taken.is_ok().then(|| self.guard(me, false)))
    }

    /// The guard of a lock `me` just took: registers the lock as `me`'s robust-list pending operation, so
    /// that the kernel marks the owner word if `me` dies before releasing it.
    #[inline]
    fn guard(&self, me: ThisThread, previous_owner_died: bool) -> MutexGuard<'_> {
        if !me.pending.is_null() {
            // The kernel looks for the futex at the pending entry plus the head's futex offset.
            let entry = (self.futex() as usize).wrapping_sub(me.futex_offset as usize);
            // SAFETY: `pending` is the `list_op_pending` word of the robust list head the C library
            // registered for this thread (see `ThisThread`), in this thread's control block, alive as long
            // as the thread. The C library uses it only inside its robust-mutex calls, none of which runs on
            // this thread while it runs this code; it sets it afresh at their start and clears it at their
            // end.
            unsafe { me.pending.write_volatile(entry) };
        }
        MutexGuard {
            mutex: *self,
            state: me.pending as usize | usize::from(previous_owner_died),
            _not_send: PhantomData,
        }
    }

    /// Clears the sleepers flag and wakes every waiter sleeping on the lock.
    #[cold]
    #[inline(never)]
    fn wake_sleepers(&self) {
        self.sleepers().store(0, Ordering::Relaxed);
        // SAFETY: the futex word is an aligned 32-bit word of mapped shared memory; FUTEX_WAKE (shared,
        // not private: waiters may be other processes) only wakes threads sleeping on it.
        unsafe { libc::syscall(libc::SYS_futex, self.futex(), libc::FUTEX_WAKE, i32::MAX, 0, 0, 0) };
    }
}

/// Bit of [`MutexGuard::state`]: the previous owner died.
const DIED: usize = 1;

impl MutexGuard<'_> {
    /// The previous owner died holding the lock: the caller must repair what it protects.
    #[inline]
    pub fn previous_owner_died(&self) -> bool {
        self.state & DIED != 0
    }
}

impl Drop for MutexGuard<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        // Unregistered before the release: a pending entry never names a lock this thread no longer holds.
        // (No thread holds two of these locks at once; if one did, the inner release would only leave the
        // outer to the liveness check.)
        let pending = (self.state & !DIED) as *mut usize;
        if !pending.is_null() {
            // SAFETY: as in `RobustMutex::guard`; the guard is `!Send`, so this is the thread it belongs to.
            unsafe { pending.write_volatile(0) };
        }
        self.mutex.owner().store(0, Ordering::Release);
        // A waiter raising the flag just as this load runs may be missed: it sleeps one slice at most.
        if self.mutex.sleepers().load(Ordering::Relaxed) != 0 {
            self.mutex.wake_sleepers();
        }
    }
}

/// Sleeps on `word` while it holds `expected`, for `timeout` at most (or until woken, or a signal).
fn futex_wait(word: *const u32, expected: u32, timeout: Duration) {
    let ts = libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as _ };
    // SAFETY: `word` is an aligned 32-bit word of mapped shared memory, which FUTEX_WAIT only reads;
    // `ts` is a valid relative timeout that outlives the call.
    unsafe { libc::syscall(libc::SYS_futex, word, libc::FUTEX_WAIT, expected, &raw const ts, 0, 0) };
}

/// What a thread puts in a lock it takes: its owner word, and where the kernel learns that it holds one.
#[derive(Clone, Copy)]
struct ThisThread {
    /// Thread id (low 32 bits); [`ROBUST`] and this process's namespace tag when `pending` is set,
    /// else the low 31 bits of the thread's start time (0: unreadable).
    word: u64,
    /// The `list_op_pending` word of the robust-futex list head the C library registered for this thread
    /// (glibc does for every thread, for its robust mutexes; see `get_robust_list(2)`); null when the
    /// thread has none or the head is not the kernel's layout.
    pending: *mut usize,
    /// The head's `futex_offset`: where the futex word lies relative to a list entry.
    futex_offset: isize,
}

impl ThisThread {
    const UNKNOWN: ThisThread = ThisThread { word: 0, pending: std::ptr::null_mut(), futex_offset: 0 };
}

thread_local! {
    /// This thread's identity and the fork generation it was read in (`u64::MAX`: never).
    static ME: std::cell::Cell<(u64, ThisThread)> = const { std::cell::Cell::new((u64::MAX, ThisThread::UNKNOWN)) };
}

/// This thread's identity (re-read after fork).
#[inline]
fn this_thread() -> ThisThread {
    let (generation, me) = ME.get();
    if generation == process::fork_generation() {
        return me;
    }
    this_thread_slow()
}

/// [`this_thread`] on a thread's first lock, or its first after a fork: asks the kernel for the thread's
/// robust list head, and without one reads the thread's start time.
#[cold]
#[inline(never)]
fn this_thread_slow() -> ThisThread {
    process::install_fork_handler();
    let generation = process::fork_generation();
    // SAFETY: gettid has no preconditions.
    let tid = unsafe { libc::gettid() } as u32;
    let (pending, futex_offset) = robust_pending_slot().unwrap_or((std::ptr::null_mut(), 0));
    let word = if pending.is_null() {
        let start = process::start_time_of(tid).unwrap_or(0);
        u64::from(tid) | (start & TAG_MASK) << 32
    } else {
        u64::from(tid) | ROBUST | process::namespace_tag() << 32
    };
    let me = ThisThread { word, pending, futex_offset };
    ME.set((generation, me));
    me
}

/// The calling thread's robust list head, as `(&head.list_op_pending, head.futex_offset)`: `None` when it
/// has none, the call is refused, or the head's size is not the kernel's `struct robust_list_head`
/// (`next`, `futex_offset`, `list_op_pending`, each a word).
fn robust_pending_slot() -> Option<(*mut usize, isize)> {
    let mut head: *mut usize = std::ptr::null_mut();
    let mut len: libc::size_t = 0;
    // SAFETY: get_robust_list(0, …) asks about the calling thread and writes one pointer and one size
    // into the two out-parameters, which outlive the call.
    let rc = unsafe { libc::syscall(libc::SYS_get_robust_list, 0, &raw mut head, &raw mut len) };
    if rc != 0 || head.is_null() || len != 3 * std::mem::size_of::<usize>() {
        return None;
    }
    // SAFETY: the head the C library registered for this thread, `len` bytes in its control block, alive
    // while the thread runs; its second word is `futex_offset`, its third `list_op_pending`.
    let futex_offset = unsafe { head.add(1).read_volatile() } as isize;
    // An odd entry address would tell the kernel the lock is a priority-inheritance one.
    if futex_offset % 4 != 0 {
        return None;
    }
    // SAFETY: as above, the third word of the head.
    let pending = unsafe { head.add(2) };
    // The guard keeps a flag in the address's low bit.
    if pending as usize & DIED != 0 {
        return None;
    }
    Some((pending, futex_offset))
}

/// Whether the thread an owner word names still runs.
///
/// An owner that registered the lock with the kernel ([`ROBUST`]) is dead when the kernel marked its
/// word (seen before this is asked) or when `kill(tid, 0)` finds no such thread — asked only when the
/// owner and this process are in the same namespaces (the tag), for an id means nothing in another:
/// across namespaces only the kernel's mark tells, and a waiter waits rather than take a lock whose owner
/// may be alive. Its start time is not compared: a thread whose death the kernel did not mark (it died
/// in the few instructions between taking the word and registering it) and whose id was reused meanwhile
/// is the one case left waiting, rather than a start time misread (another time namespace shifts it, a
/// foreign `/proc` shows another process's) taking a live owner's lock.
///
/// Any other owner: `kill(tid, 0)` asks first, in this process's PID namespace, where the owner recorded
/// its id: no such thread is a dead owner whatever `/proc` shows (a `/proc` of an outer namespace, as after
/// `unshare --pid` without remounting it, names other processes by those numbers). Then its /proc entry
/// must not be a zombie, and must show the recorded start time (another thread that got the id since
/// started later); when /proc has no entry, or no start time was recorded, the thread `kill` found is
/// taken as alive.
fn owner_alive(word: u64) -> bool {
    let (tid, tag) = (word as u32, word >> 32 & TAG_MASK);
    if word & ROBUST != 0 {
        return process::of_other_namespaces(tag) || !no_such_thread(tid);
    }
    if no_such_thread(tid) {
        return false;
    }
    ProcStat::read(&tid.to_string()).is_none_or(|stat| {
        let zombie = stat.field(3).is_some_and(|s| matches!(s.as_bytes().first(), Some(b'Z' | b'X' | b'x')));
        let started = stat.number::<u64>(22).map(|t| t & TAG_MASK);
        !zombie && (tag == 0 || started.is_none_or(|t| t == tag))
    })
}

/// `kill(tid, 0)` says no such thread exists in this process's PID namespace.
fn no_such_thread(tid: u32) -> bool {
    // SAFETY: signal 0 only checks that the target exists.
    let rc = unsafe { libc::kill(tid as libc::pid_t, 0) };
    rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(align(64))]
    struct Slot([u8; MUTEX_BYTES as usize]);

    fn fresh() -> (Box<Slot>, RobustMutex) {
        let mut slot = Box::new(Slot([0; MUTEX_BYTES as usize]));
        // SAFETY: private memory of the right size and alignment, used by this test only; the box is
        // returned with the handle and outlives it.
        let m = unsafe { RobustMutex::init(slot.0.as_mut_ptr()) };
        (slot, m)
    }

    #[test]
    fn lock_try_lock_and_release() {
        let (_slot, m) = fresh();
        let g = m.lock().unwrap();
        assert!(!g.previous_owner_died());
        let other = std::thread::scope(|s| s.spawn(|| m.try_lock().unwrap().is_none()).join().unwrap());
        assert!(other, "a second thread must not get a held lock");
        assert_eq!(m.lock().err(), Some(LockError::Os(libc::EDEADLK)), "relocking is refused, not a hang");
        drop(g);
        assert!(m.try_lock().unwrap().is_some());
    }

    #[test]
    fn a_thread_that_exits_holding_the_lock_is_detected() {
        let (_slot, m) = fresh();
        let registered = std::thread::scope(|s| {
            s.spawn(|| {
                std::mem::forget(m.lock().unwrap());
                !this_thread().pending.is_null()
            })
            .join()
            .unwrap()
        });
        if registered {
            let word = m.owner().load(Ordering::Relaxed);
            assert_ne!(word as u32 & OWNER_DIED, 0, "the kernel did not mark the dead owner's word: {word:#x}");
        }
        let g = m.lock().unwrap();
        assert!(g.previous_owner_died());
        drop(g);
        assert!(!m.lock().unwrap().previous_owner_died());
    }

    #[test]
    fn an_owner_word_naming_a_live_thread_id_with_another_start_time_is_taken_over() {
        let (_slot, m) = fresh();
        // A live thread's id, but not the thread that took the lock (one without a robust list): that one
        // started at another time.
        // SAFETY: gettid has no preconditions.
        let tid = unsafe { libc::gettid() } as u32;
        let start = ProcStat::read(&tid.to_string()).and_then(|s| s.number::<u64>(22)).unwrap();
        let reused = u64::from(tid) | ((start ^ 1) & TAG_MASK) << 32;
        m.owner().store(reused, Ordering::Relaxed);
        let g = std::thread::scope(|s| s.spawn(|| m.lock().unwrap().previous_owner_died()).join().unwrap());
        assert!(g, "the recorded owner no longer runs");
    }

    /// The id of a thread that has exited (and was joined): no thread has it until the ids wrap around.
    fn exited_thread_id() -> u32 {
        // SAFETY: gettid has no preconditions.
        std::thread::spawn(|| unsafe { libc::gettid() } as u32).join().unwrap()
    }

    /// Item of the "never two owners" rule: a word recorded without a start time (its `/proc` entry was
    /// unreadable) that names a live thread is that thread's: a waiter waits for its release, however long.
    #[test]
    fn an_owner_recorded_without_a_start_time_is_waited_for_while_its_thread_runs() {
        let (_slot, m) = fresh();
        let (tid_tx, tid_rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|s| {
            s.spawn(move || {
                // SAFETY: gettid has no preconditions.
                tid_tx.send(unsafe { libc::gettid() } as u32).unwrap();
                done_rx.recv().unwrap();
            });
            let tid = tid_rx.recv().unwrap();
            m.owner().store(u64::from(tid), Ordering::Relaxed);
            let (got_tx, got_rx) = std::sync::mpsc::channel();
            s.spawn(move || got_tx.send(m.lock().unwrap().previous_owner_died()).unwrap());
            // Fifty sleep slices: a waiter that took the owner for dead would have the lock by now.
            assert!(got_rx.recv_timeout(RECHECK * 50).is_err(), "a live owner without a start time was taken over");
            m.owner().store(0, Ordering::Release);
            assert_eq!(got_rx.recv_timeout(Duration::from_secs(10)), Ok(false), "the release was not seen");
            done_tx.send(()).unwrap();
        });
    }

    #[test]
    fn an_owner_recorded_without_a_start_time_is_taken_over_once_its_thread_is_gone() {
        let (_slot, m) = fresh();
        m.owner().store(u64::from(exited_thread_id()), Ordering::Relaxed);
        assert!(m.lock().unwrap().previous_owner_died());
    }

    /// A thread of a process `exec`s while the main thread holds the lock: the kernel kills the main
    /// thread, and the exec'ing thread carries on as the process, under the main thread's id and start
    /// time. The owner word then names a live thread with the recorded start time; the lock must still be
    /// taken over (the kernel marks it through the robust list), not waited for until that program ends.
    #[test]
    fn a_lock_held_by_the_main_thread_when_another_thread_execs_is_taken_over() {
        let code = run_alone("a_lock_held_by_the_main_thread_when_another_thread_execs_is_taken_over", exec_while_held);
        match code {
            SKIP => eprintln!("skipped: no robust list registered for this thread (not glibc?)"),
            code => assert_eq!(
                code, 0,
                "1: still waiting 10 s after the exec; 2: taken without the owner's death reported; \
                 3: the exec'd process did not keep the owner's identity"
            ),
        }
    }

    /// The body of the test above (see [`run_alone`]).
    ///
    /// # Safety
    /// Only in the test's own process; forks, and the child execs `sleep`.
    unsafe fn exec_while_held() -> i32 {
        // SAFETY: a fresh shared anonymous mapping holds the lock and a flag word (after it); the forked
        // child takes the lock and execs, the parent only reads /proc and takes the lock.
        unsafe {
            let Some(ptr) = shared_page() else { return 4 };
            let m = RobustMutex::init(ptr.cast());
            let held = &*ptr.cast::<u8>().add(MUTEX_BYTES as usize).cast::<AtomicU64>();
            if this_thread().pending.is_null() {
                return SKIP;
            }
            let child = libc::fork();
            if child == 0 {
                // The forking thread is the child's main thread (its id is the process id).
                std::mem::forget(m.lock());
                held.store(1, Ordering::SeqCst);
                std::thread::spawn(|| {
                    let (path, arg) = (c"/bin/sleep".as_ptr(), c"30".as_ptr());
                    libc::execv(path, [path, arg, std::ptr::null()].as_ptr());
                    libc::_exit(6);
                });
                loop {
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
            let start = || ProcStat::read(&child.to_string()).and_then(|s| s.number::<u64>(22));
            let started = start();
            let outcome = (|| {
                let deadline = std::time::Instant::now() + Duration::from_secs(10);
                while held.load(Ordering::SeqCst) == 0
                    || std::fs::read_to_string(format!("/proc/{child}/comm")).ok().as_deref() != Some("sleep\n")
                {
                    if std::time::Instant::now() > deadline {
                        return 3;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                // The scenario: the exec'd process has the owner's id and start time, so nothing read from
                // outside can tell the owner died.
                if started.is_none() || start() != started {
                    return 3;
                }
                let (got_tx, got_rx) = std::sync::mpsc::channel();
                std::thread::spawn(move || got_tx.send(m.lock().is_ok_and(|g| g.previous_owner_died())));
                match got_rx.recv_timeout(Duration::from_secs(10)) {
                    Ok(true) => 0,
                    Ok(false) => 2,
                    Err(_) => 1,
                }
            })();
            libc::kill(child, libc::SIGKILL);
            libc::waitpid(child, std::ptr::null_mut(), 0);
            outcome
        }
    }

    /// The exit code of `body` run in a fresh process of this test binary, alone (forking from the
    /// multi-threaded harness is not safe): `name` is the calling test, which calls this again there
    /// (where the variable `ALONE` is set) to run `body`. Fails after 30 s, killing the process group.
    fn run_alone(name: &str, body: unsafe fn() -> i32) -> i32 {
        const ALONE: &str = "SC_LOCK_TEST_ALONE";
        if std::env::var_os(ALONE).is_some() {
            // SAFETY: this process runs only this test; `body` returns its outcome, which ends it.
            unsafe { libc::_exit(body()) };
        }
        use std::os::unix::process::CommandExt;
        let mut alone = std::process::Command::new(std::env::current_exe().unwrap())
            .args([&format!("lock::tests::{name}"), "--exact", "--test-threads=1", "--nocapture"])
            .env(ALONE, "1")
            .process_group(0)
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = alone.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            if std::time::Instant::now() > deadline {
                // SAFETY: the group of the process spawned above (its children and, in a PID
                // namespace, their children stay in it).
                unsafe { libc::kill(-(alone.id() as libc::pid_t), libc::SIGKILL) };
                let _ = alone.wait();
                panic!("{name}: still waiting for the lock after 30 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A process whose `/proc` belongs to an outer PID namespace (`unshare --pid` without remounting it):
    /// its thread ids name other processes there. An owner that died holding the lock must still be taken
    /// over, even when its id names a live process in that `/proc`.
    #[test]
    fn an_owner_killed_in_a_pid_namespace_with_a_foreign_proc_is_taken_over() {
        match run_alone("an_owner_killed_in_a_pid_namespace_with_a_foreign_proc_is_taken_over", foreign_proc_takeover) {
            SKIP => eprintln!("skipped: no new PID namespace or no ns_last_pid here"),
            code => assert_eq!(code, 0, "1: the lock was taken without the owner's death reported"),
        }
    }

    const SKIP: i32 = 77;

    /// A child forked while another thread of its parent holds the lock inherits a lock word naming that
    /// thread, alive in the parent: the child waits for its release, and is not told of a death.
    #[test]
    fn a_child_forked_while_another_thread_of_the_parent_holds_the_lock_waits_for_it() {
        let code =
            run_alone("a_child_forked_while_another_thread_of_the_parent_holds_the_lock_waits_for_it", fork_while_held);
        assert_eq!(code, 0, "1: the child was told the owner died; 2: it got the lock before the release");
    }

    /// A fresh page shared with the children this process forks (the lock, then test flags).
    fn shared_page() -> Option<*mut libc::c_void> {
        // SAFETY: a new anonymous mapping, owned by nobody else; the test process exits with it mapped.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        (ptr != libc::MAP_FAILED).then_some(ptr)
    }

    /// The body of the test above (see [`run_alone`]).
    ///
    /// # Safety
    /// Only in the test's own process; forks.
    unsafe fn fork_while_held() -> i32 {
        // SAFETY: a fresh shared anonymous mapping holds the lock (first 64 bytes) and a flag (the next
        // word); the forked child only takes the lock and `_exit`s.
        unsafe {
            let Some(ptr) = shared_page() else { return 3 };
            let m = RobustMutex::init(ptr.cast());
            let released = &*ptr.cast::<u8>().add(MUTEX_BYTES as usize).cast::<AtomicU64>();
            let (held_tx, held_rx) = std::sync::mpsc::channel();
            let holder = std::thread::spawn(move || {
                let g = m.lock().unwrap();
                held_tx.send(()).unwrap();
                std::thread::sleep(Duration::from_millis(300));
                released.store(1, Ordering::SeqCst);
                drop(g);
            });
            held_rx.recv().unwrap();
            let child = libc::fork();
            if child == 0 {
                let g = m.lock();
                let code = match g {
                    Ok(g) if g.previous_owner_died() => 1,
                    Ok(_) if released.load(Ordering::SeqCst) == 0 => 2,
                    Ok(_) => 0,
                    Err(_) => 4,
                };
                libc::_exit(code);
            }
            holder.join().unwrap();
            let mut status = 0;
            libc::waitpid(child, &mut status, 0);
            if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                5
            }
        }
    }

    /// The body of `an_owner_killed_in_a_pid_namespace_with_a_foreign_proc_is_taken_over`: an owner in a
    /// new PID namespace gets this process's number (which the outer `/proc` shows alive), takes the lock
    /// and exits; a waiter in the namespace must take it over. Returns 0 on success, [`SKIP`] where namespaces are not allowed.
    ///
    /// # Safety
    /// Only in the test's own process (see [`run_alone`]); forks.
    unsafe fn foreign_proc_takeover() -> i32 {
        let skip = SKIP;
        // SAFETY: a fresh shared anonymous mapping holds the lock; the forked children only take it, wait
        // for each other and `_exit`.
        unsafe {
            let Some(ptr) = shared_page() else { return 3 };
            let m = RobustMutex::init(ptr.cast());
            let outer = libc::getpid();
            let Some(init) = fork_owner_in_new_pid_namespace(
                outer,
                || std::mem::forget(m.lock()),
                |status| {
                    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
                        return if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 4 };
                    }
                    let died = m.lock().is_ok_and(|g| g.previous_owner_died());
                    if died {
                        0
                    } else {
                        1
                    }
                },
            ) else {
                return skip;
            };
            let mut status = 0;
            libc::waitpid(init, &mut status, 0);
            if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                5
            }
        }
    }

    /// Forks, in a new PID namespace, its pid 1, which forks an owner numbered `pid` there (`/proc` stays
    /// the outer one) to run `owner` and `_exit(0)`; pid 1 then `_exit`s with what `after` makes of the
    /// owner's wait status. Returns pid 1's id here, or `None` where no new PID namespace is allowed.
    /// Either child `_exit`s with [`SKIP`] where the owner cannot be given `pid`.
    ///
    /// # Safety
    /// Only in the test's own process (see [`run_alone`]): it may start no thread afterwards.
    unsafe fn fork_owner_in_new_pid_namespace(
        pid: i32,
        owner: impl FnOnce(),
        after: impl FnOnce(i32) -> i32,
    ) -> Option<libc::pid_t> {
        // SAFETY: as above; the children run only `owner`, `after` and `_exit`.
        unsafe {
            if libc::unshare(libc::CLONE_NEWPID) != 0 {
                return None;
            }
            let init = libc::fork();
            if init == 0 {
                if std::fs::write("/proc/sys/kernel/ns_last_pid", format!("{}", pid - 1)).is_err() {
                    libc::_exit(SKIP);
                }
                let child = libc::fork();
                if child == 0 {
                    if libc::getpid() != pid {
                        libc::_exit(SKIP);
                    }
                    owner();
                    libc::_exit(0);
                }
                let mut status = 0;
                libc::waitpid(child, &mut status, 0);
                libc::_exit(after(status));
            }
            Some(init)
        }
    }

    /// A live owner in another PID namespace (a child of a process that called `unshare(CLONE_NEWPID)`)
    /// records an id that names no thread here: a waiter outside must wait for its release, not take the
    /// lock over.
    #[test]
    fn a_live_owner_in_another_pid_namespace_is_waited_for() {
        match run_alone("a_live_owner_in_another_pid_namespace_is_waited_for", other_namespace_owner) {
            SKIP => eprintln!("skipped: no new PID namespace, no ns_last_pid or no robust list here"),
            code => assert_eq!(code, 0, "1: taken while the owner held it; 2: the live owner was reported dead"),
        }
    }

    /// The body of the test above (see [`run_alone`]).
    ///
    /// # Safety
    /// Only in the test's own process; forks.
    unsafe fn other_namespace_owner() -> i32 {
        let skip = SKIP;
        // SAFETY: a fresh shared anonymous mapping holds the lock and two flag words (after it); the forked
        // children only take the lock, set the flags and `_exit`.
        unsafe {
            let Some(ptr) = shared_page() else { return 4 };
            let m = RobustMutex::init(ptr.cast());
            let flags = ptr.cast::<u8>().add(MUTEX_BYTES as usize).cast::<AtomicU64>();
            let (held, released) = (&*flags, &*flags.add(1));
            if this_thread().pending.is_null() {
                return skip;
            }
            // A number no process has here: the owner gets it in the new namespace.
            let pid_max: i32 = std::fs::read_to_string("/proc/sys/kernel/pid_max")
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0);
            let Some(free) = (pid_max.saturating_sub(1000)..pid_max).rev().find(|&n| no_such_thread(n as u32)) else {
                return skip;
            };
            // After this, the process may not start threads: the waiter is this thread.
            let Some(init) = fork_owner_in_new_pid_namespace(
                free,
                || {
                    let g = m.lock();
                    held.store(1, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(300));
                    released.store(1, Ordering::SeqCst);
                    drop(g);
                },
                |status| if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 6 },
            ) else {
                return skip;
            };
            let mut status = 0;
            while held.load(Ordering::SeqCst) == 0 {
                if libc::waitpid(init, &mut status, libc::WNOHANG) == init {
                    return if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 6 };
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            let code = match m.lock() {
                Ok(g) if g.previous_owner_died() => 2,
                Ok(_) if released.load(Ordering::SeqCst) == 0 => 1,
                Ok(_) => 0,
                Err(_) => 5,
            };
            libc::waitpid(init, &mut status, 0);
            code
        }
    }

    #[test]
    fn waiters_in_other_threads_all_get_the_lock_in_turn() {
        let (_slot, m) = fresh();
        let total = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..2000 {
                        let g = m.lock().unwrap();
                        assert!(!g.previous_owner_died());
                        // A read-modify-write the lock alone makes atomic.
                        total.store(total.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
                    }
                });
            }
        });
        assert_eq!(total.load(Ordering::Relaxed), 8000);
    }
}
