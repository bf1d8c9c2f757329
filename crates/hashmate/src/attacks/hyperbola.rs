//! Hyperbola quintessence: `o ^ (o − 2r)` finds the first blocker towards
//! the high bits; doing the same on the byte-swapped board finds it towards
//! the low bits. Works for files and diagonals (a byte swap mirrors ranks);
//! ranks use a 512-byte first-rank table. About 2 KB of tables in all.

use super::lines::{line_through, ray, Sliders};
use crate::bitboard::Bitboard;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Square;

struct Tables {
    /// Per square: file, NE diagonal, NW diagonal (without the square).
    lines: [[u64; 3]; 64],
    /// `[file][six inner rank bits]` → first-rank attacks.
    rank: [[u8; 64]; 8],
}

const fn build() -> Tables {
    let mut t = Tables {
        lines: [[0; 3]; 64],
        rank: [[0; 64]; 8],
    };
    let mut sq = 0;
    while sq < 64 {
        t.lines[sq] = [
            line_through(sq as u8, 0, 1),
            line_through(sq as u8, 1, 1),
            line_through(sq as u8, 1, -1),
        ];
        sq += 1;
    }
    let mut f = 0;
    while f < 8 {
        let mut idx = 0u64;
        while idx < 64 {
            let occ = idx << 1;
            t.rank[f][idx as usize] = (ray(f as u8, 1, 0, occ) | ray(f as u8, -1, 0, occ)) as u8;
            idx += 1;
        }
        f += 1;
    }
    t
}

static T: Tables = build();

#[inline(always)]
fn hq(bit: u64, line: u64, occ: u64) -> u64 {
    let forward = occ & line;
    let reverse = forward.swap_bytes();
    let forward = forward.wrapping_sub(bit);
    let reverse = reverse.wrapping_sub(bit.swap_bytes());
    (forward ^ reverse.swap_bytes()) & line
}

/// The hyperbola-quintessence backend.
#[derive(Copy, Clone, Debug, Default)]
pub struct Hyperbola;

impl Sliders for Hyperbola {
    const NAME: &'static str = "hyperbola";

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        let s = sq.index();
        let file = hq(1 << s, T.lines[s][0], occ.0);
        let r8 = (s & !7) as u32;
        let rank = (T.rank[s & 7][((occ.0 >> (r8 + 1)) & 63) as usize] as u64) << r8;
        Bitboard(file | rank)
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        let s = sq.index();
        Bitboard(hq(1 << s, T.lines[s][1], occ.0) | hq(1 << s, T.lines[s][2], occ.0))
    }

    fn table_bytes(self) -> usize {
        core::mem::size_of::<Tables>()
    }
}
