//! How a game ends: checkmate, and the draws decided by the position
//! alone — stalemate, insufficient material, the fifty-move rule — in that
//! order of precedence ([`Position::outcome`]); [`Game`](crate::Game)
//! adds threefold repetition.

use crate::bitboard::Bitboard;
use crate::piece::Role;
use crate::position::Position;
use crate::square::Color;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is checkmated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// A draw, and why.
    Draw(DrawReason),
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl core::fmt::Display for Outcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "{winner} wins by checkmate"),
            Outcome::Draw(r) => write!(f, "draw by {r}"),
        }
    }
}

/// Why a game is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate ([`Position::is_insufficient_material`]).
    InsufficientMaterial,
    /// A hundred plies without a capture or pawn move.
    FiftyMoves,
    /// The same position for the third time with the same side to move,
    /// castling and en-passant rights.
    Repetition,
}

impl core::fmt::Display for DrawReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::InsufficientMaterial => "insufficient material",
            DrawReason::FiftyMoves => "the fifty-move rule",
            DrawReason::Repetition => "threefold repetition",
        })
    }
}

impl Position {
    /// Is the side to move checkmated?
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Is the side to move stalemated (no legal move, not in check)?
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Is neither side able to checkmate by any series of legal moves, in
    /// the cases that are recognised by material alone: king against king,
    /// king and one knight or bishop against king, and kings with any
    /// number of bishops all on squares of one colour (FIDE's dead
    /// positions that need no search). King and knight against king and
    /// knight, or bishops of both colours, are not dead: a helpmate exists.
    ///
    /// ```
    /// use hashmate::Position;
    /// let kbk: Position = "8/8/4k3/8/8/2B5/8/4K3 w - - 0 1".parse()?;
    /// assert!(kbk.is_insufficient_material());
    /// let knkn: Position = "8/8/4k3/3n4/8/2N5/8/4K3 w - - 0 1".parse()?;
    /// assert!(!knkn.is_insufficient_material());
    /// # Ok::<(), hashmate::FenError>(())
    /// ```
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops - Bitboard::DARK_SQUARES).is_empty())
    }

    /// Has the half-move clock reached 100 plies (fifty moves by each side
    /// without a capture or pawn move)? A draw may then be claimed, unless
    /// the position is checkmate, which takes precedence
    /// ([`Position::outcome`] applies that order).
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmove >= 100
    }

    /// How the game stands in this position, without its history:
    /// checkmate, stalemate, insufficient material or the fifty-move rule
    /// (in that order of precedence), or `None` while play goes on.
    /// [`Game::outcome`](crate::Game::outcome) adds threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            return Some(if self.is_check() {
                Outcome::Checkmate { winner: !self.side }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        if self.is_insufficient_material() {
            Some(Outcome::Draw(DrawReason::InsufficientMaterial))
        } else if self.is_fifty_moves() {
            Some(Outcome::Draw(DrawReason::FiftyMoves))
        } else {
            None
        }
    }
}
