//! Kindergarten bitboards: one multiplication gathers the six inner squares
//! of a line onto the top six bits, indexing a tiny table.
//!
//! Diagonals are multiplied by the b-file, which projects each square onto
//! its file; the table holds first-rank attacks copied onto all eight ranks,
//! and the diagonal mask keeps the right square of each file. Files are
//! shifted to the a-file and multiplied by the c2–h7 diagonal. Neither
//! multiplication can carry: every partial product lands on its own bit.
//! This is the method a critique of Fenner & Levene proposed as at least as
//! fast without any division.

use super::lines::{line_through, ray, Sliders};
use crate::bitboard::Bitboard;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Square;

const B_FILE: u64 = 0x0202_0202_0202_0202;
const DIAG_C2_H7: u64 = 0x0004_0810_2040_8000;
const A_FILE: u64 = 0x0101_0101_0101_0101;

struct Tables {
    /// `[file][six inner rank bits]` → first-rank attacks on every rank.
    fill_up: [[u64; 64]; 8],
    /// `[rank][six inner file bits]` → attacks on the a-file.
    a_file: [[u64; 64]; 8],
    /// Per square: NE diagonal, NW diagonal, rank (all without the square).
    lines: [[u64; 3]; 64],
}

const fn build() -> Tables {
    let mut t = Tables {
        fill_up: [[0; 64]; 8],
        a_file: [[0; 64]; 8],
        lines: [[0; 3]; 64],
    };
    let mut i = 0;
    while i < 8 {
        let mut idx = 0u64;
        while idx < 64 {
            let rank_occ = idx << 1;
            let att = ray(i as u8, 1, 0, rank_occ) | ray(i as u8, -1, 0, rank_occ);
            t.fill_up[i][idx as usize] = att.wrapping_mul(A_FILE);
            idx += 1;
        }
        // The a-file index order comes from the multiplication itself.
        let mut sub = 0u64;
        let inner = A_FILE & 0x00ff_ffff_ffff_ff00;
        loop {
            let idx = (sub.wrapping_mul(DIAG_C2_H7) >> 58) as usize;
            let sq = (8 * i) as u8;
            t.a_file[i][idx] = ray(sq, 0, 1, sub) | ray(sq, 0, -1, sub);
            sub = sub.wrapping_sub(inner) & inner;
            if sub == 0 {
                break;
            }
        }
        i += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        t.lines[sq] = [
            line_through(sq as u8, 1, 1),
            line_through(sq as u8, 1, -1),
            line_through(sq as u8, 1, 0),
        ];
        sq += 1;
    }
    t
}

static T: Tables = build();

#[inline(always)]
fn along(sq: usize, line: u64, occ: u64) -> u64 {
    let idx = ((occ & line).wrapping_mul(B_FILE) >> 58) as usize;
    T.fill_up[sq & 7][idx] & line
}

/// The kindergarten backend.
#[derive(Copy, Clone, Debug, Default)]
pub struct Kindergarten;

impl Sliders for Kindergarten {
    const NAME: &'static str = "kindergarten";

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        let s = sq.index();
        let f = s & 7;
        let idx = ((((occ.0 >> f) & A_FILE).wrapping_mul(DIAG_C2_H7)) >> 58) as usize;
        let file = T.a_file[s >> 3][idx] << f;
        Bitboard(file | along(s, T.lines[s][2], occ.0))
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        let s = sq.index();
        Bitboard(along(s, T.lines[s][0], occ.0) | along(s, T.lines[s][1], occ.0))
    }

    fn table_bytes(self) -> usize {
        core::mem::size_of::<Tables>()
    }
}
