//! Endings against a lone king: known wins, scored as such.
//!
//! When one side has nothing but its king and the other has no pawns and
//! enough to force mate (a queen or a rook; bishops on both colours; a
//! bishop and a knight; three knights), the position is won whatever the
//! squares, and neither the network nor the classical terms say so: both
//! learned from games that rarely reach these endings, and score king and
//! rook against king at about six pawns, king, bishop and knight at about
//! three. Such a score neither drives the king to the edge nor tells the
//! search that trading down into the ending wins, and a bishop and knight
//! mate runs into the fifty-move rule (docs/STRENGTH.md, "Lone-king
//! endings").
//!
//! The evaluation here is [`KNOWN_WIN`] plus the strong side's material
//! (so that keeping pieces is still better than losing them) plus a
//! mop-up term: the lone king pushed to the edge, or with a bishop and
//! knight alone to a corner of the bishop's colour (the only corners where
//! that mate can be forced), and the kings brought together. The search
//! does the rest: from such a score it looks for the mate.

use super::non_pawn_material;
use hashmate::{Bitboard, Color, Position, Role, Square};

/// The score of a won lone-king ending before material and mop-up: far
/// above what the evaluation gives any other position, far below the
/// tablebase and mate scores.
pub const KNOWN_WIN: i32 = 5_000;

/// Centipawns per step of the lone king away from the centre (or, with a
/// bishop and knight, towards the right corner).
const EDGE: i32 = 20;
/// Centipawns per step the kings come closer.
const CLOSE: i32 = 10;

/// Whether `strong`'s pieces force mate against a lone king (no pawns).
fn mating_material(pos: &Position, strong: Color) -> bool {
    let n = |r| pos.pieces(strong, r).count();
    let bishops = pos.pieces(strong, Role::Bishop);
    n(Role::Queen) > 0
        || n(Role::Rook) > 0
        || (!(bishops & Bitboard::DARK_SQUARES).is_empty()
            && !(bishops - Bitboard::DARK_SQUARES).is_empty())
        || (n(Role::Bishop) > 0 && n(Role::Knight) > 0)
        || n(Role::Knight) >= 3
}

fn file_rank(sq: Square) -> (i32, i32) {
    (sq.file().index() as i32, sq.rank().index() as i32)
}

/// Steps from the centre: 0 on d4, d5, e4, e5 … 6 in a corner.
fn from_centre(sq: Square) -> i32 {
    let (f, r) = file_rank(sq);
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

fn manhattan(a: Square, b: Square) -> i32 {
    let ((fa, ra), (fb, rb)) = (file_rank(a), file_rank(b));
    (fa - fb).abs() + (ra - rb).abs()
}

fn chebyshev(a: Square, b: Square) -> i32 {
    let ((fa, ra), (fb, rb)) = (file_rank(a), file_rank(b));
    (fa - fb).abs().max((ra - rb).abs())
}

/// The score for the side to move when `pos` is a won ending against a
/// lone king (see the module's documentation), `None` otherwise.
pub fn evaluate(pos: &Position) -> Option<i32> {
    let weak = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| pos.by_color(c).count() == 1)?;
    let strong = !weak;
    if !pos.pieces(strong, Role::Pawn).is_empty() || !mating_material(pos, strong) {
        return None;
    }
    let lone = pos.king(weak);
    let material = non_pawn_material(pos, strong);
    let n = |r| pos.pieces(strong, r).count();
    let bishop_and_knight_alone =
        n(Role::Queen) + n(Role::Rook) == 0 && n(Role::Bishop) == 1 && n(Role::Knight) == 1;
    let drive = if bishop_and_knight_alone {
        // The corners of the bishop's colour: a1 and h8 are dark.
        let dark = !(pos.pieces(strong, Role::Bishop) & Bitboard::DARK_SQUARES).is_empty();
        let corners = if dark {
            [Square::A1, Square::H8]
        } else {
            [Square::H1, Square::A8]
        };
        let to_corner = corners
            .iter()
            .map(|&c| manhattan(lone, c))
            .min()
            .unwrap_or(0);
        EDGE * (14 - to_corner)
    } else {
        EDGE * from_centre(lone)
    };
    let together = CLOSE * (7 - chebyshev(lone, pos.king(strong)));
    let v = KNOWN_WIN + material + drive + together;
    Some(if pos.side_to_move() == strong { v } else { -v })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> Option<i32> {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn a_lone_king_against_mating_material_is_a_known_win() {
        for fen in [
            "7k/8/8/8/8/8/8/K2R4 w - - 0 1",    // rook
            "7k/8/8/8/8/8/8/K2Q4 w - - 0 1",    // queen
            "7k/8/8/8/8/8/8/K1BB4 w - - 0 1",   // bishops on both colours
            "7k/8/8/8/8/8/8/K1BN4 w - - 0 1",   // bishop and knight
            "7k/8/8/8/8/8/8/KNNN4 w - - 0 1",   // three knights
            "7K/8/8/8/8/8/8/k2r4 b - - 0 1",    // Black's rook
            "7k/8/8/8/8/8/8/K1QRBN2 w - - 0 1", // plenty
        ] {
            let v = eval(fen).unwrap_or_else(|| panic!("{fen}"));
            assert!(v > KNOWN_WIN && v < crate::search::TB_WIN / 2, "{fen}: {v}");
            // The lone king's side to move: the same, negated.
            let other = if fen.contains(" w ") {
                fen.replace(" w ", " b ")
            } else {
                fen.replace(" b ", " w ")
            };
            assert_eq!(eval(&other), Some(-v), "{other}");
        }
    }

    #[test]
    fn anything_else_is_left_to_the_evaluation() {
        for fen in [
            "7k/8/8/8/8/8/8/K2N4 w - - 0 1",   // a knight
            "7k/8/8/8/8/8/8/K1NN4 w - - 0 1",  // two knights
            "7k/8/8/8/8/8/8/K1B1B3 w - - 0 1", // bishops on one colour
            "7k/8/8/8/8/8/P7/K2R4 w - - 0 1",  // a pawn beside the rook
            "7k/8/8/8/8/8/p7/K2R4 w - - 0 1",  // the king is not alone
            "7k/8/8/8/8/8/8/K7 w - - 0 1",     // kings alone
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ] {
            assert_eq!(eval(fen), None, "{fen}");
        }
    }

    #[test]
    fn the_lone_king_is_driven_to_the_edge_and_the_kings_together() {
        // The lone king on the edge scores more than in the centre.
        let centre = eval("8/8/8/4k3/8/8/8/K2R4 w - - 0 1").unwrap();
        let edge = eval("4k3/8/8/8/8/8/8/K2R4 w - - 0 1").unwrap();
        assert!(edge > centre, "{edge} {centre}");
        // With the lone king fixed, the kings closer score more.
        let far = eval("k7/8/8/8/8/8/8/3R3K w - - 0 1").unwrap();
        let near = eval("k7/8/2K5/8/8/8/8/3R4 w - - 0 1").unwrap();
        assert!(near > far, "{near} {far}");
    }

    #[test]
    fn bishop_and_knight_drive_to_a_corner_of_the_bishop_s_colour() {
        // A dark-squared bishop (c1): a1 and h8 are the mating corners.
        let right = eval("8/8/8/8/8/8/8/k1BN3K w - - 0 1").unwrap();
        let wrong = eval("k7/8/8/8/8/8/8/2BN3K w - - 0 1").unwrap();
        assert!(right > wrong + EDGE * 5, "{right} {wrong}");
        // A light-squared bishop (d1): h1 and a8.
        let right = eval("k7/8/8/8/8/8/8/K2B1N2 w - - 0 1").unwrap();
        let wrong = eval("7k/8/8/8/8/8/8/K2B1N2 w - - 0 1").unwrap();
        assert!(right > wrong + EDGE * 5, "{right} {wrong}");
    }

    #[test]
    fn more_material_scores_more() {
        let rook = eval("7k/8/8/8/8/8/8/K2R4 w - - 0 1").unwrap();
        let queen = eval("7k/8/8/8/8/8/8/K2Q4 w - - 0 1").unwrap();
        let both = eval("7k/8/8/8/8/8/8/K2QR3 w - - 0 1").unwrap();
        assert!(rook < queen && queen < both, "{rook} {queen} {both}");
    }
}
