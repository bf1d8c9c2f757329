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
//! find. The main thread is the caller's; the helpers are a pool of
//! parked threads kept in [`Shared`], started by the first search that
//! needs them and woken by the next. Each thread's history tables and pawn
//! hash table live on from one search to the next, as a game goes on, and
//! are cleared by [`Shared::new_game`]. A thread that cannot be started or
//! cannot allocate its tables is reported and the search goes on with the
//! others. Reporting goes through [`Listener`]; the search prints nothing.

pub mod control;
pub mod history;
pub mod movepick;
pub mod params;
pub mod see;
pub mod table;
pub mod tablebase;
pub mod timeman;
mod worker;

pub use control::SearchControl;
pub use see::see_ge;
pub use table::{NoTable, SearchTable};
pub use tablebase::{TbConfig, TB_WIN};
pub use timeman::TimeManager;

use crate::eval::{new_pawn_table, PawnTable};
use crate::threads::{ParkedThread, SPAWN_HEADROOM};
use hashmate::tt::{Bound, TranspositionTable};
use hashmate::{Move, Position};
use hashmate_nnue::Network;
use history::{AllocError, Histories};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
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
    /// Nodes, all threads together: the search stops there, mid-iteration.
    pub nodes: Option<u64>,
    /// A soft node limit: no iteration starts once this many nodes were
    /// searched (the last one completes, up to `nodes`). Training-data
    /// generation plays by it, as by a clock, without depending on speed.
    pub soft_nodes: Option<u64>,
    /// Time limits.
    pub time: TimeManager,
    /// Stop when a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Restrict the root to these moves (empty = all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations (at least 1).
    pub multipv: usize,
}

/// What one search thread learns and keeps from one search to the next in
/// a game: its history tables (which moves cut off, and after which) and
/// its pawn hash table; and what it only reuses, so that a search does not
/// build it again (data generation searches a few hundred nodes a move,
/// where building them cost about a tenth of the time): the late-move
/// reduction table, the network's accumulator stack and the principal
/// variation's buffer.
pub(crate) struct ThreadData {
    pub(super) hist: Histories,
    pub(super) pawns: PawnTable,
    pub(super) scratch: worker::Scratch,
}

impl ThreadData {
    fn new() -> Result<ThreadData, AllocError> {
        Ok(ThreadData {
            hist: Histories::new()?,
            pawns: new_pawn_table(),
            scratch: worker::Scratch::default(),
        })
    }

    fn clear(&mut self) {
        self.hist.clear();
        self.pawns.clear();
    }
}

/// State shared by all search threads and the caller.
pub struct Shared<T = TranspositionTable> {
    /// The transposition table.
    pub tt: T,
    /// Stop, ponder, nodes and clock.
    pub control: SearchControl,
    /// The search threads and what each learned in earlier searches of
    /// the game. Locked by [`search`] while it runs.
    pool: Mutex<Pool>,
    /// The network the searches evaluate with; `None`: the classical
    /// evaluation. Read when a search starts.
    network: Mutex<Option<Arc<Network>>>,
    /// The endgame tablebases and how to use them; read when a search
    /// starts.
    tablebase: Mutex<Option<Arc<TbConfig>>>,
    /// Tablebase probes of the current search, all threads.
    tb_hits: AtomicU64,
    /// The first tablebase error of the current search (a table that
    /// became unreadable), reported when it ends.
    tb_error: Mutex<Option<String>>,
    /// Set by [`Shared::new_game`]: the next search starts with cleared
    /// thread data. A flag rather than clearing at once, so that a new game
    /// announced while a search runs neither waits for it nor disturbs it.
    fresh: AtomicBool,
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("tt", &self.tt)
            .field("control", &self.control)
            .finish_non_exhaustive()
    }
}

impl<T> Shared<T> {
    /// Shared state around table `tt`.
    pub fn new(tt: T) -> Shared<T> {
        Shared {
            tt,
            control: SearchControl::default(),
            pool: Mutex::new(Pool::default()),
            network: Mutex::new(None),
            tablebase: Mutex::new(None),
            tb_hits: AtomicU64::new(0),
            tb_error: Mutex::new(None),
            fresh: AtomicBool::new(false),
        }
    }
}

impl<T> Shared<T> {
    /// Evaluate with `net` from the next search on (`None`: the classical
    /// evaluation).
    pub fn set_network(&self, net: Option<Arc<Network>>) {
        *self.network.lock().unwrap_or_else(|e| e.into_inner()) = net;
    }

    /// The network searches evaluate with, if any.
    pub fn network(&self) -> Option<Arc<Network>> {
        self.network
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Use `tb` from the next search on (`None`: no tablebases).
    pub fn set_tablebase(&self, tb: Option<Arc<TbConfig>>) {
        *self.tablebase.lock().unwrap_or_else(|e| e.into_inner()) = tb;
    }

    /// The tablebases searches use, if any.
    pub fn tablebase(&self) -> Option<Arc<TbConfig>> {
        self.tablebase
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Tablebase probes of the current (or last) search.
    pub fn tb_hits(&self) -> u64 {
        self.tb_hits.load(Ordering::Relaxed)
    }

    /// Count a probe that found its result.
    pub(crate) fn tb_hit(&self) {
        self.tb_hits.fetch_add(1, Ordering::Relaxed);
    }

    /// Keep the first failed probe of the search, to be reported at its
    /// end.
    pub(crate) fn tb_failed(&self, error: String) {
        let mut first = self.tb_error.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert(error);
    }
}

impl<T: SearchTable> Shared<T> {
    /// A new game: clear the table, and let the next search forget the
    /// histories and pawn structures learned so far.
    pub fn new_game(&self) {
        self.tt.clear();
        self.fresh.store(true, Ordering::Relaxed);
    }

    /// Pawn hash table (hits, probes) of every search thread since the
    /// game began (`bench` prints the hit rate). Read between searches;
    /// during one it waits for the search to end.
    pub fn pawn_stats(&self) -> (u64, u64) {
        let pool = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        let count = |(h, p): (u64, u64), d: &ThreadData| (h + d.pawns.hits(), p + d.pawns.probes());
        let helpers = pool.helpers.iter().fold((0, 0), |sum, helper| {
            count(sum, &helper.data.lock().unwrap_or_else(|e| e.into_inner()))
        });
        pool.main.iter().fold(helpers, count)
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
    /// Tablebase probes so far, all threads.
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Receives progress reports from the main search thread.
pub trait Listener {
    /// An iteration (or an aspiration fail) finished.
    fn info(&mut self, info: &SearchInfo);
    /// Whether [`info`](Self::info) wants to be called: a listener that
    /// ignores it says no, and the search skips gathering it (the table's
    /// fill rate, the line, the clock) — a cost where searches are a few
    /// hundred nodes, as in data generation.
    fn wants_info(&self) -> bool {
        true
    }
    /// The root move being searched (reported after the first second;
    /// asked for only where [`Listener::wants_info`] says yes).
    fn currmove(&mut self, _depth: u32, _mv: Move, _number: usize) {}
    /// Something the user should know (`info string`).
    fn message(&mut self, _text: &str) {}
}

impl Listener for () {
    fn info(&mut self, _: &SearchInfo) {}
    fn wants_info(&self) -> bool {
        false
    }
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
}

impl SearchResult {
    /// The answer without a search: `best` (the first legal move, or none),
    /// score 0, depth 0. Where a search could not run, the engine still
    /// answers with a legal move.
    pub fn unsearched(best: Option<Move>) -> SearchResult {
        SearchResult {
            best,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        }
    }
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

/// A score for the table: mates and tablebase wins relative to the node,
/// not the root. A tablebase score stays below every mate.
fn to_tt(score: i32, ply: usize) -> i16 {
    let ply = ply as i32;
    let s = if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else if score >= TB_BOUND {
        (score + ply).min(MATE_BOUND - 1)
    } else if score <= -TB_BOUND {
        (score - ply).max(-MATE_BOUND + 1)
    } else {
        score
    };
    s.clamp(-MATE, MATE) as i16
}

/// A score from the table, relative to the root again; `clock` is the
/// half-move clock of the node that reads it.
///
/// The entry may have been made on a path with a lower clock: a mate
/// further away than the fifty-move rule leaves (counting no capture or
/// pawn move on the way) becomes the largest score short of a mate, so
/// that no mate is announced that the rule would turn into a draw.
fn from_tt(score: i16, ply: usize, clock: u32) -> i32 {
    let s = i32::from(score);
    let clock = clock as i32;
    if s >= MATE_BOUND {
        if clock + (MATE - s) > FIFTY_MOVE_PLIES {
            return MATE_BOUND - 1;
        }
        s - ply as i32
    } else if s <= -MATE_BOUND {
        if clock + (MATE + s) > FIFTY_MOVE_PLIES {
            return -MATE_BOUND + 1;
        }
        s + ply as i32
    } else if s >= TB_BOUND {
        s - ply as i32
    } else if s <= -TB_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Scores at least this far from zero (and short of a mate) are
/// tablebase wins, [`TB_WIN`] less the plies to the probe.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Plies without a capture or pawn move after which the fifty-move rule
/// draws (unless the move that reached them gave mate).
const FIFTY_MOVE_PLIES: i32 = 100;

/// The search threads of a [`Shared`]: the main thread's tables (the main
/// thread is the caller's) and the helpers. Helpers are started by the
/// first search that asks for them and then parked between searches; a
/// search with fewer threads ends the ones it no longer needs.
#[derive(Default)]
struct Pool {
    main: Option<ThreadData>,
    helpers: Vec<Helper>,
}

/// Why a helper thread could not take part in a search.
#[derive(Debug)]
enum HelperError {
    /// Less than [`SPAWN_HEADROOM`](crate::threads::SPAWN_HEADROOM) of address space left.
    NoHeadroom,
    /// Its tables could not be allocated.
    Tables(AllocError),
    /// The operating system would not create the thread.
    Spawn(std::io::Error),
    /// Its task ended before its worker was ready (it panicked).
    Stopped,
}

impl std::fmt::Display for HelperError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HelperError::NoHeadroom => write!(
                f,
                "less than {} MB of memory left for its stack and tables",
                SPAWN_HEADROOM >> 20
            ),
            HelperError::Tables(e) => write!(f, "{e}"),
            HelperError::Spawn(e) => write!(f, "{e}"),
            HelperError::Stopped => f.write_str("it stopped before it was ready"),
        }
    }
}

/// A parked helper thread and the tables it keeps from search to search.
struct Helper {
    thread: ParkedThread,
    data: Arc<Mutex<ThreadData>>,
}

impl Helper {
    /// Start helper `id`, parked, with new tables.
    fn start(id: usize) -> Result<Helper, HelperError> {
        if !crate::threads::room_for_another_thread() {
            return Err(HelperError::NoHeadroom);
        }
        let data = ThreadData::new().map_err(HelperError::Tables)?;
        let thread = ParkedThread::spawn(&format!("search-{id}")).map_err(HelperError::Spawn)?;
        Ok(Helper {
            thread,
            data: Arc::new(Mutex::new(data)),
        })
    }
}

/// What every thread of one search reads: the root, the game's keys and
/// the limits.
struct Root {
    pos: Position,
    keys: Vec<u64>,
    limits: Limits,
}

/// Wake helper `id` on `root` and wait until its worker is set up, so that
/// a failure is reported here, in order, and the next helper is woken only
/// when this one no longer allocates.
fn wake_helper<T: SearchTable + Send + 'static>(
    helper: &Helper,
    id: usize,
    root: &Arc<Root>,
    shared: &Arc<Shared<T>>,
) -> Result<(), HelperError> {
    let (ready, started) = std::sync::mpsc::sync_channel(1);
    let (root, shared, data) = (root.clone(), shared.clone(), helper.data.clone());
    helper.thread.run(move || {
        let mut data = data.lock().unwrap_or_else(|e| e.into_inner());
        match Worker::new(id, &shared, &root.limits, &root.keys, &mut data, &mut ()) {
            Ok(mut w) => {
                let _ = ready.send(Ok(()));
                w.iterate(&root.pos);
            }
            Err(e) => {
                let _ = ready.send(Err(HelperError::Tables(e)));
            }
        }
    });
    // A task that ended without a word (it panicked) counts as not started.
    started.recv().unwrap_or(Err(HelperError::Stopped))
}

/// The helpers woken for one search: dropping it (also when the main
/// thread's search unwinds) stops the search and waits until every helper
/// is parked again and has let go of the shared state.
struct Woken<'p> {
    helpers: &'p [Helper],
    control: &'p SearchControl,
}

impl Drop for Woken<'_> {
    fn drop(&mut self) {
        self.control.stop_search();
        self.helpers.iter().for_each(|h| h.thread.wait());
    }
}

/// Search `pos` with `threads` threads sharing `shared.tt`.
///
/// `history` holds the repetition keys ([`Position::repetition_key`]) of
/// the game's positions before `pos` (oldest first, `pos` itself last or
/// absent), for repetition detection. The caller calls
/// `shared.control.begin` first and may call
/// `shared.control.stop` at any time to end the search. The main thread is
/// the caller's; helpers are parked threads of `shared`, started the first
/// time they are needed. Each thread goes on from the histories and pawn
/// table it had at the end of the previous search, unless
/// [`Shared::new_game`] was called since.
pub fn search<T: SearchTable + Send + 'static>(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    shared: &Arc<Shared<T>>,
    threads: usize,
    listener: &mut dyn Listener,
) -> SearchResult {
    shared.tt.new_search();
    shared.tb_hits.store(0, Ordering::Relaxed);
    *shared.tb_error.lock().unwrap_or_else(|e| e.into_inner()) = None;
    let mut keys = history.to_vec();
    let root_key = pos.repetition_key();
    if keys.last() != Some(&root_key) {
        keys.push(root_key);
    }
    // A root in the tables: only the moves that keep its best result.
    let mut limits = limits.clone();
    if let Some(tb) = shared.tablebase() {
        if let Some(keep) = tablebase::root_moves(&tb, pos, &keys) {
            shared
                .tb_hits
                .fetch_add(keep.len() as u64, Ordering::Relaxed);
            let given = std::mem::take(&mut limits.searchmoves);
            limits.searchmoves = if given.is_empty() {
                keep
            } else {
                let both: Vec<Move> = keep.iter().copied().filter(|m| given.contains(m)).collect();
                if both.is_empty() {
                    given
                } else {
                    both
                }
            };
        }
    }
    let limits = &limits;
    let root = Arc::new(Root {
        pos: pos.clone(),
        keys,
        limits: limits.clone(),
    });
    let mut pool = shared.pool.lock().unwrap_or_else(|e| e.into_inner());
    let pool = &mut *pool;
    pool.helpers.truncate(threads.max(1) - 1);
    if shared.fresh.swap(false, Ordering::Relaxed) {
        pool.main.iter_mut().for_each(ThreadData::clear);
        for h in &pool.helpers {
            h.data.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }
    let mut woken = 0;
    for id in 1..threads.max(1) {
        // On few cores, waking hundreds of busy helpers takes longer than
        // a short move time: stop waking them when time is up.
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
        if pool.helpers.len() < id {
            match Helper::start(id) {
                Ok(h) => pool.helpers.push(h),
                Err(e) => {
                    listener.message(&format!(
                        "cannot start search thread {}: {e}; searching with {id}",
                        id + 1
                    ));
                    break;
                }
            }
        }
        if let Err(e) = wake_helper(&pool.helpers[id - 1], id, &root, shared) {
            listener.message(&format!(
                "cannot start search thread {}: {e}; searching with {id}",
                id + 1
            ));
            break;
        }
        woken = id;
    }
    let running = Woken {
        helpers: &pool.helpers[..woken],
        control: &shared.control,
    };
    let main = match pool.main.take().map_or_else(ThreadData::new, Ok) {
        Ok(mut data) => {
            let r = Worker::new(0, shared, limits, &root.keys, &mut data, &mut *listener)
                .map(|mut w| w.iterate(pos));
            pool.main = Some(data);
            r
        }
        Err(e) => Err(e),
    };
    let result = match main {
        Ok(result) => result,
        Err(e) => {
            listener.message(&format!("{e}; playing the first legal move"));
            SearchResult::unsearched(pos.legal_moves().first().copied())
        }
    };
    drop(running);
    if let Some(e) = shared
        .tb_error
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
    {
        listener.message(&format!(
            "tablebase: {e}; the search went on without that table"
        ));
    }
    SearchResult {
        nodes: shared.control.nodes(),
        ..result
    }
}

#[cfg(test)]
mod tests;
