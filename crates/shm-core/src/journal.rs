//! Undo journal: makes every metadata change under the write lock all-or-nothing, even when the writer is
//! SIGKILLed half-way.
//!
//! A transaction writes only 64-bit words, and each write is logged first: `(offset, old value)` goes to
//! the journal, the journal length is published (Release), then the word is written. A transaction ends
//! with at most one *publish* write (the store that makes the change visible to lock-free readers); commit
//! empties the journal. The next lock holder after a death calls [`Journal::recover`]: if the publish
//! write already happened the change is complete and is kept; otherwise every logged word is restored in
//! reverse order, which also returns any block the dead writer had allocated. Bytes of freshly allocated
//! blocks are not logged: rolling back the allocation makes them unreachable. Nor is the quick-list link
//! a reclamation pass writes into a block it frees (`SizeClassAllocator::free_in_run`): rolling back
//! makes the block a retired entry again, which no reader can reach any more, and nothing reads the
//! entry's index link the link word overwrote.

use crate::region::Region;
use std::sync::atomic::Ordering;

/// Words one transaction may write. Operations are split into bounded transactions (one per eviction, per
/// bucket cleared, per run of blocks reclaimed, which stops while it still has room for one more free), so
/// the largest needs well under this.
pub const JOURNAL_CAPACITY: u64 = 256;
const PUBLISH_FLAG: u64 = 1 << 63;

/// Bytes the journal occupies: its length word, then `(offset, old)` pairs.
pub const JOURNAL_BYTES: u64 = 8 + JOURNAL_CAPACITY * 16;

#[derive(Clone, Copy)]
pub struct Journal {
    region: Region,
    at: u64,
    /// A word set to 1 whenever a change is undone: words the caller keeps outside the journal (counts)
    /// may then disagree with the restored structure and must be recounted.
    undone: u64,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Recovery {
    /// Nothing was in flight.
    Clean,
    /// The interrupted change had not been published; it was undone.
    RolledBack,
    /// The interrupted change had been published; it was kept.
    Completed,
}

impl Journal {
    /// The journal at byte `at` of `region` (the region the journaled words live in), flagging undos in
    /// the word at `undone`.
    pub fn new(region: Region, at: u64, undone: u64) -> Journal {
        assert!(at.is_multiple_of(8) && region.contains(at, JOURNAL_BYTES), "journal outside its region");
        assert!(undone.is_multiple_of(8) && region.contains(undone, 8), "undone flag outside the region");
        Journal { region, at, undone }
    }

    /// Word `i` of the journal area (0 is the length; entry `k` is words `1 + 2k` and `2 + 2k`).
    fn slot(&self, i: u64) -> &std::sync::atomic::AtomicU64 {
        assert!(i < 1 + 2 * JOURNAL_CAPACITY);
        // SAFETY: `new` checked that the whole journal area is inside the region and 8-aligned.
        unsafe { self.region.word_unchecked(self.at + 8 * i) }
    }

    /// True (once) when a change was undone since the last call.
    pub fn take_undone(&self) -> bool {
        // A load first: every lock holder asks, and the flag is almost never set (the swap, a locked
        // read-modify-write, only then). Only lock holders clear it, so nothing races the clear.
        // SAFETY: `new` checked that the flag is an aligned word inside the region.
        let word = unsafe { self.region.word_unchecked(self.undone) };
        word.load(Ordering::Acquire) != 0 && word.swap(0, Ordering::AcqRel) != 0
    }

    fn len_word(&self) -> &std::sync::atomic::AtomicU64 {
        self.slot(0)
    }

    fn entry(&self, i: u64) -> (u64, u64) {
        (self.slot(1 + 2 * i).load(Ordering::Relaxed), self.slot(2 + 2 * i).load(Ordering::Relaxed))
    }

    /// Starts a transaction. The caller holds the write lock and has recovered the journal.
    #[inline(always)]
    pub fn begin(&self) -> Txn<'_> {
        debug_assert_eq!(self.len_word().load(Ordering::Relaxed), 0, "transaction already open");
        Txn { journal: self, region: self.region, at: self.at, len: 0, done: false }
    }

    /// Repairs what a dead lock holder left. Call with the write lock held.
    pub fn recover(&self) -> Recovery {
        let len = self.len_word().load(Ordering::Acquire).min(JOURNAL_CAPACITY);
        if len == 0 {
            return Recovery::Clean;
        }
        let (last_off, last_old) = self.entry(len - 1);
        let outcome = if last_off & PUBLISH_FLAG != 0
            && self.region.checked_word(last_off & !PUBLISH_FLAG).is_some_and(|w| w.load(Ordering::Acquire) != last_old)
        {
            Recovery::Completed
        } else {
            self.undo(len);
            Recovery::RolledBack
        };
        self.len_word().store(0, Ordering::Release);
        outcome
    }

    fn undo(&self, len: u64) {
        if len > 0 {
            self.region.word(self.undone).store(1, Ordering::Release);
        }
        for i in (0..len).rev() {
            let (off, old) = self.entry(i);
            if let Some(w) = self.region.checked_word(off & !PUBLISH_FLAG) {
                w.store(old, Ordering::Release);
            }
        }
    }
}

/// An open transaction. Dropping it without [`Txn::commit`] (an error path or a panic unwinding) undoes it.
pub struct Txn<'a> {
    journal: &'a Journal,
    /// Copies of the journal's `region` and `at`: a transaction inlined into its caller keeps them in
    /// registers, where through `journal` they were loaded again after every logged write (an atomic
    /// store the compiler cannot prove leaves them alone).
    region: Region,
    at: u64,
    len: u64,
    done: bool,
}

impl Txn<'_> {
    /// Appends `(off, current value of word)` to the journal and publishes the new length.
    #[inline(always)]
    fn log(&mut self, word: &std::sync::atomic::AtomicU64, off: u64, flag: u64) {
        assert!(self.len < JOURNAL_CAPACITY, "journal overflow: transaction too large");
        let old = word.load(Ordering::Relaxed);
        let (region, at) = (&self.region, self.at);
        // SAFETY: `new` checked that the whole journal area is inside the region and 8-aligned, and
        // entry `len` is inside it (`len < JOURNAL_CAPACITY`, asserted above): the checks of `slot`, once.
        unsafe {
            region.word_unchecked(at + 8 + 16 * self.len).store(off | flag, Ordering::Relaxed);
            region.word_unchecked(at + 16 + 16 * self.len).store(old, Ordering::Relaxed);
            self.len += 1;
            region.word_unchecked(at).store(self.len, Ordering::Release);
        }
    }

    /// Words this transaction may still write.
    pub fn room(&self) -> u64 {
        JOURNAL_CAPACITY - self.len
    }

    /// Logs, then writes one word.
    #[inline(always)]
    pub fn set(&mut self, off: u64, value: u64) {
        let region = self.region;
        let word = region.word(off);
        self.log(word, off, 0);
        word.store(value, Ordering::Release);
    }

    /// Reads a word (convenience for read-modify-write in transactions).
    #[inline(always)]
    pub fn get(&self, off: u64) -> u64 {
        self.region.word(off).load(Ordering::Acquire)
    }

    /// The final write that makes the change visible to readers. Must differ from the current value,
    /// and nothing may be written after it.
    #[inline(always)]
    pub fn publish(mut self, off: u64, value: u64) {
        debug_assert_ne!(self.get(off), value, "a publish write must change the word");
        let region = self.region;
        let word = region.word(off);
        self.log(word, off, PUBLISH_FLAG);
        word.store(value, Ordering::Release);
        self.commit();
    }

    /// Makes the transaction permanent.
    #[inline(always)]
    pub fn commit(mut self) {
        self.journal.len_word().store(0, Ordering::Release);
        self.done = true;
    }
}

impl Drop for Txn<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.journal.undo(self.len);
            self.journal.len_word().store(0, Ordering::Release);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(buf: &mut [u64]) -> Region {
        // SAFETY: a private 8-aligned buffer that outlives the region in each test.
        unsafe { Region::new(buf.as_mut_ptr().cast(), (buf.len() * 8) as u64) }
    }

    #[test]
    fn dropped_transaction_restores_every_word() {
        let mut buf = vec![0u64; 1024];
        let r = region(&mut buf);
        let j = Journal::new(r, 0, JOURNAL_BYTES + 16);
        r.word(JOURNAL_BYTES).store(7, Ordering::Relaxed);
        {
            let mut t = j.begin();
            t.set(JOURNAL_BYTES, 8);
            t.set(JOURNAL_BYTES + 8, 9);
            t.set(JOURNAL_BYTES, 10);
        }
        assert_eq!(r.word(JOURNAL_BYTES).load(Ordering::Relaxed), 7);
        assert_eq!(r.word(JOURNAL_BYTES + 8).load(Ordering::Relaxed), 0);
        assert_eq!(j.recover(), Recovery::Clean);
    }

    #[test]
    fn recovery_undoes_an_unpublished_change_and_keeps_a_published_one() {
        let mut buf = vec![0u64; 1024];
        let r = region(&mut buf);
        let j = Journal::new(r, 0, JOURNAL_BYTES + 16);
        let mut t = j.begin();
        t.set(JOURNAL_BYTES, 5);
        std::mem::forget(t); // the writer "dies" here
        assert_eq!(j.recover(), Recovery::RolledBack);
        assert_eq!(r.word(JOURNAL_BYTES).load(Ordering::Relaxed), 0);

        let mut t = j.begin();
        t.set(JOURNAL_BYTES, 5);
        t.log(r.word(JOURNAL_BYTES + 8), JOURNAL_BYTES + 8, PUBLISH_FLAG); // died after logging the publish
        std::mem::forget(t);
        assert_eq!(j.recover(), Recovery::RolledBack);
        assert_eq!(r.word(JOURNAL_BYTES).load(Ordering::Relaxed), 0);

        let mut t = j.begin();
        t.set(JOURNAL_BYTES, 5);
        t.log(r.word(JOURNAL_BYTES + 8), JOURNAL_BYTES + 8, PUBLISH_FLAG);
        r.word(JOURNAL_BYTES + 8).store(1, Ordering::Relaxed); // died after the publish write
        std::mem::forget(t);
        assert_eq!(j.recover(), Recovery::Completed);
        assert_eq!(r.word(JOURNAL_BYTES).load(Ordering::Relaxed), 5);
        assert_eq!(r.word(JOURNAL_BYTES + 8).load(Ordering::Relaxed), 1);
    }
}
