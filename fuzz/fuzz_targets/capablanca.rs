//! Capablanca and Gothic chess on 10×8 (`hashmate-capablanca`): FEN, UCI
//! and SAN text, and games played from it. Any text is accepted or refused,
//! never a panic; what is accepted is consistent with itself.
//!
//! The first byte chooses what the rest is:
//! - even: a FEN. An accepted position prints back to a FEN that parses to
//!   the same position; its key equals a recomputation; every legal move
//!   is `is_legal`, keeps the key incremental, its SAN and UCI parse
//!   back to it, and leaves a side that could never mate still unable to;
//!   written with the en-passant square only where a capture
//!   is possible, or legal, it reads back to the same moves.
//! - odd: whitespace-separated moves, each tried as UCI and then as SAN in
//!   a game from one of a few positions. A refused move leaves the game as
//!   it was; an accepted one is legal where it was played; undoing every
//!   move gives back the start.
#![no_main]
use hashmate_capablanca::fen::EnPassantMode;
use hashmate_capablanca::{Color, Game, Position, Variant};
use libfuzzer_sys::fuzz_target;

// Beside the two start positions: castling and en passant, and pawns a
// move from promoting (to the archbishop and chancellor too).
const POSITIONS: [&str; 2] = [
    "r4k3r/pppp1ppppp/10/3Pp5/10/10/PPP1PPPPPP/R4K3R w KQkq e6 0 9",
    "4k5/1P6P1/10/10/10/10/1p6p1/4K5 w - - 0 40",
];

fn check_position(pos: &Position) {
    assert_eq!(pos.key(), pos.compute_key(), "incremental key");
    let again = Position::from_fen(&pos.fen()).expect("printed FEN parses");
    assert_eq!(again.fen(), pos.fen());
    assert_eq!(again.key(), pos.key());
    for &mv in pos.legal_moves().as_slice() {
        assert!(pos.is_legal(mv));
        assert_eq!(pos.parse_uci(&mv.to_string()), Ok(mv), "UCI of {mv}");
        let san = pos.to_san(mv).expect("a legal move has SAN");
        assert_eq!(pos.parse_san(&san), Ok(mv), "SAN {san}");
        let mut child = pos.clone();
        child.play_unchecked(mv);
        assert_eq!(child.key(), child.compute_key(), "key after {mv}");
        // A side that can never mate cannot after any move either.
        for c in [Color::White, Color::Black] {
            assert!(
                !pos.has_insufficient_material(c) || child.has_insufficient_material(c),
                "{c:?} could mate after {mv}"
            );
        }
    }
    let uci = |p: &Position| {
        let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    };
    for mode in [EnPassantMode::PseudoLegal, EnPassantMode::Legal] {
        let fen = pos.fen_with(mode);
        let back = Position::from_fen(&fen).expect("a FEN of either mode parses");
        assert_eq!(uci(&back), uci(pos), "{fen}");
    }
    let _ = pos.outcome();
    let _ = pos.is_checkmate();
    let _ = pos.is_stalemate();
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if mode % 2 == 0 {
        if let Ok(pos) = Position::from_fen(text) {
            check_position(&pos);
        }
        return;
    }
    let start = match (mode / 2) % 4 {
        0 => Variant::Capablanca.start(),
        1 => Variant::Gothic.start(),
        i => Position::from_fen(POSITIONS[i as usize - 2]).expect("a valid start"),
    };
    let mut game = Game::new(start.clone());
    for word in text.split_whitespace().take(64) {
        let before = game.position().clone();
        let len = game.moves().len();
        let played = game.play_uci(word).or_else(|_| game.play_san(word));
        match played {
            Ok(mv) => {
                assert!(before.is_legal(mv), "{word} played though illegal");
                assert_eq!(game.moves().len(), len + 1);
                assert_eq!(game.keys().last(), Some(&game.position().key()));
                assert_eq!(game.position().key(), game.position().compute_key());
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                assert_eq!(game.moves().len(), len, "a refused {word} changed the game");
                assert_eq!(game.position().fen(), before.fen());
            }
        }
        let _ = game.outcome();
    }
    while game.undo().is_some() {}
    assert_eq!(game.position().fen(), start.fen());
    assert_eq!(game.keys(), &[start.key()]);
});
