//! Zobrist hashing beyond games: recognising lattice configurations already
//! computed in a kinetic Monte Carlo simulation (the use Mason, Hudson and
//! Sutton describe for substitutional alloys, Comput. Phys. Commun. 2005).
//!
//! A periodic L×L lattice holds two atom species, A and B. Each step
//! proposes swapping a random A–B pair of neighbours; the configuration's
//! key is updated incrementally (two `change`s), and the "expensive"
//! energy of a configuration is computed only the first time its key is
//! seen — afterwards it is recalled from a hash map. The program prints the
//! recall rate and checks, every few steps, that the incremental key equals
//! the key computed from scratch.
//!
//! Run: `cargo run --release -p hashmate-hash --example lattice [L] [STEPS]`

use hashmate_hash::rng::SplitMix64;
use hashmate_hash::zobrist::{Zobrist, ZobristError};
use std::collections::HashMap;

const A: usize = 0;
const B: usize = 1;

/// Nearest-neighbour energy: −1 per like pair (the slow, from-scratch
/// computation the cache saves).
fn energy(lattice: &[usize], l: usize) -> i64 {
    let mut e = 0;
    for r in 0..l {
        for c in 0..l {
            let s = lattice[r * l + c];
            let right = lattice[r * l + (c + 1) % l];
            let down = lattice[((r + 1) % l) * l + c];
            e -= i64::from(s == right) + i64::from(s == down);
        }
    }
    e
}

fn main() -> Result<(), ZobristError> {
    let mut args = std::env::args().skip(1);
    let l: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(4)
        .clamp(2, 1000);
    let steps: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let n = l * l;
    let zobrist: Zobrist<u64> = Zobrist::new(n, 2, 0, 2026)?;
    let mut rng = SplitMix64::new(7);
    // Half A, half B, shuffled.
    let mut lattice: Vec<usize> = (0..n).map(|i| if i < n / 2 { A } else { B }).collect();
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        lattice.swap(i, j);
    }
    let scratch = |lat: &[usize]| {
        let board: Vec<Option<usize>> = lat.iter().map(|&s| Some(s)).collect();
        zobrist.key_of_board(&board)
    };
    let mut key = scratch(&lattice)?;
    let mut cache: HashMap<u64, i64> = HashMap::new();
    let (mut recalled, mut computed, mut checks) = (0u64, 0u64, 0u64);
    let mut current = energy(&lattice, l);
    let temperature = 1.5f64;
    for step in 0..steps {
        let i = rng.below(n as u64) as usize;
        let (r, c) = (i / l, i % l);
        let j = match rng.below(4) {
            0 => r * l + (c + 1) % l,
            1 => r * l + (c + l - 1) % l,
            2 => ((r + 1) % l) * l + c,
            _ => ((r + l - 1) % l) * l + c,
        };
        if lattice[i] == lattice[j] {
            continue;
        }
        // The key of the proposed configuration: two cells change state.
        let mut proposed = key;
        zobrist.change(&mut proposed, i, lattice[i], lattice[j])?;
        zobrist.change(&mut proposed, j, lattice[j], lattice[i])?;
        lattice.swap(i, j);
        let e = match cache.get(&proposed) {
            Some(&e) => {
                recalled += 1;
                e
            }
            None => {
                computed += 1;
                let e = energy(&lattice, l);
                cache.insert(proposed, e);
                e
            }
        };
        // Metropolis acceptance.
        let accept = e <= current
            || (rng.next_u64() as f64 / u64::MAX as f64)
                < (-((e - current) as f64) / temperature).exp();
        if accept {
            key = proposed;
            current = e;
        } else {
            lattice.swap(i, j);
        }
        if step % 97 == 0 {
            assert_eq!(
                key,
                scratch(&lattice)?,
                "incremental key drifted at step {step}"
            );
            assert_eq!(current, energy(&lattice, l));
            checks += 1;
        }
    }
    let total = recalled + computed;
    println!("lattice {l}x{l}, {steps} steps, {total} proposals");
    println!("distinct configurations computed: {computed}");
    println!(
        "recalled from the hash map:       {recalled} ({:.1}%)",
        100.0 * recalled as f64 / total.max(1) as f64
    );
    println!("incremental key == key from scratch at all {checks} checks");
    Ok(())
}
