//! datagen and the tuner, end to end on the binary: a short datagen run is
//! resumable and reproducible; the tuner, on a small committed sample
//! (tests/data/sample.bin: the first 3,000 records of a datagen run), lowers
//! its loss, writes weights that rustc compiles as the evaluation's weight
//! file, and refuses bad arguments and bad data with a clear error.

mod common;
use common::hashmate;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hashmate-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

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

#[test]
fn datagen_is_reproducible_and_resumable() {
    let a = tmp("a.bin");
    let b = tmp("b.bin");
    let _ = std::fs::remove_file(&a);
    let _ = std::fs::remove_file(&b);
    let args = |out: &PathBuf, games: &'static str, threads: &'static str| {
        vec![
            "datagen".to_string(),
            "--out".into(),
            out.to_str().unwrap().to_string(),
            "--games".into(),
            games.into(),
            "--nodes".into(),
            "500".into(),
            "--threads".into(),
            threads.into(),
            "--seed".into(),
            "7".into(),
        ]
    };
    let run = |v: Vec<String>| {
        let v: Vec<&str> = v.iter().map(String::as_str).collect();
        let r = hashmate(&v, "");
        assert!(r.status.success(), "{}", text(&r.stderr));
    };
    run(args(&a, "6", "2"));
    // Half, cut in the middle of a record, then continued.
    run(args(&b, "3", "1"));
    let len = std::fs::metadata(&b).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&b).unwrap();
    f.set_len(len - 40).unwrap();
    drop(f);
    run(args(&b, "6", "1"));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let bytes = std::fs::read(&a).unwrap();
    assert!(!bytes.is_empty() && bytes.len().is_multiple_of(32));
    // Six games: six first-position marks.
    assert_eq!(bytes.chunks(32).filter(|r| r[24] & 0x80 != 0).count(), 6);
}

#[test]
fn datagen_with_the_network_is_its_own_reproducible_data() {
    let run = |out: &PathBuf, threads: &str, nnue: Option<&str>| {
        let _ = std::fs::remove_file(out);
        let mut v = vec![
            "datagen",
            "--out",
            out.to_str().unwrap(),
            "--games",
            "3",
            "--nodes",
            "500",
            "--threads",
            threads,
            "--seed",
            "9",
        ];
        if let Some(n) = nnue {
            v.extend(["--nnue", n]);
        }
        let r = hashmate(&v, "");
        (r.status.success(), text(&r.stderr))
    };
    let (net1, net2, classical) = (tmp("net1.bin"), tmp("net2.bin"), tmp("classical.bin"));
    assert!(run(&net1, "1", Some("<internal>")).0);
    assert!(run(&net2, "2", Some("<internal>")).0);
    assert!(run(&classical, "1", None).0);
    let bytes = std::fs::read(&net1).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(&net2).unwrap(),
        "threads changed the data"
    );
    assert_ne!(
        bytes,
        std::fs::read(&classical).unwrap(),
        "the network was not used"
    );
    // A net that cannot be read: refused by name before any file is made.
    let bad = tmp("never.bin");
    let (ok, err) = run(&bad, "1", Some("/nonexistent/net.nnue"));
    assert!(!ok && err.contains("/nonexistent/net.nnue"), "{err}");
    assert!(!bad.exists());
}
