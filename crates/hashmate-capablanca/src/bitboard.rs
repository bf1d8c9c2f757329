//! Bitboards of the 10×8 board: sets of squares in the low 80 bits of a
//! `u128` (bit `rank × 10 + file`), the masks of files and ranks, and the
//! one-step shifts the move generator uses.

use crate::square::{Color, Square, FILES, RANKS, SQUARES};

/// Every square.
pub const ALL: u128 = (1u128 << SQUARES) - 1;
/// The a-file.
pub const FILE_A: u128 = {
    let mut b = 0u128;
    let mut r = 0;
    while r < RANKS {
        b |= 1u128 << (r * FILES);
        r += 1;
    }
    b
};
/// The j-file (the last).
pub const FILE_J: u128 = FILE_A << (FILES - 1);
/// The first rank.
pub const RANK_1: u128 = (1u128 << FILES) - 1;

/// The dark squares, a1's colour: those whose file and rank add up to an
/// even number. A bishop never leaves the colour it stands on.
pub const DARK_SQUARES: u128 = {
    let mut b = 0u128;
    let mut sq = 0;
    while sq < SQUARES {
        if (sq % FILES as usize + sq / FILES as usize).is_multiple_of(2) {
            b |= 1u128 << sq;
        }
        sq += 1;
    }
    b
};

/// A file, 0 (a) to 9 (j).
pub const fn file_mask(file: u8) -> u128 {
    FILE_A << file
}

/// A rank, 0 (first) to 7 (eighth).
pub const fn rank_mask(rank: u8) -> u128 {
    RANK_1 << (rank * FILES)
}

/// Iterate over the squares of a set, lowest first.
#[inline]
pub fn squares(mut b: u128) -> impl Iterator<Item = Square> {
    core::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = Square::lowest(b);
            b &= b - 1;
            Some(s)
        }
    })
}

/// One rank towards the eighth (for `color`'s pawns: forward).
#[inline(always)]
pub const fn forward(b: u128, color: Color) -> u128 {
    match color {
        Color::White => (b << FILES) & ALL,
        Color::Black => b >> FILES,
    }
}

/// One file towards j; squares on the j-file drop off.
#[inline(always)]
pub const fn east(b: u128) -> u128 {
    (b & !FILE_J) << 1
}

/// One file towards a; squares on the a-file drop off.
#[inline(always)]
pub const fn west(b: u128) -> u128 {
    (b & !FILE_A) >> 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts() {
        assert_eq!(east(FILE_J), 0);
        assert_eq!(west(FILE_A), 0);
        assert_eq!(forward(rank_mask(7), Color::White), 0);
        assert_eq!(squares(FILE_A).count(), 8);
        assert_eq!(ALL.count_ones(), 80);
    }

    #[test]
    fn dark_squares() {
        assert_eq!(DARK_SQUARES.count_ones(), 40);
        let at = |file, rank| Square::at(file, rank).unwrap().bit();
        // a1 and j8 are dark, j1 and a8 light (ten files: a rank ends on
        // the other colour from its start).
        assert_ne!(DARK_SQUARES & at(0, 0), 0);
        assert_ne!(DARK_SQUARES & at(9, 7), 0);
        assert_eq!(DARK_SQUARES & at(9, 0), 0);
        assert_eq!(DARK_SQUARES & at(0, 7), 0);
        // A square's diagonal neighbours share its colour.
        for sq in squares(ALL) {
            let (f, r) = (sq.file(), sq.rank());
            if let Some(n) = Square::at(f + 1, r + 1) {
                assert_eq!(DARK_SQUARES & sq.bit() != 0, DARK_SQUARES & n.bit() != 0);
            }
        }
    }
}
