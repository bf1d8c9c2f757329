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

use crate::perfect_hash::{HashKind, PerfectHash, PerfectHashError};

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
        files: u8,
        ranks: u8,
    },
    /// More than 128 squares, or fewer than 3 files or ranks.
    BadSize {
        files: u8,
        ranks: u8,
    },
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
                    "{files}×{ranks}: need 3 to 128 squares per side and at most 128 in all"
                )
            }
            GeometryError::Hash(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GeometryError {}

/// Rook and bishop attacks on a `files × ranks` board.
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
        if ranks < 3 || files as usize * ranks as usize > 128 {
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

    pub fn squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Rook attacks from square `sq` (`rank × files + file`).
    #[inline]
    pub fn rook(&self, sq: usize, occ: u128) -> u128 {
        let w = self.files as u32;
        let shift = (sq as u32 / w) * w + 1;
        let idx = (occ >> shift) & ((1u128 << (w - 2)) - 1);
        self.lines[sq][0].attacks(occ) | self.rank[sq][idx as usize]
    }

    /// Bishop attacks from `sq`.
    #[inline]
    pub fn bishop(&self, sq: usize, occ: u128) -> u128 {
        self.lines[sq][1].attacks(occ) | self.lines[sq][2].attacks(occ)
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

    /// Rook attacks by walking the rays (the reference).
    pub fn rook_reference(&self, sq: usize, occ: u128) -> u128 {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .fold(0, |a, &(df, dr)| {
                a | ray(self.files, self.ranks, sq, df, dr, occ)
            })
    }

    /// Bishop attacks by walking the rays (the reference).
    pub fn bishop_reference(&self, sq: usize, occ: u128) -> u128 {
        [(1, 1), (-1, -1), (1, -1), (-1, 1)]
            .iter()
            .fold(0, |a, &(df, dr)| {
                a | ray(self.files, self.ranks, sq, df, dr, occ)
            })
    }

    /// The squares of the lines through `sq` (for exhaustive tests).
    pub fn line_masks(&self, sq: usize) -> [u128; 4] {
        let l = &self.lines[sq];
        let w = self.files as u32;
        let rank_inner = ((1u128 << (w - 2)) - 1) << ((sq as u32 / w) * w + 1);
        [l[0].mask, rank_inner, l[1].mask, l[2].mask]
    }
}

fn ray(files: u8, ranks: u8, sq: usize, df: i32, dr: i32, occ: u128) -> u128 {
    let (w, h) = (files as i32, ranks as i32);
    let (mut f, mut r) = ((sq as i32 % w) + df, (sq as i32 / w) + dr);
    let mut out = 0u128;
    while f >= 0 && f < w && r >= 0 && r < h {
        let bit = 1u128 << (r * w + f);
        out |= bit;
        if occ & bit != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    out
}

/// The line through `sq` in direction ±(df, dr) without its end squares
/// and without `sq`.
fn inner_line(files: u8, ranks: u8, sq: usize, df: i32, dr: i32) -> u128 {
    let a = ray(files, ranks, sq, df, dr, 0);
    let b = ray(files, ranks, sq, -df, -dr, 0);
    // The far end of a ray is its highest bit when it runs upwards in
    // square numbers, its lowest otherwise; drop it.
    let strip = |r: u128, df: i32, dr: i32| -> u128 {
        if r == 0 {
            return 0;
        }
        let up = dr > 0 || (dr == 0 && df > 0);
        let end = if up {
            127 - r.leading_zeros()
        } else {
            r.trailing_zeros()
        };
        r & !(1u128 << end)
    };
    strip(a, df, dr) | strip(b, -df, -dr)
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
                let [file, rank, ne, nw] = s.line_masks(sq);
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
    fn eight_by_eight_agrees_with_the_chess_tables() {
        use crate::attacks::{bishop_attacks, rook_attacks};
        use crate::{Bitboard, Square};
        let s = WideSliders::new(8, 8).unwrap();
        let mut rng = crate::rng::SplitMix64::new(8);
        for _ in 0..20_000 {
            let sq = rng.below(64) as usize;
            let occ = rng.next_u64() & rng.next_u64();
            let q = Square::new(sq as u8).unwrap();
            assert_eq!(
                s.rook(sq, occ as u128),
                rook_attacks(q, Bitboard(occ)).0 as u128
            );
            assert_eq!(
                s.bishop(sq, occ as u128),
                bishop_attacks(q, Bitboard(occ)).0 as u128
            );
        }
    }
}
