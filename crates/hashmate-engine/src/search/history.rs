//! What the search learns about moves (and about its evaluation) while it
//! runs, one search thread's worth.
//!
//! * **Butterfly history** `[side][from][to]`: how often a quiet move
//!   caused a cut-off, less how often it was tried and did not.
//! * **Continuation history** `[previous piece and square][piece and
//!   square]`: the same, for a quiet move in reply to the move one ply and
//!   two plies before (one table serves both distances; the rows of a move
//!   are its [`Lineage`]).
//! * **Capture history** `[piece][to][captured role]`.
//! * **Counter moves** `[previous piece][previous square]`: the quiet move
//!   that last refuted that move.
//! * **Correction history** `[side][pawn key]`: a small hash table indexed
//!   by the pawn key that learns how far the static evaluation was from
//!   the search's result for positions with that pawn structure, and
//!   corrects later evaluations by it — the pawn hash table's idea applied
//!   to the evaluation's error. Two more tables `[side][colour][non-pawn key]`, indexed by the key of one
//!   colour's pieces other than pawns, learn jointly with it: the
//!   correction is the sum of the three entries, and each update moves all
//!   three by the same step towards the error the sum left.
//!
//! Scores move towards a bound by the "gravity" update
//! `h += bonus − h·|bonus| / MAX`, so no entry can leave `±MAX` and recent
//! results weigh more than old ones. Tables live in flat `Vec`s allocated
//! with `try_reserve`, so a thread that cannot get its tables reports it
//! instead of aborting the process.

use super::params::{CORRECTION_LIMIT, CORRECTION_MAX_WEIGHT};
use hashmate::{Color, Move, Position};

/// The bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

/// Index of "a piece on a square": `piece × 64 + square`, piece =
/// `color × 6 + role`; [`NO_PIECE_SQUARE`] after a null move or at the root.
pub type PieceSquare = usize;
/// The continuation row that is never learned (null move, root).
pub const NO_PIECE_SQUARE: PieceSquare = 768;

/// How many earlier moves a quiet move's continuation history looks at:
/// one and two plies back.
pub const CONT_PLIES: usize = 2;

/// The piece-squares of the moves one and two plies before a move: the
/// rows of the continuation history its ordering score reads.
pub type Lineage = [PieceSquare; CONT_PLIES];

/// A lineage with no earlier moves (the root, quiescence, tests).
pub const NO_LINEAGE: Lineage = [NO_PIECE_SQUARE; CONT_PLIES];

/// The piece-and-square index of `mv`'s moving piece after the move
/// (castling: the king on the rook's square, as the move names it).
#[inline]
pub fn piece_square(pos: &Position, mv: Move) -> PieceSquare {
    match pos.piece_at(mv.from()) {
        Some(p) => (p.color as usize * 6 + p.role as usize) * 64 + mv.to().index(),
        None => NO_PIECE_SQUARE,
    }
}

/// Entries of the correction table per side.
const CORRECTION_ENTRIES: usize = 16_384;
/// Entries of each non-pawn correction table per side to move and colour.
const NON_PAWN_ENTRIES: usize = 16_384;
/// Corrections are kept in 1/`CORRECTION_GRAIN` centipawns.
const CORRECTION_GRAIN: i32 = 256;
/// Weights of an update are out of this.
const CORRECTION_SCALE: i32 = 256;
// An entry, at most `CORRECTION_LIMIT` centipawns in grains, fits an i16.
const _: () = assert!(CORRECTION_LIMIT * CORRECTION_GRAIN <= i16::MAX as i32);

/// A search thread could not allocate its tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// Bytes that were asked for.
    pub bytes: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate {} KB of search tables",
            self.bytes / 1024
        )
    }
}

impl std::error::Error for AllocError {}

/// An empty `Vec` with room for `n` elements, or an error instead of an
/// abort.
pub fn reserved<T>(n: usize) -> Result<Vec<T>, AllocError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| AllocError {
        bytes: n.saturating_mul(std::mem::size_of::<T>()),
    })?;
    Ok(v)
}

/// A zeroed `Vec` of `n` elements, or an error instead of an abort.
pub fn zeroed<T: Copy + Default>(n: usize) -> Result<Vec<T>, AllocError> {
    let mut v = reserved(n)?;
    v.resize(n, T::default());
    Ok(v)
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let e = i32::from(*entry);
    *entry = (e + b - e * b.abs() / HISTORY_MAX) as i16;
}

/// The history tables of one search thread.
pub struct Histories {
    butterfly: Vec<i16>,
    continuation: Vec<i16>,
    capture: Vec<i16>,
    counter: Vec<Move>,
    correction: Vec<i16>,
    non_pawn: Vec<i16>,
}

impl Histories {
    /// Zeroed tables.
    ///
    /// # Errors
    /// [`AllocError`] when they cannot be allocated.
    pub fn new() -> Result<Histories, AllocError> {
        Ok(Histories {
            butterfly: zeroed(2 * 64 * 64)?,
            continuation: zeroed((NO_PIECE_SQUARE + 1) * NO_PIECE_SQUARE)?,
            capture: zeroed(12 * 64 * 6)?,
            counter: zeroed(NO_PIECE_SQUARE + 1)?,
            correction: zeroed(2 * CORRECTION_ENTRIES)?,
            non_pawn: zeroed(4 * NON_PAWN_ENTRIES)?,
        })
    }

    #[inline]
    fn butterfly_index(side: Color, mv: Move) -> usize {
        (side as usize * 64 + mv.from().index()) * 64 + mv.to().index()
    }

    /// Forget everything learned (a new game).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.counter.fill(Move::default());
        self.correction.fill(0);
        self.non_pawn.fill(0);
    }

    /// The butterfly history of quiet move `mv`.
    #[inline]
    pub fn butterfly(&self, pos: &Position, mv: Move) -> i32 {
        i32::from(self.butterfly[Self::butterfly_index(pos.side_to_move(), mv)])
    }

    /// The continuation history of a move to `cur` after a move to `prev`.
    #[inline]
    pub fn continuation(&self, prev: PieceSquare, cur: PieceSquare) -> i32 {
        i32::from(self.continuation[prev * NO_PIECE_SQUARE + cur.min(NO_PIECE_SQUARE - 1)])
    }

    /// The ordering score of quiet move `mv` (moving to `cur`), played after
    /// the moves of `prev`.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, mv: Move, cur: PieceSquare, prev: &Lineage) -> i32 {
        self.butterfly(pos, mv) + prev.iter().map(|&p| self.continuation(p, cur)).sum::<i32>()
    }

    /// Reward (positive `bonus`) or punish a quiet move.
    pub fn update_quiet(
        &mut self,
        pos: &Position,
        mv: Move,
        cur: PieceSquare,
        prev: &Lineage,
        bonus: i32,
    ) {
        let side = pos.side_to_move();
        gravity(&mut self.butterfly[Self::butterfly_index(side, mv)], bonus);
        let cur = cur.min(NO_PIECE_SQUARE - 1);
        for &prev in prev {
            if prev != NO_PIECE_SQUARE {
                gravity(&mut self.continuation[prev * NO_PIECE_SQUARE + cur], bonus);
            }
        }
    }

    #[inline]
    fn capture_index(pos: &Position, mv: Move) -> usize {
        let piece = pos
            .piece_at(mv.from())
            .map_or(0, |p| p.color as usize * 6 + p.role as usize);
        let victim = pos.role_at(mv.to()).map_or(0, |r| r.index());
        (piece * 64 + mv.to().index()) * 6 + victim
    }

    /// The capture history of noisy move `mv`.
    #[inline]
    pub fn capture(&self, pos: &Position, mv: Move) -> i32 {
        i32::from(self.capture[Self::capture_index(pos, mv)])
    }

    /// Reward or punish a capture.
    pub fn update_capture(&mut self, pos: &Position, mv: Move, bonus: i32) {
        gravity(&mut self.capture[Self::capture_index(pos, mv)], bonus);
    }

    /// The counter move to the move to `prev`.
    #[inline]
    pub fn counter(&self, prev: PieceSquare) -> Move {
        self.counter[prev]
    }

    /// Remember `mv` as the refutation of the move to `prev`.
    pub fn set_counter(&mut self, prev: PieceSquare, mv: Move) {
        if prev != NO_PIECE_SQUARE {
            self.counter[prev] = mv;
        }
    }

    #[inline]
    fn correction_index(pos: &Position) -> usize {
        let slot = ((pos.pawn_key() as u128 * CORRECTION_ENTRIES as u128) >> 64) as usize;
        pos.side_to_move() as usize * CORRECTION_ENTRIES + slot
    }

    /// The slots of the two non-pawn correction tables for `pos`.
    #[inline]
    fn non_pawn_indices(pos: &Position) -> [usize; 2] {
        let keys = pos.non_pawn_keys();
        let side = pos.side_to_move() as usize;
        [0, 1].map(|c| {
            let slot = ((keys[c] as u128 * NON_PAWN_ENTRIES as u128) >> 64) as usize;
            (side * 2 + c) * NON_PAWN_ENTRIES + slot
        })
    }

    /// The learned correction of the static evaluation of `pos`, in
    /// centipawns.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        let mut c = i32::from(self.correction[Self::correction_index(pos)]);
        for i in Self::non_pawn_indices(pos) {
            c += i32::from(self.non_pawn[i]);
        }
        c.clamp(
            -CORRECTION_LIMIT * CORRECTION_GRAIN,
            CORRECTION_LIMIT * CORRECTION_GRAIN,
        ) / CORRECTION_GRAIN
    }

    /// Learn from a search of `pos` to `depth` that its score was `score`
    /// where the static evaluation said `eval`: the raw evaluation, before
    /// [`correction`](Self::correction) was added. Each update moves the
    /// entry part of the way towards `score − eval`, so the entry settles
    /// at the evaluation's whole error; fed the corrected evaluation it
    /// would chase the remaining error and settle at half of it. The pawn
    /// and the two non-pawn entries step together towards what their sum
    /// leaves of that error, so the sum settles at the whole error.
    pub fn update_correction(&mut self, pos: &Position, depth: i32, eval: i32, score: i32) {
        let bound = CORRECTION_LIMIT * CORRECTION_GRAIN;
        let diff = (score - eval).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * CORRECTION_GRAIN;
        let weight = (depth + 1).min(CORRECTION_MAX_WEIGHT);
        let pawn = Self::correction_index(pos);
        let others = Self::non_pawn_indices(pos);
        let sum = i32::from(self.correction[pawn])
            + others
                .iter()
                .map(|&i| i32::from(self.non_pawn[i]))
                .sum::<i32>();
        let step = (diff - sum) * weight / CORRECTION_SCALE;
        let e = &mut self.correction[pawn];
        *e = (i32::from(*e) + step).clamp(-bound, bound) as i16;
        for i in others {
            let e = &mut self.non_pawn[i];
            *e = (i32::from(*e) + step).clamp(-bound, bound) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_stays_bounded() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 5000);
        }
        assert!(i32::from(e) <= HISTORY_MAX && e > 16_000);
        for _ in 0..1000 {
            gravity(&mut e, -90_000);
        }
        assert!(i32::from(e) >= -HISTORY_MAX);
    }

    #[test]
    fn non_pawn_tables_tell_apart_positions_with_the_same_pawns() {
        let mut h = Histories::new().unwrap();
        let a: Position = "4k3/pppq1ppp/8/8/8/8/PPP2PPP/3QK3 w - - 0 1"
            .parse()
            .unwrap();
        let b: Position = "4k3/pppr1ppp/8/8/8/8/PPP2PPP/3RK3 w - - 0 1"
            .parse()
            .unwrap();
        assert_eq!(a.pawn_key(), b.pawn_key());
        for _ in 0..200 {
            h.update_correction(&a, 10, 0, 40);
        }
        // The pawn table alone cannot tell b from a; with the non-pawn
        // tables, b gets only the pawn table's share of what a learned.
        assert!(
            (35..=40).contains(&h.correction(&a)),
            "{}",
            h.correction(&a)
        );
        assert!(h.correction(&b) < 30, "{}", h.correction(&b));
    }

    #[test]
    fn correction_learns_and_is_bounded() {
        let mut h = Histories::new().unwrap();
        let pos = Position::startpos();
        for _ in 0..200 {
            h.update_correction(&pos, 10, 0, 40);
        }
        assert!(
            (35..=40).contains(&h.correction(&pos)),
            "{}",
            h.correction(&pos)
        );
        for _ in 0..500 {
            h.update_correction(&pos, 10, 0, -5000);
        }
        assert!((-CORRECTION_LIMIT..=-CORRECTION_LIMIT + 2).contains(&h.correction(&pos)));
    }
}
