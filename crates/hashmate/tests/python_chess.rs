//! Cross-check against a peer no one here wrote: python-chess computes
//! perft (depths 1–3), Polyglot keys, checkmate and stalemate, which
//! moves give check, and the FEN in each of its three en-passant modes,
//! on random playouts (standard and Chess960); hashmate must agree on
//! every one. A second oracle plays games to their end and checks how
//! they end: FIDE's automatic draws, each side's insufficient material and
//! threefold repetition at every ply. `.ci/run` installs python-chess
//! (`pip install chess`); without it the tests are skipped with a reason.

mod common;
use hashmate::fen::{CastlingStyle, EnPassantMode};
use hashmate::perft::perft;
use hashmate::{Color, DrawReason, Game, Outcome, Position};
use std::collections::BTreeMap;
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

/// The letter `pychess_games.py` prints for how a position ends the game.
fn termination(outcome: Option<Outcome>) -> char {
    match outcome {
        None => '-',
        Some(Outcome::Checkmate { .. }) => 'M',
        Some(Outcome::Draw(reason)) => match reason {
            DrawReason::Stalemate => 'S',
            DrawReason::InsufficientMaterial => 'I',
            DrawReason::SeventyFiveMoves => '7',
            DrawReason::FivefoldRepetition => '5',
            DrawReason::FiftyMoves | DrawReason::Repetition => {
                panic!("{reason} is a draw to claim, not an automatic one")
            }
        },
    }
}

#[test]
fn game_endings_agree_with_python_chess() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pychess_games.py");
    let Some(text) = common::python_chess_oracle(script, &["60", "20261203"]) else {
        return;
    };
    let (mut games, mut plies) = (0, 0);
    let mut endings = BTreeMap::new();
    let (mut threefold, mut one_side_cannot_mate) = (0, 0);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let start = Position::from_fen(f[0]).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        let mut game = Game::new(start);
        let ucis: Vec<&str> = f[1].split(' ').filter(|s| !s.is_empty()).collect();
        let words: Vec<&str> = f[2].split(' ').collect();
        assert_eq!(words.len(), ucis.len() + 1, "{line}");
        for (ply, word) in words.iter().enumerate() {
            if ply > 0 {
                let uci = ucis[ply - 1];
                game.play_uci(uci)
                    .unwrap_or_else(|e| panic!("{} ply {ply} {uci}: {e}", f[0]));
            }
            let pos = game.position();
            let w: Vec<char> = word.chars().collect();
            let at = || format!("{} after {ply} plies ({})", f[0], pos);
            let ours = termination(game.automatic_outcome());
            // python-chess tells insufficient material before stalemate;
            // hashmate, as FIDE's articles are numbered, stalemate first.
            // Both are draws; the reason differs only where both hold.
            if ours == 'S' && w[0] == 'I' {
                assert!(pos.is_insufficient_material(), "{}", at());
            } else {
                assert_eq!(ours, w[0], "outcome {}", at());
            }
            for (color, c) in [(Color::White, w[1]), (Color::Black, w[2])] {
                assert_eq!(
                    pos.has_insufficient_material(color),
                    c == '1',
                    "{color} cannot mate: {}",
                    at()
                );
                one_side_cannot_mate += usize::from(c == '1' && w[1] != w[2]);
            }
            assert_eq!(
                game.is_threefold_repetition(),
                w[3] == '1',
                "threefold {}",
                at()
            );
            threefold += usize::from(w[3] == '1');
            plies += 1;
        }
        *endings
            .entry(words[words.len() - 1].chars().next().unwrap())
            .or_insert(0) += 1;
        games += 1;
    }
    assert_eq!(games, 64, "four crafted games and 60 random ones");
    // Every ending is met, and the rules that need a history are too.
    for ending in ['M', 'S', 'I', '7', '5'] {
        assert!(endings.get(&ending).is_some_and(|&n| n > 0), "{endings:?}");
    }
    assert!(
        threefold >= 100 && one_side_cannot_mate >= 100,
        "{threefold} {one_side_cannot_mate}"
    );
    assert!(plies > 10_000, "{plies}");
}
