//! Counts of the rules machine's instructions dispatched, per program counter, and of the
//! direct expressions that gave up (feature `vm-profile`, off in every other build: the
//! counting costs a call per instruction). Read by `examples/vmprof.rs`.

use std::cell::RefCell;

thread_local! {
    static HITS: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
    static GAVE_UP: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

fn count(counts: &'static std::thread::LocalKey<RefCell<Vec<u64>>>, pc: u32) {
    counts.with(|h| {
        let mut h = h.borrow_mut();
        let i = pc as usize;
        if h.len() <= i {
            h.resize(i + 1, 0);
        }
        h[i] += 1;
    });
}

/// Counts one instruction dispatched at `pc`.
pub fn hit(pc: u32) {
    count(&HITS, pc);
}

/// Counts a direct expression at `pc` that gave up.
pub fn gave_up(pc: u32) {
    count(&GAVE_UP, pc);
}

/// The instructions dispatched on this thread so far, by program counter (and resets).
pub fn take() -> Vec<u64> {
    HITS.with(|h| std::mem::take(&mut *h.borrow_mut()))
}

/// The give-ups on this thread so far, by program counter (and resets).
pub fn take_gave_up() -> Vec<u64> {
    GAVE_UP.with(|h| std::mem::take(&mut *h.borrow_mut()))
}
