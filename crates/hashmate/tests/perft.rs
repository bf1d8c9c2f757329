//! Perft on every position of the vendored suites (tests/data/perft). CI runs every line to the
//! depths below (at least 4); the deepest published counts run with
//! `cargo test --release -p hashmate --test perft -- --ignored`.

mod common;
use hashmate::perft::perft;
use hashmate::Position;

fn run(file: &str, max_nodes: u64, min_depth: u32) {
    let mut checked = 0;
    for (fen, counts) in common::perft_file(file) {
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for &(depth, expected) in &counts {
            if depth > min_depth && expected > max_nodes {
                continue;
            }
            assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn standard() {
    run("perft/standard.epd", 5_000_000, 4);
}

#[test]
fn suite() {
    run("perft/suite.epd", 2_000_000, 4);
}

#[test]
fn chess960() {
    run("perft/chess960.epd", 2_000_000, 4);
}

#[test]
#[ignore = "deep: billions of nodes; run with --release -- --ignored"]
fn deep_everything() {
    run("perft/standard.epd", u64::MAX, 99);
    run("perft/suite.epd", u64::MAX, 99);
    run("perft/chess960.epd", u64::MAX, 99);
}
