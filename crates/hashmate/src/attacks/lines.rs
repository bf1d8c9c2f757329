//! What every slider method is built on: the [`Sliders`] trait and the
//! line geometry of the 8×8 board (all `const fn`), kept apart from the
//! module that chooses the default method, so that the methods depend on
//! this and the chooser on them, never in a circle.

use crate::bitboard::Bitboard;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Square;
use hashmate_hash::geometry;

/// A sliding-attack generator.
///
/// Implementors are small `Copy` handles; a handle may carry proof that the
/// CPU supports what it needs (see [`Pext::detect`](super::pext::Pext::detect)).
pub trait Sliders: Copy + Send + Sync + 'static {
    /// Short name for reports.
    const NAME: &'static str;

    /// Rook attacks from `sq` given the occupied squares `occ` (the rook's
    /// own square may or may not be in `occ`). Blockers are included.
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard;

    /// Bishop attacks, as for [`Sliders::rook`].
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard;

    /// Queen attacks: the union of rook and bishop attacks.
    #[inline(always)]
    fn queen(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }

    /// Bytes of lookup tables this backend reads.
    fn table_bytes(self) -> usize;
}

/// The four line directions a slider moves along, as (file step, rank step).
pub(crate) const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub(crate) const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, -1), (-1, 1), (1, -1)];

/// Squares reached from `sq` stepping `(df, dr)` until a blocker in `occ`
/// (included) or the edge: the board geometry of `hashmate-hash`, on 8×8.
/// The slow reference every table is built from and checked against.
pub(crate) const fn ray(sq: u8, df: i8, dr: i8, occ: u64) -> u64 {
    geometry::ray(8, 8, sq as usize, df as i32, dr as i32, occ as u128) as u64
}

/// The union of [`ray`] in each of `dirs`.
pub(crate) const fn slide(sq: u8, dirs: &[(i8, i8)], occ: u64) -> u64 {
    let mut out = 0;
    let mut i = 0;
    while i < dirs.len() {
        out |= ray(sq, dirs[i].0, dirs[i].1, occ);
        i += 1;
    }
    out
}

/// The whole line through `sq` in direction `(df, dr)` and its opposite,
/// without `sq` itself.
pub(crate) const fn line_through(sq: u8, df: i8, dr: i8) -> u64 {
    ray(sq, df, dr, 0) | ray(sq, -df, -dr, 0)
}

/// [`line_through`] without the two end squares, which never block anything
/// beyond themselves: the "relevant occupancy" of that line.
pub(crate) const fn inner_line(sq: u8, df: i8, dr: i8) -> u64 {
    geometry::inner_line(8, 8, sq as usize, df as i32, dr as i32) as u64
}

/// Rook relevant-occupancy mask (both lines, ends removed).
#[cfg(any(feature = "std", test))]
pub(crate) const fn rook_mask(sq: u8) -> u64 {
    inner_line(sq, 1, 0) | inner_line(sq, 0, 1)
}

/// Bishop relevant-occupancy mask.
#[cfg(any(feature = "std", test))]
pub(crate) const fn bishop_mask(sq: u8) -> u64 {
    inner_line(sq, 1, 1) | inner_line(sq, 1, -1)
}
