//! The cross-process write lock: a robust, process-shared pthread mutex living in shared memory.
//!
//! Why not a futex word of our own: the kernel already tracks robust-mutex owners per thread and hands the
//! next locker `EOWNERDEAD` the moment an owner dies (SIGKILL included), with no PID-reuse window and no
//! polling. Why not parking_lot or std: their waiters park on process-private futexes, so a waiter in one
//! process is never woken by an unlock in another. The caller of [`RobustMutex::lock`] learns whether the
//! previous owner died so it can repair what that owner left half-done (see `journal`).

use std::marker::PhantomData;

/// Bytes reserved for a mutex in the layout (glibc's pthread_mutex_t is 40 bytes on x86-64, 48 on aarch64).
pub const MUTEX_BYTES: u64 = 64;

/// How long one slice of a blocking wait lasts before the waiter checks the lock word again.
const RECHECK: std::time::Duration = std::time::Duration::from_millis(5);

/// `CLOCK_REALTIME` (the clock `pthread_mutex_timedlock` measures against) plus `d`. A clock step only
/// lengthens or shortens one slice.
fn realtime_after(d: std::time::Duration) -> libc::timespec {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable timespec; CLOCK_REALTIME always exists.
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut now) };
    let nanos = now.tv_nsec as u64 + d.subsec_nanos() as u64;
    libc::timespec {
        tv_sec: now.tv_sec + d.as_secs() as libc::time_t + (nanos / 1_000_000_000) as libc::time_t,
        tv_nsec: (nanos % 1_000_000_000) as _,
    }
}

/// A handle to a mutex stored in shared memory.
#[derive(Clone, Copy)]
pub struct RobustMutex {
    raw: *mut libc::pthread_mutex_t,
}

// SAFETY: the pthread mutex is process-shared; any thread of any process may lock it.
unsafe impl Send for RobustMutex {}
// SAFETY: see above.
unsafe impl Sync for RobustMutex {}

#[derive(Debug, PartialEq, Eq)]
pub enum LockError {
    /// A previous owner died during recovery without marking the mutex consistent.
    NotRecoverable,
    Os(i32),
}

/// Held lock; unlocks on drop. `previous_owner_died` is true exactly once after an owner's death.
/// `!Send`: a pthread mutex must be unlocked by the thread that locked it (the raw-pointer marker keeps
/// the guard on its thread).
pub struct MutexGuard<'a> {
    mutex: RobustMutex,
    pub previous_owner_died: bool,
    _not_send: PhantomData<(&'a (), *const ())>,
}

impl RobustMutex {
    const _SIZE_CHECK: () = assert!(std::mem::size_of::<libc::pthread_mutex_t>() as u64 <= MUTEX_BYTES);

    /// # Safety
    /// `ptr` must point to `MUTEX_BYTES` bytes of shared memory, suitably aligned, that stay mapped while
    /// the handle is used, and that were initialised with [`RobustMutex::init`] by someone.
    pub unsafe fn at(ptr: *mut u8) -> RobustMutex {
        RobustMutex { raw: ptr.cast() }
    }

    /// Initialises a fresh mutex in place (segment creation only; nobody else can see it yet).
    ///
    /// # Safety
    /// As for [`RobustMutex::at`], and no other process or thread may use the memory concurrently.
    pub unsafe fn init(ptr: *mut u8) -> Result<RobustMutex, LockError> {
        let check = |rc: i32| if rc == 0 { Ok(()) } else { Err(LockError::Os(rc)) };
        // SAFETY: an all-zero pthread_mutexattr_t is a valid argument to pthread_mutexattr_init, which
        // initialises it before any other use.
        let mut attr: libc::pthread_mutexattr_t = unsafe { std::mem::zeroed() };
        // SAFETY: `attr` is a local attribute object; `ptr` is valid, aligned and private to us (contract).
        unsafe {
            check(libc::pthread_mutexattr_init(&mut attr))?;
            let result = (|| {
                check(libc::pthread_mutexattr_setpshared(&mut attr, libc::PTHREAD_PROCESS_SHARED))?;
                check(libc::pthread_mutexattr_setrobust(&mut attr, libc::PTHREAD_MUTEX_ROBUST))?;
                check(libc::pthread_mutex_init(ptr.cast(), &attr))
            })();
            libc::pthread_mutexattr_destroy(&mut attr);
            result.map(|()| RobustMutex { raw: ptr.cast() })
        }
    }

    /// Blocks until the lock is held. When the previous owner died holding it, the guard says so and the
    /// mutex is already marked consistent again: the caller must repair the protected state before
    /// releasing the guard.
    ///
    /// Waits in slices of [`RECHECK`] rather than in one untimed wait: a robust mutex can lose a wake-up
    /// when a waiter is killed. The unlocker wakes one waiter; if that waiter dies before retaking the
    /// lock while a newcomer holds it, nothing re-arms the "waiters" bit, and the remaining sleepers are
    /// never woken although the lock is free (the kernel re-wakes only when the word has no owner at the
    /// waiter's death). A timed-out slice re-reads the word and takes a free lock, so such a loss costs
    /// at most one slice (`counter_kill` reproduces it within minutes with untimed waits).
    pub fn lock(&self) -> Result<MutexGuard<'_>, LockError> {
        // SAFETY: `raw` points to an initialised process-shared mutex (constructor contract).
        let rc = unsafe { libc::pthread_mutex_trylock(self.raw) };
        if rc != libc::EBUSY {
            return self.after_lock(rc);
        }
        self.lock_contended()
    }

    /// [`RobustMutex::lock`] once the lock was found held: the timed waits, out of line so the
    /// uncontended path (every store and delete) keeps a small frame.
    #[cold]
    #[inline(never)]
    fn lock_contended(&self) -> Result<MutexGuard<'_>, LockError> {
        loop {
            let deadline = realtime_after(RECHECK);
            // SAFETY: `raw` points to an initialised process-shared mutex (constructor contract);
            // `deadline` is a valid timespec.
            let rc = unsafe { libc::pthread_mutex_timedlock(self.raw, &deadline) };
            if rc != libc::ETIMEDOUT {
                return self.after_lock(rc);
            }
        }
    }

    /// Non-blocking attempt; `Ok(None)` when someone else holds it.
    #[cfg(test)]
    pub fn try_lock(&self) -> Result<Option<MutexGuard<'_>>, LockError> {
        // SAFETY: as in `lock`.
        let rc = unsafe { libc::pthread_mutex_trylock(self.raw) };
        if rc == libc::EBUSY {
            return Ok(None);
        }
        self.after_lock(rc).map(Some)
    }

    fn after_lock(&self, rc: i32) -> Result<MutexGuard<'_>, LockError> {
        match rc {
            0 => Ok(MutexGuard { mutex: *self, previous_owner_died: false, _not_send: PhantomData }),
            libc::EOWNERDEAD => {
                // SAFETY: we hold the mutex (EOWNERDEAD means it was acquired); marking it consistent
                // now is fine because the guard's holder repairs the data before anyone else gets in.
                unsafe { libc::pthread_mutex_consistent(self.raw) };
                Ok(MutexGuard { mutex: *self, previous_owner_died: true, _not_send: PhantomData })
            }
            libc::ENOTRECOVERABLE => Err(LockError::NotRecoverable),
            other => Err(LockError::Os(other)),
        }
    }
}

impl Drop for MutexGuard<'_> {
    fn drop(&mut self) {
        // SAFETY: this guard holds the mutex.
        unsafe { libc::pthread_mutex_unlock(self.mutex.raw) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(align(64))]
    struct Slot([u8; MUTEX_BYTES as usize]);

    #[test]
    fn lock_try_lock_and_release() {
        let mut slot = Box::new(Slot([0; MUTEX_BYTES as usize]));
        // SAFETY: private memory of the right size, used by this test only.
        let m = unsafe { RobustMutex::init(slot.0.as_mut_ptr()) }.unwrap();
        let g = m.lock().unwrap();
        assert!(!g.previous_owner_died);
        let other = std::thread::scope(|s| s.spawn(|| m.try_lock().unwrap().is_none()).join().unwrap());
        assert!(other, "a second thread must not get a held lock");
        drop(g);
        assert!(m.try_lock().unwrap().is_some());
    }

    #[test]
    fn a_thread_that_exits_holding_the_lock_is_detected() {
        let mut slot = Box::new(Slot([0; MUTEX_BYTES as usize]));
        // SAFETY: private memory of the right size, used by this test only.
        let m = unsafe { RobustMutex::init(slot.0.as_mut_ptr()) }.unwrap();
        std::thread::scope(|s| {
            s.spawn(|| std::mem::forget(m.lock().unwrap())).join().unwrap();
        });
        let g = m.lock().unwrap();
        assert!(g.previous_owner_died);
        drop(g);
        assert!(!m.lock().unwrap().previous_owner_died);
    }
}
