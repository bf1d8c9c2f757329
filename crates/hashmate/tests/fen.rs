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

/// Every invalid FEN whose text is readable but whose setup is illegal
/// (kings, pawns on the back ranks, the side not to move in check,
/// castling without its rook, a wrong en-passant square, …) is set up
/// square by square with the `PositionBuilder`, which refuses it with the
/// same error.
#[test]
fn the_builder_refuses_what_fen_refuses() {
    use hashmate::builder::PositionBuilder;
    use hashmate::{Color, Piece, Square};
    let text = common::data("fen/invalid.txt");
    let mut n = 0;
    for line in text.lines() {
        let (fen, reason) = line.split_once('\t').unwrap_or((line, ""));
        let Err(FenError::Illegal(expected)) = Position::from_fen(fen) else {
            continue;
        };
        let f: Vec<&str> = fen.split_whitespace().collect();
        let mut b = PositionBuilder::new();
        for (r, rank) in f[0].split('/').enumerate() {
            let mut file = 0;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                    continue;
                }
                let sq = Square::new(((7 - r) * 8 + file) as u8).unwrap();
                b.piece(sq, Piece::from_char(c));
                file += 1;
            }
        }
        b.side_to_move(if f.get(1) == Some(&"b") {
            Color::Black
        } else {
            Color::White
        });
        for c in f.get(2).unwrap_or(&"-").chars().filter(|&c| c != '-') {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let rank = if color == Color::White { '1' } else { '8' };
            let file = match c.to_ascii_lowercase() {
                'k' => 'h',
                'q' => 'a',
                other => other,
            };
            b.castling_rook(color, format!("{file}{rank}").parse().unwrap());
        }
        b.en_passant(f.get(3).and_then(|s| s.parse().ok()));
        if let Some(h) = f.get(4) {
            b.halfmove_clock(h.parse().unwrap());
        }
        if let Some(m) = f.get(5) {
            b.fullmove_number(m.parse().unwrap());
        }
        match b.build() {
            Err(FenError::Illegal(e)) => assert_eq!(e, expected, "{fen} ({reason})"),
            other => panic!("{fen} ({reason}): the builder gave {other:?}, FEN {expected:?}"),
        }
        n += 1;
    }
    assert!(n >= 15, "only {n} illegal setups in the data");
}
