//! Seeded Zobrist tables for any board.
//!
//! Zobrist hashing gives every (cell, state) pair of a board a random key;
//! the key of a whole board is the XOR of the keys of its occupied cells.
//! Because XOR is its own inverse, a move updates the key by XORing out
//! what left and XORing in what arrived, so a game never recomputes a key
//! from scratch. The same construction serves chess (pieces on squares),
//! Go (stones on points) and lattice simulations (species on sites).
//!
//! [`Zobrist`] draws its keys from [`SplitMix64`] with a seed, so the same
//! seed gives the same keys on every platform and in every run: keys can be
//! written to disk (opening books, caches) and read back elsewhere.
//! [`ZobristTable`] is the small trait that code needing only "the key of
//! this state on this cell" is written against; the chess crate implements
//! it for the Polyglot table.
//!
//! Every lookup is checked: a cell or state out of range is a
//! [`ZobristError`], never a panic. [`Zobrist::keys`] gives the raw
//! cell-major slice for hot loops that have validated their indices once.

#[allow(unused_imports)]
use crate::prelude::*;
use crate::rng::SplitMix64;
use core::fmt;

/// A key type for Zobrist tables: `u64` or `u128`.
pub trait ZobristKey:
    Copy + Eq + core::hash::Hash + Default + fmt::Debug + core::ops::BitXor<Output = Self>
{
    /// A key drawn from `rng` (one draw for `u64`, two for `u128`, high
    /// word first), so that keys depend only on the seed.
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

/// Why a Zobrist table could not be built or a key not found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ZobristError {
    /// `cells × states + extras` does not fit in memory's address range.
    TooLarge {
        /// Cells asked for.
        cells: usize,
        /// States per cell asked for.
        states: usize,
        /// Extra keys asked for.
        extras: usize,
    },
    /// The keys could not be allocated.
    OutOfMemory {
        /// Number of keys that were asked for.
        keys: usize,
    },
    /// A cell or state outside the table.
    OutOfRange {
        /// The cell asked for.
        cell: usize,
        /// The state asked for.
        state: usize,
        /// Cells in the table.
        cells: usize,
        /// States per cell in the table.
        states: usize,
    },
    /// An extra key outside the table.
    NoSuchExtra {
        /// The index asked for.
        index: usize,
        /// Extra keys in the table.
        extras: usize,
    },
}

impl fmt::Display for ZobristError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ZobristError::TooLarge {
                cells,
                states,
                extras,
            } => write!(
                f,
                "a Zobrist table of {cells} cells × {states} states + {extras} extra keys is too large"
            ),
            ZobristError::OutOfMemory { keys } => {
                write!(f, "cannot allocate {keys} Zobrist keys")
            }
            ZobristError::OutOfRange {
                cell,
                state,
                cells,
                states,
            } => write!(
                f,
                "cell {cell}, state {state} is outside the table ({cells} cells × {states} states)"
            ),
            ZobristError::NoSuchExtra { index, extras } => {
                write!(f, "extra key {index} does not exist (the table has {extras})")
            }
        }
    }
}

impl core::error::Error for ZobristError {}

/// Keys indexed by (cell, state): the abstraction that chess tables share
/// with the generic tables of other games.
///
/// ```
/// use hashmate_hash::zobrist::{Zobrist, ZobristTable};
///
/// /// The key of a set of (cell, state) pairs, for any table.
/// fn board_key<T: ZobristTable>(t: &T, cells: &[(usize, usize)]) -> Option<T::Key> {
///     let mut k = T::Key::default();
///     for &(c, s) in cells {
///         t.toggle(&mut k, c, s).ok()?;
///     }
///     Some(k)
/// }
///
/// let z: Zobrist<u64> = Zobrist::new(64, 12, 0, 7)?;
/// assert_eq!(board_key(&z, &[(3, 4), (9, 1)]), board_key(&z, &[(9, 1), (3, 4)]));
/// assert_eq!(board_key(&z, &[(64, 0)]), None); // no such cell
/// # Ok::<(), hashmate_hash::zobrist::ZobristError>(())
/// ```
pub trait ZobristTable {
    /// The key type (`u64`, `u128`, …).
    type Key: Copy + Eq + core::ops::BitXor<Output = Self::Key> + Default;
    /// Number of cells.
    fn cells(&self) -> usize;
    /// Number of non-empty states per cell.
    fn states(&self) -> usize;
    /// The key of `state` (`0..states()`) on `cell` (`0..cells()`), or
    /// `None` outside the table.
    fn key(&self, cell: usize, state: usize) -> Option<Self::Key>;
    /// XOR the key of `state` on `cell` into `key` (place or remove).
    ///
    /// # Errors
    /// [`ZobristError::OutOfRange`] outside the table; `key` is unchanged.
    #[inline]
    fn toggle(&self, key: &mut Self::Key, cell: usize, state: usize) -> Result<(), ZobristError> {
        let k = self.key(cell, state).ok_or(ZobristError::OutOfRange {
            cell,
            state,
            cells: self.cells(),
            states: self.states(),
        })?;
        *key = *key ^ k;
        Ok(())
    }
}

/// Zobrist keys for any board: `cells` cells, each empty or in one of
/// `states` states, plus `extras` keys for whatever else a game hashes
/// (side to move, ko point, …).
///
/// "Empty" has no key: placing XORs a state's key in, removing XORs it out,
/// so the key of a board is the XOR over its occupied cells.
///
/// ```
/// use hashmate_hash::zobrist::Zobrist;
///
/// // A 9×9 board with two kinds of stone and a side-to-move key.
/// let z: Zobrist<u64> = Zobrist::new(81, 2, 1, 42)?;
/// let mut key = 0u64;
/// z.place(&mut key, 40, 0)?;
/// z.move_state(&mut key, 40, 41, 0)?;
/// assert_eq!(key, z.key_of(41, 0)?);
/// z.remove(&mut key, 41, 0)?;
/// assert_eq!(key, 0);
/// assert!(z.key_of(81, 0).is_err()); // off the board: an error, not a panic
/// # Ok::<(), hashmate_hash::zobrist::ZobristError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zobrist<K: ZobristKey> {
    cells: usize,
    states: usize,
    keys: Vec<K>,
    extras: Vec<K>,
}

impl<K: ZobristKey> Zobrist<K> {
    /// Keys for `cells × states` (cell-major) and `extras`, drawn from
    /// SplitMix64 seeded with `seed`.
    ///
    /// # Errors
    /// [`ZobristError::TooLarge`] when the sizes overflow, and
    /// [`ZobristError::OutOfMemory`] when the keys cannot be allocated.
    pub fn new(
        cells: usize,
        states: usize,
        extras: usize,
        seed: u64,
    ) -> Result<Self, ZobristError> {
        let too_large = ZobristError::TooLarge {
            cells,
            states,
            extras,
        };
        let n = cells.checked_mul(states).ok_or(too_large)?;
        let total = n.checked_add(extras).ok_or(too_large)?;
        if total
            .checked_mul(core::mem::size_of::<K>())
            .is_none_or(|b| b > isize::MAX as usize)
        {
            return Err(too_large);
        }
        let mut keys = Vec::new();
        keys.try_reserve_exact(n)
            .map_err(|_| ZobristError::OutOfMemory { keys: total })?;
        let mut more = Vec::new();
        more.try_reserve_exact(extras)
            .map_err(|_| ZobristError::OutOfMemory { keys: total })?;
        let mut rng = SplitMix64::new(seed);
        keys.extend((0..n).map(|_| K::draw(&mut rng)));
        more.extend((0..extras).map(|_| K::draw(&mut rng)));
        Ok(Zobrist {
            cells,
            states,
            keys,
            extras: more,
        })
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Number of states per cell.
    pub fn states(&self) -> usize {
        self.states
    }

    /// Number of extra keys.
    pub fn extras(&self) -> usize {
        self.extras.len()
    }

    /// All cell keys, cell-major: the key of `state` on `cell` is at
    /// `cell * states() + state`. For hot loops that check their indices
    /// once instead of on every lookup.
    pub fn keys(&self) -> &[K] {
        &self.keys
    }

    #[inline]
    fn index(&self, cell: usize, state: usize) -> Result<usize, ZobristError> {
        if cell < self.cells && state < self.states {
            Ok(cell * self.states + state)
        } else {
            Err(ZobristError::OutOfRange {
                cell,
                state,
                cells: self.cells,
                states: self.states,
            })
        }
    }

    /// The key of `state` on `cell`.
    ///
    /// # Errors
    /// [`ZobristError::OutOfRange`] outside the table.
    #[inline]
    pub fn key_of(&self, cell: usize, state: usize) -> Result<K, ZobristError> {
        Ok(self.keys[self.index(cell, state)?])
    }

    /// Extra key `i` (side to move and the like).
    ///
    /// # Errors
    /// [`ZobristError::NoSuchExtra`] when `i >= extras()`.
    #[inline]
    pub fn extra(&self, i: usize) -> Result<K, ZobristError> {
        self.extras
            .get(i)
            .copied()
            .ok_or(ZobristError::NoSuchExtra {
                index: i,
                extras: self.extras.len(),
            })
    }

    /// Put `state` on the empty `cell`.
    ///
    /// # Errors
    /// [`ZobristError::OutOfRange`] outside the table; `key` is unchanged.
    #[inline]
    pub fn place(&self, key: &mut K, cell: usize, state: usize) -> Result<(), ZobristError> {
        *key = *key ^ self.key_of(cell, state)?;
        Ok(())
    }

    /// Empty `cell`, which held `state`.
    ///
    /// # Errors
    /// [`ZobristError::OutOfRange`] outside the table; `key` is unchanged.
    #[inline]
    pub fn remove(&self, key: &mut K, cell: usize, state: usize) -> Result<(), ZobristError> {
        self.place(key, cell, state)
    }

    /// Move `state` from `from` to the empty `to`.
    ///
    /// # Errors
    /// [`ZobristError::OutOfRange`] outside the table; `key` is unchanged.
    #[inline]
    pub fn move_state(
        &self,
        key: &mut K,
        from: usize,
        to: usize,
        state: usize,
    ) -> Result<(), ZobristError> {
        *key = *key ^ self.key_of(from, state)? ^ self.key_of(to, state)?;
        Ok(())
    }

    /// Change `cell` from `old` to `new` (both non-empty).
    ///
    /// # Errors
    /// [`ZobristError::OutOfRange`] outside the table; `key` is unchanged.
    #[inline]
    pub fn change(
        &self,
        key: &mut K,
        cell: usize,
        old: usize,
        new: usize,
    ) -> Result<(), ZobristError> {
        *key = *key ^ self.key_of(cell, old)? ^ self.key_of(cell, new)?;
        Ok(())
    }

    /// The key of a whole board from scratch: `board[cell]` is `None` for
    /// empty or `Some(state)`.
    ///
    /// # Errors
    /// [`ZobristError::OutOfRange`] when the board has more cells than the
    /// table or a state outside it.
    pub fn key_of_board(&self, board: &[Option<usize>]) -> Result<K, ZobristError> {
        let mut k = K::default();
        for (c, s) in board.iter().enumerate() {
            if let Some(s) = *s {
                k = k ^ self.key_of(c, s)?;
            }
        }
        Ok(k)
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
    #[inline]
    fn key(&self, cell: usize, state: usize) -> Option<K> {
        self.key_of(cell, state).ok()
    }
}

/// Repetitions in a game's history of keys (shared by the chess crates'
/// `Game` types and the engine's search): how often the last key of `keys` occurs among the positions that can
/// repeat it: looking back at most `halfmove_clock` plies, every second
/// one. The count includes the last position itself, and stops early once
/// it reaches `stop_at`.
///
/// ```
/// use hashmate_hash::zobrist::repetitions;
/// // Keys of a game where the position 7 recurs at plies 0, 4 and 8.
/// let keys = [7, 1, 2, 3, 7, 4, 5, 6, 7];
/// assert_eq!(repetitions(&keys, 8, usize::MAX), 3);
/// assert_eq!(repetitions(&keys, 4, usize::MAX), 2); // a pawn moved 5 plies ago
/// assert_eq!(repetitions(&keys, 8, 2), 2);
/// ```
#[inline]
pub fn repetitions(keys: &[u64], halfmove_clock: u32, stop_at: usize) -> usize {
    let Some((&key, earlier)) = keys.split_last() else {
        return 0;
    };
    let back = (halfmove_clock as usize).min(earlier.len());
    let mut n = 1;
    let mut i = 2;
    while i <= back && n < stop_at {
        if earlier[earlier.len() - i] == key {
            n += 1;
        }
        i += 2;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_from_the_seed() {
        // The first u64 key for seed 1234567 is SplitMix64's first output
        // for that seed; u128 keys take two draws, high word first.
        let z: Zobrist<u64> = Zobrist::new(1, 1, 0, 1234567).unwrap();
        assert_eq!(z.key_of(0, 0), Ok(6457827717110365317));
        let w: Zobrist<u128> = Zobrist::new(1, 1, 0, 1234567).unwrap();
        assert_eq!(
            w.key_of(0, 0),
            Ok((6457827717110365317u128 << 64) | 3203168211198807973)
        );
        let a: Zobrist<u128> = Zobrist::new(64, 12, 3, 7).unwrap();
        assert_eq!(a, Zobrist::new(64, 12, 3, 7).unwrap());
        assert_ne!(a, Zobrist::new(64, 12, 3, 8).unwrap());
    }

    #[test]
    fn incremental_equals_scratch() {
        let z: Zobrist<u64> = Zobrist::new(100, 3, 0, 99).unwrap();
        let mut rng = SplitMix64::new(5);
        let mut board = vec![None; 100];
        let mut key = 0u64;
        for _ in 0..10_000 {
            let c = rng.below(100) as usize;
            let s = rng.below(3) as usize;
            match board[c] {
                None => {
                    z.place(&mut key, c, s).unwrap();
                    board[c] = Some(s);
                }
                Some(old) if old != s => {
                    z.change(&mut key, c, old, s).unwrap();
                    board[c] = Some(s);
                }
                Some(old) => {
                    let to = rng.below(100) as usize;
                    if board[to].is_none() {
                        z.move_state(&mut key, c, to, old).unwrap();
                        board[to] = Some(old);
                    } else {
                        z.remove(&mut key, c, old).unwrap();
                    }
                    board[c] = None;
                }
            }
            assert_eq!(Ok(key), z.key_of_board(&board));
        }
    }

    #[test]
    fn bad_sizes_and_indices_are_errors() {
        assert!(matches!(
            Zobrist::<u64>::new(usize::MAX, 2, 0, 1),
            Err(ZobristError::TooLarge { .. })
        ));
        assert!(matches!(
            Zobrist::<u128>::new(1 << 40, 1 << 30, 0, 1),
            Err(ZobristError::TooLarge { .. })
        ));
        assert!(matches!(
            Zobrist::<u64>::new(1, 1, usize::MAX, 1),
            Err(ZobristError::TooLarge { .. })
        ));
        let z: Zobrist<u64> = Zobrist::new(10, 2, 1, 1).unwrap();
        let err = z.key_of(10, 0).unwrap_err();
        assert_eq!(
            err,
            ZobristError::OutOfRange {
                cell: 10,
                state: 0,
                cells: 10,
                states: 2
            }
        );
        assert!(err.to_string().contains("outside the table"));
        assert!(z.key_of(0, 2).is_err());
        assert!(z.key_of(usize::MAX, usize::MAX).is_err());
        assert!(z.extra(1).is_err());
        let mut k = 5u64;
        assert!(z.move_state(&mut k, 0, 10, 0).is_err());
        assert_eq!(k, 5, "a failed update leaves the key alone");
        assert!(z.key_of_board(&[None; 11]).is_ok());
        assert!(z.key_of_board(&[Some(0); 11]).is_err());
    }
}
