//! PEXT bitboards: BMI2's `pext` gathers the relevant occupancy bits into a
//! dense index, with no magic number at all.
//!
//! Only x86-64 CPUs with BMI2 have the instruction. [`Pext::detect`] checks
//! at run time and returns `None` elsewhere, so the crate builds and runs on
//! every target; callers fall back to another backend. When the crate is
//! compiled with BMI2 enabled (the repository's cargo configuration builds
//! for the host CPU), the instruction is inlined; otherwise it is reached
//! through a `#[target_feature]` function guarded by the detection.

use super::lines::{bishop_mask, rook_mask, Sliders, BISHOP_DIRS, ROOK_DIRS};
use super::magic::occupancies;
use crate::bitboard::Bitboard;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Square;
use std::sync::OnceLock;

#[derive(Copy, Clone, Default)]
struct Entry {
    mask: u64,
    offset: u32,
}

struct Tables {
    rook: [Entry; 64],
    bishop: [Entry; 64],
    attacks: Vec<Bitboard>,
}

/// Software `pext`, used to build the tables (and so testable anywhere).
pub fn pext_soft(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            out |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

fn build() -> Tables {
    let mut attacks = Vec::new();
    let mut make = |sq: u8, mask: u64, dirs: &[(i8, i8)]| {
        let offset = attacks.len() as u32;
        let mut table = vec![Bitboard::EMPTY; 1 << mask.count_ones()];
        for (occ, att) in occupancies(sq, mask, dirs) {
            table[pext_soft(occ, mask) as usize] = Bitboard(att);
        }
        attacks.extend(table);
        Entry { mask, offset }
    };
    let mut rook = [Entry::default(); 64];
    let mut bishop = [Entry::default(); 64];
    for sq in 0..64u8 {
        rook[sq as usize] = make(sq, rook_mask(sq), &ROOK_DIRS);
        bishop[sq as usize] = make(sq, bishop_mask(sq), &BISHOP_DIRS);
    }
    Tables {
        rook,
        bishop,
        attacks,
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext(x: u64, mask: u64) -> u64 {
    #[target_feature(enable = "bmi2")]
    fn hw(x: u64, mask: u64) -> u64 {
        core::arch::x86_64::_pext_u64(x, mask)
    }
    // Safety: a `Pext` handle, the only caller, exists only after
    // `Pext::detect` saw BMI2 on this CPU. (Where the build already enables
    // BMI2, `hw` inlines to the bare instruction.)
    unsafe { hw(x, mask) }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn pext(x: u64, mask: u64) -> u64 {
    pext_soft(x, mask)
}

/// The PEXT backend; obtain one with [`Pext::detect`].
#[derive(Copy, Clone)]
pub struct Pext {
    t: &'static Tables,
}

impl core::fmt::Debug for Pext {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Pext")
            .field("table_bytes", &self.table_bytes())
            .finish()
    }
}

impl Pext {
    /// The backend, if this CPU has BMI2; the tables are built on first use.
    pub fn detect() -> Option<Pext> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("bmi2") {
                static T: OnceLock<Tables> = OnceLock::new();
                return Some(Pext {
                    t: T.get_or_init(build),
                });
            }
        }
        None
    }

    #[inline(always)]
    fn lookup(self, e: &Entry, occ: Bitboard) -> Bitboard {
        self.t.attacks[e.offset as usize + pext(occ.0, e.mask) as usize]
    }
}

impl Sliders for Pext {
    const NAME: &'static str = "pext";

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.lookup(&self.t.rook[sq.index()], occ)
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.lookup(&self.t.bishop[sq.index()], occ)
    }

    fn table_bytes(self) -> usize {
        self.t.attacks.len() * 8 + 2 * 64 * core::mem::size_of::<Entry>()
    }
}

/// PEXT where this CPU has BMI2, else Fenner & Levene's [`FlFast`]: the
/// default backend of builds with the `pext` feature. Built with BMI2
/// enabled (`-C target-cpu=native` on such a CPU), the check is resolved
/// at compile time.
///
/// [`FlFast`]: super::fl::FlFast
#[derive(Copy, Clone)]
pub struct PextOrFlFast(Option<Pext>);

impl Default for PextOrFlFast {
    #[inline(always)]
    fn default() -> Self {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            static T: OnceLock<Tables> = OnceLock::new();
            PextOrFlFast(Some(Pext {
                t: T.get_or_init(build),
            }))
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            static P: OnceLock<Option<Pext>> = OnceLock::new();
            PextOrFlFast(*P.get_or_init(Pext::detect))
        }
    }
}

impl core::fmt::Debug for PextOrFlFast {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(if self.0.is_some() {
            "PextOrFlFast(pext)"
        } else {
            "PextOrFlFast(fl-fast)"
        })
    }
}

impl Sliders for PextOrFlFast {
    const NAME: &'static str = "pext";

    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        match self.0 {
            Some(p) => p.rook(sq, occ),
            None => super::fl::FlFast.rook(sq, occ),
        }
    }

    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        match self.0 {
            Some(p) => p.bishop(sq, occ),
            None => super::fl::FlFast.bishop(sq, occ),
        }
    }

    fn table_bytes(self) -> usize {
        match self.0 {
            Some(p) => p.table_bytes(),
            None => super::fl::FlFast.table_bytes(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_pext() {
        assert_eq!(pext_soft(0b1010_1010, 0b1111_0000), 0b1010);
        assert_eq!(pext_soft(!0, 0x8000_0000_0000_0001), 0b11);
        #[cfg(target_arch = "x86_64")]
        if Pext::detect().is_some() {
            for (x, m) in [
                (0x1234_5678_9abc_def0u64, 0x0f0f_f0f0_00ff_ff00u64),
                (!0, 1 << 63),
            ] {
                assert_eq!(pext(x, m), pext_soft(x, m));
            }
        }
    }
}
