//! Strictly legal move generation on the 10×8 board, the way the 8×8
//! generator of the `hashmate` crate works: per piece, a set of legal
//! destinations. The king avoids attacked squares (computed with the king
//! lifted off the board); a double check leaves only king moves; a single
//! check restricts the others to capturing or blocking the checker; pinned
//! pieces stay on their pin line; en passant is checked by replaying it on
//! the occupancy. Castling follows the general rule (king to the c- or
//! i-file, rook beside it, every square the two cross empty, the king never
//! on an attacked square), which is how Fairy-Stockfish plays Capablanca
//! and Gothic chess.
//!
//! Sliding attacks come from the perfect-hash tables of
//! [`crate::attacks`]; archbishops and chancellors add a knight's moves.

use crate::attacks;
use crate::bitboard::{forward, rank_mask, squares, ALL};
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::position::{CastlingSide, Position};
use crate::square::{Color, Square, RANKS};

/// The legal moves of one piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The moving piece.
    pub role: Role,
    /// Its square.
    pub from: Square,
    /// Its destinations (the rook's square for castling).
    pub to: u128,
    /// Whether these are castling moves.
    pub castling: bool,
}

impl PieceMoves {
    /// Does every destination promote?
    #[inline(always)]
    fn promotes(&self) -> bool {
        self.role == Role::Pawn && self.to & (rank_mask(0) | rank_mask(RANKS - 1)) != 0
    }

    /// Number of moves (a promotion counts once per promotion piece).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.to.count_ones() as usize * if self.promotes() { 6 } else { 1 }
    }

    /// No destination?
    pub fn is_empty(&self) -> bool {
        self.to == 0
    }

    /// Expand into moves.
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        let promotes = self.promotes();
        for to in squares(self.to) {
            if self.castling {
                f(Move::castle(self.from, to));
            } else if promotes {
                for r in Role::PROMOTIONS {
                    f(Move::new(self.from, to, Some(r)));
                }
            } else {
                f(Move::new(self.from, to, None));
            }
        }
    }
}

impl Position {
    /// The attacks of a non-pawn, non-king piece of `role` on `from`.
    #[inline(always)]
    fn piece_attacks(role: Role, from: Square, occ: u128) -> u128 {
        match role {
            Role::Knight => attacks::knight(from),
            Role::Bishop => attacks::bishop(from, occ),
            Role::Rook => attacks::rook(from, occ),
            Role::Queen => attacks::rook(from, occ) | attacks::bishop(from, occ),
            Role::Archbishop => attacks::bishop(from, occ) | attacks::knight(from),
            Role::Chancellor => attacks::rook(from, occ) | attacks::knight(from),
            Role::Pawn | Role::King => 0,
        }
    }

    /// Every square `by` attacks with occupancy `occ`.
    fn attack_map(&self, by: Color, occ: u128) -> u128 {
        let them = self.by_color(by);
        let pawns = forward(self.pieces(by, Role::Pawn), by);
        let mut att = crate::bitboard::east(pawns) | crate::bitboard::west(pawns);
        att |= attacks::king(self.king(by));
        for role in [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::Archbishop,
            Role::Chancellor,
        ] {
            for sq in squares(self.by_role(role) & them) {
                att |= Self::piece_attacks(role, sq, occ);
            }
        }
        att
    }

    /// Generate the legal moves piece by piece, calling `emit` for each
    /// piece with a move; `emit` returns `true` to stop.
    pub fn generate(&self, mut emit: impl FnMut(PieceMoves) -> bool) {
        let us = self.side_to_move();
        let them = !us;
        let occ = self.occupied();
        let own = self.by_color(us);
        let their = self.by_color(them);
        let king = self.king(us);

        let danger = self.attack_map(them, occ & !king.bit());
        let kto = attacks::king(king) & !own & !danger;
        if kto != 0
            && emit(PieceMoves {
                role: Role::King,
                from: king,
                to: kto,
                castling: false,
            })
        {
            return;
        }
        let checkers = self.checkers();
        if checkers.count_ones() > 1 {
            return;
        }
        let target = if checkers == 0 {
            ALL
        } else {
            let c = Square::lowest(checkers);
            attacks::between(king, c) | checkers
        };
        let pinned = self.pinned();
        let mask = !own & target;
        for role in [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::Archbishop,
            Role::Chancellor,
        ] {
            for from in squares(self.pieces(us, role)) {
                let mut to = Self::piece_attacks(role, from, occ) & mask;
                if pinned & from.bit() != 0 {
                    to &= attacks::line(king, from);
                }
                if to != 0
                    && emit(PieceMoves {
                        role,
                        from,
                        to,
                        castling: false,
                    })
                {
                    return;
                }
            }
        }
        let second = match us {
            Color::White => rank_mask(2),
            Color::Black => rank_mask(RANKS - 3),
        };
        for from in squares(self.pieces(us, Role::Pawn)) {
            let one = forward(from.bit(), us) & !occ;
            let two = forward(one & second, us) & !occ;
            let caps = attacks::pawn(us, from) & their;
            let mut to = (one | two | caps) & target;
            if pinned & from.bit() != 0 {
                to &= attacks::line(king, from);
            }
            if to != 0
                && emit(PieceMoves {
                    role: Role::Pawn,
                    from,
                    to,
                    castling: false,
                })
            {
                return;
            }
        }
        if self.en_passant(&mut emit) {
            return;
        }
        if checkers == 0 {
            self.castling_moves(&mut emit);
        }
    }

    /// Legal en-passant captures; `true` if `emit` asked to stop.
    fn en_passant(&self, emit: &mut impl FnMut(PieceMoves) -> bool) -> bool {
        let Some(ep) = self.ep_square() else {
            return false;
        };
        let us = self.side_to_move();
        let their = self.by_color(!us);
        let occ = self.occupied();
        let king = self.king(us);
        let victim = forward(ep.bit(), !us);
        for from in squares(attacks::pawn(!us, ep) & self.pieces(us, Role::Pawn)) {
            let after = (occ & !from.bit() & !victim) | ep.bit();
            let others = ((attacks::knight(king) & self.knight_likes())
                | (attacks::pawn(us, king) & self.by_role(Role::Pawn)))
                & their
                & !victim;
            if attacks::rook(king, after) & self.rook_likes() & their == 0
                && attacks::bishop(king, after) & self.bishop_likes() & their == 0
                && others == 0
                && emit(PieceMoves {
                    role: Role::Pawn,
                    from,
                    to: ep.bit(),
                    castling: false,
                })
            {
                return true;
            }
        }
        false
    }

    /// Legal castling; the caller checked that the king is not in check.
    fn castling_moves(&self, emit: &mut impl FnMut(PieceMoves) -> bool) {
        let us = self.side_to_move();
        let occ = self.occupied();
        let king = self.king(us);
        for side in CastlingSide::ALL {
            let Some(rook) = self.castling_rook(us, side) else {
                continue;
            };
            let rank = king.rank();
            let (Some(king_to), Some(rook_to)) = (
                Square::at(side.king_file(), rank),
                Square::at(side.rook_file(), rank),
            ) else {
                continue;
            };
            let without = occ & !king.bit() & !rook.bit();
            let king_path = attacks::between(king, king_to) | king_to.bit();
            let path = king_path | attacks::between(rook, rook_to) | rook_to.bit();
            if path & without != 0 {
                continue;
            }
            if squares(king_path).any(|sq| self.is_attacked(sq, !us, without)) {
                continue;
            }
            if emit(PieceMoves {
                role: Role::King,
                from: king,
                to: rook.bit(),
                castling: true,
            }) {
                return;
            }
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut v = MoveList::new();
        self.generate(|pm| {
            pm.for_each(|m| v.push(m));
            false
        });
        v
    }

    /// Number of legal moves (counted by popcount, not listed).
    pub fn count_moves(&self) -> u64 {
        let mut n = 0;
        self.generate(|pm| {
            n += pm.len() as u64;
            false
        });
        n
    }

    /// Is the side to move checkmated?
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_moves() == 0
    }

    /// Is the side to move stalemated?
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.count_moves() == 0
    }
}
