//! Probe cost of the default transposition table against the memory-bound
//! limit: one random 64-byte line read from a plain array of the same size,
//! in the same run, for 1 MB, 64 MB and 1 GB.
//!
//! Both sides walk the same ring of random keys: one key per 16 table
//! entries, at most 2^20 (64 MB of distinct lines), so the 64 MB and 1 GB
//! runs read memory, not a cache-resident handful of lines. Each timed
//! iteration takes the next 1024 keys of the ring. Every key is stored
//! (deeper than the filler, so it stays), so every probe hits; keys that a
//! full bucket still refused are left out of the ring. The plain array is
//! written before it is read, so its pages are real memory and not the
//! kernel's shared zero page, and it asks for huge pages as the table does.
//!
//! Two access patterns, each measured on both sides:
//!
//! * `independent`: addresses do not depend on each other, and the
//!   out-of-order core overlaps the accesses;
//! * `dependent`: which key comes next depends on a bit of the data the
//!   previous access loaded, so the accesses are serialised, as a search's
//!   probes are (each follows the move played after the last one). Since
//!   every probe hits, the chain runs through loaded data on both sides,
//!   never through a predicted hit-or-miss branch the core would
//!   speculate past.
//!
//! The difference is the table's own work (index reduction, the bucket
//! scan, the XOR check).
//!
//! Run: `cargo bench -p hashmate --bench tt`

use criterion::measurement::WallTime;
use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use hashmate::tt::{Bound, TranspositionTable, TtEntry};
use hashmate::Move;
use hashmate_hash::rng::SplitMix64;
use std::time::Duration;

/// Accesses per timed iteration.
const N: usize = 1024;
/// An exact entry of `depth` holding [`SCORE`].
fn entry(depth: u8) -> TtEntry {
    TtEntry {
        mv: Move::NULL,
        score: SCORE,
        eval: 2,
        depth,
        bound: Bound::Exact,
        pv: false,
    }
}

/// The score every stored entry and every array line holds.
const SCORE: i16 = 1;

#[repr(align(64))]
#[derive(Clone, Copy)]
struct Line([u64; 8]);

/// Runs `access` over the next `N` keys of the ring, independently or with
/// each key chosen by the previous access's data.
fn walk(ring: &[u64], cursor: &mut usize, dependent: bool, access: impl Fn(u64) -> u64) -> u64 {
    let mask = ring.len() - 1;
    let mut acc = 0u64;
    for j in 0..N {
        let i = *cursor + j + if dependent { acc as usize & 1 } else { 0 };
        acc = acc.wrapping_add(access(black_box(ring[i & mask])) + 1);
    }
    *cursor = (*cursor + N) & mask;
    acc
}

/// Benchmarks `access` over the ring in both patterns, as
/// `{side}-independent` and `{side}-dependent`.
fn both_patterns(
    g: &mut BenchmarkGroup<'_, WallTime>,
    side: &str,
    mb: usize,
    ring: &[u64],
    access: impl Fn(u64) -> u64 + Copy,
) {
    for (dependent, pattern) in [(false, "independent"), (true, "dependent")] {
        let mut cursor = 0;
        let id = BenchmarkId::new(format!("{side}-{pattern}"), format!("{mb}MB"));
        g.bench_function(id, |b| {
            b.iter(|| walk(ring, &mut cursor, dependent, access))
        });
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tt");
    g.throughput(Throughput::Elements(N as u64));
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    for mb in [1usize, 64, 1024] {
        let tt = TranspositionTable::new(mb).unwrap();
        let mut rng = SplitMix64::new(mb as u64);
        // Fill the table with other positions, so probes scan real entries.
        for _ in 0..tt.capacity() {
            tt.store(rng.next_u64(), entry(3));
        }
        let wanted = (tt.capacity() / 16).min(1 << 20);
        let mut ring: Vec<u64> = (0..wanted).map(|_| rng.next_u64()).collect();
        for &k in &ring {
            tt.store(k, entry(10));
        }
        ring.retain(|&k| tt.probe(k).is_some());
        ring.truncate(1 << ring.len().ilog2());
        let probe = |k: u64| tt.probe(k).map_or(0, |e| e.score as u64);
        both_patterns(&mut g, "probe", mb, &ring, probe);
        drop(tt);
        let lines = array_like_the_table((mb << 20) / 64);
        let read = |k: u64| lines[((k as u128 * lines.len() as u128) >> 64) as usize].0[0];
        both_patterns(&mut g, "array", mb, &ring, read);
    }
    g.finish();
}

/// The baseline array, `n` lines, backed by pages of the size the table
/// gets: on Linux the table asks for transparent huge pages
/// (`madvise(MADV_HUGEPAGE)`), so the array asks too, and a difference in
/// TLB misses does not pass for the table's own work.
fn array_like_the_table(n: usize) -> Vec<Line> {
    let mut v: Vec<Line> = Vec::with_capacity(n);
    hashmate::huge_pages::advise(&v);
    v.resize(n, Line([SCORE as u64; 8]));
    v
}

criterion_group!(benches, bench);
criterion_main!(benches);
