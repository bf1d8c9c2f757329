//! What the search needs of a transposition table: the engine's
//! lock-free [`TranspositionTable`]; [`NoTable`], which keeps nothing (to
//! measure what the table is worth); or a research table of the collision
//! study, which reads the position's independent lock key to count false
//! hits. Each table takes from the position what it needs, so the search
//! itself carries no research key.

use hashmate::tt::{TranspositionTable, TtEntry};
use hashmate::Position;

/// A table the search can use.
pub trait SearchTable: Sync {
    /// The entry stored for `pos`, if any.
    fn probe(&self, pos: &Position) -> Option<TtEntry>;
    /// Store a result for `pos`.
    fn store(&self, pos: &Position, entry: TtEntry);
    /// Hint the CPU to fetch `key`'s entry.
    fn prefetch(&self, _key: u64) {}
    /// A new search begins (entries age).
    fn new_search(&self);
    /// Forget every entry (a new game).
    fn clear(&self);
    /// Permille of the table in use, for UCI `hashfull`.
    fn hashfull(&self) -> u32;
}

impl SearchTable for TranspositionTable {
    #[inline(always)]
    fn probe(&self, pos: &Position) -> Option<TtEntry> {
        TranspositionTable::probe(self, pos.key())
    }
    #[inline(always)]
    fn store(&self, pos: &Position, entry: TtEntry) {
        TranspositionTable::store(self, pos.key(), entry)
    }
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        TranspositionTable::prefetch(self, key)
    }
    fn new_search(&self) {
        TranspositionTable::new_search(self)
    }
    fn clear(&self) {
        TranspositionTable::clear(self)
    }
    fn hashfull(&self) -> u32 {
        TranspositionTable::hashfull(self)
    }
}

/// A table that keeps nothing: the search without a transposition table
/// (`bench --no-tt`), to measure what the table is worth.
#[derive(Debug, Default)]
pub struct NoTable;

impl SearchTable for NoTable {
    #[inline(always)]
    fn probe(&self, _pos: &Position) -> Option<TtEntry> {
        None
    }
    #[inline(always)]
    fn store(&self, _pos: &Position, _entry: TtEntry) {}
    fn new_search(&self) {}
    fn clear(&self) {}
    fn hashfull(&self) -> u32 {
        0
    }
}
