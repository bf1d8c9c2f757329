//! The hashmate engine: alpha-beta search around the transposition table,
//! an evaluation with a pawn hash table, the UCI protocol, and the
//! command-line tools of the `hashmate` binary (perft, books, the
//! collision study, a GTP Go engine).
//!
//! This crate is the binary's code, exposed as a library for its tests; it
//! is not published. The reusable parts are the `hashmate`,
//! `hashmate-hash` and `hashmate-go` crates.

pub mod bench;
pub mod book;
pub mod book_cmd;
pub mod book_counts;
pub mod eval;
pub mod files;
pub mod gtp;
pub mod input;
pub mod nnue;
pub mod output;
pub mod perft_cmd;
pub mod search;
pub mod study_cmd;
pub mod threads;
pub mod tt_study;
pub mod tune;
pub mod uci;
