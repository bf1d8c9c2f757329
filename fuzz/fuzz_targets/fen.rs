//! FEN parsing: any text is accepted or refused, never a panic; an accepted
//! position prints back to a FEN that parses to the same position, and its
//! moves, keys and game-end queries work. Written with the en-passant square
//! only where a capture is possible, or legal, it reads back to the same
//! moves (and, where possible, the same Polyglot key).
#![no_main]
use hashmate::fen::{CastlingStyle, EnPassantMode};
use hashmate::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = Position::from_fen(text) {
        let again = Position::from_fen(&pos.fen()).expect("printed FEN parses");
        assert_eq!(again, pos);
        let (k, p, l) = pos.compute_keys();
        assert_eq!((k, p, l), (pos.key(), pos.pawn_key(), pos.lock()));
        assert_eq!(pos.non_pawn_keys(), pos.compute_non_pawn_keys());
        for mv in pos.legal_moves() {
            assert!(pos.is_legal(mv));
            let mut child = pos.clone();
            child.play_unchecked(mv);
            assert_eq!(pos.gives_check(mv), child.is_check());
        }
        let _ = pos.outcome();
        let mut moves: Vec<_> = pos.legal_moves().into_iter().collect();
        moves.sort_by_key(|m| m.to_u16());
        for mode in [EnPassantMode::PseudoLegal, EnPassantMode::Legal] {
            let fen = pos.to_fen_with(CastlingStyle::XFen, mode);
            let back = Position::from_fen(&fen).expect("a FEN of either mode parses");
            let mut again: Vec<_> = back.legal_moves().into_iter().collect();
            again.sort_by_key(|m| m.to_u16());
            assert_eq!(again, moves, "{fen}");
            if mode == EnPassantMode::PseudoLegal {
                assert_eq!(back.key(), pos.key(), "{fen}");
            }
        }
    }
});
