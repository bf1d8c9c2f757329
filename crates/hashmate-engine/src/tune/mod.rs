//! Fitting the evaluation to data: `datagen` plays self-play games and
//! records positions with their search scores and game results in a
//! compact file; `tune` fits the evaluation's weights to those records
//! (the Texel method) and writes them out as Rust source.

pub mod datagen;
pub mod record;
pub mod texel;
