//! The input features: colour × piece type × square, seen from each
//! side's perspective (the board flipped vertically for Black), and the
//! output bucket of a position's material.

use hashmate::{Color, Position, Role, Square};

/// Number of input features: 2 colours × 6 piece types × 64 squares.
pub const INPUTS: usize = 768;

/// The input feature of a `color` `role` on `sq`, seen from `perspective`.
///
/// ```
/// use hashmate::{Color, Role, Square};
/// use hashmate_nnue::feature;
/// let e2 = Square::new(12).unwrap();
/// let e7 = Square::new(52).unwrap();
/// // A white pawn on e2 seen by White is a black pawn on e7 seen by Black.
/// assert_eq!(
///     feature(Color::White, Color::White, Role::Pawn, e2),
///     feature(Color::Black, Color::Black, Role::Pawn, e7),
/// );
/// ```
#[inline]
pub fn feature(perspective: Color, color: Color, role: Role, sq: Square) -> usize {
    let theirs = usize::from(color != perspective);
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    theirs * 384 + role.index() * 64 + sq
}

/// The output bucket of a position with `pieces` pieces on the board
/// (kings included) in a net of `buckets` buckets: the material range
/// 2–32 cut into `buckets` equal parts, so that with 8 buckets it is
/// `(pieces − 2) / 4`, and with one always 0.
///
/// ```
/// use hashmate_nnue::output_bucket;
/// assert_eq!(output_bucket(32, 8), 7);
/// assert_eq!(output_bucket(10, 8), 2);
/// assert_eq!(output_bucket(3, 8), 0);
/// assert_eq!(output_bucket(32, 1), 0);
/// ```
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize * buckets / 32).min(buckets.max(1) - 1)
}

/// Call `f(white_feature, black_feature)` for every piece of `pos`: the
/// active features of both perspectives.
#[inline]
pub fn for_each_feature(pos: &Position, mut f: impl FnMut(usize, usize)) {
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in pos.pieces(color, role).iter() {
                f(
                    feature(Color::White, color, role, sq),
                    feature(Color::Black, color, role, sq),
                );
            }
        }
    }
}
