//! A PGN reader: tag pairs, SAN movetext, comments, variations, NAGs and
//! results, checked move by move against the rules.
//!
//! [`PgnReader`] walks a text game by game. A game whose movetext has an
//! illegal or unreadable move yields a [`PgnError`] naming the line and the
//! problem; the reader then skips to the next game and goes on, so one bad
//! game never loses the rest of a file. By default comments, NAGs and
//! variations (`( … )`) are skipped, as opening-book building only follows
//! the main line; [`PgnReader::with_annotations`] keeps them as a tree
//! ([`Notes`] per move, each [`Variation`] a line of its own with its own
//! notes), every variation move checked legal in its position.
//! [`PgnGame::to_pgn`] and [`Game::to_pgn`](crate::Game::to_pgn) write PGN
//! export format back ([`write`](mod@write)).
//!
//! ```
//! use hashmate::pgn::{GameResult, PgnReader};
//!
//! let text = r#"[Event "Casual"]
//! [Result "1-0"]
//!
//! 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? (3... g6) 4. Qxf7# 1-0
//!
//! [Event "Broken"]
//! [Result "*"]
//!
//! 1. e4 e5 2. Ke3 *
//! "#;
//! let mut games = PgnReader::new(text);
//! let first = games.next().unwrap()?;
//! assert_eq!(first.tag("Event"), Some("Casual"));
//! assert_eq!((first.moves.len(), first.result), (7, GameResult::WhiteWins));
//! let second = games.next().unwrap();
//! assert!(second.unwrap_err().to_string().contains("Ke3")); // illegal: named, skipped
//! assert!(games.next().is_none());
//! # Ok::<(), hashmate::pgn::PgnError>(())
//! ```

use crate::moves::Move;
use crate::position::Position;
#[allow(unused_imports)]
use crate::prelude::*;
use core::fmt;
use std::borrow::Cow;

pub mod stream;
pub mod write;

pub use stream::{GameText, PgnStream};

/// The result of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl GameResult {
    /// The result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

/// What annotates one move: numeric annotation glyphs (`$1`, or a
/// suffix such as `!?` read as its glyph), comments after it, and the
/// variations that replace it (alternatives from the position before it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// NAGs in order (`$1` = 1; `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
    pub nags: Vec<u8>,
    /// Comments after the move: the text without the braces, whitespace
    /// runs as one space.
    pub comments: Vec<String>,
    /// Alternatives to the move, in order.
    pub variations: Vec<Variation>,
}

impl Notes {
    /// Nothing noted.
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comments.is_empty() && self.variations.is_empty()
    }
}

/// A line of moves with its notes: a variation, or (in [`PgnGame`]) the
/// main line's notes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// Comments before the first move.
    pub comment: Vec<String>,
    /// The moves, each legal after the ones before.
    pub moves: Vec<Move>,
    /// One entry per move.
    pub notes: Vec<Notes>,
}

/// One game: tags, main line, and (when read
/// [`with_annotations`](PgnReader::with_annotations)) its comments, NAGs
/// and variations.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The tag pairs, in file order.
    pub tags: Vec<(String, String)>,
    /// The start position (from a `FEN` tag, else the standard one).
    pub start: Position,
    /// The main line, every move checked legal.
    pub moves: Vec<Move>,
    /// Comments before the first move (only when annotations are kept).
    pub comment: Vec<String>,
    /// One entry per main-line move when annotations are kept, else empty.
    pub notes: Vec<Notes>,
    /// The result at the end of the movetext.
    pub result: GameResult,
    /// Line of the file where the game starts (1-based).
    pub line: usize,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A game that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based line of the problem.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl core::error::Error for PgnError {}

/// Iterates over the games of a PGN text.
pub struct PgnReader<'a> {
    /// The text, borrowed; copied only when it has line breaks that are a
    /// lone carriage return (old Mac files), which become `\n` (the same
    /// length, so offsets stay those of the input).
    text: Cow<'a, str>,
    pos: usize,
    line: usize,
    annotations: bool,
}

impl fmt::Debug for PgnReader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PgnReader")
            .field("offset", &self.pos)
            .field("line", &self.line)
            .field("len", &self.text.len())
            .finish()
    }
}

impl<'a> PgnReader<'a> {
    /// A reader of `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a str) -> PgnReader<'a> {
        PgnReader::starting_at_line(text, 1)
    }

    /// A reader of `text` whose first line is line `line` of a larger
    /// input (errors and games name lines of that input).
    pub fn starting_at_line(text: &'a str, line: usize) -> PgnReader<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        PgnReader {
            text: normalise_line_breaks(text),
            pos: 0,
            line,
            annotations: false,
        }
    }

    /// Keep comments, NAGs and variations ([`PgnGame::notes`]); a variation
    /// with an illegal move then makes the game an error, as one in the
    /// main line does.
    ///
    /// ```
    /// use hashmate::pgn::PgnReader;
    /// let text = "{Start} 1. e4 $1 {best by test} (1. d4 d5) e5 2. Nf3 1-0";
    /// let game = PgnReader::new(text).with_annotations().next().unwrap()?;
    /// assert_eq!(game.comment, ["Start"]);
    /// assert_eq!(game.notes[0].nags, [1]);
    /// assert_eq!(game.notes[0].comments, ["best by test"]);
    /// assert_eq!(game.notes[0].variations[0].moves.len(), 2);
    /// assert!(game.to_pgn().contains("1. e4 $1 {best by test} (1. d4 d5) 1... e5"));
    /// # Ok::<(), hashmate::pgn::PgnError>(())
    /// ```
    pub fn with_annotations(mut self) -> PgnReader<'a> {
        self.annotations = true;
        self
    }

    /// Bytes consumed so far (for progress reports).
    pub fn offset(&self) -> usize {
        self.pos
    }

    #[inline]
    fn peek(&self) -> Option<char> {
        // PGN's syntax is ASCII: decode UTF-8 only where a byte says so.
        match self.text.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => self.text[self.pos..].chars().next(),
            None => None,
        }
    }

    #[inline]
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if is_space(c) {
                self.bump();
            } else if c == '%' && self.at_line_start() {
                // Escape line.
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    /// Skip spaces and tabs, not line breaks.
    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.text.as_bytes()[self.pos - 1] == b'\n'
    }

    /// Whether only whitespace stands before this point on its line (a tag
    /// line may be indented).
    fn at_indent(&self) -> bool {
        let before = &self.text.as_bytes()[..self.pos];
        match before
            .iter()
            .rposition(|&b| !is_space(char::from(b)) || b == b'\n')
        {
            None => true,
            Some(i) => before[i] == b'\n',
        }
    }

    /// After an error, skip to the next line that starts with `[` (a new
    /// game's tags), after any indent — or stay, if already at one.
    fn recover(&mut self) {
        // Tracked forward, so that a long run of spaces is crossed once.
        let mut indent = self.at_indent();
        loop {
            match self.peek() {
                None => return,
                Some('[') if indent => return,
                Some(c) => {
                    self.bump();
                    indent = c == '\n' || (indent && is_space(c));
                }
            }
        }
    }

    fn read_tag(&mut self) -> Result<(String, String), String> {
        self.bump(); // '['
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if is_space(c) || c == '"' || c == ']' {
                break;
            }
            name.push(c);
            self.bump();
        }
        // A tag is one line: a missing quote or bracket is an error of
        // this line, and the next line (another tag, say) is left alone.
        self.skip_blanks();
        if self.peek() != Some('"') {
            return Err(format!("tag [{name} …] has no quoted value"));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(format!("tag [{name} …] is not closed")),
                // An escape never takes a line break: a tag is one line.
                Some('\\') => match self.peek() {
                    None | Some('\n') => return Err(format!("tag [{name} …] is not closed")),
                    Some(c) => {
                        self.bump();
                        value.push(c);
                    }
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        self.skip_blanks();
        if self.peek() != Some(']') {
            return Err(format!("tag [{name} …] is missing its ']'"));
        }
        self.bump();
        Ok((name, value))
    }

    /// The next token, in `t` (cleared first; a buffer reused from token to
    /// token).
    fn read_token(&mut self, t: &mut String) {
        t.clear();
        while let Some(c) = self.peek() {
            if is_space(c) || matches!(c, '{' | '}' | '(' | ')' | ';' | '[' | ']') {
                break;
            }
            t.push(c);
            self.bump();
        }
    }

    fn game(&mut self) -> Option<Result<PgnGame, PgnError>> {
        loop {
            let start = self.pos;
            let game = self.game_or_junk()?;
            if game.is_some() {
                return game;
            }
            // Text that is neither tags nor moves (a note after the last
            // result, say): skipped, not a game.
            if self.pos == start {
                self.bump();
            }
        }
    }

    /// The next game; `Some(None)` for text between games that has no tags
    /// and does not begin with a move.
    fn game_or_junk(&mut self) -> Option<Option<Result<PgnGame, PgnError>>> {
        self.skip_ws();
        self.peek()?;
        let start_line = self.line;
        let mut tags = Vec::new();
        let fail = |r: &mut Self, line: usize, message: String| {
            r.recover();
            Some(Some(Err(PgnError { line, message })))
        };
        while self.peek() == Some('[') {
            let line = self.line;
            match self.read_tag() {
                Ok(t) => tags.push(t),
                Err(e) => return fail(self, line, e),
            }
            self.skip_ws();
        }
        let fen = tags
            .iter()
            .find(|(k, _)| k == "FEN")
            .map(|(_, v)| v.clone());
        let start = match fen {
            None => Position::startpos(),
            Some(f) => match Position::from_fen(&f) {
                Ok(p) => p,
                Err(e) => return fail(self, start_line, format!("FEN tag: {e}")),
            },
        };
        // The main line is frame 0; each open variation (kept only with
        // annotations) is a frame above it. Without annotations `depth`
        // counts the variations skipped.
        let mut frames = vec![Frame::new(start.clone())];
        let mut result = None;
        let mut depth = 0usize;
        let keep = self.annotations;
        let mut tok = String::new();
        loop {
            self.skip_ws();
            let line = self.line;
            let open = depth > 0 || frames.len() > 1;
            let top = frames.len() - 1;
            match self.peek() {
                None => break,
                Some('[') if open && self.at_indent() => {
                    // The next game's tags: this game's variation was never
                    // closed. Leave the tags for the next game.
                    return fail(self, line, UNCLOSED.into());
                }
                // The next game, without a result before it.
                Some('[') if !open && self.at_indent() => break,
                Some('[') if !open => {
                    return fail(
                        self,
                        line,
                        "'[' inside the movetext (a tag starts a line of its own)".into(),
                    );
                }
                Some('{') => {
                    self.bump();
                    let mut text = String::new();
                    while let Some(c) = self.bump() {
                        if c == '}' {
                            break;
                        }
                        if keep {
                            text.push(c);
                        }
                    }
                    if keep {
                        frames[top].comment(text.trim());
                    }
                }
                Some(';') => {
                    self.bump();
                    let mut text = String::new();
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                        if keep {
                            text.push(c);
                        }
                    }
                    if keep {
                        frames[top].comment(text.trim());
                    }
                }
                Some('(') => {
                    self.bump();
                    if !keep {
                        depth += 1;
                        continue;
                    }
                    match frames[top].before.clone() {
                        Some(before) => frames.push(Frame::new(before)),
                        None => return fail(self, line, "variation before any move".into()),
                    }
                }
                Some(')') => {
                    self.bump();
                    if !keep {
                        if depth == 0 {
                            return fail(self, line, "')' without a variation to close".into());
                        }
                        depth -= 1;
                        continue;
                    }
                    if top == 0 {
                        return fail(self, line, "')' without a variation to close".into());
                    }
                    let done = frames.pop().map(|f| f.line).unwrap_or_default();
                    if let Some(n) = frames[top - 1].line.notes.last_mut() {
                        n.variations.push(done);
                    }
                }
                Some(_) => {
                    self.read_token(&mut tok);
                    if tok.is_empty() {
                        let c = self.bump().unwrap_or(' ');
                        return fail(self, line, format!("unexpected character {c:?}"));
                    }
                    let tok = tok.as_str();
                    if let Some(r) = GameResult::parse(tok) {
                        if !open {
                            result = Some(r);
                            self.skip_rest_of_line();
                            break;
                        }
                        continue;
                    }
                    if let Some(n) = tok.strip_prefix('$') {
                        if keep {
                            match n.parse::<u8>() {
                                Ok(n) => frames[top].nag(n),
                                Err(_) => return fail(self, line, format!("bad NAG {tok}")),
                            }
                        }
                        continue;
                    }
                    // "e.p." after an en-passant capture; lone suffixes.
                    if matches!(tok, "e.p." | "ep") {
                        continue;
                    }
                    if let Some(n) = suffix_nag(tok) {
                        if keep {
                            frames[top].nag(n);
                        }
                        continue;
                    }
                    if depth > 0 {
                        continue;
                    }
                    let san = strip_move_number(tok);
                    if san.is_empty() {
                        continue;
                    }
                    let frame = &mut frames[top];
                    match frame.pos.parse_san(san) {
                        Ok(mv) => {
                            frame.play(mv, keep);
                            if keep {
                                let glyph = san.trim_start_matches(|c| c != '!' && c != '?');
                                if let Some(n) = suffix_nag(glyph) {
                                    frame.nag(n);
                                }
                            }
                        }
                        Err(_) if tags.is_empty() && top == 0 && frame.line.moves.is_empty() => {
                            // No tags and no move: not a game at all.
                            self.recover();
                            return Some(None);
                        }
                        Err(e) => {
                            let n = frame.line.moves.len() / 2 + 1;
                            let which = if top == 0 { "" } else { " (in a variation)" };
                            return fail(self, line, format!("move {n}{which}: {e}"));
                        }
                    }
                }
            }
        }
        if frames.len() > 1 || depth > 0 {
            return fail(self, self.line, UNCLOSED.into());
        }
        let main = frames.pop().map(|f| f.line).unwrap_or_default();
        let result = result
            .or_else(|| {
                tags.iter()
                    .find(|(k, _)| k == "Result")
                    .and_then(|(_, v)| GameResult::parse(v))
            })
            .unwrap_or(GameResult::Unknown);
        Some(Some(Ok(PgnGame {
            tags,
            start,
            moves: main.moves,
            comment: main.comment,
            notes: if keep { main.notes } else { Vec::new() },
            result,
            line: start_line,
        })))
    }

    /// After a result: the rest of its line is no part of the next game.
    /// (A next game starts on a line of its own: a `[` after a result on
    /// the same line is not read as its tags, so that a game is cut at the
    /// same place whether the text is read whole or line by line.)
    fn skip_rest_of_line(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }
}

/// PGN's whitespace: space, tab, line feed, carriage return, vertical tab
/// and form feed (ASCII only: a no-break space is not a separator, so text
/// is cut into tokens the same way byte by byte as character by character).
/// `text` with each lone carriage return (one not followed by `\n`)
/// made a `\n`; borrowed when there is none.
fn normalise_line_breaks(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let lone = |i: usize| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n');
    if !b.contains(&b'\r') || !(0..b.len()).any(lone) {
        return Cow::Borrowed(text);
    }
    let bytes: Vec<u8> = (0..b.len())
        .map(|i| if lone(i) { b'\n' } else { b[i] })
        .collect();
    // Replacing one ASCII byte by another keeps the text UTF-8.
    Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned()))
}

pub(crate) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
}

/// The error of a variation still open where its game ends (at the next
/// game's tags or at the end of the input).
const UNCLOSED: &str = "variation not closed at the end of the game";

/// A line being read: its position now and before its last move (where a
/// variation of that move starts), and what was read of it.
struct Frame {
    pos: Position,
    before: Option<Position>,
    line: Variation,
}

impl Frame {
    fn new(pos: Position) -> Frame {
        Frame {
            pos,
            before: None,
            line: Variation::default(),
        }
    }

    /// Play `mv`; with `annotations`, also keep the position before it
    /// (where a variation starts) and a place for its notes.
    fn play(&mut self, mv: Move, annotations: bool) {
        if annotations {
            self.before = Some(self.pos.clone());
            self.line.notes.push(Notes::default());
        }
        self.pos.play_unchecked(mv);
        self.line.moves.push(mv);
    }

    /// A comment: after the last move, or before the first. Whitespace
    /// in a comment is not significant in PGN (a writer may break its
    /// lines anywhere): runs of it are kept as one space.
    fn comment(&mut self, text: &str) {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let text = text.as_str();
        match self.line.notes.last_mut() {
            Some(n) => n.comments.push(text.to_string()),
            None => self.line.comment.push(text.to_string()),
        }
    }

    /// A NAG of the last move (ignored before the first).
    fn nag(&mut self, n: u8) {
        if let Some(notes) = self.line.notes.last_mut() {
            notes.nags.push(n);
        }
    }
}

/// The NAG of a move suffix: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6.
fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// The move of a token without its move number: `12.e4`, `12...e5` and `e4`
/// give `e4`; `12.` and `12...` give nothing. Castling written with zeros
/// (`0-0`, `0-0-0`) is not a move number.
fn strip_move_number(tok: &str) -> &str {
    let digits = tok.len() - tok.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &tok[digits..];
    if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else if digits > 0 && rest.is_empty() {
        ""
    } else {
        tok
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<PgnGame, PgnError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.game()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"[Event "Test"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6 3. d4) 3. Bb5 $1 a6 ; rest of line
4. Ba4 1-0

[Event "Second"]
[Result "1/2-1/2"]

1.d4 d5 2.c4 e6 1/2-1/2
"#;

    #[test]
    fn reads_games_with_comments_and_variations() {
        let games: Vec<_> = PgnReader::new(TWO).collect();
        assert_eq!(games.len(), 2);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.moves.len(), 7);
        assert_eq!(g.result, GameResult::WhiteWins);
        assert_eq!(g.tag("White"), Some("A"));
        let g2 = games[1].as_ref().unwrap();
        assert_eq!(g2.moves.len(), 4);
        assert_eq!(g2.result, GameResult::Draw);
        assert_eq!(g2.line, 9); // its [Event tag is the ninth line
    }

    #[test]
    fn bad_game_is_reported_and_skipped() {
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n[Event \"y\"]\n\n1. d4 d5 0-1\n";
        let games: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(games.len(), 2);
        let err = games[0].as_ref().unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("Ke3"), "{err}");
        assert_eq!(games[1].as_ref().unwrap().moves.len(), 2);
    }

    #[test]
    fn an_unclosed_variation_keeps_the_next_games_tags() {
        // The second game starts from its FEN: losing that tag would replay
        // its moves from the standard position.
        let text = "[Event \"a\"]\n\n1. e4 (1. d4 d5 1-0\n\n\
                    [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[Event \"b\"]\n\n1. e4 Kd7 *\n";
        let games: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(games.len(), 2);
        assert!(games[0].as_ref().unwrap_err().message.contains("variation"));
        let g = games[1].as_ref().unwrap();
        assert_eq!(g.tag("Event"), Some("b"));
        assert_eq!(g.start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(g.moves.len(), 2);
    }

    #[test]
    fn lenient_notation_is_read() {
        let text = "[Event \"x\"]\n\n1. e4 d5 2. exd5 e5 3. dxe6 e.p. Nf6 4. Bb5+- c6 \
                    5. Nf3 Bd7 6. 0-0 Qe7 7. d3 Na6 8. Bd2 0-0-0 1-0 and some words\n\n\
                    a note after the game\n\n[Event \"y\"]\n\n1. d4 *\n";
        let games: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(games.len(), 2, "{games:?}");
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.moves.len(), 16);
        assert!(g.moves[10].is_castling() && g.moves[15].is_castling());
        assert_eq!(g.result, GameResult::WhiteWins);
        assert_eq!(games[1].as_ref().unwrap().moves.len(), 1);
        assert_eq!(strip_move_number("12...Nf3"), "Nf3");
        assert_eq!(strip_move_number("12"), "");
        assert_eq!(strip_move_number("0-0-0"), "0-0-0");
    }

    #[test]
    fn an_indented_tag_line_starts_a_game() {
        // Indented tags are tags, and an indented tag line after movetext
        // begins the next game, as an unindented one does; a `[` later in
        // a line of movetext is still an error.
        let text = "  [Event \"a\"]\n\t[Site \"b\"]\n1. e4 e5\n  [Event \"c\"]\n1. d4 *\n\n\
                    [Event \"d\"]\n1. c4 [Event \"e\"]\n\n [Event \"f\"]\n1. Nf3 *\n";
        let got: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(got.len(), 4, "{got:?}");
        let a = got[0].as_ref().unwrap();
        assert_eq!(
            (a.tag("Event"), a.tag("Site"), a.moves.len()),
            (Some("a"), Some("b"), 2)
        );
        let c = got[1].as_ref().unwrap();
        assert_eq!((c.tag("Event"), c.moves.len(), c.line), (Some("c"), 1, 4));
        let d = got[2].as_ref().unwrap_err();
        assert_eq!(d.line, 8);
        assert!(d.to_string().contains("'[' inside the movetext"), "{d}");
        let f = got[3].as_ref().unwrap();
        assert_eq!((f.tag("Event"), f.moves.len(), f.line), (Some("f"), 1, 10));
    }

    #[test]
    fn hostile_inputs_do_not_panic() {
        for text in [
            "",
            "[",
            "[Event",
            "[Event \"unterminated",
            "1. e4 (((",
            ")",
            "1. e4 { never closed",
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4",
            "1. ♞f3 e5",
            "\u{feff}1. e4 e5 *",
        ] {
            for g in PgnReader::new(text) {
                let _ = g.map(|g| g.moves.len()).map_err(|e| e.to_string());
            }
        }
    }

    #[test]
    fn a_nul_byte_is_named_and_only_its_game_is_lost() {
        let text = "[Event \"a\"]\n\n1. e4 \0 e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n";
        let got: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(got.len(), 2);
        let err = got[0].as_ref().unwrap_err().to_string();
        assert!(err.contains("line 3") && err.contains("'\\u{0}'"), "{err}");
        assert_eq!(got[1].as_ref().unwrap().moves.len(), 2);
    }
}
