//! GTP command lines: every line gets a well-formed answer (`=` or `?`,
//! ending in a blank line) or nothing, never a panic.
#![no_main]
use hashmate_cli::gtp::{Gtp, Reply};
use hashmate_go::{KoRule, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let rules = Rules {
        ko: KoRule::ALL[mode as usize % 4],
        suicide: mode & 4 != 0,
    };
    let Some(mut gtp) = Gtp::new(rules, 1) else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    for line in text.lines().take(200) {
        match gtp.respond(line) {
            Reply::Answer(a) | Reply::Quit(a) => {
                assert!(a.starts_with('=') || a.starts_with('?'), "{a}");
                assert!(a.ends_with("\n") && a.len() < 100_000);
            }
            Reply::Nothing => {}
        }
    }
});
