//! Go: stones, liberties, captures, ko and superko decided by Zobrist keys.
//!
//! The board keeps a Zobrist key of its stones (generic [`Zobrist`] table,
//! two states per point, one extra key for "White to move") and the set of
//! keys of every position of the game so far, in a hash set. A candidate
//! move's resulting key is computed without playing it: XOR in the new
//! stone, XOR out every enemy group whose last liberty it fills (and, where
//! suicide is allowed, its own group if that is left without liberties).
//! Positional superko then asks whether that key was seen; situational
//! superko asks the same of the key combined with the side to move next.
//! Both are one hash-set lookup whatever the length of the game; no board
//! is ever compared or replayed. Where suicide is allowed, suicides are
//! exempt from ko and superko, as in GNU Go.

use crate::rng::SplitMix64;
use crate::zobrist::Zobrist;
use core::cell::RefCell;
use core::fmt;
use std::collections::HashSet;

/// A player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stone {
    Black = 0,
    White = 1,
}

impl Stone {
    pub fn opponent(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }
}

/// Which repetitions are forbidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// No ko rule at all.
    None,
    /// Only the immediate recapture of a single-stone ko.
    Simple,
    /// No move may recreate an earlier board position.
    PositionalSuperko,
    /// No move may recreate an earlier board position with the same player
    /// to move.
    SituationalSuperko,
}

/// Rules of play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub ko: KoRule,
    /// Whether a move that leaves its own group without liberties (and
    /// captures nothing) is allowed; the group is then removed.
    pub suicide: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            ko: KoRule::PositionalSuperko,
            suicide: false,
        }
    }
}

/// Why a move is illegal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    OffBoard,
    Occupied,
    Suicide,
    /// Immediate recapture of a ko.
    Ko,
    PositionalSuperko,
    SituationalSuperko,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::OffBoard => "point is off the board",
            IllegalMove::Occupied => "point is occupied",
            IllegalMove::Suicide => "suicide is not allowed",
            IllegalMove::Ko => "illegal ko recapture",
            IllegalMove::PositionalSuperko => "repeats an earlier position (positional superko)",
            IllegalMove::SituationalSuperko => {
                "repeats an earlier position with the same player to move (situational superko)"
            }
        })
    }
}

impl std::error::Error for IllegalMove {}

/// Why a board could not be made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BadSize(pub usize);

impl fmt::Display for BadSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board size must be 2 to 25, not {}", self.0)
    }
}

impl std::error::Error for BadSize {}

/// A Go position with its history.
#[derive(Clone)]
pub struct GoBoard {
    size: usize,
    cells: Vec<Option<Stone>>,
    to_move: Stone,
    rules: Rules,
    zobrist: Zobrist<u64>,
    key: u64,
    ko_point: Option<usize>,
    seen: HashSet<u64>,
    seen_situational: HashSet<u64>,
    neighbours: Vec<[usize; 4]>,
    moves: usize,
    captures: [usize; 2],
    /// Scratch for group scans: a stamp per point and the current stamp,
    /// so a scan needs no allocation and no clearing.
    scratch: RefCell<(Vec<u32>, u32, Vec<usize>)>,
}

const NONE: usize = usize::MAX;

/// The seed of the Go key table.
pub const GO_SEED: u64 = 0x676f_5f6b_6579_7321;

impl GoBoard {
    /// An empty `size`×`size` board, Black to move.
    ///
    /// # Errors
    /// [`BadSize`] unless `2 <= size <= 25`.
    pub fn new(size: usize, rules: Rules) -> Result<GoBoard, BadSize> {
        if !(2..=25).contains(&size) {
            return Err(BadSize(size));
        }
        let n = size * size;
        let neighbours = (0..n)
            .map(|p| {
                let (r, c) = (p / size, p % size);
                [
                    if r + 1 < size { p + size } else { NONE },
                    if r > 0 { p - size } else { NONE },
                    if c + 1 < size { p + 1 } else { NONE },
                    if c > 0 { p - 1 } else { NONE },
                ]
            })
            .collect();
        let mut b = GoBoard {
            size,
            cells: vec![None; n],
            to_move: Stone::Black,
            rules,
            zobrist: Zobrist::new(n, 2, 1, GO_SEED),
            key: 0,
            ko_point: None,
            seen: HashSet::new(),
            seen_situational: HashSet::new(),
            neighbours,
            moves: 0,
            captures: [0, 0],
            scratch: RefCell::new((vec![0; n], 0, Vec::with_capacity(n))),
        };
        b.record();
        Ok(b)
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn to_move(&self) -> Stone {
        self.to_move
    }

    pub fn set_to_move(&mut self, s: Stone) {
        self.to_move = s;
    }

    /// Zobrist key of the stones on the board.
    pub fn key(&self) -> u64 {
        self.key
    }

    pub fn at(&self, p: usize) -> Option<Stone> {
        self.cells.get(p).copied().flatten()
    }

    /// Moves played (passes included).
    pub fn moves_played(&self) -> usize {
        self.moves
    }

    /// Stones captured by each colour.
    pub fn captures(&self, s: Stone) -> usize {
        self.captures[s as usize]
    }

    /// The key of the stones computed from scratch (tests).
    pub fn key_from_scratch(&self) -> u64 {
        let board: Vec<Option<usize>> = self.cells.iter().map(|c| c.map(|s| s as usize)).collect();
        self.zobrist.key_of_board(&board)
    }

    fn situational(&self, key: u64, next: Stone) -> u64 {
        if next == Stone::White {
            key ^ self.zobrist.extra(0)
        } else {
            key
        }
    }

    fn record(&mut self) {
        self.seen.insert(self.key);
        self.seen_situational
            .insert(self.situational(self.key, self.to_move));
    }

    /// Does the group at `p` have a liberty other than `ignore`? The scan
    /// stops at the first liberty; when there is none, `stones` holds the
    /// whole group.
    fn has_liberty(&self, p: usize, ignore: usize, stones: &mut Vec<usize>) -> bool {
        let mut scratch = self.scratch.borrow_mut();
        let (marks, stamp, _) = &mut *scratch;
        *stamp = stamp.wrapping_add(1);
        if *stamp == 0 {
            marks.fill(0);
            *stamp = 1;
        }
        let stamp = *stamp;
        let color = self.cells[p];
        stones.clear();
        stones.push(p);
        marks[p] = stamp;
        let mut i = 0;
        while i < stones.len() {
            let q = stones[i];
            i += 1;
            for &n in &self.neighbours[q] {
                if n == NONE || marks[n] == stamp {
                    continue;
                }
                match self.cells[n] {
                    None if n != ignore => return true,
                    None => {}
                    c if c == color => {
                        marks[n] = stamp;
                        stones.push(n);
                    }
                    _ => {}
                }
            }
        }
        false
    }

    /// What playing `color` at `p` would do: the new key, the captured
    /// stones and whether it is a suicide, without touching the board.
    fn consequences(&self, color: Stone, p: usize) -> Result<(u64, Vec<usize>, bool), IllegalMove> {
        if p >= self.cells.len() {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[p].is_some() {
            return Err(IllegalMove::Occupied);
        }
        let mut key = self.key;
        self.zobrist.place(&mut key, p, color as usize);
        let mut stones = core::mem::take(&mut self.scratch.borrow_mut().2);
        let mut captured = Vec::new();
        let mut own_liberty = false;
        let mut own_neighbours = [NONE; 4];
        for (i, &n) in self.neighbours[p].iter().enumerate() {
            if n == NONE {
                continue;
            }
            match self.cells[n] {
                None => own_liberty = true,
                Some(c) if c != color => {
                    if !captured.contains(&n) && !self.has_liberty(n, p, &mut stones) {
                        for &s in &stones {
                            self.zobrist.remove(&mut key, s, c as usize);
                        }
                        captured.extend_from_slice(&stones);
                    }
                }
                Some(_) => own_neighbours[i] = n,
            }
        }
        if !own_liberty && captured.is_empty() {
            own_liberty = own_neighbours
                .iter()
                .any(|&n| n != NONE && self.has_liberty(n, p, &mut stones));
        }
        let suicide = captured.is_empty() && !own_liberty;
        if suicide {
            if !self.rules.suicide {
                self.scratch.borrow_mut().2 = stones;
                return Err(IllegalMove::Suicide);
            }
            // The whole new group goes: the stone just placed and its
            // friends (each friendly group scanned once).
            self.zobrist.remove(&mut key, p, color as usize);
            let mut removed: Vec<usize> = Vec::new();
            for &n in own_neighbours.iter().filter(|&&n| n != NONE) {
                if removed.contains(&n) {
                    continue;
                }
                self.has_liberty(n, p, &mut stones);
                for &s in &stones {
                    self.zobrist.remove(&mut key, s, color as usize);
                }
                removed.extend_from_slice(&stones);
            }
        }
        self.scratch.borrow_mut().2 = stones;
        Ok((key, captured, suicide))
    }

    /// Is playing `color` at point `p` legal? `Err` says which rule it
    /// breaks.
    pub fn check(&self, color: Stone, p: usize) -> Result<(), IllegalMove> {
        let (key, _, suicide) = self.consequences(color, p)?;
        // Where suicide is allowed, GNU Go exempts suicides from the ko and
        // superko rules (a single-stone suicide, for one, leaves the board
        // as it was, like a pass); we follow it so that both programs agree
        // on every move.
        if suicide {
            return Ok(());
        }
        match self.rules.ko {
            KoRule::None => Ok(()),
            KoRule::Simple => {
                if self.ko_point == Some(p) && color == self.to_move {
                    Err(IllegalMove::Ko)
                } else {
                    Ok(())
                }
            }
            KoRule::PositionalSuperko => {
                if self.seen.contains(&key) {
                    Err(IllegalMove::PositionalSuperko)
                } else {
                    Ok(())
                }
            }
            KoRule::SituationalSuperko => {
                if self
                    .seen_situational
                    .contains(&self.situational(key, color.opponent()))
                {
                    Err(IllegalMove::SituationalSuperko)
                } else {
                    Ok(())
                }
            }
        }
    }

    pub fn is_legal(&self, color: Stone, p: usize) -> bool {
        self.check(color, p).is_ok()
    }

    /// Play `color` at `p`.
    ///
    /// # Errors
    /// [`IllegalMove`] naming the rule; the board is unchanged.
    pub fn play(&mut self, color: Stone, p: usize) -> Result<(), IllegalMove> {
        self.check(color, p)?;
        let (key, captured, suicide) = self.consequences(color, p)?;
        for &s in &captured {
            self.cells[s] = None;
        }
        self.captures[color as usize] += captured.len();
        if suicide {
            let mut stones = Vec::new();
            self.cells[p] = Some(color);
            self.has_liberty(p, NONE, &mut stones);
            for &s in &stones {
                self.cells[s] = None;
            }
            self.captures[color.opponent() as usize] += stones.len();
        } else {
            self.cells[p] = Some(color);
        }
        // A simple ko arises when one stone captured exactly one stone and
        // now stands alone with that point as its only liberty.
        self.ko_point = None;
        if captured.len() == 1 && !suicide {
            let lone = self.neighbours[p]
                .iter()
                .all(|&n| n == NONE || self.cells[n] == Some(color.opponent()) || n == captured[0]);
            if lone {
                self.ko_point = Some(captured[0]);
            }
        }
        self.key = key;
        self.to_move = color.opponent();
        self.moves += 1;
        self.record();
        Ok(())
    }

    /// Pass: the turn changes, the board does not.
    pub fn pass(&mut self) {
        self.ko_point = None;
        self.to_move = self.to_move.opponent();
        self.moves += 1;
        self.record();
    }

    /// Is `p` an eye of `color`: every orthogonal neighbour is `color`, and
    /// the diagonals are not held by the opponent (at most one in the
    /// centre, none on the edge).
    pub fn is_eye(&self, color: Stone, p: usize) -> bool {
        if self.cells[p].is_some() {
            return false;
        }
        if self.neighbours[p]
            .iter()
            .any(|&n| n != NONE && self.cells[n] != Some(color))
        {
            return false;
        }
        let (r, c) = ((p / self.size) as i32, (p % self.size) as i32);
        let mut enemy = 0;
        let mut off = 0;
        for (dr, dc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let (rr, cc) = (r + dr, c + dc);
            if rr < 0 || cc < 0 || rr >= self.size as i32 || cc >= self.size as i32 {
                off += 1;
            } else if self.cells[(rr * self.size as i32 + cc) as usize] == Some(color.opponent()) {
                enemy += 1;
            }
        }
        if off > 0 {
            enemy == 0
        } else {
            enemy <= 1
        }
    }

    /// A random legal move for `color` that does not fill its own eye, or
    /// `None` (pass).
    pub fn random_move(&self, color: Stone, rng: &mut SplitMix64) -> Option<usize> {
        let n = self.cells.len();
        let start = rng.below(n as u64) as usize;
        (0..n)
            .map(|i| (start + i) % n)
            .find(|&p| self.cells[p].is_none() && !self.is_eye(color, p) && self.is_legal(color, p))
    }

    /// The point at column `col` (0 = A) and row `row` (0 = bottom).
    pub fn point(&self, col: usize, row: usize) -> Option<usize> {
        (col < self.size && row < self.size).then_some(row * self.size + col)
    }

    /// GTP vertex of a point (`A1`; the letter I is skipped).
    pub fn vertex(&self, p: usize) -> String {
        let col = p % self.size;
        let letter = (b'A' + col as u8 + u8::from(col >= 8)) as char;
        format!("{letter}{}", p / self.size + 1)
    }

    /// Parse a GTP vertex (case-insensitive; `None` for "pass").
    ///
    /// # Errors
    /// A message when the text is not a vertex on this board.
    pub fn parse_vertex(&self, s: &str) -> Result<Option<usize>, String> {
        let t = s.trim().to_ascii_uppercase();
        if t == "PASS" {
            return Ok(None);
        }
        let mut chars = t.chars();
        let letter = chars.next().ok_or("empty vertex")?;
        if !letter.is_ascii_uppercase() || letter == 'I' {
            return Err(format!("invalid vertex '{s}'"));
        }
        let col = (letter as u8 - b'A') as usize - usize::from(letter > 'I');
        let row: usize = chars
            .as_str()
            .parse()
            .map_err(|_| format!("invalid vertex '{s}'"))?;
        if row == 0 {
            return Err(format!("invalid vertex '{s}'"));
        }
        self.point(col, row - 1)
            .map(Some)
            .ok_or_else(|| format!("vertex '{s}' is off the board"))
    }
}

impl fmt::Display for GoBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: String = (0..self.size)
            .map(|c| format!(" {}", (b'A' + c as u8 + u8::from(c >= 8)) as char))
            .collect();
        writeln!(f, "  {letters}")?;
        for r in (0..self.size).rev() {
            write!(f, "{:2}", r + 1)?;
            for c in 0..self.size {
                let ch = match self.cells[r * self.size + c] {
                    Some(Stone::Black) => 'X',
                    Some(Stone::White) => 'O',
                    None => '.',
                };
                write!(f, " {ch}")?;
            }
            writeln!(f, " {}", r + 1)?;
        }
        write!(f, "  {letters}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(size: usize, ko: KoRule) -> GoBoard {
        GoBoard::new(size, Rules { ko, suicide: false }).unwrap()
    }

    fn play(b: &mut GoBoard, moves: &[&str]) {
        for m in moves {
            let color = b.to_move();
            match b.parse_vertex(m).unwrap() {
                Some(p) => b.play(color, p).unwrap_or_else(|e| panic!("{m}: {e}")),
                None => b.pass(),
            }
        }
    }

    #[test]
    fn captures_and_keys() {
        let mut b = board(5, KoRule::Simple);
        play(&mut b, &["B2", "A2", "C1", "B1", "A1"]);
        // Black's A1 captures nothing: White B1? B1 has liberties? B1 is
        // surrounded by A1 (black), C1 (black), B2 (black): captured.
        assert_eq!(b.at(b.parse_vertex("B1").unwrap().unwrap()), None);
        assert_eq!(b.captures(Stone::Black), 1);
        assert_eq!(b.key(), b.key_from_scratch());
    }

    #[test]
    fn simple_ko_and_superko() {
        // A ko on a 4x4 board: Black takes at B2... use a classic shape.
        let mut b = board(5, KoRule::Simple);
        play(
            &mut b,
            &["B1", "C1", "A2", "D2", "B3", "C3", "pass", "B2", "C2"],
        );
        // Black C2 captured White B2; White may not retake at B2 at once.
        let b2 = b.parse_vertex("B2").unwrap().unwrap();
        assert_eq!(b.check(Stone::White, b2), Err(IllegalMove::Ko));
        play(&mut b, &["E5", "E4"]);
        assert!(
            b.is_legal(Stone::White, b2),
            "after a ko threat exchange the ko may be retaken"
        );
        let mut p = board(5, KoRule::PositionalSuperko);
        play(
            &mut p,
            &["B1", "C1", "A2", "D2", "B3", "C3", "pass", "B2", "C2"],
        );
        assert_eq!(
            p.check(Stone::White, b2),
            Err(IllegalMove::PositionalSuperko)
        );
    }

    /// Three kos side by side on a 13×13 board (rows 1–3, 5–7, 9–11).
    /// Each is the shape: Black B1 A2 B3, White C1 D2 C3, plus either a
    /// White stone on B2 (Black may take at C2) or a Black stone on C2
    /// (White may take at B2).
    fn triple_ko(ko: KoRule) -> (GoBoard, [usize; 3], [usize; 3]) {
        let mut b = board(13, ko);
        let at = |b: &GoBoard, col: usize, row: usize| b.point(col, row).unwrap();
        let mut b2 = [0; 3];
        let mut c2 = [0; 3];
        for (i, o) in [0usize, 4, 8].into_iter().enumerate() {
            for (c, r) in [(1, 0), (0, 1), (1, 2)] {
                let p = at(&b, c, o + r);
                b.play(Stone::Black, p).unwrap();
            }
            for (c, r) in [(2, 0), (3, 1), (2, 2)] {
                let p = at(&b, c, o + r);
                b.play(Stone::White, p).unwrap();
            }
            b2[i] = at(&b, 1, o + 1);
            c2[i] = at(&b, 2, o + 1);
        }
        // Start: kos 1 and 3 hold a White stone, ko 2 a Black stone.
        b.play(Stone::White, b2[0]).unwrap();
        b.play(Stone::Black, c2[1]).unwrap();
        b.play(Stone::White, b2[2]).unwrap();
        b.set_to_move(Stone::Black);
        (b, b2, c2)
    }

    #[test]
    fn triple_ko_cycle() {
        // B takes ko 1, W ko 2, B ko 3, W ko 1, B ko 2, W ko 3: the sixth
        // capture recreates the start with Black to move.
        for ko in [
            KoRule::Simple,
            KoRule::PositionalSuperko,
            KoRule::SituationalSuperko,
        ] {
            let (mut b, b2, c2) = triple_ko(ko);
            let start = b.key();
            let cycle = [
                (Stone::Black, c2[0]),
                (Stone::White, b2[1]),
                (Stone::Black, c2[2]),
                (Stone::White, b2[0]),
                (Stone::Black, c2[1]),
            ];
            for (c, p) in cycle {
                b.play(c, p).unwrap_or_else(|e| panic!("{ko:?}: {e}"));
            }
            let last = b.check(Stone::White, b2[2]);
            match ko {
                // Not an immediate recapture: simple ko allows the cycle.
                KoRule::Simple => {
                    b.play(Stone::White, b2[2]).unwrap();
                    assert_eq!(b.key(), start);
                }
                KoRule::PositionalSuperko => assert_eq!(last, Err(IllegalMove::PositionalSuperko)),
                _ => assert_eq!(last, Err(IllegalMove::SituationalSuperko)),
            }
        }
    }

    /// Plays `moves` (Black first) under `ko` and returns the verdict on
    /// the last one.
    fn last_move_verdict(size: usize, ko: KoRule, moves: &str) -> Result<(), IllegalMove> {
        let mut b = board(size, ko);
        let list: Vec<&str> = moves.split(' ').collect();
        let (last, prefix) = list.split_last().unwrap();
        play(&mut b, prefix);
        let p = b.parse_vertex(last).unwrap().unwrap();
        let verdict = b.check(b.to_move(), p);
        if verdict.is_ok() {
            b.play(b.to_move(), p).unwrap();
            assert_eq!(b.key(), b.key_from_scratch());
        }
        verdict
    }

    /// Sending two, returning one (found by searching random 4×4 games for
    /// three-move cycles with captures 0, 2, 1): Black throws in (D4),
    /// White captures two (D2), Black retakes one (D3) and the board is as
    /// three moves earlier — with the other player to move. Simple ko does
    /// not apply (the retake captures one stone that had captured two);
    /// positional superko forbids it; situational superko allows it, since
    /// that board was seen only with Black to move.
    #[test]
    fn sending_two_returning_one() {
        let moves = "D1 D2 A3 A2 D4 B4 C2 B2 B1 B3 C1 C3 D3 A4 C4 D2 D3 C4 D4 D2 D3";
        assert_eq!(last_move_verdict(4, KoRule::None, moves), Ok(()));
        assert_eq!(last_move_verdict(4, KoRule::Simple, moves), Ok(()));
        assert_eq!(
            last_move_verdict(4, KoRule::PositionalSuperko, moves),
            Err(IllegalMove::PositionalSuperko)
        );
        assert_eq!(
            last_move_verdict(4, KoRule::SituationalSuperko, moves),
            Ok(())
        );
    }

    /// A four-move cycle of mutual two-stone captures, the eternal-life
    /// pattern (found by searching random 4×4 games for four-move cycles
    /// with no single-stone capture): each side throws in and captures
    /// two. No move is a ko recapture, so simple ko allows the cycle
    /// forever; both superko rules stop it at the repetition.
    #[test]
    fn mutual_two_stone_capture_cycle() {
        let moves = "D2 B4 D1 C3 C4 D3 A4 A2 B2 C2 B1 D4 A3 B3 A4 A1 A3 A2";
        assert_eq!(last_move_verdict(4, KoRule::Simple, moves), Ok(()));
        assert_eq!(
            last_move_verdict(4, KoRule::PositionalSuperko, moves),
            Err(IllegalMove::PositionalSuperko)
        );
        assert_eq!(
            last_move_verdict(4, KoRule::SituationalSuperko, moves),
            Err(IllegalMove::SituationalSuperko)
        );
    }

    #[test]
    fn suicide_rules() {
        let mut b = board(3, KoRule::Simple);
        play(&mut b, &["B1", "pass", "A2"]);
        let a1 = b.parse_vertex("A1").unwrap().unwrap();
        assert_eq!(b.check(Stone::White, a1), Err(IllegalMove::Suicide));
        let mut s = GoBoard::new(
            3,
            Rules {
                ko: KoRule::Simple,
                suicide: true,
            },
        )
        .unwrap();
        play(&mut s, &["B1", "pass", "A2"]);
        s.play(Stone::White, a1).unwrap();
        assert_eq!(s.at(a1), None);
        assert_eq!(s.key(), s.key_from_scratch());
    }

    #[test]
    fn vertices() {
        let b = board(19, KoRule::Simple);
        assert_eq!(b.vertex(b.parse_vertex("J10").unwrap().unwrap()), "J10");
        assert_eq!(b.parse_vertex("pass"), Ok(None));
        for bad in ["I5", "Z1", "A0", "A20", "", "11", "A-1"] {
            assert!(b.parse_vertex(bad).is_err(), "{bad}");
        }
        assert_eq!(GoBoard::new(1, Rules::default()).err(), Some(BadSize(1)));
        assert_eq!(GoBoard::new(26, Rules::default()).err(), Some(BadSize(26)));
    }

    #[test]
    fn random_games_keep_keys_exact() {
        let mut rng = SplitMix64::new(3);
        for ko in [
            KoRule::Simple,
            KoRule::PositionalSuperko,
            KoRule::SituationalSuperko,
        ] {
            let mut b = board(9, ko);
            for _ in 0..300 {
                let c = b.to_move();
                match b.random_move(c, &mut rng) {
                    Some(p) => b.play(c, p).unwrap(),
                    None => b.pass(),
                }
                assert_eq!(b.key(), b.key_from_scratch());
            }
        }
    }
}
