//! Perft: count the leaf nodes of the legal move tree to a fixed depth.
//!
//! The last ply is counted by popcount of each piece's destination set
//! (bulk counting), so leaves are never made. Perft is the move generator's
//! acceptance test: any bug in legality, castling, en passant or promotion
//! changes a count.

use crate::attacks::{DefaultSliders, Sliders};
use crate::movegen::GenMode;
use crate::moves::Move;
use crate::position::Position;

/// Leaf nodes at `depth` with the default slider backend.
///
/// ```
/// use hashmate::{perft::perft, Position};
/// assert_eq!(perft(&Position::startpos(), 3), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with(DefaultSliders::default(), pos, depth)
}

/// Leaf nodes at `depth` with slider backend `s`.
pub fn perft_with<S: Sliders>(s: S, pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves_with(s),
        _ => {
            let mut n = 0;
            pos.generate(s, GenMode::All, |pm| {
                pm.for_each(|mv| {
                    let mut child = pos.clone();
                    child.play_with(s, mv);
                    n += perft_with(s, &child, depth - 1);
                });
                false
            });
            n
        }
    }
}

/// Perft per root move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    for &mv in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.play(mv);
        out.push((
            mv,
            if depth <= 1 {
                1
            } else {
                perft(&child, depth - 1)
            },
        ));
    }
    out
}
