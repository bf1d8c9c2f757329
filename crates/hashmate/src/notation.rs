//! Moves as text: UCI and standard algebraic notation (SAN), read and
//! written for a position, and the castling notation a position needs.
//! (The notation sits above the position and the move generator, which
//! know nothing of text.)

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::moves::{CastlingMode, CastlingSide, Move, MoveParseError};
use crate::piece::Role;
use crate::position::Position;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::{File, Rank, Square};
use crate::text::clip;

impl CastlingMode {
    /// [`CastlingMode::Chess960`] when `pos` cannot be written in standard
    /// chess (a king or castling rook off its standard square).
    pub fn detect(pos: &Position) -> CastlingMode {
        if pos.is_chess960() {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }
}

impl Position {
    /// Is `mv` an en-passant capture in this position?
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
        (!mv.is_castling() && self.by_color(!self.side_to_move()).contains(mv.to()))
            || self.is_en_passant(mv)
    }

    /// Parse a move in UCI notation and check that it is legal. Castling is
    /// accepted both as king-to-destination (`e1g1`) and as king-takes-rook
    /// (`e1h1`), so one parser serves standard chess and Chess960.
    ///
    /// # Errors
    /// [`MoveParseError::Syntax`] for text that is not a UCI move, and
    /// [`MoveParseError::Illegal`] for a move not legal here.
    ///
    /// ```
    /// use hashmate::{MoveParseError, Position};
    /// let pos = Position::startpos();
    /// assert!(pos.parse_uci("g1f3").is_ok());
    /// assert!(matches!(pos.parse_uci("e2e5"), Err(MoveParseError::Illegal(_))));
    /// assert!(matches!(pos.parse_uci("e2"), Err(MoveParseError::Syntax(_))));
    /// ```
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
        if promotion.is_none() {
            // King takes own rook, or (only when the literal move is not a
            // legal king move, so that a one-square king move in Chess960 is
            // never read as castling) the king's castling destination.
            let castle = legal.iter().copied().find(|&c| {
                c.is_castling() && c.from() == from && (c.to() == to || c.king_destination() == to)
            });
            if let Some(c) = castle {
                return Ok(c);
            }
        }
        Err(MoveParseError::Illegal(clip(s)))
    }

    /// Standard algebraic notation of `mv`, with `+` or `#`.
    ///
    /// # Errors
    /// [`IllegalMoveError`](crate::IllegalMoveError) when `mv` is not legal
    /// here.
    ///
    /// ```
    /// use hashmate::Position;
    /// let pos = Position::startpos();
    /// let mv = pos.parse_uci("g1f3")?;
    /// assert_eq!(pos.to_san(mv)?, "Nf3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_san(&self, mv: Move) -> Result<String, crate::IllegalMoveError> {
        let legal = self.legal_moves();
        if !legal.contains(mv) {
            return Err(crate::IllegalMoveError::new(mv));
        }
        let mut s = String::new();
        match (mv.castling_side(), self.role_at(mv.from())) {
            (Some(CastlingSide::Short), _) => s.push_str("O-O"),
            (Some(CastlingSide::Long), _) => s.push_str("O-O-O"),
            (None, Some(Role::Pawn)) => {
                if self.is_capture(mv) {
                    s.push(mv.from().file().char());
                    s.push('x');
                }
                s.push_str(&mv.to().to_string());
                if let Some(p) = mv.promotion() {
                    s.push('=');
                    s.push(p.char().to_ascii_uppercase());
                }
            }
            (None, Some(role)) => {
                s.push(role.char().to_ascii_uppercase());
                // Disambiguate among other pieces of the same role.
                let others: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| {
                        m.to() == mv.to()
                            && m.from() != mv.from()
                            && !m.is_castling()
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
                if self.is_capture(mv) {
                    s.push('x');
                }
                s.push_str(&mv.to().to_string());
            }
            // A legal non-castling move starts on a piece.
            (None, None) => return Err(crate::IllegalMoveError::new(mv)),
        }
        let mut after = self.clone();
        after.play_unchecked(mv);
        if after.is_check() {
            s.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        Ok(s)
    }

    /// Parse a move in SAN. Also accepted, as PGN readers do: `0-0` and
    /// `0-0-0` with zeros, a missing or superfluous `x`, promotions without
    /// `=`, an `e.p.` suffix, and trailing `+`, `#`, `!`, `?` or `+-`-style
    /// annotation characters.
    ///
    /// # Errors
    /// [`MoveParseError`] for malformed, illegal or ambiguous SAN.
    ///
    /// ```
    /// use hashmate::Position;
    /// let pos = Position::startpos();
    /// assert_eq!(pos.parse_san("Nf3")?, pos.parse_uci("g1f3")?);
    /// assert!(pos.parse_san("Nd2").is_err());
    /// # Ok::<(), hashmate::MoveParseError>(())
    /// ```
    pub fn parse_san(&self, san: &str) -> Result<Move, MoveParseError> {
        let mut t = san.trim_end_matches(['+', '#', '!', '?', '-', '=']);
        while let Some(rest) = t.strip_suffix("e.p.") {
            t = rest;
        }
        let t = t.trim_end().trim_end_matches(['+', '#', '!', '?']);
        if matches!(t, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let side = if t.len() == 5 {
                CastlingSide::Long
            } else {
                CastlingSide::Short
            };
            return self
                .legal_moves()
                .iter()
                .copied()
                .find(|&m| m.castling_side() == Some(side))
                .ok_or_else(|| MoveParseError::Illegal(clip(san)));
        }
        // The token without capture and separator marks, on the stack.
        let mut buf = [0u8; 12];
        let mut len = 0;
        for b in t.bytes().filter(|b| !matches!(b, b'x' | b'-' | b':')) {
            if !b.is_ascii() || len == buf.len() {
                return Err(MoveParseError::Syntax(clip(san)));
            }
            buf[len] = b;
            len += 1;
        }
        let mut body = &buf[..len];
        if t.len() < 2 || !t.is_ascii() {
            return Err(MoveParseError::Syntax(clip(san)));
        }
        let mut promotion = None;
        if let Some(&last) = body.last() {
            let last = char::from(last);
            if let Some(r) = Role::from_char(last).filter(|_| last.is_ascii_uppercase()) {
                if body.len() >= 3 && r != Role::Pawn && r != Role::King {
                    promotion = Some(r);
                    body = &body[..body.len() - 1];
                    if body.last() == Some(&b'=') {
                        body = &body[..body.len() - 1];
                    }
                }
            }
        }
        let (role, rest) = match body.first().map(|&b| char::from(b)) {
            Some(c @ ('N' | 'B' | 'R' | 'Q' | 'K')) => match Role::from_char(c) {
                Some(r) => (r, &body[1..]),
                None => return Err(MoveParseError::Syntax(clip(san))),
            },
            _ => (Role::Pawn, body),
        };
        if rest.len() < 2 {
            return Err(MoveParseError::Syntax(clip(san)));
        }
        let square = core::str::from_utf8(&rest[rest.len() - 2..]).unwrap_or("");
        let to: Square = square
            .parse()
            .map_err(|_| MoveParseError::Syntax(clip(san)))?;
        let (mut hf, mut hr) = (None, None);
        for &b in &rest[..rest.len() - 2] {
            let c = char::from(b);
            if let Some(f) = File::from_char(c) {
                hf = Some(f);
            } else if let Some(r) = Rank::from_char(c) {
                hr = Some(r);
            } else {
                return Err(MoveParseError::Syntax(clip(san)));
            }
        }
        // Only the pieces that could reach `to` are tried, each with the
        // one-move legality test, instead of generating every legal move.
        let us = self.side_to_move();
        let occ = self.occupied();
        let reach = match role {
            Role::Pawn => {
                // Pushes come from the same file, captures from the
                // neighbouring ones; the legality test sorts them out.
                let file = Bitboard::file(to.file());
                file | file.east() | file.west()
            }
            Role::Knight => knight_attacks(to),
            Role::Bishop => bishop_attacks(to, occ),
            Role::Rook => rook_attacks(to, occ),
            Role::Queen => queen_attacks(to, occ),
            Role::King => king_attacks(to),
        };
        let mut found = None;
        for from in self.pieces(us, role) & reach {
            if hf.is_some_and(|f| from.file() != f) || hr.is_some_and(|r| from.rank() != r) {
                continue;
            }
            let m = Move::new(from, to, promotion);
            if !self.is_legal(m) {
                continue;
            }
            if found.replace(m).is_some() {
                return Err(MoveParseError::Ambiguous(clip(san)));
            }
        }
        found.ok_or_else(|| MoveParseError::Illegal(clip(san)))
    }
}
