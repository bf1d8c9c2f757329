//! How a game ends on 10×8 — checkmate, and the draws decided by the
//! position alone: stalemate, insufficient material, the fifty-move rule,
//! in that order of precedence ([`Position::outcome`]);
//! [`Game`](crate::Game) adds threefold repetition. The same names and
//! behaviour as the `hashmate` crate's on 8×8.

use crate::piece::Role;
use crate::position::Position;
use crate::square::Color;
use core::fmt;

/// How a game ended (the shape of `hashmate::Outcome`).
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

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
    /// The same position for the third time.
    Repetition,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::InsufficientMaterial => "insufficient material",
            DrawReason::FiftyMoves => "the fifty-move rule",
            DrawReason::Repetition => "threefold repetition",
        })
    }
}

impl Position {
    /// Has the half-move clock reached 100 plies?
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmove_clock() >= 100
    }

    /// Can neither side ever mate? Bare kings, or kings and one knight or
    /// bishop in all (an archbishop or chancellor mates with its king's
    /// help, as do pawns, rooks and queens).
    pub fn is_insufficient_material(&self) -> bool {
        let minors = self.by_role(Role::Knight) | self.by_role(Role::Bishop);
        let kings = self.by_role(Role::King);
        self.occupied() & !(minors | kings) == 0 && minors.count_ones() <= 1
    }

    /// How the game stands in this position, without its history:
    /// checkmate, stalemate, insufficient material or the fifty-move rule
    /// (in that order of precedence), or `None` while play goes on.
    /// [`Game::outcome`](crate::Game::outcome) adds threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.count_moves() == 0 {
            return Some(if self.is_check() {
                Outcome::Checkmate {
                    winner: !self.side_to_move(),
                }
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
