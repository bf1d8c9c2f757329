//! The files that hashmate's engine, its command-line tools and its
//! network trainer share, in one crate that needs neither the engine nor
//! the trainer:
//!
//! * [`record`] — the 32-byte training record that `hashmate datagen`
//!   writes and `hashmate-train` and `hashmate texel` read;
//! * [`chain`] — the same games packed as moves from their first record,
//!   about 4 bytes a position, unpacked byte for byte;
//! * [`net`] — network files: the default net embedded in the binary, and
//!   others loaded with a size limit and a checked format;
//! * [`files`] — outputs replaced atomically (never a lost file), inputs
//!   read only when they are regular files within a size limit.
//!
//! The game rules live in `hashmate`, the network's arithmetic in
//! `hashmate-nnue`; this crate adds what touches the file system.

#![warn(missing_docs)]

pub mod chain;
pub mod files;
pub mod net;
pub mod record;
