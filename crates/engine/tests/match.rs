//! A short match against a real opponent, as a GUI tournament would run
//! it: 6 games at 2 s + 0.05 s against Debian's phalanx (xboard), with
//! ../shared/tools/match.py. The issue names fairymax, which python-chess
//! cannot drive (it lacks `setboard`); phalanx stands in, as the tool's
//! documentation suggests. Asserted: no crash, no time loss, no illegal
//! move — not the result. Skipped with a reason where phalanx, python-chess
//! or the match tool is missing (CI requires them).

mod common;
use std::process::Command;

#[test]
fn six_games_against_phalanx_without_faults() {
    let tool = common::match_tool();
    let phalanx = common::find(&["/usr/games/phalanx", "/usr/bin/phalanx"]);
    if !common::peer_available("../shared/tools/match.py", tool.is_some())
        || !common::peer_available("phalanx", phalanx.is_some())
        || !common::peer_available("python-chess", common::python_chess())
    {
        return;
    }
    let (tool, phalanx) = (tool.unwrap(), phalanx.unwrap());
    let out = Command::new("python3")
        .args([
            tool.as_str(),
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
