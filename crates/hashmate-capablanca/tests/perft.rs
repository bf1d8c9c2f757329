//! Perft of the vendored positions (counts by Fairy-Stockfish, see
//! tests/data/README.md), keys against a recomputation on random playouts,
//! and FEN round trips.

use hashmate_capablanca::perft::perft;
use hashmate_capablanca::{Position, Variant};
use proptest::prelude::*;

/// A vendored line: the variant, the FEN and (depth, count) pairs.
type Line = (Variant, String, Vec<(u32, u64)>);

fn data() -> Vec<Line> {
    let text = include_str!("data/perft.epd");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (variant, rest) = l.split_once(' ').unwrap();
            let mut parts = rest.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').unwrap();
                    (d[1..].parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            (variant.parse().unwrap(), fen, counts)
        })
        .collect()
}

#[test]
fn every_vendored_count() {
    let mut checked = 0;
    for (variant, fen, counts) in data() {
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.fen(), fen, "FEN round trip");
        if fen == variant.start_fen() {
            assert_eq!(pos, variant.start());
        }
        for (depth, expected) in counts {
            assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn keys_and_fens_on_random_playouts(gothic in any::<bool>(), choices in prop::collection::vec(any::<u16>(), 1..120)) {
        let variant = if gothic { Variant::Gothic } else { Variant::Capablanca };
        let mut pos = variant.start();
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                prop_assert!(pos.is_checkmate() || pos.is_stalemate());
                break;
            }
            let mv = moves[c as usize % moves.len()];
            prop_assert!(pos.is_legal(mv));
            prop_assert_eq!(pos.parse_uci(&mv.to_string()), Ok(mv));
            pos.try_play(mv).unwrap();
            prop_assert_eq!(pos.key(), pos.compute_key());
            let again = Position::from_fen(&pos.fen()).unwrap();
            prop_assert_eq!(&again, &pos);
        }
    }

    #[test]
    fn any_text_is_a_fen_or_an_error(s in "\\PC{0,120}") {
        let _ = Position::from_fen(&s);
    }
}
