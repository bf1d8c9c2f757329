//! The collision study's tables: hashed perft equals the published counts
//! on every suite position, for every collision strategy with full 64-bit
//! verification, in a normal and in a deliberately tiny table (correctness
//! must not depend on capacity).

mod common;
use hashmate::Position;
use hashmate_cli::tt_study::table::{hashed_perft, Strategy, StudyTable};

fn run(bytes: usize, max_nodes: u64) {
    for strategy in Strategy::ALL {
        let mut table = StudyTable::new(strategy, 64, bytes).unwrap();
        let mut checked = 0;
        for (fen, depth, expected) in common::perft_cases(max_nodes) {
            let pos = Position::from_fen(&fen).unwrap();
            let got = hashed_perft(&pos, depth, &mut table);
            assert_eq!(got, expected, "{strategy:?} {bytes} B: {fen} depth {depth}");
            checked += 1;
        }
        assert!(checked > 700, "{checked}");
        assert_eq!(table.stats.false_hits, 0);
        assert!(table.stats.hits > 0);
    }
}

#[test]
fn all_suites_all_strategies() {
    run(4 << 20, 1_000_000);
}

#[test]
fn tiny_table_still_exact() {
    run(4 << 10, 300_000);
}
