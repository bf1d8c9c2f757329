//! # hashmate-hash
//!
//! The hashing behind board-game programs, with no game in it:
//!
//! * [`perfect_hash`] — Fenner & Levene's perfect hash functions h1, h2 and
//!   their minimal variants ĥ1, ĥ2 ("Move generation with perfect hash
//!   functions", ICGA Journal 2008). They map the occupancy of a board line
//!   (N bits spaced k apart) one-to-one onto a small range with a single
//!   `mod`, no magic numbers to search for. Any line up to 128 bits.
//! * [`wide`] — sliding-piece attacks (rook and bishop lines) by those
//!   functions on boards other than 8×8: 9×9 (Shogi), 10×8 (Capablanca and
//!   Gothic chess), any board of at most 128 squares with at least as many
//!   files as ranks.
//! * [`zobrist`] — seeded Zobrist tables for any board: `cells × states`
//!   keys of 64 or 128 bits, reproducible from a seed on every platform,
//!   updated by XOR.
//! * [`geometry`] — rays and lines on a `u128` board, the reference every
//!   slider table is built from and checked against.
//! * [`rng`] — SplitMix64, the small seeded generator behind the keys.
//!
//! A tour in three steps:
//!
//! ```
//! use hashmate_hash::perfect_hash::{HashKind, PerfectHash};
//! use hashmate_hash::wide::TenByEight;
//! use hashmate_hash::zobrist::Zobrist;
//!
//! // 1. The a-file of a chess board: 8 bits spaced 8 apart, hashed by
//! //    α mod 258 — all 256 occupancies land on distinct addresses.
//! let h = PerfectHash::new(HashKind::H1, 8, 8, 0)?;
//! let mut seen = std::collections::HashSet::new();
//! for i in 0..256 {
//!     assert!(seen.insert(h.hash(h.pattern(i))));
//! }
//!
//! // 2. A rook on a 10×8 board (square = rank × 10 + file), blocked on
//! //    the file two squares up: attacks come from the same functions.
//! let board = TenByEight::new()?;
//! let blocker = 1u128 << 20; // a3
//! let att = board.rook(0, blocker).expect("a1 is on the board");
//! assert_eq!(att, board.rook_reference(0, blocker).expect("a1 is on the board"));
//!
//! // 3. Zobrist keys for a 19×19 Go board: two stone colours per point.
//! let z: Zobrist<u64> = Zobrist::new(361, 2, 1, 2024).expect("small table");
//! let mut key = 0;
//! z.place(&mut key, 180, 0).expect("the centre point exists");
//! assert_eq!(key, z.key_of(180, 0).expect("in range"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate does no I/O, keeps no global state and has no dependencies.

#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs, missing_debug_implementations)]
#![deny(unsafe_code)] // one reviewed exception: `wide`'s table read

extern crate alloc;

/// `alloc`'s common names, so that the crate reads the same with and
/// without `std`.
mod prelude {
    #[allow(unused_imports)]
    pub(crate) use alloc::{
        boxed::Box,
        format,
        string::{String, ToString},
        vec,
        vec::Vec,
    };
}

pub mod geometry;
pub mod perfect_hash;
pub mod rng;
pub mod wide;
pub mod zobrist;

/// The crate's README, compiled and run as a doctest so that its example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
