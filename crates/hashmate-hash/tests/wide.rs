//! Random full-board occupancies (proptest) on 9×9 and 10×8: the
//! perfect-hash attacks equal the ray walk for every square.

use hashmate_hash::wide::{Shogi, TenByEight};
use proptest::prelude::*;
use std::sync::OnceLock;

fn boards() -> &'static (Shogi, TenByEight) {
    static B: OnceLock<(Shogi, TenByEight)> = OnceLock::new();
    B.get_or_init(|| (Shogi::new().unwrap(), TenByEight::new().unwrap()))
}

macro_rules! check {
    ($s:expr, $sq:expr, $a:expr, $b:expr) => {{
        let s = $s;
        let n = s.squares();
        let sq = $sq % n;
        let mask = (1u128 << n) - 1;
        for occ in [$a & mask, $a & $b & mask] {
            prop_assert_eq!(s.rook(sq, occ), s.rook_reference(sq, occ));
            prop_assert!(s.rook(sq, occ).is_some());
            prop_assert_eq!(s.bishop(sq, occ), s.bishop_reference(sq, occ));
        }
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn random_occupancies(a: u128, b: u128, sq in 0usize..81) {
        let (shogi, ten) = boards();
        check!(shogi, sq, a, b);
        check!(ten, sq, a, b);
    }
}
