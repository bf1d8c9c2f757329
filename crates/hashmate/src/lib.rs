//! # hashmate
//!
//! Chess rules built on hashing done right: bitboards with Fenner &
//! Levene's perfect-hash sliding attacks, Polyglot Zobrist keys updated by
//! XOR, and the tables that use those keys — a lock-free transposition
//! table, a pawn hash table, Polyglot opening books.
//!
//! ## A tour
//!
//! Positions come from FEN; moves from the legal move generator or from
//! UCI/SAN text; [`Position::try_play`] refuses anything illegal:
//!
//! ```
//! use hashmate::{Move, Position, Square};
//!
//! let mut pos: Position = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".parse()?;
//! assert_eq!(pos.legal_moves().len(), 20);
//! let e4 = pos.parse_san("e4")?;
//! pos.try_play(e4)?;
//! assert_eq!(pos.key(), 0x823c9b50fd114196); // Polyglot's published key
//! assert!(pos.try_play(Move::new(Square::E4, Square::E6, None)).is_err());
//! assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! * **Attacks** ([`attacks`]): sliding attacks by Fenner & Levene's
//!   perfect hash functions (`α mod 258` on files, `α mod 514` and
//!   `α mod 257` on diagonals) are the default; fancy magic, PEXT,
//!   kindergarten, hyperbola quintessence and the plain ray loop implement
//!   the same [`attacks::Sliders`] trait, so every generator, perft and
//!   search can run on any of them. The cargo features `magic` and `pext`
//!   switch the default backend.
//! * **Keys** ([`zobrist`]): the Polyglot key (bit-exact with every
//!   Polyglot book), a pawn key (the index of a [`pawn_table`]), and an
//!   independent "lock" key, all updated incrementally.
//! * **Games** ([`Game`]): the moves and keys of a game, repetition
//!   detection, and [`Outcome`]s — checkmate, stalemate, insufficient
//!   material, fifty moves, threefold repetition.
//! * **Perft** ([`perft`]): leaf counts, with bulk counting and an optional
//!   hash table of subtree counts.
//! * **Tables** ([`tt`], [`pawn_table`]): a lock-free transposition table
//!   of any size and a generic pawn hash table; on Linux large tables ask
//!   for transparent huge pages ([`huge_pages`]).
//! * **Books and games on file** ([`book`], [`pgn`]): Polyglot books read
//!   and written, PGN read.
//!
//! The crate does no I/O and keeps no mutable global state: its tables are
//! built at compile time or once, immutably, on first use. Every parser and
//! constructor returns a typed error instead of panicking. The hashing it
//! is built on, without chess, is the `hashmate-hash` crate.

#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs, missing_debug_implementations)]

extern crate alloc;

/// `alloc`'s common names, so that the crate reads the same with and
/// without `std`.
mod prelude {
    #[allow(unused_imports)]
    pub(crate) use alloc::{
        borrow::ToOwned,
        boxed::Box,
        format,
        string::{String, ToString},
        vec,
        vec::Vec,
    };
}

pub mod attacks;
pub mod bitboard;
#[cfg(feature = "std")]
pub mod book;
#[cfg(feature = "std")]
pub mod builder;
#[cfg(feature = "std")]
pub mod epd;
pub mod fen;
pub mod game;
pub mod huge_pages;
pub mod movegen;
pub mod moves;
mod notation;
pub mod outcome;
pub mod pawn_table;
pub mod perft;
#[cfg(feature = "std")]
pub mod pgn;
pub mod piece;
mod polyglot_random;
pub mod position;
pub mod square;
mod text;
pub mod tt;
pub mod zobrist;

pub use bitboard::Bitboard;
#[cfg(feature = "std")]
pub use epd::Epd;
pub use fen::FenError;
pub use fen::PositionError;
#[cfg(feature = "std")]
pub use game::FromPgnError;
pub use game::{Game, PlayError};
pub use moves::{CastlingMode, Move, MoveList, MoveParseError};
pub use outcome::{DrawReason, Outcome};
pub use piece::{Piece, Role};
pub use position::{CastlingSide, IllegalMoveError, Position};
pub use square::{Color, File, ParseSquareError, Rank, Square};

/// The name of the slider backend this build uses by default (`fl-fast`,
/// or `magic`/`pext` when built with that cargo feature).
pub const DEFAULT_BACKEND: &str = <attacks::DefaultSliders as attacks::Sliders>::NAME;

/// The crate's README, compiled and run as a doctest so that its example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
