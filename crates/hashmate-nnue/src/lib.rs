//! The hashmate engine's efficiently updatable neural network (NNUE).
//!
//! The network is the common first architecture of engines that learn
//! their evaluation from their own games:
//!
//! * **Inputs**: 768 features, colour × piece type × square, seen from
//!   each side's perspective: from White's, a white pawn on e2 is "own pawn
//!   on e2"; from Black's, the board is flipped vertically, so a black pawn
//!   on e7 is "own pawn on e2" too ([`feature`]).
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

// Only `simd`'s AVX2 kernels use `unsafe`, each with its reason.
#![deny(unsafe_code)]
#![warn(missing_docs)]

use hashmate::{Color, Position, Role, Square};
use std::fmt;

mod simd;
use simd::Kernel;

/// Number of input features: 2 colours × 6 piece types × 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the feature transformer (weights and biases × 255).
pub const QA: i32 = 255;
/// Quantisation of the output weights (× 64).
pub const QB: i32 = 64;
/// Centipawns per unit of the network's raw output: the trainer fits
/// `sigmoid(raw)` to the expected score, so `raw × SCALE` is on the scale
/// where `sigmoid(cp / SCALE)` is the expected score.
pub const SCALE: i32 = 400;
/// The largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may declare.
pub const MAX_BUCKETS: usize = 8;

/// Magic bytes at the start of a network file.
pub const MAGIC: [u8; 4] = *b"HMNN";
/// Version of the file layout written by [`Network::to_bytes`] for a net
/// of several output buckets (their number in the header's bytes 24–25).
/// A net of one bucket is written as version 1, the layout before buckets,
/// so that its file is the same as before them; both are read.
pub const FORMAT_VERSION: u16 = 2;
/// The feature set: 768 piece-square inputs, vertically flipped for Black.
pub const FEATURES_768: u16 = 1;
/// The activation: SCReLU.
pub const ACTIVATION_SCRELU: u16 = 1;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 32;

/// The input feature of a `color` `role` on `sq`, seen from `perspective`.
///
/// ```
/// use hashmate::{Color, Role, Square};
/// use hashmate_nnue::feature;
/// let e2 = Square::new(12).unwrap();
/// let e7 = Square::new(52).unwrap();
/// // A white pawn on e2 seen by White is a black pawn on e7 seen by Black.
/// assert_eq!(
///     feature(Color::White, Color::White, Role::Pawn, e2),
///     feature(Color::Black, Color::Black, Role::Pawn, e7),
/// );
/// ```
#[inline]
pub fn feature(perspective: Color, color: Color, role: Role, sq: Square) -> usize {
    let theirs = usize::from(color != perspective);
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    theirs * 384 + role.index() * 64 + sq
}

/// The output bucket of a position with `pieces` pieces on the board
/// (kings included) in a net of `buckets` buckets: the material range
/// 2–32 cut into `buckets` equal parts, so that with 8 buckets it is
/// `(pieces − 2) / 4`, and with one always 0.
///
/// ```
/// use hashmate_nnue::output_bucket;
/// assert_eq!(output_bucket(32, 8), 7);
/// assert_eq!(output_bucket(10, 8), 2);
/// assert_eq!(output_bucket(3, 8), 0);
/// assert_eq!(output_bucket(32, 1), 0);
/// ```
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize * buckets / 32).min(buckets.max(1) - 1)
}

/// Call `f(white_feature, black_feature)` for every piece of `pos`: the
/// active features of both perspectives.
#[inline]
pub fn for_each_feature(pos: &Position, mut f: impl FnMut(usize, usize)) {
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in pos.pieces(color, role).iter() {
                f(
                    feature(Color::White, color, role, sq),
                    feature(Color::Black, color, role, sq),
                );
            }
        }
    }
}

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
            NetError::FeatureSet(s) => write!(f, "unknown input feature set {s}"),
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

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// Feature-major: feature `f`'s column is `ft_weights[f * hidden ..][..hidden]`.
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    /// Output buckets.
    buckets: usize,
    /// Bucket-major; in each bucket the side to move's half, then the
    /// other side's.
    out_weights: Vec<i16>,
    /// One per bucket.
    out_bias: Vec<i32>,
    /// Scalar or AVX2, chosen for this processor and these weights.
    kernel: Kernel,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field(
                "architecture",
                &format!("(768 -> {})x2 -> 1 x {} buckets", self.hidden, self.buckets),
            )
            .field("out_bias", &self.out_bias)
            .finish_non_exhaustive()
    }
}

/// Add a feature transformer column to one perspective's accumulator,
/// wrapping as the quantised arithmetic does everywhere else.
#[inline]
pub(crate) fn add_column(acc: &mut [i16], col: &[i16]) {
    for (a, &x) in acc.iter_mut().zip(col) {
        *a = a.wrapping_add(x);
    }
}

/// Subtract a feature transformer column from one perspective's
/// accumulator (the inverse of [`add_column`]).
#[inline]
pub(crate) fn sub_column(acc: &mut [i16], col: &[i16]) {
    for (a, &x) in acc.iter_mut().zip(col) {
        *a = a.wrapping_sub(x);
    }
}

/// The two perspectives' accumulators of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// White's perspective.
    pub white: Vec<i16>,
    /// Black's perspective.
    pub black: Vec<i16>,
}

impl Accumulator {
    /// Add feature `(w, b)` (White's and Black's index) of `net`.
    #[inline]
    pub fn add(&mut self, net: &Network, w: usize, b: usize) {
        add_column(&mut self.white, net.column(w));
        add_column(&mut self.black, net.column(b));
    }

    /// Remove feature `(w, b)` of `net`.
    #[inline]
    pub fn sub(&mut self, net: &Network, w: usize, b: usize) {
        sub_column(&mut self.white, net.column(w));
        sub_column(&mut self.black, net.column(b));
    }
}

/// The accumulators of every ply of a search, updated move by move: the
/// child's are the parent's plus the columns of the features the move
/// adds and minus those it removes (two for a quiet move, three for a
/// capture or a promotion, four for castling), found by comparing the two
/// positions' piece sets, so that every kind of move (en passant,
/// castling in both notations, promotions) is handled by one rule.
/// Allocated once; nothing is allocated per move.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    hidden: usize,
    white: Vec<i16>,
    black: Vec<i16>,
}

impl AccumulatorStack {
    /// Room for plies `0..plies` of `net`'s accumulators.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn new(
        net: &Network,
        plies: usize,
    ) -> Result<AccumulatorStack, std::collections::TryReserveError> {
        let n = net.hidden * plies.max(1);
        let mut white = Vec::new();
        white.try_reserve_exact(n)?;
        white.resize(n, 0);
        let mut black = Vec::new();
        black.try_reserve_exact(n)?;
        black.resize(n, 0);
        Ok(AccumulatorStack {
            hidden: net.hidden,
            white,
            black,
        })
    }

    /// Plies the stack holds.
    pub fn plies(&self) -> usize {
        self.white.len() / self.hidden
    }

    /// Build ply `ply`'s accumulators for `pos` from scratch.
    pub fn refresh(&mut self, net: &Network, ply: usize, pos: &Position) {
        let h = self.hidden;
        let white = &mut self.white[ply * h..][..h];
        let black = &mut self.black[ply * h..][..h];
        white.copy_from_slice(&net.ft_bias);
        black.copy_from_slice(&net.ft_bias);
        for_each_feature(pos, |w, b| {
            add_column(white, net.column(w));
            add_column(black, net.column(b));
        });
    }

    /// Ply `ply + 1`'s accumulators for `child`, a position one move (or a
    /// null move) after `parent`, whose accumulators are at `ply`: one pass
    /// over each perspective, adding and subtracting the changed features'
    /// columns to the parent's values. (Positions further apart than one
    /// move are refreshed instead.)
    #[inline]
    pub fn update(&mut self, net: &Network, ply: usize, parent: &Position, child: &Position) {
        // A move adds at most two features (castling) and removes at most
        // two (a capture, castling, en passant).
        const MOST: usize = 2;
        let (mut add, mut sub) = ([(0, 0); MOST], [(0, 0); MOST]);
        let (mut adds, mut subs) = (0, 0);
        for color in Color::ALL {
            for role in Role::ALL {
                let (a, b) = (parent.pieces(color, role), child.pieces(color, role));
                for (set, list, count) in
                    [(a - b, &mut sub, &mut subs), (b - a, &mut add, &mut adds)]
                {
                    for sq in set.iter() {
                        if *count == MOST {
                            self.refresh(net, ply + 1, child);
                            return;
                        }
                        list[*count] = (
                            feature(Color::White, color, role, sq),
                            feature(Color::Black, color, role, sq),
                        );
                        *count += 1;
                    }
                }
            }
        }
        let h = self.hidden;
        for (acc, side) in [(&mut self.white, 0), (&mut self.black, 1)] {
            let (from, to) = acc.split_at_mut((ply + 1) * h);
            let pick = |&(w, b): &(usize, usize)| net.column(if side == 0 { w } else { b });
            let added: [&[i16]; MOST] = [pick(&add[0]), pick(&add[1])];
            let removed: [&[i16]; MOST] = [pick(&sub[0]), pick(&sub[1])];
            simd::update(
                net.kernel,
                &mut to[..h],
                &from[ply * h..],
                &added[..adds],
                &removed[..subs],
            );
        }
    }

    /// The evaluation of `pos`, whose accumulators are at `ply`, for its
    /// side to move, in centipawns.
    #[inline]
    pub fn evaluate(&self, net: &Network, ply: usize, pos: &Position) -> i32 {
        let h = self.hidden;
        let white = &self.white[ply * h..][..h];
        let black = &self.black[ply * h..][..h];
        let bucket = net.bucket_of(pos);
        match pos.side_to_move() {
            Color::White => net.output(white, black, bucket),
            Color::Black => net.output(black, white, bucket),
        }
    }
}

impl Network {
    /// A network of `hidden` neurons per perspective and one output
    /// bucket from its quantised weights: `ft_weights` feature-major
    /// (`768 × hidden`), `ft_bias` (`hidden`), `out_weights` (`2 ×
    /// hidden`, side to move first).
    ///
    /// # Errors
    /// [`NetError::Hidden`] or [`NetError::Shape`] for wrong sizes.
    pub fn new(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
    ) -> Result<Network, NetError> {
        Network::with_buckets(hidden, ft_weights, ft_bias, out_weights, vec![out_bias])
    }

    /// A network of `hidden` neurons per perspective and
    /// `out_bias.len()` output buckets ([`output_bucket`]):
    /// `out_weights` holds `2 × hidden` weights per bucket, bucket after
    /// bucket.
    ///
    /// # Errors
    /// [`NetError::Hidden`], [`NetError::Buckets`] or [`NetError::Shape`]
    /// for wrong sizes.
    pub fn with_buckets(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden as u32));
        }
        let buckets = out_bias.len();
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(NetError::Buckets(buckets as u32));
        }
        if ft_weights.len() != INPUTS * hidden {
            return Err(NetError::Shape("feature-transformer weights"));
        }
        if ft_bias.len() != hidden {
            return Err(NetError::Shape("feature-transformer biases"));
        }
        if out_weights.len() != buckets * 2 * hidden {
            return Err(NetError::Shape("output weights"));
        }
        let kernel = Kernel::for_net(hidden, &out_weights);
        Ok(Network {
            kernel,
            hidden,
            ft_weights,
            ft_bias,
            buckets,
            out_weights,
            out_bias,
        })
    }

    /// Neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The output bucket that scores `pos` ([`output_bucket`] of its
    /// number of pieces).
    #[inline]
    pub fn bucket_of(&self, pos: &Position) -> usize {
        output_bucket(pos.occupied().count(), self.buckets)
    }

    /// The feature transformer's biases (an accumulator's start).
    pub fn bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// Feature `f`'s column of the feature transformer.
    #[inline]
    pub fn column(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * self.hidden..][..self.hidden]
    }

    /// Output bucket `bucket`'s weights: `2 × hidden`, the side to
    /// move's half first.
    ///
    /// # Panics
    /// If `bucket` is not below [`Network::buckets`].
    pub fn output_weights(&self, bucket: usize) -> &[i16] {
        &self.out_weights[bucket * 2 * self.hidden..][..2 * self.hidden]
    }

    /// Output bucket `bucket`'s bias (scaled by `QA × QB`).
    ///
    /// # Panics
    /// If `bucket` is not below [`Network::buckets`].
    pub fn output_bias(&self, bucket: usize) -> i32 {
        self.out_bias[bucket]
    }

    /// The accumulators of `pos`, built from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            white: self.ft_bias.clone(),
            black: self.ft_bias.clone(),
        };
        for_each_feature(pos, |w, b| acc.add(self, w, b));
        acc
    }

    /// One perspective's accumulator for the active input features
    /// `features` (indices as [`feature`] gives them), built from scratch:
    /// the biases plus each feature's column. This is what a trainer
    /// compares its float net against.
    ///
    /// # Panics
    /// If a feature is not below [`INPUTS`].
    pub fn accumulate(&self, features: impl IntoIterator<Item = usize>) -> Vec<i16> {
        let mut acc = self.ft_bias.clone();
        for f in features {
            add_column(&mut acc, self.column(f));
        }
        acc
    }

    /// The output of bucket `bucket` for accumulators `us` (side to move)
    /// and `them`, in centipawns from the side to move's point of view.
    ///
    /// # Panics
    /// If `bucket` is not below [`Network::buckets`].
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let (w_us, w_them) = self.out_weights[bucket * 2 * h..][..2 * h].split_at(h);
        let sum =
            simd::screlu_dot(self.kernel, us, w_us) + simd::screlu_dot(self.kernel, them, w_them);
        let out = sum / i64::from(QA) + i64::from(self.out_bias[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// Which implementation of the hot loops evaluates this net here:
    /// `"avx2"` on x86-64 processors with AVX2 (for hidden sizes that are
    /// multiples of 16 and output weights within ±128, where its
    /// arithmetic is exact), otherwise `"scalar"`. Both give the same
    /// results.
    pub fn kernel(&self) -> &'static str {
        match self.kernel {
            Kernel::Scalar => "scalar",
            Kernel::Avx2 => "avx2",
        }
    }

    /// The evaluation of `pos` for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let acc = self.refresh(pos);
        let bucket = self.bucket_of(pos);
        match pos.side_to_move() {
            Color::White => self.output(&acc.white, &acc.black, bucket),
            Color::Black => self.output(&acc.black, &acc.white, bucket),
        }
    }

    /// Bytes of the file of a network of `hidden` neurons and `buckets`
    /// output buckets.
    pub fn file_bytes(hidden: usize, buckets: usize) -> usize {
        HEADER_BYTES + 2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 8
    }

    /// The network file: the header (magic, format version, feature set,
    /// hidden size, quantisation, scale, activation, payload length and,
    /// in version 2, the number of output buckets), the weights as
    /// little-endian integers (feature-transformer weights feature-major,
    /// its biases, the output weights bucket by bucket, the output biases)
    /// and the FNV-1a checksum of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(Network::file_bytes(self.hidden, self.buckets));
        let version: u16 = if self.buckets == 1 { 1 } else { FORMAT_VERSION };
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&version.to_le_bytes());
        b.extend_from_slice(&FEATURES_768.to_le_bytes());
        b.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        b.extend_from_slice(&(QA as u16).to_le_bytes());
        b.extend_from_slice(&(QB as u16).to_le_bytes());
        b.extend_from_slice(&(SCALE as u16).to_le_bytes());
        b.extend_from_slice(&ACTIVATION_SCRELU.to_le_bytes());
        let payload = Network::file_bytes(self.hidden, self.buckets) - HEADER_BYTES - 8;
        b.extend_from_slice(&(payload as u32).to_le_bytes());
        if version >= 2 {
            b.extend_from_slice(&(self.buckets as u16).to_le_bytes());
        }
        b.resize(HEADER_BYTES, 0);
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
        if u16_at(6) != FEATURES_768 {
            return Err(NetError::FeatureSet(u16_at(6)));
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
        let expected = Network::file_bytes(hidden, buckets);
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
        let mut words = body[HEADER_BYTES..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let ft_weights = take(INPUTS * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(buckets * 2 * hidden);
        let out_bias = body[body.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::with_buckets(hidden, ft_weights, ft_bias, out_weights, out_bias)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net of one output bucket with small pseudo-random weights.
    fn random_net(hidden: usize, seed: u64) -> Network {
        random_bucketed(hidden, 1, seed)
    }

    /// A net of `buckets` output buckets with small pseudo-random weights.
    fn random_bucketed(hidden: usize, buckets: usize, seed: u64) -> Network {
        let mut s = seed;
        let mut next = move |range: i32| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((s >> 33) as i32).rem_euclid(2 * range + 1) - range
        };
        let ft_weights = (0..INPUTS * hidden).map(|_| next(60) as i16).collect();
        let ft_bias = (0..hidden).map(|_| next(100) as i16).collect();
        let out_weights = (0..buckets * 2 * hidden)
            .map(|_| next(120) as i16)
            .collect();
        let out_bias = (0..buckets).map(|_| next(5000)).collect();
        Network::with_buckets(hidden, ft_weights, ft_bias, out_weights, out_bias).unwrap()
    }

    const FENS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 0 7",
    ];

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

    /// Each output bucket scores the positions of its material range: a
    /// net whose buckets differ only in their bias scores each position
    /// by the bias of `output_bucket(pieces)`.
    #[test]
    fn the_bucket_follows_the_material() {
        let bias: Vec<i32> = (0..8).map(|b| b * 255 * 64 / 4).collect();
        let net =
            Network::with_buckets(8, vec![0; 768 * 8], vec![0; 8], vec![0; 8 * 16], bias).unwrap();
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let pieces = pos.occupied().count();
            let bucket = output_bucket(pieces, 8);
            assert_eq!(bucket, (pieces as usize - 2) / 4, "{fen}");
            assert_eq!(net.evaluate(&pos), 100 * bucket as i32, "{fen}");
        }
        for pieces in 0..=40 {
            assert!(output_bucket(pieces, 8) < 8);
            assert_eq!(output_bucket(pieces, 1), 0);
        }
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

    /// Updating the accumulators by the features a move changes gives the
    /// same accumulators as building them again, over every legal move.
    #[test]
    fn incremental_updates_match_a_refresh() {
        let net = random_net(24, 11);
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let before = net.refresh(&pos);
            for &mv in pos.legal_moves().iter() {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                // The difference of the feature sets, applied to `before`.
                let set = |p: &Position| {
                    let mut v = Vec::new();
                    for_each_feature(p, |w, b| v.push((w, b)));
                    v
                };
                let (old, new) = (set(&pos), set(&after));
                let mut acc = before.clone();
                for f in old.iter().filter(|f| !new.contains(f)) {
                    acc.sub(&net, f.0, f.1);
                }
                for f in new.iter().filter(|f| !old.contains(f)) {
                    acc.add(&net, f.0, f.1);
                }
                assert_eq!(acc, net.refresh(&after), "{fen} {mv}");
            }
        }
    }

    /// Along random games, the stack's move-by-move accumulators give the
    /// evaluation of a refresh at every ply, for every kind of move.
    #[test]
    fn the_stack_follows_random_games() {
        // 16 and 256 neurons take the AVX2 kernels where the processor has
        // them, 24 the scalar ones; `scalar` is the same net forced to the
        // scalar kernels, and every ply must agree with it and with a
        // refresh.
        for (hidden, buckets, seed) in [(16, 1, 9), (24, 1, 10), (256, 1, 11), (32, 8, 12)] {
            let net = random_bucketed(hidden, buckets, seed);
            let mut scalar = net.clone();
            scalar.kernel = Kernel::Scalar;
            let mut stack = AccumulatorStack::new(&net, 200).unwrap();
            let mut plain = AccumulatorStack::new(&net, 200).unwrap();
            let mut seed = 12345u64;
            for fen in FENS {
                for _ in 0..10 {
                    let mut pos = Position::from_fen(fen).unwrap();
                    stack.refresh(&net, 0, &pos);
                    plain.refresh(&scalar, 0, &pos);
                    for ply in 0..150 {
                        let moves = pos.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        let mv = moves[(seed >> 33) as usize % moves.len()];
                        let mut child = pos.clone();
                        child.play_unchecked(mv);
                        stack.update(&net, ply, &pos, &child);
                        plain.update(&scalar, ply, &pos, &child);
                        let v = stack.evaluate(&net, ply + 1, &child);
                        assert_eq!(v, net.evaluate(&child), "{hidden}: {fen}: ply {ply}, {mv}");
                        assert_eq!(
                            v,
                            plain.evaluate(&scalar, ply + 1, &child),
                            "{hidden}: {fen}: ply {ply}, {mv}"
                        );
                        assert_eq!(
                            v,
                            scalar.evaluate(&child),
                            "{hidden}: {fen}: ply {ply}, {mv}"
                        );
                        pos = child;
                    }
                }
            }
        }
    }

    /// An accumulator built from a list of features is the refresh's.
    #[test]
    fn accumulating_the_features_gives_the_refresh() {
        let net = random_net(24, 6);
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let (mut w, mut b) = (Vec::new(), Vec::new());
            for_each_feature(&pos, |fw, fb| {
                w.push(fw);
                b.push(fb);
            });
            let acc = net.refresh(&pos);
            assert_eq!(net.accumulate(w), acc.white, "{fen}");
            assert_eq!(net.accumulate(b), acc.black, "{fen}");
            assert_eq!(net.accumulate([]), net.bias(), "{fen}");
        }
    }

    #[test]
    fn positions_further_than_a_move_apart_are_refreshed() {
        let net = random_net(32, 4);
        let mut stack = AccumulatorStack::new(&net, 2).unwrap();
        let a = Position::startpos();
        let b = Position::from_fen(FENS[1]).unwrap();
        stack.refresh(&net, 0, &a);
        stack.update(&net, 0, &a, &b);
        assert_eq!(stack.evaluate(&net, 1, &b), net.evaluate(&b));
    }

    /// The evaluation is symmetric: a position and its colour-flipped
    /// mirror score the same for the side to move.
    #[test]
    fn colour_flipped_positions_score_the_same() {
        let net = random_net(32, 5);
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let mirror = Position::from_fen(&mirror_fen(&pos)).unwrap();
            assert_eq!(net.evaluate(&pos), net.evaluate(&mirror), "{fen}");
        }
    }

    fn mirror_fen(pos: &Position) -> String {
        let fen = pos.to_string();
        let mut parts = fen.split(' ');
        let board: Vec<String> = parts
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if parts.next() == Some("w") { "b" } else { "w" };
        format!("{} {side} - - 0 1", board.join("/"))
    }
}

/// The crate's README, compiled and run as a doctest so that its example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
