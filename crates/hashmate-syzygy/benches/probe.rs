//! Cost of one WDL and one DTZ probe, tables already open and their
//! blocks in the cache: 1,024 random legal positions per material, probed
//! in turn in each timed iteration.
//!
//! * 4 pieces: KRvKP, from the tables vendored for the tests;
//! * 5 pieces: KRPvKR, from the folder `SYZYGY_PATH` names (the standard
//!   Syzygy files); without it, the vendored KRNvKR.
//!
//! Run: `cargo bench -p hashmate-syzygy --bench probe`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use hashmate::builder::PositionBuilder;
use hashmate::{Color, Piece, Position, Square};
use hashmate_hash::rng::SplitMix64;
use hashmate_syzygy::Tablebase;
use std::path::PathBuf;

/// Positions per timed iteration.
const N: usize = 1024;

/// `N` legal positions with the pieces of `material` (`KRPvKR`) on random
/// squares, either side to move.
fn positions(material: &str, rng: &mut SplitMix64) -> Vec<Position> {
    let (w, b) = material.split_once('v').expect("a material such as KRvKP");
    let pieces: Vec<Piece> = w
        .chars()
        .chain(b.chars().map(|c| c.to_ascii_lowercase()))
        .map(|c| Piece::from_char(c).expect("piece letters"))
        .collect();
    let mut out = Vec::with_capacity(N);
    while out.len() < N {
        let mut setup = PositionBuilder::new();
        for &piece in &pieces {
            let sq = Square::new((rng.next_u64() % 64) as u8).expect("0..64");
            // A clash is undone (and the count below rejects the setup);
            // a pawn on a back rank makes it invalid.
            let there = setup.piece_at(sq).is_some();
            setup.piece(sq, (!there).then_some(piece));
        }
        let side = if rng.next_u64() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Ok(pos) = setup.side_to_move(side).build() {
            if pos.occupied().count() as usize == pieces.len() {
                out.push(pos);
            }
        }
    }
    out
}

fn bench_material(c: &mut Criterion, tb: &Tablebase, material: &str) {
    let mut rng = SplitMix64::new(0x5eed);
    let set = positions(material, &mut rng);
    // Open the tables and warm the block cache before timing.
    for p in &set {
        tb.wdl(p).expect("the table is there");
        tb.dtz(p).expect("the table is there");
    }
    let mut g = c.benchmark_group(format!("probe/{material}"));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("wdl", |b| {
        b.iter(|| {
            for p in &set {
                black_box(tb.wdl(black_box(p)).ok());
            }
        })
    });
    g.bench_function("dtz", |b| {
        b.iter(|| {
            for p in &set {
                black_box(tb.dtz(black_box(p)).ok());
            }
        })
    });
    g.finish();
}

fn probes(c: &mut Criterion) {
    let vendored = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    let mut tb = Tablebase::new();
    tb.add_directory(&vendored).expect("the vendored tables");
    bench_material(c, &tb, "KRvKP");

    let five = PathBuf::from(std::env::var_os("SYZYGY_PATH").unwrap_or_default());
    if five.join("KRPvKR.rtbw").exists() && five.join("KRPvKR.rtbz").exists() {
        let mut tb5 = Tablebase::new();
        tb5.add_directory(&five).expect("the five-piece tables");
        bench_material(c, &tb5, "KRPvKR");
    } else {
        // A clone alone: the vendored pawnless five-piece table.
        eprintln!(
            "no KRPvKR tables in SYZYGY_PATH ('{}'): five-piece probes of the vendored KRNvKR",
            five.display()
        );
        let mut tb5 = Tablebase::new();
        tb5.add_directory(&vendored).expect("the vendored tables");
        tb5.add_directory(vendored.with_file_name("syzygy5"))
            .expect("the vendored five-piece table");
        bench_material(c, &tb5, "KRNvKR");
    }
}

criterion_group!(benches, probes);
criterion_main!(benches);
