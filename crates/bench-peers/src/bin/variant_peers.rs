//! Perft speed on the 10×8 board: hashmate-capablanca (perfect-hash
//! sliders) against Fairy-Stockfish's `go perft` (Debian's build), start
//! positions of Capablanca and Gothic chess, alternating engine by engine
//! in each round so that both see the same machine state.
//!
//! Run: `cargo run --release -p bench-peers --bin variant_peers [ROUNDS] [DEPTH]`
//! Prints a Markdown table for docs/BENCHMARKS.md.

use bench_peers::{median, Uci};
use hashmate_capablanca::{perft::perft, Variant};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let Some(mut fs) = ["/usr/games/fairy-stockfish", "fairy-stockfish"]
        .into_iter()
        .find_map(|p| Uci::start(p).ok())
    else {
        eprintln!("fairy-stockfish not found (apt-get install fairy-stockfish)");
        std::process::exit(2);
    };
    println!("| variant | depth | nodes | hashmate Mn/s | Fairy-Stockfish Mn/s | ratio |");
    println!("|---|---:|---:|---:|---:|---:|");
    for v in Variant::ALL {
        fs.send(&format!("setoption name UCI_Variant value {}", v.name()))
            .expect("fairy-stockfish accepts the variant");
        let pos = v.start();
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let mut nodes = 0;
        for _ in 0..rounds {
            let start = Instant::now();
            nodes = perft(&pos, depth);
            ours.push(start.elapsed());
            let (n, t) = fs.perft(v.start_fen(), depth).expect("go perft");
            assert_eq!(n, nodes, "{v:?}: hashmate and Fairy-Stockfish disagree");
            theirs.push(t);
        }
        let o = nodes as f64 / median(ours).as_secs_f64() / 1e6;
        let t = nodes as f64 / median(theirs).as_secs_f64() / 1e6;
        println!(
            "| {} | {depth} | {nodes} | {o:.1} | {t:.1} | {:.2}× |",
            v.name(),
            o / t
        );
    }
}
