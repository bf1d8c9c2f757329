//! The network file: a 32-byte header naming the format version and the
//! architecture, the quantised weights as little-endian integers, and an
//! FNV-1a checksum, so that a wrong, truncated or foreign file is refused
//! with a [`NetError`] that names the problem.

use crate::features::{KingBucketError, KingBuckets};
use crate::network::{Network, MAX_BUCKETS, MAX_HIDDEN, QA, QB, SCALE};
use std::fmt;

/// Magic bytes at the start of a network file.
pub const MAGIC: [u8; 4] = *b"HMNN";
/// Version of the file layout written by [`Network::to_bytes`] for a net
/// of several output buckets (their number in the header's bytes 24–25).
/// A net of one bucket is written as version 1, the layout before buckets,
/// so that its file is the same as before them; both are read.
pub const FORMAT_VERSION: u16 = 2;
/// The feature set: 768 piece-square inputs, vertically flipped for Black.
pub const FEATURES_768: u16 = 1;
/// The feature set of a net with king buckets ([`KingBuckets`]): 768
/// inputs per bucket, mirrored left to right for a perspective whose king
/// is on files e–h; the header is followed by the 32 buckets of the own
/// king's squares on files a–d ([`KingBuckets::half_map`]). Written with
/// format version 2.
pub const FEATURES_KING_BUCKETS: u16 = 2;
/// The activation: SCReLU.
pub const ACTIVATION_SCRELU: u16 = 1;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 32;

/// Why bytes are not a network this build can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Shorter than a header and a checksum.
    TooShort {
        /// Bytes found.
        len: usize,
    },
    /// The file does not start with [`MAGIC`]: not a hashmate network.
    Magic,
    /// A format version this build does not read.
    Version(u16),
    /// An input feature set this build does not know.
    FeatureSet(u16),
    /// The king-bucket map after the header is not a valid one.
    KingBuckets(KingBucketError),
    /// An activation this build does not know.
    Activation(u16),
    /// Quantisation or output scale other than [`QA`], [`QB`], [`SCALE`].
    Quantisation {
        /// QA, QB and the scale as the file gives them.
        found: (u16, u16, u16),
    },
    /// A hidden layer of 0 or more than [`MAX_HIDDEN`] neurons.
    Hidden(u32),
    /// 0 or more than [`MAX_BUCKETS`] output buckets.
    Buckets(u32),
    /// The length does not match the architecture the header declares.
    Length {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match the contents: the file is damaged.
    Checksum {
        /// As stored.
        stored: u64,
        /// As computed.
        computed: u64,
    },
    /// Weight arrays of the wrong size given to [`Network::new`].
    Shape(&'static str),
    /// The memory for the weights could not be had.
    OutOfMemory {
        /// Bytes asked for.
        bytes: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::TooShort { len } => write!(
                f,
                "{len} bytes is too short for a network (header {HEADER_BYTES} bytes and checksum 8)"
            ),
            NetError::Magic => write!(f, "not a hashmate network (no \"HMNN\" at the start)"),
            NetError::Version(v) => write!(
                f,
                "network format version {v}; this build reads versions 1 to {FORMAT_VERSION}"
            ),
            NetError::FeatureSet(s) => write!(
                f,
                "unknown input feature set {s} (this build reads {FEATURES_768} and {FEATURES_KING_BUCKETS})"
            ),
            NetError::KingBuckets(e) => write!(f, "bad king-bucket map: {e}"),
            NetError::Activation(a) => write!(f, "unknown activation {a}"),
            NetError::Quantisation { found: (a, b, s) } => write!(
                f,
                "quantisation QA {a}, QB {b}, scale {s}; this build uses {QA}, {QB}, {SCALE}"
            ),
            NetError::Hidden(n) => write!(
                f,
                "hidden layer of {n} neurons (1 to {MAX_HIDDEN} are readable)"
            ),
            NetError::Buckets(n) => write!(
                f,
                "{n} output buckets (1 to {MAX_BUCKETS} are readable)"
            ),
            NetError::Length { expected, found } => write!(
                f,
                "{found} bytes where the header's architecture needs {expected} (truncated or of another architecture)"
            ),
            NetError::Checksum { stored, computed } => write!(
                f,
                "checksum {computed:016x} does not match the stored {stored:016x}: the file is damaged"
            ),
            NetError::Shape(what) => write!(f, "wrong number of {what}"),
            NetError::OutOfMemory { bytes } => write!(
                f,
                "not enough memory for the network's weights ({bytes} bytes)"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits: the file's checksum (a guard against damage, not
/// against forgery).
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Bytes of the king-bucket map after the header: none for the plain 768
/// inputs, the own king's 32 squares on files a–d otherwise.
fn map_bytes(kings: &KingBuckets) -> usize {
    if *kings == KingBuckets::PLAIN {
        0
    } else {
        32
    }
}

impl Network {
    /// Bytes of the file of a network of `hidden` neurons and `buckets`
    /// output buckets.
    pub fn file_bytes(hidden: usize, buckets: usize) -> usize {
        Network::file_bytes_with(&KingBuckets::PLAIN, hidden, buckets)
    }

    /// Bytes of the file of a network with king buckets `kings`, `hidden`
    /// neurons and `buckets` output buckets.
    pub fn file_bytes_with(kings: &KingBuckets, hidden: usize, buckets: usize) -> usize {
        HEADER_BYTES
            + map_bytes(kings)
            + 2 * (kings.inputs() * hidden + hidden + buckets * 2 * hidden)
            + 4 * buckets
            + 8
    }

    /// The network file: the header (magic, format version, feature set,
    /// hidden size, quantisation, scale, activation, payload length and,
    /// in version 2, the number of output buckets), with king buckets their
    /// map ([`FEATURES_KING_BUCKETS`]), the weights as
    /// little-endian integers (feature-transformer weights feature-major,
    /// its biases, the output weights bucket by bucket, the output biases)
    /// and the FNV-1a checksum of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let size = Network::file_bytes_with(&self.kings, self.hidden, self.buckets);
        let mut b = Vec::with_capacity(size);
        let plain = self.kings == KingBuckets::PLAIN;
        let version: u16 = if self.buckets == 1 && plain {
            1
        } else {
            FORMAT_VERSION
        };
        let features = if plain {
            FEATURES_768
        } else {
            FEATURES_KING_BUCKETS
        };
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&version.to_le_bytes());
        b.extend_from_slice(&features.to_le_bytes());
        b.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        b.extend_from_slice(&(QA as u16).to_le_bytes());
        b.extend_from_slice(&(QB as u16).to_le_bytes());
        b.extend_from_slice(&(SCALE as u16).to_le_bytes());
        b.extend_from_slice(&ACTIVATION_SCRELU.to_le_bytes());
        let payload = size - HEADER_BYTES - 8;
        b.extend_from_slice(&(payload as u32).to_le_bytes());
        if version >= 2 {
            b.extend_from_slice(&(self.buckets as u16).to_le_bytes());
        }
        b.resize(HEADER_BYTES, 0);
        if !plain {
            b.extend_from_slice(&self.kings.half_map());
        }
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.out_bias {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Read a network file written by [`Network::to_bytes`].
    ///
    /// # Errors
    /// A [`NetError`] naming the first problem: too short, not a network,
    /// another version, feature set, activation or quantisation, a length
    /// that does not match the declared architecture, a bad checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES + 8 {
            return Err(NetError::TooShort { len: bytes.len() });
        }
        if bytes[..4] != MAGIC {
            return Err(NetError::Magic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(4);
        if version == 0 || version > FORMAT_VERSION {
            return Err(NetError::Version(version));
        }
        let features = u16_at(6);
        if features != FEATURES_768 && !(features == FEATURES_KING_BUCKETS && version >= 2) {
            return Err(NetError::FeatureSet(features));
        }
        let hidden = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        if hidden == 0 || hidden as usize > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let quant = (u16_at(12), u16_at(14), u16_at(16));
        if quant != (QA as u16, QB as u16, SCALE as u16) {
            return Err(NetError::Quantisation { found: quant });
        }
        if u16_at(18) != ACTIVATION_SCRELU {
            return Err(NetError::Activation(u16_at(18)));
        }
        let buckets = if version >= 2 { u16_at(24) } else { 1 };
        if buckets == 0 || usize::from(buckets) > MAX_BUCKETS {
            return Err(NetError::Buckets(u32::from(buckets)));
        }
        let (hidden, buckets) = (hidden as usize, usize::from(buckets));
        let kings = if features == FEATURES_KING_BUCKETS {
            let half: [u8; 32] = bytes
                .get(HEADER_BYTES..HEADER_BYTES + 32)
                .and_then(|m| m.try_into().ok())
                .ok_or(NetError::TooShort { len: bytes.len() })?;
            KingBuckets::mirrored(&half).map_err(NetError::KingBuckets)?
        } else {
            KingBuckets::PLAIN
        };
        let expected = Network::file_bytes_with(&kings, hidden, buckets);
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let (body, tail) = bytes.split_at(expected - 8);
        let stored = u64::from_le_bytes(tail.try_into().map_err(|_| NetError::Magic)?);
        let computed = checksum(body);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let mut words = body[HEADER_BYTES + map_bytes(&kings)..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        // The weights are most of the file: their memory is asked for, so
        // that a machine without it gets an error, not an abort.
        let mut take = |n: usize| -> Result<Vec<i16>, NetError> {
            let mut v = Vec::new();
            v.try_reserve_exact(n)
                .map_err(|_| NetError::OutOfMemory { bytes: 2 * n })?;
            v.extend(words.by_ref().take(n));
            Ok(v)
        };
        let ft_weights = take(kings.inputs() * hidden)?;
        let ft_bias = take(hidden)?;
        let out_weights = take(buckets * 2 * hidden)?;
        let out_bias = body[body.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::with_king_buckets(kings, hidden, ft_weights, ft_bias, out_weights, out_bias)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{random_bucketed, random_kings, random_net};

    /// A net with king buckets is written with feature set 2 and its map
    /// after the header, and reads back identical; a map that is not one,
    /// or feature set 2 in a version-1 file, is refused by name.
    #[test]
    fn a_king_bucketed_net_reads_back_and_a_bad_map_is_refused() {
        for n in [1, 2, 4, 8, 16] {
            let kings = KingBuckets::preset(n).unwrap();
            let net = random_kings(kings, 16, 8, n as u64);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), Network::file_bytes_with(&kings, 16, 8));
            assert_eq!(bytes[4..6], [2, 0]);
            assert_eq!(bytes[6..8], FEATURES_KING_BUCKETS.to_le_bytes());
            assert_eq!(bytes[HEADER_BYTES..HEADER_BYTES + 32], kings.half_map());
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back, net);
            assert_eq!(back.king_buckets().count(), n);
            assert_eq!(back.to_bytes(), bytes);
        }
        let bytes = random_kings(KingBuckets::preset(4).unwrap(), 16, 1, 3).to_bytes();
        // A map with bucket 5 but no 4: its checksum is fixed up, so the
        // map itself is what is refused.
        let mut other = bytes.clone();
        other[HEADER_BYTES + 31] = 5;
        let n = other.len();
        let sum = checksum(&other[..n - 8]);
        other[n - 8..].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&other),
            Err(NetError::KingBuckets(KingBucketError::Unused(4)))
        );
        let mut other = bytes.clone();
        other[HEADER_BYTES] = 40;
        assert_eq!(
            Network::from_bytes(&other),
            Err(NetError::KingBuckets(KingBucketError::TooMany(41)))
        );
        let mut other = bytes.clone();
        other[4] = 1;
        assert_eq!(
            Network::from_bytes(&other),
            Err(NetError::FeatureSet(FEATURES_KING_BUCKETS))
        );
        let mut other = bytes;
        other[6] = 7;
        assert_eq!(Network::from_bytes(&other), Err(NetError::FeatureSet(7)));
        assert!(NetError::FeatureSet(7)
            .to_string()
            .contains("reads 1 and 2"));
    }

    #[test]
    fn a_written_net_reads_back_identical() {
        let net = random_net(16, 7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_bytes(16, 1));
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        // One bucket is written in the layout before buckets (version 1).
        assert_eq!(bytes[4..6], [1, 0]);
        let net = random_bucketed(16, 8, 7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_bytes(16, 8));
        assert_eq!(bytes[4..6], [2, 0]);
        assert_eq!(bytes[24..26], [8, 0]);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.buckets(), 8);
        assert_eq!(back.to_bytes(), bytes);
    }

    #[test]
    fn damaged_and_foreign_files_are_refused_by_name() {
        let bytes = random_net(16, 3).to_bytes();
        assert_eq!(
            Network::from_bytes(&bytes[..20]),
            Err(NetError::TooShort { len: 20 })
        );
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Length { .. })
        ));
        let mut other = bytes.clone();
        other[0] = b'X';
        assert_eq!(Network::from_bytes(&other), Err(NetError::Magic));
        let mut other = bytes.clone();
        other[4] = 9;
        assert_eq!(Network::from_bytes(&other), Err(NetError::Version(9)));
        let mut other = bytes.clone();
        other[100] ^= 1;
        assert!(matches!(
            Network::from_bytes(&other),
            Err(NetError::Checksum { .. })
        ));
        // Another architecture: a 32-neuron net's file read as declared
        // works, and its header patched to say 16 is refused by length.
        let mut other = random_net(32, 3).to_bytes();
        other[8] = 16;
        assert!(matches!(
            Network::from_bytes(&other),
            Err(NetError::Length { .. })
        ));
        let mut other = bytes;
        other[8..12].copy_from_slice(&100_000u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&other), Err(NetError::Hidden(100_000)));
        let noise: Vec<u8> = (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect();
        assert_eq!(Network::from_bytes(&noise), Err(NetError::Magic));
        // Output buckets: a count out of range, or a file whose header
        // says another count than its weights have.
        let bucketed = random_bucketed(16, 4, 3).to_bytes();
        let mut other = bucketed.clone();
        other[24] = 9;
        assert_eq!(Network::from_bytes(&other), Err(NetError::Buckets(9)));
        let mut other = bucketed.clone();
        other[24] = 0;
        assert_eq!(Network::from_bytes(&other), Err(NetError::Buckets(0)));
        let mut other = bucketed;
        other[24] = 2;
        assert!(matches!(
            Network::from_bytes(&other),
            Err(NetError::Length { .. })
        ));
    }
}
