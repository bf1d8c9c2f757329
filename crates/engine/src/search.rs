//! Alpha-beta search with the transposition table at its centre.
//!
//! Iterative deepening with aspiration windows; principal-variation search;
//! quiescence over captures and promotions, skipping captures that lose
//! material by static exchange evaluation; the transposition table for
//! cut-offs and for the first move tried (mate scores stored relative to
//! the node); killer moves and a history table for quiet moves; null-move
//! pruning and late-move reductions (not in check, not in pawn endings);
//! check extensions; draws by repetition (from the key history, comparing
//! keys only, back to the last irreversible move) and by the fifty-move
//! rule; MultiPV and `searchmoves` at the root.
//!
//! Several threads search the same position and share only the table and
//! the stop flag (lazy SMP): what one thread stores, the others find.
//! Reporting goes through [`Listener`]; the library prints nothing.

use crate::eval::{evaluate, PawnTable, SEE_VALUE};
use hashmate::game::repetitions;
use hashmate::tt::{Bound, TranspositionTable, TtEntry};
use hashmate::{attacks, Bitboard, Color, Move, MoveList, Position, Role};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// What the search needs of a transposition table: the engine's
/// [`TranspositionTable`], or a research table of the collision study. The
/// engine's table ignores `lock`; the study's tables keep it beside each
/// entry to count false hits.
pub trait SearchTable: Sync {
    /// The entry stored for `key`, if any.
    fn probe(&self, key: u64, lock: u64) -> Option<TtEntry>;
    /// Store a result for `key`.
    #[allow(clippy::too_many_arguments)]
    fn store(&self, key: u64, lock: u64, mv: Move, score: i16, eval: i16, depth: u8, bound: Bound);
    /// Hint the CPU to fetch `key`'s entry.
    fn prefetch(&self, _key: u64) {}
    /// A new search begins (entries age).
    fn new_search(&self);
    /// Permille of the table in use, for UCI `hashfull`.
    fn hashfull(&self) -> u32;
}

impl SearchTable for TranspositionTable {
    #[inline(always)]
    fn probe(&self, key: u64, _lock: u64) -> Option<TtEntry> {
        TranspositionTable::probe(self, key)
    }
    #[inline(always)]
    fn store(
        &self,
        key: u64,
        _lock: u64,
        mv: Move,
        score: i16,
        eval: i16,
        depth: u8,
        bound: Bound,
    ) {
        TranspositionTable::store(self, key, mv, score, eval, depth, bound)
    }
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        TranspositionTable::prefetch(self, key)
    }
    fn new_search(&self) {
        TranspositionTable::new_search(self)
    }
    fn hashfull(&self) -> u32 {
        TranspositionTable::hashfull(self)
    }
}

/// Score of being mated now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
const INF: i32 = MATE + 1;
/// Deepest ply searched.
pub const MAX_PLY: usize = 128;
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// What limits a search. `None` everywhere means "until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop starting new iterations after this long.
    pub soft_time: Option<Duration>,
    /// Stop in the middle of an iteration after this long.
    pub hard_time: Option<Duration>,
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
pub struct Shared<T = TranspositionTable> {
    pub tt: T,
    pub stop: AtomicBool,
    /// While set, time limits are not applied (UCI `go ponder`).
    pub pondering: AtomicBool,
    nodes: AtomicU64,
    created: Instant,
    /// Milliseconds after `created` at which the clock started.
    clock_start_ms: AtomicU64,
}

impl<T> Shared<T> {
    pub fn new(tt: T) -> Shared<T> {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            created: Instant::now(),
            clock_start_ms: AtomicU64::new(0),
        }
    }

    /// Restart the clock (at the start of a search and on `ponderhit`).
    pub fn start_clock(&self) {
        self.clock_start_ms
            .store(self.created.elapsed().as_millis() as u64, Relaxed);
    }

    /// Time since the clock was (re)started.
    pub fn elapsed(&self) -> Duration {
        let now = self.created.elapsed().as_millis() as u64;
        Duration::from_millis(now.saturating_sub(self.clock_start_ms.load(Relaxed)))
    }

    /// Nodes searched by all threads in the current search.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// One `info` report.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    /// Centipawns, or ±(MATE − plies) for mates.
    pub score: i32,
    /// `Some(Lower/Upper)` for an aspiration fail, `None` when exact.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// Receives progress reports from the main search thread.
pub trait Listener {
    fn info(&mut self, info: &SearchInfo);
}

impl Listener for () {
    fn info(&mut self, _: &SearchInfo) {}
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pawn_hits: u64,
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

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Does `mv` win at least `threshold` by static exchange on its
/// destination? Both sides recapture with their least valuable attacker and
/// may stop when continuing would lose; x-ray attackers behind a capturer
/// join in. Pins are ignored, as usual for SEE.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.is_castling() {
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let captured = if pos.is_en_passant(mv) {
        SEE_VALUE[0]
    } else {
        pos.role_at(to).map_or(0, |r| SEE_VALUE[r.index()])
    };
    // `balance` is what the side to move has banked if the exchange stops
    // now, minus the threshold; each step asks whether the opponent can
    // profitably continue.
    let mut balance = captured - threshold;
    if balance < 0 {
        return false;
    }
    let Some(mover) = pos.role_at(from) else {
        return false;
    };
    balance = SEE_VALUE[mover.index()] - balance;
    if balance <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from).with(to);
    if pos.is_en_passant(mv) {
        occ = occ - Bitboard::from_square(to).south_for(pos.side_to_move());
    }
    let rq = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let bq = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let mut attackers = pos.attackers_to(to, occ);
    let mut side = pos.side_to_move();
    let mut win = true;
    loop {
        side = !side;
        attackers &= occ;
        let mine = attackers & pos.by_color(side);
        if mine.is_empty() {
            break;
        }
        win = !win;
        let Some((role, sq)) = Role::ALL
            .iter()
            .find_map(|&r| (mine & pos.by_role(r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        if role == Role::King {
            // The king may only capture last.
            if (attackers & pos.by_color(!side)).any() {
                win = !win;
            }
            break;
        }
        balance = SEE_VALUE[role.index()] - balance;
        if balance < i32::from(win) {
            break;
        }
        occ = occ.without(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occ) & bq;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occ) & rq;
        }
    }
    win
}

const LMR_TABLE: [[u8; 64]; 64] = {
    let mut t = [[0u8; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut m = 1;
        while m < 64 {
            // ≈ 0.5 + ln(d)·ln(m)/2.25, by integer log2 approximations.
            let ld = 64 - (d as u64).leading_zeros();
            let lm = 64 - (m as u64).leading_zeros();
            let r = (ld * lm * 100 / 2 / 225 + 50) / 100;
            t[d][m] = r as u8;
            m += 1;
        }
        d += 1;
    }
    t
};

struct Worker<'a, T: SearchTable> {
    id: usize,
    shared: &'a Shared<T>,
    limits: &'a Limits,
    pawns: PawnTable,
    keys: Vec<u64>,
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Box<[[[i32; 64]; 64]; 2]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    root_moves: Vec<Move>,
    excluded: Vec<Move>,
}

impl<'a, T: SearchTable> Worker<'a, T> {
    fn new(id: usize, shared: &'a Shared<T>, limits: &'a Limits, keys: &[u64]) -> Worker<'a, T> {
        Worker {
            id,
            shared,
            limits,
            pawns: crate::eval::new_pawn_table(),
            keys: keys.to_vec(),
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            root_moves: Vec::new(),
            excluded: Vec::new(),
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 1024 {
            let total = self.shared.nodes.fetch_add(self.unflushed, Relaxed) + self.unflushed;
            self.unflushed = 0;
            if self.id == 0 {
                if let Some(n) = self.limits.nodes {
                    if total >= n {
                        self.shared.stop.store(true, Relaxed);
                    }
                }
                if let Some(t) = self.limits.hard_time {
                    if !self.shared.pondering.load(Relaxed) && self.shared.elapsed() >= t {
                        self.shared.stop.store(true, Relaxed);
                    }
                }
            }
        }
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.shared.stop.load(Relaxed)
    }

    /// Has the current position (the last key) occurred before, within
    /// reach of the half-move clock? Inside the search one repetition is
    /// scored as a draw.
    fn is_repetition(&self, pos: &Position) -> bool {
        repetitions(&self.keys, pos.halfmove_clock(), 2) >= 2
    }

    fn score_moves(
        &self,
        pos: &Position,
        moves: &MoveList,
        tt_move: Move,
        ply: usize,
    ) -> Vec<(Move, i32)> {
        let us = pos.side_to_move().index();
        moves
            .iter()
            .map(|&m| {
                let s = if m == tt_move {
                    2_000_000
                } else if pos.is_capture(m) {
                    let victim = if pos.is_en_passant(m) {
                        0
                    } else {
                        pos.role_at(m.to()).map_or(0, |r| r.index())
                    };
                    let attacker = pos.role_at(m.from()).map_or(0, |r| r.index());
                    let mvv = SEE_VALUE[victim] * 8 - attacker as i32;
                    if see_ge(pos, m, 0) {
                        1_000_000 + mvv
                    } else {
                        -1_000_000 + mvv
                    }
                } else if m.promotion() == Some(Role::Queen) {
                    900_000
                } else if m.promotion().is_some() {
                    -2_000_000
                } else if m == self.killers[ply][0] {
                    800_000
                } else if m == self.killers[ply][1] {
                    790_000
                } else {
                    self.history[us][m.from().index()][m.to().index()]
                };
                (m, s)
            })
            .collect()
    }

    fn update_history(&mut self, color: Color, mv: Move, bonus: i32) {
        let h = &mut self.history[color.index()][mv.from().index()][mv.to().index()];
        *h += bonus - *h * bonus.abs() / 16_384;
    }

    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.stopped() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos, &mut self.pawns);
        }
        let in_check = pos.is_check();
        let mut best = -INF;
        if !in_check {
            let stand = evaluate(pos, &mut self.pawns);
            if stand >= beta {
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
        }
        let moves = if in_check {
            pos.legal_moves()
        } else {
            pos.noisy_moves()
        };
        if in_check && moves.is_empty() {
            return -MATE + ply as i32;
        }
        let mut scored = self.score_moves(pos, &moves, Move::NULL, ply.min(MAX_PLY));
        for i in 0..scored.len() {
            pick_best(&mut scored, i);
            let (mv, s) = scored[i];
            if !in_check && s < 0 {
                // Losing captures and under-promotions (sorted last).
                break;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if ply > 0 && (self.stopped() || ply >= MAX_PLY) {
            return if ply >= MAX_PLY {
                evaluate(pos, &mut self.pawns)
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
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            // Fifty-move rule: a draw, unless the move that reached 100
            // plies gave mate (checkmate takes precedence).
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

        let key = pos.key();
        let tt_hit = if self.limits.no_tt {
            None
        } else {
            self.shared.tt.probe(key, pos.lock())
        };
        let tt_move = tt_hit.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = tt_hit {
            if !pv_node && ply > 0 && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
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
        let static_eval = if in_check {
            -INF
        } else if let Some(e) = tt_hit {
            e.eval as i32
        } else {
            evaluate(pos, &mut self.pawns)
        };

        let us = pos.side_to_move();
        if !pv_node && !in_check && ply > 0 {
            // Reverse futility: far above beta at shallow depth.
            if depth <= 6 && static_eval - 90 * depth >= beta && beta.abs() < MATE_BOUND {
                return static_eval;
            }
            // Null move, not in pawn endings (zugzwang).
            if null_ok && depth >= 3 && static_eval >= beta && pos.has_non_pawn_material(us) {
                let r = 3 + depth / 4;
                let mut child = pos.clone();
                // Not in check here, so passing is allowed.
                let _ = child.play_null();
                self.keys.push(child.key());
                let score = -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.keys.pop();
                if self.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut moves = pos.legal_moves();
        if ply == 0 {
            moves.retain(|m| self.root_moves.contains(&m) && !self.excluded.contains(&m));
        }
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scored = self.score_moves(pos, &moves, tt_move, ply);
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let old_alpha = alpha;
        let mut quiets_tried: Vec<Move> = Vec::new();
        for i in 0..scored.len() {
            pick_best(&mut scored, i);
            let mv = scored[i].0;
            let quiet = !pos.is_capture(mv) && mv.promotion().is_none();
            // Late-move pruning: at low depth, after enough quiet moves,
            // the rest (ordered last by history) are unlikely to matter.
            let prunable = quiet && !pv_node && !in_check && ply > 0 && best > -MATE_BOUND;
            if prunable && depth <= 3 && quiets_tried.len() as i32 >= 3 + 2 * depth * depth {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let gives_check = child.is_check();
            // Futility pruning: a quiet move that gives no check cannot
            // lift a static evaluation this far below alpha at low depth.
            if prunable && !gives_check && depth <= 3 && static_eval + 90 + 110 * depth <= alpha {
                quiets_tried.push(mv);
                continue;
            }
            self.shared.tt.prefetch(child.key());
            self.keys.push(child.key());
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
            } else {
                // Late-move reduction for quiet moves late in the list.
                let mut r = 0;
                if depth >= 3
                    && quiet
                    && !in_check
                    && !gives_check
                    && i >= if pv_node { 4 } else { 2 }
                {
                    r = LMR_TABLE[(depth as usize).min(63)][i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 2);
                }
                score = -self.negamax(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            self.keys.pop();
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.pv[ply][0] = mv;
                    let n = self.pv_len[ply + 1];
                    for j in 0..n {
                        self.pv[ply][j + 1] = self.pv[ply + 1][j];
                    }
                    self.pv_len[ply] = n + 1;
                    if score >= beta {
                        if quiet {
                            if self.killers[ply][0] != mv {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = mv;
                            }
                            let bonus = (depth * depth).min(1200);
                            self.update_history(us, mv, bonus);
                            for &q in &quiets_tried {
                                self.update_history(us, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if (self.excluded.is_empty() || ply > 0) && !self.limits.no_tt {
            let eval16 = static_eval.clamp(-MATE, MATE) as i16;
            self.shared.tt.store(
                key,
                pos.lock(),
                best_move,
                to_tt(best, ply),
                eval16,
                depth.clamp(0, 255) as u8,
                bound,
            );
        }
        best
    }

    fn pv_line(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    /// Iterative deepening; returns the best line of the last completed
    /// iteration for each PV index.
    #[allow(clippy::needless_range_loop)]
    fn iterate(&mut self, pos: &Position, listener: &mut dyn Listener) -> SearchResult {
        let all = pos.legal_moves();
        self.root_moves = if self.limits.searchmoves.is_empty() {
            all.to_vec()
        } else {
            all.iter()
                .copied()
                .filter(|m| self.limits.searchmoves.contains(m))
                .collect()
        };
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
        let mut prev_scores = vec![0i32; multipv];
        // Helper threads start at staggered depths to diversify.
        let start_depth = 1 + (self.id % 2) as u32;
        'deepening: for depth in start_depth..=max_depth {
            self.excluded.clear();
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let mut delta = 30;
                let (mut alpha, mut beta) = if depth >= 5 {
                    (prev_scores[pv_idx] - delta, prev_scores[pv_idx] + delta)
                } else {
                    (-INF, INF)
                };
                let score = loop {
                    let s = self.negamax(pos, depth as i32, alpha, beta, 0, false);
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
                        && self.shared.elapsed() > Duration::from_secs(1)
                    {
                        listener.info(&self.info(depth, pv_idx, s, bound));
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
                    if delta > 1000 {
                        alpha = -INF;
                        beta = INF;
                    }
                };
                prev_scores[pv_idx] = score;
                let line = self.pv_line();
                if pv_idx == 0 {
                    result.best = line.first().copied().or(result.best);
                    result.ponder = line.get(1).copied();
                    result.score = score;
                    result.depth = depth;
                }
                if let Some(&m) = line.first() {
                    self.excluded.push(m);
                }
                if self.id == 0 {
                    listener.info(&self.info(depth, pv_idx, score, None));
                }
            }
            if self.id == 0 {
                if let Some(m) = self.limits.mate {
                    if mate_in(result.score).is_some_and(|n| n > 0 && n as u32 <= m) {
                        break;
                    }
                }
                // The next iteration takes longer than all before it
                // together, so do not start one past half the soft limit.
                if let Some(t) = self.limits.soft_time {
                    if !self.shared.pondering.load(Relaxed) && self.shared.elapsed() * 2 >= t {
                        break;
                    }
                }
            }
        }
        self.shared.nodes.fetch_add(self.unflushed, Relaxed);
        self.unflushed = 0;
        result.nodes = self.shared.nodes();
        result.pawn_hits = self.pawns.hits();
        result.pawn_probes = self.pawns.probes();
        result
    }

    fn info(&self, depth: u32, pv_idx: usize, score: i32, bound: Option<Bound>) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            multipv: pv_idx + 1,
            score,
            bound,
            nodes: self.shared.nodes() + self.unflushed,
            time: self.shared.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv: self.pv_line(),
        }
    }
}

fn pick_best(moves: &mut [(Move, i32)], from: usize) {
    let mut best = from;
    for j in from + 1..moves.len() {
        if moves[j].1 > moves[best].1 {
            best = j;
        }
    }
    moves.swap(from, best);
}

/// Search `pos` with `threads` threads sharing `shared.tt`.
///
/// `history` holds the keys of the game's positions before `pos` (oldest
/// first, `pos` itself last or absent), for repetition detection. The
/// caller clears `shared.stop` before calling and may set it at any time
/// to end the search; the clock starts here.
pub fn search<T: SearchTable>(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    shared: &Shared<T>,
    threads: usize,
    listener: &mut dyn Listener,
) -> SearchResult {
    shared.nodes.store(0, Relaxed);
    shared.tt.new_search();
    let mut keys = history.to_vec();
    if keys.last() != Some(&pos.key()) {
        keys.push(pos.key());
    }
    std::thread::scope(|scope| {
        for id in 1..threads.max(1) {
            let keys = &keys;
            scope.spawn(move || {
                let mut w = Worker::new(id, shared, limits, keys);
                w.iterate(pos, &mut ());
            });
        }
        let mut main = Worker::new(0, shared, limits, &keys);
        let result = main.iterate(pos, listener);
        shared.stop.store(true, Relaxed);
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, depth: u32) -> SearchResult {
        let pos = Position::from_fen(fen).unwrap();
        let shared = Shared::new(TranspositionTable::new(16).unwrap());
        shared.start_clock();
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        search(&pos, &[], &limits, &shared, 1, &mut ())
    }

    #[test]
    fn see_values() {
        let pos = Position::from_fen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1").unwrap();
        let mv = pos.parse_uci("e1e5").unwrap();
        assert!(see_ge(&pos, mv, 0)); // pawn is free
        let pos =
            Position::from_fen("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1").unwrap();
        let mv = pos.parse_uci("d3e5").unwrap();
        assert!(!see_ge(&pos, mv, 0)); // knight for pawn
    }

    #[test]
    fn finds_mate_in_two() {
        // 1. Qh6+ … a classic: white mates in 2.
        let r = best(
            "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 0",
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
    fn mate_beats_the_fifty_move_rule() {
        // Black to move is mated although the half-move clock reads 100.
        let pos = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80").unwrap();
        let shared = Shared::new(TranspositionTable::new(1).unwrap());
        let limits = Limits::default();
        let mut w = Worker::new(0, &shared, &limits, &[]);
        assert_eq!(w.negamax(&pos, 3, -INF, INF, 1, false), -MATE + 1);
        // And a quiet position with the clock at 100 is a draw.
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/1Q6 b - - 100 80").unwrap();
        assert_eq!(w.negamax(&pos, 3, -INF, INF, 1, false), 0);
    }

    #[test]
    fn stalemate_and_mate_at_root() {
        let r = best("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((r.best, r.score), (None, 0));
        let r = best("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((r.best, r.score), (None, -MATE));
    }
}
