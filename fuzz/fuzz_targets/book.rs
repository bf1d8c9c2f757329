//! Polyglot book bytes: parsed or refused, never a panic; probing a parsed
//! book only ever returns legal moves.
#![no_main]
use hashmate::book::{Book, Pick};
use hashmate::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(book) = Book::from_bytes(data) else {
        return;
    };
    let mut positions = vec![Position::startpos()];
    // Positions whose keys the book holds, where it can: the entries' own.
    for e in book.entries().iter().take(64) {
        let _ = book.entries_for_key(e.key);
    }
    for pos in positions.drain(..) {
        for (mv, _) in book.moves(&pos) {
            assert!(pos.is_legal(mv));
        }
        for random in [0, u64::MAX / 3, u64::MAX] {
            if let Some((mv, _)) = book.choose(&pos, Pick::Weighted { random }) {
                assert!(pos.is_legal(mv));
            }
        }
    }
    assert_eq!(
        Book::from_bytes(&book.to_bytes()).map(|b| b.len()),
        Ok(book.len())
    );
});
