//! Cross-check against a peer no one here wrote: python-chess computes
//! perft (depths 1–3), Polyglot keys, checkmate and stalemate, which
//! moves give check, and the FEN in each of its three en-passant modes,
//! on random playouts (standard and Chess960); hashmate must agree on
//! every one. `.ci/run` installs python-chess
//! (`pip install chess`); without it the test is skipped with a reason.

mod common;
use hashmate::fen::{CastlingStyle, EnPassantMode};
use hashmate::perft::perft;
use hashmate::Position;
use std::process::Command;

#[test]
fn agrees_with_python_chess_on_random_playouts() {
    if !common::peer_available("python-chess", common::python_chess()) {
        return;
    }
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
    let (mut pseudo_differs, mut legal_differs) = (0, 0);
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
        let status = match (pos.is_checkmate(), pos.is_stalemate()) {
            (true, _) => "mate",
            (_, true) => "stalemate",
            _ => "-",
        };
        assert_eq!(status, f[3], "status of {}", f[0]);
        let mut checking: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| pos.gives_check(m))
            .map(|m| m.to_uci(hashmate::CastlingMode::Chess960).to_string())
            .collect();
        checking.sort();
        let mut expected: Vec<String> = f[4]
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        expected.sort();
        assert_eq!(checking, expected, "moves giving check in {}", f[0]);
        let style = if pos.is_chess960() {
            CastlingStyle::Shredder
        } else {
            CastlingStyle::XFen
        };
        let modes = [
            EnPassantMode::Always,
            EnPassantMode::PseudoLegal,
            EnPassantMode::Legal,
        ];
        for (mode, expected) in modes.into_iter().zip(&f[5..8]) {
            assert_eq!(&pos.to_fen_with(style, mode), expected, "{mode:?}");
        }
        // Positions where the three modes differ.
        if f[5] != f[6] {
            pseudo_differs += 1;
        }
        if f[6] != f[7] {
            legal_differs += 1;
        }
        n += 1;
    }
    assert_eq!(n, 404, "four crafted positions and 400 of playouts");
    // At least the three crafted ones where a pawn could take but may not.
    assert!(
        pseudo_differs >= 20 && legal_differs >= 3,
        "{pseudo_differs} {legal_differs}"
    );
}
