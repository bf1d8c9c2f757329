//! `hashmate-train`: fit hashmate's NNUE to `hashmate datagen` data.

use clap::Parser;
use hashmate_data::files::write_atomically;
use hashmate_trainer::checkpoint;
use hashmate_trainer::data::{is_file, DataSet};
use hashmate_trainer::net::Params;
use hashmate_trainer::train::{self, loss_svg, Config, State};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Train the network on the engine's own self-play positions.
///
/// Writes into --out: `net.nnue` (the quantised network after the last
/// epoch, also kept as `net-eN.nnue`), `checkpoint.bin` (to resume with
/// --resume), `loss.csv` and `loss.svg` (the loss per epoch).
#[derive(Parser, Debug)]
#[command(name = "hashmate-train", version)]
struct Args {
    /// Training data files: `hashmate datagen` records, or the same games
    /// packed by `hashmate data pack` (told apart by their first bytes).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Output directory (created if missing).
    #[arg(long, required_unless_present = "validate")]
    out: Option<PathBuf>,
    /// Train nothing: score these net files (`.nnue`) on the validation
    /// blocks of --data (as --block and --val-every choose them) with
    /// --lambda's loss, so that nets trained on different data compare on
    /// one set of positions.
    #[arg(long, num_args = 1.., conflicts_with_all = ["out", "resume"])]
    validate: Vec<PathBuf>,
    /// Neurons per perspective.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hidden: u32,
    /// Output buckets: output layers chosen by the number of pieces on
    /// the board (1, or up to 8: (pieces - 2) / 4 with 8).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=8))]
    output_buckets: u16,
    /// Passes over the data.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    epochs: u32,
    /// Positions per batch.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..))]
    batch: u32,
    /// Learning rate at the start.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Learning rate at the end (cosine decay).
    #[arg(long, default_value_t = 0.00001)]
    lr_end: f32,
    /// AdamW weight decay.
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Weight of the game result in the target, 0 to 1 (the rest: the
    /// search score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Threads.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Records per block (the unit of shuffling and of the validation
    /// split).
    #[arg(long, default_value_t = 65536, value_parser = clap::value_parser!(u64).range(1..))]
    block: u64,
    /// Every N-th block is kept for validation (0: none).
    #[arg(long, default_value_t = 50)]
    val_every: u64,
    /// Blocks shuffled together (memory: about 150 bytes a record).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    buffer_blocks: u32,
    /// Continue from `checkpoint.bin` in --out.
    #[arg(long)]
    resume: bool,
    /// Start a new run in an --out that already holds one (its
    /// checkpoint, nets and loss curve are replaced). Without it such an
    /// --out is refused: --resume continues the run there.
    #[arg(long, conflicts_with = "resume")]
    force: bool,
    /// Start from this net file (`.nnue`, `<internal>` for the engine's
    /// embedded net) instead of random weights: fine-tuning an earlier
    /// net on new data. Its shape must be --hidden and --output-buckets.
    #[arg(long, conflicts_with = "resume")]
    init: Option<PathBuf>,
    /// Mirror each position without castling rights left to right with
    /// probability 1/2 each epoch (data augmentation).
    #[arg(long)]
    mirror: bool,
}

fn main() -> ExitCode {
    let a = Args::parse();
    match run(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hashmate-train: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(a: &Args) -> Result<(), Box<dyn std::error::Error>> {
    for (name, v, lo, hi) in [
        ("--lr", a.lr, 0.0, 1.0),
        ("--lr-end", a.lr_end, 0.0, 1.0),
        ("--weight-decay", a.weight_decay, 0.0, 1.0),
        ("--lambda", a.lambda, 0.0, 1.0),
    ] {
        if !(v.is_finite() && v >= lo && v <= hi) {
            return Err(format!("{name} {v}: must be between {lo} and {hi}").into());
        }
    }
    for d in &a.data {
        if !is_file(d) {
            return Err(format!("{}: not a readable regular file", d.display()).into());
        }
    }
    if !a.validate.is_empty() {
        return validate(a);
    }
    let out = a.out.as_ref().ok_or("--out is required")?;
    let cfg = Config {
        hidden: a.hidden as usize,
        buckets: usize::from(a.output_buckets),
        epochs: a.epochs,
        batch: a.batch as usize,
        lr: a.lr,
        lr_end: a.lr_end,
        weight_decay: a.weight_decay,
        lambda: a.lambda,
        threads: a.threads as usize,
        seed: a.seed,
        buffer_blocks: a.buffer_blocks as usize,
        mirror: a.mirror,
    };
    let data = DataSet::open(&a.data, a.block, a.val_every)?;
    let ckpt = out.join("checkpoint.bin");
    // What the run writes in --out; none of it may be overwritten by
    // accident.
    let writes = |name: &str| {
        name == "net.nnue"
            || name == "checkpoint.bin"
            || name == "loss.csv"
            || name == "loss.svg"
            || name
                .strip_prefix("net-e")
                .and_then(|n| n.strip_suffix(".nnue"))
                .is_some_and(|n| n.parse::<u32>().is_ok())
    };
    if let Some(init) = &a.init {
        let clash = init
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(writes)
            && init
                .parent()
                .is_some_and(|d| hashmate_data::files::same_file(d, out));
        if clash {
            return Err(format!(
                "--init {} is a net this run would write over in --out {}; choose another --out",
                init.display(),
                out.display()
            )
            .into());
        }
    }
    if !a.resume && !a.force && out.is_dir() {
        let held: Vec<String> = std::fs::read_dir(out)
            .map_err(|e| format!("{}: {e}", out.display()))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| writes(n))
            .collect();
        if !held.is_empty() {
            return Err(format!(
                "{} holds a training run ({}); --resume continues it, --force starts over in it",
                out.display(),
                held.join(", ")
            )
            .into());
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: cannot create: {e}", out.display()))?;
    let mut state = if a.resume {
        // A checkpoint of this shape is at most this long (a history of a
        // million epochs included): anything else is not one.
        let n = hashmate_trainer::net::Layout::new(cfg.hidden, cfg.buckets).len as u64;
        let max = 28 + 16 * 1_000_000 + 12 * n + 8;
        let bytes = hashmate_data::files::read_limited(&ckpt, max, "checkpoint")?;
        let s = checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", ckpt.display()))?;
        if (s.params.hidden, s.params.buckets) != (cfg.hidden, cfg.buckets) {
            return Err(format!(
                "{}: a net of {} neurons and {} output buckets, not --hidden {} --output-buckets {}",
                ckpt.display(),
                s.params.hidden,
                s.params.buckets,
                cfg.hidden,
                cfg.buckets
            )
            .into());
        }
        if s.epoch >= cfg.epochs {
            eprintln!(
                "{}: {} epochs are done already, and --epochs is {}: nothing to train (a larger --epochs continues)",
                ckpt.display(),
                s.epoch,
                cfg.epochs
            );
            return Ok(());
        }
        eprintln!("resuming after epoch {} ({} steps)", s.epoch, s.step);
        s
    } else if let Some(init) = &a.init {
        let net = hashmate_data::net::load(&init.to_string_lossy())?;
        if (net.hidden(), net.buckets()) != (cfg.hidden, cfg.buckets) {
            return Err(format!(
                "{}: a net of {} neurons and {} output buckets, not --hidden {} --output-buckets {}",
                init.display(),
                net.hidden(),
                net.buckets(),
                cfg.hidden,
                cfg.buckets
            )
            .into());
        }
        eprintln!("fine-tuning {}", init.display());
        State::from_params(Params::from_network(&net))
    } else {
        State::try_new(&cfg)?
    };
    let validation = data.validation_samples()?;
    eprintln!(
        "{} records in {} files: {} training blocks, {} validation blocks ({} trainable validation positions); net (768 -> {})x2 -> 1 x {} output buckets",
        data.records,
        data.files().len(),
        data.train.len(),
        data.validation.len(),
        validation.len(),
        cfg.hidden,
        cfg.buckets
    );
    let terminal = std::io::stderr().is_terminal();
    while state.epoch < cfg.epochs {
        let mut last = Instant::now();
        let mut show = |p: &train::Progress| {
            if last.elapsed().as_secs_f64() < if terminal { 0.5 } else { 30.0 } {
                return;
            }
            last = Instant::now();
            let rate = p.positions as f64 / p.seconds.max(1e-9);
            let left = (p.records.1 - p.records.0) as f64 / (p.records.0 as f64 / p.seconds);
            let line = format!(
                "epoch {}/{}: {:.1} % of records, {} positions, {:.0} pos/s, loss {:.6}, ETA {:.0} s",
                p.epoch.0,
                p.epoch.1,
                100.0 * p.records.0 as f64 / p.records.1 as f64,
                p.positions,
                rate,
                p.loss,
                left
            );
            if terminal {
                eprint!("\r{line}   ");
            } else {
                eprintln!("{line}");
            }
        };
        let r = train::epoch(&data, &validation, &cfg, &mut state, &mut show)?;
        if terminal {
            eprintln!();
        }
        // The same line as ever when there are validation positions; no
        // figure computed over none.
        let (validation, quantisation) = match (r.val_loss, r.quant_error) {
            (Some(loss), Some((mean, max))) => (
                format!("validation loss {loss:.6}"),
                format!(", quantisation error mean {mean:.2} cp, max {max:.1} cp"),
            ),
            _ => (
                "no validation positions (--val-every 0, or too little data for a validation block)"
                    .to_string(),
                String::new(),
            ),
        };
        println!(
            "epoch {}: train loss {:.6}, {validation}, {} positions in {:.1} s ({:.0} pos/s){quantisation}",
            r.epoch,
            r.train_loss,
            r.positions,
            r.seconds,
            r.positions as f64 / r.seconds.max(1e-9),
        );
        let _ = std::io::stdout().flush();
        let net = state.params.quantise().to_bytes();
        let path = out.join(format!("net-e{}.nnue", r.epoch));
        write_atomically(&path, &net).map_err(|e| e.to_string())?;
        let path = out.join("net.nnue");
        write_atomically(&path, &net).map_err(|e| e.to_string())?;
        write_atomically(&ckpt, &checkpoint::to_bytes(&state)).map_err(|e| e.to_string())?;
        let mut csv = String::from("epoch,train_loss,validation_loss\n");
        for (i, (t, v)) in state.history.iter().enumerate() {
            // No validation loss: an empty field, not a made-up number.
            let v = if v.is_finite() {
                format!("{v:.8}")
            } else {
                String::new()
            };
            csv += &format!("{},{t:.8},{v}\n", i + 1);
        }
        let path = out.join("loss.csv");
        write_atomically(&path, csv.as_bytes()).map_err(|e| e.to_string())?;
        let path = out.join("loss.svg");
        write_atomically(&path, loss_svg(&state.history).as_bytes()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `--validate`: each net's loss on the validation positions of --data.
fn validate(a: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let nets = a
        .validate
        .iter()
        // The engine's loader: size-limited, refuses a directory, names
        // the file in every error; `<internal>` is the embedded net.
        .map(|p| hashmate_data::net::load(&p.to_string_lossy()))
        .collect::<Result<Vec<_>, _>>()?;
    let data = DataSet::open(&a.data, a.block, a.val_every)?;
    // The validation positions of each file apart: the layout of blocks
    // depends on the files before, so a file's share is held out by every
    // run whose data list began with the same files.
    let mut by_file = vec![Vec::new(); data.files().len()];
    for &b in &data.validation {
        data.read(b, &mut by_file[b.file()])?;
    }
    let validation: Vec<_> = by_file.concat();
    if validation.is_empty() {
        return Err(
            "no validation positions: --val-every 0, or too little data for one validation block"
                .into(),
        );
    }
    eprintln!(
        "{} records in {} files: {} validation blocks, {} trainable validation positions, lambda {}",
        data.records,
        data.files().len(),
        data.validation.len(),
        validation.len(),
        a.lambda
    );
    let threads = a.threads as usize;
    for (path, net) in a.validate.iter().zip(&nets) {
        let loss = train::quantised_loss(net, &validation, a.lambda, threads);
        println!("{}: validation loss {loss:.6}", path.display());
        if by_file.len() > 1 {
            for (file, samples) in data.files().iter().zip(&by_file) {
                let loss = train::quantised_loss(net, samples, a.lambda, threads);
                println!(
                    "  {}: {loss:.6} over {} positions",
                    file.display(),
                    samples.len()
                );
            }
        }
    }
    Ok(())
}
