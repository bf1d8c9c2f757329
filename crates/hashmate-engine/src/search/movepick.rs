//! The staged move picker: moves in the order most likely to cause a
//! cut-off early, generated only when their stage is reached.
//!
//! 1. the transposition table's move (checked legal: a table entry may
//!    belong to another position with the same index bits);
//! 2. captures and promotions, best first by victim value and capture
//!    history; one whose static exchange loses material is set aside;
//! 3. the two killer moves of this ply and the counter move to the
//!    opponent's last move (checked legal and quiet);
//! 4. quiet moves by butterfly and continuation history;
//! 5. the captures set aside in 2, and under-promotions.
//!
//! A cut-off in stage 1 or 2 means the quiet moves are never generated.
//! Nothing is allocated: one list on the stack holds the captures, then
//! the quiet moves after them; the captures set aside are moved to its
//! front as they are found, so no second list is needed.
//! Quiescence uses stages 1 and 2 only (all stages when in check), and
//! never tries the captures set aside.

use super::history::{piece_square, Histories, Lineage, NO_LINEAGE};
use super::see::see_ge;
use crate::eval::SEE_VALUE;
use hashmate::movegen::GenMode;
use hashmate::moves::MAX_MOVES;
use hashmate::{Move, MoveList, Position, Role};

/// Where the picker is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// The table move is next.
    TtMove,
    /// Captures and promotions are to be generated.
    GenerateNoisy,
    /// Captures that do not lose material.
    GoodNoisy,
    /// The first killer move.
    Killer1,
    /// The second killer move.
    Killer2,
    /// The counter move.
    Counter,
    /// Quiet moves are to be generated.
    GenerateQuiet,
    /// Quiet moves.
    Quiet,
    /// Captures that lose material, and under-promotions.
    BadNoisy,
    /// No moves left.
    Done,
}

/// What the picker needs to know about the search around the node.
#[derive(Copy, Clone, Debug)]
pub struct Context {
    /// The table move, or `Move::NULL`.
    pub tt_move: Move,
    /// The killer moves of this ply.
    pub killers: [Move; 2],
    /// The counter move to the opponent's last move.
    pub counter: Move,
    /// The piece-squares of the moves before this node's.
    pub prev: Lineage,
}

/// Hands out the moves of one node, best first.
pub struct MovePicker {
    stage: Stage,
    ctx: Context,
    /// Quiescence outside check: noisy moves that do not lose, only.
    qsearch: bool,
    skip_quiets: bool,
    /// `[0, bad_end)`: noisy moves set aside; `[bad_end, next)`: moves
    /// handed out; `[next, len)`: moves of the current stage still to
    /// pick. The quiet moves are appended after the noisy ones.
    list: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    bad_end: usize,
    bad_next: usize,
}

impl MovePicker {
    /// A picker for the main search.
    pub fn new(pos: &Position, ctx: Context) -> MovePicker {
        Self::make(pos, ctx, false)
    }

    /// A picker for quiescence: the table move if it is a capture or
    /// promotion, then captures that do not lose material; all moves when
    /// in check.
    pub fn quiescence(pos: &Position, tt_move: Move) -> MovePicker {
        let ctx = Context {
            tt_move,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            prev: NO_LINEAGE,
        };
        Self::make(pos, ctx, !pos.is_check())
    }

    fn make(pos: &Position, mut ctx: Context, qsearch: bool) -> MovePicker {
        let tt = ctx.tt_move;
        if tt.is_null() || !pos.is_legal(tt) || (qsearch && !is_noisy(pos, tt)) {
            ctx.tt_move = Move::NULL;
        }
        MovePicker {
            stage: Stage::TtMove,
            ctx,
            qsearch,
            skip_quiets: false,
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
            bad_end: 0,
            bad_next: 0,
        }
    }

    /// The stage of the move last handed out.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Hand out no more quiet moves (after pruning decided the rest of the
    /// quiet moves cannot matter).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move, or `None` when all have been handed out.
    pub fn next(&mut self, pos: &Position, hist: &Histories) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    if !self.ctx.tt_move.is_null() {
                        return Some(self.ctx.tt_move);
                    }
                }
                Stage::GenerateNoisy => {
                    pos.append_moves(GenMode::Noisy, &mut self.list);
                    for (i, &m) in self.list.iter().enumerate() {
                        self.scores[i] = noisy_score(pos, m, hist);
                    }
                    self.next = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    while let Some(m) = self.pick() {
                        if m == self.ctx.tt_move {
                            continue;
                        }
                        let queen_promotion = m.promotion() == Some(Role::Queen);
                        let under_promotion = m.promotion().is_some() && !queen_promotion;
                        if under_promotion || (!queen_promotion && !see_ge(pos, m, 0)) {
                            // Set aside: into the front region, in the
                            // order found; what it displaces was handed
                            // out already.
                            self.list.as_mut_slice().swap(self.bad_end, self.next - 1);
                            self.bad_end += 1;
                            continue;
                        }
                        // Stay in this stage: `stage()` tells the caller
                        // where the move came from.
                        return Some(m);
                    }
                    self.stage = if self.qsearch {
                        Stage::Done
                    } else {
                        Stage::Killer1
                    };
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let m = match self.stage {
                        Stage::Killer1 => self.ctx.killers[0],
                        Stage::Killer2 => self.ctx.killers[1],
                        _ => self.ctx.counter,
                    };
                    let earlier = match self.stage {
                        Stage::Killer1 => false,
                        Stage::Killer2 => m == self.ctx.killers[0],
                        _ => m == self.ctx.killers[0] || m == self.ctx.killers[1],
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenerateQuiet,
                    };
                    if !self.skip_quiets && !earlier && self.is_fresh_quiet(pos, m) {
                        return Some(m);
                    }
                }
                Stage::GenerateQuiet => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    let first = self.list.len();
                    pos.append_moves(GenMode::Quiet, &mut self.list);
                    for (i, &m) in self.list.iter().enumerate().skip(first) {
                        let cur = piece_square(pos, m);
                        self.scores[i] = hist.quiet_score(pos, m, cur, &self.ctx.prev);
                    }
                    self.next = first;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if !self.skip_quiets {
                        while let Some(m) = self.pick() {
                            if m == self.ctx.tt_move
                                || m == self.ctx.killers[0]
                                || m == self.ctx.killers[1]
                                || m == self.ctx.counter
                            {
                                continue;
                            }
                            return Some(m);
                        }
                    }
                    self.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if self.bad_next < self.bad_end {
                        self.bad_next += 1;
                        return Some(self.list[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The best-scored move not yet handed out (selection sort, one step).
    fn pick(&mut self) -> Option<Move> {
        let n = self.list.len();
        if self.next >= n {
            return None;
        }
        // The first of the highest scores (ties keep generation order);
        // the running best stays in a register, and one slice check
        // replaces a bounds check per move.
        let rest = &self.scores[self.next..n];
        let (mut best, mut top) = (0, rest[0]);
        for (i, &s) in rest.iter().enumerate().skip(1) {
            if s > top {
                (best, top) = (i, s);
            }
        }
        let best = self.next + best;
        self.list.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        let m = self.list[self.next];
        self.next += 1;
        Some(m)
    }

    /// A killer or counter move worth trying here: legal, quiet, and not the
    /// table move.
    fn is_fresh_quiet(&self, pos: &Position, m: Move) -> bool {
        !m.is_null() && m != self.ctx.tt_move && !is_noisy(pos, m) && pos.is_legal(m)
    }
}

/// Is `mv` a capture or a promotion?
#[inline]
pub fn is_noisy(pos: &Position, mv: Move) -> bool {
    mv.promotion().is_some() || pos.is_capture(mv)
}

/// Most valuable victim first, then capture history.
fn noisy_score(pos: &Position, m: Move, hist: &Histories) -> i32 {
    let victim = if pos.is_en_passant(m) {
        SEE_VALUE[Role::Pawn.index()]
    } else {
        pos.role_at(m.to()).map_or(0, |r| SEE_VALUE[r.index()])
    };
    let promotion = match m.promotion() {
        Some(Role::Queen) => SEE_VALUE[Role::Queen.index()],
        _ => 0,
    };
    16 * (victim + promotion) + hist.capture(pos, m) / 8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(pos: &Position, ctx: Context) -> Vec<Move> {
        let h = Histories::new().unwrap();
        let mut p = MovePicker::new(pos, ctx);
        std::iter::from_fn(|| p.next(pos, &h)).collect()
    }

    fn ctx(tt: Move, killers: [Move; 2]) -> Context {
        Context {
            tt_move: tt,
            killers,
            counter: Move::NULL,
            prev: NO_LINEAGE,
        }
    }

    #[test]
    fn every_legal_move_exactly_once() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let legal = pos.legal_moves();
            // A legal table move, a bogus killer and a legal quiet killer.
            let tt = legal[legal.len() / 2];
            let bogus = Move::new(hashmate::Square::A1, hashmate::Square::H8, None);
            let quiet = pos.quiet_moves();
            let killer = quiet.as_slice().last().copied().unwrap_or(Move::NULL);
            let mut got = all(&pos, ctx(tt, [bogus, killer]));
            assert_eq!(got[0], tt, "{fen}");
            got.sort();
            let mut want = legal.to_vec();
            want.sort();
            assert_eq!(got, want, "{fen}");
        }
    }

    #[test]
    fn winning_captures_first_and_losing_ones_last() {
        // The rook on d5 hangs: Qxd5 comes first.
        let pos: Position = "4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        let got = all(&pos, ctx(Move::NULL, [Move::NULL; 2]));
        assert_eq!(got[0].to_string(), "d1d5");
        // Defended by a pawn, Qxd5 loses the queen for the rook: last.
        let pos: Position = "4k3/8/2p5/3r4/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        let got = all(&pos, ctx(Move::NULL, [Move::NULL; 2]));
        assert_eq!(got.last().unwrap().to_string(), "d1d5");
        assert_eq!(got.len(), pos.legal_moves().len());
    }

    #[test]
    fn quiescence_skips_quiets_and_losing_captures() {
        let pos: Position = "4k3/1p6/2p5/3n4/8/8/8/3QK3 w - - 0 1".parse().unwrap();
        let h = Histories::new().unwrap();
        let mut p = MovePicker::quiescence(&pos, Move::NULL);
        let got: Vec<String> = std::iter::from_fn(|| p.next(&pos, &h))
            .map(|m| m.to_string())
            .collect();
        // Qxd5 loses the queen for a knight (c6 defends): not tried.
        assert!(got.is_empty(), "{got:?}");
    }
}
