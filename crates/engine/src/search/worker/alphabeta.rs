//! The principal-variation search below the root: node pruning (reverse
//! futility, razoring, null move, ProbCut), internal iterative reduction,
//! move pruning (late-move, futility, static exchange, history), singular
//! extensions, late-move reductions, and what a cut-off teaches the
//! histories.
//!
//! Every margin and switch comes from [`params`](crate::search::params);
//! docs/STRENGTH.md records the match that kept or rejected each.

use super::{bound_of, Worker, INF, NO_EVAL, STACK_OFFSET, TRIED};
use crate::search::history::{piece_square, Lineage, NO_PIECE_SQUARE};
use crate::search::movepick::{is_noisy, Context, MovePicker};
use crate::search::params::*;
use crate::search::see::see_ge;
use crate::search::{from_tt, SearchTable, MATE, MATE_BOUND, MAX_PLY};
use hashmate::tt::Bound;
use hashmate::{Move, Position};
use std::time::Duration;

impl<T: SearchTable> Worker<'_, '_, T> {
    /// Alpha-beta search of `pos` to `depth` plies, `ply` plies below the
    /// root; `cut_node` when a fail-high is expected.
    pub(super) fn negamax(
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
            if self.is_draw(pos) {
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
                let s = from_tt(e.score, ply, pos.halfmove_clock());
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
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
        let eval = Self::tt_adjusted(static_eval, tt, ply, pos.halfmove_clock());
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
                        && from_tt(e.score, ply, pos.halfmove_clock()) < pc_beta
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

        let prev = self.lineage(ss);
        let ctx = Context {
            tt_move,
            killers: self.stack[ss].killers,
            counter: self.hist.counter(prev[0]),
            prev,
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
            // Asked only where a decision needs it (most moves at shallow
            // depth never do), and then at most once.
            let check_memo = std::cell::OnceCell::new();
            let gives_check = || *check_memo.get_or_init(|| pos.gives_check(mv));
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
                        if !gives_check() {
                            continue;
                        }
                    }
                    // Futility: a quiet move far below alpha at shallow
                    // depth.
                    if depth <= FP_DEPTH
                        && eval + FP_BASE + FP_MARGIN * depth <= alpha
                        && !gives_check()
                    {
                        if n_quiets < TRIED {
                            quiets[n_quiets] = mv;
                            n_quiets += 1;
                        }
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
                    let tt_score = from_tt(e.score, ply, pos.halfmove_clock());
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
            let mut score;
            if played == 1 {
                score = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false);
            } else {
                // Late-move reduction.
                let mut r = 0;
                let first = if pv_node { LMR_FIRST_PV } else { LMR_FIRST };
                if depth >= 3 && played > first && !in_check && quiet && !gives_check() {
                    r = i32::from(self.lmr[(depth as usize).min(63)][played.min(63)]);
                    r -= i32::from(pv_node);
                    if USE_LMR_IMPROVING {
                        r += i32::from(!improving);
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
        let bound = bound_of(best, old_alpha, alpha, beta);
        if USE_CORRECTION_HISTORY
            && !in_check
            && excluded.is_null()
            && (best_move.is_null() || !is_noisy(pos, best_move))
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
            && best.abs() < MATE_BOUND
        {
            // The table learns the whole error of the evaluation itself:
            // measured against the corrected one, an average of the
            // residuals would settle at half the error.
            self.hist.update_correction(pos, depth, raw_eval, best);
        }
        let root_excluding = root && !self.root_excluded.is_empty();
        if excluded.is_null() && !root_excluding && !self.limits.no_tt {
            self.store(pos, ply, best_move, best, raw_eval, depth, bound);
        }
        best
    }

    /// The continuation-history rows of a move at stack frame `ss`: the
    /// moves one and two plies before.
    #[inline]
    fn lineage(&self, ss: usize) -> Lineage {
        [
            self.stack[ss - 1].piece_square,
            self.stack[ss - 2].piece_square,
        ]
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
        let prev = self.lineage(ss);
        if quiet {
            let killers = &mut self.stack[ss].killers;
            if killers[0] != mv {
                killers[1] = killers[0];
                killers[0] = mv;
            }
            self.hist.set_counter(prev[0], mv);
            self.hist
                .update_quiet(pos, mv, piece_square(pos, mv), &prev, bonus);
            for &q in quiets {
                self.hist
                    .update_quiet(pos, q, piece_square(pos, q), &prev, -bonus);
            }
        } else {
            self.hist.update_capture(pos, mv, bonus);
        }
        for &n in noisies {
            self.hist.update_capture(pos, n, -bonus);
        }
    }
}
