//! `go` and `setoption` lines as a GUI might garble them: a `go` line
//! always parses, and every `go` that is not `go perft` ends with exactly
//! one `bestmove` once `stop` is sent, whatever its words and whatever
//! options were set before it.
#![no_main]
mod engine;
use engine::engine;
use hashmate_engine::output;
use hashmate_engine::uci::{parse, Command};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut e = engine().lock().unwrap_or_else(|p| p.into_inner());
    for line in text.lines().take(16) {
        let parsed = parse(line);
        if line.split_whitespace().next() == Some("go") {
            assert!(
                matches!(parsed, Some(Ok(Command::Go(_)))),
                "'{line}' did not parse: {parsed:?}"
            );
        }
        let Some(Ok(cmd)) = parsed else {
            continue;
        };
        output::start_capture();
        let perft = match &cmd {
            Command::Go(go) => Some(go.perft.is_some()),
            Command::SetOption { name, .. } => {
                // Not the ones that allocate gigabytes, start hundreds of
                // threads or read files.
                let lower = name.to_ascii_lowercase();
                if ["hash", "bookfile", "threads"].contains(&lower.trim()) {
                    output::end_capture();
                    continue;
                }
                None
            }
            Command::Position { .. } | Command::UciNewGame | Command::Stop => None,
            _ => {
                output::end_capture();
                continue;
            }
        };
        e.execute(cmd);
        e.execute(Command::Stop);
        e.finish(true);
        let out = output::end_capture();
        if let Some(perft) = perft {
            let answers = out.iter().filter(|l| l.starts_with("bestmove ")).count();
            assert_eq!(answers, usize::from(!perft), "'{line}': {out:?}");
        }
    }
});
