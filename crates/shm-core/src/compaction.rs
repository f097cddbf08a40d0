//! Compaction: when a value fits in the backend's free memory but no free block is large enough, live
//! entries are moved out of the way to open a contiguous hole (both kinds of backend; nothing is
//! evicted). Possible because nothing in shared memory holds an absolute address: an entry is moved by
//! copying its bytes to a new block and republishing its link, exactly like a store of the same value.
//!
//! Readers are never disturbed: the copy is complete before its link is published, and the old block is
//! retired like any replaced entry, so a reader holding it keeps it until it lets go. A moved entry keeps
//! its version (its bytes are the same), so process-local copies of it stay valid. The window to empty
//! is the stretch of the heap, within a walk bounded by a multiple of the request, that has the fewest
//! live bytes; a plan assigns every entry in it a free block outside it (best fit) before anything is
//! moved, so a compaction that cannot succeed moves nothing. Write lock held throughout; each move is
//! one journaled transaction.

use crate::allocator::{self, Block, Step, MIN_BLOCK};
use crate::backend::{Backend, RELOCATIONS};
use crate::entry::{self, EntryHeader};
use crate::eviction::{Walked, MIN_WALK, WALK_FACTOR};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;

/// A stretch of the heap to empty: `[lo, hi)` (`hi` may lie in the never-used space above `top`), its
/// live entries (and expired ones to purge).
struct Window {
    lo: u64,
    hi: u64,
    live: Vec<EntryHeader>,
    expired: Vec<EntryHeader>,
}

/// Where one entry goes: a listed free block, or never-used space from `start` on.
#[derive(Clone, Copy)]
struct Target {
    start: u64,
    size: u64,
    at_top: bool,
}

impl Backend {
    /// Opens a hole of `size` bytes by moving live entries. True when entries were moved (the caller
    /// reclaims their old blocks and retries); false when no plan fits, in which case nothing moved.
    pub(crate) fn compact(&self, size: u64, now: u64) -> bool {
        let Some(window) = self.cheapest_window(size, now) else { return false };
        let Some(plan) = self.plan(&window) else { return false };
        let mut moved = 0;
        for (h, target) in &plan {
            if !self.relocate(h, target) {
                break;
            }
            moved += 1;
        }
        for h in &window.expired {
            self.remove_walked(h, true, None);
        }
        self.count(RELOCATIONS, moved);
        self.move_cursor(window.hi);
        self.bump_epoch();
        moved as usize == plan.len()
    }

    /// The window of at least `size` bytes with the fewest live bytes among those a walk from the cursor
    /// meets within its budget. Blocks that cannot be freed now (retired, parked) split windows.
    fn cheapest_window(&self, size: u64, now: u64) -> Option<Window> {
        let alloc = &self.0.alloc;
        let limit = (WALK_FACTOR * size).max(MIN_WALK);
        let heap = alloc.top() - alloc.heap_start();
        // Blocks of the current window: (block, walk result), with its span and live bytes.
        let mut blocks: VecDeque<(Block, Walked)> = VecDeque::new();
        let (mut span, mut live) = (0u64, 0u64);
        let mut best: Option<(u64, u64, u64)> = None; // (live bytes, lo, hi)
        let mut wrapped = false;
        for step in alloc.walk(limit.min(heap) + size) {
            let Step::Block(b) = step else {
                // A window that reaches the end of the used heap goes on into the never-used space above.
                if span + alloc.untouched() >= size && !blocks.is_empty() && best.is_none_or(|(l, ..)| live < l) {
                    best = Some((live, blocks[0].0.start, blocks[0].0.start + size));
                }
                if wrapped {
                    break;
                }
                wrapped = true;
                blocks.clear();
                (span, live) = (0, 0);
                continue;
            };
            let at = b.start + b.size;
            let w = self.walked(&b, now);
            if matches!(w, Walked::Fixed) {
                blocks.clear();
                (span, live) = (0, 0);
                continue;
            }
            span += b.size;
            if matches!(w, Walked::Live(_)) {
                live += b.size;
            }
            blocks.push_back((b, w));
            // Drop blocks from the front while the window stays large enough.
            while let Some((front, fw)) = blocks.front() {
                if span - front.size < size {
                    break;
                }
                span -= front.size;
                if matches!(fw, Walked::Live(_)) {
                    live -= front.size;
                }
                blocks.pop_front();
            }
            if span >= size && best.is_none_or(|(l, ..)| live < l) {
                best = Some((live, blocks[0].0.start, at));
            }
        }
        let (_, lo, hi) = best?;
        // Walk the chosen window again to collect its entries (the walk above kept only the last one).
        let mut window = Window { lo, hi, live: Vec::new(), expired: Vec::new() };
        let mut at = lo;
        while at < hi.min(alloc.top()) {
            let Some(b) = alloc.block_at(at) else { break };
            match self.walked(&b, now) {
                Walked::Live(h) => window.live.push(h),
                Walked::Space(Some(h)) => window.expired.push(h),
                Walked::Space(None) => {}
                Walked::Fixed => return None,
            }
            at = b.start + b.size;
        }
        Some(window)
    }

    /// A destination outside the window for every live entry in it (largest first, best fit), or `None`.
    fn plan(&self, window: &Window) -> Option<Vec<(EntryHeader, Target)>> {
        let alloc = &self.0.alloc;
        let need = |h: &EntryHeader| {
            entry::entry_bytes(h.key_len, h.value_len).and_then(allocator::block_size_for).unwrap_or(u64::MAX)
        };
        let mut entries = window.live.clone();
        entries.sort_by_key(|h| std::cmp::Reverse(need(h)));
        let total: u64 = entries.iter().map(need).sum();
        let mut targets: Vec<Target> = alloc
            .free_blocks_outside(window.lo, window.hi, 2 * total, 4 * entries.len() + 64)
            .into_iter()
            .map(|b| Target { start: b.start, size: b.size, at_top: false })
            .collect();
        // Never-used space above the window (the window may reach into it).
        let above = window.hi.max(alloc.top()).next_multiple_of(16);
        let heap_end = alloc.top() + alloc.untouched();
        if above + MIN_BLOCK <= heap_end {
            targets.push(Target { start: above, size: heap_end - above, at_top: true });
        }
        let mut plan = Vec::with_capacity(entries.len());
        for h in entries {
            let size = need(&h);
            let (i, t) = targets.iter().enumerate().filter(|(_, t)| t.size >= size).min_by_key(|(_, t)| t.size)?;
            let t = *t;
            plan.push((h, t));
            // What the allocator will leave of the target (carving keeps a remainder of MIN_BLOCK or more).
            if t.size - size >= MIN_BLOCK {
                targets[i] = Target { start: t.start + size, size: t.size - size, at_top: t.at_top };
            } else {
                targets.swap_remove(i);
            }
        }
        Some(plan)
    }

    /// Moves entry `h` into `target`: copy, then republish its link and retire the old block, in one
    /// transaction. False when it could not be moved (the backend is unchanged).
    fn relocate(&self, h: &EntryHeader, target: &Target) -> bool {
        let Some(link) = self.0.index.link_of(h.off, h.hash) else { return false };
        let Some(bytes) = entry::entry_bytes(h.key_len, h.value_len) else { return false };
        if h.is_int() && !self.freeze_int(h) {
            return false;
        }
        let alloc = &self.0.alloc;
        let mut t = self.0.journal.begin();
        let new = if target.at_top {
            alloc.alloc_above(&mut t, target.start, bytes)
        } else {
            alloc.alloc_from(&mut t, target.start, bytes)
        };
        let Some(new) = new else {
            self.word(h.off + entry::USAGE).fetch_and(!entry::FROZEN_BIT, Ordering::SeqCst);
            return false;
        };
        // SAFETY: the source is a published entry that cannot change (the write lock is held and integer
        // entries change only under it); the destination was just allocated and is not linked anywhere.
        unsafe { self.0.region.copy_within(h.off, new, bytes) };
        self.word(new + entry::USAGE).fetch_and(!entry::FROZEN_BIT, Ordering::Relaxed);
        self.retire_entry(&mut t, h);
        t.publish(link, new);
        true
    }
}
