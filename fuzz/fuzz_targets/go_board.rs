//! The Go board playing arbitrary points: every move is played or refused
//! with a reason, a refused move changes nothing, and the incremental key
//! always equals the key computed from scratch.
#![no_main]
use hashmate_go::{GoBoard, KoRule, Rules, Stone};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&head, moves)) = data.split_first() else {
        return;
    };
    let size = 2 + (head as usize % 12);
    let rules = Rules {
        ko: KoRule::ALL[(head as usize >> 4) % 4],
        suicide: head & 0x40 != 0,
    };
    let mut b = GoBoard::new(size, rules).expect("2..=13");
    for &m in moves.iter().take(2000) {
        let color = if m & 0x80 == 0 {
            Stone::Black
        } else {
            Stone::White
        };
        let p = (m & 0x7f) as usize;
        if p == 0x7f {
            b.pass();
            continue;
        }
        let key = b.key();
        let legal = b.is_legal(color, p);
        match b.try_play(color, p) {
            Ok(()) => assert!(legal),
            Err(_) => {
                assert!(!legal);
                assert_eq!(b.key(), key);
            }
        }
        assert_eq!(b.key(), b.compute_key());
    }
});
