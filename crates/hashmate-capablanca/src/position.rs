//! A Capablanca or Gothic chess position: pieces by 80-square bitboards,
//! side to move, castling rights (as rook squares), en-passant square,
//! clocks, and a Zobrist key updated by XOR.
//!
//! Keys come from a seeded generic Zobrist table (`hashmate-hash`): one key
//! per piece on each of the 80 squares, one for Black to move, one per
//! castling right and one per en-passant file, the file counting only when
//! a pawn of the side to move stands beside the pawn that just advanced two
//! squares (as Polyglot does in chess). Invariants, established by the FEN
//! parser and kept by every legal move: one king each, the side not to move
//! is not in check, `key` equals [`Position::compute_key`], and `checkers`
//! and `pinned` describe the side to move.

use crate::attacks;
use crate::bitboard::{east, forward, squares, west};
use crate::moves::{Move, MoveParseError};
use crate::piece::{Piece, Role};
use crate::square::{Color, Square, FILES};
use hashmate_hash::zobrist::Zobrist;
use std::sync::OnceLock;

/// The two sides of the king a castling rook can stand on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the j-file: the king ends on i1/i8, the rook on h1/h8.
    Short = 0,
    /// Towards the a-file: the king ends on c1/c8, the rook on d1/d8.
    Long = 1,
}

impl CastlingSide {
    /// Both sides, short first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::Short, CastlingSide::Long];

    /// The king's destination file.
    pub const fn king_file(self) -> u8 {
        match self {
            CastlingSide::Short => 8,
            CastlingSide::Long => 2,
        }
    }

    /// The rook's destination file.
    pub const fn rook_file(self) -> u8 {
        match self {
            CastlingSide::Short => 7,
            CastlingSide::Long => 3,
        }
    }
}

/// The seed of the key table.
pub const KEY_SEED: u64 = 0x6361_7061_626c_616e;

/// The Zobrist keys, taken once from a seeded table.
struct Keys {
    piece: Vec<u64>,
    black: u64,
    castling: [u64; 4],
    ep: [u64; FILES as usize],
}

fn keys() -> &'static Keys {
    static K: OnceLock<Keys> = OnceLock::new();
    K.get_or_init(|| {
        // 80 cells × 16 states (colour × 8 + role), then 15 extra keys.
        let z: Zobrist<u64> = Zobrist::new(80, 16, 15, KEY_SEED).expect("a small table");
        let extra = |i: usize| z.extra(i).unwrap_or_default();
        Keys {
            piece: z.keys().to_vec(),
            black: extra(0),
            castling: [extra(1), extra(2), extra(3), extra(4)],
            ep: core::array::from_fn(|f| extra(5 + f)),
        }
    })
}

#[inline(always)]
fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    keys().piece[sq.index() * 16 + color.index() * 8 + role.index()]
}

/// A legal 10×8 position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) by_role: [u128; 8],
    pub(crate) by_color: [u128; 2],
    pub(crate) side: Color,
    pub(crate) castling: [[Option<Square>; 2]; 2],
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    pub(crate) checkers: u128,
    pub(crate) pinned: u128,
}

impl Position {
    pub(crate) fn empty() -> Position {
        Position {
            by_role: [0; 8],
            by_color: [0; 2],
            side: Color::White,
            castling: [[None; 2]; 2],
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: 0,
            pinned: 0,
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }

    /// `c`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, c: Color) -> u128 {
        self.by_color[c.index()]
    }

    /// Pieces of role `r`, either colour.
    #[inline(always)]
    pub fn by_role(&self, r: Role) -> u128 {
        self.by_role[r.index()]
    }

    /// `c`'s pieces of role `r`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, r: Role) -> u128 {
        self.by_color[c.index()] & self.by_role[r.index()]
    }

    /// `c`'s king.
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        Square::lowest(self.pieces(c, Role::King))
    }

    /// The castling rook of `c` on `side`, while that right is held.
    pub fn castling_rook(&self, c: Color, side: CastlingSide) -> Option<Square> {
        self.castling[c.index()][side as usize]
    }

    /// The en-passant square (set after every double pawn push).
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> u128 {
        self.checkers
    }

    /// Is the side to move in check?
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers != 0
    }

    /// Pieces of the side to move pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> u128 {
        self.pinned
    }

    /// The role on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        let b = sq.bit();
        if self.occupied() & b == 0 {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()] & b != 0)
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.by_color[0] & sq.bit() != 0 {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// Pieces moving like a rook (rook, queen, chancellor).
    #[inline(always)]
    pub(crate) fn rook_likes(&self) -> u128 {
        self.by_role(Role::Rook) | self.by_role(Role::Queen) | self.by_role(Role::Chancellor)
    }

    /// Pieces moving like a bishop (bishop, queen, archbishop).
    #[inline(always)]
    pub(crate) fn bishop_likes(&self) -> u128 {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen) | self.by_role(Role::Archbishop)
    }

    /// Pieces with a knight's move (knight, archbishop, chancellor).
    #[inline(always)]
    pub(crate) fn knight_likes(&self) -> u128 {
        self.by_role(Role::Knight) | self.by_role(Role::Archbishop) | self.by_role(Role::Chancellor)
    }

    /// Pieces of either colour attacking `sq` with occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: u128) -> u128 {
        (attacks::rook(sq, occ) & self.rook_likes())
            | (attacks::bishop(sq, occ) & self.bishop_likes())
            | (attacks::knight(sq) & self.knight_likes())
            | (attacks::king(sq) & self.by_role(Role::King))
            | (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
    }

    /// Is `sq` attacked by `by` with occupancy `occ`?
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: u128) -> bool {
        self.attackers_to(sq, occ) & self.by_color(by) != 0
    }

    /// The en-passant file counts in the key: a pawn of the side to move
    /// stands beside the pawn that just advanced two squares.
    fn ep_in_key(&self) -> Option<u8> {
        let ep = self.ep?;
        let pushed = forward(ep.bit(), !self.side);
        let beside = east(pushed) | west(pushed);
        (beside & self.pieces(self.side, Role::Pawn) != 0).then_some(ep.file())
    }

    fn castling_key(&self) -> u64 {
        let k = keys();
        let mut key = 0;
        for c in Color::ALL {
            for s in CastlingSide::ALL {
                if self.castling[c.index()][s as usize].is_some() {
                    key ^= k.castling[c.index() * 2 + s as usize];
                }
            }
        }
        key
    }

    /// The key computed from scratch (what `key` must equal).
    pub fn compute_key(&self) -> u64 {
        let k = keys();
        let mut key = 0;
        for c in Color::ALL {
            for r in Role::ALL {
                for sq in squares(self.pieces(c, r)) {
                    key ^= piece_key(c, r, sq);
                }
            }
        }
        key ^= self.castling_key();
        if let Some(f) = self.ep_in_key() {
            key ^= k.ep[f as usize];
        }
        if self.side == Color::Black {
            key ^= k.black;
        }
        key
    }

    /// Recompute everything derived from the board.
    pub(crate) fn refresh(&mut self) {
        self.key = self.compute_key();
        self.update_check_info();
    }

    fn update_check_info(&mut self) {
        let us = self.side;
        let king = self.king(us);
        let occ = self.occupied();
        let their = self.by_color(!us);
        self.checkers = self.attackers_to(king, occ) & their;
        let snipers = ((attacks::rook(king, their) & self.rook_likes())
            | (attacks::bishop(king, their) & self.bishop_likes()))
            & their;
        let mut pinned = 0;
        for s in squares(snipers) {
            let blockers = attacks::between(king, s) & occ;
            if blockers.count_ones() == 1 {
                pinned |= blockers & self.by_color(us);
            }
        }
        self.pinned = pinned;
    }

    #[inline(always)]
    fn toggle(&mut self, color: Color, role: Role, sq: Square) {
        let b = sq.bit();
        self.by_role[role.index()] ^= b;
        self.by_color[color.index()] ^= b;
        self.key ^= piece_key(color, role, sq);
    }

    fn discard_rook(&mut self, sq: Square) {
        for c in &mut self.castling {
            for r in c.iter_mut() {
                if *r == Some(sq) {
                    *r = None;
                }
            }
        }
    }

    /// Play `mv`, a legal move of this position (one from the generator or
    /// checked with [`Position::is_legal`]); an illegal move leaves the
    /// position in an unspecified, memory-safe state.
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        let Some(role) = self.role_at(from) else {
            return;
        };
        let k = keys();
        if let Some(f) = self.ep_in_key() {
            self.key ^= k.ep[f as usize];
        }
        let old_ep = self.ep.take();
        let old_castling = self.castling_key();
        self.halfmove = self.halfmove.saturating_add(1);
        if mv.is_castling() {
            let side = if to > from {
                CastlingSide::Short
            } else {
                CastlingSide::Long
            };
            let rank = from.rank();
            self.toggle(us, Role::King, from);
            self.toggle(us, Role::Rook, to);
            if let (Some(kt), Some(rt)) = (
                Square::at(side.king_file(), rank),
                Square::at(side.rook_file(), rank),
            ) {
                self.toggle(us, Role::King, kt);
                self.toggle(us, Role::Rook, rt);
            }
            self.castling[us.index()] = [None; 2];
        } else {
            if let Some(captured) = self.role_at(to) {
                self.toggle(them, captured, to);
                self.halfmove = 0;
                self.discard_rook(to);
            }
            self.toggle(us, role, from);
            self.toggle(us, mv.promotion().unwrap_or(role), to);
            match role {
                Role::Pawn => {
                    self.halfmove = 0;
                    if Some(to) == old_ep {
                        let victim = Square::lowest(forward(to.bit(), them));
                        self.toggle(them, Role::Pawn, victim);
                    } else if from.index().abs_diff(to.index()) == 2 * FILES as usize {
                        self.ep = Square::new(((from.index() + to.index()) / 2) as u8);
                    }
                }
                Role::King => self.castling[us.index()] = [None; 2],
                Role::Rook => self.discard_rook(from),
                _ => {}
            }
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.key ^= k.black;
        let new_castling = self.castling_key();
        self.key ^= old_castling ^ new_castling;
        if let Some(f) = self.ep_in_key() {
            self.key ^= k.ep[f as usize];
        }
        self.update_check_info();
    }

    /// Play `mv` if it is legal here.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when it is not; the position is unchanged.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(IllegalMoveError { mv })
        }
    }

    /// Is `mv` a legal move here?
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// Parse a move in UCI notation (castling as the king's move, `f1i1`,
    /// or as king takes rook, `f1j1`) and check that it is legal.
    ///
    /// # Errors
    /// [`MoveParseError::Syntax`] when the text is not two squares and an
    /// optional promotion letter, [`MoveParseError::Illegal`] when it is
    /// no legal move here.
    pub fn parse_uci(&self, s: &str) -> Result<Move, MoveParseError> {
        let shape = s.is_ascii() && (4..=7).contains(&s.len()) && {
            // Two squares (files a–j, ranks 1–8; rank "10" does not
            // exist on 8 ranks), then at most one piece letter.
            let b = s.as_bytes();
            let square = |i: usize| {
                b.get(i).is_some_and(|c| (b'a'..=b'j').contains(c))
                    && b.get(i + 1).is_some_and(|c| (b'1'..=b'8').contains(c))
            };
            square(0) && square(2) && (s.len() == 4 || (s.len() == 5 && b[4].is_ascii_lowercase()))
        };
        if !shape {
            return Err(MoveParseError::Syntax(s.to_string()));
        }
        self.legal_moves()
            .into_iter()
            .find(|m| {
                m.to_string() == s || (m.is_castling() && format!("{}{}", m.from(), m.to()) == s)
            })
            .ok_or_else(|| MoveParseError::Illegal(s.to_string()))
    }
}

/// A move that is not legal in the position it was played in (the name
/// and shape of `hashmate::IllegalMoveError`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    mv: Move,
}

impl IllegalMoveError {
    pub(crate) fn new(mv: Move) -> IllegalMoveError {
        IllegalMoveError { mv }
    }

    /// The move.
    pub fn mv(&self) -> Move {
        self.mv
    }
}

impl core::fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} is not a legal move in this position", self.mv)
    }
}

impl std::error::Error for IllegalMoveError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_geometry() {
        assert_eq!(CastlingSide::Short.king_file(), 8);
        assert_eq!(CastlingSide::Long.rook_file(), 3);
        // Every key distinct.
        let k = keys();
        let mut all = k.piece.clone();
        all.push(k.black);
        all.extend(k.castling);
        all.extend(k.ep);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
