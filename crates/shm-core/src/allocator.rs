//! The payload allocator: size-classed segregated free lists over boundary-tagged blocks, all offsets.
//!
//! Block layout (offsets relative to the backend region): an 8-byte header `size | INUSE | PREV_INUSE`,
//! then the payload. A free block also keeps `next`/`prev` free-list links at +8/+16 and its size in its
//! last word (the footer), so freeing coalesces with both neighbours in O(1). Sizes are multiples of 16,
//! at least 32. Free blocks sit in 256 bins (exact 16-byte classes below 1 KiB, then four bins per power
//! of two) with a bitmap of non-empty bins, so allocation is one bitmap scan plus a short list walk.
//! Never-used space above `top` is handed out last, which keeps untouched pages untouched (lazy paging).
//! Every metadata write goes through the journal, so a writer killed mid-operation leaves it consistent.

use crate::journal::Txn;
use crate::region::Region;
use std::sync::atomic::Ordering;

const INUSE: u64 = 1;
const PREV_INUSE: u64 = 2;
const SIZE_MASK: u64 = !15;
pub const MIN_BLOCK: u64 = 32;
const BINS: usize = 256;
const BITMAP_WORDS: usize = BINS / 64;
/// How many blocks of a mixed-size bin a request inspects before moving to a larger bin.
const BIN_SCAN_LIMIT: usize = 32;

/// Words of allocator state, at `state` in the backend header.
const TOP: u64 = 0;
const USED: u64 = 8;
const FREE_LISTED: u64 = 16;
const BITMAP: u64 = 24;
const BIN_HEADS: u64 = BITMAP + 8 * BITMAP_WORDS as u64;
/// Bytes of allocator state in the backend header.
pub const STATE_BYTES: u64 = BIN_HEADS + 8 * BINS as u64;

/// The allocator of one backend: where its state words are and which range it manages.
#[derive(Clone, Copy)]
pub struct SizeClassAllocator {
    region: Region,
    state: u64,
    heap_start: u64,
    heap_end: u64,
}

/// Allocator figures for statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocStats {
    pub used_bytes: u64,
    pub free_bytes: u64,
    pub largest_free: u64,
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
        SizeClassAllocator { region, state, heap_start, heap_end }
    }

    /// Writes the initial state (segment creation only).
    pub fn format(&self) {
        for off in (0..STATE_BYTES).step_by(8) {
            self.region.word(self.state + off).store(0, Ordering::Relaxed);
        }
        self.region.word(self.state + TOP).store(self.heap_start, Ordering::Relaxed);
        // The first block has no predecessor: pretend it is in use so nobody coalesces below the heap.
        self.region.word(self.heap_start).store(PREV_INUSE, Ordering::Relaxed);
    }

    fn get(&self, field: u64) -> u64 {
        self.region.word(self.state + field).load(Ordering::Acquire)
    }

    fn hdr(&self, block: u64) -> u64 {
        self.region.word(block).load(Ordering::Acquire)
    }

    /// Largest payload a single allocation could ever get.
    pub fn max_payload(&self) -> u64 {
        // The largest block: the heap less the 8-byte end marker, in whole 16-byte units; a block
        // carries its 8-byte header (block_size_for's inverse).
        ((self.heap_end - self.heap_start).saturating_sub(8) & SIZE_MASK).saturating_sub(8)
    }

    /// Allocates a block for `len` payload bytes; returns the payload offset.
    pub fn alloc(&self, txn: &mut Txn, len: u64) -> Option<u64> {
        let size = block_size_for(len)?;
        let block = self.take_from_bins(txn, size).or_else(|| self.take_from_top(txn, size))?;
        Some(block + 8)
    }

    fn take_from_bins(&self, txn: &mut Txn, size: u64) -> Option<u64> {
        let first = bin_of(size);
        // Within the first bin sizes may vary (large bins): walk a few for one that fits.
        let mut cur = self.get(BIN_HEADS + 8 * first as u64);
        for _ in 0..BIN_SCAN_LIMIT {
            if cur == 0 {
                break;
            }
            if self.hdr(cur) & SIZE_MASK >= size {
                return Some(self.carve(txn, cur, size));
            }
            cur = self.region.word(cur + 8).load(Ordering::Acquire);
        }
        // Any block of a higher non-empty bin fits.
        let bin = self.next_nonempty_bin(first + 1)?;
        let block = self.get(BIN_HEADS + 8 * bin as u64);
        Some(self.carve(txn, block, size))
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
        txn.set(self.state + FREE_LISTED, self.get(FREE_LISTED) - bsize);
        if bsize - size >= MIN_BLOCK {
            txn.set(block, size | INUSE | (h & PREV_INUSE));
            let rest = block + size;
            self.make_free(txn, rest, bsize - size, PREV_INUSE);
        } else {
            txn.set(block, bsize | INUSE | (h & PREV_INUSE));
            self.set_prev_inuse(txn, block + bsize, true);
        }
        txn.set(self.state + USED, self.get(USED) + (self.hdr(block) & SIZE_MASK));
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
        txn.set(self.state + USED, self.get(USED) + size);
        Some(top)
    }

    /// Frees the block whose payload starts at `payload`, coalescing with free neighbours and `top`.
    pub fn free(&self, txn: &mut Txn, payload: u64) {
        let mut block = payload - 8;
        let h = self.hdr(block);
        debug_assert!(h & INUSE != 0, "double free at {block}");
        let mut size = h & SIZE_MASK;
        txn.set(self.state + USED, self.get(USED) - size);
        let next = block + size;
        if h & PREV_INUSE == 0 {
            let psize = self.region.word(block - 8).load(Ordering::Acquire);
            block -= psize;
            size += psize;
            self.unlink(txn, block, psize);
            txn.set(self.state + FREE_LISTED, self.get(FREE_LISTED) - psize);
        }
        if next == self.get(TOP) {
            txn.set(block, PREV_INUSE);
            txn.set(self.state + TOP, block);
            return;
        }
        let nh = self.hdr(next);
        if nh & INUSE == 0 {
            let nsize = nh & SIZE_MASK;
            self.unlink(txn, next, nsize);
            txn.set(self.state + FREE_LISTED, self.get(FREE_LISTED) - nsize);
            size += nsize;
        }
        self.make_free(txn, block, size, PREV_INUSE);
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
        txn.set(bm, txn.get(bm) | 1 << (bin % 64));
        txn.set(self.state + FREE_LISTED, self.get(FREE_LISTED) + size);
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

    /// Current figures. `free_bytes` counts listed free blocks plus never-used space.
    pub fn stats(&self) -> AllocStats {
        let untouched = (self.heap_end - self.get(TOP)).saturating_sub(8);
        let mut largest = untouched;
        if let Some(bin) = (0..BINS).rev().find(|&b| self.get(BITMAP + 8 * (b / 64) as u64) >> (b % 64) & 1 != 0) {
            let mut cur = self.get(BIN_HEADS + 8 * bin as u64);
            let mut guard = 0;
            while cur != 0 && guard < 4096 {
                largest = largest.max((self.hdr(cur) & SIZE_MASK).saturating_sub(8));
                cur = self.region.word(cur + 8).load(Ordering::Acquire);
                guard += 1;
            }
        }
        AllocStats { used_bytes: self.get(USED), free_bytes: self.get(FREE_LISTED) + untouched, largest_free: largest }
    }

    /// Walks every block and every bin and checks the invariants: tags agree, neighbours of free blocks
    /// are in use (fully coalesced), every free block is listed in its bin exactly once, and the
    /// accounting words match. Returns the payload offsets of the blocks in use.
    pub fn verify(&self) -> Result<Vec<u64>, String> {
        let top = self.get(TOP);
        if top < self.heap_start || top + 8 > self.heap_end || top % 16 != self.heap_start % 16 {
            return Err(format!("top {top} out of range"));
        }
        let mut block = self.heap_start;
        let mut prev_inuse = true;
        let (mut used, mut free, mut free_count) = (0u64, 0u64, 0u64);
        let mut in_use = Vec::new();
        while block < top {
            let h = self.hdr(block);
            let size = h & SIZE_MASK;
            if size < MIN_BLOCK || block + size > top {
                return Err(format!("block {block} has bad size {size}"));
            }
            if (h & PREV_INUSE != 0) != prev_inuse {
                return Err(format!("block {block} PREV_INUSE bit disagrees with its predecessor"));
            }
            if h & INUSE != 0 {
                used += size;
                in_use.push(block + 8);
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
        if used != self.get(USED) || free != self.get(FREE_LISTED) {
            return Err(format!(
                "accounting: used {used} vs {}, free {free} vs {}",
                self.get(USED),
                self.get(FREE_LISTED)
            ));
        }
        Ok(in_use)
    }

    /// Usable payload bytes of an allocated block.
    pub fn payload_capacity(&self, payload: u64) -> u64 {
        (self.hdr(payload - 8) & SIZE_MASK) - 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::{Journal, JOURNAL_BYTES};
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
        let total = JOURNAL_BYTES + STATE_BYTES + heap;
        let mut buf = vec![0u64; (total / 8 + 2) as usize];
        // SAFETY: the buffer lives in the fixture as long as the region is used.
        let region = unsafe { Region::new(buf.as_mut_ptr().cast(), total) };
        let heap_start = (JOURNAL_BYTES + STATE_BYTES + 15) & !15;
        let alloc = SizeClassAllocator::new(region, JOURNAL_BYTES, heap_start, total);
        alloc.format();
        Fixture { _buf: buf, region, journal: Journal::new(region, 0), alloc }
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
        assert_eq!(f.alloc.stats(), before);
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
        assert_eq!(f.alloc.stats(), before);
        assert_eq!(f.alloc.verify().unwrap(), vec![keep]);
    }

    #[test]
    fn undoing_an_allocation_whose_payload_was_overwritten_restores_the_free_block() {
        let f = fixture(1 << 16);
        let mut t = f.journal.begin();
        let a = f.alloc.alloc(&mut t, 1000).unwrap();
        let _b = f.alloc.alloc(&mut t, 100).unwrap();
        f.alloc.free(&mut t, a);
        t.commit();
        let before = f.alloc.stats();
        {
            let mut t = f.journal.begin();
            let p = f.alloc.alloc(&mut t, 1000).unwrap();
            // The caller's unjournaled payload writes cover the old free links and footer.
            let cap = f.alloc.payload_capacity(p);
            // SAFETY: the block was just allocated to this test and nothing else reads it.
            unsafe { f.journal_region().write_bytes(p, &vec![0xEE; cap as usize]) };
        }
        assert_eq!(f.alloc.stats(), before);
        f.alloc.verify().unwrap();
    }

    #[derive(Debug, Clone)]
    enum Op {
        Alloc(u64),
        Free(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => prop_oneof![1u64..200, 200u64..5000, 5000u64..40000].prop_map(Op::Alloc),
            2 => any::<usize>().prop_map(Op::Free),
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
            let s = f.alloc.stats();
            prop_assert_eq!(s.used_bytes, 0);
            prop_assert_eq!(s.free_bytes, s.largest_free);
        }
    }
}
