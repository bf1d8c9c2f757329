//! A small, documented, seeded PRNG: SplitMix64 (Steele, Lea & Flood, 2014).
//!
//! Used wherever reproducible random numbers are needed — Zobrist keys,
//! magic-number searches, random playouts in tests. The output depends only
//! on the seed, never on the platform or its byte order, so keys drawn from
//! it are portable: a table built from a seed is the same everywhere.
//!
//! ```
//! use hashmate_hash::rng::SplitMix64;
//! let mut a = SplitMix64::new(42);
//! let mut b = SplitMix64::new(42);
//! assert_eq!(a.next_u64(), b.next_u64());
//! assert!(a.below(6) < 6);
//! ```

/// SplitMix64: a 64-bit state advanced by a Weyl constant and scrambled.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose whole output is determined by `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The next 128 random bits (two draws, high word first).
    pub const fn next_u128(&mut self) -> u128 {
        let hi = self.next_u64() as u128;
        (hi << 64) | self.next_u64() as u128
    }

    /// A number with few bits set (AND of three draws), as magic search likes.
    pub fn next_sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }

    /// Uniform in `0..n` by multiply-high (no division; the bias is below
    /// `n / 2^64`). `below(0)` is 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // First outputs for seed 1234567 of the reference implementation
        // (Vigna's splitmix64.c).
        let mut r = SplitMix64::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
        assert_eq!(r.next_u64(), 9817491932198370423);
    }
}
