//! Moves, move lists, and their UCI and SAN notations.
//!
//! A [`Move`] is 16 bits: origin, destination, promotion piece and a
//! castling flag. Castling is stored as king-takes-rook (the king's square
//! to its rook's square) in both standard chess and Chess960, which is the
//! one form that is unambiguous in Chess960. Printing follows
//! [`CastlingMode`]: `e1g1` in standard chess (what [`Move`]'s `Display`
//! prints), `e1h1` in Chess960 ([`Move::to_uci`]). [`Position::parse_uci`](crate::Position::parse_uci)
//! accepts either form.
//!
//! ```
//! use hashmate::{CastlingMode, Position};
//! let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
//! let castle = pos.parse_uci("e1g1")?;
//! assert!(castle.is_castling());
//! assert_eq!(castle.to_string(), "e1g1");
//! assert_eq!(castle.to_uci(CastlingMode::Chess960).to_string(), "e1h1");
//! assert_eq!(pos.parse_uci("e1h1")?, castle);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::piece::Role;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::{File, Rank, Square};
use core::fmt;

/// How castling moves are written in UCI notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess: the king's two-square move (`e1g1`, `e1c1`).
    #[default]
    Standard,
    /// Chess960 (`UCI_Chess960`): king takes own rook (`e1h1`, `b1a1`).
    Chess960,
}

/// Which side of the king a castling rook stands on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (O-O); the king ends on g1/g8.
    Short = 0,
    /// Towards the a-file (O-O-O); the king ends on c1/c8.
    Long = 1,
}

impl CastlingSide {
    /// Both sides, short first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::Short, CastlingSide::Long];

    /// King destination file.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::Short => File::G,
            CastlingSide::Long => File::C,
        }
    }

    /// Rook destination file.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::Short => File::F,
            CastlingSide::Long => File::D,
        }
    }
}

/// Bit layout of a [`Move`].
const FROM_MASK: u16 = 0x003f;
const TO_SHIFT: u16 = 6;
const PROMOTION_SHIFT: u16 = 12;
const PROMOTION_MASK: u16 = 0x7;
const CASTLING_FLAG: u16 = 1 << 15;

/// A move: 6 bits origin, 6 bits destination, 3 bits promotion piece, and
/// a flag for castling (stored as king takes own rook).
///
/// Build moves from a position ([`Position::legal_moves`](crate::Position::legal_moves),
/// [`Position::parse_uci`](crate::Position::parse_uci), [`Position::parse_san`](crate::Position::parse_san)); [`Move::new`] and
/// [`Move::castle`] exist for tables and tests, and
/// [`Position::try_play`](crate::Position::try_play) refuses whatever is not legal.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The all-zero move (a1a1), never legal: "no move" in tables.
    pub const NULL: Move = Move(0);

    /// A normal move or a promotion. Only knight, bishop, rook and queen
    /// are promotion pieces; any other `promotion` is ignored.
    ///
    /// ```
    /// use hashmate::{Move, Role, Square};
    /// let m = Move::new(Square::E7, Square::E8, Some(Role::Queen));
    /// assert_eq!(m.to_string(), "e7e8q");
    /// ```
    #[inline(always)]
    pub const fn new(from: Square, to: Square, promotion: Option<Role>) -> Move {
        let p = match promotion {
            Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => r as u16,
            _ => 0,
        };
        Move(from as u16 | (to as u16) << TO_SHIFT | p << PROMOTION_SHIFT)
    }

    /// Castling: the king on `king` takes its own rook on `rook`.
    #[inline(always)]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(king as u16 | (rook as u16) << TO_SHIFT | CASTLING_FLAG)
    }

    /// The origin square (the king's for castling).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_wrapping((self.0 & FROM_MASK) as u32)
    }

    /// The destination square (the castling rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_wrapping((self.0 >> TO_SHIFT) as u32 & 63)
    }

    /// The piece a pawn promotes to.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Role> {
        match (self.0 >> PROMOTION_SHIFT) & PROMOTION_MASK {
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            _ => None,
        }
    }

    /// Is this castling (king takes own rook)?
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        self.0 & CASTLING_FLAG != 0
    }

    /// For castling, the side of the king the rook stands on.
    #[inline]
    pub fn castling_side(self) -> Option<CastlingSide> {
        self.is_castling().then(|| {
            if self.to() > self.from() {
                CastlingSide::Short
            } else {
                CastlingSide::Long
            }
        })
    }

    /// Where the king ends up: [`Move::to`] for other moves, the g- or
    /// c-file square for castling.
    #[inline]
    pub fn king_destination(self) -> Square {
        match self.castling_side() {
            Some(side) => Square::from_coords(side.king_to_file(), self.from().rank()),
            None => self.to(),
        }
    }

    /// The 16-bit encoding, for tables.
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Decode [`Move::to_u16`]. Bits that encode no promotion piece, and a
    /// promotion on a castling move, are dropped rather than trusted, so
    /// every `u16` decodes to some move (which may still be illegal).
    #[inline(always)]
    pub const fn from_u16(v: u16) -> Move {
        let p = (v >> PROMOTION_SHIFT) & PROMOTION_MASK;
        let keep_p = p <= 4 && v & CASTLING_FLAG == 0;
        Move(v & (0x0fff | CASTLING_FLAG) | if keep_p { p << PROMOTION_SHIFT } else { 0 })
    }

    /// Is this [`Move::NULL`]?
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The move in UCI notation for `mode`.
    ///
    /// ```
    /// use hashmate::{CastlingMode, Move, Square};
    /// let o_o = Move::castle(Square::E1, Square::H1);
    /// assert_eq!(o_o.to_uci(CastlingMode::Standard).to_string(), "e1g1");
    /// assert_eq!(o_o.to_uci(CastlingMode::Chess960).to_string(), "e1h1");
    /// ```
    pub fn to_uci(self, mode: CastlingMode) -> UciMove {
        UciMove { mv: self, mode }
    }
}

/// A move printed in UCI notation (see [`Move::to_uci`]). The null move
/// prints as `0000`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UciMove {
    mv: Move,
    mode: CastlingMode,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.mv;
        if mv.is_null() {
            return f.write_str("0000");
        }
        // Standard notation moves the king two squares; a castling move
        // whose king does not start on the e-file (or whose rook is not in
        // a corner) exists only in Chess960, where king-takes-rook is the
        // sole unambiguous form, so it is printed that way in either mode.
        let standard_shape = mv.from().file() == File::E
            && matches!(mv.to().file(), File::A | File::H)
            && matches!(mv.from().rank(), Rank::First | Rank::Eighth);
        let to = if mv.is_castling() && self.mode == CastlingMode::Standard && standard_shape {
            mv.king_destination()
        } else {
            mv.to()
        };
        write!(f, "{}{}", mv.from(), to)?;
        if let Some(p) = mv.promotion() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(CastlingMode::Chess960))?;
        if self.is_castling() {
            f.write_str("(castling)")?;
        }
        Ok(())
    }
}

/// Standard UCI notation: castling as the king's move (`e1g1`); see
/// [`Move::to_uci`] for Chess960.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_uci(CastlingMode::Standard), f)
    }
}

/// The most moves a [`MoveList`] holds; the most known in a legal chess
/// position is 218.
pub const MAX_MOVES: usize = 256;

/// A list of at most [`MAX_MOVES`] moves on the stack.
///
/// ```
/// use hashmate::{Move, MoveList, Position};
/// let moves: MoveList = Position::startpos().legal_moves();
/// assert_eq!(moves.len(), 20);
/// let e4 = moves.iter().copied().find(|m| m.to_string() == "e2e4").unwrap();
/// assert!(moves.contains(e4));
/// let all: Vec<Move> = moves.into_iter().collect();
/// assert_eq!(all.len(), 20);
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

/// [`MoveList::try_push`] on a full list.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CapacityError(pub Move);

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move list full: cannot add {} beyond {MAX_MOVES} moves",
            self.0
        )
    }
}

impl core::error::Error for CapacityError {}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Append `mv` (the generator's path: a chess position never has more
    /// than 218 legal moves, so nothing is lost there).
    #[inline(always)]
    pub(crate) fn push(&mut self, mv: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    /// Append `mv`.
    ///
    /// # Errors
    /// [`CapacityError`] when the list already holds [`MAX_MOVES`] moves;
    /// the list is unchanged.
    pub fn try_push(&mut self, mv: Move) -> Result<(), CapacityError> {
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
            Ok(())
        } else {
            Err(CapacityError(mv))
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Is the list empty?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Remove every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (to sort or swap them).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Does the list hold `mv`?
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// Iterate over the moves.
    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Keep only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The owning iterator of a [`MoveList`].
#[derive(Clone, Debug)]
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        let m = self.list.as_slice().get(self.next).copied()?;
        self.next += 1;
        Some(m)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}

/// Why a move in UCI or SAN notation was not accepted. Each variant holds
/// the text (shortened if long).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not the shape of a move in this notation.
    Syntax(String),
    /// Well-formed, but not a legal move in the position.
    Illegal(String),
    /// SAN that fits more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Control characters (a NUL byte in a file, say) are shown escaped.
        let shown = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_control() {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        };
        match self {
            MoveParseError::Syntax(s) => write!(f, "'{}' is not a move in this notation", shown(s)),
            MoveParseError::Illegal(s) => write!(f, "'{}' is not a legal move here", shown(s)),
            MoveParseError::Ambiguous(s) => write!(f, "'{}' is ambiguous here", shown(s)),
        }
    }
}

impl core::error::Error for MoveParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips_and_rejects_garbage() {
        for v in 0..=u16::MAX {
            let m = Move::from_u16(v);
            assert_eq!(Move::from_u16(m.to_u16()), m);
            assert!(!(m.is_castling() && m.promotion().is_some()));
        }
        let c = Move::castle(Square::E8, Square::A8);
        assert_eq!(c.castling_side(), Some(CastlingSide::Long));
        assert_eq!(c.king_destination(), Square::C8);
        assert_eq!(c.to_string(), "e8c8");
        assert_eq!(format!("{c:?}"), "e8a8(castling)");
        // A Chess960 castle prints king-takes-rook in either mode.
        let c960 = Move::castle(Square::B1, Square::A1);
        assert_eq!(c960.to_string(), "b1a1");
        assert_eq!(
            Move::NULL.to_uci(CastlingMode::Standard).to_string(),
            "0000"
        );
        assert_eq!(
            Move::new(Square::A7, Square::A8, Some(Role::King)).promotion(),
            None
        );
    }

    #[test]
    fn list_capacity_is_an_error() {
        let mut l = MoveList::new();
        for _ in 0..MAX_MOVES {
            l.try_push(Move::NULL).unwrap();
        }
        let m = Move::new(Square::A2, Square::A3, None);
        assert_eq!(l.try_push(m), Err(CapacityError(m)));
        assert_eq!(l.len(), MAX_MOVES);
        l.retain(|m| !m.is_null());
        assert!(l.is_empty());
    }
}
