//! Pieces of Capablanca and Gothic chess: the six chess roles and the
//! archbishop (bishop + knight) and chancellor (rook + knight), with their
//! FEN letters.

use crate::square::Color;

/// A kind of piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
    /// An archbishop: a bishop and a knight (`A`).
    Archbishop,
    /// A chancellor: a rook and a knight (`C`).
    Chancellor,
}

impl Role {
    /// The eight roles.
    pub const ALL: [Role; 8] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Archbishop,
        Role::Chancellor,
    ];
    /// What a pawn may promote to.
    pub const PROMOTIONS: [Role; 6] = [
        Role::Queen,
        Role::Chancellor,
        Role::Archbishop,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
    ];

    /// 0 (pawn) to 7 (chancellor).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter: `p n b r q k a c`.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
            Role::Archbishop => 'a',
            Role::Chancellor => 'c',
        }
    }

    /// The role of a letter of either case.
    pub fn from_char(c: char) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.char() == c.to_ascii_lowercase())
    }
}

/// A piece: a role of a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose.
    pub color: Color,
    /// What.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White.
    pub fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }
}
