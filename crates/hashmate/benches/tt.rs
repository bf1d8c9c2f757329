//! Probe cost of the default transposition table against the memory-bound
//! limit: one random 64-byte line read from a plain array of the same size,
//! in the same run, for 1 MB, 64 MB and 1 GB.
//!
//! Two access patterns, each measured on both sides:
//!
//! * `independent`: 1024 random accesses whose addresses do not depend on
//!   each other, which the out-of-order core overlaps;
//! * `dependent`: each key is XORed with a bit of the previous access's
//!   result, so accesses are serialised, as a search's probes are (each
//!   follows the move played after the last one).
//!
//! The difference is the table's own work (index reduction, the bucket
//! scan, the XOR check).
//!
//! Run: `cargo bench -p hashmate --bench tt`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hashmate::tt::{Bound, TranspositionTable};
use hashmate::Move;
use hashmate_hash::rng::SplitMix64;
use std::time::Duration;

const N: usize = 1024;

#[repr(align(64))]
#[derive(Clone, Copy, Default)]
struct Line([u64; 8]);

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tt");
    g.throughput(Throughput::Elements(N as u64));
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    for mb in [1usize, 64, 1024] {
        let mut rng = SplitMix64::new(mb as u64);
        let keys: Vec<u64> = (0..N).map(|_| rng.next_u64()).collect();
        let tt = TranspositionTable::new(mb).unwrap();
        // Fill the table so probes read real entries (half of them hit).
        let mut fill = SplitMix64::new(7);
        for _ in 0..tt.capacity() {
            tt.store(fill.next_u64(), Move::NULL, 1, 2, 3, Bound::Exact);
        }
        for &k in keys.iter().step_by(2) {
            tt.store(k, Move::NULL, 1, 2, 3, Bound::Exact);
        }
        g.bench_with_input(
            BenchmarkId::new("probe-independent", format!("{mb}MB")),
            &keys,
            |b, keys| {
                b.iter(|| {
                    let mut acc = 0i32;
                    for &k in keys {
                        if let Some(e) = tt.probe(black_box(k)) {
                            acc += e.score as i32;
                        }
                    }
                    acc
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("probe-dependent", format!("{mb}MB")),
            &keys,
            |b, keys| {
                b.iter(|| {
                    let mut acc = 0u64;
                    for &k in keys {
                        let hit = tt.probe(black_box(k) ^ (acc & 1) << 63);
                        acc = acc.wrapping_add(hit.map_or(1, |e| e.score as u64));
                    }
                    acc
                })
            },
        );
        drop(tt);
        let lines = vec![Line::default(); (mb << 20) / 64];
        let index = |k: u64| ((k as u128 * lines.len() as u128) >> 64) as usize;
        g.bench_with_input(
            BenchmarkId::new("array-independent", format!("{mb}MB")),
            &keys,
            |b, keys| {
                b.iter(|| {
                    let mut acc = 0u64;
                    for &k in keys {
                        acc = acc.wrapping_add(lines[index(black_box(k))].0[0]);
                    }
                    acc
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("array-dependent", format!("{mb}MB")),
            &keys,
            |b, keys| {
                b.iter(|| {
                    let mut acc = 0u64;
                    for &k in keys {
                        let line = &lines[index(black_box(k) ^ (acc & 1) << 63)];
                        acc = acc.wrapping_add(line.0[0] + 1);
                    }
                    acc
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
