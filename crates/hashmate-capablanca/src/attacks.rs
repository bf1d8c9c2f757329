//! Attack sets on the 10×8 board: leapers by table, sliders by Fenner &
//! Levene's perfect hash functions ([`TenByEight`]: files and north-east
//! diagonals by ĥ1, north-west diagonals by ĥ2, ranks by a shift) — no
//! other slider method is used. The archbishop moves as a bishop and a
//! knight, the chancellor as a rook and a knight.
//!
//! The leaper and line tables are built by `const fn` at compile time; the
//! slider tables once, on first use.

use crate::square::{Color, Square, FILES, RANKS, SQUARES};
use hashmate_hash::geometry::{line_through, ray};
use hashmate_hash::wide::TenByEight;
use std::sync::OnceLock;

const fn leapers(steps: &[(i32, i32)]) -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (f, r) = ((sq % FILES as usize) as i32, (sq / FILES as usize) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < FILES as i32 && nr >= 0 && nr < RANKS as i32 {
                t[sq] |= 1u128 << (nr * FILES as i32 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

static KNIGHT: [u128; SQUARES] = leapers(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u128; SQUARES] = leapers(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u128; SQUARES]; 2] = [leapers(&[(-1, 1), (1, 1)]), leapers(&[(-1, -1), (1, -1)])];

/// The eight directions, as (file step, rank step).
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

const fn between_table() -> [[u128; SQUARES]; SQUARES] {
    let mut t = [[0u128; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            let full = ray(FILES, RANKS, a, df, dr, 0);
            let mut rest = full;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                t[a][b] = ray(FILES, RANKS, a, df, dr, 1u128 << b) & !(1u128 << b);
                rest &= rest - 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

const fn line_table() -> [[u128; SQUARES]; SQUARES] {
    let mut t = [[0u128; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[2 * d];
            let line = line_through(FILES, RANKS, a, df, dr) | 1u128 << a;
            let mut rest = line & !(1u128 << a);
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                t[a][b] = line;
                rest &= rest - 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[u128; SQUARES]; SQUARES] = between_table();
static LINE: [[u128; SQUARES]; SQUARES] = line_table();

/// The perfect-hash slider tables, built on first use.
fn sliders() -> &'static TenByEight {
    static S: OnceLock<TenByEight> = OnceLock::new();
    // 10×8 is within the paper's conditions, so construction succeeds.
    S.get_or_init(|| TenByEight::new().expect("10x8 sliders"))
}

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight(sq: Square) -> u128 {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king(sq: Square) -> u128 {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> u128 {
    PAWN[color.index()][sq.index()]
}

/// Rook attacks from `sq` given the occupied squares `occ`.
#[inline(always)]
pub fn rook(sq: Square, occ: u128) -> u128 {
    sliders().rook(sq.index(), occ).unwrap_or(0)
}

/// Bishop attacks from `sq` given `occ`.
#[inline(always)]
pub fn bishop(sq: Square, occ: u128) -> u128 {
    sliders().bishop(sq.index(), occ).unwrap_or(0)
}

/// The squares strictly between `a` and `b` on a shared line, else none.
#[inline(always)]
pub fn between(a: Square, b: Square) -> u128 {
    BETWEEN[a.index()][b.index()]
}

/// The whole line through `a` and `b` (both included), else none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> u128 {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn leapers_and_lines() {
        assert_eq!(knight(sq("a1")).count_ones(), 2);
        assert_eq!(knight(sq("e4")).count_ones(), 8);
        assert_eq!(king(sq("j8")).count_ones(), 3);
        assert_eq!(pawn(Color::White, sq("j2")), sq("i3").bit());
        assert_eq!(between(sq("a1"), sq("d4")).count_ones(), 2);
        assert_eq!(between(sq("a1"), sq("j1")).count_ones(), 8);
        assert_eq!(between(sq("a1"), sq("b3")), 0);
        assert_eq!(line(sq("a1"), sq("c3")).count_ones(), 8);
        assert_eq!(line(sq("c1"), sq("j8")).count_ones(), 8);
        assert_eq!(rook(sq("e4"), 0).count_ones(), 16);
        assert_eq!(bishop(sq("a1"), 0).count_ones(), 7);
    }
}
