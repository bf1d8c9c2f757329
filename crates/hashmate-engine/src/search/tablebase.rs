//! Syzygy endgame tablebases in the search.
//!
//! * **In the tree**: a node reached by a capture or a pawn move (its
//!   fifty-move counter at zero, so that the table's result holds from
//!   there) with few enough pieces and no castling rights is looked up in
//!   the WDL tables. A win scores [`TB_WIN`] less the ply (a loss the
//!   negation), a draw 0; with the fifty-move rule on, a cursed win or a
//!   blessed loss is a draw (±2, a hint of which side presses). A result
//!   that decides the node (exact, or a bound beyond the window) ends it
//!   and is stored in the table.
//! * **At the root**: when the root is in the tables, each move is ranked
//!   by the DTZ of the position it leads to, and only the best-ranked are
//!   searched: every move that keeps a win within the fifty-move rule ranks
//!   first (the search then chooses among them), so a won position is
//!   converted — a move that lets the counter run out ranks below — and a
//!   drawn one is not lost. A move to a position that the rules draw
//!   there and then (its third occurrence, or the fifty-move counter at
//!   100) ranks as a draw, whatever the tables say, so that a lost root
//!   keeps the repetition that saves it. Without DTZ tables the WDL tables
//!   rank them.

use super::{MATE_BOUND, MAX_PLY};
use hashmate::{Move, Position, Role};
use hashmate_syzygy::Tablebase;
use std::sync::Arc;

/// Score of a tablebase win at the root: below every mate score, above
/// every evaluation. A win `n` plies down scores `TB_WIN - n`.
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;

/// The tables and how the search uses them (the UCI options `SyzygyPath`,
/// `SyzygyProbeDepth`, `SyzygyProbeLimit`, `Syzygy50MoveRule`).
#[derive(Debug)]
pub struct TbConfig {
    /// The tables.
    pub tables: Arc<Tablebase>,
    /// Probe nodes of this many plies of depth at least, where the piece
    /// count is at the limit (below it, every depth).
    pub probe_depth: i32,
    /// Probe positions of at most this many pieces (and no more than the
    /// tables hold).
    pub probe_limit: u32,
    /// Count cursed wins and blessed losses as draws, as the game's rules
    /// do.
    pub rule50: bool,
}

impl TbConfig {
    /// The most pieces probed.
    pub fn limit(&self) -> u32 {
        self.probe_limit.min(self.tables.max_pieces())
    }

    /// The score and bound of a WDL result found `ply` plies down:
    /// `Some(true)` a lower bound (a win), `Some(false)` an upper one (a
    /// loss), `None` exact.
    pub fn score(&self, wdl: i32, ply: usize) -> (i32, Option<bool>) {
        let draw = i32::from(self.rule50);
        if wdl < -draw {
            (-TB_WIN + ply as i32, Some(false))
        } else if wdl > draw {
            (TB_WIN - ply as i32, Some(true))
        } else {
            (2 * wdl * draw, None)
        }
    }
}

/// Highest rank of a root move (a win within the fifty-move rule).
const TOP: i32 = 1000;

/// The root moves that keep the best result the tables give, best first
/// in rank; `None` when the root is not in the tables (too many pieces,
/// castling rights, a table missing or unusable: then every move is
/// searched). `keys`: the game's repetition keys
/// ([`Position::repetition_key`]), the root's last. Once a position has
/// repeated since the last capture or pawn move
/// ([`repetition_since_zeroing`]) the win must make progress at every
/// move, so only the quickest by DTZ are kept.
pub fn root_moves(cfg: &TbConfig, pos: &Position, keys: &[u64]) -> Option<Vec<Move>> {
    if pos.occupied().count() > cfg.limit() || !pos.castling().is_empty() {
        return None;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let root = Root { pos, keys };
    let ranked = ranks_by_dtz(cfg, &root, &moves).or_else(|| ranks_by_wdl(cfg, &root, &moves))?;
    let best = ranked.iter().map(|&(_, r)| r).max()?;
    Some(
        ranked
            .into_iter()
            .filter(|&(_, r)| r == best)
            .map(|(m, _)| m)
            .collect(),
    )
}

/// Whether any position occurred twice among the last `clock + 1` of
/// `keys` (the game's positions since its last capture or pawn move, the
/// root last). Once one has, the root ranks winning moves by DTZ alone, so
/// that the win makes progress the opponent cannot turn into a threefold
/// repetition: every position of a DTZ-optimal line is new.
pub fn repetition_since_zeroing(keys: &[u64], clock: u32) -> bool {
    let window = &keys[keys.len().saturating_sub(clock as usize + 1)..];
    window
        .iter()
        .enumerate()
        .any(|(i, k)| window[i + 1..].contains(k))
}

/// The root and the game that led to it.
struct Root<'a> {
    pos: &'a Position,
    /// Repetition keys, the root's last.
    keys: &'a [u64],
}

impl Root<'_> {
    /// Whether the rules draw `child`, the position after a root move that
    /// does not zero the counter, as soon as it stands on the board: its
    /// third occurrence since the last capture or pawn move, or the
    /// fifty-move counter at 100 without mate.
    fn draws_by_rule(&self, child: &Position) -> bool {
        let clock = child.halfmove_clock() as usize;
        let since = &self.keys[self.keys.len().saturating_sub(clock)..];
        let key = child.repetition_key();
        since.iter().filter(|&&k| k == key).count() >= 2
            || (clock >= 100 && !(child.is_check() && child.legal_moves().is_empty()))
    }
}

/// Whether `mv` zeroes the fifty-move counter.
fn zeroing(pos: &Position, mv: Move) -> bool {
    pos.is_capture(mv)
        || pos
            .pieces(pos.side_to_move(), Role::Pawn)
            .contains(mv.from())
}

/// Each move's rank by DTZ, as the Syzygy root ranking does: all wins
/// within the fifty-move rule alike, then slower wins, draws, losses that
/// the rule may still save, and losses.
fn ranks_by_dtz(cfg: &TbConfig, root: &Root, moves: &[Move]) -> Option<Vec<(Move, i32)>> {
    let pos = root.pos;
    let repeated = repetition_since_zeroing(root.keys, pos.halfmove_clock());
    let clock = pos.halfmove_clock() as i32;
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        // The DTZ of the move counted from the root, in plies.
        let dtz = if zeroing(pos, mv) {
            match -cfg.tables.wdl(&child).ok()?.to_i32() {
                2 => 1,
                1 => 101,
                -1 => -101,
                -2 => -1,
                _ => 0,
            }
        } else if root.draws_by_rule(&child) {
            0
        } else {
            let d = -cfg.tables.dtz(&child).ok()?;
            if child.legal_moves().is_empty() && child.is_check() {
                1
            } else if d > 0 {
                d + 1
            } else if d < 0 {
                d - 1
            } else {
                0
            }
        };
        let r = if !cfg.rule50 {
            dtz.signum() * TOP
        } else if dtz > 0 {
            if dtz + clock <= 99 && !repeated {
                TOP
            } else {
                TOP - (dtz + clock)
            }
        } else if dtz < 0 {
            if -dtz * 2 + clock < 100 {
                -TOP
            } else {
                -TOP + (-dtz + clock)
            }
        } else {
            0
        };
        out.push((mv, r));
    }
    Some(out)
}

/// Each move's rank by WDL alone (no DTZ tables): wins, then cursed wins,
/// draws, blessed losses, losses (the two middle ones as draws when the
/// fifty-move rule counts).
fn ranks_by_wdl(cfg: &TbConfig, root: &Root, moves: &[Move]) -> Option<Vec<(Move, i32)>> {
    let pos = root.pos;
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        let wdl = if !zeroing(pos, mv) && root.draws_by_rule(&child) {
            0
        } else {
            -cfg.tables.wdl(&child).ok()?.to_i32()
        };
        let r = if cfg.rule50 && wdl.abs() == 1 { 0 } else { wdl };
        out.push((mv, r));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{repetition_since_zeroing, Root};
    use hashmate::Position;

    /// The repetition keys of the game from `fen` through `moves`, and the
    /// position at its end.
    fn game(fen: &str, moves: &[&str]) -> (Vec<u64>, Position) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut keys = vec![pos.repetition_key()];
        for m in moves {
            pos.try_play(pos.parse_uci(m).unwrap()).unwrap();
            keys.push(pos.repetition_key());
        }
        (keys, pos)
    }

    /// `pos` after `m`.
    fn after(pos: &Position, m: &str) -> Position {
        let mut child = pos.clone();
        child.try_play(pos.parse_uci(m).unwrap()).unwrap();
        child
    }

    #[test]
    fn a_third_occurrence_or_the_hundredth_ply_draws_a_root_move() {
        let shuffle = ["e4e1", "h8g7", "e1e4", "g7h8", "e4e1", "h8g7", "e1e4"];
        let (keys, pos) = game("7k/8/8/8/3KR3/8/8/8 w - - 0 1", &shuffle);
        let root = Root {
            pos: &pos,
            keys: &keys,
        };
        // Kh8: the third time of its position; Kg8: the first.
        assert!(root.draws_by_rule(&after(&pos, "g7h8")));
        assert!(!root.draws_by_rule(&after(&pos, "g7g8")));
        // One shuffle fewer: Kh8 makes the second occurrence only.
        let (keys, pos) = game("7k/8/8/8/3KR3/8/8/8 w - - 0 1", &shuffle[4..]);
        let root = Root {
            pos: &pos,
            keys: &keys,
        };
        assert!(!root.draws_by_rule(&after(&pos, "g7h8")));
        // The fifty-move rule: the hundredth ply draws, unless it mates.
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 99 80").unwrap();
        let keys = [pos.repetition_key()];
        let root = Root {
            pos: &pos,
            keys: &keys,
        };
        assert!(root.draws_by_rule(&after(&pos, "a1b1")));
        assert!(!root.draws_by_rule(&after(&pos, "a1a8")));
    }

    #[test]
    fn repetitions_count_only_since_the_last_zeroing_move() {
        // Keys of a game: 1 2 3 1 4 (1 repeats), the root last.
        let keys = [1, 2, 3, 1, 4];
        assert!(repetition_since_zeroing(&keys, 4));
        assert!(repetition_since_zeroing(&keys, 10));
        // A capture or pawn move two plies ago: only 3 1 4 count.
        assert!(!repetition_since_zeroing(&keys, 2));
        assert!(!repetition_since_zeroing(&[5, 6, 7], 2));
        assert!(!repetition_since_zeroing(&[], 0));
    }
}
