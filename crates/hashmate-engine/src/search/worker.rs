//! One search thread: iterative deepening at the root (here), the
//! principal-variation search below it ([`alphabeta`]), and quiescence
//! ([`quiescence`]).
//!
//! Positions are copied down the tree (copy-make); the keys of the line
//! are pushed and popped for repetition detection. Per ply the thread keeps
//! a [`Frame`]: the static evaluation (for "improving"), the move made and
//! its piece-square (for continuation history and counter moves), the
//! killers, and the move excluded by a singular-extension search.

mod alphabeta;
mod quiescence;

use super::history::{reserved, AllocError, Histories, PieceSquare, NO_PIECE_SQUARE};
use super::params::*;
use super::tablebase::TbConfig;
use super::timeman::Stability;
use super::{
    from_tt, mate_in, to_tt, Limits, Listener, SearchInfo, SearchResult, SearchTable, Shared,
    ThreadData, MATE, MATE_BOUND, MAX_PLY,
};
use crate::eval::{evaluate, PawnTable};
use hashmate::game::repetitions;
use hashmate::moves::MAX_MOVES;
use hashmate::tt::{Bound, TtEntry};
use hashmate::{Move, Position};
use hashmate_nnue::{AccumulatorStack, Network};
use std::sync::Arc;
use std::time::Duration;

/// Beyond any score.
const INF: i32 = MATE + 1;
/// "No static evaluation" (in check).
const NO_EVAL: i32 = -INF;
/// Frames before ply 0, so that `ply - 4` always exists (the continuation
/// history four plies back).
const STACK_OFFSET: usize = 4;
/// Quiet and noisy moves remembered per node for history maluses.
const TRIED: usize = 64;

/// What the search keeps per ply.
#[derive(Copy, Clone, Debug)]
struct Frame {
    eval: i32,
    mv: Move,
    piece_square: PieceSquare,
    excluded: Move,
    killers: [Move; 2],
    double_extensions: i32,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            eval: NO_EVAL,
            mv: Move::NULL,
            piece_square: NO_PIECE_SQUARE,
            excluded: Move::NULL,
            killers: [Move::NULL; 2],
            double_extensions: 0,
        }
    }
}

/// The bound a node's result stores: a fail-high (`best ≥ beta`) is a
/// lower bound, a raised alpha an exact score, anything else an upper bound.
fn bound_of(best: i32, old_alpha: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if alpha > old_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Late-move reductions by depth and move number.
fn lmr_table() -> Box<[[i8; 64]; 64]> {
    let mut t = Box::new([[0i8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            // In hundredths: 75 / 100 and 225 / 100 are exact, as the
            // constants 0.75 and 2.25 were.
            let base = f64::from(LMR_BASE.get()) / 100.0;
            let divisor = f64::from(LMR_DIVISOR.get()) / 100.0;
            let v = base + (d as f64).ln() * (m as f64).ln() / divisor;
            *r = v.clamp(0.0, 63.0) as i8;
        }
    }
    t
}

/// What a search thread builds once and reuses from one search to the
/// next (it is overwritten before it is read, so nothing carries over):
/// the late-move reduction table (rebuilt if its two parameters change,
/// as a tuning build's `setoption` can), the accumulator stack of the
/// network last searched with, and the principal variation's buffer.
pub(crate) struct Scratch {
    lmr: Box<[[i8; 64]; 64]>,
    lmr_params: (i32, i32),
    nnue: Option<(Arc<Network>, AccumulatorStack)>,
    pv: Vec<[Move; MAX_PLY + 1]>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            lmr: lmr_table(),
            lmr_params: lmr_params(),
            nnue: None,
            pv: Vec::new(),
        }
    }
}

/// The parameters the late-move reduction table is built from.
fn lmr_params() -> (i32, i32) {
    (LMR_BASE.get(), LMR_DIVISOR.get())
}

impl Scratch {
    /// Ready for a search with `net` (or the classical evaluation): the
    /// table and the buffers exist, and the accumulator stack is `net`'s.
    fn prepare(&mut self, net: Option<Arc<Network>>) -> Result<(), AllocError> {
        if self.lmr_params != lmr_params() {
            self.lmr = lmr_table();
            self.lmr_params = lmr_params();
        }
        if self.pv.len() < MAX_PLY + 1 {
            let mut pv = reserved(MAX_PLY + 1)?;
            pv.resize(MAX_PLY + 1, [Move::NULL; MAX_PLY + 1]);
            self.pv = pv;
        }
        match net {
            Some(net) => {
                if !matches!(&self.nnue, Some((old, _)) if Arc::ptr_eq(old, &net)) {
                    // The old stack goes first, so that two are never held.
                    self.nnue = None;
                    let stack =
                        AccumulatorStack::new(&net, MAX_PLY + 3).map_err(|_| AllocError {
                            bytes: net.hidden() * 4 * (MAX_PLY + 3),
                        })?;
                    self.nnue = Some((net, stack));
                }
            }
            None => self.nnue = None,
        }
        Ok(())
    }
}

pub(super) struct Worker<'a, 'l, T: SearchTable> {
    id: usize,
    shared: &'a Shared<T>,
    limits: &'a Limits,
    listener: &'l mut dyn Listener,
    pawns: &'a mut PawnTable,
    hist: &'a mut Histories,
    /// The network and its accumulators per ply, when the search
    /// evaluates with it.
    nnue: Option<&'a mut (Arc<Network>, AccumulatorStack)>,
    /// The endgame tablebases, when the search uses them.
    tb: Option<Arc<TbConfig>>,
    /// The keys of the game and of the line searched, for repetitions.
    keys: Vec<u64>,
    stack: Vec<Frame>,
    pv: &'a mut [[Move; MAX_PLY + 1]],
    pv_len: [usize; MAX_PLY + 1],
    lmr: &'a [[i8; 64]; 64],
    unflushed: u64,
    /// Nodes counted before they are added to the shared count and the
    /// limits are checked: 1,024, fewer under a small node limit, so
    /// that `go nodes 100` stops near 100 rather than at 1,024.
    flush_every: u64,
    /// Nodes this thread has searched, in all.
    nodes: u64,
    seldepth: usize,
    root_moves: Vec<Move>,
    root_excluded: Vec<Move>,
    root_depth: u32,
}

impl<'a, 'l, T: SearchTable> Worker<'a, 'l, T> {
    pub(super) fn new(
        id: usize,
        shared: &'a Shared<T>,
        limits: &'a Limits,
        keys: &[u64],
        data: &'a mut ThreadData,
        listener: &'l mut dyn Listener,
    ) -> Result<Worker<'a, 'l, T>, AllocError> {
        let mut key_stack = reserved(keys.len() + MAX_PLY + 8)?;
        key_stack.extend_from_slice(keys);
        // The root lists are reserved here, so that a running search never
        // allocates: a helper that did could abort the process under a
        // memory limit while the next helper is being started.
        let root_moves = reserved(MAX_MOVES)?;
        let root_excluded = reserved(MAX_MOVES)?;
        let ThreadData {
            hist,
            pawns,
            scratch,
        } = data;
        scratch.prepare(shared.network())?;
        let Scratch { lmr, nnue, pv, .. } = scratch;
        Ok(Worker {
            id,
            shared,
            limits,
            listener,
            pawns,
            hist,
            nnue: nnue.as_mut(),
            tb: shared.tablebase(),
            keys: key_stack,
            stack: vec![Frame::default(); MAX_PLY + STACK_OFFSET + 4],
            pv,
            pv_len: [0; MAX_PLY + 1],
            lmr,
            unflushed: 0,
            flush_every: limits.nodes.map_or(1024, |n| (n / 1024).clamp(1, 1024)),
            nodes: 0,
            seldepth: 0,
            root_moves,
            root_excluded,
            root_depth: 0,
        })
    }

    #[inline]
    fn count_node(&mut self) {
        self.unflushed += 1;
        self.nodes += 1;
        if self.unflushed >= self.flush_every {
            let total = self.shared.control.add_nodes(self.unflushed);
            self.unflushed = 0;
            if self.id == 0 {
                let control = &self.shared.control;
                if self.limits.nodes.is_some_and(|n| total >= n) {
                    control.stop_search();
                }
                if let Some(t) = self.limits.time.hard() {
                    if !control.pondering() && control.elapsed() >= t {
                        control.stop_search();
                    }
                }
            }
        }
    }

    /// Whether to unwind. The first iteration always finishes, so that a
    /// stop that comes at once (a tiny `movetime`, many threads starting on
    /// few cores) still leaves a searched move, not the first legal one.
    #[inline]
    fn stopped(&self) -> bool {
        self.root_depth > 1 && self.shared.control.stopped()
    }

    /// Is the current position (the last of `keys`) drawn by rule? Inside
    /// the search one repetition is a draw; the fifty-move rule draws
    /// unless the move that reached 100 plies gave mate (checkmate takes
    /// precedence); and so does material with which neither side can ever
    /// mate (king and a minor piece against king, bishops all on one
    /// colour), which the network scores by the material instead.
    fn is_draw(&self, pos: &Position) -> bool {
        pos.is_insufficient_material()
            || repetitions(&self.keys, pos.halfmove_clock(), 2) >= 2
            || (pos.halfmove_clock() >= 100 && pos.has_legal_moves())
    }

    /// The static evaluation of `pos`, `ply` plies below the root: a won
    /// ending against a lone king as such, else the network's, from the
    /// accumulators of that ply, or the classical one.
    fn eval(&mut self, pos: &Position, ply: usize) -> i32 {
        if let Some(v) = crate::eval::lone_king::evaluate(pos) {
            return v;
        }
        match &mut self.nnue {
            Some((net, acc)) => {
                let v = acc.evaluate(net, ply, pos);
                // The accumulators must be those of `pos` (tests run with
                // debug assertions; a release build trusts the updates).
                // The check rebuilds them in the stack's last slot, which
                // no ply uses, so that it allocates nothing either.
                #[cfg(debug_assertions)]
                {
                    let spare = acc.plies() - 1;
                    acc.refresh(net, spare, pos);
                    let fresh = acc.evaluate(net, spare, pos);
                    debug_assert_eq!(v, fresh, "ply {ply}: {pos}");
                }
                v
            }
            None => evaluate(pos, self.pawns),
        }
    }

    /// `child` is one move (or a null move) after `parent`, `ply` plies
    /// below the root: bring the network's accumulators to `ply + 1`.
    #[inline]
    fn follow(&mut self, ply: usize, parent: &Position, child: &Position) {
        if let Some((net, acc)) = &mut self.nnue {
            acc.update(net, ply, parent, child);
        }
    }

    /// The static evaluation corrected by what searches learned.
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        (raw + self.hist.correction(pos)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The shared table's entry for `pos`.
    #[inline]
    fn probe(&self, pos: &Position) -> Option<TtEntry> {
        self.shared.tt.probe(pos)
    }

    /// The raw static evaluation a table entry holds, or `None` where
    /// its node stored none: a node in check, or a tablebase result
    /// stored before any evaluation (`store` keeps `NO_EVAL` as `-MATE`,
    /// which no evaluation reaches). The position is the same either way,
    /// but a tablebase entry is found again from a node that does not
    /// probe the tablebase (its fifty-move counter is not zero).
    #[inline]
    fn table_eval(e: TtEntry) -> Option<i32> {
        let v = i32::from(e.eval);
        (v != -MATE).then_some(v)
    }

    /// Store a node's result in the shared table: the score made
    /// relative to the node (mate distances), the raw static evaluation
    /// and the depth clamped to what an entry holds.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        pos: &Position,
        ply: usize,
        mv: Move,
        score: i32,
        raw_eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let entry = TtEntry {
            mv,
            score: to_tt(score, ply),
            eval: raw_eval.clamp(-MATE, MATE) as i16,
            depth: depth.clamp(0, 255) as u8,
            bound,
            pv: false,
        };
        self.shared.tt.store(pos, entry);
    }

    /// The static evaluation sharpened by a table score whose bound
    /// points the right way: a lower bound above the evaluation, an upper
    /// bound below it (docs/STRENGTH.md row 57).
    fn tt_adjusted(eval: i32, tt: Option<TtEntry>, ply: usize, clock: u32) -> i32 {
        match tt {
            Some(e) if eval != NO_EVAL => {
                let s = from_tt(e.score, ply, clock);
                let better = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > eval,
                    Bound::Upper => s < eval,
                };
                if better && s.abs() < MATE_BOUND {
                    s
                } else {
                    eval
                }
            }
            _ => eval,
        }
    }

    fn history_bonus(depth: i32) -> i32 {
        (HISTORY_BONUS_LINEAR.get() * depth
            + HISTORY_BONUS_SCALE.get() * depth * depth
            + HISTORY_BONUS_BASE.get())
        .clamp(1, HISTORY_BONUS_MAX.get())
    }

    fn pv_line(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    /// Iterative deepening; returns the best line of the last completed
    /// iteration.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn iterate(&mut self, pos: &Position) -> SearchResult {
        let all = pos.legal_moves();
        // In place: the capacity was reserved by `new` (no allocation).
        self.root_moves.clear();
        self.root_moves.extend(
            all.iter().copied().filter(|m| {
                self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(m)
            }),
        );
        if let Some((net, acc)) = &mut self.nnue {
            acc.refresh(net, 0, pos);
        }
        let mut result = SearchResult::unsearched(self.root_moves.first().copied());
        if self.root_moves.is_empty() {
            result.score = if pos.is_check() { -MATE } else { 0 };
            return result;
        }
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len());
        let mut prev_scores = [0i32; MAX_MOVES];
        let mut stability = Stability::default();
        // Helper threads start at staggered depths to diversify.
        let start_depth = 1 + (self.id % 2) as u32;
        'deepening: for depth in start_depth..=max_depth {
            self.root_depth = depth;
            self.root_excluded.clear();
            let best_before = result.best;
            let score_before = result.score;
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let mut delta = ASPIRATION_DELTA.get();
                let (mut alpha, mut beta) = if depth as i32 >= ASPIRATION_DEPTH.get() {
                    (prev_scores[pv_idx] - delta, prev_scores[pv_idx] + delta)
                } else {
                    (-INF, INF)
                };
                let score = loop {
                    let s = self.negamax(pos, alpha, beta, depth as i32, 0, false);
                    if self.stopped() && depth > 1 {
                        break 'deepening;
                    }
                    let bound = if s <= alpha {
                        Some(Bound::Upper)
                    } else if s >= beta {
                        Some(Bound::Lower)
                    } else {
                        None
                    };
                    if self.id == 0
                        && bound.is_some()
                        && self.listener.wants_info()
                        && self.shared.control.elapsed() > Duration::from_secs(1)
                    {
                        let info = self.info(depth, pv_idx, s, bound);
                        self.listener.info(&info);
                    }
                    match bound {
                        Some(Bound::Upper) => {
                            beta = (alpha + beta) / 2;
                            alpha = (s - delta).max(-INF);
                        }
                        Some(Bound::Lower) => beta = (s + delta).min(INF),
                        _ => break s,
                    }
                    delta *= 2;
                    if delta > ASPIRATION_MAX.get() {
                        alpha = -INF;
                        beta = INF;
                    }
                };
                prev_scores[pv_idx] = score;
                let line = &self.pv[0][..self.pv_len[0]];
                let (first, second) = (line.first().copied(), line.get(1).copied());
                if pv_idx == 0 {
                    result.best = first.or(result.best);
                    result.ponder = second;
                    result.score = score;
                    result.depth = depth;
                }
                if let Some(m) = first {
                    self.root_excluded.push(m);
                }
                if self.id == 0 && self.listener.wants_info() {
                    let info = self.info(depth, pv_idx, score, None);
                    self.listener.info(&info);
                }
            }
            if self.id == 0 {
                if self
                    .limits
                    .soft_nodes
                    .is_some_and(|soft| self.shared.control.nodes() + self.unflushed >= soft)
                {
                    break;
                }
                if let Some(m) = self.limits.mate {
                    if mate_in(result.score).is_some_and(|n| n > 0 && n as u32 <= m) {
                        break;
                    }
                }
                stability.best_move_iterations = if result.best == best_before {
                    stability.best_move_iterations + 1
                } else {
                    0
                };
                stability.score_change = result.score - score_before;
                // The clock is read only where a plan uses it.
                let control = &self.shared.control;
                let time = &self.limits.time;
                if time.optimum().is_some()
                    && !control.pondering()
                    && !time.another_iteration(control.elapsed(), stability)
                {
                    break;
                }
            }
        }
        self.shared.control.add_nodes(self.unflushed);
        self.unflushed = 0;
        if result.ponder.is_none() {
            result.ponder = result
                .best
                .and_then(|best| self.reply_from_table(pos, best));
        }
        result
    }

    /// The table's move for the position after `best`, if it is legal
    /// there: the expected reply when the principal variation ended after
    /// one move (a depth-1 search, a line cut short by a table hit or by
    /// `stop`), so that a GUI can still ponder, as Stockfish does.
    fn reply_from_table(&self, pos: &Position, best: Move) -> Option<Move> {
        let mut after = pos.clone();
        after.play_unchecked(best);
        let mv = self.probe(&after)?.mv;
        (!mv.is_null() && after.is_legal(mv)).then_some(mv)
    }

    fn info(&self, depth: u32, pv_idx: usize, score: i32, bound: Option<Bound>) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            multipv: pv_idx + 1,
            score,
            bound,
            nodes: self.shared.control.nodes() + self.unflushed,
            time: self.shared.control.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.tb_hits(),
            pv: self.pv_line(),
        }
    }
}
