//! What the search needs of a transposition table: the engine's
//! lock-free [`TranspositionTable`], or a research table of the collision
//! study (which stores the independent lock key beside each entry to count
//! false hits; the engine's table ignores it).

use hashmate::tt::{TranspositionTable, TtEntry};

/// A table the search can use.
pub trait SearchTable: Sync {
    /// The entry stored for `key`, if any.
    fn probe(&self, key: u64, lock: u64) -> Option<TtEntry>;
    /// Store a result for `key`.
    fn store(&self, key: u64, lock: u64, entry: TtEntry);
    /// Hint the CPU to fetch `key`'s entry.
    fn prefetch(&self, _key: u64) {}
    /// A new search begins (entries age).
    fn new_search(&self);
    /// Permille of the table in use, for UCI `hashfull`.
    fn hashfull(&self) -> u32;
}

impl SearchTable for TranspositionTable {
    #[inline(always)]
    fn probe(&self, key: u64, _lock: u64) -> Option<TtEntry> {
        TranspositionTable::probe(self, key)
    }
    #[inline(always)]
    fn store(&self, key: u64, _lock: u64, entry: TtEntry) {
        TranspositionTable::store(self, key, entry)
    }
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        TranspositionTable::prefetch(self, key)
    }
    fn new_search(&self) {
        TranspositionTable::new_search(self)
    }
    fn hashfull(&self) -> u32 {
        TranspositionTable::hashfull(self)
    }
}
