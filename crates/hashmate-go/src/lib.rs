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
//!
//! Points are numbered `row × size + column` from the lower-left corner;
//! [`GoBoard::point`] converts coordinates. Protocol syntax (GTP vertices)
//! and move-choosing policies belong to front ends, not to this crate.
//!
//! ```
//! use hashmate_go::{GoBoard, IllegalMoveError, KoRule, Rules, Stone};
//!
//! // A ko on a 5×5 board under positional superko.
//! let mut b = GoBoard::new(5, Rules { ko: KoRule::PositionalSuperko, suicide: false })?;
//! let p = |col, row| b.point(col, row).expect("on the board");
//! let (b2, c2) = (p(1, 1), p(2, 1));
//! for (col, row) in [(1, 0), (0, 1), (1, 2)] {
//!     let q = b.point(col, row).expect("on the board");
//!     b.try_play(Stone::Black, q)?;
//! }
//! for (col, row) in [(2, 0), (3, 1), (2, 2), (1, 1)] {
//!     let q = b.point(col, row).expect("on the board");
//!     b.try_play(Stone::White, q)?;
//! }
//! b.try_play(Stone::Black, c2)?; // captures the white stone on B2
//! assert_eq!(b.at(b2), None);
//! // White may not retake at once: the board would repeat.
//! assert_eq!(b.check(Stone::White, b2), Err(IllegalMoveError::PositionalSuperko));
//! assert_eq!(b.key(), b.compute_key());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs, missing_debug_implementations)]
#![forbid(unsafe_code)]

use core::cell::RefCell;
use core::fmt;
use hashmate_hash::zobrist::Zobrist;
use std::collections::HashSet;

/// A player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stone {
    /// Black, who moves first.
    Black = 0,
    /// White.
    White = 1,
}

impl Stone {
    /// The other colour.
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

impl KoRule {
    /// Every rule, from the most permissive to the strictest.
    pub const ALL: [KoRule; 4] = [
        KoRule::None,
        KoRule::Simple,
        KoRule::PositionalSuperko,
        KoRule::SituationalSuperko,
    ];
}

/// Rules of play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Which repetitions are forbidden.
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
pub enum IllegalMoveError {
    /// The point is not on the board.
    OffBoard,
    /// A stone stands there.
    Occupied,
    /// The stone would have no liberty and capture nothing, and the rules
    /// forbid suicide.
    Suicide,
    /// Immediate recapture of a ko.
    Ko,
    /// The board would repeat an earlier board.
    PositionalSuperko,
    /// The board would repeat an earlier board with the same player to move.
    SituationalSuperko,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMoveError::OffBoard => "point is off the board",
            IllegalMoveError::Occupied => "point is occupied",
            IllegalMoveError::Suicide => "suicide is not allowed",
            IllegalMoveError::Ko => "illegal ko recapture",
            IllegalMoveError::PositionalSuperko => {
                "repeats an earlier position (positional superko)"
            }
            IllegalMoveError::SituationalSuperko => {
                "repeats an earlier position with the same player to move (situational superko)"
            }
        })
    }
}

impl std::error::Error for IllegalMoveError {}

/// Why a board could not be made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SizeError(pub usize);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board size must be 2 to 25, not {}", self.0)
    }
}

impl std::error::Error for SizeError {}

/// A Go position with its history.
#[derive(Clone)]
pub struct GoBoard {
    size: usize,
    cells: Vec<Option<Stone>>,
    to_move: Stone,
    rules: Rules,
    /// The key of each stone colour on each point, taken once from a seeded
    /// [`Zobrist`] table (so every index below is a point of this board).
    stone_keys: Vec<[u64; 2]>,
    /// XORed in for "White to move" by situational superko.
    white_to_move: u64,
    key: u64,
    /// A simple ko: the point just captured and the colour that may not
    /// retake there on its next move (the colour of the captured stone).
    ko: Option<(usize, Stone)>,
    seen: HashSet<u64>,
    seen_situational: HashSet<u64>,
    neighbours: Vec<[usize; 4]>,
    moves: usize,
    captures: [usize; 2],
    /// Scratch for group scans: a stamp per point and the current stamp,
    /// so a scan needs no allocation and no clearing.
    scratch: RefCell<(Vec<u32>, u32, Vec<usize>)>,
}

impl fmt::Debug for GoBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GoBoard")
            .field("size", &self.size)
            .field("to_move", &self.to_move)
            .field("rules", &self.rules)
            .field("key", &format_args!("{:016x}", self.key))
            .field("moves", &self.moves)
            .field("captures", &self.captures)
            .finish_non_exhaustive()
    }
}

const NONE: usize = usize::MAX;

/// The seed of the Go key table.
pub const GO_SEED: u64 = 0x676f_5f6b_6579_7321;

impl GoBoard {
    /// An empty `size`×`size` board, Black to move.
    ///
    /// # Errors
    /// [`SizeError`] unless `2 <= size <= 25`.
    pub fn new(size: usize, rules: Rules) -> Result<GoBoard, SizeError> {
        if !(2..=25).contains(&size) {
            return Err(SizeError(size));
        }
        let n = size * size;
        let zobrist: Zobrist<u64> = Zobrist::new(n, 2, 1, GO_SEED).map_err(|_| SizeError(size))?;
        let stone_keys = zobrist
            .keys()
            .chunks_exact(2)
            .map(|k| [k[0], k[1]])
            .collect();
        let white_to_move = zobrist.extra(0).map_err(|_| SizeError(size))?;
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
            stone_keys,
            white_to_move,
            key: 0,
            ko: None,
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

    /// Points per side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The player to move.
    pub fn to_move(&self) -> Stone {
        self.to_move
    }

    /// Set the player to move (a protocol may let either colour play).
    pub fn set_to_move(&mut self, s: Stone) {
        self.to_move = s;
    }

    /// Zobrist key of the stones on the board.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The stone on point `p`; `None` for an empty point or one off the
    /// board.
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

    /// The key of the stones computed from scratch, to check the
    /// incremental [`GoBoard::key`] (the name the chess crates use).
    pub fn compute_key(&self) -> u64 {
        self.cells
            .iter()
            .zip(&self.stone_keys)
            .filter_map(|(c, k)| c.map(|s| k[s as usize]))
            .fold(0, |a, b| a ^ b)
    }

    fn situational(&self, key: u64, next: Stone) -> u64 {
        if next == Stone::White {
            key ^ self.white_to_move
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
    fn consequences(
        &self,
        color: Stone,
        p: usize,
    ) -> Result<(u64, Vec<usize>, bool), IllegalMoveError> {
        if p >= self.cells.len() {
            return Err(IllegalMoveError::OffBoard);
        }
        if self.cells[p].is_some() {
            return Err(IllegalMoveError::Occupied);
        }
        let mut key = self.key ^ self.stone_keys[p][color as usize];
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
                            key ^= self.stone_keys[s][c as usize];
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
                return Err(IllegalMoveError::Suicide);
            }
            // The whole new group goes: the stone just placed and its
            // friends (each friendly group scanned once).
            key ^= self.stone_keys[p][color as usize];
            let mut removed: Vec<usize> = Vec::new();
            for &n in own_neighbours.iter().filter(|&&n| n != NONE) {
                if removed.contains(&n) {
                    continue;
                }
                self.has_liberty(n, p, &mut stones);
                for &s in &stones {
                    key ^= self.stone_keys[s][color as usize];
                }
                removed.extend_from_slice(&stones);
            }
        }
        self.scratch.borrow_mut().2 = stones;
        Ok((key, captured, suicide))
    }

    /// Is playing `color` at point `p` legal? `Err` says which rule it
    /// breaks.
    pub fn check(&self, color: Stone, p: usize) -> Result<(), IllegalMoveError> {
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
                if self.ko == Some((p, color)) {
                    Err(IllegalMoveError::Ko)
                } else {
                    Ok(())
                }
            }
            KoRule::PositionalSuperko => {
                if self.seen.contains(&key) {
                    Err(IllegalMoveError::PositionalSuperko)
                } else {
                    Ok(())
                }
            }
            KoRule::SituationalSuperko => {
                if self
                    .seen_situational
                    .contains(&self.situational(key, color.opponent()))
                {
                    Err(IllegalMoveError::SituationalSuperko)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Whether playing `color` at `p` is legal ([`GoBoard::check`] is `Ok`).
    pub fn is_legal(&self, color: Stone, p: usize) -> bool {
        self.check(color, p).is_ok()
    }

    /// Play `color` at `p`.
    ///
    /// # Errors
    /// [`IllegalMoveError`] naming the rule; the board is unchanged.
    pub fn try_play(&mut self, color: Stone, p: usize) -> Result<(), IllegalMoveError> {
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
        self.ko = None;
        if captured.len() == 1 && !suicide {
            let lone = self.neighbours[p]
                .iter()
                .all(|&n| n == NONE || self.cells[n] == Some(color.opponent()) || n == captured[0]);
            if lone {
                self.ko = Some((captured[0], color.opponent()));
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
        self.ko = None;
        self.to_move = self.to_move.opponent();
        self.moves += 1;
        self.record();
    }

    /// The area score (Tromp–Taylor, as under Chinese rules with every
    /// stone on the board taken as alive): for each colour, `[Black,
    /// White]`, its stones plus the empty points from which only its
    /// stones can be reached through empty points. Komi is the caller's
    /// to subtract.
    ///
    /// ```
    /// use hashmate_go::{GoBoard, Rules, Stone};
    /// let mut b = GoBoard::new(3, Rules::default())?;
    /// b.try_play(Stone::Black, b.point(1, 1).unwrap())?;
    /// assert_eq!(b.area_score(), [9, 0]);
    /// b.try_play(Stone::White, b.point(0, 0).unwrap())?;
    /// // Every empty point now touches both colours.
    /// assert_eq!(b.area_score(), [1, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn area_score(&self) -> [usize; 2] {
        let mut score = [0, 0];
        let mut region_of = vec![false; self.cells.len()];
        let mut region = Vec::new();
        for start in 0..self.cells.len() {
            match self.cells[start] {
                Some(s) => score[s as usize] += 1,
                None if region_of[start] => {}
                None => {
                    // Flood the empty region from here, noting which
                    // colours border it.
                    let mut borders = [false, false];
                    region.clear();
                    region.push(start);
                    region_of[start] = true;
                    let mut i = 0;
                    while i < region.len() {
                        let q = region[i];
                        i += 1;
                        for &n in self.neighbours[q].iter().filter(|&&n| n != NONE) {
                            match self.cells[n] {
                                Some(s) => borders[s as usize] = true,
                                None if !region_of[n] => {
                                    region_of[n] = true;
                                    region.push(n);
                                }
                                None => {}
                            }
                        }
                    }
                    if borders[0] != borders[1] {
                        score[usize::from(borders[1])] += region.len();
                    }
                }
            }
        }
        score
    }

    /// The point at column `col` (0 = the left edge) and row `row`
    /// (0 = the bottom edge); `None` off the board.
    pub fn point(&self, col: usize, row: usize) -> Option<usize> {
        (col < self.size && row < self.size).then_some(row * self.size + col)
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
mod tests;

/// The crate's README, compiled and run as a doctest so that its example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
