//! Win/draw/loss counts per (position key, Polyglot move), held in sorted
//! order in 16 bytes each: what `hashmate book make` builds a book from.
//!
//! A hash map of `(u64, u16) → [u32; 3]` costs about 38 bytes per entry
//! (a 32-byte slot, its control byte, the load factor) and up to half as
//! much again while it grows, and the book needs its entries sorted in the
//! end, which costs a second copy. This table instead appends every count
//! to a buffer and, when the buffer is a quarter the size of the sorted
//! part, sorts it and merges it into the sorted part in place, adding up
//! equal (key, move) pairs. So the table is always one sorted vector plus
//! a buffer — about 20 bytes per distinct pair at worst — and reading it
//! in order copies nothing. Counts that would pass 65,535 (the most played
//! positions of a large database) move to a small exact map of `u32`
//! counts, so no count is ever halved or capped below `u32::MAX`.

use std::collections::BTreeMap;

/// One (key, move) and its wins, draws and losses: 16 bytes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Rec {
    key: u64,
    mv: u16,
    wdl: [u16; 3],
}

impl Rec {
    fn id(&self) -> (u64, u16) {
        (self.key, self.mv)
    }
}

/// The smallest buffer: below this the table sorts little batches.
const MIN_PENDING: usize = 1 << 16;

/// Counts per (key, move); see the module's documentation.
#[derive(Debug, Default)]
pub struct CountTable {
    /// Sorted by (key, move), each pair once.
    sorted: Vec<Rec>,
    /// Appended counts, not yet merged into `sorted`.
    pending: Vec<Rec>,
    /// Pairs whose counts passed `u16::MAX`: exact, in order.
    big: BTreeMap<(u64, u16), [u32; 3]>,
    /// Bytes the table asked for and could not get: from then on it
    /// counts nothing more, and its owner must give up (its counts are
    /// incomplete).
    full: Option<usize>,
}

fn add3(a: [u32; 3], b: [u32; 3]) -> [u32; 3] {
    [
        a[0].saturating_add(b[0]),
        a[1].saturating_add(b[1]),
        a[2].saturating_add(b[2]),
    ]
}

fn widen(c: [u16; 3]) -> [u32; 3] {
    c.map(u32::from)
}

impl CountTable {
    /// An empty table.
    pub fn new() -> CountTable {
        CountTable::default()
    }

    /// Entries held (pairs counted twice until the next merge): the
    /// measure of memory the spill limit compares against.
    pub fn len(&self) -> usize {
        self.sorted.len() + self.pending.len() + self.big.len()
    }

    /// Nothing counted?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the table could not get, once memory ran out (see
    /// [`CountTable::add`]).
    pub fn out_of_memory(&self) -> Option<usize> {
        self.full
    }

    /// Add `[wins, draws, losses]` to `(key, mv)`. When the memory to hold
    /// it cannot be had, nothing more is counted and
    /// [`CountTable::out_of_memory`] says how much was asked for.
    #[inline]
    pub fn add(&mut self, key: u64, mv: u16, wdl: [u32; 3]) {
        if self.full.is_some() {
            return;
        }
        if self.pending.len() == self.pending.capacity() {
            let more = self.pending.capacity().max(MIN_PENDING);
            if self.pending.try_reserve(more).is_err() {
                self.full = Some(more * std::mem::size_of::<Rec>());
                return;
            }
        }
        match (
            u16::try_from(wdl[0]),
            u16::try_from(wdl[1]),
            u16::try_from(wdl[2]),
        ) {
            (Ok(w), Ok(d), Ok(l)) => {
                self.pending.push(Rec {
                    key,
                    mv,
                    wdl: [w, d, l],
                });
                if self.pending.len() >= self.pending_limit() {
                    self.merge_pending();
                }
            }
            _ => self.add_big((key, mv), wdl),
        }
    }

    /// The buffer is merged when it holds a quarter of the sorted part.
    fn pending_limit(&self) -> usize {
        (self.sorted.len() / 4).max(MIN_PENDING)
    }

    /// `a` with `b`'s counts added, or `None` when a count would pass 16
    /// bits: then the sum has moved to `big` and the pair leaves the
    /// 16-bit records (a later record of it starts afresh).
    fn combine(&mut self, mut a: Rec, b: [u16; 3]) -> Option<Rec> {
        let sum = |i: usize| a.wdl[i].checked_add(b[i]);
        match (sum(0), sum(1), sum(2)) {
            (Some(w), Some(d), Some(l)) => {
                a.wdl = [w, d, l];
                Some(a)
            }
            _ => {
                self.add_big(a.id(), add3(widen(a.wdl), widen(b)));
                None
            }
        }
    }

    fn add_big(&mut self, id: (u64, u16), wdl: [u32; 3]) {
        let e = self.big.entry(id).or_insert([0; 3]);
        *e = add3(*e, wdl);
    }

    /// Sort the buffer, add up its equal pairs, and merge it into the
    /// sorted part, in place.
    fn merge_pending(&mut self) {
        if self.pending.is_empty() || self.full.is_some() {
            return;
        }
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_unstable_by_key(Rec::id);
        // Add up equal pairs within the buffer.
        let mut n = 0;
        for i in 0..pending.len() {
            let r = pending[i];
            if n > 0 && pending[n - 1].id() == r.id() {
                match self.combine(pending[n - 1], r.wdl) {
                    Some(c) => pending[n - 1] = c,
                    None => n -= 1,
                }
            } else {
                pending[n] = r;
                n += 1;
            }
        }
        pending.truncate(n);
        // Merge from the back into the room made at the end of `sorted`.
        let old = self.sorted.len();
        // Exactly the room needed: growth by doubling would cost up to
        // 16 more bytes per pair (a large block grows in place or by
        // remapping its pages, so this copies little).
        if self.sorted.try_reserve_exact(pending.len()).is_err() {
            self.full = Some((old + pending.len()) * std::mem::size_of::<Rec>());
            self.pending = pending;
            return;
        }
        self.sorted.resize(old + pending.len(), Rec::default());
        let (mut i, mut j, mut k) = (old, pending.len(), self.sorted.len());
        while j > 0 {
            let p = pending[j - 1];
            if i > 0 && self.sorted[i - 1].id() > p.id() {
                self.sorted[k - 1] = self.sorted[i - 1];
                i -= 1;
            } else if i > 0 && self.sorted[i - 1].id() == p.id() {
                i -= 1;
                j -= 1;
                match self.combine(self.sorted[i], p.wdl) {
                    Some(c) => self.sorted[k - 1] = c,
                    None => continue, // the pair left the sorted part
                }
            } else {
                self.sorted[k - 1] = p;
                j -= 1;
            }
            k -= 1;
        }
        // Pairs added up (or moved to `big`) left a gap of k − i slots
        // between the untouched front [0, i) and the merged tail [k, ..).
        if k > i {
            self.sorted.copy_within(k.., i);
            let len = self.sorted.len() - (k - i);
            self.sorted.truncate(len);
        }
        // The buffer keeps room for the next batch, and no more (a batch
        // handed over by `absorb` may have been far larger).
        pending.clear();
        let want = self.pending_limit();
        pending.shrink_to(want);
        // Room for the next batch if it can be had; `add` asks again.
        let _ = pending.try_reserve_exact(want);
        self.pending = pending;
    }

    /// Add every count of `other` (the larger table keeps its memory).
    pub fn absorb(&mut self, mut other: CountTable) {
        if other.sorted.len() > self.sorted.len() {
            std::mem::swap(self, &mut other);
        }
        self.full = self.full.or(other.full);
        // Merge both buffers first: a merge can move pairs into `big`.
        self.merge_pending();
        other.merge_pending();
        for (id, c) in std::mem::take(&mut other.big) {
            self.add_big(id, c);
        }
        // The other's sorted part is a (sorted) batch for this one; this
        // table's own buffer is empty after the merge above.
        self.pending = std::mem::take(&mut other.sorted);
        drop(other);
        self.merge_pending();
    }

    /// Every count in (key, move) order, equal pairs added up.
    pub fn sorted_counts(&mut self) -> impl Iterator<Item = ((u64, u16), [u32; 3])> + '_ {
        self.merge_pending();
        let mut big = self.big.iter().peekable();
        let mut small = self.sorted.iter().peekable();
        std::iter::from_fn(move || {
            let next_small = small.peek().map(|r| r.id());
            let next_big = big.peek().map(|(id, _)| **id);
            match (next_small, next_big) {
                (None, None) => None,
                (Some(s), b) if b.is_none_or(|b| s < b) => {
                    let r = small.next()?;
                    Some((s, widen(r.wdl)))
                }
                (s, Some(b)) if s.is_none_or(|s| b < s) => {
                    let (_, c) = big.next()?;
                    Some((b, *c))
                }
                _ => {
                    let r = small.next()?;
                    let (id, c) = big.next()?;
                    Some((*id, add3(widen(r.wdl), *c)))
                }
            }
        })
    }

    /// Empty the table, freeing its memory.
    pub fn clear(&mut self) {
        *self = CountTable::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn reference(adds: &[(u64, u16, [u32; 3])]) -> Vec<((u64, u16), [u32; 3])> {
        let mut m: HashMap<(u64, u16), [u32; 3]> = HashMap::new();
        for &(k, mv, c) in adds {
            let e = m.entry((k, mv)).or_insert([0; 3]);
            *e = add3(*e, c);
        }
        let mut v: Vec<_> = m.into_iter().collect();
        v.sort_unstable();
        v
    }

    fn table(adds: &[(u64, u16, [u32; 3])]) -> CountTable {
        let mut t = CountTable::new();
        for &(k, mv, c) in adds {
            t.add(k, mv, c);
        }
        t
    }

    /// A pseudo-random workload: `n` adds over `distinct` pairs, some of
    /// them heavy enough to pass 16 bits.
    fn workload(n: usize, distinct: u64, seed: u64) -> Vec<(u64, u16, [u32; 3])> {
        let mut s = seed;
        let mut next = move || {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z ^ (z >> 31)
        };
        (0..n)
            .map(|_| {
                let r = next();
                let pair = (r % distinct).wrapping_mul(0x2545_f491_4f6c_dd1d);
                let mv = (1 + (r >> 40) % 3) as u16;
                let c = match (r >> 20) % 1000 {
                    0 => [70_000, 0, 1],
                    1..=3 => [9_000, 30_000, 20_000],
                    x => [(x % 2) as u32, (x % 3 == 0) as u32, 1],
                };
                (pair, mv, c)
            })
            .collect()
    }

    #[test]
    fn equals_a_hash_map_with_merges_and_overflow() {
        for (n, distinct, seed) in [(10, 3, 1), (200_000, 5_000, 2), (300_000, 150_000, 3)] {
            let adds = workload(n, distinct, seed);
            let mut t = table(&adds);
            let got: Vec<_> = t.sorted_counts().collect();
            assert_eq!(got, reference(&adds), "{n} adds over {distinct} pairs");
            assert!(!t.big.is_empty() || n < 1000, "the workload overflows");
        }
    }

    #[test]
    fn absorb_adds_exactly_whatever_the_split() {
        let adds = workload(250_000, 40_000, 7);
        let want = reference(&adds);
        for cut in [0, 1, 70_000, 249_999] {
            let mut a = table(&adds[..cut]);
            let b = table(&adds[cut..]);
            a.absorb(b);
            assert_eq!(a.sorted_counts().collect::<Vec<_>>(), want, "cut {cut}");
        }
    }

    #[test]
    fn a_pair_summed_past_u16_in_one_batch() {
        let mut t = CountTable::new();
        for _ in 0..3 {
            t.add(5, 9, [30_000, 0, 0]);
        }
        t.add(5, 9, [0, 1, 0]);
        t.add(4, 9, [1, 0, 0]);
        assert_eq!(
            t.sorted_counts().collect::<Vec<_>>(),
            vec![((4, 9), [1, 0, 0]), ((5, 9), [90_000, 1, 0])]
        );
    }

    #[test]
    fn absorb_keeps_pairs_that_overflow_in_the_others_buffer() {
        // Both adds of (5, 9) wait in `b`'s buffer; merging it at absorb
        // time moves the pair to `b`'s exact map, which must still reach
        // `a` (the bug a 10-million-game build found: half the start
        // position's counts lost with two threads).
        let mut a = table(&[(1, 1, [1, 0, 0])]);
        let b = table(&[(5, 9, [60_000, 0, 0]), (5, 9, [60_000, 0, 1])]);
        a.absorb(b);
        assert_eq!(
            a.sorted_counts().collect::<Vec<_>>(),
            vec![((1, 1), [1, 0, 0]), ((5, 9), [120_000, 0, 1])]
        );
        // And the other way round (the larger table is kept).
        let mut a = table(&[(5, 9, [60_000, 0, 0]), (5, 9, [60_000, 0, 1])]);
        a.absorb(table(&[
            (1, 1, [1, 0, 0]),
            (2, 1, [1, 0, 0]),
            (3, 1, [1, 0, 0]),
        ]));
        assert_eq!(a.sorted_counts().count(), 4);
        assert!(a.sorted_counts().any(|c| c == ((5, 9), [120_000, 0, 1])));
    }

    #[test]
    fn records_are_16_bytes() {
        assert_eq!(std::mem::size_of::<Rec>(), 16);
    }
}

#[cfg(test)]
mod stress {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn hot_pairs_counted_one_game_at_a_time() {
        for parts in [1, 2, 3] {
            hot_pairs(parts);
        }
    }

    fn hot_pairs(parts: usize) {
        let mut tables: Vec<CountTable> = (0..parts).map(|_| CountTable::new()).collect();
        let mut reference: HashMap<(u64, u16), [u32; 3]> = HashMap::new();
        let mut s = 1u64;
        for i in 0..3_000_000u64 {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = s >> 20;
            let (key, mv) = if r % 10 < 4 {
                (r % 3, 1 + (r % 2) as u16)
            } else {
                (r, 7)
            };
            let mut c = [0u32; 3];
            c[(i % 3) as usize] = 1;
            tables[(i / 64) as usize % parts].add(key, mv, c);
            let e = reference.entry((key, mv)).or_insert([0; 3]);
            *e = add3(*e, c);
        }
        let mut want: Vec<_> = reference.into_iter().collect();
        want.sort_unstable();
        let mut t = CountTable::new();
        for part in tables {
            t.absorb(part);
        }
        let got: Vec<_> = t.sorted_counts().collect();
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g, w);
        }
    }
}
