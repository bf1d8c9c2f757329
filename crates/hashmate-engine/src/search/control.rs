//! What the GUI side and the search threads share about a running search:
//! the stop flag, pondering, the node count and the clock.
//!
//! All flags are relaxed atomics read at every node or every thousand
//! nodes; a stale read costs a few microseconds of search, never a wrong
//! result. The one thing that must not be missed — the GUI's `stop` or
//! `ponderhit` while a finished search waits to print `bestmove` — goes
//! through a mutex and a condition variable.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// The shared state of one search at a time.
#[derive(Debug)]
pub struct SearchControl {
    /// The search must stop now (a limit was reached or the GUI said so).
    stop: AtomicBool,
    /// Time limits do not run while set (UCI `go ponder`).
    pondering: AtomicBool,
    nodes: AtomicU64,
    created: Instant,
    /// Milliseconds after `created` at which the clock started.
    clock_start_ms: AtomicU64,
    /// Set by the GUI's `stop`: a finished infinite or pondering search may
    /// print `bestmove` now.
    released: Mutex<bool>,
    wake: Condvar,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            created: Instant::now(),
            clock_start_ms: AtomicU64::new(0),
            released: Mutex::new(false),
            wake: Condvar::new(),
        }
    }
}

impl SearchControl {
    /// A new search begins: clear the flags and counters, start the clock.
    pub fn begin(&self, ponder: bool) {
        self.stop.store(false, Relaxed);
        self.pondering.store(ponder, Relaxed);
        self.nodes.store(0, Relaxed);
        *self.released.lock().unwrap_or_else(|e| e.into_inner()) = false;
        self.start_clock();
    }

    /// The GUI's `stop`: end the search now, and let a finished infinite or
    /// pondering search print its move.
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
        self.pondering.store(false, Relaxed);
        *self.released.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.wake.notify_all();
    }

    /// A limit of the search itself was reached.
    pub fn stop_search(&self) {
        self.stop.store(true, Relaxed);
    }

    /// The GUI's `ponderhit`: the predicted move was played, so the search
    /// goes on under its time limits, counted from now.
    pub fn ponderhit(&self) {
        self.start_clock();
        self.pondering.store(false, Relaxed);
        let _guard = self.released.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }

    /// Must the search stop?
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// Is the search pondering (time limits off)?
    #[inline]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Relaxed)
    }

    fn start_clock(&self) {
        self.clock_start_ms
            .store(self.created.elapsed().as_millis() as u64, Relaxed);
    }

    /// Time since the clock was (re)started.
    pub fn elapsed(&self) -> Duration {
        let now = self.created.elapsed().as_millis() as u64;
        Duration::from_millis(now.saturating_sub(self.clock_start_ms.load(Relaxed)))
    }

    /// Nodes searched by all threads in this search so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Add a thread's nodes; returns the new total.
    pub(crate) fn add_nodes(&self, n: u64) -> u64 {
        self.nodes.fetch_add(n, Relaxed) + n
    }

    /// Wait, after the search itself has finished, until the GUI allows the
    /// `bestmove`: for an infinite search until `stop`, while pondering
    /// until `ponderhit` or `stop`. Returns at once otherwise.
    pub fn wait_for_release(&self, infinite: bool) {
        let mut released = self.released.lock().unwrap_or_else(|e| e.into_inner());
        while !*released && (infinite || self.pondering()) {
            released = self.wake.wait(released).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_finished_infinite_search_waits_for_stop() {
        let c = Arc::new(SearchControl::default());
        c.begin(false);
        let waiter = {
            let c = c.clone();
            std::thread::spawn(move || {
                c.wait_for_release(true);
                Instant::now()
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        let stopped_at = Instant::now();
        c.stop();
        assert!(waiter.join().unwrap() >= stopped_at);
    }

    #[test]
    fn pondering_waits_for_ponderhit_and_not_otherwise() {
        let c = Arc::new(SearchControl::default());
        c.begin(false);
        c.wait_for_release(false); // neither infinite nor pondering: no wait
        c.begin(true);
        let waiter = {
            let c = c.clone();
            std::thread::spawn(move || c.wait_for_release(false))
        };
        std::thread::sleep(Duration::from_millis(30));
        assert!(!waiter.is_finished());
        c.ponderhit();
        waiter.join().unwrap();
        assert!(!c.pondering() && !c.stopped());
    }
}
