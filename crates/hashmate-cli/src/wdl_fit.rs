//! `hashmate wdl-fit`: fit the win/draw/loss model
//! ([`hashmate_engine::eval::wdl`]) to the engine's own games.
//!
//! Every record of `hashmate datagen` data with a search score short of a
//! mate is a sample: the score and the outcome from the side to move's
//! view, and the material on the board. The eight coefficients of `a(m)`
//! and `b(m)` are fitted by maximum likelihood (the mean log-loss of the
//! outcome), full batch, with Adam. Every `--holdout`-th game is left out
//! of the fit; the report compares prediction and outcome on those games:
//! the log-loss against that of the outcome frequencies alone, and a
//! calibration table by predicted expected score, and the log-loss of the
//! model the engine compiles today on the same games (is a refit worth
//! taking?). The coefficients are printed as the Rust constant the engine
//! compiles.

use clap::Args;
use hashmate_data::record::{Record, MATE_SCORE, RECORD_BYTES};
use hashmate_engine::eval::wdl::{material, material_input, WdlModel, MODEL};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `hashmate wdl-fit`.
#[derive(Args, Debug, Clone)]
pub struct WdlFitArgs {
    /// Training files written by `hashmate datagen` (repeatable).
    #[arg(long = "data", required = true)]
    pub data: Vec<PathBuf>,
    /// Every N-th game is held out of the fit and used to check it.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..=1000))]
    pub holdout: u64,
    /// Full passes of Adam over the data.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub steps: u32,
    /// Use at most this many records (0: all).
    #[arg(long, default_value_t = 0)]
    pub limit: usize,
}

/// One position: the side to move's score, the material input `m`, and
/// the outcome for the side to move (0 loss, 1 draw, 2 win).
#[derive(Clone, Copy)]
struct Sample {
    score: f32,
    m: f32,
    outcome: u8,
}

/// Why the fit could not be made.
#[derive(Debug)]
pub enum WdlFitError {
    /// A data file is refused or unreadable.
    File(hashmate_data::files::FileError),
    /// Reading failed part-way.
    Read(PathBuf, std::io::Error),
    /// A file's length is not a whole number of records.
    NotRecords(PathBuf, u64),
    /// Too many records are not valid positions.
    Unreadable(usize),
    /// Too few samples on one side of the split to fit or to check.
    TooFew {
        /// Samples to fit on.
        fit: usize,
        /// Samples held out.
        held: usize,
    },
}

impl std::fmt::Display for WdlFitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WdlFitError::File(e) => write!(f, "{e}"),
            WdlFitError::Read(p, e) => write!(f, "cannot read '{}': {e}", p.display()),
            WdlFitError::NotRecords(p, len) => write!(
                f,
                "'{}' is not training data: {len} bytes is not a whole number of {RECORD_BYTES}-byte records",
                p.display()
            ),
            WdlFitError::Unreadable(n) => {
                write!(f, "{n} records are not valid positions: not training data?")
            }
            WdlFitError::TooFew { fit, held } => write!(
                f,
                "too few positions: {fit} to fit and {held} held out (at least 1,000 and 100 needed)"
            ),
        }
    }
}

impl std::error::Error for WdlFitError {}

/// Read the samples, split by game: `(fit, held out)`.
fn load(args: &WdlFitArgs) -> Result<(Vec<Sample>, Vec<Sample>), WdlFitError> {
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    let (mut bad, mut read_total, mut game) = (0usize, 0usize, 0u64);
    'files: for path in &args.data {
        hashmate_data::files::require_regular(path, "training data").map_err(WdlFitError::File)?;
        let read = |e| WdlFitError::Read(path.clone(), e);
        let file = std::fs::File::open(path).map_err(read)?;
        let len = file.metadata().map_err(read)?.len();
        if len % RECORD_BYTES as u64 != 0 {
            return Err(WdlFitError::NotRecords(path.clone(), len));
        }
        let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
        let mut buf = [0u8; RECORD_BYTES];
        loop {
            if args.limit > 0 && read_total >= args.limit {
                break 'files;
            }
            match reader.read_exact(&mut buf) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(read(e)),
            }
            read_total += 1;
            let Ok(rec) = Record::decode(&buf) else {
                bad += 1;
                continue;
            };
            if rec.first_of_game {
                game += 1;
            }
            if rec.score.unsigned_abs() >= MATE_SCORE as u16 {
                continue;
            }
            let white = rec.pos.side_to_move() == hashmate::Color::White;
            let (score, outcome) = if white {
                (rec.score, rec.result as u8)
            } else {
                (-rec.score, 2 - rec.result as u8)
            };
            let s = Sample {
                score: f32::from(score),
                m: material_input(material(&rec.pos)) as f32,
                outcome,
            };
            if game % args.holdout == 0 {
                held.push(s);
            } else {
                fit.push(s);
            }
        }
    }
    if bad > read_total / 100 + 10 {
        return Err(WdlFitError::Unreadable(bad));
    }
    if fit.len() < 1000 || held.len() < 100 {
        return Err(WdlFitError::TooFew {
            fit: fit.len(),
            held: held.len(),
        });
    }
    eprintln!(
        "{read_total} records of {game} games: {} positions to fit, {} held out (every {}th game); mate scores skipped",
        fit.len(),
        held.len(),
        args.holdout
    );
    Ok((fit, held))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The smallest probability a log-loss counts (a sure prediction that is
/// wrong would otherwise cost infinity).
const FLOOR: f64 = 1e-9;

/// Mean log-loss of `model` over `samples`, and its gradient in the eight
/// coefficients (`a` then `b`).
fn loss_and_gradient(model: &WdlModel, samples: &[Sample]) -> (f64, [f64; 8]) {
    let mut loss = 0.0;
    let mut grad = [0.0; 8];
    for s in samples {
        let m = f64::from(s.m);
        let v = f64::from(s.score);
        let (a, b) = model.params(m);
        let b = b.max(1.0);
        let pw = sigmoid((v - a) / b);
        let pl = sigmoid((-v - a) / b);
        // d/da and d/db of the log-probability of the outcome.
        // dσ(x)/dx = σ(1 − σ); x_w = (v − a)/b, x_l = (−v − a)/b.
        let dw_da = -pw * (1.0 - pw) / b;
        let dw_db = -pw * (1.0 - pw) * (v - a) / (b * b);
        let dl_da = -pl * (1.0 - pl) / b;
        let dl_db = -pl * (1.0 - pl) * (-v - a) / (b * b);
        let (p, dp_da, dp_db) = match s.outcome {
            2 => (pw, dw_da, dw_db),
            0 => (pl, dl_da, dl_db),
            _ => (1.0 - pw - pl, -dw_da - dl_da, -dw_db - dl_db),
        };
        let p = p.max(FLOOR);
        loss -= p.ln();
        // d(−ln p) = −dp / p, spread over the powers of m.
        let (ga, gb) = (-dp_da / p, -dp_db / p);
        let mut mk = 1.0;
        for k in 0..4 {
            grad[k] += ga * mk;
            grad[4 + k] += gb * mk;
            mk *= m;
        }
    }
    let n = samples.len() as f64;
    grad.iter_mut().for_each(|g| *g /= n);
    (loss / n, grad)
}

/// The same over two threads.
fn loss_and_gradient_par(model: &WdlModel, samples: &[Sample]) -> (f64, [f64; 8]) {
    let half = samples.len() / 2;
    let (left, right) = samples.split_at(half);
    let (l1, g1, l2, g2) = std::thread::scope(|s| {
        // Without memory for a second thread's stack, one thread does both.
        let h = std::thread::Builder::new().spawn_scoped(s, || loss_and_gradient(model, right));
        let (l1, g1) = loss_and_gradient(model, left);
        let (l2, g2) = match h {
            Ok(h) => h.join().expect("the gradient thread does not panic"),
            Err(_) => loss_and_gradient(model, right),
        };
        (l1, g1, l2, g2)
    });
    let (w1, w2) = (left.len() as f64, right.len() as f64);
    let n = w1 + w2;
    let mut g = [0.0; 8];
    for k in 0..8 {
        g[k] = (g1[k] * w1 + g2[k] * w2) / n;
    }
    ((l1 * w1 + l2 * w2) / n, g)
}

/// Adam, full batch, from a flat start (`a` = 150 cp, `b` = 80 cp).
fn fit(samples: &[Sample], steps: u32) -> WdlModel {
    let mut p = [150.0, 0.0, 0.0, 0.0, 80.0, 0.0, 0.0, 0.0];
    let (mut m1, mut m2) = ([0.0f64; 8], [0.0f64; 8]);
    let (beta1, beta2, rate) = (0.9f64, 0.999f64, 2.0f64);
    let model = |p: &[f64; 8]| WdlModel {
        a: [p[0], p[1], p[2], p[3]],
        b: [p[4], p[5], p[6], p[7]],
    };
    for t in 1..=steps {
        let (loss, g) = loss_and_gradient_par(&model(&p), samples);
        // Cosine decay to a tenth of the rate, for a quiet end.
        let done = f64::from(t) / f64::from(steps);
        let step = rate * (0.1 + 0.45 * (1.0 + (std::f64::consts::PI * done).cos()));
        for k in 0..8 {
            m1[k] = beta1 * m1[k] + (1.0 - beta1) * g[k];
            m2[k] = beta2 * m2[k] + (1.0 - beta2) * g[k] * g[k];
            let mh = m1[k] / (1.0 - beta1.powi(t as i32));
            let vh = m2[k] / (1.0 - beta2.powi(t as i32));
            p[k] -= step * mh / (vh.sqrt() + 1e-12);
        }
        if t % 100 == 0 || t == steps {
            eprintln!("step {t}: log-loss {loss:.5}");
        }
    }
    model(&p)
}

/// The log-loss of predicting the outcome frequencies of `of` everywhere,
/// on `samples`.
fn baseline_loss(of: &[Sample], samples: &[Sample]) -> f64 {
    let mut freq = [0.0f64; 3];
    for s in of {
        freq[s.outcome as usize] += 1.0;
    }
    let n = of.len() as f64;
    freq.iter_mut().for_each(|f| *f = (*f / n).max(FLOOR));
    -samples
        .iter()
        .map(|s| freq[s.outcome as usize].ln())
        .sum::<f64>()
        / samples.len() as f64
}

/// Calibration on the held-out samples: by predicted expected score (a
/// win plus half a draw), ten bins; each row the predicted and the
/// observed win, draw and loss rates.
fn calibration(model: &WdlModel, held: &[Sample]) -> String {
    let mut rows = [[0.0f64; 7]; 10];
    for s in held {
        let (a, b) = model.params(f64::from(s.m));
        let b = b.max(1.0);
        let v = f64::from(s.score);
        let pw = sigmoid((v - a) / b);
        let pl = sigmoid((-v - a) / b);
        let pd = (1.0 - pw - pl).max(0.0);
        let bin = (((pw + pd / 2.0) * 10.0) as usize).min(9);
        let r = &mut rows[bin];
        r[0] += 1.0;
        r[1] += pw;
        r[2] += pd;
        r[3] += pl;
        r[4 + usize::from(2 - s.outcome)] += 1.0;
    }
    let mut out = String::from(
        "| predicted score | positions | predicted W / D / L | observed W / D / L |\n| --- | ---: | --- | --- |\n",
    );
    for (i, r) in rows.iter().enumerate() {
        if r[0] == 0.0 {
            continue;
        }
        let pct = |x: f64| 100.0 * x / r[0];
        out += &format!(
            "| {}–{} % | {} | {:.1} / {:.1} / {:.1} | {:.1} / {:.1} / {:.1} |\n",
            i * 10,
            i * 10 + 10,
            r[0],
            pct(r[1]),
            pct(r[2]),
            pct(r[3]),
            pct(r[4]),
            pct(r[5]),
            pct(r[6]),
        );
    }
    out
}

/// Run `hashmate wdl-fit`.
pub fn run(args: &WdlFitArgs) -> ExitCode {
    let (fit_set, held) = match load(args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("hashmate wdl-fit: {e}");
            return ExitCode::from(2);
        }
    };
    let model = fit(&fit_set, args.steps);
    let (fit_loss, _) = loss_and_gradient_par(&model, &fit_set);
    let (held_loss, _) = loss_and_gradient_par(&model, &held);
    println!(
        "fitted on {} positions; held out {}",
        fit_set.len(),
        held.len()
    );
    println!(
        "log-loss: fit {fit_loss:.4}, held out {held_loss:.4}; outcome frequencies alone {:.4}",
        baseline_loss(&fit_set, &held)
    );
    // The model the engine compiles, on the same held-out games: whether a
    // refit (a new net's games, another node budget) is worth taking.
    let (engine_loss, _) = loss_and_gradient_par(&MODEL, &held);
    println!("log-loss of the engine's current model on the held-out games: {engine_loss:.4}");
    println!();
    for (name, m) in [("17 (bare)", 17u32), ("40", 40), ("78 (all)", 78)] {
        let (a, b) = model.params(material_input(m));
        println!("material {name}: a = {a:.1} cp, b = {b:.1} cp");
    }
    println!();
    print!("{}", calibration(&model, &held));
    println!();
    let f = |c: &[f64; 4]| {
        c.iter()
            .map(|x| format!("{x:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "pub const MODEL: WdlModel = WdlModel {{\n    a: [{}],\n    b: [{}],\n}};",
        f(&model.a),
        f(&model.b)
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples drawn from a known model are fitted back to it.
    #[test]
    fn recovers_the_model_that_made_the_data() {
        let truth = WdlModel {
            a: [60.0, 80.0, 0.0, 0.0],
            b: [40.0, 30.0, 0.0, 0.0],
        };
        let mut rng = hashmate_hash::rng::SplitMix64::new(7);
        let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut samples = Vec::new();
        for _ in 0..60_000 {
            let m = 17.0 / 58.0 + unit() * (61.0 / 58.0);
            let v = (unit() - 0.5) * 800.0;
            let (a, b) = truth.params(m);
            let pw = sigmoid((v - a) / b);
            let pl = sigmoid((-v - a) / b);
            let u = unit();
            let outcome = if u < pw {
                2
            } else if u < pw + pl {
                0
            } else {
                1
            };
            samples.push(Sample {
                score: v as f32,
                m: m as f32,
                outcome,
            });
        }
        let got = fit(&samples, 1500);
        for m in [0.4, 0.8, 1.2] {
            let (a, b) = got.params(m);
            let (ta, tb) = truth.params(m);
            assert!(
                (a - ta).abs() < 15.0 && (b - tb).abs() < 10.0,
                "m {m}: {a} {b} vs {ta} {tb}"
            );
        }
        // And it beats the frequencies alone.
        let (l, _) = loss_and_gradient(&got, &samples);
        assert!(l < baseline_loss(&samples, &samples) - 0.1);
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let model = WdlModel {
            a: [120.0, 10.0, -5.0, 2.0],
            b: [70.0, 5.0, 1.0, -1.0],
        };
        let samples: Vec<Sample> = (0..300)
            .map(|i| Sample {
                score: (i as f32 - 150.0) * 3.0,
                m: 0.3 + (i % 10) as f32 * 0.1,
                outcome: (i % 3) as u8,
            })
            .collect();
        let (_, g) = loss_and_gradient(&model, &samples);
        for k in 0..8 {
            let mut p = [
                model.a[0], model.a[1], model.a[2], model.a[3], model.b[0], model.b[1], model.b[2],
                model.b[3],
            ];
            let h = 1e-4;
            p[k] += h;
            let up = WdlModel {
                a: [p[0], p[1], p[2], p[3]],
                b: [p[4], p[5], p[6], p[7]],
            };
            p[k] -= 2.0 * h;
            let down = WdlModel {
                a: [p[0], p[1], p[2], p[3]],
                b: [p[4], p[5], p[6], p[7]],
            };
            let num = (loss_and_gradient(&up, &samples).0 - loss_and_gradient(&down, &samples).0)
                / (2.0 * h);
            assert!(
                (num - g[k]).abs() < 1e-5 + 1e-3 * num.abs(),
                "{k}: {num} vs {}",
                g[k]
            );
        }
    }
}
