//! The pawn hash table: a cache of whatever an evaluation derives from the
//! pawns alone, keyed by the position's pawn key.
//!
//! Pawn structure changes rarely during a search (most moves are not pawn
//! moves), so an evaluation that computes passed, isolated or doubled pawns
//! once per pawn configuration and looks them up afterwards saves most of
//! that work: search hit rates above 90 % are usual. The index is the
//! dedicated incremental pawn key ([`Position::pawn_key`]), reduced onto
//! any table size by a multiply-high, so the table need not be a power of
//! two (49,981 entries is a classic choice). Each entry keeps the full key
//! to tell configurations apart.
//!
//! The table is generic over the entry: the library knows nothing of the
//! evaluation's terms.
//!
//! ```
//! use hashmate::pawn_table::PawnHashTable;
//! use hashmate::{Color, Position, Role};
//!
//! // Cache the number of doubled pawns of White.
//! let mut table: PawnHashTable<u32> = PawnHashTable::new(49_981)?;
//! let pos: Position = "4k3/8/8/8/4P3/4P3/8/4K3 w - - 0 1".parse()?;
//! let doubled = |p: &Position| {
//!     let pawns = p.pieces(Color::White, Role::Pawn);
//!     pawns.count() - pawns.iter().map(|s| s.file()).collect::<std::collections::HashSet<_>>().len() as u32
//! };
//! assert_eq!(table.probe(pos.pawn_key(), || doubled(&pos)), 1);
//! assert_eq!(table.probe(pos.pawn_key(), || unreachable!()), 1); // a hit
//! assert_eq!((table.hits(), table.probes()), (1, 2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Position::pawn_key`]: crate::Position::pawn_key

use crate::perft::TableSizeError;
#[allow(unused_imports)]
use crate::prelude::*;

/// A pawn hash table of entries `E`, indexed by pawn keys. Key 0 (no pawns
/// on the board) is never stored: such positions are computed each time,
/// which costs nothing without pawns.
#[derive(Clone, Debug)]
pub struct PawnHashTable<E> {
    slots: Vec<(u64, E)>,
    hits: u64,
    probes: u64,
}

impl<E: Copy + Default> PawnHashTable<E> {
    /// A table of `entries` entries (at least one).
    ///
    /// # Errors
    /// [`TableSizeError`] when the table cannot be allocated.
    pub fn new(entries: usize) -> Result<Self, TableSizeError> {
        let n = entries.max(1);
        let bytes = n.saturating_mul(core::mem::size_of::<(u64, E)>());
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|_| TableSizeError { bytes })?;
        slots.resize(n, (0, E::default()));
        Ok(PawnHashTable {
            slots,
            hits: 0,
            probes: 0,
        })
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `pawn_key`, computed by `compute` and stored on a miss.
    #[inline]
    pub fn probe(&mut self, pawn_key: u64, compute: impl FnOnce() -> E) -> E {
        self.probes += 1;
        let i = self.index(pawn_key);
        let slot = &mut self.slots[i];
        if slot.0 == pawn_key && pawn_key != 0 {
            self.hits += 1;
            return slot.1;
        }
        let e = compute();
        *slot = (pawn_key, e);
        e
    }

    /// The stored entry for `pawn_key`, without computing anything.
    pub fn get(&self, pawn_key: u64) -> Option<E> {
        let slot = &self.slots[self.index(pawn_key)];
        (slot.0 == pawn_key && pawn_key != 0).then_some(slot.1)
    }

    /// Forget every entry and the counters.
    pub fn clear(&mut self) {
        self.slots.fill((0, E::default()));
        self.hits = 0;
        self.probes = 0;
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a table has at least one entry.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Probes that found their entry.
    pub fn hits(&self) -> u64 {
        self.hits
    }

    /// Probes so far.
    pub fn probes(&self) -> u64 {
        self.probes
    }

    /// `hits / probes` (0 before the first probe).
    pub fn hit_rate(&self) -> f64 {
        self.hits as f64 / self.probes.max(1) as f64
    }
}
