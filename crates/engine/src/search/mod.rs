//! Alpha-beta search with the transposition table at its centre.
//!
//! Iterative deepening with aspiration windows over a principal-variation
//! search; quiescence over captures and promotions; the transposition
//! table for cut-offs and the first move to try; moves in stages
//! ([`movepick`]) ordered by the histories of [`history`]; pruning,
//! reductions and extensions whose constants live in [`params`]; draws by
//! repetition (keys compared back to the last irreversible move) and by the
//! fifty-move rule; MultiPV and `searchmoves` at the root.
//!
//! Several threads search the same position and share only the table and
//! the [`SearchControl`] (lazy SMP): what one thread stores, the others
//! find. A thread that cannot be started or cannot allocate its tables is
//! reported and the search goes on with the others. Reporting goes through
//! [`Listener`]; the search prints nothing.

pub mod control;
pub mod history;
pub mod movepick;
pub mod params;
pub mod see;
pub mod table;
pub mod timeman;
mod worker;

pub use control::SearchControl;
pub use see::see_ge;
pub use table::SearchTable;
pub use timeman::TimeManager;

use hashmate::tt::{Bound, TranspositionTable};
use hashmate::{Move, Position};
use std::time::Duration;
use worker::Worker;

/// Score of being mated now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Deepest ply searched.
pub const MAX_PLY: usize = 128;
/// Scores at least this far from zero are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// What limits a search. The defaults mean "until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes, all threads together.
    pub nodes: Option<u64>,
    /// Time limits.
    pub time: TimeManager,
    /// Stop when a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Restrict the root to these moves (empty = all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations (at least 1).
    pub multipv: usize,
    /// Search without the transposition table (to measure what it is worth).
    pub no_tt: bool,
}

/// State shared by all search threads and the caller.
#[derive(Debug)]
pub struct Shared<T = TranspositionTable> {
    /// The transposition table.
    pub tt: T,
    /// Stop, ponder, nodes and clock.
    pub control: SearchControl,
}

impl<T> Shared<T> {
    /// Shared state around table `tt`.
    pub fn new(tt: T) -> Shared<T> {
        Shared {
            tt,
            control: SearchControl::default(),
        }
    }
}

/// One `info` report.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which principal variation (1-based).
    pub multipv: usize,
    /// Centipawns, or ±(MATE − plies) for mates.
    pub score: i32,
    /// `Some(Lower/Upper)` for an aspiration fail, `None` when exact.
    pub bound: Option<Bound>,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Receives progress reports from the main search thread.
pub trait Listener {
    /// An iteration (or an aspiration fail) finished.
    fn info(&mut self, info: &SearchInfo);
    /// The root move being searched (reported after the first second).
    fn currmove(&mut self, _depth: u32, _mv: Move, _number: usize) {}
    /// Something the user should know (`info string`).
    fn message(&mut self, _text: &str) {}
}

impl Listener for () {
    fn info(&mut self, _: &SearchInfo) {}
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play, `None` without legal moves.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Its score.
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Pawn hash table hits of the main thread.
    pub pawn_hits: u64,
    /// Pawn hash table probes of the main thread.
    pub pawn_probes: u64,
}

/// "Mate in n moves" for a mate score, `None` for centipawns.
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// A score for the table: mates relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(-MATE, MATE) as i16
}

/// A score from the table, relative to the root again.
fn from_tt(score: i16, ply: usize) -> i32 {
    let s = i32::from(score);
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Address space that must be free before another helper thread is
/// started: its stack (2 MB), its tables (under 4 MB), a new malloc arena
/// and room for the main thread's output. Without it, a process under a
/// memory limit (`ulimit -v`) can start a thread that then cannot map its
/// signal stack, and the runtime aborts the whole process.
///
/// The probe must be larger than the C library's largest mmap threshold
/// (32 MB in glibc): a smaller block, once freed, stays in the heap, and a
/// probe served from there proves nothing about room for a new mapping.
const SPAWN_HEADROOM: usize = 40 << 20;

/// Whether [`SPAWN_HEADROOM`] bytes could be allocated now.
fn has_headroom() -> bool {
    let mut probe: Vec<u8> = Vec::new();
    let ok = probe.try_reserve_exact(SPAWN_HEADROOM).is_ok();
    // The allocation must really happen: an unused one may be optimised out.
    std::hint::black_box(&mut probe);
    ok
}

/// Start helper `id` and wait until it has its tables, so that a failure
/// is reported here, in order, and the next helper is started only when
/// this one no longer allocates.
fn spawn_helper<'scope, 'env, T: SearchTable>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    id: usize,
    pos: &'env Position,
    keys: &'env [u64],
    limits: &'env Limits,
    shared: &'env Shared<T>,
) -> Result<(), String> {
    if !has_headroom() {
        return Err(format!(
            "less than {} MB of memory left for its stack and tables",
            SPAWN_HEADROOM >> 20
        ));
    }
    let (ready, started) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name(format!("search-{id}"))
        .spawn_scoped(scope, move || {
            match Worker::new(id, shared, limits, keys, &mut ()) {
                Ok(mut w) => {
                    let _ = ready.send(Ok(()));
                    w.iterate(pos);
                }
                Err(e) => {
                    let _ = ready.send(Err(e.to_string()));
                }
            }
        })
        .map_err(|e| e.to_string())?;
    // A thread that ended without a word (it panicked) counts as not started.
    started
        .recv()
        .unwrap_or_else(|_| Err("it stopped before it was ready".to_string()))
}

/// Search `pos` with `threads` threads sharing `shared.tt`.
///
/// `history` holds the keys of the game's positions before `pos` (oldest
/// first, `pos` itself last or absent), for repetition detection. The
/// caller calls `shared.control.begin` first and may call
/// `shared.control.stop` at any time to end the search.
pub fn search<T: SearchTable>(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    shared: &Shared<T>,
    threads: usize,
    listener: &mut dyn Listener,
) -> SearchResult {
    shared.tt.new_search();
    let mut keys = history.to_vec();
    if keys.last() != Some(&pos.key()) {
        keys.push(pos.key());
    }
    let result = std::thread::scope(|scope| {
        for id in 1..threads.max(1) {
            // On few cores, starting hundreds of busy helpers takes longer
            // than a short move time: stop starting them when time is up.
            let control = &shared.control;
            if limits
                .time
                .hard()
                .is_some_and(|t| !control.pondering() && control.elapsed() >= t)
            {
                listener.message(&format!(
                    "the move time ran out while starting threads; searching with {id}"
                ));
                break;
            }
            if let Err(e) = spawn_helper(scope, id, pos, &keys, limits, shared) {
                listener.message(&format!(
                    "cannot start search thread {}: {e}; searching with {id}",
                    id + 1
                ));
                break;
            }
        }
        let main =
            Worker::new(0, shared, limits, &keys, &mut *listener).map(|mut w| w.iterate(pos));
        let result = match main {
            Ok(result) => result,
            Err(e) => {
                listener.message(&format!("{e}; playing the first legal move"));
                let first = pos.legal_moves().first().copied();
                SearchResult {
                    best: first,
                    ponder: None,
                    score: 0,
                    depth: 0,
                    nodes: 0,
                    pawn_hits: 0,
                    pawn_probes: 0,
                }
            }
        };
        shared.control.stop_search();
        result
    });
    SearchResult {
        nodes: shared.control.nodes(),
        ..result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn best(fen: &str, depth: u32) -> SearchResult {
        let pos = Position::from_fen(fen).unwrap();
        let shared = Shared::new(TranspositionTable::new(16).unwrap());
        shared.control.begin(false);
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        search(&pos, &[], &limits, &shared, 1, &mut ())
    }

    #[test]
    fn finds_mate_in_two() {
        let r = best(
            "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
            5,
        );
        assert_eq!(mate_in(r.score), Some(2), "score {}", r.score);
    }

    #[test]
    fn takes_the_free_queen() {
        let r = best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 4);
        assert_eq!(r.best.map(|m| m.to_string()), Some("d2d5".into()));
    }

    #[test]
    fn stalemate_and_mate_at_root() {
        let r = best("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((r.best, r.score), (None, 0));
        let r = best("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((r.best, r.score), (None, -MATE));
    }

    #[test]
    fn several_threads_agree_on_a_mate() {
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let shared = Shared::new(TranspositionTable::new(8).unwrap());
        shared.control.begin(false);
        let limits = Limits {
            depth: Some(6),
            multipv: 1,
            ..Limits::default()
        };
        let r = search(&pos, &[], &limits, &shared, 3, &mut ());
        assert_eq!(r.best.map(|m| m.to_string()), Some("d1d8".into()));
        assert_eq!(mate_in(r.score), Some(1));
    }
}
