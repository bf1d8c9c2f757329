//! Building a position piece by piece.
//!
//! [`PositionBuilder`] sets pieces, the side to move, castling rights (by
//! the castling rook's square, so Chess960 rights are set the same way),
//! the en-passant square and the clocks; [`PositionBuilder::build`] checks
//! the result exactly as FEN parsing does — it writes the setup as a FEN
//! and parses it — so a setup is accepted exactly when its FEN would be,
//! with the same [`FenError`].
//!
//! ```
//! use hashmate::builder::PositionBuilder;
//! use hashmate::{Color, Piece, Role, Square};
//! let sq = |s: &str| s.parse::<Square>().unwrap();
//! let mut b = PositionBuilder::new();
//! b.piece(sq("e1"), Some(Piece { color: Color::White, role: Role::King }))
//!     .piece(sq("h1"), Some(Piece { color: Color::White, role: Role::Rook }))
//!     .piece(sq("e8"), Some(Piece { color: Color::Black, role: Role::King }))
//!     .castling_rook(Color::White, sq("h1"));
//! let pos = b.build()?;
//! assert_eq!(pos.to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
//! // Without a king the position is refused, as its FEN would be.
//! b.piece(sq("e8"), None);
//! assert!(b.build().is_err());
//! # Ok::<(), hashmate::FenError>(())
//! ```

use crate::fen::FenError;
use crate::piece::Piece;
use crate::position::{CastlingSide, Position};
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::{Color, Square};

/// A position under construction. Starts empty, White to move, no
/// castling rights, no en-passant square, clocks 0 and 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionBuilder {
    board: [Option<Piece>; 64],
    side: Color,
    /// Castling rights by rook square, White's then Black's, in the order
    /// set.
    castling: Vec<(Color, Square)>,
    ep: Option<Square>,
    halfmove: u32,
    fullmove: u32,
}

impl Default for PositionBuilder {
    fn default() -> Self {
        PositionBuilder::new()
    }
}

impl PositionBuilder {
    /// An empty board.
    pub fn new() -> PositionBuilder {
        PositionBuilder {
            board: [None; 64],
            side: Color::White,
            castling: Vec::new(),
            ep: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The setup of `pos`, to change.
    pub fn from_position(pos: &Position) -> PositionBuilder {
        let mut b = PositionBuilder::new();
        for sq in pos.occupied().iter() {
            b.board[sq.index()] = pos.piece_at(sq);
        }
        b.side = pos.side_to_move();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = pos.castling().rook(color, side) {
                    b.castling.push((color, rook));
                }
            }
        }
        b.ep = pos.ep_square();
        b.halfmove = pos.halfmove_clock();
        b.fullmove = pos.fullmove_number();
        b
    }

    /// Put `piece` on `sq` (`None`: empty it).
    pub fn piece(&mut self, sq: Square, piece: Option<Piece>) -> &mut Self {
        self.board[sq.index()] = piece;
        self
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The side to move.
    pub fn side_to_move(&mut self, color: Color) -> &mut Self {
        self.side = color;
        self
    }

    /// Give `color` the right to castle with the rook on `rook`.
    pub fn castling_rook(&mut self, color: Color, rook: Square) -> &mut Self {
        if !self.castling.contains(&(color, rook)) {
            self.castling.push((color, rook));
        }
        self
    }

    /// Take every castling right away.
    pub fn clear_castling(&mut self) -> &mut Self {
        self.castling.clear();
        self
    }

    /// The en-passant square (the square a pawn skipped).
    pub fn en_passant(&mut self, sq: Option<Square>) -> &mut Self {
        self.ep = sq;
        self
    }

    /// The half-move clock (plies since a capture or pawn move).
    pub fn halfmove_clock(&mut self, n: u32) -> &mut Self {
        self.halfmove = n;
        self
    }

    /// The full-move number.
    pub fn fullmove_number(&mut self, n: u32) -> &mut Self {
        self.fullmove = n;
        self
    }

    /// The setup as FEN (castling as `KQkq` for rooks in the corners, else
    /// as the rook's file letter, as X-FEN and Shredder-FEN write it).
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank * 8 + file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == Color::White { 'w' } else { 'b' });
        s.push(' ');
        let mut rights = String::new();
        for color in Color::ALL {
            let home = if color == Color::White { 0 } else { 56 };
            let mut mine: Vec<Square> = self
                .castling
                .iter()
                .filter(|(c, _)| *c == color)
                .map(|&(_, sq)| sq)
                .collect();
            // Short side first, as FEN orders K before Q.
            mine.sort_by_key(|sq| core::cmp::Reverse(sq.index()));
            for sq in mine {
                let letter = match sq.index() {
                    i if i == home + 7 => 'k',
                    i if i == home => 'q',
                    _ => sq.file().char(),
                };
                rights.push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        s.push_str(if rights.is_empty() { "-" } else { &rights });
        s.push(' ');
        match self.ep {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// The position, checked exactly as [`Position::from_fen`] checks the
    /// setup's FEN ([`PositionBuilder::to_fen`]).
    ///
    /// # Errors
    /// The [`FenError`] that FEN gives: an illegal position (kings,
    /// pawns on the back ranks, the side not to move in check, castling
    /// rights without their rook, an impossible en-passant square) or
    /// clocks out of range.
    pub fn build(&self) -> Result<Position, FenError> {
        Position::from_fen(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_rebuild_to_themselves() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 12 40",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let built = PositionBuilder::from_position(&pos).build().unwrap();
            assert_eq!(built, pos, "{fen}");
        }
    }
}
