//! Attack sets: leapers by table, sliders by interchangeable backends.
//!
//! The engine's sliding attacks come from Fenner & Levene's perfect hash
//! functions ([`fl::FlFast`], the default). The other classic methods sit
//! behind the same [`Sliders`] trait so that they can be cross-checked
//! against each other and measured side by side:
//!
//! | backend | idea | tables |
//! | --- | --- | --- |
//! | [`fl::FlFast`] | `(occ & line) mod m` indexes a per-square table | ≈ 560 KB, compile time |
//! | [`fl_joint::FlJoint`] | minimal ĥ1 on both lines of a slider, addresses concatenated: one load | ≈ 2.2 MB, first use |
//! | [`fl::FlCompact`] | one table per line geometry, shifted into place and masked | ≈ 50 KB, compile time |
//! | [`magic::Magic`] | fancy magic bitboards | ≈ 840 KB, start-up |
//! | [`pext::Pext`] | BMI2 `pext` indexes a per-square table | ≈ 840 KB, start-up, x86-64 with BMI2 only |
//! | [`kindergarten::Kindergarten`] | multiply a masked line onto six bits | ≈ 9 KB, compile time |
//! | [`hyperbola::Hyperbola`] | `o ^ (o − 2r)` forwards and byte-reversed | ≈ 2 KB, compile time |
//! | [`ray_loop::RayLoop`] | walk each ray square by square (the paper's "without hash") | none |
//!
//! Every table is either built by `const fn` at compile time or once, lazily,
//! behind a `OnceLock`; nothing is mutated after it is built, and every table
//! is checked against [`ray_loop`] by the tests.

#[allow(unused_imports)]
use crate::prelude::*;
pub mod fl;
#[cfg(feature = "std")]
pub mod fl_joint;
pub mod hyperbola;
pub mod kindergarten;
mod lines;
#[cfg(feature = "std")]
pub mod magic;
#[cfg(feature = "std")]
pub mod pext;
pub mod ray_loop;

use crate::bitboard::Bitboard;
use crate::square::{Color, Square};

pub use lines::Sliders;
use lines::{line_through, ray, slide, BISHOP_DIRS, ROOK_DIRS};

/// The backend the move generator uses by default: Fenner & Levene's
/// perfect hash ([`fl::FlFast`]), or another chosen by cargo feature
/// (`magic`, `pext`).
#[cfg(not(any(feature = "magic", feature = "pext")))]
pub type DefaultSliders = fl::FlFast;

/// The backend the move generator uses by default: fancy magic, chosen by
/// the `magic` cargo feature.
#[cfg(all(feature = "magic", not(feature = "pext")))]
pub type DefaultSliders = magic::Magic;

/// The backend the move generator uses by default: PEXT where the CPU has
/// BMI2, chosen by the `pext` cargo feature.
#[cfg(feature = "pext")]
pub type DefaultSliders = pext::PextOrFlFast;

/// Rook attacks with the default backend.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    DefaultSliders::default().rook(sq, occ)
}

/// Bishop attacks with the default backend.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    DefaultSliders::default().bishop(sq, occ)
}

/// Queen attacks with the default backend.
#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

// ---------------------------------------------------------------------------
// Leapers and line tables.

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bb = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let f = (sq & 7) as i8 + steps[i].0;
            let r = (sq >> 3) as i8 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                bb |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        t[sq] = Bitboard(bb);
        sq += 1;
    }
    t
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

const fn between_table() -> [[Bitboard; 64]; 64] {
    let mut t = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bit_b = 1u64 << b;
            let mut d = 0;
            while d < 8 {
                let (df, dr) = if d < 4 {
                    ROOK_DIRS[d]
                } else {
                    BISHOP_DIRS[d - 4]
                };
                let r = ray(a as u8, df, dr, bit_b);
                if r & bit_b != 0 {
                    t[a][b] = Bitboard(r & !bit_b);
                }
                d += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

const fn line_table() -> [[Bitboard; 64]; 64] {
    let mut t = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = [(1, 0), (0, 1), (1, 1), (1, -1)][d];
            let line = line_through(a as u8, df, dr) | 1 << a;
            let mut rest = line;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                if b != a {
                    t[a][b] = Bitboard(line);
                }
                rest &= rest - 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

const fn empty_board_table(dirs: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = Bitboard(slide(sq as u8, dirs, 0));
        sq += 1;
    }
    t
}

static ROOK_RAYS: [Bitboard; 64] = empty_board_table(&ROOK_DIRS);
static BISHOP_RAYS: [Bitboard; 64] = empty_board_table(&BISHOP_DIRS);

/// Squares a rook on `sq` would attack on an empty board: one load, no
/// hashing. With [`between`] it finds checkers and pins without a slider
/// lookup (a piece on these rays attacks `sq` exactly when nothing stands
/// between them).
///
/// ```
/// use hashmate::attacks::{rook_rays, rook_attacks};
/// use hashmate::{Bitboard, Square};
/// assert_eq!(rook_rays(Square::E4), rook_attacks(Square::E4, Bitboard::EMPTY));
/// assert_eq!(rook_rays(Square::A1).count(), 14);
/// ```
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq.index()]
}

/// Squares a bishop on `sq` would attack on an empty board (see
/// [`rook_rays`]).
///
/// ```
/// use hashmate::attacks::bishop_rays;
/// use hashmate::Square;
/// assert_eq!(bishop_rays(Square::D4).count(), 13);
/// ```
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq.index()]
}

/// Does one of `rooks` (pieces that move like a rook) or `bishops` reach
/// `sq` through `occ`? No slider lookup: a slider on `sq`'s empty-board
/// rays reaches it when nothing in `occ` stands [`between`], and few
/// sliders line up with any one square, so this usually costs two loads.
#[inline(always)]
pub(crate) fn slider_reaches(
    sq: Square,
    rooks: Bitboard,
    bishops: Bitboard,
    occ: Bitboard,
) -> bool {
    ((rook_rays(sq) & rooks) | (bishop_rays(sq) & bishops))
        .into_iter()
        .any(|from| (between(sq, from) & occ).is_empty())
}

static BETWEEN: [[Bitboard; 64]; 64] = between_table();
static LINE: [[Bitboard; 64]; 64] = line_table();

/// The squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line (edge to edge, both squares included) through `a` and `b`
/// when they share one; empty otherwise.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::lines::{bishop_mask, rook_mask};
    use super::*;

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::E4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from_square(Square::D5) | Square::F5.into()
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::A7),
            Bitboard::from_square(Square::B6)
        );
    }

    #[test]
    fn slider_reaches_agrees_with_the_slider_lookups() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..2000 {
            let (a, b, c) = (next(), next(), next());
            let rooks = Bitboard(a & b & c);
            let bishops = Bitboard(a & !b & c);
            let occ = Bitboard(a & (b | c)) | rooks | bishops;
            for sq in Square::ALL {
                let want =
                    ((rook_attacks(sq, occ) & rooks) | (bishop_attacks(sq, occ) & bishops)).any();
                assert_eq!(
                    slider_reaches(sq, rooks, bishops, occ),
                    want,
                    "{sq:?} {occ:?}"
                );
            }
        }
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::A1, Square::D4).count(), 2);
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(between(Square::E1, Square::E8).count(), 6);
        assert_eq!(line(Square::A1, Square::C3), Bitboard::MAIN_DIAGONAL);
        assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
    }

    #[test]
    fn masks_have_classic_sizes() {
        assert_eq!(rook_mask(0).count_ones(), 12);
        assert_eq!(rook_mask(27).count_ones(), 10);
        assert_eq!(bishop_mask(0).count_ones(), 6);
        assert_eq!(bishop_mask(27).count_ones(), 9);
    }
}
