//! Building a position piece by piece.
//!
//! [`PositionBuilder`] sets pieces, the side to move, castling rights (by
//! the castling rook's square, so Chess960 rights are set the same way),
//! the en-passant square and the clocks; [`PositionBuilder::build`] checks
//! the result exactly as FEN parsing does (the same checks, without
//! writing the text), so a setup is accepted exactly when its FEN
//! ([`PositionBuilder::to_fen`]) would be, with the same [`FenError`].
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

use crate::fen::{CastlingToken, FenError};
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

    /// The castling rights as FEN letters, in `to_fen`'s order: White's
    /// then Black's, the short side first; a rook in its corner as `K` or
    /// `Q` (the outermost rook on that side), any other by its file.
    fn castling_tokens(&self) -> impl Iterator<Item = CastlingToken> + '_ {
        Color::ALL.into_iter().flat_map(move |color| {
            let home = if color == Color::White { 0 } else { 56 };
            let mut mine: Vec<Square> = self
                .castling
                .iter()
                .filter(|(c, _)| *c == color)
                .map(|&(_, sq)| sq)
                .collect();
            mine.sort_by_key(|sq| core::cmp::Reverse(sq.index()));
            mine.into_iter().map(move |sq| match sq.index() {
                i if i == home + 7 => CastlingToken::Side(color, CastlingSide::Short),
                i if i == home => CastlingToken::Side(color, CastlingSide::Long),
                _ => CastlingToken::File(color, sq.file()),
            })
        })
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
        let rights: String = self
            .castling_tokens()
            .map(|token| {
                let (color, letter) = match token {
                    CastlingToken::Side(c, CastlingSide::Short) => (c, 'k'),
                    CastlingToken::Side(c, CastlingSide::Long) => (c, 'q'),
                    CastlingToken::File(c, file) => (c, file.char()),
                };
                if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                }
            })
            .collect();
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
        // Directly, without the text, where that is the FEN's reading; its
        // checks are FEN's own (`finish_setup`). Anything else — a setup
        // that is refused, or castling letters FEN would call a syntax
        // error — takes the text's way, so that the error is FEN's too.
        match self.build_direct() {
            Some(Ok(pos)) => Ok(pos),
            _ => Position::from_fen(&self.to_fen()),
        }
    }

    /// [`PositionBuilder::build`] without writing the FEN: `None` where the
    /// FEN's castling field would not parse (a letter twice, more than
    /// four). Where it gives a position, it is the FEN's; where it gives an
    /// error, the FEN's may come first (an en-passant square on a wrong
    /// rank is a reading error there), so `build` asks the FEN for it.
    fn build_direct(&self) -> Option<Result<Position, FenError>> {
        let mut pos = Position::empty();
        for (i, piece) in self.board.iter().enumerate() {
            if let (Some(piece), Some(sq)) = (*piece, Square::new(i as u8)) {
                pos.put(piece, sq);
            }
        }
        pos.side = self.side;
        pos.ep = self.ep;
        pos.halfmove = self.halfmove;
        pos.fullmove = self.fullmove.max(1);
        // The letters `to_fen` writes, as FEN reads them.
        let mut tokens: Vec<CastlingToken> = Vec::new();
        for token in self.castling_tokens() {
            if tokens.contains(&token) || tokens.len() >= 4 {
                return None;
            }
            tokens.push(token);
        }
        Some(pos.finish_setup(&tokens))
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

    /// `build` must answer exactly as parsing `to_fen` does: the same
    /// position or the same error.
    fn agrees_with_fen(b: &PositionBuilder) -> Result<bool, String> {
        let fen = b.to_fen();
        let (direct, text) = (b.build(), Position::from_fen(&fen));
        if direct != text {
            return Err(format!("{fen}: {direct:?} against {text:?}"));
        }
        // The direct way itself, not only its fallback, where it answers.
        if let Some(Ok(pos)) = b.build_direct() {
            if Ok(&pos) != text.as_ref() {
                return Err(format!("{fen}: direct {pos:?} against {text:?}"));
            }
        }
        Ok(text.is_ok())
    }

    #[test]
    fn setups_that_fen_reads_in_its_own_way_agree() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let piece = |c| Piece::from_char(c).unwrap();
        let kings = || {
            let mut b = PositionBuilder::new();
            b.piece(sq("e1"), Some(piece('K')))
                .piece(sq("e8"), Some(piece('k')));
            b
        };
        // A corner rook's right is `K`: the outermost rook on that side.
        let mut b = kings();
        b.piece(sq("g1"), Some(piece('R')))
            .castling_rook(Color::White, sq("h1"));
        assert_eq!(agrees_with_fen(&b), Ok(true));
        // Two rights on one file (`EE`), five rights: FEN's syntax errors.
        let mut b = kings();
        b.piece(sq("a1"), Some(piece('R')))
            .castling_rook(Color::White, sq("a1"))
            .castling_rook(Color::White, sq("a5"))
            .castling_rook(Color::White, sq("a3"));
        assert_eq!(agrees_with_fen(&b), Ok(false));
        let mut b = kings();
        for s in ["a1", "b1", "c1", "d1", "h1"] {
            b.castling_rook(Color::White, sq(s));
        }
        assert_eq!(agrees_with_fen(&b), Ok(false));
        // En passant on a wrong rank; a right without its rook; no king.
        let mut b = kings();
        b.en_passant(Some(sq("e4")));
        assert_eq!(agrees_with_fen(&b), Ok(false));
        let mut b = kings();
        b.castling_rook(Color::Black, sq("a8"));
        assert_eq!(agrees_with_fen(&b), Ok(false));
        let mut b = kings();
        b.piece(sq("e8"), None);
        assert_eq!(agrees_with_fen(&b), Ok(false));
        // Full-move 0 reads as 1; large clocks are kept.
        let mut b = kings();
        b.fullmove_number(0).halfmove_clock(4_000_000_000);
        assert_eq!(agrees_with_fen(&b), Ok(true));
    }

    mod random {
        use super::*;
        use crate::piece::Role;
        use proptest::prelude::*;

        /// Mostly legal-looking setups: two kings, a few pieces (pawns on
        /// back ranks too), castling rooks in corners, on back ranks and
        /// anywhere, en-passant squares mostly on ranks 3 and 6.
        fn setup() -> impl Strategy<Value = PositionBuilder> {
            (
                (0u8..64, 0u8..64, prop::bool::weighted(0.05)),
                prop::collection::vec((0u8..64, 0usize..12), 0..10),
                any::<bool>(),
                prop_oneof![
                    2 => Just(Vec::new()),
                    1 => prop::collection::vec(
                        prop_oneof![Just(0u8), Just(7), Just(56), Just(63), 0u8..8, 56u8..64, 0u8..64],
                        1..6
                    ),
                ],
                prop_oneof![
                    6 => Just(None),
                    2 => (0u8..8, any::<bool>()).prop_map(|(f, six)| Some(f + if six { 40 } else { 16 })),
                    1 => (0u8..64).prop_map(Some),
                ],
                (0u32..120, 0u32..200),
            )
                .prop_map(|((wk, bk, third_king), pieces, black, rooks, ep, (half, full))| {
                    let mut b = PositionBuilder::new();
                    let at = |i: u8| Square::new(i).unwrap();
                    let piece = |i: usize| Piece {
                        color: if i < 6 { Color::White } else { Color::Black },
                        role: Role::ALL[i % 6],
                    };
                    for (s, p) in pieces {
                        // Pawns kept off the back ranks most of the time.
                        let p = if p % 6 == 0 && !(8..56).contains(&s) && s % 3 != 0 { p + 1 } else { p };
                        b.piece(at(s), Some(piece(p)));
                    }
                    b.piece(at(wk), Some(piece(5)));
                    if !third_king {
                        b.piece(at(bk), Some(piece(11)));
                    }
                    for (i, r) in rooks.into_iter().enumerate() {
                        let color = if i % 2 == 0 { Color::White } else { Color::Black };
                        b.castling_rook(color, at(r));
                    }
                    b.side_to_move(if black { Color::Black } else { Color::White })
                        .en_passant(ep.map(at))
                        .halfmove_clock(half)
                        .fullmove_number(full);
                    b
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(3000))]
            #[test]
            fn build_answers_as_its_fen_does(b in setup()) {
                prop_assert_eq!(agrees_with_fen(&b).map(|_| ()), Ok(()));
            }
        }
    }
}
