//! Random full-board occupancies (proptest) on 9×9 and 10×8: the
//! perfect-hash attacks equal the ray walk for every square.

use hashmate_hash::wide::WideSliders;
use proptest::prelude::*;
use std::sync::OnceLock;

fn boards() -> &'static [WideSliders; 2] {
    static B: OnceLock<[WideSliders; 2]> = OnceLock::new();
    B.get_or_init(|| [WideSliders::shogi(), WideSliders::gothic()])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn random_occupancies(a: u128, b: u128, sq in 0usize..81) {
        for s in boards() {
            let n = s.squares();
            let sq = sq % n;
            let mask = if n == 128 { !0 } else { (1u128 << n) - 1 };
            for occ in [a & mask, a & b & mask] {
                prop_assert_eq!(s.rook(sq, occ), s.rook_reference(sq, occ));
                prop_assert!(s.rook(sq, occ).is_some());
                prop_assert_eq!(s.bishop(sq, occ), s.bishop_reference(sq, occ));
            }
        }
    }
}
