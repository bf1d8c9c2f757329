//! EPD reading: any line is an `Epd` or an error naming the problem,
//! never a panic; an `Epd` written back reads as the same, and resolving
//! any of its operations as moves gives moves or an error.
#![no_main]
use hashmate::Epd;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines().take(100) {
        if let Ok(epd) = line.parse::<Epd>() {
            let written = epd.to_string();
            let again: Epd = written.parse().expect("a written EPD reads back");
            assert_eq!(again, epd);
            for op in epd.operations() {
                let _ = epd.moves(&op.opcode);
            }
        }
    }
});
