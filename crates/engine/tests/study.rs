//! The collision study's tables: hashed perft equals the published counts
//! on every suite position, for every collision strategy with full 64-bit
//! verification, in a normal and in a deliberately tiny table (correctness
//! must not depend on capacity).

use hashmate::Position;
use hashmate_engine::tt_study::{hashed_perft, Strategy, StudyTable};

/// (FEN, [(depth, count)]) of a perft file of the library's test data.
fn perft_file(rel: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let path = format!(
        "{}/../hashmate/tests/data/{rel}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').unwrap();
                    (d[1..].parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

fn run(bytes: usize, max_nodes: u64) {
    for strategy in Strategy::ALL {
        let mut table = StudyTable::new(strategy, 64, bytes).unwrap();
        let mut checked = 0;
        for file in [
            "perft/standard.epd",
            "perft/suite.epd",
            "perft/chess960.epd",
        ] {
            for (fen, counts) in perft_file(file) {
                let pos = Position::from_fen(&fen).unwrap();
                for &(depth, expected) in counts.iter().filter(|c| c.1 <= max_nodes) {
                    let got = hashed_perft(&pos, depth, &mut table);
                    assert_eq!(got, expected, "{strategy:?} {bytes} B: {fen} depth {depth}");
                    checked += 1;
                }
            }
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
