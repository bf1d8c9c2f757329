//! FEN parsing: every invalid line is rejected with an error, never a
//! panic; lenient lines get documented defaults; round trips.

mod common;
use hashmate::fen::{CastlingStyle, FenError};
use hashmate::Position;

#[test]
fn every_invalid_fen_is_rejected() {
    let text = common::data("fen/invalid.txt");
    let mut n = 0;
    for line in text.lines() {
        let (fen, reason) = line.split_once('\t').unwrap_or((line, ""));
        match Position::from_fen(fen) {
            Ok(p) => panic!("accepted {fen:?} ({reason}) as {}", p.fen()),
            Err(e) => {
                let msg = e.to_string();
                assert!(!msg.is_empty() && msg.len() < 200, "{msg}");
            }
        }
        n += 1;
    }
    assert_eq!(n, 88);
}

#[test]
fn lenient_fens_get_defaults() {
    let text = common::data("fen/lenient.txt");
    for line in text.lines() {
        let (fen, _) = line.split_once('\t').unwrap();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let expected = if fen.contains(" w KQkq") {
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        } else {
            // Placement only, or placement and side: no castling rights.
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        };
        assert_eq!(pos.fen(), expected, "{fen}");
    }
}

#[test]
fn errors_name_the_problem() {
    let cases = [
        ("", "empty"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
            "more than 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "'X'",
        ),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "white has no king"),
        ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on a8"),
        (
            "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "en-passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "half-move",
        ),
        ("4k3/8/3N1N2/8/8/8/8/4R1K1 b - - 0 1", "3 pieces give check"),
    ];
    for (fen, needle) in cases {
        let msg = Position::from_fen(fen).unwrap_err().to_string();
        assert!(msg.contains(needle), "{fen}: {msg}");
    }
    assert!(matches!(Position::from_fen("x"), Err(FenError::Syntax(_))));
    assert!(matches!(
        Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
        Err(FenError::Illegal(_))
    ));
}

#[test]
fn round_trips_over_all_suites() {
    for file in [
        "perft/standard.epd",
        "perft/suite.epd",
        "perft/chess960.epd",
    ] {
        for (fen, _) in common::perft_file(file) {
            let pos = Position::from_fen(&fen).unwrap();
            for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
                let again = Position::from_fen(&pos.to_fen(style)).unwrap();
                assert_eq!(again, pos, "{fen} via {style:?}");
            }
            if !file.contains("960") {
                assert_eq!(pos.fen(), fen);
            }
        }
    }
}
