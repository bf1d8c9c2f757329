//! Perfect-hash sliding attacks on boards other than 8×8, in `u128`.
//!
//! The paper's conclusion says its functions serve Shogi (9×9) and Gothic
//! chess (10×8) as long as the board has at least as many files as ranks.
//! On a board `W` files wide (square = `rank × W + file`):
//!
//! | line | spacing k | function | table per square |
//! | --- | --- | --- | --- |
//! | file | W | h1, `α mod (2^W + 2)` | 2^W + 2 |
//! | north-east diagonal | W + 1 | h1, `α mod (2^(W+1) + 2)` | 2^(W+1) + 2 |
//! | north-west diagonal | W − 1 | h2, `α mod (2^W + 1)` | 2^W + 1 |
//! | rank | 1 | a shift | 2^(W−2) |
//!
//! As on 8×8, each line keeps only its inner squares, so at most `H − 2`
//! positions are active and h1 needs no alignment shift (`N ≤ k − 1`); h2
//! never does. The functions come from [`crate::perfect_hash`], which
//! refuses any geometry where they would not be perfect. The hash addresses
//! index per-square attack tables directly.
//!
//! Lookups take a square index and return `None` for a square that is not
//! on the board, so no input can make them panic.

use crate::geometry::{inner_line, ray};
use crate::perfect_hash::{HashKind, PerfectHash, PerfectHashError};

/// The widest board accepted: the north-east diagonal table of a square
/// has `2^(files+1) + 2` entries, so the tables grow fourfold per file.
pub const MAX_FILES: u8 = 12;

/// One line through one square.
#[derive(Clone, Debug)]
struct Line {
    mask: u128,
    hash: Option<PerfectHash>,
    table: Vec<u128>,
}

impl Line {
    #[inline]
    fn attacks(&self, occ: u128) -> u128 {
        match &self.hash {
            Some(h) => self.table[h.hash(occ & self.mask)],
            None => self.table[0],
        }
    }
}

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

impl std::error::Error for GeometryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GeometryError::Hash(e) => Some(e),
            _ => None,
        }
    }
}

/// Rook and bishop attacks on a `files × ranks` board, squares numbered
/// `rank × files + file`.
///
/// ```
/// use hashmate_hash::wide::WideSliders;
/// let shogi = WideSliders::shogi();
/// // A rook on e5 (4 + 4 × 9 = 40) of an empty 9×9 board sees 16 squares.
/// assert_eq!(shogi.rook(40, 0).map(u128::count_ones), Some(16));
/// assert_eq!(shogi.rook(81, 0), None); // no such square
/// ```
#[derive(Clone, Debug)]
pub struct WideSliders {
    files: u8,
    ranks: u8,
    /// Per square: file, north-east, north-west.
    lines: Vec<[Line; 3]>,
    /// Per square: rank attacks by inner-rank occupancy.
    rank: Vec<Vec<u128>>,
}

impl WideSliders {
    /// Shogi's 9×9 board.
    pub fn shogi() -> WideSliders {
        WideSliders::new(9, 9).expect("9×9 is supported")
    }

    /// Gothic chess's 10×8 board.
    pub fn gothic() -> WideSliders {
        WideSliders::new(10, 8).expect("10×8 is supported")
    }

    /// Tables for a board of `files × ranks`.
    ///
    /// # Errors
    /// [`GeometryError`] for boards the paper's functions do not cover.
    pub fn new(files: u8, ranks: u8) -> Result<WideSliders, GeometryError> {
        if files < ranks {
            return Err(GeometryError::MoreRanksThanFiles { files, ranks });
        }
        if ranks < 3 || files > MAX_FILES || files as usize * ranks as usize > 128 {
            return Err(GeometryError::BadSize { files, ranks });
        }
        let w = files as u32;
        let n = files as usize * ranks as usize;
        let mut lines = Vec::with_capacity(n);
        let mut rank_tables = Vec::with_capacity(n);
        for sq in 0..n {
            let mk = |df: i32, dr: i32, kind: HashKind, k: u32| -> Result<Line, GeometryError> {
                let mask = inner_line(files, ranks, sq, df, dr);
                if mask == 0 {
                    let att = ray(files, ranks, sq, df, dr, 0) | ray(files, ranks, sq, -df, -dr, 0);
                    return Ok(Line {
                        mask,
                        hash: None,
                        table: vec![att],
                    });
                }
                let first = mask.trailing_zeros();
                let last = 127 - mask.leading_zeros();
                let count = (last - first) / k + 1;
                let h = PerfectHash::new(kind, k, count, first).map_err(GeometryError::Hash)?;
                let mut table = vec![0u128; h.table_size()];
                let mut sub = 0u128;
                loop {
                    table[h.hash(sub)] =
                        ray(files, ranks, sq, df, dr, sub) | ray(files, ranks, sq, -df, -dr, sub);
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
                Ok(Line {
                    mask,
                    hash: Some(h),
                    table,
                })
            };
            lines.push([
                mk(0, 1, HashKind::H1, w)?,
                mk(1, 1, HashKind::H1, w + 1)?,
                mk(1, -1, HashKind::H2, w - 1)?,
            ]);
            let r = sq / files as usize;
            let shift = r as u32 * w + 1;
            rank_tables.push(
                (0..1u128 << (w - 2))
                    .map(|idx| {
                        let occ = idx << shift;
                        ray(files, ranks, sq, 1, 0, occ) | ray(files, ranks, sq, -1, 0, occ)
                    })
                    .collect(),
            );
        }
        Ok(WideSliders {
            files,
            ranks,
            lines,
            rank: rank_tables,
        })
    }

    /// Number of squares.
    pub fn squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Rook attacks from square `sq` (`rank × files + file`) given the
    /// occupied squares `occ`, blockers included; `None` off the board.
    #[inline]
    pub fn rook(&self, sq: usize, occ: u128) -> Option<u128> {
        let lines = self.lines.get(sq)?;
        let w = self.files as u32;
        let shift = (sq as u32 / w) * w + 1;
        let idx = (occ >> shift) & ((1u128 << (w - 2)) - 1);
        Some(lines[0].attacks(occ) | self.rank[sq][idx as usize])
    }

    /// Bishop attacks from `sq`, as for [`WideSliders::rook`].
    #[inline]
    pub fn bishop(&self, sq: usize, occ: u128) -> Option<u128> {
        let lines = self.lines.get(sq)?;
        Some(lines[1].attacks(occ) | lines[2].attacks(occ))
    }

    /// Bytes of tables.
    pub fn table_bytes(&self) -> usize {
        let lines: usize = self
            .lines
            .iter()
            .flatten()
            .map(|l| l.table.len() * 16)
            .sum();
        lines + self.rank.iter().map(|t| t.len() * 16).sum::<usize>()
    }

    /// Rook attacks by walking the rays (the reference); `None` off the
    /// board.
    pub fn rook_reference(&self, sq: usize, occ: u128) -> Option<u128> {
        self.walk(sq, occ, [(1, 0), (-1, 0), (0, 1), (0, -1)])
    }

    /// Bishop attacks by walking the rays (the reference); `None` off the
    /// board.
    pub fn bishop_reference(&self, sq: usize, occ: u128) -> Option<u128> {
        self.walk(sq, occ, [(1, 1), (-1, -1), (1, -1), (-1, 1)])
    }

    fn walk(&self, sq: usize, occ: u128, dirs: [(i32, i32); 4]) -> Option<u128> {
        (sq < self.squares()).then(|| {
            dirs.iter().fold(0, |a, &(df, dr)| {
                a | ray(self.files, self.ranks, sq, df, dr, occ)
            })
        })
    }

    /// The relevant squares of the lines through `sq` — file, rank,
    /// north-east and north-west diagonal, ends excluded — for exhaustive
    /// tests; `None` off the board.
    pub fn line_masks(&self, sq: usize) -> Option<[u128; 4]> {
        let l = self.lines.get(sq)?;
        let w = self.files as u32;
        let rank_inner = ((1u128 << (w - 2)) - 1) << ((sq as u32 / w) * w + 1);
        Some([l[0].mask, rank_inner, l[1].mask, l[2].mask])
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

    #[test]
    fn exhaustive_per_line_on_shogi_and_gothic_boards() {
        for s in [
            WideSliders::shogi(),
            WideSliders::gothic(),
            WideSliders::new(8, 8).unwrap(),
        ] {
            for sq in 0..s.squares() {
                let [file, rank, ne, nw] = s.line_masks(sq).unwrap();
                each_subset(file | rank, |occ| {
                    assert_eq!(
                        s.rook(sq, occ),
                        s.rook_reference(sq, occ),
                        "rook {sq} {occ:#x}"
                    );
                    assert!(s.rook(sq, occ).is_some());
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
    }

    #[test]
    fn refuses_tall_boards() {
        assert_eq!(
            WideSliders::new(8, 10).err(),
            Some(GeometryError::MoreRanksThanFiles {
                files: 8,
                ranks: 10
            })
        );
        assert!(WideSliders::new(12, 11).is_err()); // 132 squares
        assert!(WideSliders::new(9, 2).is_err());
    }

    #[test]
    fn off_the_board_is_none() {
        let s = WideSliders::gothic();
        assert_eq!(s.rook(80, 0), None);
        assert_eq!(s.bishop(usize::MAX, !0), None);
        assert_eq!(s.rook_reference(80, 0), None);
        assert_eq!(s.line_masks(80), None);
        assert!(s.rook(79, !0).is_some());
    }
}
