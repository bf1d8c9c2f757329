//! PGN reading: any text yields games and errors, never a panic or a
//! hang; every move of a game is legal from its start position. With
//! annotations kept, a game written back (`to_pgn`) reads again as the
//! same moves, comments, NAGs and variations. The streaming reader
//! (`PgnStream`, over the raw bytes) gives what the text reader gives
//! wherever no game is broken.
#![no_main]
use hashmate::pgn::{PgnReader, PgnStream};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let whole: Vec<String> = PgnReader::new(&text)
        .take(10_000)
        .map(|r| format!("{r:?}"))
        .collect();
    let streamed: Vec<String> = PgnStream::new(data)
        .take(10_000)
        .map(|r| format!("{r:?}"))
        .collect();
    // Exactly the same where the text has no broken game; after one, the
    // two may resume at different lines (see pgn::stream), but never panic.
    if !whole.iter().any(|g| g.starts_with("Err")) {
        assert_eq!(streamed, whole);
    }
    for game in PgnReader::new(&text).take(10_000) {
        if let Ok(g) = game {
            let mut pos = g.start.clone();
            for mv in g.moves {
                pos.try_play(mv).expect("the reader checked every move");
            }
        }
    }
    for game in PgnReader::new(&text).with_annotations().take(1_000) {
        if let Ok(g) = game {
            let written = g.to_pgn();
            let again = PgnReader::new(&written)
                .with_annotations()
                .next()
                .expect("a written game")
                .expect("a written game reads back");
            assert_eq!(again.moves, g.moves);
            assert_eq!(again.notes, g.notes);
            assert_eq!(again.comment, g.comment);
        }
    }
});
