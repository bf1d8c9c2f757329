//! The evaluation's terms: where each one's weights sit in the weight
//! table, and their names for the tuner's output.
//!
//! Every weight is a middlegame/endgame pair. A term's value in a position
//! is `count × weight`, White's counts minus Black's, so the evaluation is
//! linear in the weights — which is what lets the tuner fit them by
//! gradient descent on game results (the Texel method).

/// A group of consecutive weights.
#[derive(Copy, Clone, Debug)]
pub struct Group {
    /// Name in the generated source.
    pub name: &'static str,
    /// First index.
    pub start: usize,
    /// Number of weights.
    pub len: usize,
}

macro_rules! layout {
    ($( $(#[$doc:meta])* $name:ident : $len:expr ),* $(,)?) => {
        layout!(@consts 0usize; $( $(#[$doc])* $name : $len ),*);
        /// Every group, in table order.
        pub const GROUPS: &[Group] = &[
            $( Group { name: stringify!($name), start: $name, len: $len } ),*
        ];
    };
    (@consts $at:expr; $(#[$doc:meta])* $name:ident : $len:expr $(, $( $(#[$rdoc:meta])* $rest:ident : $rlen:expr ),*)?) => {
        $(#[$doc])*
        pub const $name: usize = $at;
        layout!(@consts $at + $len; $( $( $(#[$rdoc])* $rest : $rlen ),* )?);
    };
    (@consts $at:expr; ) => {
        /// Number of weights.
        pub const NUM_WEIGHTS: usize = $at;
    };
}

layout! {
    /// Material by role (pawn … king; the king's stays 0).
    MATERIAL: 6,
    /// Piece-square values by role and square, from White's side (Black's
    /// squares are mirrored).
    PST: 6 * 64,
    /// Mobility of a knight by the number of squares it reaches that are
    /// not occupied by its own pieces nor attacked by enemy pawns.
    MOBILITY_KNIGHT: 9,
    /// Mobility of a bishop, as for knights.
    MOBILITY_BISHOP: 14,
    /// Mobility of a rook.
    MOBILITY_ROOK: 15,
    /// Mobility of a queen.
    MOBILITY_QUEEN: 28,
    /// A passed pawn, by its rank as its owner sees it.
    PASSED: 8,
    /// A passed pawn whose path to promotion is empty, by rank.
    PASSED_FREE: 8,
    /// A passed pawn with a piece on the square in front, by rank.
    PASSED_BLOCKED: 8,
    /// A passed pawn defended by a pawn, by rank.
    PASSED_SUPPORTED: 8,
    /// Distance from the own king to the square in front of a passed pawn,
    /// times this weight by rank.
    PASSED_OWN_KING: 8,
    /// Distance from the enemy king to that square, by rank.
    PASSED_THEIR_KING: 8,
    /// A pawn with a pawn beside it or defending it, by rank.
    CONNECTED: 8,
    /// A pawn with no own pawn on the files beside it.
    ISOLATED: 1,
    /// A pawn with an own pawn ahead of it on its file.
    DOUBLED: 1,
    /// A pawn that no own pawn can defend and whose stop square an enemy
    /// pawn attacks.
    BACKWARD: 1,
    /// A rook on a file without pawns.
    ROOK_OPEN: 1,
    /// A rook on a file without own pawns.
    ROOK_SEMI_OPEN: 1,
    /// Two bishops or more.
    BISHOP_PAIR: 1,
    /// A knight on an outpost (ranks 4–6, defended by a pawn, out of reach
    /// of enemy pawns).
    KNIGHT_OUTPOST: 1,
    /// A bishop on an outpost.
    BISHOP_OUTPOST: 1,
    /// An enemy piece (not a pawn) attacked by a pawn, by its role.
    THREAT_BY_PAWN: 6,
    /// An enemy piece, or a pawn no enemy pawn defends, attacked by a
    /// knight or bishop, by its role.
    THREAT_BY_MINOR: 6,
    /// An enemy piece, or a pawn no enemy pawn defends, attacked by a
    /// rook, by its role.
    THREAT_BY_ROOK: 6,
    /// An enemy piece (not a pawn) attacked and not defended.
    HANGING: 1,
    /// The danger to the enemy king: attack units (2 per king-zone square
    /// attacked by a minor, 3 by a rook, 5 by a queen), by their number.
    KING_DANGER: 32,
    /// A check that can be given safely, by the checking role.
    SAFE_CHECK: 6,
    /// Own pawns on the rank in front of the king, on its file and the
    /// files beside it.
    SHIELD_NEAR: 1,
    /// Own pawns two ranks in front of the king.
    SHIELD_FAR: 1,
    /// The king on a file without pawns.
    KING_OPEN_FILE: 1,
    /// The king on a file without own pawns.
    KING_SEMI_OPEN_FILE: 1,
    /// Safe squares in the centre behind own pawns (files c–f, own ranks
    /// 2–4).
    SPACE: 1,
    /// A bishop, times the number of own pawns on squares of its colour.
    BISHOP_PAWNS: 1,
    /// A knight (first) or bishop (second), times its distance from the
    /// own king.
    KING_PROTECTOR: 2,
    /// On each of the king's file and the files beside it, the enemy pawn
    /// nearest the king's side, by its rank as the king's side sees it
    /// (rank 1: no enemy pawn on that file).
    PAWN_STORM: 8,
    /// Squares next to the king that the enemy attacks and that only the
    /// king or queen defends.
    KING_ZONE_WEAK: 1,
    /// An enemy piece (not a pawn) that a safe pawn push would attack.
    PAWN_PUSH_THREAT: 1,
    /// Squares that both sides attack and no enemy pawn defends.
    RESTRICTED: 1,
    /// An enemy piece or pawn that the king attacks and nothing defends.
    THREAT_BY_KING: 1,
    /// A knight or bishop with an own pawn on the square in front of it.
    MINOR_BEHIND_PAWN: 1,
    /// A passed pawn whose stop square the enemy does not attack, by rank.
    PASSED_SAFE_STOP: 8,
    /// A passed pawn none of whose path to promotion the enemy attacks, by
    /// rank.
    PASSED_SAFE_PATH: 8,
    /// The side to move.
    TEMPO: 1,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_table() {
        let mut at = 0;
        for g in GROUPS {
            assert_eq!(g.start, at, "{}", g.name);
            at += g.len;
        }
        assert_eq!(at, NUM_WEIGHTS);
        assert_eq!(PST, 6);
        assert_eq!(TEMPO, NUM_WEIGHTS - 1);
    }
}
