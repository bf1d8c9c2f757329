//! Probe cost of the default transposition table against the memory-bound
//! limit: one random 64-byte line read from a plain array of the same size,
//! in the same run, for 1 MB, 64 MB and 1 GB.
//!
//! Both loops do 1024 dependent-free random accesses per iteration with keys
//! from the same generator, so the difference is the table's own work
//! (index reduction, two loads per entry, the XOR check).
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
            BenchmarkId::new("probe", format!("{mb}MB")),
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
        drop(tt);
        let lines = vec![Line::default(); (mb << 20) / 64];
        g.bench_with_input(
            BenchmarkId::new("array-read", format!("{mb}MB")),
            &keys,
            |b, keys| {
                b.iter(|| {
                    let mut acc = 0u64;
                    for &k in keys {
                        let i = ((black_box(k) as u128 * lines.len() as u128) >> 64) as usize;
                        acc = acc.wrapping_add(lines[i].0[0]);
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
