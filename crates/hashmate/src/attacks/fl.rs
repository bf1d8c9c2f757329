//! Fenner & Levene's perfect-hash sliding attacks on the 8×8 board.
//!
//! Each slider line is hashed on its own (§3 of the paper):
//!
//! * files with h1, k = 8: `α mod 258`;
//! * north-east (a1–h8) diagonals with h1, k = 9: `α mod 514`
//!   (or the minimal ĥ1, `(α + c) mod 514`, onto exactly 2^N addresses);
//! * north-west (h1–a8) diagonals with h2, k = 7: `α mod 257`;
//! * ranks by a shift, since their squares are adjacent bits.
//!
//! Following the paper's "further improvement" (§3.1), the hash address
//! indexes the attack table directly: there is no intermediate 8-bit
//! occupancy. The alignment shift is avoided as §2's last paragraph allows:
//! the line masks leave out the two end squares (which never block anything
//! beyond themselves), so at most N = 6 positions are active, and h1 needs no
//! shift when N ≤ k − 1; h2 never needs one, its modulus being odd. The
//! moduli are compile-time constants, so each `%` compiles to a multiply-high
//! and a few integer operations, not a division.
//!
//! Two variants trade speed for memory:
//!
//! * [`FlFast`]: a table per square and line, indexed by the hash address
//!   (≈ 560 KB). The engine's default backend.
//! * [`FlCompact`]: one table per line geometry (the a-file, the two long
//!   diagonals, the first rank), indexed by the square's place on the line;
//!   the occupancy is shifted onto that line, hashed, and the result shifted
//!   back and masked (≈ 50 KB).
//!
//! All tables are built by `const fn` at compile time and checked against
//! [`super::ray_loop`] by the tests, which also prove every per-square hash
//! collision-free.

use super::lines::{inner_line, line_through, ray, Sliders};
use crate::bitboard::Bitboard;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Square;
use hashmate_hash::perfect_hash::minimal_offset;

/// h1 with k = 8 (files).
pub const FILE_MODULUS: u64 = (1 << 8) + 2;
/// h1 with k = 9 (north-east diagonals).
pub const NE_MODULUS: u64 = (1 << 9) + 2;
/// h2 with k = 7 (north-west diagonals).
pub const NW_MODULUS: u64 = (1 << 8) + 1;

const FM: usize = FILE_MODULUS as usize;
const NEM: usize = NE_MODULUS as usize;
const NWM: usize = NW_MODULUS as usize;

/// Per-square masks, kept together so a lookup touches one cache line.
#[derive(Copy, Clone)]
#[repr(C, align(32))]
struct Masks {
    file: u64,
    ne: u64,
    nw: u64,
    rank_shift: u64,
}

/// Calls `f(subset)` for every subset of `mask`, in a const context.
macro_rules! for_each_subset {
    ($mask:expr, |$sub:ident| $body:block) => {{
        let mask: u64 = $mask;
        let mut $sub: u64 = 0;
        loop {
            $body
            $sub = $sub.wrapping_sub(mask) & mask;
            if $sub == 0 {
                break;
            }
        }
    }};
}

const fn build_masks() -> [Masks; 64] {
    let mut t = [Masks {
        file: 0,
        ne: 0,
        nw: 0,
        rank_shift: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = Masks {
            file: inner_line(sq as u8, 0, 1),
            ne: inner_line(sq as u8, 1, 1),
            nw: inner_line(sq as u8, 1, -1),
            rank_shift: (sq as u64 & !7) + 1,
        };
        sq += 1;
    }
    t
}

const fn build_line_table<const M: usize>(df: i8, dr: i8, modulus: u64) -> [[Bitboard; M]; 64] {
    let mut t = [[Bitboard::EMPTY; M]; 64];
    let mut sq = 0;
    while sq < 64 {
        for_each_subset!(inner_line(sq as u8, df, dr), |sub| {
            let att = ray(sq as u8, df, dr, sub) | ray(sq as u8, -df, -dr, sub);
            t[sq][(sub % modulus) as usize] = Bitboard(att);
        });
        sq += 1;
    }
    t
}

const fn build_rank_table() -> [[Bitboard; 64]; 64] {
    let mut t = [[Bitboard::EMPTY; 64]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut idx = 0u64;
        while idx < 64 {
            let occ = idx << ((sq & !7) + 1);
            t[sq][idx as usize] = Bitboard(ray(sq as u8, 1, 0, occ) | ray(sq as u8, -1, 0, occ));
            idx += 1;
        }
        sq += 1;
    }
    t
}

static MASKS: [Masks; 64] = build_masks();
static FILE: [[Bitboard; FM]; 64] = build_line_table::<FM>(0, 1, FILE_MODULUS);
static NE: [[Bitboard; NEM]; 64] = build_line_table::<NEM>(1, 1, NE_MODULUS);
static NW: [[Bitboard; NWM]; 64] = build_line_table::<NWM>(1, -1, NW_MODULUS);
static RANK: [[Bitboard; 64]; 64] = build_rank_table();

/// Attacks along the file through `sq`: h1, k = 8, no shift.
#[inline(always)]
pub fn file_h1(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    FILE[s][((occ.0 & MASKS[s].file) % FILE_MODULUS) as usize]
}

/// Attacks along the rank through `sq`: a shift and a mask.
#[inline(always)]
pub fn rank_shift(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    RANK[s][((occ.0 >> MASKS[s].rank_shift) & 63) as usize]
}

/// Attacks along the north-east diagonal through `sq`: h1, k = 9, no shift.
#[inline(always)]
pub fn ne_h1(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    NE[s][((occ.0 & MASKS[s].ne) % NE_MODULUS) as usize]
}

/// Attacks along the north-west diagonal through `sq`: h2, k = 7, no shift.
#[inline(always)]
pub fn nw_h2(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    NW[s][((occ.0 & MASKS[s].nw) % NW_MODULUS) as usize]
}

// The minimal ĥ1 on north-east diagonals, as in the paper's Table 4: the
// whole diagonal (N = its length) is shifted to bit 0, the constant c(N) is
// added, and the address falls in exactly [0, 2^N).

#[derive(Copy, Clone)]
struct MinimalNe {
    mask: u64,
    shift: u64,
    add: u64,
}

const fn build_ne_minimal() -> ([MinimalNe; 64], [[Bitboard; 256]; 64]) {
    let mut params = [MinimalNe {
        mask: 0,
        shift: 0,
        add: 0,
    }; 64];
    let mut t = [[Bitboard::EMPTY; 256]; 64];
    let mut sq = 0;
    while sq < 64 {
        let line = line_through(sq as u8, 1, 1) | 1 << sq;
        let shift = line.trailing_zeros() as u64;
        let add = minimal_offset(line.count_ones()) as u64;
        params[sq] = MinimalNe {
            mask: line,
            shift,
            add,
        };
        for_each_subset!(line, |sub| {
            let att = ray(sq as u8, 1, 1, sub) | ray(sq as u8, -1, -1, sub);
            t[sq][(((sub >> shift) + add) % NE_MODULUS) as usize] = Bitboard(att);
        });
        sq += 1;
    }
    (params, t)
}

static NE_MIN: ([MinimalNe; 64], [[Bitboard; 256]; 64]) = build_ne_minimal();

/// Attacks along the north-east diagonal through `sq` with the minimal ĥ1:
/// a quarter of [`ne_h1`]'s table for one extra shift and addition.
#[inline(always)]
pub fn ne_h1_minimal(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    let p = NE_MIN.0[s];
    let idx = (((occ.0 & p.mask) >> p.shift) + p.add) % NE_MODULUS;
    // Always < 2^N <= 256; the mask makes that visible to the optimiser.
    NE_MIN.1[s][idx as usize & 255]
}

/// The perfect-hash backend with a table per square (fast, ≈ 560 KB).
#[derive(Copy, Clone, Debug, Default)]
pub struct FlFast;

impl Sliders for FlFast {
    const NAME: &'static str = "fl-fast";

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        file_h1(sq, occ) | rank_shift(sq, occ)
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        ne_h1(sq, occ) | nw_h2(sq, occ)
    }

    fn table_bytes(self) -> usize {
        core::mem::size_of_val(&MASKS)
            + core::mem::size_of_val(&FILE)
            + core::mem::size_of_val(&NE)
            + core::mem::size_of_val(&NW)
            + core::mem::size_of_val(&RANK)
    }
}

// ---------------------------------------------------------------------------
// The compact variant.

/// a2–a7: the a-file without its end squares.
const A_FILE_INNER: u64 = 0x0001_0101_0101_0100;

struct Compact {
    /// `[rank][h1(a-file occupancy)]` → attacks on the a-file.
    file: [[u64; FM]; 8],
    /// `[rank][ĥ1(main-diagonal occupancy)]` → attacks on a1–h8.
    ne: [[u64; 256]; 8],
    /// `[rank][h2(main-anti-diagonal occupancy)]` → attacks on h1–a8.
    nw: [[u64; NWM]; 8],
    /// `[file][inner occupancy of the rank]` → attacks on the first rank.
    rank: [[u8; 64]; 8],
    /// The diagonals through each square, including the square.
    ne_line: [u64; 64],
    nw_line: [u64; 64],
}

const NE_MIN_ADD: u64 = minimal_offset(8) as u64;

const fn build_compact() -> Compact {
    let mut c = Compact {
        file: [[0; FM]; 8],
        ne: [[0; 256]; 8],
        nw: [[0; NWM]; 8],
        rank: [[0; 64]; 8],
        ne_line: [0; 64],
        nw_line: [0; 64],
    };
    let mut r = 0;
    while r < 8 {
        let a_sq = (r * 8) as u8;
        for_each_subset!(A_FILE_INNER, |sub| {
            c.file[r][(sub % FILE_MODULUS) as usize] = ray(a_sq, 0, 1, sub) | ray(a_sq, 0, -1, sub);
        });
        let diag_sq = (r * 9) as u8;
        for_each_subset!(0x8040_2010_0804_0201, |sub| {
            let idx = ((sub + NE_MIN_ADD) % NE_MODULUS) as usize;
            c.ne[r][idx] = ray(diag_sq, 1, 1, sub) | ray(diag_sq, -1, -1, sub);
        });
        let anti_sq = (r * 7 + 7) as u8;
        for_each_subset!(0x0102_0408_1020_4080, |sub| {
            let idx = (sub % NW_MODULUS) as usize;
            c.nw[r][idx] = ray(anti_sq, 1, -1, sub) | ray(anti_sq, -1, 1, sub);
        });
        let mut idx = 0;
        while idx < 64 {
            let occ = (idx as u64) << 1;
            c.rank[r][idx] = (ray(r as u8, 1, 0, occ) | ray(r as u8, -1, 0, occ)) as u8;
            idx += 1;
        }
        r += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        c.ne_line[sq] = line_through(sq as u8, 1, 1) | 1 << sq;
        c.nw_line[sq] = line_through(sq as u8, 1, -1) | 1 << sq;
        sq += 1;
    }
    c
}

static COMPACT: Compact = build_compact();

/// The perfect-hash backend with one table per line geometry (≈ 50 KB).
#[derive(Copy, Clone, Debug, Default)]
pub struct FlCompact;

impl Sliders for FlCompact {
    const NAME: &'static str = "fl-compact";

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        let (f, r) = (sq.index() as u32 & 7, sq.index() as u32 >> 3);
        let a = ((occ.0 >> f) & A_FILE_INNER) % FILE_MODULUS;
        let file = COMPACT.file[r as usize][a as usize] << f;
        let inner = ((occ.0 >> (8 * r + 1)) & 63) as usize;
        let rank = (COMPACT.rank[f as usize][inner] as u64) << (8 * r);
        Bitboard(file | rank)
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        let s = sq.index();
        let (f, r) = (s as i32 & 7, s as i32 >> 3);
        let r_idx = r as usize & 7;
        // North-east: move the diagonal onto a1–h8 (square (r, f) → (r, r)).
        let ne_line = COMPACT.ne_line[s];
        let d = f - r;
        let ne_occ = occ.0 & ne_line;
        let norm = if d >= 0 { ne_occ >> d } else { ne_occ << -d };
        let idx = ((norm + NE_MIN_ADD) % NE_MODULUS) as usize & 255;
        let att = COMPACT.ne[r_idx][idx];
        let ne = if d >= 0 { att << d } else { att >> -d } & ne_line;
        // North-west: move it onto h1–a8 (square (r, f) → (r, 7 − r)).
        let nw_line = COMPACT.nw_line[s];
        let e = 7 - (f + r);
        let nw_occ = occ.0 & nw_line;
        let norm = if e >= 0 { nw_occ << e } else { nw_occ >> -e };
        let att = COMPACT.nw[r_idx][(norm % NW_MODULUS) as usize];
        let nw = if e >= 0 { att >> e } else { att << -e } & nw_line;
        Bitboard(ne | nw)
    }

    fn table_bytes(self) -> usize {
        core::mem::size_of::<Compact>()
    }
}

#[cfg(test)]
mod tests {
    use super::super::ray_loop;
    use super::*;
    use std::collections::HashMap;

    /// Every per-square hash used by the fast tables is collision-free over
    /// all occupancies of its line: a direct proof of perfectness for the
    /// parameters actually used, not only those of the generic module.
    #[test]
    fn per_square_hashes_are_perfect() {
        for sq in 0..64u8 {
            for (mask, modulus) in [
                (inner_line(sq, 0, 1), FILE_MODULUS),
                (inner_line(sq, 1, 1), NE_MODULUS),
                (inner_line(sq, 1, -1), NW_MODULUS),
            ] {
                let mut seen = HashMap::new();
                for_each_subset!(mask, |sub| {
                    if let Some(other) = seen.insert(sub % modulus, sub) {
                        panic!("square {sq}: {sub:#x} and {other:#x} collide mod {modulus}");
                    }
                });
            }
            let line = line_through(sq, 1, 1) | 1 << sq;
            let p = NE_MIN.0[sq as usize];
            let mut seen = HashMap::new();
            for_each_subset!(line, |sub| {
                let h = ((sub >> p.shift) + p.add) % NE_MODULUS;
                assert!(h < 1 << line.count_ones(), "ĥ1 out of range");
                assert!(seen.insert(h, sub).is_none(), "ĥ1 collision on {sq}");
            });
        }
    }

    #[test]
    fn every_line_function_matches_the_loop_exhaustively() {
        for sq in Square::ALL {
            let s = sq as u8;
            for_each_subset!(line_through(s, 0, 1) | line_through(s, 1, 0), |sub| {
                let occ = Bitboard(sub);
                assert_eq!(file_h1(sq, occ), ray_loop::file(sq, occ), "{sq} {occ:?}");
                assert_eq!(rank_shift(sq, occ), ray_loop::rank(sq, occ), "{sq} {occ:?}");
                assert_eq!(FlCompact.rook(sq, occ), ray_loop::RayLoop.rook(sq, occ));
            });
            for_each_subset!(line_through(s, 1, 1) | line_through(s, 1, -1), |sub| {
                let occ = Bitboard(sub);
                assert_eq!(ne_h1(sq, occ), ray_loop::ne(sq, occ), "{sq} {occ:?}");
                assert_eq!(
                    ne_h1_minimal(sq, occ),
                    ray_loop::ne(sq, occ),
                    "{sq} {occ:?}"
                );
                assert_eq!(nw_h2(sq, occ), ray_loop::nw(sq, occ), "{sq} {occ:?}");
                assert_eq!(FlCompact.bishop(sq, occ), ray_loop::RayLoop.bishop(sq, occ));
            });
        }
    }

    #[test]
    fn memory_budgets() {
        assert!(
            FlFast.table_bytes() < 600 * 1024,
            "{}",
            FlFast.table_bytes()
        );
        assert!(
            FlCompact.table_bytes() < 56 * 1024,
            "{}",
            FlCompact.table_bytes()
        );
    }
}
