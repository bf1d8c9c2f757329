//! How a game ends: checkmate, and the draws decided by the position
//! alone — stalemate, insufficient material, the fifty-move rule — in that
//! order of precedence ([`Position::outcome`]); [`Game`](crate::Game)
//! adds threefold repetition.
//!
//! FIDE's Laws tell the draws a player must claim (the fifty-move rule,
//! threefold repetition) from those that end the game by themselves (the
//! seventy-five-move rule, fivefold repetition; articles 9.3 and 9.6):
//! [`Game::automatic_outcome`](crate::Game::automatic_outcome) keeps to
//! the second kind, as python-chess's `outcome()` does.

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
    /// A hundred and fifty plies without a capture or pawn move: the game
    /// is drawn without a claim (FIDE 9.6.2).
    SeventyFiveMoves,
    /// The same position for the fifth time: the game is drawn without a
    /// claim (FIDE 9.6.1).
    FivefoldRepetition,
}

impl core::fmt::Display for DrawReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::InsufficientMaterial => "insufficient material",
            DrawReason::FiftyMoves => "the fifty-move rule",
            DrawReason::Repetition => "threefold repetition",
            DrawReason::SeventyFiveMoves => "the seventy-five-move rule",
            DrawReason::FivefoldRepetition => "fivefold repetition",
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
    /// That is, both sides [`has_insufficient_material`](Position::has_insufficient_material).
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
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// Can `color` never checkmate, whatever either side plays, as far as
    /// material alone tells? A player whose flag falls loses only if the
    /// opponent could still mate (FIDE 6.9), so this decides a time loss
    /// between a win and a draw.
    ///
    /// `color` cannot mate with no pawn, rook or queen and either
    /// - nothing but the king;
    /// - one knight and the king, the opponent having nothing but queens
    ///   beside the king (any other man could block the king's last
    ///   flight square);
    /// - bishops only, with every bishop on the board on squares of one
    ///   colour and no pawn or knight on the board.
    ///
    /// `false` does not promise a mate: a fortress is not seen. Both sides
    /// unable to mate is [`Position::is_insufficient_material`].
    ///
    /// ```
    /// use hashmate::{Color, Position};
    /// // A lone knight mates only with the opponent's own men in the way.
    /// let kn_kr: Position = "8/8/4k3/3r4/8/2N5/8/4K3 w - - 0 1".parse()?;
    /// assert!(!kn_kr.has_insufficient_material(Color::White));
    /// let kn_kq: Position = "8/8/4k3/3q4/8/2N5/8/4K3 w - - 0 1".parse()?;
    /// assert!(kn_kq.has_insufficient_material(Color::White));
    /// assert!(!kn_kq.has_insufficient_material(Color::Black));
    /// # Ok::<(), hashmate::FenError>(())
    /// ```
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if (ours & heavy).any() {
            return false;
        }
        let king_or_queen = self.by_role(Role::King) | self.by_role(Role::Queen);
        if (ours & self.by_role(Role::Knight)).any() {
            return ours.count() <= 2 && (self.by_color(!color) - king_or_queen).is_empty();
        }
        if (ours & self.by_role(Role::Bishop)).any() {
            let bishops = self.by_role(Role::Bishop);
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops - Bitboard::DARK_SQUARES).is_empty();
            return one_colour
                && (self.by_role(Role::Pawn) | self.by_role(Role::Knight)).is_empty();
        }
        true
    }

    /// Has the half-move clock reached 150 plies (seventy-five moves by
    /// each side without a capture or pawn move)? The game is then drawn
    /// without a claim (FIDE 9.6.2), unless the last move mated.
    pub fn is_seventyfive_moves(&self) -> bool {
        self.halfmove >= 150
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
