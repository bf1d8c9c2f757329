//! Checkpoints: the whole training state after an epoch, to resume from.
//!
//! Layout (little-endian): `HMCK`, version `u16` (1; 2 for a net with
//! king buckets; 3 for one with king buckets and a factoriser), output
//! buckets `u16` (0 in checkpoints made before buckets: one), hidden
//! `u32`, epochs done `u32`, steps `u64`, the number of history entries
//! `u32`, from version 2 on the 32-byte king-bucket map
//! ([`KingBuckets::half_map`]), then that many `(f64, f64)` (training and
//! validation loss), the parameters (with a factoriser, its columns
//! last), AdamW's first and second moments (`f32` each, as many as the
//! layout has), and the FNV-1a checksum of all that. Each checkpoint is
//! written in the oldest version that holds it, so a run of an older
//! kind writes what older trainers read.

use crate::net::{Layout, Params};
use crate::train::State;
use hashmate_nnue::{checksum, KingBuckets};

const MAGIC: [u8; 4] = *b"HMCK";
/// The newest version: 3, with king buckets and a factoriser.
const VERSION: u16 = 3;

/// Why bytes are not a checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckpointError {
    /// Not a checkpoint, or one of another version.
    Header,
    /// Shorter or longer than its header says.
    Length,
    /// The contents do not match the checksum.
    Checksum,
}

impl std::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CheckpointError::Header => {
                "not a hashmate-train checkpoint of format version 1, 2 or 3"
            }
            CheckpointError::Length => {
                "truncated checkpoint (its length does not match its header)"
            }
            CheckpointError::Checksum => "damaged checkpoint (checksum mismatch)",
        })
    }
}

impl std::error::Error for CheckpointError {}

/// The checkpoint of `state`.
pub fn to_bytes(state: &State) -> Vec<u8> {
    let mut b = Vec::new();
    let kings = state.params.kings;
    let version: u16 = if state.params.factorised {
        3
    } else if kings == KingBuckets::PLAIN {
        1
    } else {
        2
    };
    b.extend_from_slice(&MAGIC);
    b.extend_from_slice(&version.to_le_bytes());
    b.extend_from_slice(&(state.params.buckets as u16).to_le_bytes());
    b.extend_from_slice(&(state.params.hidden as u32).to_le_bytes());
    b.extend_from_slice(&state.epoch.to_le_bytes());
    b.extend_from_slice(&state.step.to_le_bytes());
    b.extend_from_slice(&(state.history.len() as u32).to_le_bytes());
    if version >= 2 {
        b.extend_from_slice(&kings.half_map());
    }
    for &(t, v) in &state.history {
        b.extend_from_slice(&t.to_le_bytes());
        b.extend_from_slice(&v.to_le_bytes());
    }
    for x in state.params.v.iter().chain(&state.m).chain(&state.v) {
        b.extend_from_slice(&x.to_le_bytes());
    }
    let sum = checksum(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

/// Read a checkpoint.
///
/// # Errors
/// [`CheckpointError`] naming what is wrong.
pub fn from_bytes(b: &[u8]) -> Result<State, CheckpointError> {
    let version = if b.len() >= 6 {
        u16::from_le_bytes([b[4], b[5]])
    } else {
        0
    };
    if b.len() < 36 || b[..4] != MAGIC || !(1..=VERSION).contains(&version) {
        return Err(CheckpointError::Header);
    }
    // Where the history starts: after the king-bucket map from version 2.
    let start = if version >= 2 { 28 + 32 } else { 28 };
    let factorised = version == 3;
    let kings = if version >= 2 {
        let half: [u8; 32] = b
            .get(28..60)
            .and_then(|m| m.try_into().ok())
            .ok_or(CheckpointError::Length)?;
        KingBuckets::mirrored(&half).map_err(|_| CheckpointError::Header)?
    } else {
        KingBuckets::PLAIN
    };
    if factorised && kings == KingBuckets::PLAIN {
        return Err(CheckpointError::Header);
    }
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let hidden = u32_at(8) as usize;
    if hidden == 0 || hidden > hashmate_nnue::MAX_HIDDEN {
        return Err(CheckpointError::Header);
    }
    let buckets = usize::from(u16::from_le_bytes([b[6], b[7]])).max(1);
    if buckets > hashmate_nnue::MAX_BUCKETS {
        return Err(CheckpointError::Header);
    }
    let epoch = u32_at(12);
    let step = u64::from_le_bytes(b[16..24].try_into().map_err(|_| CheckpointError::Length)?);
    let entries = u32_at(24) as usize;
    let n = Layout::new(kings, hidden, buckets, factorised).len;
    let expected = start + entries * 16 + 3 * n * 4 + 8;
    if b.len() != expected {
        return Err(CheckpointError::Length);
    }
    let (body, tail) = b.split_at(expected - 8);
    if checksum(body).to_le_bytes() != tail {
        return Err(CheckpointError::Checksum);
    }
    let f64_at = |i: usize| f64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
    let history = (0..entries)
        .map(|k| (f64_at(start + 16 * k), f64_at(start + 8 + 16 * k)))
        .collect();
    let floats: Vec<f32> = body[start + entries * 16..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok(State {
        params: Params::new(kings, hidden, buckets, factorised, floats[..n].to_vec()),
        m: floats[n..2 * n].to_vec(),
        v: floats[2 * n..].to_vec(),
        epoch,
        step,
        history,
    })
}
