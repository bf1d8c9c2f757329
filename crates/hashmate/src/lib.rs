//! # hashmate
//!
//! Chess rules built on hashing done right: bitboards with Fenner & Levene's
//! perfect-hash sliding attacks, Polyglot Zobrist keys updated by XOR, and
//! the tables that use them.
//!
//! The crate does no I/O and keeps no mutable global state: its tables are
//! built at compile time or once, immutably, on first use.

pub mod attacks;
pub mod bitboard;
pub mod perfect_hash;
pub mod rng;
pub mod square;

pub use bitboard::Bitboard;
pub use square::{Color, File, ParseSquareError, Rank, Square};
