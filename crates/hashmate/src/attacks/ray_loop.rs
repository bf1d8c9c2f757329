//! The baseline: walk each ray square by square until a blocker.
//!
//! This is the paper's "without hash" method (§3.4: "we simply loop over
//! the positions in the file or diagonal") and the reference every other
//! backend is tested against. It has no tables at all.

use super::lines::{ray, Sliders};
use crate::bitboard::Bitboard;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Square;

#[inline]
fn both(sq: Square, df: i8, dr: i8, occ: Bitboard) -> Bitboard {
    Bitboard(ray(sq as u8, df, dr, occ.0) | ray(sq as u8, -df, -dr, occ.0))
}

/// Attacks along the file through `sq`.
pub fn file(sq: Square, occ: Bitboard) -> Bitboard {
    both(sq, 0, 1, occ)
}

/// Attacks along the rank through `sq`.
pub fn rank(sq: Square, occ: Bitboard) -> Bitboard {
    both(sq, 1, 0, occ)
}

/// Attacks along the north-east (a1–h8 direction) diagonal through `sq`.
pub fn ne(sq: Square, occ: Bitboard) -> Bitboard {
    both(sq, 1, 1, occ)
}

/// Attacks along the north-west (h1–a8 direction) diagonal through `sq`.
pub fn nw(sq: Square, occ: Bitboard) -> Bitboard {
    both(sq, 1, -1, occ)
}

/// The loop backend.
#[derive(Copy, Clone, Debug, Default)]
pub struct RayLoop;

impl Sliders for RayLoop {
    const NAME: &'static str = "loop";

    #[inline]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        file(sq, occ) | rank(sq, occ)
    }

    #[inline]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        ne(sq, occ) | nw(sq, occ)
    }

    fn table_bytes(self) -> usize {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_attacks() {
        // Rook on e1 with a knight on e7 (Figure 1 of the paper): reaches e7, not e8.
        let occ = Bitboard::from_square(Square::E7) | Square::E1.into();
        let att = RayLoop.rook(Square::E1, occ);
        assert!(att.contains(Square::E7) && !att.contains(Square::E8));
        assert_eq!(att.count(), 6 + 7);
        assert_eq!(
            RayLoop.bishop(Square::A1, Bitboard::EMPTY),
            Bitboard::MAIN_DIAGONAL - Square::A1.into()
        );
        assert_eq!(RayLoop.queen(Square::D4, Bitboard::EMPTY).count(), 27);
    }
}
