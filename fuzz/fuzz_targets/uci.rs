//! UCI command lines: parsed into a command or an error, never a panic; the
//! commands that do not search (position, setoption) applied to an engine
//! keep it consistent, and `eval` evaluates whatever position they set.
#![no_main]
mod engine;
use engine::engine;
use hashmate_engine::output;
use hashmate_engine::uci::{parse, Command};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut e = engine().lock().unwrap_or_else(|p| p.into_inner());
    for line in text.lines().take(64) {
        match parse(line) {
            Some(Ok(Command::Position { fen, moves })) => {
                let before = e.position.clone();
                if e.set_position(fen.as_deref(), &moves).is_err() {
                    assert_eq!(e.position, before);
                }
                assert_eq!(e.history.last(), Some(&e.position.repetition_key()));
            }
            Some(Ok(Command::SetOption { name, value })) => {
                // Not the ones that allocate gigabytes or read files.
                let lower = name.to_ascii_lowercase();
                if !["hash", "bookfile", "threads"].contains(&lower.trim()) {
                    let _ = e.set_option(&name, value.as_deref());
                }
            }
            Some(Ok(Command::Eval)) => {
                output::start_capture();
                e.execute(Command::Eval);
                let lines = output::end_capture();
                assert!(
                    lines.iter().any(|l| l.starts_with("Final evaluation")),
                    "{lines:?}"
                );
            }
            _ => {}
        }
    }
});
