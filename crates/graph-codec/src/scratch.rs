//! Working sets a thread keeps from one use to the next (emptied), so that checking or building a
//! small value allocates nothing once the thread has handled one as large. Each kind of set lives in
//! its own `thread_local!` [`Spare`] cell; a set grown past what its kind keeps is dropped, not kept.

use std::cell::Cell;
use std::thread::LocalKey;

/// A working set of vectors kept between uses.
pub trait Scratch: Default {
    /// Whether it is small enough to keep for the thread's next use.
    fn worth_keeping(&self) -> bool;
    /// Empties it, keeping its capacity.
    fn clear(&mut self);
}

/// The cell a thread keeps its spare set of one kind in.
pub type Spare<T> = Cell<Option<Box<T>>>;

/// The thread's spare set, or a new one (also while the thread's locals are being destroyed).
pub fn take<T: Scratch>(spare: &'static LocalKey<Spare<T>>) -> Box<T> {
    spare.try_with(Cell::take).ok().flatten().unwrap_or_default()
}

/// Empties `work` and keeps it for the thread's next [`take`], unless it is no longer worth keeping.
pub fn give_back<T: Scratch>(spare: &'static LocalKey<Spare<T>>, mut work: Box<T>) {
    if !work.worth_keeping() {
        return;
    }
    work.clear();
    let _ = spare.try_with(|cell| cell.set(Some(work)));
}
