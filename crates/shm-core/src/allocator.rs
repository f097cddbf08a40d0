//! The payload allocator: boundary-tagged blocks in size-classed free lists, plus exact-size quick lists
//! for small blocks; all offsets.
//!
//! Block layout (offsets relative to the backend region): an 8-byte header `size | INUSE | PREV_INUSE |
//! QUICK`, then the payload. A free block keeps `next`/`prev` free-list links at +8/+16 and its size in
//! its last word (the footer), so freeing coalesces with both neighbours in O(1). Sizes are multiples of
//! 16, at least 32. Free blocks sit in 256 bins (exact 16-byte classes below 1 KiB, then four bins per
//! power of two) with a bitmap of non-empty bins, so allocation is one bitmap scan plus a short list walk.
//! Never-used space above `top` is handed out last, which keeps untouched pages untouched (lazy paging).
//!
//! Quick lists: a freed block under 1 KiB is not coalesced but parked, still marked in use (plus `QUICK`),
//! on a singly linked list of its exact size, and the next request of that size takes it back: a
//! store that replaces a small value then costs a handful of journaled words instead of a split and a
//! coalescing free. At most `QUICK_CAP` blocks are parked; [`SizeClassAllocator::drain_quick`] returns
//! them all to the bins when a larger request finds no room, so parked memory is never lost to it.
//!
//! Every structural write (headers, footers, links, list heads, bitmap, `top`, the walk cursor) goes
//! through the journal, so a writer killed mid-operation leaves the heap consistent. One exception: the
//! quick-list link of a block a reclamation run parks (see [`SizeClassAllocator::free_in_run`]), which
//! an undo leaves behind in a block that then is a retired entry again, where nothing reads that word. The byte counts are
//! plain words, recomputed from the heap by [`SizeClassAllocator::recount`] after such a death.
//!
//! The heap can be walked block by block from its start ([`SizeClassAllocator::block_at`]), which is
//! what eviction and compaction do; a persistent cursor ([`SizeClassAllocator::cursor`]) is kept on a
//! block boundary through every split and merge, so a walk can resume where the last one stopped.

use crate::journal::{Journal, Txn};
use crate::region::Region;
use std::sync::atomic::{AtomicU64, Ordering};

const INUSE: u64 = 1;
const PREV_INUSE: u64 = 2;
/// On a quick list: free for every purpose but coalescing, which sees it as in use.
const QUICK: u64 = 4;
/// In use, but by a store still copying its value outside the write lock (see `staging`).
const STAGED: u64 = 8;
const SIZE_MASK: u64 = !15;
pub const MIN_BLOCK: u64 = 32;
const BINS: usize = 256;
const BITMAP_WORDS: usize = BINS / 64;
/// How many blocks of a mixed-size bin a request inspects before moving to a larger bin.
const BIN_SCAN_LIMIT: usize = 32;
/// Blocks smaller than this go to a quick list when freed.
const QUICK_LIMIT: u64 = 1024;
const QUICK_LISTS: usize = (QUICK_LIMIT / 16) as usize;
/// Most blocks parked on quick lists at once: bounds what a drain costs.
const QUICK_CAP: u64 = 1024;

/// Words of allocator state, at `state` in the backend header.
const TOP: u64 = 0;
const USED: u64 = 8;
const FREE_LISTED: u64 = 16;
const QUICK_BYTES: u64 = 24;
const QUICK_COUNT: u64 = 32;
const CURSOR: u64 = 40;
const BITMAP: u64 = 48;
const BIN_HEADS: u64 = BITMAP + 8 * BITMAP_WORDS as u64;
const QUICK_HEADS: u64 = BIN_HEADS + 8 * BINS as u64;
/// Bytes of allocator state in the backend header.
pub const STATE_BYTES: u64 = QUICK_HEADS + 8 * QUICK_LISTS as u64;

/// The allocator of one backend: where its state words are and which range it manages.
#[derive(Clone, Copy)]
pub struct SizeClassAllocator {
    region: Region,
    state: u64,
    heap_start: u64,
    heap_end: u64,
}

/// What the frees of one run ([`SizeClassAllocator::free_in_run`]) leave to its end.
#[derive(Default)]
pub struct RunFrees {
    /// The block that heads the chain of parked blocks of `size` bytes whose list head is not written
    /// yet (0: none).
    head: u64,
    size: u64,
    /// Blocks and bytes parked, and bytes no longer in use.
    parked: u64,
    parked_bytes: u64,
    freed_bytes: u64,
}

impl RunFrees {
    /// Bytes of the blocks freed so far (headers included).
    pub fn freed_bytes(&self) -> u64 {
        self.freed_bytes
    }
}

/// Allocator figures for statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocStats {
    /// Bytes of blocks in use (quick-listed blocks excluded).
    pub used_bytes: u64,
    /// Bytes of listed free blocks, quick-listed blocks and never-used space.
    pub free_bytes: u64,
    pub largest_free: u64,
}

/// What a block of the heap is, as a walk sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Free,
    /// Parked on a quick list (free, but not coalesced).
    Quick,
    /// Allocated to a store that is still filling it.
    Staged,
    InUse,
}

/// One block met by a heap walk. `start` is the block (header) offset; the payload is at `start + 8`.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    pub start: u64,
    pub size: u64,
    pub kind: BlockKind,
}

/// One step of a [`HeapWalk`].
pub enum Step {
    Block(Block),
    /// The used heap ended here (never-used space follows); the walk goes on from the heap start.
    End,
}

/// A walk of the heap in address order from a block boundary, wrapping round at the end of the used
/// heap, until `budget` bytes were walked. Counts what it walked.
pub struct HeapWalk<'a> {
    alloc: &'a SizeClassAllocator,
    at: u64,
    budget: u64,
    /// Bytes walked so far (an `End` counts 8).
    pub walked: u64,
    /// Blocks met so far.
    pub blocks: u64,
}

impl Iterator for HeapWalk<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        if self.walked > self.budget {
            return None;
        }
        match self.alloc.block_at(self.at) {
            Some(b) => {
                self.walked += b.size;
                self.blocks += 1;
                self.at = b.start + b.size;
                Some(Step::Block(b))
            }
            None if self.at == self.alloc.heap_start => None,
            None => {
                self.walked += 8;
                self.at = self.alloc.heap_start;
                Some(Step::End)
            }
        }
    }
}

fn bin_of(size: u64) -> usize {
    if size < 1024 {
        (size / 16) as usize
    } else {
        let p = 63 - size.leading_zeros() as u64;
        let sub = (size >> (p - 2)) & 3;
        (64 + (p - 10) * 4 + sub).min(BINS as u64 - 1) as usize
    }
}

/// Block size needed for a payload of `len` bytes.
pub fn block_size_for(len: u64) -> Option<u64> {
    let size = len.checked_add(8 + 15)? & SIZE_MASK;
    Some(size.max(MIN_BLOCK))
}

impl SizeClassAllocator {
    /// The allocator whose state lives at `state` and manages `[heap_start, heap_end)`.
    pub fn new(region: Region, state: u64, heap_start: u64, heap_end: u64) -> SizeClassAllocator {
        assert!(state.is_multiple_of(8) && region.contains(state, STATE_BYTES), "allocator state outside its region");
        SizeClassAllocator { region, state, heap_start, heap_end }
    }

    /// State word `field` (one range check against the state's size; `new` checked the state area).
    #[inline(always)]
    fn state_word(&self, field: u64) -> &AtomicU64 {
        assert!(field.is_multiple_of(8) && field < STATE_BYTES, "allocator state field {field}");
        // SAFETY: `new` checked that the 8-aligned state area lies inside the region, and `field` is an
        // aligned offset inside it.
        unsafe { self.region.word_unchecked(self.state + field) }
    }

    /// Writes the initial state (segment creation only).
    pub fn format(&self) {
        for off in (0..STATE_BYTES).step_by(8) {
            self.region.word(self.state + off).store(0, Ordering::Relaxed);
        }
        self.region.word(self.state + TOP).store(self.heap_start, Ordering::Relaxed);
        self.region.word(self.state + CURSOR).store(self.heap_start, Ordering::Relaxed);
        // The first block has no predecessor: pretend it is in use so nobody coalesces below the heap.
        self.region.word(self.heap_start).store(PREV_INUSE, Ordering::Relaxed);
    }

    #[inline(always)]
    fn get(&self, field: u64) -> u64 {
        self.state_word(field).load(Ordering::Acquire)
    }

    /// Adds `delta` (wrapping: pass a negated amount to subtract) to a counter word. Write lock held.
    #[inline(always)]
    fn add(&self, field: u64, delta: u64) {
        let w = self.state_word(field);
        w.store(w.load(Ordering::Relaxed).wrapping_add(delta), Ordering::Relaxed);
    }

    #[inline(always)]
    fn hdr(&self, block: u64) -> u64 {
        self.region.word(block).load(Ordering::Acquire)
    }

    fn quick_head(&self, size: u64) -> u64 {
        self.state + QUICK_HEADS + 8 * (size / 16)
    }

    /// Largest payload a single allocation could ever get.
    pub fn max_payload(&self) -> u64 {
        // The largest block: the heap less the 8-byte end marker, in whole 16-byte units; a block
        // carries its 8-byte header (block_size_for's inverse).
        ((self.heap_end - self.heap_start).saturating_sub(8) & SIZE_MASK).saturating_sub(8)
    }

    /// Allocates a block for `len` payload bytes; returns the payload offset. The quick list (a store
    /// replacing a small value) inline, the bins and `top` out of line.
    #[inline(always)]
    pub fn alloc(&self, txn: &mut Txn, len: u64) -> Option<u64> {
        let size = block_size_for(len)?;
        let block = match self.take_from_quick(txn, size) {
            Some(block) => block,
            None => self.alloc_listed(txn, size)?,
        };
        Some(block + 8)
    }

    /// [`SizeClassAllocator::alloc`] of a `size`-byte block no quick list holds.
    #[inline(never)]
    fn alloc_listed(&self, txn: &mut Txn, size: u64) -> Option<u64> {
        self.take_from_bins(txn, size).or_else(|| self.take_from_top(txn, size))
    }

    #[inline(always)]
    fn take_from_quick(&self, txn: &mut Txn, size: u64) -> Option<u64> {
        if size >= QUICK_LIMIT {
            return None;
        }
        let head = self.quick_head(size);
        let block = self.get(head - self.state);
        if block == 0 {
            return None;
        }
        // The caller overwrites the link word unjournaled: log it so an undo relists the block.
        txn.set(head, self.region.word(block + 8).load(Ordering::Acquire));
        txn.set(block + 8, 0);
        txn.set(block, self.hdr(block) & !QUICK);
        self.add(QUICK_COUNT, 1u64.wrapping_neg());
        self.add(QUICK_BYTES, size.wrapping_neg());
        self.add(USED, size);
        Some(block)
    }

    fn take_from_bins(&self, txn: &mut Txn, size: u64) -> Option<u64> {
        let block = self.bin_block_for(size)?;
        Some(self.carve(txn, block, size))
    }

    /// A listed free block of at least `size` bytes: one of the first few of its own bin (sizes vary
    /// within the large bins), else the head of the next non-empty bin (any of whose blocks fits).
    fn bin_block_for(&self, size: u64) -> Option<u64> {
        let first = bin_of(size);
        let mut cur = self.get(BIN_HEADS + 8 * first as u64);
        for _ in 0..BIN_SCAN_LIMIT {
            if cur == 0 {
                break;
            }
            if self.hdr(cur) & SIZE_MASK >= size {
                return Some(cur);
            }
            cur = self.region.word(cur + 8).load(Ordering::Acquire);
        }
        let bin = self.next_nonempty_bin(first + 1)?;
        Some(self.get(BIN_HEADS + 8 * bin as u64))
    }

    fn next_nonempty_bin(&self, from: usize) -> Option<usize> {
        let mut i = from;
        while i < BINS {
            let w = self.get(BITMAP + 8 * (i / 64) as u64) >> (i % 64);
            if w != 0 {
                return Some(i + w.trailing_zeros() as usize);
            }
            i = (i / 64 + 1) * 64;
        }
        None
    }

    /// Allocates `len` payload bytes from the start of the listed free block `block` (a compaction plan
    /// chose it). Returns the payload offset, or `None` when `block` is not a free block that large.
    pub fn alloc_from(&self, txn: &mut Txn, block: u64, len: u64) -> Option<u64> {
        let size = block_size_for(len)?;
        let b = self.block_at(block)?;
        (b.kind == BlockKind::Free && b.size >= size).then(|| self.carve(txn, block, size) + 8)
    }

    /// Allocates `len` payload bytes from never-used space, at `top` or, when `top` is below `at`, at
    /// `at` (the space in between becomes a free block). A compaction plan chose the place.
    pub fn alloc_above(&self, txn: &mut Txn, at: u64, len: u64) -> Option<u64> {
        let top = self.get(TOP);
        if at > top {
            let gap = (at - top).max(MIN_BLOCK).next_multiple_of(16);
            top.checked_add(gap)?.checked_add(block_size_for(len)?)?.checked_add(8).filter(|&e| e <= self.heap_end)?;
            // The block below `top` is in use (a free one would have merged into `top`).
            self.make_free(txn, top, gap, PREV_INUSE);
            txn.set(self.state + TOP, top + gap);
        }
        Some(self.take_from_top(txn, block_size_for(len)?)? + 8)
    }

    /// True when an allocation of a block of `size` bytes would succeed now.
    pub fn fits(&self, size: u64) -> bool {
        (size < QUICK_LIMIT && self.get(QUICK_HEADS + 8 * (size / 16)) != 0)
            || self.bin_block_for(size).is_some()
            || self.top() + size + 8 <= self.heap_end
    }

    /// Removes free `block` from its bin, uses `size` bytes of it and frees the remainder.
    fn carve(&self, txn: &mut Txn, block: u64, size: u64) -> u64 {
        let h = self.hdr(block);
        let bsize = h & SIZE_MASK;
        self.unlink(txn, block, bsize);
        // The caller fills the payload without journaling it. If the transaction is undone, this block is
        // a listed free block again and its own links and footer must come back too: log them now.
        txn.set(block + 8, 0);
        txn.set(block + 16, 0);
        txn.set(block + bsize - 8, 0);
        self.add(FREE_LISTED, bsize.wrapping_neg());
        if bsize - size >= MIN_BLOCK {
            txn.set(block, size | INUSE | (h & PREV_INUSE));
            let rest = block + size;
            self.make_free(txn, rest, bsize - size, PREV_INUSE);
        } else {
            txn.set(block, bsize | INUSE | (h & PREV_INUSE));
            self.set_prev_inuse(txn, block + bsize, true);
        }
        self.add(USED, self.hdr(block) & SIZE_MASK);
        block
    }

    fn take_from_top(&self, txn: &mut Txn, size: u64) -> Option<u64> {
        let top = self.get(TOP);
        // Keep 8 bytes for the header word at `top`.
        if top.checked_add(size)?.checked_add(8)? > self.heap_end {
            return None;
        }
        let prev_bit = self.hdr(top) & PREV_INUSE;
        txn.set(top, size | INUSE | prev_bit);
        txn.set(top + size, PREV_INUSE);
        txn.set(self.state + TOP, top + size);
        self.add(USED, size);
        Some(top)
    }

    /// Frees the block whose payload starts at `payload`: parks a small one on its quick list (while
    /// fewer than `QUICK_CAP` are parked), or returns it to the bins, coalescing with free neighbours
    /// and `top`.
    #[inline(always)]
    pub fn free(&self, txn: &mut Txn, payload: u64) {
        let block = payload - 8;
        let h = self.hdr(block);
        debug_assert!(h & INUSE != 0 && h & QUICK == 0, "double free at {block}");
        let h = h & !STAGED;
        let size = h & SIZE_MASK;
        if size < QUICK_LIMIT && self.get(QUICK_COUNT) < QUICK_CAP {
            let head = self.quick_head(size);
            txn.set(block + 8, txn.get(head));
            txn.set(block, h | QUICK);
            txn.set(head, block);
            self.add(QUICK_COUNT, 1);
            self.add(QUICK_BYTES, size);
        } else {
            self.release(txn, block);
        }
        // Only once the transaction has logged a write: a writer killed before its first logged write
        // leaves a clean journal, which no recount follows, so the count must not have moved yet.
        self.add(USED, size.wrapping_neg());
    }

    /// [`SizeClassAllocator::free`] for one block of a run that a reclamation pass frees in one
    /// transaction (`run` carries what the run's frees leave to its end: call
    /// [`SizeClassAllocator::end_run`] before committing).
    ///
    /// Cheaper per block than `free`: a parked block's link word is written without logging, blocks of
    /// one size parked one after another are chained before their list's head is written once, and the
    /// counts move once per run. The link word needs no log because an undo turns the block back into
    /// what the caller freed, a retired entry no reader can reach any more (it was tagged before every
    /// pin), whose first payload word (its old index link) nothing reads again.
    #[inline(always)]
    pub fn free_in_run(&self, txn: &mut Txn, payload: u64, run: &mut RunFrees) {
        let block = payload - 8;
        let h = self.hdr(block);
        debug_assert!(h & INUSE != 0 && h & QUICK == 0, "double free at {block}");
        let h = h & !STAGED;
        let size = h & SIZE_MASK;
        if size < QUICK_LIMIT && self.get(QUICK_COUNT) + run.parked < QUICK_CAP {
            if run.head != 0 && run.size != size {
                self.write_run_head(txn, run);
            }
            let next = if run.head != 0 { run.head } else { self.get(QUICK_HEADS + 8 * (size / 16)) };
            self.region.word(payload).store(next, Ordering::Relaxed);
            txn.set(block, h | QUICK);
            (run.size, run.head) = (size, block);
            run.parked += 1;
            run.parked_bytes += size;
        } else {
            self.release(txn, block);
        }
        run.freed_bytes += size;
    }

    /// Publishes the chain of parked blocks `run` has pending as the head of their quick list.
    fn write_run_head(&self, txn: &mut Txn, run: &mut RunFrees) {
        txn.set(self.quick_head(run.size), run.head);
        run.head = 0;
    }

    /// Ends the frees of a run (before its transaction commits, after its logged writes: see `free`):
    /// writes the pending quick-list head and moves the counts. Needs one journal word at most.
    pub fn end_run(&self, txn: &mut Txn, mut run: RunFrees) {
        if run.head != 0 {
            self.write_run_head(txn, &mut run);
        }
        self.add(QUICK_COUNT, run.parked);
        self.add(QUICK_BYTES, run.parked_bytes);
        self.add(USED, run.freed_bytes.wrapping_neg());
    }

    /// Returns in-use (or unlinked quick) block `block` to the bins, coalescing. `USED` is the caller's
    /// to adjust.
    #[inline(never)]
    fn release(&self, txn: &mut Txn, mut block: u64) {
        let h = self.hdr(block);
        let mut size = h & SIZE_MASK;
        let next = block + size;
        let cursor = self.get(CURSOR);
        if h & PREV_INUSE == 0 {
            let psize = self.region.word(block - 8).load(Ordering::Acquire);
            if cursor == block {
                txn.set(self.state + CURSOR, block - psize);
            }
            block -= psize;
            size += psize;
            self.unlink(txn, block, psize);
            self.add(FREE_LISTED, psize.wrapping_neg());
        }
        if next == self.get(TOP) {
            txn.set(block, PREV_INUSE);
            txn.set(self.state + TOP, block);
            if self.get(CURSOR) >= block {
                txn.set(self.state + CURSOR, self.heap_start);
            }
            return;
        }
        let nh = self.hdr(next);
        if nh & INUSE == 0 {
            let nsize = nh & SIZE_MASK;
            if cursor == next {
                txn.set(self.state + CURSOR, block);
            }
            self.unlink(txn, next, nsize);
            self.add(FREE_LISTED, nsize.wrapping_neg());
            size += nsize;
        }
        self.make_free(txn, block, size, PREV_INUSE);
    }

    /// Returns every quick-listed block to the bins (coalescing), one transaction per block. Write lock
    /// held. Bounded by `QUICK_CAP` blocks. False when there was nothing to drain.
    pub fn drain_quick(&self, journal: &Journal) -> bool {
        if self.get(QUICK_COUNT) == 0 {
            return false;
        }
        for list in 1..QUICK_LISTS as u64 {
            let head = self.state + QUICK_HEADS + 8 * list;
            loop {
                let block = self.region.word(head).load(Ordering::Acquire);
                if block == 0 {
                    break;
                }
                let mut t = journal.begin();
                t.set(head, self.region.word(block + 8).load(Ordering::Acquire));
                t.set(block, self.hdr(block) & !QUICK);
                self.add(QUICK_COUNT, 1u64.wrapping_neg());
                self.add(QUICK_BYTES, (list * 16).wrapping_neg());
                self.release(&mut t, block);
                t.commit();
            }
        }
        true
    }

    /// Turns `[block, block+size)` into a listed free block (its predecessor is in use).
    fn make_free(&self, txn: &mut Txn, block: u64, size: u64, prev_bit: u64) {
        txn.set(block, size | prev_bit);
        txn.set(block + size - 8, size);
        self.set_prev_inuse(txn, block + size, false);
        let bin = bin_of(size);
        let head_off = self.state + BIN_HEADS + 8 * bin as u64;
        let head = txn.get(head_off);
        txn.set(block + 8, head);
        txn.set(block + 16, 0);
        if head != 0 {
            txn.set(head + 16, block);
        }
        txn.set(head_off, block);
        let bm = self.state + BITMAP + 8 * (bin / 64) as u64;
        let bits = txn.get(bm);
        if bits & 1 << (bin % 64) == 0 {
            txn.set(bm, bits | 1 << (bin % 64));
        }
        self.add(FREE_LISTED, size);
    }

    fn set_prev_inuse(&self, txn: &mut Txn, block: u64, inuse: bool) {
        let h = self.hdr(block);
        let new = if inuse { h | PREV_INUSE } else { h & !PREV_INUSE };
        if new != h {
            txn.set(block, new);
        }
    }

    fn unlink(&self, txn: &mut Txn, block: u64, size: u64) {
        let next = self.region.word(block + 8).load(Ordering::Acquire);
        let prev = self.region.word(block + 16).load(Ordering::Acquire);
        let bin = bin_of(size);
        if prev == 0 {
            txn.set(self.state + BIN_HEADS + 8 * bin as u64, next);
            if next == 0 {
                let bm = self.state + BITMAP + 8 * (bin / 64) as u64;
                txn.set(bm, txn.get(bm) & !(1 << (bin % 64)));
            }
        } else {
            txn.set(prev + 8, next);
        }
        if next != 0 {
            txn.set(next + 16, prev);
        }
    }

    // ----- walking the heap ----------------------------------------------------------------------------

    /// First block of the heap.
    pub fn heap_start(&self) -> u64 {
        self.heap_start
    }

    /// End of the used part of the heap: everything from here to the heap's end is never-used space.
    pub fn top(&self) -> u64 {
        self.get(TOP)
    }

    /// Never-used bytes above `top` that one allocation could take.
    pub fn untouched(&self) -> u64 {
        (self.heap_end - self.top()).saturating_sub(8)
    }

    /// The block starting at `start`, validated (inside the used heap, sane size); `None` otherwise.
    pub fn block_at(&self, start: u64) -> Option<Block> {
        let top = self.top();
        if start < self.heap_start || start >= top || !(start - self.heap_start).is_multiple_of(16) {
            return None;
        }
        let h = self.hdr(start);
        let size = h & SIZE_MASK;
        if size < MIN_BLOCK || start + size > top {
            return None;
        }
        let kind = match (h & INUSE != 0, h & QUICK != 0, h & STAGED != 0) {
            (false, ..) => BlockKind::Free,
            (true, true, _) => BlockKind::Quick,
            (true, false, true) => BlockKind::Staged,
            (true, false, false) => BlockKind::InUse,
        };
        Some(Block { start, size, kind })
    }

    /// Where the last walk stopped: a block boundary (or the heap start).
    pub fn cursor(&self) -> u64 {
        let c = self.get(CURSOR);
        if self.block_at(c).is_some() {
            c
        } else {
            self.heap_start
        }
    }

    /// A walk from the cursor over at most `budget` bytes.
    pub fn walk(&self, budget: u64) -> HeapWalk<'_> {
        HeapWalk { alloc: self, at: self.cursor(), budget, walked: 0, blocks: 0 }
    }

    /// Moves the walk cursor to block boundary `start`.
    pub fn set_cursor(&self, txn: &mut Txn, start: u64) {
        if self.get(CURSOR) != start {
            txn.set(self.state + CURSOR, start);
        }
    }

    /// Bytes that are free (listed, quick-listed or never used), without walking anything.
    pub fn free_bytes(&self) -> u64 {
        self.get(FREE_LISTED) + self.get(QUICK_BYTES) + self.untouched()
    }

    /// Listed free blocks that do not overlap `[lo, hi)`, largest bins first, until their bytes reach
    /// `enough` or `max` blocks were collected. What a compaction plan may move entries into.
    pub fn free_blocks_outside(&self, lo: u64, hi: u64, enough: u64, max: usize) -> Vec<Block> {
        let mut found = Vec::new();
        let mut bytes = 0;
        for bin in (0..BINS).rev() {
            if self.get(BITMAP + 8 * (bin / 64) as u64) >> (bin % 64) & 1 == 0 {
                continue;
            }
            let mut cur = self.get(BIN_HEADS + 8 * bin as u64);
            let mut steps = 0;
            while cur != 0 && steps < max {
                let Some(b) = self.block_at(cur) else { break };
                if b.start + b.size <= lo || b.start >= hi {
                    bytes += b.size;
                    found.push(b);
                    if bytes >= enough || found.len() >= max {
                        return found;
                    }
                }
                cur = self.region.word(cur + 8).load(Ordering::Acquire);
                steps += 1;
            }
        }
        found
    }

    // ----- figures and checks --------------------------------------------------------------------------

    /// Current figures. Callable without the write lock (statistics): the largest free block is read
    /// from the highest bin's list, which a writer may be changing meanwhile, so every link is validated
    /// and the walk stops at anything that is not a free block.
    pub fn stats(&self) -> AllocStats {
        let untouched = self.untouched();
        let mut largest = untouched;
        if let Some(bin) = (0..BINS).rev().find(|&b| self.get(BITMAP + 8 * (b / 64) as u64) >> (b % 64) & 1 != 0) {
            let mut cur = self.get(BIN_HEADS + 8 * bin as u64);
            for _ in 0..4096 {
                let Some(b) = self.block_at(cur).filter(|b| b.kind == BlockKind::Free) else { break };
                largest = largest.max(b.size.saturating_sub(8));
                cur = self.region.checked_word(cur + 8).map_or(0, |w| w.load(Ordering::Acquire));
            }
        }
        AllocStats { used_bytes: self.get(USED), free_bytes: self.free_bytes(), largest_free: largest }
    }

    /// Recomputes the byte counts from the block headers and quick lists (after a writer died mid-way).
    pub fn recount(&self) {
        let top = self.get(TOP);
        let (mut used, mut free, mut quick, mut quick_count) = (0, 0, 0, 0);
        let mut block = self.heap_start;
        while let Some(b) = self.block_at(block) {
            match b.kind {
                BlockKind::Free => free += b.size,
                BlockKind::Quick => {
                    quick += b.size;
                    quick_count += 1;
                }
                BlockKind::InUse | BlockKind::Staged => used += b.size,
            }
            block += b.size;
            if block >= top {
                break;
            }
        }
        let set = |f: u64, v: u64| self.region.word(self.state + f).store(v, Ordering::Release);
        set(USED, used);
        set(FREE_LISTED, free);
        set(QUICK_BYTES, quick);
        set(QUICK_COUNT, quick_count);
    }

    /// Walks every block, every bin and every quick list and checks the invariants: tags agree,
    /// neighbours of free blocks are in use (fully coalesced), every free block is listed in its bin
    /// exactly once, every quick block on its list exactly once, the cursor is on a boundary, and the
    /// accounting words match. Returns the payload offsets of the blocks in use.
    pub fn verify(&self) -> Result<Vec<u64>, String> {
        let top = self.get(TOP);
        if top < self.heap_start || top + 8 > self.heap_end || top % 16 != self.heap_start % 16 {
            return Err(format!("top {top} out of range"));
        }
        let mut block = self.heap_start;
        let mut prev_inuse = true;
        let (mut used, mut free, mut free_count) = (0u64, 0u64, 0u64);
        let mut quick = std::collections::HashSet::new();
        let mut quick_bytes = 0u64;
        let mut in_use = Vec::new();
        let mut boundaries = std::collections::HashSet::new();
        while block < top {
            let h = self.hdr(block);
            let size = h & SIZE_MASK;
            if size < MIN_BLOCK || block + size > top {
                return Err(format!("block {block} has bad size {size}"));
            }
            if (h & PREV_INUSE != 0) != prev_inuse {
                return Err(format!("block {block} PREV_INUSE bit disagrees with its predecessor"));
            }
            boundaries.insert(block);
            if h & INUSE != 0 {
                if h & QUICK != 0 {
                    if size >= QUICK_LIMIT {
                        return Err(format!("quick block {block} of {size} bytes"));
                    }
                    quick.insert(block);
                    quick_bytes += size;
                } else {
                    used += size;
                    in_use.push(block + 8);
                }
                prev_inuse = true;
            } else {
                if !prev_inuse {
                    return Err(format!("adjacent free blocks at {block}"));
                }
                if self.region.word(block + size - 8).load(Ordering::Acquire) != size {
                    return Err(format!("free block {block} footer mismatch"));
                }
                free += size;
                free_count += 1;
                prev_inuse = false;
            }
            block += size;
        }
        if (self.hdr(top) & PREV_INUSE != 0) != prev_inuse {
            return Err("top PREV_INUSE bit disagrees".into());
        }
        if !prev_inuse {
            return Err("a free block borders top (not coalesced)".into());
        }
        let cursor = self.get(CURSOR);
        if cursor != self.heap_start && !boundaries.contains(&cursor) {
            return Err(format!("walk cursor {cursor} is not on a block boundary"));
        }
        let mut listed = 0u64;
        for bin in 0..BINS {
            let bit = self.get(BITMAP + 8 * (bin / 64) as u64) >> (bin % 64) & 1 != 0;
            let mut cur = self.get(BIN_HEADS + 8 * bin as u64);
            if bit != (cur != 0) {
                return Err(format!("bitmap bit of bin {bin} disagrees with its list"));
            }
            let mut prev = 0;
            while cur != 0 {
                if listed > free_count {
                    return Err("free lists longer than the free blocks (cycle?)".into());
                }
                if cur < self.heap_start || cur % 16 != self.heap_start % 16 || cur + MIN_BLOCK > top {
                    return Err(format!("bin {bin} links to {cur}, outside the heap"));
                }
                let h = self.hdr(cur);
                if h & INUSE != 0 || bin_of(h & SIZE_MASK) != bin {
                    return Err(format!("block {cur} listed in the wrong bin or in use"));
                }
                if self.region.word(cur + 16).load(Ordering::Acquire) != prev {
                    return Err(format!("block {cur} has a broken prev link"));
                }
                listed += 1;
                prev = cur;
                cur = self.region.word(cur + 8).load(Ordering::Acquire);
            }
        }
        if listed != free_count {
            return Err(format!("{free_count} free blocks but {listed} listed"));
        }
        let mut on_lists = 0u64;
        for list in 0..QUICK_LISTS as u64 {
            let mut cur = self.get(QUICK_HEADS + 8 * list);
            while cur != 0 {
                if !quick.remove(&cur) || self.hdr(cur) & SIZE_MASK != list * 16 {
                    return Err(format!("quick list {list} links to {cur}: not a quick block of its size"));
                }
                on_lists += 1;
                cur = self.region.word(cur + 8).load(Ordering::Acquire);
            }
        }
        if !quick.is_empty() {
            return Err(format!("{} quick blocks on no list", quick.len()));
        }
        if used != self.get(USED)
            || free != self.get(FREE_LISTED)
            || quick_bytes != self.get(QUICK_BYTES)
            || on_lists != self.get(QUICK_COUNT)
        {
            return Err(format!(
                "accounting: used {used} vs {}, free {free} vs {}, quick {quick_bytes} vs {} ({on_lists} vs {})",
                self.get(USED),
                self.get(FREE_LISTED),
                self.get(QUICK_BYTES),
                self.get(QUICK_COUNT)
            ));
        }
        Ok(in_use)
    }

    /// Marks the allocated block at `payload` as staged (being filled outside the write lock) or not.
    pub fn set_staged(&self, txn: &mut Txn, payload: u64, staged: bool) {
        let h = self.hdr(payload - 8);
        txn.set(payload - 8, if staged { h | STAGED } else { h & !STAGED });
    }

    /// Usable payload bytes of an allocated block.
    #[inline(always)]
    pub fn payload_capacity(&self, payload: u64) -> u64 {
        (self.hdr(payload - 8) & SIZE_MASK) - 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::{Journal, JOURNAL_BYTES, JOURNAL_CAPACITY};
    use proptest::prelude::*;

    struct Fixture {
        _buf: Vec<u64>,
        region: Region,
        journal: Journal,
        alloc: SizeClassAllocator,
    }

    impl Fixture {
        fn journal_region(&self) -> Region {
            self.region
        }
    }

    fn fixture(heap: u64) -> Fixture {
        let total = JOURNAL_BYTES + 8 + STATE_BYTES + heap;
        let mut buf = vec![0u64; (total / 8 + 2) as usize];
        // SAFETY: the buffer lives in the fixture as long as the region is used.
        let region = unsafe { Region::new(buf.as_mut_ptr().cast(), total) };
        let heap_start = (JOURNAL_BYTES + 8 + STATE_BYTES + 15) & !15;
        let alloc = SizeClassAllocator::new(region, JOURNAL_BYTES + 8, heap_start, total);
        alloc.format();
        Fixture { _buf: buf, region, journal: Journal::new(region, 0, JOURNAL_BYTES), alloc }
    }

    #[test]
    fn freed_neighbours_coalesce_back_into_untouched_space() {
        let f = fixture(1 << 16);
        let before = f.alloc.stats();
        let mut t = f.journal.begin();
        let a = f.alloc.alloc(&mut t, 100).unwrap();
        let b = f.alloc.alloc(&mut t, 200).unwrap();
        let c = f.alloc.alloc(&mut t, 300).unwrap();
        f.alloc.free(&mut t, b);
        f.alloc.free(&mut t, a);
        f.alloc.free(&mut t, c);
        t.commit();
        assert_eq!(f.alloc.stats().free_bytes, before.free_bytes, "parked blocks count as free");
        assert!(f.alloc.drain_quick(&f.journal));
        assert_eq!(f.alloc.stats(), before);
        f.alloc.verify().unwrap();
    }

    /// Allocates two blocks of `first` and `second` payload bytes and frees the first, in one committed
    /// transaction.
    fn two_blocks_first_freed(f: &Fixture, first: u64, second: u64) -> (u64, u64) {
        let mut t = f.journal.begin();
        let a = f.alloc.alloc(&mut t, first).unwrap();
        let b = f.alloc.alloc(&mut t, second).unwrap();
        f.alloc.free(&mut t, a);
        t.commit();
        (a, b)
    }

    #[test]
    fn a_small_freed_block_is_parked_and_handed_back_for_its_exact_size() {
        let f = fixture(1 << 16);
        let (a, b) = two_blocks_first_freed(&f, 100, 100);
        f.alloc.verify().unwrap();
        assert_eq!(f.alloc.block_at(a - 8).unwrap().kind, BlockKind::Quick);
        let mut t = f.journal.begin();
        assert_ne!(f.alloc.alloc(&mut t, 200).unwrap(), a, "another size never takes a parked block");
        assert_eq!(f.alloc.alloc(&mut t, 100).unwrap(), a);
        f.alloc.free(&mut t, b);
        t.commit();
        f.alloc.verify().unwrap();
        assert!(f.alloc.drain_quick(&f.journal));
        assert_eq!(f.alloc.block_at(b - 8).unwrap().kind, BlockKind::Free);
        f.alloc.verify().unwrap();
    }

    #[test]
    fn parking_is_capped_so_a_drain_is_bounded() {
        let f = fixture(1 << 20);
        let blocks: Vec<u64> = (0..QUICK_CAP + 100)
            .map(|_| {
                let mut t = f.journal.begin();
                let b = f.alloc.alloc(&mut t, 40).unwrap();
                t.commit();
                b
            })
            .collect();
        for b in blocks {
            let mut t = f.journal.begin();
            f.alloc.free(&mut t, b);
            t.commit();
        }
        let parked = (0..QUICK_LISTS as u64).map(|l| f.alloc.get(QUICK_HEADS + 8 * l)).filter(|&h| h != 0).count();
        assert_eq!(parked, 1);
        assert_eq!(f.alloc.get(QUICK_COUNT), QUICK_CAP);
        f.alloc.verify().unwrap();
        f.alloc.drain_quick(&f.journal);
        let s = f.alloc.stats();
        assert_eq!((s.used_bytes, s.free_bytes), (0, s.largest_free));
    }

    /// Blocks of `len` payload bytes, each allocated in a committed transaction of its own.
    fn allocated(f: &Fixture, lens: &[u64]) -> Vec<u64> {
        lens.iter()
            .map(|&len| {
                let mut t = f.journal.begin();
                let b = f.alloc.alloc(&mut t, len).unwrap();
                t.commit();
                b
            })
            .collect()
    }

    /// Frees `blocks` as one run of a reclamation pass; returns the transaction, still open, and the
    /// journal words it used.
    fn freed_in_run<'a>(f: &'a Fixture, blocks: &[u64]) -> (Txn<'a>, u64) {
        let mut t = f.journal.begin();
        let mut run = RunFrees::default();
        for &b in blocks {
            f.alloc.free_in_run(&mut t, b, &mut run);
        }
        f.alloc.end_run(&mut t, run);
        let words = JOURNAL_CAPACITY - t.room();
        (t, words)
    }

    /// A run parks a block for one journal word (its header; its link word is not logged, and blocks of
    /// one size are chained before their list's head is written once), so 200 blocks fit one
    /// transaction (a `free` each, three words, would not). An undone run leaves every block in use.
    #[test]
    fn a_run_parks_a_block_for_one_journal_word_and_an_undone_run_frees_nothing() {
        let f = fixture(1 << 20);
        let blocks = allocated(&f, &[40; 200]);
        let before = f.alloc.stats();
        let (t, words) = freed_in_run(&f, &blocks);
        assert_eq!(words, 201, "one header per block and one list head");
        drop(t);
        f.alloc.recount(); // as the next lock holder does after an undo (the counts are not journaled)
        assert_eq!(f.alloc.stats(), before);
        assert_eq!(f.alloc.verify().unwrap().len(), 200, "every block still in use");

        let (t, _) = freed_in_run(&f, &blocks);
        t.commit();
        f.alloc.verify().unwrap();
        assert_eq!(f.alloc.get(QUICK_COUNT), 200);
        let again = allocated(&f, &[40; 200]);
        assert_eq!(again, blocks.iter().rev().copied().collect::<Vec<_>>(), "each parked block handed back once");
        assert_eq!(f.alloc.stats(), before);
    }

    /// A run of blocks of several sizes, one of them too large to park: every quick list and the bins
    /// end as separate frees would leave them, the counts included.
    #[test]
    fn a_run_of_mixed_sizes_leaves_the_lists_and_counts_right() {
        let f = fixture(1 << 20);
        let lens: Vec<u64> = (0..120).map(|i| [40, 40, 100, 2000, 40, 500][i % 6]).collect();
        let blocks = allocated(&f, &lens);
        let _guard = allocated(&f, &[8]);
        for run in blocks.chunks(24) {
            let (t, _) = freed_in_run(&f, run);
            t.commit();
        }
        f.alloc.verify().unwrap();
        let counted = f.alloc.stats();
        f.alloc.recount();
        assert_eq!(f.alloc.stats(), counted);
        assert_eq!(f.alloc.get(QUICK_COUNT), 100);
        for len in [40, 100, 500] {
            let parked = lens.iter().filter(|&&l| l == len).count();
            let mut got = allocated(&f, &vec![len; parked]);
            got.sort_unstable();
            let mut want: Vec<u64> = blocks.iter().zip(&lens).filter(|(_, &l)| l == len).map(|(&b, _)| b).collect();
            want.sort_unstable();
            assert_eq!(got, want, "the parked blocks of {len} bytes");
        }
        assert_eq!(f.alloc.get(QUICK_COUNT), 0);
        f.alloc.verify().unwrap();
    }

    #[test]
    fn a_freed_block_is_reused_for_a_request_of_its_class() {
        let f = fixture(1 << 16);
        let mut t = f.journal.begin();
        let a = f.alloc.alloc(&mut t, 100).unwrap();
        let _guard = f.alloc.alloc(&mut t, 8).unwrap();
        f.alloc.free(&mut t, a);
        let again = f.alloc.alloc(&mut t, 90).unwrap();
        t.commit();
        assert_eq!(a, again);
    }

    #[test]
    fn exhaustion_returns_none_and_changes_nothing() {
        let f = fixture(4096);
        let mut t = f.journal.begin();
        assert!(f.alloc.alloc(&mut t, 1 << 20).is_none());
        t.commit();
        assert_eq!(f.alloc.stats().used_bytes, 0);
        f.alloc.verify().unwrap();
    }

    #[test]
    fn a_rolled_back_transaction_leaves_the_allocator_as_it_was() {
        let f = fixture(1 << 16);
        let mut t = f.journal.begin();
        let keep = f.alloc.alloc(&mut t, 500).unwrap();
        t.commit();
        let before = f.alloc.stats();
        {
            let mut t = f.journal.begin();
            f.alloc.alloc(&mut t, 64).unwrap();
            f.alloc.free(&mut t, keep);
            // dropped without commit
        }
        assert!(f.journal.take_undone());
        f.alloc.recount();
        assert_eq!(f.alloc.stats(), before);
        assert_eq!(f.alloc.verify().unwrap(), vec![keep]);
    }

    #[test]
    fn undoing_an_allocation_whose_payload_was_overwritten_restores_the_free_block() {
        let f = fixture(1 << 16);
        two_blocks_first_freed(&f, 1000, 100);
        let before = f.alloc.stats();
        {
            let mut t = f.journal.begin();
            let p = f.alloc.alloc(&mut t, 1000).unwrap();
            // The caller's unjournaled payload writes cover the old free links and footer.
            let cap = f.alloc.payload_capacity(p);
            // SAFETY: the block was just allocated to this test and nothing else reads it.
            unsafe { f.journal_region().write_bytes(p, &vec![0xEE; cap as usize]) };
        }
        f.alloc.recount();
        assert_eq!(f.alloc.stats(), before);
        f.alloc.verify().unwrap();
    }

    #[derive(Debug, Clone)]
    enum Op {
        Alloc(u64),
        Free(usize),
        /// Move the walk cursor to a live block (as a walk that stopped there would).
        Cursor(usize),
        Drain,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => prop_oneof![1u64..200, 200u64..5000, 5000u64..40000].prop_map(Op::Alloc),
            4 => any::<usize>().prop_map(Op::Free),
            1 => any::<usize>().prop_map(Op::Cursor),
            1 => Just(Op::Drain),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Model check: live blocks never overlap, accounting is exact, verify() holds after every op.
        #[test]
        fn random_alloc_free_sequences_keep_every_invariant(ops in prop::collection::vec(op(), 1..300)) {
            let f = fixture(1 << 18);
            let mut live: Vec<(u64, u64)> = Vec::new();
            for op in ops {
                let mut t = f.journal.begin();
                match op {
                    Op::Alloc(len) => {
                        if let Some(p) = f.alloc.alloc(&mut t, len) {
                            prop_assert!(f.alloc.payload_capacity(p) >= len);
                            for &(q, qlen) in &live {
                                prop_assert!(p + len <= q || q + qlen <= p, "overlap");
                            }
                            live.push((p, len));
                        }
                    }
                    Op::Free(i) if !live.is_empty() => {
                        let (p, _) = live.swap_remove(i % live.len());
                        f.alloc.free(&mut t, p);
                    }
                    Op::Free(_) => {}
                    Op::Cursor(i) if !live.is_empty() => f.alloc.set_cursor(&mut t, live[i % live.len()].0 - 8),
                    Op::Cursor(_) => {}
                    Op::Drain => {
                        t.commit();
                        f.alloc.drain_quick(&f.journal);
                        t = f.journal.begin();
                    }
                }
                t.commit();
                let mut in_use = f.alloc.verify().map_err(TestCaseError::fail)?;
                in_use.sort();
                let mut expect: Vec<u64> = live.iter().map(|l| l.0).collect();
                expect.sort();
                prop_assert_eq!(in_use, expect);
            }
            for (p, _) in live.drain(..) {
                let mut t = f.journal.begin();
                f.alloc.free(&mut t, p);
                t.commit();
            }
            f.alloc.drain_quick(&f.journal);
            let s = f.alloc.stats();
            prop_assert_eq!(s.used_bytes, 0);
            prop_assert_eq!(s.free_bytes, s.largest_free);
        }
    }
}
