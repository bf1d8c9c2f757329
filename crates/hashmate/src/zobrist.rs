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
//! [`SplitMix64`](crate::rng) seeded with [`LOCK_SEED`]: two
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

/// A key type for generic Zobrist tables: `u64` or `u128`.
pub trait ZobristKey:
    Copy + Eq + core::hash::Hash + Default + core::fmt::Debug + core::ops::BitXor<Output = Self>
{
    /// A key drawn from `rng` (one draw for `u64`, two for `u128`,
    /// high word first), so that keys depend only on the seed.
    fn draw(rng: &mut SplitMix64) -> Self;
}

impl ZobristKey for u64 {
    fn draw(rng: &mut SplitMix64) -> u64 {
        rng.next_u64()
    }
}

impl ZobristKey for u128 {
    fn draw(rng: &mut SplitMix64) -> u128 {
        rng.next_u128()
    }
}

/// Zobrist keys for any board: `cells` cells, each empty or in one of
/// `states` states, plus `extras` keys for whatever else a game hashes
/// (side to move, ko point, …). Keys come from SplitMix64 with a given
/// seed: the same seed gives the same keys on every platform.
///
/// "Empty" has no key: placing XORs a state's key in, removing XORs it out,
/// so the key of a board is the XOR over its occupied cells.
///
/// ```
/// use hashmate::zobrist::Zobrist;
/// let z: Zobrist<u64> = Zobrist::new(81, 2, 1, 42);
/// let mut key = 0u64;
/// z.place(&mut key, 40, 0);
/// z.move_state(&mut key, 40, 41, 0);
/// assert_eq!(key, z.key_of(41, 0));
/// z.remove(&mut key, 41, 0);
/// assert_eq!(key, 0);
/// ```
#[derive(Clone, Debug)]
pub struct Zobrist<K: ZobristKey> {
    cells: usize,
    states: usize,
    keys: Vec<K>,
    extras: Vec<K>,
}

impl<K: ZobristKey> Zobrist<K> {
    /// Keys for `cells × states` (cell-major) and `extras`, from `seed`.
    pub fn new(cells: usize, states: usize, extras: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let keys = (0..cells * states).map(|_| K::draw(&mut rng)).collect();
        let extras = (0..extras).map(|_| K::draw(&mut rng)).collect();
        Zobrist {
            cells,
            states,
            keys,
            extras,
        }
    }

    /// The key of `state` on `cell`.
    #[inline(always)]
    pub fn key_of(&self, cell: usize, state: usize) -> K {
        self.keys[cell * self.states + state]
    }

    /// Extra key `i` (side to move and the like).
    #[inline(always)]
    pub fn extra(&self, i: usize) -> K {
        self.extras[i]
    }

    /// Put `state` on the empty `cell`.
    #[inline(always)]
    pub fn place(&self, key: &mut K, cell: usize, state: usize) {
        *key = *key ^ self.key_of(cell, state);
    }

    /// Empty `cell`, which held `state`.
    #[inline(always)]
    pub fn remove(&self, key: &mut K, cell: usize, state: usize) {
        *key = *key ^ self.key_of(cell, state);
    }

    /// Move `state` from `from` to the empty `to`.
    #[inline(always)]
    pub fn move_state(&self, key: &mut K, from: usize, to: usize, state: usize) {
        *key = *key ^ self.key_of(from, state) ^ self.key_of(to, state);
    }

    /// Change `cell` from `old` to `new` (both non-empty).
    #[inline(always)]
    pub fn change(&self, key: &mut K, cell: usize, old: usize, new: usize) {
        *key = *key ^ self.key_of(cell, old) ^ self.key_of(cell, new);
    }

    /// The key of a whole board from scratch: `board[cell]` is `None` for
    /// empty or `Some(state)`.
    pub fn key_of_board(&self, board: &[Option<usize>]) -> K {
        board
            .iter()
            .enumerate()
            .filter_map(|(c, s)| s.map(|s| self.key_of(c, s)))
            .fold(K::default(), |a, b| a ^ b)
    }
}

impl<K: ZobristKey> ZobristTable for Zobrist<K> {
    type Key = K;
    fn cells(&self) -> usize {
        self.cells
    }
    fn states(&self) -> usize {
        self.states
    }
    #[inline(always)]
    fn key(&self, cell: usize, state: usize) -> K {
        self.key_of(cell, state)
    }
}

#[cfg(test)]
mod generic_tests {
    use super::*;

    /// Code written against the trait works with both tables.
    fn board_key<T: ZobristTable>(t: &T, cells: &[(usize, usize)]) -> T::Key {
        let mut k = T::Key::default();
        for &(c, s) in cells {
            t.toggle(&mut k, c, s);
        }
        k
    }

    #[test]
    fn shared_trait_and_reproducibility() {
        let g: Zobrist<u128> = Zobrist::new(64, 12, 0, 7);
        let h: Zobrist<u128> = Zobrist::new(64, 12, 0, 7);
        assert_eq!(
            board_key(&g, &[(3, 4), (9, 1)]),
            board_key(&h, &[(9, 1), (3, 4)])
        );
        // The chess table through the same trait: white pawn (state 1) on a1.
        assert_eq!(board_key(&POLYGLOT, &[(0, 1)]), POLYGLOT.raw(64).unwrap());
        // Seeds give fixed keys on every platform: the first u64 key for
        // seed 1234567 is SplitMix64's first output for that seed.
        let z: Zobrist<u64> = Zobrist::new(1, 1, 0, 1234567);
        assert_eq!(z.key_of(0, 0), 6457827717110365317);
        let w: Zobrist<u128> = Zobrist::new(1, 1, 0, 1234567);
        assert_eq!(
            w.key_of(0, 0),
            (6457827717110365317u128 << 64) | 3203168211198807973
        );
    }

    #[test]
    fn incremental_equals_scratch() {
        let z: Zobrist<u64> = Zobrist::new(100, 3, 0, 99);
        let mut rng = SplitMix64::new(5);
        let mut board = vec![None; 100];
        let mut key = 0u64;
        for _ in 0..10_000 {
            let c = rng.below(100) as usize;
            let s = rng.below(3) as usize;
            match board[c] {
                None => {
                    z.place(&mut key, c, s);
                    board[c] = Some(s);
                }
                Some(old) if old != s => {
                    z.change(&mut key, c, old, s);
                    board[c] = Some(s);
                }
                Some(old) => {
                    let to = rng.below(100) as usize;
                    if board[to].is_none() {
                        z.move_state(&mut key, c, to, old);
                        board[to] = Some(old);
                    } else {
                        z.remove(&mut key, c, old);
                    }
                    board[c] = None;
                }
            }
            assert_eq!(key, z.key_of_board(&board));
        }
    }
}
