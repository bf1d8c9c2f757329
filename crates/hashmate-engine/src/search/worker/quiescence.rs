//! Quiescence search: captures (and, in check, every evasion) until the
//! position is quiet, so that the static evaluation is never asked about
//! a position in the middle of an exchange.
//!
//! Stand-pat: the side to move may decline every capture, so the static
//! evaluation is a lower bound. Losing captures (by static exchange) are
//! left to the move picker to skip. The transposition table is probed and
//! stored at depth 0.

use super::{bound_of, Worker, INF, NO_EVAL};
use crate::search::movepick::MovePicker;
use crate::search::{from_tt, SearchTable, MATE, MAX_PLY};
use hashmate::tt::Bound;
use hashmate::{Move, Position};

impl<T: SearchTable> Worker<'_, '_, T> {
    /// The quiescence score of `pos` in the window (`alpha`, `beta`),
    /// `ply` plies below the root.
    pub(super) fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        self.seldepth = self.seldepth.max(ply);
        if self.stopped() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.eval(pos, ply);
        }
        // Draws by rule are draws here too, at the horizon.
        if self.is_draw(pos) {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let in_check = pos.is_check();
        let tt = self.probe(pos);
        if let Some(e) = tt {
            let s = from_tt(e.score, ply, pos.halfmove_clock());
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
            let raw = tt
                .and_then(Self::table_eval)
                .unwrap_or_else(|| self.eval(pos, ply));
            let stand = Self::tt_adjusted(self.corrected(pos, raw), tt, ply, pos.halfmove_clock());
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            (stand, raw)
        };
        let mut best_move = Move::NULL;
        let mut picker = MovePicker::quiescence(pos, tt.map_or(Move::NULL, |e| e.mv));
        while let Some(mv) = picker.next(pos, self.hist) {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            self.shared.tt.prefetch(child.key());
            self.follow(ply, pos, &child);
            self.keys.push(child.repetition_key());
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            self.keys.pop();
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
        if !self.stopped() {
            let bound = bound_of(best, old_alpha, alpha, beta);
            self.store(pos, ply, best_move, best, raw, 0, bound);
        }
        best
    }
}
