//! Zobrist keys: the standard Polyglot table for chess, and a second,
//! independent table (the "hash lock" of seed 000).
//!
//! The main key of a position is its Polyglot key, bit-exact with every
//! Polyglot book: XOR of one Random64 number per piece on a square, one per
//! castling right held, one for the en-passant file when a pawn of the side
//! to move stands beside the pawn that just advanced two squares (whether or
//! not the capture is legal), and one when White is to move. Because XOR is
//! its own inverse, a move updates the key by XORing out what left and in
//! what arrived; the position does exactly that and never recomputes.
//!
//! The lock key uses the same layout with numbers drawn from
//! [`SplitMix64`](crate::rng::SplitMix64) seeded with [`LOCK_SEED`]: two
//! positions that collide on the main key almost never collide on the lock,
//! which is what the collision study uses to count false hits. The pawn key
//! is the XOR of the main key's pawn terms only.

use crate::piece::{Piece, Role};
use crate::polyglot_random::POLYGLOT_RANDOM;
use crate::rng::SplitMix64;
use crate::square::{Color, File, Square};

/// Keys indexed by (cell, state), the abstraction the chess tables share
/// with the generic tables of other games: code that only needs "the key of
/// this state on this cell" works with either.
pub trait ZobristTable {
    /// The key type (`u64`, `u128`, …).
    type Key: Copy + Eq + core::ops::BitXor<Output = Self::Key> + Default;
    /// Number of cells.
    fn cells(&self) -> usize;
    /// Number of non-empty states per cell.
    fn states(&self) -> usize;
    /// The key of `state` (`0..states()`) on `cell`.
    fn key(&self, cell: usize, state: usize) -> Self::Key;
    /// XOR the key of `state` on `cell` into `key` (place or remove).
    #[inline(always)]
    fn toggle(&self, key: &mut Self::Key, cell: usize, state: usize) {
        *key = *key ^ self.key(cell, state);
    }
}

/// Index of the Polyglot "kind of piece": black pawn 0, white pawn 1, …
#[inline(always)]
const fn kind(piece: Piece) -> usize {
    2 * piece.role as usize + (piece.color as usize ^ 1)
}

/// Offset of the castling keys in the table.
pub const CASTLING_OFFSET: usize = 768;
/// Offset of the en-passant file keys.
pub const EN_PASSANT_OFFSET: usize = 772;
/// Offset of the turn key.
pub const TURN_OFFSET: usize = 780;

/// The seed of the lock-key table.
pub const LOCK_SEED: u64 = 0x2545_f491_4f6c_dd1d;

const fn lock_table() -> [u64; 781] {
    let mut rng = SplitMix64::new(LOCK_SEED);
    let mut t = [0u64; 781];
    let mut i = 0;
    while i < 781 {
        t[i] = rng.next_u64();
        i += 1;
    }
    t
}

static LOCK_RANDOM: [u64; 781] = lock_table();

/// A chess key table in the Polyglot layout.
#[derive(Copy, Clone, Debug)]
pub struct ChessKeys {
    table: &'static [u64; 781],
}

/// The Polyglot keys.
pub const POLYGLOT: ChessKeys = ChessKeys {
    table: &POLYGLOT_RANDOM,
};
/// The independent lock keys.
pub const LOCK: ChessKeys = ChessKeys {
    table: &LOCK_RANDOM,
};

impl ChessKeys {
    /// The key of `piece` on `sq`.
    #[inline(always)]
    pub fn piece(self, piece: Piece, sq: Square) -> u64 {
        self.table[64 * kind(piece) + sq.index()]
    }

    /// The key of castling right `index`: 0 white short, 1 white long,
    /// 2 black short, 3 black long.
    #[inline(always)]
    pub fn castling(self, index: usize) -> u64 {
        self.table[CASTLING_OFFSET + (index & 3)]
    }

    /// The key of an en-passant file.
    #[inline(always)]
    pub fn en_passant(self, file: File) -> u64 {
        self.table[EN_PASSANT_OFFSET + file.index()]
    }

    /// XORed in when White is to move.
    #[inline(always)]
    pub fn turn(self) -> u64 {
        self.table[TURN_OFFSET]
    }

    /// The raw table entry `i` (`0..781`).
    pub fn raw(self, i: usize) -> Option<u64> {
        self.table.get(i).copied()
    }
}

impl ZobristTable for ChessKeys {
    type Key = u64;
    fn cells(&self) -> usize {
        64
    }
    fn states(&self) -> usize {
        12
    }
    /// State `s` is the Polyglot kind: `2 * role + (1 if white)`.
    #[inline(always)]
    fn key(&self, cell: usize, state: usize) -> u64 {
        self.table[64 * state + cell]
    }
}

/// Castling-right index for [`ChessKeys::castling`].
#[inline(always)]
pub const fn castling_index(color: Color, long: bool) -> usize {
    2 * color as usize + long as usize
}

/// The pawn-key contribution of a pawn.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> u64 {
    POLYGLOT.piece(
        Piece {
            color,
            role: Role::Pawn,
        },
        sq,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_layout() {
        // First and last numbers of the published table.
        assert_eq!(POLYGLOT.raw(0), Some(0x9d39_247e_3377_6d41));
        assert_eq!(POLYGLOT.turn(), 0xf8d6_26aa_af27_8509);
        assert_eq!(POLYGLOT.raw(781), None);
        // Black pawn on a1 is entry 0; white pawn on a1 entry 64.
        let bp = Piece {
            color: Color::Black,
            role: Role::Pawn,
        };
        let wp = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        assert_eq!(POLYGLOT.piece(bp, Square::A1), POLYGLOT.raw(0).unwrap());
        assert_eq!(POLYGLOT.piece(wp, Square::A1), POLYGLOT.raw(64).unwrap());
        assert_eq!(
            POLYGLOT.key(Square::A1.index(), 1),
            POLYGLOT.raw(64).unwrap()
        );
    }

    #[test]
    fn lock_keys_are_independent_and_distinct() {
        let mut all: Vec<u64> = (0..781).map(|i| LOCK.raw(i).unwrap()).collect();
        all.extend((0..781).map(|i| POLYGLOT.raw(i).unwrap()));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * 781);
    }
}
