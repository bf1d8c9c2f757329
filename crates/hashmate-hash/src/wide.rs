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
//! no gaps: about 560 KB for 10×8. The occupancy of a line is shifted down
//! to bit 0 first (the minimal functions assume it), which on 9×9 and 10×8
//! leaves it within 64 bits.
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
//! on the board, so no input can make them panic.

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

/// How one line through one square is hashed: the occupancy of its inner
/// squares, shifted down to bit 0, times `mul`, plus `add`, modulo the
/// line kind's modulus, is the address in its table at `base`.
#[derive(Copy, Clone, Debug, Default)]
struct LineHash {
    mask: u128,
    shift: u32,
    mul: u64,
    add: u64,
    base: u32,
}

/// The lines through one square.
#[derive(Copy, Clone, Debug, Default)]
struct SquareLines {
    file: LineHash,
    ne: LineHash,
    nw: LineHash,
    rank_shift: u32,
    rank_base: u32,
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
    lines: Vec<SquareLines>,
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
        let mut lines = Vec::with_capacity(Self::SQUARES);
        let mut table = Vec::new();
        for sq in 0..Self::SQUARES {
            let mut line = |df: i32, dr: i32, kind: HashKind, k: u32| {
                Self::build_line(sq, df, dr, kind, k, &mut table)
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
            lines.push(SquareLines {
                file,
                ne,
                nw,
                rank_shift,
                rank_base,
            });
        }
        Ok(WideSliders { lines, table })
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
            mask,
            shift: first,
            mul,
            add: minimal_offset(n) as u64 % modulus,
            base,
        };
        table.resize(table.len() + (1 << n), 0);
        let mut sub = 0u128;
        loop {
            let slot = Self::address(&h, sub, modulus);
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
    /// (a constant where inlined from the lookups below).
    #[inline(always)]
    fn address(h: &LineHash, occ: u128, modulus: u64) -> usize {
        let a = (occ & h.mask) >> h.shift;
        let r = if Self::NARROW {
            ((a as u64) * h.mul + h.add) % modulus
        } else {
            ((a * u128::from(h.mul) + u128::from(h.add)) % u128::from(modulus)) as u64
        };
        h.base as usize + r as usize
    }

    /// Number of squares.
    pub fn squares(&self) -> usize {
        Self::SQUARES
    }

    /// Rook attacks from square `sq` (`rank × files + file`) given the
    /// occupied squares `occ`, blockers included; `None` off the board.
    #[inline]
    pub fn rook(&self, sq: usize, occ: u128) -> Option<u128> {
        let l = self.lines.get(sq)?;
        let file = Self::address(&l.file, occ, Self::FILE_MODULUS);
        let rank = l.rank_base as usize + ((occ >> l.rank_shift) & Self::RANK_MASK) as usize;
        Some(self.table[file] | self.table[rank])
    }

    /// Bishop attacks from `sq`, as for [`WideSliders::rook`].
    #[inline]
    pub fn bishop(&self, sq: usize, occ: u128) -> Option<u128> {
        let l = self.lines.get(sq)?;
        let ne = Self::address(&l.ne, occ, Self::NE_MODULUS);
        let nw = Self::address(&l.nw, occ, Self::NW_MODULUS);
        Some(self.table[ne] | self.table[nw])
    }

    /// Bytes of tables.
    pub fn table_bytes(&self) -> usize {
        self.table.len() * 16 + self.lines.len() * core::mem::size_of::<SquareLines>()
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
        let l = self.lines.get(sq)?;
        Some([
            l.file.mask,
            Self::RANK_MASK << l.rank_shift,
            l.ne.mask,
            l.nw.mask,
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
