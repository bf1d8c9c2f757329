//! Zobrist keys for chess: the standard Polyglot table, and a second,
//! independent table for a "hash lock" key.
//!
//! The main key of a position is its Polyglot key, bit-exact with every
//! Polyglot book: XOR of one Random64 number per piece on a square, one per
//! castling right held, one for the en-passant file when a pawn of the side
//! to move stands beside the pawn that just advanced two squares (whether or
//! not the capture is legal), and one when White is to move. Because XOR is
//! its own inverse, a move updates the key by XORing out what left and in
//! what arrived; the position does exactly that and never recomputes.
//!
//! The lock key uses the same layout with numbers drawn from SplitMix64
//! seeded with [`LOCK_SEED`]: two positions that collide on the main key
//! almost never collide on the lock (Zobrist's "hash lock", stored beside a
//! table entry to detect collisions). The pawn key is the XOR of the main
//! key's pawn terms only: the index of a pawn hash table.
//!
//! ```
//! use hashmate::zobrist::POLYGLOT;
//! use hashmate::{Color, Piece, Position, Role, Square};
//!
//! // The Polyglot key of a position is the XOR of its parts.
//! let pos: Position = "4k3/8/8/8/8/8/8/4K3 b - - 0 1".parse()?;
//! let wk = Piece { color: Color::White, role: Role::King };
//! let bk = Piece { color: Color::Black, role: Role::King };
//! assert_eq!(pos.key(), POLYGLOT.piece(wk, Square::E1) ^ POLYGLOT.piece(bk, Square::E8));
//! # Ok::<(), hashmate::FenError>(())
//! ```

use crate::piece::Piece;
use crate::polyglot_random::POLYGLOT_RANDOM;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::{Color, File, Square};
use hashmate_hash::rng::SplitMix64;
use hashmate_hash::zobrist::ZobristTable;

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

/// Cells are squares (0 = a1 … 63 = h8); state `s` is the Polyglot kind
/// of piece, `2 × role + 1` for White and `2 × role` for Black (role 0 =
/// pawn … 5 = king).
impl ZobristTable for ChessKeys {
    type Key = u64;
    fn cells(&self) -> usize {
        64
    }
    fn states(&self) -> usize {
        12
    }
    #[inline(always)]
    fn key(&self, cell: usize, state: usize) -> Option<u64> {
        (cell < 64 && state < 12).then(|| self.table[64 * state + cell])
    }
}

/// Castling-right index for [`ChessKeys::castling`].
#[inline(always)]
pub const fn castling_index(color: Color, long: bool) -> usize {
    2 * color as usize + long as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Role;

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
        assert_eq!(POLYGLOT.key(Square::A1.index(), 1), POLYGLOT.raw(64));
        assert_eq!(POLYGLOT.key(64, 0), None);
        assert_eq!(POLYGLOT.key(0, 12), None);
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
