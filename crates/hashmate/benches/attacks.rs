//! Slider lookup cost of every backend, and the paper's Table 4.
//!
//! Each measurement runs 1024 lookups over a fixed input set, so criterion's
//! throughput figure is lookups per second; time per lookup is the time per
//! iteration divided by 1024. Two input sets: random occupancies (each bit
//! set with probability 1/4, like a middlegame board) on random squares, and
//! the real occupancies of the 200 positions of tests/data/perft/suite.epd
//! with every slider of either side as the origin.
//!
//! Run: `cargo bench -p hashmate --bench attacks`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hashmate::attacks::fl::{self, FlCompact, FlFast};
use hashmate::attacks::hyperbola::Hyperbola;
use hashmate::attacks::kindergarten::Kindergarten;
use hashmate::attacks::magic::Magic;
use hashmate::attacks::pext::Pext;
use hashmate::attacks::ray_loop::{self, RayLoop};
use hashmate::attacks::Sliders;
use hashmate::{Bitboard, Position, Role, Square};
use hashmate_hash::rng::SplitMix64;
use std::time::Duration;

const N: usize = 1024;

fn random_inputs() -> Vec<(Square, Bitboard)> {
    let mut rng = SplitMix64::new(42);
    (0..N)
        .map(|_| {
            let sq = Square::new(rng.below(64) as u8).unwrap();
            let occ = rng.next_u64() & rng.next_u64();
            (sq, Bitboard(occ).with(sq))
        })
        .collect()
}

fn real_inputs() -> Vec<(Square, Bitboard)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft/suite.epd");
    let text = std::fs::read_to_string(path).expect("the vendored perft suite");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let pos = Position::from_fen(line.split(';').next().unwrap().trim()).unwrap();
        let sliders =
            pos.by_role(Role::Rook) | pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
        for sq in sliders {
            out.push((sq, pos.occupied()));
        }
    }
    // Repeat to a fixed size so every benchmark does N lookups.
    out.iter().cycle().take(N).copied().collect()
}

fn run<S: Sliders>(c: &mut Criterion, s: S, inputs: &[(Square, Bitboard)], set: &str) {
    let mut g = c.benchmark_group(format!("lookup/{set}"));
    g.throughput(Throughput::Elements(N as u64));
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    macro_rules! piece {
        ($name:literal, $f:ident) => {
            g.bench_with_input(BenchmarkId::new($name, S::NAME), inputs, |b, inp| {
                b.iter(|| {
                    let mut acc = 0u64;
                    for &(sq, occ) in inp {
                        acc ^= s.$f(black_box(sq), black_box(occ)).0;
                    }
                    acc
                })
            });
        };
    }
    piece!("rook", rook);
    piece!("bishop", bishop);
    piece!("queen", queen);
    g.finish();
}

fn backends(c: &mut Criterion) {
    let sets = [("random", random_inputs()), ("positions", real_inputs())];
    for (name, inputs) in &sets {
        run(c, FlFast, inputs, name);
        run(c, FlCompact, inputs, name);
        run(c, Magic::new(), inputs, name);
        if let Some(p) = Pext::detect() {
            run(c, p, inputs, name);
        }
        run(c, Kindergarten, inputs, name);
        run(c, Hyperbola, inputs, name);
        run(c, RayLoop, inputs, name);
    }
    eprintln!("table bytes:");
    eprintln!("  {:<13}{:>9}", FlFast::NAME, FlFast.table_bytes());
    eprintln!("  {:<13}{:>9}", FlCompact::NAME, FlCompact.table_bytes());
    eprintln!("  {:<13}{:>9}", Magic::NAME, Magic::new().table_bytes());
    if let Some(p) = Pext::detect() {
        eprintln!("  {:<13}{:>9}", Pext::NAME, p.table_bytes());
    }
    eprintln!(
        "  {:<13}{:>9}",
        Kindergarten::NAME,
        Kindergarten.table_bytes()
    );
    eprintln!("  {:<13}{:>9}", Hyperbola::NAME, Hyperbola.table_bytes());
}

/// Table 4 of the paper: one line type at a time, hash against loop.
fn table4(c: &mut Criterion) {
    let inputs = real_inputs();
    let mut g = c.benchmark_group("table4");
    g.throughput(Throughput::Elements(N as u64));
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    // A macro rather than function pointers, so that each line function is
    // inlined into its loop exactly as in real use.
    macro_rules! op {
        ($line:literal, $method:literal, $f:path) => {
            g.bench_with_input(BenchmarkId::new($line, $method), &inputs, |b, inp| {
                b.iter(|| {
                    let mut acc = 0u64;
                    for &(sq, occ) in inp {
                        acc ^= $f(black_box(sq), black_box(occ)).0;
                    }
                    acc
                })
            });
        };
    }
    op!("file", "h1", fl::file_h1);
    op!("file", "loop", ray_loop::file);
    op!("ne", "h1", fl::ne_h1);
    op!("ne", "h1min", fl::ne_h1_minimal);
    op!("ne", "loop", ray_loop::ne);
    op!("nw", "h2", fl::nw_h2);
    op!("nw", "loop", ray_loop::nw);
    op!("rank", "shift", fl::rank_shift);
    g.finish();
}

criterion_group!(benches, backends, table4);
criterion_main!(benches);
