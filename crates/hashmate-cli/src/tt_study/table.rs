//! Collision strategies for hash tables, side by side, on hashed perft and
//! on fixed-depth searches.
//!
//! A [`StudyTable`] stores perft subtree counts under one of four schemes:
//!
//! * [`Strategy::Bucket`]: four slots per cache line, the low bits of the
//!   key choosing the bucket; replace the entry for the same position, else
//!   an empty one, else the shallowest (oldest on ties). The scheme of the
//!   engine's [`hashmate::tt::TranspositionTable`].
//! * [`Strategy::AlwaysReplace`]: one slot, every store overwrites.
//! * [`Strategy::NextLocation`]: store the position at the next location;
//!   if that is occupied also, replace the older of the two.
//! * [`Strategy::CrayBlitz`]: the low `n` bits give a first slot `x`, the
//!   next 9 bits a stride `y`, and the eight slots `x, x + y, …, x + 7y` are
//!   examined; the table is over-allocated by `7 × 511` slots so the last
//!   probes stay in bounds without wrapping.
//!
//! The hash code can be 16, 32, 48 or the full 64 bits of the key: the
//! code is the key's low `bits` bits, the table index is taken from the
//! code's low `n` bits, and an entry stores only the rest of the code (the
//! index bits are implied by the slot, as Cray Blitz did). So a probe tells
//! positions apart by exactly `bits` bits (fewer for the multi-slot
//! schemes, whose slots are shared by codes of different low bits). Beside
//! every entry sits the position's independent 64-bit lock key, used only
//! to count false hits: probes accepted as matches whose lock differs.
//!
//! Counts are keyed by (key, depth): the key is XORed with a per-depth salt
//! so that one position's counts at different depths do not fight for a slot,
//! and the depth is checked on a hit.

use hashmate::perft::{perft_cached, PerftCache};
use hashmate::Position;
use hashmate_hash::rng::SplitMix64;

/// A collision-handling scheme.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    Bucket,
    AlwaysReplace,
    NextLocation,
    CrayBlitz,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::Bucket,
        Strategy::AlwaysReplace,
        Strategy::NextLocation,
        Strategy::CrayBlitz,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Bucket => "bucket-4",
            Strategy::AlwaysReplace => "always-replace",
            Strategy::NextLocation => "next-location",
            Strategy::CrayBlitz => "cray-blitz",
        }
    }
}

impl core::str::FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        Strategy::ALL
            .into_iter()
            .find(|st| st.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown strategy '{s}' (bucket-4, always-replace, next-location, cray-blitz)"
                )
            })
    }
}

/// Cray Blitz stride bits (m = 9, as Cray Blitz used).
const STRIDE_BITS: u32 = 9;

#[derive(Copy, Clone, Default)]
struct Slot {
    /// Verification bits (0 = empty slot; keys are salted so 0 is never real).
    check: u64,
    lock: u64,
    count: u64,
    depth: u8,
    stamp: u32,
}

/// Counters of one run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub probes: u64,
    pub hits: u64,
    /// Hits whose lock key differs: a different position accepted.
    pub false_hits: u64,
    pub stores: u64,
    /// Stores that evicted a valid entry of another position.
    pub replacements: u64,
}

impl Stats {
    pub fn false_hits_per_billion(&self) -> f64 {
        self.false_hits as f64 * 1e9 / self.probes.max(1) as f64
    }

    pub fn replacement_rate(&self) -> f64 {
        self.replacements as f64 / self.stores.max(1) as f64
    }
}

/// A perft table under one strategy, with a chosen number of key bits.
pub struct StudyTable {
    strategy: Strategy,
    key_bits: u32,
    index_bits: u32,
    slots: Vec<Slot>,
    clock: u32,
    last_depth: u8,
    pub stats: Stats,
}

/// Why a study table could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StudyError {
    KeyBits(u32),
    Size { bytes: usize },
}

impl core::fmt::Display for StudyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StudyError::KeyBits(b) => write!(f, "key bits must be 16, 32, 48 or 64, not {b}"),
            StudyError::Size { bytes } => write!(f, "cannot allocate a table of {bytes} bytes"),
        }
    }
}

impl std::error::Error for StudyError {}

fn depth_salts() -> [(u64, u64); 64] {
    let mut rng = SplitMix64::new(0x7065_7266_7473_616c);
    core::array::from_fn(|_| (rng.next_u64() | 1, rng.next_u64()))
}

impl StudyTable {
    /// A table of at most `bytes` bytes (rounded down to a power of two of
    /// slots, plus the Cray Blitz overhang).
    ///
    /// # Errors
    /// [`StudyError`] for key bits other than 16, 32, 64, or a size that
    /// cannot be allocated.
    pub fn new(strategy: Strategy, key_bits: u32, bytes: usize) -> Result<StudyTable, StudyError> {
        if ![16, 32, 48, 64].contains(&key_bits) {
            return Err(StudyError::KeyBits(key_bits));
        }
        let slot = core::mem::size_of::<Slot>();
        let wanted = (bytes / slot).max(8);
        let index_bits = usize::BITS - 1 - wanted.leading_zeros();
        let extra = if strategy == Strategy::CrayBlitz {
            7 * ((1 << STRIDE_BITS) - 1)
        } else {
            0
        };
        let n = (1usize << index_bits) + extra;
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|_| StudyError::Size { bytes })?;
        slots.resize(n, Slot::default());
        Ok(StudyTable {
            strategy,
            key_bits,
            index_bits,
            slots,
            clock: 0,
            last_depth: 0,
            stats: Stats::default(),
        })
    }

    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    pub fn key_bits(&self) -> u32 {
        self.key_bits
    }

    pub fn bytes(&self) -> usize {
        self.slots.len() * core::mem::size_of::<Slot>()
    }

    /// The hash code: the key's low `key_bits` bits.
    #[inline]
    fn code(&self, key: u64) -> u64 {
        if self.key_bits == 64 {
            key
        } else {
            key & ((1u64 << self.key_bits) - 1)
        }
    }

    /// What an entry stores to verify a code: the code without the index
    /// bits (the whole key with 64 bits), never 0 (0 marks "empty").
    #[inline]
    fn check_bits(&self, key: u64) -> u64 {
        if self.key_bits == 64 {
            // A key of exactly 0 would look empty; an empty slot has depth
            // 0 and never matches a probe (depths >= 2), so this is safe.
            return key;
        }
        // Codes are below 2^48: shift and set bit 0 so 0 stays "empty".
        (self.code(key) >> self.index_bits.min(self.key_bits)) << 1 | 1
    }

    /// The slots a key may occupy, in probe order.
    #[inline]
    fn candidates(&self, key: u64) -> ([usize; 8], usize) {
        let key = self.code(key);
        let mask = (1usize << self.index_bits) - 1;
        let x = key as usize & mask;
        let mut out = [0usize; 8];
        match self.strategy {
            Strategy::AlwaysReplace => {
                out[0] = x;
                (out, 1)
            }
            Strategy::NextLocation => {
                out[0] = x;
                out[1] = (x + 1) & mask;
                (out, 2)
            }
            Strategy::Bucket => {
                let base = x & !3 & mask;
                for (i, o) in out.iter_mut().take(4).enumerate() {
                    *o = (base + i).min(mask);
                }
                (out, 4.min(mask + 1))
            }
            Strategy::CrayBlitz => {
                let y = ((key >> self.index_bits) as usize & ((1 << STRIDE_BITS) - 1)).max(1);
                for (j, o) in out.iter_mut().enumerate() {
                    *o = x + j * y;
                }
                (out, 8)
            }
        }
    }

    /// The count stored for (`key`, `depth`); `lock` only feeds the
    /// false-hit counter.
    pub fn probe(&mut self, key: u64, lock: u64, depth: u8) -> Option<u64> {
        self.lookup(key, lock, Some(depth))
    }

    /// The value stored for `key` at any depth (search entries).
    pub fn probe_any(&mut self, key: u64, lock: u64) -> Option<(u64, u8)> {
        let v = self.lookup(key, lock, None)?;
        Some((v, self.last_depth))
    }

    fn lookup(&mut self, key: u64, lock: u64, depth: Option<u8>) -> Option<u64> {
        self.stats.probes += 1;
        let check = self.check_bits(key);
        let (cands, n) = self.candidates(key);
        for &i in &cands[..n] {
            let s = &self.slots[i];
            if s.check == check && depth.is_none_or(|d| s.depth == d) {
                self.stats.hits += 1;
                if s.lock != lock {
                    self.stats.false_hits += 1;
                }
                self.last_depth = s.depth;
                return Some(s.count);
            }
        }
        None
    }

    /// Store the count for (`key`, `depth`).
    pub fn store(&mut self, key: u64, lock: u64, depth: u8, count: u64) {
        self.put(key, lock, depth, count, true);
    }

    /// Store a value for `key`, replacing any entry of the same key
    /// whatever its depth (search entries).
    pub fn store_any(&mut self, key: u64, lock: u64, depth: u8, value: u64) {
        self.put(key, lock, depth, value, false);
    }

    fn put(&mut self, key: u64, lock: u64, depth: u8, count: u64, match_depth: bool) {
        self.stats.stores += 1;
        self.clock = self.clock.wrapping_add(1);
        let check = self.check_bits(key);
        let (cands, n) = self.candidates(key);
        let mut victim = cands[0];
        if self.strategy != Strategy::AlwaysReplace {
            let mut best = (u8::MAX, u32::MAX);
            for &i in &cands[..n] {
                let s = &self.slots[i];
                if s.check == 0 || (s.check == check && (!match_depth || s.depth == depth)) {
                    victim = i;
                    break;
                }
                // NextLocation: the older of the two; others: shallowest,
                // then oldest.
                let rank = if self.strategy == Strategy::NextLocation {
                    (0, s.stamp)
                } else {
                    (s.depth, s.stamp)
                };
                if rank < best {
                    best = rank;
                    victim = i;
                }
            }
        }
        let s = &mut self.slots[victim];
        if s.check != 0 && (s.check != check || s.lock != lock || (match_depth && s.depth != depth))
        {
            self.stats.replacements += 1;
        }
        *s = Slot {
            check,
            lock,
            count,
            depth,
            stamp: self.clock,
        };
    }
}

/// A [`StudyTable`] behind the search's table interface (single-threaded
/// studies; the mutex is uncontended).
pub struct StudySearchTable(pub std::sync::Mutex<StudyTable>);

impl hashmate_engine::search::SearchTable for StudySearchTable {
    fn probe(&self, pos: &Position) -> Option<hashmate::tt::TtEntry> {
        let mut t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        t.probe_any(pos.key(), pos.lock())
            .and_then(|(v, _)| hashmate::tt::unpack_entry(v))
    }

    fn store(&self, pos: &Position, entry: hashmate::tt::TtEntry) {
        let mut t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (key, lock) = (pos.key(), pos.lock());
        t.store_any(key, lock, entry.depth, hashmate::tt::pack_entry(&entry));
    }

    fn new_search(&self) {}

    /// Each study measures one table from empty: nothing to forget.
    fn clear(&self) {}

    fn hashfull(&self) -> u32 {
        0
    }
}

/// A [`StudyTable`] as a perft cache: keys and locks are salted per depth
/// so that one position's counts at different depths are different
/// entries.
struct StudyPerft<'a> {
    table: &'a mut StudyTable,
    salts: [(u64, u64); 64],
}

impl PerftCache for StudyPerft<'_> {
    fn probe(&mut self, pos: &Position, depth: u32) -> Option<u64> {
        let (ks, ls) = self.salts[depth as usize & 63];
        self.table
            .probe(pos.key() ^ ks, pos.lock() ^ ls, depth.min(255) as u8)
    }

    fn store(&mut self, pos: &Position, depth: u32, count: u64) {
        let (ks, ls) = self.salts[depth as usize & 63];
        self.table
            .store(pos.key() ^ ks, pos.lock() ^ ls, depth.min(255) as u8, count);
    }
}

/// Perft with subtree counts cached in `table` (depths ≥ 2; the last ply
/// is bulk-counted).
pub fn hashed_perft(pos: &Position, depth: u32, table: &mut StudyTable) -> u64 {
    let mut cache = StudyPerft {
        table,
        salts: depth_salts(),
    };
    perft_cached(pos, depth, &mut cache)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashmate::perft::perft;

    #[test]
    fn every_strategy_is_exact_with_full_keys() {
        // Depth 5 from the start: transpositions appear at ply 3
        // (1. Nf3 Nf6 2. Nc3 = 1. Nc3 Nf6 2. Nf3), so the table is hit.
        let pos = Position::startpos();
        let expected = perft(&pos, 5);
        for st in Strategy::ALL {
            // 32 KB: 1024 slots for ~9,400 stores, so replacement is
            // constant, yet some transposed entries survive to be hit.
            let mut t = StudyTable::new(st, 64, 32 << 10).unwrap();
            assert_eq!(hashed_perft(&pos, 5, &mut t), expected, "{st:?}");
            assert!(t.stats.replacements > 0, "{st:?} never replaced");
            assert!(t.stats.hits > 0, "{st:?} never hit");
            assert_eq!(t.stats.false_hits, 0);
        }
    }

    #[test]
    fn the_search_runs_on_every_study_table() {
        use hashmate_engine::search::{mate_in, search, Limits, Shared};
        let pos = Position::from_fen("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1")
            .unwrap();
        let limits = Limits {
            depth: Some(5),
            multipv: 1,
            ..Limits::default()
        };
        for st in Strategy::ALL {
            let t = StudyTable::new(st, 64, 1 << 16).unwrap();
            let shared =
                std::sync::Arc::new(Shared::new(StudySearchTable(std::sync::Mutex::new(t))));
            shared.control.begin(false);
            let r = search(&pos, &[], &limits, &shared, 1, &mut ());
            assert_eq!(mate_in(r.score), Some(2), "{st:?}");
            let stats = shared.tt.0.lock().unwrap().stats;
            assert!(stats.hits > 0 && stats.false_hits == 0, "{st:?} {stats:?}");
        }
    }

    #[test]
    fn bad_parameters() {
        assert_eq!(
            StudyTable::new(Strategy::Bucket, 40, 1 << 20).err(),
            Some(StudyError::KeyBits(40))
        );
        assert!("cray-blitz".parse::<Strategy>().is_ok());
        assert!("nope".parse::<Strategy>().is_err());
    }

    #[test]
    fn cray_blitz_stays_in_bounds() {
        let mut t = StudyTable::new(Strategy::CrayBlitz, 64, 1024).unwrap();
        for k in [u64::MAX, u64::MAX - 1, 0x0000_0000_0000_ffff] {
            t.store(k, 1, 2, 3);
            assert_eq!(t.probe(k, 1, 2), Some(3));
        }
    }
}
