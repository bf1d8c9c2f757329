//! Hashing beyond chess: the cost of a superko-checked `is_legal` on 19×19
//! as a game grows, generic Zobrist updates against the chess ones, and
//! perfect-hash slider lookups on 9×9 and 10×8 beside 8×8, on the sliders
//! of real 10×8 positions and on random squares and occupancies.
//!
//! Run: `cargo bench -p bench-peers --bench other_boards`

use bench_peers::{capablanca_slider_inputs, random_slider_inputs};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hashmate::zobrist::POLYGLOT;
use hashmate::{Color, Piece, Role, Square};
use hashmate_go::{GoBoard, KoRule, Rules, Stone};
use hashmate_hash::rng::SplitMix64;
use hashmate_hash::wide::{Shogi, TenByEight, WideSliders};
use hashmate_hash::zobrist::Zobrist;

/// A random legal move (no eye filling, as the GTP engine plays).
fn random_move(b: &GoBoard, color: Stone, rng: &mut SplitMix64) -> Option<usize> {
    hashmate_cli::gtp::protocol::random_move(b, color, rng)
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
            Some(p) => b.try_play(c, p).unwrap(),
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
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    // What a 10×8 move generator asks: the sliders of positions from
    // random Capablanca games.
    let (rooks, bishops) = capablanca_slider_inputs(16);
    let ten = TenByEight::new().expect("10x8");
    bench_lookups(&mut g, "rook", "10x8-real", &rooks, |sq, o| ten.rook(sq, o));
    bench_lookups(&mut g, "bishop", "10x8-real", &bishops, |sq, o| {
        ten.bishop(sq, o)
    });
    // Random squares and occupancies: every table entry equally likely.
    bench_random(&mut g, "8x8", &WideSliders::<8, 8>::new().expect("8x8"));
    bench_random(&mut g, "9x9", &Shogi::new().expect("9x9"));
    bench_random(&mut g, "10x8", &ten);
    g.finish();
}

fn bench_lookups(
    g: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    piece: &str,
    name: &str,
    inputs: &[(usize, u128)],
    lookup: impl Fn(usize, u128) -> Option<u128>,
) {
    g.throughput(Throughput::Elements(inputs.len() as u64));
    g.bench_with_input(BenchmarkId::new(piece, name), inputs, |b, inp| {
        b.iter(|| {
            inp.iter().fold(0u128, |a, &(sq, o)| {
                a ^ lookup(black_box(sq), black_box(o)).unwrap_or(0)
            })
        })
    });
}

fn bench_random<const F: u8, const R: u8>(
    g: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    name: &str,
    s: &WideSliders<F, R>,
) {
    let inputs = random_slider_inputs(s.squares(), 1024, 5);
    bench_lookups(g, "rook", name, &inputs, |sq, o| s.rook(sq, o));
    bench_lookups(g, "bishop", name, &inputs, |sq, o| s.bishop(sq, o));
    eprintln!("{name}: {} bytes of tables", s.table_bytes());
}

criterion_group!(benches, superko, zobrist_updates, wide_sliders);
criterion_main!(benches);
