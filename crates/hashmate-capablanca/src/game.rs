//! Standard algebraic notation, how a game ends, and a game with its
//! history of keys — the same names and behaviour as the `hashmate`
//! crate's on 8×8.
//!
//! SAN on 10×8 is SAN with two more piece letters, as Fairy-Stockfish
//! writes it: `A` for the archbishop and `C` for the chancellor (`Ce3`,
//! `Axd5`, `e8=C`), files `a`–`j`, castling `O-O` (king to the i-file) and
//! `O-O-O` (king to the c-file).
//!
//! ```
//! use hashmate_capablanca::{DrawReason, Game, Outcome, Variant};
//! let mut game = Game::new(Variant::Capablanca.start());
//! for san in ["Ci3", "Ci6", "Ch1", "Ch8", "Ci3", "Ci6", "Ch1", "Ch8"] {
//!     game.play_san(san)?;
//! }
//! assert!(game.is_threefold_repetition());
//! assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
//! # Ok::<(), hashmate_capablanca::game::PlayError>(())
//! ```

use crate::moves::{Move, MoveParseError};
use crate::outcome::{DrawReason, Outcome};
use crate::piece::Role;
use crate::position::{CastlingSide, IllegalMoveError, Position};
use crate::square::Square;
use core::fmt;
pub use hashmate_hash::zobrist::repetitions;

impl Position {
    /// `mv` in standard algebraic notation, with `+` or `#`.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when `mv` is not legal here.
    ///
    /// ```
    /// use hashmate_capablanca::Variant;
    /// let pos = Variant::Capablanca.start();
    /// let mv = pos.parse_uci("h1i3")?;
    /// assert_eq!(pos.to_san(mv)?, "Ci3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_san(&self, mv: Move) -> Result<String, IllegalMoveError> {
        let legal = self.legal_moves();
        if !legal.contains(mv) {
            return Err(IllegalMoveError::new(mv));
        }
        let mut s = String::new();
        if mv.is_castling() {
            let short = mv.to() > mv.from();
            s.push_str(if short { "O-O" } else { "O-O-O" });
        } else {
            let role = self.role_at(mv.from()).unwrap_or(Role::Pawn);
            let capture = self.role_at(mv.to()).is_some() || Some(mv.to()) == self.ep_target(mv);
            let file = |sq: Square| char::from(b'a' + sq.file());
            if role == Role::Pawn {
                if capture {
                    s.push(file(mv.from()));
                }
            } else {
                s.push(role.char().to_ascii_uppercase());
                let rivals: Vec<Square> = legal
                    .iter()
                    .filter(|m| {
                        !m.is_castling()
                            && m.to() == mv.to()
                            && m.from() != mv.from()
                            && self.role_at(m.from()) == Some(role)
                    })
                    .map(|m| m.from())
                    .collect();
                if !rivals.is_empty() {
                    let same_file = rivals.iter().any(|r| r.file() == mv.from().file());
                    let same_rank = rivals.iter().any(|r| r.rank() == mv.from().rank());
                    if !same_file {
                        s.push(file(mv.from()));
                    } else if !same_rank {
                        s.push(char::from(b'1' + mv.from().rank()));
                    } else {
                        s.push_str(&mv.from().to_string());
                    }
                }
            }
            if capture {
                s.push('x');
            }
            s.push_str(&mv.to().to_string());
            if let Some(p) = mv.promotion() {
                s.push('=');
                s.push(p.char().to_ascii_uppercase());
            }
        }
        let mut after = self.clone();
        after.play_unchecked(mv);
        if after.is_check() {
            s.push(if after.count_moves() == 0 { '#' } else { '+' });
        }
        Ok(s)
    }

    /// Parse a move in SAN, as [`Position::to_san`] writes it; also
    /// accepted, as PGN readers do: `0-0` with zeros, a missing or
    /// superfluous `x`, promotions without `=`, and trailing `+`, `#`, `!`
    /// or `?`.
    ///
    /// # Errors
    /// [`MoveParseError`] for malformed, illegal or ambiguous SAN.
    pub fn parse_san(&self, san: &str) -> Result<Move, MoveParseError> {
        let syntax = || MoveParseError::Syntax(san.to_string());
        let t = san.trim_end_matches(['+', '#', '!', '?']);
        let legal = self.legal_moves();
        if matches!(t, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let side = if t.len() == 5 {
                CastlingSide::Long
            } else {
                CastlingSide::Short
            };
            return legal
                .iter()
                .copied()
                .find(|m| m.is_castling() && (m.to() > m.from()) == (side == CastlingSide::Short))
                .ok_or_else(|| MoveParseError::Illegal(san.to_string()));
        }
        if !t.is_ascii() || t.len() < 2 || t.len() > 12 {
            return Err(syntax());
        }
        let mut body: Vec<u8> = t.bytes().filter(|&b| b != b'x' && b != b':').collect();
        let mut promotion = None;
        if let Some(&last) = body.last() {
            let c = char::from(last);
            if c.is_ascii_uppercase() && body.len() >= 3 {
                match Role::from_char(c) {
                    Some(Role::Pawn | Role::King) | None => return Err(syntax()),
                    Some(r) => {
                        promotion = Some(r);
                        body.pop();
                        if body.last() == Some(&b'=') {
                            body.pop();
                        }
                    }
                }
            }
        }
        let (role, rest) = match body.first().map(|&b| char::from(b)) {
            Some(c) if c.is_ascii_uppercase() => match Role::from_char(c) {
                Some(r) if r != Role::Pawn => (r, &body[1..]),
                _ => return Err(syntax()),
            },
            _ => (Role::Pawn, &body[..]),
        };
        if rest.len() < 2 {
            return Err(syntax());
        }
        let to: Square = core::str::from_utf8(&rest[rest.len() - 2..])
            .unwrap_or("")
            .parse()
            .map_err(|()| syntax())?;
        let (mut hint_file, mut hint_rank) = (None, None);
        for &b in &rest[..rest.len() - 2] {
            match b {
                b'a'..=b'j' => hint_file = Some(b - b'a'),
                b'1'..=b'8' => hint_rank = Some(b - b'1'),
                _ => return Err(syntax()),
            }
        }
        let mut found = None;
        for &m in legal.iter() {
            if m.is_castling()
                || m.to() != to
                || m.promotion() != promotion
                || self.role_at(m.from()) != Some(role)
                || hint_file.is_some_and(|f| m.from().file() != f)
                || hint_rank.is_some_and(|r| m.from().rank() != r)
            {
                continue;
            }
            if found.replace(m).is_some() {
                return Err(MoveParseError::Ambiguous(san.to_string()));
            }
        }
        found.ok_or_else(|| MoveParseError::Illegal(san.to_string()))
    }

    /// The square a pawn move `mv` captures en passant on, if it does.
    fn ep_target(&self, mv: Move) -> Option<Square> {
        (self.role_at(mv.from()) == Some(Role::Pawn) && Some(mv.to()) == self.ep_square())
            .then_some(mv.to())
    }
}

/// Why a move could not be played in a [`Game`] (the shape of
/// `hashmate::PlayError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The text is not a legal move in the notation asked for.
    Parse(MoveParseError),
    /// The move is not legal in the current position.
    Illegal(IllegalMoveError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Parse(e) => e.fmt(f),
            PlayError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<MoveParseError> for PlayError {
    fn from(e: MoveParseError) -> Self {
        PlayError::Parse(e)
    }
}

impl From<IllegalMoveError> for PlayError {
    fn from(e: IllegalMoveError) -> Self {
        PlayError::Illegal(e)
    }
}

/// A game from a start position: the moves played, the positions reached
/// and their Zobrist keys, so that repetitions are found by comparing
/// keys (the API of `hashmate::Game`).
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    keys: Vec<u64>,
    moves: Vec<Move>,
}

impl Game {
    /// A game starting at `start`.
    pub fn new(start: Position) -> Game {
        Game {
            keys: vec![start.key()],
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.positions[self.positions.len() - 1]
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The key of every position of the game, the start first and the
    /// current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Play `mv` if it is legal.
    ///
    /// # Errors
    /// [`IllegalMoveError`]; the game is unchanged.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        let mut next = self.position().clone();
        next.try_play(mv)?;
        self.keys.push(next.key());
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Parse a move in UCI notation and play it.
    ///
    /// # Errors
    /// [`PlayError::Parse`]; the game is unchanged.
    pub fn play_uci(&mut self, uci: &str) -> Result<Move, PlayError> {
        let mv = self.position().parse_uci(uci)?;
        self.try_play(mv)?;
        Ok(mv)
    }

    /// Parse a move in SAN and play it.
    ///
    /// # Errors
    /// [`PlayError::Parse`]; the game is unchanged.
    pub fn play_san(&mut self, san: &str) -> Result<Move, PlayError> {
        let mv = self.position().parse_san(san)?;
        self.try_play(mv)?;
        Ok(mv)
    }

    /// Take back the last move; `None` at the start position.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        Some(mv)
    }

    /// Has the current position occurred at least `n` times (counting
    /// now)?
    pub fn is_repetition(&self, n: usize) -> bool {
        repetitions(&self.keys, self.position().halfmove_clock(), n) >= n
    }

    /// [`Game::is_repetition`]`(3)`.
    pub fn is_threefold_repetition(&self) -> bool {
        self.is_repetition(3)
    }

    /// [`Position::outcome`], then threefold repetition; `None` while play
    /// goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome().or_else(|| {
            self.is_threefold_repetition()
                .then_some(Outcome::Draw(DrawReason::Repetition))
        })
    }
}
