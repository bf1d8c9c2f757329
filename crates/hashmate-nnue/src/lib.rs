//! The hashmate engine's efficiently updatable neural network (NNUE).
//!
//! The network is the common first architecture of engines that learn
//! their evaluation from their own games:
//!
//! * **Inputs**: 768 features, colour × piece type × square, seen from
//!   each side's perspective: from White's, a white pawn on e2 is "own pawn
//!   on e2"; from Black's, the board is flipped vertically, so a black pawn
//!   on e7 is "own pawn on e2" too ([`feature`]). A net may have *king
//!   buckets* ([`KingBuckets`]): one block of 768 inputs per region of
//!   the own king's square, the board mirrored left to right when that
//!   king is on files e–h.
//! * **Feature transformer**: one weight column of `N` values per feature,
//!   shared by both perspectives, plus a bias; a perspective's
//!   *accumulator* is the bias plus the columns of its active features.
//!   A move changes two to four features, so the accumulator is updated
//!   by adding and subtracting a few columns instead of being rebuilt
//!   ([`Accumulator::add`], [`Accumulator::sub`]).
//! * **Activation**: SCReLU, `clamp(x, 0, 1)²`.
//! * **Output**: one affine layer over the two activated halves, side to
//!   move first, scaled to centipawns by [`SCALE`]. A net may have several
//!   *output buckets* — one such layer per range of material on the board
//!   ([`output_bucket`]), so that an endgame is scored by other weights
//!   than the opening — while the feature transformer stays shared.
//!
//! [`Network`] holds the *quantised* net the engine evaluates with: the
//! feature transformer in `i16` scaled by [`QA`], the output weights in
//! `i16` scaled by [`QB`], the output bias in `i32` scaled by `QA × QB`.
//! Its file format ([`Network::from_bytes`], [`Network::to_bytes`]) has a
//! header naming the format version and the architecture, and a checksum,
//! so a wrong, truncated or foreign file is refused with a [`NetError`]
//! that names the problem.
//!
//! ```
//! use hashmate::Position;
//! use hashmate_nnue::Network;
//! // A net of 8 hidden neurons whose weights are all zero but the output
//! // bias: it scores every position the same.
//! let net = Network::new(8, vec![0; 768 * 8], vec![0; 8], vec![0; 16], 255 * 64 / 4)?;
//! assert_eq!(net.evaluate(&Position::startpos()), 100);
//! let bytes = net.to_bytes();
//! assert_eq!(Network::from_bytes(&bytes)?, net);
//! # Ok::<(), hashmate_nnue::NetError>(())
//! ```

// Only `simd`'s AVX2 and AVX-512 kernels use `unsafe`, each with its reason.
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod accumulator;
mod features;
mod format;
mod network;
mod simd;
#[cfg(test)]
mod testutil;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::{
    feature, for_each_feature, for_each_input, output_bucket, KingBucketError, KingBuckets, INPUTS,
    MAX_KING_BUCKETS,
};
pub use format::{
    checksum, NetError, ACTIVATION_SCRELU, FEATURES_768, FEATURES_KING_BUCKETS, FORMAT_VERSION,
    HEADER_BYTES, MAGIC,
};
pub use network::{Network, MAX_BUCKETS, MAX_HIDDEN, QA, QB, SCALE};

/// The crate's README, compiled and run as a doctest so that its example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
