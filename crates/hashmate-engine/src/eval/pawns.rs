//! Pawn structure: the terms that depend on the pawns alone (the pawns'
//! material and piece-square values among them), so that the
//! evaluation computes them once per pawn configuration and keeps them in
//! the pawn hash table.

use super::terms::*;
use super::{Scorer, Terms};
use hashmate::attacks::pawn_attacks;
use hashmate::pawn_table::PawnHashTable;
use hashmate::{Bitboard, Color, Position, Role, Square};

/// What the pawn hash table keeps per pawn configuration.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PawnEntry {
    /// The pawn terms' middlegame sum, White minus Black.
    pub mg: i32,
    /// Their endgame sum.
    pub eg: i32,
    /// Passed pawns of each colour.
    pub passed: [Bitboard; 2],
}

/// The pawn hash table of the evaluation.
pub type PawnTable = PawnHashTable<PawnEntry>;

/// Entries of a search thread's pawn table: 49,981, a prime-sized table
/// of about 1.6 MB that holds a long search's pawn structures.
pub const PAWN_TABLE_ENTRIES: usize = 49_981;

/// A pawn table of the default size, or of a single entry (which still
/// works, only slower) if that cannot be allocated.
pub fn new_pawn_table() -> PawnTable {
    PawnTable::new(PAWN_TABLE_ENTRIES)
        .or_else(|_| PawnTable::new(1))
        .expect("a one-entry pawn table can be allocated")
}

/// Squares in front of `sq` from `color`'s point of view, on its file.
#[inline]
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    let file = Bitboard::file(sq.file());
    let bit = 1u64 << sq as u32;
    match color {
        Color::White => Bitboard(file.0 & !(bit | (bit - 1))),
        Color::Black => Bitboard(file.0 & (bit - 1)),
    }
}

/// The files beside `sq`'s file.
#[inline]
fn adjacent_files(sq: Square) -> Bitboard {
    let f = Bitboard::file(sq.file());
    f.east() | f.west()
}

/// Add the pawn terms of both sides to `t`; return the passed pawns.
pub fn pawn_terms<T: Terms>(pos: &Position, t: &mut T) -> [Bitboard; 2] {
    let mut passed = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let ours = pos.pieces(color, Role::Pawn);
        let theirs = pos.pieces(!color, Role::Pawn);
        for sq in ours {
            t.add(MATERIAL + Role::Pawn.index(), color, 1);
            t.add(
                PST + Role::Pawn.index() * 64 + sq.relative_to(color).index(),
                color,
                1,
            );
            let r = sq.rank().relative_to(color).index();
            let front = front_span(color, sq);
            let adjacent = adjacent_files(sq);
            let front_adj = front.east() | front.west();
            let defenders = pawn_attacks(!color, sq) & ours;
            let beside =
                (Bitboard::from_square(sq).east() | Bitboard::from_square(sq).west()) & ours;
            // Passed: no enemy pawn ahead on this or a neighbouring file,
            // and not the rear pawn of a doubled pair.
            if (theirs & (front | front_adj)).is_empty() && (ours & front).is_empty() {
                t.add(PASSED + r, color, 1);
                if defenders.any() {
                    t.add(PASSED_SUPPORTED + r, color, 1);
                }
                passed[color.index()] |= Bitboard::from_square(sq);
            }
            if (ours & adjacent).is_empty() {
                t.add(ISOLATED, color, 1);
            } else {
                // Backward: no own pawn beside or behind on the neighbouring
                // files, and the stop square is attacked by an enemy pawn.
                let behind = !(front_adj | front);
                let support = ours & adjacent & (behind | Bitboard::rank(sq.rank()));
                let stop = Bitboard::from_square(sq).north_for(color);
                let stop_attacked = stop
                    .first()
                    .is_some_and(|st| (pawn_attacks(color, st) & theirs).any());
                if support.is_empty() && stop_attacked {
                    t.add(BACKWARD, color, 1);
                }
            }
            if (ours & front).any() {
                t.add(DOUBLED, color, 1);
            }
            if defenders.any() || beside.any() {
                t.add(CONNECTED + r, color, 1);
            }
        }
    }
    passed
}

/// The pawn-table entry of `pos`, computed from scratch.
pub fn pawn_entry(pos: &Position) -> PawnEntry {
    let mut s = Scorer::default();
    let passed = pawn_terms(pos, &mut s);
    PawnEntry {
        mg: s.mg(),
        eg: s.eg(),
        passed,
    }
}
