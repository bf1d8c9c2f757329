//! FEN parsing: any text is accepted or refused, never a panic; an accepted
//! position prints back to a FEN that parses to the same position, and its
//! moves, keys and game-end queries work.
#![no_main]
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
    }
});
