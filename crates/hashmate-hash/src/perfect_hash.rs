//! The perfect hash functions of Fenner & Levene, "Move generation with
//! perfect hash functions" (ICGA Journal, 2008), for any board up to 128 bits.
//!
//! A line of a board (a file, a diagonal, …) is a set of `N` *active* bit
//! positions spaced `k` bits apart: `first, first + k, …, first + (N−1)k`.
//! The occupancy of that line is the integer `α` with only active bits set.
//! The paper's four functions map the `2^N` possible values of `α` one-to-one
//! onto small integers, with a single division and no search for constants:
//!
//! | function | definition | perfect for | range |
//! | --- | --- | --- | --- |
//! | h1 | `α mod (2^k + 2)` | N ≤ k | `[0, 2^k + 1]` minus one gap |
//! | h2 | `α mod (2^(k+1) + 1)` | N ≤ k + 1 | `[0, 2^(k+1)]` |
//! | ĥ1 | `(α + c) mod (2^k + 2)` | N ≤ k | exactly `[0, 2^N − 1]` |
//! | ĥ2 | `((−1)^(N−1) 2^(N−1) α + c) mod (2^(k+1) + 1)` | N ≤ k + 1 | exactly `[0, 2^N − 1]` |
//!
//! with `c = (2/3)(4^⌊N/2⌋ − 1)`. Why they are perfect: modulo `2^k + 2`,
//! `2^(nk) ≡ (−2)^n`, so `h1(α)` is the base −2 number with the line's bits as
//! digits, reduced modulo the table size; base −2 representations are unique
//! and span exactly `2^N` consecutive integers, which fit when `N ≤ k`.
//!
//! The paper assumes the first active position is bit 0, reached by a shift.
//! §2's last paragraph notes the shift is unnecessary for h2 (its modulus is
//! odd, so multiplying by a power of two is a bijection) and for h1 when
//! `N ≤ k − 1` (then `2^s` times the distinct residues stay distinct modulo
//! `2^k + 2`). [`PerfectHash`] shifts only when it must; the minimal variants
//! always normalise to bit 0, since their added constant assumes it.
//!
//! This module is the generic, checked form, used for the 9×9 and 10×8
//! boards of [`crate::wide`]; the chess crate's 8×8 attack tables use the
//! same functions with the constants written out, and test them against it.

#[allow(unused_imports)]
use crate::prelude::*;
use core::fmt;

/// Which of the paper's four functions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HashKind {
    /// `α mod (2^k + 2)`, §2.1.
    H1,
    /// `α mod (2^(k+1) + 1)`, §2.2.
    H2,
    /// The minimal variant of h1, §2.3, eq. (14).
    H1Minimal,
    /// The minimal variant of h2, §2.3.
    H2Minimal,
}

impl HashKind {
    /// The four functions.
    pub const ALL: [HashKind; 4] = [
        HashKind::H1,
        HashKind::H2,
        HashKind::H1Minimal,
        HashKind::H2Minimal,
    ];

    /// The largest `N` for which the function is perfect, given `k`.
    pub const fn max_active(self, k: u32) -> u32 {
        match self {
            HashKind::H1 | HashKind::H1Minimal => k,
            HashKind::H2 | HashKind::H2Minimal => k + 1,
        }
    }

    /// The paper's name of the function (`h1`, `ĥ2`, …).
    pub const fn name(self) -> &'static str {
        match self {
            HashKind::H1 => "h1",
            HashKind::H2 => "h2",
            HashKind::H1Minimal => "ĥ1",
            HashKind::H2Minimal => "ĥ2",
        }
    }
}

impl fmt::Display for HashKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a perfect hash function could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerfectHashError {
    /// `k` must be at least 1.
    ZeroSpacing,
    /// `N` must be at least 1.
    NoActivePositions,
    /// The function is not perfect for this many active positions.
    TooManyActive {
        /// The function asked for.
        kind: HashKind,
        /// Spacing between active positions.
        k: u32,
        /// Active positions asked for.
        n: u32,
        /// The most this function hashes perfectly with this `k`.
        max: u32,
    },
    /// The last active position does not fit in 128 bits.
    TooWide {
        /// The bit the last active position would occupy.
        last_bit: u64,
    },
}

impl fmt::Display for PerfectHashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerfectHashError::ZeroSpacing => write!(f, "spacing k must be at least 1"),
            PerfectHashError::NoActivePositions => write!(f, "N must be at least 1"),
            PerfectHashError::TooManyActive { kind, k, n, max } => write!(
                f,
                "{kind} with k = {k} is perfect only for N <= {max}, not N = {n}"
            ),
            PerfectHashError::TooWide { last_bit } => write!(
                f,
                "the last active position is bit {last_bit}, beyond a 128-bit board"
            ),
        }
    }
}

impl core::error::Error for PerfectHashError {}

/// One of the paper's hash functions for a fixed line geometry.
///
/// ```
/// use hashmate_hash::perfect_hash::{HashKind, PerfectHash};
/// // The a-file of a chess board: 8 positions, 8 bits apart.
/// let h = PerfectHash::new(HashKind::H1, 8, 8, 0).unwrap();
/// assert_eq!(h.modulus(), 258);
/// assert_eq!(h.hash(0x0101_0101_0101_0101), 0x0101_0101_0101_0101 % 258);
/// assert!(PerfectHash::new(HashKind::H1, 7, 8, 0).is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PerfectHash {
    kind: HashKind,
    k: u32,
    n: u32,
    first: u32,
    modulus: u128,
    /// Right shift applied to `α` before reduction (0 when §2 allows it).
    shift: u32,
    /// `c` of the minimal variants, else 0.
    add: u128,
}

impl PerfectHash {
    /// The function `kind` for `n` active positions spaced `k` bits apart,
    /// the first at bit `first`.
    ///
    /// # Errors
    /// [`PerfectHashError`] when the function would not be perfect for these
    /// parameters, or the line does not fit in 128 bits.
    pub fn new(kind: HashKind, k: u32, n: u32, first: u32) -> Result<Self, PerfectHashError> {
        if k == 0 {
            return Err(PerfectHashError::ZeroSpacing);
        }
        if n == 0 {
            return Err(PerfectHashError::NoActivePositions);
        }
        let max = kind.max_active(k);
        if n > max {
            return Err(PerfectHashError::TooManyActive { kind, k, n, max });
        }
        let last_bit = first as u64 + (n as u64 - 1) * k as u64;
        if last_bit >= 128 {
            return Err(PerfectHashError::TooWide { last_bit });
        }
        // k + 1 < 128 follows from the width check when n >= 2; for n = 1 the
        // modulus may be astronomically large, so clamp k for the arithmetic:
        // with one active position any modulus above 2^first works.
        let modulus = match kind {
            HashKind::H1 | HashKind::H1Minimal => (1u128 << k.min(126)) + 2,
            HashKind::H2 | HashKind::H2Minimal => (1u128 << (k + 1).min(126)) + 1,
        };
        let shift = match kind {
            HashKind::H1 if n < k => 0,
            HashKind::H2 => 0,
            _ => first,
        };
        let add = match kind {
            HashKind::H1Minimal | HashKind::H2Minimal => minimal_offset(n),
            _ => 0,
        };
        Ok(PerfectHash {
            kind,
            k,
            n,
            first,
            modulus,
            shift,
            add,
        })
    }

    /// Which of the paper's functions this is.
    pub const fn kind(&self) -> HashKind {
        self.kind
    }

    /// Spacing `k` between active positions.
    pub const fn spacing(&self) -> u32 {
        self.k
    }

    /// Number `N` of active positions.
    pub const fn active(&self) -> u32 {
        self.n
    }

    /// Bit position of the first active position.
    pub const fn first(&self) -> u32 {
        self.first
    }

    /// The divisor of the function.
    pub const fn modulus(&self) -> u128 {
        self.modulus
    }

    /// Whether `α` is shifted to bit 0 before reduction.
    pub const fn shifts(&self) -> bool {
        self.shift != 0
    }

    /// Number of table entries needed to index by the hash directly:
    /// the modulus, or `2^N` for the minimal variants (saturating at
    /// `usize::MAX` for a single active position far up a wide line, whose
    /// modulus is astronomically large).
    pub fn table_size(&self) -> usize {
        match self.kind {
            HashKind::H1Minimal | HashKind::H2Minimal => 1usize << self.n,
            _ => usize::try_from(self.modulus).unwrap_or(usize::MAX),
        }
    }

    /// The mask of the active positions.
    pub fn active_mask(&self) -> u128 {
        (0..self.n).fold(0, |m, i| m | 1u128 << (self.first + i * self.k))
    }

    /// The occupancy whose `i`-th active position is set exactly when bit
    /// `i` of `index` is (`index < 2^N`).
    pub fn pattern(&self, index: u64) -> u128 {
        (0..self.n)
            .filter(|i| index >> i & 1 != 0)
            .fold(0, |m, i| m | 1u128 << (self.first + i * self.k))
    }

    /// The hash of `alpha`, an occupancy with no bits outside the active
    /// positions (other bits make the result meaningless, never a panic).
    #[inline]
    pub fn hash(&self, alpha: u128) -> usize {
        let a = alpha >> self.shift;
        let m = self.modulus;
        let h = match self.kind {
            HashKind::H1 | HashKind::H2 => a % m,
            HashKind::H1Minimal => (a % m + self.add) % m,
            HashKind::H2Minimal => {
                // (−1)^(N−1) · 2^(N−1) · α + c, all modulo the odd modulus.
                let mut t = a % m;
                for _ in 1..self.n {
                    t = (t << 1) % m;
                }
                if (self.n - 1) % 2 == 1 {
                    t = (m - t) % m;
                }
                (t + self.add) % m
            }
        };
        h as usize
    }
}

/// `c = (2/3)(4^⌊N/2⌋ − 1)`, the lower bound of eq. (8) negated.
pub const fn minimal_offset(n: u32) -> u128 {
    2 * ((1u128 << (2 * (n / 2))) - 1) / 3
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All 2^N patterns hash to distinct values inside the stated range.
    fn assert_perfect(h: &PerfectHash) -> Vec<bool> {
        let size = h.table_size();
        let mut used = vec![false; h.modulus().min(1 << 20) as usize];
        for i in 0..1u64 << h.active() {
            let v = h.hash(h.pattern(i));
            assert!(v < size, "{:?}: pattern {i} hashes to {v} >= {size}", h);
            assert!(!used[v], "{:?}: collision at {v}", h);
            used[v] = true;
        }
        used
    }

    #[test]
    fn exhaustively_perfect_for_k_7_to_11() {
        for k in 7..=11 {
            for kind in HashKind::ALL {
                for n in 1..=kind.max_active(k) {
                    for first in [0, 1, k - 1] {
                        match PerfectHash::new(kind, k, n, first) {
                            Ok(h) => {
                                assert_perfect(&h);
                            }
                            // Only the widest lines at an offset leave 128 bits.
                            Err(e) => assert!(
                                matches!(e, PerfectHashError::TooWide { .. }) && first > 0,
                                "{e}"
                            ),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn minimal_variants_fill_their_range() {
        for k in 2..=11 {
            for kind in [HashKind::H1Minimal, HashKind::H2Minimal] {
                for n in 1..=kind.max_active(k) {
                    let h = PerfectHash::new(kind, k, n, 3).unwrap();
                    let used = assert_perfect(&h);
                    assert!(used[..1 << n].iter().all(|&u| u), "{h:?} is not onto");
                }
            }
        }
    }

    #[test]
    fn shift_free_where_section_2_allows() {
        assert!(!PerfectHash::new(HashKind::H2, 7, 8, 7).unwrap().shifts());
        assert!(!PerfectHash::new(HashKind::H1, 8, 7, 4).unwrap().shifts());
        assert!(PerfectHash::new(HashKind::H1, 8, 8, 4).unwrap().shifts());
        // And a shifted h1 with N = k really would collide without the shift,
        // which is why the constructor shifts there.
        let mut seen = std::collections::HashSet::new();
        let clash = (0..256u64).any(|i| {
            let alpha: u128 = (0..8)
                .filter(|j| i >> j & 1 != 0)
                .map(|j| 1u128 << (4 + 8 * j))
                .sum();
            !seen.insert(alpha % 258)
        });
        assert!(clash);
    }

    fn unused(h: &PerfectHash) -> Vec<usize> {
        let used = assert_perfect(h);
        (0..h.modulus() as usize).filter(|&v| !used[v]).collect()
    }

    #[test]
    fn the_papers_numbers() {
        // §3.1: rook on a file, k = N = 8, h1: a gap of length 2 at 86 and 87.
        let file = PerfectHash::new(HashKind::H1, 8, 8, 0).unwrap();
        assert_eq!(file.modulus(), 258);
        assert_eq!(unused(&file), vec![86, 87]);
        // §3.2: north-east diagonal, k = 9, N = 8, h1: gap from 86 to 343.
        let ne = PerfectHash::new(HashKind::H1, 9, 8, 0).unwrap();
        assert_eq!(ne.modulus(), 514);
        assert_eq!(unused(&ne), (86..=343).collect::<Vec<_>>());
        // ... and ĥ1 has no gap.
        let ne_min = PerfectHash::new(HashKind::H1Minimal, 9, 8, 0).unwrap();
        assert!(unused(&ne_min).iter().all(|&v| v >= 256));
        // §3.3: north-west diagonal shifted to bit 0, k = 7, N = 8, h2:
        // the single unused address is 172.
        let nw = PerfectHash::new(HashKind::H2, 7, 8, 0).unwrap();
        assert_eq!(nw.modulus(), 257);
        assert_eq!(unused(&nw), vec![172]);
        // Unshifted (the main anti-diagonal starts at bit 7) it is still perfect.
        assert_perfect(&PerfectHash::new(HashKind::H2, 7, 8, 7).unwrap());
    }

    #[test]
    fn refuses_imperfect_parameters() {
        assert_eq!(
            PerfectHash::new(HashKind::H1, 7, 8, 0),
            Err(PerfectHashError::TooManyActive {
                kind: HashKind::H1,
                k: 7,
                n: 8,
                max: 7
            })
        );
        assert!(PerfectHash::new(HashKind::H2, 7, 9, 0).is_err());
        assert!(PerfectHash::new(HashKind::H2, 7, 8, 0).is_ok());
        assert_eq!(
            PerfectHash::new(HashKind::H1, 0, 1, 0),
            Err(PerfectHashError::ZeroSpacing)
        );
        assert_eq!(
            PerfectHash::new(HashKind::H1, 3, 0, 0),
            Err(PerfectHashError::NoActivePositions)
        );
        assert_eq!(
            PerfectHash::new(HashKind::H1, 20, 8, 0),
            Err(PerfectHashError::TooWide { last_bit: 140 })
        );
        let msg = PerfectHash::new(HashKind::H1, 7, 8, 0)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("N <= 7"), "{msg}");
    }

    #[test]
    fn wide_boards_use_u128() {
        // 9×9 (Shogi): files k = 9 N = 9, NE diagonals k = 10, NW k = 8 (h2).
        for (kind, k, n, first) in [
            (HashKind::H1, 9, 9, 8),
            (HashKind::H1, 10, 9, 0),
            (HashKind::H2, 8, 9, 8),
            // 10×8 (Gothic): files k = 10 N = 8, NE k = 11, NW k = 9.
            (HashKind::H1, 10, 8, 9),
            (HashKind::H1, 11, 8, 2),
            (HashKind::H2, 9, 8, 9),
        ] {
            let h = PerfectHash::new(kind, k, n, first).unwrap();
            assert_perfect(&h);
        }
    }
}
