//! A short match against a real opponent, as a GUI tournament would run
//! it: 6 games at 2 s + 0.05 s against Debian's phalanx (xboard), with
//! ../shared/tools/match.py. The issue names fairymax, which python-chess
//! cannot drive (it lacks `setboard`); phalanx stands in, as the tool's
//! documentation suggests. Asserted: no crash, no time loss, no illegal
//! move — not the result.

use std::process::Command;

#[test]
fn six_games_against_phalanx_without_faults() {
    let tool = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/tools/match.py"
    );
    let phalanx = ["/usr/games/phalanx", "/usr/bin/phalanx"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("phalanx must be installed (apt-get install phalanx; see .ci/run)");
    let out = Command::new("python3")
        .args([
            tool,
            "--a",
            env!("CARGO_BIN_EXE_hashmate"),
            "--b",
            phalanx,
            "--b-protocol",
            "xboard",
            "--games",
            "6",
            "--tc",
            "2+0.05",
            "--seed",
            "7",
        ])
        .output()
        .expect("python3 with python-chess (see .ci/run)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let faults = text
        .lines()
        .find(|l| l.starts_with("faults hashmate"))
        .unwrap_or_else(|| panic!("no fault line in:\n{text}"));
    assert!(
        faults.ends_with("crashes 0, time losses 0, illegal moves 0"),
        "{faults}\n{text}"
    );
    let games = text.lines().filter(|l| l.starts_with("game ")).count();
    assert_eq!(games, 6, "{text}");
}
