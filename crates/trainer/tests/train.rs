//! The trainer on a committed sample of the engine's own self-play data
//! (`tests/data/sample-12000.bin`: the first 12,000 records of data set 1,
//! see docs/NNUE.md).

use hashmate::Position;
use hashmate_nnue::Network;
use hashmate_trainer::checkpoint;
use hashmate_trainer::data::{DataError, DataSet, Sample};
use hashmate_trainer::net::Scratch;
use hashmate_trainer::train::{self, mean_loss, quantisation_error, Config, State};
use std::path::PathBuf;

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample-12000.bin")
}

fn config(epochs: u32) -> Config {
    Config {
        hidden: 16,
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
            score: 0.0,
            result: 0.5,
            mirrorable: false,
        },
        &mut scratch,
    ) * 400.0;
    assert!((net.evaluate(&pos) as f32 - float).abs() < 20.0);
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

/// A mirrored sample has exactly the features of the position mirrored
/// left to right on the board, and the same score and result.
#[test]
fn a_mirrored_sample_is_the_mirrored_position() {
    use hashmate::builder::PositionBuilder;
    use hashmate::Square;
    use hashmate_engine::tune::record::{Record, RECORD_BYTES};
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
