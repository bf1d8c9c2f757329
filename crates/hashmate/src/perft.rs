//! Perft: count the leaf nodes of the legal move tree to a fixed depth.
//!
//! Perft is the move generator's acceptance test: any bug in legality,
//! castling, en passant or promotion changes a count. The last ply is
//! counted by popcount of each piece's destination set (bulk counting), so
//! leaves are never made.
//!
//! One recursion, [`perft_cached`], serves every variant: plain perft is
//! that recursion with [`NoCache`] (which the compiler removes entirely),
//! hashed perft keeps subtree counts in a [`PerftTable`] keyed by the
//! position's Zobrist key, and any other table (the engine's collision
//! study, say) implements [`PerftCache`].
//!
//! ```
//! use hashmate::perft::{perft, perft_cached, PerftTable};
//! use hashmate::Position;
//! let pos = Position::startpos();
//! assert_eq!(perft(&pos, 4), 197_281);
//! let mut table = PerftTable::new(1 << 20)?; // 1 MB
//! assert_eq!(perft_cached(&pos, 5, &mut table), 4_865_609);
//! assert!(table.hits() > 0); // transpositions (1. Nf3 Nf6 2. Nc3 = 1. Nc3 Nf6 2. Nf3) counted once
//! # Ok::<(), hashmate::perft::TableSizeError>(())
//! ```

use crate::attacks::{DefaultSliders, Sliders};
use crate::movegen::GenMode;
use crate::moves::{Move, MAX_MOVES};
use crate::position::Position;
#[allow(unused_imports)]
use crate::prelude::*;
use core::fmt;

/// Leaf nodes at `depth` with the default slider backend.
///
/// ```
/// use hashmate::{perft::perft, Position};
/// assert_eq!(perft(&Position::startpos(), 3), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with(DefaultSliders::default(), pos, depth)
}

/// Leaf nodes at `depth` with slider backend `s` (to compare backends
/// inside a real workload).
pub fn perft_with<S: Sliders>(s: S, pos: &Position, depth: u32) -> u64 {
    count(s, pos, depth, &mut NoCache)
}

/// Leaf nodes at `depth`, with subtree counts kept in `cache`.
pub fn perft_cached<C: PerftCache>(pos: &Position, depth: u32, cache: &mut C) -> u64 {
    count(DefaultSliders::default(), pos, depth, cache)
}

/// Perft below each legal root move, in generation order: the per-move
/// breakdown (`divide`) that locates a move-generator bug. (The same
/// signature as `hashmate_capablanca::perft::divide`.)
///
/// ```
/// use hashmate::{perft::divide, Position};
/// let split = divide(&Position::startpos(), 2);
/// assert_eq!(split.len(), 20);
/// assert!(split.iter().all(|&(_, n)| n == 20));
/// ```
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide_cached(pos, depth, &mut NoCache)
}

/// [`divide`] with subtree counts kept in `cache`, as [`perft_cached`].
pub fn divide_cached<C: PerftCache>(pos: &Position, depth: u32, cache: &mut C) -> Vec<(Move, u64)> {
    let s = DefaultSliders::default();
    let mut out = Vec::new();
    pos.generate(s, GenMode::All, |pm| {
        pm.for_each(|mv| {
            let mut child = pos.clone();
            child.play_unchecked_with(s, mv);
            let n = count(s, &child, depth.saturating_sub(1), cache);
            out.push((mv, n));
        });
        false
    });
    out
}

/// The one perft recursion.
#[inline]
fn count<S: Sliders, C: PerftCache>(s: S, pos: &Position, depth: u32, cache: &mut C) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves_with(s),
        _ => {
            if let Some(n) = cache.probe(pos, depth) {
                return n;
            }
            let n = if depth == 2 {
                cache.count_depth_two(s, pos)
            } else {
                let mut n = 0;
                pos.generate(s, GenMode::All, |pm| {
                    pm.for_each(|mv| {
                        let mut child = pos.clone();
                        child.play_unchecked_with(s, mv);
                        n += count(s, &child, depth - 1, cache);
                    });
                    false
                });
                n
            };
            cache.store(pos, depth, n);
            n
        }
    }
}

/// A store of perft subtree counts, probed and filled at depths ≥ 2.
///
/// A cache implements [`probe`](PerftCache::probe) and
/// [`store`](PerftCache::store); one that can count the last two plies
/// faster than generating them (as [`PerftTable`] does from cached move
/// counts) overrides [`count_depth_two`](PerftCache::count_depth_two) too.
pub trait PerftCache {
    /// The count stored for `pos` at `depth`, if any.
    fn probe(&mut self, pos: &Position, depth: u32) -> Option<u64>;
    /// Remember `count` for `pos` at `depth`.
    fn store(&mut self, pos: &Position, depth: u32, count: u64);
    /// Perft 2 of `pos` (called when [`probe`](PerftCache::probe) has no
    /// count for it): by default the sum of its children's bulk-counted
    /// moves.
    #[inline]
    fn count_depth_two<S: Sliders>(&mut self, s: S, pos: &Position) -> u64 {
        let mut n = 0;
        pos.generate(s, GenMode::All, |pm| {
            pm.for_each(|mv| {
                let mut child = pos.clone();
                child.play_unchecked_with(s, mv);
                n += child.count_moves_with(s);
            });
            false
        });
        n
    }
}

/// No cache: plain perft.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoCache;

impl PerftCache for NoCache {
    #[inline(always)]
    fn probe(&mut self, _: &Position, _: u32) -> Option<u64> {
        None
    }
    #[inline(always)]
    fn store(&mut self, _: &Position, _: u32, _: u64) {}
}

/// A table size that cannot be allocated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TableSizeError {
    /// The size asked for.
    pub bytes: usize,
}

impl fmt::Display for TableSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot allocate a table of {} bytes", self.bytes)
    }
}

impl core::error::Error for TableSizeError {}

/// Salts XORed into the key per depth, so that one position's counts at
/// different depths are different entries (and the depth is checked too).
const fn depth_salts() -> [u64; 64] {
    let mut rng = hashmate_hash::rng::SplitMix64::new(0x7065_7266_7473_616c);
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = rng.next_u64();
        i += 1;
    }
    t
}

/// Per-depth key salts of [`PerftTable`].
pub const DEPTH_SALTS: [u64; 64] = depth_salts();

/// Field layout of a [`PerftTable`] entry's second word: the count in the
/// low 56 bits, the depth in the top 8.
const COUNT_MASK: u64 = (1 << 56) - 1;
const DEPTH_SHIFT: u32 = 56;

/// Entries of [`PerftTable`]'s move-count cache: 16,384 × 8 bytes =
/// 128 KB, small enough to stay in a core's L2 cache (startpos perft 7:
/// 24 % of move counts found at 128 KB, 29 % at 512 KB, but the larger
/// cache measured slower).
const LEAF_ENTRIES: usize = 1 << 14;

/// Size of [`PerftTable`]'s near move-count level, in bytes.
pub const MOVE_COUNT_CACHE_BYTES: usize = LEAF_ENTRIES * 8;
/// Bits of a leaf entry that hold the move count plus one (0: empty).
const LEAF_COUNT_BITS: u32 = 8;
const LEAF_COUNT_MASK: u64 = (1 << LEAF_COUNT_BITS) - 1;

/// The hashed-perft table, in three parts.
///
/// * Subtree counts at depth ≥ 2: 16-byte entries (the depth-salted
///   Polyglot key, and the count with the depth in its top byte), four to
///   a 64-byte bucket chosen by a multiply-high reduction of the key,
///   replacing the shallowest entry. Counts above 2^56 are not stored
///   (they are never hit in practice and would not fit).
///   On Linux it asks for transparent huge pages, as the transposition
///   table does, so its random probes need few TLB entries.
/// * Move counts (depth 1), near level: a small direct-mapped cache of
///   8-byte entries: the key's top 56 bits and the count plus one in the
///   low 8 bits (a position has at most 218 legal moves), indexed by the
///   key's low 14 bits, so all 64 bits of the key are checked.
///   Transpositions of the last two plies (`a b` and `b a`) meet within
///   one small subtree, so a table that fits the L2 cache catches many of
///   them (24 % of all move counts of startpos perft 7) at once.
/// * Move counts, far level: the same entries in a direct-mapped table of
///   a quarter of the bytes (a power of two), which catches the
///   transpositions that meet far apart (52 % of startpos perft 7's move
///   counts, against 53 % distinct positions at most). A read from it
///   would cost a trip to main memory, more than the bulk-counting
///   generation it saves, so it is never waited for: while a node at
///   depth 2 makes its children, each child the near level does not know
///   is kept and its far slot prefetched; the slots are read once all
///   children are made, by which time they have arrived.
pub struct PerftTable {
    buckets: Vec<[(u64, u64); 4]>,
    leaves: Vec<u64>,
    far: Vec<u64>,
    deferred: Vec<Position>,
    probes: u64,
    hits: u64,
    leaf_probes: u64,
    leaf_hits: u64,
}

impl fmt::Debug for PerftTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PerftTable")
            .field("bytes", &self.bytes())
            .field("probes", &self.probes)
            .field("hits", &self.hits)
            .finish()
    }
}

impl PerftTable {
    /// A table of about `bytes` bytes (at least one bucket).
    ///
    /// # Errors
    /// [`TableSizeError`] when it cannot be allocated.
    pub fn new(bytes: usize) -> Result<PerftTable, TableSizeError> {
        let far_len = far_entries(bytes);
        let n = ((bytes - far_len * 8) / 64).max(1);
        let mut far = Vec::new();
        far.try_reserve_exact(far_len)
            .map_err(|_| TableSizeError { bytes })?;
        crate::huge_pages::advise(&far);
        far.resize(far_len, 0);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|_| TableSizeError { bytes })?;
        crate::huge_pages::advise(&buckets);
        buckets.resize(n, [(0, 0); 4]);
        let mut leaves = Vec::new();
        leaves
            .try_reserve_exact(LEAF_ENTRIES)
            .map_err(|_| TableSizeError { bytes })?;
        leaves.resize(LEAF_ENTRIES, 0);
        Ok(PerftTable {
            buckets,
            leaves,
            far,
            deferred: Vec::with_capacity(MAX_MOVES),
            probes: 0,
            hits: 0,
            leaf_probes: 0,
            leaf_hits: 0,
        })
    }

    /// Size in bytes of the subtree counts and the far move-count level
    /// (the near one adds a fixed 128 KB).
    pub fn bytes(&self) -> usize {
        self.buckets.len() * 64 + self.far.len() * 8
    }

    /// Probes of the subtree-count table (depth ≥ 2) so far.
    pub fn probes(&self) -> u64 {
        self.probes
    }

    /// Probes of the subtree-count table that found their count.
    pub fn hits(&self) -> u64 {
        self.hits
    }

    /// Move counts (depth 1) asked for so far.
    pub fn move_count_probes(&self) -> u64 {
        self.leaf_probes
    }

    /// Move counts (depth 1) found in either level.
    pub fn move_count_hits(&self) -> u64 {
        self.leaf_hits
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }
}

/// Entries of the far move-count level for a table of `bytes`: a power of
/// two taking at most a quarter of the bytes, none below 256 entries (so
/// that the index, the key's low bits, covers the 8 bits the entry does
/// not check).
fn far_entries(bytes: usize) -> usize {
    let n = bytes / 4 / 8;
    if n < 256 {
        0
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}

/// The far level's slot for `key` (its length is a power of two; an empty
/// level gives an index past its end).
#[inline]
fn far_index(far: &[u64], key: u64) -> usize {
    key as usize & far.len().wrapping_sub(1)
}

/// A move-count entry: the key's top 56 bits and the count plus one.
#[inline]
fn move_count_of(entry: u64, key: u64) -> Option<u64> {
    (entry & LEAF_COUNT_MASK != 0 && (entry ^ key) >> LEAF_COUNT_BITS == 0)
        .then(|| (entry & LEAF_COUNT_MASK) - 1)
}

impl PerftTable {
    /// The far level's count for `key`, if it holds one.
    #[inline]
    fn probe_far_moves(&mut self, key: u64) -> Option<u64> {
        let e = *self.far.get(far_index(&self.far, key))?;
        let c = move_count_of(e, key);
        self.leaf_hits += u64::from(c.is_some());
        c
    }

    /// The near level's count for `key`, if it holds one.
    #[inline(always)]
    fn probe_moves(&mut self, key: u64) -> Option<u64> {
        self.leaf_probes += 1;
        let c = move_count_of(self.leaves[key as usize & (LEAF_ENTRIES - 1)], key);
        self.leaf_hits += u64::from(c.is_some());
        c
    }

    /// Remember `count` moves for `key` in both levels.
    #[inline]
    fn store_moves(&mut self, key: u64, count: u64) {
        if count < LEAF_COUNT_MASK {
            let entry = (key & !LEAF_COUNT_MASK) | (count + 1);
            self.leaves[key as usize & (LEAF_ENTRIES - 1)] = entry;
            let i = far_index(&self.far, key);
            if let Some(e) = self.far.get_mut(i) {
                *e = entry;
            }
        }
    }
}

impl PerftCache for PerftTable {
    /// Perft 2 as the sum of the children's move counts, asked of the two
    /// levels: the near one while the children are made; for each child
    /// it does not know, the far one's slot is prefetched and the child
    /// kept, and only once every child has been made are those slots read,
    /// so that their misses overlap instead of following one another. A
    /// child neither level knows is counted from the kept copy (making it
    /// again measured slower than keeping it).
    #[inline]
    fn count_depth_two<S: Sliders>(&mut self, s: S, pos: &Position) -> u64 {
        let mut n = 0;
        let mut children = core::mem::take(&mut self.deferred);
        pos.generate(s, GenMode::All, |pm| {
            pm.for_each(|mv| {
                // Made in place in the list, and dropped from it again
                // when the near level knows it (copying every kept child
                // into the list measured 2.5 % more instructions).
                children.push(pos.clone());
                let last = children.len() - 1;
                let child = &mut children[last];
                child.play_unchecked_with(s, mv);
                let key = child.key();
                match self.probe_moves(key) {
                    Some(c) => {
                        n += c;
                        children.pop();
                    }
                    None => {
                        if let Some(e) = self.far.get(far_index(&self.far, key)) {
                            crate::tt::prefetch_line(e);
                        }
                    }
                }
            });
            false
        });
        for child in &children {
            let key = child.key();
            n += match self.probe_far_moves(key) {
                Some(c) => c,
                None => {
                    let c = child.count_moves_with(s);
                    self.store_moves(key, c);
                    c
                }
            };
        }
        children.clear();
        self.deferred = children;
        n
    }

    #[inline]
    fn probe(&mut self, pos: &Position, depth: u32) -> Option<u64> {
        let depth = depth.min(63);
        let key = pos.key() ^ DEPTH_SALTS[depth as usize];
        self.probes += 1;
        let b = &self.buckets[self.index(key)];
        for &(k, v) in b {
            if k == key && (v >> DEPTH_SHIFT) as u32 == depth {
                self.hits += 1;
                return Some(v & COUNT_MASK);
            }
        }
        None
    }

    #[inline]
    fn store(&mut self, pos: &Position, depth: u32, count: u64) {
        if count > COUNT_MASK {
            return;
        }
        let depth = depth.min(63);
        let key = pos.key() ^ DEPTH_SALTS[depth as usize];
        let i = self.index(key);
        let b = &mut self.buckets[i];
        let mut victim = 0;
        let mut shallowest = u64::MAX;
        for (j, &(k, v)) in b.iter().enumerate() {
            if k == key || v == 0 {
                victim = j;
                break;
            }
            if v >> DEPTH_SHIFT < shallowest {
                shallowest = v >> DEPTH_SHIFT;
                victim = j;
            }
        }
        b[victim] = (key, (depth as u64) << DEPTH_SHIFT | count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_exact_even_when_tiny() {
        let pos = Position::startpos();
        for bytes in [0, 64, 4096, 1 << 20] {
            let mut t = PerftTable::new(bytes).unwrap();
            assert_eq!(perft_cached(&pos, 5, &mut t), 4_865_609);
            assert!(t.hits() > 0 || bytes <= 64);
            assert!(t.move_count_hits() > 0 && t.move_count_hits() < t.move_count_probes());
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let split = divide(&pos, 3);
        assert_eq!(split.len(), 48);
        assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 97_862);
        assert_eq!(divide(&pos, 0).len(), 48);
    }
}
