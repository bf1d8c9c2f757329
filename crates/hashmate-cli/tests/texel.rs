//! `hashmate texel` (the Texel fit of the classical evaluation, formerly
//! `tune`) end to end, on a small committed sample (tests/data/sample.bin:
//! the first 3,000 records of a datagen run): it lowers its loss, writes
//! weights that rustc compiles as the evaluation's weight file, and
//! refuses bad arguments, bad data and its own data as output.

mod common;
use common::*;
use std::time::{Duration, Instant};

#[test]
fn tuner_lowers_the_loss_and_writes_compilable_weights() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.bin");
    let dir = tmp("compile");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("weights.rs");
    let run = hashmate(
        &[
            "tune",
            "--data",
            sample,
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "60",
            "--rate",
            "2",
        ],
        "",
    );
    let err = text(&run.stderr);
    assert!(run.status.success(), "{err}");
    // "training loss A -> B; held-out loss C -> D"
    let losses: Vec<f64> = err
        .lines()
        .find(|l| l.contains("training loss"))
        .unwrap_or_else(|| panic!("{err}"))
        .split([';', ' '])
        .filter_map(|w| w.parse::<f64>().ok())
        .collect();
    let (k, train0, train1) = (losses[0], losses[1], losses[2]);
    assert!(k > 0.1 && k < 5.0, "{err}");
    assert!(train1 < train0, "training loss did not fall: {err}");

    // The file compiles as the evaluation's weight module.
    let src = std::fs::read_to_string(&out).unwrap();
    let n = src.matches("S(").count() - 1; // one in the header comment
    std::fs::write(
        dir.join("lib.rs"),
        format!(
            "pub struct S(pub i16, pub i16);\n\
             pub mod terms {{ pub const NUM_WEIGHTS: usize = {n}; }}\n\
             pub mod weights;\n"
        ),
    )
    .unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let compiled = std::process::Command::new(rustc)
        .args(["--edition", "2021", "--crate-type", "lib", "--out-dir"])
        .arg(&dir)
        .arg(dir.join("lib.rs"))
        .output()
        .expect("rustc runs");
    assert!(compiled.status.success(), "{}", text(&compiled.stderr));
}

#[test]
fn tuner_refuses_bad_input() {
    let junk = tmp("junk.bin");
    std::fs::write(&junk, [7u8; 100]).unwrap();
    let out = tmp("never.rs");
    for (args, needle) in [
        (vec!["--data", junk.to_str().unwrap()], "whole number"),
        (vec!["--data", "/nonexistent/data.bin"], "cannot read"),
        (
            vec!["--data", junk.to_str().unwrap(), "--lambda", "2"],
            "lambda",
        ),
    ] {
        let mut a = vec!["tune", "--out", out.to_str().unwrap()];
        a.extend(args);
        let r = hashmate(&a, "");
        let err = text(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{a:?}: {err}");
        assert!(
            err.contains(needle) && !err.contains("panicked"),
            "{a:?}: {err}"
        );
    }
    // 32 bytes of garbage: a whole record, but no position.
    std::fs::write(&junk, [0xffu8; 32 * 20]).unwrap();
    let r = hashmate(
        &[
            "tune",
            "--data",
            junk.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r.status.code(), Some(2), "{}", text(&r.stderr));
    assert!(!out.exists(), "nothing is written on failure");
}

// 3. `tune --data D --out D` overwrote the training data with Rust source.
#[test]
fn tune_refuses_to_write_over_its_training_data() {
    let data = tmp("r2-3.bin");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.bin"),
        &data,
    )
    .unwrap();
    let dotted = data.parent().unwrap().join(".").join("r2-3.bin");
    let mut outs = vec![data.clone(), dotted];
    #[cfg(unix)]
    {
        let link = tmp("r2-3.link");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&data, &link).unwrap();
        outs.push(link);
    }
    for out in outs {
        let why = untouched(&data, || {
            hashmate(
                &[
                    "tune",
                    "--data",
                    data.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                    "--epochs",
                    "1",
                ],
                "",
            )
        });
        assert!(why.contains("is the training data"), "{why}");
    }
}

// 8. A diverging fit (`--rate 1e308`, loss NaN) still wrote weights.
#[test]
fn a_diverging_fit_writes_nothing() {
    let out = tmp("r2-8.rs");
    let _ = std::fs::remove_file(&out);
    let r = hashmate(
        &[
            "tune",
            "--data",
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.bin"),
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "3",
            "--rate",
            "1e308",
        ],
        "",
    );
    no_panic(&r);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr).contains("the fit diverged"),
        "{}",
        text(&r.stderr)
    );
    assert!(!out.exists(), "weights were written");
}

// Round three, 14. `tune --out nodir/w.rs` found the missing folder only
// after the whole fit.
#[test]
fn a_missing_output_folder_is_found_before_the_fit() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.bin");
    let out = tmp("texel-no-such-folder/weights.rs");
    let started = Instant::now();
    let r = hashmate(
        &[
            "texel",
            "--data",
            sample,
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "100000",
        ],
        "",
    );
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("its folder does not exist"),
        "{}",
        text(&r.stderr)
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(!out.parent().unwrap().exists());
}
