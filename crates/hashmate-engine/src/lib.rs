//! The hashmate chess engine: alpha-beta search around the transposition
//! table ([`search`]), an evaluation by the network or by hand-written
//! terms over a pawn hash table ([`eval`]), the UCI protocol ([`uci`]),
//! the persistent search threads ([`threads`]), the opening book the
//! engine plays from ([`book`]) and the fixed-depth [`bench`](mod@bench).
//!
//! The `hashmate` binary (the `hashmate-cli` package) runs [`uci::run`]
//! and adds the command-line tools. This crate is not published: the
//! reusable parts are the `hashmate`, `hashmate-hash`, `hashmate-nnue`
//! and `hashmate-go` crates.

pub mod bench;
pub mod book;
pub mod eval;
pub mod input;
pub mod output;
pub mod search;
pub mod strength;
pub mod threads;
pub mod uci;
