//! PGN reading: any text yields games and errors, never a panic or a
//! hang; every move of a game is legal from its start position.
#![no_main]
use hashmate::pgn::PgnReader;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for game in PgnReader::new(&text).take(10_000) {
        if let Ok(g) = game {
            let mut pos = g.start.clone();
            for mv in g.moves {
                pos.try_play(mv).expect("the reader checked every move");
            }
        }
    }
});
