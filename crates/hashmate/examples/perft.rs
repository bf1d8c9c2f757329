//! Count the leaves of the legal move tree, as move-generator authors do.
//!
//! Run: `cargo run --release -p hashmate --example perft -- [DEPTH] [FEN]`

use hashmate::perft::divide;
use hashmate::Position;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or(5)
        .clamp(1, 12);
    let fen: Vec<String> = args.collect();
    let pos = if fen.is_empty() {
        Position::startpos()
    } else {
        match fen.join(" ").parse::<Position>() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad FEN: {e}");
                std::process::exit(2);
            }
        }
    };
    let start = Instant::now();
    let split = divide(&pos, depth);
    let total: u64 = split.iter().map(|&(_, n)| n).sum();
    for (mv, n) in &split {
        println!("{}: {n}", mv.to_uci(pos.castling_mode()));
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "\nperft({depth}) = {total} in {secs:.3} s ({:.0} nodes/s)",
        total as f64 / secs.max(1e-9)
    );
}
