//! Rook and bishop lookups on the 10×8 board, many times over a fixed set
//! of inputs: a workload to count instructions per lookup under callgrind,
//! beside the criterion figures (`cargo bench -p bench-peers --bench
//! other_boards -- wide`).
//!
//! `real` takes the sliders of positions from seeded random Capablanca
//! games (what a move generator asks); `random` takes 1,024 random squares
//! and occupancies (the worst case for the caches).
//!
//! ```text
//! cargo build --release -p bench-peers --bin wide_lookups
//! valgrind --tool=callgrind target/release/wide_lookups real 100
//! ```

use bench_peers::{capablanca_slider_inputs, random_slider_inputs};
use hashmate_hash::wide::TenByEight;
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "real".into());
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let (rooks, bishops) = match mode.as_str() {
        "real" => capablanca_slider_inputs(16),
        "random" => (
            random_slider_inputs(80, 1024, 5),
            random_slider_inputs(80, 1024, 6),
        ),
        other => {
            eprintln!("unknown workload {other:?}: real or random");
            std::process::exit(2);
        }
    };
    let s = TenByEight::new().expect("10x8 is within the paper's conditions");
    let mut acc = 0u128;
    for _ in 0..rounds {
        for &(sq, occ) in &rooks {
            acc = acc.wrapping_add(s.rook(black_box(sq), black_box(occ)).unwrap_or(0));
        }
        for &(sq, occ) in &bishops {
            acc = acc.wrapping_add(s.bishop(black_box(sq), black_box(occ)).unwrap_or(0));
        }
    }
    println!(
        "{mode}: {} lookups ({} rook, {} bishop inputs), checksum {acc:032x}",
        rounds * (rooks.len() + bishops.len()),
        rooks.len(),
        bishops.len()
    );
}
