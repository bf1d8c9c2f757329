//! # hashmate
//!
//! Chess rules built on hashing done right: bitboards with Fenner & Levene's
//! perfect-hash sliding attacks, Polyglot Zobrist keys updated by XOR, and
//! the tables that use them.
//!
//! ```
//! use hashmate::{perft::perft, Position};
//! let mut pos = Position::startpos();
//! let e4 = pos.parse_uci("e2e4").unwrap();
//! pos.play(e4);
//! assert_eq!(pos.key(), 0x823c9b50fd114196); // Polyglot's published key
//! assert_eq!(perft(&pos, 2), 600);
//! ```
//!
//! The crate does no I/O and keeps no mutable global state: its tables are
//! built at compile time or once, immutably, on first use.

pub mod attacks;
pub mod bitboard;
pub mod book;
pub mod eval;
pub mod fen;
pub mod go;
pub mod movegen;
pub mod moves;
pub mod perfect_hash;
pub mod perft;
pub mod pgn;
pub mod piece;
mod polyglot_random;
pub mod position;
pub mod rng;
pub mod search;
pub mod square;
pub mod tt;
pub mod tt_study;
pub mod wide;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::FenError;
pub use moves::{Move, MoveList, MoveParseError};
pub use piece::{Piece, Role};
pub use position::{CastlingSide, Position, PositionError};
pub use square::{Color, File, ParseSquareError, Rank, Square};
