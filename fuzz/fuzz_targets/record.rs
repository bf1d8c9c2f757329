//! Training records (`hashmate-train`, `hashmate data`, `texel`,
//! `wdl-fit`): any 32 bytes are a record or an error naming the problem,
//! never a panic. A record that decodes agrees with the FEN route (its
//! position's FEN parses back to the same position and keys), and its
//! encoding decodes to the same record.
#![no_main]
use hashmate::Position;
use hashmate_data::record::{Record, RECORD_BYTES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for chunk in data.chunks_exact(RECORD_BYTES) {
        let bytes: &[u8; RECORD_BYTES] = chunk.try_into().expect("32 bytes");
        let Ok(record) = Record::decode(bytes) else {
            continue;
        };
        let fen = record.pos.to_string();
        let parsed = Position::from_fen(&fen).expect("a decoded position's FEN parses");
        assert_eq!(parsed, record.pos, "{fen}");
        assert_eq!(parsed.key(), record.pos.key(), "{fen}");
        assert_eq!(
            Record::decode(&record.encode()).as_ref(),
            Ok(&record),
            "{fen}"
        );
    }
});
