//! Property tests over random legal playouts: incremental keys (main,
//! pawn, lock) always equal keys computed from scratch, and do not depend
//! on the move order that reached a position; FEN, X-FEN and Shredder-FEN
//! round-trip; UCI and SAN notation round-trip; noisy and quiet generation
//! partition the legal moves; `gives_check` agrees with playing the move;
//! and random 16-bit moves thrown at `try_play` and `is_legal` are judged
//! exactly as the legal move list judges them, never changing the position
//! on refusal.

use hashmate::fen::CastlingStyle;
use hashmate::movegen::GenMode;
use hashmate::{CastlingMode, Color, Move, Position, Role, Square};
use proptest::prelude::*;

const STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    // Promotions, en passant and checks come early from these.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn position(start: usize, choices: &[u16]) -> Position {
    let mut pos = Position::from_fen(STARTS[start]).unwrap();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[c as usize % moves.len()]);
    }
    pos
}

/// The FEN without its clocks: equal for positions with equal boards, side,
/// castling rights and en-passant square.
fn without_clocks(pos: &Position) -> String {
    pos.fen().rsplitn(3, ' ').nth(2).unwrap().to_string()
}

/// Board, side and castling rights only.
fn board_side_castling(pos: &Position) -> String {
    pos.fen().split(' ').take(3).collect::<Vec<_>>().join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_playouts(start in 0usize..5, choices in prop::collection::vec(any::<u16>(), 1..150)) {
        let mut pos = Position::from_fen(STARTS[start]).unwrap();
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                prop_assert!(pos.is_checkmate() || pos.is_stalemate());
                break;
            }
            let mut sorted: Vec<_> = moves.to_vec();
            let noisy = pos.moves(GenMode::Noisy);
            let quiet = pos.moves(GenMode::Quiet);
            prop_assert_eq!(noisy.len() + quiet.len(), moves.len());
            for m in noisy.iter() {
                prop_assert!(pos.is_capture(*m) || m.promotion().is_some());
            }
            let mut both: Vec<_> = noisy.iter().chain(quiet.iter()).copied().collect();
            both.sort_by_key(|m| m.to_u16());
            sorted.sort_by_key(|m| m.to_u16());
            prop_assert_eq!(both, sorted);

            for &m in moves.iter() {
                prop_assert!(pos.is_legal(m), "{:?} generated but not legal", m);
                let mut after = pos.clone();
                after.play_unchecked(m);
                prop_assert_eq!(pos.gives_check(m), after.is_check(), "gives_check {:?} in {}", m, pos);
            }

            let mv = moves[c as usize % moves.len()];
            for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                prop_assert_eq!(pos.parse_uci(&mv.to_uci(mode).to_string()), Ok(mv));
            }
            let san = pos.to_san(mv).unwrap();
            prop_assert_eq!(pos.parse_san(&san), Ok(mv));

            let mut child = pos.clone();
            child.try_play(mv).unwrap();
            let (k, p, l) = child.compute_keys();
            prop_assert_eq!((child.key(), child.pawn_key(), child.lock()), (k, p, l));
            prop_assert_eq!(child.non_pawn_keys(), child.compute_non_pawn_keys());
            for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
                let again = Position::from_fen(&child.to_fen(style)).unwrap();
                prop_assert_eq!(&again, &child);
            }
            pos = child;
        }
    }

    /// Zobrist keys depend on the position, not on the path: the same
    /// moves of one side played in another order give the same key when
    /// they give the same position, and (almost surely) another key when
    /// they do not.
    #[test]
    fn keys_are_path_independent(
        start in 0usize..5,
        choices in prop::collection::vec(any::<u16>(), 2..40),
        i in any::<prop::sample::Index>(),
        j in any::<prop::sample::Index>(),
    ) {
        let pos0 = Position::from_fen(STARTS[start]).unwrap();
        let mut pos = pos0.clone();
        let mut line = Vec::new();
        for c in &choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[*c as usize % moves.len()];
            pos.play_unchecked(m);
            line.push(m);
        }
        let n = line.len();
        let (a, b) = (i.index(n), j.index(n));
        if a == b || a % 2 != b % 2 {
            return Ok(());
        }
        let mut swapped = line.clone();
        swapped.swap(a, b);
        let mut other = pos0.clone();
        for &m in &swapped {
            if other.try_play(m).is_err() {
                return Ok(()); // That order is not legal.
            }
        }
        if without_clocks(&other) == without_clocks(&pos) {
            prop_assert_eq!(other.key(), pos.key());
            prop_assert_eq!(other.lock(), pos.lock());
            prop_assert_eq!(other.pawn_key(), pos.pawn_key());
        } else if board_side_castling(&other) != board_side_castling(&pos) {
            prop_assert_ne!(other.key(), pos.key());
        }
        // (An en-passant square no pawn can capture to is in the FEN but not
        // in the Polyglot key, so such pairs may share a key either way.)
    }

    /// Any 16-bit move, and any move built from two squares and a
    /// promotion, on positions of random playouts: `try_play` and
    /// `is_legal` agree with the legal move list, and a refused move leaves
    /// the position as it was.
    #[test]
    fn random_moves_are_judged_like_the_move_list(
        start in 0usize..5,
        choices in prop::collection::vec(any::<u16>(), 0..60),
        raw in prop::collection::vec(any::<u16>(), 1..40),
        from in 0u8..64, to in 0u8..64, promo in 0usize..7, castle in any::<bool>(),
    ) {
        let pos = position(start, &choices);
        let legal = pos.legal_moves();
        let roles = [None, Some(Role::Knight), Some(Role::Bishop), Some(Role::Rook),
                     Some(Role::Queen), Some(Role::Pawn), Some(Role::King)];
        let (f, t) = (Square::new(from).unwrap(), Square::new(to).unwrap());
        let built = if castle { Move::castle(f, t) } else { Move::new(f, t, roles[promo]) };
        // Also a move one square off each legal move, and each legal move
        // itself: the near misses are where checks go wrong.
        let mut candidates: Vec<Move> = raw.iter().map(|&r| Move::from_u16(r)).collect();
        candidates.push(built);
        candidates.extend(legal.iter().map(|m| Move::from_u16(m.to_u16() ^ 1)));
        candidates.extend(legal.iter().copied());
        for mv in candidates {
            let expected = legal.contains(mv);
            prop_assert_eq!(pos.is_legal(mv), expected, "is_legal {:?} in {}", mv, pos);
            let mut p = pos.clone();
            match p.try_play(mv) {
                Ok(()) => prop_assert!(expected, "played illegal {:?} in {}", mv, pos),
                Err(e) => {
                    prop_assert!(!expected, "refused legal {:?} in {}: {}", mv, pos, e);
                    prop_assert_eq!(&p, &pos);
                }
            }
            // Never a panic, whatever the move.
            let _ = pos.gives_check(mv);
            prop_assert_eq!(pos.to_san(mv).is_ok(), expected);
        }
    }

    /// `attacked_by` is the union of what each of the side's pieces
    /// attacks: on random playouts it holds exactly the squares that have
    /// an attacker of that colour by `attackers_to`.
    #[test]
    fn attacked_by_is_every_square_with_an_attacker(
        start in 0usize..5,
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        let pos = position(start, &choices);
        for by in [Color::White, Color::Black] {
            let map = pos.attacked_by(by);
            for i in 0..64u8 {
                let sq = Square::new(i).unwrap();
                let attacked = (pos.attackers_to(sq, pos.occupied()) & pos.by_color(by)).any();
                prop_assert_eq!(map.contains(sq), attacked, "{:?} by {:?} in {}", sq, by, pos);
            }
        }
    }
}
