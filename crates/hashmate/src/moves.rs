//! Moves, move lists, and their UCI and SAN notations.
//!
//! A [`Move`] is 16 bits: origin, destination and promotion piece. Castling
//! is stored as king-takes-rook (the king's square to its rook's square) in
//! both standard chess and Chess960; [`Position::to_uci`] prints it as UCI
//! expects in each mode (`e1g1` in standard chess, `e1h1` in Chess960) and
//! [`Position::parse_uci`] accepts either.

use crate::piece::Role;
use crate::position::{CastlingSide, Position};
use crate::square::{File, Square};
use core::fmt;

/// A move: 6 bits origin, 6 bits destination, 3 bits promotion.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The all-zero move (a1a1), never legal: "no move" in tables.
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, promotion: Option<Role>) -> Move {
        let p = match promotion {
            Some(r) => r as u16, // Knight 1 … Queen 4
            None => 0,
        };
        Move(from as u16 | (to as u16) << 6 | p << 12)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_wrapping(self.0 as u32 & 63)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_wrapping((self.0 >> 6) as u32 & 63)
    }

    #[inline(always)]
    pub const fn promotion(self) -> Option<Role> {
        match self.0 >> 12 {
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            _ => None,
        }
    }

    /// The 16-bit encoding, for tables.
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Decode [`Move::to_u16`]; bits that encode no promotion piece are
    /// dropped rather than trusted.
    #[inline(always)]
    pub const fn from_u16(v: u16) -> Move {
        let p = (v >> 12) & 7;
        Move(v & 0x0fff | if p <= 4 { p << 12 } else { 0 })
    }

    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

/// Raw king-takes-rook form (`e1h1` for castling), whatever the mode.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A list of at most 256 moves on the stack (the most known in a legal
/// position is 218).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}

impl MoveList {
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; 256],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        // 256 > 218, the maximum number of legal moves in any position.
        if self.len < 256 {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn swap(&mut self, a: usize, b: usize) {
        self.as_mut_slice().swap(a, b);
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

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

/// Why a move in UCI or SAN notation was not accepted.
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
        match self {
            MoveParseError::Syntax(s) => write!(f, "'{s}' is not a move in this notation"),
            MoveParseError::Illegal(s) => write!(f, "'{s}' is not a legal move here"),
            MoveParseError::Ambiguous(s) => write!(f, "'{s}' is ambiguous here"),
        }
    }
}

impl std::error::Error for MoveParseError {}

/// At most this much of a bad input is quoted back in an error.
pub(crate) fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if s.chars().count() > 24 {
        out.push('…');
    }
    out
}

impl Position {
    /// Is `mv` a castling move (king takes own rook)?
    #[inline]
    pub fn is_castling(&self, mv: Move) -> bool {
        self.pieces(self.side_to_move(), Role::King)
            .contains(mv.from())
            && self
                .pieces(self.side_to_move(), Role::Rook)
                .contains(mv.to())
    }

    /// Is `mv` an en-passant capture?
    #[inline]
    pub fn is_en_passant(&self, mv: Move) -> bool {
        Some(mv.to()) == self.ep_square()
            && self
                .pieces(self.side_to_move(), Role::Pawn)
                .contains(mv.from())
            && mv.from().file() != mv.to().file()
    }

    /// Does `mv` capture something (en passant included)?
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        (self.by_color(!self.side_to_move()).contains(mv.to())) || self.is_en_passant(mv)
    }

    /// The UCI text of `mv`: castling as king-to-destination (`e1g1`), or in
    /// Chess960 mode as king-takes-rook (`e1h1`).
    pub fn to_uci(&self, mv: Move, chess960: bool) -> String {
        if !chess960 && self.is_castling(mv) {
            let side = if mv.to() > mv.from() {
                CastlingSide::Short
            } else {
                CastlingSide::Long
            };
            let to = Square::from_coords(side.king_to_file(), mv.from().rank());
            return format!("{}{}", mv.from(), to);
        }
        mv.to_string()
    }

    /// Parse a move in UCI notation and check that it is legal. Castling is
    /// accepted both as king-to-destination and as king-takes-rook.
    ///
    /// # Errors
    /// [`MoveParseError::Syntax`] for text that is not a UCI move, and
    /// [`MoveParseError::Illegal`] for a move not legal here.
    pub fn parse_uci(&self, s: &str) -> Result<Move, MoveParseError> {
        let syntax = || MoveParseError::Syntax(clip(s));
        if !s.is_ascii() || !(4..=5).contains(&s.len()) {
            return Err(syntax());
        }
        let from: Square = s[0..2].parse().map_err(|_| syntax())?;
        let to: Square = s[2..4].parse().map_err(|_| syntax())?;
        let promotion = match s.as_bytes().get(4) {
            None => None,
            Some(b'n') => Some(Role::Knight),
            Some(b'b') => Some(Role::Bishop),
            Some(b'r') => Some(Role::Rook),
            Some(b'q') => Some(Role::Queen),
            Some(_) => return Err(syntax()),
        };
        let legal = self.legal_moves();
        let mv = Move::new(from, to, promotion);
        if legal.contains(mv) {
            return Ok(mv);
        }
        // King-to-destination castling (e1g1, e1c1): only when the literal
        // move is not itself legal, so that a one-square king move in
        // Chess960 is never read as castling.
        if promotion.is_none() {
            let castle = legal.iter().copied().find(|&c| {
                c.from() == from && self.is_castling(c) && {
                    let side = if c.to() > from {
                        CastlingSide::Short
                    } else {
                        CastlingSide::Long
                    };
                    Square::from_coords(side.king_to_file(), from.rank()) == to
                }
            });
            if let Some(c) = castle {
                return Ok(c);
            }
        }
        Err(MoveParseError::Illegal(clip(s)))
    }

    /// Standard algebraic notation of the legal move `mv`, with `+`/`#`.
    pub fn to_san(&self, mv: Move) -> String {
        let mut s = String::new();
        if self.is_castling(mv) {
            s.push_str(if mv.to() > mv.from() { "O-O" } else { "O-O-O" });
        } else {
            let role = self.role_at(mv.from()).unwrap_or(Role::Pawn);
            let capture = self.is_capture(mv);
            if role == Role::Pawn {
                if capture {
                    s.push(mv.from().file().char());
                    s.push('x');
                }
                s.push_str(&mv.to().to_string());
                if let Some(p) = mv.promotion() {
                    s.push('=');
                    s.push(p.char().to_ascii_uppercase());
                }
            } else {
                s.push(role.char().to_ascii_uppercase());
                // Disambiguate among other pieces of the same role.
                let others: Vec<Move> = self
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| {
                        m.to() == mv.to()
                            && m.from() != mv.from()
                            && !self.is_castling(*m)
                            && self.role_at(m.from()) == Some(role)
                    })
                    .collect();
                if !others.is_empty() {
                    let same_file = others.iter().any(|m| m.from().file() == mv.from().file());
                    let same_rank = others.iter().any(|m| m.from().rank() == mv.from().rank());
                    if !same_file {
                        s.push(mv.from().file().char());
                    } else if !same_rank {
                        s.push(mv.from().rank().char());
                    } else {
                        s.push_str(&mv.from().to_string());
                    }
                }
                if capture {
                    s.push('x');
                }
                s.push_str(&mv.to().to_string());
            }
        }
        let mut after = self.clone();
        after.play(mv);
        if after.in_check() {
            s.push(if after.legal_moves().is_empty() {
                '#'
            } else {
                '+'
            });
        }
        s
    }

    /// Parse a move in SAN (also accepting `0-0`, a missing or superfluous
    /// `x`, `+`, `#`, `!`, `?` annotations, and promotions without `=`).
    ///
    /// # Errors
    /// [`MoveParseError`] for malformed, illegal or ambiguous SAN.
    pub fn parse_san(&self, san: &str) -> Result<Move, MoveParseError> {
        let t = san.trim_end_matches(['+', '#', '!', '?']);
        let legal = self.legal_moves();
        if matches!(t, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let long = t.len() == 5;
            return legal
                .iter()
                .copied()
                .find(|&m| self.is_castling(m) && (m.to() < m.from()) == long)
                .ok_or_else(|| MoveParseError::Illegal(clip(san)));
        }
        if !t.is_ascii() || t.len() < 2 {
            return Err(MoveParseError::Syntax(clip(san)));
        }
        let mut body = t.replace(['x', '-'], "");
        let mut promotion = None;
        if let Some(last) = body.chars().last() {
            if let Some(r) = Role::from_char(last).filter(|_| last.is_ascii_uppercase()) {
                if body.len() >= 3 && r != Role::Pawn && r != Role::King {
                    promotion = Some(r);
                    body.pop();
                    if body.ends_with('=') {
                        body.pop();
                    }
                }
            }
        }
        let (role, rest) = match body.chars().next() {
            Some(c @ ('N' | 'B' | 'R' | 'Q' | 'K')) => {
                (Role::from_char(c).unwrap_or(Role::Pawn), &body[1..])
            }
            _ => (Role::Pawn, &body[..]),
        };
        if rest.len() < 2 {
            return Err(MoveParseError::Syntax(clip(san)));
        }
        let to: Square = rest[rest.len() - 2..]
            .parse()
            .map_err(|_| MoveParseError::Syntax(clip(san)))?;
        let hint = &rest[..rest.len() - 2];
        let (mut hf, mut hr) = (None, None);
        for c in hint.chars() {
            if let Some(f) = File::from_char(c) {
                hf = Some(f);
            } else if let Some(r) = crate::square::Rank::from_char(c) {
                hr = Some(r);
            } else {
                return Err(MoveParseError::Syntax(clip(san)));
            }
        }
        let mut found = None;
        for &m in legal.iter() {
            if self.is_castling(m)
                || m.to() != to
                || m.promotion() != promotion
                || self.role_at(m.from()) != Some(role)
                || hf.is_some_and(|f| m.from().file() != f)
                || hr.is_some_and(|r| m.from().rank() != r)
            {
                continue;
            }
            if found.replace(m).is_some() {
                return Err(MoveParseError::Ambiguous(clip(san)));
            }
        }
        found.ok_or_else(|| MoveParseError::Illegal(clip(san)))
    }
}
