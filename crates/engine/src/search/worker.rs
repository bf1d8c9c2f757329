//! One search thread: iterative deepening at the root, the
//! principal-variation search below it, and quiescence.
//!
//! Positions are copied down the tree (copy-make); the keys of the line
//! are pushed and popped for repetition detection. Per ply the thread keeps
//! a [`Frame`]: the static evaluation (for "improving"), the move made and
//! its piece-square (for continuation history and counter moves), the
//! killers, and the move excluded by a singular-extension search.

use super::history::{piece_square, reserved, AllocError, Histories, PieceSquare, NO_PIECE_SQUARE};
use super::movepick::{is_noisy, Context, MovePicker, Stage};
use super::params::*;
use super::see::see_ge;
use super::timeman::Stability;
use super::{
    from_tt, mate_in, to_tt, Limits, Listener, SearchInfo, SearchResult, SearchTable, Shared,
    ThreadData, MATE, MATE_BOUND, MAX_PLY,
};
use crate::eval::{evaluate, PawnTable, SEE_VALUE};
use hashmate::game::repetitions;
use hashmate::moves::MAX_MOVES;
use hashmate::tt::{Bound, TtEntry};
use hashmate::{Move, Position};
use std::time::Duration;

/// Beyond any score.
const INF: i32 = MATE + 1;
/// "No static evaluation" (in check).
const NO_EVAL: i32 = -INF;
/// Frames before ply 0, so that `ply - 2` always exists.
const STACK_OFFSET: usize = 2;
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

/// Late-move reductions by depth and move number.
fn lmr_table() -> Box<[[i8; 64]; 64]> {
    let mut t = Box::new([[0i8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
            *r = v.clamp(0.0, 63.0) as i8;
        }
    }
    t
}

pub(super) struct Worker<'a, 'l, T: SearchTable> {
    id: usize,
    shared: &'a Shared<T>,
    limits: &'a Limits,
    listener: &'l mut dyn Listener,
    pawns: &'a mut PawnTable,
    hist: &'a mut Histories,
    /// The pawn table's counters when this search began.
    pawn_hits_before: u64,
    pawn_probes_before: u64,
    keys: Vec<u64>,
    stack: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Box<[[i8; 64]; 64]>,
    unflushed: u64,
    /// Nodes this thread has searched, in all.
    nodes: u64,
    seldepth: usize,
    root_moves: Vec<Move>,
    /// Nodes spent under each of `root_moves`, over all iterations.
    root_nodes: Vec<u64>,
    root_excluded: Vec<Move>,
    root_depth: u32,
    /// The best root move completed in the iteration under way (its
    /// reply and its score), for a search stopped before the iteration ends.
    partial: Option<(Move, Option<Move>, i32)>,
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
        let mut pv = reserved(MAX_PLY + 1)?;
        pv.resize(MAX_PLY + 1, [Move::NULL; MAX_PLY + 1]);
        // The root lists are reserved here, so that a running search never
        // allocates: a helper that did could abort the process under a
        // memory limit while the next helper is being started.
        let root_moves = reserved(MAX_MOVES)?;
        let root_nodes = reserved(MAX_MOVES)?;
        let root_excluded = reserved(MAX_MOVES)?;
        Ok(Worker {
            id,
            shared,
            limits,
            listener,
            pawn_hits_before: data.pawns.hits(),
            pawn_probes_before: data.pawns.probes(),
            pawns: &mut data.pawns,
            hist: &mut data.hist,
            keys: key_stack,
            stack: vec![Frame::default(); MAX_PLY + STACK_OFFSET + 4],
            pv,
            pv_len: [0; MAX_PLY + 1],
            lmr: lmr_table(),
            unflushed: 0,
            nodes: 0,
            seldepth: 0,
            root_moves,
            root_nodes,
            root_excluded,
            root_depth: 0,
            partial: None,
        })
    }

    #[inline]
    fn count_node(&mut self) {
        self.unflushed += 1;
        self.nodes += 1;
        if self.unflushed >= 1024 {
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

    /// Has the current position occurred before, within reach of the
    /// half-move clock? Inside the search one repetition is a draw.
    fn is_repetition(&self, pos: &Position) -> bool {
        repetitions(&self.keys, pos.halfmove_clock(), 2) >= 2
    }

    fn eval(&mut self, pos: &Position) -> i32 {
        evaluate(pos, self.pawns)
    }

    /// The static evaluation corrected by what searches learned.
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if USE_CORRECTION_HISTORY {
            (raw + self.hist.correction(pos)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
        } else {
            raw
        }
    }

    /// The static evaluation sharpened by a table score whose bound
    /// points the right way (see [`USE_TT_EVAL`]).
    fn tt_adjusted(eval: i32, tt: Option<TtEntry>, ply: usize) -> i32 {
        match tt {
            Some(e) if USE_TT_EVAL && eval != NO_EVAL => {
                let s = from_tt(e.score, ply);
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
        (HISTORY_BONUS_LINEAR * depth + HISTORY_BONUS_SCALE * depth * depth + HISTORY_BONUS_BASE)
            .clamp(1, HISTORY_BONUS_MAX)
    }

    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        self.seldepth = self.seldepth.max(ply);
        if self.stopped() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.eval(pos);
        }
        let pv_node = beta - alpha > 1;
        let in_check = pos.is_check();
        let tt = if USE_QSEARCH_TT && !self.limits.no_tt {
            self.shared.tt.probe(pos.key(), pos.lock())
        } else {
            None
        };
        if let Some(e) = tt {
            let s = from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut && !pv_node {
                return s;
            }
        }
        let old_alpha = alpha;
        let (mut best, raw) = if in_check {
            (-INF, NO_EVAL)
        } else {
            let raw = match tt {
                Some(e) => i32::from(e.eval),
                None => self.eval(pos),
            };
            let stand = Self::tt_adjusted(self.corrected(pos, raw), tt, ply);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            (stand, raw)
        };
        let mut best_move = Move::NULL;
        // Below this, a capture's victim cannot lift the score to alpha.
        let futility_base = best + QS_FUTILITY_MARGIN;
        let mut picker = MovePicker::quiescence(pos, tt.map_or(Move::NULL, |e| e.mv));
        while let Some(mv) = picker.next(pos, self.hist) {
            if USE_QS_FUTILITY && !in_check && mv.promotion().is_none() {
                let victim = if pos.is_en_passant(mv) {
                    SEE_VALUE[0]
                } else {
                    pos.role_at(mv.to()).map_or(0, |r| SEE_VALUE[r.index()])
                };
                // The check test last: it is the costly one.
                if futility_base + victim <= alpha && !pos.gives_check(mv) {
                    best = best.max(futility_base + victim);
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            self.shared.tt.prefetch(child.key());
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && best == -INF {
            return -MATE + ply as i32;
        }
        if USE_QSEARCH_TT && !self.limits.no_tt && !self.stopped() {
            let bound = if best >= beta {
                Bound::Lower
            } else if alpha > old_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                pos.key(),
                pos.lock(),
                best_move,
                to_tt(best, ply),
                raw.clamp(-MATE, MATE) as i16,
                0,
                bound,
            );
        }
        best
    }

    fn negamax(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_len[ply] = 0;
        if !root && (self.stopped() || ply >= MAX_PLY) {
            return if ply >= MAX_PLY { self.eval(pos) } else { 0 };
        }
        let in_check = pos.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.count_node();
        let ss = ply + STACK_OFFSET;
        let excluded = self.stack[ss].excluded;
        if !root {
            // The fifty-move rule is a draw unless the move that reached
            // 100 plies gave mate (checkmate takes precedence).
            if (pos.halfmove_clock() >= 100 && pos.has_legal_moves()) || self.is_repetition(pos) {
                return 0;
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let tt = if self.limits.no_tt || !excluded.is_null() {
            None
        } else {
            self.shared.tt.probe(pos.key(), pos.lock())
        };
        let tt_move = tt.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = tt {
            if !pv_node && !root && i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    if USE_TT_CUTOFF_HISTORY
                        && s >= beta
                        && !tt_move.is_null()
                        && !is_noisy(pos, tt_move)
                    {
                        let prev1 = self.stack[ss - 1].piece_square;
                        let prev2 = self.stack[ss - 2].piece_square;
                        let cur = piece_square(pos, tt_move);
                        let bonus = Self::history_bonus(depth);
                        self.hist
                            .update_quiet(pos, tt_move, cur, prev1, prev2, bonus);
                    }
                    return s;
                }
            }
        }

        let (raw_eval, static_eval) = if in_check {
            (NO_EVAL, NO_EVAL)
        } else {
            let raw = match tt {
                Some(e) => i32::from(e.eval),
                None => self.eval(pos),
            };
            (raw, self.corrected(pos, raw))
        };
        self.stack[ss].eval = static_eval;
        // What pruning compares with beta and alpha.
        let eval = Self::tt_adjusted(static_eval, tt, ply);
        let improving = USE_IMPROVING
            && !in_check
            && (self.stack[ss - 2].eval == NO_EVAL || static_eval > self.stack[ss - 2].eval);
        self.stack[ss + 1].killers = [Move::NULL; 2];
        self.stack[ss + 1].excluded = Move::NULL;
        self.stack[ss].double_extensions = if root {
            0
        } else {
            self.stack[ss - 1].double_extensions
        };

        let us = pos.side_to_move();
        if !pv_node && !in_check && !root && excluded.is_null() {
            // Reverse futility: far above beta at shallow depth.
            let margin = RFP_MARGIN * (depth - i32::from(improving));
            if depth <= RFP_DEPTH && eval - margin >= beta && beta.abs() < MATE_BOUND {
                return eval;
            }
            // Razoring: far below alpha, see whether captures can help.
            if USE_RAZORING && depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN * depth < alpha {
                let q = self.qsearch(pos, alpha, alpha + 1, ply);
                if q < alpha {
                    return q;
                }
            }
            // Null move, not after a null move, not in pawn endings
            // (zugzwang).
            if depth >= NMP_DEPTH
                && eval >= beta
                && !self.stack[ss - 1].mv.is_null()
                && pos.has_non_pawn_material(us)
            {
                let mut r = NMP_BASE + depth / NMP_DIVISOR;
                if USE_NMP_EVAL_REDUCTION {
                    r += ((eval - beta) / NMP_EVAL_DIVISOR).min(3);
                }
                let mut child = pos.clone();
                if child.play_null().is_ok() {
                    self.stack[ss].mv = Move::NULL;
                    self.stack[ss].piece_square = NO_PIECE_SQUARE;
                    self.keys.push(child.key());
                    let score =
                        -self.negamax(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
                    self.keys.pop();
                    if self.stopped() {
                        return 0;
                    }
                    if score >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
            // ProbCut: a capture that beats beta by a margin in a reduced
            // search refutes the previous move.
            if USE_PROBCUT && depth >= PROBCUT_DEPTH && beta.abs() < MATE_BOUND {
                let pc_beta = beta + PROBCUT_MARGIN;
                let tt_says_no = tt.is_some_and(|e| {
                    i32::from(e.depth) > depth - PROBCUT_REDUCTION
                        && from_tt(e.score, ply) < pc_beta
                });
                if !tt_says_no {
                    let mut picker = MovePicker::quiescence(pos, tt_move);
                    while let Some(mv) = picker.next(pos, self.hist) {
                        if !see_ge(pos, mv, pc_beta - static_eval) {
                            continue;
                        }
                        let mut child = pos.clone();
                        child.play_unchecked(mv);
                        self.stack[ss].mv = mv;
                        self.stack[ss].piece_square = piece_square(pos, mv);
                        self.keys.push(child.key());
                        let mut score = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1);
                        if score >= pc_beta {
                            score = -self.negamax(
                                &child,
                                -pc_beta,
                                -pc_beta + 1,
                                depth - PROBCUT_REDUCTION,
                                ply + 1,
                                !cut_node,
                            );
                        }
                        self.keys.pop();
                        if self.stopped() {
                            return 0;
                        }
                        if score >= pc_beta {
                            return score;
                        }
                    }
                }
            }
        }
        // Without a table move, this node is likely searched for the first
        // time: a shallower search finds a move to try first more cheaply.
        if USE_IIR && depth >= IIR_DEPTH && tt_move.is_null() && (pv_node || cut_node) {
            depth -= 1;
        }

        let prev1 = self.stack[ss - 1].piece_square;
        let prev2 = self.stack[ss - 2].piece_square;
        let ctx = Context {
            tt_move,
            killers: self.stack[ss].killers,
            counter: self.hist.counter(prev1),
            prev1,
            prev2,
        };
        let mut picker = MovePicker::new(pos, ctx);
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let old_alpha = alpha;
        let mut quiets = [Move::NULL; TRIED];
        let mut n_quiets = 0;
        let mut noisies = [Move::NULL; TRIED];
        let mut n_noisies = 0;
        let mut played = 0;
        let lmp_limit = LMP_BASE + LMP_SCALE * depth * depth;
        while let Some(mv) = picker.next(pos, self.hist) {
            if mv == excluded {
                continue;
            }
            if root && (!self.root_moves.contains(&mv) || self.root_excluded.contains(&mv)) {
                continue;
            }
            let quiet = !is_noisy(pos, mv);
            let cur = piece_square(pos, mv);
            let history = if quiet {
                self.hist.quiet_score(pos, mv, cur, prev1, prev2)
            } else {
                self.hist.capture(pos, mv)
            };
            let gives_check = pos.gives_check(mv);
            if root && self.id == 0 && self.shared.control.elapsed() > Duration::from_secs(1) {
                self.listener.currmove(self.root_depth, mv, played + 1);
            }

            // Pruning of moves that are unlikely to matter, once a move
            // that does not lose has been found.
            if !root && best > -MATE_BOUND {
                if quiet && !pv_node && !in_check {
                    let limit = if improving || !USE_IMPROVING {
                        lmp_limit
                    } else {
                        lmp_limit / 2
                    };
                    if depth <= LMP_DEPTH && n_quiets as i32 >= limit {
                        // Shallow: drop every remaining quiet at once.
                        // Deeper: spare the quiet checks, which can mate.
                        if depth <= LMP_ALL_QUIETS_DEPTH {
                            picker.skip_quiets();
                            continue;
                        }
                        if !gives_check {
                            continue;
                        }
                    }
                    // Futility: judged on the depth the move would get
                    // after its late-move reduction, when so switched.
                    let fp_depth = if USE_FP_LMR_DEPTH {
                        let r = i32::from(self.lmr[(depth as usize).min(63)][(played + 1).min(63)]);
                        (depth - r).max(1)
                    } else {
                        depth
                    };
                    if !gives_check
                        && fp_depth <= FP_DEPTH
                        && eval + FP_BASE + FP_MARGIN * fp_depth <= alpha
                    {
                        if n_quiets < TRIED {
                            quiets[n_quiets] = mv;
                            n_quiets += 1;
                        }
                        continue;
                    }
                    if USE_HISTORY_PRUNING
                        && depth <= HISTORY_PRUNE_DEPTH
                        && history < -HISTORY_PRUNE * depth
                    {
                        continue;
                    }
                }
                if USE_SEE_PRUNING && depth <= SEE_DEPTH {
                    let threshold = if quiet {
                        -SEE_QUIET * depth
                    } else {
                        -SEE_NOISY * depth * depth
                    };
                    if !see_ge(pos, mv, threshold) {
                        continue;
                    }
                }
            }

            // Singular extension: is the table move much better than
            // every other? Search the others, shallower, below its score.
            let mut extension = 0;
            if USE_SINGULAR
                && !root
                && mv == tt_move
                && excluded.is_null()
                && depth >= SINGULAR_DEPTH
            {
                if let Some(e) = tt {
                    let tt_score = from_tt(e.score, ply);
                    if i32::from(e.depth) >= depth - 3
                        && e.bound != Bound::Upper
                        && tt_score.abs() < MATE_BOUND
                    {
                        let s_beta = tt_score - SINGULAR_MARGIN * depth / 16;
                        let s_depth = (depth - 1) / 2;
                        self.stack[ss].excluded = mv;
                        let score = self.negamax(pos, s_beta - 1, s_beta, s_depth, ply, cut_node);
                        self.stack[ss].excluded = Move::NULL;
                        if self.stopped() {
                            return 0;
                        }
                        if score < s_beta {
                            extension = 1;
                            if !pv_node
                                && score < s_beta - DOUBLE_EXTENSION_MARGIN
                                && self.stack[ss].double_extensions < DOUBLE_EXTENSIONS
                            {
                                extension = 2;
                                self.stack[ss].double_extensions += 1;
                            }
                        } else if s_beta >= beta {
                            // Several moves beat beta: cut here.
                            return s_beta;
                        } else if tt_score >= beta {
                            extension = -1;
                        }
                    }
                }
            }

            let mut child = pos.clone();
            child.play_unchecked(mv);
            self.shared.tt.prefetch(child.key());
            self.keys.push(child.key());
            self.stack[ss].mv = mv;
            self.stack[ss].piece_square = cur;
            played += 1;
            let new_depth = depth - 1 + extension;
            let nodes_before = self.nodes;
            let mut score;
            if played == 1 {
                score = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false);
            } else {
                // Late-move reduction.
                let mut r = 0;
                let reducible = if USE_LMR_ADJUSTMENTS {
                    quiet || picker.stage() == Stage::BadNoisy
                } else {
                    quiet && !in_check && !gives_check
                };
                if depth >= 3 && reducible && played > if pv_node { 4 } else { 2 } {
                    r = i32::from(self.lmr[(depth as usize).min(63)][played.min(63)]);
                    if pv_node {
                        r -= 1;
                    }
                    if USE_LMR_ADJUSTMENTS {
                        r += i32::from(!improving) + i32::from(cut_node);
                        r -= i32::from(gives_check);
                        if quiet {
                            r -= history / LMR_HISTORY_DIVISOR;
                        }
                    } else {
                        if USE_LMR_HISTORY {
                            r -= history / LMR_HISTORY_DIVISOR;
                        }
                        if USE_LMR_CUT_NODE {
                            r += i32::from(cut_node);
                        }
                        if USE_LMR_IMPROVING {
                            r += i32::from(!improving);
                        }
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score =
                        -self.negamax(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.keys.pop();
            if root {
                if let Some(i) = self.root_moves.iter().position(|&m| m == mv) {
                    self.root_nodes[i] += self.nodes - nodes_before;
                }
            }
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    self.pv[ply][0] = mv;
                    let n = self.pv_len[ply + 1];
                    for j in 0..n {
                        self.pv[ply][j + 1] = self.pv[ply + 1][j];
                    }
                    self.pv_len[ply] = n + 1;
                    if root && self.root_excluded.is_empty() {
                        let reply = (n > 0).then(|| self.pv[0][1]);
                        self.partial = Some((mv, reply, score));
                    }
                    if score >= beta {
                        self.cutoff(
                            pos,
                            ss,
                            depth,
                            mv,
                            quiet,
                            &quiets[..n_quiets],
                            &noisies[..n_noisies],
                        );
                        break;
                    }
                }
            }
            if quiet && n_quiets < TRIED {
                quiets[n_quiets] = mv;
                n_quiets += 1;
            } else if !quiet && n_noisies < TRIED {
                noisies[n_noisies] = mv;
                n_noisies += 1;
            }
        }

        if played == 0 && best == -INF {
            return if !excluded.is_null() {
                alpha
            } else if in_check {
                -MATE + ply as i32
            } else {
                0
            };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if USE_CORRECTION_HISTORY
            && !in_check
            && excluded.is_null()
            && (best_move.is_null() || !is_noisy(pos, best_move))
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
            && best.abs() < MATE_BOUND
        {
            self.hist.update_correction(pos, depth, static_eval, best);
        }
        let root_excluding = root && !self.root_excluded.is_empty();
        if excluded.is_null() && !root_excluding && !self.limits.no_tt {
            self.shared.tt.store(
                pos.key(),
                pos.lock(),
                best_move,
                to_tt(best, ply),
                raw_eval.clamp(-MATE, MATE) as i16,
                depth.clamp(0, 255) as u8,
                bound,
            );
        }
        best
    }

    /// Learn from a cut-off by `mv`: reward it, punish the moves tried
    /// before it.
    #[allow(clippy::too_many_arguments)]
    fn cutoff(
        &mut self,
        pos: &Position,
        ss: usize,
        depth: i32,
        mv: Move,
        quiet: bool,
        quiets: &[Move],
        noisies: &[Move],
    ) {
        let bonus = Self::history_bonus(depth);
        let (prev1, prev2) = (
            self.stack[ss - 1].piece_square,
            self.stack[ss - 2].piece_square,
        );
        if quiet {
            let killers = &mut self.stack[ss].killers;
            if killers[0] != mv {
                killers[1] = killers[0];
                killers[0] = mv;
            }
            self.hist.set_counter(prev1, mv);
            self.hist
                .update_quiet(pos, mv, piece_square(pos, mv), prev1, prev2, bonus);
            for &q in quiets {
                self.hist
                    .update_quiet(pos, q, piece_square(pos, q), prev1, prev2, -bonus);
            }
        } else {
            self.hist.update_capture(pos, mv, bonus);
        }
        for &n in noisies {
            self.hist.update_capture(pos, n, -bonus);
        }
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
        self.root_nodes.clear();
        self.root_nodes.resize(self.root_moves.len(), 0);
        let mut result = SearchResult {
            best: self.root_moves.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pawn_hits: 0,
            pawn_probes: 0,
        };
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
            self.partial = None;
            let best_before = result.best;
            let score_before = result.score;
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let mut delta = ASPIRATION_DELTA;
                let (mut alpha, mut beta) = if depth as i32 >= ASPIRATION_DEPTH {
                    (prev_scores[pv_idx] - delta, prev_scores[pv_idx] + delta)
                } else {
                    (-INF, INF)
                };
                let score = loop {
                    let s = self.negamax(pos, alpha, beta, depth as i32, 0, false);
                    if self.stopped() && depth > 1 {
                        // A root move that completed this deeper iteration
                        // above the others beats the last iteration's
                        // choice (it was searched first, or failed low).
                        if USE_PARTIAL_ITERATION && pv_idx == 0 {
                            if let Some((mv, reply, s)) = self.partial {
                                result.best = Some(mv);
                                result.ponder = reply;
                                result.score = s;
                            }
                        }
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
                    if delta > ASPIRATION_MAX {
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
                if self.id == 0 {
                    let info = self.info(depth, pv_idx, score, None);
                    self.listener.info(&info);
                }
            }
            if self.id == 0 {
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
                stability.best_move_effort = self
                    .root_moves
                    .iter()
                    .position(|&m| Some(m) == result.best)
                    .map_or(0.0, |i| {
                        self.root_nodes[i] as f64 / self.nodes.max(1) as f64
                    });
                let control = &self.shared.control;
                if !control.pondering()
                    && !self
                        .limits
                        .time
                        .another_iteration(control.elapsed(), stability)
                {
                    break;
                }
            }
        }
        self.shared.control.add_nodes(self.unflushed);
        self.unflushed = 0;
        result.pawn_hits = self.pawns.hits() - self.pawn_hits_before;
        result.pawn_probes = self.pawns.probes() - self.pawn_probes_before;
        result
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
            pv: self.pv_line(),
        }
    }
}
