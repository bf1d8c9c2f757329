//! How a game ends on 10×8 — checkmate, and the draws decided by the
//! position alone: stalemate, insufficient material, the fifty-move rule,
//! in that order of precedence ([`Position::outcome`]);
//! [`Game`](crate::Game) adds threefold repetition. The same names and
//! behaviour as the `hashmate` crate's on 8×8.

use crate::bitboard::DARK_SQUARES;
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

    /// Can `color` never mate, whatever either side plays? Fairy-Stockfish's
    /// rule, the reference for 10×8 chess, which counts a helpmate as a
    /// mate:
    /// - a pawn (it promotes), a rook, queen, archbishop or chancellor can
    ///   always mate with its king's help;
    /// - bishops mate only where bishops of both colours stand on the
    ///   board (either side's), or some other man than a king or bishop;
    /// - knights mate only with a second man beside the kings, of either
    ///   side (a king and two knights, or a knight and anything the enemy
    ///   has, even a queen, which can be made to block its own king);
    /// - a bare king never mates.
    ///
    /// `false` does not promise a mate: a fortress is not seen. The 8×8
    /// crate follows python-chess instead, which says a lone knight cannot
    /// mate a queen's side. Both sides unable to mate is
    /// [`Position::is_insufficient_material`].
    ///
    /// ```
    /// use hashmate_capablanca::{Color, Position};
    /// let kn_kq: Position = "4kq4/10/10/10/10/10/10/3NK5 w - - 0 1".parse()?;
    /// assert!(!kn_kq.has_insufficient_material(Color::White));
    /// // Two bishops on one colour cannot mate, on two colours they can.
    /// let same: Position = "4k5/10/10/10/10/10/10/2B2KB3 w - - 0 1".parse()?;
    /// assert!(same.has_insufficient_material(Color::White));
    /// let both: Position = "4k5/10/10/10/10/10/10/2B1KB4 w - - 0 1".parse()?;
    /// assert!(!both.has_insufficient_material(Color::White));
    /// assert!(both.has_insufficient_material(Color::Black));
    /// # Ok::<(), hashmate_capablanca::FenError>(())
    /// ```
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        let mating = [
            Role::Pawn,
            Role::Rook,
            Role::Queen,
            Role::Archbishop,
            Role::Chancellor,
        ]
        .into_iter()
        .fold(0, |b, r| b | self.by_role(r));
        if ours & mating != 0 {
            return false;
        }
        let men = self.occupied() & !self.by_role(Role::King);
        let bishops = self.by_role(Role::Bishop);
        // Men that reach squares of both colours.
        let unbound = men & !bishops;
        if ours & bishops != 0 {
            let two_colours = bishops & DARK_SQUARES != 0 && bishops & !DARK_SQUARES != 0;
            if two_colours || unbound != 0 {
                return false;
            }
        }
        !(ours & unbound != 0 && men.count_ones() >= 2)
    }

    /// Can neither side ever mate ([`Position::has_insufficient_material`]
    /// for both)? Bare kings, a lone knight, or bishops all on one colour
    /// and nothing else.
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
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
