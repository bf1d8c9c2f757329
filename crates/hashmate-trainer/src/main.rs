//! `hashmate-train`: fit hashmate's NNUE to `hashmate datagen` data.

use clap::Parser;
use hashmate_data::files::write_atomically;
use hashmate_nnue::KingBuckets;
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
    /// King buckets of the inputs: `none` (768 plain inputs), a mirrored
    /// layout by its number of buckets (1 = mirroring alone, 2, 4, 8, 16;
    /// docs/NNUE.md), or 32 comma-separated bucket numbers for the own
    /// king's squares on files a-d, rank by rank (a1 b1 c1 d1 a2 ... d8).
    #[arg(long, default_value = "none", value_parser = parse_king_buckets)]
    king_buckets: KingBuckets,
    /// With --king-buckets: give every input a column shared by all king
    /// buckets besides its own, so that each position teaches every
    /// bucket (folded into each bucket's column in the net written: the
    /// engine sees the usual shape).
    #[arg(long)]
    factoriser: bool,
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
    if a.factoriser && a.king_buckets == KingBuckets::PLAIN {
        return Err(
            "--factoriser shares columns between king buckets: it needs --king-buckets".into(),
        );
    }
    let out = a.out.as_ref().ok_or("--out is required")?;
    let cfg = Config {
        kings: a.king_buckets,
        factoriser: a.factoriser,
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
        let n =
            hashmate_trainer::net::Layout::new(cfg.kings, cfg.hidden, cfg.buckets, true).len as u64;
        let max = 28 + 32 + 16 * 1_000_000 + 12 * n + 8;
        let bytes = hashmate_data::files::read_limited(&ckpt, max, "checkpoint")?;
        let s = checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", ckpt.display()))?;
        let shape = (s.params.kings, s.params.hidden, s.params.buckets);
        if shape != (cfg.kings, cfg.hidden, cfg.buckets) {
            return Err(format!("{}: {}", ckpt.display(), shape_clash(shape, &cfg)).into());
        }
        if s.params.factorised != cfg.factoriser {
            let with = if s.params.factorised {
                "with"
            } else {
                "without"
            };
            return Err(format!(
                "{}: a run {with} a factoriser; resume it {with} --factoriser",
                ckpt.display()
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
        let shape = (*net.king_buckets(), net.hidden(), net.buckets());
        if shape != (cfg.kings, cfg.hidden, cfg.buckets) {
            return Err(format!("{}: {}", init.display(), shape_clash(shape, &cfg)).into());
        }
        eprintln!("fine-tuning {}", init.display());
        let params = Params::from_network(&net);
        State::from_params(if cfg.factoriser {
            params.with_factoriser()
        } else {
            params
        })
    } else {
        State::try_new(&cfg)?
    };
    let validation = data.validation_samples()?;
    eprintln!(
        "{} records in {} files: {} training blocks, {} validation blocks ({} trainable validation positions); net {}",
        data.records,
        data.files().len(),
        data.train.len(),
        data.validation.len(),
        validation.len(),
        architecture(&cfg.kings, cfg.hidden, cfg.buckets)
            + if cfg.factoriser { ", factorised" } else { "" }
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

/// The value of `--king-buckets`: `none`, a preset's number of buckets, or
/// 32 comma-separated bucket numbers.
fn parse_king_buckets(v: &str) -> Result<KingBuckets, String> {
    let v = v.trim();
    if v == "none" {
        return Ok(KingBuckets::PLAIN);
    }
    if !v.contains(',') {
        let n: usize = v
            .parse()
            .map_err(|_| format!("{v:?}: not `none`, a number of buckets or a map of 32"))?;
        return KingBuckets::preset(n).ok_or(format!(
            "no preset of {n} king buckets (1, 2, 4, 8 and 16 are; or give a map of 32 numbers)"
        ));
    }
    let numbers = v
        .split(',')
        .map(|x| x.trim().parse::<u8>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{v:?}: a map of bucket numbers 0 to 31: {e}"))?;
    let half: [u8; 32] = numbers.as_slice().try_into().map_err(|_| {
        format!(
            "a map of {} numbers; it takes 32 (the own king's squares on files a-d, a1 b1 c1 d1 a2 ... d8)",
            numbers.len()
        )
    })?;
    KingBuckets::mirrored(&half).map_err(|e| e.to_string())
}

/// A net's inputs in words: `plain` or the king buckets and their map.
fn describe_kings(kings: &KingBuckets) -> String {
    if *kings == KingBuckets::PLAIN {
        "no king buckets".to_string()
    } else {
        let map: Vec<String> = kings.half_map().iter().map(u8::to_string).collect();
        format!(
            "{} mirrored king buckets ({})",
            kings.count(),
            map.join(",")
        )
    }
}

/// `(768 -> N)x2 -> 1 x B output buckets`, with the king buckets when
/// there are some.
fn architecture(kings: &KingBuckets, hidden: usize, buckets: usize) -> String {
    if *kings == KingBuckets::PLAIN {
        format!("(768 -> {hidden})x2 -> 1 x {buckets} output buckets")
    } else {
        format!(
            "(768 x {} -> {hidden})x2 -> 1 x {buckets} output buckets, {}",
            kings.count(),
            describe_kings(kings)
        )
    }
}

/// Why a net or checkpoint of `shape` cannot continue under `cfg`.
fn shape_clash((kings, hidden, buckets): (KingBuckets, usize, usize), cfg: &Config) -> String {
    format!(
        "a net of {hidden} neurons, {buckets} output buckets and {}, not --hidden {} --output-buckets {} with {}",
        describe_kings(&kings),
        cfg.hidden,
        cfg.buckets,
        describe_kings(&cfg.kings)
    )
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
