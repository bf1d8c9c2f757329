//! Hashing beyond chess: the cost of a superko-checked `is_legal` on 19×19
//! as a game grows, generic Zobrist updates against the chess ones, and
//! perfect-hash slider lookups on 9×9 and 10×8 beside 8×8.
//!
//! Run: `cargo bench -p bench-peers --bench other_boards`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hashmate::zobrist::POLYGLOT;
use hashmate::{Color, Piece, Role, Square};
use hashmate_go::{GoBoard, KoRule, Rules, Stone};
use hashmate_hash::rng::SplitMix64;
use hashmate_hash::wide::{Shogi, TenByEight, WideSliders};
use hashmate_hash::zobrist::Zobrist;

/// A random legal move (no eye filling, as the GTP engine plays).
fn random_move(b: &GoBoard, color: Stone, rng: &mut SplitMix64) -> Option<usize> {
    hashmate_go::gtp::random_move(b, color, rng)
}
use std::time::Duration;

/// A random 19×19 game (no eye filling) after `moves` moves.
fn game_at(moves: usize) -> GoBoard {
    let mut b = GoBoard::new(
        19,
        Rules {
            ko: KoRule::PositionalSuperko,
            suicide: false,
        },
    )
    .unwrap();
    let mut rng = SplitMix64::new(moves as u64);
    while b.moves_played() < moves {
        let c = b.to_move();
        match random_move(&b, c, &mut rng) {
            Some(p) => b.play(c, p).unwrap(),
            None => b.pass(),
        }
    }
    b
}

fn superko(c: &mut Criterion) {
    let mut g = c.benchmark_group("go19/is_legal");
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    for moves in [50, 150, 300] {
        let b = game_at(moves);
        let color = b.to_move();
        let empty: Vec<usize> = (0..361).filter(|&p| b.at(p).is_none()).collect();
        g.throughput(Throughput::Elements(empty.len() as u64));
        g.bench_with_input(
            BenchmarkId::from_parameter(moves),
            &empty,
            |bench, empty| {
                bench.iter(|| {
                    empty
                        .iter()
                        .filter(|&&p| b.is_legal(color, black_box(p)))
                        .count()
                })
            },
        );
    }
    g.finish();
}

fn zobrist_updates(c: &mut Criterion) {
    let mut g = c.benchmark_group("zobrist/move");
    g.throughput(Throughput::Elements(1024));
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    let mut rng = SplitMix64::new(1);
    let moves: Vec<(usize, usize)> = (0..1024)
        .map(|_| (rng.below(64) as usize, rng.below(64) as usize))
        .collect();
    let generic: Zobrist<u64> = Zobrist::new(64, 12, 0, 3).expect("a small table");
    let knight = Piece {
        color: Color::White,
        role: Role::Knight,
    };
    g.bench_function("chess-polyglot", |b| {
        b.iter(|| {
            let mut key = 0u64;
            for &(f, t) in &moves {
                let (f, t) = (Square::ALL[f], Square::ALL[t]);
                key ^= POLYGLOT.piece(knight, black_box(f)) ^ POLYGLOT.piece(knight, black_box(t));
            }
            key
        })
    });
    g.bench_function("generic-u64", |b| {
        b.iter(|| {
            let mut key = 0u64;
            for &(f, t) in &moves {
                // Indices are in range; a failure would leave the key as is.
                let _ = generic.move_state(&mut key, black_box(f), black_box(t), 3);
            }
            key
        })
    });
    g.finish();
}

fn wide_sliders(c: &mut Criterion) {
    let mut g = c.benchmark_group("wide");
    g.throughput(Throughput::Elements(1024));
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    bench_wide(&mut g, "8x8", &WideSliders::<8, 8>::new().expect("8x8"));
    bench_wide(&mut g, "9x9", &Shogi::new().expect("9x9"));
    bench_wide(&mut g, "10x8", &TenByEight::new().expect("10x8"));
    g.finish();
}

fn bench_wide<const F: u8, const R: u8>(
    g: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    name: &str,
    s: &WideSliders<F, R>,
) {
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
    g.bench_with_input(BenchmarkId::new("rook", name), &inputs, |b, inp| {
        b.iter(|| {
            inp.iter().fold(0u128, |a, &(sq, o)| {
                a ^ s.rook(black_box(sq), black_box(o)).unwrap_or(0)
            })
        })
    });
    g.bench_with_input(BenchmarkId::new("bishop", name), &inputs, |b, inp| {
        b.iter(|| {
            inp.iter().fold(0u128, |a, &(sq, o)| {
                a ^ s.bishop(black_box(sq), black_box(o)).unwrap_or(0)
            })
        })
    });
    eprintln!("{name}: {} bytes of tables", s.table_bytes());
}

criterion_group!(benches, superko, zobrist_updates, wide_sliders);
criterion_main!(benches);
