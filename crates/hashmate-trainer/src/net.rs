//! The float network the trainer fits, its gradient, and its quantisation
//! into a [`hashmate_nnue::Network`].
//!
//! All parameters live in one `Vec<f32>` (feature-transformer weights
//! feature-major, its biases, the output weights bucket by bucket — in
//! each the side to move's half first —, the output biases, and with a
//! factoriser its 768 shared columns last), so that the optimiser and the
//! checkpoint treat them as one vector.
//!
//! **The factoriser** (king buckets only): each of the 768 piece-square
//! inputs has one more column, shared by every king bucket, and the
//! column a bucket's input uses is its own plus the shared one. A
//! position then teaches every bucket something through the shared
//! column, not only the bucket of its kings, so that king buckets need
//! less data to learn what the squares are worth regardless of the king.
//! The net the engine reads has the shared columns folded into each
//! bucket's: the same network shape, the same inference. The trainer
//! keeps that folded copy too ([`Params::refold`]), computes every loss
//! and gradient with it, and gives a shared column the sum of its
//! buckets' gradients ([`Params::factor_gradient`]).

use crate::data::{Rng, Sample};
use hashmate_nnue::{output_bucket, KingBuckets, Network, QA, QB, SCALE};

/// A sample's `(offset, flip)` for its side to move and the other side
/// ([`Sample::transforms`]).
type Transforms = ((usize, usize), (usize, usize));

/// Weights are kept within ±`WEIGHT_CLIP`, so that the quantised values
/// fit: a feature-transformer weight × 255 in `i16`, and an accumulator of
/// 32 of them; an output weight × 64 in an `i8`'s range.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The float parameters of a `(768 × kings → hidden) × 2 → 1` SCReLU
/// network with `buckets` output layers chosen by material
/// ([`hashmate_nnue::output_bucket`]) and the king buckets `kings`
/// ([`KingBuckets`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The inputs' king buckets ([`KingBuckets::PLAIN`]: none).
    pub kings: KingBuckets,
    /// Neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Whether the inputs have a factoriser (see the module's header).
    pub factorised: bool,
    /// Every parameter, in the layout of the module's header.
    pub v: Vec<f32>,
    /// With a factoriser, the feature-transformer weights with the
    /// shared columns folded in (what the net computes with); empty
    /// without one. [`Params::refold`] brings it up to date after `v`
    /// changes.
    folded: Vec<f32>,
}

/// Offsets of the parameter groups in [`Params::v`].
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// The inputs' king buckets.
    pub kings: KingBuckets,
    /// Neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Start of the feature-transformer biases.
    pub ft_bias: usize,
    /// Start of the output weights (`2 × hidden` per bucket).
    pub out_w: usize,
    /// Start of the output biases (one per bucket).
    pub out_b: usize,
    /// Start of the factoriser's 768 shared columns (`len` when there is
    /// none).
    pub factor: usize,
    /// Number of parameters.
    pub len: usize,
}

impl Layout {
    /// The layout for king buckets `kings`, `hidden` neurons, `buckets`
    /// output buckets and, when `factorised`, the factoriser's columns.
    pub fn new(kings: KingBuckets, hidden: usize, buckets: usize, factorised: bool) -> Layout {
        let ft_bias = kings.inputs() * hidden;
        let out_w = ft_bias + hidden;
        let out_b = out_w + buckets * 2 * hidden;
        let factor = out_b + buckets;
        Layout {
            kings,
            hidden,
            buckets,
            ft_bias,
            out_w,
            out_b,
            factor,
            len: factor + if factorised { 768 * hidden } else { 0 },
        }
    }

    /// Whether the parameters end with the factoriser's columns.
    pub fn factorised(&self) -> bool {
        self.len > self.factor
    }

    /// Whether parameter `i` is a bias (feature transformer or output).
    pub fn is_bias(&self, i: usize) -> bool {
        (self.ft_bias..self.out_w).contains(&i) || (self.out_b..self.factor).contains(&i)
    }

    /// The output bucket of `s`, and where its weights and bias are.
    #[inline]
    fn bucket(&self, s: &Sample) -> (usize, usize) {
        let b = output_bucket(u32::from(s.len), self.buckets);
        (self.out_w + b * 2 * self.hidden, self.out_b + b)
    }
}

/// Lanes of the partial sums in [`screlu_dot`].
const LANES: usize = 16;

/// `Σ clamp(a, 0, 1)² × w`, summed in [`LANES`] interleaved partial sums
/// (lane `i` takes every element `i mod LANES`) that are added at the
/// end: a float sum in one chain cannot be vectorised, since reordering
/// it changes its rounding; this order is fixed, so a run still repeats
/// itself exactly. `acc` and `w` have the same length.
#[inline]
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    let (acc_body, acc_tail) = acc.split_at(acc.len() - acc.len() % LANES);
    let (w_body, w_tail) = w.split_at(acc_body.len());
    for (a, w) in acc_body.chunks_exact(LANES).zip(w_body.chunks_exact(LANES)) {
        for i in 0..LANES {
            let c = a[i].clamp(0.0, 1.0);
            lanes[i] += c * c * w[i];
        }
    }
    for (i, (&a, &w)) in acc_tail.iter().zip(w_tail).enumerate() {
        let c = a.clamp(0.0, 1.0);
        lanes[i] += c * c * w;
    }
    lanes.iter().sum()
}

#[inline]
pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the net is fitted to for `s`: `λ × result + (1 − λ) ×
/// sigmoid(score / SCALE)`, on the scale of `sigmoid(output)`.
#[inline]
pub fn target(s: &Sample, lambda: f32) -> f32 {
    lambda * s.result + (1.0 - lambda) * sigmoid(s.score / SCALE as f32)
}

/// Working memory of one thread: two accumulators and the gradient of
/// one of them.
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    da: Vec<f32>,
}

impl Scratch {
    /// For `hidden` neurons.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            da: vec![0.0; hidden],
        }
    }
}

impl Params {
    /// Parameters `v` in the layout of `kings`, `hidden`, `buckets` and
    /// `factorised` (its length must be the layout's).
    pub fn new(
        kings: KingBuckets,
        hidden: usize,
        buckets: usize,
        factorised: bool,
        v: Vec<f32>,
    ) -> Params {
        debug_assert_eq!(v.len(), Layout::new(kings, hidden, buckets, factorised).len);
        let mut p = Params {
            kings,
            hidden,
            buckets,
            factorised,
            v,
            folded: Vec::new(),
        };
        p.refold();
        p
    }

    /// Random initial parameters: feature-transformer weights uniform in
    /// ±0.1 (an accumulator of 30 pieces then spreads over about ±0.3),
    /// output weights uniform in ±1/√(2·hidden), biases and the
    /// factoriser's columns 0.
    pub fn init(
        kings: KingBuckets,
        hidden: usize,
        buckets: usize,
        factorised: bool,
        rng: &mut Rng,
    ) -> Params {
        let l = Layout::new(kings, hidden, buckets, factorised);
        let mut v = vec![0.0; l.len];
        for w in &mut v[..l.ft_bias] {
            *w = rng.uniform(0.1);
        }
        let a = 1.0 / (2.0 * hidden as f32).sqrt();
        for w in &mut v[l.out_w..l.out_b] {
            *w = rng.uniform(a);
        }
        Params::new(kings, hidden, buckets, factorised, v)
    }

    /// The same net with a factoriser added, its shared columns 0 (a
    /// fine-tuning run with one).
    pub fn with_factoriser(self) -> Params {
        if self.factorised {
            return self;
        }
        let mut v = self.v;
        v.resize(v.len() + 768 * self.hidden, 0.0);
        Params::new(self.kings, self.hidden, self.buckets, true, v)
    }

    /// The feature-transformer weights the net computes with: each king
    /// bucket's columns, with the factoriser's folded in if there is one.
    #[inline]
    pub fn ft_weights(&self) -> &[f32] {
        if self.factorised {
            &self.folded
        } else {
            &self.v[..self.layout().ft_bias]
        }
    }

    /// Bring the folded weights ([`Params::ft_weights`]) up to date with
    /// `v` (nothing to do without a factoriser).
    pub fn refold(&mut self) {
        if !self.factorised {
            self.folded = Vec::new();
            return;
        }
        let l = self.layout();
        let block = 768 * l.hidden;
        let (ft, rest) = self.v.split_at(l.ft_bias);
        let shared = &rest[l.factor - l.ft_bias..];
        self.folded.clear();
        for bucket in ft.chunks_exact(block) {
            self.folded
                .extend(bucket.iter().zip(shared).map(|(&w, &f)| w + f));
        }
    }

    /// With a factoriser, set the gradient of each shared column in `g`
    /// to the sum of the gradients of its columns in every king bucket
    /// (the bucket columns' gradients already in `g`, as
    /// [`Params::loss`] leaves them); nothing without one.
    pub fn factor_gradient(&self, g: &mut [f32]) {
        if !self.factorised {
            return;
        }
        let l = self.layout();
        let block = 768 * l.hidden;
        let (ft, rest) = g.split_at_mut(l.ft_bias);
        let shared = &mut rest[l.factor - l.ft_bias..];
        shared.iter_mut().for_each(|x| *x = 0.0);
        for bucket in ft.chunks_exact(block) {
            for (s, &x) in shared.iter_mut().zip(bucket) {
                *s += x;
            }
        }
    }

    /// The float parameters a quantised net stands for: each weight
    /// divided by its quantisation factor, so that [`Params::quantise`]
    /// gives the same net back. The start of a fine-tuning run, which
    /// continues to train a net on new data instead of from random
    /// weights.
    pub fn from_network(net: &Network) -> Params {
        let (kings, hidden, buckets) = (*net.king_buckets(), net.hidden(), net.buckets());
        let l = Layout::new(kings, hidden, buckets, false);
        let mut v = Vec::with_capacity(l.len);
        let qa = QA as f32;
        for f in 0..net.inputs() {
            v.extend(net.column(f).iter().map(|&w| f32::from(w) / qa));
        }
        v.extend(net.bias().iter().map(|&b| f32::from(b) / qa));
        for b in 0..buckets {
            let qb = QB as f32;
            v.extend(net.output_weights(b).iter().map(|&w| f32::from(w) / qb));
        }
        for b in 0..buckets {
            v.push(net.output_bias(b) as f32 / (QA * QB) as f32);
        }
        debug_assert_eq!(v.len(), l.len);
        Params::new(kings, hidden, buckets, false, v)
    }

    /// The layout of these parameters.
    pub fn layout(&self) -> Layout {
        Layout::new(self.kings, self.hidden, self.buckets, self.factorised)
    }

    /// Fill the accumulators of `s`; returns the raw output (before the
    /// sigmoid; times [`SCALE`] it is centipawns).
    #[inline]
    pub fn forward(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        self.forward_with(s, s.transforms(&self.kings), scratch)
    }

    /// [`Params::forward`] with the sample's king transforms already known.
    #[inline]
    fn forward_with(&self, s: &Sample, transforms: Transforms, scratch: &mut Scratch) -> f32 {
        let l = self.layout();
        let h = l.hidden;
        let bias = &self.v[l.ft_bias..l.out_w];
        let ft = self.ft_weights();
        let (us, them) = s.features();
        let (t_us, t_them) = transforms;
        for (acc, feats, (offset, flip)) in [
            (&mut scratch.us, us, t_us),
            (&mut scratch.them, them, t_them),
        ] {
            acc.copy_from_slice(bias);
            for &f in feats {
                let input = offset + (usize::from(f) ^ flip);
                let col = &ft[input * h..][..h];
                for (a, &w) in acc.iter_mut().zip(col) {
                    *a += w;
                }
            }
        }
        let (w, b) = l.bucket(s);
        let (w_us, w_them) = self.v[w..][..2 * h].split_at(h);
        screlu_dot(&scratch.us, w_us) + screlu_dot(&scratch.them, w_them) + self.v[b]
    }

    /// The loss of `s` — `(sigmoid(out) − target)²` with `target = λ ×
    /// result + (1 − λ) × sigmoid(score / SCALE)` — and, when `grad` is
    /// given, its gradient times `weight` added there (with a factoriser,
    /// not yet in the shared columns: [`Params::factor_gradient`] adds
    /// them up once for a whole batch).
    #[inline]
    pub fn loss(
        &self,
        s: &Sample,
        lambda: f32,
        scratch: &mut Scratch,
        grad: Option<(&mut [f32], f32)>,
    ) -> f32 {
        let transforms = s.transforms(&self.kings);
        let out = self.forward_with(s, transforms, scratch);
        let p = sigmoid(out);
        let e = p - target(s, lambda);
        if let Some((g, weight)) = grad {
            let l = self.layout();
            let h = l.hidden;
            let d = 2.0 * e * p * (1.0 - p) * weight;
            let (w, b) = l.bucket(s);
            g[b] += d;
            let (ow_us, ow_them) = self.v[w..][..2 * h].split_at(h);
            let (feats_us, feats_them) = s.features();
            let (t_us, t_them) = transforms;
            let Scratch { us, them, da } = scratch;
            let (gw, rest) = g.split_at_mut(l.ft_bias);
            let (gb, rest) = rest.split_at_mut(h);
            let (g_us, g_them) = rest[w - l.out_w..][..2 * h].split_at_mut(h);
            for (acc, ow, gow, feats, (offset, flip)) in [
                (&*us, ow_us, g_us, feats_us, t_us),
                (&*them, ow_them, g_them, feats_them, t_them),
            ] {
                // The output weights' gradient and the accumulator's
                // (`da`, computed once per neuron), which reaches the
                // biases and every active feature's column.
                for (((&a, &o), go), da) in acc.iter().zip(ow).zip(gow).zip(da.iter_mut()) {
                    let c = a.clamp(0.0, 1.0);
                    *go += d * c * c;
                    *da = if a > 0.0 && a < 1.0 {
                        d * o * 2.0 * a
                    } else {
                        0.0
                    };
                }
                for (b, &x) in gb.iter_mut().zip(da.iter()) {
                    *b += x;
                }
                for &f in feats {
                    let input = offset + (usize::from(f) ^ flip);
                    let col = &mut gw[input * h..][..h];
                    for (w, &x) in col.iter_mut().zip(da.iter()) {
                        *w += x;
                    }
                }
            }
        }
        e * e
    }

    /// The quantised network: feature transformer × [`QA`], output weights
    /// × [`QB`], output biases × `QA × QB`, each rounded to the nearest.
    pub fn quantise(&self) -> Network {
        let l = self.layout();
        let q16 = |x: f32, q: i32| (x * q as f32).round().clamp(-32768.0, 32767.0) as i16;
        let ft_weights = self.ft_weights().iter().map(|&x| q16(x, QA)).collect();
        let ft_bias = self.v[l.ft_bias..l.out_w]
            .iter()
            .map(|&x| q16(x, QA))
            .collect();
        let out_weights = self.v[l.out_w..l.out_b]
            .iter()
            .map(|&x| q16(x, QB))
            .collect();
        let out_bias = self.v[l.out_b..l.factor]
            .iter()
            .map(|&x| (x * (QA * QB) as f32).round() as i32)
            .collect();
        Network::with_king_buckets(
            l.kings,
            l.hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        )
        .expect("the layout has the network's shape")
    }

    /// Keep the weights within ±[`WEIGHT_CLIP`] — with a factoriser, its
    /// columns and each folded weight (a bucket's own weight is kept
    /// where its sum with the shared one is within the bound) — and bring
    /// the folded weights up to date.
    pub fn clip(&mut self) {
        let l = self.layout();
        let (ft, rest) = self.v.split_at_mut(l.ft_bias);
        let (mid, shared) = rest.split_at_mut(l.factor - l.ft_bias);
        let out = &mut mid[l.out_w - l.ft_bias..l.out_b - l.ft_bias];
        for w in out.iter_mut().chain(shared.iter_mut()) {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
        if self.factorised {
            for bucket in ft.chunks_exact_mut(768 * l.hidden) {
                for (w, &f) in bucket.iter_mut().zip(shared.iter()) {
                    *w = w.clamp(-WEIGHT_CLIP - f, WEIGHT_CLIP - f);
                }
            }
        } else {
            for w in ft.iter_mut() {
                *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
        self.refold();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes' sum is the plain sum up to rounding, at lengths with and
    /// without a tail past the last whole group of lanes.
    #[test]
    fn screlu_dot_is_the_sum_of_its_terms() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 40) as f32 / (1u64 << 24) as f32 * 3.0 - 1.0
        };
        for n in [0, 1, 5, 16, 37, 512] {
            let acc: Vec<f32> = (0..n).map(|_| next()).collect();
            let w: Vec<f32> = (0..n).map(|_| next()).collect();
            let exact: f64 = acc
                .iter()
                .zip(&w)
                .map(|(&a, &w)| f64::from(a.clamp(0.0, 1.0)).powi(2) * f64::from(w))
                .sum();
            let got = f64::from(screlu_dot(&acc, &w));
            assert!(
                (got - exact).abs() < 1e-5 * (1.0 + exact.abs()),
                "n = {n}: {got} against {exact}"
            );
        }
    }
}
