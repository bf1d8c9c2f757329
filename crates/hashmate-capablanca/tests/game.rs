//! SAN, outcomes and the game with repetition on 10×8: properties over
//! random playouts of both variants, and hand-checked cases.

use hashmate_capablanca::{
    DrawReason, Game, MoveParseError, Outcome, PlayError, Position, Variant,
};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Every legal move's SAN reads back as that move, no two legal moves
    /// share a SAN, a check mark follows exactly the moves that give check,
    /// and dropping the disambiguation of a disambiguated SAN makes it
    /// ambiguous.
    #[test]
    fn san_round_trips_on_random_playouts(
        gothic in any::<bool>(),
        choices in prop::collection::vec(any::<u16>(), 1..100),
    ) {
        let variant = if gothic { Variant::Gothic } else { Variant::Capablanca };
        let mut game = Game::new(variant.start());
        for c in choices {
            let pos = game.position().clone();
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mut seen = std::collections::HashSet::new();
            for &m in legal.iter() {
                let san = pos.to_san(m).unwrap();
                prop_assert_eq!(pos.parse_san(&san), Ok(m), "{} in {}", san, pos.fen());
                prop_assert!(seen.insert(san.clone()), "{} twice in {}", san, pos.fen());
                let mut after = pos.clone();
                after.play_unchecked(m);
                prop_assert_eq!(after.is_check(), san.ends_with('+') || san.ends_with('#'));
                prop_assert_eq!(san.ends_with('#'), after.is_checkmate());
                // `Nbd2`-style: a piece letter, one hint, then the square.
                let bare = san.trim_end_matches(['+', '#']).replace('x', "");
                if !m.is_castling() && bare.len() == 4 && bare.as_bytes()[0].is_ascii_uppercase() {
                    let short = format!("{}{}", &bare[..1], &bare[2..]);
                    prop_assert!(matches!(pos.parse_san(&short), Err(MoveParseError::Ambiguous(_))));
                }
            }
            let m = legal[c as usize % legal.len()];
            let san = pos.to_san(m).unwrap();
            prop_assert_eq!(game.play_san(&san), Ok(m));
            if game.outcome().is_some() {
                break;
            }
        }
    }
}

#[test]
fn san_names_the_new_pieces_as_fairy_stockfish_does() {
    let pos = Variant::Capablanca.start();
    let san = |uci: &str| pos.to_san(pos.parse_uci(uci).unwrap()).unwrap();
    assert_eq!(san("h1i3"), "Ci3");
    assert_eq!(san("c1d3"), "Ad3");
    assert_eq!(san("e2e4"), "e4");
    // Promotion to each new piece, with and without `=`.
    let pos: Position = "4k5/P9/10/10/10/10/10/4K5 w - - 0 1".parse().unwrap();
    for (text, letter) in [("a8=C", 'c'), ("a8A", 'a'), ("a8=Q+", 'q')] {
        let mv = pos.parse_san(text).unwrap();
        assert_eq!(mv.promotion().map(|r| r.char()), Some(letter), "{text}");
    }
    assert!(matches!(
        pos.parse_san("a8=K"),
        Err(MoveParseError::Syntax(_))
    ));
    assert!(matches!(
        pos.parse_san("a8"),
        Err(MoveParseError::Illegal(_))
    ));
    assert!(matches!(
        pos.parse_san("Zz9"),
        Err(MoveParseError::Syntax(_))
    ));
}

#[test]
fn castling_is_o_o_and_o_o_o() {
    let pos: Position = "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1"
        .parse()
        .unwrap();
    let short = pos.parse_san("O-O").unwrap();
    assert_eq!(short.to_string(), "f1i1");
    assert_eq!(pos.to_san(short).unwrap(), "O-O");
    let long = pos.parse_san("0-0-0").unwrap();
    assert_eq!(long.to_string(), "f1c1");
    assert_eq!(pos.to_san(long).unwrap(), "O-O-O");
}

/// Each side's verdict on material, as Fairy-Stockfish's
/// `has_insufficient_material` gives it (pyffish 0.0.90, Capablanca and
/// Gothic alike): White's, then Black's.
#[test]
fn insufficient_material_per_side() {
    let cases = [
        ("4k5/10/10/10/10/10/10/4K5 w - - 0 1", true, true),
        ("4k5/10/10/10/10/10/10/3NK5 w - - 0 1", true, true),
        ("4k5/10/10/10/10/10/10/3BK5 w - - 0 1", true, true),
        // Two bishops: on two colours they mate, on one they never do.
        ("4k5/10/10/10/10/10/10/2B1KB4 w - - 0 1", false, true),
        ("4k5/10/10/10/10/10/10/2B2KB3 w - - 0 1", true, true),
        // Bishops of both sides: on two colours either may be mated, on
        // one neither can.
        ("4kb4/10/10/10/10/10/10/3B1K4 w - - 0 1", false, false),
        ("4k1b3/10/10/10/10/10/10/3B1K4 w - - 0 1", true, true),
        // Knights: two mate; one mates with any enemy man in the way.
        ("4k5/10/10/10/10/10/10/2NNK5 w - - 0 1", false, true),
        ("4kq4/10/10/10/10/10/10/3NK5 w - - 0 1", false, false),
        ("4kn4/10/10/10/10/10/10/3NK5 w - - 0 1", false, false),
        ("4k1b3/10/10/10/10/10/10/3N1K4 w - - 0 1", false, false),
        ("4k1n3/10/10/10/10/10/10/5K4 w - - 0 1", true, true),
        // A bishop and a knight; a bishop with an enemy pawn, rook or
        // archbishop to block.
        ("4k5/10/10/10/10/10/10/2NBK5 w - - 0 1", false, true),
        ("4k5/5p4/10/10/10/10/10/3B1K4 w - - 0 1", false, false),
        ("4kr4/10/10/10/10/10/10/3B1K4 w - - 0 1", false, false),
        ("4ka4/10/10/10/10/10/10/3B1K4 w - - 0 1", false, false),
        // A pawn, an archbishop and a chancellor each mate alone.
        ("4k5/5p4/10/10/10/10/10/5K4 w - - 0 1", true, false),
        ("4k5/10/10/10/10/10/3P6/4K5 w - - 0 1", false, true),
        ("4k5/10/10/10/10/10/10/3AK5 w - - 0 1", false, true),
        ("4k5/10/10/10/10/10/10/3CK5 w - - 0 1", false, true),
    ];
    for (fen, white, black) in cases {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(
            (
                pos.has_insufficient_material(hashmate_capablanca::Color::White),
                pos.has_insufficient_material(hashmate_capablanca::Color::Black)
            ),
            (white, black),
            "{fen}"
        );
        assert_eq!(pos.is_insufficient_material(), white && black, "{fen}");
    }
}

#[test]
fn outcomes_in_order_of_precedence() {
    let fen = |f: &str| -> Position { f.parse().unwrap() };
    // Bare kings, and kings with one bishop: nobody can mate.
    assert_eq!(
        fen("4k5/10/10/10/10/10/10/4K5 w - - 0 1").outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
    assert!(fen("4k5/10/10/10/10/10/10/3BK5 w - - 0 1").is_insufficient_material());
    // An archbishop can mate with its king's help.
    assert!(!fen("4k5/10/10/10/10/10/10/3AK5 w - - 0 1").is_insufficient_material());
    // Fifty moves, unless the move that reached them mated.
    assert_eq!(
        fen("4k5/10/10/10/10/10/10/R3K5 w - - 100 80").outcome(),
        Some(Outcome::Draw(DrawReason::FiftyMoves))
    );
    let mut g = Game::new(fen("k9/10/1K8/10/10/10/10/9C w - - 99 80"));
    g.play_san("Cj8#").unwrap();
    assert!(g.position().is_fifty_moves());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Checkmate {
            winner: hashmate_capablanca::Color::White
        })
    );
    assert_eq!(g.outcome().map(Outcome::result), Some("1-0"));
    // Printed as hashmate's 8×8 outcomes are.
    assert_eq!(g.outcome().unwrap().to_string(), "white wins by checkmate");
    assert_eq!(
        Outcome::Draw(DrawReason::FiftyMoves).to_string(),
        "draw by the fifty-move rule"
    );
}

#[test]
fn a_game_keeps_its_keys_and_refuses_bad_moves_unchanged() {
    let mut g = Game::new(Variant::Gothic.start());
    assert!(matches!(
        g.play_uci("e2e5"),
        Err(PlayError::Parse(MoveParseError::Illegal(_)))
    ));
    assert!(matches!(
        g.play_uci("e2"),
        Err(PlayError::Parse(MoveParseError::Syntax(_)))
    ));
    assert!(matches!(g.play_san("Qe7"), Err(PlayError::Parse(_))));
    assert_eq!(g.moves().len(), 0);
    g.play_san("e4").unwrap();
    g.play_uci("e7e5").unwrap();
    assert_eq!(g.keys().len(), 3);
    assert_eq!(g.keys()[2], g.position().compute_key());
    assert_eq!(g.undo().map(|m| m.to_string()), Some("e7e5".into()));
    assert_eq!(g.undo().map(|m| m.to_string()), Some("e2e4".into()));
    assert_eq!(g.undo(), None);
    assert_eq!(g.position().fen(), Variant::Gothic.start().fen());
}
