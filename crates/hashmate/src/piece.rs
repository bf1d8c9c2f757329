//! Piece kinds and coloured pieces.

#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::{Color, ParseNameError};
use core::fmt;
use core::str::FromStr;

/// A kind of piece, without colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// A pawn.
    Pawn = 0,
    /// A knight.
    Knight,
    /// A bishop.
    Bishop,
    /// A rook.
    Rook,
    /// A queen.
    Queen,
    /// A king.
    King,
}

impl Role {
    /// The six roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    /// Every role but the pawn, in [`Role::ALL`]'s order: the pieces that a
    /// non-pawn key or a piece (not pawn-structure) term runs over.
    pub const NON_PAWN: [Role; 5] = [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    /// The pieces a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// 0 for a pawn … 5 for a king.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// Parse a letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }
}

/// A piece: a role of a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind of piece.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White.
    pub const fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Parse a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) if c.is_ascii() => Some(Piece { color, role }),
            _ => None,
        }
    }
}

/// The FEN letter (`N` for a white knight, `n` for a black one).
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A FEN letter (`N`, `n`, …).
///
/// ```
/// use hashmate::{Color, Piece, Role};
/// assert_eq!("q".parse(), Ok(Piece { color: Color::Black, role: Role::Queen }));
/// assert!("x".parse::<Piece>().is_err());
/// ```
impl FromStr for Piece {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Piece, ParseNameError> {
        let mut c = s.chars();
        match (c.next(), c.next()) {
            (Some(ch), None) => Piece::from_char(ch),
            _ => None,
        }
        .ok_or_else(|| ParseNameError::new("a piece letter (PNBRQK, pnbrqk)", s))
    }
}

/// The lower-case letter (`p`, `n`, `b`, `r`, `q`, `k`).
impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A letter of either case, or an English name (`knight`).
///
/// ```
/// use hashmate::Role;
/// assert_eq!("N".parse(), Ok(Role::Knight));
/// assert_eq!("queen".parse(), Ok(Role::Queen));
/// ```
impl FromStr for Role {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Role, ParseNameError> {
        let lower = s.to_ascii_lowercase();
        let role = match lower.as_str() {
            "pawn" => Some(Role::Pawn),
            "knight" => Some(Role::Knight),
            "bishop" => Some(Role::Bishop),
            "rook" => Some(Role::Rook),
            "queen" => Some(Role::Queen),
            "king" => Some(Role::King),
            _ => {
                let mut c = lower.chars();
                match (c.next(), c.next()) {
                    (Some(ch), None) => Role::from_char(ch),
                    _ => None,
                }
            }
        };
        role.ok_or_else(|| ParseNameError::new("a piece role (p, n, b, r, q, k or its name)", s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for role in Role::ALL {
            assert_eq!(role.to_string().parse(), Ok(role));
            for color in Color::ALL {
                let p = Piece { color, role };
                assert_eq!(p.to_string().parse(), Ok(p));
            }
        }
        assert!("kk".parse::<Role>().is_err());
        assert!("é".parse::<Piece>().is_err());
    }
}
