//! Fancy magic bitboards (Kannan 2007; "fancy" = one shared table with
//! per-square offsets and shifts).
//!
//! `((occ & mask) * magic) >> (64 − bits)` indexes the square's slice of one
//! big table. The magic numbers are found at first use by a seeded random
//! search (sparse candidates, rejected on any destructive collision), so the
//! tables are reproducible and no constants were copied from anywhere. The
//! search takes a few milliseconds in release builds.

use super::lines::{bishop_mask, rook_mask, slide, Sliders, BISHOP_DIRS, ROOK_DIRS};
use crate::bitboard::Bitboard;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Square;
use hashmate_hash::rng::SplitMix64;
use std::sync::OnceLock;

#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Entry {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: u32,
}

pub(crate) struct Tables {
    pub rook: [Entry; 64],
    pub bishop: [Entry; 64],
    pub attacks: Vec<Bitboard>,
}

/// All (occupancy, attacks) pairs of the relevant mask of `sq`.
pub(crate) fn occupancies(sq: u8, mask: u64, dirs: &[(i8, i8)]) -> Vec<(u64, u64)> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push((sub, slide(sq, dirs, sub)));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            return out;
        }
    }
}

fn find_magic(rng: &mut SplitMix64, mask: u64, occs: &[(u64, u64)]) -> (u64, Vec<Bitboard>) {
    let bits = mask.count_ones();
    let mut table = vec![Bitboard::EMPTY; 1 << bits];
    let mut epoch = vec![0u32; 1 << bits];
    for attempt in 1u32.. {
        let magic = rng.next_sparse();
        // Cheap filter: the high byte of mask·magic should be well populated.
        if (mask.wrapping_mul(magic) & 0xff00_0000_0000_0000).count_ones() < 6 {
            continue;
        }
        let ok = occs.iter().all(|&(occ, att)| {
            let idx = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
            if epoch[idx] != attempt {
                epoch[idx] = attempt;
                table[idx] = Bitboard(att);
                true
            } else {
                table[idx].0 == att
            }
        });
        if ok {
            return (magic, table);
        }
    }
    unreachable!("the search loop only ends by returning")
}

fn build() -> Tables {
    let mut rng = SplitMix64::new(0x6861_7368_6d61_7465); // "hashmate"
    let mut attacks = Vec::new();
    let mut make = |sq: u8, mask: u64, dirs: &[(i8, i8)]| {
        let occs = occupancies(sq, mask, dirs);
        let (magic, table) = find_magic(&mut rng, mask, &occs);
        let e = Entry {
            mask,
            magic,
            shift: 64 - mask.count_ones(),
            offset: attacks.len() as u32,
        };
        attacks.extend(table);
        e
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

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build)
}

/// The fancy-magic backend. [`Magic::new`] builds the tables on first use.
#[derive(Copy, Clone)]
pub struct Magic {
    t: &'static Tables,
}

impl core::fmt::Debug for Magic {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Magic")
            .field("table_bytes", &self.table_bytes())
            .finish()
    }
}

impl Magic {
    /// The backend; the first call finds the magic numbers and builds the
    /// tables (a few milliseconds), later calls share them.
    pub fn new() -> Self {
        Magic { t: tables() }
    }

    #[inline(always)]
    fn lookup(self, e: &Entry, occ: Bitboard) -> Bitboard {
        let idx = ((occ.0 & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        self.t.attacks[e.offset as usize + idx]
    }
}

impl Default for Magic {
    fn default() -> Self {
        Self::new()
    }
}

impl Sliders for Magic {
    const NAME: &'static str = "magic";

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
