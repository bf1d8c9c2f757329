//! Hashed perft equals the published counts on every suite position, in a
//! normal and in a deliberately tiny table (correctness must not depend on
//! capacity).

mod common;
use hashmate::perft::{perft_cached, PerftTable};
use hashmate::Position;

fn run(bytes: usize, max_nodes: u64) {
    let mut table = PerftTable::new(bytes).unwrap();
    let mut checked = 0;
    for (fen, depth, expected) in common::perft_cases(max_nodes) {
        let pos = Position::from_fen(&fen).unwrap();
        let got = perft_cached(&pos, depth, &mut table);
        assert_eq!(got, expected, "{bytes} B: {fen} depth {depth}");
        checked += 1;
    }
    assert!(checked > 700, "{checked}");
    assert!(table.hits() > 0);
}

#[test]
fn all_suites() {
    run(4 << 20, 1_000_000);
}

/// 16 KB: a far move-count level of 512 entries, overwritten all the time.
#[test]
fn tiny_far_level_still_exact() {
    run(16 << 10, 300_000);
}

#[test]
fn tiny_table_still_exact() {
    run(4 << 10, 300_000);
}
