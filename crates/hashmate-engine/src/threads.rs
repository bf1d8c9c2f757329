//! Threads started once and parked between tasks.
//!
//! A [`ParkedThread`] sleeps on a condition variable until it is handed a
//! task, runs it, and sleeps again; dropping it wakes the thread to end
//! and joins it. The engine keeps one for the job beside the UCI loop (a
//! search, `go perft`, `bench`) and the search keeps one per helper thread,
//! so that a `go` wakes threads instead of creating them: the operating
//! system's thread count stays constant over a game, and a short move
//! time is not spent in `clone`/`mmap`.
//!
//! Invariants:
//! - a thread runs at most one task at a time: [`ParkedThread::run`]
//!   first waits for the previous one to end;
//! - a task is dropped (with everything it captured) *before* the thread
//!   reports itself idle, so whoever waits with [`ParkedThread::wait`] holds
//!   the only references left to what it lent the task;
//! - a task that panics leaves the thread usable (the panic is reported by
//!   the standard hook on stderr; the task counts as finished).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

type Task = Box<dyn FnOnce() + Send + 'static>;

/// Address space that must be free before another worker thread is
/// started: its stack (2 MB), its tables (under 4 MB for a search thread),
/// a new malloc arena and room for the main thread's work. Without it, a
/// process under a memory limit (`ulimit -v`) can start threads that then
/// cannot map their signal stacks or make their first small allocations,
/// and the runtime aborts the whole process.
///
/// The probe must be larger than the C library's largest mmap threshold
/// (32 MB in glibc): a smaller block, once freed, stays in the heap, and a
/// probe served from there proves nothing about room for a new mapping.
pub const SPAWN_HEADROOM: usize = 40 << 20;

/// Whether [`SPAWN_HEADROOM`] bytes could be allocated now: ask before
/// starting a thread beyond the first (the search's helpers, `book make`'s
/// counting threads).
pub fn room_for_another_thread() -> bool {
    let mut probe: Vec<u8> = Vec::new();
    let ok = probe.try_reserve_exact(SPAWN_HEADROOM).is_ok();
    // The allocation must really happen: an unused one may be optimised out.
    std::hint::black_box(&mut probe);
    ok
}

enum State {
    /// Parked, waiting for a task.
    Idle,
    /// A task handed over, not yet taken.
    Ready(Task),
    /// Running a task.
    Running,
    /// Asked to end.
    Quit,
}

struct Slot {
    state: Mutex<State>,
    changed: Condvar,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Tasks run outside the lock, so it is never poisoned by one; a
        // poisoned lock would still hold a consistent state.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wait until the state is `Idle`.
    fn wait_idle<'a>(&self, mut state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        while !matches!(*state, State::Idle) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state
    }
}

/// One thread, started once, that runs the tasks it is handed one after
/// another and is parked in between.
pub struct ParkedThread {
    slot: Arc<Slot>,
    handle: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for ParkedThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let thread = self.handle.as_ref().map(JoinHandle::thread);
        f.debug_struct("ParkedThread")
            .field("name", &thread.and_then(|t| t.name()))
            .field("id", &thread.map(|t| t.id()))
            .finish()
    }
}

impl ParkedThread {
    /// Start a thread called `name`, parked until [`ParkedThread::run`].
    ///
    /// # Errors
    /// The operating system's, when it cannot create the thread.
    pub fn spawn(name: &str) -> std::io::Result<ParkedThread> {
        let slot = Arc::new(Slot {
            state: Mutex::new(State::Idle),
            changed: Condvar::new(),
        });
        let own = slot.clone();
        let handle = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || park(&own))?;
        Ok(ParkedThread {
            slot,
            handle: Some(handle),
        })
    }

    /// Hand `task` to the thread (after the task it runs, if any, ended).
    pub fn run(&self, task: impl FnOnce() + Send + 'static) {
        let mut state = self.slot.wait_idle(self.slot.lock());
        *state = State::Ready(Box::new(task));
        self.slot.changed.notify_all();
    }

    /// Wait until the thread has finished its task and dropped it.
    pub fn wait(&self) {
        drop(self.slot.wait_idle(self.slot.lock()));
    }

    /// Whether the thread is parked with nothing to do.
    pub fn is_idle(&self) -> bool {
        matches!(*self.slot.lock(), State::Idle)
    }
}

impl Drop for ParkedThread {
    /// Let the running task end, then end the thread and join it.
    fn drop(&mut self) {
        let mut state = self.slot.wait_idle(self.slot.lock());
        *state = State::Quit;
        self.slot.changed.notify_all();
        drop(state);
        if let Some(handle) = self.handle.take() {
            // A task that dropped the last owner of its own thread must not
            // join itself: the thread ends on its own once the task returns.
            if handle.thread().id() != std::thread::current().id() {
                let _ = handle.join();
            }
        }
    }
}

/// The thread's life: take a task, run it, drop it, report idle.
fn park(slot: &Slot) {
    loop {
        let task = {
            let mut state = slot.lock();
            loop {
                match std::mem::replace(&mut *state, State::Running) {
                    State::Ready(task) => break task,
                    State::Quit => return,
                    other => {
                        *state = other;
                        state = slot.changed.wait(state).unwrap_or_else(|e| e.into_inner());
                    }
                }
            }
        };
        // The task is consumed by the call: what it captured is dropped
        // before the state says idle.
        let _ = catch_unwind(AssertUnwindSafe(task));
        *slot.lock() = State::Idle;
        slot.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn runs_tasks_in_order_on_one_thread() {
        let t = ParkedThread::spawn("test").unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        for i in 0..100 {
            let seen = seen.clone();
            t.run(move || {
                seen.lock().unwrap().push((i, std::thread::current().id()));
            });
        }
        t.wait();
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 100);
        assert!(seen.iter().enumerate().all(|(i, &(j, _))| i == j));
        assert!(seen.iter().all(|&(_, id)| id == seen[0].1));
        assert_ne!(seen[0].1, std::thread::current().id());
    }

    #[test]
    fn what_a_task_captured_is_released_when_wait_returns() {
        let t = ParkedThread::spawn("test").unwrap();
        let lent = Arc::new(AtomicUsize::new(0));
        for _ in 0..50 {
            let l = lent.clone();
            t.run(move || {
                l.fetch_add(1, Ordering::Relaxed);
            });
            t.wait();
            assert!(t.is_idle());
            assert_eq!(Arc::strong_count(&lent), 1);
        }
        assert_eq!(lent.load(Ordering::Relaxed), 50);
    }

    #[test]
    fn a_panicking_task_leaves_the_thread_usable() {
        let t = ParkedThread::spawn("test").unwrap();
        t.run(|| panic!("on purpose"));
        t.wait();
        let done = Arc::new(AtomicUsize::new(0));
        let d = done.clone();
        t.run(move || {
            d.store(7, Ordering::Relaxed);
        });
        t.wait();
        assert_eq!(done.load(Ordering::Relaxed), 7);
    }

    #[test]
    fn dropping_waits_for_the_running_task() {
        let done = Arc::new(AtomicUsize::new(0));
        let t = ParkedThread::spawn("test").unwrap();
        let d = done.clone();
        t.run(move || {
            std::thread::sleep(std::time::Duration::from_millis(30));
            d.store(1, Ordering::Relaxed);
        });
        drop(t);
        assert_eq!(done.load(Ordering::Relaxed), 1);
    }
}
