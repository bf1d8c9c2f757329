//! The small commands on the real binary: `key`, `perft` with good and bad
//! input, and `bench`'s node-count signatures (with the network and with
//! the classical evaluation).

mod common;
use common::*;

#[test]
fn key_command() {
    let out = hashmate(
        &[
            "key",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ],
        "",
    );
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "463b96181691fc9c\n");
    let bad = hashmate(&["key", "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"], "");
    assert_eq!(bad.status.code(), Some(2));
    let err = text(&bad.stderr);
    assert!(
        err.contains("8 ranks") && !err.contains("panicked"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn perft_command() {
    let out = hashmate(&["perft", "3", "--divide"], "");
    let s = text(&out.stdout);
    assert!(s.contains("e2e4: 600"), "{s}");
    assert_eq!(s.lines().last(), Some("Nodes searched: 8902"));
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let hashed = hashmate(&["perft", "4", "--fen", fen, "--hash", "1"], "");
    assert!(text(&hashed.stdout).ends_with("Nodes searched: 4085603\n"));
    let c960 = hashmate(&["perft", "1", "--fen", fen, "--divide", "--chess960"], "");
    assert!(text(&c960.stdout).contains("e1h1: 1"));
    let plain = hashmate(&["perft", "1", "--fen", fen, "--divide"], "");
    assert!(text(&plain.stdout).contains("e1g1: 1"));
    for args in [
        &["perft", "0"][..],
        &["perft", "x"],
        &["perft", "2", "--fen", "nonsense"],
    ] {
        let out = hashmate(args, "");
        assert!(!out.status.success(), "{args:?}");
        assert!(!text(&out.stderr).contains("panicked"));
    }
}

/// The node count of `hashmate bench` (depth 10, 16 MB, one thread): the
/// behaviour signature. It changes when the search or the default network
/// does, and only then: a change meant to leave the search alone (a
/// speed-up) must leave it alone. The AVX2 and scalar kernels give the
/// same evaluations, so it is the same on every processor.
#[test]
fn bench_signature() {
    const BENCH_NODES: u64 = 635_779;
    assert_eq!(
        bench_nodes(&["bench"]),
        BENCH_NODES,
        "the bench signature changed; if the search or the default net was \
         meant to change, update BENCH_NODES, docs/STRENGTH.md and docs/NNUE.md"
    );
}

/// The same with the classical evaluation (`bench --classical`), kept for
/// the comparisons it is the baseline of.
#[test]
fn bench_signature_classical() {
    const BENCH_NODES_CLASSICAL: u64 = 1_063_684;
    assert_eq!(
        bench_nodes(&["bench", "--classical"]),
        BENCH_NODES_CLASSICAL,
        "the classical bench signature changed; if the search or the \
         classical evaluation was meant to change, update it and docs/STRENGTH.md"
    );
}

/// The node count on the last line (`N nodes N nps`) of a bench run.
fn bench_nodes(args: &[&str]) -> u64 {
    let out = hashmate(args, "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let last = text.lines().last().unwrap_or("");
    last.split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("last line is not `N nodes N nps`: {last}"))
}
