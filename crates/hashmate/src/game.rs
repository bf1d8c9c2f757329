//! A game: a start position, the moves played, and the Zobrist key of
//! every position reached, so that repetitions are found by comparing keys.
//!
//! A position can only repeat while the half-move clock runs: a capture or
//! pawn move makes every earlier position unreachable. So a repetition
//! check looks back at most `halfmove_clock` plies, and only at positions
//! with the same side to move (every second ply). [`repetitions`] does that
//! on a slice of keys; [`Game`] and the engine's search both use it.
//! [`Game`] also follows FIDE where a Polyglot key does not: an en-passant
//! capture that a pin forbids does not make a position different
//! ([`Game::is_repetition`]).
//!
//! ```
//! use hashmate::{DrawReason, Game, Outcome, Position};
//! let mut game = Game::new(Position::startpos());
//! for _ in 0..2 {
//!     for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
//!         game.play_uci(uci)?;
//!     }
//! }
//! assert!(game.is_repetition(3)); // the start position, a third time
//! assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
//! # Ok::<(), hashmate::PlayError>(())
//! ```

use crate::moves::{Move, MoveParseError};
use crate::outcome::{DrawReason, Outcome};
#[cfg(feature = "std")]
use crate::pgn::{GameResult, PgnGame};
use crate::position::{IllegalMoveError, Position};
#[allow(unused_imports)]
use crate::prelude::*;
#[cfg(feature = "std")]
use crate::square::Color;
use core::fmt;

pub use hashmate_hash::zobrist::repetitions;

/// Why a move could not be played in a [`Game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The text is not a legal move in UCI notation.
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

impl core::error::Error for PlayError {}

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

/// A main-line move of a [`PgnGame`] that is not legal where it stands.
#[cfg(feature = "std")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromPgnError {
    /// The move's ply, 1-based.
    pub ply: usize,
    /// Why it is not legal.
    pub error: IllegalMoveError,
}

#[cfg(feature = "std")]
impl fmt::Display for FromPgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}: {}", self.ply, self.error)
    }
}

#[cfg(feature = "std")]
impl core::error::Error for FromPgnError {}

/// A game from a start position: the moves played, the positions reached
/// and their keys.
#[derive(Clone, Debug, PartialEq, Eq)]
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
        // `positions` always holds at least the start position.
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

    /// The Polyglot key of every position of the game, the start first and
    /// the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The [`Position::repetition_key`] of every position of the game, the
    /// start first: what a search is given to find repetitions by FIDE's
    /// rule.
    pub fn repetition_keys(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        self.positions.iter().map(Position::repetition_key)
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
    /// [`PlayError::Parse`] for text that is not a legal UCI move here; the
    /// game is unchanged.
    pub fn play_uci(&mut self, uci: &str) -> Result<Move, PlayError> {
        let mv = self.position().parse_uci(uci)?;
        self.try_play(mv)?;
        Ok(mv)
    }

    /// Parse a move in standard algebraic notation (`Nf3`, `exd5`,
    /// `O-O`, `e8=Q+`; check marks and `!?`-style suffixes are accepted)
    /// and play it.
    ///
    /// # Errors
    /// [`PlayError::Parse`] for text that is not a legal SAN move here
    /// (ambiguous, illegal or malformed); the game is unchanged.
    ///
    /// ```
    /// use hashmate::{Game, Position};
    /// let mut game = Game::new(Position::startpos());
    /// for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
    ///     game.play_san(san)?;
    /// }
    /// assert!(game.position().is_checkmate());
    /// assert!(game.play_san("Ke7").is_err());
    /// # Ok::<(), hashmate::PlayError>(())
    /// ```
    pub fn play_san(&mut self, san: &str) -> Result<Move, PlayError> {
        let mv = self.position().parse_san(san)?;
        self.try_play(mv)?;
        Ok(mv)
    }

    /// The game of a PGN record (with the `std` feature): its start
    /// position and main line, each
    /// move checked.
    ///
    /// # Errors
    /// [`FromPgnError`] naming the ply (1-based) of the first illegal move
    /// (possible only in a [`PgnGame`] built by hand: the reader checks
    /// every move).
    #[cfg(feature = "std")]
    pub fn from_pgn(pgn: &PgnGame) -> Result<Game, FromPgnError> {
        let mut game = Game::new(pgn.start.clone());
        for (i, &mv) in pgn.moves.iter().enumerate() {
            game.try_play(mv)
                .map_err(|error| FromPgnError { ply: i + 1, error })?;
        }
        Ok(game)
    }

    /// The game in PGN export format: the Seven Tag Roster (from `tags`,
    /// `?` where missing), `SetUp`/`FEN` for a non-standard start, the
    /// other `tags`, and the moves in SAN with move numbers, in lines of at
    /// most 79 characters. The `Result` is the game's [`outcome`] (`*`
    /// while it goes on) unless `tags` give one.
    ///
    /// ```
    /// use hashmate::{Game, Position};
    /// let mut game = Game::new(Position::startpos());
    /// for san in ["f3", "e5", "g4", "Qh4#"] {
    ///     game.play_san(san)?;
    /// }
    /// let pgn = game.to_pgn(&[("White", "Fool"), ("Black", "Quick \"Q\" Mate")]);
    /// assert!(pgn.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"));
    /// assert!(pgn.contains("[Black \"Quick \\\"Q\\\" Mate\"]\n[Result \"0-1\"]\n"));
    /// assert!(pgn.ends_with("\n1. f3 e5 2. g4 Qh4# 0-1\n\n"));
    /// # Ok::<(), hashmate::PlayError>(())
    /// ```
    ///
    /// [`outcome`]: Game::outcome
    #[cfg(feature = "std")]
    pub fn to_pgn(&self, tags: &[(&str, &str)]) -> String {
        let tags: Vec<(String, String)> = tags
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let given = tags
            .iter()
            .find(|(k, _)| k == "Result")
            .and_then(|(_, v)| GameResult::parse(v));
        let result = given.unwrap_or_else(|| match self.outcome() {
            Some(Outcome::Checkmate {
                winner: Color::White,
            }) => GameResult::WhiteWins,
            Some(Outcome::Checkmate { .. }) => GameResult::BlackWins,
            Some(Outcome::Draw(_)) => GameResult::Draw,
            None => GameResult::Unknown,
        });
        crate::pgn::write::write_pgn(
            &tags,
            self.start(),
            &crate::pgn::write::plain(&self.moves),
            result,
        )
    }

    /// Take back the last move; `None` at the start position.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        Some(mv)
    }

    /// Has the current position occurred at least `n` times (counting
    /// now)? Positions are the same, as FIDE's article 9.2 has it, when
    /// the same pieces stand on the same squares with the same side to
    /// move, the same castling rights and the same possible moves: their
    /// [`Position::repetition_key`]s agree: their Polyglot keys, except
    /// that an en-passant capture counts only where it is legal.
    ///
    /// ```
    /// use hashmate::{Game, Position};
    /// // After ...d5 the e5 pawn may not take en passant: the rook on h5
    /// // would give check along the fifth rank.
    /// let mut game = Game::new("7k/3p4/8/K3P2r/8/8/8/8 b - - 0 1".parse()?);
    /// game.play_uci("d7d5")?;
    /// for _ in 0..2 {
    ///     for uci in ["a5a4", "h8g8", "a4a5", "g8h8"] {
    ///         game.play_uci(uci)?;
    ///     }
    /// }
    /// assert!(game.is_threefold_repetition());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_repetition(&self, n: usize) -> bool {
        let back = (self.position().halfmove_clock() as usize).min(self.keys.len() - 1);
        let window = self.keys.len() - 1 - back..;
        let keys: Vec<u64> = self.positions[window]
            .iter()
            .map(Position::repetition_key)
            .collect();
        repetitions(&keys, back as u32, n) >= n
    }

    /// [`Game::is_repetition`]`(3)`: a draw may be claimed.
    pub fn is_threefold_repetition(&self) -> bool {
        self.is_repetition(3)
    }

    /// [`Game::is_repetition`]`(5)`: the game is drawn without a claim
    /// (FIDE 9.6.1).
    pub fn is_fivefold_repetition(&self) -> bool {
        self.is_repetition(5)
    }

    /// How the game stands under FIDE's Laws when no one claims a draw:
    /// checkmate, stalemate and insufficient material (as
    /// [`Position::outcome`] orders them), then the seventy-five-move rule
    /// and fivefold repetition, which end the game by themselves; or
    /// `None` while play goes on. This is python-chess's `outcome()`; an
    /// arbiter's or a GUI's view of a game between people, where
    /// [`Game::outcome`] is an engine tournament's.
    ///
    /// ```
    /// use hashmate::{DrawReason, Game, Outcome, Position};
    /// let mut game = Game::new(Position::startpos());
    /// for _ in 0..2 {
    ///     for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///         game.play_uci(uci)?;
    ///     }
    /// }
    /// // Threefold: a draw to claim, not yet the end of the game.
    /// assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    /// assert_eq!(game.automatic_outcome(), None);
    /// for _ in 0..2 {
    ///     for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///         game.play_uci(uci)?;
    ///     }
    /// }
    /// let fivefold = Some(Outcome::Draw(DrawReason::FivefoldRepetition));
    /// assert_eq!(game.automatic_outcome(), fivefold);
    /// # Ok::<(), hashmate::PlayError>(())
    /// ```
    pub fn automatic_outcome(&self) -> Option<Outcome> {
        match self.position().outcome() {
            // The fifty-move rule comes last in that order: nothing else ends
            // the game here.
            None | Some(Outcome::Draw(DrawReason::FiftyMoves)) => {}
            decided => return decided,
        }
        if self.position().is_seventyfive_moves() {
            Some(Outcome::Draw(DrawReason::SeventyFiveMoves))
        } else if self.is_fivefold_repetition() {
            Some(Outcome::Draw(DrawReason::FivefoldRepetition))
        } else {
            None
        }
    }

    /// How the game stands: [`Position::outcome`] (checkmate, stalemate,
    /// insufficient material, fifty moves), then threefold repetition; or
    /// `None` while play goes on. The fifty-move rule and threefold
    /// repetition entitle a player to claim a draw under FIDE rules; like
    /// engine tournaments, this treats them as ending the game.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome().or_else(|| {
            self.is_threefold_repetition()
                .then_some(Outcome::Draw(DrawReason::Repetition))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetition_counting() {
        assert_eq!(repetitions(&[], 10, 9), 0);
        assert_eq!(repetitions(&[5], 10, 9), 1);
        // The same key an odd number of plies back is the other side to
        // move, and never counts.
        assert_eq!(repetitions(&[5, 5], 10, 9), 1);
        assert_eq!(repetitions(&[5, 1, 5], 10, 9), 2);
        assert_eq!(repetitions(&[5, 1, 5], 1, 9), 1);
    }

    #[test]
    fn undo_and_errors_leave_the_game_consistent() {
        let mut g = Game::new(Position::startpos());
        assert!(g.play_uci("e2e5").is_err());
        assert_eq!(g.moves().len(), 0);
        g.play_uci("e2e4").unwrap();
        assert_eq!(g.keys().len(), 2);
        assert_eq!(g.undo().map(|m| m.to_string()), Some("e2e4".into()));
        assert_eq!(g.undo(), None);
        assert_eq!(g.position(), &Position::startpos());
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn checkmate_beats_fifty_moves() {
        // White mates with the move that reaches the hundredth ply.
        let pos: Position = "7k/8/6K1/8/8/8/8/5Q2 w - - 99 80".parse().unwrap();
        let mut g = Game::new(pos);
        g.play_uci("f1f8").unwrap();
        assert!(g.position().is_fifty_moves());
        assert_eq!(
            g.outcome(),
            Some(Outcome::Checkmate {
                winner: crate::Color::White
            })
        );
    }
}
