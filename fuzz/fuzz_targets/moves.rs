//! UCI and SAN move parsing against a position: any text is a move or an
//! error; a parsed move is legal and its notation parses back to it.
#![no_main]
use hashmate::{CastlingMode, Position};
use libfuzzer_sys::fuzz_target;

const POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let pos = Position::from_fen(POSITIONS[which as usize % POSITIONS.len()]).unwrap();
    if let Ok(mv) = pos.parse_uci(text) {
        assert!(pos.is_legal(mv));
        for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
            assert_eq!(pos.parse_uci(&mv.to_uci(mode).to_string()), Ok(mv));
        }
    }
    if let Ok(mv) = pos.parse_san(text) {
        assert!(pos.is_legal(mv));
        let san = pos.to_san(mv).expect("legal");
        assert_eq!(pos.parse_san(&san), Ok(mv));
    }
    // Raw 16-bit moves: judged like the move list.
    if rest.len() >= 2 {
        let mv = hashmate::Move::from_u16(u16::from_le_bytes([rest[0], rest[1]]));
        let mut p = pos.clone();
        assert_eq!(p.try_play(mv).is_ok(), pos.legal_moves().contains(mv));
    }
});
