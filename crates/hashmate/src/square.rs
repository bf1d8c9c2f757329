//! Squares, files, ranks and colours.
//!
//! Squares are numbered as in Table 1 of Fenner & Levene: a1 = 0, b1 = 1, …,
//! h1 = 7, a2 = 8, …, h8 = 63, so that bit `n` of a bitboard is square `n`.
//! Every type here is a `#[repr(u8)]` enum, so an out-of-range square cannot
//! be constructed without going through a checked constructor.

#[allow(unused_imports)]
use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

/// A side: White or Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// White, who moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The index used for per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The `w`/`b` letter used by FEN.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Pick `white` or `black` according to this colour.
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A file, a to h.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum File { A = 0, B, C, D, E, F, G, H }

/// A rank, 1 to 8.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum Rank { First = 0, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth }

impl File {
    /// The eight files, a first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `i & 7`. A `match` that maps every value to
    /// itself, which the compiler folds to nothing, where a load from
    /// [`File::ALL`] stays a load.
    #[inline(always)]
    const fn from_low_bits(i: u8) -> File {
        match i & 7 {
            0 => File::A,
            1 => File::B,
            2 => File::C,
            3 => File::D,
            4 => File::E,
            5 => File::F,
            6 => File::G,
            _ => File::H,
        }
    }

    /// The file with index `i` (0 = a), or `None` past h.
    #[inline]
    pub const fn new(i: u8) -> Option<File> {
        if i < 8 {
            Some(File::from_low_bits(i))
        } else {
            None
        }
    }

    /// 0 for the a-file … 7 for the h-file.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter of the file.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parse a file letter `a`–`h` (lower case only, as FEN and UCI require).
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => File::new(c as u8 - b'a'),
            _ => None,
        }
    }
}

impl Rank {
    /// The eight ranks, the first first.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `i & 7` (as [`File::from_low_bits`]).
    #[inline(always)]
    const fn from_low_bits(i: u8) -> Rank {
        match i & 7 {
            0 => Rank::First,
            1 => Rank::Second,
            2 => Rank::Third,
            3 => Rank::Fourth,
            4 => Rank::Fifth,
            5 => Rank::Sixth,
            6 => Rank::Seventh,
            _ => Rank::Eighth,
        }
    }

    /// The rank with index `i` (0 = first rank), or `None` past the eighth.
    #[inline]
    pub const fn new(i: u8) -> Option<Rank> {
        if i < 8 {
            Some(Rank::from_low_bits(i))
        } else {
            None
        }
    }

    /// 0 for the first rank … 7 for the eighth.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The digit of the rank, `'1'`–`'8'`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parse a rank digit `1`–`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Rank::new(c as u8 - b'1'),
            _ => None,
        }
    }

    /// The rank as seen by `color`: the first rank is White's back rank and
    /// Black's eighth.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::from_low_bits(7 - self as u8),
        }
    }
}

/// A square of the 8×8 board, numbered as in Fenner & Levene's Table 1:
/// `A1` = 0, `B1` = 1, …, `H8` = 63.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum Square {
    A1 = 0, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// The 64 squares, a1 first.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = {
        use Square::*;
        [
            A1, B1, C1, D1, E1, F1, G1, H1, A2, B2, C2, D2, E2, F2, G2, H2,
            A3, B3, C3, D3, E3, F3, G3, H3, A4, B4, C4, D4, E4, F4, G4, H4,
            A5, B5, C5, D5, E5, F5, G5, H5, A6, B6, C6, D6, E6, F6, G6, H6,
            A7, B7, C7, D7, E7, F7, G7, H7, A8, B8, C8, D8, E8, F8, G8, H8,
        ]
    };

    /// The square with index `i & 63`, written as a match rather than an
    /// index into [`Square::ALL`]: the compiler sees that the match maps
    /// every value to itself and emits no instruction for it, where the
    /// table costs a load on every square a bitboard loop yields (about
    /// 3 % of perft's instructions).
    #[inline(always)]
    #[rustfmt::skip]
    const fn from_low_bits(i: u8) -> Square {
        use Square::*;
        match i & 63 {
            0 => A1, 1 => B1, 2 => C1, 3 => D1, 4 => E1, 5 => F1, 6 => G1, 7 => H1,
            8 => A2, 9 => B2, 10 => C2, 11 => D2, 12 => E2, 13 => F2, 14 => G2, 15 => H2,
            16 => A3, 17 => B3, 18 => C3, 19 => D3, 20 => E3, 21 => F3, 22 => G3, 23 => H3,
            24 => A4, 25 => B4, 26 => C4, 27 => D4, 28 => E4, 29 => F4, 30 => G4, 31 => H4,
            32 => A5, 33 => B5, 34 => C5, 35 => D5, 36 => E5, 37 => F5, 38 => G5, 39 => H5,
            40 => A6, 41 => B6, 42 => C6, 43 => D6, 44 => E6, 45 => F6, 46 => G6, 47 => H6,
            48 => A7, 49 => B7, 50 => C7, 51 => D7, 52 => E7, 53 => F7, 54 => G7, 55 => H7,
            56 => A8, 57 => B8, 58 => C8, 59 => D8, 60 => E8, 61 => F8, 62 => G8, _ => H8,
        }
    }

    /// The square with index `i` (0 = a1, 63 = h8), or `None` if `i > 63`.
    #[inline]
    pub const fn new(i: u8) -> Option<Square> {
        if i < 64 {
            Some(Square::from_low_bits(i))
        } else {
            None
        }
    }

    /// The square with index `i & 63`: for indices already known to be in
    /// range, such as a bit position of a non-empty `u64`.
    #[inline(always)]
    pub const fn from_index_wrapping(i: u32) -> Square {
        Square::from_low_bits(i as u8)
    }

    /// The square at the crossing of `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::from_low_bits(rank as u8 * 8 + file as u8)
    }

    /// 0 for a1 … 63 for h8.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of the square.
    #[inline]
    pub const fn file(self) -> File {
        File::from_low_bits(self as u8)
    }

    /// The rank of the square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::from_low_bits(self as u8 >> 3)
    }

    /// The square `df` files and `dr` ranks away, or `None` off the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square::from_low_bits((r * 8 + f) as u8))
        } else {
            None
        }
    }

    /// The same square seen from the other side (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::from_low_bits(self as u8 ^ 56)
    }

    /// The square as seen by `color` (flipped vertically for Black).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// `white` or `black`.
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.fold("white", "black"))
    }
}

/// A name that does not denote a value of the type it was parsed as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseNameError {
    /// What was expected (`"a colour"`, `"a file"`, …).
    pub expected: &'static str,
    /// The text found (shortened if long).
    pub found: String,
}

impl ParseNameError {
    pub(crate) fn new(expected: &'static str, found: &str) -> ParseNameError {
        ParseNameError {
            expected,
            found: crate::text::clip(found),
        }
    }
}

impl fmt::Display for ParseNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not {}", self.found, self.expected)
    }
}

impl core::error::Error for ParseNameError {}

/// `w`, `b`, `white` or `black` (any case).
///
/// ```
/// use hashmate::Color;
/// assert_eq!("b".parse(), Ok(Color::Black));
/// assert_eq!(Color::White.to_string().parse(), Ok(Color::White));
/// assert!("red".parse::<Color>().is_err());
/// ```
impl FromStr for Color {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Color, ParseNameError> {
        match s.to_ascii_lowercase().as_str() {
            "w" | "white" => Ok(Color::White),
            "b" | "black" => Ok(Color::Black),
            _ => Err(ParseNameError::new("a colour (w, b, white, black)", s)),
        }
    }
}

/// A file letter, `a`–`h`.
impl FromStr for File {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<File, ParseNameError> {
        let mut c = s.chars();
        match (c.next(), c.next()) {
            (Some(ch), None) => File::from_char(ch),
            _ => None,
        }
        .ok_or_else(|| ParseNameError::new("a file (a-h)", s))
    }
}

/// A rank digit, `1`–`8`.
impl FromStr for Rank {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Rank, ParseNameError> {
        let mut c = s.chars();
        match (c.next(), c.next()) {
            (Some(ch), None) => Rank::from_char(ch),
            _ => None,
        }
        .ok_or_else(|| ParseNameError::new("a rank (1-8)", s))
    }
}

/// Why a square name could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSquareError {
    /// The name was not exactly two characters long.
    WrongLength {
        /// Characters found.
        len: usize,
    },
    /// The first character is not a file letter `a`–`h`.
    BadFile(char),
    /// The second character is not a rank digit `1`–`8`.
    BadRank(char),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::WrongLength { len } => {
                write!(f, "a square name has 2 characters, this one has {len}")
            }
            ParseSquareError::BadFile(c) => write!(f, "'{c}' is not a file (a-h)"),
            ParseSquareError::BadRank(c) => write!(f, "'{c}' is not a rank (1-8)"),
        }
    }
}

impl core::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parse an algebraic square name such as `e4`.
    ///
    /// # Errors
    /// Anything that is not a lower-case file letter followed by a rank digit.
    ///
    /// ```
    /// use hashmate::Square;
    /// assert_eq!("e4".parse::<Square>(), Ok(Square::E4));
    /// assert!("e9".parse::<Square>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let (Some(fc), Some(rc), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseSquareError::WrongLength {
                len: s.chars().count(),
            });
        };
        let file = File::from_char(fc).ok_or(ParseSquareError::BadFile(fc))?;
        let rank = Rank::from_char(rc).ok_or(ParseSquareError::BadRank(rc))?;
        Ok(Square::from_coords(file, rank))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_to_square_conversions_agree_with_the_table() {
        for i in 0..=255u8 {
            assert_eq!(Square::from_low_bits(i), Square::ALL[usize::from(i & 63)]);
            assert_eq!(
                Square::from_index_wrapping(u32::from(i) + 4096).index(),
                usize::from(i & 63)
            );
            assert_eq!(
                Square::new(i),
                (i < 64).then(|| Square::ALL[usize::from(i)])
            );
        }
        for sq in Square::ALL {
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
            assert_eq!(sq.flip_vertical().index(), sq.index() ^ 56);
            assert_eq!(sq.file().index(), sq.index() % 8);
            assert_eq!(sq.rank().index(), sq.index() / 8);
            assert_eq!(
                sq.rank().relative_to(Color::Black).index(),
                7 - sq.index() / 8
            );
        }
        for i in 0..=255u8 {
            assert_eq!(File::from_low_bits(i), File::ALL[usize::from(i & 7)]);
            assert_eq!(Rank::from_low_bits(i), Rank::ALL[usize::from(i & 7)]);
            assert_eq!(File::new(i), (i < 8).then(|| File::ALL[usize::from(i)]));
            assert_eq!(Rank::new(i), (i < 8).then(|| Rank::ALL[usize::from(i)]));
        }
    }

    #[test]
    fn numbering_follows_table_1() {
        assert_eq!(Square::A1 as u8, 0);
        assert_eq!(Square::B1 as u8, 1);
        assert_eq!(Square::H1 as u8, 7);
        assert_eq!(Square::A2 as u8, 8);
        assert_eq!(Square::H8 as u8, 63);
        for (i, sq) in Square::ALL.iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), *sq);
        }
    }

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("e4".parse::<Square>(), Ok(Square::E4));
    }

    #[test]
    fn bad_names_are_errors() {
        assert_eq!(
            "".parse::<Square>(),
            Err(ParseSquareError::WrongLength { len: 0 })
        );
        assert_eq!(
            "e44".parse::<Square>(),
            Err(ParseSquareError::WrongLength { len: 3 })
        );
        assert_eq!("i4".parse::<Square>(), Err(ParseSquareError::BadFile('i')));
        assert_eq!("E4".parse::<Square>(), Err(ParseSquareError::BadFile('E')));
        assert_eq!("e0".parse::<Square>(), Err(ParseSquareError::BadRank('0')));
        assert_eq!("e9".parse::<Square>(), Err(ParseSquareError::BadRank('9')));
        assert!("é4".parse::<Square>().is_err());
        assert!("e\u{0664}".parse::<Square>().is_err());
    }

    #[test]
    fn offsets_stay_on_board() {
        assert_eq!(Square::H1.offset(1, 0), None);
        assert_eq!(Square::A1.offset(-1, 0), None);
        assert_eq!(Square::E4.offset(1, 1), Some(Square::F5));
        assert_eq!(Square::E2.relative_to(Color::Black), Square::E7);
    }

    #[test]
    fn small_types_round_trip() {
        for c in Color::ALL {
            assert_eq!(c.to_string().parse(), Ok(c));
        }
        for f in File::ALL {
            assert_eq!(f.to_string().parse(), Ok(f));
        }
        for r in Rank::ALL {
            assert_eq!(r.to_string().parse(), Ok(r));
        }
        assert!("ab".parse::<File>().is_err());
        assert!("9".parse::<Rank>().is_err());
        assert!("".parse::<Color>().is_err());
    }
}
