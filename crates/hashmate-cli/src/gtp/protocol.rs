//! The Go Text Protocol (GTP, version 2) over a [`GoBoard`]: each input
//! line becomes one reply ([`Gtp::respond`]), so a front end only reads
//! lines and prints replies. `genmove` plays a random legal move that does
//! not fill its own eye, and passes when none is left; `undo` takes back
//! the last of up to [`UNDO_DEPTH`] moves, and `final_score` counts the
//! area (Tromp–Taylor) less komi. Vertices (`A1`, the
//! letter I skipped) and the move policy belong to this front end, not to
//! the board crate.
//!
//! ```
//! use hashmate_cli::gtp::{Gtp, Reply};
//! use hashmate_go::{KoRule, Rules};
//!
//! let rules = Rules { ko: KoRule::PositionalSuperko, suicide: false };
//! let mut gtp = Gtp::new(rules, 1).unwrap();
//! assert_eq!(gtp.respond("1 boardsize 9"), Reply::Answer("=1\n".into()));
//! assert_eq!(gtp.respond("play b E5"), Reply::Answer("=\n".into()));
//! assert_eq!(
//!     gtp.respond("play w E5"),
//!     Reply::Answer("? illegal move: point is occupied\n".into())
//! );
//! ```

use hashmate_go::{GoBoard, Rules, Stone};
use hashmate_hash::rng::SplitMix64;
use std::collections::VecDeque;

/// How many moves `undo` can take back: the older ones are folded into
/// the board it replays from, so that a session's memory stays bounded
/// however long it plays (GNU Go keeps 500).
pub const UNDO_DEPTH: usize = 10_000;

/// The commands this engine knows (`list_commands`).
pub const COMMANDS: [&str; 16] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "is_legal",
    "genmove",
    "showboard",
    "quit",
    "captures",
    "undo",
    "final_score",
];

fn color(s: &str) -> Result<Stone, String> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Stone::Black),
        "w" | "white" => Ok(Stone::White),
        _ => Err(format!("invalid color '{s}'")),
    }
}

/// GTP vertex of point `p` of a `size`×`size` board (`A1`; I is skipped).
pub fn vertex(size: usize, p: usize) -> String {
    let col = p % size;
    let letter = (b'A' + col as u8 + u8::from(col >= 8)) as char;
    format!("{letter}{}", p / size + 1)
}

/// Why a GTP vertex was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Nothing where a vertex was expected.
    Empty,
    /// Not a letter (I skipped) and a row number: the text, cut to 12
    /// characters.
    Syntax(String),
    /// A vertex beyond this board's size.
    OffBoard(String),
}

impl std::fmt::Display for VertexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VertexError::Empty => write!(f, "empty vertex"),
            VertexError::Syntax(t) => write!(f, "invalid vertex '{t}'"),
            VertexError::OffBoard(t) => write!(f, "vertex '{t}' is off the board"),
        }
    }
}

impl std::error::Error for VertexError {}

/// Parse a GTP vertex (case-insensitive; `None` for "pass").
///
/// # Errors
/// [`VertexError`] when the text is not a vertex on this board.
pub fn parse_vertex(board: &GoBoard, s: &str) -> Result<Option<usize>, VertexError> {
    let t = s.trim().to_ascii_uppercase();
    if t == "PASS" {
        return Ok(None);
    }
    let bad = || VertexError::Syntax(s.chars().take(12).collect());
    let mut chars = t.chars();
    let letter = chars.next().ok_or(VertexError::Empty)?;
    if !letter.is_ascii_uppercase() || letter == 'I' {
        return Err(bad());
    }
    let col = (letter as u8 - b'A') as usize - usize::from(letter > 'I');
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
        return Err(bad());
    }
    let row: usize = digits.parse().map_err(|_| bad())?;
    if row == 0 {
        return Err(bad());
    }
    board
        .point(col, row - 1)
        .map(Some)
        .ok_or(VertexError::OffBoard(t))
}

/// Is `p` an eye of `color`: every orthogonal neighbour is `color`, and
/// the diagonals are not held by the opponent (at most one in the centre,
/// none on the edge)? The random policy never fills its own eyes.
pub fn is_eye(board: &GoBoard, color: Stone, p: usize) -> bool {
    let n = board.size() as i32;
    let (r, c) = ((p as i32) / n, (p as i32) % n);
    if board.at(p).is_some() {
        return false;
    }
    let at = |rr: i32, cc: i32| board.at((rr * n + cc) as usize);
    let on = |rr: i32, cc: i32| rr >= 0 && cc >= 0 && rr < n && cc < n;
    for (dr, dc) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        if on(r + dr, c + dc) && at(r + dr, c + dc) != Some(color) {
            return false;
        }
    }
    let (mut enemy, mut off) = (0, 0);
    for (dr, dc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        if !on(r + dr, c + dc) {
            off += 1;
        } else if at(r + dr, c + dc) == Some(color.opponent()) {
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
pub fn random_move(board: &GoBoard, color: Stone, rng: &mut SplitMix64) -> Option<usize> {
    let n = board.size() * board.size();
    let start = rng.below(n as u64) as usize;
    (0..n)
        .map(|i| (start + i) % n)
        .find(|&p| board.at(p).is_none() && !is_eye(board, color, p) && board.is_legal(color, p))
}

/// A GTP engine's state: the board, its rules, komi and the random policy.
#[derive(Debug)]
pub struct Gtp {
    board: GoBoard,
    /// The board `undo` replays [`Gtp::played`] from.
    base: GoBoard,
    /// The moves since `base` (a pass is `None`), the last
    /// [`UNDO_DEPTH`] at most.
    played: VecDeque<(Stone, Option<usize>)>,
    rules: Rules,
    komi: f64,
    rng: SplitMix64,
}

/// What a GTP line asks of the caller.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// Print this (a complete response, blank line included).
    Answer(String),
    /// Print this and stop (`quit`).
    Quit(String),
    /// Nothing (a blank or comment line).
    Nothing,
}

impl Gtp {
    /// A 19×19 board under `rules`, the random policy seeded with `seed`.
    pub fn new(rules: Rules, seed: u64) -> Option<Gtp> {
        let board = GoBoard::new(19, rules).ok()?;
        Some(Gtp {
            base: board.clone(),
            board,
            played: VecDeque::new(),
            rules,
            komi: 7.5,
            rng: SplitMix64::new(seed),
        })
    }

    /// Answer one line of GTP.
    pub fn respond(&mut self, line: &str) -> Reply {
        let Some((id, cmd, rest)) = parse_line(line) else {
            return Reply::Nothing;
        };
        let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
        let id = id.unwrap_or_default();
        match self.command(&cmd, &rest) {
            Ok(Some(r)) => {
                Reply::Answer(format!("={id}{}{r}\n", if r.is_empty() { "" } else { " " }))
            }
            Ok(None) => Reply::Quit(format!("={id}\n")),
            Err(e) => Reply::Answer(format!("?{id} {e}\n")),
        }
    }

    /// Run one command; `Ok(None)` means quit.
    fn command(&mut self, cmd: &str, args: &[&str]) -> Result<Option<String>, String> {
        let arg = |i: usize| {
            args.get(i)
                .copied()
                .ok_or_else(|| "syntax error".to_string())
        };
        Ok(Some(match cmd {
            "protocol_version" => "2".into(),
            "name" => "hashmate".into(),
            "version" => env!("CARGO_PKG_VERSION").into(),
            "known_command" => COMMANDS.contains(&arg(0)?).to_string(),
            "list_commands" => COMMANDS.join("\n"),
            "quit" => return Ok(None),
            "boardsize" => {
                let n: usize = arg(0)?.parse().map_err(|_| "syntax error".to_string())?;
                let board =
                    GoBoard::new(n, self.rules).map_err(|_| "unacceptable size".to_string())?;
                self.start(board);
                String::new()
            }
            "clear_board" => {
                // The current size is valid, so a new board of it is too.
                let board = GoBoard::new(self.board.size(), self.rules)
                    .map_err(|_| "unacceptable size".to_string())?;
                self.start(board);
                String::new()
            }
            "komi" => {
                let komi: f64 = arg(0)?.parse().map_err(|_| "syntax error".to_string())?;
                if !komi.is_finite() {
                    return Err("syntax error: komi must be a finite number".into());
                }
                self.komi = komi;
                String::new()
            }
            "play" => {
                let c = color(arg(0)?)?;
                let p = parse_vertex(&self.board, arg(1)?).map_err(|e| e.to_string())?;
                self.play(c, p).map_err(|e| format!("illegal move: {e}"))?;
                String::new()
            }
            "is_legal" => {
                let c = color(arg(0)?)?;
                match parse_vertex(&self.board, arg(1)?).map_err(|e| e.to_string())? {
                    None => "1".into(),
                    Some(p) => {
                        // Rules that depend on the side to move see `c` to move.
                        let mut b = self.board.clone();
                        b.set_to_move(c);
                        if b.is_legal(c, p) { "1" } else { "0" }.into()
                    }
                }
            }
            "genmove" => {
                let c = color(arg(0)?)?;
                let p = random_move(&self.board, c, &mut self.rng);
                self.play(c, p).map_err(|e| e.to_string())?;
                p.map_or_else(|| "pass".into(), |p| vertex(self.board.size(), p))
            }
            "undo" => {
                let Some(kept) = self.played.len().checked_sub(1) else {
                    return Err("cannot undo".into());
                };
                let mut board = self.base.clone();
                for &(c, p) in self.played.iter().take(kept) {
                    // Each of these moves was legal on this very board.
                    replay(&mut board, c, p).map_err(|e| e.to_string())?;
                }
                self.played.pop_back();
                self.board = board;
                String::new()
            }
            "final_score" => {
                let [black, white] = self.board.area_score();
                score_text(black as f64 - white as f64 - self.komi)
            }
            "captures" => self.board.captures(color(arg(0)?)?).to_string(),
            "showboard" => format!("\n{}", self.board),
            _ => return Err("unknown command".into()),
        }))
    }
}

impl Gtp {
    /// A new game on `board`.
    fn start(&mut self, board: GoBoard) {
        self.base = board.clone();
        self.board = board;
        self.played.clear();
    }

    /// Play `c` at `p` (`None`: pass) and remember it for `undo`; an
    /// illegal move leaves everything as it was.
    fn play(&mut self, c: Stone, p: Option<usize>) -> Result<(), hashmate_go::IllegalMoveError> {
        let to_move = self.board.to_move();
        if let Err(e) = replay(&mut self.board, c, p) {
            self.board.set_to_move(to_move);
            return Err(e);
        }
        self.played.push_back((c, p));
        if self.played.len() > UNDO_DEPTH {
            if let Some((c, p)) = self.played.pop_front() {
                // Legal here, as it was when it was played.
                let _ = replay(&mut self.base, c, p);
            }
        }
        Ok(())
    }
}

/// A GTP line read as GTP reads it: the comment after `#` dropped, tabs
/// as spaces, then an optional numeric id, the command word and its
/// arguments; `None` for a line with no command (blank or a comment).
pub fn parse_line(line: &str) -> Option<(Option<String>, String, Vec<String>)> {
    let line = line.split('#').next().unwrap_or("").replace('\t', " ");
    let mut words = line.split_whitespace().peekable();
    let id = words
        .peek()
        .filter(|w| w.bytes().all(|b| b.is_ascii_digit()) && w.len() <= 18)
        .map(|w| w.to_string());
    if id.is_some() {
        words.next();
    }
    let cmd = words.next()?.to_string();
    Some((id, cmd, words.map(String::from).collect()))
}

/// `c` plays at `p`, or passes, whoever was to move.
fn replay(
    board: &mut GoBoard,
    c: Stone,
    p: Option<usize>,
) -> Result<(), hashmate_go::IllegalMoveError> {
    board.set_to_move(c);
    match p {
        Some(p) => board.try_play(c, p),
        None => {
            board.pass();
            Ok(())
        }
    }
}

/// A score as GTP writes it, from Black's side: `B+3.5`, `W+0.5`, `0`
/// (one decimal, as GNU Go; more where komi has more).
fn score_text(diff: f64) -> String {
    if diff == 0.0 {
        return "0".into();
    }
    let side = if diff > 0.0 { 'B' } else { 'W' };
    let x = diff.abs();
    if (x * 10.0).fract() == 0.0 {
        format!("{side}+{x:.1}")
    } else {
        format!("{side}+{x}")
    }
}

/// GTP lines longer than this are refused (no GTP command needs more).
pub const MAX_LINE: usize = 4096;
