//! Clocked games against a real opponent, as a GUI tournament would run
//! them: 6 games at 2 s + 0.05 s against Debian's phalanx (xboard), driven
//! by python-chess (tests/clock_games.py). Asserted: no crash, no time loss,
//! no illegal move — not the result. Skipped with a reason where phalanx or
//! python-chess is missing (CI requires them).

mod common;
use std::process::Command;

#[test]
fn six_games_against_phalanx_without_faults() {
    let phalanx = common::find(&["/usr/games/phalanx", "/usr/bin/phalanx"]);
    if !common::peer_available("phalanx", phalanx.is_some())
        || !common::peer_available("python-chess", common::python_chess())
    {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clock_games.py");
    let out = Command::new("python3")
        .args([
            script,
            env!("CARGO_BIN_EXE_hashmate"),
            phalanx.unwrap(),
            "6",
            "2",
            "0.05",
        ])
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        6,
        "{text}"
    );
    let faults = text
        .lines()
        .find(|l| l.starts_with("faults:"))
        .unwrap_or_else(|| panic!("no fault line in:\n{text}"));
    assert_eq!(
        faults, "faults: crashes 0, time losses 0, illegal moves 0",
        "{text}"
    );
}
