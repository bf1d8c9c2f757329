//! Perfect-hash sliding attacks on boards other than 8×8, in `u128`.
//!
//! The paper's conclusion says its functions serve Shogi (9×9) and Gothic
//! chess (10×8) as long as the board has at least as many files as ranks.
//! On a board `W` files wide (square = `rank × W + file`):
//!
//! | line | spacing k | function | modulus |
//! | --- | --- | --- | --- |
//! | file | W | ĥ1, `(α + c) mod (2^W + 2)` | 2^W + 2 |
//! | north-east diagonal | W + 1 | ĥ1, `(α + c) mod (2^(W+1) + 2)` | 2^(W+1) + 2 |
//! | north-west diagonal | W − 1 | ĥ2, `(±2^(N−1) α + c) mod (2^W + 1)` | 2^W + 1 |
//! | rank | 1 | a shift | — |
//!
//! Each line keeps only its inner squares (the ends never block anything
//! beyond themselves), so at most `H − 2` positions are active. The minimal
//! variants ĥ1 and ĥ2 (the paper's §2.3) map the `2^N` occupancies of a
//! line onto exactly `0 .. 2^N`, so each line's table has `2^N` entries and
//! no gaps: about 470 KB for 10×8. The occupancy of a line is shifted down
//! to bit 0 first (the minimal functions assume it), which on 9×9 and 10×8
//! leaves it within 64 bits: the shift is split into a funnel shift of the
//! board's two `u64` halves by at most 63 bits and a `u64` shift for the
//! rest, so no 128-bit shift (and its test for 64 or more) is made.
//!
//! The board's size is a compile-time parameter, so every modulus is a
//! constant and each `%` compiles to a multiply-high and a few integer
//! operations on a `u64`, not a 128-bit division; boards whose lines do not
//! fit 64 bits after the shift use `u128` arithmetic instead (decided at
//! compile time too). [`crate::perfect_hash::PerfectHash`] — the paper's
//! definitions, computed generically — is the reference the tests hold
//! every address against.
//!
//! Lookups take a square index and return `None` for a square that is not
//! on the board, so no input can make them panic. A lookup reads its
//! square's parameters as one record (the rook's file and rank, or the
//! bishop's two diagonals) and the table without bounds checks: every
//! address it can compute was written, bounds-checked, when the table was
//! built.

use crate::geometry::{inner_line, ray};
use crate::perfect_hash::{minimal_offset, HashKind, PerfectHash, PerfectHashError};
#[allow(unused_imports)]
use crate::prelude::*;

/// Why a board geometry is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GeometryError {
    /// Fewer files than ranks: the paper's condition fails.
    MoreRanksThanFiles {
        /// Files asked for.
        files: u8,
        /// Ranks asked for.
        ranks: u8,
    },
    /// More than 128 squares, more than [`MAX_FILES`] files, or fewer than
    /// 3 ranks.
    BadSize {
        /// Files asked for.
        files: u8,
        /// Ranks asked for.
        ranks: u8,
    },
    /// A line's hash function could not be built.
    Hash(PerfectHashError),
}

impl core::fmt::Display for GeometryError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GeometryError::MoreRanksThanFiles { files, ranks } => write!(
                f,
                "{files}×{ranks}: the perfect hashes need at least as many files as ranks"
            ),
            GeometryError::BadSize { files, ranks } => {
                write!(
                    f,
                    "{files}×{ranks}: need 3 to {MAX_FILES} files, at least 3 ranks and at most 128 squares"
                )
            }
            GeometryError::Hash(_) => write!(f, "a line of this board has no perfect hash"),
        }
    }
}

impl core::error::Error for GeometryError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            GeometryError::Hash(e) => Some(e),
            _ => None,
        }
    }
}

/// The widest board accepted: a rank's table has `2^(files − 2)` entries
/// per square.
pub const MAX_FILES: u8 = 12;

/// How one line through one square is hashed: the occupancy shifted down
/// by `shift` and masked to the line's inner squares, times `mul` (ĥ2
/// only), plus `add`, modulo the line kind's modulus, is the address in
/// the table, counted from `base`. Kept small (32 bytes) so that a lookup
/// reads one cache line of parameters per line.
#[derive(Copy, Clone, Debug, Default)]
struct LineHash {
    /// The inner squares of the line, already shifted down to bit 0, as
    /// two halves (low, high) so that the record stays 8-byte aligned.
    mask: [u64; 2],
    base: u32,
    mul: u16,
    add: u16,
    /// The line's lowest inner square, split into `near` (at most 63) and
    /// `far` (the rest): `(occ >> near) as u64` is one funnel shift of the
    /// two halves of the board, and `>> far` finishes it in 64 bits.
    shift: Split,
}

/// A shift of the board by `near + far` bits, `near` ≤ 63: where a line
/// fits 64 bits once shifted down, `((occ >> near) as u64) >> far` takes
/// it out without a 128-bit shift's test for shifts of 64 or more.
#[derive(Copy, Clone, Debug, Default)]
struct Split {
    near: u8,
    far: u8,
}

impl Split {
    fn new(bits: u32) -> Split {
        Split {
            near: bits.min(63) as u8,
            far: bits.saturating_sub(63) as u8,
        }
    }

    fn bits(self) -> u32 {
        u32::from(self.near) + u32::from(self.far)
    }

    /// `occ >> bits` in 64 bits (exact where the result fits).
    #[inline(always)]
    fn apply(self, occ: u128) -> u64 {
        ((occ >> (self.near & 63)) as u64) >> (self.far & 63)
    }
}

impl LineHash {
    fn mask(&self) -> u128 {
        u128::from(self.mask[0]) | u128::from(self.mask[1]) << 64
    }
}

/// The lines a rook moves along from one square, read together: the file
/// by ĥ1, and the rank, whose inner squares shifted down to bit 0 index
/// its table from `rank_base` directly (a shift is the perfect hash of a
/// rank, whose squares are adjacent bits).
#[derive(Copy, Clone, Debug, Default)]
struct RookLines {
    file: LineHash,
    rank_shift: Split,
    rank_base: u32,
}

/// The two diagonals a bishop moves along from one square.
#[derive(Copy, Clone, Debug, Default)]
struct BishopLines {
    ne: LineHash,
    nw: LineHash,
}

/// Rook and bishop attacks on a `FILES × RANKS` board, squares numbered
/// `rank × FILES + file`.
///
/// ```
/// use hashmate_hash::wide::Shogi;
/// let shogi = Shogi::new()?;
/// // A rook on e5 (4 + 4 × 9 = 40) of an empty 9×9 board sees 16 squares.
/// assert_eq!(shogi.rook(40, 0).map(u128::count_ones), Some(16));
/// assert_eq!(shogi.rook(81, 0), None); // no such square
/// # Ok::<(), hashmate_hash::wide::GeometryError>(())
/// ```
#[derive(Clone, Debug)]
pub struct WideSliders<const FILES: u8, const RANKS: u8> {
    rook: Vec<RookLines>,
    bishop: Vec<BishopLines>,
    table: Vec<u128>,
}

/// Shogi's 9×9 board.
pub type Shogi = WideSliders<9, 9>;
/// The 10×8 board of Capablanca and Gothic chess.
pub type TenByEight = WideSliders<10, 8>;

impl<const FILES: u8, const RANKS: u8> WideSliders<FILES, RANKS> {
    const W: u32 = FILES as u32;
    /// ĥ1 on files: spacing `W`.
    const FILE_MODULUS: u64 = (1u64 << FILES) + 2;
    /// ĥ1 on north-east diagonals: spacing `W + 1`.
    const NE_MODULUS: u64 = (1u64 << (FILES + 1)) + 2;
    /// ĥ2 on north-west diagonals: spacing `W − 1`, modulus `2^W + 1`.
    const NW_MODULUS: u64 = (1u64 << FILES) + 1;
    /// Whether `u64` arithmetic is exact: a line of at most `RANKS − 2`
    /// positions shifted to bit 0 spans `(RANKS − 3) · k` bits; plus one for
    /// the top bit, one for the added constant, and for ĥ2 the multiplier's
    /// `FILES + 1` bits, it must stay within 63.
    const NARROW: bool = {
        let (w, n) = (FILES as u32, (RANKS as u32).saturating_sub(3));
        let file = n * w + 2;
        let ne = n * (w + 1) + 2;
        let nw = n * (w - 1) + w + 3;
        file <= 63 && ne <= 63 && nw <= 63
    };
    /// Number of squares.
    pub const SQUARES: usize = FILES as usize * RANKS as usize;
    const RANK_MASK: u128 = (1u128 << (FILES - 2)) - 1;

    /// Tables for this board.
    ///
    /// # Errors
    /// [`GeometryError`] for boards the paper's functions do not cover.
    pub fn new() -> Result<Self, GeometryError> {
        let (files, ranks) = (FILES, RANKS);
        if files < ranks {
            return Err(GeometryError::MoreRanksThanFiles { files, ranks });
        }
        if ranks < 3 || files > MAX_FILES || Self::SQUARES > 128 {
            return Err(GeometryError::BadSize { files, ranks });
        }
        let n = Self::SQUARES;
        let mut out = WideSliders {
            rook: Vec::with_capacity(n),
            bishop: Vec::with_capacity(n),
            table: Vec::new(),
        };
        for sq in 0..n {
            let table = &mut out.table;
            let mut line = |df: i32, dr: i32, kind: HashKind, k: u32| {
                Self::build_line(sq, df, dr, kind, k, table)
            };
            let file = line(0, 1, HashKind::H1Minimal, Self::W)?;
            let ne = line(1, 1, HashKind::H1Minimal, Self::W + 1)?;
            let nw = line(1, -1, HashKind::H2Minimal, Self::W - 1)?;
            let rank_shift = (sq as u32 / Self::W) * Self::W + 1;
            let rank_base = table.len() as u32;
            for idx in 0..=Self::RANK_MASK {
                let occ = idx << rank_shift;
                table.push(ray(files, ranks, sq, 1, 0, occ) | ray(files, ranks, sq, -1, 0, occ));
            }
            out.rook.push(RookLines {
                file,
                rank_shift: Split::new(rank_shift),
                rank_base,
            });
            out.bishop.push(BishopLines { ne, nw });
        }
        Ok(out)
    }

    /// The hash of one line through `sq`, its table appended to `table`.
    fn build_line(
        sq: usize,
        df: i32,
        dr: i32,
        kind: HashKind,
        k: u32,
        table: &mut Vec<u128>,
    ) -> Result<LineHash, GeometryError> {
        let attacks =
            |occ: u128| ray(FILES, RANKS, sq, df, dr, occ) | ray(FILES, RANKS, sq, -df, -dr, occ);
        let mask = inner_line(FILES, RANKS, sq, df, dr);
        let base = table.len() as u32;
        if mask == 0 {
            table.push(attacks(0));
            return Ok(LineHash {
                base,
                ..LineHash::default()
            });
        }
        let first = mask.trailing_zeros();
        let last = 127 - mask.leading_zeros();
        let n = (last - first) / k + 1;
        // Checks the geometry, and is the reference for every address.
        let reference = PerfectHash::new(kind, k, n, first).map_err(GeometryError::Hash)?;
        let modulus = reference.modulus() as u64;
        let mul = match kind {
            // ±2^(N−1) modulo the (odd) modulus.
            HashKind::H2Minimal => {
                let p = (1u64 << (n - 1)) % modulus;
                if (n - 1) % 2 == 1 {
                    (modulus - p) % modulus
                } else {
                    p
                }
            }
            _ => 1,
        };
        let h = LineHash {
            mask: [(mask >> first) as u64, (mask >> first >> 64) as u64],
            shift: Split::new(first),
            mul: mul as u16,
            add: (minimal_offset(n) as u64 % modulus) as u16,
            base,
        };
        table.resize(table.len() + (1 << n), 0);
        let mut sub = 0u128;
        loop {
            let slot = Self::address::<true>(&h, sub, modulus);
            debug_assert_eq!(slot - base as usize, reference.hash(sub));
            table[slot] = attacks(sub);
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        Ok(h)
    }

    /// The table address of occupancy `occ` on line `h` with `modulus`
    /// (a constant where inlined from the lookups below); `MUL` is false
    /// for ĥ1, whose multiplier is 1.
    #[inline(always)]
    fn address<const MUL: bool>(h: &LineHash, occ: u128, modulus: u64) -> usize {
        let r = if Self::NARROW {
            // The line fits 64 bits once shifted down: one funnel shift.
            let a = h.shift.apply(occ) & h.mask[0];
            let a = if MUL { a * u64::from(h.mul) } else { a };
            (a + u64::from(h.add)) % modulus
        } else {
            let a = (occ >> h.shift.bits()) & h.mask();
            ((a * u128::from(h.mul) + u128::from(h.add)) % u128::from(modulus)) as u64
        };
        h.base as usize + r as usize
    }

    /// The table entry at `i`, an address computed by [`Self::address`]
    /// (or a rank's `base + index`) for some square's line.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn entry(&self, i: usize) -> u128 {
        debug_assert!(i < self.table.len());
        // Safety: `i` is in bounds. A lookup masks the occupancy to one
        // line's inner squares, so the address it computes is that of a
        // subset `build_line` enumerated when the table was built, and
        // there it was written through a bounds-checked index (`new`
        // returns only if every such write was in bounds); a rank's index
        // is at most `rank_base + RANK_MASK`, and `new` pushed
        // `RANK_MASK + 1` entries from `rank_base`. The table and the line
        // parameters are private and never change after `new`. Measured
        // on 10×8 lookups from real positions: 4.36 → 4.06 ns per lookup
        // (−7 %) without the two checks (docs/BENCHMARKS.md, "Sliders on
        // other boards").
        unsafe { *self.table.get_unchecked(i) }
    }

    /// Number of squares.
    pub fn squares(&self) -> usize {
        Self::SQUARES
    }

    /// Rook attacks from square `sq` (`rank × files + file`) given the
    /// occupied squares `occ`, blockers included; `None` off the board.
    #[inline]
    pub fn rook(&self, sq: usize, occ: u128) -> Option<u128> {
        let l = self.rook.get(sq)?;
        let file = Self::address::<false>(&l.file, occ, Self::FILE_MODULUS);
        let rank =
            l.rank_base as usize + (l.rank_shift.apply(occ) & Self::RANK_MASK as u64) as usize;
        Some(self.entry(file) | self.entry(rank))
    }

    /// Bishop attacks from `sq`, as for [`WideSliders::rook`].
    #[inline]
    pub fn bishop(&self, sq: usize, occ: u128) -> Option<u128> {
        let l = self.bishop.get(sq)?;
        let ne = Self::address::<false>(&l.ne, occ, Self::NE_MODULUS);
        let nw = Self::address::<true>(&l.nw, occ, Self::NW_MODULUS);
        Some(self.entry(ne) | self.entry(nw))
    }

    /// Bytes of tables.
    pub fn table_bytes(&self) -> usize {
        self.table.len() * 16
            + self.rook.len() * core::mem::size_of::<RookLines>()
            + self.bishop.len() * core::mem::size_of::<BishopLines>()
    }

    /// Rook attacks by walking the rays (the reference); `None` off the
    /// board.
    pub fn rook_reference(&self, sq: usize, occ: u128) -> Option<u128> {
        Self::walk(sq, occ, [(1, 0), (-1, 0), (0, 1), (0, -1)])
    }

    /// Bishop attacks by walking the rays (the reference); `None` off the
    /// board.
    pub fn bishop_reference(&self, sq: usize, occ: u128) -> Option<u128> {
        Self::walk(sq, occ, [(1, 1), (-1, -1), (1, -1), (-1, 1)])
    }

    fn walk(sq: usize, occ: u128, dirs: [(i32, i32); 4]) -> Option<u128> {
        (sq < Self::SQUARES).then(|| {
            dirs.iter()
                .fold(0, |a, &(df, dr)| a | ray(FILES, RANKS, sq, df, dr, occ))
        })
    }

    /// The relevant squares of the lines through `sq` — file, rank,
    /// north-east and north-west diagonal, ends excluded — for exhaustive
    /// tests; `None` off the board.
    pub fn line_masks(&self, sq: usize) -> Option<[u128; 4]> {
        let (r, b) = (self.rook.get(sq)?, self.bishop.get(sq)?);
        let line = |h: &LineHash| h.mask() << h.shift.bits();
        Some([
            line(&r.file),
            Self::RANK_MASK << r.rank_shift.bits(),
            line(&b.ne),
            line(&b.nw),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn each_subset(mask: u128, mut f: impl FnMut(u128)) {
        let mut sub = 0u128;
        loop {
            f(sub);
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
    }

    fn exhaustive<const F: u8, const R: u8>() {
        let s = WideSliders::<F, R>::new().unwrap();
        for sq in 0..s.squares() {
            let [file, rank, ne, nw] = s.line_masks(sq).unwrap();
            each_subset(file | rank, |occ| {
                assert_eq!(
                    s.rook(sq, occ),
                    s.rook_reference(sq, occ),
                    "rook {sq} {occ:#x}"
                );
            });
            each_subset(ne | nw, |occ| {
                assert_eq!(
                    s.bishop(sq, occ),
                    s.bishop_reference(sq, occ),
                    "bishop {sq} {occ:#x}"
                );
            });
        }
    }

    #[test]
    fn exhaustive_per_line_on_shogi_gothic_and_chess_boards() {
        exhaustive::<9, 9>();
        exhaustive::<10, 8>();
        exhaustive::<8, 8>();
        exhaustive::<12, 10>(); // lines wider than 64 bits: the u128 path
    }

    #[test]
    fn refuses_tall_and_huge_boards() {
        assert_eq!(
            WideSliders::<8, 10>::new().err(),
            Some(GeometryError::MoreRanksThanFiles {
                files: 8,
                ranks: 10
            })
        );
        assert!(WideSliders::<12, 11>::new().is_err()); // 132 squares
        assert!(WideSliders::<9, 2>::new().is_err());
    }

    // 9×9 and 10×8 take the u64 path; 12×10 the u128 one.
    const _: () = assert!(Shogi::NARROW && TenByEight::NARROW && WideSliders::<8, 8>::NARROW);
    const _: () = assert!(!WideSliders::<12, 10>::NARROW);

    #[test]
    fn off_the_board_is_none() {
        let s = TenByEight::new().unwrap();
        assert_eq!(s.rook(80, 0), None);
        assert_eq!(s.bishop(usize::MAX, !0), None);
        assert_eq!(s.rook_reference(80, 0), None);
        assert_eq!(s.line_masks(80), None);
        assert!(s.rook(79, !0).is_some());
        assert!(s.table_bytes() < 600 << 10, "{}", s.table_bytes());
    }
}
