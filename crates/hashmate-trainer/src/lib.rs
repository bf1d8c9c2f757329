//! The trainer of hashmate's efficiently updatable neural network (NNUE):
//! an offline tool, not part of the engine.
//!
//! It reads the engine's own self-play positions (`hashmate datagen`'s
//! 32-byte records, or the same games in the chained form of
//! `hashmate data pack`), fits a `(768 → N) × 2 → 1` SCReLU network
//! ([`net::Params`]) to a blend of each game's result and the search's
//! score, with AdamW and a cosine learning-rate schedule, on several
//! threads ([`train`]); streams shuffled batches from files larger than
//! memory ([`data`]); keeps a validation split, checkpoints after every
//! epoch ([`checkpoint`]) and writes the quantised network in the format of
//! [`hashmate_nnue::Network`].

pub mod checkpoint;
pub mod data;
pub mod net;
pub mod train;
