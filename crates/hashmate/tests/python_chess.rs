//! Cross-check against a peer no one here wrote: python-chess computes
//! perft (depths 1–3) and Polyglot keys on random playouts (standard and
//! Chess960), and hashmate must agree on every one. `.ci/run` installs
//! python-chess (`pip install chess`).

use hashmate::perft::perft;
use hashmate::Position;
use std::process::Command;

#[test]
fn agrees_with_python_chess_on_random_playouts() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pychess_oracle.py");
    let out = Command::new("python3")
        .args([script, "400", "20261122"])
        .output()
        .expect("python3 must be installed (see .ci/run)");
    assert!(
        out.status.success(),
        "python-chess oracle failed (pip install chess): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = Position::from_fen(f[0]).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        assert_eq!(format!("{:016x}", pos.key()), f[1], "key of {}", f[0]);
        for (d, expected) in f[2].split(' ').enumerate() {
            let expected: u64 = expected.parse().unwrap();
            assert_eq!(
                perft(&pos, d as u32 + 1),
                expected,
                "{} depth {}",
                f[0],
                d + 1
            );
        }
        n += 1;
    }
    assert_eq!(n, 400);
}
