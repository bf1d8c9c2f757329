//! Perft on the 10×8 board: leaf counts of the legal move tree, the last
//! ply counted by popcount.

use crate::moves::Move;
use crate::position::Position;

/// Leaf nodes at `depth`.
///
/// ```
/// use hashmate_capablanca::{perft::perft, Variant};
/// assert_eq!(perft(&Variant::Capablanca.start(), 2), 784);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut n = 0;
            pos.generate(|pm| {
                pm.for_each(|mv| {
                    let mut child = pos.clone();
                    child.play_unchecked(mv);
                    n += perft(&child, depth - 1);
                });
                false
            });
            n
        }
    }
}

/// Perft below each legal move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
