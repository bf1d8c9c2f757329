//! Chained training data (`hashmate data unpack`, `hashmate-train`): any
//! bytes unpack to games or an error naming the problem, never a panic;
//! what unpacks packs again, and that unpacks to the same records.
#![no_main]
use hashmate_data::chain::{pack_game, unpack_game};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut at = 0;
    let mut records = Vec::new();
    while at < data.len() {
        records.clear();
        let Ok(len) = unpack_game(&data[at..], &mut records) else {
            break;
        };
        assert!(len > 0 && !records.is_empty());
        at += len;
        let mut packed = Vec::new();
        pack_game(&records, &mut packed).expect("an unpacked game packs again");
        let mut again = Vec::new();
        assert_eq!(unpack_game(&packed, &mut again), Ok(packed.len()));
        assert_eq!(again, records);
    }
});
