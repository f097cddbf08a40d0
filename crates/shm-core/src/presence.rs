//! Presence locks: "is any member of this scope still alive?", answered by the kernel.
//!
//! A scope (the processes of one php-fpm master generation, or the workers of one pool) is a named
//! object in `/dev/shm` on which every member holds `flock(LOCK_SH)`, through a descriptor of its own or
//! one inherited across `fork`. The kernel drops the lock with the last descriptor of its open file
//! description — when a member exits, is killed, or becomes a zombie, in whatever PID namespace — so a
//! `LOCK_EX|LOCK_NB` on a fresh descriptor succeeds exactly when no member is left. Process ids are never
//! consulted: they are reused, belong to one PID namespace, and a zombie still answers `kill(pid, 0)`.

use std::os::fd::{AsRawFd, OwnedFd};
use std::time::Duration;

use crate::named;
use crate::segment::SegmentError;

/// Bound on the retries of [`PresenceLock::join`] (a prober holds the lock exclusively for
/// microseconds; a scope being removed disappears as quickly).
const JOIN_ATTEMPTS: u32 = 200;
const JOIN_RETRY: Duration = Duration::from_millis(2);

fn flock(fd: &OwnedFd, op: i32) -> bool {
    // SAFETY: fd is open; flock has no memory effects.
    unsafe { libc::flock(fd.as_raw_fd(), op | libc::LOCK_NB) == 0 }
}

/// This process's membership of a scope. Dropping it (or exiting) leaves the scope; children forked
/// while it is held are members too, until they exit or close it.
#[derive(Debug)]
pub struct PresenceLock {
    fd: OwnedFd,
    name: String,
}

impl PresenceLock {
    /// Joins the scope named `name`, creating its lock object if it does not exist. Returns whether
    /// this call created it (the scope's first member).
    pub fn join(name: &str) -> Result<(PresenceLock, bool), SegmentError> {
        for _ in 0..JOIN_ATTEMPTS {
            let (fd, created) = match named::create_exclusive(name) {
                Ok(fd) => (fd, true),
                Err(SegmentError::Os(_, e)) if e.raw_os_error() == Some(libc::EEXIST) => match named::open_own(name) {
                    Ok((fd, _)) => (fd, false),
                    // Removed since: try again.
                    Err(SegmentError::Os(_, e)) if e.raw_os_error() == Some(libc::ENOENT) => continue,
                    Err(e) => return Err(e),
                },
                Err(e) => return Err(e),
            };
            // A failed shared lock means someone is removing this scope right now; the name is free
            // again in a moment. A lock on an object that is no longer the name's (removed after we
            // opened it) would make us the member of a scope nobody can find: try again.
            if flock(&fd, libc::LOCK_SH) && named::names(name, &fd) {
                return Ok((PresenceLock { fd, name: name.to_owned() }, created));
            }
            std::thread::sleep(JOIN_RETRY);
        }
        Err(SegmentError::Os("flock", std::io::Error::from_raw_os_error(libc::EWOULDBLOCK)))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the lock object still has its name (a scope's successor may remove a finished scope's
    /// objects while a member still holds them).
    pub fn is_named(&self) -> bool {
        named::names(&self.name, &self.fd)
    }

    /// Leaves the scope: closes this process's descriptor, then returns the scope's [`Vacancy`] if no
    /// member is left (including the other holders of an inherited descriptor).
    pub fn leave(self) -> Option<Vacancy> {
        let name = self.name;
        drop(self.fd);
        probe(&name)
    }
}

/// Proof that a scope has no member: an exclusive lock on its lock object, held until dropped, during
/// which nobody can join it. Remove the scope's other objects, then [`Vacancy::remove`] the lock.
#[derive(Debug)]
pub struct Vacancy {
    fd: OwnedFd,
    name: String,
    owner: u32,
}

impl Vacancy {
    /// Whether an object owned by `uid` may be removed on the strength of this vacancy. Anyone can make
    /// an object of any free name (a lock beside someone else's objects), so only objects of the lock's
    /// owner belong to its scope — all of them if root owns the lock.
    pub fn covers(&self, uid: u32) -> bool {
        self.owner == 0 || self.owner == uid
    }

    /// Removes the lock object (the last object of a scope to go, so that a scope's objects never
    /// outlive the lock that tells whether they are in use).
    pub fn remove(self) {
        let _ = named::unlink(&self.name);
        drop(self.fd);
    }
}

/// The vacancy of scope `name`, or `None` when it has a member — or when this process cannot tell
/// (the lock object is missing, not a regular file, or another user's private object).
pub fn probe(name: &str) -> Option<Vacancy> {
    let (fd, owner) = named::open_for_lock(name).ok()?;
    (flock(&fd, libc::LOCK_EX) && named::names(name, &fd)).then(|| Vacancy { fd, name: name.to_owned(), owner })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::named::test_name as unique;

    /// Forks a child that runs `f` and exits (without running the parent's destructors).
    fn fork_child(f: impl FnOnce()) -> libc::pid_t {
        // SAFETY: the child only calls async-signal-safe functions (flock, close, pause, _exit) in `f`
        // and then exits immediately.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            f();
            // SAFETY: leaving the child without unwinding into the test harness.
            unsafe { libc::_exit(0) };
        }
        pid
    }

    fn kill_and_reap(pid: libc::pid_t) {
        // SAFETY: pid is our child.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
    }

    /// Waits until the child is a zombie (exited, not reaped).
    fn wait_exited_unreaped(pid: libc::pid_t) {
        for _ in 0..500 {
            let mut info: libc::siginfo_t =
                // SAFETY: an all-zero siginfo_t is a valid out-parameter.
                unsafe { std::mem::zeroed() };
            // SAFETY: pid is our child; WNOWAIT leaves it a zombie.
            let r = unsafe {
                libc::waitid(libc::P_PID, pid as u32, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT)
            };
            // SAFETY: reading the pid field waitid filled in (0 while the child runs).
            if r == 0 && unsafe { info.si_pid() } == pid {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        panic!("child {pid} did not exit");
    }

    #[test]
    fn a_scope_is_vacant_exactly_when_no_member_is_left() {
        let name = unique("members");
        let (a, created) = PresenceLock::join(&name).unwrap();
        assert!(created);
        let (b, created) = PresenceLock::join(&name).unwrap();
        assert!(!created);
        assert!(probe(&name).is_none(), "two members: not vacant");
        assert!(a.leave().is_none(), "one member left");
        let vacancy = b.leave().expect("the last member leaves a vacant scope");
        assert!(probe(&name).is_none(), "a vacancy is exclusive");
        vacancy.remove();
        assert!(!named::exists(&name));
    }

    #[test]
    fn a_vacancy_keeps_members_out_until_the_scope_is_removed() {
        let name = unique("vacancy");
        let (a, _) = PresenceLock::join(&name).unwrap();
        let vacancy = a.leave().unwrap();
        // A joiner that opened the old object waits, and ends up in a fresh scope.
        let joiner = std::thread::spawn({
            let name = name.clone();
            move || PresenceLock::join(&name)
        });
        std::thread::sleep(Duration::from_millis(20));
        vacancy.remove();
        let (fresh, created) = joiner.join().unwrap().unwrap();
        assert!(created, "the joiner made a new scope after the old one was removed");
        assert!(named::exists(fresh.name()));
        fresh.leave().unwrap().remove();
    }

    #[test]
    fn a_membership_inherited_by_a_child_holds_until_the_child_is_gone() {
        let name = unique("inherited");
        let (member, _) = PresenceLock::join(&name).unwrap();
        // SAFETY: pause only returns on a signal; the child is killed.
        let child = fork_child(|| unsafe {
            libc::pause();
        });
        assert!(member.leave().is_none(), "the child still holds the inherited descriptor");
        kill_and_reap(child);
        probe(&name).expect("vacant once the child is gone").remove();
    }

    #[test]
    fn a_zombie_member_does_not_hold_a_scope() {
        let name = unique("zombie");
        let (_member, _) = PresenceLock::join(&name).unwrap();
        let child = fork_child(|| {
            // The child's own membership (a descriptor of its own), held until it exits; the inherited
            // one closes with it too.
            std::mem::forget(PresenceLock::join(&name));
        });
        wait_exited_unreaped(child);
        // The child is a zombie: kill(pid, 0) would call it alive; its locks are gone. Only the parent's
        // membership remains.
        // SAFETY: signal 0 only checks whether the process exists.
        assert_eq!(unsafe { libc::kill(child, 0) }, 0);
        assert!(probe(&name).is_none());
        drop(_member);
        probe(&name).expect("the zombie holds nothing").remove();
        kill_and_reap(child);
    }

    #[test]
    fn a_vacancy_covers_only_objects_of_its_locks_owner_unless_root() {
        let name = unique("covers");
        let (lock, _) = PresenceLock::join(&name).unwrap();
        let vacancy = lock.leave().unwrap();
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        assert!(vacancy.covers(me));
        assert_eq!(vacancy.covers(me + 1), me == 0, "a lock of root covers everyone's objects");
        vacancy.remove();
        if me != 0 {
            return;
        }
        // A lock another user planted beside root's objects proves nothing about them.
        let planted = unique("covers-planted");
        std::fs::write(format!("{}/{planted}", named::SHM_DIR), b"").unwrap();
        std::os::unix::fs::chown(format!("{}/{planted}", named::SHM_DIR), Some(65534), None).unwrap();
        let vacancy = probe(&planted).expect("nobody holds the planted lock");
        let (covers_own, covers_root, covers_other) = (vacancy.covers(65534), vacancy.covers(0), vacancy.covers(33));
        vacancy.remove();
        assert!(covers_own && !covers_root && !covers_other);
    }

    #[test]
    fn another_users_lock_object_is_never_joined() {
        let name = unique("planted");
        std::fs::write(format!("{}/{name}", named::SHM_DIR), b"").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(format!("{}/{name}", named::SHM_DIR), std::fs::Permissions::from_mode(0o666)).unwrap();
        let r = PresenceLock::join(&name);
        let _ = named::unlink(&name);
        assert!(matches!(r, Err(SegmentError::Foreign { .. })), "{r:?}");
    }
}
