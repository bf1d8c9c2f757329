//! The trainer on a committed sample of the engine's own self-play data
//! (`tests/data/sample-12000.bin`: the first 12,000 records of data set 1,
//! see docs/NNUE.md).

use hashmate::Position;
use hashmate_nnue::{KingBuckets, Network};
use hashmate_trainer::checkpoint;
use hashmate_trainer::data::{DataError, DataSet, Sample};
use hashmate_trainer::net::{Params, Scratch};
use hashmate_trainer::train::{self, mean_loss, quantisation_error, quantised_loss, Config, State};
use std::path::PathBuf;

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample-12000.bin")
}

fn config(epochs: u32) -> Config {
    Config {
        kings: KingBuckets::PLAIN,
        factoriser: false,
        hidden: 16,
        buckets: 1,
        epochs,
        batch: 512,
        lr: 0.005,
        lr_end: 0.0005,
        weight_decay: 0.01,
        lambda: 0.5,
        threads: 2,
        seed: 3,
        buffer_blocks: 4,
        mirror: false,
    }
}

fn data() -> DataSet {
    DataSet::open(&[sample()], 1000, 6).unwrap()
}

/// A fresh state trained for `cfg.epochs`, whose validation loss fell by
/// more than 3 %.
fn trained_from_scratch(cfg: &Config, data: &DataSet, validation: &[Sample]) -> State {
    let mut state = State::new(cfg);
    let before = mean_loss(&state.params, validation, cfg.lambda, 2);
    run(cfg, &mut state, data, validation);
    let after = state.history.last().unwrap().1;
    assert!(after < before * 0.97, "validation loss {before} -> {after}");
    state
}

fn run(cfg: &Config, state: &mut State, data: &DataSet, validation: &[Sample]) {
    while state.epoch < cfg.epochs {
        train::epoch(data, validation, cfg, state, &mut |_| {}).unwrap();
    }
}

#[test]
fn the_loss_decreases() {
    let (data, cfg) = (data(), config(6));
    let validation = data.validation_samples().unwrap();
    assert!(validation.len() > 1000, "{}", validation.len());
    let mut state = State::new(&cfg);
    let before = mean_loss(&state.params, &validation, cfg.lambda, 2);
    run(&cfg, &mut state, &data, &validation);
    let train: Vec<f64> = state.history.iter().map(|h| h.0).collect();
    let after = state.history.last().unwrap().1;
    assert!(after < before * 0.97, "validation loss {before} -> {after}");
    assert!(train[5] < train[0] * 0.9, "training loss {train:?}");
}

/// The quantised net's integer evaluation stays within a few centipawns
/// of the float net's: mean under 5 cp, none over 40 cp on the validation
/// positions (measured: mean about 1–3 cp, max about 10–15 cp).
#[test]
fn the_quantised_net_agrees_with_the_float_net() {
    let (data, cfg) = (data(), config(4));
    let validation = data.validation_samples().unwrap();
    let mut state = State::new(&cfg);
    run(&cfg, &mut state, &data, &validation);
    let net = state.params.quantise();
    let (mean, max) = quantisation_error(&state.params, &net, &validation);
    assert!(mean < 5.0 && max < 40.0, "mean {mean} cp, max {max} cp");
    // The engine's path (features from a Position, accumulators by
    // refresh) gives the trainer's integer evaluation: the start position
    // through both.
    let pos = Position::startpos();
    let mut acc_path = Vec::new();
    hashmate_nnue::for_each_feature(&pos, |w, _| acc_path.push(w));
    let mut scratch = Scratch::new(16);
    let float = state.params.forward(
        &Sample {
            us: core::array::from_fn(|i| acc_path.get(i).map_or(0, |&f| f as u16)),
            them: {
                let mut t = [0u16; 32];
                let mut i = 0;
                hashmate_nnue::for_each_feature(&pos, |_, b| {
                    t[i] = b as u16;
                    i += 1;
                });
                t
            },
            len: acc_path.len() as u8,
            // e1, and e8 seen from Black's side.
            us_king: 4,
            them_king: 4,
            score: 0.0,
            result: 0.5,
            mirrorable: false,
        },
        &mut scratch,
    ) * 400.0;
    assert!((net.evaluate(&pos) as f32 - float).abs() < 20.0);
}

/// The quantised net's loss (what `--validate` reports for a net file)
/// is the float net's loss up to the quantisation: within 3 % after
/// training, and it tells a trained net from an untrained one.
#[test]
fn the_quantised_loss_follows_the_float_loss() {
    let (data, cfg) = (data(), config(4));
    let validation = data.validation_samples().unwrap();
    let mut state = State::new(&cfg);
    let untrained = quantised_loss(&state.params.quantise(), &validation, cfg.lambda, 2);
    run(&cfg, &mut state, &data, &validation);
    let float = mean_loss(&state.params, &validation, cfg.lambda, 2);
    let net = state.params.quantise();
    let quantised = quantised_loss(&net, &validation, cfg.lambda, 2);
    assert!(
        (quantised - float).abs() < 0.03 * float,
        "float {float}, quantised {quantised}"
    );
    assert!(quantised < untrained * 0.97, "{untrained} -> {quantised}");
    // The same on three threads as on two (up to the order of the sum).
    let three = quantised_loss(&net, &validation, cfg.lambda, 3);
    assert!((three - quantised).abs() < 1e-12, "{three} {quantised}");
    assert!(quantised_loss(&net, &[], cfg.lambda, 2).is_nan());
}

#[test]
fn a_written_net_and_checkpoint_read_back_identical() {
    let (data, cfg) = (data(), config(1));
    let validation = data.validation_samples().unwrap();
    let mut state = State::new(&cfg);
    run(&cfg, &mut state, &data, &validation);
    let net = state.params.quantise();
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    let ck = checkpoint::to_bytes(&state);
    assert_eq!(checkpoint::from_bytes(&ck).unwrap(), state);
    assert_eq!(
        checkpoint::from_bytes(&ck[..ck.len() - 3]),
        Err(checkpoint::CheckpointError::Length)
    );
    let mut bad = ck.clone();
    bad[100] ^= 4;
    assert_eq!(
        checkpoint::from_bytes(&bad),
        Err(checkpoint::CheckpointError::Checksum)
    );
    assert_eq!(
        checkpoint::from_bytes(&bytes),
        Err(checkpoint::CheckpointError::Header)
    );
}

/// Stopping after an epoch and resuming from the checkpoint gives the
/// same parameters as one uninterrupted run.
#[test]
fn a_resumed_run_equals_an_uninterrupted_one() {
    let data = data();
    let validation = data.validation_samples().unwrap();
    // With mirroring, whose random choices must resume too.
    let cfg = Config {
        mirror: true,
        ..config(3)
    };
    let mut straight = State::new(&cfg);
    run(&cfg, &mut straight, &data, &validation);
    // The same run (3 epochs) stopped after its first.
    let mut first = State::new(&cfg);
    train::epoch(&data, &validation, &cfg, &mut first, &mut |_| {}).unwrap();
    let mut resumed = checkpoint::from_bytes(&checkpoint::to_bytes(&first)).unwrap();
    run(&cfg, &mut resumed, &data, &validation);
    assert_eq!(resumed, straight);
}

#[test]
fn bad_data_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("hm-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [0u8; 33]).unwrap();
    assert!(matches!(
        DataSet::open(&[odd], 1000, 0),
        Err(DataError::Length(_, 33))
    ));
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, [0xffu8; 64]).unwrap();
    let set = DataSet::open(&[junk], 1000, 0).unwrap();
    let err = set.read(set.train[0], &mut Vec::new()).unwrap_err();
    assert!(matches!(err, DataError::Record(_, 0, _)), "{err}");
    assert!(matches!(
        DataSet::open(&[dir.join("missing.bin")], 1000, 0),
        Err(DataError::Io(..))
    ));
    assert!(matches!(
        DataSet::open(&[], 1000, 0),
        Err(DataError::Empty(_))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Blocks read on several threads come out in their order, as one
/// thread reads them; a damaged record is named, the first in that order.
#[test]
fn blocks_read_on_threads_keep_their_order_and_name_the_first_bad_record() {
    let data = data();
    let blocks = &data.train;
    assert!(blocks.len() >= 8, "{}", blocks.len());
    let seen = |samples: &[Sample]| -> Vec<Seen> {
        samples
            .iter()
            .map(|s| {
                let (us, them) = s.features();
                (us.to_vec(), them.to_vec(), s.score, s.result, s.mirrorable)
            })
            .collect()
    };
    let mut serial = Vec::new();
    for &b in blocks {
        data.read(b, &mut serial).unwrap();
    }
    for threads in [1, 2, 3, 5] {
        let mut parallel = Vec::new();
        train::read_blocks(&data, blocks, threads, &mut parallel).unwrap();
        assert!(seen(&parallel) == seen(&serial), "{threads} threads");
    }

    let dir = std::env::temp_dir().join(format!("hm-train-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("damaged.bin");
    let mut bytes = std::fs::read(sample()).unwrap();
    // Records 7,500 and 9,100 (blocks 7 and 9 of 1,000): kings gone.
    for record in [9_100, 7_500] {
        bytes[record * 32..record * 32 + 32].fill(0);
    }
    std::fs::write(&damaged, &bytes).unwrap();
    let set = DataSet::open(&[damaged], 1000, 0).unwrap();
    for threads in [1, 2, 3] {
        let err = train::read_blocks(&set, &set.train, threads, &mut Vec::new()).unwrap_err();
        assert!(
            matches!(err, DataError::Record(_, 7_500, _)),
            "{threads}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A mirrored sample has exactly the features of the position mirrored
/// left to right on the board, and the same score and result.
#[test]
fn a_mirrored_sample_is_the_mirrored_position() {
    use hashmate::builder::PositionBuilder;
    use hashmate::Square;
    use hashmate_data::record::{Record, RECORD_BYTES};
    let bytes = std::fs::read(sample()).unwrap();
    let mut checked = 0;
    for chunk in bytes.chunks_exact(RECORD_BYTES).take(3000) {
        let r = Record::decode(chunk.try_into().unwrap()).unwrap();
        let Some(mut s) = Sample::from_record(&r) else {
            continue;
        };
        if !s.mirrorable {
            assert!(!r.pos.castling().is_empty());
            continue;
        }
        let mut b = PositionBuilder::new();
        for sq in Square::ALL {
            b.piece(
                Square::new(sq.index() as u8 ^ 7).unwrap(),
                r.pos.piece_at(sq),
            );
        }
        b.side_to_move(r.pos.side_to_move());
        let mirrored = Record {
            pos: b.build().unwrap(),
            ..r.clone()
        };
        let expected = Sample::from_record(&mirrored).unwrap();
        s.mirror();
        let sorted = |f: &[u16]| {
            let mut v = f.to_vec();
            v.sort_unstable();
            v
        };
        let ((a, b), (c, d)) = (s.features(), expected.features());
        assert_eq!((sorted(a), sorted(b)), (sorted(c), sorted(d)));
        assert_eq!((s.score, s.result), (expected.score, expected.result));
        checked += 1;
    }
    assert!(checked > 500, "{checked}");
}

/// A net of 8 output buckets (by material) trains, quantises within the
/// same bounds, is scored by the engine's path as by the trainer's in a
/// position of each material range, and checkpoints and resumes.
#[test]
fn an_output_bucketed_net_trains_quantises_and_resumes() {
    let data = data();
    let validation = data.validation_samples().unwrap();
    let cfg = Config {
        buckets: 8,
        ..config(4)
    };
    let state = trained_from_scratch(&cfg, &data, &validation);
    let net = state.params.quantise();
    assert_eq!(net.buckets(), 8);
    let (mean, max) = quantisation_error(&state.params, &net, &validation);
    assert!(mean < 5.0 && max < 40.0, "mean {mean} cp, max {max} cp");
    assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    // Every bucket has learnt something: its weights left their start.
    let fresh = State::new(&cfg);
    let l = state.params.layout();
    for b in 0..8 {
        let w = l.out_w + b * 2 * l.hidden;
        assert_ne!(
            state.params.v[w..w + 2 * l.hidden],
            fresh.params.v[w..w + 2 * l.hidden],
            "bucket {b}"
        );
    }
    // The validation samples of each material range, through the engine's
    // path and the trainer's, give the same integer evaluation.
    let mut seen = [false; 8];
    let bytes = std::fs::read(sample()).unwrap();
    for chunk in bytes.chunks_exact(32) {
        let r = hashmate_data::record::Record::decode(chunk.try_into().unwrap()).unwrap();
        let Some(s) = Sample::from_record(&r) else {
            continue;
        };
        let bucket = hashmate_nnue::output_bucket(u32::from(s.len), 8);
        if seen[bucket] {
            continue;
        }
        seen[bucket] = true;
        let (trainer, _) = quantisation_error(&state.params, &net, std::slice::from_ref(&s));
        let mut scratch = Scratch::new(16);
        let float = f64::from(state.params.forward(&s, &mut scratch)) * 400.0;
        let engine = f64::from(net.evaluate(&r.pos));
        // |engine - float| is the quantisation error the trainer measures.
        assert!(
            ((engine - float).abs() - trainer).abs() < 1e-6,
            "bucket {bucket}"
        );
    }
    assert!(seen.iter().filter(|&&s| s).count() >= 5, "{seen:?}");
    let ck = checkpoint::to_bytes(&state);
    resumes_exactly(&ck, &state, &cfg, &data, &validation);
}

/// `ck`, the checkpoint of `state`, reads back as `state`, and one more
/// epoch from it equals one more epoch of `state` itself.
fn resumes_exactly(ck: &[u8], state: &State, cfg: &Config, data: &DataSet, validation: &[Sample]) {
    assert_eq!(&checkpoint::from_bytes(ck).unwrap(), state);
    let mut resumed = checkpoint::from_bytes(ck).unwrap();
    let more = Config {
        epochs: state.epoch + 1,
        ..cfg.clone()
    };
    let mut straight = state.clone();
    run(&more, &mut resumed, data, validation);
    run(&more, &mut straight, data, validation);
    assert_eq!(resumed, straight);
}

/// The analytic gradient of the loss equals a finite difference, for
/// parameters of every group (feature transformer, its biases, the
/// output weights and biases of the sample's bucket), with 8 buckets,
/// without and with king buckets, and with a factoriser's shared columns.
#[test]
fn the_gradient_matches_finite_differences() {
    let data = data();
    let validation = data.validation_samples().unwrap();
    let kb4 = KingBuckets::preset(4).unwrap();
    for (kings, factorised) in [(KingBuckets::PLAIN, false), (kb4, false), (kb4, true)] {
        let mut params = Params::init(
            kings,
            16,
            8,
            factorised,
            &mut hashmate_trainer::data::Rng::new(5),
        );
        // Larger output weights than at the start, so that every term
        // counts, and shared columns that are not zero.
        let l = params.layout();
        for (i, w) in params.v[l.out_w..l.factor].iter_mut().enumerate() {
            *w += 0.3 * ((i % 7) as f32 - 3.0) / 3.0;
        }
        for (i, w) in params.v[l.factor..].iter_mut().enumerate() {
            *w = 0.05 * ((i % 5) as f32 - 2.0);
        }
        params.refold();
        let mut scratch = Scratch::new(16);
        for s in validation.iter().step_by(97).take(12) {
            let mut g = vec![0.0f32; l.len];
            params.loss(s, 0.5, &mut scratch, Some((&mut g, 1.0)));
            params.factor_gradient(&mut g);
            let bucket = hashmate_nnue::output_bucket(u32::from(s.len), 8);
            let (us, them) = s.features();
            let ((ou, xu), (ot, xt)) = s.transforms(&kings);
            let ow = l.out_w + bucket * 2 * l.hidden;
            let mut probes = vec![
                (ou + (usize::from(us[0]) ^ xu)) * 16 + 3,
                (ot + (usize::from(them[1]) ^ xt)) * 16 + 9,
                l.ft_bias + 5,
                ow + 2,
                ow + l.hidden + 7,
                l.out_b + bucket,
            ];
            if factorised {
                // The shared columns of an input of each side: each
                // reaches the net through every bucket's column.
                probes.push(l.factor + (usize::from(us[2]) ^ xu) * 16 + 4);
                probes.push(l.factor + (usize::from(them[0]) ^ xt) * 16 + 11);
            }
            for &i in &probes {
                let eps = 1e-2f32;
                let mut p = params.clone();
                p.v[i] += eps;
                p.refold();
                let up = f64::from(p.loss(s, 0.5, &mut scratch, None));
                p.v[i] -= 2.0 * eps;
                p.refold();
                let down = f64::from(p.loss(s, 0.5, &mut scratch, None));
                let numeric = (up - down) / (2.0 * f64::from(eps));
                let analytic = f64::from(g[i]);
                assert!(
                    (numeric - analytic).abs() <= 1e-4 + 0.05 * analytic.abs().max(numeric.abs()),
                    "{kings:?} {factorised}: parameter {i}: analytic {analytic}, numeric {numeric}"
                );
            }
            // No other bucket's output parameters get a gradient.
            for b in (0..8).filter(|&b| b != bucket) {
                let w = l.out_w + b * 2 * l.hidden;
                assert!(g[w..w + 2 * l.hidden].iter().all(|&x| x == 0.0));
                assert_eq!(g[l.out_b + b], 0.0);
            }
            // With king buckets, only the blocks of the two kings' buckets
            // get a feature-transformer gradient.
            for block in 0..kings.count() {
                let used = [ou / 768, ot / 768].contains(&block);
                let any = g[block * 768 * 16..(block + 1) * 768 * 16]
                    .iter()
                    .any(|&x| x != 0.0);
                assert!(used || !any, "{kings:?}: block {block}");
            }
        }
    }
}

/// A net with king buckets (4, mirrored), without and with a factoriser,
/// trains, quantises within the usual bounds, is scored by the engine's
/// path (a `Position`, its kings' buckets and mirroring) exactly as by
/// the trainer's on every kind of king placement in the sample, scores a
/// mirrorable position and its mirror image alike, and writes, reads,
/// checkpoints and resumes.
#[test]
fn a_king_bucketed_net_trains_and_the_engine_scores_it_alike() {
    for factoriser in [false, true] {
        king_bucketed_net(factoriser);
    }
}

fn king_bucketed_net(factoriser: bool) {
    let data = data();
    let validation = data.validation_samples().unwrap();
    let kings = KingBuckets::preset(4).unwrap();
    let cfg = Config {
        kings,
        factoriser,
        buckets: 8,
        ..config(4)
    };
    let state = trained_from_scratch(&cfg, &data, &validation);
    if factoriser {
        // The shared columns learned something, and the net written is
        // the folded one: each bucket's column plus the shared column.
        let l = state.params.layout();
        assert!(state.params.v[l.factor..].iter().any(|&w| w.abs() > 1e-3));
        let shared = &state.params.v[l.factor..];
        for (i, &w) in state.params.ft_weights().iter().enumerate() {
            let own = state.params.v[i];
            assert!((w - (own + shared[i % (768 * 16)])).abs() < 1e-6, "{i}");
        }
    }
    let net = state.params.quantise();
    assert_eq!(*net.king_buckets(), kings);
    assert_eq!(net.inputs(), 4 * 768);
    let (mean, max) = quantisation_error(&state.params, &net, &validation);
    assert!(mean < 5.0 && max < 40.0, "mean {mean} cp, max {max} cp");
    assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    // The engine's evaluation of each record's position is the trainer's
    // integer evaluation of its sample: |engine − float| is the error the
    // trainer measures. Over the whole sample, both kings' buckets and
    // both wings occur.
    let bytes = std::fs::read(sample()).unwrap();
    let (mut buckets_seen, mut flips_seen) = ([false; 4], [false; 2]);
    let mut scratch = Scratch::new(16);
    for chunk in bytes.chunks_exact(32).step_by(7) {
        let r = hashmate_data::record::Record::decode(chunk.try_into().unwrap()).unwrap();
        let Some(s) = Sample::from_record(&r) else {
            continue;
        };
        let ((o, x), _) = s.transforms(&kings);
        buckets_seen[o / 768] = true;
        flips_seen[usize::from(x == 7)] = true;
        let (trainer, _) = quantisation_error(&state.params, &net, std::slice::from_ref(&s));
        let float = f64::from(state.params.forward(&s, &mut scratch)) * 400.0;
        let engine = f64::from(net.evaluate(&r.pos));
        assert!(((engine - float).abs() - trainer).abs() < 1e-6, "{}", r.pos);
        // Mirrored inputs: the mirror image has the same float output.
        if s.mirrorable {
            let mut m = s;
            m.mirror();
            let image = f64::from(state.params.forward(&m, &mut scratch)) * 400.0;
            assert!((image - float).abs() < 1e-3, "{}", r.pos);
        }
    }
    assert_eq!(flips_seen, [true; 2]);
    assert!(
        buckets_seen.iter().filter(|&&b| b).count() >= 3,
        "{buckets_seen:?}"
    );
    let ck = checkpoint::to_bytes(&state);
    let version = if factoriser { 3 } else { 2 };
    assert_eq!(ck[4..6], [version, 0], "checkpoint version");
    resumes_exactly(&ck, &state, &cfg, &data, &validation);
    // A net read back as float parameters is the same net, king buckets
    // and all (the start of a fine-tuning run), and so is it with a
    // factoriser added (its shared columns start at zero).
    let back = Params::from_network(&net);
    assert_eq!(back.kings, kings);
    assert_eq!(back.quantise(), net);
    assert_eq!(back.with_factoriser().quantise(), net);
}

/// A quantised net read back into float parameters quantises to the same
/// net, and its float loss is the net's integer loss up to rounding: the
/// start of a fine-tuning run (`--init`) is the net it names.
#[test]
fn a_net_read_back_as_float_parameters_is_the_same_net() {
    let data = data();
    let validation = data.validation_samples().unwrap();
    let cfg = Config {
        buckets: 8,
        ..config(2)
    };
    let mut state = State::new(&cfg);
    run(&cfg, &mut state, &data, &validation);
    let net = state.params.quantise();
    let back = Params::from_network(&net);
    assert_eq!((back.hidden, back.buckets), (16, 8));
    assert_eq!(back.quantise(), net);
    let float = mean_loss(&back, &validation, cfg.lambda, 2);
    let quantised = quantised_loss(&net, &validation, cfg.lambda, 2);
    assert!(
        (float - quantised).abs() < 0.01 * quantised,
        "float {float}, quantised {quantised}"
    );
    // Fine-tuning from it continues: one more epoch at a small rate moves
    // the parameters, and the loss stays near where it was.
    let mut tuned = State::from_params(back.clone());
    let fine = Config {
        lr: 0.0005,
        lr_end: 0.0001,
        ..config(1)
    };
    let fine = Config { buckets: 8, ..fine };
    run(&fine, &mut tuned, &data, &validation);
    assert_ne!(tuned.params, back);
    let after = tuned.history[0].1;
    assert!(after < float * 1.05, "{float} -> {after}");
}

/// The first 21 games of data set 10 (2,111 records of 32 bytes; its
/// first 67,552 bytes, docs/NNUE.md): whole games, as `datagen` writes them.
fn set10_games() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/set10-21-games.bin")
}

/// The same games packed into the chained form, written to `path`.
fn write_chained(records_file: &std::path::Path, path: &std::path::Path) {
    use hashmate_data::chain;
    use hashmate_data::record::{Record, RECORD_BYTES};
    let bytes = std::fs::read(records_file).unwrap();
    let mut out = chain::MAGIC.to_vec();
    let mut game = Vec::new();
    for raw in bytes.chunks_exact(RECORD_BYTES) {
        let r = Record::decode(raw.try_into().unwrap()).unwrap();
        let last = r.last_of_game;
        game.push(r);
        if last {
            chain::pack_game(&game, &mut out).unwrap();
            game.clear();
        }
    }
    assert!(game.is_empty());
    std::fs::write(path, out).unwrap();
}

/// A sample's features, score, result and mirror flag.
type Seen = (Vec<u16>, Vec<u16>, f32, f32, bool);

fn all_samples(set: &DataSet) -> Vec<Seen> {
    let mut out = Vec::new();
    for &b in set.train.iter().chain(&set.validation) {
        set.read(b, &mut out).unwrap();
    }
    out.iter()
        .map(|s| {
            let (us, them) = s.features();
            (us.to_vec(), them.to_vec(), s.score, s.result, s.mirrorable)
        })
        .collect()
}

/// A chained file trains on exactly the samples of its records, in whole
/// games a block; a chained file cut short is refused by name.
#[test]
fn a_chained_file_gives_the_samples_of_its_records() {
    let dir = std::env::temp_dir().join(format!("hm-train-chain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chained = dir.join("set10.chain");
    write_chained(&set10_games(), &chained);
    let size = std::fs::metadata(&chained).unwrap().len();
    assert!(size * 6 < 2_111 * 32, "{size} bytes");

    let flat = DataSet::open(&[set10_games()], 500, 0).unwrap();
    let packed = DataSet::open(std::slice::from_ref(&chained), 500, 0).unwrap();
    assert_eq!((flat.records, packed.records), (2_111, 2_111));
    // Whole games a block: more than 500 positions each, but the last.
    assert!(packed.train.len() < flat.train.len());
    assert!(packed.train[..packed.train.len() - 1]
        .iter()
        .all(|b| b.count() >= 500));
    let samples = all_samples(&flat);
    assert!(samples.len() > 1_000);
    assert_eq!(all_samples(&packed), samples);

    // Validation blocks split the same way.
    let with_validation = DataSet::open(std::slice::from_ref(&chained), 300, 3).unwrap();
    assert!(!with_validation.validation.is_empty());
    assert_eq!(all_samples(&with_validation).len(), samples.len());

    let bytes = std::fs::read(&chained).unwrap();
    let cut = dir.join("cut.chain");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let err = DataSet::open(&[cut], 500, 0).unwrap_err();
    assert!(matches!(err, DataError::Record(..)), "{err}");
    assert!(err.to_string().contains("ends inside a game"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Weight decay spares exactly the biases: the feature transformer's and
/// every output bucket's (before session 51, only the first bucket's
/// output bias was spared), and never a weight or a shared column.
#[test]
fn the_biases_are_exactly_what_decay_spares() {
    use hashmate_trainer::net::Layout;
    let kings = KingBuckets::preset(4).unwrap();
    for (kings, factorised) in [(KingBuckets::PLAIN, false), (kings, true)] {
        let l = Layout::new(kings, 16, 8, factorised);
        let biases: Vec<usize> = (0..l.len).filter(|&i| l.is_bias(i)).collect();
        let expected: Vec<usize> = (l.ft_bias..l.ft_bias + 16)
            .chain(l.out_b..l.out_b + 8)
            .collect();
        assert_eq!(biases, expected);
        assert_eq!(l.len - l.factor, if factorised { 768 * 16 } else { 0 });
    }
}
