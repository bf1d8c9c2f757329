//! The quantised network: `(768 → N) × 2 → 1` with SCReLU, one output
//! layer per bucket of material, evaluated from accumulators.

use crate::accumulator::{add_column, Accumulator};
use crate::features::{for_each_input, output_bucket, KingBuckets};
use crate::format::NetError;
use crate::simd::{self, Kernel};
use hashmate::{Color, Position};
use std::fmt;

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

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub(crate) hidden: usize,
    /// Which block of inputs each perspective uses ([`KingBuckets::PLAIN`]:
    /// the 768 plain features).
    pub(crate) kings: KingBuckets,
    /// Feature-major: feature `f`'s column is `ft_weights[f * hidden ..][..hidden]`.
    pub(crate) ft_weights: Vec<i16>,
    pub(crate) ft_bias: Vec<i16>,
    /// Output buckets.
    pub(crate) buckets: usize,
    /// Bucket-major; in each bucket the side to move's half, then the
    /// other side's.
    pub(crate) out_weights: Vec<i16>,
    /// One per bucket.
    pub(crate) out_bias: Vec<i32>,
    /// Scalar or AVX2, chosen for this processor and these weights.
    pub(crate) kernel: Kernel,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field(
                "architecture",
                &format!(
                    "(768 x {} -> {})x2 -> 1 x {} buckets",
                    self.kings.count(),
                    self.hidden,
                    self.buckets
                ),
            )
            .field("out_bias", &self.out_bias)
            .finish_non_exhaustive()
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
        Network::with_king_buckets(
            KingBuckets::PLAIN,
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        )
    }

    /// A network with king buckets `kings` ([`KingBuckets`]): as
    /// [`Network::with_buckets`], with `ft_weights` holding
    /// `kings.inputs() × hidden` weights, input-major.
    ///
    /// # Errors
    /// [`NetError::Hidden`], [`NetError::Buckets`] or [`NetError::Shape`]
    /// for wrong sizes.
    pub fn with_king_buckets(
        kings: KingBuckets,
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
        if ft_weights.len() != kings.inputs() * hidden {
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
            kings,
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

    /// The net's king buckets ([`KingBuckets::PLAIN`] for none).
    pub fn king_buckets(&self) -> &KingBuckets {
        &self.kings
    }

    /// Inputs per perspective: 768 times the number of king buckets.
    pub fn inputs(&self) -> usize {
        self.kings.inputs()
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

    /// Input `f`'s column of the feature transformer.
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
        for_each_input(pos, &self.kings, |w, b| acc.add(self, w, b));
        acc
    }

    /// One perspective's accumulator for the active inputs `features`
    /// (indices as [`feature`](crate::feature) gives them, or, with king
    /// buckets, as [`KingBuckets::transform`] places them), built from scratch:
    /// the biases plus each feature's column. This is what a trainer
    /// compares its float net against.
    ///
    /// # Panics
    /// If an input is not below [`Network::inputs`].
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
    /// `"avx512"` on x86-64 processors with AVX-512 F and BW (hidden sizes
    /// that are multiples of 32), `"avx2"` on those with AVX2 (multiples
    /// of 16), each only for output weights within ±128, where their
    /// arithmetic is exact; otherwise `"scalar"`. All give the same
    /// results.
    pub fn kernel(&self) -> &'static str {
        match self.kernel {
            Kernel::Scalar => "scalar",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::for_each_feature;
    use crate::testutil::{random_net, FENS};

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

    /// A net with mirrored king buckets scores a position without
    /// castling rights and its left-right mirror image alike: both
    /// perspectives see the same inputs. A plain net in general does not.
    #[test]
    fn mirrored_king_buckets_score_a_position_and_its_image_alike() {
        let kings = KingBuckets::preset(4).unwrap();
        let net = crate::testutil::random_kings(kings, 32, 8, 21);
        let plain = random_net(32, 21);
        let mut differs = 0;
        for fen in [
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 0 7",
            "4k3/8/8/3q4/8/2N5/PP6/1K6 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let image = Position::from_fen(&mirror_files(fen)).unwrap();
            assert_eq!(net.evaluate(&pos), net.evaluate(&image), "{fen}");
            differs += usize::from(plain.evaluate(&pos) != plain.evaluate(&image));
        }
        assert!(differs > 0);
    }

    /// `fen` (no castling rights, no en passant square) mirrored left to
    /// right: each rank's squares reversed.
    fn mirror_files(fen: &str) -> String {
        let (board, rest) = fen.split_once(' ').unwrap();
        let ranks: Vec<String> = board
            .split('/')
            .map(|r| {
                let mut squares = String::new();
                for c in r.chars() {
                    match c.to_digit(10) {
                        Some(n) => squares.extend(std::iter::repeat_n('1', n as usize)),
                        None => squares.push(c),
                    }
                }
                // Back to FEN: runs of empty squares as one digit.
                let mut out = String::new();
                let mut empty = 0;
                for c in squares.chars().rev() {
                    if c == '1' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out.push(c);
                }
                if empty > 0 {
                    out += &empty.to_string();
                }
                out
            })
            .collect();
        format!("{} {rest}", ranks.join("/"))
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
