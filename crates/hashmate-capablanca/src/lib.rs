//! # hashmate-capablanca
//!
//! Capablanca chess and Gothic chess — chess on a 10×8 board with two more
//! pieces, the archbishop (bishop + knight, `A`) and the chancellor (rook +
//! knight, `C`) — with every sliding attack computed by Fenner & Levene's
//! perfect hash functions, as the paper's conclusion proposes for larger
//! boards. The two games differ only in their start positions.
//!
//! * [`Position`]: 80-square bitboards in `u128`, FEN with typed errors,
//!   Zobrist keys from a seeded generic table, updated incrementally;
//! * legal move generation ([`Position::legal_moves`]): pawns with double
//!   step, en passant and promotion to any piece including A and C,
//!   castling as Fairy-Stockfish plays these games (king from f1 to i1 or
//!   c1, rook beside it), checks, pins, mate and stalemate;
//! * [`perft`], exact against Fairy-Stockfish.
//!
//! ```
//! use hashmate_capablanca::{perft::perft, Variant};
//! let mut pos = Variant::Gothic.start();
//! assert_eq!(perft(&pos, 3), 25_283);
//! let mv = pos.parse_uci("e1d3").expect("the chancellor jumps");
//! pos.try_play(mv)?;
//! assert_eq!(pos.key(), pos.compute_key());
//! # Ok::<(), hashmate_capablanca::IllegalMoveError>(())
//! ```

#![deny(missing_docs, missing_debug_implementations)]
#![forbid(unsafe_code)]

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod perft;
pub mod piece;
pub mod position;
pub mod square;

pub use fen::{FenError, FenSyntaxError, PositionError};
pub use game::{Game, PlayError};
pub use moves::{Move, MoveList, MoveParseError};
pub use outcome::{DrawReason, Outcome};
pub use piece::{Piece, Role};
pub use position::{CastlingSide, IllegalMoveError, Position};
pub use square::{Color, Square};

/// The two games on this board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Capablanca chess: `RNABQKBCNR`.
    Capablanca,
    /// Gothic chess: `RNBQCKABNR`.
    Gothic,
}

impl Variant {
    /// Both games.
    pub const ALL: [Variant; 2] = [Variant::Capablanca, Variant::Gothic];

    /// The name Fairy-Stockfish's `UCI_Variant` uses.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Capablanca => "capablanca",
            Variant::Gothic => "gothic",
        }
    }

    /// The start position's FEN.
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Capablanca => {
                "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
            }
            Variant::Gothic => {
                "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1"
            }
        }
    }

    /// The start position.
    pub fn start(self) -> Position {
        // The two FENs above are valid (a test parses them).
        Position::from_fen(self.start_fen()).unwrap_or_else(|_| Position::empty())
    }
}

/// A variant name that is not one of [`Variant::ALL`]: the name given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError(pub String);

impl core::fmt::Display for VariantError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "unknown variant '{}' (known: capablanca, gothic)",
            self.0
        )
    }
}

impl std::error::Error for VariantError {}

impl core::str::FromStr for Variant {
    type Err = VariantError;
    /// `capablanca` or `gothic`, in any case; the error lists the known
    /// names.
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| VariantError(s.chars().take(40).collect()))
    }
}

/// The crate's README, compiled and run as a doctest so that its example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
