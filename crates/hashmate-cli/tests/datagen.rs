//! `hashmate datagen` end to end: a short run is reproducible and
//! resumable, with the classical evaluation and with the network, and a
//! file that is not training data is never resumed (or touched).

mod common;
use common::*;
use std::path::PathBuf;

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

#[test]
fn openings_beyond_the_score_limit_are_drawn_again() {
    let run = |out: &PathBuf, limit: Option<&str>| {
        let _ = std::fs::remove_file(out);
        let mut v = vec![
            "datagen",
            "--out",
            out.to_str().unwrap(),
            "--games",
            "8",
            "--nodes",
            "300",
            "--threads",
            "2",
            "--seed",
            "5",
        ];
        if let Some(cp) = limit {
            v.extend(["--max-opening-score", cp]);
        }
        let r = hashmate(&v, "");
        assert!(r.status.success(), "{}", text(&r.stderr));
        // The first record of each game: its search score (White's view).
        std::fs::read(out)
            .unwrap()
            .chunks(32)
            .filter(|r| r[24] & 0x80 != 0)
            .map(|r| i16::from_le_bytes([r[28], r[29]]))
            .collect::<Vec<i16>>()
    };
    let free = run(&tmp("opening-free.bin"), None);
    assert_eq!(free.len(), 8);
    assert!(free.iter().any(|s| s.abs() > 60), "{free:?}");
    let limited = run(&tmp("opening-60.bin"), Some("60"));
    assert_eq!(limited.len(), 8);
    assert!(limited.iter().all(|s| s.abs() <= 60), "{limited:?}");
    // Still a function of the arguments alone.
    assert_eq!(run(&tmp("opening-60b.bin"), Some("60")), limited);
    // A limit no opening meets ends all the same: the start position
    // alone (no random plies) scores above 0, and its 100th draw is played.
    let start = tmp("opening-start.bin");
    let r = hashmate(
        &[
            "datagen",
            "--out",
            start.to_str().unwrap(),
            "--games",
            "2",
            "--nodes",
            "300",
            "--random-plies",
            "0",
            "--max-opening-score",
            "0",
        ],
        "",
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    let bytes = std::fs::read(&start).unwrap();
    assert_ne!(i16::from_le_bytes([bytes[28], bytes[29]]), 0);
    let never = tmp("never.bin");
    let r = hashmate(
        &[
            "datagen",
            "--out",
            never.to_str().unwrap(),
            "--games",
            "1",
            "--max-opening-score=-5",
        ],
        "",
    );
    let err = text(&r.stderr);
    assert!(
        !r.status.success() && err.contains("max-opening-score"),
        "{err}"
    );
    assert!(!never.exists());
}

// 2. `datagen --out F` truncated a file that was not training data.
#[test]
fn datagen_refuses_to_resume_a_file_that_is_not_training_data() {
    let pgn = tmp("r2-2.pgn");
    std::fs::write(&pgn, TWO_GAMES.repeat(20)).unwrap();
    let book = tmp("r2-2.bin");
    // 48 bytes: three Polyglot entries, one and a half records.
    let mut bytes = Vec::new();
    for i in 0u64..3 {
        bytes.extend_from_slice(&(0x463b_9618_1691_fc9c ^ i).to_be_bytes());
        bytes.extend_from_slice(&[0x03, 0x1c, 0, 10, 0, 0, 0, 0]);
    }
    std::fs::write(&book, &bytes).unwrap();
    for file in [&pgn, &book] {
        let why = untouched(file, || {
            hashmate(
                &[
                    "datagen",
                    "--out",
                    file.to_str().unwrap(),
                    "--games",
                    "1",
                    "--nodes",
                    "200",
                ],
                "",
            )
        });
        assert!(why.contains("not hashmate training data"), "{why}");
    }
}

/// The first 21 games of data set 10, as `datagen` wrote them.
fn set10_games() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../hashmate-trainer/tests/data/set10-21-games.bin")
}

/// `data pack` then `data unpack` gives back the records byte for byte:
/// games of the engine's own data and a fresh run's (classical evaluation,
/// few nodes: other endings, adjudications).
#[test]
fn packed_data_unpacks_byte_for_byte() {
    let fresh = tmp("pack-fresh.bin");
    let _ = std::fs::remove_file(&fresh);
    let f = fresh.to_str().unwrap();
    succeeded(&hashmate(
        &[
            "datagen",
            "--out",
            f,
            "--games",
            "8",
            "--nodes",
            "300",
            "--seed",
            "11",
            "--threads",
            "2",
        ],
        "",
    ));
    for (name, records) in [("set10", set10_games()), ("fresh", fresh)] {
        let packed = tmp(&format!("pack-{name}.chain"));
        let back = tmp(&format!("pack-{name}.back"));
        let (r, p, b) = (
            records.to_str().unwrap(),
            packed.to_str().unwrap(),
            back.to_str().unwrap(),
        );
        let said = succeeded(&hashmate(&["data", "pack", r, p], ""));
        assert!(said.contains("bytes a position"), "{said}");
        succeeded(&hashmate(&["data", "unpack", p, b], ""));
        let original = std::fs::read(&records).unwrap();
        let small = std::fs::metadata(&packed).unwrap().len() as usize;
        assert!(small * 5 < original.len(), "{name}: {small} bytes");
        assert!(std::fs::read(&back).unwrap() == original, "{name}");
    }
}

/// What `data pack` and `data unpack` cannot read is named, and the output
/// is not written (an old one is kept).
#[test]
fn bad_data_to_pack_or_unpack_is_named_and_nothing_is_written() {
    let games = std::fs::read(set10_games()).unwrap();
    let out = tmp("pack-bad-out");
    std::fs::write(&out, b"keep me").unwrap();
    let o = out.to_str().unwrap();
    let case = |name: &str, bytes: &[u8], cmd: &str, what: &str| {
        let input = tmp(name);
        std::fs::write(&input, bytes).unwrap();
        let i = input.to_str().unwrap();
        let err = untouched(&out, || hashmate(&["data", cmd, i, o], ""));
        assert!(err.contains(what), "{name}: expected '{what}' in: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    // Cut inside a record, and after a whole record inside a game.
    case(
        "pack-cut-record",
        &games[..games.len() - 5],
        "pack",
        "ends 27 bytes into it",
    );
    case("pack-cut-game", &games[..32 * 50], "pack", "ends inside it");
    // A record removed from the middle of a game.
    let mut gap = games[..32 * 40].to_vec();
    gap.drain(32 * 10..32 * 11);
    gap.extend_from_slice(&games[32 * 40..]);
    case("pack-gap", &gap, "pack", "no legal move leads to it");
    case("pack-junk", &[0xffu8; 64], "pack", "record 1");
    case("unpack-records", &games, "unpack", "not a chained file");
    let mut packed_path = tmp("pack-good.chain");
    succeeded(&hashmate(
        &[
            "data",
            "pack",
            set10_games().to_str().unwrap(),
            packed_path.to_str().unwrap(),
        ],
        "",
    ));
    let packed = std::fs::read(&packed_path).unwrap();
    case(
        "unpack-cut",
        &packed[..packed.len() - 2],
        "unpack",
        "ends inside a game",
    );
    let mut illegal = packed.clone();
    illegal[8 + 34] ^= 0x3f;
    case("unpack-illegal", &illegal, "unpack", "game 1: move bits");
    // The input as the output, and a missing input.
    let err = untouched(&packed_path, || {
        hashmate(
            &[
                "data",
                "unpack",
                packed_path.to_str().unwrap(),
                packed_path.to_str().unwrap(),
            ],
            "",
        )
    });
    assert!(err.contains("one file"), "{err}");
    packed_path.set_extension("missing");
    let r = hashmate(&["data", "pack", packed_path.to_str().unwrap(), o], "");
    assert!(!r.status.success() && text(&r.stderr).contains("missing"));
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
}

/// `--time-limit` stops starting games and finishes those under way: the
/// file is whole games, the prefix of a run without the limit.
#[test]
fn a_time_limit_ends_the_file_on_a_whole_game() {
    let (limited, full) = (tmp("time-limited.bin"), tmp("time-full.bin"));
    let _ = std::fs::remove_file(&limited);
    let _ = std::fs::remove_file(&full);
    let run = |out: &PathBuf, games: &str, limit: Option<&str>| {
        let mut v = vec![
            "datagen",
            "--out",
            out.to_str().unwrap(),
            "--games",
            games,
            "--nodes",
            "300",
            "--threads",
            "2",
            "--seed",
            "12",
        ];
        if let Some(l) = limit {
            v.extend(["--time-limit", l]);
        }
        succeeded(&hashmate(&v, ""))
    };
    let said = run(&limited, "100000", Some("1"));
    assert!(said.contains("stopped at --time-limit"), "{said}");
    let bytes = std::fs::read(&limited).unwrap();
    let games = bytes.chunks(32).filter(|r| r[24] & 0x80 != 0).count();
    assert!(games >= 1 && bytes.len().is_multiple_of(32));
    assert!(
        bytes[bytes.len() - 8] & 0x40 != 0,
        "the last record ends a game"
    );
    run(&full, &games.to_string(), None);
    assert!(std::fs::read(&full).unwrap() == bytes);
    succeeded(&hashmate(
        &[
            "data",
            "pack",
            limited.to_str().unwrap(),
            tmp("time-limited.chain").to_str().unwrap(),
        ],
        "",
    ));
}
