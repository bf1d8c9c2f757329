//! The training loop: shuffled batches, AdamW with a cosine learning-rate
//! schedule, a validation pass and a checkpoint after every epoch.

use crate::data::{Block, DataError, DataSet, Rng, Sample};
use crate::net::{sigmoid, target, Params, Scratch};
use hashmate_nnue::{KingBuckets, Network, SCALE};
use std::time::Instant;

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    /// The inputs' king buckets ([`KingBuckets::PLAIN`]: none).
    pub kings: KingBuckets,
    /// Shared columns for every king bucket's inputs, folded into the net
    /// the engine reads ([`crate::net`]'s factoriser).
    pub factoriser: bool,
    /// Neurons per perspective.
    pub hidden: usize,
    /// Output buckets (by material, [`hashmate_nnue::output_bucket`]).
    pub buckets: usize,
    /// Passes over the training blocks.
    pub epochs: u32,
    /// Positions per batch.
    pub batch: usize,
    /// Learning rate at the start.
    pub lr: f32,
    /// Learning rate at the end (cosine decay between the two).
    pub lr_end: f32,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// Weight of the game result in the target (the rest: the score).
    pub lambda: f32,
    /// Threads computing gradients.
    pub threads: usize,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
    /// Blocks read and shuffled together.
    pub buffer_blocks: usize,
    /// Mirror each position without castling rights left to right with
    /// probability ½ each epoch (data augmentation).
    pub mirror: bool,
}

/// The state a run can resume from.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The parameters.
    pub params: Params,
    /// AdamW's first moments.
    pub m: Vec<f32>,
    /// AdamW's second moments.
    pub v: Vec<f32>,
    /// Epochs completed.
    pub epoch: u32,
    /// Optimiser steps taken.
    pub step: u64,
    /// Per epoch: training loss, validation loss.
    pub history: Vec<(f64, f64)>,
}

impl State {
    /// A fresh start, or [`TrainError::Memory`] when its parameters and
    /// optimiser moments do not fit in memory.
    ///
    /// # Errors
    /// [`TrainError::Memory`].
    pub fn try_new(cfg: &Config) -> Result<State, TrainError> {
        let n = crate::net::Layout::new(cfg.kings, cfg.hidden, cfg.buckets, cfg.factoriser).len;
        // The parameters and two moments: ask for all of it first.
        zeros(3 * n, "the parameters and the optimiser's moments")?;
        Ok(State::new(cfg))
    }

    /// A fresh start.
    pub fn new(cfg: &Config) -> State {
        State::from_params(Params::init(
            cfg.kings,
            cfg.hidden,
            cfg.buckets,
            cfg.factoriser,
            &mut Rng::new(cfg.seed),
        ))
    }

    /// A start from `params` (a fine-tuning run: [`Params::from_network`]
    /// of an earlier net), with fresh optimiser moments and no epochs.
    pub fn from_params(params: Params) -> State {
        let n = params.v.len();
        State {
            params,
            m: vec![0.0; n],
            v: vec![0.0; n],
            epoch: 0,
            step: 0,
            history: Vec::new(),
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// Which epoch (1-based).
    pub epoch: u32,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Mean validation loss (float network); `None` without validation
    /// positions.
    pub val_loss: Option<f64>,
    /// Positions trained on.
    pub positions: u64,
    /// Seconds the epoch took.
    pub seconds: f64,
    /// The quantised net's difference from the float one on the
    /// validation positions, centipawns: mean and largest; `None` without
    /// validation positions.
    pub quant_error: Option<(f64, f64)>,
}

/// Progress within an epoch.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The epoch (1-based) and the number of epochs.
    pub epoch: (u32, u32),
    /// Training records read so far this epoch, and in all.
    pub records: (u64, u64),
    /// Positions trained on so far this epoch.
    pub positions: u64,
    /// Mean loss so far this epoch.
    pub loss: f64,
    /// Seconds since the epoch began.
    pub seconds: f64,
}

/// Why training stopped.
#[derive(Debug)]
pub enum TrainError {
    /// The data could not be read.
    Data(DataError),
    /// The loss or a weight is no longer a number: the learning rate is
    /// too high for this data.
    Diverged {
        /// Which epoch.
        epoch: u32,
    },
    /// Memory for the parameters, the optimiser or the gradients could
    /// not be had.
    Memory {
        /// What was to be held.
        what: &'static str,
        /// Bytes asked for.
        bytes: u64,
    },
}

/// `n` zeros, or [`TrainError::Memory`] naming `what` when the memory
/// cannot be had (instead of aborting the process).
///
/// # Errors
/// [`TrainError::Memory`].
pub fn zeros(n: usize, what: &'static str) -> Result<Vec<f32>, TrainError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| TrainError::Memory {
        what,
        bytes: n as u64 * 4,
    })?;
    v.resize(n, 0.0);
    Ok(v)
}

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainError::Data(e) => write!(f, "{e}"),
            TrainError::Diverged { epoch } => write!(
                f,
                "the loss diverged in epoch {epoch} (not a number): lower the learning rate"
            ),
            TrainError::Memory { what, bytes } => write!(
                f,
                "not enough memory for {what}: {bytes} bytes (fewer --threads or a smaller --hidden need less)"
            ),
        }
    }
}

impl std::error::Error for TrainError {}

impl From<DataError> for TrainError {
    fn from(e: DataError) -> Self {
        TrainError::Data(e)
    }
}

/// The learning rate at `progress` (0 at the start, 1 at the end).
pub fn learning_rate(cfg: &Config, progress: f64) -> f32 {
    let c = 0.5 * (1.0 + (std::f64::consts::PI * progress.clamp(0.0, 1.0)).cos());
    cfg.lr_end + (cfg.lr - cfg.lr_end) * c as f32
}

/// Mean loss of `samples` (float net), on `threads` threads.
pub fn mean_loss(params: &Params, samples: &[Sample], lambda: f32, threads: usize) -> f64 {
    mean_on_threads(samples, threads, |part| {
        let mut scratch = Scratch::new(params.hidden);
        part.iter()
            .map(|s| f64::from(params.loss(s, lambda, &mut scratch, None)))
            .sum()
    })
}

/// Mean loss of `samples` under the quantised net `net` — the engine's
/// integer evaluation, in centipawns, through the same sigmoid and target
/// as [`mean_loss`] — on `threads` threads. Nets trained on different data
/// (each scored on its own validation blocks during training) compare
/// fairly only on one set of positions: this scores any net file on any.
pub fn quantised_loss(net: &Network, samples: &[Sample], lambda: f32, threads: usize) -> f64 {
    mean_on_threads(samples, threads, |part| {
        part.iter()
            .map(|s| {
                let e = sigmoid(integer_eval(net, s) as f32 / SCALE as f32) - target(s, lambda);
                f64::from(e * e)
            })
            .sum()
    })
}

/// Mean and largest difference, in centipawns, between the quantised
/// net's integer evaluation and the float net's on `samples`.
pub fn quantisation_error(params: &Params, net: &Network, samples: &[Sample]) -> (f64, f64) {
    let mut scratch = Scratch::new(params.hidden);
    let (mut sum, mut max) = (0.0, 0.0f64);
    for s in samples {
        let float = f64::from(params.forward(s, &mut scratch)) * f64::from(SCALE);
        let d = (f64::from(integer_eval(net, s)) - float).abs();
        sum += d;
        max = max.max(d);
    }
    (sum / samples.len().max(1) as f64, max)
}

/// The quantised net's evaluation of `s` in centipawns, side to move's
/// view: accumulators built from the sample's features, as the engine
/// builds them from a position.
fn integer_eval(net: &Network, s: &Sample) -> i32 {
    let (us, them) = s.features();
    let (t_us, t_them) = s.transforms(net.king_buckets());
    let acc = |feats: &[u16], (offset, flip): (usize, usize)| {
        net.accumulate(feats.iter().map(|&f| offset + (usize::from(f) ^ flip)))
    };
    let bucket = hashmate_nnue::output_bucket(u32::from(s.len), net.buckets());
    net.output(&acc(us, t_us), &acc(them, t_them), bucket)
}

/// `sum(part)` over `threads` shares of `samples`, divided by their
/// number: a mean per sample (NaN for none).
fn mean_on_threads(
    samples: &[Sample],
    threads: usize,
    sum: impl Fn(&[Sample]) -> f64 + Sync,
) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let total: f64 = on_threads(
        samples,
        threads,
        |part, _| sum(part),
        &mut vec![(); threads.max(1)],
    )
    .into_iter()
    .sum();
    total / samples.len() as f64
}

/// Append the samples of `blocks` to `out` in the blocks' order (as
/// reading them one after the other would), the blocks shared among
/// `threads` threads: decoding the records is most of the reading.
///
/// # Errors
/// The first block's error in that order, as reading them one after the
/// other would give ([`DataSet::read`]).
pub fn read_blocks(
    data: &DataSet,
    blocks: &[Block],
    threads: usize,
    out: &mut Vec<Sample>,
) -> Result<(), DataError> {
    let mut parts: Vec<(Vec<Sample>, Option<DataError>)> =
        (0..threads.max(1)).map(|_| (Vec::new(), None)).collect();
    on_threads(
        blocks,
        threads,
        |part, (samples, error)| {
            for &b in part {
                if let Err(e) = data.read(b, samples) {
                    *error = Some(e);
                    break;
                }
            }
        },
        &mut parts,
    );
    for (mut samples, error) in parts {
        if let Some(e) = error {
            return Err(e);
        }
        out.try_reserve(samples.len())
            .map_err(|_| DataError::Memory {
                what: "the shuffle buffer (--buffer-blocks × --block positions)",
                bytes: (out.len() + samples.len()) as u64 * std::mem::size_of::<Sample>() as u64,
            })?;
        out.append(&mut samples);
    }
    Ok(())
}

/// `work(part, state)` on `threads` threads, each over its share of
/// `items` with its own entry of `states`; the parts' results in the
/// parts' order. A part whose thread cannot start (no memory for its
/// stack) runs on this thread; a part that panics panics here too, so
/// that no part's work is lost unnoticed.
fn on_threads<T: Sync, S: Send, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&[T], &mut S) -> R + Sync,
    states: &mut [S],
) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    let work = &work;
    // Each part waits in a cell for whoever computes it: its thread, or,
    // when the thread cannot start, this one.
    type Cell<'a, T, S> = std::sync::Mutex<Option<(&'a [T], &'a mut S)>>;
    let cells: Vec<Cell<T, S>> = items
        .chunks(chunk)
        .zip(states.iter_mut())
        .map(|job| std::sync::Mutex::new(Some(job)))
        .collect();
    let run = |cell: &Cell<T, S>| {
        let job = cell.lock().unwrap_or_else(|e| e.into_inner()).take();
        job.map(|(part, state)| work(part, state))
    };
    std::thread::scope(|scope| {
        let parts: Vec<_> = cells
            .iter()
            .map(|cell| {
                (
                    cell,
                    std::thread::Builder::new().spawn_scoped(scope, move || run(cell)),
                )
            })
            .collect();
        parts
            .into_iter()
            .filter_map(|(cell, p)| match p {
                Ok(p) => p
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(_) => run(cell),
            })
            .collect()
    })
}

/// One AdamW step over every parameter with gradient `g`.
fn adamw(state: &mut State, g: &[f32], lr: f32, cfg: &Config) {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    const EPS: f32 = 1e-8;
    state.step += 1;
    let t = state.step as i32;
    let c1 = 1.0 - B1.powi(t);
    let c2 = 1.0 - B2.powi(t);
    let decay = 1.0 - lr * cfg.weight_decay;
    let l = state.params.layout();
    for (i, (((w, m), v), &g)) in state
        .params
        .v
        .iter_mut()
        .zip(&mut state.m)
        .zip(&mut state.v)
        .zip(g)
        .enumerate()
    {
        *m = B1 * *m + (1.0 - B1) * g;
        *v = B2 * *v + (1.0 - B2) * g * g;
        // Weight decay pulls weights, not biases, towards zero.
        if !l.is_bias(i) {
            *w *= decay;
        }
        *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
    }
    state.params.clip();
}

/// Gradient of the mean loss of `batch` into `grads[0]` (one buffer per
/// thread); returns the summed loss.
fn gradient(params: &Params, batch: &[Sample], lambda: f32, grads: &mut [Vec<f32>]) -> f64 {
    let weight = 1.0 / batch.len() as f32;
    let chunk = batch.len().div_ceil(grads.len());
    let loss: f64 = on_threads(
        batch,
        grads.len(),
        |part, g: &mut Vec<f32>| {
            g.iter_mut().for_each(|x| *x = 0.0);
            let mut scratch = Scratch::new(params.hidden);
            part.iter()
                .map(|s| f64::from(params.loss(s, lambda, &mut scratch, Some((g, weight)))))
                .sum::<f64>()
        },
        grads,
    )
    .into_iter()
    .sum();
    let used = batch.len().div_ceil(chunk);
    let (first, rest) = grads.split_at_mut(1);
    for g in &rest[..used.saturating_sub(1)] {
        for (a, &b) in first[0].iter_mut().zip(g) {
            *a += b;
        }
    }
    params.factor_gradient(&mut first[0]);
    loss
}

/// Train one epoch of `state` on `data`, calling `progress` now and then.
///
/// # Errors
/// [`TrainError`] when the data cannot be read or the loss diverges.
pub fn epoch(
    data: &DataSet,
    validation: &[Sample],
    cfg: &Config,
    state: &mut State,
    progress: &mut dyn FnMut(&Progress),
) -> Result<EpochReport, TrainError> {
    let start = Instant::now();
    let e = state.epoch;
    let mut rng = Rng::new(cfg.seed ^ (u64::from(e) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut order = data.train.clone();
    rng.shuffle(&mut order);
    let total: u64 = data.train.iter().map(|b| b.count()).sum();
    let threads = cfg.threads.max(1);
    let mut grads = (0..threads)
        .map(|_| zeros(state.params.v.len(), "the gradients (one set per thread)"))
        .collect::<Result<Vec<_>, _>>()?;
    let (mut read, mut positions, mut loss_sum) = (0u64, 0u64, 0.0f64);
    let mut buffer = Vec::new();
    for blocks in order.chunks(cfg.buffer_blocks.max(1)) {
        buffer.clear();
        read_blocks(data, blocks, threads, &mut buffer)?;
        read += blocks.iter().map(|b| b.count()).sum::<u64>();
        rng.shuffle(&mut buffer);
        if cfg.mirror {
            for s in buffer.iter_mut().filter(|s| s.mirrorable) {
                if rng.next_u64() & 1 == 1 {
                    s.mirror();
                }
            }
        }
        for batch in buffer.chunks(cfg.batch.max(1)) {
            let done = f64::from(e) + read as f64 / total as f64;
            let lr = learning_rate(cfg, done / f64::from(cfg.epochs.max(1)));
            let loss = gradient(&state.params, batch, cfg.lambda, &mut grads);
            if !loss.is_finite() {
                return Err(TrainError::Diverged { epoch: e + 1 });
            }
            adamw(state, &grads[0], lr, cfg);
            loss_sum += loss;
            positions += batch.len() as u64;
            progress(&Progress {
                epoch: (e + 1, cfg.epochs),
                records: (read, total),
                positions,
                loss: loss_sum / positions as f64,
                seconds: start.elapsed().as_secs_f64(),
            });
        }
    }
    if state.params.v.iter().any(|w| !w.is_finite()) {
        return Err(TrainError::Diverged { epoch: e + 1 });
    }
    let seconds = start.elapsed().as_secs_f64();
    // No figure is computed over no positions.
    let (val_loss, quant_error) = if validation.is_empty() {
        (None, None)
    } else {
        let net = state.params.quantise();
        (
            Some(mean_loss(&state.params, validation, cfg.lambda, threads)),
            Some(quantisation_error(&state.params, &net, validation)),
        )
    };
    let train_loss = loss_sum / positions.max(1) as f64;
    state.epoch += 1;
    state
        .history
        .push((train_loss, val_loss.unwrap_or(f64::NAN)));
    Ok(EpochReport {
        epoch: state.epoch,
        train_loss,
        val_loss,
        positions,
        seconds,
        quant_error,
    })
}

/// The loss curve as an SVG line chart: training (solid) and validation
/// (dashed) loss per epoch.
pub fn loss_svg(history: &[(f64, f64)]) -> String {
    let (w, h, pad) = (640.0, 400.0, 50.0);
    let values: Vec<f64> = history
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .filter(|x| x.is_finite())
        .collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo < hi {
        (lo, hi)
    } else {
        (lo - 1e-3, lo + 1e-3)
    };
    let n = history.len().max(2) - 1;
    let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / n as f64;
    let y = |v: f64| h - pad - (h - 2.0 * pad) * (v - lo) / (hi - lo);
    let line = |pick: fn(&(f64, f64)) -> f64| {
        history
            .iter()
            .enumerate()
            .filter(|(_, p)| pick(p).is_finite())
            .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(pick(p))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <line x1=\"{pad}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n\
         <line x1=\"{pad}\" y1=\"{pad}\" x2=\"{pad}\" y2=\"{}\" stroke=\"black\"/>\n",
        h - pad,
        w - pad,
        h - pad,
        h - pad
    );
    s += &format!(
        "<text x=\"{pad}\" y=\"{}\">{hi:.5}</text>\n<text x=\"{pad}\" y=\"{}\">{lo:.5}</text>\n",
        pad - 6.0,
        h - pad + 16.0
    );
    s += &format!(
        "<text x=\"{}\" y=\"{}\">epoch 1 … {}</text>\n",
        w / 2.0 - 40.0,
        h - 12.0,
        history.len()
    );
    s += &format!(
        "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"{}\"/>\n",
        line(|p| p.0)
    );
    s += &format!(
        "<polyline fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\" stroke-dasharray=\"6,4\" points=\"{}\"/>\n",
        line(|p| p.1)
    );
    s += &format!(
        "<text x=\"{}\" y=\"{}\" fill=\"#1f77b4\">training loss</text>\n\
         <text x=\"{}\" y=\"{}\" fill=\"#d62728\">validation loss</text>\n</svg>\n",
        w - pad - 120.0,
        pad + 10.0,
        w - pad - 120.0,
        pad + 26.0
    );
    s
}

#[cfg(test)]
mod tests {
    use super::on_threads;

    #[test]
    fn on_threads_gives_each_part_its_state_and_the_results_in_order() {
        let items: Vec<u32> = (0..10).collect();
        for threads in [1, 2, 3, 4, 16] {
            let mut states = vec![0u32; threads];
            let sums = on_threads(
                &items,
                threads,
                |part, seen: &mut u32| {
                    *seen = part.len() as u32;
                    part.iter().sum::<u32>()
                },
                &mut states,
            );
            let chunk = items.len().div_ceil(threads);
            let expected: Vec<u32> = items.chunks(chunk).map(|c| c.iter().sum()).collect();
            assert_eq!(sums, expected, "{threads} threads");
            assert_eq!(states.iter().sum::<u32>(), 10, "{threads} threads");
        }
    }

    #[test]
    fn a_part_that_panics_is_not_lost() {
        let items: Vec<u32> = (0..8).collect();
        let outcome = std::panic::catch_unwind(|| {
            on_threads(
                &items,
                4,
                |part, _: &mut ()| {
                    assert!(!part.contains(&5), "part with 5");
                    part.len()
                },
                &mut [(); 4],
            )
        });
        assert!(
            outcome.is_err(),
            "the panic of one part must reach the caller"
        );
    }
}
