//! The `Bitboard`: a set of squares as the bits of a `u64`.
//!
//! Bit `n` is square `n` of Table 1 (a1 = bit 0, h8 = bit 63). The type is a
//! transparent newtype, so every operation compiles to the one or two integer
//! instructions it stands for; `Bitboard(x)` is public for code that needs
//! the raw integer (hash functions, magic multiplication).

#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::{File, Rank, Square};
use core::fmt;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

/// A set of squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The first rank.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// a1–h8.
    pub const MAIN_DIAGONAL: Bitboard = Bitboard(0x8040_2010_0804_0201);
    /// h1–a8.
    pub const MAIN_ANTI_DIAGONAL: Bitboard = Bitboard(0x0102_0408_1020_4080);
    /// The 36 squares not on the board's edge.
    pub const INNER: Bitboard = Bitboard(0x007e_7e7e_7e7e_7e00);
    /// The 32 dark squares (a1 is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u8)
    }

    /// The eight squares of `file`.
    #[inline]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(Self::FILE_A.0 << file as u8)
    }

    /// The eight squares of `rank`.
    #[inline]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(Self::RANK_1.0 << (8 * rank as u8))
    }

    /// No square in the set?
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// At least one square in the set?
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Is `sq` in the set?
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq as u8 & 1 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square?
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_wrapping(self.0.trailing_zeros()))
        }
    }

    /// The only square of a set known to hold exactly one square (the
    /// lowest, for a larger set; a1 for an empty one).
    #[inline(always)]
    pub const fn single(self) -> Square {
        Square::from_index_wrapping(self.0.trailing_zeros())
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u8)
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u8))
    }

    /// Add `sq` if absent, remove it if present.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq as u8;
    }

    /// Shift towards the eighth rank by one (a pawn push for White).
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Shift towards the first rank by one (a pawn push for Black).
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Shift towards the h-file; squares on the h-file drop off.
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 << 1) & !Self::FILE_A.0)
    }

    /// Shift towards the a-file; squares on the a-file drop off.
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 >> 1) & !(Self::FILE_A.0 << 7))
    }

    /// Mirror the board vertically (rank 1 ↔ rank 8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Iterate over the squares from a1 towards h8.
    #[inline]
    pub const fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_wrapping(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline]
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference: the squares of `self` not in `rhs`.
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Shift towards h8 by `n` squares; by 64 or more, nothing is left.
impl Shl<u32> for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn shl(self, n: u32) -> Bitboard {
        Bitboard(self.0.checked_shl(n).unwrap_or(0))
    }
}

/// Shift towards a1 by `n` squares; by 64 or more, nothing is left.
impl Shr<u32> for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn shr(self, n: u32) -> Bitboard {
        Bitboard(self.0.checked_shr(n).unwrap_or(0))
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

/// An 8×8 diagram, rank 8 at the top, `X` for a member and `.` otherwise.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            write!(f, "{} ", rank.char())?;
            for file in File::ALL {
                let c = if self.contains(Square::from_coords(file, *rank)) {
                    'X'
                } else {
                    '.'
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   a b c d e f g h")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_count() {
        let bb = Bitboard::from_square(Square::A1) | Square::E4.into() | Square::H8.into();
        assert_eq!(bb.count(), 3);
        assert_eq!(
            bb.iter().collect::<Vec<_>>(),
            vec![Square::A1, Square::E4, Square::H8]
        );
        assert_eq!(bb.iter().len(), 3);
        assert_eq!(bb.iter().collect::<Bitboard>(), bb);
        assert!(bb.more_than_one());
        assert!(!Bitboard::from_square(Square::C3).more_than_one());
    }

    #[test]
    fn shifts_do_not_wrap() {
        assert_eq!(Bitboard::file(File::H).east(), Bitboard::EMPTY);
        assert_eq!(Bitboard::file(File::A).west(), Bitboard::EMPTY);
        assert_eq!(Bitboard::file(File::A).east(), Bitboard::file(File::B));
        assert_eq!(Bitboard::rank(Rank::Eighth).north(), Bitboard::EMPTY);
        assert_eq!(
            Bitboard::rank(Rank::Second).south(),
            Bitboard::rank(Rank::First)
        );
    }

    #[test]
    fn display_is_a_diagram() {
        let s = Bitboard::from_square(Square::E4).to_string();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 9);
        assert_eq!(lines[4], "4  . . . . X . . .");
        assert_eq!(lines[8], "   a b c d e f g h");
    }

    #[test]
    fn shifts_off_the_board_leave_nothing() {
        assert_eq!(Bitboard::FULL << 64, Bitboard::EMPTY);
        assert_eq!(Bitboard::FULL >> u32::MAX, Bitboard::EMPTY);
        assert_eq!(Bitboard::RANK_1 << 8, Bitboard::rank(Rank::Second));
    }

    #[test]
    fn set_operations() {
        let a = Bitboard::rank(Rank::First);
        let b = Bitboard::file(File::A);
        assert_eq!((a & b), Bitboard::from_square(Square::A1));
        assert_eq!((a | b).count(), 15);
        assert_eq!((a ^ b).count(), 14);
        assert_eq!((a - b).count(), 7);
        assert_eq!((!a).count(), 56);
    }
}
