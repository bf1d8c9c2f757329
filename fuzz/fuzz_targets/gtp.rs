//! GTP command lines: every line gets a well-formed answer (`=` or `?`,
//! ending in a blank line) or nothing, never a panic; an `undo` that
//! succeeds gives back the board as it was before the last move played.
#![no_main]
use hashmate_cli::gtp::{parse_line, Gtp, Reply};
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
    let board = |gtp: &mut Gtp| match gtp.respond("showboard") {
        Reply::Answer(a) => a,
        _ => unreachable!("showboard answers"),
    };
    // The board before each move that `undo` could take back.
    let mut before_moves: Vec<String> = Vec::new();
    for line in text.lines().take(200) {
        let before = board(&mut gtp);
        let ok = match gtp.respond(line) {
            Reply::Answer(a) | Reply::Quit(a) => {
                assert!(a.starts_with('=') || a.starts_with('?'), "{a}");
                assert!(a.ends_with("\n") && a.len() < 100_000);
                a.starts_with('=')
            }
            Reply::Nothing => false,
        };
        let cmd = parse_line(line).map(|(_, cmd, _)| cmd);
        match (ok, cmd.as_deref()) {
            (true, Some("play" | "genmove")) => before_moves.push(before),
            (true, Some("boardsize" | "clear_board")) => before_moves.clear(),
            (true, Some("undo")) => {
                let was = before_moves
                    .pop()
                    .expect("undo succeeded, so a move was played");
                assert_eq!(board(&mut gtp), was, "undo after:\n{before}");
            }
            (false, Some("undo")) => assert!(before_moves.is_empty(), "undo refused"),
            _ => {}
        }
    }
});
