//! Fenner & Levene's perfect hash with one table load per slider.
//!
//! [`super::fl::FlFast`] hashes each line of a slider on its own and reads
//! one table per line: two loads for a rook (file and rank), two for a
//! bishop (both diagonals), where fancy magic needs one. This backend keeps
//! the paper's `α mod m` functions as the hash but uses their *minimal*
//! form ĥ1 (§2.3: `(α + c(N)) mod m` lands in exactly `[0, 2^N)`), so the
//! two line addresses of a slider are dense and can be concatenated into
//! one index of one per-square table:
//!
//! * rook: the inner file (ranks 2–7, N = 6) shifted to bit 0 and hashed
//!   with ĥ1, k = 8 (`mod 258`), concatenated with the inner rank occupancy
//!   taken by a shift (6 bits): `64 × 64` entries per square;
//! * bishop: the inner north-east diagonal with ĥ1, k = 9 (`mod 514`) and
//!   the inner north-west diagonal with ĥ1, k = 7 (`mod 130`; h1 is
//!   perfect for N ≤ k − 1 = 6, which every inner diagonal satisfies),
//!   concatenated: `2^(N_ne + N_nw)` entries for the square, at a per-square
//!   offset into one flat table.
//!
//! The inner lines keep the slider's own square when it is not at a line's
//! end, so the rook table is 2 MB rather than fancy magic's ≈ 800 KB; only
//! the half of each line's addresses with the own square set is ever read
//! in a real position. Every per-square index is proven collision-free by
//! the tests (each occupancy pattern of the two lines reaches a distinct
//! entry), and every table is checked against the ray loop.

use super::lines::{inner_line, line_through, ray, Sliders};
use crate::bitboard::Bitboard;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Square;
use hashmate_hash::perfect_hash::minimal_offset;
use std::sync::OnceLock;

/// ĥ1 modulus on files (k = 8).
const FILE_M: u64 = (1 << 8) + 2;
/// ĥ1 modulus on north-east diagonals (k = 9).
const NE_M: u64 = (1 << 9) + 2;
/// ĥ1 modulus on north-west diagonals (k = 7).
const NW_M: u64 = (1 << 7) + 2;

/// a2–a7.
const A_FILE_INNER: u64 = 0x0001_0101_0101_0100;
/// c(6) for the file's six inner squares.
const FILE_ADD: u64 = minimal_offset(6) as u64;

/// Per-square parameters of both sliders, one 64-byte cache line.
#[derive(Copy, Clone, Default)]
#[repr(C, align(64))]
pub(crate) struct Params {
    file_mask: u64,
    /// Shift of the file's a2-equivalent square to bit 0.
    file_shift: u32,
    /// Shift of the rank's b-file square to bit 0.
    rank_shift: u32,
    ne_mask: u64,
    nw_mask: u64,
    ne_shift: u32,
    nw_shift: u32,
    ne_add: u32,
    nw_add: u32,
    /// log2 of the north-west address range.
    nw_bits: u32,
    /// Start of this square's bishop entries in the flat table.
    bishop_offset: u32,
}

/// The squares of the line through `sq` except its two ends, the slider's
/// own square included when it is not an end: consecutive positions of the
/// line, as the minimal ĥ1 needs (a gap would spread the addresses).
fn inner_with_own(sq: u8, df: i8, dr: i8) -> u64 {
    let inner = inner_line(sq, df, dr);
    if inner == 0 {
        return 0;
    }
    let full = line_through(sq, df, dr) | 1 << sq;
    let ends = (1u64 << full.trailing_zeros()) | (1u64 << (63 - full.leading_zeros()));
    full & !ends
}

/// The dense ĥ1 address of the line occupancy `occ & mask`.
#[inline(always)]
fn h1_min(occ: u64, mask: u64, shift: u32, add: u64, modulus: u64) -> u64 {
    (((occ & mask) >> shift) + add) % modulus
}

struct Tables {
    params: [Params; 64],
    rook: Vec<Bitboard>,
    bishop: Vec<Bitboard>,
}

fn params() -> [Params; 64] {
    let mut p = [Params::default(); 64];
    let mut offset = 0u32;
    for (sq, ps) in p.iter_mut().enumerate() {
        let (f, r) = (sq as u32 & 7, sq as u32 >> 3);
        let ne = inner_with_own(sq as u8, 1, 1);
        let nw = inner_with_own(sq as u8, 1, -1);
        // An empty line hashes to 0 whatever the shift; keep it in range.
        let shift = |m: u64| if m == 0 { 0 } else { m.trailing_zeros() };
        *ps = Params {
            file_mask: A_FILE_INNER << f,
            file_shift: f + 8,
            rank_shift: r * 8 + 1,
            ne_mask: ne,
            nw_mask: nw,
            ne_shift: shift(ne),
            nw_shift: shift(nw),
            ne_add: minimal_offset(ne.count_ones()) as u32,
            nw_add: minimal_offset(nw.count_ones()) as u32,
            nw_bits: nw.count_ones(),
            bishop_offset: offset,
        };
        offset += 1 << (ne.count_ones() + nw.count_ones());
    }
    p
}

#[inline(always)]
fn rook_index(p: &Params, occ: u64) -> usize {
    let file = h1_min(occ, p.file_mask, p.file_shift, FILE_ADD, FILE_M);
    let rank = (occ >> p.rank_shift) & 63;
    (file << 6 | rank) as usize
}

#[inline(always)]
fn bishop_index(p: &Params, occ: u64) -> usize {
    let ne = h1_min(occ, p.ne_mask, p.ne_shift, u64::from(p.ne_add), NE_M);
    let nw = h1_min(occ, p.nw_mask, p.nw_shift, u64::from(p.nw_add), NW_M);
    p.bishop_offset as usize + ((ne << p.nw_bits) | nw) as usize
}

/// Every subset of `mask` (Carry-Rippler).
fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let mut sub = 0u64;
    let mut done = false;
    core::iter::from_fn(move || {
        if done {
            return None;
        }
        let out = sub;
        sub = sub.wrapping_sub(mask) & mask;
        done = sub == 0;
        Some(out)
    })
}

fn build() -> Tables {
    let params = params();
    let mut rook = vec![Bitboard::EMPTY; 64 * 4096];
    let last = &params[63];
    let bishop_len = last.bishop_offset as usize
        + (1 << (last.ne_mask.count_ones() + last.nw_mask.count_ones()));
    let mut bishop = vec![Bitboard::EMPTY; bishop_len];
    for (sq, p) in params.iter().enumerate() {
        let s = sq as u8;
        let rank_inner = 0x7eu64 << (sq & !7);
        for occ in subsets(p.file_mask | rank_inner) {
            let att =
                ray(s, 0, 1, occ) | ray(s, 0, -1, occ) | ray(s, 1, 0, occ) | ray(s, -1, 0, occ);
            rook[sq * 4096 + rook_index(p, occ)] = Bitboard(att);
        }
        for occ in subsets(p.ne_mask | p.nw_mask) {
            let att =
                ray(s, 1, 1, occ) | ray(s, -1, -1, occ) | ray(s, 1, -1, occ) | ray(s, -1, 1, occ);
            bishop[bishop_index(p, occ)] = Bitboard(att);
        }
    }
    Tables {
        params,
        rook,
        bishop,
    }
}

static TABLES: OnceLock<Tables> = OnceLock::new();

#[inline(always)]
fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

/// The perfect-hash backend with one load per slider (minimal ĥ1 on both
/// lines, addresses concatenated; ≈ 2.2 MB built on first use).
#[derive(Copy, Clone, Debug, Default)]
pub struct FlJoint;

impl FlJoint {
    /// Builds the tables now rather than on the first lookup.
    pub fn init() -> Self {
        tables();
        FlJoint
    }
}

impl Sliders for FlJoint {
    const NAME: &'static str = "fl-joint";

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        let t = tables();
        let s = sq.index();
        t.rook[s * 4096 + rook_index(&t.params[s], occ.0)]
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        let t = tables();
        t.bishop[bishop_index(&t.params[sq.index()], occ.0)]
    }

    fn table_bytes(self) -> usize {
        let t = tables();
        core::mem::size_of_val(&t.params)
            + core::mem::size_of_val(t.rook.as_slice())
            + core::mem::size_of_val(t.bishop.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each square's two-line index is injective on the occupancies of its
    /// lines and stays inside the square's range: the concatenated minimal
    /// ĥ1 addresses are a perfect hash. (Not every entry is reached: where
    /// the own square lies inside both lines it is one bit of occupancy
    /// but appears in both addresses.)
    #[test]
    fn indices_are_perfect() {
        let p = params();
        for (sq, ps) in p.iter().enumerate() {
            let rank_inner = 0x7eu64 << (sq & !7);
            let mut seen = vec![false; 4096];
            for occ in subsets(ps.file_mask | rank_inner) {
                let i = rook_index(ps, occ);
                assert!(i < 4096 && !seen[i], "rook square {sq} occ {occ:#x}");
                seen[i] = true;
            }
            let n = 1usize << (ps.ne_mask.count_ones() + ps.nw_mask.count_ones());
            let mut seen = vec![false; n];
            for occ in subsets(ps.ne_mask | ps.nw_mask) {
                let i = bishop_index(ps, occ) - ps.bishop_offset as usize;
                assert!(i < n && !seen[i], "bishop square {sq} occ {occ:#x}");
                seen[i] = true;
            }
        }
    }
}
