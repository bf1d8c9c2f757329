//! Property tests over random legal playouts: incremental keys (main,
//! pawn, lock) always equal keys computed from scratch; playing on a copy
//! leaves the original untouched (copy-make's "unmake"); FEN, X-FEN and
//! Shredder-FEN round-trip; UCI and SAN notation round-trip; noisy and
//! quiet generation partition the legal moves.

use hashmate::fen::CastlingStyle;
use hashmate::movegen::GenMode;
use hashmate::Position;
use proptest::prelude::*;

const STARTS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_playouts(start in 0usize..3, choices in prop::collection::vec(any::<u16>(), 1..150)) {
        let mut pos = Position::from_fen(STARTS[start]).unwrap();
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut sorted: Vec<_> = moves.to_vec();
            let noisy = pos.moves(GenMode::Noisy);
            let quiet = pos.moves(GenMode::Quiet);
            prop_assert_eq!(noisy.len() + quiet.len(), moves.len());
            for m in noisy.iter() {
                prop_assert!(pos.is_capture(*m) || m.promotion().is_some());
            }
            let mut both: Vec<_> = noisy.iter().chain(quiet.iter()).copied().collect();
            both.sort_by_key(|m| m.to_u16());
            sorted.sort_by_key(|m| m.to_u16());
            prop_assert_eq!(both, sorted);

            let mv = moves[c as usize % moves.len()];
            for c960 in [false, true] {
                prop_assert_eq!(pos.parse_uci(&pos.to_uci(mv, c960)), Ok(mv));
            }
            prop_assert_eq!(pos.parse_san(&pos.to_san(mv)), Ok(mv));

            let before = pos.clone();
            let mut child = pos.clone();
            child.play(mv);
            prop_assert_eq!(&pos, &before);
            let (k, p, l) = child.compute_keys();
            prop_assert_eq!((child.key(), child.pawn_key(), child.lock()), (k, p, l));
            for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
                let again = Position::from_fen(&child.to_fen(style)).unwrap();
                prop_assert_eq!(&again, &child);
            }
            pos = child;
        }
    }
}
