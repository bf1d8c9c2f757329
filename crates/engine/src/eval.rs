//! Static evaluation: tapered middlegame/endgame terms, from the side to
//! move's point of view, in centipawns.
//!
//! Terms: material, piece-square values (computed by formula, not typed in),
//! mobility from the slider attacks, king safety (enemy attacks on the
//! squares around the king), and pawn structure — passed, isolated, doubled
//! and backward pawns and the pawn shield in front of each possible king
//! wing. Pawn structure depends on the pawns alone, so it is computed once
//! per pawn configuration and kept in a pawn hash table keyed by the
//! position's pawn key. The phase (0 = bare kings and pawns, 24 = all
//! pieces) blends the middlegame and endgame sums.

use hashmate::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use hashmate::pawn_table::PawnHashTable;
use hashmate::{Bitboard, Color, File, Position, Rank, Role, Square};

/// A middlegame/endgame pair.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl core::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}
impl core::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}
impl core::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        *self = *self + o;
    }
}
impl core::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        *self = *self - o;
    }
}
impl core::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

/// Material values, middlegame and endgame.
pub const MATERIAL: [Score; 6] = [
    Score(100, 125),
    Score(320, 300),
    Score(335, 315),
    Score(480, 530),
    Score(960, 990),
    Score(0, 0),
];

/// Simple material values for move ordering and exchange evaluation.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20000];

const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Distance of a square from the centre, 0 (d4/e5…) to 3 (corners' files).
const fn center_distance(sq: usize) -> i32 {
    let f = (sq & 7) as i32;
    let r = (sq >> 3) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    if df > dr {
        df
    } else {
        dr
    }
}

/// Piece-square values for White, by formula: pawns gain as they advance
/// and in the centre files, minor pieces and queens like the centre, rooks
/// like the seventh rank, the king hides in the middlegame and centralises
/// in the endgame.
const fn pst_value(role: usize, sq: usize) -> Score {
    let f = (sq & 7) as i32;
    let r = (sq >> 3) as i32;
    let cd = center_distance(sq);
    let central_file = if f >= 2 && f <= 5 { 1 } else { 0 };
    match role {
        0 => {
            if r == 0 || r == 7 {
                Score(0, 0)
            } else {
                Score((r - 1) * 4 + central_file * (r - 1) * 4, (r - 1) * 10)
            }
        }
        1 => Score(30 - 12 * cd, 20 - 8 * cd),
        2 => Score(15 - 6 * cd, 10 - 5 * cd),
        3 => Score(
            if r == 6 { 20 } else { 0 } + central_file * 5,
            if r == 6 { 15 } else { 0 },
        ),
        4 => Score(8 - 4 * cd, 20 - 8 * cd),
        _ => {
            let mg = if r == 0 {
                if f <= 2 || f >= 6 {
                    25
                } else {
                    0
                }
            } else {
                -15 * r
            };
            Score(mg, 30 - 12 * cd)
        }
    }
}

const fn build_pst() -> [[Score; 64]; 6] {
    let mut t = [[Score(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let p = pst_value(role, sq);
            t[role][sq] = Score(MATERIAL[role].0 + p.0, MATERIAL[role].1 + p.1);
            sq += 1;
        }
        role += 1;
    }
    t
}

static PST: [[Score; 64]; 6] = build_pst();

const MOBILITY: [Score; 6] = [
    Score(0, 0),
    Score(4, 4),
    Score(5, 5),
    Score(2, 4),
    Score(1, 2),
    Score(0, 0),
];

const PASSED: [Score; 8] = [
    Score(0, 0),
    Score(5, 10),
    Score(8, 15),
    Score(15, 30),
    Score(30, 55),
    Score(55, 90),
    Score(90, 140),
    Score(0, 0),
];
const ISOLATED: Score = Score(-12, -15);
const DOUBLED: Score = Score(-10, -25);
const BACKWARD: Score = Score(-8, -10);
const SHIELD_PAWN: i32 = 12;

/// What the pawn table keeps per pawn configuration.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PawnEntry {
    /// Structure score, White minus Black.
    pub score: Score,
    /// Passed pawns of each colour.
    pub passed: [Bitboard; 2],
    /// Shield bonus for a king on each wing (files a–c, d–e, f–h).
    pub shield: [[i16; 3]; 2],
}

/// The pawn hash table of the evaluation.
pub type PawnTable = PawnHashTable<PawnEntry>;

/// Entries of a search thread's pawn table: 49,981, a prime-sized table
/// of about 2 MB that holds a long search's pawn structures.
pub const PAWN_TABLE_ENTRIES: usize = 49_981;

/// A pawn table of the default size, or of a single entry (which still
/// works, only slower) if that cannot be allocated.
pub fn new_pawn_table() -> PawnTable {
    PawnTable::new(PAWN_TABLE_ENTRIES)
        .or_else(|_| PawnTable::new(1))
        .expect("a one-entry pawn table can be allocated")
}

/// Squares in front of `sq` from `color`'s point of view, on its file.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let mut s = Bitboard::from_square(sq).north_for(color);
    while s.any() {
        b |= s;
        s = s.north_for(color);
    }
    b
}

/// Pawn-only terms, computed from scratch.
pub fn pawn_structure(pos: &Position) -> PawnEntry {
    let mut e = PawnEntry::default();
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let ours = pos.pieces(color, Role::Pawn);
        let theirs = pos.pieces(!color, Role::Pawn);
        let mut s = Score::default();
        for sq in ours {
            let file = Bitboard::file(sq.file());
            let adjacent = file.east() | file.west();
            let front = front_span(color, sq);
            let front_adj = front.east() | front.west();
            // Passed: no enemy pawn ahead on this or an adjacent file, and
            // not the rear pawn of a doubled pair.
            if (theirs & (front | front_adj)).is_empty() && (ours & front).is_empty() {
                s += PASSED[sq.rank().relative_to(color).index()];
                e.passed[color.index()] |= Bitboard::from_square(sq);
            }
            if (ours & adjacent).is_empty() {
                s += ISOLATED;
            } else {
                // Backward: no friendly pawn beside or behind on adjacent
                // files, and the stop square is attacked by an enemy pawn.
                let behind = !(front_adj | front);
                let support = ours & adjacent & (behind | Bitboard::rank(sq.rank()));
                let stop = Bitboard::from_square(sq).north_for(color);
                let stop_attacked = stop
                    .iter()
                    .any(|st| (pawn_attacks(color, st) & theirs).any());
                if support.is_empty() && stop_attacked {
                    s += BACKWARD;
                }
            }
            if (ours & front).any() {
                s += DOUBLED;
            }
        }
        e.score += s * sign;
        // Shield: own pawns on the two ranks in front of a king on its back
        // rank, for each wing.
        for (w, files) in [
            (0, [File::A, File::B, File::C]),
            (1, [File::C, File::D, File::E]),
            (2, [File::F, File::G, File::H]),
        ] {
            let mut n = 0;
            for f in files {
                let r2 = Square::from_coords(f, Rank::Second.relative_to(color));
                let r3 = Square::from_coords(f, Rank::Third.relative_to(color));
                if ours.contains(r2) {
                    n += 2;
                } else if ours.contains(r3) {
                    n += 1;
                }
            }
            e.shield[color.index()][w] = (n * SHIELD_PAWN / 2) as i16;
        }
    }
    e
}

/// Game phase, 0 (pawn ending) to 24 (all pieces).
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        p += PHASE[role.index()] * pos.by_role(role).count() as i32;
    }
    p.min(24)
}

/// The evaluation of `pos` for the side to move, using `pawns` for the
/// pawn-structure terms.
pub fn evaluate(pos: &Position, pawns: &mut PawnTable) -> i32 {
    let mut s = Score::default();
    let occ = pos.occupied();
    let pe = pawns.probe(pos.pawn_key(), || pawn_structure(pos));
    s += pe.score;
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let them = !color;
        let mut cs = Score::default();
        let enemy_pawn_att = {
            let p = pos.pieces(them, Role::Pawn);
            let fwd = p.south_for(color);
            fwd.east() | fwd.west()
        };
        let safe = !pos.by_color(color) & !enemy_pawn_att;
        let their_king = pos.king(them);
        let zone = king_attacks(their_king).with(their_king);
        let mut attack_units = 0;
        let mut attackers = 0;
        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                let rel = sq.relative_to(color).index();
                cs += PST[role.index()][rel];
                let att = match role {
                    Role::Knight => knight_attacks(sq),
                    Role::Bishop => bishop_attacks(sq, occ),
                    Role::Rook => rook_attacks(sq, occ),
                    Role::Queen => queen_attacks(sq, occ),
                    _ => continue,
                };
                cs += MOBILITY[role.index()] * (att & safe).count() as i32;
                let hits = (att & zone).count() as i32;
                if hits > 0 {
                    attackers += 1;
                    attack_units += hits * [0, 2, 2, 3, 5, 0][role.index()];
                }
            }
        }
        if attackers >= 2 {
            // Grows faster than linearly with the weight of the attack.
            cs += Score(attack_units * attack_units / 2, attack_units * 2);
        }
        // Shield of our own king, middlegame only.
        let king = pos.king(color);
        if king.rank() == Rank::First.relative_to(color) {
            let wing = match king.file() {
                File::A | File::B | File::C => 0,
                File::D | File::E => 1,
                _ => 2,
            };
            cs += Score(pe.shield[color.index()][wing] as i32, 0);
        }
        // Bishop pair.
        if pos.pieces(color, Role::Bishop).more_than_one() {
            cs += Score(30, 50);
        }
        s += cs * sign;
    }
    let ph = phase(pos);
    let v = (s.0 * ph + s.1 * (24 - ph)) / 24;
    let v = if pos.side_to_move() == Color::White {
        v
    } else {
        -v
    };
    // Tempo.
    v + 10
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate(
            &Position::from_fen(fen).unwrap(),
            &mut PawnTable::new(1024).unwrap(),
        )
    }

    #[test]
    fn symmetric_positions_are_balanced() {
        // Only the tempo bonus separates the sides in the start position.
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            10
        );
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
            10
        );
    }

    #[test]
    fn mirrored_positions_evaluate_equally() {
        let a = eval("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = eval("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(a, b);
    }

    #[test]
    fn material_and_structure_count() {
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -800);
        // A passed pawn on the sixth is worth more than one on the third.
        assert!(eval("4k3/8/4P3/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1"));
        let e = pawn_structure(&Position::from_fen("4k3/8/8/8/8/P7/P7/4K3 w - - 0 1").unwrap());
        assert_eq!(
            e.passed[0].count(),
            1,
            "the rear doubled pawn is not passed"
        );
    }

    #[test]
    fn pawn_table_hits_and_agrees() {
        let mut t = new_pawn_table();
        let pos = Position::startpos();
        let a = t.probe(pos.pawn_key(), || pawn_structure(&pos));
        let b = t.probe(pos.pawn_key(), || unreachable!("a hit"));
        assert_eq!(a, b);
        assert_eq!(t.hits(), 1);
        assert_eq!(a, pawn_structure(&pos));
    }
}
