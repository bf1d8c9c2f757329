//! Perft speed, single thread, bulk counting: hashmate against cozy-chess
//! (built with the same `-C target-cpu=native`) and Debian's Stockfish
//! (`go perft`), alternating engine by engine within each round so that all
//! three see the same machine state. Then hashmate with each slider backend.
//!
//! Run: `cargo run --release -p bench-peers --bin perft_peers [ROUNDS]`
//! Prints Markdown tables for docs/BENCHMARKS.md.

use bench_peers::{cozy_perft, median, Uci, PERFT_POSITIONS};
use hashmate::attacks::fl::{FlCompact, FlFast};
use hashmate::attacks::fl_joint::FlJoint;
use hashmate::attacks::hyperbola::Hyperbola;
use hashmate::attacks::kindergarten::Kindergarten;
use hashmate::attacks::magic::Magic;
use hashmate::attacks::pext::Pext;
use hashmate::attacks::ray_loop::RayLoop;
use hashmate::attacks::Sliders;
use hashmate::perft::perft_with;
use hashmate::Position;
use std::time::{Duration, Instant};

fn timed<F: FnMut() -> u64>(mut f: F) -> (u64, Duration) {
    let start = Instant::now();
    let n = f();
    (n, start.elapsed())
}

fn mnps(nodes: u64, d: Duration) -> f64 {
    nodes as f64 / d.as_secs_f64() / 1e6
}

fn backend<S: Sliders>(s: S, rounds: usize) -> Vec<f64> {
    PERFT_POSITIONS
        .iter()
        .map(|&(_, fen, depth)| {
            let pos = Position::from_fen(fen).unwrap();
            let mut times = Vec::new();
            let mut nodes = 0;
            for _ in 0..rounds {
                let (n, t) = timed(|| perft_with(s, &pos, depth));
                nodes = n;
                times.push(t);
            }
            mnps(nodes, median(times))
        })
        .collect()
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let sf_path = ["/usr/games/stockfish", "stockfish"]
        .into_iter()
        .find(|p| Uci::start(p).is_ok());
    let mut sf = sf_path.and_then(|p| Uci::start(p).ok());
    if sf.is_none() {
        eprintln!("stockfish not found (apt-get install stockfish); its column stays empty");
    }

    println!("| position | depth | nodes | hashmate Mn/s | cozy-chess Mn/s | Stockfish Mn/s | vs cozy | vs Stockfish |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for &(name, fen, depth) in &PERFT_POSITIONS {
        let ours = Position::from_fen(fen).unwrap();
        let cozy: cozy_chess::Board = fen.parse().unwrap();
        let (mut t_ours, mut t_cozy, mut t_sf) = (Vec::new(), Vec::new(), Vec::new());
        let mut nodes = 0;
        for _ in 0..rounds {
            let (n1, a) = timed(|| perft_with(FlFast, &ours, depth));
            let (n2, b) = timed(|| cozy_perft(&cozy, depth));
            assert_eq!(n1, n2, "{name}: hashmate and cozy-chess disagree");
            nodes = n1;
            t_ours.push(a);
            t_cozy.push(b);
            if let Some(e) = sf.as_mut() {
                let (n3, c) = e.perft(fen, depth).expect("stockfish go perft");
                assert_eq!(n1, n3, "{name}: hashmate and Stockfish disagree");
                t_sf.push(c);
            }
        }
        let o = mnps(nodes, median(t_ours));
        let c = mnps(nodes, median(t_cozy));
        let s = if t_sf.is_empty() {
            f64::NAN
        } else {
            mnps(nodes, median(t_sf))
        };
        println!(
            "| {name} | {depth} | {nodes} | {o:.1} | {c:.1} | {s:.1} | {:.2}× | {:.2}× |",
            o / c,
            o / s
        );
    }

    println!();
    println!("Slider backends inside the same perft (Mn/s):");
    println!();
    print!("| backend |");
    for (name, _, d) in &PERFT_POSITIONS {
        print!(" {name} d{d} |");
    }
    println!();
    println!("|---|---:|---:|---:|---:|---:|");
    let row = |name: &str, v: Vec<f64>| {
        print!("| {name} |");
        for x in v {
            print!(" {x:.1} |");
        }
        println!();
    };
    row(FlFast::NAME, backend(FlFast, rounds));
    row(FlCompact::NAME, backend(FlCompact, rounds));
    row(FlJoint::NAME, backend(FlJoint::init(), rounds));
    row(Magic::NAME, backend(Magic::new(), rounds));
    if let Some(p) = Pext::detect() {
        row(Pext::NAME, backend(p, rounds));
    }
    row(Kindergarten::NAME, backend(Kindergarten, rounds));
    row(Hyperbola::NAME, backend(Hyperbola, rounds));
    row(RayLoop::NAME, backend(RayLoop, 1));
}
