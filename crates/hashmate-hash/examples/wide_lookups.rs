//! Rook and bishop lookups on the 10×8 board, many times over the same
//! 1,024 random (square, occupancy) pairs: a fixed workload to count
//! instructions per lookup under callgrind, beside the criterion figures
//! (`cargo bench -p bench-peers --bench other_boards -- wide`).
//!
//! ```text
//! cargo build --release -p hashmate-hash --example wide_lookups
//! valgrind --tool=callgrind target/release/examples/wide_lookups 1000
//! ```

use hashmate_hash::rng::SplitMix64;
use hashmate_hash::wide::TenByEight;
use std::hint::black_box;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let s = TenByEight::new().expect("10x8 is within the paper's conditions");
    let mut rng = SplitMix64::new(5);
    let n = s.squares();
    let mask = (1u128 << n) - 1;
    let inputs: Vec<(usize, u128)> = (0..1024)
        .map(|_| {
            (
                rng.below(n as u64) as usize,
                rng.next_u128() & rng.next_u128() & mask,
            )
        })
        .collect();
    let mut acc = 0u128;
    for _ in 0..rounds {
        for &(sq, occ) in &inputs {
            acc = acc.wrapping_add(s.rook(black_box(sq), black_box(occ)).unwrap_or(0));
            acc = acc.wrapping_add(s.bishop(black_box(sq), black_box(occ)).unwrap_or(0));
        }
    }
    println!("{} lookups, checksum {acc:032x}", 2 * rounds * inputs.len());
}
