//! `hashmate tune`: fit the evaluation's weights to game results (the
//! Texel method).
//!
//! Each training position is traced once ([`hashmate_engine::eval::trace`]): the
//! evaluation is `Σ count × weight`, blended between middlegame and
//! endgame by the phase, so its gradient in every weight is known in closed
//! form. The tuner minimises the mean squared error between
//! `sigmoid(K · eval / 400)` and a target that mixes the game result with
//! the search score (`λ · result + (1 − λ) · sigmoid(K · score / 400)`),
//! by full-batch gradient descent with Adam, on all cores. `K` is first
//! fitted to the data itself: the value for which the search scores best
//! predict the results. A twentieth of the positions is held out to show
//! that the fit generalises. The weights are written as Rust source, the
//! file `crates/hashmate-engine/src/eval/weights.rs` that the evaluation includes.

use clap::Args;
use hashmate_data::record::{Record, RECORD_BYTES};
use hashmate_engine::eval::terms::{GROUPS, NUM_WEIGHTS};
use hashmate_engine::eval::{endgame_scale, phase, trace, MAX_PHASE, SCALE_NORMAL};
use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `hashmate tune`.
#[derive(Args, Debug, Clone)]
pub struct TexelArgs {
    /// Training files written by `hashmate datagen` (repeatable).
    #[arg(long = "data", required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the weights (Rust source).
    #[arg(long)]
    pub out: PathBuf,
    /// Full passes over the data.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub epochs: u32,
    /// Weight of the game result in the target (the rest is the search
    /// score), 0 to 1.
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f64,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Use at most this many positions (0: all).
    #[arg(long, default_value_t = 0)]
    pub limit: usize,
    /// Threads computing the gradient.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Start from zero instead of the current weights (material only).
    #[arg(long)]
    pub from_scratch: bool,
    /// Pull towards the starting weights: this much squared-error penalty
    /// per squared centipawn of distance (0: none).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
}

/// One traced position.
struct Sample {
    /// Index of its first coefficient in `Data::coef`.
    start: u32,
    len: u16,
    phase: u8,
    /// Endgame scale when White is ahead, when Black is.
    scale: [u8; 2],
    result: f32,
    score: f32,
}

/// All samples, their coefficients in one flat array.
struct Data {
    samples: Vec<Sample>,
    coef: Vec<(u16, i16)>,
}

/// Why the fit failed.
#[derive(Debug)]
pub enum TexelError {
    /// A file could not be read or written (or an output is refused).
    File(hashmate_data::files::FileError),
    /// Reading a data file failed.
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A file's length is not a whole number of records.
    NotRecords {
        /// The file.
        path: PathBuf,
        /// Its length in bytes.
        len: u64,
    },
    /// Too many records are not valid positions.
    Unreadable(usize),
    /// No record passed the filter.
    NoPositions,
    /// The fit left the range of sane weights; nothing is written.
    Diverged {
        /// The epoch, or `None` for the final check.
        epoch: Option<u32>,
        /// What went wrong.
        why: String,
        /// The learning rate used.
        rate: f64,
    },
    /// `--lambda` outside 0..=1.
    Lambda(f64),
    /// `--rate` not a positive number.
    Rate,
    /// `--l2` negative or not a number.
    L2,
    /// `--out` names a training data file.
    OutputIsInput {
        /// The output.
        out: PathBuf,
        /// The data file it is.
        data: PathBuf,
    },
}

impl std::fmt::Display for TexelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TexelError::File(e) => write!(f, "{e}"),
            TexelError::Read { path, source } => {
                write!(f, "cannot read '{}': {source}", path.display())
            }
            TexelError::NotRecords { path, len } => write!(
                f,
                "'{}' is not training data: {len} bytes is not a whole number of {RECORD_BYTES}-byte records",
                path.display()
            ),
            TexelError::Unreadable(bad) => write!(
                f,
                "{bad} records are not valid positions: not training data?"
            ),
            TexelError::NoPositions => write!(f, "no training positions in the data"),
            TexelError::Diverged {
                epoch: Some(epoch),
                why,
                rate,
            } => write!(
                f,
                "the fit diverged at epoch {epoch}: {why}; try a smaller --rate (now {rate:e}); nothing written"
            ),
            TexelError::Diverged { epoch: None, why, .. } => {
                write!(f, "the fit diverged: {why}; nothing written")
            }
            TexelError::Lambda(l) => write!(f, "--lambda must be from 0 to 1, not {l}"),
            TexelError::Rate => write!(f, "--rate must be a positive number"),
            TexelError::L2 => write!(f, "--l2 must be a number of 0 or more"),
            TexelError::OutputIsInput { out, data } => write!(
                f,
                "--out '{}' is the training data '{}'; choose another output",
                out.display(),
                data.display()
            ),
        }
    }
}

impl std::error::Error for TexelError {}

impl From<hashmate_data::files::FileError> for TexelError {
    fn from(e: hashmate_data::files::FileError) -> TexelError {
        TexelError::File(e)
    }
}

/// Read training records; only those [`Record::trainable`] accepts are kept.
fn load(paths: &[PathBuf], limit: usize) -> Result<Data, TexelError> {
    let mut data = Data {
        samples: Vec::new(),
        coef: Vec::new(),
    };
    let (mut skipped, mut bad) = (0usize, 0usize);
    for path in paths {
        // A device or FIFO (`/dev/zero`) could be read for ever.
        hashmate_data::files::require_regular(path, "training data")?;
        let read = |source| TexelError::Read {
            path: path.clone(),
            source,
        };
        let mut file = std::fs::File::open(path).map_err(read)?;
        let len = file.metadata().map_err(read)?.len();
        if len % RECORD_BYTES as u64 != 0 {
            return Err(TexelError::NotRecords {
                path: path.clone(),
                len,
            });
        }
        let mut buf = [0u8; RECORD_BYTES];
        let mut reader = std::io::BufReader::with_capacity(1 << 20, &mut file);
        loop {
            if limit > 0 && data.samples.len() >= limit {
                break;
            }
            match reader.read_exact(&mut buf) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(read(e)),
            }
            let rec = match Record::decode(&buf) {
                Ok(r) => r,
                Err(_) => {
                    bad += 1;
                    continue;
                }
            };
            if !rec.trainable() {
                skipped += 1;
                continue;
            }
            push(&mut data, &rec);
        }
    }
    if bad > data.samples.len() / 100 + 10 {
        return Err(TexelError::Unreadable(bad));
    }
    if data.samples.is_empty() {
        return Err(TexelError::NoPositions);
    }
    eprintln!(
        "{} positions ({skipped} in check, noisy or mate skipped, {bad} unreadable), {} coefficients",
        data.samples.len(),
        data.coef.len()
    );
    Ok(data)
}

fn push(data: &mut Data, rec: &Record) {
    let t = trace(&rec.pos);
    let start = data.coef.len() as u32;
    for (i, &c) in t.coef.iter().enumerate() {
        if c != 0 {
            data.coef.push((i as u16, c.clamp(-32_000, 32_000) as i16));
        }
    }
    data.samples.push(Sample {
        start,
        len: (data.coef.len() as u32 - start) as u16,
        phase: phase(&rec.pos) as u8,
        scale: [
            endgame_scale(&rec.pos, true) as u8,
            endgame_scale(&rec.pos, false) as u8,
        ],
        result: rec.result.score() as f32,
        score: f32::from(rec.score),
    });
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The evaluation of a sample under weights `w` (White's point of view).
#[inline]
fn eval(data: &Data, s: &Sample, w: &[(f64, f64)]) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &data.coef[s.start as usize..s.start as usize + s.len as usize] {
        let (wm, we) = w[i as usize];
        mg += wm * f64::from(c);
        eg += we * f64::from(c);
    }
    let ph = f64::from(s.phase) / f64::from(MAX_PHASE);
    let scale = f64::from(s.scale[usize::from(eg <= 0.0)]) / f64::from(SCALE_NORMAL);
    (mg * ph + eg * scale * (1.0 - ph), scale)
}

/// The `K` for which the search scores best predict the results.
fn fit_k(data: &Data) -> f64 {
    let error = |k: f64| {
        data.samples
            .iter()
            .map(|s| {
                let d = sigmoid(k * f64::from(s.score) / 400.0) - f64::from(s.result);
                d * d
            })
            .sum::<f64>()
    };
    // Golden-section search on [0.1, 5].
    let (mut a, mut b) = (0.1f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(c) < error(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Mean squared error and gradient over `samples`.
fn gradient(
    data: &Data,
    samples: &[Sample],
    w: &[(f64, f64)],
    k: f64,
    lambda: f64,
    grad: &mut [(f64, f64)],
) -> f64 {
    let mut loss = 0.0;
    for s in samples {
        let (e, scale) = eval(data, s, w);
        let p = sigmoid(k * e / 400.0);
        let target =
            lambda * f64::from(s.result) + (1.0 - lambda) * sigmoid(k * f64::from(s.score) / 400.0);
        let diff = p - target;
        loss += diff * diff;
        let g = 2.0 * diff * p * (1.0 - p) * k / 400.0;
        let ph = f64::from(s.phase) / f64::from(MAX_PHASE);
        let (gm, ge) = (g * ph, g * scale * (1.0 - ph));
        for &(i, c) in &data.coef[s.start as usize..s.start as usize + s.len as usize] {
            let c = f64::from(c);
            let slot = &mut grad[i as usize];
            slot.0 += gm * c;
            slot.1 += ge * c;
        }
    }
    loss
}

/// Loss and gradient over `samples`, split over `threads`.
fn parallel_gradient(
    data: &Data,
    samples: &[Sample],
    w: &[(f64, f64)],
    k: f64,
    lambda: f64,
    threads: usize,
) -> (f64, Vec<(f64, f64)>) {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let part_gradient = move |part: &[Sample]| {
            let mut g = vec![(0.0, 0.0); NUM_WEIGHTS];
            let l = gradient(data, part, w, k, lambda, &mut g);
            (l, g)
        };
        // A part whose thread cannot start (no memory for its stack) is
        // computed here instead.
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || part_gradient(part))
                    .map_err(|_| part)
            })
            .collect();
        let mut total = vec![(0.0, 0.0); NUM_WEIGHTS];
        let mut loss = 0.0;
        for h in handles {
            let result = match h {
                // A gradient thread only panics on a bug; count it as nothing.
                Ok(h) => h.join().ok(),
                Err(part) => Some(part_gradient(part)),
            };
            if let Some((l, g)) = result {
                loss += l;
                for (t, x) in total.iter_mut().zip(g) {
                    t.0 += x.0;
                    t.1 += x.1;
                }
            }
        }
        let n = samples.len().max(1) as f64;
        for t in &mut total {
            t.0 /= n;
            t.1 /= n;
        }
        (loss / n, total)
    })
}

/// The result of a fit.
pub struct Fit {
    /// The weights.
    pub weights: Vec<(f64, f64)>,
    /// Training loss before and after.
    pub train: (f64, f64),
    /// Held-out loss before and after.
    pub validation: (f64, f64),
    /// The fitted `K`.
    pub k: f64,
}

/// Fit weights to `data`, starting from `start`.
///
/// # Errors
/// When the fit diverges: a loss or a weight that is not finite, or a
/// weight past what the evaluation can hold.
fn fit(mut data: Data, start: Vec<(f64, f64)>, args: &TexelArgs) -> Result<Fit, TexelError> {
    let k = fit_k(&data);
    // Hold out every twentieth position.
    let all = std::mem::take(&mut data.samples);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, s) in all.into_iter().enumerate() {
        if i % 20 == 19 {
            held.push(s);
        } else {
            train.push(s);
        }
    }
    let threads = args.threads as usize;
    let anchor = start.clone();
    let mut w = start;
    let (mut m, mut v) = (vec![(0.0, 0.0); NUM_WEIGHTS], vec![(0.0, 0.0); NUM_WEIGHTS]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let val = |w: &[(f64, f64)]| parallel_gradient(&data, &held, w, k, args.lambda, threads).0;
    let val_before = val(&w);
    let mut first = None;
    let mut last = 0.0;
    let progress = std::io::stderr().is_terminal();
    let started = Instant::now();
    for epoch in 1..=args.epochs {
        let (loss, mut g) = parallel_gradient(&data, &train, &w, k, args.lambda, threads);
        if args.l2 > 0.0 {
            for ((gi, wi), ai) in g.iter_mut().zip(&w).zip(&anchor) {
                gi.0 += 2.0 * args.l2 * (wi.0 - ai.0);
                gi.1 += 2.0 * args.l2 * (wi.1 - ai.1);
            }
        }
        first.get_or_insert(loss);
        last = loss;
        let t = i32::try_from(epoch).unwrap_or(i32::MAX);
        let step = |g: f64, m: &mut f64, v: &mut f64, w: &mut f64| {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            let mh = *m / (1.0 - b1.powi(t));
            let vh = *v / (1.0 - b2.powi(t));
            *w -= args.rate * mh / (vh.sqrt() + eps);
        };
        for (((g, m), v), w) in g.iter().zip(&mut m).zip(&mut v).zip(&mut w) {
            step(g.0, &mut m.0, &mut v.0, &mut w.0);
            step(g.1, &mut m.1, &mut v.1, &mut w.1);
        }
        // The king's material is no weight: every position has one each.
        w[hashmate_engine::eval::terms::MATERIAL + 5] = (0.0, 0.0);
        diverged(loss, &w).map_err(|why| TexelError::Diverged {
            epoch: Some(epoch),
            why,
            rate: args.rate,
        })?;
        if progress || epoch % 50 == 0 || epoch == args.epochs {
            eprint!(
                "{}epoch {epoch}/{}: loss {loss:.6}, {:.0} s{}",
                if progress { "\r" } else { "" },
                args.epochs,
                started.elapsed().as_secs_f64(),
                if progress { "   " } else { "\n" }
            );
        }
    }
    if progress {
        eprintln!();
    }
    let val_after = val(&w);
    diverged(val_after, &w).map_err(|why| TexelError::Diverged {
        epoch: None,
        why,
        rate: args.rate,
    })?;
    Ok(Fit {
        weights: w,
        train: (first.unwrap_or(last), last),
        validation: (val_before, val_after),
        k,
    })
}

/// Weights beyond this many centipawns are a diverged fit, not an
/// evaluation (the weights file holds them as they are).
const MAX_WEIGHT: f64 = 30_000.0;

/// Why a loss and weights are not a usable fit, if they are not.
fn diverged(loss: f64, w: &[(f64, f64)]) -> Result<(), String> {
    if !loss.is_finite() {
        return Err(format!("the loss is {loss}"));
    }
    for (i, &(m, e)) in w.iter().enumerate() {
        for x in [m, e] {
            if x.is_nan() || x.abs() > MAX_WEIGHT {
                return Err(format!("weight {i} is {x:.3e}, beyond ±{MAX_WEIGHT} cp"));
            }
        }
    }
    Ok(())
}

/// The weights as the Rust source of `eval/weights.rs`.
pub fn weights_source(w: &[(f64, f64)], provenance: &str) -> String {
    let mut out = String::new();
    out.push_str("//! The evaluation's weights, generated by `hashmate tune` (see\n");
    out.push_str("//! docs/STRENGTH.md for the data and the command); do not edit by hand.\n");
    out.push_str("//! Each entry is `S(middlegame, endgame)` in centipawns; groups are laid\n");
    out.push_str("//! out as in `terms`.\n");
    for line in provenance.lines() {
        out.push_str(&format!("//!\n//! {line}\n"));
    }
    out.push_str("\nuse super::terms::NUM_WEIGHTS;\nuse super::S;\n\n");
    out.push_str("/// Every weight of the evaluation.\n#[rustfmt::skip]\n");
    out.push_str("pub const WEIGHTS: [S; NUM_WEIGHTS] = [\n");
    for g in GROUPS {
        out.push_str(&format!("    // {}\n", g.name));
        let vals: Vec<String> = w[g.start..g.start + g.len]
            .iter()
            .map(|&(m, e)| {
                let clamp = |x: f64| x.round().clamp(-MAX_WEIGHT, MAX_WEIGHT) as i32;
                format!("S({}, {})", clamp(m), clamp(e))
            })
            .collect();
        for row in vals.chunks(8) {
            out.push_str(&format!("    {},\n", row.join(", ")));
        }
    }
    out.push_str("];\n");
    out
}

/// Parse weights back from `weights_source`'s output.
pub fn parse_weights(source: &str) -> Option<Vec<(f64, f64)>> {
    // Files written before the table became a `const` say `static`.
    let body = source
        .split_once("pub const WEIGHTS")
        .or_else(|| source.split_once("pub static WEIGHTS"))?
        .1;
    let mut w = Vec::new();
    for part in body.split("S(").skip(1) {
        let inner = part.split(')').next()?;
        let (m, e) = inner.split_once(',')?;
        w.push((m.trim().parse().ok()?, e.trim().parse().ok()?));
    }
    (w.len() == NUM_WEIGHTS).then_some(w)
}

/// Run `hashmate tune`.
pub fn run(args: &TexelArgs) -> ExitCode {
    match tune(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hashmate texel: {e}");
            ExitCode::from(2)
        }
    }
}

fn tune(args: &TexelArgs) -> Result<(), TexelError> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(TexelError::Lambda(args.lambda));
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        return Err(TexelError::Rate);
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(TexelError::L2);
    }
    // Refuse an output that cannot be written before the work, not after.
    hashmate_data::files::check_output(&args.out)?;
    // Never write the weights over the training data.
    if let Some(d) = args
        .data
        .iter()
        .find(|d| hashmate_data::files::same_file(d, &args.out))
    {
        return Err(TexelError::OutputIsInput {
            out: args.out.clone(),
            data: d.clone(),
        });
    }
    let start = if args.from_scratch {
        let mut w = vec![(0.0, 0.0); NUM_WEIGHTS];
        for (i, v) in [
            (100.0, 125.0),
            (320.0, 300.0),
            (335.0, 315.0),
            (480.0, 530.0),
            (960.0, 990.0),
        ]
        .into_iter()
        .enumerate()
        {
            w[hashmate_engine::eval::terms::MATERIAL + i] = v;
        }
        w
    } else {
        hashmate_engine::eval::weights::WEIGHTS
            .iter()
            .map(|s| (f64::from(s.0), f64::from(s.1)))
            .collect()
    };
    let t0 = Instant::now();
    let data = load(&args.data, args.limit)?;
    let n = data.samples.len();
    eprintln!("traced in {:.0} s", t0.elapsed().as_secs_f64());
    let f = fit(data, start, args)?;
    eprintln!(
        "K {:.3}; training loss {:.6} -> {:.6}; held-out loss {:.6} -> {:.6}",
        f.k, f.train.0, f.train.1, f.validation.0, f.validation.1
    );
    // File names only: the folders are this machine's, not the fit's.
    let names: Vec<String> = args
        .data
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect();
    let provenance = format!(
        "Fitted on {n} positions of {} for {} epochs (lambda {}, rate {}, l2 {}, K {:.3});\nheld-out loss {:.6} -> {:.6}.",
        names.join(", "),
        args.epochs,
        args.lambda,
        args.rate,
        args.l2,
        f.k,
        f.validation.0,
        f.validation.1
    );
    hashmate_data::files::write_atomically(
        &args.out,
        weights_source(&f.weights, &provenance).as_bytes(),
    )?;
    eprintln!("weights written to {}", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_weights_round_trip_through_the_writer() {
        let w: Vec<(f64, f64)> = hashmate_engine::eval::weights::WEIGHTS
            .iter()
            .map(|s| (f64::from(s.0), f64::from(s.1)))
            .collect();
        let src = weights_source(&w, "test");
        assert_eq!(parse_weights(&src), Some(w));
    }
}
