//! Perft of a 10×8 position.
//!
//! Run: `cargo run --release -p hashmate-capablanca --example wide_perft -- VARIANT DEPTH [FEN]`

use hashmate_capablanca::{perft::divide, Position, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let variant: Variant = args.next().unwrap_or_else(|| "capablanca".into()).parse()?;
    let depth: u32 = args
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or(3)
        .clamp(1, 10);
    let fen: Vec<String> = args.collect();
    let pos = if fen.is_empty() {
        variant.start()
    } else {
        Position::from_fen(&fen.join(" "))?
    };
    let start = std::time::Instant::now();
    let split = divide(&pos, depth);
    for (mv, n) in &split {
        println!("{mv}: {n}");
    }
    let total: u64 = split.iter().map(|s| s.1).sum();
    println!(
        "\nNodes searched: {total} ({:.3} s)",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
