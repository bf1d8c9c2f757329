//! The binary under a real UCI client: python-chess's `chess.engine`
//! (installed by .ci/run) analyses, plays under a clock, changes options,
//! stops an infinite search, ponders, finds mates, sees repetitions and
//! stalemate. The script asserts; this test checks it ran to the end.
//! Skipped with a reason where python-chess is missing (CI requires it).

mod common;
use std::process::Command;

#[test]
fn python_chess_client() {
    if !common::peer_available("python-chess", common::python_chess()) {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci_client.py");
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_hashmate")])
        .output()
        .expect("python3 must be installed (see .ci/run)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "python-chess client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("ok clear hash"), "{stdout}");
}
