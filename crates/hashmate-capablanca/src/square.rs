//! Squares and colours of the 10×8 board: square `rank × 10 + file`, a1 =
//! 0, j1 = 9, a2 = 10, …, j8 = 79 (the bit of a bitboard, see
//! [`bitboard`](crate::bitboard)).

use core::fmt;

/// Files on the board.
pub const FILES: u8 = 10;
/// Ranks on the board.
pub const RANKS: u8 = 8;
/// Squares on the board.
pub const SQUARES: usize = 80;

/// A side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White, who moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl core::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// `white` or `black`, as `hashmate::Color` prints.
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A square of the 10×8 board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with index `i` (`rank × 10 + file`), or `None` past j8.
    #[inline(always)]
    pub const fn new(i: u8) -> Option<Square> {
        if (i as usize) < SQUARES {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The square at `file` (0 = a) and `rank` (0 = first).
    pub const fn at(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The lowest square of a non-empty set (the caller knows it is).
    #[inline(always)]
    pub(crate) const fn lowest(b: u128) -> Square {
        Square(b.trailing_zeros() as u8)
    }

    /// `rank × 10 + file`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 (a) to 9 (j).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// 0 (first) to 7 (eighth).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The set holding only this square.
    #[inline(always)]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl core::str::FromStr for Square {
    type Err = ();
    /// `a1` … `j8`.
    fn from_str(s: &str) -> Result<Square, ()> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'j').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return Err(());
        }
        Square::at(b[0] - b'a', b[1] - b'1').ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(e4.index(), 34);
        assert_eq!(e4.to_string(), "e4");
        assert!("k1".parse::<Square>().is_err() && "a9".parse::<Square>().is_err());
    }
}
