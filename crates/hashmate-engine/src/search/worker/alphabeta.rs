//! The principal-variation search below the root, in the steps of
//! [`Worker::negamax`]: the horizon and draws, the transposition table,
//! the corrected static evaluation, node pruning (reverse futility, null
//! move, ProbCut), internal iterative reduction, then the move loop — move
//! pruning (late-move, futility, static exchange), singular extensions,
//! late-move reductions — and at the end what the node teaches the
//! histories and the table.
//!
//! Every margin comes from [`params`](crate::search::params);
//! docs/STRENGTH.md records the match that kept each.

use super::{bound_of, Worker, INF, NO_EVAL, STACK_OFFSET, TRIED};
use crate::search::history::{piece_square, Lineage, NO_PIECE_SQUARE};
use crate::search::movepick::{is_noisy, Context, MovePicker};
use crate::search::params::*;
use crate::search::see::see_ge;
use crate::search::{from_tt, SearchTable, MATE, MATE_BOUND, MAX_PLY};
use hashmate::tt::{Bound, TtEntry};
use hashmate::{Move, Position};
use std::time::Duration;

/// What a node knows once it has looked at the table and its evaluation,
/// before its moves are searched.
#[derive(Clone, Copy, Default)]
struct Node {
    ply: usize,
    /// The node's frame in `Worker::stack`.
    ss: usize,
    depth: i32,
    pv: bool,
    root: bool,
    cut: bool,
    in_check: bool,
    /// The move a singular search leaves out (`Move::NULL` if none).
    excluded: Move,
    /// The table's entry for the position.
    tt: Option<TtEntry>,
    /// The corrected static evaluation (`NO_EVAL` in check).
    static_eval: i32,
    /// What pruning compares with alpha and beta: the static evaluation
    /// sharpened by the table's score.
    eval: i32,
    /// The static evaluation rose since two plies before.
    improving: bool,
}

/// The moves a node searched (or pruned as futile) before the current
/// one, quiet and noisy apart: a cut-off punishes their histories.
struct Tried {
    quiets: [Move; TRIED],
    n_quiets: usize,
    noisies: [Move; TRIED],
    n_noisies: usize,
}

impl Default for Tried {
    fn default() -> Self {
        Tried {
            quiets: [Move::NULL; TRIED],
            n_quiets: 0,
            noisies: [Move::NULL; TRIED],
            n_noisies: 0,
        }
    }
}

impl Tried {
    /// Remember `mv` (the first `TRIED` of each kind are kept).
    #[inline]
    fn push(&mut self, mv: Move, quiet: bool) {
        if quiet && self.n_quiets < TRIED {
            self.quiets[self.n_quiets] = mv;
            self.n_quiets += 1;
        } else if !quiet && self.n_noisies < TRIED {
            self.noisies[self.n_noisies] = mv;
            self.n_noisies += 1;
        }
    }
}

/// What move pruning decides for one move.
enum Pruned {
    /// Search it.
    No,
    /// Skip it.
    Skip,
    /// Skip it, and count it among the quiet moves tried (its history is
    /// punished at a cut-off).
    SkipTried,
    /// Skip it and every quiet move after it.
    SkipQuiets,
}

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
        // 1. The horizon, draws and mate distance.
        if !root && (self.stopped() || ply >= MAX_PLY) {
            return if ply >= MAX_PLY {
                self.eval(pos, ply)
            } else {
                0
            };
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
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // 2. The transposition table.
        // (Not in a singular search, whose result is not the node's.)
        let tt = excluded.is_null().then(|| self.probe(pos)).flatten();
        if !pv_node && !root {
            if let Some(s) = tt.and_then(|e| Self::table_cutoff(e, pos, ply, depth, alpha, beta)) {
                return s;
            }
        }

        // 2b. The endgame tablebases, after a capture or a pawn move.
        if !root && excluded.is_null() {
            if let Some(s) = self.probe_tablebase(pos, depth, ply, alpha, beta) {
                return s;
            }
        }

        // 3. The static evaluation, corrected by what searches learned.
        let (pv, cut) = (pv_node, cut_node);
        let (mut node, raw_eval) = self.evaluate_node(
            pos,
            Node {
                ply,
                ss,
                depth,
                pv,
                root,
                cut,
                in_check,
                excluded,
                tt,
                ..Node::default()
            },
        );

        // 4. Node pruning: reverse futility, null move, ProbCut.
        if !pv_node && !in_check && !root && excluded.is_null() {
            if let Some(s) = self.prune_node(pos, &node, beta) {
                return s;
            }
        }
        // 5. Internal iterative reduction: without a table move this node
        // is likely new, and a shallower search finds a first move cheaper.
        let tt_move = tt.map_or(Move::NULL, |e| e.mv);
        if depth >= IIR_DEPTH.get() && tt_move.is_null() && (pv_node || cut_node) {
            node.depth -= 1;
        }

        // 6. The moves.
        let mut picker = MovePicker::new(pos, self.ordering_context(ss, tt_move));
        let (mut best, mut best_move, old_alpha) = (-INF, Move::NULL, alpha);
        let mut tried = Tried::default();
        let mut played = 0;
        while let Some(mv) = picker.next(pos, self.hist) {
            if mv == excluded || (root && self.left_out_at_root(mv)) {
                continue;
            }
            let quiet = !is_noisy(pos, mv);
            // Asked only where a decision needs it (most moves at shallow
            // depth never do), and then at most once.
            let check_memo = std::cell::OnceCell::new();
            let gives_check = || *check_memo.get_or_init(|| pos.gives_check(mv));
            if root {
                self.report_currmove(mv, played + 1);
            }
            if !root && best > -MATE_BOUND {
                match Self::prune_move(pos, &node, mv, quiet, alpha, tried.n_quiets, &gives_check) {
                    Pruned::No => {}
                    Pruned::Skip => continue,
                    Pruned::SkipQuiets => {
                        picker.skip_quiets();
                        continue;
                    }
                    Pruned::SkipTried => {
                        tried.push(mv, true);
                        continue;
                    }
                }
            }
            let extension = match self.singular_extension(pos, &node, mv, beta) {
                Ok(e) => e,
                Err(score) => return score,
            };

            let child = self.make_move(pos, ss, mv);
            played += 1;
            let new_depth = node.depth - 1 + extension;
            let score = if played == 1 {
                // The first move of an expected cut node is expected to
                // fail high, so its child to fail low, and the other way
                // round; a PV node's first child is a PV node (row 119).
                let child_cut = !pv_node && !node.cut;
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, child_cut)
            } else {
                let r = self.reduction(&node, played, quiet, &gives_check, new_depth);
                self.search_later_move(&child, &node, alpha, beta, new_depth, r)
            };
            self.keys.pop();
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        self.cutoff(pos, ss, node.depth, mv, quiet, &tried);
                        break;
                    }
                }
            }
            tried.push(mv, quiet);
        }

        // 7. No move: mate, stalemate, or every move left out.
        if played == 0 && best == -INF {
            return Self::no_move_score(&node, alpha);
        }
        // 8. What the node teaches: the correction history and the table.
        let bound = bound_of(best, old_alpha, alpha, beta);
        self.learn(pos, &node, best, best_move, bound, raw_eval);
        best
    }

    /// The static evaluation of the node (from the table's entry when it
    /// has one), corrected, and what follows from it: the score pruning
    /// compares, the improving flag; the children's frames are readied.
    /// Returns the node and the raw evaluation (`NO_EVAL` in check).
    #[inline]
    fn evaluate_node(&mut self, pos: &Position, mut node: Node) -> (Node, i32) {
        let ss = node.ss;
        let (raw_eval, static_eval) = if node.in_check {
            (NO_EVAL, NO_EVAL)
        } else {
            let raw = node
                .tt
                .and_then(Self::table_eval)
                .unwrap_or_else(|| self.eval(pos, node.ply));
            (raw, self.corrected(pos, raw))
        };
        self.stack[ss].eval = static_eval;
        node.static_eval = static_eval;
        node.eval = Self::tt_adjusted(static_eval, node.tt, node.ply, pos.halfmove_clock());
        node.improving = !node.in_check
            && (self.stack[ss - 2].eval == NO_EVAL || static_eval > self.stack[ss - 2].eval);
        self.stack[ss + 1].killers = [Move::NULL; 2];
        self.stack[ss + 1].excluded = Move::NULL;
        self.stack[ss].double_extensions = if node.root {
            0
        } else {
            self.stack[ss - 1].double_extensions
        };
        (node, raw_eval)
    }

    /// The score of a node where no move was searched: the window's
    /// bottom when the only move was left out (singular search), mate in
    /// check, stalemate otherwise.
    #[inline]
    fn no_move_score(node: &Node, alpha: i32) -> i32 {
        if !node.excluded.is_null() {
            alpha
        } else if node.in_check {
            -MATE + node.ply as i32
        } else {
            0
        }
    }

    /// Play `mv` from `pos` as the move of stack frame `ss`: the child
    /// position, its key pushed for repetitions and its table slot
    /// prefetched. The caller pops the key when the child is done.
    #[inline]
    fn make_move(&mut self, pos: &Position, ss: usize, mv: Move) -> Position {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        self.shared.tt.prefetch(child.key());
        self.follow(ss - STACK_OFFSET, pos, &child);
        self.keys.push(child.repetition_key());
        self.stack[ss].mv = mv;
        self.stack[ss].piece_square = piece_square(pos, mv);
        child
    }

    /// What the move picker orders by at stack frame `ss`.
    #[inline]
    fn ordering_context(&self, ss: usize, tt_move: Move) -> Context {
        let prev = self.lineage(ss);
        Context {
            tt_move,
            killers: self.stack[ss].killers,
            counter: self.hist.counter(prev[0]),
            prev,
        }
    }

    /// The tablebase result of a node that ends it: exact, or a bound
    /// beyond the window (stored in the table either way). Probed only
    /// where the fifty-move counter is zero — the position was just
    /// reached by a capture or a pawn move, so the table's result holds
    /// — with few enough pieces, no castling rights, and at the limit of
    /// pieces deep enough.
    fn probe_tablebase(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let tb = self.tb.as_ref()?;
        let pieces = pos.occupied().count();
        if pos.halfmove_clock() != 0
            || pieces > tb.limit()
            || (pieces == tb.limit() && depth < tb.probe_depth)
            || !pos.castling().is_empty()
        {
            return None;
        }
        let wdl = match tb.tables.wdl(pos) {
            Ok(w) => w.to_i32(),
            // A partial set (some five-piece tables, say) is common: a
            // table not there is no error.
            Err(hashmate_syzygy::ProbeError::MissingTable(_)) => return None,
            Err(e) => {
                self.shared.tb_failed(e.to_string());
                return None;
            }
        };
        self.shared.tb_hit();
        let (score, bound) = match tb.score(wdl, ply) {
            (s, None) => (s, Bound::Exact),
            (s, Some(true)) => (s, Bound::Lower),
            (s, Some(false)) => (s, Bound::Upper),
        };
        let decides = match bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        if !decides {
            return None;
        }
        let stored = (depth + 6).min(MAX_PLY as i32 - 1);
        self.store(pos, ply, Move::NULL, score, NO_EVAL, stored, bound);
        Some(score)
    }

    /// A root move that `searchmoves` leaves out, or that an earlier
    /// principal variation of MultiPV took.
    #[inline]
    fn left_out_at_root(&self, mv: Move) -> bool {
        !self.root_moves.contains(&mv) || self.root_excluded.contains(&mv)
    }

    /// `currmove` for the GUI, from the main thread after the first second.
    #[inline]
    fn report_currmove(&mut self, mv: Move, number: usize) {
        if self.id == 0
            && self.listener.wants_info()
            && self.shared.control.elapsed() > Duration::from_secs(1)
        {
            self.listener.currmove(self.root_depth, mv, number);
        }
    }

    /// A table entry's score when it decides the node: deep enough, and
    /// its bound on the right side of the window.
    #[inline]
    fn table_cutoff(
        e: TtEntry,
        pos: &Position,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if i32::from(e.depth) < depth {
            return None;
        }
        let s = from_tt(e.score, ply, pos.halfmove_clock());
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        cut.then_some(s)
    }

    /// Node pruning at a non-PV node not in check: the score to return
    /// when reverse futility, the null move or ProbCut decides the node.
    #[inline]
    fn prune_node(&mut self, pos: &Position, node: &Node, beta: i32) -> Option<i32> {
        let (depth, eval, ss, ply) = (node.depth, node.eval, node.ss, node.ply);
        // Reverse futility: far above beta at shallow depth.
        let margin = RFP_MARGIN.get() * (depth - i32::from(node.improving));
        if depth <= RFP_DEPTH.get() && eval - margin >= beta && beta.abs() < MATE_BOUND {
            return Some(eval);
        }
        // Null move, not after a null move, not in pawn endings (zugzwang).
        if depth >= NMP_DEPTH.get()
            && eval >= beta
            && !self.stack[ss - 1].mv.is_null()
            && pos.has_non_pawn_material(pos.side_to_move())
        {
            let r = NMP_BASE.get()
                + depth / NMP_DIVISOR.get()
                + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(3);
            let mut child = pos.clone();
            if child.play_null().is_ok() {
                self.follow(ply, pos, &child);
                self.stack[ss].mv = Move::NULL;
                self.stack[ss].piece_square = NO_PIECE_SQUARE;
                self.keys.push(child.repetition_key());
                let score =
                    -self.negamax(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, !node.cut);
                self.keys.pop();
                if self.stopped() {
                    return Some(0);
                }
                if score >= beta {
                    return Some(if score >= MATE_BOUND { beta } else { score });
                }
            }
        }
        // ProbCut: a capture that beats beta by a margin in a reduced
        // search refutes the previous move.
        if depth < PROBCUT_DEPTH.get() || beta.abs() >= MATE_BOUND {
            return None;
        }
        let pc_beta = beta + PROBCUT_MARGIN.get();
        let tt_says_no = node.tt.is_some_and(|e| {
            i32::from(e.depth) > depth - PROBCUT_REDUCTION.get()
                && from_tt(e.score, ply, pos.halfmove_clock()) < pc_beta
        });
        if tt_says_no {
            return None;
        }
        let tt_move = node.tt.map_or(Move::NULL, |e| e.mv);
        let mut picker = MovePicker::quiescence(pos, tt_move);
        while let Some(mv) = picker.next(pos, self.hist) {
            if !see_ge(pos, mv, pc_beta - node.static_eval) {
                continue;
            }
            let child = self.make_move(pos, ss, mv);
            let mut score = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1);
            if score >= pc_beta {
                let d = depth - PROBCUT_REDUCTION.get();
                score = -self.negamax(&child, -pc_beta, -pc_beta + 1, d, ply + 1, !node.cut);
            }
            self.keys.pop();
            if self.stopped() {
                return Some(0);
            }
            if score >= pc_beta {
                return Some(score);
            }
        }
        None
    }

    /// Move pruning, once a move that does not lose was found: late-move
    /// and futility pruning of quiet moves, static-exchange pruning of all.
    #[inline]
    fn prune_move(
        pos: &Position,
        node: &Node,
        mv: Move,
        quiet: bool,
        alpha: i32,
        quiets_tried: usize,
        gives_check: &impl Fn() -> bool,
    ) -> Pruned {
        let depth = node.depth;
        if quiet && !node.pv && !node.in_check {
            let lmp_limit = LMP_BASE.get() + LMP_SCALE.get() * depth * depth;
            let limit = if node.improving {
                lmp_limit
            } else {
                lmp_limit / 2
            };
            if depth <= LMP_DEPTH.get() && quiets_tried as i32 >= limit {
                // Shallow: drop every remaining quiet at once. Deeper:
                // spare the quiet checks, which can mate.
                if depth <= LMP_ALL_QUIETS_DEPTH.get() {
                    return Pruned::SkipQuiets;
                }
                if !gives_check() {
                    return Pruned::Skip;
                }
            }
            // Futility: a quiet move far below alpha at shallow depth.
            if depth <= FP_DEPTH.get()
                && node.eval + FP_BASE.get() + FP_MARGIN.get() * depth <= alpha
                && !gives_check()
            {
                return Pruned::SkipTried;
            }
        }
        if depth <= SEE_DEPTH.get() {
            let threshold = if quiet {
                -SEE_QUIET.get() * depth
            } else {
                -SEE_NOISY.get() * depth * depth
            };
            if !see_ge(pos, mv, threshold) {
                return Pruned::Skip;
            }
        }
        Pruned::No
    }

    /// Singular extension of the table move: is it much better than every
    /// other? The others are searched, shallower, below its score. `Ok`
    /// holds the extension (−1 to 2), `Err` the score that ends the node
    /// (several moves beat beta, or the search was stopped).
    #[inline]
    fn singular_extension(
        &mut self,
        pos: &Position,
        node: &Node,
        mv: Move,
        beta: i32,
    ) -> Result<i32, i32> {
        let (depth, ss) = (node.depth, node.ss);
        let Some(e) = node.tt else {
            return Ok(0);
        };
        if node.root || mv != e.mv || !node.excluded.is_null() || depth < SINGULAR_DEPTH.get() {
            return Ok(0);
        }
        let tt_score = from_tt(e.score, node.ply, pos.halfmove_clock());
        if i32::from(e.depth) < depth - 3 || e.bound == Bound::Upper || tt_score.abs() >= MATE_BOUND
        {
            return Ok(0);
        }
        let s_beta = tt_score - SINGULAR_MARGIN.get() * depth / 16;
        let s_depth = (depth - 1) / 2;
        self.stack[ss].excluded = mv;
        let score = self.negamax(pos, s_beta - 1, s_beta, s_depth, node.ply, node.cut);
        self.stack[ss].excluded = Move::NULL;
        if self.stopped() {
            return Err(0);
        }
        if score < s_beta {
            if !node.pv
                && score < s_beta - DOUBLE_EXTENSION_MARGIN.get()
                && self.stack[ss].double_extensions < DOUBLE_EXTENSIONS.get()
            {
                self.stack[ss].double_extensions += 1;
                return Ok(2);
            }
            Ok(1)
        } else if s_beta >= beta {
            // Several moves beat beta: cut here.
            Err(s_beta)
        } else if tt_score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// The late-move reduction of the `played`-th move: from the log-log
    /// table for late quiet moves that give no check, a ply less at PV
    /// nodes, a ply more when not improving and a ply more at an expected
    /// cut node (docs/STRENGTH.md row 119).
    #[inline]
    fn reduction(
        &self,
        node: &Node,
        played: usize,
        quiet: bool,
        gives_check: &impl Fn() -> bool,
        new_depth: i32,
    ) -> i32 {
        let depth = node.depth;
        let first = if node.pv {
            LMR_FIRST_PV.get()
        } else {
            LMR_FIRST.get()
        } as usize;
        if depth < 3 || played <= first || node.in_check || !quiet || gives_check() {
            return 0;
        }
        let mut r = i32::from(self.lmr[(depth as usize).min(63)][played.min(63)]);
        r -= i32::from(node.pv);
        r += i32::from(!node.improving);
        r += i32::from(node.cut);
        r.clamp(0, (new_depth - 1).max(0))
    }

    /// A move after the first: a null-window search reduced by `r`, again
    /// at full depth if it beat alpha, and with the full window if it
    /// landed inside it (principal-variation search).
    #[inline]
    fn search_later_move(
        &mut self,
        child: &Position,
        node: &Node,
        alpha: i32,
        beta: i32,
        new_depth: i32,
        r: i32,
    ) -> i32 {
        let ply = node.ply + 1;
        let mut score = -self.negamax(child, -alpha - 1, -alpha, new_depth - r, ply, true);
        if score > alpha && r > 0 {
            score = -self.negamax(child, -alpha - 1, -alpha, new_depth, ply, !node.cut);
        }
        if score > alpha && score < beta {
            score = -self.negamax(child, -beta, -alpha, new_depth, ply, false);
        }
        score
    }

    /// `mv` leads the principal variation at `ply`, followed by the line
    /// below it.
    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = mv;
        let n = self.pv_len[ply + 1];
        for j in 0..n {
            self.pv[ply][j + 1] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = n + 1;
    }

    /// What a finished node teaches: the correction history learns the
    /// evaluation's error where the result is a trustworthy bound on the
    /// right side of it, and the table stores the result.
    #[inline]
    fn learn(
        &mut self,
        pos: &Position,
        node: &Node,
        best: i32,
        best_move: Move,
        bound: Bound,
        raw_eval: i32,
    ) {
        let static_eval = node.static_eval;
        if !node.in_check
            && node.excluded.is_null()
            && (best_move.is_null() || !is_noisy(pos, best_move))
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
            && best.abs() < MATE_BOUND
        {
            // The table learns the whole error of the evaluation itself:
            // measured against the corrected one, an average of the
            // residuals would settle at half the error.
            self.hist.update_correction(pos, node.depth, raw_eval, best);
        }
        let root_excluding = node.root && !self.root_excluded.is_empty();
        if node.excluded.is_null() && !root_excluding {
            self.store(pos, node.ply, best_move, best, raw_eval, node.depth, bound);
        }
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
    fn cutoff(
        &mut self,
        pos: &Position,
        ss: usize,
        depth: i32,
        mv: Move,
        quiet: bool,
        tried: &Tried,
    ) {
        let quiets = &tried.quiets[..tried.n_quiets];
        let noisies = &tried.noisies[..tried.n_noisies];
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
