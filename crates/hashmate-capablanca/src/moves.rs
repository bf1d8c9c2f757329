//! Moves, and moves in UCI notation as Fairy-Stockfish writes
//! them (`e2e4`, `a7a8c` for a promotion to a chancellor, castling as the
//! king's move: `f1i1`, `f1c1`).

use crate::piece::Role;
use crate::square::Square;
use core::fmt;

/// Bit layout of a [`Move`].
const TO_SHIFT: u32 = 7;
const PROMOTION_SHIFT: u32 = 14;
const CASTLING_FLAG: u32 = 1 << 18;

/// A move: origin, destination (the rook's square for castling), the
/// promotion piece, and a castling flag.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u32);

impl Move {
    /// A normal move, or a promotion to `promotion` (neither pawn nor king).
    #[inline(always)]
    pub fn new(from: Square, to: Square, promotion: Option<Role>) -> Move {
        let p = match promotion {
            Some(Role::Pawn | Role::King) | None => 0,
            Some(r) => r as u32,
        };
        Move(from.index() as u32 | (to.index() as u32) << TO_SHIFT | p << PROMOTION_SHIFT)
    }

    /// Castling: the king on `king` with the rook on `rook`.
    #[inline(always)]
    pub fn castle(king: Square, rook: Square) -> Move {
        Move(king.index() as u32 | (rook.index() as u32) << TO_SHIFT | CASTLING_FLAG)
    }

    /// The origin.
    #[inline(always)]
    pub fn from(self) -> Square {
        Square::lowest(1u128 << (self.0 & 127).min(79))
    }

    /// The destination (the rook's square for castling).
    #[inline(always)]
    pub fn to(self) -> Square {
        Square::lowest(1u128 << ((self.0 >> TO_SHIFT) & 127).min(79))
    }

    /// The promotion piece.
    #[inline(always)]
    pub fn promotion(self) -> Option<Role> {
        match (self.0 >> PROMOTION_SHIFT) & 15 {
            0 => None,
            i => Role::ALL.get(i as usize).copied(),
        }
    }

    /// Is this castling?
    #[inline(always)]
    pub fn is_castling(self) -> bool {
        self.0 & CASTLING_FLAG != 0
    }

    /// Where the king goes: i-file (short) or c-file (long) for castling,
    /// else the destination.
    pub fn king_destination(self) -> Square {
        if !self.is_castling() {
            return self.to();
        }
        let file = if self.to() > self.from() { 8 } else { 2 };
        Square::at(file, self.from().rank()).unwrap_or(self.to())
    }
}

/// UCI, as Fairy-Stockfish prints it: castling as the king's move.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.king_destination())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Why a text is not a legal move here: the same three cases, with the
/// same names, as `hashmate::MoveParseError` on 8×8.
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
        let shown = |s: &str| -> String {
            let mut out: String = s
                .chars()
                .take(24)
                .map(|c| {
                    if c.is_control() {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            if s.chars().nth(24).is_some() {
                out.push('…');
            }
            out
        };
        match self {
            MoveParseError::Syntax(s) => write!(f, "'{}' is not a move in this notation", shown(s)),
            MoveParseError::Illegal(s) => write!(f, "'{}' is not a legal move here", shown(s)),
            MoveParseError::Ambiguous(s) => write!(f, "'{}' is ambiguous here", shown(s)),
        }
    }
}

impl std::error::Error for MoveParseError {}

/// A list of moves: the API of `hashmate::MoveList` (`new`, `push`, `len`,
/// `is_empty`, `clear`, `as_slice`, `contains`, `iter`, `retain`, slice
/// access through `Deref`, iteration by value and by reference), held in a
/// `Vec`, as a 10×8 position with archbishops and chancellors has no small
/// bound on its legal moves.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct MoveList(Vec<Move>);

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList(Vec::new())
    }

    /// Append `mv`.
    pub fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No moves?
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Remove every move.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The moves.
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }

    /// Is `mv` in the list?
    pub fn contains(&self, mv: Move) -> bool {
        self.0.contains(&mv)
    }

    /// The moves, by reference.
    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.0.iter()
    }

    /// Keep only the moves for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        self.0.retain(|&m| keep(m));
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = std::vec::IntoIter<Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
