//! Every slider backend agrees with the ray loop: on random occupancies for
//! every square (proptest), and on the occupancy of every perft-suite
//! position for every square.

use hashmate::attacks::fl::{FlCompact, FlFast};
use hashmate::attacks::fl_joint::FlJoint;
use hashmate::attacks::hyperbola::Hyperbola;
use hashmate::attacks::kindergarten::Kindergarten;
use hashmate::attacks::magic::Magic;
use hashmate::attacks::pext::Pext;
use hashmate::attacks::ray_loop::RayLoop;
use hashmate::attacks::Sliders;
use hashmate::{Bitboard, Square};
use proptest::prelude::*;

mod common;

fn check<S: Sliders>(s: S, sq: Square, occ: Bitboard) {
    let r = RayLoop.rook(sq, occ);
    let b = RayLoop.bishop(sq, occ);
    assert_eq!(s.rook(sq, occ), r, "{} rook {sq} {occ:?}", S::NAME);
    assert_eq!(s.bishop(sq, occ), b, "{} bishop {sq} {occ:?}", S::NAME);
    assert_eq!(s.queen(sq, occ), r | b, "{} queen {sq} {occ:?}", S::NAME);
}

fn check_all(sq: Square, occ: Bitboard) {
    check(FlFast, sq, occ);
    check(FlCompact, sq, occ);
    check(FlJoint, sq, occ);
    check(Magic::new(), sq, occ);
    check(Kindergarten, sq, occ);
    check(Hyperbola, sq, occ);
    if let Some(p) = Pext::detect() {
        check(p, sq, occ);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn random_occupancies(occ: u64, sparse in any::<u64>(), sq in 0u8..64) {
        let sq = Square::new(sq).unwrap();
        check_all(sq, Bitboard(occ));
        // Sparse boards reach the long rays that dense random boards block.
        check_all(sq, Bitboard(occ & sparse));
        check_all(sq, Bitboard(occ & sparse & occ.rotate_left(17)));
    }
}

/// The occupied squares of a FEN's placement field (no validation needed
/// here; the suite is well-formed).
fn occupancy(fen: &str) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for (i, rank) in fen
        .split_whitespace()
        .next()
        .unwrap()
        .split('/')
        .enumerate()
    {
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
            } else {
                bb = bb.with(Square::new((7 - i as u8) * 8 + file).unwrap());
                file += 1;
            }
        }
    }
    bb
}

#[test]
fn perft_suite_occupancies() {
    let text = common::data("perft/suite.epd");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let occ = occupancy(line.split(';').next().unwrap());
        for sq in Square::ALL {
            check_all(sq, occ);
            check_all(sq, occ.without(sq));
        }
        n += 1;
    }
    assert_eq!(n, 200);
}
