//! The command-line tools of the `hashmate` binary, beside the engine it
//! starts by default (`hashmate_engine::uci::run`): each module is one
//! subcommand's front end, with its arguments (`clap`) and its `run`.
//!
//! * [`perft`] — leaf counts, divide, every slider backend, 10×8 variants;
//! * [`book`] — Polyglot books built from PGN (counts, shards, spills),
//!   probed and summarised;
//! * [`datagen`] — self-play games recorded as training data;
//! * [`data`] — that data packed to about 4 bytes a position and back;
//! * [`texel`] — the classical evaluation fitted to that data;
//! * [`wdl_fit`] — the win/draw/loss model fitted to the same games;
//! * [`tt_study`] — hash-table collision strategies compared;
//! * [`gtp`] — Go over GTP on the `hashmate-go` board;
//! * [`tb`] — Syzygy tablebase probes.
//!
//! Not published; the libraries are the reusable part.

pub mod book;
pub mod data;
pub mod datagen;
pub mod gtp;
pub mod perft;
pub mod tb;
pub mod texel;
pub mod tt_study;
pub mod wdl_fit;

/// The workspace's README, whose library example runs as a doctest here
/// (this package is not published, so the path outside it is fine).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct WorkspaceReadmeDoctest;
