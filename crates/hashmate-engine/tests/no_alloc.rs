//! The search allocates nothing per node, and its helper threads nothing at
//! all once they run: a helper's allocation while the next helper is being
//! started could abort the process under a memory limit (see the hostile
//! test `a_thread_that_cannot_start_still_gives_a_bestmove`).
//!
//! A counting allocator wraps the system one for this test binary. The
//! binary has no test harness (`harness = false` in Cargo.toml): libtest
//! runs a test on a thread of its own while its main thread books the test
//! in, and on a busy machine those bookings (four allocations) fell inside
//! the first measured search and were counted as the helper's. Here `main`
//! is the only thread besides the search's own. Two searches of the same position, one a hundred times bigger
//! than the other, must differ by a few allocations per extra iteration
//! (the main thread's reports), not by anything that grows with the nodes;
//! on the helper thread they must not differ at all (it allocates its
//! tables when it starts, then nothing). Both with the classical
//! evaluation and with the network (its accumulators per ply are allocated
//! with the worker).

use hashmate::tt::TranspositionTable;
use hashmate::Position;
use hashmate_engine::search::{search, Limits, Shared};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

struct Counting;

/// Allocations on every thread.
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
/// Allocations on threads other than `main` (the search's helper).
static HELPER_ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Set on `main`, which runs the search's main worker.
    static MAIN_THREAD: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    // A thread being torn down may no longer reach its locals: count it as
    // a helper.
    if !MAIN_THREAD.try_with(Cell::get).unwrap_or(false) {
        HELPER_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// Safety: every call is forwarded unchanged to the system allocator, which
// upholds `GlobalAlloc`'s contract; the counter has no effect on memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // Safety: the caller's `layout` contract is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // Safety: `ptr` came from `System.alloc` with this `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // Safety: `ptr` came from `System` with `layout`, as the caller
        // guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations (all, and the helper's) and nodes of a two-thread search
/// of `fen` to `depth`.
fn allocations(fen: &str, depth: u32, nnue: bool) -> (u64, u64, u64) {
    let pos = Position::from_fen(fen).unwrap();
    let shared = Arc::new(Shared::new(TranspositionTable::new(16).unwrap()));
    if nnue {
        shared.set_network(Some(Arc::new(hashmate_data::net::embedded().unwrap())));
    }
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    shared.control.begin(false);
    MAIN_THREAD.set(true);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let helper_before = HELPER_ALLOCATIONS.load(Ordering::Relaxed);
    let result = search(&pos, &[], &limits, &shared, 2, &mut ());
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    let helper_after = HELPER_ALLOCATIONS.load(Ordering::Relaxed);
    assert!(result.best.is_some());
    (after - before, helper_after - helper_before, result.nodes)
}

fn main() {
    the_search_does_not_allocate_per_node();
    println!("test the_search_does_not_allocate_per_node ... ok");
}

fn the_search_does_not_allocate_per_node() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        for nnue in [false, true] {
            let (small, small_helper, small_nodes) = allocations(fen, 4, nnue);
            let (big, big_helper, big_nodes) = allocations(fen, 10, nnue);
            // Ten times the nodes at least (the ratio varies with the net and
            // the two threads' timing: 18x to 30x from the start position).
            assert!(
                big_nodes > 10 * small_nodes,
                "{fen}: {small_nodes} and {big_nodes} nodes"
            );
            // Six more iterations of the main thread, each reporting one line.
            assert!(
                big <= small + 6 * 4,
                "{fen}: {small} allocations for {small_nodes} nodes, {big} for {big_nodes}"
            );
            assert!(small_helper > 0, "the helper's tables are counted");
            assert_eq!(
            small_helper, big_helper,
            "{fen}: the helper allocated {small_helper} times in the small search, {big_helper} in the big one"
        );
        }
    }
}
