//! Nets and positions shared by the crate's unit tests.

use crate::features::KingBuckets;
use crate::network::Network;

/// A net of one output bucket with small pseudo-random weights.
pub fn random_net(hidden: usize, seed: u64) -> Network {
    random_bucketed(hidden, 1, seed)
}

/// A net of `buckets` output buckets with small pseudo-random weights.
pub fn random_bucketed(hidden: usize, buckets: usize, seed: u64) -> Network {
    random_kings(KingBuckets::PLAIN, hidden, buckets, seed)
}

/// A net with king buckets `kings` and `buckets` output buckets, with
/// small pseudo-random weights.
pub fn random_kings(kings: KingBuckets, hidden: usize, buckets: usize, seed: u64) -> Network {
    let mut s = seed;
    let mut next = move |range: i32| {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((s >> 33) as i32).rem_euclid(2 * range + 1) - range
    };
    let ft_weights = (0..kings.inputs() * hidden)
        .map(|_| next(60) as i16)
        .collect();
    let ft_bias = (0..hidden).map(|_| next(100) as i16).collect();
    let out_weights = (0..buckets * 2 * hidden)
        .map(|_| next(120) as i16)
        .collect();
    let out_bias = (0..buckets).map(|_| next(5000)).collect();
    Network::with_king_buckets(kings, hidden, ft_weights, ft_bias, out_weights, out_bias).unwrap()
}

pub const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 0 7",
];
