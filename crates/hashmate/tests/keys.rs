//! Every key of tests/data/polyglot/keys.tsv, bit-exact.

mod common;
use hashmate::Position;

#[test]
fn polyglot_keys() {
    let mut n = 0;
    for line in common::data("polyglot/keys.tsv")
        .lines()
        .filter(|l| !l.is_empty())
    {
        let (fen, key) = line.split_once('\t').unwrap();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(format!("{:016x}", pos.key()), key, "{fen}");
        let (k, p, l) = pos.compute_keys();
        assert_eq!((k, p, l), (pos.key(), pos.pawn_key(), pos.lock()));
        assert_eq!(pos.non_pawn_keys(), pos.compute_non_pawn_keys(), "{fen}");
        n += 1;
    }
    assert_eq!(n, 234);
}

/// The published sequence of the Polyglot description, played move by move
/// with incremental updates.
#[test]
fn incremental_published_sequence() {
    let seq = [
        ("", "463b96181691fc9c"),
        ("e2e4", "823c9b50fd114196"),
        ("d7d5", "0756b94461c50fb0"),
        ("e4e5", "662fafb965db29d4"),
        ("f7f5", "22a48b5a8e47ff78"),
        ("e1e2", "652a607ca3f242c1"),
        ("e8f7", "00fdd303c946bdd9"),
    ];
    let mut pos = Position::startpos();
    for (mv, key) in seq {
        if !mv.is_empty() {
            let m = pos.parse_uci(mv).unwrap();
            pos.try_play(m).unwrap();
        }
        assert_eq!(format!("{:016x}", pos.key()), key, "after {mv}");
    }
}

/// The non-pawn keys, the pawn key and the turn make up the Polyglot key
/// of a position without castling rights or en-passant square.
#[test]
fn non_pawn_keys_and_the_pawn_key_make_the_position_key() {
    use hashmate::zobrist::POLYGLOT;
    for fen in [
        "4k3/pp3ppp/2n1b3/8/3P4/2N5/PP3PPP/R3K2R b - - 0 1",
        "8/8/4k3/8/8/2B5/4K3/8 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let [white, black] = pos.non_pawn_keys();
        assert_ne!(white, black);
        let mut key = white ^ black ^ pos.pawn_key();
        if pos.side_to_move() == hashmate::Color::White {
            key ^= POLYGLOT.turn();
        }
        assert_eq!(key, pos.key(), "{fen}");
    }
}
