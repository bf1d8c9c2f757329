//! `bench`: a fixed set of positions searched to a fixed depth with a
//! cleared 16 MB table and one thread. The total node count is a behaviour
//! signature: any change to search or evaluation changes it. The last line
//! reads `N nodes N nps`, the form OpenBench (the distributed testing
//! framework) parses.

use crate::output;
use crate::search::{search, Limits, NoTable, SearchTable, Shared};
use hashmate::tt::{TranspositionTable, TtError};
use hashmate::Position;
use hashmate_nnue::Network;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub const DEFAULT_DEPTH: u32 = 10;

pub const POSITIONS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 w - - 0 25",
    "8/8/3k4/8/3PK3/8/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
];

/// Run the bench and print its summary; returns the node count. `net`:
/// evaluate with that network instead of the classical evaluation.
///
/// # Errors
/// [`TtError`] when the table cannot be allocated.
pub fn run(
    depth: u32,
    hash_mb: usize,
    threads: usize,
    no_tt: bool,
    net: Option<Arc<Network>>,
) -> Result<u64, TtError> {
    let never = AtomicBool::new(false);
    let nodes = if no_tt {
        let shared = Arc::new(Shared::new(NoTable));
        shared.set_network(net);
        run_on(&shared, depth, threads, &never)
    } else {
        let shared = Arc::new(Shared::new(TranspositionTable::new(hash_mb)?));
        shared.set_network(net);
        run_on(&shared, depth, threads, &never)
    };
    Ok(nodes.unwrap_or(0))
}

/// The bench on a given table, as the UCI `bench` command runs it on its
/// own thread: `abort` (set before `shared.control.stop()`) ends it after
/// the current search, and then nothing is printed and `None` returned.
pub fn run_on<T: SearchTable + Send + 'static>(
    shared: &Arc<Shared<T>>,
    depth: u32,
    threads: usize,
    abort: &AtomicBool,
) -> Option<u64> {
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    let start = Instant::now();
    let (mut nodes, mut hits, mut probes) = (0, 0, 0);
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            continue; // The list is fixed and valid (a test checks).
        };
        // Each position as a new game: the node count is a signature of
        // the search alone, not of the order of the positions.
        shared.new_game();
        shared.control.begin(false);
        // After `begin`, which clears a stop that came before it.
        if abort.load(Ordering::Relaxed) {
            return None;
        }
        let r = search(&pos, &[], &limits, shared, threads, &mut ());
        eprintln!("Position {}/{}: {} nodes", i + 1, POSITIONS.len(), r.nodes);
        nodes += r.nodes;
        // Each position is a new game: the counts are this search's.
        let (h, p) = shared.pawn_stats();
        hits += h;
        probes += p;
    }
    if abort.load(Ordering::Relaxed) {
        return None;
    }
    let secs = start.elapsed().as_secs_f64();
    let nps = (nodes as f64 / secs.max(1e-9)) as u64;
    output::emit(&format!(
        "===========================\n\
         Total time (ms) : {:.0}\n\
         Pawn hash hits  : {:.1}%\n\
         {nodes} nodes {nps} nps",
        secs * 1000.0,
        100.0 * hits as f64 / probes.max(1) as f64,
    ));
    Some(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid() {
        for fen in POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn an_impossible_table_is_an_error() {
        assert!(run(1, usize::MAX / 2, 1, false, None).is_err());
    }
}
