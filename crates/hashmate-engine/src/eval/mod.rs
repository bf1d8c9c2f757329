//! Static evaluation: tapered middlegame/endgame terms whose weights were
//! fitted to game results, from the side to move's point of view, in
//! centipawns.
//!
//! Terms ([`terms`]): material; piece-square values; mobility per piece
//! and per number of squares; king danger by attack units on the king's
//! zone and safe checks; pawn shield, enemy pawn storm, weak squares and
//! open files by the king; threats (pieces, and pawns no pawn defends,
//! attacked by pawns, by minor pieces, by rooks, by the king or by a safe
//! pawn push, and hanging pieces); squares both sides contest; passed
//! pawns (rank, free path, blocker, support, distance of both kings,
//! whether the enemy attacks the stop square or the path); connected,
//! isolated, doubled and backward pawns; rooks on open and half-open
//! files; the bishop pair, bishops and their own pawns on their colour;
//! minor pieces' distance from their king and behind their own pawns;
//! outposts; space; tempo.
//!
//! Every term adds `count × weight` through [`Terms`]: the engine's
//! [`Scorer`] sums the weights of [`weights::WEIGHTS`], the tuner's
//! [`Trace`] records the counts instead, so the tuner fits exactly the
//! function the engine evaluates. Pawn-only terms are computed once per
//! pawn configuration and kept in the pawn hash table (keyed by the pawn
//! key). The phase (0 = pawns and kings only … 24 = all pieces) blends the
//! middlegame and endgame sums; endings one side cannot win by material
//! (no pawns and at most a minor piece ahead) and opposite-coloured
//! bishops scale the endgame sum down.
//!
//! Won endings against a lone king are scored apart, as known wins, before
//! either evaluation is asked ([`lone_king`]).

pub mod lone_king;
pub mod pawns;
pub mod terms;
pub mod wdl;
pub mod weights;

pub use pawns::{new_pawn_table, PawnEntry, PawnTable, PAWN_TABLE_ENTRIES};

use hashmate::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use hashmate::{Bitboard, Color, File, Position, Rank, Role, Square};
use terms::*;
use weights::WEIGHTS;

/// A middlegame/endgame weight.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S(pub i16, pub i16);

/// Simple material values for move ordering and exchange evaluation.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20000];

/// Phase weight of each role.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of a full board.
pub const MAX_PHASE: i32 = 24;
/// Endgame scale of a normal position, out of this.
pub const SCALE_NORMAL: i32 = 64;

/// Where a term goes: into a score, or into a trace.
pub trait Terms {
    /// Term `term` occurs `count` times for `color`.
    fn add(&mut self, term: usize, color: Color, count: i32);

    /// A `color` piece of `role` stands on `sq`: its material and its
    /// piece-square term, once each.
    #[inline(always)]
    fn piece(&mut self, color: Color, role: Role, sq: Square) {
        self.add(MATERIAL + role.index(), color, 1);
        self.add(
            PST + role.index() * 64 + sq.relative_to(color).index(),
            color,
            1,
        );
    }
}

/// Sums weights: White's minus Black's.
///
/// The middlegame and endgame sums travel packed in one `i64`, the
/// endgame sum in the high 32 bits and the middlegame sum in the low 32
/// (borrowing from the high half when negative), so each term costs one
/// multiply and one add instead of two of each. Both sums stay far inside
/// ±2³¹ (every weight is within ±30,000 and no term counts more than 64
/// times), so the packing is exact.
#[derive(Copy, Clone, Debug, Default)]
pub struct Scorer {
    packed: i64,
}

/// A middlegame and an endgame sum packed as [`Scorer`] keeps them.
const fn pack(mg: i32, eg: i32) -> i64 {
    ((eg as i64) << 32) + mg as i64
}

/// Every weight of [`WEIGHTS`], packed.
const PACKED: [i64; NUM_WEIGHTS] = {
    let mut out = [0; NUM_WEIGHTS];
    let mut i = 0;
    while i < NUM_WEIGHTS {
        out[i] = pack(WEIGHTS[i].0 as i32, WEIGHTS[i].1 as i32);
        i += 1;
    }
    out
};

/// Material plus piece-square weight of every piece on every square,
/// packed and signed (White adds, Black subtracts), indexed
/// `[color][role × 64 + square]`: [`Terms::piece`] for the scorer in one
/// load and one add instead of two multiplies and two adds.
const PIECE_SQUARE: [[i64; 6 * 64]; 2] = {
    let mut out = [[0; 6 * 64]; 2];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let material = PACKED[MATERIAL + role];
            // White's square as it is, Black's mirrored by rank.
            out[0][role * 64 + sq] = material + PACKED[PST + role * 64 + sq];
            out[1][role * 64 + sq] = -(material + PACKED[PST + role * 64 + (sq ^ 56)]);
            sq += 1;
        }
        role += 1;
    }
    out
};

impl Scorer {
    /// A scorer that starts from the sums `mg` and `eg`.
    pub fn new(mg: i32, eg: i32) -> Scorer {
        Scorer {
            packed: pack(mg, eg),
        }
    }

    /// The middlegame sum.
    #[inline(always)]
    pub fn mg(&self) -> i32 {
        self.packed as i32
    }

    /// The endgame sum.
    #[inline(always)]
    pub fn eg(&self) -> i32 {
        ((self.packed - i64::from(self.mg())) >> 32) as i32
    }
}

impl Terms for Scorer {
    #[inline(always)]
    fn add(&mut self, term: usize, color: Color, count: i32) {
        let c = if color == Color::White { count } else { -count };
        self.packed += i64::from(c) * PACKED[term];
    }

    #[inline(always)]
    fn piece(&mut self, color: Color, role: Role, sq: Square) {
        self.packed += PIECE_SQUARE[color.index()][role.index() * 64 + sq.index()];
    }
}

/// Records how often each term occurs: White's count minus Black's.
#[derive(Clone, Debug)]
pub struct Trace {
    /// The coefficient of each weight.
    pub coef: Vec<i32>,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            coef: vec![0; NUM_WEIGHTS],
        }
    }
}

impl Terms for Trace {
    fn add(&mut self, term: usize, color: Color, count: i32) {
        self.coef[term] += if color == Color::White { count } else { -count };
    }
}

/// Game phase, 0 (pawn ending) to 24 (all pieces).
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        p += PHASE[role.index()] * pos.by_role(role).count() as i32;
    }
    p.min(MAX_PHASE)
}

/// `c`'s knights, bishops, rooks and queens at [`SEE_VALUE`].
pub(crate) fn non_pawn_material(pos: &Position, c: Color) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&r| SEE_VALUE[r.index()] * pos.pieces(c, r).count() as i32)
        .sum()
}

/// How much of the endgame sum counts, out of [`SCALE_NORMAL`], for the
/// side the endgame sum favours (`white_ahead`).
pub fn endgame_scale(pos: &Position, white_ahead: bool) -> i32 {
    let strong = if white_ahead {
        Color::White
    } else {
        Color::Black
    };
    if pos.pieces(strong, Role::Pawn).is_empty() {
        let minor = SEE_VALUE[Role::Bishop.index()];
        let ours = non_pawn_material(pos, strong);
        if ours <= minor {
            // A lone minor piece (or nothing) cannot mate: a draw, whatever
            // the weights of its squares say.
            return 0;
        }
        if ours - non_pawn_material(pos, !strong) <= minor {
            return SCALE_NORMAL / 8;
        }
    }
    let bishops = pos.by_role(Role::Bishop);
    let others = pos.occupied() - pos.by_role(Role::Pawn) - pos.by_role(Role::King) - bishops;
    if others.is_empty()
        && pos.pieces(Color::White, Role::Bishop).count() == 1
        && pos.pieces(Color::Black, Role::Bishop).count() == 1
        && (bishops & Bitboard::DARK_SQUARES).count() == 1
    {
        return SCALE_NORMAL / 2;
    }
    SCALE_NORMAL
}

/// The evaluation of `pos` for the side to move, with pawn terms from
/// `pawns`.
pub fn evaluate(pos: &Position, pawns: &mut PawnTable) -> i32 {
    let entry = pawns.probe(pos.pawn_key(), || pawns::pawn_entry(pos));
    let mut s = Scorer::new(entry.mg, entry.eg);
    pieces(pos, &entry.passed, &mut s);
    blend(pos, s.mg(), s.eg())
}

/// Taper and scale White's sums, then turn them to the side to move.
fn blend(pos: &Position, mg: i32, eg: i32) -> i32 {
    let ph = phase(pos);
    let scale = endgame_scale(pos, eg > 0);
    if scale == 0 {
        return 0;
    }
    let v = (mg * ph + eg * scale / SCALE_NORMAL * (MAX_PHASE - ph)) / MAX_PHASE;
    if pos.side_to_move() == Color::White {
        v
    } else {
        -v
    }
}

/// The trace of `pos` (every term's count, White minus Black), for the
/// tuner.
pub fn trace(pos: &Position) -> Trace {
    let mut t = Trace::default();
    let passed = pawns::pawn_terms(pos, &mut t);
    pieces(pos, &passed, &mut t);
    t
}

/// Chebyshev distance between two squares.
#[inline]
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// Squares attacked by `c`'s pawns.
#[inline]
fn pawn_attack_set(pos: &Position, c: Color) -> Bitboard {
    let p = pos.pieces(c, Role::Pawn).north_for(c);
    p.east() | p.west()
}

/// What each side attacks, gathered while the pieces are scored and read
/// by the terms that follow (threats, checks, king safety, passed pawns).
struct Attacks {
    /// Squares attacked by each colour's pawns.
    pawn: [Bitboard; 2],
    /// Squares attacked by each colour's pieces of each role.
    by: [[Bitboard; 6]; 2],
    /// Squares attacked by each colour at all.
    all: [Bitboard; 2],
}

/// Every term except the pawn structure's.
fn pieces<T: Terms>(pos: &Position, passed: &[Bitboard; 2], t: &mut T) {
    let mut att = Attacks {
        pawn: [
            pawn_attack_set(pos, Color::White),
            pawn_attack_set(pos, Color::Black),
        ],
        by: [[Bitboard::EMPTY; 6]; 2],
        all: [Bitboard::EMPTY; 2],
    };
    for color in Color::ALL {
        let us = color.index();
        att.by[us] = piece_activity(pos, color, &att.pawn, t);
        att.all[us] = att.by[us].iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        king_shelter(pos, color, t);
        space(pos, color, &att.pawn, t);
    }
    for color in Color::ALL {
        threats(pos, color, &att, t);
        king_attack(pos, color, &att, t);
        minor_pieces(pos, color, t);
        passed_pawns(pos, color, passed[color.index()], &att, t);
    }
    t.add(TEMPO, pos.side_to_move(), 1);
}

/// `color`'s pieces other than pawns: material and square, mobility,
/// attacks on the enemy king's zone (king danger), rooks on open files,
/// outposts, the bishop pair. Returns what they attack by role (pawns and
/// king included).
#[inline]
fn piece_activity<T: Terms>(
    pos: &Position,
    color: Color,
    pawn_att: &[Bitboard; 2],
    t: &mut T,
) -> [Bitboard; 6] {
    let us = color.index();
    let them = !color;
    let occ = pos.occupied();
    let area = !pos.by_color(color) & !pawn_att[them.index()];
    let their_king = pos.king(them);
    let zone = king_attacks(their_king).with(their_king);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let mut by = [Bitboard::EMPTY; 6];
    by[Role::Pawn.index()] = pawn_att[us];
    by[Role::King.index()] = king_attacks(pos.king(color));
    let mut units = 0i32;
    // Pawns' material and squares are pawn-structure terms (kept in the
    // pawn hash table with the others).
    for role in Role::NON_PAWN {
        for sq in pos.pieces(color, role) {
            t.piece(color, role, sq);
            let (a, mobility, weight) = match role {
                Role::Knight => (knight_attacks(sq), MOBILITY_KNIGHT, 2),
                Role::Bishop => (bishop_attacks(sq, occ), MOBILITY_BISHOP, 2),
                Role::Rook => (rook_attacks(sq, occ), MOBILITY_ROOK, 3),
                Role::Queen => (
                    rook_attacks(sq, occ) | bishop_attacks(sq, occ),
                    MOBILITY_QUEEN,
                    5,
                ),
                _ => continue,
            };
            by[role.index()] |= a;
            t.add(mobility + (a & area).count() as usize, color, 1);
            units += weight * (a & zone).count() as i32;
            match role {
                Role::Rook => {
                    let file = Bitboard::file(sq.file());
                    if (file & pos.by_role(Role::Pawn)).is_empty() {
                        t.add(ROOK_OPEN, color, 1);
                    } else if (file & pos.pieces(color, Role::Pawn)).is_empty() {
                        t.add(ROOK_SEMI_OPEN, color, 1);
                    }
                }
                Role::Knight | Role::Bishop => {
                    let r = sq.rank().relative_to(color);
                    // Squares enemy pawns could attack from ahead.
                    let ahead = pawns::front_span(color, sq);
                    let reachable = (ahead.east() | ahead.west()) & their_pawns;
                    if (Rank::Fourth..=Rank::Sixth).contains(&r)
                        && pawn_att[us].contains(sq)
                        && reachable.is_empty()
                    {
                        let term = if role == Role::Knight {
                            KNIGHT_OUTPOST
                        } else {
                            BISHOP_OUTPOST
                        };
                        t.add(term, color, 1);
                    }
                }
                _ => {}
            }
        }
    }
    if pos.pieces(color, Role::Bishop).more_than_one() {
        t.add(BISHOP_PAIR, color, 1);
    }
    t.add(KING_DANGER + (units as usize).min(31), color, 1);
    by
}

/// `color`'s own king: the pawn shield in front of it, open files on it.
#[inline]
fn king_shelter<T: Terms>(pos: &Position, color: Color, t: &mut T) {
    let king = pos.king(color);
    let own_pawns = pos.pieces(color, Role::Pawn);
    let files = {
        let f = Bitboard::file(king.file());
        f | f.east() | f.west()
    };
    let near = Bitboard::from_square(king).north_for(color);
    let near = Bitboard::rank(near.first().map_or(Rank::First, |s| s.rank()));
    let far = near.north_for(color);
    t.add(
        SHIELD_NEAR,
        color,
        (own_pawns & files & near).count() as i32,
    );
    t.add(SHIELD_FAR, color, (own_pawns & files & far).count() as i32);
    let king_file = Bitboard::file(king.file());
    if (king_file & pos.by_role(Role::Pawn)).is_empty() {
        t.add(KING_OPEN_FILE, color, 1);
    } else if (king_file & own_pawns).is_empty() {
        t.add(KING_SEMI_OPEN_FILE, color, 1);
    }
}

/// Space: safe central squares behind `color`'s pawns.
#[inline]
fn space<T: Terms>(pos: &Position, color: Color, pawn_att: &[Bitboard; 2], t: &mut T) {
    let own_pawns = pos.pieces(color, Role::Pawn);
    let mut behind = own_pawns;
    for _ in 0..3 {
        behind = behind | behind.south_for(color);
    }
    let centre = (Bitboard::file(File::C)
        | Bitboard::file(File::D)
        | Bitboard::file(File::E)
        | Bitboard::file(File::F))
        & (Bitboard::rank(Rank::Second.relative_to(color))
            | Bitboard::rank(Rank::Third.relative_to(color))
            | Bitboard::rank(Rank::Fourth.relative_to(color)));
    let space = centre & behind & !own_pawns & !pawn_att[(!color).index()];
    t.add(SPACE, color, space.count() as i32);
}

/// `color`'s threats: enemy pieces attacked by lesser ones (pawns only
/// where no enemy pawn defends them), hanging pieces, king attacks on
/// undefended pieces, safe pawn pushes that would attack, squares both
/// sides contest.
#[inline]
fn threats<T: Terms>(pos: &Position, color: Color, att: &Attacks, t: &mut T) {
    let (us, them) = (color.index(), (!color).index());
    let by = &att.by[us];
    let their = pos.by_color(!color);
    let targets = their - pos.by_role(Role::King);
    let minor_att = by[Role::Knight.index()] | by[Role::Bishop.index()];
    let weak_pawns = pos.pieces(!color, Role::Pawn) & !att.pawn[them];
    for victim in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        let (v, pawn_threat) = if victim == Role::Pawn {
            (weak_pawns, Bitboard::EMPTY)
        } else {
            (their & pos.by_role(victim), by[Role::Pawn.index()])
        };
        if v.is_empty() {
            continue;
        }
        for (term, a) in [
            (THREAT_BY_PAWN, pawn_threat),
            (THREAT_BY_MINOR, minor_att),
            (THREAT_BY_ROOK, by[Role::Rook.index()]),
        ] {
            let n = (v & a).count() as i32;
            if n > 0 {
                t.add(term + victim.index(), color, n);
            }
        }
    }
    let hanging = (targets - pos.by_role(Role::Pawn)) & att.all[us] & !att.all[them];
    if hanging.any() {
        t.add(HANGING, color, hanging.count() as i32);
    }
    let king_threats = targets & by[Role::King.index()] & !att.all[them];
    if king_threats.any() {
        t.add(THREAT_BY_KING, color, king_threats.count() as i32);
    }
}

/// Attack and defence of the kings: `color`'s safe checks on the enemy
/// king, enemy pawns storming `color`'s king, weak squares next to it;
/// then the pawn-push threats and contested squares (in this order, which
/// the tuner's traces follow).
#[inline]
fn king_attack<T: Terms>(pos: &Position, color: Color, att: &Attacks, t: &mut T) {
    let (us, them) = (color.index(), (!color).index());
    let by = &att.by[us];
    let occ = pos.occupied();
    // Safe checks: squares from which a piece could check, that the piece
    // reaches, that are free of own pieces and not defended.
    let king = pos.king(!color);
    let safe = !pos.by_color(color) & !att.all[them];
    let rook_lines = rook_attacks(king, occ);
    let bishop_lines = bishop_attacks(king, occ);
    for (role, lines) in [
        (Role::Knight, knight_attacks(king)),
        (Role::Bishop, bishop_lines),
        (Role::Rook, rook_lines),
        (Role::Queen, rook_lines | bishop_lines),
    ] {
        let n = (by[role.index()] & lines & safe).count() as i32;
        if n > 0 {
            t.add(SAFE_CHECK + role.index(), color, n);
        }
    }
    // Our own king's surroundings.
    let own_king = pos.king(color);
    let enemy_pawns = pos.pieces(!color, Role::Pawn);
    let kf = own_king.file().index() as u8;
    for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
        let Some(file) = File::new(f) else { continue };
        let nearest = (Bitboard::file(file) & enemy_pawns)
            .iter()
            .map(|sq| sq.rank().relative_to(color).index())
            .min()
            .unwrap_or(0);
        t.add(PAWN_STORM + nearest, color, 1);
    }
    let strong = by[Role::Pawn.index()]
        | by[Role::Knight.index()]
        | by[Role::Bishop.index()]
        | by[Role::Rook.index()];
    let weak = by[Role::King.index()] & att.all[them] & !strong;
    if weak.any() {
        t.add(KING_ZONE_WEAK, color, weak.count() as i32);
    }
    // Pieces a safe pawn push would attack.
    let targets = pos.by_color(!color) - pos.by_role(Role::King);
    let own_pawns = pos.pieces(color, Role::Pawn);
    let one = own_pawns.north_for(color) & !occ;
    let two = (one & Bitboard::rank(Rank::Third.relative_to(color))).north_for(color) & !occ;
    let safe_push = (one | two) & (!att.all[them] | att.all[us]);
    let pushed = safe_push.north_for(color);
    let push_threats =
        (pushed.east() | pushed.west()) & targets & !pos.by_role(Role::Pawn) & !att.pawn[us];
    if push_threats.any() {
        t.add(PAWN_PUSH_THREAT, color, push_threats.count() as i32);
    }
    let restricted = att.all[us] & att.all[them] & !att.pawn[them];
    if restricted.any() {
        t.add(RESTRICTED, color, restricted.count() as i32);
    }
}

/// `color`'s minor pieces: distance from the own king, behind a pawn, and
/// a bishop's own pawns on its colour.
#[inline]
fn minor_pieces<T: Terms>(pos: &Position, color: Color, t: &mut T) {
    let own_king = pos.king(color);
    let own_pawns = pos.pieces(color, Role::Pawn);
    for sq in pos.pieces(color, Role::Knight) {
        t.add(KING_PROTECTOR, color, distance(sq, own_king));
    }
    let minors = pos.pieces(color, Role::Knight) | pos.pieces(color, Role::Bishop);
    let behind = minors & own_pawns.south_for(color);
    if behind.any() {
        t.add(MINOR_BEHIND_PAWN, color, behind.count() as i32);
    }
    for sq in pos.pieces(color, Role::Bishop) {
        t.add(KING_PROTECTOR + 1, color, distance(sq, own_king));
        let colour = if Bitboard::DARK_SQUARES.contains(sq) {
            Bitboard::DARK_SQUARES
        } else {
            !Bitboard::DARK_SQUARES
        };
        t.add(BISHOP_PAWNS, color, (own_pawns & colour).count() as i32);
    }
}

/// `color`'s passed pawns: what depends on the pieces and kings (blocked,
/// free, safe stop square and path, king distances to the stop square).
#[inline]
fn passed_pawns<T: Terms>(
    pos: &Position,
    color: Color,
    passed: Bitboard,
    att: &Attacks,
    t: &mut T,
) {
    let occ = pos.occupied();
    let attacked = att.all[(!color).index()];
    let (own_king, their_king) = (pos.king(color), pos.king(!color));
    for sq in passed {
        let r = sq.rank().relative_to(color).index();
        let Some(stop) = Bitboard::from_square(sq).north_for(color).first() else {
            continue;
        };
        if occ.contains(stop) {
            t.add(PASSED_BLOCKED + r, color, 1);
        }
        let path = pawns::front_span(color, sq);
        if (path & occ).is_empty() {
            t.add(PASSED_FREE + r, color, 1);
        }
        if !attacked.contains(stop) {
            t.add(PASSED_SAFE_STOP + r, color, 1);
        }
        if (path & attacked).is_empty() {
            t.add(PASSED_SAFE_PATH + r, color, 1);
        }
        t.add(PASSED_OWN_KING + r, color, distance(own_king, stop));
        t.add(PASSED_THEIR_KING + r, color, distance(their_king, stop));
    }
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
    fn the_start_position_is_level_but_for_the_tempo() {
        let w = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let b = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(w, b);
        assert!((0..=40).contains(&w), "{w}");
    }

    #[test]
    fn mirrored_positions_evaluate_equally() {
        let a = eval("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = eval("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(a, b);
    }

    #[test]
    fn material_counts() {
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 500);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -500);
        // A bare minor piece cannot win: a draw.
        assert_eq!(eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"), 0);
        assert_eq!(eval("4k3/8/8/8/8/8/8/3BK3 b - - 0 1"), 0);
    }

    #[test]
    fn king_and_minor_terms_count_what_they_name() {
        // White king g1 with pawns f2 g2 h2; Black pawns g4 (storming) and
        // h7 (at home); a white knight on e2 and bishop on c1.
        let pos = Position::from_fen("4k3/7p/8/8/6p1/8/4NPPP/2B3K1 w - - 0 1").unwrap();
        let t = trace(&pos);
        // White's king files f, g, h: no black pawn on f (rank 1), g4 is
        // on White's fourth rank (index 3), h7 on White's seventh (6).
        // Black's king files d, e, f: no white pawn on d or e, f2 as Black
        // sees it is on the seventh rank.
        assert_eq!(t.coef[PAWN_STORM], 1 - 2);
        assert_eq!(t.coef[PAWN_STORM + 3], 1);
        assert_eq!(t.coef[PAWN_STORM + 6], 1 - 1);
        // Knight e2 is 2 from g1; bishop c1 is 4 from g1.
        assert_eq!(t.coef[KING_PROTECTOR], 2);
        assert_eq!(t.coef[KING_PROTECTOR + 1], 4);
        // c1 is a dark square, and so are f2 and h2 (g2 is light).
        assert_eq!(t.coef[BISHOP_PAWNS], 2);
    }

    #[test]
    fn threat_and_passed_pawn_safety_terms_count_what_they_name() {
        // White: king d4 next to Black's undefended pawn d5, knight e4
        // behind its pawn e5. Both pawns are passed.
        let pos = Position::from_fen("4k3/8/8/3pP3/3KN3/8/8/8 w - - 0 1").unwrap();
        let t = trace(&pos);
        assert_eq!(t.coef[THREAT_BY_KING], 1);
        assert_eq!(t.coef[MINOR_BEHIND_PAWN], 1);
        // e5 (White's fifth rank, index 4): stop square e6 is safe, but
        // the black king guards e7. d5 (Black's fourth rank, index 3):
        // stop square d4 holds the white king, which nothing of White's
        // attacks, and the king guards d3.
        assert_eq!(t.coef[PASSED_SAFE_STOP + 4], 1);
        assert_eq!(t.coef[PASSED_SAFE_STOP + 3], -1);
        assert_eq!(t.coef[PASSED_SAFE_PATH + 4], 0);
        assert_eq!(t.coef[PASSED_SAFE_PATH + 3], 0);
        // The knight attacks no black pawn.
        assert_eq!(t.coef[THREAT_BY_MINOR], 0);
        // A pawn is a rook's victim only while no pawn defends it.
        let pos = Position::from_fen("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
        assert_eq!(
            trace(&pos).coef[THREAT_BY_ROOK],
            1,
            "rook d1 on weak pawn d5"
        );
        let pos = Position::from_fen("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
        assert_eq!(trace(&pos).coef[THREAT_BY_ROOK], 0, "d5 defended by e6");
    }

    #[test]
    fn packed_sums_unpack_exactly() {
        for (mg, eg) in [
            (0, 0),
            (-5, 7),
            (7, -5),
            (-30_000, -1),
            (i32::MAX / 2, i32::MIN / 2),
        ] {
            let s = Scorer::new(mg, eg);
            assert_eq!((s.mg(), s.eg()), (mg, eg));
        }
        let mut s = Scorer::new(-3, 4);
        s.add(MATERIAL, Color::Black, 2);
        let w = WEIGHTS[MATERIAL];
        assert_eq!(
            (s.mg(), s.eg()),
            (-3 - 2 * i32::from(w.0), 4 - 2 * i32::from(w.1))
        );
    }

    #[test]
    fn the_packed_piece_table_adds_material_and_square() {
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in Square::ALL {
                    let (mut one, mut two) = (Scorer::new(3, -7), Scorer::new(3, -7));
                    one.piece(color, role, sq);
                    two.add(MATERIAL + role.index(), color, 1);
                    two.add(
                        PST + role.index() * 64 + sq.relative_to(color).index(),
                        color,
                        1,
                    );
                    assert_eq!(
                        (one.mg(), one.eg()),
                        (two.mg(), two.eg()),
                        "{color:?} {role:?} {sq:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_trace_reproduces_the_score() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let t = trace(&pos);
            let (mut mg, mut eg) = (0, 0);
            for (i, &c) in t.coef.iter().enumerate() {
                mg += c * i32::from(WEIGHTS[i].0);
                eg += c * i32::from(WEIGHTS[i].1);
            }
            assert_eq!(blend(&pos, mg, eg), eval(fen), "{fen}");
        }
    }
}
