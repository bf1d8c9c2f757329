//! Positions of seeded random games, one FEN a line (for cross-checks).
//!
//! Run: `cargo run -p hashmate-capablanca --example playouts -- VARIANT COUNT SEED`

use hashmate_capablanca::Variant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let variant: Variant = args.next().unwrap_or_else(|| "capablanca".into()).parse()?;
    let count: usize = args.next().and_then(|c| c.parse().ok()).unwrap_or(10);
    let mut seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut next = move || {
        // SplitMix64, inline to keep the example free of dependencies.
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut printed = 0;
    while printed < count {
        let mut pos = variant.start();
        let plies = 4 + next() % 120;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(next() % moves.len() as u64) as usize]);
            if next() % 16 == 0 || pos.ep_square().is_some() || pos.is_check() {
                println!("{}", pos.fen());
                printed += 1;
                if printed >= count {
                    break;
                }
            }
        }
    }
    Ok(())
}
