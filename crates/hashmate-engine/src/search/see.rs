//! Static exchange evaluation: the material balance of the captures and
//! recaptures on one square, both sides always taking with their least
//! valuable attacker and free to stop when going on would lose.

use crate::eval::SEE_VALUE;
use hashmate::{attacks, Bitboard, Move, Position, Role};

/// Does `mv` win at least `threshold` by static exchange on its
/// destination? Both sides recapture with their least valuable attacker and
/// may stop when continuing would lose; x-ray attackers behind a capturer
/// join in. Pins are ignored, as usual for SEE.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.is_castling() {
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let captured = if pos.is_en_passant(mv) {
        SEE_VALUE[0]
    } else {
        pos.role_at(to).map_or(0, |r| SEE_VALUE[r.index()])
    };
    // `balance` is what the side to move has banked if the exchange stops
    // now, minus the threshold; each step asks whether the opponent can
    // profitably continue.
    let mut balance = captured - threshold;
    if balance < 0 {
        return false;
    }
    let Some(mover) = pos.role_at(from) else {
        return false;
    };
    balance = SEE_VALUE[mover.index()] - balance;
    if balance <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from).with(to);
    if pos.is_en_passant(mv) {
        occ = occ - Bitboard::from_square(to).south_for(pos.side_to_move());
    }
    let rq = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let bq = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let mut attackers = pos.attackers_to(to, occ);
    let mut side = pos.side_to_move();
    let mut win = true;
    loop {
        side = !side;
        attackers &= occ;
        let mine = attackers & pos.by_color(side);
        if mine.is_empty() {
            break;
        }
        win = !win;
        let Some((role, sq)) = Role::ALL
            .iter()
            .find_map(|&r| (mine & pos.by_role(r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        if role == Role::King {
            // The king may only capture last.
            if (attackers & pos.by_color(!side)).any() {
                win = !win;
            }
            break;
        }
        balance = SEE_VALUE[role.index()] - balance;
        if balance < i32::from(win) {
            break;
        }
        occ = occ.without(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occ) & bq;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occ) & rq;
        }
    }
    win
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn see_values() {
        let pos = Position::from_fen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1").unwrap();
        let mv = pos.parse_uci("e1e5").unwrap();
        assert!(see_ge(&pos, mv, 0)); // the pawn is free
        assert!(see_ge(&pos, mv, 100));
        assert!(!see_ge(&pos, mv, 101));
        let pos =
            Position::from_fen("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1").unwrap();
        let mv = pos.parse_uci("d3e5").unwrap();
        assert!(!see_ge(&pos, mv, 0)); // a knight for a pawn
                                       // Meaningless for an illegal move, but never a panic.
        let _ = see_ge(&Position::startpos(), Move::NULL, 1);
    }
}
