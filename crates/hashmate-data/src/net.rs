//! Network files: the engine's default net, embedded in the binary, and
//! another read from a file (the UCI option `EvalFile`).
//!
//! The embedded net is the file `crates/hashmate-data/nets/default.nnue`;
//! docs/NNUE.md says which data, run and match made it.

use crate::files::{read_limited, FileError};
use hashmate_nnue::{NetError, Network, MAX_BUCKETS, MAX_HIDDEN, MAX_KING_BUCKETS};
use std::path::Path;

/// The default network's file, embedded.
pub const DEFAULT_NET: &[u8] = include_bytes!("../nets/default.nnue");

/// The name `EvalFile` takes for the embedded network.
pub const INTERNAL: &str = "<internal>";

/// The embedded network.
///
/// # Errors
/// Only if the embedded file is not a network of this build's format (a
/// test checks that it is).
pub fn embedded() -> Result<Network, NetError> {
    Network::from_bytes(DEFAULT_NET)
}

/// Why a network file could not be used.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read (missing, a directory, too large).
    File(FileError),
    /// The bytes are not a network this build can use.
    Net(std::path::PathBuf, NetError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::File(e) => write!(f, "{e}"),
            LoadError::Net(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for LoadError {}

/// Read the network in `path` (`<internal>` or an empty name: the
/// embedded one).
///
/// # Errors
/// [`LoadError`] naming the problem: the file's, or the format's.
pub fn load(path: &str) -> Result<Network, LoadError> {
    if is_internal(path) {
        return embedded().map_err(|e| LoadError::Net(INTERNAL.into(), e));
    }
    // The largest architecture a file may declare: the most neurons,
    // output buckets and king buckets.
    let max = (Network::file_bytes(MAX_HIDDEN, MAX_BUCKETS) * MAX_KING_BUCKETS) as u64;
    let bytes = read_limited(Path::new(path), max, "network file").map_err(LoadError::File)?;
    Network::from_bytes(&bytes).map_err(|e| LoadError::Net(path.into(), e))
}

/// Whether `path` names the embedded network: `<internal>`, or nothing
/// (an empty name, or UCI's `<empty>`).
pub fn is_internal(path: &str) -> bool {
    path.is_empty() || path == INTERNAL || path == "<empty>"
}

/// One line saying which network `name` is: its width, output buckets
/// and the kernel it runs on, as `hashmate eval` and the confirmation of
/// `setoption name EvalFile` print it.
pub fn describe(name: &str, net: &Network) -> String {
    let buckets = net.buckets();
    let plural = if buckets == 1 { "" } else { "s" };
    let kings = net.king_buckets();
    let kings = if kings.is_mirrored() {
        let plural = if kings.count() == 1 { "" } else { "s" };
        format!(", {} king bucket{plural} (mirrored)", kings.count())
    } else {
        String::new()
    };
    format!(
        "{name}, {} neurons, {buckets} output bucket{plural}{kings}, {} kernel",
        net.hidden(),
        net.kernel()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_is_readable() {
        let net = embedded().unwrap();
        assert!(net.hidden() > 0);
        assert_eq!(load(INTERNAL).unwrap(), net);
        let line = describe(INTERNAL, &net);
        assert!(line.starts_with("<internal>, "), "{line}");
        assert!(
            line.contains(&format!("{} neurons", net.hidden())),
            "{line}"
        );
    }
}
